/**
 * Timed passes for the benchmarks, in plain JavaScript so that a worker thread can load it
 * without tsx (test/bench/cylinder-bundle-worker.mjs); the TypeScript benches import it too
 * (types in pass-timer.d.mts).
 */
import { readFileSync } from 'node:fs';

/**
 * [s] CPU time of the calling thread: on Linux the scheduler's own count in nanoseconds
 * (/proc/thread-self/schedstat, first field), elsewhere the whole process's user + system time.
 * The thread's own time because V8's helper threads (concurrent marking and sweeping, the
 * memory reducer, background compilation) run beside the queries on another core: measured with
 * the process's time, passes of identical wall time differed by up to 1.5 µs per wheel query.
 * The count is only brought up to date at scheduler ticks (every 4 ms on the development
 * machine), so a timed pass lasts at least MIN_PASS_SECONDS.
 */
export const threadCpuSeconds = (() => {
  const file = '/proc/thread-self/schedstat';
  try {
    const ns = () => Number(readFileSync(file, 'latin1').split(' ')[0]);
    if (ns() > 0) return () => ns() / 1e9; // false for NaN too
  } catch {
    // not Linux: the process time below
  }
  return () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
})();

/**
 * [s] Shortest timed pass: the item set is repeated until a pass lasts this long (the thread's
 * CPU time moves in 4 ms steps: ±0.4 % at 1 s).
 */
export const MIN_PASS_SECONDS = 1;

/**
 * Items per second: the median of `runs` timed passes after `warmup` untimed passes over
 * `items`, by wall clock (`wall`) and by the calling thread's CPU time (`cpu`). A timed pass
 * repeats the set as often as the last untimed pass says it takes to last MIN_PASS_SECONDS.
 */
export function passRates(items, query, runs, warmup) {
  let seconds = 0;
  for (let r = 0; r < warmup; r++) {
    const t0 = performance.now();
    for (const item of items) query(item);
    seconds = (performance.now() - t0) / 1000;
  }
  const reps = Math.max(1, Math.ceil(MIN_PASS_SECONDS / Math.max(seconds, 1e-6)));
  const wall = [];
  const cpu = [];
  for (let r = 0; r < runs; r++) {
    const c0 = threadCpuSeconds();
    const t0 = performance.now();
    for (let k = 0; k < reps; k++) for (const item of items) query(item);
    const dt = performance.now() - t0;
    const dc = threadCpuSeconds() - c0;
    wall.push((reps * items.length) / (dt / 1000));
    cpu.push((reps * items.length) / dc);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return { wall: median(wall), cpu: median(cpu) };
}
