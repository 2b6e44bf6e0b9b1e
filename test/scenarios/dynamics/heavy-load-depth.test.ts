/**
 * Heavy loads on light bodies. A soft contact row is a spring on the moving body's own effective
 * mass (k = m_eff·ω²), so a wheel carrying L × its own mass rests about L·g/ω² deep: at a constant
 * CONTACT_HERTZ the Curiosity model (about 150 kg on each 2.07 kg wheel) sank 4–7 mm into the
 * hills. Contacts deeper than CONTACT_STIFFEN_DEPTH stiffen with depth (sim/dynamics/contacts.ts);
 * shallow ones (light robots, resting rocks) keep CONTACT_HERTZ.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_STIFFEN_DEPTH } from '../../../sim/dynamics/constants';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import { energy, flat, makeWorld, rover } from './helpers';

/** Deepest terrain or body contact over `steps` steps. */
function deepestOver(world: DynamicsWorld, steps: number): number {
  let deepest = 0;
  for (let s = 0; s < steps; s++) {
    world.step();
    const c = world.contacts;
    for (let q = 0; q < c.count; q++) deepest = Math.max(deepest, c.depth[q]);
  }
  return deepest;
}

/** Over `steps` steps: the deepest contact, and the most the energy rose above its lowest value so far (J, beyond 1 µJ). */
function restingOver(world: DynamicsWorld, steps: number): { grew: number; deepest: number } {
  let e0 = energy(world), grew = 0, deepest = 0;
  for (let s = 0; s < steps; s++) {
    deepest = Math.max(deepest, deepestOver(world, 1));
    const e = energy(world);
    if (e > e0 + 1e-6) grew = Math.max(grew, e - e0);
    e0 = Math.min(e0, e);
  }
  return { grew, deepest };
}

describe('contact depth under a heavy load', () => {
  it('a 600 kg chassis on four 2 kg wheels rests less than 0.7 mm deep (0.91 mm at a constant 120 Hz)', () => {
    const r = rover({ z: 0.3 });
    r.bodies[0].mass = 600;
    const world = makeWorld(flat(), r.bodies, r.joints);
    world.step(480);
    const deepest = deepestOver(world, 240);
    expect(deepest).toBeGreaterThan(CONTACT_STIFFEN_DEPTH); // heavy enough to stiffen
    expect(deepest).toBeLessThan(0.7e-3);
  });

  it('the same rover at 40 kg rests as before (0.08 mm), well above the stiffening depth', () => {
    const r = rover({ z: 0.3 });
    const world = makeWorld(flat(), r.bodies, r.joints);
    world.step(480);
    const deepest = deepestOver(world, 240);
    expect(deepest).toBeGreaterThan(0.05e-3);
    expect(deepest).toBeLessThan(0.5 * CONTACT_STIFFEN_DEPTH);
  });

  it('a 1,500 kg chassis on four 2 kg wheels (the Curiosity model\'s ratio), dropped 5 cm: never 2 mm deep, rests under 1 mm (2.3 mm at 120 Hz), its energy never grows', () => {
    const r = rover({ z: 0.35 });
    r.bodies[0].mass = 1500;
    const world = makeWorld(flat(), r.bodies, r.joints);
    expect(deepestOver(world, 480)).toBeLessThan(2e-3);
    const { grew, deepest } = restingOver(world, 960);
    expect(world.fault).toBeNull();
    expect(deepest).toBeLessThan(1e-3);
    expect(grew).toBe(0);
  });

  it('a body pressed on by another moving body keeps the base stiffness: a 50 kg box on a 1 kg box never gains energy (0.73 J with its ground contact stiffened)', () => {
    const world = makeWorld(flat(41, 0.1), [
      { name: 'light', shape: { type: 'box', halfExtents: [0.25, 0.25, 0.05] }, mass: 1, position: [0, 0, 0.05] },
      { name: 'heavy', shape: { type: 'box', halfExtents: [0.25, 0.25, 0.1] }, mass: 50, position: [0, 0, 0.2005] },
    ]);
    world.step(240);
    const { grew, deepest } = restingOver(world, 1200);
    expect(world.fault).toBeNull();
    expect(deepest).toBeGreaterThan(CONTACT_STIFFEN_DEPTH); // deep enough that stiffening would apply
    expect(grew).toBe(0);
  });
});
