/**
 * Separating-axis test for two oriented boxes, and the box–box contact manifold built on it.
 *
 * SAT (Habr article, seed 001; Gottschalk's OBB test): two convex bodies are disjoint iff some
 * axis separates their projections. For boxes 15 candidates suffice: the 3 face normals of A,
 * the 3 of B, and the 9 cross products A_i × B_j of edge directions. Per axis L (unit):
 *
 *     r_A = Σ_k hA_k |A_k·L|,   r_B = Σ_k hB_k |B_k·L|,   separation = |(c_B − c_A)·L| − (r_A + r_B)
 *
 * The axis of maximum separation is the answer: > 0 separated (a lower bound of the distance),
 * ≤ 0 overlapping with penetration depth −separation along it (the article's "minimum overlap
 * axis = collision normal, overlap = depth"), oriented from A to B. Cross products of
 * near-parallel edges are skipped (their length is round-off; the face axes cover that case).
 *
 * Manifold: a face axis gives reference face = that face, incident face = the other box's face
 * most anti-parallel to it, clipped by manifoldBetweenFaces (up to 8 points reduced to 4). An
 * edge axis gives one point from the closest points of the two edges (seed 003's mua/mub).
 *
 * Box face and vertex numbering (local frame, h = half extents):
 *
 *     face f = 2·axis + (sign < 0 ? 1 : 0): 0 = +x, 1 = −x, 2 = +y, 3 = −y, 4 = +z, 5 = −z
 *     face vertices, counter-clockwise seen from outside, with (u, v) = the next two axes
 *     cyclically after the face axis (x → y, z; y → z, x; z → x, y):
 *         k = 0: (+u, +v)  1: (−u, +v)  2: (−u, −v)  3: (+u, −v)   (flipped order on − faces)
 *     edge tag k runs from vertex k to vertex k+1.
 */
import {
  SAT_EDGE_PARALLEL_EPSILON,
  SAT_FACE_PREFERENCE_ABSOLUTE,
  SAT_FACE_PREFERENCE_RELATIVE,
} from '../constants';
import type { ContactBuffer } from './contact';
import type { Quat } from '../math/quat';
import { quatToMat3 } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { PairContactKind, TAG_EDGE_PAIR, packFeature } from './manifold/feature-id';
import { FacePolygon } from './manifold/face-polygon';
import { ClipWorkspace, manifoldBetweenFaces } from './manifold/clip-faces';
import { closestPointsSegmentSegment, createSegmentClosest } from './segment-closest';

/** Which kind of axis the SAT picked. */
export const SatAxisKind = {
  /** A face normal of box A. */
  FaceA: 0,
  /** A face normal of box B. */
  FaceB: 1,
  /** A_i × B_j. */
  EdgeEdge: 2,
} as const;
export type SatAxisKind = (typeof SatAxisKind)[keyof typeof SatAxisKind];

/** Result slot of satBoxBox. */
export interface BoxBoxSat {
  /** [m] Largest separation over all axes: > 0 disjoint (lower bound of the distance), ≤ 0 overlap = −depth. */
  separation: number;
  /** Unit axis of that separation, oriented from A toward B. */
  normal: Vec3;
  kind: SatAxisKind;
  /** Face axis index (0..2) of A (FaceA), of B (FaceB), or A's edge axis (EdgeEdge). */
  axisA: number;
  /** B's edge axis (EdgeEdge), else −1. */
  axisB: number;
}

/** A new separating-axis record for `satBoxBox` (allocates; reuse it). */
export function createBoxBoxSat(): BoxBoxSat {
  return { separation: 0, normal: [1, 0, 0], kind: SatAxisKind.FaceA, axisA: 0, axisB: -1 };
}

/**
 * Scratch of the box–box routines (satBoxBox, collideBoxBox), owned by the caller (the world's
 * narrow phase, a query context): rotation matrices, faces, edges and the clip's scratch. One
 * call at a time per workspace.
 */
export class BoxBoxWorkspace {
  /** Rotation matrices of A and B (column-major; column k = local axis k in world), set by satBoxBox. */
  readonly mA = new Float64Array(9);
  readonly mB = new Float64Array(9);
  /** The SAT result when collideBoxBox's caller passes none. */
  readonly sat = createBoxBoxSat();
  readonly refPoly = new FacePolygon();
  readonly incPoly = new FacePolygon();
  readonly closest = createSegmentClosest();
  /** Supporting edges of A and B (edge–edge case). */
  readonly eA0: Vec3 = [0, 0, 0];
  readonly eA1: Vec3 = [0, 0, 0];
  readonly eB0: Vec3 = [0, 0, 0];
  readonly eB1: Vec3 = [0, 0, 0];
  /** The reference face's outward normal. */
  readonly refN: Vec3 = [0, 0, 0];
  readonly clip = new ClipWorkspace();
}

