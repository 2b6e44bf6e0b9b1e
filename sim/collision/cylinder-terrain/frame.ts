/**
 * The cylinder as seen from one element plane (Strashnov & Torgashev 2020, §IV, Fig. 6): the
 * quantities every narrow-phase case needs, computed once per element into a reusable record.
 *
 *   plane      s(P) = k − P·n   (> 0 below the plane, n the upward unit normal)
 *   a          the axis oriented from the LOWER base to the upper one (a = ±v, a·n = cosθ ≥ 0);
 *              the paper's base 1 is the lower one: choosing it per element keeps the two ends
 *              of the cylinder symmetric (a property test flips v and expects the same result).
 *   w          unit, ⟂ a, pointing "down" toward the plane: w = (cosθ·a − n)/sinθ
 *              (paper: w = ((v·n)v − n)/|…|); when a ∥ n (sinθ ≈ 0) w runs along the cell's x edge.
 *   u          a × w, ⟂ n: the in-plane direction across the lowest line.
 *   C_L, C_U   base centres (lower, upper) = C ∓ (h/2)a
 *   A_L, A_U   lowest rim points C_{L,U} + r·w;  B_L = C_L − r·w the highest point of the lower rim
 *
 *          a ↑      upper base
 *            ┌──────────┐
 *            │          │            s(A_L) = s(C_L) + r·sinθ
 *            │    C     │            s(A_U) = s(A_L) − h·cosθ
 *            │          │            s(B_L) = s(C_L) − r·sinθ
 *        B_L └────●─────┘ A_L  ── w →
 *                C_L
 *   ─────────────────────────────  element plane (n up)
 *
 * Since w·n = −sinθ and a·n = cosθ, all s-values follow from s(C) with no further dot products.
 */
import { CYLINDER_TERRAIN_PARALLEL_SIN } from '../../constants';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import type { Vec3 } from '../../math/vec3';
const ELEMENT_ABOVE = 0, ELEMENT_FRAME = 2;

/** The cylinder of the current query (world frame). */
export class CylinderQuery {
  // Every double field starts as NaN, a heap number: V8 then stores the field unboxed-in-place
  // as a double from the first write (a field that starts as the small integer 0 may end up a
  // generic tagged field, and every later double store would allocate).
  cx = NaN; cy = NaN; cz = NaN;
  /** Unit axis v. */
  vx = NaN; vy = NaN; vz = NaN;
  /** [m] Radius and half height. */
  r = NaN;
  hh = NaN;
  /** [m] The heightfield's origin and spacing, and [1/m] the inverse spacing (read per element and edge). */
  x0 = NaN; y0 = NaN; dx = NaN; dy = NaN;
  invDx = NaN;
  invDy = NaN;

  /**
   * Reads the query from the caller's arrays (object arguments: the doubles are not boxed when
   * this call is not inlined).
   */
  set(center: Readonly<Vec3>, axis: Readonly<Vec3>, size: { readonly radius: number; readonly halfHeight: number }, hf: Heightfield): void {
    this.cx = center[0]; this.cy = center[1]; this.cz = center[2];
    this.vx = axis[0]; this.vy = axis[1]; this.vz = axis[2];
    this.r = size.radius; this.hh = size.halfHeight;
    this.x0 = hf.x0; this.y0 = hf.y0; this.dx = hf.dx; this.dy = hf.dy;
    this.invDx = 1 / hf.dx;
    this.invDy = 1 / hf.dy;
  }
}

/** One element and the cylinder seen from its plane. */
export class ElementFrame {
  /** Cell and element. */
  i = 0; j = 0;
  kind: ElementKind = ElementKind.Rectangle;
  /** [m] World x, y of the cell's V0 and the grid spacing, [1/m] its inverse. (Doubles start as NaN: see CylinderQuery.) */
  ox = NaN; oy = NaN; dx = NaN; dy = NaN;
  invDx = NaN; invDy = NaN;
  /** Upward unit normal n and plane constant k (s(P) = k − P·n). */
  nx = NaN; ny = NaN; nz = NaN; k = NaN;
  /** The plane's height slope along x (for the down radial of an axis along n, setDownRadial). */
  slopeX = NaN;
  /** Axis from the lower base to the upper, cosθ = a·n ≥ 0, sinθ = √(1 − cos²θ). */
  ax = NaN; ay = NaN; az = NaN; cos = NaN; sin = NaN;
  /** Down radial w and u = a × w. */
  wx = NaN; wy = NaN; wz = NaN;
  ux = NaN; uy = NaN; uz = NaN;
  /** Lower base centre C_L. */
  clx = NaN; cly = NaN; clz = NaN;
  /** [m] s at C_L, A_L, A_U, B_L. */
  sCL = NaN; sAL = NaN; sAU = NaN; sBL = NaN;
  /**
   * Foot of A_L on the plane (A_L + s(A_L)·n, the point under the cylinder's deepest point) in
   * cell-normalised coordinates: (x − ox)/dx, (y − oy)/dy; in [0, 1]² over the cell.
   */
  footU = NaN; footV = NaN;
  /**
   * [m] The cylinder's half height and radius, copied here so the per-element routines take no
   * number arguments (doubles passed to a call that is not inlined are boxed on the heap).
   */
  hh = NaN; r = NaN;
}

