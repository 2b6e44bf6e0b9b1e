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
 *
 * The section of the cylinder by the plane (the paper's trapezoid KLMN, Fig. 8) is used as the
 * gate of the second pass: only elements whose polygon meets it can have edges inside the
 * cylinder. The paper's trapezoid is not conservative (the section's sides bulge: the chord
 * half-width √(ρ(2r − ρ)) is concave along the line), so the gate uses the bounding rectangle:
 * half-width W = chord at the deepest cross-section, extended along the line by 2r·cosθ (how far
 * a tilted base disc's projection reaches past A_L', A_U'). SAT: 2 rectangle axes + the element's
 * 2 or 3 side normals.
 */
import { CYLINDER_TERRAIN_PARALLEL_SIN } from '../../constants';
import type { ContactBuffer } from '../contact';
import { WheelContactKind } from '../contact';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import { CellEdge, EdgeClass, cellEdgeClass } from './edge-bend';
import type { ElementFrame } from './frame';

/**
 * Result of the last clipLowestLine: parameters on A_L→A_U and what cut them: an element side
 * (CellEdge), −1 for the line's own end, FOOT_LEAVES_CYLINDER where the foot leaves the wheel.
 */
export const lineClip = { t0: 0, t1: 1, enterEdge: -1, exitEdge: -1 };

/** lineClip code: the clip end is where the foot leaves the cylinder (a real end of the patch). */
export const FOOT_LEAVES_CYLINDER = -2;

/** Sides of each element kind, in polygon order (see edge-bend.ts for the names). */
const RECT_SIDES: readonly CellEdge[] = [CellEdge.Bottom, CellEdge.Right, CellEdge.Top, CellEdge.Left];
const LOWER_SIDES: readonly CellEdge[] = [CellEdge.Bottom, CellEdge.Diagonal, CellEdge.Left];
const UPPER_SIDES: readonly CellEdge[] = [CellEdge.Right, CellEdge.Top, CellEdge.Diagonal];

export function elementSides(kind: ElementKind): readonly CellEdge[] {
  return kind === ElementKind.Rectangle ? RECT_SIDES : kind === ElementKind.LowerTriangle ? LOWER_SIDES : UPPER_SIDES;
}

/**
 * Cyrus–Beck: clips the lowest side line's foot, from t = 0 (A_L) to t = 1 (A_U) — or only its
 * part below the plane, t ≤ s(A_L)/(s(A_L) − s(A_U)), with `belowOnly` — against the element.
 * Writes lineClip; returns false when nothing remains.
 */
export function clipLowestLine(f: ElementFrame, belowOnly: boolean): boolean {
  const hh = f.hh, r = f.r;
  let tEnd = 1;
  if (belowOnly) {
    const denom = f.sAL - f.sAU;
    if (denom > 0 && f.sAL < denom) tEnd = f.sAL / denom;
  }
  // Feet of A_L and A_U in cell-normalised coordinates.
  const sAL = f.sAL, sAU = f.sAU;
  const alx = f.clx + r * f.wx, aly = f.cly + r * f.wy;
  const fx0 = (alx + sAL * f.nx - f.ox) / f.dx;
  const fy0 = (aly + sAL * f.ny - f.oy) / f.dy;
  const h2 = 2 * hh;
  const fx1 = (alx + h2 * f.ax + sAU * f.nx - f.ox) / f.dx;
  const fy1 = (aly + h2 * f.ay + sAU * f.ny - f.oy) / f.dy;
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
    if (ddy === 0) { if (fy0 < 0) return false; } else { const t = -fy0 / ddy; if (ddy > 0) { if (t > t0) { t0 = t; enter = CellEdge.Bottom; } } else if (t < t1) { t1 = t; exit = CellEdge.Bottom; } }
    if (ddx === 0) { if (fx0 < 0) return false; } else { const t = -fx0 / ddx; if (ddx > 0) { if (t > t0) { t0 = t; enter = CellEdge.Left; } } else if (t < t1) { t1 = t; exit = CellEdge.Left; } }
  }
  if (kind !== ElementKind.LowerTriangle) {
    // right 1 − fx ≥ 0 and top 1 − fy ≥ 0 (rectangle and upper triangle)
    if (ddx === 0) { if (fx0 > 1) return false; } else { const t = (1 - fx0) / ddx; if (ddx < 0) { if (t > t0) { t0 = t; enter = CellEdge.Right; } } else if (t < t1) { t1 = t; exit = CellEdge.Right; } }
    if (ddy === 0) { if (fy0 > 1) return false; } else { const t = (1 - fy0) / ddy; if (ddy < 0) { if (t > t0) { t0 = t; enter = CellEdge.Top; } } else if (t < t1) { t1 = t; exit = CellEdge.Top; } }
  }
  if (kind !== ElementKind.Rectangle) {
    // diagonal: lower 1 − fx − fy ≥ 0, upper fx + fy − 1 ≥ 0
    const sg = kind === ElementKind.LowerTriangle ? -1 : 1;
    const g0 = sg * (fx0 + fy0 - 1), dg = sg * (ddx + ddy);
    if (dg === 0) { if (g0 < 0) return false; } else { const t = -g0 / dg; if (dg > 0) { if (t > t0) { t0 = t; enter = CellEdge.Diagonal; } } else if (t < t1) { t1 = t; exit = CellEdge.Diagonal; } }
  }
  lineClip.t0 = t0; lineClip.t1 = t1; lineClip.enterEdge = enter; lineClip.exitEdge = exit;
  return t0 <= t1;
}

