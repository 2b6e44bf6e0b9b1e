/**
 * View settings remembered across runs (what to show, how normals scale, the camera preset, the
 * plotted series, which panels are open). Stored as JSON in a Storage (window.localStorage:
 * the Host's settings carry only what electron/ipc-contract.ts names). Parsing keeps every valid
 * field and drops the rest, so a stale or hand-edited entry never breaks startup. Pure; tested
 * with an in-memory Storage.
 */

import { ANGLE_UNITS, DEFAULT_UNITS, FORCE_UNITS, LENGTH_UNITS, formatAxisValue, unitOf, type DisplayUnits } from './units';
import { CONTACT_FORCE_SCALE_DEFAULT, CONTACT_FORCE_SCALE_MAX, CONTACT_FORCE_SCALE_MIN } from '../config';

// ---- display settings: units, colours, world axes (issue #17 "everyday comforts") -------------
// Kept in one block (its own interface, defaults and parser) so other settings merge around it.

/** Contact-case colours: the original palette, or Okabe–Ito colours told apart with colour-blindness. */
export type ContactPalette = 'standard' | 'colorblind';
/**
 * Terrain: coloured by height (low green → high white), one plain colour (relief by shading), or
 * by slope (green level, yellow 15°, red 30° and steeper). The material map tints the first two.
 */
export type TerrainColors = 'height' | 'plain' | 'slope';

export const CONTACT_PALETTES: readonly ContactPalette[] = ['standard', 'colorblind'];
export const TERRAIN_COLOR_MODES: readonly TerrainColors[] = ['height', 'plain', 'slope'];

export interface DisplaySettings {
  /** x (red), y (green), z (blue) at the world origin. */
  showWorldAxes: boolean;
  /** Units of the inspector, entity panel, status bar and plot legends (renderer/app/units.ts). */
  units: DisplayUnits;
  contactPalette: ContactPalette;
  terrainColors: TerrainColors;
  /** Contour lines on the terrain (a round interval, about 15 over the map's height range). */
  terrainContours: boolean;
  /** 3D view background, "#rrggbb". */
  background: string;
}

export const DEFAULT_BACKGROUND = '#9fc4e8';

export const DEFAULT_DISPLAY_SETTINGS: DisplaySettings = {
  showWorldAxes: true,
  units: { ...DEFAULT_UNITS },
  contactPalette: 'standard',
  terrainColors: 'height',
  terrainContours: false,
  background: DEFAULT_BACKGROUND,
};

const oneOf = <T extends string>(v: unknown, allowed: readonly T[]): v is T => typeof v === 'string' && (allowed as readonly string[]).includes(v);

/** "#rrggbb" (six hex digits), the only colour form stored. */
export function isHexColor(v: unknown): v is string {
  return typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v);
}

/** Copies the valid display fields of `r` into `s` (each unit separately: one bad unit keeps the others). */
function parseDisplaySettings(s: DisplaySettings, r: Record<string, unknown>): void {
  if (typeof r.showWorldAxes === 'boolean') s.showWorldAxes = r.showWorldAxes;
  const u = r.units;
  if (u !== null && typeof u === 'object' && !Array.isArray(u)) {
    const o = u as Record<string, unknown>;
    if (oneOf(o.length, LENGTH_UNITS)) s.units.length = o.length;
    if (oneOf(o.angle, ANGLE_UNITS)) s.units.angle = o.angle;
    if (oneOf(o.force, FORCE_UNITS)) s.units.force = o.force;
  }
  if (oneOf(r.contactPalette, CONTACT_PALETTES)) s.contactPalette = r.contactPalette;
  if (oneOf(r.terrainColors, TERRAIN_COLOR_MODES)) s.terrainColors = r.terrainColors;
  if (typeof r.terrainContours === 'boolean') s.terrainContours = r.terrainContours;
  if (isHexColor(r.background)) s.background = r.background.toLowerCase();
}

// ---- panel sizes (issue #30: resizable panels, app/panel-resize.ts) ----------------------------

/** [px] Sizes the user dragged the panels to; absent: the stylesheet's default. */
export interface PanelSizes {
  sidebar?: number;
  plots?: number;
}

/** [px] Largest size kept (a corrupt entry is dropped, not applied). */
const PANEL_SIZE_MAX_PX = 8192;

