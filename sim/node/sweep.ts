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
import type { Worker } from 'node:worker_threads';
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
  /**
   * Called with the pool's threads as soon as they are started (before the base scenario and
   * axes are checked): the tests use it to see that a sweep refused then leaves no thread running.
   */
  onPoolStarted?: (threads: readonly Worker[]) => void;
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

/** The sweep file alone, read and checked against its schema and the run cap (first half of loadSweep). */
export interface ParsedSweepFile {
  /** Absolute path of the sweep file. */
  path: string;
  sweep: Sweep;
  /** How many runs it expands to. */
  runCount: number;
}

/** Step 1a: the sweep file's own checks (schema, run count); no other file is read. Throws ScenarioError. */
export function parseSweepFile(sweepPath: string, maxRuns = MAX_SWEEP_RUNS): ParsedSweepFile {
  const path = resolve(sweepPath);
  const sweep = parseSweep(readJsonFile(path, 'sweep file'));
  return { path, sweep, runCount: checkRunCount(sweep, maxRuns) };
}

/** Step 1b: the base scenario, every axis value against it and the files each needs; the runs. Throws ScenarioError. */
export function checkSweepFile({ path, sweep }: ParsedSweepFile, maxRuns = MAX_SWEEP_RUNS): LoadedSweep {
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

/** Step 1: everything checked, nothing run. Throws ScenarioError naming what is wrong. */
export function loadSweep(sweepPath: string, maxRuns = MAX_SWEEP_RUNS): LoadedSweep {
  return checkSweepFile(parseSweepFile(sweepPath, maxRuns), maxRuns);
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
  /** Where the wall time went (null: a queue sweep). */
  timeline: SweepTimeline | null;
  /** Per metric over the runs that have it: min, mean, max. */
  metrics: Record<string, { n: number; min: number; mean: number; max: number }>;
  /**
   * Without jitter a sweep's replicates are identical re-runs: the points whose replicates ended
   * with different state hashes (a determinism failure) by their first run's id. Empty otherwise.
   */
  replicateHashMismatches: string[];
}

/**
 * Where a sweep's wall time went, in seconds from the sweep loaded (where summary.wallSeconds
 * starts; negative: before, while the sweep file's base scenario and axes were being checked).
 * Null where it does not apply (no pool, no run computed).
 */
export interface SweepTimeline {
  /** The worker bundle found (or built). */
  bundleReady: number | null;
  /** The pool's threads started (null: the runs ran in the driver's thread). */
  poolStarted: number | null;
  /** The first run of each thread started: the earliest and the latest (before it: the thread's start, loading the bundle). */
  firstRunStart: [number, number] | null;
  /** The last run of each thread ended: the earliest and the latest (their difference: the tail, one thread idle at the end). */
  lastRunEnd: [number, number] | null;
  /** Threads that ran runs. */
  threads: number;
  /** [s] Summed over threads: time between a run's end and the thread's next run (a row back, the next task out). */
  gapSeconds: number;
  /** [s] CPU of each thread's first 5 runs above the median run's (V8 compiles the simulator per isolate; the terrain is decoded once per thread). */
  warmupCpuSeconds: number;
  /** The pool shut down (null: no pool). */
  poolClosed: number | null;
  /** results.csv written: the end of wallSeconds. */
  resultsWritten: number;
}

/** Run timings as the driver saw them, for summarize. */
export interface SweepTimings {
  cpu: number[];
  wall: number[];
  driverCpu: number;
  processCpu?: number;
  timeline?: SweepTimeline;
}

/** The timeline of runs timed in their threads (TimedRow), with the driver's own marks ([s] from t0, performance.now() of `t0`). */
export function sweepTimeline(t0: number, runs: readonly TimedRow[], marks: { bundleReady: number | null; poolStarted: number | null; poolClosed: number | null; resultsWritten: number }): SweepTimeline {
  const at = (epochMs: number): number => (epochMs - performance.timeOrigin - t0) / 1000;
  const byThread = new Map<number, TimedRow[]>();
  for (const r of runs) {
    const list = byThread.get(r.thread);
    if (list === undefined) byThread.set(r.thread, [r]);
    else list.push(r);
  }
  const med = median(runs.map((r) => r.cpuSeconds)) ?? 0;
  let gap = 0;
  let warmup = 0;
  const firsts: number[] = [];
  const lasts: number[] = [];
  for (const list of byThread.values()) {
    list.sort((a, b) => a.startedAt - b.startedAt);
    firsts.push(at(list[0].startedAt));
    lasts.push(at(list[list.length - 1].endedAt));
    for (let k = 1; k < list.length; k++) gap += (list[k].startedAt - list[k - 1].endedAt) / 1000;
    for (const r of list.slice(0, 5)) warmup += r.cpuSeconds - med;
  }
  const span = (xs: number[]): [number, number] | null => (xs.length === 0 ? null : [Math.min(...xs), Math.max(...xs)]);
  return { ...marks, firstRunStart: span(firsts), lastRunEnd: span(lasts), threads: byThread.size, gapSeconds: gap, warmupCpuSeconds: Math.max(0, warmup) };
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function summarize(loaded: LoadedSweep, rows: ResultRow[], computed: number, workers: number, wallSeconds: number, t: SweepTimings = { cpu: [], wall: [], driverCpu: 0 }): SweepSummary {
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
    timeline: t.timeline ?? null,
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

/**
 * Steps 2 and 3. Returns the summary; a run that faults is a row, never an exception.
 *
 * On a pool, the pool's threads start (each loading the worker bundle, tenths of a second) once
 * the sweep file itself has passed its checks, while this thread checks the base scenario and
 * every axis value (reading and parsing the files they need); a sweep refused there shuts the
 * pool down before the error is thrown.
 */
export async function runSweep(opts: SweepOptions, progress?: SweepProgress): Promise<SweepSummary & { out: string; resultsCsv: string }> {
  if (opts.queue !== undefined) return (await import('./sweep-queue')).runSweepOnQueue(opts, progress);
  const maxRuns = opts.maxRuns ?? MAX_SWEEP_RUNS;
  const parsed = parseSweepFile(opts.sweepPath, maxRuns);
  const workers = Math.max(1, opts.workers ?? availableParallelism());
  const onPool = opts.pool === true || (workers > 1 && parsed.runCount > 1);
  let bundle: string | null = null;
  let bundleAt: number | null = null;
  let pool: Piscina<SweepTask, TimedRow> | null = null;
  let poolAt: number | null = null;
  if (onPool) {
    bundle = opts.bundle === false ? null : await sweepWorkerBundle(opts.warn);
    bundleAt = performance.now();
    pool = sweepPool(Math.min(workers, parsed.runCount), bundle, opts.warn);
    poolAt = performance.now();
    opts.onPoolStarted?.(pool.threads);
  }
  let loaded: LoadedSweep;
  const out = resolve(opts.out);
  const rowsDir = join(out, 'rows');
  const rows = new Map<string, ResultRow>();
  const todo: SweepRun[] = [];
  try {
    loaded = checkSweepFile(parsed, maxRuns);
    mkdirSync(rowsDir, { recursive: true });
    if (loaded.sweep.record) mkdirSync(join(out, 'runs'), { recursive: true });
    for (const run of loaded.runs) {
      const have = opts.resume ? readRow(join(rowsDir, `${run.id}.json`), run.id) : null;
      if (have !== null) rows.set(run.id, have);
      else todo.push(run);
    }
  } catch (e) {
    await pool?.destroy();
    throw e;
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
  const timed: TimedRow[] = [];
  const timing = (t: TimedRow): void => void timed.push(t);
  progress?.update(rows.size, failed, total, null);
  let poolClosedAt: number | null = null;
  if (pool !== null) {
    try {
      await Promise.all(todo.map((run) => pool.run(taskOf(run)).then((t) => (timing(t), finish(t.row)), (e: unknown) => finish(crashRow(run, e)))));
    } finally {
      await pool.destroy();
      poolClosedAt = performance.now();
    }
  } else if (todo.length > 0) {
    bundle = opts.bundle === false ? null : await sweepWorkerBundle(opts.warn);
    bundleAt = performance.now();
    const task: (t: SweepTask) => Promise<TimedRow> = bundle === null ? runTimedTask : ((await import(bundle)) as { default: typeof runTimedTask }).default;
    for (const run of todo) {
      let row: ResultRow;
      try {
        const t = await task(taskOf(run));
        timing(t);
        row = t.row;
      } catch (e) {
        row = crashRow(run, e);
      }
      finish(row);
    }
  }
  const all = loaded.runs.map((r) => rows.get(r.id) as ResultRow);
  const csv = resultsCsv(loaded.sweep, all);
  writeAtomic(join(out, 'results.csv'), csv);
  const end = performance.now();
  const rel = (x: number | null): number | null => (x === null ? null : (x - t0) / 1000);
  const timeline = sweepTimeline(t0, timed, { bundleReady: rel(bundleAt), poolStarted: rel(poolAt), poolClosed: rel(poolClosedAt), resultsWritten: (end - t0) / 1000 });
  const summary = summarize(loaded, all, computed, workers, (end - t0) / 1000, { cpu: timed.map((t) => t.cpuSeconds), wall: timed.map((t) => t.wallSeconds), driverCpu: threadCpuSeconds() - driverCpu0, processCpu: cpuSecondsSince(processCpu0), timeline });
  writeAtomic(join(out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  return { ...summary, out, resultsCsv: join(out, 'results.csv') };
}
