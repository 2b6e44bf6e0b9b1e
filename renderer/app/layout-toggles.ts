/**
 * Collapse toggles for whole layout areas (issue #17, "a layout that resizes"): the sidebar and the
 * plot strip under the 3D view. Each is a <button data-collapse="name" aria-controls="id"> that
 * stays visible while its area is hidden; the 3D view takes the space (flex layout; the three.js
 * renderer and the pixi panels follow their canvases' CSS size each frame / panel tick). The
 * collapsed areas are kept in settings.closedPanels next to the sidebar sections, so they are
 * remembered across runs the same way.
 */
import type { UiSettings } from './ui-settings';

/** Arrow labels per button: [expanded, collapsed]. */
const LABELS: Record<string, [string, string]> = {
  sidebar: ['▸', '◂ sidebar'],
  'plot-strip': ['▾ plots', '▴ plots'],
};

/** Shows or hides the area a toggle controls and updates its aria-expanded, label and title. */
export function setCollapsed(button: HTMLButtonElement, collapsed: boolean): void {
  const target = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (target) target.hidden = collapsed;
  const name = button.dataset.collapse ?? '';
  button.setAttribute('aria-expanded', String(!collapsed));
  const [open, closed] = LABELS[name] ?? ['−', '+'];
  button.textContent = collapsed ? closed : open;
  const what = name === 'sidebar' ? 'the sidebar' : 'the plots';
  button.title = collapsed ? `Show ${what}` : `Hide ${what} (the 3D view takes the space)`;
}

/** Binds every button[data-collapse] under `root` to settings.closedPanels. */
export function bindLayoutToggles(root: ParentNode, s: UiSettings, save: () => void): void {
  for (const b of root.querySelectorAll<HTMLButtonElement>('button[data-collapse]')) {
    const name = b.dataset.collapse!;
    setCollapsed(b, s.closedPanels.includes(name));
    b.addEventListener('click', () => {
      const collapsed = b.getAttribute('aria-expanded') === 'true';
      setCollapsed(b, collapsed);
      const closed = new Set(s.closedPanels);
      if (collapsed) closed.add(name);
      else closed.delete(name);
      s.closedPanels = [...closed];
      save();
    });
  }
}
