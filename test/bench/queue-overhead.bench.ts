/**
 * Queue overhead per run (`npm run bench -- queue-overhead`): the same runs of the bundled
 * slopes-friction sweep (the standard skid-steer rover, 10 s of simulated time each) through
 *
 *   pool:  a local piscina pool of 2 threads (sweep.ts's sweepPool), tasks handed in directly;
 *   queue: `terrawheel sweep --queue` (runSweepOnQueue, in this process) with two
 *          `terrawheel worker --concurrency 1` processes on a real redis-server.
 *
 * Both are warmed first (each thread compiles the simulator on its first run), then timed in
 * turns, 5 times each (1 with --quick); the rows are the medians. Overhead per run =
 * (queue wall − pool wall) / runs; a run's cost = pool wall × 2 / runs (what one run holds one
 * worker). The queue's wall includes enqueueing, the collection rounds (every 500 ms: up to that
 * much at the end) and writing results.csv; the pool's has none of that, so this is an upper bound.
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

export default async function run(ctx: BenchContext): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'tw-qover-'));
  const bundled = JSON.parse(readFileSync(join(ROOT, 'assets/sweeps/slopes-friction.json'), 'utf8')) as Record<string, unknown>;
  const sweepPath = join(tmp, 'sweep.json');
  writeFileSync(sweepPath, JSON.stringify({ ...bundled, base: join(ROOT, 'assets/sweeps', bundled.base as string), stop: { duration: 10, onFault: 'stop' } }));
  const loaded = loadSweep(sweepPath);
  const runs = loaded.runs.length;
  const redis = await startRedis(false);
  const workers = [new WorkerProcess(redis.url), new WorkerProcess(redis.url)];
  const pool = sweepPool(2, await sweepWorkerBundle());
  const load0 = loadavg()[0];
  try {
    await waitFor('two workers', () => workers.every((w) => w.has(/waiting for sweeps/)));
    // warm-up: both threads of the pool, both workers' threads
    const tasks = loaded.runs.map((r) => sweepTask(loaded, join(tmp, 'pool'), r));
    await Promise.all(tasks.slice(0, 2).map((t) => pool.run(t)));
    for (let k = 0; !workers.every((w) => w.has(/^worker: done /)); k++) await runSweepOnQueue({ sweepPath, out: join(tmp, `warm-${k}`), queue: redis.url });
    const poolWall: number[] = [];
    const queueWall: number[] = [];
    const reps = ctx.quick ? 1 : 5;
    for (let k = 0; k < reps; k++) {
      let t0 = performance.now();
      await Promise.all(tasks.map((t) => pool.run(t)));
      poolWall.push((performance.now() - t0) / 1000);
      t0 = performance.now();
      const s = await runSweepOnQueue({ sweepPath, out: join(tmp, `queue-${k}`), queue: redis.url });
      queueWall.push((performance.now() - t0) / 1000);
      if (s.computed !== runs) throw new Error(`queue sweep computed ${s.computed} of ${runs} runs`);
    }
    const p = median(poolWall);
    const q = median(queueWall);
    const perRun = (p * 2) / runs;
    const overhead = (q - p) / runs;
    console.log(`\n${runs} runs of 10 s (slopes-friction, standard rover), 2 workers; load average ${load0.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores, shared)\n`);
    console.log('| driver | wall per sweep, median [s] | each rep [s] |');
    console.log('|---|---:|---|');
    console.log(`| pool, 2 threads | ${p.toFixed(2)} | ${poolWall.map((x) => x.toFixed(2)).join(', ')} |`);
    console.log(`| queue, 2 worker processes | ${q.toFixed(2)} | ${queueWall.map((x) => x.toFixed(2)).join(', ')} |`);
    console.log(`\na run's cost ${(perRun * 1000).toFixed(0)} ms; queue overhead per run ${(overhead * 1000).toFixed(0)} ms = ${((100 * overhead) / perRun).toFixed(1)} % of it`);
  } finally {
    await pool.destroy();
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    await redis.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}
