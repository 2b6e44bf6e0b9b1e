/**
 * The collision pass of a step: broad phase → narrow phase → this step's contact constraints,
 * with last step's impulses carried over (warm starting).
 *
 * Narrow phase by pair:
 *   cylinder body vs terrain   the paper's analytic algorithm (collideCylinderTerrainInto) on
 *                              the cylinder with its radius grown by the speculative distance S
 *                              (10 mm at rest, growing by two steps of the wheel's motion up to
 *                              SPECULATIVE_DISTANCE; spin about the axle does not count)
 *                              (the Minkowski sum with a disc of radius S across the axis v).
 *                              A side, rim or radial edge point moves by S·w (w ⟂ v, toward the
 *                              plane) from the real one, so the real depth along n is
 *                              depth_S − S·√(1 − (v·n)²) against the element's plane. The
 *                              point the grown line is clipped at may lie where the real one
 *                              is off the element (a steep element's plane extension then read
 *                              as tens of mm deep), so a contact deeper than 0.5 mm after the
 *                              correction sends the wheel through the query again with its real
 *                              radius, whose penetrations replace the grown query's (its
 *                              speculative contacts stay, but not on a feature the exact query
 *                              reports). A base contact (n ∥ v) keeps its depth; if its
 *                              point lies in the grown ring outside the real radius, a face
 *                              contact moves in to the real rim and an edge contact is a gap of
 *                              r_P − r. Growing the half-length too over-corrected
 *                              points clipped inside the lowest line by S·|v·n| (a cambered
 *                              wheel's 1 mm of sinkage read as a 4 mm gap); without the ring
 *                              rule, edges crossing a wheel from base to base made base contacts
 *                              pushing both ways along the axle (a wedged six-wheeled rover).
 *   box or hull vs terrain     collidePolytopeTerrain (polytope-terrain.ts: vertex–face,
 *   (a rock, a chassis:        face–vertex and edge–edge feature pairs in closed form, grouped
 *   bounding radius ≤          by normal and reduced), with a speculative distance from the
 *   POLYTOPE_TERRAIN_MAX_      body's motion (POLYTOPE_SPECULATIVE_MIN + STEPS steps, ≤ S);
 *   CELLS cells)               the general routine when it has more candidates than it holds.
 *   other shape vs terrain     collideShapeHeightfield with margin S (GJK/EPA per element).
 *   body vs body               collideShapes (SAT, capsule routines, GJK/EPA) with a speculative
 *                              distance from both bodies' motion (the terrain's rule, the two
 *                              motions summed, ≤ S): resting neighbours a few mm apart make no
 *                              contacts, so a settled pile's islands are its touching groups.
 * Jointed bodies do not collide with each other, nor do bodies the filter keeps apart (one
 * robot's links unless it collides with itself, disabled pairs: BodyStore.collisionFiltered).
 *
 * Order (deterministic, and what warm-start matching relies on): contacts sorted by pair key
 * (body A, then body B with the terrain first); within a pair in the collision routine's order.
 */
import type { BodyStore } from './bodies';
import { BodyFlag, BodyKind } from './bodies';
import type { ContactStore } from './contacts';
import { BROADPHASE_FAT_MARGIN, LINEAR_SLOP, CONTACTS_PER_BODY, MAX_BODY_PAIRS, POLYTOPE_SPECULATIVE_MIN, POLYTOPE_SPECULATIVE_STEPS, POLYTOPE_TERRAIN_MAX_CELLS, SPECULATIVE_DISTANCE, WARM_START_MATCH_COS, WARM_START_MATCH_DISTANCE } from './constants';
import type { JointStore } from './joints';
import type { MaterialTable } from './materials';
import { Polytope, PolytopeTerrainWorkspace, collidePolytopeTerrainInto, polytopeTerrainClear } from '../collision/polytope-terrain';
import { CONTACT_KIND_BODY_PAIR, CONTACT_KIND_CONVEX_TERRAIN } from './frame-layout';
import { ContactBuffer, WheelContactKind } from '../collision/contact';
import { collideCylinderTerrainInto } from '../collision/cylinder-terrain/collide';
import { CylinderTerrainWorkspace } from '../collision/cylinder-terrain/workspace';
import type { CompoundTerrainClearance } from '../collision/dispatcher';
import { CollideWorkspace, collideShapeHeightfield, collideShapes } from '../collision/dispatcher';
import { BroadPhase } from '../collision/broadphase/broad-phase';
import { BODY_PAIR_SHIFT, bodyPairA, bodyPairB } from '../collision/pair-key';
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { Aabb, Pose, Shape } from '../shapes/shape';
import { ShapeKind, aabb } from '../shapes/shape';
import type { CompoundShape } from '../shapes/compound';
import { shapeWorldAabb } from '../shapes/world-aabb';
import type { Heightfield, MinMax } from '../terrain/heightfield';
import { sortPairKeys, sortPrefix } from '../math/sort-prefix';


