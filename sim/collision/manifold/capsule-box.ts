/**
 * Capsule–box contacts (also sphere–box: a sphere is a capsule with a zero-length segment).
 * Capsule A = segment S(t) = P0 + t·u, t ∈ [0, 1], inflated by r; box B = centre c, rotation q,
 * half extents h. All work happens in B's local frame.
 *
 * 1. Cores apart. The squared distance from S(t) to the box,
 *        f(t) = Σ_k max(0, |l_k(t)| − h_k)²,   l(t) = local coordinates of S(t),
 *    is convex and piecewise quadratic in t; its pieces change where l_k(t) = ±h_k (≤ 6 break
 *    points). On each piece the clamped axes are fixed, so the minimiser is the vertex of a
 *    parabola, clamped to the piece: an exact, loop-bounded segment–box distance (no GJK).
 *    n = (S − Q)/|S − Q| from the box into the capsule, depth = r − |S − Q|.
 *    If Q lies on a face (one axis clamped), the core segment is clipped against that face too
 *    and each clipped axis point yields the capsule surface point below it (clipOnFace), giving
 *    a 2-point line contact for a capsule lying on a box.
 * 2. Cores overlap (f = 0: the segment enters the box). SAT over the 3 box face normals and the
 *    3 cross products u × B_k (Habr SAT article; a segment has no faces): the axis of largest
 *    separation s ≤ 0 is the normal and depth = r − s. Face axis: clip the segment against that
 *    face as above; edge axis: closest points of the segment and the box edge along that axis.
 *
 * Box local frame and face numbering are those of sat-box-box.ts (face f = 2·axis + (sign < 0)).
 */
import {
  CORE_TOUCH_DISTANCE,
  GEOMETRIC_EPSILON,
  SAT_EDGE_PARALLEL_EPSILON,
} from '../../constants';
import type { ContactBuffer } from '../contact';
import type { Quat } from '../../math/quat';
import { quatRotate, quatRotateInverse } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import { closestPointsSegmentSegment, createSegmentClosest } from '../segment-closest';
import { ClipWorkspace, clipIncidentByReference } from './clip-faces';
import { FacePolygon } from './face-polygon';
import { PairContactKind, TAG_EDGE_PAIR, TAG_VERTEX, packFeature } from './feature-id';

/** Result of segmentBoxDistanceSq: the segment parameter t of the closest point and f(t), the squared distance. */
interface SegmentBoxClosest { t: number; f: number }

/**
 * Scratch of collideCapsuleBox, owned by the caller (the world's narrow phase, a query
 * context). One call at a time per workspace.
 */
export class CapsuleBoxWorkspace {
  /** The core segment's ends in the box's local frame. */
  readonly l0: Vec3 = [0, 0, 0];
  readonly l1: Vec3 = [0, 0, 0];
  readonly tmp: Vec3 = [0, 0, 0];
  /** The contact normal (world, from the box toward the capsule) and the box point (world offset from c). */
  readonly nW: Vec3 = [0, 0, 0];
  readonly qW: Vec3 = [0, 0, 0];
  /** The box face clipped against (world) and the capsule's core segment clipped by it. */
  readonly ref = new FacePolygon();
  readonly core = new FacePolygon();
  readonly cpt: Vec3 = [0, 0, 0];
  readonly closest = createSegmentClosest();
  /** The box edge of an edge axis (local). */
  readonly e0: Vec3 = [0, 0, 0];
  readonly e1: Vec3 = [0, 0, 0];
  /** Break points of f(t): 0, 1 and up to 6 slab crossings. */
  readonly breaks = new Float64Array(8);
  readonly segBox: SegmentBoxClosest = { t: 0, f: 0 };
  readonly clip = new ClipWorkspace();
}

