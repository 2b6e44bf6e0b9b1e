/**
 * Drive controllers: the robot's normalised command {throttle, steer} ∈ [−1, 1]² → wheel joint
 * motor targets, every step, with acceleration limits. State (the rate-limited commanded
 * motion) lives in a Float64Array so that it is saved with the world.
 *
 *   skid-steer / differential   v = throttle·v_max, ω = steer·ω_max (rate-limited);
 *                               left = (v − ω·T/2)/r, right = (v + ω·T/2)/r  [rad/s]
 *   ackermann                   v = throttle·v_max, steering angle δ = steer·δ_max (rate-limited)
 *                               turn radius R = L / tan δ (bicycle model about the rear axle);
 *                               inner/outer wheel angles atan(L/(R ∓ T/2)); rear wheel speeds
 *                               v·(R ∓ T/2)/R / r; steering joints follow their angle through
 *                               their motor with a proportional gain.
 */
import type { BodyStore } from './bodies';
import type { JointStore } from './joints';
import type { ControllerSpec } from './spec';

/** [1/s] Proportional gain of the steering joints' angle loop. */
const STEERING_GAIN = 20;
/** [rad/s] Fastest steering joint rate. */
const STEERING_MAX_RATE = 6;
/** Defaults when the controller spec gives none. */
const DEFAULT_MAX_ACCELERATION = 2; // m/s²
const DEFAULT_MAX_YAW_ACCELERATION = 6; // rad/s²
const DEFAULT_STEER_RATE = 2; // rad/s

export interface DriveController {
  /** Joint indices the controller writes (woken by a command). */
  readonly joints: readonly number[];
  /** Saved with the world: [commanded v, commanded ω or δ]. */
  readonly state: Float64Array;
  update(cmd: { throttle: number; steer: number }, dt: number, joints: JointStore, bodies: BodyStore): void;
}

function approach(current: number, target: number, maxDelta: number): number {
  if (target > current + maxDelta) return current + maxDelta;
  if (target < current - maxDelta) return current - maxDelta;
  return target;
}

export function createController(spec: ControllerSpec, jointIndex: (name: string, field: string) => number): DriveController {
  if (spec.type === 'ackermann') {
    const left = spec.driveLeft.map((n, k) => jointIndex(n, `controller.driveLeft[${k}]`));
    const right = spec.driveRight.map((n, k) => jointIndex(n, `controller.driveRight[${k}]`));
    const steerL = jointIndex(spec.steerLeft, 'controller.steerLeft');
    const steerR = jointIndex(spec.steerRight, 'controller.steerRight');
    const state = new Float64Array(2);
    const accel = spec.maxAcceleration ?? DEFAULT_MAX_ACCELERATION;
    return {
      joints: [...left, ...right, steerL, steerR],
      state,
      update(cmd, dt, joints) {
        state[0] = approach(state[0], cmd.throttle * spec.maxSpeed, accel * dt);
        state[1] = approach(state[1], cmd.steer * spec.maxSteer, DEFAULT_STEER_RATE * dt);
        const v = state[0], delta = state[1];
        const L = spec.wheelbase, T = spec.track;
        let wl = v / spec.wheelRadius, wr = wl, angL = 0, angR = 0;
        if (Math.abs(delta) > 1e-6) {
          const R = L / Math.tan(delta); // signed: > 0 turns left
          angL = Math.atan(L / (R - T / 2));
          angR = Math.atan(L / (R + T / 2));
          wl = (v * (R - T / 2)) / R / spec.wheelRadius;
          wr = (v * (R + T / 2)) / R / spec.wheelRadius;
        }
        for (const j of left) joints.motorTarget[j] = wl;
        for (const j of right) joints.motorTarget[j] = wr;
        joints.motorTarget[steerL] = Math.max(-STEERING_MAX_RATE, Math.min(STEERING_MAX_RATE, STEERING_GAIN * (angL - joints.position[steerL])));
        joints.motorTarget[steerR] = Math.max(-STEERING_MAX_RATE, Math.min(STEERING_MAX_RATE, STEERING_GAIN * (angR - joints.position[steerR])));
      },
    };
  }
  const left = spec.left.map((n, k) => jointIndex(n, `controller.left[${k}]`));
  const right = spec.right.map((n, k) => jointIndex(n, `controller.right[${k}]`));
  const state = new Float64Array(2);
  const maxYaw = spec.maxYawRate ?? (2 * spec.maxSpeed) / spec.track;
  const accel = spec.maxAcceleration ?? DEFAULT_MAX_ACCELERATION;
  const yawAccel = spec.maxYawAcceleration ?? DEFAULT_MAX_YAW_ACCELERATION;
  return {
    joints: [...left, ...right],
    state,
    update(cmd, dt, joints) {
      state[0] = approach(state[0], cmd.throttle * spec.maxSpeed, accel * dt);
      state[1] = approach(state[1], cmd.steer * maxYaw, yawAccel * dt);
      const half = spec.track / 2;
      const wl = (state[0] - state[1] * half) / spec.wheelRadius;
      const wr = (state[0] + state[1] * half) / spec.wheelRadius;
      for (const j of left) joints.motorTarget[j] = wl;
      for (const j of right) joints.motorTarget[j] = wr;
    },
  };
}
