/**
 * The edge pass's neighbour gate (collide.ts, narrowPhase; edge-pass.ts, markUpperMeets and
 * upperMayMeet): a cell's bottom and left edges are tested only if the element on their other
 * side, the upper element of the cell below or to the left, may meet the cylinder. The skip must
 * never drop an edge that pokes in. Reference: after each query, every bottom and left edge of the
 * range whose neighbour upperMayMeet rules out is sampled densely (independently of edge-pass.ts)
 * and must have no point inside the cylinder.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { EdgePass, markUpperMeets, resetEdgePass, upperMayMeet } from '../../../sim/collision/cylinder-terrain/edge-pass';
import { CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import { Rng } from '../../../sim/math/random';
import { fractalTerrain, randomCurbs } from '../../../sim/terrain/generate';
import { add, dot, type V3 } from './helpers';

const grid = { cols: 97, dx: 0.05 };
const hf = fractalTerrain({
  ...grid,
  seed: 41,
  amplitude: 0.4,
  roughness: 0.5,
  curbs: randomCurbs(grid, { seed: 42, count: 8, height: 0.1, margin: 0.6 }),
});
const POSES = 300;
const SAMPLES = 64;

/** min(h/2 − |z|, r − ρ) at p: positive inside the cylinder. */
function depthAt(c: V3, v: V3, r: number, hh: number, p: V3): number {
  const d: V3 = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
  const z = dot(d, v);
  const rad = add(d, v, -z);
  return Math.min(hh - Math.abs(z), r - Math.hypot(rad[0], rad[1], rad[2]));
}

/** Deepest sampled point of the grid edge from vertex (ia, ja) to (ib, jb). */
function edgeDepth(c: V3, v: V3, r: number, hh: number, ia: number, ja: number, ib: number, jb: number): number {
  const a: V3 = [hf.x0 + ia * hf.dx, hf.y0 + ja * hf.dy, hf.heights[ja * hf.cols + ia]];
  const b: V3 = [hf.x0 + ib * hf.dx, hf.y0 + jb * hf.dy, hf.heights[jb * hf.cols + ib]];
  let best = -Infinity;
  for (let k = 0; k <= SAMPLES; k++) best = Math.max(best, depthAt(c, v, r, hh, add(a, [b[0] - a[0], b[1] - a[1], b[2] - a[2]], k / SAMPLES)));
  return best;
}

describe('edge pass neighbour gate', () => {
  it('upperMayMeet: true outside the range, else only for the cells marked in this query', () => {
    const ep = new EdgePass();
    resetEdgePass(ep, 10, 20, 14);
    markUpperMeets(ep, 12, 21);
    markUpperMeets(ep, 14, 20);
    expect(upperMayMeet(ep, 12, 21)).toBe(true);
    expect(upperMayMeet(ep, 14, 20)).toBe(true);
    expect(upperMayMeet(ep, 13, 21)).toBe(false);
    expect(upperMayMeet(ep, 12, 20)).toBe(false);
    expect(upperMayMeet(ep, 10, 20)).toBe(false);
    expect(upperMayMeet(ep, 9, 21)).toBe(true); // left of the range
    expect(upperMayMeet(ep, 12, 19)).toBe(true); // below it
    resetEdgePass(ep, 10, 20, 14); // the next query forgets
    expect(upperMayMeet(ep, 12, 21)).toBe(false);
  });

  it('never skips an edge with a point inside the cylinder (dense sampling, 300 seeded wheels)', () => {
    const rng = new Rng(20261124);
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(64);
    let skipped = 0, near = 0, marked = 0;
    for (let n = 0; n < POSES; n++) {
      const r = rng.range(0.1, 0.35), hh = rng.range(0.04, 0.15);
      const x = rng.range(hf.x0 + 0.6, hf.x0 + hf.cellsX * hf.dx - 0.6), y = rng.range(hf.y0 + 0.6, hf.y0 + hf.cellsY * hf.dy - 0.6);
      const yaw = rng.range(0, 2 * Math.PI), roll = rng.range(-0.2, 0.2);
      const v: V3 = [-Math.sin(yaw) * Math.cos(roll), Math.cos(yaw) * Math.cos(roll), Math.sin(roll)];
      const c: V3 = [x, y, hf.heightAt(x, y) + r - rng.range(0, 0.08)];
      out.clear();
      collideCylinderTerrainInto(out, c, v, { radius: r, halfHeight: hh }, hf, ws);
      if (ws.flatPatch) continue;
      const ep = ws.edgePass, cr = ws.cellRange;
      for (let j = cr.j0; j <= cr.j1; j++) {
        for (let i = cr.i0; i <= cr.i1; i++) {
          if (upperMayMeet(ep, i, j)) marked++;
          // Bottom edge of (i, j) against the cell below, left edge against the cell to the left.
          if (!upperMayMeet(ep, i, j - 1)) {
            skipped++;
            const d = edgeDepth(c, v, r, hh, i, j, i + 1, j);
            if (d > -0.02) near++;
            expect(d, `pose ${n}: bottom edge of cell (${i}, ${j}) is inside`).toBeLessThanOrEqual(1e-12);
          }
          if (!upperMayMeet(ep, i - 1, j)) {
            skipped++;
            const d = edgeDepth(c, v, r, hh, i, j, i, j + 1);
            if (d > -0.02) near++;
            expect(d, `pose ${n}: left edge of cell (${i}, ${j}) is inside`).toBeLessThanOrEqual(1e-12);
          }
        }
      }
    }
    // The check is not empty: many cells are marked, many edges ruled out, many of them close.
    expect(marked).toBeGreaterThan(POSES * 10);
    expect(skipped).toBeGreaterThan(POSES * 20);
    expect(near).toBeGreaterThan(POSES * 2);
  });
});
