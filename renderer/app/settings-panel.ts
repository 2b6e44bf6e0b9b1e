/**
 * The settings panel (what the 3D view shows, how normals scale, the camera preset; world axes,
 * display units and colours) and the plot series chooser, both bound to UiSettings and saved on
 * every change; the sidebar's sections remember whether they are open.
 */
import type { SeriesDef } from '../panels/plot-series';
import { h } from './dom';
import { CONTACT_FORCE_SCALE_MAX, CONTACT_FORCE_SCALE_MIN } from '../config';
import { CAMERA_PRESETS, DEFAULT_BACKGROUND, isForceScale, isHexColor, type CameraPreset, type ContactPalette, type KeyValueStore, type TerrainColors, type UiSettings, saveUiSettings } from './ui-settings';
import { ANGLE_UNITS, FORCE_UNITS, LENGTH_UNITS, unitSymbol, type DisplayUnits } from './units';

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
    // the force arrows' scale: newtons per metre of arrow, typed, or automatic (a round number
    // fitted to the forces drawn); the legend over the 3D view says which is in use
    const scale = h('input', '', '', { type: 'number', id: 'set-forceScale', min: String(CONTACT_FORCE_SCALE_MIN), max: String(CONTACT_FORCE_SCALE_MAX), step: 'any', title: 'force arrows: newtons per metre of arrow (typing a value turns auto off)' });
    scale.value = String(settings.forceScale);
    scale.disabled = settings.forceScaleAuto;
    scale.addEventListener('change', () => {
      const v = Number(scale.value);
      if (!isForceScale(v)) {
        scale.value = String(settings.forceScale); // refused: the last good value stays
        return;
      }
      settings.forceScale = v;
      this.commit();
    });
    const auto = h('input', '', '', { type: 'checkbox', id: 'set-forceScaleAuto' });
    auto.checked = settings.forceScaleAuto;
    auto.addEventListener('change', () => {
      settings.forceScaleAuto = auto.checked;
      scale.disabled = auto.checked;
      this.commit();
    });
    auto.addEventListener('click', () => auto.blur());
    const autoLabel = h('label', '', '', { title: 'a round scale fitted to the largest force drawn' });
    autoLabel.append(auto, ' auto');
    const scaleRow = h('div', '', 'force-scale-row', { 'data-testid': 'force-scale' });
    scaleRow.append('force arrows ', scale, ' N per m ', autoLabel);
    root.replaceChildren(
      check('showContacts', 'contacts (C)', 'contact points and normals'),
      check('xray', 'x-ray contacts', 'draw contacts through bodies and terrain'),
      check('showElements', 'element outlines', 'outline the terrain elements under contacts (rectangle or the two V1–V2 triangles)'),
      check('showAabbs', 'AABBs', 'axis-aligned bounding boxes of the bodies'),
      check('showCellRange', 'wheel cell ranges', 'the terrain cells each wheel\'s query considers (its AABB over the grid)'),
      check('showAxes', 'axes', 'x (red), y (green), z (blue) at the robot base'),
      check('showCollision', 'collision shapes', 'draw the collision shapes over a URDF robot\'s visuals'),
      normal,
      scaleRow,
    );
    root.appendChild(this.displayControls());
  }

  // ---- display settings: world axes, units, colours (ui-settings.ts DisplaySettings) ----------

  private displayControls(): HTMLElement {
    const s = this.settings;
    const box = h('div', '', 'display-settings', { 'data-testid': 'display-settings' });
    const axes = h('input', '', '', { type: 'checkbox', id: 'set-showWorldAxes' });
    axes.checked = s.showWorldAxes;
    axes.addEventListener('change', () => {
      s.showWorldAxes = axes.checked;
      this.commit();
    });
    axes.addEventListener('click', () => axes.blur());
    const axesLabel = h('label', '', '', { title: 'x (red), y (green), z (blue) at the world origin, 1 m long' });
    axesLabel.append(axes, ' world axes');

    const select = <T extends string>(id: string, title: string, options: readonly (readonly [T, string])[], value: T, set: (v: T) => void): HTMLSelectElement => {
      const sel = h('select', '', '', { id, title });
      for (const [v, label] of options) sel.appendChild(h('option', label, '', { value: v }));
      sel.value = value;
      sel.addEventListener('change', () => {
        const v = options.find(([x]) => x === sel.value);
        if (v) set(v[0]);
        this.commit();
        sel.blur();
      });
      return sel;
    };
    const unit = <K extends keyof DisplayUnits>(key: K, all: readonly DisplayUnits[K][], names: Record<string, string>, title: string): HTMLSelectElement =>
      select(`set-units-${key}`, title, all.map((u) => [u, names[u] ?? u] as const), s.units[key], (v) => {
        s.units[key] = v;
      });
    const units = h('div', '', 'units-row');
    units.append(
      'units ',
      unit('length', LENGTH_UNITS, {}, 'length unit of positions and depths'),
      unit('angle', ANGLE_UNITS, { deg: '°', rad: 'rad' }, 'angle unit of attitudes and joint angles'),
      unit('force', FORCE_UNITS, {}, 'force unit of contact and joint forces'),
    );
    const palette = select<ContactPalette>('set-contactPalette', 'colours of the contact cases', [['standard', 'case colours: standard'], ['colorblind', 'case colours: colour-blind safe']], s.contactPalette, (v) => {
      s.contactPalette = v;
    });
    const terrain = select<TerrainColors>(
      'set-terrainColors', 'terrain colour map (the scenario\'s materials tint height and plain)',
      [['height', 'terrain: height colours'], ['plain', 'terrain: plain'], ['slope', 'terrain: slope (15° yellow, 30° red)']], s.terrainColors, (v) => {
        s.terrainColors = v;
      },
    );
    const contours = h('input', '', '', { type: 'checkbox', id: 'set-terrainContours' });
    contours.checked = s.terrainContours;
    contours.addEventListener('change', () => {
      s.terrainContours = contours.checked;
      this.commit();
    });
    contours.addEventListener('click', () => contours.blur());
    const contoursLabel = h('label', '', '', { title: 'contour lines, a round interval (about 15 over the map\'s height range)' });
    contoursLabel.append(contours, ' contour lines');
    const bg = h('input', '', '', { type: 'color', id: 'set-background', title: '3D view background' });
    bg.value = s.background;
    bg.addEventListener('input', () => {
      if (!isHexColor(bg.value)) return;
      s.background = bg.value.toLowerCase();
      this.commit();
    });
    const bgReset = h('button', 'reset', '', { type: 'button', id: 'set-background-reset', title: 'default background' });
    bgReset.addEventListener('click', () => {
      bg.value = DEFAULT_BACKGROUND;
      s.background = DEFAULT_BACKGROUND;
      this.commit();
      bgReset.blur();
    });
    const bgLabel = h('label', '', '', { title: '3D view background' });
    bgLabel.append('background ', bg, ' ', bgReset);
    box.append(axesLabel, units, palette, terrain, contoursLabel, bgLabel);
    return box;
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

  /** The series a world offers, as checkboxes (checked: the remembered choice), units as set. */
  setSeries(defs: readonly SeriesDef[]): void {
    // grouped by entity (robot, each wheel, body, joint, contact pair); the robot's and wheels' groups and any with a chosen series start open
    const groups = new Map<string, HTMLLabelElement[]>();
    for (const d of defs) {
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
      const unit = unitSymbol(this.settings.units, d.quantity);
      l.append(input, ` ${d.label}${unit ? ` [${unit}]` : ''}`);
      const list = groups.get(d.group) ?? [];
      list.push(l);
      groups.set(d.group, list);
    }
    const sections = [...groups].map(([name, labels]) => {
      // a heading that folds its list (not <details>: the Plots section itself is one)
      const open = name === 'robot' || name.startsWith('wheel ') || labels.some((l) => (l.firstChild as HTMLInputElement).checked);
      const list = h('div', '', 'series-list');
      list.append(...labels);
      list.hidden = !open;
      const title = h('button', `${open ? '▾' : '▸'} ${name}`, 'series-group-title', { type: 'button', 'data-series-group': name });
      title.addEventListener('click', () => {
        list.hidden = !list.hidden;
        title.textContent = `${list.hidden ? '▸' : '▾'} ${name}`;
        title.blur();
      });
      const sec = h('div', '', 'series-group');
      sec.append(title, list);
      return sec;
    });
    this.seriesRoot.replaceChildren(...sections);
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
    // Observed as an attribute change, not through the 'toggle' event: the observer runs as a
    // microtask right after the click, while 'toggle' is a later task that a reload or a closing
    // window can overtake (the choice was then lost).
    new MutationObserver(() => {
      const closed = new Set(s.closedPanels);
      if (d.open) closed.delete(name);
      else closed.add(name);
      s.closedPanels = [...closed];
      save();
    }).observe(d, { attributes: true, attributeFilter: ['open'] });
  }
}
