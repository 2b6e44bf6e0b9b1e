/**
 * Manifold reduction (sim/collision/reduce-manifold.ts): ≤ 4 points per normal group chosen to
 * span the largest area, line contacts kept as their two extremes, groups by normal angle.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { ManifoldGroups, ReduceManifoldStatus, reduceManifoldInto } from '../../../sim/collision/reduce-manifold';

const COS10 = Math.cos((10 * Math.PI) / 180);
const LINE = 5e-4;
const TIE = 1e-9;

function buffer(points: readonly (readonly number[])[], normal: readonly number[] = [0, 0, 1], depths?: readonly number[]): ContactBuffer {
  const b = new ContactBuffer(64);
  points.forEach((p, k) => b.push(p[0], p[1], p[2], normal[0], normal[1], normal[2], depths ? depths[k] : 0.01, 1, k, 0));
  return b;
}

function reduce(src: ContactBuffer, out = new ContactBuffer(64)): { out: ContactBuffer; status: number; pts: number[][] } {
  const status = reduceManifoldInto(out, src, new ManifoldGroups(64, 8), COS10, LINE, TIE);
  const pts: number[][] = [];
  for (let k = 0; k < out.count; k++) pts.push([out.point[3 * k], out.point[3 * k + 1], out.point[3 * k + 2]]);
  return { out, status, pts };
}

const key = (p: readonly number[]): string => p.map((x) => x.toFixed(6)).join(',');

describe('reduceManifoldInto', () => {
  it('keeps groups of up to 4 points unchanged', () => {
    const { pts, status } = reduce(buffer([[0, 0, 0], [1, 0, 0], [0, 1, 0]]));
    expect(status).toBe(ReduceManifoldStatus.Ok);
    expect(pts.length).toBe(3);
  });

  it('a 5 × 5 grid of equal-depth points reduces to its 4 corners (largest area)', () => {
    const grid: number[][] = [];
    for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) grid.push([i * 0.1, j * 0.1, 0]);
    const { pts } = reduce(buffer(grid));
    expect(pts.map(key).sort()).toEqual([[0, 0, 0], [0.4, 0, 0], [0, 0.4, 0], [0.4, 0.4, 0]].map(key).sort());
  });

  it('keeps the deepest point first even when it is interior', () => {
    const grid: number[][] = [];
    const depths: number[] = [];
    for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) {
      grid.push([i * 0.1, j * 0.1, 0]);
      depths.push(i === 2 && j === 2 ? 0.05 : 0.01);
    }
    const { out, pts } = reduce(buffer(grid, [0, 0, 1], depths));
    expect(pts.length).toBe(4);
    expect(out.depth[0]).toBe(0.05);
    expect(key(pts[0])).toBe(key([0.2, 0.2, 0]));
  });

  it('a line contact (collinear points, equal depth) keeps its two extremes, not an interior tie', () => {
    const line = [0.3, 0.1, 0.5, 0.0, 0.2, 0.4].map((x) => [x, 2 * x, 0]);
    const { pts } = reduce(buffer(line));
    expect(pts.map(key).sort()).toEqual([[0, 0, 0], [0.5, 1, 0]].map(key).sort());
  });

  it('a curved line contact also keeps its deepest interior point (3 points)', () => {
    const line = [0, 0.1, 0.2, 0.3, 0.4].map((x) => [x, 0, 0]);
    const { pts, out } = reduce(buffer(line, [0, 0, 1], [0.01, 0.02, 0.03, 0.02, 0.01]));
    expect(pts.length).toBe(3);
    expect(Array.from(out.depth.slice(0, 3)).sort()).toEqual([0.01, 0.01, 0.03]);
  });

  it('groups by normal: two faces 30° apart are reduced separately; normals 5° apart share a group', () => {
    const src = new ContactBuffer(64);
    const n30 = [Math.sin(Math.PI / 6), 0, Math.cos(Math.PI / 6)];
    const n5 = [Math.sin(Math.PI / 36), 0, Math.cos(Math.PI / 36)];
    for (let k = 0; k < 6; k++) src.push(k * 0.1, 0, 0, 0, 0, 1, 0.01, 1, k, 0); // line, normal up
    for (let k = 0; k < 6; k++) src.push(k * 0.1, 1, 0, n30[0], n30[1], n30[2], 0.01, 1, k, 1); // line, 30°
    for (let k = 0; k < 3; k++) src.push(k * 0.1, 0.5, 0, n5[0], n5[1], n5[2], 0.01, 1, k, 2); // joins "up"
    const { out } = reduce(src);
    let up = 0, tilted = 0;
    for (let k = 0; k < out.count; k++) {
      if (out.normal[3 * k + 2] > Math.cos(Math.PI / 12)) up++;
      else tilted++;
    }
    expect(tilted).toBe(2); // the 30° line: its two ends
    expect(up).toBeLessThanOrEqual(4);
    expect(up).toBeGreaterThanOrEqual(3);
  });

  it('equal normals never split across groups (each contact joins its nearest representative)', () => {
    // Representatives: A = 0°, then B = 15° (> 10° from A). The first 8° contact arrives before B
    // exists; a one-pass greedy grouping left it in A while later 8° contacts joined the nearer B.
    const src = new ContactBuffer(64);
    const at = (deg: number): number[] => [Math.sin((deg * Math.PI) / 180), 0, Math.cos((deg * Math.PI) / 180)];
    const push = (deg: number, x: number): void => { const n = at(deg); src.push(x, 0, 0, n[0], n[1], n[2], 0.01, 1, 0, 0); };
    push(0, 0);
    push(8, 0.35);
    push(15, 0.7);
    for (const x of [0.1, 0.2, 0.3, 0.5, 0.6]) push(8, x);
    const { out } = reduce(src);
    // Group B = six 8° points and the 15° one on a line: its extremes x = 0.1 (8°) and 0.7 (15°).
    let at8 = 0;
    for (let k = 0; k < out.count; k++) if (Math.abs(out.normal[3 * k] - at(8)[0]) < 1e-12) at8++;
    expect(at8).toBe(1);
    expect(out.count).toBe(3);
  });

  it('reports a full output buffer', () => {
    const { status } = reduce(buffer([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), new ContactBuffer(2));
    expect(status & ReduceManifoldStatus.OutputOverflow).toBeTruthy();
  });
});
