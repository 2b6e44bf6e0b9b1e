/**
 * Rows of the contact inspector (the 'I' overlay): one line per contact with the body, the
 * algorithm case that produced it, the terrain cell and the depth, so what the collision code
 * decided is readable while driving. Pure formatting, unit-tested.
 */
import { contactKindName } from '../sim/dynamics/plain-world';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE } from '../sim/dynamics/spec';
import type { BodyInfo } from '../sim/protocol';

/** Most rows shown; the rest are summarised in one line. */
export const CONTACT_ROWS_MAX = 24;

export interface ContactRow {
  /** Body pushed (A) and the other body or "terrain" (B). */
  body: string;
  other: string;
  /** Algorithm case name (flat/base/side/point/edge), "terrain" (other shape on the terrain) or "body". */
  kind: string;
  /** "i,j" of the terrain cell, or "–". */
  cell: string;
  /** [mm] (negative: a speculative contact, not yet touching) */
  depthMm: string;
  /** [m] "x y z" */
  point: string;
  /** unit "x y z", from B into A */
  normal: string;
  /** [N] normal force over the last step (impulse / dt) and friction force magnitude */
  forceN: string;
  frictionN: string;
}

export function contactRows(contacts: Float32Array, info: Int32Array, bodies: readonly BodyInfo[], dt: number): { rows: ContactRow[]; more: number } {
  const n = Math.min(Math.floor(contacts.length / CONTACT_STRIDE), Math.floor(info.length / CONTACT_INFO_STRIDE));
  const rows: ContactRow[] = [];
  for (let k = 0; k < n && rows.length < CONTACT_ROWS_MAX; k++) {
    const q = CONTACT_INFO_STRIDE * k;
    const kind = info[q], a = info[q + 1], b = info[q + 2], ci = info[q + 3], cj = info[q + 4];
    const o = CONTACT_STRIDE * k;
    const inv = dt > 0 ? 1 / dt : 0;
    rows.push({
      body: bodies[a]?.name ?? `#${a}`,
      other: b < 0 ? 'terrain' : (bodies[b]?.name ?? `#${b}`),
      kind: contactKindName(kind),
      cell: ci < 0 ? '–' : `${ci},${cj}`,
      depthMm: (contacts[o + 6] * 1000).toFixed(2),
      point: `${contacts[o].toFixed(3)} ${contacts[o + 1].toFixed(3)} ${contacts[o + 2].toFixed(3)}`,
      normal: `${contacts[o + 3].toFixed(3)} ${contacts[o + 4].toFixed(3)} ${contacts[o + 5].toFixed(3)}`,
      forceN: (contacts[o + 7] * inv).toFixed(1),
      frictionN: (Math.hypot(contacts[o + 8], contacts[o + 9]) * inv).toFixed(1),
    });
  }
  return { rows, more: n - rows.length };
}
