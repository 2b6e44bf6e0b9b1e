/**
 * The paper's construction as the manifold view draws it (paper-construction.ts), against closed
 * forms: a wheel lying on its side pressed d into a plane has the side trapezoid of half-width
 * √(d(2r − d)) and length h around its lowest line (case B); a cylinder standing on its base has
 * the base circle (case A), and tilted by θ the ellipse of semi-axes r·cosθ and r, which every
 * projected rim point satisfies; a rim dipping into the plane is case C. Planes horizontal and
 * tilted, the axis given either way round.
 */
import { describe, expect, it } from 'vitest';
import { elementPlane, ellipsePoints, paperConstruction } from '../../../sim/collision/cylinder-terrain/paper-construction';
import { add, cross, dot, norm, type V3 } from './helpers';

const R = 0.3;
const H = 0.2;
const TOL = 1e-9;
const BARREL_H = 0.9;

const PLANES: { name: string; n: V3; p0: V3 }[] = [
  { name: 'horizontal', n: [0, 0, 1], p0: [1, -2, 0.25] },
  { name: 'tilted along x and y', n: norm([-0.2, 0.1, 1]), p0: [0.5, 0.4, 0.05] },
  { name: 'steep 35° diagonal', n: norm([-0.5, -0.5, 1]), p0: [-3, 2, 1.5] },
];

/** A tangent of the plane with normal n. */
const tangentOf = (n: V3): V3 => norm(add([1, 0, 0], n, -n[0]));
const planeOf = (n: V3, p0: V3): { normal: V3; k: number } => ({ normal: n, k: dot(p0, n) });
const close = (a: readonly number[], b: readonly number[]): void => {
  for (let d = 0; d < 3; d++) expect(a[d]).toBeCloseTo(b[d], 9);
};

describe('paper construction', () => {
  it('elementPlane: three vertices of a plane give its upward normal and constant, either winding', () => {
    const n = norm([-0.3, 0.2, 1]), k = 0.7;
    const at = (x: number, y: number): V3 => [x, y, (k - n[0] * x - n[1] * y) / n[2]];
    for (const tri of [[at(0, 0), at(1, 0), at(0, 1)], [at(0, 0), at(0, 1), at(1, 0)]]) {
      const p = elementPlane(tri[0], tri[1], tri[2]);
      close(p.normal, n);
      expect(p.k).toBeCloseTo(k, 12);
    }
    expect(() => elementPlane([0, 0, 0], [1, 1, 1], [2, 2, 2])).toThrow(/collinear/);
  });

  for (const pl of PLANES) {
    const t1 = tangentOf(pl.n);
    const t2 = cross(pl.n, t1);
    const plane = planeOf(pl.n, pl.p0);

    it(`case B on the ${pl.name} plane: a wheel on its side pressed d has the trapezoid √(d(2r − d)) wide, h long`, () => {
      for (const d of [0.001, 0.02, 0.1]) {
        for (const flip of [1, -1]) {
          const center = add(pl.p0, pl.n, R - d);
          const axis = t2.map((x) => flip * x) as V3;
          const pc = paperConstruction({ center, axis, radius: R, height: H }, plane);
          expect(pc.case).toBe('B');
          const hw = Math.sqrt(d * (2 * R - d));
          expect(pc.trapezoid.halfWidthL).toBeCloseTo(hw, 12);
          expect(pc.trapezoid.halfWidthU).toBeCloseTo(hw, 12);
          expect(pc.sAL).toBeCloseTo(d, 12);
          // corners: the wheel's lowest line ± hw across it (along t1), its ends h apart (along the axis)
          const c = pc.trapezoid.corners;
          expect(c).toHaveLength(4);
          for (const q of c) {
            expect(dot(q, pl.n) - plane.k).toBeCloseTo(0, 12); // on the plane
            const rel = add(q, pl.p0, -1);
            expect(Math.abs(dot(rel, t1))).toBeCloseTo(hw, 9);
            expect(Math.abs(dot(rel, t2))).toBeCloseTo(H / 2, 9);
          }
        }
      }
    });

    it(`case A on the ${pl.name} plane: a cylinder standing on its base has the base circle`, () => {
      const d = 0.01;
      const center = add(pl.p0, pl.n, H / 2 - d);
      const pc = paperConstruction({ center, axis: pl.n.map((x) => -x) as V3, radius: R, height: H }, plane);
      expect(pc.case).toBe('A');
      close(pc.ellipse.center, pl.p0);
      expect(pc.ellipse.semiW).toBeCloseTo(R, 12);
      expect(pc.ellipse.semiU).toBeCloseTo(R, 12);
    });

    it(`case A on the ${pl.name} plane, tilted θ: semi-axes r·cosθ and r; every projected rim point lies on the ellipse`, () => {
      for (const theta of [0.05, 0.2, 0.5]) {
        const axis = norm(add(pl.n.map((x) => x * Math.cos(theta)) as V3, t1, Math.sin(theta)));
        // lower base centre just below the plane by more than r·sinθ: the whole lower rim is below
        const dip = R * Math.sin(theta) + 0.005;
        const cl = add(pl.p0, pl.n, -dip);
        // a barrel (h 0.9 m): a short wheel tilted this far would dip its upper rim too (case B)
        const center = add(cl, axis, BARREL_H / 2);
        const pc = paperConstruction({ center, axis, radius: R, height: BARREL_H }, plane);
        expect(pc.case).toBe('A');
        expect(pc.ellipse.semiW).toBeCloseTo(R * Math.cos(theta), 12);
        expect(pc.ellipse.semiU).toBeCloseTo(R, 12);
        // oracle: the lower rim projected along n onto the plane
        const e1 = norm(cross(axis, t2)), e2 = cross(axis, e1);
        for (let k = 0; k < 24; k++) {
          const t = (2 * Math.PI * k) / 24;
          const rim = add(add(cl, e1, R * Math.cos(t)), e2, R * Math.sin(t));
          const foot = add(rim, pl.n, plane.k - dot(rim, pl.n));
          const rel = add(foot, pc.ellipse.center, -1);
          const x = dot(rel, pc.ellipse.axisW) / pc.ellipse.semiW, y = dot(rel, pc.ellipse.axisU) / pc.ellipse.semiU;
          expect(x * x + y * y).toBeCloseTo(1, 9);
          expect(Math.abs(dot(rel, pl.n))).toBeLessThan(TOL);
        }
        // and the drawn points are on the plane
        for (const q of ellipsePoints(pc, 16)) expect(dot(q, pl.n) - plane.k).toBeCloseTo(0, 12);
      }
    });

    it(`case C on the ${pl.name} plane: a tilted rim dipping d`, () => {
      const theta = 0.6, d = 0.004;
      const axis = norm(add(pl.n.map((x) => x * Math.cos(theta)) as V3, t1, Math.sin(theta)));
      // the lowest rim point (C_L + r·w, w = −t1 rotated with the axis) at depth d
      const w = norm(add(axis.map((x) => x * Math.cos(theta)) as V3, pl.n, -1));
      const cl = add(add(pl.p0, pl.n, -d), w, -R);
      const pc = paperConstruction({ center: add(cl, axis, H / 2), axis, radius: R, height: H }, plane);
      expect(pc.case).toBe('C');
      expect(pc.sAL).toBeCloseTo(d, 12);
      close(pc.ALfoot, pl.p0);
    });
  }

  it('a cylinder above the plane is case "none"', () => {
    const pc = paperConstruction({ center: [0, 0, 1], axis: [0, 1, 0], radius: R, height: H }, { normal: [0, 0, 1], k: 0 });
    expect(pc.case).toBe('none');
  });
});
