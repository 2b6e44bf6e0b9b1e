/**
 * A chassis-sized box on the terrain goes through the closed-form polytope–terrain routine (the
 * rocks' one, POLYTOPE_TERRAIN_MAX_CELLS); a body whose query makes more candidates than that
 * routine's workspace holds (a wide slab lying flat on a fine grid) falls back to the general
 * routine. Either way it rests on the ground, not in it.
 */
import { describe, expect, it } from 'vitest';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { flat, makeWorld } from './helpers';

type Stats = { polytopeFallbacks: number; degraded: number };
const statsOf = (world: unknown): Stats => (world as { pass: { stats: Stats } }).pass.stats;

/** Ridges 0.1 m high every 0.8 m along x (|sin| crests), 5 cm grid. */
function ridges(): Heightfield {
  const n = 81, d = 0.05, h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 0.1 * (1 - Math.abs(Math.sin((Math.PI * i * d) / 0.8)));
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -2, y0: -2, heights: h });
}

describe('a chassis on the terrain', () => {
  it('a 40 kg 1.0 × 0.6 × 0.3 m box dropped across two ridge crests rests on them (closed-form routine, no fallback)', () => {
    const hf = ridges();
    // crests at x = ±0.4 (i·d = 1.6 and 2.4 from x0 = −2), the box spanning both
    const world = makeWorld(hf, [{ name: 'chassis', shape: { type: 'box', halfExtents: [0.5, 0.3, 0.15] }, mass: 40, position: [0, 0, 0.1 + 0.15 + 0.01] }]);
    let fallbacks = 0;
    for (let s = 0; s < 480; s++) {
      world.step(1);
      fallbacks += statsOf(world).polytopeFallbacks;
    }
    expect(world.fault).toBeNull();
    expect(fallbacks).toBe(0);
    // resting on the crests (height 0.1): its bottom face within 1 mm of them
    const bottom = world.bodies.pos[2] - 0.15;
    expect(bottom).toBeGreaterThan(0.1 - 0.001);
    expect(bottom).toBeLessThan(0.1 + 0.001);
    expect(Math.abs(world.bodies.linVel[2])).toBeLessThan(1e-3);
  });

  it('a 1.8 × 1.8 m slab lying flat on a 5 cm grid makes more candidates than the closed-form routine holds: the general routine takes the query, and the slab rests', () => {
    const world = makeWorld(flat(), [{ name: 'slab', shape: { type: 'box', halfExtents: [0.9, 0.9, 0.05] }, mass: 120, position: [0.01, 0.02, 0.05 + 0.005] }]);
    let fallbacks = 0;
    for (let s = 0; s < 240; s++) {
      world.step(1);
      fallbacks += statsOf(world).polytopeFallbacks;
    }
    expect(world.fault).toBeNull();
    expect(fallbacks).toBeGreaterThan(100);
    const bottom = world.bodies.pos[2] - 0.05;
    expect(bottom).toBeGreaterThan(-0.001);
    expect(bottom).toBeLessThan(0.001);
    expect(Math.abs(world.bodies.linVel[2])).toBeLessThan(1e-3);
  });
});
