/**
 * Narrow-phase dispatcher for body pairs: picks the contact routine by shape-kind pair (parry's
 * and Jolt's collision dispatch idea), iterates compound children, and keeps the table symmetric:
 * a routine written for (X, Y) serves (Y, X) by swapping the arguments and flipping the
 * contacts (flip-contacts.ts), so (A, B) and (B, A) give the same manifold seen from the other
 * side.
 *
 *               sphere    box        capsule    cylinder  hull
 *   sphere      CC        CB         CC         CVX       CVX
 *   box         CB↔       SAT        CB↔        CVX       CVX
 *   capsule     CC        CB         CC         CVX       CVX
 *   cylinder    CVX       CVX        CVX        CVX       CVX
 *   hull        CVX       CVX        CVX        CVX       CVX
 *
 *   CC  capsule–capsule (a sphere is a zero-length capsule)     manifold/capsule-capsule.ts
 *   CB  capsule–box (sphere too); CB↔ the same with A, B swapped manifold/capsule-box.ts
 *   SAT box–box separating axes + face clipping                   sat-box-box.ts
 *   CVX GJK/EPA + supporting-face clipping                        manifold/convex-convex.ts
 *
 * Output: the engine convention of contact.ts (point on B, normal from B into A, depth ≥
 * −margin), appended to `out`. Every call returns a CollideStatus. Scratch lives in a
 * CollideWorkspace the caller owns and passes as the last argument.
 *
 * Terrain: collideShapeHeightfield sends each convex (child) shape to convex-heightfield/collide.ts.
 */
import type { ContactBuffer } from './contact';
import { EpaStatus, EpaWorkspace } from './epa';
import type { Quat } from '../math/quat';
import { quatMultiply, quatRotate } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { BoxShape } from '../shapes/box';
import type { CapsuleShape } from '../shapes/capsule';
import type { CompoundShape } from '../shapes/compound';
import type { ConvexShape, Pose, Shape } from '../shapes/shape';
import { ShapeKind } from '../shapes/shape';
import type { SphereShape } from '../shapes/sphere';
import { collideCapsuleBox } from './manifold/capsule-box';
import { axisSegment, collideCapsuleCapsule } from './manifold/capsule-capsule';
import { collideConvexConvex } from './manifold/convex-convex';
import { flipContacts } from './manifold/flip-contacts';
import { collideBoxBox } from './sat-box-box';
import { HeightfieldCollideStatus, collideConvexHeightfield } from './convex-heightfield/collide';
import type { Polytope, PolytopeTerrainWorkspace } from './polytope-terrain';
import { POLYTOPE_TERRAIN_OK, collidePolytopeTerrainInto, polytopeTerrainClear } from './polytope-terrain';
import type { Heightfield } from '../terrain/heightfield';
import { ConvexHeightfieldWorkspace } from './convex-heightfield/workspace';
import { ManifoldWorkspace } from './manifold/workspace';

/** The outcome of `collideShapes`/`collideConvexPair`. */
export const CollideStatus = {
  /** The routine ran; 0 or more contacts were added. */
  Ok: 0,
  /** The output buffer was full: some contacts were dropped (ContactBuffer.overflow counts them). */
  Overflow: 1,
  /** EPA did not converge: the contact is a conservative upper bound (still usable). */
  Fallback: 2,
  /** Non-finite pose or shape: no contact, no NaN. */
  Degenerate: 3,
} as const;
export type CollideStatus = (typeof CollideStatus)[keyof typeof CollideStatus];
/** Names of the `CollideStatus` values, by value. */
export const COLLIDE_STATUS_NAMES: readonly string[] = ['ok', 'overflow', 'fallback', 'degenerate'];

/** Routine codes of the dispatch table. */
const R_CC = 0, R_CB = 1, R_BC = 2, R_SAT = 3, R_CVX = 4;
const KINDS = 5;
/**
 * PAIR_TABLE[kindA·KINDS + kindB] (kinds 0..4 = sphere, box, capsule, cylinder, hull).
 * @immutable a lookup table written only here (a typed array: Object.freeze cannot freeze it)
 */
const PAIR_TABLE = new Uint8Array([
  /* sphere   */ R_CC, R_CB, R_CC, R_CVX, R_CVX,
  /* box      */ R_BC, R_SAT, R_BC, R_CVX, R_CVX,
  /* capsule  */ R_CC, R_CB, R_CC, R_CVX, R_CVX,
  /* cylinder */ R_CVX, R_CVX, R_CVX, R_CVX, R_CVX,
  /* hull     */ R_CVX, R_CVX, R_CVX, R_CVX, R_CVX,
]);

/**
 * Everything the dispatcher's routines work on: the core segments of round shapes, the compound
 * children's poses and the EPA workspace of the convex routine. Allocated once by its owner (a
 * world's collision pass, a plain query); one call at a time (never two in flight).
 */
