/**
 * The LOD terrain's per-frame build budget (renderer/view3d/terrain-view.ts): overview cuts and
 * stand-ins are built at most LOD_STANDIN_BUILDS_PER_FRAME per update, a new world's chunks show
 * as they are built (the followed body's ground first), and after a camera jump the previous chunks stay drawn (the map tiled once,
 * no hole, no overlap) until the new selection is complete, which it becomes over a few frames.
 * The worker is a fetcher that never answers, so every fine chunk stays a stand-in.
 */
import { describe, expect, it } from 'vitest';
import { TerrainView } from '../../../renderer/view3d/terrain-view';
import { selectChunks, type LodGrid } from '../../../renderer/view3d/terrain-lod';
import { LOD_FOCUS_RADIUS, LOD_SPLIT_FACTOR, LOD_STANDIN_BUILDS_PER_FRAME } from '../../../renderer/config';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { terrainOverview } from '../../../sim/terrain/patch';
import type { TerrainInfo, TerrainPatch } from '../../../sim/app/protocol';

const N = 513;
const C = 16;
const MAX_VERTICES = 257 * 257;

function world(): TerrainInfo {
  const h = new Float64Array(N * N);
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) h[j * N + i] = 0.5 * Math.sin(i * 0.05) + 0.3 * Math.cos(j * 0.07);
  const hf = Heightfield.fromArray({ cols: N, rows: N, dx: 0.1, dy: 0.1, x0: -25.6, y0: -25.6, heights: h });
  return { cols: N, rows: N, dx: hf.dx, dy: hf.dy, x0: hf.x0, y0: hf.y0, minHeight: hf.minHeight, maxHeight: hf.maxHeight, overview: terrainOverview(hf) };
}

/** The worker never answers: fine chunks stay stand-ins, nothing arrives between updates. */
const silent = (): Promise<TerrainPatch> => new Promise<TerrainPatch>(() => undefined);

const drawnKeys = (v: TerrainView): string[] => v.group.children.map((m) => m.name.replace(/^terrain-chunk /, '')).sort();

/** Cells covered by the drawn chunks, and whether any cell is covered twice. */
function coverage(v: TerrainView, g: LodGrid): { cells: number; overlap: boolean } {
  const seen = new Uint8Array((g.cols - 1) * (g.rows - 1));
  let cells = 0, overlap = false;
  for (const key of drawnKeys(v)) {
    const [level, ci, cj] = key.split('/').map(Number);
    const side = C * 2 ** level;
    const i0 = ci * side, j0 = cj * side;
    for (let j = j0; j < Math.min(j0 + side, g.rows - 1); j++) {
      for (let i = i0; i < Math.min(i0 + side, g.cols - 1); i++) {
        if (seen[j * (g.cols - 1) + i]) overlap = true;
        seen[j * (g.cols - 1) + i] = 1;
        cells++;
      }
    }
  }
  return { cells, overlap };
}

const expected = (g: LodGrid, eye: number[]): string[] =>
  selectChunks(g, eye, { chunkCells: C, splitFactor: LOD_SPLIT_FACTOR, maxVertices: MAX_VERTICES, focus: eye, focusRadius: LOD_FOCUS_RADIUS }).chunks.map((c) => c.key).sort();

/** Updates at `eye` (focus under it) until the selection is complete; the builds of each update. */
function settle(v: TerrainView, eye: number[], check: (built: number) => void): number {
  for (let frame = 1; frame <= 1000; frame++) {
    const before = v.stats.meshesBuilt;
    v.update(eye[0], eye[1], eye[2], eye[0], eye[1]);
    check(v.stats.meshesBuilt - before);
    if (v.stats.waiting === 0) return frame;
  }
  throw new Error('the terrain did not converge in 1000 updates');
}

describe('terrain view: the per-frame build budget', () => {
  const info = world();
  const g: LodGrid = { ...info };
  const allCells = (N - 1) * (N - 1);
  const A = [-20, -20, 3];
  const B = [20, 18, 3];

  it('a new world: at most the budget per update, chunks show as built, complete after a few frames', () => {
    const v = new TerrainView(info, silent, MAX_VERTICES, C);
    const want = expected(g, A);
    expect(want.length).toBeGreaterThan(2 * LOD_STANDIN_BUILDS_PER_FRAME); // a case where the budget binds
    // until the first selection is complete, the whole map is drawn as one coarse chunk (chunks
    // shown as they were built stood on their skirts as blocks), covering every cell once
    v.update(A[0], A[1], A[2], A[0], A[1]);
    expect(v.stats.meshesBuilt).toBeLessThanOrEqual(LOD_STANDIN_BUILDS_PER_FRAME);
    expect(v.strideAt(A[0], A[1])).toBeGreaterThan(0);
    expect(drawnKeys(v)).toHaveLength(1);
    expect(coverage(v, g)).toEqual({ cells: allCells, overlap: false });
    const frames = 1 + settle(v, A, (built) => {
      expect(built).toBeGreaterThan(0);
      expect(built).toBeLessThanOrEqual(LOD_STANDIN_BUILDS_PER_FRAME);
      expect(coverage(v, g)).toEqual({ cells: allCells, overlap: false });
      if (v.stats.waiting > 0) expect(drawnKeys(v)).toHaveLength(1);
    });
    expect(frames).toBeGreaterThanOrEqual(Math.ceil(want.length / LOD_STANDIN_BUILDS_PER_FRAME));
    expect(drawnKeys(v)).toEqual(want);
    expect(coverage(v, g)).toEqual({ cells: allCells, overlap: false });
    // nothing more to build while the camera stays
    const before = v.stats.meshesBuilt;
    v.update(A[0], A[1], A[2], A[0], A[1]);
    expect(v.stats.meshesBuilt).toBe(before);
    v.dispose();
  });

  it('a camera jump: the previous chunks stay drawn, at most the budget per update, the new selection swaps in whole', () => {
    const v = new TerrainView(info, silent, MAX_VERTICES, C);
    settle(v, A, () => undefined);
    const old = drawnKeys(v);
    const want = expected(g, B);
    const fresh = want.filter((k) => !old.includes(k)).length;
    expect(fresh).toBeGreaterThan(2 * LOD_STANDIN_BUILDS_PER_FRAME);
    let frames = 0;
    settle(v, B, (built) => {
      frames++;
      expect(built).toBeGreaterThan(0);
      expect(built).toBeLessThanOrEqual(LOD_STANDIN_BUILDS_PER_FRAME);
      // the map is drawn once whole at every frame: the old selection, then the new one
      expect(coverage(v, g)).toEqual({ cells: allCells, overlap: false });
      expect(drawnKeys(v)).toEqual(v.stats.waiting > 0 ? old : want);
    });
    expect(frames).toBeGreaterThanOrEqual(Math.ceil(fresh / LOD_STANDIN_BUILDS_PER_FRAME));
    expect(frames).toBeGreaterThan(1);
    expect(drawnKeys(v)).toEqual(want);
    v.dispose();
  });
});
