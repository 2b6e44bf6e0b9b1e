/**
 * A URDF robot's visual geometry (WorldInfo.visuals) as three.js objects, one group per body,
 * in the body frame (the sim root converts z-up once; nothing here converts axes).
 *
 *   box        BoxGeometry of the full size
 *   cylinder   along local z as in URDF: three's CylinderGeometry runs along y, turned +90° about x
 *   sphere     SphereGeometry
 *   mesh       STL (the sim's reader, sim/robot/mesh/stl.ts), OBJ (OBJLoader), Collada
 *              (ColladaLoader) from bytes the caller gathered through the Host, scaled per axis by
 *              the URDF's scale. Each file is measured first (sim/robot/mesh/visual-limits.ts: face
 *              corners, triangles, no DTD entities in Collada): the loaders run on this thread,
 *              and one huge face or an entity bomb froze the window for seconds to minutes.
 *
 * Colours: the URDF material's RGBA (alpha < 1 drawn transparent), else VISUAL_DEFAULT_COLOR. STL
 * and OBJ take the URDF colour; a Collada file keeps its own materials unless the URDF gives a colour.
 *
 * Collada's <up_axis>: three's ColladaLoader turns a Z_UP file by −90° about x to make it y-up. ROS
 * tools (rviz, and the ros3djs loader written to match it) use the vertices as written whatever the
 * up axis says, and URDF meshes are authored for that, so the loader's rotation is undone: the
 * file's coordinates are the link's coordinates, under our single z-up root.
 *
 * A visual whose file is missing or does not parse is left out with a warning: it changes the
 * look, not the physics. Building needs no WebGL (unit-tested in Node), except Collada, which
 * parses XML with the browser's DOMParser.
 */
import * as THREE from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js';
import type { VisualSpec } from '../../sim/app/protocol';
import { parseStl } from '../../sim/robot/mesh/stl';
import { checkVisualMesh } from '../../sim/robot/mesh/visual-limits';

/** Colour of a visual whose URDF material gives none (light grey). */
export const VISUAL_DEFAULT_COLOR = 0xb4b4b4;
/** Sides of a visual cylinder (a wheel): enough to look round at robot scale. */
const CYLINDER_SEGMENTS = 32;

/** Bytes of a visual mesh file by its resolved path (VisualSpec geometry.file), or undefined. */
export type MeshBytes = (file: string) => Uint8Array | undefined;

export interface RobotVisuals {
  /** Body name → its visuals (in the body frame). */
  byBody: Map<string, THREE.Group>;
  warnings: string[];
}

function materialOf(color: VisualSpec['color']): THREE.MeshLambertMaterial {
  if (!color) return new THREE.MeshLambertMaterial({ color: VISUAL_DEFAULT_COLOR });
  const [r, g, b, a] = color;
  const m = new THREE.MeshLambertMaterial({ color: new THREE.Color(r, g, b) });
  if (a < 1) {
    m.transparent = true;
    m.opacity = Math.max(0, a);
  }
  return m;
}

function extensionOf(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? base.slice(dot + 1).toLowerCase() : '';
}

const text = new TextDecoder();

/** Replaces every mesh material under `obj` with `mat` (OBJ without its .mtl, coloured Collada). */
function paint(obj: THREE.Object3D, mat: THREE.Material): void {
  obj.traverse((o) => {
    if (o instanceof THREE.Mesh) {
      const old = o.material as THREE.Material | THREE.Material[];
      for (const m of Array.isArray(old) ? old : [old]) if (m !== mat) m.dispose();
      o.material = mat;
    }
  });
}

/** The object of a mesh file (in the file's units, before the URDF scale). Throws on a bad file. */
export function meshObject(file: string, bytes: Uint8Array, color: VisualSpec['color']): THREE.Object3D {
  const ext = extensionOf(file);
  checkVisualMesh(file, bytes);
  if (ext === 'stl') {
    // The sim's reader: linear and capped (three's STLLoader runs backtracking regexes over ASCII).
    const mesh = parseStl(bytes, file);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(Float32Array.from(mesh.positions), 3));
    // parseStl's indices are 0, 1, 2, … (one vertex per corner, as STLLoader): flat normals.
    geometry.computeVertexNormals();
    return new THREE.Mesh(geometry, materialOf(color));
  }
  if (ext === 'obj') {
    const group = new OBJLoader().parse(text.decode(bytes));
    paint(group, materialOf(color));
    return group;
  }
  if (ext === 'dae') {
    const dae = new ColladaLoader().parse(text.decode(bytes), '');
    if (!dae) throw new Error('not a Collada document');
    dae.scene.rotation.set(0, 0, 0); // vertices as written (see the header)
    if (color) paint(dae.scene, materialOf(color));
    return dae.scene;
  }
  throw new Error(`".${ext}" meshes are not drawn (STL, OBJ and Collada .dae are)`);
}

/** The object of one visual, placed in its body frame. */
export function visualObject(v: VisualSpec, meshBytes: MeshBytes): THREE.Object3D {
  const g = v.geometry;
  let obj: THREE.Object3D;
  switch (g.type) {
    case 'box':
      obj = new THREE.Mesh(new THREE.BoxGeometry(g.size[0], g.size[1], g.size[2]), materialOf(v.color));
      break;
    case 'cylinder':
      obj = new THREE.Mesh(new THREE.CylinderGeometry(g.radius, g.radius, g.length, CYLINDER_SEGMENTS, 1).rotateX(Math.PI / 2), materialOf(v.color));
      break;
    case 'sphere':
      obj = new THREE.Mesh(new THREE.SphereGeometry(g.radius, 24, 16), materialOf(v.color));
      break;
    case 'mesh': {
      const bytes = meshBytes(g.file);
      if (!bytes) throw new Error(`mesh "${g.uri}" was not supplied (${g.file})`);
      const inner = meshObject(g.file, bytes, v.color);
      obj = new THREE.Group();
      obj.scale.set(g.scale[0], g.scale[1], g.scale[2]);
      obj.add(inner);
      break;
    }
  }
  obj.position.set(v.position[0], v.position[1], v.position[2]);
  obj.quaternion.set(v.orientation[0], v.orientation[1], v.orientation[2], v.orientation[3]);
  obj.name = `visual:${v.link}`;
  return obj;
}

/** Every visual, grouped by body; what cannot be built is a warning naming the link. */
export function buildRobotVisuals(visuals: readonly VisualSpec[], meshBytes: MeshBytes): RobotVisuals {
  const byBody = new Map<string, THREE.Group>();
  const warnings: string[] = [];
  for (const v of visuals) {
    let obj: THREE.Object3D;
    try {
      obj = visualObject(v, meshBytes);
    } catch (e) {
      warnings.push(`link "${v.link}": visual not drawn: ${(e as Error).message}`);
      continue;
    }
    let group = byBody.get(v.body);
    if (!group) {
      group = new THREE.Group();
      group.name = `visuals:${v.body}`;
      byBody.set(v.body, group);
    }
    group.add(obj);
  }
  return { byBody, warnings };
}

/**
 * MeshBytes over the files gathered for the worker (ScenarioFiles.robotMeshes, keyed by resolved
 * path), falling back to the base name as the worker's loader does.
 */
export function meshLookup(files: Readonly<Record<string, Uint8Array>> | undefined): MeshBytes {
  return (file) => {
    if (!files) return undefined;
    if (Object.prototype.hasOwnProperty.call(files, file)) return files[file];
    const base = file.slice(file.lastIndexOf('/') + 1);
    for (const [k, v] of Object.entries(files)) if (k.slice(k.lastIndexOf('/') + 1) === base) return v;
    return undefined;
  };
}
