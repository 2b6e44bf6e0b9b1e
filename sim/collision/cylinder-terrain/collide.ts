/**
 * Analytic cylinder (wheel) vs regular-grid terrain — the engine entry point. Strashnov &
 * Torgashev 2020, "Collision detection algorithms of bounding cylinders with terrain model"
 * (seed 002; restated in shared/seeds/README.md). Pipeline, one file per stage:
 *
 *   1. broad phase (here, §III): the cylinder's AABB, per axis C_k ± ((h/2)|v_k| + r√(1 − v_k²));
 *      its cell range; H_min/H_max over the range from the heightfield's min/max pyramid;
 *      H_max ≤ z_min → no contact; H_max − H_min < ε_H → flat-patch.ts (exact cylinder–plane).
 *   2. cell-cull.ts: a per-cell bound (a cell is skipped unless some point of the cylinder below
 *      the cell's highest corner can lie over it) and, per element, whether the cylinder dips
 *      below its plane at all. Both only drop elements that cannot meet the cylinder (proofs
 *      there).
 *   3. narrow phase per element (§IV): the exact frame (frame.ts) and a case by the signs of
 *      s(A_L), s(A_U), s(B_L):
 *        s(A_L) ≤ 0          cylinder above the plane: nothing, and the element's edges are out;
 *        s(A_U) > 0          case B, case-b-side-trapezoid.ts (line clip, Cyrus–Beck);
 *        s(B_L) > 0          case A, case-a-base-ellipse.ts;
 *        otherwise           case C, case-c-single-point.ts;
 *      and, when the foot of A_L (the cylinder's deepest point w.r.t. the plane) is not on the
 *      element, the element's own deepest point on its sides, element-walls.ts (issue #12).
 *   4. second pass (§IV.D), edge-pass.ts: each bent edge of an element that the cylinder dips
 *      below is tested for poking into the base or side. Ownership, so each edge is visited once:
 *      cell (i, j) owns its bottom and left edges and its diagonal; the top row and right column
 *      of the grid also own their top/right border edges.
 *   5. manifold (§V), ../reduce-manifold.ts: normal groups within MANIFOLD_GROUP_ANGLE, ≤ 4 points each.
 *
 * Every contact records its cell (cellI, cellJ) and, in `feature`, the element or edge of that
 * cell it came from (edge-bend.ts, edgeFeature): stable ids for warm starting and the GUI.
 *
 * Nothing here allocates: all state lives in the caller's workspace (workspace.ts) and output buffer.

 */
import {
  CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE,
  CYLINDER_TERRAIN_DEPTH_RESOLUTION,
  CYLINDER_TERRAIN_DIRECT_SCAN_CELLS,
  CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE,
  CYLINDER_TERRAIN_MAX_CELLS,
  CYLINDER_TERRAIN_WALL_PASSES,
} from '../../constants';
import type { Vec3 } from '../../math/vec3';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield, MinMax } from '../../terrain/heightfield';
import { CELL_BOTTOM_SHIFT, CELL_DIAGONAL_SHIFT, CELL_LEFT_SHIFT, CELL_RECTANGLE_BIT } from '../../terrain/edge-class';
import { type ContactBuffer, WheelContactKind } from '../contact';
import { ReduceManifoldStatus, reduceManifoldInto } from '../reduce-manifold';
import { baseEllipseContacts, footInElement } from './case-a-base-ellipse';
import { sideTrapezoidContacts } from './case-b-side-trapezoid';
import { singlePointContact } from './case-c-single-point';
import { cullCells, footprintRows, scanRowsMinMax, setupCull, VISIT_BELOW0, VISIT_BELOW1, VISIT_FRAME0, VISIT_FRAME1 } from './cell-cull';
import { CellEdge, EdgeClass } from './edge-bend';
import { edgePoke, emitEdgeContact, resetEdgePass } from './edge-pass';
import { elementWallContact, resolvedInPatch, SAME_PATCH_COS, wallIsResolved } from './element-walls';
import { flatPatchContacts } from './flat-patch';
import { elementNormalInto, ElementTest, setElementFrame } from './frame';
import type { CylinderTerrainWorkspace } from './workspace';
import { CylinderTerrainStatus } from './workspace';

