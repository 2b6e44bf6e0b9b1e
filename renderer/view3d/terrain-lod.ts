/**
 * Terrain level of detail, pure (no three, no DOM): which chunks to draw at which stride for a
 * camera position, and the mesh of one chunk. The 3D view (terrain-view.ts) fetches the chunks'
 * heights from the worker and caches their meshes.
 *
 * Chunks form a quadtree over the grid's cells. A chunk of level L covers C·2^L × C·2^L cells
 * (C = LOD_CHUNK_CELLS) and is drawn at stride 2^L, so every chunk has at most (C + 1)² vertices;
 * level 0 (stride 1) is exactly the collision surface. The root's level is the smallest that
 * covers the whole grid; chunks past the grid's last row or column are clipped to it (their last
 * sample is the grid's last vertex, as sim/terrain/mesh.ts samples a decimated mesh).
 *
 *   level 2 ┌───────────────┐      level 1 ┌───────┬───────┐     a chunk splits into its four
 *   stride 4│               │      stride 2│       │ ┌─┬─┐ │     children while the camera is
 *           │               │              │       │ ├─┼─┤ │     nearer than LOD_SPLIT_FACTOR ×
 *           │               │              │       │ └─┴─┘ │     its side; level 0 never splits
 *           └───────────────┘              └───────┴───────┘
 *
 * Seams: neighbouring chunks may differ by any number of levels, so a coarse chunk's border is a
 * chord of its fine neighbour's border. Instead of stitching (which would move the fine chunk's
 * border off the collision surface) every chunk hangs a vertical skirt from each inner border
 * down to below the terrain's lowest point. Along a shared border, wherever one chunk's edge is
 * above the other's, the gap between them lies on the higher one's skirt, so no crack shows.
 * Skirts are never seen otherwise: a point below the surface is hidden from any eye above it.
 */
import type { TerrainInfo, TerrainPatch } from '../../sim/app/protocol';
import { gridNormals, gridTriangles, sampleCount } from '../../sim/terrain/mesh';
import { heightColors } from './height-colors';

/** The grid's shape as the LOD needs it: protocol TerrainInfo without its overview. */
export type LodGrid = Omit<TerrainInfo, 'overview'>;

export interface LodOptions {
  /** Cells along a chunk's side in samples (C): a chunk has at most (C + 1)² vertices. */
  chunkCells: number;
  /** A chunk splits while the camera is nearer than this × the chunk's side [m/m]. */
  splitFactor: number;
  /** Most vertices drawn (skirts included); the split factor is lowered until the selection fits. */
  maxVertices: number;
  /**
   * A point (x, y) whose surroundings are drawn at stride 1 whatever the camera's distance and
   * the budget (the followed robot: what it rolls on is the collision surface), and the radius
   * [m] around it: every chunk nearer than that in xy splits down to level 0.
   */
  focus?: readonly number[];
  focusRadius?: number;
}

/** One chunk of the quadtree: its place, its stride and the grid vertices it spans (clipped). */
export interface LodChunk {
  level: number;
  /** Chunk column and row at its level. */
  ci: number;
  cj: number;
  /** 2^level. */
  stride: number;
  /** First grid vertex and vertices spanned (clipped to the grid). */
  i0: number;
  j0: number;
  cols: number;
  rows: number;
  /** "level/ci/cj" */
  key: string;
}

/** Level of the root: the smallest L with C·2^L cells covering both sides of the grid. */
export function rootLevel(grid: LodGrid, chunkCells: number): number {
  const cells = Math.max(grid.cols - 1, grid.rows - 1);
  let L = 0;
  while (chunkCells * 2 ** L < cells) L++;
  return L;
}

/** The chunk (level, ci, cj), or null when it lies wholly outside the grid. */
export function lodChunk(grid: LodGrid, chunkCells: number, level: number, ci: number, cj: number): LodChunk | null {
  const stride = 2 ** level;
  const side = chunkCells * stride;
  const i0 = ci * side, j0 = cj * side;
  if (ci < 0 || cj < 0 || i0 >= grid.cols - 1 || j0 >= grid.rows - 1) return null;
  const i1 = Math.min(i0 + side, grid.cols - 1), j1 = Math.min(j0 + side, grid.rows - 1);
  return { level, ci, cj, stride, i0, j0, cols: i1 - i0 + 1, rows: j1 - j0 + 1, key: `${level}/${ci}/${cj}` };
}

