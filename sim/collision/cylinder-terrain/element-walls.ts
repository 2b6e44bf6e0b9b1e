/**
 * The deepest point of the cylinder over an element whose own deepest point lies outside it
 * (issue #12; completes the paper's §IV case C, which leaves such elements to the approximate
 * stage 3).
 *
 * Depth over a plane point. Seen from an element plane (frame.ts: s(P) = k − P·n, axis a from
 * the lower base up, a·n = cosθ, w the down radial, u = a × w), a point X of the plane with
 * coordinates ζ = (X − C_L)·a, ξ = (X − C_L)·w, η = (X − C_L)·u lies in the cylinder iff
 * 0 ≤ ζ ≤ h and ξ² + η² ≤ r². Going down from X, along −n = −cosθ·a + sinθ·w, the point
 * X − β·n stays in the cylinder while ζ − β·cosθ ≥ 0 (above the lower base) and
 * ξ + β·sinθ ≤ √(r² − η²) (inside the side), so the cylinder reaches
 *
 *     F(X) = min( ζ/cosθ ,  (√(r² − η²) − ξ)/sinθ )          (X in the cylinder)
 *
 * below X along the element normal: the depth of a contact at X. F is concave (a linear term and
 * a concave one; min of concave is concave), and the element's deepest point is the maximum of
 * F over element ∩ cylinder.
 *
 * Where that maximum is. The unconstrained maximum of F is at the foot of A_L (the lowest rim
 * point, frame.ts footU/footV): F there is s(A_L), the most any point can reach. When that foot
 * lies in the element, the narrow-phase cases already emit it (case C's point, case B's line
 * start, case A's rim extreme A_L). Otherwise the maximum lies on the element's boundary, on a
 * side whose half-plane the foot violates (for a concave F over a convex polygon: at the
 * constrained maximum X*, F(A) > F(X*) and concavity give ∇F(X*)·(A − X*) > 0, and by the KKT
 * conditions ∇F(X*) is a non-negative combination of the active sides' outward normals, so A is
 * outside one of them). Along such a side X(α) = V_a + α(V_b − V_a), α ∈ [0, 1], ζ, ξ, η are
 * affine in α and F(α) = min(L(α), G(α)) with L linear and G concave, so its maximum on the
 * interval where X(α) is in the cylinder is at one of: the interval's ends; the maximum of G,
 * where η = η* = −sign(η')·ξ'·r/√(ξ'² + η'²) (G' = 0); the crossings L = G, i.e.
 * √(r² − η²) = ξ + ζ·tanθ (a quadratic in α). F is evaluated at each and the best kept: exact,
 * no iteration.
 *
 * Skipped sides, and why that is safe:
 *  - sides the foot of A_L does not violate: the maximum is not there (above);
 *  - elements whose plane has the cylinder's centre on or below it (s(C) ≥ 0; collide.ts): a
 *    face normal there would pull the wheel toward the point — a steep face (a curb's) under a
 *    wheel resting on the edge above it, which pokes in and gets its own contact (edge pass);
 *  - elements that a reported contact (after the manifold reduction) resolves (resolvedByReported):
 *    moving the wheel by that contact's depth along its normal provably takes it out of the
 *    element, so the element's own deepest point adds nothing the solver needs (a face beside a
 *    lying wheel's contact line, a curb face under a barrel resting on the curb top). This is
 *    decided before the element is measured, with an upper bound of its depth (queueFrameWall;
 *    the screen's, cell-cull.ts): a contact that resolves the element at the bound resolves it
 *    at its exact depth too, so measuring first would change nothing;
 *  - FLAT sides (the neighbour across is coplanar): the neighbour has the same plane and normal,
 *    so the same F, and contains the side; the maximum over the union of coplanar elements is at
 *    the foot of A_L or on a bent side or the grid border, and the element that holds it emits
 *    it. A point on the flat seam would be a ghost (neither the deepest point nor the end of
 *    the patch), the reason cases A–C drop flat-seam points too.
 *
 *      V2 ●──────────── ● V3        sides in cell-normalised (u, v), inside ⇔ value ≥ 0:
 *         │ ╲   upper   │           bottom v, right 1 − u, top 1 − v, left u,
 *         │   ╲         │           diagonal (V1–V2): lower 1 − u − v, upper u + v − 1
 *         │ lower ╲     │
 *      V0 ●──────────── ● V1
 */