/** Exact min over t ∈ [0,1] of the squared distance from l0 + t(l1 − l0) to the box [−h, h] (l0, l1 in ws). */
function segmentBoxDistanceSq(out: SegmentBoxClosest, ws: CapsuleBoxWorkspace, h: Readonly<Vec3>): void {
  const l0 = ws.l0, l1 = ws.l1, breaks = ws.breaks;
  let nb = 0;
  breaks[nb++] = 0;
  breaks[nb++] = 1;
  for (let k = 0; k < 3; k++) {
    const u = l1[k] - l0[k];
    if (u === 0) continue;
    for (let s = -1; s <= 1; s += 2) {
      const t = (s * h[k] - l0[k]) / u;
      if (t > 0 && t < 1) breaks[nb++] = t;
    }
  }
  // insertion sort (≤ 8 values)
  for (let a = 1; a < nb; a++) {
    const v = breaks[a];
    let b = a - 1;
    while (b >= 0 && breaks[b] > v) {
      breaks[b + 1] = breaks[b];
      b--;
    }
    breaks[b + 1] = v;
  }
  let bestF = Infinity;
  let bestT = 0;
  for (let i = 0; i + 1 < nb; i++) {
    const ta = breaks[i], tb = breaks[i + 1];
    const tm = 0.5 * (ta + tb);
    // On this piece, axis k contributes (l_k(t) − s_k h_k)² where s_k is fixed.
    let num = 0, den = 0;
    for (let k = 0; k < 3; k++) {
      const u = l1[k] - l0[k];
      const lm = l0[k] + tm * u;
      const s = lm > h[k] ? 1 : lm < -h[k] ? -1 : 0;
      if (s === 0) continue;
      num += u * (l0[k] - s * h[k]);
      den += u * u;
    }
    let t = den > 0 ? -num / den : ta;
    if (!(t >= ta)) t = ta;
    if (t > tb) t = tb;
    const f = pointBoxDistanceSq(l0, l1, t, h);
    if (f < bestF) {
      bestF = f;
      bestT = t;
    }
  }
  if (nb === 2 && bestF === Infinity) {
    bestF = pointBoxDistanceSq(l0, l1, 0, h);
    bestT = 0;
  }
  out.t = bestT;
  out.f = bestF;
}

function pointBoxDistanceSq(l0: Readonly<Vec3>, l1: Readonly<Vec3>, t: number, h: Readonly<Vec3>): number {
  let f = 0;
  for (let k = 0; k < 3; k++) {
    const l = l0[k] + t * (l1[k] - l0[k]);
    const e = l > h[k] ? l - h[k] : l < -h[k] ? -h[k] - l : 0;
    f += e * e;
  }
  return f;
}

/** Box face (local) with outward normal sign·e_axis into `poly`, transformed to world. */
function boxFaceWorld(poly: FacePolygon, tmp: Vec3, c: Readonly<Vec3>, q: Readonly<Quat>, h: Readonly<Vec3>, axis: number, sign: number): number {
  const u = axis === 2 ? 0 : axis + 1;
  const v = axis === 0 ? 2 : axis === 1 ? 0 : 1;
  poly.clear();
  for (let k = 0; k < 4; k++) {
    const kk = sign > 0 ? k : 3 - k;
    tmp[axis] = sign * h[axis];
    tmp[u] = (kk === 0 || kk === 3 ? 1 : -1) * h[u];
    tmp[v] = (kk <= 1 ? 1 : -1) * h[v];
    quatRotate(tmp, q, tmp);
    poly.push(c[0] + tmp[0], c[1] + tmp[1], c[2] + tmp[2], k, TAG_VERTEX, k);
  }
  return 2 * axis + (sign < 0 ? 1 : 0);
}

/**
 * Largest λ with c − λ·n still inside the capsule (segment a0a1, radius r), for c on the
 * segment: where a ray from the axis going along −n leaves the capsule. The capsule is the union
 * of the cylinder around the segment and the two end balls; the ray's exit is the farthest of
 * their exits (the cylinder's only if it leaves through the side within the segment's span).
 * Never less than r (the ball around c).
 */
export function capsuleRayExit(
  c: Readonly<Vec3>, nx: number, ny: number, nz: number, a0: Readonly<Vec3>, a1: Readonly<Vec3>, r: number,
): number {
  let best = r;
  const ux = a1[0] - a0[0], uy = a1[1] - a0[1], uz = a1[2] - a0[2];
  const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (len > GEOMETRIC_EPSILON) {
    const nu = (nx * ux + ny * uy + nz * uz) / len;
    const perp2 = 1 - nu * nu;
    if (perp2 > GEOMETRIC_EPSILON) {
      const lc = r / Math.sqrt(perp2);
      const t = ((c[0] - a0[0]) * ux + (c[1] - a0[1]) * uy + (c[2] - a0[2]) * uz) / (len * len) - (lc * nu) / len;
      if (t >= 0 && t <= 1 && lc > best) best = lc;
    }
  }
  for (let e = 0; e < 2; e++) {
    const ex = e === 0 ? a0 : a1;
    const dx = c[0] - ex[0], dy = c[1] - ex[1], dz = c[2] - ex[2];
    const b = dx * nx + dy * ny + dz * nz;
    const disc = b * b - (dx * dx + dy * dy + dz * dz) + r * r;
    if (disc >= 0) {
      const l = b + Math.sqrt(disc);
      if (l > best) best = l;
    }
  }
  return best;
}

