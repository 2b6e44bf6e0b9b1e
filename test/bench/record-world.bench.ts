/**
 * Recording on the standard vehicle scene (test/bench/vehicle/: the six-wheeled rover on the
 * seeded rough terrain with 100 rocks, dt = 1/240 s), through RecordSession exactly as the
 * service records (every step: keyframe when due, frame, Foxglove channels at 30 Hz; zstd; 1 MiB
 * chunks) into memory.
 *
 * Reports:
 *  1. the standard scene as the vehicle bench runs it (every motor at 5 rad/s from the start: the
 *     rover ploughs straight through the rock strip): steps/s without and with recording over
 *     20 s runs (median of 5, taken in turns) and bytes per simulated minute, and apart the
 *     process's first such pair (the encoder worker starts cold in it);
 *  2. a 10-minute run of the driven scene (drive-loop.ts: the rover as a skid-steer robot that a
 *     circle follower keeps on a 5 m circle inside the map through setDrive inputs, recorded):
 *     steps/s without and with recording over the whole run, file size, MB per simulated minute,
 *     how far the rover got from the origin;
 *  3. that file: time to open it to its first frame, and exact seek (keyframe + re-simulation,
 *     seekWorld, then the frame) to 50 seeded steps: median, p95.
 * The recorder's encoder runs in a worker thread (sim/node/record-thread.ts) unless
 * RECORD_WORLD_ENCODER=sync. Besides wall-clock steps/s, each part reports the stepping thread's
 * CPU time per step (Linux schedstat: leaves out waiting for a core), the median time of
 * `afterStep` (the capture) and how often the stepping thread waited for a capture buffer.
 * `--quick`: 5 s runs, 1 minute; RECORD_WORLD_MINUTES=n sets the long run's length;
 * RECORD_WORLD_PARTS=1 or 2 runs one part only (3 always follows 2); RECORD_WORLD_KEYFRAME=n sets
 * the keyframe interval.
 *
 * Run: `npm run bench -- record-world` (or `-- --quick record-world`).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createDynamicsWorld } from '../../sim/dynamics/build';
import { robotDriveController } from '../../sim/robot/controllers/world-drive';
import type { DynamicsWorld } from '../../sim/dynamics/world';
import { Rng } from '../../sim/math/random';
import { loadCodecs, type RecordingCodecs } from '../../sim/record/codecs';
import { bytesSource, MemorySink } from '../../sim/record/io';
import { RecordingReader } from '../../sim/record/reader';
import { seekWorld } from '../../sim/record/replay';
import type { RecordingHeader } from '../../sim/record/writer';
import { nodeEncoderThread } from '../../sim/node/record-thread';
import { BUILD_ID, RecordSession, replayable } from '../../sim/app/record-session';
import { CIRCLE_RADIUS, CircleDriver, vehicleSceneDrivenSpec } from './vehicle/drive-loop';
import { buildVehicleScene, vehicleSceneWorldSpec, wheelLayout, type VehicleScene } from './vehicle/scene';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const DT = 1 / 240;
/** RECORD_WORLD_ENCODER=sync: encode in the stepping thread (default: an encoder worker thread). */
const THREADED = process.env.RECORD_WORLD_ENCODER !== 'sync';
/** RECORD_WORLD_KEYFRAME=n: keyframe interval in steps (default: the writer's). */
const KEYFRAME_INTERVAL = process.env.RECORD_WORLD_KEYFRAME ? Number(process.env.RECORD_WORLD_KEYFRAME) : undefined;
const WHEELS = 6;

/**
 * [ms] CPU time of the calling thread so far (Linux: /proc/thread-self/schedstat, ns); NaN
 * elsewhere. Unlike wall time it leaves out the time the thread waited for a core, so it shows
 * what recording costs the stepping thread itself on a loaded machine.
 */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

