/**
 * The settings panel (what the 3D view shows, how normals scale, the camera preset) and the plot
 * series chooser, both bound to UiSettings and saved on every change; the sidebar's sections
 * remember whether they are open.
 */
import type { SeriesDef } from '../panels/plot-series';
import { h } from './dom';
import { CAMERA_PRESETS, type CameraPreset, type KeyValueStore, type UiSettings, saveUiSettings } from './ui-settings';

const CAMERA_LABELS: Record<CameraPreset, string> = { chase: 'chase', orbit: 'orbit', top: 'top-down', wheel: 'follow wheel' };

export class SettingsPanel {
  constructor(
    private readonly root: HTMLElement,
    private readonly seriesRoot: HTMLElement,
    readonly settings: UiSettings,
    private readonly store: KeyValueStore | null,
    private readonly changed: (s: UiSettings) => void,
  ) {
    const check = (key: 'showContacts' | 'xray' | 'showAabbs' | 'showCellRange' | 'showElements' | 'showAxes' | 'showCollision', label: string, title: string): HTMLElement => {
      const input = h('input', '', '', { type: 'checkbox', id: `set-${key}` });
      input.checked = settings[key];
      input.addEventListener('change', () => {
        settings[key] = input.checked;
        this.commit();
      });
      input.addEventListener('click', () => input.blur());
      const l = h('label', '', '', { title });
      l.append(input, ` ${label}`);
      return l;
    };
    const normal = h('select', '', '', { id: 'set-normalScale' });
    for (const m of ['depth', 'force'] as const) normal.appendChild(h('option', `normals by ${m}`, '', { value: m }));
    normal.value = settings.normalScale;
    normal.addEventListener('change', () => {
      settings.normalScale = normal.value === 'force' ? 'force' : 'depth';
      this.commit();
    });
    root.replaceChildren(
      check('showContacts', 'contacts (C)', 'contact points and normals'),
      check('xray', 'x-ray contacts', 'draw contacts through bodies and terrain'),
      check('showElements', 'element outlines', 'outline the terrain elements under contacts (rectangle or the two V1–V2 triangles)'),
      check('showAabbs', 'AABBs', 'axis-aligned bounding boxes of the bodies'),
      check('showCellRange', 'wheel cell ranges', 'the terrain cells each wheel\'s query considers (its AABB over the grid)'),
      check('showAxes', 'axes', 'x (red), y (green), z (blue) at the robot base'),
      check('showCollision', 'collision shapes', 'draw the collision shapes over a URDF robot\'s visuals'),
      normal,
    );
  }

  /** Applies a change made elsewhere (a key) to the controls and saves it. */
  set<K extends keyof UiSettings>(key: K, value: UiSettings[K]): void {
    this.settings[key] = value;
    const input = this.root.querySelector<HTMLInputElement>(`#set-${String(key)}`);
    if (input && typeof value === 'boolean') input.checked = value;
    this.commit();
  }

  commit(): void {
    saveUiSettings(this.store, this.settings);
    this.changed(this.settings);
  }

  /** The series a world offers, as checkboxes (checked: the remembered choice). */
  setSeries(defs: readonly SeriesDef[]): void {
    const boxes = defs.map((d) => {
      const input = h('input', '', '', { type: 'checkbox', 'data-series': d.key });
      input.checked = this.settings.plots.includes(d.key);
      input.addEventListener('change', () => {
        const keys = new Set(this.settings.plots);
        if (input.checked) keys.add(d.key);
        else keys.delete(d.key);
        // keep the world's menu order
        this.settings.plots = defs.map((x) => x.key).filter((k) => keys.has(k)).concat([...keys].filter((k) => !defs.some((x) => x.key === k)));
        this.commit();
      });
      input.addEventListener('click', () => input.blur());
      const l = h('label', '', 'series');
      l.append(input, ` ${d.label}${d.unit ? ` [${d.unit}]` : ''}`);
      return l;
    });
    this.seriesRoot.replaceChildren(...boxes);
  }
}

/** Camera preset buttons' labels. */
export function cameraOptions(): [CameraPreset, string][] {
  return CAMERA_PRESETS.map((p) => [p, CAMERA_LABELS[p]]);
}

/** Binds <details data-panel=…> sections to settings.closedPanels. */
export function bindPanels(root: ParentNode, s: UiSettings, save: () => void): void {
  for (const d of root.querySelectorAll<HTMLDetailsElement>('details[data-panel]')) {
    const name = d.dataset.panel!;
    d.open = !s.closedPanels.includes(name);
    d.addEventListener('toggle', () => {
      const closed = new Set(s.closedPanels);
      if (d.open) closed.delete(name);
      else closed.add(name);
      s.closedPanels = [...closed];
      save();
    });
  }
}
