/**
 * The rigid-body world against answers known in closed form (issue #13's list). Each test can
 * fail: the tolerances are a few per cent of the effect measured.
 */
import { describe, expect, it } from 'vitest';
import { AXLE_Y, G, energy, flat, incline, makeWorld, pitchQuat, quatMul, rover, setAllMotors, yawQuat } from './helpers';
import { collideCylinderTerrain } from '../../../sim/collision/cylinder-terrain/plain-api';
import { WheelContactKind } from '../../../sim/collision/contact';
import { Heightfield } from '../../../sim/terrain/heightfield';

const DT = 1 / 240;

/** Average acceleration along the slope of body 0 between t0 and t1 [s]. */
function slopeAcceleration(world: ReturnType<typeof makeWorld>, deg: number, t0: number, t1: number): number {
  const th = (deg * Math.PI) / 180;
  const along = () => world.bodies.linVel[0] * Math.cos(th) - world.bodies.linVel[2] * Math.sin(th);
  world.step(Math.round(t0 / DT));
  const v0 = along();
  world.step(Math.round((t1 - t0) / DT));
  return (along() - v0) / (t1 - t0);
}

describe('rolling and sliding on inclines', () => {
  for (const deg of [10, 20, 30]) {
    it(`a solid cylinder rolls down ${deg}° without slipping (μ = 1): a = ⅔·g·sinθ within 2 %`, () => {
      const th = (deg * Math.PI) / 180, r = 0.3;
      const x0 = 2;
      const world = makeWorld(incline(deg), [
        { name: 'cylinder', shape: { type: 'cylinder', radius: r, height: 0.4 }, mass: 10, position: [x0, 0, -x0 * Math.tan(th) + r / Math.cos(th)], orientation: AXLE_Y },
      ]);
      const a = slopeAcceleration(world, deg, 0.25, 1.25);
      expect(a / ((2 / 3) * G * Math.sin(th))).toBeCloseTo(1, 1);
      expect(Math.abs(a / ((2 / 3) * G * Math.sin(th)) - 1)).toBeLessThan(0.02);
      // rolling: spin matches speed (ω·r = v)
      const v = Math.hypot(world.bodies.linVel[0], world.bodies.linVel[2]);
      expect(Math.abs(Math.abs(world.bodies.angVel[1]) * r - v) / v).toBeLessThan(0.02);
    });

    it(`a solid cylinder slips down ${deg}° with μ = 0.05: a = g(sinθ − μcosθ) within 2 %`, () => {
      const th = (deg * Math.PI) / 180, r = 0.3, mu = 0.05;
      const x0 = 2;
      const world = makeWorld(incline(deg), [
        { name: 'cylinder', shape: { type: 'cylinder', radius: r, height: 0.4 }, mass: 10, position: [x0, 0, -x0 * Math.tan(th) + r / Math.cos(th)], orientation: AXLE_Y },
      ], [], { materials: { default: { friction: mu } } });
      const a = slopeAcceleration(world, deg, 0.25, 1.25);
      const expected = G * (Math.sin(th) - mu * Math.cos(th));
      expect(Math.abs(a / expected - 1)).toBeLessThan(0.02);
      // it slips: the spin grows with 2μg·cosθ/r, so from rest ω·r/v = 2μcosθ/(sinθ − μcosθ) < 1
      const v = Math.hypot(world.bodies.linVel[0], world.bodies.linVel[2]);
      const ratio = (2 * mu * Math.cos(th)) / (Math.sin(th) - mu * Math.cos(th));
      expect(ratio).toBeLessThan(1);
      expect(Math.abs((Math.abs(world.bodies.angVel[1]) * r) / v / ratio - 1)).toBeLessThan(0.03);
    });
  }

  const box = (deg: number, mu: number) => {
    const th = (deg * Math.PI) / 180, h = 0.1;
    const x0 = 2;
    // box resting on the slope: centre h above the surface along the normal
    const cx = x0 + h * Math.sin(th), cz = -x0 * Math.tan(th) + h * Math.cos(th);
    return makeWorld(incline(deg), [
      { name: 'box', shape: { type: 'box', halfExtents: [0.2, 0.15, h] }, mass: 5, position: [cx, 0, cz + 0.001], orientation: pitchQuat(th) },
    ], [], { materials: { default: { friction: mu } } });
  };

  it('a box on a slope sticks below tanθ = μ', () => {
    const world = box(20, 0.5); // tan 20° = 0.36 < 0.5
    world.step(60);
    const x = world.bodies.pos[0];
    world.step(480);
    expect(Math.abs(world.bodies.pos[0] - x)).toBeLessThan(1e-3);
  });

  for (const [deg, mu] of [[35, 0.5], [30, 0.2]] as const) {
    it(`a box on a ${deg}° slope with μ = ${mu} slides with g(sinθ − μcosθ) within 2 %`, () => {
      const th = (deg * Math.PI) / 180;
      const world = box(deg, mu);
      const a = slopeAcceleration(world, deg, 0.25, 1.0);
      const expected = G * (Math.sin(th) - mu * Math.cos(th));
      expect(Math.abs(a / expected - 1)).toBeLessThan(0.02);
    });
  }
});

