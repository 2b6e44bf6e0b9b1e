/**
 * `terrawheel sweep <sweep.json> --out <dir> [--workers N] [--resume] [--max-runs N]` (issue #31):
 *
 *   1. load and check everything before a run starts: the sweep file (sim/scenario/sweep-schema.ts),
 *      its base scenario, every axis path and value against the base (the scenario parser and
 *      the files each value makes the scenario need), the run count against the cap;
 *   2. run the runs on a piscina worker-thread pool (default: os.availableParallelism() threads;
 *      --workers 1 runs them in this thread), from a prebuilt JavaScript bundle of sweep-task.ts
 *      (sweep-bundle.ts: no thread compiles TypeScript), each row written atomically to
 *      `<dir>/rows/<id>.json` as it finishes (--resume skips ids whose row is there);
 *   3. build `<dir>/results.csv` from the row files (sorted by id, numbers formatted
 *      deterministically: the same bytes whichever driver ran the runs) and `<dir>/summary.json`.
 */
import { availableParallelism } from 'node:os';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ResultRow } from '../batch/run';
import { parseScenarioFile } from '../scenario/scenario-v2';
import { checkRunCount, checkSweepAgainstBase, expandSweep, MAX_SWEEP_RUNS, parseSweep, runScenario, type Sweep, type SweepRun } from '../scenario/sweep-schema';
import { ScenarioError } from '../scenario/scenario-guard';
import { runTimedTask, scenarioFilesFor, type SweepTask, type TimedRow } from './sweep-task';
import { sweepWorkerBundle } from './sweep-bundle';
import { threadCpuSeconds } from './thread-cpu';

export interface SweepOptions {
  sweepPath: string;
  out: string;
  /** Threads (1: in this thread). Default os.availableParallelism(). */
  workers?: number;
  resume?: boolean;
  maxRuns?: number;
  /**
   * Run the runs from the prebuilt bundle (sweep-bundle.ts; default true), in the pool's threads
   * and in this thread with one worker. False: the TypeScript sources through tsx (slower; the
   * same rows, which the tests check).
   */
  bundle?: boolean;
  /** Where a note goes (the bundle could not be built): stderr in the CLI. */
  warn?: (message: string) => void;
  /** A Redis URL: put the runs on that queue for `terrawheel worker`s (sim/node/sweep-queue.ts). */
  queue?: string;
  /**
   * Run on the worker-thread pool even with one worker (default false: one worker runs in this
   * thread). The throughput benchmark uses it to compare 1 and 2 workers run the same way.
   */
  pool?: boolean;
}

export interface LoadedSweep {
  sweep: Sweep;
  /** Absolute path of the base scenario. */
  basePath: string;
  base: unknown;
  runs: SweepRun[];
}