function projRadius(m: Float64Array, h: Readonly<Vec3>, lx: number, ly: number, lz: number): number {
  return (
    h[0] * Math.abs(m[0] * lx + m[1] * ly + m[2] * lz) +
    h[1] * Math.abs(m[3] * lx + m[4] * ly + m[5] * lz) +
    h[2] * Math.abs(m[6] * lx + m[7] * ly + m[8] * lz)
  );
}

/**
 * SAT for boxes (cA, qA, hA) and (cB, qB, hB). With `preferFaces`, an edge axis wins over the
 * best face axis only if it separates more by SAT_FACE_PREFERENCE_RELATIVE·|s| +
 * SAT_FACE_PREFERENCE_ABSOLUTE, and a face of B over a face of A by the absolute part (stable
 * resting manifolds); without, the exact maximum-separation axis is returned (queries, oracles).
 * `ws` is the caller's scratch (its rotation matrices hold A's and B's afterwards).
 */
export function satBoxBox(
  out: BoxBoxSat,
  cA: Readonly<Vec3>, qA: Readonly<Quat>, hA: Readonly<Vec3>,
  cB: Readonly<Vec3>, qB: Readonly<Quat>, hB: Readonly<Vec3>,
  preferFaces: boolean,
  ws: BoxBoxWorkspace,
): BoxBoxSat {
  const mA = ws.mA, mB = ws.mB;
  quatToMat3(mA, qA);
  quatToMat3(mB, qB);
  const dx = cB[0] - cA[0], dy = cB[1] - cA[1], dz = cB[2] - cA[2];
  const relTol = preferFaces ? SAT_FACE_PREFERENCE_RELATIVE : 0;
  const absTol = preferFaces ? SAT_FACE_PREFERENCE_ABSOLUTE : 0;

  // Face axes of A.
  let bestA = -Infinity, axA = 0;
  for (let i = 0; i < 3; i++) {
    const lx = mA[3 * i], ly = mA[3 * i + 1], lz = mA[3 * i + 2];
    const s = Math.abs(dx * lx + dy * ly + dz * lz) - hA[i] - projRadius(mB, hB, lx, ly, lz);
    if (s > bestA) {
      bestA = s;
      axA = i;
    }
  }
  // Face axes of B.
  let bestB = -Infinity, axB = 0;
  for (let j = 0; j < 3; j++) {
    const lx = mB[3 * j], ly = mB[3 * j + 1], lz = mB[3 * j + 2];
    const s = Math.abs(dx * lx + dy * ly + dz * lz) - hB[j] - projRadius(mA, hA, lx, ly, lz);
    if (s > bestB) {
      bestB = s;
      axB = j;
    }
  }
  let kind: SatAxisKind = SatAxisKind.FaceA;
  let best = bestA;
  let axisA = axA;
  let axisB = -1;
  let lx = mA[3 * axA], ly = mA[3 * axA + 1], lz = mA[3 * axA + 2];
  // A face of B replaces A's only when clearly better: absolute tolerance only, so swapping A and
  // B changes the depth by at most SAT_FACE_PREFERENCE_ABSOLUTE (the relative bias below is for
  // face vs edge, where a wrong pick costs manifold quality, not symmetry).
  if (bestB > bestA + absTol) {
    kind = SatAxisKind.FaceB;
    best = bestB;
    axisA = axB;
    lx = mB[3 * axB];
    ly = mB[3 * axB + 1];
    lz = mB[3 * axB + 2];
  }
  const bestFace = best;
  // Edge axes A_i × B_j.
  for (let i = 0; i < 3; i++) {
    const ax = mA[3 * i], ay = mA[3 * i + 1], az = mA[3 * i + 2];
    for (let j = 0; j < 3; j++) {
      const bx = mB[3 * j], by = mB[3 * j + 1], bz = mB[3 * j + 2];
      let cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
      const c2 = cx * cx + cy * cy + cz * cz;
      if (c2 < SAT_EDGE_PARALLEL_EPSILON) continue; // parallel edges: not an axis
      const inv = 1 / Math.sqrt(c2);
      cx *= inv;
      cy *= inv;
      cz *= inv;
      const s = Math.abs(dx * cx + dy * cy + dz * cz) - projRadius(mA, hA, cx, cy, cz) - projRadius(mB, hB, cx, cy, cz);
      if (s > best && s > bestFace + relTol * Math.abs(bestFace) + absTol) {
        best = s;
        kind = SatAxisKind.EdgeEdge;
        axisA = i;
        axisB = j;
        lx = cx;
        ly = cy;
        lz = cz;
      }
    }
  }
  // Orient from A toward B. Concentric boxes (d = 0) keep the axis as is: any sign is valid.
  if (dx * lx + dy * ly + dz * lz < 0) {
    lx = -lx;
    ly = -ly;
    lz = -lz;
  }
  out.separation = best;
  out.normal[0] = lx;
  out.normal[1] = ly;
  out.normal[2] = lz;
  out.kind = kind;
  out.axisA = axisA;
  out.axisB = axisB;
  return out;
}

