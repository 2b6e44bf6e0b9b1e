/**
 * GJK ray cast and linear shape cast (time of impact of two translating convex shapes).
 *
 * References: van den Bergen, "Ray Casting against General Convex Objects with Application to
 * Continuous Collision Detection" (2004) — the algorithm; Huotari (2011) §6.2 "GJK with motion"
 * (the project's seed thesis: reduce two moving bodies to one moving against one at rest, then
 * run GJK along the relative motion).
 *
 * Shape cast. A translates by motionA and B by motionB over the step (rotation held fixed). With
 * r = motionA − motionB, A + λr meets B iff λ·(−r) ∈ M = A − B, so this is a ray from the origin
 * along s = −r against M. The loop keeps a ray point x = λs and the GJK vector v = x − (closest
 * point of the simplex); whenever the support plane along v separates x from M (v·w > 0 with
 * w = x − p), x jumps to that plane: λ ← λ − v·w / v·s (a miss when v·s ≥ 0, the ray leaves).
 * λ only grows, so the answer is conservative: x never passes into M.
 *
 * API
 *   gjkShapeCast(out: CastResult, shapeA, poseA, motionA, shapeB, poseB, motionB, ws?): CastResult
 *     out.fraction  λ ∈ [0, 1] of the step at first contact
 *     out.normal    world unit normal from A to B at contact
 *     out.pointA/B  world contact points at time λ (they coincide within GJK_CAST_TOLERANCE)
 *   gjkRayCast(out: CastResult, shape, pose, origin, direction, maxDistance, ws?): CastResult
 *     ray p(t) = origin + t·direction/‖direction‖, t ∈ [0, maxDistance];
 *     out.fraction = t/maxDistance, out.distance = t, out.pointB = hit point,
 *     out.normal = the SURFACE normal at the hit (facing back along the ray) — the usual ray convention.
 * Statuses: Hit, Miss, InitiallyOverlapping (λ = 0: already touching/overlapping at the start),
 * MaxIterations (λ is still a safe lower bound of the time of impact), Degenerate (non-finite input).
 * ws: the cast's CastWorkspace, owned by the caller (made for the call when omitted: allocates).
 * Full supports are used (spheres and capsules with their radius), so curved shapes converge
 * linearly to GJK_CAST_TOLERANCE; polytopes converge exactly.
 */
import type { Vec3 } from '../math/vec3';
import { quatRotateInverse } from '../math/quat';
import type { Aabb, ConvexShape, MassProperties, Pose } from '../shapes/shape';
import { ShapeKind, SupportFace } from '../shapes/shape';
import { GjkResult, GjkWorkspace, MinkowskiPair, gjkDistance } from './gjk';
import { Simplex } from './simplex';
import { GJK_CAST_MAX_ITERATIONS, GJK_CAST_TOLERANCE } from '../constants';
import { clearWitness } from './witness';

/** How a GJK ray or shape cast ended (every exit sets one). */
export const CastStatus = {
  Hit: 0,
  Miss: 1,
  InitiallyOverlapping: 2,
  MaxIterations: 3,
  Degenerate: 4,
} as const;
export type CastStatus = (typeof CastStatus)[keyof typeof CastStatus];
/** Names of the `CastStatus` values, by value. */
export const CAST_STATUS_NAMES: readonly string[] = ['hit', 'miss', 'initially-overlapping', 'max-iterations', 'degenerate'];

/**
 * The output record of `gjkRayCast`/`gjkShapeCast`: status, fraction of the motion at first
 * contact, point and normal.
 */
export class CastResult {
  status: CastStatus = CastStatus.Degenerate;
  /** λ ∈ [0, 1] of the motion at first contact (1 on a miss). */
  fraction = 1;
  /** [m] Ray casts: distance along the unit ray direction. Shape casts: λ·‖motionA − motionB‖. */
  distance = 0;
  readonly normal: Vec3 = [0, 0, 1];
  readonly pointA: Vec3 = [0, 0, 0];
  readonly pointB: Vec3 = [0, 0, 0];
  iterations = 0;
}

