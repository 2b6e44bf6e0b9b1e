/**
 * EPA (Expanding Polytope Algorithm): penetration depth, normal and witness points of two
 * overlapping convex shapes.
 *
 * References: van den Bergen, "Proximity Queries and Penetration Depth Computation on 3D Game
 * Objects" (GDC 2001) and Collision Detection in Interactive 3D Environments §4.3.8; Ericson
 * §9.5 notes. The polytope is grown inside A − B from a simplex that contains the origin; the
 * face nearest the origin gives a lower bound on the depth, the support point along its normal
 * an upper bound; they meet at the penetration depth.
 *
 * API
 *   epaPenetration(out: EpaResult, shapeA, poseA, shapeB, poseB): EpaResult
 *     out.status   EpaStatus (every exit sets it)
 *     out.depth    [m] ≥ 0: translating B by depth·normal makes the shapes touch
 *     out.normal   world unit normal from A to B
 *     out.pointA   world point of A deepest inside B; out.pointB on B's surface; pointA − pointB = depth·normal
 *     out.method   how the answer was found: Core (shallow, GJK on the cores), Epa, Fallback
 *     out.distance signed distance (> 0 when the shapes do not overlap; then depth = 0)
 *
 * Pipeline: GJK on the cores first (gjk.ts). Separated or touching → done. Overlap shallower
 * than rA + rB → exact answer from the cores (Method.Core). Otherwise GJK on the full shapes
 * yields a simplex around the origin; a 1-, 2- or 3-point simplex (the origin on a vertex, edge
 * or face: symmetric poses, "touching but not overlapping") is blown up to a polytope
 * (segment → triangle → double pyramid), then EPA expands it.
 *
 * Failure (polytope capacity EPA_MAX_VERTICES/EPA_MAX_FACES, EPA_MAX_ITERATIONS, a degenerate
 * new face): status Fallback with the best UPPER bound seen — the support-function minimum
 * h(n) = max over A−B of n·x over every direction tried. Translating B by h(n)·n always
 * separates the shapes, so the fallback is conservative (never reports a too-small depth).
 *
 * Fixed capacity, allocation-free: the polytope lives in module-level typed arrays.
 */
import type { Vec3 } from '../math/vec3';
import type { ConvexShape, Pose } from '../shapes/shape';
import { GjkResult, GjkStatus, GjkLoopExit, MinkowskiPair, gjkDistance, gjkLoop, gjkLoopIterations } from './gjk';
import { Simplex } from './simplex';
import {
  EPA_ABSOLUTE_TOLERANCE,
  EPA_MAX_FACES,
  EPA_MAX_ITERATIONS,
  EPA_MAX_VERTICES,
  EPA_RELATIVE_TOLERANCE,
  GJK_ABSOLUTE_TOLERANCE,
  GJK_DEGENERATE_RELATIVE,
} from '../constants';

export const EpaStatus = {
  /** Overlap; depth, normal and witnesses are converged within tolerance. */
  Penetrating: 0,
  /** No overlap: depth 0, `distance` > 0 is the separation (from GJK). */
  Separated: 1,
  /** Surfaces touch within GJK_ABSOLUTE_TOLERANCE: depth 0, normal valid when GJK found one. */
  Touching: 2,
  /** EPA did not converge (cap or degenerate polytope): conservative upper-bound depth and normal. */
  Fallback: 3,
  /** Non-finite input: zeros, no NaN. */
  Degenerate: 4,
} as const;
export type EpaStatus = (typeof EpaStatus)[keyof typeof EpaStatus];
export const EPA_STATUS_NAMES: readonly string[] = ['penetrating', 'separated', 'touching', 'fallback', 'degenerate'];

export const EpaMethod = { Core: 0, Epa: 1, Fallback: 2, None: 3 } as const;
export type EpaMethod = (typeof EpaMethod)[keyof typeof EpaMethod];

export class EpaResult {
  status: EpaStatus = EpaStatus.Degenerate;
  method: EpaMethod = EpaMethod.None;
  /** [m] ≥ 0 */
  depth = 0;
  /** [m] signed distance: > 0 apart, −depth when overlapping. */
  distance = 0;
  readonly normal: Vec3 = [0, 0, 1];
  readonly pointA: Vec3 = [0, 0, 0];
  readonly pointB: Vec3 = [0, 0, 0];
  /** Support evaluations of the EPA stage (0 when GJK answered). */
  iterations = 0;
  /** Status of the initial GJK query. */
  gjkStatus: GjkStatus = GjkStatus.Degenerate;
}

