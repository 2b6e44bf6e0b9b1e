/**
 * Runs the standard vehicle scene (scene.ts) in one engine and measures it the same way for all:
 *
 *   rtf        simulated seconds per wall-clock second of stepping (setup excluded, sampling
 *              excluded: each step() is timed alone, the measurements below happen between the
 *              timed calls); the median over `repeats` fresh setups. rtfCpu: the same from the
 *              CPU time of this thread (robust on a shared machine; see threadCpuSeconds).
 *   msPerStep  wall-clock milliseconds per step (median run).
 *   sinkage    after every step, for every wheel: the deepest contact of our exact
 *              cylinder–terrain query (collideCylinderTerrainInto, validated against a
 *              brute-force oracle) between the engine's wheel cylinder (centre + axis, the
 *              scene's r and width) and the exact terrain; 0 when the wheel is off the ground.
 *              Mean, p95 and max over all wheel-steps (in metres here, mm in the table).
 *   rocksBelow rocks whose centre ends below the terrain height at its (x, y), i.e. sunk
 *              deeper than their half-size, plus rocks that left the map or became non-finite.
 *   distance   horizontal distance between the chassis centre's start and end positions.
 *
 * Sinkage, rocks and distance are taken from the first run (every engine here is
 * deterministic run to run); the timing from all runs.
 */
import { readFileSync } from 'node:fs';
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import type { Vec3 } from '../../../sim/math/vec3';
import type { VehicleScene, WheelCount } from './scene';

/** Floats per wheel in wheelPoses' output: centre xyz, unit axle axis xyz (world). */
export const WHEEL_POSE_STRIDE = 6;
/** Floats per body pose: position xyz, quaternion xyzw (world). */
export const BODY_POSE_STRIDE = 7;

/**
 * One engine simulating the scene. setup() builds a fresh world (called once per run, after
 * dispose() of the previous one); step() advances one fixed step of the dt given to setup.
 * Wheels and rocks are reported in the order of wheelStarts(scene, wheels) and scene.rocks.
 */
export interface VehicleRunner {
  /** Row label in the table. */
  readonly name: string;
  /** One line: how the engine was configured (printed under the table). */
  readonly description: string;
  setup(scene: VehicleScene, wheels: WheelCount, dt: number): void | Promise<void>;
  step(): void;
  /** Chassis body origin and orientation: BODY_POSE_STRIDE floats into `out`. */
  chassisPose(out: Float64Array): void;
  /** Per wheel: centre and unit axle direction, WHEEL_POSE_STRIDE floats each. */
  wheelPoses(out: Float64Array): void;
  /** Per rock: body origin (its centroid) and orientation, BODY_POSE_STRIDE floats each. */
  rockPoses(out: Float64Array): void;
  dispose(): void;
  /**
   * Optional (ours): cumulative [ms] per stage of step() since setup, e.g. { broad, narrow,
   * solve, integrate }. The harness reports the per-step mean of each over the first timed run.
   */
  stepSplit?(): Record<string, number>;
  /** Optional: a user's script between steps (reads, untimed), called after every step. */
  afterStep?(): void;
}

export interface VehicleRunOptions {
  wheels: WheelCount;
  /** [s] */
  dt: number;
  /** [s] simulated time per run. */
  seconds: number;
  /** Fresh runs; the timing is their median. */
  repeats: number;
  /**
   * [s] simulated in one untimed run before the timed ones (default 0): wasm engines start in
   * V8's baseline tier and JS in the interpreter; measured, Rapier's first 10 s run took 5× the
   * wall time of the next two.
   */
  warmupSeconds?: number;
}

export interface VehicleRunResult {
  name: string;
  wheels: WheelCount;
  dt: number;
  steps: number;
  /** Median real-time factor (wall clock of step() calls). */
  rtf: number;
  /** Real-time factor of every run, in order. */
  rtfRuns: number[];
  /** Median real-time factor by this thread's CPU time. */
  rtfCpu: number;
  /** [ms] per step, median run. */
  msPerStep: number;
  /** [m] */
  sinkMean: number;
  sinkP95: number;
  sinkMax: number;
  /** Share of wheel-steps with a contact deeper than 0. */
  contactShare: number;
  rocksBelow: number;
  /** [m] */
  distance: number;
  /** [m] Chassis end position. */
  end: [number, number, number];
  /** A pose came back non-finite (the run stopped there). */
  diverged: boolean;
  /** [s] Wall time of setup(), median. */
  setupSeconds: number;
  /** [ms] per step and stage, first timed run, when the runner has stepSplit(). */
  split: Record<string, number> | null;
}

