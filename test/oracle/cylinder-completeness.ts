/**
 * Completeness oracle for cylinder–terrain contacts: for EVERY terrain element, how deep the
 * cylinder reaches below it along its normal — found by dense sampling of the exact cylinder
 * boundary, not by the algorithm's decomposition (no lowest line, no cases A/B/C, no ellipse, no
 * edge pass, no imports from sim/collision). It reads only the raw heights and the heightfield's
 * rectangle/triangle classification (so it meshes the surface exactly as the algorithm does:
 * rectangles where the heightfield classifies a cell planar, else the triangles V0V1V2 and
 * V1V3V2 on the V1–V2 diagonal).
 *
 * DEFINITION. Element E (a convex polygon), upward unit normal n, plane s(P) = n·(V − P) (> 0
 * below). For a unit direction d not parallel to the plane, the foot of a point P along d is
 * X = P + t·d with t = s(P)/(n·d) (the point of E's plane that P reaches moving along d).
 *
 *   p_E(d) = max t over cylinder points P with t > 0, X ∈ E and X ∈ cylinder
 *
 * is how far the cylinder reaches past E along −d: the largest chord from a point X of E inside
 * the cylinder back along −d, so moving the wheel by p_E(d) along d takes every point of E out
 * of it (the segment P→X lies in the cylinder by convexity).
 * "X ∈ cylinder" means the element itself touches the wheel at X: the plane of a steep curb face
 * beside a wheel resting on the curb top is "above" part of the wheel but never touches it.
 * d_E = p_E(n) is the element's penetration along its normal; a contact {point, normal d, depth}
 * resolves E if its depth ≥ p_E(d).
 *
 * SEARCH. The maximum is on the cylinder's boundary (moving P along −d keeps X and raises t), so
 * the boundary is sampled on three charts — the curved side (φ, z), the lower and the upper cap
 * (Cartesian a, b in the base disc) — about SIDE_PHI × SIDE_Z + 2 × CAP_GRID² points, plus the
 * boundary points under a grid of the element's own points that lie in the cylinder (found by
 * an exact ray–cylinder exit, so a feasible set that is a sliver next to a rim is not missed),
 * and the best feasible sample of each chart is refined by a pattern search on a 7 × 7 grid around it
 * whose spacing halves only when the best stays inside the window (so it walks along a
 * constraint boundary). p_E is the maximum of a concave function over a convex set, so a local
 * maximum of one chart is the maximum of that chart; the rim is on the boundary of both the side
 * and a cap chart. The result is a lower bound of p_E, to within the refinement's last spacing
 * (SPACING_FLOOR of the chart scale: well below a micrometre).
 */
import type { Heightfield } from '../../sim/terrain/heightfield';

export interface Cylinder {
  center: readonly number[];
  /** Unit axis. */
  axis: readonly number[];
  /** [m] */
  radius: number;
  /** [m] Full length along the axis. */
  height: number;
}

/** One terrain element: cell (i, j), kind 0 rectangle, 1 lower triangle V0V1V2, 2 upper V1V3V2. */
export interface OracleElement {
  i: number;
  j: number;
  kind: 0 | 1 | 2;
  /** Upward unit normal. */
  normal: [number, number, number];
  /** [m] Plane constant n·V for a vertex V of the element. */
  k: number;
}

export interface ElementPenetration extends OracleElement {
  /** [m] d_E = p_E(n): penetration along the element's own normal (0: the cylinder does not reach it). */
  depth: number;
  /** The foot X of the deepest point (on the element). */
  foot: [number, number, number];
}

const SIDE_PHI = 192;
const SIDE_Z = 17;
const CAP_GRID = 25;
/** Element-side seeds: a grid of (ELEMENT_GRID + 1)² plane points over the cell. */
const ELEMENT_GRID = 24;
/** Pattern-search window half-width (in spacings) and its stop: spacing below this fraction of the chart scale. */
const WINDOW = 3;
const SPACING_FLOOR = 1e-9;
/** [m] Slack of the point-in-element and point-in-cylinder tests (round-off only). */
const INSIDE_SLACK = 1e-12;
const MAX_REFINE_ROUNDS = 400;

