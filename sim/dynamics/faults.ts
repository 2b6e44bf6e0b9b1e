/**
 * Faults: the checks after every step that stop the world rather than let it hold nonsense.
 *
 * - limit: a body's pose or velocity is non-finite, or past a named limit (speed, spin, distance
 *   from the origin), or a contact is deeper than FAULT_MAX_DEPTH. The step is undone from the
 *   motion backup taken at its start, so the world never holds NaN.
 * - left-terrain: a robot body's origin left the terrain's x, y extent. The step stands.
 *
 * Nothing here allocates unless a fault is found (then the message is built once).
 */
import type { BodyStore } from './bodies';
import { BodyKind } from './bodies';
import { FAULT_MAX_ANGULAR_SPEED, FAULT_MAX_COORDINATE, FAULT_MAX_DEPTH, FAULT_MAX_SPEED } from './constants';
import type { ContactStore } from './contacts';
import type { Heightfield } from '../terrain/heightfield';

/**
 * Why the world stopped: a body went non-finite or past a named limit (`limit`: the world is back
 * at the step's start), or a robot body's origin left the terrain's x, y extent (`left-terrain`:
 * the step stands; beyond the grid there is no ground, so the robot would only fall).
 */
export interface WorldFault {
  kind: 'limit' | 'left-terrain';
  step: number;
  body: string;
  reason: string;
  /** [m] left-terrain: the body origin's x, y after the step that left the terrain. */
  x?: number;
  y?: number;
}

/** The bodies' motion state at the start of a step (a limit fault restores it). */
export class MotionBackup {
  private readonly data: Float64Array;

  constructor(bodyCount: number) {
    this.data = new Float64Array(bodyCount * 13);
  }

  /** Copies the motion state (plain loops: no subarray view per step). */
  save(b: BodyStore): void {
    const n = b.count, out = this.data;
    const pos = b.pos, rot = b.rot, v = b.linVel, w = b.angVel;
    for (let k = 0; k < 3 * n; k++) out[k] = pos[k];
    for (let k = 0; k < 4 * n; k++) out[3 * n + k] = rot[k];
    for (let k = 0; k < 3 * n; k++) out[7 * n + k] = v[k];
    for (let k = 0; k < 3 * n; k++) out[10 * n + k] = w[k];
  }

  /** Puts the saved motion state back (and the world inertias that follow from it). */
  restore(b: BodyStore): void {
    const n = b.count, src = this.data;
    b.pos.set(src.subarray(0, 3 * n));
    b.rot.set(src.subarray(3 * n, 7 * n));
    b.linVel.set(src.subarray(7 * n, 10 * n));
    b.angVel.set(src.subarray(10 * n, 13 * n));
    for (let k = 0; k < n; k++) b.updateInertia(k);
  }
}

/**
 * The limit fault of step `step` (the step just taken), or null: the first body (in index order)
 * that is non-finite or past a limit, else the first contact deeper than FAULT_MAX_DEPTH. The
 * message says the world is paused at step − 1 (the caller restores the step's start).
 */
export function findLimitFault(bodies: BodyStore, contacts: ContactStore, step: number): WorldFault | null {
  let reason = '', body = -1;
  for (let b = 0; b < bodies.count && body < 0; b++) {
    if (bodies.kind[b] === BodyKind.Static) continue;
    const p = bodies.pos, v = bodies.linVel, w = bodies.angVel, q = bodies.rot;
    const sum = p[3 * b] + p[3 * b + 1] + p[3 * b + 2] + v[3 * b] + v[3 * b + 1] + v[3 * b + 2]
      + w[3 * b] + w[3 * b + 1] + w[3 * b + 2] + q[4 * b] + q[4 * b + 1] + q[4 * b + 2] + q[4 * b + 3];
    if (!Number.isFinite(sum)) {
      reason = 'its pose or velocity became non-finite (NaN or infinity)';
      body = b;
      break;
    }
    // squared norms: no Math.hypot (a variadic call that boxes its arguments) on the per-step path
    const speed2 = v[3 * b] * v[3 * b] + v[3 * b + 1] * v[3 * b + 1] + v[3 * b + 2] * v[3 * b + 2];
    const spin2 = w[3 * b] * w[3 * b] + w[3 * b + 1] * w[3 * b + 1] + w[3 * b + 2] * w[3 * b + 2];
    if (speed2 > FAULT_MAX_SPEED * FAULT_MAX_SPEED) { reason = `its speed ${Math.sqrt(speed2).toPrecision(4)} m/s exceeds ${FAULT_MAX_SPEED} m/s`; body = b; }
    else if (spin2 > FAULT_MAX_ANGULAR_SPEED * FAULT_MAX_ANGULAR_SPEED) { reason = `its angular speed ${Math.sqrt(spin2).toPrecision(4)} rad/s exceeds ${FAULT_MAX_ANGULAR_SPEED} rad/s`; body = b; }
    else if (Math.max(Math.abs(p[3 * b]), Math.abs(p[3 * b + 1]), Math.abs(p[3 * b + 2])) > FAULT_MAX_COORDINATE) {
      reason = `its position is farther than ${FAULT_MAX_COORDINATE} m from the origin`;
      body = b;
    }
  }
  if (body < 0) {
    const c = contacts;
    for (let i = 0; i < c.count; i++) {
      if (c.depth[i] > FAULT_MAX_DEPTH) {
        body = c.bodyA[i];
        reason = `a contact is ${c.depth[i].toFixed(3)} m deep (limit ${FAULT_MAX_DEPTH} m): the body is inside ${c.bodyB[i] < 0 ? 'the terrain' : `"${bodies.names[c.bodyB[i]]}"`}`;
        break;
      }
    }
  }
  if (body < 0) return null;
  const name = bodies.names[body];
  return { kind: 'limit', step, body: name, reason: `body "${name}" at step ${step}: ${reason}; the world is paused at step ${step - 1}` };
}

/**
 * The left-terrain fault after step `step`, or null: the first robot body whose origin is
 * outside the terrain's x, y extent (borders belong to the terrain). Past the edge there is no
 * ground: the robot would fall for minutes until a speed limit stopped it with a fault that no
 * longer says why. The step stands (its state is sound), so the world is paused at this step.
 */
export function findLeftTerrain(terrain: Heightfield | null, bodies: BodyStore, robotBodies: Int32Array, step: number): WorldFault | null {
  const t = terrain;
  if (t === null) return null;
  const rb = robotBodies, pos = bodies.pos;
  for (let k = 0; k < rb.length; k++) {
    const b = rb[k];
    const x = pos[3 * b], y = pos[3 * b + 1];
    if (t.contains(x, y)) continue;
    const name = bodies.names[b];
    const mm = (v: number) => String(+v.toFixed(3)); // [m] to the millimetre, no trailing zeros
    const x1 = t.x0 + t.cellsX * t.dx, y1 = t.y0 + t.cellsY * t.dy;
    return {
      kind: 'left-terrain', step, body: name, x, y,
      reason: `body "${name}" left the terrain at x ${x.toFixed(3)}, y ${y.toFixed(3)} m (step ${step}): the terrain spans x ${mm(t.x0)}..${mm(x1)} m, y ${mm(t.y0)}..${mm(y1)} m; the world is paused at step ${step}`,
    };
  }
  return null;
}
