/**
 * Joints against closed-form answers; sleeping; faults; materials by terrain region;
 * determinism (golden hash across processes) and save/restore.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AXLE_Y, G, flat, makeWorld, rover, setAllMotors } from './helpers';
import { GOLDEN_STEPS, goldenWorld } from './golden-scene';

/** Zero crossings of x(t) → mean period [s]. */
function period(samples: number[], dt: number): number {
  const t: number[] = [];
  for (let k = 1; k < samples.length; k++) {
    if (samples[k - 1] < 0 && samples[k] >= 0) t.push((k - 1 + -samples[k - 1] / (samples[k] - samples[k - 1])) * dt);
  }
  return (t[t.length - 1] - t[0]) / (t.length - 1);
}

describe('joints', () => {
  it('revolute motor: a wheel spins up at τ/I until it reaches its target, then holds it', () => {
    // a 2 kg disc (r = 0.15) on a revolute joint to the world, axis y, no gravity
    const world = makeWorld(null, [
      { name: 'wheel', shape: { type: 'cylinder', radius: 0.15, height: 0.1 }, mass: 2, position: [0, 0, 1], orientation: AXLE_Y },
    ], [
      { type: 'revolute', name: 'axle', bodyB: 'wheel', anchor: [0, 0, 1], axis: [0, 1, 0], motor: { targetVelocity: 50, maxTorque: 0.5 } },
    ], { gravity: [0, 0, 0] });
    const I = 0.5 * 2 * 0.15 * 0.15; // about the axis
    world.step(48); // 0.2 s
    expect(world.joints.velocity[0] / (0.5 / I * 0.2)).toBeCloseTo(1, 2);
    world.step(720);
    expect(world.joints.velocity[0]).toBeCloseTo(50, 3);
    expect(Math.hypot(world.bodies.pos[0], world.bodies.pos[1], world.bodies.pos[2] - 1)).toBeLessThan(1e-4);
  });

  it('revolute limits hold a falling bar within [−0.3, 0.3] rad', () => {
    const world = makeWorld(null, [
      { name: 'bar', shape: { type: 'box', halfExtents: [0.5, 0.05, 0.05] }, mass: 3, position: [0.5, 0, 1] },
    ], [
      { type: 'revolute', name: 'hinge', bodyB: 'bar', anchor: [0, 0, 1], axis: [0, 1, 0], limits: [-0.3, 0.3] },
    ]);
    let lo = Infinity, hi = -Infinity;
    for (let s = 0; s < 480; s++) {
      world.step();
      lo = Math.min(lo, world.joints.position[0]);
      hi = Math.max(hi, world.joints.position[0]);
    }
    // gravity turns the bar about +y positively (its free end goes down)
    expect(hi).toBeGreaterThan(0.29);
    expect(hi).toBeLessThan(0.31);
    expect(lo).toBeGreaterThan(-0.01);
  });

  it('ball joint: a small-amplitude pendulum swings with the physical pendulum\'s period within 1 %', () => {
    const L = 1, r = 0.05, m = 1;
    const a0 = 0.1;
    const world = makeWorld(null, [
      { name: 'bob', shape: { type: 'sphere', radius: r }, mass: m, position: [L * Math.sin(a0), 0, 2 - L * Math.cos(a0)] },
    ], [{ type: 'ball', name: 'pivot', bodyB: 'bob', anchor: [0, 0, 2] }], { dt: 1 / 480 });
    const xs: number[] = [];
    for (let s = 0; s < 480 * 6; s++) {
      world.step();
      xs.push(world.bodies.pos[0]);
    }
    const I = m * L * L + 0.4 * m * r * r;
    const T = 2 * Math.PI * Math.sqrt(I / (m * G * L)) * (1 + (a0 * a0) / 16);
    expect(Math.abs(period(xs, 1 / 480) / T - 1)).toBeLessThan(0.01);
  });

  it('prismatic spring: static deflection mg/k and period 2π√(m/k) within 1 %; limits stop the slide', () => {
    const m = 10, k = 4000;
    const world = makeWorld(null, [
      { name: 'mass', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, mass: m, position: [0, 0, 1] },
    ], [{ type: 'prismatic', name: 'shock', bodyB: 'mass', anchor: [0, 0, 1], axis: [0, 0, 1], spring: { stiffness: k, damping: 0 } }], { dt: 1 / 480 });
    const zs: number[] = [];
    for (let s = 0; s < 480 * 3; s++) {
      world.step();
      zs.push(world.joints.position[0] + (m * G) / k);
    }
    expect(Math.abs(period(zs, 1 / 480) / (2 * Math.PI * Math.sqrt(m / k)) - 1)).toBeLessThan(0.01);
    // mean of the oscillation = the static deflection
    const mean = zs.reduce((a, b) => a + b, 0) / zs.length;
    expect(Math.abs(mean)).toBeLessThan(0.02 * ((m * G) / k));
    // the body did not turn or leave the axis
    expect(Math.hypot(world.bodies.pos[0], world.bodies.pos[1])).toBeLessThan(1e-5);
    const limited = makeWorld(null, [
      { name: 'mass', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, mass: m, position: [0, 0, 1] },
    ], [{ type: 'prismatic', name: 'shock', bodyB: 'mass', anchor: [0, 0, 1], axis: [0, 0, 1], limits: [-0.05, 0.05] }]);
    limited.step(480);
    expect(limited.joints.position[0]).toBeGreaterThan(-0.051);
    expect(limited.joints.position[0]).toBeLessThan(-0.049);
  });

  it('fixed joint: two boxes dropped together stay together (relative drift < 1 mm)', () => {
    const world = makeWorld(flat(41, 0.1), [
      { name: 'a', shape: { type: 'box', halfExtents: [0.2, 0.2, 0.1] }, mass: 5, position: [0, 0, 0.6] },
      { name: 'b', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.3] }, mass: 2, position: [0.3, 0, 0.8], angularVelocity: [0, 0, 0] },
    ], [{ type: 'fixed', name: 'weld', bodyA: 'a', bodyB: 'b', anchor: [0.2, 0, 0.7] }]);
    world.step(720);
    const d = Math.hypot(world.bodies.pos[3] - world.bodies.pos[0] - 0.3, world.bodies.pos[4] - world.bodies.pos[1], world.bodies.pos[5] - world.bodies.pos[2] - 0.2);
    expect(d).toBeLessThan(1e-3);
  });
});

