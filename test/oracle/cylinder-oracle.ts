/**
 * Brute-force reference for the cylinder–terrain maximum penetration depth. Independent of
 * sim/collision/cylinder-terrain (no imports from it): it reads only the raw heights of the
 * Heightfield, builds its own elements and planes, and searches numerically (golden section and
 * bisection on a convex feasibility measure, a scan plus golden section along edges) instead of
 * the algorithm's closed forms (no Cyrus–Beck, no ellipse quadratics).
 *
 * DEFINITION (what "maximum depth" of a pose means; the algorithm must report the same number
 * as the largest `depth` of its contacts).
 *
 * Cylinder: centre C, unit axis v, radius r, full height h; base i ∈ {1, 2} has centre
 * C_i = C ∓ (h/2)v. Terrain elements E: per cell the planar rectangle V0V1V3V2 when the paper's
 * classification holds (heightfield.ts), else the triangles V0V1V2 and V1V3V2 (diagonal V1–V2).
 * Element plane: upward unit normal n_E, s_E(P) = n_E·V0 − n_E·P (> 0 below the plane);
 * foot_E(P) = P + s_E(P)·n_E is the orthogonal projection of P onto the plane.
 *
 *   w_E   = normalize((v·n_E)v − n_E): the radial direction pointing "down" toward the plane
 *           (any unit vector ⟂ v when v ∥ n_E);
 *   L_E   = the lowest side line {C + z·v + r·w_E : |z| ≤ h/2}, from A_1 to A_2;
 *   B_i   = C_i − r·w_E, the highest rim point of base i.
 *
 *   D_face(E) = max s_E(P) over P ∈ L_E with foot_E(P) ∈ E ∩ cylinder        (cases B and C)
 *             and, for each base i with s_E(A_i) > 0 and s_E(B_i) > 0 (the whole base rim is
 *             below the plane: paper case A), also over P ∈ disc_i with foot_E(P) ∈ E ∩ cylinder.
 *             "foot in the cylinder" means the element itself touches the wheel there: without
 *             it, the plane of a steep curb face next to (not under) a wheel resting on the curb
 *             top would count the wheel as 2 cm "behind" the face although the face never
 *             touches it (regression: bench pose 1348).
 *   D_edge    = max over points T of the terrain's element edges (vertices included) inside the
 *             solid cylinder of min(h/2 − |z_T|, r − ρ_T), z_T = (T − C)·v, ρ_T = distance of T
 *             to the axis: how far the edge or vertex pokes into the base or side (paper stage 3).
 *   depth     = max(0, max_E D_face(E), D_edge). A pose is "in contact" iff depth > 0.
 *
 * Why the lowest line and not every cylinder point over E: over a clipped element the whole
 * solid cylinder reaches a little deeper than L_E next to the element's walls (by up to
 * ~g²·r·tan²β/2 for a line tilted by g against the plane, ~1 mm for 5° roll); the paper measures
 * face contacts on L_E (and on the base disc in case A), and edge pokes by the distance of the
 * terrain point to the cylinder surface, so the reference measures exactly that.
 *
 * Accuracy (no fixed sampling of faces: a feasible stretch of any length is found). Feasibility
 * is measured by infeasibility(P) = max(distance of foot_E(P) outside E's edges, −pokeDepth of
 * the foot), ≤ INSIDE_SLACK iff foot_E(P) ∈ E ∩ cylinder. It is convex in P (the foot is affine
 * in P, the edge terms are affine in the foot, −pokeDepth = max(|z_T| − h/2, ρ_T − r) is convex),
 * so the feasible set is one interval along L_E and one convex set on a disc.
 *   - Line: s_E is affine along L_E, so its maximum sits at the feasible interval's end toward
 *     increasing s_E. If that end of L_E is feasible it is the answer; else a golden-section
 *     search of the convex infeasibility finds a feasible z (or proves there is none: its
 *     minimum > slack) and bisection moves it to the boundary, to < 1e-12 m.
 *   - Case-A disc: s_E depends only on the coordinate a along w_E; φ(a) = min over the chord of
 *     the infeasibility is convex, so nested golden-section searches find a feasible point and
 *     bisection on φ(a) ≤ slack finds the largest feasible a.
 *   - Edges: min(l1, l2) is concave along an edge (both terms are), so a coarse scan plus
 *     golden-section search is exact to < 1e-10 m.
 * Until 2026-11 the line was sampled at 96 fixed points (and the disc on a polar grid): stretches
 * shorter than h/95 ≈ 2.1 mm, where L_E only grazes a corner of a triangle, were missed and the
 * oracle under-reported by up to 8.5 mm (bench pose 7364; regression poses in
 * cylinder-oracle-analytic.test.ts).
 */
