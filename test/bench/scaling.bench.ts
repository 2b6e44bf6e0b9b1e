/**
 * Scaling (issue #29): the step's cost against the number of bodies, ours beside Jolt's best
 * (rounded wheels) in the same run, interleaved round by round.
 *
 * Scenes, the issue's case: the `noise-icosa` independent build's terrain generator at 1,025²
 * vertices (0.05 m, 51.2 m square) with four of its 4-wheel vehicles (driving from the start, the
 * harness measures the first), and n = 100, 300, 1,000 bodies of two kinds:
 *   scattered  hulls and boxes (independent.ts's `boxes-and-hulls` rocks), dropped 3 cm above the
 *              ground at random over the whole field (off the vehicles' starts);
 *   pile       boxes of 3–5 cm half-extent in a lattice of columns 0.13 m apart, n / 100 layers
 *              high, dropped 3 cm above the highest ground under it (a pile that collapses).
 * Each run is `seconds` of simulated time from the drop at dt 1/240 (the drop and the settling:
 * every body awake at first), timed around step() only; the table gives per engine the thread CPU
 * time per step, the real-time factor by CPU, ours / Jolt (median over rounds of the per-round
 * ratios of CPU RTF) and the growth exponent of the step cost between successive n
 * (log(cost ratio) / log(n ratio): 1 is linear; n log n from 100 to 1,000 is about 1.15).
 *
 * Jolt's terrain here is its HeightFieldShape (a 1,025² MeshShape of our triangles runs both of
 * jolt-physics' wasm builds out of memory, vehicle/jolt.ts): its own diagonal and 8-bit samples
 * per block, so its ground differs from ours by up to its quantisation (the terrain check's log).
 * `SCALING_VERTICES=513` runs the earlier, smaller case (513², Jolt on a mesh of our triangles).
 *
 * Run: `npm run bench -- scaling` (`--quick`: 0.5 s per run, one round).
 */
import { cpus, loadavg } from 'node:os';
import { Rng } from '../../sim';
import { runVehicleScene, type VehicleRunResult } from './vehicle/harness';
import { joltRunner, JOLT_ROUNDED_WHEEL_RADIUS } from './vehicle/jolt';
import { terrainCheckLog } from './vehicle/peer-terrain';
import { buildIndependentScene, chassisStartHeight, INDEPENDENT_VARIANTS, lowest, maxUnder, publicApiRunner, randomQuat, rockOf } from './vehicle/independent';
import { vehicleStarts, type Rock, type VehicleScene } from './vehicle/scene';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const COUNTS = [100, 300, 1000] as const;
const DENSITY = 2000;
const DROP = 0.03;
/** [m] Pile columns' spacing and the pile's centre (off the vehicle's path). */
const PILE_PITCH = 0.13;
const PILE_CENTRE: [number, number] = [4, 5];
/** [m] The three further vehicles' starts (x, y), beside and ahead of the first one's (−4, 0). */
const EXTRA_VEHICLES: [number, number][] = [[-4, 6], [-4, -6], [10, -4]];

/** The scaling base: an independent build's terrain at `vertices`² with four vehicles. */
export function scalingBase(vertices = 1025): VehicleScene {
  const base = buildIndependentScene(INDEPENDENT_VARIANTS[0], vertices);
  return { ...base, extraVehicles: EXTRA_VEHICLES.map(([x, y]) => [x, y, chassisStartHeight(base.terrain, x, y)]) };
}

function load(): string {
  return loadavg().map((x) => x.toFixed(1)).join(' / ');
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** n rocks at random over the field, bounding spheres apart, off the vehicle's start. */
export function scattered(base: VehicleScene, n: number, seed: number): VehicleScene {
  const rng = new Rng(seed);
  const hf = base.terrain;
  const lo = hf.x0 + 0.5, hi = hf.x0 + (hf.cols - 1) * hf.dx - 0.5;
  const starts = vehicleStarts(base).map((v) => v.chassis);
  // a coarse occupancy grid of 0.25 m cells: one rock per cell at most (rocks are ≤ 0.1 m)
  const cell = 0.25, side = Math.ceil((hi - lo) / cell);
  const used = new Uint8Array(side * side);
  const rocks: Rock[] = [];
  for (let k = 0; k < n; k++) {
    const g = rockOf('boxes-and-hulls', k, rng);
    let x = 0, y = 0;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 10000) throw new Error(`scale bench: could not place rock ${k}`);
      const ci = rng.int(0, side - 1), cj = rng.int(0, side - 1);
      x = lo + (ci + 0.5) * cell;
      y = lo + (cj + 0.5) * cell;
      if (used[cj * side + ci] || starts.some((c) => Math.hypot(x - c[0], y - c[1]) < 1)) continue;
      used[cj * side + ci] = 1;
      break;
    }
    const q = randomQuat(rng);
    rocks.push({ ...g, name: `rock_${String(k).padStart(4, '0')}`, position: [x, y, maxUnder(hf, x, y, g.boundingRadius) + DROP + lowest(g.shape, q)], orientation: q });
  }
  return { ...base, rocks };
}

