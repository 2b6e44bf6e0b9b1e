/**
 * Terrain LOD (renderer/view3d/terrain-lod.ts): which chunks at which stride for a camera, and
 * chunk meshes whose seams show no crack. Oracles: a cell-ownership grid (the chunks tile the map
 * exactly once), the quadtree's own definition checked chunk by chunk (not split, parent split),
 * the worker's terrainPatch for overview slices, and a point-in-triangle test of the skirts in
 * the plane of a shared border.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { terrainOverview, terrainPatch } from '../../../sim/terrain/patch';
import { sampleCount } from '../../../sim/terrain/mesh';
import {
  chunkDistance, chunkMesh, chunkRequest, chunkVertexCount, lodChunk, parentChunk, patchFromOverview, placeholderChunk, rootLevel, selectChunks,
  SKIRT_MARGIN, type LodChunk, type LodGrid,
} from '../../../renderer/view3d/terrain-lod';

function field(cols: number, rows: number, seed: number, amp = 1): Heightfield {
  const rng = new Rng(seed);
  const h = new Float64Array(cols * rows);
  for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) h[j * cols + i] = amp * (Math.sin(i * 0.21) + Math.cos(j * 0.17)) + rng.range(-0.3, 0.3) * amp;
  return Heightfield.fromArray({ cols, rows, dx: 0.1, dy: 0.1, x0: -3, y0: 1, heights: h });
}
const gridOf = (hf: Heightfield): LodGrid => ({ cols: hf.cols, rows: hf.rows, dx: hf.dx, dy: hf.dy, x0: hf.x0, y0: hf.y0, minHeight: hf.minHeight, maxHeight: hf.maxHeight });
const side = (g: LodGrid, C: number, level: number): number => C * 2 ** level * Math.max(g.dx, g.dy);

describe('chunk selection', () => {
  const hf = field(301, 203, 1);
  const g = gridOf(hf);
  const C = 8;

  it('tiles every cell exactly once and obeys the split rule chunk by chunk (seeded eyes)', () => {
    const rng = new Rng(11);
    const root = rootLevel(g, C);
    expect(root).toBe(6); // 8·2^6 = 512 ≥ 300 > 256
    for (let trial = 0; trial < 40; trial++) {
      const eye = [rng.range(-10, 40), rng.range(-5, 30), rng.range(-2, 30)];
      const F = rng.range(0.3, 2);
      const focus = trial % 2 === 0 ? [rng.range(-3, 27), rng.range(1, 21)] : undefined;
      const R = 1.5;
      const { chunks } = selectChunks(g, eye, { chunkCells: C, splitFactor: F, maxVertices: Infinity, focus, focusRadius: R });
      const focusD = (c: LodChunk): number => (focus ? chunkDistance(g, c, focus[0], focus[1], (g.minHeight + g.maxHeight) / 2) : Infinity);
      const owner = new Int32Array((g.cols - 1) * (g.rows - 1)).fill(-1);
      let overlaps = 0;
      chunks.forEach((c, n) => {
        for (let j = c.j0; j < c.j0 + c.rows - 1; j++) for (let i = c.i0; i < c.i0 + c.cols - 1; i++) {
          if (owner[j * (g.cols - 1) + i] !== -1) overlaps++;
          owner[j * (g.cols - 1) + i] = n;
        }
        const d = chunkDistance(g, c, eye[0], eye[1], eye[2]);
        if (c.level > 0) {
          expect(d).toBeGreaterThanOrEqual(F * side(g, C, c.level));
          expect(focusD(c)).toBeGreaterThanOrEqual(R);
        }
        const parent = parentChunk(g, C, c, root);
        if (parent) expect(chunkDistance(g, parent, eye[0], eye[1], eye[2]) < F * side(g, C, parent.level) || focusD(parent) < R).toBe(true);
        expect(c.stride).toBe(2 ** c.level);
      });
      expect(overlaps).toBe(0);
      expect(owner.every((o) => o >= 0)).toBe(true);
    }
  });

  it('a camera close over the map draws the ground under it at stride 1 and the far corners coarser', () => {
    const eye = [12, 8, hf.heightAt(12, 8) + 2];
    const { chunks } = selectChunks(g, eye, { chunkCells: C, splitFactor: 1.5, maxVertices: Infinity });
    const at = (x: number, y: number): LodChunk => chunks.find((c) => x >= g.x0 + c.i0 * g.dx && x < g.x0 + (c.i0 + c.cols - 1) * g.dx && y >= g.y0 + c.j0 * g.dy && y < g.y0 + (c.j0 + c.rows - 1) * g.dy)!;
    expect(at(12, 8).stride).toBe(1);
    expect(at(12.5, 8.5).stride).toBe(1);
    expect(at(g.x0 + 0.05, g.y0 + 20).stride).toBeGreaterThanOrEqual(4);
    expect(at(g.x0 + 29.9, g.y0 + 0.05).stride).toBeGreaterThanOrEqual(4);
  });

  it('the ground around the focus (the followed robot) is at stride 1 with the camera far away and a tight budget', () => {
    const eye = [12, 8, 150];
    const focus = [4, 12];
    const { chunks } = selectChunks(g, eye, { chunkCells: C, splitFactor: 1.5, maxVertices: 2000, focus, focusRadius: 1.5 });
    for (const c of chunks) if (chunkDistance(g, c, focus[0], focus[1], 0) < 1.5) expect(c.stride).toBe(1);
    expect(chunks.filter((c) => c.stride === 1).length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...chunks.map((c) => c.stride))).toBeGreaterThanOrEqual(8);
  });

  it('keeps to the vertex budget by lowering the split factor', () => {
    const eye = [12, 8, 2];
    const free = selectChunks(g, eye, { chunkCells: C, splitFactor: 1.5, maxVertices: Infinity });
    const budget = Math.floor(free.vertices / 3);
    const tight = selectChunks(g, eye, { chunkCells: C, splitFactor: 1.5, maxVertices: budget });
    expect(tight.vertices).toBeLessThanOrEqual(budget);
    expect(tight.splitFactor).toBeLessThan(1.5);
    expect(tight.vertices).toBe(tight.chunks.reduce((a, c) => a + chunkVertexCount(g, c), 0));
  });

  it('a 4097² map at 5 cm, camera 3 m over the middle: every chunk at most 33² samples, a few hundred at most', () => {
    const big: LodGrid = { cols: 4097, rows: 4097, dx: 0.05, dy: 0.05, x0: 0, y0: 0, minHeight: 0, maxHeight: 10 };
    const { chunks, vertices } = selectChunks(big, [102.4, 102.4, 13], { chunkCells: 32, splitFactor: 1.5, maxVertices: 1025 * 1025 });
    expect(chunks.length).toBeLessThan(400);
    expect(vertices).toBeLessThan(1025 * 1025);
    expect(Math.max(...chunks.map((c) => sampleCount(c.cols, c.stride) * sampleCount(c.rows, c.stride)))).toBe(33 * 33);
    expect(chunks.find((c) => c.i0 <= 2048 && 2048 < c.i0 + c.cols - 1 && c.j0 <= 2048 && 2048 < c.j0 + c.rows - 1)!.stride).toBe(1);
  });

  it('names bad options', () => {
    expect(() => selectChunks(g, [0, 0, 0], { chunkCells: 0, splitFactor: 1, maxVertices: 1e6 })).toThrow(/chunkCells/);
    expect(() => selectChunks(g, [0, 0, 0], { chunkCells: 8, splitFactor: Number.NaN, maxVertices: 1e6 })).toThrow(/splitFactor/);
  });
});

describe('chunk meshes', () => {
  const hf = field(150, 140, 7, 2);
  const g = gridOf(hf);
  const C = 8;
  const patchOf = (c: LodChunk) => terrainPatch(hf, ...chunkRequest(c));

  it('stride-1 chunks are the collision surface: the heightfield\'s vertices and the V1–V2 diagonal', () => {
    const c = lodChunk(g, C, 0, 3, 2)!;
    const m = chunkMesh(g, c, patchOf(c));
    expect([m.sampleCols, m.sampleRows]).toEqual([9, 9]);
    for (let r = 0; r < 9; r++) for (let k = 0; k < 9; k++) {
      const o = 3 * (r * 9 + k);
      expect(m.positions[o]).toBeCloseTo(hf.vertexX(c.i0 + k), 5);
      expect(m.positions[o + 2]).toBe(Math.fround(hf.height(c.i0 + k, c.j0 + r)));
    }
    const edges = new Set<string>();
    for (let t = 0; t < 8 * 8 * 6; t += 3) {
      const v = [m.indices[t], m.indices[t + 1], m.indices[t + 2]];
      for (let e = 0; e < 3; e++) edges.add([v[e], v[(e + 1) % 3]].sort((a, b) => a - b).join('-'));
    }
    for (let r = 0; r < 8; r++) for (let k = 0; k < 8; k++) {
      const v0 = r * 9 + k, v1 = v0 + 1, v2 = v0 + 9, v3 = v0 + 10;
      expect(edges.has(`${Math.min(v1, v2)}-${Math.max(v1, v2)}`)).toBe(true);
      expect(edges.has(`${v0}-${v3}`)).toBe(false);
    }
  });

  it('chunks cut from the overview equal the worker\'s patches of the same request', () => {
    const big = field(1029, 300, 3); // overview stride 8 (1029 → 129 samples, last one clamped)
    const o = terrainOverview(big);
    expect(o.stride).toBe(8);
    const bg = gridOf(big);
    for (const [level, ci, cj] of [[3, 0, 0], [3, 15, 4], [4, 7, 2], [5, 3, 1], [7, 0, 0]]) {
      const c = lodChunk(bg, C, level, ci, cj)!;
      const a = patchFromOverview(bg, o, c)!;
      const b = terrainPatch(big, ...chunkRequest(c));
      expect({ ...a, heights: Array.from(a.heights) }).toEqual({ i0: b.i0, j0: b.j0, cols: b.cols, rows: b.rows, stride: b.stride, sampleCols: b.sampleCols, sampleRows: b.sampleRows, heights: Array.from(b.heights) });
    }
    expect(patchFromOverview(bg, o, lodChunk(bg, C, 2, 0, 0)!)).toBeNull(); // stride 4 is finer than the overview
  });

  it('a stand-in for a chunk finer than the overview: the overview\'s own samples, bilinear between them', () => {
    const o4 = terrainOverview(hf, 40); // 150 × 140 vertices → stride 4
    expect(o4.stride).toBe(4);
    const c = lodChunk(g, C, 0, 5, 3)!;
    const a = placeholderChunk(g, o4, c, C);
    expect(a.chunk.stride).toBe(4);
    const b = terrainPatch(hf, ...chunkRequest(a.chunk));
    expect(Array.from(a.patch.heights)).toEqual(Array.from(b.heights));
    expect(() => chunkMesh(g, a.chunk, a.patch)).not.toThrow();
    // an overview coarser than the chunk (stride 64 > 8 cells): corners only, bilinear in the overview
    const o64 = terrainOverview(hf, 4);
    expect(o64.stride).toBe(64);
    const p = placeholderChunk(g, o64, c, C);
    expect(p.chunk.stride).toBe(8);
    expect([p.patch.sampleCols, p.patch.sampleRows]).toEqual([4, 4]); // the chunk's 2 × 2 corners and a ring
    // vertex (40, 24) lies in the overview cell 0..64 × 0..64: u = 40/64, v = 24/64
    const h = (i: number, j: number) => Math.fround(hf.height(i, j));
    const u = 40 / 64, v = 24 / 64;
    const want = (h(0, 0) * (1 - u) + h(64, 0) * u) * (1 - v) + (h(0, 64) * (1 - u) + h(64, 64) * u) * v;
    expect(p.patch.heights[1 * 4 + 1]).toBeCloseTo(want, 5);
  });

  it('no crack along a border shared by a stride-1 and a stride-4 chunk: the gap lies on one of the skirts', () => {
    // fine (level 0) chunk at cells 32..40 × 16..24; its west neighbour at level 2 covers 0..32 × 0..32
    const fine = lodChunk(g, C, 0, 4, 2)!;
    const coarse = lodChunk(g, C, 2, 0, 0)!;
    expect(coarse.i0 + coarse.cols - 1).toBe(fine.i0);
    const mf = chunkMesh(g, fine, patchOf(fine));
    const mc = chunkMesh(g, coarse, patchOf(coarse));
    expect(mf.skirtBottom).toBeCloseTo(hf.minHeight - SKIRT_MARGIN, 5);
    const xEdge = hf.vertexX(fine.i0);
    /** Triangles lying in the plane x = xEdge, as (y, z) triples. */
    const planar = (m: typeof mf): number[][] => {
      const out: number[][] = [];
      for (let t = 0; t < m.indices.length; t += 3) {
        const v = [0, 1, 2].map((e) => 3 * m.indices[t + e]);
        if (v.every((o) => Math.abs(m.positions[o] - xEdge) < 1e-4)) out.push(v.flatMap((o) => [m.positions[o + 1], m.positions[o + 2]]));
      }
      return out;
    };
    const inTri = (t: number[], y: number, z: number): boolean => {
      const s = (ax: number, ay: number, bx: number, by: number) => (bx - ax) * (z - ay) - (by - ay) * (y - ax);
      const d1 = s(t[0], t[1], t[2], t[3]), d2 = s(t[2], t[3], t[4], t[5]), d3 = s(t[4], t[5], t[0], t[1]);
      const eps = 1e-6;
      return (d1 >= -eps && d2 >= -eps && d3 >= -eps) || (d1 <= eps && d2 <= eps && d3 <= eps);
    };
    const skirts = [...planar(mf), ...planar(mc)];
    expect(planar(mf).length).toBe(2 * 8);
    /** Height of a mesh's top edge at y along x = xEdge (linear between its border samples). */
    const edgeZ = (m: typeof mf, y: number): number => {
      const pts: [number, number][] = [];
      for (let v = 0; v < m.sampleCols * m.sampleRows; v++) if (Math.abs(m.positions[3 * v] - xEdge) < 1e-4) pts.push([m.positions[3 * v + 1], m.positions[3 * v + 2]]);
      pts.sort((a, b) => a[0] - b[0]);
      for (let k = 0; k + 1 < pts.length; k++) if (y >= pts[k][0] && y <= pts[k + 1][0]) return pts[k][1] + ((y - pts[k][0]) / (pts[k + 1][0] - pts[k][0])) * (pts[k + 1][1] - pts[k][1]);
      throw new Error(`y ${y} off the edge`);
    };
    let worstGap = 0;
    for (let q = 0; q <= 64; q++) {
      const y = hf.vertexY(fine.j0) + (q / 64) * (fine.rows - 1) * hf.dy;
      const a = edgeZ(mf, y), b = edgeZ(mc, y);
      worstGap = Math.max(worstGap, Math.abs(a - b));
      for (let u = 0.02; u < 1; u += 0.16) {
        const z = Math.min(a, b) + u * Math.abs(a - b);
        expect(skirts.some((t) => inTri(t, y, z))).toBe(true);
      }
    }
    expect(worstGap).toBeGreaterThan(0.1); // the two edges really differ: there is a gap to fill
  });

  it('skirts face away from their chunk, none hang on the map\'s edge, and they close where they meet it', () => {
    const corner = lodChunk(g, C, 0, 0, 0)!;
    const m = chunkMesh(g, corner, patchOf(corner));
    expect(m.positions.length / 3).toBe(81 + 9 + 9); // east and north skirts only
    const cx = hf.vertexX(corner.i0 + 4), cy = hf.vertexY(corner.j0 + 4);
    for (let t = 8 * 8 * 6; t < m.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((e) => 3 * m.indices[t + e]);
      const ux = m.positions[b] - m.positions[a], uy = m.positions[b + 1] - m.positions[a + 1], uz = m.positions[b + 2] - m.positions[a + 2];
      const vx = m.positions[c] - m.positions[a], vy = m.positions[c + 1] - m.positions[a + 1], vz = m.positions[c + 2] - m.positions[a + 2];
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz;
      const area = Math.hypot(nx, ny);
      if (area > 1e-9) expect(nx * (m.positions[a] - cx) + ny * (m.positions[a + 1] - cy)).toBeGreaterThan(0); // (a quad closing at the map's edge has one empty triangle)
    }
    // where a skirt meets the map's edge it closes to the surface (nothing hides it from outside)
    const last = 81; // first skirt vertex: east side, bottom (j = 0 on the map's south edge)
    expect(m.positions[3 * last + 2]).toBe(m.positions[3 * 8 + 2]);
    expect(m.positions[3 * (last + 1) + 2]).toBeCloseTo(m.skirtBottom, 6);
  });
});
