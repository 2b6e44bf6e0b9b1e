/**
 * The terrain cells a wheel query considers (Strashnov & Torgashev 2020, §III broad phase): the
 * cylinder's axis-aligned box, per axis C_k ± ((h/2)|v_k| + r√(1 − v_k²)) (the √ clamped at 0,
 * the paper's numerical guard), over the grid, clamped to it. collide.ts runs it first; the GUI
 * draws it ("cell range" overlay). Pure, allocation-free: the result goes to `out`.
 */

/** Inclusive cell range [i0, i1] × [j0, j1]; empty when i0 > i1 or j0 > j1. */
export interface CellRange {
  i0: number;
  j0: number;
  i1: number;
  j1: number;
}

/** The grid shape the range needs (a Heightfield has it; so does the renderer's TerrainInfo). */
export interface CellGrid {
  readonly x0: number;
  readonly y0: number;
  readonly dx: number;
  readonly dy: number;
  /** Cells along x and y (vertices − 1). */
  readonly cellsX: number;
  readonly cellsY: number;
}

/**
 * Cells under the AABB of the cylinder with centre (cx, cy), unit axis (vx, vy, ·), `radius` and
 * `halfHeight`, clamped to the grid. Returns false (and an empty range) when the box misses it.
 */
export function cylinderCellRange(out: CellRange, g: CellGrid, cx: number, cy: number, vx: number, vy: number, radius: number, halfHeight: number): boolean {
  const ex = halfHeight * Math.abs(vx) + radius * Math.sqrt(Math.max(0, 1 - vx * vx));
  const ey = halfHeight * Math.abs(vy) + radius * Math.sqrt(Math.max(0, 1 - vy * vy));
  let i0 = Math.floor((cx - ex - g.x0) / g.dx);
  let i1 = Math.ceil((cx + ex - g.x0) / g.dx) - 1;
  let j0 = Math.floor((cy - ey - g.y0) / g.dy);
  let j1 = Math.ceil((cy + ey - g.y0) / g.dy) - 1;
  if (i0 < 0) i0 = 0;
  if (j0 < 0) j0 = 0;
  if (i1 > g.cellsX - 1) i1 = g.cellsX - 1;
  if (j1 > g.cellsY - 1) j1 = g.cellsY - 1;
  out.i0 = i0;
  out.j0 = j0;
  out.i1 = i1;
  out.j1 = j1;
  return i0 <= i1 && j0 <= j1;
}
