/**
 * What a live link (sim/live/) knows of a world: its fixed description (LiveInfo) and a snapshot of
 * its state (LiveSnapshot). Here, beside the service, because both the headless LiveSession and the
 * desktop app's worker build them: the app's worker answers `SimService.liveInfo()` and
 * `liveSnapshot()` through the MessagePort Electron main's live link holds (sim/live/app-link.ts).
 */
import type { ControllerSpec, RobotSpec } from '../dynamics/spec';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import { ackermannMaxCurvature } from '../robot/controllers/drive-kinematics';
import { allWheelSteerMaxYawRate } from '../robot/controllers/drive-controller';
import type { BodyInfo, JointInfo } from './protocol';
import type { SimWorld } from './sim-world';

/** A wheel of the robot: its body, the joint that drives it, its radius. */
export interface LiveWheelInfo {
  name: string;
  body: number;
  /** Index of the revolute joint whose child is the wheel, −1 if none. */
  joint: number;
  /** [m] */
  radius: number;
}

/** The robot's drive controller as a twist needs it (null: the world has no driven robot). */
export type LiveControllerInfo =
  | { type: 'skid-steer' | 'differential' | 'all-wheel-steer'; maxSpeed: number; maxYawRate: number; joints: number[] }
  | { type: 'ackermann'; maxSpeed: number; wheelbase: number; maxBicycleAngle: number; joints: number[] };

/** What a session's world is made of (fixed for its life: reset keeps it). */
export interface LiveInfo {
  scenarioName: string;
  /** Absolute path of the scenario file, or null when built from files in memory. */
  scenarioPath: string | null;
  /** [s] Fixed step. */
  dt: number;
  lockstep: boolean;
  bodies: BodyInfo[];
  /** Each joint with `controlled`: the drive controller writes its motor target every step. */
  joints: (JointInfo & { controlled: boolean })[];
  wheels: LiveWheelInfo[];
  /** Index of the robot's base body, −1 without a robot. */
  baseBody: number;
  controller: LiveControllerInfo | null;
}

/** The grid of the world's terrain (heights come from `SimService.terrainPatch`). */
export interface LiveTerrainGrid {
  cols: number;
  rows: number;
  dx: number;
  dy: number;
  x0: number;
  y0: number;
}

/** LiveInfo with the terrain's grid: what `SimService.liveInfo()` answers. */
export type LiveWorldInfo = LiveInfo & { grid: LiveTerrainGrid };

/**
 * The drive command (throttle, steer, unclamped) of a `geometry_msgs/Twist`'s planar part:
 * forward speed `linear` [m/s] and yaw rate `angular` [rad/s] (see LiveSession.setTwist). Throws
 * without a driven robot or for non-finite numbers.
 */
export function twistDrive(info: LiveInfo, linear: number, angular: number, speedFloor: number): { throttle: number; steer: number } {
  if (typeof linear !== 'number' || !Number.isFinite(linear)) throw new Error(`twist: linear.x must be a finite number [m/s], got ${String(linear)}`);
  if (typeof angular !== 'number' || !Number.isFinite(angular)) throw new Error(`twist: angular.z must be a finite number [rad/s], got ${String(angular)}`);
  const c = info.controller;
  if (c === null) throw new Error(`twist: the world "${info.scenarioName}" has no robot with a drive controller`);
  const throttle = linear / c.maxSpeed;
  let steer: number;
  if (c.type === 'ackermann') steer = Math.abs(linear) < speedFloor ? 0 : Math.atan((angular * c.wheelbase) / linear) / c.maxBicycleAngle;
  else steer = angular / c.maxYawRate;
  return { throttle, steer };
}

/**
 * The state of the app's world now, copied into arrays of its own (transferred through the
 * MessagePort): the world's report (sim/dynamics/frame-layout.ts, float64 as the encoders take it),
 * joints, the clock and the drive in effect.
 */
export interface LiveSnapshot {
  step: number;
  /** [s] */
  time: number;
  bodyCount: number;
  contactCount: number;
  poses: Float64Array;
  velocities: Float64Array;
  contacts: Float64Array;
  contactInfo: Int32Array;
  jointPosition: Float64Array;
  jointVelocity: Float64Array;
  running: boolean;
  timeScale: number;
  fault: string | null;
  drive: { throttle: number; steer: number };
  /** A recording is being written (a reset is refused then). */
  recording: boolean;
  /** The world's full-state hash (`stateHash()`), when the caller asked for it. */
  stateHash?: string;
}

