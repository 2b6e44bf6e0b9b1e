/**
 * Contact manifold between a reference face and an incident face (the face-clipping step of
 * SAT and of GJK/EPA manifolds; idea of the Habr SAT article's face case, Jolt's
 * ManifoldBetweenTwoFaces and Box2D's b2ClipPolygons, written for 3D convex polygons).
 *
 * Heuristic: the reference face is the face of one body whose normal is (nearly) the contact
 * normal; the incident face is the face of the other body most anti-parallel to it. The
 * overlap region of the two faces, projected along the normal, is where the bodies actually
 * touch, so we clip the incident polygon by the reference face's side planes
 * (Sutherland–Hodgman) and keep the clipped points that lie below the reference plane (or above
 * it by at most the speculative margin). A resting box thus gets its four corners, not one
 * jittering EPA point.
 *
 *            incident face (other body)
 *        ●━━━━━━━━━━━━━━━━━━━━━━━━━━━●         points kept: inside the side planes
 *     ┆     ╔═══════════════════╗     ┆         and below the reference plane
 *     ┆     ║  reference face   ║ ──► refNormal (up, toward the incident body)
 *   side    ╚═══════════════════╝   side
 *   plane                           plane
 *
 * Output follows the engine convention (contact.ts): the point lies on B's surface, the normal
 * pushes A (points from B into A), depth ≥ −margin (negative = speculative gap).
 * Preconditions: polygons convex and planar; refNormal unit; the reference polygon may be wound
 * either way (side planes are oriented toward its centroid).
 */
import {
  CLIP_MAX_POLYGON_VERTICES,
  GEOMETRIC_EPSILON,
  MANIFOLD_LINE_CONTACT_DISTANCE,
  MANIFOLD_MAX_POINTS,
  MANIFOLD_TIE_TOLERANCE,
} from '../../constants';
import type { ContactBuffer } from '../contact';
import type { Vec3 } from '../../math/vec3';
import { CLIP_SIDE_TAG, packFeature } from './feature-id';
import { FacePolygon } from './face-polygon';
import { ManifoldGroups, reduceManifoldInPlace } from '../reduce-manifold';

/**
 * Scratch of one face-clipping call (manifoldBetweenFaces, clipIncidentByReference): the pair of
 * polygons Sutherland–Hodgman alternates between, the reduction's groups and the clip plane.
 * Owned by the caller (a manifold routine's workspace); one clip at a time per workspace.
 */
export class ClipWorkspace {
  readonly polyA = new FacePolygon();
  readonly polyB = new FacePolygon();
  /** Scratch of the reduction of the clipped points (one normal: one group). */
  readonly clippedGroups = new ManifoldGroups(CLIP_MAX_POLYGON_VERTICES, 1);
  /**
   * The clip plane handed to clipByPlane / clipSegmentByPlane: m (0..2) and o (3..5). Through
   * this array rather than as arguments: V8 boxes a double passed to a call it does not inline.
   */
  readonly plane = new Float64Array(6);
}

/**
 * Clips `src` by the half-space m·(p − o) ≤ 0 (m, o in `plane`) into `dst` (Sutherland–Hodgman), keeping feature
 * tags: a kept vertex keeps its tags; a crossing point gets (edge tag, side tag); the edge that
 * runs along the plane gets the side tag.
 */
function clipByPlane(dst: FacePolygon, src: FacePolygon, plane: Float64Array, sideTag: number): void {
  const mx = plane[0], my = plane[1], mz = plane[2], ox = plane[3], oy = plane[4], oz = plane[5];
  dst.clear();
  const n = src.count;
  if (n === 0) return;
  const s = src.xyz, d = dst.xyz;
  let prev = n - 1;
  let dPrev = mx * (s[3 * prev] - ox) + my * (s[3 * prev + 1] - oy) + mz * (s[3 * prev + 2] - oz);
  for (let cur = 0; cur < n; cur++) {
    const dCur = mx * (s[3 * cur] - ox) + my * (s[3 * cur + 1] - oy) + mz * (s[3 * cur + 2] - oz);
    const inPrev = dPrev <= 0;
    const inCur = dCur <= 0;
    if (inPrev !== inCur) {
      // Crossing: dPrev and dCur have opposite signs, so the denominator is nonzero.
      const t = dPrev / (dPrev - dCur);
      const e = src.edgeTag[prev];
      const x = s[3 * prev] + t * (s[3 * cur] - s[3 * prev]);
      const y = s[3 * prev + 1] + t * (s[3 * cur + 1] - s[3 * prev + 1]);
      const z = s[3 * prev + 2] + t * (s[3 * cur + 2] - s[3 * prev + 2]);
      // Leaving the half-space, the next edge runs along the plane; entering, the rest of edge e.
      // (The vertex is written into a reserved slot: dst.push would take boxed doubles.)
      const v = dst.reserve();
      if (v >= 0) {
        d[3 * v] = x;
        d[3 * v + 1] = y;
        d[3 * v + 2] = z;
        dst.edgeTag[v] = inPrev ? sideTag : e;
        dst.tagX[v] = e;
        dst.tagY[v] = sideTag;
      }
    }
    if (inCur) {
      const k = cur;
      const v = dst.reserve();
      if (v >= 0) {
        d[3 * v] = s[3 * k];
        d[3 * v + 1] = s[3 * k + 1];
        d[3 * v + 2] = s[3 * k + 2];
        dst.edgeTag[v] = src.edgeTag[k];
        dst.tagX[v] = src.tagX[k];
        dst.tagY[v] = src.tagY[k];
      }
    }
    prev = cur;
    dPrev = dCur;
  }
}

