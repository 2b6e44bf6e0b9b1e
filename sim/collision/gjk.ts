/**
 * GJK distance query: separation, closest points and normal of two convex shapes.
 *
 * References: Gilbert, Johnson & Keerthi (1988); van den Bergen, Collision Detection in
 * Interactive 3D Environments (2003) §4.3 (termination on the relative gap ‖v‖² − v·w);
 * Ericson, Real-Time Collision Detection (2005) §9.5; Huotari (2011) ch. 5 (the project's
 * seed thesis, boolean GJK with line/triangle/tetrahedron cases). The closest-point
 * sub-algorithm is in ./simplex.ts.
 *
 * API
 *   gjkDistance(out: GjkResult, shapeA, poseA, shapeB, poseB, cache?: GjkCache, ws?: GjkWorkspace): GjkResult
 *     out.status     GjkStatus (every exit sets it)
 *     out.distance   [m] signed: > 0 separated (exact), ≈ 0 touching, < 0 overlapping — then
 *                    it is −depth and exact only when out.normalValid (shallow overlap of the
 *                    cores' radii); deeper overlaps need EPA (epa.ts).
 *     out.pointA/B   world witness points on A and B (pointB − pointA = distance · normal)
 *     out.normal     world unit normal from A to B (valid when out.normalValid)
 *     out.iterations support evaluations used
 *     cache          optional GjkCache for one shape pair: warm start from the last simplex
 *     ws             the query's scratch (GjkWorkspace), owned by the caller; made for the call
 *                    when omitted (allocates: engines and loops pass theirs)
 *   gjkIntersect(shapeA, poseA, shapeB, poseB, ws?): boolean — overlap test (distance ≤ 0 within
 *     tolerance), the boolean GJK of the seed thesis: exits at the first separating plane.
 *
 * Frame: everything runs in A's local frame with B mapped in by the relative transform
 * (MinkowskiPair), so A's support costs no rotation and B's costs two 3×3 products.
 *
 * Core + radius: GJK runs on the cores (sphere → point, capsule → segment) and subtracts
 * rA + rB at the end (Box2D b2ShapeDistance, Jolt's convex radius). For spheres and capsules this
 * makes GJK exact and finite, and any overlap shallower than rA + rB comes with an exact normal
 * and depth (normalValid) without EPA.
 *
 * Termination (each exit sets a status):
 *   - gap: ‖v‖² − v·w ≤ GJK_RELATIVE_TOLERANCE·‖v‖²  (v is within tolerance of the true distance)
 *   - repeated support point (no progress possible)              → converged
 *   - ‖v‖ ≤ GJK_ABSOLUTE_TOLERANCE on the cores                  → Intersecting, depth unknown
 *     (polytope faces that touch exactly land here too; EPA then reports them as Touching)
 *   - origin inside the tetrahedron                              → Intersecting
 *   - ‖v‖ did not decrease (rounding)                            → converged with the last v
 *   - GJK_MAX_ITERATIONS                                         → MaxIterations (best v so far)
 *   - non-finite input                                           → Degenerate, distance 0, no NaN
 */
import type { Vec3 } from '../math/vec3';
import { quatRotate, quatRotateInverse, quatToMat3 } from '../math/quat';
import type { Quat } from '../math/quat';
import type { ConvexShape, Pose } from '../shapes/shape';
import { Simplex } from './simplex';
import { GJK_ABSOLUTE_TOLERANCE, GJK_MAX_ITERATIONS, GJK_RELATIVE_TOLERANCE } from '../constants';
import { clearWitness } from './witness';

/** How a GJK query ended (every exit sets one). */
export const GjkStatus = {
  /** distance > GJK_ABSOLUTE_TOLERANCE: shapes apart, distance and witnesses exact within tolerance. */
  Separated: 0,
  /**
   * |distance| ≤ GJK_ABSOLUTE_TOLERANCE with a known normal (the cores are apart): surfaces touch.
   * Polytopes whose faces touch exactly come back as Intersecting with depth unknown; EPA then
   * reports them as Touching (depth ≤ tolerance).
   */
  Touching: 1,
  /** The shapes overlap. Depth/normal known only when `normalValid`; otherwise use EPA. */
  Intersecting: 2,
  /** Iteration cap reached; the result is the best upper bound on the distance found. */
  MaxIterations: 3,
  /** Input not finite (NaN pose or shape): result is zeros, not NaN. */
  Degenerate: 4,
} as const;
export type GjkStatus = (typeof GjkStatus)[keyof typeof GjkStatus];

