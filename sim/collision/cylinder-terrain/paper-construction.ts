/**
 * The paper's construction of one cylinder against one element plane, as geometry to draw
 * (Strashnov & Torgashev 2020, §IV, Figs. 6–8): which case the signs of s select, the base
 * ellipse of case A and the side trapezoid of case B. The manifold view draws it for the selected
 * wheel; the narrow phase never calls this (it works in the base disc's coordinates, see
 * case-a-base-ellipse.ts, and clips the lowest line, case-b-side-trapezoid.ts). Not a hot path:
 * it allocates its result.
 *
 * Conventions as in frame.ts: s(P) = k − P·n (> 0 below the plane), a = ±v oriented from the
 * lower base to the upper one (a·n = cosθ ≥ 0), w = (cosθ·a − n)/sinθ the down radial, u = a × w
 * (in the plane), C_L/C_U = C ∓ (h/2)a, A_{L,U} = C_{L,U} + r·w, B_L = C_L − r·w.
 *
 *   Case A (s(A_L) > 0, s(B_L) > 0, s(A_U) ≤ 0): the lower base disc projected along n onto the
 *     plane is an ellipse centred at C_L' = C_L + s(C_L)·n with semi-axes
 *       a_e = |C_L'A_L'| = r·cosθ  along ŵ' = (w + sinθ·n)/cosθ  (the projection of w), and
 *       b_e = r                    along u.
 *   Case B (s(A_L) > 0, s(A_U) > 0): the side cuts the plane in a trapezoid around the projected
 *     lowest line A_L'A_U' (A' = A + s(A)·n) with half-widths w_i = √(s_i(2r − s_i)), s_i = s(A_i)
 *     clamped to [0, 2r] (the half-chord of a circle of radius r cut at depth s), along u.
 *   Case C (s(A_L) > 0, s(B_L) ≤ 0, s(A_U) ≤ 0): one point, the foot A_L' of the deepest rim point.
 *
 * The trapezoid's widths are exact for a plane parallel to the axis (θ = 90°); for a tilted
 * axis the true section is a conic and the paper's trapezoid is its approximation, as in §IV.B.
 */
import { CYLINDER_TERRAIN_PARALLEL_SIN } from '../../constants';

type V3 = [number, number, number];

/** The cylinder: centre, unit axis, radius and height [m]. */
export interface ConstructionCylinder {
  center: readonly number[];
  axis: readonly number[];
  radius: number;
  height: number;
}

/** An element plane: upward unit normal n and constant k (s(P) = k − P·n). */
export interface ElementPlane {
  normal: V3;
  k: number;
}

export type PaperCase = 'A' | 'B' | 'C' | 'none';

export interface PaperConstruction {
  /** The case the signs of s(A_L), s(B_L), s(A_U) select ('none': s(A_L) ≤ 0, the cylinder is above the plane). */
  case: PaperCase;
  /** The frame: a (lower → upper base), w (down radial), u = a × w. */
  a: V3;
  w: V3;
  u: V3;
  /** [m] s at C_L, A_L, A_U, B_L. */
  sCL: number;
  sAL: number;
  sAU: number;
  sBL: number;
  /** Lowest rim points A_L, A_U and their feet on the plane A_L', A_U'. */
  AL: V3;
  AU: V3;
  ALfoot: V3;
  AUfoot: V3;
  /** Case A's ellipse: centre C_L', unit axes (major along the projection of w, minor along u), semi-axes [m]. */
  ellipse: { center: V3; axisW: V3; axisU: V3; semiW: number; semiU: number };
  /** Case B's trapezoid: corners A_L' − w_L·u, A_L' + w_L·u, A_U' + w_U·u, A_U' − w_U·u (a closed polygon), half-widths [m]. */
  trapezoid: { corners: V3[]; halfWidthL: number; halfWidthU: number };
}

const dot = (p: readonly number[], q: readonly number[]): number => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const cross = (p: readonly number[], q: readonly number[]): V3 => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
const axpy = (p: readonly number[], t: number, q: readonly number[]): V3 => [p[0] + t * q[0], p[1] + t * q[1], p[2] + t * q[2]];
function unit(p: V3, what: string): V3 {
  const l = Math.hypot(p[0], p[1], p[2]);
  if (!(l > 0) || !Number.isFinite(l)) throw new RangeError(`paperConstruction: ${what} has no direction`);
  return [p[0] / l, p[1] / l, p[2] / l];
}

