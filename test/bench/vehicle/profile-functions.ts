/**
 * Where a scene's step time goes, by function (not part of `npm run bench`):
 *
 *   npx tsx test/bench/vehicle/profile-functions.ts <scene> [seconds=2] [steps per second=240] [skip seconds=0]
 *
 * <scene>: standard (scene.ts), an independent build (noise-icosa, ds-boxes, sines-hulls), or a
 * scaling scene of ../scaling.bench.ts (pile1000, scat300, …; on its 1,025² terrain with four vehicles,
 * SCALING_VERTICES=513 for the smaller one). Ours through createWorld, the first
 * `skip` seconds untimed, then V8's CPU profiler over `seconds`: self time per function (top 30)
 * and inclusive time of the collision pass's and solver's stages (terrainContacts, pairContacts,
 * collidePolytopeTerrainInto, collideShapeHeightfield = large boxes and hulls on the terrain,
 * collideCylinderTerrainInto = wheels, collideShapes, epaPenetration, carry, solveContacts …).
 * LINES=<function> prints that function's ticks by line (lines are the transpiled module's).
 * Shares from one run; the machine may be shared.
 */
import { Session } from 'node:inspector/promises';
import { buildIndependentScene, INDEPENDENT_VARIANTS, publicApiRunner } from './independent';
import { buildVehicleScene } from './scene';
import { pile, scalingBase, scattered } from '../scaling.bench';
interface CpuNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[]; positionTicks?: { line: number; ticks: number }[] }
async function main(): Promise<void> {
  const which = process.argv[2] ?? 'sines-hulls';
  const seconds = Number(process.argv[3] ?? 2);
  const dt = 1 / Number(process.argv[4] ?? 240);
  const scaled = which.startsWith('pile') || which.startsWith('scat');
  const base0 = scaled ? scalingBase(Number(process.env.SCALING_VERTICES ?? 1025)) : buildIndependentScene(INDEPENDENT_VARIANTS[0]);
  const scene = which.startsWith('pile') ? pile(base0, Number(which.slice(4)), 7100 + Number(which.slice(4))) : which.startsWith('scat') ? scattered(base0, Number(which.slice(4)), 7100 + Number(which.slice(4))) : which === 'standard' ? buildVehicleScene() : buildIndependentScene(INDEPENDENT_VARIANTS.find((v) => v.name === which)!);
  const r = publicApiRunner({});
  r.setup(scene, 4, dt);
  const engine = r.world()!.engine as unknown as { pass: { stats: object; polytopes?: unknown[] } };
  const cp = engine.pass;
  const polys = cp.polytopes;
  if (polys) console.log(`bodies ${polys.length}, boxes and hulls ${polys.filter((p) => p !== null).length}`);
  const skip = Math.round(Number(process.argv[5] ?? 0) / dt);
  for (let s = 0; s < skip; s++) { r.step(); r.afterStep!(); }
  const session = new Session(); session.connect();
  await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 }); await session.post('Profiler.start');
  const steps = Math.round(seconds / dt); const t0 = performance.now();
  for (let s = 0; s < steps; s++) { r.step(); r.afterStep!(); }
  const ms = performance.now() - t0;
  const { profile: p } = await session.post('Profiler.stop');
  const nodes = p.nodes as unknown as CpuNode[];
  const total = nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const by = new Map<string, number>();
  for (const n of nodes) { const k = `${n.callFrame.functionName} ${n.callFrame.url.replace(/.*\/sim\//, '')}:${n.callFrame.lineNumber}`; by.set(k, (by.get(k) ?? 0) + (n.hitCount ?? 0)); }
  console.log(`${which}: ${(ms / steps).toFixed(3)} ms/step RTF ${(steps * dt * 1000 / ms).toFixed(2)}`);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const incl = new Map<string, number>();
  const walk = (n: CpuNode, active: Set<string>): number => {
    let t = n.hitCount ?? 0;
    const name = n.callFrame.functionName;
    const fresh = !active.has(name);
    if (fresh) active.add(name);
    for (const c of n.children ?? []) t += walk(byId.get(c)!, active);
    if (fresh) { active.delete(name); incl.set(name, (incl.get(name) ?? 0) + t); }
    return t;
  };
  walk(nodes[0], new Set());
  console.log('inclusive:', ['run', 'terrainContacts', 'pairContacts', 'collidePolytopeTerrainInto', 'collideShapeHeightfield', 'collideCylinderTerrainInto', 'collideShapes', 'collideConvexConvex', 'collideBoxBox', 'emit', 'carry', 'solveStage', 'substepStage', 'prepareStage', 'solveContacts', 'polytopeTerrainClear', 'reduceManifoldInto', 'updatePairs', 'epaPenetration', 'gjkDistance', 'gjkLoop', 'manifoldBetweenFaces', 'supportingFace', 'expand', 'epaSolve'].map((k) => `${k} ${(100 * (incl.get(k) ?? 0) / total).toFixed(1)}`).join(', '));
  console.log('stats', JSON.stringify(cp.stats));
  const lines = new Map<number, number>();
  for (const n of nodes) if (n.callFrame.functionName === (process.env.LINES ?? 'collidePolytopeTerrainInto')) for (const t of n.positionTicks ?? []) lines.set(t.line, (lines.get(t.line) ?? 0) + t.ticks);
  console.log('lines:', [...lines].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([l, t]) => `${l}:${(100 * t / total).toFixed(1)}`).join(' '));
  for (const [k, v] of [...by].sort((x, y) => y[1] - x[1]).slice(0, 30)) console.log((100 * v / total).toFixed(1).padStart(5), k);
}
main().catch((e) => { console.error(e); process.exit(1); });
