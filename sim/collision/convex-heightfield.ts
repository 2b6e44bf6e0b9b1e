/**
 * Convex body vs heightfield terrain: chassis boxes, rocks (hulls), spheres, capsules and
 * cylinders lying on or sliding over the ground. The body is A, the terrain is B, so the
 * engine convention of contact.ts reads: point on the terrain surface, normal out of the
 * terrain (into the body), depth ≥ −margin; cellI/cellJ name the terrain cell.
 *
 * Pipeline
 *   1. Broad phase (as the paper's §III step 1, for any convex shape): the body's world AABB
 *      gives the cell range; the min/max pyramid (Heightfield.cellRangeMinMax) rejects the
 *      whole query when the terrain's highest vertex is below the body.
 *   2. Face contacts, per element (planar rectangle or triangle, the paper's classification):
 *      the body's supporting feature along −n_P is clipped against the element's side planes
 *      and its points below the element plane are kept (manifoldBetweenFaces with the element
 *      as reference face). Every such contact carries the element's FACE normal, so a box on
 *      flat or gently curved ground never sees an internal-edge normal: no ghost contacts.
 *      Boxes and hulls also test every vertex against the element's prism (vertexContacts),
 *      since the supporting face along −n_P may lie over a neighbour while another vertex dips
 *      into this element.
 *   3. Edge/vertex contacts, only for elements that gave no face contact: GJK between the body
 *      and the element polygon. The contact is kept only if the element point lies on an
 *      ACTIVE edge or vertex — a convex crease whose neighbouring element bends away by more
 *      than HEIGHTFIELD_ACTIVE_EDGE_COS (10°; Jolt's active edges idea). Flat, gently bent and
 *      concave creases are inactive: the neighbouring elements' face tests already cover them,
 *      so a contact there would be a ghost. (Penetrations through an edge deeper than the margin are reported by
 *      the face tests of the elements the body sinks into.)
 *   5. (Run before 4.) If nothing was found although the body dips below some element planes —
 *      a round body centred over a gently convex, inactive vertex or crease — the crease point
 *      becomes a contact with the FACE normal (Jolt's treatment of inactive edges).
 *   4. Candidates are grouped by normal (MANIFOLD_GROUP_COS) and each group reduced to
 *      MANIFOLD_MAX_POINTS (reduce-contacts.ts), so a box on a 5 cm grid gets its 4 corners, not
 *      a point per cell.
 *
 * Element vertex numbering is Heightfield's (V0 = (i, j), V1 = (i+1, j), V2 = (i, j+1),
 * V3 = (i+1, j+1); lower triangle V0 V1 V2, upper V1 V3 V2, rectangle V0 V1 V3 V2, all CCW from
 * above). Polygon edge k runs from its vertex k to vertex k+1.
 */
import {
  GEOMETRIC_EPSILON,
  HEIGHTFIELD_ACTIVE_EDGE_COS,
  HEIGHTFIELD_CANDIDATE_CAPACITY,
  HEIGHTFIELD_EDGE_CONE_SLACK,
  HEIGHTFIELD_FALLBACK_ELEMENTS,
  HEIGHTFIELD_MAX_CELLS_PER_QUERY,
  HEIGHTFIELD_SAME_NORMAL_COS,
  HULL_MAX_VERTICES,
  MANIFOLD_GROUP_COS,
  TERRAIN_PLANARITY_TOLERANCE,
} from '../constants';
import { ContactBuffer } from './contact';
import { GjkResult, GjkStatus, gjkDistance } from './gjk';
import { quatRotate, quatRotateInverse } from '../math/quat';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { ElementKind } from '../terrain/heightfield';
import type { Heightfield, MinMax } from '../terrain/heightfield';
import type { Aabb, ConvexShape, MassProperties, Pose } from '../shapes/shape';
import { ShapeKind, SupportFace } from '../shapes/shape';
import type { BoxShape } from '../shapes/box';
import type { ConvexHullShape } from '../shapes/convex-hull';
import { manifoldBetweenFaces } from './manifold/clip-faces';
import { FacePolygon } from './manifold/face-polygon';
import { PairContactKind, TAG_EDGE_PAIR, TAG_VERTEX, packFeature } from './manifold/feature-id';
import { reduceContacts } from './manifold/reduce-contacts';

export const HeightfieldCollideStatus = {
  Ok: 0,
  /** The body's footprint covers more than HEIGHTFIELD_MAX_CELLS_PER_QUERY cells: only the first were tested. */
  TooManyCells: 1,
  /** The candidate or output buffer filled up; contacts were reduced early or dropped. */
  Overflow: 2,
  /** Non-finite pose: nothing tested. */
  Degenerate: 3,
} as const;
export type HeightfieldCollideStatus = (typeof HeightfieldCollideStatus)[keyof typeof HeightfieldCollideStatus];

/**
 * A terrain element as a (flat) convex shape in WORLD coordinates, for GJK. Only the support
 * functions matter to GJK; mass and volume are zero.
 */
class ElementShape implements ConvexShape {
  readonly kind = ShapeKind.ConvexHull;
  readonly coreRadius = 0;
  count = 0;
  readonly v = new Float64Array(12);

  support(out: Vec3, d: Readonly<Vec3>): Vec3 {
    let best = 0, bestDot = -Infinity;
    for (let k = 0; k < this.count; k++) {
      const s = this.v[3 * k] * d[0] + this.v[3 * k + 1] * d[1] + this.v[3 * k + 2] * d[2];
      if (s > bestDot) {
        bestDot = s;
        best = k;
      }
    }
    out[0] = this.v[3 * best];
    out[1] = this.v[3 * best + 1];
    out[2] = this.v[3 * best + 2];
    return out;
  }

