/**
 * Sweep metrics against closed forms (issue #31 item 2): the motor effort the world exposes
 * (DynamicsWorld.jointMotorEffort), the motor energy built on it, the slip quantile's histogram,
 * and the chassis clearance of a rover at rest on flat ground.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { histogramQuantile, motorPower } from '../../../sim/batch/run';
import { runTask } from '../../../sim/node/sweep-task';
import { METRIC_NAMES } from '../../../sim/scenario/sweep-schema';
import { AXLE_Y, makeWorld } from '../dynamics/helpers';
import { readFileSync } from 'node:fs';

/** A 2 kg disc (r = 0.15 m) on a motored revolute joint to the world, axis y, no gravity. */
function spinner(motor: { targetVelocity: number; maxTorque: number }, resist: { damping?: number } = {}) {
  const world = makeWorld(null, [
    { name: 'wheel', shape: { type: 'cylinder', radius: 0.15, height: 0.1 }, mass: 2, position: [0, 0, 1], orientation: AXLE_Y },
    { name: 'free', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [3, 0, 1] },
  ], [
    { type: 'revolute', name: 'axle', bodyB: 'wheel', anchor: [0, 0, 1], axis: [0, 1, 0], motor, ...resist },
    { type: 'revolute', name: 'idle', bodyB: 'free', anchor: [3, 0, 1], axis: [0, 1, 0] },
  ], { gravity: [0, 0, 0] });
  const I = 0.5 * 2 * 0.15 * 0.15; // about the axis [kg·m²]
  return { world, I, motors: Int32Array.from([0]) };
}

describe('jointMotorEffort', () => {
  it('is the torque limit while a wheel spins up, with the sign of the target; 0 without a motor', () => {
    for (const sign of [1, -1]) {
      const { world } = spinner({ targetVelocity: 50 * sign, maxTorque: 0.5 });
      expect(world.jointMotorEffort(0)).toBe(0); // before the first step
      world.step(24);
      expect(world.jointMotorEffort(0)).toBeCloseTo(0.5 * sign, 9);
      expect(world.jointMotorEffort(1)).toBe(0);
    }
  });

  it('equals the damping torque d·ω it holds a speed against (below the limit)', () => {
    const { world } = spinner({ targetVelocity: 4, maxTorque: 2 }, { damping: 0.1 });
    world.step(480);
    expect(world.joints.velocity[0]).toBeCloseTo(4, 3);
    expect(world.jointMotorEffort(0)).toBeCloseTo(0.1 * 4, 3);
  });
});

describe('motor energy (Σ |τ·ω|·dt)', () => {
  it('spinning a free wheel up at constant torque costs its kinetic energy ½Iω²', () => {
    const { world, I, motors } = spinner({ targetVelocity: 200, maxTorque: 0.5 });
    let e = 0;
    for (let s = 0; s < 240; s++) {
      world.step();
      e += motorPower(world, motors) * world.dt;
    }
    const w = world.joints.velocity[0];
    expect(w).toBeCloseTo((0.5 / I) * 1, 1); // still below the target after 1 s
    // the rectangle rule with ω after each step overestimates by one step's share: (n+1)/n
    expect(e / (0.5 * I * w * w)).toBeCloseTo(1, 2);
  });

  it('holding a speed ω against a damper d costs d·ω²·T', () => {
    const { world, motors } = spinner({ targetVelocity: 4, maxTorque: 2 }, { damping: 0.1 });
    world.step(240);
    let e = 0;
    for (let s = 0; s < 480; s++) {
      world.step();
      e += motorPower(world, motors) * world.dt;
    }
    expect(e).toBeCloseTo(0.1 * 4 * 4 * 2, 2);
  });
});

describe('slip quantile', () => {
  it('is the upper edge of the bin holding the nearest-rank sample', () => {
    const h = new Float64Array(10);
    // 20 samples: 18 in bin 1 (0.1–0.2), 1 in bin 5, 1 in bin 9
    h[1] = 18; h[5] = 1; h[9] = 1;
    expect(histogramQuantile(h, 20, 0.95)).toBeCloseTo(0.6, 12); // rank 19
    expect(histogramQuantile(h, 20, 0.9)).toBeCloseTo(0.2, 12); // rank 18
    expect(histogramQuantile(h, 20, 1)).toBeCloseTo(1, 12);
  });
});

describe('a run computes every metric of the issue', () => {
  const FIXTURES = resolve(__dirname, 'fixtures');
  const base = JSON.parse(readFileSync(join(FIXTURES, 'tiny.json'), 'utf8')) as Record<string, unknown>;
  const run = (script: unknown, duration: number, raise = 0) =>
    runTask({
      input: { id: 'r0000', params: {}, replicate: 0, seed: 1, stop: { duration, goal: null }, metrics: [...METRIC_NAMES] },
      scenario: { ...base, script, terrain: { ...(base.terrain as object), heights: (base.terrain as { heights: number[] }).heights.map((h) => h + raise) } },
      scenarioPath: join(FIXTURES, 'tiny.json'),
      recordPath: null,
    });

  it('at rest on flat ground: clearance is the chassis underside over the ground (0.13 m less the sink), little energy', async () => {
    const row = await run([{ t: 0, throttle: 0, steer: 0 }], 1);
    expect(row.fault).toBeNull();
    // the built-in rover (sim/robot/skid-steer.ts DEFAULT_ROBOT): wheel centres 0.06 m under the
    // chassis origin, r = 0.15 m, chassis half height 0.08 m: underside 0.15 + 0.06 − 0.08 =
    // 0.13 m over the ground, less the wheels' sink and the settling from the start drop (mm)
    expect(row.metrics.minClearance).toBeGreaterThan(0.125);
    expect(row.metrics.minClearance).toBeLessThan(0.1301);
    // measured from the ground under the chassis, not from z = 0
    const raised = await run([{ t: 0, throttle: 0, steer: 0 }], 1, 1);
    expect(raised.metrics.minClearance).toBeCloseTo(row.metrics.minClearance as number, 6);
    expect(row.metrics.energy).toBeLessThan(0.5);
    expect(row.metrics.maxTilt).toBeLessThan(0.5);
  }, 120_000);

  it('driving: energy is spent, slip statistics are ordered, every metric has a value or null', async () => {
    const row = await run([{ t: 0, throttle: 0.8, steer: 0 }], 2);
    expect(row.fault).toBeNull();
    for (const m of METRIC_NAMES) expect(row.metrics).toHaveProperty(m);
    expect(row.metrics.energy).toBeGreaterThan(1);
    expect(row.metrics.maxSlip).toBeGreaterThanOrEqual(row.metrics.p95Slip as number - 1e-3);
    expect(row.metrics.p95Slip).toBeGreaterThanOrEqual(Math.abs(row.metrics.meanSlip as number) - 1e-3);
    expect(row.metrics.timeToGoal).toBeNull();
  }, 120_000);
});
