/**
 * Continuous collision in the stepper: nothing fast passes through the terrain or a static body.
 *
 * Choice (argued in docs/design.md and docs/benchmarks.md with measurements): time-of-impact clamping after the solve, in
 * the manner of Box2D v3's continuous pass, on top of the speculative contacts every body has.
 * Speculative contacts (SPECULATIVE_DISTANCE) already stop anything that moves less than that
 * per step; a body that moves more than CCD_MOTION_FRACTION of its smallest extent in one step
 * (or has `ccd: true`) is cast from its start-of-step pose along the step's motion against the
 * terrain (grid walk over the heightfield, heightfield-cast/) and against the static bodies its
 * swept box meets (GJK shape cast, or conservative advancement when it rotates). At a hit the
 * body is put back at the time of impact and its velocity along the hit normal is resolved
 * (−e·v_n); the next step finds the contact there and the solver does the rest. Fast body–body pairs between dynamic bodies are left to
 * the speculative contacts (their relative motion is what matters, and a thrown rock hitting the
 * rover is caught by the rover's fattened box); docs/design.md says so.
 *
 * Casting the real shape would report "initially overlapping" for every resting or rolling body
 * (its contacts are a fraction of a millimetre deep), so each body casts a *core*: its shape
 * shrunk by a skin (CCD_SKIN, at most a quarter of its smallest extent). A core's hit means the
 * real shape is at most the skin deep, which the next step's contact pushes out.
 */
import type { BodyStore } from './bodies';
import { BodyKind } from './bodies';
import { CCD_MOTION_FRACTION, CCD_NEGLIGIBLE_ROTATION_SQ, CCD_SKIN, CCD_SMALL_ANGLE_SIN } from './constants';
import type { MaterialTable } from './materials';
import type { ShapeSpec } from './spec';
import { BroadPhase } from '../collision/broadphase/broad-phase';
import { NodeList } from '../collision/broadphase/dynamic-tree';
import { CastResult, CastStatus } from '../collision/gjk-raycast';
import { ConvexCastWorkspace, castConvexHeightfield } from '../collision/heightfield-cast/convex-cast';
import { TerrainCastResult } from '../collision/heightfield-cast/terrain-cast-result';
import { SweptStatus } from '../collision/swept/swept-sphere';
import { TimeOfImpactWorkspace, sweptAabb, timeOfImpact, type RigidMotion } from '../collision/swept/time-of-impact';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { shapeFromDesc } from '../shapes/shape-desc';
import type { Aabb, ConvexShape, Pose, Shape } from '../shapes/shape';
import { ShapeKind, aabb } from '../shapes/shape';
import { shapeWorldAabb } from '../shapes/world-aabb';
import type { Heightfield } from '../terrain/heightfield';

/** The core of a convex shape spec, shrunk by `skin` [m]; null when it has no usable core. */
export function coreShape(spec: ShapeSpec, skin: number): ConvexShape | null {
  switch (spec.type) {
    case 'sphere':
      return spec.radius > skin ? shapeFromDesc({ type: 'sphere', radius: spec.radius - skin }) : null;
    case 'capsule':
      return spec.radius > skin ? shapeFromDesc({ type: 'capsule', radius: spec.radius - skin, height: spec.height }) : null;
    case 'cylinder':
      return spec.radius > skin && spec.height > 2 * skin ? shapeFromDesc({ type: 'cylinder', radius: spec.radius - skin, height: spec.height - 2 * skin }) : null;
    case 'box': {
      const h = spec.halfExtents;
      return Math.min(h[0], h[1], h[2]) > skin ? shapeFromDesc({ type: 'box', halfExtents: [h[0] - skin, h[1] - skin, h[2] - skin] }) : null;
    }
    case 'hull': {
      // scaled toward the centroid of the points so that its smallest half-width shrinks by ≥ skin
      const n = spec.points.length;
      const c = [0, 0, 0];
      for (const p of spec.points) for (let k = 0; k < 3; k++) c[k] += p[k] / n;
      let half = Infinity;
      for (let k = 0; k < 3; k++) {
        let lo = Infinity, hi = -Infinity;
        for (const p of spec.points) {
          lo = Math.min(lo, p[k] - c[k]);
          hi = Math.max(hi, p[k] - c[k]);
        }
        half = Math.min(half, -lo, hi);
      }
      if (!(half > 2 * skin)) return null;
      const f = 1 - skin / half;
      try {
        return shapeFromDesc({ type: 'hull', points: spec.points.map((p) => [c[0] + f * (p[0] - c[0]), c[1] + f * (p[1] - c[1]), c[2] + f * (p[2] - c[2])] as [number, number, number]) });
      } catch {
        return null;
      }
    }
    case 'compound':
      return null;
  }
}

