/**
 * Manifold reduction, the one reducer of the engine: candidate contacts → at most
 * MANIFOLD_MAX_POINTS per normal group. Every routine that builds a manifold from more points than
 * the solver needs calls it: the wheel query (cylinder-terrain/collide.ts), face clipping
 * (manifold/clip-faces.ts, hence SAT box–box and the convex–convex manifolds), convex body vs
 * terrain (convex-heightfield/) and the rock routine (polytope-terrain.ts).
 * Strashnov & Torgashev 2020 §V ("building the contact manifold", stage 4); the area heuristic is
 * the one of Box3D's b3CullPoints and Jolt's PruneContactPoints.
 *
 * 1. Group by normal. The paper groups equal normals; adjacent elements of a smooth surface
 *    differ slightly, so the tolerance is an angle, MANIFOLD_GROUP_ANGLE (10°, constants.ts).
 *    Representatives are picked greedily in candidate order (deterministic), then every candidate
 *    joins its NEAREST representative, so equal normals always share a group.
 * 2. Per group of more than 2 points keep:
 *      P1 the deepest (it carries the largest correction, and the group's reported depth is
 *         its true depth: the wheel's element walls rely on that). Among points equally deep up
 *         to the tie (a box face resting on a face: all are), the one farthest from the group's
 *         centroid, so the manifold starts at a corner and not at a clip point mid-edge;
 *      P2 the farthest from P1 (the patch's longest extent);
 *      P3 the farthest from the line P1P2 (its width). If even P3 is within
 *         MANIFOLD_LINE_CONTACT_DISTANCE of that line, the group is a LINE contact (a box edge on
 *         a face, a lying wheel's side): keep its two extreme points along the line (not P1/P2,
 *         which may be an interior tie) and P1 too when it is deeper than both ends (a curved
 *         line: the rim of a wheel across a bump);
 *      P4 the point that adds the most area to triangle P1P2P3: the most negative signed area
 *         of (a, b, q) over the triangle's edges ab, seen along the group normal. A point inside
 *         the triangle adds nothing and is not kept.
 *    Touching first: when a group mixes touching points (depth ≥ −MANIFOLD_TOUCH_DISTANCE) and
 *    speculative ones, P2 and P3 are picked among the touching points while those still span
 *    something (P2 farther than the line distance from P1, P3 wider than it), and among all
 *    points otherwise; a line contact keeps its touching ends and then the ends of all points.
 *    By extent alone a resting rock on a crest kept one touching point beside three far
 *    speculative corners, and which of its two touching points survived flipped from step to
 *    step as it rocked by microns. P4 is taken among the touching points too while one adds
 *    area, except with ManifoldGroups.fourthAmongAll (the polytope–terrain routine), where it is
 *    the point adding the most area among ALL points: a box face tilting by a fraction of a
 *    degree over flat ground touches along one side and at the grid vertices under the face, a
 *    strip the body's centre of mass may lie outside of; taken from the touching points alone,
 *    the manifold was that strip and the body rolled over into the ground (a 0.6 × 0.4 m box
 *    dropped flat at 3 m/s sank 3 mm), while the far corner a few tenths of a millimetre up,
 *    kept as P4, catches it. The wheel keeps the touching P4: its touching points are its patch
 *    (with P4 among all for the wheel too, one benchmark run's deepest wheel contact went from
 *    1.6 to 6.2 mm; docs/benchmarks.md, fourth pass).
 *
 *            P2 ●──────────● P4        signed area of (a, b, q) = ((b − a) × (q − a)) · n
 *               │ ╲        │           > 0: q left of a→b (inside for a CCW triangle)
 *               │   ╲      │           the best P4 minimises the minimum over the 3 edges
 *            P1 ●─────● P3
 *
 * Ties. Every "better" must win by more than MANIFOLD_TIE_TOLERANCE (1 nm; for areas, 1 nm times
 * |P1P2|), so round-off never reorders equal points: ties go to the first candidate, which keeps
 * the choice stable while a body moves and when the terrain array is shifted.
 *
 * Output: reduceManifoldInto appends to `out` (the source is not modified), groups in order of
 * their representative, the kept points of a group in candidate order; reduceManifoldInPlace
 * (face clipping, whose points already sit in the output) keeps them in place, in candidate order.
 * reduceManifoldAppendedInto reduces again after contacts were appended (the wheel's element walls),
 * selecting only the groups they join: the same output as a full reduceManifoldInto.
 * Nothing allocates: the caller owns a ManifoldGroups scratch sized for its candidate buffer.
 */
