/**
 * Unit quaternions as `[x, y, z, w]` (the project-wide convention, same order as ROS and
 * three.js). Functions write into `out` and may alias inputs.
 */
import type { Vec3 } from './vec3';

/** A unit quaternion `[x, y, z, w]` (the project-wide order; w is the scalar part). */
export type Quat = [number, number, number, number];

/** A new identity quaternion `[0, 0, 0, 1]` (allocates). */
export function quatIdentity(): Quat {
  return [0, 0, 0, 1];
}

/** The rotation by `angle` [rad] about the unit `axis` (right-handed), into `out`. */
export function quatFromAxisAngle(out: Quat, axis: Readonly<Vec3>, angle: number): Quat {
  const h = angle * 0.5;
  const s = Math.sin(h);
  out[0] = axis[0] * s;
  out[1] = axis[1] * s;
  out[2] = axis[2] * s;
  out[3] = Math.cos(h);
  return out;
}

/** Roll (about x), pitch (about y), yaw (about z), applied as R = Rz(yaw) · Ry(pitch) · Rx(roll) (REP-103). */
export function quatFromEuler(out: Quat, roll: number, pitch: number, yaw: number): Quat {
  const cr = Math.cos(roll * 0.5), sr = Math.sin(roll * 0.5);
  const cp = Math.cos(pitch * 0.5), sp = Math.sin(pitch * 0.5);
  const cy = Math.cos(yaw * 0.5), sy = Math.sin(yaw * 0.5);
  out[0] = sr * cp * cy - cr * sp * sy;
  out[1] = cr * sp * cy + sr * cp * sy;
  out[2] = cr * cp * sy - sr * sp * cy;
  out[3] = cr * cp * cy + sr * sp * sy;
  return out;
}

/** `out = a ⊗ b`: the rotation b followed by a; `out` may alias an input. */
export function quatMultiply(out: Quat, a: Readonly<Quat>, b: Readonly<Quat>): Quat {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const bx = b[0], by = b[1], bz = b[2], bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** `out = a*` (the inverse rotation of a unit quaternion); `out` may alias `a`. */
export function quatConjugate(out: Quat, a: Readonly<Quat>): Quat {
  out[0] = -a[0];
  out[1] = -a[1];
  out[2] = -a[2];
  out[3] = a[3];
  return out;
}

/** `out = a / |a|`; a zero or non-finite `a` gives the identity. */
export function quatNormalize(out: Quat, a: Readonly<Quat>): Quat {
  const len = Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
  if (!(len > 0) || !Number.isFinite(len)) {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    out[3] = 1;
    return out;
  }
  const inv = 1 / len;
  out[0] = a[0] * inv;
  out[1] = a[1] * inv;
  out[2] = a[2] * inv;
  out[3] = a[3] * inv;
  return out;
}

/** out = q · v · q⁻¹ (rotate a vector by a unit quaternion). */
export function quatRotate(out: Vec3, q: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const vx = v[0], vy = v[1], vz = v[2];
  // t = 2 q.xyz × v
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/** out = q⁻¹ · v · q (rotate by the inverse of a unit quaternion). */
export function quatRotateInverse(out: Vec3, q: Readonly<Quat>, v: Readonly<Vec3>): Vec3 {
  const qx = -q[0], qy = -q[1], qz = -q[2], qw = q[3];
  const vx = v[0], vy = v[1], vz = v[2];
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/** Column-major 3×3 rotation matrix (m[col*3 + row]) of a unit quaternion. */
export function quatToMat3(out: Float64Array | number[], q: Readonly<Quat>): Float64Array | number[] {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2;
  const yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  out[0] = 1 - (yy + zz);
  out[1] = xy + wz;
  out[2] = xz - wy;
  out[3] = xy - wz;
  out[4] = 1 - (xx + zz);
  out[5] = yz + wx;
  out[6] = xz + wy;
  out[7] = yz - wx;
  out[8] = 1 - (xx + yy);
  return out;
}