/** Counts of the last pass. */
export interface CcdStats {
  /** Bodies that moved fast enough to be cast. */
  cast: number;
  /** Bodies put back at a time of impact. */
  clamped: number;
}

export class ContinuousPass {
  /** Per body: its core in the mass frame (same offset as the shape), or null (no CCD). */
  private readonly cores: (ConvexShape | null)[];
  /**
   * Per body: a sphere of a quarter of its smallest extent about its centre of mass, the second
   * chance when the core starts the step already overlapping (a tumbling box's corner dug in):
   * if even this inner sphere would cross the surface, the body is tunnelling.
   */
  private readonly inner: (ConvexShape | null)[];
  private readonly statics = new BroadPhase(0);
  private readonly hits = new NodeList();
  private readonly terrainHit = new TerrainCastResult();
  /** Scratch of the terrain casts (this world's own). */
  private readonly terrainCastWs = new ConvexCastWorkspace();
  private readonly pairHit = new CastResult();
  /** The body–static time-of-impact queries' scratch (sweptAabb, timeOfImpact). */
  private readonly toiWs = new TimeOfImpactWorkspace();
  private readonly pose0: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  private readonly staticPose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  private readonly motion: RigidMotion = { linear: [0, 0, 0], angular: [0, 0, 0] };
  private readonly still: RigidMotion = { linear: [0, 0, 0], angular: [0, 0, 0] };
  private readonly box: Aabb = aabb();
  private readonly p1: Vec3 = [0, 0, 0];
  private readonly q1: Quat = [0, 0, 0, 1];
  private readonly hitNormal: Vec3 = [0, 0, 1];
  private readonly centre0: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  private readonly centreMotion: Vec3 = [0, 0, 0];
  readonly stats: CcdStats = { cast: 0, clamped: 0 };

  constructor(bodies: BodyStore, shapeSpecs: readonly ShapeSpec[]) {
    this.cores = shapeSpecs.map((s, b) => {
      if (bodies.kind[b] !== BodyKind.Dynamic || bodies.shapes[b] === null) return null;
      const skin = Math.min(CCD_SKIN, 0.25 * bodies.minExtent[b]);
      return coreShape(s, skin);
    });
    this.inner = this.cores.map((c, b) => (c === null ? null : shapeFromDesc({ type: 'sphere', radius: 0.25 * bodies.minExtent[b] })));
    // static bodies that can be hit: their exact world boxes in a tree of their own
    for (let b = 0; b < bodies.count; b++) {
      const shape = bodies.shapes[b];
      if (bodies.kind[b] !== BodyKind.Static || shape === null || shape.kind === ShapeKind.Compound) continue;
      bodies.shapePose(this.staticPose.position, this.staticPose.orientation as Quat, b);
      shapeWorldAabb(this.box, shape, this.staticPose);
      this.statics.createProxy(this.box, b);
    }
  }

