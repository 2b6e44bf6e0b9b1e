/**
 * The simulation worker, reached through Comlink. The worker owns the world; the renderer sends
 * commands and pulls frames whose typed arrays are transferred (sim/app/protocol.ts).
 *
 * FramePump keeps at most ONE latestFrame() request in flight: the render loop calls poll() every
 * animation frame, which returns at once; a slow worker only means fewer new frames, never a
 * blocked UI thread or a queue of stale requests.
 */
import * as Comlink from 'comlink';
import type { Frame, LoadProgress, ScenarioFiles, SimService, WorldInfo } from '../sim/app/protocol';

export interface SimClient {
  remote: Comlink.Remote<SimService>;
  dispose(): void;
}

/**
 * Starts the worker. `onCrash` hears about failures outside any call (the module failed to load,
 * an uncaught error in the worker's own clock), which no Comlink promise would report.
 */
export function createSimClient(onCrash?: (message: string) => void): SimClient {
  const worker = new Worker(new URL('../sim/app/worker.ts', import.meta.url), { type: 'module', name: 'terrawheel-sim' });
  if (onCrash) {
    worker.addEventListener('error', (e) => {
      e.preventDefault(); // reported in the banner instead of as an uncaught console error
      onCrash(e.message || 'the simulation worker failed to start');
    });
    worker.addEventListener('messageerror', () => onCrash('a message from the simulation worker could not be decoded'));
  }
  const remote = Comlink.wrap<SimService>(worker);
  return {
    remote,
    dispose() {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/** Loads a world, transferring the terrain bytes (the caller must not reuse them) and proxying progress. */
export function loadWorld(remote: Comlink.Remote<SimService>, files: ScenarioFiles, onProgress: (p: LoadProgress) => void): Promise<WorldInfo> {
  const payload = Comlink.transfer(files, [files.terrainData.buffer as ArrayBuffer]);
  // the user was shown the estimate and asked before a large load (load-progress.ts): no limit here
  return remote.load(payload, Comlink.proxy(onProgress), { maxMemoryBytes: Infinity });
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

  constructor(private readonly remote: Comlink.Remote<SimService>, private readonly onFrame: (f: ReceivedFrame) => void) {}

  /** Starts a request if none is in flight. Never awaits. */
  poll(): void {
    if (this.inFlight) return;
    this.inFlight = true;
    const epoch = this.epoch;
    this.remote.latestFrame().then(
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
