/**
 * Swaps the roles of A and B for contacts [start, buf.count), so a routine written for one order
 * of a shape pair serves the other (the dispatcher's symmetry rule).
 *
 * Engine convention: point p on B, normal n from B into A, depth d. A's deepest point is then
 * p − d·n (on A's surface). Seen with A and B swapped, the contact lies on the new B (old A) at
 * p − d·n, the normal is −n, and the depth is unchanged. Feature ids toggle their owner bit.
 */
import type { ContactBuffer } from '../contact';
import { flipFeatureOwner } from './feature-id';

export function flipContacts(buf: ContactBuffer, start: number): void {
  const p = buf.point, n = buf.normal;
  for (let k = start; k < buf.count; k++) {
    const d = buf.depth[k];
    for (let a = 0; a < 3; a++) {
      p[3 * k + a] -= d * n[3 * k + a];
      n[3 * k + a] = -n[3 * k + a];
    }
    buf.feature[k] = flipFeatureOwner(buf.feature[k]);
  }
}
