/**
 * Terrains and wheel poses of the completeness oracle (cylinder-completeness.ts), shared by its
 * CI test, the ≥ 10,000-pose run (TW_ORACLE_POSES) and the regression tests.
 *
 * Terrain kinds (257 × 257 vertices, dx = dy = 5 cm, 12.8 m square, seeded):
 *   smooth    diamond-square fractal, amplitude 0.3 m, roughness 0.45 (a rolling field: slopes
 *             up to ~25°, every internal edge gently bent);
 *   features  a gentler fractal (0.1 m, 0.45) with, on top: steps across oblique and
 *             axis-aligned lines (±2–12 cm), ramps (rectangles raised by a plane rising at
 *             5–30° from their low side, so their rims are creases and steps) and single-vertex
 *             spikes (+3–15 cm, one cell wide).
 *
 * Pose: wheel r = 0.3 m, width 0.2 m; random (x, y) ≥ 0.6 m inside the map, random yaw, camber
 * (axle tilt against the horizontal) uniform in ±MAX_CAMBER, the lowest point of the cylinder
 * placed `penetration` ∈ [0, MAX_PENETRATION] below the terrain height under it. On 'features'
 * the wheel is then moved vertically so that the largest VERTICAL penetration of its boundary
 * (terrain height minus point height, over a grid of boundary points) is that penetration: a
 * step, ramp or spike inside the footprint would otherwise bury it by up to 40 cm.
 */
import { MANIFOLD_GROUP_COS } from '../../sim/constants';
import { Rng } from '../../sim/math/random';
import { fractalTerrain } from '../../sim/terrain/generate';
import { Heightfield } from '../../sim/terrain/heightfield';
import { checkCoverage, type Cylinder, type ReportedContact } from './cylinder-completeness';

export type TerrainKind = 'smooth' | 'features';
export const TERRAIN_KINDS: readonly TerrainKind[] = ['smooth', 'features'];

/** [m] The threshold and tolerance: elements deeper than this must be covered within it (0.05 mm). */
export const DEPTH_TOLERANCE = 5e-5;
/**
 * [-] Cosine of the cone in which a reported contact covers an element: twice the grouping angle
 * (the reduction keeps each group's deepest point; members of a group are within the grouping
 * angle of its representative, so within twice that of each other). cos 2α = 2cos²α − 1.
 */
export const COVER_COS = 2 * MANIFOLD_GROUP_COS * MANIFOLD_GROUP_COS - 1;

export const WHEEL_RADIUS = 0.3;
export const WHEEL_WIDTH = 0.2;
/** [rad] 20°. */
export const MAX_CAMBER = (20 * Math.PI) / 180;
/** [m] 8 cm. */
export const MAX_PENETRATION = 0.08;
const COLS = 257;
const DX = 0.05;
const MARGIN = 0.6;
const TERRAIN_SEED = 1212;
export const POSE_SEED = 120012;

export function buildTerrain(kind: TerrainKind): Heightfield {
  const base = fractalTerrain({
    cols: COLS, dx: DX, seed: TERRAIN_SEED + (kind === 'smooth' ? 0 : 1),
    amplitude: kind === 'smooth' ? 0.3 : 0.1, roughness: 0.45,
  });
  if (kind === 'smooth') return base;
  const h = Float64Array.from(base.heights);
  const rng = new Rng(TERRAIN_SEED + 2);
  const x0 = base.x0, y0 = base.y0, size = (COLS - 1) * DX;
  const at = (i: number, j: number): [number, number] => [x0 + i * DX, y0 + j * DX];
  // Steps: half-planes raised or lowered (oblique lines make bent diagonals and sides of every kind).
  for (let s = 0; s < 24; s++) {
    const px = x0 + rng.range(0, size), py = y0 + rng.range(0, size);
    const ang = s % 3 === 0 ? (rng.int(0, 3) * Math.PI) / 2 : rng.range(0, 2 * Math.PI);
    const nx = Math.cos(ang), ny = Math.sin(ang);
    const dh = (rng.next() < 0.5 ? -1 : 1) * rng.range(0.02, 0.12);
    for (let j = 0; j < COLS; j++) {
      for (let i = 0; i < COLS; i++) {
        const [x, y] = at(i, j);
        if ((x - px) * nx + (y - py) * ny > 0) h[j * COLS + i] += dh;
      }
    }
  }
  // Ramps: rectangles lifted by a plane rising from one side.
  for (let s = 0; s < 40; s++) {
    const i0 = rng.int(0, COLS - 30), j0 = rng.int(0, COLS - 30);
    const w = rng.int(8, 28), l = rng.int(8, 28);
    const slope = Math.tan(rng.range((5 * Math.PI) / 180, (30 * Math.PI) / 180));
    const dir = rng.int(0, 3);
    for (let j = j0; j <= j0 + l; j++) {
      for (let i = i0; i <= i0 + w; i++) {
        const t = dir === 0 ? i - i0 : dir === 1 ? i0 + w - i : dir === 2 ? j - j0 : j0 + l - j;
        h[j * COLS + i] += t * DX * slope;
      }
    }
  }
  // Spikes: single vertices.
  for (let s = 0; s < 600; s++) {
    const i = rng.int(1, COLS - 2), j = rng.int(1, COLS - 2);
    h[j * COLS + i] += rng.range(0.03, 0.15);
  }
  return Heightfield.fromArray({ cols: COLS, rows: COLS, dx: DX, dy: DX, x0, y0, heights: h });
}