/**
 * Size of the cylinder of an engine query (CylinderShape has both fields).
 */
export interface CylinderSize {
  /** [m] */
  readonly radius: number;
  /** [m] Half the length along the axis. */
  readonly halfHeight: number;
}

/**
 * Contacts of the cylinder (centre, unit axis, size) with the terrain, appended
 * to `out` after reduction (≤ 4 per normal group). Points lie on the terrain surface, normals
 * point out of the terrain, depth > 0. Returns CylinderTerrainStatus bits (0 = complete); never
 * throws. `ws` holds the candidates and statistics of this call.
 */
export function collideCylinderTerrainInto(
  out: ContactBuffer,
  center: Readonly<Vec3>,
  axisUnit: Readonly<Vec3>,
  cylinder: CylinderSize,
  hf: Heightfield,
  ws: CylinderTerrainWorkspace,
): CylinderTerrainStatus {
  const cand = ws.candidates;
  cand.clear();
  ws.cellsVisited = 0;
  ws.elementsTested = 0;
  ws.candidateCount = 0;
  ws.flatPatch = false;
  const cx = center[0], cy = center[1], cz = center[2];
  const radius = cylinder.radius, halfHeight = cylinder.halfHeight;
  const vx = axisUnit[0], vy = axisUnit[1], vz = axisUnit[2];
  const len2 = vx * vx + vy * vy + vz * vz;
  // Written as negated "valid" tests so NaN fails them.
  if (
    !(Number.isFinite(cx) && Number.isFinite(cy) && Number.isFinite(cz)) ||
    !(Math.abs(len2 - 1) <= CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE) ||
    !(radius > 0 && radius < Infinity && halfHeight > 0 && halfHeight < Infinity)
  ) {
    return CylinderTerrainStatus.InvalidInput;
  }
  const q = ws.query;
  q.set(cx, cy, cz, vx, vy, vz, radius, halfHeight, hf);
  let status: number = CylinderTerrainStatus.Ok;

  // 1. Broad phase: AABB (paper §III; the √ clamp is the paper's numerical guard).
  const ex = halfHeight * Math.abs(vx) + radius * Math.sqrt(Math.max(0, 1 - vx * vx));
  const ey = halfHeight * Math.abs(vy) + radius * Math.sqrt(Math.max(0, 1 - vy * vy));
  const ez = halfHeight * Math.abs(vz) + radius * Math.sqrt(Math.max(0, 1 - vz * vz));
  const zMin = cz - ez;
  let i0 = Math.floor((cx - ex - hf.x0) / hf.dx);
  let i1 = Math.ceil((cx + ex - hf.x0) / hf.dx) - 1;
  let j0 = Math.floor((cy - ey - hf.y0) / hf.dy);
  let j1 = Math.ceil((cy + ey - hf.y0) / hf.dy) - 1;
  if (i0 < 0) i0 = 0;
  if (j0 < 0) j0 = 0;
  if (i1 > hf.cellsX - 1) i1 = hf.cellsX - 1;
  if (j1 > hf.cellsY - 1) j1 = hf.cellsY - 1;
  if (i0 > i1 || j0 > j1) return status;
  if ((i1 - i0 + 1) * (j1 - j0 + 1) > CYLINDER_TERRAIN_MAX_CELLS) {
    // Visit a centred window of the footprint; report the truncation.
    status |= CylinderTerrainStatus.CellRangeTruncated;
    const side = Math.floor(Math.sqrt(CYLINDER_TERRAIN_MAX_CELLS));
    if (i1 - i0 + 1 > side) { const m = (i0 + i1) >> 1; i0 = m - (side >> 1); i1 = i0 + side - 1; }
    if (j1 - j0 + 1 > side) { const m = (j0 + j1) >> 1; j0 = m - (side >> 1); j1 = j0 + side - 1; }
  }
  resetEdgePass(ws.edgePass, i0, j0, i1);
  // 2a. Columns of each row that the cylinder can reach at any height (cell-cull.ts); the
  // H_min/H_max test only needs those cells: the others are out of reach whatever their height.
  const cull = ws.cull;
  setupCull(cull, q, hf, ws.horizontalFrame);
  const cells = footprintRows(cull, ws, hf, i0, j0, i1, j1);
  if (cells === 0) return status;
  const range = ws.range;
  if (cells <= CYLINDER_TERRAIN_DIRECT_SCAN_CELLS) scanRowsMinMax(range, ws, hf, j0, j1);
  else hf.cellRangeMinMax(range, i0, j0, i1, j1);
  if (!(range.max > zMin)) return status;

  if (range.max - range.min < CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE) {
    ws.flatPatch = true;
    if (flatPatchContacts(cand, hf, q, ws.frame, range.max) > 0) status |= CylinderTerrainStatus.CandidateOverflow;
  } else {
    // 2b. Rows again, with the sections only as deep as any of those cells can reach (H_max):
    // fewer cells for the per-cell bound.
    if (cull.box) {
      cull.rowDepth = range.max - cull.lowZ;
      footprintRows(cull, ws, hf, i0, j0, i1, j1);
    }
    status |= narrowPhase(cand, hf, ws, j0, j1);
  }
  // 5. Manifold. Then the element walls (element-walls.ts): the deepest point of each element
  // whose own deepest point is not among the contacts, unless a reported contact resolves it; if
  // any is added, the manifold is reduced again — and checked again, since the new reduction may
  // drop a contact that resolved another element (at most CYLINDER_TERRAIN_WALL_PASSES times).
  const outStart = out.count, outOverflow = out.overflow;
  let rs = reduceManifoldInto(out, cand, ws.groups);
  if (ws.pendingCount > 0) ws.pendingDone.fill(0, 0, ws.pendingCount);
  for (let pass = 0; pass < CYLINDER_TERRAIN_WALL_PASSES && ws.pendingCount > 0; pass++) {
    const before = cand.count;
    let lost = 0;
    // The deepest reported contact settles most of them with one dot product (resolvedInPatch).
    let deepest = outStart;
    for (let k = outStart + 1; k < out.count; k++) if (out.depth[k] > out.depth[deepest]) deepest = k;
    const N = out.normal, PN = ws.pendingNormal;
    for (let m = 0; m < ws.pendingCount; m++) {
      if (ws.pendingDone[m] !== 0) continue;
      if (out.count > outStart && out.depth[deepest] + CYLINDER_TERRAIN_DEPTH_RESOLUTION >= ws.pendingBound[m] &&
        N[3 * deepest] * PN[3 * m] + N[3 * deepest + 1] * PN[3 * m + 1] + N[3 * deepest + 2] * PN[3 * m + 2] >= SAME_PATCH_COS) continue;
      const count = cand.count;
      lost += pendingWallContact(cand, hf, ws, m, out, outStart);
      if (cand.count > count) ws.pendingDone[m] = 1;
    }
    if (lost > 0) status |= CylinderTerrainStatus.CandidateOverflow;
    if (cand.count === before) break;
    out.count = outStart;
    out.overflow = outOverflow;
    rs = reduceManifoldInto(out, cand, ws.groups);
  }
  ws.candidateCount = cand.count;
  if (rs & ReduceManifoldStatus.GroupOverflow) status |= CylinderTerrainStatus.GroupOverflow;
  if (rs & ReduceManifoldStatus.OutputOverflow) status |= CylinderTerrainStatus.OutputOverflow;
  return status;
}

