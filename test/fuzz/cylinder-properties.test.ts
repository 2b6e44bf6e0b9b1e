/**
 * Seeded properties of collideCylinderTerrain on the benchmark-style scene (a 129 × 129 crop of
 * the same generator, curbs included) and the shared pose generator:
 *   - every normal is a finite unit vector, depth ≥ 0, finite; every normal pushes the wheel
 *     away from its contact point, n · (C − P) > 0 (regression: steep-face side contacts behind
 *     the wheel; n_z > 0 is NOT a property: an edge poking into a base pushes along ±axis,
 *     slightly down);
 *   - every contact point lies on the terrain surface (heightAt) and in its reported cell;
 *   - at most 4 contacts share one normal (the paper's manifold rule: ≤ 4 points per group), and
 *     no two contacts share point, normal and depth (regression: duplicate vertex contacts);
 *   - shifting the terrain origin and the wheel by the same whole number of cells, or cropping
 *     the height array by whole cells, moves the contacts and nothing else: the maximum depth (and
 *     its point) under a shift and a crop, and the strict form with normals, kinds, cell ids and
 *     multiplicity (regression: vertex contacts depended on cell order);
 *   - the cylinder's two ends are symmetric: flipping the axis gives the same contacts.
 */
import { describe, expect, it } from 'vitest';
import { collideCylinderTerrain, type CylinderTerrainContact } from '../../sim/index';
import { Heightfield } from '../../sim/terrain/heightfield';
import type { CylinderPose } from '../oracle/cylinder-oracle';
import { buildCylinderScene, cylinderPoses } from '../oracle/cylinder-poses';

const POSES = 300;
const SEED = 77;
/** [m] Geometric agreement after a translation by whole cells (float64 rounding of coordinates ~10 m). */
const SHIFT_TOLERANCE = 1e-9;
/** [m] A contact point's distance from the surface. */
const SURFACE_TOLERANCE = 1e-9;
const MAX_PER_NORMAL = 4;
/** [-] Two normals are "the same" (one group in the paper's sense) above this cosine. */
const SAME_NORMAL_COS = 1 - 1e-12;

const hf = buildCylinderScene(129);
const poses = cylinderPoses(hf, POSES, SEED);

function sortKey(c: CylinderTerrainContact): string {
  return [c.kind, c.cell[0], c.cell[1], c.depth.toFixed(9), ...c.point.map((x) => x.toFixed(7))].join('|');
}

function sameContacts(a: readonly CylinderTerrainContact[], b: readonly CylinderTerrainContact[], dx: number, dy: number, di: number, dj: number): void {
  expect(b.length).toBe(a.length);
  const sa = [...a].sort((p, q) => p.depth - q.depth || p.point[0] - q.point[0]);
  const sb = [...b].sort((p, q) => p.depth - q.depth || p.point[0] - q.point[0]);
  for (let k = 0; k < sa.length; k++) {
    expect(Math.abs(sb[k].depth - sa[k].depth)).toBeLessThan(SHIFT_TOLERANCE);
    expect(Math.abs(sb[k].point[0] - (sa[k].point[0] + dx))).toBeLessThan(SHIFT_TOLERANCE);
    expect(Math.abs(sb[k].point[1] - (sa[k].point[1] + dy))).toBeLessThan(SHIFT_TOLERANCE);
    expect(Math.abs(sb[k].point[2] - sa[k].point[2])).toBeLessThan(SHIFT_TOLERANCE);
    for (let a3 = 0; a3 < 3; a3++) expect(Math.abs(sb[k].normal[a3] - sa[k].normal[a3])).toBeLessThan(SHIFT_TOLERANCE);
    expect(sb[k].kind).toBe(sa[k].kind);
    expect(sb[k].cell).toEqual([sa[k].cell[0] + di, sa[k].cell[1] + dj]);
  }
}

/**
 * Distinct (point, depth) — with `withNormal`, (point, normal, depth) — of a manifold, translated
 * by (dx, dy), as sorted strings.
 */