/** [m] Smallest speculative distance of a wheel at rest (it grows with the wheel's motion). */
const WHEEL_SPECULATIVE_MIN = 2 * LINEAR_SLOP;
/**
 * [m] A wheel contact of the grown query deeper than this (after its correction) is measured again
 * with the real radius (see terrainContacts). Resting wheels sit 0.1–0.3 mm deep, below it.
 */
const WHEEL_EXACT_CHECK_DEPTH = 0.5e-3;

/** A wheel contact whose normal is within acos(this) of the axis is a base contact (cos 18°). */
const BASE_NORMAL_COS = 0.95;

/** Pair lists up to this long are sorted by comparison (sortPrefix); longer ones by counting (sortPairKeys). */
const SMALL_PAIR_SORT = 64;

/** Contacts one narrow-phase call may produce (a compound against the terrain can make many). */
const PAIR_BUFFER_CAPACITY = 256;

/** Counts of the last pass, for the step-time split and the tests. */
export interface CollideStats {
  pairs: number;
  terrainQueries: number;
  /** Terrain queries of large boxes and hulls skipped as provably clear (polytopeTerrainClear). */
  terrainSkipped: number;
  /** Calls whose output was cut (buffer full) or whose algorithm reported a degraded result. */
  degraded: number;
  /** Closed-form polytope–terrain queries redone by the general routine (too many candidates). */
  polytopeFallbacks: number;
  /** Wheel queries run again with the real radius (a corrected contact past WHEEL_EXACT_CHECK_DEPTH). */
  wheelRemeasured: number;
}

/** [m/s] The fastest any point of body a moves: its centre's speed plus bounding radius × |ω|. */
function motionSpeed(bodies: BodyStore, a: number): number {
  const v = bodies.linVel, w = bodies.angVel;
  return Math.sqrt(v[3 * a] * v[3 * a] + v[3 * a + 1] * v[3 * a + 1] + v[3 * a + 2] * v[3 * a + 2])
    + Math.sqrt(w[3 * a] * w[3 * a] + w[3 * a + 1] * w[3 * a + 1] + w[3 * a + 2] * w[3 * a + 2]) * bodies.boundRadius[a];
}

export class CollisionPass {
  readonly broadPhase = new BroadPhase(BROADPHASE_FAT_MARGIN);
  private readonly proxies: Int32Array;
  /**
   * Per body: its world AABB of the last update (min xyz, max xyz) grown by S/2 on every side
   * (bodyAabb). Bodies that did not move since (asleep, static) keep theirs. A pair whose tight
   * boxes are apart is more than S apart along an axis, so farther than S: the narrow phase
   * (margin S) would return no contact, and it is skipped. (Grown by S and the step's motion,
   * as the broad phase's boxes are, they let through pairs up to 2S + motion apart: in a
   * falling 1,000-box pile 4 of every 5 such calls returned nothing.)
   */
  private readonly tight: Float64Array;
  private readonly buffer = new ContactBuffer(PAIR_BUFFER_CAPACITY);
  /** A wheel's contacts from the real radius, when the grown query's need checking (terrainContacts). */
  private readonly exactBuffer = new ContactBuffer(PAIR_BUFFER_CAPACITY);
  private readonly ws = new CylinderTerrainWorkspace();
  /** Per body: the analytic cylinder inflated by S (null when not a cylinder). */
  private readonly inflated: ({ radius: number; halfHeight: number } | null)[] = [];
  /** Per body: its box or hull as a polytope (null for other shapes). */
  private readonly polytopes: (Polytope | null)[] = [];
  /** Per body: a compound's children as polytopes, to skip those clear of the terrain (null otherwise). */
  private readonly clearance: (CompoundTerrainClearance | null)[] = [];
  /** [m] Real radius of each analytic wheel (its query cylinder is grown by this step's margin). */
  private readonly wheelRadius: Float64Array;
  private readonly polyWs = new PolytopeTerrainWorkspace();
  /** The dispatcher's scratch (body pairs, other shapes against the terrain). */
  private readonly collideWs = new CollideWorkspace();
  private readonly box: Aabb = aabb();
  private readonly range: MinMax = { min: 0, max: 0 };
  private readonly poseA: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  private readonly poseB: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  private readonly axis: Vec3 = [0, 0, 0];
  private pairKeys = new Float64Array(64);
  /** The pairs' lower and higher body indices, and the counting sort's scratch (sort-prefix.ts, sortPairKeys). */
  private pairLo = new Int32Array(64);
  private pairHi = new Int32Array(64);
  private sortLo = new Int32Array(64);
  private sortHi = new Int32Array(64);
  private sortCount: Int32Array;
  /** Matched flags of the previous step's contacts. */
  private taken = new Uint8Array(64);
  /** The pending carried run (carry, flushCarry): prev[carryFrom, carryTo) goes to out from carryOut; −1 when none. */
  private carryFrom = -1;
  private carryTo = -1;
  private carryOut = -1;
  readonly stats: CollideStats = { pairs: 0, terrainQueries: 0, terrainSkipped: 0, degraded: 0, polytopeFallbacks: 0, wheelRemeasured: 0 };
  /**
   * Set by `run` when more than MAX_BODY_PAIRS pairs overlap (no contacts were computed): the
   * most overlapped body and a sentence naming the worst few. The world turns it into a fault.
   */
  overflow: { body: number; reason: string } | null = null;
  /** [s] The step of the current run. */
  private dt = 0;
  /** Measure the broad phase's time (broadMs, [ms] of the last run). */
  timeStages = false;
  broadMs = 0;