/** Contacts per query: a wheel gives a few normal groups of ≤ 4 points. */
const SINK_OUTPUT_CAPACITY = 64;

/**
 * [s] CPU time of the calling thread (Linux: /proc/thread-self/schedstat, updated at scheduler
 * ticks, so only meaningful over runs much longer than a few ms); elsewhere the process's.
 */
export const threadCpuSeconds = ((): (() => number) => {
  const file = '/proc/thread-self/schedstat';
  try {
    const ns = (): number => Number(readFileSync(file, 'latin1').split(' ')[0]);
    if (ns() > 0) return () => ns() / 1e9;
  } catch {
    // not Linux
  }
  return () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
})();

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Deepest contact of the exact wheel cylinder with the exact terrain (0 when none). */
export class SinkageProbe {
  private readonly out = new ContactBuffer(SINK_OUTPUT_CAPACITY);
  private readonly ws = new CylinderTerrainWorkspace();
  private readonly center: Vec3 = [0, 0, 0];
  private readonly axis: Vec3 = [0, 0, 1];
  private readonly size: { radius: number; halfHeight: number };

  constructor(private readonly scene: VehicleScene) {
    this.size = { radius: scene.wheel.radius, halfHeight: scene.wheel.width / 2 };
  }

  /** Depth of wheel `k` of a wheelPoses buffer; NaN if the pose is not finite. */
  depth(poses: Float64Array, k: number): number {
    const o = k * WHEEL_POSE_STRIDE;
    const c = this.center, a = this.axis;
    c[0] = poses[o]; c[1] = poses[o + 1]; c[2] = poses[o + 2];
    const l = Math.hypot(poses[o + 3], poses[o + 4], poses[o + 5]);
    a[0] = poses[o + 3] / l; a[1] = poses[o + 4] / l; a[2] = poses[o + 5] / l;
    if (!(Number.isFinite(c[0] + c[1] + c[2]) && Number.isFinite(a[0] + a[1] + a[2]))) return NaN;
    this.out.clear();
    collideCylinderTerrainInto(this.out, c, a, this.size, this.scene.terrain, this.ws);
    let d = 0;
    for (let i = 0; i < this.out.count; i++) if (this.out.depth[i] > d) d = this.out.depth[i];
    return d;
  }
}

/** Rocks below the surface (see the header) from a rockPoses buffer. */
export function countRocksBelow(scene: VehicleScene, poses: Float64Array): number {
  const hf = scene.terrain;
  let below = 0;
  for (let k = 0; k < scene.rocks.length; k++) {
    const o = k * BODY_POSE_STRIDE;
    const x = poses[o], y = poses[o + 1], z = poses[o + 2];
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) || !hf.contains(x, y) || z < hf.heightAt(x, y)) below++;
  }
  return below;
}

interface OneRun {
  stepSeconds: number;
  cpuSeconds: number;
  setupSeconds: number;
  steps: number;
  sink: Float64Array;
  sinkCount: number;
  rocksBelow: number;
  distance: number;
  end: [number, number, number];
  diverged: boolean;
  split: Record<string, number> | null;
}