  supportCore(out: Vec3, d: Readonly<Vec3>): Vec3 {
    return this.support(out, d);
  }

  supportingFace(out: SupportFace, _d: Readonly<Vec3>): SupportFace {
    out.clear();
    for (let k = 0; k < this.count; k++) out.push(this.v[3 * k], this.v[3 * k + 1], this.v[3 * k + 2]);
    return out;
  }

  localAabb(out: Aabb): Aabb {
    for (let a = 0; a < 3; a++) {
      out.min[a] = Infinity;
      out.max[a] = -Infinity;
      for (let k = 0; k < this.count; k++) {
        out.min[a] = Math.min(out.min[a], this.v[3 * k + a]);
        out.max[a] = Math.max(out.max[a], this.v[3 * k + a]);
      }
    }
    return out;
  }

  massProperties(out: MassProperties): MassProperties {
    out.mass = 0;
    out.volume = 0;
    return out;
  }

  volume(): number {
    return 0;
  }
}

const IDENTITY_POSE: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
const element = new ElementShape();
const gjk = new GjkResult();
const localAabb: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
const range: MinMax = { min: 0, max: 0 };
const face = new SupportFace();
const bodyPoly = new FacePolygon();
const elemPoly = new FacePolygon();
const nP: Vec3 = [0, 0, 0];
const nQ: Vec3 = [0, 0, 0];
const dir: Vec3 = [0, 0, 0];
const tmp: Vec3 = [0, 0, 0];
let cand = new ContactBuffer(HEIGHTFIELD_CANDIDATE_CAPACITY);
let spare = new ContactBuffer(HEIGHTFIELD_CANDIDATE_CAPACITY);
const group = new ContactBuffer(HEIGHTFIELD_CANDIDATE_CAPACITY);
const taken = new Uint8Array(HEIGHTFIELD_CANDIDATE_CAPACITY);
/** Room one element may need in the candidate buffer before we compact (clip output ≤ 4 after reduction). */
const ELEMENT_ROOM = 8;

/** Writes the element polygon (CCW from above) of cell (i, j) into elemPoly and `element`. */
function loadElement(hf: Heightfield, i: number, j: number, kind: ElementKind): void {
  elemPoly.clear();
  element.count = 0;
  const n = kind === ElementKind.Rectangle ? 4 : 3;
  for (let k = 0; k < n; k++) {
    const corner = elementCorner(kind, k);
    const ci = i + (corner & 1), cj = j + (corner >> 1);
    const x = hf.vertexX(ci), y = hf.vertexY(cj), z = hf.height(ci, cj);
    elemPoly.push(x, y, z, k, TAG_VERTEX, corner);
    element.v[3 * k] = x;
    element.v[3 * k + 1] = y;
    element.v[3 * k + 2] = z;
    element.count++;
  }
}

/** World vertices of a box or hull body (0 for curved shapes), filled once per query. */
const verts = new Float64Array(HULL_MAX_VERTICES * 3);
let nVerts = 0;

function loadVertices(shape: ConvexShape, pose: Readonly<Pose>): void {
  nVerts = 0;
  if (shape.kind === ShapeKind.Box) {
    const h = (shape as BoxShape).halfExtents;
    for (let v = 0; v < 8; v++) {
      tmp[0] = v & 1 ? h[0] : -h[0];
      tmp[1] = v & 2 ? h[1] : -h[1];
      tmp[2] = v & 4 ? h[2] : -h[2];
      pushVertex(pose);
    }
  } else if (shape.kind === ShapeKind.ConvexHull) {
    const hull = shape as ConvexHullShape;
    const n = Math.min(hull.vertexCount, HULL_MAX_VERTICES);
    for (let v = 0; v < n; v++) {
      tmp[0] = hull.vertices[3 * v];
      tmp[1] = hull.vertices[3 * v + 1];
      tmp[2] = hull.vertices[3 * v + 2];
      pushVertex(pose);
    }
  }
}

function pushVertex(pose: Readonly<Pose>): void {
  quatRotate(tmp, pose.orientation, tmp);
  verts[3 * nVerts] = tmp[0] + pose.position[0];
  verts[3 * nVerts + 1] = tmp[1] + pose.position[1];
  verts[3 * nVerts + 2] = tmp[2] + pose.position[2];
  nVerts++;
}

/**
 * Adds a face-normal contact for every body vertex inside element (i, j, kind)'s prism (side
 * planes along n_P, as the face clip uses) and within `margin` of its plane, unless a contact
 * from this element already sits there. elemPoly and nP hold the element. Returns the count added.
 */
