/**
 * Which cells under a wheel can touch it (steps 2 and 3a of collide.ts): a per-cell bound from
 * the cylinder's horizontal sections, then a per-element "is the cylinder below this plane" test.
 * Both only drop elements whose intersection with the cylinder is empty, so no contact is lost
 * (issue #12 asks each skip to be proved: the proofs follow).
 *
 * The per-cell bound. Any point X of an element inside the cylinder is a cylinder point over the
 * cell (in xy) no higher than the cell's highest corner h_c. Take the lowest side line w.r.t. the
 * horizontal, A_L…A_U (its projection on xy runs along e, A_L the lower end), and θ₀ the axis'
 * angle from the vertical. In xy, every cylinder point at height ≤ z lies in the rectangle
 * spanned by the projected part of that line below z (along e, extended by 2r·cosθ₀ at both ends:
 * how far a tilted base disc reaches past it) and, across it (along p ⟂ e), within the half-width
 * W(z) = √(ρ(2r − ρ)), ρ = (z − A_L's z)/sinθ₀, of the cylinder's section at the line's deepest
 * point below z (W ≤ r). A cell farther than that from the rectangle (separating-axis test on
 * e and p, the cell's half-extents radE, radP along them) has no such point, so no element of
 * it meets the cylinder: skipping it drops nothing. Same with the disc bound for an upright axis.
 * Without a height (footprintRows at rowDepth = ∞) the same bound gives each row's column range.
 *
 * The element test. s(A_L) is the largest s over the cylinder (A_L is its deepest point w.r.t.
 * the plane); s(A_L) < 0 means the cylinder is wholly above the element's plane, so the element
 * (and each of its edges) cannot meet it. Computed on the unnormalised normal m = (−σx, −σy, 1):
 * s·|m| = (m·(P − C)) + (h/2)|v·m| + r·|P_⊥v(m)|, one square root, no division; REJECT_MARGIN
 * absorbs its round-off difference from the exact frame (frame.ts), which decides anyway.
 *
 * The screen (screenElement) then decides per element below its plane whether a case A/B/C
 * contact is possible (s(B_L) > 0, or the lowest line's foot segment meets the element): only
 * those get the exact frame. The others have their own deepest point on their sides, and are
 * queued for element-walls.ts with a bound of it — they are not dropped, unless that bound is
 * below zero, which proves the element does not meet the cylinder at all (elementApart). Until issue #12 this
 * test (and a "face prefilter" that skipped whole cells far from the lowest line by a slope
 * bound) dropped them: both proved only that the lowest line has no foot in the element, while
 * the element's deepest point can be elsewhere — how a cambered rim lying across a convex seam
 * went unreported.
 */
import { CYLINDER_TERRAIN_MAX_CELLS, CYLINDER_TERRAIN_PARALLEL_SIN, CYLINDER_TERRAIN_REJECT_MARGIN, GEOMETRIC_EPSILON, UNIT_EPSILON } from '../../constants';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield, MinMax } from '../../terrain/heightfield';
import type { CylinderQuery, ElementFrame } from './frame';
import { setHorizontalFrame } from './frame';
import type { CylinderTerrainWorkspace } from './workspace';
import { WALL_OPEN } from './element-walls';

/**
 * The lowest side line w.r.t. the horizontal, in xy, and the reach of the sections around it
 * (see the header). Set once per query by setupCull; one per workspace.
 */