import {
  MANIFOLD_GROUP_COS,
  MANIFOLD_LINE_CONTACT_DISTANCE,
  MANIFOLD_MAX_NORMAL_GROUPS,
  MANIFOLD_TIE_TOLERANCE,
  MANIFOLD_TOUCH_DISTANCE,
  ROUND_OFF_RATIO,
} from '../constants';
import type { ContactBuffer } from './contact';

/** Fixed-capacity scratch of the reduction (one per caller or workspace; never shared by two calls in flight). */
export class ManifoldGroups {
  /** Most candidates one call reduces; further ones are ignored and reported (CandidateOverflow). */
  readonly capacity: number;
  /** Most normal groups; further normals join their nearest group (GroupOverflow). */
  readonly maxGroups: number;
  /** Group index of each candidate. */
  readonly groupOf: Int32Array;
  /** Candidate indices sorted by group, candidate order inside a group. */
  readonly members: Int32Array;
  /** End (exclusive) of each group's run in `members`; group q starts at end[q − 1] (0 for q = 0). */
  readonly end: Int32Array;
  /** Representative unit normal of each group. */
  readonly normal: Float64Array;
  /** Groups of the last call. */
  count = 0;
  /** Candidate indices kept by the last call, group after group (≤ MANIFOLD_MAX_POINTS each). */
  readonly kept: Int32Array;
  /** End (exclusive) of each group's run in `kept` after reduceManifoldInto. */
  readonly keptEnd: Int32Array;
  /** Copy of the previous call's kept runs (reduceManifoldAppendedInto). */
  readonly keptBefore: Int32Array;
  /**
   * Candidates the last reduceManifoldInto (or reduceManifoldAppendedInto) grouped and selected
   * from, −1 when the scratch holds no such state (reduceManifoldInPlace).
   */
  reduced = -1;
  /** GroupOverflow bit of that call's grouping. */
  groupStatus = 0;
  /**
   * Where a group that mixes touching and speculative points takes its fourth point: false, among
   * the touching points while one adds area (the wheel's patch); true, among all of its points
   * (polytope–terrain: see "Touching first" above).
   */
  readonly fourthAmongAll: boolean;

  constructor(capacity: number, maxGroups = MANIFOLD_MAX_NORMAL_GROUPS, fourthAmongAll = false) {
    if (!(capacity >= 1 && maxGroups >= 1)) throw new Error(`ManifoldGroups: capacity ${capacity} and maxGroups ${maxGroups} must be ≥ 1`);
    this.capacity = capacity;
    this.fourthAmongAll = fourthAmongAll;
    this.maxGroups = maxGroups;
    this.groupOf = new Int32Array(capacity);
    this.members = new Int32Array(capacity);
    this.end = new Int32Array(maxGroups);
    this.normal = new Float64Array(maxGroups * 3);
    this.kept = new Int32Array(capacity);
    this.keptEnd = new Int32Array(maxGroups);
    this.keptBefore = new Int32Array(capacity);
  }
}

/** Status bits of reduceManifoldInto (0 = complete). The points that were written are valid either way. */
export const ReduceManifoldStatus = {
  Ok: 0,
  /** More normal groups than the scratch holds: the extra normals joined their nearest group. */
  GroupOverflow: 1,
  /** `out` filled up: some reduced points were dropped (also counted in out.overflow). */
  OutputOverflow: 2,
  /** More candidates than the scratch's capacity: only the first `capacity` were reduced. */
  CandidateOverflow: 4,
} as const;

/**
 * Groups `src`'s contacts by normal and appends at most 4 per group (2 or 3 for a line contact)
 * to `out`. `src` is not modified. Returns ReduceManifoldStatus bits.
 */
