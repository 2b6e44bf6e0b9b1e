/**
 * Swept-sphere primitives (sim/collision/swept/swept-sphere.ts) against closed-form answers of
 * the seed's cases (DGL toolbox: plane, vertex, edge; Huotari §6.1: two moving spheres), their
 * degenerate cases (grazing, starting in contact, parallel and zero motion), and a seeded
 * brute-force oracle for triangles: the first sample of the path within r of the triangle
 * (Ericson's closest point, written out here), refined by bisection.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import {
  SweptFeature,
  SweptHit,
  SweptStatus,
  sweptSpherePlane,
  sweptSpherePoint,
  sweptSphereSegment,
  sweptSphereSphere,
  sweptSphereTriangle,
} from '../../../sim/collision/swept/swept-sphere';

const h = new SweptHit();
const up: Vec3 = [0, 0, 1];

function expectVec(v: Readonly<Vec3>, e: readonly number[], digits = 12): void {
  for (let k = 0; k < 3; k++) expect(v[k]).toBeCloseTo(e[k], digits);
}

describe('moving sphere vs plane (SpherePositionAtPlane)', () => {
  it('head-on and oblique: t = (r − dist) / (n·D), point below the centre', () => {
    sweptSpherePlane(h, [0, 0, 5], [0, 0, -10], 1, up, 0);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.toi).toBeCloseTo(0.4, 14);
    expectVec(h.point, [0, 0, 0]);
    expectVec(h.normal, [0, 0, 1]);
    sweptSpherePlane(h, [0, 0, 5], [3, 0, -8], 1, up, 0);
    expect(h.toi).toBeCloseTo(0.5, 14);
    expectVec(h.point, [1.5, 0, 0]);
  });
  it('tilted plane n·x = k', () => {
    const n: Vec3 = [Math.SQRT1_2, 0, Math.SQRT1_2];
    // plane through (1, 0, 1); centre at distance 3 along n from it, moving straight back
    const c: Vec3 = [1 + 3 * n[0], 0, 1 + 3 * n[2]];
    sweptSpherePlane(h, c, [-4 * n[0], 0, -4 * n[2]], 0.5, n, Math.SQRT2);
    expect(h.toi).toBeCloseTo(2.5 / 4, 14);
  });
  it('starting in contact or overlapping: toi 0', () => {
    sweptSpherePlane(h, [0, 0, 1], [0, 0, -1], 1, up, 0);
    expect(h.status).toBe(SweptStatus.InitiallyOverlapping);
    expect(h.toi).toBe(0);
    sweptSpherePlane(h, [0, 0, -3], [0, 0, 1], 1, up, 0);
    expect(h.status).toBe(SweptStatus.InitiallyOverlapping);
  });
  it('parallel, zero and receding motion: miss', () => {
    sweptSpherePlane(h, [0, 0, 5], [100, 0, 0], 1, up, 0);
    expect(h.status).toBe(SweptStatus.Miss);
    sweptSpherePlane(h, [0, 0, 5], [0, 0, 0], 1, up, 0);
    expect(h.status).toBe(SweptStatus.Miss);
    sweptSpherePlane(h, [0, 0, 5], [0, 0, 3], 1, up, 0);
    expect(h.status).toBe(SweptStatus.Miss);
    expect(h.toi).toBe(1);
  });
  it('reaching the plane exactly at the end of the step is a hit; just short is a miss', () => {
    sweptSpherePlane(h, [0, 0, 5], [0, 0, -4], 1, up, 0);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.toi).toBe(1);
    sweptSpherePlane(h, [0, 0, 5], [0, 0, -3.999], 1, up, 0);
    expect(h.status).toBe(SweptStatus.Miss);
  });
  it('bad input: Degenerate, never NaN', () => {
    sweptSpherePlane(h, [NaN, 0, 5], [0, 0, -4], 1, up, 0);
    expect(h.status).toBe(SweptStatus.Degenerate);
    sweptSpherePlane(h, [0, 0, 5], [0, 0, -4], -1, up, 0);
    expect(h.status).toBe(SweptStatus.Degenerate);
    expect(Number.isFinite(h.toi)).toBe(true);
  });
});

describe('moving sphere vs vertex (VertexIntersect)', () => {
  it('the earliest root of |C + tD − P|² = r²', () => {
    sweptSpherePoint(h, [-5, 0.6, 0], [10, 0, 0], 1, [0, 0, 0]);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.feature).toBe(SweptFeature.Vertex);
    expect(h.toi).toBeCloseTo(0.42, 14); // x = −0.8
    expectVec(h.normal, [-0.8, 0.6, 0]);
    expectVec(h.point, [0, 0, 0]);
  });
  it('grazing (discriminant 0) touches; a hair farther misses', () => {
    sweptSpherePoint(h, [-5, 1, 0], [10, 0, 0], 1, [0, 0, 0]);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.toi).toBeCloseTo(0.5, 14);
    expectVec(h.normal, [0, 1, 0]);
    sweptSpherePoint(h, [-5, 1 + 1e-9, 0], [10, 0, 0], 1, [0, 0, 0]);
    expect(h.status).toBe(SweptStatus.Miss);
  });
  it('starting inside: toi 0; zero motion or receding: miss', () => {
    sweptSpherePoint(h, [0.5, 0, 0], [10, 0, 0], 1, [0, 0, 0]);
    expect(h.status).toBe(SweptStatus.InitiallyOverlapping);
    expect(h.toi).toBe(0);
    expectVec(h.normal, [1, 0, 0]);
    sweptSpherePoint(h, [-5, 0, 0], [0, 0, 0], 1, [0, 0, 0]);
    expect(h.status).toBe(SweptStatus.Miss);
    sweptSpherePoint(h, [-5, 0, 0], [-1, 0, 0], 1, [0, 0, 0]);
    expect(h.status).toBe(SweptStatus.Miss);
  });
  it('a long motion keeps the earliest root accurate (no cancellation)', () => {
    // 1e4 m step, contact after 1e3 − 1 m: t = 0.0999
    sweptSpherePoint(h, [-1000, 0, 0], [1e4, 0, 0], 1, [0, 0, 0]);
    expect(h.toi).toBeCloseTo(999 / 1e4, 15);
  });
});

describe('moving sphere vs edge (EdgeIntersect)', () => {
  const p1: Vec3 = [0, -1, 0], p2: Vec3 = [0, 1, 0];
  it('lateral touch inside the segment', () => {
    sweptSphereSegment(h, [-3, 0.5, 0.3], [6, 0, 0], 0.5, p1, p2);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.feature).toBe(SweptFeature.Edge);
    expect(h.toi).toBeCloseTo(2.6 / 6, 14); // x = −0.4
    expectVec(h.point, [0, 0.5, 0]);
    expectVec(h.normal, [-0.8, 0, 0.6]);
  });
  it('beyond an end: the end vertex decides', () => {
    sweptSphereSegment(h, [-3, 1.3, 0], [6, 0, 0], 0.5, p1, p2);
    expect(h.feature).toBe(SweptFeature.Vertex);
    expect(h.toi).toBeCloseTo(2.6 / 6, 14);
    expectVec(h.point, [0, 1, 0]);
  });
  it('motion parallel to the edge: only the end vertex can be hit', () => {
    sweptSphereSegment(h, [0, -3, 0.4], [0, 6, 0], 0.5, p1, p2);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.feature).toBe(SweptFeature.Vertex);
    expect(h.toi).toBeCloseTo(1.7 / 6, 14); // y = −1.3
    sweptSphereSegment(h, [0.6, -3, 0], [0, 6, 0], 0.5, p1, p2);
    expect(h.status).toBe(SweptStatus.Miss);
  });
  it('grazing the line inside the segment', () => {
    sweptSphereSegment(h, [-3, 0, 0.5], [6, 0, 0], 0.5, p1, p2);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.toi).toBeCloseTo(0.5, 14);
    sweptSphereSegment(h, [-3, 0, 0.5 + 1e-9], [6, 0, 0], 0.5, p1, p2);
    expect(h.status).toBe(SweptStatus.Miss);
  });
  it('starting in contact: toi 0 with the normal from the nearest edge point', () => {
    sweptSphereSegment(h, [0, 0.2, 0.5], [6, 0, 0], 0.5, p1, p2);
    expect(h.status).toBe(SweptStatus.InitiallyOverlapping);
    expectVec(h.normal, [0, 0, 1]);
  });
  it('a zero-length edge is a vertex', () => {
    sweptSphereSegment(h, [-5, 0.6, 0], [10, 0, 0], 1, [0, 0, 0], [0, 0, 0]);
    expect(h.toi).toBeCloseTo(0.42, 14);
  });
});

describe('moving sphere vs triangle (face, then edges, then vertices)', () => {
  const a: Vec3 = [0, 0, 0], b: Vec3 = [2, 0, 0], c: Vec3 = [0, 2, 0];
  it('face from above and from below (two-sided)', () => {
    sweptSphereTriangle(h, [0.5, 0.5, 3], [0, 0, -4], 0.5, a, b, c);
    expect(h.feature).toBe(SweptFeature.Face);
    expect(h.toi).toBeCloseTo(2.5 / 4, 14);
    expectVec(h.normal, [0, 0, 1]);
    sweptSphereTriangle(h, [0.5, 0.5, -3], [0, 0, 4], 0.5, a, b, c);
    expect(h.toi).toBeCloseTo(2.5 / 4, 14);
    expectVec(h.normal, [0, 0, -1]);
  });
  it('edge and vertex when the face point falls outside', () => {
    // comes down beside the hypotenuse (x + y = 2): the edge decides
    sweptSphereTriangle(h, [1.5, 1.5, 3], [0, 0, -4], 0.5, a, b, c);
    // distance in the plane from (1.5,1.5) to the line is 1/√2 > 0.5: never touches
    expect(h.status).toBe(SweptStatus.Miss);
    sweptSphereTriangle(h, [1.25, 1.25, 3], [0, 0, -4], 0.5, a, b, c);
    expect(h.feature).toBe(SweptFeature.Edge);
    const off = 0.5 / Math.SQRT2; // in-plane distance from (1.25, 1.25) to x + y = 2
    const zc = Math.sqrt(0.25 - off * off);
    expect(h.toi).toBeCloseTo((3 - zc) / 4, 12);
    // corner b from outside
    sweptSphereTriangle(h, [2.3, -0.3, 3], [0, 0, -4], 0.5, a, b, c);
    expect(h.feature).toBe(SweptFeature.Vertex);
    expect(h.toi).toBeCloseTo((3 - Math.sqrt(0.25 - 0.18)) / 4, 12);
    expectVec(h.point, [2, 0, 0]);
  });
  it('parallel to the plane: a miss above the sheet, an edge hit when level with it', () => {
    sweptSphereTriangle(h, [-3, 0.5, 0.6], [6, 0, 0], 0.5, a, b, c);
    expect(h.status).toBe(SweptStatus.Miss);
    sweptSphereTriangle(h, [-3, 0.5, 0.3], [6, 0, 0], 0.5, a, b, c);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.feature).toBe(SweptFeature.Edge);
    expect(h.toi).toBeCloseTo((3 - 0.4) / 6, 12);
  });
  it('starting in contact with the face: toi 0', () => {
    sweptSphereTriangle(h, [0.5, 0.5, 0.5], [0, 0, 1], 0.5, a, b, c);
    expect(h.status).toBe(SweptStatus.InitiallyOverlapping);
    expect(h.toi).toBe(0);
  });
  it('a ray (radius 0) through the face, and past it', () => {
    sweptSphereTriangle(h, [0.5, 0.5, 1], [0, 0, -2], 0, a, b, c);
    expect(h.toi).toBeCloseTo(0.5, 14);
    sweptSphereTriangle(h, [1.5, 1.5, 1], [0, 0, -2], 0, a, b, c);
    expect(h.status).toBe(SweptStatus.Miss);
  });
  it('a zero-area triangle behaves as its edges', () => {
    sweptSphereTriangle(h, [1, 0.3, 3], [0, 0, -4], 0.5, a, b, [1, 0, 0]);
    expect(h.feature).toBe(SweptFeature.Edge);
    expect(h.toi).toBeCloseTo((3 - 0.4) / 4, 12);
  });
});

describe('two moving spheres (relative motion)', () => {
  it('head-on: distance 10 − 2 closed at 20 m per step', () => {
    sweptSphereSphere(h, [0, 0, 0], [10, 0, 0], 1, [10, 0, 0], [-10, 0, 0], 1);
    expect(h.status).toBe(SweptStatus.Hit);
    expect(h.toi).toBeCloseTo(0.4, 14);
    expectVec(h.normal, [-1, 0, 0]);
    expectVec(h.point, [5, 0, 0]);
  });
  it('equal motion never touches; overlapping start is toi 0', () => {
    sweptSphereSphere(h, [0, 0, 0], [10, 0, 0], 1, [3, 0, 0], [10, 0, 0], 1);
    expect(h.status).toBe(SweptStatus.Miss);
    sweptSphereSphere(h, [0, 0, 0], [10, 0, 0], 1, [1.5, 0, 0], [0, 0, 0], 1);
    expect(h.status).toBe(SweptStatus.InitiallyOverlapping);
  });
});

// ---- seeded oracle: triangles ----------------------------------------------------------------

/** Closest point of triangle ABC to P (Ericson, Real-Time Collision Detection §5.1.5), squared distance. */
function distSqPointTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): number {
  const sub = (u: Vec3, v: Vec3): Vec3 => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const dot = (u: Vec3, v: Vec3): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  let q: Vec3;
  if (d1 <= 0 && d2 <= 0) q = a;
  else {
    const bp = sub(p, b);
    const d3 = dot(ab, bp), d4 = dot(ac, bp);
    const cp = sub(p, c);
    const d5 = dot(ab, cp), d6 = dot(ac, cp);
    const vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) q = b;
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) { const v = d1 / (d1 - d3); q = [a[0] + v * ab[0], a[1] + v * ab[1], a[2] + v * ab[2]]; }
    else if (d6 >= 0 && d5 <= d6) q = c;
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) { const w = d2 / (d2 - d6); q = [a[0] + w * ac[0], a[1] + w * ac[1], a[2] + w * ac[2]]; }
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
      q = [b[0] + w * (c[0] - b[0]), b[1] + w * (c[1] - b[1]), b[2] + w * (c[2] - b[2])];
    } else {
      const denom = 1 / (va + vb + vc);
      const v = vb * denom, w = vc * denom;
      q = [a[0] + ab[0] * v + ac[0] * w, a[1] + ab[1] * v + ac[1] * w, a[2] + ab[2] * v + ac[2] * w];
    }
  }
  const d = sub(p, q);
  return dot(d, d);
}

