/**
 * Case B — the side surface lies on an element (Strashnov & Torgashev 2020, §IV.B, eqs. 9–10):
 * s(A_L) > 0 and s(A_U) > 0, the whole lowest side line A_L A_U is below the element plane.
 *
 * The line is projected onto the plane (foot(t) = A(t) + s(A(t))·n) and clipped against the
 * element with Cyrus–Beck; each end of the clipped piece is a contact {foot, s, n_P}. Because the
 * vertical projection of a plane onto xy is affine, clipping in the cell's normalised xy
 * coordinates (fx, fy) ∈ [0, 1]² is the same as clipping in the plane, and the element's sides
 * are the half-planes below (inside ⇔ value ≥ 0):
 *
 *     bottom fy      right 1 − fx      top 1 − fy      left fx
 *     diagonal, lower triangle 1 − fx − fy;  upper triangle fx + fy − 1
 *
 * Only feet inside the cylinder count: the element itself must touch the wheel there (the plane
 * of a steep curb face beside a wheel resting on the curb top has the wheel "behind" it but
 * never touches it). Both conditions are linear in t and join the clip (see clipLowestLine).
 *
 * A clip end that lies on an internal FLAT edge is not emitted: the line simply continues into
 * the coplanar neighbour, so that point is neither the deepest nor the end of the patch — it is
 * the paper's seam point that becomes a ghost manifold point when the wheel rolls across seams.
 * Ends on bent edges (convex or concave: at the foot of a curb the ground's depth is largest
 * right at the valley), on the grid border, and the ends of the line itself are kept.
 */
import type { ContactBuffer } from '../contact';
import { WheelContactKind } from '../contact';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import { CellEdge, EdgeClass } from './edge-bend';
import type { ElementFrame } from './frame';
const { Bottom: EDGE_BOTTOM, Right: EDGE_RIGHT, Top: EDGE_TOP, Left: EDGE_LEFT, Diagonal: EDGE_DIAGONAL } = CellEdge;

/**
 * Result of clipLowestLine: parameters on A_L→A_U and what cut them: an element side
 * (CellEdge), −1 for the line's own end, FOOT_LEAVES_CYLINDER where the foot leaves the wheel.
 */
export class LineClip {
  t0 = 0;
  t1 = 1;
  enterEdge = -1;
  exitEdge = -1;
}

/** lineClip code: the clip end is where the foot leaves the cylinder (a real end of the patch). */
export const FOOT_LEAVES_CYLINDER = -2;

/** Sides of each element kind, in polygon order (see edge-bend.ts for the names). */
const RECT_SIDES: readonly CellEdge[] = [EDGE_BOTTOM, EDGE_RIGHT, EDGE_TOP, EDGE_LEFT];
const LOWER_SIDES: readonly CellEdge[] = [EDGE_BOTTOM, EDGE_DIAGONAL, EDGE_LEFT];
const UPPER_SIDES: readonly CellEdge[] = [EDGE_RIGHT, EDGE_TOP, EDGE_DIAGONAL];

export function elementSides(kind: ElementKind): readonly CellEdge[] {
  return kind === ElementKind.Rectangle ? RECT_SIDES : kind === ElementKind.LowerTriangle ? LOWER_SIDES : UPPER_SIDES;
}

/**
 * Cyrus–Beck: clips the lowest side line's foot, from t = 0 (A_L) to t = 1 (A_U) — or only its
 * part below the plane, t ≤ s(A_L)/(s(A_L) − s(A_U)), with `belowOnly` — against the element.
 * Writes `clip`; returns false when nothing remains. The frame must be complete (its foot of A_L set).
 */
