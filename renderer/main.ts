/**
 * Renderer entry: picks the Host, starts the simulation worker, loads the default scenario from
 * the bundled assets, and runs the render loop (pull the newest frame without waiting,
 * interpolate poses, draw the 3D view, the 2D panel and the status bar).
 */
import type { Frame, LoadProgress, ScenarioFiles, WorldInfo } from '../sim/protocol';
import { contactKindName } from '../sim/dynamics/plain-world';
import { CONTACT_INFO_STRIDE } from '../sim/dynamics/spec';
import { STATUS_PERIOD_MS, TIME_SCALE_MAX, TIME_SCALE_MIN } from './config';
import { contactRows } from './contact-rows';
import { installControls } from './controls';
import { blendFactor, interpolatePoses } from './frame-interp';
import { pickHost } from './host';
import type { Host, OpenedFile } from './host/host';
import type { WebHost } from './host/web-host';
import { PlotPanel } from './panels/plot-panel';
import { DEFAULT_SCENARIO_ASSET, gatherBundled, gatherOpenedScenario, gatherOpenedTerrain } from './scenario-files';
import { createSimClient, FramePump, loadWorld, type ReceivedFrame } from './sim-client';
import { installTestHook, type TestHookState } from './test-hook';
import { createLoadCostUi } from './load-progress';
import { yawOf } from './view3d/yaw';
import { SceneView } from './view3d/scene-view';

/** [ms] Panel redraw period: plots do not need display rate, and software GL is slow. */
const PANEL_PERIOD_MS = 100;

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`index.html is missing #${id}`);
  return e as T;
}

const ui = {
  view: el<HTMLCanvasElement>('view3d'),
  panel: el<HTMLCanvasElement>('panel'),
  panelNote: el<HTMLDivElement>('panel-note'),
  status: el<HTMLElement>('status'),
  banner: el<HTMLDivElement>('banner'),
  bannerText: el<HTMLSpanElement>('banner-text'),
  bannerAction: el<HTMLButtonElement>('banner-action'),
  bannerClose: el<HTMLButtonElement>('banner-close'),
  progress: el<HTMLDivElement>('progress'),
  progressBar: el<HTMLDivElement>('progress-bar'),
  progressLabel: el<HTMLDivElement>('progress-label'),
  help: el<HTMLDivElement>('help'),
  inspector: el<HTMLDivElement>('inspector'),
  worldName: el<HTMLSpanElement>('world-name'),
  btnPause: el<HTMLButtonElement>('btn-pause'),
  btnStep: el<HTMLButtonElement>('btn-step'),
  btnOpenScenario: el<HTMLButtonElement>('btn-open-scenario'),
  btnOpenTerrain: el<HTMLButtonElement>('btn-open-terrain'),
  btnHelp: el<HTMLButtonElement>('btn-help'),
  chkContacts: el<HTMLInputElement>('chk-contacts'),
};

// ---- state -----------------------------------------------------------------------------------
let world: WorldInfo | null = null;
/** The scenario JSON of the running world (reused when the user opens only a terrain). */
let currentScenario: unknown = null;
let terrainStride = 1;
let paused = false;
let loading = false;
let loads = 0;
let framesReceived = 0;
let framesRendered = 0;
let errorText: string | null = null;
let showContacts = true;
/** Simulated seconds per wall-clock second requested from the worker (it clamps to 0.1..10). */
let timeScale = 1;

/**
 * Settles a pending "select the related file" request (see requestRelated below) as cancelled.
 * Any banner change cancels it, so a load can never wait forever on a banner that is gone.
 */
let cancelPendingRequest: (() => void) | null = null;

function settlePendingRequest(): void {
  const cancel = cancelPendingRequest;
  cancelPendingRequest = null;
  cancel?.();
}

function showError(message: string, action?: { label: string; run: () => void }): void {
  settlePendingRequest();
  errorText = message;
  ui.bannerText.textContent = message;
  ui.banner.hidden = false;
  if (action) {
    ui.bannerAction.textContent = action.label;
    ui.bannerAction.hidden = false;
    ui.bannerAction.onclick = () => {
      cancelPendingRequest = null; // the action now owns the request
      hideError();
      action.run();
    };
  } else {
    ui.bannerAction.hidden = true;
    ui.bannerAction.onclick = null;
  }
}

function hideError(): void {
  settlePendingRequest();
  errorText = null;
  ui.banner.hidden = true;
}
ui.bannerClose.addEventListener('click', hideError);

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---- host, worker, views ---------------------------------------------------------------------
const host: Host = pickHost({
  // A browser picker needs a user gesture, so a missing related file becomes a banner button.
  requestRelated: (name, pick) =>
    new Promise((resolve) => {
      showError(`"${name}" is needed next to the file you opened.`, {
        label: `Select ${name}…`,
        run: () => {
          pick().then((files) => resolve(files?.[0] ?? null), () => resolve(null));
        },
      });
      cancelPendingRequest = () => resolve(null);
    }),
});

