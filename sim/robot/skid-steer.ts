/**
 * A four-wheeled skid-steer rover: the robot of the first vertical slice.
 *
 * Body frame (REP-103): x forward, y left, z up, origin at the chassis centre. Wheels are
 * cylinders whose axis is the body y axis, at (±wheelbase/2, ±track/2, −wheelDrop):
 *
 *            +x (forward)
 *             ^
 *     W0 ┌─────────┐ W1          W0 front-left   W1 front-right
 *        │ chassis │             W2 rear-left    W3 rear-right
 *     W2 └─────────┘ W3
 *   +y <──
 *
 * Until the rigid-body solver lands (dynamics issue), the motion is kinematic: commanded forward
 * speed and yaw rate with acceleration limits, the chassis resting on the terrain under its four
 * wheels (height from the mean, roll and pitch from the plane fitted through the four ground
 * points). Wheel–terrain contacts are still computed by the real collision code every step.
 */
import type { Quat } from '../math/quat';
import { quatFromEuler } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { Heightfield } from '../terrain/heightfield';
import { describeValue } from '../scenario-guard';

export interface RobotSpec {
  name: string;
  /** [m] Chassis box half extents (x, y, z). */
  chassisHalfExtents: [number, number, number];
  /** [m] */
  wheelRadius: number;
  /** [m] Wheel width along its axis. */
  wheelWidth: number;
  /** [m] Distance between front and rear axles. */
  wheelbase: number;
  /** [m] Distance between left and right wheel centres. */
  track: number;
  /** [m] Wheel centres sit this far below the chassis centre. */
  wheelDrop: number;
  /** [m/s] Top forward speed (throttle 1). */
  maxSpeed: number;
  /** [rad/s] Top yaw rate (steer 1). */
  maxYawRate: number;
  /** [m/s²] Forward acceleration limit. */
  maxAccel: number;
  /** [rad/s²] Yaw acceleration limit. */
  maxYawAccel: number;
}

export const DEFAULT_ROBOT: RobotSpec = {
  name: 'rover',
  chassisHalfExtents: [0.35, 0.22, 0.08],
  wheelRadius: 0.15,
  wheelWidth: 0.1,
  wheelbase: 0.5,
  track: 0.56,
  wheelDrop: 0.06,
  maxSpeed: 2,
  maxYawRate: 1.6,
  maxAccel: 3,
  maxYawAccel: 6,
};

function positive(v: unknown, name: string, hi: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > hi) {
    throw new Error(`"robot.${name}" must be a number in (0, ${hi}], got ${describeValue(v)}`);
  }
  return v;
}

/** Validates a robot spec (missing fields take the default rover's values). */
export function parseRobotSpec(raw: unknown): RobotSpec {
  if (raw === undefined) return { ...DEFAULT_ROBOT, chassisHalfExtents: [...DEFAULT_ROBOT.chassisHalfExtents] };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('"robot" must be an object');
  const r = raw as Record<string, unknown>;
  const d = DEFAULT_ROBOT;
  const he = r.chassisHalfExtents ?? d.chassisHalfExtents;
  if (!Array.isArray(he) || he.length !== 3) throw new Error('"robot.chassisHalfExtents" must be [x, y, z] in metres');
  const name = r.name ?? d.name;
  if (typeof name !== 'string') throw new Error('"robot.name" must be a string');
  const wheelDrop = r.wheelDrop ?? d.wheelDrop;
  if (typeof wheelDrop !== 'number' || !Number.isFinite(wheelDrop) || Math.abs(wheelDrop) > 10) {
    throw new Error(`"robot.wheelDrop" must be a number of metres in [-10, 10], got ${describeValue(wheelDrop)}`);
  }
  return {
    name,
    chassisHalfExtents: [
      positive(he[0], 'chassisHalfExtents[0]', 50),
      positive(he[1], 'chassisHalfExtents[1]', 50),
      positive(he[2], 'chassisHalfExtents[2]', 50),
    ],
    wheelRadius: positive(r.wheelRadius ?? d.wheelRadius, 'wheelRadius', 10),
    wheelWidth: positive(r.wheelWidth ?? d.wheelWidth, 'wheelWidth', 10),
    wheelbase: positive(r.wheelbase ?? d.wheelbase, 'wheelbase', 100),
    track: positive(r.track ?? d.track, 'track', 100),
    wheelDrop,
    maxSpeed: positive(r.maxSpeed ?? d.maxSpeed, 'maxSpeed', 100),
    maxYawRate: positive(r.maxYawRate ?? d.maxYawRate, 'maxYawRate', 50),
    maxAccel: positive(r.maxAccel ?? d.maxAccel, 'maxAccel', 1000),
    maxYawAccel: positive(r.maxYawAccel ?? d.maxYawAccel, 'maxYawAccel', 1000),
  };
}