/** The elements of the cells whose xy range meets the cylinder's xy bounding box. */
export function elementsNear(cyl: Cylinder, hf: Heightfield): OracleElement[] {
  const [cx, cy] = cyl.center;
  const [vx, vy] = cyl.axis;
  const hh = cyl.height / 2, r = cyl.radius;
  const ex = hh * Math.abs(vx) + r * Math.sqrt(Math.max(0, 1 - vx * vx)) + 1e-9;
  const ey = hh * Math.abs(vy) + r * Math.sqrt(Math.max(0, 1 - vy * vy)) + 1e-9;
  const i0 = Math.max(0, Math.floor((cx - ex - hf.x0) / hf.dx));
  const i1 = Math.min(hf.cellsX - 1, Math.floor((cx + ex - hf.x0) / hf.dx));
  const j0 = Math.max(0, Math.floor((cy - ey - hf.y0) / hf.dy));
  const j1 = Math.min(hf.cellsY - 1, Math.floor((cy + ey - hf.y0) / hf.dy));
  const out: OracleElement[] = [];
  const H = hf.heights, c = hf.cols;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const h0 = H[j * c + i], h1 = H[j * c + i + 1], h2 = H[(j + 1) * c + i], h3 = H[(j + 1) * c + i + 1];
      const x = hf.x0 + i * hf.dx, y = hf.y0 + j * hf.dy;
      const lower = plane(-(h1 - h0) / hf.dx, -(h2 - h0) / hf.dy, x, y, h0);
      if (hf.cellIsRectangle(i, j)) {
        out.push({ i, j, kind: 0, ...lower });
      } else {
        out.push({ i, j, kind: 1, ...lower });
        out.push({ i, j, kind: 2, ...plane(-(h3 - h2) / hf.dx, -(h3 - h1) / hf.dy, x + hf.dx, y + hf.dy, h3) });
      }
    }
  }
  return out;
}

function plane(mx: number, my: number, x: number, y: number, z: number): { normal: [number, number, number]; k: number } {
  const l = Math.sqrt(mx * mx + my * my + 1);
  const normal: [number, number, number] = [mx / l, my / l, 1 / l];
  return { normal, k: normal[0] * x + normal[1] * y + normal[2] * z };
}

/** Reusable sampler of one cylinder. */
export class CylinderSampler {
  readonly cx: number; readonly cy: number; readonly cz: number;
  readonly vx: number; readonly vy: number; readonly vz: number;
  /** e1, e2: unit vectors ⟂ v. */
  readonly e1: [number, number, number];
  readonly e2: [number, number, number];
  readonly r: number;
  readonly hh: number;
  private readonly hf: Heightfield;
  /** Scratch of the last eval: the foot. */
  fx = 0; fy = 0; fz = 0;
  /** Boundary samples: chart and parameters. */
  private readonly chart: Uint8Array;
  private readonly pa: Float64Array;
  private readonly pb: Float64Array;
  private readonly px: Float64Array;
  private readonly py: Float64Array;
  private readonly pz: Float64Array;
  private readonly n: number;