/** The fixed description of a world for a live link. */
export function describeLive(w: SimWorld, scenarioPath: string | null, lockstep: boolean): LiveInfo {
  const info = w.info();
  const e = w.engine;
  const controlled = new Set(e.controller?.joints ?? []);
  const joints = info.joints.map((j, i) => ({ ...j, controlled: controlled.has(i) }));
  const wheels: LiveWheelInfo[] = [];
  info.bodies.forEach((b, i) => {
    if (b.role !== 'wheel') return;
    wheels.push({ name: b.name, body: i, joint: info.joints.findIndex((j) => j.bodyB === i && j.type === 'revolute'), radius: b.wheel?.radius ?? 0 });
  });
  const spec = w.spec.robot?.controller;
  return {
    scenarioName: info.scenarioName,
    scenarioPath,
    dt: info.dt,
    lockstep,
    bodies: info.bodies,
    joints,
    wheels,
    baseBody: info.baseBody,
    controller: spec === undefined || e.controller === null ? null : controllerInfo(spec, [...e.controller.joints], w.spec.robot),
  };
}

/**
 * Checks a per-joint velocity command against a world's description: the joint exists, has a
 * motor, is not one the drive controller writes every step, and the velocity is finite. Returns
 * the joint's index; throws naming what is wrong (the headless LiveSession, the app's worker and
 * the app's live link in Electron main all check with this, so they refuse alike).
 */
export function checkJointCommand(info: Pick<LiveInfo, 'joints' | 'controller'>, joint: string, velocity: number): number {
  const j = info.joints.findIndex((d) => d.name === joint);
  if (j < 0) throw new Error(`joint velocity: no joint named "${String(joint)}" (joints: ${info.joints.filter((d) => d.motor).map((d) => d.name).join(', ') || 'none with a motor'})`);
  const d = info.joints[j];
  if (!d.motor) throw new Error(`joint velocity: joint "${joint}" has no motor`);
  if (d.controlled) throw new Error(`joint velocity: joint "${joint}" is driven by the robot's ${info.controller?.type ?? ''} controller every step; drive it with a twist (/cmd_vel) instead`);
  if (typeof velocity !== 'number' || !Number.isFinite(velocity)) throw new Error(`joint velocity: velocity of "${joint}" must be a finite number, got ${String(velocity)}`);
  return j;
}

/** The limits a twist is scaled by (the same defaults as sim/robot/controllers/drive-controller.ts). */
function controllerInfo(spec: ControllerSpec, joints: number[], robot?: RobotSpec): LiveControllerInfo {
  // all-wheel steering: a twist maps as onto skid steer (steer = ω / its yaw rate at steer 1)
  if (spec.type === 'all-wheel-steer') return { type: spec.type, maxSpeed: spec.maxSpeed, maxYawRate: allWheelSteerMaxYawRate(spec, robot), joints };
  if (spec.type === 'ackermann') {
    return { type: 'ackermann', maxSpeed: spec.maxSpeed, wheelbase: spec.wheelbase, maxBicycleAngle: Math.atan(spec.wheelbase * ackermannMaxCurvature(spec.wheelbase, spec.track, spec.maxSteer)), joints };
  }
  return { type: spec.type, maxSpeed: spec.maxSpeed, maxYawRate: spec.maxYawRate ?? (2 * spec.maxSpeed) / spec.track, joints };
}

/** The world's state now as a LiveSnapshot (fresh arrays). */
export function snapshotLive(w: SimWorld, running: boolean, timeScale: number, recording: boolean): LiveSnapshot {
  const e = w.engine;
  const r = e.frame();
  const nb = e.bodies.count;
  const nc = r.contactCount;
  return {
    step: e.stepCount,
    time: e.time,
    bodyCount: nb,
    contactCount: nc,
    poses: Float64Array.from(r.poses.subarray(0, POSE_STRIDE * nb)),
    velocities: Float64Array.from(r.velocities.subarray(0, VELOCITY_STRIDE * nb)),
    contacts: Float64Array.from(r.contacts.subarray(0, CONTACT_STRIDE * nc)),
    contactInfo: Int32Array.from(r.contactInfo.subarray(0, CONTACT_INFO_STRIDE * nc)),
    jointPosition: Float64Array.from(e.joints.position.subarray(0, e.joints.count)),
    jointVelocity: Float64Array.from(e.joints.velocity.subarray(0, e.joints.count)),
    running,
    timeScale,
    fault: w.fault,
    drive: { throttle: e.drive.throttle, steer: e.drive.steer },
    recording,
  };
}