/** True if a clip end on side `e` (negative: the line's own end, or the foot leaving the wheel) should become a contact. */
export function clipEndIsReal(hf: Heightfield, f: ElementFrame, e: number): boolean {
  if (e < 0) return true;
  return cellEdgeClass(hf, f.i, f.j, e as CellEdge) !== EdgeClass.Flat;
}

/**
 * Pushes the contact at the start (end = 0) or end (1) of the last clip: {foot(t), s(t), n}.
 * Returns false on overflow.
 */
export function pushLinePoint(out: ContactBuffer, f: ElementFrame, end: number, kind: WheelContactKind): boolean {
  const t = end === 0 ? lineClip.t0 : lineClip.t1;
  const hh = f.hh, r = f.r;
  const s = f.sAL + t * (f.sAU - f.sAL);
  const l = 2 * hh * t;
  const px = f.clx + r * f.wx + l * f.ax + s * f.nx;
  const py = f.cly + r * f.wy + l * f.ay + s * f.ny;
  const pz = f.clz + r * f.wz + l * f.az + s * f.nz;
  return out.push(px, py, pz, f.nx, f.ny, f.nz, s, kind, f.i, f.j, f.kind) >= 0;
}

/**
 * Case B contacts of one element (the frame must have s(A_L) > 0 and s(A_U) > 0). Returns the
 * number of contacts that did not fit in `out`.
 */
export function sideTrapezoidContacts(out: ContactBuffer, hf: Heightfield, f: ElementFrame): number {
  if (!clipLowestLine(f, false)) return 0;
  let lost = 0;
  const { t0, t1, enterEdge, exitEdge } = lineClip;
  if (clipEndIsReal(hf, f, enterEdge) && !pushLinePoint(out, f, 0, WheelContactKind.SideB)) lost++;
  if (t1 > t0 && clipEndIsReal(hf, f, exitEdge) && !pushLinePoint(out, f, 1, WheelContactKind.SideB)) lost++;
  return lost;
}

/**
 * Second-pass gate (SAT): can the element's polygon meet the cylinder's section by its plane?
 * False means no point of the element — in particular none of its edges — is inside the
 * cylinder. Conservative (may say true for a near miss, never false for a hit).
 */
