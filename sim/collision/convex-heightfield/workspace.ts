/**
 * Reusable state of one convex body vs heightfield query (collide.ts): the candidate contacts
 * and the reduction's scratch, the current element (polygon, GJK shape, plane normal), the
 * body's world vertices and supporting polygon, and the elements kept for the crease fallback.
 * Every stage reads and writes its state here; nothing passes through module variables. One
 * workspace serves one query at a time; nothing inside grows.
 */
import { HEIGHTFIELD_CANDIDATE_CAPACITY, HEIGHTFIELD_FALLBACK_ELEMENTS, HEIGHTFIELD_MAX_CELLS_PER_QUERY, HULL_MAX_VERTICES } from '../../constants';
import type { Vec3 } from '../../math/vec3';
import type { Aabb, Pose } from '../../shapes/shape';
import { SupportFace } from '../../shapes/shape';
import type { MinMax } from '../../terrain/heightfield';
import { ContactBuffer } from '../contact';
import { GjkResult, GjkWorkspace } from '../gjk';
import { ClipWorkspace } from '../manifold/clip-faces';
import { FacePolygon } from '../manifold/face-polygon';
import { ManifoldGroups } from '../reduce-manifold';
import { ElementShape } from './element-shape';

/** The face-plane cull uses at most this many face planes (its cost per grid vertex grows with them; one mask bit each). */
export const CULL_MAX_FACES = 32;

/**
 * Scratch of one convex body vs heightfield query (collideConvexHeightfield,
 * collideShapeHeightfield), created once by its owner (the world's narrow phase, a query
 * context) and passed in: one query at a time per workspace; nothing inside grows.
 */
export class ConvexHeightfieldWorkspace {
  /** Candidate contacts before reduction; `spare` takes the reduced ones when `cand` fills up (then they swap). */
  cand = new ContactBuffer(HEIGHTFIELD_CANDIDATE_CAPACITY);
  spare = new ContactBuffer(HEIGHTFIELD_CANDIDATE_CAPACITY);
  readonly groups = new ManifoldGroups(HEIGHTFIELD_CANDIDATE_CAPACITY);

  /** The current element: reference polygon for clipping, flat shape for GJK, unit plane normal n_P. */
  readonly elemPoly = new FacePolygon();
  readonly element = new ElementShape();
  readonly nP: Vec3 = [0, 0, 0];
  /** A neighbouring element's normal (active-edges.ts). */
  readonly nQ: Vec3 = [0, 0, 0];
  readonly gjk = new GjkResult();
  /** The element (as a flat shape) sits in world coordinates: GJK sees it at this identity pose (never written). */
  readonly identity: Readonly<Pose> = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  /** Scratch of the face clipping (manifoldBetweenFaces). */
  readonly clip = new ClipWorkspace();
  readonly gjkWs = new GjkWorkspace();

  /** World vertices of a box or hull body (nVerts = 0 for curved shapes), filled once per query. */
  readonly verts = new Float64Array(HULL_MAX_VERTICES * 3);
  nVerts = 0;

  /**
   * World face planes of a box or hull body (n, d with n·x ≤ d inside; nCull = 0 for curved
   * shapes; a subset for hulls of more than CULL_MAX_FACES faces), filled once per query for the
   * face-plane cull (face-contacts.ts, loadCullMasks).
   */
  readonly cullPlanes = new Float64Array(4 * CULL_MAX_FACES);
  nCull = 0;
  /** Scratch of the choice of a many-faced hull's cull planes (face indices, world n_z). */
  readonly cullPick = new Int32Array(CULL_MAX_FACES);
  readonly cullScore = new Float64Array(CULL_MAX_FACES);
  /** The face-plane cull is on (tests turn it off to compare against the uncut element loop). */
  faceCull = true;
  /**
   * Per grid vertex of the query's cell range: the face planes its solid column lies beyond by
   * more than the margin, one bit each (face-contacts.ts, loadCullMasks). A range of at most
   * HEIGHTFIELD_MAX_CELLS_PER_QUERY cells has at most twice that many vertices, plus 2.
   */
  readonly cullMask = new Int32Array(2 * HEIGHTFIELD_MAX_CELLS_PER_QUERY + 2);

  /** The body's supporting feature along −n_P in world space, and what it was computed from. */
  readonly bodyPoly = new FacePolygon();
  readonly face = new SupportFace();
  /** False until bodyPoly holds the feature of this query (the cache is per query). */
  polyCacheValid = false;
  cachedCount = 0;
  readonly cachedFirst: Vec3 = [0, 0, 0];
  readonly cachedSecond: Vec3 = [0, 0, 0];
  /** Unit normal of bodyPoly's plane (valid for polygons of ≥ 3 vertices). */
  facePlaneValid = false;
  readonly faceN: Vec3 = [0, 0, 0];
  /** The body's support point of the last support query (body-relative, world axes). */
  readonly sup: Vec3 = [0, 0, 0];
  /**
   * bodySupportGap's numbers: [0..2] in: the direction d, [3..5] in: the plane point o, [6] out:
   * the gap (doubles through a typed array: V8 boxes a double passed to or returned from a call
   * it does not inline).
   */
  readonly gapArgs = new Float64Array(7);

  /** Elements without a face contact, for the inactive-crease fallback: i, j, kind per entry. */
  readonly fallback = new Int32Array(HEIGHTFIELD_FALLBACK_ELEMENTS * 3);
  fallbackCount = 0;
  /** Cells of the query (footprint.ts's range, inclusive) and the lowest z of the grown AABB. */
  i0 = 0;
  j0 = 0;
  i1 = -1;
  j1 = -1;
  minZ = 0;
  /** The body's world AABB grown by the margin. */
  readonly boxMin: Vec3 = [0, 0, 0];
  readonly boxMax: Vec3 = [0, 0, 0];

  /** Scratch of the stages (no meaning between calls). */
  readonly localAabb: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
  readonly range: MinMax = { min: 0, max: 0 };
  readonly dir: Vec3 = [0, 0, 0];
  readonly tmp: Vec3 = [0, 0, 0];
}
