/**
 * Face contacts of a convex body on one terrain element (step 2 of collide.ts): the body's
 * supporting feature along −n_P clipped against the element's prism (manifoldBetweenFaces with
 * the element as reference face), and, for boxes and hulls, every body vertex inside the prism
 * (vertexContacts: the supporting face along −n_P may lie over a neighbour while another vertex
 * dips into this element). Every such contact carries the element's FACE normal, so a box on
 * flat or gently curved ground never sees an internal-edge normal: no ghost contacts.
 *
 * Also the cheap early-outs that skip an element before clipping or GJK (bodySupportGap,
 * outsidePrism, facePlaneAboveElement): each is one support query or a few dot products.
 * The element is the workspace's (elemPoly, nP); results go to ws.cand.
 */
import { GEOMETRIC_EPSILON, HULL_MAX_VERTICES } from '../../constants';
import { quatRotate, quatRotateInverse } from '../../math/quat';
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { BoxShape } from '../../shapes/box';
import type { ConvexHullShape } from '../../shapes/convex-hull';
import type { ConvexShape, Pose } from '../../shapes/shape';
import { ShapeKind } from '../../shapes/shape';
import type { ElementKind } from '../../terrain/heightfield';
import type { FacePolygon } from '../manifold/face-polygon';
import { PairContactKind, TAG_VERTEX, packFeature } from '../manifold/feature-id';
import type { ConvexHeightfieldWorkspace } from './workspace';

/** Fills ws.verts/nVerts with the world vertices of a box or hull body (none for curved shapes). */
export function loadBodyVertices(ws: ConvexHeightfieldWorkspace, shape: ConvexShape, pose: Readonly<Pose>): void {
  ws.nVerts = 0;
  const t = ws.tmp;
  if (shape.kind === ShapeKind.Box) {
    const h = (shape as BoxShape).halfExtents;
    for (let v = 0; v < 8; v++) {
      t[0] = v & 1 ? h[0] : -h[0];
      t[1] = v & 2 ? h[1] : -h[1];
      t[2] = v & 4 ? h[2] : -h[2];
      pushBodyVertex(ws, pose);
    }
  } else if (shape.kind === ShapeKind.ConvexHull) {
    const hull = shape as ConvexHullShape;
    const n = Math.min(hull.vertexCount, HULL_MAX_VERTICES);
    for (let v = 0; v < n; v++) {
      t[0] = hull.vertices[3 * v];
      t[1] = hull.vertices[3 * v + 1];
      t[2] = hull.vertices[3 * v + 2];
      pushBodyVertex(ws, pose);
    }
  }
}

/** Appends ws.tmp (a body-local vertex) to ws.verts in world coordinates. */
function pushBodyVertex(ws: ConvexHeightfieldWorkspace, pose: Readonly<Pose>): void {
  const t = ws.tmp, k = ws.nVerts;
  quatRotate(t, pose.orientation, t);
  ws.verts[3 * k] = t[0] + pose.position[0];
  ws.verts[3 * k + 1] = t[1] + pose.position[1];
  ws.verts[3 * k + 2] = t[2] + pose.position[2];
  ws.nVerts++;
}

/**
 * Adds a face-normal contact for every body vertex inside element (i, j, kind)'s prism (side
 * planes along n_P, as the face clip uses) and within `margin` of its plane, unless a contact of
 * this element (from slot `start` on) already sits there. Returns the count added.
 */
