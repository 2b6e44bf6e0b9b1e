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
 *  - elements that a reported contact (after the manifold reduction) resolves (wallIsResolved):
 *    moving the wheel by that contact's depth along its normal provably takes it out of the
 *    element, so the element's own deepest point adds nothing the solver needs (a face beside a
 *    lying wheel's contact line, a curb face under a barrel resting on the curb top);
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
import type { ContactBuffer } from '../contact';
import { CYLINDER_TERRAIN_DEPTH_RESOLUTION, MANIFOLD_GROUP_COS, CYLINDER_TERRAIN_PARALLEL_SIN } from '../../constants';

/** cos of twice the grouping angle (cos 2α = 2cos²α − 1): two members of one normal group are at most this far apart. */
export const SAME_PATCH_COS = 2 * MANIFOLD_GROUP_COS * MANIFOLD_GROUP_COS - 1;
import type { WheelContactKind } from '../contact';
import type { Heightfield } from '../../terrain/heightfield';
import { CellEdge, EdgeClass } from './edge-bend';
import { elementSides } from './case-b-side-trapezoid';
import type { ElementFrame } from './frame';

/** Cell-normalised (u, v) of each side's two vertices, by CellEdge: bottom, right, top, left, diagonal. */
const SIDE_U0 = [0, 1, 0, 0, 1] as const;
const SIDE_V0 = [0, 0, 1, 0, 0] as const;
const SIDE_U1 = [1, 1, 1, 0, 0] as const;
const SIDE_V1 = [0, 1, 1, 1, 1] as const;

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

/** Best point of the last sideDepth: its parameter along the side (written by sideDepth). */
interface SideBest {
  alpha: number;
}

/**
 * Adds the deepest point of the cylinder over element `f` when the foot of A_L lies outside it
 * (see the header): one contact {point on the side, depth F, the element normal} — unless one of
 * resolvedBy[resolvedFrom..] resolves the element at that depth (resolvedUpTo). Returns the
 * number of contacts that did not fit in `out` (0 or 1).
 */
export function elementWallContact(out: ContactBuffer, hf: Heightfield, f: ElementFrame, kind: WheelContactKind, best: SideBest, resolvedBy: ContactBuffer | null = null, resolvedFrom = 0): number {
  const upper = f.kind === 2;
  const sides = elementSides(f.kind);
  const H = hf.heights, c = hf.cols, kv = f.j * c + f.i;
  let bestDepth = 0, bestX = 0, bestY = 0, bestZ = 0;
  for (let k = 0; k < sides.length; k++) {
    const e = sides[k];
    if (sideValue(e, upper, f.footU, f.footV) >= 0) continue;
    const cls = hf.edgeClass(f.i, f.j, e);
    if (cls === EdgeClass.Flat) continue;
    const u0 = SIDE_U0[e], v0 = SIDE_V0[e], u1 = SIDE_U1[e], v1 = SIDE_V1[e];
    const xa = f.ox + u0 * f.dx, ya = f.oy + v0 * f.dy, za = H[kv + v0 * c + u0];
    const xb = f.ox + u1 * f.dx, yb = f.oy + v1 * f.dy, zb = H[kv + v1 * c + u1];
    const d = sideDepth(f, xa, ya, za, xb - xa, yb - ya, zb - za, best);
    if (d > bestDepth) {
      bestDepth = d;
      bestX = xa + best.alpha * (xb - xa);
      bestY = ya + best.alpha * (yb - ya);
      bestZ = za + best.alpha * (zb - za);
    }
  }
  if (!(bestDepth > 0)) return 0;
  if (resolvedBy !== null && resolvedUpTo(resolvedBy, resolvedFrom, hf, f, bestDepth)) return 0;
  return out.push(bestX, bestY, bestZ, f.nx, f.ny, f.nz, bestDepth, kind, f.i, f.j, f.kind) >= 0 ? 0 : 1;
}

/**
 * max F(α) over α ∈ [0, 1] with X(α) = (xa, ya, za) + α·(ex, ey, ez) in the cylinder (header);
 * 0 when no point of the side is in the cylinder. Writes the maximiser to best.alpha.
 */
