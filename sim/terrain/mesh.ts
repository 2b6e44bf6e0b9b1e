/**
 * Triangle mesh of a regular-grid terrain, shared by the renderer (three.js BufferGeometry) and by
 * tests. Pure data in, typed arrays out: no DOM, no three.
 *
 * Every cell is split on the V1–V2 diagonal, exactly as sim/terrain/heightfield.ts splits a
 * non-planar cell for collision, so at stride 1 what you see is what collides. (A planar
 * rectangle cell is drawn as the same two triangles; they are coplanar, so the surface is the
 * rectangle.)
 *
 *        y
 *        ^
 *   j+s  c ─────────── d         vertex indices in the mesh grid (s = stride):
 *        │ ╲            │          a = (i, j)     b = (i+s, j)
 *        │   ╲   upper  │          c = (i, j+s)   d = (i+s, j+s)
 *        │     ╲        │        lower triangle  a b c   (V0 V1 V2)
 *        │ lower ╲      │        upper triangle  b d c   (V1 V3 V2)
 *    j   a ─────────── b         both counter-clockwise seen from above (+z): front faces up.
 *        i            i+s ──> x
 *
 * Decimation: for big maps the caller passes an integer stride s > 1; the mesh then samples every
 * s-th vertex along each axis (plus always the last row and column, so the mesh covers the whole
 * map) and the drawn surface is only an approximation of the collision surface. The renderer
 * reports the stride on screen when it is not 1.
 *
 * Positions stay in the simulation frame (z up). The renderer's single root transform turns the
 * whole scene y-up; a proper rotation keeps the counter-clockwise winding.
 */

/** The parts of a terrain description the mesh needs (a subset of protocol TerrainInfo and of Heightfield). */
export interface TerrainGrid {
  cols: number;
  rows: number;
  /** [m] */
  dx: number;
  /** [m] */
  dy: number;
  /** [m] */
  x0: number;
  /** [m] */
  y0: number;
  /** Row-major heights [m], `heights[j*cols + i]`. */
  heights: ArrayLike<number>;
}

export interface TerrainMesh {
  /** Mesh vertices along x and y after decimation. */
  cols: number;
  rows: number;
  /** Sampling stride in grid vertices (1 = every vertex, exact). */
  stride: number;
  /** xyz per vertex, simulation frame (z up). */
  positions: Float32Array;
  /** Unit xyz per vertex: area-weighted average of the incident triangles' normals. */
  normals: Float32Array;
  /** Three per triangle, two triangles per mesh cell (lower then upper). */
  indices: Uint32Array;
}

/** Number of samples along an axis of `n` grid vertices at `stride`: every stride-th plus the last. */
export function sampleCount(n: number, stride: number): number {
  return Math.ceil((n - 1) / stride) + 1;
}

/** Grid index of sample `k` along an axis of `n` vertices (the last sample is always n − 1). */
function sampleIndex(k: number, n: number, stride: number): number {
  const g = k * stride;
  return g < n - 1 ? g : n - 1;
}

/** Smallest integer stride ≥ 1 whose mesh has at most `maxVertices` vertices. */
export function chooseTerrainStride(cols: number, rows: number, maxVertices: number): number {
  let s = 1;
  // Start from the area ratio (a lower bound), then walk up: at most a few iterations.
  const ratio = Math.sqrt((cols * rows) / Math.max(1, maxVertices));
  if (ratio > 1) s = Math.max(1, Math.floor(ratio));
  while (sampleCount(cols, s) * sampleCount(rows, s) > maxVertices && s < Math.max(cols, rows)) s++;
  return s;
}

/**
 * Builds the mesh of `grid` sampled at `stride` (integer ≥ 1). Throws RangeError for a grid
 * smaller than one cell or a bad stride; heights are assumed finite (the worker validated them).
 */
