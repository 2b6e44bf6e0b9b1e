/**
 * Convex body vs heightfield terrain — the entry point: chassis boxes, rocks (hulls), spheres,
 * capsules and cylinders lying on or sliding over the ground. The body is A, the terrain is B,
 * so the engine convention of contact.ts reads: point on the terrain surface, normal out of the
 * terrain (into the body), depth ≥ −margin; cellI/cellJ name the terrain cell.
 *
 * Pipeline, one file per stage:
 *   1. Broad phase (here; the paper's §III step 1, for any convex shape): the body's world AABB
 *      gives the cell range; the min/max pyramid (Heightfield.cellRangeMinMax) rejects the
 *      whole query when the terrain's highest vertex is below the body. A planar range is one
 *      element (element-shape.ts, loadPlanarPatch: the paper's flat-patch shortcut, any plane).
 *      For a box or hull body, an element whose solid column lies more than the margin beyond
 *      one of the body's face planes is skipped before it is loaded (face-contacts.ts,
 *      loadCullMasks: one mask of planes per grid vertex).
 *   2. Face contacts per element (face-contacts.ts; elements: element-shape.ts): the body's
 *      supporting feature clipped against the element's prism, and the body's vertices inside
 *      it, all with the element's FACE normal (no ghost contacts on flat or gently bent ground).
 *   3. Edge/vertex contacts, only for elements that gave no face contact (active-edges.ts): GJK
 *      between the body and the element, kept only on an ACTIVE crease (convex, bent by more
 *      than 10°). Penetrations through an edge deeper than the margin are reported by the face
 *      tests of the elements the body sinks into.
 *   5. (Run before 4.) If nothing was found although the body dips below some element planes,
 *      the inactive-crease fallback (crease-fallback.ts).
 *   4. Duplicates merged (a point on an element border is produced by every element sharing
 *      it), then the engine's one manifold reduction (../reduce-manifold.ts): normal groups
 *      within MANIFOLD_GROUP_ANGLE, ≤ MANIFOLD_MAX_POINTS each, so a box on a 5 cm grid gets its
 *      4 corners, not a point per cell.
 *
 * All state lives in a ConvexHeightfieldWorkspace (workspace.ts); nothing allocates per call.
 */
import { GEOMETRIC_EPSILON, HEIGHTFIELD_FALLBACK_ELEMENTS, HEIGHTFIELD_MAX_CELLS_PER_QUERY, MANIFOLD_GROUP_COS } from '../../constants';
import { quatRotate } from '../../math/quat';
import type { ConvexShape, Pose } from '../../shapes/shape';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import type { ContactBuffer } from '../contact';
import { manifoldBetweenFaces } from '../manifold/clip-faces';
import { PairContactKind } from '../manifold/feature-id';
import { ReduceManifoldStatus, reduceManifoldInto } from '../reduce-manifold';
import { activeEdgeContact, anyEdgeActive, EdgeContactResult } from './active-edges';
import { inactiveCreaseContacts } from './crease-fallback';
import { loadElement, loadPlanarPatch } from './element-shape';
import { bodySupportGap, facePlaneAboveElement, loadBodyFacePlanes, loadBodyVertices, loadCullMasks, outsidePrism, supportingPolygon, vertexContacts } from './face-contacts';
import type { ConvexHeightfieldWorkspace } from './workspace';

/** How a convex shape vs terrain query ended. */
export const HeightfieldCollideStatus = {
  Ok: 0,
  /** The body's footprint covers more than HEIGHTFIELD_MAX_CELLS_PER_QUERY cells: only the first were tested. */
  TooManyCells: 1,
  /** The candidate or output buffer filled up; contacts were reduced early or dropped. */
  Overflow: 2,
  /** Non-finite pose: nothing tested. */
  Degenerate: 3,
} as const;
export type HeightfieldCollideStatus = (typeof HeightfieldCollideStatus)[keyof typeof HeightfieldCollideStatus];

/** Room one element may need in the candidate buffer before we compact (clip output ≤ 4 after reduction). */
const ELEMENT_ROOM = 8;

/**
 * Appends the contacts of convex `shape` at `pose` against terrain `hf` to `out` (see the file
 * header for the convention) and returns a status. `ws` is the caller's workspace (the world's
 * narrow phase, a query context): one query at a time per workspace.
 */
