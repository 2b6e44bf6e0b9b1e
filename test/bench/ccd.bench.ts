/**
 * Swept-query benchmark (`npm run bench -- ccd`):
 *
 * 1. Casts per second through the 513² wheel-bench terrain (test/oracle/cylinder-poses.ts:
 *    fractal, 0.1 m curbs, dx = 0.05 m): 2,000 seeded paths from 0.3–1 m above the ground,
 *    5°–90° below the horizon, 0.5–3 m long (most hit). Rows: ray (castRayHeightfield), sphere
 *    r = 0.1 m (castSphereHeightfield), box 0.4 × 0.2 × 0.2 m (castConvexHeightfield), wheel
 *    r = 0.3 m, width 0.2 m, axle horizontal (castWheelHeightfield, with its classified contacts
 *    at toi). Median of 5 timed passes (≥ 1 s of the thread's CPU time each) after warm-up;
 *    columns: hit share, cells visited per cast (the grid walk's count), bytes allocated per
 *    cast (V8's sampling heap profiler: the engine forms should allocate nothing).
 *
 * 2. Projectile trials, each engine stepping its own world at dt = 1/240 s, no gravity: a
 *    0.02 m sphere (radius) and a 0.05 m box (edge) fired at 200 and 1,000 m/s at a static wall
 *    0.01 m thick (2 × 2 m), 1,000 seeded trials per row (200 with --quick), angles up to 60°
 *    off the wall normal, starting so that the impact falls inside the first step; 4 steps per
 *    trial. A pass-through = the projectile's centre ends beyond the wall's back face (more
 *    than half of it through the wall).
 *      ours    the dynamics world (createDynamicsWorld): a dynamic body of density 2,000 and a
 *              static box wall, the world's continuous pass on (ccd: true) or off.
 *      Rapier  dynamic body with setCcdEnabled(true) (and a row with CCD off), ball / cuboid
 *              collider, static cuboid wall; world.step().
 *      Jolt    dynamic body with mMotionQuality = LinearCast (and Discrete), mMaxLinearVelocity
 *              raised to 2,000 m/s (its default clamps at 500), static BoxShape wall (convex
 *              radius 0); jolt.Step(dt, 1).
 *    The same body is re-placed for every trial (position, orientation, velocity reset).
 */
