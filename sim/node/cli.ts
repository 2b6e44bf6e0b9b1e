/**
 * `terrawheel`, the headless runner (bin/terrawheel.mjs; `npx terrawheel` in a clone):
 *   terrawheel run <scenario.json> [--duration s] [--throttle t] [--steer s] [--record out.mcap] [--max-memory size] [--json]
 *   terrawheel verify <recording.mcap> [--scenario <scenario.json>] [--json]
 *   terrawheel export-csv <recording.mcap> [--out <file.csv>] [--json]
 *   terrawheel sweep <sweep.json> --out <dir> [--workers n] [--resume] [--max-runs n] [--queue redis://host:port] [--json]
 *   terrawheel worker --queue redis://host:port [--concurrency n] [--lock-duration s] [--idle-exit s]
 *   terrawheel rerun <sweep.json> --out <dir> --id <id> [--record out.mcap] [--json]
 *   terrawheel report <dir> [--out report.html] [--json]
 *   terrawheel serve <scenario.json> [--port 8765] [--host 127.0.0.1] [--rosbridge-port 9090] [--lockstep] [--token T]
 *   terrawheel help [command]
 * The commands, options, defaults and help text are one table in ./cli-args.ts. Through npm,
 * `npm run --silent sim -- …` (without --silent npm's banner precedes the output on stdout).
 *
 * Loads the scenario and its terrain from disk, steps the world in this process (no worker, no
 * DOM), and prints a summary: what was simulated, how fast, where the robot ended, what the
 * wheels touched, and the state hash (same build + same inputs ⇒ same hash). With --record the
 * run is written to an MCAP recording as it goes (a progress line on stderr).
 *
 * A fault ends the run early: a body past a limit, or a robot body leaving the terrain ("body
 * "rover/wheel_fr" left the terrain at x 30.002, y 24.118 m (step 4146): …"). It is reported in
 * the summary (`fault`, and `faultDetail` with its kind, body, step and x, y) and is not a failure.
 *
 * Exit codes: 0 ok (verify: deterministic; a run that ended at a fault; help), 1 failure (a
 * missing or unreadable file, "file not found: …", a diverged or other-build recording), 2 usage
 * (with a "did you mean" for a mistyped command or option), 3 incomplete recording (verify,
 * export-csv: the file is cut, damaged or without its summary; its prefix was verified or
 * exported, and `cut` says where it ends and how many bytes after its last complete chunk are
 * lost). With --json the result, or
 * `{ "error": message, "exitCode": n }`, is printed as JSON on stdout.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { FileSink, FileSource, exportWheelCsvFile } from './record-file';
import { assetHashes, SCENARIO_ASSET_PREFIX, type RecordingStatus } from '../app/record-session';
import { RecordingReader } from '../record/reader';
import { loadCodecs } from '../record/codecs';
import type { VerifyResult } from '../record/replay';
import { contactKindName } from '../dynamics/plain-world';
import { createDefaultService } from '../app/default-service';
import { prepareScenarioMeshes } from '../scenario/scenario-meshes';
import { diskConvexPartsCache } from './convex-parts-cache';
import { nodeEncoderThread } from './record-thread';
import { readScenarioFiles as readScenarioFilesFromDisk, readScenarioFilesAsync as readScenarioFilesFromDiskAsync } from './open-scenario';
import { ScenarioFileError, type ScenarioFiles } from '../scenario/scenario-files';
import type { SimServiceImpl } from '../app/service';
import type { SimWorld } from '../app/sim-world';
import type { WorldFault } from '../dynamics/world';
import { boundingRadius, frameWarnings, worldWarnings } from '../app/warnings';
import { runSweep, sweepProgressLine, type SweepProgress } from './sweep';
import { formatRerun, rerunSweepRun } from './sweep-rerun';
import { writeSweepReport } from './sweep-report';
import { commandHelp, displayPath, helpText, parseCommand, UsageError, version, type CliCommand, type RunOptions } from './cli-args';
import { createErrorMessage, fileError, fileErrorMessage, isFsError, missingFileMessage, similarFile } from './file-errors';

/** Steps between two checks of the per-frame warnings (fast bodies, off the map). */
const WARNING_CHECK_STEPS = 24;

