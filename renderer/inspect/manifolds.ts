/**
 * Groups a frame's contacts into manifolds for the inspector: one group per contact patch, i.e.
 * the same body pair with normals within MANIFOLD_GROUP_ANGLE (sim/constants.ts, the angle the
 * engine's manifold reduction groups by) of the group's first normal.
 * (The solver has its own manifolds; the frame does not carry their ids, so the inspector
 * rebuilds the grouping a reader would draw by eye.) Pure; unit-tested.
 */
import { MANIFOLD_GROUP_COS } from '../../sim/constants';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE } from '../../sim/dynamics/frame-layout';

export interface ManifoldGroup {
  bodyA: number;
  /** −1: the terrain. */
  bodyB: number;
  /** Unit normal of the group's first contact. */
  normal: [number, number, number];
  /** Contact indices in frame order. */
  contacts: number[];
  /** [m] deepest contact of the group. */
  maxDepth: number;
  /** [N·s] sum of the normal impulses. */
  normalImpulse: number;
  /** Distinct kinds, in first-seen order. */
  kinds: number[];
  /** Distinct terrain cells "i,j", in first-seen order. */
  cells: string[];
}

export function groupManifolds(contacts: Float32Array, info: Int32Array): ManifoldGroup[] {
  const n = Math.min(Math.floor(contacts.length / CONTACT_STRIDE), Math.floor(info.length / CONTACT_INFO_STRIDE));
  const groups: ManifoldGroup[] = [];
  for (let k = 0; k < n; k++) {
    const o = CONTACT_STRIDE * k, q = CONTACT_INFO_STRIDE * k;
    const a = info[q + 1], b = info[q + 2];
    const nx = contacts[o + 3], ny = contacts[o + 4], nz = contacts[o + 5];
    let g = groups.find((m) => m.bodyA === a && m.bodyB === b && m.normal[0] * nx + m.normal[1] * ny + m.normal[2] * nz >= MANIFOLD_GROUP_COS);
    if (!g) {
      g = { bodyA: a, bodyB: b, normal: [nx, ny, nz], contacts: [], maxDepth: -Infinity, normalImpulse: 0, kinds: [], cells: [] };
      groups.push(g);
    }
    g.contacts.push(k);
    const depth = contacts[o + 6];
    if (depth > g.maxDepth) g.maxDepth = depth;
    g.normalImpulse += contacts[o + 7];
    if (!g.kinds.includes(info[q])) g.kinds.push(info[q]);
    if (info[q + 3] >= 0) {
      const cell = `${info[q + 3]},${info[q + 4]}`;
      if (!g.cells.includes(cell)) g.cells.push(cell);
    }
  }
  return groups;
}
