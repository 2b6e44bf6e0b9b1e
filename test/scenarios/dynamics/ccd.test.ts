/**
 * Swept collision in the stepper (issue #15): fast bodies never tunnel through thin static walls
 * or the terrain; with CCD off the same trials do (so the tests can fail); a rover driven off a
 * ramp at 20 m/s onto rough terrain never has a wheel centre or a chassis point below the surface.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { Heightfield } from '../../../sim/terrain/heightfield';
import type { BodySpec } from '../../../sim/dynamics/spec';
import { makeWorld, rover } from './helpers';

const DT = 1 / 240;
const TRIALS = Number(process.env.CCD_TRIALS ?? 1000);

/** Rough terrain with steep curbs and single-cell spikes, 20 × 20 m at 0.1 m. */
function roughTerrain(seed: number): Heightfield {
  const rng = new Rng(seed);
  const n = 201, d = 0.1;
  const h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = 0.05 * Math.sin(i * 0.3) * Math.cos(j * 0.2) + 0.02 * rng.next() + (i % 37 === 0 ? 0.2 : 0);
  for (let k = 0; k < 40; k++) h[rng.int(1, n - 2) * n + rng.int(1, n - 2)] += 0.5; // spikes
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -10, y0: -10, heights: h });
}

/** Fires one projectile per trial at a 0.01 m wall (x = 0) and counts those that end beyond it. */
function wallTrials(kind: 'sphere' | 'box', speed: number, ccd: boolean, trials: number): number {
  const rng = new Rng(speed * 7 + (kind === 'box' ? 1 : 0));
  let through = 0;
  for (let t = 0; t < trials; t++) {
    const elev = rng.range(-0.6, 0.6), azim = rng.range(-0.6, 0.6);
    const dir: [number, number, number] = [Math.cos(elev) * Math.cos(azim), Math.cos(elev) * Math.sin(azim), Math.sin(elev)];
    const start: [number, number, number] = [-0.3 - rng.range(0, speed * DT), -dir[1] * 0.3, 5 - dir[2] * 0.3];
    const shape = kind === 'sphere' ? { type: 'sphere' as const, radius: 0.02 } : { type: 'box' as const, halfExtents: [0.025, 0.025, 0.025] as [number, number, number] };
    const bodies: BodySpec[] = [
      { name: 'wall', type: 'static', shape: { type: 'box', halfExtents: [0.005, 4, 4] }, position: [0, 0, 5] },
      { name: 'bullet', shape, density: 2000, position: start, linearVelocity: [dir[0] * speed, dir[1] * speed, dir[2] * speed], angularVelocity: [rng.range(-50, 50), rng.range(-50, 50), rng.range(-50, 50)] },
    ];
    const world = makeWorld(null, bodies, [], { gravity: [0, 0, 0], ccd, sleep: false });
    world.step(6);
    if (world.bodies.pos[3] > 0.005) through++;
  }
  return through;
}

describe('projectiles against a 0.01 m static wall (dt = 1/240 s)', () => {
  for (const kind of ['sphere', 'box'] as const) {
    for (const speed of [200, 1000]) {
      it(`${kind} at ${speed} m/s: no pass-through with CCD, tunnels without`, () => {
        expect(wallTrials(kind, speed, true, TRIALS)).toBe(0);
        expect(wallTrials(kind, speed, false, 30)).toBeGreaterThan(0);
      });
    }
  }
});

describe('projectiles against the heightfield', () => {
  for (const kind of ['sphere', 'box'] as const) {
    for (const speed of [200, 1000]) {
      it(`${kind} at ${speed} m/s at grazing and steep angles, curbs and spikes: never ends below the surface`, () => {
        const hf = roughTerrain(5);
        const run = (ccd: boolean, trials: number) => {
          const rng = new Rng(speed + (kind === 'box' ? 3 : 0));
          let below = 0;
          for (let t = 0; t < trials; t++) {
            const down = rng.range(0.02, 1.2); // grazing to steep
            const az = rng.range(0, 2 * Math.PI);
            const dir: [number, number, number] = [Math.cos(down) * Math.cos(az), Math.cos(down) * Math.sin(az), -Math.sin(down)];
            const x = rng.range(-3, 3), y = rng.range(-3, 3);
            const start: [number, number, number] = [x, y, hf.heightAt(x, y) + 0.3 + rng.range(0, 1)];
            const shape = kind === 'sphere' ? { type: 'sphere' as const, radius: 0.02 } : { type: 'box' as const, halfExtents: [0.025, 0.025, 0.025] as [number, number, number] };
            const world = makeWorld(hf, [
              { name: 'bullet', shape, density: 2000, position: start, linearVelocity: [dir[0] * speed, dir[1] * speed, dir[2] * speed] },
            ], [], { ccd, sleep: false });
            for (let s = 0; s < 4; s++) {
              world.step(1);
              const px = world.bodies.pos[0], py = world.bodies.pos[1], pz = world.bodies.pos[2];
              if (hf.contains(px, py) && pz < hf.heightAt(px, py) - 0.005) {
                below++;
                break;
              }
            }
          }
          return below;
        };
        expect(run(true, TRIALS)).toBe(0);
        expect(run(false, 30)).toBeGreaterThan(0);
      });
    }
  }
});

describe('a rover at 20 m/s off a ramp onto rough terrain', () => {
  it('never has a wheel centre or a chassis corner below the terrain surface (CCD on)', () => {
    const hf = roughTerrain(9);
    const r = rover({ x: -8, z: 0.6, torque: 200 });
    for (const b of r.bodies) b.linearVelocity = [20, 0, 3];
    const world = makeWorld(hf, r.bodies, r.joints, { sleep: false });
    for (const d of world.joints.defs) world.setMotor(d.name, 20 / 0.15);
    let worstCentre = Infinity, worstCorner = Infinity;
    const q = [0, 0, 0, 1];
    for (let s = 0; s < 240; s++) {
      world.step(1);
      expect(world.fault).toBeNull();
      for (let b = 0; b < 5; b++) {
        const x = world.bodies.pos[3 * b], y = world.bodies.pos[3 * b + 1], z = world.bodies.pos[3 * b + 2];
        if (hf.contains(x, y)) worstCentre = Math.min(worstCentre, z - hf.heightAt(x, y));
      }
      // the chassis box's 8 corners (half extents 0.5, 0.3, 0.15)
      for (let k = 0; k < 4; k++) q[k] = world.bodies.rot[k];
      for (const cx of [-0.5, 0.5]) for (const cy of [-0.3, 0.3]) for (const cz of [-0.15, 0.15]) {
        const tx = 2 * (q[1] * cz - q[2] * cy), ty = 2 * (q[2] * cx - q[0] * cz), tz = 2 * (q[0] * cy - q[1] * cx);
        const x = world.bodies.pos[0] + cx + q[3] * tx + (q[1] * tz - q[2] * ty);
        const y = world.bodies.pos[1] + cy + q[3] * ty + (q[2] * tx - q[0] * tz);
        const z = world.bodies.pos[2] + cz + q[3] * tz + (q[0] * ty - q[1] * tx);
        if (hf.contains(x, y)) worstCorner = Math.min(worstCorner, z - hf.heightAt(x, y));
      }
    }
    expect(worstCentre).toBeGreaterThan(0);
    // a corner may touch and press a contact's depth into the ground, never more
    expect(worstCorner).toBeGreaterThan(-0.02);
  });
});