  constructor(bodies: BodyStore) {
    this.proxies = new Int32Array(bodies.count);
    this.wheelRadius = new Float64Array(bodies.count);
    this.tight = new Float64Array(6 * bodies.count);
    this.sortCount = new Int32Array(bodies.count + 1);
    for (let b = 0; b < bodies.count; b++) {
      const shape = bodies.shapes[b];
      if (shape === null) {
        // collides with nothing: no proxy
        this.inflated.push(null);
        this.polytopes.push(null);
        this.clearance.push(null);
        this.proxies[b] = -1;
        continue;
      }
      if (bodies.flags[b] & BodyFlag.AnalyticCylinder) {
        const cyl = shape as unknown as { radius: number; height: number };
        this.inflated.push({ radius: cyl.radius + SPECULATIVE_DISTANCE, halfHeight: cyl.height / 2 });
        this.wheelRadius[b] = cyl.radius;
      } else {
        this.inflated.push(null);
      }
      this.polytopes.push(bodies.flags[b] & BodyFlag.AnalyticCylinder ? null : Polytope.of(shape));
      this.clearance.push(shape.kind === ShapeKind.Compound
        ? { polytopes: (shape as CompoundShape).children.map((c) => Polytope.of(c.shape)), ws: this.polyWs, polytopeMaxCells: POLYTOPE_TERRAIN_MAX_CELLS }
        : null);
      this.bodyAabb(bodies, b);
      this.proxies[b] = this.broadPhase.createProxy(this.box, b);
    }
  }

  /**
   * World AABB of body b into this.box, grown by the speculative distance and by its motion over
   * dt (the broad phase's box); its tight box (grown by S/2 only) into this.tight.
   */
  private bodyAabb(bodies: BodyStore, b: number): void {
    const dt = this.dt; // a field, not a float argument (no boxing per call)
    const pose = this.poseA;
    bodies.shapePose(pose.position, pose.orientation as Quat, b);
    shapeWorldAabb(this.box, bodies.shapes[b] as Shape, pose);
    this.storeTight(b);
    const v = bodies.linVel, m = this.box;
    const grow = SPECULATIVE_DISTANCE;
    for (let k = 0; k < 3; k++) {
      const d = v[3 * b + k] * dt;
      m.min[k] -= grow - Math.min(d, 0);
      m.max[k] += grow + Math.max(d, 0);
    }
  }

