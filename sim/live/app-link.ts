/**
 * The desktop app's world as a LiveLink (live-link.ts), so the Foxglove server (foxglove-server.ts)
 * in Electron main watches and drives the world the user sees, not a second one.
 *
 * The app's world lives in the renderer's web worker (sim/app/worker.ts), which cannot open a
 * server socket. The renderer hands Electron main a MessagePort on which the worker exposes its
 * SimService (Comlink); this class is that service's client in main:
 *
 *   Foxglove ──ws──► FoxgloveServer (main) ──► AppLiveLink ──MessagePort/Comlink──► SimService (worker)
 *
 * State: while anyone subscribes, one `liveSnapshot()` request is in flight at a time, every
 * `pollMs` of wall time (default APP_LINK_POLL_MS: 60 per second, more than the 30 Hz a client
 * gets by default; a client asking for more gets what the poll sees). A snapshot whose step did
 * not change is not published again. A `step`, `reset` or `pause` publishes the state after it
 * at once (cause 'step' / 'reset' / 'pause'), as LiveSession does.
 *
 * Commands go to the service in the order they were asked for (one queue, like LiveSession's
 * batches): twist → setDrive (a change is an input of a recording the app writes), pause/resume →
 * setRunning, time scale → setTimeScale, step → step, reset → resetWorld. The app's own clock
 * drives the world, so there is no lockstep here, and the user's pause, time scale and drive in
 * the app show in the state the clients get.
 *
 * Per-joint velocity commands are checked here (sim/app/live-info.ts `checkJointCommand`, so a bad
 * one throws at once, as LiveSession's does) and applied by the service (`setJointVelocity`).
 *
 * Recordings started by a client (start_recording) are written by the app's worker as any
 * recording of the app (sim/app/record-session.ts), but its bytes cannot reach Electron main
 * through a callback (no callback crosses the port), so the worker queues them
 * (`startPulledRecording`) and this link takes them (`takeRecordingChunks`, every `pollMs` while it
 * records) and writes them to the sink `openRecording` opens for the path (electron/live-link.ts:
 * a file in the live link's recording directory). Only a recording this link started is stopped
 * by stop_recording; a reset finishes it first (as LiveSession's reset does). The app's own
 * recording (File ▸ Record) is the app's: a client's start_recording is refused while it runs.
 */
import { twistDrive, type LiveSnapshot, type LiveWorldInfo } from '../app/live-info';
import type { DriveCommand, TerrainPatch } from '../app/protocol';
import type { InlineTerrainSpec, ShapeSpec } from '../dynamics/spec';
import type { FrameData } from '../record/format';
import { makeWheelStats, wheelStatsInto, type RecordedBody } from '../record/foxglove';
import type { LiveLink } from './live-link';
import { MAX_TIME_SCALE, MIN_TIME_SCALE, TWIST_SPEED_FLOOR } from './live-constants';
import type { LiveCause, LiveInfo, LiveInput, LiveListener, LiveRecordingStatus, LiveState } from './session';
import { checkJointCommand } from '../app/live-info';
import type { RecordingOptions, RecordingStatus } from '../app/record-session';

/** [ms] Wall time between two state requests to the app's worker. */
export const APP_LINK_POLL_MS = 1000 / 60;
/** Most terrain samples in the scene sent to clients (the grid is strided above it: a 8193² map would be ~0.5 GB of JSON). */
export const APP_LINK_SCENE_MAX_SAMPLES = 513 * 513;

/**
 * What the link calls on the app's simulation service: a Comlink remote of SimService satisfies it
 * (every call a promise).
 */
