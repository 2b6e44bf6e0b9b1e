import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { PairContactKind } from '../../../sim/collision/manifold/feature-id';
import { BoxBoxWorkspace, SatAxisKind, collideBoxBox, createBoxBoxSat, satBoxBox } from '../../../sim/collision/sat-box-box';
import { MANIFOLD_MAX_POINTS } from '../../../sim/constants';
import type { Quat } from '../../../sim/math/quat';
import { quatFromAxisAngle, quatMultiply, quatNormalize, quatRotateInverse } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';

const bbWs = new BoxBoxWorkspace();
const I: Quat = [0, 0, 0, 1];
const H: Vec3 = [0.5, 0.5, 0.5];
const S2 = Math.SQRT1_2;

function q(axis: Vec3, angle: number): Quat {
  const n = Math.hypot(...axis);
  return quatFromAxisAngle([0, 0, 0, 1], [axis[0] / n, axis[1] / n, axis[2] / n], angle);
}

function contacts(buf: ContactBuffer): { p: Vec3; n: Vec3; d: number; f: number }[] {
  const out = [];
  for (let k = 0; k < buf.count; k++) {
    out.push({
      p: [buf.point[3 * k], buf.point[3 * k + 1], buf.point[3 * k + 2]] as Vec3,
      n: [buf.normal[3 * k], buf.normal[3 * k + 1], buf.normal[3 * k + 2]] as Vec3,
      d: buf.depth[k],
      f: buf.feature[k],
    });
  }
  return out;
}

/** Largest |local coordinate| / half extent of p in box (c, q, h): 1 on the surface, < 1 inside. */
function boxLevel(p: Readonly<Vec3>, c: Readonly<Vec3>, rot: Readonly<Quat>, h: Readonly<Vec3>): number {
  const l = quatRotateInverse([0, 0, 0], rot, [p[0] - c[0], p[1] - c[1], p[2] - c[2]]);
  return Math.max(Math.abs(l[0]) / h[0], Math.abs(l[1]) / h[1], Math.abs(l[2]) / h[2]);
}

describe('satBoxBox', () => {
  const sat = createBoxBoxSat();

  it('face–face: stacked unit cubes, depth 0.1 along +z', () => {
    satBoxBox(sat, [0, 0, 0], I, H, [0.05, 0.02, 0.9], I, H, false, bbWs);
    expect(sat.separation).toBeCloseTo(-0.1, 14);
    expect(sat.normal).toEqual([0, 0, 1]);
    expect(sat.kind).toBe(SatAxisKind.FaceA);
  });

  it('separated boxes: separation is the gap along the separating face axis', () => {
    satBoxBox(sat, [0, 0, 0], I, H, [-1.3, 0, 0], I, H, false, bbWs);
    expect(sat.separation).toBeCloseTo(0.3, 14);
    expect(sat.normal[0]).toBe(-1);
    expect(Math.abs(sat.normal[1]) + Math.abs(sat.normal[2])).toBe(0);
  });

  it('edge–edge: crossed ridges, depth 0.1 along +z', () => {
    const qa = q([1, 0, 0], Math.PI / 4); // ridge of A along x at z = √2/2
    const qb = q([0, 1, 0], Math.PI / 4); // ridge of B along y at zB − √2/2
    const zB = Math.SQRT2 - 0.1;
    satBoxBox(sat, [0, 0, 0], qa, H, [0, 0, zB], qb, H, false, bbWs);
    expect(sat.kind).toBe(SatAxisKind.EdgeEdge);
    expect(sat.separation).toBeCloseTo(-0.1, 12);
    expect(sat.normal[2]).toBeCloseTo(1, 12);
  });

  it('symmetry: (A, B) and (B, A) give the same separation and opposite normals', () => {
    const rng = new Rng(7);
    const sat2 = createBoxBoxSat();
    for (let k = 0; k < 200; k++) {
      const qa = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const qb = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const ha: Vec3 = [rng.range(0.1, 1), rng.range(0.1, 1), rng.range(0.1, 1)];
      const hb: Vec3 = [rng.range(0.1, 1), rng.range(0.1, 1), rng.range(0.1, 1)];
      const cb: Vec3 = [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)];
      satBoxBox(sat, [0, 0, 0], qa, ha, cb, qb, hb, false, bbWs);
      satBoxBox(sat2, cb, qb, hb, [0, 0, 0], qa, ha, false, bbWs);
      expect(sat2.separation).toBeCloseTo(sat.separation, 12);
      // the normals agree up to sign unless two axes tie
      const d = sat.normal[0] * sat2.normal[0] + sat.normal[1] * sat2.normal[1] + sat.normal[2] * sat2.normal[2];
      expect(d).toBeLessThan(0);
    }
  });
});

