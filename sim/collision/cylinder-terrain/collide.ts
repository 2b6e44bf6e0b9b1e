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
 *   3. narrow phase per element (§IV). A quick test first, in the same loop as the per-cell
 *      bound (cullCells), unless a slope bound shows the cell too far from the lowest line for
 *      any face contact (the face prefilter, about 17 of 31 cells under a wheel). On the
 *      unnormalised plane normal, one square root and no division, the quick test
 *      drops elements the cylinder is above and those whose lowest-line foot misses them
 *      (most of the elements under a wheel). The rest get the exact frame (frame.ts) and a case
 *      by the signs of s(A_L), s(A_U), s(B_L):
 *        s(A_L) ≤ 0          cylinder above the plane: nothing, and the element's edges are out;
 *        s(A_U) > 0          case B, case-b-side-trapezoid.ts (line clip, Cyrus–Beck);
 *        s(B_L) > 0          case A, case-a-base-ellipse.ts (+ the side wall via case C's clip);
 *        otherwise           case C, case-c-single-point.ts.
 *   4. second pass (§IV.D), edge-pass.ts: each bent edge of an element that the cylinder dips
 *      below is tested for poking into the base or side. Ownership, so each edge is visited once:
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
  CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE,
  CYLINDER_TERRAIN_DIRECT_SCAN_CELLS,
  CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE,
  CYLINDER_TERRAIN_MAX_CELLS,
  CYLINDER_TERRAIN_NORMAL_GROUP_COS,
  CYLINDER_TERRAIN_PARALLEL_SIN,
  CYLINDER_TERRAIN_REJECT_MARGIN,
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
import { baseEllipseContacts as baseEllipseContactsImport } from './case-a-base-ellipse';
import { sideTrapezoidContacts as sideTrapezoidContactsImport } from './case-b-side-trapezoid';
import { singlePointContact as singlePointContactImport } from './case-c-single-point';
import { CELL_BOTTOM_SHIFT, CELL_RECTANGLE_BIT, CELL_DIAGONAL_SHIFT, CELL_LEFT_SHIFT } from '../../terrain/edge-class';
import { CellEdge, EdgeClass } from './edge-bend';
import { edgePoke as edgePokeImport, edgeScratch as edgeScratchImport, emitEdgeContact as emitEdgeContactImport, resetEdgePass } from './edge-pass';
import { flatPatchContacts } from './flat-patch';
import { CylinderQuery, ElementFrame, ElementTest, elementNormalInto as elementNormalIntoImport, setElementFrame as setElementFrameImport, setHorizontalFrame } from './frame';
import type { CylinderTerrainWorkspace } from './workspace';
import { CylinderTerrainStatus } from './workspace';
/*
 * Module-local copies of the imported bindings read per cell, element or edge. Under tsx and
 * vitest (a CommonJS transform) every read of an imported binding is a getter call on the
 * exporting module's object; a local constant is a plain load (about 2 % of a query).
 */
const CLASS_CONVEX = EdgeClass.Convex, CLASS_ACTIVE = EdgeClass.Active;
const BOTTOM_SHIFT = CELL_BOTTOM_SHIFT, LEFT_SHIFT = CELL_LEFT_SHIFT, DIAGONAL_SHIFT = CELL_DIAGONAL_SHIFT;
const KIND_RECTANGLE = ElementKind.Rectangle, KIND_LOWER = ElementKind.LowerTriangle, KIND_UPPER = ElementKind.UpperTriangle;
const EDGE_BOTTOM = CellEdge.Bottom, EDGE_LEFT = CellEdge.Left, EDGE_DIAGONAL = CellEdge.Diagonal, EDGE_TOP = CellEdge.Top, EDGE_RIGHT = CellEdge.Right;
const PARALLEL_SIN = CYLINDER_TERRAIN_PARALLEL_SIN;
const GEOM_EPS = GEOMETRIC_EPSILON;
const UNIT_EPS = UNIT_EPSILON;
const AXIS_UNIT_TOLERANCE = CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE;
const DIRECT_SCAN_CELLS = CYLINDER_TERRAIN_DIRECT_SCAN_CELLS;
const FLAT_PATCH_TOLERANCE = CYLINDER_TERRAIN_FLAT_PATCH_TOLERANCE;
const MAX_CELLS = CYLINDER_TERRAIN_MAX_CELLS;
const NORMAL_GROUP_COS = CYLINDER_TERRAIN_NORMAL_GROUP_COS;
const LINE_CONTACT_DISTANCE = MANIFOLD_LINE_CONTACT_DISTANCE;
const TIE_TOLERANCE = MANIFOLD_TIE_TOLERANCE;
const setElementFrame = setElementFrameImport;
const elementNormalInto = elementNormalIntoImport;
const ELEMENT_FRAME = ElementTest.Frame;
const REJECT_MARGIN = CYLINDER_TERRAIN_REJECT_MARGIN;
/** The face prefilter runs only for axes at least this far from vertical (sinθ₀ against the horizontal). */
const PREFILTER_MIN_SIN = 0.05;
const RECT_BIT = CELL_RECTANGLE_BIT;
const sideTrapezoidContacts = sideTrapezoidContactsImport;
const baseEllipseContacts = baseEllipseContactsImport;
const singlePointContact = singlePointContactImport;
const edgePoke = edgePokeImport;
const edgeScratch = edgeScratchImport;
const emitEdgeContact = emitEdgeContactImport;

const query = new CylinderQuery();
const frame = new ElementFrame();
const cullFrame = new ElementFrame();
const range: MinMax = { min: 0, max: 0 };
/*
 * Edge classes that can poke into the cylinder, Convex and Active (terrain/edge-class.ts), are
 * the two with the high bit of the 2-bit class set: narrowPhase reads that bit.
 */
if ((CLASS_CONVEX & 2) === 0 || (CLASS_ACTIVE & 2) === 0 || (EdgeClass.Flat & 2) !== 0 || (EdgeClass.Concave & 2) !== 0) {
  throw new Error('cylinder–terrain: edge classes Convex and Active must be the ones with bit 1 set');
}

/** Switches of the query, for tests that check a shortcut against the long way. */
export const cylinderTerrainOptions = {
  /**
   * Skip the quick element test of cells that the slope bound of cullCells proves have no face
   * contact (same contacts either way; off only to check exactly that, in tests).
   */
  facePrefilter: true,
};

/**
 * Size of the cylinder of an engine query (CylinderShape has both fields). An object rather than
 * two numbers: a double passed to a call that is not inlined is boxed on the heap, and the engine
 * path allocates nothing.
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
  ws.cellsPrefiltered = 0;
  ws.candidateCount = 0;
  ws.flatPatch = false;
  const cx = center[0], cy = center[1], cz = center[2];
  const radius = cylinder.radius, halfHeight = cylinder.halfHeight;
  const vx = axisUnit[0], vy = axisUnit[1], vz = axisUnit[2];
  const len2 = vx * vx + vy * vy + vz * vz;
  // Written as negated "valid" tests so NaN fails them.
  if (
    !(Number.isFinite(cx) && Number.isFinite(cy) && Number.isFinite(cz)) ||
    !(Math.abs(len2 - 1) <= AXIS_UNIT_TOLERANCE) ||
    !(radius > 0 && radius < Infinity && halfHeight > 0 && halfHeight < Infinity)
  ) {
    return CylinderTerrainStatus.InvalidInput;
  }
  const q = query;
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
  if ((i1 - i0 + 1) * (j1 - j0 + 1) > MAX_CELLS) {
    // Visit a centred window of the footprint; report the truncation.
    status |= CylinderTerrainStatus.CellRangeTruncated;
    const side = Math.floor(Math.sqrt(MAX_CELLS));
    if (i1 - i0 + 1 > side) { const m = (i0 + i1) >> 1; i0 = m - (side >> 1); i1 = i0 + side - 1; }
    if (j1 - j0 + 1 > side) { const m = (j0 + j1) >> 1; j0 = m - (side >> 1); j1 = j0 + side - 1; }
  }
  // Start loading the range's heights and cell bits now: the setup below needs none of them
  // and runs while they arrive (see touchRange).
  touchSink[0] = touchRange(hf, i0, j0, i1, j1);
  resetEdgePass(i0, j0, i1);
  // 2a. Columns of each row that the cylinder can reach at any height (see footprintRows); the
  // H_min/H_max test only needs those cells: the others are out of reach whatever their height.
  setupCull(q, hf);
  cull.reachXY = Math.sqrt((2 * ex + hf.dx) * (2 * ex + hf.dx) + (2 * ey + hf.dy) * (2 * ey + hf.dy));
  cull.rowDepth = Infinity;
  const cells = footprintRows(ws, hf, i0, j0, i1, j1);
  if (cells === 0) return status;
  if (cells <= DIRECT_SCAN_CELLS) {
    scanRowsMinMax(range, ws, hf, j0, j1);
  } else {
    hf.cellRangeMinMax(range, i0, j0, i1, j1);
  }
  if (!(range.max > zMin)) return status;

  if (range.max - range.min < FLAT_PATCH_TOLERANCE) {
    ws.flatPatch = true;
    if (flatPatchContacts(cand, hf, q, frame, range.max) > 0) status |= CylinderTerrainStatus.CandidateOverflow;
  } else {
    // 2c. Rows again, with the section at the deepest any of those cells can reach (H_max):
    // fewer cells for the per-cell bound below.
    if (cull.box) {
      cull.rowDepth = range.max - cull.lowZ;
      footprintRows(ws, hf, i0, j0, i1, j1);
    }
    status |= narrowPhase(cand, hf, q, ws, j0, j1);
  }
  ws.candidateCount = cand.count;
  const rs = reduceManifoldInto(out, cand, ws.groups, NORMAL_GROUP_COS, LINE_CONTACT_DISTANCE, TIE_TOLERANCE);
  if (rs & ReduceManifoldStatus.GroupOverflow) status |= CylinderTerrainStatus.GroupOverflow;
  if (rs & ReduceManifoldStatus.OutputOverflow) status |= CylinderTerrainStatus.OutputOverflow;
  return status;
}

/**
 * Where touchRange's sum goes, so the compiler cannot drop its loads as unused (an array slot:
 * a double stored in a module variable is boxed on the heap, once per query).
 */
const touchSink = new Float64Array(1);

/**
 * Reads one height per cache line (8 doubles) of every vertex row of cells i0..i1 × j0..j1, and
 * the ends of every row of their cell bits, and returns their sum (meaningless). A prefetch: a
 * wheel's range is a dozen rows of a heights array that mostly is not in the core's caches
 * (513 × 513 doubles: 2 MB), and these loads do not depend on each other, so their misses are
 * in flight together while the query's setup computes; the scans after it then hit. Measured:
 * 0.3 µs of 11 per query on the benchmark's scene, where queries sorted by position (the
 * heights already cached) ran 0.85 µs faster.
 */
function touchRange(hf: Heightfield, i0: number, j0: number, i1: number, j1: number): number {
  const H = hf.heights, cols = hf.cols, bits = hf.cellBits, cellsX = hf.cellsX;
  let sum = 0;
  for (let j = j0; j <= j1 + 1; j++) {
    const row = j * cols;
    for (let i = i0; i <= i1 + 1; i += 8) sum += H[row + i];
    sum += H[row + i1 + 1];
    if (j <= j1) sum += bits[j * cellsX + i0] + bits[j * cellsX + i1];
  }
  return sum;
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
  ex: 0.5, ey: 0.5, invEx: 0.5, invEy: 0.5, radE: 0.5, radP: 0.5, capAlong: 0.5, discReach2: 0.5, sin: 0.5,
  /** [m] Depth below A_L's height that footprintRows considers (a field, not an argument: see CylinderSize). */
  rowDepth: 0.5,
  /** [m] Bound on the xy distance from a base centre to any point of a footprint cell (the face prefilter's case-A test). */
  reachXY: 0.5,
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
  cull.sin = cf.sin > PARALLEL_SIN ? cf.sin : 0;
  const segLen = Math.sqrt(segX * segX + segY * segY);
  cull.segLen = segLen;
  cull.box = segLen > GEOM_EPS;
  const ex = cull.box ? segX / segLen : 1, ey = cull.box ? segY / segLen : 0;
  cull.ex = ex;
  cull.ey = ey;
  cull.invEx = Math.abs(ex) > UNIT_EPS ? 1 / ex : 0; // footprintRows divides only where |e_x| > ε
  cull.invEy = Math.abs(ey) > UNIT_EPS ? 1 / ey : 0;
  cull.radE = 0.5 * (Math.abs(ex) * dx + Math.abs(ey) * dy); // the cell's half-extent along e
  cull.radP = 0.5 * (Math.abs(ey) * dx + Math.abs(ex) * dy); // … and along p = (−e_y, e_x)
  cull.capAlong = 2 * r * cf.cos;
  const halfDiag = 0.5 * Math.sqrt(dx * dx + dy * dy);
  cull.discReach2 = (r + cull.capAlong + halfDiag) ** 2; // upright axis: within the base disc's reach
}

/**
 * For rows j0..j1, the columns [rowLo, rowHi] (clamped to [i0, i1]) whose cells pass the
 * part of the per-cell bound that does not depend on the cell's heights, for the part of the cylinder
 * within cull.rowDepth below A_L (Infinity: the whole cylinder). Returns the number of cells.
 */
function footprintRows(ws: CylinderTerrainWorkspace, hf: Heightfield, i0: number, j0: number, i1: number, j1: number): number {
  const depth = cull.rowDepth;
  const dx = hf.dx, dy = hf.dy;
  const r = cull.r;
  // The section's half-width at the line's deepest point (W ≤ r) and the part of the line below
  // the plane `depth` above A_L, as in the per-cell bound of narrowPhase (monotone in depth).
  const rho = cull.sin > 0 ? depth / cull.sin : Infinity;
  const limA = (rho < r ? Math.sqrt(rho * (2 * r - rho)) : r) + cull.radP; // |across| bound
  const tEnd = cull.segZ > depth ? depth / cull.segZ : 1;
  const limB0 = cull.capAlong + cull.radE, limB1 = tEnd * cull.segLen + cull.capAlong + cull.radE; // along ∈ [−limB0, limB1]
  const ex = cull.ex, ey = cull.ey, invEx = cull.invEx, invEy = cull.invEy, invDx = 1 / dx;
  // Cell centre x of column i relative to A_L: rx = xc0 + i·dx.
  const xc0 = hf.x0 + 0.5 * dx - cull.lowX;
  let cells = 0;
  for (let j = j0; j <= j1; j++) {
    const ry = hf.y0 + (j + 0.5) * dy - cull.lowY;
    let rxLo = -Infinity, rxHi = Infinity;
    let empty = false;
    if (cull.box) {
      const ayx = ry * ex; // across = |ry·e_x − rx·e_y| ≤ limA
      if (Math.abs(ey) > UNIT_EPS) {
        const p1 = (ayx - limA) * invEy, p2 = (ayx + limA) * invEy;
        rxLo = Math.min(p1, p2); rxHi = Math.max(p1, p2);
      } else if (Math.abs(ayx) > limA) {
        empty = true;
      }
      const byy = ry * ey; // along = rx·e_x + ry·e_y ∈ [−limB0, limB1]
      if (Math.abs(ex) > UNIT_EPS) {
        const p1 = (-limB0 - byy) * invEx, p2 = (limB1 - byy) * invEx;
        rxLo = Math.max(rxLo, Math.min(p1, p2)); rxHi = Math.min(rxHi, Math.max(p1, p2));
      } else if (byy < -limB0 || byy > limB1) {
        empty = true;
      }
    } else {
      const rem = cull.discReach2 - ry * ry;
      if (rem < 0) empty = true;
      else { rxHi = Math.sqrt(rem); rxLo = -rxHi; }
    }
    let lo = Math.max(i0, Math.ceil((rxLo - xc0) * invDx));
    let hi = Math.min(i1, Math.floor((rxHi - xc0) * invDx));
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
  // Vertex row jj is shared by cell rows jj − 1 and jj: read the union of their columns once.
  for (let jj = j0; jj <= j1 + 1; jj++) {
    let a = 0x7fffffff, b = -1;
    if (jj <= j1 && ws.rowLo[jj - j0] <= ws.rowHi[jj - j0]) {
      a = ws.rowLo[jj - j0];
      b = ws.rowHi[jj - j0];
    }
    if (jj > j0) {
      const pa = ws.rowLo[jj - 1 - j0], pb = ws.rowHi[jj - 1 - j0];
      if (pa <= pb) {
        if (pa < a) a = pa;
        if (pb > b) b = pb;
      }
    }
    if (a > b) continue;
    const row = jj * cols;
    for (let i = a; i <= b + 1; i++) {
      const h = H[row + i];
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
  }
  out.min = lo;
  out.max = hi;
}


/**
 * Cells of the current query that pass the per-cell bound, in cell order, with what the quick
 * element test found (VISIT_* bits). Module scratch: a query runs to completion before the next.
 */
const visitI = new Int32Array(MAX_CELLS);
const visitJ = new Int32Array(MAX_CELLS);
const visitFlags = new Uint8Array(MAX_CELLS);
/** Element 0 (rectangle or lower triangle) / element 1 (upper triangle): the cylinder dips below its plane. */
const VISIT_BELOW0 = 1, VISIT_BELOW1 = 2; // element e: 1 << e
/** … and a face contact is possible: build the exact frame. */
const VISIT_FRAME0 = 4, VISIT_FRAME1 = 8; // element e: 4 << e

/** Steps 2–4 over the footprint rows j0..j1 (ws.rowLo/rowHi). Returns status bits. */
function narrowPhase(cand: ContactBuffer, hf: Heightfield, q: CylinderQuery, ws: CylinderTerrainWorkspace, j0: number, j1: number): number {
  const visits = cullCells(hf, q, ws, j0, j1);
  ws.cellsVisited = visits;
  let lost = 0;
  const f = frame;
  const cellBits = hf.cellBits, cellsX = hf.cellsX, lastRow = hf.cellsY - 1, lastCol = cellsX - 1;
  for (let k = 0; k < visits; k++) {
    const i = visitI[k], j = visitJ[k], flags = visitFlags[k];
    const bits = cellBits[j * cellsX + i];
    const rect = (bits & RECT_BIT) !== 0;
    ws.elementsTested += rect ? 1 : 2;
    // 3. Exact frames and cases for the elements the quick test kept.
    if (flags & VISIT_FRAME0) lost += elementContacts(cand, hf, q, f, i, j, rect ? KIND_RECTANGLE : KIND_LOWER);
    if (flags & VISIT_FRAME1) lost += elementContacts(cand, hf, q, f, i, j, KIND_UPPER);
    // The edge pass runs only for the edges of elements the cylinder dips below and only if an
    // edge is bent (convex): flat and concave edges never produce contacts. No further gate: a
    // section-vs-element SAT here cost more than the edge tests it saved (measured: 2 µs of 20
    // per query, the same contacts). Edge classes were computed with the heightfield.
    const bBottom = ((bits >> BOTTOM_SHIFT) & 3) as EdgeClass;
    const bLeft = ((bits >> LEFT_SHIFT) & 3) as EdgeClass;
    const bDiag = ((bits >> DIAGONAL_SHIFT) & 3) as EdgeClass;
    // The edges to test as bits, without branches (each condition alone is a coin toss from cell
    // to cell): an element's edges need the cylinder below its plane and a class that pokes
    // (Convex or Active: the class's high bit); the diagonal needs both elements, the grid's
    // top and right border edges the element they bound (the upper one of a split cell).
    const below0 = flags & VISIT_BELOW0, below1 = (flags >> 1) & 1;
    const pokesB = (bits >> (BOTTOM_SHIFT + 1)) & 1, pokesL = (bits >> (LEFT_SHIFT + 1)) & 1, pokesD = (bits >> (DIAGONAL_SHIFT + 1)) & 1;
    const split = 1 - (bits & RECT_BIT);
    const belowUp = below1 ^ ((below0 ^ below1) & (1 - split)); // rect ? below0 : below1
    const edges = (below0 & pokesB) | ((below0 & pokesL) << 1) | ((split & below0 & below1 & pokesD) << 2) |
      ((belowUp & +(j === lastRow)) << 3) | ((belowUp & +(i === lastCol)) << 4);
    if (edges === 0) continue;
    // 4. Second pass over the edges this cell owns. Face normals (edgeScratch: owner element,
    // neighbour element) are computed only for an edge that pokes in.
    const es = edgeScratch;
    if ((edges & 1) !== 0 && edgePoke(q, hf, i, j, i + 1, j)) {
      elementNormalInto(es, 0, hf, i, j, false);
      if (j > 0) elementNormalInto(es, 3, hf, i, j - 1, !hf.cellIsRectangle(i, j - 1));
      es[6] = bBottom === CLASS_ACTIVE ? 1 : 0;
      lost += emitEdgeContact(cand, q, i, j, EDGE_BOTTOM);
    }
    if ((edges & 2) !== 0 && edgePoke(q, hf, i, j, i, j + 1)) {
      elementNormalInto(es, 0, hf, i, j, false);
      if (i > 0) elementNormalInto(es, 3, hf, i - 1, j, !hf.cellIsRectangle(i - 1, j));
      es[6] = bLeft === CLASS_ACTIVE ? 1 : 0;
      lost += emitEdgeContact(cand, q, i, j, EDGE_LEFT);
    }
    if ((edges & 4) !== 0 && edgePoke(q, hf, i + 1, j, i, j + 1)) {
      elementNormalInto(es, 0, hf, i, j, false);
      elementNormalInto(es, 3, hf, i, j, true);
      es[6] = bDiag === CLASS_ACTIVE ? 1 : 0;
      lost += emitEdgeContact(cand, q, i, j, EDGE_DIAGONAL);
    }
    if ((edges & 24) !== 0) {
      // Grid-border edges (no neighbour to own them): active.
      elementNormalInto(es, 0, hf, i, j, !rect);
      es[3] = es[0]; es[4] = es[1]; es[5] = es[2]; es[6] = 1;
      if ((edges & 8) !== 0 && edgePoke(q, hf, i, j + 1, i + 1, j + 1)) lost += emitEdgeContact(cand, q, i, j, EDGE_TOP);
      if ((edges & 16) !== 0 && edgePoke(q, hf, i + 1, j, i + 1, j + 1)) lost += emitEdgeContact(cand, q, i, j, EDGE_RIGHT);
    }
  }
  return lost > 0 ? CylinderTerrainStatus.CandidateOverflow : 0;
}

/**
 * Exact frame of element `kind` of cell (i, j) and its case A/B/C contacts (none when the exact
 * test finds the cylinder above the plane). Returns the number of contacts that did not fit.
 */
function elementContacts(cand: ContactBuffer, hf: Heightfield, q: CylinderQuery, f: ElementFrame, i: number, j: number, kind: ElementKind): number {
  if (setElementFrame(f, q, hf, i, j, kind) !== ELEMENT_FRAME) return 0;
  if (f.sAU > 0) return sideTrapezoidContacts(cand, hf, f);
  if (f.sBL > 0) return baseEllipseContacts(cand, hf, f) + singlePointContact(cand, hf, f, true);
  return singlePointContact(cand, hf, f, false);
}

/**
 * Step 2 and the quick part of step 3: the cells of footprint rows j0..j1 that pass the per-cell
 * bound, into visitI/visitJ, each with the quick element test's verdict in visitFlags. Returns
 * their number. One tight loop over heights and a few dozen flops per cell; the exact frames,
 * cases and edges run afterwards over the few cells kept.
 */
function cullCells(hf: Heightfield, q: CylinderQuery, ws: CylinderTerrainWorkspace, j0: number, j1: number): number {
  const r = q.r;
  const H = hf.heights, cols = hf.cols;
  const dx = hf.dx, dy = hf.dy;
  const { lowX, lowY, lowZ, segZ, segLen, ex, ey, radE, radP, capAlong, discReach2, box } = cull;
  const cellBits = hf.cellBits, cellsX = hf.cellsX;
  const cullSin = cull.sin;
  const invCullSin = cullSin > 0 ? 1 / cullSin : 0, invSegLen = box ? 1 / segLen : 0;
  const sinOn = +(cullSin > 0), alongReach = capAlong + radE + REJECT_MARGIN;
  const cx = q.cx, cy = q.cy, cz = q.cz, vx = q.vx, vy = q.vy, vz = q.vz, hh = q.hh;
  const invDx = q.invDx, invDy = q.invDy, x0 = hf.x0, y0 = hf.y0;
  // Face prefilter (faceOff below). A cell's elements can have no case A/B/C contact when the
  // cell is farther (in xy) from S₀, the reference lowest line (the one for a horizontal plane,
  // A_L…A_U of setupCull), than the foot segment can move for the element's slope σ = ∇h.
  // With θ₀ the axis' angle from the vertical (sinθ₀ = cull.sin), for each element:
  //  - its lowest line is L(t) = C + t·v + r·w, S₀'s is C + t·v + r·w₀; w and w₀ are P(−n) and
  //    P(−z) normalised (P: projection ⟂ v), and |P(z − n)| ≤ |P(σ, 0)| + |σ|²/2 = p + |σ|²/2
  //    with p = √(|σ|² − (σ·v)²), the slope across the axis. For |σ| ≤ 0.4·sinθ₀ that is at most
  //    0.48·sinθ₀, so the angle between w and w₀ is at most asin(x), x = (p + |σ|²/2)/sinθ₀,
  //    and |w − w₀| ≤ 1.036·x: L moves by at most W·(p + |σ|²/2), W = 1.04·r/sinθ₀;
  //  - a contact is the foot F = L + s·n of a point with s ≥ 0 whose foot lies in the element,
  //    so F_z ≤ the cell's highest corner and L_z ≥ A_L's z: s·n_z ≤ depth and the foot moves
  //    sideways by s·|n_xy| ≤ depth·|σ| ≤ depth·(p + |σ·v|);
  //  - case A (s(B_L) > 0, the base disc under the plane; its contacts are not on L) is ruled
  //    out when depth + |σ|·(reachXY + 1.25r) ≤ 2r·sinθ₀: the plane rises at most |σ|·reachXY
  //    between the cell and a base centre, which sits r·sinθ₀ above A_L, and r·sinθ ≥
  //    r·sinθ₀ − 1.25r|σ|. With depth ≤ H_max − A_L's z that caps |σ| for the whole query.
  // So no contact if |σ| ≤ σ_cap and g = dist(cell, S₀) − W·|σ|²/2 − depth·|σ·v| > (W + depth)·p,
  // tested squared (no root). The cell's elements are then only marked below their planes (their
  // edges are tested as usual). A brute-force test (quick-test.test.ts) compares the candidates
  // with the prefilter on and off.
  const capA = (2 * r * cullSin - (cull.rowDepth + 2 * REJECT_MARGIN)) / (cull.reachXY + 1.25 * r);
  const cap = capA < 0.4 * cullSin ? capA : 0.4 * cullSin;
  const pfCap2 = cylinderTerrainOptions.facePrefilter && box && cullSin > PREFILTER_MIN_SIN && cap > 0 ? cap * cap : 0;
  const pfW = pfCap2 > 0 ? 1.04 * r / cullSin : 0;
  let visits = 0, prefiltered = 0;
  for (let j = j0; j <= j1; j++) {
    const ry = y0 + (j + 0.5) * dy - lowY;
    const iLo = ws.rowLo[j - j0], iHi = ws.rowHi[j - j0];
    for (let i = iLo; i <= iHi; i++) {
      const kv = j * cols + i;
      const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + cols], h3 = H[kv + cols + 1];
      // The highest corner without branches (max(a, b) = (a + b + |a − b|)/2; Math.max branches
      // on the comparison, which mispredicts on terrain): within a few ulp, so raised by
      // REJECT_MARGIN to stay an upper bound.
      const m01 = h0 + h1 + Math.abs(h0 - h1), m23 = h2 + h3 + Math.abs(h2 - h3);
      const hc = 0.25 * (m01 + m23 + Math.abs(m01 - m23)) + REJECT_MARGIN;
      const depth = hc - lowZ;
      const rx = x0 + (i + 0.5) * dx - lowX;
      // The tests as bits and one branch on their product: each test alone is a coin
      // toss for cells near the footprint's rim, and a mispredicted branch costs more than the
      // flops of the tests it would skip.
      let keep: number;
      let faceOff = 0;
      if (box) {
        const across = Math.abs(ry * ex - rx * ey);
        const along = rx * ex + ry * ey;
        // Only the part of the line below z = hc can reach the cell: t ∈ [0, min(depth/segZ, 1)],
        // so the far limit is along − capAlong − radE > min(depth/segZ, 1)·segLen, tested as
        // two products (margin: their round-off differs from the quotient's).
        const over = along - alongReach;
        const beyondEnd = +(over > segLen) | +(over * segZ > depth * segLen);
        // Depth of the line's lowest point that can reach this cell (the line rises along e
        // by segZ over segLen; max(reach0, 0) = (reach0 + |reach0|)/2, exact), then the
        // section's half-width W = √(ρ(2r − ρ)) there: across > W + radP, squared.
        const reach0 = along - radE - capAlong;
        const local = depth - segZ * (0.5 * (reach0 + Math.abs(reach0))) * invSegLen;
        const rho = local * invCullSin;
        const gap = across - radP;
        const narrow = sinOn & (+!(local > 0) | (+(rho < r) & +(gap > 0) & +(gap * gap > rho * (2 * r - rho))));
        keep = +(depth > 0) & +!(across > r + radP) & +!(along < -capAlong - radE) & (1 - beyondEnd) & (1 - narrow);
        // Face prefilter (see above): the cell's distance from S₀ (lower bound, branch-free
        // maxima within round-off: REJECT_MARGIN) against each element's reach, squared.
        const dB = along - radE - segLen, dC = -along - radE; // and `gap` across
        const dAB = 0.5 * (gap + dB + Math.abs(gap - dB));
        const dist = 0.5 * (dAB + dC + Math.abs(dAB - dC)) - REJECT_MARGIN;
        const sx0 = (h1 - h0) * invDx, sy0 = (h2 - h0) * invDy, sx1 = (h3 - h2) * invDx, sy1 = (h3 - h1) * invDy;
        const s0 = sx0 * sx0 + sy0 * sy0, s1 = sx1 * sx1 + sy1 * sy1;
        const a0 = Math.abs(sx0 * vx + sy0 * vy), a1 = Math.abs(sx1 * vx + sy1 * vy);
        const g0 = dist - pfW * 0.5 * s0 - depth * a0, g1 = dist - pfW * 0.5 * s1 - depth * a1;
        const k = (pfW + depth) * (pfW + depth) * (1 + 1e-9);
        faceOff = +(s0 <= pfCap2) & +(s1 <= pfCap2) & +(g0 > 0) & +(g1 > 0) &
          +(g0 * g0 > k * (s0 - a0 * a0)) & +(g1 * g1 > k * (s1 - a1 * a1));
      } else {
        keep = +(depth > 0) & +!(rx * rx + ry * ry > discReach2);
      }
      if (keep === 0) continue;
      // Quick element test (the exact frame is setElementFrame's): for element 0 (rectangle or
      // lower triangle, plane through V0) and, in a split cell, element 1 (upper, through V3).
      const rect = (cellBits[j * cellsX + i] & RECT_BIT) !== 0;
      const ox = x0 + i * dx, oy = y0 + j * dy;
      // Elements the prefilter rules out count as below their planes (their edges are tested).
      let flags = faceOff * (rect ? VISIT_BELOW0 : VISIT_BELOW0 | VISIT_BELOW1);
      // +1: lower triangle (inside where fx·dy + fy·dx ≤ dx·dy), −1 upper, 0 rectangle.
      let diagSign = rect ? 0 : 1;
      for (let e = 0; e < (faceOff !== 0 ? 0 : rect ? 1 : 2); e++) {
        let riseX: number, riseY: number, px: number, py: number, pz: number;
        if (e === 0) {
          riseX = h1 - h0; riseY = h2 - h0; px = ox; py = oy; pz = h0;
        } else {
          riseX = h3 - h2; riseY = h3 - h1; px = ox + dx; py = oy + dy; pz = h3;
        }
        // On the unnormalised normal m = (−σx, −σy, 1), |m|² = L2: every s-value scaled by |m|,
        // one square root, no division (the foot comparisons are multiplied through by
        // sinθ·|m|·L2 > 0). Conservative by REJECT_MARGIN: an element it rejects has no face
        // contact on the exact path, and one it finds above its plane has none either.
        const mx = -riseX * invDx, my = -riseY * invDy;
        const sCm = mx * (px - cx) + my * (py - cy) + (pz - cz);
        const dm = vx * mx + vy * my + vz;
        const pmx = dm * vx - mx, pmy = dm * vy - my, pmz = dm * vz - 1;
        const sinL = Math.sqrt(pmx * pmx + pmy * pmy + pmz * pmz);
        const cosL = Math.abs(dm);
        const sCLm = sCm + hh * cosL;
        const sALm = sCLm + r * sinL;
        // Branch-free from here: the verdicts of consecutive elements do not wait on each
        // other's square root. Above the plane: nothing (and the element's edges are out).
        const below = +(sALm >= -REJECT_MARGIN);
        const L2 = mx * mx + my * my + 1;
        // Cases B/C (s(B_L) < 0): the feet of A_L and A_U, x and y, times D = sinθ·|m|·L2, from
        // foot(A_L) = C_L + r·pm/sinL + (sALm/L2)·m; no face contact if both lie beyond one
        // side of the cell or beyond the element's diagonal (V1–V2: fx·dy + fy·dx = dx·dy).
        const caseBC = +(sCLm - r * sinL < -REJECT_MARGIN * L2) & +(sinL > REJECT_MARGIN * L2);
        const sg = (1 - 2 * +(dm < 0)) * hh; // C_L = C − (h/2)·a with a = sign(v·m)·v
        const D = sinL * L2, rL2 = r * L2, sS = sALm * sinL, s1 = sS - 2 * hh * cosL * sinL;
        const bx = cx - sg * vx - ox, by = cy - sg * vy - oy;
        const fx0 = bx * D + rL2 * pmx + sS * mx, fy0 = by * D + rL2 * pmy + sS * my;
        const fx1 = (bx + 2 * sg * vx) * D + rL2 * pmx + s1 * mx, fy1 = (by + 2 * sg * vy) * D + rL2 * pmy + s1 * my;
        const lo = -REJECT_MARGIN * D, hx = (dx + REJECT_MARGIN) * D, hy = (dy + REJECT_MARGIN) * D;
        const diag = dx * dy * D, diagMargin = REJECT_MARGIN * (dx + dy) * D;
        const g0 = diagSign * (fx0 * dy + fy0 * dx - diag), g1 = diagSign * (fx1 * dy + fy1 * dx - diag);
        // … or the element lies wholly on one side of the foot segment's line (the segment
        // passes beside a corner): its vertices' signed offsets from the line, with the line's
        // normal (−Δfy, Δfx) and an L1 bound of its length for the margin.
        const nlx = fy0 - fy1, nly = fx1 - fx0;
        const side0 = -(nlx * fx0 + nly * fy0), sideX = nlx * dx * D, sideY = nly * dy * D; // offsets of V0, V1 − V0, V2 − V0
        const lineMargin = REJECT_MARGIN * D * (Math.abs(nlx) + Math.abs(nly));
        // Lower triangle and rectangle: V0, V1, V2 (+ V3 for the rectangle); upper: V1, V2, V3.
        const o1 = side0 + sideX, o2 = side0 + sideY, oFar = side0 + sideX + sideY;
        const oA = e === 0 ? side0 : oFar, oD = rect ? oFar : oA;
        const lineSide = (+(oA > lineMargin) & +(o1 > lineMargin) & +(o2 > lineMargin) & +(oD > lineMargin)) |
          (+(oA < -lineMargin) & +(o1 < -lineMargin) & +(o2 < -lineMargin) & +(oD < -lineMargin));
        const beyond = (+(fx0 < lo) & +(fx1 < lo)) | (+(fy0 < lo) & +(fy1 < lo)) | (+(fx0 > hx) & +(fx1 > hx)) |
          (+(fy0 > hy) & +(fy1 > hy)) | (+(g0 > diagMargin) & +(g1 > diagMargin)) | lineSide;
        const frameNeeded = below & (1 - (caseBC & beyond));
        flags |= (below << e) | (frameNeeded << (2 + e));
        diagSign = -1;
      }
      visitI[visits] = i;
      visitJ[visits] = j;
      visitFlags[visits] = flags;
      visits++;
      prefiltered += faceOff;
    }
  }
  ws.cellsPrefiltered = prefiltered;
  return visits;
}
