import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { quatFromAxisAngle } from '../../../sim/math/quat';
import { SphereShape } from '../../../sim/shapes/sphere';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import type { ConvexShape, Pose } from '../../../sim/shapes/shape';
import { EpaMethod, EpaResult, EpaStatus, EpaWorkspace, epaPenetration } from '../../../sim/collision/epa';
import { GjkResult, GjkStatus, gjkDistance } from '../../../sim/collision/gjk';
import { finite, minkowskiSupportValue, pose, randomQuat, randomUnit } from './helpers';
import { makeRandomHull } from './hull-fixtures';

const e = new EpaResult();
const g = new GjkResult();

/**
 * Oracle: the penetration depth is min over unit u of h_{A−B}(u) (how far B must move along u to
 * separate). EPA's depth must equal h along its own normal, must not exceed h along any sampled
 * direction (beyond tolerance), and moving B by depth·normal must leave the shapes touching.
 */
function expectMinimalDepth(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, res: EpaResult, tol: number, samples = 300): void {
  expect(finite(res.normal, res.pointA, res.pointB, [res.depth])).toBe(true);
  expect(res.depth).toBeGreaterThanOrEqual(0);
  const hn = minkowskiSupportValue(a, pa, b, pb, res.normal);
  expect(Math.abs(hn - res.depth)).toBeLessThan(tol);
  const rng = new Rng(4242);
  let minH = Infinity;
  for (let i = 0; i < samples; i++) minH = Math.min(minH, minkowskiSupportValue(a, pa, b, pb, randomUnit(rng)));
  expect(res.depth).toBeLessThanOrEqual(minH + tol);
  for (let k = 0; k < 3; k++) expect(res.pointA[k] - res.pointB[k]).toBeCloseTo(res.depth * res.normal[k], 5);
  const moved: Pose = {
    position: [pb.position[0] + res.normal[0] * res.depth, pb.position[1] + res.normal[1] * res.depth, pb.position[2] + res.normal[2] * res.depth],
    orientation: pb.orientation,
  };
  gjkDistance(g, a, pa, b, moved);
  expect(Math.abs(g.distance)).toBeLessThan(tol);
}

describe('EPA: analytic penetration cases', () => {
  it('sphere–sphere shallow: depth r1 + r2 − d from the cores, no EPA', () => {
    const s = new SphereShape(1);
    epaPenetration(e, s, pose(), s, pose(1.2, 0, 0));
    expect(e.status).toBe(EpaStatus.Penetrating);
    expect(e.method).toBe(EpaMethod.Core);
    expect(e.depth).toBeCloseTo(0.8, 12);
    expect(e.normal[0]).toBeCloseTo(1, 12);
  });

  it('sphere–box: sphere centre inside the box, nearest face +z', () => {
    const box = new BoxShape([1, 1, 0.5]);
    const s = new SphereShape(0.25);
    epaPenetration(e, box, pose(), s, pose(0.1, -0.2, 0.4));
    expect(e.status).toBe(EpaStatus.Penetrating);
    expect(e.method).toBe(EpaMethod.Epa);
    expect(e.depth).toBeCloseTo(0.5 - 0.4 + 0.25, 6);
    expect(e.normal[2]).toBeCloseTo(1, 6);
    expectMinimalDepth(box, pose(), s, pose(0.1, -0.2, 0.4), e, 1e-6);
  });

  it('box–box face overlap: depth along x, normal from A to B', () => {
    const box = new BoxShape([1, 1, 1]);
    epaPenetration(e, box, pose(), box, pose(1.7, 0.3, -0.1));
    expect(e.status).toBe(EpaStatus.Penetrating);
    expect(e.depth).toBeCloseTo(0.3, 9);
    expect(e.normal[0]).toBeCloseTo(1, 9);
    epaPenetration(e, box, pose(1.7, 0.3, -0.1), box, pose());
    expect(e.depth).toBeCloseTo(0.3, 9);
    expect(e.normal[0]).toBeCloseTo(-1, 9);
  });

  it('box–box edge–edge: 45°-rolled box pressed onto a 45°-yawed edge', () => {
    const box = new BoxShape([0.5, 0.5, 0.5]);
    const qa = quatFromAxisAngle([0, 0, 0, 1], [1, 0, 0], Math.PI / 4); // edge along x on top
    const qb = quatFromAxisAngle([0, 0, 0, 1], [0, 1, 0], Math.PI / 4); // edge along y at bottom
    const h = 0.5 * Math.SQRT2;
    const pa = pose(0, 0, 0, qa), pb = pose(0, 0, 2 * h - 0.05, qb);
    epaPenetration(e, box, pa, box, pb);
    expect(e.status).toBe(EpaStatus.Penetrating);
    expect(e.depth).toBeCloseTo(0.05, 8);
    expect(e.normal[2]).toBeCloseTo(1, 8);
    expectMinimalDepth(box, pa, box, pb, e, 1e-7);
  });
});

