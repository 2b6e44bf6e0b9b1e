/**
 * A collision mesh → the convex hull the dynamics world collides with (the project's hull
 * builder, sim/shapes/convex-hull-builder.ts), plus a check of how well the hull fits.
 *
 * Big meshes are thinned first: the points are binned into a regular grid over their bounding
 * box and each occupied cell keeps the point farthest from the box centre (the one most likely
 * to be a hull vertex). The grid gets coarser until the hull fits the builder's vertex cap. The
 * error this makes is at most one cell diagonal inward, reported as `thinnedCell`.
 *
 * Fit: a convex hull covers every concavity of the mesh (a U-shaped bracket becomes a block).
 * When the hull's volume is more than MESH_HULL_POOR_FIT_RATIO times the mesh's own enclosed
 * volume, the caller warns (name the link: the user should split the mesh into convex parts,
 * one <collision> each, or use primitives).
 */
import type { Vec3Spec } from '../../dynamics/spec';
import { buildConvexHull, HullStatus, HULL_STATUS_NAMES } from '../../shapes/convex-hull-builder';
import { ConvexHullShape } from '../../shapes/convex-hull';
import { HULL_MAX_VERTICES } from '../../constants';
import { UrdfError } from '../urdf/urdf-error';
import type { TriangleMesh } from './triangle-mesh';
import { meshVolume } from './triangle-mesh';

/** Hull volume / mesh volume above which the hull is a poor stand-in for the mesh. */
export const MESH_HULL_POOR_FIT_RATIO = 1.5;
/** Points handed to the hull builder at most (more are thinned on a grid, see above). */
export const MESH_HULL_MAX_INPUT_POINTS = 20_000;
/** Grid cells along the longest box edge for the first thinning; each retry uses 2/3 as many. */
const MESH_HULL_THIN_CELLS = 48;
/** Fewest grid cells a retry goes down to, and the most retries. */
const MESH_HULL_THIN_MIN_CELLS = 4;
const MESH_HULL_MAX_ATTEMPTS = 6;
/** [m] A flat collision mesh (a plate) becomes a slab this thick. */
export const MESH_FLAT_THICKNESS = 0.005;

/** The convex hull of a collision mesh and how well it fits the mesh (volume ratio, warning). */
export interface MeshHullResult {
  /** Hull vertices in the link's collision frame (mesh scale applied). */
  points: Vec3Spec[];
  /** [m³] */
  hullVolume: number;
  /** [m³] Enclosed volume of the (scaled) mesh; NaN when the mesh is not closed. */
  meshVolume: number;
  /** hullVolume / meshVolume (NaN when the mesh is not closed). */
  fitRatio: number;
  /** [m] Grid cell edge used to thin the points (0 when every point went in). */
  thinnedCell: number;
  /** True when a flat mesh was turned into a slab. */
  flattened: boolean;
}

/**
 * `where` names the link and file for messages. Throws UrdfError when no hull exists (all points
 * on one line, NaN coordinates).
 */
export function meshCollisionHull(mesh: TriangleMesh, scale: Readonly<Vec3Spec>, where: string): MeshHullResult {
  const n = (mesh.positions.length / 3) | 0;
  const pts = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) pts[3 * i + k] = mesh.positions[3 * i + k] * scale[k];
  }
  // A mirroring scale flips the winding; meshVolume returns |volume|, so that does not matter.
  const vol = meshVolume({ positions: pts, indices: mesh.indices });

  let cells = n > MESH_HULL_MAX_INPUT_POINTS ? MESH_HULL_THIN_CELLS : 0;
  for (let attempt = 0; attempt < MESH_HULL_MAX_ATTEMPTS; attempt++) {
    const { points: input, cell } = cells > 0 ? thin(pts, cells) : { points: pts, cell: 0 };
    const res = buildConvexHull(input, { flatThickness: MESH_FLAT_THICKNESS, maxVertices: HULL_MAX_VERTICES });
    if (res.status === HullStatus.TooManyVertices) {
      cells = cells === 0 ? MESH_HULL_THIN_CELLS : Math.max(MESH_HULL_THIN_MIN_CELLS, (cells * 2) / 3) | 0;
      continue;
    }
    if (res.status !== HullStatus.Ok || !res.data) {
      throw new UrdfError(`${where}: the collision mesh has no convex hull (${HULL_STATUS_NAMES[res.status]}: ${res.message}); use a closed mesh or a primitive`, where);
    }
    const v = res.data.vertices;
    const points: Vec3Spec[] = [];
    for (let i = 0; i + 2 < v.length; i += 3) points.push([v[i], v[i + 1], v[i + 2]]);
    const hullVolume = new ConvexHullShape(res.data).volume();
    const meshVol = vol.closed ? vol.volume : NaN;
    return { points, hullVolume, meshVolume: meshVol, fitRatio: hullVolume / meshVol, thinnedCell: cell, flattened: res.flattened };
  }
  throw new UrdfError(`${where}: the collision mesh's hull keeps more than ${HULL_MAX_VERTICES} vertices even when thinned; simplify the mesh`, where);
}

/** Grid thinning: `cells` bins along the longest box edge; per bin the point farthest from the centre. */
function thin(p: Float64Array, cells: number): { points: Float64Array; cell: number } {
  const n = p.length / 3;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p[3 * i + k]);
      hi[k] = Math.max(hi[k], p[3 * i + k]);
    }
  }
  const cell = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / cells;
  if (!(cell > 0)) return { points: p, cell: 0 };
  const c = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  const best = new Map<number, number>();
  const bestD = new Map<number, number>();
  const span = cells + 1;
  for (let i = 0; i < n; i++) {
    const x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
    const key = (Math.floor((x - lo[0]) / cell) * span + Math.floor((y - lo[1]) / cell)) * span + Math.floor((z - lo[2]) / cell);
    const d = (x - c[0]) ** 2 + (y - c[1]) ** 2 + (z - c[2]) ** 2;
    const prev = bestD.get(key);
    if (prev === undefined || d > prev) {
      bestD.set(key, d);
      best.set(key, i);
    }
  }
  // Keep the input order of the chosen points (Map iteration is insertion order of first sight).
  const chosen = [...best.values()].sort((a, b) => a - b);
  const out = new Float64Array(chosen.length * 3);
  chosen.forEach((i, j) => {
    out[3 * j] = p[3 * i];
    out[3 * j + 1] = p[3 * i + 1];
    out[3 * j + 2] = p[3 * i + 2];
  });
  return { points: out, cell };
}
