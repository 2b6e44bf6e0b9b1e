/**
 * The simulation worker, reached through Comlink. The worker owns the world; the renderer sends
 * commands and pulls frames whose typed arrays are transferred (sim/app/protocol.ts).
 *
 * SimClient is the renderer's only way to the worker (nothing else touches the Comlink remote):
 * - commands (setDrive, setRunning, setTimeScale, closeRecording) return a promise that resolves
 *   to true once the worker applied the command, or to false after the failure was reported
 *   through `onFailure` (the app shows it in the banner and the status bar): a fire-and-forget
 *   caller can no longer drop a failure on the floor as an unhandled rejection;
 * - requests (load, step, latestFrame, recordings...) resolve to their result or reject, and the
 *   caller says what failed in its own words (a load names the file);
 * - transfers and callback proxies are made here, so callers never import Comlink.
 *
 * FramePump keeps at most ONE latestFrame() request in flight: the render loop calls poll() every
 * animation frame, which returns at once; a slow worker only means fewer new frames, never a
 * blocked UI thread or a queue of stale requests.
 */
import * as Comlink from 'comlink';
import type {
  DriveCommand, Frame, LoadProgress, MeshDecomposer, RecordingOptions, RecordingStatus, RecordingSummary, ReplayStatus, ScenarioFiles, SimService,
  TerrainPatch, TimelineEvent, VerifyResult, WorldInfo,
} from '../sim/app/protocol';

/** The Comlink remote of the worker's SimService. */
export type SimRemote = Comlink.Remote<SimService>;

/** Hears about a failed command: the SimService method and the error's message. */
export type SimFailureListener = (call: string, message: string) => void;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class SimClient {
  private disposed = false;

  /**
   * `remote`: a Comlink remote of a SimService (a Worker in the app, a MessagePort in the tests);
   * `onFailure` hears every failed command; `release` ends the endpoint (terminates the worker).
   */
  constructor(private readonly remote: SimRemote, private readonly onFailure: SimFailureListener, private readonly release: () => void = () => undefined) {}

  // ---- commands: never reject, report failures ----------------------------------------------
  setDrive(cmd: DriveCommand): Promise<boolean> {
    return this.command('setDrive', () => this.remote.setDrive(cmd));
  }

  setRunning(running: boolean): Promise<boolean> {
    return this.command('setRunning', () => this.remote.setRunning(running));
  }

  setTimeScale(scale: number): Promise<boolean> {
    return this.command('setTimeScale', () => this.remote.setTimeScale(scale));
  }

  closeRecording(): Promise<boolean> {
    return this.command('closeRecording', () => this.remote.closeRecording());
  }

  /**
   * Where the worker runs V-HACD for the next loads: the host's decomposer (Electron main; the
   * worker's CSP forbids V-HACD), null for the worker itself (the web build).
   */
  setMeshDecomposer(decompose: MeshDecomposer | null): Promise<boolean> {
    return this.command('setMeshDecomposer', () => this.remote.setMeshDecomposer(decompose ? Comlink.proxy(decompose) : null));
  }

  // ---- requests: resolve or reject to the caller ---------------------------------------------
  /** Loads a world, transferring the terrain bytes (the caller must not reuse them) and proxying progress. */
  load(files: ScenarioFiles, onProgress: (p: LoadProgress) => void): Promise<WorldInfo> {
    const payload = Comlink.transfer(files, [files.terrainData.buffer as ArrayBuffer]);
    // the user was shown the estimate and asked before a large load (load-progress.ts): no limit here
    return this.remote.load(payload, Comlink.proxy(onProgress), { maxMemoryBytes: Infinity });
  }

  step(n: number): Promise<number> {
    return this.remote.step(n);
  }

  /** The newest frame; with `plotSince`, carrying the plot samples of the steps after it. */
  latestFrame(plotSince?: number): Promise<Frame> {
    return this.remote.latestFrame(plotSince);
  }

  /** The plot series the worker samples at every step. */
  setPlotSeries(keys: string[]): Promise<boolean> {
    return this.command('setPlotSeries', () => this.remote.setPlotSeries(keys));
  }

  /** After a fault: back to a saved state before it (SimService.stepBack). */
  stepBack(): Promise<Frame> {
    return this.remote.stepBack();
  }

  terrainPatch(i0: number, j0: number, cols: number, rows: number, stride: number): Promise<TerrainPatch> {
    return this.remote.terrainPatch(i0, j0, cols, rows, stride);
  }

  /** Starts recording (or, with `branch`, branches the open replay); the file's bytes go to `onChunk` in order. */
  startRecording(options: RecordingOptions, onChunk: (bytes: Uint8Array) => Promise<void>, branch = false): Promise<RecordingStatus> {
    const proxied = Comlink.proxy(onChunk);
    return branch ? this.remote.branch(options, proxied) : this.remote.startRecording(options, proxied);
  }

  stopRecording(): Promise<RecordingStatus> {
    return this.remote.stopRecording();
  }

  recordingStatus(): Promise<RecordingStatus> {
    return this.remote.recordingStatus();
  }

  /** Opens a recording for replay, transferring its bytes (the caller must not reuse them). */
  openRecording(bytes: Uint8Array, name?: string): Promise<RecordingSummary> {
    return this.remote.openRecording(Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]), name);
  }

  replayStatus(): Promise<ReplayStatus> {
    return this.remote.replayStatus();
  }

  seek(step: number): Promise<Frame> {
    return this.remote.seek(step);
  }

  recordedFrame(step: number): Promise<Frame | null> {
    return this.remote.recordedFrame(step);
  }

  recordingEvents(): Promise<TimelineEvent[]> {
    return this.remote.recordingEvents();
  }

  verify(): Promise<VerifyResult> {
    return this.remote.verify();
  }

  exportCsv(): Promise<string> {
    return this.remote.exportCsv();
  }

  /**
   * A new MessagePort on which the worker exposes the same service (Comlink's createEndpoint):
   * what View ▸ Live Link hands Electron main, so its server reads and drives this world.
   */
  openPort(): Promise<MessagePort> {
    if (this.disposed) return Promise.reject(new Error('the simulation worker was stopped'));
    return this.remote[Comlink.createEndpoint]();
  }

  /** Releases the remote and ends the endpoint; later commands report a failure. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.remote[Comlink.releaseProxy]();
    this.release();
  }

  private async command(call: string, run: () => Promise<void>): Promise<boolean> {
    try {
      if (this.disposed) throw new Error('the simulation worker was stopped');
      await run();
      return true;
    } catch (e) {
      this.onFailure(call, messageOf(e));
      return false;
    }
  }
}

export interface ReceivedFrame {
  frame: Frame;
  /** [ms] performance.now() when it arrived. */
  arrivedAt: number;
}