/** A single point at the local origin: the "shape" a ray is. */
class PointShape implements ConvexShape {
  readonly kind = ShapeKind.Sphere;
  readonly coreRadius = 0;
  support(out: Vec3): Vec3 {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    return out;
  }
  supportCore(out: Vec3): Vec3 {
    return this.support(out);
  }
  supportingFace(out: SupportFace): SupportFace {
    out.clear();
    out.push(0, 0, 0);
    return out;
  }
  localAabb(out: Aabb): Aabb {
    for (let k = 0; k < 3; k++) out.min[k] = out.max[k] = 0;
    return out;
  }
  massProperties(out: MassProperties): MassProperties {
    out.mass = 0;
    out.volume = 0;
    out.inertia.fill(0);
    out.centerOfMass[0] = out.centerOfMass[1] = out.centerOfMass[2] = 0;
    return out;
  }
  volume(): number {
    return 0;
  }
}

/**
 * Everything one ray or shape cast works on: the Minkowski pair, the simplex, the scratch
 * vectors, and the GJK query that refines the normal. Allocated once by its owner (a world's CCD
 * stage, a time-of-impact workspace, a script's loop); every cast resets what it uses, so one
 * workspace serves any number of casts, one at a time (never two in flight).
 */
export class CastWorkspace {
  /** The ray's "shape": a point at the local origin. */
  readonly pointShape: ConvexShape = new PointShape();
  readonly pair = new MinkowskiPair();
  readonly simplex = new Simplex();
  /** The ray direction s = −(motionA − motionB) in A's frame, and that motion in world. */
  readonly s: Vec3 = [0, 0, 0];
  readonly rWorld: Vec3 = [0, 0, 0];
  /** The ray point x = λs, the GJK vector v, w = x − p, supports sa/sb, the support point p. */
  readonly x: Vec3 = [0, 0, 0];
  readonly v: Vec3 = [0, 0, 0];
  readonly w: Vec3 = [0, 0, 0];
  readonly sa: Vec3 = [0, 0, 0];
  readonly sb: Vec3 = [0, 0, 0];
  readonly p: Vec3 = [0, 0, 0];
  /** Witnesses (A-local) and the normal (A-local). */
  readonly wa: Vec3 = [0, 0, 0];
  readonly wb: Vec3 = [0, 0, 0];
  readonly nl: Vec3 = [0, 0, 0];
  /** refineNormal: the poses at the time of impact, its GJK result and scratch. */
  readonly refineA: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly refineB: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly refineResult = new GjkResult();
  readonly gjk = new GjkWorkspace();
  /** gjkRayCast: the ray's pose, its motion and B's (zero) motion. */
  readonly rayPose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly motion: Vec3 = [0, 0, 0];
  readonly zero: Vec3 = [0, 0, 0];
}

function degenerate(out: CastResult): CastResult {
  out.status = CastStatus.Degenerate;
  out.fraction = 1;
  out.distance = 0;
  out.iterations = 0;
  clearWitness(out);
  return out;
}

/**
 * Linear shape cast (see the file header). `ws` holds the cast's scratch: engine callers pass
 * the one they own; without it a workspace is made for this call (it allocates).
 */
