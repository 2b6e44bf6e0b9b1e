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
 *   epaPenetration(out: EpaResult, shapeA, poseA, shapeB, poseB, ws?: EpaWorkspace): EpaResult
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
 * Fixed capacity, allocation-free: the polytope and every counter live in an EpaWorkspace that
 * the caller owns and passes (one is made for the call when omitted); nothing passes through
 * module variables.
 */
import type { Vec3 } from '../math/vec3';
import type { ConvexShape, Pose } from '../shapes/shape';
import { GjkResult, GjkStatus, GjkLoopExit, GjkWorkspace, MinkowskiPair, gjkDistance, gjkLoop } from './gjk';
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

/** How an EPA query ended (every exit sets one). */
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
/** Names of the `EpaStatus` values, by value. */
export const EPA_STATUS_NAMES: readonly string[] = ['penetrating', 'separated', 'touching', 'fallback', 'degenerate'];

/** How the EPA answer was found: GJK on the shapes' cores (shallow), EPA, or the fallback. */
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
/** Names of the `EpaFailure` values, by value. */
export const EPA_FAILURE_NAMES: readonly string[] = ['none', 'initial-polytope', 'max-iterations', 'capacity', 'degenerate-face', 'no-face'];
export type EpaMethod = (typeof EpaMethod)[keyof typeof EpaMethod];

/** The output record of `epaPenetration`: status, method, depth, normal and witness points. */
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

// --- workspace: the polytope and every counter of one query ------------------------------------

/**
 * Everything one EPA query works on: the polytope, the horizon of the current expansion, the
 * best upper bound seen and the scratch vectors. Fixed capacity (EPA_MAX_VERTICES,
 * EPA_MAX_FACES), allocated once; every query resets what it uses, so one workspace serves any
 * number of queries, one at a time (never shared by two queries in flight).
 */
export class EpaWorkspace {
  // Vertices of the polytope: the support point w = a − b and its witnesses on A and B.
  readonly vW = new Float64Array(EPA_MAX_VERTICES * 3);
  readonly vA = new Float64Array(EPA_MAX_VERTICES * 3);
  readonly vB = new Float64Array(EPA_MAX_VERTICES * 3);
  nVerts = 0;

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
  readonly fIdx = new Int32Array(EPA_MAX_FACES * 3);
  readonly fAdj = new Int32Array(EPA_MAX_FACES * 3);
  readonly fAdjEdge = new Int8Array(EPA_MAX_FACES * 3);
  readonly fN = new Float64Array(EPA_MAX_FACES * 3);
  readonly fD = new Float64Array(EPA_MAX_FACES);
  readonly fAlive = new Uint8Array(EPA_MAX_FACES);
  nFaces = 0;
  readonly freeFaces = new Int32Array(EPA_MAX_FACES);
  nFree = 0;
  /** addFace found no free slot (EPA_MAX_FACES): the failure is Capacity, not a degenerate face. */
  faceFull = false;

  /** Horizon (silhouette) edges of one expansion step, in order: face beyond the edge, its edge index, and the edge's vertices as the removed side winds them. */
  readonly hFace = new Int32Array(EPA_MAX_FACES);
  readonly hEdge = new Int8Array(EPA_MAX_FACES);
  readonly hFrom = new Int32Array(EPA_MAX_FACES);
  readonly hTo = new Int32Array(EPA_MAX_FACES);
  nHorizon = 0;
  /** The horizon list filled up during the silhouette walk. */
  horizonOverflow = false;
  /** Faces removed this step (freed only after the new fan is linked). */
  readonly removed = new Int32Array(EPA_MAX_FACES);
  nRemoved = 0;
  /** New faces of one expansion step, in horizon order. */
  readonly fan = new Int32Array(EPA_MAX_FACES);

