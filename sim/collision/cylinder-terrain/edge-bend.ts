/**
 * Terrain edge classes as the wheel–terrain algorithm uses them. The classification itself (what
 * a bend is, the flat / concave / convex / active ranges, the edge names of a cell) lives with
 * the terrain, ../../terrain/edge-class.ts: it is computed once per cell when the heightfield is
 * built, and read through Heightfield.edgeClass (the narrow phase decodes Heightfield.cellBits).
 */
import { CellEdge, EdgeClass } from '../../terrain/edge-class';

export { CellEdge, EdgeClass };

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
