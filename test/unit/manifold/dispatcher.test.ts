import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { CollideStatus, collideShapeHeightfield, collideShapes } from '../../../sim/collision/dispatcher';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { CYLINDER_CAP_SEGMENTS, SAT_FACE_PREFERENCE_ABSOLUTE } from '../../../sim/constants';
import { PairContactKind } from '../../../sim/collision/manifold/feature-id';
import type { Quat } from '../../../sim/math/quat';
import { quatFromAxisAngle, quatNormalize } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import { BoxShape } from '../../../sim/shapes/box';
import { CapsuleShape } from '../../../sim/shapes/capsule';
import { CompoundShape } from '../../../sim/shapes/compound';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import type { ConvexShape, Pose } from '../../../sim/shapes/shape';
import { SphereShape } from '../../../sim/shapes/sphere';

/** A box as a hull (hand-built, CCW faces seen from outside), to cross-check the GJK/EPA path against SAT. */
export function boxHull(h: Vec3): ConvexHullShape {
  const v = new Float64Array(24);
  for (let i = 0; i < 8; i++) {
    v[3 * i] = i & 1 ? h[0] : -h[0];
    v[3 * i + 1] = i & 2 ? h[1] : -h[1];
    v[3 * i + 2] = i & 4 ? h[2] : -h[2];
  }
  const faces = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
  const planes = new Float64Array(24);
  const normals = [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]];
  for (let f = 0; f < 6; f++) {
    const n = normals[f];
    planes.set([n[0], n[1], n[2], Math.abs(n[0]) * h[0] + Math.abs(n[1]) * h[1] + Math.abs(n[2]) * h[2]], 4 * f);
  }
  return new ConvexHullShape({
    vertices: v,
    faceStart: new Int32Array([0, 4, 8, 12, 16, 20, 24]),
    faceVertices: new Int32Array(faces.flat()),
    planes,
  });
}

const I: Quat = [0, 0, 0, 1];
const pose = (p: Vec3, q: Quat = I): Pose => ({ position: p, orientation: q });
const buf = new ContactBuffer(64);

function maxDepth(b: ContactBuffer, start = 0): number {
  let d = -Infinity;
  for (let k = start; k < b.count; k++) d = Math.max(d, b.depth[k]);
  return d;
}

