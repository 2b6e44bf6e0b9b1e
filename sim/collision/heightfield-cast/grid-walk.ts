/**
 * The grid walk shared by every heightfield cast: visits the terrain cells that a moving body's
 * footprint sweeps over, in the order the body reaches them, skipping stretches whose highest
 * vertex lies below the body, and stops as soon as no later cell can hold an earlier hit.
 *
 * The body's footprint (a Float64Array in the FP_* layout) is a box in xy, centred at
 * (cx, cy) + t·(mx, my) with half sizes (ex, ey) (the xy half extents of a box holding the body),
 * and its lowest point is at z = zLow + t·mz, t ∈ [0, 1].
 *
 *   1. A 2D DDA (Amanatides & Woo 1987) walks the cells the footprint CENTRE crosses; each step
 *      is the time interval [t0, t1] the centre spends in one cell.
 *   2. The footprint over that interval covers the cells of the box swept from t0 to t1 (a
 *      translating box sweeps exactly the box of its two ends' union). Its H_max (direct scan of
 *      the corners for a small range, the min/max pyramid, Heightfield.cellRangeMinMax, for a
 *      large one) is compared with the body's lowest z over the interval, min(z(t0), z(t1)):
 *      below it, no cell of the range can be touched during the interval, and it is skipped.
 *   3. Otherwise each cell of the range not already tested is handed to the visitor, which
 *      tests its elements against the WHOLE motion and lowers visitor.best (the earliest toi).
 *      The ranges move monotonically with the motion (each of their four sides only moves one
 *      way), so a cell in the current range and in any earlier tested range is also in the
 *      last tested range: comparing against that one rectangle removes every repeat.
 *   4. A contact at time t lies in the range of the interval holding t, and every cell is tested
 *      over the whole motion, so once visitor.best ≤ t1 no later interval can do better: stop.
 *
 *        y ^      . . . . . . . .          ○ footprint centre path (DDA cells)
 *          |    ┌───────┐ . . . .          each step: the box its footprint sweeps;
 *          |    │ ○─────┼──○ . . .         cells already tested in the previous box are
 *          |    └───────┘ . . . .          skipped, low ranges skipped via H_max
 *          +───────────────────> x
 *
 * Cell ranges: the cells whose closed x interval [x0 + i·dx, x0 + (i+1)·dx] meets [lo, hi]:
 * i from ⌈(lo − x0)/dx⌉ − 1 to ⌊(hi − x0)/dx⌋ (a footprint exactly on a grid line takes both
 * neighbours), clamped to the grid. The walk is confined to the times the footprint overlaps
 * the grid's xy extent (slab clip), so a cast from far outside costs no steps out there.
 */
import { HEIGHTFIELD_CAST_DIRECT_SCAN_CELLS, HEIGHTFIELD_CAST_MAX_STEPS } from '../../constants';
import type { Heightfield, MinMax } from '../../terrain/heightfield';

/** Receives the cells of a walk (one reusable object per cast kind: no closures per call). */
export interface CellVisitor {
  /** Earliest toi ∈ [0, 1] found so far; Infinity before any hit. Lowered by visitCell. */
  best: number;
  /** Tests every element of cell (i, j) against the whole motion. */
  visitCell(hf: Heightfield, i: number, j: number): void;
}

/** How a walk over the terrain cells under a moving footprint ended. */
export const GridWalkStatus = {
  Ok: 0,
  /** More than HEIGHTFIELD_CAST_MAX_STEPS steps: the walk stopped early (hits found so far stand). */
  Truncated: 1,
  /** Non-finite input: nothing visited. */
  Degenerate: 2,
} as const;
export type GridWalkStatus = (typeof GridWalkStatus)[keyof typeof GridWalkStatus];

/**
 * What one walk did (tests and benchmarks read it): an out-record the caller supplies, reset by
 * each walk. Casts keep theirs in TerrainCastResult.walk.
 */