function vertexContacts(hf: Heightfield, i: number, j: number, kind: ElementKind, start: number, margin: number): number {
  const e = elemPoly.xyz, ne = elemPoly.count;
  const nx = nP[0], ny = nP[1], nz = nP[2];
  let added = 0;
  for (let v = 0; v < nVerts; v++) {
    const px = verts[3 * v], py = verts[3 * v + 1], pz = verts[3 * v + 2];
    const sep = (px - e[0]) * nx + (py - e[1]) * ny + (pz - e[2]) * nz;
    if (!(sep <= margin)) continue;
    let inside = true;
    for (let k = 0; k < ne && inside; k++) {
      const k1 = k + 1 === ne ? 0 : k + 1;
      const ex = e[3 * k1] - e[3 * k], ey = e[3 * k1 + 1] - e[3 * k + 1], ez = e[3 * k1 + 2] - e[3 * k + 2];
      // elements are CCW seen from above (along +n_P), so edge × n_P points outward
      const mx = ey * nz - ez * ny, my = ez * nx - ex * nz, mz = ex * ny - ey * nx;
      if (mx * (px - e[3 * k]) + my * (py - e[3 * k + 1]) + mz * (pz - e[3 * k + 2]) > 0) inside = false;
    }
    if (!inside) continue;
    const qx = px - sep * nx, qy = py - sep * ny, qz = pz - sep * nz;
    let dup = false;
    for (let c = start; c < cand.count && !dup; c++) {
      const dx = cand.point[3 * c] - qx, dy = cand.point[3 * c + 1] - qy, dz = cand.point[3 * c + 2] - qz;
      dup = dx * dx + dy * dy + dz * dz <= GEOMETRIC_EPSILON * GEOMETRIC_EPSILON;
    }
    if (dup) continue;
    if (cand.count >= cand.capacity - 1) break;
    cand.push(qx, qy, qz, nx, ny, nz, -sep, PairContactKind.HeightfieldFace, i, j,
      packFeature(true, kind, 0, TAG_VERTEX, v));
    added++;
  }
  return added;
}

const sup: Vec3 = [0, 0, 0];
/** Cache of the body's supporting polygon (per query; see supportingPolygon). */
let polyCacheValid = false;
let cachedCount = 0;
const cachedFirst: Vec3 = [0, 0, 0];
const cachedSecond: Vec3 = [0, 0, 0];
let facePlaneValid = false;
const faceN: Vec3 = [0, 0, 0];

/** The body's supporting feature along −nP, in world space (bodyPoly). */
function supportingPolygon(p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape): FacePolygon {
  dir[0] = -nP[0];
  dir[1] = -nP[1];
  dir[2] = -nP[2];
  quatRotateInverse(dir, q, dir);
  shape.supportingFace(face, dir);
  // Same feature as for the previous element (the usual case: a box keeps its bottom face over
  // the whole patch)? Then the world polygon and its plane are still valid.
  if (polyCacheValid && face.count === cachedCount && face.count > 0 &&
      face.points[0] === cachedFirst[0] && face.points[1] === cachedFirst[1] && face.points[2] === cachedFirst[2] &&
      (face.count < 2 || (face.points[3] === cachedSecond[0] && face.points[4] === cachedSecond[1] && face.points[5] === cachedSecond[2]))) {
    return bodyPoly;
  }
  polyCacheValid = true;
  cachedCount = face.count;
  for (let a = 0; a < 3; a++) {
    cachedFirst[a] = face.points[a];
    cachedSecond[a] = face.count > 1 ? face.points[3 + a] : 0;
  }
  bodyPoly.clear();
  for (let k = 0; k < face.count; k++) {
    tmp[0] = face.points[3 * k];
    tmp[1] = face.points[3 * k + 1];
    tmp[2] = face.points[3 * k + 2];
    quatRotate(tmp, q, tmp);
    bodyPoly.push(p[0] + tmp[0], p[1] + tmp[1], p[2] + tmp[2], k, TAG_VERTEX, k);
  }
  // plane of a polygonal feature (Newell), for the "face plane above the element" early-out
  facePlaneValid = false;
  if (bodyPoly.count >= 3) {
    const v = bodyPoly.xyz, n = bodyPoly.count;
    let x = 0, y = 0, z = 0;
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      x += (v[3 * i + 1] - v[3 * j + 1]) * (v[3 * i + 2] + v[3 * j + 2]);
      y += (v[3 * i + 2] - v[3 * j + 2]) * (v[3 * i] + v[3 * j]);
      z += (v[3 * i] - v[3 * j]) * (v[3 * i + 1] + v[3 * j + 1]);
    }
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > 0) {
      faceN[0] = x / l;
      faceN[1] = y / l;
      faceN[2] = z / l;
      facePlaneValid = true;
    }
  }
  return bodyPoly;
}

/**
 * Early-out for the face clip and the vertex pass: true if the body's supporting face plane lies
 * more than `margin` above every corner of the element, measured along n_P. The clipped points
 * lie on that plane inside the prism, and the whole body lies on the inner side of its own face
 * plane, so neither pass can find a point within the margin (planes are linear: corners bound).
 */
function facePlaneAboveElement(margin: number): boolean {
  if (!facePlaneValid) return false;
  const d = nP[0] * faceN[0] + nP[1] * faceN[1] + nP[2] * faceN[2];
  if (!(Math.abs(d) > GEOMETRIC_EPSILON)) return false; // face perpendicular to the element: no bound
  const v = bodyPoly.xyz, e = elemPoly.xyz;
  for (let k = 0; k < elemPoly.count; k++) {
    const t = ((v[0] - e[3 * k]) * faceN[0] + (v[1] - e[3 * k + 1]) * faceN[1] + (v[2] - e[3 * k + 2]) * faceN[2]) / d;
    if (!(t > margin)) return false;
  }
  return true;
}

/**
 * True if every vertex of cells [i0, i1] × [j0, j1] lies on one plane (within
 * TERRAIN_PLANARITY_TOLERANCE, the tolerance of the paper's rectangle classification). Then
 * elemPoly/element hold the whole range as one rectangle (CCW from above) and nP its normal.
 */
