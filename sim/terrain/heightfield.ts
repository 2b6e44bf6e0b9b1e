/**
 * Regular-grid terrain (Strashnov & Torgashev 2020, §II, eq. 1): vertex (i, j) sits at
 * `(x0 + i·dx, y0 + j·dy, H[j·cols + i])`, heights row-major with i along x (columns) and j along
 * y (rows). The solid terrain is everything below the surface (z up).
 *
 * Cell (i, j) and its two possible elements. The paper's classification: if the four corners are
 * coplanar and the corner at V0 is a right angle (H1 = H0 and H3 = H2, or H2 = H0 and H3 = H1),
 * the cell is ONE planar rectangle V0 V1 V3 V2; otherwise it is two triangles split on the
 * V1–V2 diagonal. The renderer's mesh uses the same diagonal, so what you see is what collides.
 *
 *        y
 *        ^
 *   j+1  V2 ─────────── V3        lower triangle: V0 V1 V2   (fx + fy ≤ 1)
 *        │ ╲            │        upper triangle: V1 V3 V2   (fx + fy ≥ 1)
 *        │   ╲   upper  │        both wound counter-clockwise seen from above,
 *        │     ╲        │        so (B−A)×(C−A) points up (+z).
 *        │ lower ╲      │
 *    j   V0 ─────────── V1
 *        i             i+1  ──> x
 *
 * Range queries: a min/max pyramid (level 0 = per-cell min/max of the 4 corners, implicit, read
 * from the heights; level k+1 = 2×2 blocks of level k) answers H_min/H_max over any cell
 * rectangle exactly, touching O(perimeter) nodes, so a wheel on a 4097² map costs no more than on
 * a 65² one. Memory: heights 8 B per vertex, pyramid ≈ 5.3 B, element kinds and edge classes 1 B.
 */
import {
  TERRAIN_MAX_VERTICES_PER_AXIS,
  TERRAIN_MIN_VERTICES_PER_AXIS,
  TERRAIN_PLANARITY_TOLERANCE,
} from '../constants';
import type { Vec3 } from '../math/vec3';
import { describeValue } from '../util/describe-value';
import {
  CELL_BOTTOM_SHIFT,
  CELL_DIAGONAL_SHIFT,
  CELL_LEFT_SHIFT,
  CELL_RECTANGLE_BIT,
  CellEdge,
  EdgeClass,
  classifyCellEdges,
} from './edge-class';

/** Which element of a cell: the whole planar rectangle, or one of the two diagonal triangles. */
export const ElementKind = {
  Rectangle: 0,
  /** V0 V1 V2 */
  LowerTriangle: 1,
  /** V1 V3 V2 */
  UpperTriangle: 2,
} as const;
export type ElementKind = (typeof ElementKind)[keyof typeof ElementKind];

/** Plain description of a heightfield (the stable scripting API). */
export interface HeightfieldDesc {
  /** Vertices along x (≥ 2). */
  cols: number;
  /** Vertices along y (≥ 2). */
  rows: number;
  /** [m] Spacing along x (> 0). */
  dx: number;
  /** [m] Spacing along y (> 0). */
  dy: number;
  /** [m] x of vertex (0, 0). Default 0. */
  x0?: number;
  /** [m] y of vertex (0, 0). Default 0. */
  y0?: number;
  /** [m] `heights[j*cols + i]` is the height at `(x0 + i*dx, y0 + j*dy)`. */
  heights: ArrayLike<number>;
}

/** Thrown for invalid terrain input; the message says what is wrong and where. */
export class TerrainError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerrainError';
  }
}

/** Result slot for range queries (reuse one instance on hot paths). */
export interface MinMax {
  min: number;
  max: number;
}

interface PyramidLevel {
  /** Nodes along x and y at this level. */
  w: number;
  h: number;
  min: Float64Array;
  max: Float64Array;
}

/** Fixed capacity of the descent stack of a pyramid query: 4 children × levels, with margin. */
const PYRAMID_STACK_CAPACITY = 4 * 32 + 8;

/**
 * A regular-grid terrain: heights, spacing and origin, the paper's element classification of each
 * cell, edge classes, and a min/max pyramid for range queries.
 */
