/**
 * Recording a live world and replaying into it: the glue between the dynamics world
 * (sim/app/sim-world.ts) and the file layer (sim/record/).
 *
 * - `RecordSession` records every step the world takes: the user's drive inputs with their step
 *   (the service calls `input` only when the world's drive really changes), a keyframe (saveState
 *   bytes and stateHash) at the writer's interval, the frame of every step, and fault events.
 *   The first step recorded is the world's step when recording starts (a keyframe is written there).
 * - `replayable(engine)` is the DynamicsWorld as a `ReplayableWorld` (seek, verify, replay).
 * - `recordingHeaderFor` describes a world for the file: scenario JSON, asset hashes, build id,
 *   bodies, wheels, terrain.
 *
 * Determinism: a replay calls the world's setDrive exactly where the live run did (same step,
 * same values, same 'user' source), so the same build reproduces the same state hashes.
 */
import type { DynamicsWorld } from '../dynamics/world';
import type { ScenarioFiles } from './protocol';
import type { RecordingCodecs } from '../record/codecs';
import { EVENT_SLOTS, INPUT_SLOTS, JOINT_INPUT_SLOTS, keyframeSlots, newBatch, StepCapture } from '../record/capture';
import { ENCODER_BACKLOG_BYTES, SyncEncoder, ThreadedEncoder, type EncoderPoolOptions, type EncoderStalls, type EncoderThreadFactory, type RecordEncoder } from '../record/encoder';
import type { RecordingSink } from '../record/io';
import type { ReplayableWorld } from '../record/replay';
import { chunkWindowSteps, DEFAULT_CHUNK_SECONDS, DEFAULT_KEYFRAME_INTERVAL, type RecordingHeader, type RecordingWriterOptions } from '../record/writer';
import type { SimWorld } from './sim-world';

/**
 * Identifies this build's dynamics for recordings: determinism (equal state hashes) is only
 * promised between runs of one build. Bump the suffix whenever stepping results may change.
 */
export const BUILD_ID = 'terrawheel-0.1.0+dynamics.1';

/**
 * [s] Most simulated time a killed recording loses: the chunk being filled (≤ the writer's
 * `chunkSeconds`, 1 s) and the one on its way to disk. The stepping waits for the disk rather than
 * run further ahead (RecordSession.behind).
 */
export const RECORDING_MAX_LOSS_SECONDS = 2 * DEFAULT_CHUNK_SECONDS;

/** Prefix of the asset entry that names the scenario file a recording was made from. */
export const SCENARIO_ASSET_PREFIX = 'scenario:';

/**
 * Options of a recording started by the service: keyframe interval, Foxglove rate, chunk size,
 * encoder.
 */
export interface RecordingOptions {
  /** Steps between keyframes (default: the writer's, 120). */
  keyframeInterval?: number;
  /** [Hz] Foxglove channel rate (default 30; 0 = none). */
  foxgloveHz?: number;
  /** Uncompressed bytes per chunk (default 1 MiB). */
  chunkBytes?: number;
  /** [s] Simulated time per chunk at most (default 1 s; a killed recording loses up to twice this). */
  chunkSeconds?: number;
  /** Where the scenario came from (a path or a bundled name), stored to find its files again. */
  scenarioPath?: string;
  /** Set for a branch: the parent recording's name, the branch step and the state hash there. */
  parent?: { recording: string; step: number; stateHash?: string };
  /** Build id to write (tests pretend to be another build); default BUILD_ID. */
  buildId?: string;
}

/**
 * The state of the running recording: active, steps and simulated time recorded, bytes handed to
 * the sink, keyframes, inputs, events.
 */
export interface RecordingStatus {
  active: boolean;
  /** First and last step recorded (−1 before any). */
  firstStep: number;
  lastStep: number;
  /** Steps recorded after the first. */
  steps: number;
  /** [s] Simulated time recorded. */
  simSeconds: number;
  /** Bytes handed to the sink (its writes resolved: for a file, written and fdatasync'd). */
  bytes: number;
  /** Every step up to this one is in those bytes (what a killed process leaves); −1 before the first chunk. */
  savedStep: number;
  keyframes: number;
  inputs: number;
  events: number;
  parent: RecordingOptions['parent'] | null;
}

/** A Float64Array state as bytes (a view, no copy). */
export function stateBytes(s: Float64Array): Uint8Array {
  return new Uint8Array(s.buffer, s.byteOffset, s.byteLength);
}

