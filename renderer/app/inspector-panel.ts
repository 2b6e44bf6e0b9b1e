/**
 * The contact inspector: the frame's contacts grouped by manifold (one row per contact patch:
 * body pair, cases, cells, deepest point, total normal force; a row expands into its contacts),
 * and every field of the selected contact (contact-detail.ts). Clicking a row selects its
 * contact. Rebuilt only when the frame, the selection or the expansion changes.
 */
import { contactKindName } from '../../sim/dynamics/plain-world';
import { CONTACT_STRIDE } from '../../sim/dynamics/frame-layout';
import type { WorldInfo } from '../../sim/app/protocol';
import { contactDetail, type ContactFrame } from '../inspect/contact-detail';
import { detailFields } from '../inspect/contact-fields';
import { contactJsonText } from '../inspect/contact-json';
import { groupManifolds } from '../inspect/manifolds';
import type { TerrainHeights } from '../inspect/terrain-heights';
import type { Selection } from '../inspect/selection';
import { h } from './dom';
import { DEFAULT_UNITS, formatNumber, labelWithUnit, NO_VALUE, type DisplayUnits } from './units';

/** Manifold rows listed at most (the rest are counted in the caption). */
export const INSPECTOR_MAX_MANIFOLDS = 40;
/** [m] Depth resolution in the manifold rows (10 µm). */
const ROW_DEPTH_RESOLUTION = 1e-5;
/** [N] Force resolution in the manifold rows. */
const ROW_FORCE_RESOLUTION = 0.1;

export class InspectorPanel {
  private readonly expanded = new Set<string>();
  private key = '';
  /** The contact whose detail was last scrolled into view (scrolled again only when it changes). */
  private shownDetail = -2;
  private units: DisplayUnits = { ...DEFAULT_UNITS };
  /** Exact terrain heights for the terrain element (set per world; null: no element shown). */
  terrain: (TerrainHeights & { version?: number }) | null = null;

  /**
   * `copy`: hands the selected contact's JSON (inspect/contact-json.ts) to the clipboard; the
   * detail shows a "Copy JSON" button when given.
   */
  constructor(private readonly root: HTMLElement, private readonly select: (sel: { contact: number }) => void, private readonly copy?: (json: string) => void) {}

  get visible(): boolean {
    return !this.root.hidden && !(this.root.closest('details') && !(this.root.closest('details') as HTMLDetailsElement).open);
  }

  /** Display units; the next update redraws. */
  setUnits(u: DisplayUnits): void {
    this.units = { ...u };
    this.key = '';
  }

