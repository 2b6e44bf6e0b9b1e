/**
 * The task of one sweep run in a Node thread (a piscina worker, or the CLI's own thread with
 * --workers 1): read the files the run's scenario needs (cached per thread: the runs of a sweep
 * mostly share one terrain), build the world on this thread's service, run it (sim/batch/run.ts).
 */
import { createDefaultService } from '../app/default-service';
import type { SimServiceImpl } from '../app/service';
import { runOne, type ResultRow, type RunInput } from '../batch/run';
import { gatherScenarioFiles, type ScenarioFiles, type ScenarioFileSystem } from '../scenario/scenario-files';
import { nodeScenarioFileSystem } from './open-scenario';
import { FileSink } from './record-file';
import { nodeEncoderThread } from './record-thread';
import { threadCpuSeconds } from './thread-cpu';

/** What a driver hands a thread: the run, its scenario JSON (axis values applied), where the base scenario lives. */
export interface SweepTask {
  input: RunInput;
  scenario: unknown;
  /** Absolute path of the base scenario (its file references are relative to it). */
  scenarioPath: string;
  /** Absolute path of the run's MCAP recording, or null. */
  recordPath: string | null;
}

/** File bytes by absolute path, for this thread's life (the sweep's files do not change under it). */
const fileCache = new Map<string, Uint8Array>();

/**
 * The files `scenario` (a scenario JSON whose references are relative to `scenarioPath`) needs,
 * gathered like openScenario's (sim/scenario/scenario-files.ts) from a file system that serves
 * `scenario` at `scenarioPath` and the disk, cached, elsewhere. Throws naming a missing file.
 */
export function scenarioFilesFor(scenario: unknown, scenarioPath: string): ScenarioFiles {
  const fs: ScenarioFileSystem = {
    readFile(path) {
      if (path === scenarioPath) return new TextEncoder().encode(JSON.stringify(scenario));
      let bytes = fileCache.get(path);
      if (bytes === undefined) {
        const read = nodeScenarioFileSystem.readFile(path);
        if (read === null) return null;
        fileCache.set(path, (bytes = read));
      }
      return bytes;
    },
    resolve: nodeScenarioFileSystem.resolve,
  };
  return gatherScenarioFiles(scenarioPath, fs);
}

/** This thread's services (one without and one with a recording encoder), made on first use. */
let plain: SimServiceImpl | null = null;
let recording: SimServiceImpl | null = null;

/** Runs one task; a run whose files cannot be read or whose world faults is a row with its fault. */
export async function runTask(task: SweepTask): Promise<ResultRow> {
  let files: ScenarioFiles;
  try {
    files = scenarioFilesFor(task.scenario, task.scenarioPath);
  } catch (e) {
    return { id: task.input.id, params: task.input.params, replicate: task.input.replicate, seed: task.input.seed, metrics: {}, steps: 0, simSeconds: 0, fault: `load: ${(e as Error).message}`, stateHash: '' };
  }
  if (task.recordPath === null) {
    plain ??= createDefaultService();
    return runOne(plain, files, task.input);
  }
  recording ??= createDefaultService({ recordThread: nodeEncoderThread });
  const sink = await FileSink.create(task.recordPath);
  return runOne(recording, files, task.input, { sink, scenarioPath: task.scenarioPath });
}

/** A row and what computing it cost the thread that ran it (kept out of the row: rows are deterministic). */
export interface TimedRow {
  row: ResultRow;
  /** [s] This thread's CPU time for the run (thread-cpu.ts). */
  cpuSeconds: number;
  /** [s] Wall time of the run. */
  wallSeconds: number;
}

/** runTask with the run's thread CPU and wall time: the pool's entry. */
export async function runTimedTask(task: SweepTask): Promise<TimedRow> {
  const c0 = threadCpuSeconds();
  const t0 = performance.now();
  const row = await runTask(task);
  return { row, cpuSeconds: threadCpuSeconds() - c0, wallSeconds: (performance.now() - t0) / 1000 };
}

export default runTimedTask;
