/**
 * What the plots can show, as samplers over one step's frame: per body (position, attitude,
 * linear and angular velocity, speed), per joint (coordinate, rate, motor effort), per wheel
 * (deepest contact, total normal force, contact count, slip), per contact pair (contacts, normal
 * force, depth) and the world's totals. Keys are stable strings ("wheel:3:force",
 * "pair:2:-1:force") so a choice is remembered across runs.
 *
 * Pure and shared: the worker samples the chosen series at EVERY step (plot-sampler.ts), the
 * renderer only draws them; a replay samples the recorded frames with the same functions.
 * Samples are SI (m, rad, N, m/s, rad/s); the renderer converts them to the display units by the
 * series' quantity.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, ContactField, ContactInfoField, JOINT_FRAME_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import type { WorldInfo } from './protocol';

/** What a series measures (the renderer's display units follow it; renderer/app/units.ts). */
export type SeriesQuantity = 'length' | 'angle' | 'force' | 'speed' | 'angularSpeed' | 'impulse' | 'torque' | 'count';

/** One step as the samplers read it (a Frame, or the sampler's float32 copy of the world's report). */
export interface SeriesFrame {
  time: number;
  speed: number;
  poses: Float32Array;
  velocities?: Float32Array;
  contacts: Float32Array;
  contactInfo: Int32Array;
  /** JOINT_FRAME_STRIDE per joint: coordinate, rate, effort (absent in recorded frames). */
  joints?: Float32Array;
}

export interface SeriesDef {
  key: string;
  label: string;
  /** The entity the series belongs to ("robot", a body's, joint's or pair's name): the chooser groups by it. */
  group: string;
  /** What the SI sample measures (its display unit follows the settings). */
  quantity: SeriesQuantity;
  sample(f: SeriesFrame, dt: number): number;
}

/** Most contact-pair entries offered (a world of many bodies would list every pair otherwise). */
export const MAX_PAIR_SERIES_PAIRS = 64;

const rpy: [number, number, number] = [0, 0, 0];

/** Roll, pitch, yaw [rad] of a unit quaternion (ZYX), into out. */
export function rollPitchYawOf(out: [number, number, number], qx: number, qy: number, qz: number, qw: number): [number, number, number] {
  out[0] = Math.atan2(2 * (qw * qx + qy * qz), 1 - 2 * (qx * qx + qy * qy));
  const s = 2 * (qw * qy - qz * qx);
  out[1] = Math.asin(s >= 1 ? 1 : s <= -1 ? -1 : s);
  out[2] = Math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz));
  return out;
}

function contactCount(f: SeriesFrame): number {
  return Math.min(Math.floor(f.contacts.length / CONTACT_STRIDE), Math.floor(f.contactInfo.length / CONTACT_INFO_STRIDE));
}

/** What a contact aggregate computes: the deepest depth, the sum of normal impulses, the count. */
const enum Agg { MaxDepth, SumImpulse, Count }

function fold(f: SeriesFrame, agg: Agg, acc: number, k: number): number {
  const o = CONTACT_STRIDE * k;
  // a speculative contact (depth < 0: still a gap) is not counted as touching
  if (agg === Agg.Count) return f.contacts[o + ContactField.Depth] >= 0 ? acc + 1 : acc;
  return agg === Agg.MaxDepth ? Math.max(acc, f.contacts[o + ContactField.Depth]) : acc + f.contacts[o + ContactField.NormalImpulse];
}

/** Aggregates the contacts of `body` (as A or B). Allocates nothing: the worker samples every step. */
function contactsOf(f: SeriesFrame, body: number, agg: Agg): number {
  const n = contactCount(f);
  let acc = 0;
  for (let k = 0; k < n; k++) {
    const q = CONTACT_INFO_STRIDE * k;
    if (f.contactInfo[q + 1] === body || f.contactInfo[q + 2] === body) acc = fold(f, agg, acc, k);
  }
  return acc;
}

/** Aggregates the contacts between bodies a and b (either order; −1 is the terrain). */
function pairContacts(f: SeriesFrame, a: number, b: number, agg: Agg): number {
  const n = contactCount(f);
  let acc = 0;
  for (let k = 0; k < n; k++) {
    const q = CONTACT_INFO_STRIDE * k;
    const x = f.contactInfo[q + ContactInfoField.BodyA], y = f.contactInfo[q + ContactInfoField.BodyB];
    if ((x === a && y === b) || (x === b && y === a)) acc = fold(f, agg, acc, k);
  }
  return acc;
}

/** Contacts with depth ≥ 0 (speculative ones, still apart, left out). */
function touchingCount(f: SeriesFrame): number {
  const n = contactCount(f);
  let c = 0;
  for (let k = 0; k < n; k++) if (f.contacts[CONTACT_STRIDE * k + ContactField.Depth] >= 0) c++;
  return c;
}

