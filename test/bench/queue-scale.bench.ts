/**
 * The queue at 100 and 1,000 workers, from a measurement and a model (`npm run bench -- queue-scale`).
 *
 * 1. Measured on a real redis-server with the real coordinator and one real `terrawheel worker`:
 *    every command Redis executes during a small sweep, read from MONITOR. A command that names
 *    a job (its key or id) is per-job; the rest is background, attributed by command (SMEMBERS,
 *    XREAD, XREVRANGE: the worker's registry read and its blocking wait for a change; BZPOPMIN:
 *    its blocking fetch; the rest: the coordinator's collection rounds, counted by their read of
 *    the completed set, and its event stream). Also: INFO commandstats for Redis's CPU time per call, and INFO memory before and
 *    after enqueueing 2,000 jobs of a real sweep (bytes per waiting job).
 *    Redis CPU per run from INFO cpu (user + sys) over the sweep, background included.
 * 2. A discrete-event model of W workers (concurrency 1) taking 10-s runs (uniform ±20%) from one
 *    queue, with the measured per-job commands at each job's end, the background rates per worker
 *    and per coordinator round, lock renewals every lockDuration/2 per running job and a stalled
 *    check every stalledInterval per worker (BullMQ's schedule, not measured: tiny runs finish
 *    before either fires). It reports Redis ops per second (mean and the busiest second), Redis
 *    CPU utilisation (runs per second × measured Redis CPU per run), connections, memory at the start (every job
 *    enqueued) and the result volume.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import type { BenchContext } from './index';
import { loadSweep, sweepTask } from '../../sim/node/sweep';
import { closeQueue, redisConnection, DEFAULT_LOCK_SECONDS, parseQueueUrl, QUEUE_PREFIX, COLLECT_MIN_GAP_MS, runSweepOnQueue, type JobData } from '../../sim/node/sweep-queue';
import type { Redis } from 'ioredis';
import { startRedis, waitFor, WorkerProcess } from '../scenarios/batch/redis-harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Measured {
  runs: number;
  wallSeconds: number;
  perJobOps: number;
  perJobBytesIn: number;
  /** Background commands per second by source. */
  registryPerSec: number;
  blockingPerSec: number;
  coordinatorPerRound: number;
  /** Collection rounds per run of the probe sweep (a round per completion event, at most 1000/COLLECT_MIN_GAP_MS a second). */
  roundsPerRun: number;
  /** Commands run inside BullMQ's Lua scripts per job (no round trip, but Redis CPU). */
  luaCallsPerJob: number;
  /** [ms] Redis CPU (user + sys) over the probe sweep per run, background included. */
  redisCpuMsPerJob: number;
  bytesPerWaitingJob: number;
  bytesPerRow: number;
  byCommand: Record<string, number>;
}

/** Reads MONITOR lines until `stop` resolves. */
function monitor(port: number): { lines: string[]; stop(): void } {
  const lines: string[] = [];
  const s = connect({ host: '127.0.0.1', port });
  let rest = '';
  s.on('connect', () => s.write('MONITOR\r\n'));
  s.on('data', (d) => {
    const parts = (rest + d.toString('latin1')).split('\r\n');
    rest = parts.pop() ?? '';
    for (const p of parts) if (p.startsWith('+') && p !== '+OK') lines.push(p);
  });
  s.on('error', () => {});
  return { lines, stop: () => s.destroy() };
}

async function command(c: Redis, ...args: string[]): Promise<any> {
  return c.call(args[0], ...args.slice(1));
}

