/**
 * Manifold reduction: candidate contacts → at most 4 points per normal group (Strashnov &
 * Torgashev 2020, §V "building the contact manifold"; the area heuristic is also the one of
 * Box3D's b3CullPoints and Jolt's PruneContactPoints).
 *
 * 1. Group. The paper groups equal normals; adjacent elements of a smooth surface differ
 *    slightly, so the tolerance is an angle (dot ≥ groupCos). Representatives are picked greedily
 *    in candidate order (cell order: deterministic), then every candidate joins its nearest
 *    representative, so equal normals always share a group.
 * 2. Per group with more than 2 points keep:
 *      P1 the deepest (it carries the largest correction),
 *      P2 the farthest from P1 (the patch's longest extent),
 *      P3 the farthest from the line P1P2 (its width); if even P3 is within `lineDistance` of
 *         that line, the patch is a LINE contact (a lying wheel's side): keep the two extreme
 *         points along the line (not P1/P2, which may be an interior tie when all depths are
 *         equal) — plus P1 if it is deeper than both extremes (a curved line contact),
 *      P4 the point farthest OUTSIDE triangle P1P2P3 (most negative signed distance to one of
 *         its edges, seen along the group normal: the area it adds per unit of edge); a point
 *         inside adds no area and is skipped.
 *
 *            P2 ●──────────● P4        signed area of (a, b, q) = ((b − a) × (q − a)) · n
 *               │ ╲        │           > 0: q left of a→b (inside for a CCW triangle)
 *               │   ╲      │           the best P4 minimises min over the 3 edges.
 *            P1 ●─────● P3
 *
 * Output order: groups in order of their first member, points in selection order (P1 first).
 */
import type { ContactBuffer } from './contact';

/** Fixed-capacity scratch of the reduction (one per workspace). */
export class ManifoldGroups {
  readonly capacity: number;
  readonly maxGroups: number;
  /** Group index of each candidate. */
  readonly groupOf: Int32Array;
  /** Candidate indices by group (one more slot than candidates: the compaction writes ahead). */
  readonly members: Int32Array;
  /** Start of each group in `members` (maxGroups + 1 entries). */
  readonly start: Int32Array;
  /** Representative unit normal per group. */
  readonly normal: Float64Array;
  count = 0;

  constructor(capacity: number, maxGroups: number) {
    this.capacity = capacity;
    this.maxGroups = maxGroups;
    this.groupOf = new Int32Array(capacity);
    this.members = new Int32Array(capacity + 1);
    this.start = new Int32Array(maxGroups + 1);
    this.normal = new Float64Array(maxGroups * 3);
  }
}

/** Status bits of reduceManifoldInto (0 = complete). */
export const ReduceManifoldStatus = {
  Ok: 0,
  /** More groups than the scratch holds: extra normals joined their nearest group. */
  GroupOverflow: 1,
  /** `out` filled up: some reduced points were dropped (counted in out.overflow). */
  OutputOverflow: 2,
} as const;

/** Two-slot select of reduceManifoldInto's step 1b. */
const pickScratch = new Float64Array(2);

/**
 * Copies candidate `k` of `src` into `out`; returns false when `out` is full (counted in
 * out.overflow, as ContactBuffer.push does). Copies the arrays directly: a push() call with
 * seven doubles would box them whenever it is not inlined.
 */
function emit(out: ContactBuffer, src: ContactBuffer, k: number): boolean {
  if (out.count >= out.capacity) {
    out.overflow++;
    return false;
  }
  const o = out.count++;
  const o3 = 3 * o, k3 = 3 * k;
  out.point[o3] = src.point[k3];
  out.point[o3 + 1] = src.point[k3 + 1];
  out.point[o3 + 2] = src.point[k3 + 2];
  out.normal[o3] = src.normal[k3];
  out.normal[o3 + 1] = src.normal[k3 + 1];
  out.normal[o3 + 2] = src.normal[k3 + 2];
  out.depth[o] = src.depth[k];
  out.kind[o] = src.kind[k];
  out.cellI[o] = src.cellI[k];
  out.cellJ[o] = src.cellJ[k];
  out.feature[o] = src.feature[k];
  return true;
}

/**
 * Groups `src`'s contacts by normal and appends at most 4 per group (2 or 3 for line contacts)
 * to `out`. `src` is not modified. Returns ReduceManifoldStatus bits.
 *
 * @param groupCos      dot product of unit normals at or above which two contacts share a group.
 * @param lineDistance  [m] P3 closer than this to line P1P2 makes the group a line contact.
 * @param tieTolerance  [m] a candidate must be deeper/farther by more than this to replace the
 *                      current choice (also used, unitless, for normal dot products).
 */