async function runOnce(runner: VehicleRunner, scene: VehicleScene, opts: VehicleRunOptions, probe: SinkageProbe): Promise<OneRun> {
  const wheels = opts.wheels;
  const steps = Math.round(opts.seconds / opts.dt);
  const t0 = performance.now();
  await runner.setup(scene, wheels, opts.dt);
  const setupSeconds = (performance.now() - t0) / 1000;
  const chassis = new Float64Array(BODY_POSE_STRIDE);
  const wheelBuf = new Float64Array(wheels * WHEEL_POSE_STRIDE);
  const rockBuf = new Float64Array(scene.rocks.length * BODY_POSE_STRIDE);
  const sink = new Float64Array(steps * wheels);
  runner.chassisPose(chassis);
  const x0 = chassis[0], y0 = chassis[1];
  let stepMs = 0;
  let sampleMs = 0;
  let n = 0;
  let diverged = false;
  const split0 = runner.stepSplit ? { ...runner.stepSplit() } : null;
  const c0 = threadCpuSeconds();
  for (let s = 0; s < steps; s++) {
    const a = performance.now();
    runner.step();
    const b = performance.now();
    stepMs += b - a;
    runner.wheelPoses(wheelBuf);
    for (let k = 0; k < wheels; k++) {
      const d = probe.depth(wheelBuf, k);
      if (Number.isNaN(d)) diverged = true;
      sink[n++] = d;
    }
    runner.afterStep?.();
    sampleMs += performance.now() - b;
    if (diverged) break;
  }
  const cpu = threadCpuSeconds() - c0;
  let split: Record<string, number> | null = null;
  if (split0 && runner.stepSplit) {
    split = {};
    const taken = Math.max(1, diverged ? Math.ceil(n / wheels) : steps);
    for (const [stage, ms] of Object.entries(runner.stepSplit())) split[stage] = (ms - (split0[stage] ?? 0)) / taken;
  }
  runner.chassisPose(chassis);
  runner.rockPoses(rockBuf);
  const rocksBelow = countRocksBelow(scene, rockBuf);
  runner.dispose();
  // The thread's CPU time covers stepping and sampling: give stepping its wall-clock share.
  const cpuSeconds = stepMs + sampleMs > 0 ? (cpu * stepMs) / (stepMs + sampleMs) : 0;
  return {
    stepSeconds: stepMs / 1000,
    cpuSeconds,
    setupSeconds,
    steps: diverged ? Math.ceil(n / wheels) : steps,
    sink,
    sinkCount: diverged ? n - wheels : n,
    rocksBelow,
    distance: Math.hypot(chassis[0] - x0, chassis[1] - y0),
    end: [chassis[0], chassis[1], chassis[2]],
    diverged: diverged || !Number.isFinite(chassis[0] + chassis[1] + chassis[2]),
    split,
  };
}

/** Runs the scene `repeats` times (fresh setup each) and summarises (see the header). */
export async function runVehicleScene(runner: VehicleRunner, scene: VehicleScene, opts: VehicleRunOptions): Promise<VehicleRunResult> {
  if (!(opts.repeats >= 1)) throw new Error(`repeats must be >= 1, got ${opts.repeats}`);
  if (!(opts.dt > 0) || !(opts.seconds > 0)) throw new Error(`dt and seconds must be > 0, got ${opts.dt}, ${opts.seconds}`);
  const probe = new SinkageProbe(scene);
  const warmup = opts.warmupSeconds ?? 0;
  if (warmup > 0) await runOnce(runner, scene, { ...opts, seconds: warmup }, probe);
  const runs: OneRun[] = [];
  for (let r = 0; r < opts.repeats; r++) runs.push(await runOnce(runner, scene, opts, probe));
  const first = runs[0];
  const rtfRuns = runs.map((r) => (r.steps * opts.dt) / r.stepSeconds);
  const sorted = Array.from(first.sink.subarray(0, first.sinkCount)).sort((a, b) => a - b);
  let sum = 0;
  let inContact = 0;
  for (const d of sorted) {
    sum += d;
    if (d > 0) inContact++;
  }
  const cnt = Math.max(1, sorted.length);
  return {
    name: runner.name,
    wheels: opts.wheels,
    dt: opts.dt,
    steps: first.steps,
    rtf: median(rtfRuns),
    rtfRuns,
    rtfCpu: median(runs.map((r) => (r.steps * opts.dt) / r.cpuSeconds)),
    msPerStep: median(runs.map((r) => (r.stepSeconds * 1000) / r.steps)),
    sinkMean: sum / cnt,
    sinkP95: sorted.length > 0 ? sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] : 0,
    sinkMax: sorted.length > 0 ? sorted[sorted.length - 1] : 0,
    contactShare: inContact / cnt,
    rocksBelow: first.rocksBelow,
    distance: first.distance,
    end: first.end,
    diverged: first.diverged,
    setupSeconds: median(runs.map((r) => r.setupSeconds)),
    split: first.split,
  };
}
