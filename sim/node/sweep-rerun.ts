/**
 * `terrawheel rerun <sweep.json> --out <dir> --id <id> [--record <file.mcap>]` (issue #31): one run
 * of a sweep, alone, in this thread, optionally with a recording, and its final state hash
 * compared with the row the sweep wrote for it (`<dir>/rows/<id>.json`). The world is
 * deterministic, so the hashes agree unless the build, the sweep file or its files changed since
 * the sweep ran: a mismatch is reported (exit 1), never silently written over the row. The
 * recording replays in the app and `terrawheel verify` re-simulates it.
 *
 * The sweep is loaded and checked exactly as `terrawheel sweep` loads it (loadSweep) and the run's
 * task is built the same way (sweepTaskFor), so the id names the same parameters and seed.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ResultRow } from '../batch/run';
import { MAX_SWEEP_RUNS, runScenario, type SweepRun } from '../scenario/sweep-schema';
import { ScenarioError } from '../scenario/scenario-guard';
import { loadSweep, type LoadedSweep } from './sweep';
import { runTask, type SweepTask } from './sweep-task';

export interface RerunOptions {
  sweepPath: string;
  /** The sweep's output directory (its row for `id` is compared, if there). */
  out: string;
  id: string;
  /** Where to write the run's MCAP recording, or null. */
  record: string | null;
  maxRuns?: number;
}

export interface RerunResult {
  id: string;
  row: ResultRow;
  /** The row the sweep wrote for this id, or null when there is none. */
  previous: ResultRow | null;
  /** The state hashes agree (null: no previous row to compare). */
  match: boolean | null;
  recording: string | null;
}

/** The task of `run` of a loaded sweep (recording to `recordPath` or none): as the sweep driver builds it. */
export function sweepTaskFor(loaded: LoadedSweep, run: SweepRun, recordPath: string | null): SweepTask {
  return {
    input: { id: run.id, params: run.params, replicate: run.replicate, seed: run.seed, stop: loaded.sweep.stop, metrics: loaded.sweep.metrics },
    scenario: runScenario(loaded.base, loaded.sweep, run),
    scenarioPath: loaded.basePath,
    recordPath,
  };
}

/** Re-runs one run by id. Throws ScenarioError for a bad sweep or an id the sweep does not have. */
export async function rerunSweepRun(opts: RerunOptions): Promise<RerunResult> {
  const loaded = loadSweep(opts.sweepPath, opts.maxRuns ?? MAX_SWEEP_RUNS);
  const run = loaded.runs.find((r) => r.id === opts.id);
  if (run === undefined) {
    const n = loaded.runs.length;
    throw new ScenarioError(`the sweep has no run "${opts.id}"; its ids are ${n === 0 ? 'none' : n === 1 ? loaded.runs[0].id : `${loaded.runs[0].id} to ${loaded.runs[n - 1].id}`}`);
  }
  const rowPath = join(resolve(opts.out), 'rows', `${run.id}.json`);
  let previous: ResultRow | null = null;
  if (existsSync(rowPath)) {
    try {
      const r = JSON.parse(readFileSync(rowPath, 'utf8')) as ResultRow;
      if (r.id === run.id) previous = r;
    } catch {
      // a torn row file: nothing to compare with
    }
  }
  const recording = opts.record === null ? null : resolve(opts.record);
  if (recording !== null) mkdirSync(dirname(recording), { recursive: true });
  const row = await runTask(sweepTaskFor(loaded, run, recording));
  return { id: run.id, row, previous, match: previous === null ? null : previous.stateHash === row.stateHash, recording };
}

export function formatRerun(r: RerunResult): string {
  const verdict = r.match === null ? 'no row of the sweep to compare with' : r.match ? 'equals the row of the sweep' : `DIFFERS from the row of the sweep (${r.previous?.stateHash || 'none'})`;
  return [
    `run           ${r.id} (${Object.entries(r.row.params).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ') || 'no axes'}, replicate ${r.row.replicate}, seed ${r.row.seed})`,
    `steps         ${r.row.steps} (${r.row.simSeconds.toFixed(2)} s)`,
    ...(r.row.fault !== null ? [`FAULT         ${r.row.fault}`] : []),
    `state hash    ${r.row.stateHash} ${verdict}`,
    ...(r.recording !== null ? [`recording     ${r.recording} (terrawheel verify re-checks it)`] : []),
  ].join('\n');
}