/** Steps 2–4 over the footprint rows j0..j1 (ws.rowLo/rowHi). Returns status bits. */
function narrowPhase(cand: ContactBuffer, hf: Heightfield, ws: CylinderTerrainWorkspace, j0: number, j1: number): number {
  const q = ws.query;
  const visits = cullCells(ws.cull, hf, q, ws, j0, j1);
  ws.cellsVisited = visits;
  let lost = 0;
  const lastRow = hf.cellsY - 1, lastCol = hf.cellsX - 1;
  for (let k = 0; k < visits; k++) {
    const i = ws.visitI[k], j = ws.visitJ[k], flags = ws.visitFlags[k];
    const bits = hf.cellBits[j * hf.cellsX + i];
    const rect = (bits & CELL_RECTANGLE_BIT) !== 0;
    ws.elementsTested += rect ? 1 : 2;
    const below0 = (flags & VISIT_BELOW0) !== 0, below1 = (flags & VISIT_BELOW1) !== 0;
    // 3. Exact frames and cases for the elements that can have a case A/B/C contact (the others
    // below their plane were queued for element-walls.ts by the screen, cell-cull.ts).
    if (flags & VISIT_FRAME0) lost += elementContacts(cand, hf, ws, i, j, rect ? ElementKind.Rectangle : ElementKind.LowerTriangle);
    if (flags & VISIT_FRAME1) lost += elementContacts(cand, hf, ws, i, j, ElementKind.UpperTriangle);
    // 4. Second pass over the edges this cell owns (bottom, left, diagonal; on the grid's top
    // row and right column also its top and right edges). Only bent edges that poke (Convex or
    // Active) are tested: a flat or concave edge is never deeper than the faces next to it, whose
    // own contacts (cases A–C, element walls) cover it. An edge is tested only if the cylinder
    // dips below the plane of an element it bounds: an edge point inside the cylinder lies on
    // both adjacent planes, so the cylinder reaches below each of them (s(A_L) ≥ 0 for both).
    const upperBelow = rect ? below0 : below1;
    if (below0 && pokes(bits, CELL_BOTTOM_SHIFT)) lost += edgeContact(cand, hf, ws, i, j, CellEdge.Bottom, bits);
    if (below0 && pokes(bits, CELL_LEFT_SHIFT)) lost += edgeContact(cand, hf, ws, i, j, CellEdge.Left, bits);
    if (!rect && below0 && below1 && pokes(bits, CELL_DIAGONAL_SHIFT)) lost += edgeContact(cand, hf, ws, i, j, CellEdge.Diagonal, bits);
    // Grid-border edges (no neighbour to own them; they are active).
    if (upperBelow && j === lastRow) lost += edgeContact(cand, hf, ws, i, j, CellEdge.Top, bits);
    if (upperBelow && i === lastCol) lost += edgeContact(cand, hf, ws, i, j, CellEdge.Right, bits);
  }
  return lost > 0 ? CylinderTerrainStatus.CandidateOverflow : 0;
}