  /** Redraws from the frame on screen (cheap when nothing changed). */
  update(f: ContactFrame | null, w: WorldInfo | null, sel: Selection, force = false): void {
    if (!f || !w) {
      if (this.key !== 'empty') this.root.textContent = 'no contacts yet';
      this.key = 'empty';
      return;
    }
    const selIndex = sel.type === 'contact' ? sel.index : -2;
    const key = `${f.step}|${f.contacts.length}|${selIndex}|${[...this.expanded].join(',')}|${sel.type}|${this.terrain?.version ?? 0}`;
    if (key === this.key && !force) return;
    this.key = key;
    const name = (b: number): string => (b < 0 ? 'terrain' : (w.bodies[b]?.name ?? `#${b}`));
    const groups = groupManifolds(f.contacts, f.contactInfo);
    const n = Math.floor(f.contacts.length / CONTACT_STRIDE);
    const caption = h('div', `step ${f.step}, t ${f.time.toFixed(3)} s: ${n} contacts in ${groups.length} manifolds` + (groups.length > INSPECTOR_MAX_MANIFOLDS ? ` (${groups.length - INSPECTOR_MAX_MANIFOLDS} more not listed)` : ''), 'caption');
    const table = h('table', '', 'manifolds');
    const head = table.insertRow();
    const u = this.units;
    for (const t of ['body', 'on', 'case', 'n', 'cells', labelWithUnit('depth', u, 'length'), labelWithUnit('force', u, 'force'), '']) head.appendChild(h('th', t));
    const inv = w.dt > 0 ? 1 / w.dt : 0;
    groups.slice(0, INSPECTOR_MAX_MANIFOLDS).forEach((g) => {
      const gkey = `${g.bodyA}|${g.bodyB}|${g.contacts[0]}`;
      const open = this.expanded.has(gkey);
      const tr = table.insertRow();
      tr.className = 'manifold';
      if (sel.type === 'contact' && g.contacts.includes(sel.index)) tr.classList.add('selected');
      if (sel.type === 'body' && (g.bodyA === sel.body || g.bodyB === sel.body)) tr.classList.add('selected');
      const cells = [name(g.bodyA), name(g.bodyB), g.kinds.map(contactKindName).join('+'), String(g.contacts.length), g.cells.length === 0 ? NO_VALUE : g.cells[0] + (g.cells.length > 1 ? ` +${g.cells.length - 1}` : ''), formatNumber(u, 'length', g.maxDepth, ROW_DEPTH_RESOLUTION), formatNumber(u, 'force', g.normalImpulse * inv, ROW_FORCE_RESOLUTION)];
      cells.forEach((c, k) => {
        const td = tr.insertCell();
        td.textContent = c;
        if (k < 3) td.title = c; // names and cases may be cut with an ellipsis
      });
      const btn = h('button', open ? '▾' : '▸', 'expand', { type: 'button', title: 'show the contacts of this manifold' });
      btn.addEventListener('click', (e) => {
        e.stopPropagation();
        if (open) this.expanded.delete(gkey);
        else this.expanded.add(gkey);
        this.key = '';
      });
      tr.insertCell().appendChild(btn);
      tr.addEventListener('click', () => this.select({ contact: g.contacts[0] }));
      if (!open) return;
      for (const k of g.contacts) {
        const d = contactDetail(f, k, w.dt, this.terrain);
        if (!d) continue;
        const r = table.insertRow();
        r.className = 'contact-row';
        if (k === selIndex) r.classList.add('selected');
        for (const c of [`  #${k}`, '', d.kindName, '1', d.cellI >= 0 ? `${d.cellI},${d.cellJ}` : NO_VALUE, formatNumber(u, 'length', d.depth, ROW_DEPTH_RESOLUTION), formatNumber(u, 'force', d.normalForce, ROW_FORCE_RESOLUTION), '']) r.insertCell().textContent = c;
        r.addEventListener('click', () => this.select({ contact: k }));
      }
    });
    // the selected contact's detail comes first, above the table: never below the fold (#30)
    const parts: HTMLElement[] = [caption];
    if (sel.type === 'contact') {
      const d = contactDetail(f, sel.index, w.dt, this.terrain);
      const box = h('div', '', 'detail', { 'data-testid': 'contact-detail' });
      if (!d) box.textContent = 'the selected contact is gone (no contact of that body pair near it in this step)';
      else {
        const bar = h('div', '', 'detail-bar');
        bar.appendChild(h('span', 'selected contact', 'detail-title'));
        if (this.copy) {
          const copy = this.copy;
          const json = contactJsonText(d, w, f.time);
          const btn = h('button', 'Copy JSON', '', { type: 'button', title: 'Copy this contact\'s data (SI units) to the clipboard as JSON', 'data-testid': 'copy-contact-json' });
          btn.addEventListener('click', (e) => {
            e.stopPropagation();
            copy(json);
          });
          bar.appendChild(btn);
        }
        box.appendChild(bar);
        const dt = h('table');
        for (const [fieldKey, label, text, raw] of detailFields(d, w, u)) {
          const r = dt.insertRow();
          r.insertCell().textContent = label;
          const c = r.insertCell();
          c.textContent = text;
          c.dataset.field = fieldKey;
          if (raw) c.dataset.raw = raw.join(' ');
        }
        box.appendChild(dt);
      }
      parts.push(box);
    }
    parts.push(table);
    this.root.replaceChildren(...parts);
    // a newly selected contact's detail is brought into the sidebar's view (once: the user may scroll away)
    const detail = sel.type === 'contact' ? this.root.querySelector<HTMLElement>('.detail') : null;
    if (detail && selIndex !== this.shownDetail && this.visible) bringIntoView(this.root, detail);
    this.shownDetail = selIndex;
  }
}

/**
 * Scrolls the inspector to its top (the detail sits under the caption) and its scrolling parent
 * (the sidebar) so that `detail` is in view, as far as it fits. Only these two: scrollIntoView
 * would also scroll the page's overflow-hidden body.
 */
function bringIntoView(root: HTMLElement, detail: HTMLElement): void {
  root.scrollTop = 0;
  const outer = root.parentElement?.closest<HTMLElement>('#sidebar');
  if (!outer) return;
  const r = detail.getBoundingClientRect(), c = outer.getBoundingClientRect();
  if (r.bottom > c.bottom) outer.scrollTop += Math.min(r.bottom - c.bottom, r.top - c.top);
  else if (r.top < c.top) outer.scrollTop -= c.top - r.top;
}
