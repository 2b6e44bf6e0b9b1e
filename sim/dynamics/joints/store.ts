/**
 * Joint definitions (JointDef: kind, bodies, frames, limits, motor, spring, friction) and their
 * state (JointStore: motor targets and accumulated impulses, which are saved state; the
 * coordinates measured after each step; the sorted keys of jointed body pairs, whose contacts
 * are not generated). See index.ts for the frames and the row order.
 */
import { bodyPairKeySorted } from '../../collision/pair-key';
import type { Vec3 } from '../../math/vec3';

export const JointKind = { Revolute: 0, Fixed: 1, Prismatic: 2, Ball: 3 } as const;
export type JointKind = (typeof JointKind)[keyof typeof JointKind];
export const JOINT_KIND_NAMES = ['revolute', 'fixed', 'prismatic', 'ball'] as const;

/** Number of float64 slots of one joint's warm-start state (see JointStore.impulses). */
export const JOINT_IMPULSE_STRIDE = 12;
/**
 * Slots of one joint's JOINT_IMPULSE_STRIDE accumulated impulses: the point rows (3), the angular
 * rows (3; a revolute joint uses the first two as coefficients of p1, p2), the motor, the lower and
 * upper limits, the spring, and prismatic's two perpendicular rows.
 */
export const I_LIN = 0, I_ANG = 3, I_MOTOR = 6, I_LOWER = 7, I_UPPER = 8, I_SPRING = 9, I_PERP = 10;

/**
 * Number of float64 slots of one joint's frame (see JointStore.frames): what its rows need that
 * depends only on the bodies' poses and world inertias, computed once per pose (revolute.ts
 * prepareRevolute) instead of in every pass.
 */
export const JOINT_FRAME_STRIDE = 48;

export interface JointDef {
  kind: JointKind;
  name: string;
  bodyA: number;
  bodyB: number;
  /** Anchor and axis in each body's mass frame; perp ⟂ axis, also in both. */
  anchorA: Vec3;
  anchorB: Vec3;
  axisA: Vec3;
  axisB: Vec3;
  perpA: Vec3;
  /** q_A⁻¹·q_B at the start pose. */
  q0: [number, number, number, number];
  limits: [number, number] | null;
  motor: boolean;
  maxMotorEffort: number;
  stiffness: number;
  damping: number;
  restPosition: number;
  friction: number;
}

/**
 * A coupling row (URDF `<mimic>`): joint `follower`'s coordinate = multiplier · joint `leader`'s
 * + offset ([rad] or [m]); see mimic.ts.
 */
export interface JointCoupling {
  follower: number;
  leader: number;
  multiplier: number;
  offset: number;
}

export class JointStore {
  readonly defs: JointDef[] = [];
  /** Motor target velocities (state: the drive writes them). */
  motorTarget = new Float64Array(0);
  /** Accumulated impulses, JOINT_IMPULSE_STRIDE per joint (warm start; state). */
  impulses = new Float64Array(0);
  /**
   * Joint friction's impulse accumulated within the current substep (solve and relax stages share
   * one budget of friction·h; zeroed at each substep's warm start: not state).
   */
  frictionImpulse = new Float64Array(0);
  /**
   * The joints' frames at the bodies' current poses, JOINT_FRAME_STRIDE per joint (world arms and
   * axes, effective masses, position errors): derived, not state. prepareJoints (index.ts) fills
   * them whenever the poses change within a step (before the first substep's warm start, after
   * each position integration); the warm start and both solver passes read them.
   */
  frames = new Float64Array(0);
  /** Joint coordinate and its rate after the last step (report). */
  position = new Float64Array(0);
  velocity = new Float64Array(0);
  /** Sorted pair keys of jointed bodies (their contacts are not generated). */
  connectedKeys = new Float64Array(0);
  /** Coupling rows (mimic.ts), solved after every joint's own rows. */
  readonly couplings: JointCoupling[] = [];
  /** Accumulated impulse of each coupling row (warm start; state). */
  couplingImpulse = new Float64Array(0);

  get count(): number {
    return this.defs.length;
  }

  add(def: JointDef, motorTarget: number): number {
    this.defs.push(def);
    const n = this.defs.length;
    const grow = (a: Float64Array, stride: number) => {
      const b = new Float64Array(n * stride);
      b.set(a);
      return b;
    };
    this.motorTarget = grow(this.motorTarget, 1);
    this.impulses = grow(this.impulses, JOINT_IMPULSE_STRIDE);
    this.frictionImpulse = grow(this.frictionImpulse, 1);
    this.frames = grow(this.frames, JOINT_FRAME_STRIDE);
    this.position = grow(this.position, 1);
    this.velocity = grow(this.velocity, 1);
    this.motorTarget[n - 1] = motorTarget;
    const keys = Array.from(this.connectedKeys);
    keys.push(bodyPairKeySorted(def.bodyA, def.bodyB));
    keys.sort((x, y) => x - y);
    this.connectedKeys = Float64Array.from(keys);
    return n - 1;
  }

  /** Adds a coupling row between two joints already added (revolute or prismatic). */
  addCoupling(c: JointCoupling): number {
    this.couplings.push(c);
    const b = new Float64Array(this.couplings.length);
    b.set(this.couplingImpulse);
    this.couplingImpulse = b;
    return this.couplings.length - 1;
  }

  /** True if bodies a and b are joined (either order). */
  connected(a: number, b: number): boolean {
    const key = bodyPairKeySorted(a, b);
    const k = this.connectedKeys;
    let l = 0, r = k.length - 1;
    while (l <= r) {
      const m = (l + r) >> 1;
      if (k[m] === key) return true;
      if (k[m] < key) l = m + 1;
      else r = m - 1;
    }
    return false;
  }
}