export function collideConvexHeightfield(
  out: ContactBuffer,
  shape: ConvexShape, pose: Readonly<Pose>,
  hf: Heightfield,
  margin: number,
  ws: ConvexHeightfieldWorkspace,
): HeightfieldCollideStatus {
  const p = pose.position, q = pose.orientation;
  if (!Number.isFinite(p[0] + p[1] + p[2] + q[0] + q[1] + q[2] + q[3])) return HeightfieldCollideStatus.Degenerate;
  // 1. Broad phase.
  const range = footprint(ws, shape, pose, hf, margin);
  if (range === Footprint.None) return HeightfieldCollideStatus.Ok;
  let status: HeightfieldCollideStatus = range === Footprint.Truncated ? HeightfieldCollideStatus.TooManyCells : HeightfieldCollideStatus.Ok;
  hf.cellRangeMinMax(ws.range, ws.i0, ws.j0, ws.i1, ws.j1);
  if (ws.range.max < ws.minZ) return status; // the whole patch is below the body

  ws.cand.clear();
  ws.fallbackCount = 0;
  ws.polyCacheValid = false;
  loadBodyVertices(ws, shape, pose);
  loadBodyFacePlanes(ws, shape, pose);
  if (loadPlanarPatch(ws.nP, ws.elemPoly, ws.element, hf, ws.i0, ws.j0, ws.i1, ws.j1)) {
    planarPatchContacts(ws, hf, shape, pose, margin);
  } else {
    // 1b. The face-plane cull (face-contacts.ts, loadCullMasks): an element whose corners' masks
    // share a bit lies beyond a face plane of the body by more than the margin.
    const cull = ws.faceCull && ws.nCull > 0;
    if (cull) loadCullMasks(ws, hf, margin);
    const m = ws.cullMask, w = ws.i1 - ws.i0 + 2;
    for (let j = ws.j0; j <= ws.j1; j++) {
      for (let i = ws.i0; i <= ws.i1; i++) {
        const rect = hf.cellIsRectangle(i, j);
        // corner masks V0 (i, j), V1 (i+1, j), V2 (i, j+1), V3 (i+1, j+1)
        const c0 = (j - ws.j0) * w + (i - ws.i0);
        const m0 = cull ? m[c0] : 0, m1 = cull ? m[c0 + 1] : 0, m2 = cull ? m[c0 + w] : 0, m3 = cull ? m[c0 + w + 1] : 0;
        for (let e = 0; e < (rect ? 1 : 2); e++) {
          const kind: ElementKind = rect ? ElementKind.Rectangle : e === 0 ? ElementKind.LowerTriangle : ElementKind.UpperTriangle;
          // V0 V1 V3 V2 / V0 V1 V2 / V1 V3 V2
          if ((rect ? m0 & m1 & m2 & m3 : e === 0 ? m0 & m1 & m2 : m1 & m3 & m2) !== 0) continue;
          if (elementContacts(ws, hf, i, j, kind, shape, pose, margin)) status = HeightfieldCollideStatus.Overflow;
        }
      }
    }
    // 5. Nothing found although the body is near: the inactive-crease fallback.
    if (ws.cand.count === 0) inactiveCreaseContacts(ws, hf, p, q, shape, pose, margin);
  }
  // 4. Per normal group, ≤ MANIFOLD_MAX_POINTS.
  if (!reduceCandidates(out, ws)) status = HeightfieldCollideStatus.Overflow;
  return status;
}

const Footprint = { None: 0, Ok: 1, Truncated: 2 } as const;

/**
 * Step 1: the body's world AABB grown by `margin` (ws.boxMin/boxMax, ws.minZ) and its cell range
 * (ws.i0..i1, j0..j1), cut to HEIGHTFIELD_MAX_CELLS_PER_QUERY cells around the body's centre.
 */
