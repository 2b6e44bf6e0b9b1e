const hfWs = new ConvexHeightfieldWorkspace();

/**
 * The projectile trials at the query level: a 0.02 m sphere (radius) and a 0.05 m box
 * (edge; random orientation) fired at 200 m/s and 1,000 m/s from random angles, dt = 1/240 s
 * (0.83 m and 4.17 m per step), 1,000 seeded trials each
 *   - at a static wall 0.01 m thick (a box, 2 m × 2 m), hit point anywhere on its face, angles
 *     up to 80° off the wall normal: castShape over one step's motion must report the hit;
 *   - at the heightfield (swept-scenes.ts: curbs, single-cell spikes, a thin ridge, grazing
 *     angles from 1° to 90° below the horizon): castShapeTerrain must report the hit.
 * Every path is built through a point ON the obstacle's surface from a start pose that is
 * clear of it, so every trial is a real impact: zero misses allowed. The discrete check (the
 * end pose alone: queryConvex for the wall, collideConvexHeightfield for the terrain) is run on
 * the same trials and misses many of them — the trials can fail (and do, for a discrete test).
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../sim/collision/contact';
import { collideConvexHeightfield } from '../../sim/collision/convex-heightfield/collide';
import { queryConvex } from '../../sim/collision/query-convex';
import type { ConvexBodyDesc } from '../../sim/collision/query-convex';
import { castShape, castShapeTerrain } from '../../sim/collision/swept/plain-api';
import { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import { shapeFromDesc } from '../../sim/shapes/shape-desc';
import type { ShapeDesc } from '../../sim/shapes/shape-desc';
import { direction, sweptScene } from './swept-scenes';
import { ConvexHeightfieldWorkspace } from '../../sim/collision/convex-heightfield/workspace';

const TRIALS = 1000;
const DT = 1 / 240;
const WALL_HALF_THICKNESS = 0.005;
const SPHERE: ShapeDesc = { type: 'sphere', radius: 0.02 };
const BOX: ShapeDesc = { type: 'box', halfExtents: [0.025, 0.025, 0.025] };
const WALL: ConvexBodyDesc = { shape: { type: 'box', halfExtents: [WALL_HALF_THICKNESS, 1, 1] }, position: [0, 0, 0], orientation: [0, 0, 0, 1] };

function randomQuat(rng: Rng): [number, number, number, number] {
  const q = [rng.gaussian(), rng.gaussian(), rng.gaussian(), rng.gaussian()];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

const at = (s: Vec3, m: Vec3, t: number): [number, number, number] => [s[0] + t * m[0], s[1] + t * m[1], s[2] + t * m[2]];

interface Tally {
  castMisses: number;
  discreteMisses: number;
}

describe('projectile trials at a 0.01 m wall (query level)', () => {
  for (const [name, shape] of [['sphere r 0.02 m', SPHERE], ['box 0.05 m', BOX]] as const) {
    for (const speed of [200, 1000]) {
      it(`${name} at ${speed} m/s: ${TRIALS} trials, zero misses; the end-pose test misses many`, () => {
        const rng = new Rng(speed * 31 + (shape === SPHERE ? 1 : 2));
        const L = speed * DT;
        const tally: Tally = { castMisses: 0, discreteMisses: 0 };
        for (let n = 0; n < TRIALS; n++) {
          // a direction within 80° of +x, through a point on the wall's −x face
          let dir: Vec3;
          do dir = [rng.gaussian(), rng.gaussian(), rng.gaussian()]; while (Math.hypot(...dir) === 0);
          const l = Math.hypot(...dir);
          dir = [Math.abs(dir[0]) / l, dir[1] / l, dir[2] / l];
          if (dir[0] < Math.cos((80 * Math.PI) / 180)) {
            const s = Math.sqrt((1 - 0.18 * 0.18) / (dir[1] * dir[1] + dir[2] * dir[2]));
            dir = [0.18, dir[1] * s, dir[2] * s];
          }
          const hitPoint: Vec3 = [-WALL_HALF_THICKNESS, rng.range(-0.9, 0.9), rng.range(-0.9, 0.9)];
          const motion: Vec3 = [L * dir[0], L * dir[1], L * dir[2]];
          const orientation = randomQuat(rng);
          let start: [number, number, number];
          let tries = 0;
          do {
            start = at(hitPoint, motion, -rng.range(0.02, 0.98));
            tries++;
          } while (queryConvex({ shape, position: start, orientation }, WALL).intersecting && tries < 100);
          const a: ConvexBodyDesc = { shape, position: start, orientation };
          const r = castShape(a, motion, WALL);
          if (!r.hit) tally.castMisses++;
          if (!queryConvex({ shape, position: at(start, motion, 1), orientation }, WALL).intersecting) tally.discreteMisses++;
        }
        console.log(`wall, ${name}, ${speed} m/s: cast misses ${tally.castMisses}/${TRIALS}, end-pose test misses ${tally.discreteMisses}/${TRIALS}`);
        expect(tally.castMisses).toBe(0);
        expect(tally.discreteMisses).toBeGreaterThan(TRIALS / 2);
      });
    }
  }
});

describe('projectile trials at the heightfield (query level)', () => {
  const scene = sweptScene(15004);
  const hf = scene.hf;
  for (const [name, shape] of [['sphere r 0.02 m', SPHERE], ['box 0.05 m', BOX]] as const) {
    for (const speed of [200, 1000]) {
      it(`${name} at ${speed} m/s: ${TRIALS} trials over curbs, spikes and grazing angles, zero misses`, () => {
        const rng = new Rng(speed * 37 + (shape === SPHERE ? 1 : 2));
        const L = speed * DT;
        const engineShape = shapeFromDesc(shape);
        const buf = new ContactBuffer(64);
        const tally: Tally = { castMisses: 0, discreteMisses: 0 };
        let grazing = 0, skipped = 0;
        for (let n = 0; n < TRIALS; n++) {
          // target: a spike tip or ridge vertex (a third of the trials), else a random surface
          // point; direction and start drawn again until the start is clear of the terrain
          let a: ConvexBodyDesc | null = null;
          let motion: Vec3 = [0, 0, 0];
          let shallow = false;
          for (let tries = 0; tries < 50 && a === null; tries++) {
            let target: Vec3;
            if (rng.next() < 0.33) {
              const f = scene.features[rng.int(0, scene.features.length - 1)];
              target = [f[0], f[1], f[2]];
            } else {
              const x = hf.x0 + rng.range(0.05, 0.95) * hf.cellsX * hf.dx, y = hf.y0 + rng.range(0.05, 0.95) * hf.cellsY * hf.dy;
              target = [x, y, hf.heightAt(x, y)];
            }
            const el = rng.next() < 0.4 ? -rng.range(1, 10) : -rng.range(10, 90);
            shallow = el > -10;
            const dir = direction(rng.range(0, 2 * Math.PI), (el * Math.PI) / 180);
            motion = [L * dir[0], L * dir[1], L * dir[2]];
            const cand: ConvexBodyDesc = { shape, position: at(target, motion, -rng.range(0.02, 0.98)), orientation: randomQuat(rng) };
            if (!castShapeTerrain(cand, [0, 0, 0], hf).hit) a = cand; // not touching at the start
          }
          if (a === null) {
            skipped++;
            continue;
          }
          if (shallow) grazing++;
          const r = castShapeTerrain(a, motion, hf);
          if (!r.hit) tally.castMisses++;
          buf.clear();
          collideConvexHeightfield(buf, engineShape, { position: at(a.position, motion, 1), orientation: a.orientation }, hf, 0, hfWs);
          if (buf.count === 0) tally.discreteMisses++;
        }
        console.log(`heightfield, ${name}, ${speed} m/s: cast misses ${tally.castMisses}/${TRIALS - skipped}, ` +
          `end-pose test misses ${tally.discreteMisses}/${TRIALS - skipped} (${grazing} grazing shots, ${skipped} starts not clear)`);
        expect(tally.castMisses).toBe(0);
        expect(skipped).toBe(0);
        expect(grazing).toBeGreaterThan(TRIALS / 4);
        expect(tally.discreteMisses).toBeGreaterThan(0);
      });
    }
  }
});
