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
import type { ElementKind, Heightfield } from '../../terrain/heightfield';
import type { FacePolygon } from '../manifold/face-polygon';
import { PairContactKind, TAG_VERTEX, packFeature } from '../manifold/feature-id';
import { CULL_MAX_FACES } from './workspace';
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

/**
 * Fills ws.cullPlanes/nCull with the world face planes of a box or hull body (none for curved
 * shapes). A hull of more than CULL_MAX_FACES faces (a mesh chassis: 100+ vertices) gives the
 * CULL_MAX_FACES faces whose world normals point most steeply down (the ones facing the ground
 * under it): any subset of a convex body's face planes bounds it, so the cull stays exact, it
 * only skips fewer elements.
 */
export function loadBodyFacePlanes(ws: ConvexHeightfieldWorkspace, shape: ConvexShape, pose: Readonly<Pose>): void {
  ws.nCull = 0;
  const t = ws.tmp;
  if (shape.kind === ShapeKind.Box) {
    const h = (shape as BoxShape).halfExtents;
    for (let f = 0; f < 6; f++) {
      const a = f >> 1, s = f & 1 ? -1 : 1;
      t[0] = a === 0 ? s : 0;
      t[1] = a === 1 ? s : 0;
      t[2] = a === 2 ? s : 0;
      pushFacePlane(ws, pose, h[a]);
    }
  } else if (shape.kind === ShapeKind.ConvexHull) {
    const hull = shape as ConvexHullShape;
    const pl = hull.planes;
    if (hull.faceCount <= CULL_MAX_FACES) {
      for (let f = 0; f < hull.faceCount; f++) pushLocalFacePlane(ws, pose, pl, f);
      return;
    }
    // the CULL_MAX_FACES lowest world n_z (the third row of the rotation dotted with the local
    // normal), kept sorted in ws.cullPick/cullScore by insertion
    const q = pose.orientation;
    const rx = 2 * (q[0] * q[2] - q[3] * q[1]), ry = 2 * (q[1] * q[2] + q[3] * q[0]), rz = 1 - 2 * (q[0] * q[0] + q[1] * q[1]);
    const pick = ws.cullPick, score = ws.cullScore;
    let n = 0;
    for (let f = 0; f < hull.faceCount; f++) {
      const z = rx * pl[4 * f] + ry * pl[4 * f + 1] + rz * pl[4 * f + 2];
      if (n === CULL_MAX_FACES && z >= score[n - 1]) continue;
      let k = n < CULL_MAX_FACES ? n++ : n - 1;
      for (; k > 0 && score[k - 1] > z; k--) {
        score[k] = score[k - 1];
        pick[k] = pick[k - 1];
      }
      score[k] = z;
      pick[k] = f;
    }
    for (let k = 0; k < n; k++) pushLocalFacePlane(ws, pose, pl, pick[k]);
  }
}

/** Appends face f of a hull's local planes to ws.cullPlanes in world coordinates. */
function pushLocalFacePlane(ws: ConvexHeightfieldWorkspace, pose: Readonly<Pose>, pl: Float64Array, f: number): void {
  const t = ws.tmp;
  t[0] = pl[4 * f];
  t[1] = pl[4 * f + 1];
  t[2] = pl[4 * f + 2];
  pushFacePlane(ws, pose, pl[4 * f + 3]);
}

/** Appends ws.tmp (a body-local unit face normal) with local offset d to ws.cullPlanes in world coordinates. */
function pushFacePlane(ws: ConvexHeightfieldWorkspace, pose: Readonly<Pose>, d: number): void {
  const t = ws.tmp, k = 4 * ws.nCull, p = pose.position;
  quatRotate(t, pose.orientation, t);
  ws.cullPlanes[k] = t[0];
  ws.cullPlanes[k + 1] = t[1];
  ws.cullPlanes[k + 2] = t[2];
  ws.cullPlanes[k + 3] = d + t[0] * p[0] + t[1] * p[1] + t[2] * p[2];
  ws.nCull++;
}

/**
 * The face-plane cull, per grid vertex of the query's cell range: ws.cullMask gets, for vertex
 * (i0 + a, j0 + b) at index b·(i1 − i0 + 2) + a, the bit f set when everything an element at
 * that vertex can test lies more than `margin` beyond the body's face plane f. An element's face
 * and vertex contacts are body points in its prism along −n_P below (or within the margin above)
 * its plane; the body reaches no lower than ws.minZ (its lowest point less the margin), so the
 * prism matters down to z = minZ. A point Σλ_k·Y_k − t·n_P of it (Y_k the corners) is the same
 * combination of points Y_k − t_k·n_P with t_k between 0 and the t that brings Y_k to z = minZ
 * (t_k = t · t_k,max / Σλ_k·t_k,max; t_k,max < 0 for a corner below minZ): so per vertex Y the
 * segment from Y to its point at z = minZ, which lies |Y_z − minZ|·|slope| sideways of Y. With
 * the steepest slope of the range (smax, over its grid edges) that end lies in a disc, and a
 * plane's nearest point of a segment is one of its ends: the bit is set when Y and the whole
 * disc are beyond the plane by more than the margin. An element whose corners share a bit then has its prism (and itself:
 * no edge contact either) beyond the plane: no contact within the margin (collide.ts skips it
 * before loading it). One dot product per face and vertex (each vertex serves up to six
 * elements), against a support query, a clip and GJK for an element the element-plane test lets
 * through (a chassis over ridged ground: most of its footprint does).
 */
export function loadCullMasks(ws: ConvexHeightfieldWorkspace, hf: Heightfield, margin: number): void {
  const c = ws.cullPlanes, m = ws.cullMask, nc = ws.nCull, zBottom = ws.minZ;
  const i0 = ws.i0, j0 = ws.j0, i1 = ws.i1 + 1, j1 = ws.j1 + 1, w = i1 - i0 + 1;
  const H = hf.heights, cols = hf.cols, x0 = hf.x0, y0 = hf.y0, dx = hf.dx, dy = hf.dy;
  // steepest slope of any element of the range: its x and y rises are those of grid edges
  let gx = 0, gy = 0;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const h = H[j * cols + i];
      if (i < i1) gx = Math.max(gx, Math.abs(H[j * cols + i + 1] - h));
      if (j < j1) gy = Math.max(gy, Math.abs(H[(j + 1) * cols + i] - h));
    }
  }
  const smax = Math.sqrt((gx / dx) * (gx / dx) + (gy / dy) * (gy / dy));
  for (let j = j0; j <= j1; j++) {
    const y = y0 + j * dy;
    for (let i = i0; i <= i1; i++) {
      const x = x0 + i * dx, z = H[j * cols + i];
      const reach = Math.abs(z - zBottom) * smax;
      let bits = 0;
      for (let f = 0; f < nc; f++) {
        const nx = c[4 * f], ny = c[4 * f + 1], nz = c[4 * f + 2], lim = c[4 * f + 3] + margin;
        const side = nx * x + ny * y;
        if (side + nz * z > lim && side + nz * zBottom - reach * Math.sqrt(nx * nx + ny * ny) > lim) bits |= 1 << f;
      }
      m[(j - j0) * w + (i - i0)] = bits;
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