function footprint(ws: ConvexHeightfieldWorkspace, shape: ConvexShape, pose: Readonly<Pose>, hf: Heightfield, margin: number): number {
  const p = pose.position, q = pose.orientation, box = ws.localAabb, t = ws.tmp;
  // World AABB: centre ± |R|·half extents of the local AABB.
  shape.localAabb(box);
  t[0] = 0.5 * (box.min[0] + box.max[0]);
  t[1] = 0.5 * (box.min[1] + box.max[1]);
  t[2] = 0.5 * (box.min[2] + box.max[2]);
  quatRotate(t, q, t);
  const cx = p[0] + t[0], cy = p[1] + t[1], cz = p[2] + t[2];
  const hx = 0.5 * (box.max[0] - box.min[0]);
  const hy = 0.5 * (box.max[1] - box.min[1]);
  const hz = 0.5 * (box.max[2] - box.min[2]);
  let ex = 0, ey = 0, ez = 0;
  for (let a = 0; a < 3; a++) {
    t[0] = a === 0 ? hx : 0;
    t[1] = a === 1 ? hy : 0;
    t[2] = a === 2 ? hz : 0;
    quatRotate(t, q, t);
    ex += Math.abs(t[0]);
    ey += Math.abs(t[1]);
    ez += Math.abs(t[2]);
  }
  const minX = cx - ex - margin, maxX = cx + ex + margin;
  const minY = cy - ey - margin, maxY = cy + ey + margin;
  ws.minZ = cz - ez - margin;
  ws.boxMin[0] = minX;
  ws.boxMin[1] = minY;
  ws.boxMin[2] = ws.minZ;
  ws.boxMax[0] = maxX;
  ws.boxMax[1] = maxY;
  ws.boxMax[2] = cz + ez + margin;
  let i0 = Math.floor((minX - hf.x0) / hf.dx), i1 = Math.floor((maxX - hf.x0) / hf.dx);
  let j0 = Math.floor((minY - hf.y0) / hf.dy), j1 = Math.floor((maxY - hf.y0) / hf.dy);
  if (i0 < 0) i0 = 0;
  if (j0 < 0) j0 = 0;
  if (i1 > hf.cellsX - 1) i1 = hf.cellsX - 1;
  if (j1 > hf.cellsY - 1) j1 = hf.cellsY - 1;
  if (i0 > i1 || j0 > j1) return Footprint.None; // off the grid
  let result: number = Footprint.Ok;
  if ((i1 - i0 + 1) * (j1 - j0 + 1) > HEIGHTFIELD_MAX_CELLS_PER_QUERY) {
    result = Footprint.Truncated;
    const side = Math.floor(Math.sqrt(HEIGHTFIELD_MAX_CELLS_PER_QUERY));
    // keep the cells nearest the body's centre
    const ci = Math.floor((cx - hf.x0) / hf.dx), cj = Math.floor((cy - hf.y0) / hf.dy);
    i0 = Math.max(i0, ci - (side >> 1));
    i1 = Math.min(i1, i0 + side - 1);
    j0 = Math.max(j0, cj - (side >> 1));
    j1 = Math.min(j1, j0 + side - 1);
  }
  ws.i0 = i0;
  ws.j0 = j0;
  ws.i1 = i1;
  ws.j1 = j1;
  return result;
}

/**
 * The planar range (ws.elemPoly, ws.nP: one rectangle) as one element: one clip replaces one per
 * cell, and no crease inside it is active. Each contact is given the cell it lies over.
 */
function planarPatchContacts(ws: ConvexHeightfieldWorkspace, hf: Heightfield, shape: ConvexShape, pose: Readonly<Pose>, margin: number): void {
  const cand = ws.cand;
  const start = cand.count;
  const bodyFace = supportingPolygon(ws, pose.position, pose.orientation, shape);
  manifoldBetweenFaces(cand, ws.elemPoly, ws.nP, bodyFace, true, 0, 0, margin, PairContactKind.HeightfieldFace, ws.clip);
  if (ws.nVerts > 0) vertexContacts(ws, 0, 0, ElementKind.Rectangle, start, margin);
  for (let k = start; k < cand.count; k++) {
    let ci = Math.floor((cand.point[3 * k] - hf.x0) / hf.dx), cj = Math.floor((cand.point[3 * k + 1] - hf.y0) / hf.dy);
    ci = ci < ws.i0 ? ws.i0 : ci > ws.i1 ? ws.i1 : ci;
    cj = cj < ws.j0 ? ws.j0 : cj > ws.j1 ? ws.j1 : cj;
    setCell(cand, k, ci, cj);
  }
}

/** Cell (i, j) of contact k; its feature keeps the clip tags and gets the cell's parity (ids of neighbouring cells differ). */
function setCell(cand: ContactBuffer, k: number, i: number, j: number): void {
  cand.cellI[k] = i;
  cand.cellJ[k] = j;
  cand.feature[k] = (cand.feature[k] & 0xff00ffff) | (((i & 0xf) | ((j & 0xf) << 4)) << 16);
}

/**
 * Steps 2 and 3 for element (i, j, kind): face contacts, else (on active creases) an edge
 * contact; an element with neither is remembered for the fallback. Compacts ws.cand (reduces it
 * into ws.spare) when an element might not fit. Returns true if contacts were lost.
 */
