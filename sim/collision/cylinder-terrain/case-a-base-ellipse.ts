/**
 * Case A — the lower base lies on an element (Strashnov & Torgashev 2020, §IV.A, eqs. 6–8):
 * s(A_L) > 0, s(B_L) > 0 — the whole lower rim is below the element plane.
 *
 * The paper projects the base disc onto the plane (an ellipse with semi-axes r·cosθ along w and
 * r along u), intersects the element's edges with the ellipse (quadratic k0 t² + 2k1 t + k2 = 0)
 * and maps the points back onto the disc, where the depth is s(P). Equivalently — and with no
 * ellipse axes to build — we map the element INTO the base disc's own coordinates: a plane point
 * X goes to the base point P with P + s(P)·n = X, i.e. along n onto the base plane,
 *
 *     y = (X − C_L)·u,   x = (X − C_L)·w + sinθ·((X − C_L)·a)/cosθ,
 *
 * and the ellipse becomes the circle x² + y² = r² (the paper's k0, k1, k2 with a = b = r). The
 * depth of base point (x, y) is s = s(C_L) + x·sinθ (w·n = −sinθ, u·n = 0).
 *
 *            u ↑  D+ (0, r)
 *              │
 *   B_L (−r,0) ●──●──● A_L (r, 0) → w      the deepest point is A_L; depth falls
 *              │  C_L                      linearly toward B_L.
 *                 D− (0, −r)
 *
 * Contacts of the element (each a terrain point with depth s and normal n_P):
 *  - the rim's extreme points A_L, B_L, D± whose foot lies in the element (half-open test, so a
 *    foot on a seam is emitted once): on a planar patch these four span the exact support
 *    polygon of a standing cylinder and move continuously while it slides;
 *  - on BENT element edges only, convex or concave (see edge-bend.ts): the edge–rim crossings
 *    and the element's vertices inside the disc — where this plane's patch ends (at a ridge, or
 *    at a valley where the next face rises: the depth on this plane is largest right there).
 *    On flat seams they are interior points of one plane patch (the paper removes them with its
 *    Ω_I/Ω_E bookkeeping, stage 3); skipping them here gives the same manifold without the sets.
 * The depth maximum over the element is always among these: s is linear on the disc, so its max
 * over (disc ∩ element) sits at A_L, at a crossing or at a vertex. Crossings and vertices count
 * only if they lie inside the cylinder (the element itself touches the wheel there).
 */
import { CYLINDER_TERRAIN_AXIS_PARALLEL_EPSILON } from '../../constants';
import type { ContactBuffer } from '../contact';
import { WheelContactKind } from '../contact';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import { elementSides } from './case-b-side-trapezoid';
import { EdgeClass } from './edge-bend';
import type { ElementFrame } from './frame';
/** Case A's scratch (one per CylinderTerrainWorkspace): the current element's polygon. */
export class BaseEllipseScratch {
  /** World xyz of up to 4 vertices, and their disc coordinates. */
  readonly vx = new Float64Array(4);
  readonly vy = new Float64Array(4);
  readonly vz = new Float64Array(4);
  readonly bx = new Float64Array(4);
  readonly by = new Float64Array(4);
  /** 1 where the element's side e is bent (convex or concave), else 0. */
  readonly bent = new Uint8Array(4);
  /** 1 where vertex e is inside the disc, else 0. */
  readonly inside = new Uint8Array(4);
}

/** Rim extreme points in disc coordinates: A_L, B_L, D+, D−. */
const RIM_X = [1, -1, 0, 0] as const;
const RIM_Y = [0, 0, 1, -1] as const;

/**
 * Half-open point-in-element test in cell-normalised coordinates: each seam belongs to exactly
 * one element (lower/left sides in, upper/right out), except the grid's outer border which is in.
 */
