/**
 * Holes of an open collision mesh, found and (when small) closed before the mesh is measured and
 * split into convex parts (convex-parts.ts).
 *
 * Why: V-HACD's flood fill leaks through a hole and returns a hollow shell of the surface, and an
 * open mesh encloses no volume to compare its hull with. Meshes exported from CAD or game tools
 * (the public Curiosity model's 21 Collada meshes) are open through small gaps a modeller never
 * meant: closing those gives the solid the modeller drew. A large opening is another matter: a
 * cup, a scoop, a bucket is open on purpose, and closing it (or taking the hull) would fill the
 * cavity a careful user expects to stay empty. So:
 *
 *   1. weld vertices at the same position (STL is a triangle soup), drop degenerate triangles;
 *   2. orient: triangles turned over so neighbours agree and each piece faces out (CAD exports
 *      flip some); an edge of more than two triangles is not a surface this step can follow;
 *   3. boundary half-edges: a→b with no b→a. A vertex where two holes meet is not a hole this
 *      step can follow: the mesh stays as it is, with the reason;
 *   4. chain them into loops; each loop's cap area (Newell's area vector) is compared with the
 *      mesh's surface: a loop up to HOLE_CAP_MAX_AREA_FRACTION of it is a gap and is capped, wound
 *      against the loop so the cap's edges pair with the boundary's: by ear clipping in its plane
 *      when it lies within HOLE_CAP_MAX_DEVIATION of its size of that plane, else (a warped gap,
 *      or one that does not clip) by a fan from its centroid; larger loops are openings and stay
 *      open. (The Curiosity model's meshes have warped gaps of 0.06% of their surface: small
 *      enough that a fan's departure from the modeller's surface does not matter.)
 *
 *          boundary loop a→b→c→d (half-edges of the surface)        cap: triangles holding b→a, c→b, …
 *              d ◄──── c                                                 d ────► c
 *              │       ▲                                                 ▲ ╲     │
 *              ▼       │                                                 │   ╲   ▼
 *              a ────► b                                                 a ◄──── b
 *
 * Not a hot path: runs once per mesh and load, allocates freely.
 */
import type { TriangleMesh } from './triangle-mesh';

/** A hole is capped when its area is at most this fraction of the mesh's surface area. */
export const HOLE_CAP_MAX_AREA_FRACTION = 0.05;
/** A capped loop within this fraction of its radius (centroid to farthest vertex) of its plane is ear-clipped (else a fan). */
export const HOLE_CAP_MAX_DEVIATION = 0.1;
/** Loops with more vertices than this are capped by a fan (ear clipping is quadratic). */
const EAR_CLIP_MAX_VERTICES = 2048;

/** What closeSmallHoles found and did. */
export interface HoleReport {
  /** Boundary loops found. */
  loops: number;
  /** Loops capped (gaps). */
  capped: number;
  /** Loops left open (openings: large or warped). */
  open: number;
  /** Largest cap area of a capped loop, and largest area of an open one, as fractions of the surface area. */
  largestCapped: number;
  largestOpen: number;
  /** Triangles turned over to face the same way as their neighbours (outward), before the holes were followed. */
  flipped: number;
  /** Why the holes could not be followed (non-manifold edges, loops touching), when so. */
  problem?: string;
}