export interface AppWorldBackend {
  liveInfo(): Promise<LiveWorldInfo>;
  liveSnapshot(withHash?: boolean): Promise<LiveSnapshot>;
  resetWorld(): Promise<number>;
  setJointVelocity(joint: string, velocity: number): Promise<void> | void;
  startPulledRecording(options: RecordingOptions): Promise<RecordingStatus>;
  takeRecordingChunks(): Promise<{ chunks: Uint8Array[]; ended: boolean }>;
  stopRecording(): Promise<RecordingStatus>;
  recordingStatus(): Promise<RecordingStatus>;
  setDrive(cmd: DriveCommand): Promise<void> | void;
  setRunning(running: boolean): Promise<void> | void;
  setTimeScale(scale: number): Promise<void> | void;
  step(n: number): Promise<number>;
  terrainPatch(i0: number, j0: number, cols: number, rows: number, stride: number): Promise<TerrainPatch>;
}

export interface AppLiveLinkOptions {
  /** [ms] See APP_LINK_POLL_MS. */
  pollMs?: number;
  /** Where failures of fire-and-forget commands go (default console.error). */
  log?: (line: string) => void;
  /**
   * Opens the file a client's start_recording writes (the path the protocol server chose). Without
   * it, start_recording is refused.
   */
  openRecording?: (path: string) => Promise<RecordingFileSink>;
  /** Stored in recordings a client starts, to find the scenario's files (default: the scenario's name, as the app's own recordings). */
  scenarioPath?: string;
}

/** Where a client's recording goes in main (a FileSink). */
export interface RecordingFileSink {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** A recording a client started through this link. */
interface LinkRecording {
  path: string;
  sink: RecordingFileSink;
  /** The loop taking the worker's chunks into the sink; resolves when the recording is over and written. */
  pump: Promise<void>;
  /** The first failure writing the file (the recording is stopped then). */
  error: Error | null;
}

/** A stick value clamped to −1..1, non-finite → 0 (as the service clamps a drive command). */
const clampDrive = (v: number): number => (Number.isFinite(v) ? Math.max(-1, Math.min(1, v)) : 0);

const NOT_FROM_APP = 'is not available through the desktop app\'s live link';

export class AppLiveLink implements LiveLink {
  readonly lockstep = false;
  private readonly infoValue: LiveInfo;
  private readonly scene: { bodies: RecordedBody[]; wheels: number[]; terrain: InlineTerrainSpec };
  private readonly state: LiveState;
  private readonly frame: FrameData;
  private readonly listeners = new Set<LiveListener>();
  private readonly inputListeners = new Set<(i: LiveInput) => void>();
  private readonly pollMs: number;
  private readonly log: (line: string) => void;
  private chain: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private polling = false;
  private closed = false;
  private running: boolean;
  private scale: number;
  private drive: { throttle: number; steer: number };
  private readonly openRecordingFile: ((path: string) => Promise<RecordingFileSink>) | null;
  private readonly scenarioPath: string;
  private recording: LinkRecording | null = null;
  /** The state hash of the step the last step/reset ended at (the rosbridge step's answer). */
  private hash: { step: number; value: string } | null = null;

  private constructor(private readonly backend: AppWorldBackend, info: LiveWorldInfo, terrain: InlineTerrainSpec, first: LiveSnapshot, options: AppLiveLinkOptions) {
    const { grid: _grid, ...rest } = info;
    this.infoValue = rest;
    this.scene = { bodies: info.bodies.map((b) => ({ name: b.name, shape: b.shape as ShapeSpec })), wheels: info.wheels.map((w) => w.body), terrain };
    this.pollMs = options.pollMs ?? APP_LINK_POLL_MS;
    this.log = options.log ?? ((l) => console.error(l));
    this.frame = { step: 0, time: 0, bodyCount: 0, contactCount: 0, poses: new Float64Array(0), velocities: new Float64Array(0), contacts: new Float64Array(0), contactInfo: new Int32Array(0) };
    this.running = first.running;
    this.scale = first.timeScale;
    this.drive = { ...first.drive };
    this.openRecordingFile = options.openRecording ?? null;
    this.scenarioPath = options.scenarioPath ?? info.scenarioName;
    this.state = {
      step: 0, time: 0, batchSteps: 0, cause: 'subscribe', running: false, lockstep: false, timeScale: 1, fault: null,
      drive: { throttle: 0, steer: 0 }, frame: this.frame, jointPosition: new Float64Array(0), jointVelocity: new Float64Array(0),
      wheels: info.wheels.map(() => makeWheelStats()),
      stateHash: () => {
        const h = this.hash;
        if (h === null || h.step !== this.state.step) throw new Error('stateHash: the app\'s live link knows the state hash only right after a step or reset it asked for');
        return h.value;
      },
    };
    this.fill(first, 0, 'subscribe');
  }

