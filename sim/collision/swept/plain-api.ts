/**
 * The plain (scripting) forms of the swept queries, kept stable for users' scripts and external
 * checks. They allocate their results; engines use the `(out, …)` forms (timeOfImpact,
 * linearCast, castSphereHeightfield, castConvexHeightfield, castWheelHeightfield).
 *
 *   castShape(a, motion, b, ws?)
 *     a, b as in queryConvex: { shape, position: [x, y, z], orientation: [x, y, z, w] }; a moves by
 *     motion = [dx, dy, dz] over the query without rotating, b stays.
 *     → { hit: false } when the path is clear, else
 *       { hit: true, toi, point, normal }: toi ∈ [0, 1] the fraction of the motion at first
 *       contact (0 when they already touch or overlap), point on b's surface at that time,
 *       normal unit from a to b (queryConvex's convention). ws: an optional TimeOfImpactWorkspace
 *       to reuse across calls (one is made per call otherwise).
 *   castShapeTerrain(a, motion, heightfield)
 *     → { hit: false } or { hit: true, toi, point, normal, cell: [i, j], element } with point on
 *       the terrain, normal out of the terrain (toward a), element 'rectangle' |
 *       'lower-triangle' | 'upper-triangle' (the paper's classification of the cell). A cylinder
 *       (a wheel) also gets `contacts`: the wheel–terrain manifold at toi, as collideCylinderTerrain
 *       returns it (depths at the toi pose, ≈ 0). A sphere is cast analytically (its orientation
 *       is irrelevant); other shapes by GJK against the element prisms.
 *
 * Invalid input throws an Error naming the field (ShapeDescError for the shape, RangeError for
 * poses and the motion, TypeError for a heightfield that is not one).
 */
import { WHEEL_CONTACT_KIND_NAMES, ContactBuffer } from '../contact';
import type { CylinderTerrainContact, CylinderTerrainContactKind } from '../cylinder-terrain/plain-api';
import { CastResult, CastStatus } from '../gjk-raycast';
import type { ConvexBodyDesc } from '../query-convex';
import { ConvexCastWorkspace, castConvexHeightfield } from '../heightfield-cast/convex-cast';
import { SphereCastWorkspace, castSphereHeightfield } from '../heightfield-cast/sphere-cast';
import { TerrainCastResult } from '../heightfield-cast/terrain-cast-result';
import { WheelCastWorkspace, castWheelHeightfield } from '../heightfield-cast/wheel-cast';
import type { Quat } from '../../math/quat';
import { quatRotate } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CylinderShape } from '../../shapes/cylinder';
import type { SphereShape } from '../../shapes/sphere';
import type { Pose } from '../../shapes/shape';
import { ShapeKind } from '../../shapes/shape';
import { shapeFromDesc } from '../../shapes/shape-desc';
import { ElementKind, Heightfield } from '../../terrain/heightfield';
import { TimeOfImpactWorkspace, linearCast } from './time-of-impact';

/** The terrain element a cast hit: the cell's rectangle or one of its two triangles. */
export type CastElementName = 'rectangle' | 'lower-triangle' | 'upper-triangle';
const ELEMENT_NAMES: readonly CastElementName[] = ['rectangle', 'lower-triangle', 'upper-triangle'];

/** A cast whose path is clear. */
export interface CastMiss {
  hit: false;
  toi?: undefined;
  point?: undefined;
  normal?: undefined;
}

/** A cast that hits: the fraction of the motion at first contact, the point and the normal. */
export interface CastHit {
  hit: true;
  /** Fraction of the motion at first contact, in [0, 1]. */
  toi: number;
  /** [m] Contact point at toi: on b's surface (castShape) or on the terrain (castShapeTerrain). */
  point: [number, number, number];
  /** Unit normal: a → b (castShape), out of the terrain (castShapeTerrain). */
  normal: [number, number, number];
}

/** What `castShape` returns. */
export type ShapeCastResult = CastHit | CastMiss;

/**
 * A terrain cast that hits: as `CastHit`, plus the cell and element hit and, for cylinders, the
 * wheel manifold at the time of impact.
 */
export interface TerrainCastHit extends CastHit {
  /** [i, j] of the terrain cell hit first. */
  cell: [number, number];
  element: CastElementName;
  /** Cylinders only: the wheel–terrain manifold at toi (collideCylinderTerrain's form). */
  contacts?: CylinderTerrainContact[];
}

/** What `castShapeTerrain` returns. */
export type ShapeTerrainCastResult = TerrainCastHit | CastMiss;

function readPose(fn: string, body: ConvexBodyDesc, name: string): Pose {
  if (body === null || typeof body !== 'object') throw new RangeError(`${fn}: ${name} must be { shape, position, orientation }`);
  const p = body.position, q = body.orientation;
  if (!Array.isArray(p) || p.length !== 3 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new RangeError(`${fn}: ${name}.position must be [x, y, z] of finite numbers, got ${JSON.stringify(p)}`);
  }
  if (!Array.isArray(q) || q.length !== 4 || !q.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new RangeError(`${fn}: ${name}.orientation must be [x, y, z, w] of finite numbers, got ${JSON.stringify(q)}`);
  }
  const len = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(len > 0)) throw new RangeError(`${fn}: ${name}.orientation is the zero quaternion`);
  return { position: [p[0], p[1], p[2]], orientation: [q[0] / len, q[1] / len, q[2] / len, q[3] / len] as Quat };
}

