/**
 * Analytic cylinder (wheel) vs regular-grid terrain — the engine entry point. Strashnov &
 * Torgashev 2020, "Collision detection algorithms of bounding cylinders with terrain model"
 * (seed 002; restated in shared/seeds/README.md). Pipeline, one file per stage:
 *
 *   1. broad phase (here, §III): the cylinder's AABB, per axis C_k ± ((h/2)|v_k| + r√(1 − v_k²));
 *      its cell range; H_min/H_max over the range from the heightfield's min/max pyramid;
 *      H_max ≤ z_min → no contact; H_max − H_min < ε_H → flat-patch.ts (exact cylinder–plane).
 *   2. per-cell bound (ours): a cell is skipped unless some point of the cylinder below the
 *      cell's highest corner can lie over the cell (the section of the cylinder by the
 *      horizontal plane at that height is within W + 2r·|v_z| of the lowest line's projection;
 *      W = the section's half-width) — most cells under a wheel fail this with two loads and
 *      a square root, before any element plane is built.
 *   3. narrow phase per element (§IV), by the signs of s(A_L), s(A_U), s(B_L) (frame.ts):
 *        s(A_L) ≤ 0          cylinder above the plane: nothing, and the element's edges are out;
 *        s(A_U) > 0          case B, case-b-side-trapezoid.ts (line clip, Cyrus–Beck);
 *        s(B_L) > 0          case A, case-a-base-ellipse.ts (+ the side wall via case C's clip);
 *        otherwise           case C, case-c-single-point.ts.
 *      Each element also runs the section-vs-element SAT: it gates the second pass.
 *   4. second pass (§IV.D), edge-pass.ts: each bent edge whose owner element(s) passed the
 *      gate is tested for poking into the base or side. Ownership, so each edge is visited once:
 *      cell (i, j) owns its bottom and left edges and its diagonal; the top row and right column
 *      of the grid also own their top/right border edges.
 *   5. manifold (§V), ../reduce-manifold.ts: normal groups within 10°, ≤ 4 points each.
 *
 * Every contact records its cell (cellI, cellJ) and, in `feature`, the element or edge of that
 * cell it came from (edge-bend.ts, edgeFeature): stable ids for warm starting and the GUI.
 *
 * Nothing here allocates: module-level frames, the caller's workspace and output buffer.
 */
import {
  CYLINDER_TERRAIN_ACTIVE_EDGE_BEND,
  CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE,
  CYLINDER_TERRAIN_DIRECT_SCAN_CELLS,
  CYLINDER_TERRAIN_FLAT_EDGE_BEND,
  CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE,
  CYLINDER_TERRAIN_MAX_CELLS,
  CYLINDER_TERRAIN_NORMAL_GROUP_COS,
  CYLINDER_TERRAIN_PARALLEL_SIN,
  GEOMETRIC_EPSILON,
  MANIFOLD_LINE_CONTACT_DISTANCE,
  UNIT_EPSILON,
  MANIFOLD_TIE_TOLERANCE,
} from '../../constants';
import type { Vec3 } from '../../math/vec3';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield, MinMax } from '../../terrain/heightfield';
import type { ContactBuffer } from '../contact';
import { ReduceManifoldStatus, reduceManifoldInto } from '../reduce-manifold';
import { baseEllipseContacts } from './case-a-base-ellipse';
import { sectionOverlapsElement, sideTrapezoidContacts } from './case-b-side-trapezoid';
import { singlePointContact } from './case-c-single-point';
import { CellEdge, EdgeClass } from './edge-bend';
import { edgePoke, edgeScratch, emitEdgeContact, resetEdgePass } from './edge-pass';
import { flatPatchContacts } from './flat-patch';
import { CylinderQuery, ElementFrame, setElementFrame, setHorizontalFrame } from './frame';
import type { CylinderTerrainWorkspace } from './workspace';
import { CylinderTerrainStatus } from './workspace';

const query = new CylinderQuery();
const frame = new ElementFrame();
const cullFrame = new ElementFrame();
const range: MinMax = { min: 0, max: 0 };
/** Normal of the element across an edge (slightly convex edges take a face normal). */
const nb: Vec3 = [0, 0, 1];
/** Edge classes that can poke into the cylinder (convex ones; see edge-bend.ts). */
const POKES = EdgeClass.Convex;

