/**
 * Terrain patches and the overview (sim/terrain/patch.ts), and what the world info carries: the
 * renderer gets a bounded overview at load and exact heights only in requested patches.
 * Oracle: the expected samples are enumerated vertex by vertex from the span (every vertex whose
 * offset from the span's start is a multiple of the stride, plus the span's last vertex), not
 * from the sampling formula under test.
 */
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { overviewStride, terrainOverview, terrainPatch, TERRAIN_OVERVIEW_MAX_SIDE, TERRAIN_PATCH_MAX_SAMPLES } from '../../../sim/terrain/patch';
import { SimServiceImpl } from '../../../sim/app/service';
import { SimWorld } from '../../../sim/app/sim-world';
import { parseScenarioFile } from '../../../sim/scenario/scenario-v2';

function randomField(cols: number, rows: number, seed: number): Heightfield {
  const rng = new Rng(seed);
  const h = new Float64Array(cols * rows);
  for (let k = 0; k < h.length; k++) h[k] = rng.range(-3, 5);
  return Heightfield.fromArray({ cols, rows, dx: 0.1, dy: 0.2, x0: -1, y0: 2, heights: h });
}

/** Vertex indices a span [a, a + n − 1] keeps at `stride`, clamped to [0, last]: brute force. */
function keptIndices(a: number, n: number, stride: number, last: number): number[] {
  const inGrid: number[] = [];
  for (let i = a; i <= a + n - 1; i++) if (i >= 0 && i <= last) inGrid.push(i);
  const kept = inGrid.filter((i) => (i - a) % stride === 0);
  const end = inGrid[inGrid.length - 1];
  if (kept[kept.length - 1] !== end) kept.push(end);
  return kept;
}

describe('terrainPatch', () => {
  const hf = randomField(37, 29, 17);

  it('returns exactly the heightfield\'s heights (float32) at every stride, inside and across the edges', () => {
    const rng = new Rng(5);
    for (let trial = 0; trial < 200; trial++) {
      const stride = [1, 2, 3, 4, 8, 16][rng.int(0, 5)];
      const i0 = rng.int(-20, 36), j0 = rng.int(-20, 28);
      const cols = rng.int(1, 50), rows = rng.int(1, 50);
      const is = keptIndices(i0, cols, stride, hf.cols - 1);
      const js = keptIndices(j0, rows, stride, hf.rows - 1);
      if (is.length === 0 || js.length === 0) {
        expect(() => terrainPatch(hf, i0, j0, cols, rows, stride)).toThrow(/no vertex on the 37 × 29 grid/);
        continue;
      }
      const p = terrainPatch(hf, i0, j0, cols, rows, stride);
      expect([p.i0, p.j0, p.sampleCols, p.sampleRows]).toEqual([is[0], js[0], is.length, js.length]);
      expect(p.i0 + p.cols - 1).toBe(is[is.length - 1]);
      expect(p.j0 + p.rows - 1).toBe(js[js.length - 1]);
      expect(p.heights.length).toBe(is.length * js.length);
      let lo = Infinity, hi = -Infinity;
      for (let j = p.j0; j < p.j0 + p.rows; j++) for (let i = p.i0; i < p.i0 + p.cols; i++) {
        lo = Math.min(lo, hf.height(i, j));
        hi = Math.max(hi, hf.height(i, j));
      }
      expect(p.minHeight).toBe(lo);
      expect(p.maxHeight).toBe(hi);
      js.forEach((j, r) => is.forEach((i, c) => expect(p.heights[r * p.sampleCols + c]).toBe(Math.fround(hf.height(i, j)))));
    }
  });

  it('names the bad argument', () => {
    expect(() => terrainPatch(hf, 0.5, 0, 4, 4, 1)).toThrow(/i0 must be an integer, got 0.5/);
    expect(() => terrainPatch(hf, 0, Number.NaN, 4, 4, 1)).toThrow(/j0 must be an integer/);
    expect(() => terrainPatch(hf, 0, 0, 0, 4, 1)).toThrow(/cols must be an integer ≥ 1, got 0/);
    expect(() => terrainPatch(hf, 0, 0, 4, 2.5, 1)).toThrow(/rows must be an integer ≥ 1, got 2.5/);
    expect(() => terrainPatch(hf, 0, 0, 4, 4, 0)).toThrow(/stride must be an integer ≥ 1, got 0/);
    expect(() => terrainPatch(hf, 0, 0, 4, 4, '2' as unknown as number)).toThrow(/stride must be an integer ≥ 1, got string/);
    expect(() => terrainPatch(hf, 37, 0, 4, 4, 1)).toThrow(/no vertex/);
    expect(() => terrainPatch(hf, -10, 0, 10, 4, 1)).toThrow(/no vertex/);
  });

  it('refuses a reply over the sample limit, and says how to fix it', () => {
    const big = Heightfield.fromArray({ cols: 1100, rows: 1100, dx: 1, dy: 1, heights: new Float64Array(1100 * 1100) });
    expect(() => terrainPatch(big, 0, 0, 1100, 1100, 1)).toThrow(new RegExp(`over the ${TERRAIN_PATCH_MAX_SAMPLES}-sample limit: raise the stride`));
    expect(terrainPatch(big, 0, 0, 1100, 1100, 2).sampleCols).toBe(551);
  });
});