export class CollideWorkspace {
  /** Core segments (sphere: a point) of A and B. */
  readonly a0: Vec3 = [0, 0, 0];
  readonly a1: Vec3 = [0, 0, 0];
  readonly b0: Vec3 = [0, 0, 0];
  readonly b1: Vec3 = [0, 0, 0];
  /** World poses of the compound children being tested (A's loop, B's nested loop). */
  readonly childPoseA: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly childPoseB: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  /** The EPA query of plain queries (queryConvex); the convex routine has its own in `manifold`. */
  readonly epa = new EpaWorkspace();
  /** The pair routines' scratch (box–box, convex–convex, capsule–box, capsule–capsule). */
  readonly manifold = new ManifoldWorkspace();
  /** The convex body vs terrain query's scratch (collideShapeHeightfield). */
  readonly terrain = new ConvexHeightfieldWorkspace();
}

function poseFinite(p: Readonly<Pose>): boolean {
  const x = p.position, q = p.orientation;
  return Number.isFinite(x[0] + x[1] + x[2] + q[0] + q[1] + q[2] + q[3]);
}

/** Core segment (sphere: a point) and radius of a sphere or capsule. */
function coreSegment(p0: Vec3, p1: Vec3, shape: ConvexShape, pose: Readonly<Pose>): number {
  if (shape.kind === ShapeKind.Sphere) {
    const c = pose.position;
    p0[0] = p1[0] = c[0];
    p0[1] = p1[1] = c[1];
    p0[2] = p1[2] = c[2];
    return (shape as SphereShape).radius;
  }
  const cap = shape as CapsuleShape;
  axisSegment(p0, p1, pose.position, pose.orientation as Quat, cap.halfHeight);
  return cap.radius;
}

/**
 * Contacts between two convex shapes; returns the status. `ws`: the call's scratch, owned by the
 * caller (made for this call when omitted: it allocates).
 */
export function collideConvexPair(
  out: ContactBuffer,
  shapeA: ConvexShape, poseA: Readonly<Pose>,
  shapeB: ConvexShape, poseB: Readonly<Pose>,
  margin: number,
  ws: CollideWorkspace = new CollideWorkspace(),
): CollideStatus {
  const a0 = ws.a0, a1 = ws.a1, b0 = ws.b0, b1 = ws.b1;
  if (!poseFinite(poseA) || !poseFinite(poseB)) return CollideStatus.Degenerate;
  const overflow0 = out.overflow;
  const start = out.count;
  let status: CollideStatus = CollideStatus.Ok;
  switch (PAIR_TABLE[shapeA.kind * KINDS + shapeB.kind]) {
    case R_CC: {
      const rA = coreSegment(a0, a1, shapeA, poseA);
      const rB = coreSegment(b0, b1, shapeB, poseB);
      collideCapsuleCapsule(out, a0, a1, rA, b0, b1, rB, margin, ws.manifold.capsuleCapsule);
      break;
    }
    case R_CB: {
      const rA = coreSegment(a0, a1, shapeA, poseA);
      collideCapsuleBox(out, a0, a1, rA, poseB.position, poseB.orientation, (shapeB as BoxShape).halfExtents, margin, ws.manifold.capsuleBox);
      break;
    }
    case R_BC: {
      const rB = coreSegment(b0, b1, shapeB, poseB);
      collideCapsuleBox(out, b0, b1, rB, poseA.position, poseA.orientation, (shapeA as BoxShape).halfExtents, margin, ws.manifold.capsuleBox);
      flipContacts(out, start);
      break;
    }
    case R_SAT:
      collideBoxBox(out, poseA.position, poseA.orientation, (shapeA as BoxShape).halfExtents,
        poseB.position, poseB.orientation, (shapeB as BoxShape).halfExtents, margin, ws.manifold.boxBox);
      break;
    default:
    {
      const epaStatus = collideConvexConvex(out, shapeA, poseA, shapeB, poseB, margin, ws.manifold.convex);
      if (epaStatus === EpaStatus.Fallback) status = CollideStatus.Fallback;
      else if (epaStatus === EpaStatus.Degenerate) status = CollideStatus.Degenerate;
    }
  }
  if (out.overflow > overflow0) return CollideStatus.Overflow;
  return status;
}

/** World pose of a compound child: parent ∘ child. */
function childPose(out: Pose, parent: Readonly<Pose>, position: Readonly<Vec3>, orientation: Readonly<Quat>): Pose {
  quatRotate(out.position, parent.orientation, position);
  out.position[0] += parent.position[0];
  out.position[1] += parent.position[1];
  out.position[2] += parent.position[2];
  quatMultiply(out.orientation, parent.orientation, orientation);
  return out;
}

function worse(a: CollideStatus, b: CollideStatus): CollideStatus {
  return a > b ? a : b;
}

/**
 * Contacts between any two shapes (compounds iterate their children; each child pair gets its
 * own manifold of ≤ MANIFOLD_MAX_POINTS). Returns the worst status over the child pairs. `ws` as
 * for collideConvexPair.
 */
