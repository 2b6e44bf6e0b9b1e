/**
 * What the user selected (a contact, a body, a joint or a terrain cell) and how a contact
 * selection follows the world through time. Contacts have no stable id across frames, so the
 * selection remembers the contact's body pair and point and, in each new frame, takes the
 * contact of the same pair nearest to the remembered point (preferring the same terrain cell),
 * provided it is within FOLLOW_RADIUS; otherwise the contact is gone (index −1) until a
 * matching one returns. Pure; unit-tested.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE } from '../../sim/dynamics/frame-layout';

/** [m] Farthest a followed contact may move between two shown frames (a wheel at 2 m/s in 0.1 s). */
export const FOLLOW_RADIUS = 0.25;

export type Selection =
  | { type: 'none' }
  | { type: 'contact'; bodyA: number; bodyB: number; cellI: number; cellJ: number; point: [number, number, number]; index: number }
  | { type: 'body'; body: number }
  | { type: 'joint'; joint: number }
  | { type: 'cell'; i: number; j: number };

export const NO_SELECTION: Selection = { type: 'none' };

/** A contact selection from contact k of a frame. */
export function selectContact(contacts: Float32Array, info: Int32Array, k: number): Selection {
  const o = CONTACT_STRIDE * k, q = CONTACT_INFO_STRIDE * k;
  if (k < 0 || o + CONTACT_STRIDE > contacts.length || q + CONTACT_INFO_STRIDE > info.length) return NO_SELECTION;
  return { type: 'contact', bodyA: info[q + 1], bodyB: info[q + 2], cellI: info[q + 3], cellJ: info[q + 4], point: [contacts[o], contacts[o + 1], contacts[o + 2]], index: k };
}

/**
 * The selection carried into a new frame: for a contact, the index of its successor (−1 when
 * none is near) with point and cell updated to it; other selections unchanged.
 */
export function followSelection(sel: Selection, contacts: Float32Array, info: Int32Array): Selection {
  if (sel.type !== 'contact') return sel;
  const n = Math.min(Math.floor(contacts.length / CONTACT_STRIDE), Math.floor(info.length / CONTACT_INFO_STRIDE));
  let best = -1, bestD = FOLLOW_RADIUS * FOLLOW_RADIUS;
  for (let k = 0; k < n; k++) {
    const q = CONTACT_INFO_STRIDE * k;
    if (info[q + 1] !== sel.bodyA || info[q + 2] !== sel.bodyB) continue;
    const o = CONTACT_STRIDE * k;
    const dx = contacts[o] - sel.point[0], dy = contacts[o + 1] - sel.point[1], dz = contacts[o + 2] - sel.point[2];
    let d = dx * dx + dy * dy + dz * dz;
    // same cell first: a tie between cells goes to the remembered one
    if (info[q + 3] !== sel.cellI || info[q + 4] !== sel.cellJ) d *= 1.0001;
    if (d <= bestD) {
      bestD = d;
      best = k;
    }
  }
  if (best < 0) return { ...sel, index: -1 };
  return selectContact(contacts, info, best);
}

/** True if contact k involves the selected body (or is the selected contact): drawn highlighted. */
export function contactHighlighted(sel: Selection, info: Int32Array, k: number): boolean {
  const q = CONTACT_INFO_STRIDE * k;
  if (sel.type === 'body') return info[q + 1] === sel.body || info[q + 2] === sel.body;
  if (sel.type === 'contact') return k === sel.index;
  if (sel.type === 'cell') return info[q + 2] < 0 && info[q + 3] === sel.i && info[q + 4] === sel.j;
  return false;
}

export function sameSelection(a: Selection, b: Selection): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'none':
      return true;
    case 'body':
      return a.body === (b as typeof a).body;
    case 'joint':
      return a.joint === (b as typeof a).joint;
    case 'cell':
      return a.i === (b as typeof a).i && a.j === (b as typeof a).j;
    case 'contact': {
      const c = b as typeof a;
      return a.index === c.index && a.bodyA === c.bodyA && a.bodyB === c.bodyB;
    }
  }
}