function info(text: string, key: string): number {
  const m = new RegExp(`^${key}:(\\d+)`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

async function measure(quick: boolean): Promise<Measured> {
  const tmp = mkdtempSync(join(tmpdir(), 'tw-qscale-'));
  const redis = await startRedis(false);
  const c = redisConnection(parseQueueUrl(redis.url));
  const worker = new WorkerProcess(redis.url, []);
  try {
    // --- bytes per waiting job: 2,000 jobs of the bundled sweep's tasks
    const loaded = loadSweep(join(ROOT, 'assets/sweeps/slopes-friction.json'));
    const conn = redisConnection(parseQueueUrl(redis.url));
    const q = new Queue<JobData>('memory-probe', { connection: conn, prefix: QUEUE_PREFIX });
    await q.waitUntilReady();
    const before = info(await command(c, 'INFO', 'memory'), 'used_memory');
    const n = 2000;
    for (let k = 0; k < n; k += 500) {
      await q.addBulk(
        Array.from({ length: 500 }, (_, i) => {
          const run = loaded.runs[(k + i) % loaded.runs.length];
          return { name: 'run', data: { format: 1 as const, task: sweepTask(loaded, '/shared/out', { ...run, id: `r${String(k + i).padStart(5, '0')}` }) }, opts: { jobId: `r${String(k + i).padStart(5, '0')}`, attempts: 3 } };
        }),
      );
    }
    const after = info(await command(c, 'INFO', 'memory'), 'used_memory');
    await q.obliterate({ force: true });
    await closeQueue(q, conn);

    // --- a small sweep of tiny runs, every command seen by MONITOR
    await waitFor('the worker to start', () => worker.has(/waiting for sweeps/));
    const runs = quick ? 8 : 24;
    const sweepPath = join(tmp, 'sweep.json');
    writeFileSync(
      sweepPath,
      JSON.stringify({
        format: 'terrawheel-sweep',
        version: 1,
        name: 'scale probe',
        base: join(ROOT, 'test/scenarios/batch/fixtures/tiny.json'),
        axes: [{ path: 'robot.maxTorque', range: [10, 30], steps: runs }],
        stop: { duration: 0.2 },
        metrics: ['distance', 'success', 'maxWheelDepth', 'meanSlip', 'maxTilt'],
      }),
    );
    // warm the worker's thread (it compiles the simulator on its first run) with a first sweep
    await runSweepOnQueue({ sweepPath, out: join(tmp, 'warm'), queue: redis.url });
    await command(c, 'CONFIG', 'RESETSTAT');
    const cpuBefore = await command(c, 'INFO', 'cpu');
    const mon = monitor(redis.port);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    const s = await runSweepOnQueue({ sweepPath, out: join(tmp, 'probe'), queue: redis.url });
    const wall = (performance.now() - t0) / 1000;
    mon.stop();
    const cpuAfter = await command(c, 'INFO', 'cpu');
    const cpu = (text: string) => Number(/used_cpu_user:([\d.]+)/.exec(text)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(text)![1]);
    const jobRe = /:r\d{4}"|"r\d{4}"/;
    let perJob = 0;
    let perJobLua = 0;
    let perJobBytes = 0;
    let registry = 0;
    let blocking = 0;
    let coordinator = 0;
    let rounds = 0;
    const byCommand: Record<string, number> = {};
    for (const l of mon.lines) {
      const cmd = /\] "([^"]+)"/.exec(l)?.[1]?.toLowerCase() ?? '?';
      const lua = l.includes(' lua] ');
      if (jobRe.test(l)) {
        if (lua) perJobLua++;
        else {
          perJob++;
          perJobBytes += l.length;
          byCommand[cmd] = (byCommand[cmd] ?? 0) + 1;
        }
      } else if (lua) continue;
      else if (cmd === 'smembers' || cmd === 'xrevrange' || (cmd === 'xread' && l.includes('terrawheel:sweeps:events'))) registry++;
      else if (cmd === 'bzpopmin') blocking++;
      else {
        coordinator++;
        if (cmd === 'evalsha' && l.includes('"completed"')) rounds++;
      }
    }
    const rowBytes = readFileSync(join(tmp, 'probe', 'rows', 'r0000.json')).length;
    return {
      runs: s.runs,
      wallSeconds: wall,
      perJobOps: perJob / runs,
      perJobBytesIn: perJobBytes / runs,
      registryPerSec: registry / wall,
      blockingPerSec: blocking / wall,
      coordinatorPerRound: coordinator / Math.max(1, rounds),
      roundsPerRun: rounds / runs,
      luaCallsPerJob: perJobLua / runs,
      redisCpuMsPerJob: ((cpu(cpuAfter) - cpu(cpuBefore)) * 1000) / runs,
      bytesPerWaitingJob: (after - before) / n,
      bytesPerRow: rowBytes,
      byCommand: Object.fromEntries(Object.entries(byCommand).map(([k, v]) => [k, v / runs])),
    };
  } finally {
    c.disconnect();
    await worker.kill('SIGTERM');
    await redis.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** xorshift32: the model's seeded randomness. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

interface ModelResult {
  workers: number;
  runs: number;
  wallSeconds: number;
  meanOps: number;
  peakOps: number;
  redisCpu: number;
  connections: number;
  memoryMB: number;
  resultsMB: number;
}

/** Discrete-event model: W workers, `runs` runs of 10 s ± 20 %, the measured command counts. */
function model(m: Measured, workers: number, runs: number, seed = 1): ModelResult {
  const random = rng(seed);
  const runSeconds = () => 10 * (0.8 + 0.4 * random());
  const lock = DEFAULT_LOCK_SECONDS;
  // events: job ends, each worker's free time; time advances job by job
  const bins = new Map<number, number>();
  const add = (t: number, ops: number) => bins.set(Math.floor(t), (bins.get(Math.floor(t)) ?? 0) + ops);
  const free: number[] = Array.from({ length: workers }, () => 0);
  let next = 0;
  let end = 0;
  // a binary heap would do for millions; runs ≤ 20,000 here, so a linear scan of W is fine
  while (next < runs) {
    let w = 0;
    for (let k = 1; k < workers; k++) if (free[k] < free[w]) w = k;
    const start = free[w];
    const d = runSeconds();
    const finish = start + d;
    add(finish, m.perJobOps);
    for (let t = start + lock / 2; t < finish; t += lock / 2) add(t, 1); // lock renewal
    free[w] = finish;
    end = Math.max(end, finish);
    next++;
  }
  // background over the whole sweep
  // the coordinator collects on completions, at most 1000/COLLECT_MIN_GAP_MS rounds a second
  const roundsPerSecond = Math.min((runs / end) * m.roundsPerRun, 1000 / COLLECT_MIN_GAP_MS);
  const perSecondBackground = workers * (m.registryPerSec + m.blockingPerSec + 1 / (lock / 2)) + m.coordinatorPerRound * roundsPerSecond;
  let total = 0;
  let peak = 0;
  for (let t = 0; t <= Math.floor(end); t++) {
    const ops = (bins.get(t) ?? 0) + perSecondBackground;
    total += ops;
    peak = Math.max(peak, ops);
  }
  const mean = total / (Math.floor(end) + 1);
  return {
    workers,
    runs,
    wallSeconds: end,
    meanOps: mean,
    peakOps: peak,
    redisCpu: (runs / end) * m.redisCpuMsPerJob / 1000,
    // per worker process: the registry connection, the BullMQ Worker's command and blocking connections
    // and the sweep's queue, registry and event-stream connections
    connections: 3 * workers + 3,
    memoryMB: (runs * m.bytesPerWaitingJob) / 1e6,
    resultsMB: (runs * m.bytesPerRow) / 1e6,
  };
}

export default async function run(ctx: BenchContext): Promise<void> {
  const m = await measure(ctx.quick);
  console.log(`\nMeasured on redis-server ${'(loopback, no persistence)'}: ${m.runs} runs through 1 worker in ${m.wallSeconds.toFixed(1)} s`);
  console.log(`\n| quantity | value |\n|---|---:|`);
  console.log(`| Redis round trips per run (naming the job: enqueue, take, finish, collect, remove) | ${m.perJobOps.toFixed(1)} |`);
  console.log(`| of which, by command | ${Object.entries(m.byCommand).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')} |`);
  console.log(`| bytes of those commands per run (MONITOR text) | ${Math.round(m.perJobBytesIn)} |`);
  console.log(`| registry reads and blocking waits per worker per second (SMEMBERS, XREAD) | ${m.registryPerSec.toFixed(2)} |`);
  console.log(`| blocking fetches per worker per second (BZPOPMIN) | ${m.blockingPerSec.toFixed(2)} |`);
  console.log(`| coordinator commands per collection round (a round per completion event, at most every ${COLLECT_MIN_GAP_MS} ms) | ${m.coordinatorPerRound.toFixed(1)} |`);
  console.log(`| collection rounds per run (tiny runs, one worker) | ${m.roundsPerRun.toFixed(2)} |`);
  console.log(`| commands inside BullMQ's Lua scripts per run (no round trip) | ${m.luaCallsPerJob.toFixed(1)} |`);
  console.log(`| Redis CPU per run, background included (INFO cpu, user + sys) | ${m.redisCpuMsPerJob.toFixed(2)} ms |`);
  console.log(`| Redis memory per waiting job (slopes-friction task, INFO used_memory over 2,000 jobs) | ${Math.round(m.bytesPerWaitingJob)} B |`);
  console.log(`| result row (rows/<id>.json) | ${m.bytesPerRow} B |`);
  console.log(`\nModel: W workers, 10-s runs (±20 %), 20 runs per worker, lock ${DEFAULT_LOCK_SECONDS} s.\n`);
  console.log('| workers | runs | sweep wall [s] | Redis ops/s mean | busiest second | Redis CPU (one core) | connections | Redis memory at start | results |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const w of [2, 100, 1000]) {
    const r = model(m, w, 20 * w);
    console.log(`| ${w} | ${r.runs} | ${r.wallSeconds.toFixed(0)} | ${Math.round(r.meanOps)} | ${Math.round(r.peakOps)} | ${(100 * r.redisCpu).toFixed(1)} % | ${r.connections} | ${r.memoryMB.toFixed(1)} MB | ${r.resultsMB.toFixed(1)} MB |`);
  }
  const big = model(m, 1000, 100_000);
  console.log(`| 1000 | 100,000 | ${big.wallSeconds.toFixed(0)} | ${Math.round(big.meanOps)} | ${Math.round(big.peakOps)} | ${(100 * big.redisCpu).toFixed(1)} % | ${big.connections} | ${big.memoryMB.toFixed(1)} MB | ${big.resultsMB.toFixed(1)} MB |`);
}
