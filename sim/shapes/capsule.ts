/**
 * Capsule: the segment from (0,0,−height/2) to (0,0,+height/2) inflated by `radius`. `height`
 * is the distance between the two sphere centres (the plain-description convention), so
 * the total length is height + 2·radius. Core = the segment, coreRadius = radius.
 */
import type { Vec3 } from '../math/vec3';
import { mat3Diagonal } from '../math/mat3';
import { UNIT_EPSILON } from '../constants';
import type { Aabb, ConvexShape, MassProperties } from './shape';
import { ShapeKind, SupportFace } from './shape';

/** A capsule along local z: a segment core of length `2·halfHeight` with a radius. */
export class CapsuleShape implements ConvexShape {
  readonly kind = ShapeKind.Capsule;
  readonly coreRadius: number;
  readonly halfHeight: number;

  constructor(readonly radius: number, readonly height: number) {
    if (!(radius > 0) || !Number.isFinite(radius)) throw new RangeError(`capsule radius must be > 0, got ${radius}`);
    if (!(height >= 0) || !Number.isFinite(height)) throw new RangeError(`capsule height must be >= 0, got ${height}`);
    this.coreRadius = radius;
    this.halfHeight = height / 2;
  }

  support(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    const len = Math.sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    const z = dir[2] >= 0 ? this.halfHeight : -this.halfHeight;
    if (!(len > 0)) {
      out[0] = this.radius;
      out[1] = 0;
      out[2] = z;
      return out;
    }
    const s = this.radius / len;
    out[0] = dir[0] * s;
    out[1] = dir[1] * s;
    out[2] = z + dir[2] * s;
    return out;
  }

  supportCore(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    out[0] = 0;
    out[1] = 0;
    out[2] = dir[2] >= 0 ? this.halfHeight : -this.halfHeight;
    return out;
  }

  /**
   * Side line (2 points, the core segment pushed out by the radius along dir's radial part) when
   * dir is perpendicular to the axis within UNIT_EPSILON·‖dir‖ — the only directions in which a
   * capsule's supporting set is a segment — otherwise the single support point.
   */
  supportingFace(out: SupportFace, dir: Readonly<Vec3>): SupportFace {
    out.clear();
    const rxy = Math.sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
    const len = Math.sqrt(rxy * rxy + dir[2] * dir[2]);
    if (rxy > 0 && Math.abs(dir[2]) <= UNIT_EPSILON * len) {
      const s = this.radius / rxy;
      const x = dir[0] * s, y = dir[1] * s;
      out.push(x, y, -this.halfHeight);
      out.push(x, y, this.halfHeight);
      return out;
    }
    const p = this.support(scratch, dir);
    out.push(p[0], p[1], p[2]);
    return out;
  }

  localAabb(out: Aabb): Aabb {
    const r = this.radius, hz = this.halfHeight + r;
    out.min[0] = -r;
    out.min[1] = -r;
    out.min[2] = -hz;
    out.max[0] = r;
    out.max[1] = r;
    out.max[2] = hz;
    return out;
  }

  volume(): number {
    const r = this.radius;
    return Math.PI * r * r * (this.height + (4 / 3) * r);
  }

  /**
   * Cylinder (mass m_c) plus two hemispheres (together m_s). Each hemisphere has its centroid 3r/8
   * from its flat face; about a transverse axis through that face it has (2/5)·m_h·r², so by
   * Steiner about the capsule centre: m_h·(2r²/5 + h²/4 + 3hr/8). Axial: (1/2)m_c r² + (2/5)m_s r².
   */
  massProperties(out: MassProperties, density: number): MassProperties {
    const r = this.radius, h = this.height;
    const mc = density * Math.PI * r * r * h;
    const ms = density * (4 / 3) * Math.PI * r * r * r;
    const iAxial = 0.5 * mc * r * r + 0.4 * ms * r * r;
    const iTrans = (mc * (3 * r * r + h * h)) / 12 + ms * (0.4 * r * r + (h * h) / 4 + (3 * h * r) / 8);
    out.mass = mc + ms;
    out.volume = this.volume();
    out.centerOfMass[0] = 0;
    out.centerOfMass[1] = 0;
    out.centerOfMass[2] = 0;
    mat3Diagonal(out.inertia, iTrans, iTrans, iAxial);
    return out;
  }
}

const scratch: Vec3 = [0, 0, 0];
