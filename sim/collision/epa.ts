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
 * Pipeline. Shapes with radii (sphere, capsule): GJK on the cores first (gjk.ts); separated,
 * touching or an overlap shallower than rA + rB is answered exactly there (Method.Core). When the
 * cores themselves overlap, EPA runs on the CORES and adds rA + rB (exact: A − B is the cores'
 * difference inflated by a ball of radius rA + rB), which keeps curved surfaces out of EPA; a
 * flat core difference through the origin (concentric spheres, crossing capsule axes) has core
 * depth 0 along its flat direction. Shapes without radii: one GJK run on the full shapes.
 * A 1-, 2- or 3-point GJK simplex (the origin on a vertex, edge or face: symmetric poses,
 * "touching but not overlapping") is blown up to a polytope (segment → triangle → double
 * pyramid), then EPA expands it. Each expansion removes the faces that see the new support
 * point by a silhouette walk over face adjacency from the nearest face, so the removed region is
 * connected and its horizon one ordered loop even when rounding makes visibility inconsistent.
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
import { GjkResult, GjkStatus, GjkLoopExit, MinkowskiPair, gjkDistance, gjkLoop } from './gjk';
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
import { clearWitness } from './witness';

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

/** Why EPA gave up (status Fallback); None otherwise. */
export const EpaFailure = {
  None: 0,
  /** A − B too thin to hold a tetrahedron around the origin. */
  InitialPolytope: 1,
  /** EPA_MAX_ITERATIONS reached. */
  MaxIterations: 2,
  /** EPA_MAX_VERTICES or EPA_MAX_FACES (or the horizon list) full. */
  Capacity: 3,
  /** A horizon fan face had no area (the new point is on the horizon edge's line). */
  DegenerateFace: 4,
  /** No live face left (the polytope collapsed). */
  NoFace: 5,
} as const;
export type EpaFailure = (typeof EpaFailure)[keyof typeof EpaFailure];
export const EPA_FAILURE_NAMES: readonly string[] = ['none', 'initial-polytope', 'max-iterations', 'capacity', 'degenerate-face', 'no-face'];
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
  /** Reason for a Fallback. */
  failure: EpaFailure = EpaFailure.None;
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
 * the plane from the origin, alive flag, and adjacency: fAdj[3f + i] is the face across edge i
 * (from vertex i to vertex i+1) and fAdjEdge[3f + i] that edge's index in the neighbour.
 *
 *            v2
 *           /  \        edge 0: v0 → v1, edge 1: v1 → v2, edge 2: v2 → v0
 *      e2  /    \  e1   neighbour across edge i sees it as v(i+1) → v(i)
 *         /  f   \
 *       v0 ------ v1
 *            e0
 *
 * Dead faces go to a free list and are reused, so slot indices stay valid for adjacency.
 */
const fIdx = new Int32Array(EPA_MAX_FACES * 3);
const fAdj = new Int32Array(EPA_MAX_FACES * 3);
const fAdjEdge = new Int8Array(EPA_MAX_FACES * 3);
const fN = new Float64Array(EPA_MAX_FACES * 3);
const fD = new Float64Array(EPA_MAX_FACES);
const fAlive = new Uint8Array(EPA_MAX_FACES);
let nFaces = 0;
const freeFaces = new Int32Array(EPA_MAX_FACES);
let nFree = 0;

/** Horizon (silhouette) edges of one expansion step, in order: face beyond the edge, its edge index, and the edge's vertices as the removed side winds them. */
const hFace = new Int32Array(EPA_MAX_FACES);
const hEdge = new Int8Array(EPA_MAX_FACES);
const hFrom = new Int32Array(EPA_MAX_FACES);
const hTo = new Int32Array(EPA_MAX_FACES);
let nHorizon = 0;
/** Faces removed this step (freed only after the new fan is linked). */
const removed = new Int32Array(EPA_MAX_FACES);
let nRemoved = 0;
let horizonOverflow = false;
/** New faces of one expansion step, in horizon order. */
const fan = new Int32Array(EPA_MAX_FACES);

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
/** [m] Size of A − B (largest GJK simplex vertex norm): the EPA tolerance is relative to it. */
let epaScale = 0;
/** Radii added to a core answer (0 when EPA runs on the full shapes). */
let inflateA = 0;
let inflateB = 0;
const inflatedA: Vec3 = [0, 0, 0];
const inflatedB: Vec3 = [0, 0, 0];
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
 * `orientByCentre` (initial polytope), otherwise trusts the winding (horizon fan). Returns the
 * face slot, or −1 when out of capacity (faceFull set) or the face has no area.
 */
