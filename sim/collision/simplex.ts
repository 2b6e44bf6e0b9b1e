/**
 * GJK simplex: up to 4 points w_i = a_i − b_i of the Minkowski difference A − B together with the
 * support points a_i, b_i that produced them, and the closest-point sub-algorithm that replaces
 * Johnson's: the point of conv{w_i} nearest the origin by Voronoi-region tests (Ericson,
 * Real-Time Collision Detection, §5.1.2 segment, §5.1.5 triangle, §5.1.6 tetrahedron), keeping
 * only the vertices whose region holds the origin (their barycentric weights λ_i > 0).
 *
 * Degenerate simplices are handled by dimension drop instead of division by ~0: a segment shorter
 * than √GJK_DEGENERATE_RELATIVE·scale is treated as its nearer end point; a triangle whose
 * ‖ab × ac‖² is below GJK_DEGENERATE_RELATIVE·scale⁴ (collinear, or zero area) as the best of its
 * three edges; a tetrahedron with det² below GJK_DEGENERATE_RELATIVE·scale⁶ (coplanar) as the
 * best of its four faces — its hull is exactly the union of those faces.
 */
import type { Vec3 } from '../math/vec3';
import { GJK_DEGENERATE_RELATIVE } from '../constants';

/** Maximal simplex size in 3D. */
export const SIMPLEX_CAPACITY = 4;


export class Simplex {
  count = 0;
  /** Minkowski points w_i = a_i − b_i, xyz interleaved. */
  readonly w = new Float64Array(12);
  /** Support points on A. */
  readonly a = new Float64Array(12);
  /** Support points on B. */
  readonly b = new Float64Array(12);
  /** Barycentric weights of the closest point (valid after `closest`). */
  readonly lambda = new Float64Array(4);
  /** Result of the last sub-routine inside `closest`: the supporting vertices and their weights. */
  private readonly resIdx = new Int32Array(4);
  private readonly resLam = new Float64Array(4);
  private resCount = 0;
  /** Candidate results while the tetrahedron compares its faces. */
  private readonly bestIdx = new Int32Array(4);
  private readonly bestLam = new Float64Array(4);
  /**
   * Doubles handed between the sub-routines: [0] the squared distance of `resDistSq`, [1] the
   * edge parameter t of `setEdge`. A double passed to or returned from a call V8 does not inline
   * is boxed (a heap allocation); through this array nothing is allocated.
   */
  private readonly scratch = new Float64Array(2);

  clear(): void {
    this.count = 0;
  }

  push(w: Readonly<Vec3>, a: Readonly<Vec3>, b: Readonly<Vec3>): void {
    const i = this.count * 3;
    for (let k = 0; k < 3; k++) {
      this.w[i + k] = w[k];
      this.a[i + k] = a[k];
      this.b[i + k] = b[k];
    }
    this.lambda[this.count] = 0;
    this.count++;
  }

  /** True when `w` is within √tolSq of a vertex already in the simplex (GJK made no progress). */
  contains(w: Readonly<Vec3>, tolSq: number): boolean {
    for (let i = 0; i < this.count; i++) {
      const x = this.w[3 * i] - w[0], y = this.w[3 * i + 1] - w[1], z = this.w[3 * i + 2] - w[2];
      if (x * x + y * y + z * z <= tolSq) return true;
    }
    return false;
  }

