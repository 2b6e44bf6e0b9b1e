/**
 * General convex–convex contact manifold: GJK/EPA for the normal and depth, supporting faces
 * and face clipping for the points (the scheme of Jolt's CollideConvexVsConvex +
 * ManifoldBetweenTwoFaces). Used for every pair without an analytic routine: hulls, cylinders,
 * and their pairs with boxes, spheres and capsules.
 *
 *   1. epaPenetration (GJK on cores, EPA when the cores overlap) gives n (A→B), the signed
 *      distance, and witness points. Beyond the speculative margin: no contact.
 *   2. The supporting features of A along n and of B along −n (shape.supportingFace: polygon,
 *      segment or point) are brought to world space.
 *   3. Reference = the polygon whose plane normal is closer to the contact axis (A wins ties by
 *      MANIFOLD_REFERENCE_BIAS so the choice does not flicker); the other feature is the
 *      incident one. If neither polygon is within MANIFOLD_FACE_ALIGN_COS of the axis (edge–edge,
 *      vertex–vertex) or clipping keeps nothing, the single EPA point is the manifold.
 *
 * Status: returns the EPA status (EpaStatus) so callers can report failures (EPA fallback still
 * yields a conservative contact; Degenerate yields none); the contacts are appended to `out`.
 */
import {
  CAPSULE_PARALLEL_COS,
  MANIFOLD_FACE_ALIGN_COS,
  MANIFOLD_REFERENCE_BIAS,
} from '../../constants';
import type { ContactBuffer } from '../contact';
import { EpaResult, EpaStatus, EpaWorkspace, epaPenetration } from '../epa';
import { quatRotate, quatRotateInverse } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { ConvexShape, Pose } from '../../shapes/shape';
import { ShapeKind, SupportFace } from '../../shapes/shape';
import type { CapsuleShape } from '../../shapes/capsule';
import { ClipWorkspace, manifoldBetweenFaces } from './clip-faces';
import { FacePolygon } from './face-polygon';
import { PairContactKind, TAG_EDGE_PAIR, TAG_VERTEX, packFeature } from './feature-id';

/** sin of the capsule parallel angle (see capsuleSideLine). */
const PARALLEL_SIN = Math.sqrt(1 - CAPSULE_PARALLEL_COS * CAPSULE_PARALLEL_COS);

/**
 * Scratch of collideConvexConvex, owned by the caller (the world's narrow phase, a query
 * context): the EPA result, both supporting features (local and world), the directions and
 * normals, and the clip's scratch. One call at a time per workspace.
 */
export class ConvexConvexWorkspace {
  readonly epa = new EpaResult();
  /** The EPA query's own workspace (its polytope). */
  readonly epaWs = new EpaWorkspace();
  /** Supporting features of A along n and of B along −n (local), and the same in world space. */
  readonly faceA = new SupportFace();
  readonly faceB = new SupportFace();
  readonly polyA = new FacePolygon();
  readonly polyB = new FacePolygon();
  /** −n in B's frame and n in A's frame. */
  readonly dir: Vec3 = [0, 0, 0];
  readonly dirA: Vec3 = [0, 0, 0];
  readonly tmp: Vec3 = [0, 0, 0];
  /** Plane normals of polyA and polyB (zero for a segment or a point), and the reference one. */
  readonly nA: Vec3 = [0, 0, 0];
  readonly nB: Vec3 = [0, 0, 0];
  readonly refN: Vec3 = [0, 0, 0];
  readonly clip = new ClipWorkspace();
}

/** World polygon of a local supporting face (`tmp`: a scratch vector). */
function toWorld(poly: FacePolygon, face: SupportFace, pose: Readonly<Pose>, tmp: Vec3): void {
  poly.clear();
  for (let k = 0; k < face.count; k++) {
    tmp[0] = face.points[3 * k];
    tmp[1] = face.points[3 * k + 1];
    tmp[2] = face.points[3 * k + 2];
    quatRotate(tmp, pose.orientation, tmp);
    poly.push(tmp[0] + pose.position[0], tmp[1] + pose.position[1], tmp[2] + pose.position[2], k, TAG_VERTEX, k);
  }
}

