/**
 * Plain shape descriptions: the stable scripting API (JSON-friendly, used by queryConvex and by
 * scenario files), and their conversion to engine shapes.
 *
 *   { type: 'sphere',   radius }
 *   { type: 'box',      halfExtents: [x, y, z] }
 *   { type: 'capsule',  radius, height }   height = distance between the two sphere centres
 *   { type: 'cylinder', radius, height }   height = full length
 *   { type: 'hull',     points: [[x, y, z], …] }
 * Axes of capsules and cylinders are along local z.
 */
import type { Vec3 } from '../math/vec3';
import type { ConvexShape } from './shape';
import { SphereShape } from './sphere';
import { BoxShape } from './box';
import { CapsuleShape } from './capsule';
import { CylinderShape } from './cylinder';
import { ConvexHullShape } from './convex-hull';
import { buildConvexHull, HULL_STATUS_NAMES, HullStatus } from './convex-hull-builder';
import type { HullBuildOptions } from './convex-hull-builder';

/**
 * A shape in plain form (scripting API, scenario files): sphere, box, capsule, cylinder or hull,
 * axes along local z.
 */
export type ShapeDesc =
  | { type: 'sphere'; radius: number }
  | { type: 'box'; halfExtents: [number, number, number] }
  | { type: 'capsule'; radius: number; height: number }
  | { type: 'cylinder'; radius: number; height: number }
  | { type: 'hull'; points: [number, number, number][] };

/** Thrown (only by this load-time API, never on a hot path) for an invalid description. */
export class ShapeDescError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShapeDescError';
  }
}

/** Builds the engine shape for a plain description; throws ShapeDescError with the reason. */
export function shapeFromDesc(desc: ShapeDesc, hullOptions?: HullBuildOptions): ConvexShape {
  try {
    switch (desc.type) {
      case 'sphere':
        return new SphereShape(desc.radius);
      case 'box':
        return new BoxShape(desc.halfExtents as Vec3);
      case 'capsule':
        return new CapsuleShape(desc.radius, desc.height);
      case 'cylinder':
        return new CylinderShape(desc.radius, desc.height);
      case 'hull': {
        const flat = new Float64Array(desc.points.length * 3);
        desc.points.forEach((p, i) => {
          flat[3 * i] = p[0];
          flat[3 * i + 1] = p[1];
          flat[3 * i + 2] = p[2];
        });
        const res = buildConvexHull(flat, hullOptions);
        if (res.status !== HullStatus.Ok || res.data === null) {
          throw new ShapeDescError(`hull: ${HULL_STATUS_NAMES[res.status]}: ${res.message}`);
        }
        return new ConvexHullShape(res.data);
      }
      default: {
        const never: never = desc;
        throw new ShapeDescError(`unknown shape type ${JSON.stringify((never as { type?: unknown }).type)}`);
      }
    }
  } catch (err) {
    if (err instanceof ShapeDescError) throw err;
    throw new ShapeDescError(err instanceof Error ? err.message : String(err));
  }
}
