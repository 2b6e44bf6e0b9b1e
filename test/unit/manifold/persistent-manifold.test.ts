import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { PersistentManifold } from '../../../sim/collision/manifold/persistent-manifold';
import { BoxBoxWorkspace, collideBoxBox } from '../../../sim/collision/sat-box-box';
import { quatFromAxisAngle } from '../../../sim/math/quat';
import type { Quat } from '../../../sim/math/quat';
import type { Vec3 } from '../../../sim/math/vec3';

const bbWs = new BoxBoxWorkspace();
const I: Quat = [0, 0, 0, 1];
const H: Vec3 = [0.5, 0.5, 0.5];

describe('PersistentManifold', () => {
  it('a resting box keeps its 4 points and their impulses across frames (feature ids match)', () => {
    const buf = new ContactBuffer(16);
    const m = new PersistentManifold();
    collideBoxBox(buf, [0, 0, 1.0], I, H, [0, 0, 0], I, H, 0.01, bbWs);
    m.update(buf, 0, buf.count);
    expect(m.count).toBe(4);
    expect(Array.from(m.persisted)).toEqual([0, 0, 0, 0]);
    for (let k = 0; k < 4; k++) {
      m.normalImpulse[k] = k + 1;
      m.tangentImpulse[2 * k] = 10 * (k + 1);
    }
    const byFeature = new Map<number, number>();
    const old: { p: number[]; imp: number }[] = [];
    for (let k = 0; k < 4; k++) {
      byFeature.set(m.feature[k], m.normalImpulse[k]);
      old.push({ p: [m.point[3 * k], m.point[3 * k + 1], m.point[3 * k + 2]], imp: m.normalImpulse[k] });
    }
    // same pose again: every id matches
    buf.clear();
    collideBoxBox(buf, [0, 0, 1.0], I, H, [0, 0, 0], I, H, 0.01, bbWs);
    m.update(buf, 0, buf.count);
    for (let k = 0; k < 4; k++) expect(m.normalImpulse[k]).toBe(byFeature.get(m.feature[k]));
    // next frame: the box sank 1 mm, slid 2 mm and turned 1 mrad; B's corners now poke out of
    // A's face on two sides, so some ids change (clip points instead of vertices): proximity
    // matching hands each new point the impulse of the old point next to it
    buf.clear();
    collideBoxBox(buf, [0.002, 0, 0.999], quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], 0.001), H, [0, 0, 0], I, H, 0.01, bbWs);
    m.update(buf, 0, buf.count);
    expect(m.count).toBe(4);
    for (let k = 0; k < 4; k++) {
      expect(m.persisted[k]).toBe(1);
      let best = old[0], bd = Infinity;
      for (const o of old) {
        const d = Math.hypot(o.p[0] - m.point[3 * k], o.p[1] - m.point[3 * k + 1], o.p[2] - m.point[3 * k + 2]);
        if (d < bd) { bd = d; best = o; }
      }
      expect(m.normalImpulse[k]).toBe(best.imp);
    }
  });

  it('points that disappear lose their impulse; new points start from zero', () => {
    const buf = new ContactBuffer(16);
    const m = new PersistentManifold();
    buf.push(0, 0, 0, 0, 0, 1, 0.01, 20, -1, -1, 7);
    buf.push(1, 0, 0, 0, 0, 1, 0.01, 20, -1, -1, 8);
    m.update(buf, 0, 2);
    m.normalImpulse[0] = 5;
    m.normalImpulse[1] = 6;
    buf.clear();
    buf.push(1, 0, 0, 0, 0, 1, 0.01, 20, -1, -1, 8);
    buf.push(5, 0, 0, 0, 0, 1, 0.01, 20, -1, -1, 9);
    m.update(buf, 0, 2);
    expect(Array.from(m.normalImpulse.subarray(0, 2))).toEqual([6, 0]);
    expect(Array.from(m.persisted.subarray(0, 2))).toEqual([1, 0]);
  });

  it('falls back to proximity when ids change, but not across a flipped normal', () => {
    const buf = new ContactBuffer(16);
    const m = new PersistentManifold();
    buf.push(0, 0, 0, 0, 0, 1, 0.01, 20, -1, -1, 1);
    m.update(buf, 0, 1);
    m.normalImpulse[0] = 3;
    buf.clear();
    buf.push(0.001, 0, 0, 0, 0, 1, 0.01, 20, -1, -1, 2);
    m.update(buf, 0, 1);
    expect(m.normalImpulse[0]).toBe(3);
    buf.clear();
    buf.push(0.001, 0, 0, 0, 0, -1, 0.01, 20, -1, -1, 2);
    m.update(buf, 0, 1);
    expect(m.normalImpulse[0]).toBe(0);
  });

  it('reports contacts dropped for capacity', () => {
    const buf = new ContactBuffer(16);
    for (let k = 0; k < 6; k++) buf.push(k, 0, 0, 0, 0, 1, 0, 20, -1, -1, k + 1);
    const m = new PersistentManifold();
    expect(m.update(buf, 0, 6)).toBe(2);
    expect(m.count).toBe(4);
  });
});
