import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import { SphereShape } from '../../../sim/shapes/sphere';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';
import type { ConvexHullData } from '../../../sim/shapes/convex-hull';
import { SupportFace, aabb } from '../../../sim/shapes/shape';
import type { ConvexShape } from '../../../sim/shapes/shape';
import { shapeFromDesc, ShapeDescError } from '../../../sim/shapes/shape-desc';
import { CYLINDER_CAP_SEGMENTS, HULL_HILL_CLIMB_MIN_VERTICES } from '../../../sim/constants';

function unit(rng: Rng): Vec3 {
  const v: Vec3 = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
}

/** Dense surface samples of each analytic shape (brute-force support oracle). */
function samples(shape: ConvexShape): Vec3[] {
  const out: Vec3[] = [];
  const rng = new Rng(3);
  if (shape instanceof CylinderShape) {
    for (let i = 0; i < 4000; i++) {
      const t = (i / 4000) * 2 * Math.PI;
      out.push([shape.radius * Math.cos(t), shape.radius * Math.sin(t), i % 2 ? shape.halfHeight : -shape.halfHeight]);
    }
  } else if (shape instanceof CapsuleShape) {
    for (let i = 0; i < 20000; i++) {
      const u = unit(rng);
      out.push([u[0] * shape.radius, u[1] * shape.radius, u[2] * shape.radius + (u[2] >= 0 ? shape.halfHeight : -shape.halfHeight)]);
    }
  } else if (shape instanceof SphereShape) {
    for (let i = 0; i < 20000; i++) {
      const u = unit(rng);
      out.push([u[0] * shape.radius, u[1] * shape.radius, u[2] * shape.radius]);
    }
  } else if (shape instanceof BoxShape) {
    for (let i = 0; i < 8; i++) out.push([i & 1 ? shape.halfExtents[0] : -shape.halfExtents[0], i & 2 ? shape.halfExtents[1] : -shape.halfExtents[1], i & 4 ? shape.halfExtents[2] : -shape.halfExtents[2]]);
  } else if (shape instanceof ConvexHullShape) {
    for (let i = 0; i < shape.vertexCount; i++) out.push([shape.vertices[3 * i], shape.vertices[3 * i + 1], shape.vertices[3 * i + 2]]);
  }
  return out;
}

const rng0 = new Rng(1);
const cloud: number[] = [];
for (let i = 0; i < 60; i++) cloud.push(rng0.gaussian(), rng0.gaussian(), rng0.gaussian() * 0.5);
const hull = new ConvexHullShape(buildConvexHull(cloud).data as ConvexHullData);
const shapes: [string, ConvexShape][] = [
  ['sphere', new SphereShape(0.7)],
  ['box', new BoxShape([0.3, 0.5, 0.7])],
  ['capsule', new CapsuleShape(0.25, 0.8)],
  ['cylinder', new CylinderShape(0.4, 0.6)],
  ['hull', hull],
];

