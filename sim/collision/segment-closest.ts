/**
 * Closest points between two segments P1P2 and P3P4 (edge–edge contacts of SAT box–box,
 * capsule–capsule, capsule–box).
 *
 * The unclamped line solution is the one of the Croatian collision chapter (seed 003, "Sudar
 * bridova"), after Paul Bourke: with d_mnop = (Pm − Pn)·(Po − Pp),
 *
 *     mua = (d1343·d4321 − d1321·d4343) / (d2121·d4343 − d4321²)
 *     mub = (d1343 + mua·d4321) / d4343
 *
 * and Pa = P1 + mua(P2 − P1), Pb = P3 + mub(P4 − P3). The text stops at lines; for segments
 * mua, mub must be clamped to [0, 1], and clamping one parameter moves the optimum of the other,
 * so after clamping mua we recompute mub for that mua and clamp it, then recompute mua for the
 * clamped mub (the distance is convex in (mua, mub), so this two-step projection reaches the
 * constrained minimum; Ericson, Real-Time Collision Detection §5.1.9).
 *
 * Degenerate inputs never produce NaN: a zero-length segment is treated as a point, and parallel
 * segments (denominator below SEGMENT_PARALLEL_EPSILON relative to |P2−P1|²|P4−P3|²) take
 * mua = 0 and the clamped projection for mub; `parallel` reports it so callers know the closest
 * pair is one of infinitely many.
 *
 *      P1 ●────────●────────● P2          Pa = P1 + mua (P2 − P1)
 *                  ┆ |Pa − Pb| = distance
 *        P3 ●──────●──────────● P4        Pb = P3 + mub (P4 − P3)
 */
import {
  GEOMETRIC_EPSILON,
  SEGMENT_PARALLEL_EPSILON,
} from '../constants';
import type { Vec3 } from '../math/vec3';

/** Result slot for closestPointsSegmentSegment (reuse one instance on hot paths). */
export interface SegmentClosest {
  /** Closest point on P1P2. */
  pointA: Vec3;
  /** Closest point on P3P4. */
  pointB: Vec3;
  /** Parameter of pointA on P1P2, in [0, 1]. */
  mua: number;
  /** Parameter of pointB on P3P4, in [0, 1]. */
  mub: number;
  /** [m²] |pointA − pointB|². */
  distanceSq: number;
  /** True when the segments are (nearly) parallel or one is a point: the pair is not unique. */
  parallel: boolean;
}

export function createSegmentClosest(): SegmentClosest {
  return { pointA: [0, 0, 0], pointB: [0, 0, 0], mua: 0, mub: 0, distanceSq: 0, parallel: false };
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/**
 * Closest points between segments P1P2 and P3P4; writes `out` and returns it. Inputs are read
 * before `out` is written, so `out.pointA`/`pointB` may not alias the inputs (they are distinct
 * arrays by construction).
 */
export function closestPointsSegmentSegment(
  out: SegmentClosest,
  p1: Readonly<Vec3>, p2: Readonly<Vec3>, p3: Readonly<Vec3>, p4: Readonly<Vec3>,
): SegmentClosest {
  // Direction vectors and the offset P1 − P3, component-wise (no allocation).
  const ux = p2[0] - p1[0], uy = p2[1] - p1[1], uz = p2[2] - p1[2]; // P2 − P1
  const vx = p4[0] - p3[0], vy = p4[1] - p3[1], vz = p4[2] - p3[2]; // P4 − P3
  const wx = p1[0] - p3[0], wy = p1[1] - p3[1], wz = p1[2] - p3[2]; // P1 − P3
  const d2121 = ux * ux + uy * uy + uz * uz;
  const d4343 = vx * vx + vy * vy + vz * vz;
  const d4321 = ux * vx + uy * vy + uz * vz;
  const d1321 = wx * ux + wy * uy + wz * uz;
  const d1343 = wx * vx + wy * vy + wz * vz;
  const pointEps = GEOMETRIC_EPSILON * GEOMETRIC_EPSILON;

  let mua: number;
  let mub: number;
  let parallel = false;
  if (d2121 <= pointEps && d4343 <= pointEps) {
    // Both segments are points.
    mua = 0;
    mub = 0;
    parallel = true;
  } else if (d2121 <= pointEps) {
    // P1P2 is a point: project it onto P3P4.
    mua = 0;
    mub = clamp01(d1343 / d4343);
    parallel = true;
  } else if (d4343 <= pointEps) {
    // P3P4 is a point: project it onto P1P2 (minimise |P1 − P3 + mua u|²).
    mub = 0;
    mua = clamp01(-d1321 / d2121);
    parallel = true;
  } else {
    const denom = d2121 * d4343 - d4321 * d4321;
    if (denom <= SEGMENT_PARALLEL_EPSILON * d2121 * d4343) {
      // Parallel: any mua works on the lines; take mua = 0 and fix up below.
      mua = 0;
      parallel = true;
    } else {
      mua = clamp01((d1343 * d4321 - d1321 * d4343) / denom);
    }
    // Best mub for this mua (seed 003's second formula), clamped.
    mub = (d1343 + mua * d4321) / d4343;
    if (mub < 0) {
      mub = 0;
      mua = clamp01(-d1321 / d2121);
    } else if (mub > 1) {
      mub = 1;
      mua = clamp01((d4321 - d1321) / d2121);
    }
  }

  const ax = p1[0] + mua * ux, ay = p1[1] + mua * uy, az = p1[2] + mua * uz;
  const bx = p3[0] + mub * vx, by = p3[1] + mub * vy, bz = p3[2] + mub * vz;
  out.pointA[0] = ax;
  out.pointA[1] = ay;
  out.pointA[2] = az;
  out.pointB[0] = bx;
  out.pointB[1] = by;
  out.pointB[2] = bz;
  out.mua = mua;
  out.mub = mub;
  const dx = ax - bx, dy = ay - by, dz = az - bz;
  out.distanceSq = dx * dx + dy * dy + dz * dz;
  out.parallel = parallel;
  return out;
}

/**
 * Closest point on segment P1P2 to point Q; writes it into `out` and returns the parameter
 * t ∈ [0, 1]. A zero-length segment returns P1 and t = 0.
 */
export function closestPointOnSegment(out: Vec3, q: Readonly<Vec3>, p1: Readonly<Vec3>, p2: Readonly<Vec3>): number {
  const ux = p2[0] - p1[0], uy = p2[1] - p1[1], uz = p2[2] - p1[2];
  const len2 = ux * ux + uy * uy + uz * uz;
  let t = 0;
  if (len2 > GEOMETRIC_EPSILON * GEOMETRIC_EPSILON) {
    t = clamp01(((q[0] - p1[0]) * ux + (q[1] - p1[1]) * uy + (q[2] - p1[2]) * uz) / len2);
  }
  out[0] = p1[0] + t * ux;
  out[1] = p1[1] + t * uy;
  out[2] = p1[2] + t * uz;
  return t;
}
