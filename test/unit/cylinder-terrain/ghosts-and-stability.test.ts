/**
 * Regression tests for what the paper leaves out: ghost contacts on internal edges and manifolds
 * that jump while a wheel rolls across cell seams. Each test is named after the failure it pins.
 */
import { describe, expect, it } from 'vitest';
import { collideCylinderTerrain, type CylinderTerrainContact } from '../../../sim/collision/cylinder-terrain/plain-api';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { add, cross, dist, norm, planeField, planeOf, type V3 } from './helpers';

const R = 0.3;
const H = 0.2;

/** Heightfield sampling f(x, y). */
function field(f: (x: number, y: number) => number, cols = 61, dx = 0.05): Heightfield {
  const x0 = (-(cols - 1) * dx) / 2;
  const heights: number[] = [];
  for (let j = 0; j < cols; j++) for (let i = 0; i < cols; i++) heights.push(f(x0 + i * dx, x0 + j * dx));
  return Heightfield.fromArray({ cols, rows: cols, dx, dy: dx, x0, y0: x0, heights });
}

/** Moves each point of `prev` to its nearest in `next`; returns the largest |move − expected|. */
function worstMoveError(prev: readonly CylinderTerrainContact[], next: readonly CylinderTerrainContact[], step: Readonly<V3>): number {
  let worst = 0;
  for (const p of prev) {
    const want = add(p.point, step);
    let best = Infinity;
    for (const q of next) best = Math.min(best, dist(want, q.point));
    worst = Math.max(worst, best);
  }
  return worst;
}

describe('ghost contacts on internal edges', () => {
  it('no ghost normal when rolling diagonally across seams of a tilted plane', () => {
    const gx = 0.15, gy = 0.1;
    const hf = planeField({ cols: 61, rows: 61, dx: 0.05, dy: 0.05, x0: -1.5, y0: -1.5, gx, gy, c: 0 });
    const { n } = planeOf(gx, gy, 0);
    // Axle diagonal to the grid and in the plane; roll perpendicular to it, 3 mm per step.
    const axle = norm(add([1, 1, 0], n, -(n[0] + n[1]))); // (1, 1, 0) made tangent to the plane
    const roll = norm(cross(n, axle));
    let steps = 0;
    for (let s = -60; s <= 60; s++) {
      const foot: V3 = add([0.0031, -0.0017, 0], roll, 0.003 * s);
      foot[2] = gx * foot[0] + gy * foot[1];
      const { contacts } = collideCylinderTerrain({ center: add(foot, n, R - 0.02), axis: axle, radius: R, height: H }, hf);
      expect(contacts.length).toBe(2);
      for (const c of contacts) {
        expect(c.kind).toBe('side');
        expect(dist(c.normal, n)).toBeLessThan(1e-12);
        expect(Math.abs(c.depth - 0.02)).toBeLessThan(1e-9);
      }
      steps++;
    }
    expect(steps).toBe(121);
  });

  it('no ghost normal when rolling diagonally over a gentle dome (seams slightly convex)', () => {
    const Rc = 12; // radius of curvature: 5 cm cells bend by 0.24°
    const hf = field((x, y) => -(x * x + y * y) / (2 * Rc));
    const axle = norm([1, -1, 0]);
    for (let s = -40; s <= 40; s++) {
      const x = 0.004 * s + 0.0021, y = 0.004 * s - 0.0013;
      const z = -(x * x + y * y) / (2 * Rc);
      const nTrue = norm([x / Rc, y / Rc, 1]);
      const { contacts } = collideCylinderTerrain({ center: add([x, y, z], nTrue, R - 0.01), axis: axle, radius: R, height: H }, hf);
      expect(contacts.length).toBeGreaterThan(0);
      for (const c of contacts) {
        expect(c.kind).not.toBe('edge');
        // The smooth surface normal under the contact point: the piecewise-planar one is within
        // one cell's bend (dx/Rc ≈ 0.24°) of it.
        const nAt = norm([c.point[0] / Rc, c.point[1] / Rc, 1]);
        expect(Math.acos(Math.min(1, c.normal[0] * nAt[0] + c.normal[1] * nAt[1] + c.normal[2] * nAt[2]))).toBeLessThan(0.01);
      }
    }
  });

  it('no ghost edge contact in a gentle bowl (seams concave)', () => {
    const Rc = 12;
    const hf = field((x, y) => (x * x + y * y) / (2 * Rc));
    for (let s = -30; s <= 30; s++) {
      const x = 0.005 * s + 0.0011, y = -0.003 * s;
      const z = (x * x + y * y) / (2 * Rc);
      const { contacts } = collideCylinderTerrain({ center: [x, y, z + R - 0.01], axis: [0, 1, 0], radius: R, height: H }, hf);
      expect(contacts.length).toBeGreaterThan(0);
      for (const c of contacts) expect(c.kind).not.toBe('edge');
    }
  });

  it('no ghost seam contacts when a deep wheel section covers many seams of a tilted plane', () => {
    const hf = planeField({ cols: 61, rows: 61, dx: 0.02, dy: 0.02, x0: -0.6, y0: -0.6, gx: -0.2, gy: 0.3, c: 0 });
    const { n } = planeOf(-0.2, 0.3, 0);
    const axle = norm(cross(n, [0.3, 1, 0]));
    const { contacts } = collideCylinderTerrain({ center: add([0.001, 0.002, -0.2 * 0.001 + 0.3 * 0.002], n, R - 0.05), axis: axle, radius: R, height: H }, hf);
    expect(contacts.length).toBe(2);
  });
});

