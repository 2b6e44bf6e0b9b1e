/**
 * Loading worlds: from the bundled scenario menu, from files the user opens (toolbar, the
 * desktop menu, or dropped on the window), and again from the start (reset). Each load gathers its files afresh through
 * the Host (the terrain bytes are transferred to the worker, so nothing is reused), and a failed
 * load leaves the running world untouched: the banner says why.
 */
import type { LoadProgress, ScenarioFiles, WorldInfo } from '../../sim/app/protocol';
import type { Host, OpenedFile } from '../host/host';
import type { WebHost } from '../host/web-host';
import { DEFAULT_SCENARIO_ASSET, gatherBundled, gatherOpenedScenario, gatherOpenedTerrain } from '../scenario-files';
import type { OpenedRobotFile } from '../../electron/ipc-contract';
import { gatherOpenedRobot, withRobot, type OpenedRobot } from '../robot-swap';
import type { Banner } from './banner';
import { el, h, messageOf } from './dom';
import { droppedFilesHost, planDrop, type DroppedFile } from './drop-plan';

export interface FileActionsDeps {
  host: Host;
  banner: Banner;
  /** Sends the files to the worker and resolves with the new world. */
  load(files: ScenarioFiles, onProgress: (p: LoadProgress) => void): Promise<WorldInfo>;
  /**
   * The new world is in place (`files`: what was gathered for it; its terrain bytes were
   * transferred). `reset`: the running world loaded again from its start (Reset), not a new one.
   */
  loaded(info: WorldInfo, files: ScenarioFiles, reset: boolean): void;
  /**
   * Asked before the files go to the worker (large terrains: the estimate with Load / Cancel,
   * renderer/load-progress.ts); false keeps the running world. Optional.
   */
  confirmLoad?(files: ScenarioFiles): Promise<boolean>;
  /** The load finished or failed (the estimate's line is removed). */
  loadEnded?(): void;
  /** Before a reset: resolves true to go on (the run was kept or needs nothing), false to keep the world. */
  beforeReset?(): Promise<boolean>;
  /** A recording to replay (File ▸ Open Recording…, Open Recent); app/recording-panel.ts. */
  openRecording?(f: OpenedFile): void;
  /** File ▸ Save Recording As…: start recording to a file chosen now. */
  saveRecordingAs?(): void;
}

/** Value of the scenario menu's entry for a world that is not a bundled scenario. */
const OPENED_VALUE = 'opened:';

export class FileActions {
  loading = false;
  loads = 0;
  private drops = 0;
  /** The scenario JSON of the running world (reused when the user opens only a terrain). */
  private currentScenario: unknown = null;
  /** How the running world was gathered (reset gathers it again). */
  private lastGather: { gather: () => Promise<ScenarioFiles>; what: string; menuPath?: string } | null = null;
  /** The menu's entry for a world that is not a bundled scenario (opened, dropped, robot swapped in). */
  private readonly openedOption = h('option', '', '', { value: OPENED_VALUE });
  /** The running world's URDF robot files (a terrain opened into the scenario keeps its robot). */
  private currentRobot: Pick<ScenarioFiles, 'robotUrdf' | 'robotMeshes'> = {};
  private readonly progress = el<HTMLDivElement>('progress');
  private readonly progressBar = el<HTMLDivElement>('progress-bar');
  private readonly progressLabel = el<HTMLDivElement>('progress-label');
  readonly menu = el<HTMLSelectElement>('scenario-menu');

  constructor(private readonly d: FileActionsDeps) {
    const webHost = d.host.kind === 'web' ? (d.host as WebHost) : null;
    el('btn-open-scenario').addEventListener('click', () => (webHost ? webHost.dispatchMenuCommand({ type: 'open', kind: 'scenario' }) : this.openScenario()));
    el('btn-open-terrain').addEventListener('click', () => (webHost ? webHost.dispatchMenuCommand({ type: 'open', kind: 'terrain' }) : this.openTerrain()));
    el('btn-open-robot').addEventListener('click', () => (webHost ? webHost.dispatchMenuCommand({ type: 'open', kind: 'robot' }) : this.openRobot()));
    el('btn-reset').addEventListener('click', () => this.reset());
    this.menu.addEventListener('change', () => {
      const path = this.menu.value;
      if (path && path !== OPENED_VALUE) void this.loadFiles(() => gatherBundled(d.host, path), `assets/${path}`, path);
    });
    d.host.onMenuCommand((cmd) => {
      if (cmd.type === 'open') {
        if (cmd.kind === 'scenario') this.openScenario();
        else if (cmd.kind === 'terrain') this.openTerrain();
        else if (cmd.kind === 'robot') this.openRobot();
        else if (cmd.kind === 'recording' && d.openRecording) {
          const open = d.openRecording;
          d.host.openFile('recording').then((f) => f && open(f), (e: unknown) => d.banner.show(messageOf(e)));
        }
        else d.banner.show(`Opening a ${cmd.kind} is not supported yet.`);
      } else if (cmd.type === 'open-recent') {
        if (!d.host.openRecent) {
          d.banner.show('Recent files are not available in this host.');
          return;
        }
        d.host.openRecent(cmd.index).then((f) => void this.loadOpened(f), (e: unknown) => d.banner.show(messageOf(e)));
      } else if (cmd.type === 'live-link') {
        // handled by LiveLinkControl (renderer/main.ts)
      } else if (d.saveRecordingAs) d.saveRecordingAs();
      else d.banner.show('Recording is not available in this build.');
    });
  }

