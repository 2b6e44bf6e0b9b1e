/**
 * `window.__terrawheel`: a read-only snapshot of the app's state for end-to-end tests and for
 * debugging from the devtools console. Not an API: nothing in the app reads it, and it may change
 * with the tests that use it. Every property is a getter over the app's live state; writes are
 * ignored (the object is frozen).
 */
import type { ContactDetail } from './inspect/contact-detail';
import type { FrameTimingSnapshot, TerrainGpuMemory } from './render-stats';

export interface FrameSummary {
  step: number;
  /** [s] */
  time: number;
  /** [m/s] */
  speed: number;
  contacts: number;
  realtimeFactor: number;
  /** Chassis pose in the sim frame: px py pz qx qy qz qw. */
  chassis: number[];
}

/** The frame whose contacts are on screen, as plain arrays (Frame layout, sim/app/protocol.ts). */
export interface ShownFrame {
  step: number;
  time: number;
  contacts: number[];
  contactInfo: number[];
}

export interface TestHookState {
  ready: boolean;
  host: 'electron' | 'web';
  scenarioName: string | null;
  bodies: number;
  /** "role:name" per body, in world order. */
  bodyNames: string[];
  /** Stride of the terrain drawn under the followed body (1: the collision surface; 0: none drawn there). */
  terrainStride: number;
  /** WebGL renderer name (e.g. "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device ...))"), '' if hidden. */
  glRenderer: string;
  paused: boolean;
  /** Frames received from the worker since start. */
  framesReceived: number;
  /** Frames rendered since start. */
  framesRendered: number;
  lastFrame: FrameSummary | null;
  shownFrame: ShownFrame | null;
  /** Canvas CSS pixel position of every drawn contact marker of the shown frame. */
  contactsOnScreen: { index: number; x: number; y: number }[];
  /** Status-bar description of the selection, or null. */
  selection: string | null;
  /** The selected contact's detail as the inspector computed it, or null. */
  selectedContact: ContactDetail | null;
  /** Contact markers drawn highlighted (the selected contact or the selected body's). */
  highlightedContacts: number;
  /** Warnings shown over the 3D view. */
  warnings: string[];
  /** Text of the error banner, or null when hidden. */
  error: string | null;
  /** Loads completed (the default world counts as 1). */
  loads: number;
  /** Bodies drawn from URDF visuals (renderer/view3d/robot-visuals.ts). */
  visualBodies: number;
  /** Recording and replay (app/recording-panel.ts hookState). */
  recording?: ReturnType<import('./app/recording-panel').RecordingPanel['hookState']>;
  /** Overlay line segments drawn: element outlines, wheel cell ranges. */
  overlaySegments?: { elements: number; cellRanges: number };
  /** Terrain chunks drawn and held, patch traffic, and the exact-height tiles (view3d/terrain-view.ts). */
  terrain?: (import('./view3d/terrain-view').TerrainStats & { exactTiles: number; exactBytes: number; exactRequests: number; exactBytesReceived: number }) | null;
  /** The robot base's pose as drawn (interpolated, float32), px py pz qx qy qz qw. */
  drawnChassis?: number[];
  /** Canvas CSS pixel position of the drawn robot base's origin, or null (behind the camera, no world). */
  baseOnScreen?: { x: number; y: number } | null;
  /** The render loop's recent frames: start times and callback durations (render-stats.ts). */
  frameTiming?: FrameTimingSnapshot;
  /** Geometry and texture bytes held under the scene's 'terrain' object(s) (render-stats.ts). */
  terrainGpu?: TerrainGpuMemory;
  /** Bytes of typed arrays in the WorldInfo.terrain the worker sent for the current world. */
  terrainBytesFromWorker?: number;
  /** [m] The 3D camera's remaining smoothing lag behind the followed body (0: settled). */
  cameraLag?: number;
  /** Panel/status redraws since start (they run at PANEL_PERIOD_MS, slower than frames). */
  panelTicks?: number;
  /** The manifold view's scale-bar label ('' when it draws no patch), null without the view. */
  manifoldScale?: string | null;
  /** The plot panel's time label as drawn, null without the panel. */
  plotTime?: string | null;
  /** The fault pause as shown (box, run buttons), null when the world is not stopped on a fault. */
  fault?: { message: string; step: number; time: number; boxShown: boolean; pauseLabel: string; pauseDisabled: boolean; stepDisabled: boolean } | null;
  /** The status bar's text. */
  status?: string;
  /** [s] The plots' fault marker (their run timeline), null when none. */
  plotFaultTime?: number | null;
  /** The per-step plot samples held: keys, pane axis labels, steps held, increasing, largest value drawn per key. */
  plots?: { keys: string[]; axes: string[]; count: number; firstStep: number; lastStep: number; increasing: boolean; drawnMax: Record<string, number> };
  /** Every held sample, per key (large: read it only when needed). */
  plotData?: { keys: string[]; columns: { steps: number[]; values: number[] }[] };
  /** Screenshots and videos saved (app/capture.ts). */
  capture?: { recordingVideo: boolean; screenshots: number; videos: number; lastBytes: number; lastName: string };
  /** Ids of the toolbar controls folded into its menu (app/toolbar-menu.ts). */
  toolbarFolded?: string[];
  /** The views: terrain shading, camera, bodies on screen, the manifold view's construction (view3d/view-hook.ts). */
  view?: import('./view3d/view-hook').ViewHookState;
}

declare global {
  interface Window {
    __terrawheel?: Readonly<TestHookState>;
  }
}

/**
 * Installs the hook. `get` is called once per property read and only that property is read from
 * its result: return an object of getters, so reading one field (a poll of `framesRendered`)
 * costs that field, not the whole snapshot.
 */
export function installTestHook(get: () => TestHookState): void {
  const hook = {} as TestHookState;
  const keys: (keyof TestHookState)[] = [
    'ready', 'host', 'scenarioName', 'bodies', 'bodyNames', 'terrainStride', 'glRenderer', 'paused',
    'framesReceived', 'framesRendered', 'lastFrame', 'shownFrame', 'contactsOnScreen', 'selection',
    'selectedContact', 'highlightedContacts', 'warnings', 'error', 'loads', 'visualBodies', 'recording', 'overlaySegments', 'terrain', 'drawnChassis', 'baseOnScreen',
    'frameTiming', 'terrainGpu', 'terrainBytesFromWorker', 'cameraLag', 'panelTicks', 'manifoldScale', 'plotTime',
    'fault', 'status', 'plotFaultTime', 'plots', 'plotData', 'capture', 'toolbarFolded', 'view',
  ];
  for (const k of keys) Object.defineProperty(hook, k, { get: () => get()[k], enumerable: true });
  Object.freeze(hook);
  Object.defineProperty(window, '__terrawheel', { value: hook, writable: false, configurable: false });
}
