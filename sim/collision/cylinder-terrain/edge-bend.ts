/**
 * How much a terrain edge bends: the classification that keeps ghost contacts off internal edges
 * (the idea of Jolt's ActiveEdges, computed here from four heights with no square root).
 *
 * bend = (height the element's plane predicts at the neighbour element's far vertex − the actual
 *         height there) / horizontal distance of that vertex from the edge
 *
 *   |bend| ≤ CYLINDER_TERRAIN_FLAT_EDGE_BEND   flat: the two faces are one plane; a seam point is
 *                                              never the deepest point nor the end of a patch;
 *   bend < −CYLINDER_TERRAIN_FLAT_EDGE_BEND    concave (valley): ends a face patch (cases A–C keep
 *                                              their points there) but never pokes into the
 *                                              cylinder deeper than the faces: no edge contact;
 *   bend <  CYLINDER_TERRAIN_ACTIVE_EDGE_BEND  gently convex: an edge point may be the deepest
 *                                              point, but it takes the face normal;
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
import { CYLINDER_TERRAIN_ACTIVE_EDGE_BEND, CYLINDER_TERRAIN_FLAT_EDGE_BEND } from '../../constants';
import type { Heightfield } from '../../terrain/heightfield';

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
 * Class of edge `edge` of cell (i, j). A small integer rather than the bend itself: hot callers
 * only compare against the thresholds, and an integer result is never boxed on the heap.
 */
export function cellEdgeClass(hf: Heightfield, i: number, j: number, edge: CellEdge): EdgeClass {
  // The bend (see the header; +∞ on the grid border), computed here rather than returned by a
  // helper: a double returned from a call that is not inlined is boxed on the heap.
  const H = hf.heights;
  const c = hf.cols;
  const kv = j * c + i;
  const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + c], h3 = H[kv + c + 1];
  let b: number;
  switch (edge) {
    case CellEdge.Bottom:
      b = j === 0 ? Infinity : (h1 + h0 - h2 - H[kv - c + 1]) / hf.dy;
      break;
    case CellEdge.Left:
      b = i === 0 ? Infinity : (h2 + h0 - h1 - H[kv + c - 1]) / hf.dx;
      break;
    case CellEdge.Top:
      b = j + 1 >= hf.cellsY ? Infinity : (h2 + h3 - h1 - H[kv + 2 * c]) / hf.dy;
      break;
    case CellEdge.Right:
      b = i + 1 >= hf.cellsX ? Infinity : (h1 + h3 - h2 - H[kv + 2]) / hf.dx;
      break;
    default: {
      if (hf.cellIsRectangle(i, j)) return EdgeClass.Flat;
      const dx = hf.dx, dy = hf.dy;
      b = ((h1 + h2 - h0 - h3) * Math.sqrt(dx * dx + dy * dy)) / (dx * dy);
    }
  }
  if (b >= CYLINDER_TERRAIN_ACTIVE_EDGE_BEND) return EdgeClass.Active;
  if (b > CYLINDER_TERRAIN_FLAT_EDGE_BEND) return EdgeClass.Convex;
  if (b < -CYLINDER_TERRAIN_FLAT_EDGE_BEND) return EdgeClass.Concave;
  return EdgeClass.Flat;
}

/**
 * Contact feature ids (ContactBuffer.feature, for persistent manifolds and the GUI): together
 * with the cell they name the terrain feature a contact came from, stable while a wheel moves.
 *   face contacts (cases A–C):  the ElementKind, 0 rectangle, 1 lower triangle, 2 upper triangle;
 *   edge-pass contacts:         3 + 4·CellEdge (bottom, right, top, left, diagonal of the cell);
 *   flat patch:                 0.
 */
export function edgeFeature(edge: CellEdge): number {
  return 3 + 4 * edge;
}
