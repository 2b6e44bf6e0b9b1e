/**
 * The robot's drive inside the world: each step, the robot's drive controller
 * (sim/robot/controllers/drive-controller.ts: skid steer / differential / Ackermann, with
 * acceleration limits and per-joint axis signs) turns the normalised command {throttle, steer}
 * into motor targets: wheel joints get the target velocity; steering joints, which the
 * controller gives an angle, follow it through their motor with a proportional loop
 * (steeringMotorVelocity). The controller's state (rate-limited speed and turn) lives in a
 * Float64Array that the world saves with its state.
 */
import type { BodyStore } from './bodies';
import type { JointStore } from './joints';
import type { ControllerSpec, RobotSpec } from './spec';
import { createDriveController, DRIVE_CONTROLLER_STATE_SIZE } from '../robot/controllers/drive-controller';
import { steeringMotorVelocity } from '../robot/controllers/drive-kinematics';

/** [1/s] Proportional gain of the steering joints' angle loop. */
export const STEERING_GAIN = 20;
/** [rad/s] Fastest steering joint rate. */
export const STEERING_MAX_RATE = 6;

export interface DriveController {
  /** Joint indices the controller writes (woken by a command). */
  readonly joints: readonly number[];
  /** Saved with the world. */
  readonly state: Float64Array;
  update(cmd: { throttle: number; steer: number }, dt: number, joints: JointStore, bodies: BodyStore): void;
}

export function createController(
  spec: ControllerSpec, robot: RobotSpec, jointIndex: (name: string, field: string) => number,
): DriveController {
  const ctl = createDriveController(spec, robot);
  const indices = ctl.joints.map((name, k) => jointIndex(name, `controller joint ${k}`));
  const state = new Float64Array(DRIVE_CONTROLLER_STATE_SIZE);
  return {
    joints: indices,
    state,
    update(cmd, dt, joints) {
      ctl.loadState(state);
      ctl.step(cmd.throttle, cmd.steer, dt);
      ctl.saveState(state);
      for (let i = 0; i < indices.length; i++) {
        const j = indices[i];
        joints.motorTarget[j] = ctl.isSteering[i]
          ? steeringMotorVelocity(joints.position[j], ctl.targetAngle[i], STEERING_GAIN, STEERING_MAX_RATE)
          : ctl.targetVelocity[i];
      }
    },
  };
}
