/**
 * The asynchronous step before a URDF robot is built: every collision mesh is read, its single
 * convex hull measured against the mesh's volume, and the concave ones (hull/mesh volume above
 * DECOMPOSE_FIT_RATIO) split into convex parts by V-HACD (convex-decomposition.ts), through a
 * cache keyed by the SHA-256 of the mesh file's bytes, the URDF scale and the options.
 *
 * Open meshes (holes: common in meshes exported from game or CAD tools, e.g. all 21 Collada
 * meshes of the public Curiosity model, with 24 to 3049 boundary edges each) enclose no volume to
 * compare the hull with, and V-HACD's flood fill leaks through a hole, so it returns a hollow shell
 * of the surface (an open-topped unit box: 16 thin parts holding 0.057 m³; vhacd-js 0.0.1 ignores
 * `fillMode`, so its "raycast" fill is no way out). So an open mesh goes through close-holes.ts
 * first (openMeshPlan): small gaps are capped and the closed mesh is measured and split as any
 * other; a mesh with a large opening is a container (a cup, a scoop) and is split as its surface,
 * its walls, which keeps the cavity empty where the hull would fill it (parts holding more than
 * CONTAINER_MAX_FILL of the hull are rejected for the hull); holes that cannot be followed keep the
 * single hull. The report's note says which, with the holes' sizes. Links on continuous joints
 * (wheel candidates) are not split: the loader frames them as cylinders.
 *
 *   model ──► collision meshes (path, scale) ──► read (STL/OBJ/Collada) ──► single hull: fit
 *         ──► fit > ratio? ──► cache.get(key) ?? V-HACD ──► cache.set ──► parts by mesh key
 *
 * The URDF loader itself (urdf-to-robot.ts) stays synchronous: it takes the parts this step
 * produced (`UrdfToRobotOptions.convexParts`, keyed by `collisionMeshKey`) and builds one hull per
 * part; without them a concave mesh keeps its single hull and the poor-fit warning.
 *
 * Where it runs: the measuring and caching in the service's thread (the simulation worker in the
 * app, memory cache for the worker's life; the CLI's thread in Node, a disk cache under .cache/,
 * sim/node/convex-parts-cache.ts); never on the renderer's thread. V-HACD itself runs there too,
 * unless a `MeshDecomposer` is passed: the desktop app's worker cannot run V-HACD (its CSP
 * forbids the wasm glue's `new Function`), so it asks Electron's main process, which runs
 * `decomposeMeshFile` below (the same read, scale and V-HACD code, same disk cache) in Node.
 */
import type { Vec3Spec } from '../../dynamics/spec';
import type { UrdfModel } from '../urdf/urdf-model';
import { resolveMeshPath } from '../urdf/resolve-mesh-path';
import { UrdfError } from '../urdf/urdf-error';
import { meshCollisionHull } from './mesh-hull';
import { readCollisionMesh, scaleMesh } from './read-mesh';
import { closeSmallHoles, type HoleReport } from './close-holes';
import { meshVolume, type TriangleMesh } from './triangle-mesh';
import { DECOMPOSE_FIT_RATIO, decomposeMesh, DEFAULT_DECOMPOSITION, type ConvexParts, type DecompositionOptions } from './convex-decomposition';

/** Bumped when the decomposition's code or library changes: old cache entries stop matching. */
export const CONVEX_PARTS_VERSION = 'vhacd-js@0.0.1/1';

/** Where decompositions are kept between loads (the worker's memory, a folder on disk). */
export interface ConvexPartsCache {
  get(key: string): Promise<ConvexParts | undefined>;
  set(key: string, parts: ConvexParts): Promise<void>;
}

/** A cache in this thread's memory (the app's worker keeps it while it lives). */
export function memoryConvexPartsCache(): ConvexPartsCache & { readonly size: number } {
  const m = new Map<string, ConvexParts>();
  return {
    get: async (k) => m.get(k),
    set: async (k, v) => void m.set(k, v),
    get size() {
      return m.size;
    },
  };
}

/** The key a collision mesh is known by within one load (the URDF loader's own key). */
export function collisionMeshKey(resolvedPath: string, scale: readonly number[]): string {
  return `${resolvedPath}|${scale.join(',')}`;
}

