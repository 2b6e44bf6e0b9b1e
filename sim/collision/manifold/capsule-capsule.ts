/**
 * Capsule–capsule contacts (also sphere–sphere and sphere–capsule: a sphere is a capsule whose
 * segment has zero length). A capsule is the set of points within r of its core segment, so two
 * capsules touch where their segments come within rA + rB (closest points between segments,
 * seed 003's mua/mub, in segment-closest.ts):
 *
 *     n = (Pa − Pb)/|Pa − Pb|   (from B into A),   depth = rA + rB − |Pa − Pb|,
 *     point on B = Pb + rB·n.
 *
 * Parallel axes (|cos| ≥ CAPSULE_PARALLEL_COS) get two points, the ends of the overlap of A's
 * side line clipped by B's end planes, so a capsule lying on another rests on a line, not on a
 * point that wanders along it. Coincident cores (distance < CORE_TOUCH_DISTANCE) have no
 * direction between them: crossing cores use their common perpendicular, parallel ones any
 * direction perpendicular to B's axis (+z for two spheres); either separates by rA + rB.
 */
import {
  CAPSULE_PARALLEL_COS,
  CORE_TOUCH_DISTANCE,
  GEOMETRIC_EPSILON,
} from '../../constants';
import type { ContactBuffer } from '../contact';
import type { Vec3 } from '../../math/vec3';
import { anyPerpendicular } from '../../math/vec3';
import { closestPointsSegmentSegment, createSegmentClosest } from '../segment-closest';
import { ClipWorkspace, manifoldBetweenFaces } from './clip-faces';
import { FacePolygon } from './face-polygon';
import { PairContactKind, TAG_EDGE_PAIR, TAG_VERTEX, packFeature } from './feature-id';

/** sin of the parallel angle: n must be this close to perpendicular to the axes. */
const PARALLEL_SIN = Math.sqrt(1 - CAPSULE_PARALLEL_COS * CAPSULE_PARALLEL_COS);

/**
 * Scratch of collideCapsuleCapsule, owned by the caller (the world's narrow phase, a query
 * context). One call at a time per workspace.
 */
export class CapsuleCapsuleWorkspace {
  readonly closest = createSegmentClosest();
  /** Side lines of B (reference) and A (incident) for the parallel case. */
  readonly ref = new FacePolygon();
  readonly inc = new FacePolygon();
  /** The contact normal (from B into A) and B's unit axis. */
  readonly n: Vec3 = [0, 0, 0];
  readonly axis: Vec3 = [0, 0, 0];
  readonly clip = new ClipWorkspace();
}

/**
 * Appends contacts between capsule A (segment a0a1, radius rA) and capsule B (segment b0b1,
 * radius rB) to `out` (engine convention: point on B, normal from B into A, depth ≥ −margin).
 * Returns the number added (0, 1 or 2). `ws` is the caller's scratch.
 */
