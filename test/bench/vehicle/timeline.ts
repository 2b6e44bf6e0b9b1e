/**
 * Where over the run the time goes, ours against Jolt's best (not part of `npm run bench`):
 *
 *   npx tsx test/bench/vehicle/timeline.ts <build> [1/dt=1000] [seconds=10] [rounds=1]
 *
 * <build>: an independent build (independent.ts: noise-icosa, ds-boxes, sines-hulls). Ours
 * through createWorld (publicApiRunner, stage timer on) and Jolt with rounded wheels, alternating
 * run by run; per simulated second: each engine's thread CPU ms per step, their ratio, and ours's
 * stage split (broad / narrow / solve / integrate / finish, wall ms per step) and rocks awake.
 * The machine may be shared: compare the two engines' numbers of the same round only.
 */
import { threadCpuSeconds } from './harness';
import { buildIndependentScene, INDEPENDENT_VARIANTS, publicApiRunner } from './independent';
import { JOLT_ROUNDED_WHEEL_RADIUS, joltRunner } from './jolt';
import type { VehicleRunner } from './harness';

async function perSecond(r: VehicleRunner, steps: number, perSec: number, each?: (second: number) => void): Promise<number[]> {
  const cpu: number[] = [];
  let c0 = threadCpuSeconds();
  for (let s = 0; s < steps; s++) {
    r.step();
    r.afterStep?.();
    if ((s + 1) % perSec === 0) {
      const c1 = threadCpuSeconds();
      cpu.push(((c1 - c0) * 1000) / perSec);
      each?.(cpu.length - 1);
      c0 = threadCpuSeconds();
    }
  }
  return cpu;
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'sines-hulls';
  const perSec = Number(process.argv[3] ?? 1000);
  const seconds = Number(process.argv[4] ?? 10);
  const rounds = Number(process.argv[5] ?? 1);
  const variant = INDEPENDENT_VARIANTS.find((v) => v.name === which);
  if (!variant) throw new Error(`timeline: unknown build "${which}" (${INDEPENDENT_VARIANTS.map((v) => v.name).join(', ')})`);
  const scene = buildIndependentScene(variant);
  const dt = 1 / perSec, steps = Math.round(seconds * perSec);
  for (let round = 0; round < rounds; round++) {
    const ours = publicApiRunner({ timeStages: true });
    ours.setup(scene, 4, dt);
    const e = ours.world()!.engine;
    const rocks = e.bodies.names.map((n, i) => (n.startsWith('rock') ? i : -1)).filter((i) => i >= 0);
    const split: string[] = [];
    let last = { ...e.timings };
    const oursCpu = await perSecond(ours, steps, perSec, () => {
      const t = e.timings, n = t.steps - last.steps;
      const f = (k: 'broad' | 'narrow' | 'solve' | 'integrate' | 'finish') => ((t[k] - last[k]) / n).toFixed(3);
      const awake = rocks.filter((b) => e.bodies.awake[b]).length;
      split.push(`${f('broad')} / ${f('narrow')} / ${f('solve')} / ${f('integrate')} / ${f('finish')}  awake ${awake}  contacts ${e.contacts.count} (${e.contacts.activeCount} active)`);
      last = { ...t };
    });
    ours.dispose();
    const jolt = joltRunner({ wheelConvexRadius: JOLT_ROUNDED_WHEEL_RADIUS, terrainCheck: 'report' });
    await jolt.setup(scene, 4, dt);
    const joltCpu = await perSecond(jolt, steps, perSec);
    jolt.dispose();
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(`${which} dt 1/${perSec} round ${round + 1}: total CPU ours ${(sum(oursCpu) * perSec / 1000).toFixed(2)} s, Jolt ${(sum(joltCpu) * perSec / 1000).toFixed(2)} s, Jolt/ours ${(sum(joltCpu) / sum(oursCpu)).toFixed(2)}`);
    console.log('second  ours ms/step  Jolt ms/step  Jolt/ours   ours wall ms/step: broad / narrow / solve / integrate / finish');
    for (let k = 0; k < oursCpu.length; k++) console.log(`${String(k + 1).padStart(6)}  ${oursCpu[k].toFixed(3).padStart(12)}  ${joltCpu[k].toFixed(3).padStart(12)}  ${(joltCpu[k] / oursCpu[k]).toFixed(2).padStart(9)}   ${split[k]}`);
  }
}
main().catch((err) => { console.error(err); process.exit(1); });
