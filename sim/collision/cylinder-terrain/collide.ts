/**
 * Analytic cylinder (wheel) vs regular-grid terrain — the engine entry point. Strashnov &
 * Torgashev 2020, "Collision detection algorithms of bounding cylinders with terrain model"
 * (seed 002; restated in shared/seeds/README.md). Pipeline, one file per stage:
 *
 *   1. broad phase (here, §III): the cylinder's AABB, per axis C_k ± ((h/2)|v_k| + r√(1 − v_k²));
 *      its cell range; H_min/H_max over the range from the heightfield's min/max pyramid;
 *      H_max ≤ z_min → no contact; H_max − H_min < ε_H → flat-patch.ts (exact cylinder–plane).
 *   2. cell-cull.ts: the footprint rows cut to the cells that reach the slab between the base
 *      planes (slabRows), a per-cell bound (a cell is skipped unless some point of the cylinder below
 *      the cell's highest corner can lie over it) and, per element, the screen: whether the
 *      cylinder dips below its plane at all, and whether a case A/B/C contact is possible (if
 *      not, the element goes straight to the element walls). Neither drops an element that can
 *      meet the cylinder (proofs there). Cells are visited once, in cell order: bound, elements
 *      (steps 2–3), edges (step 4).
 *   3. narrow phase per element (§IV): the exact frame (frame.ts) and a case by the signs of
 *      s(A_L), s(A_U), s(B_L):
 *        s(A_L) ≤ 0          cylinder above the plane: nothing, and the element's edges are out
 *                            (so is an element whose depth bound is below zero: cell-cull.ts);
 *        s(A_U) > 0          case B, case-b-side-trapezoid.ts (line clip, Cyrus–Beck);
 *        s(B_L) > 0          case A, case-a-base-ellipse.ts;
 *        otherwise           case C, case-c-single-point.ts;
 *      and, when the foot of A_L (the cylinder's deepest point w.r.t. the plane) is not on the
 *      element, the element's own deepest point on its sides, element-walls.ts (issue #12).
 *   4. second pass (§IV.D), edge-pass.ts: each active edge, and each gently convex edge beside a
 *      face with the cylinder's centre on or below its plane (edgeMayAdd: elsewhere its contact
 *      would add nothing), between elements that may meet the cylinder, is tested for poking into
 *      the base or side. Ownership, so each edge is visited once:
 *      cell (i, j) owns its bottom and left edges and its diagonal; the top row and right column
 *      of the grid also own their top/right border edges.
 *   5. manifold (§V), ../reduce-manifold.ts: normal groups within MANIFOLD_GROUP_ANGLE, ≤ 4 points
 *      each; then the element walls still unresolved are added and the manifold reduced again
 *      (only the groups they join are selected again: reduceManifoldAppendedInto, same result).
 *
 * Every contact records its cell (cellI, cellJ) and, in `feature`, the element or edge of that
 * cell it came from (edge-bend.ts, edgeFeature): stable ids for warm starting and the GUI.
 *
 * Nothing here allocates: all state lives in the caller's workspace (workspace.ts) and output
 * buffer, and no double is passed to or returned from a call that V8 might not inline (it would
 * be boxed on the heap): hot helpers take objects and integers and write their results to records.
 */
