/**
 * 3×3 matrices as column-major `Float64Array(9)`: element (row r, column c) is `m[c*3 + r]`, the
 * same layout as `quatToMat3` in ./quat. Used for inertia tensors (mass properties, OBB by PCA)
 * and for the relative rotation inside GJK/EPA.
 *
 *   | m0 m3 m6 |
 *   | m1 m4 m7 |
 *   | m2 m5 m8 |
 *
 * Functions write into `out` and return it; `out` may alias an input unless a comment says not.
 */
import type { Vec3 } from './vec3';
import type { Quat } from './quat';
import { quatToMat3 } from './quat';
import { JACOBI_MAX_SWEEPS } from '../constants';

/** A 3 × 3 matrix: nine numbers in a Float64Array. */
export type Mat3 = Float64Array;

/** A new zero matrix (allocates). */
export function mat3(): Mat3 {
  return new Float64Array(9);
}

/** Writes the identity into `out` and returns it. */
export function mat3Identity(out: Mat3): Mat3 {
  out.fill(0);
  out[0] = 1;
  out[4] = 1;
  out[8] = 1;
  return out;
}

/** Copies `a` into `out` and returns `out`. */
export function mat3Copy(out: Mat3, a: Readonly<Mat3>): Mat3 {
  for (let i = 0; i < 9; i++) out[i] = a[i];
  return out;
}

/** Diagonal matrix diag(x, y, z). */
export function mat3Diagonal(out: Mat3, x: number, y: number, z: number): Mat3 {
  out.fill(0);
  out[0] = x;
  out[4] = y;
  out[8] = z;
  return out;
}

/** The rotation matrix of the unit quaternion `q`, into `out`. */
export function mat3FromQuat(out: Mat3, q: Readonly<Quat>): Mat3 {
  quatToMat3(out, q);
  return out;
}

/** out = a · b. `out` must not alias `a` or `b`. */
export function mat3Multiply(out: Mat3, a: Readonly<Mat3>, b: Readonly<Mat3>): Mat3 {
  for (let c = 0; c < 3; c++) {
    const b0 = b[c * 3], b1 = b[c * 3 + 1], b2 = b[c * 3 + 2];
    out[c * 3] = a[0] * b0 + a[3] * b1 + a[6] * b2;
    out[c * 3 + 1] = a[1] * b0 + a[4] * b1 + a[7] * b2;
    out[c * 3 + 2] = a[2] * b0 + a[5] * b1 + a[8] * b2;
  }
  return out;
}

/** `out = aᵀ`; `out` may alias `a`. */
export function mat3Transpose(out: Mat3, a: Readonly<Mat3>): Mat3 {
  const a1 = a[1], a2 = a[2], a5 = a[5];
  out[0] = a[0];
  out[4] = a[4];
  out[8] = a[8];
  out[1] = a[3];
  out[3] = a1;
  out[2] = a[6];
  out[6] = a2;
  out[5] = a[7];
  out[7] = a5;
  return out;
}

/** out = m · v. */
export function mat3MulVec(out: Vec3, m: Readonly<Mat3>, v: Readonly<Vec3>): Vec3 {
  const x = v[0], y = v[1], z = v[2];
  out[0] = m[0] * x + m[3] * y + m[6] * z;
  out[1] = m[1] * x + m[4] * y + m[7] * z;
  out[2] = m[2] * x + m[5] * y + m[8] * z;
  return out;
}

/** out = mᵀ · v. */
export function mat3TransposeMulVec(out: Vec3, m: Readonly<Mat3>, v: Readonly<Vec3>): Vec3 {
  const x = v[0], y = v[1], z = v[2];
  out[0] = m[0] * x + m[1] * y + m[2] * z;
  out[1] = m[3] * x + m[4] * y + m[5] * z;
  out[2] = m[6] * x + m[7] * y + m[8] * z;
  return out;
}

/** `out = a + b`, element-wise. */
export function mat3Add(out: Mat3, a: Readonly<Mat3>, b: Readonly<Mat3>): Mat3 {
  for (let i = 0; i < 9; i++) out[i] = a[i] + b[i];
  return out;
}

/** `out = a · s`, element-wise. */
export function mat3Scale(out: Mat3, a: Readonly<Mat3>, s: number): Mat3 {
  for (let i = 0; i < 9; i++) out[i] = a[i] * s;
  return out;
}

/** The determinant of `m`. */
export function mat3Determinant(m: Readonly<Mat3>): number {
  return (
    m[0] * (m[4] * m[8] - m[7] * m[5]) -
    m[3] * (m[1] * m[8] - m[7] * m[2]) +
    m[6] * (m[1] * m[5] - m[4] * m[2])
  );
}

/**
 * out = m⁻¹. Returns false (and leaves `out` as the zero matrix) when |det| is not a positive
 * finite number, so no NaN leaves.
 */
export function mat3Invert(out: Mat3, m: Readonly<Mat3>): boolean {
  const det = mat3Determinant(m);
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) {
    out.fill(0);
    return false;
  }
  const inv = 1 / det;
  const m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8];
  out[0] = (m4 * m8 - m7 * m5) * inv;
  out[1] = (m7 * m2 - m1 * m8) * inv;
  out[2] = (m1 * m5 - m4 * m2) * inv;
  out[3] = (m6 * m5 - m3 * m8) * inv;
  out[4] = (m0 * m8 - m6 * m2) * inv;
  out[5] = (m3 * m2 - m0 * m5) * inv;
  out[6] = (m3 * m7 - m6 * m4) * inv;
  out[7] = (m6 * m1 - m0 * m7) * inv;
  out[8] = (m0 * m4 - m3 * m1) * inv;
  return true;
}