export class Heightfield {
  readonly cols: number;
  readonly rows: number;
  readonly dx: number;
  readonly dy: number;
  readonly x0: number;
  readonly y0: number;
  /** Row-major heights, `heights[j*cols + i]`. Do not mutate: derived data (pyramid, element kinds) would go stale. */
  readonly heights: Float64Array;
  /** Number of cells along x (cols − 1) and y (rows − 1). */
  readonly cellsX: number;
  readonly cellsY: number;
  /** [m] Global height range. */
  readonly minHeight: number;
  readonly maxHeight: number;

  /**
   * Per cell (index j·cellsX + i): bit 0 set where the cell is one planar rectangle per the
   * paper's classification; bits 1–6 the EdgeClass of its bottom, left and diagonal edges
   * (layout in edge-class.ts). Read through cellIsRectangle and edgeClass.
   */
  readonly cellBits: Uint8Array;
  private readonly levels: PyramidLevel[];
  private readonly stack: Int32Array;

  private constructor(desc: HeightfieldDesc, heights: Float64Array) {
    this.cols = desc.cols;
    this.rows = desc.rows;
    this.dx = desc.dx;
    this.dy = desc.dy;
    this.x0 = desc.x0 ?? 0;
    this.y0 = desc.y0 ?? 0;
    this.heights = heights;
    this.cellsX = this.cols - 1;
    this.cellsY = this.rows - 1;
    this.cellBits = new Uint8Array(this.cellsX * this.cellsY);
    this.levels = [];
    this.stack = new Int32Array(PYRAMID_STACK_CAPACITY * 3);
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < heights.length; k++) {
      const h = heights[k];
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
    this.minHeight = lo;
    this.maxHeight = hi;
    this.classifyCells();
    this.buildPyramid();
  }

