/** Shared fixtures for the GJK/EPA tests: posed shapes, random poses, certificates. */
import type { Vec3 } from '../../../sim/math/vec3';
import type { Quat } from '../../../sim/math/quat';
import { quatNormalize, quatRotate, quatRotateInverse } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import type { ConvexShape, Pose } from '../../../sim/shapes/shape';

export function pose(x = 0, y = 0, z = 0, q: Quat = [0, 0, 0, 1]): Pose {
  return { position: [x, y, z], orientation: quatNormalize([0, 0, 0, 1], q) };
}

export function randomQuat(rng: Rng): Quat {
  return quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
}

export function randomUnit(rng: Rng): Vec3 {
  for (;;) {
    const v: Vec3 = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
    const l = Math.hypot(v[0], v[1], v[2]);
    if (l > 1e-6) return [v[0] / l, v[1] / l, v[2] / l];
  }
}

/** World support point of a posed shape along world direction d. */
export function worldSupport(shape: ConvexShape, p: Pose, d: Readonly<Vec3>): Vec3 {
  const dl = quatRotateInverse([0, 0, 0], p.orientation, d);
  const s = shape.support([0, 0, 0], dl);
  const out = quatRotate([0, 0, 0], p.orientation, s);
  return [out[0] + p.position[0], out[1] + p.position[1], out[2] + p.position[2]];
}

/** h_{A−B}(u) = h_A(u) + h_B(−u): how far B must move along u to stop overlapping A. */
export function minkowskiSupportValue(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, u: Readonly<Vec3>): number {
  const sA = worldSupport(a, pa, u);
  const sB = worldSupport(b, pb, [-u[0], -u[1], -u[2]]);
  return u[0] * (sA[0] - sB[0]) + u[1] * (sA[1] - sB[1]) + u[2] * (sA[2] - sB[2]);
}

export function dot(a: Readonly<Vec3>, b: Readonly<Vec3>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function finite(...vs: (readonly number[])[]): boolean {
  return vs.every((v) => v.every((x) => Number.isFinite(x)));
}
