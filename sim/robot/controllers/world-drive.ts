/**
 * The robot layer's implementation of the world's drive contract (sim/dynamics/drive.ts): each
 * step the robot's drive controller (drive-controller.ts: skid steer / differential / Ackermann,
 * with acceleration limits and per-joint axis signs) turns the normalised command
 * {throttle, steer} into motor targets: wheel joints get the target velocity; steering joints,
 * which the controller gives an angle, follow it through their motor with a proportional loop
 * (steeringMotorVelocity). Pass `robotDriveController` to createDynamicsWorld.
 */
import type { DriveControllerFactory } from '../../dynamics/drive';
import { createDriveController, DRIVE_CONTROLLER_STATE_SIZE } from './drive-controller';
import { steeringMotorVelocity } from './drive-kinematics';

/** [1/s] Proportional gain of the steering joints' angle loop. */
export const STEERING_GAIN = 20;
/** [rad/s] Fastest steering joint rate. */
export const STEERING_MAX_RATE = 6;

/** The robot layer's drive controllers as the world's `DriveControllerFactory`: pass it to `createDynamicsWorld`. */
export const robotDriveController: DriveControllerFactory = (spec, robot, jointIndex) => {
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
};