describe('sleeping by islands', () => {
  it('a still stack sleeps, a ball dropped on it wakes the whole island, a driven rover never sleeps', () => {
    const r = rover({ x: 3 });
    const world = makeWorld(flat(), [
      { name: 'box0', shape: { type: 'box', halfExtents: [0.2, 0.2, 0.1] }, mass: 5, position: [0, 0, 0.1] },
      { name: 'box1', shape: { type: 'box', halfExtents: [0.2, 0.2, 0.1] }, mass: 5, position: [0, 0, 0.3005] },
      { name: 'ball', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0, 0, 30] },
      ...r.bodies,
    ], r.joints, { sleep: true });
    setAllMotors(world, 2);
    world.step(240);
    expect(world.bodies.awake[0]).toBe(0);
    expect(world.bodies.awake[1]).toBe(0);
    expect(world.bodies.awake[3]).toBe(1); // rover chassis
    // the ball falls ~30 m (2.5 s) onto box1: both boxes wake
    let woke = false;
    for (let s = 0; s < 720 && !woke; s++) {
      world.step();
      if (world.bodies.awake[0] && world.bodies.awake[1]) woke = true;
    }
    expect(woke).toBe(true);
    expect(world.bodies.awake[3]).toBe(1);
  });
});

describe('sleep by drift', () => {
  // no gravity, no terrain: the only motion is what the test gives the body
  const ball = () => makeWorld(null, [{ name: 'ball', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0, 0, 1] }], [], { sleep: true, gravity: [0, 0, 0] });

  it('a body jittering in place (±0.1 m/s, ±0.2 mm) sleeps, although its speed stays above SLEEP_SPEED', () => {
    const world = ball();
    let slept = -1;
    for (let s = 0; s < 480 && slept < 0; s++) {
      world.bodies.linVel[0] = s % 2 === 0 ? 0.1 : -0.1; // 0.1 m/s > SLEEP_SPEED, 0.42 mm per step back and forth
      world.step();
      if (!world.bodies.awake[0]) slept = s;
    }
    expect(slept).toBeGreaterThan(100); // after TIME_TO_SLEEP (120 steps), not before
    expect(slept).toBeLessThan(130);
  });

  it('a body moving steadily (0.06 m/s, just above SLEEP_SPEED) or spinning in place never sleeps', () => {
    const world = ball();
    world.bodies.linVel[0] = 0.06;
    world.step(480);
    expect(world.bodies.awake[0]).toBe(1);
    const spin = ball();
    spin.bodies.angVel[2] = 1; // r·ω = 0.1 m/s, the centre never moves
    spin.step(480);
    expect(spin.bodies.awake[0]).toBe(1);
  });
});

