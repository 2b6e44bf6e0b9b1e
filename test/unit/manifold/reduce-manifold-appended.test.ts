/**
 * reduceManifoldAppendedInto (sim/collision/reduce-manifold.ts): reducing again after contacts were
 * appended gives, bit for bit, what a full reduceManifoldInto of all contacts gives — seeded random
 * manifolds with several normal groups, depth ties, touching and speculative points mixed, and
 * appended contacts that join a group or start one (the fallback), over up to three rounds as the
 * wheel query's element walls do.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { ManifoldGroups, reduceManifoldAppendedInto, reduceManifoldInPlace, reduceManifoldInto } from '../../../sim/collision/reduce-manifold';
import { MANIFOLD_TOUCH_DISTANCE } from '../../../sim/constants';
import { Rng } from '../../../sim/math/random';

const CAPACITY = 128;
const TRIALS = 400;
const SEED = 20261124;

/** Unit normals of the groups a trial draws from: up, and tilted 25°, 50° and 40° (other groups). */
const GROUP_NORMALS = [
  [0, 0, 1],
  [Math.sin(0.44), 0, Math.cos(0.44)],
  [0, -Math.sin(0.87), Math.cos(0.87)],
  [-Math.sin(0.7), 0, Math.cos(0.7)],
] as const;

/** Appends one random contact: a group's normal jittered within ~3°, a point in a 0.3 m patch, a depth that is often tied or speculative. */
function pushRandom(b: ContactBuffer, rng: Rng, groups: number): void {
  const g = GROUP_NORMALS[Math.floor(rng.next() * groups)];
  let nx = g[0] + (rng.next() - 0.5) * 0.05, ny = g[1] + (rng.next() - 0.5) * 0.05, nz = g[2];
  const len = Math.hypot(nx, ny, nz);
  nx /= len; ny /= len; nz /= len;
  const x = rng.next() * 0.3, y = rng.next() * 0.3, z = rng.next() * 0.02;
  const u = rng.next();
  // Tied depths (a few values), speculative points and distinct depths.
  const depth = u < 0.3 ? 0.01 * Math.floor(rng.next() * 3) : u < 0.45 ? -MANIFOLD_TOUCH_DISTANCE - rng.next() * 0.01 : rng.next() * 0.03;
  // Some trials put points on a line (a line contact).
  b.push(x, rng.next() < 0.2 ? 0 : y, z, nx, ny, nz, depth, 1, b.count, 0);
}

function fields(b: ContactBuffer): number[] {
  const v: number[] = [b.count, b.overflow];
  for (let k = 0; k < b.count; k++) {
    v.push(b.point[3 * k], b.point[3 * k + 1], b.point[3 * k + 2], b.normal[3 * k], b.normal[3 * k + 1], b.normal[3 * k + 2]);
    v.push(b.depth[k], b.kind[k], b.cellI[k], b.cellJ[k], b.feature[k]);
  }
  return v;
}

/**
 * Reduces cand again after contacts were appended from `first` (reduceManifoldAppendedInto on
 * `groups`, which holds the earlier reduction) and checks it equals a full reduction on `fresh`.
 */
function expectAppendedEqualsFull(cand: ContactBuffer, groups: ManifoldGroups, fresh: ManifoldGroups, out: ContactBuffer, full: ContactBuffer, first: number, label: string): void {
  out.clear();
  const s = reduceManifoldAppendedInto(out, cand, groups, first);
  full.clear();
  const sf = reduceManifoldInto(full, cand, fresh);
  expect(s, label).toBe(sf);
  expect(fields(out), label).toEqual(fields(full));
}