export function gjkShapeCast(
  out: CastResult,
  shapeA: ConvexShape,
  poseA: Readonly<Pose>,
  motionA: Readonly<Vec3>,
  shapeB: ConvexShape,
  poseB: Readonly<Pose>,
  motionB: Readonly<Vec3>,
  ws: CastWorkspace = new CastWorkspace(),
): CastResult {
  const pair = ws.pair, simplex = ws.simplex, s = ws.s, rWorld = ws.rWorld, x = ws.x, v = ws.v, w = ws.w;
  const sa = ws.sa, sb = ws.sb, p = ws.p, nl = ws.nl;
  pair.set(shapeA, poseA, shapeB, poseB, false);
  rWorld[0] = motionA[0] - motionB[0];
  rWorld[1] = motionA[1] - motionB[1];
  rWorld[2] = motionA[2] - motionB[2];
  if (!pair.finite || !Number.isFinite(rWorld[0] + rWorld[1] + rWorld[2])) return degenerate(out);
  // s = −r in A's local frame.
  quatRotateInverse(s, poseA.orientation, rWorld);
  s[0] = -s[0];
  s[1] = -s[1];
  s[2] = -s[2];
  const tolSq = GJK_CAST_TOLERANCE * GJK_CAST_TOLERANCE;
  let lambda = 0;
  let hasNormal = false;
  x[0] = x[1] = x[2] = 0;
  simplex.clear();
  // v = x − (a point of M): any support point will do; along s is the side the ray enters.
  pair.support(w, sa, sb, s);
  v[0] = x[0] - w[0];
  v[1] = x[1] - w[1];
  v[2] = x[2] - w[2];
  let iter = 0;
  let status: CastStatus = CastStatus.MaxIterations;
  for (; iter < GJK_CAST_MAX_ITERATIONS; iter++) {
    const vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (vv <= tolSq) {
      status = lambda === 0 ? CastStatus.InitiallyOverlapping : CastStatus.Hit;
      break;
    }
    pair.support(p, sa, sb, v); // p = support of M along v (the point of M nearest x's side)
    w[0] = x[0] - p[0];
    w[1] = x[1] - p[1];
    w[2] = x[2] - p[2];
    const vw = v[0] * w[0] + v[1] * w[1] + v[2] * w[2];
    if (vw > 0) {
      const vs = v[0] * s[0] + v[1] * s[1] + v[2] * s[2];
      if (vs >= 0) {
        status = CastStatus.Miss;
        break;
      }
      lambda -= vw / vs;
      if (lambda > 1) {
        status = CastStatus.Miss;
        break;
      }
      x[0] = lambda * s[0];
      x[1] = lambda * s[1];
      x[2] = lambda * s[2];
      nl[0] = v[0];
      nl[1] = v[1];
      nl[2] = v[2];
      hasNormal = true;
    }
    // Add p unless already present (then no progress is possible: converged at this λ).
    let dup = false;
    for (let i = 0; i < simplex.count; i++) {
      const dx = simplex.a[3 * i] - simplex.b[3 * i] - p[0];
      const dy = simplex.a[3 * i + 1] - simplex.b[3 * i + 1] - p[1];
      const dz = simplex.a[3 * i + 2] - simplex.b[3 * i + 2] - p[2];
      if (dx * dx + dy * dy + dz * dz <= tolSq) dup = true;
    }
    if (!dup) {
      if (simplex.count === 4) {
        // A full simplex that does not contain x only arises from rounding; restart from p.
        simplex.clear();
      }
      simplex.push(w, sa, sb);
    }
    // w_i = x − (a_i − b_i) for the current x, then v = closest point of conv{w_i} to the origin.
    for (let i = 0; i < simplex.count; i++) {
      for (let k = 0; k < 3; k++) simplex.w[3 * i + k] = x[k] - (simplex.a[3 * i + k] - simplex.b[3 * i + k]);
    }
    if (simplex.closest(v)) {
      // x inside the simplex ⊂ M: contact at this λ.
      v[0] = v[1] = v[2] = 0;
    }
    if (dup && v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > tolSq && vw <= 0) {
      // No new point and no advance: x is as close as the support function allows.
      status = lambda === 0 ? CastStatus.InitiallyOverlapping : CastStatus.Hit;
      break;
    }
  }
  out.iterations = iter;
  out.status = status;
  if (status === CastStatus.Miss) {
    out.fraction = 1;
    out.distance = 0;
    return out;
  }
  out.fraction = lambda;
  out.distance = lambda * Math.sqrt(rWorld[0] * rWorld[0] + rWorld[1] * rWorld[1] + rWorld[2] * rWorld[2]);
  // Witnesses at time 0 in A-local, then world, then moved by λ·motion.
  simplex.witness(ws.wa, ws.wb);
  pair.toWorldPoint(out.pointA, ws.wa);
  pair.toWorldPoint(out.pointB, ws.wb);
  for (let k = 0; k < 3; k++) {
    out.pointA[k] += lambda * motionA[k];
    out.pointB[k] += lambda * motionB[k];
  }
  // Normal from A to B: v (from M toward x). With no advance yet (initial overlap) use −s.
  if (!hasNormal) {
    nl[0] = -s[0];
    nl[1] = -s[1];
    nl[2] = -s[2];
  }
  const len = Math.sqrt(nl[0] * nl[0] + nl[1] * nl[1] + nl[2] * nl[2]);
  if (!(len > 0) || !Number.isFinite(len)) {
    out.normal[0] = 0;
    out.normal[1] = 0;
    out.normal[2] = 1;
  } else {
    nl[0] /= len;
    nl[1] /= len;
    nl[2] /= len;
    pair.toWorldVector(out.normal, nl);
  }
  if (status === CastStatus.Hit) refineNormal(ws, out, shapeA, poseA, motionA, shapeB, poseB, motionB, lambda);
  if (!Number.isFinite(out.fraction + out.pointA[0] + out.pointA[1] + out.pointA[2] + out.pointB[0] + out.pointB[1] + out.pointB[2])) {
    return degenerate(out);
  }
  return out;
}

