/**
 * Compound shape: convex children at poses in the compound's frame. Not convex itself: collision
 * dispatch iterates the children (the dispatcher's job); this class combines AABBs and mass
 * properties (parallel-axis theorem).
 */
import type { Vec3 } from '../math/vec3';
import { quatRotate, quatRotateInverse } from '../math/quat';
import { mat3, mat3FromQuat, mat3RotateTensor, mat3AddPointInertia } from '../math/mat3';
import type { Aabb, CompoundChild, MassProperties } from './shape';
import { ShapeKind } from './shape';

/** A rigid set of convex child shapes, each at its own pose in the body frame. */
export class CompoundShape {
  readonly kind = ShapeKind.Compound;
  readonly children: readonly CompoundChild[];

  constructor(children: readonly CompoundChild[]) {
    if (children.length === 0) throw new RangeError('compound shape needs at least one child');
    this.children = children.map((c) => ({
      shape: c.shape,
      position: [c.position[0], c.position[1], c.position[2]],
      orientation: [c.orientation[0], c.orientation[1], c.orientation[2], c.orientation[3]],
    }));
  }

  /**
   * Tight local AABB: for each axis e_k the child's extent is its support along R_childᵀ·(±e_k),
   * so rotated children do not inflate the box the way rotating their local AABB would.
   */
  localAabb(out: Aabb): Aabb {
    for (let k = 0; k < 3; k++) {
      out.min[k] = Infinity;
      out.max[k] = -Infinity;
    }
    for (const c of this.children) {
      for (let k = 0; k < 3; k++) {
        for (let sgn = -1; sgn <= 1; sgn += 2) {
          axis[0] = axis[1] = axis[2] = 0;
          axis[k] = sgn;
          quatRotateInverse(dirLocal, c.orientation, axis);
          c.shape.support(p, dirLocal);
          quatRotate(p, c.orientation, p);
          const x = p[k] + c.position[k];
          if (sgn < 0) out.min[k] = Math.min(out.min[k], x);
          else out.max[k] = Math.max(out.max[k], x);
        }
      }
    }
    return out;
  }

  /**
   * Sum of the children (same density): centre of mass = mass-weighted mean; each child's tensor
   * is rotated into the compound frame (R I Rᵀ) and moved by Steiner's theorem to the common centre.
   */
  massProperties(out: MassProperties, density: number): MassProperties {
    let m = 0, vol = 0, cx = 0, cy = 0, cz = 0;
    for (const c of this.children) {
      c.shape.massProperties(child, density);
      quatRotate(p, c.orientation, child.centerOfMass);
      m += child.mass;
      vol += child.volume;
      cx += child.mass * (p[0] + c.position[0]);
      cy += child.mass * (p[1] + c.position[1]);
      cz += child.mass * (p[2] + c.position[2]);
    }
    out.mass = m;
    out.volume = vol;
    if (!(m > 0)) {
      out.centerOfMass[0] = out.centerOfMass[1] = out.centerOfMass[2] = 0;
      out.inertia.fill(0);
      return out;
    }
    cx /= m;
    cy /= m;
    cz /= m;
    out.centerOfMass[0] = cx;
    out.centerOfMass[1] = cy;
    out.centerOfMass[2] = cz;
    out.inertia.fill(0);
    for (const c of this.children) {
      c.shape.massProperties(child, density);
      mat3FromQuat(rot, c.orientation);
      mat3RotateTensor(tensor, rot, child.inertia);
      for (let i = 0; i < 9; i++) out.inertia[i] += tensor[i];
      quatRotate(p, c.orientation, child.centerOfMass);
      p[0] += c.position[0] - cx;
      p[1] += c.position[1] - cy;
      p[2] += c.position[2] - cz;
      mat3AddPointInertia(out.inertia, child.mass, p);
    }
    return out;
  }

  volume(): number {
    let v = 0;
    for (const c of this.children) v += c.shape.volume();
    return v;
  }
}

const axis: Vec3 = [0, 0, 0];
const dirLocal: Vec3 = [0, 0, 0];
const p: Vec3 = [0, 0, 0];
const rot = mat3();
const tensor = mat3();
const child: MassProperties = { mass: 0, volume: 0, centerOfMass: [0, 0, 0], inertia: new Float64Array(9) };
