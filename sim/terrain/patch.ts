/**
 * What of a heightfield crosses to the renderer: a bounded overview of the whole grid at load, and
 * on request small patches of a vertex rectangle at an integer stride (the 3D view's chunks, the
 * exact heights under a contact). The full grid stays with its owner (the worker); a 16385² map
 * would otherwise send 1 GiB of float32 heights.
 *
 * Sampling follows sim/terrain/mesh.ts: along an axis of n vertices starting at i0, samples sit at
 * i0 + k·stride and the last sample is always the span's last vertex, so a chunk or the overview
 * reaches the edge of the map even when the stride does not divide it.
 *
 *   span  i0 ······························ iEnd        (grid vertices, clamped to the map)
 *   samples ●───────●───────●───────●──────●           stride 4, iEnd − i0 = 18
 *           i0     +4      +8     +12     iEnd
 */
import type { Heightfield, MinMax } from './heightfield';
import { sampleCount } from './mesh';

/**
 * A coarse picture of the whole terrain (bounded size, sim/terrain/patch.ts
 * TERRAIN_OVERVIEW_MAX_SIDE samples per side): for the minimap and the far chunks of the 3D view.
 * Sample (c, r) is grid vertex (min(c·stride, cols − 1), min(r·stride, rows − 1)) of the terrain:
 * every stride-th vertex plus always the last row and column.
 */
export interface TerrainOverview {
  /** Grid vertices between samples, a power of two (1 when the whole grid fits). */
  stride: number;
  /** Samples along x and y. */
  cols: number;
  rows: number;
  /** Row-major float32 heights of the samples [m]. */
  heights: Float32Array;
}

/**
 * Heights of a rectangle of grid vertices sampled at an integer stride (SimService.terrainPatch):
 * the span [i0, i0 + cols − 1] × [j0, j0 + rows − 1] after clamping to the grid, sampled at
 * i0 + c·stride for c < sampleCols, the last sample always the span's last vertex (as
 * sim/terrain/mesh.ts samples a decimated mesh). At stride 1 the heights are the collision
 * surface's vertices (float32).
 */
export interface TerrainPatch {
  /** First grid vertex of the span (column, row), after clamping. */
  i0: number;
  j0: number;
  /** Grid vertices the span covers along x and y, after clamping. */
  cols: number;
  rows: number;
  stride: number;
  /** Samples along x and y: ceil((cols − 1) / stride) + 1. */
  sampleCols: number;
  sampleRows: number;
  /** Row-major float32 heights [m], sampleCols × sampleRows; its buffer is transferred. */
  heights: Float32Array;
  /** [m] Exact lowest and highest vertex of the whole span (every vertex, not only the samples). */
  minHeight: number;
  maxHeight: number;
}

/** [samples] Most overview samples per side (257² float32 = 258 KiB, whatever the map's size). */
export const TERRAIN_OVERVIEW_MAX_SIDE = 257;

/** [samples] Most samples in one patch (1025² float32 = 4 MiB): bounds one reply's memory. */
export const TERRAIN_PATCH_MAX_SAMPLES = 1025 * 1025;

const range: MinMax = { min: 0, max: 0 };

/** First lattice point i0 + k·stride (k ≥ 0 integer) that is ≥ 0: clamping keeps the lattice. */
function clampStart(i0: number, stride: number): number {
  return i0 >= 0 ? i0 : i0 + Math.ceil(-i0 / stride) * stride;
}

function requireInt(what: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new RangeError(`terrainPatch: ${what} must be an integer ≥ ${min}, got ${typeof v === 'number' ? v : typeof v}`);
  }
  return v;
}

/**
 * Heights of the vertex span [i0, i0 + cols − 1] × [j0, j0 + rows − 1] of `hf` at `stride`,
 * clamped to the grid (the stride lattice is kept: a span starting left of the map begins at its
 * first lattice point inside, or at its last vertex when no lattice point is inside). Throws RangeError naming the bad argument, for a span that misses
 * the grid, or for more than TERRAIN_PATCH_MAX_SAMPLES samples.
 */
