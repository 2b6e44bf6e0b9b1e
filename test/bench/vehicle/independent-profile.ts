/**
 * Where the time goes on the standard scene (scene.ts) and the independent builds
 * (independent.ts), ours through createWorld (not part of `npm run bench`):
 *
 *   npx tsx test/bench/vehicle/independent-profile.ts [seconds=3] [dt=1/240]
 *
 * Per scene, one run with the world's stage timer on (world.engine.timeStages: broad, narrow,
 * solve, integrate, finish = joint measures + sleep + fault checks), rocks awake at every whole
 * second, contacts per step by pair type, and the share of the stepping wall time spent in
 * garbage collection (perf_hooks 'gc' entries) with the user's reads by readPose and by state();
 * then one run without the timer under V8's CPU profiler (node:inspector), self time summed by
 * source folder (narrow phase by pair type: cylinder-terrain = wheel–terrain,
 * convex-heightfield = rock–terrain, gjk/epa/sat/manifold = rock–rock and wheel–rock).
 * The machine may be shared: compare numbers from the same run only.
 */
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { BodyKind } from '../../../sim/dynamics/bodies';
import { buildIndependentScene, INDEPENDENT_VARIANTS, publicApiRunner, type UserReads } from './independent';
import { buildVehicleScene, type VehicleScene } from './scene';

interface CpuNode { id: number; callFrame: { functionName: string; url: string }; hitCount?: number; children?: number[] }

let gcMs = 0;
const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcMs += e.duration; });
obs.observe({ entryTypes: ['gc'] });

const kindOf = (name: string | undefined): string => (name === undefined ? 'terrain' : name.startsWith('wheel') ? 'wheel' : name.startsWith('rock') ? 'rock' : 'chassis');

async function timedRun(scene: VehicleScene, dt: number, seconds: number, reads: UserReads, timeStages: boolean, profile: boolean): Promise<void> {
  const r = publicApiRunner({ reads, timeStages });
  r.setup(scene, 4, dt);
  const w = r.world()!, e = w.engine, names = e.bodies.names;
  const rocks = names.map((n, i) => (n.startsWith('rock') ? i : -1)).filter((i) => i >= 0);
  const steps = Math.round(seconds / dt), perSecond = Math.round(1 / dt);
  const awake: number[] = [];
  const pairs = new Map<string, number>();
  let session: Session | null = null;
  if (profile) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  await new Promise((res) => setTimeout(res, 0));
  const gc0 = gcMs;
  let stepMs = 0;
  for (let s = 0; s < steps; s++) {
    const a = performance.now();
    r.step();
    stepMs += performance.now() - a;
    r.afterStep!();
    if (!profile) {
      const c = e.contacts;
      for (let k = 0; k < c.count; k++) {
        const key = [kindOf(names[c.bodyA[k]]), kindOf(c.bodyB[k] < 0 ? undefined : names[c.bodyB[k]])].sort().join('–');
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
      if ((s + 1) % perSecond === 0) awake.push(rocks.filter((b) => e.bodies.kind[b] === BodyKind.Dynamic && e.bodies.awake[b]).length);
    }
  }
  await new Promise((res) => setTimeout(res, 0)); // let the gc observer deliver
  const gc = gcMs - gc0;
  const head = `  reads ${reads.via}: ${(stepMs / steps).toFixed(3)} ms/step (RTF ${((steps * dt * 1000) / stepMs).toFixed(2)}), GC ${(100 * gc / stepMs).toFixed(1)} % of step wall time`;
  if (session !== null) {
    const { profile: p } = await session.post('Profiler.stop');
    session.disconnect();
    const nodes = p.nodes as unknown as CpuNode[];
    const total = nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
    const by = new Map<string, number>();
    for (const n of nodes) {
      const url = n.callFrame.url;
      const m = /\/sim\/(.*)\/[^/]+$/.exec(url);
      const key = m ? m[1] : url === '' ? n.callFrame.functionName : url.includes('node_modules') ? 'node_modules' : url.includes('test/bench') ? 'bench (reads, harness)' : 'other';
      by.set(key, (by.get(key) ?? 0) + (n.hitCount ?? 0));
    }
    console.log(`${head}; CPU profile (self time by folder): ${[...by].sort((x, y) => y[1] - x[1]).slice(0, 12).map(([k, v]) => `${k} ${(100 * v / total).toFixed(1)} %`).join(', ')}`);
  } else {
    const T = e.timings, n = T.steps;
    const f = (x: number): string => (x / n).toFixed(3);
    console.log(`${head}`);
    if (timeStages) {
      console.log(`  stages [ms/step]: broad ${f(T.broad)}, narrow ${f(T.narrow)}, solve ${f(T.solve)}, integrate ${f(T.integrate)}, finish (sleep, checks) ${f(T.finish)}`);
      console.log(`  contacts per step by pair: ${[...pairs].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${(v / steps).toFixed(1)}`).join(', ')}`);
      console.log(`  rocks awake at 1 s, 2 s, …: ${awake.join(', ')} (of ${rocks.length})`);
    }
  }
  r.dispose();
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const dtArg = process.argv[3] ?? '1/240';
  const dt = dtArg.includes('/') ? Number(dtArg.split('/')[0]) / Number(dtArg.split('/')[1]) : Number(dtArg);
  const scenes: [string, VehicleScene][] = [['standard (scene.ts)', buildVehicleScene()], ...INDEPENDENT_VARIANTS.map((v) => [v.name, buildIndependentScene(v)] as [string, VehicleScene])];
  // warm-up: JIT every path once
  await timedRun(scenes[1][1], dt, 0.5, { bodies: 5, every: 12, via: 'readPose' }, true, false);
  for (const [name, scene] of scenes) {
    console.log(`\n${name}, dt ${dtArg}, ${seconds} s:`);
    await timedRun(scene, dt, seconds, { bodies: 5, every: 12, via: 'readPose' }, true, false);
    await timedRun(scene, dt, seconds, { bodies: 5, every: 12, via: 'state' }, false, false);
    await timedRun(scene, dt, seconds, { bodies: 5, every: 12, via: 'readPose' }, false, true);
  }
  obs.disconnect();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
