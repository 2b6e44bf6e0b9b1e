/**
 * The second pass's deepest point of a terrain edge inside the cylinder (edge-pass.ts, edgePoke):
 * max over the edge of min(l1, l2), l1 = h/2 − |z| to the nearer base, l2 = r − ρ to the side.
 * Reference: that function sampled densely along the edge and refined by golden section (it is
 * concave), for seeded edges and cylinders. Most poses are built so that the edge passes near a
 * base plane, with the axis nearly parallel to the edge or to the base, and with bases both
 * wider and narrower than the radius: there the maximum is at the crossing l1 = l2, at z = 0 or
 * at an end, the base-limited branch that the benchmark's poses meet ten times per query.
 */
import { describe, expect, it } from 'vitest';
import { EdgePass, edgePoke, resetEdgePass } from '../../../sim/collision/cylinder-terrain/edge-pass';
import { CylinderQuery } from '../../../sim/collision/cylinder-terrain/frame';
import { Rng } from '../../../sim/math/random';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { add, cross, dot, norm, type V3 } from './helpers';

const SAMPLES = 2001;
const GOLDEN_STEPS = 80;
const GOLDEN = (Math.sqrt(5) - 1) / 2;
/**
 * [m] Depth against the reference: 2 nm. By design edgePoke keeps the point nearest the axis
 * when the maximum elsewhere is less than the tie tolerance (1 nm) deeper (an edge parallel to a
 * base), and the reference's own round-off is far below that.
 */
const TOLERANCE = 2e-9;

interface Pose {
  c: V3;
  v: V3;
  r: number;
  hh: number;
}

/** min(l1, l2) of point p: how deep it is inside the cylinder (negative outside). */
function depthAt(s: Pose, p: V3): number {
  const d: V3 = [p[0] - s.c[0], p[1] - s.c[1], p[2] - s.c[2]];
  const z = dot(d, s.v);
  const rad = add(d, s.v, -z);
  return Math.min(s.hh - Math.abs(z), s.r - Math.hypot(rad[0], rad[1], rad[2]));
}

/** Max of depthAt along a→b: dense scan, then golden section around the best sample. */
function bruteMax(s: Pose, a: V3, b: V3): number {
  const at = (t: number): number => depthAt(s, add(a, [b[0] - a[0], b[1] - a[1], b[2] - a[2]], t));
  let best = -Infinity, bk = 0;
  for (let k = 0; k < SAMPLES; k++) {
    const f = at(k / (SAMPLES - 1));
    if (f > best) { best = f; bk = k; }
  }
  let lo = Math.max(0, (bk - 1) / (SAMPLES - 1)), hi = Math.min(1, (bk + 1) / (SAMPLES - 1));
  for (let it = 0; it < GOLDEN_STEPS; it++) {
    const m1 = hi - GOLDEN * (hi - lo), m2 = lo + GOLDEN * (hi - lo);
    if (at(m1) < at(m2)) lo = m1; else hi = m2;
  }
  return Math.max(best, at(0.5 * (lo + hi)));
}

/** A unit vector perpendicular to v. */
function perpendicular(v: V3, rng: Rng): V3 {
  const t: V3 = norm([rng.gaussian(), rng.gaussian(), rng.gaussian()]);
  return norm(cross(v, t));
}