const scene = new SceneView(ui.view);
const sim = createSimClient((msg) => showError(`Simulation worker: ${msg}`));
// Large terrains: estimate first (Load / Cancel); Stop during the load ends the worker and restarts the app.
const loadCost = createLoadCostUi<HTMLElement>(ui.progress, () => {
  sim.dispose();
  location.reload();
});
const interpolated = { poses: new Float32Array(0) };
/** The frame whose contacts are on screen (chosen to match the interpolated poses). */
let shownContacts: Frame | null = null;

const pump = new FramePump(sim.remote, (rf: ReceivedFrame) => {
  framesReceived++;
  const f = rf.frame;
  panel?.push(f.time, f.speed, f.contactInfo.length / CONTACT_INFO_STRIDE);
});

let panel: PlotPanel | null = null;
PlotPanel.create(ui.panel).then(
  (p) => {
    panel = p;
    if (p && world) p.setWorld(world.terrain); // the world finished loading first
    if (!p) {
      ui.panel.hidden = true;
      ui.panelNote.hidden = false;
      ui.panelNote.textContent = 'Plots unavailable: no WebGL or canvas renderer for the 2D panel here.';
    }
  },
  () => {
    ui.panel.hidden = true;
    ui.panelNote.hidden = false;
    ui.panelNote.textContent = 'Plots unavailable in this browser.';
  },
);

// ---- loading ---------------------------------------------------------------------------------
function showProgress(p: LoadProgress): void {
  // Progress messages travel through Comlink and may arrive after load() resolved.
  if (!loading) return;
  ui.progress.hidden = false;
  ui.progressLabel.textContent = `Loading: ${p.stage}`;
  ui.progressBar.style.width = `${Math.round(Math.max(0, Math.min(1, p.fraction)) * 100)}%`;
}

/**
 * Loads a world from gathered files. On failure the banner says why and the previous world keeps
 * running untouched (the worker builds the new world completely before swapping).
 */
async function loadFiles(gather: () => Promise<ScenarioFiles>, what: string): Promise<void> {
  if (loading) {
    showError('A world is already loading; wait for it to finish.');
    return;
  }
  loading = true;
  showProgress({ stage: `reading ${what}`, fraction: 0 });
  try {
    const files = await gather();
    if (!(await loadCost.confirm(files.terrainSidecar, files.terrainData))) return; // the running world stays
    const scenario = files.scenario;
    const info = await loadWorld(sim.remote, files, showProgress);
    world = info;
    currentScenario = scenario;
    pump.reset();
    panel?.setWorld(info.terrain);
    terrainStride = scene.setWorld(info);
    ui.worldName.textContent = `${info.scenarioName} — ${info.terrain.cols}×${info.terrain.rows} @ ${info.terrain.dx} m` + (terrainStride > 1 ? ` (mesh decimated, stride ${terrainStride})` : '');
    loads++;
    hideError();
    sim.remote.setRunning(!paused);
  } catch (e) {
    showError(`Could not load ${what}: ${messageOf(e)}`);
  } finally {
    loading = false;
    loadCost.clear();
    ui.progress.hidden = true;
  }
}

function openScenario(): void {
  host.openFile('scenario').then((f) => {
    if (f) void loadFiles(() => gatherOpenedScenario(host, f), f.name);
  }, (e: unknown) => showError(messageOf(e)));
}

function openTerrain(): void {
  if (currentScenario === null) {
    showError('Load a scenario first: a terrain is opened into the current scenario.');
    return;
  }
  host.openFile('terrain').then((f) => {
    if (f) void loadFiles(() => gatherOpenedTerrain(host, f, currentScenario), f.name);
  }, (e: unknown) => showError(messageOf(e)));
}

/** Loads a file the host handed us, by its kind (File ▸ Open Recent gives any kind). */
function loadOpened(f: OpenedFile): void {
  if (f.kind === 'scenario') void loadFiles(() => gatherOpenedScenario(host, f), f.name);
  else if (f.kind === 'terrain') {
    if (currentScenario === null) showError('Load a scenario first: a terrain is opened into the current scenario.');
    else void loadFiles(() => gatherOpenedTerrain(host, f, currentScenario), f.name);
  } else showError(`Opening a ${f.kind} (${f.name}) is not supported yet.`);
}

