/**
 * Convex polyhedron given by its vertices and polygon faces (built by convex-hull-builder.ts from
 * a point cloud, or directly from a trusted description). Core = itself, coreRadius = 0.
 *
 * Data layout (ConvexHullData), flat typed arrays so a hull is one allocation per array:
 *   vertices      xyz interleaved, V·3 numbers
 *   faceStart     F+1 offsets into faceVertices; face f is faceVertices[faceStart[f] .. faceStart[f+1])
 *   faceVertices  vertex indices of each face, CCW seen from outside (outward normal by right-hand rule)
 *   planes        4 numbers per face: unit outward normal n and offset d, n·x = d on the face
 *
 * Support: a linear scan over a flat Float64Array for small hulls; from HULL_HILL_CLIMB_MIN_VERTICES
 * on, hill climbing over the vertex adjacency (derived from the faces) starting at the previous
 * answer, which exploits GJK's coherent directions (Cameron 1997; Jolt and parry do the same for
 * big hulls). Hill climbing needs a closed manifold: if the faces do not give every vertex a
 * neighbour the shape falls back to the scan.
 */
import type { Vec3 } from '../math/vec3';
import { HULL_HILL_CLIMB_MIN_VERTICES } from '../constants';
import type { Aabb, ConvexShape, MassProperties } from './shape';
import { ShapeKind, SupportFace } from './shape';

/** The vertices and faces of a convex hull as `buildConvexHull` returns them. */
export interface ConvexHullData {
  vertices: Float64Array;
  faceStart: Int32Array;
  faceVertices: Int32Array;
  planes: Float64Array;
}

/** A convex polytope: vertices, faces and face planes, with support and face queries. */
export class ConvexHullShape implements ConvexShape {
  readonly kind = ShapeKind.ConvexHull;
  readonly coreRadius = 0;
  readonly vertices: Float64Array;
  readonly faceStart: Int32Array;
  readonly faceVertices: Int32Array;
  readonly planes: Float64Array;
  readonly vertexCount: number;
  readonly faceCount: number;
  private readonly bounds: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
  /** Vertex adjacency (CSR): neighbours of v are adjList[adjStart[v] .. adjStart[v+1]). */
  readonly adjStart: Int32Array;
  readonly adjList: Int32Array;
  private readonly hillClimb: boolean;
  /** Last support vertex: the start of the next climb. */
  private hint = 0;
  /**
   * Start of the climb per world-box direction (+x, −x, +y, −y, +z, −z: supportFrom's slot): the
   * six queries of an exact world box go to opposite sides, and one shared hint made each climb
   * cross the hull; each direction's own last vertex is one or two steps from the next answer.
   */
  private readonly slotHints = new Int32Array(6);

