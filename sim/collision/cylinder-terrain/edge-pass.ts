/**
 * Second pass — terrain edges and vertices poking into the cylinder (Strashnov & Torgashev
 * 2020, §IV.D, eqs. 13–14).
 *
 * The paper keeps the elements that met the cylinder without a face contact and, for their point
 * Q nearest to the lowest line, measures l1 = h/2 − |z_Q| (to the nearer base) and
 * l2 = r − r_Q (to the side): the contact is on the base (normal ∓v, depth l1) when l1 < l2 and
 * |v·n_P| > ε_v, else on the side (radial normal, depth l2). Two changes, both about where the
 * deepest edge point is and which edges may have one:
 *
 *  - Edges, not elements, are visited (each once, by the cell that owns it; see collide.ts), and
 *    the point taken on an edge is the one that pokes deepest, T = argmax min(l1, l2): for an
 *    edge that reaches the side first this is the edge point nearest the axis (l2 is concave
 *    along the edge and min(l1, l2) ≤ l2 ≤ l2(T)); otherwise, walking from that point toward
 *    z = 0, the first of the crossing l1 = l2 (a quadratic's root), z = 0 and the edge's end.
 *    The depth min(l1, l2) is the distance from T to the cylinder surface.
 *  - Only BENT edges count (edge-bend.ts). A flat or concave internal edge is never deeper than
 *    the faces next to it, and the paper's Ω_E test (skip Q on edges joining face-contact
 *    vertices) still lets seams two cells away from the contact line through on fine grids:
 *    those are the ghost contacts. Active edges (ridges, curbs, the grid border) get their own
 *    normal and kind 'edge'. Gently convex edges keep the adjacent face's normal (the one nearer
 *    the radial/axial direction), and are tested only where that normal could pull the wheel
 *    toward the point: elsewhere the faces' own contacts cover them (collide.ts, edgeMayAdd).
 *
 * Normals point out of the terrain into the cylinder: a side contact pushes the axis away from T
 * (n = (axis foot − T)/r_T), a base contact pushes the base away (n = −sign(z_T)·v).
 */
import {
  CYLINDER_TERRAIN_AXIS_PARALLEL_EPSILON,
  CYLINDER_TERRAIN_MAX_CELLS,
  GEOMETRIC_EPSILON,
  MANIFOLD_TIE_TOLERANCE,
} from '../../constants';
import type { ContactBuffer } from '../contact';
import { WheelContactKind } from '../contact';
import type { Heightfield } from '../../terrain/heightfield';
import { CELL_BOTTOM_SHIFT, CELL_DIAGONAL_SHIFT, CELL_LEFT_SHIFT, CELL_RECTANGLE_BIT } from '../../terrain/edge-class';
import type { CellCull } from './cell-cull';
import { cellPlaneNormalInto } from './cell-cull';
import { CellEdge, EdgeClass, edgeFeature } from './edge-bend';
import type { CylinderQuery } from './frame';
import { elementNormalInto } from './frame';

/**
 * State of the edge pass of one query (one per workspace): the last edgePoke's result, the
 * vertices already emitted and the cells whose upper element may meet the cylinder.
 */
export class EdgePass {
  /** The last edgePoke's edge (end points), its deepest point's parameter and depth, its end vertices in the query window. */
  x0 = NaN; y0 = NaN; z0 = NaN; x1 = NaN; y1 = NaN; z1 = NaN;
  t = NaN;
  depth = NaN;
  va = 0; vb = 0;
  /** edgeContact's scratch for the face normals on both sides of its edge: [n1 (owner element), n2 (neighbour)]. */
  readonly normals = new Float64Array(6);
  /**
   * Vertices already emitted as contacts in this query. A vertex poking into the cylinder is the
   * deepest point of every bent edge that ends there (up to six); the first edge in cell order
   * emits it, the others skip it — so the manifold has no duplicates and does not depend on which
   * edge happened to win a tie in the reduction (the face contacts of the elements around it do
   * not depend on this: they are measured per element). One stamp per vertex of the query's
   * window (the cell range plus its far row and column), compared with the query's own stamp:
   * nothing to clear between queries. A range of w × h ≤ MAX cells has (w + 2)(h + 2) ≤ 3·MAX + 6
   * window vertices (worst: h = 1).
   */
  readonly vertexStamp = new Uint32Array(3 * CYLINDER_TERRAIN_MAX_CELLS + 6);
  /**
   * Cells of this query whose upper element (upper triangle, or the rectangle) may meet the
   * cylinder (markUpperMeets), one per cell of the range (row-major, rangeWidth cells a row),
   * same stamp; and, valid where the stamp is this query's, whether the cylinder's centre is
   * above that element's plane (1) or not (0).
   */
  readonly upperStamp = new Uint32Array(CYLINDER_TERRAIN_MAX_CELLS);
  readonly upperAbove = new Uint8Array(CYLINDER_TERRAIN_MAX_CELLS);
  rangeWidth = 0;
  stamp = 0;
  windowI0 = 0;
  windowJ0 = 0;
  windowWidth = 0;
}

