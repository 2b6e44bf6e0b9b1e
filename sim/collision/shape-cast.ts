/**
 * Time of impact of two convex shapes moving with constant linear AND angular velocity, by
 * conservative advancement (Mirtich, "Impulse-based dynamic simulation of rigid body systems",
 * 1996, §2.3.2; Zhang, Redon, Lee & Kim, "Continuous collision detection for articulated models
 * using Taylor models and temporal culling", 2007, for the motion bound).
 *
 * The linear sweep in gjk-raycast.ts is exact but ignores rotation; a spinning wheel or a
 * tumbling rock needs this one. At the current time t the GJK distance d and normal n (A→B) are
 * known. No point of A can approach B along n faster than
 *     μ = (vA − vB)·n + |ωA|·ρA + |ωB|·ρB
 * where ρ is the shape's bounding radius about its pose origin (the rotation centre). So the
 * shapes cannot touch before t + (d − target)/μ: advancing by that never passes the contact
 * (conservative), and each step closes a fixed fraction of the gap, so it converges in a few
 * GJK calls. It stops when d ≤ target + tolerance (CA_TARGET_DISTANCE, CA_TOLERANCE): the
 * shapes are then a little apart, which is what a speculative-contact solver wants.
 *
 * API
 *   conservativeAdvancement(out: CastResult, shapeA, poseA, linVelA, angVelA,
 *                           shapeB, poseB, linVelB, angVelB, dt, ws?): CastResult
 *     velocities in world frame [m/s], [rad/s]; the pose at time t is
 *     position + v·t and exp(ω t)·orientation (rotation about the pose origin).
 *     out.fraction = t/dt of the first approach within target, out.normal A→B at that time,
 *     out.pointA/pointB the closest points then. Status Hit, Miss, InitiallyOverlapping
 *     (already within target at t = 0), MaxIterations (t is still a safe lower bound), Degenerate.
 *     ws: the query's AdvancementWorkspace, owned by the caller (made for the call when omitted).
 */
import type { Vec3 } from '../math/vec3';
import type { Quat } from '../math/quat';
import { quatMultiply, quatNormalize } from '../math/quat';
import type { Aabb, ConvexShape, Pose } from '../shapes/shape';
import { GjkResult, GjkStatus, GjkWorkspace, gjkDistance } from './gjk';
import { CastResult, CastStatus } from './gjk-raycast';
import { CA_MAX_ITERATIONS, CA_TARGET_DISTANCE, CA_TOLERANCE } from '../constants';
import { clearWitness } from './witness';

/**
 * [m] Radius of the smallest origin-centred sphere that holds the shape's local AABB. `box` is
 * the caller's scratch for that AABB (a workspace's; its content is overwritten).
 */
export function boundingRadius(shape: ConvexShape, box: Aabb): number {
  shape.localAabb(box);
  let r2 = 0;
  for (let i = 0; i < 8; i++) {
    const x = i & 1 ? box.max[0] : box.min[0];
    const y = i & 2 ? box.max[1] : box.min[1];
    const z = i & 4 ? box.max[2] : box.min[2];
    r2 = Math.max(r2, x * x + y * y + z * z);
  }
  return Math.sqrt(r2);
}

/**
 * Everything one conservative-advancement query works on: the poses at time t, the GJK query and
 * its scratch. Allocated once by its owner (a time-of-impact workspace, a script's loop); one
 * query at a time.
 */
export class AdvancementWorkspace {
  readonly poseA: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly poseB: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  /** The rotation exp(ω t) of poseAt. */
  readonly dq: Quat = [0, 0, 0, 1];
  /** The shapes' local AABB (boundingRadius). */
  readonly box: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
  readonly gjk = new GjkResult();
  readonly gjkWs = new GjkWorkspace();
}

/** Pose at time t: p + v t, exp(ω t) q (ω in world frame); dq is scratch. */
function poseAt(out: Pose, p: Readonly<Pose>, v: Readonly<Vec3>, w: Readonly<Vec3>, t: number, dq: Quat): void {
  out.position[0] = p.position[0] + v[0] * t;
  out.position[1] = p.position[1] + v[1] * t;
  out.position[2] = p.position[2] + v[2] * t;
  const wl = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const half = 0.5 * wl * t;
  if (!(wl > 0)) {
    for (let k = 0; k < 4; k++) out.orientation[k] = p.orientation[k];
    return;
  }
  const s = Math.sin(half) / wl;
  dq[0] = w[0] * s;
  dq[1] = w[1] * s;
  dq[2] = w[2] * s;
  dq[3] = Math.cos(half);
  quatMultiply(out.orientation, dq, p.orientation);
  quatNormalize(out.orientation, out.orientation);
}