/** Names of the `GjkStatus` values, by value. */
export const GJK_STATUS_NAMES: readonly string[] = ['separated', 'touching', 'intersecting', 'max-iterations', 'degenerate'];

/**
 * The output record of `gjkDistance`/`gjkIntersect`: status, signed distance, normal and witness
 * points.
 */
export class GjkResult {
  status: GjkStatus = GjkStatus.Degenerate;
  /** [m] Signed distance (see header). */
  distance = 0;
  /** World witness point on A. */
  readonly pointA: Vec3 = [0, 0, 0];
  /** World witness point on B. */
  readonly pointB: Vec3 = [0, 0, 0];
  /** World unit normal from A to B. */
  readonly normal: Vec3 = [0, 0, 1];
  /** True when `normal` (and, for overlaps, `distance`) is exact. */
  normalValid = false;
  iterations = 0;
}

/**
 * Warm start (van den Bergen §4.3.7; Box2D's b2SimplexCache, Jolt's and Bullet's cached simplex):
 * the final simplex of the previous query as support points on A (A-local) and on B (B-local).
 * Re-posed with the current transforms they are still points of A − B, so GJK resumes from a
 * simplex that is usually within one iteration of the new answer; a resting pair converges in
 * 1–2 support evaluations. Safe with any poses: stale points are ordinary points of A − B.
 */
export class GjkCache {
  count = 0;
  /** Support points on A, A-local, xyz interleaved. */
  readonly a = new Float64Array(12);
  /** Support points on B, B-local, xyz interleaved. */
  readonly b = new Float64Array(12);
  /** The pair the points belong to: a cache handed another pair is ignored, never misused. */
  shapeA: ConvexShape | null = null;
  shapeB: ConvexShape | null = null;
  get valid(): boolean {
    return this.count > 0;
  }
  clear(): void {
    this.count = 0;
  }
}

/**
 * A − B in A's local frame. `r` (column-major) maps B-local vectors into A-local, `t` is B's
 * origin in A-local. support(d) = sA(d) − (r·sB(rᵀ(−d)) + t).
 */
export class MinkowskiPair {
  a!: ConvexShape;
  b!: ConvexShape;
  readonly r = new Float64Array(9);
  readonly t: Vec3 = [0, 0, 0];
  /** Use the cores (supportCore) instead of the full shapes. */
  useCore = false;
  /** Rotation of A (to bring results back to world). */
  readonly qA: Quat = [0, 0, 0, 1];
  readonly pA: Vec3 = [0, 0, 0];
  /** False when a pose or the relative transform is not finite. */
  finite = true;
  /** Support evaluations of the last gjkLoop on this pair (its cost). */
  supports = 0;
  // Scratch of set() and support(), and of the gjkLoop run on this pair (one query at a time).
  private readonly relQ: Quat = [0, 0, 0, 1];
  private readonly tmp: Vec3 = [0, 0, 0];
  private readonly dirB: Vec3 = [0, 0, 0];
  private readonly sbLocal: Vec3 = [0, 0, 0];
  /** gjkLoop's search direction, support point w = sa − sb with its witnesses, and last v. */
  readonly loopDir: Vec3 = [0, 0, 0];
  readonly loopW: Vec3 = [0, 0, 0];
  readonly loopSa: Vec3 = [0, 0, 0];
  readonly loopSb: Vec3 = [0, 0, 0];
  readonly loopVPrev: Vec3 = [0, 0, 0];