/**
 * The cast's last separating direction is only as good as GJK_CAST_TOLERANCE allows on curved
 * surfaces (≈ √(2·tol/R) rad). A GJK distance query on the cores at the time of impact gives the
 * exact normal (spheres, capsules) or the face/edge normal (polytopes) whenever the cores are
 * still apart, so it replaces the cast's normal in that case.
 */
function refineNormal(
  ws: CastWorkspace,
  out: CastResult,
  shapeA: ConvexShape,
  poseA: Readonly<Pose>,
  motionA: Readonly<Vec3>,
  shapeB: ConvexShape,
  poseB: Readonly<Pose>,
  motionB: Readonly<Vec3>,
  lambda: number,
): void {
  const refineA = ws.refineA, refineB = ws.refineB, refineResult = ws.refineResult;
  for (let k = 0; k < 3; k++) {
    refineA.position[k] = poseA.position[k] + lambda * motionA[k];
    refineB.position[k] = poseB.position[k] + lambda * motionB[k];
  }
  for (let k = 0; k < 4; k++) {
    refineA.orientation[k] = poseA.orientation[k];
    refineB.orientation[k] = poseB.orientation[k];
  }
  gjkDistance(refineResult, shapeA, refineA, shapeB, refineB, undefined, ws.gjk);
  if (!refineResult.normalValid) return;
  // At a first contact the gap is closing, so the true normal (A→B) has n·(motionA − motionB)
  // ≥ 0. At a gap of ~1e-9 m a GJK closest-point direction can be off by tens of degrees (a
  // box corner on a cylinder's side); one that opposes the motion is such a case: keep the
  // cast's own normal, which always faces the motion.
  const rn = refineResult.normal;
  if (rn[0] * (motionA[0] - motionB[0]) + rn[1] * (motionA[1] - motionB[1]) + rn[2] * (motionA[2] - motionB[2]) < 0) return;
  for (let k = 0; k < 3; k++) out.normal[k] = rn[k];
}

/**
 * Ray cast against one posed convex shape (see the file header for the result convention).
 * `ws` as for gjkShapeCast (made for this call when omitted).
 */
export function gjkRayCast(
  out: CastResult,
  shape: ConvexShape,
  pose: Readonly<Pose>,
  origin: Readonly<Vec3>,
  direction: Readonly<Vec3>,
  maxDistance: number,
  ws: CastWorkspace = new CastWorkspace(),
): CastResult {
  const motion = ws.motion, rayPose = ws.rayPose;
  const len = Math.sqrt(direction[0] * direction[0] + direction[1] * direction[1] + direction[2] * direction[2]);
  if (!(len > 0) || !Number.isFinite(len) || !(maxDistance >= 0) || !Number.isFinite(maxDistance)) return degenerate(out);
  const k = maxDistance / len;
  motion[0] = direction[0] * k;
  motion[1] = direction[1] * k;
  motion[2] = direction[2] * k;
  rayPose.position[0] = origin[0];
  rayPose.position[1] = origin[1];
  rayPose.position[2] = origin[2];
  gjkShapeCast(out, ws.pointShape, rayPose, motion, shape, pose, ws.zero, ws);
  if (out.status === CastStatus.Miss || out.status === CastStatus.Degenerate) return out;
  out.distance = out.fraction * maxDistance;
  // Surface normal faces the ray: the opposite of "from the ray point into the shape".
  out.normal[0] = -out.normal[0];
  out.normal[1] = -out.normal[1];
  out.normal[2] = -out.normal[2];
  return out;
}
