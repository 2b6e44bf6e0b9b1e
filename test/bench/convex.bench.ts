/**
 * Convex narrow-phase benchmark: ours against Rapier (parry3d in wasm) and Jolt (wasm) in the
 * same process and run.
 *
 * Rows (queries per second, median of 5 timed runs after one warm-up run; each run sweeps a fixed
 * seeded set of pairs several times):
 *   GJK distance   separated pairs of 32-vertex hulls (points on a sphere of radius 0.5 m).
 *                  Also warm-started with a GjkCache per pair (ours only: the peers' JS APIs
 *                  expose no such cache).
 *   EPA depth      overlapping pairs of the same hulls.
 *   SAT box–box    overlapping box pairs (half extents 0.2–0.6 m): ours = satBoxBox (axis +
 *                  depth) and, separately, collideBoxBox (axis + clipped manifold, ≤ 4 points).
 *
 * What each peer's call includes (a JS user pays all of it, the JS→wasm boundary included):
 *   Rapier  two colliders in a World without bodies; per query setTranslation + setRotation on
 *           both (4 wasm calls) + contactCollider(other, prediction) (one call; GJK/EPA for hulls,
 *           SAT for cuboids; returns one contact pair: distance, points, normal). The Shape API
 *           (shape.contactShape) is not used: it re-uploads the shape every call, and rebuilds a
 *           hull's convex hull, which would be an unfair comparison.
 *   Jolt    B is a static body's TransformedShape, moved per query with SetWorldTransform;
 *           TransformedShape.CollideShape(A, …)
 *           with a closest-hit collector, convex radius 0 (exact shapes),
 *           mMaxSeparationDistance = 2 m for the distance row (gaps here are 0.2–1 m; Jolt then
 *           runs GJK closest points and reports −distance as its penetration depth; a larger bound
 *           inflates the shapes further and costs precision).
 *   Ours    gjkDistance / epaPenetration (each with its workspace, as the engine calls them) /
 *           satBoxBox / collideBoxBox on engine shapes and poses,
 *           no warm start (GjkCache unused), all in JS.
 * The "check" column is the mean |ours − peer| of the distance (or depth) over the pair set,
 * measured once outside the timing: it shows every engine answered the same question.
 *
 * Run: `npm run bench -- convex` or `npx tsx test/bench/convex.bench.ts [--quick]`.
 */