/** The chunk's parent (one level up), or null for the root level. */
export function parentChunk(grid: LodGrid, chunkCells: number, c: LodChunk, root: number): LodChunk | null {
  if (c.level >= root) return null;
  return lodChunk(grid, chunkCells, c.level + 1, c.ci >> 1, c.cj >> 1);
}

/** Vertices of the chunk's mesh: its samples and one skirt vertex per border sample of each inner side. */
export function chunkVertexCount(grid: LodGrid, c: LodChunk): number {
  const sc = sampleCount(c.cols, c.stride), sr = sampleCount(c.rows, c.stride);
  let skirt = 0;
  if (c.j0 > 0) skirt += sc;
  if (c.j0 + c.rows < grid.rows) skirt += sc;
  if (c.i0 > 0) skirt += sr;
  if (c.i0 + c.cols < grid.cols) skirt += sr;
  return sc * sr + skirt;
}

/** [m] Distance from (ex, ey, ez) to the chunk's box (its xy rectangle × the terrain's height range). */
export function chunkDistance(grid: LodGrid, c: LodChunk, ex: number, ey: number, ez: number): number {
  const xa = grid.x0 + c.i0 * grid.dx, xb = grid.x0 + (c.i0 + c.cols - 1) * grid.dx;
  const ya = grid.y0 + c.j0 * grid.dy, yb = grid.y0 + (c.j0 + c.rows - 1) * grid.dy;
  const ddx = ex < xa ? xa - ex : ex > xb ? ex - xb : 0;
  const ddy = ey < ya ? ya - ey : ey > yb ? ey - yb : 0;
  const ddz = ez < grid.minHeight ? grid.minHeight - ez : ez > grid.maxHeight ? ez - grid.maxHeight : 0;
  return Math.hypot(ddx, ddy, ddz);
}

/** [m] Side of a chunk of `level` (the longer of its two cell sides, before clipping). */
function chunkSide(grid: LodGrid, chunkCells: number, level: number): number {
  return chunkCells * 2 ** level * Math.max(grid.dx, grid.dy);
}

/** Whether chunk `c` splits: the camera nearer than factor × its side, or the focus within the focus radius. */
export function chunkSplits(grid: LodGrid, C: number, factor: number, c: LodChunk, e: readonly number[], focus: readonly number[] | null, focusRadius: number): boolean {
  if (c.level === 0) return false;
  if (chunkDistance(grid, c, e[0], e[1], e[2]) < factor * chunkSide(grid, C, c.level)) return true;
  return focus !== null && chunkDistance(grid, c, focus[0], focus[1], (grid.minHeight + grid.maxHeight) / 2) < focusRadius;
}

function refine(grid: LodGrid, C: number, factor: number, c: LodChunk, e: readonly number[], focus: readonly number[] | null, focusRadius: number, out: LodChunk[]): void {
  if (chunkSplits(grid, C, factor, c, e, focus, focusRadius)) {
    for (let q = 0; q < 4; q++) {
      const child = lodChunk(grid, C, c.level - 1, 2 * c.ci + (q & 1), 2 * c.cj + (q >> 1));
      if (child) refine(grid, C, factor, child, e, focus, focusRadius, out);
    }
  } else out.push(c);
}

/** Split factors tried, from LodOptions.splitFactor down, until the selection fits the budget. */
const BUDGET_SHRINK = 0.75;
const BUDGET_TRIES = 24;

/**
 * The chunks to draw for a camera at `eye` (simulation frame, m): the leaves of the quadtree
 * refined by distance (and around the focus). They tile the grid's cells exactly once. If they
 * exceed `maxVertices`, the split factor shrinks by BUDGET_SHRINK until they fit; the focus's
 * level-0 chunks stay (a few: the focus radius is metres), so a budget below them is exceeded.
 */
export function selectChunks(grid: LodGrid, eye: readonly number[], opts: LodOptions): { chunks: LodChunk[]; splitFactor: number; vertices: number } {
  const C = opts.chunkCells;
  if (!Number.isInteger(C) || C < 1) throw new RangeError(`selectChunks: chunkCells must be an integer ≥ 1, got ${C}`);
  if (!(opts.splitFactor >= 0)) throw new RangeError(`selectChunks: splitFactor must be ≥ 0, got ${opts.splitFactor}`);
  const root = lodChunk(grid, C, rootLevel(grid, C), 0, 0);
  if (!root) throw new RangeError(`selectChunks: a ${grid.cols} × ${grid.rows} grid has no cell`);
  const e = [Number.isFinite(eye[0]) ? eye[0] : 0, Number.isFinite(eye[1]) ? eye[1] : 0, Number.isFinite(eye[2]) ? eye[2] : 0];
  const focus = opts.focus && Number.isFinite(opts.focus[0]) && Number.isFinite(opts.focus[1]) ? opts.focus : null;
  const focusRadius = opts.focusRadius ?? 0;
  let factor = opts.splitFactor;
  let chunks: LodChunk[] = [];
  let vertices = 0;
  for (let t = 0; t < BUDGET_TRIES; t++) {
    chunks = [];
    refine(grid, C, factor, root, e, focus, focusRadius, chunks);
    vertices = 0;
    for (const c of chunks) vertices += chunkVertexCount(grid, c);
    if (vertices <= opts.maxVertices) break;
    factor *= BUDGET_SHRINK;
  }
  return { chunks, splitFactor: factor, vertices };
}

