/**
 * Joint friction (URDF `<dynamics friction>`): a Coulomb torque of at most f on the joint
 * coordinate. A free wheel spun about its axle decelerates at f/I until it stops (the torque
 * was once applied in both the solve and the relax stage of each substep: 2f/I).
 */
import { describe, expect, it } from 'vitest';
import { makeWorld } from './helpers';

describe('joint friction', () => {
  // cylinder r = 0.2 m, 2 kg, axis along world z: I = m r²/2 = 0.04 kg·m²
  const I = 0.5 * 2 * 0.2 * 0.2;
  for (const f of [0.1, 0.5]) {
    it(`a free wheel (I = ${I} kg·m²) with friction ${f} N·m decelerates at f/I within 1 %`, () => {
      const w = makeWorld(null, [
        { name: 'wheel', shape: { type: 'cylinder', radius: 0.2, height: 0.1 }, mass: 2, position: [0, 0, 1], angularVelocity: [0, 0, 10] },
      ], [
        { type: 'revolute', name: 'axle', bodyB: 'wheel', anchor: [0, 0, 1], axis: [0, 0, 1], friction: f },
      ], { gravity: [0, 0, 0] });
      const j = w.joints.defs.findIndex((d) => d.name === 'axle');
      w.step(1);
      const w0 = w.joints.velocity[j];
      const n = 48; // 0.2 s: stays spinning (10 − 12.5·0.2 > 0)
      w.step(n);
      const decel = (w0 - w.joints.velocity[j]) / (n / 240);
      expect(decel).toBeGreaterThan(0);
      expect(Math.abs(decel - f / I) / (f / I)).toBeLessThan(0.01);
    });
  }

  it('a wheel slower than one substep of friction stops and stays stopped (no reversal)', () => {
    const w = makeWorld(null, [
      { name: 'wheel', shape: { type: 'cylinder', radius: 0.2, height: 0.1 }, mass: 2, position: [0, 0, 1], angularVelocity: [0, 0, 0.5] },
    ], [
      { type: 'revolute', name: 'axle', bodyB: 'wheel', anchor: [0, 0, 1], axis: [0, 0, 1], friction: 0.5 },
    ], { gravity: [0, 0, 0] });
    w.step(60);
    expect(Math.abs(w.joints.velocity[w.joints.defs.findIndex((d) => d.name === 'axle')])).toBeLessThan(1e-9);
  });
});