function readMotion(fn: string, m: unknown): Vec3 {
  if (!Array.isArray(m) || m.length !== 3 || !m.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new RangeError(`${fn}: motion must be [dx, dy, dz] of finite numbers (m), got ${JSON.stringify(m)}`);
  }
  return [m[0], m[1], m[2]];
}

function readShape(fn: string, body: ConvexBodyDesc, name: string): ReturnType<typeof shapeFromDesc> {
  if (body.shape === null || typeof body.shape !== 'object') throw new RangeError(`${fn}: ${name}.shape must be a shape description { type, … }`);
  return shapeFromDesc(body.shape);
}

const vec = (v: Readonly<Vec3>): [number, number, number] => [v[0], v[1], v[2]];

/**
 * Linear cast of a against b (see the file header). Throws on invalid input. `ws`: the cast's
 * scratch, made for this call when omitted (a script casting in a loop may pass one and reuse it).
 */
export function castShape(
  a: ConvexBodyDesc, motion: readonly number[], b: ConvexBodyDesc, ws: TimeOfImpactWorkspace = new TimeOfImpactWorkspace(),
): ShapeCastResult {
  const poseA = readPose('castShape', a, 'a');
  const poseB = readPose('castShape', b, 'b');
  const m = readMotion('castShape', motion);
  const shapeA = readShape('castShape', a, 'a');
  const shapeB = readShape('castShape', b, 'b');
  const r = linearCast(new CastResult(), shapeA, poseA, m, shapeB, poseB, [0, 0, 0], ws);
  if (r.status === CastStatus.Miss || r.status === CastStatus.Degenerate) return { hit: false };
  return { hit: true, toi: r.status === CastStatus.InitiallyOverlapping ? 0 : r.fraction, point: vec(r.pointB), normal: vec(r.normal) };
}

/** Most wheel contacts the plain cast returns (as the plain wheel–terrain query). */
const PLAIN_WHEEL_CONTACT_CAPACITY = 256;

/** Cast of a against the terrain (see the file header). Throws on invalid input. */
export function castShapeTerrain(a: ConvexBodyDesc, motion: readonly number[], heightfield: Heightfield): ShapeTerrainCastResult {
  const pose = readPose('castShapeTerrain', a, 'a');
  const m = readMotion('castShapeTerrain', motion);
  const shape = readShape('castShapeTerrain', a, 'a');
  if (!(heightfield instanceof Heightfield)) {
    throw new TypeError('castShapeTerrain: heightfield must be a Heightfield (Heightfield.fromArray({ cols, rows, dx, dy, x0, y0, heights }))');
  }
  const r = new TerrainCastResult();
  let contacts: CylinderTerrainContact[] | undefined;
  if (shape.kind === ShapeKind.Sphere) {
    castSphereHeightfield(r, heightfield, pose.position, m, shape as SphereShape, new SphereCastWorkspace());
  } else if (shape.kind === ShapeKind.Cylinder) {
    const axis: Vec3 = quatRotate([0, 0, 0], pose.orientation, [0, 0, 1]);
    const l = Math.hypot(axis[0], axis[1], axis[2]);
    axis[0] /= l;
    axis[1] /= l;
    axis[2] /= l;
    // This call's own wheel workspace and contacts (the plain form allocates; engines own theirs).
    const wheelWorkspace = new WheelCastWorkspace();
    const wheelContacts = new ContactBuffer(PLAIN_WHEEL_CONTACT_CAPACITY);
    castWheelHeightfield(r, wheelContacts, heightfield, pose.position, axis, shape as CylinderShape, m, wheelWorkspace);
    if (r.touched) {
      const o = wheelContacts;
      contacts = [];
      for (let k = 0; k < o.count; k++) {
        contacts.push({
          point: [o.point[3 * k], o.point[3 * k + 1], o.point[3 * k + 2]],
          normal: [o.normal[3 * k], o.normal[3 * k + 1], o.normal[3 * k + 2]],
          depth: o.depth[k],
          kind: WHEEL_CONTACT_KIND_NAMES[o.kind[k]] as CylinderTerrainContactKind,
          cell: [o.cellI[k], o.cellJ[k]],
        });
      }
    }
  } else {
    castConvexHeightfield(r, heightfield, shape, pose, m, new ConvexCastWorkspace());
  }
  if (!r.touched) return { hit: false };
  const hit: TerrainCastHit = {
    hit: true,
    toi: r.toi,
    point: vec(r.point),
    normal: vec(r.normal),
    cell: [r.cellI, r.cellJ],
    element: ELEMENT_NAMES[r.element] ?? ELEMENT_NAMES[ElementKind.Rectangle],
  };
  if (contacts !== undefined) hit.contacts = contacts;
  return hit;
}