/** True if the edge class at `shift` in the cell bits can poke into the cylinder (Convex or Active). */
function pokes(bits: number, shift: number): boolean {
  const c = (bits >> shift) & 3;
  return c === EdgeClass.Convex || c === EdgeClass.Active;
}

/** Vertex offsets (i, j) of each CellEdge's two ends, indexed by CellEdge: bottom, right, top, left, diagonal. */
const EDGE_A_DI = [0, 1, 0, 0, 1], EDGE_A_DJ = [0, 0, 1, 0, 0];
const EDGE_B_DI = [1, 1, 1, 0, 0], EDGE_B_DJ = [0, 1, 1, 1, 1];

/**
 * The edge pass for one edge of cell (i, j): its deepest poke (edge-pass.ts) and, if it pokes
 * in, its contact with the face normals of the elements on both sides. Returns contacts lost.
 */
function edgeContact(cand: ContactBuffer, hf: Heightfield, ws: CylinderTerrainWorkspace, i: number, j: number, edge: CellEdge, bits: number): number {
  const ep = ws.edgePass;
  if (!edgePoke(ep, ws.query, hf, i + EDGE_A_DI[edge], j + EDGE_A_DJ[edge], i + EDGE_B_DI[edge], j + EDGE_B_DJ[edge])) return 0;
  const n = ep.normals;
  const rect = (bits & CELL_RECTANGLE_BIT) !== 0;
  let active: boolean;
  if (edge === CellEdge.Bottom) {
    elementNormalInto(n, 0, hf, i, j, false);
    if (j > 0) elementNormalInto(n, 3, hf, i, j - 1, !hf.cellIsRectangle(i, j - 1));
    active = ((bits >> CELL_BOTTOM_SHIFT) & 3) === EdgeClass.Active;
  } else if (edge === CellEdge.Left) {
    elementNormalInto(n, 0, hf, i, j, false);
    if (i > 0) elementNormalInto(n, 3, hf, i - 1, j, !hf.cellIsRectangle(i - 1, j));
    active = ((bits >> CELL_LEFT_SHIFT) & 3) === EdgeClass.Active;
  } else if (edge === CellEdge.Diagonal) {
    elementNormalInto(n, 0, hf, i, j, false);
    elementNormalInto(n, 3, hf, i, j, true);
    active = ((bits >> CELL_DIAGONAL_SHIFT) & 3) === EdgeClass.Active;
  } else {
    // Grid border: the element it bounds on both sides.
    elementNormalInto(n, 0, hf, i, j, !rect);
    n[3] = n[0]; n[4] = n[1]; n[5] = n[2];
    active = true;
  }
  n[6] = active ? 1 : 0;
  return emitEdgeContact(ep, cand, ws.query, i, j, edge);
}