  private showProgress(p: LoadProgress): void {
    // Progress messages travel through Comlink and may arrive after load() resolved.
    if (!this.loading) return;
    this.progress.hidden = false;
    this.progressLabel.textContent = `Loading: ${p.stage}`;
    this.progressBar.style.width = `${Math.round(Math.max(0, Math.min(1, p.fraction)) * 100)}%`;
  }

  /** Loads a world from gathered files; on failure the banner says why and the old world runs on. */
  async loadFiles(gather: () => Promise<ScenarioFiles>, what: string, menuPath?: string, reset = false): Promise<boolean> {
    if (this.loading) {
      this.d.banner.show('A world is already loading; wait for it to finish.');
      return false;
    }
    this.loading = true;
    this.showProgress({ stage: `reading ${what}`, fraction: 0 });
    try {
      const files = await gather();
      if (this.d.confirmLoad && !(await this.d.confirmLoad(files))) return false; // the running world stays
      const scenario = files.scenario;
      const info = await this.d.load(files, (p) => this.showProgress(p));
      this.currentScenario = scenario;
      this.currentRobot = files.robotUrdf !== undefined ? { robotUrdf: files.robotUrdf, robotMeshes: files.robotMeshes } : {};
      this.lastGather = { gather, what, menuPath };
      this.loads++;
      this.d.banner.hide();
      this.showInMenu(info.scenarioName, what, menuPath);
      this.d.loaded(info, files, reset);
      return true;
    } catch (e) {
      this.d.banner.show(`Could not load ${what}: ${messageOf(e)}`);
      return false;
    } finally {
      this.loading = false;
      this.progress.hidden = true;
      this.d.loadEnded?.();
    }
  }

  /**
   * Loads the running world again from its files: back to its start. `beforeReset` (when given)
   * may keep the run first (save the recording) or cancel: it resolves false to keep the world.
   */
  reset(): void {
    const g = this.lastGather;
    if (!g) {
      this.d.banner.show('Nothing to reset: no world is loaded yet.');
      return;
    }
    const before = this.d.beforeReset?.() ?? Promise.resolve(true);
    void before.then((go) => {
      if (go && this.lastGather === g) void this.loadFiles(g.gather, g.what, g.menuPath, true);
    });
  }

  openScenario(): void {
    this.d.host.openFile('scenario').then((f) => {
      if (f) void this.loadFiles(() => gatherOpenedScenario(this.d.host, f), f.name);
    }, (e: unknown) => this.d.banner.show(messageOf(e)));
  }

  openTerrain(): void {
    const scenario = this.currentScenario;
    if (scenario === null) {
      this.d.banner.show('Load a scenario first: a terrain is opened into the current scenario.');
      return;
    }
    this.d.host.openFile('terrain').then((f) => {
      if (f) void this.loadFiles(this.terrainGather(f, scenario), f.name);
    }, (e: unknown) => this.d.banner.show(messageOf(e)));
  }

  /** A terrain opened under the running scenario, with the running robot's files. */
  private terrainGather(f: OpenedFile, scenario: unknown, host: Host = this.d.host): () => Promise<ScenarioFiles> {
    const robot = this.currentRobot;
    return async () => ({ ...(await gatherOpenedTerrain(host, f, scenario)), ...robot });
  }

  /** Open Robot…: a URDF (and its meshes) swapped into the running scenario (renderer/robot-swap.ts). */
  openRobot(): void {
    if (this.lastGather === null) {
      this.d.banner.show('Load a scenario first: a robot is opened into the current scenario.');
      return;
    }
    this.d.host.openFile('robot').then((f) => {
      if (f) void this.loadRobot(f);
    }, (e: unknown) => this.d.banner.show(messageOf(e)));
  }