/** `count` seeded poses over `hf` (pose k depends only on the seed and k). */
export function completenessPoses(hf: Heightfield, count: number, seed = POSE_SEED, settle = false): Cylinder[] {
  const rng = new Rng(seed);
  const r = WHEEL_RADIUS, hw = WHEEL_WIDTH;
  const xLo = hf.x0 + MARGIN, xHi = hf.x0 + hf.cellsX * hf.dx - MARGIN;
  const yLo = hf.y0 + MARGIN, yHi = hf.y0 + hf.cellsY * hf.dy - MARGIN;
  const poses: Cylinder[] = [];
  for (let k = 0; k < count; k++) {
    const x = rng.range(xLo, xHi), y = rng.range(yLo, yHi);
    const yaw = rng.range(0, 2 * Math.PI);
    const camber = rng.range(-MAX_CAMBER, MAX_CAMBER);
    const pen = rng.range(0, MAX_PENETRATION);
    const v: [number, number, number] = [-Math.sin(yaw) * Math.cos(camber), Math.cos(yaw) * Math.cos(camber), Math.sin(camber)];
    // Lowest point: lower base centre + r along w = normalize(v_z·v − e_z).
    const sz = v[2] >= 0 ? -1 : 1;
    let wx = v[2] * v[0], wy = v[2] * v[1], wz = v[2] * v[2] - 1;
    const wl = Math.hypot(wx, wy, wz);
    wx /= wl; wy /= wl; wz /= wl;
    const ox = sz * (hw / 2) * v[0] + r * wx, oy = sz * (hw / 2) * v[1] + r * wy, oz = sz * (hw / 2) * v[2] + r * wz;
    const ground = hf.heightAt(x + ox, y + oy);
    const pose: Cylinder = { center: [x, y, ground - pen - oz], axis: v, radius: r, height: hw };
    if (settle) (pose.center as number[])[2] += verticalDepth(pose, hf) - pen;
    poses.push(pose);
  }
  return poses;
}

/** Largest terrain height minus point height over a grid of the cylinder's boundary points. */
function verticalDepth(cyl: Cylinder, hf: Heightfield): number {
  const [cx, cy, cz] = cyl.center, [vx, vy, vz] = cyl.axis, r = cyl.radius, hh = cyl.height / 2;
  // e1, e2 ⟂ v (v is never vertical here: |camber| ≤ 20°).
  let e1x = -vy, e1y = vx, e1z = 0;
  const l = Math.hypot(e1x, e1y);
  e1x /= l; e1y /= l;
  const e2x = vy * e1z - vz * e1y, e2y = vz * e1x - vx * e1z, e2z = vx * e1y - vy * e1x;
  let best = -Infinity;
  const probe = (z: number, a: number, b: number): void => {
    const x = cx + z * vx + a * e1x + b * e2x, y = cy + z * vy + a * e1y + b * e2y, zz = cz + z * vz + a * e1z + b * e2z;
    best = Math.max(best, hf.heightAt(x, y) - zz);
  };
  for (let p = 0; p < 128; p++) {
    const a = r * Math.cos((2 * Math.PI * p) / 128), b = r * Math.sin((2 * Math.PI * p) / 128);
    for (let z = 0; z <= 10; z++) probe(-hh + (2 * hh * z) / 10, a, b);
  }
  for (let a = -12; a <= 12; a++) {
    for (let b = -12; b <= 12; b++) {
      if (a * a + b * b > 144) continue;
      probe(-hh, (r * a) / 12, (r * b) / 12);
      probe(hh, (r * a) / 12, (r * b) / 12);
    }
  }
  return best;
}

export interface CompletenessStats {
  poses: number;
  /** Elements penetrated by more than DEPTH_TOLERANCE. */
  penetrated: number;
  /** Elements no reported contact covers (see checkCoverage). */
  misses: number;
  /** Poses with at least one miss. */
  missPoses: number;
  /** Elements covered only through the direction test (an edge contact's own normal). */
  coveredByDirection: number;
  /** Per penetrated element, how far its covering contact falls short (checkCoverage's shortfall), clamped at 0 [m]. */
  shortfall: number[];
  /** Per pose in contact whose elements are all covered within the normal cone: |deepest reported − deepest element| [m]. */
  maxDepthError: number[];
  /**
   * Per reported face contact (its normal is its element's normal): depth − d_E of that element
   * [m]; > 0 would be a contact deeper than the element is penetrated (the oracle is a lower
   * bound, so small positive values can be the oracle's).
   */
  overReport: number[];
  /** Descriptions of the worst misses. */
  worst: string[];
}