  constructor(cyl: Cylinder, hf: Heightfield) {
    this.hf = hf;
    [this.cx, this.cy, this.cz] = cyl.center as [number, number, number];
    [this.vx, this.vy, this.vz] = cyl.axis as [number, number, number];
    this.r = cyl.radius;
    this.hh = cyl.height / 2;
    // e1 ⟂ v from the coordinate axis least aligned with v.
    const ax = Math.abs(this.vx), ay = Math.abs(this.vy), az = Math.abs(this.vz);
    const t: [number, number, number] = ax <= ay && ax <= az ? [1, 0, 0] : ay <= az ? [0, 1, 0] : [0, 0, 1];
    const d = t[0] * this.vx + t[1] * this.vy + t[2] * this.vz;
    let e1x = t[0] - d * this.vx, e1y = t[1] - d * this.vy, e1z = t[2] - d * this.vz;
    const l = Math.hypot(e1x, e1y, e1z);
    e1x /= l; e1y /= l; e1z /= l;
    this.e1 = [e1x, e1y, e1z];
    this.e2 = [this.vy * e1z - this.vz * e1y, this.vz * e1x - this.vx * e1z, this.vx * e1y - this.vy * e1x];
    const cap: [number, number][] = [];
    for (let a = 0; a < CAP_GRID; a++) {
      for (let b = 0; b < CAP_GRID; b++) {
        const pa = -this.r + (2 * this.r * a) / (CAP_GRID - 1), pb = -this.r + (2 * this.r * b) / (CAP_GRID - 1);
        if (pa * pa + pb * pb < this.r * this.r) cap.push([pa, pb]);
      }
    }
    this.n = SIDE_PHI * SIDE_Z + 2 * cap.length;
    this.chart = new Uint8Array(this.n);
    this.pa = new Float64Array(this.n);
    this.pb = new Float64Array(this.n);
    this.px = new Float64Array(this.n);
    this.py = new Float64Array(this.n);
    this.pz = new Float64Array(this.n);
    let m = 0;
    for (let p = 0; p < SIDE_PHI; p++) {
      for (let z = 0; z < SIDE_Z; z++) {
        this.set(m++, 0, (2 * Math.PI * p) / SIDE_PHI, -this.hh + (2 * this.hh * z) / (SIDE_Z - 1));
      }
    }
    for (const chart of [1, 2]) for (const [a, b] of cap) this.set(m++, chart, a, b);
  }

  private set(m: number, chart: number, a: number, b: number): void {
    this.chart[m] = chart;
    this.pa[m] = a;
    this.pb[m] = b;
    const p = this.point(chart, a, b);
    this.px[m] = p[0]; this.py[m] = p[1]; this.pz[m] = p[2];
  }

  /** Boundary point of chart 0 (side: φ, z), 1 (lower cap: a, b) or 2 (upper cap), parameters clamped onto the chart. */
  point(chart: number, a: number, b: number): [number, number, number] {
    const { e1, e2 } = this;
    if (chart === 0) {
      const z = b < -this.hh ? -this.hh : b > this.hh ? this.hh : b;
      const c = this.r * Math.cos(a), s = this.r * Math.sin(a);
      return [
        this.cx + z * this.vx + c * e1[0] + s * e2[0],
        this.cy + z * this.vy + c * e1[1] + s * e2[1],
        this.cz + z * this.vz + c * e1[2] + s * e2[2],
      ];
    }
    const rr = Math.sqrt(a * a + b * b);
    if (rr > this.r) { a *= this.r / rr; b *= this.r / rr; }
    const z = chart === 1 ? -this.hh : this.hh;
    return [
      this.cx + z * this.vx + a * e1[0] + b * e2[0],
      this.cy + z * this.vy + a * e1[1] + b * e2[1],
      this.cz + z * this.vz + a * e1[2] + b * e2[2],
    ];
  }

  /** Is X in the solid cylinder (within INSIDE_SLACK)? */
  inCylinder(x: number, y: number, z: number): boolean {
    const px = x - this.cx, py = y - this.cy, pz = z - this.cz;
    const t = px * this.vx + py * this.vy + pz * this.vz;
    if (Math.abs(t) > this.hh + INSIDE_SLACK) return false;
    const rx = px - t * this.vx, ry = py - t * this.vy, rz = pz - t * this.vz;
    return rx * rx + ry * ry + rz * rz <= (this.r + INSIDE_SLACK) * (this.r + INSIDE_SLACK);
  }