let faceFull = false;
function addFace(i: number, j: number, k: number, orientByCentre: boolean): number {
  const ax = vW[3 * i], ay = vW[3 * i + 1], az = vW[3 * i + 2];
  const e1x = vW[3 * j] - ax, e1y = vW[3 * j + 1] - ay, e1z = vW[3 * j + 2] - az;
  const e2x = vW[3 * k] - ax, e2y = vW[3 * k + 1] - ay, e2z = vW[3 * k + 2] - az;
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const nn = nx * nx + ny * ny + nz * nz;
  const scale = Math.max(e1x * e1x + e1y * e1y + e1z * e1z, e2x * e2x + e2y * e2y + e2z * e2z);
  if (!(nn > GJK_DEGENERATE_RELATIVE * scale * scale)) return -1;
  let f: number;
  if (nFree > 0) f = freeFaces[--nFree];
  else if (nFaces < EPA_MAX_FACES) f = nFaces++;
  else {
    faceFull = true;
    return -1;
  }
  const inv = 1 / Math.sqrt(nn);
  nx *= inv;
  ny *= inv;
  nz *= inv;
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
  fAdj[3 * f] = fAdj[3 * f + 1] = fAdj[3 * f + 2] = -1;
  return f;
}

/** Links the initial polytope's faces (slots 0..nFaces−1) by matching opposite edges. */
function linkInitialFaces(): boolean {
  for (let f = 0; f < nFaces; f++) {
    for (let e = 0; e < 3; e++) {
      const a = fIdx[3 * f + e], b = fIdx[3 * f + ((e + 1) % 3)];
      let found = false;
      for (let g = 0; g < nFaces && !found; g++) {
        if (g === f) continue;
        for (let q = 0; q < 3; q++) {
          if (fIdx[3 * g + q] === b && fIdx[3 * g + ((q + 1) % 3)] === a) {
            fAdj[3 * f + e] = g;
            fAdjEdge[3 * f + e] = q;
            found = true;
            break;
          }
        }
      }
      if (!found) return false;
    }
  }
  return true;
}

/**
 * Silhouette walk (van den Bergen 2001 §4; the recursion keeps the horizon edges in CCW order):
 * face f was entered across its edge e from a removed face. If f cannot see w it is beyond the
 * horizon and (f, e) is a horizon edge; otherwise f is removed and the walk continues across its
 * other two edges. Only faces connected to the first removed face are removed, so the removed
 * region is always a connected patch, even when rounding makes "visible" inconsistent.
 */
function silhouette(f: number, e: number, wx: number, wy: number, wz: number): void {
  if (!fAlive[f]) return;
  if (fN[3 * f] * wx + fN[3 * f + 1] * wy + fN[3 * f + 2] * wz - fD[f] <= 0) {
    if (nHorizon >= EPA_MAX_FACES) {
      horizonOverflow = true;
      return;
    }
    hFace[nHorizon] = f;
    hEdge[nHorizon] = e;
    // The removed neighbour winds this edge opposite to f: from v(e+1) to v(e).
    hFrom[nHorizon] = fIdx[3 * f + ((e + 1) % 3)];
    hTo[nHorizon] = fIdx[3 * f + e];
    nHorizon++;
    return;
  }
  fAlive[f] = 0;
  removed[nRemoved++] = f;
  const e1 = (e + 1) % 3, e2 = (e + 2) % 3;
  silhouette(fAdj[3 * f + e1], fAdjEdge[3 * f + e1], wx, wy, wz);
  silhouette(fAdj[3 * f + e2], fAdjEdge[3 * f + e2], wx, wy, wz);
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
  nFree = 0;
  faceFull = false;
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
        addFace(0, 1, 3, true) >= 0 && addFace(1, 2, 3, true) >= 0 && addFace(2, 0, 3, true) >= 0 &&
        addFace(0, 1, 4, true) >= 0 && addFace(1, 2, 4, true) >= 0 && addFace(2, 0, 4, true) >= 0 &&
        linkInitialFaces()
      );
    }
    // Only one side has volume: the origin is on the remaining triangle face (depth ≈ 0 there);
    // a tetrahedron still works, EPA will find that face.
  }
  // Tetrahedron.
  for (let k = 0; k < 3; k++) centre[k] = (vW[k] + vW[3 + k] + vW[6 + k] + vW[9 + k]) / 4;
  return (
    addFace(0, 1, 2, true) >= 0 && addFace(0, 3, 1, true) >= 0 && addFace(0, 2, 3, true) >= 0 && addFace(1, 3, 2, true) >= 0 &&
    linkInitialFaces()
  );
}