// --- polytope storage ------------------------------------------------------------------------

const vW = new Float64Array(EPA_MAX_VERTICES * 3);
const vA = new Float64Array(EPA_MAX_VERTICES * 3);
const vB = new Float64Array(EPA_MAX_VERTICES * 3);
let nVerts = 0;

/**
 * Faces: vertex indices (CCW seen from outside the polytope), unit outward normal, distance of
 * the plane from the origin, alive flag.
 */
const fIdx = new Int32Array(EPA_MAX_FACES * 3);
const fN = new Float64Array(EPA_MAX_FACES * 3);
const fD = new Float64Array(EPA_MAX_FACES);
const fAlive = new Uint8Array(EPA_MAX_FACES);
let nFaces = 0;

/** Horizon edge list: a disc of k removed triangles has at most k + 2 boundary edges, but the list holds up to 3k edges while it is being built. */
const EDGE_CAPACITY = EPA_MAX_FACES * 3;
const eFrom = new Int32Array(EDGE_CAPACITY);
const eTo = new Int32Array(EDGE_CAPACITY);
let nEdges = 0;

const pair = new MinkowskiPair();
const simplex = new Simplex();
const gjk = new GjkResult();
const v: Vec3 = [0, 0, 0];
const w: Vec3 = [0, 0, 0];
const sa: Vec3 = [0, 0, 0];
const sb: Vec3 = [0, 0, 0];
const dir: Vec3 = [0, 0, 0];
const pa: Vec3 = [0, 0, 0];
const pb: Vec3 = [0, 0, 0];
const nL: Vec3 = [0, 0, 0];
const bestUpperN: Vec3 = [0, 0, 1];
const bestUpperA: Vec3 = [0, 0, 0];
const bestUpperB: Vec3 = [0, 0, 0];
let bestUpper = Infinity;
/** Interior point of the initial polytope, used to orient faces outward. */
const centre: Vec3 = [0, 0, 0];

function addVertex(wp: Readonly<Vec3>, ap: Readonly<Vec3>, bp: Readonly<Vec3>): number {
  if (nVerts >= EPA_MAX_VERTICES) return -1;
  const i = nVerts++;
  for (let k = 0; k < 3; k++) {
    vW[3 * i + k] = wp[k];
    vA[3 * i + k] = ap[k];
    vB[3 * i + k] = bp[k];
  }
  return i;
}

/** Evaluates the support along unit direction `d`, records it as an upper bound candidate. */
function supportAlong(d: Readonly<Vec3>): number {
  pair.support(w, sa, sb, d);
  const h = d[0] * w[0] + d[1] * w[1] + d[2] * w[2];
  if (h < bestUpper) {
    bestUpper = h;
    for (let k = 0; k < 3; k++) {
      bestUpperN[k] = d[k];
      bestUpperA[k] = sa[k];
      bestUpperB[k] = sb[k];
    }
  }
  return h;
}

/**
 * Adds face (i, j, k); flips the winding so the normal points away from `centre` when
 * `orientByCentre` (initial polytope), otherwise trusts the winding (horizon fan). Returns false
 * when out of capacity or the face has no area.
 */