  set(a: ConvexShape, poseA: Readonly<Pose>, b: ConvexShape, poseB: Readonly<Pose>, useCore: boolean): this {
    this.a = a;
    this.b = b;
    this.useCore = useCore;
    const qa = poseA.orientation, qb = poseB.orientation;
    const relQ = this.relQ, tmp = this.tmp;
    for (let k = 0; k < 4; k++) this.qA[k] = qa[k];
    for (let k = 0; k < 3; k++) this.pA[k] = poseA.position[k];
    // q_rel = qA⁻¹ · qB
    const ax = -qa[0], ay = -qa[1], az = -qa[2], aw = qa[3];
    const bx = qb[0], by = qb[1], bz = qb[2], bw = qb[3];
    relQ[0] = aw * bx + ax * bw + ay * bz - az * by;
    relQ[1] = aw * by - ax * bz + ay * bw + az * bx;
    relQ[2] = aw * bz + ax * by - ay * bx + az * bw;
    relQ[3] = aw * bw - ax * bx - ay * by - az * bz;
    quatToMat3(this.r, relQ);
    tmp[0] = poseB.position[0] - poseA.position[0];
    tmp[1] = poseB.position[1] - poseA.position[1];
    tmp[2] = poseB.position[2] - poseA.position[2];
    quatRotateInverse(this.t, qa, tmp);
    let ok = Number.isFinite(this.t[0]) && Number.isFinite(this.t[1]) && Number.isFinite(this.t[2]);
    for (let k = 0; k < 9; k++) ok = ok && Number.isFinite(this.r[k]);
    this.finite = ok;
    return this;
  }

  /** w = sA(d) − sB(−d), with the two support points (A-local). */
  support(w: Vec3, sa: Vec3, sb: Vec3, d: Readonly<Vec3>): void {
    const r = this.r, dirB = this.dirB, sbLocal = this.sbLocal;
    if (this.useCore) this.a.supportCore(sa, d);
    else this.a.support(sa, d);
    // −d into B-local: rᵀ(−d)
    dirB[0] = -(r[0] * d[0] + r[1] * d[1] + r[2] * d[2]);
    dirB[1] = -(r[3] * d[0] + r[4] * d[1] + r[5] * d[2]);
    dirB[2] = -(r[6] * d[0] + r[7] * d[1] + r[8] * d[2]);
    if (this.useCore) this.b.supportCore(sbLocal, dirB);
    else this.b.support(sbLocal, dirB);
    const x = sbLocal[0], y = sbLocal[1], z = sbLocal[2];
    sb[0] = r[0] * x + r[3] * y + r[6] * z + this.t[0];
    sb[1] = r[1] * x + r[4] * y + r[7] * z + this.t[1];
    sb[2] = r[2] * x + r[5] * y + r[8] * z + this.t[2];
    w[0] = sa[0] - sb[0];
    w[1] = sa[1] - sb[1];
    w[2] = sa[2] - sb[2];
  }

  /** A-local point → world. */
  toWorldPoint(out: Vec3, p: Readonly<Vec3>): Vec3 {
    quatRotate(out, this.qA, p);
    out[0] += this.pA[0];
    out[1] += this.pA[1];
    out[2] += this.pA[2];
    return out;
  }

  /** A-local direction → world. */
  toWorldVector(out: Vec3, v: Readonly<Vec3>): Vec3 {
    return quatRotate(out, this.qA, v);
  }
}

/** Outcome of the raw GJK loop (internal to the convex narrow phase; EPA and casts use it). */
export const GjkLoopExit = {
  /** Converged with ‖v‖ > GJK_ABSOLUTE_TOLERANCE. */
  Separated: 0,
  /** ‖v‖ ≤ GJK_ABSOLUTE_TOLERANCE without an enclosing tetrahedron. */
  Touching: 1,
  /** Origin strictly inside a tetrahedron of the simplex. */
  Enclosed: 2,
  MaxIterations: 3,
} as const;
export type GjkLoopExit = (typeof GjkLoopExit)[keyof typeof GjkLoopExit];

/**
 * The GJK loop on `pair` from the initial direction `dir0` (A-local, any nonzero vector; zero is
 * replaced by +x), or with `warm` from the points already in `simplex` (then dir0 is unused).
 * On return `simplex` holds the supporting simplex and `v` the closest point of A − B (or its
 * best estimate) in A-local coordinates. `stopAbove` [m] turns it into the boolean GJK of
 * Huotari §5.3 / Ericson §9.5: as soon as the lower bound v·w/‖v‖ exceeds it, the shapes are
 * proven farther apart than that and the loop exits Separated with v NOT converged.
 */
