import { describe, it, expect } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { buildConvexHull, HullStatus } from '../../../sim/shapes/convex-hull-builder';
import type { ConvexHullData } from '../../../sim/shapes/convex-hull';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { massProperties } from '../../../sim/shapes/shape';

function cubePoints(h = 1, cx = 0, cy = 0, cz = 0): number[] {
  const pts: number[] = [];
  for (let i = 0; i < 8; i++) pts.push(cx + (i & 1 ? h : -h), cy + (i & 2 ? h : -h), cz + (i & 4 ? h : -h));
  return pts;
}

/** Structural checks every hull must pass: closed 2-manifold (each directed edge once, its twin once), Euler V − E + F = 2, convex (every vertex on or below every face plane), planar faces, outward CCW faces. */
function checkHull(d: ConvexHullData, tol: number): void {
  const V = d.vertices.length / 3, F = d.faceStart.length - 1;
  const edges = new Set<string>();
  let E2 = 0;
  let above = -Infinity;
  let offPlane = 0, repeatedEdges = 0, wrongWinding = 0;
  for (let f = 0; f < F; f++) {
    const s0 = d.faceStart[f], s1 = d.faceStart[f + 1];
    if (s1 - s0 < 3) wrongWinding++;
    const nx = d.planes[4 * f], ny = d.planes[4 * f + 1], nz = d.planes[4 * f + 2], off = d.planes[4 * f + 3];
    expect(Math.hypot(nx, ny, nz)).toBeCloseTo(1, 12);
    // Newell normal of the polygon must agree with the plane normal (CCW seen from outside).
    let ax = 0, ay = 0, az = 0;
    for (let k = s0; k < s1; k++) {
      const a = d.faceVertices[k], b = d.faceVertices[k + 1 < s1 ? k + 1 : s0];
      const key = `${a}>${b}`;
      if (edges.has(key)) repeatedEdges++;
      edges.add(key);
      E2++;
      ax += (d.vertices[3 * a + 1] - d.vertices[3 * b + 1]) * (d.vertices[3 * a + 2] + d.vertices[3 * b + 2]);
      ay += (d.vertices[3 * a + 2] - d.vertices[3 * b + 2]) * (d.vertices[3 * a] + d.vertices[3 * b]);
      az += (d.vertices[3 * a] - d.vertices[3 * b]) * (d.vertices[3 * a + 1] + d.vertices[3 * b + 1]);
      offPlane = Math.max(offPlane, Math.abs(nx * d.vertices[3 * a] + ny * d.vertices[3 * a + 1] + nz * d.vertices[3 * a + 2] - off));
    }
    if (!(ax * nx + ay * ny + az * nz > 0)) wrongWinding++;
    for (let i = 0; i < V; i++) {
      above = Math.max(above, nx * d.vertices[3 * i] + ny * d.vertices[3 * i + 1] + nz * d.vertices[3 * i + 2] - off);
    }
  }
  expect(above).toBeLessThan(tol);
  let missingTwins = 0;
  for (const key of edges) {
    const [a, b] = key.split('>');
    if (!edges.has(`${b}>${a}`)) missingTwins++;
  }
  expect({ repeatedEdges, missingTwins, wrongWinding }).toEqual({ repeatedEdges: 0, missingTwins: 0, wrongWinding: 0 });
  expect(offPlane).toBeLessThan(tol);
  expect(V - E2 / 2 + F).toBe(2);
}