function setDegenerate(out: EpaResult): EpaResult {
  out.status = EpaStatus.Degenerate;
  out.method = EpaMethod.None;
  out.depth = 0;
  out.distance = 0;
  out.iterations = 0;
  clearWitness(out);
  return out;
}

/** Writes a local (A-frame) answer to world coordinates. */
function finish(out: EpaResult, status: EpaStatus, method: EpaMethod, depth: number, n: Readonly<Vec3>, a: Readonly<Vec3>, b: Readonly<Vec3>): EpaResult {
  if (!(depth >= 0) || !Number.isFinite(depth) || !Number.isFinite(n[0] + n[1] + n[2] + a[0] + a[1] + a[2] + b[0] + b[1] + b[2])) {
    return setDegenerate(out);
  }
  // Core answers grow by the radii along the normal (no-op for shapes without radius).
  const d = depth + inflateA + inflateB;
  for (let k = 0; k < 3; k++) {
    inflatedA[k] = a[k] + n[k] * inflateA;
    inflatedB[k] = b[k] - n[k] * inflateB;
  }
  out.status = status === EpaStatus.Touching && d > GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Penetrating : status;
  out.method = method;
  out.depth = d;
  out.distance = -d;
  pair.toWorldVector(out.normal, n);
  pair.toWorldPoint(out.pointA, inflatedA);
  pair.toWorldPoint(out.pointB, inflatedB);
  return out;
}

function useFallback(out: EpaResult, why: EpaFailure): EpaResult {
  out.failure = why;
  if (!Number.isFinite(bestUpper)) {
    // No direction tried yet: a few fixed ones still give a valid (if loose) separating translation.
    for (const d of BLOWUP_DIRS) {
      dir[0] = d[0];
      dir[1] = d[1];
      dir[2] = d[2];
      supportAlong(dir);
    }
  }
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
  out.failure = EpaFailure.None;
  inflateA = shapeA.coreRadius;
  inflateB = shapeB.coreRadius;
  bestUpper = Infinity;
  if (inflateA + inflateB > 0) {
    // Radii: GJK on the cores answers separation and shallow overlap exactly.
    gjkDistance(gjk, shapeA, poseA, shapeB, poseB);
    out.gjkStatus = gjk.status;
    if (gjk.status === GjkStatus.Degenerate) return setDegenerate(out);
    if (gjk.normalValid) {
      copyGjk(out, gjk);
      out.iterations = gjk.iterations;
      return out;
    }
    // Cores overlap: EPA on the cores, then add the radii (exact: the Minkowski difference of the
    // full shapes is that of the cores inflated by a ball of radius rA + rB).
    pair.set(shapeA, poseA, shapeB, poseB, true);
  } else {
    // No radii: the cores are the shapes, one GJK run serves both separation and EPA's start.
    pair.set(shapeA, poseA, shapeB, poseB, false);
    if (!pair.finite) {
      out.gjkStatus = GjkStatus.Degenerate;
      return setDegenerate(out);
    }
  }
  dir[0] = -pair.t[0];
  dir[1] = -pair.t[1];
  dir[2] = -pair.t[2];
  const exit = gjkLoop(simplex, v, pair, dir);
  out.iterations = pair.supports;
  if (exit === GjkLoopExit.Separated || exit === GjkLoopExit.MaxIterations) {
    const vl = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (vl > GJK_ABSOLUTE_TOLERANCE && Number.isFinite(vl)) {
      // Apart (or, with radii, cores apart by rounding only): report the GJK answer.
      simplex.witness(pa, pb);
      nL[0] = -v[0] / vl;
      nL[1] = -v[1] / vl;
      nL[2] = -v[2] / vl;
      const dist = vl - inflateA - inflateB;
      out.gjkStatus = exit === GjkLoopExit.MaxIterations ? GjkStatus.MaxIterations : GjkStatus.Separated;
      finish(out, EpaStatus.Separated, EpaMethod.Core, 0, nL, pa, pb);
      out.distance = dist;
      if (dist <= GJK_ABSOLUTE_TOLERANCE) {
        out.status = dist >= -GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Touching : EpaStatus.Penetrating;
        out.depth = Math.max(0, -dist);
      }
      return out;
    }
  }
  if (inflateA + inflateB === 0) out.gjkStatus = GjkStatus.Intersecting;
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
  epaScale = Math.sqrt(scaleSq);
  if (!buildInitialPolytope(scaleSq)) {
    if (inflateA + inflateB > 0 && Number.isFinite(bestUpper) && bestUpper <= GJK_ABSOLUTE_TOLERANCE) {
      // Flat core difference through the origin (concentric spheres, crossing capsule axes,
      // a sphere centre on a capsule axis): the core depth is 0 along the direction the blow-up
      // found flat, so the full depth is exactly rA + rB along it.
      return finish(out, EpaStatus.Penetrating, EpaMethod.Core, 0, bestUpperN, bestUpperA, bestUpperB);
    }
    return useFallback(out, EpaFailure.InitialPolytope);
  }
  return expand(out);
}