host.onMenuCommand((cmd) => {
  if (cmd.type === 'open') {
    if (cmd.kind === 'scenario') openScenario();
    else if (cmd.kind === 'terrain') openTerrain();
    else showError(`Opening a ${cmd.kind} is not supported yet.`);
  } else if (cmd.type === 'open-recent') {
    if (!host.openRecent) {
      showError('Recent files are not available in this host.');
      return;
    }
    host.openRecent(cmd.index).then(loadOpened, (e: unknown) => showError(messageOf(e)));
  } else {
    showError('Saving a recording is not available yet: recording comes in a later milestone.');
  }
});
const webHost = host.kind === 'web' ? (host as WebHost) : null;
ui.btnOpenScenario.addEventListener('click', () => (webHost ? webHost.dispatchMenuCommand({ type: 'open', kind: 'scenario' }) : openScenario()));
ui.btnOpenTerrain.addEventListener('click', () => (webHost ? webHost.dispatchMenuCommand({ type: 'open', kind: 'terrain' }) : openTerrain()));

// ---- controls --------------------------------------------------------------------------------
function setPaused(p: boolean): void {
  paused = p;
  ui.btnPause.textContent = p ? 'Resume' : 'Pause';
  if (world) sim.remote.setRunning(!p);
}

function stepOnce(): void {
  if (!paused || !world) return;
  sim.remote.step(1).catch((e: unknown) => showError(messageOf(e)));
}

function setContacts(v: boolean): void {
  showContacts = v;
  ui.chkContacts.checked = v;
  scene.contacts.setVisible(v);
  void host.setSettings({ showContacts: v }).catch(() => undefined);
}

function toggleHelp(): void {
  ui.help.hidden = !ui.help.hidden;
}

function toggleInspector(): void {
  ui.inspector.hidden = !ui.inspector.hidden;
  if (!ui.inspector.hidden) updateInspector();
}

/** Fills the contact inspector from the frame whose contacts are drawn. */
function updateInspector(): void {
  if (ui.inspector.hidden) return;
  const f = shownContacts;
  if (!f || !world) {
    ui.inspector.textContent = 'no contacts yet';
    return;
  }
  const { rows, more } = contactRows(f.contacts, f.contactInfo, world.bodies, world.dt);
  const table = document.createElement('table');
  const head = table.insertRow();
  for (const h of ['body', 'on', 'case', 'cell', 'depth mm', 'point m', 'normal', 'force N', 'friction N']) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  for (const r of rows) {
    const tr = table.insertRow();
    for (const v of [r.body, r.other, r.kind, r.cell, r.depthMm, r.point, r.normal, r.forceN, r.frictionN]) tr.insertCell().textContent = v;
  }
  const caption = document.createElement('div');
  caption.textContent = `step ${f.step}: ${f.contactInfo.length / CONTACT_INFO_STRIDE} contacts` + (more > 0 ? ` (${more} more not listed)` : '');
  ui.inspector.replaceChildren(caption, table);
}

installControls(window, {
  drive: (cmd) => {
    if (world) sim.remote.setDrive(cmd);
  },
  togglePause: () => setPaused(!paused),
  stepOnce,
  toggleContacts: () => setContacts(!showContacts),
  toggleHelp,
  toggleInspector,
  scaleTime: (factor) => {
    timeScale = Math.min(TIME_SCALE_MAX, Math.max(TIME_SCALE_MIN, timeScale * factor));
    sim.remote.setTimeScale(timeScale);
  },
});
ui.btnPause.addEventListener('click', () => setPaused(!paused));
ui.btnStep.addEventListener('click', stepOnce);
ui.btnHelp.addEventListener('click', toggleHelp);
ui.chkContacts.addEventListener('change', () => setContacts(ui.chkContacts.checked));
// Toolbar controls keep focus after a click, and Space on a focused button would "click" it again
// (on key up) besides pausing: hand focus back to the page after every click.
for (const b of [ui.btnPause, ui.btnStep, ui.btnHelp, ui.btnOpenScenario, ui.btnOpenTerrain, ui.chkContacts]) {
  b.addEventListener('click', () => b.blur());
}
host.getSettings().then((s) => setContacts(s.showContacts), () => undefined);

// ---- render loop -----------------------------------------------------------------------------
let lastT = performance.now();
let lastStatus = 0;
let lastPanel = 0;
let fps = 0;
let fpsFrames = 0;
let fpsStart = lastT;

function chassisIndex(w: WorldInfo): number {
  return Math.max(0, w.baseBody >= 0 ? w.baseBody : w.bodies.findIndex((b) => b.role === 'chassis'));
}

function chassisOf(f: Frame | undefined, poses: Float32Array): number[] {
  if (!f || !world) return [];
  const k = chassisIndex(world);
  return Array.from(poses.subarray(7 * k, 7 * k + 7));
}