function geometry(cs: readonly CylinderTerrainContact[], dx: number, dy: number, withNormal = false): string[] {
  const r = (x: number): string => (Math.abs(x) < 5e-10 ? 0 : x).toFixed(8);
  const keys = cs.map((c) => [r(c.point[0] + dx), r(c.point[1] + dy), r(c.point[2]), ...(withNormal ? c.normal.map(r) : []), r(c.depth)].join(' '));
  return [...new Set(keys)].sort();
}

describe('cylinder–terrain properties (seeded)', () => {
  const results = poses.map((p) => collideCylinderTerrain(p, hf).contacts);

  it('unit normals, finite depth ≥ 0', () => {
    let n = 0;
    for (const cs of results) {
      for (const c of cs) {
        n++;
        expect(Math.abs(Math.hypot(...c.normal) - 1)).toBeLessThan(1e-12);
        expect(Number.isFinite(c.depth)).toBe(true);
        expect(c.depth).toBeGreaterThanOrEqual(0);
      }
    }
    expect(n).toBeGreaterThan(POSES);
  });

  // Regression (failed until the algorithm's fix): a 'side' contact at a vertex of a steep curb
  // face carried that face's normal although the wheel sat on the curb top behind it, so the
  // normal pulled the wheel over the edge (129-cell scene, seed 77, poses as placed by the
  // 96-sample oracle: pose 67 cell 85,96 depth 21.5 mm, normal (−0.69, 0.63, 0.36),
  // n·(C − P) = −0.058 m; pose 156 cell 73,60).
  it('regression: steep-face side contacts behind the wheel: every normal pushes the wheel away from its point, n·(C − P) > 0', () => {
    for (let k = 0; k < results.length; k++) {
      const C = poses[k].center;
      for (const c of results[k]) {
        const toWheel = c.normal[0] * (C[0] - c.point[0]) + c.normal[1] * (C[1] - c.point[1]) + c.normal[2] * (C[2] - c.point[2]);
        expect(toWheel).toBeGreaterThan(0);
      }
    }
  });

  it('contact points lie on the terrain surface, inside their cell', () => {
    for (const cs of results) {
      for (const c of cs) {
        expect(Math.abs(c.point[2] - hf.heightAt(c.point[0], c.point[1]))).toBeLessThan(SURFACE_TOLERANCE);
        const [i, j] = c.cell;
        expect(c.point[0]).toBeGreaterThanOrEqual(hf.vertexX(i) - SURFACE_TOLERANCE);
        expect(c.point[0]).toBeLessThanOrEqual(hf.vertexX(i + 1) + SURFACE_TOLERANCE);
        expect(c.point[1]).toBeGreaterThanOrEqual(hf.vertexY(j) - SURFACE_TOLERANCE);
        expect(c.point[1]).toBeLessThanOrEqual(hf.vertexY(j + 1) + SURFACE_TOLERANCE);
      }
    }
  });

  it('at most 4 contacts per normal', () => {
    for (const cs of results) {
      for (const c of cs) {
        const same = cs.filter((o) => o.normal[0] * c.normal[0] + o.normal[1] * c.normal[1] + o.normal[2] * c.normal[2] > SAME_NORMAL_COS);
        expect(same.length).toBeLessThanOrEqual(MAX_PER_NORMAL);
      }
    }
  });

  const si = 7, sj = -3;
  const sdx = si * hf.dx, sdy = sj * hf.dy;
  const moved = Heightfield.fromArray({ cols: hf.cols, rows: hf.rows, dx: hf.dx, dy: hf.dy, x0: hf.x0 + sdx, y0: hf.y0 + sdy, heights: hf.heights });
  const ci = 5, cj = 9;
  const ccols = hf.cols - ci, crows = hf.rows - cj;
  const cheights = new Float64Array(ccols * crows);
  for (let j = 0; j < crows; j++) for (let i = 0; i < ccols; i++) cheights[j * ccols + i] = hf.height(i + ci, j + cj);
  const cropped = Heightfield.fromArray({ cols: ccols, rows: crows, dx: hf.dx, dy: hf.dy, x0: hf.vertexX(ci), y0: hf.vertexY(cj), heights: cheights });
  const insideCrop = (p: CylinderPose): boolean => p.center[0] > cropped.x0 + 0.5 && p.center[1] > cropped.y0 + 0.5;

  const maxDepth = (cs: readonly CylinderTerrainContact[]): number => cs.reduce((m, c) => Math.max(m, c.depth), 0);

  it('invariant under shifting terrain origin and wheel by whole cells (maximum depth and its point)', () => {
    for (let k = 0; k < 100; k++) {
      const p = poses[k];
      const q: CylinderPose = { ...p, center: [p.center[0] + sdx, p.center[1] + sdy, p.center[2]] };
      const b = collideCylinderTerrain(q, moved).contacts;
      expect(Math.abs(maxDepth(b) - maxDepth(results[k]))).toBeLessThan(SHIFT_TOLERANCE);
      const deepA = results[k].find((c) => c.depth === maxDepth(results[k]));
      const deepB = b.find((c) => c.depth === maxDepth(b));
      if (deepA && deepB) {
        expect(Math.abs(deepB.point[0] - (deepA.point[0] + sdx))).toBeLessThan(SHIFT_TOLERANCE);
        expect(Math.abs(deepB.point[1] - (deepA.point[1] + sdy))).toBeLessThan(SHIFT_TOLERANCE);
      }
    }
  });

  it('invariant under cropping the height array by whole cells (maximum depth)', () => {
    let checked = 0;
    for (let k = 0; k < 100; k++) {
      if (!insideCrop(poses[k])) continue;
      expect(Math.abs(maxDepth(collideCylinderTerrain(poses[k], cropped).contacts) - maxDepth(results[k]))).toBeLessThan(SHIFT_TOLERANCE);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  // Regression: a terrain vertex poking into the wheel was reported once per adjacent cell that
  // found it, so the same point and depth could appear 1–3 times with different cell ids, kinds
  // ('edge' vs 'side') and normals (bent edge normal vs element normal), and which won changed
  // when the grid was shifted or cropped (129-cell scene, seed 77, poses as placed by the
  // 96-sample oracle: poses 2, 3, 20). Cropping also changed which points the ≤ 4-per-group
  // reduction kept (pose 58 lost a side contact at (−0.2, −0.937), depth 14.0 mm). Duplicate
  // points also double-weight a vertex in a solver.
  it('regression: vertex contacts depend on cell order: strict invariance (normals, kinds, cell ids, multiplicity) under whole-cell shift/crop', () => {
    for (let k = 0; k < 100; k++) {
      const p = poses[k];
      const q: CylinderPose = { ...p, center: [p.center[0] + sdx, p.center[1] + sdy, p.center[2]] };
      expect(geometry(collideCylinderTerrain(q, moved).contacts, 0, 0)).toEqual(geometry(results[k], sdx, sdy));
      expect(geometry(collideCylinderTerrain(q, moved).contacts, 0, 0, true)).toEqual(geometry(results[k], sdx, sdy, true));
      sameContacts(results[k], collideCylinderTerrain(q, moved).contacts, sdx, sdy, 0, 0);
      if (insideCrop(p)) {
        expect(geometry(collideCylinderTerrain(p, cropped).contacts, 0, 0)).toEqual(geometry(results[k], 0, 0));
        sameContacts(results[k], collideCylinderTerrain(p, cropped).contacts, 0, 0, -ci, -cj);
      }
    }
  });

  it('regression: duplicate vertex contacts: no two contacts share point, normal and depth', () => {
    for (const cs of results) expect(geometry(cs, 0, 0, true).length).toBe(cs.length);
  });

  it('symmetric in the two ends: flipping the axis gives the same contacts', () => {
    for (let k = 0; k < 100; k++) {
      const p = poses[k];
      const q: CylinderPose = { ...p, axis: [-p.axis[0], -p.axis[1], -p.axis[2]] };
      const a = results[k];
      const b = collideCylinderTerrain(q, hf).contacts;
      expect(b.map(sortKey).sort()).toEqual(a.map(sortKey).sort());
    }
  });
});
