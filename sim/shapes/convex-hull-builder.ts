/**
 * Convex hull of a 3D point cloud (collision hulls from robot meshes and rocks).
 *
 * Algorithm: incremental hull as in Huotari (2011) ch. 4 (start from a tetrahedron, add a point,
 * delete the faces that see it, close the hole with a fan from the horizon to the point), with the
 * point order and conflict lists of Quickhull (Barber, Dobkin & Huhdanpaa 1996): every outside
 * point is kept in the conflict list of the face it is farthest above, and the farthest point of
 * a face is added next. Processing far points first means points on edges and faces of the final
 * hull are usually already inside when their turn comes, so they never become vertices.
 *
 * Robustness (the cases that break naive hulls):
 *  - One distance tolerance ε = HULL_DISTANCE_RELATIVE · (Σ_axes max |coordinate|) (qhull's
 *    DISTround idea): a point within ε of a face plane is ON it, never above.
 *  - Duplicates: a duplicate is within ε of every face through its twin, so it is never "above".
 *  - Degenerate input is classified, with a status the caller can show: all points coincident,
 *    collinear, or coplanar. Coplanar input becomes a slab of `flatThickness` when asked (a flat
 *    plate, a decal mesh) — otherwise status Coplanar and no hull.
 *  - A numerically non-disc visible region (its horizon is not one loop) skips that point
 *    instead of corrupting the mesh; `skippedPoints` counts them (each is within a few ε).
 *  - Coplanar faces are merged after the build: adjacent triangles whose normals are within
 *    HULL_COPLANAR_COS_SLACK of a seed face's normal and whose vertices are within
 *    HULL_MERGE_DISTANCE_RELATIVE·extent of the seed's plane become one polygon (comparing with
 *    the seed, not the neighbour, stops a slowly curving surface from chaining into one
 *    non-planar face).
 *
 * Not a hot path: runs when a model loads; it allocates freely.
 */
import type { ConvexHullData } from './convex-hull';
import { HULL_COPLANAR_COS_SLACK, HULL_DISTANCE_RELATIVE, HULL_MAX_VERTICES, HULL_MERGE_DISTANCE_RELATIVE } from '../constants';

/** Why `buildConvexHull` returned no hull, or `Ok`. */
export const HullStatus = {
  Ok: 0,
  /** Fewer than 4 points (and no flatThickness to make a slab of 3). */
  TooFewPoints: 1,
  /** All points within ε of one point. */
  Coincident: 2,
  /** All points within ε of one line. */
  Collinear: 3,
  /** All points within ε of one plane and no flatThickness was given. */
  Coplanar: 4,
  /** A coordinate is NaN or infinite. */
  NotFinite: 5,
  /** The hull has more than maxVertices vertices. */
  TooManyVertices: 6,
} as const;
export type HullStatus = (typeof HullStatus)[keyof typeof HullStatus];
/** Names of the `HullStatus` values, by value. */
export const HULL_STATUS_NAMES: readonly string[] = ['ok', 'too-few-points', 'coincident', 'collinear', 'coplanar', 'not-finite', 'too-many-vertices'];

/** Options of `buildConvexHull`: slab thickness for coplanar input, vertex cap. */
export interface HullBuildOptions {
  /** [m] When the input is coplanar, extrude it to a slab this thick (centred on the plane). */
  flatThickness?: number;
  /** Vertex cap (default HULL_MAX_VERTICES). */
  maxVertices?: number;
}

/** What `buildConvexHull` returns: a status, the hull (or null) and the reason when it failed. */
export interface HullBuildResult {
  status: HullStatus;
  data: ConvexHullData | null;
  /** Human-readable reason when status is not Ok. */
  message: string;
  /** True when coplanar input was extruded into a slab. */
  flattened: boolean;
  /** [m] The distance tolerance ε used. */
  tolerance: number;
  /** Points dropped because their visible region was numerically not a disc. */
  skippedPoints: number;
}

interface Face {
  v: [number, number, number];
  n: [number, number, number];
  d: number;
  /** nb[i]: face across edge v[i] → v[(i+1)%3]. */
  nb: [number, number, number];
  alive: boolean;
  outside: number[];
  visible: number;
}

