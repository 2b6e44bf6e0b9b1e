/**
 * Drive controllers: a normalised command {throttle, steer} ∈ [−1, 1]² (keyboard, gamepad,
 * scenario script, API) → per-joint targets for the dynamics world's motors.
 *
 *   skid-steer / differential   throttle → v = throttle·maxSpeed, steer → ω = steer·maxYawRate;
 *                               v and ω rate-limited (maxAcceleration, maxYawAcceleration);
 *                               wheel speeds from skidSteerWheelSpeeds.
 *   ackermann                   throttle → v = throttle·maxSpeed (rate-limited by maxAcceleration);
 *                               steer → bicycle angle δ = steer·δmax, where δmax is the bicycle
 *                               angle at which the INNER wheel reaches maxSteer; κ = tan δ / L;
 *                               steering targets from ackermannSteeringAngles, rear wheel speeds
 *                               from ackermannRearWheelSpeeds. The steering rate is limited by the
 *                               steering motor (steeringMotorVelocity's maxRate), not here.
 *
 * Output per joint (same order as `joints`): `targetVelocity` [rad/s] for wheels, `targetAngle`
 * [rad] for steering joints (`isSteering[i] = 1`; the world turns it into a motor velocity with
 * steeringMotorVelocity). Targets are about each joint's OWN axis: a wheel whose joint axis
 * points to the robot's right (−y of the base) gets the negated speed, a steering joint whose axis
 * points down the negated angle (`axisSigns`, from the robot's start pose; +1 when no robot given).
 *
 * Deterministic and allocation-free per step: the state is two numbers (commanded speed and yaw
 * rate / bicycle angle), saved and restored with saveState / loadState for keyframes.
 */
import type { ControllerSpec, RobotSpec } from '../../dynamics/spec';
import { quatRotateInverse } from '../../math/quat';
import type { Quat } from '../../math/quat';
import { ackermannMaxCurvature, ackermannRearWheelSpeeds, ackermannSteeringAngles, approach, skidSteerWheelSpeeds } from './drive-kinematics';

/** A drive command from the user or a script: throttle and steer in −1…1. */
export interface DriveCommand {
  /** −1..1: fraction of maxSpeed (negative = reverse). */
  throttle: number;
  /** −1..1: positive turns left (counter-clockwise seen from above). */
  steer: number;
}

/** Numbers in a saved controller state (saveState / loadState). */
export const DRIVE_CONTROLLER_STATE_SIZE = 2;

/**
 * Turns drive commands into joint motor targets for one robot (skid-steer, differential or
 * Ackermann), rate-limited; its state is part of the world's saved state.
 */
export interface DriveController {
  readonly spec: ControllerSpec;
  /** Every joint the controller writes: wheels, then steering joints (Ackermann). */
  readonly joints: readonly string[];
  readonly targetVelocity: Float64Array;
  readonly targetAngle: Float64Array;
  readonly isSteering: Uint8Array;
  /** +1 or −1 per joint (see the header). */
  readonly axisSigns: Float64Array;
  /** [m/s] commanded forward speed after the rate limit. */
  readonly speed: number;
  /** [rad/s] skid steer: commanded yaw rate; Ackermann: v·κ (the yaw rate of the bicycle model). */
  readonly yawRate: number;
  /** [rad] Ackermann: bicycle steering angle δ (0 for skid steer). */
  readonly steerAngle: number;
  /** One control step of `dt` seconds with a normalised command (clamped to [−1, 1]; NaN → 0). */
  step(throttle: number, steer: number, dt: number): void;
  /** One control step with a physical command: (v [m/s], ω [rad/s]) or, for Ackermann, (v, δ [rad]). */
  stepPhysical(speed: number, turn: number, dt: number): void;
  /** Back to rest (all targets 0). */
  reset(): void;
  saveState(out: Float64Array, offset?: number): void;
  loadState(src: ArrayLike<number>, offset?: number): void;
}

function clampUnit(x: number): number {
  return x > 1 ? 1 : x < -1 ? -1 : x === x ? x : 0;
}

function finiteOr0(x: number): number {
  return Number.isFinite(x) ? x : 0;
}

function positive(v: number | undefined, name: string): number {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw new Error(`controller.${name} must be a positive finite number, got ${String(v)}`);
  return v;
}

function optionalLimit(v: number | undefined, name: string): number {
  if (v === undefined) return Infinity;
  return positive(v, name);
}

/**
 * Signs of the joints' axes against the base's left (wheels) and up (steering) axes at the start
 * pose. Unknown joints (no robot given) keep +1.
 */