/**
 * Clips a 2-vertex incident polygon (a segment: capsule side, cylinder side line, box edge) by
 * the half-space m·(p − o) ≤ 0 (m, o in `plane`), in place on `poly` (parametric clip; a closed 2-gon would
 * duplicate the crossing point in Sutherland–Hodgman).
 */
function clipSegmentByPlane(poly: FacePolygon, plane: Float64Array, sideTag: number): void {
  const mx = plane[0], my = plane[1], mz = plane[2], ox = plane[3], oy = plane[4], oz = plane[5];
  if (poly.count !== 2) return;
  const s = poly.xyz;
  const d0 = mx * (s[0] - ox) + my * (s[1] - oy) + mz * (s[2] - oz);
  const d1 = mx * (s[3] - ox) + my * (s[4] - oy) + mz * (s[5] - oz);
  if (d0 > 0 && d1 > 0) {
    poly.count = 0;
    return;
  }
  if (d0 <= 0 && d1 <= 0) return;
  const t = d0 / (d0 - d1);
  const x = s[0] + t * (s[3] - s[0]), y = s[1] + t * (s[4] - s[1]), z = s[2] + t * (s[5] - s[2]);
  const k = d0 > 0 ? 0 : 1; // the outside end moves to the crossing
  s[3 * k] = x;
  s[3 * k + 1] = y;
  s[3 * k + 2] = z;
  poly.tagX[k] = poly.edgeTag[0];
  poly.tagY[k] = sideTag;
}

/**
 * Clips incident polygon `inc` by the side planes of reference polygon `ref` (normal
 * `refNormal`) and returns the clipped polygon (one of ws's: read it before the next call).
 * A 2-vertex `ref` (a segment) clips by its two end planes only; a 2-vertex `inc` is clipped
 * parametrically. The result may be empty.
 */
export function clipIncidentByReference(ref: FacePolygon, refNormal: Readonly<Vec3>, inc: FacePolygon, ws: ClipWorkspace): FacePolygon {
  const polyA = ws.polyA, polyB = ws.polyB, plane = ws.plane;
  const nr = ref.count;
  const nx = refNormal[0], ny = refNormal[1], nz = refNormal[2];
  const r = ref.xyz;
  if (nr === 0 || inc.count === 0) {
    polyA.clear();
    return polyA;
  }
  // A segment is clipped in place and a 1-vertex reference clips nothing: both work on a copy.
  // A polygon is clipped from `inc` itself into the scratch pair (Sutherland–Hodgman writes a
  // new polygon per plane anyway), so the common face–face case copies nothing.
  const segment = inc.count === 2;
  if (segment || nr <= 2) copyPolygon(polyA, inc);
  let cur = segment || nr <= 2 ? polyA : inc;
  if (nr === 2) {
    // Reference "face" is a segment (capsule axis): clip by the two end planes only.
    const ux = r[3] - r[0], uy = r[4] - r[1], uz = r[5] - r[2];
    for (let side = 0; side < 2; side++) {
      const sg = side === 0 ? -1 : 1;
      const o = side === 0 ? 0 : 3;
      plane[0] = sg * ux;
      plane[1] = sg * uy;
      plane[2] = sg * uz;
      plane[3] = r[o];
      plane[4] = r[o + 1];
      plane[5] = r[o + 2];
      if (segment) clipSegmentByPlane(cur, plane, CLIP_SIDE_TAG | side);
      else {
        const nxt = cur === polyA ? polyB : polyA;
        clipByPlane(nxt, cur, plane, CLIP_SIDE_TAG | side);
        cur = nxt;
      }
    }
    return cur;
  }
  if (nr === 1) return cur;
  let cx = 0, cy = 0, cz = 0;
  for (let k = 0; k < nr; k++) {
    cx += r[3 * k];
    cy += r[3 * k + 1];
    cz += r[3 * k + 2];
  }
  cx /= nr;
  cy /= nr;
  cz /= nr;
  for (let k = 0; k < nr; k++) {
    const k1 = k + 1 === nr ? 0 : k + 1;
    const ox = r[3 * k], oy = r[3 * k + 1], oz = r[3 * k + 2];
    const ex = r[3 * k1] - ox, ey = r[3 * k1 + 1] - oy, ez = r[3 * k1 + 2] - oz;
    // m = edge × normal, flipped to point away from the centroid (outward side plane).
    let mx = ey * nz - ez * ny, my = ez * nx - ex * nz, mz = ex * ny - ey * nx;
    const m2 = mx * mx + my * my + mz * mz;
    if (m2 <= GEOMETRIC_EPSILON * GEOMETRIC_EPSILON) continue; // repeated vertex: no plane
    if (mx * (cx - ox) + my * (cy - oy) + mz * (cz - oz) > 0) {
      mx = -mx;
      my = -my;
      mz = -mz;
    }
    plane[0] = mx;
    plane[1] = my;
    plane[2] = mz;
    plane[3] = ox;
    plane[4] = oy;
    plane[5] = oz;
    if (segment) clipSegmentByPlane(cur, plane, CLIP_SIDE_TAG | (k & 0x7f));
    else {
      const nxt = cur === polyA ? polyB : polyA;
      clipByPlane(nxt, cur, plane, CLIP_SIDE_TAG | (k & 0x7f));
      cur = nxt;
    }
    if (cur.count === 0) return cur;
  }
  if (cur === inc) {
    // Every side plane was degenerate: the caller still gets the scratch, not its own polygon.
    copyPolygon(polyA, inc);
    cur = polyA;
  }
  return cur;
}

