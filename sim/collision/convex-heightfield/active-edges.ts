/**
 * Active edges of the heightfield and the edge/vertex contacts on them (step 3 of collide.ts;
 * Jolt's ActiveEdges idea). A crease between two elements is ACTIVE when it is convex and bent
 * by more than HEIGHTFIELD_ACTIVE_EDGE_COS (10°, the grouping angle): only there may a contact
 * carry an edge normal. Flat, gently bent and concave creases are inactive: the neighbouring
 * elements' face tests already cover them, so an edge normal there would be a ghost contact.
 * Border edges of the grid are active (nothing lies beyond them).
 *
 * Edge k of each element (polygon edge k, element-shape.ts), as a side of its cell
 * (4 = the V1–V2 diagonal):
 *   rectangle V0V1 bottom, V1V3 right, V3V2 top, V2V0 left
 *   lower     V0V1 bottom, V1V2 diagonal, V2V0 left
 *   upper     V1V3 right,  V3V2 top,      V2V1 diagonal
 * The neighbour across a cell side is the adjacent cell's element holding the opposite side:
 * top and right sides belong to the upper triangle, bottom and left to the lower (or the
 * rectangle). The crease is convex iff the neighbour's centroid lies below this element's plane.
 */
import {
  GEOMETRIC_EPSILON,
  HEIGHTFIELD_ACTIVE_EDGE_COS,
  HEIGHTFIELD_EDGE_CONE_SLACK,
  HEIGHTFIELD_SAME_NORMAL_COS,
} from '../../constants';
import type { Vec3 } from '../../math/vec3';
import type { ConvexShape, Pose } from '../../shapes/shape';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import { GjkStatus, gjkDistance } from '../gjk';
import type { FacePolygon } from '../manifold/face-polygon';
import { PairContactKind, TAG_EDGE_PAIR, packFeature } from '../manifold/feature-id';
import { elementCorner } from './element-shape';
import type { ConvexHeightfieldWorkspace } from './workspace';

/**
 * Is the crease along polygon edge k of element (i, j, kind) active? Writes this element's unit
 * normal to `nThis` and the neighbour's to `nOther`; beyond a border edge the terrain ends like
 * a cliff, so the neighbour is a vertical wall facing out (borderWallNormal).
 */
export function edgeActive(nThis: Vec3, nOther: Vec3, hf: Heightfield, i: number, j: number, kind: ElementKind, k: number): boolean {
  let side: number; // 0 bottom, 1 right, 2 top, 3 left, 4 diagonal
  if (kind === ElementKind.Rectangle) side = k;
  else if (kind === ElementKind.LowerTriangle) side = k === 0 ? 0 : k === 1 ? 4 : 3;
  else side = k === 0 ? 1 : k === 1 ? 2 : 4;
  let ni = i, nj = j;
  let nkind: ElementKind;
  if (side === 4) {
    nkind = kind === ElementKind.LowerTriangle ? ElementKind.UpperTriangle : ElementKind.LowerTriangle;
  } else {
    if (side === 0) nj = j - 1;
    else if (side === 1) ni = i + 1;
    else if (side === 2) nj = j + 1;
    else ni = i - 1;
    if (ni < 0 || nj < 0 || ni >= hf.cellsX || nj >= hf.cellsY) {
      hf.elementPlaneInto(nThis, i, j, kind);
      borderWallNormal(nOther, hf, i, j, kind, k);
      return true;
    }
    // the neighbour's side facing us is the opposite one: bottom↔top, left↔right
    const upperHolds = side === 0 || side === 3; // we go down/left: the neighbour's top/right side
    nkind = hf.cellIsRectangle(ni, nj) ? ElementKind.Rectangle : upperHolds ? ElementKind.UpperTriangle : ElementKind.LowerTriangle;
  }
  const kP = hf.elementPlane(nThis, i, j, kind);
  hf.elementPlaneInto(nOther, ni, nj, nkind);
  if (nThis[0] * nOther[0] + nThis[1] * nOther[1] + nThis[2] * nOther[2] >= HEIGHTFIELD_ACTIVE_EDGE_COS) return false;
  const n = nkind === ElementKind.Rectangle ? 4 : 3;
  let sx = 0, sy = 0, sz = 0;
  for (let c = 0; c < n; c++) {
    const corner = elementCorner(nkind, c);
    const ci = ni + (corner & 1), cj = nj + (corner >> 1);
    sx += hf.vertexX(ci);
    sy += hf.vertexY(cj);
    sz += hf.height(ci, cj);
  }
  // s(P) = k_P − P·n_P > 0 below the plane (paper's sign)
  const s = kP - (sx * nThis[0] + sy * nThis[1] + sz * nThis[2]) / n;
  return s > GEOMETRIC_EPSILON;
}

/**
 * Outward horizontal unit normal of polygon edge k of element (i, j, kind): the wall standing
 * on a border edge. The polygon runs CCW seen from above, so outward is the right of a → b.
 */
function borderWallNormal(out: Vec3, hf: Heightfield, i: number, j: number, kind: ElementKind, k: number): void {
  const n = kind === ElementKind.Rectangle ? 4 : 3;
  const ca = elementCorner(kind, k), cb = elementCorner(kind, k + 1 === n ? 0 : k + 1);
  const ex = hf.vertexX(i + (cb & 1)) - hf.vertexX(i + (ca & 1));
  const ey = hf.vertexY(j + (cb >> 1)) - hf.vertexY(j + (ca >> 1));
  const l = Math.sqrt(ex * ex + ey * ey);
  out[0] = ey / l;
  out[1] = -ex / l;
  out[2] = 0;
}

