import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideShapeHeightfield, collideShapes } from '../../../sim/collision/dispatcher';
import { MANIFOLD_MAX_POINTS } from '../../../sim/constants';
import { quatNormalize } from '../../../sim/math/quat';
import type { Quat } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import type { ConvexShape } from '../../../sim/shapes/shape';
import { shapeFromDesc } from '../../../sim/shapes/shape-desc';
import { SphereShape } from '../../../sim/shapes/sphere';
import { Heightfield } from '../../../sim/terrain/heightfield';

/** Seeded robustness sweep: every routine, scales from 1 mm to 1 km, aspect ratios up to 1000. */
describe('no NaN leaves a contact routine (seeded sweep)', () => {
  const rng = new Rng(31337);
  const randomShape = (s: number): ConvexShape => {
    const a = (): number => s * Math.exp(rng.range(-3.4, 0)); // up to 1:30 per axis
    switch (rng.int(0, 4)) {
      case 0: return new SphereShape(a());
      case 1: return new BoxShape([a(), a(), a()]);
      case 2: return new CapsuleShape(a(), rng.next() < 0.2 ? 0 : a());
      case 3: return new CylinderShape(a(), a());
      default: {
        const pts: [number, number, number][] = [];
        for (let k = 0; k < 12; k++) pts.push([a() * rng.range(-1, 1), a() * rng.range(-1, 1), a() * rng.range(-1, 1)]);
        return shapeFromDesc({ type: 'hull', points: pts });
      }
    }
  };
  const quat = (): Quat => quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
  const finite = (b: ContactBuffer): boolean => {
    for (let k = 0; k < b.count; k++) {
      const v = b.point[3 * k] + b.point[3 * k + 1] + b.point[3 * k + 2] + b.normal[3 * k] + b.normal[3 * k + 1] + b.normal[3 * k + 2] + b.depth[k];
      if (!Number.isFinite(v)) return false;
      if (Math.abs(Math.hypot(b.normal[3 * k], b.normal[3 * k + 1], b.normal[3 * k + 2]) - 1) > 1e-9) return false;
    }
    return true;
  };

  it('body pairs: 600 random pairs at 1 mm … 1 km', () => {
    const buf = new ContactBuffer(64);
    for (let k = 0; k < 600; k++) {
      const s = [1e-3, 1, 1e3][k % 3];
      const a = randomShape(s), b = randomShape(s);
      const pb: Vec3 = [s * rng.range(-1, 1), s * rng.range(-1, 1), s * rng.range(-1, 1)];
      buf.clear();
      collideShapes(buf, a, { position: [0, 0, 0], orientation: quat() }, b, { position: pb, orientation: quat() }, 0.01 * s);
      expect(finite(buf)).toBe(true);
      expect(buf.count).toBeLessThanOrEqual(MANIFOLD_MAX_POINTS);
    }
  });

  it('bodies on terrain: 200 random bodies on a rough field', () => {
    const n = 33;
    const h = new Float64Array(n * n);
    for (let i = 0; i < h.length; i++) h[i] = rng.range(0, 0.3);
    const hf = Heightfield.fromArray({ cols: n, rows: n, dx: 0.1, dy: 0.1, heights: h });
    const buf = new ContactBuffer(256);
    for (let k = 0; k < 200; k++) {
      const shape = randomShape(0.5);
      buf.clear();
      collideShapeHeightfield(buf, shape, { position: [rng.range(0, 3.2), rng.range(0, 3.2), rng.range(0, 0.6)], orientation: quat() }, hf, 0.01);
      expect(finite(buf)).toBe(true);
      for (let c = 0; c < buf.count; c++) expect(buf.normal[3 * c + 2]).toBeGreaterThan(0); // out of the terrain
    }
  });
});