function addFace(i: number, j: number, k: number, orientByCentre: boolean): boolean {
  if (nFaces >= EPA_MAX_FACES) return false;
  const ax = vW[3 * i], ay = vW[3 * i + 1], az = vW[3 * i + 2];
  const e1x = vW[3 * j] - ax, e1y = vW[3 * j + 1] - ay, e1z = vW[3 * j + 2] - az;
  const e2x = vW[3 * k] - ax, e2y = vW[3 * k + 1] - ay, e2z = vW[3 * k + 2] - az;
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const nn = nx * nx + ny * ny + nz * nz;
  const scale = Math.max(e1x * e1x + e1y * e1y + e1z * e1z, e2x * e2x + e2y * e2y + e2z * e2z);
  if (!(nn > GJK_DEGENERATE_RELATIVE * scale * scale)) return false;
  const inv = 1 / Math.sqrt(nn);
  nx *= inv;
  ny *= inv;
  nz *= inv;
  const f = nFaces++;
  if (orientByCentre && nx * (ax - centre[0]) + ny * (ay - centre[1]) + nz * (az - centre[2]) < 0) {
    nx = -nx;
    ny = -ny;
    nz = -nz;
    fIdx[3 * f] = i;
    fIdx[3 * f + 1] = k;
    fIdx[3 * f + 2] = j;
  } else {
    fIdx[3 * f] = i;
    fIdx[3 * f + 1] = j;
    fIdx[3 * f + 2] = k;
  }
  fN[3 * f] = nx;
  fN[3 * f + 1] = ny;
  fN[3 * f + 2] = nz;
  fD[f] = nx * ax + ny * ay + nz * az;
  fAlive[f] = 1;
  return true;
}

/** Adds edge (a→b) to the horizon list, or cancels it against an existing (b→a). */
function toggleEdge(a: number, b: number): boolean {
  for (let e = 0; e < nEdges; e++) {
    if (eFrom[e] === b && eTo[e] === a) {
      nEdges--;
      eFrom[e] = eFrom[nEdges];
      eTo[e] = eTo[nEdges];
      return true;
    }
  }
  if (nEdges >= EDGE_CAPACITY) return false;
  eFrom[nEdges] = a;
  eTo[nEdges] = b;
  nEdges++;
  return true;
}

/** Drops dead faces to make room (indices of live faces change; nothing else refers to them). */
function compactFaces(): void {
  let n = 0;
  for (let f = 0; f < nFaces; f++) {
    if (!fAlive[f]) continue;
    if (n !== f) {
      for (let k = 0; k < 3; k++) {
        fIdx[3 * n + k] = fIdx[3 * f + k];
        fN[3 * n + k] = fN[3 * f + k];
      }
      fD[n] = fD[f];
      fAlive[n] = 1;
    }
    n++;
  }
  nFaces = n;
}