describe('edgePoke: the deepest point of a terrain edge inside the cylinder', () => {
  it('matches a dense scan of min(h/2 − |z|, r − ρ) along the edge, 6,000 seeded edges', () => {
    const rng = new Rng(20261121);
    const q = new CylinderQuery();
    const ep = new EdgePass();
    let inside = 0, baseLimited = 0, interior = 0, worst = 0;
    for (let n = 0; n < 6000; n++) {
      // One cell, 2 × 2 vertices: the edge is V0→V1 (bottom), V0→V2 (left) or V1→V2 (diagonal).
      const dx = rng.range(0.02, 0.2), dy = rng.range(0.02, 0.2);
      const heights = [rng.range(-0.1, 0.1), rng.range(-0.1, 0.1), rng.range(-0.1, 0.1), rng.range(-0.1, 0.1)];
      const hf = Heightfield.fromArray({ cols: 2, rows: 2, dx, dy, x0: rng.range(-1, 1), y0: rng.range(-1, 1), heights });
      const vert = (i: number, j: number): V3 => [hf.x0 + i * dx, hf.y0 + j * dy, heights[j * 2 + i]];
      const which = rng.int(0, 2);
      const [ia, ja, ib, jb] = which === 0 ? [0, 0, 1, 0] : which === 1 ? [0, 0, 0, 1] : [1, 0, 0, 1];
      const a = vert(ia, ja), b = vert(ib, jb);
      const e = norm([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
      const r = rng.range(0.05, 0.4);
      const hh = rng.next() < 0.5 ? rng.range(0.2, 1) * r : rng.range(1, 3) * r;
      let v: V3;
      const style = rng.int(0, 3);
      if (style === 0) v = norm([rng.gaussian(), rng.gaussian(), rng.gaussian()]); // any axis
      else if (style === 1) v = norm(add(e, [rng.gaussian(), rng.gaussian(), rng.gaussian()], 0.05)); // nearly along the edge
      else v = norm(add(perpendicular(e, rng), [rng.gaussian(), rng.gaussian(), rng.gaussian()], style === 2 ? 0.05 : 1e-7)); // edge nearly parallel to the bases
      // The centre: a point of the edge's line, moved along the axis to near a base and sideways
      // within the radius.
      const p = add(a, [b[0] - a[0], b[1] - a[1], b[2] - a[2]], rng.range(-0.3, 1.3));
      const z = (rng.next() < 0.5 ? -1 : 1) * hh * rng.range(0.6, 1.05);
      const side = perpendicular(v, rng);
      const c = add(add(p, v, -z), side, rng.range(-1, 1) * r);
      const s: Pose = { c, v, r, hh };
      q.set(c, v, { radius: r, halfHeight: hh }, hf);
      resetEdgePass(ep, 0, 0, 0);
      const hit = edgePoke(ep, q, hf, ia, ja, ib, jb);
      const ref = bruteMax(s, a, b);
      if (ref > 1e-9) {
        expect(hit, `edge ${n}: reference depth ${ref}, edgePoke found none`).toBe(true);
      }
      if (ref < -1e-9) expect(hit, `edge ${n}: outside (reference ${ref}), edgePoke found a poke`).toBe(false);
      if (!hit) continue;
      // The poke: its depth is the reference maximum and its point (as edgeContact places it) is that deep.
      if (!(ep.depth > 0)) continue; // depth 0 within round-off: edgeContact emits nothing
      inside++;
      const depth = ep.depth;
      const point: V3 = [ep.x0 + ep.t * (ep.x1 - ep.x0), ep.y0 + ep.t * (ep.y1 - ep.y0), ep.z0 + ep.t * (ep.z1 - ep.z0)];
      const err = Math.abs(depth - ref);
      worst = Math.max(worst, err);
      expect(err, `edge ${n}: depth ${depth}, reference ${ref}`).toBeLessThan(TOLERANCE);
      expect(Math.abs(depthAt(s, point) - depth), `edge ${n}: the point is not as deep as reported`).toBeLessThan(1e-9);
      const d: V3 = [point[0] - c[0], point[1] - c[1], point[2] - c[2]];
      const zt = dot(d, v);
      const rad = add(d, v, -zt);
      const l1 = hh - Math.abs(zt), l2 = r - Math.hypot(rad[0], rad[1], rad[2]);
      if (l1 <= l2 + 1e-9) baseLimited++;
      const ta = Math.hypot(point[0] - a[0], point[1] - a[1], point[2] - a[2]) / Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      if (ta > 1e-6 && ta < 1 - 1e-6) interior++;
    }
    // The poses reach the branches this test is for.
    expect(inside).toBeGreaterThan(2000);
    expect(baseLimited).toBeGreaterThan(300);
    expect(interior).toBeGreaterThan(300);
    expect(worst).toBeLessThan(TOLERANCE);
  });
});
