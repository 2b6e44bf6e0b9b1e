import { describe, expect, it } from 'vitest';
import { queryConvex, isFiniteResult } from '../../../sim/collision/query-convex';
import type { ConvexBodyDesc, ConvexQueryResult } from '../../../sim/collision/query-convex';
import { quatFromAxisAngle, quatNormalize, quatRotateInverse } from '../../../sim/math/quat';
import type { Quat } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import type { ShapeDesc } from '../../../sim/shapes/shape-desc';

const I: [number, number, number, number] = [0, 0, 0, 1];
const body = (shape: ShapeDesc, position: Vec3, orientation: Quat = I): ConvexBodyDesc => ({ shape, position, orientation });
const q = (axis: Vec3, angle: number): Quat => {
  const n = Math.hypot(...axis);
  return quatFromAxisAngle([0, 0, 0, 1], [axis[0] / n, axis[1] / n, axis[2] / n], angle);
};
const cube = (h: number): ShapeDesc => ({ type: 'box', halfExtents: [h, h, h] });
const boxPoints = (h: Vec3): [number, number, number][] => {
  const pts: [number, number, number][] = [];
  for (let i = 0; i < 8; i++) pts.push([i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]]);
  return pts;
};

function expectVec(v: Readonly<Vec3>, e: Readonly<Vec3>, digits = 12): void {
  for (let k = 0; k < 3; k++) expect(v[k]).toBeCloseTo(e[k], digits);
}

/** Invariants every answer must satisfy. */
function checkInvariants(r: ConvexQueryResult): void {
  expect(isFiniteResult(r)).toBe(true);
  expect(Math.hypot(...r.normal)).toBeCloseTo(1, 12);
  expect(r.intersecting).toBe(r.distance <= 0);
  if (!r.intersecting) expect(r.contacts).toEqual([]);
  for (const c of r.contacts) {
    expect(c.depth).toBeGreaterThanOrEqual(0);
    expect(c.normal[0] * r.normal[0] + c.normal[1] * r.normal[1] + c.normal[2] * r.normal[2]).toBeGreaterThan(0.5);
  }
}

