/**
 * The collision pass skips a body's terrain query when its whole box lies more than the
 * speculative distance above the highest terrain under it (CollisionPass.aboveTerrain: one
 * min/max-pyramid query; a rover's mast, arm and suspension links were 11 % of the Curiosity
 * model's step, every one of those queries returning nothing). Sound: whenever a query is skipped,
 * the general routine itself, called directly with the largest margin, finds no contact.
 */
import { describe, expect, it } from 'vitest';
import { collideShapeHeightfield } from '../../../sim/collision/dispatcher';
import { ContactBuffer } from '../../../sim/collision/contact';
import { SPECULATIVE_DISTANCE } from '../../../sim/dynamics/constants';
import type { BodySpec } from '../../../sim/dynamics/spec';
import type { Pose, Shape } from '../../../sim/shapes/shape';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { Rng } from '../../../sim/math/random';
import { makeWorld } from './helpers';

/** Bumpy ground: 8 m × 8 m at 0.1 m, ±0.3 m of sines. */
function bumps(): Heightfield {
  const n = 81, h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 0.3 * Math.sin(0.9 * i * 0.1) * Math.cos(1.3 * j * 0.1);
  return Heightfield.fromArray({ cols: n, rows: n, dx: 0.1, dy: 0.1, x0: -4, y0: -4, heights: h });
}

function compound(x: number, y: number, z: number, q: [number, number, number, number]): BodySpec {
  return {
    name: 'mast',
    shape: {
      type: 'compound',
      children: [
        { shape: { type: 'box', halfExtents: [0.3, 0.1, 0.05] }, position: [0, 0, 0] },
        { shape: { type: 'box', halfExtents: [0.05, 0.05, 0.4] }, position: [0.2, 0, 0.3], orientation: [0, 0.2588, 0, 0.9659] },
        { shape: { type: 'sphere', radius: 0.08 }, position: [-0.25, 0.05, -0.1] },
      ],
    },
    mass: 5,
    position: [x, y, z],
    orientation: q,
  };
}

describe('terrain query cull for bodies above the ground', () => {
  it('skips only bodies the general routine finds nothing for (400 seeded poses over bumps), and skips most of those high up', () => {
    const hf = bumps();
    const rng = new Rng(2707);
    let skipped = 0, high = 0, highSkipped = 0;
    const buf = new ContactBuffer(256);
    for (let t = 0; t < 400; t++) {
      const x = rng.range(-3, 3), y = rng.range(-3, 3);
      const ground = hf.heightAt(x, y);
      const lift = rng.range(-0.2, 1.2);
      const ax = rng.range(-1, 1), ay = rng.range(-1, 1), az = rng.range(-1, 1), ang = rng.range(0, Math.PI);
      const n = Math.hypot(ax, ay, az) || 1, s = Math.sin(ang / 2) / n;
      const q: [number, number, number, number] = [ax * s, ay * s, az * s, Math.cos(ang / 2)];
      const world = makeWorld(hf, [compound(x, y, ground + lift, q)], [], { gravity: [0, 0, 0] });
      world.step(1);
      const stats = (world as unknown as { pass: { stats: { terrainSkipped: number } } }).pass.stats;
      const b = world.bodies;
      const pose: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
      b.shapePose(pose.position, pose.orientation as [number, number, number, number], 0);
      buf.clear();
      collideShapeHeightfield(buf, b.shapes[0] as Shape, pose, hf, SPECULATIVE_DISTANCE);
      if (stats.terrainSkipped > 0) {
        skipped++;
        expect(buf.count, `pose ${t}: skipped but the general routine finds ${buf.count} contacts`).toBe(0);
      }
      if (lift > 0.9) {
        high++;
        if (stats.terrainSkipped > 0) highSkipped++;
      }
    }
    expect(skipped).toBeGreaterThan(50);
    expect(highSkipped).toBeGreaterThan(0.8 * high);
  });

  it('a body off the terrain grid is clear; one at the ground is queried', () => {
    const hf = bumps();
    const off = makeWorld(hf, [compound(10, 10, 0, [0, 0, 0, 1])], [], { gravity: [0, 0, 0] });
    off.step(1);
    expect((off as unknown as { pass: { stats: { terrainSkipped: number } } }).pass.stats.terrainSkipped).toBe(1);
    const on = makeWorld(hf, [compound(0, 0, hf.heightAt(0, 0) + 0.05, [0, 0, 0, 1])], [], { gravity: [0, 0, 0] });
    on.step(1);
    expect((on as unknown as { pass: { stats: { terrainSkipped: number } } }).pass.stats.terrainSkipped).toBe(0);
    expect(on.contacts.count).toBeGreaterThan(0);
  });
});