function fail(status: HullStatus, message: string, tolerance = 0): HullBuildResult {
  return { status, data: null, message, flattened: false, tolerance, skippedPoints: 0 };
}

/**
 * Builds the hull of `points` (xyz interleaved). Faces of the result are CCW seen from outside,
 * planes are unit outward normals with offsets (see convex-hull.ts for the layout).
 *
 * Steps: validate; tolerance from the cloud's extent; a starting tetrahedron of extreme points
 * (or the degenerate class of the cloud, and a slab for a flat one when asked); conflict lists;
 * add the farthest outside point of each face until none is left; merge coplanar triangles into
 * polygons; compact the vertices and compute the face planes.
 */
export function buildConvexHull(points: ArrayLike<number>, options: HullBuildOptions = {}): HullBuildResult {
  const n = Math.floor(points.length / 3);
  const p = Float64Array.from(points as ArrayLike<number>).subarray(0, n * 3);
  for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) return fail(HullStatus.NotFinite, `coordinate ${i} is not finite`);
  if (n === 0) return fail(HullStatus.TooFewPoints, 'no points');
  const scale = cloudExtent(p, n);
  const eps = HULL_DISTANCE_RELATIVE * scale;

  const start = startingTetrahedron(p, n, eps);
  if (start.ids === null) {
    const t = options.flatThickness;
    if (start.status === HullStatus.Coplanar && t !== undefined && t > 0 && Number.isFinite(t)) {
      return buildSlab(p, n, start.planeNormal, t, options.maxVertices);
    }
    return fail(start.status, start.message, eps);
  }
  const faces = tetrahedronFaces(p, start.ids);
  const [i0, i1, i2, i3] = start.ids;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2 || i === i3) continue;
    assign(p, faces, [0, 1, 2, 3], i, eps);
  }
  const skipped = addOutsidePoints(p, faces, eps);
  const polys = mergeCoplanarFaces(p, faces, Math.max(eps, HULL_MERGE_DISTANCE_RELATIVE * scale));
  const data = compactHull(p, polys);

  const maxV = options.maxVertices ?? HULL_MAX_VERTICES;
  const nv = data.vertices.length / 3;
  if (nv > maxV) return fail(HullStatus.TooManyVertices, `hull has ${nv} vertices (> ${maxV})`, eps);
  return { status: HullStatus.Ok, data, message: '', flattened: false, tolerance: eps, skippedPoints: skipped };
}

/** [m] Σ over the axes of the largest |coordinate| (qhull's DISTround scale). */
function cloudExtent(p: Float64Array, n: number): number {
  let scale = 0;
  for (let k = 0; k < 3; k++) {
    let m = 0;
    for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(p[3 * i + k]));
    scale += m;
  }
  return scale;
}

/** Four points spanning a volume, or why the cloud has none (with the plane's normal when flat). */
interface StartingTetrahedron {
  ids: [number, number, number, number] | null;
  status: HullStatus;
  message: string;
  /** Unit normal of the plane through the first three points (the slab's direction for flat input). */
  planeNormal: [number, number, number];
}

/**
 * The starting tetrahedron from extreme points: the farthest pair among the six axis extremes,
 * the point farthest from their line, the point farthest from the plane of the three. Each step
 * that finds nothing farther than `eps` classifies the cloud: coincident, collinear, coplanar.
 */