/**
 * Starts a query over cells i0..i1 × j0.. (at most CYLINDER_TERRAIN_MAX_CELLS of them, so the
 * window of vertices fits): forgets the emitted vertices.
 */
export function resetEdgePass(ep: EdgePass, i0: number, j0: number, i1: number): void {
  ep.windowI0 = i0;
  ep.windowJ0 = j0;
  ep.windowWidth = i1 - i0 + 2;
  ep.rangeWidth = i1 - i0 + 1;
  ep.stamp = (ep.stamp + 1) >>> 0;
  if (ep.stamp === 0) {
    ep.vertexStamp.fill(0);
    ep.upperStamp.fill(0);
    ep.stamp = 1;
  }
}

/** What the edge pass knows of a neighbour cell's upper element (upperMeets). */
export const UpperMeet = {
  /** Proved apart from the cylinder (or its cell dropped): none of its points is inside. */
  Apart: 0,
  /** May meet the cylinder (or not known: a cell outside the range). */
  Meets: 1,
  /** May meet it, and the cylinder's centre is above its plane (SCREEN_CENTRE_ABOVE). */
  CentreAbove: 2,
} as const;
export type UpperMeet = (typeof UpperMeet)[keyof typeof UpperMeet];

/**
 * Records that the upper element (upper triangle or rectangle) of cell (i, j), a cell of the
 * query's range, may meet the cylinder, and whether the cylinder's centre is above its plane:
 * its top and right edges are the bottom edge of cell (i, j + 1) and the left edge of cell
 * (i + 1, j), visited later (upperMeets).
 */
export function markUpperMeets(ep: EdgePass, i: number, j: number, centreAbove: boolean): void {
  const k = (j - ep.windowJ0) * ep.rangeWidth + (i - ep.windowI0);
  ep.upperStamp[k] = ep.stamp;
  ep.upperAbove[k] = centreAbove ? 1 : 0;
}

/**
 * The upper element of cell (i, j) as markUpperMeets recorded it: Apart if the cell is in the
 * query's range and was not recorded (not visited, or its upper element proved apart); Meets for
 * a cell left of or below the range (not known). Asked only for the cell below or to the left of
 * a cell of the range; cells are visited in cell order, so that cell is already decided.
 */
export function upperMeets(ep: EdgePass, i: number, j: number): UpperMeet {
  if (i < ep.windowI0 || j < ep.windowJ0) return UpperMeet.Meets;
  const k = (j - ep.windowJ0) * ep.rangeWidth + (i - ep.windowI0);
  if (ep.upperStamp[k] !== ep.stamp) return UpperMeet.Apart;
  return ep.upperAbove[k] !== 0 ? UpperMeet.CentreAbove : UpperMeet.Meets;
}

/**
 * Deepest poke of the terrain edge from vertex (ia, ja) to (ib, jb) into the cylinder:
 * remembers it in `ep` for edgeContact and returns whether it is inside (depth min(l1, l2) > 0).
 */