function planarPatch(hf: Heightfield, i0: number, j0: number, i1: number, j1: number): boolean {
  if (i0 === i1 && j0 === j1) return false; // one cell: the per-element path is as cheap
  const kP = hf.elementPlane(nP, i0, j0, ElementKind.LowerTriangle);
  const nx = nP[0], ny = nP[1], nz = nP[2];
  for (let j = j0; j <= j1 + 1; j++) {
    const y = hf.vertexY(j);
    for (let i = i0; i <= i1 + 1; i++) {
      const d = hf.vertexX(i) * nx + y * ny + hf.height(i, j) * nz - kP;
      if (d > TERRAIN_PLANARITY_TOLERANCE || d < -TERRAIN_PLANARITY_TOLERANCE) return false;
    }
  }
  elemPoly.clear();
  element.count = 0;
  for (let k = 0; k < 4; k++) {
    const ci = k === 1 || k === 2 ? i1 + 1 : i0, cj = k >= 2 ? j1 + 1 : j0;
    const x = hf.vertexX(ci), y = hf.vertexY(cj), z = hf.height(ci, cj);
    elemPoly.push(x, y, z, k, TAG_VERTEX, k);
    element.v[3 * k] = x;
    element.v[3 * k + 1] = y;
    element.v[3 * k + 2] = z;
    element.count++;
  }
  return true;
}

/**
 * min over the body of −d·(x − o): how far the whole body lies beyond the plane through o on the
 * −d side (d unit). Computed from the body's support point along d. > margin: no point of the
 * body comes within the margin of the plane's d side.
 */
function bodySupportGap(
  p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape,
  dx: number, dy: number, dz: number, ox: number, oy: number, oz: number,
): number {
  dir[0] = dx;
  dir[1] = dy;
  dir[2] = dz;
  quatRotateInverse(dir, q, dir);
  shape.support(sup, dir);
  quatRotate(sup, q, sup);
  return -((p[0] + sup[0] - ox) * dx + (p[1] + sup[1] - oy) * dy + (p[2] + sup[2] - oz) * dz);
}

/** True if the body lies more than `margin` outside one side plane of elemPoly's prism (along nP). */
function outsidePrism(p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape, margin: number): boolean {
  const e = elemPoly.xyz, ne = elemPoly.count;
  const nx = nP[0], ny = nP[1], nz = nP[2];
  for (let k = 0; k < ne; k++) {
    const k1 = k + 1 === ne ? 0 : k + 1;
    const ex = e[3 * k1] - e[3 * k], ey = e[3 * k1 + 1] - e[3 * k + 1], ez = e[3 * k1 + 2] - e[3 * k + 2];
    // outward side normal (elements are CCW seen along +n_P)
    let mx = ey * nz - ez * ny, my = ez * nx - ex * nz, mz = ex * ny - ey * nx;
    const ml = Math.sqrt(mx * mx + my * my + mz * mz);
    if (!(ml > 0)) continue;
    mx /= ml;
    my /= ml;
    mz /= ml;
    // the body's point deepest toward the inside (−m) still beyond the plane by > margin?
    if (bodySupportGap(p, q, shape, -mx, -my, -mz, e[3 * k], e[3 * k + 1], e[3 * k + 2]) > margin) return true;
  }
  return false;
}

/** Elements kept for the inactive-crease fallback (see step 5), i, j, kind per entry. */
const fallback = new Int32Array(HEIGHTFIELD_FALLBACK_ELEMENTS * 3);
let fallbackCount = 0;
const proj: Vec3 = [0, 0, 0];
/** The body's world AABB grown by the margin (per query). */
const boxMin: Vec3 = [0, 0, 0];
const boxMax: Vec3 = [0, 0, 0];
const nearest: Vec3 = [0, 0, 0];
const onEdge: Vec3 = [0, 0, 0];