function finiteVec(v: Readonly<Vec3>): boolean {
  return Number.isFinite(v[0]) && Number.isFinite(v[1]) && Number.isFinite(v[2]);
}

/**
 * Conservative advancement (see the file header). `ws` holds the query's scratch: engine callers
 * pass the one they own; without it a workspace is made for this call (it allocates).
 */
export function conservativeAdvancement(
  out: CastResult,
  shapeA: ConvexShape,
  pA: Readonly<Pose>,
  linVelA: Readonly<Vec3>,
  angVelA: Readonly<Vec3>,
  shapeB: ConvexShape,
  pB: Readonly<Pose>,
  linVelB: Readonly<Vec3>,
  angVelB: Readonly<Vec3>,
  dt: number,
  ws: AdvancementWorkspace = new AdvancementWorkspace(),
): CastResult {
  const poseA = ws.poseA, poseB = ws.poseB, dq = ws.dq, gjk = ws.gjk;
  out.iterations = 0;
  out.distance = 0;
  if (!(dt > 0) || !Number.isFinite(dt) || !finiteVec(linVelA) || !finiteVec(linVelB) || !finiteVec(angVelA) || !finiteVec(angVelB)) {
    return degenerate(out);
  }
  const rhoA = boundingRadius(shapeA, ws.box), rhoB = boundingRadius(shapeB, ws.box);
  const wA = Math.sqrt(angVelA[0] ** 2 + angVelA[1] ** 2 + angVelA[2] ** 2);
  const wB = Math.sqrt(angVelB[0] ** 2 + angVelB[1] ** 2 + angVelB[2] ** 2);
  const angular = wA * rhoA + wB * rhoB;
  let t = 0;
  for (let iter = 0; iter < CA_MAX_ITERATIONS; iter++) {
    out.iterations = iter + 1;
    poseAt(poseA, pA, linVelA, angVelA, t, dq);
    poseAt(poseB, pB, linVelB, angVelB, t, dq);
    gjkDistance(gjk, shapeA, poseA, shapeB, poseB, undefined, ws.gjkWs);
    if (gjk.status === GjkStatus.Degenerate) return degenerate(out);
    const d = gjk.status === GjkStatus.Intersecting ? Math.min(0, gjk.distance) : gjk.distance;
    if (d <= CA_TARGET_DISTANCE + CA_TOLERANCE) {
      return report(out, gjk, t === 0 ? CastStatus.InitiallyOverlapping : CastStatus.Hit, t / dt);
    }
    const n = gjk.normal;
    const mu = (linVelA[0] - linVelB[0]) * n[0] + (linVelA[1] - linVelB[1]) * n[1] + (linVelA[2] - linVelB[2]) * n[2] + angular;
    if (!(mu > 0)) {
      // Nothing approaches along n and nothing rotates: the gap never closes.
      out.status = CastStatus.Miss;
      out.fraction = 1;
      return out;
    }
    t += (d - CA_TARGET_DISTANCE) / mu;
    if (t > dt) {
      out.status = CastStatus.Miss;
      out.fraction = 1;
      return out;
    }
  }
  // Still approaching after the cap: t is a safe lower bound of the time of impact.
  poseAt(poseA, pA, linVelA, angVelA, t, dq);
  poseAt(poseB, pB, linVelB, angVelB, t, dq);
  gjkDistance(gjk, shapeA, poseA, shapeB, poseB, undefined, ws.gjkWs);
  return report(out, gjk, CastStatus.MaxIterations, t / dt);
}

function report(out: CastResult, gjk: GjkResult, status: CastStatus, fraction: number): CastResult {
  out.status = status;
  out.fraction = fraction;
  out.distance = Math.max(0, gjk.distance);
  for (let k = 0; k < 3; k++) {
    out.normal[k] = gjk.normal[k];
    out.pointA[k] = gjk.pointA[k];
    out.pointB[k] = gjk.pointB[k];
  }
  return out;
}

function degenerate(out: CastResult): CastResult {
  out.status = CastStatus.Degenerate;
  out.fraction = 1;
  out.distance = 0;
  clearWitness(out);
  return out;
}
