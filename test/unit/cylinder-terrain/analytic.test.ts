/**
 * Analytic cases of the cylinder–terrain algorithm: exact depths and points (1e-9 m) on
 * horizontal and tilted planes at many yaws, for a wheel lying on its side (case B), standing on
 * a base (case A) and tilted on its rim (case C); a wheel against a curb edge; a wheel in a ditch.
 */
import { describe, expect, it } from 'vitest';
import { collideCylinderTerrain } from '../../../sim/collision/cylinder-terrain/plain-api';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { add, cross, cylinderPlane, dist, dot, matchAll, norm, planeField, planeOf, type V3 } from './helpers';

const R = 0.3;
const H = 0.2;
const TOL = 1e-9;

/** Rotates unit vector `v` toward unit `toward` (⟂ v) by angle t. */
function tiltToward(v: V3, toward: V3, t: number): V3 {
  return norm(add(v.map((x) => x * Math.cos(t)) as V3, toward, Math.sin(t)));
}

/** Tangent basis of a plane with unit normal n, rotated by yaw about n. */
function tangent(n: V3, yaw: number): { t1: V3; t2: V3 } {
  const ex = norm(add([1, 0, 0], n, -n[0]));
  const ey = cross(n, ex);
  return {
    t1: norm(add(ex.map((x) => x * Math.cos(yaw)) as V3, ey, Math.sin(yaw))),
    t2: norm(add(ex.map((x) => x * -Math.sin(yaw)) as V3, ey, Math.cos(yaw))),
  };
}

const PLANES = [
  { name: 'horizontal plane (flat-patch path)', gx: 0, gy: 0, c: 0.25, kind: 'flat' },
  { name: 'plane tilted along x and y (triangles)', gx: 0.2, gy: -0.1, c: 0.05, kind: '' },
  { name: 'plane tilted along x only (rectangles)', gx: 0.35, gy: 0, c: -0.1, kind: '' },
  { name: 'steep plane tilted 35° diagonally', gx: 0.5, gy: 0.5, c: 0, kind: '' },
] as const;

const YAWS = [0, 0.3, Math.PI / 4, 1.1, Math.PI / 2, 2.5, 3.9, 5.6];

describe('cylinder on planes: exact depth and points', () => {
  for (const pl of PLANES) {
    const hf = planeField({ cols: 41, rows: 41, dx: 0.1, dy: 0.1, x0: -2, y0: -2, gx: pl.gx, gy: pl.gy, c: pl.c });
    const { n, k } = planeOf(pl.gx, pl.gy, pl.c);
    // A point on the plane near the middle, off the seams.
    const base: V3 = [0.0137, -0.0219, pl.gx * 0.0137 + pl.gy * -0.0219 + pl.c];
    const check = (center: V3, axis: V3, expectKind: string, count: number): void => {
      const exp = cylinderPlane(center, axis, R, H, n, k, [1, 0, pl.gx]);
      expect(exp.kind).toBe(expectKind);
      const { contacts } = collideCylinderTerrain({ center, axis, radius: R, height: H }, hf);
      expect(contacts.length).toBe(count);
      expect(matchAll(contacts, exp.points, TOL)).toBe('');
      for (const c of contacts) {
        expect(c.kind).toBe(pl.kind || expectKind);
        expect(dist(c.normal, n)).toBeLessThan(1e-12);
        // the point lies on the terrain surface
        expect(Math.abs(c.point[2] - hf.heightAt(c.point[0], c.point[1]))).toBeLessThan(TOL);
      }
    };

    it(`${pl.name}: lying wheel (case B), both ends equally deep, many yaws`, () => {
      for (const yaw of YAWS) {
        const { t1 } = tangent(n, yaw);
        const pen = 0.004 + 0.003 * Math.sin(7 * yaw);
        check(add(base, n, R - pen), t1, 'side', 2);
      }
    });

    it(`${pl.name}: lying wheel with 3° camber (case B, one end deeper)`, () => {
      for (const yaw of YAWS) {
        const { t1 } = tangent(n, yaw);
        const axis = tiltToward(t1, n, (3 * Math.PI) / 180);
        check(add(base, n, R - 0.01), axis, 'side', 2);
      }
    });

    it(`${pl.name}: standing wheel, axis along the normal (case A, 4 rim points)`, () => {
      for (const pen of [0.001, 0.02]) check(add(base, n, H / 2 - pen), n, 'base', 4);
    });

    it(`${pl.name}: standing wheel tilted 4° (case A, rim depths differ)`, () => {
      for (const yaw of YAWS) {
        const { t1 } = tangent(n, yaw);
        const axis = tiltToward(n, t1, (4 * Math.PI) / 180);
        // lower base centre 3 cm deep: the rim rises only r·sin 4° ≈ 2.1 cm, so all of it stays below
        check(add(base, axis, H / 2 - 0.03), axis, 'base', 4);
      }
    });

    it(`${pl.name}: wheel tilted 30° on its rim (case C, one point)`, () => {
      for (const yaw of YAWS) {
        const { t1 } = tangent(n, yaw);
        const axis = tiltToward(n, t1, Math.PI / 6);
        // Put the lowest rim point 5 mm below the plane.
        const w = norm(add(axis.map((x) => x * dot(axis, n)) as V3, n, -1));
        const low = add(add([0, 0, 0], axis, -H / 2), w, R); // lowest rim point relative to the centre
        const center = add(add(base, low, -1), n, -0.005);
        check(center, axis, 'point', 1);
      }
    });
  }

  it('flips of the axis give the same contacts (symmetry of the two ends) on a tilted plane', () => {
    const hf = planeField({ cols: 41, rows: 41, dx: 0.1, dy: 0.1, x0: -2, y0: -2, gx: 0.2, gy: -0.1, c: 0 });
    const { n } = planeOf(0.2, -0.1, 0);
    const { t1 } = tangent(n, 0.7);
    const axis = tiltToward(t1, n, 0.05);
    const center = add([0.01, 0.02, 0.2 * 0.01 - 0.1 * 0.02], n, R - 0.01);
    const a = collideCylinderTerrain({ center, axis, radius: R, height: H }, hf).contacts;
    const b = collideCylinderTerrain({ center, axis: axis.map((x) => -x) as V3, radius: R, height: H }, hf).contacts;
    expect(b.length).toBe(a.length);
    expect(matchAll(b, a.map((c) => ({ point: c.point, depth: c.depth })), 1e-12)).toBe('');
  });
});