/**
 * The patch request for a chunk: its span grown by one stride on every side (clamped by the
 * worker), so the border normals see the neighbouring triangles and match across chunks.
 */
export function chunkRequest(c: LodChunk): [i0: number, j0: number, cols: number, rows: number, stride: number] {
  return [c.i0 - c.stride, c.j0 - c.stride, c.cols + 2 * c.stride, c.rows + 2 * c.stride, c.stride];
}

/** Heights sampled on a lattice of grid vertices (a TerrainPatch, or a window of the overview). */
export type SampledHeights = Pick<TerrainPatch, 'i0' | 'j0' | 'cols' | 'rows' | 'stride' | 'sampleCols' | 'sampleRows' | 'heights'>;

/**
 * A patch with the chunk's samples (and possibly a ring around them) cut from the overview
 * (stride `o.stride`, samples at multiples of it plus the last row and column), for chunks whose
 * stride is a multiple of the overview's: drawn at once, without a request.
 */
export function patchFromOverview(grid: LodGrid, overview: { stride: number; cols: number; rows: number; heights: Float32Array }, c: LodChunk): SampledHeights | null {
  const so = overview.stride;
  if (c.stride % so !== 0) return null;
  const patch = emptyPatch(grid, c);
  const { i0: a0, j0: b0, stride: s, sampleCols: sc, sampleRows: sr, heights } = patch;
  const a1 = a0 + patch.cols - 1, b1 = b0 + patch.rows - 1;
  // Grid vertex g is overview sample g / so, except the grid's last vertex, the overview's last sample.
  const at = (g: number, n: number, last: number): number => (g >= n - 1 ? last : g / so);
  for (let r = 0; r < sr; r++) {
    const orow = at(Math.min(b0 + r * s, b1), grid.rows, overview.rows - 1);
    for (let k = 0; k < sc; k++) heights[r * sc + k] = overview.heights[orow * overview.cols + at(Math.min(a0 + k * s, a1), grid.cols, overview.cols - 1)];
  }
  return patch;
}

/**
 * The samples that request `chunkRequest(c)` asks for, clamped to the grid (the first on the
 * stride's lattice, the grid's last vertex kept), with their heights still to be filled.
 */
function emptyPatch(grid: LodGrid, c: LodChunk): SampledHeights {
  const [ri0, rj0, rc, rr, s] = chunkRequest(c);
  const lattice = (a: number) => (a >= 0 ? a : a + Math.ceil(-a / s) * s);
  const a1 = Math.min(ri0 + rc - 1, grid.cols - 1), b1 = Math.min(rj0 + rr - 1, grid.rows - 1);
  const a0 = Math.min(lattice(ri0), a1), b0 = Math.min(lattice(rj0), b1);
  const cols = a1 - a0 + 1, rows = b1 - b0 + 1;
  const sc = sampleCount(cols, s), sr = sampleCount(rows, s);
  return { i0: a0, j0: b0, cols, rows, stride: s, sampleCols: sc, sampleRows: sr, heights: new Float32Array(sc * sr) };
}

/** The overview's shape and samples (protocol TerrainOverview). */
export interface OverviewGrid {
  stride: number;
  cols: number;
  rows: number;
  heights: Float32Array;
}

