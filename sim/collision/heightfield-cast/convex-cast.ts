/**
 * Convex shape cast through a heightfield: the GJK shape cast (gjk-raycast.ts, through
 * swept/time-of-impact.ts's linearCast, which restarts a cast that runs out of iterations)
 * against each element of the cells the grid walk (grid-walk.ts) visits along the path, when the
 * body translates by `motion`; when it also rotates (`angular`), conservative advancement
 * (shape-cast.ts) per element instead, stopping CA_TARGET_DISTANCE short of contact.
 *
 * Elements are solid prisms, hull pieces of the terrain: the element polygon (rectangle or
 * triangle, the paper's classification) and the same polygon dropped to a floor below the
 * terrain's lowest vertex (HEIGHTFIELD_CAST_PRISM_FLOOR further down). Side by side the prisms
 * fill the solid terrain, so a body that starts under the surface is an initial overlap, and a
 * flat map still gives GJK a volume. Their side walls are interior to the solid and are only
 * reached through the surface.
 *
 *        V2 ──── V3          top: the element (CCW from above)
 *       ╱│      ╱│
 *     V0 ──── V1 │          floor: z = min height − HEIGHTFIELD_CAST_PRISM_FLOOR
 *      │ └ ─ ─│─ ┘
 *      │╱     │╱
 *      ●──────●
 *
 * Before GJK, two bounds (a cast per element is ~100× their cost): per cell, the time window
 * in which the body's footprint is over it (footprintWindow), and the cell is skipped if its
 * highest corner is below the body's lowest point during that window; per element, it is
 * skipped if the body stays above the element's plane during that window (one support call),
 * or if its swept bounding sphere misses the element's top polygon (sphereMisses, analytic).
 *
 * API (engine form, allocation-free)
 *   castConvexHeightfield(out: TerrainCastResult, hf, shape, pose, motion, ws: ConvexCastWorkspace, angular?): TerrainCastResult
 * out.point on the terrain, out.normal out of the terrain (terrain-cast-result.ts); `approximate`
 * when the hit element's cast hit its iteration cap (toi is then a safe lower bound).
 */