export function collideShapes(
  out: ContactBuffer,
  shapeA: Shape, poseA: Readonly<Pose>,
  shapeB: Shape, poseB: Readonly<Pose>,
  margin: number,
  ws: CollideWorkspace = new CollideWorkspace(),
): CollideStatus {
  const childPoseA = ws.childPoseA, childPoseB = ws.childPoseB;
  if (shapeA.kind === ShapeKind.Compound) {
    let status: CollideStatus = CollideStatus.Ok;
    for (const c of (shapeA as CompoundShape).children) {
      // childPoseA is reused by the loop; nested B children use childPoseB.
      const pa = childPose(childPoseA, poseA, c.position, c.orientation);
      if (shapeB.kind === ShapeKind.Compound) {
        for (const d of (shapeB as CompoundShape).children) {
          const pb = childPose(childPoseB, poseB, d.position, d.orientation);
          status = worse(status, collideConvexPair(out, c.shape, pa, d.shape, pb, margin, ws));
        }
      } else {
        status = worse(status, collideConvexPair(out, c.shape, pa, shapeB as ConvexShape, poseB, margin, ws));
      }
    }
    return status;
  }
  if (shapeB.kind === ShapeKind.Compound) {
    let status: CollideStatus = CollideStatus.Ok;
    for (const d of (shapeB as CompoundShape).children) {
      const pb = childPose(childPoseB, poseB, d.position, d.orientation);
      status = worse(status, collideConvexPair(out, shapeA as ConvexShape, poseA, d.shape, pb, margin, ws));
    }
    return status;
  }
  return collideConvexPair(out, shapeA as ConvexShape, poseA, shapeB as ConvexShape, poseB, margin, ws);
}

/**
 * A compound's children as polytopes (null for a child that is not a box or hull), for
 * collideShapeHeightfield's clearance test, with the workspace that test uses.
 */
export interface CompoundTerrainClearance {
  polytopes: readonly (Polytope | null)[];
  ws: PolytopeTerrainWorkspace;
  /**
   * [cells] A box or hull child whose radius is at most this many terrain cells takes the
   * closed-form polytope–terrain routine (as a body does: POLYTOPE_TERRAIN_MAX_CELLS) instead of
   * collideConvexHeightfield; 0 keeps the general routine for every child.
   */
  polytopeMaxCells: number;
}

/**
 * Contacts between any shape (A) and a heightfield terrain (B): compounds iterate their
 * children, each convex child goes through collideConvexHeightfield (point on the terrain,
 * normal out of the terrain, cellI/cellJ set). Returns the worst HeightfieldCollideStatus. `ws` as
 * for collideConvexPair. With `clearance` (a compound's children as polytopes), a box or hull
 * child provably farther than `margin` from the terrain (polytopeTerrainClear) is skipped: the
 * general routine would find nothing there (a robot chassis of several mesh hulls riding over
 * the hills spent most of its step proving that, element by element), and one within
 * `clearance.polytopeMaxCells` cells takes the closed-form collidePolytopeTerrain instead (the
 * general routine when it has more candidates than its workspace holds).
 */
export function collideShapeHeightfield(
  out: ContactBuffer,
  shape: Shape, pose: Readonly<Pose>,
  hf: Heightfield,
  margin: number,
  ws: CollideWorkspace = new CollideWorkspace(),
  clearance: CompoundTerrainClearance | null = null,
): HeightfieldCollideStatus {
  if (shape.kind !== ShapeKind.Compound) return collideConvexHeightfield(out, shape as ConvexShape, pose, hf, margin, ws.terrain);
  let status: HeightfieldCollideStatus = HeightfieldCollideStatus.Ok;
  const children = (shape as CompoundShape).children;
  for (let k = 0; k < children.length; k++) {
    const c = children[k];
    const pc = childPose(ws.childPoseA, pose, c.position, c.orientation);
    const poly = clearance !== null ? clearance.polytopes[k] : null;
    if (poly !== null) {
      const cl = clearance as CompoundTerrainClearance;
      if (polytopeTerrainClear(poly, pc.position, pc.orientation, hf, margin, cl.ws)) continue;
      if (poly.radius <= cl.polytopeMaxCells * Math.min(hf.dx, hf.dy)) {
        // the closed-form routine; with more candidates than it holds, the general one instead
        const n0 = out.count, o0 = out.overflow;
        cl.ws.margin = margin;
        const s = collidePolytopeTerrainInto(out, poly, pc.position, pc.orientation, hf, cl.ws);
        if (cl.ws.cand.overflow === 0) {
          if (s !== POLYTOPE_TERRAIN_OK && status < HeightfieldCollideStatus.Overflow) status = HeightfieldCollideStatus.Overflow;
          continue;
        }
        out.count = n0;
        out.overflow = o0;
      }
    }
    const s = collideConvexHeightfield(out, c.shape, pc, hf, margin, ws.terrain);
    if (s > status) status = s;
  }
  return status;
}
