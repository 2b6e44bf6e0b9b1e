/**
 * Renderer entry: wires the pieces together. The Host, the simulation worker and its frame pump,
 * the 3D view (scene-view.ts), the sidebar panels (entities, contact inspector, manifold view,
 * view settings, plot series), the plots, the status bar, file actions and the selection.
 * The render loop pulls the newest frame without waiting, interpolates poses and draws; the
 * panels redraw at a lower rate. Each piece lives in its own module under app/, inspect/,
 * panels/ and view3d/; their logic is unit-tested without a DOM.
 */
import type { Frame } from '../sim/app/protocol';
import { AppState } from './app-state';
import { installControls } from './controls';
import { blendFactor, interpolatePoses } from './frame-interp';
import { pickHost } from './host';
import type { Host } from './host/host';
import { PlotPanel } from './panels/plot-panel';
import { PlotPanes } from './panels/plot-panes';
import { availableSeries } from './panels/plot-series';
import { ManifoldView } from './panels/manifold-view';
import { viewHookState } from './view3d/view-hook';
import { FramePump, type ReceivedFrame } from './sim-client';
import { createSimClient } from './sim-worker';
import { installTestHook, type TestHookState } from './test-hook';
import { FrameTiming, terrainGpuMemory, typedArrayBytes } from './render-stats';
import { yawOf } from './view3d/yaw';
import { SceneView } from './view3d/scene-view';
import { contactColor, contactPalette, cssColor } from './view3d/contact-style';
import { meshLookup } from './view3d/robot-visuals';
import { Banner } from './app/banner';
import { el, messageOf } from './app/dom';
import { EntityPanel } from './app/entity-panel';
import { createLoadCostUi } from './load-progress';
import { FileActions } from './app/file-actions';
import { ResultsPanel } from './app/results-panel';
import { installDrop } from './app/drop-files';
import { RecordingPanel } from './app/recording-panel';
import { InspectorPanel } from './app/inspector-panel';
import { bindPanels, cameraOptions, SettingsPanel } from './app/settings-panel';
import { bindLayoutToggles } from './app/layout-toggles';
import { statusText } from './app/status-text';
import { LiveLinkControl } from './app/live-link';
import { CaptureControls, copyText } from './app/capture';
import { ToolbarMenu } from './app/toolbar-menu';
import { bindPanelResize } from './app/panel-resize';
import { PanelRotation } from './panels/panel-rotation';
import { CAMERA_PRESETS, forceLegend, loadUiSettings, saveUiSettings, type KeyValueStore, type UiSettings } from './app/ui-settings';
import { contactDetail } from './inspect/contact-detail';
import { touchingOnly, type TouchingFrame } from './inspect/speculative';
import { ExactHeights } from './inspect/terrain-heights';
import { contactHighlighted, followSelection, NO_SELECTION, sameSelection, selectContact, type Selection } from './inspect/selection';
import { boundingRadius, edgeWarning, frameWarnings, worldWarnings } from '../sim/app/warnings';
import { CONTACT_INFO_STRIDE, POSE_STRIDE } from '../sim/dynamics/frame-layout';

/** [ms] Panel and status bar redraw period: they do not need display rate, and software GL is slow. */
const PANEL_PERIOD_MS = 100;
/** [px] A pointer that moves less than this between down and up is a click (else an orbit drag). */
const CLICK_SLOP_PX = 4;

const ui = {
  view: el<HTMLCanvasElement>('view3d'),
  panel: el<HTMLCanvasElement>('panel'),
  panelNote: el<HTMLDivElement>('panel-note'),
  status: el<HTMLElement>('status'),
  help: el<HTMLDivElement>('help'),
  warnings: el<HTMLUListElement>('warnings'),
  forceLegend: el<HTMLDivElement>('force-legend'),
  worldName: el<HTMLSpanElement>('world-name'),
  btnPause: el<HTMLButtonElement>('btn-pause'),
  btnStep: el<HTMLButtonElement>('btn-step'),
  btnHelp: el<HTMLButtonElement>('btn-help'),
  faultBox: el<HTMLDivElement>('fault-box'),
  faultTitle: el<HTMLElement>('fault-title'),
  faultText: el<HTMLElement>('fault-text'),
  faultRec: el<HTMLElement>('fault-rec'),
  btnStepBack: el<HTMLButtonElement>('btn-step-back'),
  chkContacts: el<HTMLInputElement>('chk-contacts'),
  cameraMenu: el<HTMLSelectElement>('camera-menu'),
  inspectorSection: el<HTMLElement>('inspector').closest('details') as HTMLDetailsElement,
};

