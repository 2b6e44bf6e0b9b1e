import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { CapsuleBoxWorkspace, collideCapsuleBox } from '../../../sim/collision/manifold/capsule-box';
import { CapsuleCapsuleWorkspace, axisSegment, collideCapsuleCapsule } from '../../../sim/collision/manifold/capsule-capsule';
import { flipContacts } from '../../../sim/collision/manifold/flip-contacts';
import type { Quat } from '../../../sim/math/quat';
import { quatFromAxisAngle, quatNormalize, quatRotateInverse } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';

const I: Quat = [0, 0, 0, 1];
const buf = new ContactBuffer(16);
const cbWs = new CapsuleBoxWorkspace();
const ccWs = new CapsuleCapsuleWorkspace();

function c(k: number): { p: Vec3; n: Vec3; d: number } {
  return {
    p: [buf.point[3 * k], buf.point[3 * k + 1], buf.point[3 * k + 2]],
    n: [buf.normal[3 * k], buf.normal[3 * k + 1], buf.normal[3 * k + 2]],
    d: buf.depth[k],
  };
}

describe('collideCapsuleCapsule (spheres are zero-length capsules)', () => {
  it('sphere–sphere: depth rA + rB − |d|, point on B, normal from B into A', () => {
    buf.clear();
    const a: Vec3 = [0, 0, 1.5];
    const b: Vec3 = [0, 0, 0];
    expect(collideCapsuleCapsule(buf, a, a, 1, b, b, 0.7, 0, ccWs)).toBe(1);
    const k = c(0);
    expect(k.d).toBeCloseTo(0.2, 14);
    expect(k.n).toEqual([0, 0, 1]);
    expect(k.p[2]).toBeCloseTo(0.7, 14);
  });

  it('regression: concentric spheres give depth rA + rB and a finite unit normal', () => {
    buf.clear();
    const a: Vec3 = [1, 2, 3];
    expect(collideCapsuleCapsule(buf, a, a, 0.5, a, a, 0.25, 0, ccWs)).toBe(1);
    const k = c(0);
    expect(k.d).toBeCloseTo(0.75, 14);
    expect(Math.hypot(...k.n)).toBeCloseTo(1, 14);
  });

  it('separated beyond the margin: nothing', () => {
    buf.clear();
    expect(collideCapsuleCapsule(buf, [0, 0, 3], [0, 0, 3], 1, [0, 0, 0], [0, 0, 0], 1, 0.5, ccWs)).toBe(0);
  });

  it('crossed capsules: one point at the crossing', () => {
    buf.clear();
    expect(collideCapsuleCapsule(buf, [-1, 0, 0.3], [1, 0, 0.3], 0.2, [0, -1, 0], [0, 1, 0], 0.2, 0, ccWs)).toBe(1);
    expect(c(0).d).toBeCloseTo(0.1, 14);
    expect(c(0).p).toEqual([0, 0, 0.2]);
  });

  it('parallel capsules side by side: 2 points at the ends of the overlap', () => {
    buf.clear();
    expect(collideCapsuleCapsule(buf, [0.5, 0, 0.35], [2.5, 0, 0.35], 0.2, [0, 0, 0], [1.5, 0, 0], 0.2, 0, ccWs)).toBe(2);
    const xs = [c(0).p[0], c(1).p[0]].sort((x, y) => x - y);
    expect(xs[0]).toBeCloseTo(0.5, 14);
    expect(xs[1]).toBeCloseTo(1.5, 14);
    for (const k of [c(0), c(1)]) {
      expect(k.d).toBeCloseTo(0.05, 14);
      expect(k.p[2]).toBeCloseTo(0.2, 14);
      expect(k.n[2]).toBeCloseTo(1, 14);
    }
  });

  it('collinear capsules end to end: one point on the axis, not a bogus line contact', () => {
    buf.clear();
    expect(collideCapsuleCapsule(buf, [2, 0, 0], [3, 0, 0], 0.6, [0, 0, 0], [1, 0, 0], 0.6, 0, ccWs)).toBe(1);
    expect(c(0).d).toBeCloseTo(0.2, 14);
    expect(c(0).n[0]).toBeCloseTo(1, 14);
  });

  it('axisSegment places the axis along local z', () => {
    const p0: Vec3 = [0, 0, 0], p1: Vec3 = [0, 0, 0];
    axisSegment(p0, p1, [1, 1, 1], quatFromAxisAngle([0, 0, 0, 1], [0, 1, 0], Math.PI / 2), 0.5);
    expect(p1[0]).toBeCloseTo(1.5, 14);
    expect(p0[0]).toBeCloseTo(0.5, 14);
    expect(p1[2]).toBeCloseTo(1, 14);
  });
});