/** Step 5 for one element: a face-normal contact at the crease point the body sinks onto. */
function inactiveCreaseContact(
  hf: Heightfield, i: number, j: number, kind: ElementKind,
  p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape, pose: Readonly<Pose>, margin: number,
): void {
  loadElement(hf, i, j, kind);
  hf.elementPlane(nP, i, j, kind);
  const e = elemPoly.xyz, ne = elemPoly.count;
  const gap = bodySupportGap(p, q, shape, -nP[0], -nP[1], -nP[2], e[0], e[1], e[2]);
  if (gap > margin) return;
  // the body's deepest point w.r.t. the plane (sup, body-relative) projected onto the plane
  const sx = p[0] + sup[0], sy = p[1] + sup[1], sz = p[2] + sup[2];
  const off = (sx - e[0]) * nP[0] + (sy - e[1]) * nP[1] + (sz - e[2]) * nP[2];
  proj[0] = sx - off * nP[0];
  proj[1] = sy - off * nP[1];
  proj[2] = sz - off * nP[2];
  // nearest point of the element polygon (inside: the projection itself)
  let inside = true;
  let best = Infinity;
  for (let k = 0; k < ne; k++) {
    const k1 = k + 1 === ne ? 0 : k + 1;
    const ex = e[3 * k1] - e[3 * k], ey = e[3 * k1 + 1] - e[3 * k + 1], ez = e[3 * k1 + 2] - e[3 * k + 2];
    const mx = ey * nP[2] - ez * nP[1], my = ez * nP[0] - ex * nP[2], mz = ex * nP[1] - ey * nP[0];
    if (mx * (proj[0] - e[3 * k]) + my * (proj[1] - e[3 * k + 1]) + mz * (proj[2] - e[3 * k + 2]) > 0) inside = false;
    // closest point on edge k
    const l2 = ex * ex + ey * ey + ez * ez;
    let t = l2 > 0 ? ((proj[0] - e[3 * k]) * ex + (proj[1] - e[3 * k + 1]) * ey + (proj[2] - e[3 * k + 2]) * ez) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    onEdge[0] = e[3 * k] + t * ex;
    onEdge[1] = e[3 * k + 1] + t * ey;
    onEdge[2] = e[3 * k + 2] + t * ez;
    const d2 = (onEdge[0] - proj[0]) ** 2 + (onEdge[1] - proj[1]) ** 2 + (onEdge[2] - proj[2]) ** 2;
    if (d2 < best) {
      best = d2;
      nearest[0] = onEdge[0];
      nearest[1] = onEdge[1];
      nearest[2] = onEdge[2];
    }
  }
  if (inside) {
    nearest[0] = proj[0];
    nearest[1] = proj[1];
    nearest[2] = proj[2];
  }
  // cheap reject before GJK: the element point must lie in the body's (margin-grown) AABB
  if (nearest[0] < boxMin[0] || nearest[0] > boxMax[0] || nearest[1] < boxMin[1] || nearest[1] > boxMax[1] ||
      nearest[2] < boxMin[2] || nearest[2] > boxMax[2]) return;
  // the element point must touch the body (GJK of the body against that single point)
  element.count = 1;
  element.v[0] = nearest[0];
  element.v[1] = nearest[1];
  element.v[2] = nearest[2];
  gjkDistance(gjk, shape, pose, element, IDENTITY_POSE);
  if (gjk.status === GjkStatus.Degenerate) return;
  if (gjk.status !== GjkStatus.Intersecting && gjk.status !== GjkStatus.Touching && !(gjk.distance <= margin)) return;
  // The elements around one crease point all report it, each with its own face normal: keep
  // one contact per point, the deepest (its face is the one the body sinks into most).
  for (let c = 0; c < cand.count; c++) {
    const dx = cand.point[3 * c] - nearest[0], dy = cand.point[3 * c + 1] - nearest[1], dz = cand.point[3 * c + 2] - nearest[2];
    if (dx * dx + dy * dy + dz * dz > GEOMETRIC_EPSILON * GEOMETRIC_EPSILON) continue;
    if (-gap > cand.depth[c]) {
      cand.depth[c] = -gap;
      cand.normal[3 * c] = nP[0];
      cand.normal[3 * c + 1] = nP[1];
      cand.normal[3 * c + 2] = nP[2];
      cand.cellI[c] = i;
      cand.cellJ[c] = j;
    }
    return;
  }
  cand.push(nearest[0], nearest[1], nearest[2], nP[0], nP[1], nP[2], -gap, PairContactKind.HeightfieldCrease, i, j,
    packFeature(true, kind, ((i & 0xf) | ((j & 0xf) << 4)), TAG_EDGE_PAIR, TAG_VERTEX));
}

/** Cell corner (0..3 = V0..V3) of vertex k of an element, in the CCW order used everywhere here. */
function elementCorner(kind: ElementKind, k: number): number {
  if (kind === ElementKind.Rectangle) return k === 0 ? 0 : k === 1 ? 1 : k === 2 ? 3 : 2; // V0 V1 V3 V2
  if (kind === ElementKind.LowerTriangle) return k; // V0 V1 V2
  return k === 0 ? 1 : k === 1 ? 3 : 2; // V1 V3 V2
}

/**
 * Is the crease along polygon edge k of element (i, j, kind) active — convex, and bent by more
 * than HEIGHTFIELD_ACTIVE_EDGE_COS (10°)? Border edges of the grid are active (nothing beyond).
 *
 * Edge k of each element, as a side of its cell (4 = the V1–V2 diagonal):
 *   rectangle V0V1 bottom, V1V3 right, V3V2 top, V2V0 left
 *   lower     V0V1 bottom, V1V2 diagonal, V2V0 left
 *   upper     V1V3 right,  V3V2 top,      V2V1 diagonal
 * The neighbour across a cell side is the adjacent cell's element holding the opposite side:
 * top and right sides belong to the upper triangle, bottom and left to the lower (or the
 * rectangle). The crease is convex iff the neighbour's centroid lies below this element's plane.
 */
function edgeActive(hf: Heightfield, i: number, j: number, kind: ElementKind, k: number): boolean {
  let side: number; // 0 bottom, 1 right, 2 top, 3 left, 4 diagonal
  if (kind === ElementKind.Rectangle) side = k;
  else if (kind === ElementKind.LowerTriangle) side = k === 0 ? 0 : k === 1 ? 4 : 3;
  else side = k === 0 ? 1 : k === 1 ? 2 : 4;
  let ni = i, nj = j;
  let nkind: ElementKind;
  if (side === 4) {
    nkind = kind === ElementKind.LowerTriangle ? ElementKind.UpperTriangle : ElementKind.LowerTriangle;
  } else {
    if (side === 0) nj = j - 1;
    else if (side === 1) ni = i + 1;
    else if (side === 2) nj = j + 1;
    else ni = i - 1;
    if (ni < 0 || nj < 0 || ni >= hf.cellsX || nj >= hf.cellsY) return true;
    // the neighbour's side facing us is the opposite one: bottom↔top, left↔right
    const upperHolds = side === 0 || side === 3; // we go down/left: the neighbour's top/right side
    nkind = hf.cellIsRectangle(ni, nj) ? ElementKind.Rectangle : upperHolds ? ElementKind.UpperTriangle : ElementKind.LowerTriangle;
  }
  const kP = hf.elementPlane(nP, i, j, kind);
  hf.elementPlane(nQ, ni, nj, nkind);
  if (nP[0] * nQ[0] + nP[1] * nQ[1] + nP[2] * nQ[2] >= HEIGHTFIELD_ACTIVE_EDGE_COS) return false;
  const n = nkind === ElementKind.Rectangle ? 4 : 3;
  let sx = 0, sy = 0, sz = 0;
  for (let c = 0; c < n; c++) {
    const corner = elementCorner(nkind, c);
    const ci = ni + (corner & 1), cj = nj + (corner >> 1);
    sx += hf.vertexX(ci);
    sy += hf.vertexY(cj);
    sz += hf.height(ci, cj);
  }
  // s(P) = k_P − P·n_P > 0 below the plane (paper's sign)
  const s = kP - (sx * nP[0] + sy * nP[1] + sz * nP[2]) / n;
  return s > GEOMETRIC_EPSILON;
}

