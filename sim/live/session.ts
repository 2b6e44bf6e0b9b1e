/**
 * A live session: one world, loaded from a scenario, that outside code watches and drives while
 * it runs. The protocol adapters (the Foxglove WebSocket server, foxglove-server.ts; the rosbridge
 * v2 server, rosbridge/server.ts) are thin layers over this class; it knows no protocol.
 *
 * It is built on the app's simulation service (sim/app/service.ts), so a world, its recording and
 * its inputs behave exactly as in the desktop app and the CLI: a drive command reaches the world
 * through `SimServiceImpl.setDrive` (a repeat of the drive in effect is dropped, a change is
 * written to the recording as an input at its step), and stepping goes through
 * `SimServiceImpl.step`, which records every step and waits for a recording that is behind.
 * `terrawheel verify` and replay therefore reproduce a run driven from outside.
 *
 * Clock:
 *   free-running  every TICK_MS of wall time the session owes `elapsed × timeScale / dt` steps and
 *                 runs them as one batch (at most MAX_STEPS_PER_BATCH; a slow machine runs slower
 *                 than real time rather than spiral), like the service's own clock;
 *   lockstep      the world advances only on `step(n)`, so a controller sees every step and a run
 *                 is reproducible whatever the wall clock does.
 * Every batch (clock tick, `step(n)`, `reset()`) ends with one call of each subscriber, with the
 * state after the batch. Batches never overlap: `step`, `reset`, recording start/stop and clock
 * ticks run one after another in the order they were asked for.
 *
 * Per-step allocation: none. The state handed to subscribers is one object whose arrays are
 * views of the world's report buffers or filled in place, once per batch (not per step).
 *
 * Per-joint velocity commands (`setJointVelocity`) set a joint's motor target through the service
 * (`SimServiceImpl.jointVelocity`), which writes them to a recording in progress as joint inputs
 * at their step (format 4), so a run driven per joint replays and verifies too. Motor targets are
 * part of the world's saved state, so a recording started after such commands starts from them.
 */
import { resolve } from 'node:path';
import { createDefaultService } from '../app/default-service';
import { stateFromBytes, type RecordingStatus } from '../app/record-session';
import type { SimServiceImpl } from '../app/service';
import type { SimWorld } from '../app/sim-world';
import { checkJointCommand, describeLive, twistDrive, type LiveInfo } from '../app/live-info';
import type { InlineTerrainSpec, ShapeSpec } from '../dynamics/spec';
import type { FrameData } from '../record/format';
import { makeWheelStats, wheelStatsInto, type RecordedBody, type WheelStats } from '../record/foxglove';
import type { ScenarioFiles } from '../scenario/scenario-files';
import { FileSink } from '../node/record-file';
import { nodeEncoderThread } from '../node/record-thread';
import { readScenarioFilesAsync } from '../node/open-scenario';
import type { LiveLink } from './live-link';

/** [ms] Wall-clock period of the free-running clock (the service's own clock uses the same). */
export const LIVE_TICK_MS = 8;
/** Most steps one clock batch runs (bounds the latency of commands and of subscribers' state). */
export const MAX_STEPS_PER_BATCH = 200;
/** Most steps one `step(n)` call may ask for. */
export const MAX_STEP_REQUEST = 1_000_000;
/** Steps per clock batch at time scale Infinity (as fast as the CPU allows; small, so commands and clients are served between batches). */
export const FAST_BATCH_STEPS = 8;
export { MIN_TIME_SCALE, MAX_TIME_SCALE, TWIST_SPEED_FLOOR } from './live-constants';
import { MIN_TIME_SCALE, MAX_TIME_SCALE, TWIST_SPEED_FLOOR } from './live-constants';

/** How a session runs. */
export interface LiveSessionOptions {
  /** Advance only on `step(n)` (default false: free-running at `timeScale`). */
  lockstep?: boolean;
  /** Simulated seconds per wall-clock second while free-running (0.1 .. 10, default 1). */
  timeScale?: number;
  /** Start the free-running clock at once (default true; ignored in lockstep). */
  running?: boolean;
  /** [bytes] Refuse a terrain estimated over this (the service's default: 2 GiB). */
  maxMemoryBytes?: number;
  /** Encode recordings in a worker thread (default true, as the CLI; false encodes in this thread). */
  recordThread?: boolean;
  /** The scenario file's path, stored in recordings so `terrawheel verify` finds the files. */
  scenarioPath?: string;
}

export type { LiveInfo, LiveWheelInfo, LiveControllerInfo } from '../app/live-info';