/** Step of height `rise` between rows `row` and `row + 1` (one steep row of cells), flat elsewhere. */
function curbField(rise: number, row: number): Heightfield {
  const cols = 41, rows = 41;
  const heights: number[] = [];
  for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) heights.push(j > row ? rise : 0);
  return Heightfield.fromArray({ cols, rows, dx: 0.05, dy: 0.05, x0: -1, y0: -1, heights });
}

describe('wheel against a curb', () => {
  // Curb: rows ≤ 20 at z = 0, rows ≥ 21 at z = 0.1; the top edge is the line y = −1 + 21·0.05 = 0.05, z = 0.1.
  const hf = curbField(0.1, 20);
  const edgeY = 0.05, edgeZ = 0.1;

  it('wheel rolling into the curb top edge gets an edge contact with the exact radial depth and normal', () => {
    const pen = 0.003;
    // Axle along x, centre in front of the curb so the circle reaches over the top edge.
    const cy = edgeY - 0.2, cz = 0.3 - 0.002; // resting 2 mm into the ground
    const d = Math.hypot(edgeY - cy, edgeZ - cz);
    const centerZ = cz;
    const scale = (R - pen) / d; // move the axle so that the edge is `pen` inside
    const center: V3 = [0.013, edgeY + (cy - edgeY) * scale, edgeZ + (centerZ - edgeZ) * scale];
    const { contacts } = collideCylinderTerrain({ center, axis: [1, 0, 0], radius: R, height: H }, hf);
    const edge = contacts.filter((c) => c.kind === 'edge');
    expect(edge.length).toBeGreaterThanOrEqual(1);
    expect(edge.length).toBeLessThanOrEqual(2); // a line contact along the curb: its two ends
    const radial = norm([0, center[1] - edgeY, center[2] - edgeZ]);
    for (const c of edge) {
      expect(Math.abs(c.depth - pen)).toBeLessThan(TOL);
      expect(Math.abs(c.point[1] - edgeY)).toBeLessThan(TOL);
      expect(Math.abs(c.point[2] - edgeZ)).toBeLessThan(TOL);
      expect(dist(c.normal, radial)).toBeLessThan(1e-9);
      expect(Math.abs(c.point[0] - center[0])).toBeLessThanOrEqual(H / 2 + TOL);
    }
    // The two ends of the line contact span the wheel's width.
    if (edge.length === 2) expect(Math.abs(edge[0].point[0] - edge[1].point[0])).toBeGreaterThan(H * 0.7);
  });

  it('wheel resting on top, away from the edge, sees only the flat top (no ghost edge contact)', () => {
    const center: V3 = [0.013, 0.4, 0.1 + R - 0.002];
    const { contacts } = collideCylinderTerrain({ center, axis: [1, 0, 0], radius: R, height: H }, hf);
    expect(contacts.length).toBe(2);
    for (const c of contacts) {
      expect(c.normal).toEqual([0, 0, 1]);
      expect(Math.abs(c.depth - 0.002)).toBeLessThan(TOL);
    }
  });

  it('wheel straddling the curb (axis across it): exact top patch, and the curb face measured as the paper does', () => {
    // Axle along y crosses the step; the wheel's bottom line (z = zb) runs over ground, curb face and top.
    const zb = 0.1 - 0.004;
    const center: V3 = [0.013, 0.03, zb + R];
    const { contacts } = collideCylinderTerrain({ center, axis: [0, 1, 0], radius: R, height: H }, hf);
    for (const c of contacts) expect(c.depth).toBeGreaterThan(0);
    // Top (z = 0.1, normal up): the bottom line is 4 mm deep; the patch ends at the wheel's face y = 0.13.
    const top = contacts.filter((c) => c.kind === 'side' && dist(c.normal, [0, 0, 1]) < 1e-12);
    expect(top.length).toBeGreaterThanOrEqual(1);
    for (const c of top) expect(Math.abs(c.depth - 0.004)).toBeLessThan(TOL);
    expect(top.some((c) => Math.abs(c.point[1] - 0.13) < TOL)).toBe(true);
    // Curb face z = 2y (cells of row 20, normal (0, −2, 1)/√5): s along the bottom line is largest
    // where the foot reaches the face's top edge y = 0.05, i.e. y = 0.25 − 2·zb: s = (0.5 − 5·zb)/√5.
    const nFace = norm([0, -2, 1]);
    const face = contacts.filter((c) => dist(c.normal, nFace) < 1e-12);
    expect(face.length).toBeGreaterThanOrEqual(1);
    expect(Math.abs(Math.max(...face.map((c) => c.depth)) - (0.5 - 5 * zb) / Math.sqrt(5))).toBeLessThan(TOL);
    for (const c of face) expect(Math.abs(c.point[1] - edgeY)).toBeLessThan(TOL);
  });
});