describe('collideCapsuleBox (spheres are zero-length capsules)', () => {
  const h: Vec3 = [1, 0.5, 0.25];

  it('sphere over a face: depth, point on the face, face normal', () => {
    buf.clear();
    const s: Vec3 = [0.3, -0.2, 0.25 + 0.4];
    expect(collideCapsuleBox(buf, s, s, 0.5, [0, 0, 0], I, h, 0, cbWs)).toBe(1);
    expect(c(0).d).toBeCloseTo(0.1, 14);
    expect(c(0).p).toEqual([0.3, -0.2, 0.25]);
    expect(c(0).n).toEqual([0, 0, 1]);
  });

  it('sphere near a vertex: radial normal, depth r − distance to the corner', () => {
    buf.clear();
    const s: Vec3 = [1.1, 0.6, 0.35];
    expect(collideCapsuleBox(buf, s, s, 0.25, [0, 0, 0], I, h, 0, cbWs)).toBe(1);
    const d = Math.sqrt(0.03);
    expect(c(0).d).toBeCloseTo(0.25 - d, 14);
    expect(c(0).p).toEqual([1, 0.5, 0.25]);
    expect(c(0).n[0]).toBeCloseTo(0.1 / d, 14);
  });

  it('sphere centre inside the box: nearest face, depth r + distance to it', () => {
    buf.clear();
    const s: Vec3 = [0.2, 0.4, 0];
    expect(collideCapsuleBox(buf, s, s, 0.05, [0, 0, 0], I, h, 0, cbWs)).toBe(1);
    expect(c(0).d).toBeCloseTo(0.15, 14);
    expect(c(0).n).toEqual([0, 1, 0]);
    expect(c(0).p[1]).toBeCloseTo(0.5, 14);
  });

  it('capsule lying on the top face: 2 points clipped at the box edge', () => {
    buf.clear();
    expect(collideCapsuleBox(buf, [0, 0, 0.4], [2, 0, 0.4], 0.2, [0, 0, 0], I, h, 0, cbWs)).toBe(2);
    const xs = [c(0).p[0], c(1).p[0]].sort((x, y) => x - y);
    expect(xs).toEqual([0, 1]);
    expect(c(0).d).toBeCloseTo(0.05, 14);
    expect(c(1).n).toEqual([0, 0, 1]);
  });

  it('tilted capsule on the top face: one point under the low end', () => {
    buf.clear();
    expect(collideCapsuleBox(buf, [0, 0, 0.4], [0.5, 0, 0.9], 0.2, [0, 0, 0], I, h, 0, cbWs)).toBe(1);
    expect(c(0).d).toBeCloseTo(0.05, 14);
    expect(c(0).p).toEqual([0, 0, 0.25]);
  });

  it('capsule core through the box (deep): SAT face axis, 2 points', () => {
    buf.clear();
    expect(collideCapsuleBox(buf, [-0.5, 0, 0.2], [0.5, 0, 0.2], 0.1, [0, 0, 0], I, h, 0, cbWs)).toBe(2);
    expect(c(0).n).toEqual([0, 0, 1]);
    expect(c(0).d).toBeCloseTo(0.15, 14);
  });

  it('regression: a segment parallel to a box edge just inside it uses a face axis (no edge axis exists)', () => {
    buf.clear();
    const hb: Vec3 = [0.5, 0.5, 0.5];
    const n = collideCapsuleBox(buf, [0.48, -2, 0.48], [0.48, 2, 0.48], 0.1, [0, 0, 0], I, hb, 0, cbWs);
    expect(n).toBe(2);
    expect(c(0).d).toBeCloseTo(0.12, 12);
  });

  it('capsule core crossing a box edge diagonally: SAT edge axis, one point on the edge', () => {
    buf.clear();
    const hb: Vec3 = [0.5, 0.5, 0.5];
    const s = Math.SQRT1_2;
    // segment in the xz plane along (1, 0, −1), through (0.49, 0, 0.49): it cuts the top +x edge
    const n = collideCapsuleBox(buf, [0.49 - s, 0, 0.49 + s], [0.49 + s, 0, 0.49 - s], 0.1, [0, 0, 0], I, hb, 0, cbWs);
    expect(n).toBe(1);
    expect(c(0).n[0]).toBeCloseTo(s, 12);
    expect(c(0).n[2]).toBeCloseTo(s, 12);
    expect(c(0).d).toBeCloseTo(0.1 + 0.01 * Math.SQRT2, 12);
    expect(c(0).p[0]).toBeCloseTo(0.5, 12);
    expect(c(0).p[1]).toBeCloseTo(0, 12);
    expect(c(0).p[2]).toBeCloseTo(0.5, 12);
  });

  it('property (seeded): points lie on B, point − depth·n lies on the capsule, flip is consistent', () => {
    const rng = new Rng(5);
    let hits = 0;
    for (let k = 0; k < 400; k++) {
      const q = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const hb: Vec3 = [rng.range(0.1, 1), rng.range(0.1, 1), rng.range(0.1, 1)];
      const a0: Vec3 = [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)];
      const a1: Vec3 = k % 4 === 0 ? [a0[0], a0[1], a0[2]] : [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)];
      const r = rng.range(0.05, 0.5);
      buf.clear();
      const n = collideCapsuleBox(buf, a0, a1, r, [0, 0, 0], q, hb, 0, cbWs);
      for (let i = 0; i < n; i++) {
        hits++;
        const k2 = c(i);
        expect(k2.p.every(Number.isFinite) && k2.n.every(Number.isFinite)).toBe(true);
        expect(k2.d).toBeGreaterThanOrEqual(-1e-12);
        const l = quatRotateInverse([0, 0, 0], q, k2.p);
        expect(Math.max(Math.abs(l[0]) / hb[0], Math.abs(l[1]) / hb[1], Math.abs(l[2]) / hb[2])).toBeCloseTo(1, 9);
        // A's deepest point lies on the capsule surface: distance to the segment = r
        const pa: Vec3 = [k2.p[0] - k2.d * k2.n[0], k2.p[1] - k2.d * k2.n[1], k2.p[2] - k2.d * k2.n[2]];
        const u = [a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]];
        const uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        let t = uu > 0 ? ((pa[0] - a0[0]) * u[0] + (pa[1] - a0[1]) * u[1] + (pa[2] - a0[2]) * u[2]) / uu : 0;
        t = Math.min(1, Math.max(0, t));
        const dd = Math.hypot(pa[0] - a0[0] - t * u[0], pa[1] - a0[1] - t * u[1], pa[2] - a0[2] - t * u[2]);
        expect(dd).toBeLessThanOrEqual(r + 1e-9);
      }
      const before = buf.count;
      flipContacts(buf, 0);
      flipContacts(buf, 0);
      expect(buf.count).toBe(before);
    }
    expect(hits).toBeGreaterThan(50);
  });
});

