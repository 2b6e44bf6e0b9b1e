/**
 * The world's state: everything that affects the future, in one Float64Array, and its hash.
 *
 *   header (HEADER numbers: magic, body, joint and contact counts, step, drive, script cursor,
 *           script overridden, controller state length, coupling count, 1 spare)
 *   bodies   pos(3n) rot(4n) linVel(3n) angVel(3n) sleepTime(n) awake(n) island(n)
 *            sleepPos(3n) sleepRot(4n)                                   (BODY_STATE per body)
 *   joints   motorTarget(nj) impulses(JOINT_IMPULSE_STRIDE·nj)
 *   contacts per contact: key point normal impulses(5) kind cellI cellJ feature depth friction
 *            restitution rolling                                       (CONTACT_STATE numbers)
 *   controller state
 *   couplings  impulse(nm)          (URDF <mimic> rows; none: the layout is the one before them)
 *
 * The broad phase is not state: its pair set, sorted by body indices, is the same whatever its
 * tree looks like (every pair within the speculative distance overlaps in fattened boxes). The
 * contacts are the warm-start cache of the next step. The layout is the hash's: changing it
 * changes every state hash (test/scenarios/dynamics/golden-scene.ts).
 */
import { bodyPairA, bodyPairB } from '../collision/pair-key';
import { JOINT_IMPULSE_STRIDE } from './joints';
import type { DynamicsWorld } from './world';

export const WORLD_STATE_MAGIC = 0x54575331; // "TWS1"
const HEADER = 12;
const BODY_STATE = 3 + 4 + 3 + 3 + 3 + 7; // pos rot linVel angVel | sleepTime awake island | sleep anchor (pos, rot)
const CONTACT_STATE = 1 + 3 + 3 + 5 + 8; // key point normal impulses(5) kind cellI cellJ feature depth friction restitution rolling

/** The world's state in the layout above (a new array). */
export function saveWorldState(w: DynamicsWorld): Float64Array {
  const bodies = w.bodies, n = bodies.count, joints = w.joints, nj = joints.count;
  const c = w.contacts, nc = c.count;
  const ctl = w.controller ? w.controller.state : new Float64Array(0);
  const nm = joints.couplings.length;
  const size = HEADER + n * BODY_STATE + nj * (1 + JOINT_IMPULSE_STRIDE) + nc * CONTACT_STATE + ctl.length + nm;
  const s = new Float64Array(size);
  s[0] = WORLD_STATE_MAGIC;
  s[1] = n;
  s[2] = nj;
  s[3] = nc;
  s[4] = w.stepCount;
  s[5] = w.drive.throttle;
  s[6] = w.drive.steer;
  s[7] = w.scriptCursor;
  s[8] = w.scriptOverridden ? 1 : 0;
  s[9] = ctl.length;
  s[10] = nm;
  s[11] = 0;
  let o = HEADER;
  s.set(bodies.pos.subarray(0, 3 * n), o); o += 3 * n;
  s.set(bodies.rot.subarray(0, 4 * n), o); o += 4 * n;
  s.set(bodies.linVel.subarray(0, 3 * n), o); o += 3 * n;
  s.set(bodies.angVel.subarray(0, 3 * n), o); o += 3 * n;
  s.set(bodies.sleepTime.subarray(0, n), o); o += n;
  for (let b = 0; b < n; b++) s[o++] = bodies.awake[b];
  for (let b = 0; b < n; b++) s[o++] = w.island[b];
  s.set(bodies.sleepPos.subarray(0, 3 * n), o); o += 3 * n;
  s.set(bodies.sleepRot.subarray(0, 4 * n), o); o += 4 * n;
  s.set(joints.motorTarget, o); o += nj;
  s.set(joints.impulses, o); o += nj * JOINT_IMPULSE_STRIDE;
  for (let i = 0; i < nc; i++) {
    s[o++] = c.key[i];
    s[o++] = c.point[3 * i]; s[o++] = c.point[3 * i + 1]; s[o++] = c.point[3 * i + 2];
    s[o++] = c.normal[3 * i]; s[o++] = c.normal[3 * i + 1]; s[o++] = c.normal[3 * i + 2];
    s[o++] = c.normalImpulse[i]; s[o++] = c.t1Impulse[i]; s[o++] = c.t2Impulse[i];
    s[o++] = c.r1Impulse[i]; s[o++] = c.r2Impulse[i];
    s[o++] = c.kind[i]; s[o++] = c.cellI[i]; s[o++] = c.cellJ[i]; s[o++] = c.feature[i];
    s[o++] = c.depth[i]; s[o++] = c.friction[i]; s[o++] = c.restitution[i]; s[o++] = c.rolling[i];
  }
  s.set(ctl, o); o += ctl.length;
  s.set(joints.couplingImpulse, o);
  return s;
}

/**
 * Copies a state saved by saveWorldState() of a world built from the same spec into `w`'s
 * bodies, joints, islands, contacts (their carried-source marks cleared), drive, script cursor
 * and controller; throws on a mismatch before anything is copied (a failed restore changes
 * nothing). The caller re-derives what follows from the state (joint measures, fault, flags).
 */
