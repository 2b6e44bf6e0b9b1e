/**
 * Cylinder (wheel) vs terrain: ours vs Rapier, Jolt and MuJoCo on one scene, in one run.
 *
 * Scene (test/oracle/cylinder-poses.ts, shared with the oracle and fuzz tests): 513 × 513
 * diamond-square terrain, dx = 0.05 m, 24 curbs of 0.1 m; wheel r = 0.3 m, width 0.2 m at 10,000
 * seeded poses (random yaw, roll ≤ 5°, settled to a 0–5 cm maximum depth by the oracle).
 *
 * Columns:
 *   queries/s     median of 5 timed passes (each ≥ 1 s: the pose set repeated) after 3
 *                 warm-up passes, per CPU-second of the thread that runs the queries
 *                 (threadCpuSeconds: robust on a shared machine, and blind to V8's helper
 *                 threads) and per wall-clock second; "× fastest peer" uses the CPU rate.
 *                 Ours: the engine form
 *                 collideCylinderTerrainInto (reused ContactBuffer and workspace, no allocation)
 *                 over all poses: the production bundle alone in a worker thread (its own V8
 *                 isolate, as in the app), then the tsx copy in this process; the plain API
 *                 (allocating result objects) in its own row.
 *                 Peers: over the first PEER_TIMING_POSES poses (a full 10,000-pose pass of
 *                 MuJoCo takes minutes), their per-query JS→wasm calls included. Jolt has
 *                 three rows: the bench's original configuration and two tuned ones (EPA
 *                 penetration tolerance JOLT_TUNED, all hits / deepest hit only), the fastest
 *                 configurations that miss no pose and keep depths within 0.1 mm of the first
 *                 (test/bench/peer-variants.ts); "× fastest peer" is over all peer rows.
 *   contacts/q    mean number of contacts per query, over all poses.
 *   depth error   |max contact depth − oracle maximum depth| over all poses (p50/p95/p99/max),
 *                 oracle: test/oracle/cylinder-oracle.ts (its header defines the depth).
 *   missed        poses where the oracle depth is > 0.1 mm and the method reports no contact.
 *
 * Run: `npm run bench -- cylinder` (add `--quick` for a 500-pose smoke run).
 */
import type { HeapProfiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg } from 'node:os';
import { ContactBuffer } from '../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../sim/collision/cylinder-terrain/collide';
import { CylinderTerrainContext, collideCylinderTerrain } from '../../sim/collision/cylinder-terrain/plain-api';
import { CylinderTerrainWorkspace } from '../../sim/collision/cylinder-terrain/workspace';
import type { Vec3 } from '../../sim/math/vec3';
import type { Heightfield } from '../../sim/terrain/heightfield';
import { oracleMaxDepth, type CylinderPose } from '../oracle/cylinder-oracle';
import { JOLT_TUNED, loadJolt, loadMujoco, loadRapier, type Peer } from '../oracle/cylinder-peers';
import { passRates, type PassRates } from './pass-timer.mjs';
import { buildCylinderScene, cylinderPoses, WHEEL_RADIUS, WHEEL_WIDTH } from '../oracle/cylinder-poses';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const FULL_POSES = 10_000;
const QUICK_POSES = 500;
const PEER_TIMING_POSES = 1_000;
const TIMED_RUNS = 5;
/**
 * Untimed passes before the timed ones. One was too few: V8 was still tiering the query up in
 * the first two timed passes (measured: 12.9 and 11.7 µs per query against 11.0 after).
 */
const WARMUP_RUNS = 3;
/** [m] A pose "has contact" for the missed-contact count when the oracle depth exceeds this (0.1 mm). */
export const MISS_THRESHOLD = 1e-4;
/** [m] Report our poses off the oracle by more than this (1 mm), at most WORST_COUNT of them. */
const WORST_LIMIT = 1e-3;
const WORST_COUNT = 12;
/** Output slots for the engine form: a wheel yields a few normal groups of ≤ 4 points. */
const OUTPUT_CAPACITY = 256;

