/**
 * The standard vehicle scene (issue #13) in every engine: ours, Rapier, Jolt (exact and rounded
 * wheels) and MuJoCo, built the same way (test/bench/vehicle/scene.ts) and measured the same way
 * (test/bench/vehicle/harness.ts: its header defines every column).
 *
 * Cases: 4 wheels at dt = 1/240 s, 4 wheels at dt = 1/1000 s, the 6-wheel rover at 1/240 s;
 * 10 s of simulated time, median of 3 runs after an untimed 2 s warm-up run (--quick: 2 s, one
 * run, 0.5 s warm-up).
 *
 * Run: `npm run bench -- vehicle` (add `--quick` for a smoke run). VEHICLE_ENGINES=rapier,jolt
 * keeps only the runners whose name contains one of the words (case-insensitive).
 *
 * Then the independent builds (issue #29, vehicle/independent.ts): three variants of the scene
 * written from issue #13's words (other terrain generators, rock shapes, seeds), ours built
 * through createWorld (the public API) with a user's reads between steps, beside Jolt's best
 * (rounded wheels), 4 wheels at dt 1/240 and 1/1000. The two engines alternate run by run
 * (interleaved, so load changes hit both) and the table gives medians and the median of the
 * per-round ratios. VEHICLE_SECTIONS=independent runs only these; =standard only the above.
 */
import { oursRunner } from './vehicle/ours';
import { cpus, loadavg } from 'node:os';
import { runVehicleScene, type VehicleRunner, type VehicleRunResult } from './vehicle/harness';
import { joltRunner, JOLT_ROUNDED_WHEEL_RADIUS } from './vehicle/jolt';
import { mujocoRunner } from './vehicle/mujoco';
import { terrainCheckLog } from './vehicle/peer-terrain';
import { rapierRunner } from './vehicle/rapier';
import { buildVehicleScene, heightsHash, type WheelCount } from './vehicle/scene';
import { buildIndependentScene, INDEPENDENT_VARIANTS, publicApiRunner } from './vehicle/independent';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

/**
 * ──── The runners, in table order. OURS GOES FIRST HERE ────
 * Ours is vehicle/ours.ts (reads poses from the world's flat arrays); vehicle/plain-world-runner.ts
 * adapts any other world with a plain createWorld/step/state API.
 */
export const VEHICLE_RUNNERS: Array<() => VehicleRunner> = [
  () => oursRunner(),
  () => oursRunner({ name: 'ours, CCD on', ccd: true }),
  () => rapierRunner(),
  () => joltRunner({ wheelConvexRadius: 0 }),
  () => joltRunner({ wheelConvexRadius: JOLT_ROUNDED_WHEEL_RADIUS }),
  () => mujocoRunner(),
];

interface Case {
  title: string;
  wheels: WheelCount;
  dt: number;
}

const CASES: Case[] = [
  { title: '4 wheels, dt = 1/240 s', wheels: 4, dt: 1 / 240 },
  { title: '4 wheels, dt = 1/1000 s', wheels: 4, dt: 1 / 1000 },
  { title: '6-wheel rover, dt = 1/240 s', wheels: 6, dt: 1 / 240 },
];
/** [s] simulated per run. */
const FULL_SECONDS = 10;
const QUICK_SECONDS = 2;
const FULL_REPEATS = 3;
const QUICK_REPEATS = 1;
/** [s] simulated in an untimed warm-up run per engine and case (harness.ts says why). */
const FULL_WARMUP_SECONDS = 2;
const QUICK_WARMUP_SECONDS = 0.5;

const mm = (m: number): string => (m * 1000).toFixed(m < 1e-3 ? 3 : 2);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' / ');

function row(r: VehicleRunResult): string {
  const runs = r.rtfRuns.map((x) => x.toFixed(2)).join(', ');
  return `| ${r.name} | ${r.rtf.toFixed(2)} (${runs}) | ${r.rtfCpu.toFixed(2)} | ${r.msPerStep.toFixed(3)} | ${mm(r.sinkMean)} / ${mm(r.sinkP95)} / ${mm(r.sinkMax)} | ${(100 * r.contactShare).toFixed(0)} % | ${r.rocksBelow} | ${r.distance.toFixed(2)}${r.diverged ? ' (diverged)' : ''} | ${r.setupSeconds.toFixed(2)} |`;
}

export default async function run(ctx: BenchContext): Promise<void> {
  const seconds = ctx.quick ? QUICK_SECONDS : FULL_SECONDS;
  const repeats = ctx.quick ? QUICK_REPEATS : FULL_REPEATS;
  const warmupSeconds = ctx.quick ? QUICK_WARMUP_SECONDS : FULL_WARMUP_SECONDS;
  const t0 = performance.now();
  const scene = buildVehicleScene();
  const hf = scene.terrain;
  const rockMass = scene.rocks.reduce((s, r) => s + r.mass, 0);
  console.log(`\n### Vehicle scene: ${hf.cols} × ${hf.rows} fractal terrain (dx = ${hf.dx} m, heights ${hf.minHeight.toFixed(2)} … ${hf.maxHeight.toFixed(2)} m, hash ${heightsHash(hf)}), ${scene.rocks.length} rocks (${rockMass.toFixed(1)} kg), ${seconds} s per run, median of ${repeats} after a ${warmupSeconds} s warm-up run`);
  console.log(`Scene built in ${((performance.now() - t0) / 1000).toFixed(2)} s; chassis starts at (${scene.chassis.position.map((x) => x.toFixed(3)).join(', ')}) heading +x.`);
  const sections = (process.env.VEHICLE_SECTIONS ?? 'standard,independent').toLowerCase();
  if (sections.includes('standard')) await runStandard(ctx, scene, seconds, repeats, warmupSeconds);
  if (sections.includes('independent')) await runIndependent(seconds, repeats, warmupSeconds);
}