  readonly pair = new MinkowskiPair();
  readonly simplex = new Simplex();
  readonly gjk = new GjkResult();
  /** The core GJK query's scratch (shapes with radii). */
  readonly gjkWs = new GjkWorkspace();
  /** GJK's closest point of A − B to the origin. */
  readonly v: Vec3 = [0, 0, 0];
  /** The last support point (w = sa − sb) and its witnesses. */
  readonly w: Vec3 = [0, 0, 0];
  readonly sa: Vec3 = [0, 0, 0];
  readonly sb: Vec3 = [0, 0, 0];
  readonly dir: Vec3 = [0, 0, 0];
  /** Witnesses and normal of the answer, in A's frame. */
  readonly pa: Vec3 = [0, 0, 0];
  readonly pb: Vec3 = [0, 0, 0];
  readonly nL: Vec3 = [0, 0, 0];
  /** The smallest support value h(n) over the directions tried (a separating translation), with its direction and witnesses. */
  bestUpper = Infinity;
  readonly bestUpperN: Vec3 = [0, 0, 1];
  readonly bestUpperA: Vec3 = [0, 0, 0];
  readonly bestUpperB: Vec3 = [0, 0, 0];
  /** [m] Size of A − B (largest GJK simplex vertex norm): the EPA tolerance is relative to it. */
  epaScale = 0;
  /** Radii added to a core answer (0 when EPA runs on the full shapes). */
  inflateA = 0;
  inflateB = 0;
  readonly inflatedA: Vec3 = [0, 0, 0];
  readonly inflatedB: Vec3 = [0, 0, 0];
  /** Interior point of the initial polytope, used to orient faces outward. */
  readonly centre: Vec3 = [0, 0, 0];
  /**
   * Doubles handed between the helpers (V8 boxes a double passed to or returned from a call it
   * does not inline): [0] the support value h of the last supportAlong, [1] faceWitness's depth.
   */
  readonly num = new Float64Array(2);
}

function addVertex(ws: EpaWorkspace, wp: Readonly<Vec3>, ap: Readonly<Vec3>, bp: Readonly<Vec3>): number {
  if (ws.nVerts >= EPA_MAX_VERTICES) return -1;
  const i = ws.nVerts++;
  for (let k = 0; k < 3; k++) {
    ws.vW[3 * i + k] = wp[k];
    ws.vA[3 * i + k] = ap[k];
    ws.vB[3 * i + k] = bp[k];
  }
  return i;
}

/** Evaluates the support along unit direction `d`, records it as an upper bound candidate. */
function supportAlong(ws: EpaWorkspace, d: Readonly<Vec3>): void {
  ws.pair.support(ws.w, ws.sa, ws.sb, d);
  const h = d[0] * ws.w[0] + d[1] * ws.w[1] + d[2] * ws.w[2];
  if (h < ws.bestUpper) {
    ws.bestUpper = h;
    for (let k = 0; k < 3; k++) {
      ws.bestUpperN[k] = d[k];
      ws.bestUpperA[k] = ws.sa[k];
      ws.bestUpperB[k] = ws.sb[k];
    }
  }
  ws.num[0] = h;
}

/**
 * Adds face (i, j, k); flips the winding so the normal points away from `centre` when
 * `orientByCentre` (initial polytope), otherwise trusts the winding (horizon fan). Returns the
 * face slot, or −1 when out of capacity (faceFull set) or the face has no area.
 */
function addFace(ws: EpaWorkspace, i: number, j: number, k: number, orientByCentre: boolean): number {
  const ax = ws.vW[3 * i], ay = ws.vW[3 * i + 1], az = ws.vW[3 * i + 2];
  const e1x = ws.vW[3 * j] - ax, e1y = ws.vW[3 * j + 1] - ay, e1z = ws.vW[3 * j + 2] - az;
  const e2x = ws.vW[3 * k] - ax, e2y = ws.vW[3 * k + 1] - ay, e2z = ws.vW[3 * k + 2] - az;
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const nn = nx * nx + ny * ny + nz * nz;
  const scale = Math.max(e1x * e1x + e1y * e1y + e1z * e1z, e2x * e2x + e2y * e2y + e2z * e2z);
  if (!(nn > GJK_DEGENERATE_RELATIVE * scale * scale)) return -1;
  let f: number;
  if (ws.nFree > 0) f = ws.freeFaces[--ws.nFree];
  else if (ws.nFaces < EPA_MAX_FACES) f = ws.nFaces++;
  else {
    ws.faceFull = true;
    return -1;
  }
  const inv = 1 / Math.sqrt(nn);
  nx *= inv;
  ny *= inv;
  nz *= inv;
  if (orientByCentre && nx * (ax - ws.centre[0]) + ny * (ay - ws.centre[1]) + nz * (az - ws.centre[2]) < 0) {
    nx = -nx;
    ny = -ny;
    nz = -nz;
    ws.fIdx[3 * f] = i;
    ws.fIdx[3 * f + 1] = k;
    ws.fIdx[3 * f + 2] = j;
  } else {
    ws.fIdx[3 * f] = i;
    ws.fIdx[3 * f + 1] = j;
    ws.fIdx[3 * f + 2] = k;
  }
  ws.fN[3 * f] = nx;
  ws.fN[3 * f + 1] = ny;
  ws.fN[3 * f + 2] = nz;
  ws.fD[f] = nx * ax + ny * ay + nz * az;
  ws.fAlive[f] = 1;
  ws.fAdj[3 * f] = ws.fAdj[3 * f + 1] = ws.fAdj[3 * f + 2] = -1;
  return f;
}

