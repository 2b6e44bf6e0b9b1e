/**
 * A concave collision mesh → a few convex hulls whose union follows it (V-HACD 4, Khaled
 * Mammou's voxel-based hierarchical approximate convex decomposition, compiled to wasm by the
 * `vhacd-js` package, BSD-3-Clause). One convex hull of a U-shaped bracket fills the U; the parts
 * leave it open, so a body resting on the bracket sinks into the U as it should.
 *
 * When: only meshes whose single hull is more than DECOMPOSE_FIT_RATIO times the mesh's enclosed
 * volume (see mesh-hull.ts) are decomposed; convex-enough meshes keep their one hull (cheaper to
 * collide, exact). An open mesh (no enclosed volume) is not decomposed: V-HACD's flood fill needs
 * a closed surface.
 *
 * Determinism: V-HACD here runs single-threaded in wasm (no pthreads in the build), voxelises and
 * splits without randomness, so the same mesh and options give the same hulls, bit for bit
 * (checked in test/unit/robot/mesh/convex-decomposition.test.ts). Each output hull is rebuilt by
 * the project's own hull builder, so the simulation's shapes are the builder's, as for one hull.
 *
 * Cost: a 100 k-voxel decomposition of a robot part takes about 0.1–1 s, so it runs where it does
 * not block a UI (the simulation worker, the CLI) and its result is cached by the content hash of
 * the mesh file and the options (convex-parts.ts). The wasm module (≈180 kB, base64 inside the
 * script) is imported on first use only.
 *
 * Where it runs: Node (the CLI, tests), and a browser worker without a Content-Security-Policy
 * (the web build, `npm run web`: checked in Chromium). NOT under the desktop app's CSP: embind's
 * glue calls `new Function`, which `script-src 'self' 'wasm-unsafe-eval'` refuses; so the app's
 * worker asks Electron's main process (Node, no CSP) to run this code for it (convex-parts.ts
 * MeshDecomposer, electron/handlers.ts meshConvexParts). Without that, the step reports "not
 * split: V-HACD cannot run in this thread" and the single hull is used.
 */
import type { Vec3Spec } from '../../dynamics/spec';
import { buildConvexHull, HullStatus } from '../../shapes/convex-hull-builder';
import { ConvexHullShape } from '../../shapes/convex-hull';
import { HULL_MAX_VERTICES } from '../../constants';
import { MESH_FLAT_THICKNESS } from './mesh-hull';
import type { TriangleMesh } from './triangle-mesh';

/** Hull volume / mesh volume above which a mesh is decomposed (the same line as the poor-fit warning). */
export const DECOMPOSE_FIT_RATIO = 1.5;

/** What V-HACD is asked for (part of the cache key). */
export interface DecompositionOptions {
  /** Most convex parts per mesh. */
  maxHulls: number;
  /** Most vertices per part (V-HACD simplifies each hull to this many). */
  maxVerticesPerHull: number;
  /** Voxels over the mesh's bounding box (finer follows the surface better, costs more). */
  voxelResolution: number;
  /** V-HACD stops splitting a part whose hull is within this percentage of its voxels' volume. */
  minVolumePercentError: number;
}

/**
 * Defaults: 16 parts of ≤ 32 vertices each keep a part's GJK support cheap and a robot link's
 * compound small; 100 000 voxels (≈ 46 per box edge) resolve a 5 mm feature on a 25 cm part;
 * V-HACD's own default 400 000 cost 8 s on the U-bracket test mesh against 0.8 s for 100 000,
 * for a volume 0.01 % closer.
 */
export const DEFAULT_DECOMPOSITION: Readonly<DecompositionOptions> = { maxHulls: 16, maxVerticesPerHull: 32, voxelResolution: 100_000, minVolumePercentError: 1 };

/** The convex parts of one mesh, in the mesh's (scaled) frame. */
export interface ConvexParts {
  /** One point list per part (each a convex hull's vertices). */
  hulls: Vec3Spec[][];
  /** [m³] Sum of the parts' volumes (V-HACD's parts barely overlap: they come from splitting voxels). */
  volume: number;
}

type Decomposer = { computeConvexHulls(mesh: TriangleMesh, options: Record<string, unknown>): TriangleMesh[] };
let decomposer: Promise<Decomposer> | null = null;

/** The wasm decomposer, instantiated once per thread on first use. */
function getDecomposer(): Promise<Decomposer> {
  // The package has only a "module" field (no "main"/"exports"): Node resolves the file itself.
  decomposer ??= import('vhacd-js/lib/vhacd.js')
    .then((m) => m.ConvexMeshDecomposition.create() as Promise<Decomposer>)
    .catch((e: unknown) => {
      throw explain(e);
    });
  return decomposer;
}

/**
 * Emscripten's embind glue builds its bindings with `new Function`: a Content-Security-Policy
 * without 'unsafe-eval' (the desktop app's, sent on its worker scripts) refuses that.
 */
function explain(e: unknown): unknown {
  if (e instanceof EvalError || /Content.Security.Policy|unsafe-eval/i.test(String(e))) {
    return new Error(`V-HACD cannot run in this thread: its wasm glue compiles functions at run time, which this page's Content-Security-Policy forbids ('unsafe-eval') (${String(e).slice(0, 80)})`);
  }
  return e;
}

/**
 * V-HACD's parts of `mesh` (positions already scaled), each rebuilt by the project's hull builder.
 * Throws an Error when V-HACD returns nothing usable (the caller keeps the single hull).
 */
export async function decomposeMesh(mesh: TriangleMesh, options: Readonly<DecompositionOptions> = DEFAULT_DECOMPOSITION): Promise<ConvexParts> {
  const d = await getDecomposer();
  let raw: TriangleMesh[];
  try {
    raw = d.computeConvexHulls(
      { positions: mesh.positions, indices: mesh.indices },
      { maxHulls: options.maxHulls, maxVerticesPerHull: options.maxVerticesPerHull, voxelResolution: options.voxelResolution, minVolumePercentError: options.minVolumePercentError, fillMode: 'flood', messages: 'none' },
    );
  } catch (e) {
    throw explain(e);
  }
  const hulls: Vec3Spec[][] = [];
  let volume = 0;
  for (const h of raw) {
    const res = buildConvexHull(h.positions, { flatThickness: MESH_FLAT_THICKNESS, maxVertices: HULL_MAX_VERTICES });
    // A sliver part V-HACD keeps (a voxel layer) may be degenerate: it carries no volume, drop it.
    if (res.status !== HullStatus.Ok || !res.data) continue;
    const v = res.data.vertices;
    const pts: Vec3Spec[] = [];
    for (let i = 0; i + 2 < v.length; i += 3) pts.push([v[i], v[i + 1], v[i + 2]]);
    hulls.push(pts);
    volume += new ConvexHullShape(res.data).volume();
  }
  if (hulls.length === 0) throw new Error(`V-HACD returned no usable convex part (${raw.length} raw hulls)`);
  return { hulls, volume };
}
