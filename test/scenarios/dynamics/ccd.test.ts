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
    // flat approach, a 15° ramp up 0.8 m ending at x = −3 with a sheer drop, then the rough field
    const rough = roughTerrain(9);
    const n = rough.cols, d = rough.dx;
    const h = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const x = rough.x0 + i * d;
        const ramp = x < -6 ? 0 : x <= -3 ? (x + 6) * Math.tan((15 * Math.PI) / 180) : null;
        h[j * n + i] = ramp ?? rough.heights[j * n + i];
      }
    }
    const hf = Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: rough.x0, y0: rough.y0, heights: h });
    const r = rover({ x: -8.5, z: 0.32, torque: 200 });
    for (const b of r.bodies) b.linearVelocity = [20, 0, 0];
    const world = makeWorld(hf, r.bodies, r.joints, { sleep: false });
    for (const d of world.joints.defs) world.setMotor(d.name, 20 / 0.15);
    let worstCentre = Infinity, worstCorner = Infinity, airborne = 0;
    const q = [0, 0, 0, 1];
    for (let s = 0; s < 240; s++) {
      world.step(1);
      expect(world.fault).toBeNull();
      let touching = 0;
      for (let i = 0; i < world.contacts.count; i++) if (world.contacts.bodyB[i] < 0 && world.contacts.depth[i] > -1e-3) touching++;
      if (touching === 0) airborne++;
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
    expect(airborne).toBeGreaterThan(5); // it did fly off the ramp
    expect(world.bodies.pos[0]).toBeGreaterThan(0); // and landed on the rough field beyond
    expect(worstCentre).toBeGreaterThan(0);
    // a corner may touch and press a contact's depth into the ground, never more
    expect(worstCorner).toBeGreaterThan(-0.02);
  });
});

describe('a wheel at speed into a curb', () => {
  it('never ends inside the curb with CCD (deepest contact < 15 mm); without CCD it does', async () => {
    const { collideCylinderTerrain } = await import('../../../sim/collision/cylinder-terrain/plain-api');
    const { AXLE_Y } = await import('./helpers');
    // flat ground with a 0.3 m curb for x ≥ 1
    const n = 81, d = 0.05;
    const h = new Float64Array(n * n);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = -2 + i * d >= 1 ? 0.3 : 0;
    const hf = Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -2, y0: -2, heights: h });
    const deepest = (ccd: boolean) => {
      let worst = 0;
      for (const speed of [15, 25, 40]) {
        const world = makeWorld(hf, [
          { name: 'wheel', shape: { type: 'cylinder', radius: 0.15, height: 0.1 }, mass: 2, position: [-1, 0.013, 0.151], orientation: AXLE_Y, linearVelocity: [speed, 0, 0], angularVelocity: [0, speed / 0.15, 0] },
        ], [], { ccd, sleep: false, gravity: [0, 0, -9.81] });
        for (let s = 0; s < 60; s++) {
          world.step(1);
          const q = world.bodies.rot;
          const axis: [number, number, number] = [2 * (q[0] * q[2] + q[1] * q[3]), 2 * (q[1] * q[2] - q[0] * q[3]), 1 - 2 * (q[0] * q[0] + q[1] * q[1])];
          const c = collideCylinderTerrain({ center: [world.bodies.pos[0], world.bodies.pos[1], world.bodies.pos[2]], axis, radius: 0.15, height: 0.1 }, hf);
          for (const k of c.contacts) worst = Math.max(worst, k.depth);
        }
      }
      return worst;
    };
    expect(deepest(true)).toBeLessThan(0.015);
    expect(deepest(false)).toBeGreaterThan(0.015);
  });
});

describe('who gets continuous treatment', () => {
  it('a slow body is cast only with its ccd flag; a fast one always; none with the world setting off', () => {
    const stats = (ccdFlag: boolean, speed: number, worldCcd = true) => {
      const world = makeWorld(null, [
        { name: 'b', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0, 0, 0], linearVelocity: [speed, 0, 0], ccd: ccdFlag },
      ], [], { gravity: [0, 0, 0], ccd: worldCcd });
      world.step(1);
      return (world as unknown as { ccd: { stats: { cast: number } } }).ccd.stats.cast;
    };
    expect(stats(false, 1)).toBe(0); // 4 mm per step < ¼ of 0.2 m
    expect(stats(true, 1)).toBe(1);
    expect(stats(false, 100)).toBe(1); // 0.42 m per step
    expect(stats(true, 100, false)).toBe(0);
  });
});