function axisSigns(joints: readonly string[], steering: Uint8Array, robot?: RobotSpec): Float64Array {
  const s = new Float64Array(joints.length).fill(1);
  if (!robot) return s;
  const base = robot.bodies.find((b) => b.name === robot.base);
  const q = (base?.orientation ?? [0, 0, 0, 1]) as Quat;
  const local: [number, number, number] = [0, 0, 0];
  joints.forEach((name, i) => {
    const j = robot.joints.find((x) => x.name === name);
    if (!j) throw new Error(`controller: joint "${name}" is not in robot "${robot.name}"`);
    quatRotateInverse(local, q, j.axis ?? [0, 0, 1]);
    const c = steering[i] ? local[2] : local[1];
    if (c < 0) s[i] = -1;
  });
  return s;
}

class SkidSteerController implements DriveController {
  readonly joints: readonly string[];
  readonly targetVelocity: Float64Array;
  readonly targetAngle: Float64Array;
  readonly isSteering: Uint8Array;
  readonly axisSigns: Float64Array;
  speed = 0;
  yawRate = 0;
  readonly steerAngle = 0;
  private readonly nLeft: number;
  private readonly maxSpeed: number;
  private readonly maxYawRate: number;
  private readonly maxAcc: number;
  private readonly maxYawAcc: number;
  private readonly wheels = new Float64Array(2);

  constructor(readonly spec: Extract<ControllerSpec, { type: 'skid-steer' | 'differential' }>, robot?: RobotSpec) {
    if (spec.left.length === 0 || spec.right.length === 0) throw new Error('controller.left and controller.right each need at least one joint');
    positive(spec.wheelRadius, 'wheelRadius');
    positive(spec.track, 'track');
    this.maxSpeed = positive(spec.maxSpeed, 'maxSpeed');
    // Default yaw rate: the one at which the inner side stands still at full speed.
    this.maxYawRate = spec.maxYawRate === undefined ? (2 * spec.maxSpeed) / spec.track : positive(spec.maxYawRate, 'maxYawRate');
    this.maxAcc = optionalLimit(spec.maxAcceleration, 'maxAcceleration');
    this.maxYawAcc = optionalLimit(spec.maxYawAcceleration, 'maxYawAcceleration');
    this.joints = [...spec.left, ...spec.right];
    this.nLeft = spec.left.length;
    this.targetVelocity = new Float64Array(this.joints.length);
    this.targetAngle = new Float64Array(this.joints.length);
    this.isSteering = new Uint8Array(this.joints.length);
    this.axisSigns = axisSigns(this.joints, this.isSteering, robot);
  }

  step(throttle: number, steer: number, dt: number): void {
    this.stepPhysical(clampUnit(throttle) * this.maxSpeed, clampUnit(steer) * this.maxYawRate, dt);
  }

  stepPhysical(speed: number, yawRate: number, dt: number): void {
    const h = dt > 0 && Number.isFinite(dt) ? dt : 0;
    const v = Math.max(-this.maxSpeed, Math.min(this.maxSpeed, finiteOr0(speed)));
    const w = Math.max(-this.maxYawRate, Math.min(this.maxYawRate, finiteOr0(yawRate)));
    this.speed = approach(this.speed, v, this.maxAcc * h);
    this.yawRate = approach(this.yawRate, w, this.maxYawAcc * h);
    this.write();
  }

  private write(): void {
    skidSteerWheelSpeeds(this.wheels, this.speed, this.yawRate, this.spec.track, this.spec.wheelRadius);
    for (let i = 0; i < this.joints.length; i++) this.targetVelocity[i] = this.axisSigns[i] * (i < this.nLeft ? this.wheels[0] : this.wheels[1]);
  }

  reset(): void {
    this.speed = 0;
    this.yawRate = 0;
    this.write();
  }

  saveState(out: Float64Array, offset = 0): void {
    out[offset] = this.speed;
    out[offset + 1] = this.yawRate;
  }

  loadState(src: ArrayLike<number>, offset = 0): void {
    this.speed = finiteOr0(src[offset]);
    this.yawRate = finiteOr0(src[offset + 1]);
    this.write();
  }
}

class AckermannController implements DriveController {
  readonly joints: readonly string[];
  readonly targetVelocity: Float64Array;
  readonly targetAngle: Float64Array;
  readonly isSteering: Uint8Array;
  readonly axisSigns: Float64Array;
  speed = 0;
  steerAngle = 0;
  private readonly nLeft: number;
  private readonly nDrive: number;
  private readonly maxSpeed: number;
  private readonly maxAcc: number;
  /** [rad] Largest bicycle angle (inner wheel at spec.maxSteer). */
  readonly maxBicycleAngle: number;
  private readonly angles = new Float64Array(2);
  private readonly wheels = new Float64Array(2);

