/**
 * The simulation service: owns one World and runs it on its own fixed-step clock. The web
 * worker (sim/app/worker.ts) and the Node worker (sim/node/worker-node.ts) both expose this object
 * through Comlink; tests and the CLI may call it directly.
 *
 * Clock: every tick (TICK_MS of wall time) the service owes `elapsed × timeScale / dt` steps and
 * runs them, at most MAX_STEPS_PER_TICK at once, so a slow machine runs slower than real time
 * instead of spiralling; the measured realtime factor is reported in every frame.
 */
import { expandScenarioXacro } from '../scenario/scenario-xacro';
import { controllerFilesFromRobotFiles } from '../scenario/scenario-controllers';
import { describeTerrainLoadEstimate, estimateTerrainLoad } from '../terrain/load-estimate';
import { parseScenarioFile, type ParsedScenario } from '../scenario/scenario-v2';
import { SimWorld } from './sim-world';
import { transfer } from 'comlink';
import type { MeshDecomposer } from '../robot/mesh/convex-parts';
import type { DriveCommand, Frame, LoadProgress, RecordingSummary, ReplayStatus, ScenarioFiles, SimService, TerrainPatch, WorldInfo } from './protocol';
import { terrainPatch } from '../terrain/patch';
import { Heightfield } from '../terrain/heightfield';
import type { RobotSpec } from '../dynamics/spec';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import type { VisualSpec } from '../robot/urdf/urdf-to-robot';
import { EncoderThreadStartError, type EncoderThreadFactory } from '../record/encoder';
import { assetHashes, clampDrive, RecordSession, replayable, stateBytes, stateFromBytes, BUILD_ID, SCENARIO_ASSET_PREFIX, type RecordingOptions, type RecordingStatus } from './record-session';
import { loadCodecs, type RecordingCodecs } from '../record/codecs';
import { bytesSource, type RecordingSink, type RecordingSource } from '../record/io';
import { RecordingReader } from '../record/reader';
import { seekWorld, verifyRecording, type VerifyResult } from '../record/replay';
import { scanTimelineEvents, type TimelineEvent } from '../record/events';
import { exportWheelCsv } from '../record/export-csv';
import type { InputRecord, JointInputRecord } from '../record/writer';
import { checkJointCommand, describeLive, snapshotLive, type LiveInfo, type LiveSnapshot, type LiveWorldInfo } from './live-info';
import { PlotSampler } from './plot-sampler';
import { availableSeries } from './plot-series';

/** [ms] Wall-clock period of the stepping loop. */
const TICK_MS = 8;
/** Most steps run in one tick before the loop yields (bounds the worker's latency to commands). */
const MAX_STEPS_PER_TICK = 200;
const MIN_TIME_SCALE = 0.1;
const MAX_TIME_SCALE = 10;
const MAX_MANUAL_STEPS = 1_000_000;
/**
 * [s] Simulated time between rewind points: saved states of the live world kept in memory so that
 * "step back" after a fault (stepBack) can restore a state from before the faulting step, whether
 * or not a recording (with its own keyframes) is running.
 */
export const REWIND_INTERVAL_S = 0.5;
/** Rewind points kept (the oldest is dropped): REWIND_POINTS × REWIND_INTERVAL_S of history. */
export const REWIND_POINTS = 8;
/** [s] A step back lands at least this long before the faulting step (a margin to steer away). */
export const REWIND_MARGIN_S = 0.5;

export type TerrainDecoder = (sidecar: unknown, data: Uint8Array, onProgress?: (fraction: number) => void) => Heightfield;

/**
 * Loads the URDF robot a scenario names (text and meshes from ScenarioFiles), placed at its start;
 * with its visuals when the loader has them (the renderer draws those instead of collision shapes).
 */
export type UrdfRobotLoader = (parsed: ParsedScenario, files: ScenarioFiles, terrain: Heightfield) => RobotSpec | { robot: RobotSpec; visuals: VisualSpec[]; warnings?: string[] };

export interface SimServiceDeps {
  decodeTerrain: TerrainDecoder;
  loadUrdfRobot?: UrdfRobotLoader;
  /** Wall clock in ms (injectable for tests). */
  now?: () => number;
  /** Recording codecs (default: the zstd/lz4 WASM codecs, loaded on first use). */
  codecs?: () => Promise<RecordingCodecs>;
  /**
   * Starts a recording's encoder thread (sim/record/encoder.ts): the CLI's Node worker, the web
   * worker's nested worker. Omitted: recordings are encoded in the service's thread.
   */
  recordThread?: EncoderThreadFactory;
  /**
   * An asynchronous step on the gathered files before the world is built, in the service's
   * thread (the worker in the app): the robot's concave collision meshes split into convex
   * parts (sim/scenario/scenario-meshes.ts). Omitted: files are used as given. `decompose`: the
   * decomposer set with setMeshDecomposer (the desktop app's main process), when there is one.
   */
  prepareFiles?: (files: ScenarioFiles, ctx: { decompose?: MeshDecomposer }) => Promise<ScenarioFiles>;
}

/** A recording opened for replay: its reader, all its inputs (small), the replay cursor. */
interface OpenReplay {
  name: string;
  reader: RecordingReader;
  inputs: InputRecord[];
  /** Index of the first input not yet applied by playback. */
  next: number;
  /** Its per-joint velocity inputs (format 4), and the first not yet applied. */
  jointInputs: JointInputRecord[];
  nextJoint: number;
  /** True while the world follows the recording (play/seek); false once branched. */
  following: boolean;
}

