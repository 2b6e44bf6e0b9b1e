/**
 * Revolute joints solve from a frame prepared once per pose (joints/revolute.ts prepareRevolute:
 * world arms and axes, effective masses and inverses, angle, position errors), written out on
 * locals for speed. It must hold, value for value, what the rows.ts helpers compute from the same
 * poses (the results are to stay bit-identical); this checks each slot with toBe on a world
 * stepped into general poses (tilted axes, bodies turning about all three axes).
 */
import { describe, expect, it } from 'vitest';
import { incline, makeWorld } from './helpers';
import { prepareJoints, JointScratch, JointKind, JOINT_IMPULSE_STRIDE } from '../../../sim/dynamics/joints';
import type { JointSolveContext } from '../../../sim/dynamics/joints';
import { REVOLUTE_FRAME as F } from '../../../sim/dynamics/joints/revolute';
import { JOINT_FRAME_STRIDE } from '../../../sim/dynamics/joints/store';
import { addPointBlock, angK, invert3, perpBasis, revoluteAngle, rotateVec } from '../../../sim/dynamics/joints/rows';
import { Softness, springSoftness } from '../../../sim/dynamics/soft';
import type { Vec3 } from '../../../sim/math/vec3';

function world() {
  const w = makeWorld(incline(8), [
    { name: 'base', shape: { type: 'box', halfExtents: [0.2, 0.2, 0.1] }, mass: 10, position: [0.5, 0, 0.6], angularVelocity: [0.2, -0.1, 0.4] },
    { name: 'bar', shape: { type: 'box', halfExtents: [0.05, 0.07, 0.3] }, mass: 2, position: [0.5, 0, 1.0], angularVelocity: [0.3, 2, 0.1] },
    { name: 'bar2', shape: { type: 'box', halfExtents: [0.05, 0.05, 0.3] }, mass: 1, position: [0.5, 0, 1.6], angularVelocity: [-1, 0.5, 0.7] },
  ], [
    { type: 'revolute', name: 'h1', bodyA: 'base', bodyB: 'bar', anchor: [0.5, 0, 0.7], axis: [0, 1, 0], limits: [-0.3, 0.2], spring: { stiffness: 40, damping: 2 } },
    { type: 'revolute', name: 'h2', bodyA: 'bar', bodyB: 'bar2', anchor: [0.5, 0, 1.3], axis: [0.6, 0.8, 0], motor: { targetVelocity: 1, maxTorque: 3 } },
    { type: 'revolute', name: 'h3', bodyB: 'bar2', anchor: [0.5, 0.2, 1.9], axis: [0, 0.6, 0.8], friction: 0.2 },
  ]);
  w.step(5);
  return w;
}

describe('revolute joint frames (prepare once per pose)', () => {
  it('hold what the rows.ts helpers compute from the same poses, bit for bit (40 poses)', () => {
    const w = world();
    let checked = 0;
    for (let s = 0; s < 40; s++) {
      w.step(1);
      checked += checkFrames(w);
    }
    expect(checked).toBe(120);
  });
});

