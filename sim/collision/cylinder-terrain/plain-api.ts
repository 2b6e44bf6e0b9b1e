/**
 * The plain (scripting) form of the cylinder–terrain query, kept stable for users' scripts and
 * external checks:
 *
 *   collideCylinderTerrain({ center, axis, radius, height }, heightfield)
 *     → { contacts: [{ point, normal, depth, kind, cell }] }
 *
 * vectors as [x, y, z] arrays, `height` the cylinder's full length along its axis, `axis` any
 * non-zero vector (normalised here), `kind` one of 'flat' | 'base' | 'side' | 'point' | 'edge',
 * `cell` the [i, j] of the terrain cell the contact came from. Invalid input throws an Error that
 * names the problem. This form allocates its result; engines use collideCylinderTerrainInto. An
 * optional third argument, a CylinderTerrainContext, carries the buffers from call to call.
 *
 * Nothing is dropped silently (issue #18: a 25 m wheel used to return 18 contacts of a footprint
 * the engine form had reported as "cell range truncated"):
 *   - a wheel whose footprint covers more than CYLINDER_TERRAIN_MAX_CELLS cells throws (the answer
 *     would miss contacts anywhere outside the visited part; use a coarser grid or a smaller wheel);
 *   - a buffer that filled up (candidates, normal groups, output) adds a sentence to `warnings`,
 *     a field present only when something was dropped, so `{ contacts }` stays the normal shape.
 */
import { CYLINDER_TERRAIN_MAX_CANDIDATES, CYLINDER_TERRAIN_MAX_CELLS, MANIFOLD_MAX_NORMAL_GROUPS } from '../../constants';
import { WHEEL_CONTACT_KIND_NAMES, ContactBuffer } from '../contact';
import { Heightfield } from '../../terrain/heightfield';
import type { Vec3 } from '../../math/vec3';
import { describeValue } from '../../util/describe-value';
import { collideCylinderTerrainInto } from './collide';
import { CylinderTerrainStatus, CylinderTerrainWorkspace } from './workspace';

/**
 * Which case of the wheel algorithm produced a contact: the flat patch, the base (case A), the
 * side (B), a single point (C) or the edge pass.
 */
export type CylinderTerrainContactKind = 'flat' | 'base' | 'side' | 'point' | 'edge';

/** Plain cylinder description. */
export interface CylinderDesc {
  /** [m] Centre. */
  center: readonly number[];
  /** Axis direction (any length > 0). */
  axis: readonly number[];
  /** [m] > 0 */
  radius: number;
  /** [m] Full length along the axis, > 0. */
  height: number;
}

/**
 * One contact of `collideCylinderTerrain`: point on the terrain, normal out of it, depth, case and
 * cell.
 */
export interface CylinderTerrainContact {
  /** [m] Point on the terrain surface. */
  point: [number, number, number];
  /** Unit normal out of the terrain (the direction the wheel is pushed). */
  normal: [number, number, number];
  /** [m] Penetration along the normal, > 0. */
  depth: number;
  /** Which part of the algorithm produced it. */
  kind: CylinderTerrainContactKind;
  /** [i, j] of the terrain cell. */
  cell: [number, number];
}

/** What `collideCylinderTerrain` returns: the contacts, and warnings when something was dropped. */
export interface CylinderTerrainResult {
  contacts: CylinderTerrainContact[];
  /** Present only when the query had to drop something: one sentence per cause. */
  warnings?: string[];
}

/** Most contacts a plain query returns (≤ 4 per normal group; a wheel has a handful of groups). */
const PLAIN_OUTPUT_CAPACITY = 256;

/**
 * The buffers of plain `collideCylinderTerrain` queries: the wheel query's workspace and the
 * engine-form output. A script that queries often creates one and passes it to every call (no
 * buffers allocated per call, only the returned objects); a call without one makes its own.
 * One query at a time per context.
 */
export class CylinderTerrainContext {
  /** The wheel query's scratch (its statistics describe the last query). */
  readonly workspace = new CylinderTerrainWorkspace();
  /** The engine-form contacts of the last query. */
  readonly output = new ContactBuffer(PLAIN_OUTPUT_CAPACITY);
}