/** Bytes of a saved state as a Float64Array (copied when not 8-byte aligned). */
export function stateFromBytes(bytes: Uint8Array): Float64Array {
  if (bytes.byteLength % 8 !== 0) throw new Error(`restoreState: ${bytes.byteLength} bytes is not a whole number of float64s`);
  if (bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  return new Float64Array(bytes.slice().buffer);
}

/**
 * The dynamics world as a ReplayableWorld. `setDriveInput` is a user command (as the recorded
 * ones were), with two exceptions that keep a replay identical to the live run:
 *  - the call seekWorld makes right after `restoreState` (the restored state already holds the
 *    drive, and the scenario's script may still be in charge) is skipped;
 *  - a repeat of the drive already in effect is skipped once the script is overridden (the live
 *    service never passes such a repeat to the world: see SimServiceImpl.setDrive).
 */
export function replayable(engine: DynamicsWorld): ReplayableWorld & { saveState(): Uint8Array; setJointInput(joint: string, velocity: number): void } {
  let justRestored = false;
  const poses = () => engine.frame().poses;
  return {
    restoreState(bytes: Uint8Array): void {
      engine.restoreState(stateFromBytes(bytes));
      justRestored = true;
    },
    setDriveInput(throttle: number, steer: number): void {
      if (justRestored) {
        justRestored = false;
        return;
      }
      if (!engine.scriptActive && engine.drive.throttle === throttle && engine.drive.steer === steer) return;
      engine.setDrive(throttle, steer, 'user');
    },
    setJointInput(joint: string, velocity: number): void {
      engine.setMotor(joint, velocity);
    },
    step(): void {
      justRestored = false;
      engine.step(1);
    },
    stateHash: () => engine.stateHash(),
    saveState: () => stateBytes(engine.saveState()),
    poses,
  };
}

/** Clamps a drive value as DynamicsWorld.setDrive does (non-finite → 0). */
export function clampDrive(v: number): number {
  return Number.isFinite(v) ? Math.max(-1, Math.min(1, v)) : 0;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return `bytes:${bytes.length}`;
  const d = new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of d) hex += b.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

const utf8 = new TextEncoder();

/** Content hashes of a scenario's inputs (scenario JSON, terrain sidecar and data, URDF, meshes, controller files). */
export async function assetHashes(files: ScenarioFiles | null, scenarioPath?: string): Promise<{ name: string; hash: string }[]> {
  const out: { name: string; hash: string }[] = [];
  if (files === null) return out;
  out.push({ name: `${SCENARIO_ASSET_PREFIX}${scenarioPath ?? ''}`, hash: await sha256(utf8.encode(JSON.stringify(files.scenario))) });
  if (files.terrainSidecar !== null && files.terrainSidecar !== undefined) out.push({ name: 'terrain-sidecar', hash: await sha256(utf8.encode(JSON.stringify(files.terrainSidecar))) });
  if (files.terrainData instanceof Uint8Array && files.terrainData.length > 0) out.push({ name: 'terrain-data', hash: await sha256(files.terrainData) });
  if (typeof files.robotUrdf === 'string') out.push({ name: 'robot-urdf', hash: await sha256(utf8.encode(files.robotUrdf)) });
  for (const [path, bytes] of Object.entries(files.robotMeshes ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push({ name: `mesh:${path}`, hash: await sha256(bytes) });
  // the controller files that hold joints (scenario-controllers.ts) shape the dynamics too
  for (const [path, text] of Object.entries(files.robotControllers ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push({ name: `controllers:${path}`, hash: await sha256(utf8.encode(text)) });
  return out;
}

/** The header of a recording of `world` (loaded from `files`). */
export async function recordingHeaderFor(world: SimWorld, files: ScenarioFiles | null, options: RecordingOptions = {}): Promise<RecordingHeader> {
  const info = world.info();
  const wheels: number[] = [];
  info.bodies.forEach((b, i) => {
    if (b.role === 'wheel') wheels.push(i);
  });
  const t = world.terrain;
  return {
    scenario: files?.scenario ?? { name: world.name },
    scenarioName: world.name,
    assets: await assetHashes(files, options.scenarioPath),
    buildId: options.buildId ?? BUILD_ID,
    parent: options.parent,
    dt: world.dt,
    bodies: info.bodies.map((b) => ({ name: b.name, shape: b.shape })),
    wheels,
    terrain: { cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0, y0: t.y0, heights: t.heights },
  };
}

/** Uncompressed bytes the writer may hold before a producer should await `drain()`. */
export const RECORDING_BACKLOG_BYTES = ENCODER_BACKLOG_BYTES;

/** What a session needs of the world: the dynamics world and its drive (SimWorld has it all). */
export interface RecordableWorld {
  readonly engine: DynamicsWorld;
  readonly dt: number;
  readonly stepCount: number;
  readonly scriptActive: boolean;
}

/** How a session encodes: in this thread (default), or in an encoder thread. */
export interface RecordEncoderChoice {
  /** Starts the encoder thread; omitted: the writer runs in this thread (SyncEncoder). */
  thread?: EncoderThreadFactory;
  /** Capture buffer size and count (threaded). */
  pool?: EncoderPoolOptions;
}

/** Records every step a live world takes (inputs, keyframes, frames, faults) into a recording. */
export class RecordSession {
  /** Where the captured steps are encoded and written (this thread or an encoder thread). */
  readonly encoder: RecordEncoder;
  private readonly world: RecordableWorld;
  private readonly capture = new StepCapture();
  private readonly threaded: boolean;
  private readonly keyframeInterval: number;
  private readonly parent: RecordingOptions['parent'] | null;
  private lastKeyframeStep = -1;
  private firstStep = -1;
  private lastStep = -1;
  private faultReported = false;
  private stopped = false;
  /** The file is complete (summary and footer written, sink closed). */
  private closed = false;
  private keyframes = 0;
  private inputs = 0;
  private events = 0;
  /** Steps per chunk (the writer's time window), the first step of the window being filled, the last two window ends. */
  private readonly chunkSteps: number;
  private windowStart = -1;
  private lastWindowEnd = -1;
  private prevWindowEnd = -1;

  private constructor(world: RecordableWorld, encoder: RecordEncoder, threaded: boolean, keyframeInterval: number, parent: RecordingOptions['parent'] | null, chunkSteps: number) {
    this.world = world;
    this.chunkSteps = chunkSteps;
    this.encoder = encoder;
    this.threaded = threaded;
    this.keyframeInterval = keyframeInterval;
    this.parent = parent;
    this.capture.attach(encoder.exchange(null));
  }

  /** Starts recording `world` into `sink`: header, then the current step (keyframe and frame). */
  static async start(world: SimWorld, files: ScenarioFiles | null, sink: RecordingSink, codecs: RecordingCodecs, options: RecordingOptions = {}, encoder: RecordEncoderChoice = {}): Promise<RecordSession> {
    return RecordSession.startWith(world, await recordingHeaderFor(world, files, options), sink, codecs, options, encoder);
  }

  /** As `start`, with a header made by the caller (a world without a scenario: benchmarks). */
  static async startWith(world: RecordableWorld, header: RecordingHeader, sink: RecordingSink, codecs: RecordingCodecs, options: RecordingOptions = {}, choice: RecordEncoderChoice = {}): Promise<RecordSession> {
    const writerOptions: RecordingWriterOptions = { codecs, keyframeInterval: options.keyframeInterval, foxgloveHz: options.foxgloveHz, chunkBytes: options.chunkBytes, chunkSeconds: options.chunkSeconds };
    const encoder = choice.thread
      ? await ThreadedEncoder.create(choice.thread, sink, header, writerOptions, choice.pool)
      : await SyncEncoder.create(sink, header, writerOptions, choice.pool);
    const s = new RecordSession(world, encoder, choice.thread !== undefined, options.keyframeInterval ?? DEFAULT_KEYFRAME_INTERVAL, options.parent ?? null, chunkWindowSteps(world.dt, options.chunkSeconds));
    const d = world.engine.drive;
    // The drive in effect at the first step, when the user set it (the script's is in the state).
    if (!world.scriptActive) s.input(d.throttle, d.steer);
    s.afterStep();
    return s;
  }

  get active(): boolean {
    return !this.stopped;
  }

  /** Times the stepping thread waited for the encoder (threaded mode). */
  get stalls(): EncoderStalls {
    return this.encoder.stalls;
  }

  /** Makes room for `slots` more slots in the capture batch (hands a full batch to the encoder). */
  private reserve(slots: number): void {
    if (this.capture.fits(slots)) return;
    let next = this.encoder.exchange(this.capture.detach());
    if (next.buf.byteLength < 8 * slots) next = newBatch(8 * slots);
    this.capture.attach(next);
  }

  /** In this thread every record is encoded at once (the file grows as it did step by step). */
  private flushSync(): void {
    if (!this.threaded) this.capture.attach(this.encoder.exchange(this.capture.detach()));
  }

  private checkEncoder(): void {
    const e = this.encoder.error;
    if (e !== null) throw e;
  }

  /** A user drive command the world was just given (before its next step). */
  input(throttle: number, steer: number): void {
    if (this.stopped) return;
    this.checkEncoder();
    if (!Number.isFinite(throttle) || !Number.isFinite(steer)) throw new Error(`input.throttle/steer must be finite, got ${throttle}, ${steer}`);
    this.reserve(INPUT_SLOTS);
    this.capture.input(this.world.stepCount, throttle, steer);
    this.inputs++;
    this.flushSync();
  }

  /** A per-joint velocity command the world was just given (before its next step; format 4). */
  jointInput(joint: string, velocity: number): void {
    if (this.stopped) return;
    this.checkEncoder();
    if (typeof joint !== 'string' || joint.length === 0) throw new Error('jointInput: joint must be a joint name');
    if (!Number.isFinite(velocity)) throw new Error(`jointInput.velocity must be finite, got ${velocity}`);
    this.reserve(JOINT_INPUT_SLOTS);
    this.capture.jointInput(this.world.stepCount, joint, velocity);
    this.inputs++;
    this.flushSync();
  }

  /**
   * Records the world's current step (call after every step; a step already recorded is skipped):
   * a fault event (once), a keyframe when due (saveState and its hash), then the frame. Only
   * copies into the capture buffer; encoding happens in the encoder.
   */
  afterStep(): void {
    if (this.stopped) return;
    this.checkEncoder();
    const e = this.world.engine;
    const step = e.stepCount;
    if (step <= this.lastStep) return;
    const c = this.capture;
    const fault = e.fault;
    if (fault !== null && !this.faultReported) {
      this.faultReported = true;
      this.reserve(EVENT_SLOTS);
      c.event(step, 'fault', fault.reason, undefined);
      this.events++;
    }
    if (this.lastKeyframeStep < 0 || step - this.lastKeyframeStep >= this.keyframeInterval) {
      const bytes = stateBytes(e.saveState());
      this.reserve(keyframeSlots(bytes.length));
      c.keyframe(step, bytes);
      this.lastKeyframeStep = step;
      this.keyframes++;
    }
    this.reserve(c.planFrame(step, e));
    c.frame(step, e);
    if (this.firstStep < 0) this.firstStep = step;
    this.lastStep = step;
    // The writer closes its chunk after this step when the window is full (same count as
    // RecordingWriter.chunkClock): hand the batch over now so the chunk is written now.
    if (this.windowStart < 0) this.windowStart = step;
    if (step - this.windowStart + 1 >= this.chunkSteps) {
      this.windowStart = -1;
      this.prevWindowEnd = this.lastWindowEnd;
      this.lastWindowEnd = step;
      if (this.threaded) this.capture.attach(this.encoder.exchange(this.capture.detach()));
    }
    this.flushSync();
  }

  /** The step before which everything is saved (the step before the first one when nothing is yet). */
  private savedBase(): number {
    const saved = this.encoder.savedStep;
    return saved >= 0 ? saved : this.firstStep - 1;
  }

  /**
   * True when the disk is behind: the steps not yet saved would be more than
   * RECORDING_MAX_LOSS_SECONDS after one more step. Await `drain()` before stepping on.
   */
  get behind(): boolean {
    return !this.stopped && this.firstStep >= 0 && this.lastStep - this.savedBase() >= 2 * this.chunkSteps;
  }

  /** True when the encoder or the disk is behind: await `drain()` before stepping on. */
  get backlogged(): boolean {
    return this.encoder.backlogged || this.behind;
  }

  /** Waits for a free capture buffer and for the disk to hold all but the last chunk window or so. */
  async drain(): Promise<void> {
    await this.encoder.drain();
    if (!this.behind) return;
    // the latest window end at least one window back (always handed over, never yet saved)
    const target = this.lastWindowEnd <= this.lastStep - this.chunkSteps ? this.lastWindowEnd : this.prevWindowEnd;
    if (target > this.savedBase()) await this.encoder.waitSaved(target);
  }

  status(): RecordingStatus {
    return {
      active: !this.stopped,
      firstStep: this.firstStep,
      lastStep: this.lastStep,
      steps: this.firstStep < 0 ? 0 : this.lastStep - this.firstStep,
      simSeconds: this.firstStep < 0 ? 0 : (this.lastStep - this.firstStep) * this.world.dt,
      bytes: this.encoder.bytesWritten,
      savedStep: this.closed ? this.lastStep : this.encoder.savedStep,
      keyframes: this.keyframes,
      inputs: this.inputs,
      events: this.events,
      parent: this.parent,
    };
  }

  /**
   * Hands the last captured steps to the encoder, waits until it has written them, the summary and
   * the footer, and closes the sink. An encoder or sink error is thrown here.
   */
  async stop(): Promise<RecordingStatus> {
    if (!this.stopped) {
      this.stopped = true;
      const last = this.capture.detach();
      if (last !== null && last.used > 0 && this.encoder.error === null) this.encoder.exchange(last);
      await this.encoder.finish();
      this.closed = true;
    }
    return this.status();
  }
}