interface Row {
  name: string;
  qps: Rate;
  contactsPerQuery: number;
  err: number[];
  missed: number;
  note: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export function quantile(sorted: number[], f: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
}

/** queries per wall-clock second and per CPU-second of the querying thread (pass-timer.mjs). */
type Rate = PassRates;

/** Accuracy pass: contacts per query, |depth − oracle| per pose, missed contacts. */
export function accuracy(
  poses: readonly CylinderPose[],
  oracle: Float64Array,
  query: (p: CylinderPose) => { contacts: number; maxDepth: number },
): { cpq: number; err: number[]; missed: number; depth: Float64Array } {
  let contacts = 0;
  let missed = 0;
  const err: number[] = [];
  const depth = new Float64Array(poses.length);
  for (let k = 0; k < poses.length; k++) {
    const r = query(poses[k]);
    contacts += r.contacts;
    depth[k] = r.maxDepth;
    err.push(Math.abs(r.maxDepth - oracle[k]));
    if (oracle[k] > MISS_THRESHOLD && r.contacts === 0) missed++;
  }
  err.sort((a, b) => a - b);
  return { cpq: contacts / poses.length, err, missed, depth };
}

/** Poses where ours is off the oracle by more than `limit`, worst first (index into cylinderPoses(hf, n)). */
function worstPoses(oracle: Float64Array, ours: Float64Array, limit: number, count: number): { total: number; lines: string[] } {
  const idx: number[] = [];
  for (let k = 0; k < oracle.length; k++) if (Math.abs(ours[k] - oracle[k]) > limit) idx.push(k);
  idx.sort((a, b) => Math.abs(ours[b] - oracle[b]) - Math.abs(ours[a] - oracle[a]));
  return { total: idx.length, lines: idx.slice(0, count).map((k) => `pose ${k}: oracle ${fmtMm(oracle[k])} mm, ours ${fmtMm(ours[k])} mm`) };
}

/**
 * The engine form from an esbuild ESM bundle of sim/index.ts, as the production worker bundle
 * runs it (Vite/Rollup hoist every module into one scope: an imported binding is a plain
 * variable). Under tsx each read of an imported binding is a getter call on the exporting
 * module (measured: about half the query time once the module-local copies of imported
 * bindings were removed, issue #12), so the bundle is the number that users' runs see.
 */
async function buildBundle(): Promise<string> {
  const { build } = await import('esbuild');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const outfile = join(mkdtempSync(join(tmpdir(), 'tw-bench-')), 'sim.mjs');
  await build({
    stdin: {
      contents: "export { Heightfield, ContactBuffer, collideCylinderTerrainInto, CylinderTerrainWorkspace } from './sim/index';",
      resolveDir: new URL('../..', import.meta.url).pathname,
      loader: 'ts',
    },
    // as vite.config.ts builds the app's worker: minified by esbuild, target es2022 (names kept:
    // the allocation count finds the query by its function name; they do not change the code)
    bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'error', minifySyntax: true, minifyWhitespace: true, target: 'es2022',
    // The recording codecs load these wasm packages on demand (sim/record/codecs.ts); the query
    // never does, and esbuild has no loader for their .wasm files.
    external: ['@foxglove/wasm-zstd', '@foxglove/wasm-lz4'],
  });
  return pathToFileURL(outfile).href;
}

/** The engine form from the bundle at `url` (buildBundle), in this process. */
async function oursBundledEngine(url: string, hf: Heightfield): Promise<(p: CylinderPose) => { contacts: number; maxDepth: number }> {
  const m = (await import(url)) as typeof import('../../sim/index');
  const bhf = m.Heightfield.fromArray({ cols: hf.cols, rows: hf.rows, dx: hf.dx, dy: hf.dy, x0: hf.x0, y0: hf.y0, heights: hf.heights });
  const out = new m.ContactBuffer(OUTPUT_CAPACITY);
  const ws = new m.CylinderTerrainWorkspace();
  const res = { contacts: 0, maxDepth: 0 };
  const size = { radius: 0.5, halfHeight: 0.5 };
  const collide = m.collideCylinderTerrainInto;
  return (p) => {
    out.clear();
    size.radius = p.radius;
    size.halfHeight = p.height / 2;
    collide(out, p.center as Vec3, p.axis as Vec3, size, bhf, ws);
    let d = 0;
    for (let k = 0; k < out.count; k++) if (out.depth[k] > d) d = out.depth[k];
    res.contacts = out.count;
    res.maxDepth = d;
    return res;
  };
}

/**
 * Times the bundle at `url` in a worker thread of its own (cylinder-bundle-worker.mjs): a fresh
 * V8 isolate holding one copy of the engine, as the app's simulation worker does. Timed in this
 * process beside the tsx copy, the bundle's rate moved by up to a third between runs of the same
 * code (measured 2026-11-25: 36,104 to 53,006 queries per CPU-second in five runs, while the tsx
 * copy, compiled first, stayed within 50,339–55,977), so the row was measuring which copy V8
 * compiled first, not the code.
 */
async function bundleThroughputInWorker(url: string, hf: Heightfield, poses: readonly CylinderPose[], runs: number, warmup: number): Promise<Rate> {
  const { Worker } = await import('node:worker_threads');
  const terrain = { cols: hf.cols, rows: hf.rows, dx: hf.dx, dy: hf.dy, x0: hf.x0, y0: hf.y0, heights: hf.heights };
  const plain = poses.map((p) => ({ center: [...p.center], axis: [...p.axis], radius: p.radius, height: p.height }));
  const worker = new Worker(new URL('./cylinder-bundle-worker.mjs', import.meta.url), {
    workerData: { bundle: url, terrain, poses: plain, runs, warmup },
  });
  try {
    return await new Promise<Rate>((resolve, reject) => {
      worker.once('message', (m: { wall: number; cpu: number }) => resolve({ wall: m.wall, cpu: m.cpu }));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`bundle timing worker exited (code ${code})`)));
    });
  } finally {
    await worker.terminate();
  }
}