export function sideDepth(f: ElementFrame, xa: number, ya: number, za: number, ex: number, ey: number, ez: number, best: SideBest): number {
  const r = f.r, h = 2 * f.hh;
  const px = xa - f.clx, py = ya - f.cly, pz = za - f.clz;
  const z0 = px * f.ax + py * f.ay + pz * f.az, zt = ex * f.ax + ey * f.ay + ez * f.az; // ζ
  const x0 = px * f.wx + py * f.wy + pz * f.wz, xt = ex * f.wx + ey * f.wy + ez * f.wz; // ξ
  const y0 = px * f.ux + py * f.uy + pz * f.uz, yt = ex * f.ux + ey * f.uy + ez * f.uz; // η
  // The interval where X(α) is in the cylinder: 0 ≤ ζ ≤ h, then ξ² + η² ≤ r².
  let lo = 0, hi = 1;
  if (zt !== 0) {
    const ta = -z0 / zt, tb = (h - z0) / zt;
    lo = Math.max(lo, Math.min(ta, tb));
    hi = Math.min(hi, Math.max(ta, tb));
  } else if (z0 < 0 || z0 > h) {
    return 0;
  }
  const qa = xt * xt + yt * yt, qb = x0 * xt + y0 * yt, qc = x0 * x0 + y0 * y0 - r * r;
  if (qa > 0) {
    const disc = qb * qb - qa * qc;
    if (disc < 0) return 0;
    const sq = Math.sqrt(disc);
    lo = Math.max(lo, (-qb - sq) / qa);
    hi = Math.min(hi, (-qb + sq) / qa);
  } else if (qc > 0) {
    return 0;
  }
  if (!(lo <= hi)) return 0;
  // Candidates: the ends, the maximum of G, the crossings L = G.
  let bestF = depthAt(f, z0, zt, x0, xt, y0, yt, lo), bestA = lo;
  let d = depthAt(f, z0, zt, x0, xt, y0, yt, hi);
  if (d > bestF) { bestF = d; bestA = hi; }
  if (yt !== 0) {
    const yStar = -(yt > 0 ? xt : -xt) * r / Math.sqrt(xt * xt + yt * yt);
    const a = (yStar - y0) / yt;
    if (a > lo && a < hi) {
      d = depthAt(f, z0, zt, x0, xt, y0, yt, a);
      if (d > bestF) { bestF = d; bestA = a; }
    }
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
          if (a > lo && a < hi) {
            d = depthAt(f, z0, zt, x0, xt, y0, yt, a);
            if (d > bestF) { bestF = d; bestA = a; }
          }
        }
      }
    }
  }
  best.alpha = bestA;
  return bestF;
}

/** F at α (header): the cylinder's reach below the plane point, along −n. */
function depthAt(f: ElementFrame, z0: number, zt: number, x0: number, xt: number, y0: number, yt: number, a: number): number {
  const z = z0 + a * zt, x = x0 + a * xt, y = y0 + a * yt;
  const L = f.cos > 0 ? z / f.cos : Infinity;
  const rem = f.r * f.r - y * y;
  const G = f.sin > CYLINDER_TERRAIN_PARALLEL_SIN ? ((rem > 0 ? Math.sqrt(rem) : 0) - x) / f.sin : Infinity;
  const F = L < G ? L : G;
  return F > 0 ? F : 0;
}

/**
 * True if one of contacts[start..] {normal d, depth} provably resolves element f: moving the
 * wheel by that depth along d takes every point of the element out of it, i.e. depth ≥ p_E(d),
 * the longest chord of the cylinder along d from a point of element ∩ cylinder. A contact whose
 * normal is within twice the grouping angle of the element's (the same contact patch) must also
 * reach the element's depth along its own normal (or a bound of it, wallDepthBound), so that the
 * patch's reported depth is never shallower than any of its elements'.
 *
 * p_E(d) is bounded: the chord from X back along −d is at most
 * support(−d) + d·X (support(u) = max over the cylinder of u·P = C·u + (h/2)|v·u| + r√(1 − (v·u)²)),
 * and X ranges over the element, so p_E(d) ≤ support(−d) + min(max_V d·V, support(d)).
 */
export function wallIsResolved(contacts: ContactBuffer, start: number, hf: Heightfield, f: ElementFrame): boolean {
  return resolvedUpTo(contacts, start, hf, f, wallDepthBound(hf, f));
}

/**
 * True if one of contacts[start..] with a normal within twice the grouping angle of n (the same
 * patch) is at least `ownDepth` deep (wallIsResolved's first test, without the frame).
 */