  private loadRobot(f: OpenedRobotFile, host: Host = this.d.host): Promise<boolean> {
    const base = this.lastGather;
    if (base === null) {
      this.d.banner.show('Load a scenario first: a robot is opened into the current scenario.');
      return Promise.resolve(false);
    }
    let robot: OpenedRobot | null = null; // gathered once (a browser may ask for files), reused by reset
    return this.loadFiles(async () => {
      robot ??= await gatherOpenedRobot(host, f);
      return withRobot(await base.gather(), robot);
    }, f.name).then((ok) => {
      // a xacro robot's skipped includes (another package's accessories) are said once it runs
      if (ok && robot && robot.notes.length > 0) this.d.banner.show(`${f.name}: ${robot.notes.join('; ')}`);
      return ok;
    });
  }

  /**
   * Loads a file the host handed us, by its kind (File ▸ Open Recent gives any kind; a drop gives
   * any kind with `host` serving the files dropped with it). Resolves true when it loaded.
   */
  loadOpened(f: OpenedFile, host: Host = this.d.host): Promise<boolean> {
    if (f.kind === 'scenario') return this.loadFiles(() => gatherOpenedScenario(host, f), f.name);
    if (f.kind === 'terrain') {
      const scenario = this.currentScenario;
      if (scenario !== null) return this.loadFiles(this.terrainGather(f, scenario, host), f.name);
      this.d.banner.show('Load a scenario first: a terrain is opened into the current scenario.');
    } else if (f.kind === 'robot') return this.loadRobot(f, host);
    else if (f.kind === 'recording' && this.d.openRecording) {
      this.d.openRecording(f);
      return Promise.resolve(true);
    } else this.d.banner.show(`Opening a ${f.kind} (${f.name}) is not supported yet.`);
    return Promise.resolve(false);
  }

  /** A world is running (a terrain or robot can be opened into it). */
  get hasWorld(): boolean {
    return this.currentScenario !== null;
  }

  /**
   * Files dropped on the window (app/drop-plan.ts decides what they open); loads through
   * loadOpened like the menu. A set that cannot load says why in the banner, and notes (defaults
   * used, files ignored) follow a successful load.
   */
  async openDropped(files: readonly DroppedFile[]): Promise<boolean> {
    const token = `drop-${++this.drops}`;
    const plan = planDrop(files, token, this.hasWorld);
    if (plan.action === 'error') {
      this.d.banner.show(plan.message);
      return false;
    }
    const ok = await this.loadOpened(plan.file, droppedFilesHost(this.d.host, token, files, plan.file.name));
    if (ok && plan.notes.length > 0) this.d.banner.show(plan.notes.join(' '));
    return ok;
  }

  /** Lists the bundled scenarios in the menu and loads the default one (or the first). */
  async start(): Promise<void> {
    let path = DEFAULT_SCENARIO_ASSET;
    let scenarios: string[];
    try {
      scenarios = (await this.d.host.listAssets()).filter((a) => a.kind === 'scenario').map((a) => a.path).sort();
    } catch (e) {
      this.d.banner.show(`Could not list the bundled assets: ${messageOf(e)}`);
      return;
    }
    this.menu.replaceChildren(h('option', 'Bundled scenarios…', '', { value: '' }), ...scenarios.map((p) => h('option', p.replace(/^scenarios\//, '').replace(/\.json$/, ''), '', { value: p })));
    if (!scenarios.includes(path)) {
      if (scenarios.length === 0) {
        this.d.banner.show('No scenario is bundled with this build (assets/scenarios/ is empty). Open one with "Open scenario…".');
        return;
      }
      path = scenarios[0];
    }
    await this.loadFiles(() => gatherBundled(this.d.host, path), `assets/${path}`, path);
  }

  /**
   * The scenario menu names the running world: its bundled entry, or (a scenario opened or
   * dropped, a terrain or robot opened into the running one) an entry with the world's name and
   * the file that made it, so the menu never keeps the old scenario's name (issue #30).
   */
  private showInMenu(scenarioName: string, what: string, menuPath: string | undefined): void {
    if (menuPath !== undefined && [...this.menu.options].some((o) => o.value === menuPath)) {
      this.openedOption.remove();
      this.menu.value = menuPath;
      return;
    }
    this.openedOption.textContent = `${scenarioName} (${what})`;
    this.openedOption.title = `Running: ${scenarioName}, from ${what}`;
    if (!this.openedOption.isConnected) this.menu.insertBefore(this.openedOption, this.menu.options[1] ?? null);
    this.menu.value = OPENED_VALUE;
  }

}