import type { Heightfield } from '../../sim/terrain/heightfield';
import type { Vec3 } from '../../sim/math/vec3';

export interface CylinderPose {
  center: Vec3;
  /** Unit axis. */
  axis: Vec3;
  /** [m] */
  radius: number;
  /** [m] Full length along the axis. */
  height: number;
}

export interface OracleResult {
  /** [m] Maximum depth as defined in the header (0 when not in contact). */
  depth: number;
  /** Where the maximum came from: 'face' | 'disc' | 'edge' | 'none', and the cell. */
  source: 'face' | 'disc' | 'edge' | 'none';
  cell: [number, number];
}

/** Golden-section steps of the feasibility searches: 0.6 m · 0.618^64 ≈ 2e-14 m. */
const GOLDEN_STEPS = 64;
/** Bisection steps refining the end of a feasible interval: 0.6 m / 2^50 ≈ 5e-16 m. */
const BISECTION_STEPS = 50;
/** Coarse samples along a terrain edge before golden-section refinement. */
const EDGE_SAMPLES = 16;
/** [m] Slack of the feasibility tests (foot exactly on an edge of E or on the cylinder counts as inside). */
const INSIDE_SLACK = 1e-12;
const GOLDEN = (Math.sqrt(5) - 1) / 2;

interface Element {
  /** Vertices in CCW order seen from above, xy used for containment. */
  vx: number[];
  vy: number[];
  n: Vec3;
  k: number;
}

function planeOf(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): { n: Vec3; k: number } {
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const wx = cx - ax, wy = cy - ay, wz = cz - az;
  let nx = uy * wz - uz * wy;
  let ny = uz * wx - ux * wz;
  let nz = ux * wy - uy * wx;
  const l = Math.hypot(nx, ny, nz);
  nx /= l; ny /= l; nz /= l;
  if (nz < 0) { nx = -nx; ny = -ny; nz = -nz; }
  return { n: [nx, ny, nz], k: nx * ax + ny * ay + nz * az };
}

/** Elements of cell (i, j), built from raw heights (independent of the algorithm's code). */
export function cellElements(hf: Heightfield, i: number, j: number): Element[] {
  const x0 = hf.vertexX(i), x1 = hf.vertexX(i + 1);
  const y0 = hf.vertexY(j), y1 = hf.vertexY(j + 1);
  const h0 = hf.height(i, j), h1 = hf.height(i + 1, j), h2 = hf.height(i, j + 1), h3 = hf.height(i + 1, j + 1);
  if (hf.cellIsRectangle(i, j)) {
    const p = planeOf(x0, y0, h0, x1, y0, h1, x0, y1, h2);
    return [{ vx: [x0, x1, x1, x0], vy: [y0, y0, y1, y1], n: p.n, k: p.k }];
  }
  const lo = planeOf(x0, y0, h0, x1, y0, h1, x0, y1, h2);
  const up = planeOf(x1, y0, h1, x1, y1, h3, x0, y1, h2);
  return [
    { vx: [x0, x1, x0], vy: [y0, y0, y1], n: lo.n, k: lo.k },
    { vx: [x1, x1, x0], vy: [y0, y1, y1], n: up.n, k: up.k },
  ];
}