import {
  CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE,
  CYLINDER_TERRAIN_DIRECT_SCAN_CELLS,
  CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE,
  CYLINDER_TERRAIN_MAX_CELLS,
  CYLINDER_TERRAIN_WALL_PASSES,
} from '../../constants';
import type { Vec3 } from '../../math/vec3';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield, MinMax } from '../../terrain/heightfield';
import { CELL_BOTTOM_SHIFT, CELL_DIAGONAL_SHIFT, CELL_LEFT_SHIFT, CELL_RECTANGLE_BIT } from '../../terrain/edge-class';
import type { ContactBuffer } from '../contact';
import { ReduceManifoldStatus, reduceManifoldAppendedInto, reduceManifoldInto } from '../reduce-manifold';
import { baseEllipseContacts, lowestFootInElement } from './case-a-base-ellipse';
import { cylinderCellRangeOf } from './cell-range';
import { sideTrapezoidContacts } from './case-b-side-trapezoid';
import { singlePointContact } from './case-c-single-point';
import { footprintRows, reachableCells, scanRowsMinMax, SCREEN_CENTRE_ABOVE, SCREEN_FACE, SCREEN_VERDICT, screenElement, setupCull, slabRows } from './cell-cull';
import { CellEdge, EdgeClass } from './edge-bend';
import { edgeContact, markUpperMeets, resetEdgePass, UpperMeet, upperMeets } from './edge-pass';
import { addUnresolvedWalls, prepareReported, queueFrameWall } from './element-walls';
import { flatPatchContacts } from './flat-patch';
import { ElementTest, setElementFrame } from './frame';
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
  ws.walls.count = 0;
  ws.faceWalls.count = 0;
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
  q.set(center, axisUnit, cylinder, hf);
  let status: number = CylinderTerrainStatus.Ok;

  // 1. Broad phase: AABB (paper §III; the √ clamp is the paper's numerical guard), cell-range.ts.
  const ez = halfHeight * Math.abs(vz) + radius * Math.sqrt(Math.max(0, 1 - vz * vz));
  const zMin = cz - ez;
  const cr = ws.cellRange;
  if (!cylinderCellRangeOf(cr, hf, center, axisUnit, cylinder)) return status;
  let i0 = cr.i0, i1 = cr.i1, j0 = cr.j0, j1 = cr.j1;
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
    // And only the cells that reach the slab between the base planes (cell-cull.ts, slabRows).
    slabRows(ws, q, hf, range, j0, j1);
    status |= narrowPhase(cand, hf, ws, j0, j1);
  }
  // 5. Manifold. Then the element walls (element-walls.ts): the deepest point of each element
  // whose own deepest point is not among the contacts, unless a reported contact resolves it; if
  // any is added, the manifold is reduced again — and checked again, since the new reduction may
  // drop a contact that resolved another element (at most CYLINDER_TERRAIN_WALL_PASSES rounds).
  const outStart = out.count, outOverflow = out.overflow;
  let rs = 0, before = 0;
  for (let pass = 0; ; pass++) {
    out.count = outStart;
    out.overflow = outOverflow;
    // Again after walls were added: only the groups they join are selected again (same result).
    rs = pass === 0 ? reduceManifoldInto(out, cand, ws.groups) : reduceManifoldAppendedInto(out, cand, ws.groups, before);
    if (pass === CYLINDER_TERRAIN_WALL_PASSES || ws.walls.count + ws.faceWalls.count === 0) break;
    before = cand.count;
    // The elements the screen found without a face contact first, then the others.
    prepareReported(ws.reported, q, out, outStart);
    addUnresolvedWalls(cand, hf, q, ws.frame, ws.walls, ws.reported, out, outStart);
    addUnresolvedWalls(cand, hf, q, ws.frame, ws.faceWalls, ws.reported, out, outStart);
    if (cand.overflow > 0) status |= CylinderTerrainStatus.CandidateOverflow;
    if (cand.count === before) break;
  }
  ws.candidateCount = cand.count;
  if (rs & ReduceManifoldStatus.GroupOverflow) status |= CylinderTerrainStatus.GroupOverflow;
  if (rs & ReduceManifoldStatus.OutputOverflow) status |= CylinderTerrainStatus.OutputOverflow;
  return status;
}

/**
 * Steps 2–4 over the footprint rows j0..j1 (ws.rowLo/rowHi): the per-cell bound (cell-cull.ts,
 * reachableCells), then, cell by cell, each element's frame, contacts and walls, then the edges the
 * cell owns. Returns status bits.
 */
function narrowPhase(cand: ContactBuffer, hf: Heightfield, ws: CylinderTerrainWorkspace, j0: number, j1: number): number {
  const lastRow = hf.cellsY - 1, lastCol = hf.cellsX - 1;
  const ep = ws.edgePass, q = ws.query, cull = ws.cull;
  let lost = 0;
  const kept = reachableCells(cull, ws, hf, j0, j1);
  ws.cellsVisited = kept;
  const keptI = cull.keptI, keptJ = cull.keptJ, keptBits = cull.keptBits;
  for (let n = 0; n < kept; n++) {
    const i = keptI[n], j = keptJ[n], bits = keptBits[n];
    const rect = (bits & CELL_RECTANGLE_BIT) !== 0;
    ws.elementsTested += rect ? 1 : 2;
    // 3. Element 0 (rectangle or lower triangle, plane through V0), element 1 (upper triangle,
    // plane through V3): exact frames, contacts, walls. Each result is 0 when the element is
    // proved apart, else its screen verdict with SCREEN_CENTRE_ABOVE.
    const e0 = elementContacts(cand, hf, ws, i, j, rect ? ElementKind.Rectangle : ElementKind.LowerTriangle);
    const e1 = rect ? e0 : elementContacts(cand, hf, ws, i, j, ElementKind.UpperTriangle);
    // 4. Second pass over the edges this cell owns (bottom, left, diagonal; on the grid's top
    // row and right column also its top and right edges). An edge is tested only if the elements
    // on both sides may meet the cylinder: an edge point inside it is a point of both. So for the
    // bottom and left edges the neighbour's upper element must too (upperMeets: recorded when the
    // cell below or to the left was visited; a cell of the range not visited was dropped by the
    // footprint rows, the slab cut or the per-cell bound, each a proof that none of its points is
    // in the cylinder). Which bent edges are tested is edgeMayAdd's rule.
    const upperScreen = rect ? e0 : e1; // the upper element's (the rectangle's for a rectangle cell)
    if (upperScreen !== 0) markUpperMeets(ep, i, j, (upperScreen & SCREEN_CENTRE_ABOVE) !== 0);
    if (e0 !== 0) {
      const above0 = (e0 & SCREEN_CENTRE_ABOVE) !== 0;
      let nb = upperMeets(ep, i, j - 1);
      if (nb !== UpperMeet.Apart && edgeMayAdd(bits, CELL_BOTTOM_SHIFT, above0 && nb === UpperMeet.CentreAbove)) lost += edgeContact(cand, hf, ep, q, cull, i, j, CellEdge.Bottom, bits);
      nb = upperMeets(ep, i - 1, j);
      if (nb !== UpperMeet.Apart && edgeMayAdd(bits, CELL_LEFT_SHIFT, above0 && nb === UpperMeet.CentreAbove)) lost += edgeContact(cand, hf, ep, q, cull, i, j, CellEdge.Left, bits);
      if (!rect && e1 !== 0 && edgeMayAdd(bits, CELL_DIAGONAL_SHIFT, above0 && (e1 & SCREEN_CENTRE_ABOVE) !== 0)) lost += edgeContact(cand, hf, ep, q, cull, i, j, CellEdge.Diagonal, bits);
    }
    // Grid-border edges (no neighbour to own them; they are active).
    if (upperScreen !== 0 && j === lastRow) lost += edgeContact(cand, hf, ep, q, cull, i, j, CellEdge.Top, bits);
    if (upperScreen !== 0 && i === lastCol) lost += edgeContact(cand, hf, ep, q, cull, i, j, CellEdge.Right, bits);
  }
  return lost > 0 || cand.overflow > 0 ? CylinderTerrainStatus.CandidateOverflow : 0;
}