function oursEngine(hf: Heightfield): (p: CylinderPose) => { contacts: number; maxDepth: number } {
  const out = new ContactBuffer(OUTPUT_CAPACITY);
  const ws = new CylinderTerrainWorkspace();
  const res = { contacts: 0, maxDepth: 0 };
  const size = { radius: 0.5, halfHeight: 0.5 }; // reused: the engine path allocates nothing
  return (p) => {
    out.clear();
    size.radius = p.radius;
    size.halfHeight = p.height / 2;
    collideCylinderTerrainInto(out, p.center as Vec3, p.axis as Vec3, size, hf, ws);
    let d = 0;
    for (let k = 0; k < out.count; k++) if (out.depth[k] > d) d = out.depth[k];
    res.contacts = out.count;
    res.maxDepth = d;
    return res;
  };
}

/**
 * Bytes allocated per query by `query` over `poses` (after warm-up), from V8's sampling heap
 * profiler with collected objects kept in the profile: every allocation, not only the survivors.
 * A statistical estimate (one sample per ~128 B allocated); 0 means nothing was sampled.
 */
async function bytesPerQuery(poses: readonly CylinderPose[], query: (p: CylinderPose) => void): Promise<number> {
  for (let r = 0; r < 3; r++) for (const p of poses) query(p);
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    // The two include… flags are newer than @types/node 20's protocol types; V8 in Node 20 has them.
    const sampling: HeapProfiler.StartSamplingParameterType & { includeObjectsCollectedByMajorGC: boolean; includeObjectsCollectedByMinorGC: boolean } = {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    };
    await session.post('HeapProfiler.startSampling', sampling);
    for (let r = 0; r < 2; r++) for (const p of poses) query(p);
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
    // Only allocations under the query function count (the profiler's own bookkeeping does not).
    let bytes = 0;
    const walk = (node: HeapNode, inside: boolean): void => {
      const here = inside || node.callFrame.functionName === 'collideCylinderTerrainInto';
      if (here) bytes += node.selfSize;
      for (const c of node.children) walk(c, here);
    };
    walk(profile.head, false);
    return bytes / (2 * poses.length);
  } finally {
    session.disconnect();
  }
}

