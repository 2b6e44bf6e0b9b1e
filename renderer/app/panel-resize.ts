/**
 * Resizable panels (issue #30): a drag handle on the sidebar's left edge sets its width, one on
 * the plot strip's top edge sets its height. Arrow keys move a focused handle by KEY_STEP_PX,
 * a double click puts the default back. The sizes are kept in settings.panelSizes and saved like
 * the rest of the layout (closed sections, chosen plots), so they are remembered across runs. A
 * size is clamped to the window on every resize, so a size saved on a big screen never pushes the
 * 3D view or the toolbar off a small one.
 */
import { h } from './dom';
import type { PanelSizes, UiSettings } from './ui-settings';

/** [px] Narrowest sidebar: the contact table's columns (body, on, case, n, cells, depth, force) fit. */
export const SIDEBAR_MIN_PX = 300;
/** [px] Lowest plot strip: one pane with its axis and legend. */
export const PLOTS_MIN_PX = 120;
/** [px] Space always left to the 3D view beside the sidebar, and above the plot strip. */
export const VIEW_MIN_WIDTH_PX = 420;
export const VIEW_MIN_HEIGHT_PX = 260;
/** [px] One arrow key press on a focused handle. */
export const KEY_STEP_PX = 16;

/** The width or height to use for `size` in a window of `available` px: null = the CSS default. */
export function clampSize(size: number | undefined, min: number, available: number, keep: number): number | null {
  if (size === undefined || !Number.isFinite(size)) return null;
  return Math.round(Math.max(min, Math.min(size, available - keep)));
}

type Axis = 'sidebar' | 'plots';

/** Binds the two handles; `save` persists settings. Returns `apply` (re-clamps to the window). */
export function bindPanelResize(doc: Document, s: UiSettings, save: () => void): () => void {
  const sidebar = doc.getElementById('sidebar') as HTMLElement;
  const plots = doc.getElementById('panel-wrap') as HTMLElement;
  const sideHandle = h('div', '', 'resize-handle resize-x', { id: 'resize-sidebar', 'data-testid': 'resize-sidebar', role: 'separator', 'aria-orientation': 'vertical', 'aria-label': 'Sidebar width (drag, arrow keys; double-click: default)', tabindex: '0', title: 'Drag to resize the sidebar; double-click for the default width' });
  const plotHandle = h('div', '', 'resize-handle resize-y', { id: 'resize-plots', 'data-testid': 'resize-plots', role: 'separator', 'aria-orientation': 'horizontal', 'aria-label': 'Plot strip height (drag, arrow keys; double-click: default)', tabindex: '0', title: 'Drag to resize the plots; double-click for the default height' });
  sidebar.before(sideHandle);
  (doc.getElementById('toggle-plots') ?? plots).before(plotHandle);

  const apply = (): void => {
    const w = clampSize(s.panelSizes.sidebar, SIDEBAR_MIN_PX, window.innerWidth, VIEW_MIN_WIDTH_PX);
    sidebar.style.width = w === null ? '' : `${w}px`;
    const hgt = clampSize(s.panelSizes.plots, PLOTS_MIN_PX, window.innerHeight, VIEW_MIN_HEIGHT_PX);
    plots.style.height = hgt === null ? '' : `${hgt}px`;
  };
  const set = (axis: Axis, px: number | undefined): void => {
    const next: PanelSizes = { ...s.panelSizes };
    if (px === undefined) delete next[axis];
    else next[axis] = Math.round(px);
    s.panelSizes = next;
    apply();
  };
  const current = (axis: Axis): number => (axis === 'sidebar' ? sidebar.getBoundingClientRect().width : plots.getBoundingClientRect().height);

  const bind = (handle: HTMLElement, axis: Axis): void => {
    // the sidebar grows as the pointer moves left, the plot strip as it moves up
    const sign = -1;
    let start: { at: number; size: number } | null = null;
    handle.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      handle.setPointerCapture(e.pointerId);
      start = { at: axis === 'sidebar' ? e.clientX : e.clientY, size: current(axis) };
      handle.classList.add('dragging');
    });
    handle.addEventListener('pointermove', (e) => {
      if (!start) return;
      const at = axis === 'sidebar' ? e.clientX : e.clientY;
      set(axis, start.size + sign * (at - start.at));
    });
    const end = (): void => {
      if (!start) return;
      start = null;
      handle.classList.remove('dragging');
      save();
    };
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
    handle.addEventListener('dblclick', () => {
      set(axis, undefined);
      save();
    });
    handle.addEventListener('keydown', (e) => {
      const grow: Record<string, number> = axis === 'sidebar' ? { ArrowLeft: 1, ArrowRight: -1 } : { ArrowUp: 1, ArrowDown: -1 };
      const d = grow[e.key];
      if (d === undefined) return;
      e.preventDefault();
      e.stopPropagation(); // not a drive command
      set(axis, current(axis) + d * KEY_STEP_PX);
      save();
    });
  };
  bind(sideHandle, 'sidebar');
  bind(plotHandle, 'plots');
  window.addEventListener('resize', apply);
  apply();
  return apply;
}