describe('queryConvex: analytic cases', () => {
  it('sphere–sphere apart: distance, normal a→b, surface points', () => {
    const r = queryConvex(body({ type: 'sphere', radius: 1 }, [0, 0, 0]), body({ type: 'sphere', radius: 0.5 }, [3, 0, 0]));
    checkInvariants(r);
    expect(r.intersecting).toBe(false);
    expect(r.distance).toBeCloseTo(1.5, 14);
    expectVec(r.normal, [1, 0, 0]);
    expectVec(r.pointA, [1, 0, 0]);
    expectVec(r.pointB, [2.5, 0, 0]);
  });

  it('sphere–sphere overlapping: distance = −depth, one contact on b’s surface with normal a→b', () => {
    const r = queryConvex(body({ type: 'sphere', radius: 1 }, [0, 0, 0]), body({ type: 'sphere', radius: 0.5 }, [0, 1.2, 0]));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(-0.3, 14);
    expectVec(r.normal, [0, 1, 0]);
    expectVec(r.pointA, [0, 1, 0]);
    expectVec(r.pointB, [0, 0.7, 0]);
    expect(r.contacts).toHaveLength(1);
    expectVec(r.contacts[0].point, [0, 0.7, 0]); // on b's surface
    expectVec(r.contacts[0].normal, [0, 1, 0]);
    expect(r.contacts[0].depth).toBeCloseTo(0.3, 14);
  });

  it('sphere–box: face, edge and vertex regions', () => {
    const box = body(cube(0.5), [0, 0, 0]);
    const face = queryConvex(body({ type: 'sphere', radius: 0.25 }, [0.1, 0.2, 0.7]), box);
    expect(face.distance).toBeCloseTo(-0.05, 14);
    expectVec(face.normal, [0, 0, -1]); // from the sphere (a) to the box (b)
    expectVec(face.pointB, [0.1, 0.2, 0.5]);
    const edge = queryConvex(body({ type: 'sphere', radius: 0.25 }, [0.7, 0, 0.7]), box);
    expect(edge.distance).toBeCloseTo(0.2 * Math.SQRT2 - 0.25, 14);
    expectVec(edge.normal, [-Math.SQRT1_2, 0, -Math.SQRT1_2]);
    expectVec(edge.pointB, [0.5, 0, 0.5]);
    const vertex = queryConvex(box, body({ type: 'sphere', radius: 0.5 }, [0.8, 0.8, 0.8]));
    const d = 0.3 * Math.sqrt(3);
    expect(vertex.distance).toBeCloseTo(d - 0.5, 14);
    expectVec(vertex.pointA, [0.5, 0.5, 0.5]);
    checkInvariants(face);
    checkInvariants(edge);
    checkInvariants(vertex);
  });

  it('box–box face: depth 0.1, normal +z, 4 contacts on b’s bottom face', () => {
    const r = queryConvex(body(cube(0.5), [0, 0, 0]), body(cube(0.5), [0.2, 0.1, 0.9]));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(-0.1, 14);
    expectVec(r.normal, [0, 0, 1]);
    expect(r.contacts).toHaveLength(4);
    for (const c of r.contacts) {
      expect(c.point[2]).toBeCloseTo(0.4, 14);
      expect(c.depth).toBeCloseTo(0.1, 14);
    }
    expect(r.pointB[2] - r.pointA[2]).toBeCloseTo(r.distance, 14);
  });

  it('box–box edge–edge: crossed ridges, depth 0.1 along +z, one contact', () => {
    const zB = Math.SQRT2 - 0.1;
    const r = queryConvex(body(cube(0.5), [0, 0, 0], q([1, 0, 0], Math.PI / 4)), body(cube(0.5), [0, 0, zB], q([0, 1, 0], Math.PI / 4)));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(-0.1, 12);
    expectVec(r.normal, [0, 0, 1]);
    expect(r.contacts).toHaveLength(1);
    expectVec(r.contacts[0].point, [0, 0, zB - Math.SQRT1_2]);
  });

  it('box–box vertex–face: a cube on its corner, depth 0.05', () => {
    const zB = 0.5 + Math.sqrt(3) / 2 - 0.05;
    const r = queryConvex(body(cube(0.5), [0, 0, 0]), body(cube(0.5), [0, 0, zB], q([1, -1, 0], Math.acos(1 / Math.sqrt(3)))));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(-0.05, 12);
    expect(r.contacts).toHaveLength(1);
    expectVec(r.contacts[0].point, [0, 0, 0.45]);
  });

  it('box–box apart: exact distance from GJK (edge–edge gap), not the SAT lower bound', () => {
    const r = queryConvex(body(cube(0.5), [0, 0, 0]), body(cube(0.5), [1.5, 1.5, 0]));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(0.5 * Math.SQRT2, 9); // edge to edge, SAT would say 0.5
    expectVec(r.normal, [Math.SQRT1_2, Math.SQRT1_2, 0], 9);
  });

  it('capsule–capsule crossed and parallel', () => {
    const crossed = queryConvex(
      body({ type: 'capsule', radius: 0.2, height: 2 }, [0, 0, 0.3], q([0, 1, 0], Math.PI / 2)),
      body({ type: 'capsule', radius: 0.2, height: 2 }, [0, 0, 0], q([1, 0, 0], Math.PI / 2)),
    );
    checkInvariants(crossed);
    expect(crossed.distance).toBeCloseTo(-0.1, 14);
    expectVec(crossed.normal, [0, 0, -1]);
    const parallel = queryConvex(
      body({ type: 'capsule', radius: 0.2, height: 2 }, [0.5, 0, 0.35], q([0, 1, 0], Math.PI / 2)),
      body({ type: 'capsule', radius: 0.2, height: 2 }, [0, 0, 0], q([0, 1, 0], Math.PI / 2)),
    );
    expect(parallel.distance).toBeCloseTo(-0.05, 14);
    expect(parallel.contacts).toHaveLength(2);
  });

  it('cylinder standing on a box: depth, normal and the contact points on the box top', () => {
    const r = queryConvex(body({ type: 'cylinder', radius: 0.3, height: 1 }, [0, 0, 0.98]), body({ type: 'box', halfExtents: [2, 2, 0.5] }, [0, 0, 0]));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(-0.02, 9);
    expectVec(r.normal, [0, 0, -1], 9);
    expect(r.contacts).toHaveLength(4);
    for (const c of r.contacts) expect(c.point[2]).toBeCloseTo(0.5, 9);
  });

  it('hull built from a box’s corners answers like the box', () => {
    const rng = new Rng(11);
    for (let k = 0; k < 30; k++) {
      const qb = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]) as [number, number, number, number];
      const pb: Vec3 = [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)];
      const h: Vec3 = [0.5, 0.3, 0.4];
      const asBox = queryConvex(body(cube(0.4), [0, 0, 0]), body({ type: 'box', halfExtents: h }, pb, qb));
      const asHull = queryConvex(body(cube(0.4), [0, 0, 0]), body({ type: 'hull', points: boxPoints(h) }, pb, qb));
      checkInvariants(asHull);
      expect(asHull.distance).toBeCloseTo(asBox.distance, 6);
      expect(asHull.intersecting).toBe(asBox.intersecting);
    }
  });
});

