/**
 * Caller-owned workspaces (#26): two queries in flight at once — one inside another (a support
 * function that runs its own query: re-entrant) or two interleaved (each query's input written
 * before either runs) — give exactly the answers each gives alone. A scratch buffer shared through
 * the module (a module-level simplex, pair or swept-query array) makes the inner or second query
 * overwrite the outer or first one's state, and these comparisons fail (checked by planting one).
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import type { Aabb, ConvexShape, MassProperties, Pose, SupportFace } from '../../../sim/shapes/shape';
import { GjkResult, GjkWorkspace, gjkDistance, gjkIntersect } from '../../../sim/collision/gjk';
import { EpaResult, EpaWorkspace, epaPenetration } from '../../../sim/collision/epa';
import { CastResult, CastWorkspace, gjkShapeCast } from '../../../sim/collision/gjk-raycast';
import { TimeOfImpactWorkspace, timeOfImpact } from '../../../sim/collision/swept/time-of-impact';
import { SweptHit, SweptWorkspace, sweptSphereSegment, sweptSphereTriangle, triangleRootQ } from '../../../sim/collision/swept/swept-sphere';
import { pose, randomQuat, randomUnit } from './helpers';
import { makeRandomHull } from './hull-fixtures';

/** A shape that runs `inner` (another query, on its own workspace) before every support call. */
class ReentrantShape implements ConvexShape {
  constructor(readonly base: ConvexShape, private readonly inner: () => void) {}
  get kind() { return this.base.kind; }
  get coreRadius() { return this.base.coreRadius; }
  support(out: Vec3, d: Readonly<Vec3>): Vec3 {
    this.inner();
    return this.base.support(out, d);
  }
  supportCore(out: Vec3, d: Readonly<Vec3>): Vec3 {
    this.inner();
    return this.base.supportCore(out, d);
  }
  supportingFace(out: SupportFace, d: Readonly<Vec3>): SupportFace { return this.base.supportingFace(out, d); }
  localAabb(out: Aabb): Aabb { return this.base.localAabb(out); }
  massProperties(out: MassProperties, density: number): MassProperties { return this.base.massProperties(out, density); }
  volume(): number { return this.base.volume(); }
}

interface Case { a: ConvexShape; pa: Pose; b: ConvexShape; pb: Pose }

function cases(seed: number, n: number, lo: number, hi: number): Case[] {
  const rng = new Rng(seed);
  const shapes: ConvexShape[] = [
    makeRandomHull(rng, 24, 0.5), makeRandomHull(rng, 12, 0.4), new BoxShape([0.3, 0.2, 0.5]), new CapsuleShape(0.2, 0.6),
  ];
  const out: Case[] = [];
  for (let i = 0; i < n; i++) {
    const d = randomUnit(rng), r = rng.range(lo, hi);
    const x = rng.range(-1, 1), y = rng.range(-1, 1), z = rng.range(-1, 1);
    out.push({
      a: shapes[rng.int(0, shapes.length - 1)], pa: pose(x, y, z, randomQuat(rng)),
      b: shapes[rng.int(0, shapes.length - 1)], pb: pose(x + r * d[0], y + r * d[1], z + r * d[2], randomQuat(rng)),
    });
  }
  return out;
}

// Fields the result defines (GJK's normal only when normalValid, a swept hit's point and normal only when touched).
const gjkFields = (r: GjkResult) => [r.status, r.distance, ...r.pointA, ...r.pointB, ...(r.normalValid ? r.normal : []), r.normalValid, r.iterations];
const epaFields = (r: EpaResult) => [r.status, r.method, r.depth, r.distance, ...r.normal, ...r.pointA, ...r.pointB, r.iterations, r.failure];
const castFields = (r: CastResult) => [r.status, r.fraction, r.distance, ...r.normal, ...r.pointA, ...r.pointB, r.iterations];
const sweptFields = (r: SweptHit) => [r.status, r.toi, ...(r.touched ? [...r.point, ...r.normal] : []), r.feature];