describe('support functions against brute force over surface samples', () => {
  for (const [name, shape] of shapes) {
    it(`${name}: support(d)·d ≥ max over samples, support point inside the local AABB`, () => {
      const pts = samples(shape);
      const rng = new Rng(17);
      const s: Vec3 = [0, 0, 0];
      const box = shape.localAabb(aabb());
      let worstGap = 0, worstOut = 0;
      for (let i = 0; i < 200; i++) {
        const d = unit(rng);
        shape.support(s, d);
        let best = -Infinity;
        for (const p of pts) best = Math.max(best, p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
        const h = s[0] * d[0] + s[1] * d[1] + s[2] * d[2];
        worstGap = Math.max(worstGap, best - h);
        // sampled surfaces are inscribed: h may exceed best only by the sampling error
        expect(h - best).toBeLessThan(shape instanceof BoxShape || shape instanceof ConvexHullShape ? 1e-12 : 2e-3);
        for (let k = 0; k < 3; k++) worstOut = Math.max(worstOut, box.min[k] - s[k], s[k] - box.max[k]);
      }
      expect(worstGap).toBeLessThan(1e-12);
      expect(worstOut).toBeLessThan(1e-12);
      // zero direction: a finite point, never NaN
      shape.support(s, [0, 0, 0]);
      expect(s.every(Number.isFinite)).toBe(true);
      shape.supportCore(s, [0, 0, 0]);
      expect(s.every(Number.isFinite)).toBe(true);
    });
  }

  it('big hulls (hill climbing over vertex adjacency) give the brute-force maximum, also for coherent direction sequences', () => {
    const rng = new Rng(44);
    const pts: number[] = [];
    for (let i = 0; i < 600; i++) {
      const v = unit(rng);
      pts.push(v[0] * 2, v[1], v[2] * 0.5);
    }
    const big = new ConvexHullShape(buildConvexHull(pts).data as ConvexHullData);
    expect(big.vertexCount).toBeGreaterThan(HULL_HILL_CLIMB_MIN_VERTICES);
    const s: Vec3 = [0, 0, 0];
    let worst = 0;
    let d = unit(rng);
    for (let i = 0; i < 600; i++) {
      // alternate random jumps and small rotations (what GJK asks for)
      if (i % 3 === 0) d = unit(rng);
      else d = [d[0] + 0.05 * rng.gaussian(), d[1] + 0.05 * rng.gaussian(), d[2] + 0.05 * rng.gaussian()];
      big.support(s, d);
      let best = -Infinity;
      for (let k = 0; k < big.vertexCount; k++) best = Math.max(best, big.vertices[3 * k] * d[0] + big.vertices[3 * k + 1] * d[1] + big.vertices[3 * k + 2] * d[2]);
      worst = Math.max(worst, best - (s[0] * d[0] + s[1] * d[1] + s[2] * d[2]));
    }
    expect(worst).toBe(0);
  });

  it('core + radius reproduces the full support for spheres and capsules', () => {
    const rng = new Rng(5);
    const a: Vec3 = [0, 0, 0], b: Vec3 = [0, 0, 0];
    for (const shape of [shapes[0][1], shapes[2][1]]) {
      for (let i = 0; i < 50; i++) {
        const d = unit(rng);
        shape.support(a, d);
        shape.supportCore(b, d);
        for (let k = 0; k < 3; k++) expect(a[k]).toBeCloseTo(b[k] + shape.coreRadius * d[k], 12);
      }
    }
  });
});

describe('supporting faces', () => {
  /** Newell normal of a polygon in a SupportFace. */
  function faceNormal(f: SupportFace): Vec3 {
    const n: Vec3 = [0, 0, 0];
    const p = f.points;
    for (let i = 0; i < f.count; i++) {
      const j = (i + 1) % f.count;
      n[0] += (p[3 * i + 1] - p[3 * j + 1]) * (p[3 * i + 2] + p[3 * j + 2]);
      n[1] += (p[3 * i + 2] - p[3 * j + 2]) * (p[3 * i] + p[3 * j]);
      n[2] += (p[3 * i] - p[3 * j]) * (p[3 * i + 1] + p[3 * j + 1]);
    }
    const l = Math.hypot(...n);
    return [n[0] / l, n[1] / l, n[2] / l];
  }

  it('box and hull faces are CCW from outside, planar, on the support plane of their normal', () => {
    const rng = new Rng(6);
    const f = new SupportFace();
    const s: Vec3 = [0, 0, 0];
    for (const shape of [shapes[1][1], hull]) {
      for (let i = 0; i < 100; i++) {
        const d = unit(rng);
        shape.supportingFace(f, d);
        expect(f.count).toBeGreaterThanOrEqual(3);
        const n = faceNormal(f);
        expect(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]).toBeGreaterThan(0);
        shape.support(s, n);
        const h = s[0] * n[0] + s[1] * n[1] + s[2] * n[2];
        for (let k = 0; k < f.count; k++) {
          expect(f.points[3 * k] * n[0] + f.points[3 * k + 1] * n[1] + f.points[3 * k + 2] * n[2]).toBeCloseTo(h, 9);
        }
      }
    }
  });

  it('box picks the face of the dominant axis', () => {
    const f = new SupportFace();
    new BoxShape([1, 2, 3]).supportingFace(f, [0.1, -0.9, 0.2]);
    expect(f.count).toBe(4);
    for (let k = 0; k < 4; k++) expect(f.points[3 * k + 1]).toBe(-2);
  });

  it('cylinder: cap polygon (CCW from outside, one vertex on the radial direction) or side line', () => {
    const cyl = new CylinderShape(0.5, 1);
    const f = new SupportFace();
    cyl.supportingFace(f, [0.3, 0.1, -1]);
    expect(f.count).toBe(CYLINDER_CAP_SEGMENTS);
    const n = faceNormal(f);
    expect(n[2]).toBeCloseTo(-1, 12);
    const r = Math.hypot(0.3, 0.1);
    expect(f.points[0]).toBeCloseTo((0.5 * 0.3) / r, 12);
    for (let k = 0; k < f.count; k++) expect(f.points[3 * k + 2]).toBe(-0.5);
    cyl.supportingFace(f, [1, 1, 0.2]);
    expect(f.count).toBe(2);
    expect(f.points[0]).toBeCloseTo(0.5 * Math.SQRT1_2, 12);
    expect(f.points[2]).toBe(-0.5);
    expect(f.points[5]).toBe(0.5);
  });

  it('capsule: side segment for perpendicular directions, single point otherwise; sphere: one point', () => {
    const cap = new CapsuleShape(0.2, 1);
    const f = new SupportFace();
    cap.supportingFace(f, [0, 2, 0]);
    expect(f.count).toBe(2);
    expect(f.points[1]).toBeCloseTo(0.2, 12);
    cap.supportingFace(f, [0, 1, 0.5]);
    expect(f.count).toBe(1);
    new SphereShape(1).supportingFace(f, [0, 0, 3]);
    expect(f.count).toBe(1);
    expect(f.points[2]).toBe(1);
  });
});

describe('plain shape descriptions', () => {
  it('build each engine shape and report bad input as ShapeDescError', () => {
    expect(shapeFromDesc({ type: 'sphere', radius: 1 })).toBeInstanceOf(SphereShape);
    expect(shapeFromDesc({ type: 'box', halfExtents: [1, 2, 3] })).toBeInstanceOf(BoxShape);
    expect(shapeFromDesc({ type: 'capsule', radius: 0.1, height: 1 })).toBeInstanceOf(CapsuleShape);
    expect(shapeFromDesc({ type: 'cylinder', radius: 0.1, height: 1 })).toBeInstanceOf(CylinderShape);
    const h = shapeFromDesc({ type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] });
    expect(h).toBeInstanceOf(ConvexHullShape);
    expect(h.volume()).toBeCloseTo(1 / 6, 12);
    expect(() => shapeFromDesc({ type: 'sphere', radius: -1 })).toThrow(ShapeDescError);
    expect(() => shapeFromDesc({ type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0]] })).toThrow(/coplanar|too-few/);
  });
});