describe('queryConvex: degenerate cases (named regressions)', () => {
  it('vertex exactly on an edge: touching, distance 0, finite', () => {
    const r = queryConvex(body(cube(0.5), [0, 0, 0]), body(cube(0.5), [1, 1, 0], q([0, 0, 1], Math.PI / 4)));
    // b's vertex at (1 − √2/2, 1 − √2/2, ±0.5)… rotated square corner sits outside: just check sanity
    checkInvariants(r);
  });

  it('coplanar faces exactly touching: distance 0, intersecting, 4 contacts of depth 0', () => {
    const r = queryConvex(body(cube(0.5), [0, 0, 0]), body(cube(0.5), [0, 0, 1]));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(0, 14);
    expect(r.intersecting).toBe(true);
    expect(r.contacts).toHaveLength(4);
  });

  it('tiny (0.1 mm) and huge (10 km) scales keep relative accuracy', () => {
    for (const s of [1e-4, 1e4]) {
      const r = queryConvex(body(cube(0.5 * s), [0, 0, 0]), body({ type: 'sphere', radius: 0.5 * s }, [0, 0, 0.9 * s]));
      checkInvariants(r);
      expect(r.distance / s).toBeCloseTo(-0.1, 9);
      const h = queryConvex(body({ type: 'hull', points: boxPoints([0.5 * s, 0.5 * s, 0.5 * s]) }, [0, 0, 0]), body(cube(0.5 * s), [0.1 * s, 0, 0.95 * s], q([0, 0, 1], 0.3)));
      checkInvariants(h);
      expect(h.distance / s).toBeCloseTo(-0.05, 6);
    }
  });

  it('nearly parallel edges (1e-7 rad): finite, and the same answer as exactly parallel', () => {
    // Two ridges along x, one above the other, overlapping 0.1 in z: the minimum translation is
    // along a face normal (0, 1, 1)/√2 with depth 0.1/√2 (the cross product of the near-parallel
    // edges is round-off and must be skipped, not normalised into a bogus axis).
    const r = queryConvex(
      body(cube(0.5), [0, 0, 0], q([1, 0, 0], Math.PI / 4)),
      body(cube(0.5), [0, 0, Math.SQRT2 - 0.1], q([1, 0, 0], Math.PI / 4 + 1e-7)),
    );
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(-0.1 * Math.SQRT1_2, 6);
  });

  it('concentric identical shapes: finite answer with full depth', () => {
    const r = queryConvex(body(cube(0.5), [1, 2, 3]), body(cube(0.5), [1, 2, 3]));
    checkInvariants(r);
    expect(r.distance).toBeCloseTo(-1, 12);
    const s = queryConvex(body({ type: 'sphere', radius: 1 }, [0, 0, 0]), body({ type: 'sphere', radius: 1 }, [0, 0, 0]));
    checkInvariants(s);
    expect(s.distance).toBeCloseTo(-2, 14);
  });

  it('invalid input throws with a message naming the field', () => {
    expect(() => queryConvex(body(cube(1), [NaN, 0, 0]), body(cube(1), [0, 0, 0]))).toThrow(/a\.position/);
    expect(() => queryConvex(body(cube(1), [0, 0, 0], [0, 0, 0, 0]), body(cube(1), [0, 0, 0]))).toThrow(/zero quaternion/);
    expect(() => queryConvex(body({ type: 'sphere', radius: -1 }, [0, 0, 0]), body(cube(1), [0, 0, 0]))).toThrow();
  });
});