/**
 * The plane of the element through vertices p0, p1, p2 (world xyz; any winding), its normal
 * pointing up (+z): the element planes of sim/terrain/heightfield.ts (rectangle V0V1V3V2: any
 * three of its corners; lower triangle V0V1V2; upper triangle V1V3V2).
 */
export function elementPlane(p0: readonly number[], p1: readonly number[], p2: readonly number[]): ElementPlane {
  let n = unit(cross([p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]], [p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]]), 'the element (its vertices are collinear)');
  if (n[2] < 0) n = [-n[0], -n[1], -n[2]];
  return { normal: n, k: dot(p0, n) };
}

/** The construction of cylinder `c` against `plane` (see the header). */
export function paperConstruction(c: ConstructionCylinder, plane: ElementPlane): PaperConstruction {
  const n = plane.normal;
  const s = (p: readonly number[]): number => plane.k - dot(p, n);
  const v = unit([c.axis[0], c.axis[1], c.axis[2]], 'the cylinder axis');
  const a: V3 = dot(v, n) >= 0 ? v : [-v[0], -v[1], -v[2]];
  const cos = Math.min(1, dot(a, n));
  const sin = Math.sqrt(Math.max(0, 1 - cos * cos));
  // w ⟂ a toward the plane: cosθ·a − n with its round-off along a removed; with the axis along n
  // (no such direction) any radial is lowest: take the cell's x edge, x − (x·a)a, as the paper does.
  const raw: V3 = [cos * a[0] - n[0], cos * a[1] - n[1], cos * a[2] - n[2]];
  const ra = dot(raw, a);
  const rawW: V3 = [raw[0] - ra * a[0], raw[1] - ra * a[1], raw[2] - ra * a[2]];
  const w: V3 = sin > CYLINDER_TERRAIN_PARALLEL_SIN && Math.hypot(rawW[0], rawW[1], rawW[2]) > CYLINDER_TERRAIN_PARALLEL_SIN
    ? unit(rawW, 'the down radial')
    : unit(cross(cross(a, [1, 0, 0]), a), 'the down radial');
  const u = cross(a, w);
  const r = c.radius, hh = c.height / 2;
  const CL = axpy(c.center, -hh, a), CU = axpy(c.center, hh, a);
  const AL = axpy(CL, r, w), AU = axpy(CU, r, w), BL = axpy(CL, -r, w);
  const sCL = s(CL), sAL = s(AL), sAU = s(AU), sBL = s(BL);
  const kase: PaperCase = !(sAL > 0) ? 'none' : sAU > 0 ? 'B' : sBL > 0 ? 'A' : 'C';
  const ALfoot = axpy(AL, sAL, n), AUfoot = axpy(AU, sAU, n);
  // ŵ' = (w − (w·n)n)/|…|: the projection of w on the plane (w·n = −sinθ, so |…| = cosθ).
  const wn = dot(w, n);
  const wp: V3 = [w[0] - wn * n[0], w[1] - wn * n[1], w[2] - wn * n[2]];
  const semiW = r * Math.hypot(wp[0], wp[1], wp[2]);
  const axisW: V3 = semiW > 0 ? unit(wp, 'the projected radial') : cross(n, u);
  const half = (sx: number): number => {
    const d = Math.min(2 * r, Math.max(0, sx));
    return Math.sqrt(d * (2 * r - d));
  };
  const wL = half(sAL), wU = half(sAU);
  return {
    case: kase,
    a, w, u,
    sCL, sAL, sAU, sBL,
    AL, AU, ALfoot, AUfoot,
    ellipse: { center: axpy(CL, sCL, n), axisW, axisU: u, semiW, semiU: r },
    trapezoid: { corners: [axpy(ALfoot, -wL, u), axpy(ALfoot, wL, u), axpy(AUfoot, wU, u), axpy(AUfoot, -wU, u)], halfWidthL: wL, halfWidthU: wU },
  };
}

/** `count` points around the ellipse of `pc` (world xyz), for drawing. */
export function ellipsePoints(pc: PaperConstruction, count: number): V3[] {
  const e = pc.ellipse;
  const out: V3[] = [];
  for (let k = 0; k < count; k++) {
    const t = (2 * Math.PI * k) / count;
    const cw = Math.cos(t) * e.semiW, su = Math.sin(t) * e.semiU;
    out.push([e.center[0] + cw * e.axisW[0] + su * e.axisU[0], e.center[1] + cw * e.axisW[1] + su * e.axisU[1], e.center[2] + cw * e.axisW[2] + su * e.axisU[2]]);
  }
  return out;
}
