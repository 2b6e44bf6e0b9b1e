/**
 * How the peers get our exact terrain surface (same heights as float32, same V1–V2 diagonal),
 * and a check that they did: rays cast straight down at seeded points must hit our heightAt.
 *
 *   Jolt    MeshShape of our triangles (V0 V1 V2, V1 V3 V2), as test/oracle/cylinder-peers.ts.
 *           Not Jolt's HeightFieldShape: it stores each sample in ≤ 8 bits relative to its block's
 *           range (lossy), so its heights are not ours.
 *   Rapier  HeightField (y up in its frame, rows along local z, columns along local x, cell split
 *           on the (x1, z0)–(x0, z1) diagonal), turned by the rotation (x, y, z) → (y, z, x)
 *           (120° about (1, 1, 1), quaternion [½, ½, ½, ½]): local z → world x, local x → world
 *           y, local y → world z. Its rows are then our columns i and its columns our rows j, and
 *           its diagonal is our V1–V2. Column-major heights: element (r, c) at c·nrows + r, which
 *           is our heights[j·cols + i] with r = i, c = j: the same array.
 *   MuJoCo  hfield (rows along local y, columns along local x, cell split on the
 *           (c, r)–(c+1, r+1) diagonal) turned 90° about z: local x → world y, local y → world −x.
 *           Its diagonal direction (+1, +1) becomes world (−1, +1), our V1–V2, with no mirroring
 *           (cylinder-peers.ts mirrors instead, which is fine for a static query but would flip
 *           the handedness of a whole dynamic scene). Row r is our column i = cols − 1 − r, column
 *           c our row j; heights normalised to [0, 1] over the map's range.
 */
import { Rng } from '../../../sim/math/random';
import type { Heightfield } from '../../../sim/terrain/heightfield';

/** Rapier heightfield: heights (column-major, rows = our columns) and its placement. */
export function rapierHeightfield(hf: Heightfield): {
  nrows: number; ncols: number; heights: Float32Array; scale: { x: number; y: number; z: number };
  translation: { x: number; y: number; z: number }; rotation: { x: number; y: number; z: number; w: number };
} {
  // Rapier's nrows/ncols count cells; the matrix is (nrows + 1) × (ncols + 1).
  const heights = new Float32Array(hf.cols * hf.rows);
  for (let j = 0; j < hf.rows; j++) for (let i = 0; i < hf.cols; i++) heights[j * hf.cols + i] = hf.height(i, j);
  return {
    nrows: hf.cellsX,
    ncols: hf.cellsY,
    heights,
    scale: { x: hf.cellsY * hf.dy, y: 1, z: hf.cellsX * hf.dx },
    translation: { x: hf.x0 + (hf.cellsX * hf.dx) / 2, y: hf.y0 + (hf.cellsY * hf.dy) / 2, z: 0 },
    rotation: { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
  };
}

/** MuJoCo hfield turned 90° about z: sizes, geom placement and normalised data (row-major). */
export function mujocoHeightfield(hf: Heightfield): {
  nrow: number; ncol: number; size: [number, number, number, number]; pos: [number, number, number];
  /** MuJoCo order [w, x, y, z]. */
  quat: [number, number, number, number]; data: Float32Array;
} {
  const lo = hf.minHeight;
  const range = Math.max(hf.maxHeight - lo, 1e-6);
  const nrow = hf.cols; // local y ↔ world −x
  const ncol = hf.rows; // local x ↔ world y
  const data = new Float32Array(nrow * ncol);
  for (let r = 0; r < nrow; r++) {
    for (let c = 0; c < ncol; c++) data[r * ncol + c] = (hf.height(hf.cols - 1 - r, c) - lo) / range;
  }
  const halfX = (hf.cellsX * hf.dx) / 2, halfY = (hf.cellsY * hf.dy) / 2;
  return {
    nrow,
    ncol,
    // size: local x half-extent (world y), local y half-extent (world x), elevation range, base depth.
    size: [halfY, halfX, range, 1],
    pos: [hf.x0 + halfX, hf.y0 + halfY, lo],
    quat: [Math.SQRT1_2, 0, 0, Math.SQRT1_2],
    data,
  };
}

/** Seeded sample points for checkTerrain, away from the map border. */
const TERRAIN_CHECK_POINTS = 4000;
const TERRAIN_CHECK_SEED = 7;
/**
 * [m] Largest ray-hit height error accepted: float32 heights and float32 ray arithmetic at
 * |coordinates| ≤ 13 m give about 1e-6 m; a wrong diagonal gives up to the cell's twist
 * |h0 + h3 − h1 − h2| / 2, which on this terrain exceeds this at hundreds of the points.
 */
export const TERRAIN_CHECK_TOLERANCE = 2e-5;

/** One line per passed check, for the bench to print. */
export const terrainCheckLog: string[] = [];

/**
 * Casts `rayDownHeight(x, y)` (the engine's surface height at (x, y), NaN when missed) at seeded
 * points and compares with hf.heightAt. Returns the largest error and how many points would
 * have failed with the other diagonal (so a pass is a real test of the triangulation); throws
 * naming the engine when the error exceeds TERRAIN_CHECK_TOLERANCE.
 */
export function checkTerrain(engine: string, hf: Heightfield, rayDownHeight: (x: number, y: number) => number): { maxError: number; discriminating: number } {
  const rng = new Rng(TERRAIN_CHECK_SEED);
  let maxError = 0;
  let discriminating = 0;
  for (let k = 0; k < TERRAIN_CHECK_POINTS; k++) {
    const x = hf.x0 + rng.range(1, hf.cellsX - 1) * hf.dx;
    const y = hf.y0 + rng.range(1, hf.cellsY - 1) * hf.dy;
    const want = hf.heightAt(x, y);
    const got = rayDownHeight(x, y);
    const err = Number.isFinite(got) ? Math.abs(got - want) : Infinity;
    if (err > maxError) maxError = err;
    // The other diagonal's height at this point (V0–V3 split).
    const fx = (x - hf.x0) / hf.dx, fy = (y - hf.y0) / hf.dy;
    const i = Math.floor(fx), j = Math.floor(fy), u = fx - i, v = fy - j;
    const h0 = hf.height(i, j), h1 = hf.height(i + 1, j), h2 = hf.height(i, j + 1), h3 = hf.height(i + 1, j + 1);
    const other = u >= v ? h0 + (h1 - h0) * u + (h3 - h1) * v : h0 + (h3 - h2) * u + (h2 - h0) * v;
    if (Math.abs(other - want) > TERRAIN_CHECK_TOLERANCE) discriminating++;
  }
  if (!(maxError <= TERRAIN_CHECK_TOLERANCE)) {
    throw new Error(`${engine}: terrain differs from ours by up to ${(maxError * 1000).toFixed(3)} mm (ray casts at ${TERRAIN_CHECK_POINTS} points; tolerance ${TERRAIN_CHECK_TOLERANCE * 1000} mm)`);
  }
  terrainCheckLog.push(`${engine}: terrain = ours within ${(maxError * 1000).toFixed(4)} mm at ${TERRAIN_CHECK_POINTS} ray casts (${discriminating} of them would be off by > ${TERRAIN_CHECK_TOLERANCE * 1000} mm with the other diagonal)`);
  return { maxError, discriminating };
}
