/**
 * Swept-sphere primitives: the earliest time in [0, 1] of a step at which a sphere of radius r,
 * moving from centre C by the motion vector D (centre C + t·D), first touches a plane, a point
 * (polygon vertex), a segment (polygon edge), a triangle, or a second moving sphere.
 *
 * Source: the DGL wiki "Werkzeugkiste" (seed 004; restated in shared/seeds/README.md), which
 * writes a motion as the ray P = A + t·V with t ∈ [0, 1] when V is the whole step, and solves
 * each contact condition for t:
 *
 *   plane   (SpherePositionAtPlane)  n·(C + tD) − k = ±r            → t = (±r − dist)/(n·D)
 *   vertex  (VertexIntersect)        |C + tD − P|² = r²              → a t² + b t + c = 0,
 *           a = D·D, b = 2 D·(C − P), c = |C − P|² − r²; the earliest root (−b − √disc)/2a
 *   edge    (EdgeIntersect)          the same on the components ⟂ to the edge e = P2 − P1:
 *           A = |e|²(D·D) − (e·D)², B = 2(|e|²(D·m) − (e·D)(e·m)), C = |e|²(|m|² − r²) − (e·m)²
 *           with m = C − P1; the touching point's edge parameter f = (e·m + t e·D)/|e|² must lie
 *           in [0, 1], else the edge's end vertices decide. (The seed writes btv = P1 − C and
 *           a = −A, so its "(−b + √d)/2a" is our earliest root.)
 *   sphere  (Huotari 2011 §6.1, seed 000, after Ericson): two moving spheres reduce to one
 *           moving by D0 − D1 against one at rest, i.e. a point (the second centre) against a
 *           sphere of radius r0 + r1: the vertex case.
 *
 * A triangle is tested face first (the plane root, kept only if the touching point lies inside
 * the triangle: the seed's InsidePolygon test), then its edges (each with its two vertices): the
 * face is a closed convex set, so a face touch is the first touch of the whole triangle, and
 * otherwise the first touch is on the boundary. Triangles are two-sided (a sheet): a sphere
 * starting on either side is stopped by it.
 *
 * Degenerate cases (each an explicit branch, tested):
 *   - starting in contact or overlapping (distance ≤ r at t = 0): status InitiallyOverlapping,
 *     toi 0, normal from the nearest feature point to the centre (any unit vector if they coincide);
 *   - zero motion, or motion parallel to the plane (n·D = 0: a miss unless already touching) or
 *     along the edge (the quadratic's leading coefficient ≤ SWEPT_PARALLEL_EPSILON of its scale):
 *     that root does not exist; the others (the edge's vertices) still apply;
 *   - grazing (discriminant exactly 0): a touch, reported as a hit;
 *   - a degenerate triangle (zero area) is its edges; a zero-length edge is its vertex;
 *   - non-finite input or r < 0: status Degenerate, toi 1, nothing else trusted.
 * Roots use the cancellation-free form t = 2c / (−b + √disc) (the earliest root, b < 0).
 *
 * Result convention (SweptHit): toi ∈ [0, 1]; point = the touching point on the obstacle at toi
 * (on the plane, vertex, edge, triangle, or the other sphere's surface); normal = unit, from that
 * point toward the moving sphere's centre (the direction the obstacle pushes the sphere: the
 * project's contact convention). On a miss toi = 1 and point/normal are not meaningful.
 * Scratch lives in a SweptWorkspace the caller owns (the public forms make one per call when
 * none is passed); nothing else allocates.
 */
import { SWEPT_PARALLEL_EPSILON } from '../../constants';
import type { Vec3 } from '../../math/vec3';

/** How a swept-sphere query ended. */
export const SweptStatus = {
  Hit: 0,
  Miss: 1,
  /** Touching or overlapping at t = 0: toi 0. */
  InitiallyOverlapping: 2,
  /** Non-finite input or negative radius. */
  Degenerate: 3,
} as const;
export type SweptStatus = (typeof SweptStatus)[keyof typeof SweptStatus];
/** Names of the `SweptStatus` values, by value. */
export const SWEPT_STATUS_NAMES: readonly string[] = ['hit', 'miss', 'initially-overlapping', 'degenerate'];