  /**
   * After the solve: casts every fast body from its start-of-step pose (bodies.pos0/rot0) to its
   * end pose and puts it back at the first time of impact with the terrain or a static body.
   */
  run(bodies: BodyStore, materials: MaterialTable, terrain: Heightfield | null, force: boolean): void {
    this.stats.cast = 0;
    this.stats.clamped = 0;
    for (let b = 0; b < bodies.count; b++) {
      const core = this.cores[b];
      if (core === null || !bodies.awake[b]) continue;
      const dx = bodies.pos[3 * b] - bodies.pos0[3 * b];
      const dy = bodies.pos[3 * b + 1] - bodies.pos0[3 * b + 1];
      const dz = bodies.pos[3 * b + 2] - bodies.pos0[3 * b + 2];
      this.rotationVector(bodies, b);
      const ang = this.motion.angular;
      const theta = Math.sqrt(ang[0] * ang[0] + ang[1] * ang[1] + ang[2] * ang[2]);
      const travel = Math.sqrt(dx * dx + dy * dy + dz * dz) + theta * bodies.boundRadius[b];
      if (!(force || (bodies.flags[b] & 1)) && !(travel > CCD_MOTION_FRACTION * bodies.minExtent[b])) continue;
      this.stats.cast++;
      // start pose of the core (mass frame + the shape's offset, at pos0/rot0) and its motion
      this.startPose(bodies, b);
      bodies.shapePose(this.p1, this.q1, b);
      const lin = this.motion.linear;
      lin[0] = this.p1[0] - this.pose0.position[0];
      lin[1] = this.p1[1] - this.pose0.position[1];
      lin[2] = this.p1[2] - this.pose0.position[2];
      // spin about a round shape's axis of symmetry does not move its surface: cast without it
      if (core.kind === ShapeKind.Sphere) ang[0] = ang[1] = ang[2] = 0;
      else if (core.kind === ShapeKind.Cylinder || core.kind === ShapeKind.Capsule) {
        const q = this.q1;
        const axx = 2 * (q[0] * q[2] + q[1] * q[3]), axy = 2 * (q[1] * q[2] - q[0] * q[3]), axz = 1 - 2 * (q[0] * q[0] + q[1] * q[1]);
        const along = ang[0] * axx + ang[1] * axy + ang[2] * axz;
        ang[0] -= along * axx;
        ang[1] -= along * axy;
        ang[2] -= along * axz;
        if (ang[0] * ang[0] + ang[1] * ang[1] + ang[2] * ang[2] < CCD_NEGLIGIBLE_ROTATION_SQ) ang[0] = ang[1] = ang[2] = 0;
      }
      let toi = 1;
      const n = this.hitNormal;
      let restitution = 0;
      if (terrain !== null) {
        const rotating = ang[0] !== 0 || ang[1] !== 0 || ang[2] !== 0;
        castConvexHeightfield(this.terrainHit, terrain, core, this.pose0, lin, this.terrainCastWs, rotating ? ang : undefined);
        if (this.terrainHit.status === SweptStatus.Hit && this.terrainHit.toi < toi) {
          toi = this.terrainHit.toi;
          n[0] = this.terrainHit.normal[0]; n[1] = this.terrainHit.normal[1]; n[2] = this.terrainHit.normal[2];
          const m = materials.terrainAt(this.terrainHit.point[0], this.terrainHit.point[1]);
          restitution = Math.max(materials.restitution[bodies.material[b]], materials.restitution[m]);
        }
      }
      if (terrain !== null && this.terrainHit.status === SweptStatus.InitiallyOverlapping) {
        // the core starts inside: cast the inner sphere from the centre of mass instead
        const sphere = this.inner[b] as ConvexShape;
        const c0 = this.centre0;
        c0.position[0] = bodies.pos0[3 * b]; c0.position[1] = bodies.pos0[3 * b + 1]; c0.position[2] = bodies.pos0[3 * b + 2];
        this.centreMotion[0] = dx; this.centreMotion[1] = dy; this.centreMotion[2] = dz;
        const second = castConvexHeightfield(this.terrainHit, terrain, sphere, c0, this.centreMotion, this.terrainCastWs);
        if (second.status === SweptStatus.Hit && second.toi < toi) {
          toi = this.terrainHit.toi;
          n[0] = this.terrainHit.normal[0]; n[1] = this.terrainHit.normal[1]; n[2] = this.terrainHit.normal[2];
          const m = materials.terrainAt(this.terrainHit.point[0], this.terrainHit.point[1]);
          restitution = Math.max(materials.restitution[bodies.material[b]], materials.restitution[m]);
        }
      }
      if (this.statics.proxyCount > 0) {
        sweptAabb(this.box, core, this.pose0, this.motion, this.toiWs);
        this.hits.clear();
        this.statics.queryAabb(this.box, this.hits);
        for (let k = 0; k < this.hits.count; k++) {
          const s = this.statics.getUserData(this.hits.items[k]);
          bodies.shapePose(this.staticPose.position, this.staticPose.orientation as Quat, s);
          timeOfImpact(this.pairHit, core, this.pose0, this.motion, bodies.shapes[s] as ConvexShape, this.staticPose, this.still, this.toiWs);
          // a cast out of iterations still gives a safe lower bound
          const hit = this.pairHit.status === CastStatus.Hit || this.pairHit.status === CastStatus.MaxIterations;
          if (hit && this.pairHit.fraction < toi) {
            toi = this.pairHit.fraction;
            // the cast's normal points from the moving core (A) to the static body (B)
            n[0] = -this.pairHit.normal[0]; n[1] = -this.pairHit.normal[1]; n[2] = -this.pairHit.normal[2];
            restitution = Math.max(materials.restitution[bodies.material[b]], materials.restitution[bodies.material[s]]);
          }
        }
      }
      if (toi < 1) {
        // The core touches at toi, so the shape is `skin` deep there. Back off by the skin along
        // the motion: head-on, the shape then just touches (a speculative contact next step,
        // which stops the approach rigidly); at a grazing angle it is at most skin·(1 − sin θ)
        // deep with an approach speed of only v·sin θ, which the soft contact absorbs.
        const travelLin = Math.sqrt(lin[0] * lin[0] + lin[1] * lin[1] + lin[2] * lin[2]);
        const skin = Math.min(CCD_SKIN, 0.25 * bodies.minExtent[b]);
        const back = travelLin > 0 ? skin / travelLin : 0;
        this.clamp(bodies, b, Math.max(0, toi - back));
        // Resolve the approach at the impact, as a contact impulse would: the normal velocity of
        // the centre becomes −e·v_n (e: the pair's restitution). Without this, a body arriving at
        // hundreds of m/s sinks through the soft contact of the next step by several centimetres
        // and its core starts the following cast already overlapping.
        const v = bodies.linVel;
        const vn = v[3 * b] * n[0] + v[3 * b + 1] * n[1] + v[3 * b + 2] * n[2];
        if (vn < 0) {
          const dv = -(1 + restitution) * vn;
          v[3 * b] += dv * n[0];
          v[3 * b + 1] += dv * n[1];
          v[3 * b + 2] += dv * n[2];
        }
        this.stats.clamped++;
      }
    }
  }

