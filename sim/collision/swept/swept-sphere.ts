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
 * Nothing here allocates.
 */
import { SWEPT_PARALLEL_EPSILON } from '../../constants';
import type { Vec3 } from '../../math/vec3';

export const SweptStatus = {
  Hit: 0,
  Miss: 1,
  /** Touching or overlapping at t = 0: toi 0. */
  InitiallyOverlapping: 2,
  /** Non-finite input or negative radius. */
  Degenerate: 3,
} as const;
export type SweptStatus = (typeof SweptStatus)[keyof typeof SweptStatus];
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

const PARALLEL = SWEPT_PARALLEL_EPSILON;

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
 * out.normal = unit (cx, cy, cz) − (px, py, pz); if they coincide, −D/|D| (the sphere came from
 * there), else +z. Also writes out.point = P.
 */
function setPointNormal(out: SweptHit, px: number, py: number, pz: number, cx: number, cy: number, cz: number, d: Readonly<Vec3>): void {
  out.point[0] = px;
  out.point[1] = py;
  out.point[2] = pz;
  let nx = cx - px, ny = cy - py, nz = cz - pz;
  let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0)) {
    nx = -d[0];
    ny = -d[1];
    nz = -d[2];
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

/**
 * Sphere vs the half-space n·x ≤ k (plane n·x = k, n unit, solid behind it): the seed's
 * SpherePositionAtPlane, front side. Starting with dist = n·C − k ≤ r is an initial overlap;
 * moving away or parallel (n·D ≥ −ε|D|) is a miss.
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

/** Sphere vs a fixed point (a polygon vertex): the seed's VertexIntersect, with its degenerate cases. */
export function sweptSpherePoint(
  out: SweptHit, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number, p: Readonly<Vec3>,
): SweptHit {
  if (!finite3(center) || !finite3(motion) || !finite3(p) || !(radius >= 0) || !Number.isFinite(radius)) return degenerate(out);
  return pointRoot(out, center, motion, radius, p[0], p[1], p[2]);
}

function pointRoot(out: SweptHit, c: Readonly<Vec3>, d: Readonly<Vec3>, r: number, px: number, py: number, pz: number): SweptHit {
  const mx = c[0] - px, my = c[1] - py, mz = c[2] - pz;
  const cc = mx * mx + my * my + mz * mz - r * r;
  if (cc <= 0) {
    out.status = SweptStatus.InitiallyOverlapping;
    out.toi = 0;
    out.feature = SweptFeature.Vertex;
    setPointNormal(out, px, py, pz, c[0], c[1], c[2], d);
    return out;
  }
  const a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const b = 2 * (d[0] * mx + d[1] * my + d[2] * mz);
  // Zero motion, or not approaching (the distance grows from t = 0 on): no root in (0, 1].
  if (!(a > 0) || !(b < 0)) return miss(out);
  const disc = b * b - 4 * a * cc;
  if (disc < 0) return miss(out);
  const t = (2 * cc) / (-b + Math.sqrt(disc));
  if (!(t <= 1)) return miss(out);
  out.status = SweptStatus.Hit;
  out.toi = t;
  out.feature = SweptFeature.Vertex;
  setPointNormal(out, px, py, pz, c[0] + t * d[0], c[1] + t * d[1], c[2] + t * d[2], d);
  return out;
}

const vertexHit = new SweptHit();

/** Keeps in `out` the earlier of `out` and `cand` (both touched or missed). */
function takeEarlier(out: SweptHit, cand: SweptHit): void {
  if (!cand.touched) return;
  if (!out.touched || cand.toi < out.toi) out.copyFrom(cand);
}

/**
 * Sphere vs segment P1P2 (a polygon edge): the seed's EdgeIntersect on the infinite line, kept
 * when the touching point's parameter f ∈ [0, 1]; otherwise the earlier of the two end vertices.
 */
export function sweptSphereSegment(
  out: SweptHit, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number, p1: Readonly<Vec3>, p2: Readonly<Vec3>,
): SweptHit {
  if (!finite3(center) || !finite3(motion) || !finite3(p1) || !finite3(p2) || !(radius >= 0) || !Number.isFinite(radius)) return degenerate(out);
  return segmentRoot(out, center, motion, radius, p1[0], p1[1], p1[2], p2[0], p2[1], p2[2]);
}

function segmentRoot(
  out: SweptHit, c: Readonly<Vec3>, d: Readonly<Vec3>, r: number,
  ax: number, ay: number, az: number, bx: number, by: number, bz: number,
): SweptHit {
  const ex = bx - ax, ey = by - ay, ez = bz - az;
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(ee > 0)) return pointRoot(out, c, d, r, ax, ay, az); // a zero-length edge is its vertex
  const mx = c[0] - ax, my = c[1] - ay, mz = c[2] - az;
  const em = ex * mx + ey * my + ez * mz;
  // Start: distance from C to the segment.
  const f0 = em <= 0 ? 0 : em >= ee ? 1 : em / ee;
  const qx = ax + f0 * ex, qy = ay + f0 * ey, qz = az + f0 * ez;
  const dqx = c[0] - qx, dqy = c[1] - qy, dqz = c[2] - qz;
  if (dqx * dqx + dqy * dqy + dqz * dqz <= r * r) {
    out.status = SweptStatus.InitiallyOverlapping;
    out.toi = 0;
    out.feature = f0 === 0 || f0 === 1 ? SweptFeature.Vertex : SweptFeature.Edge;
    setPointNormal(out, qx, qy, qz, c[0], c[1], c[2], d);
    return out;
  }
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const ed = ex * d[0] + ey * d[1] + ez * d[2];
  const dm = d[0] * mx + d[1] * my + d[2] * mz;
  const mm = mx * mx + my * my + mz * mz;
  const A = ee * dd - ed * ed;
  const B = 2 * (ee * dm - ed * em);
  const C = ee * (mm - r * r) - em * em;
  // The lateral surface of the edge's cylinder: only when the motion crosses the line's
  // direction (A > ε·|e|²|D|²), the centre starts outside that cylinder (C > 0; inside it but
  // beyond an end the first touch is on an end vertex) and approaches it (B < 0).
  if (A > PARALLEL * ee * dd && C > 0 && B < 0) {
    const disc = B * B - 4 * A * C;
    if (disc >= 0) {
      const t = (2 * C) / (-B + Math.sqrt(disc));
      if (t <= 1) {
        const f = (em + t * ed) / ee;
        if (f >= 0 && f <= 1) {
          out.status = SweptStatus.Hit;
          out.toi = t;
          out.feature = SweptFeature.Edge;
          setPointNormal(out, ax + f * ex, ay + f * ey, az + f * ez, c[0] + t * d[0], c[1] + t * d[1], c[2] + t * d[2], d);
          return out;
        }
      }
    }
  }
  // End vertices.
  pointRoot(out, c, d, r, ax, ay, az);
  pointRoot(vertexHit, c, d, r, bx, by, bz);
  takeEarlier(out, vertexHit);
  return out;
}