describe('reduceManifoldAppendedInto', () => {
  it('equals the full reduction after 1–3 rounds of appended contacts (seeded)', () => {
    const rng = new Rng(SEED);
    const cand = new ContactBuffer(CAPACITY);
    const out = new ContactBuffer(CAPACITY), full = new ContactBuffer(CAPACITY);
    const groups = new ManifoldGroups(CAPACITY, 4), fresh = new ManifoldGroups(CAPACITY, 4);
    let rounds = 0;
    for (let t = 0; t < TRIALS; t++) {
      cand.clear();
      const n0 = 1 + Math.floor(rng.next() * 30);
      // Appended contacts mostly join the first trial's groups; sometimes a new normal comes.
      const groupsBefore = 1 + Math.floor(rng.next() * 2);
      for (let k = 0; k < n0; k++) pushRandom(cand, rng, groupsBefore);
      out.clear();
      reduceManifoldInto(out, cand, groups);
      const passes = 1 + Math.floor(rng.next() * 3);
      for (let p = 0; p < passes; p++) {
        const first = cand.count;
        const added = 1 + Math.floor(rng.next() * 4);
        const withNew = rng.next() < 0.15 ? 3 : groupsBefore;
        for (let k = 0; k < added; k++) pushRandom(cand, rng, withNew);
        expectAppendedEqualsFull(cand, groups, fresh, out, full, first, `trial ${t} round ${p}`);
        rounds++;
      }
    }
    expect(rounds).toBeGreaterThan(TRIALS);
  });

  it('equals the full reduction when contacts join 3 or 4 earlier groups (seeded)', () => {
    // Every appended contact joins an existing group (no fallback), so the runs are rebuilt from
    // the earlier ones; with more than two groups a middle group's run moves as well.
    const rng = new Rng(SEED + 2);
    const cand = new ContactBuffer(CAPACITY);
    const out = new ContactBuffer(CAPACITY), full = new ContactBuffer(CAPACITY);
    const groups = new ManifoldGroups(CAPACITY, 4), fresh = new ManifoldGroups(CAPACITY, 4);
    let rebuilt = 0;
    for (let t = 0; t < 150; t++) {
      cand.clear();
      const used = 3 + Math.floor(rng.next() * 2);
      // One contact per group first, so all `used` groups exist before anything is appended.
      for (let q = 0; q < used; q++) {
        const g = GROUP_NORMALS[q];
        cand.push(rng.next() * 0.3, rng.next() * 0.3, 0, g[0], g[1], g[2], rng.next() * 0.03, 1, cand.count, 0);
      }
      const n0 = Math.floor(rng.next() * 30);
      for (let k = 0; k < n0; k++) pushRandom(cand, rng, used);
      out.clear();
      reduceManifoldInto(out, cand, groups);
      for (let p = 0; p < 2; p++) {
        const first = cand.count;
        const added = 1 + Math.floor(rng.next() * 4);
        for (let k = 0; k < added; k++) pushRandom(cand, rng, used);
        expectAppendedEqualsFull(cand, groups, fresh, out, full, first, `trial ${t} round ${p}`);
        if (groups.count >= 3) rebuilt++;
      }
    }
    expect(rebuilt).toBeGreaterThan(200);
  });

  it('without a matching earlier reduction (another first, or an in-place reduction since) it is the full reduction', () => {
    const rng = new Rng(SEED + 1);
    const cand = new ContactBuffer(CAPACITY);
    for (let k = 0; k < 20; k++) pushRandom(cand, rng, 2);
    const groups = new ManifoldGroups(CAPACITY, 4), fresh = new ManifoldGroups(CAPACITY, 4);
    const out = new ContactBuffer(CAPACITY), full = new ContactBuffer(CAPACITY);
    reduceManifoldInto(full, cand, fresh);
    // A stale scratch: an in-place reduction of other contacts ran on it.
    const other = new ContactBuffer(CAPACITY);
    for (let k = 0; k < 10; k++) pushRandom(other, rng, 1);
    reduceManifoldInPlace(other, 0, groups);
    reduceManifoldAppendedInto(out, cand, groups, 15);
    expect(fields(out)).toEqual(fields(full));
    // A first that is not the last reduction's count.
    out.clear();
    reduceManifoldInto(out, cand, groups);
    out.clear();
    reduceManifoldAppendedInto(out, cand, groups, 12);
    expect(fields(out)).toEqual(fields(full));
  });
});
