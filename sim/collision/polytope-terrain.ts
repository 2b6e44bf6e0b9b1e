/**
 * Small polytope (box or convex hull) vs heightfield terrain: the rocks' narrow phase.
 *
 * The general routine (collideConvexHeightfield: per element, supporting-face clipping, GJK for
 * edges, reduction) costs 20–50 µs per rock; a rock spans a handful of cells, and between two
 * polyhedral surfaces every contact is one of three feature pairs, each a closed formula:
 *
 *   vertex–face   a rock vertex V over element P (the element under V, as Heightfield.heightAt
 *                 triangulates): s = k_P − n_P·V (> 0 below the plane); contact if s > −margin,
 *                 point V + s·n_P on the plane, normal n_P (out of the terrain), depth s.
 *   face–vertex   a grid vertex G inside (or within the margin of) the rock: d = max over the
 *                 rock's faces f of n_f·G − d_f (the exact signed distance inside; outside it
 *                 is a lower bound, equal to 0 exactly when G touches); the face of the max
 *                 gives the normal −n_f; point G, depth −d.
 *   edge–edge     a rock edge crossing a convex terrain edge (EdgeClass Convex or Active: the
 *                 grid lines and, in triangulated cells, the diagonal): along the rock edge's
 *                 vertical plane the terrain is piecewise linear with its kinks exactly at these
 *                 crossings, so the edge's lowest points against the terrain are its end points
 *                 (vertex–face) or these crossings. At a crossing the vertical gap g between the
 *                 two lines gives the distance along their common normal n = e_rock × e_terrain
 *                 (n_z > 0): depth = −g·n_z.
 *
 * Line contacts (a rock edge lying on an element across a convex terrain edge, a terrain edge
 * lying along a rock face): the pair tests above are exact (SUPPORT_TOLERANCE, 1 nm), so of the
 * line's two ends only the lower one passed, and which one that was flipped as a resting rock
 * rocked by microns; the support jumped ~5 cm between steps and the soft contact's push-out at
 * the newly reported end fed energy in (issue #13: rocks on peaks rocking by ±2–4 mm and
 * gaining energy). Now each end stays a support while the line is within LINE_CONTACT_SLOPE of
 * the surface it lies on: a crossing that fails the edge–edge test only because an element's far
 * vertex (or a rock vertex) lies that little beyond the pair's plane is reported against that
 * element (its normal, the rock edge's point there) or that rock face (its normal, the terrain
 * point there), exact depths; face–vertex takes a grid vertex as a support when its neighbours
 * are at most that slope above it along the face normal.
 *
 * Candidates are grouped by normal and each group reduced to MANIFOLD_MAX_POINTS by the engine's
 * one reducer (reduce-manifold.ts), like the general routine. Everything lives in
 * a PolytopeTerrainWorkspace; nothing allocates per call.
 *
 * Validated against collideConvexHeightfield and a brute-force oracle in
 * test/scenarios/dynamics/polytope-terrain.test.ts.
 */
import { MANIFOLD_MAX_NORMAL_GROUPS } from '../constants';
import { ContactBuffer } from './contact';
import { ManifoldGroups, ReduceManifoldStatus, reduceManifoldInto } from './reduce-manifold';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { BoxShape } from '../shapes/box';
import type { ConvexHullShape } from '../shapes/convex-hull';
import type { Shape } from '../shapes/shape';
import { ShapeKind } from '../shapes/shape';
import { CellEdge, EdgeClass } from '../terrain/edge-class';
import type { Heightfield } from '../terrain/heightfield';

/**
 * Candidate contacts of one query before reduction: a rock over ~5 × 5 cells makes a few dozen; a
 * 1.0 × 0.6 m chassis lying flat on a 5 cm grid about 300 grid vertices under its bottom face and
 * as many edge crossings. A query that makes more reports overflow (the caller falls back).
 */
const CANDIDATE_CAPACITY = 1024;
/** |e_rock × e_terrain|² below this (unit vectors) is parallel: the end points' vertex contacts cover it. */
const PARALLEL_SIN2 = 1e-6;

/** [m] Slack of the support tests (a feature is extreme along a direction up to this). */
const SUPPORT_TOLERANCE = 1e-9;

/**
 * [m] A terrain vertex inside the rock takes the normal of a face at most this much farther than
 * the nearest one, when the nearest is not a valid pair (see face–vertex).
 */
const FACE_VERTEX_SLACK = 0.001;

/**
 * [-] A line contact (a rock edge lying on a terrain element, a terrain edge lying along a rock
 * face) keeps both of its ends while the line is within this slope (≈ 3°) of the surface it lies
 * on: each end is a support up to this tilt (see edgeCandidate, vertexSupports).
 */
const LINE_CONTACT_SLOPE = 0.05;
const LINE_CONTACT_SLOPE2 = LINE_CONTACT_SLOPE * LINE_CONTACT_SLOPE;
/** [-] Cosine of the angle whose tangent is LINE_CONTACT_SLOPE. */
const LINE_CONTACT_COS = 1 / Math.sqrt(1 + LINE_CONTACT_SLOPE2);
/**
 * [-] A line contact's end against a rock face (edgeCandidate) needs the face to point down by at
 * least this (its contact normal within 60° of vertical).
 */
const FACE_CLIP_MIN_NZ = 0.5;
/** [m] A rock vertex lies on a face plane up to this (hull planes are fitted in float64). */
const FACE_EDGE_TOLERANCE = 1e-7;
/** Feature bits of a crossing reported as a line contact's end: against the element, against the rock face. */
const FEATURE_ELEMENT_CLIP = 1 << 26;
const FEATURE_FACE_CLIP = 1 << 27;

