import { describe, expect, it } from 'vitest';
import { closestPointOnSegment, closestPointsSegmentSegment, createSegmentClosest } from '../../../sim/collision/segment-closest';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';

const r = createSegmentClosest();

function bruteDistanceSq(p1: Vec3, p2: Vec3, p3: Vec3, p4: Vec3): number {
  // Dense sampling of s on P1P2 (20 001 samples); for each, the nearest point of P3P4 by
  // projection (a separate, obviously correct 1-D problem). An upper bound within sampling error.
  const v: Vec3 = [p4[0] - p3[0], p4[1] - p3[1], p4[2] - p3[2]];
  const vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  let best = Infinity;
  const N = 20000;
  for (let i = 0; i <= N; i++) {
    const s = i / N;
    const q = [p1[0] + s * (p2[0] - p1[0]), p1[1] + s * (p2[1] - p1[1]), p1[2] + s * (p2[2] - p1[2])];
    let t = vv > 0 ? ((q[0] - p3[0]) * v[0] + (q[1] - p3[1]) * v[1] + (q[2] - p3[2]) * v[2]) / vv : 0;
    t = Math.min(1, Math.max(0, t));
    let d = 0;
    for (let k = 0; k < 3; k++) { const a = q[k] - (p3[k] + t * v[k]); d += a * a; }
    if (d < best) best = d;
  }
  return best;
}

describe('closestPointsSegmentSegment', () => {
  it('crossing perpendicular segments: distance is the gap along the common normal', () => {
    closestPointsSegmentSegment(r, [-1, 0, 0], [1, 0, 0], [0.25, -1, 0.3], [0.25, 1, 0.3]);
    expect(r.distanceSq).toBeCloseTo(0.09, 14);
    expect(r.pointA).toEqual([0.25, 0, 0]);
    expect(r.pointB[0]).toBeCloseTo(0.25, 14);
    expect(r.pointB[1]).toBeCloseTo(0, 14);
    expect(r.mua).toBeCloseTo(0.625, 14);
    expect(r.parallel).toBe(false);
  });

  it('matches seed 003 mua/mub on skew lines whose closest points are interior', () => {
    // P1P2 along x at z = 0, P3P4 along (0,1,1)/√2 through (0.5, 0, 1): closest at x = 0.5.
    closestPointsSegmentSegment(r, [0, 0, 0], [2, 0, 0], [0.5, -1, 0], [0.5, 1, 2]);
    expect(r.mua).toBeCloseTo(0.25, 14);
    expect(r.mub).toBeCloseTo(0.25, 14);
    expect(r.distanceSq).toBeCloseTo(0.5, 14);
  });

  it('clamps to end points when the line solution lies outside', () => {
    closestPointsSegmentSegment(r, [0, 0, 0], [1, 0, 0], [2, 1, 0], [3, 1, 5]);
    expect(r.pointA).toEqual([1, 0, 0]);
    expect(r.pointB).toEqual([2, 1, 0]);
    expect(r.distanceSq).toBeCloseTo(2, 14);
  });

  it('regression: parallel overlapping segments give a finite pair at the right distance', () => {
    closestPointsSegmentSegment(r, [0, 0, 0], [1, 0, 0], [0.5, 0.2, 0], [1.5, 0.2, 0]);
    expect(r.parallel).toBe(true);
    expect(r.distanceSq).toBeCloseTo(0.04, 14);
    expect(Number.isFinite(r.pointA[0]) && Number.isFinite(r.pointB[0])).toBe(true);
  });

  it('regression: nearly parallel edges (1e-9 rad) give no NaN and the right distance', () => {
    closestPointsSegmentSegment(r, [0, 0, 0], [1, 0, 0], [-0.5, 1e-9, 0.1], [0.5, 0, 0.1]);
    expect(Math.sqrt(r.distanceSq)).toBeCloseTo(0.1, 9);
    expect(r.pointA.every(Number.isFinite) && r.pointB.every(Number.isFinite)).toBe(true);
  });

  it('degenerate: zero-length segments are points', () => {
    closestPointsSegmentSegment(r, [1, 1, 1], [1, 1, 1], [0, 0, 0], [2, 0, 0]);
    expect(r.pointB).toEqual([1, 0, 0]);
    expect(r.distanceSq).toBeCloseTo(2, 14);
    closestPointsSegmentSegment(r, [0, 0, 0], [2, 0, 0], [1, 1, 1], [1, 1, 1]);
    expect(r.pointA).toEqual([1, 0, 0]);
    closestPointsSegmentSegment(r, [0, 0, 0], [0, 0, 0], [0, 3, 4], [0, 3, 4]);
    expect(r.distanceSq).toBe(25);
  });

  it('tiny and huge scales keep relative accuracy', () => {
    for (const s of [1e-5, 1e5]) {
      closestPointsSegmentSegment(r, [-s, 0, 0], [s, 0, 0], [0, -s, s], [0, s, s]);
      expect(Math.sqrt(r.distanceSq) / s).toBeCloseTo(1, 10);
    }
  });

  it('agrees with brute-force sampling on 300 random segment pairs (seeded)', () => {
    const rng = new Rng(1234);
    const p = (): Vec3 => [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
    for (let k = 0; k < 300; k++) {
      const a = p(), b = p(), c = p(), d = p();
      if (k % 10 === 0) { d[0] = c[0] + (b[0] - a[0]); d[1] = c[1] + (b[1] - a[1]); d[2] = c[2] + (b[2] - a[2]); } // parallel
      closestPointsSegmentSegment(r, a, b, c, d);
      const brute = bruteDistanceSq(a, b, c, d);
      expect(r.distanceSq).toBeLessThanOrEqual(brute + 1e-9);
      expect(r.distanceSq).toBeGreaterThanOrEqual(brute - 1e-6);
      // reported points are consistent with the reported parameters
      expect(r.pointA[0]).toBeCloseTo(a[0] + r.mua * (b[0] - a[0]), 12);
      expect(r.pointB[2]).toBeCloseTo(c[2] + r.mub * (d[2] - c[2]), 12);
    }
  });

  it('closestPointOnSegment clamps and handles a point segment', () => {
    const o: Vec3 = [0, 0, 0];
    expect(closestPointOnSegment(o, [5, 1, 0], [0, 0, 0], [2, 0, 0])).toBe(1);
    expect(o).toEqual([2, 0, 0]);
    expect(closestPointOnSegment(o, [5, 1, 0], [3, 3, 3], [3, 3, 3])).toBe(0);
    expect(o).toEqual([3, 3, 3]);
  });
});
