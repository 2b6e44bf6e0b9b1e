/**
 * Second cross-engine oracle: queryConvex against Jolt Physics (wasm, float32) on seeded random
 * pairs of boxes, hulls, cylinders, capsules and spheres (the generator of convex-pairs.ts).
 *
 * Why a second peer: Rapier's contactShape distance is loose for curved shapes (see
 * convex-rapier.test.ts), so that oracle compares distances one-sidedly. Jolt's GJK closest
 * points (CollideShape with mMaxSeparationDistance) converge to its collision tolerance, which we
 * set to 1e-6 m, so here distance, depth and normal are compared TWO-sidedly.
 *
 * Jolt setup, per pair (two passes, see JoltOracle.query): shape A is passed to TransformedShape.CollideShape at its centre-of-mass
 * transform (Jolt places shapes by centre of mass; a hull's is not its origin); shape B sits on a
 * static body whose shape is swapped with BodyInterface.SetShape and whose TransformedShape is
 * moved with SetWorldTransform. Convex radius 0 everywhere (exact boxes, hulls and cylinders; a
 * non-zero radius rounds Jolt's edges), hull tolerance 1e-6 m (Jolt's default 1 mm would drop
 * points), and Jolt's cylinder and capsule axis is local y like Rapier's (turned to our z).
 * Jolt reports the penetration axis from A to B and depth > 0 overlapping, < 0 apart.
 *
 * Tolerances (unit-scale shapes, float32 peer):
 *   TOUCH_BAND 1e-4 m        intersecting may differ this close to touching.
 *   DISTANCE_TOL 1e-4 m      |ours − Jolt| on separated pairs. Measured worst 6.6e-6 m (two
 *                            cylinders; 3e-7 m for polytopes): float32 GJK with tolerance 1e-6.
 *   DEPTH_TOL 2e-4 m + 1e-3 · depth   |ours − Jolt| on overlapping pairs (float32 EPA).
 *   NORMAL_ANGLE_TOL 0.5°    where |distance| > 1 mm; a larger angle passes only as a tie
 *                            certified by the support functions (p(n) = h_A(n) + h_B(−n) along our
 *                            normal equals our depth, along Jolt's it is not smaller).
 * When the depths differ beyond tolerance, the support functions decide who is right: if p along
 * Jolt's normal is below our depth, Jolt found a shallower valid translation and we fail; if not,
 * Jolt's answer is invalid (counted as joltInvalid, printed). Measured: 5 of 10,000, all deep
 * sphere overlaps (sphere vs box, sphere vs cylinder) where Jolt's depth is up to 0.58 m off and
 * moving by it along its normal does not separate the shapes.
 */

import initJolt from 'jolt-physics/wasm-compat';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryConvex } from '../../sim/collision/query-convex';
import type { Quat } from '../../sim/math/quat';
import { quatMultiply, quatRotate } from '../../sim/math/quat';
import { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import { angle, boundingRadius, KINDS, projectedOverlap, randomPair } from './convex-pairs';
import type { Placed, ShapeDesc } from './convex-pairs';

const PAIRS = 10_000;
const TOUCH_BAND = 1e-4;
const DISTANCE_TOL = 1e-4;
const DEPTH_TOL = 2e-4;
const DEPTH_REL_TOL = 1e-3;
const NORMAL_MIN_DEPTH = 1e-3;
const NORMAL_ANGLE_TOL = (0.5 * Math.PI) / 180;
/** [m] Jolt GJK/EPA stop tolerances (defaults 1e-4 would dominate the comparison). */
const JOLT_TOLERANCE = 1e-6;

type JoltModule = Awaited<ReturnType<typeof initJolt>>;
type JoltShape = InstanceType<JoltModule['Shape']>;

/** +90° about x: Jolt's local y axis to our local z axis. */
const Y_TO_Z: Quat = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];

interface JoltAnswer {
  intersecting: boolean;
  distance: number;
  normal: Vec3;
}

class JoltOracle {
  private readonly J: JoltModule;
  private readonly bi: InstanceType<JoltModule['BodyInterface']>;
  private readonly body: InstanceType<JoltModule['BodyID']>;
  private readonly settings: InstanceType<JoltModule['CollideShapeSettings']>;
  private readonly collector: InstanceType<JoltModule['CollideShapeClosestHitCollisionCollector']>;
  private readonly filter: InstanceType<JoltModule['ShapeFilter']>;

