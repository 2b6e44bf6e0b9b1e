/**
 * Where a wheel's cylinder (BodyInfo.wheel, in its body frame) is in the world for a body pose of
 * a frame: the centre and the unit axis the views draw and build the paper's construction from.
 * A URDF wheel's cylinder may sit off the link's origin and turned inside it (its collision
 * origin), so neither the body's origin nor its local z is the wheel's. Pure; allocates nothing.
 */
import type { WheelCylinder } from './protocol';

/**
 * Writes the world centre (out[0..2]) and unit axis (out[3..5]) of `wheel` for the body pose at
 * `poses[o..o+6]` (origin x, y, z, then the quaternion x, y, z, w: the frame layout's POSE_STRIDE).
 */
export function wheelCylinderInWorld<T extends number[] | Float64Array>(out: T, wheel: WheelCylinder, poses: ArrayLike<number>, o: number): T {
  const qx = poses[o + 3], qy = poses[o + 4], qz = poses[o + 5], qw = poses[o + 6];
  const p = wheel.position, c = wheel.orientation;
  const px = p[0], py = p[1], pz = p[2];
  // centre: origin + R·p (v + 2w(u×v) + 2u×(u×v) written as v + w·t + u×t with t = 2u×v)
  let tx = 2 * (qy * pz - qz * py), ty = 2 * (qz * px - qx * pz), tz = 2 * (qx * py - qy * px);
  out[0] = poses[o] + px + qw * tx + (qy * tz - qz * ty);
  out[1] = poses[o + 1] + py + qw * ty + (qz * tx - qx * tz);
  out[2] = poses[o + 2] + pz + qw * tz + (qx * ty - qy * tx);
  // the cylinder's axis in the body frame: the third column of its orientation
  const cx = c[0], cy = c[1], cz = c[2], cw = c[3];
  const ax = 2 * (cx * cz + cy * cw), ay = 2 * (cy * cz - cx * cw), az = 1 - 2 * (cx * cx + cy * cy);
  tx = 2 * (qy * az - qz * ay); ty = 2 * (qz * ax - qx * az); tz = 2 * (qx * ay - qy * ax);
  const wx = ax + qw * tx + (qy * tz - qz * ty), wy = ay + qw * ty + (qz * tx - qx * tz), wz = az + qw * tz + (qx * ty - qy * tx);
  const n = Math.hypot(wx, wy, wz);
  out[3] = wx / n; out[4] = wy / n; out[5] = wz / n;
  return out;
}