/** Contact kinds of this routine (feature tag in `feature`'s top bits). */
const TAG_VERTEX_FACE = 1 << 28;
const TAG_FACE_VERTEX = 2 << 28;
const TAG_EDGE_EDGE = 3 << 28;

/** A rock's geometry in its shape frame: vertices, face planes (n, d with n·x = d), edges. */
export class Polytope {
  readonly vertices: Float64Array;
  readonly planes: Float64Array;
  readonly edges: Int32Array;
  /** [m] Largest distance of a vertex from the shape frame's origin. */
  readonly radius: number;
  get vertexCount(): number {
    return this.vertices.length / 3;
  }
  get faceCount(): number {
    return this.planes.length / 4;
  }
  get edgeCount(): number {
    return this.edges.length / 2;
  }

  private constructor(vertices: Float64Array, planes: Float64Array, edges: Int32Array) {
    this.vertices = vertices;
    this.planes = planes;
    this.edges = edges;
    let r2 = 0;
    for (let k = 0; k < vertices.length; k += 3) r2 = Math.max(r2, vertices[k] * vertices[k] + vertices[k + 1] * vertices[k + 1] + vertices[k + 2] * vertices[k + 2]);
    this.radius = Math.sqrt(r2);
  }

  /** The polytope of a box or hull shape; null for any other shape. */
  static of(shape: Shape): Polytope | null {
    if (shape.kind === ShapeKind.Box) {
      const h = (shape as BoxShape).halfExtents;
      const v = new Float64Array(24);
      for (let c = 0; c < 8; c++) {
        v[3 * c] = c & 1 ? h[0] : -h[0];
        v[3 * c + 1] = c & 2 ? h[1] : -h[1];
        v[3 * c + 2] = c & 4 ? h[2] : -h[2];
      }
      const p = new Float64Array(24);
      for (let a = 0; a < 3; a++) {
        p[8 * a + a] = -1; p[8 * a + 3] = h[a];
        p[8 * a + 4 + a] = 1; p[8 * a + 7] = h[a];
      }
      const e: number[] = [];
      for (let c = 0; c < 8; c++) for (const bit of [1, 2, 4]) if (!(c & bit)) e.push(c, c | bit);
      return new Polytope(v, p, Int32Array.from(e));
    }
    if (shape.kind === ShapeKind.ConvexHull) {
      const hull = shape as ConvexHullShape;
      const e: number[] = [];
      for (let a = 0; a < hull.vertexCount; a++) {
        for (let k = hull.adjStart[a]; k < hull.adjStart[a + 1]; k++) {
          const b = hull.adjList[k];
          if (a < b) e.push(a, b);
        }
      }
      return new Polytope(Float64Array.from(hull.vertices), Float64Array.from(hull.planes), Int32Array.from(e));
    }
    return null;
  }
}

/** Reusable buffers of the routine (one per world). */
export class PolytopeTerrainWorkspace {
  verts = new Float64Array(3 * 64);
  planes = new Float64Array(4 * 64);
  readonly cand = new ContactBuffer(CANDIDATE_CAPACITY);
  /** (The fourth point of a manifold among all of its points: a box face tilting over a grid, reduce-manifold.ts.) */
  readonly groups = new ManifoldGroups(CANDIDATE_CAPACITY, MANIFOLD_MAX_NORMAL_GROUPS, true);
  // Numbers handed to the helpers below instead of float arguments (V8 boxes a double passed to
  // a call it does not inline; a double stored in a typed array or an object field is not).
  /** Candidate for writeCandidate: point on the terrain, normal out of it, depth [m]. */
  readonly candPoint = new Float64Array(3);
  readonly candNormal = new Float64Array(3);
  candDepth = 0.5;
  /** Edge pair for edgeEdgeCandidate: the point on the rock edge over the crossing and the edge's direction. */
  readonly edgePoint = new Float64Array(3);
  readonly edgeDir = new Float64Array(3);
  /** Edge pair: the terrain edge's direction (its height rise in z). */
  readonly terrainEdge = new Float64Array(3);
  /** [m] Edge pair: the terrain's height at the crossing, and the margin. */
  terrainHeight = 0.5;
  edgeMargin = 0.5;
  /** [m] Element clip (elementCandidate): the rock edge's vertical gap above the terrain. */
  clipGap = 0.5;
  /** Element clip: the element's far vertex, relative to the terrain point. */
  readonly farVertex = new Float64Array(3);
  /** [m] The query's margin (collidePolytopeTerrainInto). */
  margin = 0.5;
  /** The rock's rotation matrix, row-major (toWorld). */
  readonly rot = new Float64Array(9);
  /** Bounds of the rock's world vertices: min x, y, z, max x, y, z (toWorld). */
  readonly box = new Float64Array(6);

  ensure(vertexCount: number, faceCount: number): void {
    if (this.verts.length < 3 * vertexCount) this.verts = new Float64Array(3 * vertexCount);
    if (this.planes.length < 4 * faceCount) this.planes = new Float64Array(4 * faceCount);
  }
}

/** Status: 0 ok; 1 a buffer was full (contacts were dropped). */
export const POLYTOPE_TERRAIN_OK = 0;
export const POLYTOPE_TERRAIN_OVERFLOW = 1;

/**
 * The rock's vertices in world coordinates (ws.verts), its rotation matrix (ws.rot, row-major)
 * and the vertices' bounds (ws.box) at pose (p, q).
 */