describe('sphere vs triangle: seeded oracle (dense path sampling + bisection)', () => {
  it('2,000 random triangles and motions agree with the first sampled touch', () => {
    const rng = new Rng(15015);
    const SAMPLES = 400;
    let hits = 0, checked = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const rv = (s: number): Vec3 => [rng.range(-s, s), rng.range(-s, s), rng.range(-s, s)];
      const a = rv(1), b = rv(1), c = rv(1);
      const r = rng.next() < 0.1 ? 0.01 : rng.range(0.05, 0.6);
      const start = rv(3);
      // aim at a random point of the triangle's neighbourhood so that about half hit
      const u = rng.next(), v = rng.next() * (1 - u);
      const target: Vec3 = [0, 1, 2].map((k) => a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]) + rng.range(-0.7, 0.7)) as Vec3;
      const d: Vec3 = [0, 1, 2].map((k) => (target[k] - start[k]) * rng.range(0.5, 2)) as Vec3;
      const at = (t: number): Vec3 => [start[0] + t * d[0], start[1] + t * d[1], start[2] + t * d[2]];
      const gap = (t: number): number => Math.sqrt(distSqPointTriangle(at(t), a, b, c)) - r;
      let first = -1, minGap = Infinity;
      for (let s = 0; s <= SAMPLES; s++) {
        const g = gap(s / SAMPLES);
        minGap = Math.min(minGap, g);
        if (g <= 0 && first < 0) first = s;
      }
      sweptSphereTriangle(h, start, d, r, a, b, c);
      if (Math.abs(minGap) < 1e-3) continue; // grazing within the sampling's resolution: not decidable here
      checked++;
      if (first < 0) {
        expect(h.status, `trial ${trial}: oracle misses`).toBe(SweptStatus.Miss);
        continue;
      }
      hits++;
      expect(h.touched, `trial ${trial}: oracle hits at sample ${first}`).toBe(true);
      let lo = first === 0 ? 0 : (first - 1) / SAMPLES, hi = first / SAMPLES;
      if (first === 0) {
        expect(h.toi).toBe(0);
        continue;
      }
      for (let it = 0; it < 60; it++) {
        const mid = 0.5 * (lo + hi);
        if (gap(mid) <= 0) hi = mid;
        else lo = mid;
      }
      expect(Math.abs(h.toi - hi), `trial ${trial}`).toBeLessThan(1e-9);
      // the reported point is on the triangle and r from the centre at toi
      expect(Math.sqrt(distSqPointTriangle(h.point, a, b, c))).toBeLessThan(1e-9);
      const ct = at(h.toi);
      const dn = Math.hypot(ct[0] - h.point[0], ct[1] - h.point[1], ct[2] - h.point[2]);
      expect(Math.abs(dn - r)).toBeLessThan(1e-9);
      for (let k = 0; k < 3; k++) expect(h.normal[k] * r).toBeCloseTo(ct[k] - h.point[k], 8);
    }
    expect(checked).toBeGreaterThan(1800);
    expect(hits).toBeGreaterThan(500);
    expect(checked - hits).toBeGreaterThan(500);
  });
});