describe("wheel over the grid's top or right border: the border edge is an active edge", () => {
  // The terrain ends at x = 1 and y = 1: its border edges are owned by the last row and column of
  // cells (collide.ts), Active, and poke like a curb's top edge. The border line is at z = 0.
  // Ground that varies only across the border gives rectangle cells (each cell planar; not flat,
  // which would take the flat-patch path); bumpy ground gives split cells (the upper triangle
  // bounds the border there).
  const field = (bumpy: boolean, side: 'top' | 'right'): Heightfield => {
    const cols = 21, rows = 21;
    const heights: number[] = [];
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        const across = side === 'top' ? j : i;
        const h = bumpy ? -0.03 * (1 + Math.sin(1.7 * i + 0.9 * j) * Math.cos(1.3 * j)) : -0.02 * (1 + Math.sin(0.8 * across));
        heights.push(i === cols - 1 || j === rows - 1 ? 0 : h);
      }
    }
    return Heightfield.fromArray({ cols, rows, dx: 0.05, dy: 0.05, x0: 0, y0: 0, heights });
  };
  for (const bumpy of [false, true]) {
    for (const side of ['top', 'right'] as const) {
      it(`${side} border, ${bumpy ? 'split' : 'rectangle'} cells: a line contact on the border edge with the radial depth and normal`, () => {
        const hf = field(bumpy, side);
        const pen = 0.004;
        // Axle along the border, beyond it and low enough that the border line is `pen` inside.
        const off = 0.2, cz = Math.sqrt((R - pen) ** 2 - off * off);
        const center: V3 = side === 'top' ? [0.513, 1 + off, cz] : [1 + off, 0.487, cz];
        const axis: V3 = side === 'top' ? [1, 0, 0] : [0, 1, 0];
        const { contacts } = collideCylinderTerrain({ center, axis, radius: R, height: H }, hf);
        const edge = contacts.filter((c) => c.kind === 'edge');
        expect(edge.length).toBeGreaterThanOrEqual(1);
        expect(edge.length).toBeLessThanOrEqual(2);
        const radial = side === 'top' ? norm([0, off, cz]) : norm([off, 0, cz]);
        for (const c of edge) {
          expect(Math.abs(c.depth - pen)).toBeLessThan(TOL);
          expect(Math.abs(c.point[side === 'top' ? 1 : 0] - 1)).toBeLessThan(TOL);
          expect(Math.abs(c.point[2])).toBeLessThan(TOL);
          expect(dist(c.normal, radial)).toBeLessThan(1e-9);
          expect(c.cell[side === 'top' ? 1 : 0]).toBe(19);
        }
      });
    }
  }
});