export function reduceManifoldInto(out: ContactBuffer, src: ContactBuffer, groups: ManifoldGroups): number {
  let status = 0;
  let n = src.count;
  if (n > groups.capacity) {
    status |= ReduceManifoldStatus.CandidateOverflow;
    n = groups.capacity;
  }
  const groupStatus = groupByNormal(groups, src, 0, n);
  status |= groupStatus;
  const kept = groups.kept;
  let k0 = 0;
  for (let q = 0; q < groups.count; q++) {
    const k1 = selectGroup(src, groups, q, q === 0 ? 0 : groups.end[q - 1], groups.end[q], k0);
    for (let k = k0; k < k1; k++) status |= emit(out, src, kept[k]);
    groups.keptEnd[q] = k1;
    k0 = k1;
  }
  groups.reduced = status & ReduceManifoldStatus.CandidateOverflow ? -1 : n;
  groups.groupStatus = groupStatus;
  return status;
}

/**
 * reduceManifoldInto again after contacts were appended to `src`: `groups` holds the last
 * reduction of src's first `first` contacts (unchanged since). The result is the same as
 * reduceManifoldInto(out, src, groups), bit for bit, but only the groups the new contacts join
 * are selected again: when no new contact starts a group of its own, the representatives (chosen
 * greedily in candidate order) and hence every earlier contact's group are unchanged, the new
 * contacts come last in their groups' runs, and a group nothing joined keeps its points. Otherwise
 * (a new group, or no such state) it is the full reduction. Returns ReduceManifoldStatus bits.
 */
export function reduceManifoldAppendedInto(out: ContactBuffer, src: ContactBuffer, groups: ManifoldGroups, first: number): number {
  const n = src.count, g = groups.count;
  if (groups.reduced !== first || n > groups.capacity || !joinExistingGroups(groups, src, first, n)) return reduceManifoldInto(out, src, groups);
  // Runs by group, in candidate order, as groupByNormal's step 1c builds them: each group's
  // count is its old run's length plus the new contacts that joined it.
  const groupOf = groups.groupOf, mem = groups.members, end = groups.end;
  if (g === 1) {
    for (let k = first; k < n; k++) mem[k] = k;
    end[0] = n;
  } else {
    for (let q = g - 1; q > 0; q--) end[q] -= end[q - 1];
    for (let k = first; k < n; k++) end[groupOf[k]]++;
    runsByGroup(groupOf, mem, end, g, n, 0);
  }
  const kept = groups.kept, before = groups.keptBefore, keptEnd = groups.keptEnd;
  const total = g > 0 ? keptEnd[g - 1] : 0;
  for (let k = 0; k < total; k++) before[k] = kept[k];
  let status = groups.groupStatus;
  let k0 = 0, was0 = 0;
  for (let q = 0; q < g; q++) {
    const was1 = keptEnd[q];
    let k1: number;
    if (groupJoined(groups, q, first)) {
      k1 = selectGroup(src, groups, q, q === 0 ? 0 : end[q - 1], end[q], k0);
    } else {
      k1 = k0;
      for (let k = was0; k < was1; k++) kept[k1++] = before[k];
    }
    for (let k = k0; k < k1; k++) status |= emit(out, src, kept[k]);
    keptEnd[q] = k1;
    k0 = k1;
    was0 = was1;
  }
  groups.reduced = n;
  return status;
}

/**
 * Step 1 for the contacts first..n−1 of src appended after a reduction of the earlier ones:
 * each joins its nearest representative (groupOf) as groupByNormal would. Returns false, with
 * nothing decided, if one is not within the grouping angle of any representative (it would start
 * a group, which may take earlier contacts from theirs).
 */
function joinExistingGroups(groups: ManifoldGroups, src: ContactBuffer, first: number, n: number): boolean {
  const N = src.normal, gn = groups.normal, g = groups.count;
  const groupCos = MANIFOLD_GROUP_COS;
  for (let k = first; k < n; k++) {
    const nx = N[3 * k], ny = N[3 * k + 1], nz = N[3 * k + 2];
    let covered = false;
    for (let q = 0; q < g && !covered; q++) covered = nx * gn[3 * q] + ny * gn[3 * q + 1] + nz * gn[3 * q + 2] >= groupCos;
    if (!covered) return false;
  }
  for (let k = first; k < n; k++) groups.groupOf[k] = nearestGroup(gn, g, N, k);
  return true;
}