  /** How far the ray from X (in the cylinder) along −d runs inside the cylinder. */
  exit(x: number, y: number, z: number, dx: number, dy: number, dz: number): number {
    const px = x - this.cx, py = y - this.cy, pz = z - this.cz;
    const zx = px * this.vx + py * this.vy + pz * this.vz, zd = -(dx * this.vx + dy * this.vy + dz * this.vz);
    let t = Infinity;
    if (zd > 0) t = (this.hh - zx) / zd;
    else if (zd < 0) t = (-this.hh - zx) / zd;
    // radial: |ρ + t·m|² = r², ρ = radial part of X − C, m = radial part of −d
    const rx = px - zx * this.vx, ry = py - zx * this.vy, rz = pz - zx * this.vz;
    const mx = -dx - zd * this.vx, my = -dy - zd * this.vy, mz = -dz - zd * this.vz;
    const A = mx * mx + my * my + mz * mz, B = rx * mx + ry * my + rz * mz, C = rx * rx + ry * ry + rz * rz - this.r * this.r;
    if (A > 0) t = Math.min(t, (-B + Math.sqrt(Math.max(0, B * B - A * C))) / A);
    return Math.max(0, t);
  }

  /** Chart and parameters of a boundary point (side unless it lies on a base plane). */
  chartOf(P: readonly number[]): [number, number, number] {
    const px = P[0] - this.cx, py = P[1] - this.cy, pz = P[2] - this.cz;
    const z = px * this.vx + py * this.vy + pz * this.vz;
    const rx = px - z * this.vx, ry = py - z * this.vy, rz = pz - z * this.vz;
    const a = rx * this.e1[0] + ry * this.e1[1] + rz * this.e1[2], b = rx * this.e2[0] + ry * this.e2[1] + rz * this.e2[2];
    if (Math.abs(z) >= this.hh - 1e-12) return [z < 0 ? 1 : 2, a, b];
    return [0, Math.atan2(b, a), z];
  }

  /** Is the xy point in element E (closed, within INSIDE_SLACK of the cell size)? */
  inElement(e: OracleElement, x: number, y: number): boolean {
    const hf = this.hf;
    const u = (x - hf.x0) / hf.dx - e.i, w = (y - hf.y0) / hf.dy - e.j;
    const sl = INSIDE_SLACK;
    if (u < -sl || w < -sl || u > 1 + sl || w > 1 + sl) return false;
    if (e.kind === 1) return u + w <= 1 + sl;
    if (e.kind === 2) return u + w >= 1 - sl;
    return true;
  }

  /**
   * t of boundary point P along d for element e (see the header), −Infinity when infeasible.
   * Leaves the foot in fx, fy, fz.
   */
  evalPoint(e: OracleElement, dx: number, dy: number, dz: number, nd: number, x: number, y: number, z: number): number {
    const n = e.normal;
    const t = (e.k - (n[0] * x + n[1] * y + n[2] * z)) / nd;
    if (!(t > 0)) return -Infinity;
    const fx = x + t * dx, fy = y + t * dy, fz = z + t * dz;
    if (!this.inElement(e, fx, fy) || !this.inCylinder(fx, fy, fz)) return -Infinity;
    this.fx = fx; this.fy = fy; this.fz = fz;
    return t;
  }

