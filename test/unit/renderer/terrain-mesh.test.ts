import { describe, expect, it } from 'vitest';
import { buildTerrainMesh, chooseTerrainStride, sampleCount } from '../../../sim/terrain/mesh';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';

function randomGrid(seed: number, cols: number, rows: number) {
  const rng = new Rng(seed);
  const heights = new Float64Array(cols * rows);
  for (let k = 0; k < heights.length; k++) heights[k] = rng.range(-2, 3);
  return { cols, rows, dx: 0.5, dy: 0.25, x0: -3, y0: 7, heights };
}

describe('buildTerrainMesh', () => {
  it('every triangle lies on the collision surface (oracle: Heightfield.heightAt at interior points)', () => {
    // A wrong diagonal would put the centroid of each triangle off the collision surface by
    // up to |H0 + H3 − H1 − H2| / 6, which random heights make large.
    const grid = randomGrid(7, 9, 6);
    const hf = Heightfield.fromArray(grid);
    const m = buildTerrainMesh(grid, 1);
    const rng = new Rng(11);
    const p = m.positions;
    for (let k = 0; k < m.indices.length; k += 3) {
      const a = m.indices[k] * 3, b = m.indices[k + 1] * 3, c = m.indices[k + 2] * 3;
      for (let s = 0; s < 4; s++) {
        // random barycentric point strictly inside the triangle
        let u = rng.range(0.05, 0.9), v = rng.range(0.05, 0.9);
        if (u + v > 0.95) { u = 0.95 - u; v = 0.95 - v; if (u < 0.02) u = 0.02; if (v < 0.02) v = 0.02; }
        const w = 1 - u - v;
        const x = w * p[a] + u * p[b] + v * p[c];
        const y = w * p[a + 1] + u * p[b + 1] + v * p[c + 1];
        const z = w * p[a + 2] + u * p[b + 2] + v * p[c + 2];
        expect(Math.abs(z - hf.heightAt(x, y))).toBeLessThan(1e-4); // float32 positions
      }
    }
  });

  it('winds every triangle counter-clockwise seen from above (front faces up)', () => {
    const m = buildTerrainMesh(randomGrid(3, 5, 7), 1);
    const p = m.positions;
    for (let k = 0; k < m.indices.length; k += 3) {
      const a = m.indices[k] * 3, b = m.indices[k + 1] * 3, c = m.indices[k + 2] * 3;
      const cz = (p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[b + 1] - p[a + 1]) * (p[c] - p[a]);
      expect(cz).toBeGreaterThan(0);
    }
  });

  it('gives the plane normal at every vertex of a tilted plane', () => {
    const cols = 6, rows = 5, sx = 0.3, sy = -0.2;
    const heights = new Float64Array(cols * rows);
    for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) heights[j * cols + i] = sx * i * 2 + sy * j * 1.5;
    const m = buildTerrainMesh({ cols, rows, dx: 2, dy: 1.5, x0: 0, y0: 0, heights }, 1);
    const inv = 1 / Math.hypot(sx, sy, 1);
    const n: Vec3 = [-sx * inv, -sy * inv, inv];
    for (let v = 0; v < m.normals.length; v += 3) {
      expect(m.normals[v]).toBeCloseTo(n[0], 6);
      expect(m.normals[v + 1]).toBeCloseTo(n[1], 6);
      expect(m.normals[v + 2]).toBeCloseTo(n[2], 6);
    }
  });

  it('decimates by an integer stride and always keeps the last row and column', () => {
    const grid = randomGrid(5, 10, 8);
    const m = buildTerrainMesh(grid, 4);
    expect(m.cols).toBe(4); // 0, 4, 8, 9
    expect(m.rows).toBe(3); // 0, 4, 7
    expect(m.positions.length).toBe(4 * 3 * 3);
    expect(m.indices.length).toBe(3 * 2 * 6);
    const last = (m.cols * m.rows - 1) * 3;
    expect(m.positions[last]).toBeCloseTo(grid.x0 + 9 * grid.dx, 5);
    expect(m.positions[last + 1]).toBeCloseTo(grid.y0 + 7 * grid.dy, 5);
    expect(m.positions[last + 2]).toBeCloseTo(grid.heights[grid.heights.length - 1], 5);
  });

  it('rejects a grid below one cell, a height count mismatch and a non-integer stride', () => {
    expect(() => buildTerrainMesh({ cols: 1, rows: 4, dx: 1, dy: 1, x0: 0, y0: 0, heights: [0, 0, 0, 0] })).toThrow(RangeError);
    expect(() => buildTerrainMesh({ cols: 2, rows: 2, dx: 1, dy: 1, x0: 0, y0: 0, heights: [0, 0, 0] })).toThrow(/3 heights/);
    expect(() => buildTerrainMesh({ cols: 2, rows: 2, dx: 1, dy: 1, x0: 0, y0: 0, heights: [0, 0, 0, 0] }, 1.5)).toThrow(/stride/);
  });
});

describe('chooseTerrainStride', () => {
  it('returns the smallest stride that fits the vertex budget', () => {
    expect(chooseTerrainStride(257, 257, 1 << 20)).toBe(1);
    for (const [cols, rows, budget] of [[4097, 4097, 1 << 20], [1000, 3000, 250_000], [16385, 16385, 1 << 20], [3, 1000, 10]]) {
      const s = chooseTerrainStride(cols, rows, budget);
      expect(sampleCount(cols, s) * sampleCount(rows, s)).toBeLessThanOrEqual(budget);
      if (s > 1) expect(sampleCount(cols, s - 1) * sampleCount(rows, s - 1)).toBeGreaterThan(budget);
    }
  });
});
