/**
 * The edge pass's gates (collide.ts, narrowPhase and edgeMayAdd; edge-pass.ts, markUpperMeets and
 * upperMeets).
 *  - Neighbour gate: a cell's bottom and left edges are tested only if the element on their other
 *    side, the upper element of the cell below or to the left, may meet the cylinder. The skip
 *    must never drop an edge that pokes in. Reference: after each query, every bottom and left
 *    edge of the range whose neighbour upperMeets rules out is sampled densely (independently of
 *    edge-pass.ts) and must have no point inside the cylinder.
 *  - Gently convex edges between two faces with the cylinder's centre above both planes are not
 *    tested: their contact would add nothing. Reference: every such edge (found from the heights
 *    and the edge classes, not from the query's state) is sampled densely, and each point inside
 *    the cylinder must be covered for both faces, as the completeness oracle covers an element:
 *    a reported contact whose normal is within twice the grouping angle of the face's and whose
 *    depth reaches the cylinder's extent below the point along the face normal (found by
 *    bisection), or one that moves the wheel off the point along its own normal.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { EdgePass, markUpperMeets, resetEdgePass, UpperMeet, upperMeets } from '../../../sim/collision/cylinder-terrain/edge-pass';
import { CellEdge, EdgeClass } from '../../../sim/terrain/edge-class';
import { CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import { MANIFOLD_GROUP_ANGLE } from '../../../sim/constants';
import { Rng } from '../../../sim/math/random';
import { fractalTerrain, randomCurbs } from '../../../sim/terrain/generate';
import { add, cross, dot, norm, type V3 } from './helpers';

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

/** A seeded wheel over the terrain: radius, half width, centre 0–8 cm into the ground, axis tilted up to ±maxTilt [rad] from the horizontal. */
function randomWheel(rng: Rng, maxTilt: number): { r: number; hh: number; c: V3; v: V3 } {
  const r = rng.range(0.1, 0.35), hh = rng.range(0.04, 0.15);
  const x = rng.range(hf.x0 + 0.6, hf.x0 + hf.cellsX * hf.dx - 0.6), y = rng.range(hf.y0 + 0.6, hf.y0 + hf.cellsY * hf.dy - 0.6);
  const yaw = rng.range(0, 2 * Math.PI), tilt = rng.range(-maxTilt, maxTilt);
  const v: V3 = [-Math.sin(yaw) * Math.cos(tilt), Math.cos(yaw) * Math.cos(tilt), Math.sin(tilt)];
  const c: V3 = [x, y, hf.heightAt(x, y) + r - rng.range(0, 0.08)];
  return { r, hh, c, v };
}

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
  it('upperMeets: Meets outside the range, else only the cells marked in this query, with their centre flag', () => {
    const ep = new EdgePass();
    resetEdgePass(ep, 10, 20, 14);
    markUpperMeets(ep, 12, 21, false);
    markUpperMeets(ep, 14, 20, true);
    expect(upperMeets(ep, 12, 21)).toBe(UpperMeet.Meets);
    expect(upperMeets(ep, 14, 20)).toBe(UpperMeet.CentreAbove);
    expect(upperMeets(ep, 13, 21)).toBe(UpperMeet.Apart);
    expect(upperMeets(ep, 12, 20)).toBe(UpperMeet.Apart);
    expect(upperMeets(ep, 10, 20)).toBe(UpperMeet.Apart);
    expect(upperMeets(ep, 9, 21)).toBe(UpperMeet.Meets); // left of the range
    expect(upperMeets(ep, 12, 19)).toBe(UpperMeet.Meets); // below it
    resetEdgePass(ep, 10, 20, 14); // the next query forgets
    expect(upperMeets(ep, 12, 21)).toBe(UpperMeet.Apart);
    expect(upperMeets(ep, 14, 20)).toBe(UpperMeet.Apart);
  });

  it('never skips an edge with a point inside the cylinder (dense sampling, 300 seeded wheels)', () => {
    const rng = new Rng(20261124);
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(64);
    let skipped = 0, near = 0, marked = 0;
    for (let n = 0; n < POSES; n++) {
      const { r, hh, c, v } = randomWheel(rng, 0.2);
      out.clear();
      collideCylinderTerrainInto(out, c, v, { radius: r, halfHeight: hh }, hf, ws);
      if (ws.flatPatch) continue;
      const ep = ws.edgePass, cr = ws.cellRange;
      for (let j = cr.j0; j <= cr.j1; j++) {
        for (let i = cr.i0; i <= cr.i1; i++) {
          if (upperMeets(ep, i, j) !== UpperMeet.Apart) marked++;
          // Bottom edge of (i, j) against the cell below, left edge against the cell to the left.
          if (upperMeets(ep, i, j - 1) === UpperMeet.Apart) {
            skipped++;
            const d = edgeDepth(c, v, r, hh, i, j, i + 1, j);
            if (d > -0.02) near++;
            expect(d, `pose ${n}: bottom edge of cell (${i}, ${j}) is inside`).toBeLessThanOrEqual(1e-12);
          }
          if (upperMeets(ep, i - 1, j) === UpperMeet.Apart) {
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

  it('a skipped gently convex edge is covered by the contacts of both its faces (24 samples per edge, 120 cambered wheels)', () => {
    const rng = new Rng(20261125);
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(64);
    const cone = Math.cos(2 * MANIFOLD_GROUP_ANGLE), tol = 5e-5;
    const vertex = (i: number, j: number): V3 => [hf.x0 + i * hf.dx, hf.y0 + j * hf.dy, hf.heights[j * hf.cols + i]];
    // Upward unit normal and a point of element 0 (rectangle or lower triangle) or the upper element of cell (i, j).
    const face = (i: number, j: number, upper: boolean): { n: V3; p: V3 } => {
      const v0 = vertex(i, j), v1 = vertex(i + 1, j), v2 = vertex(i, j + 1), v3 = vertex(i + 1, j + 1);
      if (!upper || hf.cellIsRectangle(i, j)) return { n: norm(cross(add(v1, v0, -1), add(v2, v0, -1))), p: v0 };
      return { n: norm(cross(add(v3, v2, -1), add(v3, v1, -1))), p: v3 };
    };
    let edges = 0, points = 0;
    for (let n = 0; n < 120; n++) {
      const { r, hh, c, v } = randomWheel(rng, 0.35);
      out.clear();
      collideCylinderTerrainInto(out, c, v, { radius: r, halfHeight: hh }, hf, ws);
      if (ws.flatPatch) continue;
      const inside = (p: V3): boolean => depthAt(c, v, r, hh, p) >= 0;
      // How far the wheel must move along d for p to leave it: the cylinder's extent below p along −d.
      const extent = (p: V3, d: V3): number => {
        let lo = 0, hi = 2 * (r + hh);
        for (let k = 0; k < 50; k++) {
          const mid = 0.5 * (lo + hi);
          if (inside(add(p, d, -mid))) lo = mid;
          else hi = mid;
        }
        return lo;
      };
      const covered = (p: V3, f: V3): boolean => {
        const own = extent(p, f);
        for (let k = 0; k < out.count; k++) {
          const d: V3 = [out.normal[3 * k], out.normal[3 * k + 1], out.normal[3 * k + 2]];
          if (dot(d, f) >= cone && out.depth[k] >= own - tol) return true;
          if (extent(p, d) <= out.depth[k] + tol) return true;
        }
        return false;
      };
      const cr = ws.cellRange;
      for (let j = Math.max(cr.j0, 1); j <= cr.j1; j++) {
        for (let i = Math.max(cr.i0, 1); i <= cr.i1; i++) {
          const own = face(i, j, false);
          const edgesOfCell: [CellEdge, V3, V3, { n: V3; p: V3 }][] = [
            [CellEdge.Bottom, vertex(i, j), vertex(i + 1, j), face(i, j - 1, true)],
            [CellEdge.Left, vertex(i, j), vertex(i, j + 1), face(i - 1, j, true)],
          ];
          if (!hf.cellIsRectangle(i, j)) edgesOfCell.push([CellEdge.Diagonal, vertex(i + 1, j), vertex(i, j + 1), face(i, j, true)]);
          for (const [edge, a, b, other] of edgesOfCell) {
            if (hf.edgeClass(i, j, edge) !== EdgeClass.Convex) continue;
            if (!(dot(add(c, own.p, -1), own.n) > 1e-6 && dot(add(c, other.p, -1), other.n) > 1e-6)) continue;
            let seen = false;
            for (let k = 0; k <= 24; k++) {
              const p = add(a, add(b, a, -1), k / 24);
              if (depthAt(c, v, r, hh, p) <= tol) continue;
              seen = true;
              points++;
              expect(covered(p, own.n), `pose ${n}: edge ${edge} of cell (${i}, ${j}), sample ${k}: its own face uncovered`).toBe(true);
              expect(covered(p, other.n), `pose ${n}: edge ${edge} of cell (${i}, ${j}), sample ${k}: the other face uncovered`).toBe(true);
            }
            if (seen) edges++;
          }
        }
      }
    }
    // Not empty: many such edges poke into the wheels.
    expect(edges).toBeGreaterThan(120 * 10);
    expect(points).toBeGreaterThan(120 * 200);
  });
});