export class GridWalkStats {
  /** DDA steps (cells the footprint centre crossed). */
  steps = 0;
  /** Steps whose cell range lay wholly below the body (skipped by H_max). */
  rangesSkipped = 0;
  /** Cells handed to the visitor. */
  cellsVisited = 0;
  /** The walk's scratch: heights of the last large range read from the min/max pyramid. */
  readonly range: MinMax = { min: 0, max: 0 };
}

/**
 * Layout of a footprint (a Float64Array(8), see the header): centre x, y and lowest z at t = 0,
 * their motion over [0, 1], and the xy half sizes. An array, not numbers: V8 boxes doubles
 * passed to calls it does not inline.
 */
export const FP_CX = 0, FP_CY = 1, FP_ZLOW = 2, FP_MX = 3, FP_MY = 4, FP_MZ = 5, FP_EX = 6, FP_EY = 7;
export const FOOTPRINT_SIZE = 8;

/** Walks the cells under a moving footprint (see the file header); what it did goes to `stats`. */
export function walkFootprint(hf: Heightfield, visitor: CellVisitor, fp: Float64Array, stats: GridWalkStats): GridWalkStatus {
  const cx = fp[FP_CX], cy = fp[FP_CY], zLow = fp[FP_ZLOW], mx = fp[FP_MX], my = fp[FP_MY], mz = fp[FP_MZ];
  const ex = fp[FP_EX], ey = fp[FP_EY];
  stats.steps = 0;
  stats.rangesSkipped = 0;
  stats.cellsVisited = 0;
  if (!Number.isFinite(cx + cy + zLow + mx + my + mz + ex + ey) || !(ex >= 0) || !(ey >= 0)) return GridWalkStatus.Degenerate;
  const gx0 = hf.x0, gy0 = hf.y0, dx = hf.dx, dy = hf.dy;
  // Slab clip: times when the footprint overlaps the grid's xy extent.
  let ta = 0, tb = 1;
  const lox = gx0 - ex, hix = gx0 + hf.cellsX * dx + ex, loy = gy0 - ey, hiy = gy0 + hf.cellsY * dy + ey;
  if (mx === 0) {
    if (cx < lox || cx > hix) return GridWalkStatus.Ok;
  } else {
    let u = (lox - cx) / mx, v = (hix - cx) / mx;
    if (u > v) { const s = u; u = v; v = s; }
    if (u > ta) ta = u;
    if (v < tb) tb = v;
  }
  if (my === 0) {
    if (cy < loy || cy > hiy) return GridWalkStatus.Ok;
  } else {
    let u = (loy - cy) / my, v = (hiy - cy) / my;
    if (u > v) { const s = u; u = v; v = s; }
    if (u > ta) ta = u;
    if (v < tb) tb = v;
  }
  if (ta > tb) return GridWalkStatus.Ok;
  // The footprint range never rises above the terrain's top: nothing to do (cheap global test).
  if (Math.min(zLow + ta * mz, zLow + tb * mz) > hf.maxHeight) return GridWalkStatus.Ok;

  // DDA state on the centre's cell (unclamped lattice: the centre may be off the grid while
  // the footprint overlaps it).
  const sx = (cx + ta * mx - gx0) / dx, sy = (cy + ta * my - gy0) / dy;
  let ci = Math.floor(sx), cj = Math.floor(sy);
  const stepI = mx > 0 ? 1 : -1, stepJ = my > 0 ? 1 : -1;
  const tDeltaX = mx !== 0 ? Math.abs(dx / mx) : Infinity;
  const tDeltaY = my !== 0 ? Math.abs(dy / my) : Infinity;
  let tMaxX = mx !== 0 ? (gx0 + (ci + (mx > 0 ? 1 : 0)) * dx - cx) / mx : Infinity;
  let tMaxY = my !== 0 ? (gy0 + (cj + (my > 0 ? 1 : 0)) * dy - cy) / my : Infinity;
  // last tested range (empty)
  let li0 = 1, li1 = 0, lj0 = 1, lj1 = 0;
  let t0 = ta;
  const lastI = hf.cellsX - 1, lastJ = hf.cellsY - 1;
  const H = hf.heights, cols = hf.cols;
  for (let step = 0; step < HEIGHTFIELD_CAST_MAX_STEPS; step++) {
    stats.steps++;
    let t1 = tMaxX < tMaxY ? tMaxX : tMaxY;
    if (t1 > tb) t1 = tb;
    if (t1 < t0) t1 = t0;
    // Box swept by the footprint over [t0, t1].
    const xa = cx + t0 * mx, xb = cx + t1 * mx, ya = cy + t0 * my, yb = cy + t1 * my;
    const xlo = (xa < xb ? xa : xb) - ex, xhi = (xa < xb ? xb : xa) + ex;
    const ylo = (ya < yb ? ya : yb) - ey, yhi = (ya < yb ? yb : ya) + ey;
    let i0 = Math.ceil((xlo - gx0) / dx) - 1, i1 = Math.floor((xhi - gx0) / dx);
    let j0 = Math.ceil((ylo - gy0) / dy) - 1, j1 = Math.floor((yhi - gy0) / dy);
    if (i0 < 0) i0 = 0;
    if (j0 < 0) j0 = 0;
    if (i1 > lastI) i1 = lastI;
    if (j1 > lastJ) j1 = lastJ;
    if (i0 <= i1 && j0 <= j1) {
      const za = zLow + t0 * mz, zb = zLow + t1 * mz;
      // H_max of the range: its corner heights directly when small, else the pyramid.
      let top = -Infinity;
      if ((i1 - i0 + 1) * (j1 - j0 + 1) > HEIGHTFIELD_CAST_DIRECT_SCAN_CELLS) {
        top = hf.cellRangeMinMax(stats.range, i0, j0, i1, j1).max;
      } else {
        for (let j = j0; j <= j1 + 1; j++) {
          const row = j * cols;
          for (let i = i0; i <= i1 + 1; i++) if (H[row + i] > top) top = H[row + i];
        }
      }
      if (top < (za < zb ? za : zb)) {
        stats.rangesSkipped++;
      } else {
        for (let j = j0; j <= j1; j++) {
          const inLastRow = j >= lj0 && j <= lj1;
          for (let i = i0; i <= i1; i++) {
            if (inLastRow && i >= li0 && i <= li1) continue;
            stats.cellsVisited++;
            visitor.visitCell(hf, i, j);
          }
        }
        li0 = i0;
        li1 = i1;
        lj0 = j0;
        lj1 = j1;
      }
    }
    if (visitor.best <= t1 || t1 >= tb) return GridWalkStatus.Ok;
    t0 = t1;
    if (tMaxX < tMaxY) {
      ci += stepI;
      tMaxX += tDeltaX;
    } else {
      cj += stepJ;
      tMaxY += tDeltaY;
    }
  }
  return GridWalkStatus.Truncated;
}

