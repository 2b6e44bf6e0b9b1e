/**
 * Sweep throughput (issue #31): runs per minute of `terrawheel sweep` for 100 runs of the standard
 * rover (assets/scenarios/default.json, 10 s of simulated time each, start heading jittered per
 * replicate so the runs differ) with 1 and 2 workers (--quick: 10 runs, 1 sweep each).
 *
 * Every sweep is a fresh process started as a user starts it, so each pays its own start-up (tsx,
 * loading the sweep, the pool's threads and their first, unoptimised runs) and none inherits a
 * warm JIT from an earlier sweep. Three commands, interleaved (one of each per round, the order
 * rotating each round) so that a change in the machine's load hits all three alike:
 *   - `terrawheel sweep --workers 2`: a pool of 2 worker threads;
 *   - a pool of 1 worker thread (test/bench/sweep-child.mjs: runSweep with `pool: true`), the
 *     same way as 2: the baseline of the parallel efficiency;
 *   - `terrawheel sweep --workers 1`, which runs the runs in the CLI's own thread (shown beside it).
 * Rates are runs over the sweep's wall time (summary.json's wallSeconds: from the sweep loaded to
 * results.csv written, pool start included); the command's whole wall time (node's start, tsx,
 * loading) is shown too. The machine this project measures on is shared (2 cores, other agents'
 * jobs), so each sweep also reports what it cost in CPU, which other processes' load does not
 * change much: the runs' CPU time in their own threads (thread-cpu.ts) and the whole process's.
 * Efficiency per core with 2 workers:
 *   - wall: rate(pool of 2) / (2 · rate(pool of 1)) (what a user sees on this machine now);
 *   - cpu:  process CPU(pool of 1) / process CPU(pool of 2), what the second worker costs in CPU
 *           on top of the work (a second isolate's start and JIT, V8's helper threads, shared
 *           caches): the wall efficiency an idle machine would give if nothing but the sweep ran.
 * The load average before each sweep is printed with it, and where each command's wall time went
 * (summary.json's timeline: when the pool started, each thread's first run, warm-up, gaps
 * between runs, the tail, the pool's shut-down and results.csv).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sweepWorkerBundle } from '../../sim/node/sweep-bundle';
import type { SweepSummary } from '../../sim/node/sweep';
import type { BenchContext } from './index';

const ROOT = resolve(import.meta.dirname, '..', '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

interface Config {
  label: string;
  workers: number;
  args: (sweepPath: string, out: string) => string[];
}

const CONFIGS: Config[] = [
  { label: '2 workers (`--workers 2`)', workers: 2, args: (p, o) => [join(ROOT, 'bin/terrawheel.mjs'), 'sweep', p, '--out', o, '--workers', '2', '--json'] },
  { label: '1 worker, pool of one thread', workers: 1, args: (p, o) => [join(ROOT, 'test/bench/sweep-child.mjs'), p, o, '1'] },
  { label: '1 worker, `--workers 1` (CLI thread)', workers: 1, args: (p, o) => [join(ROOT, 'bin/terrawheel.mjs'), 'sweep', p, '--out', o, '--workers', '1', '--json'] },
];

interface Sample {
  load: number;
  commandWall: number;
  summary: SweepSummary;
}

function runCommand(args: string[]): Promise<{ stdout: string; wall: number }> {
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', fail);
    p.on('exit', (code) => (code === 0 ? ok({ stdout, wall: (performance.now() - t0) / 1000 }) : fail(new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(-400)}`))));
  });
}

export default async function run(ctx: BenchContext): Promise<void> {
  const runs = ctx.quick ? 10 : 100;
  const rounds = ctx.quick ? 1 : 3;
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
  const samples = new Map<Config, Sample[]>(CONFIGS.map((c) => [c, []]));
  const csv = new Set<string>();
  try {
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < CONFIGS.length; k++) {
        const c = CONFIGS[(k + r) % CONFIGS.length];
        const out = join(dir, `out-${r}-${k}`);
        const load = loadavg()[0];
        const { stdout, wall } = await runCommand(c.args(sweepPath, out));
        const summary = JSON.parse(stdout) as SweepSummary & { resultsCsv: string };
        if (summary.failed > 0) throw new Error(`${c.label}: ${summary.failed} runs faulted`);
        csv.add(readFileSync(summary.resultsCsv, 'utf8'));
        samples.get(c)!.push({ load, commandWall: wall, summary });
        rmSync(out, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (csv.size !== 1) throw new Error(`the commands wrote ${csv.size} different results.csv files`);
  console.log(`\n${runs} runs of 10 s simulated each; ${rounds} round(s) of the three commands, interleaved; availableParallelism() = ${availableParallelism()}; every results.csv identical\n`);
  console.log('| command | runs/min (sweep wall) | sweep wall s | command wall s | CPU s/run in its thread | process CPU s per sweep | pool busy | load avg before each |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  const stats = new Map<Config, { rate: number; cmdRate: number; cpu: number; proc: number }>();
  for (const c of CONFIGS) {
    const ss = samples.get(c)!;
    const wall = median(ss.map((s) => s.summary.wallSeconds));
    const cmd = median(ss.map((s) => s.commandWall));
    const cpu = median(ss.map((s) => s.summary.runTimes.cpuSecondsMedian ?? NaN));
    const proc = median(ss.map((s) => s.summary.runTimes.processCpuSeconds));
    const busy = median(ss.map((s) => s.summary.runTimes.wallSecondsTotal / (c.workers * s.summary.wallSeconds)));
    stats.set(c, { rate: (runs / wall) * 60, cmdRate: (runs / cmd) * 60, cpu, proc });
    console.log(`| ${c.label} | ${((runs / wall) * 60).toFixed(1)} | ${wall.toFixed(2)} | ${cmd.toFixed(2)} | ${cpu.toFixed(3)} | ${proc.toFixed(2)} | ${busy.toFixed(2)} | ${ss.map((s) => s.load.toFixed(1)).join(', ')} |`);
  }
  // where each sweep's wall time went (summary.timeline; seconds from the sweep loaded, medians)
  console.log('\n| command | pool started | first run starts (earliest, latest) | warm-up CPU s (first 5 runs/thread above the median) | gaps s (all threads) | tail s (one thread idle at the end) | pool shut down s | results.csv s | CPU s outside the runs (process - runs) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const f = (x: number | null | undefined, d = 3): string => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(d));
  for (const c of CONFIGS) {
    const tl = samples.get(c)!.map((s) => s.summary);
    const m = (g: (s: SweepSummary) => number | null | undefined): number | null => {
      const xs = tl.map(g).filter((x): x is number => typeof x === 'number');
      return xs.length === 0 ? null : median(xs);
    };
    const last = (s: SweepSummary): number | null => s.timeline?.lastRunEnd?.[1] ?? null;
    console.log(
      `| ${c.label} | ${f(m((s) => s.timeline?.poolStarted))} | ${f(m((s) => s.timeline?.firstRunStart?.[0]))}, ${f(m((s) => s.timeline?.firstRunStart?.[1]))} | ${f(m((s) => s.timeline?.warmupCpuSeconds), 2)} | ${f(m((s) => s.timeline?.gapSeconds))} | ${f(m((s) => (s.timeline?.lastRunEnd ? s.timeline.lastRunEnd[1] - s.timeline.lastRunEnd[0] : null)))} | ${f(m((s) => (s.timeline?.poolClosed != null && last(s) !== null ? s.timeline.poolClosed - (last(s) as number) : null)))} | ${f(m((s) => (s.timeline ? s.timeline.resultsWritten - (s.timeline.poolClosed ?? last(s) ?? 0) : null)))} | ${f(m((s) => s.runTimes.processCpuSeconds - s.runTimes.cpuSecondsTotal), 2)} |`,
    );
  }
  const [two, pool1, cli1] = CONFIGS.map((c) => stats.get(c)!);
  console.log(`\nparallel efficiency per core, 2 workers against a pool of one: wall ${(two.rate / (2 * pool1.rate)).toFixed(2)}, cpu ${(pool1.proc / two.proc).toFixed(2)}`);
  console.log(`against \`--workers 1\` (the CLI's thread): wall ${(two.rate / (2 * cli1.rate)).toFixed(2)}, cpu ${(cli1.proc / two.proc).toFixed(2)}; by the commands' whole wall time: ${(two.cmdRate / (2 * cli1.cmdRate)).toFixed(2)}`);
  console.log(`load average now ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
}