/** Prepares the frames at w's current poses and checks every revolute slot; returns the joints checked. */
function checkFrames(w: ReturnType<typeof world>): number {
  const bodies = w.bodies, joints = w.joints;
  // the solver's masses as the world sets them (all dynamic and awake here; the terrain slot 0)
  const invMass = new Float64Array(bodies.count + 1);
  for (let b = 0; b < bodies.count; b++) invMass[b] = bodies.invMass[b];
  const h = w.dt / 4;
  const ctx: JointSolveContext = { bodies, invMass, soft: new Softness(), h, invH: 1 / h, scratch: new JointScratch() };
  prepareJoints(joints, ctx);
  const js = new JointScratch(), ref: JointSolveContext = { ...ctx, scratch: js };
  const f = joints.frames, I = bodies.invInertiaWorld;
  const vec = (o: number): number[] => [f[o], f[o + 1], f[o + 2]];
  let checked = 0;
  for (let j = 0; j < joints.count; j++) {
    const def = joints.defs[j];
    expect(def.kind).toBe(JointKind.Revolute);
    const a = def.bodyA, b = def.bodyB, fo = JOINT_FRAME_STRIDE * j;
    const mA = invMass[a], mB = invMass[b];
    rotateVec(js.rA, bodies.rot, a, def.anchorA);
    rotateVec(js.rB, bodies.rot, b, def.anchorB);
    rotateVec(js.ax, bodies.rot, a, def.axisA);
    perpBasis(js, bodies.rot, a, def);
    expect(vec(fo + F.rA)).toEqual([...js.rA]);
    expect(vec(fo + F.rB)).toEqual([...js.rB]);
    expect(vec(fo + F.axis)).toEqual([...js.ax]);
    expect(vec(fo + F.p1)).toEqual([...js.p1]);
    expect(vec(fo + F.p2)).toEqual([...js.p2]);
    angK(ref, a, b, js.ax);
    expect(f[fo + F.coordK]).toBe(js.rowK);
    expect(f[fo + F.coordM]).toBe(1 / js.rowK);
    if (def.limits !== null || def.stiffness > 0) {
      revoluteAngle(js, bodies, def, a, b);
      expect(f[fo + F.angle]).toBe(js.angle);
    }
    if (def.stiffness > 0 || def.damping > 0) {
      springSoftness(js.spring, def.stiffness, def.damping, 1 / js.rowK, h);
      expect([f[fo + F.springBiasRate], f[fo + F.springMassScale], f[fo + F.springImpulseScale]]).toEqual([js.spring.biasRate, js.spring.massScale, js.spring.impulseScale]);
    }
    // angular lock: error a × b_B on p1, p2; K = I_A + I_B restricted to p1, p2
    const bx: Vec3 = [0, 0, 0];
    rotateVec(bx, bodies.rot, b, def.axisB);
    const ax = js.ax;
    const e = [ax[1] * bx[2] - ax[2] * bx[1], ax[2] * bx[0] - ax[0] * bx[2], ax[0] * bx[1] - ax[1] * bx[0]];
    expect(f[fo + F.angErr1]).toBe(e[0] * js.p1[0] + e[1] * js.p1[1] + e[2] * js.p1[2]);
    expect(f[fo + F.angErr2]).toBe(e[0] * js.p2[0] + e[1] * js.p2[1] + e[2] * js.p2[2]);
    const K = new Float64Array(9);
    if (mA > 0) for (let k = 0; k < 9; k++) K[k] += I[9 * a + k];
    if (mB > 0) for (let k = 0; k < 9; k++) K[k] += I[9 * b + k];
    const dot = (u: Vec3, v: Vec3): number => {
      const x = K[0] * v[0] + K[3] * v[1] + K[6] * v[2], y = K[1] * v[0] + K[4] * v[1] + K[7] * v[2], z = K[2] * v[0] + K[5] * v[1] + K[8] * v[2];
      return u[0] * x + u[1] * y + u[2] * z;
    };
    const k11 = dot(js.p1, js.p1), k12 = dot(js.p1, js.p2), k22 = dot(js.p2, js.p2);
    expect([f[fo + F.k11], f[fo + F.k12], f[fo + F.k22], f[fo + F.det], f[fo + F.invDet]]).toEqual([k11, k12, k22, k11 * k22 - k12 * k12, 1 / (k11 * k22 - k12 * k12)]);
    // point block: (mA + mB)·1 + the bodies' −[r]×·I·[r]×, inverted
    js.K.fill(0);
    js.K[0] = js.K[4] = js.K[8] = mA + mB;
    if (mA > 0) addPointBlock(js, bodies, a, js.rA);
    if (mB > 0) addPointBlock(js, bodies, b, js.rB);
    expect(invert3(js.Kinv, js.K)).toBe(true);
    expect(f[fo + F.pointOk]).toBe(1);
    expect(Array.from(f.subarray(fo + F.pointKinv, fo + F.pointKinv + 9))).toEqual(Array.from(js.Kinv));
    const pos = bodies.pos;
    expect(vec(fo + F.separation)).toEqual([0, 1, 2].map((k) => pos[3 * b + k] + js.rB[k] - pos[3 * a + k] - js.rA[k]));
    // general poses: the bodies turned out of the plane, the joints carry impulses
    expect(Math.abs(js.ax[2])).toBeGreaterThan(1e-3);
    expect(joints.impulses[JOINT_IMPULSE_STRIDE * j]).not.toBe(0);
    checked++;
  }
  return checked;
}