  constructor(J: JoltModule) {
    this.J = J;
    const js = new J.JoltSettings();
    const objectFilter = new J.ObjectLayerPairFilterTable(1);
    objectFilter.EnableCollision(0, 0);
    const bpi = new J.BroadPhaseLayerInterfaceTable(1, 1);
    bpi.MapObjectToBroadPhaseLayer(0, new J.BroadPhaseLayer(0));
    js.mObjectLayerPairFilter = objectFilter;
    js.mBroadPhaseLayerInterface = bpi;
    js.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpi, 1, objectFilter, 1);
    js.mMaxBodies = 16;
    const jolt = new J.JoltInterface(js);
    this.bi = jolt.GetPhysicsSystem().GetBodyInterfaceNoLock();
    const cs = new J.BodyCreationSettings(new J.SphereShape(1), new J.RVec3(0, 0, 0), new J.Quat(0, 0, 0, 1), J.EMotionType_Static, 0);
    const id = this.bi.CreateAndAddBody(cs, J.EActivation_DontActivate);
    this.body = new J.BodyID(id.GetIndexAndSequenceNumber());
    this.settings = new J.CollideShapeSettings();
    this.settings.mCollisionTolerance = JOLT_TOLERANCE;
    this.settings.mPenetrationTolerance = JOLT_TOLERANCE;
    this.collector = new J.CollideShapeClosestHitCollisionCollector();
    this.filter = new J.ShapeFilter();
  }

  shape(s: ShapeDesc): JoltShape {
    const J = this.J;
    switch (s.type) {
      case 'sphere':
        return new J.SphereShape(s.radius);
      case 'box':
        return new J.BoxShape(new J.Vec3(s.halfExtents[0], s.halfExtents[1], s.halfExtents[2]), 0);
      case 'capsule':
        return new J.CapsuleShape(s.height / 2, s.radius);
      case 'cylinder':
        return new J.CylinderShape(s.height / 2, s.radius, 0);
      case 'hull': {
        const hs = new J.ConvexHullShapeSettings();
        for (const p of s.points) hs.mPoints.push_back(new J.Vec3(p[0], p[1], p[2]));
        hs.mMaxConvexRadius = 0;
        hs.mHullTolerance = JOLT_TOLERANCE;
        const r = hs.Create();
        if (!r.IsValid()) throw new Error(`Jolt hull: ${r.GetError().c_str()}`);
        return r.Get();
      }
    }
  }

  /** `maxGap` [m]: an upper bound on the pair's separation (see the two passes below). */
  query(a: Placed, b: Placed, maxGap: number): JoltAnswer | null {
    const J = this.J;
    const sa = this.shape(a.shape);
    const sb = this.shape(b.shape);
    const qa = joltRotation(a);
    const qb = joltRotation(b);
    // A goes in by its centre-of-mass transform.
    const com = sa.GetCenterOfMass();
    const c: Vec3 = [0, 0, 0];
    quatRotate(c, qa, [com.GetX(), com.GetY(), com.GetZ()]);
    this.bi.SetShape(this.body, sb, false, J.EActivation_DontActivate);
    const ts = this.bi.GetTransformedShape(this.body);
    ts.SetWorldTransform(new J.RVec3(b.position[0], b.position[1], b.position[2]), new J.Quat(qb[0], qb[1], qb[2], qb[3]), new J.Vec3(1, 1, 1));
    const comA = J.RMat44.prototype.sRotationTranslation(
      new J.Quat(qa[0], qa[1], qa[2], qa[3]),
      new J.RVec3(a.position[0] + c[0], a.position[1] + c[1], a.position[2] + c[2]),
    );
    // Two passes: Jolt reports separated pairs by inflating both shapes by mMaxSeparationDistance
    // and running its penetration code on the inflated shapes, which costs float32 precision in
    // proportion to that distance (with 100 m, deep box–sphere overlaps came back "apart"). So:
    // first an exact penetration query (no inflation), then, if apart, a distance query with a
    // bound just above the largest possible gap of this pair.
    this.collector.Reset();
    this.settings.mMaxSeparationDistance = 0;
    ts.CollideShape(sa, new J.Vec3(1, 1, 1), comA, this.settings, new J.RVec3(0, 0, 0), this.collector, this.filter);
    if (!this.collector.HadHit()) {
      this.settings.mMaxSeparationDistance = maxGap;
      ts.CollideShape(sa, new J.Vec3(1, 1, 1), comA, this.settings, new J.RVec3(0, 0, 0), this.collector, this.filter);
    }
    if (!this.collector.HadHit()) return null;
    const h = this.collector.mHit;
    const ax = h.mPenetrationAxis;
    const n: Vec3 = [ax.GetX(), ax.GetY(), ax.GetZ()];
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len > 0) for (let k = 0; k < 3; k++) n[k] /= len;
    return { intersecting: h.mPenetrationDepth >= 0, distance: -h.mPenetrationDepth, normal: n };
  }
}

function joltRotation(p: Placed): Quat {
  const q: Quat = [...p.orientation];
  if (p.shape.type === 'capsule' || p.shape.type === 'cylinder') quatMultiply(q, p.orientation, Y_TO_Z);
  return q;
}

interface Stats {
  n: number;
  apart: number;
  overlap: number;
  maxDistErr: number;
  maxDepthErr: number;
  maxAngle: number;
  ties: number;
  joltInvalid: number;
  fallbacks: number;
}

