import { describe, expect, it } from 'vitest';
import { aabb, aabbOverlaps } from '../../../sim/collision/broadphase/aabb';
import type { Aabb } from '../../../sim/collision/broadphase/aabb';
import { BroadPhase } from '../../../sim/collision/broadphase/broad-phase';
import { validateTree } from '../../../sim/collision/broadphase/dynamic-tree-check';
import { BROADPHASE_AABB_MARGIN, BROADPHASE_DISPLACEMENT_MULTIPLIER } from '../../../sim/constants';
import { Rng } from '../../../sim/math/random';

function boxAt(x: number, y: number, z: number, hx: number, hy: number, hz: number): Aabb {
  return aabb(x - hx, y - hy, z - hz, x + hx, y + hy, z + hz);
}

function pairsOf(bp: BroadPhase): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < bp.pairCount; i++) out.push([bp.pairProxyA(i), bp.pairProxyB(i)]);
  return out;
}

/** O(n²) oracle over the fat boxes the broad phase stores, sorted like the broad phase. */
function brutePairs(bp: BroadPhase, live: Iterable<number>): [number, number][] {
  const ids = [...live].sort((a, b) => a - b);
  const fat = ids.map((id) => bp.getFatAabb(aabb(), id));
  const out: [number, number][] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) if (aabbOverlaps(fat[i], fat[j])) out.push([ids[i], ids[j]]);
  }
  return out;
}

interface Body {
  p: [number, number, number];
  v: [number, number, number];
  h: [number, number, number];
}

function tight(b: Body): Aabb {
  return boxAt(b.p[0], b.p[1], b.p[2], b.h[0], b.h[1], b.h[2]);
}