export function sectionOverlapsElement(f: ElementFrame): boolean {
  const hh = f.hh, r = f.r;
  if (f.sin <= CYLINDER_TERRAIN_PARALLEL_SIN) return true; // upright: the section is the whole base disc; let the edge test decide
  const sAL = f.sAL, sAU = f.sAU;
  // Part of the line below the plane: t ∈ [0, tEnd].
  const tEnd = sAU > 0 ? 1 : sAL / (sAL - sAU);
  // Chord half-width at the deepest cross-section (depth ρ measured along −w inside the disc).
  const rho = sAL / f.sin;
  const W = rho >= r ? r : Math.sqrt(rho * (2 * r - rho));
  const ext = 2 * r * f.cos;
  // In-plane unit direction of the line, dir = (a − cosθ n)/sinθ.
  const inv = 1 / f.sin;
  const dirx = (f.ax - f.cos * f.nx) * inv, diry = (f.ay - f.cos * f.ny) * inv;
  const alx = f.clx + r * f.wx + sAL * f.nx, aly = f.cly + r * f.wy + sAL * f.ny;
  const len = 2 * hh * tEnd * f.sin; // in-plane length of the foot segment: |d foot/dt| = 2h·sinθ
  // Rectangle corners in cell-normalised xy: start/end ± W·u.
  const sx0 = alx - ext * dirx, sy0 = aly - ext * diry;
  const L = len + 2 * ext;
  const ex = L * dirx, ey = L * diry; // along
  const wx = W * f.ux, wy = W * f.uy; // across (u ⟂ n: in-plane)
  const idx = 1 / f.dx, idy = 1 / f.dy;
  const p0x = (sx0 - wx - f.ox) * idx, p0y = (sy0 - wy - f.oy) * idy;
  const p1x = (sx0 + wx - f.ox) * idx, p1y = (sy0 + wy - f.oy) * idy;
  const p2x = p1x + ex * idx, p2y = p1y + ey * idy;
  const p3x = p0x + ex * idx, p3y = p0y + ey * idy;
  // Axes x and y (the cell's sides).
  if (Math.max(p0x, p1x, p2x, p3x) < 0 || Math.min(p0x, p1x, p2x, p3x) > 1) return false;
  if (Math.max(p0y, p1y, p2y, p3y) < 0 || Math.min(p0y, p1y, p2y, p3y) > 1) return false;
  // Diagonal axis (1, 1) for triangles: lower has fx + fy ∈ [0, 1], upper [1, 2].
  if (f.kind !== ElementKind.Rectangle) {
    const q0 = p0x + p0y, q1 = p1x + p1y, q2 = p2x + p2y, q3 = p3x + p3y;
    const lo = Math.min(q0, q1, q2, q3), hi = Math.max(q0, q1, q2, q3);
    if (f.kind === ElementKind.LowerTriangle ? lo > 1 : hi < 1) return false;
  }
  // The rectangle's own axes (normals of its sides in normalised xy).
  return overlapOnAxis(f.kind, p0x, p0y, p1x - p0x, p1y - p0y, ex * idx, ey * idy) &&
    overlapOnAxis(f.kind, p0x, p0y, ex * idx, ey * idy, p1x - p0x, p1y - p0y);
}

/**
 * SAT on the normal of parallelogram side `e` (the other side is `o`): the parallelogram spans
 * [0, n·o] (or [n·o, 0]) from p0 on that axis; the element's vertices must reach into it.
 */
function overlapOnAxis(kind: ElementKind, p0x: number, p0y: number, ex: number, ey: number, ox: number, oy: number): boolean {
  const nx = -ey, ny = ex;
  const span = nx * ox + ny * oy;
  const lo = span < 0 ? span : 0, hi = span < 0 ? 0 : span;
  // Element vertices (normalised coordinates) projected relative to p0; a triangle repeats one.
  const d00 = -nx * p0x - ny * p0y; // vertex (0, 0)
  const d10 = d00 + nx; // (1, 0)
  const d01 = d00 + ny; // (0, 1)
  const d11 = d00 + nx + ny; // (1, 1)
  const a = kind === ElementKind.UpperTriangle ? d11 : d00;
  const b = kind === ElementKind.LowerTriangle ? d00 : d11;
  const vmin = Math.min(a, b, d10, d01);
  const vmax = Math.max(a, b, d10, d01);
  return !(vmax < lo || vmin > hi);
}