describe('EPA: degenerate configurations (named regressions)', () => {
  const box = new BoxShape([1, 1, 1]);
  it('identical boxes at the same pose (origin on a segment of the first simplex): depth 2', () => {
    epaPenetration(e, box, pose(), box, pose());
    expect(e.status).toBe(EpaStatus.Penetrating);
    expect(e.depth).toBeCloseTo(2, 9);
    expectMinimalDepth(box, pose(), box, pose(), e, 1e-7);
  });

  it('concentric spheres: any normal, depth r1 + r2, no NaN', () => {
    const s = new SphereShape(0.3);
    epaPenetration(e, s, pose(1, 1, 1), s, pose(1, 1, 1));
    expect([EpaStatus.Penetrating, EpaStatus.Fallback]).toContain(e.status);
    expect(e.depth).toBeCloseTo(0.6, 4);
    expect(Math.hypot(...e.normal)).toBeCloseTo(1, 9);
  });

  it('touching but not overlapping polytopes: Touching with depth ≈ 0 and the face normal', () => {
    epaPenetration(e, box, pose(), box, pose(2, 0.3, -0.2));
    expect(e.status).toBe(EpaStatus.Touching);
    expect(e.depth).toBeLessThan(1e-9);
    expect(e.normal[0]).toBeCloseTo(1, 9);
  });

  it('separated shapes: status Separated with the GJK distance', () => {
    epaPenetration(e, box, pose(), box, pose(2.5, 0, 0));
    expect(e.status).toBe(EpaStatus.Separated);
    expect(e.distance).toBeCloseTo(0.5, 12);
    expect(e.depth).toBe(0);
  });

  it('tiny (1e-3 m) and huge (1e3 m) boxes: relative depth accuracy', () => {
    for (const s of [1e-3, 1e3]) {
      const b = new BoxShape([s, s, s]);
      epaPenetration(e, b, pose(), b, pose(1.9 * s, 0.2 * s, 0.1 * s));
      expect(e.status).toBe(EpaStatus.Penetrating);
      expect(e.depth / s).toBeCloseTo(0.1, 7);
    }
  });

  it('NaN orientation: Degenerate, finite output', () => {
    epaPenetration(e, box, pose(), box, { position: [0, 0, 0], orientation: [NaN, 0, 0, 1] });
    expect(e.status).toBe(EpaStatus.Degenerate);
    expect(finite(e.normal, e.pointA, e.pointB, [e.depth])).toBe(true);
  });
});

describe('EPA: random overlapping pairs (seeded) against the support-function oracle', () => {
  const shapes: ConvexShape[] = [
    new BoxShape([0.3, 0.5, 0.2]),
    makeRandomHull(new Rng(5), 32, 0.5),
    new CylinderShape(0.3, 0.5),
    new CapsuleShape(0.2, 0.6),
    new SphereShape(0.4),
  ];
  it('depth is minimal within tolerance, (A,B) and (B,A) agree, status always set', () => {
    const rng = new Rng(2024);
    const e2 = new EpaResult();
    let penetrating = 0;
    for (let iter = 0; iter < 150; iter++) {
      const a = shapes[rng.int(0, shapes.length - 1)], b = shapes[rng.int(0, shapes.length - 1)];
      const pa = pose(0, 0, 0, randomQuat(rng));
      const u = randomUnit(rng);
      const d = rng.range(0, 0.5);
      const pb = pose(u[0] * d, u[1] * d, u[2] * d, randomQuat(rng));
      epaPenetration(e, a, pa, b, pb);
      epaPenetration(e2, b, pb, a, pa);
      expect(finite(e.normal, e.pointA, e.pointB, [e.depth, e.distance])).toBe(true);
      if (e.status !== EpaStatus.Penetrating) continue;
      penetrating++;
      // Curved shapes converge to EPA_RELATIVE_TOLERANCE; allow 1e-4 m absolute.
      expectMinimalDepth(a, pa, b, pb, e, 1e-4, 100);

      expect(e2.depth).toBeCloseTo(e.depth, 3);
    }
    expect(penetrating).toBeGreaterThan(120);
  });
});

export { GjkStatus };

describe('EPA: the workspace the caller passes', () => {
  it('holds the query\'s polytope, and gives the same answer as the shared one, bit for bit', () => {
    const box = new BoxShape([1, 0.7, 0.5]);
    const hull = makeRandomHull(new Rng(77), 24, 0.6);
    const ws = new EpaWorkspace();
    const mine = new EpaResult();
    const rng = new Rng(909);
    for (let i = 0; i < 20; i++) {
      const pb = pose(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3), rng.range(-0.3, 0.3), randomQuat(rng));
      epaPenetration(e, box, pose(), hull, pb);
      ws.nVerts = 0;
      epaPenetration(mine, box, pose(), hull, pb, ws);
      expect(mine.status).toBe(e.status);
      expect(mine.method).toBe(EpaMethod.Epa);
      expect(ws.nVerts).toBeGreaterThanOrEqual(4); // the polytope was built in the caller's workspace
      expect([mine.depth, ...mine.normal, ...mine.pointA, ...mine.pointB]).toEqual([e.depth, ...e.normal, ...e.pointA, ...e.pointB]);
    }
  });
});
