/**
 * A compound body (a robot's chassis of several parts) gets terrain contacts within a
 * speculative distance that follows its motion, as rocks do (collide.ts motionMargin): at rest
 * a part 8 mm above the ground has none (a contact farther than the body can travel in a step
 * never acts), moving toward the ground it has them in time, and a fast drop neither tunnels nor
 * sinks.
 */
import { describe, expect, it } from 'vitest';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import type { WorldSpec } from '../../../sim/dynamics/spec';
import { Heightfield } from '../../../sim/terrain/heightfield';

const N = 41, D = 0.1;

function world(gap: number, gravity: number) {
  const terrain = Heightfield.fromArray({ cols: N, rows: N, dx: D, dy: D, x0: -2, y0: -2, heights: new Float64Array(N * N) });
  // two boxes: the lower one's bottom at `gap` above the ground (z = 0)
  const spec: WorldSpec = {
    name: 'compound', gravity: [0, 0, -gravity], dt: 1 / 240, substeps: 4, sleep: false, ccd: false,
    materials: { default: { friction: 0.8 } }, terrainMaterials: {}, joints: [], robot: undefined, script: [],
    bodies: [{
      name: 'chassis', density: 500, position: [0.03, -0.02, 0.05 + gap],
      shape: { type: 'compound', children: [
        { shape: { type: 'box', halfExtents: [0.3, 0.2, 0.05] }, position: [0, 0, 0], orientation: [0, 0, 0, 1] },
        { shape: { type: 'box', halfExtents: [0.1, 0.1, 0.05] }, position: [0, 0, 0.1], orientation: [0, 0, 0, 1] },
      ] },
    }],
  };
  return createDynamicsWorld(spec, terrain);
}

function terrainContacts(w: ReturnType<typeof world>): { n: number; deepest: number } {
  let n = 0, deepest = -Infinity;
  for (let k = 0; k < w.contacts.count; k++) {
    if (w.contacts.bodyB[k] !== -1) continue;
    n++;
    deepest = Math.max(deepest, w.contacts.depth[k]);
  }
  return { n, deepest };
}

describe('compound body vs terrain: speculative distance by motion', () => {
  it('at rest 8 mm up: no contact; moving down at 1 m/s: contacts at the gap; dropped at 3 m/s from 1 cm: rests on the ground, never deeper than 2 mm', () => {
    const rest = world(0.008, 0);
    rest.step(1);
    expect(terrainContacts(rest).n).toBe(0);

    const falling = world(0.008, 0);
    falling.bodies.linVel[2] = -1;
    falling.step(1);
    const c = terrainContacts(falling);
    expect(c.n).toBeGreaterThanOrEqual(4);
    // the contact reports the gap after the step's motion is stopped by it: between −8 mm and 0
    expect(c.deepest).toBeLessThanOrEqual(0.002);

    const drop = world(0.01, 9.81);
    drop.bodies.linVel[2] = -3;
    const z0 = drop.bodies.pos[2]; // the centre of mass (above the origin: the upper box)
    let deepest = 0, lowest = z0;
    for (let s = 0; s < 240; s++) {
      drop.step(1);
      deepest = Math.max(deepest, terrainContacts(drop).deepest);
      lowest = Math.min(lowest, drop.bodies.pos[2]);
    }
    expect(deepest).toBeLessThan(0.002);
    expect(lowest).toBeGreaterThan(z0 - 0.01 - 0.002);
    expect(drop.bodies.pos[2]).toBeCloseTo(z0 - 0.01, 2);
    expect(Math.abs(drop.bodies.linVel[2])).toBeLessThan(0.01);
  });
});
