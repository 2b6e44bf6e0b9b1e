import { describe, expect, it } from 'vitest';
import {
  flatTerrain,
  fractalTerrain,
  hillsTerrain,
  rampTerrain,
  randomCurbs,
} from '../../../sim/terrain/generate';

describe('terrain generators', () => {
  it('fractalTerrain is a pure function of its seed', () => {
    const a = fractalTerrain({ cols: 33, dx: 0.1, seed: 7, amplitude: 0.2 });
    const b = fractalTerrain({ cols: 33, dx: 0.1, seed: 7, amplitude: 0.2 });
    const c = fractalTerrain({ cols: 33, dx: 0.1, seed: 8, amplitude: 0.2 });
    expect(Array.from(a.heights)).toEqual(Array.from(b.heights));
    expect(Array.from(a.heights)).not.toEqual(Array.from(c.heights));
  });

  it('fractalTerrain accepts non-(2^n+1) and non-square sizes and centres the map', () => {
    const t = fractalTerrain({ cols: 20, rows: 11, dx: 0.5, dy: 0.25, seed: 1, amplitude: 1 });
    expect(t.cols).toBe(20);
    expect(t.rows).toBe(11);
    expect(t.x0).toBeCloseTo(-4.75, 12);
    expect(t.y0).toBeCloseTo(-1.25, 12);
    for (const h of t.heights) expect(Number.isFinite(h)).toBe(true);
  });

  it('fractal roughness controls the small-scale variation', () => {
    const meanStep = (r: number): number => {
      const t = fractalTerrain({ cols: 129, dx: 0.05, seed: 3, amplitude: 0.5, roughness: r });
      let s = 0;
      for (let j = 0; j < t.rows; j++) for (let i = 0; i + 1 < t.cols; i++) s += Math.abs(t.height(i + 1, j) - t.height(i, j));
      return s / (t.rows * (t.cols - 1));
    };
    expect(meanStep(0.35)).toBeLessThan(meanStep(0.6) / 3);
  });

  it('curbs add an exact step across the line and nothing elsewhere', () => {
    const base = fractalTerrain({ cols: 17, dx: 0.1, seed: 5, amplitude: 0.1 });
    const curbed = fractalTerrain({
      cols: 17, dx: 0.1, seed: 5, amplitude: 0.1,
      curbs: [{ axis: 'x', at: 0.05, height: 0.1 }, { axis: 'y', at: -0.25, height: -0.2 }],
    });
    for (let j = 0; j < 17; j++) {
      for (let i = 0; i < 17; i++) {
        const x = curbed.vertexX(i);
        const y = curbed.vertexY(j);
        const expected = base.height(i, j) + (x > 0.05 ? 0.1 : 0) + (y > -0.25 ? -0.2 : 0);
        expect(curbed.height(i, j)).toBeCloseTo(expected, 12);
      }
    }
  });

  it('randomCurbs puts step lines on half cells inside the margin, alternating axes', () => {
    const grid = { cols: 65, dx: 0.05 };
    const curbs = randomCurbs(grid, { seed: 9, count: 6, height: 0.1, margin: 0.5 });
    expect(curbs.map((c) => c.axis)).toEqual(['x', 'y', 'x', 'y', 'x', 'y']);
    for (const c of curbs) {
      expect(Math.abs(c.height)).toBe(0.1);
      const f = (c.at - -1.6) / 0.05;
      expect(Math.abs(f - Math.round(f - 0.5) - 0.5)).toBeLessThan(1e-9);
      expect(c.at).toBeGreaterThan(-1.6 + 0.5 - 1e-9);
      expect(c.at).toBeLessThan(1.6 - 0.5 + 1e-9);
    }
  });

  it('flatTerrain and rampTerrain are planar rectangles with the requested slope', () => {
    const flat = flatTerrain({ cols: 5, dx: 1, height: 2 });
    expect(flat.cellIsRectangle(1, 1)).toBe(true);
    expect(flat.heightAt(0.3, -0.7)).toBe(2);
    const ramp = rampTerrain({ cols: 11, dx: 1, angle: Math.PI / 6, startX: 0 });
    expect(ramp.heightAt(-3, 0)).toBe(0);
    expect(ramp.heightAt(2.5, 1.5)).toBeCloseTo(2.5 * Math.tan(Math.PI / 6), 12);
    expect(ramp.cellIsRectangle(7, 3)).toBe(true);
  });

  it('hillsTerrain peaks near its bumps and stays at the floor far away', () => {
    const t = hillsTerrain({ cols: 41, dx: 0.5, seed: 2, count: 1, minHeight: 1, maxHeight: 1, minRadius: 1, maxRadius: 1, base: -1 });
    let top = -Infinity;
    for (const h of t.heights) top = Math.max(top, h);
    expect(top).toBeGreaterThan(-0.1);
    expect(top).toBeLessThanOrEqual(0 + 1e-12);
    expect(t.minHeight).toBeGreaterThanOrEqual(-1);
  });
});
