/**
 * element-walls.ts, sideBound: the cheap upper bound of a side's deepest point that lets
 * measureWall skip measuring (sideDepth). It must never be below what sideDepth returns (that
 * would drop a wall), and below it never by more than round-off; checked here against sideDepth
 * and against a dense sampling of F along the side written from the header's definition (point X
 * of the side in the cylinder: F(X) = min(ζ/cosθ, (√(r² − η²) − ξ)/sinθ), ζ, ξ, η from the
 * cylinder's own axis and centre, not the frame's), on every side of every element under seeded
 * wheel and tilted-cylinder poses. It must also be tight where it matters (else it saves nothing).
 */
import { describe, expect, it } from 'vitest';
import { sideBound, sideDepth, WallSide } from '../../../sim/collision/cylinder-terrain/element-walls';
import { CylinderQuery, ElementFrame, ElementTest, setElementFrame } from '../../../sim/collision/cylinder-terrain/frame';
import { Rng } from '../../../sim/math/random';
import { fractalTerrain, randomCurbs } from '../../../sim/terrain/generate';
import { ElementKind } from '../../../sim/terrain/heightfield';
import { dot, norm, type V3 } from './helpers';

const COLS = 65;
const DX = 0.05;
const grid = { cols: COLS, dx: DX };
const hf = fractalTerrain({ ...grid, seed: 51, amplitude: 0.3, roughness: 0.55, curbs: randomCurbs(grid, { seed: 52, count: 6, height: 0.1, margin: 0.6 }) });

/** Sides as vertex offsets (i, j) of their two ends: bottom, right, top, left, diagonal V1–V2. */
const SIDES: [number, number, number, number][] = [[0, 0, 1, 0], [1, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1], [1, 0, 0, 1]];

/** max of F over `samples` + 1 evenly spaced points of segment A→B inside the cylinder (0 if none is), from the definition. */
function sampledMax(a: V3, b: V3, center: V3, axis: V3, r: number, hh: number, n: V3, samples: number): number {
  const d = dot(axis, n);
  const up: V3 = d < 0 ? [-axis[0], -axis[1], -axis[2]] : axis; // lower base → upper base
  const cos = Math.abs(d);
  const wr: V3 = [cos * up[0] - n[0], cos * up[1] - n[1], cos * up[2] - n[2]];
  const sin = Math.hypot(wr[0], wr[1], wr[2]);
  const w = norm(wr);
  const cl: V3 = [center[0] - hh * up[0], center[1] - hh * up[1], center[2] - hh * up[2]];
  let best = 0;
  for (let k = 0; k <= samples; k++) {
    const t = k / samples;
    const x: V3 = [a[0] + t * (b[0] - a[0]) - cl[0], a[1] + t * (b[1] - a[1]) - cl[1], a[2] + t * (b[2] - a[2]) - cl[2]];
    const zeta = dot(x, up), xi = dot(x, w);
    const rad2 = dot(x, x) - zeta * zeta; // ξ² + η²
    if (zeta < 0 || zeta > 2 * hh || rad2 > r * r) continue;
    const eta2 = Math.max(0, rad2 - xi * xi);
    const G = (Math.sqrt(Math.max(0, r * r - eta2)) - xi) / sin;
    const F = cos > 0 ? Math.min(zeta / cos, G) : G;
    best = Math.max(best, F);
  }
  return best;
}

describe('element walls: sideBound', () => {
  it('is at least sideDepth and the sampled maximum of F on every side under 120 seeded poses, and within 1 mm of sideDepth on a third of the wheel sides that reach in', () => {
    const rng = new Rng(7);
    const q = new CylinderQuery();
    const f = new ElementFrame();
    const s = new WallSide();
    const half = ((COLS - 1) * DX) / 2 - 0.5;
    const below: string[] = [];
    let sides = 0, sampled = 0, reaching = 0, tight = 0;
    for (let p = 0; p < 120; p++) {
      const wheel = p % 3 !== 0; // then a tilted cylinder
      const yaw = rng.range(0, 2 * Math.PI);
      const tilt = wheel ? rng.range(-0.1, 0.1) : rng.range(0.2, 1.2);
      const axis = norm([Math.cos(yaw) * Math.cos(tilt), Math.sin(yaw) * Math.cos(tilt), Math.sin(tilt)]);
      const r = rng.range(0.1, 0.3), hh = rng.range(0.05, 0.12);
      const x = rng.range(-half, half), y = rng.range(-half, half);
      const low = hh * Math.abs(axis[2]) + r * Math.sqrt(Math.max(0, 1 - axis[2] * axis[2]));
      const center: V3 = [x, y, hf.heightAt(x, y) + low - rng.range(0, 0.05)];
      q.set(center, axis, { radius: r, halfHeight: hh }, hf);
      const ci = Math.floor((x - hf.x0) / DX), cj = Math.floor((y - hf.y0) / DX);
      const reach = Math.ceil((r + hh) / DX);
      for (let j = cj - reach; j <= cj + reach; j++) {
        for (let i = ci - reach; i <= ci + reach; i++) {
          for (const kind of [ElementKind.LowerTriangle, ElementKind.UpperTriangle]) {
            if (setElementFrame(f, q, hf, i, j, kind) !== ElementTest.Frame) continue;
            const n: V3 = [f.nx, f.ny, f.nz];
            for (const [ia, ja, ib, jb] of SIDES) {
              const va: V3 = [hf.x0 + (i + ia) * DX, hf.y0 + (j + ja) * DX, hf.heights[(j + ja) * hf.cols + i + ia]];
              const vb: V3 = [hf.x0 + (i + ib) * DX, hf.y0 + (j + jb) * DX, hf.heights[(j + jb) * hf.cols + i + ib]];
              s.xa = va[0]; s.ya = va[1]; s.za = va[2];
              s.ex = vb[0] - va[0]; s.ey = vb[1] - va[1]; s.ez = vb[2] - va[2];
              sideBound(f, s);
              sideDepth(f, s);
              sides++;
              // Depths are ≥ 0 (0: no point of the side reaches in); a bound below 0 says so too.
              const bound = Math.max(0, s.bound);
              if (!(bound >= s.depth)) below.push(`pose ${p} cell ${i},${j} kind ${kind}: bound ${s.bound} < sideDepth ${s.depth}`);
              if (bound > 0) {
                sampled++;
                const m = sampledMax(va, vb, center, axis, r, hh, n, 100);
                if (!(bound >= m - 1e-12)) below.push(`pose ${p} cell ${i},${j} kind ${kind}: bound ${s.bound} < sampled ${m}`);
              }
              if (wheel && s.depth > 0) {
                reaching++;
                if (s.bound - s.depth < 1e-3) tight++; // 41 % on this set
              }
            }
          }
        }
      }
    }
    expect(below).toEqual([]);
    expect(sides).toBeGreaterThan(50000);
    expect(sampled).toBeGreaterThan(2000);
    expect(reaching).toBeGreaterThan(500);
    expect(tight / reaching).toBeGreaterThan(0.35);
  });
});