describe('barrel standing on a base across a curb edge (axis exactly vertical)', () => {
  it('the top patch: exact depth, ends at the edge (rim–edge crossing), reaches the far rim, nothing past the edge', () => {
    const hf = curbField(0.1, 20); // top edge y = 0.05, z = 0.1
    const pen = 0.004;
    const cx = 0.013, cy = 0.09; // base centre 4 cm behind the edge: a chord of the base overhangs it
    const center: V3 = [cx, cy, 0.1 - pen + H / 2];
    const { contacts } = collideCylinderTerrain({ center, axis: [0, 0, 1], radius: R, height: H }, hf);
    const top = contacts.filter((c) => dist(c.normal, [0, 0, 1]) < 1e-12 && Math.abs(c.point[2] - 0.1) < TOL);
    expect(top.length).toBeGreaterThanOrEqual(3);
    expect(top.length).toBeLessThanOrEqual(4);
    for (const c of top) {
      expect(c.kind).toBe('base');
      expect(Math.abs(c.depth - pen)).toBeLessThan(TOL);
      expect(c.point[1]).toBeGreaterThanOrEqual(0.05 - TOL);
    }
    // The patch ends at the edge: its candidates include the two rim–edge crossings, of which the
    // 4-point reduction (equal depths: deepest, farthest, widest, largest area) keeps at least one.
    const half = Math.sqrt(R * R - (cy - 0.05) ** 2);
    const onChord = top.filter((c) => Math.abs(c.point[1] - 0.05) < TOL);
    expect(onChord.length).toBeGreaterThanOrEqual(1);
    for (const c of onChord) expect(Math.min(Math.abs(c.point[0] - (cx - half)), Math.abs(c.point[0] - (cx + half)))).toBeLessThan(TOL);
    // ... and reaches the far rim point (0.013, 0.39).
    expect(top.some((c) => Math.abs(c.point[1] - (cy + R)) < TOL)).toBe(true);
    expect(Math.max(...contacts.map((c) => c.depth))).toBeLessThan(pen + TOL);
  });
});

describe('wheel in a ditch', () => {
  it('V ditch: two contact patches, one per wall, with the exact depths and wall normals', () => {
    // z = s·|y|, walls with slope s, bottom along the grid row y = 0.
    const s = 0.6;
    const cols = 41, rows = 41;
    const heights: number[] = [];
    for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) heights.push(s * Math.abs(-1 + j * 0.05));
    const hf = Heightfield.fromArray({ cols, rows, dx: 0.05, dy: 0.05, x0: -1, y0: -1, heights });
    const nPlus = norm([0, -s, 1]); // wall y > 0
    const nMinus = norm([0, s, 1]); // wall y < 0
    const center: V3 = [0.013, 0.021, 0.3];
    const { contacts } = collideCylinderTerrain({ center, axis: [1, 0, 0], radius: R, height: H }, hf);
    const plus = contacts.filter((c) => dist(c.normal, nPlus) < 1e-12);
    const minus = contacts.filter((c) => dist(c.normal, nMinus) < 1e-12);
    expect(plus.length).toBe(2);
    expect(minus.length).toBe(2);
    expect(plus.length + minus.length).toBe(contacts.length);
    // depth = r − distance from the axis to the wall plane (both planes pass through the origin line)
    const dPlus = R - dot(center, nPlus);
    const dMinus = R - dot(center, nMinus);
    for (const c of plus) expect(Math.abs(c.depth - dPlus)).toBeLessThan(TOL);
    for (const c of minus) expect(Math.abs(c.depth - dMinus)).toBeLessThan(TOL);
  });
});