export function buildTerrainMesh(grid: TerrainGrid, stride = 1): TerrainMesh {
  const { cols, rows, dx, dy, x0, y0, heights } = grid;
  if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 2 || rows < 2) {
    throw new RangeError(`terrain mesh: need at least 2 × 2 vertices, got ${cols} × ${rows}`);
  }
  if (heights.length !== cols * rows) {
    throw new RangeError(`terrain mesh: ${heights.length} heights for ${cols} × ${rows} vertices`);
  }
  if (!Number.isInteger(stride) || stride < 1) throw new RangeError(`terrain mesh: stride must be an integer ≥ 1, got ${stride}`);
  const mc = sampleCount(cols, stride);
  const mr = sampleCount(rows, stride);
  const nv = mc * mr;
  const positions = new Float32Array(nv * 3);
  for (let r = 0; r < mr; r++) {
    const j = sampleIndex(r, rows, stride);
    for (let c = 0; c < mc; c++) {
      const i = sampleIndex(c, cols, stride);
      const v = (r * mc + c) * 3;
      positions[v] = x0 + i * dx;
      positions[v + 1] = y0 + j * dy;
      positions[v + 2] = heights[j * cols + i];
    }
  }

  const indices = gridTriangles(mc, mr);
  return { cols: mc, rows: mr, stride, positions, normals: gridNormals(positions, indices, nv), indices };
}

/**
 * Triangles of an mc × mr vertex grid (row-major), two per cell split on the V1–V2 diagonal as
 * in the diagram above: lower a b c, upper b d c, counter-clockwise seen from +z.
 */
export function gridTriangles(mc: number, mr: number): Uint32Array {
  const indices = new Uint32Array(Math.max(0, mc - 1) * Math.max(0, mr - 1) * 6);
  let t = 0;
  for (let r = 0; r < mr - 1; r++) {
    for (let c = 0; c < mc - 1; c++) {
      const a = r * mc + c;
      const b = a + 1;
      const cc = a + mc;
      const d = cc + 1;
      indices[t++] = a;
      indices[t++] = b;
      indices[t++] = cc;
      indices[t++] = b;
      indices[t++] = d;
      indices[t++] = cc;
    }
  }
  return indices;
}

/**
 * Area-weighted unit normals of `nv` vertices from triangles `indices` over `positions` (xyz).
 * The unnormalised cross product of two edges is twice the triangle's area times its unit
 * normal, so summing raw cross products weights by area. Accumulated in float64 so big flat maps
 * do not lose the small slopes. A vertex of no triangle (or only degenerate ones) points up.
 */
export function gridNormals(positions: Float32Array, indices: ArrayLike<number>, nv: number): Float32Array {
  const acc = new Float64Array(nv * 3);
  for (let k = 0; k < indices.length; k += 3) {
    const ia = indices[k] * 3, ib = indices[k + 1] * 3, ic = indices[k + 2] * 3;
    const ux = positions[ib] - positions[ia], uy = positions[ib + 1] - positions[ia + 1], uz = positions[ib + 2] - positions[ia + 2];
    const vx = positions[ic] - positions[ia], vy = positions[ic + 1] - positions[ia + 1], vz = positions[ic + 2] - positions[ia + 2];
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    acc[ia] += nx; acc[ia + 1] += ny; acc[ia + 2] += nz;
    acc[ib] += nx; acc[ib + 1] += ny; acc[ib + 2] += nz;
    acc[ic] += nx; acc[ic + 1] += ny; acc[ic + 2] += nz;
  }
  const normals = new Float32Array(nv * 3);
  for (let v = 0; v < nv * 3; v += 3) {
    const len = Math.hypot(acc[v], acc[v + 1], acc[v + 2]);
    if (len > 0 && Number.isFinite(len)) {
      normals[v] = acc[v] / len;
      normals[v + 1] = acc[v + 1] / len;
      normals[v + 2] = acc[v + 2] / len;
    } else {
      // Zero spacing (which the heightfield rejects) or a vertex of no triangle: straight up.
      normals[v + 2] = 1;
    }
  }
  return normals;
}
