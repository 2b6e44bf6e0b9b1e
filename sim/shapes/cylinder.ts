/**
 * Cylinder of radius `radius` and full length `height` along local z, centred on the origin.
 * Core = the cylinder itself (coreRadius 0): its support is exact (cap rim), so GJK converges on
 * it like on any smooth shape, within GJK_RELATIVE_TOLERANCE.
 */
import type { Vec3 } from '../math/vec3';
import { mat3Diagonal } from '../math/mat3';
import { CYLINDER_CAP_SEGMENTS } from '../constants';
import type { Aabb, ConvexShape, MassProperties } from './shape';
import { ShapeKind, SupportFace } from './shape';

/** A solid cylinder along local z (a wheel): radius and half height. */
export class CylinderShape implements ConvexShape {
  readonly kind = ShapeKind.Cylinder;
  readonly coreRadius = 0;
  readonly halfHeight: number;

  constructor(readonly radius: number, readonly height: number) {
    if (!(radius > 0) || !Number.isFinite(radius)) throw new RangeError(`cylinder radius must be > 0, got ${radius}`);
    if (!(height > 0) || !Number.isFinite(height)) throw new RangeError(`cylinder height must be > 0, got ${height}`);
    this.halfHeight = height / 2;
  }

  /** Rim point: ±h/2 by the sign of d_z, radial r·d_xy/‖d_xy‖ (the cap centre when d ∥ z). */
  support(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    const rxy = Math.sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
    if (rxy > 0) {
      const s = this.radius / rxy;
      out[0] = dir[0] * s;
      out[1] = dir[1] * s;
    } else {
      out[0] = 0;
      out[1] = 0;
    }
    // An if, not a ternary: a phi of the tagged field and the negated double would box the double.
    if (dir[2] >= 0) out[2] = this.halfHeight;
    else out[2] = -this.halfHeight;
    return out;
  }

  supportCore(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    return this.support(out, dir);
  }

  /**
   * Cap (regular CYLINDER_CAP_SEGMENTS-gon inscribed in the cap disc, one vertex on the radial
   * direction of dir so the deepest rim point is exact) when |d_z| ≥ ‖d_xy‖ (dir within 45° of
   * the axis), otherwise the side line through the rim support points of both caps.
   */
  supportingFace(out: SupportFace, dir: Readonly<Vec3>): SupportFace {
    out.clear();
    const rxy = Math.sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
    const r = this.radius, hz = this.halfHeight;
    let cx = 1, cy = 0;
    if (rxy > 0) {
      cx = dir[0] / rxy;
      cy = dir[1] / rxy;
    }
    if (Math.abs(dir[2]) >= rxy) {
      const top = dir[2] >= 0;
      const z = top ? hz : -hz;
      const step = (2 * Math.PI) / CYLINDER_CAP_SEGMENTS;
      for (let k = 0; k < CYLINDER_CAP_SEGMENTS; k++) {
        // CCW about +z for the top cap, CW (= CCW about −z) for the bottom one.
        const a = (top ? k : -k) * step;
        const c = Math.cos(a), s = Math.sin(a);
        out.push(r * (cx * c - cy * s), r * (cy * c + cx * s), z);
      }
      return out;
    }
    out.push(r * cx, r * cy, -hz);
    out.push(r * cx, r * cy, hz);
    return out;
  }

  localAabb(out: Aabb): Aabb {
    const r = this.radius, hz = this.halfHeight;
    out.min[0] = -r;
    out.min[1] = -r;
    out.min[2] = -hz;
    out.max[0] = r;
    out.max[1] = r;
    out.max[2] = hz;
    return out;
  }

  volume(): number {
    return Math.PI * this.radius * this.radius * this.height;
  }

  /** Solid cylinder: I_zz = m r²/2, I_xx = I_yy = m(3r² + h²)/12. */
  massProperties(out: MassProperties, density: number): MassProperties {
    const r = this.radius, h = this.height;
    const v = this.volume();
    const m = v * density;
    const iT = (m * (3 * r * r + h * h)) / 12;
    out.mass = m;
    out.volume = v;
    out.centerOfMass[0] = 0;
    out.centerOfMass[1] = 0;
    out.centerOfMass[2] = 0;
    mat3Diagonal(out.inertia, iT, iT, 0.5 * m * r * r);
    return out;
  }
}