/**
 * Whether the edge at `shift` in the cell bits (edge-class.ts) can add a contact, for an edge whose
 * two elements may meet the cylinder; `bothAbove`: the cylinder's centre is above both their
 * planes (SCREEN_CENTRE_ABOVE).
 *  - Flat or concave: no. Such an edge is never deeper than the faces next to it, whose own
 *    contacts (cases A–C, element walls) cover it.
 *  - Active (ridge, curb, > MANIFOLD_GROUP_ANGLE): yes; it gets its own normal (edge-pass.ts).
 *  - Gently convex: only if the centre is on or below one of the planes. Otherwise its contact
 *    would add nothing. It would carry the normal n of one of its faces (edgeContact keeps a
 *    face normal unless it pulls the wheel toward the point, n·(C − T) ≤ 0, which a centre above
 *    the plane rules out), and its depth, T's distance to the cylinder's surface, is at most the
 *    depth F(T) of the cylinder below T along that normal (element-walls.ts), since the
 *    surface is no nearer along n than at its nearest. That face's element holds T, so its own
 *    deepest point along n is at least as deep, and it is always accounted for: a case A/B/C
 *    contact or an element wall, which the centre above its plane keeps queued. Under a wheel
 *    on rough ground this drops half the candidates (31.2 edge tests and 18.5 contacts per
 *    benchmark query, to 2.4 and 1.8; 33.8 candidates to 17.1).
 */
function edgeMayAdd(bits: number, shift: number, bothAbove: boolean): boolean {
  const c = (bits >> shift) & 3;
  return c === EdgeClass.Active || (c === EdgeClass.Convex && !bothAbove);
}

/**
 * Element `kind` of cell (i, j): the screen (cell-cull.ts, screenElement; it queues the elements
 * it rules a face contact out for) and, when a case A/B/C contact is possible, the exact frame
 * (frame.ts) and the case's contacts. When the cylinder's deepest point w.r.t. the plane is then
 * over another element, the element's own deepest point is on its sides: it is queued for
 * element-walls.ts, looked at once every other contact is in. Returns 0 (SCREEN_APART) only when
 * the screen proves the element apart (the cylinder above its plane, or its depth bound below
 * zero: cell-cull.ts, elementApart), with a margin, so the edge pass's gate stays conservative;
 * else the screen's verdict with its SCREEN_CENTRE_ABOVE bit.
 */
function elementContacts(cand: ContactBuffer, hf: Heightfield, ws: CylinderTerrainWorkspace, i: number, j: number, kind: ElementKind): number {
  const screen = screenElement(ws, ws.query, hf, i, j, kind);
  if ((screen & SCREEN_VERDICT) !== SCREEN_FACE) return screen;
  const f = ws.frame;
  if (setElementFrame(f, ws.query, hf, i, j, kind) !== ElementTest.Frame) return screen;
  if (f.sAU > 0) sideTrapezoidContacts(cand, hf, f, ws.lineClip);
  else if (f.sBL > 0) baseEllipseContacts(cand, hf, f, ws.baseEllipse);
  else singlePointContact(cand, hf, f, ws.lineClip);
  if (!lowestFootInElement(hf, f) && f.sCL - f.hh * f.cos < 0) queueFrameWall(ws.faceWalls, hf, f);
  return screen;
}