export const WHEEL_COUNT = 4;

/** Mutable kinematic state; plain numbers so it hashes and copies exactly. */
export interface RoverState {
  x: number;
  y: number;
  z: number;
  yaw: number;
  roll: number;
  pitch: number;
  /** [m/s] forward speed */
  v: number;
  /** [rad/s] yaw rate */
  w: number;
  /** [rad] spin angle of each wheel about its axle */
  spin: Float64Array;
}

export function createRoverState(spec: RobotSpec, x: number, y: number, yaw: number, hf: Heightfield): RoverState {
  const s: RoverState = { x, y, z: 0, yaw, roll: 0, pitch: 0, v: 0, w: 0, spin: new Float64Array(WHEEL_COUNT) };
  settleOnTerrain(s, spec, hf);
  return s;
}

/** Body-frame offset of wheel k (see the diagram above). */
export function wheelOffset(out: Vec3, spec: RobotSpec, k: number): Vec3 {
  out[0] = k < 2 ? spec.wheelbase / 2 : -spec.wheelbase / 2;
  out[1] = k % 2 === 0 ? spec.track / 2 : -spec.track / 2;
  out[2] = -spec.wheelDrop;
  return out;
}

function approach(current: number, target: number, maxDelta: number): number {
  const d = target - current;
  if (d > maxDelta) return current + maxDelta;
  if (d < -maxDelta) return current - maxDelta;
  return target;
}

const groundZ = new Float64Array(WHEEL_COUNT);

/**
 * Places the chassis on the terrain under its wheels: height from the mean ground height,
 * pitch and roll from the slopes between axles and between sides.
 */
export function settleOnTerrain(s: RoverState, spec: RobotSpec, hf: Heightfield): void {
  const c = Math.cos(s.yaw), sn = Math.sin(s.yaw);
  for (let k = 0; k < WHEEL_COUNT; k++) {
    const ox = k < 2 ? spec.wheelbase / 2 : -spec.wheelbase / 2;
    const oy = k % 2 === 0 ? spec.track / 2 : -spec.track / 2;
    groundZ[k] = hf.heightAt(s.x + c * ox - sn * oy, s.y + sn * ox + c * oy);
  }
  const front = (groundZ[0] + groundZ[1]) / 2;
  const rear = (groundZ[2] + groundZ[3]) / 2;
  const left = (groundZ[0] + groundZ[2]) / 2;
  const right = (groundZ[1] + groundZ[3]) / 2;
  // Positive pitch about +y tilts the nose DOWN (right-handed), so a higher front is negative pitch.
  s.pitch = -Math.atan2(front - rear, spec.wheelbase);
  s.roll = Math.atan2(left - right, spec.track);
  const mean = (front + rear) / 2;
  s.z = mean + spec.wheelRadius + spec.wheelDrop;
}

/** One fixed step of the kinematic drive model. */
export function stepRover(s: RoverState, spec: RobotSpec, throttle: number, steer: number, dt: number, hf: Heightfield): void {
  s.v = approach(s.v, throttle * spec.maxSpeed, spec.maxAccel * dt);
  s.w = approach(s.w, steer * spec.maxYawRate, spec.maxYawAccel * dt);
  s.yaw += s.w * dt;
  const cp = Math.cos(s.pitch);
  s.x += s.v * cp * Math.cos(s.yaw) * dt;
  s.y += s.v * cp * Math.sin(s.yaw) * dt;
  // keep the rover on the map: stop at the border instead of driving off the grid
  const xMin = hf.x0 + spec.wheelbase, xMax = hf.x0 + hf.cellsX * hf.dx - spec.wheelbase;
  const yMin = hf.y0 + spec.wheelbase, yMax = hf.y0 + hf.cellsY * hf.dy - spec.wheelbase;
  if (s.x < xMin || s.x > xMax || s.y < yMin || s.y > yMax) {
    s.x = Math.min(Math.max(s.x, xMin), xMax);
    s.y = Math.min(Math.max(s.y, yMin), yMax);
    s.v = 0;
  }
  // wheel spin: skid-steer, left and right sides differ by the yaw rate
  const vl = s.v - (s.w * spec.track) / 2;
  const vr = s.v + (s.w * spec.track) / 2;
  for (let k = 0; k < WHEEL_COUNT; k++) s.spin[k] += ((k % 2 === 0 ? vl : vr) / spec.wheelRadius) * dt;
  settleOnTerrain(s, spec, hf);
}

/** Chassis orientation quaternion from the state's roll, pitch, yaw. */
export function chassisQuat(out: Quat, s: RoverState): Quat {
  return quatFromEuler(out, s.roll, s.pitch, s.yaw);
}