/**
 * Face contact of the capsule on box face (axis, sign), nW = the face's outward world normal
 * (from B toward A). The capsule's CORE segment is clipped by the face's side planes; each
 * clipped axis point c gives the capsule surface point straight below it along −n (capsuleRayExit),
 * so the contact is exact on both bodies even for a tilted capsule (pushing the side line down by
 * r would leave points inside the capsule). Returns the contacts written.
 */
function clipOnFace(
  out: ContactBuffer, ws: CapsuleBoxWorkspace, a0: Readonly<Vec3>, a1: Readonly<Vec3>, r: number,
  c: Readonly<Vec3>, q: Readonly<Quat>, h: Readonly<Vec3>, axis: number, sign: number, margin: number,
): number {
  const ref = ws.ref, core = ws.core, cpt = ws.cpt, nW = ws.nW;
  const faceId = boxFaceWorld(ref, ws.tmp, c, q, h, axis, sign);
  core.clear();
  core.push(a0[0], a0[1], a0[2], 0, TAG_VERTEX, 0);
  const len2 = (a1[0] - a0[0]) ** 2 + (a1[1] - a0[1]) ** 2 + (a1[2] - a0[2]) ** 2;
  if (len2 > GEOMETRIC_EPSILON * GEOMETRIC_EPSILON) core.push(a1[0], a1[1], a1[2], 0, TAG_VERTEX, 1);
  const clipped = clipIncidentByReference(ref, nW, core, ws.clip);
  const nx = nW[0], ny = nW[1], nz = nW[2];
  const ox = ref.xyz[0], oy = ref.xyz[1], oz = ref.xyz[2];
  const start = out.count;
  for (let k = 0; k < clipped.count; k++) {
    cpt[0] = clipped.xyz[3 * k];
    cpt[1] = clipped.xyz[3 * k + 1];
    cpt[2] = clipped.xyz[3 * k + 2];
    const lam = capsuleRayExit(cpt, nx, ny, nz, a0, a1, r);
    const px = cpt[0] - lam * nx, py = cpt[1] - lam * ny, pz = cpt[2] - lam * nz; // on the capsule
    const sep = (px - ox) * nx + (py - oy) * ny + (pz - oz) * nz;
    if (!(sep <= margin)) continue;
    out.push(px - sep * nx, py - sep * ny, pz - sep * nz, nx, ny, nz, -sep, PairContactKind.CapsuleConvex, -1, -1,
      packFeature(true, faceId, 0, clipped.tagX[k], clipped.tagY[k]));
  }
  return out.count - start;
}

/**
 * Appends contacts between capsule A (segment a0a1, radius r) and box B (c, q, h) to `out`
 * (engine convention: point on B, normal from B into A, depth ≥ −margin). Returns the count.
 * `ws` is the caller's scratch.
 */