export function gjkLoop(
  simplex: Simplex,
  v: Vec3,
  pair: MinkowskiPair,
  dir0: Readonly<Vec3>,
  warm = false,
  stopAbove = Infinity,
): GjkLoopExit {
  // `supports` counts support evaluations (the cost), reported in pair.supports.
  let supports = 0;
  const tmp = pair.loopDir, w = pair.loopW, sa = pair.loopSa, sb = pair.loopSb, vPrev = pair.loopVPrev;
  if (warm && simplex.count > 0) {
    // Resume from the caller's simplex (points of A − B): its closest point is an upper bound.
    if (simplex.closest(v)) {
      pair.supports = 0;
      return GjkLoopExit.Enclosed;
    }
  } else {
    simplex.clear();
    // First vertex: support along −dir0 so that v starts as a point of A − B (an upper bound).
    let dx = -dir0[0], dy = -dir0[1], dz = -dir0[2];
    if (!(dx * dx + dy * dy + dz * dz > 0)) {
      dx = 1;
      dy = 0;
      dz = 0;
    }
    tmp[0] = dx;
    tmp[1] = dy;
    tmp[2] = dz;
    pair.support(w, sa, sb, tmp);
    supports++;
    simplex.push(w, sa, sb);
    simplex.lambda[0] = 1;
    v[0] = w[0];
    v[1] = w[1];
    v[2] = w[2];
  }
  let vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const absSq = GJK_ABSOLUTE_TOLERANCE * GJK_ABSOLUTE_TOLERANCE;
  for (let iter = 0; iter < GJK_MAX_ITERATIONS; iter++) {
    if (vv <= absSq) {
      pair.supports = supports;
      return GjkLoopExit.Touching;
    }
    tmp[0] = -v[0];
    tmp[1] = -v[1];
    tmp[2] = -v[2];
    pair.support(w, sa, sb, tmp);
    supports++;
    const vw = v[0] * w[0] + v[1] * w[1] + v[2] * w[2];
    // Separating-plane early out (boolean query): v·w > stopAbove·‖v‖.
    if (vw > 0 && vw * vw > stopAbove * stopAbove * vv) {
      pair.supports = supports;
      return GjkLoopExit.Separated;
    }
    // Gap test (van den Bergen §4.3.6): v·w/‖v‖ is a lower bound on the distance, ‖v‖ an upper one.
    if (vv - vw <= GJK_RELATIVE_TOLERANCE * vv) {
      pair.supports = supports;
      return GjkLoopExit.Separated;
    }
    // Repeated vertex: the sub-algorithm would cycle (Jolt / Bullet "degenerate" exit).
    if (simplex.contains(w, absSq)) {
      pair.supports = supports;
      return GjkLoopExit.Separated;
    }
    simplex.push(w, sa, sb);
    vPrev[0] = v[0];
    vPrev[1] = v[1];
    vPrev[2] = v[2];
    if (simplex.closest(v)) {
      pair.supports = supports;
      return GjkLoopExit.Enclosed;
    }
    const vvNew = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (!(vvNew < vv)) {
      // No strict decrease: rounding has taken over. Keep the better (previous) estimate; the
      // simplex now describes v, so only leave v alone when it is not worse.
      pair.supports = supports;
      if (!(vvNew <= vv)) {
        // Guard against NaN or growth: restore the previous estimate.
        v[0] = vPrev[0];
        v[1] = vPrev[1];
        v[2] = vPrev[2];
      }
      return vv <= absSq ? GjkLoopExit.Touching : GjkLoopExit.Separated;
    }
    vv = vvNew;
  }
  pair.supports = supports;
  return vv <= absSq ? GjkLoopExit.Touching : GjkLoopExit.MaxIterations;
}

/**
 * Everything one GJK query (gjkDistance, gjkIntersect) works on: the Minkowski pair, the simplex
 * and the scratch vectors. Allocated once by its owner (a world's collision pass, a cast or EPA
 * workspace, a script's loop); every query resets what it uses, so one workspace serves any
 * number of queries, one at a time (never two in flight: two worlds, two worker queries or a
 * re-entrant call each use their own).
 */
