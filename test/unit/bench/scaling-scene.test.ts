/**
 * The scaling bench's scene (test/bench/scaling.bench.ts, issue #29's large case): four vehicles
 * in one world spec, each wheel on its own chassis, and Jolt's HeightFieldShape of our grid
 * placed where our terrain is (its height axis, its sample order and the body's rotation: a
 * transposed or mirrored grid puts the heights elsewhere, which the vertex check below catches).
 */
import initJolt from 'jolt-physics/wasm-compat';
import { describe, expect, it } from 'vitest';
import { Heightfield, Rng } from '../../../sim';
import { JOLT_HEIGHTFIELD_ROTATION, joltTerrainHeightField } from '../../oracle/peer-mesh';
import { pile, scalingBase, scattered } from '../../bench/scaling.bench';
import { vehicleSceneWorldSpec, vehicleStarts, wheelLayout } from '../../bench/vehicle/scene';

describe('scaling bench scene', () => {
  const base = scalingBase(129);

  it('has four vehicles, each wheel jointed to its own chassis at its mount', () => {
    const spec = vehicleSceneWorldSpec(scattered(base, 20, 7), 4);
    const vehicles = vehicleStarts(base);
    expect(vehicles.map((v) => v.suffix)).toEqual(['', '_v1', '_v2', '_v3']);
    expect(spec.bodies).toHaveLength(4 * 5 + 20);
    expect(spec.joints).toHaveLength(16);
    expect(new Set(spec.bodies.map((b) => b.name)).size).toBe(spec.bodies.length);
    const byName = new Map(spec.bodies.map((b) => [b.name, b]));
    for (const v of vehicles) {
      const chassis = byName.get('chassis' + v.suffix)!;
      expect(chassis.position).toEqual(v.chassis);
      for (const w of wheelLayout(4)) {
        const wheel = byName.get(w.name + v.suffix)!;
        const joint = spec.joints.find((j) => j.name === w.joint + v.suffix)!;
        expect(joint).toMatchObject({ bodyA: 'chassis' + v.suffix, bodyB: w.name + v.suffix });
        for (let k = 0; k < 3; k++) expect((wheel.position as number[])[k]).toBeCloseTo(v.chassis[k] + w.mount[k], 12);
        // 2 cm or more above the ground under the wheel
        const p = wheel.position as number[];
        expect(p[2] - 0.15 - base.terrain.heightAt(p[0], p[1])).toBeGreaterThan(0.015);
      }
    }
  });

  it('keeps scattered rocks off every vehicle start and builds piles of n boxes', () => {
    const s = scattered(base, 50, 3);
    for (const r of s.rocks) for (const v of vehicleStarts(base)) expect(Math.hypot(r.position[0] - v.chassis[0], r.position[1] - v.chassis[1])).toBeGreaterThanOrEqual(1);
    expect(pile(base, 300, 1).rocks).toHaveLength(300);
  });

  it("Jolt's HeightFieldShape has our heights at our grid vertices (within its 8-bit blocks)", async () => {
    const J = await initJolt();
    const rng = new Rng(29);
    const n = 33, dx = 0.05, x0 = -0.7, y0 = 0.4;
    const heights = new Float64Array(n * n);
    // a tilted plane plus noise: neither symmetric under a transpose nor under a mirror
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) heights[j * n + i] = 0.3 * i * dx - 0.1 * j * dx + 0.02 * rng.next();
    const hf = Heightfield.fromArray({ cols: n, rows: n, dx, dy: dx, x0, y0, heights });
    const shape = joltTerrainHeightField(J, hf);
    const q = JOLT_HEIGHTFIELD_ROTATION;
    const ray = new J.RRayCast();
    const hit = new J.RayCastResult();
    const rot = new J.Quat(q[0], q[1], q[2], q[3]);
    const ts = new J.TransformedShape();
    ts.mShape = shape;
    ts.mShapePositionCOM = new J.RVec3(0, 0, 0);
    ts.mShapeRotation = rot;
    let worst = 0;
    let misses = 0;
    // every inner vertex (Jolt's grid edge samples are not all inside its bounds)
    for (let j = 1; j < n - 1; j++) for (let i = 1; i < n - 1; i++) {
      const x = hf.vertexX(i), y = hf.vertexY(j);
      ray.mOrigin.Set(x, y, 5);
      ray.mDirection.Set(0, 0, -10);
      hit.mFraction = 1.0000001;
      ts.CastRay(ray, hit);
      if (!(hit.mFraction <= 1)) { misses++; continue; }
      worst = Math.max(worst, Math.abs(5 - 10 * hit.mFraction - hf.height(i, j)));
    }
    J.destroy(ray); J.destroy(hit);
    expect(misses).toBe(0);
    // 8 bits over a block's height range (≤ 3 cm here): ≤ 0.12 mm, plus float32 rounding
    expect(worst).toBeLessThan(2e-4);
  });
});