/** s_E(P): how far P lies below the plane of E (along n_E). */
function sAt(e: Element, px: number, py: number, pz: number): number {
  return e.k - (e.n[0] * px + e.n[1] * py + e.n[2] * pz);
}

/**
 * Infeasibility of P: max(distance of foot_E(P) outside E's edges in xy, −pokeDepth(foot_E(P))).
 * foot_E(P) ∈ E ∩ cylinder ⇔ infeasibility ≤ INSIDE_SLACK. It is CONVEX in P (foot_E is affine,
 * the edge terms are affine in the foot and −pokeDepth = max(|z_T| − h/2, ρ_T − r) is convex),
 * so along a line or over a disc its sublevel set is one interval / one convex set and a
 * golden-section search finds a feasible point whenever one exists, however small the set.
 */
function infeasibility(e: Element, c: CylinderPose, px: number, py: number, pz: number): number {
  const s = sAt(e, px, py, pz);
  const fx = px + s * e.n[0], fy = py + s * e.n[1], fz = pz + s * e.n[2];
  let g = -pokeDepth(c, fx, fy, fz);
  const m = e.vx.length;
  for (let a = 0; a < m; a++) {
    const b = a + 1 === m ? 0 : a + 1;
    const ex = e.vx[b] - e.vx[a], ey = e.vy[b] - e.vy[a];
    // Vertices are CCW: the cross product is ≥ 0 inside; −cross/|edge| is the distance outside.
    const out = -(ex * (fy - e.vy[a]) - ey * (fx - e.vx[a])) / Math.hypot(ex, ey);
    if (out > g) g = out;
  }
  return g;
}

/** Result of feasibleSearch: a point t and f(t) (the minimum found when f > INSIDE_SLACK everywhere). */
const found = { t: 0, f: 0 };

/**
 * Golden-section search of the convex f over [lo, hi] for a point with f ≤ INSIDE_SLACK (stops at
 * the first one); otherwise converges to the minimiser. Writes `found` and returns found.f.
 * The ends are tried first (a feasible set touching an end is found at once).
 */
function feasibleSearch(f: (t: number) => number, lo: number, hi: number): number {
  let fl = f(lo);
  if (fl <= INSIDE_SLACK) { found.t = lo; found.f = fl; return fl; }
  const fh = f(hi);
  if (fh <= INSIDE_SLACK) { found.t = hi; found.f = fh; return fh; }
  let bt = lo, bf = fl;
  if (fh < bf) { bt = hi; bf = fh; }
  let m1 = hi - GOLDEN * (hi - lo), m2 = lo + GOLDEN * (hi - lo);
  let f1 = f(m1), f2 = f(m2);
  for (let it = 0; it < GOLDEN_STEPS; it++) {
    if (f1 < bf) { bt = m1; bf = f1; }
    if (f2 < bf) { bt = m2; bf = f2; }
    if (bf <= INSIDE_SLACK) break;
    if (f1 < f2) { hi = m2; m2 = m1; f2 = f1; m1 = hi - GOLDEN * (hi - lo); f1 = f(m1); }
    else { lo = m1; m1 = m2; f1 = f2; m2 = lo + GOLDEN * (hi - lo); f2 = f(m2); }
  }
  if (f1 < bf) { bt = m1; bf = f1; }
  if (f2 < bf) { bt = m2; bf = f2; }
  fl = bf;
  found.t = bt; found.f = fl;
  return fl;
}

/**
 * The feasible end of [a, b] nearest b, given a feasible and b infeasible under `feasible`
 * (the feasible set is one interval containing a): bisection to the boundary.
 */
function bisectBoundary(feasible: (t: number) => boolean, a: number, b: number): number {
  for (let it = 0; it < BISECTION_STEPS; it++) {
    const m = 0.5 * (a + b);
    if (m === a || m === b) break;
    if (feasible(m)) a = m; else b = m;
  }
  return a;
}