export function clipLowestLine(f: ElementFrame, belowOnly: boolean, clip: LineClip): boolean {
  const hh = f.hh, r = f.r;
  let tEnd = 1;
  if (belowOnly) {
    const denom = f.sAL - f.sAU;
    if (denom > 0 && f.sAL < denom) tEnd = f.sAL / denom;
  }
  // Feet of A_L (the frame's, frame.ts setLowestFoot: the same expression) and A_U in
  // cell-normalised coordinates.
  const sAL = f.sAL, sAU = f.sAU;
  const alx = f.clx + r * f.wx, aly = f.cly + r * f.wy;
  const fx0 = f.footU, fy0 = f.footV;
  const h2 = 2 * hh;
  const fx1 = (alx + h2 * f.ax + sAU * f.nx - f.ox) / f.dx;
  const fy1 = (aly + h2 * f.ay + sAU * f.ny - f.oy) / f.dy;
  // Whole foot segment on the outer side of one element side: nothing to clip. Most elements
  // under a wheel are off its lowest line; this rejects them before the divisions below.
  if ((fx0 < 0 && fx1 < 0) || (fy0 < 0 && fy1 < 0) || (fx0 > 1 && fx1 > 1) || (fy0 > 1 && fy1 > 1)) return false;
  const ddx = fx1 - fx0, ddy = fy1 - fy0;
  let t0 = 0, t1 = tEnd, enter = -1, exit = -1;
  // The foot must also lie inside the cylinder (the element itself touches the wheel there; a
  // steep curb face beside a wheel resting on the curb top has feet outside it). In the frame
  // (a, w, u) the foot is A(t) moved by s(t) along n = cosθ·a − sinθ·w, so with
  // s(t) = s(A_L) − h·cosθ·t both conditions are linear in t:
  //   radial  s(t)·sinθ ≤ 2r                         (the foot rises at most a diameter)
  //   axial   s(A_L)·cosθ + h·sin²θ·t ≤ h            (it stays below the upper base plane)
  const sin = f.sin, cos = f.cos;
  if (sin > 0) {
    const sMax = (2 * r) / sin;
    if (cos > 0) {
      const t = (sAL - sMax) / (h2 * cos);
      if (t > t0) { t0 = t; enter = FOOT_LEAVES_CYLINDER; }
    } else if (sAL > sMax) {
      return false;
    }
    const t = (h2 - sAL * cos) / (h2 * sin * sin);
    if (t < t1) { t1 = t; exit = FOOT_LEAVES_CYLINDER; }
  } else if (sAL * cos > h2) {
    return false;
  }
  // The element's sides as half-planes g(t) = g0 + t·dg ≥ 0 (see the header), unrolled per
  // element kind: this runs for every element under the wheel.
  const kind = f.kind;
  if (kind !== ElementKind.UpperTriangle) {
    // bottom fy ≥ 0 and left fx ≥ 0 (rectangle and lower triangle)
    if (ddy === 0) { if (fy0 < 0) return false; } else { const t = -fy0 / ddy; if (ddy > 0) { if (t > t0) { t0 = t; enter = EDGE_BOTTOM; } } else if (t < t1) { t1 = t; exit = EDGE_BOTTOM; } }
    if (ddx === 0) { if (fx0 < 0) return false; } else { const t = -fx0 / ddx; if (ddx > 0) { if (t > t0) { t0 = t; enter = EDGE_LEFT; } } else if (t < t1) { t1 = t; exit = EDGE_LEFT; } }
  }
  if (kind !== ElementKind.LowerTriangle) {
    // right 1 − fx ≥ 0 and top 1 − fy ≥ 0 (rectangle and upper triangle)
    if (ddx === 0) { if (fx0 > 1) return false; } else { const t = (1 - fx0) / ddx; if (ddx < 0) { if (t > t0) { t0 = t; enter = EDGE_RIGHT; } } else if (t < t1) { t1 = t; exit = EDGE_RIGHT; } }
    if (ddy === 0) { if (fy0 > 1) return false; } else { const t = (1 - fy0) / ddy; if (ddy < 0) { if (t > t0) { t0 = t; enter = EDGE_TOP; } } else if (t < t1) { t1 = t; exit = EDGE_TOP; } }
  }
  if (kind !== ElementKind.Rectangle) {
    // diagonal: lower 1 − fx − fy ≥ 0, upper fx + fy − 1 ≥ 0
    const sg = kind === ElementKind.LowerTriangle ? -1 : 1;
    const g0 = sg * (fx0 + fy0 - 1), dg = sg * (ddx + ddy);
    if (dg === 0) { if (g0 < 0) return false; } else { const t = -g0 / dg; if (dg > 0) { if (t > t0) { t0 = t; enter = EDGE_DIAGONAL; } } else if (t < t1) { t1 = t; exit = EDGE_DIAGONAL; } }
  }
  clip.t0 = t0; clip.t1 = t1; clip.enterEdge = enter; clip.exitEdge = exit;
  return t0 <= t1;
}

/** True if a clip end on side `e` (negative: the line's own end, or the foot leaving the wheel) should become a contact. */
export function clipEndIsReal(hf: Heightfield, f: ElementFrame, e: number): boolean {
  if (e < 0) return true;
  return hf.edgeClass(f.i, f.j, e as CellEdge) !== EdgeClass.Flat;
}

/** Pushes the contact at parameter t of the lowest line: {foot(t), s(t), n}. Returns false on overflow. */
export function pushLinePoint(out: ContactBuffer, f: ElementFrame, t: number, kind: WheelContactKind): boolean {
  const hh = f.hh, r = f.r;
  const s = f.sAL + t * (f.sAU - f.sAL);
  const l = 2 * hh * t;
  const px = f.clx + r * f.wx + l * f.ax + s * f.nx;
  const py = f.cly + r * f.wy + l * f.ay + s * f.ny;
  const pz = f.clz + r * f.wz + l * f.az + s * f.nz;
  const k = out.reserve();
  if (k < 0) return false;
  const P = out.point, N = out.normal;
  P[3 * k] = px; P[3 * k + 1] = py; P[3 * k + 2] = pz;
  N[3 * k] = f.nx; N[3 * k + 1] = f.ny; N[3 * k + 2] = f.nz;
  out.depth[k] = s;
  out.kind[k] = kind;
  out.cellI[k] = f.i;
  out.cellJ[k] = f.j;
  out.feature[k] = f.kind;
  return true;
}

/**
 * Case B contacts of one element (the frame must have s(A_L) > 0 and s(A_U) > 0). Returns the
 * number of contacts that did not fit in `out`.
 */
export function sideTrapezoidContacts(out: ContactBuffer, hf: Heightfield, f: ElementFrame, clip: LineClip): number {
  if (!clipLowestLine(f, false, clip)) return 0;
  let lost = 0;
  const { t0, t1, enterEdge, exitEdge } = clip;
  if (clipEndIsReal(hf, f, enterEdge) && !pushLinePoint(out, f, t0, WheelContactKind.SideB)) lost++;
  if (t1 > t0 && clipEndIsReal(hf, f, exitEdge) && !pushLinePoint(out, f, t1, WheelContactKind.SideB)) lost++;
  return lost;
}