import { createDynamicsWorld } from '../../sim/dynamics/build';
import { MIN_PASS_SECONDS, threadCpuSeconds } from './pass-timer.mjs';
import { Session } from 'node:inspector/promises';
import type { HeapProfiler } from 'node:inspector';
import RAPIER from '@dimforge/rapier3d-compat';
import initJolt from 'jolt-physics/wasm-compat';
import { ContactBuffer } from '../../sim/collision/contact';
import { CylinderTerrainWorkspace } from '../../sim/collision/cylinder-terrain/workspace';
import { ConvexCastWorkspace, castConvexHeightfield } from '../../sim/collision/heightfield-cast/convex-cast';
import { SphereCastWorkspace, castRayHeightfield, castSphereHeightfield } from '../../sim/collision/heightfield-cast/sphere-cast';
import { TerrainCastResult } from '../../sim/collision/heightfield-cast/terrain-cast-result';
import { WheelCastWorkspace, castWheelHeightfield } from '../../sim/collision/heightfield-cast/wheel-cast';
import { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import { BoxShape } from '../../sim/shapes/box';
import { CylinderShape } from '../../sim/shapes/cylinder';
import type { Pose } from '../../sim/shapes/shape';
import type { Heightfield } from '../../sim/terrain/heightfield';
import { buildCylinderScene } from '../oracle/cylinder-poses';

/** The runner's context (test/bench/index.ts). */
export interface BenchContext {
  quick: boolean;
  filter?: string;
}

type JoltModule = Awaited<ReturnType<typeof initJolt>>;

const DT = 1 / 240;
const WALL_HALF: Vec3 = [0.005, 1, 1];
const STEPS_PER_TRIAL = 4;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

// ---- 1. cast rates ---------------------------------------------------------------------------

interface Path {
  start: Vec3;
  motion: Vec3;
}

function paths(hf: Heightfield, count: number): Path[] {
  const rng = new Rng(2026);
  const out: Path[] = [];
  const span = hf.cellsX * hf.dx;
  for (let n = 0; n < count; n++) {
    const x = hf.x0 + rng.range(0.1, 0.9) * span, y = hf.y0 + rng.range(0.1, 0.9) * span;
    const el = -rng.range(5, 90) * (Math.PI / 180), az = rng.range(0, 2 * Math.PI), len = rng.range(0.5, 3);
    out.push({
      start: [x, y, hf.heightAt(x, y) + rng.range(0.3, 1)],
      motion: [len * Math.cos(el) * Math.cos(az), len * Math.cos(el) * Math.sin(az), len * Math.sin(el)],
    });
  }
  return out;
}

interface Rate {
  perSecond: number;
  hitShare: number;
  cells: number;
}

/** `out` is the result record every cast writes (its walk statistics give the cells visited). */
function timeCasts(ps: readonly Path[], cast: (p: Path) => boolean, out: TerrainCastResult, runs: number): Rate {
  let hits = 0, cells = 0;
  for (const p of ps) {
    if (cast(p)) hits++;
    cells += out.walk.cellsVisited;
  }
  for (let w = 0; w < 2; w++) for (const p of ps) cast(p); // warm-up
  const rates: number[] = [];
  for (let r = 0; r < runs; r++) {
    let n = 0;
    const t0 = threadCpuSeconds();
    let t1 = t0;
    while (t1 - t0 < MIN_PASS_SECONDS) {
      for (const p of ps) cast(p);
      n += ps.length;
      t1 = threadCpuSeconds();
    }
    rates.push(n / (t1 - t0));
  }
  return { perSecond: median(rates), hitShare: hits / ps.length, cells: cells / ps.length };
}

interface HeapNode {
  callFrame: { functionName: string };
  selfSize: number;
  children: HeapNode[];
}

/**
 * [B] Bytes allocated per cast under the function named `root` (V8's sampling heap profiler,
 * as test/bench/cylinder.bench.ts; objects collected by minor and major GC included).
 */
async function bytesPerCast(ps: readonly Path[], cast: (p: Path) => boolean, root: string): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    const sampling: HeapProfiler.StartSamplingParameterType & { includeObjectsCollectedByMajorGC: boolean; includeObjectsCollectedByMinorGC: boolean } = {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    };
    await session.post('HeapProfiler.startSampling', sampling);
    for (let r = 0; r < 2; r++) for (const p of ps) cast(p);
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
    let bytes = 0;
    const walk = (node: HeapNode, inside: boolean): void => {
      const here = inside || node.callFrame.functionName === root;
      if (here) bytes += node.selfSize;
      for (const c of node.children) walk(c, here);
    };
    walk(profile.head, false);
    return bytes / (2 * ps.length);
  } finally {
    session.disconnect();
  }
}

async function castRates(quick: boolean): Promise<void> {
  const hf = buildCylinderScene(513);
  const ps = paths(hf, quick ? 300 : 2000);
  const out = new TerrainCastResult();
  const sphereR = { radius: 0.1 };
  const box = new BoxShape([0.2, 0.1, 0.1]);
  const boxPose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0.3826834323650898, 0.9238795325112867] };
  const wheel = new CylinderShape(0.3, 0.2);
  const axle: Vec3 = [0, 1, 0];
  const ws = new WheelCastWorkspace(new CylinderTerrainWorkspace());
  const sphereWs = new SphereCastWorkspace();
  const convexWs = new ConvexCastWorkspace();
  const contacts = new ContactBuffer(64);
  let contactCount = 0;
  const rows: [string, (p: Path) => boolean, string][] = [
    ['ray (`castRayHeightfield`)', (p) => castRayHeightfield(out, hf, p.start, p.motion, sphereWs).touched, 'castRayHeightfield'],
    ['sphere r 0.1 m (`castSphereHeightfield`)', (p) => castSphereHeightfield(out, hf, p.start, p.motion, sphereR, sphereWs).touched, 'castSphereHeightfield'],
    ['box 0.4 × 0.2 × 0.2 m (`castConvexHeightfield`)', (p) => {
      boxPose.position[0] = p.start[0];
      boxPose.position[1] = p.start[1];
      boxPose.position[2] = p.start[2];
      return castConvexHeightfield(out, hf, box, boxPose, p.motion, convexWs).touched;
    }, 'castConvexHeightfield'],
    ['wheel r 0.3 m, width 0.2 m + contacts at toi (`castWheelHeightfield`)', (p) => {
      contacts.clear();
      castWheelHeightfield(out, contacts, hf, p.start, axle, wheel, p.motion, ws);
      contactCount += contacts.count;
      return out.touched;
    }, 'castWheelHeightfield'],
  ];
  console.log(`\n513² terrain (dx 0.05 m), ${ps.length} seeded paths 0.5–3 m long, 5°–90° down; median of 5 passes of ≥ 1 s of the thread's CPU time\n`);
  console.log('| cast | casts per CPU-second | hit | cells visited per cast | bytes allocated per cast |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, fn, root] of rows) {
    contactCount = 0;
    const r = timeCasts(ps, fn, out, quick ? 2 : 5);
    const bytes = await bytesPerCast(ps, fn, root);
    console.log(`| ${name} | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${(100 * r.hitShare).toFixed(0)} % | ${r.cells.toFixed(1)} | ${bytes.toFixed(1)} |`);
  }
}

