/**
 * The one shared scene and pose generator for the cylinder–terrain oracle test, the fuzz tests,
 * the peer cross-check and `npm run bench -- cylinder`, so all of them see identical poses.
 *
 * Scene: a 513 × 513 diamond-square terrain, dx = dy = 0.05 m (25.6 m square, centred on the
 * origin), amplitude 0.4 m, roughness 0.5, with CURB_COUNT axis-aligned 0.1 m curbs (steps up
 * or down over one cell, alternating x and y) — roughly half the poses have a curb under the wheel.
 *
 * Pose: a wheel (r = 0.3 m, width 0.2 m) with its axle horizontal up to a random roll
 * (|roll| ≤ MAX_ROLL), random yaw, at a random (x, y) at least POSE_MARGIN inside the map. Pitch
 * about the axle does not change a cylinder, so it is not sampled. The centre height puts the
 * cylinder's lowest point (world z) `penetration` ∈ [0, 5 cm] below the terrain height at that
 * point's (x, y) (heightAt, exact on the element surface), then moves it along z until the
 * oracle's maximum depth equals that penetration (a curb inside the wheel would otherwise make
 * it 10–40 cm), so every pose is a plausible resting state: on a bump, on a curb edge, against
 * a curb face.
 */
import { Rng } from '../../sim/math/random';
import type { Heightfield } from '../../sim/terrain/heightfield';
import { fractalTerrain, randomCurbs } from '../../sim/terrain/generate';
import { oracleMaxDepth, type CylinderPose } from './cylinder-oracle';

export const SCENE_COLS = 513;
/** [m] */
export const SCENE_DX = 0.05;
export const SCENE_SEED = 20251121;
/** [m] */
export const SCENE_AMPLITUDE = 0.4;
export const SCENE_ROUGHNESS = 0.5;
export const CURB_COUNT = 24;
/** [m] */
export const CURB_HEIGHT = 0.1;
/** [m] */
export const WHEEL_RADIUS = 0.3;
/** [m] Wheel width = cylinder height. */
export const WHEEL_WIDTH = 0.2;
/** [rad] 5°. */
export const MAX_ROLL = (5 * Math.PI) / 180;
/** [m] */
export const MAX_PENETRATION = 0.05;
/** [m] Keep wheels away from the map border. */
export const POSE_MARGIN = 1;
export const POSE_SEED = 424242;
/** Oracle evaluations that settle the wheel to its chosen depth (the last pose may stay off by < 1 mm). */
const PLACEMENT_ITERATIONS = 6;
/** [m] */
const PLACEMENT_TOLERANCE = 1e-4;

/** The benchmark/oracle terrain (cols defaults to 513; smaller sizes keep the same look). */
export function buildCylinderScene(cols = SCENE_COLS): Heightfield {
  const grid = { cols, dx: SCENE_DX };
  const curbs = randomCurbs(grid, { seed: SCENE_SEED + 1, count: CURB_COUNT, height: CURB_HEIGHT, margin: POSE_MARGIN });
  return fractalTerrain({ ...grid, seed: SCENE_SEED, amplitude: SCENE_AMPLITUDE, roughness: SCENE_ROUGHNESS, curbs });
}

export interface PoseOptions {
  radius?: number;
  width?: number;
  maxRoll?: number;
  maxPenetration?: number;
}

/** `count` seeded wheel poses over `hf` (pose k depends only on seed and k's predecessors). */
export function cylinderPoses(hf: Heightfield, count: number, seed = POSE_SEED, opts: PoseOptions = {}): CylinderPose[] {
  const rng = new Rng(seed);
  const r = opts.radius ?? WHEEL_RADIUS;
  const h = opts.width ?? WHEEL_WIDTH;
  const maxRoll = opts.maxRoll ?? MAX_ROLL;
  const maxPen = opts.maxPenetration ?? MAX_PENETRATION;
  const xLo = hf.x0 + POSE_MARGIN, xHi = hf.x0 + hf.cellsX * hf.dx - POSE_MARGIN;
  const yLo = hf.y0 + POSE_MARGIN, yHi = hf.y0 + hf.cellsY * hf.dy - POSE_MARGIN;
  const poses: CylinderPose[] = [];
  for (let k = 0; k < count; k++) {
    const x = rng.range(xLo, xHi);
    const y = rng.range(yLo, yHi);
    const yaw = rng.range(0, 2 * Math.PI);
    const roll = rng.range(-maxRoll, maxRoll);
    const pen = rng.range(0, maxPen);
    // Axle along +y at yaw 0, tilted up by `roll`.
    const v: [number, number, number] = [-Math.sin(yaw) * Math.cos(roll), Math.cos(yaw) * Math.cos(roll), Math.sin(roll)];
    // Lowest point relative to the centre: the lower base's centre plus r along the in-base
    // direction closest to −z, w = normalize(v_z·v − e_z).
    const sz = v[2] >= 0 ? -1 : 1;
    let wx = v[2] * v[0], wy = v[2] * v[1], wz = v[2] * v[2] - 1;
    const wl = Math.hypot(wx, wy, wz);
    wx /= wl; wy /= wl; wz /= wl;
    const ox = sz * (h / 2) * v[0] + r * wx;
    const oy = sz * (h / 2) * v[1] + r * wy;
    const oz = sz * (h / 2) * v[2] + r * wz;
    const ground = hf.heightAt(x + ox, y + oy);
    const pose: CylinderPose = { center: [x, y, ground - pen - oz], axis: v, radius: r, height: h };
    // A curb or bump inside the wheel makes the true depth larger than `pen`: lift (or lower)
    // the wheel until the oracle's maximum depth is `pen`. depth(z) is monotone with slope in
    // [−1, 0] (−n_z for faces), so the fixed-point step z += depth − pen converges.
    for (let it = 0; it < PLACEMENT_ITERATIONS; it++) {
      const d = oracleMaxDepth(pose, hf).depth;
      if (Math.abs(d - pen) < PLACEMENT_TOLERANCE) break;
      pose.center[2] += d - pen;
    }
    poses.push(pose);
  }
  return poses;
}
