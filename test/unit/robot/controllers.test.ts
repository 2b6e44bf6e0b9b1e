/**
 * Drive controllers against closed-form answers: skid-steer wheel speeds, Ackermann inner and
 * outer angles (checked also by the geometric ICR construction), rate limits, the normalised
 * command mapping, axis signs and state save/restore; all-wheel steering against the rigid-body
 * twist each wheel must follow.
 */
import { describe, it, expect } from 'vitest';
import {
  ackermannMaxCurvature,
  ackermannRearWheelSpeeds,
  ackermannSteeringAngles,
  skidSteerWheelSpeeds,
  steeringMotorVelocity,
  allWheelSteerTarget,
} from '../../../sim/robot/controllers/drive-kinematics';
import { createDriveController, DRIVE_CONTROLLER_STATE_SIZE } from '../../../sim/robot/controllers/drive-controller';
import type { ControllerSpec, RobotSpec } from '../../../sim/dynamics/spec';

const SKID: ControllerSpec = {
  type: 'skid-steer',
  left: ['fl', 'rl'],
  right: ['fr', 'rr'],
  wheelRadius: 0.15,
  track: 0.56,
  maxSpeed: 2,
  maxYawRate: 1.6,
  maxAcceleration: 3,
  maxYawAcceleration: 6,
  maxTorque: 15,
};
const ACK: ControllerSpec = {
  type: 'ackermann',
  driveLeft: ['rl'],
  driveRight: ['rr'],
  steerLeft: 'sl',
  steerRight: 'sr',
  wheelRadius: 0.12,
  wheelbase: 0.7,
  track: 0.56,
  maxSpeed: 2,
  maxSteer: 0.6,
  maxAcceleration: 3,
  maxTorque: 12,
};

describe('closed forms', () => {
  it('skid steer: v ∓ ω·T/2 over r', () => {
    const o = skidSteerWheelSpeeds([0, 0], 1, 0.5, 0.56, 0.15);
    expect(o[0]).toBeCloseTo((1 - 0.14) / 0.15, 14);
    expect(o[1]).toBeCloseTo((1 + 0.14) / 0.15, 14);
  });

  it('Ackermann: tan(inner) = L/(R − T/2), tan(outer) = L/(R + T/2), for left and right turns', () => {
    const L = 0.7, T = 0.56;
    for (const R of [2, 1.1, 5, 0.9]) {
      const left = ackermannSteeringAngles([0, 0], 1 / R, L, T);
      expect(left[0]).toBeCloseTo(Math.atan(L / (R - T / 2)), 14); // left wheel inner
      expect(left[1]).toBeCloseTo(Math.atan(L / (R + T / 2)), 14);
      const right = ackermannSteeringAngles([0, 0], -1 / R, L, T);
      expect(right[1]).toBeCloseTo(-Math.atan(L / (R - T / 2)), 14); // right wheel inner
      expect(right[0]).toBeCloseTo(-Math.atan(L / (R + T / 2)), 14);
    }
    expect(Array.from(ackermannSteeringAngles([1, 1], 0, L, T))).toEqual([0, 0]);
  });

  it('Ackermann: both wheel normals meet the rear-axle line at the same ICR (geometric oracle)', () => {
    const L = 0.7, T = 0.56, R = 1.7;
    const [dl, dr] = ackermannSteeringAngles([0, 0], 1 / R, L, T);
    // Rear-axle frame: a wheel pivot at (L, ±T/2) heading δ; its axle line (normal (−sin δ, cos δ))
    // meets the rear-axle line x = 0 at y = ±T/2 + L / tan δ. Both must hit the ICR (0, R).
    expect(T / 2 + L / Math.tan(dl)).toBeCloseTo(R, 12);
    expect(-T / 2 + L / Math.tan(dr)).toBeCloseTo(R, 12);
  });

  it('Ackermann: rear wheels roll on circles R ∓ T/2; the largest curvature puts the inner wheel at maxSteer', () => {
    const o = ackermannRearWheelSpeeds([0, 0], 1.5, 1 / 2, 0.56, 0.12);
    expect(o[0]).toBeCloseTo((1.5 * (2 - 0.28)) / 2 / 0.12, 13);
    expect(o[1]).toBeCloseTo((1.5 * (2 + 0.28)) / 2 / 0.12, 13);
    const k = ackermannMaxCurvature(0.7, 0.56, 0.6);
    expect(ackermannSteeringAngles([0, 0], k, 0.7, 0.56)[0]).toBeCloseTo(0.6, 14);
  });

  it('steering motor velocity: P gain, clamped, NaN-safe', () => {
    expect(steeringMotorVelocity(0.1, 0.3, 5, 3)).toBeCloseTo(1, 14);
    expect(steeringMotorVelocity(0, 1, 10, 3)).toBe(3);
    expect(steeringMotorVelocity(1, -1, 10, 3)).toBe(-3);
    expect(steeringMotorVelocity(NaN, 1, 10, 3)).toBe(0);
    expect(steeringMotorVelocity(0, 1, Infinity, 2)).toBe(2);
    expect(steeringMotorVelocity(0, 1, 1, NaN)).toBe(0);
  });
});

