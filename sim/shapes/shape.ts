/**
 * Shape types shared by collision (GJK, EPA, casts, manifolds), broad phase and dynamics.
 *
 * Frames. Every shape lives in its own local frame; cylinders and capsules have their axis along
 * local +z and are centred on the origin. A body places a shape with a `Pose` (position + unit
 * quaternion `[x, y, z, w]`, the project convention).
 *
 * Engine form (this file's interfaces, classes in sibling files):
 *   sphere.ts      SphereShape(radius)                core = point,   coreRadius = radius
 *   box.ts         BoxShape(halfExtents)              core = itself,  coreRadius = 0
 *   capsule.ts     CapsuleShape(radius, height)       core = segment ±height/2 on z, coreRadius = radius
 *   cylinder.ts    CylinderShape(radius, height)      core = itself,  coreRadius = 0
 *   convex-hull.ts ConvexHullShape(ConvexHullData)    core = itself,  coreRadius = 0
 *   compound.ts    CompoundShape(children)            NOT convex: per-child dispatch is the caller's
 * Plain form (stable scripting API): shape-desc.ts, `{ type: 'sphere', radius }` etc.
 *
 * The core + radius split (Box2D's / Jolt's "convex radius"): a sphere is a point inflated by its
 * radius, a capsule a segment inflated by its radius. GJK runs on the cores, which are polytopes,
 * so it terminates exactly and penetrations shallower than the radii need no EPA at all.
 * `support` is the support of the full shape, `supportCore` that of the core; for shapes with
 * coreRadius 0 they are the same function.
 *
 * Support mapping contract: `support(out, d)` writes a point p of the shape with p·d = max over
 * the shape, in local coordinates. `d` need not be unit length; for d = 0 any point of the shape
 * is returned (never NaN).
 *
 * Supporting face contract (for the manifold engineer's face clipping): `supportingFace(out, d)`
 * writes the feature of the shape whose outward normal is most nearly parallel to d — a polygon
 * (box, hull, cylinder cap as a regular CYLINDER_CAP_SEGMENTS-gon), a segment (capsule side,
 * cylinder side line) or a single point (sphere, capsule end). Polygon vertices are ordered
 * counter-clockwise seen from OUTSIDE the shape (right-hand rule gives the outward normal):
 *
 *        v3 ----- v2
 *        |         |     outward normal points at the viewer
 *        v0 ----- v1
 *
 * Mass properties: `massProperties(out, density)` gives mass [kg], centre of mass [m] and the
 * inertia tensor [kg·m²] about the centre of mass in local axes, from exact formulas.
 */
import type { Vec3 } from '../math/vec3';
import type { Quat } from '../math/quat';
import type { Mat3 } from '../math/mat3';
import { SUPPORT_FACE_MAX_VERTICES } from '../constants';
import type { CompoundShape } from './compound';

/** Shape kind tag; a switch on it is how dispatchers pick a routine by shape pair. */
export const ShapeKind = {
  Sphere: 0,
  Box: 1,
  Capsule: 2,
  Cylinder: 3,
  ConvexHull: 4,
  Compound: 5,
} as const;
export type ShapeKind = (typeof ShapeKind)[keyof typeof ShapeKind];

/** Names of the `ShapeKind` values, by value. */
export const SHAPE_KIND_NAMES: readonly string[] = ['sphere', 'box', 'capsule', 'cylinder', 'hull', 'compound'];

/** Rigid placement of a shape: x_world = position + orientation · x_local. */
export interface Pose {
  position: Vec3;
  orientation: Quat;
}

/** Axis-aligned bounding box [m]. */
export interface Aabb {
  min: Vec3;
  max: Vec3;
}

/** A new, zeroed axis-aligned box (allocates). */
export function aabb(): Aabb {
  return { min: [0, 0, 0], max: [0, 0, 0] };
}

/** Mass [kg], volume [m³], centre of mass [m] (local), inertia about the centre of mass [kg·m²] (local axes, column-major). */
export interface MassProperties {
  mass: number;
  volume: number;
  centerOfMass: Vec3;
  inertia: Mat3;
}

/** A new, zeroed mass-properties record (allocates). */
export function massProperties(): MassProperties {
  return { mass: 0, volume: 0, centerOfMass: [0, 0, 0], inertia: new Float64Array(9) };
}

/**
 * Fixed-capacity supporting feature: `count` points (1 = vertex, 2 = edge, ≥ 3 = polygon, CCW
 * seen from outside) in `points` (xyz interleaved), in the shape's local frame. `truncated` is
 * set when a hull face had more than SUPPORT_FACE_MAX_VERTICES vertices (the first ones are kept).
 */
export class SupportFace {
  count = 0;
  truncated = false;
  readonly points = new Float64Array(SUPPORT_FACE_MAX_VERTICES * 3);

  clear(): this {
    this.count = 0;
    this.truncated = false;
    return this;
  }

  /** Appends a point; returns false (and sets `truncated`) when full. */
  push(x: number, y: number, z: number): boolean {
    if (this.count >= SUPPORT_FACE_MAX_VERTICES) {
      this.truncated = true;
      return false;
    }
    const i = this.count * 3;
    this.points[i] = x;
    this.points[i + 1] = y;
    this.points[i + 2] = z;
    this.count++;
    return true;
  }
}

/** A convex shape: everything GJK, EPA and the casts need. */
export interface ConvexShape {
  readonly kind: ShapeKind;
  /** [m] Radius by which the core is inflated to give the shape (0 for box, cylinder, hull). */
  readonly coreRadius: number;
  /** Support point of the full shape in local coordinates (see contract above). */
  support(out: Vec3, dir: Readonly<Vec3>): Vec3;
  /** Support point of the core (point / segment / the shape itself). */
  supportCore(out: Vec3, dir: Readonly<Vec3>): Vec3;
  /** Feature most aligned with `dir` (see contract above). */
  supportingFace(out: SupportFace, dir: Readonly<Vec3>): SupportFace;
  /** Local-frame bounding box. */
  localAabb(out: Aabb): Aabb;
  /** Exact mass properties for a uniform density [kg/m³]. */
  massProperties(out: MassProperties, density: number): MassProperties;
  /** [m³] */
  volume(): number;
}

/** A compound child: a convex shape at a pose in the compound's frame. */
export interface CompoundChild {
  shape: ConvexShape;
  position: Vec3;
  orientation: Quat;
}

/** Any shape a body can carry. */
export type Shape = ConvexShape | CompoundShape;
