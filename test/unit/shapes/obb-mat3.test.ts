import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import { quatFromAxisAngle, quatRotate, quatRotateInverse } from '../../../sim/math/quat';
import type { Quat } from '../../../sim/math/quat';
import { mat3, mat3Determinant, mat3FromQuat, mat3Invert, mat3Multiply, mat3SymmetricEigen, mat3ToQuat, mat3RotateTensor, mat3Diagonal } from '../../../sim/math/mat3';
import { obb, obbFromHull, obbFromPoints } from '../../../sim/shapes/obb-pca';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';
import type { ConvexHullData } from '../../../sim/shapes/convex-hull';

describe('mat3', () => {
  it('Jacobi eigen-decomposition recovers a rotated diagonal tensor (values descending, det +1)', () => {
    const q = quatFromAxisAngle([0, 0, 0, 1], [1 / Math.sqrt(14), 2 / Math.sqrt(14), 3 / Math.sqrt(14)], 0.7);
    const R = mat3FromQuat(mat3(), q);
    const A = mat3RotateTensor(mat3(), R, mat3Diagonal(mat3(), 1, 5, 3));
    const vals: Vec3 = [0, 0, 0];
    const V = mat3();
    mat3SymmetricEigen(vals, V, A);
    expect(vals[0]).toBeCloseTo(5, 12);
    expect(vals[1]).toBeCloseTo(3, 12);
    expect(vals[2]).toBeCloseTo(1, 12);
    expect(mat3Determinant(V)).toBeCloseTo(1, 12);
    // A v = λ v for each column
    for (let c = 0; c < 3; c++) {
      for (let r = 0; r < 3; r++) {
        const av = A[r] * V[c * 3] + A[3 + r] * V[c * 3 + 1] + A[6 + r] * V[c * 3 + 2];
        expect(av).toBeCloseTo(vals[c] * V[c * 3 + r], 12);
      }
    }
  });

  it('repeated eigenvalues (a cube) still give an orthonormal basis', () => {
    const vals: Vec3 = [0, 0, 0];
    const V = mat3();
    mat3SymmetricEigen(vals, V, mat3Diagonal(mat3(), 2, 2, 2));
    expect(vals).toEqual([2, 2, 2]);
    expect(mat3Determinant(V)).toBeCloseTo(1, 15);
  });

  it('invert, quaternion round trip; a singular matrix reports false without NaN', () => {
    const q: Quat = quatFromAxisAngle([0, 0, 0, 1], [0, 0.6, 0.8], 2.5);
    const R = mat3FromQuat(mat3(), q);
    const qq = mat3ToQuat([0, 0, 0, 1], R);
    const sign = Math.sign(qq[3] * q[3] + qq[0] * q[0]);
    for (let k = 0; k < 4; k++) expect(qq[k] * sign).toBeCloseTo(q[k], 12);
    const inv = mat3();
    expect(mat3Invert(inv, R)).toBe(true);
    const I = mat3Multiply(mat3(), R, inv);
    for (let i = 0; i < 9; i++) expect(I[i]).toBeCloseTo(i % 4 === 0 ? 1 : 0, 12);
    expect(mat3Invert(inv, mat3())).toBe(false);
    expect(Array.from(inv).every((x) => x === 0)).toBe(true);
  });
});

describe('OBB by PCA', () => {
  it('recovers a rotated, offset box from its hull surface (exact extents) and contains all points', () => {
    const q = quatFromAxisAngle([0, 0, 0, 1], [0.6, 0, 0.8], 0.6);
    const rng = new Rng(4);
    const pts: number[] = [];
    const h = [2, 1, 0.25];
    // many samples on one face only: the point covariance is biased, the surface one is not
    for (let i = 0; i < 8; i++) {
      const p = quatRotate([0, 0, 0], q, [i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]]);
      pts.push(p[0] + 5, p[1], p[2] - 1);
    }
    for (let i = 0; i < 300; i++) {
      const p = quatRotate([0, 0, 0], q, [rng.range(-h[0], h[0]), h[1], rng.range(-h[2], h[2])]);
      pts.push(p[0] + 5, p[1], p[2] - 1);
    }
    const hull = new ConvexHullShape(buildConvexHull(pts).data as ConvexHullData);
    const o = obb();
    expect(obbFromHull(o, hull)).toBe(true);
    expect(o.halfExtents[0]).toBeCloseTo(2, 9);
    expect(o.halfExtents[1]).toBeCloseTo(1, 9);
    expect(o.halfExtents[2]).toBeCloseTo(0.25, 9);
    expect(o.center[0]).toBeCloseTo(5, 9);
    expect(o.center[2]).toBeCloseTo(-1, 9);
    // all input points inside the box
    for (let i = 0; i < pts.length / 3; i++) {
      const l = quatRotateInverse([0, 0, 0], o.orientation, [pts[3 * i] - o.center[0], pts[3 * i + 1] - o.center[1], pts[3 * i + 2] - o.center[2]]);
      for (let k = 0; k < 3; k++) expect(Math.abs(l[k])).toBeLessThanOrEqual(o.halfExtents[k] + 1e-9);
    }
    // The point-covariance box also bounds the points (possibly looser).
    const p = obb();
    expect(obbFromPoints(p, pts)).toBe(true);
    expect(p.halfExtents[0] * p.halfExtents[1] * p.halfExtents[2]).toBeGreaterThanOrEqual(o.halfExtents[0] * o.halfExtents[1] * o.halfExtents[2] - 1e-9);
    expect(obbFromPoints(p, [])).toBe(false);
  });
});
