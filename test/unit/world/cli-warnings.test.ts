/**
 * Issue #17's warnings in `npm run sim`'s output (sim/node/cli.ts, sim/app/warnings.ts): a terrain too
 * coarse for the rover's wheels and the robot leaving the map are in the run's summary and printed
 * as "warning" lines; a fine terrain with the robot staying on it gives none.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatSummary, runScenarioFile } from '../../../sim/node/cli';

const dir = mkdtempSync(join(tmpdir(), 'terrawheel-cli-warnings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A flat square map of `cells` cells of `dx` m centred on the origin; the rover at (x, 0) driving +x. */
function scenario(name: string, cells: number, dx: number, x: number, throttle: number): string {
  const n = cells + 1;
  const half = (cells * dx) / 2;
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({
    format: 'terrawheel-scenario', version: 2, name,
    terrain: { cols: n, rows: n, dx, dy: dx, x0: -half, y0: -half, heights: new Array(n * n).fill(0) },
    robot: { type: 'skid-steer', position: [x, 0], yaw: 0 },
    script: [{ t: 0, throttle, steer: 0 }],
  }));
  return path;
}

const run = (scenarioPath: string, duration: number) => runScenarioFile({ scenarioPath, duration, throttle: null, steer: null, json: false });

describe('npm run sim: warnings', () => {
  it('a coarse terrain and a robot driving off the map: the warning printed, leaving the map as the fault', async () => {
    // 0.5 m cells: the rover's wheels span well under two cells; it starts 1 m from the east edge
    const r = await run(scenario('coarse-edge', 20, 0.5, 4, 1), 3);
    expect(r.warnings.some((w) => w.startsWith('terrain too coarse for 4 wheels'))).toBe(true);
    // leaving the map is a fault since f8214da (where and when); the sampled warning is then dropped
    expect(r.faultDetail?.kind).toBe('left-terrain');
    expect(r.warnings).not.toContain('left the terrain');
    const text = formatSummary(r);
    expect(text).toMatch(/^warning +terrain too coarse/m);
    expect(text).toMatch(/left the terrain at x/);
  });

  it('a terrain too fine for the wheels: one printed line for the four wheels', async () => {
    // 5 mm cells: each of the rover's wheels covers ~4000 cells per query, over WHEEL_MAX_FOOTPRINT_CELLS
    const r = await run(scenario('too-fine', 400, 0.005, 0, 0), 0.02);
    expect(r.warnings.filter((w) => w.startsWith('terrain too fine for 4 wheels'))).toHaveLength(1);
    expect(formatSummary(r)).toMatch(/^warning +terrain too fine for 4 wheels: radius [0-9.]+ m covers up to \d+ cells of 0\.0050 m/m);
  });

  it('a fine terrain with the robot standing on it: no warning', async () => {
    const r = await run(scenario('fine', 100, 0.05, 0, 0), 0.5);
    expect(r.warnings).toEqual([]);
    expect(formatSummary(r)).not.toMatch(/^warning/m);
  });
});
