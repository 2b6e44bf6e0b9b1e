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

/** The cylinder the range is taken for (a CylinderSize has it). */
export interface CellRangeCylinder {
  readonly radius: number;
  readonly halfHeight: number;
}

/**
 * Cells under the AABB of the cylinder with centre `center` (x, y used), unit axis `axisUnit`
 * (x, y used), clamped to the grid. Returns false (and an empty range) when the box misses it.
 * Takes its vectors and sizes as objects: eight doubles passed to a call that is not inlined are
 * boxed, and the wheel query runs this once per query.
 */
export function cylinderCellRangeOf(
  out: CellRange,
  g: CellGrid,
  center: ArrayLike<number>,
  axisUnit: ArrayLike<number>,
  cylinder: CellRangeCylinder,
): boolean {
  const vx = axisUnit[0], vy = axisUnit[1];
  const radius = cylinder.radius, halfHeight = cylinder.halfHeight;
  const ex = halfHeight * Math.abs(vx) + radius * Math.sqrt(Math.max(0, 1 - vx * vx));
  const ey = halfHeight * Math.abs(vy) + radius * Math.sqrt(Math.max(0, 1 - vy * vy));
  let i0 = Math.floor((center[0] - ex - g.x0) / g.dx);
  let i1 = Math.ceil((center[0] + ex - g.x0) / g.dx) - 1;
  let j0 = Math.floor((center[1] - ey - g.y0) / g.dy);
  let j1 = Math.ceil((center[1] + ey - g.y0) / g.dy) - 1;
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

/** cylinderCellRangeOf with plain numbers (the GUI's overlay and scripts; allocates its arguments). */
export function cylinderCellRange(out: CellRange, g: CellGrid, cx: number, cy: number, vx: number, vy: number, radius: number, halfHeight: number): boolean {
  return cylinderCellRangeOf(out, g, [cx, cy], [vx, vy], { radius, halfHeight });
}