describe('collideShapes (dispatcher)', () => {
  it('box resting on a hull cube: 4 face points, same depth as SAT box–box', () => {
    buf.clear();
    const hull = boxHull([1, 1, 0.5]);
    const box = new BoxShape([0.3, 0.3, 0.3]);
    expect(collideShapes(buf, box, pose([0.1, 0.2, 0.79]), hull, pose([0, 0, 0]), 0)).toBe(CollideStatus.Ok);
    expect(buf.count).toBe(4);
    for (let k = 0; k < 4; k++) {
      expect(buf.depth[k]).toBeCloseTo(0.01, 9);
      expect(buf.normal[3 * k + 2]).toBeCloseTo(1, 9);
      expect(buf.point[3 * k + 2]).toBeCloseTo(0.5, 9);
      expect(buf.kind[k]).toBe(PairContactKind.ConvexFace);
    }
  });

  it('cylinder standing on a box: cap polygon clipped and reduced to 4 points on the rim', () => {
    buf.clear();
    const cyl = new CylinderShape(0.4, 1);
    const ground = new BoxShape([2, 2, 0.5]);
    collideShapes(buf, cyl, pose([0, 0, 0.99]), ground, pose([0, 0, 0]), 0);
    expect(buf.count).toBe(4);
    for (let k = 0; k < 4; k++) {
      expect(buf.depth[k]).toBeCloseTo(0.01, 9);
      expect(Math.hypot(buf.point[3 * k], buf.point[3 * k + 1])).toBeCloseTo(0.4, 9);
    }
  });

  it('cylinder lying on its side on a box: the side line gives 2 points', () => {
    buf.clear();
    const cyl = new CylinderShape(0.4, 1);
    const ground = new BoxShape([2, 2, 0.5]);
    collideShapes(buf, cyl, pose([0, 0, 0.89], quatFromAxisAngle([0, 0, 0, 1], [1, 0, 0], Math.PI / 2)), ground, pose([0, 0, 0]), 0);
    expect(buf.count).toBe(2);
    const ys = [buf.point[1], buf.point[4]].sort((a, b) => a - b);
    expect(ys[0]).toBeCloseTo(-0.5, 9);
    expect(ys[1]).toBeCloseTo(0.5, 9);
    expect(buf.depth[0]).toBeCloseTo(0.01, 9);
  });

  it('sphere on a hull face: one point, analytic depth', () => {
    buf.clear();
    collideShapes(buf, new SphereShape(0.5), pose([0.2, 0.1, 0.95]), boxHull([1, 1, 0.5]), pose([0, 0, 0]), 0);
    expect(buf.count).toBe(1);
    expect(buf.depth[0]).toBeCloseTo(0.05, 9);
    expect(buf.point[2]).toBeCloseTo(0.5, 9);
  });

  it('box–sphere uses capsule–box with A and B swapped: point on the sphere, normal into the box', () => {
    buf.clear();
    collideShapes(buf, new BoxShape([1, 1, 0.5]), pose([0, 0, 0]), new SphereShape(0.5), pose([0.2, 0.1, 0.95]), 0);
    expect(buf.count).toBe(1);
    expect(buf.depth[0]).toBeCloseTo(0.05, 14);
    expect(buf.normal[2]).toBeCloseTo(-1, 14); // pushes the box (A) down, away from the sphere
    expect(buf.point[2]).toBeCloseTo(0.45, 14); // on the sphere's surface
  });

  it('compound: each child pair contributes its own contacts', () => {
    buf.clear();
    const comp = new CompoundShape([
      { shape: new SphereShape(0.2), position: [-1, 0, 0], orientation: [0, 0, 0, 1] },
      { shape: new SphereShape(0.2), position: [1, 0, 0], orientation: [0, 0, 0, 1] },
    ]);
    collideShapes(buf, comp, pose([0, 0, 0.69]), new BoxShape([2, 2, 0.5]), pose([0, 0, 0]), 0);
    expect(buf.count).toBe(2);
    expect(buf.depth[0]).toBeCloseTo(0.01, 14);
    expect(buf.point[0]).toBeCloseTo(-1, 14);
    expect(buf.point[3]).toBeCloseTo(1, 14);
  });

  it('regression: NaN pose returns status degenerate and no contact', () => {
    buf.clear();
    expect(collideShapes(buf, new SphereShape(1), pose([NaN, 0, 0]), new SphereShape(1), pose([0, 0, 0]), 0)).toBe(CollideStatus.Degenerate);
    expect(buf.count).toBe(0);
  });

  it('full buffer reports overflow', () => {
    const small = new ContactBuffer(2);
    expect(collideShapes(small, new BoxShape([0.5, 0.5, 0.5]), pose([0, 0, 0.9]), new BoxShape([0.5, 0.5, 0.5]), pose([0, 0, 0]), 0)).toBe(CollideStatus.Overflow);
  });

  it('symmetry (seeded, all shape pairs): (A, B) and (B, A) agree on the deepest depth and opposite normals', () => {
    const rng = new Rng(2024);
    const shapes: ConvexShape[] = [
      new SphereShape(0.4), new BoxShape([0.5, 0.3, 0.2]), new CapsuleShape(0.25, 0.6), new CylinderShape(0.35, 0.5), boxHull([0.4, 0.3, 0.35]),
    ];
    const b2 = new ContactBuffer(64);
    let checked = 0;
    for (let trial = 0; trial < 300; trial++) {
      const sa = shapes[trial % 5], sb = shapes[Math.floor(trial / 5) % 5];
      const qa = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const qb = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const pa = pose([0, 0, 0], qa);
      const pb = pose([rng.range(-0.7, 0.7), rng.range(-0.7, 0.7), rng.range(-0.7, 0.7)], qb);
      buf.clear();
      b2.clear();
      collideShapes(buf, sa, pa, sb, pb, 0);
      collideShapes(b2, sb, pb, sa, pa, 0);
      for (const b of [buf, b2]) for (let k = 0; k < b.count; k++) {
        expect(Number.isFinite(b.point[3 * k] + b.point[3 * k + 1] + b.point[3 * k + 2] + b.normal[3 * k] + b.depth[k])).toBe(true);
      }
      if (buf.count === 0 || b2.count === 0) {
        // one side may see a touching contact the other rounds away
        expect(Math.max(maxDepth(buf), maxDepth(b2), 0)).toBeLessThan(1e-6);
        continue;
      }
      checked++;
      // Tolerances: box–box may pick the other box's face within SAT_FACE_PREFERENCE_ABSOLUTE;
      // a cylinder's cap is clipped as an inscribed CYLINDER_CAP_SEGMENTS-gon, whose rim lies up
      // to r(1 − cos(π/N)) inside the disc (measured worst here 5.5e-4 m, bound 6.7e-3 m);
      // everything else is analytic or exact on polytopes.
      const tol = sa.kind === 3 || sb.kind === 3 ? 0.35 * (1 - Math.cos(Math.PI / CYLINDER_CAP_SEGMENTS)) : SAT_FACE_PREFERENCE_ABSOLUTE + 1e-9;
      expect(Math.abs(maxDepth(b2) - maxDepth(buf))).toBeLessThanOrEqual(tol);
      if (sa !== sb) {
        // different pair order uses the same routine with swapped roles: normals exactly opposite
        const d = buf.normal[0] * b2.normal[0] + buf.normal[1] * b2.normal[1] + buf.normal[2] * b2.normal[2];
        expect(d).toBeLessThan(-0.99);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('collideShapes: capsule lying on a hull', () => {
  it('a capsule tilted 1° on a hull face gets a 2-point line contact, not one rocking point', () => {
    buf.clear();
    const cap = new CapsuleShape(0.1, 1);
    const q = quatFromAxisAngle([0, 0, 0, 1], [0, 1, 0], Math.PI / 2 + 0.0175);
    collideShapes(buf, cap, pose([0, 0, 0.595], q), boxHull([1, 1, 0.5]), pose([0, 0, 0]), 0.01);
    expect(buf.count).toBe(2);
    const xs = [buf.point[0], buf.point[3]].sort((a, b) => a - b);
    expect(xs[0]).toBeCloseTo(-0.5, 2);
    expect(xs[1]).toBeCloseTo(0.5, 2);
  });
});

describe('collideShapeHeightfield', () => {
  it('a compound of two boxes on flat terrain: 4 corners each, terrain cells recorded', () => {
    const hf = Heightfield.fromArray({ cols: 21, rows: 21, dx: 0.2, dy: 0.2, x0: -2, y0: -2, heights: new Float64Array(441) });
    const comp = new CompoundShape([
      { shape: new BoxShape([0.3, 0.2, 0.1]), position: [-0.6, 0, 0], orientation: [0, 0, 0, 1] },
      { shape: new BoxShape([0.3, 0.2, 0.1]), position: [0.6, 0, 0], orientation: [0, 0, 0, 1] },
    ]);
    buf.clear();
    expect(collideShapeHeightfield(buf, comp, pose([0, 0, 0.095]), hf, 0)).toBe(0);
    expect(buf.count).toBe(8);
    for (let k = 0; k < 8; k++) {
      expect(buf.depth[k]).toBeCloseTo(0.005, 12);
      expect(buf.normal[3 * k + 2]).toBe(1);
      expect(buf.cellI[k]).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('collideShapes: parallel side lines', () => {
  it('two cylinders lying side by side get a 2-point line contact over their overlap', () => {
    buf.clear();
    const cyl = new CylinderShape(0.3, 1);
    const q = quatFromAxisAngle([0, 0, 0, 1], [0, 1, 0], Math.PI / 2); // axes along x
    collideShapes(buf, cyl, pose([0.4, 0, 0.59], q), cyl, pose([0, 0, 0], q), 0);
    expect(buf.count).toBe(2);
    // (EPA on the curved cylinders converges to ~1e-6 m, hence 5 digits)
    const xs = [buf.point[0], buf.point[3]].sort((a, b) => a - b);
    expect(xs[0]).toBeCloseTo(-0.1, 5);
    expect(xs[1]).toBeCloseTo(0.5, 5);
    for (let k = 0; k < 2; k++) {
      expect(buf.depth[k]).toBeCloseTo(0.01, 5);
      expect(buf.normal[3 * k + 2]).toBeCloseTo(1, 5);
      expect(buf.point[3 * k + 2]).toBeCloseTo(0.3, 5);
    }
  });
});
