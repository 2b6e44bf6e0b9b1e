/**
 * The entity panel: a tree of bodies and joints (entities.ts entityTree) and the selected
 * entity's state (pose, velocity, roll/pitch/yaw; joint coordinate, rate, effort). Clicking a
 * node selects it in the 3D view; a selection made in 3D is marked in the tree.
 */
import type { WorldInfo } from '../../sim/protocol';
import { bodyState, entityTree, jointState, type EntityNode } from '../inspect/entities';
import type { Selection } from '../inspect/selection';
import { h } from './dom';

const deg = (r: number): string => ((r * 180) / Math.PI).toFixed(1);
const v3 = (v: readonly number[] | null, d = 3): string => (v ? `${v[0].toFixed(d)} ${v[1].toFixed(d)} ${v[2].toFixed(d)}` : '–');

export class EntityPanel {
  private world: WorldInfo | null = null;
  private readonly tree = h('ul', '', 'entity-tree');
  private readonly state = h('div', '', 'entity-state', { 'data-testid': 'entity-state' });
  private readonly nodes = new Map<string, HTMLElement>();
  private marked = '';

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
    if (sel.type === 'body') {
      const b = bodyState(w.bodies, poses, velocities, sel.body);
      if (b) {
        rows.push(['body', `${b.name} (${b.role}, #${b.index})`], ['position m', v3(b.position)], ['roll pitch yaw °', `${deg(b.rpy[0])} ${deg(b.rpy[1])} ${deg(b.rpy[2])}`], ['velocity m/s', v3(b.velocity)], ['speed m/s', b.speed !== null ? b.speed.toFixed(3) : '–'], ['angular velocity rad/s', v3(b.angularVelocity)]);
      }
    } else if (sel.type === 'joint' && joints) {
      const j = jointState(w.bodies, w.joints, joints, sel.joint);
      if (j) {
        const ang = j.type === 'revolute';
        rows.push(['joint', `${j.name} (${j.type}${j.motor ? ', motor' : ''})`], ['bodies', `${j.parent} → ${j.child}`], [ang ? 'angle °' : 'position m', ang ? deg(j.coordinate) : j.coordinate.toFixed(4)], [ang ? 'speed rad/s' : 'speed m/s', j.rate.toFixed(3)], [ang ? 'torque N·m' : 'force N', j.effort.toFixed(2)]);
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