function makeWorld(scene: VehicleScene, driven: boolean): DynamicsWorld {
  const spec = driven ? vehicleSceneDrivenSpec(scene, WHEELS, { dt: DT }) : vehicleSceneWorldSpec(scene, WHEELS, { dt: DT });
  return createDynamicsWorld(spec, scene.terrain, robotDriveController);
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

/** A fresh world being stepped (driven: the circle follower's inputs), recording when `codecs` is given. */
class Run {
  readonly world: DynamicsWorld;
  private readonly driver: CircleDriver | null;
  private readonly chassis: number;
  private session: RecordSession | null = null;
  private sink: MemorySink | null = null;
  private readonly codecs: RecordingCodecs | null;
  private readonly scene: VehicleScene;
  ms = 0;
  /** [ms] CPU time of the stepping thread in `advance` and `finish`. */
  cpuMs = 0;
  /** [ms] Starting the recording (header; the encoder thread), not in `ms`. */
  startMs = 0;
  /** [ms] Time in RecordSession.afterStep / input (the stepping thread's share of recording). */
  captureMs = 0;
  /** [µs] afterStep of each step (the median leaves out the steps where the thread was descheduled). */
  private readonly perStep: number[] = [];
  get captureMedianUs(): number {
    return median(this.perStep);
  }
  reach = 0;
  /** Times the stepping thread waited for the encoder thread (and for how long). */
  stalls = '';
  private readonly send = (throttle: number, steer: number): void => {
    this.world.setDrive(throttle, steer, 'user');
    this.session?.input(throttle, steer);
  };

  constructor(scene: VehicleScene, codecs: RecordingCodecs | null, driven: boolean) {
    this.scene = scene;
    this.codecs = codecs;
    this.world = makeWorld(scene, driven);
    this.driver = driven ? new CircleDriver(this.world) : null;
    this.chassis = this.world.bodies.names.indexOf('chassis');
  }

  /** Steps `n` times (the first call also starts the recording); the time adds to `ms`. */
  async advance(n: number): Promise<void> {
    const world = this.world;
    if (this.codecs && this.session === null) {
      // Starting the encoder thread (in this dev setup: tsx compiles its modules) is timed apart.
      const s0 = performance.now();
      this.sink = new MemorySink();
      this.session = await RecordSession.startWith(recordable(world), header(world, this.scene), this.sink, this.codecs, { keyframeInterval: KEYFRAME_INTERVAL }, THREADED ? { thread: nodeEncoderThread } : {});
      this.startMs = performance.now() - s0;
    }
    const t0 = performance.now();
    const cpu0 = threadCpuMs();
    const session = this.session;
    for (let s = 0; s < n && world.fault === null; s++) {
      this.driver?.update(world, this.send);
      world.step(1);
      if (session) {
        const c0 = performance.now();
        session.afterStep();
        const dc = performance.now() - c0;
        this.captureMs += dc;
        this.perStep.push(dc * 1000);
        if (session.backlogged) await session.drain();
      }
    }
    this.reach = Math.max(this.reach, Math.abs(world.bodies.pos[3 * this.chassis]), Math.abs(world.bodies.pos[3 * this.chassis + 1]));
    this.ms += performance.now() - t0;
    this.cpuMs += threadCpuMs() - cpu0;
  }

  /** Stops the recording (timed); the file, or null without recording. */
  async finish(): Promise<Uint8Array | null> {
    const t0 = performance.now();
    const cpu0 = threadCpuMs();
    if (this.session) {
      await this.session.stop();
      const st = this.session.stalls;
      this.stalls = `${st.waits} waits, ${st.waitMs.toFixed(0)} ms`;
    }
    this.ms += performance.now() - t0;
    this.cpuMs += threadCpuMs() - cpu0;
    return this.sink ? this.sink.bytes() : null;
  }
}

/** Steps in turns of this many steps (1 s), so a change in machine load hits both runs alike. */
const TURN_STEPS = 240;

/**
 * A run without and a run with recording of the same world, stepped in turns of TURN_STEPS in
 * one process: each run's time is the sum of its turns (the recording's includes starting and
 * closing the file).
 */
async function pair(scene: VehicleScene, steps: number, codecs: RecordingCodecs, driven: boolean): Promise<{ plain: Run; rec: Run; bytes: Uint8Array }> {
  const plain = new Run(scene, null, driven);
  const rec = new Run(scene, codecs, driven);
  for (let s = 0; s < steps; s += TURN_STEPS) {
    const n = Math.min(TURN_STEPS, steps - s);
    if ((s / TURN_STEPS) % 2 === 0) {
      await plain.advance(n);
      await rec.advance(n);
    } else {
      await rec.advance(n);
      await plain.advance(n);
    }
  }
  await plain.finish();
  const bytes = (await rec.finish())!;
  return { plain, rec, bytes };
}

function faultNote(r: Run): string {
  return r.world.fault ? ` (fault: ${r.world.fault.reason})` : '';
}

export default async function run(ctx: BenchContext): Promise<void> {
  const codecs = await loadCodecs();
  const scene = buildVehicleScene();
  const load0 = loadavg()[0];
  console.log(`\nRecording on the vehicle scene (${WHEELS} wheels, ${scene.rocks.length} rocks, dt 1/240 s); load average ${load0.toFixed(2)} on ${cpus().length} cores\n`);
  // RECORD_WORLD_PARTS=1 (or 2, or 1,2): run only those parts (part 3 needs part 2's file).
  const parts = (process.env.RECORD_WORLD_PARTS ?? '1,2').split(',');
  if (parts.includes('1')) await standardScene(scene, codecs, ctx);
  if (parts.includes('2')) await drivenRun(scene, codecs, ctx);
}

async function standardScene(scene: VehicleScene, codecs: RecordingCodecs, ctx: BenchContext): Promise<void> {
  const seconds = ctx.quick ? 5 : 20;
  const steps = Math.round(seconds / DT);
  const runs = ctx.quick ? 1 : 5;
  // Warm up the stepping code without recording; then the process's first recording, which
  // starts the encoder worker (sim/node/record-thread.ts keeps it for the next ones) and compiles
  // its code while this pair runs: measured apart.
  await new Run(scene, null, false).advance(Math.round(10 / DT));
  const cold = await pair(scene, steps, codecs, false);
  const coldOverhead = (cold.rec.ms / cold.plain.ms - 1) * 100;
  const coldCpu = (cold.rec.cpuMs / cold.plain.cpuMs - 1) * 100;
  const plain: number[] = [];
  const rec: number[] = [];
  const plainCpu: number[] = [];
  const recCpu: number[] = [];
  let bytes = 0;
  const stalls: string[] = [];
  for (let k = 0; k < runs; k++) {
    const p = await pair(scene, steps, codecs, false);
    plain.push(p.plain.ms);
    rec.push(p.rec.ms);
    plainCpu.push(p.plain.cpuMs);
    recCpu.push(p.rec.cpuMs);
    bytes = p.bytes.length;
    stalls.push(`${p.rec.stalls}, afterStep mean ${((p.rec.captureMs * 1000) / steps).toFixed(1)} µs, median ${p.rec.captureMedianUs.toFixed(1)} µs, start ${p.rec.startMs.toFixed(0)} ms`);
  }
  const sp = steps / (median(plain) / 1000);
  const sr = steps / (median(rec) / 1000);
  console.log(`1. Standard scene, rover straight through the rocks, ${seconds} s simulated per run, median of ${runs}, the two runs in turns of 1 s, encoder ${THREADED ? 'in a worker thread' : 'in the stepping thread'} (load average ${loadavg()[0].toFixed(2)}; stepping thread waited for the encoder: ${stalls.join('; ')})\n`);
  console.log('| run | steps/s (median) | overhead | bytes per simulated minute |');
  console.log('|---|---:|---:|---:|');
  console.log(`| without recording | ${Math.round(sp)} | | |`);
  console.log(`| recording (RecordSession → memory) | ${Math.round(sr)} | ${((sp / sr - 1) * 100).toFixed(1)} % | ${((bytes * 60) / seconds / 1e6).toFixed(2)} MB |`);
  console.log(`| the process's first recording (encoder worker cold; one pair, before the others) | ${Math.round(steps / (cold.rec.ms / 1000))} (without: ${Math.round(steps / (cold.plain.ms / 1000))}) | ${coldOverhead.toFixed(1)} % (CPU ${coldCpu.toFixed(1)} %) | |`);
  const cp = (median(plainCpu) * 1000) / steps, cr = (median(recCpu) * 1000) / steps;
  console.log(`\nStepping thread CPU time per step (median of ${runs}): ${cp.toFixed(0)} µs without, ${cr.toFixed(0)} µs recording: ${(cr - cp).toFixed(1)} µs for recording, ${((cr / cp - 1) * 100).toFixed(1)} %`);
}

async function drivenRun(scene: VehicleScene, codecs: RecordingCodecs, ctx: BenchContext): Promise<void> {
  const minutes = Number(process.env.RECORD_WORLD_MINUTES ?? (ctx.quick ? 1 : 10));
  const longSteps = Math.round((minutes * 60) / DT);
  const { plain, rec, bytes: file } = await pair(scene, longSteps, codecs, true);
  const lsp = plain.world.stepCount / (plain.ms / 1000);
  const lsr = rec.world.stepCount / (rec.ms / 1000);
  console.log(`\n2. Driven scene (circle of ${CIRCLE_RADIUS} m), ${minutes} simulated minutes, the two runs in turns of 1 s, encoder ${THREADED ? 'in a worker thread' : 'in the stepping thread'} (load average ${loadavg()[0].toFixed(2)}; stepping thread waited for the encoder: ${rec.stalls}, afterStep mean ${((rec.captureMs * 1000) / rec.world.stepCount).toFixed(1)} µs, median ${rec.captureMedianUs.toFixed(1)} µs, start ${rec.startMs.toFixed(0)} ms)\n`);
  console.log('| run | steps | steps/s | overhead | file | MB per simulated minute | farthest abs(x) or abs(y) of the chassis |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  console.log(`| without recording | ${plain.world.stepCount} | ${Math.round(lsp)} | | | | ${plain.reach.toFixed(1)} m${faultNote(plain)} |`);
  console.log(`| recording | ${rec.world.stepCount} | ${Math.round(lsr)} | ${((lsp / lsr - 1) * 100).toFixed(1)} % | ${(file.length / 1e6).toFixed(1)} MB | ${((file.length * 60) / (rec.world.stepCount * DT) / 1e6).toFixed(2)} | ${rec.reach.toFixed(1)} m${faultNote(rec)} |`);

  const cp = (plain.cpuMs * 1000) / plain.world.stepCount, cr = (rec.cpuMs * 1000) / rec.world.stepCount;
  console.log(`\nStepping thread CPU time per step: ${cp.toFixed(0)} µs without, ${cr.toFixed(0)} µs recording: ${(cr - cp).toFixed(1)} µs for recording, ${((cr / cp - 1) * 100).toFixed(1)} %`);

  // Open and seek in the long recording.
  const opens: number[] = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const r = await RecordingReader.open(bytesSource(file), { codecs });
    await r.frameAt(r.info.firstStep);
    opens.push(performance.now() - t0);
  }
  const reader = await RecordingReader.open(bytesSource(file), { codecs });
  const world = makeWorld(scene, true);
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
  console.log(`\n3. The ${minutes}-minute file: ${(file.length / 1e6).toFixed(1)} MB, ${reader.info.keyframeSteps.length} keyframes, ${reader.info.chunkCount} chunks; open to first frame ${median(opens).toFixed(0)} ms (median of 5); exact seek (keyframe + re-simulation + frame) median ${median(seeks).toFixed(0)} ms, p95 ${pct(seeks, 0.95).toFixed(0)} ms, max ${Math.max(...seeks).toFixed(0)} ms (50 seeded steps); load average ${loadavg()[0].toFixed(2)}\n`);
}