import { CYLINDER_TERRAIN_DEPTH_RESOLUTION, CYLINDER_TERRAIN_MAX_CELLS, CYLINDER_TERRAIN_PARALLEL_SIN, CYLINDER_TERRAIN_REJECT_MARGIN, MANIFOLD_GROUP_COS } from '../../constants';
import type { ContactBuffer } from '../contact';
import { WheelContactKind } from '../contact';
import type { Heightfield } from '../../terrain/heightfield';
import { ElementKind } from '../../terrain/heightfield';
import { CellEdge, EdgeClass } from './edge-bend';
import { elementSides } from './case-b-side-trapezoid';
import { ElementTest, setElementFrame } from './frame';
import type { CylinderQuery, ElementFrame } from './frame';

/** cos of twice the grouping angle (cos 2α = 2cos²α − 1): two members of one normal group are at most this far apart. */
export const SAME_PATCH_COS = 2 * MANIFOLD_GROUP_COS * MANIFOLD_GROUP_COS - 1;

/** Cell-normalised (u, v) of each side's two vertices, by CellEdge: bottom, right, top, left, diagonal. */
const SIDE_U0 = [0, 1, 0, 0, 1] as const;
const SIDE_V0 = [0, 0, 1, 0, 0] as const;
const SIDE_U1 = [1, 1, 1, 0, 0] as const;
const SIDE_V1 = [0, 1, 1, 1, 1] as const;

/** Most parameters sideDepth evaluates F at: the interval's two ends, the maximum of G, two crossings L = G. */
const SIDE_CANDIDATES = 5;

/**
 * One element side being measured by sideDepth: its start vertex and direction (V_b − V_a) in
 * world coordinates, then the best point found (parameter α and F there). Every double field
 * starts as NaN (see frame.ts, CylinderQuery): stores never allocate.
 */
export class WallSide {
  xa = NaN; ya = NaN; za = NaN;
  ex = NaN; ey = NaN; ez = NaN;
  /** Maximiser α ∈ [0, 1] and [m] F there (0: no point of the side is in the cylinder). */
  alpha = NaN;
  depth = NaN;
  /** Parameters at which F is evaluated (SIDE_CANDIDATES). */
  readonly candidates = new Float64Array(SIDE_CANDIDATES);
}

/** PendingWalls.state: only a bound of the element's depth is known. */
export const WALL_OPEN = 0;
/** Its deepest point is measured (bound = its exact depth): a later round needs no frame. */
const WALL_MEASURED = 1;
/** Its wall is among the candidates, or it has none (no point below its plane): nothing more to decide. */
const WALL_SETTLED = 2;

/**
 * Elements whose own deepest point is still to be decided, in queue order (cell order), with what
 * the decision needs. One list per kind of origin (collide.ts, elementContacts); each workspace
 * holds its lists.
 */
export class PendingWalls {
  count = 0;
  readonly i: Int32Array;
  readonly j: Int32Array;
  readonly kind: Uint8Array;
  /** Unit normal of each element (its frame's, frame.ts) and [m] an upper bound of its depth along it. */
  readonly normal: Float64Array;
  readonly bound: Float64Array;
  /** WALL_OPEN, WALL_MEASURED or WALL_SETTLED. */
  readonly state: Uint8Array;
  /** Once measured: [m] the element's deepest point (its depth is then the bound) and its contact kind. */
  readonly point: Float64Array;
  readonly contactKind: Uint8Array;