function toWorld(ws: PolytopeTerrainWorkspace, poly: Polytope, p: Readonly<Vec3>, q: Readonly<Quat>): void {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const px = p[0], py = p[1], pz = p[2];
  const r00 = 1 - 2 * (qy * qy + qz * qz), r01 = 2 * (qx * qy - qz * qw), r02 = 2 * (qx * qz + qy * qw);
  const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
  const r20 = 2 * (qx * qz - qy * qw), r21 = 2 * (qy * qz + qx * qw), r22 = 1 - 2 * (qx * qx + qy * qy);
  const R = ws.rot;
  R[0] = r00; R[1] = r01; R[2] = r02; R[3] = r10; R[4] = r11; R[5] = r12; R[6] = r20; R[7] = r21; R[8] = r22;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  const V = poly.vertices, W = ws.verts;
  for (let k = 0, n = poly.vertexCount; k < n; k++) {
    const x = V[3 * k], y = V[3 * k + 1], z = V[3 * k + 2];
    const wx = px + r00 * x + r01 * y + r02 * z;
    const wy = py + r10 * x + r11 * y + r12 * z;
    const wz = pz + r20 * x + r21 * y + r22 * z;
    W[3 * k] = wx; W[3 * k + 1] = wy; W[3 * k + 2] = wz;
    if (wx < minX) minX = wx;
    if (wx > maxX) maxX = wx;
    if (wy < minY) minY = wy;
    if (wy > maxY) maxY = wy;
    if (wz < minZ) minZ = wz;
    if (wz > maxZ) maxZ = wz;
  }
  const B = ws.box;
  B[0] = minX; B[1] = minY; B[2] = minZ; B[3] = maxX; B[4] = maxY; B[5] = maxZ;
}

/**
 * Contacts between polytope `poly` at pose (p, q) (its shape frame in world) and the terrain,
 * appended to `out`: point on the terrain, normal out of the terrain, depth ≥ −margin.
 * cellI/cellJ: the terrain cell. Returns a status.
 */
export function collidePolytopeTerrain(
  out: ContactBuffer, poly: Polytope, p: Readonly<Vec3>, q: Readonly<Quat>, hf: Heightfield, margin: number,
  ws: PolytopeTerrainWorkspace,
): number {
  ws.margin = margin;
  return collidePolytopeTerrainInto(out, poly, p, q, hf, ws);
}

/**
 * collidePolytopeTerrain with the margin [m] taken from ws.margin (the caller writes it there): the
 * per-step form, whose call passes no double (V8 boxes a double argument of a call it does not
 * inline).
 */