describe('collision workspaces: a query inside another (re-entrant) answers as if alone', () => {
  // The inner query: a GJK distance on other shapes, on its own workspace, run at every support call.
  const other = cases(5, 1, 0.4, 0.8)[0];
  const innerWs = new GjkWorkspace();
  const innerRes = new GjkResult();
  let innerCalls = 0;
  const inner = (): void => {
    gjkDistance(innerRes, other.a, other.pa, other.b, other.pb, undefined, innerWs);
    innerCalls++;
  };

  it('GJK distance and intersect', () => {
    const ws = new GjkWorkspace();
    const res = new GjkResult();
    let checked = 0;
    for (const c of [...cases(1, 40, 0.3, 1.6), ...cases(2, 20, 0, 0.4)]) {
      const alone = gjkFields(gjkDistance(new GjkResult(), c.a, c.pa, c.b, c.pb, undefined, new GjkWorkspace()));
      const hitAlone = gjkIntersect(c.a, c.pa, c.b, c.pb, new GjkWorkspace());
      const a = new ReentrantShape(c.a, inner), b = new ReentrantShape(c.b, inner);
      expect(gjkFields(gjkDistance(res, a, c.pa, b, c.pb, undefined, ws))).toEqual(alone);
      expect(gjkIntersect(a, c.pa, b, c.pb, ws)).toBe(hitAlone);
      checked++;
    }
    expect(checked).toBe(60);
    expect(innerCalls).toBeGreaterThan(100); // the inner query really ran inside the outer ones
  });

  it('EPA penetration (its GJK stage and the polytope)', () => {
    const ws = new EpaWorkspace();
    const res = new EpaResult();
    for (const c of cases(3, 30, 0, 0.5)) {
      const alone = epaFields(epaPenetration(new EpaResult(), c.a, c.pa, c.b, c.pb, new EpaWorkspace()));
      const a = new ReentrantShape(c.a, inner), b = new ReentrantShape(c.b, inner);
      expect(epaFields(epaPenetration(res, a, c.pa, b, c.pb, ws))).toEqual(alone);
    }
  });

  it('shape cast and time of impact (with the normal refinement and the advancement)', () => {
    const ws = new CastWorkspace();
    const toiWs = new TimeOfImpactWorkspace();
    const res = new CastResult();
    const zero: Vec3 = [0, 0, 0];
    for (const c of cases(4, 30, 1.2, 2)) {
      const m: Vec3 = [2 * (c.pb.position[0] - c.pa.position[0]), 2 * (c.pb.position[1] - c.pa.position[1]), 2 * (c.pb.position[2] - c.pa.position[2])];
      const a = new ReentrantShape(c.a, inner), b = new ReentrantShape(c.b, inner);
      const alone = castFields(gjkShapeCast(new CastResult(), c.a, c.pa, m, c.b, c.pb, zero, new CastWorkspace()));
      expect(castFields(gjkShapeCast(res, a, c.pa, m, b, c.pb, zero, ws))).toEqual(alone);
      const motionA = { linear: m, angular: [0.3, -0.2, 0.5] as Vec3 }, still = { linear: zero, angular: zero };
      const toiAlone = castFields(timeOfImpact(new CastResult(), c.a, c.pa, motionA, c.b, c.pb, still, new TimeOfImpactWorkspace()));
      expect(castFields(timeOfImpact(res, a, c.pa, motionA, b, c.pb, still, toiWs))).toEqual(toiAlone);
    }
  });
});

describe('swept-sphere workspaces: two queries interleaved answer as if alone', () => {
  const rng = new Rng(11);
  const v = (s: number): Vec3 => [rng.range(-s, s), rng.range(-s, s), rng.range(-s, s)];
  // Every other sphere is aimed at its triangle's centroid (hits), the rest move at random (mostly misses).
  const queries = Array.from({ length: 40 }, (_, i) => {
    const c = v(1), tri = [v(1), v(1), v(1)];
    const m: Vec3 = i % 2 === 0 ? [0, 1, 2].map((k) => 2 * ((tri[0][k] + tri[1][k] + tri[2][k]) / 3 - c[k])) as Vec3 : v(2);
    return { c, m, r: rng.range(0, 0.4), tri };
  });

  it('internal form: both spheres written into their workspaces, a public-form query on a third, then both triangles tested', () => {
    const ws1 = new SweptWorkspace(), ws2 = new SweptWorkspace(), ws3 = new SweptWorkspace();
    const h3 = new SweptHit();
    const h1 = new SweptHit(), h2 = new SweptHit();
    const V1 = new Float64Array(9), V2 = new Float64Array(9);
    let touched = 0;
    for (let i = 0; i + 1 < queries.length; i += 2) {
      const q1 = queries[i], q2 = queries[i + 1];
      const alone1 = sweptFields(sweptSphereTriangle(new SweptHit(), q1.c, q1.m, q1.r, q1.tri[0], q1.tri[1], q1.tri[2], new SweptWorkspace()));
      const alone2 = sweptFields(sweptSphereTriangle(new SweptHit(), q2.c, q2.m, q2.r, q2.tri[0], q2.tri[1], q2.tri[2], new SweptWorkspace()));
      for (const [ws, q, V] of [[ws1, q1, V1], [ws2, q2, V2]] as const) {
        for (let k = 0; k < 3; k++) {
          ws.query[k] = q.c[k];
          ws.query[3 + k] = q.m[k];
          for (let t = 0; t < 3; t++) V[3 * t + k] = q.tri[t][k];
        }
        ws.query[6] = q.r;
      }
      const q3 = queries[(i + 7) % queries.length];
      const alone3 = sweptFields(sweptSphereSegment(new SweptHit(), q3.c, q3.m, q3.r, q3.tri[0], q3.tri[1], new SweptWorkspace()));
      expect(sweptFields(sweptSphereSegment(h3, q3.c, q3.m, q3.r, q3.tri[0], q3.tri[1], ws3))).toEqual(alone3);
      expect(sweptFields(triangleRootQ(h1, ws1, V1))).toEqual(alone1);
      expect(sweptFields(triangleRootQ(h2, ws2, V2))).toEqual(alone2);
      if (h1.touched) touched++;
      if (h2.touched) touched++;
    }
    expect(touched).toBeGreaterThan(10); // hits as well as misses were compared
  });
});
