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
export const HULL_STATUS_NAMES: readonly string[] = ['ok', 'too-few-points', 'coincident', 'collinear', 'coplanar', 'not-finite', 'too-many-vertices'];

export interface HullBuildOptions {
  /** [m] When the input is coplanar, extrude it to a slab this thick (centred on the plane). */
  flatThickness?: number;
  /** Vertex cap (default HULL_MAX_VERTICES). */
  maxVertices?: number;
}

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
 */
export function buildConvexHull(points: ArrayLike<number>, options: HullBuildOptions = {}): HullBuildResult {
  const n = Math.floor(points.length / 3);
  const p = Float64Array.from(points as ArrayLike<number>).subarray(0, n * 3);
  for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) return fail(HullStatus.NotFinite, `coordinate ${i} is not finite`);
  if (n === 0) return fail(HullStatus.TooFewPoints, 'no points');
  let scale = 0;
  for (let k = 0; k < 3; k++) {
    let m = 0;
    for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(p[3 * i + k]));
    scale += m;
  }
  const eps = HULL_DISTANCE_RELATIVE * scale;

  // --- initial simplex from extreme points -----------------------------------------------------
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
  if (!(Math.sqrt(best) > eps)) return fail(HullStatus.Coincident, 'all points coincide', eps);
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
  if (i2 < 0 || !(Math.sqrt(best) > eps)) return fail(HullStatus.Collinear, 'all points lie on one line', eps);
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
  if (i3 < 0 || !(best > eps)) {
    const t = options.flatThickness;
    if (t !== undefined && t > 0 && Number.isFinite(t)) {
      // Slab: every point twice, ±t/2 along the plane normal.
      const slab = new Float64Array(n * 6);
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < 3; k++) {
          slab[6 * i + k] = p[3 * i + k] + pn[k] * (t / 2);
          slab[6 * i + 3 + k] = p[3 * i + k] - pn[k] * (t / 2);
        }
      }
      const res = buildConvexHull(slab, { maxVertices: options.maxVertices });
      res.flattened = true;
      return res;
    }
    return fail(HullStatus.Coplanar, 'all points lie in one plane (pass flatThickness to make a slab)', eps);
  }

  // --- tetrahedron ------------------------------------------------------------------------------
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

  // --- conflict lists ---------------------------------------------------------------------------
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2 || i === i3) continue;
    assign(p, faces, [0, 1, 2, 3], i, eps);
  }

  // --- incremental insertion --------------------------------------------------------------------
  let skipped = 0;
  let mark = 0;
  const stack: number[] = [];
  for (let fi = 0; fi < faces.length; fi++) {
    const f = faces[fi];
    while (f.alive && f.outside.length > 0) {
      // Farthest conflict point of this face.
      let eyeK = 0, eyeD = -Infinity;
      for (let k = 0; k < f.outside.length; k++) {
        const d = planeDist(p, f, f.outside[k]);
        if (d > eyeD) {
          eyeD = d;
          eyeK = k;
        }
      }
      const eye = f.outside[eyeK];
      // Visible region (BFS over neighbours).
      mark++;
      const visible: number[] = [fi];
      f.visible = mark;
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
      // Horizon: edges of visible faces whose neighbour is not visible, chained into one loop.
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
      const loop: number[] = [];
      if (ok && hFrom.length >= 3) {
        let e = 0;
        for (let k = 0; k < hFrom.length; k++) {
          loop.push(e);
          const next = startOf.get(hTo[e]);
          if (next === undefined) {
            ok = false;
            break;
          }
          e = next;
        }
        if (ok && e !== 0) ok = false;
        if (ok && new Set(loop).size !== hFrom.length) ok = false;
      } else {
        ok = false;
      }
      if (!ok) {
        // Not a disc (rounding near-coplanar faces): drop this point, it is within a few ε.
        f.outside.splice(eyeK, 1);
        skipped++;
        continue;
      }
      // Fan of new faces from the horizon to the eye.
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
      // Hand the conflict points of the deleted faces to the new ones.
      for (const vi of visible) {
        const g = faces[vi];
        g.alive = false;
        for (const q of g.outside) if (q !== eye) assign(p, faces, newIds, q, eps);
        g.outside = [];
      }
    }
  }

  // --- merge coplanar triangles into polygons -----------------------------------------------------
  const alive: number[] = [];
  for (let i = 0; i < faces.length; i++) if (faces[i].alive) alive.push(i);
  const group = new Map<number, number>();
  const mergeTol = Math.max(eps, HULL_MERGE_DISTANCE_RELATIVE * scale);
  const polys: number[][] = [];
  for (const seed of alive) {
    if (group.has(seed)) continue;
    const gid = polys.length;
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
    // Boundary loop of the group.
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
    if (simple && poly.length >= 3) {
      polys.push(poly);
    } else {
      // Merging failed (should not happen for a convex group): keep the triangles.
      for (const mi of members) {
        group.set(mi, polys.length);
        polys.push([...faces[mi].v]);
      }
    }
  }

  // --- compact vertices, planes by Newell's method -------------------------------------------------
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
  const maxV = options.maxVertices ?? HULL_MAX_VERTICES;
  if (verts.length / 3 > maxV) return fail(HullStatus.TooManyVertices, `hull has ${verts.length / 3} vertices (> ${maxV})`, eps);
  return {
    status: HullStatus.Ok,
    data: {
      vertices: new Float64Array(verts),
      faceStart: Int32Array.from(faceStart),
      faceVertices: Int32Array.from(faceVerts),
      planes: new Float64Array(planes),
    },
    message: '',
    flattened: false,
    tolerance: eps,
    skippedPoints: skipped,
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
