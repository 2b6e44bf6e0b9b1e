/**
 * How much a terrain edge bends: the classification that keeps ghost contacts off internal edges
 * (the idea of Jolt's ActiveEdges, computed here from four heights with no square root). It is
 * computed once per cell when a Heightfield is built (packed with the rectangle flag into
 * Heightfield.cellBits, 1 byte per cell) and read by the wheel–terrain narrow phase.
 *
 * bend = (height the element's plane predicts at the neighbour element's far vertex − the actual
 *         height there) / horizontal distance of that vertex from the edge
 *
 *   |bend| ≤ CYLINDER_TERRAIN_FLAT_EDGE_BEND   flat: the two faces are one plane; a seam point is
 *                                              never the deepest point nor the end of a patch;
 *   bend < −CYLINDER_TERRAIN_FLAT_EDGE_BEND    concave (valley): ends a face patch (cases A–C keep
 *                                              their points there) but never pokes into the
 *                                              cylinder deeper than the faces: no edge contact;
 *   bend <  CYLINDER_TERRAIN_ACTIVE_EDGE_BEND  gently convex: an edge point may poke into the
 *                                              cylinder, but it takes a face normal (and the faces'
 *                                              own contacts mostly cover it: collide.ts, edgeMayAdd);
 *   otherwise                                  active (ridge, curb): its own radial/axial normal.
 *
 * A grid-border edge has no neighbour: +∞ (the terrain really ends there).
 *
 * Edge names of cell (i, j) and the neighbour element across each (its far vertex in brackets):
 *
 *                 top: V2–V3  [ (i, j+2) of cell (i, j+1) ]
 *          V2 ●───────────────● V3
 *   left:     │ ╲   upper     │   right: V1–V3  [ (i+2, j) of cell (i+1, j) ]
 *   V0–V2     │   ╲ diagonal  │
 *   [(i−1,    │ lower ╲ V1–V2 │   diagonal: the other triangle's far vertex (V3 or V0)
 *    j+1)]    │         ╲     │
 *          V0 ●───────────────● V1
 *                 bottom: V0–V1  [ (i+1, j−1) of cell (i, j−1) ]
 *
 * The far vertices are the ones of the neighbour's element that contains the shared edge
 * (rectangle, or the triangle on that side of the neighbour's V1–V2 diagonal), so the test is
 * exact for both element kinds. Bottom/left/diagonal are seen from the lower triangle (or the
 * rectangle), top/right from the upper triangle (or the rectangle) — the element that owns them.
 */
import { CYLINDER_TERRAIN_ACTIVE_EDGE_BEND, CYLINDER_TERRAIN_FLAT_EDGE_BEND } from '../constants';

export const CellEdge = {
  Bottom: 0,
  Right: 1,
  Top: 2,
  Left: 3,
  Diagonal: 4,
} as const;
export type CellEdge = (typeof CellEdge)[keyof typeof CellEdge];

/** What an edge's bend means for contacts (the header's three ranges, convex split in two). */
export const EdgeClass = {
  /** |bend| ≤ flat threshold: one plane on both sides. */
  Flat: 0,
  /** Valley: ends face patches, never pokes. */
  Concave: 1,
  /** Gently convex: may poke, with a face normal. */
  Convex: 2,
  /** Ridge, curb edge or grid border: pokes with its own normal, kind 'edge'. */
  Active: 3,
} as const;
export type EdgeClass = (typeof EdgeClass)[keyof typeof EdgeClass];

/**
 * Bit layout of Heightfield.cellBits: bit 0 the rectangle flag, then the EdgeClass of the cell's
 * bottom, left and diagonal edges, two bits each. A cell's top and right edges are the bottom and
 * left edges of the cells above and to the right (the bend is the same seen from either side);
 * on the grid border they are Active.
 */
export const CELL_RECTANGLE_BIT = 1;
export const CELL_BOTTOM_SHIFT = 1;
export const CELL_LEFT_SHIFT = 3;
export const CELL_DIAGONAL_SHIFT = 5;

/**
 * Class of a bend given as its numerator (a drop in metres) and the far vertex's horizontal
 * distance from the edge: the thresholds are scaled by the distance instead of dividing.
 */
export function bendClass(drop: number, distance: number): EdgeClass {
  if (drop >= CYLINDER_TERRAIN_ACTIVE_EDGE_BEND * distance) return EdgeClass.Active;
  if (drop > CYLINDER_TERRAIN_FLAT_EDGE_BEND * distance) return EdgeClass.Convex;
  if (drop < -CYLINDER_TERRAIN_FLAT_EDGE_BEND * distance) return EdgeClass.Concave;
  return EdgeClass.Flat;
}

/**
 * Classifies every cell's bottom, left and diagonal edge into `bits` (which already holds the
 * rectangle flags; see the layout above). Run once when a heightfield is built.
 */
export function classifyCellEdges(
  bits: Uint8Array, H: Float64Array, cols: number, cellsX: number, cellsY: number, dx: number, dy: number,
): void {
  const diag = (dx * dy) / Math.sqrt(dx * dx + dy * dy);
  for (let j = 0; j < cellsY; j++) {
    for (let i = 0; i < cellsX; i++) {
      const kv = j * cols + i, kc = j * cellsX + i;
      const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + cols], h3 = H[kv + cols + 1];
      const bottom = j === 0 ? EdgeClass.Active : bendClass(h1 + h0 - h2 - H[kv - cols + 1], dy);
      const left = i === 0 ? EdgeClass.Active : bendClass(h2 + h0 - h1 - H[kv + cols - 1], dx);
      const diagonal = (bits[kc] & CELL_RECTANGLE_BIT) !== 0 ? EdgeClass.Flat : bendClass(h1 + h2 - h0 - h3, diag);
      bits[kc] = (bits[kc] & CELL_RECTANGLE_BIT) | (bottom << CELL_BOTTOM_SHIFT) | (left << CELL_LEFT_SHIFT) | (diagonal << CELL_DIAGONAL_SHIFT);
    }
  }
}
