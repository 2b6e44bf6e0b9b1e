/**
 * Feature ids of body-pair contacts, and the routine codes stored in ContactBuffer.kind.
 *
 * A feature id names the pair of geometric features that produced a contact point, so a
 * persistent manifold can recognise "the same point" next frame and keep its accumulated
 * impulses (warm starting). It must not depend on the pose, only on topology. 32 bits:
 *
 *     bit  31      30..24        23..16          15..8        7..0
 *         [refIsB][ref face 7b ][inc face 8b ][ tag X 8b ][ tag Y 8b ]
 *
 * Face contacts (reference face vs incident face clipping): a clipped point that is an original
 * incident vertex v has X = 0xFF, Y = v; a point created where polygon edge with tag E crossed
 * reference side plane s has X = E, Y = CLIP_SIDE_TAG | s. Incident edges have tags 0..126;
 * reference side planes CLIP_SIDE_TAG | s. Indices wrap at the field width (hulls with more
 * than 127 faces may alias; a false match only warm starts with a slightly wrong impulse).
 * Edge–edge and single-point contacts use ref face = edge of A, inc face = edge of B, X = Y = 0xFE.
 */

/** Routine that produced a body-pair contact (ContactBuffer.kind for body pairs; wheels use WheelContactKind). */
export const PairContactKind = {
  SphereSphere: 16,
  SphereConvex: 17,
  CapsuleCapsule: 18,
  CapsuleConvex: 19,
  BoxBoxFace: 20,
  BoxBoxEdge: 21,
  ConvexFace: 22,
  ConvexPoint: 23,
  HeightfieldFace: 24,
  HeightfieldEdge: 25,
  /** An inactive (gently bent) terrain crease touching a round body: carries the face normal. */
  HeightfieldCrease: 26,
} as const;
export type PairContactKind = (typeof PairContactKind)[keyof typeof PairContactKind];

/** Tag bit that marks a reference side plane (vs an incident edge) in clipping tags. */
export const CLIP_SIDE_TAG = 0x80;
/** X field of a point that is an original incident vertex. */
export const TAG_VERTEX = 0xff;
/** X = Y field of a point from an edge–edge or single-point case. */
export const TAG_EDGE_PAIR = 0xfe;

/** Packs a feature id (see the bit layout above). All inputs are masked to their field. */
export function packFeature(refIsB: boolean, refFace: number, incFace: number, x: number, y: number): number {
  return (
    ((refIsB ? 1 : 0) << 31) |
    ((refFace & 0x7f) << 24) |
    ((incFace & 0xff) << 16) |
    ((x & 0xff) << 8) |
    (y & 0xff)
  ) >>> 0;
}

/** Same contact seen with A and B swapped keeps its id except for the refIsB bit. */
export function flipFeatureOwner(id: number): number {
  return (id ^ 0x80000000) >>> 0;
}
