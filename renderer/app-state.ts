/**
 * The renderer's one state: what the composition root (main.ts) used to keep in module-level
 * variables. The panels, the status bar, the render loop and the test hook read it; it changes
 * only through the setters below, and whoever must react to a change (the pause button's label,
 * the worker's clock, the error banner) subscribes to that field.
 *
 * Plain data and no DOM, so it is unit-tested in Node (test/unit/renderer/app-state.test.ts).
 * Per-frame counters go through setters too; a notification is one Map lookup when nobody
 * listens, and nothing here allocates per frame.
 */
import type { Frame, WorldInfo } from '../sim/app/protocol';
import { TIME_SCALE_MAX, TIME_SCALE_MIN } from './config';
import type { ExactHeights } from './inspect/terrain-heights';
import { NO_SELECTION, type Selection } from './inspect/selection';
import type { SeriesDef } from './panels/plot-series';

/** A worker call that failed (SimClient reports it; the banner and the status bar show it). */
export interface WorkerFailure {
  /** The SimService method, e.g. "setRunning". */
  call: string;
  message: string;
  /** Failures reported so far (the banner says when the same failure repeats). */
  count: number;
}

/** The world stopped on a fault (sim/dynamics/faults.ts): what the fault pause shows everywhere. */
export interface FaultState {
  message: string;
  /** The step that faulted. */
  step: number;
  /** [s] Simulated time of the frame the world froze at. */
  time: number;
}

/** Everything the renderer knows about the running app, as the panels read it. */
export interface AppStateData {
  /** The loaded world, null until the first load finishes. */
  world: WorldInfo | null;
  /** Exact terrain heights around what the inspectors and overlays look at (fetched from the worker). */
  exactHeights: ExactHeights | null;
  /** [m] Bounding radius per body of `world` (frame warnings). */
  bodySizes: number[];
  /** Warnings of the world itself (terrain too fine, visuals missing), shown with the frame's. */
  staticWarnings: string[];
  /** Warnings over the 3D view now. */
  warningsShown: string[];
  /** Plot series the world offers. */
  seriesDefs: SeriesDef[];
  /** The user paused the simulation clock. */
  paused: boolean;
  /** Simulated seconds per wall-clock second requested from the worker (TIME_SCALE_MIN..MAX). */
  timeScale: number;
  selection: Selection;
  /** The frame whose contacts are on screen (chosen to match the interpolated poses). */
  shown: Frame | null;
  /** Stride of the terrain drawn under the followed body (1: the collision surface). */
  terrainStride: number;
  /** Bytes of typed arrays in the WorldInfo.terrain the worker sent for the current world. */
  terrainBytesFromWorker: number;
  /** Frames received from the worker since start. */
  framesReceived: number;
  /** Frames rendered since start. */
  framesRendered: number;
  /** Panel/status redraws since start. */
  panelTicks: number;
  /** [1/s] Frames rendered per second, measured by the render loop. */
  fps: number;
  /** The last worker call that failed, null when none has (or it was dismissed). */
  workerFailure: WorkerFailure | null;
  /** The world is stopped on a fault (the newest frame says so), else null. */
  fault: FaultState | null;
}

export type AppStateKey = keyof AppStateData;
export type AppStateListener<K extends AppStateKey> = (value: AppStateData[K], state: AppState) => void;

export function initialAppState(): AppStateData {
  return {
    world: null, exactHeights: null, bodySizes: [], staticWarnings: [], warningsShown: [], seriesDefs: [],
    paused: false, timeScale: 1, selection: NO_SELECTION, shown: null, terrainStride: 1, terrainBytesFromWorker: 0,
    framesReceived: 0, framesRendered: 0, panelTicks: 0, fps: 0, workerFailure: null, fault: null,
  };
}

/** What a loaded world brings besides its WorldInfo (computed by the caller from it). */
export interface LoadedWorld {
  info: WorldInfo;
  bodySizes: number[];
  staticWarnings: string[];
  seriesDefs: SeriesDef[];
  terrainBytes: number;
}

export class AppState {
  private readonly d: AppStateData = initialAppState();
  private readonly listeners = new Map<AppStateKey, Set<AppStateListener<AppStateKey>>>();

