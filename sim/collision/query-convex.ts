/**
 * queryConvex: the plain, stable form of the convex pair query, for scripts and external checks
 * (the Rapier oracle). Allocates freely; the engine uses dispatcher.ts instead.
 *
 *   queryConvex(a, b, ws?) with a, b = { shape, position: [x, y, z], orientation: [x, y, z, w] }
 *   (ws: an optional CollideWorkspace to reuse across calls; one is made per call otherwise)
 *   shape: { type: 'sphere', radius } | { type: 'box', halfExtents: [x, y, z] }
 *        | { type: 'capsule', radius, height } | { type: 'cylinder', radius, height }
 *        | { type: 'hull', points: [[x, y, z], …] }
 *   (capsule and cylinder axes along local z; a cylinder's height is its full length, a
 *   capsule's the distance between its two sphere centres)
 *
 * Result (all world frame, SI units):
 *   distance      signed: > 0 the gap between the surfaces, < 0 minus the penetration depth
 *   intersecting  distance ≤ 0 (touching counts as intersecting)
 *   normal        unit, from a to b (moving b by −distance·normal makes them just touch)
 *   pointA        on a's surface, pointB on b's surface: pointB − pointA = distance·normal
 *   contacts      the manifold when intersecting (≤ 4 points per convex pair), else []:
 *                 { point, normal, depth } with point ON b's SURFACE, normal from a to b (the
 *                 same as `normal`), depth ≥ 0. (The engine convention of contact.ts puts the
 *                 point on b as well but points the normal from b into a; this API follows the
 *                 issue: a → b.)
 *   status        'ok', or why the answer is approximate: 'epa-fallback' (EPA did not converge:
 *                 conservative upper bound on the depth), 'gjk-max-iterations'
 *
 * Routines: sphere/capsule pairs and sphere/capsule–box are analytic (closest points of segments,
 * exact segment–box distance); box–box penetration is SAT with the exact minimum-overlap axis
 * (no face bias); separated box–box and everything with a hull or cylinder use GJK/EPA, and
 * face clipping for the contacts.
 *
 * Invalid input throws ShapeDescError (shape) or RangeError (pose) naming the problem.
 */
import { ContactBuffer } from './contact';
import type { Contact } from './contact';
import { CollideWorkspace, collideConvexPair } from './dispatcher';
import { EpaResult, EpaStatus, EpaWorkspace, epaPenetration } from './epa';
import { GjkStatus } from './gjk';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { BoxShape } from '../shapes/box';
import type { ConvexShape, Pose } from '../shapes/shape';
import { ShapeKind } from '../shapes/shape';
import { shapeFromDesc } from '../shapes/shape-desc';
import type { ShapeDesc } from '../shapes/shape-desc';
import { collideBoxBox, createBoxBoxSat, satBoxBox } from './sat-box-box';
import { describeValue } from '../util/describe-value';

/** One body of a query: a plain shape at a pose. */
export interface ConvexBodyDesc {
  shape: ShapeDesc;
  /** [m] */
  position: [number, number, number];
  /** Unit quaternion [x, y, z, w] (normalised here; a zero quaternion is an error). */
  orientation: [number, number, number, number];
}

/**
 * What `queryConvex` returns: intersection, signed distance, normal, witness points, manifold and
 * status.
 */
export interface ConvexQueryResult {
  intersecting: boolean;
  /** [m] Signed distance; negative = −penetration depth. */
  distance: number;
  /** Unit normal from a to b. */
  normal: [number, number, number];
  /** [m] Point on a's surface. */
  pointA: [number, number, number];
  /** [m] Point on b's surface. */
  pointB: [number, number, number];
  /** Contact manifold (point on b's surface, normal from a to b, depth ≥ 0); [] when apart. */
  contacts: Contact[];
  /** 'ok' | 'epa-fallback' | 'gjk-max-iterations' */
  status: string;
}

/** Capacity of the query's contact buffer: one convex pair yields ≤ MANIFOLD_MAX_POINTS. */
const QUERY_CONTACT_CAPACITY = 16;

function readPose(body: ConvexBodyDesc, name: string): Pose {
  if (body === null || typeof body !== 'object') throw new RangeError(`queryConvex: ${name} must be { shape, position, orientation }`);
  const p = body.position, q = body.orientation;
  if (!Array.isArray(p) || p.length !== 3 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new RangeError(`queryConvex: ${name}.position must be [x, y, z] of finite numbers, got ${describeValue(p)}`);
  }
  if (!Array.isArray(q) || q.length !== 4 || !q.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new RangeError(`queryConvex: ${name}.orientation must be [x, y, z, w] of finite numbers, got ${describeValue(q)}`);
  }
  const len = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(len > 0)) throw new RangeError(`queryConvex: ${name}.orientation is the zero quaternion`);
  if (!(len < Infinity)) throw new RangeError(`queryConvex: ${name}.orientation ${describeValue(q)} is too large to normalise (its length overflows)`);
  return {
    position: [p[0], p[1], p[2]],
    orientation: [q[0] / len, q[1] / len, q[2] / len, q[3] / len] as Quat,
  };
}