  /**
   * Runs the pass: `out` receives this step's contacts, impulses matched from `prev`. Bodies
   * that are asleep are only tested against awake ones; a touching contact with an awake body
   * is reported through `wake` (the world wakes the island). Returns false if `out` had to grow.
   */
  run(
    bodies: BodyStore, joints: JointStore, materials: MaterialTable, terrain: Heightfield | null,
    dt: number, prev: ContactStore, out: ContactStore, wake: (body: number) => void,
  ): void {
    const bp = this.broadPhase;
    const stats = this.stats;
    this.dt = dt;
    const tb0 = this.timeStages ? performance.now() : 0;
    stats.pairs = 0;
    stats.terrainQueries = 0;
    stats.terrainSkipped = 0;
    stats.polytopeFallbacks = 0;
    stats.wheelRemeasured = 0;
    stats.degraded = 0;
    for (let b = 0; b < bodies.count; b++) {
      if (bodies.kind[b] === BodyKind.Static || !bodies.awake[b] || this.proxies[b] < 0) continue;
      this.bodyAabb(bodies, b);
      bp.moveProxy(this.proxies[b], this.box);
    }
    bp.updatePairs();
    // body-index pair keys, sorted (proxy ids are tree node ids, not body indices)
    const np = bp.pairCount;
    if (this.pairKeys.length < np) {
      this.pairKeys = new Float64Array(2 * np);
      this.pairLo = new Int32Array(2 * np);
      this.pairHi = new Int32Array(2 * np);
      this.sortLo = new Int32Array(2 * np);
      this.sortHi = new Int32Array(2 * np);
    }
    const pairLo = this.pairLo, pairHi = this.pairHi;
    let nk = 0;
    for (let k = 0; k < np; k++) {
      const a = bp.getUserData(bp.pairProxyA(k)), b = bp.getUserData(bp.pairProxyB(k));
      const lo = a < b ? a : b, hi = a < b ? b : a;
      if (bodies.kind[lo] !== BodyKind.Dynamic && bodies.kind[hi] !== BodyKind.Dynamic) continue;
      if (!bodies.awake[lo] && !bodies.awake[hi]) continue;
      if (joints.connected(lo, hi) || bodies.collisionFiltered(lo, hi)) continue;
      pairLo[nk] = lo;
      pairHi[nk] = hi;
      this.pairKeys[nk++] = lo * BODY_PAIR_SHIFT + (hi + 1); // bodyPairKey(lo, hi), inline: no boxed return
    }
    const keys = this.pairKeys;
    stats.pairs = nk;
    this.overflow = null;
    if (nk > MAX_BODY_PAIRS) {
      this.overflow = describeOverflow(keys, nk, bodies);
      out.count = 0;
      return;
    }
    if (nk <= SMALL_PAIR_SORT) sortPrefix(keys, nk); // in place: no subarray view per step
    else {
      if (this.sortCount.length < bodies.count + 1) this.sortCount = new Int32Array(bodies.count + 1);
      sortPairKeys(keys, pairLo, pairHi, nk, bodies.count, this.sortLo, this.sortHi, this.sortCount);
    }
    this.broadMs = this.timeStages ? performance.now() - tb0 : 0;

    if (this.taken.length < prev.count) this.taken = new Uint8Array(2 * prev.count);
    this.taken.fill(0, 0, prev.count);
    out.count = 0;
    const need = bodies.count * CONTACTS_PER_BODY;
    if (out.capacity < need) out.resize(need);

    // Per body A in index order: its terrain contacts, then its pairs (A, B > A) in B order.
    // A sleeping body keeps last step's contacts (carried, with their impulses) so that a parked
    // robot still shows its contacts and warm-starts when it wakes.
    let kp = 0, cp = 0;
    for (let a = 0; a < bodies.count; a++) {
      const asleep = bodies.kind[a] === BodyKind.Dynamic && !bodies.awake[a];
      // skip carried candidates of earlier bodies
      while (cp < prev.count && prev.key[cp] < a * BODY_PAIR_SHIFT) cp++;
      if (terrain !== null && bodies.kind[a] !== BodyKind.Static && bodies.awake[a] && this.proxies[a] >= 0) {
        this.terrainContacts(bodies, materials, terrain, a, prev, out);
      } else if (asleep) {
        cp = this.carry(prev, out, a, -1, cp);
      }
      while (cp < prev.count && prev.key[cp] === a * BODY_PAIR_SHIFT) cp++;
      for (;;) {
        const fresh = kp < nk && Math.floor(keys[kp] / BODY_PAIR_SHIFT) === a ? keys[kp] : Infinity;
        // a carried pair: both bodies not awake (never computed fresh this step)
        let carried = Infinity;
        while (cp < prev.count && prev.key[cp] < (a + 1) * BODY_PAIR_SHIFT) {
          const b = prev.key[cp] - a * BODY_PAIR_SHIFT - 1;
          if (!bodies.awake[a] && !bodies.awake[b]) {
            carried = prev.key[cp];
            break;
          }
          cp++;
        }
        if (fresh === Infinity && carried === Infinity) break;
        if (fresh <= carried) {
          const b = fresh - a * BODY_PAIR_SHIFT - 1;
          if (this.tightOverlap(a, b)) this.pairContacts(bodies, materials, a, b, prev, out, wake);
          kp++;
          while (cp < prev.count && prev.key[cp] === fresh) cp++;
        } else {
          cp = this.carry(prev, out, a, carried - a * BODY_PAIR_SHIFT - 1, cp);
        }
      }
    }
    this.flushCarry(prev, out);
  }

  /** Stores this.box (body b's world AABB, not yet grown) grown by half the speculative distance as its tight box. */
  private storeTight(b: number): void {
    const t = this.tight, m = this.box, h = 0.5 * SPECULATIVE_DISTANCE;
    t[6 * b] = m.min[0] - h; t[6 * b + 1] = m.min[1] - h; t[6 * b + 2] = m.min[2] - h;
    t[6 * b + 3] = m.max[0] + h; t[6 * b + 4] = m.max[1] + h; t[6 * b + 5] = m.max[2] + h;
  }