export { parseArgs, parseCommand, UsageError, type CliCommand } from './cli-args';
type CliOptions = RunOptions;

/**
 * The scenario's files (openScenario's reader), with a missing one named relative to the working
 * directory and, when a file beside it has a close name, "did you mean <that file>?".
 */
export function readScenarioFiles(path: string): ScenarioFiles {
  try {
    return readScenarioFilesFromDisk(path);
  } catch (e) {
    if (!(e instanceof ScenarioFileError) || !e.message.startsWith('file not found: ')) throw e;
    const guess = similarFile(e.path);
    throw new ScenarioFileError(`file not found: ${displayPath(e.path)} (${e.field})${guess === null ? '' : `; did you mean ${displayPath(guess)}?`}`, e.path, e.field);
  }
}

/** readScenarioFiles, expanding a xacro robot (robot.xacroArgs; includes read from disk). */
export async function readScenarioFilesAsync(path: string): Promise<ScenarioFiles> {
  try {
    return await readScenarioFilesFromDiskAsync(path);
  } catch (e) {
    if (!(e instanceof ScenarioFileError) || !e.message.startsWith('file not found: ')) throw e;
    const guess = similarFile(e.path);
    throw new ScenarioFileError(`file not found: ${displayPath(e.path)} (${e.field})${guess === null ? '' : `; did you mean ${displayPath(guess)}?`}`, e.path, e.field);
  }
}

export interface RunSummary {
  scenario: string;
  terrain: { cols: number; rows: number; dx: number; dy: number };
  bodies: number;
  joints: number;
  steps: number;
  simSeconds: number;
  wallSeconds: number;
  stepsPerSecond: number;
  realtimeFactor: number;
  /** The robot's base (or body 0). */
  final: { body: string; x: number; y: number; z: number; yawDeg: number; speed: number };
  distance: number;
  contactsPerStep: number;
  maxDepth: number;
  contactKinds: Record<string, number>;
  fault: string | null;
  /** The fault's kind ('limit' or 'left-terrain'), body, step and, for left-terrain, the body origin's x, y [m]; null without a fault. */
  faultDetail: WorldFault | null;
  /** Terrain too coarse for a wheel, bodies moving more than their size per step, off the map. */
  warnings: string[];
  /** The robot's collision meshes: mesh, single-hull and convex-parts volumes (prepareScenarioMeshes). */
  meshes: string[];
  stateHash: string;
  /** Set with --record. */
  recording?: { path: string } & RecordingStatus;
}


/** Where progress lines go (stderr in the CLI); `done` ends the line. */
export interface Progress {
  update(line: string): void;
  done(): void;
}

/** [ms] Wall time between progress updates. */
const PROGRESS_MS = 250;

/** `progressMs`: wall time between progress updates (0: every step; tests). */
export async function runScenarioFile(opts: CliOptions, progress?: Progress, progressMs = PROGRESS_MS): Promise<RunSummary> {
  // With --record the file is encoded in a worker thread (sim/record/encoder.ts).
  const service = createDefaultService({ ...(opts.record ? { recordThread: nodeEncoderThread } : {}), prepareFiles: (f) => prepareScenarioMeshes(f, diskConvexPartsCache()) });
  try {
    return await runOn(service, opts, progress, progressMs);
  } finally {
    // on an error: the recording's captured steps are flushed and its encoder thread ends
    service.dispose();
  }
}

