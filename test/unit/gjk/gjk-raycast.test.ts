import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { quatFromAxisAngle } from '../../../sim/math/quat';
import { SphereShape } from '../../../sim/shapes/sphere';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import type { ConvexShape, Pose } from '../../../sim/shapes/shape';
import { CastResult, CastStatus, gjkRayCast, gjkShapeCast } from '../../../sim/collision/gjk-raycast';
import { GjkResult, GjkStatus, gjkDistance } from '../../../sim/collision/gjk';
import { finite, pose, randomQuat, randomUnit } from './helpers';
import { makeRandomHull } from './hull-fixtures';

const c = new CastResult();

describe('GJK ray cast', () => {
  it('ray against a sphere: analytic entry distance and surface normal', () => {
    const s = new SphereShape(1);
    gjkRayCast(c, s, pose(5, 0.6, 0), [0, 0, 0], [2, 0, 0], 10);
    expect(c.status).toBe(CastStatus.Hit);
    expect(c.distance).toBeCloseTo(5 - 0.8, 6);
    expect(c.normal[0]).toBeCloseTo(-0.8, 5);
    expect(c.normal[1]).toBeCloseTo(-0.6, 5);
    expect(c.pointB[0]).toBeCloseTo(4.2, 6);
  });

  it('ray against a rotated box face, a miss, and a too-short ray', () => {
    const b = new BoxShape([1, 1, 1]);
    const q = quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], 0.3);
    gjkRayCast(c, b, pose(0, 0, 0, q), [0, 0, 5], [0, 0, -1], 10);
    expect(c.status).toBe(CastStatus.Hit);
    expect(c.distance).toBeCloseTo(4, 9);
    expect(c.normal[2]).toBeCloseTo(1, 9);
    gjkRayCast(c, b, pose(), [0, 3, 5], [0, 0, -1], 10);
    expect(c.status).toBe(CastStatus.Miss);
    gjkRayCast(c, b, pose(), [0, 0, 5], [0, 0, -1], 3.5);
    expect(c.status).toBe(CastStatus.Miss);
  });

  it('ray starting inside: InitiallyOverlapping at distance 0', () => {
    gjkRayCast(c, new BoxShape([1, 1, 1]), pose(), [0.2, 0, 0], [1, 0, 0], 5);
    expect(c.status).toBe(CastStatus.InitiallyOverlapping);
    expect(c.distance).toBe(0);
  });

  it('zero direction or NaN origin: Degenerate', () => {
    gjkRayCast(c, new BoxShape([1, 1, 1]), pose(), [0, 0, 5], [0, 0, 0], 5);
    expect(c.status).toBe(CastStatus.Degenerate);
    gjkRayCast(c, new BoxShape([1, 1, 1]), pose(), [NaN, 0, 5], [0, 0, 1], 5);
    expect(c.status).toBe(CastStatus.Degenerate);
  });
});

describe('GJK shape cast (linear time of impact)', () => {
  it('two moving spheres: analytic time of impact (Huotari §6.1)', () => {
    const a = new SphereShape(0.5), b = new SphereShape(0.5);
    // A moves +x by 10, B moves −x by 2: relative 12, gap 6 − 1 = 5 → λ = 5/12
    gjkShapeCast(c, a, pose(0, 0, 0), [10, 0, 0], b, pose(6, 0, 0), [-2, 0, 0]);
    expect(c.status).toBe(CastStatus.Hit);
    expect(c.fraction).toBeCloseTo(5 / 12, 6);
    expect(c.normal[0]).toBeCloseTo(1, 6);
    expect(c.pointA[0]).toBeCloseTo(10 * (5 / 12) + 0.5, 5);
  });

  it('box sweeping into a rotated box stops touching it (conservative, never inside)', () => {
    const a = new BoxShape([0.5, 0.5, 0.5]);
    const b = new BoxShape([0.5, 0.5, 0.5]);
    const q = quatFromAxisAngle([0, 0, 0, 1], [0, 1, 0], Math.PI / 4);
    gjkShapeCast(c, a, pose(0, 0, 0), [0, 0, 5], b, pose(0.1, 0, 3, q), [0, 0, 0]);
    expect(c.status).toBe(CastStatus.Hit);
    // B's lowest vertex is at z = 3 − √2/2; A's top at 0.5 + 5λ
    expect(c.fraction).toBeCloseTo((3 - Math.SQRT1_2 - 0.5) / 5, 6);
    expect(c.normal[2]).toBeCloseTo(1, 6);
  });

  it('random sweeps: at the reported λ the shapes touch, just before it they are apart (seeded)', () => {
    const shapes: ConvexShape[] = [new BoxShape([0.3, 0.2, 0.4]), new SphereShape(0.3), new CapsuleShape(0.2, 0.5), new CylinderShape(0.3, 0.4), makeRandomHull(new Rng(3), 24, 0.4)];
    const rng = new Rng(31337);
    const g = new GjkResult();
    let hits = 0;
    const at = (p: Pose, m: readonly number[], t: number): Pose => ({
      position: [p.position[0] + m[0] * t, p.position[1] + m[1] * t, p.position[2] + m[2] * t],
      orientation: p.orientation,
    });
    for (let i = 0; i < 200; i++) {
      const a = shapes[rng.int(0, 4)], b = shapes[rng.int(0, 4)];
      const pa = pose(0, 0, 0, randomQuat(rng));
      const u = randomUnit(rng);
      const pb = pose(3 * u[0], 3 * u[1], 3 * u[2], randomQuat(rng));
      const aim = randomUnit(rng);
      const ma = [6 * (u[0] + 0.3 * aim[0]), 6 * (u[1] + 0.3 * aim[1]), 6 * (u[2] + 0.3 * aim[2])];
      const mb = [0.5 * aim[0], 0.5 * aim[1], 0.5 * aim[2]];
      gjkShapeCast(c, a, pa, ma as [number, number, number], b, pb, mb as [number, number, number]);
      expect(finite(c.normal, c.pointA, c.pointB, [c.fraction])).toBe(true);
      expect([CastStatus.Hit, CastStatus.Miss]).toContain(c.status);
      if (c.status !== CastStatus.Hit) {
        // A miss must really miss: sample the sweep.
        for (let t = 0; t <= 1; t += 0.02) {
          gjkDistance(g, a, at(pa, ma, t), b, at(pb, mb, t));
          expect(g.distance).toBeGreaterThan(-1e-9);
        }
        continue;
      }
      hits++;
      gjkDistance(g, a, at(pa, ma, c.fraction), b, at(pb, mb, c.fraction));
      expect(Math.abs(g.distance)).toBeLessThan(1e-5);
      if (c.fraction > 0.01) {
        gjkDistance(g, a, at(pa, ma, c.fraction - 0.01), b, at(pb, mb, c.fraction - 0.01));
        expect(g.status).toBe(GjkStatus.Separated);
      }
    }
    expect(hits).toBeGreaterThan(100);
  });
});
