import { describe, expect, it } from 'vitest';
import { ElementKind, Heightfield, TerrainError } from '../../../sim/terrain/heightfield';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';

function randomField(seed: number, cols: number, rows: number): Heightfield {
  const rng = new Rng(seed);
  const heights = new Float64Array(cols * rows);
  for (let k = 0; k < heights.length; k++) heights[k] = rng.range(-2, 3);
  return Heightfield.fromArray({ cols, rows, dx: 0.5, dy: 0.25, x0: -3, y0: 7, heights });
}

describe('Heightfield', () => {
  it('places vertex (i, j) at (x0 + i dx, y0 + j dy, heights[j*cols + i])', () => {
    const hf = Heightfield.fromArray({ cols: 3, rows: 2, dx: 2, dy: 3, x0: 10, y0: 20, heights: [0, 1, 2, 3, 4, 5] });
    expect(hf.height(2, 1)).toBe(5);
    expect(hf.heightAt(14, 23)).toBe(5);
    expect(hf.heightAt(12, 20)).toBe(1);
    expect(hf.heightAt(10, 23)).toBe(3);
  });

  it('splits non-planar cells on the V1–V2 diagonal', () => {
    // V0 = 0, V1 = 0, V2 = 0, V3 = 1: only the upper triangle V1 V3 V2 rises.
    const hf = Heightfield.fromArray({ cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0, 1] });
    expect(hf.cellIsRectangle(0, 0)).toBe(false);
    expect(hf.heightAt(0.25, 0.25)).toBe(0); // lower triangle is flat
    expect(hf.heightAt(0.5, 0.5)).toBeCloseTo(0, 15); // on the diagonal
    expect(hf.heightAt(0.75, 0.75)).toBeCloseTo(0.5, 15);
    const n: Vec3 = [0, 0, 0];
    hf.normalAt(n, 0.9, 0.9);
    const s = 1 / Math.sqrt(3);
    expect(n[0]).toBeCloseTo(-s, 15);
    expect(n[1]).toBeCloseTo(-s, 15);
    expect(n[2]).toBeCloseTo(s, 15);
  });

  it('classifies planar cells with a right angle at V0 as rectangles (paper §II)', () => {
    // ramp along x: H1 = H3 = 1, H0 = H2 = 0 -> H2 = H0 and H3 = H1
    const ramp = Heightfield.fromArray({ cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 1, 0, 1] });
    expect(ramp.cellIsRectangle(0, 0)).toBe(true);
    // planar but skewed (slope along both axes): two triangles per the paper
    const skew = Heightfield.fromArray({ cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 1, 1, 2] });
    expect(skew.cellIsRectangle(0, 0)).toBe(false);
  });

  it('elementPlane gives s(P) = k − P·n > 0 below the surface', () => {
    const hf = randomField(3, 6, 5);
    const n: Vec3 = [0, 0, 0];
    for (let j = 0; j < hf.cellsY; j++) {
      for (let i = 0; i < hf.cellsX; i++) {
        for (const kind of [ElementKind.LowerTriangle, ElementKind.UpperTriangle]) {
          const k = hf.elementPlane(n, i, j, kind);
          expect(Math.hypot(n[0], n[1], n[2])).toBeCloseTo(1, 14);
          expect(n[2]).toBeGreaterThan(0);
          // the triangle's vertices lie on the plane
          const verts = kind === ElementKind.LowerTriangle ? [[i, j], [i + 1, j], [i, j + 1]] : [[i + 1, j], [i + 1, j + 1], [i, j + 1]];
          for (const [a, b] of verts) {
            const s = k - (n[0] * hf.vertexX(a) + n[1] * hf.vertexY(b) + n[2] * hf.height(a, b));
            expect(Math.abs(s)).toBeLessThan(1e-12);
          }
          // a point 1 m below the centroid is below
          const cx = hf.vertexX(i) + hf.dx * (kind === ElementKind.LowerTriangle ? 1 / 3 : 2 / 3);
          const cy = hf.vertexY(j) + hf.dy * (kind === ElementKind.LowerTriangle ? 1 / 3 : 2 / 3);
          const z = hf.heightAt(cx, cy) - 1;
          expect(k - (n[0] * cx + n[1] * cy + n[2] * z)).toBeGreaterThan(0);
        }
      }
    }
  });

  it('cellRangeMinMax equals a brute-force scan for random ranges, on odd, one-cell and one-row grids', () => {
    const out = { min: 0, max: 0 };
    for (const [seed, cols, rows] of [[11, 67, 41], [12, 2, 2], [13, 2, 9], [14, 33, 2], [15, 129, 130]]) {
      const hf = randomField(seed, cols, rows);
      const rng = new Rng(seed * 7);
      for (let t = 0; t < 500; t++) {
        const i0 = rng.int(-3, hf.cellsX + 2), i1 = rng.int(i0, hf.cellsX + 4);
        const j0 = rng.int(-3, hf.cellsY + 2), j1 = rng.int(j0, hf.cellsY + 4);
        // brute force over the vertices of the clamped cell range
        const ci0 = Math.max(0, i0), ci1 = Math.min(hf.cellsX - 1, i1);
        const cj0 = Math.max(0, j0), cj1 = Math.min(hf.cellsY - 1, j1);
        let lo = Infinity, hi = -Infinity;
        if (ci0 <= ci1 && cj0 <= cj1) {
          for (let j = cj0; j <= cj1 + 1; j++) {
            for (let i = ci0; i <= ci1 + 1; i++) {
              lo = Math.min(lo, hf.height(i, j));
              hi = Math.max(hi, hf.height(i, j));
            }
          }
        }
        hf.cellRangeMinMax(out, i0, j0, i1, j1);
        expect(out.min).toBe(lo);
        expect(out.max).toBe(hi);
      }
    }
  });

  it('rejects bad input with a message naming the problem', () => {
    expect(() => Heightfield.fromArray({ cols: 1, rows: 3, dx: 1, dy: 1, heights: [0, 0, 0] })).toThrow(/cols must be an integer/);
    expect(() => Heightfield.fromArray({ cols: 2, rows: 2, dx: 0, dy: 1, heights: [0, 0, 0, 0] })).toThrow(/dx must be a finite spacing/);
    expect(() => Heightfield.fromArray({ cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0] })).toThrow(/heights has 3 values/);
    expect(() => Heightfield.fromArray({ cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, NaN, 0] })).toThrow(/column 0, row 1/);
    expect(() => Heightfield.fromArray({ cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, NaN, 0] })).toThrow(TerrainError);
  });
});
