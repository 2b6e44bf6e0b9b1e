/**
 * The result of a cast against a heightfield (ray, sphere, convex shape, wheel), in the terrain
 * contact convention: `point` on the terrain surface at the time of impact, `normal` unit, out of
 * the terrain toward the body (the direction the terrain pushes it), and the element hit, named
 * as the paper classifies it (cell (i, j), rectangle or lower/upper triangle).
 */
import type { Vec3 } from '../../math/vec3';
import { ElementKind } from '../../terrain/heightfield';
import { SweptFeature, SweptStatus } from '../swept/swept-sphere';
import { GridWalkStats } from './grid-walk';

/**
 * The output record of the terrain casts: status, time of impact, point, normal, the cell and
 * element hit, walk statistics.
 */
export class TerrainCastResult {
  /** SweptStatus: Hit, Miss, InitiallyOverlapping (toi 0), Degenerate (bad input: nothing else valid). */
  status: SweptStatus = SweptStatus.Miss;
  /** Fraction of the motion at first contact ∈ [0, 1]; 1 on a miss. */
  toi = 1;
  /** [m] Touching point on the terrain surface at toi. */
  readonly point: Vec3 = [0, 0, 0];
  /** Unit normal out of the terrain, toward the body. */
  readonly normal: Vec3 = [0, 0, 1];
  /** Cell of the element hit. */
  cellI = -1;
  cellJ = -1;
  /** Element of that cell (paper's classification). */
  element: ElementKind = ElementKind.Rectangle;
  /** Sphere and ray casts: face, edge or vertex of the element (SweptFeature.None for convex casts). */
  feature: SweptFeature = SweptFeature.None;
  /** The grid walk hit its step cap (HEIGHTFIELD_CAST_MAX_STEPS): later cells were not tested. */
  truncated = false;
  /** A GJK cast ran out of iterations on the hit element: toi is a safe lower bound. */
  approximate = false;
  /** What the cast's grid walk did (steps, ranges skipped, cells visited); zeros when it did not walk. */
  readonly walk = new GridWalkStats();
  /** Convex casts: GJK casts run against elements, and their iterations in total (0 for sphere and ray casts). */
  elementCasts = 0;
  castIterations = 0;

  get touched(): boolean {
    return this.status === SweptStatus.Hit || this.status === SweptStatus.InitiallyOverlapping;
  }

  reset(): this {
    this.status = SweptStatus.Miss;
    this.toi = 1;
    this.cellI = this.cellJ = -1;
    this.element = ElementKind.Rectangle;
    this.feature = SweptFeature.None;
    this.truncated = false;
    this.approximate = false;
    this.walk.steps = this.walk.rangesSkipped = this.walk.cellsVisited = 0;
    this.elementCasts = 0;
    this.castIterations = 0;
    return this;
  }
}