  constructor() {
    // At most two elements per visited cell, at most CYLINDER_TERRAIN_MAX_CELLS cells.
    const n = 2 * CYLINDER_TERRAIN_MAX_CELLS;
    this.i = new Int32Array(n);
    this.j = new Int32Array(n);
    this.kind = new Uint8Array(n);
    this.normal = new Float64Array(3 * n);
    this.bound = new Float64Array(n);
    this.state = new Uint8Array(n);
    this.point = new Float64Array(3 * n);
    this.contactKind = new Uint8Array(n);
  }
}

/**
 * The reported contacts one round of wall decisions is made against (prepareReported), and the
 * round's scratch. One per workspace; the doubles pass through here, not through call arguments
 * (a double passed to a call that is not inlined is boxed on the heap).
 */
export class WallRound {
  /** Index of the deepest reported contact (the first of equals), −1 if none. */
  deepest = -1;
  /**
   * Per reported contact (index from the query's first, outStart), for resolvedByReported: with
   * d its normal, reach = (h/2)|v·d| + r√(1 − (v·d)²) the cylinder's half extent along d and C
   * its centre, offset = reach − d·C and cap = d·C + reach. Sized by the candidates, which the
   * reported contacts never outnumber.
   */
  readonly offset: Float64Array;
  readonly cap: Float64Array;
  /** [m] The depth resolvedByReported tests the current element at (its bound, then its exact depth). */
  ownDepth = NaN;
  /**
   * [m] After a resolvedByReported call that found no resolving contact: the largest depth
   * (+ CYLINDER_TERRAIN_DEPTH_RESOLUTION) of the contacts in the element's patch, −∞ if none.
   */
  samePatchReach = NaN;
  readonly side = new WallSide();

  constructor(candidateCapacity: number) {
    this.offset = new Float64Array(candidateCapacity);
    this.cap = new Float64Array(candidateCapacity);
  }
}

/** Value of side e's half-plane at (u, v) for the element kind (≥ 0 inside; see the header's diagram). */
function sideValue(e: CellEdge, upper: boolean, u: number, v: number): number {
  switch (e) {
    case CellEdge.Bottom: return v;
    case CellEdge.Right: return 1 - u;
    case CellEdge.Top: return 1 - v;
    case CellEdge.Left: return u;
    default: return upper ? u + v - 1 : 1 - u - v;
  }
}

/**
 * Queues element f (its frame just built by the narrow phase; the foot of A_L is not on it) in
 * list w with an upper bound of its depth along its own normal, from its vertices in the frame's
 * coordinates (header): F = min(ζ/cosθ, (√(r² − η²) − ξ)/sinθ) is at most its two terms with ζ
 * at its largest, |η| and ξ at their smallest over the element (each is extreme at a vertex; |η|
 * is 0 if the element straddles η = 0), and at most s(A_L). On the plane ξ follows from ζ: a
 * vertex V has (V − C_L)·n = s(C_L) and n = cosθ·a − sinθ·w, so ξ = (ζ·cosθ − s(C_L))/sinθ,
 * smallest where ζ is; only ζ and η are taken per vertex.
 */
