/**
 * timeOfImpact (the stepper's convex-pair entry), sweptAabb (the broad phase's box for a moving
 * body) and the plain forms' input validation.
 */
import { describe, expect, it } from 'vitest';
import { CastResult, CastStatus, gjkShapeCast } from '../../../sim/collision/gjk-raycast';
import { GjkResult, gjkDistance } from '../../../sim/collision/gjk';
import { castShape, castShapeTerrain } from '../../../sim/collision/swept/plain-api';
import { poseAfter, sweptAabb, timeOfImpact } from '../../../sim/collision/swept/time-of-impact';
import type { RigidMotion } from '../../../sim/collision/swept/time-of-impact';
import { CA_TARGET_DISTANCE, CA_TOLERANCE } from '../../../sim/constants';
import { Rng } from '../../../sim/math/random';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import type { Aabb, ConvexShape, Pose } from '../../../sim/shapes/shape';
import { convexWorldAabb } from '../../../sim/shapes/world-aabb';
import { Heightfield } from '../../../sim/terrain/heightfield';

function randomQuat(rng: Rng): [number, number, number, number] {
  const q = [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

const still: RigidMotion = { linear: [0, 0, 0], angular: [0, 0, 0] };

describe('sweptAabb', () => {
  it('holds the shape at 200 sampled times of seeded rotating motions (up to 3 turns)', () => {
    const rng = new Rng(4242);
    const shapes: ConvexShape[] = [new BoxShape([0.8, 0.1, 0.3]), new CapsuleShape(0.1, 1.5), new CylinderShape(0.4, 0.2)];
    const box: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
    const at: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
    const p: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
    let maxGrow = 0;
    const outside: string[] = [];
    for (let n = 0; n < 300; n++) {
      const shape = shapes[n % 3];
      const pose0: Pose = { position: [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)], orientation: randomQuat(rng) };
      const turns = n < 100 ? rng.range(0, 0.3) : rng.range(0, 3);
      const axis = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
      const al = Math.hypot(...axis);
      const th = turns * 2 * Math.PI;
      const motion: RigidMotion = {
        linear: [rng.range(-2, 2), rng.range(-2, 2), rng.range(-2, 2)],
        angular: [(axis[0] / al) * th, (axis[1] / al) * th, (axis[2] / al) * th],
      };
      sweptAabb(box, shape, pose0, motion);
      for (let s = 0; s <= 200; s++) {
        poseAfter(p, pose0, motion, s / 200);
        convexWorldAabb(at, shape, p);
        for (let k = 0; k < 3; k++) {
          // (plain comparisons: 360,000 expect() calls would take seconds)
          if (!(at.min[k] >= box.min[k] - 1e-12) || !(at.max[k] <= box.max[k] + 1e-12)) outside.push(`motion ${n} t ${s / 200} axis ${k}`);
        }
      }
      maxGrow = Math.max(maxGrow, box.max[0] - box.min[0]);
    }
    expect(outside.slice(0, 5)).toEqual([]);
    expect(maxGrow).toBeGreaterThan(0);
  });
  it('without rotation it is exactly the box of the start and end poses', () => {
    const shape = new BoxShape([0.5, 0.2, 0.1]);
    const pose0: Pose = { position: [1, 2, 3], orientation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] };
    const box: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
    sweptAabb(box, shape, pose0, { linear: [2, -1, 0], angular: [0, 0, 0] });
    expect(box.min).toEqual([1 - 0.2, 2 - 1 - 0.5, 3 - 0.1].map((x) => expect.closeTo(x, 12)));
    expect(box.max).toEqual([3 + 0.2, 2 + 0.5, 3 + 0.1].map((x) => expect.closeTo(x, 12)));
  });
  it('a spin of 2π ends where it started but the box still grows to hold the turn', () => {
    const shape = new BoxShape([1, 0.1, 0.1]);
    const box: Aabb = { min: [0, 0, 0], max: [0, 0, 0] };
    sweptAabb(box, shape, { position: [0, 0, 0], orientation: [0, 0, 0, 1] }, { linear: [0, 0, 0], angular: [0, 0, 2 * Math.PI] });
    // at a quarter turn the bar lies along y: |y| up to 1
    expect(box.max[1]).toBeGreaterThanOrEqual(1);
  });
});

describe('timeOfImpact', () => {
  const a = new CapsuleShape(0.2, 0.8), b = new BoxShape([0.5, 0.5, 0.5]);
  const poseA: Pose = { position: [-3, 0.1, 0], orientation: [0, 0, 0, 1] };
  const poseB: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  const out = new CastResult(), ref = new CastResult();
  it('without rotation: the exact linear cast (both bodies moving)', () => {
    timeOfImpact(out, a, poseA, { linear: [4, 0, 0], angular: [0, 0, 0] }, b, poseB, { linear: [-1, 0, 0], angular: [0, 0, 0] });
    gjkShapeCast(ref, a, poseA, [4, 0, 0], b, poseB, [-1, 0, 0]);
    expect(out.status).toBe(CastStatus.Hit);
    expect(out.fraction).toBe(ref.fraction);
    expect(out.fraction).toBeCloseTo((3 - 0.7) / 5, 6);
  });
  it('with rotation: conservative advancement, stopping about CA_TARGET_DISTANCE apart and never later than contact', () => {
    const motionA: RigidMotion = { linear: [4, 0, 0], angular: [0, 0, 1.5] };
    timeOfImpact(out, a, poseA, motionA, b, poseB, still);
    expect(out.status).toBe(CastStatus.Hit);
    const g = new GjkResult();
    const p: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
    poseAfter(p, poseA, motionA, out.fraction);
    gjkDistance(g, a, p, b, poseB);
    expect(g.distance).toBeGreaterThan(0);
    expect(g.distance).toBeLessThanOrEqual(CA_TARGET_DISTANCE + CA_TOLERANCE + 1e-9);
    // sampled: apart at every time before
    for (let s = 0; s < 100; s++) {
      poseAfter(p, poseA, motionA, (s / 100) * out.fraction);
      gjkDistance(g, a, p, b, poseB);
      expect(g.distance).toBeGreaterThan(0);
    }
  });
  it('a clear path is a miss with fraction 1', () => {
    timeOfImpact(out, a, { position: [-3, 2, 0], orientation: [0, 0, 0, 1] }, { linear: [6, 0, 0], angular: [0, 0, 0] }, b, poseB, still);
    expect(out.status).toBe(CastStatus.Miss);
    expect(out.fraction).toBe(1);
  });
});