/** Bilinear height of grid vertex (gi, gj) from the overview (exact at its own samples). */
function overviewHeight(grid: LodGrid, o: OverviewGrid, gi: number, gj: number): number {
  const axis = (g: number, n: number, m: number): [number, number] => {
    if (m < 2) return [0, 0];
    const k = Math.min(Math.floor(g / o.stride), m - 2);
    const g0 = k * o.stride, g1 = Math.min((k + 1) * o.stride, n - 1);
    return [k, g1 > g0 ? Math.min(1, Math.max(0, (g - g0) / (g1 - g0))) : 0];
  };
  const [ki, ti] = axis(gi, grid.cols, o.cols), [kj, tj] = axis(gj, grid.rows, o.rows);
  const ki1 = Math.min(ki + 1, o.cols - 1), kj1 = Math.min(kj + 1, o.rows - 1);
  const h = o.heights, w = o.cols;
  const a = h[kj * w + ki] + (h[kj * w + ki1] - h[kj * w + ki]) * ti;
  const b = h[kj1 * w + ki] + (h[kj1 * w + ki1] - h[kj1 * w + ki]) * ti;
  return a + (b - a) * tj;
}

/**
 * A stand-in for a chunk finer than the overview, drawn until its patch arrives: the chunk's
 * footprint at stride min(max(its stride, the overview's), its side), heights interpolated
 * bilinearly from the overview (its own samples where the lattices meet). Returns the chunk as
 * drawn (its stride replaced) and its heights, ready for chunkMesh. Skirts hide the seams with
 * exact neighbours like any other level difference.
 */
export function placeholderChunk(grid: LodGrid, o: OverviewGrid, c: LodChunk, chunkCells: number): { chunk: LodChunk; patch: SampledHeights } {
  const s = Math.min(Math.max(c.stride, o.stride), c.stride * chunkCells);
  const chunk: LodChunk = { ...c, stride: s };
  const patch = emptyPatch(grid, chunk);
  const { i0: a0, j0: b0, sampleCols: sc, sampleRows: sr, heights } = patch;
  const a1 = a0 + patch.cols - 1, b1 = b0 + patch.rows - 1;
  for (let r = 0; r < sr; r++) {
    const gj = Math.min(b0 + r * s, b1);
    for (let k = 0; k < sc; k++) heights[r * sc + k] = overviewHeight(grid, o, Math.min(a0 + k * s, a1), gj);
  }
  return { chunk, patch };
}

export interface ChunkMesh {
  /** xyz per vertex, simulation frame: the chunk's samples row-major, then the skirt vertices. */
  positions: Float32Array;
  normals: Float32Array;
  /** Linear rgb per vertex (height colours; a skirt vertex has its border vertex's colour). */
  colors: Float32Array;
  indices: Uint16Array | Uint32Array;
  /** Samples of the chunk's surface along x and y (the first sampleCols × sampleRows vertices). */
  sampleCols: number;
  sampleRows: number;
  /** [m] z of the skirts' lower edge. */
  skirtBottom: number;
}

/** [m] How far skirts reach below the terrain's lowest point. */
export const SKIRT_MARGIN = 0.05;

/**
 * The mesh of chunk `c` from heights `p` that cover its span on its stride's lattice (a ring of
 * one more sample on any side is used for the normals, then dropped).
 *
 * Skirts hang from every side not on the map's edge down to SKIRT_MARGIN below the terrain's
 * lowest point (grid.minHeight), closing to the surface where they meet the map's edge (seen
 * from outside the map they would show). Walking the border counter-clockwise seen from above (south
 * left→right, east upwards, north right→left, west downwards) with border samples a → b and their
 * skirt copies a' b', the quad's triangles a a' b' and a b' b face outward, toward the neighbour
 * whose crack they fill.
 */