/**
 * Exact frame of element `kind` of cell (i, j) and its contacts: the case A/B/C ones and, when
 * the cylinder's deepest point w.r.t. the plane is over another element, the element's own
 * deepest point (element-walls.ts). None when the exact test finds the cylinder above the plane.
 * Returns the number of contacts that did not fit.
 */
function elementContacts(cand: ContactBuffer, hf: Heightfield, ws: CylinderTerrainWorkspace, i: number, j: number, kind: ElementKind): number {
  const f = ws.frame;
  if (setElementFrame(f, ws.query, hf, i, j, kind) !== ElementTest.Frame) return 0;
  let lost: number;
  if (f.sAU > 0) {
    lost = sideTrapezoidContacts(cand, hf, f, ws.lineClip);
  } else if (f.sBL > 0) {
    lost = baseEllipseContacts(cand, hf, f);
  } else {
    lost = singlePointContact(cand, hf, f, ws.lineClip);
  }
  // The cylinder's deepest point w.r.t. this plane is over another element: this element's own
  // deepest point is on its sides (element-walls.ts), looked at once every other contact is in.
  if (!footInElement(hf, f, f.footU, f.footV) && f.sCL - f.hh * f.cos < 0) {
    const m = ws.pendingCount++;
    ws.pendingI[m] = i;
    ws.pendingJ[m] = j;
    ws.pendingKind[m] = kind;
    ws.pendingNormal[3 * m] = f.nx;
    ws.pendingNormal[3 * m + 1] = f.ny;
    ws.pendingNormal[3 * m + 2] = f.nz;
    ws.pendingBound[m] = f.sAL; // the element's depth along n is at most s(A_L)
  }
  return lost;
}

/**
 * The wall contact of pending element m (elementContacts), appended to the candidates unless a
 * reported contact (out[outStart..]) resolves the element (wallIsResolved). Returns the number of
 * contacts that did not fit.
 */
function pendingWallContact(cand: ContactBuffer, hf: Heightfield, ws: CylinderTerrainWorkspace, m: number, out: ContactBuffer, outStart: number): number {
  // The same patch first, from what elementContacts kept (no frame needed).
  if (resolvedInPatch(out, outStart, ws.pendingNormal[3 * m], ws.pendingNormal[3 * m + 1], ws.pendingNormal[3 * m + 2], ws.pendingBound[m])) return 0;
  const f = ws.frame;
  if (setElementFrame(f, ws.query, hf, ws.pendingI[m], ws.pendingJ[m], ws.pendingKind[m] as ElementKind) !== ElementTest.Frame) return 0;
  if (wallIsResolved(out, outStart, hf, f)) return 0; // again with a tighter bound, and other patches
  const caseKind = f.sAU > 0 ? WheelContactKind.SideB : f.sBL > 0 ? WheelContactKind.BaseA : WheelContactKind.PointC;
  return elementWallContact(cand, hf, f, caseKind, ws.wallBest, out, outStart);
}