export function collidePolytopeTerrainInto(
  out: ContactBuffer, poly: Polytope, p: Readonly<Vec3>, q: Readonly<Quat>, hf: Heightfield, ws: PolytopeTerrainWorkspace,
): number {
  const margin = ws.margin;
  const nv = poly.vertexCount, nf = poly.faceCount;
  ws.ensure(nv, nf);
  const W = ws.verts, WP = ws.planes;
  const px = p[0], py = p[1], pz = p[2];
  toWorld(ws, poly, p, q);
  const R = ws.rot, B = ws.box;
  const r00 = R[0], r01 = R[1], r02 = R[2], r10 = R[3], r11 = R[4], r12 = R[5], r20 = R[6], r21 = R[7], r22 = R[8];
  const minX = B[0], minY = B[1], minZ = B[2], maxX = B[3], maxY = B[4], maxZ = B[5];
  const x0 = hf.x0, y0 = hf.y0, dx = hf.dx, dy = hf.dy, cols = hf.cols, H = hf.heights;
  const cellsX = hf.cellsX, cellsY = hf.cellsY;
  // cell range under the rock (grown by the margin), clamped to the grid
  let i0 = Math.floor((minX - margin - x0) / dx), i1 = Math.floor((maxX + margin - x0) / dx);
  let j0 = Math.floor((minY - margin - y0) / dy), j1 = Math.floor((maxY + margin - y0) / dy);
  if (i0 < 0) i0 = 0;
  if (j0 < 0) j0 = 0;
  if (i1 > cellsX - 1) i1 = cellsX - 1;
  if (j1 > cellsY - 1) j1 = cellsY - 1;
  if (i0 > i1 || j0 > j1) return POLYTOPE_TERRAIN_OK;
  // highest terrain vertex under it: nothing to do when the rock is above it by more than the margin
  let hMax = -Infinity;
  for (let j = j0; j <= j1 + 1; j++) for (let i = i0; i <= i1 + 1; i++) {
    const h = H[j * cols + i];
    if (h > hMax) hMax = h;
  }
  if (minZ - hMax > margin) return POLYTOPE_TERRAIN_OK;

  const cand = ws.cand;
  cand.clear();

  // --- vertex–face ---------------------------------------------------------------------------
  for (let k = 0; k < nv; k++) {
    const vx = W[3 * k], vy = W[3 * k + 1], vz = W[3 * k + 2];
    if (vz - hMax > margin) continue;
    const fx = (vx - x0) / dx, fy = (vy - y0) / dy;
    if (!(fx >= 0 && fy >= 0 && fx <= cellsX && fy <= cellsY)) continue;
    let i = Math.floor(fx), j = Math.floor(fy);
    if (i >= cellsX) i = cellsX - 1;
    if (j >= cellsY) j = cellsY - 1;
    const c = j * cols + i;
    const upper = !hf.cellIsRectangle(i, j) && fx - i + (fy - j) > 1;
    // element plane: slopes and a point (Heightfield.elementPlane's formulas)
    let sx: number, sy: number, ox: number, oy: number, oz: number;
    if (upper) {
      sx = (H[c + cols + 1] - H[c + cols]) / dx;
      sy = (H[c + cols + 1] - H[c + 1]) / dy;
      ox = x0 + (i + 1) * dx; oy = y0 + (j + 1) * dy; oz = H[c + cols + 1];
    } else {
      sx = (H[c + 1] - H[c]) / dx;
      sy = (H[c + cols] - H[c]) / dy;
      ox = x0 + i * dx; oy = y0 + j * dy; oz = H[c];
    }
    const inv = 1 / Math.sqrt(sx * sx + sy * sy + 1);
    const nx = -sx * inv, ny = -sy * inv, nz = inv;
    const s = nx * (ox - vx) + ny * (oy - vy) + nz * (oz - vz);
    if (s <= -margin) continue;
    const slot = cand.reserve();
    if (slot < 0) break;
    ws.candPoint[0] = vx + s * nx; ws.candPoint[1] = vy + s * ny; ws.candPoint[2] = vz + s * nz; ws.candNormal[0] = nx; ws.candNormal[1] = ny; ws.candNormal[2] = nz; ws.candDepth = s;
    writeCandidate(cand, slot, ws, i, j, TAG_VERTEX_FACE | k);
  }

  // --- face–vertex ---------------------------------------------------------------------------
  const P = poly.planes;
  for (let f = 0; f < nf; f++) {
    const x = P[4 * f], y = P[4 * f + 1], z = P[4 * f + 2];
    const nx = r00 * x + r01 * y + r02 * z, ny = r10 * x + r11 * y + r12 * z, nz = r20 * x + r21 * y + r22 * z;
    WP[4 * f] = nx; WP[4 * f + 1] = ny; WP[4 * f + 2] = nz;
    WP[4 * f + 3] = P[4 * f + 3] + nx * px + ny * py + nz * pz;
  }
  const gi0 = Math.max(0, Math.ceil((minX - margin - x0) / dx)), gi1 = Math.min(cellsX, Math.floor((maxX + margin - x0) / dx));
  const gj0 = Math.max(0, Math.ceil((minY - margin - y0) / dy)), gj1 = Math.min(cellsY, Math.floor((maxY + margin - y0) / dy));
  let hint = 0; // the face that put the last grid vertex outside (neighbours usually share it)
  for (let j = gj0; j <= gj1; j++) {
    const gy = y0 + j * dy;
    for (let i = gi0; i <= gi1; i++) {
      const gz = H[j * cols + i];
      if (gz < minZ - margin || gz > maxZ + margin) continue;
      const gx = x0 + i * dx;
      if (WP[4 * hint] * gx + WP[4 * hint + 1] * gy + WP[4 * hint + 2] * gz - WP[4 * hint + 3] >= margin) continue;
      // the nearest face whose (negated) normal the terrain vertex supports: the terrain lies
      // below the plane through G with normal −n_f (no ghost contact from a vertex under a
      // bottom face against the side face it is about to slide under)
      // (among the faces within FACE_VERTEX_SLACK of the nearest: a face farther than that would
      // report a depth the pair does not have)
      let dmax = -Infinity;
      for (let f = 0; f < nf; f++) {
        const d = WP[4 * f] * gx + WP[4 * f + 1] * gy + WP[4 * f + 2] * gz - WP[4 * f + 3];
        if (d > dmax) {
          dmax = d;
          if (d >= margin) {
            hint = f;
            break;
          }
        }
      }
      if (dmax >= margin) continue;
      let best = -Infinity, bf = -1;
      for (let f = 0; f < nf; f++) {
        const d = WP[4 * f] * gx + WP[4 * f + 1] * gy + WP[4 * f + 2] * gz - WP[4 * f + 3];
        // (a heightfield's outward normals all point up: −n_f must too)
        if (d < dmax - FACE_VERTEX_SLACK || d <= best || WP[4 * f + 2] >= 0) continue;
        if (vertexSupports(hf, i, j, WP, f)) {
          best = d;
          bf = f;
        }
      }
      if (bf < 0) continue;
      const slot = cand.reserve();
      if (slot < 0) break;
      ws.candPoint[0] = gx; ws.candPoint[1] = gy; ws.candPoint[2] = gz; ws.candNormal[0] = -WP[4 * bf]; ws.candNormal[1] = -WP[4 * bf + 1]; ws.candNormal[2] = -WP[4 * bf + 2]; ws.candDepth = -best;
      writeCandidate(cand, slot, ws, i < cellsX ? i : cellsX - 1, j < cellsY ? j : cellsY - 1, TAG_FACE_VERTEX | (bf << 16));
    }
  }

  // --- edge–edge: rock edges across convex terrain edges -------------------------------------
  const E = poly.edges, ne = poly.edgeCount;
  for (let e = 0; e < ne; e++) {
    const a = E[2 * e], b = E[2 * e + 1];
    const ax = W[3 * a], ay = W[3 * a + 1], az = W[3 * a + 2];
    const bx = W[3 * b], by = W[3 * b + 1], bz = W[3 * b + 2];
    if (Math.min(az, bz) - hMax > margin) continue;
    const ex = bx - ax, ey = by - ay, ez = bz - az;
    // crossings with the vertical grid lines x = X_i
    if (ex !== 0) {
      const lo = Math.max(0, Math.ceil((Math.min(ax, bx) - x0) / dx)), hi = Math.min(cellsX, Math.floor((Math.max(ax, bx) - x0) / dx));
      for (let i = lo; i <= hi; i++) {
        const t = (x0 + i * dx - ax) / ex;
        if (!(t > 0 && t < 1)) continue;
        const y = ay + t * ey;
        const fy = (y - y0) / dy;
        if (!(fy >= 0 && fy < cellsY)) continue;
        const j = Math.floor(fy);
        // the rock edge passing higher than the margin above the terrain edge: no candidate
        // (edgeCandidate's first test, done before the edge-class lookup)
        const h0 = H[j * cols + i], h1 = H[(j + 1) * cols + i];
        const z = az + t * ez, h = h0 + (fy - j) * (h1 - h0);
        if (z - h >= margin) continue;
        const cls = i < cellsX ? hf.edgeClass(i, j, CellEdge.Left) : hf.edgeClass(i - 1, j, CellEdge.Right);
        if (cls !== EdgeClass.Convex && cls !== EdgeClass.Active) continue;
        ws.edgePoint[0] = ax + t * ex; ws.edgePoint[1] = y; ws.edgePoint[2] = z; ws.edgeDir[0] = ex; ws.edgeDir[1] = ey; ws.edgeDir[2] = ez;
        ws.terrainEdge[0] = 0; ws.terrainEdge[1] = dy; ws.terrainEdge[2] = h1 - h0; ws.terrainHeight = h; ws.edgeMargin = margin;
        if (!edgeCandidate(cand, ws, poly, hf, i + 1, j, i - 1, j + 1, i < cellsX ? i : i - 1, j, TAG_EDGE_EDGE | (e << 2))) break;
      }
    }
    // crossings with the horizontal grid lines y = Y_j
    if (ey !== 0) {
      const lo = Math.max(0, Math.ceil((Math.min(ay, by) - y0) / dy)), hi = Math.min(cellsY, Math.floor((Math.max(ay, by) - y0) / dy));
      for (let j = lo; j <= hi; j++) {
        const t = (y0 + j * dy - ay) / ey;
        if (!(t > 0 && t < 1)) continue;
        const x = ax + t * ex;
        const fx = (x - x0) / dx;
        if (!(fx >= 0 && fx < cellsX)) continue;
        const i = Math.floor(fx);
        const h0 = H[j * cols + i], h1 = H[j * cols + i + 1];
        const z = az + t * ez, h = h0 + (fx - i) * (h1 - h0);
        if (z - h >= margin) continue;
        const cls = j < cellsY ? hf.edgeClass(i, j, CellEdge.Bottom) : hf.edgeClass(i, j - 1, CellEdge.Top);
        if (cls !== EdgeClass.Convex && cls !== EdgeClass.Active) continue;
        ws.edgePoint[0] = x; ws.edgePoint[1] = ay + t * ey; ws.edgePoint[2] = z; ws.edgeDir[0] = ex; ws.edgeDir[1] = ey; ws.edgeDir[2] = ez;
        ws.terrainEdge[0] = dx; ws.terrainEdge[1] = 0; ws.terrainEdge[2] = h1 - h0; ws.terrainHeight = h; ws.edgeMargin = margin;
        if (!edgeCandidate(cand, ws, poly, hf, i, j + 1, i + 1, j - 1, i, j < cellsY ? j : j - 1, TAG_EDGE_EDGE | (e << 2) | 1)) break;
      }
    }
    // crossings with the diagonals u + v = m (V1–V2 of the cells with i + j + 1 = m), triangulated cells only
    const ua = (ax - x0) / dx + (ay - y0) / dy, ub = (bx - x0) / dx + (by - y0) / dy;
    if (ua !== ub) {
      const lo = Math.ceil(Math.min(ua, ub)), hi = Math.floor(Math.max(ua, ub));
      for (let m = lo; m <= hi; m++) {
        const t = (m - ua) / (ub - ua);
        if (!(t > 0 && t < 1)) continue;
        const x = ax + t * ex, y = ay + t * ey;
        const fx = (x - x0) / dx, fy = (y - y0) / dy;
        if (!(fx >= 0 && fy >= 0 && fx < cellsX && fy < cellsY)) continue;
        const i = Math.floor(fx), j = m - 1 - i;
        if (j < 0 || j >= cellsY) continue;
        // diagonal from V1 (i+1, j) to V2 (i, j+1); position along it: w = fy − j
        const h1 = H[j * cols + i + 1], h2 = H[(j + 1) * cols + i];
        const w = fy - j;
        const z = az + t * ez, h = h1 + w * (h2 - h1);
        if (z - h >= margin || hf.cellIsRectangle(i, j)) continue;
        const cls = hf.edgeClass(i, j, CellEdge.Diagonal);
        if (cls !== EdgeClass.Convex && cls !== EdgeClass.Active) continue;
        ws.edgePoint[0] = x; ws.edgePoint[1] = y; ws.edgePoint[2] = z; ws.edgeDir[0] = ex; ws.edgeDir[1] = ey; ws.edgeDir[2] = ez;
        ws.terrainEdge[0] = -dx; ws.terrainEdge[1] = dy; ws.terrainEdge[2] = h2 - h1; ws.terrainHeight = h; ws.edgeMargin = margin;
        if (!edgeCandidate(cand, ws, poly, hf, i, j, i + 1, j + 1, i, j, TAG_EDGE_EDGE | (e << 2) | 2)) break;
      }
    }
  }

  // --- group by normal, reduce each group (reduce-manifold.ts) --------------------------------
  const rs = reduceManifoldInto(out, cand, ws.groups);
  return cand.overflow > 0 || rs !== ReduceManifoldStatus.Ok ? POLYTOPE_TERRAIN_OVERFLOW : POLYTOPE_TERRAIN_OK;
}

