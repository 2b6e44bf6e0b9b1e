/**
 * Verifies the brute-force oracle itself on cases with closed-form answers before it is trusted
 * as the reference for the cylinder–terrain algorithm.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../sim/math/random';
import { Heightfield } from '../../sim/terrain/heightfield';
import { flatTerrain, rampTerrain } from '../../sim/terrain/generate';
import { cellElements, oracleMaxDepth, type CylinderPose } from './cylinder-oracle';
import { buildCylinderScene, cylinderPoses } from './cylinder-poses';

const R = 0.3;
const H = 0.2;

function horizontalAxis(yaw: number): [number, number, number] {
  return [Math.cos(yaw), Math.sin(yaw), 0];
}

describe('cylinder oracle: analytic cases', () => {
  it('wheel lying on a flat plane: depth = r − (C_z − ground)', () => {
    const hf = flatTerrain({ cols: 41, dx: 0.05, height: 0.2 });
    const rng = new Rng(1);
    for (let k = 0; k < 40; k++) {
      const d = rng.range(-0.02, 0.05);
      const c: CylinderPose = { center: [rng.range(-0.3, 0.3), rng.range(-0.3, 0.3), 0.2 + R - d], axis: horizontalAxis(rng.range(0, 7)), radius: R, height: H };
      const o = oracleMaxDepth(c, hf);
      expect(o.depth).toBeCloseTo(Math.max(0, d), 12);
    }
  });

  it('wheel on a 20° ramp with its axis parallel to the ramp: depth = r − dist(axis, plane)', () => {
    const ang = (20 * Math.PI) / 180;
    const hf = rampTerrain({ cols: 41, dx: 0.05, angle: ang, startX: -10 });
    const n = [-Math.sin(ang), 0, Math.cos(ang)];
    const rng = new Rng(2);
    for (let k = 0; k < 40; k++) {
      const d = rng.range(0.001, 0.05);
      // axis in the plane: combination of the contour direction (y) and the fall line.
      const t = rng.range(0, Math.PI);
      const axis: [number, number, number] = [Math.cos(ang) * Math.cos(t), Math.sin(t), Math.sin(ang) * Math.cos(t)];
      const fx = rng.range(-0.2, 0.2), fy = rng.range(-0.2, 0.2);
      const fz = hf.heightAt(fx, fy);
      const center: [number, number, number] = [fx + (R - d) * n[0], fy + (R - d) * n[1], fz + (R - d) * n[2]];
      const o = oracleMaxDepth({ center, axis, radius: R, height: H }, hf);
      expect(o.depth).toBeCloseTo(d, 12);
    }
  });

  it('tilted plane made of coplanar triangles (non-rectangle cells) gives the same depth', () => {
    const cols = 41, dx = 0.05, a = 0.3, b = -0.2;
    const heights = new Float64Array(cols * cols);
    for (let j = 0; j < cols; j++) for (let i = 0; i < cols; i++) heights[j * cols + i] = a * (i * dx - 1) + b * (j * dx - 1);
    const hf = Heightfield.fromArray({ cols, rows: cols, dx, dy: dx, x0: -1, y0: -1, heights });
    expect(hf.cellIsRectangle(10, 10)).toBe(false);
    const l = Math.hypot(a, b, 1);
    const n = [-a / l, -b / l, 1 / l];
    const rng = new Rng(3);
    for (let k = 0; k < 40; k++) {
      const d = rng.range(0.001, 0.05);
      // An in-plane axis: n × random, normalised.
      const q = [rng.gaussian(), rng.gaussian(), rng.gaussian()];
      const ax = n[1] * q[2] - n[2] * q[1], ay = n[2] * q[0] - n[0] * q[2], az = n[0] * q[1] - n[1] * q[0];
      const al = Math.hypot(ax, ay, az);
      const fx = rng.range(-0.2, 0.2), fy = rng.range(-0.2, 0.2), fz = a * fx + b * fy;
      const center: [number, number, number] = [fx + (R - d) * n[0], fy + (R - d) * n[1], fz + (R - d) * n[2]];
      const o = oracleMaxDepth({ center, axis: [ax / al, ay / al, az / al], radius: R, height: H }, hf);
      expect(o.depth).toBeCloseTo(d, 10);
    }
  });

  it('upright cylinder standing on flat ground (case A, base disc): depth = h/2 − (C_z − ground)', () => {
    const hf = flatTerrain({ cols: 41, dx: 0.05 });
    for (const d of [0.001, 0.01, 0.04]) {
      for (const sign of [1, -1]) {
        const o = oracleMaxDepth({ center: [0.013, -0.021, H / 2 - d], axis: [0, 0, sign], radius: R, height: H }, hf);
        expect(o.depth).toBeCloseTo(d, 9);
      }
    }
  });

  it('tilted cylinder dipping one rim point into flat ground (case C): depth = ground − lowest z', () => {
    const hf = flatTerrain({ cols: 41, dx: 0.05 });
    const rng = new Rng(4);
    for (let k = 0; k < 30; k++) {
      const tilt = rng.range(0.2, 1.3); // from vertical
      const yaw = rng.range(0, 7);
      const v: [number, number, number] = [Math.sin(tilt) * Math.cos(yaw), Math.sin(tilt) * Math.sin(yaw), Math.cos(tilt)];
      const d = rng.range(0.001, 0.03);
      const lowestAboveCentre = -(H / 2) * v[2] - R * Math.sin(tilt);
      const o = oracleMaxDepth({ center: [0, 0, -d - lowestAboveCentre], axis: v, radius: R, height: H }, hf);
      expect(o.depth).toBeCloseTo(d, 10);
    }
  });

  it('a gentle spike vertex poking into a base: depth = h/2 − |z_tip| (edge pass)', () => {
    // Tip 2 cm over flat ground, dx = 0.1 m (slope g = 0.2).
    const cols = 21, dx = 0.1, tip = 0.02;
    const heights = new Float64Array(cols * cols);
    heights[10 * cols + 10] = tip; // tip at (0, 0, tip) with x0 = y0 = −1
    const hf = Heightfield.fromArray({ cols, rows: cols, dx, dy: dx, x0: -1, y0: -1, heights });
    for (const d of [0.002, 0.01]) {
      const ob = oracleMaxDepth({ center: [0.05, 0, tip + H / 2 - d], axis: [0, 0, 1], radius: R, height: H }, hf);
      expect(ob.source).toBe('edge');
      expect(ob.depth).toBeCloseTo(d, 12);
      // Wheel lying across the tip, axis along y: the tip pokes d into the side, but the
      // lowest line of the triangle rising toward the tip (normal ∝ (0, −g, 1)) runs past the
      // tip while its foot stays on the triangle, to s = d·√(1 + g²): the face term wins by 2 %.
      // This is the header's definition (clipped lowest line), pinned here on purpose.
      const o = oracleMaxDepth({ center: [0, 0.03, tip + R - d], axis: [0, 1, 0], radius: R, height: H }, hf);
      expect(o.source).toBe('face');
      expect(o.depth).toBeCloseTo(d * Math.sqrt(1.04), 12);
    }
  });

  it('a steep spike counts the depth behind its triangles planes (the definition, not a bug)', () => {
    const cols = 21, dx = 0.1;
    const heights = new Float64Array(cols * cols);
    heights[10 * cols + 10] = 1;
    const hf = Heightfield.fromArray({ cols, rows: cols, dx, dy: dx, x0: -1, y0: -1, heights });
    const o = oracleMaxDepth({ center: [0, 0.03, 1 + R - 0.02], axis: [0, 1, 0], radius: R, height: H }, hf);
    // Lower triangle of cell (10, 9): plane z = 10(y + 0.1); base end at y = 0.13 lies
    // (10·0.23 − 0.98)/√101 behind it with its foot at the tip.
    expect(o.source).not.toBe('edge');
    expect(o.depth).toBeCloseTo((10 * 0.23 - 0.98) / Math.sqrt(101), 6);
  });

  it('no contact far above the terrain and right at touching', () => {
    const hf = flatTerrain({ cols: 41, dx: 0.05 });
    expect(oracleMaxDepth({ center: [0, 0, 1], axis: [1, 0, 0], radius: R, height: H }, hf).depth).toBe(0);
    expect(oracleMaxDepth({ center: [0, 0, R + 1e-9], axis: [0, 1, 0], radius: R, height: H }, hf).depth).toBe(0);
  });

  it('its elements reproduce Heightfield.heightAt (same V1–V2 triangulation)', () => {
    const hf = buildCylinderScene(65);
    const rng = new Rng(5);
    for (let k = 0; k < 500; k++) {
      const x = rng.range(hf.x0, hf.x0 + hf.cellsX * hf.dx), y = rng.range(hf.y0, hf.y0 + hf.cellsY * hf.dy);
      const i = Math.min(hf.cellsX - 1, Math.floor((x - hf.x0) / hf.dx)), j = Math.min(hf.cellsY - 1, Math.floor((y - hf.y0) / hf.dy));
      const els = cellElements(hf, i, j);
      // The lower triangle wins ties on the diagonal, as in heightAt.
      const fx = (x - hf.x0) / hf.dx - i, fy = (y - hf.y0) / hf.dy - j;
      const e = els.length === 1 || fx + fy <= 1 ? els[0] : els[1];
      const z = (e.k - e.n[0] * x - e.n[1] * y) / e.n[2];
      expect(z).toBeCloseTo(hf.heightAt(x, y), 10);
    }
  });

  it('benchmark poses are settled to their chosen 0–5 cm maximum depth', () => {
    const hf = buildCylinderScene(129);
    const poses = cylinderPoses(hf, 100, 7);
    let off = 0;
    for (const p of poses) {
      const o = oracleMaxDepth(p, hf);
      expect(o.depth).toBeGreaterThanOrEqual(0);
      if (o.depth > 0.051) off++;
    }
    expect(off).toBeLessThan(5);
  });
});
