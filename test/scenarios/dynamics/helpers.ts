/**
 * Small worlds with known answers for the dynamics tests: flat and inclined terrains, a
 * four-wheel skid-steer rover built from bodies and joints, energy.
 */
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { robotDriveController } from '../../../sim/robot/controllers/world-drive';
import type { BodySpec, JointSpec, WorldSpec } from '../../../sim/dynamics/spec';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import { BodyKind } from '../../../sim/dynamics/bodies';
import { Heightfield } from '../../../sim/terrain/heightfield';

export const G = 9.81;

/** Terrain tilted down toward +x by `deg` (heights −x·tanθ), n × n vertices at spacing d, centred on y = 0. */
export function incline(deg: number, n = 81, d = 0.125, x0 = 0): Heightfield {
  const h = new Float64Array(n * n);
  const t = Math.tan((deg * Math.PI) / 180);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = -(x0 + i * d) * t;
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0, y0: (-(n - 1) * d) / 2, heights: h });
}

/** Flat terrain at z = 0 centred on the origin. */
export function flat(n = 201, d = 0.05): Heightfield {
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: (-(n - 1) * d) / 2, y0: (-(n - 1) * d) / 2, heights: new Float64Array(n * n) });
}

export function worldSpec(bodies: BodySpec[], joints: JointSpec[] = [], extra: Partial<WorldSpec> = {}): WorldSpec {
  return {
    name: 'test', gravity: [0, 0, -G], dt: 1 / 240, substeps: 4, sleep: false, ccd: false,
    materials: { default: { friction: 1 } }, terrainMaterials: {}, bodies, joints, script: [], ...extra,
  };
}

export function makeWorld(hf: Heightfield | null, bodies: BodySpec[], joints: JointSpec[] = [], extra: Partial<WorldSpec> = {}): DynamicsWorld {
  return createDynamicsWorld(worldSpec(bodies, joints, extra), hf, robotDriveController);
}

type Q = [number, number, number, number];
export function quatMul(a: Q, b: Q): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
export const yawQuat = (yaw: number): Q => [0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)];
export const pitchQuat = (pitch: number): Q => [0, Math.sin(pitch / 2), 0, Math.cos(pitch / 2)];
/** Rx(−90°): a cylinder's local z onto world +y. */
export const AXLE_Y: Q = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/**
 * The default rover (docs/file-formats.md, "Scenario files"): 1.0 × 0.6 × 0.3 m chassis of 40 kg, four 2 kg wheels r = 0.15 m,
 * width 0.1 m at x = ±0.35, y = ±0.36, z = −0.15 (chassis frame), revolute joints with velocity
 * motors (20 N·m) about the chassis +y axis: positive targets drive forward.
 * `frame(x, y) → [X, Y, Z, q]` places the chassis (e.g. on an incline).
 */
export function rover(opts: { x?: number; y?: number; z?: number; yaw?: number; pitch?: number; torque?: number } = {}): { bodies: BodySpec[]; joints: JointSpec[] } {
  const { x = 0, y = 0, z = 0.3, yaw = 0, pitch = 0, torque = 20 } = opts;
  const q = quatMul(yawQuat(yaw), pitchQuat(pitch));
  const rot = (v: [number, number, number]): [number, number, number] => {
    // rotate v by q
    const [qx, qy, qz, qw] = q;
    const tx = 2 * (qy * v[2] - qz * v[1]), ty = 2 * (qz * v[0] - qx * v[2]), tz = 2 * (qx * v[1] - qy * v[0]);
    return [v[0] + qw * tx + (qy * tz - qz * ty), v[1] + qw * ty + (qz * tx - qx * tz), v[2] + qw * tz + (qx * ty - qy * tx)];
  };
  const bodies: BodySpec[] = [{ name: 'chassis', shape: { type: 'box', halfExtents: [0.5, 0.3, 0.15] }, mass: 40, position: [x, y, z], orientation: q }];
  const joints: JointSpec[] = [];
  const axis = rot([0, 1, 0]);
  for (const wx of [0.35, -0.35]) for (const wy of [0.36, -0.36]) {
    const name = `wheel_${wx > 0 ? 'f' : 'r'}${wy > 0 ? 'l' : 'r'}`;
    const o = rot([wx, wy, -0.15]);
    const p: [number, number, number] = [x + o[0], y + o[1], z + o[2]];
    bodies.push({ name, shape: { type: 'cylinder', radius: 0.15, height: 0.1 }, mass: 2, position: p, orientation: quatMul(q, AXLE_Y) });
    joints.push({ type: 'revolute', name: `axle_${name.slice(6)}`, bodyA: 'chassis', bodyB: name, anchor: p, axis, motor: { targetVelocity: 0, maxTorque: torque } });
  }
  return { bodies, joints };
}

/** Sets every motor of the world to `w` [rad/s]. */
export function setAllMotors(world: DynamicsWorld, w: number): void {
  for (const d of world.joints.defs) if (d.motor) world.setMotor(d.name, w);
}

/** Kinetic + potential energy of the dynamic bodies [J]. */
export function energy(world: DynamicsWorld): number {
  const b = world.bodies;
  let e = 0;
  for (let i = 0; i < b.count; i++) {
    if (b.kind[i] !== BodyKind.Dynamic) continue;
    const m = b.mass[i];
    const v = b.linVel, w = b.angVel;
    e += 0.5 * m * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2);
    // rotational: ½ ωᵀ I ω with I = (I⁻¹)⁻¹ in world axes
    const I = b.invInertiaWorld.subarray(9 * i, 9 * i + 9);
    const wx = w[3 * i], wy = w[3 * i + 1], wz = w[3 * i + 2];
    // solve I⁻¹ y = ω  (3×3 Cramer)
    const a = I[0], bb = I[3], c = I[6], d = I[1], ee = I[4], f = I[7], g = I[2], h = I[5], k = I[8];
    const det = a * (ee * k - f * h) - bb * (d * k - f * g) + c * (d * h - ee * g);
    if (Math.abs(det) > 0) {
      const yx = (wx * (ee * k - f * h) - bb * (wy * k - f * wz) + c * (wy * h - ee * wz)) / det;
      const yy = (a * (wy * k - f * wz) - wx * (d * k - f * g) + c * (d * wz - wy * g)) / det;
      const yz = (a * (ee * wz - wy * h) - bb * (d * wz - wy * g) + wx * (d * h - ee * g)) / det;
      e += 0.5 * (wx * yx + wy * yy + wz * yz);
    }
    e += m * G * b.pos[3 * i + 2];
  }
  return e;
}