// ---- state (app-state.ts: the panels read it, setters change it, subscribers react) ------------
const state = new AppState();
/** Render loop timing, for the test hook (renderer benchmark). */
const frameTiming = new FrameTiming();

const banner = new Banner();
const store: KeyValueStore | null = (() => {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: settings last for this run
  }
})();
const settings: UiSettings = loadUiSettings(store);

// ---- host, worker, views ---------------------------------------------------------------------
const host: Host = pickHost({
  // A browser picker needs a user gesture, so a missing related file becomes a banner button.
  requestRelated: (name, pick) =>
    new Promise((resolve) => {
      banner.show(`"${name}" is needed next to the file you opened.`, {
        label: `Select ${name}…`,
        run: () => {
          pick().then((files) => resolve(files?.[0] ?? null), () => resolve(null));
        },
      });
      banner.own(() => resolve(null));
    }),
});

const scene = new SceneView(ui.view);
// Every worker call goes through the client; a failed command lands in the state, and from there
// in the banner (the status bar reads it too).
const sim = createSimClient((call, message) => state.reportWorkerFailure(call, message));
// Electron: V-HACD runs in main (the worker's CSP forbids its wasm glue); the web worker runs it itself
if (host.meshConvexParts) void sim.setMeshDecomposer(host.meshConvexParts);
// View ▸ Live Link: Electron main serves this world to Foxglove (the web host says it cannot)
const liveLink = new LiveLinkControl(host, () => sim.openPort(), (m) => banner.show(m));
host.onMenuCommand((cmd) => {
  if (cmd.type === 'live-link') void liveLink.toggle();
});
state.subscribe('workerFailure', (f) => {
  if (!f) return;
  const again = f.count > 1 ? ` (${f.count} times)` : '';
  banner.show(f.call === 'worker' ? `Simulation worker: ${f.message}` : `Simulation worker: ${f.call} failed${again}: ${f.message}`);
});
const interpolated = { poses: new Float32Array(0) };

/** The run timeline's time label (a DOM label over the pixi strip: cheaper than a pixi Text). */
const runTime = el<HTMLSpanElement>('run-time');

/** The stacked uPlot panes of the chosen series, fed the worker's per-step samples. */
const panes = new PlotPanes(el<HTMLDivElement>('plot-panes'));

const pump = new FramePump(sim, (rf: ReceivedFrame) => {
  state.frameReceived();
  const f = rf.frame;
  // the world may have gone back (a seek, a step back): later samples go, then the new ones come in order
  panes.store.keepUpTo(f.step);
  if (f.plot) panes.store.append(f.plot);
  state.setFault(f.fault !== null ? { message: f.fault, step: f.faultStep ?? f.step, time: f.time } : null);
}, () => panes.store.lastStep);

