/**
 * The scripting form of the world (kept stable for users' scripts; docs/library.md, "Dynamics API"):
 * plain objects and [x, y, z] arrays in, plain objects out. The engine form is DynamicsWorld.
 *
 * Two ways to read bodies:
 *   - `state()` / `contacts()`: every body (or contact) as plain objects, a new object graph per
 *     call: convenient for a look now and then, wasteful in a loop that polls every step;
 *   - `bodyIndex(name)` once, then `readPose(index, out)` / `readVelocity(index, out)` every
 *     step: they fill the caller's Float64Array and allocate nothing (checked by a test).
 */
import { BodyKind } from './bodies';
import type { DynamicsWorld, WorldFault } from './world';
import { CONTACT_KIND_BODY_PAIR, CONTACT_KIND_CONVEX_TERRAIN, POSE_STRIDE, VELOCITY_STRIDE } from './frame-layout';
import { bodyPoseInto, bodyVelocityInto } from './report';
import { WHEEL_CONTACT_KIND_NAMES } from '../collision/contact';

/** One body's state in `PlainWorld.state()`. */
export interface BodyState {
  name: string;
  /** Body frame origin [m] and orientation [x, y, z, w]. */
  position: [number, number, number];
  orientation: [number, number, number, number];
  /** Origin velocity [m/s] and angular velocity [rad/s], world frame. */
  linearVelocity: [number, number, number];
  angularVelocity: [number, number, number];
  sleeping: boolean;
}

/** The whole world's state in `PlainWorld.state()`: time, step and every body. */
export interface WorldState {
  /** [s] */
  time: number;
  step: number;
  bodies: BodyState[];
}

/**
 * What produced a contact: a wheel case of the cylinder–terrain algorithm (`flat`, `base`, `side`,
 * `point`, `edge`), another shape on the terrain (`terrain`) or two bodies (`body`).
 */
export type WorldContactKind = 'flat' | 'base' | 'side' | 'point' | 'edge' | 'terrain' | 'body';

/** One contact of the last step in `PlainWorld.contacts()`. */
export interface WorldContact {
  /** On B's surface (the terrain for wheels) [m]. */
  point: [number, number, number];
  /** Unit, from B into A. */
  normal: [number, number, number];
  /** [m] ≥ 0 when touching; negative for a speculative contact (a gap). */
  depth: number;
  /** Wheel cases (flat/base/side/point/edge), other shape on the terrain, or body–body. */
  kind: WorldContactKind;
  bodyA: string;
  /** "terrain" or a body name. */
  bodyB: string;
  /** [N·s] Normal impulse of the last step (divide by dt for the force). */
  impulse: number;
  /** [N·s] Friction impulse magnitude of the last step. */
  frictionImpulse: number;
  /** Terrain cell [i, j], or null for body–body contacts. */
  cell: [number, number] | null;
}

export function contactKindName(kind: number): WorldContactKind {
  if (kind === CONTACT_KIND_CONVEX_TERRAIN) return 'terrain';
  if (kind === CONTACT_KIND_BODY_PAIR) return 'body';
  return (WHEEL_CONTACT_KIND_NAMES[kind] ?? 'terrain') as WorldContactKind;
}

/**
 * The scripting form of the dynamics world, returned by `createWorld`: plain objects in and out,
 * kept stable for scripts; `engine` is the allocation-free `DynamicsWorld` underneath.
 */
export class PlainWorld {
  readonly engine: DynamicsWorld;

  constructor(engine: DynamicsWorld) {
    this.engine = engine;
  }

  /** Advances n fixed steps (an integer 0..10⁷). Stops at a fault (see `fault`). */
  step(n = 1): void {
    if (!Number.isInteger(n) || n < 0 || n > 1e7) throw new Error(`step: n must be an integer 0..10000000, got ${String(n)}`);
    this.engine.step(n);
  }

  /** Drive command { throttle, steer } in [−1, 1] (clamped); takes over from the scenario's script. */
  setDrive(command: { throttle: number; steer: number }): void {
    if (command === null || typeof command !== 'object') throw new Error('setDrive: expected { throttle, steer }');
    this.engine.setDrive(Number(command.throttle), Number(command.steer));
  }

  setMotor(jointName: string, targetVelocity: number): void {
    this.engine.setMotor(jointName, targetVelocity);
  }