/** Unit vectors used to blow up a low-dimensional simplex (axes first, then diagonals). */
const BLOWUP_DIRS: readonly (readonly [number, number, number])[] = [
  [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
  [0.5773502691896258, 0.5773502691896258, 0.5773502691896258],
  [-0.5773502691896258, -0.5773502691896258, -0.5773502691896258],
];

function distSqToVertex(i: number, p: Readonly<Vec3>): number {
  const x = vW[3 * i] - p[0], y = vW[3 * i + 1] - p[1], z = vW[3 * i + 2] - p[2];
  return x * x + y * y + z * z;
}

/**
 * Builds the initial polytope from the GJK simplex. Returns false when A − B is too thin to
 * contain a tetrahedron (then the caller uses the fallback).
 */
function buildInitialPolytope(scaleSq: number): boolean {
  nVerts = 0;
  nFaces = 0;
  for (let i = 0; i < simplex.count; i++) {
    for (let k = 0; k < 3; k++) {
      w[k] = simplex.w[3 * i + k];
      sa[k] = simplex.a[3 * i + k];
      sb[k] = simplex.b[3 * i + k];
    }
    addVertex(w, sa, sb);
  }
  const minSep = GJK_DEGENERATE_RELATIVE * scaleSq;
  // 1 point → segment: any support point distinct from it.
  if (nVerts === 1) {
    for (const d of BLOWUP_DIRS) {
      dir[0] = d[0];
      dir[1] = d[1];
      dir[2] = d[2];
      supportAlong(dir);
      if (distSqToVertex(0, w) > minSep) {
        addVertex(w, sa, sb);
        break;
      }
    }
    if (nVerts < 2) return false;
  }
  // 2 points → triangle: support along directions perpendicular to the segment, six 60° steps.
  if (nVerts === 2) {
    const ex = vW[3] - vW[0], ey = vW[4] - vW[1], ez = vW[5] - vW[2];
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    const ux = ex / el, uy = ey / el, uz = ez / el;
    // p ⟂ u (from the smallest component), q = u × p
    let px: number, py: number, pz: number;
    if (Math.abs(ux) <= Math.abs(uy) && Math.abs(ux) <= Math.abs(uz)) {
      px = 0; py = uz; pz = -uy;
    } else if (Math.abs(uy) <= Math.abs(uz)) {
      px = -uz; py = 0; pz = ux;
    } else {
      px = uy; py = -ux; pz = 0;
    }
    const pl = Math.sqrt(px * px + py * py + pz * pz);
    px /= pl; py /= pl; pz /= pl;
    const qx = uy * pz - uz * py, qy = uz * px - ux * pz, qz = ux * py - uy * px;
    for (let s = 0; s < 6 && nVerts < 3; s++) {
      const c = Math.cos((s * Math.PI) / 3), sn = Math.sin((s * Math.PI) / 3);
      dir[0] = c * px + sn * qx;
      dir[1] = c * py + sn * qy;
      dir[2] = c * pz + sn * qz;
      supportAlong(dir);
      // Distance from the segment's line.
      const rx = w[0] - vW[0], ry = w[1] - vW[1], rz = w[2] - vW[2];
      const along = rx * ux + ry * uy + rz * uz;
      const offSq = rx * rx + ry * ry + rz * rz - along * along;
      if (offSq > minSep) addVertex(w, sa, sb);
    }
    if (nVerts < 3) return false;
  }
  // 3 points → double pyramid over the triangle (the origin lies in or near its plane).
  if (nVerts === 3) {
    const e1x = vW[3] - vW[0], e1y = vW[4] - vW[1], e1z = vW[5] - vW[2];
    const e2x = vW[6] - vW[0], e2y = vW[7] - vW[1], e2z = vW[8] - vW[2];
    let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(nl > 0)) return false;
    nx /= nl; ny /= nl; nz /= nl;
    const d0 = nx * vW[0] + ny * vW[1] + nz * vW[2];
    for (let s = 0; s < 2; s++) {
      dir[0] = s === 0 ? nx : -nx;
      dir[1] = s === 0 ? ny : -ny;
      dir[2] = s === 0 ? nz : -nz;
      supportAlong(dir);
      const off = nx * w[0] + ny * w[1] + nz * w[2] - d0;
      if (off * off > minSep) addVertex(w, sa, sb);
    }
    if (nVerts < 4) return false;
    if ((nVerts as number) === 5) {
      // Double pyramid: apexes 3 (+n side) and 4 (−n side) over triangle 0-1-2.
      centre[0] = (vW[0] + vW[3] + vW[6]) / 3;
      centre[1] = (vW[1] + vW[4] + vW[7]) / 3;
      centre[2] = (vW[2] + vW[5] + vW[8]) / 3;
      return (
        addFace(0, 1, 3, true) && addFace(1, 2, 3, true) && addFace(2, 0, 3, true) &&
        addFace(0, 1, 4, true) && addFace(1, 2, 4, true) && addFace(2, 0, 4, true)
      );
    }
    // Only one side has volume: the origin is on the remaining triangle face (depth ≈ 0 there);
    // a tetrahedron still works, EPA will find that face.
  }
  // Tetrahedron.
  for (let k = 0; k < 3; k++) centre[k] = (vW[k] + vW[3 + k] + vW[6 + k] + vW[9 + k]) / 4;
  return addFace(0, 1, 2, true) && addFace(0, 3, 1, true) && addFace(0, 2, 3, true) && addFace(1, 3, 2, true);
}

function setDegenerate(out: EpaResult): EpaResult {
  out.status = EpaStatus.Degenerate;
  out.method = EpaMethod.None;
  out.depth = 0;
  out.distance = 0;
  out.iterations = 0;
  for (let k = 0; k < 3; k++) {
    out.normal[k] = 0;
    out.pointA[k] = 0;
    out.pointB[k] = 0;
  }
  out.normal[2] = 1;
  return out;
}

/** Writes a local (A-frame) answer to world coordinates. */
function finish(out: EpaResult, status: EpaStatus, method: EpaMethod, depth: number, n: Readonly<Vec3>, a: Readonly<Vec3>, b: Readonly<Vec3>): EpaResult {
  if (!(depth >= 0) || !Number.isFinite(depth) || !Number.isFinite(n[0] + n[1] + n[2] + a[0] + a[1] + a[2] + b[0] + b[1] + b[2])) {
    return setDegenerate(out);
  }
  out.status = status;
  out.method = method;
  out.depth = depth;
  out.distance = -depth;
  pair.toWorldVector(out.normal, n);
  pair.toWorldPoint(out.pointA, a);
  pair.toWorldPoint(out.pointB, b);
  return out;
}