/** Index of the representative nearest to contact k's normal (groupByNormal step 1b; ties go to the first). */
function nearestGroup(gn: Float64Array, g: number, N: Float64Array, k: number): number {
  const nx = N[3 * k], ny = N[3 * k + 1], nz = N[3 * k + 2];
  let best = 0;
  let bestDot = nx * gn[0] + ny * gn[1] + nz * gn[2];
  for (let q = 1; q < g; q++) {
    const d = nx * gn[3 * q] + ny * gn[3 * q + 1] + nz * gn[3 * q + 2];
    if (d > bestDot + ROUND_OFF_RATIO) {
      bestDot = d;
      best = q;
    }
  }
  return best;
}

/** True if group q's run (groups.members) holds a contact at index ≥ first: the last of the run, candidate order. */
function groupJoined(groups: ManifoldGroups, q: number, first: number): boolean {
  const b = groups.end[q], a = q === 0 ? 0 : groups.end[q - 1];
  return b > a && groups.members[b - 1] >= first;
}

/**
 * The same reduction in place: the contacts [start, buf.count) are reduced and the kept ones
 * moved down to start.., in candidate order (all groups together). Saves the copy when the
 * candidates already sit in the output (face clipping). Returns ReduceManifoldStatus bits.
 */
export function reduceManifoldInPlace(buf: ContactBuffer, start: number, groups: ManifoldGroups): number {
  groups.reduced = -1;
  let status = 0;
  let n = buf.count - start;
  if (n > groups.capacity) {
    status |= ReduceManifoldStatus.CandidateOverflow;
    n = groups.capacity;
  }
  // Groups of one or two points keep them all: with two candidates or fewer nothing moves.
  if (n <= 2) return status;
  status |= groupByNormal(groups, buf, start, n);
  let kn = 0;
  for (let q = 0; q < groups.count; q++) kn = selectGroup(buf, groups, q, q === 0 ? 0 : groups.end[q - 1], groups.end[q], kn);
  // In ascending order, a kept contact never moves up, so no move overwrites one still to move.
  const kept = groups.kept;
  sortAscending(kept, 0, kn);
  for (let k = 0; k < kn; k++) buf.move(start + k, kept[k]);
  buf.count = start + kn;
  return status;
}

/**
 * Step 1: fills groups.groupOf, members (contact indices first..first+n−1), end, normal and
 * count for those n contacts of src.
 */
function groupByNormal(groups: ManifoldGroups, src: ContactBuffer, first: number, n: number): number {
  let status = 0;
  const N = src.normal, gn = groups.normal, groupOf = groups.groupOf;
  const groupCos = MANIFOLD_GROUP_COS;
  // 1a. Representatives: a candidate not within the grouping angle of any representative so far
  //     starts a new group (greedy, in candidate order).
  let g = 0;
  for (let k = first; k < first + n; k++) {
    const nx = N[3 * k], ny = N[3 * k + 1], nz = N[3 * k + 2];
    let covered = false;
    for (let q = 0; q < g && !covered; q++) covered = nx * gn[3 * q] + ny * gn[3 * q + 1] + nz * gn[3 * q + 2] >= groupCos;
    if (covered) continue;
    if (g === groups.maxGroups) {
      status |= ReduceManifoldStatus.GroupOverflow;
      continue;
    }
    gn[3 * g] = nx;
    gn[3 * g + 1] = ny;
    gn[3 * g + 2] = nz;
    g++;
  }
  groups.count = g;
  const mem = groups.members, end = groups.end;
  if (g === 1) {
    // One group (every manifold of face clipping): all candidates, in order.
    for (let k = 0; k < n; k++) {
      groupOf[k] = 0;
      mem[k] = first + k;
    }
    end[0] = n;
    return status;
  }
  // 1b. Membership: every candidate joins its NEAREST representative (a one-pass greedy split
  //     equal normals when a later representative came closer). Ties go to the first.
  //     end[q] counts group q's members.
  for (let q = 0; q < g; q++) end[q] = 0;
  for (let k = 0; k < n; k++) {
    const q = nearestGroup(gn, g, N, first + k);
    groupOf[k] = q;
    end[q]++;
  }
  // 1c. Candidates by group, in candidate order inside a group: a counting sort (end[q] becomes
  //     the start of q's run, then each member is placed at it and moves it on to the run's end).
  runsByGroup(groupOf, mem, end, g, n, first);
  return status;
}