/** Unit vector ⟂ v pointing toward −n (any ⟂ vector when v ∥ n). */
function downRadial(out: Vec3, v: Readonly<Vec3>, n: Readonly<Vec3>): Vec3 {
  const vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
  let x = vn * v[0] - n[0], y = vn * v[1] - n[1], z = vn * v[2] - n[2];
  let l = Math.hypot(x, y, z);
  if (l < 1e-9) {
    // v ∥ n: any perpendicular (the base disc carries the contact then).
    if (Math.abs(v[0]) < 0.9) { x = 0; y = v[2]; z = -v[1]; } else { x = -v[2]; y = 0; z = v[0]; }
    l = Math.hypot(x, y, z);
  }
  out[0] = x / l; out[1] = y / l; out[2] = z / l;
  return out;
}

const w: Vec3 = [0, 0, 0];

/**
 * Max of s_E over the lowest side line with foot in E ∩ cylinder; −∞ if none or if it cannot
 * beat `floor`. s_E is affine in z, so the maximum is at the end of the feasible interval in the
 * direction of increasing s_E: if that end of the line is feasible it is the answer; otherwise
 * find any feasible z (golden section on the convex infeasibility) and bisect toward that end.
 */
function lineFaceDepth(e: Element, c: CylinderPose, floor: number): number {
  const v = c.axis, C = c.center, r = c.radius, hh = c.height / 2;
  downRadial(w, v, e.n);
  const bx = C[0] + r * w[0], by = C[1] + r * w[1], bz = C[2] + r * w[2];
  const sA1 = sAt(e, bx - hh * v[0], by - hh * v[1], bz - hh * v[2]);
  const sA2 = sAt(e, bx + hh * v[0], by + hh * v[1], bz + hh * v[2]);
  if (Math.max(sA1, sA2) <= Math.max(0, floor)) return -Infinity;
  const g = (z: number): number => infeasibility(e, c, bx + z * v[0], by + z * v[1], bz + z * v[2]);
  const zEnd = sA2 >= sA1 ? hh : -hh;
  let z: number;
  if (g(zEnd) <= INSIDE_SLACK) {
    z = zEnd;
  } else {
    if (feasibleSearch(g, -hh, hh) > INSIDE_SLACK) return -Infinity;
    z = bisectBoundary((t) => g(t) <= INSIDE_SLACK, found.t, zEnd);
  }
  return sAt(e, bx + z * v[0], by + z * v[1], bz + z * v[2]);
}

const e1: Vec3 = [0, 0, 0];
const e2: Vec3 = [0, 0, 0];

/**
 * Case A: max of s_E over base disc `side` (−1 or +1) with foot in E ∩ cylinder, if the whole
 * rim is below the plane; −∞ otherwise or if it cannot beat `floor`.
 *
 * Disc coordinates P = C_i + a·e1 + b·e2 with e1 = w_E (toward the plane) and e2 = v × e1 ⟂ n_E:
 * s_E = s_E(C_i) − a·(n_E·e1) depends on a only and increases with it. The feasible set
 * K = {(a, b) : a² + b² ≤ r², foot ∈ E ∩ cylinder} is convex, so φ(a) = min_b G(a, b), G the
 * max of the disc and foot infeasibilities, is convex in a: a nested golden-section search finds
 * a feasible (a, b), then bisection on "φ(a) ≤ slack" finds the largest feasible a.
 */