/** n boxes in a lattice of 10 × 10 columns (fewer for n < 100), n / 100 layers. */
export function pile(base: VehicleScene, n: number, seed: number): VehicleScene {
  const rng = new Rng(seed);
  const hf = base.terrain;
  const perLayer = Math.min(n, 100), side = Math.ceil(Math.sqrt(perLayer));
  const half = (side * PILE_PITCH) / 2;
  const ground = maxUnder(hf, PILE_CENTRE[0], PILE_CENTRE[1], half + 0.1);
  const rocks: Rock[] = [];
  for (let k = 0; k < n; k++) {
    const layer = Math.floor(k / perLayer), m = k % perLayer;
    const h: [number, number, number] = [rng.range(0.03, 0.05), rng.range(0.03, 0.05), rng.range(0.03, 0.05)];
    const x = PILE_CENTRE[0] - half + (0.5 + (m % side)) * PILE_PITCH;
    const y = PILE_CENTRE[1] - half + (0.5 + Math.floor(m / side)) * PILE_PITCH;
    const z = ground + DROP + 0.05 + layer * PILE_PITCH;
    rocks.push({
      name: `box_${String(k).padStart(4, '0')}`, shape: { type: 'box', halfExtents: h }, mass: DENSITY * 8 * h[0] * h[1] * h[2],
      boundingRadius: Math.hypot(...h), halfSize: Math.min(...h), position: [x, y, z], orientation: [0, 0, 0, 1],
    });
  }
  return { ...base, rocks };
}

export default async function run(ctx: BenchContext): Promise<void> {
  const seconds = ctx.quick ? 0.5 : 2;
  const rounds = ctx.quick ? 1 : 3;
  const dt = 1 / 240;
  const vertices = Number(process.env.SCALING_VERTICES ?? 1025);
  const base = scalingBase(vertices);
  console.log(`\n### Scaling: bodies vs step cost, ours and Jolt (rounded wheels) interleaved; ${vertices}² terrain, ${vehicleStarts(base).length} vehicles; ${seconds} s from the drop per run at dt 1/240, ${rounds} round(s); ${cpus().length} cores, load before: ${load()}, ${new Date().toISOString()}\n`);
  console.log('| scene | n | ours CPU ms/step | Jolt CPU ms/step | ours / Jolt RTF (CPU), median of rounds | growth exponent ours / Jolt | rocks below ours / Jolt |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [label, build] of [['scattered', scattered], ['pile', pile]] as const) {
    let prev: { n: number; ours: number; jolt: number } | null = null;
    for (const n of COUNTS) {
      const scene = build(base, n, 7100 + n);
      const runners = [publicApiRunner(), joltRunner({ wheelConvexRadius: JOLT_ROUNDED_WHEEL_RADIUS, terrainCheck: 'report' })];
      const results: VehicleRunResult[][] = runners.map(() => []);
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < runners.length; k++) {
          results[k].push(await runVehicleScene(runners[k], scene, { wheels: 4, dt, seconds, repeats: 1, warmupSeconds: round === 0 ? Math.min(0.5, seconds) : 0 }));
        }
      }
      const ms = (rs: VehicleRunResult[]): number => (1000 * dt) / median(rs.map((r) => r.rtfCpu));
      const ours = ms(results[0]), jolt = ms(results[1]);
      const ratios = results[0].map((r, i) => r.rtfCpu / results[1][i].rtfCpu);
      const growth = prev === null ? '' : `${(Math.log(ours / prev.ours) / Math.log(n / prev.n)).toFixed(2)} / ${(Math.log(jolt / prev.jolt) / Math.log(n / prev.n)).toFixed(2)}`;
      console.log(`| ${label} | ${n} | ${ours.toFixed(3)} | ${jolt.toFixed(3)} | ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${growth} | ${results[0][0].rocksBelow} / ${results[1][0].rocksBelow} |`);
      prev = { n, ours, jolt };
    }
  }
  console.log(`\nLoad after: ${load()}. CPU ms/step = dt / (real-time factor by this thread's CPU time), median of rounds.`);
  if (terrainCheckLog.length > 0) console.log(`\nTerrain checks (Jolt's ground against ours):\n${terrainCheckLog.map((l) => `- ${l}`).join('\n')}`);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
