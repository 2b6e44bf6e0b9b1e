import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import type { Quat } from '../../../sim/math/quat';
import { quatFromAxisAngle, quatMultiply, quatNormalize, quatRotate } from '../../../sim/math/quat';
import { BoxShape } from '../../../sim/shapes/box';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import { SphereShape } from '../../../sim/shapes/sphere';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CompoundShape } from '../../../sim/shapes/compound';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';
import { HULL_HILL_CLIMB_MIN_VERTICES } from '../../../sim/constants';
import { aabb } from '../../../sim/shapes/shape';
import { convexWorldAabb, shapeWorldAabb } from '../../../sim/shapes/world-aabb';

describe('world AABB', () => {
  it('45°-yawed unit box: ±√2 in x and y, exact', () => {
    const b = convexWorldAabb(aabb(), new BoxShape([1, 1, 1]), { position: [1, 2, 3], orientation: quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], Math.PI / 4) });
    expect(b.min[0]).toBeCloseTo(1 - Math.SQRT2, 12);
    expect(b.max[1]).toBeCloseTo(2 + Math.SQRT2, 12);
    expect(b.max[2]).toBeCloseTo(4, 12);
  });

  it('a rotated sphere keeps its radius (no growth), a tilted cylinder matches the paper\'s AABB formula', () => {
    const q = quatNormalize([0, 0, 0, 1], [0.3, -0.2, 0.5, 0.8]);
    const s = convexWorldAabb(aabb(), new SphereShape(0.5), { position: [0, 0, 0], orientation: q });
    expect(s.max).toEqual([0.5, 0.5, 0.5].map((x) => expect.closeTo(x, 12)));
    // Cylinder: per axis k, half extent = (h/2)|v_k| + r·sqrt(1 − v_k²) (seed README, broad phase)
    const r = 0.3, h = 0.2;
    const v = quatRotate([0, 0, 0], q, [0, 0, 1]);
    const c = convexWorldAabb(aabb(), new CylinderShape(r, h), { position: [0, 0, 0], orientation: q });
    for (let k = 0; k < 3; k++) expect(c.max[k]).toBeCloseTo((h / 2) * Math.abs(v[k]) + r * Math.sqrt(1 - v[k] * v[k]), 12);
  });

  it('contains every support point in random directions and touches the box faces (seeded)', () => {
    const rng = new Rng(3);
    const shape = new CapsuleShape(0.2, 0.7);
    for (let i = 0; i < 20; i++) {
      const q: Quat = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const pos: Vec3 = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
      const b = convexWorldAabb(aabb(), shape, { position: pos, orientation: q });
      for (let j = 0; j < 50; j++) {
        const d: Vec3 = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
        const s = quatRotate([0, 0, 0], q, shape.support([0, 0, 0], quatRotate([0, 0, 0], [-q[0], -q[1], -q[2], q[3]], d)));
        for (let k = 0; k < 3; k++) {
          expect(s[k] + pos[k]).toBeGreaterThanOrEqual(b.min[k] - 1e-12);
          expect(s[k] + pos[k]).toBeLessThanOrEqual(b.max[k] + 1e-12);
        }
      }
    }
  });

  it('a hull of 200 points turning in small steps (each box direction climbs from its own last vertex): the box of its world vertices by brute force, exactly, and the shared support still answers', () => {
    const rng = new Rng(31);
    const pts: number[] = [];
    for (let k = 0; k < 200; k++) {
      const z = rng.range(-1, 1), phi = rng.range(0, 2 * Math.PI), r = Math.sqrt(1 - z * z);
      pts.push(0.6 * r * Math.cos(phi), 0.3 * r * Math.sin(phi), 0.1 * z);
    }
    const hull = new ConvexHullShape(buildConvexHull(pts).data!);
    expect(hull.vertexCount).toBeGreaterThanOrEqual(HULL_HILL_CLIMB_MIN_VERTICES);
    const axisOf: Vec3 = quatNormalize([0, 0, 0, 1], [0.3, -0.5, 1, 0]).slice(0, 3) as Vec3;
    let q: Quat = [0, 0, 0, 1];
    for (let step = 0; step < 400; step++) {
      // a slow tumble (the robot case) with a jump every 50 steps (a far start)
      q = quatNormalize([0, 0, 0, 1], step % 50 === 49 ? [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()] : quatMultiply([0, 0, 0, 1], quatFromAxisAngle([0, 0, 0, 1], axisOf, 0.03), q));
      const pos: Vec3 = [rng.range(-1, 1), rng.range(-1, 1), rng.range(0, 1)];
      const b = convexWorldAabb(aabb(), hull, { position: pos, orientation: q });
      const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
      for (let v = 0; v < hull.vertexCount; v++) {
        const w = quatRotate([0, 0, 0], q, [hull.vertices[3 * v], hull.vertices[3 * v + 1], hull.vertices[3 * v + 2]]);
        for (let k = 0; k < 3; k++) {
          lo[k] = Math.min(lo[k], w[k] + pos[k]);
          hi[k] = Math.max(hi[k], w[k] + pos[k]);
        }
      }
      for (let k = 0; k < 3; k++) {
        expect(b.min[k]).toBe(lo[k]);
        expect(b.max[k]).toBe(hi[k]);
      }
      // the shared climb (GJK's) is unaffected: the largest v·d over all vertices
      const d: Vec3 = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
      const s = hull.support([0, 0, 0], d);
      let best = -Infinity;
      for (let v = 0; v < hull.vertexCount; v++) best = Math.max(best, hull.vertices[3 * v] * d[0] + hull.vertices[3 * v + 1] * d[1] + hull.vertices[3 * v + 2] * d[2]);
      expect(s[0] * d[0] + s[1] * d[1] + s[2] * d[2]).toBe(best);
    }
  });

  it('compound: union of the children with composed poses', () => {
    const c = new CompoundShape([
      { shape: new BoxShape([0.5, 0.5, 0.5]), position: [1, 0, 0], orientation: [0, 0, 0, 1] },
      { shape: new SphereShape(0.25), position: [-1, 0, 0], orientation: [0, 0, 0, 1] },
    ]);
    const q = quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], Math.PI / 2); // x → y
    const b = shapeWorldAabb(aabb(), c, { position: [0, 0, 1], orientation: q });
    expect(b.min[1]).toBeCloseTo(-1.25, 12);
    expect(b.max[1]).toBeCloseTo(1.5, 12);
    expect(b.max[0]).toBeCloseTo(0.5, 12);
    expect(b.min[2]).toBeCloseTo(0.5, 12);
  });
});