/** Verdict of setElementFrame on one element. */
export const ElementTest = {
  /** s(A_L) ≤ 0: the whole cylinder is above the element's (infinite) plane; its edges are out too. */
  Above: 0,
  /** The frame is complete: run the narrow-phase case. */
  Frame: 2,
} as const;
export type ElementTest = (typeof ElementTest)[keyof typeof ElementTest];

/**
 * Exact frame of element `kind` of cell (i, j): fills `f` and returns ElementTest.Frame, or
 * ElementTest.Above (the frame's fields are then not to be read). The narrow phase builds it in
 * two steps (setElementPlane, then completeElementFrame once the cylinder is known to dip below
 * the plane); element-walls.ts calls this for the elements it measures.
 */
export function setElementFrame(f: ElementFrame, q: CylinderQuery, hf: Heightfield, i: number, j: number, kind: ElementKind): ElementTest {
  setElementPlane(f, q, hf, i, j, kind);
  if (!(f.sAL > 0)) return ELEMENT_ABOVE;
  completeElementFrame(f);
  return ELEMENT_FRAME;
}

/**
 * The first part of the frame of element `kind` of cell (i, j): the cell, its plane (n, k), the
 * axis a from the lower base up, cosθ, sinθ, C_L and the s-values. s(A_L) ≤ 0 means the whole
 * cylinder is above the plane (completeElementFrame is then not needed).
 *
 * The plane is computed from the heights exactly as Heightfield.elementPlane (same slopes, same
 * vertex), so every routine that uses the terrain sees bit-identical planes.
 */
export function setElementPlane(f: ElementFrame, q: CylinderQuery, hf: Heightfield, i: number, j: number, kind: ElementKind): void {
  const H = hf.heights;
  const c = hf.cols;
  const kv = j * c + i;
  const dx = q.dx, dy = q.dy;
  const ox = q.x0 + i * dx, oy = q.y0 + j * dy;
  const vx = q.vx, vy = q.vy, vz = q.vz, hh = q.hh, r = q.r;
  // The element's plane vertex P (V3 for the upper triangle, else V0) and the height rises from
  // its x- and y-neighbours to it: slopes σx = riseX/dx, σy = riseY/dy.
  let riseX: number, riseY: number, px: number, py: number, pz: number;
  if (kind === ElementKind.UpperTriangle) {
    const h3 = H[kv + c + 1];
    riseX = h3 - H[kv + c];
    riseY = h3 - H[kv + 1];
    px = ox + dx; py = oy + dy; pz = h3;
  } else {
    const h0 = H[kv];
    riseX = H[kv + 1] - h0;
    riseY = H[kv + c] - h0;
    px = ox; py = oy; pz = h0;
  }
  const sx = riseX / dx, sy = riseY / dy;
  const inv = 1 / Math.sqrt(sx * sx + sy * sy + 1);
  const nx = -sx * inv, ny = -sy * inv, nz = inv;
  f.nx = nx; f.ny = ny; f.nz = nz;
  f.slopeX = sx;
  const k = nx * px + ny * py + nz * pz;
  const dot = vx * nx + vy * ny + vz * nz;
  const cos = dot < 0 ? -dot : dot;
  // sinθ = |cosθ·a − n| = |(v·n)v − n|, not √(1 − cos²θ): for a nearly upright axis the latter
  // loses all digits (1 − cos² cancels) and w = (cosθ·a − n)/sinθ would not be a unit vector.
  const px0 = dot * vx - nx, py0 = dot * vy - ny, pz0 = dot * vz - nz;
  const sin = Math.sqrt(px0 * px0 + py0 * py0 + pz0 * pz0);
  const sC = k - (q.cx * nx + q.cy * ny + q.cz * nz);
  const sCL = sC + hh * cos;
  const sAL = sCL + r * sin;
  const sg = dot < 0 ? -1 : 1;
  const ax = sg * vx, ay = sg * vy, az = sg * vz;
  f.i = i; f.j = j; f.kind = kind;
  f.dx = dx; f.dy = dy;
  f.invDx = q.invDx; f.invDy = q.invDy;
  f.hh = hh; f.r = r;
  f.ox = ox; f.oy = oy;
  f.k = k;
  f.ax = ax; f.ay = ay; f.az = az;
  f.cos = cos; f.sin = sin;
  f.sCL = sCL;
  f.sAL = sAL;
  f.sAU = sAL - 2 * hh * cos;
  f.sBL = sCL - r * sin;
  f.clx = q.cx - hh * ax; f.cly = q.cy - hh * ay; f.clz = q.cz - hh * az;
}

