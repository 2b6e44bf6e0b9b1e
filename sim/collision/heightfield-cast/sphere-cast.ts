/**
 * Sphere cast and ray cast through a heightfield: the swept-sphere primitives of the DGL toolbox
 * (swept/swept-sphere.ts: face, then edges, then vertices) applied to the elements of the cells
 * the grid walk (grid-walk.ts) visits along the path. A ray is a sphere of radius 0.
 *
 * Elements: every cell is tested as its two triangles V0 V1 V2 and V1 V3 V2 (heightfield.ts's
 * diagram). For a planar rectangle those two are coplanar and together are the rectangle, so the
 * surface is the paper's; the hit then names the element ElementKind.Rectangle. (Its internal
 * diagonal is tested as an edge too, but no point of it is reached before the face around it.)
 *
 * The terrain is solid: a sphere whose centre starts below the surface over the grid is an
 * initial overlap (toi 0, the point straight above it on the surface, the element's normal),
 * even if it is deeper than its radius.
 *
 * Per cell, before the two triangles: the time window in which the sphere's footprint is over
 * the cell (footprintWindow); a cell whose highest corner is below the sphere's lowest point
 * during that window is skipped.
 *
 * API (engine form, allocation-free)
 *   castSphereHeightfield(out: TerrainCastResult, hf, center, motion, sphere: { radius }, ws: SphereCastWorkspace): TerrainCastResult
 *   castRayHeightfield(out, hf, origin, motion, ws)  (= radius 0; motion = the whole segment)
 * out.toi ∈ [0, 1] is the fraction of `motion`; the convention is terrain-cast-result.ts's.
 */
import type { Vec3 } from '../../math/vec3';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import { SweptFeature, SweptHit, SweptStatus, SweptWorkspace, triangleRootQ } from '../swept/swept-sphere';
import { FOOTPRINT_SIZE, FP_CX, FP_CY, FP_EX, FP_EY, FP_MX, FP_MY, FP_MZ, FP_ZLOW, GridWalkStatus, footprintWindow, walkFootprint } from './grid-walk';
import type { CellVisitor } from './grid-walk';
import { TerrainCastResult } from './terrain-cast-result';

/**
 * Scratch of castSphereHeightfield / castRayHeightfield, created once by its owner (a query
 * context) and passed in; it is the grid walk's visitor of the cast. One cast at a time per
 * workspace; nothing inside grows.
 */
export class SphereCastWorkspace implements CellVisitor {
  readonly hit = new SweptHit();
  /** The cell's time window, the cell's xy rectangle and the sphere's footprint (grid-walk.ts). */
  readonly window = new Float64Array(2);
  readonly rect = new Float64Array(4);
  /** The triangle handed to triangleRootQ (xyz at 0, 3, 6). */
  readonly tri = new Float64Array(9);
  readonly fp = new Float64Array(FOOTPRINT_SIZE);
  /** Earliest toi so far (CellVisitor). */
  best = Infinity;
  /** The result of the cast under way. */
  /** The swept-sphere query (its `query` holds the sphere, set once per cast). */
  readonly swept = new SweptWorkspace();
  out: TerrainCastResult = new TerrainCastResult();

  /** Tests the two triangles of cell (i, j) (CellVisitor). */
  visitCell(hf: Heightfield, i: number, j: number): void {
    const rect = this.rect, window = this.window, fp = this.fp, tri = this.tri, hit = this.hit;
    const H = hf.heights, cols = hf.cols, k = j * cols + i;
    const h0 = H[k], h1 = H[k + 1], h2 = H[k + cols], h3 = H[k + cols + 1];
    const xa = hf.x0 + i * hf.dx, xb = xa + hf.dx, ya = hf.y0 + j * hf.dy, yb = ya + hf.dy;
    // The sphere is over this cell only during its window: below its lowest point then, skip.
    rect[0] = xa;
    rect[1] = xb;
    rect[2] = ya;
    rect[3] = yb;
    if (!footprintWindow(window, fp, rect)) return;
    // Only times before the earliest hit so far matter.
    if (window[0] > this.best) return;
    if (window[1] > this.best) window[1] = this.best;
    const za = fp[FP_ZLOW] + window[0] * fp[FP_MZ], zb = fp[FP_ZLOW] + window[1] * fp[FP_MZ];
    const zLow = za < zb ? za : zb;
    if (h0 < zLow && h1 < zLow && h2 < zLow && h3 < zLow) return;
    const rectangle = hf.cellIsRectangle(i, j);
    // lower triangle V0 V1 V2, then upper V1 V3 V2 (both counter-clockwise from above: normal up)
    tri[0] = xa; tri[1] = ya; tri[2] = h0;
    tri[3] = xb; tri[4] = ya; tri[5] = h1;
    tri[6] = xa; tri[7] = yb; tri[8] = h2;
    triangleRootQ(hit, this.swept, tri);
    this.take(i, j, rectangle ? ElementKind.Rectangle : ElementKind.LowerTriangle);
    tri[0] = xb; tri[1] = ya; tri[2] = h1;
    tri[3] = xb; tri[4] = yb; tri[5] = h3;
    tri[6] = xa; tri[7] = yb; tri[8] = h2;
    triangleRootQ(hit, this.swept, tri);
    this.take(i, j, rectangle ? ElementKind.Rectangle : ElementKind.UpperTriangle);
  }