function elementContacts(
  ws: ConvexHeightfieldWorkspace, hf: Heightfield, i: number, j: number, kind: ElementKind,
  shape: ConvexShape, pose: Readonly<Pose>, margin: number,
): boolean {
  const p = pose.position, q = pose.orientation;
  loadElement(ws.elemPoly, ws.element, hf, i, j, kind);
  let zTop = -Infinity;
  for (let k = 0; k < ws.element.count; k++) zTop = Math.max(zTop, ws.element.v[3 * k + 2]);
  if (zTop < ws.minZ) return false; // the element lies below the body's AABB
  let lost = false;
  if (ws.cand.count + ELEMENT_ROOM > ws.cand.capacity) {
    // Compact: reduce what we have per normal group, keep going.
    ws.spare.clear();
    if (!reduceCandidates(ws.spare, ws)) lost = true;
    const t = ws.cand;
    ws.cand = ws.spare;
    ws.spare = t;
    if (ws.cand.count + ELEMENT_ROOM > ws.cand.capacity) return true;
  }
  const cand = ws.cand, nP = ws.nP;
  hf.elementPlaneInto(nP, i, j, kind);
  // Early outs (each a support query, far cheaper than clipping or GJK):
  //  - the body lies entirely above the element's plane by more than the margin: no face,
  //    vertex or edge contact can exist (the element is part of its plane);
  //  - the body lies entirely outside one side plane of the element's prism by more than the
  //    margin: no face or vertex contact, and no edge contact either (every point of the
  //    element is behind that side plane).
  const e = ws.elemPoly.xyz;
  const g = ws.gapArgs;
  g[0] = -nP[0]; g[1] = -nP[1]; g[2] = -nP[2]; g[3] = e[0]; g[4] = e[1]; g[5] = e[2];
  bodySupportGap(ws, p, q, shape);
  if (g[6] > margin) return lost;
  if (outsidePrism(ws, p, q, shape, margin)) return lost;
  // 2. Face contact: the body's supporting feature along −n_P, clipped by the element's prism,
  // and the body's vertices in the prism that the supporting face missed (the face along −n_P
  // holds the deepest points w.r.t. this plane, which may lie over a neighbour, while another
  // vertex dips into this element).
  const start = cand.count;
  const bodyFace = supportingPolygon(ws, p, q, shape);
  if (!facePlaneAboveElement(ws, margin)) {
    manifoldBetweenFaces(cand, ws.elemPoly, nP, bodyFace, true, kind, 0, margin, PairContactKind.HeightfieldFace, ws.clip);
    if (ws.nVerts > 0) vertexContacts(ws, i, j, kind, start, margin);
  }
  if (cand.count > start) {
    for (let k = start; k < cand.count; k++) setCell(cand, k, i, j);
    return lost;
  }
  // Remember the element for the inactive-crease fallback (step 5).
  if (ws.fallbackCount < HEIGHTFIELD_FALLBACK_ELEMENTS) {
    const f = 3 * ws.fallbackCount++;
    ws.fallback[f] = i;
    ws.fallback[f + 1] = j;
    ws.fallback[f + 2] = kind;
  }
  // 3. Edge/vertex contact through GJK, only on active creases (none on flat ground).
  if (!anyEdgeActive(ws, hf, i, j, kind)) return lost;
  return activeEdgeContact(ws, hf, i, j, kind, shape, pose, margin) === EdgeContactResult.Overflow || lost;
}

/**
 * Step 4: merges duplicate candidates (same point within GEOMETRIC_EPSILON and the same normal
 * group: a point on an element border comes from every element sharing it; the copy keeps the
 * larger depth), then reduces ws.cand into `dst` (reduce-manifold.ts). False if anything was lost.
 */
function reduceCandidates(dst: ContactBuffer, ws: ConvexHeightfieldWorkspace): boolean {
  const cand = ws.cand, P = cand.point, N = cand.normal, D = cand.depth;
  const eps2 = GEOMETRIC_EPSILON * GEOMETRIC_EPSILON;
  let kept = 0;
  const groupCos = MANIFOLD_GROUP_COS;
  for (let k = 0; k < cand.count; k++) {
    const x = P[3 * k], y = P[3 * k + 1], z = P[3 * k + 2];
    let dup = -1;
    for (let m = 0; m < kept && dup < 0; m++) {
      const dx = P[3 * m] - x, dy = P[3 * m + 1] - y, dz = P[3 * m + 2] - z;
      if (dx * dx + dy * dy + dz * dz > eps2) continue;
      if (N[3 * m] * N[3 * k] + N[3 * m + 1] * N[3 * k + 1] + N[3 * m + 2] * N[3 * k + 2] >= groupCos) dup = m;
    }
    if (dup >= 0) {
      if (D[k] > D[dup]) D[dup] = D[k];
      continue;
    }
    cand.move(kept++, k);
  }
  cand.count = kept;
  return reduceManifoldInto(dst, cand, ws.groups) === ReduceManifoldStatus.Ok;
}