export class CellCull {
  r = NaN;
  /** [m] A_L (lowest rim point w.r.t. the horizontal). */
  lowX = NaN; lowY = NaN; lowZ = NaN;
  /** [m] Rise of A_U over A_L (≥ 0) and the line's projected length. */
  segZ = NaN; segLen = NaN;
  /** Unit xy direction e of the projected line. */
  ex = NaN; ey = NaN;
  /** [m] The cell's half-extents along e and p. */
  radE = NaN; radP = NaN;
  /** [m] 2r·cosθ₀: how far a base disc reaches past the line's ends. */
  capAlong = NaN;
  /** [m²] Upright axis: squared reach of the base disc plus half a cell diagonal. */
  discReach2 = NaN;
  /** sinθ₀ (0 when the axis is vertical). */
  sin = NaN;
  /** Reciprocals for the per-cell bound: 1/segZ, 1/sinθ₀ (when not 0) and the line's rise per projected metre, segZ/segLen (0 for an upright axis). */
  invSegZ = NaN; invSin = NaN; riseRate = NaN;
  /** [m] Depth below A_L's height that footprintRows considers (Infinity: all). */
  rowDepth = NaN;
  /** False for an (almost) upright axis: the disc bound replaces the rectangle. */
  box = true;
  /**
   * The unnormalised normal of the current cell's elements that the cylinder dips below, as the
   * screen computed it: (mx, my, |m|²) of element 0, then element 1 (cellPlaneNormalInto).
   */
  readonly planes = new Float64Array(6);
  /**
   * The cells that pass the per-cell bound (reachableCells), in cell order (row by row, i
   * ascending): column, row and the heightfield's cellBits of each; `kept` of them.
   */
  readonly keptI = new Int32Array(CYLINDER_TERRAIN_MAX_CELLS);
  readonly keptJ = new Int32Array(CYLINDER_TERRAIN_MAX_CELLS);
  readonly keptBits = new Uint8Array(CYLINDER_TERRAIN_MAX_CELLS);
  kept = 0;
}

/**
 * Unit normal of element `slot` (0: rectangle or lower triangle, 1: upper triangle) of the cell
 * the screen just looked at, into dst[at..at + 2] — valid once screenElement found the cylinder
 * below that element's plane; bit-identical to frame.ts elementNormalInto (m/|m| with
 * m = (−σx, −σy, 1) and the same |m|).
 */
export function cellPlaneNormalInto(dst: Float64Array, at: number, c: CellCull, slot: number): void {
  const p = c.planes, b = 3 * slot;
  const inv = 1 / Math.sqrt(p[b + 2]);
  dst[at] = p[b] * inv;
  dst[at + 1] = p[b + 1] * inv;
  dst[at + 2] = inv;
}

/** Fills `c` for the query; `scratch` is a frame to use for the horizontal plane. */
export function setupCull(c: CellCull, q: CylinderQuery, hf: Heightfield, scratch: ElementFrame): void {
  const r = q.r, hh = q.hh, dx = hf.dx, dy = hf.dy;
  setHorizontalFrame(scratch, q, 0);
  c.r = r;
  c.lowX = scratch.clx + r * scratch.wx;
  c.lowY = scratch.cly + r * scratch.wy;
  c.lowZ = scratch.clz + r * scratch.wz;
  const segX = 2 * hh * scratch.ax, segY = 2 * hh * scratch.ay; // A_U − A_L in xy
  c.segZ = 2 * hh * scratch.az; // ≥ 0: A_L is the lower end
  c.sin = scratch.sin > CYLINDER_TERRAIN_PARALLEL_SIN ? scratch.sin : 0;
  const segLen = Math.sqrt(segX * segX + segY * segY);
  c.segLen = segLen;
  c.box = segLen > GEOMETRIC_EPSILON;
  c.ex = c.box ? segX / segLen : 1;
  c.ey = c.box ? segY / segLen : 0;
  c.radE = 0.5 * (Math.abs(c.ex) * dx + Math.abs(c.ey) * dy);
  c.radP = 0.5 * (Math.abs(c.ey) * dx + Math.abs(c.ex) * dy);
  c.capAlong = 2 * r * scratch.cos;
  c.invSegZ = 1 / c.segZ;
  c.invSin = c.sin > 0 ? 1 / c.sin : 0;
  c.riseRate = segLen > 0 ? c.segZ / segLen : 0;
  const halfDiag = 0.5 * Math.sqrt(dx * dx + dy * dy);
  c.discReach2 = (r + c.capAlong + halfDiag) ** 2;
  c.rowDepth = Infinity;
}

/**
 * For rows j0..j1, the columns [rowLo, rowHi] (clamped to [i0, i1]) whose cells pass the part of
 * the per-cell bound that does not depend on their heights, for the part of the cylinder within
 * c.rowDepth below A_L. Returns the number of cells.
 */