  /** Connects to the app's world: its description, its terrain (strided to APP_LINK_SCENE_MAX_SAMPLES) and its state now. */
  static async connect(backend: AppWorldBackend, options: AppLiveLinkOptions = {}): Promise<AppLiveLink> {
    const info = await backend.liveInfo();
    const g = info.grid;
    let stride = 1;
    while (Math.ceil((g.cols - 1) / stride + 1) * Math.ceil((g.rows - 1) / stride + 1) > APP_LINK_SCENE_MAX_SAMPLES) stride++;
    const p = await backend.terrainPatch(0, 0, g.cols, g.rows, stride);
    const terrain: InlineTerrainSpec = { cols: p.sampleCols, rows: p.sampleRows, dx: g.dx * stride, dy: g.dy * stride, x0: g.x0, y0: g.y0, heights: Array.from(p.heights) };
    const first = await backend.liveSnapshot();
    return new AppLiveLink(backend, info, terrain, first, options);
  }

  info(): LiveInfo {
    return this.infoValue;
  }

  sceneSource(): { bodies: RecordedBody[]; wheels: number[]; terrain: InlineTerrainSpec } {
    return this.scene;
  }

  get stepCount(): number {
    return this.state.step;
  }

  get isRunning(): boolean {
    return this.running;
  }

  get timeScale(): number {
    return this.scale;
  }

  current(): LiveState {
    this.state.cause = 'subscribe';
    this.state.batchSteps = 0;
    return this.state;
  }

  subscribe(listener: LiveListener): () => void {
    if (typeof listener !== 'function') throw new Error('subscribe: listener must be a function');
    this.listeners.add(listener);
    void this.enqueue(async () => {
      if (this.listeners.has(listener)) this.callOne(listener, this.current());
    });
    this.schedulePoll();
    return () => {
      this.listeners.delete(listener);
    };
  }

  onInput(listener: (input: LiveInput) => void): () => void {
    this.inputListeners.add(listener);
    return () => {
      this.inputListeners.delete(listener);
    };
  }

  idle(): Promise<void> {
    return this.enqueue(async () => undefined);
  }

  pause(): void {
    this.checkOpen('pause');
    this.running = false;
    this.command('pause', async () => {
      await this.backend.setRunning(false);
      await this.refresh('pause');
    });
  }

  resume(): void {
    this.checkOpen('resume');
    this.running = true;
    this.command('resume', async () => void (await this.backend.setRunning(true)));
  }

  step(n: number): Promise<number> {
    this.checkOpen('step');
    return this.enqueue(async () => {
      const before = this.state.step;
      const after = await this.backend.step(n);
      await this.refresh('step', after - before, true);
      return after;
    });
  }

  /** Back to the world's first state; a recording this link started is finished first (its status returned). */
  reset(): Promise<LiveRecordingStatus | null> {
    this.checkOpen('reset');
    return this.enqueue(async () => {
      const stopped = await this.finishRecording();
      await this.backend.resetWorld();
      await this.refresh('reset', 0, true);
      return stopped;
    });
  }

  setTimeScale(scale: number): number {
    this.checkOpen('setTimeScale');
    if (typeof scale !== 'number' || !Number.isFinite(scale)) throw new Error(`time scale must be a finite number from ${MIN_TIME_SCALE} to ${MAX_TIME_SCALE} (the app runs no faster), got ${String(scale)}`);
    this.scale = Math.min(MAX_TIME_SCALE, Math.max(MIN_TIME_SCALE, scale));
    const s = this.scale;
    this.command('setTimeScale', async () => void (await this.backend.setTimeScale(s)));
    return s;
  }