/** Which feature of the obstacle the sphere touched first. */
export const SweptFeature = {
  None: 0,
  /** Plane or triangle face. */
  Face: 1,
  Edge: 2,
  Vertex: 3,
  /** The other sphere (sweptSphereSphere). */
  Sphere: 4,
} as const;
export type SweptFeature = (typeof SweptFeature)[keyof typeof SweptFeature];

/**
 * The output record of the swept-sphere queries: status, time of impact, point, normal and the
 * feature touched.
 */
export class SweptHit {
  status: SweptStatus = SweptStatus.Miss;
  /** Fraction of the motion at first contact, in [0, 1] (1 on a miss). */
  toi = 1;
  /** [m] Touching point on the obstacle at toi. */
  readonly point: Vec3 = [0, 0, 0];
  /** Unit normal from `point` toward the sphere's centre at toi. */
  readonly normal: Vec3 = [0, 0, 1];
  feature: SweptFeature = SweptFeature.None;

  /** True for Hit and InitiallyOverlapping. */
  get touched(): boolean {
    return this.status === SweptStatus.Hit || this.status === SweptStatus.InitiallyOverlapping;
  }

  reset(): this {
    this.status = SweptStatus.Miss;
    this.toi = 1;
    this.feature = SweptFeature.None;
    return this;
  }

  copyFrom(o: SweptHit): this {
    this.status = o.status;
    this.toi = o.toi;
    this.feature = o.feature;
    for (let k = 0; k < 3; k++) {
      this.point[k] = o.point[k];
      this.normal[k] = o.normal[k];
    }
    return this;
  }
}

function miss(out: SweptHit): SweptHit {
  out.status = SweptStatus.Miss;
  out.toi = 1;
  out.feature = SweptFeature.None;
  return out;
}

function degenerate(out: SweptHit): SweptHit {
  out.status = SweptStatus.Degenerate;
  out.toi = 1;
  out.feature = SweptFeature.None;
  out.point[0] = out.point[1] = out.point[2] = 0;
  out.normal[0] = out.normal[1] = 0;
  out.normal[2] = 1;
  return out;
}

function finite3(v: Readonly<Vec3>): boolean {
  return Number.isFinite(v[0]) && Number.isFinite(v[1]) && Number.isFinite(v[2]);
}

/**
 * Everything one swept-sphere query works on. `query` is the sphere of the internal forms
 * (pointRootQ, segmentRootQ, triangleRootQ): centre at 0..2, motion at 3..5, radius at 6. Hot
 * callers (the heightfield casts) write it once per cast and their vertices into a
 * Float64Array: V8 boxes a double passed to or returned from a call it does not inline (16 B
 * each), and Float64Array slots are never boxed. Allocated once by its owner (a terrain cast, a
 * script's loop); one query at a time (never two in flight).
 */
export class SweptWorkspace {
  readonly query = new Float64Array(7);
  /** Centre at the touching time, the foot point and the plane normal of the internal forms. */
  readonly ct = new Float64Array(3);
  readonly foot = new Float64Array(3);
  readonly nrm = new Float64Array(3);
  /** The public forms' vertices (xyz at 0, 3, 6). */
  readonly pv = new Float64Array(9);
  /** A segment's second vertex, a triangle's edge (kept against the best so far). */
  readonly vertexHit = new SweptHit();
  readonly edgeHit = new SweptHit();
}

/**
 * out.normal = unit (ct − out.point); if they coincide, −D/|D| (the sphere came from there),
 * else +z. out.point is written by the caller.
 */
function setPointNormal(ws: SweptWorkspace, out: SweptHit): void {
  const ct = ws.ct, Q = ws.query;
  let nx = ct[0] - out.point[0], ny = ct[1] - out.point[1], nz = ct[2] - out.point[2];
  let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0)) {
    nx = -Q[3];
    ny = -Q[4];
    nz = -Q[5];
    l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(l > 0)) {
      nx = 0;
      ny = 0;
      nz = 1;
      l = 1;
    }
  }
  out.normal[0] = nx / l;
  out.normal[1] = ny / l;
  out.normal[2] = nz / l;
}

