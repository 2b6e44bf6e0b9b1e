/**
 * The scratch of the body-pair manifold routines, composed into the one object the dispatcher
 * (dispatcher.ts) takes.
 */
import { BoxBoxWorkspace } from '../sat-box-box';
import { CapsuleBoxWorkspace } from './capsule-box';
import { CapsuleCapsuleWorkspace } from './capsule-capsule';
import { ConvexConvexWorkspace } from './convex-convex';

/**
 * Scratch of the body-pair manifold routines, one workspace per routine: box–box SAT,
 * convex–convex GJK/EPA clipping, capsule–box and capsule–capsule. Its owner creates it once
 * (the world's narrow phase, a query context) and passes it down; two owners never share a
 * buffer, so two worlds, two worker queries or a re-entrant call cannot see each other's
 * scratch. One pair at a time per workspace; nothing inside grows.
 */
export class ManifoldWorkspace {
  /** collideBoxBox / satBoxBox. */
  readonly boxBox = new BoxBoxWorkspace();
  /** collideConvexConvex. */
  readonly convex = new ConvexConvexWorkspace();
  /** collideCapsuleBox. */
  readonly capsuleBox = new CapsuleBoxWorkspace();
  /** collideCapsuleCapsule. */
  readonly capsuleCapsule = new CapsuleCapsuleWorkspace();
}
