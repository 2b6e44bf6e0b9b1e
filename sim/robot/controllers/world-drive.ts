/**
 * The robot layer's implementation of the world's drive contract (sim/dynamics/drive.ts): each
 * step the robot's drive controller (drive-controller.ts: skid steer / differential / Ackermann /
 * all-wheel steering, with acceleration limits and per-joint axis signs) turns the normalised
 * command {throttle, steer} into motor targets: wheel joints get the target velocity; steering
 * joints, which the controller gives an angle, follow it through their motor with a
 * proportional loop (steeringMotorVelocity). The robot's servos (RobotSpec.servos: URDF position
 * interfaces, a scenario's `hold`) run the same loop toward their fixed targets, each clamped to
 * its own velocity limit. Pass `robotDriveController` to createDynamicsWorld.
 */
import type { DriveControllerFactory } from '../../dynamics/drive';
import { createDriveController, DRIVE_CONTROLLER_STATE_SIZE } from './drive-controller';
import { steeringMotorVelocity } from './drive-kinematics';

/** [1/s] Proportional gain of the steering joints' and servos' angle loop. */
export const STEERING_GAIN = 20;
/** [rad/s] Fastest steering joint rate (and a servo's when its joint gives no velocity limit). */
export const STEERING_MAX_RATE = 6;

/** The robot layer's drive controllers as the world's `DriveControllerFactory`: pass it to `createDynamicsWorld`. */
export const robotDriveController: DriveControllerFactory = (spec, robot, jointIndex) => {
  const ctl = spec ? createDriveController(spec, robot) : null;
  const indices = ctl ? ctl.joints.map((name, k) => jointIndex(name, `controller joint ${k}`)) : [];
  const driven = new Set(indices);
  // a joint the drive commands is the drive's, not a servo's
  const servos = (robot.servos ?? []).filter((s) => !driven.has(jointIndex(s.joint, 'servos')));
  const servoJoints = Int32Array.from(servos, (s, k) => jointIndex(s.joint, `servos[${k}]`));
  const servoTarget = Float64Array.from(servos, (s, k) => {
    if (!Number.isFinite(s.target)) throw new Error(`robot.servos[${k}].target must be a finite number, got ${String(s.target)}`);
    return s.target;
  });
  const servoRate = Float64Array.from(servos, (s, k) => {
    const r = s.maxVelocity ?? STEERING_MAX_RATE;
    if (!(r > 0 && Number.isFinite(r))) throw new Error(`robot.servos[${k}].maxVelocity must be a positive number, got ${String(s.maxVelocity)}`);
    return r;
  });
  const state = new Float64Array(ctl ? DRIVE_CONTROLLER_STATE_SIZE : 0);
  return {
    joints: [...indices, ...servoJoints],
    state,
    update(cmd, dt, joints) {
      if (ctl) {
        ctl.loadState(state);
        ctl.step(cmd.throttle, cmd.steer, dt);
        ctl.saveState(state);
        for (let i = 0; i < indices.length; i++) {
          const j = indices[i];
          joints.motorTarget[j] = ctl.isSteering[i]
            ? steeringMotorVelocity(joints.position[j], ctl.targetAngle[i], STEERING_GAIN, STEERING_MAX_RATE)
            : ctl.targetVelocity[i];
        }
      }
      for (let i = 0; i < servoJoints.length; i++) {
        const j = servoJoints[i];
        joints.motorTarget[j] = steeringMotorVelocity(joints.position[j], servoTarget[i], STEERING_GAIN, servoRate[i]);
      }
    },
  };
};