/** Links the initial polytope's faces (slots 0..nFaces−1) by matching opposite edges. */
function linkInitialFaces(ws: EpaWorkspace): boolean {
  for (let f = 0; f < ws.nFaces; f++) {
    for (let e = 0; e < 3; e++) {
      const a = ws.fIdx[3 * f + e], b = ws.fIdx[3 * f + ((e + 1) % 3)];
      let found = false;
      for (let g = 0; g < ws.nFaces && !found; g++) {
        if (g === f) continue;
        for (let q = 0; q < 3; q++) {
          if (ws.fIdx[3 * g + q] === b && ws.fIdx[3 * g + ((q + 1) % 3)] === a) {
            ws.fAdj[3 * f + e] = g;
            ws.fAdjEdge[3 * f + e] = q;
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
function silhouette(ws: EpaWorkspace, f: number, e: number): void {
  if (!ws.fAlive[f]) return;
  const wx = ws.w[0], wy = ws.w[1], wz = ws.w[2];
  if (ws.fN[3 * f] * wx + ws.fN[3 * f + 1] * wy + ws.fN[3 * f + 2] * wz - ws.fD[f] <= 0) {
    if (ws.nHorizon >= EPA_MAX_FACES) {
      ws.horizonOverflow = true;
      return;
    }
    ws.hFace[ws.nHorizon] = f;
    ws.hEdge[ws.nHorizon] = e;
    // The removed neighbour winds this edge opposite to f: from v(e+1) to v(e).
    ws.hFrom[ws.nHorizon] = ws.fIdx[3 * f + ((e + 1) % 3)];
    ws.hTo[ws.nHorizon] = ws.fIdx[3 * f + e];
    ws.nHorizon++;
    return;
  }
  ws.fAlive[f] = 0;
  ws.removed[ws.nRemoved++] = f;
  const e1 = (e + 1) % 3, e2 = (e + 2) % 3;
  silhouette(ws, ws.fAdj[3 * f + e1], ws.fAdjEdge[3 * f + e1]);
  silhouette(ws, ws.fAdj[3 * f + e2], ws.fAdjEdge[3 * f + e2]);
}

/** Unit vectors used to blow up a low-dimensional simplex (axes first, then diagonals). */
const BLOWUP_DIRS: readonly (readonly [number, number, number])[] = [
  [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
  [0.5773502691896258, 0.5773502691896258, 0.5773502691896258],
  [-0.5773502691896258, -0.5773502691896258, -0.5773502691896258],
];

function distSqToVertex(ws: EpaWorkspace, i: number, p: Readonly<Vec3>): number {
  const x = ws.vW[3 * i] - p[0], y = ws.vW[3 * i + 1] - p[1], z = ws.vW[3 * i + 2] - p[2];
  return x * x + y * y + z * z;
}

/**
 * Builds the initial polytope from the GJK simplex. Returns false when A − B is too thin to
 * contain a tetrahedron (then the caller uses the fallback).
 */
function buildInitialPolytope(ws: EpaWorkspace, scaleSq: number): boolean {
  ws.nVerts = 0;
  ws.nFaces = 0;
  ws.nFree = 0;
  ws.faceFull = false;
  for (let i = 0; i < ws.simplex.count; i++) {
    for (let k = 0; k < 3; k++) {
      ws.w[k] = ws.simplex.w[3 * i + k];
      ws.sa[k] = ws.simplex.a[3 * i + k];
      ws.sb[k] = ws.simplex.b[3 * i + k];
    }
    addVertex(ws, ws.w, ws.sa, ws.sb);
  }
  const minSep = GJK_DEGENERATE_RELATIVE * scaleSq;
  // 1 point → segment: any support point distinct from it.
  if (ws.nVerts === 1) {
    for (const d of BLOWUP_DIRS) {
      ws.dir[0] = d[0];
      ws.dir[1] = d[1];
      ws.dir[2] = d[2];
      supportAlong(ws, ws.dir);
      if (distSqToVertex(ws, 0, ws.w) > minSep) {
        addVertex(ws, ws.w, ws.sa, ws.sb);
        break;
      }
    }
    if (ws.nVerts < 2) return false;
  }
  // 2 points → triangle: support along directions perpendicular to the segment, six 60° steps.
  if (ws.nVerts === 2) {
    const ex = ws.vW[3] - ws.vW[0], ey = ws.vW[4] - ws.vW[1], ez = ws.vW[5] - ws.vW[2];
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
    for (let s = 0; s < 6 && ws.nVerts < 3; s++) {
      const c = Math.cos((s * Math.PI) / 3), sn = Math.sin((s * Math.PI) / 3);
      ws.dir[0] = c * px + sn * qx;
      ws.dir[1] = c * py + sn * qy;
      ws.dir[2] = c * pz + sn * qz;
      supportAlong(ws, ws.dir);
      // Distance from the segment's line.
      const rx = ws.w[0] - ws.vW[0], ry = ws.w[1] - ws.vW[1], rz = ws.w[2] - ws.vW[2];
      const along = rx * ux + ry * uy + rz * uz;
      const offSq = rx * rx + ry * ry + rz * rz - along * along;
      if (offSq > minSep) addVertex(ws, ws.w, ws.sa, ws.sb);
    }
    if (ws.nVerts < 3) return false;
  }
  // 3 points → double pyramid over the triangle (the origin lies in or near its plane).
  if (ws.nVerts === 3) {
    const e1x = ws.vW[3] - ws.vW[0], e1y = ws.vW[4] - ws.vW[1], e1z = ws.vW[5] - ws.vW[2];
    const e2x = ws.vW[6] - ws.vW[0], e2y = ws.vW[7] - ws.vW[1], e2z = ws.vW[8] - ws.vW[2];
    let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(nl > 0)) return false;
    nx /= nl; ny /= nl; nz /= nl;
    const d0 = nx * ws.vW[0] + ny * ws.vW[1] + nz * ws.vW[2];
    for (let s = 0; s < 2; s++) {
      ws.dir[0] = s === 0 ? nx : -nx;
      ws.dir[1] = s === 0 ? ny : -ny;
      ws.dir[2] = s === 0 ? nz : -nz;
      supportAlong(ws, ws.dir);
      const off = nx * ws.w[0] + ny * ws.w[1] + nz * ws.w[2] - d0;
      if (off * off > minSep) addVertex(ws, ws.w, ws.sa, ws.sb);
    }
    if (ws.nVerts < 4) return false;
    if ((ws.nVerts as number) === 5) {
      // Double pyramid: apexes 3 (+n side) and 4 (−n side) over triangle 0-1-2.
      ws.centre[0] = (ws.vW[0] + ws.vW[3] + ws.vW[6]) / 3;
      ws.centre[1] = (ws.vW[1] + ws.vW[4] + ws.vW[7]) / 3;
      ws.centre[2] = (ws.vW[2] + ws.vW[5] + ws.vW[8]) / 3;
      return (
        addFace(ws, 0, 1, 3, true) >= 0 && addFace(ws, 1, 2, 3, true) >= 0 && addFace(ws, 2, 0, 3, true) >= 0 &&
        addFace(ws, 0, 1, 4, true) >= 0 && addFace(ws, 1, 2, 4, true) >= 0 && addFace(ws, 2, 0, 4, true) >= 0 &&
        linkInitialFaces(ws)
      );
    }
    // Only one side has volume: the origin is on the remaining triangle face (depth ≈ 0 there);
    // a tetrahedron still works, EPA will find that face.
  }
  // Tetrahedron.
  for (let k = 0; k < 3; k++) ws.centre[k] = (ws.vW[k] + ws.vW[3 + k] + ws.vW[6 + k] + ws.vW[9 + k]) / 4;
  return (
    addFace(ws, 0, 1, 2, true) >= 0 && addFace(ws, 0, 3, 1, true) >= 0 && addFace(ws, 0, 2, 3, true) >= 0 && addFace(ws, 1, 3, 2, true) >= 0 &&
    linkInitialFaces(ws)
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
function finish(ws: EpaWorkspace, out: EpaResult, status: EpaStatus, method: EpaMethod, depth: number, n: Readonly<Vec3>, a: Readonly<Vec3>, b: Readonly<Vec3>): EpaResult {
  if (!(depth >= 0) || !Number.isFinite(depth) || !Number.isFinite(n[0] + n[1] + n[2] + a[0] + a[1] + a[2] + b[0] + b[1] + b[2])) {
    return setDegenerate(out);
  }
  // Core answers grow by the radii along the normal (no-op for shapes without radius).
  const d = depth + ws.inflateA + ws.inflateB;
  for (let k = 0; k < 3; k++) {
    ws.inflatedA[k] = a[k] + n[k] * ws.inflateA;
    ws.inflatedB[k] = b[k] - n[k] * ws.inflateB;
  }
  out.status = status === EpaStatus.Touching && d > GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Penetrating : status;
  out.method = method;
  out.depth = d;
  out.distance = -d;
  ws.pair.toWorldVector(out.normal, n);
  ws.pair.toWorldPoint(out.pointA, ws.inflatedA);
  ws.pair.toWorldPoint(out.pointB, ws.inflatedB);
  return out;
}

function useFallback(ws: EpaWorkspace, out: EpaResult, why: EpaFailure): EpaResult {
  out.failure = why;
  if (!Number.isFinite(ws.bestUpper)) {
    // No direction tried yet: a few fixed ones still give a valid (if loose) separating translation.
    for (const d of BLOWUP_DIRS) {
      ws.dir[0] = d[0];
      ws.dir[1] = d[1];
      ws.dir[2] = d[2];
      supportAlong(ws, ws.dir);
    }
  }
  if (!Number.isFinite(ws.bestUpper)) return setDegenerate(out);
  return finish(ws, out, EpaStatus.Fallback, EpaMethod.Fallback, Math.max(0, ws.bestUpper), ws.bestUpperN, ws.bestUpperA, ws.bestUpperB);
}

/**
 * Penetration query (see the file header). `ws` holds this query's polytope and counters: engine
 * callers pass the one they own; without it a workspace is made for this call (it allocates the
 * whole polytope: pass one in loops).
 *
 * `stopAbove`, in metres: a caller that only uses pairs closer than this (the narrow phase's contact
 * margin) lets GJK stop at the first separating plane proving the shapes farther apart (gjkLoop's
 * boolean exit): the answer is then Separated with `distance` an upper bound above `stopAbove`,
 * not the converged distance. Shapes with radii (spheres, capsules) are measured in full.
 */
export function epaPenetration(
  out: EpaResult,
  shapeA: ConvexShape,
  poseA: Readonly<Pose>,
  shapeB: ConvexShape,
  poseB: Readonly<Pose>,
  ws: EpaWorkspace = new EpaWorkspace(),
  stopAbove = Infinity,
): EpaResult {
  out.iterations = 0;
  out.failure = EpaFailure.None;
  ws.inflateA = shapeA.coreRadius;
  ws.inflateB = shapeB.coreRadius;
  ws.bestUpper = Infinity;
  if (ws.inflateA + ws.inflateB > 0) {
    // Radii: GJK on the cores answers separation and shallow overlap exactly.
    gjkDistance(ws.gjk, shapeA, poseA, shapeB, poseB, undefined, ws.gjkWs);
    out.gjkStatus = ws.gjk.status;
    if (ws.gjk.status === GjkStatus.Degenerate) return setDegenerate(out);
    if (ws.gjk.normalValid) {
      copyGjk(out, ws.gjk);
      out.iterations = ws.gjk.iterations;
      return out;
    }
    // Cores overlap: EPA on the cores, then add the radii (exact: the Minkowski difference of the
    // full shapes is that of the cores inflated by a ball of radius rA + rB).
    ws.pair.set(shapeA, poseA, shapeB, poseB, true);
  } else {
    // No radii: the cores are the shapes, one GJK run serves both separation and EPA's start.
    ws.pair.set(shapeA, poseA, shapeB, poseB, false);
    if (!ws.pair.finite) {
      out.gjkStatus = GjkStatus.Degenerate;
      return setDegenerate(out);
    }
  }
  ws.dir[0] = -ws.pair.t[0];
  ws.dir[1] = -ws.pair.t[1];
  ws.dir[2] = -ws.pair.t[2];
  // (with radii this loop runs on overlapping cores: no early exit there)
  const exit = gjkLoop(ws.simplex, ws.v, ws.pair, ws.dir, false, ws.inflateA + ws.inflateB > 0 ? Infinity : stopAbove);
  out.iterations = ws.pair.supports;
  if (exit === GjkLoopExit.Separated || exit === GjkLoopExit.MaxIterations) {
    const vl = Math.sqrt(ws.v[0] * ws.v[0] + ws.v[1] * ws.v[1] + ws.v[2] * ws.v[2]);
    if (vl > GJK_ABSOLUTE_TOLERANCE && Number.isFinite(vl)) {
      // Apart (or, with radii, cores apart by rounding only): report the GJK answer.
      ws.simplex.witness(ws.pa, ws.pb);
      ws.nL[0] = -ws.v[0] / vl;
      ws.nL[1] = -ws.v[1] / vl;
      ws.nL[2] = -ws.v[2] / vl;
      const dist = vl - ws.inflateA - ws.inflateB;
      out.gjkStatus = exit === GjkLoopExit.MaxIterations ? GjkStatus.MaxIterations : GjkStatus.Separated;
      finish(ws, out, EpaStatus.Separated, EpaMethod.Core, 0, ws.nL, ws.pa, ws.pb);
      out.distance = dist;
      if (dist <= GJK_ABSOLUTE_TOLERANCE) {
        out.status = dist >= -GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Touching : EpaStatus.Penetrating;
        out.depth = Math.max(0, -dist);
      }
      return out;
    }
  }
  if (ws.inflateA + ws.inflateB === 0) out.gjkStatus = GjkStatus.Intersecting;
  // Scale of A − B for the degeneracy tests.
  let scaleSq = 0;
  for (let i = 0; i < ws.simplex.count; i++) {
    const x = ws.simplex.w[3 * i], y = ws.simplex.w[3 * i + 1], z = ws.simplex.w[3 * i + 2];
    scaleSq = Math.max(scaleSq, x * x + y * y + z * z);
  }
  if (!(scaleSq > 0)) {
    // A single support point at the origin: measure the size from the shapes' support along x.
    ws.dir[0] = 1;
    ws.dir[1] = 0;
    ws.dir[2] = 0;
    ws.pair.support(ws.w, ws.sa, ws.sb, ws.dir);
    scaleSq = ws.w[0] * ws.w[0] + ws.w[1] * ws.w[1] + ws.w[2] * ws.w[2];
    if (!(scaleSq > 0)) scaleSq = 1;
  }
  ws.epaScale = Math.sqrt(scaleSq);
  if (!buildInitialPolytope(ws, scaleSq)) {
    if (ws.inflateA + ws.inflateB > 0 && Number.isFinite(ws.bestUpper) && ws.bestUpper <= GJK_ABSOLUTE_TOLERANCE) {
      // Flat core difference through the origin (concentric spheres, crossing capsule axes,
      // a sphere centre on a capsule axis): the core depth is 0 along the direction the blow-up
      // found flat, so the full depth is exactly rA + rB along it.
      return finish(ws, out, EpaStatus.Penetrating, EpaMethod.Core, 0, ws.bestUpperN, ws.bestUpperA, ws.bestUpperB);
    }
    return useFallback(ws, out, EpaFailure.InitialPolytope);
  }
  return expand(ws, out);
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

function expand(ws: EpaWorkspace, out: EpaResult): EpaResult {
  for (let iter = 0; iter < EPA_MAX_ITERATIONS; iter++) {
    out.iterations++;
    // Live face nearest the origin.
    let best = -1;
    let bestD = Infinity;
    for (let f = 0; f < ws.nFaces; f++) {
      if (ws.fAlive[f] && ws.fD[f] < bestD) {
        bestD = ws.fD[f];
        best = f;
      }
    }
    if (best < 0) return useFallback(ws, out, EpaFailure.NoFace);
    ws.nL[0] = ws.fN[3 * best];
    ws.nL[1] = ws.fN[3 * best + 1];
    ws.nL[2] = ws.fN[3 * best + 2];
    supportAlong(ws, ws.nL);
    const h = ws.num[0];
    const lower = Math.max(0, bestD);
    if (h - lower <= Math.max(EPA_ABSOLUTE_TOLERANCE, EPA_RELATIVE_TOLERANCE * (lower + ws.epaScale))) {
      ws.num[1] = lower;
      faceWitness(ws, best);
      // Faces that touch exactly (depth within GJK's tolerance) are contact, not overlap.
      const status = lower <= GJK_ABSOLUTE_TOLERANCE ? EpaStatus.Touching : EpaStatus.Penetrating;
      return finish(ws, out, status, EpaMethod.Epa, lower, ws.nL, ws.pa, ws.pb);
    }
    const nv = addVertex(ws, ws.w, ws.sa, ws.sb);
    if (nv < 0) return useFallback(ws, out, EpaFailure.Capacity);
    // Remove the faces that see w (connected to the nearest face), collect the horizon in order.
    ws.nHorizon = 0;
    ws.nRemoved = 0;
    ws.horizonOverflow = false;
    ws.fAlive[best] = 0;
    ws.removed[ws.nRemoved++] = best;
    for (let e = 0; e < 3; e++) silhouette(ws, ws.fAdj[3 * best + e], ws.fAdjEdge[3 * best + e]);
    if (ws.horizonOverflow) return useFallback(ws, out, EpaFailure.Capacity);
    // The horizon must be one closed loop (to of each edge = from of the next).
    for (let k = 0; k < ws.nHorizon; k++) {
      if (ws.hTo[k] !== ws.hFrom[(k + 1) % ws.nHorizon]) return useFallback(ws, out, EpaFailure.DegenerateFace);
    }
    if (ws.nHorizon < 3) return useFallback(ws, out, EpaFailure.DegenerateFace);
    for (let k = 0; k < ws.nRemoved; k++) ws.freeFaces[ws.nFree++] = ws.removed[k];
    // Fan from the horizon to w; link each new face to the face beyond its horizon edge and to
    // its two fan neighbours.
    for (let k = 0; k < ws.nHorizon; k++) {
      const f = addFace(ws, ws.hFrom[k], ws.hTo[k], nv, false);
      if (f < 0) return useFallback(ws, out, ws.faceFull ? EpaFailure.Capacity : EpaFailure.DegenerateFace);
      ws.fan[k] = f;
      ws.fAdj[3 * f] = ws.hFace[k];
      ws.fAdjEdge[3 * f] = ws.hEdge[k];
      ws.fAdj[3 * ws.hFace[k] + ws.hEdge[k]] = f;
      ws.fAdjEdge[3 * ws.hFace[k] + ws.hEdge[k]] = 0;
    }
    for (let k = 0; k < ws.nHorizon; k++) {
      const f = ws.fan[k], next = ws.fan[(k + 1) % ws.nHorizon], prev = ws.fan[(k + ws.nHorizon - 1) % ws.nHorizon];
      ws.fAdj[3 * f + 1] = next; // edge to → w borders the next fan face's edge w → from
      ws.fAdjEdge[3 * f + 1] = 2;
      ws.fAdj[3 * f + 2] = prev;
      ws.fAdjEdge[3 * f + 2] = 1;
    }
  }
  return useFallback(ws, out, EpaFailure.MaxIterations);
}

/** Witnesses from the barycentric coordinates of the origin's projection n·d onto face f (d = ws.num[1]). */
function faceWitness(ws: EpaWorkspace, f: number): void {
  const d = ws.num[1];
  const i = ws.fIdx[3 * f], j = ws.fIdx[3 * f + 1], k = ws.fIdx[3 * f + 2];
  const px = ws.fN[3 * f] * d, py = ws.fN[3 * f + 1] * d, pz = ws.fN[3 * f + 2] * d;
  const ax = ws.vW[3 * i], ay = ws.vW[3 * i + 1], az = ws.vW[3 * i + 2];
  const v0x = ws.vW[3 * j] - ax, v0y = ws.vW[3 * j + 1] - ay, v0z = ws.vW[3 * j + 2] - az;
  const v1x = ws.vW[3 * k] - ax, v1y = ws.vW[3 * k + 1] - ay, v1z = ws.vW[3 * k + 2] - az;
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
    ws.pa[q] = l0 * ws.vA[3 * i + q] + l1 * ws.vA[3 * j + q] + l2 * ws.vA[3 * k + q];
    ws.pb[q] = l0 * ws.vB[3 * i + q] + l1 * ws.vB[3 * j + q] + l2 * ws.vB[3 * k + q];
  }
}