export function resolvedInPatch(contacts: ContactBuffer, start: number, nx: number, ny: number, nz: number, ownDepth: number): boolean {
  const N = contacts.normal;
  for (let k = start; k < contacts.count; k++) {
    if (N[3 * k] * nx + N[3 * k + 1] * ny + N[3 * k + 2] * nz >= SAME_PATCH_COS && contacts.depth[k] + CYLINDER_TERRAIN_DEPTH_RESOLUTION >= ownDepth) return true;
  }
  return false;
}

/**
 * An upper bound of the element's depth along its own normal, from its vertices in the frame's
 * coordinates (header): F = min(ζ/cosθ, (√(r² − η²) − ξ)/sinθ) is at most its two terms with
 * ζ at its largest, |η| and ξ at their smallest over the element (each is extreme at a vertex;
 * |η| is 0 if the element straddles η = 0), and at most s(A_L).
 */
export function wallDepthBound(hf: Heightfield, f: ElementFrame): number {
  const H = hf.heights, c = hf.cols, kv = f.j * c + f.i;
  let zMax = -Infinity, xMin = Infinity, yMin = Infinity, yMax = -Infinity;
  for (let m = 0; m < 4; m++) {
    const du = m & 1, dv = m >> 1;
    if ((m === 0 && f.kind === 2) || (m === 3 && f.kind === 1)) continue; // V0 not in the upper triangle, V3 not in the lower
    const px = f.ox + du * f.dx - f.clx, py = f.oy + dv * f.dy - f.cly, pz = H[kv + dv * c + du] - f.clz;
    const z = px * f.ax + py * f.ay + pz * f.az;
    const x = px * f.wx + py * f.wy + pz * f.wz;
    const y = px * f.ux + py * f.uy + pz * f.uz;
    if (z > zMax) zMax = z;
    if (x < xMin) xMin = x;
    if (y < yMin) yMin = y;
    if (y > yMax) yMax = y;
  }
  const yAbs = yMin > 0 ? yMin : yMax < 0 ? -yMax : 0;
  let bound = f.sAL;
  if (f.cos > 0) bound = Math.min(bound, zMax / f.cos);
  if (f.sin > CYLINDER_TERRAIN_PARALLEL_SIN) bound = Math.min(bound, (Math.sqrt(Math.max(0, f.r * f.r - yAbs * yAbs)) - xMin) / f.sin);
  return bound;
}

/**
 * True if one of contacts[start..] resolves element f (wallIsResolved), with `ownDepth` an upper
 * bound of (or exactly) the element's depth along its own normal.
 */
export function resolvedUpTo(contacts: ContactBuffer, start: number, hf: Heightfield, f: ElementFrame, ownDepth: number): boolean {
  const H = hf.heights, c = hf.cols, kv = f.j * c + f.i;
  const x0 = f.ox, x1 = f.ox + f.dx, y0 = f.oy, y1 = f.oy + f.dy;
  const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + c], h3 = H[kv + c + 1];
  const hasV0 = f.kind !== 2, hasV3 = f.kind !== 1;
  // Cylinder centre from the frame: C = C_L + (h/2)·a.
  const cx = f.clx + f.hh * f.ax, cy = f.cly + f.hh * f.ay, cz = f.clz + f.hh * f.az;
  const N = contacts.normal;
  for (let k = start; k < contacts.count; k++) {
    const dx = N[3 * k], dy = N[3 * k + 1], dz = N[3 * k + 2];
    const depth = contacts.depth[k] + CYLINDER_TERRAIN_DEPTH_RESOLUTION;
    if (dx * f.nx + dy * f.ny + dz * f.nz >= SAME_PATCH_COS) {
      if (depth >= ownDepth) return true;
      continue;
    }
    const va = dx * f.ax + dy * f.ay + dz * f.az;
    const reach = f.hh * Math.abs(va) + f.r * Math.sqrt(Math.max(0, 1 - va * va));
    const dc = dx * cx + dy * cy + dz * cz;
    let top = Math.max(dx * x1 + dy * y0 + dz * h1, dx * x0 + dy * y1 + dz * h2);
    if (hasV0) top = Math.max(top, dx * x0 + dy * y0 + dz * h0);
    if (hasV3) top = Math.max(top, dx * x1 + dy * y1 + dz * h3);
    if (depth >= reach - dc + Math.min(top, dc + reach)) return true;
  }
  return false;
}
