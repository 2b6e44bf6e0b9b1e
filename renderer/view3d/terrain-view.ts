/**
 * The terrain as a three.js mesh, from the worker's TerrainInfo through sim/terrain/mesh.ts (the
 * same V1–V2 diagonal as collision). Built in the simulation frame; the scene's root transform
 * makes it y-up.
 */
import * as THREE from 'three';
import type { TerrainInfo } from '../../sim/protocol';
import { buildTerrainMesh, chooseTerrainStride } from '../../sim/terrain/mesh';
import { heightColors } from './height-colors';

export interface TerrainView {
  mesh: THREE.Mesh;
  /** Mesh sampling stride (1 = exact collision surface). */
  stride: number;
  dispose(): void;
}

/**
 * Darkens thin lines at every whole metre of x and y (simulation frame), so motion over flat
 * ground is visible and distances can be read off the view. Lines are anti-aliased with screen-space
 * derivatives (fwidth), so they stay about one pixel wide at any distance.
 */
function addMetreGrid(mat: THREE.MeshLambertMaterial): void {
  mat.onBeforeCompile = (shader) => {
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', '#include <common>\nvarying vec2 vSimXY;')
      .replace('#include <begin_vertex>', '#include <begin_vertex>\nvSimXY = position.xy;');
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', '#include <common>\nvarying vec2 vSimXY;')
      .replace(
        '#include <color_fragment>',
        [
          '#include <color_fragment>',
          'vec2 gridD = abs(fract(vSimXY - 0.5) - 0.5) / max(fwidth(vSimXY), vec2(1e-4));',
          'float gridLine = 1.0 - min(min(gridD.x, gridD.y), 1.0);',
          'diffuseColor.rgb *= 1.0 - 0.35 * gridLine;',
        ].join('\n'),
      );
  };
}

/** `maxVertices`: the mesh budget (gl-info.ts terrainVertexBudget); bigger maps get an integer stride. */
export function createTerrainView(info: TerrainInfo, maxVertices: number): TerrainView {
  const stride = chooseTerrainStride(info.cols, info.rows, maxVertices);
  const m = buildTerrainMesh(info, stride);
  const geom = new THREE.BufferGeometry();
  geom.setAttribute('position', new THREE.BufferAttribute(m.positions, 3));
  geom.setAttribute('normal', new THREE.BufferAttribute(m.normals, 3));
  geom.setAttribute('color', new THREE.BufferAttribute(heightColors(m.positions, info.minHeight, info.maxHeight), 3));
  geom.setIndex(new THREE.BufferAttribute(m.indices, 1));
  geom.computeBoundingSphere();
  const mat = new THREE.MeshLambertMaterial({ vertexColors: true });
  addMetreGrid(mat);
  const mesh = new THREE.Mesh(geom, mat);
  mesh.name = 'terrain';
  return {
    mesh,
    stride,
    dispose() {
      geom.dispose();
      mat.dispose();
    },
  };
}