import RAPIER from '@dimforge/rapier3d-compat';
import initJolt from 'jolt-physics/wasm-compat';
import { ContactBuffer } from '../../sim/collision/contact';
import { EpaResult, EpaWorkspace, epaPenetration } from '../../sim/collision/epa';
import { GjkCache, GjkResult, GjkWorkspace, gjkDistance } from '../../sim/collision/gjk';
import { BoxBoxWorkspace, collideBoxBox, createBoxBoxSat, satBoxBox } from '../../sim/collision/sat-box-box';
import type { Quat } from '../../sim/math/quat';
import { quatNormalize, quatRotate } from '../../sim/math/quat';
import { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import { ConvexHullShape } from '../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../sim/shapes/convex-hull-builder';
import type { Pose } from '../../sim/shapes/shape';

/** The runner's context (test/bench/index.ts): quick = smoke run; the runner applies the filter. */
export interface BenchContext {
  quick: boolean;
  filter?: string;
}

type JoltModule = Awaited<ReturnType<typeof initJolt>>;

const bbWs = new BoxBoxWorkspace();

const HULL_VERTICES = 32;
const HULL_POOL = 16;
const PAIRS = 256;

interface HullPair {
  a: number;
  b: number;
  poseA: Pose;
  poseB: Pose;
}

interface BoxPair {
  hA: Vec3;
  hB: Vec3;
  poseA: Pose;
  poseB: Pose;
}

function randomQuat(rng: Rng): Quat {
  const q: Quat = [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()];
  return quatNormalize(q, q);
}

function randomDir(rng: Rng): Vec3 {
  const d: Vec3 = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
  const l = Math.hypot(d[0], d[1], d[2]) || 1;
  return [d[0] / l, d[1] / l, d[2] / l];
}

/** Hull point clouds: HULL_VERTICES points on a sphere of radius 0.5 m (all are hull vertices). */
function makeHullClouds(rng: Rng): Float64Array[] {
  const clouds: Float64Array[] = [];
  for (let h = 0; h < HULL_POOL; h++) {
    const pts = new Float64Array(HULL_VERTICES * 3);
    for (let i = 0; i < HULL_VERTICES; i++) {
      const d = randomDir(rng);
      pts.set([0.5 * d[0], 0.5 * d[1], 0.5 * d[2]], i * 3);
    }
    clouds.push(pts);
  }
  return clouds;
}

/** Centre distance in [lo, hi) along a random direction. */
function makeHullPairs(rng: Rng, lo: number, hi: number): HullPair[] {
  const pairs: HullPair[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const d = randomDir(rng);
    const r = rng.range(lo, hi);
    const pa: Vec3 = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
    pairs.push({
      a: rng.int(0, HULL_POOL - 1),
      b: rng.int(0, HULL_POOL - 1),
      poseA: { position: pa, orientation: randomQuat(rng) },
      poseB: { position: [pa[0] + r * d[0], pa[1] + r * d[1], pa[2] + r * d[2]], orientation: randomQuat(rng) },
    });
  }
  return pairs;
}

function makeBoxPairs(rng: Rng): BoxPair[] {
  const pairs: BoxPair[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const hA: Vec3 = [rng.range(0.2, 0.6), rng.range(0.2, 0.6), rng.range(0.2, 0.6)];
    const hB: Vec3 = [rng.range(0.2, 0.6), rng.range(0.2, 0.6), rng.range(0.2, 0.6)];
    const d = randomDir(rng);
    const r = rng.range(0.3, 0.9);
    const pa: Vec3 = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
    pairs.push({
      hA,
      hB,
      poseA: { position: pa, orientation: randomQuat(rng) },
      poseB: { position: [pa[0] + r * d[0], pa[1] + r * d[1], pa[2] + r * d[2]], orientation: randomQuat(rng) },
    });
  }
  return pairs;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/**
 * Queries per second for each engine: each `sweep` answers `perSweep` queries; median of 5 timed
 * runs after a warm-up run. Engines take turns run by run so load bursts on the shared machine
 * hit them alike.
 */
function rates(sweepsOf: (() => void)[], perSweep: number, sweeps: number): number[] {
  const out: number[][] = sweepsOf.map(() => []);
  for (let r = 0; r < 6; r++) {
    for (let e = 0; e < sweepsOf.length; e++) {
      const sweep = sweepsOf[e];
      const t0 = performance.now();
      for (let s = 0; s < sweeps; s++) sweep();
      const dt = (performance.now() - t0) / 1000;
      if (r > 0) out[e].push((perSweep * sweeps) / dt);
    }
  }
  return out.map(median);
}

// --- Rapier adapters ----------------------------------------------------------------------------

interface RapierPairRunner {
  /** Signed distance (negative = −depth) of one pair. */
  query(i: number): number;
  free(): void;
}

function rapierRunner(
  descA: (i: number) => RAPIER.ColliderDesc,
  descB: (i: number) => RAPIER.ColliderDesc,
  poses: { poseA: Pose; poseB: Pose }[],
  keyA: (i: number) => number,
  keyB: (i: number) => number,
  prediction: number,
): RapierPairRunner {
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  // One collider per distinct shape on each side, so no shape is rebuilt during the timing.
  const cA = new Map<number, RAPIER.Collider>();
  const cB = new Map<number, RAPIER.Collider>();
  for (let i = 0; i < poses.length; i++) {
    if (!cA.has(keyA(i))) cA.set(keyA(i), world.createCollider(descA(i)));
    if (!cB.has(keyB(i))) cB.set(keyB(i), world.createCollider(descB(i)));
  }
  const t = { x: 0, y: 0, z: 0 };
  const q = { x: 0, y: 0, z: 0, w: 1 };
  const place = (c: RAPIER.Collider, p: Pose): void => {
    t.x = p.position[0];
    t.y = p.position[1];
    t.z = p.position[2];
    q.x = p.orientation[0];
    q.y = p.orientation[1];
    q.z = p.orientation[2];
    q.w = p.orientation[3];
    c.setTranslation(t);
    c.setRotation(q);
  };
  return {
    query(i: number): number {
      const a = cA.get(keyA(i)) as RAPIER.Collider;
      const b = cB.get(keyB(i)) as RAPIER.Collider;
      place(a, poses[i].poseA);
      place(b, poses[i].poseB);
      const c = a.contactCollider(b, prediction);
      return c === null ? Infinity : c.distance;
    },
    free(): void {
      world.free();
    },
  };
}

// --- Jolt adapters ------------------------------------------------------------------------------

interface JoltPairRunner {
  query(i: number): number;
}

function joltRunner(
  J: JoltModule,
  shapesA: InstanceType<JoltModule['Shape']>[],
  shapesB: InstanceType<JoltModule['Shape']>[],
  poses: { poseA: Pose; poseB: Pose }[],
  keyA: (i: number) => number,
  keyB: (i: number) => number,
  maxSeparation: number,
): JoltPairRunner {
  // A TransformedShape made with `new` crashes in CollideShape (its internals stay unset), so
  // each B shape gets a static body in a tiny world; per query we fetch its TransformedShape
  // (a by-value temporary, used at once) and move it with SetWorldTransform.
  const js = new J.JoltSettings();
  const objectFilter = new J.ObjectLayerPairFilterTable(1);
  objectFilter.EnableCollision(0, 0);
  const bpi = new J.BroadPhaseLayerInterfaceTable(1, 1);
  bpi.MapObjectToBroadPhaseLayer(0, new J.BroadPhaseLayer(0));
  js.mObjectLayerPairFilter = objectFilter;
  js.mBroadPhaseLayerInterface = bpi;
  js.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpi, 1, objectFilter, 1);
  js.mMaxBodies = shapesB.length + 16;
  const jolt = new J.JoltInterface(js);
  J.destroy(js);
  const bi = jolt.GetPhysicsSystem().GetBodyInterfaceNoLock();
  const bodyB: InstanceType<JoltModule['BodyID']>[] = [];
  for (const shape of shapesB) {
    const cs = new J.BodyCreationSettings(shape, new J.RVec3(0, 0, 0), new J.Quat(0, 0, 0, 1), J.EMotionType_Static, 0);
    const id = bi.CreateAndAddBody(cs, J.EActivation_DontActivate);
    bodyB.push(new J.BodyID(id.GetIndexAndSequenceNumber()));
    J.destroy(cs);
  }
  // Jolt places shapes by their centre of mass (a hull's is not its local origin).
  const comA = shapesA.map((s) => {
    const c = s.GetCenterOfMass();
    return [c.GetX(), c.GetY(), c.GetZ()] as Vec3;
  });
  const settings = new J.CollideShapeSettings();
  settings.mMaxSeparationDistance = maxSeparation;
  const collector = new J.CollideShapeClosestHitCollisionCollector();
  const filter = new J.ShapeFilter();
  const scale = new J.Vec3(1, 1, 1);
  const base = new J.RVec3(0, 0, 0);
  const pA = new J.RVec3(0, 0, 0);
  const pB = new J.RVec3(0, 0, 0);
  const qA = new J.Quat(0, 0, 0, 1);
  const qB = new J.Quat(0, 0, 0, 1);
  const c: Vec3 = [0, 0, 0];
  return {
    query(i: number): number {
      const { poseA, poseB } = poses[i];
      const ka = keyA(i);
      quatRotate(c, poseA.orientation, comA[ka]);
      pA.Set(poseA.position[0] + c[0], poseA.position[1] + c[1], poseA.position[2] + c[2]);
      qA.Set(poseA.orientation[0], poseA.orientation[1], poseA.orientation[2], poseA.orientation[3]);
      pB.Set(poseB.position[0], poseB.position[1], poseB.position[2]);
      qB.Set(poseB.orientation[0], poseB.orientation[1], poseB.orientation[2], poseB.orientation[3]);
      const ts = bi.GetTransformedShape(bodyB[keyB(i)]);
      ts.SetWorldTransform(pB, qB, scale);
      const com = J.RMat44.prototype.sRotationTranslation(qA, pA);
      collector.Reset();
      ts.CollideShape(shapesA[ka], scale, com, settings, base, collector, filter);
      return collector.HadHit() ? -collector.mHit.mPenetrationDepth : Infinity;
    },
  };
}

function joltHull(J: JoltModule, cloud: Float64Array): InstanceType<JoltModule['Shape']> {
  const s = new J.ConvexHullShapeSettings();
  for (let i = 0; i < cloud.length; i += 3) s.mPoints.push_back(new J.Vec3(cloud[i], cloud[i + 1], cloud[i + 2]));
  s.mMaxConvexRadius = 0;
  const r = s.Create();
  if (!r.IsValid()) throw new Error(`Jolt hull: ${r.GetError().c_str()}`);
  const shape = r.Get();
  shape.AddRef();
  return shape;
}

// --- the benchmark ----------------------------------------------------------------------------

interface Row {
  name: string;
  ours: number;
  rapier: number;
  jolt: number;
  checkRapier: number;
  checkJolt: number;
}

function fmtRate(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : `${(x / 1e3).toFixed(0)} k`;
}

function meanAbsDiff(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
  return s / a.length;
}

export default async function run(ctx: BenchContext): Promise<void> {
  await RAPIER.init();
  const J = await initJolt();
  const rng = new Rng(32);
  const sweeps = ctx.quick ? 4 : 40;

  const clouds = makeHullClouds(rng);
  const hulls = clouds.map((c) => {
    const built = buildConvexHull(c);
    if (built.data === null) throw new Error(`hull: ${built.message}`);
    return new ConvexHullShape(built.data);
  });
  const joltHulls = clouds.map((c) => joltHull(J, c));
  const apart = makeHullPairs(rng, 1.2, 2.0);
  const deep = makeHullPairs(rng, 0.2, 0.8);
  const boxes = makeBoxPairs(rng);

  const rows: Row[] = [];
  const gjk = new GjkResult();
  const gjkWs = new GjkWorkspace();
  const epa = new EpaResult();
  const epaWs = new EpaWorkspace();

  const hullRow = (name: string, pairs: HullPair[], ours: (p: HullPair) => number, prediction: number, maxSep: number): void => {
    const rap = rapierRunner(
      (i) => RAPIER.ColliderDesc.convexHull(new Float32Array(clouds[pairs[i].a])) as RAPIER.ColliderDesc,
      (i) => RAPIER.ColliderDesc.convexHull(new Float32Array(clouds[pairs[i].b])) as RAPIER.ColliderDesc,
      pairs,
      (i) => pairs[i].a,
      (i) => pairs[i].b,
      prediction,
    );
    const jol = joltRunner(J, joltHulls, joltHulls, pairs, (i) => pairs[i].a, (i) => pairs[i].b, maxSep);
    const o = pairs.map(ours);
    const r = pairs.map((_, i) => rap.query(i));
    const j = pairs.map((_, i) => jol.query(i));
    const [oursRate, rapierRate, joltRate] = rates(
      [
        () => { for (const p of pairs) ours(p); },
        () => { for (let i = 0; i < pairs.length; i++) rap.query(i); },
        () => { for (let i = 0; i < pairs.length; i++) jol.query(i); },
      ],
      pairs.length,
      sweeps,
    );
    rows.push({ name, ours: oursRate, rapier: rapierRate, jolt: joltRate, checkRapier: meanAbsDiff(o, r), checkJolt: meanAbsDiff(o, j) });
    rap.free();
  };

  hullRow('GJK distance, 32-vertex hulls (separated)', apart, (p) => gjkDistance(gjk, hulls[p.a], p.poseA, hulls[p.b], p.poseB, undefined, gjkWs).distance, 2, 2);
  // Warm start (what a persistent contact pair gets step to step): the same pairs with a
  // GjkCache each, primed once; ours only (the peers' JS APIs expose no such cache).
  const caches = apart.map(() => new GjkCache());
  apart.forEach((p, i) => gjkDistance(gjk, hulls[p.a], p.poseA, hulls[p.b], p.poseB, caches[i], gjkWs));
  const [warmRate] = rates(
    [() => { for (let i = 0; i < apart.length; i++) { const p = apart[i]; gjkDistance(gjk, hulls[p.a], p.poseA, hulls[p.b], p.poseB, caches[i], gjkWs); } }],
    apart.length,
    sweeps,
  );
  rows.push({ name: 'GJK distance, same pairs, warm-started (GjkCache), ours only', ours: warmRate, rapier: NaN, jolt: NaN, checkRapier: NaN, checkJolt: NaN });

  hullRow('EPA penetration, 32-vertex hulls (overlapping)', deep, (p) => -epaPenetration(epa, hulls[p.a], p.poseA, hulls[p.b], p.poseB, epaWs).depth, 0, 0);

  // Box–box rows: one shape per pair on each side.
  const sat = createBoxBoxSat();
  const buf = new ContactBuffer(16);
  const rapBox = rapierRunner(
    (i) => RAPIER.ColliderDesc.cuboid(boxes[i].hA[0], boxes[i].hA[1], boxes[i].hA[2]),
    (i) => RAPIER.ColliderDesc.cuboid(boxes[i].hB[0], boxes[i].hB[1], boxes[i].hB[2]),
    boxes,
    (i) => i,
    (i) => i,
    0,
  );
  const joltBoxA = boxes.map((b) => new J.BoxShape(new J.Vec3(b.hA[0], b.hA[1], b.hA[2]), 0));
  const joltBoxB = boxes.map((b) => new J.BoxShape(new J.Vec3(b.hB[0], b.hB[1], b.hB[2]), 0));
  const jolBox = joltRunner(J, joltBoxA, joltBoxB, boxes, (i) => i, (i) => i, 0);
  const satQuery = (b: BoxPair): number =>
    satBoxBox(sat, b.poseA.position, b.poseA.orientation, b.hA, b.poseB.position, b.poseB.orientation, b.hB, false, bbWs).separation;
  const manifoldQuery = (b: BoxPair): number => {
    buf.clear();
    collideBoxBox(buf, b.poseA.position, b.poseA.orientation, b.hA, b.poseB.position, b.poseB.orientation, b.hB, 0, bbWs, sat);
    return sat.separation;
  };
  const oSat = boxes.map(satQuery);
  const rBox = boxes.map((_, i) => rapBox.query(i));
  const jBox = boxes.map((_, i) => jolBox.query(i));
  const overlapping = oSat.filter((d) => d < 0).length;
  const [satRate, manifoldRate, rapBoxRate, jolBoxRate] = rates(
    [
      () => { for (const b of boxes) satQuery(b); },
      () => { for (const b of boxes) manifoldQuery(b); },
      () => { for (let i = 0; i < boxes.length; i++) rapBox.query(i); },
      () => { for (let i = 0; i < boxes.length; i++) jolBox.query(i); },
    ],
    boxes.length,
    sweeps,
  );
  // Compare depths only where both see an overlap (Rapier/Jolt report nothing for separated pairs at prediction 0).
  const both = boxes.map((_, i) => i).filter((i) => oSat[i] < 0 && Number.isFinite(rBox[i]) && Number.isFinite(jBox[i]));
  rows.push({
    name: 'SAT box–box, axis + depth (satBoxBox)',
    ours: satRate,
    rapier: rapBoxRate,
    jolt: jolBoxRate,
    checkRapier: meanAbsDiff(both.map((i) => oSat[i]), both.map((i) => rBox[i])),
    checkJolt: meanAbsDiff(both.map((i) => oSat[i]), both.map((i) => jBox[i])),
  });
  rows.push({
    name: 'SAT box–box + clipped manifold (collideBoxBox)',
    ours: manifoldRate,
    rapier: rapBoxRate,
    jolt: jolBoxRate,
    checkRapier: NaN,
    checkJolt: NaN,
  });
  rapBox.free();

  console.log(`\n### Convex queries (queries per second, median of 5 runs taken in turns; ${PAIRS} pairs × ${sweeps} sweeps per run)\n`);
  console.log('| row | ours | Rapier | Jolt | ours / fastest peer (time) | check: mean abs diff vs ours, Rapier / Jolt [m] |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const peer = Math.max(r.rapier, r.jolt);
    const ratio = Number.isFinite(peer) ? (peer / r.ours).toFixed(2) : '—';
    const check = Number.isFinite(r.checkRapier) ? `${r.checkRapier.toExponential(1)} / ${r.checkJolt.toExponential(1)}` : '(same pairs as above)';
    console.log(`| ${r.name} | ${fmtRate(r.ours)} | ${fmtRate(r.rapier)} | ${fmtRate(r.jolt)} | ${ratio} | ${check} |`);
  }
  console.log(
    `\nRatio = (ours time per query) / (fastest peer time per query): < 1 means ours is faster. Box pairs: ${overlapping} of ${PAIRS} overlap ` +
      '(peers return nothing for the others at prediction 0; ours still runs all 15 axes). Rapier: per query 2 × (setTranslation + setRotation) + ' +
      'contactCollider on colliders in a World (its Shape API would rebuild hulls per call). Jolt: TransformedShape.CollideShape with a closest-hit ' +
      'collector, convex radius 0; the distance row uses mMaxSeparationDistance = 2 m (Rapier prediction 2 m). Peer numbers include the JS→wasm boundary, ' +
      'which is part of what a JS user pays. The collideBoxBox row does more work than the peers (up to 4 clipped points vs one contact pair).',
  );
  for (const s of joltHulls) s.Release();
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