describe('convex queries vs Jolt (oracle)', () => {
  let J: JoltModule;
  beforeAll(async () => {
    J = await initJolt();
  });

  it(`agrees two-sidedly on ${PAIRS} seeded random pairs within the documented tolerances`, () => {
    const jolt = new JoltOracle(J);
    const rng = new Rng(0x10172);
    const stats = new Map<string, Stats>();
    const failures: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const ta = KINDS[rng.int(0, KINDS.length - 1)];
      const tb = KINDS[rng.int(0, KINDS.length - 1)];
      const [a, b] = randomPair(rng, ta, tb);
      const key = [ta, tb].sort().join('–');
      let s = stats.get(key);
      if (!s) stats.set(key, (s = { n: 0, apart: 0, overlap: 0, maxDistErr: 0, maxDepthErr: 0, maxAngle: 0, ties: 0, joltInvalid: 0, fallbacks: 0 }));
      s.n++;
      const ours = queryConvex(a, b);
      // Centres are at most 1.15 (rA + rB) apart (convex-pairs.ts), so the gap is below that.
      const theirs = jolt.query(a, b, 1.2 * (boundingRadius(a.shape) + boundingRadius(b.shape)));
      const tag = `pair ${i} (${ta} vs ${tb}, ours: ${ours.status})`;
      if (theirs === null) {
        failures.push(`${tag}: Jolt gave no result`);
        continue;
      }
      if (Math.min(Math.abs(ours.distance), Math.abs(theirs.distance)) < TOUCH_BAND) continue;
      if (ours.intersecting !== theirs.intersecting) {
        failures.push(`${tag}: intersecting ours=${ours.intersecting} jolt=${theirs.intersecting} (d ours ${ours.distance}, jolt ${theirs.distance})`);
        continue;
      }
      const n = ours.normal;
      const diff = ours.distance - theirs.distance;
      let certifiedTie = false;
      if (!ours.intersecting) {
        s.apart++;
        s.maxDistErr = Math.max(s.maxDistErr, Math.abs(diff));
        if (Math.abs(diff) > DISTANCE_TOL) failures.push(`${tag}: distance ours ${ours.distance} jolt ${theirs.distance}`);
        // A separated pair has one closest direction; ties only within the angle tolerance.
        certifiedTie = -projectedOverlap(a, b, n) >= ours.distance - DISTANCE_TOL && Math.abs(diff) <= DISTANCE_TOL;
      } else {
        s.overlap++;
        const depth = -ours.distance;
        const tol = DEPTH_TOL + DEPTH_REL_TOL * depth;
        s.maxDepthErr = Math.max(s.maxDepthErr, Math.abs(diff));
        if (ours.status === 'epa-fallback') s.fallbacks++;
        const pOurs = projectedOverlap(a, b, n);
        const pJolt = projectedOverlap(a, b, theirs.normal);
        if (Math.abs(diff) > tol) {
          if (pJolt < depth - tol && ours.status !== 'epa-fallback') {
            failures.push(`${tag}: depth ours ${depth}, Jolt ${-theirs.distance} and its normal gives ${pJolt}`);
          } else if (pJolt >= -theirs.distance + tol) {
            s.joltInvalid++;
          } else if (ours.status !== 'epa-fallback') {
            failures.push(`${tag}: depth ours ${depth} jolt ${-theirs.distance}`);
          }
        }
        if (pOurs > depth + DEPTH_TOL) failures.push(`${tag}: projections on our normal overlap by ${pOurs} > our depth ${depth}`);
        certifiedTie = pOurs <= depth + DEPTH_TOL && pJolt >= depth - tol;
      }
      if (Math.abs(theirs.distance) > NORMAL_MIN_DEPTH) {
        const ang = angle(n, theirs.normal);
        if (ang <= NORMAL_ANGLE_TOL) s.maxAngle = Math.max(s.maxAngle, ang);
        else if (certifiedTie || ours.status === 'epa-fallback') s.ties++;
        else failures.push(`${tag}: normal off by ${((ang * 180) / Math.PI).toFixed(2)}° and not a certified tie`);
      }
    }
    const rows = [...stats.entries()].sort(([x], [y]) => (x < y ? -1 : 1));
    const lines = rows.map(
      ([k, s]) =>
        `${k.padEnd(20)} n=${String(s.n).padStart(4)} apart=${String(s.apart).padStart(4)} overlap=${String(s.overlap).padStart(4)} ` +
        `maxDistErr=${s.maxDistErr.toExponential(2)} maxDepthErr=${s.maxDepthErr.toExponential(2)} ` +
        `maxAngle=${((s.maxAngle * 180) / Math.PI).toFixed(3)}° ties=${s.ties} joltInvalid=${s.joltInvalid} fallbacks=${s.fallbacks}`,
    );
    console.log(`convex oracle vs Jolt, ${PAIRS} pairs\n${lines.join('\n')}\nfailures: ${failures.length}\n${failures.slice(0, 20).join('\n')}`);
    expect(failures.slice(0, 20)).toEqual([]);
  });
});