function loadQuery(ws: SweptWorkspace, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number): void {
  const Q = ws.query;
  Q[0] = center[0];
  Q[1] = center[1];
  Q[2] = center[2];
  Q[3] = motion[0];
  Q[4] = motion[1];
  Q[5] = motion[2];
  Q[6] = radius;
}

function loadVertex(ws: SweptWorkspace, o: number, v: Readonly<Vec3>): void {
  const pv = ws.pv;
  pv[o] = v[0];
  pv[o + 1] = v[1];
  pv[o + 2] = v[2];
}

/**
 * Sphere vs the half-space n·x ≤ k (plane n·x = k, n unit, solid behind it): the seed's
 * SpherePositionAtPlane, front side. Starting with dist = n·C − k ≤ r is an initial overlap;
 * moving away or parallel (n·D ≥ 0) is a miss.
 */
export function sweptSpherePlane(
  out: SweptHit, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number, n: Readonly<Vec3>, k: number,
): SweptHit {
  if (!finite3(center) || !finite3(motion) || !finite3(n) || !Number.isFinite(k) || !(radius >= 0) || !Number.isFinite(radius)) return degenerate(out);
  const dist = n[0] * center[0] + n[1] * center[1] + n[2] * center[2] - k;
  if (dist <= radius) {
    out.status = SweptStatus.InitiallyOverlapping;
    out.toi = 0;
    out.feature = SweptFeature.Face;
    for (let a = 0; a < 3; a++) {
      out.point[a] = center[a] - dist * n[a];
      out.normal[a] = n[a];
    }
    return out;
  }
  const denom = n[0] * motion[0] + n[1] * motion[1] + n[2] * motion[2];
  // Zero motion, parallel to the plane or leaving it: the distance never shrinks. (A tiny
  // approach gives a huge t, rejected below: no epsilon is needed for a plane.)
  if (!(denom < 0)) return miss(out);
  const t = (radius - dist) / denom;
  if (!(t <= 1)) return miss(out);
  out.status = SweptStatus.Hit;
  out.toi = t;
  out.feature = SweptFeature.Face;
  for (let a = 0; a < 3; a++) {
    out.point[a] = center[a] + t * motion[a] - radius * n[a];
    out.normal[a] = n[a];
  }
  return out;
}

/**
 * Sphere vs a fixed point (a polygon vertex): the seed's VertexIntersect, with its degenerate
 * cases. `ws`: the query's scratch (made for this call when omitted: it allocates).
 */
export function sweptSpherePoint(
  out: SweptHit, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number, p: Readonly<Vec3>,
  ws: SweptWorkspace = new SweptWorkspace(),
): SweptHit {
  if (!finite3(center) || !finite3(motion) || !finite3(p) || !(radius >= 0) || !Number.isFinite(radius)) return degenerate(out);
  loadQuery(ws, center, motion, radius);
  loadVertex(ws, 0, p);
  return pointRootQ(out, ws, ws.pv, 0);
}

/** Sphere (ws.query) vs the point V[o..o+2]. Inputs must be finite. */
export function pointRootQ(out: SweptHit, ws: SweptWorkspace, V: Float64Array, o: number): SweptHit {
  const Q = ws.query, ct = ws.ct;
  const px = V[o], py = V[o + 1], pz = V[o + 2], r = Q[6];
  const mx = Q[0] - px, my = Q[1] - py, mz = Q[2] - pz;
  const cc = mx * mx + my * my + mz * mz - r * r;
  out.point[0] = px;
  out.point[1] = py;
  out.point[2] = pz;
  if (cc <= 0) {
    out.status = SweptStatus.InitiallyOverlapping;
    out.toi = 0;
    out.feature = SweptFeature.Vertex;
    ct[0] = Q[0];
    ct[1] = Q[1];
    ct[2] = Q[2];
    setPointNormal(ws, out);
    return out;
  }
  const dx = Q[3], dy = Q[4], dz = Q[5];
  const a = dx * dx + dy * dy + dz * dz;
  const b = 2 * (dx * mx + dy * my + dz * mz);
  // Zero motion, or not approaching (the distance grows from t = 0 on): no root in (0, 1].
  if (!(a > 0) || !(b < 0)) return miss(out);
  const disc = b * b - 4 * a * cc;
  if (disc < 0) return miss(out);
  const t = (2 * cc) / (-b + Math.sqrt(disc));
  if (!(t <= 1)) return miss(out);
  out.status = SweptStatus.Hit;
  out.toi = t;
  out.feature = SweptFeature.Vertex;
  ct[0] = Q[0] + t * dx;
  ct[1] = Q[1] + t * dy;
  ct[2] = Q[2] + t * dz;
  setPointNormal(ws, out);
  return out;
}