/**
 * Contacts of the cylinder (centre, unit axis, radius, half height) with the terrain, appended
 * to `out` after reduction (≤ 4 per normal group). Points lie on the terrain surface, normals
 * point out of the terrain, depth > 0. Returns CylinderTerrainStatus bits (0 = complete); never
 * throws. `ws` holds the candidates and statistics of this call.
 */
export function collideCylinderTerrainInto(
  out: ContactBuffer,
  center: Readonly<Vec3>,
  axisUnit: Readonly<Vec3>,
  radius: number,
  halfHeight: number,
  hf: Heightfield,
  ws: CylinderTerrainWorkspace,
): CylinderTerrainStatus {
  const cand = ws.candidates;
  cand.clear();
  resetEdgePass();
  ws.cellsVisited = 0;
  ws.elementsTested = 0;
  ws.candidateCount = 0;
  ws.flatPatch = false;
  const cx = center[0], cy = center[1], cz = center[2];
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
  const q = query;
  q.set(cx, cy, cz, vx, vy, vz, radius, halfHeight);
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
  // 2a. Columns of each row that the cylinder can reach at any height (see footprintRows); the
  // H_min/H_max test only needs those cells: the others are out of reach whatever their height.
  setupCull(q, hf);
  const cells = footprintRows(ws, hf, i0, j0, i1, j1);
  if (cells === 0) return status;
  if (cells <= CYLINDER_TERRAIN_DIRECT_SCAN_CELLS) {
    scanRowsMinMax(range, ws, hf, j0, j1);
  } else {
    hf.cellRangeMinMax(range, i0, j0, i1, j1);
  }
  if (!(range.max > zMin)) return status;

  if (range.max - range.min < CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE) {
    ws.flatPatch = true;
    if (flatPatchContacts(cand, hf, q, frame, range.max) > 0) status |= CylinderTerrainStatus.CandidateOverflow;
  } else {
    status |= narrowPhase(cand, hf, q, ws, j0, j1);
  }
  ws.candidateCount = cand.count;
  const rs = reduceManifoldInto(out, cand, ws.groups, CYLINDER_TERRAIN_NORMAL_GROUP_COS, MANIFOLD_LINE_CONTACT_DISTANCE, MANIFOLD_TIE_TOLERANCE);
  if (rs & ReduceManifoldStatus.GroupOverflow) status |= CylinderTerrainStatus.GroupOverflow;
  if (rs & ReduceManifoldStatus.OutputOverflow) status |= CylinderTerrainStatus.OutputOverflow;
  return status;
}

/**
 * The lowest side line w.r.t. the horizontal, in xy, for the per-cell bound (step 2): A_L, the
 * direction e of its projection and its length, and the reach of the section around it. In xy
 * the section of the cylinder by any horizontal plane lies in the rectangle spanned by the
 * projected line (along e, extended by 2r·cosθ: a tilted base disc's reach) and its
 * perpendicular p (half-width W ≤ r). A cell is tested against it with the rectangle's two axes
 * (SAT; the cell's own axes are skipped: conservative).
 */
const cull = {
  r: 0.5, lowX: 0.5, lowY: 0.5, lowZ: 0.5, segZ: 0.5, segLen: 0.5,
  ex: 0.5, ey: 0.5, radE: 0.5, radP: 0.5, capAlong: 0.5, discReach2: 0.5, sin: 0.5,
  box: true,
};