function yawed(a: number, v: [number, number, number]): [number, number, number] {
  return [Math.cos(a) * v[0] - Math.sin(a) * v[1], Math.sin(a) * v[0] + Math.cos(a) * v[1], v[2]];
}

describe('skid-steer controller', () => {
  it('respects the acceleration limits step by step and reaches the commanded motion', () => {
    const c = createDriveController(SKID);
    const dt = 0.01;
    let v = 0, w = 0;
    for (let i = 0; i < 200; i++) {
      c.step(1, i < 100 ? 1 : -1, dt);
      expect(Math.abs(c.speed - v)).toBeLessThanOrEqual(3 * dt + 1e-12);
      expect(Math.abs(c.yawRate - w)).toBeLessThanOrEqual(6 * dt + 1e-12);
      v = c.speed;
      w = c.yawRate;
    }
    expect(c.speed).toBe(2);
    expect(c.yawRate).toBeCloseTo(-1.6, 12);
    // Wheel targets follow the closed form: left side v − ω·T/2.
    expect(c.joints).toEqual(['fl', 'rl', 'fr', 'rr']);
    const left = (2 + 1.6 * 0.28) / 0.15, right = (2 - 1.6 * 0.28) / 0.15;
    expect(Array.from(c.targetVelocity).map((x) => +x.toFixed(9))).toEqual([left, left, right, right].map((x) => +x.toFixed(9)));
  });

  it('clamps the normalised command and treats NaN as 0', () => {
    const c = createDriveController({ ...SKID, maxAcceleration: undefined, maxYawAcceleration: undefined });
    c.step(5, NaN, 0.01);
    expect(c.speed).toBe(2);
    expect(c.yawRate).toBe(0);
    c.step(-1, 0, 0.01);
    expect(c.targetVelocity[0]).toBeCloseTo(-2 / 0.15, 12);
  });

  it('negates the target of a wheel whose joint axis points right', () => {
    const robot: RobotSpec = {
      name: 'r',
      base: 'b',
      bodies: [{ name: 'b', shape: { type: 'sphere', radius: 1 }, orientation: [0, 0, Math.sin(0.5), Math.cos(0.5)] }],
      joints: ['fl', 'rl', 'fr', 'rr'].map((n, i) => ({
        type: 'revolute' as const,
        name: n,
        bodyA: 'b',
        bodyB: n,
        // Base yawed by 1 rad; in the base frame the axes are (0.3, ±0.954, 0) (slightly toed), 'fr' pointing right.
        axis: yawed(1, [0.3, i === 2 ? -0.954 : 0.954, 0]),
      })),
    };
    const c = createDriveController({ ...SKID, maxAcceleration: undefined }, robot);
    expect(Array.from(c.axisSigns)).toEqual([1, 1, -1, 1]);
    c.step(0.5, 0, 0.01);
    expect(c.targetVelocity[2]).toBeCloseTo(-1 / 0.15, 12);
    expect(c.targetVelocity[3]).toBeCloseTo(1 / 0.15, 12);
  });

  it('saves and restores its state exactly', () => {
    const a = createDriveController(SKID), b = createDriveController(SKID);
    for (let i = 0; i < 37; i++) a.step(0.7, -0.3, 0.005);
    const s = new Float64Array(DRIVE_CONTROLLER_STATE_SIZE);
    a.saveState(s);
    b.loadState(s);
    expect(Array.from(b.targetVelocity)).toEqual(Array.from(a.targetVelocity));
    a.step(1, 1, 0.005);
    b.step(1, 1, 0.005);
    expect(Array.from(b.targetVelocity)).toEqual(Array.from(a.targetVelocity));
  });

  it('rejects a bad spec naming the field', () => {
    expect(() => createDriveController({ ...SKID, track: 0 })).toThrow(/controller.track must be a positive finite number/);
    expect(() => createDriveController({ ...SKID, right: [] })).toThrow(/controller.left and controller.right each need at least one joint/);
  });
});

describe('Ackermann controller', () => {
  it('steer = 1 puts the inner wheel at maxSteer and the outer on the same ICR', () => {
    const c = createDriveController(ACK);
    c.step(0, 1, 0.01);
    const [, , sl, sr] = Array.from(c.targetAngle);
    expect(c.isSteering[2]).toBe(1);
    expect(sl).toBeCloseTo(0.6, 13);
    const R = 0.7 / Math.tan(0.6) + 0.28; // inner: tan 0.6 = L / (R − T/2)
    expect(sr).toBeCloseTo(Math.atan(0.7 / (R + 0.28)), 13);
    c.step(0, -1, 0.01);
    expect(c.targetAngle[3]).toBeCloseTo(-0.6, 13);
  });

  it('drives the rear wheels for the turn radius, the speed rate-limited', () => {
    const c = createDriveController(ACK);
    const dt = 0.02;
    let v = 0;
    for (let i = 0; i < 100; i++) {
      c.stepPhysical(1.5, Math.atan(0.7 / 2), dt); // R = 2 m
      expect(c.speed - v).toBeLessThanOrEqual(3 * dt + 1e-12);
      v = c.speed;
    }
    expect(c.speed).toBe(1.5);
    expect(c.targetVelocity[0]).toBeCloseTo((1.5 * (2 - 0.28)) / 2 / 0.12, 12);
    expect(c.targetVelocity[1]).toBeCloseTo((1.5 * (2 + 0.28)) / 2 / 0.12, 12);
    expect(c.yawRate).toBeCloseTo(1.5 / 2, 12);
    expect(c.targetAngle[2]).toBeCloseTo(Math.atan(0.7 / (2 - 0.28)), 13);
  });

  it('rejects maxSteer outside (0, π/2)', () => {
    expect(() => createDriveController({ ...ACK, maxSteer: 2 })).toThrow(/controller.maxSteer must be in \(0, π\/2\)/);
  });
});