function discFaceDepth(e: Element, c: CylinderPose, side: number, floor: number): number {
  const v = c.axis, r = c.radius, hh = c.height / 2;
  const cx = c.center[0] + side * hh * v[0], cy = c.center[1] + side * hh * v[1], cz = c.center[2] + side * hh * v[2];
  downRadial(e1, v, e.n);
  const sA = sAt(e, cx + r * e1[0], cy + r * e1[1], cz + r * e1[2]);
  const sB = sAt(e, cx - r * e1[0], cy - r * e1[1], cz - r * e1[2]);
  if (!(sA > 0 && sB > 0)) return -Infinity;
  if (Math.max(sA, sB) <= floor) return -Infinity;
  // e2 = v × e1 completes the disc frame.
  e2[0] = v[1] * e1[2] - v[2] * e1[1];
  e2[1] = v[2] * e1[0] - v[0] * e1[2];
  e2[2] = v[0] * e1[1] - v[1] * e1[0];
  let a = 0;
  const G = (b: number): number => {
    const gd = Math.hypot(a, b) - r;
    const gf = infeasibility(e, c, cx + a * e1[0] + b * e2[0], cy + a * e1[1] + b * e2[1], cz + a * e1[2] + b * e2[2]);
    return gd > gf ? gd : gf;
  };
  let bAt = 0;
  const phi = (t: number): number => {
    a = t;
    const span = Math.sqrt(Math.max(0, r * r - t * t));
    const f = feasibleSearch(G, -span, span);
    bAt = found.t;
    return f;
  };
  // Largest a with φ(a) ≤ slack (the answer's s_E); then the s_E of that disc point.
  let aBest: number, bBest: number;
  if (phi(r) <= INSIDE_SLACK) {
    aBest = r; bBest = bAt;
  } else {
    let a0 = -r, a1 = r, m1 = a1 - GOLDEN * (a1 - a0), m2 = a0 + GOLDEN * (a1 - a0);
    let f1 = phi(m1), b1 = bAt, f2 = phi(m2), b2 = bAt;
    let af = NaN, bf = 0;
    const fl = phi(-r);
    if (fl <= INSIDE_SLACK) { af = -r; bf = bAt; }
    for (let it = 0; it < GOLDEN_STEPS && Number.isNaN(af); it++) {
      if (f1 <= INSIDE_SLACK) { af = m1; bf = b1; break; }
      if (f2 <= INSIDE_SLACK) { af = m2; bf = b2; break; }
      if (f1 < f2) { a1 = m2; m2 = m1; f2 = f1; b2 = b1; m1 = a1 - GOLDEN * (a1 - a0); f1 = phi(m1); b1 = bAt; }
      else { a0 = m1; m1 = m2; f1 = f2; b1 = b2; m2 = a0 + GOLDEN * (a1 - a0); f2 = phi(m2); b2 = bAt; }
    }
    if (Number.isNaN(af)) {
      if (f1 <= INSIDE_SLACK) { af = m1; bf = b1; } else if (f2 <= INSIDE_SLACK) { af = m2; bf = b2; } else return -Infinity;
    }
    aBest = af; bBest = bf;
    let lo = af, hi = r;
    for (let it = 0; it < BISECTION_STEPS; it++) {
      const m = 0.5 * (lo + hi);
      if (m === lo || m === hi) break;
      if (phi(m) <= INSIDE_SLACK) { lo = m; aBest = m; bBest = bAt; } else hi = m;
    }
  }
  return sAt(e, cx + aBest * e1[0] + bBest * e2[0], cy + aBest * e1[1] + bBest * e2[1], cz + aBest * e1[2] + bBest * e2[2]);
}

/** How deep terrain point (x, y, z) is inside the solid cylinder: min(h/2 − |z_T|, r − ρ_T). */
function pokeDepth(c: CylinderPose, x: number, y: number, z: number): number {
  const v = c.axis;
  const dx = x - c.center[0], dy = y - c.center[1], dz = z - c.center[2];
  const zt = dx * v[0] + dy * v[1] + dz * v[2];
  const rx = dx - zt * v[0], ry = dy - zt * v[1], rz = dz - zt * v[2];
  return Math.min(c.height / 2 - Math.abs(zt), c.radius - Math.hypot(rx, ry, rz));
}

