/** Yaw (rotation about +z, radians) of a quaternion [x, y, z, w]: the heading of a body seen from above. */
export function yawOf(qx: number, qy: number, qz: number, qw: number): number {
  return Math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz));
}