  setTwist(linear: number, angular: number): { throttle: number; steer: number } {
    this.checkOpen('setTwist');
    const d = twistDrive(this.infoValue, linear, angular, TWIST_SPEED_FLOOR);
    const cmd = { throttle: clampDrive(d.throttle), steer: clampDrive(d.steer) };
    if (cmd.throttle !== this.drive.throttle || cmd.steer !== this.drive.steer) {
      this.drive = cmd;
      const input = { step: this.state.step, throttle: cmd.throttle, steer: cmd.steer };
      for (const l of this.inputListeners) {
        try {
          l(input);
        } catch (e) {
          this.log(`app live link: an input listener threw: ${(e as Error).message}`);
        }
      }
    }
    this.command('setDrive', async () => void (await this.backend.setDrive(cmd)));
    return { ...cmd };
  }

  /**
   * A joint's motor target, checked here (a bad command throws at once, naming what is wrong) and
   * applied by the app's worker in order with the other commands.
   */
  setJointVelocity(joint: string, velocity: number): void {
    this.checkOpen('setJointVelocity');
    checkJointCommand(this.infoValue, joint, velocity);
    this.command('setJointVelocity', async () => void (await this.backend.setJointVelocity(joint, velocity)));
  }

  /**
   * Records every step of the app's world from now on into the file `openRecording` opens for
   * `path` (see the header). Refused while the app records (its own recording, or this link's).
   */
  startRecording(path: string): Promise<LiveRecordingStatus> {
    this.checkOpen('startRecording');
    const open = this.openRecordingFile;
    if (open === null) return Promise.reject(new Error(`start_recording ${NOT_FROM_APP}: it has no recording directory`));
    if (typeof path !== 'string' || path.length === 0) return Promise.reject(new Error('startRecording: path must be a non-empty string'));
    return this.enqueue(async () => {
      if (this.recording !== null) throw new Error(`startRecording: already recording to ${this.recording.path} (stop it first)`);
      const sink = await open(path);
      let status: RecordingStatus;
      try {
        status = await this.backend.startPulledRecording({ scenarioPath: this.scenarioPath });
      } catch (e) {
        await sink.close().catch(() => undefined);
        throw e;
      }
      const rec: LinkRecording = { path, sink, pump: Promise.resolve(), error: null };
      rec.pump = this.pumpRecording(rec);
      this.recording = rec;
      return { ...status, path };
    });
  }

  /** Finishes this link's recording (footer written, file closed); its status, or the idle status (path null) when it records none. */
  stopRecording(): Promise<LiveRecordingStatus> {
    return this.enqueue(async () => (await this.finishRecording()) ?? { ...(await this.backend.recordingStatus()), path: null });
  }

  /** The path of the recording this link is writing, or null. */
  get recordingPath(): string | null {
    return this.recording?.path ?? null;
  }

  /** Stops polling and forgets the listeners (the app's world is untouched). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.chain.catch(() => undefined);
    await this.finishRecording().catch((e: unknown) => this.log(`app live link: finishing the recording failed: ${(e as Error).message}`));
    this.listeners.clear();
    this.inputListeners.clear();
  }

  // --- internals ---------------------------------------------------------------------------

  private checkOpen(what: string): void {
    if (this.closed) throw new Error(`${what}: the app's live link is closed`);
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(job, job);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Takes the worker's chunks into the file until the recording is over (stopped by this link, or
   * by the app: another world loaded), then closes the file. A write failure stops the recording.
   */
  private async pumpRecording(rec: LinkRecording): Promise<void> {
    for (;;) {
      let got: { chunks: Uint8Array[]; ended: boolean };
      try {
        got = await this.backend.takeRecordingChunks();
      } catch (e) {
        rec.error ??= e as Error;
        break;
      }
      for (const c of got.chunks) {
        if (rec.error !== null) break;
        try {
          await rec.sink.write(c);
        } catch (e) {
          rec.error = e as Error;
          this.log(`app live link: writing ${rec.path} failed: ${rec.error.message}; the recording is stopped`);
          void this.backend.stopRecording().catch(() => undefined);
        }
      }
      if (got.ended) break;
      if (got.chunks.length === 0) await new Promise((r) => setTimeout(r, this.pollMs));
    }
    await rec.sink.close().catch((e: unknown) => void (rec.error ??= e as Error));
    if (this.recording === rec) this.recording = null;
  }