export function quantile(sorted: readonly number[], f: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
}

/**
 * Runs the completeness check over `count` poses of one terrain kind with the plain API
 * (`collide`, the query under test: it must return contacts with point, normal, depth).
 */
export function runCompleteness(
  kind: TerrainKind,
  count: number,
  collide: (cyl: Cylinder, hf: Heightfield) => readonly ReportedContact[],
  seed = POSE_SEED,
): CompletenessStats {
  const hf = buildTerrain(kind);
  const poses = completenessPoses(hf, count, seed, kind === 'features');
  const st: CompletenessStats = { poses: count, penetrated: 0, misses: 0, missPoses: 0, coveredByDirection: 0, shortfall: [], maxDepthError: [], overReport: [], worst: [] };
  const worst: { d: number; s: string }[] = [];
  for (let k = 0; k < poses.length; k++) {
    const contacts = collide(poses[k], hf);
    const cov = checkCoverage(poses[k], hf, contacts, { threshold: DEPTH_TOLERANCE, tolerance: DEPTH_TOLERANCE, coverCos: COVER_COS });
    st.penetrated += cov.penetrated;
    st.misses += cov.misses.length;
    st.coveredByDirection += cov.coveredByDirection;
    if (cov.misses.length > 0) st.missPoses++;
    for (const s of cov.shortfall) st.shortfall.push(Math.max(0, s));
    // The deepest-contact error where it means something: poses whose every element is
    // covered by a contact with a nearby normal (on steep faces the own-normal depth of a face
    // behind an edge contact is not a contact depth).
    if (cov.coveredByDirection === 0 && cov.misses.length === 0 && (cov.maxElementDepth > DEPTH_TOLERANCE || cov.maxReportedDepth > DEPTH_TOLERANCE)) {
      st.maxDepthError.push(Math.abs(cov.maxReportedDepth - cov.maxElementDepth));
    }
    for (const c of contacts as readonly (ReportedContact & { cell?: number[] })[]) {
      if (!c.cell) continue;
      const e = cov.elements.find((x) => x.i === c.cell![0] && x.j === c.cell![1] && x.normal[0] * c.normal[0] + x.normal[1] * c.normal[1] + x.normal[2] * c.normal[2] > 1 - 1e-12);
      if (e) st.overReport.push(c.depth - e.depth);
    }
    for (const m of cov.misses) {
      const best = contacts.reduce((b, c) => (c.normal[0] * m.normal[0] + c.normal[1] * m.normal[1] + c.normal[2] * m.normal[2] >= COVER_COS ? Math.max(b, c.depth) : b), 0);
      worst.push({ d: m.depth - best, s: `${kind} pose ${k}: element ${m.i},${m.j} kind ${m.kind} depth ${(m.depth * 1e3).toFixed(3)} mm, best covering ${(best * 1e3).toFixed(3)} mm` });
    }
  }
  worst.sort((a, b) => b.d - a.d);
  st.worst = worst.slice(0, 10).map((w) => w.s);
  st.shortfall.sort((a, b) => a - b);
  st.maxDepthError.sort((a, b) => a - b);
  st.overReport.sort((a, b) => a - b);
  return st;
}

/** One line per statistic, in millimetres. */
export function formatStats(kind: TerrainKind, st: CompletenessStats): string {
  const mm = (x: number): string => (x * 1e3).toFixed(4);
  const q = (a: number[]): string => [0.5, 0.95, 0.99].map((f) => mm(quantile(a, f))).join(' / ') + ' / ' + mm(a.length ? a[a.length - 1] : 0);
  return [
    `${kind}: ${st.poses} poses, ${st.penetrated} elements penetrated > 0.05 mm, misses ${st.misses} (in ${st.missPoses} poses), covered by an edge contact's own normal ${st.coveredByDirection}`,
    `  element shortfall p50/p95/p99/max [mm]: ${q(st.shortfall)}`,
    `  per-pose |deepest reported − deepest element| p50/p95/p99/max [mm] (${st.maxDepthError.length} poses covered within the normal cone): ${q(st.maxDepthError)}`,
    `  face contacts deeper than their element (oracle lower bound): ${st.overReport.filter((x) => x > DEPTH_TOLERANCE).length} of ${st.overReport.length} by > 0.05 mm, max ${mm(st.overReport.length ? st.overReport[st.overReport.length - 1] : 0)} mm`,
    ...st.worst.map((w) => '  ' + w),
  ].join('\n');
}