// ---- 2. projectile trials --------------------------------------------------------------------

interface Trial {
  start: Vec3;
  velocity: Vec3;
  orientation: [number, number, number, number];
}

function trials(count: number, speed: number, seed: number, size: number): Trial[] {
  const rng = new Rng(seed);
  const out: Trial[] = [];
  const L = speed * DT;
  for (let n = 0; n < count; n++) {
    const th = rng.range(0, (60 * Math.PI) / 180), ph = rng.range(0, 2 * Math.PI);
    const dir: Vec3 = [Math.cos(th), Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph)];
    const hit: Vec3 = [-WALL_HALF[0], rng.range(-0.6, 0.6), rng.range(-0.6, 0.6)];
    // the centre reaches the face within the first step, from a start clear of it
    const clear = (WALL_HALF[0] + 2 * size) / dir[0];
    const back = Math.max(clear, rng.range(0.05, 0.95) * L);
    const q = [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()];
    const ql = Math.hypot(...q);
    out.push({
      start: [hit[0] - back * dir[0], hit[1] - back * dir[1], hit[2] - back * dir[2]],
      velocity: [speed * dir[0], speed * dir[1], speed * dir[2]],
      orientation: [q[0] / ql, q[1] / ql, q[2] / ql, q[3] / ql],
    });
  }
  return out;
}

/**
 * Tunnelled: the centre ended beyond the wall's back face (more than half the body through: a
 * contact there pushes it out of the back, or it has flown on).
 */
function passed(x: number, _size: number): boolean {
  return x > WALL_HALF[0];
}

/** Our dynamics world (sim/dynamics/), the wall a static body, CCD on or off; a fresh world per trial. */
function oursTrials(ts: readonly Trial[], sphere: boolean, size: number, ccd: boolean): number {
  let through = 0;
  for (const t of ts) {
    const world = createDynamicsWorld({
      name: 'projectile', gravity: [0, 0, 0], dt: DT, substeps: 4, sleep: false, ccd,
      materials: { default: {} }, terrainMaterials: {}, joints: [], script: [],
      bodies: [
        { name: 'wall', type: 'static', shape: { type: 'box', halfExtents: [WALL_HALF[0], WALL_HALF[1], WALL_HALF[2]] } },
        {
          name: 'projectile', density: 2000,
          shape: sphere ? { type: 'sphere', radius: size } : { type: 'box', halfExtents: [size, size, size] },
          position: [t.start[0], t.start[1], t.start[2]], orientation: t.orientation,
          linearVelocity: [t.velocity[0], t.velocity[1], t.velocity[2]],
        },
      ],
    }, null);
    world.step(STEPS_PER_TRIAL);
    if (passed(world.bodies.pos[3], size)) through++;
  }
  return through;
}

function rapierTrials(ts: readonly Trial[], sphere: boolean, size: number, ccd: boolean): number {
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  world.timestep = DT;
  world.createCollider(RAPIER.ColliderDesc.cuboid(WALL_HALF[0], WALL_HALF[1], WALL_HALF[2]));
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setCcdEnabled(ccd).setTranslation(-10, 0, 0));
  world.createCollider(sphere ? RAPIER.ColliderDesc.ball(size) : RAPIER.ColliderDesc.cuboid(size, size, size), body);
  let through = 0;
  for (const t of ts) {
    body.setTranslation({ x: t.start[0], y: t.start[1], z: t.start[2] }, true);
    body.setRotation({ x: t.orientation[0], y: t.orientation[1], z: t.orientation[2], w: t.orientation[3] }, true);
    body.setLinvel({ x: t.velocity[0], y: t.velocity[1], z: t.velocity[2] }, true);
    body.setAngvel({ x: 0, y: 0, z: 0 }, true);
    for (let s = 0; s < STEPS_PER_TRIAL; s++) world.step();
    if (passed(body.translation().x, size)) through++;
  }
  world.free();
  return through;
}