/** Keeps in `out` the earlier of `out` and `cand` (both touched or missed). */
function takeEarlier(out: SweptHit, cand: SweptHit): void {
  if (!cand.touched) return;
  if (!out.touched || cand.toi < out.toi) out.copyFrom(cand);
}

/**
 * Sphere vs segment P1P2 (a polygon edge): the seed's EdgeIntersect on the infinite line, kept
 * when the touching point's parameter f ∈ [0, 1]; otherwise the earlier of the two end vertices.
 * `ws` as for sweptSpherePoint.
 */
export function sweptSphereSegment(
  out: SweptHit, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number, p1: Readonly<Vec3>, p2: Readonly<Vec3>,
  ws: SweptWorkspace = new SweptWorkspace(),
): SweptHit {
  if (!finite3(center) || !finite3(motion) || !finite3(p1) || !finite3(p2) || !(radius >= 0) || !Number.isFinite(radius)) return degenerate(out);
  loadQuery(ws, center, motion, radius);
  loadVertex(ws, 0, p1);
  loadVertex(ws, 3, p2);
  return segmentRootQ(out, ws, ws.pv, 0, 3);
}

/** Sphere (ws.query) vs the segment V[oa..oa+2]–V[ob..ob+2]. Inputs must be finite. */
export function segmentRootQ(out: SweptHit, ws: SweptWorkspace, V: Float64Array, oa: number, ob: number): SweptHit {
  const Q = ws.query, ct = ws.ct;
  const ax = V[oa], ay = V[oa + 1], az = V[oa + 2];
  const ex = V[ob] - ax, ey = V[ob + 1] - ay, ez = V[ob + 2] - az;
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(ee > 0)) return pointRootQ(out, ws, V, oa); // a zero-length edge is its vertex
  const r = Q[6];
  const mx = Q[0] - ax, my = Q[1] - ay, mz = Q[2] - az;
  const em = ex * mx + ey * my + ez * mz;
  // Start: distance from C to the segment.
  const f0 = em <= 0 ? 0 : em >= ee ? 1 : em / ee;
  const qx = ax + f0 * ex, qy = ay + f0 * ey, qz = az + f0 * ez;
  const dqx = Q[0] - qx, dqy = Q[1] - qy, dqz = Q[2] - qz;
  if (dqx * dqx + dqy * dqy + dqz * dqz <= r * r) {
    out.status = SweptStatus.InitiallyOverlapping;
    out.toi = 0;
    out.feature = f0 === 0 || f0 === 1 ? SweptFeature.Vertex : SweptFeature.Edge;
    out.point[0] = qx;
    out.point[1] = qy;
    out.point[2] = qz;
    ct[0] = Q[0];
    ct[1] = Q[1];
    ct[2] = Q[2];
    setPointNormal(ws, out);
    return out;
  }
  const dx = Q[3], dy = Q[4], dz = Q[5];
  const dd = dx * dx + dy * dy + dz * dz;
  const ed = ex * dx + ey * dy + ez * dz;
  const dm = dx * mx + dy * my + dz * mz;
  const mm = mx * mx + my * my + mz * mz;
  const A = ee * dd - ed * ed;
  const B = 2 * (ee * dm - ed * em);
  const C = ee * (mm - r * r) - em * em;
  // The lateral surface of the edge's cylinder: only when the motion crosses the line's
  // direction (A > ε·|e|²|D|²), the centre starts outside that cylinder (C > 0; inside it but
  // beyond an end the first touch is on an end vertex) and approaches it (B < 0).
  if (A > SWEPT_PARALLEL_EPSILON * ee * dd && C > 0 && B < 0) {
    const disc = B * B - 4 * A * C;
    if (disc >= 0) {
      const t = (2 * C) / (-B + Math.sqrt(disc));
      if (t <= 1) {
        const f = (em + t * ed) / ee;
        if (f >= 0 && f <= 1) {
          out.status = SweptStatus.Hit;
          out.toi = t;
          out.feature = SweptFeature.Edge;
          out.point[0] = ax + f * ex;
          out.point[1] = ay + f * ey;
          out.point[2] = az + f * ez;
          ct[0] = Q[0] + t * dx;
          ct[1] = Q[1] + t * dy;
          ct[2] = Q[2] + t * dz;
          setPointNormal(ws, out);
          return out;
        }
      }
    }
  }
  // End vertices.
  pointRootQ(out, ws, V, oa);
  pointRootQ(ws.vertexHit, ws, V, ob);
  takeEarlier(out, ws.vertexHit);
  return out;
}