export function queueFrameWall(w: PendingWalls, hf: Heightfield, f: ElementFrame): void {
  const H = hf.heights, c = hf.cols, kv = f.j * c + f.i;
  // ζ and η at V0 without its height, and their steps along the cell's x and y edges.
  const px = f.ox - f.clx, py = f.oy - f.cly;
  const z00 = px * f.ax + py * f.ay - f.clz * f.az, y00 = px * f.ux + py * f.uy - f.clz * f.uz;
  const zX = f.dx * f.ax, zY = f.dy * f.ay, yX = f.dx * f.ux, yY = f.dy * f.uy;
  // V1 and V2 are in every element kind; V0 not in the upper triangle, V3 not in the lower.
  const h1 = H[kv + 1], h2 = H[kv + c];
  const z1 = z00 + zX + h1 * f.az, y1 = y00 + yX + h1 * f.uz;
  const z2 = z00 + zY + h2 * f.az, y2 = y00 + yY + h2 * f.uz;
  let zMax = Math.max(z1, z2), zMin = Math.min(z1, z2), yMin = Math.min(y1, y2), yMax = Math.max(y1, y2);
  if (f.kind !== ElementKind.UpperTriangle) {
    const h0 = H[kv];
    const z = z00 + h0 * f.az, y = y00 + h0 * f.uz;
    zMax = Math.max(zMax, z); zMin = Math.min(zMin, z); yMin = Math.min(yMin, y); yMax = Math.max(yMax, y);
  }
  if (f.kind !== ElementKind.LowerTriangle) {
    const h3 = H[kv + c + 1];
    const z = z00 + zX + zY + h3 * f.az, y = y00 + yX + yY + h3 * f.uz;
    zMax = Math.max(zMax, z); zMin = Math.min(zMin, z); yMin = Math.min(yMin, y); yMax = Math.max(yMax, y);
  }
  const yAbs = yMin > 0 ? yMin : yMax < 0 ? -yMax : 0;
  let bound = f.sAL;
  if (f.cos > 0) bound = Math.min(bound, zMax / f.cos);
  if (f.sin > CYLINDER_TERRAIN_PARALLEL_SIN) {
    const xMin = (zMin * f.cos - f.sCL) / f.sin;
    bound = Math.min(bound, (Math.sqrt(Math.max(0, f.r * f.r - yAbs * yAbs)) - xMin) / f.sin);
  }
  const m = w.count++;
  w.i[m] = f.i;
  w.j[m] = f.j;
  w.kind[m] = f.kind;
  w.normal[3 * m] = f.nx;
  w.normal[3 * m + 1] = f.ny;
  w.normal[3 * m + 2] = f.nz;
  w.bound[m] = bound + CYLINDER_TERRAIN_REJECT_MARGIN;
  w.state[m] = WALL_OPEN;
}

/**
 * One round of the element walls after a manifold reduction (collide.ts), over list `w`: for each
 * queued element not yet added, its deepest point joins the candidates unless a reported contact
 * (out[outStart..], prepared in `round` by prepareReported) resolves it. `f` is scratch for the
 * element frames. Contacts that do not fit in `cand` are counted in cand.overflow.
 */
export function addUnresolvedWalls(cand: ContactBuffer, hf: Heightfield, q: CylinderQuery, f: ElementFrame, w: PendingWalls, round: WallRound, out: ContactBuffer, outStart: number): void {
  // The deepest reported contact settles most of them with one dot product: element m is in its
  // patch (normals within SAME_PATCH_COS) and it is at least m's bound deep. Its normal and
  // depth (+ the resolution) are read once here (−∞: no contact, none settled so).
  const deepest = round.deepest;
  let dnx = 0, dny = 0, dnz = 0, deepReach = -Infinity;
  if (deepest >= 0) {
    dnx = out.normal[3 * deepest]; dny = out.normal[3 * deepest + 1]; dnz = out.normal[3 * deepest + 2];
    deepReach = out.depth[deepest] + CYLINDER_TERRAIN_DEPTH_RESOLUTION;
  }
  const normal = w.normal, state = w.state, count = w.count;
  for (let m = 0; m < count; m++) {
    if (state[m] === WALL_SETTLED) continue;
    const bound = w.bound[m];
    if (deepReach >= bound && dnx * normal[3 * m] + dny * normal[3 * m + 1] + dnz * normal[3 * m + 2] >= SAME_PATCH_COS) continue;
    round.ownDepth = bound;
    if (resolvedByReported(w, m, round, hf, out, outStart)) continue;
    if (state[m] === WALL_OPEN) {
      // Measured once per query; a contact that resolves the element at its bound resolves it
      // at its exact depth too, so measuring before the check above would change nothing.
      if (setElementFrame(f, q, hf, w.i[m], w.j[m], w.kind[m] as ElementKind) !== ElementTest.Frame || !measureWall(hf, f, w, m, round)) {
        state[m] = WALL_SETTLED;
        continue;
      }
      // Only the same-patch test depends on the depth, and the call above found the deepest
      // such contact: resolvedByReported at the exact depth, without scanning the contacts again.
      if (w.bound[m] <= round.samePatchReach) continue;
    }
    if (pushWall(cand, w, m)) state[m] = WALL_SETTLED;
  }
}

