/**
 * Reusable state of one cylinder–terrain query (engine API): the query and element frames, the
 * cell cull's record, the edge pass's state, the candidate contact buffer that
 * the cases A/B/C, the element walls and the edge pass fill before the manifold reduction, the
 * normal-group scratch of the reduction, and the per-query statistics. Every stage reads and
 * writes its state here (nothing passes through module variables). Allocate one per wheel (or
 * per thread) and pass it to every call; nothing inside grows.
 */
import type { CellRange } from './cell-range';
import {
  CYLINDER_TERRAIN_MAX_CANDIDATES,
  CYLINDER_TERRAIN_MAX_CELLS,
  MANIFOLD_MAX_NORMAL_GROUPS,
} from '../../constants';
import { ContactBuffer } from '../contact';
import type { MinMax } from '../../terrain/heightfield';
import { ManifoldGroups } from '../reduce-manifold';
import { BaseEllipseScratch } from './case-a-base-ellipse';
import { LineClip } from './case-b-side-trapezoid';
import { CellCull } from './cell-cull';
import { PendingWalls, WallRound } from './element-walls';
import { EdgePass } from './edge-pass';
import { CylinderQuery, ElementFrame } from './frame';

/**
 * Status bits of a query (0 = complete). A set bit never means "no contact": the contacts found
 * are still valid, some may be missing.
 */
export const CylinderTerrainStatus = {
  Ok: 0,
  /** Input was not finite, radius/height ≤ 0 or the axis not unit: no contacts were computed. */
  InvalidInput: 1,
  /** The candidate buffer filled up: some elements' contacts were dropped before reduction. */
  CandidateOverflow: 2,
  /** The caller's output buffer filled up: some reduced contacts were dropped. */
  OutputOverflow: 4,
  /** The footprint covered more than CYLINDER_TERRAIN_MAX_CELLS cells: only part was visited. */
  CellRangeTruncated: 8,
  /** More normal groups than MANIFOLD_MAX_NORMAL_GROUPS: extra normals were merged into the nearest group. */
  GroupOverflow: 16,
} as const;
export type CylinderTerrainStatus = number;

/** [m] Lowest and highest terrain height over the cells a query visits (a class with NaN-initialised fields: see frame.ts, CylinderQuery). */
class FootprintRange implements MinMax {
  min = NaN;
  max = NaN;
}

/**
 * Reusable scratch of the wheel query (`collideCylinderTerrainInto`): candidate contacts, normal
 * groups, cell lists. One per caller; nothing is allocated per query.
 */
export class CylinderTerrainWorkspace {
  /** Candidate contacts of the current query (before reduction). */
  readonly candidates: ContactBuffer;
  /** Normal groups of the reduction. */
  readonly groups: ManifoldGroups;
  /** Statistics of the last query (for tests, benchmarks and the GUI). */
  cellsVisited = 0;
  elementsTested = 0;
  candidateCount = 0;
  /** True when the last query took the exact flat-patch path. */
  flatPatch = false;

  /** Per footprint row (from the first row of the cell range): first and last column to visit. */
  readonly rowLo: Int32Array;
  readonly rowHi: Int32Array;
  /** The cylinder of the current query, the current element's frame, and one for the horizontal plane. */
  readonly query = new CylinderQuery();
  readonly frame = new ElementFrame();
  readonly horizontalFrame = new ElementFrame();
  readonly cull = new CellCull();
  readonly lineClip = new LineClip();
  readonly baseEllipse = new BaseEllipseScratch();
  /**
   * Elements whose own deepest point is still to be decided (element-walls.ts): those the face
   * screen ruled out, then those with a face contact elsewhere; and the decision's scratch.
   */
  readonly walls = new PendingWalls();
  readonly faceWalls = new PendingWalls();
  readonly reported: WallRound;
  readonly edgePass = new EdgePass();
  /** H_min/H_max of the footprint. */
  readonly range = new FootprintRange();
  /** The query's cell range (cell-range.ts), before any truncation to CYLINDER_TERRAIN_MAX_CELLS. */
  readonly cellRange: CellRange = { i0: 0, j0: 0, i1: -1, j1: -1 };

  constructor(candidateCapacity = CYLINDER_TERRAIN_MAX_CANDIDATES, maxGroups = MANIFOLD_MAX_NORMAL_GROUPS) {
    this.candidates = new ContactBuffer(candidateCapacity);
    this.groups = new ManifoldGroups(candidateCapacity, maxGroups);
    // A truncated range has at most CYLINDER_TERRAIN_MAX_CELLS cells, so at most that many rows.
    this.rowLo = new Int32Array(CYLINDER_TERRAIN_MAX_CELLS);
    this.rowHi = new Int32Array(CYLINDER_TERRAIN_MAX_CELLS);
    this.reported = new WallRound(candidateCapacity);
  }
}