  /**
   * Writes the point of the simplex nearest the origin into `v`, drops the vertices that do not
   * support it, and stores their weights in `lambda`. Returns true when the origin is inside a
   * full (non-degenerate) tetrahedron; then `v` = 0 and all 4 vertices are kept.
   */
  closest(v: Vec3): boolean {
    const n = this.count;
    let inside = false;
    if (n === 1) {
      this.resCount = 1;
      this.resIdx[0] = 0;
      this.resLam[0] = 1;
    } else if (n === 2) {
      this.segment(0, 1);
    } else if (n === 3) {
      this.triangle(0, 1, 2);
    } else {
      inside = this.tetrahedron();
    }
    // Compact the simplex to the supporting vertices (indices in this.resIdx are increasing).
    for (let j = 0; j < this.resCount; j++) {
      const i = this.resIdx[j];
      if (i !== j) {
        for (let k = 0; k < 3; k++) {
          this.w[3 * j + k] = this.w[3 * i + k];
          this.a[3 * j + k] = this.a[3 * i + k];
          this.b[3 * j + k] = this.b[3 * i + k];
        }
      }
      this.lambda[j] = this.resLam[j];
    }
    this.count = this.resCount;
    let x = 0, y = 0, z = 0;
    for (let j = 0; j < this.resCount; j++) {
      const l = this.lambda[j];
      x += l * this.w[3 * j];
      y += l * this.w[3 * j + 1];
      z += l * this.w[3 * j + 2];
    }
    if (inside) x = y = z = 0;
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return inside;
  }

  /** Witness points Σλ_i a_i and Σλ_i b_i (in the frame the supports were given in). */
  witness(outA: Vec3, outB: Vec3): void {
    let ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0;
    for (let j = 0; j < this.count; j++) {
      const l = this.lambda[j];
      ax += l * this.a[3 * j];
      ay += l * this.a[3 * j + 1];
      az += l * this.a[3 * j + 2];
      bx += l * this.b[3 * j];
      by += l * this.b[3 * j + 1];
      bz += l * this.b[3 * j + 2];
    }
    outA[0] = ax;
    outA[1] = ay;
    outA[2] = az;
    outB[0] = bx;
    outB[1] = by;
    outB[2] = bz;
  }

  /** Squared distance to the origin of the point described by the current res* arrays (read it from scratch[0]). */
  private resDistSq(): void {
    let x = 0, y = 0, z = 0;
    for (let j = 0; j < this.resCount; j++) {
      const i = 3 * this.resIdx[j], l = this.resLam[j];
      x += l * this.w[i];
      y += l * this.w[i + 1];
      z += l * this.w[i + 2];
    }
    this.scratch[0] = x * x + y * y + z * z;
  }

  private setVertex(i: number): void {
    this.resCount = 1;
    this.resIdx[0] = i;
    this.resLam[0] = 1;
  }

  /** Orders the pair by index so compaction stays in place; t (weight of j) is read from scratch[1]. */
  private setEdge(i: number, j: number): void {
    const t = this.scratch[1];
    this.resCount = 2;
    if (i < j) {
      this.resIdx[0] = i;
      this.resIdx[1] = j;
      this.resLam[0] = 1 - t;
      this.resLam[1] = t;
    } else {
      this.resIdx[0] = j;
      this.resIdx[1] = i;
      this.resLam[0] = t;
      this.resLam[1] = 1 - t;
    }
  }

  /** Ericson §5.1.2 with p = origin: t = −a·(b−a)/‖b−a‖², clamped. */
  private segment(i: number, j: number): void {
    const w = this.w;
    const ax = w[3 * i], ay = w[3 * i + 1], az = w[3 * i + 2];
    const ex = w[3 * j] - ax, ey = w[3 * j + 1] - ay, ez = w[3 * j + 2] - az;
    const ee = ex * ex + ey * ey + ez * ez;
    const scale = Math.max(ax * ax + ay * ay + az * az, w[3 * j] ** 2 + w[3 * j + 1] ** 2 + w[3 * j + 2] ** 2);
    const num = -(ax * ex + ay * ey + az * ez);
    if (!(ee > GJK_DEGENERATE_RELATIVE * scale)) {
      // Zero-length segment: the nearer end point (they coincide up to rounding).
      const bb = w[3 * j] ** 2 + w[3 * j + 1] ** 2 + w[3 * j + 2] ** 2;
      this.setVertex(bb < ax * ax + ay * ay + az * az ? j : i);
      return;
    }
    if (num <= 0) this.setVertex(i);
    else if (num >= ee) this.setVertex(j);
    else {
      this.scratch[1] = num / ee;
      this.setEdge(i, j);
    }
  }