/** Copies polygon `src` into `dst` (vertices and tags). */
function copyPolygon(dst: FacePolygon, src: FacePolygon): void {
  dst.clear();
  for (let k = 0; k < src.count; k++) {
    dst.push(src.xyz[3 * k], src.xyz[3 * k + 1], src.xyz[3 * k + 2], src.edgeTag[k], src.tagX[k], src.tagY[k]);
  }
}

/**
 * Clips `inc` against the side planes of `ref` and writes the surviving points as contacts.
 * Returns the number of contacts added (after reduction to MANIFOLD_MAX_POINTS, reduce-manifold.ts), 0 if the faces
 * do not overlap in projection or nothing lies within `margin` of the reference plane (the
 * caller then falls back to its single-point contact).
 *
 * @param refNormal unit outward normal of the reference face, pointing toward the incident body
 * @param refIsB    the reference face belongs to body B (else to A)
 * @param refFace   reference face index, incFace incident face index (feature ids)
 * @param margin    [m] speculative margin: points up to this far above the reference plane are kept
 * @param kind      PairContactKind code stored with each contact
 * @param ws        the clip's scratch (the caller's workspace)
 */
export function manifoldBetweenFaces(
  out: ContactBuffer,
  ref: FacePolygon, refNormal: Readonly<Vec3>,
  inc: FacePolygon,
  refIsB: boolean, refFace: number, incFace: number,
  margin: number, kind: number,
  ws: ClipWorkspace,
): number {
  const start = out.count;
  if (ref.count === 0 || inc.count === 0) return 0;
  const nx = refNormal[0], ny = refNormal[1], nz = refNormal[2];
  const r = ref.xyz;
  const cur = clipIncidentByReference(ref, refNormal, inc, ws);

  // Keep points below the reference plane (within the margin); place them on B's surface.
  const ox = r[0], oy = r[1], oz = r[2];
  const enx = refIsB ? nx : -nx, eny = refIsB ? ny : -ny, enz = refIsB ? nz : -nz;
  const c = cur.xyz;
  // A segment reference (side line of a capsule or cylinder) is a line, not a plane: measure
  // each point from its nearest point on the line, which is exact on B's surface even when the
  // line is not exactly perpendicular to the normal (parallel within a few degrees).
  const line = ref.count === 2;
  const ux = r[3] - ox, uy = r[4] - oy, uz = r[5] - oz;
  const uu = ux * ux + uy * uy + uz * uz;
  for (let k = 0; k < cur.count; k++) {
    const px = c[3 * k], py = c[3 * k + 1], pz = c[3 * k + 2];
    let bx = ox, by = oy, bz = oz; // base point of the reference (nearest on the line)
    if (line && uu > 0) {
      let t = ((px - ox) * ux + (py - oy) * uy + (pz - oz) * uz) / uu;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      bx = ox + t * ux;
      by = oy + t * uy;
      bz = oz + t * uz;
    }
    const sep = (px - bx) * nx + (py - by) * ny + (pz - bz) * nz;
    if (!(sep <= margin)) continue;
    const feature = packFeature(refIsB, refFace, incFace, cur.tagX[k], cur.tagY[k]);
    let qx = px, qy = py, qz = pz;
    if (refIsB) {
      // Incident point is on A: B's point is on its reference line, or the plane projection.
      if (line) {
        qx = bx;
        qy = by;
        qz = bz;
      } else {
        qx = px - sep * nx;
        qy = py - sep * ny;
        qz = pz - sep * nz;
      }
    }
    // The slot is written here (out.push would take its doubles as boxed arguments).
    const slot = out.reserve();
    if (slot < 0) continue;
    const s3 = 3 * slot;
    out.point[s3] = qx;
    out.point[s3 + 1] = qy;
    out.point[s3 + 2] = qz;
    out.normal[s3] = enx;
    out.normal[s3 + 1] = eny;
    out.normal[s3 + 2] = enz;
    out.depth[slot] = -sep;
    out.kind[slot] = kind;
    out.cellI[slot] = -1;
    out.cellJ[slot] = -1;
    out.feature[slot] = feature;
  }
  // One normal, so one group: ≤ MANIFOLD_MAX_POINTS points (reduce-manifold.ts), in place. Most
  // clips leave 3 or 4 well-spread points that the reducer would keep as they are: skip it then.
  const n = out.count - start;
  if (n > MANIFOLD_MAX_POINTS || !reducerKeepsAll(out, start, n, enx, eny, enz)) {
    reduceManifoldInPlace(out, start, ws.clippedGroups);
  }
  return out.count - start;
}

