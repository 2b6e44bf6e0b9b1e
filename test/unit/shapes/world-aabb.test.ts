import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import type { Quat } from '../../../sim/math/quat';
import { quatFromAxisAngle, quatNormalize, quatRotate } from '../../../sim/math/quat';
import { BoxShape } from '../../../sim/shapes/box';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import { SphereShape } from '../../../sim/shapes/sphere';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CompoundShape } from '../../../sim/shapes/compound';
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