export function restoreWorldState(w: DynamicsWorld, s: Float64Array): void {
  const bodies = w.bodies, n = bodies.count, joints = w.joints, nj = joints.count;
  if (!(s instanceof Float64Array) || s.length < HEADER || s[0] !== WORLD_STATE_MAGIC) throw new Error('restoreState: not a saved world state');
  if (s[1] !== n || s[2] !== nj) throw new Error(`restoreState: the state has ${s[1]} bodies and ${s[2]} joints, this world ${n} and ${nj}`);
  const nc = s[3], nctl = s[9];
  const ctl = w.controller ? w.controller.state : new Float64Array(0);
  if (nctl !== ctl.length) throw new Error('restoreState: the drive controller differs from this world\'s');
  const nm = joints.couplings.length;
  if (s[10] !== nm) throw new Error(`restoreState: the state has ${s[10]} joint couplings, this world ${nm}`);
  const size = HEADER + n * BODY_STATE + nj * (1 + JOINT_IMPULSE_STRIDE) + nc * CONTACT_STATE + nctl + nm;
  if (s.length !== size || !Number.isInteger(nc) || nc < 0) throw new Error(`restoreState: the state is ${s.length} numbers long, expected ${size}`);
  for (let k = 0; k < s.length; k++) if (!Number.isFinite(s[k])) throw new Error(`restoreState: number ${k} of the state is not finite`);
  // validate the contacts' body pairs before anything is copied (a failed restore changes nothing)
  const contactsAt = HEADER + n * BODY_STATE + nj * (1 + JOINT_IMPULSE_STRIDE);
  for (let i = 0; i < nc; i++) {
    const key = s[contactsAt + i * CONTACT_STATE];
    const a = bodyPairA(key), b = bodyPairB(key);
    if (!(a >= 0 && a < n && b >= -1 && b < n && Number.isInteger(b))) throw new Error(`restoreState: contact ${i} names bodies that do not exist`);
  }
  w.stepCount = s[4];
  w.drive.throttle = s[5];
  w.drive.steer = s[6];
  w.scriptCursor = s[7];
  w.scriptOverridden = s[8] === 1;
  let o = HEADER;
  bodies.pos.set(s.subarray(o, o + 3 * n)); o += 3 * n;
  bodies.rot.set(s.subarray(o, o + 4 * n)); o += 4 * n;
  bodies.linVel.set(s.subarray(o, o + 3 * n)); o += 3 * n;
  bodies.angVel.set(s.subarray(o, o + 3 * n)); o += 3 * n;
  bodies.sleepTime.set(s.subarray(o, o + n)); o += n;
  for (let b = 0; b < n; b++) bodies.awake[b] = s[o++];
  for (let b = 0; b < n; b++) w.island[b] = s[o++];
  bodies.sleepPos.set(s.subarray(o, o + 3 * n)); o += 3 * n;
  bodies.sleepRot.set(s.subarray(o, o + 4 * n)); o += 4 * n;
  joints.motorTarget.set(s.subarray(o, o + nj)); o += nj;
  joints.impulses.set(s.subarray(o, o + nj * JOINT_IMPULSE_STRIDE)); o += nj * JOINT_IMPULSE_STRIDE;
  const c = w.contacts;
  if (c.capacity < nc) c.resize(nc);
  c.count = nc;
  for (let i = 0; i < nc; i++) {
    c.key[i] = s[o++];
    c.point[3 * i] = s[o++]; c.point[3 * i + 1] = s[o++]; c.point[3 * i + 2] = s[o++];
    c.normal[3 * i] = s[o++]; c.normal[3 * i + 1] = s[o++]; c.normal[3 * i + 2] = s[o++];
    c.normalImpulse[i] = s[o++]; c.t1Impulse[i] = s[o++]; c.t2Impulse[i] = s[o++];
    c.r1Impulse[i] = s[o++]; c.r2Impulse[i] = s[o++];
    c.kind[i] = s[o++]; c.cellI[i] = s[o++]; c.cellJ[i] = s[o++]; c.feature[i] = s[o++];
    c.depth[i] = s[o++]; c.friction[i] = s[o++]; c.restitution[i] = s[o++]; c.rolling[i] = s[o++];
    // the pair from the key
    const a = bodyPairA(c.key[i]);
    const b = bodyPairB(c.key[i]);
    c.bodyA[i] = a;
    c.bodyB[i] = b;
    c.slotB[i] = b < 0 ? n : b;
  }
  ctl.set(s.subarray(o, o + nctl)); o += nctl;
  joints.couplingImpulse.set(s.subarray(o, o + nm));
  for (let b = 0; b < n; b++) bodies.updateInertia(b);
  c.source.fill(-1, 0, nc);
}

/** FNV-1a over the bytes, two lanes (different offsets) → 16 hex digits. */
export function hashFloat64(a: Float64Array): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < bytes.length; i++) {
    h1 = Math.imul(h1 ^ bytes[i], 0x01000193);
    h2 = Math.imul(h2 ^ bytes[i], 0x01000193) ^ (h2 >>> 13);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