  private tightOverlap(a: number, b: number): boolean {
    const t = this.tight, p = 6 * a, q = 6 * b;
    return t[p] <= t[q + 3] && t[q] <= t[p + 3]
      && t[p + 1] <= t[q + 4] && t[q + 1] <= t[p + 4]
      && t[p + 2] <= t[q + 5] && t[q + 2] <= t[p + 5];
  }

  /**
   * Carries the previous step's contacts of pair (a, b) (starting at or after index `from`) into
   * `out`; returns the index past them. Their slots in `out` are taken now, the copy is deferred:
   * runs that follow each other in both stores (a row of sleeping rocks, each with its terrain
   * contacts) are copied as one run by flushCarry, a block copy per field over hundreds of
   * contacts (ContactStore.copyCarried: the world's two stores share their arrays) instead of a
   * loop over a few per call.
   */
  private carry(prev: ContactStore, out: ContactStore, a: number, b: number, from: number): number {
    const key = a * BODY_PAIR_SHIFT + (b + 1); // bodyPairKey(a, b)
    let j0 = from;
    while (j0 < prev.count && prev.key[j0] < key) j0++;
    let j1 = j0;
    while (j1 < prev.count && prev.key[j1] === key) j1++;
    const n = j1 - j0;
    if (n === 0) return j1;
    if (out.count + n > out.capacity) out.resize(Math.max(2 * out.capacity, out.count + n));
    if (this.carryTo !== j0 || this.carryOut + (this.carryTo - this.carryFrom) !== out.count) {
      this.flushCarry(prev, out);
      this.carryFrom = j0;
      this.carryOut = out.count;
    }
    this.carryTo = j1;
    out.count += n;
    return j1;
  }

  /** Copies the pending carried run (prev[carryFrom, carryTo) → out[carryOut, …)) and clears it. */
  private flushCarry(prev: ContactStore, out: ContactStore): void {
    const j0 = this.carryFrom, j1 = this.carryTo, i0 = this.carryOut;
    this.carryFrom = this.carryTo = this.carryOut = -1;
    if (j0 >= 0) out.copyCarried(prev, j0, j1, i0);
  }