describe('queryConvex: symmetry', () => {
  it('(a, b) and (b, a) agree: same distance, opposite normals, swapped points (seeded, all pairs)', () => {
    const rng = new Rng(77);
    const shapes: ShapeDesc[] = [
      { type: 'sphere', radius: 0.4 },
      { type: 'box', halfExtents: [0.5, 0.3, 0.2] },
      { type: 'capsule', radius: 0.25, height: 0.6 },
      { type: 'cylinder', radius: 0.35, height: 0.5 },
      { type: 'hull', points: [[0.4, 0, 0], [-0.3, 0.3, 0.1], [-0.2, -0.3, 0.2], [0, 0, 0.5], [0.1, 0.1, -0.4], [-0.1, 0, -0.2]] },
    ];
    for (let k = 0; k < 250; k++) {
      const sa = shapes[k % 5], sb = shapes[Math.floor(k / 5) % 5];
      const qa = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]) as [number, number, number, number];
      const qb = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]) as [number, number, number, number];
      const a = body(sa, [rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)], qa);
      const b = body(sb, [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)], qb);
      const ab = queryConvex(a, b);
      const ba = queryConvex(b, a);
      checkInvariants(ab);
      checkInvariants(ba);
      // curved supports (cylinder, capsule/sphere vs hull through EPA) converge to ~1e-4 m here
      const curvedEpa = ab.distance < 0 && (sa.type === 'cylinder' || sb.type === 'cylinder');
      const tol = curvedEpa ? 2e-3 : 1e-6;
      expect(Math.abs(ab.distance - ba.distance)).toBeLessThanOrEqual(tol);
      if (!curvedEpa && Math.abs(ab.distance) > 1e-6) {
        const d = ab.normal[0] * ba.normal[0] + ab.normal[1] * ba.normal[1] + ab.normal[2] * ba.normal[2];
        expect(d).toBeLessThan(-0.999);
      }
    }
  });

  it('pointA lies on a and pointB on b for boxes (surface check in local frame)', () => {
    const rng = new Rng(3);
    for (let k = 0; k < 100; k++) {
      const qa = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]) as [number, number, number, number];
      const qb = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]) as [number, number, number, number];
      const pb: Vec3 = [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)];
      const r = queryConvex(body(cube(0.5), [0, 0, 0], qa), body(cube(0.4), pb, qb));
      const la = quatRotateInverse([0, 0, 0], qa, r.pointA);
      expect(Math.max(...la.map(Math.abs)) / 0.5).toBeCloseTo(1, 6);
      const lb = quatRotateInverse([0, 0, 0], qb, [r.pointB[0] - pb[0], r.pointB[1] - pb[1], r.pointB[2] - pb[2]]);
      expect(Math.max(...lb.map(Math.abs)) / 0.4).toBeCloseTo(1, 6);
      for (let i = 0; i < 3; i++) expect(r.pointB[i] - r.pointA[i]).toBeCloseTo(r.distance * r.normal[i], 6);
    }
  });
});