/**
 * Groups' runs in `mem` from the member counts in end[0..g): mem gets first + k for every
 * k < n, grouped by groupOf[k] in group order, in candidate order inside a group; end[q]
 * becomes the end (exclusive) of q's run.
 */
function runsByGroup(groupOf: Int32Array, mem: Int32Array, end: Int32Array, g: number, n: number, first: number): void {
  let start = 0;
  for (let q = 0; q < g; q++) {
    const c = end[q];
    end[q] = start;
    start += c;
  }
  for (let k = 0; k < n; k++) mem[end[groupOf[k]]++] = first + k;
}

/**
 * Step 2 for group q (members[a..b)): appends the indices of its kept points to groups.kept
 * from slot k0, in candidate order. Returns the slot after them.
 */
function selectGroup(src: ContactBuffer, groups: ManifoldGroups, q: number, a: number, b: number, k0: number): number {
  const mem = groups.members, kept = groups.kept;
  if (b - a <= 2) {
    for (let m = a; m < b; m++) kept[k0++] = mem[m];
    return k0;
  }
  // Groups of 3 or 4 go through the selection too: a line contact keeps only its ends, and a
  // point inside the triangle of the other three adds no area.
  const P = src.point, D = src.depth;
  const tie = MANIFOLD_TIE_TOLERANCE, lineDistance = MANIFOLD_LINE_CONTACT_DISTANCE;

  // P1: deepest; among the equally deep (within the tie), the farthest from the centroid.
  // `ties` counts the points within the tie of the running maximum: never fewer than those
  // within the tie of the final one (a new maximum more than the tie above the old one has no
  // earlier point within the tie of it).
  // The same pass counts the touching points (nt, below).
  const touch = -MANIFOLD_TOUCH_DISTANCE;
  let maxDepth = -Infinity, i1 = -1, ties = 0, nt = 0;
  for (let m = a; m < b; m++) {
    const k = mem[m], d = D[k];
    if (d >= touch) nt++;
    if (d > maxDepth + tie) ties = 1;
    else if (d >= maxDepth - tie) ties++;
    if (d > maxDepth) {
      maxDepth = d;
      i1 = k;
    }
  }
  if (ties > 1) {
    let gx = 0, gy = 0, gz = 0;
    for (let m = a; m < b; m++) {
      const k = mem[m];
      gx += P[3 * k];
      gy += P[3 * k + 1];
      gz += P[3 * k + 2];
    }
    gx /= b - a;
    gy /= b - a;
    gz /= b - a;
    let farBar = -1;
    for (let m = a; m < b; m++) {
      const k = mem[m];
      if (D[k] < maxDepth - tie) continue;
      const dx = P[3 * k] - gx, dy = P[3 * k + 1] - gy, dz = P[3 * k + 2] - gz;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > farBar) {
        i1 = k;
        const r = Math.sqrt(d2) + tie;
        farBar = r * r;
      }
    }
  }
  const x1 = P[3 * i1], y1 = P[3 * i1 + 1], z1 = P[3 * i1 + 2];

  // Touching points first: when the group mixes touching and speculative points, P2 and P3 are
  // taken among the touching ones while those still span something (farther than the line
  // distance, wider than it), and among all points otherwise; P4 likewise, or among all points
  // with groups.fourthAmongAll (see above).
  const tiered = nt > 0 && nt < b - a;

  // P2: farthest from P1 (distances compared squared against (best + tie)²).
  let i2 = i1, bar = -1;
  for (let pass = tiered ? 0 : 1; pass < 2; pass++) {
    for (let m = a; m < b; m++) {
      const k = mem[m];
      if (pass === 0 && D[k] < touch) continue;
      const dx = P[3 * k] - x1, dy = P[3 * k + 1] - y1, dz = P[3 * k + 2] - z1;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > bar) {
        i2 = k;
        const r = Math.sqrt(d2) + tie;
        bar = r * r;
      }
    }
    if (bar > lineDistance * lineDistance) break;
  }
  const ex = P[3 * i2] - x1, ey = P[3 * i2 + 1] - y1, ez = P[3 * i2 + 2] - z1;
  const eLen = Math.sqrt(ex * ex + ey * ey + ez * ez);

  // P3: farthest from the line P1P2; |e × (P − P1)| = distance · |e|.
  let i3 = -1, width = 0;
  if (eLen > 0) {
    bar = -1;
    for (let pass = tiered ? 0 : 1; pass < 2; pass++) {
      for (let m = a; m < b; m++) {
        const k = mem[m];
        if (pass === 0 && D[k] < touch) continue;
        const dx = P[3 * k] - x1, dy = P[3 * k + 1] - y1, dz = P[3 * k + 2] - z1;
        const cx = ey * dz - ez * dy, cy = ez * dx - ex * dz, cz = ex * dy - ey * dx;
        const c2 = cx * cx + cy * cy + cz * cz;
        if (c2 > bar) {
          i3 = k;
          width = Math.sqrt(c2) / eLen;
          const r = (width + tie) * eLen;
          bar = r * r;
        }
      }
      if (width > lineDistance) break;
    }
  }
  if (!(width > lineDistance)) return lineContact(src, groups, a, b, i1, i2, k0, tiered);
  kept[k0] = i1;
  kept[k0 + 1] = i2;
  kept[k0 + 2] = i3;
  if (b - a === 3) return sortAscending(kept, k0, k0 + 3); // a triangle: no fourth point to choose

  // P4: the point that adds the most area, signed areas seen along the group normal.
  const nx = groups.normal[3 * q], ny = groups.normal[3 * q + 1], nz = groups.normal[3 * q + 2];
  const x2 = P[3 * i2], y2 = P[3 * i2 + 1], z2 = P[3 * i2 + 2];
  const x3 = P[3 * i3], y3 = P[3 * i3 + 1], z3 = P[3 * i3 + 2];
  // ((b − a) × (q − a))·n = (n × (b − a))·(q − a): one vector w = n × (b − a) per edge, and per
  // point three dot products. The signs are flipped if P1P2P3 turns clockwise around n, so that
  // inside is positive either way.
  let w12x = ny * (z2 - z1) - nz * (y2 - y1), w12y = nz * (x2 - x1) - nx * (z2 - z1), w12z = nx * (y2 - y1) - ny * (x2 - x1);
  let w23x = ny * (z3 - z2) - nz * (y3 - y2), w23y = nz * (x3 - x2) - nx * (z3 - z2), w23z = nx * (y3 - y2) - ny * (x3 - x2);
  let w31x = ny * (z1 - z3) - nz * (y1 - y3), w31y = nz * (x1 - x3) - nx * (z1 - z3), w31z = nx * (y1 - y3) - ny * (x1 - x3);
  if (w12x * (x3 - x1) + w12y * (y3 - y1) + w12z * (z3 - z1) < 0) {
    w12x = -w12x; w12y = -w12y; w12z = -w12z;
    w23x = -w23x; w23y = -w23y; w23z = -w23z;
    w31x = -w31x; w31y = -w31y; w31z = -w31z;
  }
  const areaTie = tie * eLen;
  // A point is taken when −worst > most + areaTie, i.e. worst < areaBar = −(most + areaTie)
  // (negation is exact). Its worst is one of s12, s23, s31, so a point with none of them below
  // the bar cannot be taken: the test skips the minimum's unpredictable branches for the points
  // inside or near the triangle (most of them), and picks the same point.
  let i4 = -1, most = 0, areaBar = -areaTie;
  for (let pass = tiered && !groups.fourthAmongAll ? 0 : 1; pass < 2 && i4 < 0; pass++) {
    for (let m = a; m < b; m++) {
      const k = mem[m];
      if (k === i1 || k === i2 || k === i3 || (pass === 0 && D[k] < touch)) continue;
      const px = P[3 * k], py = P[3 * k + 1], pz = P[3 * k + 2];
      const s12 = (px - x1) * w12x + (py - y1) * w12y + (pz - z1) * w12z;
      const s23 = (px - x2) * w23x + (py - y2) * w23y + (pz - z2) * w23z;
      const s31 = (px - x3) * w31x + (py - y3) * w31y + (pz - z3) * w31z;
      if (!(s12 < areaBar || s23 < areaBar || s31 < areaBar)) continue;
      let worst = s12 < s23 ? s12 : s23;
      if (s31 < worst) worst = s31;
      const added = -worst; // twice the area the point adds outside its worst edge
      if (added > most + areaTie) {
        most = added;
        areaBar = -(most + areaTie);
        i4 = k;
      }
    }
  }
  kept[k0 + 3] = i4;
  return sortAscending(kept, k0, i4 >= 0 ? k0 + 4 : k0 + 3);
}