async function runOn(service: SimServiceImpl, opts: CliOptions, progress: Progress | undefined, progressMs: number): Promise<RunSummary> {
  const scenarioPath = resolve(opts.scenarioPath);
  // Concave collision meshes split here (disk cache) so the summary can list their volumes.
  const files = await prepareScenarioMeshes(await readScenarioFilesAsync(scenarioPath), diskConvexPartsCache());
  await service.load(files, undefined, opts.maxMemoryBytes !== undefined ? { maxMemoryBytes: opts.maxMemoryBytes } : {});
  const world = service.getWorld() as SimWorld;
  let recordPath: string | null = null;
  let sink: FileSink | null = null;
  if (opts.record) {
    recordPath = resolve(opts.record);
    try {
      sink = await FileSink.create(recordPath);
    } catch (e) {
      throw new Error(createErrorMessage(e, recordPath, 'the recording'));
    }
    await service.startRecordingTo(sink, { scenarioPath });
  }
  if (opts.throttle !== null || opts.steer !== null) service.setDrive({ throttle: opts.throttle ?? 0, steer: opts.steer ?? 0 });
  const engine = world.engine;
  const base = Math.max(0, engine.spec.robot ? engine.bodies.indexOf(engine.spec.robot.base) : 0);
  const steps = Math.round(opts.duration / world.dt);
  const kinds: Record<string, number> = {};
  let contacts = 0;
  let maxDepth = 0;
  let distance = 0;
  const o: [number, number, number] = [0, 0, 0];
  engine.bodies.originOf(o, base);
  let px = o[0], py = o[1], pz = o[2];
  const info = world.info();
  const warnings = new Set(worldWarnings(info));
  const sizes = info.bodies.map((b) => boundingRadius(b.shape));
  const t0 = performance.now();
  let lastProgress = t0;
  let done = 0;
  for (; done < steps && engine.fault === null; done++) {
    if (recordPath !== null) {
      await service.step(1);
      // The encoder thread's output and the file's writes complete on the event loop, which this
      // loop (awaits of settled promises: microtasks only) would otherwise let run only when the
      // recording is behind and step() waits for it: one turn per step lets the writes go on
      // while stepping, and the progress line's bytes follow the file.
      await new Promise<void>((r) => setImmediate(r));
      if (progress && sink !== null && performance.now() - lastProgress >= progressMs) {
        lastProgress = performance.now();
        // what the file sink reports on disk: its bytes, and the last step they hold completely
        const saved = sink.savedStep < 0 ? '' : `, saved to ${(sink.savedStep * world.dt).toFixed(1)} s`;
        progress.update(progressLine(done / steps, `${(done * world.dt).toFixed(1)}/${(steps * world.dt).toFixed(1)} s, ${formatBytes(sink.bytesWritten)} on disk${saved}`));
      }
    } else world.step(1);
    if (done % WARNING_CHECK_STEPS === 0) {
      const f = engine.frame();
      for (const w of frameWarnings(info, Float32Array.from(f.poses), Float32Array.from(f.velocities), sizes)) warnings.add(w.replace(/ moves [0-9.]+ m per step, more than its size/, ' moves more than its size per step').replace(/left the terrain at .*/, 'left the terrain'));
    }
    const c = engine.contacts;
    contacts += c.count;
    for (let q = 0; q < c.count; q++) {
      const name = contactKindName(c.kind[q]);
      kinds[name] = (kinds[name] ?? 0) + 1;
      if (c.depth[q] > maxDepth) maxDepth = c.depth[q];
    }
    engine.bodies.originOf(o, base);
    distance += Math.hypot(o[0] - px, o[1] - py, o[2] - pz);
    px = o[0]; py = o[1]; pz = o[2];
  }
  const wall = (performance.now() - t0) / 1000;
  // the fault says where and when; the sampled warning would only repeat it without them
  if (engine.fault?.kind === 'left-terrain') warnings.delete('left the terrain');
  const q = engine.bodies.rot.subarray(4 * base, 4 * base + 4);
  const yaw = Math.atan2(2 * (q[3] * q[2] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
  const summary: RunSummary = {
    scenario: world.name,
    terrain: { cols: world.terrain.cols, rows: world.terrain.rows, dx: world.terrain.dx, dy: world.terrain.dy },
    bodies: engine.bodies.count,
    joints: engine.joints.count,
    steps: done,
    simSeconds: done * world.dt,
    wallSeconds: wall,
    stepsPerSecond: wall > 0 ? done / wall : Infinity,
    realtimeFactor: wall > 0 ? (done * world.dt) / wall : Infinity,
    final: { body: engine.bodies.names[base], x: o[0], y: o[1], z: o[2], yawDeg: (yaw * 180) / Math.PI, speed: world.speed() },
    distance,
    contactsPerStep: done > 0 ? contacts / done : 0,
    maxDepth,
    contactKinds: kinds,
    fault: world.fault,
    faultDetail: engine.fault === null ? null : { ...engine.fault },
    warnings: [...warnings],
    meshes: files.robotMeshReport ?? [],
    stateHash: engine.stateHash(),
  };
  if (recordPath !== null) {
    summary.recording = { path: recordPath, ...(await service.stopRecording()) };
    progress?.done();
  }
  return summary;
}

/** "[#####     ]  50%  text" */
export function progressLine(fraction: number, text: string): string {
  const width = 24;
  const f = Math.max(0, Math.min(1, fraction));
  const n = Math.round(f * width);
  return `[${'#'.repeat(n)}${' '.repeat(width - n)}] ${String(Math.round(f * 100)).padStart(3)}%  ${text}`;
}

export function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;
}

export interface VerifySummary extends VerifyResult {
  file: string;
  scenarioPath: string;
  /** Assets whose hash differs from the recording's (the re-simulation then cannot match). */
  assetMismatches: string[];
}

/**
 * `verify`: re-simulates a recording. The scenario's files are found relative to the scenario
 * path the recording names (or `scenarioPath`); the recorded scenario JSON is used, and the
 * files' hashes are compared with the recorded ones first.
 */
export async function verifyRecordingFile(file: string, scenarioPath: string | null, progress?: Progress): Promise<VerifySummary> {
  const path = resolve(file);
  let source: FileSource;
  try {
    source = await FileSource.open(path);
  } catch (e) {
    throw new Error(missingFileMessage(e, path, 'the recording'));
  }
  const service = createDefaultService();
  try {
    const reader = await RecordingReader.open(source, { codecs: await loadCodecs(), cacheChunks: 4 });
    const info = reader.info;
    const recordedScenario = info.assets.find((a) => a.name.startsWith(SCENARIO_ASSET_PREFIX));
    const scenario = scenarioPath !== null ? resolve(scenarioPath) : recordedScenario ? recordedScenario.name.slice(SCENARIO_ASSET_PREFIX.length) : '';
    if (scenario === '') throw new UsageError(`${displayPath(path)} does not name its scenario file: pass --scenario <scenario.json>`, 'verify');
    if (scenarioPath === null && !existsSync(scenario)) throw new Error(`file not found: ${displayPath(scenario)} (the scenario the recording names; pass --scenario <scenario.json> if it moved)`);
    const files = await readScenarioFilesAsync(scenario);
    files.scenario = info.scenario;
    const hashes = await assetHashes(files, scenario);
    const mismatches: string[] = [];
    for (const a of info.assets) {
      const mine = a.name.startsWith(SCENARIO_ASSET_PREFIX) ? hashes[0] : hashes.find((h) => h.name === a.name);
      if (mine === undefined) mismatches.push(`${a.name} (missing)`);
      else if (mine.hash !== a.hash) mismatches.push(a.name);
    }
    await service.load(files);
    // the asset hashes were compared above (a mismatch is reported, not refused)
    await service.openRecording(source, path, { checkAssets: false });
    const result = await service.verify((s, last) => progress?.update(progressLine(last > 0 ? s / last : 1, `step ${s}/${last}`)));
    progress?.done();
    if (mismatches.length > 0 && result.verdict === 'deterministic') {
      result.verdict = 'diverged';
      result.message = `the scenario's files differ from the recording's (${mismatches.join(', ')}), though the re-simulation matched`;
    } else if (mismatches.length > 0) result.message += ` (the scenario's files differ from the recording's: ${mismatches.join(', ')})`;
    return { ...result, file: path, scenarioPath: scenario, assetMismatches: mismatches };
  } finally {
    service.dispose();
    await source.close();
  }
}

export function formatVerify(v: VerifySummary): string {
  return [
    `recording     ${v.file}`,
    `scenario      ${v.scenarioPath}`,
    `result        ${v.message}`,
    `checked       ${v.keyframesChecked} keyframes, ${v.framesChecked} frames`,
    ...(v.cut ? [`INCOMPLETE    ${v.cut.message}`] : []),
  ].join('\n');
}

/** Exit code of an incomplete (cut, damaged, summary-less) recording whose prefix verified or exported. */
export const EXIT_CUT = 3;

/** Output streams of runCli (process.stdout/stderr in the CLI; strings in tests). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal (progress lines redraw in place). */
  tty?: boolean;
  /** `serve` runs until this resolves (default: SIGINT or SIGTERM). */
  stop?: Promise<unknown>;
}