export function chunkMesh(grid: LodGrid, c: LodChunk, p: SampledHeights): ChunkMesh {
  const s = c.stride;
  if (p.stride !== s) throw new RangeError(`chunkMesh: patch stride ${p.stride} is not the chunk's ${s}`);
  const off = (a: number, pa: number): number => (a - pa) / s;
  const ci0 = off(c.i0, p.i0), cj0 = off(c.j0, p.j0);
  const sc = sampleCount(c.cols, s), sr = sampleCount(c.rows, s);
  if (!Number.isInteger(ci0) || !Number.isInteger(cj0) || ci0 < 0 || cj0 < 0 || ci0 + sc > p.sampleCols || cj0 + sr > p.sampleRows) {
    throw new RangeError(`chunkMesh: patch at ${p.i0},${p.j0} (${p.sampleCols} × ${p.sampleRows} samples) does not cover chunk ${c.key}`);
  }
  // Positions of the whole patch (chunk + ring), for normals shared with the neighbours.
  const pc = p.sampleCols, pr = p.sampleRows;
  const ext = new Float32Array(pc * pr * 3);
  const lastI = p.i0 + p.cols - 1, lastJ = p.j0 + p.rows - 1;
  for (let r = 0; r < pr; r++) {
    const y = grid.y0 + Math.min(p.j0 + r * s, lastJ) * grid.dy;
    for (let k = 0; k < pc; k++) {
      const o = 3 * (r * pc + k);
      ext[o] = grid.x0 + Math.min(p.i0 + k * s, lastI) * grid.dx;
      ext[o + 1] = y;
      ext[o + 2] = p.heights[r * pc + k];
    }
  }
  const extNormals = gridNormals(ext, gridTriangles(pc, pr), pc * pr);

  const south = c.j0 > 0, north = c.j0 + c.rows < grid.rows, west = c.i0 > 0, east = c.i0 + c.cols < grid.cols;
  const nSkirt = (south ? sc : 0) + (north ? sc : 0) + (west ? sr : 0) + (east ? sr : 0);
  const nv = sc * sr + nSkirt;
  const positions = new Float32Array(nv * 3), normals = new Float32Array(nv * 3);
  for (let r = 0; r < sr; r++) for (let k = 0; k < sc; k++) {
    const src = 3 * ((r + cj0) * pc + k + ci0), dst = 3 * (r * sc + k);
    for (let d = 0; d < 3; d++) {
      positions[dst + d] = ext[src + d];
      normals[dst + d] = extNormals[src + d];
    }
  }
  let lowest = grid.minHeight;
  for (let v = 2; v < sc * sr * 3; v += 3) if (positions[v] < lowest) lowest = positions[v];
  const skirtBottom = lowest - SKIRT_MARGIN;

  const tri = gridTriangles(sc, sr);
  const quads = (south ? sc - 1 : 0) + (north ? sc - 1 : 0) + (west ? sr - 1 : 0) + (east ? sr - 1 : 0);
  const indices = nv <= 65536 ? new Uint16Array(tri.length + 6 * quads) : new Uint32Array(tri.length + 6 * quads);
  indices.set(tri);
  let t = tri.length;
  let next = sc * sr;
  /** Skirt along border samples `border` (counter-clockwise order). */
  const skirt = (border: number[]): void => {
    const first = next;
    for (const v of border) {
      const o = 3 * next++;
      positions[o] = positions[3 * v];
      positions[o + 1] = positions[3 * v + 1];
      // At the map's edge nothing hides a skirt: it closes to the surface there (no gap to fill
      // at that point either: both neighbours end on the same boundary vertex).
      const k = v % sc, r = (v - k) / sc;
      const gi = Math.min(c.i0 + k * s, c.i0 + c.cols - 1), gj = Math.min(c.j0 + r * s, c.j0 + c.rows - 1);
      const onEdge = gi === 0 || gj === 0 || gi === grid.cols - 1 || gj === grid.rows - 1;
      positions[o + 2] = onEdge ? positions[3 * v + 2] : skirtBottom;
      normals[o] = normals[3 * v];
      normals[o + 1] = normals[3 * v + 1];
      normals[o + 2] = normals[3 * v + 2];
    }
    for (let q = 0; q + 1 < border.length; q++) {
      const a = border[q], b = border[q + 1], a2 = first + q, b2 = first + q + 1;
      indices[t++] = a; indices[t++] = a2; indices[t++] = b2;
      indices[t++] = a; indices[t++] = b2; indices[t++] = b;
    }
  };
  const range = (n: number, f: (k: number) => number): number[] => Array.from({ length: n }, (_, k) => f(k));
  if (south) skirt(range(sc, (k) => k));
  if (east) skirt(range(sr, (r) => r * sc + sc - 1));
  if (north) skirt(range(sc, (k) => (sr - 1) * sc + sc - 1 - k));
  if (west) skirt(range(sr, (r) => (sr - 1 - r) * sc));

  // Colours from the surface heights; skirt vertices take their border vertex's colour.
  const top = positions.slice();
  next = sc * sr;
  const borderOf: number[] = [];
  if (south) borderOf.push(...range(sc, (k) => k));
  if (east) borderOf.push(...range(sr, (r) => r * sc + sc - 1));
  if (north) borderOf.push(...range(sc, (k) => (sr - 1) * sc + sc - 1 - k));
  if (west) borderOf.push(...range(sr, (r) => (sr - 1 - r) * sc));
  borderOf.forEach((v, q) => (top[3 * (next + q) + 2] = positions[3 * v + 2]));
  const colors = heightColors(top, grid.minHeight, grid.maxHeight);
  return { positions, normals, colors, indices, sampleCols: sc, sampleRows: sr, skirtBottom };
}