/** Bytes of a recording held open for replay at most (the app reads files whole). */
export const MAX_REPLAY_BYTES = 2 ** 31 - 1;
/**
 * [bytes] Most bytes a pulled recording (startPulledRecording) holds for its reader; past this the
 * writer waits, the recording becomes backlogged and the clock slows until they are taken.
 */
export const PULLED_RECORDING_MAX_BYTES = 64 * 1024 * 1024;

/** The chunks of a pulled recording not yet taken (see startPulledRecording). */
interface PulledRecording {
  session: RecordSession | null;
  chunks: Uint8Array[];
  bytes: number;
  /** It is being stopped: the writer no longer waits for takes (the footer must get out). */
  stopping: boolean;
  /** It stopped (by anyone): once the chunks are taken, it is over. */
  ended: boolean;
  /** Wakes the writer waiting for a take while over PULLED_RECORDING_MAX_BYTES. */
  wake: (() => void) | null;
}

/**
 * The simulation service: owns one world and runs it on its own fixed-step clock; the web and Node
 * workers expose it through Comlink, the CLI and tests call it directly.
 */
export class SimServiceImpl implements SimService {
  private world: SimWorld | null = null;
  private running = false;
  private timeScale = 1;
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastTick = 0;
  private owed = 0;
  private rtfWindowStart = 0;
  private rtfWindowSteps = 0;
  private realtimeFactor = 0;
  private readonly deps: SimServiceDeps;
  private readonly now: () => number;
  private files: ScenarioFiles | null = null;
  private recording: RecordSession | null = null;
  private lastRecording: RecordingStatus | null = null;
  private replay: OpenReplay | null = null;
  /** The loaded world's first state (resetWorld puts it back). */
  private initialState: Uint8Array | null = null;
  /** Rewind points of the live world, oldest first (REWIND_POINTS at most; see stepBack). */
  private rewind: { step: number; state: Float64Array }[] = [];
  /** Steps between rewind points for the loaded world's dt. */
  private rewindInterval = 1;
  /** The plotted series, sampled at every step (plot-sampler.ts), and the keys the renderer chose. */
  private readonly plot = new PlotSampler();
  private plotKeys: string[] = [];
  /** The recording a live link pulls (startPulledRecording), until its last chunk is taken. */
  private pulled: PulledRecording | null = null;
  /** The loaded world's live description (joint checks), built on first use. */
  private liveDescription: LiveInfo | null = null;
  /** Where V-HACD runs for the next loads (setMeshDecomposer); undefined: this thread. */
  private decompose: MeshDecomposer | undefined;

  constructor(deps: SimServiceDeps) {
    this.deps = deps;
    this.now = deps.now ?? (() => (typeof performance !== 'undefined' ? performance.now() : Date.now()));
  }

  setMeshDecomposer(decompose: MeshDecomposer | null): void {
    if (decompose !== null && typeof decompose !== 'function') throw new Error(`setMeshDecomposer: expected a function or null, got ${typeof decompose}`);
    this.decompose = decompose ?? undefined;
  }

  async load(files: ScenarioFiles, onProgress?: (p: LoadProgress) => void, options: LoadOptions = {}): Promise<WorldInfo> {
    // a xacro robot (any host may pass one, with its includes in robotFiles) is expanded here, first;
    // the package's controller files are taken from robotFiles before the expansion drops them
    files = await expandScenarioXacro(controllerFilesFromRobotFiles(files));
    if (this.deps.prepareFiles) files = await this.deps.prepareFiles(files, this.decompose ? { decompose: this.decompose } : {});
    const world = this.buildWorld(files, onProgress, options);
    if (this.recording) await this.stopRecording();
    this.replay = null;
    const wasRunning = this.running;
    this.setRunning(false);
    this.world = world;
    this.files = files;
    this.liveDescription = null;
    this.initialState = stateBytes(world.engine.saveState());
    this.owed = 0;
    this.rewind = [];
    this.rewindInterval = Math.max(1, Math.round(REWIND_INTERVAL_S / world.dt));
    this.noteRewind(world);
    this.applyPlotKeys();
    if (wasRunning) this.setRunning(true);
    const info = world.info();
    return transfer(info, [info.terrain.overview.heights.buffer]);
  }