  /** Rotation vector of rot·rot0⁻¹ into this.motion.angular. */
  private rotationVector(bodies: BodyStore, b: number): void {
    const r = bodies.rot, r0 = bodies.rot0, q = 4 * b;
    const ax = r[q], ay = r[q + 1], az = r[q + 2], aw = r[q + 3];
    const bx = -r0[q], by = -r0[q + 1], bz = -r0[q + 2], bw = r0[q + 3];
    let x = aw * bx + ax * bw + ay * bz - az * by;
    let y = aw * by - ax * bz + ay * bw + az * bx;
    let z = aw * bz + ax * by - ay * bx + az * bw;
    let w = aw * bw - ax * bx - ay * by - az * bz;
    if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
    const s = Math.sqrt(x * x + y * y + z * z);
    const angle = 2 * Math.atan2(s, w);
    const f = s > CCD_SMALL_ANGLE_SIN ? angle / s : 2;
    const out = this.motion.angular;
    out[0] = x * f;
    out[1] = y * f;
    out[2] = z * f;
  }

  /** The shape's pose at the start of the step (pos0, rot0 and the shape offset). */
  private startPose(bodies: BodyStore, b: number): void {
    const r0 = bodies.rot0, q = 4 * b;
    const qx = r0[q], qy = r0[q + 1], qz = r0[q + 2], qw = r0[q + 3];
    const ox = bodies.shapeOffsetPos[3 * b], oy = bodies.shapeOffsetPos[3 * b + 1], oz = bodies.shapeOffsetPos[3 * b + 2];
    const tx = 2 * (qy * oz - qz * oy), ty = 2 * (qz * ox - qx * oz), tz = 2 * (qx * oy - qy * ox);
    const p = this.pose0.position;
    p[0] = bodies.pos0[3 * b] + ox + qw * tx + (qy * tz - qz * ty);
    p[1] = bodies.pos0[3 * b + 1] + oy + qw * ty + (qz * tx - qx * tz);
    p[2] = bodies.pos0[3 * b + 2] + oz + qw * tz + (qx * ty - qy * tx);
    const s = bodies.shapeOffsetRot;
    const bx = s[q], by = s[q + 1], bz = s[q + 2], bw = s[q + 3];
    const o = this.pose0.orientation;
    o[0] = qw * bx + qx * bw + qy * bz - qz * by;
    o[1] = qw * by - qx * bz + qy * bw + qz * bx;
    o[2] = qw * bz + qx * by - qy * bx + qz * bw;
    o[3] = qw * bw - qx * bx - qy * by - qz * bz;
  }

  /** Puts body b at fraction t of its step's motion (position linear, orientation normalised lerp). */
  private clamp(bodies: BodyStore, b: number, t: number): void {
    for (let k = 0; k < 3; k++) bodies.pos[3 * b + k] = bodies.pos0[3 * b + k] + t * (bodies.pos[3 * b + k] - bodies.pos0[3 * b + k]);
    const q = 4 * b, r = bodies.rot, r0 = bodies.rot0;
    const dot = r[q] * r0[q] + r[q + 1] * r0[q + 1] + r[q + 2] * r0[q + 2] + r[q + 3] * r0[q + 3];
    const sgn = dot < 0 ? -1 : 1;
    let len = 0;
    for (let k = 0; k < 4; k++) {
      r[q + k] = (1 - t) * r0[q + k] + t * sgn * r[q + k];
      len += r[q + k] * r[q + k];
    }
    len = 1 / Math.sqrt(len);
    for (let k = 0; k < 4; k++) r[q + k] *= len;
    bodies.updateInertia(b);
  }
}

/** Shape of a body, for callers that need to know whether it is a compound. */
export function isCompound(shape: Shape | null): boolean {
  return shape !== null && shape.kind === ShapeKind.Compound;
}