/** One collision mesh's volumes: the mesh, its single hull, its convex parts when it was split. */
export interface MeshVolumeReport {
  file: string;
  link: string;
  /** [m³] Enclosed volume of the scaled mesh (NaN when the mesh is not closed). */
  meshVolume: number;
  /** [m³] Its single convex hull. */
  hullVolume: number;
  /** The decomposition, when the mesh was split (else undefined: the single hull is used). */
  parts?: { count: number; volume: number; fromCache: boolean };
  /** Why a concave mesh was not split (open mesh, V-HACD failed), or what was done to an open one. */
  note?: string;
  /** An open mesh's holes: found, capped, kept open (close-holes.ts). */
  holes?: HoleReport;
}

/** One line of the volume report (the loader's info, the CLI's report). */
export function formatVolumeReport(r: MeshVolumeReport): string {
  const l = (v: number) => (v >= 1e-3 ? `${(v * 1e3).toPrecision(3)} L` : `${(v * 1e6).toPrecision(3)} cm³`);
  const mesh = Number.isFinite(r.meshVolume) ? l(r.meshVolume) : 'not closed';
  const ratio = (v: number) => (Number.isFinite(r.meshVolume) && r.meshVolume > 0 ? ` (${(v / r.meshVolume).toFixed(2)}×)` : '');
  const parts = r.parts ? `; ${r.parts.count} convex part${r.parts.count === 1 ? '' : 's'} ${l(r.parts.volume)}${ratio(r.parts.volume)}${r.parts.fromCache ? ', cached' : ''}` : '';
  return `collision mesh "${r.file}" (link "${r.link}"): mesh ${mesh}, single hull ${l(r.hullVolume)}${ratio(r.hullVolume)}${parts}${r.note ? `; ${r.note}` : ''}`;
}

/** What the step produces: parts by collisionMeshKey, and the volume report per mesh. */
export interface ConvexPartsResult {
  parts: Record<string, ConvexParts>;
  report: MeshVolumeReport[];
}

async function sha256Hex(bytes: Uint8Array): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const d = new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of d) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** The cache key: file content hash, scale and options (null without WebCrypto: no caching). */
export async function convexPartsCacheKey(bytes: Uint8Array, scale: readonly number[], options: Readonly<DecompositionOptions>): Promise<string | null> {
  const h = await sha256Hex(bytes);
  if (h === null) return null;
  const o = `${options.maxHulls}-${options.maxVerticesPerHull}-${options.voxelResolution}-${options.minVolumePercentError}`;
  return `${h}-${scale.map((s) => s.toString()).join('_')}-${o}-${CONVEX_PARTS_VERSION.replace(/[^a-z0-9.]/gi, '_')}`;
}

/**
 * The convex parts of `model`'s concave collision meshes, and the volume report of every
 * collision mesh. `meshes` gives a file's bytes by resolved path (as urdfToRobot's option).
 * A mesh that cannot be read throws the same UrdfError the loader would. `decompose`: where
 * V-HACD runs (default: this thread); `cache` sits in front of it either way.
 */
