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
 *   all-wheel-steer             "turn" mode: throttle → v, steer → ω (rate-limited as skid steer);
 *                               each wheel at (x, y) from the reference point moves at
 *                               (v − ω·y, ω·x) (allWheelSteerTargets): steered wheels point
 *                               along it, unsteered ones roll its forward part. steer alone
 *                               turns in place, both turn about the point (0, v/ω).
 *                               "crab" mode: steer → one steering angle for every steered
 *                               wheel, all rolling at v: the rover moves sideways, heading kept.
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
import { quatMultiply, quatRotateInverse } from '../../math/quat';
import type { Quat } from '../../math/quat';
import { ackermannMaxCurvature, ackermannRearWheelSpeeds, ackermannSteeringAngles, allWheelSteerTarget, approach, skidSteerWheelSpeeds } from './drive-kinematics';

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
 * Turns drive commands into joint motor targets for one robot (skid-steer, differential,
 * Ackermann or all-wheel steering), rate-limited; its state is part of the world's saved state.
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
 * The drive frame at the start pose: the base body's position, and its orientation turned by
 * `forwardYaw` about its z (ControllerSpec.forwardYaw), so that +x is the robot's forward.
 */
export function driveFrame(robot: RobotSpec, forwardYaw = 0): { q: Quat; p: readonly number[] } {
  const base = robot.bodies.find((b) => b.name === robot.base);
  const q = (base?.orientation ?? [0, 0, 0, 1]) as Quat;
  const p = base?.position ?? [0, 0, 0];
  if (forwardYaw === 0) return { q, p };
  const turn: Quat = [0, 0, Math.sin(forwardYaw / 2), Math.cos(forwardYaw / 2)];
  return { q: quatMultiply([0, 0, 0, 1], q, turn), p };
}

/**
 * Signs of the joints' axes against the drive frame's left (wheels) and up (steering) axes at
 * the start pose. Unknown joints (no robot given) keep +1.
 */