/**
 * Sphere vs triangle ABC (two-sided): face, then edges with their vertices (see the header).
 * With radius 0 (a ray) the closed face alone decides, unless the triangle has no area. `ws` as
 * for sweptSpherePoint.
 */
export function sweptSphereTriangle(
  out: SweptHit, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number,
  a: Readonly<Vec3>, b: Readonly<Vec3>, c: Readonly<Vec3>,
  ws: SweptWorkspace = new SweptWorkspace(),
): SweptHit {
  if (!finite3(center) || !finite3(motion) || !finite3(a) || !finite3(b) || !finite3(c) || !(radius >= 0) || !Number.isFinite(radius)) {
    return degenerate(out);
  }
  loadQuery(ws, center, motion, radius);
  loadVertex(ws, 0, a);
  loadVertex(ws, 3, b);
  loadVertex(ws, 6, c);
  return triangleRootQ(out, ws, ws.pv);
}

/**
 * Sphere (ws.query) vs the triangle V[0..2], V[3..5], V[6..8] (the internal form of
 * sweptSphereTriangle, for callers that read vertices from a grid). Inputs must be finite.
 */
export function triangleRootQ(out: SweptHit, ws: SweptWorkspace, V: Float64Array): SweptHit {
  const Q = ws.query, foot = ws.foot, nrm = ws.nrm, edgeHit = ws.edgeHit;
  const ax = V[0], ay = V[1], az = V[2];
  const abx = V[3] - ax, aby = V[4] - ay, abz = V[5] - az;
  const acx = V[6] - ax, acy = V[7] - ay, acz = V[8] - az;
  let nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
  const n2 = nx * nx + ny * ny + nz * nz;
  const scale2 = Math.max(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz);
  const hasFace = n2 > SWEPT_PARALLEL_EPSILON * scale2 * scale2;
  const r = Q[6];
  if (hasFace) {
    const inv = 1 / Math.sqrt(n2);
    nx *= inv;
    ny *= inv;
    nz *= inv;
    nrm[0] = nx;
    nrm[1] = ny;
    nrm[2] = nz;
    const s0 = nx * (Q[0] - ax) + ny * (Q[1] - ay) + nz * (Q[2] - az);
    const sigma = s0 >= 0 ? 1 : -1;
    if (s0 * sigma <= r) {
      // Touching the plane at the start: a face overlap if the foot of C is inside.
      foot[0] = Q[0] - s0 * nx;
      foot[1] = Q[1] - s0 * ny;
      foot[2] = Q[2] - s0 * nz;
      if (insideTriangle(ws, V)) {
        out.status = SweptStatus.InitiallyOverlapping;
        out.toi = 0;
        out.feature = SweptFeature.Face;
        out.point[0] = foot[0];
        out.point[1] = foot[1];
        out.point[2] = foot[2];
        out.normal[0] = sigma * nx;
        out.normal[1] = sigma * ny;
        out.normal[2] = sigma * nz;
        return out;
      }
    } else {
      // Starting farther than r from the plane: the sphere must approach it (σ·n·D < 0; zero
      // or parallel motion never gets closer) and reach it within the step, else no point of
      // the triangle is touched either.
      const nd = nx * Q[3] + ny * Q[4] + nz * Q[5];
      if (!(sigma * nd < 0)) return miss(out);
      const t = (sigma * r - s0) / nd;
      if (!(t <= 1)) return miss(out); // the plane is beyond this step: so is every point of the triangle
      foot[0] = Q[0] + t * Q[3] - sigma * r * nx;
      foot[1] = Q[1] + t * Q[4] - sigma * r * ny;
      foot[2] = Q[2] + t * Q[5] - sigma * r * nz;
      if (insideTriangle(ws, V)) {
        out.status = SweptStatus.Hit;
        out.toi = t;
        out.feature = SweptFeature.Face;
        out.point[0] = foot[0];
        out.point[1] = foot[1];
        out.point[2] = foot[2];
        out.normal[0] = sigma * nx;
        out.normal[1] = sigma * ny;
        out.normal[2] = sigma * nz;
        return out;
      }
    }
    // A point (r = 0) that misses the closed face misses its boundary too.
    if (r === 0) return miss(out);
  }
  miss(out);
  segmentRootQ(edgeHit, ws, V, 0, 3);
  takeEarlier(out, edgeHit);
  segmentRootQ(edgeHit, ws, V, 3, 6);
  takeEarlier(out, edgeHit);
  segmentRootQ(edgeHit, ws, V, 6, 0);
  takeEarlier(out, edgeHit);
  return out;
}

