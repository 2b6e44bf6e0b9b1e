/**
 * Issue #28, "a small scenario hangs the machine": thousands of boxes placed inside each other
 * (200 KB of JSON) took 82 s for 2 steps at 6.5 GB. The collision pass caps the body pairs it
 * hands to the narrow phase (MAX_BODY_PAIRS): past it the world pauses at its first step with a
 * fault that names the bodies with the most overlaps, and the contact store stays small.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultService } from '../../sim/app/default-service';
import { readScenarioFiles } from '../../sim/node/cli';
import { MAX_BODY_PAIRS } from '../../sim/dynamics/constants';
import { Rng } from '../../sim/math/random';

/** The barrels scenario with `n` boxes piled into one spot in the air (every box overlaps every other). */
function pile(n: number) {
  const files = readScenarioFiles(resolve(__dirname, '../../assets/scenarios/barrels.json'));
  const rng = new Rng(28);
  const scenario = files.scenario as { bodies: unknown[] };
  scenario.bodies = Array.from({ length: n }, (_, i) => ({
    name: `box-${i}`,
    shape: { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
    mass: 1,
    position: [rng.range(-0.2, 0.2), rng.range(-0.2, 0.2), 5 + rng.range(-0.2, 0.2)],
    orientation: [0, 0, 0, 1],
  }));
  return files;
}

describe('a start state with too many overlapping bodies (issue #28)', () => {
  it(`600 boxes inside each other (179,700 pairs > ${MAX_BODY_PAIRS}): paused at step 1, the bodies named, memory bounded`, async () => {
    expect(600 * 599 / 2).toBeGreaterThan(MAX_BODY_PAIRS);
    const s = createDefaultService();
    await s.load(pile(600));
    const e = s.getWorld()!.engine;
    e.step(2);
    expect(e.fault, 'no fault: the narrow phase ran over every pair').not.toBeNull();
    expect(e.fault!.kind).toBe('limit');
    expect(e.stepCount).toBe(0);
    expect(e.fault!.reason).toMatch(/179700 body pairs overlap at step 1, over the limit of \d+ \(MAX_BODY_PAIRS\)/);
    expect(e.fault!.reason).toMatch(/most overlapped: "box-\d+" \(599 pairs\), "box-\d+" \(599 pairs\)/);
    expect(e.fault!.body).toMatch(/^box-\d+$/);
    expect(e.contacts.capacity).toBeLessThanOrEqual(605 * 16);
    s.dispose();
  }, 120_000);

  it('a pile under the cap still steps (60 boxes, 1,770 pairs)', async () => {
    const s = createDefaultService();
    await s.load(pile(60));
    const e = s.getWorld()!.engine;
    e.step(1);
    expect(e.fault?.reason ?? '').not.toMatch(/MAX_BODY_PAIRS/);
    expect(e.contacts.count).toBeGreaterThan(0);
    s.dispose();
  }, 120_000);
});