function useFallback(out: EpaResult): EpaResult {
  if (!Number.isFinite(bestUpper)) return setDegenerate(out);
  return finish(out, EpaStatus.Fallback, EpaMethod.Fallback, Math.max(0, bestUpper), bestUpperN, bestUpperA, bestUpperB);
}

/** Penetration query (see the file header). */
export function epaPenetration(
  out: EpaResult,
  shapeA: ConvexShape,
  poseA: Readonly<Pose>,
  shapeB: ConvexShape,
  poseB: Readonly<Pose>,
): EpaResult {
  out.iterations = 0;
  gjkDistance(gjk, shapeA, poseA, shapeB, poseB);
  out.gjkStatus = gjk.status;
  if (gjk.status === GjkStatus.Degenerate) return setDegenerate(out);
  if (gjk.status === GjkStatus.Separated || gjk.status === GjkStatus.MaxIterations || gjk.status === GjkStatus.Touching) {
    out.status = gjk.status === GjkStatus.Touching ? EpaStatus.Touching : EpaStatus.Separated;
    out.method = EpaMethod.Core;
    out.depth = 0;
    out.distance = Math.max(0, gjk.distance);
    for (let k = 0; k < 3; k++) {
      out.normal[k] = gjk.normal[k];
      out.pointA[k] = gjk.pointA[k];
      out.pointB[k] = gjk.pointB[k];
    }
    if (gjk.status === GjkStatus.Touching && !gjk.normalValid) {
      // Polytopes touching exactly: the normal is not defined by GJK; EPA below decides it.
    } else {
      return out;
    }
  }
  if (gjk.status === GjkStatus.Intersecting && gjk.normalValid) {
    // Shallow overlap of the radii: exact from the cores.
    out.status = EpaStatus.Penetrating;
    out.method = EpaMethod.Core;
    out.depth = -gjk.distance;
    out.distance = gjk.distance;
    for (let k = 0; k < 3; k++) {
      out.normal[k] = gjk.normal[k];
      out.pointA[k] = gjk.pointA[k];
      out.pointB[k] = gjk.pointB[k];
    }
    return out;
  }
  // Deep overlap: GJK on the full shapes for a simplex around the origin.
  pair.set(shapeA, poseA, shapeB, poseB, false);
  bestUpper = Infinity;
  dir[0] = -pair.t[0];
  dir[1] = -pair.t[1];
  dir[2] = -pair.t[2];
  const exit = gjkLoop(simplex, v, pair, dir);
  out.iterations = gjkLoopIterations;
  if (exit === GjkLoopExit.Separated || exit === GjkLoopExit.MaxIterations) {
    // Full shapes measurably apart although the cores touched: only rounding can do this.
    const vl = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (vl > GJK_ABSOLUTE_TOLERANCE) {
      simplex.witness(pa, pb);
      nL[0] = -v[0] / vl;
      nL[1] = -v[1] / vl;
      nL[2] = -v[2] / vl;
      finish(out, EpaStatus.Separated, EpaMethod.Core, 0, nL, pa, pb);
      out.distance = vl;
      return out;
    }
  }
  // Scale of A − B for the degeneracy tests.
  let scaleSq = 0;
  for (let i = 0; i < simplex.count; i++) {
    const x = simplex.w[3 * i], y = simplex.w[3 * i + 1], z = simplex.w[3 * i + 2];
    scaleSq = Math.max(scaleSq, x * x + y * y + z * z);
  }
  if (!(scaleSq > 0)) {
    // A single support point at the origin: measure the size from the shapes' support along x.
    dir[0] = 1;
    dir[1] = 0;
    dir[2] = 0;
    pair.support(w, sa, sb, dir);
    scaleSq = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    if (!(scaleSq > 0)) scaleSq = 1;
  }
  if (!buildInitialPolytope(scaleSq)) return useFallback(out);
  return expand(out);
}

