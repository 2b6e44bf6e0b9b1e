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
 *   timeOfImpact(out: CastResult, shapeA, poseA0, motionA, shapeB, poseB0, motionB): CastResult
 *     out.fraction ∈ [0, 1] (1 on a miss), out.normal A→B, out.pointA/pointB at that time.
 *   sweptAabb(out: Aabb, shape, pose0, motion): Aabb
 */
import { CAST_MAX_RESTARTS } from '../../constants';
import type { Quat } from '../../math/quat';
import { quatMultiply, quatNormalize } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { Aabb, ConvexShape, Pose } from '../../shapes/shape';
import { convexWorldAabb } from '../../shapes/world-aabb';
import { CastResult, CastStatus, gjkShapeCast } from '../gjk-raycast';
import { boundingRadius, conservativeAdvancement } from '../shape-cast';

/** A body's motion over one step: displacement [m] and rotation vector [rad] (world frame). */
export interface RigidMotion {
  linear: Vec3;
  angular: Vec3;
}

const poseA: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
const poseB: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
const restA: Vec3 = [0, 0, 0];
const restB: Vec3 = [0, 0, 0];
const partial = new CastResult();

function isZero(v: Readonly<Vec3>): boolean {
  return v[0] === 0 && v[1] === 0 && v[2] === 0;
}

/** Time of impact of two moving convex shapes over one step (see the file header). */
export function timeOfImpact(
  out: CastResult,
  shapeA: ConvexShape, poseA0: Readonly<Pose>, motionA: Readonly<RigidMotion>,
  shapeB: ConvexShape, poseB0: Readonly<Pose>, motionB: Readonly<RigidMotion>,
): CastResult {
  if (!isZero(motionA.angular) || !isZero(motionB.angular)) {
    return conservativeAdvancement(out, shapeA, poseA0, motionA.linear, motionA.angular, shapeB, poseB0, motionB.linear, motionB.angular, 1);
  }
  return linearCast(out, shapeA, poseA0, motionA.linear, shapeB, poseB0, motionB.linear);
}

/**
 * gjkShapeCast, restarted from its safe lower bound when it runs out of iterations (a curved
 * pair seen at a grazing angle converges linearly). Fractions are of the original motion.
 */
export function linearCast(
  out: CastResult,
  shapeA: ConvexShape, poseA0: Readonly<Pose>, motionA: Readonly<Vec3>,
  shapeB: ConvexShape, poseB0: Readonly<Pose>, motionB: Readonly<Vec3>,
): CastResult {
  gjkShapeCast(out, shapeA, poseA0, motionA, shapeB, poseB0, motionB);
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
    gjkShapeCast(partial, shapeA, poseA, restA, shapeB, poseB, restB);
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

const box: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
const endPose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
const dq: Quat = [0, 0, 0, 1];

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
  dq[0] = w[0] * s;
  dq[1] = w[1] * s;
  dq[2] = w[2] * s;
  dq[3] = Math.cos(0.5 * th * t);
  quatMultiply(out.orientation, dq, pose0.orientation);
  quatNormalize(out.orientation, out.orientation);
  return out;
}

/** World AABB holding the shape over the whole motion (see the file header). */
export function sweptAabb(out: Aabb, shape: ConvexShape, pose0: Readonly<Pose>, motion: Readonly<RigidMotion>): Aabb {
  convexWorldAabb(out, shape, pose0);
  poseAfter(endPose, pose0, motion);
  convexWorldAabb(box, shape, endPose);
  const w = motion.angular;
  const th2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
  const grow = th2 > 0 ? boundingRadius(shape) * Math.min(th2 / 8, 2) : 0;
  for (let k = 0; k < 3; k++) {
    out.min[k] = Math.min(out.min[k], box.min[k]) - grow;
    out.max[k] = Math.max(out.max[k], box.max[k]) + grow;
  }
  return out;
}
