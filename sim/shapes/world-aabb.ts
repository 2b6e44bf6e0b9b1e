/**
 * Tight world-space AABB of a posed shape, for the broad phase.
 *
 * For a convex shape the AABB's max along world axis e_k is the support value along e_k, i.e.
 * the support of the local direction Rᵀe_k (the k-th row of R) mapped back to world. Six support
 * calls give the exact box of the rotated shape — tighter than rotating the local AABB, which
 * grows a rotated sphere or cylinder by up to √3. Compounds combine their children's boxes with
 * the child poses composed onto the body pose; a hull child's box is its rotated local box
 * (rotatedLocalAabb: cheap, a little loose), the others' exact.
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

const local: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };

/**
 * World box of a posed hull's local AABB (centre rotated, half extents through |R|): O(1) and
 * conservative, up to √3 looser than the exact box for a rotated part. Used for the parts of a
 * compound, which are many and small (a URDF link's mesh split into convex parts: 257 for the
 * Curiosity model, whose exact boxes, six support climbs each, were a fifth of its step).
 */
function rotatedLocalAabb(out: Aabb, hull: ConvexHullShape, pose: Readonly<Pose>): Aabb {
  hull.localAabb(local);
  const [x, y, z, w] = pose.orientation;
  // rotation matrix rows
  const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
  const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
  const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
  const cx = 0.5 * (local.min[0] + local.max[0]), cy = 0.5 * (local.min[1] + local.max[1]), cz = 0.5 * (local.min[2] + local.max[2]);
  const hx = 0.5 * (local.max[0] - local.min[0]), hy = 0.5 * (local.max[1] - local.min[1]), hz = 0.5 * (local.max[2] - local.min[2]);
  const px = pose.position[0] + r00 * cx + r01 * cy + r02 * cz;
  const py = pose.position[1] + r10 * cx + r11 * cy + r12 * cz;
  const pz = pose.position[2] + r20 * cx + r21 * cy + r22 * cz;
  const ex = Math.abs(r00) * hx + Math.abs(r01) * hy + Math.abs(r02) * hz;
  const ey = Math.abs(r10) * hx + Math.abs(r11) * hy + Math.abs(r12) * hz;
  const ez = Math.abs(r20) * hx + Math.abs(r21) * hy + Math.abs(r22) * hz;
  out.min[0] = px - ex; out.max[0] = px + ex;
  out.min[1] = py - ey; out.max[1] = py + ey;
  out.min[2] = pz - ez; out.max[2] = pz + ez;
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
    if (c.shape.kind === ShapeKind.ConvexHull) rotatedLocalAabb(childBox, c.shape as ConvexHullShape, childPose);
    else convexWorldAabb(childBox, c.shape, childPose);
    for (let k = 0; k < 3; k++) {
      if (childBox.min[k] < out.min[k]) out.min[k] = childBox.min[k];
      if (childBox.max[k] > out.max[k]) out.max[k] = childBox.max[k];
    }
  }
  return out;
}