export function terrainPatch(hf: Heightfield, i0: number, j0: number, cols: number, rows: number, stride: number): TerrainPatch {
  if (typeof i0 !== 'number' || !Number.isInteger(i0)) throw new RangeError(`terrainPatch: i0 must be an integer, got ${i0}`);
  if (typeof j0 !== 'number' || !Number.isInteger(j0)) throw new RangeError(`terrainPatch: j0 must be an integer, got ${j0}`);
  requireInt('cols', cols, 1);
  requireInt('rows', rows, 1);
  requireInt('stride', stride, 1);
  const a1 = Math.min(i0 + cols - 1, hf.cols - 1), b1 = Math.min(j0 + rows - 1, hf.rows - 1);
  if (a1 < Math.max(0, i0) || b1 < Math.max(0, j0)) {
    throw new RangeError(
      `terrainPatch: the span columns ${i0}..${i0 + cols - 1}, rows ${j0}..${j0 + rows - 1} (stride ${stride}) has no vertex on the ${hf.cols} × ${hf.rows} grid`,
    );
  }
  // The span's last vertex is always a sample, even when no lattice point lies inside the grid.
  const a0 = Math.min(clampStart(i0, stride), a1), b0 = Math.min(clampStart(j0, stride), b1);
  const spanCols = a1 - a0 + 1, spanRows = b1 - b0 + 1;
  const sc = sampleCount(spanCols, stride), sr = sampleCount(spanRows, stride);
  if (sc * sr > TERRAIN_PATCH_MAX_SAMPLES) {
    throw new RangeError(`terrainPatch: ${sc} × ${sr} samples (cols ${cols}, rows ${rows}, stride ${stride}) is over the ${TERRAIN_PATCH_MAX_SAMPLES}-sample limit: raise the stride or split the request`);
  }
  const heights = new Float32Array(sc * sr);
  const src = hf.heights, n = hf.cols;
  for (let r = 0; r < sr; r++) {
    const j = Math.min(b0 + r * stride, b1);
    const row = j * n;
    for (let c = 0; c < sc; c++) heights[r * sc + c] = src[row + Math.min(a0 + c * stride, a1)];
  }
  let lo: number, hi: number;
  if (spanCols >= 2 && spanRows >= 2) {
    hf.cellRangeMinMax(range, a0, b0, a1 - 1, b1 - 1);
    lo = range.min;
    hi = range.max;
  } else {
    // a single row or column of vertices has no cell: scan it (at most a map's side)
    lo = Infinity;
    hi = -Infinity;
    for (let j = b0; j <= b1; j++) for (let i = a0; i <= a1; i++) {
      const h = src[j * n + i];
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
  }
  return { i0: a0, j0: b0, cols: spanCols, rows: spanRows, stride, sampleCols: sc, sampleRows: sr, heights, minHeight: lo, maxHeight: hi };
}

/** Smallest power-of-two stride whose samples fit `maxSide` per side for a cols × rows grid. */
export function overviewStride(cols: number, rows: number, maxSide = TERRAIN_OVERVIEW_MAX_SIDE): number {
  if (!(maxSide >= 2)) throw new RangeError(`overviewStride: maxSide must be ≥ 2, got ${maxSide}`);
  let s = 1;
  while (sampleCount(cols, s) > maxSide || sampleCount(rows, s) > maxSide) s *= 2;
  return s;
}

/** The whole grid at the smallest power-of-two stride that fits `maxSide` samples per side. */
export function terrainOverview(hf: Heightfield, maxSide = TERRAIN_OVERVIEW_MAX_SIDE): TerrainOverview {
  const stride = overviewStride(hf.cols, hf.rows, maxSide);
  const p = terrainPatch(hf, 0, 0, hf.cols, hf.rows, stride);
  return { stride, cols: p.sampleCols, rows: p.sampleRows, heights: p.heights };
}