export function collideCapsuleCapsule(
  out: ContactBuffer,
  a0: Readonly<Vec3>, a1: Readonly<Vec3>, rA: number,
  b0: Readonly<Vec3>, b1: Readonly<Vec3>, rB: number,
  margin: number,
  ws: CapsuleCapsuleWorkspace,
): number {
  const closest = ws.closest, n = ws.n;
  closestPointsSegmentSegment(closest, a0, a1, b0, b1);
  const dist = Math.sqrt(closest.distanceSq);
  const sep = dist - rA - rB;
  if (sep > margin) return 0;
  const pa = closest.pointA, pb = closest.pointB;
  if (dist > CORE_TOUCH_DISTANCE) {
    n[0] = (pa[0] - pb[0]) / dist;
    n[1] = (pa[1] - pb[1]) / dist;
    n[2] = (pa[2] - pb[2]) / dist;
  } else {
    // Cores cross or coincide. Crossing segments: the common perpendicular uA × uB separates them
    // by exactly rA + rB (the Minkowski difference of the cores is flat, the origin lies in its
    // plane). Parallel or point cores: any direction perpendicular to B's axis (spheres: +z).
    const bx = b1[0] - b0[0], by = b1[1] - b0[1], bz = b1[2] - b0[2];
    const bl = Math.sqrt(bx * bx + by * by + bz * bz);
    const ax = a1[0] - a0[0], ay = a1[1] - a0[1], az = a1[2] - a0[2];
    const al = Math.sqrt(ax * ax + ay * ay + az * az);
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const cl = Math.sqrt(cx * cx + cy * cy + cz * cz);
    if (al > GEOMETRIC_EPSILON && bl > GEOMETRIC_EPSILON && cl > PARALLEL_SIN * al * bl) {
      n[0] = cx / cl;
      n[1] = cy / cl;
      n[2] = cz / cl;
    } else if (bl > GEOMETRIC_EPSILON) {
      const axis = ws.axis;
      axis[0] = bx / bl;
      axis[1] = by / bl;
      axis[2] = bz / bl;
      anyPerpendicular(n, axis);
    } else {
      n[0] = 0;
      n[1] = 0;
      n[2] = 1;
    }
  }

  // Parallel segments of nonzero length: clip A's side line against B's end planes.
  const ux = a1[0] - a0[0], uy = a1[1] - a0[1], uz = a1[2] - a0[2];
  const vx = b1[0] - b0[0], vy = b1[1] - b0[1], vz = b1[2] - b0[2];
  const lu = Math.sqrt(ux * ux + uy * uy + uz * uz), lv = Math.sqrt(vx * vx + vy * vy + vz * vz);
  if (lu > GEOMETRIC_EPSILON && lv > GEOMETRIC_EPSILON && dist > CORE_TOUCH_DISTANCE &&
      Math.abs(ux * vx + uy * vy + uz * vz) >= CAPSULE_PARALLEL_COS * lu * lv &&
      // and side by side, not end to end (n ⟂ axis within the same angle)
      Math.abs(ux * n[0] + uy * n[1] + uz * n[2]) <= PARALLEL_SIN * lu) {
    // Reference: B's side line (its core pushed out by rB toward A). Incident: A's side line.
    const ref = ws.ref, inc = ws.inc;
    ref.clear();
    ref.push(b0[0] + rB * n[0], b0[1] + rB * n[1], b0[2] + rB * n[2], 0, TAG_VERTEX, 0);
    ref.push(b1[0] + rB * n[0], b1[1] + rB * n[1], b1[2] + rB * n[2], 1, TAG_VERTEX, 1);
    inc.clear();
    inc.push(a0[0] - rA * n[0], a0[1] - rA * n[1], a0[2] - rA * n[2], 0, TAG_VERTEX, 0);
    inc.push(a1[0] - rA * n[0], a1[1] - rA * n[1], a1[2] - rA * n[2], 0, TAG_VERTEX, 1);
    const k = manifoldBetweenFaces(out, ref, n, inc, true, 0, 0, margin, PairContactKind.CapsuleCapsule, ws.clip);
    if (k === 2) return k; // the reference is B, so the routine wrote normal +n (from B into A)
    // One or zero points survived (overlap shorter than round-off): remove and fall back.
    out.count -= k;
  }
  out.push(pb[0] + rB * n[0], pb[1] + rB * n[1], pb[2] + rB * n[2], n[0], n[1], n[2], -sep,
    PairContactKind.CapsuleCapsule, -1, -1, packFeature(false, 0, 0, TAG_EDGE_PAIR, TAG_EDGE_PAIR));
  return 1;
}

/** World endpoints of a capsule or cylinder axis: centre ± rotate(q, (0, 0, halfHeight)). */
export function axisSegment(
  p0: Vec3, p1: Vec3, c: Readonly<Vec3>, q: Readonly<[number, number, number, number]>, halfHeight: number,
): void {
  // q·(0,0,1): third column of the rotation matrix.
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const ax = 2 * (x * z + w * y), ay = 2 * (y * z - w * x), az = 1 - 2 * (x * x + y * y);
  p0[0] = c[0] - halfHeight * ax;
  p0[1] = c[1] - halfHeight * ay;
  p0[2] = c[2] - halfHeight * az;
  p1[0] = c[0] + halfHeight * ax;
  p1[1] = c[1] + halfHeight * ay;
  p1[2] = c[2] + halfHeight * az;
}
