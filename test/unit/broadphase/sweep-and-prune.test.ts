import { describe, expect, it } from 'vitest';
import { aabb } from '../../../sim/collision/broadphase/aabb';
import type { Aabb } from '../../../sim/collision/broadphase/aabb';
import { BroadPhase } from '../../../sim/collision/broadphase/broad-phase';
import { SweepAndPrune } from '../../../sim/collision/broadphase/sweep-and-prune';
import { Rng } from '../../../sim/math/random';

function boxAt(p: number[], h: number[]): Aabb {
  return aabb(p[0] - h[0], p[1] - h[1], p[2] - h[2], p[0] + h[0], p[1] + h[1], p[2] + h[2]);
}

/** Body pairs (by user data, which is the body index here), sorted. */
function bodyPairs(x: BroadPhase | SweepAndPrune): string[] {
  const out: string[] = [];
  for (let i = 0; i < x.pairCount; i++) {
    const a = x.getUserData(x.pairProxyA(i));
    const b = x.getUserData(x.pairProxyB(i));
    out.push(a < b ? `${a},${b}` : `${b},${a}`);
  }
  return out.sort();
}

describe('SweepAndPrune', () => {
  it('finds the same body pairs as the dynamic-tree BroadPhase through seeded moves, inserts and removes', () => {
    const rng = new Rng(21);
    const sap = new SweepAndPrune();
    const bp = new BroadPhase();
    interface Body { p: number[]; v: number[]; h: number[]; s: number; t: number }
    const bodies = new Map<number, Body>();
    let next = 0;
    const spawn = (): void => {
      const b: Body = {
        p: [rng.range(-8, 8), rng.range(-8, 8), rng.range(0, 4)],
        v: [rng.gaussian(), rng.gaussian(), rng.gaussian()],
        h: [rng.range(0.05, 0.8), rng.range(0.05, 0.8), rng.range(0.05, 0.8)],
        s: 0,
        t: 0,
      };
      const id = next++;
      b.s = sap.createProxy(boxAt(b.p, b.h), id);
      b.t = bp.createProxy(boxAt(b.p, b.h), id);
      bodies.set(id, b);
    };
    for (let i = 0; i < 200; i++) spawn();
    for (let step = 0; step < 40; step++) {
      for (const b of bodies.values()) {
        const d = b.v.map((v) => v * (step % 7 === 0 ? 0.5 : 0.02));
        for (let k = 0; k < 3; k++) b.p[k] += d[k];
        sap.moveProxy(b.s, boxAt(b.p, b.h), [d[0], d[1], d[2]]);
        bp.moveProxy(b.t, boxAt(b.p, b.h), [d[0], d[1], d[2]]);
      }
      if (step % 4 === 0) {
        spawn();
        const ids = [...bodies.keys()];
        const victim = ids[rng.int(0, ids.length - 1)];
        const b = bodies.get(victim) as Body;
        sap.destroyProxy(b.s);
        bp.destroyProxy(b.t);
        bodies.delete(victim);
      }
      sap.updatePairs();
      bp.updatePairs();
      expect(sap.proxyCount).toBe(bodies.size);
      expect(bodyPairs(sap)).toEqual(bodyPairs(bp));
    }
  });

  it('reports pairs sorted by (smaller proxy id, larger proxy id) and rejects invalid boxes', () => {
    const sap = new SweepAndPrune();
    const rng = new Rng(4);
    for (let i = 0; i < 300; i++) sap.createProxy(boxAt([rng.range(0, 6), rng.range(0, 6), rng.range(0, 6)], [0.5, 0.5, 0.5]), i);
    sap.updatePairs();
    expect(sap.pairCount).toBeGreaterThan(50);
    for (let i = 1; i < sap.pairCount; i++) {
      const a0 = sap.pairProxyA(i - 1), b0 = sap.pairProxyB(i - 1), a1 = sap.pairProxyA(i), b1 = sap.pairProxyB(i);
      expect(a1 < b1).toBe(true);
      expect(a0 < a1 || (a0 === a1 && b0 < b1)).toBe(true);
    }
    expect(() => sap.createProxy(aabb(0, 0, 0, Number.NaN, 1, 1), 0)).toThrow(RangeError);
    expect(sap.moveProxy(0, aabb(Number.NaN, 0, 0, 1, 1, 1))).toBe(false);
    expect(sap.rejectedMoves).toBe(1);
  });
});