const scratchA = new Float64Array(9);
const scratchB = new Float64Array(9);

/** out = R · I · Rᵀ: a tensor expressed in a frame rotated by R into the parent frame. */
export function mat3RotateTensor(out: Mat3, r: Readonly<Mat3>, tensor: Readonly<Mat3>): Mat3 {
  mat3Multiply(scratchA, r, tensor);
  mat3Transpose(scratchB, r);
  return mat3Multiply(out, scratchA, scratchB);
}

/**
 * Parallel-axis theorem (Steiner): adds to `out` the inertia of a point mass `mass` at offset
 * `d` from the reference point, m·(‖d‖²·E − d·dᵀ). Use with a positive mass to move a tensor
 * away from the centre of mass, with a negative mass to move it back onto the centre.
 */
export function mat3AddPointInertia(out: Mat3, mass: number, d: Readonly<Vec3>): Mat3 {
  const x = d[0], y = d[1], z = d[2];
  const dd = x * x + y * y + z * z;
  out[0] += mass * (dd - x * x);
  out[4] += mass * (dd - y * y);
  out[8] += mass * (dd - z * z);
  const xy = -mass * x * y, xz = -mass * x * z, yz = -mass * y * z;
  out[1] += xy;
  out[3] += xy;
  out[2] += xz;
  out[6] += xz;
  out[5] += yz;
  out[7] += yz;
  return out;
}

/**
 * Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations (Golub & Van Loan
 * §8.5; Numerical Recipes §11.1). Writes the eigenvalues into `values` (descending) and the
 * matching unit eigenvectors as the COLUMNS of `vectors` (a proper rotation: det = +1). Only the
 * lower/upper symmetric part is read. Returns the number of sweeps used.
 *
 * Jacobi rather than a closed-form cubic: it is unconditionally stable for repeated eigenvalues
 * (a cube's inertia, a sphere's point cloud), where the closed form loses the eigenvectors.
 */
export function mat3SymmetricEigen(values: Vec3, vectors: Mat3, m: Readonly<Mat3>): number {
  const a = scratchA;
  mat3Copy(a, m);
  mat3Identity(vectors);
  let sweep = 0;
  for (; sweep < JACOBI_MAX_SWEEPS; sweep++) {
    const off = a[3] * a[3] + a[6] * a[6] + a[7] * a[7];
    const diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
    // Off-diagonal mass negligible against the diagonal at float64 precision: converged.
    if (!(off > diag * Number.EPSILON * Number.EPSILON)) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = a[q * 3 + p];
        if (apq === 0) continue;
        const app = a[p * 3 + p], aqq = a[q * 3 + q];
        // Rotation angle that annihilates a_pq (NR eq. 11.1.8–11.1.10, the small-|t| root).
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 3; k++) {
          // Columns p and q of A ← A·J
          const akp = a[p * 3 + k], akq = a[q * 3 + k];
          a[p * 3 + k] = c * akp - s * akq;
          a[q * 3 + k] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          // Rows p and q of A ← Jᵀ·A
          const apk = a[k * 3 + p], aqk = a[k * 3 + q];
          a[k * 3 + p] = c * apk - s * aqk;
          a[k * 3 + q] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = vectors[p * 3 + k], vkq = vectors[q * 3 + k];
          vectors[p * 3 + k] = c * vkp - s * vkq;
          vectors[q * 3 + k] = s * vkp + c * vkq;
        }
      }
    }
  }
  // Sort descending with the columns (selection sort over 3 entries).
  values[0] = a[0];
  values[1] = a[4];
  values[2] = a[8];
  for (let i = 0; i < 2; i++) {
    let best = i;
    for (let j = i + 1; j < 3; j++) if (values[j] > values[best]) best = j;
    if (best !== i) {
      const tv = values[i];
      values[i] = values[best];
      values[best] = tv;
      for (let k = 0; k < 3; k++) {
        const t = vectors[i * 3 + k];
        vectors[i * 3 + k] = vectors[best * 3 + k];
        vectors[best * 3 + k] = t;
      }
    }
  }
  // Proper rotation: flip the last axis if the basis came out left-handed.
  if (mat3Determinant(vectors) < 0) {
    vectors[6] = -vectors[6];
    vectors[7] = -vectors[7];
    vectors[8] = -vectors[8];
  }
  return sweep;
}

/**
 * Unit quaternion [x, y, z, w] of a rotation matrix (Shepperd's method: branch on the largest
 * of trace and diagonal so the square root argument is never small).
 */
export function mat3ToQuat(out: Quat, m: Readonly<Mat3>): Quat {
  const m00 = m[0], m11 = m[4], m22 = m[8];
  const tr = m00 + m11 + m22;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    out[3] = 0.25 * s;
    out[0] = (m[5] - m[7]) / s;
    out[1] = (m[6] - m[2]) / s;
    out[2] = (m[1] - m[3]) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    out[3] = (m[5] - m[7]) / s;
    out[0] = 0.25 * s;
    out[1] = (m[3] + m[1]) / s;
    out[2] = (m[6] + m[2]) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    out[3] = (m[6] - m[2]) / s;
    out[0] = (m[3] + m[1]) / s;
    out[1] = 0.25 * s;
    out[2] = (m[7] + m[5]) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    out[3] = (m[1] - m[3]) / s;
    out[0] = (m[6] + m[2]) / s;
    out[1] = (m[7] + m[5]) / s;
    out[2] = 0.25 * s;
  }
  const len = Math.hypot(out[0], out[1], out[2], out[3]);
  if (!(len > 0) || !Number.isFinite(len)) {
    out[0] = out[1] = out[2] = 0;
    out[3] = 1;
    return out;
  }
  for (let k = 0; k < 4; k++) out[k] /= len;
  return out;
}
