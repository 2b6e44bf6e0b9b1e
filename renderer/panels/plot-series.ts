/**
 * What the plots can show: per wheel (deepest contact, total normal force, contact count, slip
 * speed), per body (speed, pitch, roll) and the world's totals, each a sampler over a frame. Keys are stable strings ("wheel:3:force") so the choice is remembered across runs.
 * Samples are SI (m, rad, N, m/s); the legend converts them to the chosen display units
 * (renderer/app/units.ts) by the series' quantity. Pure; unit-tested.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../../sim/dynamics/frame-layout';
import type { WorldInfo } from '../../sim/app/protocol';
import { rollPitchYaw } from '../inspect/entities';
import { contactSlipSpeed } from '../inspect/contact-detail';
import type { Quantity } from '../app/units';

export interface SeriesFrame {
  time: number;
  speed: number;
  poses: Float32Array;
  velocities?: Float32Array;
  contacts: Float32Array;
  contactInfo: Int32Array;
}

export interface SeriesDef {
  key: string;
  label: string;
  /** What the SI sample measures (its display unit follows the settings). */
  quantity: Quantity;
  sample(f: SeriesFrame, dt: number): number;
}

const rpy: [number, number, number] = [0, 0, 0];

function contactsOf(f: SeriesFrame, body: number, fold: (acc: number, o: number) => number, init: number): number {
  const n = Math.min(Math.floor(f.contacts.length / CONTACT_STRIDE), Math.floor(f.contactInfo.length / CONTACT_INFO_STRIDE));
  let acc = init;
  for (let k = 0; k < n; k++) {
    const q = CONTACT_INFO_STRIDE * k;
    if (f.contactInfo[q + 1] === body || f.contactInfo[q + 2] === body) acc = fold(acc, CONTACT_STRIDE * k);
  }
  return acc;
}

/**
 * [m/s] Slip of a wheel's contact patch: its contacts' slip speeds (inspect/contact-detail.ts)
 * averaged with their normal impulses as weights (plainly when none pushes); NaN without a
 * contact or without velocities.
 */
export function wheelSlip(f: SeriesFrame, body: number): number {
  const n = Math.min(Math.floor(f.contacts.length / CONTACT_STRIDE), Math.floor(f.contactInfo.length / CONTACT_INFO_STRIDE));
  let sw = 0, swv = 0, count = 0, sum = 0;
  for (let k = 0; k < n; k++) {
    const q = CONTACT_INFO_STRIDE * k;
    if (f.contactInfo[q + 1] !== body && f.contactInfo[q + 2] !== body) continue;
    const v = contactSlipSpeed(f, k);
    if (Number.isNaN(v)) return Number.NaN;
    const w = Math.max(0, f.contacts[CONTACT_STRIDE * k + 7]);
    sw += w; swv += w * v; count++; sum += v;
  }
  if (count === 0) return Number.NaN;
  return sw > 0 ? swv / sw : sum / count;
}

/** Every series the world offers, in menu order. */
export function availableSeries(w: WorldInfo): SeriesDef[] {
  const out: SeriesDef[] = [
    { key: 'speed', label: 'robot speed', quantity: 'speed', sample: (f) => f.speed },
    { key: 'contacts', label: 'contacts', quantity: 'count', sample: (f) => Math.floor(f.contactInfo.length / CONTACT_INFO_STRIDE) },
  ];
  w.bodies.forEach((b, i) => {
    if (b.role === 'wheel') {
      out.push(
        { key: `wheel:${i}:depth`, label: `${b.name} depth`, quantity: 'length', sample: (f) => Math.max(0, contactsOf(f, i, (a, o) => Math.max(a, f.contacts[o + 6]), 0)) },
        { key: `wheel:${i}:force`, label: `${b.name} normal force`, quantity: 'force', sample: (f, dt) => (dt > 0 ? contactsOf(f, i, (a, o) => a + f.contacts[o + 7], 0) / dt : 0) },
        { key: `wheel:${i}:count`, label: `${b.name} contacts`, quantity: 'count', sample: (f) => contactsOf(f, i, (a) => a + 1, 0) },
        { key: `wheel:${i}:slip`, label: `${b.name} slip`, quantity: 'speed', sample: (f) => wheelSlip(f, i) },
      );
    }
  });
  w.bodies.forEach((b, i) => {
    if (b.role === 'static') return;
    const o = POSE_STRIDE * i, q = VELOCITY_STRIDE * i;
    out.push(
      { key: `body:${i}:speed`, label: `${b.name} speed`, quantity: 'speed', sample: (f) => (f.velocities && q + 2 < f.velocities.length ? Math.hypot(f.velocities[q], f.velocities[q + 1], f.velocities[q + 2]) : NaN) },
      { key: `body:${i}:pitch`, label: `${b.name} pitch`, quantity: 'angle', sample: (f) => (o + 6 < f.poses.length ? rollPitchYaw(rpy, f.poses[o + 3], f.poses[o + 4], f.poses[o + 5], f.poses[o + 6])[1] : NaN) },
      { key: `body:${i}:roll`, label: `${b.name} roll`, quantity: 'angle', sample: (f) => (o + 6 < f.poses.length ? rollPitchYaw(rpy, f.poses[o + 3], f.poses[o + 4], f.poses[o + 5], f.poses[o + 6])[0] : NaN) },
    );
  });
  return out;
}
