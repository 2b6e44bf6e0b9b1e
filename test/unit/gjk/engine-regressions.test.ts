/**
 * Regression cases taken from other engines' bug trackers (inputs copied from the reports; the
 * expected answers are ours, checked by the support-function oracle or analytically). Each test
 * is named after the report. FCL prints full box side lengths and row-major 3×4 transforms.
 */
import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import type { Quat } from '../../../sim/math/quat';
import { mat3ToQuat } from '../../../sim/math/mat3';
import { BoxShape } from '../../../sim/shapes/box';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import { SphereShape } from '../../../sim/shapes/sphere';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';
import type { ConvexHullData } from '../../../sim/shapes/convex-hull';
import type { ConvexShape, Pose } from '../../../sim/shapes/shape';
import { EpaResult, EpaStatus, epaPenetration } from '../../../sim/collision/epa';
import { GjkResult, GjkStatus, gjkDistance } from '../../../sim/collision/gjk';
import { dot, finite, minkowskiSupportValue, randomUnit, worldSupport } from './helpers';

const e = new EpaResult();
const g = new GjkResult();

/** Quaternion of a row-major rotation as FCL prints it. */
function quatFromRows(r: number[][]): Quat {
  const m = new Float64Array([r[0][0], r[1][0], r[2][0], r[0][1], r[1][1], r[2][1], r[0][2], r[1][2], r[2][2]]);
  return mat3ToQuat([0, 0, 0, 1], m);
}

function fclBox(sx: number, sy: number, sz: number): BoxShape {
  return new BoxShape([sx / 2, sy / 2, sz / 2]);
}

/** Both orders: a definite status (never Fallback/Degenerate), no NaN, and an oracle-checked answer. */
function expectSound(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): void {
  for (const [x, px, y, py] of [[a, pa, b, pb], [b, pb, a, pa]] as const) {
    epaPenetration(e, x, px, y, py);
    expect(finite(e.normal, e.pointA, e.pointB, [e.depth, e.distance])).toBe(true);
    expect([EpaStatus.Penetrating, EpaStatus.Touching, EpaStatus.Separated]).toContain(e.status);
    if (e.status === EpaStatus.Separated) {
      // separated: the gap along the normal equals the distance
      const sA = worldSupport(x, px, e.normal);
      const sB = worldSupport(y, py, [-e.normal[0], -e.normal[1], -e.normal[2]]);
      expect(dot(sB, e.normal) - dot(sA, e.normal)).toBeCloseTo(e.distance, 7);
      continue;
    }
    // overlapping/touching: depth = h(normal) and no sampled direction separates with less
    expect(Math.abs(minkowskiSupportValue(x, px, y, py, e.normal) - e.depth)).toBeLessThan(1e-6);
    const rng = new Rng(1);
    let minH = Infinity;
    for (let i = 0; i < 2000; i++) minH = Math.min(minH, minkowskiSupportValue(x, px, y, py, randomUnit(rng)));
    expect(e.depth).toBeLessThanOrEqual(minH + 1e-6);
  }
}