export function footInElement(hf: Heightfield, f: ElementFrame, fx: number, fy: number): boolean {
  const lastX = f.i === hf.cellsX - 1, lastY = f.j === hf.cellsY - 1;
  if (fx < 0 || fy < 0 || fx > 1 || fy > 1) return false;
  if ((fx === 1 && !lastX) || (fy === 1 && !lastY)) return false;
  if (f.kind === ElementKind.LowerTriangle) return fx + fy < 1;
  if (f.kind === ElementKind.UpperTriangle) return fx + fy >= 1;
  return true;
}

/**
 * footInElement for the foot of A_L (f.footU, f.footV), the same test written again so that no
 * double crosses a call (a double passed to a call that is not inlined is boxed on the heap).
 */
export function lowestFootInElement(hf: Heightfield, f: ElementFrame): boolean {
  const fx = f.footU, fy = f.footV;
  if (fx < 0 || fy < 0 || fx > 1 || fy > 1) return false;
  if ((fx === 1 && f.i !== hf.cellsX - 1) || (fy === 1 && f.j !== hf.cellsY - 1)) return false;
  if (f.kind === ElementKind.LowerTriangle) return fx + fy < 1;
  if (f.kind === ElementKind.UpperTriangle) return fx + fy >= 1;
  return true;
}

/** Loads the element polygon (CCW from above; see heightfield.ts) into sc.vx/vy/vz; returns its vertex count. */
function loadPolygon(sc: BaseEllipseScratch, hf: Heightfield, f: ElementFrame): number {
  const vx = sc.vx, vy = sc.vy, vz = sc.vz;
  const H = hf.heights, c = hf.cols, kv = f.j * c + f.i;
  const x0 = f.ox, x1 = f.ox + f.dx, y0 = f.oy, y1 = f.oy + f.dy;
  let m = 0;
  if (f.kind !== ElementKind.UpperTriangle) { vx[m] = x0; vy[m] = y0; vz[m] = H[kv]; m++; } // V0
  vx[m] = x1; vy[m] = y0; vz[m] = H[kv + 1]; m++; // V1
  if (f.kind !== ElementKind.LowerTriangle) { vx[m] = x1; vy[m] = y1; vz[m] = H[kv + c + 1]; m++; } // V3
  vx[m] = x0; vy[m] = y1; vz[m] = H[kv + c]; m++; // V2
  return m;
}

/**
 * Is the foot of base point (x, y) (depth s) inside the cylinder? The foot is the base point
 * moved by s along n = cosθ·a − sinθ·w: axially it rises s·cosθ above the lower base, radially
 * its w coordinate becomes x − s·sinθ. (A face whose plane passes beside the wheel — a steep
 * curb face next to a barrel standing on the curb top — has its feet outside.)
 */
function footInCylinder(f: ElementFrame, x: number, y: number, s: number): boolean {
  const xr = x - s * f.sin;
  return s * f.cos <= 2 * f.hh && xr * xr + y * y <= f.r * f.r;
}

/** Appends a case A contact at terrain point p with depth s and the element's normal; 1 if it did not fit. */
function writeBaseContact(out: ContactBuffer, f: ElementFrame, px: number, py: number, pz: number, s: number): number {
  const k = out.reserve();
  if (k < 0) return 1;
  const P = out.point, N = out.normal;
  P[3 * k] = px; P[3 * k + 1] = py; P[3 * k + 2] = pz;
  N[3 * k] = f.nx; N[3 * k + 1] = f.ny; N[3 * k + 2] = f.nz;
  out.depth[k] = s;
  out.kind[k] = WheelContactKind.BaseA;
  out.cellI[k] = f.i;
  out.cellJ[k] = f.j;
  out.feature[k] = f.kind;
  return 0;
}