/**
 * The state after a step batch, handed to subscribers. ONE object, refilled in place before each
 * call: its arrays are views of the world's buffers and are valid only during the call; copy what
 * you keep.
 */
export interface LiveState {
  step: number;
  /** [s] Simulated time. */
  time: number;
  /** Steps this batch ran (0 for the state sent after a reset, a pause or on subscribe). */
  batchSteps: number;
  /** What the batch was: a clock tick, a `step(n)`, a `reset()`, a `pause()`, or the state a new subscriber gets. */
  cause: LiveCause;
  running: boolean;
  lockstep: boolean;
  timeScale: number;
  /** Why the world stopped (a body went non-finite, past a limit or off the terrain), or null. */
  fault: string | null;
  /** The drive command in effect (throttle, steer in −1..1). */
  drive: { throttle: number; steer: number };
  /**
   * The world's report (sim/dynamics/frame-layout.ts): poses (7 per body: px py pz qx qy qz qw,
   * world frame), velocities (6 per body: linear [m/s], angular [rad/s], world frame), contacts
   * and their info; the record/foxglove encoders take it as it is.
   */
  frame: FrameData;
  /** [rad] or [m] per joint, joint order of `info().joints`. */
  jointPosition: Float64Array;
  /** [rad/s] or [m/s] per joint. */
  jointVelocity: Float64Array;
  /** Per wheel of `info().wheels`: contacts, deepest [m], normal force [N], slip ratio. */
  wheels: readonly WheelStats[];
  /** Hash of the world's full state (16 hex digits); computed when called (it copies the state). */
  stateHash(): string;
}

/** Why subscribers are called (LiveState.cause). */
export type LiveCause = 'clock' | 'step' | 'reset' | 'pause' | 'subscribe';

/** A change of the drive command in effect, at the step it applies from (LiveSession.onInput). */
export interface LiveInput {
  step: number;
  throttle: number;
  steer: number;
}

/** A subscriber; an exception it throws is logged once and does not stop the session. */
export type LiveListener = (state: LiveState) => void;

/** A recording the session is writing. */
export interface LiveRecordingStatus extends RecordingStatus {
  path: string | null;
}

/**
 * One world, loaded from a scenario, that outside code steps, drives, records and watches (see
 * the header). Create it with `LiveSession.open(path)` or `LiveSession.fromFiles(files)`; `close()`
 * it when done (stops the clock and finishes a recording).
 */
export class LiveSession implements LiveLink {
  readonly lockstep: boolean;
  private readonly service: SimServiceImpl;
  private readonly files: ScenarioFiles;
  private readonly scenarioPath: string | null;
  private readonly initialState: Uint8Array;
  private readonly infoValue: LiveInfo;
  private readonly listeners = new Set<LiveListener>();
  private readonly inputListeners = new Set<(input: LiveInput) => void>();
  private readonly state: LiveState;
  private readonly frameData: FrameData;
  private timeScaleValue = 1;
  private running = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastTick = 0;
  private owed = 0;
  /** The batch queue: every batch-changing operation runs after the previous one settles. */
  private chain: Promise<unknown> = Promise.resolve();
  /** A clock batch is queued or running (the clock then only accumulates owed steps). */
  private tickPending = false;
  private recordSink: FileSink | null = null;
  private recordPath: string | null = null;
  private closed = false;
  private listenerFailed = false;

  private constructor(service: SimServiceImpl, files: ScenarioFiles, scenarioPath: string | null, options: LiveSessionOptions) {
    this.service = service;
    this.files = files;
    this.scenarioPath = scenarioPath;
    this.lockstep = options.lockstep === true;
    const w = this.world;
    this.initialState = new Uint8Array(w.engine.saveState().buffer.slice(0));
    this.infoValue = describeLive(w, scenarioPath, this.lockstep);
    const nj = w.engine.joints.count;
    this.frameData = { step: 0, time: 0, bodyCount: 0, contactCount: 0, poses: new Float64Array(0), velocities: new Float64Array(0), contacts: new Float64Array(0), contactInfo: new Int32Array(0) };
    const engine = w.engine;
    this.state = {
      step: 0,
      time: 0,
      batchSteps: 0,
      cause: 'subscribe',
      running: false,
      lockstep: this.lockstep,
      timeScale: 1,
      fault: null,
      drive: { throttle: 0, steer: 0 },
      frame: this.frameData,
      jointPosition: new Float64Array(nj),
      jointVelocity: new Float64Array(nj),
      wheels: this.infoValue.wheels.map(() => makeWheelStats()),
      stateHash: () => engine.stateHash(),
    };
    this.setTimeScale(options.timeScale ?? 1);
  }