/** The mesh with its small holes capped (welded), and what was done. */
export function closeSmallHoles(mesh: TriangleMesh): { mesh: TriangleMesh; holes: HoleReport } {
  // 1. weld
  const p = mesh.positions;
  const remap = new Uint32Array(p.length / 3);
  const byKey = new Map<string, number>();
  const pos: number[] = [];
  for (let v = 0; v < remap.length; v++) {
    const key = `${p[3 * v]},${p[3 * v + 1]},${p[3 * v + 2]}`;
    let w = byKey.get(key);
    if (w === undefined) {
      w = pos.length / 3;
      byKey.set(key, w);
      pos.push(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
    }
    remap[v] = w;
  }
  const tri: number[] = [];
  for (let t = 0; t + 2 < mesh.indices.length; t += 3) {
    const a = remap[mesh.indices[t]], b = remap[mesh.indices[t + 1]], c = remap[mesh.indices[t + 2]];
    if (a !== b && b !== c && c !== a) tri.push(a, b, c);
  }
  const n = pos.length / 3;
  const report: HoleReport = { loops: 0, capped: 0, open: 0, largestCapped: 0, largestOpen: 0, flipped: 0 };
  const asIs = (problem?: string) => {
    if (problem) report.problem = problem;
    return { mesh: { positions: Float64Array.from(pos), indices: Uint32Array.from(tri) }, holes: report };
  };
  const oriented = orient(pos, tri, n);
  if (typeof oriented === 'string') return asIs(oriented);
  report.flipped = oriented;

  // 2. boundary half-edges
  const uses = new Map<number, number>();
  for (let t = 0; t < tri.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const e = tri[t + k] * n + tri[t + ((k + 1) % 3)];
      uses.set(e, (uses.get(e) ?? 0) + 1);
    }
  }
  const next = new Map<number, number>();
  for (const [e, count] of uses) {
    if (count > 1) return asIs('some edges are used twice in the same direction (non-manifold or inconsistently wound triangles)');
    const a = Math.floor(e / n), b = e - a * n;
    if (uses.has(b * n + a)) continue;
    if (next.has(a)) return asIs('two holes meet at a vertex');
    next.set(a, b);
  }
  if (next.size === 0) return asIs();

  // 3. loops, each capped or left open
  let surface = 0;
  for (let t = 0; t < tri.length; t += 3) surface += triangleArea(pos, tri[t], tri[t + 1], tri[t + 2]);
  const seen = new Set<number>();
  for (const start of next.keys()) {
    if (seen.has(start)) continue;
    const loop: number[] = [];
    for (let v: number | undefined = start; v !== undefined && !seen.has(v); v = next.get(v)) {
      seen.add(v);
      loop.push(v);
    }
    if (next.get(loop[loop.length - 1]) !== start) return asIs('a boundary does not close into a loop');
    report.loops++;
    const plane = loopPlane(pos, loop);
    const fraction = surface > 0 ? plane.area / surface : Infinity;
    if (fraction <= HOLE_CAP_MAX_AREA_FRACTION && loop.length >= 3) {
      capLoop(pos, tri, loop, plane, plane.deviation <= HOLE_CAP_MAX_DEVIATION * plane.radius);
      report.capped++;
      report.largestCapped = Math.max(report.largestCapped, fraction);
    } else {
      report.open++;
      report.largestOpen = Math.max(report.largestOpen, fraction);
    }
  }
  return asIs();
}

/**
 * Turns triangles over, in place, so that every edge two triangles share runs opposite ways in
 * them (CAD exports flip some: the public Curiosity model's meshes have 16 to 159 such edges), and
 * each connected piece faces out (positive enclosed volume). Returns how many were turned, or why
 * the mesh cannot be oriented (an edge of more than two triangles, a one-sided surface).
 */