function vector3(name: string, v: unknown): Vec3 {
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) throw new Error(`collideCylinderTerrain: ${name} must be an array [x, y, z], got ${describeValue(v)}`);
  const a = v as ArrayLike<unknown>;
  if (a.length !== 3) throw new Error(`collideCylinderTerrain: ${name} must have 3 components, got ${a.length}`);
  const out: Vec3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const x = a[k];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error(`collideCylinderTerrain: ${name}[${k}] must be a finite number, got ${describeValue(x)}`);
    out[k] = x;
  }
  return out;
}

function positive(name: string, x: unknown): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || !(x > 0)) throw new Error(`collideCylinderTerrain: ${name} must be a finite number > 0 (m), got ${describeValue(x)}`);
  return x;
}

/**
 * Contacts of a cylinder with a heightfield (plain form; see the header). Throws on invalid
 * input. `context` holds the query's buffers: pass one created once to reuse them across calls
 * (default: new buffers for this call).
 */
export function collideCylinderTerrain(
  cylinder: CylinderDesc, heightfield: Heightfield, context: CylinderTerrainContext = new CylinderTerrainContext(),
): CylinderTerrainResult {
  if (cylinder === null || typeof cylinder !== 'object') throw new Error('collideCylinderTerrain: expected { center, axis, radius, height }');
  if (!(heightfield instanceof Heightfield)) throw new Error('collideCylinderTerrain: the second argument must be a Heightfield (Heightfield.fromArray({ cols, rows, dx, dy, x0, y0, heights }))');
  const center = vector3('center', cylinder.center);
  const axis = vector3('axis', cylinder.axis);
  const radius = positive('radius', cylinder.radius);
  const height = positive('height', cylinder.height);
  const len = Math.hypot(axis[0], axis[1], axis[2]);
  if (!(len > 0) || !Number.isFinite(len)) throw new Error('collideCylinderTerrain: axis must be a non-zero vector');
  axis[0] /= len; axis[1] /= len; axis[2] /= len;
  if (!(context instanceof CylinderTerrainContext)) throw new Error('collideCylinderTerrain: the third argument, when given, must be a CylinderTerrainContext (new CylinderTerrainContext())');
  const output = context.output;
  output.clear();
  const status = collideCylinderTerrainInto(output, center, axis, { radius, halfHeight: height / 2 }, heightfield, context.workspace);
  if (status & CylinderTerrainStatus.InvalidInput) throw new Error('collideCylinderTerrain: invalid cylinder');
  if (status & CylinderTerrainStatus.CellRangeTruncated) {
    throw new Error(
      `collideCylinderTerrain: radius ${radius} m, height ${height} m: the footprint on this ${heightfield.dx} × ${heightfield.dy} m grid covers ` +
        `more than the ${CYLINDER_TERRAIN_MAX_CELLS} cells one query visits (cell range truncated); use a coarser heightfield or a smaller cylinder`,
    );
  }
  const contacts: CylinderTerrainContact[] = [];
  const o = output;
  for (let k = 0; k < o.count; k++) {
    contacts.push({
      point: [o.point[3 * k], o.point[3 * k + 1], o.point[3 * k + 2]],
      normal: [o.normal[3 * k], o.normal[3 * k + 1], o.normal[3 * k + 2]],
      depth: o.depth[k],
      kind: WHEEL_CONTACT_KIND_NAMES[o.kind[k]] as CylinderTerrainContactKind,
      cell: [o.cellI[k], o.cellJ[k]],
    });
  }
  const warnings: string[] = [];
  if (status & CylinderTerrainStatus.CandidateOverflow) warnings.push(`candidate buffer full (${CYLINDER_TERRAIN_MAX_CANDIDATES}): some elements' contacts were dropped before reduction`);
  if (status & CylinderTerrainStatus.GroupOverflow) warnings.push(`more than ${MANIFOLD_MAX_NORMAL_GROUPS} normal groups: extra normals were merged into the nearest group`);
  if (status & CylinderTerrainStatus.OutputOverflow) warnings.push(`more than ${PLAIN_OUTPUT_CAPACITY} contacts: the rest were dropped`);
  return warnings.length > 0 ? { contacts, warnings } : { contacts };
}