  /** The session of the scenario file at `path` (its terrain, URDF and meshes read from disk). */
  static async open(path: string, options: LiveSessionOptions = {}): Promise<LiveSession> {
    const abs = resolve(path);
    return LiveSession.fromFiles(await readScenarioFilesAsync(abs), { ...options, scenarioPath: options.scenarioPath ?? abs });
  }

  /** The session of scenario files already gathered (tests, the desktop app's main process). */
  static async fromFiles(files: ScenarioFiles, options: LiveSessionOptions = {}): Promise<LiveSession> {
    const service = createDefaultService(options.recordThread === false ? {} : { recordThread: nodeEncoderThread });
    await service.load(files, undefined, options.maxMemoryBytes !== undefined ? { maxMemoryBytes: options.maxMemoryBytes } : {});
    const s = new LiveSession(service, files, options.scenarioPath ?? null, options);
    if (!s.lockstep && options.running !== false) s.resume();
    return s;
  }

  /** The app's world (for protocol adapters that need its terrain or spec); do not step it directly. */
  get world(): SimWorld {
    const w = this.service.getWorld();
    if (w === null) throw new Error('live session: closed');
    return w;
  }

  /** Bodies, joints, wheels, dt, the scenario's name, the controller. The same object every call: do not change it. */
  info(): LiveInfo {
    return this.infoValue;
  }

  /** The bodies and the terrain as a recording's scene describes them (sim/record/foxglove.ts `staticScene`). */
  sceneSource(): { bodies: RecordedBody[]; wheels: number[]; terrain: InlineTerrainSpec } {
    const t = this.world.terrain;
    return {
      bodies: this.infoValue.bodies.map((b) => ({ name: b.name, shape: b.shape as ShapeSpec })),
      wheels: this.infoValue.wheels.map((w) => w.body),
      terrain: { cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0, y0: t.y0, heights: t.heights },
    };
  }

  /** Steps taken since the world was loaded (or reset). */
  get stepCount(): number {
    return this.world.stepCount;
  }

  /** [s] */
  get time(): number {
    return this.world.time;
  }

  get isRunning(): boolean {
    return this.running;
  }

  get timeScale(): number {
    return this.timeScaleValue;
  }

  /**
   * Sets the free-running time scale, clamped to MIN_TIME_SCALE..MAX_TIME_SCALE, or Infinity: as
   * fast as the CPU allows (batches of FAST_BATCH_STEPS, the event loop served between them; for
   * headless runs and benchmarks). Throws for anything else.
   */
  setTimeScale(scale: number): number {
    if (scale === Infinity) {
      this.timeScaleValue = Infinity;
      return Infinity;
    }
    if (typeof scale !== 'number' || !Number.isFinite(scale)) throw new Error(`time scale must be a finite number (or Infinity), got ${String(scale)}`);
    this.timeScaleValue = Math.min(MAX_TIME_SCALE, Math.max(MIN_TIME_SCALE, scale));
    return this.timeScaleValue;
  }

  /** Starts the free-running clock. Throws in lockstep (advance with step(n) there). */
  resume(): void {
    this.checkOpen('resume');
    if (this.lockstep) throw new Error('resume: the session is in lockstep (advance it with step(n))');
    if (this.running) return;
    this.running = true;
    this.lastTick = performance.now();
    this.owed = 0;
    this.timer = setInterval(() => this.tick(), LIVE_TICK_MS);
  }

  /** Stops the free-running clock (a batch in progress completes); subscribers get the state. */
  pause(): void {
    if (!this.running) return;
    this.running = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.owed = 0;
    void this.enqueue(async () => this.publish(0, 'pause'));
  }

  /**
   * Runs n steps now (after any batch in progress), then calls the subscribers once; resolves to
   * the step number. Allowed while free-running too (the steps are extra). Throws for n not an
   * integer in 0..MAX_STEP_REQUEST.
   */
  step(n: number): Promise<number> {
    this.checkOpen('step');
    if (!Number.isInteger(n) || n < 0 || n > MAX_STEP_REQUEST) return Promise.reject(new Error(`step: n must be an integer from 0 to ${MAX_STEP_REQUEST}, got ${String(n)}`));
    return this.enqueue(async () => {
      const before = this.world.stepCount;
      const after = await this.service.step(n);
      this.publish(after - before, 'step');
      return after;
    });
  }

