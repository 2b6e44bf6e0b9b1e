/**
 * Issue #17: the bundled default scenario (the README's `npm run sim -- assets/scenarios/default.json
 * --duration 60`) keeps the rover on the map for the whole minute: no fault, and every robot
 * body at least MARGIN from the terrain's edge at every step. Loaded the way the CLI loads it
 * (readScenarioFiles, the default service). 12,000 steps: a few seconds.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { readScenarioFiles } from '../../sim/node/cli';
import { createDefaultService } from '../../sim/app/default-service';
import type { SimWorld } from '../../sim/app/sim-world';

const DEFAULT_SCENARIO = resolve(__dirname, '../../assets/scenarios/default.json');
/** [m] Smallest distance from a robot body's origin to the terrain's edge over the minute (about 15 m measured). */
const MARGIN = 5;

describe('the default scenario (issue #17)', () => {
  it('drives 60 s without a fault, every robot body more than 5 m inside the terrain', async () => {
    const service = createDefaultService();
    await service.load(readScenarioFiles(DEFAULT_SCENARIO));
    const w = service.getWorld() as SimWorld;
    const e = w.engine;
    const t = w.terrain;
    const robot = w.spec.robot!.bodies.map((b) => e.bodies.indexOf(b.name));
    const x1 = t.x0 + (t.cols - 1) * t.dx, y1 = t.y0 + (t.rows - 1) * t.dy;
    let margin = Infinity;
    let travelled = 0;
    let px = e.bodies.pos[3 * robot[0]], py = e.bodies.pos[3 * robot[0] + 1];
    const steps = Math.round(60 / w.dt);
    for (let s = 0; s < steps; s++) {
      e.step(1);
      for (const b of robot) {
        const x = e.bodies.pos[3 * b], y = e.bodies.pos[3 * b + 1];
        margin = Math.min(margin, x - t.x0, x1 - x, y - t.y0, y1 - y);
      }
      const x = e.bodies.pos[3 * robot[0]], y = e.bodies.pos[3 * robot[0] + 1];
      travelled += Math.hypot(x - px, y - py);
      px = x; py = y;
    }
    service.dispose();
    expect(e.fault).toBeNull();
    expect(e.stepCount).toBe(steps);
    expect(margin).toBeGreaterThan(MARGIN);
    // it drives the minute (not parked in a safe spot): about 1.6 m/s
    expect(travelled).toBeGreaterThan(80);
  }, 120_000);
});
