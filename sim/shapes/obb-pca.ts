/**
 * Oriented bounding box by principal component analysis (Huotari 2011 ch. 3; Gottschalk, Lin &
 * Manocha, "OBBTree", SIGGRAPH 1996 §4; Ericson §4.4.3).
 *
 * The box axes are the eigenvectors of a covariance matrix, the extents the min/max projections
 * of the points on them. Two covariances:
 *  - obbFromPoints: of the points themselves (what the thesis does). Cheap, but biased toward
 *    wherever a mesh happens to have many vertices.
 *  - obbFromHull: of the hull SURFACE, area-weighted per triangle (OBBTree eq. for a triangle
 *    p, q, r with area A and centroid m: A/12 · (9 m mᵀ + p pᵀ + q qᵀ + r rᵀ)), independent
 *    of how densely the surface was sampled — the better box for meshes.
 * Eigenvectors by Jacobi (mat3SymmetricEigen), which stays stable when eigenvalues repeat (a
 * cube or a sphere: any axes are then correct).
 */
import type { Vec3 } from '../math/vec3';
import type { Quat } from '../math/quat';
import type { Mat3 } from '../math/mat3';
import { mat3SymmetricEigen, mat3ToQuat } from '../math/mat3';
import type { ConvexHullShape } from './convex-hull';

/** An oriented bounding box: centre, orientation (axes) and half extents. */
export interface Obb {
  /** World (input-frame) centre [m]. */
  center: Vec3;
  /** Rotation of the box frame; its columns are `axes`. */
  orientation: Quat;
  /** Column-major 3×3, columns = unit box axes (descending covariance eigenvalue), det = +1. */
  axes: Mat3;
  /** [m] */
  halfExtents: Vec3;
}

/** A new, zeroed oriented box (allocates). */
export function obb(): Obb {
  return { center: [0, 0, 0], orientation: [0, 0, 0, 1], axes: new Float64Array(9), halfExtents: [0, 0, 0] };
}

const cov = new Float64Array(9);
const eig: Vec3 = [0, 0, 0];

/** OBB from the covariance of the points (xyz interleaved). Returns false for no / non-finite points. */
export function obbFromPoints(out: Obb, points: ArrayLike<number>): boolean {
  const n = Math.floor(points.length / 3);
  if (n === 0) return false;
  let mx = 0, my = 0, mz = 0;
  for (let i = 0; i < n; i++) {
    mx += points[3 * i];
    my += points[3 * i + 1];
    mz += points[3 * i + 2];
  }
  mx /= n;
  my /= n;
  mz /= n;
  cov.fill(0);
  for (let i = 0; i < n; i++) {
    const x = points[3 * i] - mx, y = points[3 * i + 1] - my, z = points[3 * i + 2] - mz;
    accumulate(x, y, z, 1 / n);
  }
  return finishObb(out, points, n);
}

