/**
 * collideShapeHeightfield with a compound's clearance (its children as polytopes): a box or hull
 * child provably clear of the terrain is skipped, and the contacts are exactly those of the
 * unskipped query (seeded poses over bumpy terrain, from touching to clear), while a child that
 * touches is never skipped. With polytopeMaxCells, box and hull children take the closed-form
 * polytope–terrain routine: every overlap the general routine finds is found, at about its depth.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { CollideWorkspace, collideShapeHeightfield } from '../../../sim/collision/dispatcher';
import { Polytope, PolytopeTerrainWorkspace } from '../../../sim/collision/polytope-terrain';
import { quatFromAxisAngle, quatNormalize } from '../../../sim/math/quat';
import type { Quat } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import { BoxShape } from '../../../sim/shapes/box';
import { CompoundShape } from '../../../sim/shapes/compound';
import { SphereShape } from '../../../sim/shapes/sphere';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';

function bumpy(): Heightfield {
  const n = 61, d = 0.05;
  const h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 0.04 * Math.sin(i * 0.5) * Math.cos(j * 0.37) + 0.01 * Math.sin(i * 1.7 + j);
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -1.5, y0: -1.5, heights: h });
}

/** A hull of 40 seeded points on an ellipsoid (a mesh-like chassis part). */
function blobHull(): ConvexHullShape {
  const rng = new Rng(5);
  const pts: number[] = [];
  for (let k = 0; k < 40; k++) {
    const u = rng.range(-1, 1), t = rng.range(0, 2 * Math.PI), r = Math.sqrt(1 - u * u);
    pts.push(0.3 * r * Math.cos(t), 0.2 * r * Math.sin(t), 0.06 * u);
  }
  const h = buildConvexHull(pts);
  if (!h.data) throw new Error(h.message);
  return new ConvexHullShape(h.data);
}

describe('collideShapeHeightfield: compound children clear of the terrain are skipped', () => {
  const hf = bumpy();
  // a chassis-like compound: a low hull, a higher box, a sphere caster below
  const comp = new CompoundShape([
    { shape: blobHull(), position: [0, 0, 0], orientation: [0, 0, 0, 1] },
    { shape: new BoxShape([0.1, 0.1, 0.05]), position: [0.1, 0, 0.2], orientation: quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], 0.3) },
    { shape: new SphereShape(0.03), position: [-0.25, 0, -0.08], orientation: [0, 0, 0, 1] },
  ]);
  // polytopeMaxCells 0: every child that is not skipped takes the general routine
  const clearance = { polytopes: comp.children.map((c) => Polytope.of(c.shape)), ws: new PolytopeTerrainWorkspace(), polytopeMaxCells: 0 };

  it('gives exactly the contacts of the full query, over 300 seeded poses from touching to clear', () => {
    const rng = new Rng(77);
    const a = new ContactBuffer(256), b = new ContactBuffer(256);
    const wsA = new CollideWorkspace(), wsB = new CollideWorkspace();
    let touching = 0, clear = 0;
    for (let k = 0; k < 300; k++) {
      const q = quatNormalize([0, 0, 0, 1], [rng.range(-0.15, 0.15), rng.range(-0.15, 0.15), rng.range(-1, 1), 1] as Quat);
      const p: [number, number, number] = [rng.range(-0.8, 0.8), rng.range(-0.8, 0.8), rng.range(0.02, 0.25)];
      const margin = rng.range(0.005, 0.02);
      a.clear();
      b.clear();
      const sa = collideShapeHeightfield(a, comp, { position: p, orientation: q }, hf, margin, wsA);
      const sb = collideShapeHeightfield(b, comp, { position: p, orientation: q }, hf, margin, wsB, clearance);
      expect(sb).toBe(sa);
      expect(b.count).toBe(a.count);
      for (let i = 0; i < a.count; i++) {
        expect(b.depth[i]).toBe(a.depth[i]);
        for (let c = 0; c < 3; c++) {
          expect(b.point[3 * i + c]).toBe(a.point[3 * i + c]);
          expect(b.normal[3 * i + c]).toBe(a.normal[3 * i + c]);
        }
      }
      if (a.count > 0) touching++;
      else clear++;
    }
    // both regimes are exercised
    expect(touching).toBeGreaterThan(30);
    expect(clear).toBeGreaterThan(30);
  });

  it('with polytopeMaxCells, its box and hull children take the closed-form routine: every overlap found, resting depths within 0.5 mm', () => {
    const closed = { ...clearance, polytopeMaxCells: 32 };
    const rng = new Rng(78);
    const a = new ContactBuffer(256), b = new ContactBuffer(256);
    const wsA = new CollideWorkspace(), wsB = new CollideWorkspace();
    const deepest = (buf: ContactBuffer): number => {
      let d = -Infinity;
      for (let i = 0; i < buf.count; i++) d = Math.max(d, buf.depth[i]);
      return d;
    };
    let overlaps = 0, missed = 0, resting = 0, close = 0;
    for (let k = 0; k < 300; k++) {
      const q = quatNormalize([0, 0, 0, 1], [rng.range(-0.15, 0.15), rng.range(-0.15, 0.15), rng.range(-1, 1), 1] as Quat);
      const x = rng.range(-0.8, 0.8), y = rng.range(-0.8, 0.8);
      // the height at which the general routine first finds an overlap, then 1 cm into to 1 cm above it
      let lo = -0.3, hi = 0.4;
      for (let it = 0; it < 14; it++) {
        const mid = 0.5 * (lo + hi);
        a.clear();
        collideShapeHeightfield(a, comp, { position: [x, y, mid], orientation: q }, hf, 0.01, wsA);
        if (deepest(a) > 0) lo = mid;
        else hi = mid;
      }
      const p: [number, number, number] = [x, y, hi + rng.range(-0.01, 0.01)];
      a.clear();
      b.clear();
      const sa = collideShapeHeightfield(a, comp, { position: p, orientation: q }, hf, 0.01, wsA);
      const sb = collideShapeHeightfield(b, comp, { position: p, orientation: q }, hf, 0.01, wsB, closed);
      expect(sb).toBe(sa);
      for (let i = 0; i < b.count; i++) {
        expect(b.depth[i]).toBeGreaterThan(-0.01);
        expect(b.normal[3 * i + 2]).toBeGreaterThan(0);
      }
      const da = deepest(a), db = deepest(b);
      if (da > 0.001) {
        overlaps++;
        if (!(db > 0)) missed++;
      }
      if (da > -0.002 && da < 0.005) {
        resting++;
        if (Math.abs(db - da) <= 0.0005) close++;
      }
    }
    const tally = `overlaps ${overlaps}, missed ${missed}, ${close} of ${resting} resting poses within 0.5 mm`;
    expect(overlaps, tally).toBeGreaterThan(30);
    expect(missed, tally).toBe(0);
    expect(resting, tally).toBeGreaterThan(30);
    expect(close / resting, tally).toBeGreaterThan(0.9); // the rest: depth along the element's normal against the face's
  });
});
