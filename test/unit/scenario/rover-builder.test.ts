import { describe, expect, it } from 'vitest';
import { buildSkidSteerRover, ROVER_FOOTPRINT_SAMPLE_SPACING, ROVER_START_CLEARANCE, roverNames } from '../../../sim/robot/rover-builder';
import { DEFAULT_ROBOT } from '../../../sim/robot/skid-steer';
import { quatFromAxisAngle, quatMultiply, quatRotate } from '../../../sim/math/quat';
import type { Quat } from '../../../sim/math/quat';
import type { Vec3 } from '../../../sim/math/vec3';
import type { BodySpec, Vec3Spec } from '../../../sim/dynamics/spec';

const spec = { ...DEFAULT_ROBOT, chassisHalfExtents: [...DEFAULT_ROBOT.chassisHalfExtents] as Vec3Spec };
const r = spec.wheelRadius;

function cross(a: Readonly<Vec3>, b: Readonly<Vec3>): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
const dot = (a: Readonly<Vec3>, b: Readonly<Vec3>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

describe('buildSkidSteerRover: the default rover as bodies and joints', () => {
  const yaws = [0, 0.7, Math.PI / 2, -2.5, Math.PI];

  it('has a 40 kg box chassis, four 2 kg cylinder wheels (r, width from the spec), four motorised revolute joints', () => {
    const robot = buildSkidSteerRover(spec, { position: [1, 2, 3], yaw: 0 });
    const n = roverNames('rover');
    expect(robot.name).toBe('rover');
    expect(robot.base).toBe(n.chassis);
    expect(robot.bodies.map((b) => b.name)).toEqual([n.chassis, ...n.wheels]);
    expect(robot.bodies[0]).toMatchObject({ shape: { type: 'box', halfExtents: spec.chassisHalfExtents }, mass: 40, type: 'dynamic' });
    for (const w of robot.bodies.slice(1)) expect(w).toMatchObject({ shape: { type: 'cylinder', radius: r, height: spec.wheelWidth }, mass: 2, type: 'dynamic' });
    expect(robot.joints.map((j) => [j.type, j.name, j.bodyA, j.bodyB])).toEqual(n.joints.map((jn, k) => ['revolute', jn, n.chassis, n.wheels[k]]));
    for (const j of robot.joints) expect(j.motor).toEqual({ targetVelocity: 0, maxTorque: 20 });
    const mass = robot.bodies.reduce((s, b) => s + (b.mass as number), 0);
    expect(mass).toBe(48);
  });

  it('takes the masses, torque and materials of the v2 block', () => {
    const robot = buildSkidSteerRover({ ...spec, chassisMass: 55, wheelMass: 3, maxTorque: 35, wheelMaterial: 'rubber', chassisMaterial: 'alu' }, { position: [0, 0, 1], yaw: 0 });
    expect(robot.bodies.map((b) => [b.mass, b.material])).toEqual([[55, 'alu'], [3, 'rubber'], [3, 'rubber'], [3, 'rubber'], [3, 'rubber']]);
    expect(robot.controller).toMatchObject({ maxTorque: 35 });
  });

  it.each(yaws)('wheel centres at (±wheelbase/2, ±track/2, −wheelDrop) in the chassis frame, fl fr rl rr (yaw %f)', (yaw) => {
    const robot = buildSkidSteerRover(spec, { position: [4, -5, 1], yaw }, undefined);
    const chassis = robot.bodies[0];
    expect(chassis.position).toEqual([4, -5, 1]);
    expect(chassis.orientation?.[2]).toBeCloseTo(Math.sin(yaw / 2), 15);
    const expected: [number, number][] = [[0.25, 0.28], [0.25, -0.28], [-0.25, 0.28], [-0.25, -0.28]];
    robot.bodies.slice(1).forEach((w, k) => {
      const [ox, oy] = expected[k];
      const p = w.position as Vec3;
      // back into the chassis frame by rotating by −yaw (independent of the builder's formula)
      const dx = p[0] - 4, dy = p[1] + 5;
      expect(Math.cos(yaw) * dx + Math.sin(yaw) * dy).toBeCloseTo(ox, 12);
      expect(-Math.sin(yaw) * dx + Math.cos(yaw) * dy).toBeCloseTo(oy, 12);
      expect(p[2]).toBeCloseTo(1 - spec.wheelDrop, 12);
      expect(robot.joints[k].anchor).toEqual(w.position);
    });
  });

  it.each(yaws)('each wheel\'s cylinder axis (local z) is the joint axis, the chassis +y (yaw %f)', (yaw) => {
    const robot = buildSkidSteerRover(spec, { position: [0, 0, 1], yaw });
    const chassisY = quatRotate([0, 0, 0], robot.bodies[0].orientation as Quat, [0, 1, 0]);
    // yaw ∘ Rx(−90°), built with the math library
    const qYaw = quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], yaw);
    const qRx = quatFromAxisAngle([0, 0, 0, 1], [1, 0, 0], -Math.PI / 2);
    const qRef = quatMultiply([0, 0, 0, 1], qYaw, qRx);
    robot.bodies.slice(1).forEach((w: BodySpec, k) => {
      const q = w.orientation as Quat;
      for (let i = 0; i < 4; i++) expect(q[i]).toBeCloseTo(qRef[i], 12);
      const localZ = quatRotate([0, 0, 0], q, [0, 0, 1]);
      const axis = robot.joints[k].axis as Vec3;
      for (let i = 0; i < 3; i++) {
        expect(localZ[i]).toBeCloseTo(chassisY[i], 12);
        expect(axis[i]).toBeCloseTo(chassisY[i], 12);
      }
    });
  });

  it.each(yaws)('sign: a positive joint velocity moves each wheel\'s bottom point backward, so the rover drives forward (yaw %f)', (yaw) => {
    const robot = buildSkidSteerRover(spec, { position: [0, 0, 1], yaw });
    const forward: Vec3 = [Math.cos(yaw), Math.sin(yaw), 0];
    for (const j of robot.joints) {
      const omega = (j.axis as Vec3).map((c) => c * 1) as Vec3; // joint velocity +1 rad/s about the axis
      const bottom: Vec3 = [0, 0, -r]; // from the wheel centre to its lowest point
      const vBottom = cross(omega, bottom);
      expect(dot(vBottom, forward)).toBeCloseTo(-r, 12); // backward at ω·r
      // rolling without slip: the bottom is at rest on the ground, so the centre moves at −vBottom
      expect(dot(vBottom, forward) * -1).toBeGreaterThan(0);
    }
  });

  it('the controller drives the left joints (fl, rl) and right joints (fr, rr) with the rover\'s limits', () => {
    const robot = buildSkidSteerRover(spec, { position: [0, 0, 1], yaw: 0 });
    const n = roverNames('rover');
    expect(robot.controller).toEqual({
      type: 'skid-steer',
      left: [n.joints[0], n.joints[2]],
      right: [n.joints[1], n.joints[3]],
      wheelRadius: r,
      track: spec.track,
      maxSpeed: spec.maxSpeed,
      maxYawRate: spec.maxYawRate,
      maxAcceleration: spec.maxAccel,
      maxYawAcceleration: spec.maxYawAccel,
      maxTorque: 20,
    });
    // the left wheels really are on the +y side
    for (const name of robot.controller?.type === 'skid-steer' ? robot.controller.left : []) {
      const wheel = robot.bodies.find((b) => b.name === robot.joints.find((j) => j.name === name)?.bodyB) as BodySpec;
      expect((wheel.position as Vec3)[1]).toBeGreaterThan(0);
    }
  });

  it('with a flat terrain, every wheel starts 5 mm above it and the chassis bottom clears the ground', () => {
    const robot = buildSkidSteerRover(spec, { position: [0, 0, 99], yaw: 0.3 }, () => 1.5);
    for (const w of robot.bodies.slice(1)) expect((w.position as Vec3)[2] - r - 1.5).toBeCloseTo(ROVER_START_CLEARANCE, 12);
    const chassis = robot.bodies[0];
    expect((chassis.position as Vec3)[2] - spec.chassisHalfExtents[2]).toBeGreaterThan(1.5 + ROVER_START_CLEARANCE);
  });

  it('on a slope, the wheel over the highest ground clears it by 5 mm and no wheel footprint point is closer', () => {
    const slope = (x: number, y: number) => 0.3 * x + 0.1 * y + 2;
    const yaw = 0.4;
    const robot = buildSkidSteerRover(spec, { position: [3, 1, 0], yaw }, slope);
    // brute force: the lowest clearance between each wheel's rim and the terrain, over its footprint
    const f: Vec3 = [Math.cos(yaw), Math.sin(yaw), 0];
    let minGap = Infinity;
    for (const w of robot.bodies.slice(1)) {
      const c = w.position as Vec3;
      for (let a = -200; a <= 200; a++) {
        const s = (a / 200) * r;
        const zRim = c[2] - Math.sqrt(r * r - s * s);
        for (const l of [-0.05, 0, 0.05]) minGap = Math.min(minGap, zRim - slope(c[0] + s * f[0] - l * f[1], c[1] + s * f[1] + l * f[0]));
      }
    }
    expect(minGap).toBeGreaterThan(ROVER_START_CLEARANCE - 1e-4);
    expect(minGap).toBeLessThan(ROVER_START_CLEARANCE + 2e-3);
  });

  it('next to a curb, no wheel starts inside the step', () => {
    // a 15 cm step at x = 0.3: the front wheels' footprints (x 0.1..0.4) reach over it
    const curb = (x: number) => (x > 0.3 ? 0.15 : 0);
    const robot = buildSkidSteerRover(spec, { position: [0, 0, 0], yaw: 0 }, curb);
    const front = robot.bodies[1].position as Vec3;
    // the rim point above the step edge x = 0.3 (s = 0.05 from the centre at x = 0.25) clears 0.15 m,
    // up to what a step between two samples can hide: the rim's drop over one spacing there (about 0.9 mm)
    const rim = (s: number) => Math.sqrt(r * r - s * s);
    const hidden = rim(0.05) - rim(0.05 + ROVER_FOOTPRINT_SAMPLE_SPACING);
    expect(hidden).toBeLessThan(1e-3);
    expect(front[2] - rim(0.05)).toBeGreaterThanOrEqual(0.15 + ROVER_START_CLEARANCE - hidden);
    // the rear wheels (x = -0.25) are over the low side, and the chassis is level: they hang above it
    expect((robot.bodies[3].position as Vec3)[2]).toBeCloseTo(front[2], 12);
  });

  it('throws an Error naming the field for a rover the wheels cannot carry or a bad value', () => {
    expect(() => buildSkidSteerRover({ ...spec, wheelDrop: -0.1 }, { position: [0, 0, 0], yaw: 0 })).toThrow(/"wheelDrop"/);
    expect(() => buildSkidSteerRover({ ...spec, wheelRadius: 0 }, { position: [0, 0, 0], yaw: 0 })).toThrow(/"wheelRadius"/);
    expect(() => buildSkidSteerRover(spec, { position: [0, 0, NaN], yaw: 0 })).toThrow(/start.position\[2\]/);
    expect(() => buildSkidSteerRover(spec, { position: [0, 0, 0], yaw: 0 }, () => NaN)).toThrow(/heightAt/);
  });
});