  /**
   * Puts the world back at its first step (the state it was loaded in, drive and script
   * included); per-joint commands are forgotten. A recording in progress is finished first (a
   * recording is one run from its first keyframe). Subscribers get the state.
   */
  reset(): Promise<LiveRecordingStatus | null> {
    this.checkOpen('reset');
    return this.enqueue(async () => {
      const stopped = this.recordSink !== null ? await this.finishRecording() : null;
      this.world.engine.restoreState(stateFromBytes(this.initialState));
      this.owed = 0;
      this.publish(0, 'reset');
      return stopped;
    });
  }

  /**
   * The drive command as normalised stick values (throttle, steer in −1..1, clamped; non-finite
   * → 0), through the service: a change is an input of the recording at the current step. Takes
   * over from the scenario's script. Returns the command in effect.
   */
  setDrive(throttle: number, steer: number): { throttle: number; steer: number } {
    this.checkOpen('setDrive');
    const d = this.world.engine.drive;
    const before = this.world.engine.scriptActive ? Number.NaN : d.throttle;
    const beforeSteer = d.steer;
    this.service.setDrive({ throttle, steer });
    if (d.throttle !== before || d.steer !== beforeSteer) {
      const input = { step: this.world.stepCount, throttle: d.throttle, steer: d.steer };
      for (const l of this.inputListeners) {
        try {
          l(input);
        } catch (e) {
          console.error(`live session: an input listener threw: ${(e as Error).message}`);
        }
      }
    }
    return { throttle: d.throttle, steer: d.steer };
  }

  /**
   * A `geometry_msgs/Twist`'s planar part: forward speed `linear` [m/s] (linear.x) and yaw rate
   * `angular` [rad/s] (angular.z, positive counter-clockwise), turned into the drive command of the
   * robot's controller (skid steer / differential: throttle = v / maxSpeed, steer = ω / maxYawRate;
   * Ackermann: throttle = v / maxSpeed, bicycle angle δ = atan(ω·L / v), steer = δ / δmax, and no
   * steering below TWIST_SPEED_FLOOR), clamped to the controller's limits. Throws without a
   * driven robot or for non-finite numbers. Returns the drive command in effect.
   */
  setTwist(linear: number, angular: number): { throttle: number; steer: number } {
    this.checkOpen('setTwist');
    const { throttle, steer } = twistDrive(this.infoValue, linear, angular, TWIST_SPEED_FLOOR);
    return this.setDrive(throttle, steer);
  }

  /**
   * Sets the motor target velocity [rad/s] (or [m/s] for a prismatic joint) of the joint named
   * `joint`. Refused for a joint the drive controller writes every step (drive it with
   * setTwist/setDrive) and a joint without a motor. An input of a recording in progress.
   */
  setJointVelocity(joint: string, velocity: number): void {
    this.checkOpen('setJointVelocity');
    checkJointCommand(this.infoValue, joint, velocity);
    this.service.jointVelocity(joint, velocity);
  }

  /**
   * Records every step from now on into the MCAP file at `path` (created or truncated), with the
   * scenario path so `terrawheel verify <file>` finds the scenario. Throws when already
   * recording.
   */
  startRecording(path: string): Promise<LiveRecordingStatus> {
    this.checkOpen('startRecording');
    if (typeof path !== 'string' || path.length === 0) return Promise.reject(new Error('startRecording: path must be a non-empty string'));
    return this.enqueue(async () => {
      if (this.recordSink !== null) throw new Error(`startRecording: already recording to ${this.recordPath} (stop it first)`);
      const abs = resolve(path);
      const sink = await FileSink.create(abs);
      try {
        const status = await this.service.startRecordingTo(sink, this.scenarioPath !== null ? { scenarioPath: this.scenarioPath } : {});
        this.recordSink = sink;
        this.recordPath = abs;
        return { ...status, path: abs };
      } catch (e) {
        await sink.close().catch(() => undefined);
        throw e;
      }
    });
  }

  /** Finishes the recording (footer written, file closed); its status, or the idle status when none runs. */
  stopRecording(): Promise<LiveRecordingStatus> {
    return this.enqueue(async () => (await this.finishRecording()) ?? { ...(await this.service.recordingStatus()), path: null });
  }

  /** The recording's status (active or the last one). */
  async recordingStatus(): Promise<LiveRecordingStatus> {
    return { ...(await this.service.recordingStatus()), path: this.recordPath };
  }