/**
 * Unit plane normal of a polygon by Newell's method, oriented along `axis`, into `out` (zero for
 * fewer than 3 points or a degenerate polygon). The caller takes |n·axis| as out·axis: a double
 * returned from a call V8 does not inline is boxed (an allocation), and a zero normal gives 0.
 */
function polygonNormal(out: Vec3, poly: FacePolygon, axis: Readonly<Vec3>): void {
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  const n = poly.count;
  if (n < 3) return;
  const p = poly.xyz;
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    x += (p[3 * i + 1] - p[3 * j + 1]) * (p[3 * i + 2] + p[3 * j + 2]);
    y += (p[3 * i + 2] - p[3 * j + 2]) * (p[3 * i] + p[3 * j]);
    z += (p[3 * i] - p[3 * j]) * (p[3 * i + 1] + p[3 * j + 1]);
  }
  const len = Math.sqrt(x * x + y * y + z * z);
  if (!(len > 0)) return;
  let s = 1 / len;
  if (x * axis[0] + y * axis[1] + z * axis[2] < 0) s = -s;
  out[0] = x * s;
  out[1] = y * s;
  out[2] = z * s;
}

/**
 * A capsule's supportingFace is its side line only for directions exactly perpendicular to the
 * axis; a capsule lying on a face is never exactly that. Within the parallel tolerance of
 * capsule–capsule (CAPSULE_PARALLEL_COS) we use the side line anyway, so a capsule resting on a
 * hull or a cylinder gets a 2-point line contact instead of a point rocking along it.
 */
function capsuleSideLine(face: SupportFace, shape: ConvexShape, d: Readonly<Vec3>): void {
  if (shape.kind !== ShapeKind.Capsule || face.count !== 1) return;
  const rxy = Math.sqrt(d[0] * d[0] + d[1] * d[1]);
  const len = Math.sqrt(rxy * rxy + d[2] * d[2]);
  if (!(rxy > 0) || Math.abs(d[2]) > PARALLEL_SIN * len) return;
  const cap = shape as CapsuleShape;
  const x = (d[0] / rxy) * cap.radius, y = (d[1] / rxy) * cap.radius;
  face.clear();
  face.push(x, y, -cap.halfHeight);
  face.push(x, y, cap.halfHeight);
}

/** Both segments parallel within CAPSULE_PARALLEL_COS and perpendicular to the axis n. */
function parallelSegments(a: FacePolygon, b: FacePolygon, n: Readonly<Vec3>): boolean {
  const p = a.xyz, q = b.xyz;
  const ux = p[3] - p[0], uy = p[4] - p[1], uz = p[5] - p[2];
  const vx = q[3] - q[0], vy = q[4] - q[1], vz = q[5] - q[2];
  const lu = Math.sqrt(ux * ux + uy * uy + uz * uz), lv = Math.sqrt(vx * vx + vy * vy + vz * vz);
  if (!(lu > 0 && lv > 0)) return false;
  return Math.abs(ux * vx + uy * vy + uz * vz) >= CAPSULE_PARALLEL_COS * lu * lv &&
    Math.abs(ux * n[0] + uy * n[1] + uz * n[2]) <= PARALLEL_SIN * lu;
}

/** Cheap, pose-independent id of a supporting feature: its vertex count and first local vertex. */
function faceId(face: SupportFace): number {
  const p = face.points;
  // hash of the first vertex's coordinates (stable while the same feature is returned)
  const h = Math.imul((p[0] * 1e4) | 0, 73856093) ^ Math.imul((p[1] * 1e4) | 0, 19349663) ^ Math.imul((p[2] * 1e4) | 0, 83492791);
  return (h ^ face.count) & 0x7f;
}

/**
 * Appends contacts between convex shapes A and B (engine convention: point on B, normal from B
 * into A, depth ≥ −margin). Returns the EPA status of the query (EpaStatus). `ws` is the
 * caller's scratch.
 */
