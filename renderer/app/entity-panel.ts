/**
 * The entity panel: a tree of bodies and joints (entities.ts entityTree) and the selected
 * entity's state (pose, velocity, roll/pitch/yaw; joint coordinate, rate, effort). Clicking a
 * node selects it in the 3D view; a selection made in 3D is marked in the tree.
 */
import type { WorldInfo } from '../../sim/app/protocol';
import { bodyState, entityTree, jointState, type EntityNode } from '../inspect/entities';
import type { Selection } from '../inspect/selection';
import { h } from './dom';
import { DEFAULT_UNITS, formatNumber, formatVector, labelWithUnit, NO_VALUE, RESOLUTION, type DisplayUnits } from './units';

export class EntityPanel {
  private world: WorldInfo | null = null;
  private readonly tree = h('ul', '', 'entity-tree');
  private readonly state = h('div', '', 'entity-state', { 'data-testid': 'entity-state' });
  private readonly nodes = new Map<string, HTMLElement>();
  private marked = '';
  private units: DisplayUnits = { ...DEFAULT_UNITS };

  constructor(private readonly root: HTMLElement, private readonly select: (sel: Selection) => void) {
    root.replaceChildren(this.tree, this.state);
  }

  setWorld(w: WorldInfo): void {
    this.world = w;
    this.nodes.clear();
    this.marked = '';
    const build = (ns: EntityNode[]): HTMLUListElement => {
      const ul = h('ul');
      for (const n of ns) {
        const li = h('li');
        const label = h('span', n.label, `node ${n.kind}`, { 'data-entity': `${n.kind}:${n.index}` });
        label.addEventListener('click', () => this.select(n.kind === 'body' ? { type: 'body', body: n.index } : { type: 'joint', joint: n.index }));
        this.nodes.set(`${n.kind}:${n.index}`, label);
        li.appendChild(label);
        if (n.children.length > 0) li.appendChild(build(n.children));
        ul.appendChild(li);
      }
      return ul;
    };
    this.tree.replaceChildren(...build(entityTree(w.bodies, w.joints, w.baseBody)).childNodes);
  }

  /** Display units of the state table (applied at the next update). */
  setUnits(u: DisplayUnits): void {
    this.units = { ...u };
  }

  /** Marks the selection in the tree and shows its state from the frame on screen. */
  update(sel: Selection, poses: Float32Array | null, velocities: Float32Array | undefined, joints: Float32Array | null): void {
    const w = this.world;
    const key = sel.type === 'body' ? `body:${sel.body}` : sel.type === 'joint' ? `joint:${sel.joint}` : '';
    if (key !== this.marked) {
      this.nodes.get(this.marked)?.classList.remove('selected');
      this.nodes.get(key)?.classList.add('selected');
      this.nodes.get(key)?.scrollIntoView?.({ block: 'nearest' });
      this.marked = key;
    }
    if (!w || !poses) {
      this.state.textContent = '';
      return;
    }
    const rows: [string, string][] = [];
    const u = this.units;
    if (sel.type === 'body') {
      const b = bodyState(w.bodies, poses, velocities, sel.body);
      if (b) {
        rows.push(
          ['body', `${b.name} (${b.role}, #${b.index})`],
          [labelWithUnit('position', u, 'length'), formatVector(u, 'length', b.position, RESOLUTION.position)],
          [labelWithUnit('roll pitch yaw', u, 'angle'), formatVector(u, 'angle', b.rpy, RESOLUTION.angle)],
          [labelWithUnit('velocity', u, 'speed'), formatVector(u, 'speed', b.velocity, RESOLUTION.speed)],
          [labelWithUnit('speed', u, 'speed'), b.speed !== null ? formatNumber(u, 'speed', b.speed, RESOLUTION.speed) : NO_VALUE],
          [labelWithUnit('angular velocity', u, 'angularSpeed'), formatVector(u, 'angularSpeed', b.angularVelocity, RESOLUTION.angularSpeed)],
        );
      }
    } else if (sel.type === 'joint' && joints) {
      const j = jointState(w.bodies, w.joints, joints, sel.joint);
      if (j) {
        const ang = j.type === 'revolute';
        rows.push(
          ['joint', `${j.name} (${j.type}${j.motor ? ', motor' : ''})`],
          ['bodies', `${j.parent} → ${j.child}`],
          ang ? [labelWithUnit('angle', u, 'angle'), formatNumber(u, 'angle', j.coordinate, RESOLUTION.angle)] : [labelWithUnit('position', u, 'length'), formatNumber(u, 'length', j.coordinate, RESOLUTION.position)],
          ang ? [labelWithUnit('speed', u, 'angularSpeed'), formatNumber(u, 'angularSpeed', j.rate, RESOLUTION.angularSpeed)] : [labelWithUnit('speed', u, 'speed'), formatNumber(u, 'speed', j.rate, RESOLUTION.speed)],
          ang ? [labelWithUnit('torque', u, 'torque'), formatNumber(u, 'torque', j.effort, RESOLUTION.torque)] : [labelWithUnit('force', u, 'force'), formatNumber(u, 'force', j.effort, RESOLUTION.force)],
        );
      }
    } else {
      rows.push(['', 'click a body or joint here or in the 3D view']);
    }
    const t = h('table');
    for (const [k, v] of rows) {
      const r = t.insertRow();
      r.insertCell().textContent = k;
      r.insertCell().textContent = v;
    }
    this.state.replaceChildren(t);
  }
}
