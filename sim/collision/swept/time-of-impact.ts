/**
 * Time of impact of two convex shapes over one step, and the swept AABB that puts a moving body
 * into the broad phase: the two pieces a stepper needs for continuous collision between bodies.
 *
 * A body's motion over the step is a RigidMotion: `linear` [m] the displacement of its pose
 * origin, `angular` [rad] a rotation vector (world frame) applied about the pose origin, so the
 * pose at fraction t ∈ [0, 1] is position + t·linear and exp(t·angular)·orientation. (For a body
 * with velocities v, ω over dt: linear = v·dt, angular = ω·dt.)
 *
 * timeOfImpact picks the method by the motion:
 *   - neither body rotates: the GJK shape cast (gjk-raycast.ts, van den Bergen 2004; Huotari
 *     §6.2 "GJK with motion"), exact: at the returned fraction the shapes touch within
 *     GJK_CAST_TOLERANCE, and never overlap before. A cast that runs out of iterations has a
 *     safe lower bound; it is restarted from there (CAST_MAX_RESTARTS times).
 *   - either rotates: conservative advancement (shape-cast.ts, Mirtich 1996), which stops
 *     CA_TARGET_DISTANCE (half a linear slop) before contact, on purpose: the speculative contact
 *     the solver builds there closes the rest.
 * Spinning about an axis of symmetry (a wheel about its axle, a sphere) does not change the
 * shape: pass angular = 0 for it and get the exact cast.
 *
 * sweptAabb: every point x(t) = p + t·Δ + R(t)·r of the body lies within E of the straight
 * segment between its start and end positions, where E bounds the gap between an arc and its
 * linear interpolation: f(t) = R(t)r − [(1−t)r + t·R(1)r] vanishes at t = 0 and 1 and
 * |f''| ≤ ρθ² (ρ = bounding radius about the pose origin, θ = |angular|), so |f| ≤ ρθ²/8; and
 * never more than 2ρ. The segment lies in the box of start ∪ end, so that box grown by
 * E = ρ·min(θ²/8, 2) holds the whole sweep. Without rotation E = 0: the box is exact.
 *
 * API (engine form: allocation-free; statuses as CastStatus)
 *   timeOfImpact(out: CastResult, shapeA, poseA0, motionA, shapeB, poseB0, motionB, ws?): CastResult
 *     out.fraction ∈ [0, 1] (1 on a miss), out.normal A→B, out.pointA/pointB at that time.
 *   sweptAabb(out: Aabb, shape, pose0, motion, ws?): Aabb
 *   ws: a TimeOfImpactWorkspace the caller owns (made for the call when omitted: allocates).
 */
import { CAST_MAX_RESTARTS } from '../../constants';
import { quatNormalize } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { Aabb, ConvexShape, Pose } from '../../shapes/shape';
import { convexWorldAabb } from '../../shapes/world-aabb';
import { CastResult, CastStatus, CastWorkspace, gjkShapeCast } from '../gjk-raycast';
import { AdvancementWorkspace, boundingRadius, conservativeAdvancement } from '../shape-cast';

/** A body's motion over one step: displacement [m] and rotation vector [rad] (world frame). */
export interface RigidMotion {
  linear: Vec3;
  angular: Vec3;
}

/**
 * Everything timeOfImpact, linearCast and sweptAabb work on: the cast and advancement
 * workspaces, the restart poses and the end-pose box. Allocated once by its owner (a world's CCD
 * stage, a terrain cast, a script's loop); one query at a time (never two in flight).
 */
export class TimeOfImpactWorkspace {
  readonly cast = new CastWorkspace();
  readonly advance = new AdvancementWorkspace();
  /** linearCast's restart: the poses at the safe fraction, the remaining motions, the partial cast. */
  readonly poseA: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly poseB: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly restA: Vec3 = [0, 0, 0];
  readonly restB: Vec3 = [0, 0, 0];
  readonly partial = new CastResult();
  /** sweptAabb: the end pose and its box. */
  readonly endPose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly box: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
  /** The shape's local AABB (boundingRadius's scratch; distinct from `box`, read after it). */
  readonly localBox: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
}

function isZero(v: Readonly<Vec3>): boolean {
  return v[0] === 0 && v[1] === 0 && v[2] === 0;
}

/**
 * Time of impact of two moving convex shapes over one step (see the file header). `ws` holds
 * the query's scratch: engine callers pass the one they own; without it a workspace is made for
 * this call (it allocates).
 */
export function timeOfImpact(
  out: CastResult,
  shapeA: ConvexShape, poseA0: Readonly<Pose>, motionA: Readonly<RigidMotion>,
  shapeB: ConvexShape, poseB0: Readonly<Pose>, motionB: Readonly<RigidMotion>,
  ws: TimeOfImpactWorkspace = new TimeOfImpactWorkspace(),
): CastResult {
  if (!isZero(motionA.angular) || !isZero(motionB.angular)) {
    return conservativeAdvancement(out, shapeA, poseA0, motionA.linear, motionA.angular, shapeB, poseB0, motionB.linear, motionB.angular, 1, ws.advance);
  }
  return linearCast(out, shapeA, poseA0, motionA.linear, shapeB, poseB0, motionB.linear, ws);
}