  /** Builds the world of `files` (the running one untouched); throws naming what is wrong. */
  private buildWorld(files: ScenarioFiles, onProgress?: (p: LoadProgress) => void, options: LoadOptions = {}): SimWorld {
    const report = (stage: string, fraction: number) => {
      try {
        onProgress?.({ stage, fraction });
      } catch {
        // a dead progress listener must not abort the load
      }
    };
    if (files === null || typeof files !== 'object') throw new Error('load: expected { scenario, terrainSidecar, terrainData }');
    report('scenario', 0);
    const parsed = parseScenarioFile(files.scenario);
    report('terrain', 0.05);
    let terrain: Heightfield;
    if ('inline' in parsed.terrain) {
      const t = parsed.terrain.inline;
      terrain = Heightfield.fromArray({ cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0 ?? 0, y0: t.y0 ?? 0, heights: Float64Array.from(t.heights) });
    } else {
      if (!(files.terrainData instanceof Uint8Array)) throw new Error('load: terrainData must be the bytes of the terrain file');
      checkLoadMemory(files.terrainSidecar, files.terrainData, options.maxMemoryBytes ?? DEFAULT_MAX_LOAD_MEMORY_BYTES);
      terrain = this.deps.decodeTerrain(files.terrainSidecar, files.terrainData, (f) => report('terrain', 0.05 + 0.85 * f));
    }
    report('world', 0.9);
    let urdfRobot: RobotSpec | undefined;
    let visuals: VisualSpec[] | undefined;
    let robotWarnings: string[] = [];
    if (parsed.robot !== undefined && 'urdf' in parsed.robot) {
      if (!this.deps.loadUrdfRobot) throw new Error('load: this build cannot load URDF robots');
      const loaded = this.deps.loadUrdfRobot(parsed, files, terrain);
      if ('visuals' in loaded) {
        urdfRobot = loaded.robot;
        visuals = loaded.visuals;
        robotWarnings = loaded.warnings ?? [];
      } else urdfRobot = loaded;
    }
    // Build the new world completely before replacing the old one: a bad file leaves the
    // running world untouched.
    const world = SimWorld.create(parsed, terrain, urdfRobot, visuals, robotWarnings);
    report('ready', 1);
    return world;
  }

  /**
   * A user drive command. It reaches the world (and the recording) only when it changes the
   * drive, or takes over from the scenario's script: a repeated command would wake sleeping
   * bodies without leaving a trace in the recording. Ignored while a replay is followed.
   */
  setDrive(cmd: DriveCommand): void {
    if (cmd === null || typeof cmd !== 'object') return;
    const w = this.world;
    if (!w || this.replay?.following) return;
    const throttle = clampDrive(Number(cmd.throttle));
    const steer = clampDrive(Number(cmd.steer));
    const d = w.engine.drive;
    if (!w.scriptActive && d.throttle === throttle && d.steer === steer) return;
    w.setDrive({ throttle, steer });
    this.recording?.input(throttle, steer);
  }

