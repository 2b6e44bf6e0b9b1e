/**
 * A fixed scene for the determinism tests: the rover driving over seeded bumpy terrain among a
 * few boxes, spheres and hulls, with a trailer on a ball joint, sleep on. Run as a script, it
 * prints the state hash after STEPS steps (a fresh process, for the cross-process test).
 */
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { robotDriveController } from '../../../sim/robot/controllers/world-drive';
import type { BodySpec, JointSpec, WorldSpec } from '../../../sim/dynamics/spec';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { Rng } from '../../../sim/math/random';
import { rover } from './helpers';

export const GOLDEN_STEPS = 480;

export function goldenSpec(): { spec: WorldSpec; terrain: Heightfield } {
  const rng = new Rng(1234);
  const n = 161, d = 0.05;
  const heights = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) heights[j * n + i] = 0.08 * Math.sin(i * 0.11) * Math.cos(j * 0.07) + 0.01 * rng.next();
  const terrain = Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -4, y0: -4, heights });
  const r = rover({ x: -1, z: 0.45 });
  const bodies: BodySpec[] = [...r.bodies];
  const joints: JointSpec[] = [...r.joints];
  bodies.push({ name: 'trailer', shape: { type: 'box', halfExtents: [0.3, 0.25, 0.1] }, mass: 10, position: [-2.0, 0, 0.45] });
  joints.push({ type: 'ball', name: 'hitch', bodyA: 'chassis', bodyB: 'trailer', anchor: [-1.6, 0, 0.45] });
  for (let k = 0; k < 8; k++) {
    const pos: [number, number, number] = [rng.range(-0.5, 2.5), rng.range(-1, 1), 0.4 + 0.1 * k];
    const kind = k % 3;
    const shape = kind === 0
      ? { type: 'box' as const, halfExtents: [rng.range(0.03, 0.07), rng.range(0.03, 0.07), rng.range(0.03, 0.07)] as [number, number, number] }
      : kind === 1
        ? { type: 'sphere' as const, radius: rng.range(0.04, 0.08) }
        : { type: 'hull' as const, points: Array.from({ length: 12 }, () => [rng.range(-0.06, 0.06), rng.range(-0.06, 0.06), rng.range(-0.06, 0.06)] as [number, number, number]) };
    bodies.push({ name: `rock${k}`, shape, density: 2000, position: pos });
  }
  const spec: WorldSpec = {
    name: 'golden', gravity: [0, 0, -9.81], dt: 1 / 240, substeps: 4, sleep: true, ccd: false,
    materials: { default: { friction: 0.9, rollingResistance: 0.01 }, rubber: { friction: 1.1, restitution: 0.3 } },
    terrainMaterials: { regions: [{ material: 'rubber', shape: 'circle', center: [1, 0], radius: 0.8 }] },
    bodies, joints,
    robot: undefined,
    script: [],
  };
  return { spec, terrain };
}

export function goldenWorld() {
  const { spec, terrain } = goldenSpec();
  const w = createDynamicsWorld(spec, terrain, robotDriveController);
  for (const d of w.joints.defs) if (d.motor) w.setMotor(d.name, 4);
  return w;
}

if (process.argv[1] && process.argv[1].endsWith('golden-scene.ts')) {
  const w = goldenWorld();
  w.step(GOLDEN_STEPS);
  process.stdout.write(w.stateHash() + '\n');
}