function analyticPair(a: ConvexShape, b: ConvexShape): boolean {
  const round = (k: number): boolean => k === ShapeKind.Sphere || k === ShapeKind.Capsule;
  return (round(a.kind) && (round(b.kind) || b.kind === ShapeKind.Box)) || (a.kind === ShapeKind.Box && round(b.kind));
}

function deepest(buf: ContactBuffer): number {
  let best = 0;
  for (let k = 1; k < buf.count; k++) if (buf.depth[k] > buf.depth[best]) best = k;
  return best;
}

/**
 * Plain convex pair query (see the file header). `ws`: scratch for the engine routines, made for
 * this call when omitted (a script that queries in a loop may pass one and reuse it).
 */
export function queryConvex(a: ConvexBodyDesc, b: ConvexBodyDesc, ws: CollideWorkspace = new CollideWorkspace()): ConvexQueryResult {
  const poseA = readPose(a, 'a');
  const poseB = readPose(b, 'b');
  const shapeA = shapeFromDesc(a.shape);
  const shapeB = shapeFromDesc(b.shape);
  const buf = new ContactBuffer(QUERY_CONTACT_CAPACITY);
  const res: ConvexQueryResult = {
    intersecting: false, distance: 0, normal: [0, 0, 1], pointA: [0, 0, 0], pointB: [0, 0, 0], contacts: [], status: 'ok',
  };

  if (analyticPair(shapeA, shapeB)) {
    // Analytic routines with an unbounded margin return the closest pair even when apart.
    collideConvexPair(buf, shapeA, poseA, shapeB, poseB, Infinity, ws);
    const k = deepest(buf);
    fromEngineContact(res, buf, k);
    buf.clear();
    if (res.distance <= 0) collideConvexPair(buf, shapeA, poseA, shapeB, poseB, 0, ws);
  } else if (shapeA.kind === ShapeKind.Box && shapeB.kind === ShapeKind.Box) {
    const sat = createBoxBoxSat();
    const hA = (shapeA as BoxShape).halfExtents, hB = (shapeB as BoxShape).halfExtents;
    satBoxBox(sat, poseA.position, poseA.orientation, hA, poseB.position, poseB.orientation, hB, false, ws.manifold.boxBox);
    if (sat.separation <= 0) {
      collideBoxBox(buf, poseA.position, poseA.orientation, hA, poseB.position, poseB.orientation, hB, 0, ws.manifold.boxBox, undefined, false);
      fromEngineContact(res, buf, deepest(buf));
      // SAT's depth and axis are exact; the deepest clipped point can only match or undershoot.
      res.distance = sat.separation;
      for (let i = 0; i < 3; i++) {
        res.normal[i] = sat.normal[i];
        res.pointA[i] = res.pointB[i] - sat.separation * sat.normal[i];
      }
    } else {
      gjkEpa(res, shapeA, poseA, shapeB, poseB, ws.epa);
    }
  } else {
    gjkEpa(res, shapeA, poseA, shapeB, poseB, ws.epa);
    if (res.distance <= 0) collideConvexPair(buf, shapeA, poseA, shapeB, poseB, 0, ws);
  }

  res.intersecting = res.distance <= 0;
  if (res.intersecting) {
    for (let k = 0; k < buf.count; k++) {
      res.contacts.push({
        point: [buf.point[3 * k], buf.point[3 * k + 1], buf.point[3 * k + 2]],
        normal: [-buf.normal[3 * k], -buf.normal[3 * k + 1], -buf.normal[3 * k + 2]],
        depth: Math.max(0, buf.depth[k]),
      });
    }
  }
  return res;
}

/** Distance fields from engine contact k (point on B, normal from B into A, depth). */
function fromEngineContact(res: ConvexQueryResult, buf: ContactBuffer, k: number): void {
  const d = buf.depth[k];
  res.distance = -d;
  for (let i = 0; i < 3; i++) {
    const n = -buf.normal[3 * k + i];
    res.normal[i] = n;
    res.pointB[i] = buf.point[3 * k + i];
    // A's point: pA = pB − depth·n_engine = pB + depth·n(a→b)
    res.pointA[i] = res.pointB[i] + d * n;
  }
}

function gjkEpa(res: ConvexQueryResult, shapeA: ConvexShape, poseA: Pose, shapeB: ConvexShape, poseB: Pose, ws: EpaWorkspace): void {
  const epa = epaPenetration(new EpaResult(), shapeA, poseA, shapeB, poseB, ws);
  res.distance = epa.status === EpaStatus.Separated ? epa.distance : -epa.depth;
  for (let i = 0; i < 3; i++) {
    res.normal[i] = epa.normal[i];
    res.pointA[i] = epa.pointA[i];
    res.pointB[i] = epa.pointB[i];
  }
  if (epa.status === EpaStatus.Fallback) res.status = 'epa-fallback';
  else if (epa.gjkStatus === GjkStatus.MaxIterations) res.status = 'gjk-max-iterations';
}

/** Type guard used by callers that read vectors back: all finite. */
export function isFiniteResult(r: ConvexQueryResult): boolean {
  const v = (x: Readonly<Vec3>): boolean => Number.isFinite(x[0] + x[1] + x[2]);
  return Number.isFinite(r.distance) && v(r.normal) && v(r.pointA) && v(r.pointB) &&
    r.contacts.every((c) => v(c.point) && v(c.normal) && Number.isFinite(c.depth));
}