  /**
   * Adds a subscriber, called after every step batch with the state (see LiveState), and once
   * now (after any batch in progress). Returns the function that removes it.
   */
  subscribe(listener: LiveListener): () => void {
    if (typeof listener !== 'function') throw new Error('subscribe: listener must be a function');
    this.listeners.add(listener);
    void this.enqueue(async () => {
      if (this.listeners.has(listener)) this.callOne(listener, this.fill(0, 'subscribe'));
    });
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Adds a listener of drive command changes (from any client: setDrive, setTwist), called at
   * once with the step the command applies from (it is a recording input there). Returns the
   * function that removes it.
   */
  onInput(listener: (input: LiveInput) => void): () => void {
    this.inputListeners.add(listener);
    return () => {
      this.inputListeners.delete(listener);
    };
  }

  /** Hash of the world's full state now (equal states, equal hashes). */
  stateHash(): string {
    return this.world.engine.stateHash();
  }

  /** The state now, filled in place (same object subscribers get; valid until the next batch). */
  current(): LiveState {
    return this.fill(0, 'subscribe');
  }

  /** Resolves when every batch asked for so far has run. */
  idle(): Promise<void> {
    return this.enqueue(async () => undefined);
  }

  /** Stops the clock, finishes a recording, releases the world. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.pause();
    this.closed = true;
    await this.chain.catch(() => undefined);
    if (this.recordSink !== null) await this.finishRecording().catch(() => undefined);
    this.listeners.clear();
    this.inputListeners.clear();
    this.service.dispose();
  }

  // --- internals ---------------------------------------------------------------------------

  private checkOpen(what: string): void {
    if (this.closed) throw new Error(`${what}: the live session is closed`);
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(job, job);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async finishRecording(): Promise<LiveRecordingStatus | null> {
    const sink = this.recordSink;
    if (sink === null) return null;
    this.recordSink = null;
    // the service's session writes the footer and closes the sink
    const status = await this.service.stopRecording();
    return { ...status, path: this.recordPath };
  }

  private tick(): void {
    const t = performance.now();
    const elapsed = (t - this.lastTick) / 1000;
    this.lastTick = t;
    if (!this.running || this.closed) return;
    if (this.timeScaleValue === Infinity) this.owed = FAST_BATCH_STEPS;
    else this.owed += (elapsed * this.timeScaleValue) / this.world.dt;
    if (this.owed > MAX_STEPS_PER_BATCH) this.owed = MAX_STEPS_PER_BATCH; // run slower than real time rather than spiral
    if (this.tickPending) return;
    const n = Math.floor(this.owed);
    if (n <= 0) return;
    this.owed -= n;
    this.tickPending = true;
    void this.enqueue(async () => {
      try {
        if (!this.running || this.closed) return;
        const w = this.world;
        const before = w.stepCount;
        await this.service.step(n);
        this.publish(w.stepCount - before, 'clock');
        if (w.engine.fault !== null) this.pause();
      } finally {
        this.tickPending = false;
        // as fast as possible: the next batch right after this one (I/O is served in between)
        if (this.timeScaleValue === Infinity && this.running && !this.closed) setImmediate(() => this.tick());
      }
    }).catch((e: unknown) => {
      console.error(`live session: stepping failed, paused: ${(e as Error).message}`);
      this.pause();
    });
  }

  /** Fills the state and calls every subscriber. */
  private publish(batchSteps: number, cause: LiveCause): void {
    if (this.listeners.size === 0) return;
    const s = this.fill(batchSteps, cause);
    for (const l of this.listeners) this.callOne(l, s);
  }

  private callOne(l: LiveListener, s: LiveState): void {
    try {
      l(s);
    } catch (e) {
      if (!this.listenerFailed) console.error(`live session: a subscriber threw (further errors not shown): ${(e as Error).message}`);
      this.listenerFailed = true;
    }
  }

  private fill(batchSteps: number, cause: LiveCause): LiveState {
    const w = this.world;
    const e = w.engine;
    const r = e.frame();
    const f = this.frameData;
    f.step = e.stepCount;
    f.time = e.time;
    f.bodyCount = e.bodies.count;
    f.contactCount = r.contactCount;
    f.poses = r.poses;
    f.velocities = r.velocities;
    f.contacts = r.contacts;
    f.contactInfo = r.contactInfo;
    const s = this.state;
    s.step = f.step;
    s.time = f.time;
    s.batchSteps = batchSteps;
    s.cause = cause;
    s.running = this.running;
    s.timeScale = this.timeScaleValue;
    s.fault = w.fault;
    s.drive.throttle = e.drive.throttle;
    s.drive.steer = e.drive.steer;
    s.jointPosition.set(e.joints.position.subarray(0, e.joints.count));
    s.jointVelocity.set(e.joints.velocity.subarray(0, e.joints.count));
    const wheels = this.infoValue.wheels;
    for (let k = 0; k < wheels.length; k++) wheelStatsInto(s.wheels[k], f, wheels[k].body, wheels[k].radius, w.dt);
    return s;
  }
}