/** Max pokeDepth along segment a→b (concave, so scan + golden section is exact); −∞ if the segment misses the bounding sphere. */
function edgePokeDepth(c: CylinderPose, ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const R = Math.hypot(c.radius, c.height / 2);
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const L2 = ux * ux + uy * uy + uz * uz;
  let t = ((c.center[0] - ax) * ux + (c.center[1] - ay) * uy + (c.center[2] - az) * uz) / L2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  if (Math.hypot(ax + t * ux - c.center[0], ay + t * uy - c.center[1], az + t * uz - c.center[2]) > R) return -Infinity;
  const f = (s: number): number => pokeDepth(c, ax + s * ux, ay + s * uy, az + s * uz);
  let best = -Infinity, bk = 0;
  for (let k = 0; k < EDGE_SAMPLES; k++) {
    const v = f(k / (EDGE_SAMPLES - 1));
    if (v > best) { best = v; bk = k; }
  }
  let lo = Math.max(0, (bk - 1) / (EDGE_SAMPLES - 1));
  let hi = Math.min(1, (bk + 1) / (EDGE_SAMPLES - 1));
  let m1 = hi - GOLDEN * (hi - lo), m2 = lo + GOLDEN * (hi - lo);
  let f1 = f(m1), f2 = f(m2);
  for (let it = 0; it < GOLDEN_STEPS; it++) {
    if (f1 < f2) { lo = m1; m1 = m2; f1 = f2; m2 = lo + GOLDEN * (hi - lo); f2 = f(m2); }
    else { hi = m2; m2 = m1; f2 = f1; m1 = hi - GOLDEN * (hi - lo); f1 = f(m1); }
  }
  return Math.max(best, f1, f2, f(0), f(1));
}

/** Cell range [i0, i1] × [j0, j1] under the cylinder's exact AABB (one cell of margin), clamped. */
function cellRange(c: CylinderPose, hf: Heightfield): { i0: number; i1: number; j0: number; j1: number; zMin: number } {
  const ext = (k: number): number => (c.height / 2) * Math.abs(c.axis[k]) + c.radius * Math.sqrt(Math.max(0, 1 - c.axis[k] * c.axis[k]));
  const ex = ext(0), ey = ext(1), ez = ext(2);
  const i0 = Math.max(0, Math.floor((c.center[0] - ex - hf.x0) / hf.dx) - 1);
  const i1 = Math.min(hf.cellsX - 1, Math.floor((c.center[0] + ex - hf.x0) / hf.dx) + 1);
  const j0 = Math.max(0, Math.floor((c.center[1] - ey - hf.y0) / hf.dy) - 1);
  const j1 = Math.min(hf.cellsY - 1, Math.floor((c.center[1] + ey - hf.y0) / hf.dy) + 1);
  return { i0, i1, j0, j1, zMin: c.center[2] - ez };
}

/** Cheap upper bound of D_face(E): max of s_E over the unclipped lowest line (and the base discs). */
function faceBound(e: Element, c: CylinderPose): number {
  const v = c.axis, C = c.center, r = c.radius, hh = c.height / 2;
  downRadial(w, v, e.n);
  const sC = sAt(e, C[0], C[1], C[2]);
  const sw = -r * (w[0] * e.n[0] + w[1] * e.n[1] + w[2] * e.n[2]);
  const sv = hh * Math.abs(v[0] * e.n[0] + v[1] * e.n[1] + v[2] * e.n[2]);
  // s is affine: over the cylinder its max is at a lowest-line end; the discs add nothing above it.
  const bound = sC + sw + sv;
  // If no base can be wholly below the plane (case A), only the lowest line counts: reject the
  // element when the xy box of the line's feet misses the element's xy box.
  if (sC - sw + sv > 0) return bound; // some highest rim point B_i below the plane: keep
  let fx0 = Infinity, fx1 = -Infinity, fy0 = Infinity, fy1 = -Infinity;
  for (const z of [-hh, hh]) {
    const px = C[0] + z * v[0] + r * w[0], py = C[1] + z * v[1] + r * w[1], pz = C[2] + z * v[2] + r * w[2];
    const sp = sAt(e, px, py, pz);
    const fx = px + sp * e.n[0], fy = py + sp * e.n[1];
    fx0 = Math.min(fx0, fx); fx1 = Math.max(fx1, fx); fy0 = Math.min(fy0, fy); fy1 = Math.max(fy1, fy);
  }
  let ex0 = Infinity, ex1 = -Infinity, ey0 = Infinity, ey1 = -Infinity;
  for (let a = 0; a < e.vx.length; a++) {
    ex0 = Math.min(ex0, e.vx[a]); ex1 = Math.max(ex1, e.vx[a]); ey0 = Math.min(ey0, e.vy[a]); ey1 = Math.max(ey1, e.vy[a]);
  }
  const slack = 1e-9;
  if (fx1 < ex0 - slack || fx0 > ex1 + slack || fy1 < ey0 - slack || fy0 > ey1 + slack) return -Infinity;
  return bound;
}