describe('resting contact is quiet', () => {
  it('a stack of 5 boxes drifts < 1 mm in 10 s and its energy never grows (sleep off)', () => {
    const bodies = [];
    for (let k = 0; k < 5; k++) bodies.push({ name: `box${k}`, shape: { type: 'box' as const, halfExtents: [0.25, 0.25, 0.1] as [number, number, number] }, mass: 5, position: [0, 0, 0.1 + 0.2 * k + 0.0005 * k] as [number, number, number] });
    const world = makeWorld(flat(41, 0.1), bodies);
    world.step(120);
    const start = Array.from(world.bodies.pos.subarray(0, 15));
    let e0 = energy(world), grew = 0;
    for (let s = 0; s < 2400; s++) {
      world.step();
      const e = energy(world);
      if (e > e0 + 1e-6) grew = Math.max(grew, e - e0);
      e0 = Math.min(e0, e);
    }
    for (let k = 0; k < 15; k++) expect(Math.abs(world.bodies.pos[k] - start[k])).toBeLessThan(1e-3);
    expect(grew).toBe(0);
  });

  it('a barrel lying on its side and a parked rover drift < 1 mm in 10 s (sleep off)', () => {
    const r = rover({ x: 2 });
    const world = makeWorld(flat(), [
      { name: 'barrel', shape: { type: 'cylinder', radius: 0.3, height: 0.9 }, mass: 50, position: [-2, 0, 0.3], orientation: AXLE_Y },
      ...r.bodies,
    ], r.joints);
    world.step(240);
    const start = Array.from(world.bodies.pos.subarray(0, 3 * world.bodies.count));
    world.step(2400);
    for (let k = 0; k < start.length; k++) expect(Math.abs(world.bodies.pos[k] - start[k])).toBeLessThan(1e-3);
    expect(world.contacts.count).toBeGreaterThan(0);
  });

  it('a ball dropped on the ground never gains energy (restitution 0.5 above the threshold)', () => {
    const world = makeWorld(flat(41, 0.1), [
      { name: 'ball', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0.03, 0.02, 1.5], material: 'rubber' },
    ], [], { materials: { default: { friction: 0.5 }, rubber: { friction: 0.8, restitution: 0.5 } } });
    let e0 = energy(world), maxGain = 0, bounces = 0, prevVz = 0;
    for (let s = 0; s < 960; s++) {
      world.step();
      const e = energy(world);
      maxGain = Math.max(maxGain, e - e0);
      e0 = Math.min(e0, e);
      const vz = world.bodies.linVel[2];
      if (prevVz < -1 && vz > 0.5) bounces++;
      prevVz = vz;
    }
    expect(maxGain).toBeLessThan(1e-6);
    expect(bounces).toBeGreaterThanOrEqual(2);
  });
});