/**
 * Readies `round` for the reported contacts[start..]: the deepest, and per contact its support
 * terms (WallRound): once per reduction, not per element.
 */
export function prepareReported(round: WallRound, q: CylinderQuery, contacts: ContactBuffer, start: number): void {
  const N = contacts.normal, D = contacts.depth, offsets = round.offset, caps = round.cap, end = contacts.count;
  const vx = q.vx, vy = q.vy, vz = q.vz, cx = q.cx, cy = q.cy, cz = q.cz, hh = q.hh, r = q.r;
  let deepest = end > start ? start : -1;
  for (let k = start; k < end; k++) {
    if (D[k] > D[deepest]) deepest = k;
    const dx = N[3 * k], dy = N[3 * k + 1], dz = N[3 * k + 2];
    const va = dx * vx + dy * vy + dz * vz;
    const reach = hh * Math.abs(va) + r * Math.sqrt(Math.max(0, 1 - va * va));
    const dc = dx * cx + dy * cy + dz * cz;
    offsets[k - start] = reach - dc;
    caps[k - start] = dc + reach;
  }
  round.deepest = deepest;
}

/**
 * True if one of contacts[start..] {normal d, depth} provably resolves element m at depth
 * round.ownDepth (an upper bound of, or exactly, its depth along its own normal): moving the wheel by
 * that depth along d takes every point of the element out of it, i.e. depth ≥ p_E(d), the longest
 * chord of the cylinder along d from a point of element ∩ cylinder. A contact whose normal is
 * within twice the grouping angle of the element's (the same contact patch) must also reach
 * round.ownDepth, so that the patch's reported depth is never shallower than any of its elements'.
 * When none resolves it, round.samePatchReach is the largest of those patch contacts' depths
 * (+ the resolution): only that test depends on the element's depth.
 *
 * p_E(d) is bounded: the chord from X back along −d is at most support(−d) + d·X
 * (support(u) = max over the cylinder of u·P = C·u + (h/2)|v·u| + r√(1 − (v·u)²)), and X ranges
 * over the element, so p_E(d) ≤ support(−d) + min(max_V d·V, support(d)) = offset + min(max_V d·V, cap).
 */
function resolvedByReported(w: PendingWalls, m: number, round: WallRound, hf: Heightfield, contacts: ContactBuffer, start: number): boolean {
  const i = w.i[m], j = w.j[m], kind = w.kind[m];
  const H = hf.heights, c = hf.cols, kv = j * c + i;
  const x0 = hf.x0 + i * hf.dx, y0 = hf.y0 + j * hf.dy, x1 = x0 + hf.dx, y1 = y0 + hf.dy;
  const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + c], h3 = H[kv + c + 1];
  const hasV0 = kind !== ElementKind.UpperTriangle, hasV3 = kind !== ElementKind.LowerTriangle;
  const nx = w.normal[3 * m], ny = w.normal[3 * m + 1], nz = w.normal[3 * m + 2];
  const N = contacts.normal, D = contacts.depth, offsets = round.offset, caps = round.cap;
  const ownDepth = round.ownDepth, end = contacts.count;
  let samePatchReach = -Infinity;
  for (let k = start; k < end; k++) {
    const dx = N[3 * k], dy = N[3 * k + 1], dz = N[3 * k + 2];
    const depth = D[k] + CYLINDER_TERRAIN_DEPTH_RESOLUTION;
    if (dx * nx + dy * ny + dz * nz >= SAME_PATCH_COS) {
      if (depth >= ownDepth) return true;
      if (depth > samePatchReach) samePatchReach = depth;
      continue;
    }
    // top ≥ d·V1, so a contact that fails with d·V1 in its place fails: one vertex rules out most.
    const offset = offsets[k - start], cap = caps[k - start];
    const top1 = dx * x1 + dy * y0 + dz * h1;
    if (depth < offset + Math.min(top1, cap)) continue;
    let top = Math.max(top1, dx * x0 + dy * y1 + dz * h2);
    if (hasV0) top = Math.max(top, dx * x0 + dy * y0 + dz * h0);
    if (hasV3) top = Math.max(top, dx * x1 + dy * y1 + dz * h3);
    if (depth >= offset + Math.min(top, cap)) return true;
  }
  round.samePatchReach = samePatchReach;
  return false;
}