  /** Ericson §5.1.5 (ClosestPtPointTriangle) with p = origin. Indices must be increasing. */
  private triangle(i: number, j: number, k: number): void {
    const w = this.w;
    const ax = w[3 * i], ay = w[3 * i + 1], az = w[3 * i + 2];
    const bx = w[3 * j], by = w[3 * j + 1], bz = w[3 * j + 2];
    const cx = w[3 * k], cy = w[3 * k + 1], cz = w[3 * k + 2];
    const abx = bx - ax, aby = by - ay, abz = bz - az;
    const acx = cx - ax, acy = cy - ay, acz = cz - az;
    const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
    const scale = Math.max(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz);
    if (!(nx * nx + ny * ny + nz * nz > GJK_DEGENERATE_RELATIVE * scale * scale)) {
      // Collinear or zero area: best of the three edges.
      this.segment(i, j);
      this.resDistSq();
      let bestD = this.scratch[0];
      let c0 = this.resCount, i0 = this.resIdx[0], i1 = this.resIdx[1], l0 = this.resLam[0], l1 = this.resLam[1];
      this.segment(i, k);
      this.resDistSq();
      let d = this.scratch[0];
      if (d < bestD) {
        bestD = d;
        c0 = this.resCount; i0 = this.resIdx[0]; i1 = this.resIdx[1]; l0 = this.resLam[0]; l1 = this.resLam[1];
      }
      this.segment(j, k);
      this.resDistSq();
      d = this.scratch[0];
      if (d < bestD) return;
      this.resCount = c0; this.resIdx[0] = i0; this.resIdx[1] = i1; this.resLam[0] = l0; this.resLam[1] = l1;
      return;
    }
    // Vertex region A
    const d1 = -(abx * ax + aby * ay + abz * az);
    const d2 = -(acx * ax + acy * ay + acz * az);
    if (d1 <= 0 && d2 <= 0) return this.setVertex(i);
    // Vertex region B
    const d3 = -(abx * bx + aby * by + abz * bz);
    const d4 = -(acx * bx + acy * by + acz * bz);
    if (d3 >= 0 && d4 <= d3) return this.setVertex(j);
    // Edge region AB
    const vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
      const den = d1 - d3;
      if (den > 0) this.scratch[1] = d1 / den;
      else this.scratch[1] = 0;
      return this.setEdge(i, j);
    }
    // Vertex region C
    const d5 = -(abx * cx + aby * cy + abz * cz);
    const d6 = -(acx * cx + acy * cy + acz * cz);
    if (d6 >= 0 && d5 <= d6) return this.setVertex(k);
    // Edge region AC
    const vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      const den = d2 - d6;
      if (den > 0) this.scratch[1] = d2 / den;
      else this.scratch[1] = 0;
      return this.setEdge(i, k);
    }
    // Edge region BC
    const va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const den = d4 - d3 + (d5 - d6);
      if (den > 0) this.scratch[1] = (d4 - d3) / den;
      else this.scratch[1] = 0;
      return this.setEdge(j, k);
    }
    // Face region: barycentric (u, v, w) = (va, vb, vc) / (va + vb + vc)
    const sum = va + vb + vc;
    this.resCount = 3;
    this.resIdx[0] = i;
    this.resIdx[1] = j;
    this.resIdx[2] = k;
    this.resLam[0] = va / sum;
    this.resLam[1] = vb / sum;
    this.resLam[2] = vc / sum;
  }

  /**
   * Ericson §5.1.6: the origin is tested against each face plane (sign of the face normal toward
   * the origin versus toward the opposite vertex); the closest point is the best over the faces
   * the origin is outside of. None outside: the origin is enclosed.
   */
  private tetrahedron(): boolean {
    const w = this.w;
    const ax = w[0], ay = w[1], az = w[2];
    const bx = w[3] - ax, by = w[4] - ay, bz = w[5] - az;
    const cx = w[6] - ax, cy = w[7] - ay, cz = w[8] - az;
    const dx = w[9] - ax, dy = w[10] - ay, dz = w[11] - az;
    const det = bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx);
    const scale = Math.max(bx * bx + by * by + bz * bz, cx * cx + cy * cy + cz * cz, dx * dx + dy * dy + dz * dz);
    const degenerate = !(det * det > GJK_DEGENERATE_RELATIVE * scale * scale * scale);
    let bestD = Infinity;
    let bestCount = 0;
    // Faces (i, j, k) with opposite vertex o; indices increasing for in-place compaction.
    for (let f = 0; f < 4; f++) {
      const o = 3 - f; // opposite vertex
      const i = o === 0 ? 1 : 0;
      const j = o <= 1 ? 2 : 1;
      const k = o <= 2 ? 3 : 2;
      if (!degenerate && !this.originOutside(i, j, k, o)) continue;
      this.triangle(i, j, k);
      this.resDistSq();
      const d = this.scratch[0];
      if (d < bestD) {
        bestD = d;
        bestCount = this.resCount;
        for (let q = 0; q < this.resCount; q++) {
          this.bestIdx[q] = this.resIdx[q];
          this.bestLam[q] = this.resLam[q];
        }
      }
    }
    if (bestCount === 0) {
      // Origin inside every face plane: enclosed. Weights from signed sub-volumes (for witnesses).
      this.insideWeights(det);
      return true;
    }
    this.resCount = bestCount;
    for (let q = 0; q < bestCount; q++) {
      this.resIdx[q] = this.bestIdx[q];
      this.resLam[q] = this.bestLam[q];
    }
    return false;
  }

  /** Origin and vertex o strictly on opposite sides of plane (i, j, k). */
  private originOutside(i: number, j: number, k: number, o: number): boolean {
    const w = this.w;
    const ax = w[3 * i], ay = w[3 * i + 1], az = w[3 * i + 2];
    const abx = w[3 * j] - ax, aby = w[3 * j + 1] - ay, abz = w[3 * j + 2] - az;
    const acx = w[3 * k] - ax, acy = w[3 * k + 1] - ay, acz = w[3 * k + 2] - az;
    const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
    const sp = -(nx * ax + ny * ay + nz * az);
    const sd = nx * (w[3 * o] - ax) + ny * (w[3 * o + 1] - ay) + nz * (w[3 * o + 2] - az);
    return sp * sd < 0;
  }

  /**
   * Barycentric weights of the origin in the tetrahedron: with e_i = w_i − w_0, solve
   * λ1 e1 + λ2 e2 + λ3 e3 = −w_0 by Cramer's rule (det = e1·(e2×e3), nonzero: not degenerate).
   */
  private insideWeights(det: number): void {
    const w = this.w;
    const px = -w[0], py = -w[1], pz = -w[2];
    const e1x = w[3] + px, e1y = w[4] + py, e1z = w[5] + pz;
    const e2x = w[6] + px, e2y = w[7] + py, e2z = w[8] + pz;
    const e3x = w[9] + px, e3y = w[10] + py, e3z = w[11] + pz;
    const l1 = triple(px, py, pz, e2x, e2y, e2z, e3x, e3y, e3z) / det;
    const l2 = triple(e1x, e1y, e1z, px, py, pz, e3x, e3y, e3z) / det;
    const l3 = triple(e1x, e1y, e1z, e2x, e2y, e2z, px, py, pz) / det;
    this.resCount = 4;
    for (let q = 0; q < 4; q++) this.resIdx[q] = q;
    this.resLam[0] = 1 - l1 - l2 - l3;
    this.resLam[1] = l1;
    this.resLam[2] = l2;
    this.resLam[3] = l3;
  }
}

/** a·(b×c) */
function triple(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): number {
  return ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
}