function orient(pos: readonly number[], tri: number[], n: number): number | string {
  const count = tri.length / 3;
  // undirected edge → the triangles holding it
  const edges = new Map<number, number[]>();
  for (let t = 0; t < count; t++) {
    for (let k = 0; k < 3; k++) {
      const a = tri[3 * t + k], b = tri[3 * t + ((k + 1) % 3)];
      const key = Math.min(a, b) * n + Math.max(a, b);
      const list = edges.get(key);
      if (!list) edges.set(key, [t]);
      else if (list.length >= 2) return 'some edges are shared by more than two triangles (non-manifold)';
      else list.push(t);
    }
  }
  /** Whether triangle t runs a → b (rather than b → a). */
  const runs = (t: number, a: number, b: number): boolean => {
    for (let k = 0; k < 3; k++) if (tri[3 * t + k] === a && tri[3 * t + ((k + 1) % 3)] === b) return true;
    return false;
  };
  const flip = new Int8Array(count).fill(-1);
  let flipped = 0;
  for (let seed = 0; seed < count; seed++) {
    if (flip[seed] !== -1) continue;
    flip[seed] = 0;
    const piece = [seed];
    for (let i = 0; i < piece.length; i++) {
      const t = piece[i];
      for (let k = 0; k < 3; k++) {
        const a = tri[3 * t + k], b = tri[3 * t + ((k + 1) % 3)];
        const list = edges.get(Math.min(a, b) * n + Math.max(a, b)) as number[];
        const u = list[0] === t ? list[1] : list[0];
        if (u === undefined) continue;
        // t as stored runs a → b; as it will be, reversed when flipped. u must run the other way.
        const want = (runs(u, a, b) ? 1 : 0) ^ flip[t];
        if (flip[u] === -1) {
          flip[u] = want;
          piece.push(u);
        } else if (flip[u] !== want) return 'a surface without two sides (its triangles cannot all face one way)';
      }
    }
    // the piece faces out when its enclosed volume (about its first vertex) is positive
    let v = 0;
    const o = 3 * tri[3 * seed];
    for (const t of piece) {
      const [a, b, c] = flip[t] ? [tri[3 * t], tri[3 * t + 2], tri[3 * t + 1]] : [tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]];
      v += det3(pos, o, 3 * a, 3 * b, 3 * c);
    }
    if (v < 0) for (const t of piece) flip[t] ^= 1;
  }
  for (let t = 0; t < count; t++) {
    if (!flip[t]) continue;
    const b = tri[3 * t + 1];
    tri[3 * t + 1] = tri[3 * t + 2];
    tri[3 * t + 2] = b;
    flipped++;
  }
  return flipped;
}

/** det(b − o, c − o, d − o): six times the signed volume of the tetrahedron (o, b, c, d). */
function det3(pos: readonly number[], o: number, b: number, c: number, d: number): number {
  const bx = pos[b] - pos[o], by = pos[b + 1] - pos[o + 1], bz = pos[b + 2] - pos[o + 2];
  const cx = pos[c] - pos[o], cy = pos[c + 1] - pos[o + 1], cz = pos[c + 2] - pos[o + 2];
  const dx = pos[d] - pos[o], dy = pos[d + 1] - pos[o + 1], dz = pos[d + 2] - pos[o + 2];
  return bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx);
}

interface LoopPlane {
  /** Unit normal (Newell), centroid of the loop's vertices, cap area [m²], largest distance from the plane and from the centroid [m]. */
  normal: [number, number, number];
  centroid: [number, number, number];
  area: number;
  deviation: number;
  radius: number;
}

function loopPlane(pos: readonly number[], loop: readonly number[]): LoopPlane {
  let nx = 0, ny = 0, nz = 0, cx = 0, cy = 0, cz = 0;
  for (let i = 0; i < loop.length; i++) {
    const a = 3 * loop[i], b = 3 * loop[(i + 1) % loop.length];
    nx += (pos[a + 1] - pos[b + 1]) * (pos[a + 2] + pos[b + 2]);
    ny += (pos[a + 2] - pos[b + 2]) * (pos[a] + pos[b]);
    nz += (pos[a] - pos[b]) * (pos[a + 1] + pos[b + 1]);
    cx += pos[a];
    cy += pos[a + 1];
    cz += pos[a + 2];
  }
  cx /= loop.length;
  cy /= loop.length;
  cz /= loop.length;
  const len = Math.hypot(nx, ny, nz);
  const normal: [number, number, number] = len > 0 ? [nx / len, ny / len, nz / len] : [0, 0, 1];
  let deviation = 0, radius = 0;
  for (const v of loop) {
    const dx = pos[3 * v] - cx, dy = pos[3 * v + 1] - cy, dz = pos[3 * v + 2] - cz;
    deviation = Math.max(deviation, Math.abs(dx * normal[0] + dy * normal[1] + dz * normal[2]));
    radius = Math.max(radius, Math.hypot(dx, dy, dz));
  }
  return { normal, centroid: [cx, cy, cz], area: len / 2, deviation, radius };
}