/** Distance from point (px, py, pz) to polygon edge k of elemPoly, squared. */
function edgeDistanceSq(k: number, px: number, py: number, pz: number): number {
  const n = elemPoly.count, v = elemPoly.xyz;
  const k1 = k + 1 === n ? 0 : k + 1;
  const ax = v[3 * k], ay = v[3 * k + 1], az = v[3 * k + 2];
  const ex = v[3 * k1] - ax, ey = v[3 * k1 + 1] - ay, ez = v[3 * k1 + 2] - az;
  const e2 = ex * ex + ey * ey + ez * ez;
  let t = e2 > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / e2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const dx = ax + t * ex - px, dy = ay + t * ey - py, dz = az + t * ez - pz;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Groups `src` by normal and appends ≤ MANIFOLD_MAX_POINTS per group to `dst`. Returns false if
 * `dst` overflowed.
 */
function reduceByGroups(dst: ContactBuffer, src: ContactBuffer): boolean {
  taken.fill(0, 0, src.count);
  let ok = true;
  for (let lead = 0; lead < src.count; lead++) {
    if (taken[lead]) continue;
    group.clear();
    const lx = src.normal[3 * lead], ly = src.normal[3 * lead + 1], lz = src.normal[3 * lead + 2];
    for (let k = lead; k < src.count; k++) {
      if (taken[k]) continue;
      if (src.normal[3 * k] * lx + src.normal[3 * k + 1] * ly + src.normal[3 * k + 2] * lz < MANIFOLD_GROUP_COS) continue;
      taken[k] = 1;
      // A point on an element border is produced by every element sharing it: keep one.
      if (hasDuplicate(group, src, k)) continue;
      copyContact(group, src, k);
    }
    reduceContacts(group, 0);
    for (let k = 0; k < group.count; k++) if (copyContact(dst, group, k) < 0) ok = false;
  }
  return ok;
}

function hasDuplicate(g: ContactBuffer, src: ContactBuffer, k: number): boolean {
  const x = src.point[3 * k], y = src.point[3 * k + 1], z = src.point[3 * k + 2];
  const d2 = GEOMETRIC_EPSILON * GEOMETRIC_EPSILON;
  for (let m = 0; m < g.count; m++) {
    const dx = g.point[3 * m] - x, dy = g.point[3 * m + 1] - y, dz = g.point[3 * m + 2] - z;
    if (dx * dx + dy * dy + dz * dz <= d2) {
      if (src.depth[k] > g.depth[m]) g.depth[m] = src.depth[k];
      return true;
    }
  }
  return false;
}

function copyContact(dst: ContactBuffer, src: ContactBuffer, k: number): number {
  return dst.push(
    src.point[3 * k], src.point[3 * k + 1], src.point[3 * k + 2],
    src.normal[3 * k], src.normal[3 * k + 1], src.normal[3 * k + 2],
    src.depth[k], src.kind[k], src.cellI[k], src.cellJ[k], src.feature[k],
  );
}

/**
 * Appends the contacts of convex `shape` at `pose` against terrain `hf` to `out` (see the file
 * header for the convention) and returns a status.
 */
export function collideConvexHeightfield(
  out: ContactBuffer,
  shape: ConvexShape, pose: Readonly<Pose>,
  hf: Heightfield,
  margin: number,
): HeightfieldCollideStatus {
  const p = pose.position, q = pose.orientation;
  if (!Number.isFinite(p[0] + p[1] + p[2] + q[0] + q[1] + q[2] + q[3])) return HeightfieldCollideStatus.Degenerate;
  let status: HeightfieldCollideStatus = HeightfieldCollideStatus.Ok;

  // 1. World AABB: centre ± |R|·half extents of the local AABB.
  shape.localAabb(localAabb);
  tmp[0] = 0.5 * (localAabb.min[0] + localAabb.max[0]);
  tmp[1] = 0.5 * (localAabb.min[1] + localAabb.max[1]);
  tmp[2] = 0.5 * (localAabb.min[2] + localAabb.max[2]);
  quatRotate(tmp, q, tmp);
  const cx = p[0] + tmp[0], cy = p[1] + tmp[1], cz = p[2] + tmp[2];
  const hx = 0.5 * (localAabb.max[0] - localAabb.min[0]);
  const hy = 0.5 * (localAabb.max[1] - localAabb.min[1]);
  const hz = 0.5 * (localAabb.max[2] - localAabb.min[2]);
  let ex = 0, ey = 0, ez = 0;
  for (let a = 0; a < 3; a++) {
    tmp[0] = a === 0 ? hx : 0;
    tmp[1] = a === 1 ? hy : 0;
    tmp[2] = a === 2 ? hz : 0;
    quatRotate(tmp, q, tmp);
    ex += Math.abs(tmp[0]);
    ey += Math.abs(tmp[1]);
    ez += Math.abs(tmp[2]);
  }
  const minX = cx - ex - margin, maxX = cx + ex + margin;
  const minY = cy - ey - margin, maxY = cy + ey + margin;
  const minZ = cz - ez - margin;
  boxMin[0] = minX;
  boxMin[1] = minY;
  boxMin[2] = minZ;
  boxMax[0] = maxX;
  boxMax[1] = maxY;
  boxMax[2] = cz + ez + margin;
  let i0 = Math.floor((minX - hf.x0) / hf.dx), i1 = Math.floor((maxX - hf.x0) / hf.dx);
  let j0 = Math.floor((minY - hf.y0) / hf.dy), j1 = Math.floor((maxY - hf.y0) / hf.dy);
  if (i0 < 0) i0 = 0;
  if (j0 < 0) j0 = 0;
  if (i1 > hf.cellsX - 1) i1 = hf.cellsX - 1;
  if (j1 > hf.cellsY - 1) j1 = hf.cellsY - 1;
  if (i0 > i1 || j0 > j1) return status; // off the grid
  if ((i1 - i0 + 1) * (j1 - j0 + 1) > HEIGHTFIELD_MAX_CELLS_PER_QUERY) {
    status = HeightfieldCollideStatus.TooManyCells;
    const side = Math.floor(Math.sqrt(HEIGHTFIELD_MAX_CELLS_PER_QUERY));
    // keep the cells nearest the body's centre
    const ci = Math.floor((cx - hf.x0) / hf.dx), cj = Math.floor((cy - hf.y0) / hf.dy);
    i0 = Math.max(i0, ci - (side >> 1));
    i1 = Math.min(i1, i0 + side - 1);
    j0 = Math.max(j0, cj - (side >> 1));
    j1 = Math.min(j1, j0 + side - 1);
  }
  hf.cellRangeMinMax(range, i0, j0, i1, j1);
  if (range.max < minZ) return status; // the whole patch is below the body

  cand.clear();
  fallbackCount = 0;
  polyCacheValid = false;
  loadVertices(shape, pose);
  if (planarPatch(hf, i0, j0, i1, j1)) {
    // Paper §III's flat-patch shortcut, generalised to any plane: the whole range is one planar
    // element, so one clip replaces one per cell and no crease inside it is active.
    const start = cand.count;
    manifoldBetweenFaces(cand, elemPoly, nP, supportingPolygon(p, q, shape), true, 0, 0, margin, PairContactKind.HeightfieldFace);
    if (nVerts > 0) vertexContacts(hf, 0, 0, ElementKind.Rectangle, start, margin);
    for (let k = start; k < cand.count; k++) {
      let ci = Math.floor((cand.point[3 * k] - hf.x0) / hf.dx), cj = Math.floor((cand.point[3 * k + 1] - hf.y0) / hf.dy);
      ci = ci < i0 ? i0 : ci > i1 ? i1 : ci;
      cj = cj < j0 ? j0 : cj > j1 ? j1 : cj;
      cand.cellI[k] = ci;
      cand.cellJ[k] = cj;
      cand.feature[k] = (cand.feature[k] & 0xff00ffff) | (((ci & 0xf) | ((cj & 0xf) << 4)) << 16);
    }
    if (!reduceByGroups(out, cand)) status = HeightfieldCollideStatus.Overflow;
    return status;
  }
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const rect = hf.cellIsRectangle(i, j);
      for (let e = 0; e < (rect ? 1 : 2); e++) {
        const kind: ElementKind = rect ? ElementKind.Rectangle : e === 0 ? ElementKind.LowerTriangle : ElementKind.UpperTriangle;
        loadElement(hf, i, j, kind);
        let zTop = -Infinity;
        for (let k = 0; k < element.count; k++) zTop = Math.max(zTop, element.v[3 * k + 2]);
        if (zTop < minZ) continue;
        if (cand.count + ELEMENT_ROOM > cand.capacity) {
          // Compact: reduce what we have per normal group, keep going.
          spare.clear();
          if (!reduceByGroups(spare, cand)) status = HeightfieldCollideStatus.Overflow;
          const t = cand;
          cand = spare;
          spare = t;
          if (cand.count + ELEMENT_ROOM > cand.capacity) {
            status = HeightfieldCollideStatus.Overflow;
            continue;
          }
        }
        hf.elementPlane(nP, i, j, kind);
        // Early outs (each a support query, far cheaper than clipping or GJK):
        //  - the body lies entirely above the element's plane by more than the margin: no face,
        //    vertex or edge contact can exist (the element is part of its plane);
        //  - the body lies entirely outside one side plane of the element's prism by more than
        //    the margin: no face or vertex contact, and no edge contact either (every point of the
        //    element is behind that side plane).
        if (bodySupportGap(p, q, shape, -nP[0], -nP[1], -nP[2], elemPoly.xyz[0], elemPoly.xyz[1], elemPoly.xyz[2]) > margin) continue;
        if (outsidePrism(p, q, shape, margin)) continue;
        // 2. Face contact: body's supporting feature along −n_P, clipped by the element's prism.
        const start = cand.count;
        const bodyFace = supportingPolygon(p, q, shape);
        let added = 0;
        if (!facePlaneAboveElement(margin)) {
          added = manifoldBetweenFaces(cand, elemPoly, nP, bodyFace, true, kind, 0, margin, PairContactKind.HeightfieldFace);
          // 2b. Polytope vertices inside this element's prism that the supporting face missed
          // (the face along −n_P holds the deepest points w.r.t. this plane, which may lie over
          // a neighbour, while another vertex dips into this element).
          if (nVerts > 0) added += vertexContacts(hf, i, j, kind, start, margin);
        }
        if (added > 0) {
          for (let k = start; k < cand.count; k++) {
            cand.cellI[k] = i;
            cand.cellJ[k] = j;
            // feature: element kind as reference face, cell parity in the incident field (ids
            // of neighbouring cells differ), clip tags kept
            cand.feature[k] = (cand.feature[k] & 0xff00ffff) | (((i & 0xf) | ((j & 0xf) << 4)) << 16);
          }
          continue;
        }
        // Remember the element for the inactive-crease fallback (5. below).
        if (fallbackCount < HEIGHTFIELD_FALLBACK_ELEMENTS) {
          fallback[3 * fallbackCount] = i;
          fallback[3 * fallbackCount + 1] = j;
          fallback[3 * fallbackCount + 2] = kind;
          fallbackCount++;
        }
        // 3. Edge/vertex contact through GJK, only on active creases (none on flat ground).
        let anyActive = false;
        for (let k = 0; k < elemPoly.count && !anyActive; k++) anyActive = edgeActive(hf, i, j, kind, k);
        hf.elementPlane(nP, i, j, kind); // edgeActive overwrote nP
        if (!anyActive) continue;
        gjkDistance(gjk, shape, pose, element, IDENTITY_POSE);
        if (gjk.status === GjkStatus.Degenerate || gjk.status === GjkStatus.Intersecting) continue;
        if (!(gjk.distance <= margin) || !gjk.normalValid) continue;
        const wx = gjk.pointB[0], wy = gjk.pointB[1], wz = gjk.pointB[2];
        // contact normal: from the terrain point to the body = −(A→B normal)
        const cnx = -gjk.normal[0], cny = -gjk.normal[1], cnz = -gjk.normal[2];
        if (cnx * nP[0] + cny * nP[1] + cnz * nP[2] >= HEIGHTFIELD_SAME_NORMAL_COS) continue; // a face contact of a neighbour
        // which edges does the witness lie on?
        const scale = Math.max(hf.dx, hf.dy);
        const onTol = GEOMETRIC_EPSILON * GEOMETRIC_EPSILON * Math.max(1, scale * scale);
        // The normal must also lie in the crease's normal cone (Voronoi region of the edge):
        // on the arc between the two face normals for an edge, on the outer side of every
        // adjacent face for a vertex. A GJK normal outside it comes from the body being beside
        // or under the sheet of one element (inside the solid terrain): not an edge contact.
        // Every outward normal of a heightfield (faces, and convex combinations of them at
        // creases) points up: cnz > 0 is necessary. On an edge the cone is the arc between the
        // two face normals: n·n1 ≥ n1·n2 and n·n2 ≥ n1·n2. At a vertex (two edges of this
        // element) the cone spans all faces around it; we only bound it by the arcs' lower
        // bound on this element's normal.
        let active = false, onEdge = false, edgeId = 0, edges = 0, arcOk = true, minC12 = 1;
        for (let k = 0; k < elemPoly.count; k++) {
          if (edgeDistanceSq(k, wx, wy, wz) > onTol) continue;
          onEdge = true;
          edges++;
          const isActive = edgeActive(hf, i, j, kind, k); // leaves this element's normal in nP, the neighbour's in nQ
          const c12 = nP[0] * nQ[0] + nP[1] * nQ[1] + nP[2] * nQ[2];
          if (c12 < minC12) minC12 = c12;
          if (isActive) {
            active = true;
            edgeId = k;
            const c1 = cnx * nP[0] + cny * nP[1] + cnz * nP[2];
            const c2 = cnx * nQ[0] + cny * nQ[1] + cnz * nQ[2];
            if (c1 < c12 - HEIGHTFIELD_EDGE_CONE_SLACK || c2 < c12 - HEIGHTFIELD_EDGE_CONE_SLACK) arcOk = false;
          }
        }
        // restore nP for this element (edgeActive overwrote it)
        hf.elementPlane(nP, i, j, kind);
        if (!onEdge || !active || !(cnz > 0)) continue;
        if (edges === 1 && !arcOk) continue;
        if (edges > 1 && cnx * nP[0] + cny * nP[1] + cnz * nP[2] < minC12 - HEIGHTFIELD_EDGE_CONE_SLACK) continue;
        const k2 = cand.push(wx, wy, wz, cnx, cny, cnz, -gjk.distance, PairContactKind.HeightfieldEdge, i, j,
          packFeature(true, kind, ((i & 0xf) | ((j & 0xf) << 4)), edgeId, TAG_EDGE_PAIR));
        if (k2 < 0) status = HeightfieldCollideStatus.Overflow;
      }
    }
  }
  // 5. Inactive-crease fallback. A round body (sphere, capsule end, cylinder rim) centred over a
  // gently convex vertex or crease has its support point along every adjacent face normal just
  // outside that face's prism, so no face contact exists while the crease pokes into it, and
  // the crease is inactive (no edge normal, by design). Jolt keeps such contacts with the face
  // normal instead of the edge normal; we do the same, but only when the query found nothing
  // else (otherwise the faces already hold the body): point = the element point nearest the
  // body's support point, normal = the face normal, depth = the body's depth below the face.
  if (cand.count === 0) {
    for (let f = 0; f < fallbackCount; f++) inactiveCreaseContact(hf, fallback[3 * f], fallback[3 * f + 1], fallback[3 * f + 2] as ElementKind, p, q, shape, pose, margin);
    // A rescue, not a manifold: keep the deepest crease point only (the crease points of the
    // several elements around it carry slightly different face normals and would otherwise
    // form several one-point groups for one touching point).
    if (cand.count > 1) {
      let best = 0;
      for (let c = 1; c < cand.count; c++) if (cand.depth[c] > cand.depth[best]) best = c;
      cand.move(0, best);
      cand.count = 1;
    }
  }
  // 4. Per normal group, ≤ MANIFOLD_MAX_POINTS.
  if (!reduceByGroups(out, cand)) status = HeightfieldCollideStatus.Overflow;
  return status;
}
