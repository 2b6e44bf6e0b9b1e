/**
 * The scripting form of the world (kept stable for users' scripts; README "Dynamics API"):
 * plain objects and [x, y, z] arrays in, plain objects out. The engine form is DynamicsWorld.
 */
import { BodyKind } from './bodies';
import type { DynamicsWorld, WorldFault } from './world';
import { CONTACT_KIND_BODY_PAIR, CONTACT_KIND_CONVEX_TERRAIN } from './frame-layout';
import { WHEEL_CONTACT_KIND_NAMES } from '../collision/contact';

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

export interface WorldState {
  /** [s] */
  time: number;
  step: number;
  bodies: BodyState[];
}

export type WorldContactKind = 'flat' | 'base' | 'side' | 'point' | 'edge' | 'terrain' | 'body';

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