export function reduceManifoldInto(
  out: ContactBuffer,
  src: ContactBuffer,
  groups: ManifoldGroups,
  groupCos: number,
  lineDistance: number,
  tieTolerance: number,
): number {
  let status = 0;
  const n = Math.min(src.count, groups.capacity);
  const N = src.normal;
  const P = src.point;
  const D = src.depth;
  let g = 0;
  const gn = groups.normal;
  const groupOf = groups.groupOf;
  // 1a. Representatives: a candidate farther than the tolerance from every representative so
  //     far starts a new group (greedy, in candidate order). The dot products are all taken and
  //     OR-ed: a loop that stopped at the first covering representative would branch on data.
  for (let k = 0; k < n; k++) {
    const nx = N[3 * k], ny = N[3 * k + 1], nz = N[3 * k + 2];
    let covered = 0;
    for (let q = 0; q < g; q++) covered |= +(nx * gn[3 * q] + ny * gn[3 * q + 1] + nz * gn[3 * q + 2] >= groupCos);
    if (covered !== 0) continue;
    if (g < groups.maxGroups) {
      gn[3 * g] = nx;
      gn[3 * g + 1] = ny;
      gn[3 * g + 2] = nz;
      g++;
    } else {
      status |= ReduceManifoldStatus.GroupOverflow;
    }
  }
  groups.count = g;
  // 1b. Membership: every candidate joins its NEAREST representative, so equal normals always
  //     share a group (a one-pass greedy split them when a later representative came closer).
  //     Branch-free: the running best goes through a two-slot array indexed by the comparison.
  const pick = pickScratch;
  for (let k = 0; k < n; k++) {
    if (g === 1) {
      groupOf[k] = 0;
      continue;
    }
    const nx = N[3 * k], ny = N[3 * k + 1], nz = N[3 * k + 2];
    let best = 0;
    let bestDot = nx * gn[0] + ny * gn[1] + nz * gn[2];
    for (let q = 1; q < g; q++) {
      const d = nx * gn[3 * q] + ny * gn[3 * q + 1] + nz * gn[3 * q + 2];
      const better = +(d > bestDot + tieTolerance);
      pick[0] = bestDot;
      pick[1] = d;
      bestDot = pick[better];
      best += better * (q - best);
    }
    groupOf[k] = best;
  }
  // Candidates by group, in candidate order inside a group: one compaction pass per group
  // (g is small), each append unconditional and the position advanced by the membership bit,
  // no branch and no counter in memory.
  const st = groups.start;
  const mem = groups.members;
  let pos = 0;
  for (let q = 0; q < g; q++) {
    for (let k = 0; k < n; k++) {
      mem[pos] = k;
      pos += +(groupOf[k] === q);
    }
    st[q] = pos;
  }
  // st[q] holds the END of group q; the start of q is the end of q − 1.
  for (let q = 0; q < g; q++) {
    const a = q === 0 ? 0 : st[q - 1];
    const b = st[q];
    if (b - a <= 2) {
      for (let m = a; m < b; m++) if (!emit(out, src, mem[m])) status |= ReduceManifoldStatus.OutputOverflow;
      continue;
    }
    // Groups of 3 or 4 go through the selection too: a line contact keeps only its two ends,
    // and a point inside the triangle of the other three adds no area.
    // P1: deepest. Every "better" below must win by more than tieTolerance, so round-off
    // never reorders equals: ties go to the first candidate (cell order), which keeps the
    // choice stable while the wheel moves and when the terrain array is shifted.
    let i1 = mem[a];
    let bar1 = D[i1] + tieTolerance;
    for (let m = a + 1; m < b; m++) {
      const k = mem[m];
      if (D[k] > bar1) {
        i1 = k;
        bar1 = D[k] + tieTolerance;
      }
    }
    const x1 = P[3 * i1], y1 = P[3 * i1 + 1], z1 = P[3 * i1 + 2];
    // P2: farthest from P1. Distances are compared squared against (best + tol)²; the square
    // root is taken only when the best changes.
    let i2 = -1;
    let best = -1;
    let bar2 = -1;
    for (let m = a; m < b; m++) {
      const k = mem[m];
      const dx = P[3 * k] - x1, dy = P[3 * k + 1] - y1, dz = P[3 * k + 2] - z1;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > bar2) {
        best = Math.sqrt(d2);
        bar2 = (best + tieTolerance) * (best + tieTolerance);
        i2 = k;
      }
    }
    const ex = P[3 * i2] - x1, ey = P[3 * i2 + 1] - y1, ez = P[3 * i2 + 2] - z1;
    const eLen = Math.sqrt(ex * ex + ey * ey + ez * ez);
    // P3: farthest from line P1P2 (distance = |e × d| / |e|).
    let i3 = -1;
    best = -1;
    bar2 = -1;
    const eLen2 = eLen * eLen;
    for (let m = a; m < b; m++) {
      const k = mem[m];
      const dx = P[3 * k] - x1, dy = P[3 * k + 1] - y1, dz = P[3 * k + 2] - z1;
      const cx = ey * dz - ez * dy, cy = ez * dx - ex * dz, cz = ex * dy - ey * dx;
      const c2 = cx * cx + cy * cy + cz * cz; // (distance · |e|)²
      if (c2 > bar2) {
        best = eLen > 0 ? Math.sqrt(c2) / eLen : 0;
        bar2 = (best + tieTolerance) * (best + tieTolerance) * eLen2;
        i3 = k;
      }
    }
    if (eLen <= 0 || best <= lineDistance) {
      // Line contact (or all points coincide): the two extremes along P1→P2.
      let lo = i1, hi = i1, tLo = 0, tHi = 0;
      for (let m = a; m < b; m++) {
        const k = mem[m];
        const t = eLen > 0 ? ((P[3 * k] - x1) * ex + (P[3 * k + 1] - y1) * ey + (P[3 * k + 2] - z1) * ez) / eLen : 0;
        if (t < tLo - tieTolerance) { tLo = t; lo = k; }
        if (t > tHi + tieTolerance) { tHi = t; hi = k; }
      }
      if (!emit(out, src, lo)) status |= ReduceManifoldStatus.OutputOverflow;
      if (hi !== lo && !emit(out, src, hi)) status |= ReduceManifoldStatus.OutputOverflow;
      if (i1 !== lo && i1 !== hi && D[i1] > D[lo] + tieTolerance && D[i1] > D[hi] + tieTolerance && !emit(out, src, i1)) {
        status |= ReduceManifoldStatus.OutputOverflow;
      }
      continue;
    }
    // P4: farthest outside triangle P1P2P3, signed areas seen along the group normal.
    const nx = gn[3 * q], ny = gn[3 * q + 1], nz = gn[3 * q + 2];
    const x2 = P[3 * i2], y2 = P[3 * i2 + 1], z2 = P[3 * i2 + 2];
    const x3 = P[3 * i3], y3 = P[3 * i3 + 1], z3 = P[3 * i3 + 2];
    const orient = signedArea(x1, y1, z1, x2, y2, z2, x3, y3, z3, nx, ny, nz) >= 0 ? 1 : -1;
    // Signed areas divided by the edge lengths: signed distances (m) outside each edge, so the
    // tie tolerance applies in metres here too.
    // (√ of the sum, not Math.hypot: with three arguments that builtin boxes its result.)
    const inv12 = orient / Math.max(Math.sqrt(sq(x2 - x1) + sq(y2 - y1) + sq(z2 - z1)), tieTolerance);
    const inv23 = orient / Math.max(Math.sqrt(sq(x3 - x2) + sq(y3 - y2) + sq(z3 - z2)), tieTolerance);
    const inv31 = orient / Math.max(Math.sqrt(sq(x1 - x3) + sq(y1 - y3) + sq(z1 - z3)), tieTolerance);
    // ((b − a) × (q − a))·n = (n × (b − a))·(q − a): per edge one vector w = n × (b − a), scaled,
    // and per point three dot products.
    const w12x = (ny * (z2 - z1) - nz * (y2 - y1)) * inv12, w12y = (nz * (x2 - x1) - nx * (z2 - z1)) * inv12, w12z = (nx * (y2 - y1) - ny * (x2 - x1)) * inv12;
    const w23x = (ny * (z3 - z2) - nz * (y3 - y2)) * inv23, w23y = (nz * (x3 - x2) - nx * (z3 - z2)) * inv23, w23z = (nx * (y3 - y2) - ny * (x3 - x2)) * inv23;
    const w31x = (ny * (z1 - z3) - nz * (y1 - y3)) * inv31, w31y = (nz * (x1 - x3) - nx * (z1 - z3)) * inv31, w31z = (nx * (y1 - y3) - ny * (x1 - x3)) * inv31;
    let i4 = -1;
    let most = 0;
    for (let m = a; m < b; m++) {
      const k = mem[m];
      const qx = P[3 * k], qy = P[3 * k + 1], qz = P[3 * k + 2];
      const s12 = (qx - x1) * w12x + (qy - y1) * w12y + (qz - z1) * w12z;
      const s23 = (qx - x2) * w23x + (qy - y2) * w23y + (qz - z2) * w23z;
      const s31 = (qx - x3) * w31x + (qy - y3) * w31y + (qz - z3) * w31z;
      // One branch, rarely taken: comparing each distance with the bar needs no minimum (whose
      // comparisons would mispredict on every point).
      const bar = most - tieTolerance;
      if ((+(s12 < bar) | +(s23 < bar) | +(s31 < bar)) !== 0 && k !== i1 && k !== i2 && k !== i3) {
        most = Math.min(s12, s23, s31);
        i4 = k;
      }
    }
    if (!emit(out, src, i1)) status |= ReduceManifoldStatus.OutputOverflow;
    if (!emit(out, src, i2)) status |= ReduceManifoldStatus.OutputOverflow;
    if (!emit(out, src, i3)) status |= ReduceManifoldStatus.OutputOverflow;
    if (i4 >= 0 && !emit(out, src, i4)) status |= ReduceManifoldStatus.OutputOverflow;
  }
  return status;
}

function sq(x: number): number {
  return x * x;
}

/** ((b − a) × (c − a)) · n: twice the signed area of triangle abc seen along n. */
function signedArea(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  nx: number, ny: number, nz: number,
): number {
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  return (uy * vz - uz * vy) * nx + (uz * vx - ux * vz) * ny + (ux * vy - uy * vx) * nz;
}