function startingTetrahedron(p: Float64Array, n: number, eps: number): StartingTetrahedron {
  const none = (status: HullStatus, message: string, planeNormal: [number, number, number] = [0, 0, 1]): StartingTetrahedron =>
    ({ ids: null, status, message, planeNormal });
  const ext: number[] = [];
  for (let k = 0; k < 3; k++) {
    let lo = 0, hi = 0;
    for (let i = 1; i < n; i++) {
      if (p[3 * i + k] < p[3 * lo + k]) lo = i;
      if (p[3 * i + k] > p[3 * hi + k]) hi = i;
    }
    ext.push(lo, hi);
  }
  let i0 = 0, i1 = 0, best = -1;
  for (let a = 0; a < ext.length; a++) {
    for (let b = a + 1; b < ext.length; b++) {
      const d = dist2(p, ext[a], ext[b]);
      if (d > best) {
        best = d;
        i0 = ext[a];
        i1 = ext[b];
      }
    }
  }
  if (!(Math.sqrt(best) > eps)) return none(HullStatus.Coincident, 'all points coincide');
  // Farthest from the line i0–i1.
  let i2 = -1;
  best = 0;
  for (let i = 0; i < n; i++) {
    const d = lineDist2(p, i0, i1, i);
    if (d > best) {
      best = d;
      i2 = i;
    }
  }
  if (i2 < 0 || !(Math.sqrt(best) > eps)) return none(HullStatus.Collinear, 'all points lie on one line');
  // Farthest from the plane i0–i1–i2.
  const pn = triNormal(p, i0, i1, i2);
  normalize3(pn);
  const pd = pn[0] * p[3 * i0] + pn[1] * p[3 * i0 + 1] + pn[2] * p[3 * i0 + 2];
  let i3 = -1;
  best = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(pn[0] * p[3 * i] + pn[1] * p[3 * i + 1] + pn[2] * p[3 * i + 2] - pd);
    if (d > best) {
      best = d;
      i3 = i;
    }
  }
  if (i3 < 0 || !(best > eps)) return none(HullStatus.Coplanar, 'all points lie in one plane (pass flatThickness to make a slab)', pn);
  return { ids: [i0, i1, i2, i3], status: HullStatus.Ok, message: '', planeNormal: pn };
}

/** Coplanar input as a slab of thickness t: every point twice, ±t/2 along the plane normal. */
function buildSlab(p: Float64Array, n: number, pn: readonly number[], t: number, maxVertices: number | undefined): HullBuildResult {
  const slab = new Float64Array(n * 6);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      slab[6 * i + k] = p[3 * i + k] + pn[k] * (t / 2);
      slab[6 * i + 3 + k] = p[3 * i + k] - pn[k] * (t / 2);
    }
  }
  const res = buildConvexHull(slab, { maxVertices });
  res.flattened = true;
  return res;
}

/** The tetrahedron's four faces, each wound so its normal points away from the centroid, linked. */
function tetrahedronFaces(p: Float64Array, [i0, i1, i2, i3]: readonly [number, number, number, number]): Face[] {
  const faces: Face[] = [];
  const cx = (p[3 * i0] + p[3 * i1] + p[3 * i2] + p[3 * i3]) / 4;
  const cy = (p[3 * i0 + 1] + p[3 * i1 + 1] + p[3 * i2 + 1] + p[3 * i3 + 1]) / 4;
  const cz = (p[3 * i0 + 2] + p[3 * i1 + 2] + p[3 * i2 + 2] + p[3 * i3 + 2]) / 4;
  const tet: [number, number, number][] = [
    [i0, i1, i2],
    [i0, i1, i3],
    [i0, i2, i3],
    [i1, i2, i3],
  ];
  for (const [a, b, c] of tet) {
    const f = makeFace(p, a, b, c);
    if (f.n[0] * (cx - p[3 * a]) + f.n[1] * (cy - p[3 * a + 1]) + f.n[2] * (cz - p[3 * a + 2]) > 0) {
      const g = makeFace(p, a, c, b);
      faces.push(g);
    } else {
      faces.push(f);
    }
  }
  linkByEdges(faces, [0, 1, 2, 3]);
  return faces;
}

/** The horizon of a visible region: its boundary edges (from → to, the face beyond), in loop order. */
interface Horizon {
  hFrom: number[];
  hTo: number[];
  hNb: number[];
  /** Edge indices in loop order. */
  loop: number[];
}

/**
 * Incremental insertion: while a face has conflict points, adds its farthest one (the eye):
 * removes the faces the eye sees, closes the hole with a fan from the horizon to the eye and
 * hands the removed faces' conflict points to the new faces. Returns the points skipped because
 * their visible region was numerically not a disc (each within a few ε of the hull).
 */
