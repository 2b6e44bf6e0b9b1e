/**
 * Sweep throughput (issue #31): runs per minute of `terrawheel sweep` for 100 runs of the standard
 * rover (assets/scenarios/default.json, 10 s of simulated time each, start heading jittered per
 * replicate so the runs differ) with 1 and 2 workers, the median of 3 sweeps each (--quick: 10
 * runs, 1 sweep each).
 *
 * The machine this project measures on is shared (2 cores, other jobs running), so wall time
 * alone mixes the pool's scaling with other processes' load. Each run is also timed inside the
 * thread that ran it (summary.json's runTimes, sim/node/thread-cpu.ts): its CPU time against its
 * wall time shows how much of a core it actually got. Three efficiencies are printed:
 *   - wall:   rate(2) / (2 · rate(1)), the plain measure (what a user sees on this machine now);
 *   - cpu:    cpu-per-run(1) / cpu-per-run(2), what running beside a sibling thread costs a run
 *             in CPU time (shared caches, memory bandwidth, V8's helper threads), independent of
 *             other processes' load as long as the thread runs at all;
 *   - pool busy: the sum of run wall times over (workers × sweep wall time), how busy the pool
 *             kept its threads (start-up and the driver's own work are the rest).
 * And the driver thread's CPU time per run (handing out tasks, writing row files), which bounds
 * how many workers one driver can feed on a bigger machine.
 * The load average before each sweep is printed beside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir, availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { runSweep } from '../../sim/node/sweep';
import { sweepWorkerBundle } from '../../sim/node/sweep-bundle';
import type { BenchContext } from './index';

const ROOT = resolve(import.meta.dirname, '..', '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export default async function run(ctx: BenchContext): Promise<void> {
  const runs = ctx.quick ? 10 : 100;
  const repeats = ctx.quick ? 1 : 3;
  const dir = mkdtempSync(join(tmpdir(), 'tw-sweep-bench-'));
  const sweepPath = join(dir, 'rover-100.json');
  writeFileSync(
    sweepPath,
    JSON.stringify({
      format: 'terrawheel-sweep',
      version: 1,
      name: `standard rover, ${runs} runs of 10 s`,
      base: join(ROOT, 'assets', 'scenarios', 'default.json'),
      axes: [],
      sample: 'grid',
      replicates: runs,
      jitter: [{ path: 'robot.yaw', amplitude: 0.05 }],
      stop: { duration: 10, onFault: 'stop' },
      metrics: ['distance', 'success', 'maxWheelDepth', 'p95WheelDepth', 'meanSlip', 'maxTilt'],
      record: false,
    }),
  );
  // the bundle is built once per source tree (cached); build it before timing
  await sweepWorkerBundle();
  console.log(`\n${runs} runs of 10 s simulated each, ${repeats} sweep(s) per row; availableParallelism() = ${availableParallelism()}\n`);
  console.log('| workers | runs/min (median) | sweep wall s | CPU s/run in its thread | wall s/run in its thread | core share | pool busy | load avg before |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
  const result = new Map<number, { rate: number; cpu: number; driver: number }>();
  try {
    for (const workers of [1, 2]) {
      const drivers: number[] = [];
      const rates: number[] = [], walls: number[] = [], cpus: number[] = [], runWalls: number[] = [], busy: number[] = [], loads: string[] = [];
      for (let k = 0; k < repeats; k++) {
        loads.push(loadavg()[0].toFixed(1));
        const out = join(dir, `out-${workers}-${k}`);
        const s = await runSweep({ sweepPath, out, workers });
        if (s.failed > 0) throw new Error(`${s.failed} runs faulted`);
        rates.push((runs / s.wallSeconds) * 60);
        walls.push(s.wallSeconds);
        cpus.push(s.runTimes.cpuSecondsMedian ?? NaN);
        runWalls.push(s.runTimes.wallSecondsMedian ?? NaN);
        busy.push(s.runTimes.wallSecondsTotal / (workers * s.wallSeconds));
        drivers.push(s.runTimes.driverCpuSeconds / runs);
        rmSync(out, { recursive: true, force: true });
      }
      const cpu = median(cpus), rw = median(runWalls);
      result.set(workers, { rate: median(rates), cpu, driver: median(drivers) });
      console.log(`| ${workers} | ${median(rates).toFixed(1)} | ${median(walls).toFixed(1)} | ${cpu.toFixed(3)} | ${rw.toFixed(3)} | ${(cpu / rw).toFixed(2)} | ${median(busy).toFixed(2)} | ${loads.join(', ')} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const one = result.get(1)!, two = result.get(2)!;
  console.log(`\nparallel efficiency per core, 2 workers: wall ${(two.rate / (2 * one.rate)).toFixed(2)}, cpu ${(one.cpu / two.cpu).toFixed(2)}`);
  console.log(`runs/min from CPU time alone (a quiet machine): 1 worker ${(60 / one.cpu).toFixed(0)}, 2 workers ${((2 * 60) / two.cpu).toFixed(0)}`);
  console.log(
    `driver thread CPU per run with the pool: ${(two.driver * 1000).toFixed(1)} ms, so one driver keeps at most ~${Math.floor(two.cpu / Math.max(two.driver, 1e-9))} workers busy (a run's CPU over the driver's share of it)`,
  );
}