function joltTrials(J: JoltModule, ts: readonly Trial[], sphere: boolean, size: number, linearCastQuality: boolean): number {
  const settings = new J.JoltSettings();
  const objectFilter = new J.ObjectLayerPairFilterTable(1);
  objectFilter.EnableCollision(0, 0);
  const bpInterface = new J.BroadPhaseLayerInterfaceTable(1, 1);
  bpInterface.MapObjectToBroadPhaseLayer(0, new J.BroadPhaseLayer(0));
  settings.mObjectLayerPairFilter = objectFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 1, objectFilter, 1);
  const jolt = new J.JoltInterface(settings);
  J.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  system.SetGravity(new J.Vec3(0, 0, 0));
  const bi = system.GetBodyInterface();
  const rot = new J.Quat(0, 0, 0, 1);
  const p = new J.RVec3(0, 0, 0);
  const wallSettings = new J.BodyCreationSettings(new J.BoxShape(new J.Vec3(WALL_HALF[0], WALL_HALF[1], WALL_HALF[2]), 0), p, rot, J.EMotionType_Static, 0);
  bi.CreateAndAddBody(wallSettings, J.EActivation_DontActivate);
  J.destroy(wallSettings);
  p.Set(-10, 0, 0);
  const shape = sphere ? new J.SphereShape(size) : new J.BoxShape(new J.Vec3(size, size, size), 0);
  const cs = new J.BodyCreationSettings(shape, p, rot, J.EMotionType_Dynamic, 0);
  cs.mMotionQuality = linearCastQuality ? J.EMotionQuality_LinearCast : J.EMotionQuality_Discrete;
  cs.mMaxLinearVelocity = 2000;
  cs.mAllowSleeping = false;
  const created = bi.CreateAndAddBody(cs, J.EActivation_Activate);
  const id = new J.BodyID(created.GetIndexAndSequenceNumber());
  J.destroy(cs);
  const v = new J.Vec3(0, 0, 0), w = new J.Vec3(0, 0, 0);
  const q = new J.Quat(0, 0, 0, 1);
  let through = 0;
  for (const t of ts) {
    p.Set(t.start[0], t.start[1], t.start[2]);
    q.Set(t.orientation[0], t.orientation[1], t.orientation[2], t.orientation[3]);
    bi.SetPositionAndRotation(id, p, q, J.EActivation_Activate);
    v.Set(t.velocity[0], t.velocity[1], t.velocity[2]);
    bi.SetLinearAndAngularVelocity(id, v, w);
    for (let s = 0; s < STEPS_PER_TRIAL; s++) jolt.Step(DT, 1);
    if (passed(bi.GetPosition(id).GetX(), size)) through++;
  }
  J.destroy(id);
  J.destroy(jolt);
  return through;
}

async function projectileTrials(quick: boolean): Promise<void> {
  await RAPIER.init();
  const J = await initJolt();
  const count = quick ? 200 : 1000;
  console.log(`\nProjectile trials: pass-throughs of ${count} seeded shots per row at a 0.01 m wall, dt = 1/240 s, each engine stepping its own world\n`);
  console.log('| projectile | speed | ours, CCD on | ours, CCD off | Rapier, CCD on | Rapier, CCD off | Jolt, LinearCast | Jolt, Discrete |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const sphere of [true, false]) {
    const size = sphere ? 0.02 : 0.025;
    for (const speed of [200, 1000]) {
      const ts = trials(count, speed, speed + (sphere ? 1 : 2), size);
      const cells = [
        oursTrials(ts, sphere, size, true),
        oursTrials(ts, sphere, size, false),
        rapierTrials(ts, sphere, size, true),
        rapierTrials(ts, sphere, size, false),
        joltTrials(J, ts, sphere, size, true),
        joltTrials(J, ts, sphere, size, false),
      ];
      console.log(`| ${sphere ? 'sphere r 0.02 m' : 'box 0.05 m'} | ${speed} m/s | ${cells.map((c) => `${c} / ${count}`).join(' | ')} |`);
    }
  }
}

export default async function run(ctx: BenchContext): Promise<void> {
  await castRates(ctx.quick);
  await projectileTrials(ctx.quick);
}

// Direct run: `npx tsx test/bench/ccd.bench.ts [--quick]`.
if (process.argv[1]?.endsWith('ccd.bench.ts')) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