/** Resolves at the first SIGINT or SIGTERM (the handlers are removed then). */
function signalStop(): Promise<void> {
  return new Promise((done) => {
    const on = (): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      done();
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** Runs one command line; returns the exit code (0 ok, 1 failure or divergence, 2 usage). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (e: unknown, code: number): number => {
    const message = isFsError(e) ? fileErrorMessage(e) : ((e as Error).message ?? String(e));
    if (json) io.out(JSON.stringify({ error: message, exitCode: code }, null, 2));
    else io.err(code === 2 ? message : `terrawheel: ${message}`);
    return code;
  };
  if (argv.length === 0) {
    // a bare `terrawheel`: what it can do, on stderr (stdout stays for results)
    io.err(helpText());
    return 2;
  }
  let cmd: CliCommand;
  try {
    cmd = parseCommand(argv);
  } catch (e) {
    return fail(e, 2);
  }
  if (cmd.kind === 'help') {
    io.out(cmd.command === null ? helpText() : commandHelp(cmd.command));
    return 0;
  }
  if (cmd.kind === 'version') {
    io.out(version());
    return 0;
  }
  let last = '';
  const progress: Progress | undefined = json
    ? undefined
    : {
        update: (line) => {
          if (io.tty) io.err(`\r${line}`);
          else if (line.slice(0, 32) !== last.slice(0, 32)) io.err(line + '\n');
          last = line;
        },
        done: () => {
          if (io.tty && last !== '') io.err('\n');
          last = '';
        },
      };
  try {
    if (cmd.kind === 'worker') {
      // the queue (bullmq, ioredis) is imported only when used: loading it costs every start ~0.4 s of CPU
      const { runQueueWorker } = await import('./sweep-queue');
      await runQueueWorker(cmd.opts, (line) => io.err(`worker: ${line}`));
      return 0;
    }
    if (cmd.kind === 'sweep') {
      const update: SweepProgress = { update: (...a) => progress?.update(sweepProgressLine(...a)) };
      const s =
        cmd.opts.queue !== undefined
          ? await (await import('./sweep-queue')).runSweepOnQueue(cmd.opts, json ? undefined : update, (line) => io.err(`sweep: ${line}`))
          : await runSweep(cmd.opts, json ? undefined : update);
      progress?.done();
      io.out(json ? JSON.stringify(s, null, 2) : `${s.runs} runs (${s.computed} computed, ${s.failed} with a fault) in ${s.wallSeconds.toFixed(1)} s on ${s.workers} worker(s): ${s.resultsCsv}`);
      return 0;
    }
    if (cmd.kind === 'report') {
      const r = writeSweepReport(cmd.dir, cmd.out);
      io.out(json ? JSON.stringify(r, null, 2) : `wrote the report of ${r.runs} runs to ${r.out} (${formatBytes(r.bytes)})`);
      return 0;
    }
    if (cmd.kind === 'rerun') {
      const r = await rerunSweepRun(cmd.opts);
      io.out(json ? JSON.stringify(r, null, 2) : formatRerun(r));
      return r.match === false ? 1 : 0;
    }
    if (cmd.kind === 'serve') {
      // loaded on demand: the other commands do not need the socket libraries
      const { serveScenario } = await import('../live/serve');
      const { startRosbridgeServer } = await import('../live/rosbridge/server');
      await serveScenario(cmd.opts, { out: io.out, err: io.err, stop: io.stop ?? signalStop(), startRosbridge: startRosbridgeServer });
      return 0;
    }
    if (cmd.kind === 'run') {
      const summary = await runScenarioFile(cmd.opts, progress);
      io.out(cmd.opts.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
      return 0;
    }
    if (cmd.kind === 'verify') {
      const v = await verifyRecordingFile(cmd.file, cmd.scenario, progress);
      io.out(cmd.json ? JSON.stringify(v, null, 2) : formatVerify(v));
      return v.verdict !== 'deterministic' ? 1 : v.cut !== null ? EXIT_CUT : 0;
    }
    const src = resolve(cmd.file);
    const out = resolve(cmd.out ?? src.replace(/\.mcap$/i, '') + '.csv');
    let exported: Awaited<ReturnType<typeof exportWheelCsvFile>>;
    try {
      exported = await exportWheelCsvFile(src, out);
    } catch (e) {
      if (isFsError(e) && e.path !== undefined && resolve(e.path) === out) throw new Error(createErrorMessage(e, out, 'the CSV'));
      throw fileError(e, undefined, isFsError(e) && e.path !== undefined && resolve(e.path) === src ? 'the recording' : undefined);
    }
    const { rows, cut } = exported;
    io.out(cmd.json ? JSON.stringify({ file: src, out, rows, cut }, null, 2) : `wrote ${rows} rows to ${out}${cut ? `\nINCOMPLETE    ${cut.message}` : ''}`);
    return cut !== null ? EXIT_CUT : 0;
  } catch (e) {
    return fail(e, e instanceof UsageError ? 2 : 1);
  }
}

export function formatSummary(r: RunSummary): string {
  const f = (v: number, d = 3) => v.toFixed(d);
  const kinds = Object.entries(r.contactKinds).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  return [
    `scenario      ${r.scenario}`,
    `terrain       ${r.terrain.cols} x ${r.terrain.rows} vertices, ${r.terrain.dx} x ${r.terrain.dy} m cells`,
    `simulated     ${f(r.simSeconds, 2)} s in ${r.steps} steps (wall ${f(r.wallSeconds, 3)} s, ${Math.round(r.stepsPerSecond)} steps/s, ${f(r.realtimeFactor, 1)}x real time)`,
    `world         ${r.bodies} bodies, ${r.joints} joints`,
    `final pose    ${r.final.body}: x ${f(r.final.x)} m, y ${f(r.final.y)} m, z ${f(r.final.z)} m, yaw ${f(r.final.yawDeg, 1)} deg, speed ${f(r.final.speed, 2)} m/s`,
    `travelled     ${f(r.distance)} m`,
    `contacts      ${f(r.contactsPerStep, 2)} per step, max depth ${f(r.maxDepth * 1000, 2)} mm (${kinds})`,
    ...(r.fault ? [`FAULT         ${r.fault}`] : []),
    // a robot's "info: " lines (joints its controller files hold) are said as such, not as warnings
    ...r.warnings.map((w) => (w.startsWith('info: ') ? `info          ${w.slice(6)}` : `warning       ${w}`)),
    ...(r.meshes ?? []).map((m) => `mesh          ${m}`),
    `state hash    ${r.stateHash}`,
    ...(r.recording ? [`recording     ${r.recording.path}: ${r.recording.steps} steps, ${formatBytes(r.recording.bytes)}, ${r.recording.keyframes} keyframes`] : []),
  ].join('\n');
}

/** The `terrawheel` command (bin/terrawheel.mjs, `npm run sim`): runs argv, sets the exit code. */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  const code = await runCli(argv, {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    err: (t) => process.stderr.write(t.endsWith('\n') || t.startsWith('\r') ? t : t + '\n'),
    tty: process.stderr.isTTY === true,
  });
  process.exitCode = code;
}

const invokedDirectly = typeof process !== 'undefined' && process.argv[1] !== undefined && /cli\.(ts|js|mjs)$/.test(process.argv[1]);
if (invokedDirectly) void main();