describe('terrain overview', () => {
  it('is a power-of-two stride with at most TERRAIN_OVERVIEW_MAX_SIDE samples per side', () => {
    expect(overviewStride(257, 257)).toBe(1);
    expect(overviewStride(258, 10)).toBe(2);
    expect(overviewStride(601, 601)).toBe(4);
    expect(overviewStride(1025, 1025)).toBe(4);
    expect(overviewStride(4097, 4097)).toBe(16);
    expect(overviewStride(16385, 3)).toBe(64);
    const hf = randomField(601, 41, 3);
    const o = terrainOverview(hf);
    expect([o.stride, o.cols, o.rows]).toEqual([4, 151, 11]);
    expect(o.heights[10 * o.cols + 150]).toBe(Math.fround(hf.height(600, 40))); // the last row and column are kept
    expect(o.heights[3 * o.cols + 7]).toBe(Math.fround(hf.height(28, 12)));
  });
});

describe('world info and the service', () => {
  const scenario = { format: 'terrawheel-scenario', version: 2, name: 'big', terrain: 't.json', dt: 0.005, robot: { type: 'skid-steer', position: [1, 1], yaw: 0 } };

  it('a 4097² map sends a bounded overview, not its heights (world info under 300 KB)', () => {
    const n = 4097;
    const hf = Heightfield.fromArray({ cols: n, rows: n, dx: 0.05, dy: 0.05, heights: new Float64Array(n * n) });
    const info = SimWorld.create(parseScenarioFile(scenario), hf).info();
    expect('heights' in info.terrain).toBe(false);
    expect(info.terrain.overview).toMatchObject({ stride: 16, cols: 257, rows: 257 });
    const bytes = serialize(info).length;
    expect(bytes).toBeLessThan(300_000);
    expect(bytes).toBeGreaterThan(TERRAIN_OVERVIEW_MAX_SIDE ** 2 * 4);
  });

  it('terrainPatch through the service: the loaded terrain\'s heights, errors when no world', async () => {
    const hf = randomField(41, 41, 9);
    const svc = new SimServiceImpl({ decodeTerrain: () => hf });
    await expect(svc.terrainPatch(0, 0, 2, 2, 1)).rejects.toThrow(/no world loaded/);
    await svc.load({ scenario: { ...scenario, robot: { type: 'skid-steer', position: [1, 3], yaw: 0 } }, terrainSidecar: {}, terrainData: new Uint8Array(1) });
    const p = await svc.terrainPatch(3, 4, 5, 6, 2);
    expect([p.sampleCols, p.sampleRows]).toEqual([3, 4]); // rows 4, 6, 8 and the last, 9
    expect(p.heights[2 * 3 + 2]).toBe(Math.fround(hf.height(7, 8)));
    expect(p.heights[3 * 3 + 2]).toBe(Math.fround(hf.height(7, 9)));
    await expect(svc.terrainPatch(3, 4, 5, 6, -1)).rejects.toThrow(/stride/);
    svc.dispose();
  });
});