const va = [0, 0, 0], vb = [0, 0, 0];

/**
 * Velocity of the material point of `body` at p (world) into `out` (the terrain, −1, is still);
 * false without velocities. Shared with the inspector (renderer/inspect/contact-detail.ts).
 */
export function pointVelocity(out: number[], f: { poses: ArrayLike<number>; velocities?: ArrayLike<number> | null }, body: number, px: number, py: number, pz: number): boolean {
  out[0] = 0; out[1] = 0; out[2] = 0;
  if (body < 0) return true;
  const v = f.velocities;
  const q = VELOCITY_STRIDE * body, o = POSE_STRIDE * body;
  if (!v || q + 5 >= v.length || o + 2 >= f.poses.length) return false;
  const rx = px - f.poses[o], ry = py - f.poses[o + 1], rz = pz - f.poses[o + 2];
  const wx = v[q + 3], wy = v[q + 4], wz = v[q + 5];
  out[0] = v[q] + wy * rz - wz * ry;
  out[1] = v[q + 1] + wz * rx - wx * rz;
  out[2] = v[q + 2] + wx * ry - wy * rx;
  return true;
}

/** [m/s] Tangential speed of A's material point against B's at contact k (the inspector's slip). */
function slipOf(f: SeriesFrame, k: number): number {
  const o = CONTACT_STRIDE * k, q = CONTACT_INFO_STRIDE * k, c = f.contacts;
  if (!pointVelocity(va, f, f.contactInfo[q + 1], c[o], c[o + 1], c[o + 2]) || !pointVelocity(vb, f, f.contactInfo[q + 2], c[o], c[o + 1], c[o + 2])) return Number.NaN;
  const rx = va[0] - vb[0], ry = va[1] - vb[1], rz = va[2] - vb[2];
  const vn = rx * c[o + 3] + ry * c[o + 4] + rz * c[o + 5];
  return Math.hypot(rx - vn * c[o + 3], ry - vn * c[o + 4], rz - vn * c[o + 5]);
}

/**
 * [m/s] Slip of a wheel's contact patch: its contacts' slip speeds averaged with their normal
 * impulses as weights (plainly when none pushes); NaN without a contact or without velocities.
 */
export function wheelSlip(f: SeriesFrame, body: number): number {
  const n = contactCount(f);
  let sw = 0, swv = 0, count = 0, sum = 0;
  for (let k = 0; k < n; k++) {
    const q = CONTACT_INFO_STRIDE * k;
    if (f.contactInfo[q + 1] !== body && f.contactInfo[q + 2] !== body) continue;
    const v = slipOf(f, k);
    if (Number.isNaN(v)) return Number.NaN;
    const w = Math.max(0, f.contacts[CONTACT_STRIDE * k + ContactField.NormalImpulse]);
    sw += w; swv += w * v; count++; sum += v;
  }
  if (count === 0) return Number.NaN;
  return sw > 0 ? swv / sw : sum / count;
}