describe('all-wheel steering', () => {
  // six wheels: corners steered at x = ±0.25, the middle pair fixed at x = 0; y = ±0.25
  const AWS: ControllerSpec = {
    type: 'all-wheel-steer',
    wheels: [
      { drive: 'fl', steer: 'sfl', position: [0.25, 0.25] }, { drive: 'fr', steer: 'sfr', position: [0.25, -0.25] },
      { drive: 'ml', position: [0, 0.25] }, { drive: 'mr', position: [0, -0.25] },
      { drive: 'rl', steer: 'srl', position: [-0.25, 0.25] }, { drive: 'rr', steer: 'srr', position: [-0.25, -0.25] },
    ],
    wheelRadius: 0.1, maxSpeed: 1, maxSteer: 1.2, maxTorque: 5,
  };

  it('each steered wheel rolls along the chassis twist at its position (v − ω·y, ω·x), folded within ±90°', () => {
    const out = [0, 0];
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let k = 0; k < 200; k++) {
      const v = rnd(), w = rnd() * 3, x = rnd(), y = rnd();
      allWheelSteerTarget(out, v, w, x, y, true);
      expect(Math.abs(out[0])).toBeLessThanOrEqual(Math.PI / 2);
      expect(out[1] * Math.cos(out[0])).toBeCloseTo(v - w * y, 12);
      expect(out[1] * Math.sin(out[0])).toBeCloseTo(w * x, 12);
      allWheelSteerTarget(out, v, w, x, y, false);
      expect(out).toEqual([0, v - w * y]);
    }
    expect(allWheelSteerTarget(out, 0, 0, 1, 1, true)).toEqual([0, 0]);
  });

  it('turns in place about the fixed wheels\' axle: corners at ±45°, every wheel on the circle through it', () => {
    const c = createDriveController(AWS);
    c.stepPhysical(0, 1, 1);
    const angle = (j: string) => c.targetAngle[c.joints.indexOf(j)];
    const speed = (j: string) => c.targetVelocity[c.joints.indexOf(j)] * 0.1;
    expect(angle('sfl')).toBeCloseTo(-Math.PI / 4, 12);
    expect(angle('sfr')).toBeCloseTo(Math.PI / 4, 12);
    expect(angle('srl')).toBeCloseTo(Math.PI / 4, 12);
    expect(speed('fl')).toBeCloseTo(-Math.hypot(0.25, 0.25), 12);
    expect(speed('fr')).toBeCloseTo(Math.hypot(0.25, 0.25), 12);
    expect(speed('ml')).toBeCloseTo(-0.25, 12);
    expect(c.yawRate).toBe(1);
  });

  it('drives straight with every wheel at v/r and the corners at 0; crab mode turns every corner by steer·maxSteer', () => {
    const c = createDriveController(AWS);
    c.step(0.5, 0, 1);
    for (let i = 0; i < 6; i++) expect(c.targetVelocity[i]).toBeCloseTo(5, 12);
    for (let i = 6; i < 10; i++) expect(Math.abs(c.targetAngle[i])).toBe(0);
    const crab = createDriveController({ ...AWS, mode: 'crab' });
    crab.step(0.5, 0.5, 1);
    for (let i = 6; i < 10; i++) expect(crab.targetAngle[i]).toBeCloseTo(0.6, 12);
    expect(crab.targetVelocity[0]).toBeCloseTo(5, 12);
    expect(crab.targetVelocity[2]).toBeCloseTo(5 * Math.cos(0.6), 12); // fixed middle wheel: the forward part
    expect(crab.yawRate).toBe(0);
    expect(crab.steerAngle).toBeCloseTo(0.6, 12);
  });

  it('refuses a spec without a steered wheel or with a bad mode, naming the field', () => {
    expect(() => createDriveController({ ...AWS, wheels: AWS.type === 'all-wheel-steer' ? AWS.wheels.map((w) => ({ drive: w.drive, position: w.position })) : [] })).toThrow(/controller\.wheels: no wheel has a steering joint/);
    expect(() => createDriveController({ ...AWS, mode: 'sideways' } as unknown as ControllerSpec)).toThrow(/controller\.mode must be "turn" or "crab"/);
    expect(() => createDriveController({ ...AWS, wheels: [{ drive: 'a', steer: 'b' }, { drive: 'c' }] })).toThrow(/controller\.wheels\[0\]\.position is needed when no robot is given/);
  });
});