function addOutsidePoints(p: Float64Array, faces: Face[], eps: number): number {
  let skipped = 0;
  let mark = 0;
  const stack: number[] = [];
  for (let fi = 0; fi < faces.length; fi++) {
    const f = faces[fi];
    while (f.alive && f.outside.length > 0) {
      const eyeK = farthestConflict(p, f);
      const eye = f.outside[eyeK];
      mark++;
      const visible = visibleRegion(p, faces, fi, eye, eps, mark, stack);
      const horizon = horizonLoop(faces, visible, mark);
      if (horizon === null) {
        // Not a disc (rounding near-coplanar faces): drop this point, it is within a few ε.
        f.outside.splice(eyeK, 1);
        skipped++;
        continue;
      }
      const newIds = addFan(p, faces, horizon, eye);
      // Hand the conflict points of the deleted faces to the new ones.
      for (const vi of visible) {
        const g = faces[vi];
        g.alive = false;
        for (const q of g.outside) if (q !== eye) assign(p, faces, newIds, q, eps);
        g.outside = [];
      }
    }
  }
  return skipped;
}

/** Index in f.outside of the conflict point farthest above f (the first of equals). */
function farthestConflict(p: Float64Array, f: Face): number {
  let eyeK = 0, eyeD = -Infinity;
  for (let k = 0; k < f.outside.length; k++) {
    const d = planeDist(p, f, f.outside[k]);
    if (d > eyeD) {
      eyeD = d;
      eyeK = k;
    }
  }
  return eyeK;
}

/**
 * The faces that see `eye` (more than eps above their plane), connected to face fi: a flood
 * over neighbours from fi, each marked visible = mark. Returns their indices, fi first.
 */
function visibleRegion(p: Float64Array, faces: Face[], fi: number, eye: number, eps: number, mark: number, stack: number[]): number[] {
  const visible: number[] = [fi];
  faces[fi].visible = mark;
  stack.length = 0;
  stack.push(fi);
  while (stack.length > 0) {
    const g = faces[stack.pop() as number];
    for (let e = 0; e < 3; e++) {
      const h = g.nb[e];
      const fh = faces[h];
      if (fh.visible === mark || !fh.alive) continue;
      if (planeDist(p, fh, eye) > eps) {
        fh.visible = mark;
        visible.push(h);
        stack.push(h);
      }
    }
  }
  return visible;
}

/**
 * Edges of the visible faces whose neighbour is not visible, chained into one loop; null when
 * they do not form exactly one simple loop of at least 3 edges (the region is not a disc).
 */
function horizonLoop(faces: Face[], visible: readonly number[], mark: number): Horizon | null {
  const hFrom: number[] = [], hTo: number[] = [], hNb: number[] = [];
  const startOf = new Map<number, number>();
  let ok = true;
  for (const vi of visible) {
    const g = faces[vi];
    for (let e = 0; e < 3; e++) {
      if (faces[g.nb[e]].visible === mark) continue;
      const a = g.v[e], b = g.v[(e + 1) % 3];
      if (startOf.has(a)) ok = false;
      startOf.set(a, hFrom.length);
      hFrom.push(a);
      hTo.push(b);
      hNb.push(g.nb[e]);
    }
  }
  if (!ok || hFrom.length < 3) return null;
  const loop: number[] = [];
  let e = 0;
  for (let k = 0; k < hFrom.length; k++) {
    loop.push(e);
    const next = startOf.get(hTo[e]);
    if (next === undefined) return null;
    e = next;
  }
  if (e !== 0 || new Set(loop).size !== hFrom.length) return null;
  return { hFrom, hTo, hNb, loop };
}

/** Fan of new faces from the horizon to the eye, linked to each other and across the horizon. Returns their indices. */
function addFan(p: Float64Array, faces: Face[], { hFrom, hTo, hNb, loop }: Horizon, eye: number): number[] {
  const first = faces.length;
  const m = loop.length;
  for (let k = 0; k < m; k++) {
    const e = loop[k];
    const nf = makeFace(p, hFrom[e], hTo[e], eye);
    nf.nb[0] = hNb[e];
    nf.nb[1] = first + ((k + 1) % m);
    nf.nb[2] = first + ((k + m - 1) % m);
    const h = faces[hNb[e]];
    for (let q = 0; q < 3; q++) {
      if (h.v[q] === hTo[e] && h.v[(q + 1) % 3] === hFrom[e]) h.nb[q] = first + k;
    }
    faces.push(nf);
  }
  const newIds: number[] = [];
  for (let k = 0; k < m; k++) newIds.push(first + k);
  return newIds;
}

