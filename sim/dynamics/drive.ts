/**
 * The robot's drive as the world sees it: an interface, nothing more. Each step the world calls
 * `update` with the normalised command {throttle, steer}; the controller writes motor targets of
 * the joints it names. The controller's state (rate-limited speed and turn, …) lives in `state`,
 * a Float64Array the world saves and restores with its own state.
 *
 * The dynamics core defines this contract and never imports an implementation: the robot layer
 * implements it (sim/robot/controllers/world-drive.ts: skid steer / differential / Ackermann) and
 * whoever builds the world passes that factory to createDynamicsWorld (sim/dynamics/build.ts).
 */
import type { BodyStore } from './bodies';
import type { JointStore } from './joints';
import type { ControllerSpec, RobotSpec } from './spec';

/**
 * The world's drive contract: the joints a robot's controller drives and its saved state
 * (exported from sim/index.ts as `WorldDriveController`).
 */
export interface DriveController {
  /** Joint indices the controller writes (woken by a command). */
  readonly joints: readonly number[];
  /** Saved with the world; its length never changes. */
  readonly state: Float64Array;
  /** Writes motor targets of `joints` for the command; allocates nothing (called every step). */
  update(cmd: { throttle: number; steer: number }, dt: number, joints: JointStore, bodies: BodyStore): void;
}

/**
 * Builds the drive controller of a robot's `controller` spec and its `servos` (joints held at a
 * position); `spec` is undefined for a robot with servos only. `jointIndex(name, field)` returns
 * the index of the joint called `name` (a motorised joint), or throws an Error naming `field`.
 */
export type DriveControllerFactory = (
  spec: ControllerSpec | undefined, robot: RobotSpec, jointIndex: (name: string, field: string) => number,
) => DriveController;
