/**
 * Issue #17, "terrain too fine for a wheel" (sim/app/warnings.ts): the footprint cell count
 * (wheelFootprintCells) against the wheel query's own cell range (cell-range.ts, an independent
 * oracle), the threshold's edges (square and dx ≠ dy cells), one line per wheel size, and the
 * truncation message past CYLINDER_TERRAIN_MAX_CELLS.
 */
import { describe, expect, it } from 'vitest';
import { WHEEL_MAX_FOOTPRINT_CELLS, wheelFootprintCells, worldWarnings } from '../../../sim/app/warnings';
import { cylinderCellRange } from '../../../sim/collision/cylinder-terrain/cell-range';
import { CYLINDER_TERRAIN_MAX_CELLS } from '../../../sim/constants';
import { Rng } from '../../../sim/math/random';
import type { BodyInfo, WorldInfo } from '../../../sim/app/protocol';

const wheel = (name: string, radius: number, height: number): BodyInfo => ({ name, role: 'wheel', shape: { type: 'cylinder', radius, height }, wheel: { radius, height, position: [0, 0, 0], orientation: [0, 0, 0, 1] } });
const chassis: BodyInfo = { name: 'chassis', role: 'chassis', shape: { type: 'box', halfExtents: [0.3, 0.2, 0.1] } };
function world(dx: number, dy: number, bodies: BodyInfo[]): WorldInfo {
  const cols = 11, rows = 11;
  const heights = new Float32Array(cols * rows);
  return {
    scenarioName: 't', dt: 0.01, baseBody: 0, joints: [], bodies: [chassis, ...bodies],
    terrain: { cols, rows, dx, dy, x0: 0, y0: 0, minHeight: 0, maxHeight: 0, overview: { stride: 1, cols, rows, heights } },
  };
}
const R = 0.15, H = 0.1;
const E2 = 2 * Math.hypot(R, H / 2);
/** Square cell size at which the footprint is exactly the threshold: (E2/d + 1)² = max. */
const D_EDGE = E2 / (Math.sqrt(WHEEL_MAX_FOOTPRINT_CELLS) - 1);

describe('terrain too fine for a wheel', () => {
  it('footprint cells: the mean of the query\'s own cell range over random centres, at the worst yaw, is under the bound and close to it', () => {
    const rng = new Rng(17);
    const d = 0.01, range = { i0: 0, j0: 0, i1: 0, j1: 0 };
    const grid = { x0: 0, y0: 0, dx: d, dy: d, cellsX: 1000, cellsY: 1000 };
    let worst = 0;
    for (const yaw of [0, Math.PI / 8, Math.PI / 4, Math.PI / 3, Math.PI / 2]) {
      let sum = 0;
      const n = 400;
      for (let k = 0; k < n; k++) {
        // an upright wheel: axis horizontal, along yaw + 90°
        cylinderCellRange(range, grid, 4 + rng.range(0, 1), 4 + rng.range(0, 1), -Math.sin(yaw), Math.cos(yaw), R, H / 2);
        sum += (range.i1 - range.i0 + 1) * (range.j1 - range.j0 + 1);
      }
      worst = Math.max(worst, sum / n);
    }
    const bound = wheelFootprintCells(R, H, d, d);
    expect(worst).toBeLessThanOrEqual(bound);
    expect(worst).toBeGreaterThan(0.75 * bound);
  });

  it('square cells: no warning just above the edge cell size, one just below', () => {
    expect(wheelFootprintCells(R, H, D_EDGE, D_EDGE)).toBeCloseTo(WHEEL_MAX_FOOTPRINT_CELLS, 6);
    expect(worldWarnings(world(D_EDGE * 1.001, D_EDGE * 1.001, [wheel('w', R, H)]))).toEqual([]);
    const w = worldWarnings(world(D_EDGE * 0.999, D_EDGE * 0.999, [wheel('w', R, H)]));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^terrain too fine for w: radius 0\.150 m covers up to 102[4-9] cells of 0\.0102 m \(over 1024\): contacts may be dropped/);
  });

  it('dx ≠ dy: both cell sizes count, in either order', () => {
    const dx = 0.005;
    const dy = E2 / (WHEEL_MAX_FOOTPRINT_CELLS / (E2 / dx + 1) - 1);
    expect(dy).toBeGreaterThan(2 * dx);
    for (const [a, b] of [[dx, dy], [dy, dx]]) {
      const big = b === dy ? [a, b * 1.001] : [a * 1.001, b];
      const small = b === dy ? [a, b * 0.999] : [a * 0.999, b];
      expect(worldWarnings(world(big[0], big[1], [wheel('w', R, H)]))).toEqual([]);
      const w = worldWarnings(world(small[0], small[1], [wheel('w', R, H)]));
      expect(w).toHaveLength(1);
      expect(w[0]).toContain(' × ');
    }
    // the same cells with a square grid of the smaller size warn: dx ≠ dy is not max(dx, dy)
    expect(worldWarnings(world(dx, dx, [wheel('w', R, H)]))).toHaveLength(1);
    expect(worldWarnings(world(dy, dy, [wheel('w', R, H)]))).toEqual([]);
  });

  it('several wheel sizes: one line per size naming the wheel or the count; coarse and fine side by side', () => {
    const bodies = [wheel('fl', R, H), wheel('fr', R, H), wheel('big', 0.6, 0.3), wheel('tiny', 0.012, 0.01)];
    const w = worldWarnings(world(0.008, 0.008, bodies));
    expect(w).toHaveLength(3);
    expect(w.filter((s) => s.startsWith('terrain too coarse for tiny: radius 0.012 m is 1.5 cells'))).toHaveLength(1);
    expect(w.filter((s) => s.startsWith('terrain too fine for 2 wheels: radius 0.150 m'))).toHaveLength(1);
    expect(w.filter((s) => s.startsWith('terrain too fine for big: radius 0.600 m'))).toHaveLength(1);
  });

  it('past the query\'s cell budget the message says the footprint is truncated', () => {
    const d = E2 / (Math.sqrt(CYLINDER_TERRAIN_MAX_CELLS) - 1) * 0.99;
    const w = worldWarnings(world(d, d, [wheel('w', R, H)]));
    expect(w).toEqual([expect.stringContaining(`the query visits only ${CYLINDER_TERRAIN_MAX_CELLS} of them and loses the contacts outside`)]);
  });
});