export function collideConvexConvex(
  out: ContactBuffer,
  shapeA: ConvexShape, poseA: Readonly<Pose>,
  shapeB: ConvexShape, poseB: Readonly<Pose>,
  margin: number,
  ws: ConvexConvexWorkspace,
): EpaStatus {
  const epa = ws.epa, faceA = ws.faceA, faceB = ws.faceB, polyA = ws.polyA, polyB = ws.polyB;
  const dir = ws.dir, dirA = ws.dirA, tmp = ws.tmp, nA = ws.nA, nB = ws.nB, refN = ws.refN;
  // pairs farther apart than the margin make no contact: GJK may stop once that is proven
  epaPenetration(epa, shapeA, poseA, shapeB, poseB, ws.epaWs, margin);
  const status = epa.status;
  if (status === EpaStatus.Degenerate) return status;
  const distance = status === EpaStatus.Separated ? epa.distance : -epa.depth;
  if (!(distance <= margin)) return status;
  const n = epa.normal; // A → B

  // Supporting features: A along n, B along −n (local directions).
  quatRotateInverse(dirA, poseA.orientation, n);
  shapeA.supportingFace(faceA, dirA);
  dir[0] = -n[0];
  dir[1] = -n[1];
  dir[2] = -n[2];
  quatRotateInverse(dir, poseB.orientation, dir);
  shapeB.supportingFace(faceB, dir);
  capsuleSideLine(faceA, shapeA, dirA);
  capsuleSideLine(faceB, shapeB, dir);
  toWorld(polyA, faceA, poseA, tmp);
  toWorld(polyB, faceB, poseB, tmp);
  polygonNormal(nA, polyA, n);
  const alignA = nA[0] * n[0] + nA[1] * n[1] + nA[2] * n[2];
  tmp[0] = -n[0];
  tmp[1] = -n[1];
  tmp[2] = -n[2];
  polygonNormal(nB, polyB, tmp);
  const alignB = nB[0] * tmp[0] + nB[1] * tmp[1] + nB[2] * tmp[2];

  const start = out.count;
  if (alignA >= MANIFOLD_FACE_ALIGN_COS || alignB >= MANIFOLD_FACE_ALIGN_COS) {
    const refIsB = alignB > alignA + MANIFOLD_REFERENCE_BIAS;
    const src = refIsB ? nB : nA;
    refN[0] = src[0];
    refN[1] = src[1];
    refN[2] = src[2];
    const k = refIsB
      ? manifoldBetweenFaces(out, polyB, refN, polyA, true, faceId(faceB), faceId(faceA), margin, PairContactKind.ConvexFace, ws.clip)
      : manifoldBetweenFaces(out, polyA, refN, polyB, false, faceId(faceA), faceId(faceB), margin, PairContactKind.ConvexFace, ws.clip);
    if (k > 0) return status;
    out.count = start;
  }
  // Two parallel side lines (cylinder–cylinder, capsule–cylinder lying side by side): clip A's
  // line by the end planes of B's, as capsule–capsule does, for a 2-point line contact.
  if (polyA.count === 2 && polyB.count === 2 && parallelSegments(polyA, polyB, n)) {
    refN[0] = -n[0];
    refN[1] = -n[1];
    refN[2] = -n[2];
    const k = manifoldBetweenFaces(out, polyB, refN, polyA, true, faceId(faceB), faceId(faceA), margin, PairContactKind.ConvexFace, ws.clip);
    if (k === 2) return status;
    out.count = start;
  }
  // Single point: B's witness, normal −n, depth −distance.
  // (written into a reserved slot: out.push would take its doubles as boxed arguments)
  const pb = epa.pointB;
  const slot = out.reserve();
  if (slot < 0) return status;
  const s3 = 3 * slot;
  out.point[s3] = pb[0];
  out.point[s3 + 1] = pb[1];
  out.point[s3 + 2] = pb[2];
  out.normal[s3] = -n[0];
  out.normal[s3 + 1] = -n[1];
  out.normal[s3 + 2] = -n[2];
  out.depth[slot] = -distance;
  out.kind[slot] = PairContactKind.ConvexPoint;
  out.cellI[slot] = -1;
  out.cellJ[slot] = -1;
  out.feature[slot] = packFeature(false, faceId(faceA), faceId(faceB), TAG_EDGE_PAIR, TAG_EDGE_PAIR);
  return status;
}
