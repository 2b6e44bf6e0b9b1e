/**
 * Rows of the contact inspector (the 'I' overlay): one line per contact with the body, the
 * algorithm case that produced it, the terrain cell and the depth, so what the collision code
 * decided is readable while driving. Pure formatting, unit-tested.
 */
import { WHEEL_CONTACT_KIND_NAMES } from '../sim/collision/contact';
import type { BodyInfo } from '../sim/protocol';

/** Most rows shown; the rest are summarised in one line. */
export const CONTACT_ROWS_MAX = 24;

export interface ContactRow {
  body: string;
  /** Algorithm case name (flat/base/side/point/edge) or "body" for body–body pairs. */
  kind: string;
  /** "i,j" of the terrain cell, or "–". */
  cell: string;
  /** [mm] */
  depthMm: string;
  /** [m] "x y z" */
  point: string;
}

export function contactRows(contacts: Float32Array, info: Int32Array, bodies: readonly BodyInfo[]): { rows: ContactRow[]; more: number } {
  const n = Math.min(Math.floor(contacts.length / 7), Math.floor(info.length / 4));
  const rows: ContactRow[] = [];
  for (let k = 0; k < n && rows.length < CONTACT_ROWS_MAX; k++) {
    const kind = info[4 * k], body = info[4 * k + 1], ci = info[4 * k + 2], cj = info[4 * k + 3];
    const o = 7 * k;
    rows.push({
      body: bodies[body]?.name ?? `#${body}`,
      kind: ci < 0 ? 'body' : (WHEEL_CONTACT_KIND_NAMES[kind] ?? `kind ${kind}`),
      cell: ci < 0 ? '–' : `${ci},${cj}`,
      depthMm: (contacts[o + 6] * 1000).toFixed(2),
      point: `${contacts[o].toFixed(3)} ${contacts[o + 1].toFixed(3)} ${contacts[o + 2].toFixed(3)}`,
    });
  }
  return { rows, more: n - rows.length };
}