export function edgePoke(ep: EdgePass, q: CylinderQuery, hf: Heightfield, ia: number, ja: number, ib: number, jb: number): boolean {
  const x0 = q.x0 + ia * q.dx, y0 = q.y0 + ja * q.dy, z0 = hf.heights[ja * hf.cols + ia];
  const x1 = q.x0 + ib * q.dx, y1 = q.y0 + jb * q.dy, z1 = hf.heights[jb * hf.cols + ib];
  ep.x0 = x0; ep.y0 = y0; ep.z0 = z0;
  ep.x1 = x1; ep.y1 = y1; ep.z1 = z1;
  ep.va = (ja - ep.windowJ0) * ep.windowWidth + (ia - ep.windowI0);
  ep.vb = (jb - ep.windowJ0) * ep.windowWidth + (ib - ep.windowI0);
  const vx = q.vx, vy = q.vy, vz = q.vz;
  const px = x0 - q.cx, py = y0 - q.cy, pz = z0 - q.cz;
  const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
  const za = px * vx + py * vy + pz * vz;
  const dzl = dx * vx + dy * vy + dz * vz;
  const hh = q.hh, r = q.r;
  // Both ends beyond the same base plane: the whole edge is outside the slab |z| ≤ h/2.
  if ((za > hh && za + dzl > hh) || (za < -hh && za + dzl < -hh)) return false;
  // Radial parts ρ(t) = ρ0 + t·dρ (components ⟂ v); |ρ(t)|² = A t² + 2B t + C.
  const r0x = px - za * vx, r0y = py - za * vy, r0z = pz - za * vz;
  const drx = dx - dzl * vx, dry = dy - dzl * vy, drz = dz - dzl * vz;
  const A = drx * drx + dry * dry + drz * drz;
  const B = r0x * drx + r0y * dry + r0z * drz;
  const C = r0x * r0x + r0y * r0y + r0z * r0z;
  // t2: the edge point nearest the axis line (the maximum of l2 = r − ρ), −B/A clamped to
  // [0, 1]. Most edges end there (a vertex poking in): the clamp is decided on the signs
  // first, and only an interior t2 pays for the division (the values are those of clamping).
  let t2: number, rho2: number;
  if (B >= 0 || !(A > 0)) {
    t2 = 0;
    rho2 = C;
  } else if (-B >= A) {
    t2 = 1;
    rho2 = (A + 2 * B) + C;
  } else {
    t2 = -B / A;
    rho2 = (A * t2 + 2 * B) * t2 + C;
  }
  if (rho2 >= r * r) return false; // no edge point within the radius
  const l2 = r - Math.sqrt(rho2);
  const zt = za + t2 * dzl;
  const l1 = hh - (zt < 0 ? -zt : zt);
  if (l1 >= l2) {
    ep.t = t2;
    ep.depth = l2;
    return vertexIsNew(ep, t2 === 0 ? 0 : t2 === 1 ? 1 : -1);
  }
  // Base-limited (l1 < l2 at t2). f = min(l1, l2) with l1 = h/2 − |z(t)| (concave, peak where
  // z = 0) and l2 = r − ρ(t) (concave, peak at t2). Away from t2 on the side where |z| grows
  // both fall, so f does too. Toward z = 0, l1 rises and l2 falls: f = l1 rises until the first
  // of (a) the crossing l1 = l2, (b) z = 0 (past it l1 falls again) or (c) the edge's end. So the
  // maximum is at the crossing if one lies before the nearer of (b), (c), else at that point.
  // The crossing: ρ(t) = (r − h/2) + σ·z(t) with σ = sign z(t2), i.e.
  // (A − G1²) t² + 2(B − G0·G1) t + (C − G0²) = 0 with G0 = r − h/2 + σ·z_a, G1 = σ·dz.
  // A maximum within the tie tolerance of f(t2) stays at t2, the point nearest the axis (on a
  // plateau, an edge parallel to a base, the point then does not depend on round-off).
  let bestT = t2, bestF = l1;
  if (dzl !== 0) {
    const sg = zt < 0 ? -1 : 1;
    const up = -sg * dzl > 0; // |z| shrinks as t grows
    const tz = -za / dzl;
    const tEnd = up ? (tz < 1 ? tz : 1) : (tz > 0 ? tz : 0);
    if (up ? tEnd > t2 : tEnd < t2) {
      // g = l2 − l1 falls from t2 to tEnd: the crossing exists iff g(tEnd) < 0.
      const zE = za + tEnd * dzl;
      const qE = (A * tEnd + 2 * B) * tEnd + C;
      const l1E = hh - (zE < 0 ? -zE : zE), l2E = r - Math.sqrt(qE > 0 ? qE : 0);
      let t = tEnd;
      if (l2E < l1E) {
        const G0 = r - hh + sg * za, G1 = sg * dzl;
        const qa = A - G1 * G1, qb = B - G0 * G1, qc = C - G0 * G0;
        // The root between t2 and tEnd (g changes sign there once); clamped into the interval
        // against round-off.
        if (Math.abs(qa) > GEOMETRIC_EPSILON * GEOMETRIC_EPSILON) {
          const disc = qb * qb - qa * qc;
          const sq = Math.sqrt(disc > 0 ? disc : 0);
          const ta = (-qb - sq) / qa, tb = (-qb + sq) / qa;
          const lo = up ? t2 : tEnd, hi = up ? tEnd : t2;
          // Of the two roots, the one inside [lo, hi]; if both are, the nearer to t2 (the other
          // is then one of ρ = −(G0 + G1·t), where l1 = r + ρ > l2: past the crossing).
          const aIn = ta >= lo && ta <= hi, bIn = tb >= lo && tb <= hi;
          t = aIn && (!bIn || Math.abs(ta - t2) <= Math.abs(tb - t2)) ? ta : bIn ? tb : Math.abs(ta - t2) <= Math.abs(tb - t2) ? ta : tb;
        } else {
          t = qb !== 0 ? -qc / (2 * qb) : tEnd;
        }
        t = up ? (t < t2 ? t2 : t > tEnd ? tEnd : t) : (t > t2 ? t2 : t < tEnd ? tEnd : t);
      }
      const z = za + t * dzl;
      const qq = (A * t + 2 * B) * t + C;
      const f1 = hh - (z < 0 ? -z : z), f2 = r - Math.sqrt(qq > 0 ? qq : 0);
      const f = f1 < f2 ? f1 : f2;
      if (f > bestF + MANIFOLD_TIE_TOLERANCE) {
        bestT = t;
        bestF = f;
      }
    }
  }
  ep.t = bestT;
  ep.depth = bestF;
  return bestF > 0 && vertexIsNew(ep, bestT === 0 ? 0 : bestT === 1 ? 1 : -1);
}

