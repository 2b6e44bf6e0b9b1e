/**
 * The task of one sweep run in a Node thread (a piscina worker, or the CLI's own thread with
 * --workers 1): read the files the run's scenario needs (cached per thread: the runs of a sweep
 * mostly share one terrain), build the world on this thread's service, run it (sim/batch/run.ts).
 */
import { createDefaultService } from '../app/default-service';
import type { SimServiceImpl, TerrainDecoder } from '../app/service';
import { decodeTerrain } from '../terrain/load-terrain';
import type { Heightfield } from '../terrain/heightfield';
import { runOne, type ResultRow, type RunInput } from '../batch/run';
import { gatherScenarioFiles, type ScenarioFiles, type ScenarioFileSystem } from '../scenario/scenario-files';
import { nodeScenarioFileSystem } from './open-scenario';
import { FileSink } from './record-file';
import { nodeEncoderThread } from './record-thread';
import { threadId } from 'node:worker_threads';
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
    // a robot package's controller files (scenario-controllers.ts), as the CLI's run finds them
    listFiles: nodeScenarioFileSystem.listFiles,
  };
  return gatherScenarioFiles(scenarioPath, fs);
}

/** Decoded terrains kept per thread (a sweep with a terrain axis holds a few; the rest share one). */
export const TERRAIN_CACHE_ENTRIES = 4;

/** This thread's decoded terrains, most recently used last: the data bytes (fileCache's object) and the sidecar's JSON. */
const terrainCache: { data: Uint8Array; sidecar: string; terrain: Heightfield }[] = [];

/**
 * decodeTerrain, decoded once per thread for the same bytes and sidecar. A run's world only reads
 * its terrain (a Heightfield is immutable; its query stack is scratch, reset by each query), so
 * every run gets the same heights it would have decoded itself: the same rows, bit for bit. Before,
 * each run inflated the standard rover's 601 × 601 PNG again and rebuilt its cell classes and
 * pyramid: a quarter of a 10-s run's CPU, and a few MB of buffers that made V8 collect its old
 * generation after every run.
 */
export const cachedDecodeTerrain: TerrainDecoder = (sidecar, data, onProgress) => {
  const key = JSON.stringify(sidecar);
  const at = terrainCache.findIndex((e) => e.data === data && e.sidecar === key);
  if (at >= 0) {
    const [hit] = terrainCache.splice(at, 1);
    terrainCache.push(hit);
    onProgress?.(1);
    return hit.terrain;
  }
  const terrain = decodeTerrain(sidecar, data, onProgress);
  terrainCache.push({ data, sidecar: key, terrain });
  if (terrainCache.length > TERRAIN_CACHE_ENTRIES) terrainCache.shift();
  return terrain;
};

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
    plain ??= createDefaultService({ decodeTerrain: cachedDecodeTerrain });
    return runOne(plain, files, task.input);
  }
  recording ??= createDefaultService({ decodeTerrain: cachedDecodeTerrain, recordThread: nodeEncoderThread });
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
  /** The thread that ran it (worker_threads' threadId; 0: the main thread). */
  thread: number;
  /** [ms since the epoch, sub-ms] When the run started and ended (comparable across threads: performance.timeOrigin + now()). */
  startedAt: number;
  endedAt: number;
}

/** runTask with the run's thread CPU and wall time: the pool's entry. */
export async function runTimedTask(task: SweepTask): Promise<TimedRow> {
  const c0 = threadCpuSeconds();
  const t0 = performance.now();
  const row = await runTask(task);
  const t1 = performance.now();
  return { row, cpuSeconds: threadCpuSeconds() - c0, wallSeconds: (t1 - t0) / 1000, thread: threadId, startedAt: performance.timeOrigin + t0, endedAt: performance.timeOrigin + t1 };
}

export default runTimedTask;
