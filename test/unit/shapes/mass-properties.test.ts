import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { quatFromAxisAngle, quatRotate } from '../../../sim/math/quat';
import { mat3, mat3FromQuat, mat3RotateTensor } from '../../../sim/math/mat3';
import { SphereShape } from '../../../sim/shapes/sphere';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { CompoundShape } from '../../../sim/shapes/compound';
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';
import type { ConvexHullData } from '../../../sim/shapes/convex-hull';
import { massProperties } from '../../../sim/shapes/shape';
import type { MassProperties } from '../../../sim/shapes/shape';

const mp = massProperties();
const rho = 7.5;

function diag(m: MassProperties): number[] {
  return [m.inertia[0], m.inertia[4], m.inertia[8]];
}

function hullOf(points: number[]): ConvexHullShape {
  return new ConvexHullShape(buildConvexHull(points).data as ConvexHullData);
}

function boxPoints(hx: number, hy: number, hz: number): number[] {
  const p: number[] = [];
  for (let i = 0; i < 8; i++) p.push(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
  return p;
}

describe('mass properties: analytic formulas', () => {
  it('box: m = ρ·8hxhyhz, I_xx = m(b² + c²)/12', () => {
    new BoxShape([0.5, 1, 1.5]).massProperties(mp, rho);
    const m = rho * 8 * 0.5 * 1 * 1.5;
    expect(mp.mass).toBeCloseTo(m, 12);
    expect(diag(mp)[0]).toBeCloseTo((m * (4 + 9)) / 12, 10);
    expect(diag(mp)[1]).toBeCloseTo((m * (1 + 9)) / 12, 10);
    expect(diag(mp)[2]).toBeCloseTo((m * (1 + 4)) / 12, 10);
  });

  it('sphere: I = 2/5 m r²', () => {
    new SphereShape(0.7).massProperties(mp, rho);
    const m = rho * (4 / 3) * Math.PI * 0.343;
    expect(mp.mass).toBeCloseTo(m, 12);
    for (const i of diag(mp)) expect(i).toBeCloseTo(0.4 * m * 0.49, 12);
  });

  it('cylinder: I_zz = m r²/2, I_xx = m(3r² + h²)/12', () => {
    new CylinderShape(0.3, 0.2).massProperties(mp, rho);
    const m = rho * Math.PI * 0.09 * 0.2;
    expect(mp.mass).toBeCloseTo(m, 12);
    expect(diag(mp)[2]).toBeCloseTo(0.5 * m * 0.09, 12);
    expect(diag(mp)[0]).toBeCloseTo((m * (0.27 + 0.04)) / 12, 12);
  });

  it('capsule of height 0 equals a sphere; capsule equals a fine hull of itself', () => {
    new CapsuleShape(0.4, 0).massProperties(mp, rho);
    const s = new SphereShape(0.4).massProperties(massProperties(), rho);
    expect(mp.mass).toBeCloseTo(s.mass, 12);
    expect(diag(mp)[0]).toBeCloseTo(diag(s)[0], 12);
    // Against a dense polyhedral approximation (independent method: tetrahedra of the hull).
    const r = 0.3, h = 0.8;
    const pts: number[] = [];
    const N = 64, M = 32;
    for (let j = 0; j <= M; j++) {
      const phi = (j / M) * Math.PI - Math.PI / 2; // latitude of each hemisphere ring
      for (let i = 0; i < N; i++) {
        const th = (i / N) * 2 * Math.PI;
        const x = r * Math.cos(phi) * Math.cos(th), y = r * Math.cos(phi) * Math.sin(th);
        const z = r * Math.sin(phi) + (phi >= 0 ? h / 2 : -h / 2);
        pts.push(x, y, z);
      }
    }
    const hull = hullOf(pts).massProperties(massProperties(), rho);
    new CapsuleShape(r, h).massProperties(mp, rho);
    // The inscribed polyhedron is slightly smaller (−0.6 % in mass at 64×32 segments); dropping
    // the hemispheres' 3hr/8 Steiner term would be off by 20 %.
    for (const ratio of [hull.mass / mp.mass, diag(hull)[0] / diag(mp)[0], diag(hull)[2] / diag(mp)[2]]) {
      expect(ratio).toBeGreaterThan(0.98);
      expect(ratio).toBeLessThan(1 + 1e-9);
    }
  });

  it('hull of a box\'s corners has the box\'s exact mass properties, also when rotated and offset', () => {
    const box = new BoxShape([0.5, 1, 1.5]).massProperties(massProperties(), rho);
    const q = quatFromAxisAngle([0, 0, 0, 1], [0.6, 0, 0.8], 0.9);
    const pts = boxPoints(0.5, 1, 1.5);
    const moved: number[] = [];
    for (let i = 0; i < 8; i++) {
      const p = quatRotate([0, 0, 0], q, [pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]]);
      moved.push(p[0] + 3, p[1] - 2, p[2] + 1);
    }
    hullOf(moved).massProperties(mp, rho);
    expect(mp.mass).toBeCloseTo(box.mass, 10);
    expect(mp.centerOfMass[0]).toBeCloseTo(3, 10);
    expect(mp.centerOfMass[1]).toBeCloseTo(-2, 10);
    const expected = mat3RotateTensor(mat3(), mat3FromQuat(mat3(), q), box.inertia);
    for (let i = 0; i < 9; i++) expect(mp.inertia[i]).toBeCloseTo(expected[i], 9);
  });

  it('hull of a random cloud agrees with Monte Carlo integration (seeded, 200k samples)', () => {
    const rng = new Rng(21);
    const pts: number[] = [];
    for (let i = 0; i < 40; i++) pts.push(rng.range(-1, 1.5), rng.range(-0.5, 0.7), rng.range(-0.8, 0.3));
    const hull = hullOf(pts);
    hull.massProperties(mp, 1);
    const lo = [-1, -0.5, -0.8], hi = [1.5, 0.7, 0.3];
    const boxVol = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    const N = 200000;
    let inside = 0, sx = 0, sy = 0, sz = 0, ixx = 0, iyy = 0, izz = 0, ixy = 0;
    const planes = hull.planes, F = hull.faceCount;
    for (let s = 0; s < N; s++) {
      const x = rng.range(lo[0], hi[0]), y = rng.range(lo[1], hi[1]), z = rng.range(lo[2], hi[2]);
      let ok = true;
      for (let f = 0; f < F && ok; f++) if (planes[4 * f] * x + planes[4 * f + 1] * y + planes[4 * f + 2] * z > planes[4 * f + 3]) ok = false;
      if (!ok) continue;
      inside++;
      sx += x;
      sy += y;
      sz += z;
      ixx += y * y + z * z;
      iyy += x * x + z * z;
      izz += x * x + y * y;
      ixy += x * y;
    }
    const vol = (inside / N) * boxVol;
    expect(mp.volume / vol).toBeCloseTo(1, 1);
    expect(Math.abs(mp.volume - vol) / mp.volume).toBeLessThan(0.02);
    const cx = sx / inside, cy = sy / inside, cz = sz / inside;
    expect(mp.centerOfMass[0]).toBeCloseTo(cx, 2);
    expect(mp.centerOfMass[1]).toBeCloseTo(cy, 2);
    expect(mp.centerOfMass[2]).toBeCloseTo(cz, 2);
    // Inertia about the centre of mass: shift the origin moments (Steiner).
    const m = vol;
    const Ixx = (ixx / inside) * m - m * (cy * cy + cz * cz);
    const Izz = (izz / inside) * m - m * (cx * cx + cy * cy);
    const Ixy = -((ixy / inside) * m - m * cx * cy);
    expect(Math.abs(mp.inertia[0] - Ixx) / mp.inertia[0]).toBeLessThan(0.03);
    expect(Math.abs(mp.inertia[8] - Izz) / mp.inertia[8]).toBeLessThan(0.03);
    expect(Math.abs(mp.inertia[3] - Ixy)).toBeLessThan(0.03 * mp.inertia[0]);
  });
});

