/**
 * The contact inspector: the frame's contacts grouped by manifold (one row per contact patch:
 * body pair, cases, cells, deepest point, total normal force; a row expands into its contacts),
 * and every field of the selected contact (contact-detail.ts). Clicking a row selects its
 * contact. Rebuilt only when the frame, the selection or the expansion changes.
 */
import { contactKindName } from '../../sim/dynamics/plain-world';
import { CONTACT_STRIDE } from '../../sim/dynamics/spec';
import type { WorldInfo } from '../../sim/protocol';
import { contactDetail, type ContactDetail, type ContactFrame } from '../inspect/contact-detail';
import { groupManifolds } from '../inspect/manifolds';
import type { TerrainHeights } from '../inspect/terrain-heights';
import type { Selection } from '../inspect/selection';
import { h } from './dom';

/** Manifold rows listed at most (the rest are counted in the caption). */
export const INSPECTOR_MAX_MANIFOLDS = 40;

const v3 = (v: readonly number[], d = 3): string => `${v[0].toFixed(d)} ${v[1].toFixed(d)} ${v[2].toFixed(d)}`;

/**
 * The selected contact's fields as [key, label, text, raw numbers], in display order. The key and
 * the raw numbers are written as data-field / data-raw, so tests compare exact values.
 */
export function detailFields(d: ContactDetail, w: WorldInfo): [string, string, string, number[]?][] {
  const name = (b: number): string => (b < 0 ? 'terrain' : (w.bodies[b]?.name ?? `#${b}`));
  const f: [string, string, string, number[]?][] = [
    ['index', 'contact', `#${d.index} of step ${d.step}`],
    ['bodies', 'bodies', `${name(d.bodyA)} on ${name(d.bodyB)}`],
    ['case', 'case', `${d.kindName} (${d.kind})`, [d.kind]],
    ['cell', 'terrain cell', d.cellI >= 0 ? `${d.cellI},${d.cellJ}` : '–'],
    ['element', 'element', d.element ?? '–'],
    ['point', 'point m', v3(d.point, 4), d.point],
    ['normal', 'normal', v3(d.normal, 4), d.normal],
    ['depth', 'depth mm', (d.depth * 1000).toFixed(3), [d.depth]],
    ['normalImpulse', 'normal impulse N·s', d.normalImpulse.toExponential(4), [d.normalImpulse]],
    ['frictionImpulse', 'friction impulse N·s', `${d.t1Impulse.toExponential(3)} ${d.t2Impulse.toExponential(3)}`, [d.t1Impulse, d.t2Impulse]],
    ['normalForce', 'normal force N', d.normalForce.toFixed(2)],
    ['frictionForce', 'friction force N', d.frictionForce.toFixed(2)],
    ['slip', 'slip m/s', d.slip ? `${v3(d.slip)} (|${d.slipSpeed!.toFixed(3)}|)` : '–'],
    ['normalSpeed', 'normal speed m/s', d.normalSpeed !== null ? d.normalSpeed.toFixed(4) : '–'],
  ];
  return f;
}

export class InspectorPanel {
  private readonly expanded = new Set<string>();
  private key = '';
  /** Exact terrain heights for the terrain element (set per world; null: no element shown). */
  terrain: (TerrainHeights & { version?: number }) | null = null;

  constructor(private readonly root: HTMLElement, private readonly select: (sel: { contact: number }) => void) {}

  get visible(): boolean {
    return !this.root.hidden && !(this.root.closest('details') && !(this.root.closest('details') as HTMLDetailsElement).open);
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
    for (const t of ['body', 'on', 'case', 'n', 'cells', 'depth mm', 'force N', '']) head.appendChild(h('th', t));
    const inv = w.dt > 0 ? 1 / w.dt : 0;
    groups.slice(0, INSPECTOR_MAX_MANIFOLDS).forEach((g) => {
      const gkey = `${g.bodyA}|${g.bodyB}|${g.contacts[0]}`;
      const open = this.expanded.has(gkey);
      const tr = table.insertRow();
      tr.className = 'manifold';
      if (sel.type === 'contact' && g.contacts.includes(sel.index)) tr.classList.add('selected');
      if (sel.type === 'body' && (g.bodyA === sel.body || g.bodyB === sel.body)) tr.classList.add('selected');
      const cells = [name(g.bodyA), name(g.bodyB), g.kinds.map(contactKindName).join('+'), String(g.contacts.length), g.cells.length === 0 ? '–' : g.cells[0] + (g.cells.length > 1 ? ` +${g.cells.length - 1}` : ''), (g.maxDepth * 1000).toFixed(2), (g.normalImpulse * inv).toFixed(1)];
      for (const c of cells) tr.insertCell().textContent = c;
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
        for (const c of [`  #${k}`, '', d.kindName, '1', d.cellI >= 0 ? `${d.cellI},${d.cellJ}` : '–', (d.depth * 1000).toFixed(2), d.normalForce.toFixed(1), '']) r.insertCell().textContent = c;
        r.addEventListener('click', () => this.select({ contact: k }));
      }
    });
    const parts: HTMLElement[] = [caption, table];
    if (sel.type === 'contact') {
      const d = contactDetail(f, sel.index, w.dt, this.terrain);
      const box = h('div', '', 'detail', { 'data-testid': 'contact-detail' });
      if (!d) box.textContent = 'the selected contact is gone (no contact of that body pair near it in this step)';
      else {
        box.appendChild(h('div', 'selected contact', 'detail-title'));
        const dt = h('table');
        for (const [fieldKey, label, text, raw] of detailFields(d, w)) {
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
    this.root.replaceChildren(...parts);
  }
}