  private take(i: number, j: number, kind: ElementKind): void {
    const hit = this.hit;
    if (!hit.touched || !(hit.toi < this.best)) return;
    this.best = hit.toi;
    const o = this.out;
    o.status = hit.status;
    o.toi = hit.toi;
    o.cellI = i;
    o.cellJ = j;
    o.element = kind;
    o.feature = hit.feature;
    for (let a = 0; a < 3; a++) {
      o.point[a] = hit.point[a];
      o.normal[a] = hit.normal[a];
    }
  }
}

function finite3(v: Readonly<Vec3>): boolean {
  return Number.isFinite(v[0]) && Number.isFinite(v[1]) && Number.isFinite(v[2]);
}

/** A sphere's size for the casts (SphereShape has it): an object, so no call boxes the radius. */
export interface SphereSize {
  /** [m] ≥ 0 (0: a ray) */
  readonly radius: number;
}

const RAY: SphereSize = Object.freeze({ radius: 0 });

/** Sphere cast through the heightfield (see the file header); `ws` is the caller's scratch. */
export function castSphereHeightfield(
  out: TerrainCastResult, hf: Heightfield, center: Readonly<Vec3>, motion: Readonly<Vec3>, sphere: SphereSize,
  ws: SphereCastWorkspace,
): TerrainCastResult {
  out.reset();
  const radius = sphere.radius;
  if (!finite3(center) || !finite3(motion) || !(radius >= 0) || !Number.isFinite(radius)) {
    out.status = SweptStatus.Degenerate;
    return out;
  }
  const cx = center[0], cy = center[1], cz = center[2];
  if (hf.contains(cx, cy)) {
    const hz = hf.heightAt(cx, cy);
    if (cz < hz) {
      // Buried centre: overlapping whatever the radius.
      out.status = SweptStatus.InitiallyOverlapping;
      out.toi = 0;
      out.point[0] = cx;
      out.point[1] = cy;
      out.point[2] = hz;
      hf.normalAt(out.normal, cx, cy);
      const fi = Math.min(Math.floor((cx - hf.x0) / hf.dx), hf.cellsX - 1);
      const fj = Math.min(Math.floor((cy - hf.y0) / hf.dy), hf.cellsY - 1);
      out.cellI = fi;
      out.cellJ = fj;
      const u = (cx - hf.x0) / hf.dx - fi, v = (cy - hf.y0) / hf.dy - fj;
      out.element = hf.cellIsRectangle(fi, fj) ? ElementKind.Rectangle : u + v <= 1 ? ElementKind.LowerTriangle : ElementKind.UpperTriangle;
      out.feature = SweptFeature.Face;
      return out;
    }
  }
  const vis = ws, fp = ws.fp;
  vis.best = Infinity;
  vis.out = out;
  const sweptQuery = vis.swept.query;
  for (let a = 0; a < 3; a++) {
    sweptQuery[a] = center[a];
    sweptQuery[3 + a] = motion[a];
  }
  sweptQuery[6] = radius;
  fp[FP_CX] = cx;
  fp[FP_CY] = cy;
  fp[FP_ZLOW] = cz - radius;
  fp[FP_MX] = motion[0];
  fp[FP_MY] = motion[1];
  fp[FP_MZ] = motion[2];
  fp[FP_EX] = radius;
  fp[FP_EY] = radius;
  const walk = walkFootprint(hf, vis, fp, out.walk);
  if (walk === GridWalkStatus.Truncated) out.truncated = true;
  return out;
}

/** Ray cast: the segment origin → origin + motion against the terrain (a sphere of radius 0). */
export function castRayHeightfield(
  out: TerrainCastResult, hf: Heightfield, origin: Readonly<Vec3>, motion: Readonly<Vec3>, ws: SphereCastWorkspace,
): TerrainCastResult {
  return castSphereHeightfield(out, hf, origin, motion, RAY, ws);
}
