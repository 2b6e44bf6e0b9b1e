import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';
import type { Heightfield } from '../../../sim/terrain/heightfield';
import type { Vec3 } from '../../../sim/math/vec3';

const dir = join(__dirname, '..', '..', '..', 'assets', 'terrains');

function load(name: string): Heightfield {
  const sidecar: unknown = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
  expect((sidecar as { image: string }).image).toBe(`${name}.png`);
  return decodeTerrain(sidecar, new Uint8Array(readFileSync(join(dir, `${name}.png`))));
}

describe('bundled terrains (assets/terrains, written by scripts/gen-terrains.ts)', () => {
  it('hills: 60 m × 60 m at 0.1 m, centred, gentle (< 20° everywhere)', () => {
    const hf = load('hills');
    expect([hf.cols, hf.rows, hf.dx, hf.dy]).toEqual([601, 601, 0.1, 0.1]);
    expect(hf.x0).toBeCloseTo(-30, 9);
    expect(hf.y0).toBeCloseTo(-30, 9);
    expect(hf.maxHeight - hf.minHeight).toBeGreaterThan(1);
    const n: Vec3 = [0, 0, 0];
    let steepest = 1;
    for (let y = -29.5; y < 30; y += 1.3) for (let x = -29.5; x < 30; x += 1.3) steepest = Math.min(steepest, hf.normalAt(n, x, y)[2]);
    expect(Math.acos(steepest)).toBeLessThan((20 * Math.PI) / 180);
  });

  it('curbs: flat ground with steps of 5, 10, 15 cm up then down', () => {
    const hf = load('curbs');
    const y = 1.234;
    const at = (x: number): number => hf.heightAt(x, y);
    const steps = [-10, -6, -2, 3, 7, 11].map((x) => at(x + 0.5) - at(x - 0.5));
    const expected = [0.05, 0.1, 0.15, -0.15, -0.1, -0.05];
    steps.forEach((s, k) => expect(s).toBeCloseTo(expected[k], 4));
    expect(at(-14)).toBeCloseTo(0, 6);
    expect(at(0)).toBeCloseTo(0.3, 4);
    // flat between curbs: rectangles (paper's classification) despite 16-bit quantisation
    const i = Math.round((0 - hf.x0) / hf.dx);
    const j = Math.round((y - hf.y0) / hf.dy);
    expect(hf.cellIsRectangle(i, j)).toBe(true);
  });

  it('ramp: inclines of 10°, 20°, 30° after a flat approach', () => {
    const hf = load('ramp');
    expect(hf.heightAt(-10, 0)).toBeCloseTo(0, 6);
    for (const [y, deg] of [[-8, 10], [0, 20], [8, 30]] as const) {
      const slope = (hf.heightAt(0, y) - hf.heightAt(-3, y)) / 3;
      expect((Math.atan(slope) * 180) / Math.PI).toBeCloseTo(deg, 2);
    }
  });
});