/** "13 (side 8, base 4, edge 1)": count per algorithm case, body–body contacts as "body". */
function contactSummary(info: Int32Array): string {
  const n = info.length / CONTACT_INFO_STRIDE;
  if (n === 0) return '0';
  const counts = new Map<string, number>();
  for (let k = 0; k < n; k++) {
    const name = contactKindName(info[CONTACT_INFO_STRIDE * k]);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return `${n} (${[...counts].map(([name, c]) => `${name} ${c}`).join(', ')})`;
}

function updateStatus(now: number): void {
  const f = pump.current?.frame;
  const parts = [
    f ? `t ${f.time.toFixed(2)} s` : 't –',
    f ? `step ${f.step}` : 'step –',
    f ? `rtf ${f.realtimeFactor.toFixed(2)}×` : 'rtf –',
    f ? `speed ${f.speed.toFixed(2)} m/s` : 'speed –',
    f ? `contacts ${contactSummary(f.contactInfo)}` : 'contacts –',
    `${fps.toFixed(0)} fps`,
    paused ? 'PAUSED' : timeScale === 1 ? 'running' : `running ×${timeScale}`,
    `host ${host.kind}`,
  ];
  if (scene.softwareGL) parts.push('software GL');
  if (terrainStride > 1) parts.push(`terrain drawn at stride ${terrainStride}`);
  if (pump.lastError && world) parts.push(`worker: ${pump.lastError}`);
  ui.status.textContent = parts.join('  │  ');
  lastStatus = now;
}

function frameLoop(now: number): void {
  const dt = (now - lastT) / 1000;
  lastT = now;
  if (world && !loading) pump.poll();
  const cur = pump.current;
  if (cur && world) {
    const prev = pump.previous;
    if (interpolated.poses.length !== cur.frame.poses.length) interpolated.poses = new Float32Array(cur.frame.poses.length);
    let contactsOf = cur.frame;
    if (prev) {
      // Show the state one frame interval behind the newest frame: always between two real frames.
      const span = cur.arrivedAt - prev.arrivedAt;
      const alpha = blendFactor(0, span, now - cur.arrivedAt);
      interpolatePoses(interpolated.poses, prev.frame.poses, cur.frame.poses, alpha);
      // Contacts cannot be blended: show the nearer frame's, so markers stay on the drawn wheels.
      if (alpha < 0.5) contactsOf = prev.frame;
    } else {
      interpolated.poses.set(cur.frame.poses);
    }
    scene.setPoses(interpolated.poses, dt);
    if (panel) {
      const o = 7 * chassisIndex(world);
      const p = interpolated.poses;
      if (o + 6 < p.length) panel.setRobot(p[o], p[o + 1], yawOf(p[o + 3], p[o + 4], p[o + 5], p[o + 6]));
    }
    if (contactsOf !== shownContacts) {
      scene.contacts.update(contactsOf.contacts, contactsOf.contactInfo);
      shownContacts = contactsOf;
    }
  }
  scene.resize();
  scene.render();
  framesRendered++;
  fpsFrames++;
  if (now - fpsStart >= 1000) {
    fps = (fpsFrames * 1000) / (now - fpsStart);
    fpsFrames = 0;
    fpsStart = now;
  }
  if (panel && now - lastPanel >= PANEL_PERIOD_MS) {
    panel.resize();
    panel.draw();
    lastPanel = now;
  }
  if (now - lastStatus >= STATUS_PERIOD_MS) {
    updateStatus(now);
    updateInspector();
  }
  requestAnimationFrame(frameLoop);
}
requestAnimationFrame(frameLoop);

// ---- test/debug hook -------------------------------------------------------------------------
installTestHook((): TestHookState => {
  const f = pump.current?.frame;
  return {
    ready: world !== null && f !== undefined,
    host: host.kind,
    scenarioName: world?.scenarioName ?? null,
    bodies: world?.bodies.length ?? 0,
    terrainStride,
    glRenderer: scene.glRenderer,
    paused,
    framesReceived,
    framesRendered,
    lastFrame: f
      ? { step: f.step, time: f.time, speed: f.speed, contacts: f.contactInfo.length / CONTACT_INFO_STRIDE, realtimeFactor: f.realtimeFactor, chassis: chassisOf(f, f.poses) }
      : null,
    error: errorText,
    loads,
  };
});

// ---- start -----------------------------------------------------------------------------------
window.addEventListener('error', (e) => showError(`Unexpected error: ${e.message}`));
window.addEventListener('unhandledrejection', (e) => showError(`Unexpected error: ${messageOf(e.reason)}`));

async function start(): Promise<void> {
  let path = DEFAULT_SCENARIO_ASSET;
  try {
    const assets = await host.listAssets();
    if (!assets.some((a) => a.path === path)) {
      const first = assets.find((a) => a.kind === 'scenario');
      if (!first) {
        showError('No scenario is bundled with this build (assets/scenarios/ is empty). Open one with "Open scenario…".');
        return;
      }
      path = first.path;
    }
  } catch (e) {
    showError(`Could not list the bundled assets: ${messageOf(e)}`);
    return;
  }
  await loadFiles(() => gatherBundled(host, path), `assets/${path}`);
}
void start();