/** OBB from the area-weighted covariance of a hull's surface (faces fanned into triangles). */
export function obbFromHull(out: Obb, hull: ConvexHullShape): boolean {
  const v = hull.vertices;
  let area = 0, mx = 0, my = 0, mz = 0;
  let sxx = 0, syy = 0, szz = 0, sxy = 0, sxz = 0, syz = 0;
  for (let f = 0; f < hull.faceCount; f++) {
    const s0 = hull.faceStart[f], s1 = hull.faceStart[f + 1];
    const a = hull.faceVertices[s0] * 3;
    for (let k = s0 + 1; k + 1 < s1; k++) {
      const b = hull.faceVertices[k] * 3, c = hull.faceVertices[k + 1] * 3;
      const ux = v[b] - v[a], uy = v[b + 1] - v[a + 1], uz = v[b + 2] - v[a + 2];
      const wx = v[c] - v[a], wy = v[c + 1] - v[a + 1], wz = v[c + 2] - v[a + 2];
      const cx = uy * wz - uz * wy, cy = uz * wx - ux * wz, cz = ux * wy - uy * wx;
      const A = 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
      const gx = (v[a] + v[b] + v[c]) / 3, gy = (v[a + 1] + v[b + 1] + v[c + 1]) / 3, gz = (v[a + 2] + v[b + 2] + v[c + 2]) / 3;
      area += A;
      mx += A * gx;
      my += A * gy;
      mz += A * gz;
      const w = A / 12;
      sxx += w * (9 * gx * gx + v[a] * v[a] + v[b] * v[b] + v[c] * v[c]);
      syy += w * (9 * gy * gy + v[a + 1] * v[a + 1] + v[b + 1] * v[b + 1] + v[c + 1] * v[c + 1]);
      szz += w * (9 * gz * gz + v[a + 2] * v[a + 2] + v[b + 2] * v[b + 2] + v[c + 2] * v[c + 2]);
      sxy += w * (9 * gx * gy + v[a] * v[a + 1] + v[b] * v[b + 1] + v[c] * v[c + 1]);
      sxz += w * (9 * gx * gz + v[a] * v[a + 2] + v[b] * v[b + 2] + v[c] * v[c + 2]);
      syz += w * (9 * gy * gz + v[a + 1] * v[a + 2] + v[b + 1] * v[b + 2] + v[c + 1] * v[c + 2]);
    }
  }
  if (!(area > 0)) return obbFromPoints(out, v);
  mx /= area;
  my /= area;
  mz /= area;
  cov[0] = sxx / area - mx * mx;
  cov[4] = syy / area - my * my;
  cov[8] = szz / area - mz * mz;
  cov[1] = cov[3] = sxy / area - mx * my;
  cov[2] = cov[6] = sxz / area - mx * mz;
  cov[5] = cov[7] = syz / area - my * mz;
  return finishObb(out, v, hull.vertexCount);
}

function accumulate(x: number, y: number, z: number, w: number): void {
  cov[0] += w * x * x;
  cov[4] += w * y * y;
  cov[8] += w * z * z;
  const xy = w * x * y, xz = w * x * z, yz = w * y * z;
  cov[1] += xy;
  cov[3] += xy;
  cov[2] += xz;
  cov[6] += xz;
  cov[5] += yz;
  cov[7] += yz;
}

/** Axes from `cov`, extents from projecting the points. */
function finishObb(out: Obb, points: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < 9; i++) if (!Number.isFinite(cov[i])) return false;
  mat3SymmetricEigen(eig, out.axes, cov);
  const R = out.axes;
  let lo0 = Infinity, lo1 = Infinity, lo2 = Infinity, hi0 = -Infinity, hi1 = -Infinity, hi2 = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = points[3 * i], y = points[3 * i + 1], z = points[3 * i + 2];
    const p0 = R[0] * x + R[1] * y + R[2] * z;
    const p1 = R[3] * x + R[4] * y + R[5] * z;
    const p2 = R[6] * x + R[7] * y + R[8] * z;
    if (p0 < lo0) lo0 = p0;
    if (p0 > hi0) hi0 = p0;
    if (p1 < lo1) lo1 = p1;
    if (p1 > hi1) hi1 = p1;
    if (p2 < lo2) lo2 = p2;
    if (p2 > hi2) hi2 = p2;
  }
  const c0 = (lo0 + hi0) / 2, c1 = (lo1 + hi1) / 2, c2 = (lo2 + hi2) / 2;
  out.center[0] = R[0] * c0 + R[3] * c1 + R[6] * c2;
  out.center[1] = R[1] * c0 + R[4] * c1 + R[7] * c2;
  out.center[2] = R[2] * c0 + R[5] * c1 + R[8] * c2;
  out.halfExtents[0] = (hi0 - lo0) / 2;
  out.halfExtents[1] = (hi1 - lo1) / 2;
  out.halfExtents[2] = (hi2 - lo2) / 2;
  mat3ToQuat(out.orientation, R);
  return true;
}