  private terrainContacts(bodies: BodyStore, materials: MaterialTable, hf: Heightfield, a: number, prev: ContactStore, out: ContactStore): void {
    const buf = this.buffer;
    buf.clear();
    this.stats.terrainQueries++;
    const pose = this.poseA;
    bodies.shapePose(pose.position, pose.orientation as Quat, a);
    const cyl = this.inflated[a];
    let S = SPECULATIVE_DISTANCE;
    // a compound (a robot's chassis of several parts) the same way
    if (this.clearance[a] !== null) S = this.motionMargin(bodies, a);
    if (cyl !== null) {
      // speculative distance by the wheel's motion (as for rocks): its centre speed, and its
      // rotation across the axle (spin about the axle moves no surface point toward the ground)
      const v = bodies.linVel, w = bodies.angVel, q = pose.orientation;
      const axx = 2 * (q[0] * q[2] + q[1] * q[3]), axy = 2 * (q[1] * q[2] - q[0] * q[3]), axz = 1 - 2 * (q[0] * q[0] + q[1] * q[1]);
      const wx = w[3 * a], wy = w[3 * a + 1], wz = w[3 * a + 2];
      const spin = wx * axx + wy * axy + wz * axz;
      const tumble = Math.sqrt(Math.max(0, wx * wx + wy * wy + wz * wz - spin * spin));
      const speed = Math.sqrt(v[3 * a] * v[3 * a] + v[3 * a + 1] * v[3 * a + 1] + v[3 * a + 2] * v[3 * a + 2]) + tumble * bodies.boundRadius[a];
      S = Math.min(SPECULATIVE_DISTANCE, WHEEL_SPECULATIVE_MIN + POLYTOPE_SPECULATIVE_STEPS * speed * this.dt);
      cyl.radius = this.wheelRadius[a] + S;
    }
    if (cyl !== null) {
      const q = pose.orientation;
      // cylinder axis = local z rotated
      const ax = this.axis;
      ax[0] = 2 * (q[0] * q[2] + q[1] * q[3]);
      ax[1] = 2 * (q[1] * q[2] - q[0] * q[3]);
      ax[2] = 1 - 2 * (q[0] * q[0] + q[1] * q[1]);
      const status = collideCylinderTerrainInto(buf, pose.position, ax, cyl, hf, this.ws);
      if (status !== 0) this.stats.degraded++;
      for (let k = 0; k < buf.count; k++) {
        const c = ax[0] * buf.normal[3 * k] + ax[1] * buf.normal[3 * k + 1] + ax[2] * buf.normal[3 * k + 2];
        buf.depth[k] -= S * Math.sqrt(Math.max(0, 1 - c * c));
        if (Math.abs(c) > BASE_NORMAL_COS) {
          // A base contact (normal along the axis) whose point lies in the grown ring, outside
          // the real radius: a face contact (flat patch, case A) is the real base's rim at the same
          // depth, so its point moves in to the real radius; an edge poking there (the edge pass)
          // touches nothing yet: a gap of r_P − r.
          const px = buf.point[3 * k] - pose.position[0], py = buf.point[3 * k + 1] - pose.position[1], pz = buf.point[3 * k + 2] - pose.position[2];
          const along = px * ax[0] + py * ax[1] + pz * ax[2];
          const rx = px - along * ax[0], ry = py - along * ax[1], rz = pz - along * ax[2];
          const radial = Math.sqrt(rx * rx + ry * ry + rz * rz);
          const real = cyl.radius - S;
          if (radial > real) {
            if (buf.kind[k] === WheelContactKind.EdgeVertex) {
              if (buf.depth[k] > real - radial) buf.depth[k] = real - radial;
            } else {
              const f = (radial - real) / radial;
              buf.point[3 * k] -= f * rx;
              buf.point[3 * k + 1] -= f * ry;
              buf.point[3 * k + 2] -= f * rz;
            }
          }
        }
      }
      this.remeasurePenetrations(buf, pose.position, ax, cyl, S, hf);
    } else if (this.polytopes[a] !== null && bodies.boundRadius[a] <= POLYTOPE_TERRAIN_MAX_CELLS * Math.min(hf.dx, hf.dy)) {
      // speculative distance by the body's motion: a contact farther than the body can travel
      // in a step never acts, and a resting rock would otherwise carry a dozen of them
      this.polyWs.margin = this.motionMargin(bodies, a);
      let status = collidePolytopeTerrainInto(buf, this.polytopes[a]!, pose.position, pose.orientation, hf, this.polyWs);
      if (this.polyWs.cand.overflow > 0) {
        // more candidates than the workspace holds (a large box lying flat on a fine grid): the
        // general routine, whose reduction bounds its work per cell
        buf.clear();
        status = collideShapeHeightfield(buf, bodies.shapes[a] as Shape, pose, hf, S, this.collideWs, null);
        this.stats.polytopeFallbacks++;
      }
      if (status !== 0) this.stats.degraded++;
      for (let k = 0; k < buf.count; k++) buf.kind[k] = CONTACT_KIND_CONVEX_TERRAIN;
    } else if (this.aboveTerrain(hf, a, S)) {
      // the whole body (a compound's every part) higher than S above the highest terrain under
      // its box: nothing the general routine could return (a mast, an arm, a chassis in the air)
      this.stats.terrainSkipped++;
    } else if (this.polytopes[a] === null || !polytopeTerrainClear(this.polytopes[a]!, pose.position, pose.orientation, hf, S, this.polyWs)) {
      // (a large box or hull provably farther than S from the terrain, e.g. a chassis over
      // its wheels, skips the general routine: it would return nothing; so does each such
      // child of a compound)
      const status = collideShapeHeightfield(buf, bodies.shapes[a] as Shape, pose, hf, S, this.collideWs, this.clearance[a]);
      if (status !== 0) this.stats.degraded++;
      for (let k = 0; k < buf.count; k++) buf.kind[k] = CONTACT_KIND_CONVEX_TERRAIN;
    } else {
      this.stats.terrainSkipped++;
    }
    this.emit(bodies, materials, a, -1, prev, out, true);
  }

  /**
   * The correction above is exact against an element's plane, but the grown cylinder's lowest line
   * is clipped to the element where the real one may not reach it: the real point lies S·w away,
   * across the element's border, and on a steep element the plane's extension there reads as a
   * penetration that is not there (the independent bench builds, 10 s: up to 56 mm where the exact
   * query finds none; a phantom deeper than 5 mm in a quarter of `ds-boxes`' wheel-steps at 1/240).
   * So when any corrected contact is deeper than WHEEL_EXACT_CHECK_DEPTH, the penetrations are
   * taken from the query with the real radius instead; the grown query's speculative contacts
   * (depth ≤ 0) stay, except on a terrain feature the exact query reports.
   */
  private remeasurePenetrations(buf: ContactBuffer, position: Vec3, ax: Vec3, cyl: { radius: number; halfHeight: number }, S: number, hf: Heightfield): void {
    let deepest = -Infinity;
    for (let k = 0; k < buf.count; k++) if (buf.depth[k] > deepest) deepest = buf.depth[k];
    if (deepest <= WHEEL_EXACT_CHECK_DEPTH) return;
    this.stats.wheelRemeasured++;
    const exact = this.exactBuffer;
    exact.clear();
    const grown = cyl.radius;
    cyl.radius = grown - S;
    const status = collideCylinderTerrainInto(exact, position, ax, cyl, hf, this.ws);
    cyl.radius = grown;
    if (status !== 0) this.stats.degraded++;
    // keep the speculative ones, less any on a terrain feature the exact query reports (there the
    // real radius's contact speaks for it; the grown one may under-read it)
    let n = 0;
    for (let k = 0; k < buf.count; k++) {
      if (buf.depth[k] > 0 || sameFeatureIn(exact, buf, k)) continue;
      buf.move(n++, k);
    }
    buf.count = n;
    for (let k = 0; k < exact.count; k++) {
      const i = buf.reserve();
      if (i < 0) break;
      buf.copyFrom(i, exact, k);
    }
  }

