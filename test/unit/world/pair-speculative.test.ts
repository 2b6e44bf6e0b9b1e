/**
 * Body pairs get contacts within a speculative distance that follows the two bodies' motion
 * (collide.ts pairContacts: POLYTOPE_SPECULATIVE_MIN plus two steps of both bodies' motion, at
 * most SPECULATIVE_DISTANCE), as a box or hull does against the terrain: two boxes at rest 8 mm
 * apart have no contact between them (a contact neither can reach in a step never acts), the same
 * boxes closing at 1 m/s have contacts in time and never overlap, and a box thrown at a box
 * resting beside a third one, a few millimetres away, pushes it into the third without more
 * overlap than a millimetre (the case the motion bound cannot see: speed gained within the step).
 */
import { describe, expect, it } from 'vitest';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import type { BodySpec, WorldSpec } from '../../../sim/dynamics/spec';

function world(bodies: BodySpec[], gravity = 0) {
  const spec: WorldSpec = {
    name: 'pair-margin', gravity: [0, 0, -gravity], dt: 1 / 240, substeps: 4, sleep: false, ccd: false,
    materials: { default: { friction: 0.5 } }, terrainMaterials: {}, joints: [], robot: undefined, script: [], bodies,
  };
  return createDynamicsWorld(spec, null);
}

const box = (name: string, x: number, type: 'dynamic' | 'static' = 'dynamic'): BodySpec =>
  ({ name, type, density: 1000, position: [x, 0, 0], shape: { type: 'box', halfExtents: [0.05, 0.05, 0.05] } });

function pairContacts(w: ReturnType<typeof world>): { n: number; deepest: number } {
  let n = 0, deepest = -Infinity;
  for (let k = 0; k < w.contacts.count; k++) {
    if (w.contacts.bodyB[k] < 0) continue;
    n++;
    deepest = Math.max(deepest, w.contacts.depth[k]);
  }
  return { n, deepest };
}

describe('body pairs: speculative distance by motion', () => {
  it('at rest 8 mm apart: no contact; closing at 1 m/s: contacts in time, no overlap', () => {
    const rest = world([box('a', 0), box('b', 0.108)]);
    rest.step(1);
    expect(pairContacts(rest).n).toBe(0);

    const closing = world([box('a', 0), box('b', 0.108)]);
    closing.bodies.linVel[0] = 1;
    let deepest = -Infinity, n = 0;
    for (let s = 0; s < 24; s++) {
      closing.step(1);
      const c = pairContacts(closing);
      if (s === 0) n = c.n;
      deepest = Math.max(deepest, c.deepest);
    }
    // 1 m/s is 4.2 mm a step: the 8 mm gap is within two steps of motion at the first step
    expect(n).toBeGreaterThanOrEqual(4);
    expect(deepest).toBeLessThan(0.5e-3);
    // the gap closed and the momentum went on to b (no friction against anything else)
    expect(closing.bodies.linVel[3]).toBeGreaterThan(0.4);
  });

  it('a box thrown at 3 m/s at a resting box 4 mm from a wall: at most 1 mm of overlap with the wall', () => {
    // wall (static) | 4 mm | b at rest | 3 cm | a at 3 m/s →  (moving toward −x)
    const w = world([box('wall', 0, 'static'), box('b', 0.104), box('a', 0.234)]);
    w.bodies.linVel[3 * 2] = -3;
    let deepestWall = -Infinity;
    for (let s = 0; s < 120; s++) {
      w.step(1);
      for (let k = 0; k < w.contacts.count; k++) {
        const a = w.contacts.bodyA[k], b = w.contacts.bodyB[k];
        if ((a === 0 && b === 1) || (a === 1 && b === 0)) deepestWall = Math.max(deepestWall, w.contacts.depth[k]);
      }
    }
    expect(deepestWall).toBeGreaterThan(-1e-3); // b did reach the wall
    expect(deepestWall).toBeLessThan(1e-3);
    expect(w.bodies.pos[3]).toBeGreaterThan(0.1 - 1e-3);
  });
});