/**
 * Merges the live triangles into polygons: a seed triangle grows over neighbours whose normal
 * is within HULL_COPLANAR_COS_SLACK of the SEED's and whose vertices lie within mergeTol of its
 * plane; the group's boundary loop is the polygon. A group whose boundary is not one simple loop
 * (should not happen for a convex group) keeps its triangles.
 */
function mergeCoplanarFaces(p: Float64Array, faces: Face[], mergeTol: number): number[][] {
  const alive: number[] = [];
  for (let i = 0; i < faces.length; i++) if (faces[i].alive) alive.push(i);
  const group = new Map<number, number>();
  const polys: number[][] = [];
  for (const seed of alive) {
    if (group.has(seed)) continue;
    const gid = polys.length;
    const members = growCoplanarGroup(p, faces, seed, gid, group, mergeTol);
    const poly = groupBoundary(faces, members, gid, group);
    if (poly !== null) {
      polys.push(poly);
    } else {
      for (const mi of members) {
        group.set(mi, polys.length);
        polys.push([...faces[mi].v]);
      }
    }
  }
  return polys;
}

/** Floods from `seed` over coplanar live neighbours not yet grouped, marking them `gid`. Returns the members, seed first. */
function growCoplanarGroup(p: Float64Array, faces: Face[], seed: number, gid: number, group: Map<number, number>, mergeTol: number): number[] {
  const members: number[] = [seed];
  group.set(seed, gid);
  const sn = faces[seed].n;
  for (let k = 0; k < members.length; k++) {
    const g = faces[members[k]];
    for (let e = 0; e < 3; e++) {
      const h = g.nb[e];
      if (group.has(h) || !faces[h].alive) continue;
      const hn = faces[h].n;
      if (sn[0] * hn[0] + sn[1] * hn[1] + sn[2] * hn[2] >= 1 - HULL_COPLANAR_COS_SLACK && onPlane(p, faces[seed], faces[h], mergeTol)) {
        group.set(h, gid);
        members.push(h);
      }
    }
  }
  return members;
}

/** The boundary of group `gid` as one vertex loop (≥ 3 vertices), or null when it is not one simple loop. */
function groupBoundary(faces: Face[], members: readonly number[], gid: number, group: Map<number, number>): number[] | null {
  const next = new Map<number, number>();
  let start = -1, count = 0, simple = true;
  for (const mi of members) {
    const g = faces[mi];
    for (let e = 0; e < 3; e++) {
      if (group.get(g.nb[e]) === gid) continue;
      if (next.has(g.v[e])) simple = false;
      next.set(g.v[e], g.v[(e + 1) % 3]);
      start = g.v[e];
      count++;
    }
  }
  const poly: number[] = [];
  if (simple && start >= 0) {
    let v = start;
    for (let k = 0; k < count; k++) {
      poly.push(v);
      const w = next.get(v);
      if (w === undefined) {
        simple = false;
        break;
      }
      v = w;
    }
    if (v !== start || poly.length !== count) simple = false;
  }
  return simple && poly.length >= 3 ? poly : null;
}

/** Hull data from the polygons: vertices renumbered in first-use order, planes by Newell's method. */
function compactHull(p: Float64Array, polys: readonly number[][]): ConvexHullData {
  const remap = new Map<number, number>();
  const verts: number[] = [];
  const faceStart: number[] = [0];
  const faceVerts: number[] = [];
  const planes: number[] = [];
  for (const poly of polys) {
    let nx = 0, ny = 0, nz = 0;
    for (let k = 0; k < poly.length; k++) {
      const a = poly[k], b = poly[(k + 1) % poly.length];
      // Newell: robust polygon normal (Sutherland et al.; Ericson §12.3.1 notes)
      nx += (p[3 * a + 1] - p[3 * b + 1]) * (p[3 * a + 2] + p[3 * b + 2]);
      ny += (p[3 * a + 2] - p[3 * b + 2]) * (p[3 * a] + p[3 * b]);
      nz += (p[3 * a] - p[3 * b]) * (p[3 * a + 1] + p[3 * b + 1]);
    }
    const l = Math.hypot(nx, ny, nz);
    if (!(l > 0)) continue;
    nx /= l;
    ny /= l;
    nz /= l;
    let d = 0;
    for (const a of poly) {
      d += nx * p[3 * a] + ny * p[3 * a + 1] + nz * p[3 * a + 2];
      let r = remap.get(a);
      if (r === undefined) {
        r = verts.length / 3;
        remap.set(a, r);
        verts.push(p[3 * a], p[3 * a + 1], p[3 * a + 2]);
      }
      faceVerts.push(r);
    }
    planes.push(nx, ny, nz, d / poly.length);
    faceStart.push(faceVerts.length);
  }
  return {
    vertices: new Float64Array(verts),
    faceStart: Int32Array.from(faceStart),
    faceVertices: Int32Array.from(faceVerts),
    planes: new Float64Array(planes),
  };
}

