/**
 * A driven variant of the standard vehicle scene for long runs (the recording bench): the same
 * bodies, terrain and rocks as vehicleSceneWorldSpec, with the rover's bodies and joints moved
 * into a robot whose skid-steer controller turns setDrive(throttle, steer) into motor targets,
 * and a driver that keeps the rover on a circle inside the 513² map for as long as it runs.
 *
 * The plain scene holds every motor at its target from the start, so the rover drives straight
 * and leaves the 25.6 m map after about 20 s. Here the drive goes through world.setDrive (a
 * recorded input), so a recording replays and seeks exactly.
 *
 * Circle follower (CircleDriver): the circle's centre C and radius R, counter-clockwise. At the
 * rover's position p (chassis origin) with yaw ψ:
 *   φ = atan2(p − C), radial error e = |p − C| − R (outside > 0),
 *   desired heading ψ* = φ + π/2 + atan(K_RADIAL · e)   (tangent, tilted inward when outside),
 *   yaw rate ω = v / R + K_HEADING · wrap(ψ* − ψ),  steer = ω / maxYawRate,
 * updated every DRIVE_UPDATE_STEPS steps and quantised to 1/STEER_LEVELS, so the recording holds
 * a few inputs per second at most (only changes are sent).
 *
 *        y ^            default circle: centre C = origin, R = CIRCLE_RADIUS (5 m), inside the
 *          |   .-'''-.  ±12.8 m map with 7 m to spare; the rover starts 1 m inside it at
 *          |  /       \  (−4, 0) heading +x, joins it and drives it counter-clockwise.
 *      ----|-(----C----)----> x
 *          |  \       /
 *          |   '-._.-'
 *
 * Radius and centre were chosen by trial on this seeded map: smaller circles and circles round
 * other centres run the rover onto a curb or plateau edge it cannot turn on.
 */
import type { ControllerSpec, WorldSpec } from '../../../sim/dynamics/spec';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import { vehicleSceneWorldSpec, wheelLayout, type VehicleScene, type VehicleWorldOptions, type WheelCount } from './scene';

/** [m] Radius of the driven circle round the origin. */
export const CIRCLE_RADIUS = 5;
/** [m/s] Rover speed at throttle 1: the plain scene's motor target (5 rad/s) × wheel radius (0.15 m). */
export const DRIVE_MAX_SPEED = 0.75;
/** [N·m] Wheel motor torque limit (the plain scene's). */
export const DRIVE_MAX_TORQUE = 20;
/** [m] Distance between left and right wheel centres (2 × WHEEL_Y). */
export const DRIVE_TRACK = 0.72;
/** [rad/s] yaw rate at steer 1. */
export const DRIVE_MAX_YAW_RATE = 1;
/** [rad/m] How strongly a radial error turns the desired heading inward. */
export const K_RADIAL = 0.5;
/** [1/s] Yaw-rate gain on the heading error. */
export const K_HEADING = 1.5;
/** Steps between driver updates (1/16 s at 240 Hz). */
export const DRIVE_UPDATE_STEPS = 15;
/** Steer is quantised to 1/STEER_LEVELS. */
export const STEER_LEVELS = 50;

/** The scene with the rover as a skid-steer robot (bodies: rocks first, then chassis and wheels). */
export function vehicleSceneDrivenSpec(scene: VehicleScene, wheels: WheelCount, opts: VehicleWorldOptions = {}): WorldSpec {
  const plain = vehicleSceneWorldSpec(scene, wheels, opts);
  const layout = wheelLayout(wheels);
  const roverNames = new Set(['chassis', ...layout.map((w) => w.name)]);
  const controller: ControllerSpec = {
    type: 'skid-steer',
    left: layout.filter((w) => w.mount[1] > 0).map((w) => w.joint),
    right: layout.filter((w) => w.mount[1] < 0).map((w) => w.joint),
    wheelRadius: scene.wheel.radius,
    track: DRIVE_TRACK,
    maxSpeed: DRIVE_MAX_SPEED,
    maxYawRate: DRIVE_MAX_YAW_RATE,
    maxTorque: DRIVE_MAX_TORQUE,
  };
  return {
    ...plain,
    name: `${plain.name}-driven`,
    bodies: plain.bodies.filter((b) => !roverNames.has(b.name)),
    // The motors start at rest: the controller sets their targets from the first step on.
    joints: [],
    robot: {
      name: 'rover',
      base: 'chassis',
      bodies: plain.bodies.filter((b) => roverNames.has(b.name)),
      joints: plain.joints.map((j) => ({ ...j, motor: j.motor ? { ...j.motor, targetVelocity: 0 } : undefined })),
      controller,
    },
  };
}

function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/**
 * Keeps the rover on the circle: call `update(world)` before every step; it calls
 * `send(throttle, steer)` when the command changes (the caller passes it to the world and to
 * the recorder).
 */
export class CircleDriver {
  readonly cx: number;
  readonly cy: number;
  private readonly chassis: number;
  private throttle = NaN;
  private steer = NaN;
  private readonly o: [number, number, number] = [0, 0, 0];

  constructor(world: DynamicsWorld, readonly radius = CIRCLE_RADIUS, centre: [number, number] = [0, 0]) {
    this.cx = centre[0];
    this.cy = centre[1];
    this.chassis = world.bodies.names.indexOf('chassis');
    if (this.chassis < 0) throw new Error('CircleDriver: the world has no body named "chassis"');
  }

  update(world: DynamicsWorld, send: (throttle: number, steer: number) => void): void {
    if (world.stepCount % DRIVE_UPDATE_STEPS !== 0) return;
    const b = world.bodies;
    b.originOf(this.o, this.chassis);
    const q = b.rot.subarray(4 * this.chassis, 4 * this.chassis + 4);
    // yaw of the chassis x axis projected on the ground
    const fx = 1 - 2 * (q[1] * q[1] + q[2] * q[2]);
    const fy = 2 * (q[0] * q[1] + q[3] * q[2]);
    const yaw = Math.atan2(fy, fx);
    const dx = this.o[0] - this.cx;
    const dy = this.o[1] - this.cy;
    const phi = Math.atan2(dy, dx);
    const e = Math.hypot(dx, dy) - this.radius;
    const desired = phi + Math.PI / 2 + Math.atan(K_RADIAL * e);
    const omega = DRIVE_MAX_SPEED / this.radius + K_HEADING * wrapAngle(desired - yaw);
    const steer = Math.max(-1, Math.min(1, Math.round((omega / DRIVE_MAX_YAW_RATE) * STEER_LEVELS) / STEER_LEVELS));
    const throttle = 1;
    if (steer === this.steer && throttle === this.throttle) return;
    this.steer = steer;
    this.throttle = throttle;
    send(throttle, steer);
  }
}