  constructor(readonly spec: Extract<ControllerSpec, { type: 'ackermann' }>, robot?: RobotSpec) {
    if (spec.driveLeft.length === 0 || spec.driveRight.length === 0) throw new Error('controller.driveLeft and controller.driveRight each need at least one joint');
    positive(spec.wheelRadius, 'wheelRadius');
    positive(spec.wheelbase, 'wheelbase');
    positive(spec.track, 'track');
    this.maxSpeed = positive(spec.maxSpeed, 'maxSpeed');
    if (!(spec.maxSteer > 0 && spec.maxSteer < Math.PI / 2)) throw new Error(`controller.maxSteer must be in (0, π/2) rad, got ${String(spec.maxSteer)}`);
    this.maxAcc = optionalLimit(spec.maxAcceleration, 'maxAcceleration');
    this.maxBicycleAngle = Math.atan(spec.wheelbase * ackermannMaxCurvature(spec.wheelbase, spec.track, spec.maxSteer));
    this.joints = [...spec.driveLeft, ...spec.driveRight, spec.steerLeft, spec.steerRight];
    this.nLeft = spec.driveLeft.length;
    this.nDrive = spec.driveLeft.length + spec.driveRight.length;
    this.targetVelocity = new Float64Array(this.joints.length);
    this.targetAngle = new Float64Array(this.joints.length);
    this.isSteering = new Uint8Array(this.joints.length);
    this.isSteering[this.nDrive] = 1;
    this.isSteering[this.nDrive + 1] = 1;
    this.axisSigns = axisSigns(this.joints, this.isSteering, robot);
  }

  get yawRate(): number {
    return (this.speed * Math.tan(this.steerAngle)) / this.spec.wheelbase;
  }

  step(throttle: number, steer: number, dt: number): void {
    this.stepPhysical(clampUnit(throttle) * this.maxSpeed, clampUnit(steer) * this.maxBicycleAngle, dt);
  }

  stepPhysical(speed: number, bicycleAngle: number, dt: number): void {
    const h = dt > 0 && Number.isFinite(dt) ? dt : 0;
    const v = Math.max(-this.maxSpeed, Math.min(this.maxSpeed, finiteOr0(speed)));
    this.speed = approach(this.speed, v, this.maxAcc * h);
    this.steerAngle = Math.max(-this.maxBicycleAngle, Math.min(this.maxBicycleAngle, finiteOr0(bicycleAngle)));
    this.write();
  }

  private write(): void {
    const s = this.spec;
    const kappa = Math.tan(this.steerAngle) / s.wheelbase;
    ackermannRearWheelSpeeds(this.wheels, this.speed, kappa, s.track, s.wheelRadius);
    for (let i = 0; i < this.nDrive; i++) this.targetVelocity[i] = this.axisSigns[i] * (i < this.nLeft ? this.wheels[0] : this.wheels[1]);
    ackermannSteeringAngles(this.angles, kappa, s.wheelbase, s.track);
    this.targetAngle[this.nDrive] = this.axisSigns[this.nDrive] * this.angles[0];
    this.targetAngle[this.nDrive + 1] = this.axisSigns[this.nDrive + 1] * this.angles[1];
  }

  reset(): void {
    this.speed = 0;
    this.steerAngle = 0;
    this.write();
  }

  saveState(out: Float64Array, offset = 0): void {
    out[offset] = this.speed;
    out[offset + 1] = this.steerAngle;
  }

  loadState(src: ArrayLike<number>, offset = 0): void {
    this.speed = finiteOr0(src[offset]);
    this.steerAngle = finiteOr0(src[offset + 1]);
    this.write();
  }
}

/**
 * The controller for a spec. Pass the robot so the targets follow each joint's axis direction
 * (otherwise every axis is assumed to point left / up). Throws an Error naming a bad field.
 */
export function createDriveController(spec: ControllerSpec, robot?: RobotSpec): DriveController {
  switch (spec.type) {
    case 'skid-steer':
    case 'differential':
      return new SkidSteerController(spec, robot);
    case 'ackermann':
      return new AckermannController(spec, robot);
    default:
      throw new Error(`controller.type must be "skid-steer", "differential" or "ackermann", got ${JSON.stringify((spec as { type: unknown }).type)}`);
  }
}