/**
 * gjkShapeCast, restarted from its safe lower bound when it runs out of iterations (a curved
 * pair seen at a grazing angle converges linearly). Fractions are of the original motion. `ws` as
 * for timeOfImpact (made for this call when omitted).
 */
export function linearCast(
  out: CastResult,
  shapeA: ConvexShape, poseA0: Readonly<Pose>, motionA: Readonly<Vec3>,
  shapeB: ConvexShape, poseB0: Readonly<Pose>, motionB: Readonly<Vec3>,
  ws: TimeOfImpactWorkspace = new TimeOfImpactWorkspace(),
): CastResult {
  const poseA = ws.poseA, poseB = ws.poseB, restA = ws.restA, restB = ws.restB, partial = ws.partial;
  gjkShapeCast(out, shapeA, poseA0, motionA, shapeB, poseB0, motionB, ws.cast);
  if (out.status !== CastStatus.MaxIterations) return out;
  let done = out.fraction;
  for (let r = 0; r < CAST_MAX_RESTARTS && out.status === CastStatus.MaxIterations; r++) {
    for (let k = 0; k < 3; k++) {
      poseA.position[k] = poseA0.position[k] + done * motionA[k];
      poseB.position[k] = poseB0.position[k] + done * motionB[k];
      restA[k] = (1 - done) * motionA[k];
      restB[k] = (1 - done) * motionB[k];
    }
    for (let k = 0; k < 4; k++) {
      poseA.orientation[k] = poseA0.orientation[k];
      poseB.orientation[k] = poseB0.orientation[k];
    }
    gjkShapeCast(partial, shapeA, poseA, restA, shapeB, poseB, restB, ws.cast);
    if (partial.status === CastStatus.Degenerate) break;
    out.status = partial.status === CastStatus.InitiallyOverlapping ? CastStatus.Hit : partial.status;
    out.iterations += partial.iterations;
    if (partial.status === CastStatus.Miss) {
      out.fraction = 1;
      return out;
    }
    done += (1 - done) * partial.fraction;
    out.fraction = done;
    for (let k = 0; k < 3; k++) {
      out.normal[k] = partial.normal[k];
      out.pointA[k] = partial.pointA[k];
      out.pointB[k] = partial.pointB[k];
    }
  }
  return out;
}

/** The end pose of a motion: position + linear, exp(angular)·orientation. */
export function poseAfter(out: Pose, pose0: Readonly<Pose>, motion: Readonly<RigidMotion>, t = 1): Pose {
  const w = motion.angular;
  for (let k = 0; k < 3; k++) out.position[k] = pose0.position[k] + t * motion.linear[k];
  const th = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (!(th > 0)) {
    for (let k = 0; k < 4; k++) out.orientation[k] = pose0.orientation[k];
    return out;
  }
  const s = Math.sin(0.5 * th * t) / th;
  // out.orientation = dq · orientation with dq = (w·s, cos(θt/2)) (quatMultiply, inline: no scratch)
  const ax = w[0] * s, ay = w[1] * s, az = w[2] * s, aw = Math.cos(0.5 * th * t);
  const q = pose0.orientation, o = out.orientation;
  const bx = q[0], by = q[1], bz = q[2], bw = q[3];
  o[0] = aw * bx + ax * bw + ay * bz - az * by;
  o[1] = aw * by - ax * bz + ay * bw + az * bx;
  o[2] = aw * bz + ax * by - ay * bx + az * bw;
  o[3] = aw * bw - ax * bx - ay * by - az * bz;
  quatNormalize(o, o);
  return out;
}

/**
 * World AABB holding the shape over the whole motion (see the file header). `ws` as for
 * timeOfImpact (made for this call when omitted).
 */
export function sweptAabb(
  out: Aabb, shape: ConvexShape, pose0: Readonly<Pose>, motion: Readonly<RigidMotion>, ws: TimeOfImpactWorkspace = new TimeOfImpactWorkspace(),
): Aabb {
  const box = ws.box, endPose = ws.endPose;
  convexWorldAabb(out, shape, pose0);
  poseAfter(endPose, pose0, motion);
  convexWorldAabb(box, shape, endPose);
  const w = motion.angular;
  const th2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
  const grow = th2 > 0 ? boundingRadius(shape, ws.localBox) * Math.min(th2 / 8, 2) : 0;
  for (let k = 0; k < 3; k++) {
    out.min[k] = Math.min(out.min[k], box.min[k]) - grow;
    out.max[k] = Math.max(out.max[k], box.max[k]) + grow;
  }
  return out;
}
