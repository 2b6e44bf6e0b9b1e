/**
 * renderer/render-stats.ts: the measures the renderer benchmark reads through the test hook.
 * The terrain's GPU bytes are checked against sums written out by hand from the buffers built
 * here (not from the function's own traversal), for a single mesh (today's terrain-view.ts) and
 * for a group of chunks sharing an index buffer (a LOD layout).
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { FrameTiming, terrainGpuMemory, typedArrayBytes } from '../../../renderer/render-stats';

function gridGeometry(vertices: number, triangles: number, index?: THREE.BufferAttribute): THREE.BufferGeometry {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * vertices), 3));
  g.setAttribute('normal', new THREE.BufferAttribute(new Float32Array(3 * vertices), 3));
  g.setIndex(index ?? new THREE.BufferAttribute(new Uint32Array(3 * triangles), 1));
  return g;
}

describe('terrainGpuMemory', () => {
  it('counts a single terrain mesh\'s attributes and index, and nothing outside the terrain', () => {
    const root = new THREE.Group();
    const terrain = new THREE.Mesh(gridGeometry(100, 162), new THREE.MeshBasicMaterial());
    terrain.name = 'terrain';
    const rock = new THREE.Mesh(gridGeometry(8, 12), new THREE.MeshBasicMaterial());
    root.add(terrain, rock);
    const m = terrainGpuMemory(root);
    expect(m.bytes).toBe(100 * 12 + 100 * 12 + 162 * 3 * 4);
    expect(m.geometries).toBe(1);
    expect(m.vertices).toBe(100);
    expect(m.visibleVertices).toBe(100);
  });

  it('counts chunks under a "terrain" group once per buffer (shared index, shared geometry), data textures, and hidden chunks apart', () => {
    const root = new THREE.Group();
    const group = new THREE.Group();
    group.name = 'terrain';
    root.add(group);
    const sharedIndex = new THREE.BufferAttribute(new Uint16Array(3 * 50), 1);
    const a = gridGeometry(36, 50, sharedIndex);
    const b = gridGeometry(36, 50, sharedIndex);
    const heightMap = new THREE.DataTexture(new Float32Array(64 * 64), 64, 64, THREE.RedFormat, THREE.FloatType);
    const mat = new THREE.MeshBasicMaterial({ map: heightMap });
    const chunkA = new THREE.Mesh(a, mat);
    const chunkA2 = new THREE.Mesh(a, mat); // the same geometry drawn twice
    const chunkB = new THREE.Mesh(b, mat);
    chunkB.visible = false;
    group.add(chunkA, chunkA2, chunkB);
    const m = terrainGpuMemory(root);
    const attrs = 2 * (36 * 12 * 2);
    expect(m.bytes).toBe(attrs + 3 * 50 * 2 + 64 * 64 * 4);
    expect(m.geometries).toBe(2);
    expect(m.vertices).toBe(72);
    expect(m.visibleVertices).toBe(72); // chunkA twice, chunkB hidden
  });

  it('gives zero without a terrain object', () => {
    const root = new THREE.Group();
    root.add(new THREE.Mesh(gridGeometry(4, 2), new THREE.MeshBasicMaterial()));
    expect(terrainGpuMemory(root)).toEqual({ bytes: 0, geometries: 0, vertices: 0, visibleVertices: 0 });
  });
});

describe('typedArrayBytes', () => {
  it('sums the views and buffers reachable through objects and arrays, each object once', () => {
    const heights = new Float32Array(1000);
    const info = { cols: 10, heights, again: heights, tiles: [new Uint16Array(7), { raw: new ArrayBuffer(5) }], name: 'x' };
    expect(typedArrayBytes(info)).toBe(4000 + 14 + 5);
    expect(typedArrayBytes(null)).toBe(0);
    expect(typedArrayBytes({ deep: { deeper: new Uint8Array(3) } }, 1)).toBe(0);
  });
});

describe('FrameTiming', () => {
  it('keeps the newest frames in order once the ring wraps', () => {
    const t = new FrameTiming(3);
    for (let k = 0; k < 5; k++) t.record(100 * k, k + 0.5);
    const s = t.snapshot();
    expect(s.count).toBe(5);
    expect(s.startMs).toEqual([200, 300, 400]);
    expect(s.callbackMs).toEqual([2.5, 3.5, 4.5]);
    expect(() => new FrameTiming(0)).toThrow(/capacity/);
  });
});