export class FramePump {
  /** Newest and the one before it (for interpolation). */
  current: ReceivedFrame | null = null;
  previous: ReceivedFrame | null = null;
  /** The last error of a latestFrame() request (e.g. no world yet), cleared by the next success. */
  lastError: string | null = null;
  private inFlight = false;
  private epoch = 0;

  /** `plotSince`: the newest plotted step (−1: none), asked with each frame for the samples after it. */
  constructor(private readonly remote: Pick<SimClient, 'latestFrame'>, private readonly onFrame: (f: ReceivedFrame) => void, private readonly plotSince?: () => number) {}

  /** Starts a request if none is in flight. Never awaits. */
  poll(): void {
    if (this.inFlight) return;
    this.inFlight = true;
    const epoch = this.epoch;
    this.remote.latestFrame(this.plotSince?.()).then(
      (frame) => {
        this.inFlight = false;
        if (epoch !== this.epoch) return; // a new world was loaded meanwhile: drop the stale frame
        this.lastError = null;
        if (this.current && frame.step === this.current.frame.step && frame.time === this.current.frame.time) {
          // Paused or no new step: keep the pair, but take the newer contacts/rtf.
          this.current = { frame, arrivedAt: this.current.arrivedAt };
          this.onFrame(this.current);
          return;
        }
        this.previous = this.current;
        this.current = { frame, arrivedAt: performance.now() };
        this.onFrame(this.current);
      },
      (err: unknown) => {
        this.inFlight = false;
        this.lastError = err instanceof Error ? err.message : String(err);
      },
    );
  }

  /** Forgets frames of the previous world. */
  reset(): void {
    this.epoch++;
    this.current = null;
    this.previous = null;
    // inFlight stays as it is: the old request still counts as outstanding until it settles.
  }
}