let panel: PlotPanel | null = null;
PlotPanel.create(ui.panel).then(
  (p) => {
    panel = p;
    p?.setUnits(settings.units);
    if (p && state.world) p.setWorld(state.world.terrain, state.world.dt); // the world finished loading first
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

let manifoldView: ManifoldView | null = null;
ManifoldView.create(el<HTMLCanvasElement>('manifold')).then(
  (m) => {
    manifoldView = m;
    m?.setPalette(contactPalette(settings.contactPalette));
    m?.setUnits(settings.units);
    if (!m) el('manifold-note').textContent = 'Manifold view unavailable: no 2D renderer here.';
  },
  () => (el('manifold-note').textContent = 'Manifold view unavailable in this browser.'),
);

const entities = new EntityPanel(el('entities'), (s) => setSelection(s));
const inspector = new InspectorPanel(el('inspector'), ({ contact }) => {
  const shown = state.shown;
  if (shown) setSelection(selectContact(shown.contacts, shown.contactInfo, contact));
}, (json) => void copyText(json, (m) => banner.show(m)));
const settingsPanel = new SettingsPanel(el('settings'), el('series'), settings, store, () => applySettings());
bindPanels(document, settings, () => saveUiSettings(store, settings));
bindLayoutToggles(document, settings, () => saveUiSettings(store, settings));
bindPanelResize(document, settings, () => saveUiSettings(store, settings));
/** Units the series chooser was last built with. */
let seriesUnits = '';
applyDisplaySettings();

/** The chosen series to the panes and to the worker (which samples them at every step). */
function applySeries(): void {
  const chosen = settings.plots.map((k) => state.seriesDefs.find((d) => d.key === k)).filter((d) => d !== undefined);
  const before = panes.seriesKeys.join('\n');
  panes.setSeries(chosen);
  if (state.world && panes.seriesKeys.join('\n') !== before) void sim.setPlotSeries(panes.seriesKeys);
}

/** Units, colours and world axes (ui-settings.ts DisplaySettings) to every view and panel. */
function applyDisplaySettings(): void {
  const palette = contactPalette(settings.contactPalette);
  scene.contacts.setPalette(palette);
  manifoldView?.setPalette(palette);
  manifoldView?.setUnits(settings.units);
  for (const sw of document.querySelectorAll<HTMLElement>('[data-contact-kind]')) sw.style.color = cssColor(contactColor(Number(sw.dataset.contactKind), palette));
  scene.setShowWorldAxes(settings.showWorldAxes);
  scene.setTerrainColors(settings.terrainColors);
  scene.setTerrainContours(settings.terrainContours);
  scene.setBackground(settings.background);
  inspector.setUnits(settings.units);
  entities.setUnits(settings.units);
  panel?.setUnits(settings.units);
  panes.setUnits(settings.units);
  const unitsKey = `${settings.units.length}|${settings.units.angle}|${settings.units.force}`;
  if (unitsKey !== seriesUnits) {
    seriesUnits = unitsKey;
    settingsPanel.setSeries([...state.seriesDefs]); // the series chooser shows units
  }
}

function applySettings(): void {
  applyDisplaySettings();
  scene.contacts.setXray(settings.xray);
  scene.contacts.setNormalScale(settings.normalScale);
  scene.contacts.setForceScale(settings.forceScaleAuto ? 'auto' : settings.forceScale);
  scene.overlays.setShowAabbs(settings.showAabbs);
  scene.overlays.setShowElements(settings.showElements);
  scene.overlays.setShowCellRange(settings.showCellRange);
  scene.overlays.setShowAxes(settings.showAxes);
  scene.setShowCollision(settings.showCollision);
  const selection = state.selection;
  scene.setCamera(settings.camera, selection.type === 'body' ? selection.body : -1);
  ui.cameraMenu.value = settings.camera;
  applySeries();
  redrawContacts();
}

for (const [value, label] of cameraOptions()) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = `camera: ${label}`;
  ui.cameraMenu.appendChild(o);
}
ui.cameraMenu.addEventListener('change', () => {
  settingsPanel.set('camera', ui.cameraMenu.value as UiSettings['camera']);
  ui.cameraMenu.blur();
});

// ---- selection -------------------------------------------------------------------------------
function describeSelection(s: Selection): string | null {
  const world = state.world;
  const name = (b: number): string => (b < 0 ? 'terrain' : (world?.bodies[b]?.name ?? `#${b}`));
  switch (s.type) {
    case 'none':
      return null;
    case 'contact':
      return s.index >= 0 ? `contact #${s.index} (${name(s.bodyA)} on ${name(s.bodyB)})` : `contact of ${name(s.bodyA)} (gone)`;
    case 'body':
      return `body ${name(s.body)}`;
    case 'joint':
      return `joint ${world?.joints[s.joint]?.name ?? s.joint}`;
    case 'cell':
      return `terrain cell ${s.i},${s.j}`;
  }
}

function setSelection(s: Selection): void {
  state.select(s);
  if (settings.camera === 'wheel' && s.type === 'body') scene.setCamera('wheel', s.body);
  if (s.type === 'contact' && ui.inspectorSection) ui.inspectorSection.open = true;
  redrawContacts();
  updatePanels(true);
}

/** Redraws the contact markers and overlays of the frame on screen (the selection changed). */
function redrawContacts(): void {
  const f = state.shown;
  if (!f) return;
  scene.contacts.update(f.contacts, f.contactInfo, (k) => contactHighlighted(state.selection, f.contactInfo, k), state.world?.dt ?? 0);
  scene.overlays.updateElements(f.contacts, f.contactInfo);
}

// Click (not drag) in the 3D view picks what is under the pointer.
let downAt: [number, number] | null = null;
ui.view.addEventListener('pointerdown', (e) => {
  downAt = [e.clientX, e.clientY];
});
ui.view.addEventListener('pointerup', (e) => {
  const shown = state.shown;
  if (!downAt || !shown || e.button !== 0) return;
  const moved = Math.hypot(e.clientX - downAt[0], e.clientY - downAt[1]);
  downAt = null;
  if (moved > CLICK_SLOP_PX) return;
  const r = ui.view.getBoundingClientRect();
  const hit = scene.pick(e.clientX - r.left, e.clientY - r.top, shown.contacts);
  if (hit.type === 'contact') setSelection(selectContact(shown.contacts, shown.contactInfo, hit.index));
  else if (hit.type === 'body') setSelection({ type: 'body', body: hit.body });
  else if (hit.type === 'cell') setSelection({ type: 'cell', i: hit.i, j: hit.j });
  else setSelection(NO_SELECTION);
});

// ---- loading ---------------------------------------------------------------------------------
// Large terrains: estimate first (Load / Cancel); Stop during the load ends the worker and restarts the app.
const loadCost = createLoadCostUi<HTMLElement>(el<HTMLElement>('progress'), () => {
  sim.dispose();
  location.reload();
});

// Recording, replay, timeline (app/recording-panel.ts).
const recordings = new RecordingPanel({
  host,
  banner,
  sim,
  scenarioName: () => state.world?.scenarioName ?? null,
  onJump: () => pump.reset(),
  onBranch: () => setPaused(false),
  baseBody: () => scene.baseIndex(),
});

new ResultsPanel({ host, banner, openRecording: (f) => recordings.openOpened(f) });
// Screenshot and video of the 3D view (app/capture.ts), beside the recording buttons.
const capture = new CaptureControls({ host, canvas: ui.view, render: () => scene.render(), scenarioName: () => state.world?.scenarioName ?? 'terrawheel', notify: (m) => banner.show(m) }, el('toolbar'), el('btn-help'));
// a click on the plots while a replay is open seeks there
panes.onSeekTime = (t) => {
  const dt = state.world?.dt ?? 0;
  if (dt > 0) void recordings.seek(Math.max(0, Math.round(t / dt)));
};

const files = new FileActions({
  host,
  banner,
  openRecording: (f) => recordings.openOpened(f),
  saveRecordingAs: () => recordings.saveRecordingAs(),
  load: (f, onProgress) => sim.load(f, onProgress),
  confirmLoad: (f) => loadCost.confirm(f.terrainSidecar, f.terrainData),
  loadEnded: () => loadCost.clear(),
  beforeReset: () => keepRunBeforeReset(),
  loaded(info, f, reset) {
    recordings.worldChanged();
    pump.reset();
    const fetchPatch = (i0: number, j0: number, cols: number, rows: number, stride: number) => sim.terrainPatch(i0, j0, cols, rows, stride);
    const heights = new ExactHeights(info.terrain, fetchPatch, () => {
      // a tile arrived: outlines and panels that waited for it redraw
      if (state.exactHeights !== heights) return;
      redrawContacts();
      updatePanels(true);
    });
    state.worldLoaded({
      info,
      bodySizes: info.bodies.map((b) => boundingRadius(b.shape)),
      staticWarnings: worldWarnings(info),
      seriesDefs: availableSeries(info),
      terrainBytes: typedArrayBytes(info.terrain),
    }, heights);
    settingsPanel.setSeries([...state.seriesDefs]);
    panel?.setWorld(info.terrain, info.dt);
    panes.store.clear();
    applySeries();
    void sim.setPlotSeries(panes.seriesKeys); // the new world's worker samples them from its first step
    inspector.terrain = heights;
    scene.setWorld(info, fetchPatch, heights, meshLookup(f.robotMeshes));
    state.addStaticWarnings(scene.visualWarnings);
    entities.setWorld(info);
    applySettings();
    ui.worldName.textContent = `${info.scenarioName} — ${info.terrain.cols}×${info.terrain.rows} @ ${info.terrain.dx} m`;
    // a new world runs even if the old one was paused (never silently paused, #30); Reset keeps the pause
    if (!reset && state.paused) state.setPaused(false);
    void sim.setRunning(!state.paused);
  },
});

// Files dropped on the window: one handler for every kind (app/drop-files.ts, app/drop-plan.ts).
installDrop(window, { banner, zone: el<HTMLElement>('drop-zone'), open: (fs) => files.openDropped(fs) });

// ---- controls --------------------------------------------------------------------------------
/**
 * Pauses or resumes the worker's clock. Always tells the worker, even when the state does not
 * change: a replay's seek pauses the worker behind the state's back, and a branch resumes it here.
 */
function setPaused(p: boolean): void {
  // A fault pause is not a pause: the world cannot run on until it is stepped back or reset, so
  // Pause/Resume and Space do nothing then (the fault box says what to do).
  if (state.fault) return;
  state.setPaused(p);
  if (state.world) void sim.setRunning(!p);
}

/** The pause and step buttons: what they would do now (nothing, during a fault: they say so). */
function renderRunButtons(): void {
  const fault = state.fault;
  ui.btnPause.textContent = fault ? '⚠ Fault' : state.paused ? 'Resume' : 'Pause';
  ui.btnPause.disabled = fault !== null;
  ui.btnPause.classList.toggle('faulted', fault !== null);
  ui.btnPause.title = fault ? 'Stopped on a fault: step back to before it, or reset' : 'Space';
  ui.btnStep.disabled = fault !== null;
}
state.subscribe('paused', renderRunButtons);

/**
 * The fault pause, everywhere: the box over the 3D view (message, recording, step back, reset),
 * the run buttons, the status bar (updateStatus) and the plots' timeline marker.
 */
state.subscribe('fault', (fault) => {
  renderRunButtons();
  ui.faultBox.hidden = fault === null;
  panel?.setFault(fault ? fault.time : null);
  panes.setFault(fault ? fault.time : null);
  if (!fault) return;
  ui.faultTitle.textContent = `Simulation stopped: fault at step ${fault.step} (t ${fault.time.toFixed(2)} s)`;
  ui.faultText.textContent = fault.message;
  const rec = recordings.activeRecording;
  ui.faultRec.textContent = rec
    ? `The recording ${rec.name} holds the fault as an event at step ${fault.step} and stops growing; stepping back or resetting ends it and saves the file.`
    : '';
  ui.btnStepBack.disabled = false;
});

/** Ends a running recording (its file saved), then puts the world back before the fault, paused. */
async function stepBackFromFault(): Promise<void> {
  if (!state.fault) return;
  ui.btnStepBack.disabled = true;
  if (recordings.activeRecording) await recordings.stop();
  try {
    await sim.stepBack();
  } catch (e) {
    banner.show(`Could not step back: ${messageOf(e)}`);
    ui.btnStepBack.disabled = false;
    return;
  }
  pump.reset();
  state.setFault(null);
  setPaused(true);
  void sim.setDrive({ throttle: 0, steer: 0 });
}

/**
 * Reset reloads the world from its start: a running recording is not dropped on the way. The
 * banner offers to save it and reset (dismissing the banner keeps the world as it is).
 */
function keepRunBeforeReset(): Promise<boolean> {
  const rec = recordings.activeRecording;
  if (!rec) return Promise.resolve(true);
  return new Promise((resolve) => {
    banner.show(`Reset ends the recording ${rec.name} (${rec.simSeconds.toFixed(1)} s recorded).`, {
      label: 'Save the recording and reset',
      run: () => {
        recordings.stop().then(() => resolve(true), () => resolve(false));
      },
    });
    banner.own(() => resolve(false));
  });
}
ui.btnStepBack.addEventListener('click', () => void stepBackFromFault());
el<HTMLButtonElement>('btn-fault-reset').addEventListener('click', () => files.reset());

function stepOnce(): void {
  if (!state.paused || !state.world || state.fault) return;
  sim.step(1).catch((e: unknown) => state.reportWorkerFailure('step', messageOf(e)));
}

function setContacts(v: boolean): void {
  settings.showContacts = v;
  ui.chkContacts.checked = v;
  scene.contacts.setVisible(v);
  void host.setSettings({ showContacts: v }).catch(() => undefined);
}

function toggleHelp(): void {
  ui.help.hidden = !ui.help.hidden;
}

installControls(window, {
  drive: (cmd) => {
    if (state.world) void sim.setDrive(cmd);
  },
  togglePause: () => setPaused(!state.paused),
  stepOnce,
  toggleContacts: () => setContacts(!settings.showContacts),
  toggleHelp,
  toggleInspector: () => {
    if (ui.inspectorSection) ui.inspectorSection.open = !ui.inspectorSection.open;
  },
  scaleTime: (factor) => void sim.setTimeScale(state.setTimeScale(state.timeScale * factor)),
  reset: () => files.reset(),
  toggleXray: () => settingsPanel.set('xray', !settings.xray),
  nextCamera: () => settingsPanel.set('camera', CAMERA_PRESETS[(CAMERA_PRESETS.indexOf(settings.camera) + 1) % CAMERA_PRESETS.length]),
  clearSelection: () => setSelection(NO_SELECTION),
});
ui.btnPause.addEventListener('click', () => setPaused(!state.paused));
ui.btnStep.addEventListener('click', stepOnce);
ui.btnHelp.addEventListener('click', toggleHelp);
ui.chkContacts.addEventListener('change', () => setContacts(ui.chkContacts.checked));
// Toolbar controls keep focus after a click, and Space on a focused button would "click" it again
// (on key up) besides pausing: hand focus back to the page after every click.
for (const b of document.querySelectorAll<HTMLElement>('#toolbar button, #toolbar input, #toolbar select')) {
  b.addEventListener(b.tagName === 'SELECT' ? 'change' : 'click', () => b.blur());
}
host.getSettings().then((s) => setContacts(s.showContacts), () => undefined);
// after every toolbar control exists: the ones that do not fit fold into a menu (app/toolbar-menu.ts)
const toolbarMenu = new ToolbarMenu(el('toolbar'), ui.worldName);

// ---- panels ----------------------------------------------------------------------------------
function updateWarnings(): void {
  const world = state.world, shown = state.shown;
  if (!world || !shown) return;
  const list = [...state.staticWarnings, ...frameWarnings(world, shown.poses, shown.velocities, state.bodySizes)];
  const spec = speculativeShown;
  if (spec && spec.speculative > 0) list.push(`${spec.speculative} speculative contact${spec.speculative > 1 ? 's' : ''} not shown (not touching: gap ≥ ${(spec.minGap * 1000).toPrecision(2)} mm, no force)`);
  // the fault itself is in the fault box; the map edge is warned of before the robot reaches it
  const o = POSE_STRIDE * world.baseBody;
  if (!state.fault && world.baseBody >= 0 && o + 1 < shown.poses.length) {
    const edge = edgeWarning(world.terrain, shown.poses[o], shown.poses[o + 1], shown.speed);
    if (edge) list.push(edge);
  }
  if (!state.setWarningsShown(list)) return;
  ui.warnings.hidden = list.length === 0;
  ui.warnings.replaceChildren(...list.map((w) => {
    const li = document.createElement('li');
    li.textContent = w;
    return li;
  }));
}

/** The force arrows' scale over the 3D view (only while normals scale by force with contacts shown). */
function updateForceLegend(): void {
  const text = forceLegend(settings, scene.contacts.forceScale);
  if (ui.forceLegend.textContent !== text) ui.forceLegend.textContent = text;
  if (ui.forceLegend.hidden !== (text === '')) ui.forceLegend.hidden = text === '';
}

function updatePanels(force = false): void {
  const { shown: f, world, selection, exactHeights } = state;
  inspector.update(f, world, selection, force);
  entities.update(selection, f?.poses ?? null, f?.velocities, f?.joints ?? null);
  if (manifoldView && world && exactHeights) manifoldView.update(f, world, exactHeights, selection);
}

// ---- render loop -----------------------------------------------------------------------------
/** The render loop's own clock: last frame, last panel redraw, frames counted for the fps. */
const loop = { lastT: performance.now(), lastPanel: 0, fpsFrames: 0, fpsStart: performance.now(), panels: new PanelRotation() };

function updateStatus(): void {
  const failed = state.workerFailure;
  ui.status.textContent = statusText({
    frame: state.shown,
    fps: state.fps,
    paused: state.paused,
    timeScale: state.timeScale,
    host: host.kind,
    softwareGL: scene.softwareGL,
    terrainStride: state.terrainStride,
    workerError: pump.lastError && state.world ? pump.lastError : failed ? `${failed.call} failed: ${failed.message}` : null,
    selection: describeSelection(state.selection),
    units: settings.units,
    liveLink: liveLink.text(),
    fault: state.fault,
  });
}

/** The speculative contacts of the frame on screen, left out of the markers and the inspector. */
let speculativeShown: TouchingFrame | null = null;

function frameLoop(now: number): void {
  const entered = performance.now();
  const dt = (now - loop.lastT) / 1000;
  loop.lastT = now;
  if (state.world && !files.loading) pump.poll();
  const cur = pump.current;
  if (cur && state.world) {
    const prev = pump.previous;
    if (interpolated.poses.length !== cur.frame.poses.length) interpolated.poses = new Float32Array(cur.frame.poses.length);
    let contactsOf = cur.frame;
    if (prev) {
      // Show the state one frame interval behind the newest frame: always between two real frames.
      const span = cur.arrivedAt - prev.arrivedAt;
      const alpha = blendFactor(0, span, now - cur.arrivedAt);
      // Contacts cannot be blended: show the nearer frame's. With contacts on, the bodies are
      // drawn at that same frame's poses, unblended, so every marker sits where its frame put it
      // (blended bodies ran up to half a frame interval, 0.5 m at low frame rates, from the markers).
      if (alpha < 0.5) contactsOf = prev.frame;
      if (settings.showContacts) interpolated.poses.set(contactsOf.poses);
      else interpolatePoses(interpolated.poses, prev.frame.poses, cur.frame.poses, alpha);
    } else {
      interpolated.poses.set(cur.frame.poses);
    }
    // speculative contacts (a gap, no force yet) are not contacts: shown apart (the warnings line)
    const touching = touchingOnly(contactsOf);
    contactsOf = touching.frame;
    speculativeShown = touching;
    scene.setPoses(interpolated.poses, dt);
    if (panel) {
      const o = 7 * scene.baseIndex();
      const p = interpolated.poses;
      if (o + 6 < p.length) panel.setRobot(p[o], p[o + 1], yawOf(p[o + 3], p[o + 4], p[o + 5], p[o + 6]));
    }
    if (contactsOf !== state.shown) {
      const next = followSelection(state.selection, contactsOf.contacts, contactsOf.contactInfo);
      state.show(contactsOf, sameSelection(next, state.selection) ? state.selection : next);
      redrawContacts();
    }
    scene.updateOverlays(state.selection, contactsOf.contacts); // contactsOf is the shown frame now
  }
  scene.resize();
  scene.render();
  state.frameRendered();
  loop.fpsFrames++;
  if (now - loop.fpsStart >= 1000) {
    state.setFps((loop.fpsFrames * 1000) / (now - loop.fpsStart));
    loop.fpsFrames = 0;
    loop.fpsStart = now;
  }
  if (now - loop.lastPanel >= PANEL_PERIOD_MS) {
    // one panel group per tick, in turn (panels/panel-rotation.ts); status and warnings every tick
    const { group, roundDone } = loop.panels.next();
    if (panel && group === 'strip') {
      panel.setTime(state.shown?.time ?? 0);
      panel.resize();
      panel.draw();
      if (runTime.textContent !== panel.timeText) runTime.textContent = panel.timeText;
    }
    // the plots end at the frame on screen; in a replay a white line marks it (the seek position)
    if (group === 'plots') {
      panes.setCursorTime(recordings.replayOpen ? (state.shown?.time ?? null) : null);
      panes.resize();
      panes.draw(state.shown?.time ?? 0);
    }
    if (group === 'sidebar') {
      manifoldView?.resize();
      updatePanels();
    }
    recordings.draw();
    updateWarnings();
    updateForceLegend();
    state.setTerrainStride(scene.terrainStride);
    // The status bar every tick; the plots' right edge at their group's tick (the same frame once paused).
    updateStatus();
    loop.lastPanel = now;
    if (roundDone) state.panelTick();
  }
  frameTiming.record(now, performance.now() - entered);
  requestAnimationFrame(frameLoop);
}
requestAnimationFrame(frameLoop);

// ---- test/debug hook -------------------------------------------------------------------------
/** Canvas CSS pixel position of the drawn robot base's origin (test hook), or null. */
function baseOnScreen(): { x: number; y: number } | null {
  const o = 7 * scene.baseIndex();
  const p: [number, number] = [0, 0];
  const q = interpolated.poses;
  if (!state.world || o + 2 >= q.length || !scene.toScreen(p, q[o], q[o + 1], q[o + 2])) return null;
  return { x: p[0], y: p[1] };
}

// Every field is a getter: the hook reads one field per property access (installTestHook), so a
// poll of `framesRendered` does not also project every contact to the screen (the renderer bench
// polls while it measures).
installTestHook((): TestHookState => {
  const chassis = (fr: Frame | undefined): number[] => {
    if (!fr || !state.world) return [];
    const k = scene.baseIndex();
    return Array.from(fr.poses.subarray(7 * k, 7 * k + 7));
  };
  const world = (): typeof state.world => state.world;
  return {
    get ready() { return world() !== null && pump.current?.frame !== undefined; },
    get host() { return host.kind; },
    get scenarioName() { return world()?.scenarioName ?? null; },
    get bodies() { return world()?.bodies.length ?? 0; },
    get bodyNames() { return world()?.bodies.map((b) => `${b.role}:${b.name}`) ?? []; },
    get terrainStride() { return state.terrainStride; },
    get glRenderer() { return scene.glRenderer; },
    get paused() { return state.paused; },
    get framesReceived() { return state.framesReceived; },
    get framesRendered() { return state.framesRendered; },
    get lastFrame() {
      const f = pump.current?.frame;
      return f ? { step: f.step, time: f.time, speed: f.speed, contacts: f.contactInfo.length / CONTACT_INFO_STRIDE, realtimeFactor: f.realtimeFactor, chassis: chassis(f) } : null;
    },
    get shownFrame() {
      const s = state.shown;
      return s ? { step: s.step, time: s.time, contacts: Array.from(s.contacts), contactInfo: Array.from(s.contactInfo) } : null;
    },
    get contactsOnScreen() {
      const s = state.shown;
      const screen: { index: number; x: number; y: number }[] = [];
      if (s) {
        const p: [number, number] = [0, 0];
        for (let k = 0; k < scene.contacts.spheres.count; k++) {
          const idx = scene.contacts.contactOfInstance[k];
          if (idx >= 0 && scene.toScreen(p, s.contacts[10 * idx], s.contacts[10 * idx + 1], s.contacts[10 * idx + 2])) screen.push({ index: idx, x: p[0], y: p[1] });
        }
      }
      return screen;
    },
    get selection() { return describeSelection(state.selection); },
    get selectedContact() {
      const s = state.shown;
      const w = world(), sel = state.selection;
      return s && w && sel.type === 'contact' ? contactDetail(s, sel.index, w.dt, state.exactHeights) : null;
    },
    get highlightedContacts() { return scene.contacts.highlighted; },
    get warnings() { return state.warningsShown.slice(); },
    get error() { return banner.error; },
    get loads() { return files.loads; },
    get visualBodies() { return scene.visualBodies; },
    get recording() { return recordings.hookState(); },
    get overlaySegments() { return scene.overlays.segmentCounts; },
    get terrain() {
      const ts = scene.terrainStats, exactHeights = state.exactHeights;
      return ts && exactHeights ? { ...ts, exactTiles: exactHeights.tileCount, exactBytes: exactHeights.bytes, exactRequests: exactHeights.requests, exactBytesReceived: exactHeights.bytesReceived } : null;
    },
    get drawnChassis() { return world() ? Array.from(interpolated.poses.subarray(7 * scene.baseIndex(), 7 * scene.baseIndex() + 7)) : []; },
    get baseOnScreen() { return baseOnScreen(); },
    get frameTiming() { return frameTiming.snapshot(); },
    get terrainGpu() { return terrainGpuMemory(scene.scene); },
    get terrainBytesFromWorker() { return state.terrainBytesFromWorker; },
    get manifoldScale() { return manifoldView?.scaleLabel ?? null; },
    get plotTime() { return panel?.timeText ?? null; },
    get cameraLag() { return scene.cameraLag; },
    get view() { return viewHookState(scene, world(), manifoldView, scene.renderer.domElement); },
    get panelTicks() { return state.panelTicks; },
    get fault() {
      const f = state.fault;
      return f ? { ...f, boxShown: !ui.faultBox.hidden, pauseLabel: ui.btnPause.textContent ?? "", pauseDisabled: ui.btnPause.disabled, stepDisabled: ui.btnStep.disabled } : null;
    },
    get status() { return ui.status.textContent ?? ''; },
    get plotFaultTime() { return panel?.faultMarker ?? null; },
    get plots() {
      const st = panes.store;
      let increasing = true;
      for (let k = 1; k < st.count && increasing; k++) increasing = st.stepAt(k) > st.stepAt(k - 1);
      return { keys: st.keys.slice(), axes: panes.axisLabels, count: st.count, firstStep: st.count > 0 ? st.stepAt(0) : -1, lastStep: st.lastStep, increasing, drawnMax: panes.drawnMax };
    },
    get capture() { return { ...capture.state }; },
    get toolbarFolded() { return toolbarMenu.foldedIds; },
    get plotData() {
      const st = panes.store;
      return { keys: st.keys.slice(), columns: st.keys.map((_k, c) => st.column(c)) };
    },
  };
});

// ---- start -----------------------------------------------------------------------------------
window.addEventListener('error', (e) => banner.show(`Unexpected error: ${e.message}`));
window.addEventListener('unhandledrejection', (e) => banner.show(`Unexpected error: ${messageOf(e.reason)}`));
void files.start();
