/**
 * Smoke test of the vehicle benchmark's scene (test/bench/vehicle/scene.ts): it is deterministic
 * (pinned heights hash: a change to the terrain generators changes the benchmark scene, and this
 * says so), and vehicleSceneWorldSpec is well-formed and says what the scene says. The benchmark
 * itself runs only under `npm run bench -- vehicle`.
 */
import { describe, expect, it } from 'vitest';
import { collideCylinderTerrain } from '../../../sim/collision/cylinder-terrain/plain-api';
import type { QuatSpec, Vec3Spec } from '../../../sim/dynamics/spec';
import {
  buildVehicleScene,
  heightsHash,
  quatRotate,
  ROCK_COUNT,
  ROCK_DROP_CLEARANCE,
  VEHICLE_SCENE_SEED,
  vehicleSceneWorldSpec,
  wheelStarts,
  type VehicleScene,
} from '../../bench/vehicle/scene';

/** Heights hash of buildVehicleScene() (default seed) on every JS engine. */
const PINNED_HEIGHTS_HASH = 'b9cb1571';

const scene: VehicleScene = buildVehicleScene();

function cross(a: Vec3Spec, b: Vec3Spec): Vec3Spec {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

describe('vehicle bench scene', () => {
  it('is deterministic: same seed, same heights and rocks; another seed, other heights', () => {
    const again = buildVehicleScene(VEHICLE_SCENE_SEED);
    expect(heightsHash(scene.terrain)).toBe(PINNED_HEIGHTS_HASH);
    expect(heightsHash(again.terrain)).toBe(heightsHash(scene.terrain));
    expect(JSON.stringify(again.rocks)).toBe(JSON.stringify(scene.rocks));
    expect(again.chassis.position).toEqual(scene.chassis.position);
    expect(heightsHash(buildVehicleScene(VEHICLE_SCENE_SEED + 1).terrain)).not.toBe(PINNED_HEIGHTS_HASH);
  });

  it('has the issue\'s terrain: 513², dx 0.05 m, about 1 m of relief', () => {
    const hf = scene.terrain;
    expect([hf.cols, hf.rows, hf.dx, hf.dy]).toEqual([513, 513, 0.05, 0.05]);
    expect(hf.maxHeight - hf.minHeight).toBeGreaterThan(0.7);
    expect(hf.maxHeight - hf.minHeight).toBeLessThan(1.5);
  });

  it('drops every rock 3 cm above the terrain, without overlaps', () => {
    expect(scene.rocks).toHaveLength(ROCK_COUNT);
    for (const r of scene.rocks) {
      const pts: Vec3Spec[] = r.shape.type === 'hull' ? r.shape.points : [];
      if (r.shape.type === 'box') {
        const h = r.shape.halfExtents;
        for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) pts.push([sx * h[0], sy * h[1], sz * h[2]]);
      }
      // Every vertex at least the clearance above the terrain under it.
      for (const p of pts) {
        const w = quatRotate(r.orientation, p);
        const x = r.position[0] + w[0], y = r.position[1] + w[1], z = r.position[2] + w[2];
        expect(z - scene.terrain.heightAt(x, y)).toBeGreaterThan(ROCK_DROP_CLEARANCE - 1e-9);
      }
      expect(r.mass).toBeGreaterThan(0);
      expect(r.halfSize).toBeGreaterThan(0);
      expect(r.halfSize).toBeLessThan(r.boundingRadius);
    }
    for (let a = 0; a < scene.rocks.length; a++) {
      for (let b = a + 1; b < scene.rocks.length; b++) {
        const ra = scene.rocks[a], rb = scene.rocks[b];
        const d = Math.hypot(ra.position[0] - rb.position[0], ra.position[1] - rb.position[1]);
        expect(d).toBeGreaterThan(ra.boundingRadius + rb.boundingRadius);
      }
    }
  });

  for (const wheels of [4, 6] as const) {
    it(`vehicleSceneWorldSpec(scene, ${wheels}) is well-formed and matches the scene`, () => {
      const spec = vehicleSceneWorldSpec(scene, wheels, { dt: 1 / 1000 });
      expect(spec.dt).toBe(1 / 1000);
      expect(spec.gravity).toEqual([0, 0, -9.81]);
      expect(spec.materials.default).toEqual({ friction: 1, restitution: 0, rollingResistance: 0 });
      expect(spec.bodies).toHaveLength(1 + wheels + ROCK_COUNT);
      const names = new Set(spec.bodies.map((b) => b.name));
      expect(names.size).toBe(spec.bodies.length);
      for (const b of spec.bodies) {
        expect((b.type ?? 'dynamic') === 'dynamic' && (b.mass ?? b.density ?? 0) > 0).toBe(true);
        const q = b.orientation as QuatSpec;
        expect(Math.hypot(...q)).toBeCloseTo(1, 12);
        expect(b.material ?? 'default').toBe('default');
      }
      const chassis = spec.bodies[0];
      expect(chassis).toMatchObject({ name: 'chassis', mass: 40, shape: { type: 'box', halfExtents: [0.5, 0.3, 0.15] }, orientation: [0, 0, 0, 1] });
      const starts = wheelStarts(scene, wheels);
      expect(spec.joints).toHaveLength(wheels);
      const mounts = new Set<string>();
      for (let k = 0; k < wheels; k++) {
        const wb = spec.bodies[1 + k];
        const j = spec.joints[k];
        expect(wb).toMatchObject({ name: starts[k].name, mass: 2, shape: { type: 'cylinder', radius: 0.15, height: 0.1 } });
        // The cylinder's local z (its axis) is the chassis y.
        const axle = quatRotate(wb.orientation as QuatSpec, [0, 0, 1]);
        expect(axle[0]).toBeCloseTo(0, 12);
        expect(axle[1]).toBeCloseTo(1, 12);
        expect(axle[2]).toBeCloseTo(0, 12);
        expect(j).toMatchObject({ type: 'revolute', bodyA: 'chassis', bodyB: wb.name, axis: [0, 1, 0], motor: { targetVelocity: 5, maxTorque: 20 } });
        expect(j.anchor).toEqual(wb.position);
        const local = [0, 1, 2].map((i) => (wb.position as Vec3Spec)[i] - (chassis.position as Vec3Spec)[i]);
        // x = ±0.35 (or 0, the six-wheeler's middle pair)
        expect(Math.min(Math.abs(Math.abs(local[0]) - 0.35), Math.abs(local[0]))).toBeLessThan(1e-12);
        expect(Math.abs(local[1])).toBeCloseTo(0.36, 12);
        expect(local[2]).toBeCloseTo(-0.15, 12);
        mounts.add(`${local[0].toFixed(2)},${local[1].toFixed(2)}`);
        // Positive target velocity about the axis moves the contact point (below the centre)
        // toward −x relative to the wheel centre: the vehicle rolls toward +x.
        const omega = j.axis!.map((a) => a * j.motor!.targetVelocity) as Vec3Spec;
        expect(cross(omega, [0, 0, -0.15])[0]).toBeLessThan(0);
        // Starts above the terrain: the exact query finds no penetration.
        const hit = collideCylinderTerrain({ center: wb.position!, axis: axle, radius: 0.15, height: 0.1 }, scene.terrain);
        expect(hit.contacts.every((c) => c.depth < 1e-9)).toBe(true);
      }
      expect(mounts.size).toBe(wheels);
      for (const j of spec.joints) {
        expect(names.has(j.bodyA!)).toBe(true);
        expect(names.has(j.bodyB)).toBe(true);
      }
      const rockBodies = spec.bodies.slice(1 + wheels);
      for (let k = 0; k < rockBodies.length; k++) {
        expect(rockBodies[k]).toMatchObject({ name: scene.rocks[k].name, density: 2000, position: scene.rocks[k].position });
        const shape = rockBodies[k].shape;
        if (shape.type === 'hull') expect(shape.points.length).toBeGreaterThanOrEqual(4);
        else expect(shape.type).toBe('box');
      }
    });
  }
});
