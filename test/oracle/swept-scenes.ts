/**
 * Seeded terrains and paths for the swept-query tests (heightfield cast oracle, projectile
 * trials) and `npm run bench -- ccd`: rolling ground with the features that make casts fail —
 * a flat plateau (planar rectangles), steep curbs (a 0.3 m step over one cell, up and down),
 * single-cell spikes (one vertex 0.4–0.8 m above its neighbours) and a thin ridge one vertex wide.
 */
import { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import { Heightfield } from '../../sim/terrain/heightfield';

export interface SweptScene {
  hf: Heightfield;
  /** World (x, y, z) of the spike tips and ridge vertices: targets for grazing shots. */
  features: Vec3[];
}

/** A cols × cols terrain, dx = dy = `dx`, centred on the origin. */
export function sweptScene(seed: number, cols = 33, dx = 0.1): SweptScene {
  const rng = new Rng(seed);
  const n = cols;
  const x0 = (-(n - 1) * dx) / 2, y0 = x0;
  const H = new Float64Array(n * n);
  const a1 = rng.range(0.05, 0.2), a2 = rng.range(0.05, 0.2), f1 = rng.range(0.5, 2), f2 = rng.range(0.5, 2);
  const p1 = rng.range(0, 6), p2 = rng.range(0, 6);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const x = x0 + i * dx, y = y0 + j * dx;
      H[j * n + i] = a1 * Math.sin(f1 * x + p1) + a2 * Math.cos(f2 * y + p2) + rng.range(-0.01, 0.01);
    }
  }
  // flat plateau (rectangles) in one quadrant
  const pz = rng.range(-0.1, 0.1);
  for (let j = 2; j < n / 3; j++) for (let i = 2; i < n / 3; i++) H[j * n + i] = pz;
  // steep curbs: +0.3 m along a column, −0.3 m along a row (one cell wide ramps)
  const ci = Math.floor(n / 2) + rng.int(-3, 3), cj = Math.floor((2 * n) / 3) + rng.int(-2, 2);
  for (let j = 0; j < n; j++) for (let i = ci; i < n; i++) H[j * n + i] += 0.3;
  for (let j = cj; j < n; j++) for (let i = 0; i < n; i++) H[j * n + i] -= 0.3;
  const features: Vec3[] = [];
  // single-cell spikes
  for (let s = 0; s < 6; s++) {
    const i = rng.int(3, n - 4), j = rng.int(3, n - 4);
    H[j * n + i] += rng.range(0.4, 0.8);
    features.push([x0 + i * dx, y0 + j * dx, H[j * n + i]]);
  }
  // a thin ridge one vertex wide along y
  const ri = rng.int(4, n - 5);
  for (let j = 4; j < n - 4; j++) {
    H[j * n + ri] += 0.25;
    if (j % 4 === 0) features.push([x0 + ri * dx, y0 + j * dx, H[j * n + ri]]);
  }
  const hf = Heightfield.fromArray({ cols: n, rows: n, dx, dy: dx, x0, y0, heights: H });
  return { hf, features };
}

/** Unit vector with elevation `el` (rad, negative = downward) and azimuth `az`. */
export function direction(az: number, el: number): Vec3 {
  return [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)];
}

/**
 * A random cast path over the scene: start above the terrain, direction from grazing (−1°) to
 * straight down, or aimed at a feature (spike tip, ridge) from any side, length 0.05–3 m.
 */
export function randomPath(rng: Rng, scene: SweptScene, clearance: number): { start: Vec3; motion: Vec3 } {
  const hf = scene.hf;
  const span = hf.cellsX * hf.dx;
  const kind = rng.next();
  let start: Vec3, dir: Vec3;
  const len = rng.range(0.05, 3);
  if (kind < 0.35) {
    // at a feature, from a random side, slightly off its tip
    const f = scene.features[rng.int(0, scene.features.length - 1)];
    dir = direction(rng.range(0, 2 * Math.PI), rng.range(-0.6, 0.15));
    const u = rng.range(0.2, 0.8);
    const off: Vec3 = [rng.range(-0.05, 0.05), rng.range(-0.05, 0.05), rng.range(-0.1, 0.05)];
    start = [f[0] + off[0] - u * len * dir[0], f[1] + off[1] - u * len * dir[1], f[2] + off[2] - u * len * dir[2]];
  } else {
    const el = kind < 0.7 ? -rng.range(0.2, 10) * (Math.PI / 180) : -rng.range(10, 90) * (Math.PI / 180); // grazing or steep
    dir = direction(rng.range(0, 2 * Math.PI), el);
    const x = hf.x0 + rng.range(-0.1, 1.1) * span, y = hf.y0 + rng.range(-0.1, 1.1) * span;
    const ground = hf.heightAt(x, y);
    start = [x, y, ground + clearance + rng.range(0, 0.4)];
  }
  return { start, motion: [len * dir[0], len * dir[1], len * dir[2]] };
}