export async function convexPartsForUrdf(
  model: UrdfModel,
  urdfPath: string,
  meshes: (resolvedPath: string) => Uint8Array | undefined,
  cache: ConvexPartsCache | null,
  options: Readonly<DecompositionOptions> = DEFAULT_DECOMPOSITION,
  decompose?: MeshDecomposer,
): Promise<ConvexPartsResult> {
  const parts: Record<string, ConvexParts> = {};
  const report: MeshVolumeReport[] = [];
  const seen = new Set<string>();
  // A link turned by a continuous joint is a wheel candidate: urdfToRobot frames its mesh as one
  // cylinder about the axis (wheel-frame.ts), which parts would not change; not worth V-HACD.
  const wheels = new Set(model.joints.filter((j) => j.type === 'continuous').map((j) => j.child));
  for (const link of model.links) {
    for (const c of link.collisions) {
      const g = c.geometry;
      if (g.type !== 'mesh') continue;
      const file = resolveMeshPath(urdfPath, g.filename);
      const key = collisionMeshKey(file, g.scale);
      if (seen.has(key)) continue;
      seen.add(key);
      const bytes = meshes(file);
      // A missing mesh is the loader's error to report (it names the <collision>).
      if (!bytes) continue;
      let mesh;
      try {
        mesh = scaleMesh(readCollisionMesh(file, bytes), g.scale);
      } catch (e) {
        if (e instanceof UrdfError) throw new UrdfError(`link "${link.name}": ${e.message}`, link.name);
        throw e;
      }
      let hull = meshCollisionHull(mesh, [1, 1, 1], `mesh "${file}"`);
      const entry: MeshVolumeReport = { file, link: link.name, meshVolume: hull.meshVolume, hullVolume: hull.hullVolume };
      report.push(entry);
      const wheelNote = 'not split (a wheel link: framed as a cylinder about its joint when it fits)';
      /** An open mesh with openings kept (a container): split as its surface, whatever its hull's fit. */
      let container = false;
      if (!Number.isFinite(hull.fitRatio)) {
        if (wheels.has(link.name)) {
          entry.note = `${wheelNote}; an open mesh`;
          continue;
        }
        const open = openMeshPlan(mesh);
        entry.holes = open.holes;
        entry.note = open.note;
        if (open.plan === 'hull') continue;
        mesh = open.mesh;
        if (open.plan === 'closed') {
          hull = meshCollisionHull(mesh, [1, 1, 1], `mesh "${file}"`);
          entry.meshVolume = hull.meshVolume;
        } else container = true;
      }
      if (!container && !(hull.fitRatio > DECOMPOSE_FIT_RATIO)) continue;
      if (wheels.has(link.name)) {
        entry.note = wheelNote;
        continue;
      }
      const cacheKey = cache ? await convexPartsCacheKey(bytes, g.scale, options) : null;
      let got = cacheKey !== null && cache ? await cache.get(cacheKey) : undefined;
      const fromCache = got !== undefined;
      if (!got) {
        try {
          got = decompose
            ? await decompose({ file, bytes, scale: [g.scale[0], g.scale[1], g.scale[2]], options: { ...options } })
            : await decomposeMesh(mesh, options);
        } catch (e) {
          entry.note = `${entry.note ? `${entry.note}; ` : ''}not split: ${(e as Error).message}`;
          continue;
        }
        if (cacheKey !== null && cache) await cache.set(cacheKey, got);
      }
      entry.parts = { count: got.hulls.length, volume: got.volume, fromCache };
      // A container's parts are its walls: they must hold less than its hull (else they filled the
      // opening, and the hull is as good and simpler), and something (else V-HACD kept nothing).
      if (container && !(got.volume > 0 && got.volume < CONTAINER_MAX_FILL * hull.hullVolume)) {
        entry.note = `${entry.note}; its parts were rejected (they hold ${(got.volume / hull.hullVolume).toFixed(2)}× its hull, not the walls of a container): its single hull is used`;
        delete entry.parts;
        continue;
      }
      // A closed mesh's parts must hold most of its volume: V-HACD loses a shape whose pieces are
      // thinner than its voxels (the p2os Pioneer 3-AT's axle.stl, five thin tetrahedra of 38 cm³
      // in all, came back as 16 parts of 0.67 cm³), and then the hull is the better shape.
      if (!container && Number.isFinite(entry.meshVolume) && entry.meshVolume > 0 && !(got.volume >= CLOSED_MIN_FILL * entry.meshVolume)) {
        entry.note = `${entry.note ? `${entry.note}; ` : ''}its ${got.hulls.length} convex parts were rejected (they hold ${(got.volume / entry.meshVolume).toFixed(2)}× the mesh's volume: V-HACD lost the shape, as it does for pieces thinner than its voxels): its single hull is used`;
        delete entry.parts;
        continue;
      }
      parts[key] = got;
    }
  }
  return { parts, report };
}

/** A container's parts may hold at most this fraction of its hull's volume (else they are rejected: see convexPartsForUrdf). */
export const CONTAINER_MAX_FILL = 0.9;

/** A closed mesh's parts must hold at least this fraction of its volume (else they are rejected: see convexPartsForUrdf). */
export const CLOSED_MIN_FILL = 0.5;