function writeCandidate(buf: ContactBuffer, k: number, ws: PolytopeTerrainWorkspace, i: number, j: number, feature: number): void {
  const k3 = 3 * k;
  buf.point[k3] = ws.candPoint[0]; buf.point[k3 + 1] = ws.candPoint[1]; buf.point[k3 + 2] = ws.candPoint[2];
  buf.normal[k3] = ws.candNormal[0]; buf.normal[k3 + 1] = ws.candNormal[1]; buf.normal[k3 + 2] = ws.candNormal[2];
  buf.depth[k] = ws.candDepth;
  buf.kind[k] = 0;
  buf.cellI[k] = i;
  buf.cellJ[k] = j;
  buf.feature[k] = feature;
}

/**
 * Edge–edge candidate at a crossing (ws.edgePoint, edgeDir, terrainEdge, terrainHeight, edgeMargin): rock edge direction (ex, ey, ez) at point
 * (x, y, z); terrain edge direction (tx, ty, tz) with the terrain at height h there; far vertices
 * (ci0, cj0), (ci1, cj1) of the elements sharing the terrain edge. False when the
 * candidate buffer is full.
 */
function edgeCandidate(
  cand: ContactBuffer, ws: PolytopeTerrainWorkspace, poly: Polytope, hf: Heightfield, ci0: number, cj0: number, ci1: number, cj1: number,
  i: number, j: number, feature: number,
): boolean {
  const nv = poly.vertexCount;
  const x = ws.edgePoint[0], y = ws.edgePoint[1], z = ws.edgePoint[2], ex = ws.edgeDir[0], ey = ws.edgeDir[1], ez = ws.edgeDir[2], tx = ws.terrainEdge[0], ty = ws.terrainEdge[1], tz = ws.terrainEdge[2], h = ws.terrainHeight, margin = ws.edgeMargin;
  const g = z - h;
  if (g >= margin) return true;
  let nx = ey * tz - ez * ty, ny = ez * tx - ex * tz, nz = ex * ty - ey * tx;
  const n2 = nx * nx + ny * ny + nz * nz;
  const e2 = (ex * ex + ey * ey + ez * ez) * (tx * tx + ty * ty + tz * tz);
  if (n2 <= PARALLEL_SIN2 * e2) return true;
  const inv = (nz < 0 ? -1 : 1) / Math.sqrt(n2);
  nx *= inv; ny *= inv; nz *= inv;
  const depth = -g * nz;
  if (depth <= -margin) return true;
  // a real edge–edge pair only: the rock lies above the plane P through its edge point with
  // normal n (its edge is its lowest feature along −n) and the terrain below the one through the
  // terrain point (the terrain edge is its highest feature along n: the far vertices of the two
  // elements sharing it lie below)
  const W = ws.verts;
  // rockOk: no rock vertex below P; faceFlat: those below lie within LINE_CONTACT_SLOPE of it
  // (a rock face through the edge lies along P; the loop stops at the first vertex beyond that)
  let rockOk = true, faceFlat = true;
  for (let k = 0; k < nv; k++) {
    const lx = W[3 * k] - x, ly = W[3 * k + 1] - y, lz = W[3 * k + 2] - z;
    const d = nx * lx + ny * ly + nz * lz;
    if (d < -SUPPORT_TOLERANCE) {
      rockOk = false;
      if (d * d > LINE_CONTACT_SLOPE2 * (lx * lx + ly * ly + lz * lz)) {
        faceFlat = false;
        break;
      }
    }
  }
  const H = hf.heights, cols = hf.cols;
  let f0x = 0, f0y = 0, f0z = 0, s0 = -Infinity, f1x = 0, f1y = 0, f1z = 0, s1 = -Infinity;
  if (ci0 >= 0 && cj0 >= 0 && ci0 < cols && cj0 < hf.rows) {
    f0x = hf.x0 + ci0 * hf.dx - x; f0y = hf.y0 + cj0 * hf.dy - y; f0z = H[cj0 * cols + ci0] - h;
    s0 = nx * f0x + ny * f0y + nz * f0z;
  }
  if (ci1 >= 0 && cj1 >= 0 && ci1 < cols && cj1 < hf.rows) {
    f1x = hf.x0 + ci1 * hf.dx - x; f1y = hf.y0 + cj1 * hf.dy - y; f1z = H[cj1 * cols + ci1] - h;
    s1 = nx * f1x + ny * f1y + nz * f1z;
  }
  if (rockOk && s0 <= SUPPORT_TOLERANCE && s1 <= SUPPORT_TOLERANCE) {
    const slot = cand.reserve();
    if (slot < 0) return false;
    ws.candPoint[0] = x; ws.candPoint[1] = y; ws.candPoint[2] = h; ws.candNormal[0] = nx; ws.candNormal[1] = ny; ws.candNormal[2] = nz; ws.candDepth = depth;
    writeCandidate(cand, slot, ws, i, j, feature);
    return true;
  }
  // Not a pair, but maybe one end of a line contact: the rock edge lying (nearly) flat on the
  // element E whose far vertex rose above P (its crossing with E's border is where it leaves E),
  // or the terrain edge lying along a rock face F next to the rock edge (the crossing is where it
  // leaves F). The vertex–face or face–vertex pair gives the other end; without this one, only the
  // lower end of the line touches, and which one that is flips as the rock rocks by microns.
  if (s0 > SUPPORT_TOLERANCE && s0 * s0 <= LINE_CONTACT_SLOPE2 * (f0x * f0x + f0y * f0y + f0z * f0z)) {
    ws.clipGap = g; ws.farVertex[0] = f0x; ws.farVertex[1] = f0y; ws.farVertex[2] = f0z;
    if (!elementClip(cand, ws, i, j, feature)) return false;
  }
  if (s1 > SUPPORT_TOLERANCE && s1 * s1 <= LINE_CONTACT_SLOPE2 * (f1x * f1x + f1y * f1y + f1z * f1z)) {
    ws.clipGap = g; ws.farVertex[0] = f1x; ws.farVertex[1] = f1y; ws.farVertex[2] = f1z;
    if (!elementClip(cand, ws, i, j, feature)) return false;
  }
  if (!rockOk && faceFlat) {
    // the rock face through both ends of the edge most nearly parallel to P, facing down along
    // −n, and within LINE_CONTACT_SLOPE of P (a face at a larger angle is not the one the
    // terrain edge lies along: its normal would push the rock sideways)
    const E = poly.edges, WP = ws.planes, e = (feature & 0x0fffffff) >> 2;
    const a = E[2 * e], b = E[2 * e + 1];
    let bf = -1, bestCos = LINE_CONTACT_COS;
    for (let f = 0; f < poly.faceCount; f++) {
      const px = WP[4 * f], py = WP[4 * f + 1], pz = WP[4 * f + 2], pd = WP[4 * f + 3];
      const c = -(px * nx + py * ny + pz * nz);
      if (c <= bestCos) continue;
      if (Math.abs(px * W[3 * a] + py * W[3 * a + 1] + pz * W[3 * a + 2] - pd) > FACE_EDGE_TOLERANCE) continue;
      if (Math.abs(px * W[3 * b] + py * W[3 * b + 1] + pz * W[3 * b + 2] - pd) > FACE_EDGE_TOLERANCE) continue;
      bestCos = c;
      bf = f;
    }
    // (F must face down by FACE_CLIP_MIN_NZ: a nearly vertical rock edge makes a nearly vertical
    // P, and F a side face along it; the terrain point under the edge's foot then lies below the
    // bottom face, and this end would be a wall across the rock's path: a sliding chassis's
    // corner caught on it and spun. A steep face against the terrain has its face–vertex pairs.)
    if (bf >= 0 && WP[4 * bf + 2] <= -FACE_CLIP_MIN_NZ) {
      const d = WP[4 * bf + 3] - (WP[4 * bf] * x + WP[4 * bf + 1] * y + WP[4 * bf + 2] * h);
      if (d > -margin) {
        const slot = cand.reserve();
        if (slot < 0) return false;
        ws.candPoint[0] = x; ws.candPoint[1] = y; ws.candPoint[2] = h; ws.candNormal[0] = -WP[4 * bf]; ws.candNormal[1] = -WP[4 * bf + 1]; ws.candNormal[2] = -WP[4 * bf + 2]; ws.candDepth = d;
        writeCandidate(cand, slot, ws, i, j, feature | FEATURE_FACE_CLIP);
      }
    }
  }
  return true;
}

