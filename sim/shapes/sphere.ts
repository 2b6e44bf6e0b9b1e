/**
 * Sphere of radius r centred on the local origin. Core: the origin (a point), coreRadius = r, so
 * GJK sees a point and adds the radius afterwards (exact, no curved-surface iterations).
 */
import type { Vec3 } from '../math/vec3';
import { mat3Diagonal } from '../math/mat3';
import type { Aabb, ConvexShape, MassProperties } from './shape';
import { ShapeKind, SupportFace } from './shape';

/** A sphere about the local origin (a point core with a radius). */
export class SphereShape implements ConvexShape {
  readonly kind = ShapeKind.Sphere;
  readonly coreRadius: number;

  constructor(readonly radius: number) {
    if (!(radius > 0) || !Number.isFinite(radius)) throw new RangeError(`sphere radius must be > 0, got ${radius}`);
    this.coreRadius = radius;
  }

  support(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    const len = Math.sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(len > 0)) {
      out[0] = this.radius;
      out[1] = 0;
      out[2] = 0;
      return out;
    }
    const s = this.radius / len;
    out[0] = dir[0] * s;
    out[1] = dir[1] * s;
    out[2] = dir[2] * s;
    return out;
  }

  supportCore(out: Vec3, _dir: Readonly<Vec3>): Vec3 {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    return out;
  }

  /** A sphere's supporting feature is always a single point. */
  supportingFace(out: SupportFace, dir: Readonly<Vec3>): SupportFace {
    out.clear();
    const p: Vec3 = scratch;
    this.support(p, dir);
    out.push(p[0], p[1], p[2]);
    return out;
  }

  localAabb(out: Aabb): Aabb {
    const r = this.radius;
    out.min[0] = -r;
    out.min[1] = -r;
    out.min[2] = -r;
    out.max[0] = r;
    out.max[1] = r;
    out.max[2] = r;
    return out;
  }

  volume(): number {
    return (4 / 3) * Math.PI * this.radius ** 3;
  }

  /** Solid sphere: I = (2/5)·m·r² about every axis. */
  massProperties(out: MassProperties, density: number): MassProperties {
    const v = this.volume();
    const m = v * density;
    const i = 0.4 * m * this.radius * this.radius;
    out.mass = m;
    out.volume = v;
    out.centerOfMass[0] = 0;
    out.centerOfMass[1] = 0;
    out.centerOfMass[2] = 0;
    mat3Diagonal(out.inertia, i, i, i);
    return out;
  }
}

const scratch: Vec3 = [0, 0, 0];
