/**
 * Sleeping by islands (Box2D v3's rule, with a drift test): dynamic bodies joined by a joint or
 * a contact (with each other, not with static bodies or the terrain) form an island; when every
 * body of an island has been still for TIME_TO_SLEEP it sleeps as one, and waking any body of a
 * sleeping island wakes all of it. A body driven by a motor never sleeps.
 *
 * The islands are found afresh after every step by union–find over the joints and this step's
 * contacts; the smaller body index is always the root, so the same islands get the same
 * representative on every run (the representative of a sleeping body is saved state).
 */
import type { BodyStore } from './bodies';
import { BodyKind } from './bodies';
import { SLEEP_DRIFT, SLEEP_SPEED, TIME_TO_SLEEP } from './constants';
import type { ContactStore } from './contacts';
import type { JointStore } from './joints';

export class SleepIslands {
  /** Island representative of each sleeping body (−1 when awake or static); saved state. */
  readonly island: Int32Array;
  /** Union–find parents (rebuilt every update). */
  private readonly parent: Int32Array;
  /** Per island root: the least sleep time of its bodies. */
  private readonly minSleep: Float64Array;

  constructor(bodyCount: number) {
    this.island = new Int32Array(bodyCount).fill(-1);
    this.parent = new Int32Array(bodyCount);
    this.minSleep = new Float64Array(bodyCount);
  }

  /** Wakes body b and every body of its island. */
  wake(bodies: BodyStore, b: number): void {
    if (b >= bodies.count || bodies.kind[b] !== BodyKind.Dynamic || bodies.awake[b]) return;
    const island = this.island;
    const rep = island[b];
    for (let k = 0; k < bodies.count; k++) {
      if (island[k] === rep && !bodies.awake[k]) {
        bodies.awake[k] = 1;
        bodies.sleepTime[k] = 0;
        resetSleepAnchor(bodies, k);
        island[k] = -1;
      }
    }
  }

  /**
   * After a step: advances every awake dynamic body's sleep timer (or resets it when the body
   * moves and has drifted from its sleep anchor), joins islands, and puts to sleep every island
   * whose bodies have all been still for TIME_TO_SLEEP.
   */
  update(bodies: BodyStore, joints: JointStore, contacts: ContactStore, dt: number): void {
    const n = bodies.count;
    const parent = this.parent;
    const still2 = SLEEP_SPEED * SLEEP_SPEED, drift2 = SLEEP_DRIFT * SLEEP_DRIFT;
    const pos = bodies.pos, rot = bodies.rot, ap = bodies.sleepPos, aq = bodies.sleepRot;
    for (let b = 0; b < n; b++) {
      parent[b] = b;
      if (bodies.kind[b] !== BodyKind.Dynamic || !bodies.awake[b]) continue;
      const v = bodies.linVel, w = bodies.angVel, r = bodies.boundRadius[b];
      const vv = v[3 * b] ** 2 + v[3 * b + 1] ** 2 + v[3 * b + 2] ** 2;
      const ww = (w[3 * b] ** 2 + w[3 * b + 1] ** 2 + w[3 * b + 2] ** 2) * r * r;
      const moving = vv > still2 || ww > still2;
      // drift from the sleep anchor: centre displacement, and r·θ with θ the rotation angle
      // (sin²(θ/2) = 1 − (q·q_anchor)², θ ≈ 2 sin(θ/2) at these small angles)
      const dx = pos[3 * b] - ap[3 * b], dy = pos[3 * b + 1] - ap[3 * b + 1], dz = pos[3 * b + 2] - ap[3 * b + 2];
      const dot = rot[4 * b] * aq[4 * b] + rot[4 * b + 1] * aq[4 * b + 1] + rot[4 * b + 2] * aq[4 * b + 2] + rot[4 * b + 3] * aq[4 * b + 3];
      const drifted = dx * dx + dy * dy + dz * dz > drift2 || 4 * (1 - dot * dot) * r * r > drift2;
      if (drifted) {
        ap[3 * b] = pos[3 * b]; ap[3 * b + 1] = pos[3 * b + 1]; ap[3 * b + 2] = pos[3 * b + 2];
        aq[4 * b] = rot[4 * b]; aq[4 * b + 1] = rot[4 * b + 1]; aq[4 * b + 2] = rot[4 * b + 2]; aq[4 * b + 3] = rot[4 * b + 3];
      }
      // still: slow (Box2D v3's rule) or jittering in place
      bodies.sleepTime[b] = moving && drifted ? 0 : bodies.sleepTime[b] + dt;
    }
    for (let j = 0; j < joints.count; j++) {
      const d = joints.defs[j];
      if (d.motor && joints.motorTarget[j] !== 0) {
        if (d.bodyA < n) bodies.sleepTime[d.bodyA] = 0;
        if (d.bodyB < n) bodies.sleepTime[d.bodyB] = 0;
      }
      if (d.bodyA < n && d.bodyB < n) this.union(d.bodyA, d.bodyB);
    }
    // a coupling (mimic) joins the follower's and the leader's bodies
    for (let i = 0; i < joints.couplings.length; i++) {
      const c = joints.couplings[i];
      const f = joints.defs[c.follower], l = joints.defs[c.leader];
      if (f.bodyB < n && l.bodyB < n) this.union(f.bodyB, l.bodyB);
    }
    const c = contacts;
    for (let i = 0; i < c.count; i++) {
      const a = c.bodyA[i], b = c.bodyB[i];
      if (b < 0 || bodies.kind[a] !== BodyKind.Dynamic || bodies.kind[b] !== BodyKind.Dynamic) continue;
      this.union(a, b);
    }
    const minSleep = this.minSleep;
    minSleep.fill(Infinity);
    for (let b = 0; b < n; b++) {
      if (bodies.kind[b] !== BodyKind.Dynamic) continue;
      const r = this.find(b);
      // a sleeping body in an awake island (touched this step) counts as awake
      const t = bodies.awake[b] ? bodies.sleepTime[b] : 0;
      if (t < minSleep[r]) minSleep[r] = t;
    }
    for (let b = 0; b < n; b++) {
      if (bodies.kind[b] !== BodyKind.Dynamic || !bodies.awake[b]) continue;
      const r = this.find(b);
      if (minSleep[r] >= TIME_TO_SLEEP) {
        bodies.awake[b] = 0;
        this.island[b] = r;
        bodies.linVel.fill(0, 3 * b, 3 * b + 3);
        bodies.angVel.fill(0, 3 * b, 3 * b + 3);
      }
    }
  }

  private find(b: number): number {
    const p = this.parent;
    while (p[b] !== b) {
      p[b] = p[p[b]];
      b = p[b];
    }
    return b;
  }

  private union(a: number, b: number): void {
    const ra = this.find(a), rb = this.find(b);
    if (ra === rb) return;
    // the smaller index is the root: the same islands get the same representative every run
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
  }
}

/** The body's sleep anchor becomes its current pose. */
export function resetSleepAnchor(bodies: BodyStore, b: number): void {
  for (let k = 0; k < 3; k++) bodies.sleepPos[3 * b + k] = bodies.pos[3 * b + k];
  for (let k = 0; k < 4; k++) bodies.sleepRot[4 * b + k] = bodies.rot[4 * b + k];
}
