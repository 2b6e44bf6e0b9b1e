/**
 * epaPenetration's `stopAbove` (the narrow phase passes its contact margin): GJK may stop at the
 * first separating plane that proves the shapes farther apart than that. Every pair closer than
 * the margin must get exactly the answer of the full query (status, distance, depth, normal,
 * witnesses, bit for bit), and every pair the full query finds farther apart must still be
 * reported Separated beyond the margin. Seeded random pairs of every shape kind, at distances that
 * mix deep, shallow, near the margin and far (convex-pairs.ts), plus pairs placed just inside and
 * just outside the margin.
 */
import { describe, expect, it } from 'vitest';
import { EpaResult, EpaStatus, EpaWorkspace, epaPenetration } from '../../../sim/collision/epa';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import type { Pose } from '../../../sim/shapes/shape';
import { engineShape, KINDS, randomPair } from '../../oracle/convex-pairs';

const full = new EpaResult(), early = new EpaResult();
const wsFull = new EpaWorkspace(), wsEarly = new EpaWorkspace();

function same(a: EpaResult, b: EpaResult): boolean {
  const eq = (x: number, y: number): boolean => Object.is(x, y);
  for (let k = 0; k < 3; k++) if (!eq(a.normal[k], b.normal[k]) || !eq(a.pointA[k], b.pointA[k]) || !eq(a.pointB[k], b.pointB[k])) return false;
  return a.status === b.status && eq(a.distance, b.distance) && eq(a.depth, b.depth);
}

describe('epaPenetration stopAbove', () => {
  for (const margin of [0.02, 0.2]) {
    it(`margin ${margin} m: pairs within it get the full answer, pairs beyond it stay beyond`, () => {
      const rng = new Rng(3100 + margin * 1000);
      let within = 0, beyond = 0, cut = 0, supportsFull = 0, supportsEarly = 0;
      for (let n = 0; n < 3000; n++) {
        const ta = KINDS[rng.int(0, KINDS.length - 1)], tb = KINDS[rng.int(0, KINDS.length - 1)];
        const [a, b] = randomPair(rng, ta, tb);
        const sa = engineShape(a.shape), sb = engineShape(b.shape);
        const pa: Pose = { position: a.position, orientation: a.orientation };
        const pb: Pose = { position: [...b.position] as Vec3, orientation: b.orientation };
        epaPenetration(full, sa, pa, sb, pb, wsFull);
        const d = full.status === EpaStatus.Separated ? full.distance : -full.depth;
        // half the pairs: B moved along the normal to just inside or just outside the margin
        if (n % 2 === 1 && full.status === EpaStatus.Separated) {
          const shift = margin * (rng.next() < 0.5 ? 0.97 : 1.03) - d;
          for (let k = 0; k < 3; k++) pb.position[k] -= shift * full.normal[k];
          epaPenetration(full, sa, pa, sb, pb, wsFull);
        }
        epaPenetration(early, sa, pa, sb, pb, wsEarly, margin);
        const fd = full.status === EpaStatus.Separated ? full.distance : -full.depth;
        supportsFull += full.iterations;
        supportsEarly += early.iterations;
        if (fd <= margin) {
          within++;
          if (!same(full, early)) throw new Error(`pair ${n} (${ta}–${tb}) at ${fd} m: the early query differs (${early.status} ${early.distance})`);
        } else {
          beyond++;
          expect(early.status).toBe(EpaStatus.Separated);
          expect(early.distance).toBeGreaterThan(margin);
          if (!same(full, early)) cut++;
        }
      }
      // both sides exercised, and the early exit does happen
      expect(within).toBeGreaterThan(800);
      expect(beyond).toBeGreaterThan(300);
      expect(cut).toBeGreaterThan(beyond / 4);
      expect(supportsEarly).toBeLessThan(supportsFull);
    });
  }
});