export function collideCapsuleBox(
  out: ContactBuffer,
  a0: Readonly<Vec3>, a1: Readonly<Vec3>, r: number,
  c: Readonly<Vec3>, q: Readonly<Quat>, h: Readonly<Vec3>,
  margin: number,
  ws: CapsuleBoxWorkspace,
): number {
  const l0 = ws.l0, l1 = ws.l1, tmp = ws.tmp, nW = ws.nW, qW = ws.qW, segBox = ws.segBox;
  tmp[0] = a0[0] - c[0];
  tmp[1] = a0[1] - c[1];
  tmp[2] = a0[2] - c[2];
  quatRotateInverse(l0, q, tmp);
  tmp[0] = a1[0] - c[0];
  tmp[1] = a1[1] - c[1];
  tmp[2] = a1[2] - c[2];
  quatRotateInverse(l1, q, tmp);
  segmentBoxDistanceSq(segBox, ws, h);
  const bestT = segBox.t;
  const dist = Math.sqrt(segBox.f);
  if (dist - r > margin) return 0;

  if (dist > CORE_TOUCH_DISTANCE) {
    // 1. Cores apart: normal from the closest box point Q to S(t).
    let clamped = 0, faceAxis = 0, faceSign = 1;
    for (let k = 0; k < 3; k++) {
      const lk = l0[k] + bestT * (l1[k] - l0[k]);
      const qk = lk > h[k] ? h[k] : lk < -h[k] ? -h[k] : lk;
      tmp[k] = (lk - qk) / dist;
      qW[k] = qk;
      if (lk !== qk) {
        clamped++;
        faceAxis = k;
        faceSign = lk > 0 ? 1 : -1;
      }
    }
    quatRotate(nW, q, tmp);
    if (clamped === 1) {
      const k = clipOnFace(out, ws, a0, a1, r, c, q, h, faceAxis, faceSign, margin);
      if (k > 0) return k;
    }
    quatRotate(qW, q, qW);
    out.push(c[0] + qW[0], c[1] + qW[1], c[2] + qW[2], nW[0], nW[1], nW[2], r - dist,
      PairContactKind.CapsuleConvex, -1, -1, packFeature(false, 0, 0, TAG_EDGE_PAIR, TAG_EDGE_PAIR));
    return 1;
  }

  // 2. Cores overlap: SAT of the segment against the box, in B's frame.
  const mx = 0.5 * (l0[0] + l1[0]), my = 0.5 * (l0[1] + l1[1]), mz = 0.5 * (l0[2] + l1[2]);
  const ux = 0.5 * (l1[0] - l0[0]), uy = 0.5 * (l1[1] - l0[1]), uz = 0.5 * (l1[2] - l0[2]);
  let best = -Infinity, bx = 0, by = 0, bz = 1, bestAxis = 0, edge = false;
  for (let k = 0; k < 3; k++) {
    const uk = k === 0 ? ux : k === 1 ? uy : uz;
    const mk = k === 0 ? mx : k === 1 ? my : mz;
    const s = Math.abs(mk) - h[k] - Math.abs(uk);
    if (s > best) {
      best = s;
      bestAxis = k;
      edge = false;
      bx = k === 0 ? 1 : 0;
      by = k === 1 ? 1 : 0;
      bz = k === 2 ? 1 : 0;
    }
  }
  const ul2 = ux * ux + uy * uy + uz * uz;
  for (let k = 0; k < 3; k++) {
    // L = u × e_k
    let lx = k === 0 ? 0 : k === 1 ? -uz : uy;
    let ly = k === 0 ? uz : k === 1 ? 0 : -ux;
    let lz = k === 0 ? -uy : k === 1 ? ux : 0;
    const l2 = lx * lx + ly * ly + lz * lz;
    if (l2 < SAT_EDGE_PARALLEL_EPSILON * ul2 || l2 === 0) continue;
    const inv = 1 / Math.sqrt(l2);
    lx *= inv;
    ly *= inv;
    lz *= inv;
    // the segment projects to a point on L (L ⟂ u)
    const s = Math.abs(mx * lx + my * ly + mz * lz) - (h[0] * Math.abs(lx) + h[1] * Math.abs(ly) + h[2] * Math.abs(lz));
    if (s > best) {
      best = s;
      bestAxis = k;
      edge = true;
      bx = lx;
      by = ly;
      bz = lz;
    }
  }
  // Orient from the box toward the segment's centre (concentric: keep as is).
  if (mx * bx + my * by + mz * bz < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
  }
  tmp[0] = bx;
  tmp[1] = by;
  tmp[2] = bz;
  quatRotate(nW, q, tmp);
  const depth = r - best;
  if (!edge) {
    const sign = (bestAxis === 0 ? bx : bestAxis === 1 ? by : bz) > 0 ? 1 : -1;
    const k = clipOnFace(out, ws, a0, a1, r, c, q, h, bestAxis, sign, margin);
    if (k > 0) return k;
    // Segment end inside the box but not over the face polygon (round-off): deepest end point.
    const d0 = l0[0] * bx + l0[1] * by + l0[2] * bz, d1 = l1[0] * bx + l1[1] * by + l1[2] * bz;
    const lp = d0 <= d1 ? l0 : l1;
    const off = h[bestAxis] - Math.abs(lp[bestAxis]);
    tmp[0] = lp[0] + off * bx;
    tmp[1] = lp[1] + off * by;
    tmp[2] = lp[2] + off * bz;
    quatRotate(qW, q, tmp);
    out.push(c[0] + qW[0], c[1] + qW[1], c[2] + qW[2], nW[0], nW[1], nW[2], depth,
      PairContactKind.CapsuleConvex, -1, -1, packFeature(false, 0, 0, TAG_EDGE_PAIR, TAG_EDGE_PAIR));
    return 1;
  }
  // Edge axis: the box edge along e_k farthest along n, closest points with the segment.
  const e0 = ws.e0, e1 = ws.e1, closest = ws.closest;
  for (let j = 0; j < 3; j++) {
    if (j === bestAxis) {
      e0[j] = -h[j];
      e1[j] = h[j];
    } else {
      const nj = j === 0 ? bx : j === 1 ? by : bz;
      e0[j] = e1[j] = nj >= 0 ? h[j] : -h[j];
    }
  }
  closestPointsSegmentSegment(closest, l0, l1, e0, e1);
  quatRotate(qW, q, closest.pointB);
  out.push(c[0] + qW[0], c[1] + qW[1], c[2] + qW[2], nW[0], nW[1], nW[2], depth,
    PairContactKind.CapsuleConvex, -1, -1, packFeature(false, bestAxis, 0, TAG_EDGE_PAIR, TAG_EDGE_PAIR));
  return 1;
}