function axisSigns(joints: readonly string[], steering: Uint8Array, robot?: RobotSpec, forwardYaw = 0): Float64Array {
  const s = new Float64Array(joints.length).fill(1);
  if (!robot) return s;
  const { q } = driveFrame(robot, forwardYaw);
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
    this.axisSigns = axisSigns(this.joints, this.isSteering, robot, spec.forwardYaw);
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
    this.axisSigns = axisSigns(this.joints, this.isSteering, robot, spec.forwardYaw);
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

class AllWheelSteerController implements DriveController {
  readonly joints: readonly string[];
  readonly targetVelocity: Float64Array;
  readonly targetAngle: Float64Array;
  readonly isSteering: Uint8Array;
  readonly axisSigns: Float64Array;
  speed = 0;
  /** Turn mode: commanded yaw rate; crab mode: 0. */
  turn = 0;
  private readonly n: number;
  /** Wheel positions relative to the reference point [m], base frame. */
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  /** Index in `joints` of wheel i's steering joint, −1 for a fixed wheel. */
  private readonly steerOf: Int32Array;
  private readonly maxSpeed: number;
  /** [rad/s] Yaw rate at steer 1 in turn mode (given, or maxSpeed over the farthest wheel's distance). */
  readonly maxYawRate: number;
  private readonly maxAcc: number;
  private readonly maxYawAcc: number;
  private readonly crab: boolean;
  private readonly out = new Float64Array(2);

  constructor(readonly spec: Extract<ControllerSpec, { type: 'all-wheel-steer' }>, robot?: RobotSpec) {
    if (!Array.isArray(spec.wheels) || spec.wheels.length < 2) throw new Error('controller.wheels needs at least two wheels { drive, steer?, position? }');
    positive(spec.wheelRadius, 'wheelRadius');
    this.maxSpeed = positive(spec.maxSpeed, 'maxSpeed');
    if (!(spec.maxSteer > 0 && spec.maxSteer <= Math.PI / 2)) throw new Error(`controller.maxSteer must be in (0, π/2] rad, got ${String(spec.maxSteer)}`);
    if (spec.mode !== undefined && spec.mode !== 'turn' && spec.mode !== 'crab') throw new Error(`controller.mode must be "turn" or "crab", got ${JSON.stringify(spec.mode)}`);
    this.crab = spec.mode === 'crab';
    this.maxAcc = optionalLimit(spec.maxAcceleration, 'maxAcceleration');
    this.maxYawAcc = optionalLimit(spec.maxYawAcceleration, 'maxYawAcceleration');
    this.n = spec.wheels.length;
    const px: number[] = [], py: number[] = [];
    spec.wheels.forEach((w, i) => {
      const p = w.position ?? wheelPosition(w.drive, `controller.wheels[${i}]`, robot, spec.forwardYaw);
      if (!Array.isArray(p) || p.length !== 2 || !p.every(Number.isFinite)) throw new Error(`controller.wheels[${i}].position must be [x, y] in metres`);
      px.push(p[0]);
      py.push(p[1]);
    });
    if (!spec.wheels.some((w) => w.steer !== undefined)) throw new Error('controller.wheels: no wheel has a steering joint ("steer"); use a skid-steer controller');
    // reference point: the fixed wheels' mean position (their axles meet the turning point's
    // line), or every wheel's when all steer
    const fixed = spec.wheels.map((w, i) => (w.steer === undefined ? i : -1)).filter((i) => i >= 0);
    const ref = fixed.length > 0 ? fixed : spec.wheels.map((_, i) => i);
    const x0 = ref.reduce((a, i) => a + px[i], 0) / ref.length;
    const y0 = px.reduce((a, _, i) => a + py[i], 0) / px.length;
    this.x = Float64Array.from(px, (v) => v - x0);
    this.y = Float64Array.from(py, (v) => v - y0);
    // default yaw rate: turning in place at the speed limit of the farthest wheel
    const reach = Math.max(...spec.wheels.map((_, i) => Math.hypot(this.x[i], this.y[i])));
    this.maxYawRate = spec.maxYawRate === undefined ? spec.maxSpeed / Math.max(reach, 1e-3) : positive(spec.maxYawRate, 'maxYawRate');
    const steered = spec.wheels.filter((w) => w.steer !== undefined);
    this.joints = [...spec.wheels.map((w) => w.drive), ...steered.map((w) => w.steer as string)];
    this.steerOf = new Int32Array(this.n).fill(-1);
    let k = this.n;
    spec.wheels.forEach((w, i) => {
      if (w.steer !== undefined) this.steerOf[i] = k++;
    });
    this.targetVelocity = new Float64Array(this.joints.length);
    this.targetAngle = new Float64Array(this.joints.length);
    this.isSteering = new Uint8Array(this.joints.length);
    this.isSteering.fill(1, this.n);
    this.axisSigns = axisSigns(this.joints, this.isSteering, robot, spec.forwardYaw);
  }

  get yawRate(): number {
    return this.crab ? 0 : this.turn;
  }

  get steerAngle(): number {
    return this.crab ? this.turn : 0;
  }

  step(throttle: number, steer: number, dt: number): void {
    this.stepPhysical(clampUnit(throttle) * this.maxSpeed, clampUnit(steer) * (this.crab ? this.spec.maxSteer : this.maxYawRate), dt);
  }

  /** (v [m/s], ω [rad/s]) in turn mode; (v, crab angle [rad]) in crab mode. */
  stepPhysical(speed: number, turn: number, dt: number): void {
    const h = dt > 0 && Number.isFinite(dt) ? dt : 0;
    const v = Math.max(-this.maxSpeed, Math.min(this.maxSpeed, finiteOr0(speed)));
    this.speed = approach(this.speed, v, this.maxAcc * h);
    if (this.crab) this.turn = Math.max(-this.spec.maxSteer, Math.min(this.spec.maxSteer, finiteOr0(turn)));
    else this.turn = approach(this.turn, Math.max(-this.maxYawRate, Math.min(this.maxYawRate, finiteOr0(turn))), this.maxYawAcc * h);
    this.write();
  }

  private write(): void {
    const r = this.spec.wheelRadius, lim = this.spec.maxSteer, o = this.out;
    for (let i = 0; i < this.n; i++) {
      const s = this.steerOf[i];
      if (this.crab) {
        // every steered wheel at the crab angle rolling at v; a fixed wheel rolls v's forward part
        o[0] = s >= 0 ? this.turn : 0;
        o[1] = s >= 0 ? this.speed : this.speed * Math.cos(this.turn);
      } else {
        allWheelSteerTarget(o, this.speed, this.turn, this.x[i], this.y[i], s >= 0);
      }
      const angle = Math.max(-lim, Math.min(lim, o[0]));
      this.targetVelocity[i] = (this.axisSigns[i] * o[1]) / r;
      if (s >= 0) this.targetAngle[s] = this.axisSigns[s] * angle;
    }
  }

  reset(): void {
    this.speed = 0;
    this.turn = 0;
    this.write();
  }

  saveState(out: Float64Array, offset = 0): void {
    out[offset] = this.speed;
    out[offset + 1] = this.turn;
  }

  loadState(src: ArrayLike<number>, offset = 0): void {
    this.speed = finiteOr0(src[offset]);
    this.turn = finiteOr0(src[offset + 1]);
    this.write();
  }
}

/** [x, y] of a wheel joint's anchor in the drive frame at the start pose. */
function wheelPosition(joint: string, field: string, robot?: RobotSpec, forwardYaw = 0): [number, number] {
  if (!robot) throw new Error(`${field}.position is needed when no robot is given`);
  const j = robot.joints.find((x) => x.name === joint);
  if (!j) throw new Error(`${field}.drive: joint "${joint}" is not in robot "${robot.name}"`);
  const { q, p: bp } = driveFrame(robot, forwardYaw);
  const a = j.anchor ?? [0, 0, 0];
  const local: [number, number, number] = [0, 0, 0];
  quatRotateInverse(local, q, [a[0] - bp[0], a[1] - bp[1], a[2] - bp[2]]);
  return [local[0], local[1]];
}

/**
 * [rad/s] The yaw rate an all-wheel-steer controller turns at with steer 1 ("turn" mode): the
 * spec's maxYawRate, or maxSpeed over the distance of the wheel farthest from the reference point
 * (wheel positions from the robot when the spec gives none). A twist's ω maps to steer = ω / this.
 */
export function allWheelSteerMaxYawRate(spec: Extract<ControllerSpec, { type: 'all-wheel-steer' }>, robot?: RobotSpec): number {
  return new AllWheelSteerController(spec, robot).maxYawRate;
}

/**
 * The controller for a spec. Pass the robot so the targets follow each joint's axis direction
 * (otherwise every axis is assumed to point left / up). Throws an Error naming a bad field.
 */
export function createDriveController(spec: ControllerSpec, robot?: RobotSpec): DriveController {
  if (spec.forwardYaw !== undefined && !(Number.isFinite(spec.forwardYaw) && Math.abs(spec.forwardYaw) <= 2 * Math.PI)) {
    throw new Error(`controller.forwardYaw must be an angle in [−2π, 2π] rad, got ${String(spec.forwardYaw)}`);
  }
  switch (spec.type) {
    case 'skid-steer':
    case 'differential':
      return new SkidSteerController(spec, robot);
    case 'ackermann':
      return new AckermannController(spec, robot);
    case 'all-wheel-steer':
      return new AllWheelSteerController(spec, robot);
    default:
      throw new Error(`controller.type must be "skid-steer", "differential", "ackermann" or "all-wheel-steer", got ${JSON.stringify((spec as { type: unknown }).type)}`);
  }
}