function setupCull(q: CylinderQuery, hf: Heightfield): void {
  const r = q.r, hh = q.hh, dx = hf.dx, dy = hf.dy;
  const cf = cullFrame;
  setHorizontalFrame(cf, q, 0);
  cull.r = r;
  cull.lowX = cf.clx + r * cf.wx;
  cull.lowY = cf.cly + r * cf.wy;
  cull.lowZ = cf.clz + r * cf.wz;
  const segX = 2 * hh * cf.ax, segY = 2 * hh * cf.ay; // A_U − A_L in xy
  cull.segZ = 2 * hh * cf.az; // ≥ 0: A_L is the lower end
  cull.sin = cf.sin > CYLINDER_TERRAIN_PARALLEL_SIN ? cf.sin : 0;
  const segLen = Math.sqrt(segX * segX + segY * segY);
  cull.segLen = segLen;
  cull.box = segLen > GEOMETRIC_EPSILON;
  const ex = cull.box ? segX / segLen : 1, ey = cull.box ? segY / segLen : 0;
  cull.ex = ex;
  cull.ey = ey;
  cull.radE = 0.5 * (Math.abs(ex) * dx + Math.abs(ey) * dy); // the cell's half-extent along e
  cull.radP = 0.5 * (Math.abs(ey) * dx + Math.abs(ex) * dy); // … and along p = (−e_y, e_x)
  cull.capAlong = 2 * r * cf.cos;
  const halfDiag = 0.5 * Math.sqrt(dx * dx + dy * dy);
  cull.discReach2 = (r + cull.capAlong + halfDiag) ** 2; // upright axis: within the base disc's reach
}

/**
 * For rows j0..j1, the columns [rowLo, rowHi] (clamped to [i0, i1]) whose cells pass the
 * height-independent part of the per-cell bound (W = r). Returns the number of cells.
 */
function footprintRows(ws: CylinderTerrainWorkspace, hf: Heightfield, i0: number, j0: number, i1: number, j1: number): number {
  const dx = hf.dx, dy = hf.dy;
  const limA = cull.r + cull.radP; // |across| bound for any height
  const limB0 = cull.capAlong + cull.radE, limB1 = cull.segLen + cull.capAlong + cull.radE; // along ∈ [−limB0, limB1]
  const ex = cull.ex, ey = cull.ey;
  // Cell centre x of column i relative to A_L: rx = xc0 + i·dx.
  const xc0 = hf.x0 + 0.5 * dx - cull.lowX;
  let cells = 0;
  for (let j = j0; j <= j1; j++) {
    const ry = hf.y0 + (j + 0.5) * dy - cull.lowY;
    let rxLo = -Infinity, rxHi = Infinity;
    let empty = false;
    if (cull.box) {
      const ayx = ry * ex; // across = |ry·e_x − rx·e_y| ≤ limA
      if (Math.abs(ey) > UNIT_EPSILON) {
        const p1 = (ayx - limA) / ey, p2 = (ayx + limA) / ey;
        rxLo = Math.min(p1, p2); rxHi = Math.max(p1, p2);
      } else if (Math.abs(ayx) > limA) {
        empty = true;
      }
      const byy = ry * ey; // along = rx·e_x + ry·e_y ∈ [−limB0, limB1]
      if (Math.abs(ex) > UNIT_EPSILON) {
        const p1 = (-limB0 - byy) / ex, p2 = (limB1 - byy) / ex;
        rxLo = Math.max(rxLo, Math.min(p1, p2)); rxHi = Math.min(rxHi, Math.max(p1, p2));
      } else if (byy < -limB0 || byy > limB1) {
        empty = true;
      }
    } else {
      const rem = cull.discReach2 - ry * ry;
      if (rem < 0) empty = true;
      else { rxHi = Math.sqrt(rem); rxLo = -rxHi; }
    }
    let lo = Math.max(i0, Math.ceil((rxLo - xc0) / dx));
    let hi = Math.min(i1, Math.floor((rxHi - xc0) / dx));
    if (empty || !(lo <= hi)) { lo = 0; hi = -1; }
    ws.rowLo[j - j0] = lo;
    ws.rowHi[j - j0] = hi;
    cells += hi - lo + 1;
  }
  return cells;
}

/**
 * H_min/H_max over the footprint rows by reading their vertices: for a wheel (~60 cells) one
 * pass costs less than the pyramid descent, whose bookkeeping pays off only for large ranges.
 */
function scanRowsMinMax(out: MinMax, ws: CylinderTerrainWorkspace, hf: Heightfield, j0: number, j1: number): void {
  const H = hf.heights, cols = hf.cols;
  let lo = Infinity, hi = -Infinity;
  for (let j = j0; j <= j1; j++) {
    const a = ws.rowLo[j - j0], b = ws.rowHi[j - j0];
    for (let jj = j; jj <= j + 1; jj++) {
      const row = jj * cols;
      for (let i = a; i <= b + 1; i++) {
        const h = H[row + i];
        if (h < lo) lo = h;
        if (h > hi) hi = h;
      }
    }
  }
  out.min = lo;
  out.max = hi;
}