  /**
   * p_E(d) (header), with d = the element normal when omitted. Returns the penetration and the
   * foot of the deepest point; depth 0 when the cylinder does not reach past the element.
   */
  penetration(e: OracleElement, d?: readonly number[]): { depth: number; foot: [number, number, number] } {
    const n = e.normal;
    const dx = d ? d[0] : n[0], dy = d ? d[1] : n[1], dz = d ? d[2] : n[2];
    const nd = n[0] * dx + n[1] * dy + n[2] * dz;
    const none = { depth: 0, foot: [0, 0, 0] as [number, number, number] };
    // Quick reject: the cylinder's deepest point below the plane (support along −n).
    const vn = this.vx * n[0] + this.vy * n[1] + this.vz * n[2];
    const sC = e.k - (n[0] * this.cx + n[1] * this.cy + n[2] * this.cz);
    if (!(sC + this.hh * Math.abs(vn) + this.r * Math.sqrt(Math.max(0, 1 - vn * vn)) > 0)) return none;
    // A direction (nearly) parallel to the plane: no foot parametrisation; never counts as resolving.
    if (!(Math.abs(nd) > 1e-6)) return { depth: Infinity, foot: [0, 0, 0] };
    const best = [-Infinity, -Infinity, -Infinity];
    const bestA = [0, 0, 0], bestB = [0, 0, 0];
    for (let m = 0; m < this.n; m++) {
      const t = this.evalPoint(e, dx, dy, dz, nd, this.px[m], this.py[m], this.pz[m]);
      const c = this.chart[m];
      if (t > best[c]) { best[c] = t; bestA[c] = this.pa[m]; bestB[c] = this.pb[m]; }
    }
    // Seeds from the element side too: a grid of plane points X of the element inside the
    // cylinder, each with its boundary point X − τ·d (τ: where the ray from X along −d leaves
    // the cylinder). It finds the feasible set when it is a sliver that the boundary grid misses
    // (an element touching the wheel only next to a rim).
    const hf = this.hf;
    for (let gu = 0; gu <= ELEMENT_GRID; gu++) {
      for (let gv = 0; gv <= ELEMENT_GRID; gv++) {
        const u = gu / ELEMENT_GRID, v = gv / ELEMENT_GRID;
        if ((e.kind === 1 && u + v > 1) || (e.kind === 2 && u + v < 1)) continue;
        const x = hf.x0 + (e.i + u) * hf.dx, y = hf.y0 + (e.j + v) * hf.dy;
        const z = (e.k - n[0] * x - n[1] * y) / n[2];
        if (!this.inCylinder(x, y, z)) continue;
        const tau = this.exit(x, y, z, dx, dy, dz);
        const P: [number, number, number] = [x - tau * dx, y - tau * dy, z - tau * dz];
        const [c, a, b] = this.chartOf(P);
        const t = this.evalPoint(e, dx, dy, dz, nd, P[0], P[1], P[2]);
        if (t > best[c]) { best[c] = t; bestA[c] = a; bestB[c] = b; }
      }
    }
    let depth = 0;
    const foot: [number, number, number] = [0, 0, 0];
    for (let c = 0; c < 3; c++) {
      if (best[c] === -Infinity) continue;
      // Pattern search from the chart's best sample.
      let a = bestA[c], b = bestB[c], val = best[c];
      let ha = c === 0 ? (2 * Math.PI) / SIDE_PHI : (2 * this.r) / (CAP_GRID - 1);
      let hb = c === 0 ? (2 * this.hh) / (SIDE_Z - 1) : ha;
      const floorA = ha * SPACING_FLOOR, floorB = hb * SPACING_FLOOR;
      for (let round = 0; round < MAX_REFINE_ROUNDS && (ha > floorA || hb > floorB); round++) {
        let ba = a, bb = b, bv = val, edge = false;
        for (let p = -WINDOW; p <= WINDOW; p++) {
          for (let q = -WINDOW; q <= WINDOW; q++) {
            if (p === 0 && q === 0) continue;
            const na = a + p * ha, nb = b + q * hb;
            const P = this.point(c, na, nb);
            const t = this.evalPoint(e, dx, dy, dz, nd, P[0], P[1], P[2]);
            if (t > bv) { bv = t; ba = na; bb = nb; edge = Math.abs(p) === WINDOW || Math.abs(q) === WINDOW; }
          }
        }
        a = ba; b = bb; val = bv;
        if (!edge) { ha *= 0.5; hb *= 0.5; }
      }
      if (val > depth) {
        const P = this.point(c, a, b);
        this.evalPoint(e, dx, dy, dz, nd, P[0], P[1], P[2]);
        depth = val;
        foot[0] = this.fx; foot[1] = this.fy; foot[2] = this.fz;
      }
    }
    return { depth, foot };
  }
}

