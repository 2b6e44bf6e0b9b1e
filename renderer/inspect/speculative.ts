/**
 * Speculative contacts: the solver's contacts whose points are still apart (depth < 0: a gap
 * within the speculative distance, so a fast body cannot pass through before they touch). They push
 * nothing until they close, and listing them as contacts (negative depth, 0 N) misleads. The
 * renderer shows the touching ones; the speculative ones are counted apart, with their smallest gap.
 * Pure; unit-tested.
 */
import type { Frame } from '../../sim/app/protocol';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, ContactField } from '../../sim/dynamics/frame-layout';

export interface TouchingFrame {
  /** The frame with only its touching contacts (the same object when none is speculative). */
  frame: Frame;
  /** Speculative contacts left out. */
  speculative: number;
  /** [m] Smallest gap among them (Infinity when none). */
  minGap: number;
}

const cache = new WeakMap<Frame, TouchingFrame>();

/** The frame's touching contacts (depth ≥ 0); cached per frame object. */
export function touchingOnly(f: Frame): TouchingFrame {
  const hit = cache.get(f);
  if (hit) return hit;
  const n = Math.min(Math.floor(f.contacts.length / CONTACT_STRIDE), Math.floor(f.contactInfo.length / CONTACT_INFO_STRIDE));
  let keep = 0, minGap = Infinity;
  for (let k = 0; k < n; k++) {
    const d = f.contacts[CONTACT_STRIDE * k + ContactField.Depth];
    if (d >= 0) keep++;
    else if (-d < minGap) minGap = -d;
  }
  let out: TouchingFrame;
  if (keep === n) out = { frame: f, speculative: 0, minGap: Infinity };
  else {
    const contacts = new Float32Array(keep * CONTACT_STRIDE), contactInfo = new Int32Array(keep * CONTACT_INFO_STRIDE);
    let j = 0;
    for (let k = 0; k < n; k++) {
      if (!(f.contacts[CONTACT_STRIDE * k + ContactField.Depth] >= 0)) continue;
      contacts.set(f.contacts.subarray(CONTACT_STRIDE * k, CONTACT_STRIDE * (k + 1)), CONTACT_STRIDE * j);
      contactInfo.set(f.contactInfo.subarray(CONTACT_INFO_STRIDE * k, CONTACT_INFO_STRIDE * (k + 1)), CONTACT_INFO_STRIDE * j);
      j++;
    }
    out = { frame: { ...f, contacts, contactInfo }, speculative: n - keep, minGap };
  }
  cache.set(f, out);
  return out;
}