/**
 * Measures the deepest point of element m (frame f; the foot of A_L is not on it, see the header):
 * {point on a side, depth F} into w (point, contactKind; bound becomes the exact depth, state
 * WALL_MEASURED). Returns false when no point of the element is below its plane in the cylinder.
 */
function measureWall(hf: Heightfield, f: ElementFrame, w: PendingWalls, m: number, round: WallRound): boolean {
  const upper = f.kind === ElementKind.UpperTriangle;
  const sides = elementSides(f.kind);
  const H = hf.heights, c = hf.cols, kv = f.j * c + f.i;
  const side = round.side;
  let bestDepth = 0, bestX = 0, bestY = 0, bestZ = 0;
  for (let k = 0; k < sides.length; k++) {
    const e = sides[k];
    if (sideValue(e, upper, f.footU, f.footV) >= 0) continue;
    if (hf.edgeClass(f.i, f.j, e) === EdgeClass.Flat) continue;
    const u0 = SIDE_U0[e], v0 = SIDE_V0[e], u1 = SIDE_U1[e], v1 = SIDE_V1[e];
    const xa = f.ox + u0 * f.dx, ya = f.oy + v0 * f.dy, za = H[kv + v0 * c + u0];
    side.xa = xa; side.ya = ya; side.za = za;
    side.ex = f.ox + u1 * f.dx - xa; side.ey = f.oy + v1 * f.dy - ya; side.ez = H[kv + v1 * c + u1] - za;
    sideDepth(f, side);
    if (side.depth > bestDepth) {
      bestDepth = side.depth;
      bestX = xa + side.alpha * side.ex;
      bestY = ya + side.alpha * side.ey;
      bestZ = za + side.alpha * side.ez;
    }
  }
  if (!(bestDepth > 0)) return false;
  w.bound[m] = bestDepth;
  w.point[3 * m] = bestX;
  w.point[3 * m + 1] = bestY;
  w.point[3 * m + 2] = bestZ;
  w.contactKind[m] = f.sAU > 0 ? WheelContactKind.SideB : f.sBL > 0 ? WheelContactKind.BaseA : WheelContactKind.PointC;
  w.state[m] = WALL_MEASURED;
  return true;
}

/** Appends measured element m's wall contact {point, its normal, depth} to `out`; false if it did not fit (counted in out.overflow). */
function pushWall(out: ContactBuffer, w: PendingWalls, m: number): boolean {
  const k = out.reserve();
  if (k < 0) return false;
  const P = out.point, N = out.normal;
  P[3 * k] = w.point[3 * m]; P[3 * k + 1] = w.point[3 * m + 1]; P[3 * k + 2] = w.point[3 * m + 2];
  N[3 * k] = w.normal[3 * m]; N[3 * k + 1] = w.normal[3 * m + 1]; N[3 * k + 2] = w.normal[3 * m + 2];
  out.depth[k] = w.bound[m];
  out.kind[k] = w.contactKind[m];
  out.cellI[k] = w.i[m];
  out.cellJ[k] = w.j[m];
  out.feature[k] = w.kind[m];
  return true;
}

/**
 * max F(α) over α ∈ [0, 1] with X(α) = (xa, ya, za) + α·(ex, ey, ez) in the cylinder (header),
 * written to s.depth (0 when no point of the side is in the cylinder) with its maximiser s.alpha.
 */