const edgeHit = new SweptHit();

/**
 * Sphere vs triangle ABC (two-sided): face, then edges with their vertices (see the header).
 * With radius 0 (a ray) the closed face alone decides, unless the triangle has no area.
 */
export function sweptSphereTriangle(
  out: SweptHit, center: Readonly<Vec3>, motion: Readonly<Vec3>, radius: number,
  a: Readonly<Vec3>, b: Readonly<Vec3>, c: Readonly<Vec3>,
): SweptHit {
  if (!finite3(center) || !finite3(motion) || !finite3(a) || !finite3(b) || !finite3(c) || !(radius >= 0) || !Number.isFinite(radius)) {
    return degenerate(out);
  }
  return triangleRoot(out, center, motion, radius, a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
}

/** sweptSphereTriangle on scalar vertices (for callers that read them from a grid). Inputs must be finite. */
export function triangleRoot(
  out: SweptHit, c: Readonly<Vec3>, d: Readonly<Vec3>, r: number,
  ax: number, ay: number, az: number, bx: number, by: number, bz: number, qx: number, qy: number, qz: number,
): SweptHit {
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = qx - ax, acy = qy - ay, acz = qz - az;
  let nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
  const n2 = nx * nx + ny * ny + nz * nz;
  const scale2 = Math.max(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz);
  const hasFace = n2 > PARALLEL * scale2 * scale2;
  if (hasFace) {
    const inv = 1 / Math.sqrt(n2);
    nx *= inv;
    ny *= inv;
    nz *= inv;
    const s0 = nx * (c[0] - ax) + ny * (c[1] - ay) + nz * (c[2] - az);
    const sigma = s0 >= 0 ? 1 : -1;
    if (s0 * sigma <= r) {
      // Touching the plane at the start: a face overlap if the foot of C is inside.
      const fx = c[0] - s0 * nx, fy = c[1] - s0 * ny, fz = c[2] - s0 * nz;
      if (insideTriangle(fx, fy, fz, ax, ay, az, bx, by, bz, qx, qy, qz, nx, ny, nz)) {
        out.status = SweptStatus.InitiallyOverlapping;
        out.toi = 0;
        out.feature = SweptFeature.Face;
        out.point[0] = fx;
        out.point[1] = fy;
        out.point[2] = fz;
        out.normal[0] = sigma * nx;
        out.normal[1] = sigma * ny;
        out.normal[2] = sigma * nz;
        return out;
      }
    } else {
      // Starting farther than r from the plane: the sphere must approach it (σ·n·D < 0; zero
      // or parallel motion never gets closer) and reach it within the step, else no point of
      // the triangle is touched either.
      const nd = nx * d[0] + ny * d[1] + nz * d[2];
      if (!(sigma * nd < 0)) return miss(out);
      {
        const t = (sigma * r - s0) / nd;
        if (t <= 1) {
          const fx = c[0] + t * d[0] - sigma * r * nx, fy = c[1] + t * d[1] - sigma * r * ny, fz = c[2] + t * d[2] - sigma * r * nz;
          if (insideTriangle(fx, fy, fz, ax, ay, az, bx, by, bz, qx, qy, qz, nx, ny, nz)) {
            out.status = SweptStatus.Hit;
            out.toi = t;
            out.feature = SweptFeature.Face;
            out.point[0] = fx;
            out.point[1] = fy;
            out.point[2] = fz;
            out.normal[0] = sigma * nx;
            out.normal[1] = sigma * ny;
            out.normal[2] = sigma * nz;
            return out;
          }
        } else {
          return miss(out); // the plane is beyond this step: so is every point of the triangle
        }
      }
    }
    // A point (r = 0) that misses the closed face misses its boundary too.
    if (r === 0) return miss(out);
  }
  miss(out);
  segmentRoot(edgeHit, c, d, r, ax, ay, az, bx, by, bz);
  takeEarlier(out, edgeHit);
  segmentRoot(edgeHit, c, d, r, bx, by, bz, qx, qy, qz);
  takeEarlier(out, edgeHit);
  segmentRoot(edgeHit, c, d, r, qx, qy, qz, ax, ay, az);
  takeEarlier(out, edgeHit);
  return out;
}

/**
 * The seed's InsidePolygon test for a triangle: P (in the plane) is on the inner side of every
 * edge's side plane, boundary included. n is the triangle's unit normal (A, B, C counter-clockwise
 * about it).
 */
function insideTriangle(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number,
  nx: number, ny: number, nz: number,
): boolean {
  return edgeSide(px, py, pz, ax, ay, az, bx, by, bz, nx, ny, nz) >= 0 &&
    edgeSide(px, py, pz, bx, by, bz, cx, cy, cz, nx, ny, nz) >= 0 &&
    edgeSide(px, py, pz, cx, cy, cz, ax, ay, az, nx, ny, nz) >= 0;
}

/** ((V − U) × (P − U))·n: ≥ 0 when P is left of U→V seen along −n. */
function edgeSide(px: number, py: number, pz: number, ux: number, uy: number, uz: number, vx: number, vy: number, vz: number, nx: number, ny: number, nz: number): number {
  const ex = vx - ux, ey = vy - uy, ez = vz - uz;
  const wx = px - ux, wy = py - uy, wz = pz - uz;
  return (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz;
}

const relMotion: Vec3 = [0, 0, 0];

/**
 * Two moving spheres (Huotari §6.1): sphere 0 (centre c0, motion d0, radius r0) and sphere 1.
 * toi is the first touch; point on sphere 1's surface at toi, normal from sphere 1 toward
 * sphere 0 (the direction sphere 1 pushes sphere 0).
 */
export function sweptSphereSphere(
  out: SweptHit,
  c0: Readonly<Vec3>, d0: Readonly<Vec3>, r0: number,
  c1: Readonly<Vec3>, d1: Readonly<Vec3>, r1: number,
): SweptHit {
  if (!finite3(c0) || !finite3(d0) || !finite3(c1) || !finite3(d1) || !(r0 >= 0) || !(r1 >= 0) || !Number.isFinite(r0 + r1)) return degenerate(out);
  relMotion[0] = d0[0] - d1[0];
  relMotion[1] = d0[1] - d1[1];
  relMotion[2] = d0[2] - d1[2];
  pointRoot(out, c0, relMotion, r0 + r1, c1[0], c1[1], c1[2]);
  if (!out.touched) return out;
  out.feature = SweptFeature.Sphere;
  // pointRoot's point is sphere 1's centre at time 0; move it to toi and onto its surface.
  const t = out.toi;
  for (let k = 0; k < 3; k++) out.point[k] = c1[k] + t * d1[k] + r1 * out.normal[k];
  return out;
}