describe('collideCapsuleCapsule: crossing cores', () => {
  it('regression: crossing cores use the common perpendicular (depth rA + rB along uA × uB)', () => {
    buf.clear();
    expect(collideCapsuleCapsule(buf, [-1, 0, 0], [1, 0, 0], 0.2, [0, -1, 0], [0, 1, 0], 0.3, 0, ccWs)).toBe(1);
    expect(c(0).d).toBeCloseTo(0.5, 14);
    expect(Math.abs(c(0).n[2])).toBeCloseTo(1, 14); // x × y = z, not some direction in the xy plane
  });
});

describe('collideCapsuleBox: tilted capsule face contacts', () => {
  it('regression (oracle skip at 7ec313e): points of a tilted capsule lie on the capsule and on the box face', () => {
    // capsule tilted 30° with both ends below the top face of a big box
    const a0: Vec3 = [-0.4, 0.1, 0.45 - 0.2], a1: Vec3 = [0.4, 0.1, 0.45 - 0.2 + 0.8 * Math.tan(Math.PI / 6)];
    const r = 0.3;
    buf.clear();
    const n = collideCapsuleBox(buf, a0, a1, r, [0, 0, 0], I, [1, 1, 0.5], 0, cbWs);
    expect(n).toBe(2);
    for (let k = 0; k < n; k++) {
      const cc = c(k);
      expect(cc.p[2]).toBeCloseTo(0.5, 12); // on the box's top face
      const pa: Vec3 = [cc.p[0] - cc.d * cc.n[0], cc.p[1] - cc.d * cc.n[1], cc.p[2] - cc.d * cc.n[2]];
      const u = [a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]];
      const uu = u[0] ** 2 + u[1] ** 2 + u[2] ** 2;
      const t = Math.min(1, Math.max(0, ((pa[0] - a0[0]) * u[0] + (pa[1] - a0[1]) * u[1] + (pa[2] - a0[2]) * u[2]) / uu));
      const dd = Math.hypot(pa[0] - a0[0] - t * u[0], pa[1] - a0[1] - t * u[1], pa[2] - a0[2] - t * u[2]);
      expect(dd).toBeCloseTo(r, 12); // on the capsule's surface, not inside it
    }
  });
});