export function footprintRows(c: CellCull, ws: CylinderTerrainWorkspace, hf: Heightfield, i0: number, j0: number, i1: number, j1: number): number {
  const depth = c.rowDepth, dx = hf.dx, dy = hf.dy, r = c.r;
  const rho = c.sin > 0 ? depth / c.sin : Infinity;
  const limA = (rho < r ? Math.sqrt(rho * (2 * r - rho)) : r) + c.radP; // |across| bound
  const tEnd = c.segZ > depth ? depth / c.segZ : 1;
  const limB0 = c.capAlong + c.radE, limB1 = tEnd * c.segLen + c.capAlong + c.radE; // along ∈ [−limB0, limB1]
  const ex = c.ex, ey = c.ey;
  const xc0 = hf.x0 + 0.5 * dx - c.lowX; // cell centre x of column i relative to A_L: xc0 + i·dx
  let cells = 0;
  for (let j = j0; j <= j1; j++) {
    const ry = hf.y0 + (j + 0.5) * dy - c.lowY;
    let rxLo = -Infinity, rxHi = Infinity;
    let empty = false;
    if (c.box) {
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
      const rem = c.discReach2 - ry * ry;
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
 * Narrows the footprint rows j0..j1 (ws.rowLo/rowHi) to the cells that can reach the slab between
 * the cylinder's base planes, |ζ| ≤ h/2 with ζ = (X − C)·v: a cell none of whose points is in
 * the slab has none in the cylinder, so none of its elements or edges can meet it (the same kind
 * of skip as the per-cell bound: nothing is dropped). The row sections of footprintRows cannot
 * see this: a tilted base disc reaches 2r·cosθ₀ past the lowest line in xy, but only above the
 * terrain under the wheel. `heights` bounds every vertex of those rows (the H_min/H_max of step 2a).
 *
 * A cell's ζ is bounded below by the sum of the least x, y and z terms over its corners and the
 * height range, (x − cx)·vx + (y − cy)·vy + (z − cz)·vz each at its smaller end, and above by the
 * same at the larger ends; the cell is out when the lower bound exceeds h/2 or the upper bound is
 * below −h/2, by REJECT_MARGIN (its round-off). Along a row the x term is monotone in i (so are
 * its floating-point values), so the cells kept form one run: it is trimmed from both ends.
 * Returns the number of cells kept.
 */
export function slabRows(ws: CylinderTerrainWorkspace, q: CylinderQuery, hf: Heightfield, heights: MinMax, j0: number, j1: number): number {
  const vx = q.vx, vy = q.vy, vz = q.vz, cx = q.cx, dx = hf.dx;
  const reach = q.hh + CYLINDER_TERRAIN_REJECT_MARGIN;
  const zA = (heights.min - q.cz) * vz, zB = (heights.max - q.cz) * vz;
  const zMin = Math.min(zA, zB), zMax = Math.max(zA, zB);
  const x0 = hf.x0;
  let cells = 0;
  for (let j = j0; j <= j1; j++) {
    let lo = ws.rowLo[j - j0], hi = ws.rowHi[j - j0];
    if (lo > hi) continue;
    const yA = (hf.y0 + j * hf.dy - q.cy) * vy, yB = (hf.y0 + (j + 1) * hf.dy - q.cy) * vy;
    const restMin = Math.min(yA, yB) + zMin, restMax = Math.max(yA, yB) + zMax;
    // Column i's corner x terms are (x0 + i·dx − cx)·vx and the next column's.
    while (lo <= hi && slabOut((x0 + lo * dx - cx) * vx, (x0 + (lo + 1) * dx - cx) * vx, restMin, restMax, reach)) lo++;
    while (hi >= lo && slabOut((x0 + hi * dx - cx) * vx, (x0 + (hi + 1) * dx - cx) * vx, restMin, restMax, reach)) hi--;
    if (lo > hi) { lo = 0; hi = -1; }
    ws.rowLo[j - j0] = lo;
    ws.rowHi[j - j0] = hi;
    cells += hi - lo + 1;
  }
  return cells;
}

/** True if a cell with corner x terms xa, xb and the row's other bounds is wholly beyond one base plane (slabRows). */
function slabOut(xa: number, xb: number, restMin: number, restMax: number, reach: number): boolean {
  return Math.min(xa, xb) + restMin > reach || Math.max(xa, xb) + restMax < -reach;
}

/**
 * H_min/H_max over the footprint rows by reading their vertices: for a wheel (~60 cells) one
 * pass costs less than the pyramid descent, whose bookkeeping pays off only for large ranges.
 */
export function scanRowsMinMax(out: MinMax, ws: CylinderTerrainWorkspace, hf: Heightfield, j0: number, j1: number): void {
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
    for (let i = a; i <= b + 1 && a <= b; i++) {
      const h = H[jj * cols + i];
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
  }
  out.min = lo;
  out.max = hi;
}

/**
 * The per-cell bound (header) over the footprint rows j0..j1 (ws.rowLo/rowHi): the cells that
 * pass it go to c.keptI/keptJ/keptBits in cell order (row by row, i ascending), with their
 * cellBits, which the narrow phase needs next (read here, in a loop of independent loads, their
 * cache misses overlap). Returns their number (also c.kept).
 *
 * The loop stores to typed arrays, after which V8 reloads object fields: the record's fields are
 * read into locals first. Each cell's tests are combined bitwise (+true = 1), not by branches:
 * whether a cell passes is hard to predict, and the position of the next entry advances by the
 * verdict (an entry written for a dropped cell is overwritten by the next one).
 */
export function reachableCells(c: CellCull, ws: CylinderTerrainWorkspace, hf: Heightfield, j0: number, j1: number): number {
  const keptI = c.keptI, keptJ = c.keptJ, keptBits = c.keptBits, rowLo = ws.rowLo, rowHi = ws.rowHi;
  const H = hf.heights, cols = hf.cols, cellBits = hf.cellBits, cellsX = hf.cellsX;
  const x0 = hf.x0, y0 = hf.y0, dx = hf.dx, dy = hf.dy;
  const lowX = c.lowX, lowY = c.lowY, lowZ = c.lowZ, ex = c.ex, ey = c.ey, box = c.box, discReach2 = c.discReach2;
  const r = c.r, radE = c.radE, radP = c.radP, capAlong = c.capAlong, segZ = c.segZ, segLen = c.segLen;
  const invSegZ = c.invSegZ, sinPos = c.sin > 0, invSin = c.invSin, riseRate = c.riseRate;
  const margin = CYLINDER_TERRAIN_REJECT_MARGIN;
  const alongMin = -capAlong - radE - margin, acrossMax = r + radP + margin;
  let n = 0;
  for (let j = j0; j <= j1; j++) {
    const hi = rowHi[j - j0];
    const ry = y0 + (j + 0.5) * dy - lowY;
    for (let i = rowLo[j - j0]; i <= hi; i++) {
      const kv = j * cols + i;
      // How far the cell's highest corner is above A_L (+ the margin: the bound's round-off). The
      // corner is picked by index, not by Math.max, whose compare-and-branch per pair is hard to
      // predict on rough ground (−0.5 µs per query). The same depth: the heights are finite, and a
      // tie of +0 and −0 gives the same h − lowZ + margin whichever of the two is picked.
      const k0 = kv + +(H[kv + 1] > H[kv]), k1 = kv + cols + +(H[kv + cols + 1] > H[kv + cols]);
      const kMax = k0 + +(H[k1] > H[k0]) * (k1 - k0);
      const depth = H[kMax] - lowZ + margin;
      const rx = x0 + (i + 0.5) * dx - lowX;
      let pass = +(depth > 0);
      if (!box) {
        pass &= +(rx * rx + ry * ry <= discReach2);
      } else {
        const along = rx * ex + ry * ey;
        const across = Math.abs(ry * ex - rx * ey);
        // Along the line: only its part below the corner, t ∈ [0, min(depth/segZ, 1)], can be
        // under the cell; the base discs reach capAlong past it.
        const tEnd = segZ > depth ? depth * invSegZ : 1;
        pass &= +!(along < alongMin) & +!(along > tEnd * segLen + capAlong + radE + margin) & +!(across > acrossMax);
        if (sinPos) {
          // Across: the section's half-width W at the line's deepest point that can be under
          // the cell: out when W (ρ < r) is below the gap to the cell.
          const reach0 = Math.max(0, along - radE - capAlong);
          const local = depth - riseRate * reach0;
          const rho = local * invSin;
          const gap = across - radP - margin;
          pass &= +(local > 0) & (+!(rho < r) | +!(gap > 0) | +!(gap * gap > rho * (2 * r - rho)));
        }
      }
      keptI[n] = i;
      keptJ[n] = j;
      keptBits[n] = cellBits[j * cellsX + i];
      n += pass;
    }
  }
  c.kept = n;
  return n;
}

/**
 * screenElement's verdicts: the element does not meet the cylinder (the cylinder is above its
 * plane, or the element's depth bound is below zero); it may meet it, but no case A/B/C contact is
 * possible; a case contact is possible.
 */
export const SCREEN_APART = 0, SCREEN_NO_FACE = 1, SCREEN_FACE = 2;
/**
 * Added to SCREEN_NO_FACE or SCREEN_FACE when the cylinder's centre is above the element's plane
 * by more than the margin. Such an element's own deepest point along its normal is always
 * accounted for: emitted by its case A/B/C contact, or queued as an element wall (element-walls.ts
 * skips only elements with the centre on or below the plane). The edge pass relies on it
 * (collide.ts, edgeMayAdd). Test it with `&`, the verdict with `& SCREEN_VERDICT`.
 */
export const SCREEN_CENTRE_ABOVE = 4, SCREEN_VERDICT = 3;

/**
 * The element screen (header) for element `kind` of cell (i, j): SCREEN_APART when the whole
 * cylinder is above its plane (by more than the margin); SCREEN_FACE when a case A/B/C contact
 * is possible (the narrow phase then builds the exact frame): s(B_L) > 0 (case A), an (almost)
 * upright axis, or the lowest line's foot segment, from the foot of A_L to that of A_U, not
 * wholly beyond one of the element's sides; else SCREEN_NO_FACE — the element's own deepest
 * point is on its sides, and it is queued here for element-walls.ts (ws.walls) with its normal
 * and a bound of that depth (queueFrameWall's, from these values), unless the cylinder's centre
 * is on or below its plane (see collide.ts, elementContacts) — or SCREEN_APART when that bound
 * is below −margin (elementApart). SCREEN_NO_FACE and SCREEN_FACE carry SCREEN_CENTRE_ABOVE when
 * the cylinder's centre is above the plane by more than the margin.
 *
 * On the unnormalised normal m = (−σx, −σy, 1), |m| = √(1 + σ²): s·|m| = m·(P − C) + (h/2)|v·m|
 * + r·|(v·m)v − m|; the lowest line's foot is A + (s(A)/|m|)·(m/|m|) with A_L = C_L + r·w,
 * w = ((v·m)v − m)/|(v·m)v − m|. The margin absorbs the round-off (the exact frame decides the
 * contacts).
 */
export function screenElement(ws: CylinderTerrainWorkspace, q: CylinderQuery, hf: Heightfield, i: number, j: number, kind: ElementKind): number {
  const margin = CYLINDER_TERRAIN_REJECT_MARGIN;
  const H = hf.heights, cols = hf.cols, kv = j * cols + i, dx = hf.dx, dy = hf.dy;
  const upper = kind === ElementKind.UpperTriangle;
  const ox = hf.x0 + i * dx, oy = hf.y0 + j * dy;
  const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + cols], h3 = H[kv + cols + 1];
  // The plane through V0 (rectangle, lower triangle) or V3 (upper triangle); its slopes divided
  // as setElementFrame divides them, so the queued normal is bit-identical to the frame's.
  const px = upper ? ox + dx : ox, py = upper ? oy + dy : oy, pz = upper ? h3 : h0;
  const mx = upper ? -(h3 - h2) / dx : -(h1 - h0) / dx, my = upper ? -(h3 - h1) / dy : -(h2 - h0) / dy;
  const vx = q.vx, vy = q.vy, vz = q.vz, r = q.r, hh = q.hh;
  const dm = vx * mx + vy * my + vz;
  const pmx = dm * vx - mx, pmy = dm * vy - my, pmz = dm * vz - 1; // (v·m)v − m, length |m|·sinθ
  const sinL = Math.sqrt(pmx * pmx + pmy * pmy + pmz * pmz);
  const sCm = mx * (px - q.cx) + my * (py - q.cy) + (pz - q.cz);
  const cosL = Math.abs(dm);
  const sCLm = sCm + hh * cosL, sALm = sCLm + r * sinL;
  if (sALm < -margin) return SCREEN_APART;
  const above = sCm < -margin ? SCREEN_CENTRE_ABOVE : 0;
  const L2 = mx * mx + my * my + 1;
  const planes = ws.cull.planes, slot = upper ? 3 : 0; // for the edge pass (cellPlaneNormalInto)
  planes[slot] = mx; planes[slot + 1] = my; planes[slot + 2] = L2;
  if (faceContactPossible(sALm - 2 * r * sinL, sinL, L2)) return SCREEN_FACE + above;
  // Feet of A_L and A_U (a = sign(v·m)·v points from the lower base up), cell-normalised.
  const sg = dm < 0 ? -1 : 1;
  const ax = sg * vx, ay = sg * vy, az = sg * vz;
  const invSinL = 1 / sinL, invL2 = 1 / L2;
  const wx = pmx * invSinL, wy = pmy * invSinL, wz = pmz * invSinL;
  const clx = q.cx - hh * ax, cly = q.cy - hh * ay, clz = q.cz - hh * az;
  const alx = clx + r * wx, aly = cly + r * wy;
  const k0 = sALm * invL2, k1 = (sALm - 2 * hh * cosL) * invL2; // s(A_L)/|m| and s(A_U)/|m|, over |m| again
  const u0 = (alx + k0 * mx - ox) * q.invDx, v0 = (aly + k0 * my - oy) * q.invDy;
  const u1 = (alx + 2 * hh * ax + k1 * mx - ox) * q.invDx, v1 = (aly + 2 * hh * ay + k1 * my - oy) * q.invDy;
  const mu = margin * q.invDx, mv = margin * q.invDy;
  // Both feet beyond one side. Bitwise on the comparisons (+true = 1), not && and ||: the same
  // decision without a branch per comparison (their outcomes are hard to predict; −0.6 µs).
  let beyond = (+(u0 < -mu) & +(u1 < -mu)) | (+(v0 < -mv) & +(v1 < -mv)) | (+(u0 > 1 + mu) & +(u1 > 1 + mu)) | (+(v0 > 1 + mv) & +(v1 > 1 + mv));
  if (kind === ElementKind.LowerTriangle) beyond |= +(u0 + v0 > 1 + mu + mv) & +(u1 + v1 > 1 + mu + mv);
  if (upper) beyond |= +(u0 + v0 < 1 - mu - mv) & +(u1 + v1 < 1 - mu - mv);
  if (beyond === 0) return SCREEN_FACE + above;
  if (!(sCm < 0)) return SCREEN_NO_FACE;
  const L = Math.sqrt(L2); // |m|, for the bound only
  // Queue with queueFrameWall's bound (element-walls.ts): ζ = (V − C_L)·a and η = (V − C_L)·u at
  // the vertices, linear from V0's x, y (u = a × w); ξ = (ζ·cosθ − s(C_L))/sinθ.
  const ux = ay * wz - az * wy, uy = az * wx - ax * wz, uz = ax * wy - ay * wx;
  const bx = ox - clx, by = oy - cly;
  const z00 = bx * ax + by * ay - clz * az, y00 = bx * ux + by * uy - clz * uz;
  const zX = dx * ax, zY = dy * ay, yX = dx * ux, yY = dy * uy;
  const z1 = z00 + zX + h1 * az, y1 = y00 + yX + h1 * uz;
  const z2 = z00 + zY + h2 * az, y2 = y00 + yY + h2 * uz;
  let zMax = Math.max(z1, z2), zMin = Math.min(z1, z2), yMin = Math.min(y1, y2), yMax = Math.max(y1, y2);
  if (!upper) {
    const z = z00 + h0 * az, y = y00 + h0 * uz;
    zMax = Math.max(zMax, z); zMin = Math.min(zMin, z); yMin = Math.min(yMin, y); yMax = Math.max(yMax, y);
  }
  if (kind !== ElementKind.LowerTriangle) {
    const z = z00 + zX + zY + h3 * az, y = y00 + yX + yY + h3 * uz;
    zMax = Math.max(zMax, z); zMin = Math.min(zMin, z); yMin = Math.min(yMin, y); yMax = Math.max(yMax, y);
  }
  const yAbs = yMin > 0 ? yMin : yMax < 0 ? -yMax : 0;
  const xMin = (zMin * cosL - sCLm) * invSinL;
  // The normal exactly as setElementFrame computes it (−slope/√(1 + slope²), frame.ts), so
  // element-walls.ts compares the same normal whichever stage queued the element.
  const invL = 1 / L;
  let bound = Math.min(sALm * invL, (Math.sqrt(Math.max(0, r * r - yAbs * yAbs)) - xMin) * L * invSinL);
  if (zMax * L < bound * cosL) bound = (zMax * L) / cosL; // ζ/cosθ, divided only where it binds (rarely for a wheel: cosθ is small)
  if (elementApart(bound)) return SCREEN_APART;
  const w = ws.walls;
  const m = w.count++;
  w.i[m] = i;
  w.j[m] = j;
  w.kind[m] = kind;
  w.normal[3 * m] = mx * invL;
  w.normal[3 * m + 1] = my * invL;
  w.normal[3 * m + 2] = invL;
  w.bound[m] = bound + margin;
  w.state[m] = WALL_OPEN;
  return SCREEN_NO_FACE + above;
}

/**
 * screenElement's test for a face contact from the unnormalised s(B_L)·|m| (sBLm) and sinθ·|m|
 * (sinL), |m|² = L2: s(B_L) > −margin (case A), or sinθ ≤ margin (an almost upright axis).
 * Decided as `sBLm > −margin·|m| || !(sinL > margin·|m|)`, taking the square root only when the
 * bounds 1 ≤ |m| ≤ |m|² leave it open (rarely: sinθ ≈ 1 under a wheel): in floating point too,
 * 1 ≤ fl(√L2) ≤ L2 and a product with the margin is monotone, so the answer is the same bit for bit.
 */
function faceContactPossible(sBLm: number, sinL: number, L2: number): boolean {
  const margin = CYLINDER_TERRAIN_REJECT_MARGIN;
  if (sBLm > -margin) return true;
  if (sinL > margin * L2 && !(sBLm > -margin * L2)) return false;
  const L = Math.sqrt(L2);
  return sBLm > -margin * L || !(sinL > margin * L);
}

/**
 * True if an element whose depth bound (queueFrameWall's, element-walls.ts) is `bound` does not
 * meet the cylinder: each term of the bound below zero puts every point of the closed element
 * outside it — s(A_L) < 0 above the plane, max ζ < 0 beyond the lower base, and
 * √(r² − min η²) < min ξ outside the side (element-walls.ts, header: the depth F ≥ 0 at every
 * point in the cylinder). Such an element has no wall (its measured depth would be 0), and its
 * edges cannot poke in, so the edge pass skips them too (collide.ts: elementContacts is false).
 * About one element in five under a wheel on the benchmark scene (issue #12, the speed pass). The
 * margin keeps the proof clear of round-off: the element is then at least 0.1 µm away.
 */
function elementApart(bound: number): boolean {
  return bound + CYLINDER_TERRAIN_REJECT_MARGIN <= 0;
}