export class GjkWorkspace {
  readonly pair = new MinkowskiPair();
  readonly simplex = new Simplex();
  /** GJK's closest point of A − B to the origin (A-local). */
  readonly v: Vec3 = [0, 0, 0];
  /** Witnesses on A and B (A-local) and the normal (A-local). */
  readonly wa: Vec3 = [0, 0, 0];
  readonly wb: Vec3 = [0, 0, 0];
  readonly nLocal: Vec3 = [0, 0, 0];
  /** The initial search direction (−t). */
  readonly dir0: Vec3 = [0, 0, 0];
  /** A cached support point on A, on B (re-posed), and their difference. */
  readonly ca: Vec3 = [0, 0, 0];
  readonly cb: Vec3 = [0, 0, 0];
  readonly cw: Vec3 = [0, 0, 0];
}

function degenerate(out: GjkResult): GjkResult {
  out.status = GjkStatus.Degenerate;
  out.distance = 0;
  out.normalValid = false;
  out.iterations = 0;
  clearWitness(out);
  return out;
}

/**
 * GJK distance between two posed convex shapes (see the file header for the result). `ws` holds
 * the query's scratch: engine callers pass the one they own; without it a workspace is made for
 * this call (it allocates: pass one in loops).
 */
export function gjkDistance(
  out: GjkResult,
  shapeA: ConvexShape,
  poseA: Readonly<Pose>,
  shapeB: ConvexShape,
  poseB: Readonly<Pose>,
  cache?: GjkCache,
  ws: GjkWorkspace = new GjkWorkspace(),
): GjkResult {
  const pair = ws.pair, simplex = ws.simplex, v = ws.v, wa = ws.wa, wb = ws.wb, nLocal = ws.nLocal;
  pair.set(shapeA, poseA, shapeB, poseB, true);
  if (!pair.finite) return degenerate(out);
  // Start from the cached simplex re-posed, else along B's origin → A's (−t), the usual guess.
  const warm = cache !== undefined && cache.count > 0 && cache.shapeA === shapeA && cache.shapeB === shapeB;
  if (warm) loadCache(ws, cache);
  const exit = gjkLoop(simplex, v, pair, negT(ws.dir0, pair.t), warm);
  if (cache !== undefined) storeCache(ws, cache);
  out.iterations = pair.supports;
  simplex.witness(wa, wb);
  const rSum = shapeA.coreRadius + shapeB.coreRadius;
  const vLen = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!Number.isFinite(vLen) || !Number.isFinite(wa[0] + wa[1] + wa[2] + wb[0] + wb[1] + wb[2])) return degenerate(out);
  if (exit === GjkLoopExit.Enclosed || exit === GjkLoopExit.Touching) {
    // Cores touch or overlap: the separation is −(depth) ≤ −rSum, unknown here.
    out.normalValid = false;
    out.distance = rSum > 0 || exit === GjkLoopExit.Enclosed ? -rSum : 0;
    // Intersecting, not Touching: with ‖v‖ ≈ 0 on the cores GJK cannot tell "faces just touch"
    // from "deep overlap" (the origin may sit on an inner simplex face); EPA decides the depth.
    out.status = GjkStatus.Intersecting;
    pair.toWorldPoint(out.pointA, wa);
    pair.toWorldPoint(out.pointB, wb);
    return out;
  }
  // Cores apart: normal from A to B is −v/‖v‖ (v = closest point of A − B to the origin).
  const inv = 1 / vLen;
  nLocal[0] = -v[0] * inv;
  nLocal[1] = -v[1] * inv;
  nLocal[2] = -v[2] * inv;
  // Inflate the core witnesses by the radii along the normal.
  const ra = shapeA.coreRadius, rb = shapeB.coreRadius;
  wa[0] += nLocal[0] * ra;
  wa[1] += nLocal[1] * ra;
  wa[2] += nLocal[2] * ra;
  wb[0] -= nLocal[0] * rb;
  wb[1] -= nLocal[1] * rb;
  wb[2] -= nLocal[2] * rb;
  pair.toWorldPoint(out.pointA, wa);
  pair.toWorldPoint(out.pointB, wb);
  pair.toWorldVector(out.normal, nLocal);
  out.normalValid = true;
  out.distance = vLen - rSum;
  if (exit === GjkLoopExit.MaxIterations) out.status = GjkStatus.MaxIterations;
  else if (out.distance > GJK_ABSOLUTE_TOLERANCE) out.status = GjkStatus.Separated;
  else if (out.distance >= -GJK_ABSOLUTE_TOLERANCE) out.status = GjkStatus.Touching;
  else out.status = GjkStatus.Intersecting;
  return out;
}