  /**
   * Index of the body called `name` (for readPose / readVelocity; stable for the world's life).
   * Throws naming the bodies there are when there is none.
   */
  bodyIndex(name: string): number {
    const names = this.engine.bodies.names;
    const k = names.indexOf(name);
    if (k < 0) {
      const list = names.slice(0, 20).map((n) => JSON.stringify(n)).join(', ') + (names.length > 20 ? `, … (${names.length} bodies)` : '');
      throw new Error(`bodyIndex: no body named ${JSON.stringify(name)}; the bodies are ${list}`);
    }
    return k;
  }

  /**
   * Pose of body `index` into `out` (at least 7 numbers): body frame origin [m] then orientation
   * quaternion [x, y, z, w], world frame, z up. The same numbers as state() and the frames, with
   * no allocation: poll it every step. Returns out.
   */
  readPose(index: number, out: Float64Array): Float64Array {
    this.checkRead('readPose', index, out, POSE_STRIDE);
    return bodyPoseInto(out, index, this.engine.bodies);
  }

  /**
   * Velocity of body `index` into `out` (at least 6 numbers): the body origin's linear velocity
   * [m/s] then the angular velocity [rad/s], world frame. Allocates nothing. Returns out.
   */
  readVelocity(index: number, out: Float64Array): Float64Array {
    this.checkRead('readVelocity', index, out, VELOCITY_STRIDE);
    return bodyVelocityInto(out, index, this.engine.bodies);
  }

  private checkRead(what: string, index: number, out: Float64Array, size: number): void {
    const n = this.engine.bodies.count;
    if (!(Number.isInteger(index) && index >= 0 && index < n)) throw new Error(`${what}: index must be a body index 0..${n - 1} (bodyIndex(name) gives it), got ${String(index)}`);
    if (!(out instanceof Float64Array) || out.length < size) throw new Error(`${what}: out must be a Float64Array of at least ${size} numbers`);
  }

  /**
   * Every body as plain objects (name, pose, velocities, sleeping): builds a new object graph per
   * call. To poll a few bodies every step, use bodyIndex + readPose / readVelocity instead.
   */
  state(): WorldState {
    const w = this.engine, b = w.bodies;
    const f = w.frame();
    const bodies: BodyState[] = [];
    for (let i = 0; i < b.count; i++) {
      const p = 7 * i, v = 6 * i;
      bodies.push({
        name: b.names[i],
        position: [f.poses[p], f.poses[p + 1], f.poses[p + 2]],
        orientation: [f.poses[p + 3], f.poses[p + 4], f.poses[p + 5], f.poses[p + 6]],
        linearVelocity: [f.velocities[v], f.velocities[v + 1], f.velocities[v + 2]],
        angularVelocity: [f.velocities[v + 3], f.velocities[v + 4], f.velocities[v + 5]],
        sleeping: b.kind[i] === BodyKind.Dynamic && !b.awake[i],
      });
    }
    return { time: w.time, step: w.stepCount, bodies };
  }

  contacts(): WorldContact[] {
    const w = this.engine, c = w.contacts, names = w.bodies.names;
    const out: WorldContact[] = [];
    for (let i = 0; i < c.count; i++) {
      const p = 3 * i;
      out.push({
        point: [c.point[p], c.point[p + 1], c.point[p + 2]],
        normal: [c.normal[p], c.normal[p + 1], c.normal[p + 2]],
        depth: c.depth[i],
        kind: contactKindName(c.kind[i]),
        bodyA: names[c.bodyA[i]],
        bodyB: c.bodyB[i] < 0 ? 'terrain' : names[c.bodyB[i]],
        impulse: c.normalImpulse[i] * w.substeps,
        frictionImpulse: Math.hypot(c.t1Impulse[i], c.t2Impulse[i]) * w.substeps,
        cell: c.bodyB[i] < 0 ? [c.cellI[i], c.cellJ[i]] : null,
      });
    }
    return out;
  }

  saveState(): Float64Array {
    return this.engine.saveState();
  }

  restoreState(saved: Float64Array): void {
    this.engine.restoreState(saved);
  }

  stateHash(): string {
    return this.engine.stateHash();
  }

  /** Why the world paused (a body went non-finite or past a limit), or null. */
  get fault(): WorldFault | null {
    return this.engine.fault;
  }
}