export function vertexContacts(ws: ConvexHeightfieldWorkspace, i: number, j: number, kind: ElementKind, start: number, margin: number): number {
  const cand = ws.cand, verts = ws.verts;
  const e = ws.elemPoly.xyz, ne = ws.elemPoly.count;
  const nx = ws.nP[0], ny = ws.nP[1], nz = ws.nP[2];
  let added = 0;
  for (let v = 0; v < ws.nVerts; v++) {
    const px = verts[3 * v], py = verts[3 * v + 1], pz = verts[3 * v + 2];
    const sep = (px - e[0]) * nx + (py - e[1]) * ny + (pz - e[2]) * nz;
    if (!(sep <= margin)) continue;
    let inside = true;
    for (let k = 0; k < ne && inside; k++) {
      const k1 = k + 1 === ne ? 0 : k + 1;
      const ex = e[3 * k1] - e[3 * k], ey = e[3 * k1 + 1] - e[3 * k + 1], ez = e[3 * k1 + 2] - e[3 * k + 2];
      // elements are CCW seen from above (along +n_P), so edge × n_P points outward
      const mx = ey * nz - ez * ny, my = ez * nx - ex * nz, mz = ex * ny - ey * nx;
      if (mx * (px - e[3 * k]) + my * (py - e[3 * k + 1]) + mz * (pz - e[3 * k + 2]) > 0) inside = false;
    }
    if (!inside) continue;
    const qx = px - sep * nx, qy = py - sep * ny, qz = pz - sep * nz;
    let dup = false;
    for (let c = start; c < cand.count && !dup; c++) {
      const dx = cand.point[3 * c] - qx, dy = cand.point[3 * c + 1] - qy, dz = cand.point[3 * c + 2] - qz;
      dup = dx * dx + dy * dy + dz * dz <= GEOMETRIC_EPSILON * GEOMETRIC_EPSILON;
    }
    if (dup) continue;
    if (cand.count >= cand.capacity - 1) break;
    // reserve and write the slot (cand.push would take its doubles as boxed arguments)
    const slot = cand.reserve();
    if (slot >= 0) {
      const s3 = 3 * slot;
      cand.point[s3] = qx; cand.point[s3 + 1] = qy; cand.point[s3 + 2] = qz;
      cand.normal[s3] = nx; cand.normal[s3 + 1] = ny; cand.normal[s3 + 2] = nz;
      cand.depth[slot] = -sep;
      cand.kind[slot] = PairContactKind.HeightfieldFace;
      cand.cellI[slot] = i;
      cand.cellJ[slot] = j;
      cand.feature[slot] = packFeature(true, kind, 0, TAG_VERTEX, v);
    }
    added++;
  }
  return added;
}

/**
 * The body's supporting feature along −n_P, in world space (ws.bodyPoly), with its plane
 * (ws.faceN when ws.facePlaneValid). Cached per query: the same feature as for the previous
 * element (the usual case: a box keeps its bottom face over the whole patch) is not rebuilt.
 */
export function supportingPolygon(ws: ConvexHeightfieldWorkspace, p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape): FacePolygon {
  const dir = ws.dir, face = ws.face, bodyPoly = ws.bodyPoly, t = ws.tmp;
  dir[0] = -ws.nP[0];
  dir[1] = -ws.nP[1];
  dir[2] = -ws.nP[2];
  quatRotateInverse(dir, q, dir);
  shape.supportingFace(face, dir);
  const first = ws.cachedFirst, second = ws.cachedSecond;
  if (ws.polyCacheValid && face.count === ws.cachedCount && face.count > 0 &&
      face.points[0] === first[0] && face.points[1] === first[1] && face.points[2] === first[2] &&
      (face.count < 2 || (face.points[3] === second[0] && face.points[4] === second[1] && face.points[5] === second[2]))) {
    return bodyPoly;
  }
  ws.polyCacheValid = true;
  ws.cachedCount = face.count;
  for (let a = 0; a < 3; a++) {
    first[a] = face.points[a];
    second[a] = face.count > 1 ? face.points[3 + a] : 0;
  }
  bodyPoly.clear();
  for (let k = 0; k < face.count; k++) {
    t[0] = face.points[3 * k];
    t[1] = face.points[3 * k + 1];
    t[2] = face.points[3 * k + 2];
    quatRotate(t, q, t);
    bodyPoly.push(p[0] + t[0], p[1] + t[1], p[2] + t[2], k, TAG_VERTEX, k);
  }
  // plane of a polygonal feature (Newell), for the "face plane above the element" early-out
  ws.facePlaneValid = false;
  if (bodyPoly.count >= 3) {
    const v = bodyPoly.xyz, n = bodyPoly.count;
    let x = 0, y = 0, z = 0;
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      x += (v[3 * i + 1] - v[3 * j + 1]) * (v[3 * i + 2] + v[3 * j + 2]);
      y += (v[3 * i + 2] - v[3 * j + 2]) * (v[3 * i] + v[3 * j]);
      z += (v[3 * i] - v[3 * j]) * (v[3 * i + 1] + v[3 * j + 1]);
    }
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > 0) {
      ws.faceN[0] = x / l;
      ws.faceN[1] = y / l;
      ws.faceN[2] = z / l;
      ws.facePlaneValid = true;
    }
  }
  return bodyPoly;
}

