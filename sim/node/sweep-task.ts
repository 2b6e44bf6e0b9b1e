/**
 * The task of one sweep run in a Node thread (a piscina worker, or the CLI's own thread with
 * --workers 1): read the files the run's scenario needs (cached per thread: the runs of a sweep
 * mostly share one terrain), build the world on this thread's service, run it (sim/batch/run.ts).
 */
import { dirname, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import type { ScenarioFiles } from '../app/protocol';
import { createDefaultService, terrainDataFileName } from '../app/default-service';
import type { SimServiceImpl } from '../app/service';
import { runOne, type ResultRow, type RunInput } from '../batch/run';
import { parseUrdf } from '../robot/urdf/parse-urdf';
import { urdfReferencedFiles } from '../robot/urdf/load-urdf';
import { parseScenarioFile } from '../scenario/scenario-v2';
import { FileSink } from './record-file';
import { nodeEncoderThread } from './record-thread';

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
const fileCache = new Map<string, Buffer>();

function readCached(path: string, what: string): Buffer {
  let b = fileCache.get(path);
  if (b === undefined) {
    try {
      b = readFileSync(path);
    } catch (e) {
      throw new Error(`cannot read ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    fileCache.set(path, b);
  }
  return b;
}

function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readCached(path, what).toString('utf8'));
  } catch (e) {
    if ((e as Error).message.startsWith('cannot read')) throw e;
    throw new Error(`${what} ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The files `scenario` (a scenario JSON whose references are relative to `scenarioPath`) needs. Throws naming a missing file. */
export function scenarioFilesFor(scenario: unknown, scenarioPath: string): ScenarioFiles {
  const parsed = parseScenarioFile(scenario);
  const dir = dirname(scenarioPath);
  const files: ScenarioFiles = { scenario, terrainSidecar: null, terrainData: new Uint8Array(0) };
  if ('file' in parsed.terrain) {
    const sidecarPath = resolve(dir, parsed.terrain.file);
    files.terrainSidecar = readJson(sidecarPath, 'terrain sidecar');
    const data = readCached(resolve(dirname(sidecarPath), terrainDataFileName(files.terrainSidecar)), 'terrain data');
    files.terrainData = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  if (parsed.robot !== undefined && 'urdf' in parsed.robot) {
    const urdfPath = resolve(dir, parsed.robot.urdf);
    files.robotUrdf = readCached(urdfPath, 'robot URDF').toString('utf8');
    files.robotMeshes = {};
    for (const ref of urdfReferencedFiles(parseUrdf(files.robotUrdf), parsed.robot.urdf)) {
      if (ref.role !== 'collision') continue;
      const m = readCached(resolve(dir, ref.path), `mesh of link "${ref.link}"`);
      files.robotMeshes[ref.path] = new Uint8Array(m.buffer, m.byteOffset, m.byteLength);
    }
  }
  return files;
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

export default runTask;