/**
 * The time window in [0, 1] during which the moving footprint `fp` overlaps the rectangle
 * rect = [xa, xb, ya, yb] (closed), written to out[0], out[1]; returns false when they never
 * overlap. Visitors use it to bound the body's height while it is over a cell: an element can
 * only be touched inside its cell's window.
 */
export function footprintWindow(out: Float64Array, fp: Float64Array, rect: Float64Array): boolean {
  const cx = fp[FP_CX], cy = fp[FP_CY], mx = fp[FP_MX], my = fp[FP_MY], ex = fp[FP_EX], ey = fp[FP_EY];
  let t0 = 0, t1 = 1;
  const lox = rect[0] - ex - cx, hix = rect[1] + ex - cx;
  if (mx === 0) {
    if (lox > 0 || hix < 0) return false;
  } else {
    let u = lox / mx, v = hix / mx;
    if (u > v) { const s = u; u = v; v = s; }
    if (u > t0) t0 = u;
    if (v < t1) t1 = v;
  }
  const loy = rect[2] - ey - cy, hiy = rect[3] + ey - cy;
  if (my === 0) {
    if (loy > 0 || hiy < 0) return false;
  } else {
    let u = loy / my, v = hiy / my;
    if (u > v) { const s = u; u = v; v = s; }
    if (u > t0) t0 = u;
    if (v < t1) t1 = v;
  }
  if (t0 > t1) return false;
  out[0] = t0;
  out[1] = t1;
  return true;
}