/** True if some edge of element (i, j, kind) (polygon `poly`) is active. */
export function anyEdgeActive(ws: ConvexHeightfieldWorkspace, hf: Heightfield, i: number, j: number, kind: ElementKind): boolean {
  for (let k = 0; k < ws.elemPoly.count; k++) if (edgeActive(ws.dir, ws.nQ, hf, i, j, kind, k)) return true;
  return false;
}

/** Distance from point (px, py, pz) to edge k of `poly`, squared. */
export function edgeDistanceSq(poly: FacePolygon, k: number, px: number, py: number, pz: number): number {
  const n = poly.count, v = poly.xyz;
  const k1 = k + 1 === n ? 0 : k + 1;
  const ax = v[3 * k], ay = v[3 * k + 1], az = v[3 * k + 2];
  const ex = v[3 * k1] - ax, ey = v[3 * k1 + 1] - ay, ez = v[3 * k1 + 2] - az;
  const e2 = ex * ex + ey * ey + ez * ez;
  let t = e2 > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / e2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const dx = ax + t * ex - px, dy = ay + t * ey - py, dz = az + t * ez - pz;
  return dx * dx + dy * dy + dz * dz;
}

/** Result of activeEdgeContact. */
export const EdgeContactResult = { None: 0, Added: 1, Overflow: 2 } as const;

/**
 * Step 3 for element (i, j, kind) (ws.elemPoly, ws.element, plane normal ws.nP), which gave no
 * face contact: GJK between the body and the element; the contact is kept only if the element's
 * witness point lies on an ACTIVE edge or vertex and the normal lies in that crease's normal
 * cone. Appends to ws.cand.
 */
export function activeEdgeContact(
  ws: ConvexHeightfieldWorkspace, hf: Heightfield, i: number, j: number, kind: ElementKind,
  shape: ConvexShape, pose: Readonly<Pose>, margin: number,
): number {
  const gjk = ws.gjk, nP = ws.nP, nE = ws.dir, nQ = ws.nQ;
  gjkDistance(gjk, shape, pose, ws.element, ws.identity, undefined, ws.gjkWs);
  if (gjk.status === GjkStatus.Degenerate || gjk.status === GjkStatus.Intersecting) return EdgeContactResult.None;
  if (!(gjk.distance <= margin) || !gjk.normalValid) return EdgeContactResult.None;
  const wx = gjk.pointB[0], wy = gjk.pointB[1], wz = gjk.pointB[2];
  // contact normal: from the terrain point to the body = −(A→B normal)
  const cnx = -gjk.normal[0], cny = -gjk.normal[1], cnz = -gjk.normal[2];
  if (cnx * nP[0] + cny * nP[1] + cnz * nP[2] >= HEIGHTFIELD_SAME_NORMAL_COS) return EdgeContactResult.None; // a face contact of a neighbour
  // which edges does the witness lie on?
  const scale = Math.max(hf.dx, hf.dy);
  const onTol = GEOMETRIC_EPSILON * GEOMETRIC_EPSILON * Math.max(1, scale * scale);
  // The normal must also lie in the crease's normal cone (Voronoi region of the edge):
  // on the arc between the two face normals for an edge, on the outer side of every
  // adjacent face for a vertex. A GJK normal outside it comes from the body being beside
  // or under the sheet of one element (inside the solid terrain): not an edge contact.
  // Every outward normal of a heightfield (faces, and convex combinations of them at
  // creases) points up: cnz > 0 is necessary. On an edge the cone is the arc between the
  // two face normals: n·n1 ≥ n1·n2 and n·n2 ≥ n1·n2. At a vertex (two edges of this
  // element) the cone spans all faces around it; we only bound it by the arcs' lower
  // bound on this element's normal.
  let active = false, onEdge = false, edgeId = 0, edges = 0, arcOk = true, minC12 = 1;
  for (let k = 0; k < ws.elemPoly.count; k++) {
    if (edgeDistanceSq(ws.elemPoly, k, wx, wy, wz) > onTol) continue;
    onEdge = true;
    edges++;
    const isActive = edgeActive(nE, nQ, hf, i, j, kind, k); // this element's normal in nE, the neighbour's in nQ
    const c12 = nE[0] * nQ[0] + nE[1] * nQ[1] + nE[2] * nQ[2];
    if (c12 < minC12) minC12 = c12;
    if (isActive) {
      active = true;
      edgeId = k;
      const c1 = cnx * nE[0] + cny * nE[1] + cnz * nE[2];
      const c2 = cnx * nQ[0] + cny * nQ[1] + cnz * nQ[2];
      if (c1 < c12 - HEIGHTFIELD_EDGE_CONE_SLACK || c2 < c12 - HEIGHTFIELD_EDGE_CONE_SLACK) arcOk = false;
    }
  }
  if (!onEdge || !active || !(cnz > 0)) return EdgeContactResult.None;
  if (edges === 1 && !arcOk) return EdgeContactResult.None;
  if (edges > 1 && cnx * nP[0] + cny * nP[1] + cnz * nP[2] < minC12 - HEIGHTFIELD_EDGE_CONE_SLACK) return EdgeContactResult.None;
  const k2 = ws.cand.push(wx, wy, wz, cnx, cny, cnz, -gjk.distance, PairContactKind.HeightfieldEdge, i, j,
    packFeature(true, kind, ((i & 0xf) | ((j & 0xf) << 4)), edgeId, TAG_EDGE_PAIR));
  return k2 < 0 ? EdgeContactResult.Overflow : EdgeContactResult.Added;
}