function dist2(p: Float64Array, a: number, b: number): number {
  const x = p[3 * a] - p[3 * b], y = p[3 * a + 1] - p[3 * b + 1], z = p[3 * a + 2] - p[3 * b + 2];
  return x * x + y * y + z * z;
}

/** Squared distance of point i from the line through a and b. */
function lineDist2(p: Float64Array, a: number, b: number, i: number): number {
  const ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2];
  const rx = p[3 * i] - p[3 * a], ry = p[3 * i + 1] - p[3 * a + 1], rz = p[3 * i + 2] - p[3 * a + 2];
  const cx = ey * rz - ez * ry, cy = ez * rx - ex * rz, cz = ex * ry - ey * rx;
  return (cx * cx + cy * cy + cz * cz) / (ex * ex + ey * ey + ez * ez);
}

function triNormal(p: Float64Array, a: number, b: number, c: number): [number, number, number] {
  const ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2];
  const vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2];
  return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
}

function normalize3(v: [number, number, number]): void {
  const l = Math.hypot(v[0], v[1], v[2]);
  if (l > 0) {
    v[0] /= l;
    v[1] /= l;
    v[2] /= l;
  }
}

function makeFace(p: Float64Array, a: number, b: number, c: number): Face {
  const nrm = triNormal(p, a, b, c);
  normalize3(nrm);
  // Offset from the centroid of the three vertices (less rounding than from one vertex).
  const d =
    (nrm[0] * (p[3 * a] + p[3 * b] + p[3 * c]) + nrm[1] * (p[3 * a + 1] + p[3 * b + 1] + p[3 * c + 1]) + nrm[2] * (p[3 * a + 2] + p[3 * b + 2] + p[3 * c + 2])) / 3;
  return { v: [a, b, c], n: nrm, d, nb: [-1, -1, -1], alive: true, outside: [], visible: 0 };
}

/** All three vertices of `g` within `tol` of the plane of `f`. */
function onPlane(p: Float64Array, f: Face, g: Face, tol: number): boolean {
  for (let k = 0; k < 3; k++) if (Math.abs(planeDist(p, f, g.v[k])) > tol) return false;
  return true;
}

function planeDist(p: Float64Array, f: Face, i: number): number {
  return f.n[0] * p[3 * i] + f.n[1] * p[3 * i + 1] + f.n[2] * p[3 * i + 2] - f.d;
}

/** Neighbour links among `ids` by matching opposite half-edges. */
function linkByEdges(faces: Face[], ids: number[]): void {
  for (const i of ids) {
    for (let e = 0; e < 3; e++) {
      const a = faces[i].v[e], b = faces[i].v[(e + 1) % 3];
      for (const j of ids) {
        if (j === i) continue;
        for (let q = 0; q < 3; q++) {
          if (faces[j].v[q] === b && faces[j].v[(q + 1) % 3] === a) faces[i].nb[e] = j;
        }
      }
    }
  }
}

/** Puts point i into the conflict list of the face among `ids` it is farthest above (if > eps). */
function assign(p: Float64Array, faces: Face[], ids: number[], i: number, eps: number): void {
  let bestF = -1, bestD = eps;
  for (const fi of ids) {
    const d = planeDist(p, faces[fi], i);
    if (d > bestD) {
      bestD = d;
      bestF = fi;
    }
  }
  if (bestF >= 0) faces[bestF].outside.push(i);
}
