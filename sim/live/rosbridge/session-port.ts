/**
 * What the rosbridge server needs of a live session: the narrow, protocol-free surface of
 * `LiveSession` (sim/live/session.ts) it is written against. `LiveSession` satisfies it as it is;
 * tests may pass anything else that does.
 */

/** A body of the world as the server names it in /tf. */
export interface PortBody {
  name: string;
  /** 'chassis' | 'wheel' | 'static' | 'obstacle' */
  role: string;
}

/** A joint of the world. */
export interface PortJoint {
  name: string;
  /** 'revolute' | 'fixed' | 'prismatic' | 'ball' */
  type: string;
  motor: boolean;
  /** The drive controller writes its motor target every step (not commandable per joint). */
  controlled: boolean;
}

/** The fixed description of the session's world. */
export interface PortInfo {
  scenarioName: string;
  /** [s] */
  dt: number;
  lockstep: boolean;
  bodies: readonly PortBody[];
  joints: readonly PortJoint[];
  /** The robot's base body (−1: none). */
  baseBody: number;
}

/** The state after a step batch (arrays valid only during the listener call). */
export interface PortState {
  step: number;
  /** [s] */
  time: number;
  batchSteps: number;
  running: boolean;
  fault: string | null;
  frame: {
    bodyCount: number;
    contactCount: number;
    /** 7 per body (frame-layout.ts POSE_STRIDE). */
    poses: Float64Array;
    /** 6 per body. */
    velocities: Float64Array;
    /** CONTACT_STRIDE per contact. */
    contacts: Float64Array;
    /** CONTACT_INFO_STRIDE per contact. */
    contactInfo: Int32Array;
  };
  jointPosition: Float64Array;
  jointVelocity: Float64Array;
  stateHash(): string;
}

/** The session as the rosbridge server drives it. */
export interface RosbridgeSessionPort {
  readonly lockstep: boolean;
  readonly isRunning: boolean;
  info(): PortInfo;
  /** The state now (the same object listeners get; valid until the next batch). */
  current(): PortState;
  /** Called after every step batch, and once soon after subscribing; returns the unsubscriber. */
  subscribe(listener: (s: PortState) => void): () => void;
  pause(): void;
  resume(): void;
  /** Runs n steps after any batch in progress; resolves to the step count. */
  step(n: number): Promise<number>;
  reset(): Promise<unknown>;
  /** Forward speed [m/s] and yaw rate [rad/s] through the robot's controller; throws naming what is wrong. */
  setTwist(linear: number, angular: number): unknown;
  /** A joint's motor target velocity; throws naming what is wrong. */
  setJointVelocity(joint: string, velocity: number): void;
}