  /** Stops this link's recording and waits until its file is written and closed; null when it records none. */
  private async finishRecording(): Promise<LiveRecordingStatus | null> {
    const rec = this.recording;
    if (rec === null) return null;
    const status = await this.backend.stopRecording();
    await rec.pump;
    this.recording = null;
    if (rec.error !== null) throw new Error(`recording ${rec.path}: ${rec.error.message}`);
    return { ...status, path: rec.path };
  }

  /** A fire-and-forget command: queued, its failure logged. */
  private command(what: string, job: () => Promise<void>): void {
    this.enqueue(job).catch((e: unknown) => this.log(`app live link: ${what} failed: ${(e as Error).message}`));
  }

  private schedulePoll(): void {
    if (this.closed || this.polling || this.timer !== null || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = true;
      this.enqueue(async () => {
        const s = await this.backend.liveSnapshot();
        const steps = s.step - this.state.step;
        this.running = s.running;
        this.scale = s.timeScale;
        this.drive = { ...s.drive };
        if (steps !== 0 || s.fault !== this.state.fault) this.publish(s, steps, steps < 0 ? 'reset' : 'clock');
      })
        .catch((e: unknown) => this.log(`app live link: reading the app's world failed: ${(e as Error).message}`))
        .finally(() => {
          this.polling = false;
          this.schedulePoll();
        });
    }, this.pollMs);
  }

  /** Pulls the state now and publishes it (after a command). */
  private async refresh(cause: LiveCause, batchSteps = 0, withHash = false): Promise<void> {
    const s = await this.backend.liveSnapshot(withHash);
    if (s.stateHash !== undefined) this.hash = { step: s.step, value: s.stateHash };
    this.running = s.running;
    this.scale = s.timeScale;
    this.drive = { ...s.drive };
    this.publish(s, batchSteps, cause);
  }

  private publish(s: LiveSnapshot, batchSteps: number, cause: LiveCause): void {
    const st = this.fill(s, batchSteps, cause);
    for (const l of this.listeners) this.callOne(l, st);
  }

  private callOne(l: LiveListener, s: LiveState): void {
    try {
      l(s);
    } catch (e) {
      this.log(`app live link: a subscriber threw: ${(e as Error).message}`);
    }
  }

  private fill(s: LiveSnapshot, batchSteps: number, cause: LiveCause): LiveState {
    const f = this.frame;
    f.step = s.step;
    f.time = s.time;
    f.bodyCount = s.bodyCount;
    f.contactCount = s.contactCount;
    f.poses = s.poses;
    f.velocities = s.velocities;
    f.contacts = s.contacts;
    f.contactInfo = s.contactInfo;
    const st = this.state;
    st.step = s.step;
    st.time = s.time;
    st.batchSteps = batchSteps;
    st.cause = cause;
    st.running = s.running;
    st.timeScale = s.timeScale;
    st.fault = s.fault;
    st.drive.throttle = s.drive.throttle;
    st.drive.steer = s.drive.steer;
    st.jointPosition = s.jointPosition;
    st.jointVelocity = s.jointVelocity;
    const wheels = this.infoValue.wheels;
    for (let k = 0; k < wheels.length; k++) wheelStatsInto(st.wheels[k], f, wheels[k].body, wheels[k].radius, this.infoValue.dt);
    return st;
  }
}
