/**
 * A VehicleRunner over any world with the plain API of issue #13 (`createWorld`, `step()`,
 * `state()`), so our engine joins the table with one line in vehicle.bench.ts:
 *
 *   import { createWorld } from '../../sim/...';            // wherever the world lives
 *   import { plainWorldRunner } from './vehicle/plain-world-runner';
 *   () => plainWorldRunner('ours', 'analytic wheel contacts, soft-step solver, …', createWorld),
 *
 * The world is built from vehicleSceneWorldSpec(scene, wheels, { dt, substeps }) with the
 * scene's Heightfield passed beside the spec. Poses are read through state() by body name
 * (outside the timed step() calls, so its allocations do not count); a wheel's axle is its
 * local z. If the world has stepSplit() (cumulative ms per stage) the bench prints the split.
 */
import type { WorldSpec } from '../../../sim/dynamics/spec';
import type { Heightfield } from '../../../sim/terrain/heightfield';
import { BODY_POSE_STRIDE, WHEEL_POSE_STRIDE, type VehicleRunner } from './harness';
import { vehicleSceneWorldSpec, wheelStarts, type VehicleScene, type WheelCount } from './scene';

export interface PlainBodyState {
  name: string;
  position: ArrayLike<number>;
  /** [x, y, z, w] */
  orientation: ArrayLike<number>;
}

/** What the runner needs of a world (the plain API is a superset). */
export interface PlainWorldLike {
  step(n?: number): void;
  state(): { bodies: ArrayLike<PlainBodyState> };
  dispose?(): void;
  stepSplit?(): Record<string, number>;
}

export type CreateWorldLike = (args: { spec: WorldSpec; terrain: Heightfield }) => PlainWorldLike;

export interface PlainWorldRunnerOptions {
  /** Solver substeps per step written into the spec (default: vehicleSceneWorldSpec's). */
  substeps?: number;
  /** Default true. */
  sleep?: boolean;
}

export function plainWorldRunner(name: string, description: string, createWorld: CreateWorldLike, opts: PlainWorldRunnerOptions = {}): VehicleRunner {
  let world: PlainWorldLike | null = null;
  let chassisIndex = -1;
  let wheelIndex: number[] = [];
  let rockIndex: number[] = [];
  const pose = (out: Float64Array, o: number, b: PlainBodyState): void => {
    out[o] = b.position[0]; out[o + 1] = b.position[1]; out[o + 2] = b.position[2];
    out[o + 3] = b.orientation[0]; out[o + 4] = b.orientation[1]; out[o + 5] = b.orientation[2]; out[o + 6] = b.orientation[3];
  };
  const runner: VehicleRunner = {
    name,
    description,
    setup(scene: VehicleScene, wheels: WheelCount, dt: number) {
      const spec = vehicleSceneWorldSpec(scene, wheels, { dt, substeps: opts.substeps, sleep: opts.sleep });
      const w = createWorld({ spec, terrain: scene.terrain });
      world = w;
      const bodies = w.state().bodies;
      const byName = new Map<string, number>();
      for (let k = 0; k < bodies.length; k++) byName.set(bodies[k].name, k);
      const find = (n: string): number => {
        const k = byName.get(n);
        if (k === undefined) throw new Error(`${name}: state() has no body named ${n}`);
        return k;
      };
      chassisIndex = find('chassis');
      wheelIndex = wheelStarts(scene, wheels).map((ws) => find(ws.name));
      rockIndex = scene.rocks.map((r) => find(r.name));
    },
    step() {
      world!.step();
    },
    chassisPose(out) {
      pose(out, 0, world!.state().bodies[chassisIndex]);
    },
    wheelPoses(out) {
      const bodies = world!.state().bodies;
      for (let k = 0; k < wheelIndex.length; k++) {
        const b = bodies[wheelIndex[k]];
        const [x, y, z, w] = [b.orientation[0], b.orientation[1], b.orientation[2], b.orientation[3]];
        const o = k * WHEEL_POSE_STRIDE;
        out[o] = b.position[0]; out[o + 1] = b.position[1]; out[o + 2] = b.position[2];
        // Local z (the cylinder's axis = the axle) in world: the third column of R(q).
        out[o + 3] = 2 * (x * z + w * y);
        out[o + 4] = 2 * (y * z - w * x);
        out[o + 5] = 1 - 2 * (x * x + y * y);
      }
    },
    rockPoses(out) {
      const bodies = world!.state().bodies;
      for (let k = 0; k < rockIndex.length; k++) pose(out, k * BODY_POSE_STRIDE, bodies[rockIndex[k]]);
    },
    dispose() {
      world?.dispose?.();
      world = null;
    },
  };
  runner.stepSplit = () => world?.stepSplit?.() ?? {};
  return runner;
}