describe('plain forms: castShape, castShapeTerrain', () => {
  const sphere = { shape: { type: 'sphere' as const, radius: 0.5 }, position: [0, 0, 3] as [number, number, number], orientation: [0, 0, 0, 1] as [number, number, number, number] };
  const hf = Heightfield.fromArray({ cols: 3, rows: 3, dx: 1, dy: 1, x0: -1, y0: -1, heights: [0, 0, 0, 0, 0, 0, 0, 0, 0] });
  it('hit and miss shapes', () => {
    const r = castShapeTerrain(sphere, [0, 0, -5], hf);
    expect(r.hit).toBe(true);
    if (!r.hit) return;
    expect(r.toi).toBeCloseTo(2.5 / 5, 12);
    expect(r.normal.map((x) => x + 0)).toEqual([0, 0, 1]);
    expect(r.element).toBe('rectangle');
    const m = castShapeTerrain(sphere, [0, 0, 1], hf);
    expect(m).toEqual({ hit: false });
    expect('toi' in m).toBe(false);
    const c = castShape(sphere, [0, 0, -5], { shape: { type: 'box', halfExtents: [1, 1, 1] }, position: [0, 0, 0], orientation: [0, 0, 0, 1] });
    expect(c.hit && c.toi).toBeCloseTo(1.5 / 5, 6);
    expect(c.hit && c.normal[2]).toBeCloseTo(-1, 9); // a → b
  });
  it('bad input throws an Error naming the field', () => {
    const b = { shape: { type: 'box' as const, halfExtents: [1, 1, 1] as [number, number, number] }, position: [0, 0, 0] as [number, number, number], orientation: [0, 0, 0, 1] as [number, number, number, number] };
    expect(() => castShape(sphere, [0, NaN, 1], b)).toThrow(/castShape: motion/);
    expect(() => castShape(sphere, [0, 1] as unknown as number[], b)).toThrow(/motion must be \[dx, dy, dz\]/);
    expect(() => castShape({ ...sphere, position: [0, 0] as unknown as [number, number, number] }, [1, 0, 0], b)).toThrow(/castShape: a\.position/);
    expect(() => castShape(sphere, [1, 0, 0], { ...b, orientation: [0, 0, 0, 0] })).toThrow(/castShape: b\.orientation is the zero quaternion/);
    expect(() => castShape(sphere, [1, 0, 0], { ...b, shape: { type: 'box', halfExtents: [1, -1, 1] } })).toThrow(/half/i);
    expect(() => castShapeTerrain(sphere, [1, 0, 0], {} as Heightfield)).toThrow(/castShapeTerrain: heightfield must be a Heightfield/);
    expect(() => castShapeTerrain(null as unknown as typeof sphere, [1, 0, 0], hf)).toThrow(/castShapeTerrain: a must be/);
  });
  it('a wheel (cylinder) gets its classified contacts at toi', () => {
    const wheel = { shape: { type: 'cylinder' as const, radius: 0.3, height: 0.2 }, position: [0, 0, 1] as [number, number, number], orientation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] as [number, number, number, number] };
    const r = castShapeTerrain(wheel, [0.2, 0, -1], hf);
    expect(r.hit).toBe(true);
    if (!r.hit) return;
    expect(r.toi).toBeCloseTo(0.7, 6);
    expect(r.contacts?.length).toBeGreaterThan(0);
    for (const c of r.contacts ?? []) {
      expect(['flat', 'side']).toContain(c.kind);
      expect(c.depth).toBeLessThan(1e-6);
    }
  });
});

describe('regressions', () => {
  it('a box corner reaching a cylinder side (castShape pair 5245 of the 10,000): the normal faces the motion', () => {
    // At the time of impact the gap is ~1e-9 m, where the GJK closest-point direction that
    // gjkShapeCast used to refine its normal with pointed 78° off, against the motion.
    const motion = [-0.6356711554322908, -0.6372569509694015, 1.354530057833564];
    const r = castShape(
      { shape: { type: 'box', halfExtents: [0.3851425659493543, 0.5290202939184383, 0.07946645137853921] }, position: [0.2861241234038927, 0.5047810324510785, -1.8882988632854703], orientation: [0.3189896686131514, -0.6712839823335544, 0.33309881211503206, -0.5802314949638897] },
      motion,
      { shape: { type: 'cylinder', radius: 0.12810894387075678, height: 0.9906392219359986 }, position: [0, 0, 0], orientation: [-0.7656070160659009, 0.458227805202545, -0.3963117643845571, 0.21635655964246864] },
    );
    expect(r.hit).toBe(true);
    if (!r.hit) return;
    expect(r.toi).toBeCloseTo(0.8842048, 6);
    expect(r.normal[0] * motion[0] + r.normal[1] * motion[1] + r.normal[2] * motion[2]).toBeGreaterThan(0);
  });
});