/**
 * Early-out for the face clip and the vertex pass: true if the body's supporting face plane lies
 * more than `margin` above every corner of the element, measured along n_P. The clipped points
 * lie on that plane inside the prism, and the whole body lies on the inner side of its own face
 * plane, so neither pass can find a point within the margin (planes are linear: corners bound).
 */
export function facePlaneAboveElement(ws: ConvexHeightfieldWorkspace, margin: number): boolean {
  if (!ws.facePlaneValid) return false;
  const nP = ws.nP, faceN = ws.faceN;
  const d = nP[0] * faceN[0] + nP[1] * faceN[1] + nP[2] * faceN[2];
  if (!(Math.abs(d) > GEOMETRIC_EPSILON)) return false; // face perpendicular to the element: no bound
  const v = ws.bodyPoly.xyz, e = ws.elemPoly.xyz;
  for (let k = 0; k < ws.elemPoly.count; k++) {
    const t = ((v[0] - e[3 * k]) * faceN[0] + (v[1] - e[3 * k + 1]) * faceN[1] + (v[2] - e[3 * k + 2]) * faceN[2]) / d;
    if (!(t > margin)) return false;
  }
  return true;
}

/**
 * min over the body of −d·(x − o): how far the whole body lies beyond the plane through o on the
 * −d side (d unit), d = ws.gapArgs[0..2], o = ws.gapArgs[3..5]; the gap is written to
 * ws.gapArgs[6]. Computed from the body's support point along d, left in ws.sup
 * (body-relative, world axes). > margin: no point of the body comes within the margin of the
 * plane's d side.
 */
export function bodySupportGap(ws: ConvexHeightfieldWorkspace, p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape): void {
  const g = ws.gapArgs;
  const dx = g[0], dy = g[1], dz = g[2], ox = g[3], oy = g[4], oz = g[5];
  const dir = ws.dir, sup = ws.sup;
  dir[0] = dx;
  dir[1] = dy;
  dir[2] = dz;
  quatRotateInverse(dir, q, dir);
  shape.support(sup, dir);
  quatRotate(sup, q, sup);
  g[6] = -((p[0] + sup[0] - ox) * dx + (p[1] + sup[1] - oy) * dy + (p[2] + sup[2] - oz) * dz);
}

/** True if the body lies more than `margin` outside one side plane of the element's prism (along n_P). */
export function outsidePrism(ws: ConvexHeightfieldWorkspace, p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape, margin: number): boolean {
  const e = ws.elemPoly.xyz, ne = ws.elemPoly.count;
  const nx = ws.nP[0], ny = ws.nP[1], nz = ws.nP[2];
  for (let k = 0; k < ne; k++) {
    const k1 = k + 1 === ne ? 0 : k + 1;
    const ex = e[3 * k1] - e[3 * k], ey = e[3 * k1 + 1] - e[3 * k + 1], ez = e[3 * k1 + 2] - e[3 * k + 2];
    // outward side normal (elements are CCW seen along +n_P)
    let mx = ey * nz - ez * ny, my = ez * nx - ex * nz, mz = ex * ny - ey * nx;
    const ml = Math.sqrt(mx * mx + my * my + mz * mz);
    if (!(ml > 0)) continue;
    mx /= ml;
    my /= ml;
    mz /= ml;
    // the body's point deepest toward the inside (−m) still beyond the plane by > margin?
    const g = ws.gapArgs;
    g[0] = -mx; g[1] = -my; g[2] = -mz; g[3] = e[3 * k]; g[4] = e[3 * k + 1]; g[5] = e[3 * k + 2];
    bodySupportGap(ws, p, q, shape);
    if (g[6] > margin) return true;
  }
  return false;
}
