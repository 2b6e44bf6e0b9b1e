/**
 * [s] CPU time of the calling thread, for the sweep's per-run timings (summary.json): on Linux the
 * scheduler's own count in nanoseconds (/proc/thread-self/schedstat, first field), elsewhere the
 * whole process's user + system time (then a pool's threads count each other's time). A thread's
 * own CPU time against its wall time tells how much of a run's wall time other processes on a
 * shared machine took (test/bench/sweep.bench.ts). Updated at scheduler ticks (a few ms): fine
 * for runs of tenths of a second and more.
 */
import { readFileSync } from 'node:fs';

export const threadCpuSeconds: () => number = (() => {
  const file = '/proc/thread-self/schedstat';
  try {
    const ns = (): number => Number(readFileSync(file, 'latin1').split(' ')[0]);
    if (ns() > 0) return () => ns() / 1e9; // false for NaN too
  } catch {
    // not Linux: the process time below
  }
  return () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
})();