function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ScenarioError(`cannot read ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ScenarioError(`${what} ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

/** Step 1: everything checked, nothing run. Throws ScenarioError naming what is wrong. */
export function loadSweep(sweepPath: string, maxRuns = MAX_SWEEP_RUNS): LoadedSweep {
  const path = resolve(sweepPath);
  const sweep = parseSweep(readJsonFile(path, 'sweep file'));
  checkRunCount(sweep, maxRuns);
  const basePath = resolve(dirname(path), sweep.base);
  const base = readJsonFile(basePath, `base scenario (sweep "base")`);
  try {
    parseScenarioFile(base);
    scenarioFilesFor(base, basePath);
  } catch (e) {
    throw new ScenarioError(`base scenario ${basePath}: ${(e as Error).message}`);
  }
  checkSweepAgainstBase(sweep, base, (scenario) => {
    parseScenarioFile(scenario);
    scenarioFilesFor(scenario, basePath);
  });
  return { sweep, basePath, base, runs: expandSweep(sweep, maxRuns) };
}

// --- results ------------------------------------------------------------------------------------

/** Significant digits of a metric in results.csv (the row files keep every bit). */
export const CSV_SIGNIFICANT_DIGITS = 9;

/** A number as results.csv writes it: 9 significant digits, shortest form ("0.1", "12", "1.5e-7"). */
export function formatMetric(x: number | null | undefined): string {
  if (x === null || x === undefined) return '';
  if (!Number.isFinite(x)) return String(x);
  const s = String(Number(x.toPrecision(CSV_SIGNIFICANT_DIGITS)));
  return s === '-0' ? '0' : s;
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function formatParam(x: unknown): string {
  return typeof x === 'number' ? String(x) : typeof x === 'string' ? x : JSON.stringify(x);
}

/** results.csv: header, then one line per row in id order. */
export function resultsCsv(sweep: Sweep, rows: ResultRow[]): string {
  const axes = sweep.axes.map((a) => a.path);
  const header = ['id', ...axes, 'replicate', 'seed', ...sweep.metrics, 'steps', 'fault', 'stateHash'];
  const lines = [header.map(csvField).join(',')];
  for (const r of [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    lines.push(
      [r.id, ...axes.map((p) => formatParam(r.params[p])), String(r.replicate), String(r.seed), ...sweep.metrics.map((m) => formatMetric(r.metrics[m])), String(r.steps), r.fault ?? '', r.stateHash]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\n') + '\n';
}

export interface SweepSummary {
  name: string;
  runs: number;
  /** Runs with a fault (a world that faulted or could not be built). */
  failed: number;
  /** Runs computed by this invocation (the rest were resumed from their row files). */
  computed: number;
  workers: number;
  wallSeconds: number;
  /**
   * What the computed runs cost, each measured in the thread that ran it: the median and the sum
   * of its CPU time (thread-cpu.ts) and of its wall time (null medians: nothing computed). A run's
   * wall time over its CPU time is the share of a core it got; on a machine shared with other
   * jobs that ratio, not the sweep's wall time alone, says how well the pool scaled.
   * driverCpuSeconds: the CPU time of the driver's own thread over the sweep (with a pool: the
   * bundle, handing out tasks, writing rows; with --workers 1 it includes the runs): its share
   * per run bounds how many workers one driver can keep busy.
   * processCpuSeconds: the CPU time of the whole process over the sweep (every thread: the runs,
   * the driver, the pool's start, V8's garbage-collector and compiler threads); 0 for a queue sweep.
   */
  runTimes: { cpuSecondsMedian: number | null; wallSecondsMedian: number | null; cpuSecondsTotal: number; wallSecondsTotal: number; driverCpuSeconds: number; processCpuSeconds: number };
  /** Per metric over the runs that have it: min, mean, max. */
  metrics: Record<string, { n: number; min: number; mean: number; max: number }>;
  /**
   * Without jitter a sweep's replicates are identical re-runs: the points whose replicates ended
   * with different state hashes (a determinism failure) by their first run's id. Empty otherwise.
   */
  replicateHashMismatches: string[];
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function summarize(loaded: LoadedSweep, rows: ResultRow[], computed: number, workers: number, wallSeconds: number, t: { cpu: number[]; wall: number[]; driverCpu: number; processCpu?: number } = { cpu: [], wall: [], driverCpu: 0 }): SweepSummary {
  const metrics: SweepSummary['metrics'] = {};
  for (const m of loaded.sweep.metrics) {
    const xs = rows.map((r) => r.metrics[m]).filter((x): x is number => typeof x === 'number');
    if (xs.length > 0) metrics[m] = { n: xs.length, min: Math.min(...xs), mean: xs.reduce((s, x) => s + x, 0) / xs.length, max: Math.max(...xs) };
  }
  const mismatches: string[] = [];
  const reps = loaded.sweep.replicates;
  if (loaded.sweep.jitter.length === 0 && reps > 1) {
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (let k = 0; k < loaded.runs.length; k += reps) {
      const hashes = new Set(loaded.runs.slice(k, k + reps).map((run) => byId.get(run.id)?.stateHash));
      if (hashes.size > 1) mismatches.push(loaded.runs[k].id);
    }
  }
  const sum = (xs: number[]): number => xs.reduce((a, x) => a + x, 0);
  return {
    name: loaded.sweep.name, runs: rows.length, failed: rows.filter((r) => r.fault !== null).length, computed, workers, wallSeconds,
    runTimes: { cpuSecondsMedian: median(t.cpu), wallSecondsMedian: median(t.wall), cpuSecondsTotal: sum(t.cpu), wallSecondsTotal: sum(t.wall), driverCpuSeconds: t.driverCpu, processCpuSeconds: t.processCpu ?? 0 },
    metrics, replicateHashMismatches: mismatches,
  };
}

export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The row file of `id` if it is there and whole (a torn or foreign file counts as missing). */
export function readRow(path: string, id: string): ResultRow | null {
  if (!existsSync(path)) return null;
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as ResultRow;
    return r.id === id ? r : null;
  } catch {
    return null;
  }
}

/** The task of `run` for a thread or a queue worker (`out`: the absolute output directory). */
export function sweepTask(loaded: LoadedSweep, out: string, run: SweepRun): SweepTask {
  return {
    input: { id: run.id, params: run.params, replicate: run.replicate, seed: run.seed, stop: loaded.sweep.stop, metrics: loaded.sweep.metrics },
    scenario: runScenario(loaded.base, loaded.sweep, run),
    scenarioPath: loaded.basePath,
    recordPath: loaded.sweep.record ? join(out, 'runs', `${run.id}.mcap`) : null,
  };
}

/** The row of a run that could not be computed (`fault`: why). */
export function faultRow(run: SweepRun, fault: string): ResultRow {
  return { id: run.id, params: run.params, replicate: run.replicate, seed: run.seed, metrics: {}, steps: 0, simSeconds: 0, fault, stateHash: '' };
}

/** [s] The process's CPU time (user + system, every thread) since `start` (process.cpuUsage()). */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1e6;
}

const crashRow = (run: SweepRun, e: unknown): ResultRow => faultRow(run, `error: ${(e as Error).message ?? String(e)}`);

/** A worker-thread pool of `threads` threads, each running one sweep task at a time. */
export function sweepPool(threads: number, bundle: string | null, warn?: (message: string) => void): Piscina<SweepTask, TimedRow> {
  const pool = new Piscina<SweepTask, TimedRow>({
    filename: bundle ?? fileURLToPath(new URL('./sweep-worker.mjs', import.meta.url)),
    minThreads: threads,
    maxThreads: threads,
    // one run per thread at a time: a run is CPU-bound for seconds
    concurrentTasksPerWorker: 1,
  });
  // a thread that dies fails its task (a row with the fault); the pool's own 'error' event
  // would otherwise end the process
  pool.on('error', (e: unknown) => warn?.(`sweep: a worker thread failed: ${(e as Error).message ?? String(e)}`));
  return pool;
}

/** Where progress lines go (stderr in the CLI). */
export interface SweepProgress {
  update(done: number, failed: number, total: number, etaSeconds: number | null): void;
}

export function sweepProgressLine(done: number, failed: number, total: number, etaSeconds: number | null): string {
  const eta = etaSeconds === null ? '--:--' : `${Math.floor(etaSeconds / 60)}:${String(Math.round(etaSeconds % 60)).padStart(2, '0')}`;
  return `sweep: ${done}/${total} done, ${failed} failed, ETA ${eta}`;
}

/** Steps 2 and 3. Returns the summary; a run that faults is a row, never an exception. */
export async function runSweep(opts: SweepOptions, progress?: SweepProgress): Promise<SweepSummary & { out: string; resultsCsv: string }> {
  if (opts.queue !== undefined) return (await import('./sweep-queue')).runSweepOnQueue(opts, progress);
  const loaded = loadSweep(opts.sweepPath, opts.maxRuns ?? MAX_SWEEP_RUNS);
  const out = resolve(opts.out);
  const rowsDir = join(out, 'rows');
  mkdirSync(rowsDir, { recursive: true });
  if (loaded.sweep.record) mkdirSync(join(out, 'runs'), { recursive: true });
  const workers = Math.max(1, opts.workers ?? availableParallelism());
  const rows = new Map<string, ResultRow>();
  const todo: SweepRun[] = [];
  for (const run of loaded.runs) {
    const have = opts.resume ? readRow(join(rowsDir, `${run.id}.json`), run.id) : null;
    if (have !== null) rows.set(run.id, have);
    else todo.push(run);
  }
  const total = loaded.runs.length;
  let failed = [...rows.values()].filter((r) => r.fault !== null).length;
  const t0 = performance.now();
  const driverCpu0 = threadCpuSeconds();
  const processCpu0 = process.cpuUsage();
  let computed = 0;
  const finish = (row: ResultRow): void => {
    writeAtomic(join(rowsDir, `${row.id}.json`), JSON.stringify(row) + '\n');
    rows.set(row.id, row);
    computed++;
    if (row.fault !== null) failed++;
    const elapsed = (performance.now() - t0) / 1000;
    progress?.update(rows.size, failed, total, computed > 0 ? (elapsed / computed) * (total - rows.size) : null);
  };
  const taskOf = (run: SweepRun): SweepTask => sweepTask(loaded, out, run);
  const cpu: number[] = [];
  const wall: number[] = [];
  const timing = (t: TimedRow): void => {
    cpu.push(t.cpuSeconds);
    wall.push(t.wallSeconds);
  };
  progress?.update(rows.size, failed, total, null);
  const bundle = opts.bundle === false || todo.length === 0 ? null : await sweepWorkerBundle(opts.warn);
  if ((opts.pool !== true && (workers === 1 || todo.length <= 1)) || todo.length === 0) {
    const task: (t: SweepTask) => Promise<TimedRow> = bundle === null ? runTimedTask : ((await import(bundle)) as { default: typeof runTimedTask }).default;
    for (const run of todo) {
      let row: ResultRow;
      try {
        const timed = await task(taskOf(run));
        timing(timed);
        row = timed.row;
      } catch (e) {
        row = crashRow(run, e);
      }
      finish(row);
    }
  } else {
    const pool = sweepPool(Math.min(workers, todo.length), bundle, opts.warn);
    try {
      await Promise.all(todo.map((run) => pool.run(taskOf(run)).then((t) => (timing(t), finish(t.row)), (e: unknown) => finish(crashRow(run, e)))));
    } finally {
      await pool.destroy();
    }
  }
  const all = loaded.runs.map((r) => rows.get(r.id) as ResultRow);
  const csv = resultsCsv(loaded.sweep, all);
  writeAtomic(join(out, 'results.csv'), csv);
  const summary = summarize(loaded, all, computed, workers, (performance.now() - t0) / 1000, { cpu, wall, driverCpu: threadCpuSeconds() - driverCpu0, processCpu: cpuSecondsSince(processCpu0) });
  writeAtomic(join(out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  return { ...summary, out, resultsCsv: join(out, 'results.csv') };
}