/** d_E of every element near the cylinder (depth 0 entries included). */
export function elementPenetrations(cyl: Cylinder, hf: Heightfield): ElementPenetration[] {
  const s = new CylinderSampler(cyl, hf);
  return elementsNear(cyl, hf).map((e) => ({ ...e, ...s.penetration(e) }));
}

/** A reported contact as the plain API returns it. */
export interface ReportedContact {
  point: readonly number[];
  normal: readonly number[];
  depth: number;
}

export interface CoverageResult {
  /** Elements with d_E above the threshold. */
  penetrated: number;
  /** Of those, the ones no reported contact covers within the tolerance. */
  misses: ElementPenetration[];
  /**
   * Per penetrated element: its shortfall, d_E − (deepest reported depth among contacts whose
   * normal is within the cover cone of n_E) — or, for an element covered only by the direction
   * test, min over contacts of p_E(d) − depth; negative when the covering contact is deeper.
   */
  shortfall: number[];
  /** [m] Largest d_E of the pose (0 if none). */
  maxElementDepth: number;
  /** [m] Deepest reported contact. */
  maxReportedDepth: number;
  /** Elements covered only by the direction test p_E(d) ≤ depth + tol of some contact (edge contacts). */
  coveredByDirection: number;
  /** Every element near the cylinder with its d_E. */
  elements: ElementPenetration[];
}

/**
 * Completeness check of one pose (the criterion): every element penetrated by more than
 * `threshold` along its normal must be covered by a reported contact whose normal is within
 * `coverCos` of n_E (the reduction keeps the deepest point of each normal group, and members of
 * one group differ by at most twice the grouping angle) and whose depth is ≥ d_E − tol; failing
 * that, by any contact {d, depth} with p_E(d) ≤ depth + tol (an edge or vertex contact whose own
 * normal resolves the element).
 */
export function checkCoverage(
  cyl: Cylinder,
  hf: Heightfield,
  contacts: readonly ReportedContact[],
  opts: { threshold: number; tolerance: number; coverCos: number },
): CoverageResult {
  const s = new CylinderSampler(cyl, hf);
  const misses: ElementPenetration[] = [];
  const shortfall: number[] = [];
  let penetrated = 0, maxElementDepth = 0, coveredByDirection = 0;
  const elements: ElementPenetration[] = [];
  let maxReportedDepth = 0;
  for (const c of contacts) maxReportedDepth = Math.max(maxReportedDepth, c.depth);
  for (const e of elementsNear(cyl, hf)) {
    const p = s.penetration(e);
    elements.push({ ...e, ...p });
    maxElementDepth = Math.max(maxElementDepth, p.depth);
    if (!(p.depth > opts.threshold)) continue;
    penetrated++;
    let best = -Infinity;
    for (const c of contacts) {
      const dot = c.normal[0] * e.normal[0] + c.normal[1] * e.normal[1] + c.normal[2] * e.normal[2];
      if (dot >= opts.coverCos && c.depth > best) best = c.depth;
    }
    if (p.depth - best <= opts.tolerance) {
      shortfall.push(p.depth - best);
      continue;
    }
    let bestDirection = Infinity;
    for (const c of contacts) bestDirection = Math.min(bestDirection, s.penetration(e, c.normal).depth - c.depth);
    if (bestDirection <= opts.tolerance) {
      coveredByDirection++;
      shortfall.push(bestDirection);
    } else {
      misses.push({ ...e, ...p });
      shortfall.push(p.depth - best);
    }
  }
  return { penetrated, misses, shortfall, maxElementDepth, maxReportedDepth, coveredByDirection, elements };
}