  constructor(data: ConvexHullData) {
    this.vertices = data.vertices;
    this.faceStart = data.faceStart;
    this.faceVertices = data.faceVertices;
    this.planes = data.planes;
    this.vertexCount = (data.vertices.length / 3) | 0;
    this.faceCount = data.faceStart.length - 1;
    if (this.vertexCount < 4 || this.faceCount < 4 || data.planes.length !== this.faceCount * 4) {
      throw new RangeError(`convex hull needs >= 4 vertices and faces with one plane each (V=${this.vertexCount}, F=${this.faceCount})`);
    }
    // Adjacency from the directed face edges (each undirected edge appears once per side).
    const count = new Int32Array(this.vertexCount + 1);
    const fv = this.faceVertices;
    for (let f = 0; f < this.faceCount; f++) {
      for (let k = this.faceStart[f]; k < this.faceStart[f + 1]; k++) count[fv[k] + 1]++;
    }
    for (let i = 0; i < this.vertexCount; i++) count[i + 1] += count[i];
    this.adjStart = count;
    this.adjList = new Int32Array(count[this.vertexCount]);
    const fill = count.slice(0, this.vertexCount);
    let manifold = true;
    for (let f = 0; f < this.faceCount; f++) {
      const s0 = this.faceStart[f], s1 = this.faceStart[f + 1];
      for (let k = s0; k < s1; k++) {
        const a = fv[k], b = fv[k + 1 < s1 ? k + 1 : s0];
        if (a < 0 || a >= this.vertexCount || b < 0 || b >= this.vertexCount) throw new RangeError('convex hull face index out of range');
        this.adjList[fill[a]++] = b;
      }
    }
    for (let i = 0; i < this.vertexCount; i++) if (count[i + 1] === count[i]) manifold = false;
    this.hillClimb = manifold && this.vertexCount >= HULL_HILL_CLIMB_MIN_VERTICES;
    const v = this.vertices;
    const b = this.bounds;
    for (let k = 0; k < 3; k++) {
      b.min[k] = Infinity;
      b.max[k] = -Infinity;
    }
    for (let i = 0; i < v.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const x = v[i + k];
        if (!Number.isFinite(x)) throw new RangeError('convex hull vertex is not finite');
        if (x < b.min[k]) b.min[k] = x;
        if (x > b.max[k]) b.max[k] = x;
      }
    }
  }

  /** Index of a vertex with the largest v·dir. */
  supportIndex(dir: Readonly<Vec3>): number {
    const v = this.vertices;
    const dx = dir[0], dy = dir[1], dz = dir[2];
    if (this.hillClimb) {
      let cur = this.hint;
      let curDot = v[3 * cur] * dx + v[3 * cur + 1] * dy + v[3 * cur + 2] * dz;
      // Strict improvement each step, so at most V steps; the cap guards malformed input.
      for (let step = 0; step < this.vertexCount; step++) {
        let next = cur;
        for (let k = this.adjStart[cur], end = this.adjStart[cur + 1]; k < end; k++) {
          const j = this.adjList[k];
          const d = v[3 * j] * dx + v[3 * j + 1] * dy + v[3 * j + 2] * dz;
          if (d > curDot) {
            curDot = d;
            next = j;
          }
        }
        if (next === cur) break;
        cur = next;
      }
      this.hint = cur;
      return cur;
    }
    let best = 0;
    let bestDot = v[0] * dx + v[1] * dy + v[2] * dz;
    for (let i = 3, n = v.length; i < n; i += 3) {
      const d = v[i] * dx + v[i + 1] * dy + v[i + 2] * dz;
      if (d > bestDot) {
        bestDot = d;
        best = i;
      }
    }
    return best / 3;
  }

  /**
   * support(out, dir) climbing from slot's own hint (0–5, world_box's directions); the shared
   * hint is left as support() would leave it. The vertex is the same as support()'s whenever
   * the maximum of v·dir is attained by one vertex (a climb ends only at a maximum of a convex
   * hull); on ties either may be returned, with the same v·dir.
   */
  supportFrom(out: Vec3, dir: Readonly<Vec3>, slot: number): Vec3 {
    let i: number;
    if (this.hillClimb) {
      this.hint = this.slotHints[slot];
      i = this.supportIndex(dir);
      this.slotHints[slot] = i; // (supportIndex left the shared hint at i, as support() does)
    } else i = this.supportIndex(dir);
    const v = this.vertices;
    out[0] = v[3 * i];
    out[1] = v[3 * i + 1];
    out[2] = v[3 * i + 2];
    return out;
  }

  support(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    const i = this.supportIndex(dir) * 3;
    const v = this.vertices;
    out[0] = v[i];
    out[1] = v[i + 1];
    out[2] = v[i + 2];
    return out;
  }

  supportCore(out: Vec3, dir: Readonly<Vec3>): Vec3 {
    return this.support(out, dir);
  }

  /** Index of the face whose outward normal has the largest n·dir. */
  supportingFaceIndex(dir: Readonly<Vec3>): number {
    const p = this.planes;
    let best = 0;
    let bestDot = -Infinity;
    for (let f = 0; f < this.faceCount; f++) {
      const d = p[4 * f] * dir[0] + p[4 * f + 1] * dir[1] + p[4 * f + 2] * dir[2];
      if (d > bestDot) {
        bestDot = d;
        best = f;
      }
    }
    return best;
  }

  supportingFace(out: SupportFace, dir: Readonly<Vec3>): SupportFace {
    out.clear();
    const f = this.supportingFaceIndex(dir);
    const v = this.vertices;
    for (let k = this.faceStart[f]; k < this.faceStart[f + 1]; k++) {
      const i = this.faceVertices[k] * 3;
      out.push(v[i], v[i + 1], v[i + 2]);
    }
    return out;
  }

  localAabb(out: Aabb): Aabb {
    for (let k = 0; k < 3; k++) {
      out.min[k] = this.bounds.min[k];
      out.max[k] = this.bounds.max[k];
    }
    return out;
  }

  volume(): number {
    return this.massProperties(scratchMass, 1).volume;
  }

  /**
   * Exact polyhedral mass properties by tetrahedron decomposition (Blow & Binstock, "How to find
   * the inertia tensor (or other mass properties) of a 3D solid body represented by a triangle
   * mesh", 2004; Tonon 2004): each face is fanned into triangles, each triangle with a reference
   * point r (the vertex mean, to keep cancellation small) forms a signed tetrahedron. For a
   * tetrahedron (0, a, b, c) with det = a·(b×c): volume det/6, centroid (a+b+c)/4, second moment
   * ∫x xᵀ dV = det/120·(a aᵀ + b bᵀ + c cᵀ + s sᵀ), s = a+b+c. Inertia = ρ(tr(C)·E − C) after
   * moving C to the centre of mass (C_com = C − V·g gᵀ).
   */
  massProperties(out: MassProperties, density: number): MassProperties {
    const v = this.vertices;
    const n = this.vertexCount;
    let rx = 0, ry = 0, rz = 0;
    for (let i = 0; i < v.length; i += 3) {
      rx += v[i];
      ry += v[i + 1];
      rz += v[i + 2];
    }
    rx /= n;
    ry /= n;
    rz /= n;
    let vol = 0, gx = 0, gy = 0, gz = 0;
    let cxx = 0, cyy = 0, czz = 0, cxy = 0, cxz = 0, cyz = 0;
    for (let f = 0; f < this.faceCount; f++) {
      const s0 = this.faceStart[f], s1 = this.faceStart[f + 1];
      const i0 = this.faceVertices[s0] * 3;
      const ax = v[i0] - rx, ay = v[i0 + 1] - ry, az = v[i0 + 2] - rz;
      for (let k = s0 + 1; k + 1 < s1; k++) {
        const i1 = this.faceVertices[k] * 3, i2 = this.faceVertices[k + 1] * 3;
        const bx = v[i1] - rx, by = v[i1 + 1] - ry, bz = v[i1 + 2] - rz;
        const cx = v[i2] - rx, cy = v[i2 + 1] - ry, cz = v[i2 + 2] - rz;
        const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
        vol += det / 6;
        const sx = ax + bx + cx, sy = ay + by + cy, sz = az + bz + cz;
        gx += (det / 24) * sx;
        gy += (det / 24) * sy;
        gz += (det / 24) * sz;
        const w = det / 120;
        cxx += w * (ax * ax + bx * bx + cx * cx + sx * sx);
        cyy += w * (ay * ay + by * by + cy * cy + sy * sy);
        czz += w * (az * az + bz * bz + cz * cz + sz * sz);
        cxy += w * (ax * ay + bx * by + cx * cy + sx * sy);
        cxz += w * (ax * az + bx * bz + cx * cz + sx * sz);
        cyz += w * (ay * az + by * bz + cy * cz + sy * sz);
      }
    }
    out.volume = vol;
    out.mass = vol * density;
    if (!(vol > 0)) {
      // Not a closed, outward-wound solid: report zero mass rather than a negative or NaN tensor.
      out.mass = 0;
      out.centerOfMass[0] = rx;
      out.centerOfMass[1] = ry;
      out.centerOfMass[2] = rz;
      out.inertia.fill(0);
      return out;
    }
    gx /= vol;
    gy /= vol;
    gz /= vol;
    cxx -= vol * gx * gx;
    cyy -= vol * gy * gy;
    czz -= vol * gz * gz;
    cxy -= vol * gx * gy;
    cxz -= vol * gx * gz;
    cyz -= vol * gy * gz;
    out.centerOfMass[0] = rx + gx;
    out.centerOfMass[1] = ry + gy;
    out.centerOfMass[2] = rz + gz;
    const I = out.inertia;
    const tr = cxx + cyy + czz;
    I[0] = density * (tr - cxx);
    I[4] = density * (tr - cyy);
    I[8] = density * (tr - czz);
    I[1] = I[3] = -density * cxy;
    I[2] = I[6] = -density * cxz;
    I[5] = I[7] = -density * cyz;
    return out;
  }
}

const scratchMass: MassProperties = { mass: 0, volume: 0, centerOfMass: [0, 0, 0], inertia: new Float64Array(9) };
