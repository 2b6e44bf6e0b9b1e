/**
 * Box centred on the local origin with half extents (hx, hy, hz). Core = the box (coreRadius 0).
 *
 * Vertex numbering used by supportingFace (bit i of the index = sign of axis i, 1 = positive):
 *
 *          6 -------- 7          z
 *         /|         /|          |  y
 *        4 -------- 5 |          | /
 *        | 2 -------|-3          |/____ x
 *        |/         |/
 *        0 -------- 1
 */
import type { Vec3 } from '../math/vec3';
import { mat3Diagonal } from '../math/mat3';
import type { Aabb, ConvexShape, MassProperties } from './shape';
import { ShapeKind, SupportFace } from './shape';

/**
 * Faces as corner indices, CCW seen from outside, indexed by 2·axis + (positive ? 1 : 0).
 * Each row was checked with the right-hand rule: (v1−v0)×(v2−v1) points along the face normal.
 */
const BOX_FACES: readonly (readonly [number, number, number, number])[] = [
  [0, 4, 6, 2], // −x
  [1, 3, 7, 5], // +x
  [0, 1, 5, 4], // −y
  [2, 6, 7, 3], // +y
  [0, 2, 3, 1], // −z
  [4, 5, 7, 6], // +z
];

/** A box centred on the local origin, given by its half extents along the local axes. */
export class BoxShape implements ConvexShape {
  readonly kind = ShapeKind.Box;
  readonly coreRadius = 0;
  readonly halfExtents: Vec3;

  constructor(halfExtents: Readonly<Vec3>) {
    for (let i = 0; i < 3; i++) {
      const h = halfExtents[i];
      if (!(h > 0) || !Number.isFinite(h)) throw new RangeError(`box half extents must be > 0, got [${halfExtents.join(', ')}]`);
    }
    this.halfExtents = [halfExtents[0], halfExtents[1], halfExtents[2]];
  }

  support(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    const h = this.halfExtents;
    out[0] = dir[0] >= 0 ? h[0] : -h[0];
    out[1] = dir[1] >= 0 ? h[1] : -h[1];
    out[2] = dir[2] >= 0 ? h[2] : -h[2];
    return out;
  }

  supportCore(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    return this.support(out, dir);
  }

  /** Corner `i` (see the diagram). */
  corner(out: Vec3, i: number): Vec3 {
    const h = this.halfExtents;
    out[0] = i & 1 ? h[0] : -h[0];
    out[1] = i & 2 ? h[1] : -h[1];
    out[2] = i & 4 ? h[2] : -h[2];
    return out;
  }

  /** The face whose normal ±e_k has the largest |dir_k| (ties go to the lower axis). */
  supportingFace(out: SupportFace, dir: Readonly<Vec3>): SupportFace {
    out.clear();
    const ax = Math.abs(dir[0]), ay = Math.abs(dir[1]), az = Math.abs(dir[2]);
    const axis = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
    const face = BOX_FACES[2 * axis + (dir[axis] >= 0 ? 1 : 0)];
    const h = this.halfExtents;
    for (let k = 0; k < 4; k++) {
      const i = face[k];
      out.push(i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]);
    }
    return out;
  }

  localAabb(out: Aabb): Aabb {
    const h = this.halfExtents;
    for (let i = 0; i < 3; i++) {
      out.min[i] = -h[i];
      out.max[i] = h[i];
    }
    return out;
  }

  volume(): number {
    const h = this.halfExtents;
    return 8 * h[0] * h[1] * h[2];
  }

  /** Solid box: I_xx = m(b² + c²)/12 with full edge lengths b, c (and cyclic). */
  massProperties(out: MassProperties, density: number): MassProperties {
    const h = this.halfExtents;
    const v = this.volume();
    const m = v * density;
    const x2 = 4 * h[0] * h[0], y2 = 4 * h[1] * h[1], z2 = 4 * h[2] * h[2];
    out.mass = m;
    out.volume = v;
    out.centerOfMass[0] = 0;
    out.centerOfMass[1] = 0;
    out.centerOfMass[2] = 0;
    mat3Diagonal(out.inertia, (m * (y2 + z2)) / 12, (m * (x2 + z2)) / 12, (m * (x2 + y2)) / 12);
    return out;
  }
}