describe('faults', () => {
  it('a body that turns NaN pauses the world with a report naming it and the step; the state stays finite', () => {
    const world = makeWorld(flat(41, 0.1), [
      { name: 'good', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0, 0, 0.1] },
      { name: 'bad', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, mass: 1, position: [1, 0, 0.5] },
    ]);
    world.step(10);
    world.bodies.linVel[3] = NaN;
    world.step(5);
    expect(world.fault).not.toBeNull();
    expect(world.fault!.body).toBe('bad');
    expect(world.fault!.step).toBe(11);
    expect(world.fault!.reason).toMatch(/"bad".*step 11.*non-finite/);
    expect(world.stepCount).toBe(10);
    for (const v of world.bodies.pos.subarray(0, 6)) expect(Number.isFinite(v)).toBe(true);
    world.step(5);
    expect(world.stepCount).toBe(10);
  });

  it('an exploding body (speed past the limit) pauses the world too', () => {
    const world = makeWorld(null, [{ name: 'bullet', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0, 0, 0], linearVelocity: [6000, 0, 0] }]);
    world.step(1);
    expect(world.fault?.reason).toMatch(/"bullet".*speed/);
  });
});

describe('materials by terrain region', () => {
  it('a box sliding across a low-friction patch slows less there (μ 0.1 inside, 0.8 outside)', () => {
    const slide = (x: number) => {
      const world = makeWorld(flat(), [
        { name: 'box', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, mass: 1, position: [x, 0, 0.1], linearVelocity: [1, 0, 0] },
      ], [], {
        materials: { default: { friction: 0.8 }, ice: { friction: 0.1 } },
        terrainMaterials: { regions: [{ material: 'ice', shape: 'rect', min: [1, -5], max: [5, 5] }] },
      });
      world.step(24);
      return world.bodies.linVel[0];
    };
    const onIce = slide(2), onAsphalt = slide(-2);
    // the box is "default" (0.8): μ_pair = √(0.8·0.1) on the ice
    expect(onIce).toBeCloseTo(1 - Math.sqrt(0.08) * G * 0.1, 2);
    // μ_pair = √(0.8·0.8) = 0.8 on asphalt
    expect(onAsphalt).toBeCloseTo(1 - 0.8 * G * 0.1, 2);
  });
});

describe('determinism and state', () => {
  const GOLDEN = '0a913c92e6b9c814';

  it(`the golden scene hashes to ${GOLDEN} after ${GOLDEN_STEPS} steps, here and in a fresh process`, () => {
    const world = goldenWorld();
    world.step(GOLDEN_STEPS);
    expect(world.fault).toBeNull();
    expect(world.stateHash()).toBe(GOLDEN);
    const script = fileURLToPath(new URL('./golden-scene.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' }).trim();
    expect(out).toBe(GOLDEN);
  });

  it('save at step N, restore (same world and a fresh one), continue: the same hashes as the uninterrupted run', () => {
    const a = goldenWorld();
    a.step(200);
    const saved = a.saveState();
    const hashes: string[] = [];
    for (let k = 0; k < 4; k++) {
      a.step(60);
      hashes.push(a.stateHash());
    }
    a.restoreState(saved);
    expect(a.stepCount).toBe(200);
    for (let k = 0; k < 4; k++) {
      a.step(60);
      expect(a.stateHash()).toBe(hashes[k]);
    }
    const b = goldenWorld();
    b.restoreState(saved);
    for (let k = 0; k < 4; k++) {
      b.step(60);
      expect(b.stateHash()).toBe(hashes[k]);
    }
  });

  it('restoreState rejects a state of another world, a cut state and a NaN, and changes nothing then', () => {
    const a = goldenWorld();
    a.step(30);
    const before = a.stateHash();
    const saved = a.saveState();
    expect(() => a.restoreState(saved.slice(0, saved.length - 1))).toThrow(/long/);
    const bad = saved.slice();
    bad[20] = NaN;
    expect(() => a.restoreState(bad)).toThrow(/not finite/);
    const other = makeWorld(null, [{ name: 'x', shape: { type: 'sphere', radius: 1 }, mass: 1 }]);
    expect(() => other.restoreState(saved)).toThrow(/bodies/);
    expect(a.stateHash()).toBe(before);
  });
});