/**
 * Writes the face of a box (centre c, rotation matrix m, half extents h) with outward normal
 * sign·axis into `poly`, numbered as in the header. Returns the face index 2·axis + (sign<0).
 */
function boxFace(poly: FacePolygon, c: Readonly<Vec3>, m: Float64Array, h: Readonly<Vec3>, axis: number, sign: number): number {
  const u = axis === 2 ? 0 : axis + 1;
  const v = axis === 0 ? 2 : axis === 1 ? 0 : 1;
  const fx = c[0] + sign * h[axis] * m[3 * axis], fy = c[1] + sign * h[axis] * m[3 * axis + 1], fz = c[2] + sign * h[axis] * m[3 * axis + 2];
  const ux = h[u] * m[3 * u], uy = h[u] * m[3 * u + 1], uz = h[u] * m[3 * u + 2];
  const vx = h[v] * m[3 * v], vy = h[v] * m[3 * v + 1], vz = h[v] * m[3 * v + 2];
  poly.clear();
  for (let k = 0; k < 4; k++) {
    // CCW around +axis: (+,+), (−,+), (−,−), (+,−); on a − face run it backwards.
    const kk = sign > 0 ? k : 3 - k;
    const su = kk === 0 || kk === 3 ? 1 : -1;
    const sv = kk <= 1 ? 1 : -1;
    poly.push(fx + su * ux + sv * vx, fy + su * uy + sv * vy, fz + su * uz + sv * vz, k, 0xff, k);
  }
  return 2 * axis + (sign < 0 ? 1 : 0);
}

/**
 * Edge of a box parallel to `axis` that lies farthest along direction (nx, ny, nz): writes its
 * endpoints and returns its edge id (axis·4 + signs of the two other axes, 0..11).
 */
function supportEdge(
  p0: Vec3, p1: Vec3, c: Readonly<Vec3>, m: Float64Array, h: Readonly<Vec3>, axis: number,
  nx: number, ny: number, nz: number,
): number {
  let x = c[0], y = c[1], z = c[2];
  let id = axis * 4;
  let bit = 1;
  for (let k = 0; k < 3; k++) {
    if (k === axis) continue;
    const d = m[3 * k] * nx + m[3 * k + 1] * ny + m[3 * k + 2] * nz;
    const s = d >= 0 ? 1 : -1;
    if (s < 0) id |= bit;
    bit <<= 1;
    x += s * h[k] * m[3 * k];
    y += s * h[k] * m[3 * k + 1];
    z += s * h[k] * m[3 * k + 2];
  }
  const ex = h[axis] * m[3 * axis], ey = h[axis] * m[3 * axis + 1], ez = h[axis] * m[3 * axis + 2];
  p0[0] = x - ex;
  p0[1] = y - ey;
  p0[2] = z - ez;
  p1[0] = x + ex;
  p1[1] = y + ey;
  p1[2] = z + ez;
  return id;
}

/**
 * Box–box contact manifold: appends up to MANIFOLD_MAX_POINTS contacts to `out` (engine
 * convention: point on B's surface, normal from B into A, depth ≥ −margin) and returns how
 * many. `sepOut`, when given, receives the SAT result (normal from A to B). `preferFaces`
 * (default true, the engine's choice) biases the axis toward faces for stable manifolds; false
 * uses the exact minimum-penetration axis (queryConvex, oracles). `ws` is the caller's scratch.
 */