describe('convex hull builder', () => {
  it('hull of a cube\'s 8 points is the cube: 8 vertices, 6 quadrilateral faces, volume 8', () => {
    const r = buildConvexHull(cubePoints());
    expect(r.status).toBe(HullStatus.Ok);
    const d = r.data as ConvexHullData;
    expect(d.vertices.length / 3).toBe(8);
    expect(d.faceStart.length - 1).toBe(6);
    for (let f = 0; f < 6; f++) expect(d.faceStart[f + 1] - d.faceStart[f]).toBe(4);
    checkHull(d, 1e-12);
    expect(new ConvexHullShape(d).volume()).toBeCloseTo(8, 12);
  });

  it('cube with duplicates, face centres, edge midpoints and interior points is still the cube', () => {
    const pts = cubePoints();
    pts.push(...cubePoints()); // exact duplicates
    for (const s of [-1, 1]) for (let k = 0; k < 3; k++) {
      const p = [0, 0, 0];
      p[k] = s;
      pts.push(...p); // face centres
    }
    for (let i = 0; i < 8; i++) for (let k = 0; k < 3; k++) {
      const p = [i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1];
      p[k] = 0;
      pts.push(...p); // edge midpoints
    }
    const rng = new Rng(8);
    for (let i = 0; i < 50; i++) pts.push(rng.range(-0.9, 0.9), rng.range(-0.9, 0.9), rng.range(-0.9, 0.9));
    const r = buildConvexHull(pts);
    expect(r.status).toBe(HullStatus.Ok);
    const d = r.data as ConvexHullData;
    expect(d.vertices.length / 3).toBe(8);
    expect(d.faceStart.length - 1).toBe(6);
    checkHull(d, 1e-12);
  });

  it('nearly coplanar points (1e-12 jitter on a cube\'s face grid) merge into 6 faces', () => {
    const rng = new Rng(9);
    const pts = cubePoints(1);
    for (let k = 0; k < 3; k++) for (const s of [-1, 1]) for (let i = 0; i < 30; i++) {
      const p = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
      p[k] = s + rng.range(-1e-12, 1e-12);
      pts.push(...p);
    }
    const r = buildConvexHull(pts);
    expect(r.status).toBe(HullStatus.Ok);
    const d = r.data as ConvexHullData;
    expect(d.faceStart.length - 1).toBe(6);
    expect(d.vertices.length / 3).toBe(8);
  });

  it('random cloud: every input point inside, every vertex an input point, closed convex manifold (seeded)', () => {
    const rng = new Rng(10);
    for (let trial = 0; trial < 10; trial++) {
      const n = rng.int(4, 300);
      const pts: number[] = [];
      for (let i = 0; i < n; i++) pts.push(rng.gaussian(), rng.gaussian() * 0.5, rng.gaussian() * 2);
      const r = buildConvexHull(pts);
      expect(r.status).toBe(HullStatus.Ok);
      const d = r.data as ConvexHullData;
      checkHull(d, 1e-9);
      const inputs = new Set<string>();
      for (let i = 0; i < n; i++) inputs.add(`${pts[3 * i]},${pts[3 * i + 1]},${pts[3 * i + 2]}`);
      for (let i = 0; i < d.vertices.length / 3; i++) expect(inputs.has(`${d.vertices[3 * i]},${d.vertices[3 * i + 1]},${d.vertices[3 * i + 2]}`)).toBe(true);
      let worst = -Infinity;
      for (let i = 0; i < n; i++) {
        for (let f = 0; f < d.faceStart.length - 1; f++) {
          worst = Math.max(worst, d.planes[4 * f] * pts[3 * i] + d.planes[4 * f + 1] * pts[3 * i + 1] + d.planes[4 * f + 2] * pts[3 * i + 2] - d.planes[4 * f + 3]);
        }
      }
      expect(worst).toBeLessThan(1e-9);
    }
  });

  it('points on a sphere (all on the hull, many nearly coplanar quadruples) stay a valid hull', () => {
    const rng = new Rng(11);
    const pts: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const x = rng.gaussian(), y = rng.gaussian(), z = rng.gaussian();
      const l = Math.hypot(x, y, z);
      pts.push(x / l, y / l, z / l);
    }
    const r = buildConvexHull(pts);
    expect(r.status).toBe(HullStatus.Ok);
    const d = r.data as ConvexHullData;
    checkHull(d, 1e-9);
    expect(new ConvexHullShape(d).volume()).toBeGreaterThan(0.98 * (4 / 3) * Math.PI * 0.99);
  });

  it('far from the origin (1e6 m offset) and tiny (1e-6 m) clouds keep their cube', () => {
    for (const [h, c] of [[1, 1e6], [1e-6, 0], [1e-3, 10]] as const) {
      const r = buildConvexHull(cubePoints(h, c, -c, c));
      expect(r.status).toBe(HullStatus.Ok);
      const d = r.data as ConvexHullData;
      expect(d.vertices.length / 3).toBe(8);
      expect(d.faceStart.length - 1).toBe(6);
    }
  });

  it('degenerate input gives a status, not a broken hull', () => {
    expect(buildConvexHull([]).status).toBe(HullStatus.TooFewPoints);
    expect(buildConvexHull([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]).status).toBe(HullStatus.Coincident);
    expect(buildConvexHull([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0.5, 0.5, 0.5]).status).toBe(HullStatus.Collinear);
    const square = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 0];
    expect(buildConvexHull(square).status).toBe(HullStatus.Coplanar);
    expect(buildConvexHull([0, 0, NaN, 1, 0, 0, 0, 1, 0, 0, 0, 1]).status).toBe(HullStatus.NotFinite);
    const many: number[] = [];
    const rng = new Rng(12);
    for (let i = 0; i < 200; i++) {
      const x = rng.gaussian(), y = rng.gaussian(), z = rng.gaussian();
      const l = Math.hypot(x, y, z);
      many.push(x / l, y / l, z / l);
    }
    expect(buildConvexHull(many, { maxVertices: 50 }).status).toBe(HullStatus.TooManyVertices);
  });

  it('coplanar input with flatThickness becomes a slab of that thickness', () => {
    const square = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 0];
    const r = buildConvexHull(square, { flatThickness: 0.01 });
    expect(r.status).toBe(HullStatus.Ok);
    expect(r.flattened).toBe(true);
    const d = r.data as ConvexHullData;
    expect(d.vertices.length / 3).toBe(8);
    const mp = new ConvexHullShape(d).massProperties(massProperties(), 1);
    expect(mp.volume).toBeCloseTo(0.01, 12);
    expect(mp.centerOfMass[2]).toBeCloseTo(0, 12);
  });
});