interface HeapNode {
  callFrame: { functionName: string };
  selfSize: number;
  children: HeapNode[];
}

export function fmtQps(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x >= 1000 ? `${Math.round(x).toLocaleString('en-US')}` : x.toFixed(0);
}

export function fmtMm(x: number): string {
  return (x * 1000).toFixed(x < 1e-3 ? 4 : 2);
}

export default async function run(ctx: BenchContext): Promise<void> {
  const n = ctx.quick ? QUICK_POSES : FULL_POSES;
  const runs = ctx.quick ? 1 : TIMED_RUNS;
  const warmup = ctx.quick ? 1 : WARMUP_RUNS;
  const t0 = performance.now();
  const hf = buildCylinderScene();
  const poses = cylinderPoses(hf, n);
  const oracle = new Float64Array(n);
  for (let k = 0; k < n; k++) oracle[k] = oracleMaxDepth(poses[k], hf).depth;
  const setupS = (performance.now() - t0) / 1000;
  const timingPoses = poses.slice(0, Math.min(n, PEER_TIMING_POSES));
  const rows: Row[] = [];

  // Ours, engine form and plain API.
  // The production bundle, timed alone in a worker thread (bundleThroughputInWorker); then the
  // tsx copy in this process; then the bundle's allocation count here (the heap profiler needs
  // this process's inspector session), after every timing of ours.
  const bundleUrl = await buildBundle();
  const bundledQps = await bundleThroughputInWorker(bundleUrl, hf, poses, runs, warmup);
  const engine = oursEngine(hf);
  const acc = accuracy(poses, oracle, engine);
  const engineQps = passRates(poses, engine, runs, warmup);
  const allocated = await bytesPerQuery(poses, engine);
  const plainContext = new CylinderTerrainContext();
  const plainQps = passRates(poses, (p: CylinderPose): void => {
    collideCylinderTerrain(p, hf, plainContext);
  }, runs, warmup);
  const bundledAllocated = await bytesPerQuery(poses, await oursBundledEngine(bundleUrl, hf));
  rows.push({ name: 'ours (collideCylinderTerrainInto, ESM bundle)', qps: bundledQps, contactsPerQuery: acc.cpq, err: acc.err, missed: acc.missed, note: `all ${n} poses timed, alone in a worker thread; esbuild bundle of sim/index.ts (production form); allocates ${bundledAllocated.toFixed(1)} B/query` });
  rows.push({ name: 'ours (collideCylinderTerrainInto, tsx)', qps: engineQps, contactsPerQuery: acc.cpq, err: acc.err, missed: acc.missed, note: `all ${n} poses timed; allocates ${allocated.toFixed(1)} B/query` });
  rows.push({ name: 'ours (plain collideCylinderTerrain)', qps: plainQps, contactsPerQuery: acc.cpq, err: acc.err, missed: acc.missed, note: 'allocates result objects (buffers reused through a CylinderTerrainContext)' });

  const failures: string[] = [];
  const peers: Array<[string, () => Promise<Peer>]> = [
    ['Rapier', () => loadRapier(hf)],
    ['Jolt', () => loadJolt(hf)],
    // Jolt tuned (JOLT_TUNED, test/bench/peer-variants.ts): faster, no pose missed, depths within 0.1 mm of the row above.
    ['Jolt tuned', async () => ({ ...(await loadJolt(hf, JOLT_TUNED)), name: `Jolt (EPA tolerance ${JOLT_TUNED.penetrationTolerance})` })],
    ['Jolt tuned, deepest hit', async () => ({ ...(await loadJolt(hf, { ...JOLT_TUNED, collector: 'closest' })), name: `Jolt (EPA tolerance ${JOLT_TUNED.penetrationTolerance}, deepest hit only)` })],
    ['MuJoCo', () => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH)],
  ];
  const methods: string[] = [];
  for (const [name, load] of peers) {
    let peer: Peer;
    try {
      peer = await load();
    } catch (e) {
      failures.push(`${name}: failed to load (${e instanceof Error ? e.message : String(e)})`);
      continue;
    }
    try {
      const a = accuracy(poses, oracle, (p) => peer.query(p));
      const qps = passRates(timingPoses, (p) => {
        peer.query(p);
      }, runs, warmup);
      rows.push({ name: peer.name, qps, contactsPerQuery: a.cpq, err: a.err, missed: a.missed, note: `timed on ${timingPoses.length} poses; terrain build ${peer.buildMs.toFixed(0)} ms` });
      methods.push(`- **${peer.name}**: ${peer.method}.`);
    } catch (e) {
      failures.push(`${name}: query failed (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      peer.dispose();
    }
  }

  const peerRows = rows.filter((r) => !r.name.startsWith('ours'));
  const fastestPeer = peerRows.reduce((m, r) => Math.max(m, r.qps.cpu), 0);
  console.log(`\n### Cylinder–terrain: ${n.toLocaleString('en-US')} wheel poses on a 513 × 513 fractal terrain with 0.1 m curbs (dx = 0.05 m)\n`);
  console.log(`| method | queries per CPU-second of the query thread (median of ${runs}) | queries/s wall clock | × fastest peer (CPU) | contacts/query | depth error p50 / p95 / p99 / max [mm] | missed (> 0.1 mm) | note |`);
  console.log('|---|---:|---:|---:|---:|---|---:|---|');
  for (const r of rows) {
    const ratio = fastestPeer > 0 ? (r.qps.cpu / fastestPeer).toFixed(1) : 'n/a';
    const e = r.err;
    console.log(
      `| ${r.name} | ${fmtQps(r.qps.cpu)} | ${fmtQps(r.qps.wall)} | ${ratio} | ${r.contactsPerQuery.toFixed(2)} | ${fmtMm(quantile(e, 0.5))} / ${fmtMm(quantile(e, 0.95))} / ${fmtMm(quantile(e, 0.99))} / ${fmtMm(e[e.length - 1])} | ${r.missed} | ${r.note} |`,
    );
  }
  for (const f of failures) console.log(`| ${f} | | | | | | | |`);
  console.log(`\nLoad average while running: ${loadavg().map((x) => x.toFixed(1)).join(' / ')} on ${cpus().length} cores (CPU-second rates are the comparable column when the machine is shared).`);
  console.log(`Scene + ${n} poses + oracle depths: ${setupS.toFixed(1)} s. Oracle: poses with contact ${Array.from(oracle).filter((d) => d > MISS_THRESHOLD).length} of ${n}, mean depth ${fmtMm(oracle.reduce((s, d) => s + d, 0) / n)} mm.`);
  console.log('Depth error is against the oracle\'s definition (clipped lowest side line, case-A base disc, terrain edge pokes).');
  console.log('Peers measure a minimum translation distance per triangle (Jolt, Rapier) or per triangle prism (MuJoCo, at most 50 contacts per pair), which differs from that definition near rims and curbs: their error column is mostly that difference, not noise.');
  for (const m of methods) console.log(m);
  const worst = worstPoses(oracle, acc.depth, WORST_LIMIT, WORST_COUNT);
  console.log(`\nOurs vs oracle, poses off by > ${fmtMm(WORST_LIMIT)} mm: ${worst.total} of ${n} (cylinderPoses(buildCylinderScene(), ${n}), default seed), worst first:`);
  for (const w of worst.lines) console.log(`- ${w}`);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
