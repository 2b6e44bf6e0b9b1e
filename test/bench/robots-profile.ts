/**
 * Where a ten-robot check world's step time goes (not part of `npm run bench`):
 *
 *   npx tsx test/bench/robots-profile.ts <robot name filter> [hills|flat] [profile from second=0] [profile seconds=8]
 *
 * Builds the check's scenario world as the CLI builds it (readScenarioFilesAsync +
 * worldFromScenarioFiles, the scenario's drive script), steps it one step at a time as the CLI
 * does and prints the process CPU time of each simulated second (the first ones include V8's
 * warm-up, which a fresh `terrawheel run` pays), then V8's CPU profile over the chosen window:
 * self time per function (top 30) and inclusive time of the collision and solver stages.
 * WARM=1 runs a first world untimed (steady state); SERVICE=1 builds the world through the
 * default service as `terrawheel run` does; ALLOC=1 adds the sampled allocations by function;
 * CALLERS=<function> splits that function's self time by caller; SCENARIO=<scenario.json> profiles
 * that scenario instead of a check robot's (the filter is then ignored, the terrain is the file's).
 * Shares from one run; the machine may be shared (the load average is printed).
 */
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { readScenarioFilesAsync } from '../../sim/node/open-scenario';
import { worldFromScenarioFiles } from '../../sim/scenario/open-scenario';
import { createDefaultService } from '../../sim/app/default-service';
import type { SimWorld } from '../../sim/app/sim-world';
import { prepareScenarioMeshes } from '../../sim/scenario/scenario-meshes';
import { diskConvexPartsCache } from '../../sim/node/convex-parts-cache';
import { TEN_ROBOTS, writeCheckScenario, type CheckTerrain } from '../scenarios/robots/ten-robots';

interface CpuNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }

const STAGES = ['terrainContacts', 'pairContacts', 'collideCylinderTerrainInto', 'collidePolytopeTerrainInto', 'collideShapeHeightfield', 'collideSphereTerrainInto', 'collideShapes', 'reduceManifoldInto', 'solveStage', 'substepStage', 'prepareStage', 'solveContacts', 'solveJoints', 'warmStartJoints', 'prepareJoints', 'solveRevolute', 'integrate', 'updatePairs'];

async function main(): Promise<void> {
  const filter = (process.argv[2] ?? '').toLowerCase();
  const terrain = (process.argv[3] ?? 'hills') as CheckTerrain;
  const from = Number(process.argv[4] ?? 0);
  const seconds = Number(process.argv[5] ?? 8);
  const scenario = process.env.SCENARIO;
  const robot = scenario ? null : TEN_ROBOTS.find((r) => r.name.toLowerCase().includes(filter));
  if (!scenario && !robot) throw new Error(`no robot of the check matches "${filter}"`);
  const path = scenario ?? writeCheckScenario(robot!, terrain);
  let world: { engine: unknown; step(n: number): void; fault: unknown };
  if (process.env.SERVICE) {
    // as `terrawheel run` builds it: the default service's load (sim/node/cli.ts runOn)
    const service = createDefaultService({ prepareFiles: (f) => prepareScenarioMeshes(f, diskConvexPartsCache()) });
    await service.load(await prepareScenarioMeshes(await readScenarioFilesAsync(path), diskConvexPartsCache()));
    world = service.getWorld() as SimWorld;
  } else world = worldFromScenarioFiles(await readScenarioFilesAsync(path));
  if (process.env.WARM) {
    // WARM=1: a first world of the same scenario runs its 8 s untimed (V8's JIT warm, as a long run)
    const first = worldFromScenarioFiles(await readScenarioFilesAsync(path));
    first.step(8 * 240);
  }
  const perSecond = Math.round(1 / (world.engine as unknown as { dt: number }).dt);
  console.log(`${scenario ?? `${robot!.name} on ${terrain}`}: load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  const per: string[] = [];
  let total = 0;
  const end = from + seconds;
  for (let s = 0; s < end; s++) {
    if (s === from) {
      await session.post('Profiler.start');
      if (process.env.ALLOC) await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    const c0 = process.cpuUsage();
    for (let k = 0; k < perSecond; k++) world.step(1);
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    total += cpu;
    per.push((1 / cpu).toFixed(0));
  }
  const { profile: p } = await session.post('Profiler.stop');
  if (process.env.ALLOC) {
    // bytes allocated by function (sampled): the step should allocate nothing
    const { profile: h } = await session.post('HeapProfiler.stopSampling');
    const bytes = new Map<string, number>();
    const visit = (n: typeof h.head, stack: string): void => {
      const here = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*\/sim\//, '')}:${n.callFrame.lineNumber + 1}`;
      if (n.selfSize > 0) bytes.set(`${here} <- ${stack}`, (bytes.get(`${here} <- ${stack}`) ?? 0) + n.selfSize);
      for (const c of n.children) visit(c, here);
    };
    visit(h.head, '');
    console.log('sampled allocation (bytes, function <- caller), top 20:');
    for (const [k, b] of [...bytes].sort((a, b2) => b2[1] - a[1]).slice(0, 20)) console.log(`${String(b).padStart(10)}  ${k}`);
  }
  console.log(`× real time per simulated second (process CPU): ${per.join(' ')}; overall ${(end / total).toFixed(1)}×; fault ${world.fault === null ? 'none' : JSON.stringify(world.fault)}`);
  const nodes = p.nodes as unknown as CpuNode[];
  const ticks = nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const self = new Map<string, number>();
  for (const n of nodes) {
    const k = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*\/sim\//, '')}:${n.callFrame.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + (n.hitCount ?? 0));
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const incl = new Map<string, number>();
  const walk = (n: CpuNode, active: Set<string>): number => {
    let t = n.hitCount ?? 0;
    const name = n.callFrame.functionName;
    const fresh = !active.has(name);
    if (fresh) active.add(name);
    for (const c of n.children ?? []) t += walk(byId.get(c)!, active);
    if (fresh) {
      active.delete(name);
      incl.set(name, (incl.get(name) ?? 0) + t);
    }
    return t;
  };
  walk(nodes[0], new Set());
  console.log(`inclusive % (seconds ${from}–${end}): ${STAGES.map((k) => `${k} ${(100 * (incl.get(k) ?? 0) / ticks).toFixed(1)}`).join(', ')}`);
  if (process.env.CALLERS) {
    // CALLERS=<function>: its self time by calling function
    const parent = new Map<number, CpuNode>();
    for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n);
    const by = new Map<string, number>();
    for (const n of nodes) {
      if (n.callFrame.functionName !== process.env.CALLERS) continue;
      const p = parent.get(n.id);
      const k = p ? `${p.callFrame.functionName} ${p.callFrame.url.replace(/.*\/sim\//, '')}` : '?';
      by.set(k, (by.get(k) ?? 0) + (n.hitCount ?? 0));
    }
    console.log(`callers of ${process.env.CALLERS}: ${[...by].sort((a, b) => b[1] - a[1]).map(([k, t]) => `${k} ${(100 * t / ticks).toFixed(1)} %`).join(', ')}`);
  }
  console.log('self time, top 30:');
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(100 * t / ticks).toFixed(1).padStart(6)}%  ${k}`);
}

void main();
