import { describe, expect, it } from 'vitest';
import { bodyPairKey } from '../../../sim/collision/pair-key';
import { Rng } from '../../../sim/math/random';
import { sortPairKeys, sortPrefix } from '../../../sim/math/sort-prefix';

describe('sortPairKeys (the collision pass\'s counting sort of body pairs)', () => {
  it('gives the same array as a comparison sort of the keys (seeded: 1 to 5,000 distinct pairs over 2 to 3,000 bodies, in random order)', () => {
    const rng = new Rng(314);
    for (let trial = 0; trial < 60; trial++) {
      const bodies = rng.int(2, 3000);
      const want = rng.int(1, 5000);
      const seen = new Set<number>();
      const lo: number[] = [], hi: number[] = [];
      for (let t = 0; t < 4 * want && lo.length < want; t++) {
        const a = rng.int(0, bodies - 1), b = rng.int(0, bodies - 1);
        if (a === b) continue;
        const l = Math.min(a, b), h = Math.max(a, b);
        if (seen.has(l * bodies + h)) continue;
        seen.add(l * bodies + h);
        lo.push(l);
        hi.push(h);
      }
      const n = lo.length;
      const keys = new Float64Array(n), ref = new Float64Array(n);
      for (let k = 0; k < n; k++) ref[k] = bodyPairKey(lo[k], hi[k]);
      sortPrefix(ref, n);
      sortPairKeys(keys, Int32Array.from(lo), Int32Array.from(hi), n, bodies, new Int32Array(n), new Int32Array(n), new Int32Array(bodies + 1));
      expect(Array.from(keys)).toEqual(Array.from(ref));
    }
  });
});
