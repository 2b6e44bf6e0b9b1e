/**
 * Seeded fuzz over extreme sizes and aspect ratios (every dimension log-uniform in 1 mm..10 m),
 * all five shape kinds, random poses, 20 % of pairs sharing one orientation (parallel faces and
 * edges). Properties: no NaN, never Degenerate, EPA fallbacks rare (all seen are cylinder rims),
 * (A, B) and (B, A) agree on the signed distance, GJK and EPA agree on overlap.
 */
import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { BoxShape } from '../../../sim/shapes/box';
import { SphereShape } from '../../../sim/shapes/sphere';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';
import type { ConvexHullData } from '../../../sim/shapes/convex-hull';
import type { ConvexShape, Pose } from '../../../sim/shapes/shape';
import { GjkResult, GjkStatus, gjkDistance } from '../../../sim/collision/gjk';
import { EpaResult, EpaStatus, epaPenetration } from '../../../sim/collision/epa';
import { finite, randomQuat } from './helpers';

describe('GJK/EPA fuzz: extreme sizes and aspect ratios (seeded)', () => {
  it('1500 pairs: finite, symmetric, consistent, fallbacks ≤ 1 %', () => {
    const rng = new Rng(7);
    const size = (): number => Math.exp(rng.range(Math.log(1e-3), Math.log(10)));
    const shape = (): ConvexShape => {
      switch (rng.int(0, 4)) {
        case 0: return new BoxShape([size(), size(), size()]);
        case 1: return new SphereShape(size());
        case 2: return new CapsuleShape(size(), size());
        case 3: return new CylinderShape(size(), size());
        default: {
          const p: number[] = [];
          const sx = size(), sy = size(), sz = size();
          for (let i = 0; i < 20; i++) p.push(rng.gaussian() * sx, rng.gaussian() * sy, rng.gaussian() * sz);
          return new ConvexHullShape(buildConvexHull(p).data as ConvexHullData);
        }
      }
    };
    const e = new EpaResult(), e2 = new EpaResult(), g = new GjkResult();
    let overlaps = 0, fallbacks = 0, worstAsym = 0, inconsistent = 0, bad = 0;
    for (let i = 0; i < 1500; i++) {
      const a = shape(), b = shape();
      const qa = randomQuat(rng);
      const qb = rng.next() < 0.2 ? qa : randomQuat(rng);
      const s = size();
      const pa: Pose = { position: [rng.gaussian(), rng.gaussian(), rng.gaussian()], orientation: qa };
      const pb: Pose = { position: [pa.position[0] + rng.gaussian() * s, pa.position[1] + rng.gaussian() * s, pa.position[2] + rng.gaussian() * s], orientation: qb };
      epaPenetration(e, a, pa, b, pb);
      epaPenetration(e2, b, pb, a, pa);
      gjkDistance(g, a, pa, b, pb);
      if (!finite(e.normal, e.pointA, e.pointB, [e.depth, e.distance], g.normal, g.pointA, g.pointB, [g.distance])) bad++;
      if (e.status === EpaStatus.Degenerate || g.status === GjkStatus.Degenerate) bad++;
      if (g.status === GjkStatus.Intersecting) overlaps++;
      if (e.status === EpaStatus.Fallback) fallbacks++;
      if ((g.status === GjkStatus.Separated) !== (e.status === EpaStatus.Separated)) inconsistent++;
      if (e.status !== EpaStatus.Fallback && e2.status !== EpaStatus.Fallback) {
        worstAsym = Math.max(worstAsym, Math.abs(e.distance - e2.distance) / (1 + Math.abs(e.distance)));
      }
    }
    expect(bad).toBe(0);
    expect(inconsistent).toBe(0);
    expect(overlaps).toBeGreaterThan(500);
    expect(fallbacks).toBeLessThanOrEqual(Math.ceil(0.01 * overlaps));
    // EPA's tolerance is 1e-6 of the size of A − B (up to ~20 m here)
    expect(worstAsym).toBeLessThan(5e-5);
  });
});