/**
 * Caps `loop` (boundary half-edges loop[i] → loop[i+1]) with triangles wound against it: ear
 * clipping in the loop's plane when it is `planar`, else (or when it does not clip) a fan from
 * its centroid (a new vertex).
 */
function capLoop(pos: number[], tri: number[], loop: readonly number[], plane: LoopPlane, planar: boolean): void {
  const ears = planar && loop.length <= EAR_CLIP_MAX_VERTICES ? earClip(pos, loop, plane) : null;
  if (ears) {
    // each ear (a, b, c) follows the loop's direction; the cap holds the reversed edges
    for (let i = 0; i < ears.length; i += 3) tri.push(ears[i], ears[i + 2], ears[i + 1]);
    return;
  }
  const c = pos.length / 3;
  pos.push(...plane.centroid);
  for (let i = 0; i < loop.length; i++) tri.push(loop[(i + 1) % loop.length], loop[i], c);
}

/**
 * Ear clipping of the loop projected on its plane (the Newell normal makes the loop
 * counter-clockwise there). Returns vertex triples in the loop's winding, or null when no ear is
 * found (a self-intersecting loop).
 */
function earClip(pos: readonly number[], loop: readonly number[], plane: LoopPlane): number[] | null {
  const [nx, ny, nz] = plane.normal;
  // u ⟂ n, w = n × u: (u, w, n) right-handed
  const [ax, ay, az] = Math.abs(nx) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  let ux = ay * nz - az * ny, uy = az * nx - ax * nz, uz = ax * ny - ay * nx;
  const ul = Math.hypot(ux, uy, uz);
  ux /= ul;
  uy /= ul;
  uz /= ul;
  const wx = ny * uz - nz * uy, wy = nz * ux - nx * uz, wz = nx * uy - ny * ux;
  const xs = loop.map((v) => pos[3 * v] * ux + pos[3 * v + 1] * uy + pos[3 * v + 2] * uz);
  const ys = loop.map((v) => pos[3 * v] * wx + pos[3 * v + 1] * wy + pos[3 * v + 2] * wz);
  const idx = loop.map((_, i) => i);
  const out: number[] = [];
  const cross = (a: number, b: number, c: number) => (xs[b] - xs[a]) * (ys[c] - ys[a]) - (ys[b] - ys[a]) * (xs[c] - xs[a]);
  while (idx.length > 3) {
    let clipped = false;
    for (let k = 0; k < idx.length; k++) {
      const a = idx[(k + idx.length - 1) % idx.length], b = idx[k], c = idx[(k + 1) % idx.length];
      if (cross(a, b, c) <= 0) continue;
      let inside = false;
      for (const q of idx) {
        if (q === a || q === b || q === c) continue;
        if (cross(a, b, q) >= 0 && cross(b, c, q) >= 0 && cross(c, a, q) >= 0) {
          inside = true;
          break;
        }
      }
      if (inside) continue;
      out.push(loop[a], loop[b], loop[c]);
      idx.splice(k, 1);
      clipped = true;
      break;
    }
    if (!clipped) return null;
  }
  out.push(loop[idx[0]], loop[idx[1]], loop[idx[2]]);
  return out;
}

function triangleArea(pos: readonly number[], a: number, b: number, c: number): number {
  const ux = pos[3 * b] - pos[3 * a], uy = pos[3 * b + 1] - pos[3 * a + 1], uz = pos[3 * b + 2] - pos[3 * a + 2];
  const vx = pos[3 * c] - pos[3 * a], vy = pos[3 * c + 1] - pos[3 * a + 1], vz = pos[3 * c + 2] - pos[3 * a + 2];
  return 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
}