describe('BroadPhase', () => {
  it('finds the one pair of two overlapping boxes and loses it when they separate beyond the margin', () => {
    const bp = new BroadPhase();
    const a = bp.createProxy(boxAt(0, 0, 0, 0.5, 0.5, 0.5), 10);
    const b = bp.createProxy(boxAt(0.9, 0, 0, 0.5, 0.5, 0.5), 20);
    bp.updatePairs();
    expect(pairsOf(bp)).toEqual([[Math.min(a, b), Math.max(a, b)]]);
    expect(bp.getUserData(a)).toBe(10);
    // Still within the fat boxes: nothing moves in the tree, the pair persists.
    expect(bp.moveProxy(b, boxAt(0.95, 0, 0, 0.5, 0.5, 0.5))).toBe(false);
    bp.updatePairs();
    expect(bp.pairCount).toBe(1);
    // Far away: re-inserted, pair gone.
    expect(bp.moveProxy(b, boxAt(5, 0, 0, 0.5, 0.5, 0.5))).toBe(true);
    bp.updatePairs();
    expect(bp.pairCount).toBe(0);
  });

  it('keeps a pair while the gap between tight boxes is under twice the margin (fat boxes overlap)', () => {
    const m = BROADPHASE_AABB_MARGIN;
    const bp = new BroadPhase();
    bp.createProxy(boxAt(0, 0, 0, 0.5, 0.5, 0.5), 0);
    bp.createProxy(boxAt(1 + 1.5 * m, 0, 0, 0.5, 0.5, 0.5), 1);
    bp.updatePairs();
    expect(bp.pairCount).toBe(1);
    const bp2 = new BroadPhase();
    bp2.createProxy(boxAt(0, 0, 0, 0.5, 0.5, 0.5), 0);
    bp2.createProxy(boxAt(1 + 2.5 * m, 0, 0, 0.5, 0.5, 0.5), 1);
    bp2.updatePairs();
    expect(bp2.pairCount).toBe(0);
  });

  it('equals the brute-force O(n²) pair set, sorted, through seeded moves, inserts and removes', () => {
    for (const seed of [11, 12, 13, 14]) {
      const rng = new Rng(seed);
      const bp = new BroadPhase();
      const bodies = new Map<number, Body>();
      const spawn = (): void => {
        const b: Body = {
          p: [rng.range(-10, 10), rng.range(-10, 10), rng.range(0, 5)],
          v: [rng.gaussian(), rng.gaussian(), rng.gaussian() * 0.3],
          h: [rng.range(0.05, 1), rng.range(0.05, 1), rng.range(0.05, 1)],
        };
        const id = bp.createProxy(tight(b), bodies.size);
        expect(bodies.has(id)).toBe(false);
        bodies.set(id, b);
      };
      for (let i = 0; i < 150; i++) spawn();
      const dt = 1 / 60;
      for (let step = 0; step < 60; step++) {
        for (const [id, b] of bodies) {
          const jump = step % 10 === 0 ? 20 : 1; // now and then a big jump
          for (let k = 0; k < 3; k++) b.p[k] += b.v[k] * dt * jump;
          // Half the bodies report their displacement (predictive fat boxes), half do not.
          if (id % 2 === 0) bp.moveProxy(id, tight(b), [b.v[0] * dt * jump, b.v[1] * dt * jump, b.v[2] * dt * jump]);
          else bp.moveProxy(id, tight(b));
        }
        if (step % 3 === 0) {
          for (let k = 0; k < 4; k++) spawn();
          for (let k = 0; k < 3; k++) {
            const ids = [...bodies.keys()];
            const id = ids[rng.int(0, ids.length - 1)];
            bp.destroyProxy(id);
            bodies.delete(id);
          }
        }
        bp.updatePairs();
        const got = pairsOf(bp);
        expect(got).toEqual(brutePairs(bp, bodies.keys()));
        // Every tight overlap is reported (the fat boxes contain the tight ones).
        const gotKeys = new Set(got.map(([a, b]) => `${a},${b}`));
        const ids = [...bodies.keys()].sort((a, b) => a - b);
        for (let i = 0; i < ids.length; i++) {
          for (let j = i + 1; j < ids.length; j++) {
            if (aabbOverlaps(tight(bodies.get(ids[i]) as Body), tight(bodies.get(ids[j]) as Body))) {
              expect(gotKeys.has(`${ids[i]},${ids[j]}`)).toBe(true);
            }
          }
        }
        if (step % 10 === 0) expect(validateTree(bp.tree)).toBeNull();
      }
    }
  });

  it('reports pairs in strictly increasing (a, b) order with a < b', () => {
    const rng = new Rng(3);
    const bp = new BroadPhase();
    for (let i = 0; i < 400; i++) bp.createProxy(boxAt(rng.range(0, 10), rng.range(0, 10), rng.range(0, 10), 0.6, 0.6, 0.6), i);
    bp.updatePairs();
    expect(bp.pairCount).toBeGreaterThan(100);
    for (let i = 0; i < bp.pairCount; i++) {
      expect(bp.pairProxyA(i)).toBeLessThan(bp.pairProxyB(i));
      if (i > 0) {
        const prev = [bp.pairProxyA(i - 1), bp.pairProxyB(i - 1)];
        const cur = [bp.pairProxyA(i), bp.pairProxyB(i)];
        expect(prev[0] < cur[0] || (prev[0] === cur[0] && prev[1] < cur[1])).toBe(true);
      }
    }
  });

  it('is deterministic: the same sequence of calls gives the same ids and the same pair list', () => {
    const run = (): string => {
      const rng = new Rng(77);
      const bp = new BroadPhase();
      const ids: number[] = [];
      const log: string[] = [];
      for (let i = 0; i < 200; i++) ids.push(bp.createProxy(boxAt(rng.range(0, 8), rng.range(0, 8), rng.range(0, 8), 0.4, 0.4, 0.4), i));
      for (let s = 0; s < 20; s++) {
        for (const id of ids) bp.moveProxy(id, boxAt(rng.range(0, 8), rng.range(0, 8), rng.range(0, 8), 0.4, 0.4, 0.4));
        const k = rng.int(0, ids.length - 1);
        bp.destroyProxy(ids[k]);
        ids[k] = bp.createProxy(boxAt(rng.range(0, 8), rng.range(0, 8), rng.range(0, 8), 0.4, 0.4, 0.4), s);
        bp.updatePairs();
        log.push(ids.join(','), pairsOf(bp).join(';'));
      }
      return log.join('|');
    };
    expect(run()).toBe(run());
  });

  it('regression: destroying a proxy and creating another in the same step drops the old pairs and finds the new ones', () => {
    const bp = new BroadPhase();
    const a = bp.createProxy(boxAt(0, 0, 0, 1, 1, 1), 0);
    const b = bp.createProxy(boxAt(1, 0, 0, 1, 1, 1), 1);
    bp.updatePairs();
    expect(bp.pairCount).toBe(1);
    bp.destroyProxy(b);
    const c = bp.createProxy(boxAt(50, 0, 0, 1, 1, 1), 2); // likely reuses b's id
    const d = bp.createProxy(boxAt(50.5, 0, 0, 1, 1, 1), 3);
    bp.updatePairs();
    expect(pairsOf(bp)).toEqual([[Math.min(c, d), Math.max(c, d)]]);
    expect(pairsOf(bp).flat()).not.toContain(a);
  });

  it('stretches a re-inserted fat box by BROADPHASE_DISPLACEMENT_MULTIPLIER x displacement ahead of the motion only', () => {
    const m = BROADPHASE_AABB_MARGIN;
    const bp = new BroadPhase();
    const id = bp.createProxy(boxAt(0, 0, 0, 0.5, 0.5, 0.5), 0);
    expect(bp.moveProxy(id, boxAt(1, 0, 0, 0.5, 0.5, 0.5), [0.25, -0.1, 0])).toBe(true);
    const f = bp.getFatAabb(aabb(), id);
    expect(f.min[0]).toBeCloseTo(0.5 - m, 12);
    expect(f.max[0]).toBeCloseTo(1.5 + m + BROADPHASE_DISPLACEMENT_MULTIPLIER * 0.25, 12);
    expect(f.min[1]).toBeCloseTo(-0.5 - m - BROADPHASE_DISPLACEMENT_MULTIPLIER * 0.1, 12);
    expect(f.max[1]).toBeCloseTo(0.5 + m, 12);
    expect(f.min[2]).toBeCloseTo(-0.5 - m, 12);
    expect(f.max[2]).toBeCloseTo(0.5 + m, 12);
    // Moving on along the same line stays inside the stretched box: no re-insertion.
    expect(bp.moveProxy(id, boxAt(1.25, 0, 0, 0.5, 0.5, 0.5), [0.25, 0, 0])).toBe(false);
    // A NaN displacement is ignored (no NaN reaches the tree).
    expect(bp.moveProxy(id, boxAt(9, 0, 0, 0.5, 0.5, 0.5), [Number.NaN, 0, 0])).toBe(true);
    const g = bp.getFatAabb(aabb(), id);
    expect(g.max[0]).toBeCloseTo(9.5 + m, 12);
    expect(validateTree(bp.tree)).toBeNull();
  });

  it('rejects non-finite or inverted boxes: createProxy throws, moveProxy keeps the old fat box and counts it', () => {
    const bp = new BroadPhase();
    expect(() => bp.createProxy(aabb(0, 0, 0, Number.NaN, 1, 1), 0)).toThrow(RangeError);
    expect(() => bp.createProxy(aabb(0, 0, 0, -1, 1, 1), 0)).toThrow(RangeError);
    const id = bp.createProxy(boxAt(0, 0, 0, 1, 1, 1), 0);
    const before = bp.getFatAabb(aabb(), id);
    expect(bp.moveProxy(id, aabb(Number.NaN, 0, 0, 1, 1, 1))).toBe(false);
    expect(bp.moveProxy(id, aabb(5, 5, 5, Infinity, 6, 6))).toBe(false);
    expect(bp.rejectedMoves).toBe(2);
    expect(bp.getFatAabb(aabb(), id)).toEqual(before);
    expect(validateTree(bp.tree)).toBeNull();
  });

  it('rejects a negative or non-finite margin', () => {
    expect(() => new BroadPhase(-1)).toThrow(RangeError);
    expect(() => new BroadPhase(Number.NaN)).toThrow(RangeError);
  });
});
