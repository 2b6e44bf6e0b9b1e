/**
 * Worker thread of test/bench/cylinder.bench.ts: times the production bundle of the wheel query
 * alone in its own V8 isolate, as the app's simulation worker runs it (one copy of the engine,
 * nothing else compiled beside it). Plain JavaScript: it runs without tsx.
 *
 * workerData: { bundle (file URL of the esbuild bundle), terrain { cols, rows, dx, dy, x0, y0,
 * heights (Float64Array) }, poses [{ center, axis, radius, height }], runs, warmup, minPassSeconds }.
 * Posts back { wall, cpu }: queries per wall-clock second and per CPU-second of this thread,
 * each the median of `runs` timed passes (the same rules as the bench's own throughput()).
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { bundle, terrain, poses, runs, warmup, minPassSeconds } = workerData;
const m = await import(bundle);

/** [s] CPU time of this thread (Linux: /proc/thread-self/schedstat), else the process's. */
function threadCpuSeconds() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e9;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  }
}

const hf = m.Heightfield.fromArray(terrain);
const out = new m.ContactBuffer(256);
const ws = new m.CylinderTerrainWorkspace();
const size = { radius: 0.5, halfHeight: 0.5 };
const collide = m.collideCylinderTerrainInto;
let sink = 0;
function query(p) {
  out.clear();
  size.radius = p.radius;
  size.halfHeight = p.height / 2;
  collide(out, p.center, p.axis, size, hf, ws);
  sink += out.count;
}

let seconds = 0;
for (let r = 0; r < warmup; r++) {
  const t0 = performance.now();
  for (const p of poses) query(p);
  seconds = (performance.now() - t0) / 1000;
}
const reps = Math.max(1, Math.ceil(minPassSeconds / Math.max(seconds, 1e-6)));
const wall = [];
const cpu = [];
for (let r = 0; r < runs; r++) {
  const c0 = threadCpuSeconds();
  const t0 = performance.now();
  for (let k = 0; k < reps; k++) for (const p of poses) query(p);
  const dt = performance.now() - t0;
  const dc = threadCpuSeconds() - c0;
  wall.push((reps * poses.length) / (dt / 1000));
  cpu.push((reps * poses.length) / dc);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
parentPort.postMessage({ wall: median(wall), cpu: median(cpu), contacts: sink });
