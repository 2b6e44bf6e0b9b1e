/**
 * Recording overhead on the standard vehicle scene (test/bench/vehicle/: the six-wheeled rover on
 * the seeded rough terrain with 100 rocks, dt = 1/240 s), through RecordSession exactly as the
 * service records (every step: keyframe when due, frame, Foxglove channels at 30 Hz; zstd; 1 MiB
 * chunks) into memory.
 *
 * Reports:
 *  - steps/s without and with recording (median of the timed runs after a warm-up) and the
 *    overhead in %;
 *  - bytes per simulated minute;
 *  - a 10-minute recording (`--quick`: 1 minute; RECORD_WORLD_MINUTES=n overrides): time to open it to its first
 *    frame, and exact seek (keyframe + re-simulation, seekWorld) to 50 seeded steps: median, p95.
 *
 * Run: `npm run bench -- record-world` (or `-- --quick record-world`).
 */
import { cpus, loadavg } from 'node:os';
import { createDynamicsWorld } from '../../sim/dynamics/build';
import type { DynamicsWorld } from '../../sim/dynamics/world';
import { Rng } from '../../sim/math/random';
import { loadCodecs, type RecordingCodecs } from '../../sim/record/codecs';
import { bytesSource, MemorySink } from '../../sim/record/io';
import { RecordingReader } from '../../sim/record/reader';
import { seekWorld } from '../../sim/record/replay';
import type { RecordingHeader } from '../../sim/record/writer';
import { BUILD_ID, RecordSession, replayable } from '../../sim/record-session';
import { buildVehicleScene, vehicleSceneWorldSpec, wheelLayout, type VehicleScene } from './vehicle/scene';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const DT = 1 / 240;
const WHEELS = 6;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

function makeWorld(scene: VehicleScene): DynamicsWorld {
  return createDynamicsWorld(vehicleSceneWorldSpec(scene, WHEELS, { dt: DT }), scene.terrain);
}

function header(world: DynamicsWorld, scene: VehicleScene): RecordingHeader {
  const spec = world.spec;
  const bodies = [...spec.bodies, ...(spec.robot?.bodies ?? [])].map((b) => ({ name: b.name, shape: b.shape }));
  const names = bodies.map((b) => b.name);
  const t = scene.terrain;
  return {
    scenario: { name: 'vehicle bench' },
    scenarioName: 'vehicle bench',
    buildId: BUILD_ID,
    dt: DT,
    bodies,
    wheels: wheelLayout(WHEELS).map((w) => names.indexOf(w.name)),
    terrain: { cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0, y0: t.y0, heights: t.heights },
  };
}

function recordable(world: DynamicsWorld) {
  return {
    engine: world,
    dt: world.dt,
    get stepCount() {
      return world.stepCount;
    },
    get scriptActive() {
      return world.scriptActive;
    },
  };
}

/** Steps a fresh world `steps` times, recording when `codecs` is given; returns ms and bytes. */
async function runOnce(scene: VehicleScene, steps: number, codecs: RecordingCodecs | null): Promise<{ ms: number; bytes: Uint8Array | null }> {
  const world = makeWorld(scene);
  let session: RecordSession | null = null;
  let sink: MemorySink | null = null;
  const t0 = performance.now();
  if (codecs) {
    sink = new MemorySink();
    session = await RecordSession.startWith(recordable(world), header(world, scene), sink, codecs);
  }
  for (let s = 0; s < steps; s++) {
    world.step(1);
    if (session) {
      session.afterStep();
      if (session.backlogged) await session.drain();
    }
  }
  if (session) await session.stop();
  return { ms: performance.now() - t0, bytes: sink ? sink.bytes() : null };
}

export default async function run(ctx: BenchContext): Promise<void> {
  const codecs = await loadCodecs();
  const scene = buildVehicleScene();
  const seconds = ctx.quick ? 5 : 20;
  const steps = Math.round(seconds / DT);
  const runs = ctx.quick ? 1 : 5;
  console.log(`\nRecording overhead, vehicle scene (${WHEELS} wheels, ${scene.rocks.length} rocks, dt 1/240 s), ${seconds} s simulated per run, median of ${runs}; load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores\n`);
  await runOnce(scene, Math.round(2 / DT), null); // warm-up
  await runOnce(scene, Math.round(2 / DT), codecs);
  const plain: number[] = [];
  const rec: number[] = [];
  let bytes = 0;
  for (let k = 0; k < runs; k++) {
    // alternate, so a change in machine load hits both alike
    plain.push((await runOnce(scene, steps, null)).ms);
    const r = await runOnce(scene, steps, codecs);
    rec.push(r.ms);
    bytes = r.bytes!.length;
  }
  const sp = steps / (median(plain) / 1000);
  const sr = steps / (median(rec) / 1000);
  console.log('| run | steps/s (median) | overhead | bytes per simulated minute |');
  console.log('|---|---:|---:|---:|');
  console.log(`| without recording | ${Math.round(sp)} | | |`);
  console.log(`| recording (RecordSession → memory) | ${Math.round(sr)} | ${((sp / sr - 1) * 100).toFixed(1)} % | ${((bytes * 60) / seconds / 1e6).toFixed(2)} MB |`);

  // Open and seek in a long recording.
  const minutes = Number(process.env.RECORD_WORLD_MINUTES ?? (ctx.quick ? 1 : 10));
  const long = await runOnce(scene, Math.round((minutes * 60) / DT), codecs);
  const file = long.bytes!;
  const opens: number[] = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const r = await RecordingReader.open(bytesSource(file), { codecs });
    await r.frameAt(r.info.firstStep);
    opens.push(performance.now() - t0);
  }
  const reader = await RecordingReader.open(bytesSource(file), { codecs });
  const world = makeWorld(scene);
  const rw = replayable(world);
  const rng = new Rng(16);
  const seeks: number[] = [];
  for (let k = 0; k < 50; k++) {
    const target = rng.int(0, reader.info.lastStep);
    const t0 = performance.now();
    await seekWorld(reader, rw, target);
    await reader.frameAt(target);
    seeks.push(performance.now() - t0);
  }
  console.log(`\n${minutes}-minute recording: ${(file.length / 1e6).toFixed(1)} MB (${reader.info.keyframeSteps.length} keyframes); open to first frame ${median(opens).toFixed(0)} ms (median of 5); exact seek (keyframe + re-simulation + frame) median ${median(seeks).toFixed(0)} ms, p95 ${pct(seeks, 0.95).toFixed(0)} ms, max ${Math.max(...seeks).toFixed(0)} ms (50 seeded steps)\n`);
}