export function sideDepth(f: ElementFrame, s: WallSide): void {
  const r = f.r, h = 2 * f.hh;
  const ex = s.ex, ey = s.ey, ez = s.ez;
  const px = s.xa - f.clx, py = s.ya - f.cly, pz = s.za - f.clz;
  const z0 = px * f.ax + py * f.ay + pz * f.az, zt = ex * f.ax + ey * f.ay + ez * f.az; // ζ
  const x0 = px * f.wx + py * f.wy + pz * f.wz, xt = ex * f.wx + ey * f.wy + ez * f.wz; // ξ
  const y0 = px * f.ux + py * f.uy + pz * f.uz, yt = ex * f.ux + ey * f.uy + ez * f.uz; // η
  s.depth = 0;
  s.alpha = 0;
  // The interval where X(α) is in the cylinder: 0 ≤ ζ ≤ h, then ξ² + η² ≤ r².
  let lo = 0, hi = 1;
  if (zt !== 0) {
    const ta = -z0 / zt, tb = (h - z0) / zt;
    lo = Math.max(lo, Math.min(ta, tb));
    hi = Math.min(hi, Math.max(ta, tb));
  } else if (z0 < 0 || z0 > h) {
    return;
  }
  const qa = xt * xt + yt * yt, qb = x0 * xt + y0 * yt, qc = x0 * x0 + y0 * y0 - r * r;
  if (qa > 0) {
    const disc = qb * qb - qa * qc;
    if (disc < 0) return;
    const sq = Math.sqrt(disc);
    lo = Math.max(lo, (-qb - sq) / qa);
    hi = Math.min(hi, (-qb + sq) / qa);
  } else if (qc > 0) {
    return;
  }
  if (!(lo <= hi)) return;
  // Candidates: the ends, the maximum of G, the crossings L = G.
  const cand = s.candidates;
  let n = 0;
  cand[n++] = lo;
  cand[n++] = hi;
  if (yt !== 0) {
    const yStar = -(yt > 0 ? xt : -xt) * r / Math.sqrt(xt * xt + yt * yt);
    const a = (yStar - y0) / yt;
    if (a > lo && a < hi) cand[n++] = a;
  }
  if (f.cos > 0 && f.sin > CYLINDER_TERRAIN_PARALLEL_SIN) {
    const tan = f.sin / f.cos;
    const l0 = x0 + tan * z0, lt = xt + tan * zt; // λ = ξ + ζ·tanθ
    const ca = yt * yt + lt * lt, cb = y0 * yt + l0 * lt, cc = y0 * y0 + l0 * l0 - r * r;
    if (ca > 0) {
      const disc = cb * cb - ca * cc;
      if (disc >= 0) {
        const sq = Math.sqrt(disc);
        for (let k = 0; k < 2; k++) {
          const a = (-cb + (k === 0 ? -sq : sq)) / ca;
          if (a > lo && a < hi) cand[n++] = a;
        }
      }
    }
  }
  // F at each (header): the cylinder's reach below the plane point, along −n; the first of equals
  // wins. A term whose divisor vanishes is no limit (not both: sin² + cos² = 1). Written without
  // an Infinity stand-in: V8 boxed the other branch's double on every evaluation of such a ternary.
  const cos = f.cos, sin = f.sin, hasL = cos > 0, hasG = sin > CYLINDER_TERRAIN_PARALLEL_SIN;
  let bestF = 0, bestA = 0;
  for (let k = 0; k < n; k++) {
    const a = cand[k];
    const z = z0 + a * zt, x = x0 + a * xt, y = y0 + a * yt;
    const rem = r * r - y * y;
    const G = hasG ? ((rem > 0 ? Math.sqrt(rem) : 0) - x) / sin : 0;
    let F = G;
    if (hasL) {
      const L = z / cos;
      F = !hasG || L < G ? L : G;
    }
    const d = F > 0 ? F : 0;
    if (k === 0 || d > bestF) { bestF = d; bestA = a; }
  }
  s.alpha = bestA;
  s.depth = bestF;
}