  /**
   * Validates and copies a plain description. Throws TerrainError naming the first problem
   * (non-integer or out-of-range size, bad spacing, wrong length, the first non-finite height).
   */
  static fromArray(desc: HeightfieldDesc): Heightfield {
    if (desc === null || typeof desc !== 'object') throw new TerrainError('heightfield: expected an object { cols, rows, dx, dy, x0, y0, heights }');
    const { cols, rows, dx, dy } = desc;
    for (const [name, v] of [['cols', cols], ['rows', rows]] as const) {
      if (!Number.isInteger(v) || v < TERRAIN_MIN_VERTICES_PER_AXIS || v > TERRAIN_MAX_VERTICES_PER_AXIS) {
        throw new TerrainError(
          `heightfield: ${name} must be an integer from ${TERRAIN_MIN_VERTICES_PER_AXIS} to ${TERRAIN_MAX_VERTICES_PER_AXIS}, got ${describeValue(v)}`,
        );
      }
    }
    for (const [name, v] of [['dx', dx], ['dy', dy]] as const) {
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
        throw new TerrainError(`heightfield: ${name} must be a finite spacing > 0 m, got ${describeValue(v)}`);
      }
    }
    for (const [name, v] of [['x0', desc.x0], ['y0', desc.y0]] as const) {
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) {
        throw new TerrainError(`heightfield: ${name} must be a finite number (m), got ${describeValue(v)}`);
      }
    }
    const src = desc.heights;
    if (src === null || typeof src !== 'object' || typeof src.length !== 'number') {
      throw new TerrainError('heightfield: heights must be an array of numbers');
    }
    if (src.length !== cols * rows) {
      throw new TerrainError(`heightfield: heights has ${src.length} values but cols × rows = ${cols} × ${rows} = ${cols * rows}`);
    }
    const heights = new Float64Array(cols * rows);
    for (let k = 0; k < heights.length; k++) {
      const h = src[k];
      if (typeof h !== 'number' || !Number.isFinite(h)) {
        const i = k % cols;
        const j = (k - i) / cols;
        throw new TerrainError(`heightfield: height at column ${i}, row ${j} (index ${k}) is ${describeValue(h)}; every height must be a finite number`);
      }
      heights[k] = h;
    }
    return new Heightfield(desc, heights);
  }

  /** Height of vertex (i, j); indices must be in range. */
  height(i: number, j: number): number {
    return this.heights[j * this.cols + i];
  }

  /** x of column i. */
  vertexX(i: number): number {
    return this.x0 + i * this.dx;
  }

  /** y of row j. */
  vertexY(j: number): number {
    return this.y0 + j * this.dy;
  }

  /** True if the cell is one planar rectangle (paper's classification); false: two triangles on V1–V2. */
  cellIsRectangle(i: number, j: number): boolean {
    return (this.cellBits[j * this.cellsX + i] & CELL_RECTANGLE_BIT) !== 0;
  }

  /**
   * EdgeClass of edge `edge` of cell (i, j) (edge-class.ts): how much the terrain bends there.
   * Top and right edges are the bottom and left edges of the neighbours; on the border, Active.
   */
  edgeClass(i: number, j: number, edge: CellEdge): EdgeClass {
    const cx = this.cellsX;
    switch (edge) {
      case CellEdge.Bottom:
        return ((this.cellBits[j * cx + i] >> CELL_BOTTOM_SHIFT) & 3) as EdgeClass;
      case CellEdge.Left:
        return ((this.cellBits[j * cx + i] >> CELL_LEFT_SHIFT) & 3) as EdgeClass;
      case CellEdge.Top:
        return j + 1 >= this.cellsY ? EdgeClass.Active : (((this.cellBits[(j + 1) * cx + i] >> CELL_BOTTOM_SHIFT) & 3) as EdgeClass);
      case CellEdge.Right:
        return i + 1 >= cx ? EdgeClass.Active : (((this.cellBits[j * cx + i + 1] >> CELL_LEFT_SHIFT) & 3) as EdgeClass);
      default:
        return ((this.cellBits[j * cx + i] >> CELL_DIAGONAL_SHIFT) & 3) as EdgeClass;
    }
  }

  /** True if (x, y) lies over the grid (borders included). */
  contains(x: number, y: number): boolean {
    const fx = (x - this.x0) / this.dx;
    const fy = (y - this.y0) / this.dy;
    return fx >= 0 && fy >= 0 && fx <= this.cellsX && fy <= this.cellsY;
  }

  /**
   * Surface height at (x, y), exact on the element surface (same triangles as collision).
   * Points outside the grid are clamped to its border; use contains() to tell.
   */
  heightAt(x: number, y: number): number {
    let fx = (x - this.x0) / this.dx;
    let fy = (y - this.y0) / this.dy;
    fx = fx < 0 ? 0 : fx > this.cellsX ? this.cellsX : fx;
    fy = fy < 0 ? 0 : fy > this.cellsY ? this.cellsY : fy;
    let i = Math.floor(fx);
    let j = Math.floor(fy);
    if (i >= this.cellsX) i = this.cellsX - 1;
    if (j >= this.cellsY) j = this.cellsY - 1;
    const u = fx - i;
    const v = fy - j;
    const c = this.cols;
    const k = j * c + i;
    const h0 = this.heights[k];
    const h1 = this.heights[k + 1];
    const h2 = this.heights[k + c];
    const h3 = this.heights[k + c + 1];
    if (u + v <= 1) return h0 + (h1 - h0) * u + (h2 - h0) * v;
    // upper triangle V1 V3 V2: h = h3 + (h2 - h3)(1 - u) + (h1 - h3)(1 - v)
    return h3 + (h2 - h3) * (1 - u) + (h1 - h3) * (1 - v);
  }

  /** Upward unit normal of the element under (x, y) (clamped like heightAt). Returns out. */
  normalAt(out: Vec3, x: number, y: number): Vec3 {
    let fx = (x - this.x0) / this.dx;
    let fy = (y - this.y0) / this.dy;
    fx = fx < 0 ? 0 : fx > this.cellsX ? this.cellsX : fx;
    fy = fy < 0 ? 0 : fy > this.cellsY ? this.cellsY : fy;
    let i = Math.floor(fx);
    let j = Math.floor(fy);
    if (i >= this.cellsX) i = this.cellsX - 1;
    if (j >= this.cellsY) j = this.cellsY - 1;
    const kind = this.cellIsRectangle(i, j)
      ? ElementKind.Rectangle
      : fx - i + (fy - j) <= 1
        ? ElementKind.LowerTriangle
        : ElementKind.UpperTriangle;
    this.elementPlane(out, i, j, kind);
    return out;
  }

  /**
   * Plane of an element of cell (i, j): writes the upward unit normal n_P into `outNormal` and
   * returns k_P = n_P · V0 (the paper's s(P) = k_P − P·n_P is then > 0 below the plane).
   * For a rectangle the plane is that of the whole (planar) cell.
   */
  elementPlane(outNormal: Vec3, i: number, j: number, kind: ElementKind): number {
    this.elementPlaneInto(outNormal, i, j, kind);
    // the vertex the plane passes through: V3 (upper triangle) or V0
    const upper = kind === ElementKind.UpperTriangle;
    const px = this.x0 + (upper ? i + 1 : i) * this.dx;
    const py = this.y0 + (upper ? j + 1 : j) * this.dy;
    const pz = this.heights[(upper ? j + 1 : j) * this.cols + (upper ? i + 1 : i)];
    return outNormal[0] * px + outNormal[1] * py + outNormal[2] * pz;
  }

  /**
   * elementPlane's normal only (no return value: a double returned from a call V8 does not inline
   * is boxed, an allocation; the per-element hot paths need only the normal).
   */
  elementPlaneInto(outNormal: Vec3, i: number, j: number, kind: ElementKind): void {
    const c = this.cols;
    const k = j * c + i;
    const h0 = this.heights[k];
    const h1 = this.heights[k + 1];
    const h2 = this.heights[k + c];
    const h3 = this.heights[k + c + 1];
    // Slopes along x and y of the element's plane.
    let sx: number, sy: number;
    if (kind === ElementKind.UpperTriangle) {
      sx = (h3 - h2) / this.dx;
      sy = (h3 - h1) / this.dy;
    } else {
      // lower triangle, and the planar rectangle (whose plane contains V0, V1, V2)
      sx = (h1 - h0) / this.dx;
      sy = (h2 - h0) / this.dy;
    }
    const inv = 1 / Math.sqrt(sx * sx + sy * sy + 1);
    outNormal[0] = -sx * inv;
    outNormal[1] = -sy * inv;
    outNormal[2] = inv;
  }

  /**
   * Exact min and max vertex height over the cells [i0, i1] × [j0, j1] (inclusive cell indices,
   * clamped to the grid). An empty range after clamping yields min = +∞, max = −∞.
   */
  cellRangeMinMax(out: MinMax, i0: number, j0: number, i1: number, j1: number): MinMax {
    if (i0 < 0) i0 = 0;
    if (j0 < 0) j0 = 0;
    if (i1 > this.cellsX - 1) i1 = this.cellsX - 1;
    if (j1 > this.cellsY - 1) j1 = this.cellsY - 1;
    let lo = Infinity;
    let hi = -Infinity;
    if (i0 > i1 || j0 > j1) {
      out.min = lo;
      out.max = hi;
      return out;
    }
    const levels = this.levels;
    const stack = this.stack;
    let sp = 0;
    const top = levels.length - 1;
    for (let bj = 0; bj < levels[top].h; bj++) {
      for (let bi = 0; bi < levels[top].w; bi++) {
        stack[sp++] = top;
        stack[sp++] = bi;
        stack[sp++] = bj;
      }
    }
    while (sp > 0) {
      const bj = stack[--sp];
      const bi = stack[--sp];
      const lvl = stack[--sp];
      // Cells covered by node (lvl, bi, bj).
      const ci0 = bi << lvl;
      const cj0 = bj << lvl;
      const ci1 = Math.min(((bi + 1) << lvl) - 1, this.cellsX - 1);
      const cj1 = Math.min(((bj + 1) << lvl) - 1, this.cellsY - 1);
      if (ci0 > i1 || ci1 < i0 || cj0 > j1 || cj1 < j0) continue; // disjoint
      if (lvl === 0) {
        // A single cell, and it is inside the range (the disjoint test above failed): level 0
        // is not stored, its min/max are the cell's four corners.
        const k = cj0 * this.cols + ci0;
        const h = this.heights;
        const a = h[k], b = h[k + 1], d = h[k + this.cols], e = h[k + this.cols + 1];
        const cmin = a < b ? (a < d ? (a < e ? a : e) : d < e ? d : e) : b < d ? (b < e ? b : e) : d < e ? d : e;
        const cmax = a > b ? (a > d ? (a > e ? a : e) : d > e ? d : e) : b > d ? (b > e ? b : e) : d > e ? d : e;
        if (cmin < lo) lo = cmin;
        if (cmax > hi) hi = cmax;
        continue;
      }
      const L = levels[lvl];
      const n = bj * L.w + bi;
      if (ci0 >= i0 && ci1 <= i1 && cj0 >= j0 && cj1 <= j1) {
        // fully inside the range: the node's summary is exact for it
        if (L.min[n] < lo) lo = L.min[n];
        if (L.max[n] > hi) hi = L.max[n];
        continue;
      }
      // Partially inside: skip if it cannot change the answer, else descend.
      if (L.min[n] >= lo && L.max[n] <= hi) continue;
      const child = lvl - 1;
      const C = levels[child];
      for (let dj = 0; dj < 2; dj++) {
        const cj = 2 * bj + dj;
        if (cj >= C.h) break;
        for (let di = 0; di < 2; di++) {
          const ci = 2 * bi + di;
          if (ci >= C.w) break;
          stack[sp++] = child;
          stack[sp++] = ci;
          stack[sp++] = cj;
        }
      }
    }
    out.min = lo;
    out.max = hi;
    return out;
  }

  private classifyCells(): void {
    const c = this.cols;
    const t = TERRAIN_PLANARITY_TOLERANCE;
    for (let j = 0; j < this.cellsY; j++) {
      for (let i = 0; i < this.cellsX; i++) {
        const k = j * c + i;
        const h0 = this.heights[k];
        const h1 = this.heights[k + 1];
        const h2 = this.heights[k + c];
        const h3 = this.heights[k + c + 1];
        const rect =
          (Math.abs(h1 - h0) <= t && Math.abs(h3 - h2) <= t) || (Math.abs(h2 - h0) <= t && Math.abs(h3 - h1) <= t);
        this.cellBits[j * this.cellsX + i] = rect ? CELL_RECTANGLE_BIT : 0;
      }
    }
    classifyCellEdges(this.cellBits, this.heights, c, this.cellsX, this.cellsY, this.dx, this.dy);
  }

  private buildPyramid(): void {
    const c = this.cols;
    let w = this.cellsX;
    let h = this.cellsY;
    // Level 0 (one node per cell) is implicit: its min/max are read from the four corners when a
    // query reaches it, which keeps the pyramid at ~2/3 of the heights' memory instead of ~3×.
    this.levels.push({ w, h, min: new Float64Array(0), max: new Float64Array(0) });
    if (w === 1 && h === 1) return;
    // Level 1: 2×2-cell blocks, i.e. up to 3×3 vertices each, straight from the heights.
    {
      const nw = (w + 1) >> 1;
      const nh = (h + 1) >> 1;
      const mn = new Float64Array(nw * nh);
      const mx = new Float64Array(nw * nh);
      for (let bj = 0; bj < nh; bj++) {
        const vj1 = Math.min(2 * bj + 2, this.rows - 1);
        for (let bi = 0; bi < nw; bi++) {
          const vi1 = Math.min(2 * bi + 2, c - 1);
          let lo = Infinity, hi = -Infinity;
          for (let vj = 2 * bj; vj <= vj1; vj++) {
            for (let vi = 2 * bi; vi <= vi1; vi++) {
              const z = this.heights[vj * c + vi];
              if (z < lo) lo = z;
              if (z > hi) hi = z;
            }
          }
          mn[bj * nw + bi] = lo;
          mx[bj * nw + bi] = hi;
        }
      }
      this.levels.push({ w: nw, h: nh, min: mn, max: mx });
      w = nw;
      h = nh;
    }
    while (w > 1 || h > 1) {
      const prev = this.levels[this.levels.length - 1];
      const nw = (w + 1) >> 1;
      const nh = (h + 1) >> 1;
      const mn = new Float64Array(nw * nh);
      const mx = new Float64Array(nw * nh);
      for (let bj = 0; bj < nh; bj++) {
        for (let bi = 0; bi < nw; bi++) {
          let lo = Infinity, hi = -Infinity;
          for (let dj = 0; dj < 2; dj++) {
            const cj = 2 * bj + dj;
            if (cj >= h) break;
            for (let di = 0; di < 2; di++) {
              const ci = 2 * bi + di;
              if (ci >= w) break;
              const q = cj * w + ci;
              if (prev.min[q] < lo) lo = prev.min[q];
              if (prev.max[q] > hi) hi = prev.max[q];
            }
          }
          mn[bj * nw + bi] = lo;
          mx[bj * nw + bi] = hi;
        }
      }
      this.levels.push({ w: nw, h: nh, min: mn, max: mx });
      w = nw;
      h = nh;
    }
  }

}
