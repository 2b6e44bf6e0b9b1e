/**
 * Sleeping bodies keep last step's contacts (CollisionPass.carry, sim/dynamics/collide.ts):
 * every carried contact is, field by field, the previous step's contact its `source` names, the
 * store stays sorted by pair key.
 * The carry copies runs of contacts that follow each other in both stores in one pass
 * (flushCarry); this pins that the coalesced copy is the plain per-pair copy's result.
 */
import { describe, expect, it } from 'vitest';
import type { BodySpec } from '../../../sim/dynamics/spec';
import { ContactStore } from '../../../sim/dynamics/contacts';
import { Rng } from '../../../sim/math/random';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { makeWorld } from './helpers';

/** The fields a carried contact copies (identity, geometry, materials, warm-start impulses). */
const FIELDS = [
  ['bodyA', 1], ['bodyB', 1], ['slotB', 1], ['key', 1], ['kind', 1], ['cellI', 1], ['cellJ', 1], ['feature', 1],
  ['point', 3], ['normal', 3], ['depth', 1], ['friction', 1], ['restitution', 1], ['rolling', 1],
  ['normalImpulse', 1], ['t1Impulse', 1], ['t2Impulse', 1], ['r1Impulse', 1], ['r2Impulse', 1],
] as const;
type Field = (typeof FIELDS)[number][0];

function snapshot(c: ContactStore): Record<Field, Float64Array> {
  const s = {} as Record<Field, Float64Array>;
  for (const [f, k] of FIELDS) s[f] = Float64Array.from(c[f].subarray(0, c.count * k));
  return s;
}

/** Bumpy ground, rocks in rows (they settle and sleep), a roller and a hopper. */
function carryWorld() {
  const n = 81, d = 0.05, rng = new Rng(2911);
  const h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 0.03 * Math.sin(0.4 * i) * Math.cos(0.3 * j) + 0.004 * rng.next();
  const hf = Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -2, y0: -2, heights: h });
  const bodies: BodySpec[] = [];
  for (let k = 0; k < 24; k++) {
    const x = -1.2 + 0.2 * (k % 12), y = k < 12 ? -0.1 : 0.1;
    const shape = k % 2 === 0
      ? { type: 'box' as const, halfExtents: [rng.range(0.03, 0.05), rng.range(0.03, 0.05), rng.range(0.02, 0.04)] as [number, number, number] }
      : { type: 'hull' as const, points: Array.from({ length: 10 }, () => [rng.range(-0.05, 0.05), rng.range(-0.05, 0.05), rng.range(-0.04, 0.04)] as [number, number, number]) };
    bodies.push({ name: `rock${k}`, shape, density: 2000, position: [x, y, 0.12] });
  }
  // a roller (first in body order) that later rolls through the rows, and a hopper in the middle
  // of the order, away from the rows: its contacts come and go, so the runs carried after it
  // move in the store from step to step
  bodies.unshift({ name: 'roller', shape: { type: 'sphere', radius: 0.08 }, density: 500, position: [-1.6, 0, 0.3] });
  bodies.splice(13, 0, { name: 'hopper', shape: { type: 'sphere', radius: 0.06 }, density: 500, position: [0, 0.8, 0.2] });
  return makeWorld(hf, bodies, [], { sleep: true });
}

describe('carried contacts of sleeping bodies', () => {
  it('are the previous step\'s contacts field by field, in key order', () => {
    const w = carryWorld();
    const roller = w.bodies.indexOf('roller'), hopper = w.bodies.indexOf('hopper');
    let carriedSteps = 0, carriedContacts = 0, mixedSteps = 0;
    const mismatches: string[] = [];
    let prev = snapshot(w.contacts);
    for (let s = 0; s < 900; s++) {
      // after the rocks sleep, push the roller through the rows (it wakes some, the rest carry)
      if (s === 500) {
        w.wakeBody(roller);
        w.bodies.linVel[3 * roller] = 1.5;
      }
      if (s >= 300 && s % 40 === 0) {
        w.wakeBody(hopper);
        w.bodies.linVel[3 * hopper + 2] = 0.8;
      }
      w.step();
      const c = w.contacts;
      let carried = 0;
      for (let i = 0; i < c.count; i++) {
        if (i > 0 && c.key[i] < c.key[i - 1]) mismatches.push(`step ${s + 1}, contact ${i}: key out of order`);
        const j = c.source[i];
        if (j < 0) continue;
        carried++;
        for (const [f, k] of FIELDS) {
          for (let e = 0; e < k; e++) if (!Object.is(c[f][k * i + e], prev[f][k * j + e])) mismatches.push(`step ${s + 1}, contact ${i} from ${j}: ${f}`);
        }
      }
      if (carried > 0) carriedSteps++;
      if (carried > 0 && carried < c.count) mixedSteps++;
      carriedContacts += carried;
      prev = snapshot(c);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // the test exercised the carry: many steps carried contacts, some beside fresh ones
    expect(carriedSteps).toBeGreaterThan(200);
    expect(mixedSteps).toBeGreaterThan(100);
    expect(carriedContacts).toBeGreaterThan(2000);
  }, 120_000);

  it('twin stores keep both their contacts when either grows, and copy between them as separate stores do', () => {
    const fill = (c: ContactStore, n: number, seed: number) => {
      c.count = n;
      for (const [f, k] of FIELDS) for (let e = 0; e < n * k; e++) c[f][e] = (seed + 7 * e + f.length) % 251;
    };
    const [a, b] = ContactStore.twins(8);
    fill(a, 6, 1);
    fill(b, 5, 2);
    const sa = snapshot(a), sb = snapshot(b);
    b.resize(32); // grows a too
    expect(a.capacity).toBe(32);
    expect(snapshot(a)).toEqual(sa);
    expect(snapshot(b)).toEqual(sb);
    // contacts 1..4 of b to a from index 2, against two stores that share nothing
    const x = new ContactStore(32), y = new ContactStore(32);
    fill(x, 6, 1);
    fill(y, 5, 2);
    a.copyCarried(b, 1, 4, 2);
    x.copyCarried(y, 1, 4, 2);
    expect(snapshot(a)).toEqual(snapshot(x));
    expect(Array.from(a.source.subarray(2, 5))).toEqual([1, 2, 3]);
    expect(snapshot(b)).toEqual(sb);
  });
});

