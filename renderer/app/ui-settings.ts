/**
 * View settings remembered across runs (what to show, how normals scale, the camera preset, the
 * plotted series, which panels are open). Stored as JSON in a Storage (window.localStorage:
 * the Host's settings carry only what electron/ipc-contract.ts names). Parsing keeps every valid
 * field and drops the rest, so a stale or hand-edited entry never breaks startup. Pure; tested
 * with an in-memory Storage.
 */

export type NormalScale = 'depth' | 'force';
export type CameraPreset = 'chase' | 'orbit' | 'top' | 'wheel';

export const CAMERA_PRESETS: readonly CameraPreset[] = ['chase', 'orbit', 'top', 'wheel'];

export interface UiSettings {
  showContacts: boolean;
  /** Contacts drawn through bodies and terrain. */
  xray: boolean;
  normalScale: NormalScale;
  showAabbs: boolean;
  /** Each wheel's terrain cell range (the cells its query considers). */
  showCellRange: boolean;
  /** Outlines of the terrain elements under contacts. */
  showElements: boolean;
  showAxes: boolean;
  /** Collision shapes drawn over a URDF robot's visuals. */
  showCollision: boolean;
  camera: CameraPreset;
  /** Plot series keys (renderer/panels/plot-series.ts). */
  plots: string[];
  /** Sidebar sections left closed. */
  closedPanels: string[];
}

export const DEFAULT_UI_SETTINGS: UiSettings = {
  showContacts: true,
  xray: false,
  normalScale: 'depth',
  showAabbs: false,
  showCellRange: false,
  showElements: true,
  showAxes: false,
  showCollision: false,
  camera: 'chase',
  plots: ['speed', 'contacts'],
  closedPanels: ['plots'],
};

export const UI_SETTINGS_KEY = 'terrawheel.ui.v1';

/** Minimal Storage (window.localStorage fits). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const stringList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length <= 64 ? (v as string[]).slice() : undefined;

export function parseUiSettings(raw: unknown): UiSettings {
  const s: UiSettings = { ...DEFAULT_UI_SETTINGS, plots: [...DEFAULT_UI_SETTINGS.plots], closedPanels: [...DEFAULT_UI_SETTINGS.closedPanels] };
  if (raw === null || typeof raw !== 'object') return s;
  const r = raw as Record<string, unknown>;
  for (const k of ['showContacts', 'xray', 'showAabbs', 'showCellRange', 'showElements', 'showAxes', 'showCollision'] as const) {
    if (typeof r[k] === 'boolean') s[k] = r[k] as boolean;
  }
  if (r.normalScale === 'depth' || r.normalScale === 'force') s.normalScale = r.normalScale;
  if (typeof r.camera === 'string' && (CAMERA_PRESETS as readonly string[]).includes(r.camera)) s.camera = r.camera as CameraPreset;
  s.plots = stringList(r.plots) ?? s.plots;
  s.closedPanels = stringList(r.closedPanels) ?? s.closedPanels;
  return s;
}

export function loadUiSettings(store: KeyValueStore | null): UiSettings {
  if (!store) return parseUiSettings(null);
  try {
    const raw = store.getItem(UI_SETTINGS_KEY);
    return parseUiSettings(raw === null ? null : JSON.parse(raw));
  } catch {
    return parseUiSettings(null);
  }
}

export function saveUiSettings(store: KeyValueStore | null, s: UiSettings): void {
  try {
    store?.setItem(UI_SETTINGS_KEY, JSON.stringify(s));
  } catch {
    // storage full or disabled: settings last for this run only
  }
}