/**
 * True when reduceManifoldInPlace would leave the n ≤ MANIFOLD_MAX_POINTS points out[start,
 * start + n) of one normal (nx, ny, nz) as they are, so the caller may skip it. A sufficient test
 * with a factor 2 over the reducer's thresholds; a closer call returns false (the reducer decides).
 *
 * The reducer drops points of a group of 3 or 4 in two cases only:
 *   (a) line contact: the point farthest from the line P1P2 is within
 *       MANIFOLD_LINE_CONTACT_DISTANCE (L) of it;
 *   (b) 4 points: the one left out of triangle P1P2P3 adds at most MANIFOLD_TIE_TOLERANCE·|P1P2|
 *       of doubled area, seen along the normal.
 * Let D be the largest distance between two of the points and
 *   A_k = ((q_{k+1} − q_k) × (q_{k+2} − q_k))·n    (indices mod n)
 * the doubled signed area of three cyclically consecutive points seen along n. Every triple of 3
 * or 4 points is such a triple, and |A_k| ≤ |q_k q_{k+1}| · (distance of q_{k+2} from their line)
 * ≤ D · distance, so when every |A_k| > 2·L·D no point is within 2L of the line through two
 * others: (a) cannot happen. Four points whose A_k all share one sign form a convex quadrilateral;
 * the point left out of any three of them lies beyond the triangle edge that is a diagonal, by a
 * doubled area |A_k| for one k, so (b) cannot happen either when every |A_k| > 2·L·D ≥ 2·tie·D.
 * Exported for its test (test/unit/manifold/clip-faces-fast-path.test.ts).
 */
export function reducerKeepsAll(buf: ContactBuffer, start: number, n: number, nx: number, ny: number, nz: number): boolean {
  if (n <= 2) return true; // the reducer keeps groups of one or two points as they are
  const P = buf.point;
  let d2Max = 0;
  for (let i = start; i < start + n; i++) {
    for (let j = i + 1; j < start + n; j++) {
      const d2 = sq(P[3 * j] - P[3 * i]) + sq(P[3 * j + 1] - P[3 * i + 1]) + sq(P[3 * j + 2] - P[3 * i + 2]);
      if (d2 > d2Max) d2Max = d2;
    }
  }
  const margin = 2 * Math.max(MANIFOLD_LINE_CONTACT_DISTANCE, MANIFOLD_TIE_TOLERANCE);
  const areaBarSq = margin * margin * d2Max; // (2·L·D)²
  let sign = 0;
  for (let k = 0; k < n; k++) {
    const a = 3 * (start + k), b = 3 * (start + ((k + 1) % n)), c = 3 * (start + ((k + 2) % n));
    const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
    const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
    const area = (uy * vz - uz * vy) * nx + (uz * vx - ux * vz) * ny + (ux * vy - uy * vx) * nz;
    if (!(area * area > areaBarSq)) return false; // also false for NaN
    const s = area > 0 ? 1 : -1;
    if (sign !== 0 && s !== sign) return false;
    sign = s;
  }
  return true;
}

function sq(x: number): number {
  return x * x;
}