function copyGjk(out: EpaResult, r: GjkResult): void {
  // By the sign of the (exact) core distance, so a MaxIterations answer is classified too.
  const overlap = r.distance < -GJK_ABSOLUTE_TOLERANCE;
  out.status = overlap ? EpaStatus.Penetrating : r.distance <= GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Touching : EpaStatus.Separated;
  out.method = EpaMethod.Core;
  out.depth = overlap ? -r.distance : 0;
  out.distance = r.distance;
  for (let k = 0; k < 3; k++) {
    out.normal[k] = r.normal[k];
    out.pointA[k] = r.pointA[k];
    out.pointB[k] = r.pointB[k];
  }
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
    if (best < 0) return useFallback(out, EpaFailure.NoFace);
    nL[0] = fN[3 * best];
    nL[1] = fN[3 * best + 1];
    nL[2] = fN[3 * best + 2];
    const h = supportAlong(nL);
    const lower = Math.max(0, bestD);
    if (h - lower <= Math.max(EPA_ABSOLUTE_TOLERANCE, EPA_RELATIVE_TOLERANCE * (lower + epaScale))) {
      faceWitness(best, lower);
      // Faces that touch exactly (depth within GJK's tolerance) are contact, not overlap.
      const status = lower <= GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Touching : EpaStatus.Penetrating;
      return finish(out, status, EpaMethod.Epa, lower, nL, pa, pb);
    }
    const nv = addVertex(w, sa, sb);
    if (nv < 0) return useFallback(out, EpaFailure.Capacity);
    // Remove the faces that see w (connected to the nearest face), collect the horizon in order.
    nHorizon = 0;
    nRemoved = 0;
    horizonOverflow = false;
    fAlive[best] = 0;
    removed[nRemoved++] = best;
    for (let e = 0; e < 3; e++) silhouette(fAdj[3 * best + e], fAdjEdge[3 * best + e], w[0], w[1], w[2]);
    if (horizonOverflow) return useFallback(out, EpaFailure.Capacity);
    // The horizon must be one closed loop (to of each edge = from of the next).
    for (let k = 0; k < nHorizon; k++) {
      if (hTo[k] !== hFrom[(k + 1) % nHorizon]) return useFallback(out, EpaFailure.DegenerateFace);
    }
    if (nHorizon < 3) return useFallback(out, EpaFailure.DegenerateFace);
    for (let k = 0; k < nRemoved; k++) freeFaces[nFree++] = removed[k];
    // Fan from the horizon to w; link each new face to the face beyond its horizon edge and to
    // its two fan neighbours.
    for (let k = 0; k < nHorizon; k++) {
      const f = addFace(hFrom[k], hTo[k], nv, false);
      if (f < 0) return useFallback(out, faceFull ? EpaFailure.Capacity : EpaFailure.DegenerateFace);
      fan[k] = f;
      fAdj[3 * f] = hFace[k];
      fAdjEdge[3 * f] = hEdge[k];
      fAdj[3 * hFace[k] + hEdge[k]] = f;
      fAdjEdge[3 * hFace[k] + hEdge[k]] = 0;
    }
    for (let k = 0; k < nHorizon; k++) {
      const f = fan[k], next = fan[(k + 1) % nHorizon], prev = fan[(k + nHorizon - 1) % nHorizon];
      fAdj[3 * f + 1] = next; // edge to → w borders the next fan face's edge w → from
      fAdjEdge[3 * f + 1] = 2;
      fAdj[3 * f + 2] = prev;
      fAdjEdge[3 * f + 2] = 1;
    }
  }
  return useFallback(out, EpaFailure.MaxIterations);
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