/**
 * The rock edge's point over the crossing (ws.edgePoint; vertical gap g = ws.clipGap above the
 * terrain) as a contact with the element spanned by the terrain edge (tx, ty, tz) = ws.terrainEdge
 * and its far vertex (fx, fy, fz) = ws.farVertex (relative to the terrain point), margin
 * ws.edgeMargin: the element's normal, depth −g·n_z. False when the buffer is full. (Numbers come
 * through the workspace: no boxed arguments.)
 */
function elementClip(cand: ContactBuffer, ws: PolytopeTerrainWorkspace, i: number, j: number, feature: number): boolean {
  const tx = ws.terrainEdge[0], ty = ws.terrainEdge[1], tz = ws.terrainEdge[2], margin = ws.edgeMargin, g = ws.clipGap, fx = ws.farVertex[0], fy = ws.farVertex[1], fz = ws.farVertex[2];
  let nx = ty * fz - tz * fy, ny = tz * fx - tx * fz, nz = tx * fy - ty * fx;
  const inv = (nz < 0 ? -1 : 1) / Math.sqrt(nx * nx + ny * ny + nz * nz);
  nx *= inv; ny *= inv; nz *= inv;
  const depth = -g * nz;
  if (depth <= -margin) return true;
  const slot = cand.reserve();
  if (slot < 0) return false;
  ws.candPoint[0] = ws.edgePoint[0]; ws.candPoint[1] = ws.edgePoint[1]; ws.candPoint[2] = ws.edgePoint[2] - g; ws.candNormal[0] = nx; ws.candNormal[1] = ny; ws.candNormal[2] = nz; ws.candDepth = depth;
  writeCandidate(cand, slot, ws, i, j, feature | FEATURE_ELEMENT_CLIP);
  return true;
}