interface Candidate {
  bound: number;
  kind: 0 | 1;
  e: Element | null;
  seg: number[] | null;
  i: number;
  j: number;
}

/**
 * The reference maximum depth of one pose (see the header for the definition). Branch and bound:
 * every element and edge gets a cheap upper bound (the unclipped lowest line for faces; for
 * edges, min(l1, l2) is 1-Lipschitz, so f(midpoint) + length/2), candidates are refined in
 * decreasing bound order, and the search stops once no bound can beat the best value found.
 */
export function oracleMaxDepth(c: CylinderPose, hf: Heightfield): OracleResult {
  const res: OracleResult = { depth: 0, source: 'none', cell: [-1, -1] };
  const { i0, i1, j0, j1, zMin } = cellRange(c, hf);
  const cands: Candidate[] = [];
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const top = Math.max(hf.height(i, j), hf.height(i + 1, j), hf.height(i, j + 1), hf.height(i + 1, j + 1));
      // Every point of the cell lies below the cylinder: no cylinder point is under its planes
      // with a foot inside it, and no edge point of it is inside the cylinder.
      if (top < zMin) continue;
      for (const e of cellElements(hf, i, j)) {
        const b = faceBound(e, c);
        if (b > 0) cands.push({ bound: b, kind: 0, e, seg: null, i, j });
      }
      // Edges owned by this cell: bottom V0V1, left V0V2, the diagonal V1V2 of a split cell,
      // and the right/top borders of the range's last column/row.
      const x0 = hf.vertexX(i), x1 = hf.vertexX(i + 1), y0 = hf.vertexY(j), y1 = hf.vertexY(j + 1);
      const h0 = hf.height(i, j), h1 = hf.height(i + 1, j), h2 = hf.height(i, j + 1), h3 = hf.height(i + 1, j + 1);
      const segs: number[][] = [[x0, y0, h0, x1, y0, h1], [x0, y0, h0, x0, y1, h2]];
      if (!hf.cellIsRectangle(i, j)) segs.push([x1, y0, h1, x0, y1, h2]);
      if (i === i1) segs.push([x1, y0, h1, x1, y1, h3]);
      if (j === j1) segs.push([x0, y1, h2, x1, y1, h3]);
      for (const s of segs) {
        if (Math.max(s[2], s[5]) < zMin) continue;
        const len = Math.hypot(s[3] - s[0], s[4] - s[1], s[5] - s[2]);
        const b = pokeDepth(c, 0.5 * (s[0] + s[3]), 0.5 * (s[1] + s[4]), 0.5 * (s[2] + s[5])) + 0.5 * len;
        if (b > 0) cands.push({ bound: b, kind: 1, e: null, seg: s, i, j });
      }
    }
  }
  cands.sort((a, b) => b.bound - a.bound);
  for (const k of cands) {
    if (k.bound <= res.depth) break;
    if (k.kind === 0 && k.e) {
      const d = lineFaceDepth(k.e, c, res.depth);
      if (d > res.depth) { res.depth = d; res.source = 'face'; res.cell = [k.i, k.j]; }
      for (const side of [-1, 1]) {
        const dd = discFaceDepth(k.e, c, side, res.depth);
        if (dd > res.depth) { res.depth = dd; res.source = 'disc'; res.cell = [k.i, k.j]; }
      }
    } else if (k.seg) {
      const s = k.seg;
      const d = edgePokeDepth(c, s[0], s[1], s[2], s[3], s[4], s[5]);
      if (d > res.depth) { res.depth = d; res.source = 'edge'; res.cell = [k.i, k.j]; }
    }
  }
  return res;
}