  setRunning(running: boolean): void {
    running = running === true;
    if (running === this.running) return;
    this.running = running;
    if (running) {
      this.lastTick = this.now();
      this.rtfWindowStart = this.lastTick;
      this.rtfWindowSteps = 0;
      this.owed = 0;
      this.timer = setInterval(() => this.tick(), TICK_MS);
    } else if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  setTimeScale(scale: number): void {
    if (typeof scale !== 'number' || !Number.isFinite(scale)) return;
    this.timeScale = Math.min(MAX_TIME_SCALE, Math.max(MIN_TIME_SCALE, scale));
  }

  async step(n: number): Promise<number> {
    const w = this.requireWorld();
    if (!Number.isInteger(n) || n < 0 || n > MAX_MANUAL_STEPS) throw new Error(`step: n must be an integer from 0 to ${MAX_MANUAL_STEPS}, got ${n}`);
    let left = n;
    while (left > 0) {
      const before = w.stepCount;
      const waiting = this.stepWorld(w, left);
      left -= w.stepCount - before;
      if (!waiting || this.recording === null) break;
      // the recording's encoder or disk is behind: let it catch up, then step on
      await this.recording.drain();
    }
    if (this.recording?.backlogged) await this.recording.drain();
    return w.stepCount;
  }

  /**
   * Steps the world n times; records every step, and applies a followed replay's inputs. Stops
   * early and returns true when the recording is backlogged (its encoder or the disk is behind:
   * the caller awaits its `drain()` or steps later).
   */
  private stepWorld(w: SimWorld, n: number): boolean {
    const rec = this.recording;
    const rp = this.replay?.following ? this.replay : null;
    const plotting = this.plot.seriesKeys.length > 0;
    if (rec === null && rp === null) {
      // in runs that end on the rewind points' steps, so every point is taken; step by step when plotting
      let left = n;
      while (left > 0 && w.engine.fault === null) {
        const k = plotting ? 1 : Math.min(left, this.rewindInterval - (w.stepCount % this.rewindInterval));
        w.step(k);
        left -= k;
        if (plotting) this.plot.sample(w);
        this.noteRewind(w);
      }
      return false;
    }
    const e = w.engine;
    const rw = rp ? replayable(e) : null;
    for (let k = 0; k < n && e.fault === null; k++) {
      if (rp && rw) {
        const s = e.stepCount;
        if (s >= rp.reader.info.lastStep) {
          this.setRunning(false);
          break;
        }
        while (rp.next < rp.inputs.length && rp.inputs[rp.next].step <= s) {
          const i = rp.inputs[rp.next++];
          if (i.step === s) rw.setDriveInput(i.throttle, i.steer);
        }
        while (rp.nextJoint < rp.jointInputs.length && rp.jointInputs[rp.nextJoint].step <= s) {
          const i = rp.jointInputs[rp.nextJoint++];
          if (i.step === s) rw.setJointInput(i.joint, i.velocity);
        }
      }
      e.step(1);
      if (plotting) this.plot.sample(w);
      this.noteRewind(w);
      if (rec === null) continue;
      rec.afterStep();
      if (rec.backlogged) return true;
    }
    return false;
  }

  // --- recording ---------------------------------------------------------------------------

  private codecs(): Promise<RecordingCodecs> {
    return (this.deps.codecs ?? loadCodecs)();
  }

  /**
   * Records from the current step on into `sink` (in-process callers: a FileSink in Node, a
   * MemorySink in tests). Throws when already recording or no world is loaded.
   */
  async startRecordingTo(sink: RecordingSink, options: RecordingOptions = {}): Promise<RecordingStatus> {
    const w = this.requireWorld();
    if (this.recording) {
      if (this.pulled !== null && this.pulled.session === this.recording) throw new Error('startRecording: a live link client is recording (stop it from the client, or turn View ▸ Live Link off)');
      throw new Error('startRecording: already recording (stop it first)');
    }
    const codecs = await this.codecs();
    const thread = this.deps.recordThread;
    let session: RecordSession;
    try {
      session = await RecordSession.start(w, this.files, sink, codecs, options, { thread });
    } catch (e) {
      // the encoder thread could not start and wrote nothing: encode in this thread instead
      if (thread === undefined || !(e instanceof EncoderThreadStartError)) throw e;
      console.warn(`recording: the encoder thread could not start (${e.message}); encoding in the simulation thread`);
      session = await RecordSession.start(w, this.files, sink, codecs, options);
    }
    this.recording = session;
    return session.status();
  }

  /**
   * Records into chunks handed to `onChunk` (through Comlink: a proxied callback of the
   * renderer, which passes them to its Host). Each call gets a copy it may keep.
   */
  async startRecording(options: RecordingOptions = {}, onChunk?: (bytes: Uint8Array) => unknown): Promise<RecordingStatus> {
    if (typeof onChunk !== 'function') throw new Error('startRecording: onChunk must be a function receiving the file\'s bytes');
    const sink: RecordingSink = { write: async (bytes) => void (await onChunk(bytes.slice())) };
    return this.startRecordingTo(sink, { ...sanitizeOptions(options) });
  }

  async stopRecording(): Promise<RecordingStatus> {
    const rec = this.recording;
    if (!rec) return this.lastRecording ?? idleStatus();
    this.recording = null;
    this.endPulled(rec, false);
    try {
      this.lastRecording = await rec.stop();
    } finally {
      this.endPulled(rec, true);
    }
    return this.lastRecording;
  }

  /**
   * Records into a queue the caller empties with `takeRecordingChunks` (Electron main's live
   * link, which cannot pass the worker a callback through its MessagePort). While more than
   * PULLED_RECORDING_MAX_BYTES wait, the recording is backlogged (the clock slows). Stopped by
   * `stopRecording`, like any recording; the last take then says `ended`.
   */
  async startPulledRecording(options: RecordingOptions = {}): Promise<RecordingStatus> {
    if (this.pulled?.ended) this.pulled = null; // its reader left without taking the last chunks
    const q: PulledRecording = { session: null, chunks: [], bytes: 0, stopping: false, ended: false, wake: null };
    const sink: RecordingSink = {
      write: async (bytes) => {
        q.chunks.push(bytes.slice());
        q.bytes += bytes.length;
        while (q.bytes > PULLED_RECORDING_MAX_BYTES && !q.stopping) await new Promise<void>((r) => (q.wake = r));
      },
    };
    const status = await this.startRecordingTo(sink, { ...sanitizeOptions(options) });
    q.session = this.recording;
    this.pulled = q;
    return status;
  }

  /**
   * The pulled recording's bytes written since the last take, in order (transferred), and
   * whether it is over (stopped, and these are its last bytes). Nothing pulled: no chunks, ended.
   */
  async takeRecordingChunks(): Promise<{ chunks: Uint8Array[]; ended: boolean }> {
    const p = this.pulled;
    if (p === null) return { chunks: [], ended: true };
    const chunks = p.chunks;
    const ended = p.ended;
    p.chunks = [];
    p.bytes = 0;
    if (ended) this.pulled = null;
    const wake = p.wake;
    p.wake = null;
    wake?.();
    return transfer({ chunks, ended }, chunks.map((c) => c.buffer as ArrayBuffer));
  }

  /** A pulled recording is being stopped (`done` false) or has stopped (`done` true). */
  private endPulled(rec: RecordSession, done: boolean): void {
    const p = this.pulled;
    if (p === null || p.session !== rec) return;
    p.stopping = true;
    if (done) p.ended = true;
    const wake = p.wake;
    p.wake = null;
    wake?.();
  }


  async recordingStatus(): Promise<RecordingStatus> {
    return this.recording?.status() ?? { ...(this.lastRecording ?? idleStatus()), active: false };
  }

  // --- replay, seek, branch, verify ----------------------------------------------------------

  /**
   * Opens a recording (its bytes, or a random-access source for in-process callers) for replay
   * into the loaded world, which must be of the recording's scenario (load it first). Stops any
   * recording and the clock; the world is put at the recording's first step.
   */
  async openRecording(data: Uint8Array | RecordingSource, name = 'recording.mcap', options: { checkAssets?: boolean } = {}): Promise<RecordingSummary> {
    const w = this.requireWorld();
    const source = data instanceof Uint8Array ? bytesSource(data) : data;
    if (data instanceof Uint8Array && data.length > MAX_REPLAY_BYTES) throw new Error(`openRecording: ${data.length} bytes is over the ${MAX_REPLAY_BYTES}-byte limit`);
    const reader = await RecordingReader.open(source, { codecs: await this.codecs() });
    const info = reader.info;
    const names = w.info().bodies.map((b) => b.name);
    const recorded = info.metadata.bodies.map((b) => b.name);
    if (recorded.length !== names.length || recorded.some((n, i) => n !== names[i]) || Math.abs(info.dt - w.dt) > 0) {
      throw new Error(`openRecording: the recording is of "${info.metadata.scenarioName}" (${recorded.length} bodies, dt ${info.dt} s), the loaded world is "${w.name}" (${names.length} bodies, dt ${w.dt} s): load its scenario first`);
    }
    // The same files can still give other shapes: a concave mesh split into convex parts where
    // the recording was made and kept as one hull here (V-HACD unavailable or failed), or split
    // by other options or library version. Replaying would silently diverge: refuse instead.
    const shapes = w.info().bodies;
    for (let i = 0; i < recorded.length; i++) {
      const was = shapeOutline(info.metadata.bodies[i].shape), is = shapeOutline(shapes[i].shape);
      if (was !== null && is !== null && was !== is) {
        throw new Error(`openRecording: body "${recorded[i]}" collides as ${was} in the recording and as ${is} in the loaded world (a concave collision mesh split into convex parts differently, e.g. V-HACD could not run here: see the loader's mesh report); the replay would diverge`);
      }
    }
    // Same bodies and dt is not the same world: the scenario, terrain and robot files must be
    // the recorded ones too (their hashes are in the file). The CLI's verify compares them itself.
    if (options?.checkAssets !== false && this.files !== null) {
      const differ = differingAssets(info.assets, await assetHashes(this.files));
      if (differ.length > 0) {
        throw new Error(`openRecording: the recording is of "${info.metadata.scenarioName}", the loaded world is "${w.name}", and the loaded world's files differ from the recording's: ${differ.map((d) => d.name).join(', ')} (${differ.map((d) => `${d.name}: recorded ${short(d.recorded)}, loaded ${short(d.loaded)}`).join('; ')}): load its scenario first`);
      }
    }
    if (info.keyframeSteps.length === 0) throw new Error('openRecording: the recording has no keyframe to replay from');
    if (this.recording) await this.stopRecording();
    this.setRunning(false);
    this.replay = { name: String(name), reader, inputs: await reader.inputs(), next: 0, jointInputs: await reader.jointInputs(), nextJoint: 0, following: true };
    await this.seek(info.keyframeSteps[0]);
    return this.recordingSummary();
  }

  private requireReplay(what: string): OpenReplay {
    if (!this.replay) throw new Error(`${what}: no recording is open (openRecording first)`);
    return this.replay;
  }

  private recordingSummary(): RecordingSummary {
    const r = this.requireReplay('recordingSummary');
    const i = r.reader.info;
    return {
      name: r.name,
      scenarioName: i.metadata.scenarioName,
      buildId: i.buildId,
      sameBuild: i.buildId === BUILD_ID,
      dt: i.dt,
      firstStep: i.keyframeSteps[0] ?? i.firstStep,
      lastStep: i.lastStep,
      keyframeSteps: [...i.keyframeSteps],
      parent: i.parent,
      notice: i.notice,
      fileBytes: i.fileBytes,
    };
  }

  async replayStatus(): Promise<ReplayStatus> {
    const r = this.replay;
    return { open: r !== null, following: r?.following ?? false, step: this.world?.stepCount ?? 0, running: this.running, summary: r ? this.recordingSummary() : null };
  }

  /**
   * Puts the world exactly at `step` of the open recording (nearest keyframe at or before it,
   * then re-simulation with the recorded inputs); the world then follows the recording again.
   * Pauses the clock. Returns the frame of that step.
   */
  async seek(step: number): Promise<Frame> {
    const r = this.requireReplay('seek');
    const w = this.requireWorld();
    if (!Number.isInteger(step)) throw new Error(`seek: step must be an integer, got ${step}`);
    const info = r.reader.info;
    const target = Math.max(info.keyframeSteps[0], Math.min(info.lastStep, step));
    this.setRunning(false);
    if (this.recording) await this.stopRecording();
    await seekWorld(r.reader, replayable(w.engine), target);
    r.following = true;
    r.next = lowerBoundStep(r.inputs, target + 1);
    r.nextJoint = lowerBoundStep(r.jointInputs, target + 1);
    this.owed = 0;
    this.rewind = this.rewind.filter((p) => p.step <= target);
    this.plot.sample(w); // the plots go back to the seek step (nothing after it stays)
    return w.frame(0);
  }

  /** The recorded frame of `step` (as the file holds it: f32 poses), or null. */
  async recordedFrame(step: number): Promise<Frame | null> {
    const r = this.requireReplay('recordedFrame');
    const f = await r.reader.frameAt(step);
    if (f === null) return null;
    return {
      step: f.step,
      time: f.time,
      poses: Float32Array.from(f.poses.subarray(0, f.bodyCount * POSE_STRIDE)),
      velocities: Float32Array.from(f.velocities.subarray(0, f.bodyCount * VELOCITY_STRIDE)),
      contacts: Float32Array.from(f.contacts.subarray(0, f.contactCount * CONTACT_STRIDE)),
      contactInfo: Int32Array.from(f.contactInfo.subarray(0, f.contactCount * CONTACT_INFO_STRIDE)),
      joints: new Float32Array(0),
      speed: 0,
      fault: null,
      realtimeFactor: 0,
    };
  }

  /** Timeline markers of the open recording (lift-off, touch-down, collisions, faults). */
  async recordingEvents(): Promise<TimelineEvent[]> {
    const r = this.requireReplay('recordingEvents');
    return scanTimelineEvents(r.reader);
  }

  /**
   * Branch: take the controls at the current (seek) step and continue simulating into a new
   * recording that names its parent and the branch step. The replay stops being followed.
   */
  async branchTo(sink: RecordingSink, options: RecordingOptions = {}): Promise<RecordingStatus> {
    const r = this.requireReplay('branch');
    const w = this.requireWorld();
    this.setRunning(false);
    r.following = false;
    return this.startRecordingTo(sink, { ...options, parent: { recording: r.name, step: w.stepCount, stateHash: w.engine.stateHash() } });
  }

  /** branchTo for the worker: chunks go to `onChunk` (see startRecording). */
  async branch(options: RecordingOptions = {}, onChunk?: (bytes: Uint8Array) => unknown): Promise<RecordingStatus> {
    if (typeof onChunk !== 'function') throw new Error('branch: onChunk must be a function receiving the file\'s bytes');
    const sink: RecordingSink = { write: async (bytes) => void (await onChunk(bytes.slice())) };
    return this.branchTo(sink, sanitizeOptions(options));
  }

  /**
   * Re-simulates the open recording in a fresh world of the loaded scenario (the shown world is
   * left alone) and compares state hashes at every keyframe and poses at every frame.
   */
  async verify(onProgress?: (step: number, lastStep: number) => void): Promise<VerifyResult> {
    const r = this.requireReplay('verify');
    if (!this.files) throw new Error('verify: no scenario files loaded');
    const fresh = this.buildWorld(this.files);
    return verifyRecording(r.reader, replayable(fresh.engine), {
      buildId: BUILD_ID,
      onProgress: onProgress
        ? (s, last) => {
            try {
              void onProgress(s, last);
            } catch {
              // a dead listener must not stop the verification
            }
          }
        : undefined,
    });
  }

  /** Per-wheel contact data of the open recording as CSV text (export-csv.ts). */
  async exportCsv(): Promise<string> {
    return exportWheelCsv(this.requireReplay('exportCsv').reader);
  }

  /** Closes the open recording; the world stays where it is, under the user's control. */
  closeRecording(): void {
    this.replay = null;
  }

  /** Takes a rewind point when the world is on one's step (and not faulted). Allocates once per point, not per step. */
  private noteRewind(w: SimWorld): void {
    const e = w.engine;
    if (e.fault !== null || e.stepCount % this.rewindInterval !== 0) return;
    const last = this.rewind[this.rewind.length - 1];
    if (last !== undefined && last.step >= e.stepCount) return;
    if (this.rewind.length >= REWIND_POINTS) this.rewind.shift();
    this.rewind.push({ step: e.stepCount, state: e.saveState() });
  }

  /**
   * After a fault: puts the world back at a state from before the faulting step, at least
   * REWIND_MARGIN_S before it, and pauses it there. Live, from the newest rewind point that
   * early (the points cover REWIND_POINTS × REWIND_INTERVAL_S); in a followed replay, by an exact
   * seek (the recording's keyframes). A running recording is stopped first: its file ends with
   * the fault (recorded as an event at its step), and nothing of the abandoned future is appended
   * after the rewound state. The drive is set to zero (a user command) so the world does not head
   * straight back into the fault. Returns the frame of the restored step. Throws when the world
   * has no fault or no saved state is early enough.
   */
  async stepBack(): Promise<Frame> {
    const w = this.requireWorld();
    const fault = w.engine.fault;
    if (fault === null) throw new Error('stepBack: the world has no fault to step back from');
    this.setRunning(false);
    if (this.recording) await this.stopRecording();
    const margin = Math.max(1, Math.round(REWIND_MARGIN_S / w.dt));
    const target = fault.step - margin;
    if (this.replay?.following) return this.seek(Math.max(0, target));
    let point = null;
    for (let k = this.rewind.length - 1; k >= 0 && point === null; k--) if (this.rewind[k].step <= target) point = this.rewind[k];
    // a fault sooner than the margin after the first point: the earliest state before the fault
    if (point === null && this.rewind.length > 0 && this.rewind[0].step < fault.step) point = this.rewind[0];
    if (point === null) throw new Error(`stepBack: no saved state before step ${fault.step} (the world faulted right after it was loaded or restored)`);
    w.engine.restoreState(point.state);
    const keep = this.rewind.indexOf(point);
    this.rewind.length = keep + 1; // later points belong to the abandoned run
    w.setDrive({ throttle: 0, steer: 0 });
    this.owed = 0;
    this.plot.sample(w);
    return w.frame(0);
  }

  /**
   * The newest frame; with `plotSince` (the renderer's newest plotted step, −1 for none) it carries
   * the plot samples of every step after it (Frame.plot), their buffers marked for transfer.
   */
  async latestFrame(plotSince?: number): Promise<Frame> {
    const f = this.requireWorld().frame(this.realtimeFactor);
    if (typeof plotSince !== 'number' || !Number.isFinite(plotSince) || this.plot.seriesKeys.length === 0) return f;
    const p = this.plot.since(plotSince);
    f.plot = p;
    return transfer(f, [p.steps.buffer, p.times.buffer, p.values.buffer]);
  }

  /**
   * The series to sample at every step (keys of sim/app/plot-series.ts; unknown keys are left
   * out). The samples so far are dropped when the choice changes.
   */
  setPlotSeries(keys: string[]): void {
    if (!Array.isArray(keys)) return;
    this.plotKeys = keys.filter((k): k is string => typeof k === 'string').slice(0, 256);
    this.applyPlotKeys();
  }

  private applyPlotKeys(): void {
    const w = this.world;
    if (!w) return;
    const defs = availableSeries(w.describe());
    const chosen = this.plotKeys.map((k) => defs.find((d) => d.key === k)).filter((d) => d !== undefined);
    this.plot.setSeries(chosen);
    this.plot.clear();
    if (chosen.length > 0) this.plot.sample(w);
  }

  /**
   * Heights of a vertex span of the loaded terrain (sim/terrain/patch.ts): the renderer's chunks
   * and the exact heights under a contact. The heights' buffer is marked for transfer (Comlink
   * moves it to the renderer instead of copying; in-process callers just get the object).
   */
  async terrainPatch(i0: number, j0: number, cols: number, rows: number, stride: number): Promise<TerrainPatch> {
    const p = terrainPatch(this.requireWorld().terrain, i0, j0, cols, rows, stride);
    return transfer(p, [p.heights.buffer]);
  }

  // --- live link (sim/live/app-link.ts: Electron main's Foxglove server over this world) -----

  /** The loaded world's fixed description for a live link (sim/app/live-info.ts). */
  async liveInfo(): Promise<LiveWorldInfo> {
    const w = this.requireWorld();
    const t = w.terrain;
    return { ...describeLive(w, null, false), grid: { cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0, y0: t.y0 } };
  }

  /** The world's state now for a live link; its arrays are fresh and marked for transfer. */
  async liveSnapshot(withHash = false): Promise<LiveSnapshot> {
    const w = this.requireWorld();
    const s = snapshotLive(w, this.running, this.timeScale, this.recording !== null);
    if (withHash === true) s.stateHash = w.engine.stateHash();
    return transfer(s, [s.poses.buffer, s.velocities.buffer, s.contacts.buffer, s.contactInfo.buffer, s.jointPosition.buffer, s.jointVelocity.buffer]);
  }

  /**
   * A live link's per-joint command: the motor target velocity [rad/s, or m/s for a prismatic
   * joint] of the joint named `joint` (checked as sim/app/live-info.ts `checkJointCommand`: a
   * motorised joint the drive controller does not drive, a finite velocity). Kept until changed or
   * reset. Written to a recording in progress as an input at the current step (format 4), so it
   * replays and verifies. Refused while following a replay.
   */
  async setJointVelocity(joint: string, velocity: number): Promise<void> {
    this.jointVelocity(joint, velocity);
  }

  /** setJointVelocity for in-process callers (the headless LiveSession): the same, synchronously. */
  jointVelocity(joint: string, velocity: number): void {
    const w = this.requireWorld();
    if (this.replay?.following) throw new Error('joint velocity: a recording is being replayed; close it or branch first');
    this.liveDescription ??= describeLive(w, null, false);
    checkJointCommand(this.liveDescription, joint, velocity);
    w.engine.setMotor(joint, velocity);
    this.recording?.jointInput(joint, velocity);
  }

  /**
   * Puts the world back at the state it was loaded in (drive and script included; the clock keeps
   * running or paused as it was); returns the step (0). Refused while recording (a recording is
   * one run) or following a replay (close it first).
   */
  async resetWorld(): Promise<number> {
    const w = this.requireWorld();
    if (this.recording !== null) throw new Error('reset: a recording is being written; stop it first (a recording is one run from its first keyframe)');
    if (this.replay !== null) throw new Error('reset: a recording is open for replay; close it first');
    if (this.initialState === null) throw new Error('reset: no initial state (load a world first)');
    w.engine.restoreState(stateFromBytes(this.initialState));
    this.owed = 0;
    return w.stepCount;
  }

  /** The world, for in-process callers (CLI, tests). */
  getWorld(): SimWorld | null {
    return this.world;
  }

  dispose(): void {
    this.setRunning(false);
    if (this.recording !== null) this.endPulled(this.recording, true);
    void this.recording?.stop().catch(() => undefined);
    this.recording = null;
    this.replay = null;
    this.world = null;
    this.initialState = null;
  }

  private requireWorld(): SimWorld {
    if (!this.world) throw new Error('no world loaded yet: call load() first');
    return this.world;
  }

  private tick(): void {
    const w = this.world;
    const t = this.now();
    const elapsed = (t - this.lastTick) / 1000;
    this.lastTick = t;
    if (!w) return;
    this.owed += elapsed * this.timeScale / w.dt;
    // A recording's encoder thread behind (every capture buffer in flight): no steps this tick,
    // so the buffers it holds stay bounded; the clock then runs slower than real time.
    if (this.recording?.backlogged) this.owed = Math.min(this.owed, MAX_STEPS_PER_TICK);
    let n = this.recording?.backlogged ? 0 : Math.floor(this.owed);
    if (n > MAX_STEPS_PER_TICK) {
      n = MAX_STEPS_PER_TICK;
      this.owed = 0; // drop the backlog: run slower than real time rather than spiral
    } else {
      this.owed -= n;
    }
    if (n > 0) this.stepWorld(w, n);
    // A fault pauses the world: stop the clock too (nothing would step; the frame says why).
    if (w.engine.fault !== null) this.setRunning(false);
    this.rtfWindowSteps += n;
    const window = (t - this.rtfWindowStart) / 1000;
    if (window >= 1) {
      this.realtimeFactor = (this.rtfWindowSteps * w.dt) / window;
      this.rtfWindowStart = t;
      this.rtfWindowSteps = 0;
    }
  }
}

/**
 * The recorded assets whose hash differs from the loaded world's (by name; the scenario entry by
 * its prefix, whatever path it names). An asset only one side has differs too ('none').
 */
export function differingAssets(recorded: readonly { name: string; hash: string }[], loaded: readonly { name: string; hash: string }[]): { name: string; recorded: string; loaded: string }[] {
  const key = (n: string) => (n.startsWith(SCENARIO_ASSET_PREFIX) ? 'scenario' : n);
  const mine = new Map(loaded.map((a) => [key(a.name), a.hash]));
  const theirs = new Map(recorded.map((a) => [key(a.name), a.hash]));
  // a recording that carries no hashes (made without files) cannot be checked
  if (theirs.size === 0) return [];
  const out: { name: string; recorded: string; loaded: string }[] = [];
  for (const [name, hash] of theirs) if (mine.get(name) !== hash) out.push({ name, recorded: hash, loaded: mine.get(name) ?? 'none' });
  for (const [name, hash] of mine) if (!theirs.has(name)) out.push({ name, recorded: 'none', loaded: hash });
  return out;
}

/** A body shape's kind and part count ("a compound of 16 parts", "a hull"); null when absent. */
function shapeOutline(shape: { type: string; children?: unknown[] } | undefined): string | null {
  if (shape === undefined || shape === null || typeof shape.type !== 'string') return null;
  return shape.type === 'compound' ? `a compound of ${Array.isArray(shape.children) ? shape.children.length : '?'} parts` : `a ${shape.type}`;
}

/** "sha256:0123456789ab…" */
function short(hash: string): string {
  return hash.length > 19 ? `${hash.slice(0, 19)}…` : hash;
}

/**
 * [bytes] Default memory limit of a terrain load through the service (the headless API, the CLI):
 * 2 GiB, which an 8193² 16-bit PNG (≈ 1.8 GB) fits and a 16385² one (≈ 7 GB) does not. The app
 * shows the same estimate and asks before a large load, then loads without a limit.
 */
export const DEFAULT_MAX_LOAD_MEMORY_BYTES = 2 * 2 ** 30;

export interface LoadOptions {
  /** [bytes] Refuse a terrain whose estimated peak memory (terrain/load-estimate.ts) is over this. Default DEFAULT_MAX_LOAD_MEMORY_BYTES; Infinity for none. */
  maxMemoryBytes?: number;
}

/** Throws when the terrain's estimate (from its header, before any pixel is decoded) is over `limit` bytes. */
function checkLoadMemory(sidecar: unknown, data: Uint8Array, limit: number): void {
  if (!(limit >= 0)) throw new Error(`load: maxMemoryBytes must be a number of bytes ≥ 0, got ${limit}`);
  if (limit === Infinity) return;
  const e = estimateTerrainLoad(sidecar, data);
  if (e === null || e.bytes <= limit) return;
  const mb = limit >= 1e9 ? `${(limit / 1e9).toFixed(1)} GB` : `${Math.round(limit / 1e6)} MB`;
  throw new Error(`terrain: ${describeTerrainLoadEstimate(e)}, over the load's memory limit of ${mb} (raise it with the CLI's --max-memory or load's maxMemoryBytes option)`);
}

function idleStatus(): RecordingStatus {
  return { active: false, firstStep: -1, lastStep: -1, steps: 0, simSeconds: 0, bytes: 0, savedStep: -1, keyframes: 0, inputs: 0, events: 0, parent: null };
}

/** The options a renderer may set (numbers checked by the writer; strings kept short). */
function sanitizeOptions(o: RecordingOptions): RecordingOptions {
  if (o === null || typeof o !== 'object') return {};
  const out: RecordingOptions = {};
  if (typeof o.keyframeInterval === 'number') out.keyframeInterval = o.keyframeInterval;
  if (typeof o.foxgloveHz === 'number') out.foxgloveHz = o.foxgloveHz;
  if (typeof o.chunkBytes === 'number') out.chunkBytes = o.chunkBytes;
  if (typeof o.chunkSeconds === 'number') out.chunkSeconds = o.chunkSeconds;
  if (typeof o.scenarioPath === 'string') out.scenarioPath = o.scenarioPath.slice(0, 4096);
  return out;
}

/** Index of the first input with step ≥ `step`. */
function lowerBoundStep(inputs: readonly { step: number }[], step: number): number {
  let lo = 0;
  let hi = inputs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (inputs[mid].step < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