  /**
   * Whether body a's world box (this step's tight box less its S/2 growth) lies more than `S`
   * above the highest terrain vertex under it, the footprint grown by S: then no point of the
   * body is within S of the terrain. One min/max-pyramid query (Heightfield.cellRangeMinMax)
   * instead of transforming every vertex of every part. Off the grid counts as clear (no
   * terrain there); a non-finite box is not clear.
   */
  private aboveTerrain(hf: Heightfield, a: number, S: number): boolean {
    const t = this.tight, p = 6 * a, g = 0.5 * SPECULATIVE_DISTANCE;
    const minX = t[p] + g - S, minY = t[p + 1] + g - S, minZ = t[p + 2] + g - S, maxX = t[p + 3] - g + S, maxY = t[p + 4] - g + S;
    if (!Number.isFinite(minX + minY + minZ + maxX + maxY)) return false;
    const i0 = Math.floor((minX - hf.x0) / hf.dx), i1 = Math.floor((maxX - hf.x0) / hf.dx);
    const j0 = Math.floor((minY - hf.y0) / hf.dy), j1 = Math.floor((maxY - hf.y0) / hf.dy);
    const r = hf.cellRangeMinMax(this.range, i0, j0, i1, j1);
    return minZ > r.max; // an empty (off-grid) range has max −∞
  }

  /**
   * [m] Speculative distance of body a against the terrain by its motion: POLYTOPE_SPECULATIVE_MIN
   * plus POLYTOPE_SPECULATIVE_STEPS steps of its centre speed and bounding radius × |ω|, at most
   * SPECULATIVE_DISTANCE (a contact farther than the body can travel in a step never acts).
   */
  private motionMargin(bodies: BodyStore, a: number): number {
    return Math.min(SPECULATIVE_DISTANCE, POLYTOPE_SPECULATIVE_MIN + POLYTOPE_SPECULATIVE_STEPS * motionSpeed(bodies, a) * this.dt);
  }

  private pairContacts(
    bodies: BodyStore, materials: MaterialTable, a: number, b: number, prev: ContactStore, out: ContactStore,
    wake: (body: number) => void,
  ): void {
    const buf = this.buffer;
    buf.clear();
    bodies.shapePose(this.poseA.position, this.poseA.orientation as Quat, a);
    bodies.shapePose(this.poseB.position, this.poseB.orientation as Quat, b);
    // the pair's speculative distance by the two bodies' motion (motionMargin's rule): the gap
    // closes by at most the sum of their motions in a step
    const margin = Math.min(SPECULATIVE_DISTANCE, POLYTOPE_SPECULATIVE_MIN + POLYTOPE_SPECULATIVE_STEPS * (motionSpeed(bodies, a) + motionSpeed(bodies, b)) * this.dt);
    const status = collideShapes(buf, bodies.shapes[a] as Shape, this.poseA, bodies.shapes[b] as Shape, this.poseB, margin, this.collideWs);
    if (status !== 0) this.stats.degraded++;
    let touching = false;
    for (let k = 0; k < buf.count; k++) {
      buf.kind[k] = CONTACT_KIND_BODY_PAIR;
      buf.cellI[k] = -1;
      buf.cellJ[k] = -1;
      if (buf.depth[k] >= 0) touching = true;
    }
    if (touching) {
      // an awake body touching a sleeping one wakes it (and its island)
      if (!bodies.awake[a] && bodies.kind[a] === BodyKind.Dynamic) wake(a);
      if (!bodies.awake[b] && bodies.kind[b] === BodyKind.Dynamic) wake(b);
    }
    this.emit(bodies, materials, a, b, prev, out, false);
  }