async function runStandard(ctx: BenchContext, scene: ReturnType<typeof buildVehicleScene>, seconds: number, repeats: number, warmupSeconds: number): Promise<void> {
  void ctx;
  const words = (process.env.VEHICLE_ENGINES ?? '').toLowerCase().split(',').map((w) => w.trim()).filter((w) => w.length > 0);
  const runners = VEHICLE_RUNNERS.map((make) => make()).filter((r) => words.length === 0 || words.some((w) => r.name.toLowerCase().includes(w)));
  for (const c of CASES) {
    console.log(`\n#### ${c.title}, ${seconds} s (${Math.round(seconds / c.dt)} steps); load average before: ${load()} on ${cpus().length} cores\n`);
    console.log(`| engine | RTF wall, median (runs) | RTF by thread CPU | ms/step | wheel sinkage mean / p95 / max [mm] | wheel-steps penetrating | rocks below | distance [m] | setup [s] |`);
    console.log('|---|---:|---:|---:|---|---:|---:|---:|---:|');
    const splits: string[] = [];
    for (const runner of runners) {
      try {
        const r = await runVehicleScene(runner, scene, { wheels: c.wheels, dt: c.dt, seconds, repeats, warmupSeconds });
        console.log(row(r));
        if (r.split && Object.keys(r.split).length > 0) splits.push(`${r.name} step split [ms/step]: ${Object.entries(r.split).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')}`);
      } catch (e) {
        console.log(`| ${runner.name} | failed: ${e instanceof Error ? e.message : String(e)} | | | | | | | |`);
        try {
          runner.dispose();
        } catch {
          // already disposed
        }
      }
    }
    for (const line of splits) console.log(`\n${line}`);
    console.log(`\nLoad average after: ${load()}.`);
  }
  console.log('\nRTF wall: simulated s per wall-clock s of step() calls only. RTF by thread CPU: the same per CPU-second of the stepping thread (the comparable column when the machine is shared).');
  console.log('Sinkage: deepest penetration of the exact wheel cylinder (r 0.15 m, width 0.1 m, at the engine\'s wheel pose) into the exact terrain, by our validated collideCylinderTerrainInto, every wheel after every step, 0 when off the ground.');
  console.log('Rocks below: centre under the terrain surface at its (x, y) at the end (sunk deeper than its half-size), or off the map. Distance: horizontal chassis displacement start → end.');
  for (const line of terrainCheckLog) console.log(`- ${line}`);
  for (const r of runners) console.log(`- **${r.name}**: ${r.description}.`);
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** The independent builds: ours (public API) and Jolt rounded, interleaved run by run. */
async function runIndependent(seconds: number, repeats: number, warmupSeconds: number): Promise<void> {
  console.log(`\n### Independent builds of the standard scene (issue #29): ${seconds} s per run, ${repeats} interleaved rounds after a ${warmupSeconds} s warm-up run each`);
  for (const v of INDEPENDENT_VARIANTS) {
    const scene = buildIndependentScene(v);
    const hf = scene.terrain;
    console.log(`\n#### ${v.name}: ${v.terrain} terrain (heights ${hf.minHeight.toFixed(2)} … ${hf.maxHeight.toFixed(2)} m, hash ${heightsHash(hf)}), rocks ${v.rocks} (${scene.rocks.reduce((s, r) => s + r.mass, 0).toFixed(1)} kg), seed ${v.seed}; load before: ${load()}\n`);
    console.log('| dt | engine | RTF wall, median (runs) | RTF by thread CPU | wheel sinkage p95 / max [mm] | rocks below | distance [m] | ours / Jolt RTF, median of rounds |');
    console.log('|---|---|---:|---:|---|---:|---:|---:|');
    for (const dt of [1 / 240, 1 / 1000]) {
      const runners = [publicApiRunner(), joltRunner({ wheelConvexRadius: JOLT_ROUNDED_WHEEL_RADIUS, terrainCheck: 'report' })];
      const results: VehicleRunResult[][] = runners.map(() => []);
      for (let round = 0; round < repeats; round++) {
        for (let k = 0; k < runners.length; k++) {
          results[k].push(await runVehicleScene(runners[k], scene, { wheels: 4, dt, seconds, repeats: 1, warmupSeconds: round === 0 ? warmupSeconds : 0 }));
        }
      }
      const ratios = results[0].map((r, i) => r.rtf / results[1][i].rtf);
      for (let k = 0; k < runners.length; k++) {
        const rs = results[k], first = rs[0];
        const ratio = k === 0 ? `${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')})` : '';
        console.log(`| 1/${Math.round(1 / dt)} | ${runners[k].name} | ${median(rs.map((r) => r.rtf)).toFixed(2)} (${rs.map((r) => r.rtf.toFixed(2)).join(', ')}) | ${median(rs.map((r) => r.rtfCpu)).toFixed(2)} | ${mm(first.sinkP95)} / ${mm(first.sinkMax)} | ${first.rocksBelow} | ${first.distance.toFixed(2)}${first.diverged ? ' (diverged)' : ''} | ${ratio} |`);
      }
    }
    console.log(`\nLoad after: ${load()}.`);
  }
  console.log('\nThe ratio column: ours / Jolt per interleaved round, median over rounds (each round runs both back to back, so load changes hit both).');
  for (const line of terrainCheckLog) console.log(`- ${line}`);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