describe('the rover', () => {
  for (let k = 0; k < 8; k++) {
    const yaw = (k * Math.PI) / 4 + 0.05;
    it(`drives straight on flat terrain across cell seams at yaw ${yaw.toFixed(2)} rad: chassis height sd < 0.1 mm, heading error < 0.5°`, () => {
      const r = rover({ yaw });
      const hf = flat();
      const world = makeWorld(hf, r.bodies, r.joints);
      world.step(120);
      setAllMotors(world, 5);
      world.step(120);
      const zs: number[] = [];
      let maxDepth = 0;
      for (let s = 0; s < 240; s++) {
        world.step();
        zs.push(world.bodies.pos[2]);
        for (let b = 1; b < 5; b++) {
          const q = world.bodies.rot.subarray(4 * b, 4 * b + 4);
          const axis: [number, number, number] = [2 * (q[0] * q[2] + q[1] * q[3]), 2 * (q[1] * q[2] - q[0] * q[3]), 1 - 2 * (q[0] * q[0] + q[1] * q[1])];
          const c = collideCylinderTerrain({ center: Array.from(world.bodies.pos.subarray(3 * b, 3 * b + 3)) as [number, number, number], axis, radius: 0.15, height: 0.1 }, hf);
          for (const p of c.contacts) maxDepth = Math.max(maxDepth, p.depth);
        }
      }
      const mean = zs.reduce((a, b) => a + b, 0) / zs.length;
      const sd = Math.sqrt(zs.reduce((a, b) => a + (b - mean) ** 2, 0) / zs.length);
      expect(sd).toBeLessThan(1e-4);
      const heading = Math.atan2(world.bodies.linVel[1], world.bodies.linVel[0]);
      let err = heading - yaw;
      err = Math.atan2(Math.sin(err), Math.cos(err));
      expect(Math.abs(err)).toBeLessThan((0.5 * Math.PI) / 180);
      expect(Math.hypot(world.bodies.linVel[0], world.bodies.linVel[1])).toBeCloseTo(0.75, 1);
      expect(maxDepth).toBeLessThan(0.5e-3);
    });
  }

  const climb = (deg: number, mu: number) => {
    const th = (deg * Math.PI) / 180;
    // uphill is −x on incline(); the rover faces −x (yaw π) and drives forward
    const x = 5, z = -x * Math.tan(th) + 0.3 / Math.cos(th) + 0.02;
    const r = rover({ x, z, yaw: Math.PI, pitch: -th });
    // facing −x (yaw π), nose up the slope: pitch −θ about the chassis y
    const world = makeWorld(incline(deg, 161, 0.0625), r.bodies, r.joints, { materials: { default: { friction: mu } } });
    world.step(60);
    setAllMotors(world, 5);
    const x0 = world.bodies.pos[0];
    world.step(480);
    return world.bodies.pos[0] - x0; // < 0: climbed (moved toward −x)
  };

  it('climbs a slope below the friction limit (tanθ < μ) and slides back beyond it', () => {
    expect(climb(15, 0.5)).toBeLessThan(-1); // tan 15° = 0.27: climbs > 1 m in 2 s
    expect(climb(35, 0.5)).toBeGreaterThan(0.05); // tan 35° = 0.70 > 0.5: slides back down
  });
});

describe('barrels (the paper\'s first scene)', () => {
  it('rest with the expected contact case, base, side and edge on the curb, without jitter', () => {
    // asphalt with a 0.15 m curb along x = 2 (higher for x ≥ 2); for y < −0.5 the asphalt falls
    // 1° toward the curb, so the barrel there rolls against it and stays
    const n = 121, d = 0.05, slope = Math.tan(Math.PI / 180);
    const heights = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const x = -3 + i * d, y = -3 + j * d;
        heights[j * n + i] = x >= 2 ? 0.15 : y < -0.5 ? (2 - x) * slope : 0;
      }
    }
    const terrain = Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -3, y0: -3, heights });
    const world = makeWorld(terrain, [
      { name: 'standing', shape: { type: 'cylinder', radius: 0.3, height: 0.9 }, mass: 50, position: [-1.5, 0, 0.45] },
      { name: 'lying', shape: { type: 'cylinder', radius: 0.3, height: 0.9 }, mass: 50, position: [-1.5, 1.5, 0.3], orientation: AXLE_Y },
      // lying a few cm from the curb on the 1° slope (axis along y): it rolls against the curb's top edge
      { name: 'curb', shape: { type: 'cylinder', radius: 0.3, height: 0.9 }, mass: 50, position: [1.65, -1.5, 0.3 + (2 - 1.65) * slope + 0.001], orientation: AXLE_Y },
    ], [], { materials: { default: { friction: 0.9 } } });
    world.step(720);
    const p0 = Array.from(world.bodies.pos.subarray(0, 9));
    world.step(480);
    for (let k = 0; k < 9; k++) expect(Math.abs(world.bodies.pos[k] - p0[k])).toBeLessThan(1e-3);
    const kinds = (b: number) => {
      const s = new Set<number>();
      const c = world.contacts;
      for (let i = 0; i < c.count; i++) if (c.bodyA[i] === b && c.depth[i] > -1e-3) s.add(c.kind[i]);
      return s;
    };
    const standing = kinds(0), lying = kinds(1), curb = kinds(2);
    expect(standing.has(WheelContactKind.FlatPatch) || standing.has(WheelContactKind.BaseA)).toBe(true);
    expect(lying.has(WheelContactKind.FlatPatch) || lying.has(WheelContactKind.SideB)).toBe(true);
    expect(curb.has(WheelContactKind.EdgeVertex)).toBe(true);
  });
});