/**
 * A poke at an end of the edge (`end` 0 or 1; −1: inside the edge) is a terrain vertex; the first
 * edge in cell order that finds it records it, the others skip it (edgePoke returns false for
 * them, before the caller builds face normals for a contact that would not be emitted). An
 * integer argument: a double passed to a call that is not inlined is boxed on the heap.
 */
function vertexIsNew(ep: EdgePass, end: number): boolean {
  if (end < 0) return true;
  const v = end === 0 ? ep.va : ep.vb;
  if (ep.vertexStamp[v] === ep.stamp) return false;
  ep.vertexStamp[v] = ep.stamp;
  return true;
}

/** Vertex offsets (i, j) of each CellEdge's two ends, indexed by CellEdge: bottom, right, top, left, diagonal. */
const EDGE_A_DI = [0, 1, 0, 0, 1] as const, EDGE_A_DJ = [0, 0, 1, 0, 0] as const;
const EDGE_B_DI = [1, 1, 1, 0, 0] as const, EDGE_B_DJ = [0, 1, 1, 1, 1] as const;

/**
 * The edge pass for edge `edge` of cell (i, j), whose Heightfield.cellBits are `bits`: its
 * deepest poke (edgePoke) and, if it pokes in, its contact, appended to `out` with the face
 * normals of the elements on both sides: this cell's as its screen computed them (`cull`: the
 * cylinder dips below each element an edge is tested for), the neighbour's from the heights.
 * Returns 1 if the contact did not fit in `out`, else 0.
 */
