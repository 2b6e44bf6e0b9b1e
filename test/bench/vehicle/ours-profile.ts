/**
 * Our world in the vehicle scene, for profiling (not part of `npm run bench`):
 *
 *   npx tsx test/bench/vehicle/ours-profile.ts [split|heap] [dt=1/240] [seconds=10]
 *
 *   split  the step-time split (DynamicsWorld.timeStages: broad, narrow, solve, integrate,
 *          finish, in wall-clock ms per step; compare builds interleaved on a shared machine),
 *          awake bodies and contacts (all, and active: the ones the solver visits) per step,
 *          the final state hash (same build, same hash).
 *   heap   bytes allocated per step after a 2 s warm-up, by V8's sampling heap profiler
 *          (node:inspector, every object including those collected by minor GCs), with the
 *          allocating functions. The hot path of the world should allocate nothing.
 */
import { Session } from 'node:inspector/promises';
import { BodyKind } from '../../../sim/dynamics/bodies';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { robotDriveController } from '../../../sim/robot/controllers/world-drive';
import { buildVehicleScene, vehicleSceneWorldSpec } from './scene';

interface ProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: ProfileNode[];
}

async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'split';
  const dtArg = process.argv[3] ?? '1/240';
  const dt = dtArg.includes('/') ? Number(dtArg.split('/')[0]) / Number(dtArg.split('/')[1]) : Number(dtArg);
  const seconds = Number(process.argv[4] ?? 10);
  const scene = buildVehicleScene();
  const world = createDynamicsWorld(vehicleSceneWorldSpec(scene, 4, { dt, substeps: 4 }), scene.terrain, robotDriveController);
  const steps = Math.round(seconds / dt);
  if (mode === 'heap') {
    world.step(Math.round(2 / dt));
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    world.step(steps);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const byFunction = new Map<string, number>();
    let total = 0;
    const walk = (n: ProfileNode): void => {
      total += n.selfSize;
      if (n.selfSize > 0) {
        const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}`;
        byFunction.set(key, (byFunction.get(key) ?? 0) + n.selfSize);
      }
      for (const c of n.children) walk(c);
    };
    walk(profile.head as unknown as ProfileNode);
    console.log(`${(total / steps).toFixed(0)} bytes/step over ${steps} steps (dt ${dtArg}, sampling estimate)`);
    for (const [k, v] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, 40)) console.log(`${(v / steps).toFixed(0).padStart(8)}  ${k}`);
    return;
  }
  world.timeStages = true;
  let awake = 0, contacts = 0, active = 0;
  for (let s = 0; s < steps; s++) {
    world.step(1);
    for (let b = 0; b < world.bodies.count; b++) if (world.bodies.kind[b] === BodyKind.Dynamic && world.bodies.awake[b]) awake++;
    contacts += world.contacts.count;
    active += world.contacts.activeCount;
  }
  const T = world.timings, n = T.steps;
  const f = (x: number): string => (x / n).toFixed(3);
  console.log(`dt ${dtArg}, ${n} steps: ms/step broad ${f(T.broad)}, narrow ${f(T.narrow)}, solve ${f(T.solve)}, integrate ${f(T.integrate)}, finish ${f(T.finish)}, total ${f(T.broad + T.narrow + T.solve + T.integrate + T.finish)}`);
  console.log(`per step: awake dynamic bodies ${(awake / n).toFixed(1)}, contacts ${(contacts / n).toFixed(0)} (active ${(active / n).toFixed(0)}); state hash ${world.stateHash()}${world.fault ? `; fault: ${world.fault.reason}` : ''}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