import { HEIGHTFIELD_CAST_PRISM_FLOOR } from '../../constants';
import type { Vec3 } from '../../math/vec3';
import { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import type { Aabb, ConvexShape, Pose } from '../../shapes/shape';
import { ShapeKind } from '../../shapes/shape';
import { ElementShape } from '../convex-heightfield/element-shape';
import { convexWorldAabb } from '../../shapes/world-aabb';
import { quatRotate, quatRotateInverse } from '../../math/quat';
import { CastResult, CastStatus } from '../gjk-raycast';
import { SweptFeature, SweptHit, SweptStatus, SweptWorkspace, triangleRootQ } from '../swept/swept-sphere';
import type { CylinderShape } from '../../shapes/cylinder';
import type { CapsuleShape } from '../../shapes/capsule';
import { TimeOfImpactWorkspace, linearCast, poseAfter } from '../swept/time-of-impact';
import { boundingRadius, conservativeAdvancement } from '../shape-cast';
import { FOOTPRINT_SIZE, FP_CX, FP_CY, FP_EX, FP_EY, FP_MX, FP_MY, FP_MZ, FP_ZLOW, GridWalkStatus, footprintWindow, walkFootprint } from './grid-walk';
import type { CellVisitor } from './grid-walk';
import { TerrainCastResult } from './terrain-cast-result';

/**
 * An element's prism in world coordinates: the element shape's `top` vertices (3 or 4), each also
 * at z = floor. Mass, volume and the supporting face are the element shape's.
 */
class ElementPrism extends ElementShape {
  floor = 0;

  override support(out: Vec3, d: Readonly<Vec3>): Vec3 {
    let best = 0, bestDot = -Infinity;
    for (let k = 0; k < this.count; k++) {
      const s = this.v[3 * k] * d[0] + this.v[3 * k + 1] * d[1] + (d[2] > 0 ? this.v[3 * k + 2] * d[2] : 0);
      if (s > bestDot) {
        bestDot = s;
        best = k;
      }
    }
    // Downward (or horizontal) directions: the floor copy is at least as far (floor < every top z).
    out[0] = this.v[3 * best];
    out[1] = this.v[3 * best + 1];
    out[2] = d[2] > 0 ? this.v[3 * best + 2] : this.floor;
    return out;
  }

  override localAabb(out: Aabb): Aabb {
    super.localAabb(out);
    out.min[2] = this.floor;
    return out;
  }

  setVertex(k: number, x: number, y: number, z: number): void {
    this.v[3 * k] = x;
    this.v[3 * k + 1] = y;
    this.v[3 * k + 2] = z;
  }
}

/** The cast's per-cell state and scratch (the grid walk's visitor; one per ConvexCastWorkspace). */
class ConvexCellVisitor implements CellVisitor {
  /** The prisms sit in world coordinates: the cast sees them at this pose, not moving (never written). */
  readonly identity: Readonly<Pose> = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly zero: Readonly<Vec3> = [0, 0, 0];
  /** The current element's prism. */
  readonly prism = new ElementPrism();
  readonly cast = new CastResult();
  /** The cell's time window, the cell's xy rectangle and the body's footprint (grid-walk.ts). */
  readonly window = new Float64Array(2);
  readonly rect = new Float64Array(4);
  readonly fp = new Float64Array(FOOTPRINT_SIZE);
  /** The current element's plane: unit normal (up) at 0..2, k_P = n_P·V at 3. */
  readonly plane = new Float64Array(4);
  /** The triangle handed to triangleRootQ (xyz at 0, 3, 6) and its hit. */
  readonly tri = new Float64Array(9);
  readonly sphereHit = new SweptHit();
  readonly dirLocal: Vec3 = [0, 0, 0];
  readonly sup: Vec3 = [0, 0, 0];

  best = Infinity;
  shape: ConvexShape = this.prism;
  pose: Readonly<Pose> = this.identity;
  readonly motion: Vec3 = [0, 0, 0];
  out: TerrainCastResult = new TerrainCastResult();
  /** Rotation vector over the motion [rad] (zero: a pure translation, the exact linear cast). */
  readonly angular: Vec3 = [0, 0, 0];
  rotating = false;
  /** The bounding sphere's swept query (`swept.query`, set once per cast) and the element casts' scratch. */
  readonly swept = new SweptWorkspace();
  readonly toi = new TimeOfImpactWorkspace();
  /** Cells on the grid border: their prisms' outer walls are exposed, so no sphere bound. */
  lastI = 0;
  lastJ = 0;

  visitCell(hf: Heightfield, i: number, j: number): void {
    const rect = this.rect, window = this.window, fp = this.fp, prism = this.prism;
    const H = hf.heights, cols = hf.cols, k = j * cols + i;
    const h0 = H[k], h1 = H[k + 1], h2 = H[k + cols], h3 = H[k + cols + 1];
    const xa = hf.x0 + i * hf.dx, xb = xa + hf.dx, ya = hf.y0 + j * hf.dy, yb = ya + hf.dy;
    // The body is over this cell only during its window: below its lowest point then, skip.
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
    prism.floor = hf.minHeight - HEIGHTFIELD_CAST_PRISM_FLOOR;
    const v = prism.v;
    if (hf.cellIsRectangle(i, j)) {
      prism.count = 4;
      v[0] = xa; v[1] = ya; v[2] = h0;
      v[3] = xb; v[4] = ya; v[5] = h1;
      v[6] = xb; v[7] = yb; v[8] = h3;
      v[9] = xa; v[10] = yb; v[11] = h2;
      this.test(i, j, ElementKind.Rectangle);
      return;
    }
    prism.count = 3;
    v[0] = xa; v[1] = ya; v[2] = h0;
    v[3] = xb; v[4] = ya; v[5] = h1;
    v[6] = xa; v[7] = yb; v[8] = h2;
    this.test(i, j, ElementKind.LowerTriangle);
    v[0] = xb; v[1] = ya; v[2] = h1;
    v[3] = xb; v[4] = yb; v[5] = h3;
    v[6] = xa; v[7] = yb; v[8] = h2;
    this.test(i, j, ElementKind.UpperTriangle);
  }

  /**
   * True if the body's swept bounding sphere starts above the element's plane and never
   * touches its top polygon before the earliest hit so far: then the body cannot touch the
   * prism first either. It would have to cross the plane beside the element and reach the
   * prism's wall from a neighbour's column, i.e. overlap the neighbour's prism, which is tested
   * on its own and hit no later. Not for border cells (their outer walls face the open) and
   * not when the sphere starts touching the plane. `plane` holds the element's plane; the
   * sphere is this.swept.query (set once per cast).
   */
  private sphereMisses(i: number, j: number, rectangle: boolean): boolean {
    if (i === 0 || j === 0 || i === this.lastI || j === this.lastJ) return false;
    const plane = this.plane, tri = this.tri, sphereHit = this.sphereHit;
    const Q = this.swept.query;
    if (!(Q[0] * plane[0] + Q[1] * plane[1] + Q[2] * plane[2] - plane[3] > Q[6])) return false;
    const v = this.prism.v;
    for (let k = 0; k < 9; k++) tri[k] = v[k];
    triangleRootQ(sphereHit, this.swept, tri);
    if (sphereHit.touched && sphereHit.toi <= this.best) return false;
    if (rectangle) {
      for (let k = 3; k < 6; k++) tri[k] = v[k + 3];
      for (let k = 6; k < 9; k++) tri[k] = v[k + 3];
      triangleRootQ(sphereHit, this.swept, tri);
      if (sphereHit.touched && sphereHit.toi <= this.best) return false;
    }
    return true;
  }

  /**
   * True if the body stays strictly above the element's plane during the cell's window: the
   * whole prism lies on or below that plane (its walls are vertical under the element), so no
   * contact. The body's lowest point along −n_P is one support call (a rotating body: its
   * bounding sphere about the rotation centre); its height above the plane changes linearly
   * with t. Otherwise, the swept-sphere bound (sphereMisses).
   */
  private abovePlane(i: number, j: number, rectangle: boolean): boolean {
    // The element's plane from its top polygon (counter-clockwise from above: n up).
    const plane = this.plane, window = this.window, dirLocal = this.dirLocal, sup = this.sup;
    const v = this.prism.v;
    const ux = v[3] - v[0], uy = v[4] - v[1], uz = v[5] - v[2];
    const wx = v[6] - v[0], wy = v[7] - v[1], wz = v[8] - v[2];
    let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    nx /= nl;
    ny /= nl;
    nz /= nl;
    plane[0] = nx;
    plane[1] = ny;
    plane[2] = nz;
    plane[3] = nx * v[0] + ny * v[1] + nz * v[2];
    const m = this.motion;
    const rate = m[0] * nx + m[1] * ny + m[2] * nz;
    let gap0: number;
    if (this.rotating) {
      const Q = this.swept.query;
      gap0 = Q[0] * nx + Q[1] * ny + Q[2] * nz - plane[3] - Q[6];
    } else {
      const q = this.pose.orientation, p = this.pose.position;
      dirLocal[0] = -nx;
      dirLocal[1] = -ny;
      dirLocal[2] = -nz;
      quatRotateInverse(dirLocal, q, dirLocal);
      this.shape.support(sup, dirLocal);
      quatRotate(sup, q, sup);
      gap0 = (p[0] + sup[0]) * nx + (p[1] + sup[1]) * ny + (p[2] + sup[2]) * nz - plane[3];
    }
    if (gap0 + window[0] * rate > 0 && gap0 + window[1] * rate > 0) return true;
    return this.sphereMisses(i, j, rectangle);
  }

  private test(i: number, j: number, kind: ElementKind): void {
    if (this.abovePlane(i, j, kind === ElementKind.Rectangle)) return;
    this.out.elementCasts++;
    const cast = this.cast;
    if (this.rotating) conservativeAdvancement(cast, this.shape, this.pose, this.motion, this.angular, this.prism, this.identity, this.zero, this.zero, 1, this.toi.advance);
    else linearCast(cast, this.shape, this.pose, this.motion, this.prism, this.identity, this.zero, this.toi);
    this.out.castIterations += cast.iterations;
    const s = cast.status;
    if (s === CastStatus.Miss || s === CastStatus.Degenerate) return;
    if (!(cast.fraction < this.best)) return;
    this.best = cast.fraction;
    const o = this.out;
    o.status = s === CastStatus.InitiallyOverlapping ? SweptStatus.InitiallyOverlapping : SweptStatus.Hit;
    o.toi = cast.fraction;
    o.approximate = s === CastStatus.MaxIterations;
    o.cellI = i;
    o.cellJ = j;
    o.element = kind;
    o.feature = SweptFeature.None;
    for (let a = 0; a < 3; a++) {
      o.point[a] = cast.pointB[a];
      o.normal[a] = -cast.normal[a]; // the cast's normal is body → terrain
    }
  }
}

/**
 * Scratch of castConvexHeightfield, created once by its owner (the world's CCD stage, a query
 * context) and passed in: the grid walk's visitor with the element prism and the cast's result,
 * the body's start and end boxes. One cast at a time per workspace; nothing inside grows.
 */
export class ConvexCastWorkspace {
  readonly visitor = new ConvexCellVisitor();
  /** The body's world AABB at the start and (rotating) at the end of the motion, and its end pose. */
  readonly box: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
  readonly endBox: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
  readonly endPose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  readonly motion = { linear: [0, 0, 0] as Vec3, angular: [0, 0, 0] as Vec3 };
}

/**
 * Convex shape cast through the heightfield (see the file header). With `angular` (a rotation
 * vector [rad] over the motion, about the pose origin) each element takes conservative
 * advancement instead of the linear cast, so the toi stops CA_TARGET_DISTANCE short of contact,
 * and the footprint is the box that holds the rotating body (swept/time-of-impact.ts's bound).
 * `ws` is the caller's scratch.
 */
export function castConvexHeightfield(
  out: TerrainCastResult, hf: Heightfield, shape: ConvexShape, pose: Readonly<Pose>, motion: Readonly<Vec3>,
  ws: ConvexCastWorkspace,
  angular?: Readonly<Vec3>,
): TerrainCastResult {
  out.reset();
  const p = pose.position, q = pose.orientation;
  const w0 = angular ? angular[0] : 0, w1 = angular ? angular[1] : 0, w2 = angular ? angular[2] : 0;
  if (!Number.isFinite(p[0] + p[1] + p[2] + q[0] + q[1] + q[2] + q[3] + motion[0] + motion[1] + motion[2] + w0 + w1 + w2)) {
    out.status = SweptStatus.Degenerate;
    return out;
  }
  const vis = ws.visitor, box = ws.box, endBox = ws.endBox, fp = vis.fp;
  vis.rotating = w0 !== 0 || w1 !== 0 || w2 !== 0;
  vis.angular[0] = w0;
  vis.angular[1] = w1;
  vis.angular[2] = w2;
  convexWorldAabb(box, shape, pose);
  const cx = 0.5 * (box.min[0] + box.max[0]), cy = 0.5 * (box.min[1] + box.max[1]);
  let ex = 0.5 * (box.max[0] - box.min[0]), ey = 0.5 * (box.max[1] - box.min[1]);
  let zLow = box.min[2];
  const ez = 0.5 * (box.max[2] - box.min[2]);
  const czBox = 0.5 * (box.min[2] + box.max[2]);
  fp[FP_MX] = motion[0];
  fp[FP_MY] = motion[1];
  fp[FP_MZ] = motion[2];
  if (vis.rotating) {
    // A box holding the body at every t: centre and lowest z interpolate between the start
    // and end boxes, half sizes the larger of the two, all grown by the arc bound ρθ²/8.
    for (let k = 0; k < 3; k++) {
      ws.motion.linear[k] = motion[k];
      ws.motion.angular[k] = vis.angular[k];
    }
    poseAfter(ws.endPose, pose, ws.motion);
    convexWorldAabb(endBox, shape, ws.endPose);
    const rho = boundingRadius(shape, vis.toi.localBox);
    const grow = rho * Math.min((w0 * w0 + w1 * w1 + w2 * w2) / 8, 2);
    const cx1 = 0.5 * (endBox.min[0] + endBox.max[0]), cy1 = 0.5 * (endBox.min[1] + endBox.max[1]);
    fp[FP_MX] = cx1 - cx;
    fp[FP_MY] = cy1 - cy;
    fp[FP_MZ] = endBox.min[2] - box.min[2];
    ex = Math.max(ex, 0.5 * (endBox.max[0] - endBox.min[0])) + grow;
    ey = Math.max(ey, 0.5 * (endBox.max[1] - endBox.min[1])) + grow;
    zLow -= grow;
  }
  vis.best = Infinity;
  fp[FP_CX] = cx;
  fp[FP_CY] = cy;
  fp[FP_ZLOW] = zLow;
  fp[FP_EX] = ex;
  fp[FP_EY] = ey;
  vis.lastI = hf.cellsX - 1;
  vis.lastJ = hf.cellsY - 1;
  // Bounding sphere (vis.swept.query: centre, motion, radius): about the pose origin for the
  // centred round shapes (exact) and for any rotating body (the rotation centre), else the
  // world AABB's half diagonal about its centre.
  const Q = vis.swept.query;
  Q[0] = cx;
  Q[1] = cy;
  Q[2] = czBox;
  Q[3] = motion[0];
  Q[4] = motion[1];
  Q[5] = motion[2];
  Q[6] = vis.rotating ? Infinity : Math.sqrt(0.25 * (box.max[0] - box.min[0]) ** 2 + 0.25 * (box.max[1] - box.min[1]) ** 2 + ez * ez);
  let round = shape.kind === ShapeKind.Cylinder ? Math.hypot((shape as CylinderShape).radius, (shape as CylinderShape).halfHeight)
    : shape.kind === ShapeKind.Capsule ? (shape as CapsuleShape).radius + (shape as CapsuleShape).halfHeight
      : shape.kind === ShapeKind.Sphere ? shape.coreRadius : Infinity;
  if (vis.rotating) round = Math.min(round, boundingRadius(shape, vis.toi.localBox));
  if (round < Q[6]) {
    Q[6] = round;
    Q[0] = p[0];
    Q[1] = p[1];
    Q[2] = p[2];
  }
  vis.shape = shape;
  vis.pose = pose;
  vis.motion[0] = motion[0];
  vis.motion[1] = motion[1];
  vis.motion[2] = motion[2];
  vis.out = out;
  const walk = walkFootprint(hf, vis, fp, out.walk);
  vis.shape = vis.prism; // drop the caller's references
  vis.pose = vis.identity;
  if (walk === GridWalkStatus.Truncated) out.truncated = true;
  if (walk === GridWalkStatus.Degenerate) out.status = SweptStatus.Degenerate;
  return out;
}