  // ---- reading ---------------------------------------------------------------------------------
  get world(): WorldInfo | null { return this.d.world; }
  get exactHeights(): ExactHeights | null { return this.d.exactHeights; }
  get bodySizes(): readonly number[] { return this.d.bodySizes; }
  get staticWarnings(): readonly string[] { return this.d.staticWarnings; }
  get warningsShown(): readonly string[] { return this.d.warningsShown; }
  get seriesDefs(): readonly SeriesDef[] { return this.d.seriesDefs; }
  get paused(): boolean { return this.d.paused; }
  get timeScale(): number { return this.d.timeScale; }
  get selection(): Selection { return this.d.selection; }
  get shown(): Frame | null { return this.d.shown; }
  get terrainStride(): number { return this.d.terrainStride; }
  get terrainBytesFromWorker(): number { return this.d.terrainBytesFromWorker; }
  get framesReceived(): number { return this.d.framesReceived; }
  get framesRendered(): number { return this.d.framesRendered; }
  get panelTicks(): number { return this.d.panelTicks; }
  get fps(): number { return this.d.fps; }
  get workerFailure(): WorkerFailure | null { return this.d.workerFailure; }
  get fault(): FaultState | null { return this.d.fault; }

  /**
   * Calls `listener` after every change of `key` (not for setting the same value again).
   * Returns the function that unsubscribes it.
   */
  subscribe<K extends AppStateKey>(key: K, listener: AppStateListener<K>): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    const l = listener as unknown as AppStateListener<AppStateKey>;
    set.add(l);
    return () => void set.delete(l);
  }

  // ---- changing --------------------------------------------------------------------------------
  /** A new world: its derived data in, the previous world's frame, selection and heights out. */
  worldLoaded(w: LoadedWorld, exactHeights: ExactHeights | null): void {
    this.d.exactHeights?.dispose();
    this.set('bodySizes', w.bodySizes);
    this.set('staticWarnings', w.staticWarnings);
    this.set('seriesDefs', w.seriesDefs);
    this.set('terrainBytesFromWorker', w.terrainBytes);
    this.set('shown', null);
    this.set('fault', null);
    this.set('selection', NO_SELECTION);
    this.set('exactHeights', exactHeights);
    this.set('world', w.info);
  }

  /** Warnings of the world found after loading it (e.g. by the 3D view's visuals). */
  addStaticWarnings(list: readonly string[]): void {
    if (list.length > 0) this.set('staticWarnings', [...this.d.staticWarnings, ...list]);
  }

  /** Sets the list over the 3D view; false when it is the list already shown (nothing to redraw). */
  setWarningsShown(list: string[]): boolean {
    const a = this.d.warningsShown;
    if (a.length === list.length && a.every((w, k) => w === list[k])) return false;
    this.set('warningsShown', list);
    return true;
  }

  setPaused(p: boolean): void { this.set('paused', p); }

  /**
   * The newest frame's fault (null when it has none). Listeners hear only a change of fault (a
   * new message or step), not every frame of the same one.
   */
  setFault(f: FaultState | null): void {
    const cur = this.d.fault;
    if (f === null ? cur === null : cur !== null && cur.step === f.step && cur.message === f.message) return;
    this.set('fault', f);
  }

  /** Clamps to TIME_SCALE_MIN..TIME_SCALE_MAX; returns the scale set. */
  setTimeScale(scale: number): number {
    const v = Math.min(TIME_SCALE_MAX, Math.max(TIME_SCALE_MIN, Number.isFinite(scale) ? scale : 1));
    this.set('timeScale', v);
    return v;
  }

  select(s: Selection): void { this.set('selection', s); }

  /** The frame on screen changed (its selection follows it: `selection`, already computed by the caller). */
  show(f: Frame | null, selection: Selection = this.d.selection): void {
    if (selection !== this.d.selection) this.set('selection', selection);
    this.set('shown', f);
  }

  setTerrainStride(stride: number): void { this.set('terrainStride', stride); }
  setFps(fps: number): void { this.set('fps', fps); }

  frameReceived(): void { this.set('framesReceived', this.d.framesReceived + 1); }
  frameRendered(): void { this.set('framesRendered', this.d.framesRendered + 1); }
  panelTick(): void { this.set('panelTicks', this.d.panelTicks + 1); }

  /** A worker call failed (SimClient). The same call failing again counts up instead of repeating. */
  reportWorkerFailure(call: string, message: string): void {
    const prev = this.d.workerFailure;
    const count = prev && prev.call === call && prev.message === message ? prev.count + 1 : 1;
    this.set('workerFailure', { call, message, count });
  }

  clearWorkerFailure(): void { this.set('workerFailure', null); }

  private set<K extends AppStateKey>(key: K, value: AppStateData[K]): void {
    if (Object.is(this.d[key], value)) return;
    this.d[key] = value;
    const set = this.listeners.get(key);
    if (!set) return;
    for (const l of set) l(value, this);
  }
}