/** Case A contacts of one element (frame with s(B_L) > 0). Returns the number that did not fit. */
export function baseEllipseContacts(out: ContactBuffer, hf: Heightfield, f: ElementFrame, sc: BaseEllipseScratch): number {
  const vx = sc.vx, vy = sc.vy, vz = sc.vz, bx = sc.bx, by = sc.by, bent = sc.bent, inside = sc.inside;
  const r = f.r;
  if (f.cos <= CYLINDER_TERRAIN_AXIS_PARALLEL_EPSILON) return 0; // lying cylinder buried past its radius: the base cannot face the plane
  let lost = 0;
  const sCL = f.sCL, sin = f.sin;
  const nx = f.nx, ny = f.ny, nz = f.nz;
  // Rim extreme points.
  for (let m = 0; m < 4; m++) {
    const x = RIM_X[m] * r, y = RIM_Y[m] * r;
    const s = sCL + x * sin;
    const px = f.clx + x * f.wx + y * f.ux + s * nx;
    const py = f.cly + x * f.wy + y * f.uy + s * ny;
    if (!footInElement(hf, f, (px - f.ox) / f.dx, (py - f.oy) / f.dy)) continue;
    // No foot-in-cylinder test here: these four span the support polygon of a standing wheel,
    // and the feet of B_L and D± lie outside the cylinder by only s·sinθ and s²sin²θ/2r on a
    // plane the base rests on; dropping them would leave a tilted barrel on one point.
    const pz = f.clz + x * f.wz + y * f.uz + s * nz;
    lost += writeBaseContact(out, f, px, py, pz, s);
  }
  // Bent edges: crossings with the rim and vertices inside the disc.
  const sides = elementSides(f.kind);
  const m = loadPolygon(sc, hf, f);
  let anyBent = false;
  for (let e = 0; e < m; e++) {
    bent[e] = hf.edgeClass(f.i, f.j, sides[e]) !== EdgeClass.Flat ? 1 : 0; // concave or convex: either ends the plane
    if (bent[e] === 1) anyBent = true;
  }
  if (!anyBent) return lost;
  const r2 = r * r;
  const tanSec = sin / f.cos;
  for (let e = 0; e < m; e++) {
    const dx = vx[e] - f.clx, dy = vy[e] - f.cly, dz = vz[e] - f.clz;
    by[e] = dx * f.ux + dy * f.uy + dz * f.uz;
    bx[e] = dx * f.wx + dy * f.wy + dz * f.wz + tanSec * (dx * f.ax + dy * f.ay + dz * f.az);
    inside[e] = bx[e] * bx[e] + by[e] * by[e] < r2 ? 1 : 0;
  }
  for (let e = 0; e < m; e++) {
    const prev = e === 0 ? m - 1 : e - 1;
    const bentHere = bent[e] === 1;
    if (inside[e] === 1 && (bentHere || bent[prev] === 1)) {
      const s = sCL + bx[e] * sin;
      if (footInCylinder(f, bx[e], by[e], s)) lost += writeBaseContact(out, f, vx[e], vy[e], vz[e], s);
    }
    if (!bentHere || inside[e] + inside[e === m - 1 ? 0 : e + 1] === 2) continue;
    // Edge e → e+1 against the rim circle: k0 τ² + 2 k1 τ + k2 = 0 (paper's quadratic, a = b = r).
    const n1 = e === m - 1 ? 0 : e + 1;
    const ddx = bx[n1] - bx[e], ddy = by[n1] - by[e];
    const k0 = ddx * ddx + ddy * ddy;
    if (!(k0 > 0)) continue;
    const k1 = bx[e] * ddx + by[e] * ddy;
    const k2 = bx[e] * bx[e] + by[e] * by[e] - r2;
    const disc = k1 * k1 - k0 * k2;
    if (disc < 0) continue;
    const sq = Math.sqrt(disc);
    for (let root = 0; root < 2; root++) {
      const tau = (-k1 + (root === 0 ? -sq : sq)) / k0;
      if (!(tau > 0 && tau < 1)) continue;
      if (root === 1 && sq === 0) continue;
      const s = sCL + (bx[e] + tau * ddx) * sin;
      if (!footInCylinder(f, bx[e] + tau * ddx, by[e] + tau * ddy, s)) continue;
      const px = vx[e] + tau * (vx[n1] - vx[e]);
      const py = vy[e] + tau * (vy[n1] - vy[e]);
      const pz = vz[e] + tau * (vz[n1] - vz[e]);
      lost += writeBaseContact(out, f, px, py, pz, s);
    }
  }
  return lost;
}
