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
 * This file holds the rover's description as scenario files (v1, and v2's "skid-steer" robot
 * block) give it; robot/rover-builder.ts turns it into bodies and joints for the dynamics world.
 */
import type { Quat } from '../math/quat';
import { quatFromEuler } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { Heightfield } from '../terrain/heightfield';
import { describeValue } from '../util/describe-value';

/** The built-in skid-steer rover's dimensions and limits (a v1 scenario's `robot` block). */
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

/** The built-in rover when a scenario gives no robot fields. */
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