/**
 * The seed's InsidePolygon test for a triangle: `foot` (in the plane) is on the inner side of
 * every edge's side plane, boundary included: ((V − U) × (P − U))·n ≥ 0 for each edge U→V, with
 * n = `nrm` the unit normal of the counter-clockwise A, B, C.
 */
function insideTriangle(ws: SweptWorkspace, V: Float64Array): boolean {
  const foot = ws.foot, nrm = ws.nrm;
  const px = foot[0], py = foot[1], pz = foot[2], nx = nrm[0], ny = nrm[1], nz = nrm[2];
  for (let e = 0; e < 9; e += 3) {
    const f = e === 6 ? 0 : e + 3;
    const ux = V[e], uy = V[e + 1], uz = V[e + 2];
    const ex = V[f] - ux, ey = V[f + 1] - uy, ez = V[f + 2] - uz;
    const wx = px - ux, wy = py - uy, wz = pz - uz;
    if ((ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz < 0) return false;
  }
  return true;
}

/**
 * Two moving spheres (Huotari §6.1): sphere 0 (centre c0, motion d0, radius r0) and sphere 1.
 * toi is the first touch; point on sphere 1's surface at toi, normal from sphere 1 toward
 * sphere 0 (the direction sphere 1 pushes sphere 0). `ws` as for sweptSpherePoint.
 */
export function sweptSphereSphere(
  out: SweptHit,
  c0: Readonly<Vec3>, d0: Readonly<Vec3>, r0: number,
  c1: Readonly<Vec3>, d1: Readonly<Vec3>, r1: number,
  ws: SweptWorkspace = new SweptWorkspace(),
): SweptHit {
  if (!finite3(c0) || !finite3(d0) || !finite3(c1) || !finite3(d1) || !(r0 >= 0) || !(r1 >= 0) || !Number.isFinite(r0 + r1)) return degenerate(out);
  const Q = ws.query;
  Q[0] = c0[0];
  Q[1] = c0[1];
  Q[2] = c0[2];
  Q[3] = d0[0] - d1[0];
  Q[4] = d0[1] - d1[1];
  Q[5] = d0[2] - d1[2];
  Q[6] = r0 + r1;
  loadVertex(ws, 0, c1);
  pointRootQ(out, ws, ws.pv, 0);
  if (!out.touched) return out;
  out.feature = SweptFeature.Sphere;
  // pointRootQ's point is sphere 1's centre at time 0; move it to toi and onto its surface.
  const t = out.toi;
  for (let k = 0; k < 3; k++) out.point[k] = c1[k] + t * d1[k] + r1 * out.normal[k];
  return out;
}