  /** Copies the buffer's contacts into `out` as pair (a, b), with materials and warm-start impulses. */
  private emit(bodies: BodyStore, materials: MaterialTable, a: number, b: number, prev: ContactStore, out: ContactStore, terrain: boolean): void {
    const buf = this.buffer;
    const key = a * BODY_PAIR_SHIFT + (b + 1); // bodyPairKey(a, b)
    const slotB = b < 0 ? bodies.count : b;
    // first previous contact of the same pair (binary search on the sorted keys)
    let lo = 0, hi = prev.count;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (prev.key[m] < key) lo = m + 1;
      else hi = m;
    }
    const prevStart = lo;
    const matA = bodies.material[a];
    for (let k = 0; k < buf.count; k++) {
      if (buf.depth[k] < -SPECULATIVE_DISTANCE) continue;
      if (out.count >= out.capacity) out.resize(2 * out.capacity);
      const i = out.count++;
      const p = 3 * i, q = 3 * k;
      out.source[i] = -1;
      out.bodyA[i] = a;
      out.bodyB[i] = b;
      out.slotB[i] = slotB;
      out.key[i] = key;
      out.kind[i] = buf.kind[k];
      out.cellI[i] = buf.cellI[k];
      out.cellJ[i] = buf.cellJ[k];
      out.feature[i] = buf.feature[k];
      out.point[p] = buf.point[q]; out.point[p + 1] = buf.point[q + 1]; out.point[p + 2] = buf.point[q + 2];
      out.normal[p] = buf.normal[q]; out.normal[p + 1] = buf.normal[q + 1]; out.normal[p + 2] = buf.normal[q + 2];
      out.depth[i] = buf.depth[k];
      const matB = terrain ? materials.terrainAt(buf.point[q], buf.point[q + 1]) : bodies.material[b];
      out.friction[i] = Math.sqrt(materials.friction[matA] * materials.friction[matB]);
      out.restitution[i] = Math.max(materials.restitution[matA], materials.restitution[matB]);
      out.rolling[i] = Math.max(materials.rolling[matA], materials.rolling[matB]);
      // warm start: nearest unmatched previous contact of the pair, close and with a similar normal
      let best = -1, bestD2 = WARM_START_MATCH_DISTANCE * WARM_START_MATCH_DISTANCE;
      for (let j = prevStart; j < prev.count && prev.key[j] === key; j++) {
        if (this.taken[j]) continue;
        const r = 3 * j;
        const cos = prev.normal[r] * buf.normal[q] + prev.normal[r + 1] * buf.normal[q + 1] + prev.normal[r + 2] * buf.normal[q + 2];
        if (cos < WARM_START_MATCH_COS) continue;
        const dx = prev.point[r] - buf.point[q], dy = prev.point[r + 1] - buf.point[q + 1], dz = prev.point[r + 2] - buf.point[q + 2];
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < bestD2) {
          bestD2 = d2;
          best = j;
        }
      }
      if (best >= 0) {
        this.taken[best] = 1;
        out.normalImpulse[i] = prev.normalImpulse[best];
        out.t1Impulse[i] = prev.t1Impulse[best];
        out.t2Impulse[i] = prev.t2Impulse[best];
        out.r1Impulse[i] = prev.r1Impulse[best];
        out.r2Impulse[i] = prev.r2Impulse[best];
      } else {
        out.normalImpulse[i] = 0;
        out.t1Impulse[i] = 0;
        out.t2Impulse[i] = 0;
        out.r1Impulse[i] = 0;
        out.r2Impulse[i] = 0;
      }
    }
  }
}

/** The overflow report: pair count, the limit, the five bodies in the most pairs (a failure path: it may allocate). */
function describeOverflow(keys: Float64Array, nk: number, bodies: BodyStore): { body: number; reason: string } {
  const per = new Int32Array(bodies.count);
  for (let k = 0; k < nk; k++) {
    per[bodyPairA(keys[k])]++;
    per[bodyPairB(keys[k])]++;
  }
  const order = Array.from(per.keys()).filter((b) => per[b] > 0).sort((a, b) => per[b] - per[a] || a - b).slice(0, 5);
  const worst = order.map((b) => `"${bodies.names[b]}" (${per[b]} pairs)`).join(', ');
  return {
    body: order[0] ?? 0,
    reason: `${nk} body pairs overlap at step STEP, over the limit of ${MAX_BODY_PAIRS} (MAX_BODY_PAIRS): the start state or the step is a pile of bodies inside each other that cannot be solved in reasonable time; most overlapped: ${worst}`,
  };
}

/** Whether `list` holds a contact on contact k of `of`'s terrain cell and feature. */
function sameFeatureIn(list: ContactBuffer, of: ContactBuffer, k: number): boolean {
  const i = of.cellI[k], j = of.cellJ[k], f = of.feature[k];
  for (let m = 0; m < list.count; m++) if (list.cellI[m] === i && list.cellJ[m] === j && list.feature[m] === f) return true;
  return false;
}