describe('mass properties: compound (parallel-axis theorem)', () => {
  it('two unit cubes side by side equal one 2×1×1 box', () => {
    const cube = new BoxShape([0.5, 0.5, 0.5]);
    const c = new CompoundShape([
      { shape: cube, position: [-0.5, 0, 0], orientation: [0, 0, 0, 1] },
      { shape: cube, position: [0.5, 0, 0], orientation: [0, 0, 0, 1] },
    ]);
    c.massProperties(mp, rho);
    const ref = new BoxShape([1, 0.5, 0.5]).massProperties(massProperties(), rho);
    expect(mp.mass).toBeCloseTo(ref.mass, 12);
    for (let i = 0; i < 9; i++) expect(mp.inertia[i]).toBeCloseTo(ref.inertia[i], 12);
    expect(mp.centerOfMass).toEqual([0, 0, 0]);
  });

  it('an off-centre rotated child keeps its own mass properties rotated and moved', () => {
    const box = new BoxShape([0.1, 0.2, 0.3]);
    const q = quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], Math.PI / 2);
    const c = new CompoundShape([{ shape: box, position: [1, 2, 3], orientation: q }]);
    c.massProperties(mp, rho);
    const ref = box.massProperties(massProperties(), rho);
    expect(mp.centerOfMass[0]).toBeCloseTo(1, 12);
    expect(mp.centerOfMass[2]).toBeCloseTo(3, 12);
    // 90° about z swaps the x and y moments.
    expect(mp.inertia[0]).toBeCloseTo(ref.inertia[4], 12);
    expect(mp.inertia[4]).toBeCloseTo(ref.inertia[0], 12);
    expect(mp.inertia[8]).toBeCloseTo(ref.inertia[8], 12);
  });

  it('compound AABB is tight for rotated children', () => {
    const q = quatFromAxisAngle([0, 0, 0, 1], [0, 0, 1], Math.PI / 4);
    const c = new CompoundShape([
      { shape: new BoxShape([1, 1, 1]), position: [0, 0, 0], orientation: q },
      { shape: new SphereShape(0.5), position: [3, 0, 0], orientation: [0, 0, 0, 1] },
    ]);
    const b = c.localAabb({ min: [0, 0, 0], max: [0, 0, 0] });
    expect(b.min[0]).toBeCloseTo(-Math.SQRT2, 12);
    expect(b.max[0]).toBeCloseTo(3.5, 12);
    expect(b.max[1]).toBeCloseTo(Math.SQRT2, 12);
    expect(b.max[2]).toBeCloseTo(1, 12);
  });
});