/** What to do with an open mesh (close-holes.ts): its small holes capped, and whether it is closed now. */
function openMeshPlan(mesh: TriangleMesh): { plan: 'closed' | 'container' | 'hull'; mesh: TriangleMesh; holes: HoleReport; note: string } {
  const { mesh: capped, holes } = closeSmallHoles(mesh);
  const pct = (f: number) => `${(100 * f).toPrecision(2)}%`;
  const turned = holes.flipped > 0 ? `${holes.flipped} triangle${holes.flipped === 1 ? '' : 's'} turned to face out` : '';
  const cappedNote = holes.capped > 0 ? `${holes.capped} small hole${holes.capped === 1 ? '' : 's'} closed (largest ${pct(holes.largestCapped)} of its surface)` : '';
  const closedNote = [turned, cappedNote].filter((x) => x !== '').join(', ');
  if (holes.problem !== undefined) {
    return { plan: 'hull', mesh, holes, note: `not split: an open mesh whose holes cannot be followed (${holes.problem}); its single hull is used (V-HACD would return a hollow shell of its surface)` };
  }
  if (holes.open > 0) {
    const what = `open on purpose: ${holes.open} opening${holes.open === 1 ? '' : 's'} (largest ${pct(holes.largestOpen)} of its surface) kept open, as a cup's or a scoop's`;
    return { plan: 'container', mesh: capped, holes, note: `${closedNote ? `${closedNote}; ` : ''}${what}; split as its surface (its walls), not filled by its hull` };
  }
  if (holes.capped > 0 && meshVolume(capped).closed) return { plan: 'closed', mesh: capped, holes, note: closedNote };
  return { plan: 'hull', mesh, holes, note: `not split: an open mesh${closedNote ? ` (${closedNote}, still not closed)` : ' without boundary loops (inconsistently wound triangles?)'}; its single hull is used` };
}

/**
 * The mesh V-HACD is given (here and in decomposeMeshFile): a closed mesh as it is, an open one
 * with its small holes capped (openMeshPlan). Deterministic: the same bytes give the same mesh.
 */
export function meshForDecomposition(mesh: TriangleMesh): TriangleMesh {
  return meshVolume(mesh).closed ? mesh : closeSmallHoles(mesh).mesh;
}

/** What a MeshDecomposer is asked: one mesh file's bytes, its URDF scale and the V-HACD options. */
export interface MeshPartsRequest {
  /** The mesh's path (its extension names the format: .stl, .obj, .dae). */
  file: string;
  bytes: Uint8Array;
  scale: [number, number, number];
  options: DecompositionOptions;
}

/** Runs V-HACD somewhere else (the desktop app's main process), for a thread that cannot. */
export type MeshDecomposer = (req: MeshPartsRequest) => Promise<ConvexParts>;

/**
 * The convex parts of one mesh file: read, scaled and decomposed exactly as convexPartsForUrdf
 * does it, through `cache` (same key). What Electron's main process runs for the app's worker.
 */
export async function decomposeMeshFile(req: MeshPartsRequest, cache: ConvexPartsCache | null): Promise<ConvexParts> {
  const key = cache ? await convexPartsCacheKey(req.bytes, req.scale, req.options) : null;
  const got = key !== null && cache ? await cache.get(key) : undefined;
  if (got) return got;
  const parts = await decomposeMesh(meshForDecomposition(scaleMesh(readCollisionMesh(req.file, req.bytes), req.scale)), req.options);
  if (key !== null && cache) await cache.set(key, parts);
  return parts;
}

/** Parts as plain JSON (a disk cache entry) and back, checked. */
export function convexPartsFromJson(x: unknown): ConvexParts | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const o = x as { hulls?: unknown; volume?: unknown };
  if (!Array.isArray(o.hulls) || typeof o.volume !== 'number' || !Number.isFinite(o.volume)) return undefined;
  const hulls: Vec3Spec[][] = [];
  for (const h of o.hulls) {
    if (!Array.isArray(h) || h.length < 4) return undefined;
    const pts: Vec3Spec[] = [];
    for (const p of h) {
      if (!Array.isArray(p) || p.length !== 3 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
      pts.push([p[0], p[1], p[2]]);
    }
    hulls.push(pts);
  }
  return { hulls, volume: o.volume };
}
