/**
 * castShape (plain linear cast) against the library's own queryConvex on seeded pairs of every
 * shape kind (sphere, box, capsule, cylinder, hull) at random orientations, aimed so that about
 * half hit:
 *   - a hit: a moved by toi·motion touches b (|queryConvex distance| ≤ 1e-6 m), and moved back
 *     1 µm along the motion it is apart (distance > 0) — unless toi = 0 (started touching);
 *   - the path's smallest signed distance (convex in t for a translating pair: ternary search
 *     with GJK/EPA, an oracle independent of the cast) decides hit or miss wherever it is clear
 *     of 0 by more than 1e-6 m.
 * CI runs 2,000 pairs; CAST_SHAPE_PAIRS=10000 runs the 10,000 (the result is printed).
 */
import { describe, expect, it } from 'vitest';
import { EpaResult, epaPenetration } from '../../sim/collision/epa';
import { queryConvex } from '../../sim/collision/query-convex';
import type { ConvexBodyDesc } from '../../sim/collision/query-convex';
import { castShape } from '../../sim/collision/swept/plain-api';
import { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import type { Pose } from '../../sim/shapes/shape';
import { shapeFromDesc } from '../../sim/shapes/shape-desc';
import type { ShapeDesc } from '../../sim/shapes/shape-desc';

const PAIRS = Number(process.env.CAST_SHAPE_PAIRS ?? 2000);
const TOUCH = 1e-6;

function randomShape(rng: Rng): ShapeDesc {
  switch (rng.int(0, 4)) {
    case 0:
      return { type: 'sphere', radius: rng.range(0.05, 0.8) };
    case 1:
      return { type: 'box', halfExtents: [rng.range(0.05, 0.8), rng.range(0.05, 0.8), rng.range(0.05, 0.8)] };
    case 2:
      return { type: 'capsule', radius: rng.range(0.05, 0.4), height: rng.range(0.1, 1.2) };
    case 3:
      return { type: 'cylinder', radius: rng.range(0.05, 0.6), height: rng.range(0.05, 1.2) };
    default: {
      const points: [number, number, number][] = [];
      for (let k = 0; k < 16; k++) points.push([rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)]);
      return { type: 'hull', points };
    }
  }
}

function randomQuat(rng: Rng): [number, number, number, number] {
  const q = [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

describe(`castShape vs queryConvex on ${PAIRS} seeded pairs`, () => {
  it('touch within 1e-6 m at toi, apart 1 µm before; hit/miss as the path distance says', () => {
    const rng = new Rng(1515);
    const g = new EpaResult();
    let badNormals = 0, hits = 0, misses = 0, grazing = 0, startTouching = 0, maxTouch = 0, maxTouchBefore = Infinity;
    for (let n = 0; n < PAIRS; n++) {
      const sa = randomShape(rng), sb = randomShape(rng);
      const b: ConvexBodyDesc = { shape: sb, position: [0, 0, 0], orientation: randomQuat(rng) };
      const dir = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
      const dl = Math.hypot(...dir);
      const dist = rng.range(1.2, 4);
      const start: [number, number, number] = [dist * dir[0] / dl, dist * dir[1] / dl, dist * dir[2] / dl];
      const target = [rng.range(-0.8, 0.8), rng.range(-0.8, 0.8), rng.range(-0.8, 0.8)];
      const reach = rng.range(0.3, 1.6);
      const motion: Vec3 = [0, 1, 2].map((k) => (target[k] - start[k]) * reach) as Vec3;
      const a: ConvexBodyDesc = { shape: sa, position: start, orientation: randomQuat(rng) };
      const r = castShape(a, motion, b);

      // Oracle: the smallest signed distance over the path (GJK apart, EPA overlapping): the
      // signed distance to the convex set b − a along a line is convex in t.
      const shA = shapeFromDesc(sa), shB = shapeFromDesc(sb);
      const pB: Pose = { position: [0, 0, 0], orientation: b.orientation };
      const pA: Pose = { position: [0, 0, 0], orientation: a.orientation };
      const d = (t: number): number => {
        for (let k = 0; k < 3; k++) pA.position[k] = start[k] + t * motion[k];
        epaPenetration(g, shA, pA, shB, pB);
        return g.distance;
      };
      let lo = 0, hi = 1;
      for (let it = 0; it < 60; it++) {
        const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (d(m1) <= d(m2)) hi = m2;
        else lo = m1;
      }
      const minD = Math.min(d(0), d(1), d(0.5 * (lo + hi)));
      if (minD > TOUCH) expect(r.hit, `pair ${n}: the path stays ${minD} m apart`).toBe(false);
      if (minD < -TOUCH) expect(r.hit, `pair ${n}: the path meets b`).toBe(true);
      if (Math.abs(minD) <= TOUCH) grazing++;
      if (!r.hit) {
        misses++;
        continue;
      }
      hits++;
      expect(r.toi).toBeGreaterThanOrEqual(0);
      expect(r.toi).toBeLessThanOrEqual(1);
      const at = (t: number): ConvexBodyDesc => ({ ...a, position: [0, 1, 2].map((k) => start[k] + t * motion[k]) as [number, number, number] });
      const q = queryConvex(at(r.toi), b);
      if (r.toi === 0) {
        startTouching++;
        expect(q.distance, `pair ${n}: toi 0 but apart`).toBeLessThanOrEqual(TOUCH);
        continue;
      }
      expect(Math.abs(q.distance), `pair ${n}: distance at toi ${r.toi}`).toBeLessThanOrEqual(TOUCH);
      maxTouch = Math.max(maxTouch, Math.abs(q.distance));
      const back = Math.max(0, r.toi - 1e-6 / Math.hypot(...motion));
      const qb = queryConvex(at(back), b);
      expect(qb.distance, `pair ${n}: 1 µm before toi`).toBeGreaterThan(0);
      maxTouchBefore = Math.min(maxTouchBefore, qb.distance);
      // the normal points from a to b: a moving along it approaches b (at a vertex or edge
      // touch its direction is not unique, so it is not compared with queryConvex's).
      expect(Math.hypot(...r.normal)).toBeCloseTo(1, 9);
      if (r.normal[0] * motion[0] + r.normal[1] * motion[1] + r.normal[2] * motion[2] < -1e-9) badNormals++;
    }
    console.log(`castShape vs queryConvex, ${PAIRS} pairs: ${hits} hits (${startTouching} at toi 0), ${misses} misses, ${grazing} grazing within 1e-6 m; ` +
      `max |distance at toi| ${maxTouch.toExponential(2)} m; smallest distance 1 µm before toi ${maxTouchBefore.toExponential(2)} m; ` +
      `${badNormals} normals against the motion`);
    expect(badNormals).toBe(0);
    expect(hits).toBeGreaterThan(0.3 * PAIRS);
    expect(misses).toBeGreaterThan(0.2 * PAIRS);
  });
});
