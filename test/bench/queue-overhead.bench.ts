/**
 * Queue overhead per run (`npm run bench -- queue-overhead`): the same runs of two sweeps of the
 * standard skid-steer rover, 10 s of simulated time each (the bundled slopes-friction sweep, 18
 * runs; and 100 runs on the rolling hills of assets/scenarios/default.json), through
 *
 *   pool:  a local piscina pool of 2 threads (sweep.ts's sweepPool), tasks handed in directly;
 *   queue: `terrawheel sweep --queue` (runSweepOnQueue, in this process) with two
 *          `terrawheel worker --concurrency 1` processes on a real redis-server.
 *
 * Both are warmed first (each thread optimises the simulator over its first runs), then timed in
 * turns, 5 times each for the 18 runs and 3 times for the 100 (1 each with --quick); the rows are
 * the medians. Overhead per run =
 * (queue wall − pool wall) / runs; a run's cost = pool wall × 2 / runs (what one run holds one
 * worker). The queue's wall includes loading and checking the sweep, enqueueing, the workers
 * waking, collecting and writing results.csv; the pool's has none of that, so this is an upper bound.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './index';
import { loadSweep, sweepPool, sweepTask } from '../../sim/node/sweep';
import { sweepWorkerBundle } from '../../sim/node/sweep-bundle';
import { runSweepOnQueue } from '../../sim/node/sweep-queue';
import { startRedis, waitFor, WorkerProcess } from '../scenarios/batch/redis-harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Case {
  name: string;
  sweepPath: string;
  reps: number;
}

export default async function run(ctx: BenchContext): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'tw-qover-'));
  const bundled = JSON.parse(readFileSync(join(ROOT, 'assets/sweeps/slopes-friction.json'), 'utf8')) as Record<string, unknown>;
  const slopes = join(tmp, 'slopes.json');
  writeFileSync(slopes, JSON.stringify({ ...bundled, base: join(ROOT, 'assets/sweeps', bundled.base as string), stop: { duration: 10, onFault: 'stop' } }));
  const rover = join(tmp, 'rover-100.json');
  writeFileSync(
    rover,
    JSON.stringify({
      format: 'terrawheel-sweep', version: 1, name: 'standard rover, 100 runs of 10 s', base: join(ROOT, 'assets/scenarios/default.json'), axes: [], sample: 'grid',
      replicates: ctx.quick ? 20 : 100, jitter: [{ path: 'robot.yaw', amplitude: 0.05 }], stop: { duration: 10, onFault: 'stop' }, metrics: ['distance', 'success', 'maxWheelDepth', 'meanSlip', 'maxTilt'],
    }),
  );
  const cases: Case[] = [
    { name: 'slopes-friction (bundled)', sweepPath: slopes, reps: ctx.quick ? 1 : 5 },
    { name: 'standard rover on the hills', sweepPath: rover, reps: ctx.quick ? 1 : 3 },
  ];
  const redis = await startRedis(false);
  const workers = [new WorkerProcess(redis.url), new WorkerProcess(redis.url)];
  const pool = sweepPool(2, await sweepWorkerBundle());
  const load0 = loadavg()[0];
  const lines: string[] = [];
  try {
    await waitFor('two workers', () => workers.every((w) => w.has(/waiting for sweeps/)));
    let warm = 0;
    for (const c of cases) {
      const loaded = loadSweep(c.sweepPath);
      const runs = loaded.runs.length;
      // warm-up: both threads of the pool, both workers' threads (a sweep each, on the same terrain)
      const tasks = loaded.runs.map((r) => sweepTask(loaded, join(tmp, 'pool'), r));
      await Promise.all(tasks.map((t) => pool.run(t)));
      do await runSweepOnQueue({ sweepPath: c.sweepPath, out: join(tmp, `warm-${warm++}`), queue: redis.url });
      while (!workers.every((w) => w.has(/^worker: done /)));
      const poolWall: number[] = [];
      const queueWall: number[] = [];
      for (let k = 0; k < c.reps; k++) {
        let t0 = performance.now();
        await Promise.all(tasks.map((t) => pool.run(t)));
        poolWall.push((performance.now() - t0) / 1000);
        t0 = performance.now();
        const s = await runSweepOnQueue({ sweepPath: c.sweepPath, out: join(tmp, `queue-${warm++}`), queue: redis.url });
        queueWall.push((performance.now() - t0) / 1000);
        if (s.computed !== runs) throw new Error(`queue sweep computed ${s.computed} of ${runs} runs`);
      }
      const p = median(poolWall);
      const q = median(queueWall);
      const perRun = (p * 2) / runs;
      const overhead = (q - p) / runs;
      lines.push(
        `| ${c.name} | ${runs} | ${p.toFixed(2)} (${poolWall.map((x) => x.toFixed(2)).join(', ')}) | ${q.toFixed(2)} (${queueWall.map((x) => x.toFixed(2)).join(', ')}) | ${(perRun * 1000).toFixed(0)} | ${(overhead * 1000).toFixed(1)} | ${((100 * overhead) / perRun).toFixed(1)} % |`,
      );
    }
    console.log(`\n2 workers each way; load average ${load0.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores, shared)\n`);
    console.log("| sweep | runs | pool of 2 threads: wall per sweep, median (each) [s] | queue, 2 worker processes [s] | a run's cost [ms] | queue overhead per run [ms] | of a run's cost |");
    console.log('|---|---:|---|---|---:|---:|---:|');
    for (const l of lines) console.log(l);
  } finally {
    await pool.destroy();
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    await redis.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}