/** Grid neighbours of a vertex in the triangulation (axis neighbours and the two ends of the V1–V2 diagonals). */
const NEIGHBOUR_DI = [1, -1, 0, 0, -1, 1] as const;
const NEIGHBOUR_DJ = [0, 0, 1, -1, 1, -1] as const;

/**
 * True if grid vertex (i, j) is a highest point of the terrain along −n_f (face f of the world
 * planes WP): none of its 6 neighbours in the triangulation lies above the plane through it (up
 * to SUPPORT_TOLERANCE). (In a rectangle cell the other corner is coplanar with these.)
 */
function vertexSupports(hf: Heightfield, i: number, j: number, WP: Float64Array, f: number): boolean {
  const H = hf.heights, cols = hf.cols, rows = hf.rows;
  const nx = -WP[4 * f], ny = -WP[4 * f + 1], nz = -WP[4 * f + 2];
  const gz = H[j * cols + i];
  for (let k = 0; k < 6; k++) {
    const a = NEIGHBOUR_DI[k], b = NEIGHBOUR_DJ[k];
    const ii = i + a, jj = j + b;
    if (ii < 0 || ii >= cols || jj < 0 || jj >= rows) continue;
    const ax = a * hf.dx, by = b * hf.dy, cz = H[jj * cols + ii] - gz;
    const s = nx * ax + ny * by + nz * cz;
    // (a neighbour above it by at most LINE_CONTACT_SLOPE of their distance: a terrain edge
    // lying along the face, both of whose ends touch)
    if (s > SUPPORT_TOLERANCE && s * s > LINE_CONTACT_SLOPE2 * (ax * ax + by * by + cz * cz)) return false;
  }
  return true;
}