/** The rest of the frame set by setElementPlane: the down radial w, u = a × w and the foot of A_L. */
export function completeElementFrame(f: ElementFrame): void {
  if (f.sin > CYLINDER_TERRAIN_PARALLEL_SIN) {
    // w = (cosθ·a − n)/sinθ = ((v·n)v − n)/sinθ (a = ±v, cosθ = |v·n|); u = a × w.
    const iw = 1 / f.sin;
    const wx = (f.cos * f.ax - f.nx) * iw, wy = (f.cos * f.ay - f.ny) * iw, wz = (f.cos * f.az - f.nz) * iw;
    f.wx = wx; f.wy = wy; f.wz = wz;
    f.ux = f.ay * wz - f.az * wy;
    f.uy = f.az * wx - f.ax * wz;
    f.uz = f.ax * wy - f.ay * wx;
  } else {
    setDownRadial(f, f.slopeX);
  }
  setLowestFoot(f);
}

/** footU, footV of the frame (its w, C_L and s(A_L) set). */
function setLowestFoot(f: ElementFrame): void {
  f.footU = (f.clx + f.r * f.wx + f.sAL * f.nx - f.ox) / f.dx;
  f.footV = (f.cly + f.r * f.wy + f.sAL * f.ny - f.oy) / f.dy;
}

/**
 * Upward unit normal of an element of cell (i, j) into dst[at], dst[at + 1], dst[at + 2]: the
 * upper triangle's with `upper`, else the rectangle's or lower triangle's (both through V0).
 * Bit-identical to setElementFrame and Heightfield.elementPlane. For the edge pass, which needs
 * a face normal only when an edge pokes in.
 */
export function elementNormalInto(dst: Float64Array, at: number, hf: Heightfield, i: number, j: number, upper: boolean): void {
  const H = hf.heights, c = hf.cols, kv = j * c + i;
  let sx: number, sy: number;
  if (upper) {
    sx = (H[kv + c + 1] - H[kv + c]) / hf.dx;
    sy = (H[kv + c + 1] - H[kv + 1]) / hf.dy;
  } else {
    sx = (H[kv + 1] - H[kv]) / hf.dx;
    sy = (H[kv + c] - H[kv]) / hf.dy;
  }
  const inv = 1 / Math.sqrt(sx * sx + sy * sy + 1);
  dst[at] = -sx * inv;
  dst[at + 1] = -sy * inv;
  dst[at + 2] = inv;
}

/**
 * w = (cosθ·a − n)/sinθ and u = a × w; for a ∥ n the paper's fallback, the cell's x edge
 * direction (1, 0, slope_x) made ⟂ a. `slopeX` is the element's height slope along x.
 */
export function setDownRadial(f: ElementFrame, slopeX: number): void {
  const ax = f.ax, ay = f.ay, az = f.az;
  let wx: number, wy: number, wz: number;
  if (f.sin > CYLINDER_TERRAIN_PARALLEL_SIN) {
    const inv = 1 / f.sin;
    wx = (f.cos * ax - f.nx) * inv;
    wy = (f.cos * ay - f.ny) * inv;
    wz = (f.cos * az - f.nz) * inv;
  } else {
    // Gram–Schmidt of the x edge against a (a ∥ n, so the edge is already nearly ⟂ a).
    let ex = 1, ey = 0, ez = slopeX;
    const d = ex * ax + ey * ay + ez * az;
    ex -= d * ax; ey -= d * ay; ez -= d * az;
    const l = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (l > 0) {
      wx = ex / l; wy = ey / l; wz = ez / l;
    } else {
      wx = 0; wy = 1; wz = 0;
    }
  }
  f.wx = wx; f.wy = wy; f.wz = wz;
  f.ux = ay * wz - az * wy;
  f.uy = az * wx - ax * wz;
  f.uz = ax * wy - ay * wx;
}

/**
 * Plane frame for a horizontal plane z = height (the flat-patch path and the per-cell cull):
 * same fields as setElementFrame with n = +z. Returns s(A_L).
 */
export function setHorizontalFrame(f: ElementFrame, q: CylinderQuery, height: number): number {
  f.nx = 0; f.ny = 0; f.nz = 1; f.k = height;
  f.hh = q.hh; f.r = q.r;
  const dot = q.vz;
  const cos = dot < 0 ? -dot : dot;
  const sin = Math.sqrt(dot * q.vx * (dot * q.vx) + dot * q.vy * (dot * q.vy) + (dot * q.vz - 1) * (dot * q.vz - 1));
  const sg = dot < 0 ? -1 : 1;
  f.ax = sg * q.vx; f.ay = sg * q.vy; f.az = sg * q.vz;
  f.cos = cos; f.sin = sin;
  const sCL = height - q.cz + q.hh * cos;
  f.sCL = sCL;
  f.sAL = sCL + q.r * sin;
  f.sAU = f.sAL - 2 * q.hh * cos;
  f.sBL = sCL - q.r * sin;
  f.clx = q.cx - q.hh * f.ax; f.cly = q.cy - q.hh * f.ay; f.clz = q.cz - q.hh * f.az;
  setDownRadial(f, 0);
  return f.sAL;
}
