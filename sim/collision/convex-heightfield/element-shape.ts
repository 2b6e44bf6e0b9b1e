/**
 * Terrain elements as shapes, for convex body vs heightfield (collide.ts): the element polygon
 * that face clipping uses as its reference face, and the same vertices as a flat convex shape
 * for GJK (edge contacts, active-edges.ts; the crease fallback, crease-fallback.ts).
 *
 * Element vertex numbering is Heightfield's (V0 = (i, j), V1 = (i+1, j), V2 = (i, j+1),
 * V3 = (i+1, j+1)); polygons run counter-clockwise seen from above, and polygon edge k runs from
 * its vertex k to vertex k+1:
 *
 *     V2 ───── V3      lower triangle  V0 V1 V2
 *     │ ╲  upper│      upper triangle  V1 V3 V2
 *     │   ╲     │      rectangle       V0 V1 V3 V2 (planar cells, the paper's classification)
 *     │lower ╲  │
 *     V0 ───── V1
 */
import { TERRAIN_PLANARITY_TOLERANCE } from '../../constants';
import type { Vec3 } from '../../math/vec3';
import type { Aabb, ConvexShape, MassProperties } from '../../shapes/shape';
import { ShapeKind, SupportFace } from '../../shapes/shape';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import { TAG_VERTEX } from '../manifold/feature-id';
import type { FacePolygon } from '../manifold/face-polygon';

/**
 * A terrain element (or a single point of it) as a flat convex shape in WORLD coordinates, for
 * GJK at the identity pose. Only the support functions matter to GJK; mass and volume are zero.
 */
export class ElementShape implements ConvexShape {
  readonly kind = ShapeKind.ConvexHull;
  readonly coreRadius = 0;
  /** Vertices in use (1 to 4). */
  count = 0;
  readonly v = new Float64Array(12);

  support(out: Vec3, d: Readonly<Vec3>): Vec3 {
    let best = 0, bestDot = -Infinity;
    for (let k = 0; k < this.count; k++) {
      const s = this.v[3 * k] * d[0] + this.v[3 * k + 1] * d[1] + this.v[3 * k + 2] * d[2];
      if (s > bestDot) {
        bestDot = s;
        best = k;
      }
    }
    out[0] = this.v[3 * best];
    out[1] = this.v[3 * best + 1];
    out[2] = this.v[3 * best + 2];
    return out;
  }

  supportCore(out: Vec3, d: Readonly<Vec3>): Vec3 {
    return this.support(out, d);
  }

  supportingFace(out: SupportFace, _d: Readonly<Vec3>): SupportFace {
    out.clear();
    for (let k = 0; k < this.count; k++) out.push(this.v[3 * k], this.v[3 * k + 1], this.v[3 * k + 2]);
    return out;
  }

  localAabb(out: Aabb): Aabb {
    for (let a = 0; a < 3; a++) {
      out.min[a] = Infinity;
      out.max[a] = -Infinity;
      for (let k = 0; k < this.count; k++) {
        out.min[a] = Math.min(out.min[a], this.v[3 * k + a]);
        out.max[a] = Math.max(out.max[a], this.v[3 * k + a]);
      }
    }
    return out;
  }

  massProperties(out: MassProperties): MassProperties {
    out.mass = 0;
    out.volume = 0;
    return out;
  }

  volume(): number {
    return 0;
  }

  /** Makes the shape the single point (x, y, z). */
  setPoint(x: number, y: number, z: number): void {
    this.count = 1;
    this.v[0] = x;
    this.v[1] = y;
    this.v[2] = z;
  }
}

/** Cell corner (0..3 = V0..V3) of vertex k of an element, in the CCW order of the header. */
export function elementCorner(kind: ElementKind, k: number): number {
  if (kind === ElementKind.Rectangle) return k === 0 ? 0 : k === 1 ? 1 : k === 2 ? 3 : 2; // V0 V1 V3 V2
  if (kind === ElementKind.LowerTriangle) return k; // V0 V1 V2
  return k === 0 ? 1 : k === 1 ? 3 : 2; // V1 V3 V2
}

/** Writes element (i, j, kind) into `poly` (vertex tags: its corners) and into `shape`. */
export function loadElement(poly: FacePolygon, shape: ElementShape, hf: Heightfield, i: number, j: number, kind: ElementKind): void {
  poly.clear();
  shape.count = 0;
  const n = kind === ElementKind.Rectangle ? 4 : 3;
  for (let k = 0; k < n; k++) {
    const corner = elementCorner(kind, k);
    const ci = i + (corner & 1), cj = j + (corner >> 1);
    pushVertex(poly, shape, hf.vertexX(ci), hf.vertexY(cj), hf.height(ci, cj), corner);
  }
}

/**
 * True if every vertex of cells [i0, i1] × [j0, j1] lies on one plane (within
 * TERRAIN_PLANARITY_TOLERANCE, the tolerance of the paper's rectangle classification). Then
 * `poly` and `shape` hold the whole range as one rectangle (CCW from above) and `nP` its unit
 * normal; otherwise they are unchanged and nP holds the first cell's lower-triangle normal.
 */
export function loadPlanarPatch(
  nP: Vec3, poly: FacePolygon, shape: ElementShape,
  hf: Heightfield, i0: number, j0: number, i1: number, j1: number,
): boolean {
  if (i0 === i1 && j0 === j1) return false; // one cell: the per-element path is as cheap
  const kP = hf.elementPlane(nP, i0, j0, ElementKind.LowerTriangle);
  const nx = nP[0], ny = nP[1], nz = nP[2];
  for (let j = j0; j <= j1 + 1; j++) {
    const y = hf.vertexY(j);
    for (let i = i0; i <= i1 + 1; i++) {
      const d = hf.vertexX(i) * nx + y * ny + hf.height(i, j) * nz - kP;
      if (d > TERRAIN_PLANARITY_TOLERANCE || d < -TERRAIN_PLANARITY_TOLERANCE) return false;
    }
  }
  poly.clear();
  shape.count = 0;
  for (let k = 0; k < 4; k++) {
    const ci = k === 1 || k === 2 ? i1 + 1 : i0, cj = k >= 2 ? j1 + 1 : j0;
    pushVertex(poly, shape, hf.vertexX(ci), hf.vertexY(cj), hf.height(ci, cj), k);
  }
  return true;
}

function pushVertex(poly: FacePolygon, shape: ElementShape, x: number, y: number, z: number, tag: number): void {
  const k = poly.count;
  poly.push(x, y, z, k, TAG_VERTEX, tag);
  shape.v[3 * k] = x;
  shape.v[3 * k + 1] = y;
  shape.v[3 * k + 2] = z;
  shape.count++;
}