/** Cells per side of the tiles of polytopeTerrainClear (0.2 m on a 5 cm grid). */
const CLEAR_TILE_CELLS = 4;
/** Faces with n_z above −this (near-vertical or facing up) give no useful bound on the underside. */
const CLEAR_MIN_DOWN_NZ = 0.1;
/** [m] Added to the margin of polytopeTerrainClear (rounding in the routines it stands in for). */
const CLEAR_SLACK = 1e-6;

/**
 * True when no terrain point lies within `margin` of polytope `poly` at pose (p, q): then no
 * contact routine can report a contact at depth ≥ −margin, and the caller skips it (a chassis
 * riding 0.15 m above the ground over hundreds of cells). False means "maybe" (not a contact).
 *
 * Proof, per tile C of CLEAR_TILE_CELLS² cells covering the body's footprint grown by the
 * margin: a terrain point T over C lies at most H_C high (the highest vertex of C's cells; each
 * element is planar between its vertices). A body point P within `margin` of T has P.xy in C's
 * rectangle grown by the margin, R; the body lies above each of its downward faces' planes
 * (n·X ≤ d with n_z < 0 gives z ≥ (d − n_x x − n_y y)/n_z, linear in x, y: its least value over
 * R is at a corner of R) and above its lowest vertex, so P.z ≥ L_C, the largest of these bounds;
 * then |T − P| ≥ P.z − T.z ≥ L_C − H_C. L_C − H_C > margin on every tile leaves no such pair.
 */
export function polytopeTerrainClear(
  poly: Polytope, p: Readonly<Vec3>, q: Readonly<Quat>, hf: Heightfield, margin: number, ws: PolytopeTerrainWorkspace,
): boolean {
  const nv = poly.vertexCount, nf = poly.faceCount;
  ws.ensure(nv, nf);
  const WP = ws.planes;
  const px = p[0], py = p[1], pz = p[2];
  toWorld(ws, poly, p, q);
  const R = ws.rot, B = ws.box;
  const r00 = R[0], r01 = R[1], r02 = R[2], r10 = R[3], r11 = R[4], r12 = R[5], r20 = R[6], r21 = R[7], r22 = R[8];
  const minX = B[0], minY = B[1], minZ = B[2], maxX = B[3], maxY = B[4];
  if (!Number.isFinite(minX + minY + minZ + maxX + maxY)) return false;
  const m = margin + CLEAR_SLACK;
  const x0 = hf.x0, y0 = hf.y0, dx = hf.dx, dy = hf.dy, cols = hf.cols, H = hf.heights;
  let i0 = Math.floor((minX - m - x0) / dx), i1 = Math.floor((maxX + m - x0) / dx);
  let j0 = Math.floor((minY - m - y0) / dy), j1 = Math.floor((maxY + m - y0) / dy);
  if (i0 < 0) i0 = 0;
  if (j0 < 0) j0 = 0;
  if (i1 > hf.cellsX - 1) i1 = hf.cellsX - 1;
  if (j1 > hf.cellsY - 1) j1 = hf.cellsY - 1;
  if (i0 > i1 || j0 > j1) return true; // off the grid: no terrain there
  // downward faces, world planes n·x = d (packed at the front of ws.planes)
  const P = poly.planes;
  let nd = 0;
  for (let f = 0; f < nf; f++) {
    const x = P[4 * f], y = P[4 * f + 1], z = P[4 * f + 2];
    const nz = r20 * x + r21 * y + r22 * z;
    if (nz > -CLEAR_MIN_DOWN_NZ) continue;
    const nx = r00 * x + r01 * y + r02 * z, ny = r10 * x + r11 * y + r12 * z;
    WP[4 * nd] = nx; WP[4 * nd + 1] = ny; WP[4 * nd + 2] = nz;
    WP[4 * nd + 3] = P[4 * f + 3] + nx * px + ny * py + nz * pz;
    nd++;
  }
  for (let tj = j0; tj <= j1; tj += CLEAR_TILE_CELLS) {
    const tj1 = Math.min(tj + CLEAR_TILE_CELLS - 1, j1);
    const ya = y0 + tj * dy - m, yb = y0 + (tj1 + 1) * dy + m;
    for (let ti = i0; ti <= i1; ti += CLEAR_TILE_CELLS) {
      const ti1 = Math.min(ti + CLEAR_TILE_CELLS - 1, i1);
      // highest terrain vertex of the tile's cells
      let hMax = -Infinity;
      for (let j = tj; j <= tj1 + 1; j++) {
        const row = j * cols;
        for (let i = ti; i <= ti1 + 1; i++) if (H[row + i] > hMax) hMax = H[row + i];
      }
      if (minZ - hMax > m) continue;
      // lowest the body can be over the tile's rectangle grown by the margin
      const xa = x0 + ti * dx - m, xb = x0 + (ti1 + 1) * dx + m;
      let low = minZ;
      for (let f = 0; f < nd; f++) {
        const nx = WP[4 * f], ny = WP[4 * f + 1], inz = 1 / WP[4 * f + 2], d = WP[4 * f + 3];
        // z = (d − nx·x − ny·y)/nz is least at the corner that maximises (d − nx·x − ny·y)·(1/nz) (1/nz < 0)
        const x = nx > 0 ? xa : xb, y = ny > 0 ? ya : yb;
        const z = (d - nx * x - ny * y) * inz;
        if (z > low) low = z;
      }
      if (low - hMax <= m) return false;
    }
  }
  return true;
}
