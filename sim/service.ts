/**
 * The simulation service: owns one World and runs it on its own fixed-step clock. The web
 * worker (sim/worker.ts) and the Node worker (sim/node/worker-node.ts) both expose this object
 * through Comlink; tests and the CLI may call it directly.
 *
 * Clock: every tick (TICK_MS of wall time) the service owes `elapsed × timeScale / dt` steps and
 * runs them, at most MAX_STEPS_PER_TICK at once, so a slow machine runs slower than real time
 * instead of spiralling; the measured realtime factor is reported in every frame.
 */
import { parseScenarioFile, type ParsedScenario } from './scenario-v2';
import { SimWorld } from './sim-world';
import type { DriveCommand, Frame, LoadProgress, ScenarioFiles, SimService, WorldInfo } from './protocol';
import { Heightfield } from './terrain/heightfield';
import type { RobotSpec } from './dynamics/spec';
import type { VisualSpec } from './robot/urdf/urdf-to-robot';

/** [ms] Wall-clock period of the stepping loop. */
const TICK_MS = 8;
/** Most steps run in one tick before the loop yields (bounds the worker's latency to commands). */
const MAX_STEPS_PER_TICK = 200;
const MIN_TIME_SCALE = 0.1;
const MAX_TIME_SCALE = 10;
const MAX_MANUAL_STEPS = 1_000_000;

export type TerrainDecoder = (sidecar: unknown, data: Uint8Array, onProgress?: (fraction: number) => void) => Heightfield;

/**
 * Loads the URDF robot a scenario names (text and meshes from ScenarioFiles), placed at its start;
 * with its visuals when the loader has them (the renderer draws those instead of collision shapes).
 */
export type UrdfRobotLoader = (parsed: ParsedScenario, files: ScenarioFiles, terrain: Heightfield) => RobotSpec | { robot: RobotSpec; visuals: VisualSpec[] };

export interface SimServiceDeps {
  decodeTerrain: TerrainDecoder;
  loadUrdfRobot?: UrdfRobotLoader;
  /** Wall clock in ms (injectable for tests). */
  now?: () => number;
}

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

  constructor(deps: SimServiceDeps) {
    this.deps = deps;
    this.now = deps.now ?? (() => (typeof performance !== 'undefined' ? performance.now() : Date.now()));
  }

  async load(files: ScenarioFiles, onProgress?: (p: LoadProgress) => void): Promise<WorldInfo> {
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
      terrain = this.deps.decodeTerrain(files.terrainSidecar, files.terrainData, (f) => report('terrain', 0.05 + 0.85 * f));
    }
    report('world', 0.9);
    let urdfRobot: RobotSpec | undefined;
    let visuals: VisualSpec[] | undefined;
    if (parsed.robot !== undefined && 'urdf' in parsed.robot) {
      if (!this.deps.loadUrdfRobot) throw new Error('load: this build cannot load URDF robots');
      const loaded = this.deps.loadUrdfRobot(parsed, files, terrain);
      if ('visuals' in loaded) {
        urdfRobot = loaded.robot;
        visuals = loaded.visuals;
      } else urdfRobot = loaded;
    }
    // Build the new world completely before replacing the old one: a bad file leaves the
    // running world untouched.
    const world = SimWorld.create(parsed, terrain, urdfRobot, visuals);
    const wasRunning = this.running;
    this.setRunning(false);
    this.world = world;
    this.owed = 0;
    report('ready', 1);
    if (wasRunning) this.setRunning(true);
    return world.info();
  }

  setDrive(cmd: DriveCommand): void {
    if (cmd === null || typeof cmd !== 'object') return;
    this.world?.setDrive({ throttle: Number(cmd.throttle), steer: Number(cmd.steer) });
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
    if (n > 0) w.step(n);
    return w.stepCount;
  }

  async latestFrame(): Promise<Frame> {
    return this.requireWorld().frame(this.realtimeFactor);
  }

  /** The world, for in-process callers (CLI, tests). */
  getWorld(): SimWorld | null {
    return this.world;
  }

  dispose(): void {
    this.setRunning(false);
    this.world = null;
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
    let n = Math.floor(this.owed);
    if (n > MAX_STEPS_PER_TICK) {
      n = MAX_STEPS_PER_TICK;
      this.owed = 0; // drop the backlog: run slower than real time rather than spiral
    } else {
      this.owed -= n;
    }
    if (n > 0) w.step(n);
    this.rtfWindowSteps += n;
    const window = (t - this.rtfWindowStart) / 1000;
    if (window >= 1) {
      this.realtimeFactor = (this.rtfWindowSteps * w.dt) / window;
      this.rtfWindowStart = t;
      this.rtfWindowSteps = 0;
    }
  }
}
