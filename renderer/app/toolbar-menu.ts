/**
 * The toolbar folds into a menu when the window is narrow (issue #30: at 1400 px the scenario
 * name read "Ro…" and buttons were cut). The toolbar never wraps or clips: when its controls do
 * not fit, the least used ones move, in FOLD_ORDER, into a "☰" menu, until the rest (the scenario
 * menu, Reset, Pause, Step, Rec and the world's name) fit. The same elements move (not copies), so
 * their listeners, ids and test ids keep working; they go back to their places when the window
 * widens. Layout is measured only when the toolbar's size or content changes, never per frame.
 */
import { h } from './dom';

/**
 * Ids of the toolbar controls that may fold, first folded first: the rarely used file actions,
 * then view controls. Ids not in the document (a build without recording) are skipped.
 */
export const FOLD_ORDER: readonly string[] = [
  'btn-help',
  'btn-open-results',
  'btn-open-recording',
  'btn-open-terrain',
  'btn-open-scenario',
  'btn-open-robot',
  'btn-video',
  'btn-screenshot',
  'camera-menu',
  'chk-contacts',
];

/** [px] Width a measurement may exceed the box by before it counts as overflow (sub-pixel layout). */
const OVERFLOW_SLACK_PX = 1;

export class ToolbarMenu {
  /** The "☰" button, shown while something is folded. */
  readonly button: HTMLButtonElement;
  /** The folded controls' popup (fixed, under the button). */
  readonly menu: HTMLDivElement;
  /** Folded elements and the marker each returns before. */
  private readonly folded: { el: HTMLElement; marker: Comment }[] = [];
  private scheduled = false;

  constructor(private readonly toolbar: HTMLElement, private readonly name: HTMLElement) {
    this.button = h('button', '☰', 'toolbar-more', { id: 'btn-more', type: 'button', title: 'More controls (the window is too narrow for all of them)', 'data-testid': 'toolbar-more', 'aria-haspopup': 'true', 'aria-expanded': 'false' });
    this.button.hidden = true;
    toolbar.insertBefore(this.button, name);
    this.menu = h('div', '', 'toolbar-menu', { id: 'toolbar-menu', 'data-testid': 'toolbar-menu', role: 'menu' });
    this.menu.hidden = true;
    document.body.appendChild(this.menu);
    this.button.addEventListener('click', () => this.setOpen(this.menu.hidden));
    // a control used from the menu closes it (a select after its choice)
    this.menu.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('button')) this.setOpen(false);
    });
    this.menu.addEventListener('change', () => this.setOpen(false));
    window.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !this.menu.hidden) this.setOpen(false);
    });
    window.addEventListener('pointerdown', (e) => {
      const t = e.target as Node;
      if (!this.menu.hidden && !this.menu.contains(t) && !this.button.contains(t)) this.setOpen(false);
    });
    new ResizeObserver(() => this.schedule()).observe(toolbar);
    // the world's name changes on a load; a control is shown or hidden (Replay)
    new MutationObserver(() => this.schedule()).observe(name, { childList: true, characterData: true, subtree: true });
    new MutationObserver((records) => {
      if (records.some((r) => r.target !== this.button)) this.schedule();
    }).observe(toolbar, { attributes: true, attributeFilter: ['hidden'], subtree: true });
    this.fit();
  }

  /** Ids of the controls in the menu now (the test hook and tests read it). */
  get foldedIds(): string[] {
    return this.folded.map((f) => f.el.id || f.el.querySelector('[id]')?.id || '');
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.fit();
    });
  }

  private overflowing(): boolean {
    return this.toolbar.scrollWidth > this.toolbar.clientWidth + OVERFLOW_SLACK_PX || this.name.scrollWidth > this.name.clientWidth + OVERFLOW_SLACK_PX;
  }

  /** Puts every control back, then folds in FOLD_ORDER until the toolbar fits. */
  fit(): void {
    while (this.folded.length > 0) {
      const { el, marker } = this.folded.pop()!;
      marker.replaceWith(el);
    }
    this.button.hidden = true;
    if (!this.overflowing()) {
      this.setOpen(false);
      return;
    }
    this.button.hidden = false;
    for (const id of FOLD_ORDER) {
      if (!this.overflowing()) break;
      const found = document.getElementById(id);
      // a checkbox folds with its label
      const el = found && found.tagName === 'INPUT' ? (found.closest('label') as HTMLElement | null) ?? found : found;
      if (!el || !this.toolbar.contains(el)) continue;
      const marker = document.createComment(`folded ${id}`);
      el.replaceWith(marker);
      this.folded.push({ el, marker });
    }
    // in the menu in toolbar order
    const inOrder = [...this.folded].sort((a, b) => (a.marker.compareDocumentPosition(b.marker) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    this.menu.replaceChildren(...inOrder.map((f) => f.el));
    if (!this.menu.hidden) this.place();
  }

  private setOpen(open: boolean): void {
    this.menu.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) this.place();
  }

  private place(): void {
    const r = this.button.getBoundingClientRect();
    this.menu.style.top = `${Math.round(r.bottom + 2)}px`;
    this.menu.style.right = `${Math.max(4, Math.round(window.innerWidth - r.right))}px`;
  }
}
