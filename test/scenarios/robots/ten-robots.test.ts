/**
 * Issue #27's ten-robot check as the independent checker runs it (ten-robots.ts): each
 * unmodified public description, named by a scenario file's `robot.urdf`, read as the CLI reads
 * it, on flat ground and on the bundled hills: no fault; on flat ground it settles (the base drops
 * < 2 cm in 1 s); it drives straight (heading change ≤ 3° over 5 s at throttle 0.5, > 2 m) and
 * turns (> 20° in 2 s at steer 1); ≥ 90 % of its wheel–terrain contacts are the paper's classified
 * contacts; none is deeper than 2 mm after the settle. Speed is the `robots` benchmark's
 * (npm run bench -- robots). Simulated time: 8 s per robot and terrain.
 */
import { describe, expect, it } from 'vitest';
import { expandXacro } from '../../../sim/robot/urdf/xacro';
import { TEN_ROBOTS, runCheck, writeCheckScenario } from './ten-robots';

/** The Husky's pacs.urdf.xacro calls `${name.upper()}`: the xacro fix is on the robots-bundle branch. */
async function pythonStringMethods(): Promise<boolean> {
  try {
    const out = await expandXacro(`<robot name="r" xmlns:xacro="http://ros.org/wiki/xacro"><link name="\${'a'.upper()}"/></robot>`, { path: '/x.xacro', readFile: () => undefined });
    return out.urdf.includes('"A"');
  } catch {
    return false;
  }
}
const stringMethods = await pythonStringMethods();

describe('the ten-robot check (issue #27): unmodified public descriptions through a scenario file', () => {
  for (const robot of TEN_ROBOTS) {
    const pending = robot.name === 'Clearpath Husky' && !stringMethods;
    for (const terrain of ['flat', 'hills'] as const) {
      it.skipIf(pending)(`${robot.name} on ${terrain === 'flat' ? 'flat ground' : 'the bundled hills'}: no fault, settles, straight ≤ 3° over 5 s, turns, ≥ 90 % classified wheel contacts, ≤ 2 mm deep`, async () => {
        const r = await runCheck(writeCheckScenario(robot, terrain));
        const what = `${robot.name} (${terrain})`;
        expect(r.fault, what).toBeNull();
        if (terrain === 'flat') expect(r.settleDrop, `${what} drop at spawn [m]`).toBeLessThan(0.02);
        expect(r.headingChange, `${what} heading change [deg]`).toBeLessThanOrEqual(3);
        expect(r.driven, `${what} driven [m]`).toBeGreaterThan(2);
        expect(r.turned, `${what} turn [deg]`).toBeGreaterThan(20);
        expect(r.classified, `${what} classified wheel contacts`).toBeGreaterThan(1000);
        expect(r.classified / (r.classified + r.general), `${what} classified share`).toBeGreaterThanOrEqual(0.9);
        expect(r.deepest, `${what} deepest contact [m]`).toBeLessThanOrEqual(2e-3);
      }, 300_000);
    }
  }
});