export function collideBoxBox(
  out: ContactBuffer,
  cA: Readonly<Vec3>, qA: Readonly<Quat>, hA: Readonly<Vec3>,
  cB: Readonly<Vec3>, qB: Readonly<Quat>, hB: Readonly<Vec3>,
  margin: number,
  ws: BoxBoxWorkspace,
  sepOut?: BoxBoxSat,
  preferFaces = true,
): number {
  const r = satBoxBox(sepOut ?? ws.sat, cA, qA, hA, cB, qB, hB, preferFaces, ws);
  if (r.separation > margin) return 0;
  // satBoxBox filled mA, mB.
  const mA = ws.mA, mB = ws.mB, refN = ws.refN, refPoly = ws.refPoly, incPoly = ws.incPoly;
  const nx = r.normal[0], ny = r.normal[1], nz = r.normal[2];
  if (r.kind !== SatAxisKind.EdgeEdge) {
    const refIsB = r.kind === SatAxisKind.FaceB;
    const mR = refIsB ? mB : mA, mI = refIsB ? mA : mB;
    const cR = refIsB ? cB : cA, cI = refIsB ? cA : cB;
    const hR = refIsB ? hB : hA, hI = refIsB ? hA : hB;
    // Reference normal points from the reference box toward the incident one.
    const rs = refIsB ? -1 : 1;
    refN[0] = rs * nx;
    refN[1] = rs * ny;
    refN[2] = rs * nz;
    const ax = r.axisA;
    const sR = mR[3 * ax] * refN[0] + mR[3 * ax + 1] * refN[1] + mR[3 * ax + 2] * refN[2] >= 0 ? 1 : -1;
    // Face axis is exactly ±refN for the reference box.
    const refFace = boxFace(refPoly, cR, mR, hR, ax, sR);
    refN[0] = sR * mR[3 * ax];
    refN[1] = sR * mR[3 * ax + 1];
    refN[2] = sR * mR[3 * ax + 2];
    // Incident face: the other box's face most anti-parallel to refN.
    let incAxis = 0, incDot = 0;
    for (let k = 0; k < 3; k++) {
      const d = mI[3 * k] * refN[0] + mI[3 * k + 1] * refN[1] + mI[3 * k + 2] * refN[2];
      if (Math.abs(d) > Math.abs(incDot)) {
        incDot = d;
        incAxis = k;
      }
    }
    const incFace = boxFace(incPoly, cI, mI, hI, incAxis, incDot > 0 ? -1 : 1);
    const n = manifoldBetweenFaces(out, refPoly, refN, incPoly, refIsB, refFace, incFace, margin, PairContactKind.BoxBoxFace, ws.clip);
    if (n > 0) return n;
    // Clipping left nothing (faces touch only at round-off level): B's deepest vertex along −n.
    let x = cB[0], y = cB[1], z = cB[2];
    let vid = 0;
    for (let k = 0; k < 3; k++) {
      const s = mB[3 * k] * nx + mB[3 * k + 1] * ny + mB[3 * k + 2] * nz > 0 ? -1 : 1;
      if (s < 0) vid |= 1 << k;
      x += s * hB[k] * mB[3 * k];
      y += s * hB[k] * mB[3 * k + 1];
      z += s * hB[k] * mB[3 * k + 2];
    }
    out.push(x, y, z, -nx, -ny, -nz, -r.separation, PairContactKind.BoxBoxFace, -1, -1,
      packFeature(refIsB, refFace, incFace, TAG_EDGE_PAIR, vid));
    return 1;
  }
  // Edge–edge: closest points of the supporting edges (A's along +n, B's along −n).
  const closest = ws.closest;
  const idA = supportEdge(ws.eA0, ws.eA1, cA, mA, hA, r.axisA, nx, ny, nz);
  const idB = supportEdge(ws.eB0, ws.eB1, cB, mB, hB, r.axisB, -nx, -ny, -nz);
  closestPointsSegmentSegment(closest, ws.eA0, ws.eA1, ws.eB0, ws.eB1);
  const depth = -r.separation;
  const p = closest.pointB;
  out.push(p[0], p[1], p[2], -nx, -ny, -nz, depth, PairContactKind.BoxBoxEdge, -1, -1,
    packFeature(false, idA, idB, TAG_EDGE_PAIR, TAG_EDGE_PAIR));
  return 1;
}