/** Every series the world offers, in menu order (grouped by entity). */
export function availableSeries(w: Pick<WorldInfo, 'bodies' | 'joints'>): SeriesDef[] {
  const out: SeriesDef[] = [
    { key: 'speed', label: 'robot speed', group: 'robot', quantity: 'speed', sample: (f) => f.speed },
    { key: 'contacts', label: 'contacts (touching)', group: 'robot', quantity: 'count', sample: (f) => touchingCount(f) },
  ];
  w.bodies.forEach((b, i) => {
    if (b.role !== 'wheel') return;
    const g = `wheel ${b.name}`;
    out.push(
      { key: `wheel:${i}:depth`, label: `${b.name} depth`, group: g, quantity: 'length', sample: (f) => Math.max(0, contactsOf(f, i, Agg.MaxDepth)) },
      { key: `wheel:${i}:force`, label: `${b.name} normal force`, group: g, quantity: 'force', sample: (f, dt) => (dt > 0 ? contactsOf(f, i, Agg.SumImpulse) / dt : 0) },
      { key: `wheel:${i}:count`, label: `${b.name} contacts`, group: g, quantity: 'count', sample: (f) => contactsOf(f, i, Agg.Count) },
      { key: `wheel:${i}:slip`, label: `${b.name} slip`, group: g, quantity: 'speed', sample: (f) => wheelSlip(f, i) },
    );
  });
  w.bodies.forEach((b, i) => {
    if (b.role === 'static') return;
    const o = POSE_STRIDE * i, q = VELOCITY_STRIDE * i;
    const g = `body ${b.name}`;
    const pose = (k: number) => (f: SeriesFrame): number => (o + 6 < f.poses.length ? f.poses[o + k] : NaN);
    const vel = (k: number) => (f: SeriesFrame): number => (f.velocities && q + 5 < f.velocities.length ? f.velocities[q + k] : NaN);
    const att = (k: number) => (f: SeriesFrame): number => (o + 6 < f.poses.length ? rollPitchYawOf(rpy, f.poses[o + 3], f.poses[o + 4], f.poses[o + 5], f.poses[o + 6])[k] : NaN);
    out.push(
      { key: `body:${i}:speed`, label: `${b.name} speed`, group: g, quantity: 'speed', sample: (f) => (f.velocities && q + 2 < f.velocities.length ? Math.hypot(f.velocities[q], f.velocities[q + 1], f.velocities[q + 2]) : NaN) },
      { key: `body:${i}:pitch`, label: `${b.name} pitch`, group: g, quantity: 'angle', sample: att(1) },
      { key: `body:${i}:roll`, label: `${b.name} roll`, group: g, quantity: 'angle', sample: att(0) },
      { key: `body:${i}:yaw`, label: `${b.name} yaw`, group: g, quantity: 'angle', sample: att(2) },
      { key: `body:${i}:x`, label: `${b.name} x`, group: g, quantity: 'length', sample: pose(0) },
      { key: `body:${i}:y`, label: `${b.name} y`, group: g, quantity: 'length', sample: pose(1) },
      { key: `body:${i}:z`, label: `${b.name} z`, group: g, quantity: 'length', sample: pose(2) },
      { key: `body:${i}:vx`, label: `${b.name} vx`, group: g, quantity: 'speed', sample: vel(0) },
      { key: `body:${i}:vy`, label: `${b.name} vy`, group: g, quantity: 'speed', sample: vel(1) },
      { key: `body:${i}:vz`, label: `${b.name} vz`, group: g, quantity: 'speed', sample: vel(2) },
      { key: `body:${i}:wx`, label: `${b.name} ωx`, group: g, quantity: 'angularSpeed', sample: vel(3) },
      { key: `body:${i}:wy`, label: `${b.name} ωy`, group: g, quantity: 'angularSpeed', sample: vel(4) },
      { key: `body:${i}:wz`, label: `${b.name} ωz`, group: g, quantity: 'angularSpeed', sample: vel(5) },
    );
  });
  w.joints.forEach((j, i) => {
    const o = JOINT_FRAME_STRIDE * i;
    const g = `joint ${j.name}`;
    const field = (k: number) => (f: SeriesFrame): number => (f.joints && o + 2 < f.joints.length ? f.joints[o + k] : NaN);
    const linear = j.type === 'prismatic';
    out.push(
      { key: `joint:${i}:position`, label: `${j.name} position`, group: g, quantity: linear ? 'length' : 'angle', sample: field(0) },
      { key: `joint:${i}:velocity`, label: `${j.name} velocity`, group: g, quantity: linear ? 'speed' : 'angularSpeed', sample: field(1) },
    );
    if (j.motor) out.push({ key: `joint:${i}:effort`, label: `${j.name} effort`, group: g, quantity: linear ? 'force' : 'torque', sample: field(2) });
  });
  // contact pairs: every moving body on the terrain, then pairs of moving bodies not joined to each other
  const moving = w.bodies.map((b, i) => (b.role === 'static' ? -1 : i)).filter((i) => i >= 0);
  const joined = new Set(w.joints.map((j) => `${Math.min(j.bodyA, j.bodyB)}:${Math.max(j.bodyA, j.bodyB)}`));
  const pairs: [number, number][] = moving.map((i) => [i, -1]);
  for (let x = 0; x < w.bodies.length; x++) for (let y = x + 1; y < w.bodies.length; y++) {
    if ((w.bodies[x].role === 'static' && w.bodies[y].role === 'static') || joined.has(`${x}:${y}`)) continue;
    pairs.push([x, y]);
  }
  for (const [a, b] of pairs.slice(0, MAX_PAIR_SERIES_PAIRS)) {
    const name = `${w.bodies[a].name} on ${b < 0 ? 'terrain' : w.bodies[b].name}`;
    const g = `pair ${name}`;
    out.push(
      { key: `pair:${a}:${b}:count`, label: `${name} contacts`, group: g, quantity: 'count', sample: (f) => pairContacts(f, a, b, Agg.Count) },
      { key: `pair:${a}:${b}:force`, label: `${name} normal force`, group: g, quantity: 'force', sample: (f, dt) => (dt > 0 ? pairContacts(f, a, b, Agg.SumImpulse) / dt : 0) },
      { key: `pair:${a}:${b}:depth`, label: `${name} depth`, group: g, quantity: 'length', sample: (f) => Math.max(0, pairContacts(f, a, b, Agg.MaxDepth)) },
    );
  }
  return out;
}
