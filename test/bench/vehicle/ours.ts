/**
 * Our world in the standard vehicle scene: the scene's WorldSpec (scene.ts) built by
 * createDynamicsWorld, stepped as the app steps it.
 */
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { robotDriveController } from '../../../sim/robot/controllers/world-drive';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import type { VehicleRunner } from './harness';
import type { VehicleScene, WheelCount } from './scene';
import { vehicleSceneWorldSpec, wheelLayout } from './scene';

export function oursRunner(opts: { substeps?: number; name?: string; ccd?: boolean } = {}): VehicleRunner {
  let world: DynamicsWorld | null = null;
  let wheelIdx: number[] = [];
  let rockIdx: number[] = [];
  let chassis = 0;
  const substeps = opts.substeps ?? 4;
  const o = [0, 0, 0] as [number, number, number];
  return {
    name: opts.name ?? 'ours',
    description: `TerraWheel dynamics world: soft-step solver, ${substeps} substeps, analytic wheel contacts with speculative margin, sleeping on, continuous collision ${opts.ccd ? 'on' : 'off'}`,
    setup(scene: VehicleScene, wheels: WheelCount, dt: number) {
      const spec = vehicleSceneWorldSpec(scene, wheels, { dt, substeps });
      spec.ccd = opts.ccd ?? false;
      world = createDynamicsWorld(spec, scene.terrain, robotDriveController);
      const names = world.bodies.names;
      chassis = names.indexOf('chassis');
      wheelIdx = wheelLayout(wheels).map((w) => names.indexOf(w.name));
      rockIdx = scene.rocks.map((r) => names.indexOf(r.name));
    },
    step() {
      world!.step(1);
    },
    chassisPose(out) {
      const b = world!.bodies;
      b.originOf(o, chassis);
      out[0] = o[0]; out[1] = o[1]; out[2] = o[2];
      for (let k = 0; k < 4; k++) out[3 + k] = b.rot[4 * chassis + k];
    },
    wheelPoses(out) {
      const b = world!.bodies;
      wheelIdx.forEach((w, k) => {
        b.shapePose(o, [0, 0, 0, 1], w);
        const q = b.rot.subarray(4 * w, 4 * w + 4);
        out[6 * k] = o[0]; out[6 * k + 1] = o[1]; out[6 * k + 2] = o[2];
        out[6 * k + 3] = 2 * (q[0] * q[2] + q[1] * q[3]);
        out[6 * k + 4] = 2 * (q[1] * q[2] - q[0] * q[3]);
        out[6 * k + 5] = 1 - 2 * (q[0] * q[0] + q[1] * q[1]);
      });
    },
    rockPoses(out) {
      const b = world!.bodies;
      rockIdx.forEach((r, k) => {
        b.originOf(o, r);
        out[7 * k] = o[0]; out[7 * k + 1] = o[1]; out[7 * k + 2] = o[2];
        for (let i = 0; i < 4; i++) out[7 * k + 3 + i] = b.rot[4 * r + i];
      });
    },
    dispose() {
      world = null;
    },
  };
}