/** Fills the workspace's simplex from the cache with the current relative transform (b = r·b_B + t). */
function loadCache(ws: GjkWorkspace, cache: GjkCache): void {
  const simplex = ws.simplex, ca = ws.ca, cb = ws.cb, cw = ws.cw;
  simplex.clear();
  const r = ws.pair.r, t = ws.pair.t;
  for (let i = 0; i < cache.count; i++) {
    const x = cache.b[3 * i], y = cache.b[3 * i + 1], z = cache.b[3 * i + 2];
    cb[0] = r[0] * x + r[3] * y + r[6] * z + t[0];
    cb[1] = r[1] * x + r[4] * y + r[7] * z + t[1];
    cb[2] = r[2] * x + r[5] * y + r[8] * z + t[2];
    ca[0] = cache.a[3 * i];
    ca[1] = cache.a[3 * i + 1];
    ca[2] = cache.a[3 * i + 2];
    cw[0] = ca[0] - cb[0];
    cw[1] = ca[1] - cb[1];
    cw[2] = ca[2] - cb[2];
    simplex.push(cw, ca, cb);
  }
}

/** Stores the final simplex: A points as they are (A-local), B points back in B-local (rᵀ(b − t)). */
function storeCache(ws: GjkWorkspace, cache: GjkCache): void {
  const pair = ws.pair, simplex = ws.simplex;
  const r = pair.r, t = pair.t;
  cache.count = simplex.count;
  cache.shapeA = pair.a;
  cache.shapeB = pair.b;
  for (let i = 0; i < simplex.count; i++) {
    const x = simplex.b[3 * i] - t[0], y = simplex.b[3 * i + 1] - t[1], z = simplex.b[3 * i + 2] - t[2];
    cache.b[3 * i] = r[0] * x + r[1] * y + r[2] * z;
    cache.b[3 * i + 1] = r[3] * x + r[4] * y + r[5] * z;
    cache.b[3 * i + 2] = r[6] * x + r[7] * y + r[8] * z;
    cache.a[3 * i] = simplex.a[3 * i];
    cache.a[3 * i + 1] = simplex.a[3 * i + 1];
    cache.a[3 * i + 2] = simplex.a[3 * i + 2];
  }
}

/** out = −t. */
function negT(out: Vec3, t: Readonly<Vec3>): Vec3 {
  out[0] = -t[0];
  out[1] = -t[1];
  out[2] = -t[2];
  return out;
}

/**
 * Boolean overlap test: true when the shapes touch or overlap (distance ≤ GJK_ABSOLUTE_TOLERANCE).
 * `ws` as for gjkDistance (made for this call when omitted).
 */
export function gjkIntersect(
  shapeA: ConvexShape, poseA: Readonly<Pose>, shapeB: ConvexShape, poseB: Readonly<Pose>, ws: GjkWorkspace = new GjkWorkspace(),
): boolean {
  const pair = ws.pair, v = ws.v;
  pair.set(shapeA, poseA, shapeB, poseB, true);
  if (!pair.finite) return false;
  // Boolean GJK: stop at the first plane that separates the cores by more than the radii.
  const rSum = shapeA.coreRadius + shapeB.coreRadius;
  const exit = gjkLoop(ws.simplex, v, pair, negT(ws.dir0, pair.t), false, rSum + GJK_ABSOLUTE_TOLERANCE);
  if (exit === GjkLoopExit.Enclosed || exit === GjkLoopExit.Touching) return true;
  const vl = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  // Converged or stopped early: overlap iff the core distance (upper bound ‖v‖) is within the radii.
  return vl - rSum <= GJK_ABSOLUTE_TOLERANCE;
}