describe('regressions from other engines\' trackers', () => {
  it('fcl#508: unit boxes 4 m apart along y have distance exactly 3 (libccd said 3.16)', () => {
    const b = fclBox(1, 1, 1);
    gjkDistance(g, b, { position: [0, 4, 0], orientation: [0, 0, 0, 1] }, b, { position: [0, 0, 0], orientation: [0, 0, 0, 1] });
    expect(g.status).toBe(GjkStatus.Separated);
    expect(g.distance).toBe(3);
  });

  it('fcl#493: rotated boxes where libccd EPA found "the origin outside the polytope"', () => {
    const R = quatFromRows([
      [0.96193976625564348026, 0.15401279915737359216, 0.22572537250328919556],
      [-0.19134171618254486313, 0.96936494951283913579, 0.15401279915737359216],
      [-0.19509032201612822033, -0.19134171618254486313, 0.96193976625564348026],
    ]);
    const b = fclBox(0.5, 0.5, 0.5);
    expectSound(b, { position: [2.0770063995786869349, 0.48468247475641951239, 1.1543291419087275962], orientation: R }, b, { position: [2, 0, 1.25], orientation: R });
  });

  it('fcl#493 follow-up: boxes separated by an epsilon, same failure in libccd', () => {
    const R = quatFromRows([
      [0.94096063217417758029, 0.29296840037289501035, 0.16959541586174811667],
      [-0.23569836841299879326, 0.92661523595848427348, -0.29296840037289506586],
      [-0.2429801799032638987, 0.23569836841299884878, 0.94096063217417758029],
    ]);
    const b = fclBox(0.25, 0.25, 0.25);
    const pa: Pose = { position: [0.073242100093223821977, 0.2316538089896212349, 1.3089245921032497399], orientation: R };
    const pb: Pose = { position: [0, 0, 1.25], orientation: R };
    expectSound(b, pa, b, pb);
    gjkDistance(g, b, pa, b, pb);
    expect(Math.abs(g.distance)).toBeLessThan(1e-6);
  });

  it('fcl#415: thin box against a big box, libccd "new vertex is colinear with an existing edge"', () => {
    expectSound(
      fclBox(0.02, 0.33, 0.02), { position: [0.054, -0.772, 0.405], orientation: [0, 0, 0, 1] },
      fclBox(0.452, 0.27, 0.42), { position: [0.121, -0.62960505750432682603, 0.3], orientation: [0, 0, 0, 1] },
    );
  });

  it('fcl#319: box vs cylinder, libccd EPA "this should not happen" on a touching contact', () => {
    const qBox: Quat = [0, 0, 0.707107, 0.707107];
    const qCyl: Quat = [0, 0, -0.130526, 0.991445];
    const n = (q: Quat): Quat => {
      const l = Math.hypot(...q);
      return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
    };
    expectSound(
      fclBox(0.05, 0.39, 1.47), { position: [0.8, -0.385, 0.735], orientation: n(qBox) },
      new CylinderShape(0.18, 0.18), { position: [0.4, -0.4, 0.93], orientation: n(qCyl) },
    );
  });

  it('dolfinx#3653: point against a 7-point hull converges (their GJK hit the iteration limit)', () => {
    const pts = [
      46.0659, 38.6251, 16.3637, 44.2764, 42.3867, 18.239, 50.0397, 38.4649, 19.9843, 47.1963, 40.4563, 19.1057,
      48.0266, 38.5593, 18.2475, 45.1735, 40.495, 17.3336, 48.0415, 40.4456, 18.1963,
    ];
    const hull = new ConvexHullShape(buildConvexHull(pts).data as ConvexHullData);
    const r = 1e-6;
    gjkDistance(g, hull, { position: [0, 0, 0], orientation: [0, 0, 0, 1] }, new SphereShape(r), { position: [44.2919, 39.7508, 18.8208], orientation: [0, 0, 0, 1] });
    expect([GjkStatus.Separated, GjkStatus.Touching, GjkStatus.Intersecting]).toContain(g.status);
    expect(g.iterations).toBeLessThan(20);
    expect(finite(g.pointA, g.pointB, g.normal, [g.distance])).toBe(true);
    if (g.status === GjkStatus.Separated) {
      // certificate: the query point is beyond A's support plane along the normal by the distance
      const s = worldSupport(hull, { position: [0, 0, 0], orientation: [0, 0, 0, 1] }, g.normal);
      expect(dot([44.2919, 39.7508, 18.8208], g.normal) - dot(s, g.normal) - r).toBeCloseTo(g.distance, 9);
    }
  });

  it('openGJK#3: overlapping flat polygons (as 1 mm slabs) are intersecting, not 0.51 apart', () => {
    const slab = (xy: number[]): ConvexHullShape => {
      const p: number[] = [];
      for (let i = 0; i < xy.length; i += 2) p.push(xy[i], xy[i + 1], 0);
      return new ConvexHullShape(buildConvexHull(p, { flatThickness: 1e-3 }).data as ConvexHullData);
    };
    const a = slab([0.795121, -0.727851, -0.178424, -0.989183, -0.412644, -0.770664, 0.566564, 0.548772]);
    const b = slab([-0.211223, -0.511346, -0.347973, 0.45872, 0.277308, 0.969689]);
    const id: Pose = { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
    gjkDistance(g, a, id, b, id);
    expect(g.status).toBe(GjkStatus.Intersecting);
    expectSound(a, id, b, id);
    epaPenetration(e, a, id, b, id);
    expect(e.depth).toBeCloseTo(1e-3, 9); // the slabs overlap fully in z: 1 mm along ±z
  });
});