export function edgeContact(out: ContactBuffer, hf: Heightfield, ep: EdgePass, q: CylinderQuery, cull: CellCull, i: number, j: number, edge: CellEdge, bits: number): number {
  if (!edgePoke(ep, q, hf, i + EDGE_A_DI[edge], j + EDGE_A_DJ[edge], i + EDGE_B_DI[edge], j + EDGE_B_DJ[edge])) return 0;
  const depth = ep.depth;
  if (!(depth > 0)) return 0;
  // n1: the owner element's unit normal; n2: the neighbour's (only a gently convex edge uses it).
  const e = ep.normals;
  let active: boolean;
  if (edge === CellEdge.Bottom) {
    active = ((bits >> CELL_BOTTOM_SHIFT) & 3) === EdgeClass.Active;
    cellPlaneNormalInto(e, 0, cull, 0);
    if (j > 0 && !active) elementNormalInto(e, 3, hf, i, j - 1, !hf.cellIsRectangle(i, j - 1));
  } else if (edge === CellEdge.Left) {
    active = ((bits >> CELL_LEFT_SHIFT) & 3) === EdgeClass.Active;
    cellPlaneNormalInto(e, 0, cull, 0);
    if (i > 0 && !active) elementNormalInto(e, 3, hf, i - 1, j, !hf.cellIsRectangle(i - 1, j));
  } else if (edge === CellEdge.Diagonal) {
    active = ((bits >> CELL_DIAGONAL_SHIFT) & 3) === EdgeClass.Active;
    cellPlaneNormalInto(e, 0, cull, 0);
    if (!active) cellPlaneNormalInto(e, 3, cull, 1);
  } else {
    // Grid border (top row, right column): active; the element it bounds.
    active = true;
    cellPlaneNormalInto(e, 0, cull, (bits & CELL_RECTANGLE_BIT) !== 0 ? 0 : 1);
  }
  const n1x = e[0], n1y = e[1], n1z = e[2];
  const x0 = ep.x0, y0 = ep.y0, z0 = ep.z0, x1 = ep.x1, y1 = ep.y1, z1 = ep.z1;
  const t = ep.t;
  const tx = x0 + t * (x1 - x0), ty = y0 + t * (y1 - y0), tz = z0 + t * (z1 - z0);
  const px = tx - q.cx, py = ty - q.cy, pz = tz - q.cz;
  const zt = px * q.vx + py * q.vy + pz * q.vz;
  const rx = px - zt * q.vx, ry = py - zt * q.vy, rz = pz - zt * q.vz;
  const rho = Math.sqrt(rx * rx + ry * ry + rz * rz);
  const l1 = q.hh - (zt < 0 ? -zt : zt);
  const l2 = q.r - rho;
  const vn = q.vx * n1x + q.vy * n1y + q.vz * n1z;
  let nx: number, ny: number, nz: number;
  let kind: WheelContactKind;
  // l1 = l2 (within round-off) is common: the deepest point of a base-limited edge is often on
  // the rim, where both are equal; the side wins the tie so the kind does not flip with round-off.
  if (l1 < l2 - MANIFOLD_TIE_TOLERANCE && (vn < 0 ? -vn : vn) > CYLINDER_TERRAIN_AXIS_PARALLEL_EPSILON) {
    // Base contact (eq. 13): push the base away from T along the axis. T midway between the
    // bases (|z_T| within round-off of 0) is a tie: take the base whose normal leaves the terrain
    // (independent of the sign the caller gave the axis).
    const sg = zt > MANIFOLD_TIE_TOLERANCE ? -1 : zt < -MANIFOLD_TIE_TOLERANCE ? 1 : vn >= 0 ? 1 : -1;
    nx = sg * q.vx; ny = sg * q.vy; nz = sg * q.vz;
    kind = WheelContactKind.BaseA;
  } else if (rho > GEOMETRIC_EPSILON) {
    // Side contact (eq. 14): push the axis away from T.
    nx = -rx / rho; ny = -ry / rho; nz = -rz / rho;
    kind = WheelContactKind.SideB;
  } else {
    // T on the axis: no radial direction; the face normal is the only meaningful one.
    nx = n1x; ny = n1y; nz = n1z;
    kind = WheelContactKind.SideB;
  }
  if (active) {
    kind = WheelContactKind.EdgeVertex;
  } else {
    // Gently convex: the adjacent face whose normal is nearer the geometric one — unless that
    // face normal would pull the wheel toward T (n·(C − T) ≤ 0: two steep faces, e.g. where
    // curbs meet, with the wheel above and behind them); then the geometric normal stays.
    const n2x = e[3], n2y = e[4], n2z = e[5];
    const d1 = nx * n1x + ny * n1y + nz * n1z;
    const d2 = nx * n2x + ny * n2y + nz * n2z;
    const fx = d1 >= d2 ? n1x : n2x, fy = d1 >= d2 ? n1y : n2y, fz = d1 >= d2 ? n1z : n2z;
    if (fx * -px + fy * -py + fz * -pz > 0) {
      nx = fx; ny = fy; nz = fz;
    } else {
      kind = WheelContactKind.EdgeVertex;
    }
  }
  const k = out.reserve();
  if (k < 0) return 1;
  const P = out.point, N = out.normal;
  P[3 * k] = tx; P[3 * k + 1] = ty; P[3 * k + 2] = tz;
  N[3 * k] = nx; N[3 * k + 1] = ny; N[3 * k + 2] = nz;
  out.depth[k] = depth;
  out.kind[k] = kind;
  out.cellI[k] = i;
  out.cellJ[k] = j;
  out.feature[k] = edgeFeature(edge);
  return 0;
}
