/**
 * Tight world-space AABB of a posed shape, for the broad phase.
 *
 * For a convex shape the AABB's max along world axis e_k is the support value along e_k, i.e.
 * the support of the local direction Rᵀe_k (the k-th row of R) mapped back to world. Six support
 * calls give the exact box of the rotated shape — tighter than rotating the local AABB, which
 * grows a rotated sphere or cylinder by up to √3. Compounds combine their children's boxes with
 * the child poses composed onto the body pose.
 */
import type { Vec3 } from '../math/vec3';
import type { Quat } from '../math/quat';
import { quatMultiply, quatRotate, quatRotateInverse } from '../math/quat';
import type { Aabb, ConvexShape, Pose, Shape } from './shape';
import { ShapeKind } from './shape';
import type { CompoundShape } from './compound';
import type { ConvexHullShape } from './convex-hull';

const axis: Vec3 = [0, 0, 0];
const dirLocal: Vec3 = [0, 0, 0];
const p: Vec3 = [0, 0, 0];

/** Exact world AABB of a posed convex shape (6 support evaluations). */
export function convexWorldAabb(out: Aabb, shape: ConvexShape, pose: Readonly<Pose>): Aabb {
  // a hull climbs from each direction's own last answer (ConvexHullShape.supportFrom)
  const hull = shape.kind === ShapeKind.ConvexHull ? (shape as ConvexHullShape) : null;
  for (let k = 0; k < 3; k++) {
    axis[0] = axis[1] = axis[2] = 0;
    axis[k] = 1;
    quatRotateInverse(dirLocal, pose.orientation, axis);
    if (hull !== null) hull.supportFrom(p, dirLocal, 2 * k);
    else shape.support(p, dirLocal);
    quatRotate(p, pose.orientation, p);
    out.max[k] = p[k] + pose.position[k];
    dirLocal[0] = -dirLocal[0];
    dirLocal[1] = -dirLocal[1];
    dirLocal[2] = -dirLocal[2];
    if (hull !== null) hull.supportFrom(p, dirLocal, 2 * k + 1);
    else shape.support(p, dirLocal);
    quatRotate(p, pose.orientation, p);
    out.min[k] = p[k] + pose.position[k];
  }
  return out;
}

const childPose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
const childBox: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
const q: Quat = [0, 0, 0, 1];

/** World AABB of any shape (compounds: union over children). */
export function shapeWorldAabb(out: Aabb, shape: Shape, pose: Readonly<Pose>): Aabb {
  if (shape.kind !== ShapeKind.Compound) return convexWorldAabb(out, shape as ConvexShape, pose);
  const compound = shape as CompoundShape;
  for (let k = 0; k < 3; k++) {
    out.min[k] = Infinity;
    out.max[k] = -Infinity;
  }
  for (const c of compound.children) {
    quatRotate(p, pose.orientation, c.position);
    childPose.position[0] = p[0] + pose.position[0];
    childPose.position[1] = p[1] + pose.position[1];
    childPose.position[2] = p[2] + pose.position[2];
    quatMultiply(q, pose.orientation, c.orientation);
    for (let k = 0; k < 4; k++) childPose.orientation[k] = q[k];
    convexWorldAabb(childBox, c.shape, childPose);
    for (let k = 0; k < 3; k++) {
      if (childBox.min[k] < out.min[k]) out.min[k] = childBox.min[k];
      if (childBox.max[k] > out.max[k]) out.max[k] = childBox.max[k];
    }
  }
  return out;
}
