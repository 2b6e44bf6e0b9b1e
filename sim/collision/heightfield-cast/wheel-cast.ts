/**
 * Wheel cast: the first time of impact of a translating cylinder (a wheel) with the terrain, and
 * the wheel's contacts at that time, classified by the paper's algorithm (flat patch, base A,
 * side B, point C, edge pass: cylinder-terrain/collide.ts).
 *
 *   1. toi: the convex cast (convex-cast.ts): the grid walk along the path, per visited element
 *      a GJK shape cast of the exact cylinder (CylinderShape's support, no rounding) against the
 *      element's prism. GJK's ray point only advances to support planes that separate it from
 *      the Minkowski difference, so the toi is conservative: the wheel never overlaps the
 *      terrain before it (within GJK_CAST_TOLERANCE of touching at it).
 *   2. contacts: at exact touch every depth is 0, and the analytic query reports depth > 0 only,
 *      so the wheel is placed at its toi pose pushed WHEEL_CAST_CONTACT_PROBE along −normal
 *      (into the terrain) and collideCylinderTerrainInto gives the manifold there; each depth is
 *      reported minus the probe (clamped at 0), i.e. the depth at the toi pose.
 *
 * A wheel spinning about its axle is the same cylinder at every instant, so spin needs no
 * rotation in the cast; the axis (steering, suspension travel) is held fixed over the step.
 *
 * API (engine form, allocation-free)
 *   castWheelHeightfield(out: TerrainCastResult, contacts: ContactBuffer, hf, center, axisUnit,
 *                        cylinder: CylinderShape, motion, ws: WheelCastWorkspace): number
 *   Returns the CylinderTerrainStatus bits of the contact query (0 when there was no hit).
 *   `contacts` receives the manifold (engine contact convention: point on the terrain, normal out
 *   of it, depth ≥ 0, kind = WheelContactKind, cell); `out` the toi, the first touching point,
 *   its normal and element.
 */
import { CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE, UNIT_EPSILON, WHEEL_CAST_CONTACT_PROBE } from '../../constants';
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { CylinderShape } from '../../shapes/cylinder';
import type { Pose } from '../../shapes/shape';
import type { Heightfield } from '../../terrain/heightfield';
import type { ContactBuffer } from '../contact';
import { collideCylinderTerrainInto } from '../cylinder-terrain/collide';
import { CylinderTerrainStatus, CylinderTerrainWorkspace } from '../cylinder-terrain/workspace';
import { SweptStatus } from '../swept/swept-sphere';
import { ConvexCastWorkspace, castConvexHeightfield } from './convex-cast';
import type { TerrainCastResult } from './terrain-cast-result';

/**
 * Scratch of castWheelHeightfield, created once by its owner (a query context) and passed in:
 * the convex cast's and the wheel–terrain query's workspaces, the wheel's pose and the probe
 * centre. One cast at a time per workspace; nothing inside grows.
 */
export class WheelCastWorkspace {
  /** The toi (convex-cast.ts). */
  readonly cast = new ConvexCastWorkspace();
  /** The contacts at toi (cylinder-terrain/collide.ts); its statistics describe the last cast's query. */
  readonly contacts: CylinderTerrainWorkspace;
  readonly pose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly probeCenter: Vec3 = [0, 0, 0];

  /** `contacts`: the wheel query's workspace to use (default: a new one). */
  constructor(contacts: CylinderTerrainWorkspace = new CylinderTerrainWorkspace()) {
    this.contacts = contacts;
  }
}

/** Unit quaternion turning +z (the cylinder's local axis) onto the unit vector v. */
export function quatFromZTo(out: Quat, vx: number, vy: number, vz: number): Quat {
  // half-way quaternion: (z × v, 1 + z·v), normalised; opposite vectors: half turn about x
  const w = 1 + vz;
  if (w < UNIT_EPSILON) { // v = −z up to round-off: z × v has no direction
    out[0] = 1;
    out[1] = 0;
    out[2] = 0;
    out[3] = 0;
    return out;
  }
  const x = -vy, y = vx;
  const l = Math.sqrt(x * x + y * y + w * w);
  out[0] = x / l;
  out[1] = y / l;
  out[2] = 0;
  out[3] = w / l;
  return out;
}

/** Wheel cast (see the file header). */
export function castWheelHeightfield(
  out: TerrainCastResult, contacts: ContactBuffer, hf: Heightfield,
  center: Readonly<Vec3>, axisUnit: Readonly<Vec3>, cylinder: CylinderShape, motion: Readonly<Vec3>,
  ws: WheelCastWorkspace,
): number {
  const pose = ws.pose, probeCenter = ws.probeCenter;
  const len2 = axisUnit[0] * axisUnit[0] + axisUnit[1] * axisUnit[1] + axisUnit[2] * axisUnit[2];
  if (!(Math.abs(len2 - 1) <= CYLINDER_TERRAIN_AXIS_UNIT_TOLERANCE) || !(cylinder.radius > 0) || !(cylinder.halfHeight > 0)) {
    out.reset();
    out.status = SweptStatus.Degenerate;
    return CylinderTerrainStatus.InvalidInput;
  }
  pose.position[0] = center[0];
  pose.position[1] = center[1];
  pose.position[2] = center[2];
  quatFromZTo(pose.orientation, axisUnit[0], axisUnit[1], axisUnit[2]);
  castConvexHeightfield(out, hf, cylinder, pose, motion, ws.cast);
  if (!out.touched) return out.status === SweptStatus.Degenerate ? CylinderTerrainStatus.InvalidInput : CylinderTerrainStatus.Ok;
  const t = out.toi;
  for (let k = 0; k < 3; k++) probeCenter[k] = center[k] + t * motion[k] - WHEEL_CAST_CONTACT_PROBE * out.normal[k];
  const first = contacts.count;
  const status = collideCylinderTerrainInto(contacts, probeCenter, axisUnit, cylinder, hf, ws.contacts);
  for (let c = first; c < contacts.count; c++) {
    const d = contacts.depth[c] - WHEEL_CAST_CONTACT_PROBE;
    contacts.depth[c] = d > 0 ? d : 0;
  }
  return status;
}