describe('stable manifold while rolling', () => {
  it('manifold points move continuously (by the step) while rolling across seams of a flat map', () => {
    const hf = field(() => 0.1);
    const step: V3 = [0.0023, 0.0017, 0];
    let prev: CylinderTerrainContact[] | null = null;
    const axle = norm([-0.6, 0.8, 0]);
    for (let s = 0; s < 80; s++) {
      const { contacts } = collideCylinderTerrain({ center: [-0.1 + s * step[0], -0.07 + s * step[1], 0.1 + R - 0.01], axis: axle, radius: R, height: H }, hf);
      expect(contacts.length).toBe(2);
      if (prev) expect(worstMoveError(prev, contacts, step)).toBeLessThan(1e-9);
      prev = contacts;
    }
  });

  for (const pose of ['lying', 'standing'] as const) {
    it(`manifold points move continuously while a ${pose} wheel slides across seams of a tilted plane`, () => {
      const gx = -0.12, gy = 0.2;
      const hf = planeField({ cols: 61, rows: 61, dx: 0.05, dy: 0.05, x0: -1.5, y0: -1.5, gx, gy, c: 0.3 });
      const { n } = planeOf(gx, gy, 0.3);
      const inPlane = norm(cross(n, [0.4, -1, 0]));
      const dir = norm(cross(n, inPlane));
      const axis = pose === 'lying' ? inPlane : n;
      const lift = pose === 'lying' ? R - 0.01 : H / 2 - 0.01;
      const step: V3 = [dir[0] * 0.003, dir[1] * 0.003, dir[2] * 0.003];
      let prev: CylinderTerrainContact[] | null = null;
      for (let s = 0; s < 70; s++) {
        const foot = add([0.0013, 0.0029, 0], step, s - 35);
        foot[2] = gx * foot[0] + gy * foot[1] + 0.3;
        const { contacts } = collideCylinderTerrain({ center: add(foot, n, lift), axis, radius: R, height: H }, hf);
        expect(contacts.length).toBe(pose === 'lying' ? 2 : 4);
        if (prev) expect(worstMoveError(prev, contacts, step)).toBeLessThan(1e-9);
        prev = contacts;
      }
    });
  }
});