function expand(out: EpaResult): EpaResult {
  for (let iter = 0; iter < EPA_MAX_ITERATIONS; iter++) {
    out.iterations++;
    // Live face nearest the origin.
    let best = -1;
    let bestD = Infinity;
    for (let f = 0; f < nFaces; f++) {
      if (fAlive[f] && fD[f] < bestD) {
        bestD = fD[f];
        best = f;
      }
    }
    if (best < 0) return useFallback(out);
    nL[0] = fN[3 * best];
    nL[1] = fN[3 * best + 1];
    nL[2] = fN[3 * best + 2];
    const h = supportAlong(nL);
    const lower = Math.max(0, bestD);
    if (h - lower <= Math.max(EPA_ABSOLUTE_TOLERANCE, EPA_RELATIVE_TOLERANCE * lower)) {
      faceWitness(best, lower);
      // Faces that touch exactly (depth within GJK's tolerance) are contact, not overlap.
      const status = lower <= GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Touching : EpaStatus.Penetrating;
      return finish(out, status, EpaMethod.Epa, lower, nL, pa, pb);
    }
    const nv = addVertex(w, sa, sb);
    if (nv < 0) return useFallback(out);
    // Remove every face that sees the new point; collect the horizon.
    nEdges = 0;
    for (let f = 0; f < nFaces; f++) {
      if (!fAlive[f]) continue;
      if (fN[3 * f] * w[0] + fN[3 * f + 1] * w[1] + fN[3 * f + 2] * w[2] - fD[f] > 0) {
        fAlive[f] = 0;
        const a = fIdx[3 * f], b = fIdx[3 * f + 1], c = fIdx[3 * f + 2];
        if (!toggleEdge(a, b) || !toggleEdge(b, c) || !toggleEdge(c, a)) return useFallback(out);
      }
    }
    if (nFaces + nEdges > EPA_MAX_FACES) compactFaces();
    if (nFaces + nEdges > EPA_MAX_FACES) return useFallback(out);
    for (let e = 0; e < nEdges; e++) {
      // Horizon edges keep the removed faces' winding, so (from, to, new) faces outward.
      if (!addFace(eFrom[e], eTo[e], nv, false)) return useFallback(out);
    }
  }
  return useFallback(out);
}

/** Witnesses from the barycentric coordinates of the origin's projection n·d onto face f. */
function faceWitness(f: number, d: number): void {
  const i = fIdx[3 * f], j = fIdx[3 * f + 1], k = fIdx[3 * f + 2];
  const px = fN[3 * f] * d, py = fN[3 * f + 1] * d, pz = fN[3 * f + 2] * d;
  const ax = vW[3 * i], ay = vW[3 * i + 1], az = vW[3 * i + 2];
  const v0x = vW[3 * j] - ax, v0y = vW[3 * j + 1] - ay, v0z = vW[3 * j + 2] - az;
  const v1x = vW[3 * k] - ax, v1y = vW[3 * k + 1] - ay, v1z = vW[3 * k + 2] - az;
  const v2x = px - ax, v2y = py - ay, v2z = pz - az;
  // Ericson §3.4 (Barycentric via Cramer's rule on the 2×2 normal equations)
  const d00 = v0x * v0x + v0y * v0y + v0z * v0z;
  const d01 = v0x * v1x + v0y * v1y + v0z * v1z;
  const d11 = v1x * v1x + v1y * v1y + v1z * v1z;
  const d20 = v2x * v0x + v2y * v0y + v2z * v0z;
  const d21 = v2x * v1x + v2y * v1y + v2z * v1z;
  const den = d00 * d11 - d01 * d01;
  let l1 = 0, l2 = 0;
  if (den > 0) {
    l1 = (d11 * d20 - d01 * d21) / den;
    l2 = (d00 * d21 - d01 * d20) / den;
  }
  const l0 = 1 - l1 - l2;
  for (let q = 0; q < 3; q++) {
    pa[q] = l0 * vA[3 * i + q] + l1 * vA[3 * j + q] + l2 * vA[3 * k + q];
    pb[q] = l0 * vB[3 * i + q] + l1 * vB[3 * j + q] + l2 * vB[3 * k + q];
  }
}
