/**
 * The coupling row (URDF <mimic>, sim/dynamics/joints/mimic.ts) against closed-form answers:
 * two wheels on the world coupled 1:1 and 1:−1 (a driven leader, a free follower); a prismatic
 * pair with multiplier and offset; a differential of two arms on one free body (a shared body
 * in the row); save/restore carries the row's impulse. Each case also runs without the row and
 * shows that the follower then does not follow.
 */
import { describe, expect, it } from 'vitest';
import type { BodySpec, JointSpec } from '../../../sim/dynamics/spec';
import { AXLE_Y, makeWorld } from './helpers';

const NO_G = { gravity: [0, 0, 0] as [number, number, number] };

function wheels(multiplier: number | null): ReturnType<typeof makeWorld> {
  const bodies: BodySpec[] = [
    { name: 'leader', shape: { type: 'cylinder', radius: 0.15, height: 0.1 }, mass: 2, position: [0, 0, 1], orientation: AXLE_Y },
    { name: 'follower', shape: { type: 'cylinder', radius: 0.3, height: 0.1 }, mass: 5, position: [1, 0, 1], orientation: AXLE_Y },
  ];
  const joints: JointSpec[] = [
    { type: 'revolute', name: 'lead', bodyB: 'leader', anchor: [0, 0, 1], axis: [0, 1, 0], motor: { targetVelocity: 3, maxTorque: 50 } },
    { type: 'revolute', name: 'follow', bodyB: 'follower', anchor: [1, 0, 1], axis: [0, 1, 0], ...(multiplier === null ? {} : { mimic: { joint: 'lead', multiplier } }) },
  ];
  return makeWorld(null, bodies, joints, NO_G);
}

describe('mimic coupling row', () => {
  for (const m of [1, -1]) {
    it(`two wheels coupled 1:${m}: the free follower turns at ${m}× the driven leader's rate and angle`, () => {
      const w = wheels(m);
      w.step(120); // 0.5 s: the leader at 3 rad/s has turned 1.5 rad minus its spin-up
      const [ql, qf] = [w.joints.position[0], w.joints.position[1]];
      expect(Math.abs(ql)).toBeGreaterThan(1);
      expect(qf - m * ql).toBeCloseTo(0, 3);
      expect(w.joints.velocity[1]).toBeCloseTo(m * 3, 2);
    });
  }

  it('without the row the follower stays still (the test sees the row)', () => {
    const w = wheels(null);
    w.step(120);
    expect(Math.abs(w.joints.position[1])).toBeLessThan(1e-6);
  });

  it('prismatic follower: slide = 0.5·leader + 0.1 m, gravity pulling against it', () => {
    const build = (coupled: boolean) => makeWorld(null, [
      { name: 'a', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, mass: 1, position: [0, 0, 1] },
      { name: 'b', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, mass: 1, position: [1, 0, 1] },
    ], [
      { type: 'prismatic', name: 'lead', bodyB: 'a', anchor: [0, 0, 1], axis: [1, 0, 0], motor: { targetVelocity: 0.2, maxTorque: 100 } },
      { type: 'prismatic', name: 'follow', bodyB: 'b', anchor: [1, 0, 1], axis: [0, 0, 1], ...(coupled ? { mimic: { joint: 'lead', multiplier: 0.5, offset: 0.1 } } : {}) },
    ]);
    const w = build(true);
    w.step(240);
    const [ql, qf] = [w.joints.position[0], w.joints.position[1]];
    expect(ql).toBeGreaterThan(0.15);
    expect(qf).toBeCloseTo(0.5 * ql + 0.1, 3);
    const free = build(false);
    free.step(240);
    expect(free.joints.position[1]).toBeLessThan(-1); // falls
  });

  it('differential: two arms on one free body, one pushed down, the other rises and the body stays level', () => {
    // A 10 kg body floating (no gravity), arms on revolute joints about ±y (as a rocker
    // differential: mirrored frames, multiplier 1). A torque on the left arm turns it; the row
    // turns the right arm the same way about its own (mirrored) axis; the body gets no net torque
    // about y from the pair.
    const build = (coupled: boolean) => makeWorld(null, [
      { name: 'body', shape: { type: 'box', halfExtents: [0.3, 0.2, 0.1] }, mass: 10, position: [0, 0, 1] },
      { name: 'armL', shape: { type: 'box', halfExtents: [0.3, 0.02, 0.02] }, mass: 1, position: [0, 0.3, 1] },
      { name: 'armR', shape: { type: 'box', halfExtents: [0.3, 0.02, 0.02] }, mass: 1, position: [0, -0.3, 1] },
    ], [
      { type: 'revolute', name: 'rockerL', bodyA: 'body', bodyB: 'armL', anchor: [0, 0.3, 1], axis: [0, -1, 0], motor: { targetVelocity: 0.5, maxTorque: 20 } },
      { type: 'revolute', name: 'rockerR', bodyA: 'body', bodyB: 'armR', anchor: [0, -0.3, 1], axis: [0, 1, 0], ...(coupled ? { mimic: { joint: 'rockerL' } } : {}) },
    ], NO_G);
    const w = build(true);
    w.step(120);
    expect(w.joints.position[0]).toBeGreaterThan(0.1);
    expect(w.joints.position[1]).toBeCloseTo(w.joints.position[0], 3);
    // world rates of the two arms about y are opposite (mirrored axes)
    const wy = (b: string) => w.bodies.angVel[3 * w.bodies.indexOf(b) + 1];
    expect(wy('armL') + wy('armR')).toBeCloseTo(2 * wy('body'), 3);
    const free = build(false);
    free.step(120);
    expect(Math.abs(free.joints.position[1] - free.joints.position[0])).toBeGreaterThan(0.05);
  });

  it('save/restore carries the coupling impulse: the restored run is bit-identical', () => {
    const w = wheels(-1);
    w.step(60);
    const s = w.saveState();
    expect(s[10]).toBe(1);
    w.step(60);
    const after = w.saveState();
    w.restoreState(s);
    w.step(60);
    expect(w.saveState()).toEqual(after);
    expect(() => wheels(null).restoreState(s)).toThrow(/coupling/);
  });

  it('bad couplings are refused with the field named', () => {
    const body: BodySpec = { name: 'b', shape: { type: 'sphere', radius: 0.1 }, mass: 1 };
    expect(() => makeWorld(null, [body], [{ type: 'revolute', name: 'j', bodyB: 'b', mimic: { joint: 'nope' } }])).toThrow(/joints\[0\]\.mimic\.joint: no joint named "nope"/);
    expect(() => makeWorld(null, [body], [{ type: 'revolute', name: 'j', bodyB: 'b', mimic: { joint: 'j' } }])).toThrow(/cannot follow itself/);
  });
});