/**
 * A line contact (or a group whose points all coincide): the two extremes along e = P2 − P1; at
 * an extreme shared by several points (within the tie), the deeper one; then P1 if it is deeper
 * than both ends (a curved line). Tiered (touching and speculative points mixed): the touching
 * points' two extremes first, then the extremes of all points (at most 4).
 */
function lineContact(src: ContactBuffer, groups: ManifoldGroups, a: number, b: number, i1: number, i2: number, k0: number, tiered: boolean): number {
  const P = src.point, D = src.depth, mem = groups.members;
  const tie = MANIFOLD_TIE_TOLERANCE, touch = -MANIFOLD_TOUCH_DISTANCE;
  const x1 = P[3 * i1], y1 = P[3 * i1 + 1], z1 = P[3 * i1 + 2];
  // e and |e| as selectGroup computes them (P1 and P2 by index: no double crosses the call).
  const ex = P[3 * i2] - x1, ey = P[3 * i2 + 1] - y1, ez = P[3 * i2 + 2] - z1;
  const eLen = Math.sqrt(ex * ex + ey * ey + ez * ez);
  const kept = groups.kept;
  let k1 = k0;
  // the touching points' extremes first (tiered), then the extremes of all points
  for (let pass = tiered ? 0 : 1; pass < 2; pass++) {
    let lo = i1, hi = i1, tLo = 0, tHi = 0;
    for (let m = a; m < b; m++) {
      const k = mem[m];
      if (pass === 0 && D[k] < touch) continue;
      const t = eLen > 0 ? ((P[3 * k] - x1) * ex + (P[3 * k + 1] - y1) * ey + (P[3 * k + 2] - z1) * ez) / eLen : 0;
      if (t < tLo - tie || (t <= tLo + tie && D[k] > D[lo] + tie)) {
        tLo = Math.min(t, tLo);
        lo = k;
      }
      if (t > tHi + tie || (t >= tHi - tie && D[k] > D[hi] + tie)) {
        tHi = Math.max(t, tHi);
        hi = k;
      }
    }
    k1 = keepOnce(kept, k0, k1, lo);
    k1 = keepOnce(kept, k0, k1, hi);
  }
  if (D[i1] > D[kept[k0]] + tie && D[i1] > D[kept[k1 - 1]] + tie && k1 - k0 < 4) k1 = keepOnce(kept, k0, k1, i1);
  return sortAscending(kept, k0, k1);
}

/** Appends k to kept[k0..k1) unless it is there already; returns the new end. */
function keepOnce(kept: Int32Array, k0: number, k1: number, k: number): number {
  for (let s = k0; s < k1; s++) if (kept[s] === k) return k1;
  kept[k1] = k;
  return k1 + 1;
}

/**
 * Sorts a[from..to) ascending (insertion sort: a group keeps ≤ 4) and returns `to`. Kept points
 * go out in candidate order: the solver sees them in the order their routine produced them
 * (cell order for terrain), whichever rule picked them.
 */
function sortAscending(a: Int32Array, from: number, to: number): number {
  for (let i = from + 1; i < to; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= from && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  return to;
}

/**
 * Copies candidate `k` of `src` into `out`; OutputOverflow when `out` is full (then counted in
 * out.overflow, as ContactBuffer.push does).
 */
function emit(out: ContactBuffer, src: ContactBuffer, k: number): number {
  if (out.count >= out.capacity) {
    out.overflow++;
    return ReduceManifoldStatus.OutputOverflow;
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
  return ReduceManifoldStatus.Ok;
}