describe('collideBoxBox', () => {
  const buf = new ContactBuffer(16);

  it('face–face: 4 corners on B’s bottom face, normal pushes A down, depth 0.1', () => {
    buf.clear();
    const n = collideBoxBox(buf, [0, 0, 0], I, H, [0.2, 0.1, 0.9], I, H, 0, bbWs);
    expect(n).toBe(4);
    for (const c of contacts(buf)) {
      expect(c.n).toEqual([-0, -0, -1]);
      expect(c.d).toBeCloseTo(0.1, 14);
      expect(c.p[2]).toBeCloseTo(0.4, 14); // B's bottom face: point on B's surface
      expect(c.p[0]).toBeGreaterThanOrEqual(-0.3 - 1e-12);
      expect(c.p[0]).toBeLessThanOrEqual(0.5 + 1e-12);
      expect(buf.kind[0]).toBe(PairContactKind.BoxBoxFace);
    }
    const ids = new Set(contacts(buf).map((c) => c.f));
    expect(ids.size).toBe(4);
  });

  it('face–face with B rotated 45° about z: octagon reduced to 4 points spanning it', () => {
    buf.clear();
    const n = collideBoxBox(buf, [0, 0, 0], I, H, [0, 0, 0.95], q([0, 0, 1], Math.PI / 4), H, 0, bbWs);
    expect(n).toBe(MANIFOLD_MAX_POINTS);
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (const c of contacts(buf)) {
      expect(c.d).toBeCloseTo(0.05, 14);
      expect(c.p[2]).toBeCloseTo(0.45, 14);
      minX = Math.min(minX, c.p[0]); maxX = Math.max(maxX, c.p[0]);
      minY = Math.min(minY, c.p[1]); maxY = Math.max(maxY, c.p[1]);
    }
    // the 4 kept points span the overlap (not 4 points bunched on one side)
    expect(maxX - minX).toBeGreaterThan(0.5);
    expect(maxY - minY).toBeGreaterThan(0.5);
  });

  it('edge–edge: one point at the crossing of the ridges, on B’s ridge', () => {
    buf.clear();
    const zB = Math.SQRT2 - 0.1;
    const n = collideBoxBox(buf, [0, 0, 0], q([1, 0, 0], Math.PI / 4), H, [0.1, -0.2, zB], q([0, 1, 0], Math.PI / 4), H, 0, bbWs);
    expect(n).toBe(1);
    const c = contacts(buf)[0];
    expect(buf.kind[0]).toBe(PairContactKind.BoxBoxEdge);
    expect(c.d).toBeCloseTo(0.1, 12);
    expect(c.n[2]).toBeCloseTo(-1, 12);
    // A's ridge runs along x at y = 0, B's along y at x = 0.1: they cross at (0.1, 0); the
    // point lies on B's ridge at z = zB − √2/2.
    expect(c.p[0]).toBeCloseTo(0.1, 12);
    expect(c.p[1]).toBeCloseTo(0, 12);
    expect(c.p[2]).toBeCloseTo(zB - S2, 12);
  });

  it('vertex–face: a cube standing on its corner gives one point of depth 0.05', () => {
    buf.clear();
    // rotate so that the body diagonal (−1,−1,−1) points straight down
    const qa = q([1, -1, 0], Math.acos(1 / Math.sqrt(3)));
    const zB = 0.5 + Math.sqrt(3) / 2 - 0.05;
    const n = collideBoxBox(buf, [0, 0, 0], I, H, [0, 0, zB], qa, H, 0, bbWs);
    expect(n).toBe(1);
    const c = contacts(buf)[0];
    expect(c.d).toBeCloseTo(0.05, 12);
    expect(c.p[0]).toBeCloseTo(0, 12);
    expect(c.p[1]).toBeCloseTo(0, 12);
    expect(c.p[2]).toBeCloseTo(0.45, 12);
    expect(c.n[2]).toBeCloseTo(-1, 12);
  });

  it('separated beyond the margin: no contacts; within it: speculative points with negative depth', () => {
    buf.clear();
    expect(collideBoxBox(buf, [0, 0, 0], I, H, [0, 0, 1.02], I, H, 0.01, bbWs)).toBe(0);
    expect(collideBoxBox(buf, [0, 0, 0], I, H, [0, 0, 1.005], I, H, 0.01, bbWs)).toBe(4);
    expect(buf.depth[0]).toBeCloseTo(-0.005, 14);
  });

  it('regression: coplanar faces with equal boxes exactly stacked give 4 finite points', () => {
    buf.clear();
    expect(collideBoxBox(buf, [0, 0, 0], I, H, [0, 0, 1], I, H, 0, bbWs)).toBe(4);
    for (const c of contacts(buf)) {
      expect(c.d).toBeCloseTo(0, 15);
      expect(Math.abs(c.p[0])).toBeCloseTo(0.5, 14);
      expect(c.p[2]).toBeCloseTo(0.5, 15);
    }
  });

  it('regression: concentric identical boxes (no direction to separate) give finite contacts', () => {
    buf.clear();
    const n = collideBoxBox(buf, [0, 0, 0], I, H, [0, 0, 0], I, H, 0, bbWs);
    expect(n).toBeGreaterThan(0);
    for (const c of contacts(buf)) {
      expect(c.p.every(Number.isFinite) && c.n.every(Number.isFinite)).toBe(true);
      expect(c.d).toBeCloseTo(1, 14);
    }
  });

  it('tiny (1 mm) and huge (1 km) boxes: depth scales exactly', () => {
    for (const s of [1e-3, 1e3]) {
      buf.clear();
      const h: Vec3 = [0.5 * s, 0.5 * s, 0.5 * s];
      const n = collideBoxBox(buf, [0, 0, 0], I, h, [0, 0, 0.9 * s], q([0, 0, 1], 0.3), h, 0, bbWs);
      expect(n).toBe(4);
      expect(buf.depth[0] / s).toBeCloseTo(0.1, 10);
    }
  });

  it('property (seeded, 500 poses): points lie on B, point − depth·n lies on A, depths ≤ SAT depth', () => {
    const rng = new Rng(99);
    const sat = createBoxBoxSat();
    let pairs = 0;
    for (let k = 0; k < 500; k++) {
      const qa = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const qb = quatNormalize([0, 0, 0, 1], [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()]);
      const ha: Vec3 = [rng.range(0.1, 1), rng.range(0.1, 1), rng.range(0.1, 1)];
      const hb: Vec3 = [rng.range(0.1, 1), rng.range(0.1, 1), rng.range(0.1, 1)];
      const ca: Vec3 = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
      const cb: Vec3 = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
      buf.clear();
      const n = collideBoxBox(buf, ca, qa, ha, cb, qb, hb, 0, bbWs, sat);
      if (sat.separation > 0) {
        expect(n).toBe(0);
        continue;
      }
      pairs++;
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThanOrEqual(MANIFOLD_MAX_POINTS);
      for (const c of contacts(buf)) {
        expect(c.p.every(Number.isFinite) && c.n.every(Number.isFinite) && Number.isFinite(c.d)).toBe(true);
        expect(c.d).toBeGreaterThanOrEqual(-1e-9);
        expect(c.d).toBeLessThanOrEqual(-sat.separation + 1e-9);
        // normal pushes A: opposite to the A→B axis
        expect(c.n[0] * sat.normal[0] + c.n[1] * sat.normal[1] + c.n[2] * sat.normal[2]).toBeCloseTo(-1, 12);
        expect(boxLevel(c.p, cb, qb, hb)).toBeLessThanOrEqual(1 + 1e-9);
        const pa: Vec3 = [c.p[0] - c.d * c.n[0], c.p[1] - c.d * c.n[1], c.p[2] - c.d * c.n[2]];
        expect(boxLevel(pa, ca, qa, ha)).toBeLessThanOrEqual(1 + 1e-9);
      }
    }
    expect(pairs).toBeGreaterThan(100);
  });
});