function parsePanelSizes(v: unknown): PanelSizes {
  const out: PanelSizes = {};
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return out;
  const o = v as Record<string, unknown>;
  for (const k of ['sidebar', 'plots'] as const) {
    const x = o[k];
    if (typeof x === 'number' && Number.isFinite(x) && x > 0 && x <= PANEL_SIZE_MAX_PX) out[k] = Math.round(x);
  }
  return out;
}

// ---- view settings -----------------------------------------------------------------------------

export type NormalScale = 'depth' | 'force';
export type CameraPreset = 'chase' | 'orbit' | 'top' | 'wheel';

export const CAMERA_PRESETS: readonly CameraPreset[] = ['chase', 'orbit', 'top', 'wheel'];

export interface UiSettings extends DisplaySettings {
  showContacts: boolean;
  /** Contacts drawn through bodies and terrain. */
  xray: boolean;
  normalScale: NormalScale;
  /** [N/m] Force arrows' scale, newtons per metre of arrow, when normals scale by force and it is not automatic. */
  forceScale: number;
  /** Force arrows' scale chosen from the forces drawn (a round number, contact-style.ts AutoForceScale). */
  forceScaleAuto: boolean;
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
  /** Sidebar sections left closed; also 'sidebar' and 'plot-strip' when those areas are collapsed (layout-toggles.ts). */
  closedPanels: string[];
  /** Dragged panel sizes (app/panel-resize.ts). */
  panelSizes: PanelSizes;
}

export const DEFAULT_UI_SETTINGS: UiSettings = {
  ...DEFAULT_DISPLAY_SETTINGS,
  showContacts: true,
  xray: false,
  normalScale: 'depth',
  forceScale: CONTACT_FORCE_SCALE_DEFAULT,
  forceScaleAuto: true,
  showAabbs: false,
  showCellRange: false,
  showElements: true,
  showAxes: false,
  showCollision: false,
  camera: 'chase',
  plots: ['speed', 'contacts'],
  closedPanels: ['plots'],
  panelSizes: {},
};

export const UI_SETTINGS_KEY = 'terrawheel.ui.v1';

/** A force scale the settings keep: a finite number of N/m within the accepted range. */
export function isForceScale(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= CONTACT_FORCE_SCALE_MIN && v <= CONTACT_FORCE_SCALE_MAX;
}

/**
 * The force arrows' legend line ("force arrows: 1 m = 200 N (auto)") for a scale [N/m] in the
 * display's force unit; '' when normals scale by depth or contacts are hidden.
 */
export function forceLegend(s: Pick<UiSettings, 'showContacts' | 'normalScale' | 'forceScaleAuto' | 'units'>, newtonsPerMetre: number): string {
  if (!s.showContacts || s.normalScale !== 'force') return '';
  const f = unitOf(s.units, 'force');
  return `force arrows: 1 m = ${formatAxisValue(newtonsPerMetre * f.factor)} ${f.symbol}${s.forceScaleAuto ? ' (auto)' : ''}`;
}

/** Minimal Storage (window.localStorage fits). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const stringList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') && v.length <= 64 ? (v as string[]).slice() : undefined;

export function parseUiSettings(raw: unknown): UiSettings {
  const s: UiSettings = { ...DEFAULT_UI_SETTINGS, plots: [...DEFAULT_UI_SETTINGS.plots], closedPanels: [...DEFAULT_UI_SETTINGS.closedPanels], units: { ...DEFAULT_UI_SETTINGS.units } };
  if (raw === null || typeof raw !== 'object') return s;
  const r = raw as Record<string, unknown>;
  for (const k of ['showContacts', 'xray', 'showAabbs', 'showCellRange', 'showElements', 'showAxes', 'showCollision', 'forceScaleAuto'] as const) {
    if (typeof r[k] === 'boolean') s[k] = r[k] as boolean;
  }
  if (r.normalScale === 'depth' || r.normalScale === 'force') s.normalScale = r.normalScale;
  if (isForceScale(r.forceScale)) s.forceScale = r.forceScale;
  if (typeof r.camera === 'string' && (CAMERA_PRESETS as readonly string[]).includes(r.camera)) s.camera = r.camera as CameraPreset;
  s.plots = stringList(r.plots) ?? s.plots;
  s.closedPanels = stringList(r.closedPanels) ?? s.closedPanels;
  s.panelSizes = parsePanelSizes(r.panelSizes);
  parseDisplaySettings(s, r);
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

