/**
 * Shared by the convex oracles (convex-rapier.test.ts, convex-jolt.test.ts): the seeded random
 * pair generator in the plain queryConvex form, engine shapes for those descriptions (cached),
 * and the support-function measures used to certify an answer independently of any engine.
 *
 * All generated numbers are rounded to float32 (Math.fround) so the wasm peers, which store
 * float32, see exactly the geometry we do.
 */

import type { Quat } from '../../sim/math/quat';
import { quatNormalize, quatRotate, quatRotateInverse } from '../../sim/math/quat';
import type { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import { BoxShape } from '../../sim/shapes/box';
import { CapsuleShape } from '../../sim/shapes/capsule';
import { ConvexHullShape } from '../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../sim/shapes/convex-hull-builder';
import { CylinderShape } from '../../sim/shapes/cylinder';
import type { ConvexShape } from '../../sim/shapes/shape';
import { SphereShape } from '../../sim/shapes/sphere';

export type ShapeDesc =
  | { type: 'sphere'; radius: number }
  | { type: 'box'; halfExtents: Vec3 }
  | { type: 'capsule'; radius: number; height: number }
  | { type: 'cylinder'; radius: number; height: number }
  | { type: 'hull'; points: Vec3[] };

export interface Placed {
  shape: ShapeDesc;
  position: Vec3;
  orientation: Quat;
}

export const KINDS: ShapeDesc['type'][] = ['sphere', 'box', 'capsule', 'cylinder', 'hull'];

const f = Math.fround;

export function randomShape(rng: Rng, type: ShapeDesc['type']): ShapeDesc {
  switch (type) {
    case 'sphere':
      return { type, radius: f(rng.range(0.1, 0.6)) };
    case 'box':
      return { type, halfExtents: [f(rng.range(0.05, 0.6)), f(rng.range(0.05, 0.6)), f(rng.range(0.05, 0.6))] };
    case 'capsule':
      return { type, radius: f(rng.range(0.05, 0.4)), height: f(rng.range(0.05, 1)) };
    case 'cylinder':
      return { type, radius: f(rng.range(0.05, 0.5)), height: f(rng.range(0.05, 1)) };
    case 'hull': {
      const n = rng.int(8, 32);
      const sx = rng.range(0.1, 0.6), sy = rng.range(0.1, 0.6), sz = rng.range(0.1, 0.6);
      const points: Vec3[] = [];
      for (let i = 0; i < n; i++) points.push([f(rng.range(-sx, sx)), f(rng.range(-sy, sy)), f(rng.range(-sz, sz))]);
      return { type, points };
    }
  }
}

/** Radius of a sphere around the local origin that contains the shape. */
export function boundingRadius(s: ShapeDesc): number {
  switch (s.type) {
    case 'sphere':
      return s.radius;
    case 'box':
      return Math.hypot(...s.halfExtents);
    case 'capsule':
      return s.height / 2 + s.radius;
    case 'cylinder':
      return Math.hypot(s.height / 2, s.radius);
    case 'hull':
      return Math.max(...s.points.map((p) => Math.hypot(...p)));
  }
}

export function randomQuat(rng: Rng): Quat {
  const q: Quat = [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()];
  quatNormalize(q, q);
  return [f(q[0]), f(q[1]), f(q[2]), f(q[3])];
}

/** A at a random pose; B at a random direction and a distance that mixes apart, near and deep. */
export function randomPair(rng: Rng, ta: ShapeDesc['type'], tb: ShapeDesc['type']): [Placed, Placed] {
  const a = randomShape(rng, ta);
  const b = randomShape(rng, tb);
  const pa: Vec3 = [f(rng.range(-1, 1)), f(rng.range(-1, 1)), f(rng.range(-1, 1))];
  const dir: Vec3 = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
  const len = Math.hypot(...dir) || 1;
  const reach = (boundingRadius(a) + boundingRadius(b)) * rng.range(0.05, 1.15);
  const pb: Vec3 = [f(pa[0] + (dir[0] / len) * reach), f(pa[1] + (dir[1] / len) * reach), f(pa[2] + (dir[2] / len) * reach)];
  return [
    { shape: a, position: pa, orientation: randomQuat(rng) },
    { shape: b, position: pb, orientation: randomQuat(rng) },
  ];
}

const engineShapes = new WeakMap<ShapeDesc, ConvexShape>();

export function engineShape(s: ShapeDesc): ConvexShape {
  let shape = engineShapes.get(s);
  if (!shape) engineShapes.set(s, (shape = buildEngineShape(s)));
  return shape;
}

function buildEngineShape(s: ShapeDesc): ConvexShape {
  switch (s.type) {
    case 'sphere':
      return new SphereShape(s.radius);
    case 'box':
      return new BoxShape(s.halfExtents);
    case 'capsule':
      return new CapsuleShape(s.radius, s.height);
    case 'cylinder':
      return new CylinderShape(s.radius, s.height);
    case 'hull': {
      const built = buildConvexHull(s.points.flat());
      if (built.data === null) throw new Error(`hull build failed: ${built.message}`);
      return new ConvexHullShape(built.data);
    }
  }
}

// --- support-function check for ties ------------------------------------------------------------

const tmpD: Vec3 = [0, 0, 0];
const tmpS: Vec3 = [0, 0, 0];

/** h(n) = max over the placed shape of n·x. */
function supportValue(shape: ConvexShape, pose: Placed, n: Readonly<Vec3>): number {
  quatRotateInverse(tmpD, pose.orientation, n);
  shape.support(tmpS, tmpD);
  quatRotate(tmpS, pose.orientation, tmpS);
  return n[0] * (tmpS[0] + pose.position[0]) + n[1] * (tmpS[1] + pose.position[1]) + n[2] * (tmpS[2] + pose.position[2]);
}

/** Overlap of the projections of A and B on unit n: h_A(n) + h_B(−n). */
export function projectedOverlap(a: Placed, b: Placed, n: Readonly<Vec3>): number {
  const sa = engineShape(a.shape);
  const sb = engineShape(b.shape);
  const neg: Vec3 = [-n[0], -n[1], -n[2]];
  return supportValue(sa, a, n) + supportValue(sb, b, neg);
}

export function angle(u: Readonly<Vec3>, v: Readonly<Vec3>): number {
  const c = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (Math.hypot(...u) * Math.hypot(...v));
  return Math.acos(Math.max(-1, Math.min(1, c)));
}
