/**
 * Face clipping skips the manifold reduction for 3 or 4 clipped points when reducerKeepsAll
 * (sim/collision/manifold/clip-faces.ts) proves the reducer would keep them all. Pinned here:
 * whenever it says so, reduceManifoldInPlace really leaves the points as they are (seeded random
 * triangles and quads of one normal, from well spread to degenerate: slivers around the line
 * contact width, collinear points, a point inside the triangle of the others, near-duplicates),
 * and it does say so for ordinary spread-out clips (else the fast path would never run).
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { reducerKeepsAll } from '../../../sim/collision/manifold/clip-faces';
import { ManifoldGroups, reduceManifoldInPlace } from '../../../sim/collision/reduce-manifold';
import { MANIFOLD_LINE_CONTACT_DISTANCE } from '../../../sim/constants';
import { Rng } from '../../../sim/math/random';

type P3 = [number, number, number];

/** An orthonormal frame (u, v, n) from a random unit normal n. */
function frame(rng: Rng): { u: P3; v: P3; n: P3 } {
  const g = (): number => rng.gaussian();
  let n: P3 = [g(), g(), g()];
  let l = Math.hypot(...n);
  n = [n[0] / l, n[1] / l, n[2] / l];
  const a: P3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  let u: P3 = [a[1] * n[2] - a[2] * n[1], a[2] * n[0] - a[0] * n[2], a[0] * n[1] - a[1] * n[0]];
  l = Math.hypot(...u);
  u = [u[0] / l, u[1] / l, u[2] / l];
  const v: P3 = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  return { u, v, n };
}

/** Planar points (x, y) with an out-of-plane offset z (an incident face tilted against n), depths from z. */
function buffer(pts2: readonly (readonly [number, number, number])[], f: { u: P3; v: P3; n: P3 }): ContactBuffer {
  const b = new ContactBuffer(16);
  for (const [x, y, z] of pts2) {
    const p = [0, 1, 2].map((i) => 0.3 + x * f.u[i] + y * f.v[i] + z * f.n[i]);
    b.push(p[0], p[1], p[2], f.n[0], f.n[1], f.n[2], 0.01 - z, 1, -1, -1, 0);
  }
  return b;
}

/** Seeded shapes of 3 or 4 points, from well spread to degenerate. */
function shape(rng: Rng, family: number): [number, number, number][] {
  const L = MANIFOLD_LINE_CONTACT_DISTANCE;
  const s = rng.range(0.01, 1);
  const z = (): number => rng.range(-0.01, 0.01) * (family === 0 ? 1 : 0.1);
  switch (family) {
    case 0: { // random convex quad (a box face clipped by a box face), tilted
      const t0 = rng.range(0, 2 * Math.PI);
      return [0, 1, 2, 3].map((k) => {
        const t = t0 + (k * Math.PI) / 2 + rng.range(-0.6, 0.6);
        const r = s * rng.range(0.3, 1);
        return [r * Math.cos(t), r * Math.sin(t), z()];
      });
    }
    case 1: { // sliver: a thin triangle or quad whose width is around the line contact distance
      const w = L * rng.range(0.2, 4);
      const pts: [number, number, number][] = [[0, 0, z()], [s, 0, z()], [rng.range(0, s), w, z()]];
      if (rng.next() < 0.5) pts.push([rng.range(0, s), w * rng.range(0, 1), z()]);
      return pts;
    }
    case 2: { // collinear or nearly so
      const pts: [number, number, number][] = [];
      const n = rng.next() < 0.5 ? 3 : 4;
      for (let k = 0; k < n; k++) pts.push([s * rng.range(-1, 1), L * rng.range(-0.1, 0.1), z()]);
      return pts;
    }
    case 3: { // one point inside (or just outside) the triangle of the others
      const a: [number, number, number] = [0, 0, z()], b: [number, number, number] = [s, 0, z()], c: [number, number, number] = [s * rng.range(0, 1), s, z()];
      const l0 = rng.range(-0.02, 0.5), l1 = rng.range(-0.02, 0.5);
      const q: [number, number, number] = [l0 * b[0] + l1 * c[0], l1 * c[1], z()];
      const pts = [a, b, c];
      pts.splice(rng.int(0, 3), 0, q);
      return pts;
    }
    default: { // near-duplicate points
      const pts: [number, number, number][] = [[0, 0, z()], [s, 0, z()], [s, s, z()], [0, s, z()]];
      const k = rng.int(0, 3);
      pts[k] = [pts[(k + 1) % 4][0] + L * rng.range(-2, 2), pts[(k + 1) % 4][1] + L * rng.range(-2, 2), z()];
      return pts.slice(0, rng.next() < 0.3 ? 3 : 4);
    }
  }
}

describe('face clipping: skipping the reduction of 3 or 4 points', () => {
  it('whenever reducerKeepsAll says so, the reducer keeps every point in place (5 families × 2,000 seeded cases)', () => {
    const rng = new Rng(1201);
    const groups = new ManifoldGroups(16, 1);
    const taken = [0, 0, 0, 0, 0];
    for (let family = 0; family < 5; family++) {
      for (let i = 0; i < 2000; i++) {
        const f = frame(rng);
        const pts = shape(rng, family);
        const buf = buffer(pts, f);
        const n = buf.count;
        if (!reducerKeepsAll(buf, 0, n, f.n[0], f.n[1], f.n[2])) continue;
        taken[family]++;
        const before = Array.from(buf.point.subarray(0, 3 * n));
        reduceManifoldInPlace(buf, 0, groups);
        expect(buf.count, `family ${family}, case ${i}: ${JSON.stringify(pts)}`).toBe(n);
        expect(Array.from(buf.point.subarray(0, 3 * n))).toEqual(before);
      }
    }
    // Ordinary clips take the fast path; the degenerate families fall back to the reducer often.
    expect(taken[0]).toBeGreaterThan(1900);
    expect(taken[2]).toBe(0);
    expect(taken[3]).toBeLessThan(2000);
  });

  it('a point inside the triangle of the other three goes to the reducer (it would be dropped)', () => {
    const f = { u: [1, 0, 0] as P3, v: [0, 1, 0] as P3, n: [0, 0, 1] as P3 };
    const buf = buffer([[0, 0, 0], [1, 0, 0], [0.3, 0.3, 0], [0, 1, 0]], f);
    expect(reducerKeepsAll(buf, 0, 4, 0, 0, 1)).toBe(false);
    reduceManifoldInPlace(buf, 0, new ManifoldGroups(16, 1));
    expect(buf.count).toBe(3);
  });

  it('a box face clipped to its 4 corners takes the fast path, wound either way', () => {
    const f = { u: [1, 0, 0] as P3, v: [0, 1, 0] as P3, n: [0, 0, 1] as P3 };
    expect(reducerKeepsAll(buffer([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], f), 0, 4, 0, 0, 1)).toBe(true);
    expect(reducerKeepsAll(buffer([[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]], f), 0, 4, 0, 0, 1)).toBe(true);
    // Self-intersecting order (a bow tie) is not a convex quadrilateral: the reducer decides.
    expect(reducerKeepsAll(buffer([[0, 0, 0], [1, 1, 0], [1, 0, 0], [0, 1, 0]], f), 0, 4, 0, 0, 1)).toBe(false);
  });
});