/** Edge class from the bend's numerator (drop in metres) and the scaled thresholds. */
function classOf(drop: number, flat: number, active: number): EdgeClass {
  return drop >= active ? EdgeClass.Active : drop > flat ? EdgeClass.Convex : drop < -flat ? EdgeClass.Concave : EdgeClass.Flat;
}

/** Steps 2–4 over the footprint rows j0..j1 (ws.rowLo/rowHi). Returns status bits. */
function narrowPhase(cand: ContactBuffer, hf: Heightfield, q: CylinderQuery, ws: CylinderTerrainWorkspace, j0: number, j1: number): number {
  const r = q.r;
  const H = hf.heights, cols = hf.cols;
  const dx = hf.dx, dy = hf.dy;
  let lost = 0;
  const { lowX, lowY, lowZ, segZ, segLen, ex, ey, radE, radP, capAlong, discReach2, box } = cull;
  // Bend thresholds times the far vertex's horizontal distance from each kind of edge.
  const flatY = CYLINDER_TERRAIN_FLAT_EDGE_BEND * dy, activeY = CYLINDER_TERRAIN_ACTIVE_EDGE_BEND * dy;
  const flatX = CYLINDER_TERRAIN_FLAT_EDGE_BEND * dx, activeX = CYLINDER_TERRAIN_ACTIVE_EDGE_BEND * dx;
  const diagDist = (dx * dy) / Math.sqrt(dx * dx + dy * dy);
  const flatD = CYLINDER_TERRAIN_FLAT_EDGE_BEND * diagDist, activeD = CYLINDER_TERRAIN_ACTIVE_EDGE_BEND * diagDist;
  const cullSin = cull.sin;
  const f = frame;
  for (let j = j0; j <= j1; j++) {
    const ry = hf.y0 + (j + 0.5) * dy - lowY;
    const iLo = ws.rowLo[j - j0], iHi = ws.rowHi[j - j0];
    for (let i = iLo; i <= iHi; i++) {
      const kv = j * cols + i;
      const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + cols], h3 = H[kv + cols + 1];
      const hc = Math.max(h0, h1, h2, h3);
      const depth = hc - lowZ;
      if (!(depth > 0)) continue;
      const rx = hf.x0 + (i + 0.5) * dx - lowX;
      if (box) {
        const across = Math.abs(ry * ex - rx * ey);
        if (across > r + radP) continue;
        // Only the part of the line below z = hc: t ∈ [0, tEnd].
        const tEnd = segZ > depth ? depth / segZ : 1;
        const along = rx * ex + ry * ey;
        if (along < -capAlong - radE || along > tEnd * segLen + capAlong + radE) continue;
        if (cullSin > 0) {
          // Depth of the line's lowest point that can reach this cell (the line rises along e
          // by segZ over segLen), then the section's half-width there.
          const reach0 = along - radE - capAlong;
          const local = reach0 > 0 ? depth - (segZ * reach0) / segLen : depth;
          if (!(local > 0)) continue;
          const rho = local / cullSin;
          if (rho < r && across > Math.sqrt(rho * (2 * r - rho)) + radP) continue;
        }
      } else if (rx * rx + ry * ry > discReach2) {
        continue;
      }
      ws.cellsVisited++;

      // 3. Elements of the cell.
      const rect = hf.cellIsRectangle(i, j);
      let gateLow = false, gateUp = false;
      let bBottom: EdgeClass = EdgeClass.Flat, bLeft: EdgeClass = EdgeClass.Flat, bDiag: EdgeClass = EdgeClass.Flat;
      const borderTop = j === hf.cellsY - 1, borderRight = i === hf.cellsX - 1;
      let n1x = 0, n1y = 0, n1z = 1, n2x = 0, n2y = 0, n2z = 1;
      for (let e = 0; e < (rect ? 1 : 2); e++) {
        const kind = rect ? ElementKind.Rectangle : e === 0 ? ElementKind.LowerTriangle : ElementKind.UpperTriangle;
        ws.elementsTested++;
        if (!setElementFrame(f, q, hf, i, j, kind)) continue;
        const before = cand.count;
        if (f.sAU > 0) {
          lost += sideTrapezoidContacts(cand, hf, f);
        } else if (f.sBL > 0) {
          lost += baseEllipseContacts(cand, hf, f);
          lost += singlePointContact(cand, hf, f, true);
        } else {
          lost += singlePointContact(cand, hf, f, false);
        }
        // The SAT gate is evaluated only if an edge this element owns is bent (convex): flat
        // and concave edges never produce contacts, so the gate would have nothing to guard.
        if (e === 0) {
          // Edge classes as in cellEdgeClass (edge-bend.ts), inlined on the loaded heights with
          // the thresholds pre-multiplied by each edge's horizontal distance.
          bBottom = j === 0 ? EdgeClass.Active : classOf(h1 + h0 - h2 - H[kv - cols + 1], flatY, activeY);
          bLeft = i === 0 ? EdgeClass.Active : classOf(h2 + h0 - h1 - H[kv + cols - 1], flatX, activeX);
          bDiag = rect ? EdgeClass.Flat : classOf(h1 + h2 - h0 - h3, flatD, activeD);
          // A face contact of this element already proves that it meets the section.
          const needed = bBottom >= POKES || bLeft >= POKES || bDiag >= POKES || borderTop || borderRight;
          gateLow = needed && (cand.count > before || sectionOverlapsElement(f));
          n1x = f.nx; n1y = f.ny; n1z = f.nz;
          if (rect) { gateUp = gateLow; n2x = n1x; n2y = n1y; n2z = n1z; }
        } else {
          const needed = (gateLow && bDiag >= POKES) || borderTop || borderRight;
          gateUp = needed && (cand.count > before || sectionOverlapsElement(f));
          n2x = f.nx; n2y = f.ny; n2z = f.nz;
        }
      }

      // 4. Second pass over the edges this cell owns.
      const es = edgeScratch;
      if (gateLow) {
        es[0] = n1x; es[1] = n1y; es[2] = n1z;
        if (bBottom >= POKES && edgePoke(q, hf, i, j, i + 1, j)) {
          if (j > 0) hf.elementPlane(nb, i, j - 1, hf.cellIsRectangle(i, j - 1) ? ElementKind.Rectangle : ElementKind.UpperTriangle);
          es[3] = nb[0]; es[4] = nb[1]; es[5] = nb[2];
          es[6] = bBottom === EdgeClass.Active ? 1 : 0;
          lost += emitEdgeContact(cand, q, i, j, CellEdge.Bottom);
        }
        if (bLeft >= POKES && edgePoke(q, hf, i, j, i, j + 1)) {
          if (i > 0) hf.elementPlane(nb, i - 1, j, hf.cellIsRectangle(i - 1, j) ? ElementKind.Rectangle : ElementKind.UpperTriangle);
          es[3] = nb[0]; es[4] = nb[1]; es[5] = nb[2];
          es[6] = bLeft === EdgeClass.Active ? 1 : 0;
          lost += emitEdgeContact(cand, q, i, j, CellEdge.Left);
        }
        if (!rect && gateUp && bDiag >= POKES && edgePoke(q, hf, i + 1, j, i, j + 1)) {
          es[3] = n2x; es[4] = n2y; es[5] = n2z;
          es[6] = bDiag === EdgeClass.Active ? 1 : 0;
          lost += emitEdgeContact(cand, q, i, j, CellEdge.Diagonal);
        }
      }
      if (gateUp) {
        // Grid-border edges (no neighbour to own them): active.
        es[0] = n2x; es[1] = n2y; es[2] = n2z; es[3] = n2x; es[4] = n2y; es[5] = n2z; es[6] = 1;
        if (borderTop && edgePoke(q, hf, i, j + 1, i + 1, j + 1)) lost += emitEdgeContact(cand, q, i, j, CellEdge.Top);
        if (borderRight && edgePoke(q, hf, i + 1, j, i + 1, j + 1)) lost += emitEdgeContact(cand, q, i, j, CellEdge.Right);
      }
    }
  }
  return lost > 0 ? CylinderTerrainStatus.CandidateOverflow : 0;
}
