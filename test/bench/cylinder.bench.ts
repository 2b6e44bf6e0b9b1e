/**
 * Cylinder (wheel) vs terrain: ours vs Rapier, Jolt and MuJoCo on one scene, in one run.
 *
 * Scene (test/oracle/cylinder-poses.ts, shared with the oracle and fuzz tests): 513 × 513
 * diamond-square terrain, dx = 0.05 m, 24 curbs of 0.1 m; wheel r = 0.3 m, width 0.2 m at 10,000
 * seeded poses (random yaw, roll ≤ 5°, settled to a 0–5 cm maximum depth by the oracle).
 *
 * Columns:
 *   queries/s     median of 5 timed passes after one warm-up pass. Ours: the engine form
 *                 collideCylinderTerrainInto (reused ContactBuffer and workspace, no allocation)
 *                 over all poses; the plain API (allocating result objects) in its own row.
 *                 Peers: over the first PEER_TIMING_POSES poses (a full 10,000-pose pass of
 *                 MuJoCo takes minutes), their per-query JS→wasm calls included.
 *   contacts/q    mean number of contacts per query, over all poses.
 *   depth error   |max contact depth − oracle maximum depth| over all poses (p50/p95/p99/max),
 *                 oracle: test/oracle/cylinder-oracle.ts (its header defines the depth).
 *   missed        poses where the oracle depth is > 0.1 mm and the method reports no contact.
 *
 * Run: `npm run bench -- cylinder` (add `--quick` for a 500-pose smoke run).
 */
import { ContactBuffer } from '../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../sim/collision/cylinder-terrain/collide';
import { collideCylinderTerrain } from '../../sim/collision/cylinder-terrain/plain-api';
import { CylinderTerrainWorkspace } from '../../sim/collision/cylinder-terrain/workspace';
import type { Vec3 } from '../../sim/math/vec3';
import type { Heightfield } from '../../sim/terrain/heightfield';
import { oracleMaxDepth, type CylinderPose } from '../oracle/cylinder-oracle';
import { loadJolt, loadMujoco, loadRapier, type Peer } from '../oracle/cylinder-peers';
import { buildCylinderScene, cylinderPoses, WHEEL_RADIUS, WHEEL_WIDTH } from '../oracle/cylinder-poses';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const FULL_POSES = 10_000;
const QUICK_POSES = 500;
const PEER_TIMING_POSES = 1_000;
const TIMED_RUNS = 5;
/** [m] A pose "has contact" for the missed-contact count when the oracle depth exceeds this (0.1 mm). */
const MISS_THRESHOLD = 1e-4;
/** Output slots for the engine form: a wheel yields a few normal groups of ≤ 4 points. */
const OUTPUT_CAPACITY = 256;

interface Row {
  name: string;
  qps: number;
  contactsPerQuery: number;
  err: number[];
  missed: number;
  note: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function quantile(sorted: number[], f: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
}

/** queries/s: median of TIMED_RUNS passes after one warm-up pass over `poses`. */
function throughput(poses: readonly CylinderPose[], query: (p: CylinderPose) => void, runs: number): number {
  const rates: number[] = [];
  for (let r = 0; r <= runs; r++) {
    const t0 = performance.now();
    for (const p of poses) query(p);
    const dt = performance.now() - t0;
    if (r > 0) rates.push(poses.length / (dt / 1000));
  }
  return median(rates);
}

/** Accuracy pass: contacts per query, |depth − oracle| per pose, missed contacts. */
function accuracy(poses: readonly CylinderPose[], oracle: Float64Array, query: (p: CylinderPose) => { contacts: number; maxDepth: number }): { cpq: number; err: number[]; missed: number } {
  let contacts = 0;
  let missed = 0;
  const err: number[] = [];
  for (let k = 0; k < poses.length; k++) {
    const r = query(poses[k]);
    contacts += r.contacts;
    err.push(Math.abs(r.maxDepth - oracle[k]));
    if (oracle[k] > MISS_THRESHOLD && r.contacts === 0) missed++;
  }
  err.sort((a, b) => a - b);
  return { cpq: contacts / poses.length, err, missed };
}

function oursEngine(hf: Heightfield): (p: CylinderPose) => { contacts: number; maxDepth: number } {
  const out = new ContactBuffer(OUTPUT_CAPACITY);
  const ws = new CylinderTerrainWorkspace();
  const res = { contacts: 0, maxDepth: 0 };
  return (p) => {
    out.clear();
    collideCylinderTerrainInto(out, p.center as Vec3, p.axis as Vec3, p.radius, p.height / 2, hf, ws);
    let d = 0;
    for (let k = 0; k < out.count; k++) if (out.depth[k] > d) d = out.depth[k];
    res.contacts = out.count;
    res.maxDepth = d;
    return res;
  };
}

function fmtQps(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x >= 1000 ? `${Math.round(x).toLocaleString('en-US')}` : x.toFixed(0);
}

function fmtMm(x: number): string {
  return (x * 1000).toFixed(x < 1e-3 ? 4 : 2);
}

export default async function run(ctx: BenchContext): Promise<void> {
  const n = ctx.quick ? QUICK_POSES : FULL_POSES;
  const runs = ctx.quick ? 1 : TIMED_RUNS;
  const t0 = performance.now();
  const hf = buildCylinderScene();
  const poses = cylinderPoses(hf, n);
  const oracle = new Float64Array(n);
  for (let k = 0; k < n; k++) oracle[k] = oracleMaxDepth(poses[k], hf).depth;
  const setupS = (performance.now() - t0) / 1000;
  const timingPoses = poses.slice(0, Math.min(n, PEER_TIMING_POSES));
  const rows: Row[] = [];

  // Ours, engine form and plain API.
  const engine = oursEngine(hf);
  const acc = accuracy(poses, oracle, engine);
  rows.push({ name: 'ours (collideCylinderTerrainInto)', qps: throughput(poses, engine, runs), contactsPerQuery: acc.cpq, err: acc.err, missed: acc.missed, note: `all ${n} poses timed` });
  const plain = (p: CylinderPose): void => {
    collideCylinderTerrain(p, hf);
  };
  rows.push({ name: 'ours (plain collideCylinderTerrain)', qps: throughput(poses, plain, runs), contactsPerQuery: acc.cpq, err: acc.err, missed: acc.missed, note: 'allocates result objects' });

  const failures: string[] = [];
  const peers: Array<[string, () => Promise<Peer>]> = [
    ['Rapier', () => loadRapier(hf)],
    ['Jolt', () => loadJolt(hf)],
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
      const qps = throughput(timingPoses, (p) => {
        peer.query(p);
      }, runs);
      rows.push({ name: peer.name, qps, contactsPerQuery: a.cpq, err: a.err, missed: a.missed, note: `timed on ${timingPoses.length} poses; terrain build ${peer.buildMs.toFixed(0)} ms` });
      methods.push(`- **${peer.name}**: ${peer.method}.`);
    } catch (e) {
      failures.push(`${name}: query failed (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      peer.dispose();
    }
  }

  const peerRows = rows.filter((r) => !r.name.startsWith('ours'));
  const fastestPeer = peerRows.reduce((m, r) => Math.max(m, r.qps), 0);
  console.log(`\n### Cylinder–terrain: ${n.toLocaleString('en-US')} wheel poses on a 513 × 513 fractal terrain with 0.1 m curbs (dx = 0.05 m)\n`);
  console.log('| method | queries/s (median of 5) | × fastest peer | contacts/query | depth error p50 / p95 / p99 / max [mm] | missed (> 0.1 mm) | note |');
  console.log('|---|---:|---:|---:|---|---:|---|');
  for (const r of rows) {
    const ratio = fastestPeer > 0 ? (r.qps / fastestPeer).toFixed(1) : 'n/a';
    const e = r.err;
    console.log(
      `| ${r.name} | ${fmtQps(r.qps)} | ${ratio} | ${r.contactsPerQuery.toFixed(2)} | ${fmtMm(quantile(e, 0.5))} / ${fmtMm(quantile(e, 0.95))} / ${fmtMm(quantile(e, 0.99))} / ${fmtMm(e[e.length - 1])} | ${r.missed} | ${r.note} |`,
    );
  }
  for (const f of failures) console.log(`| ${f} | | | | | | |`);
  console.log(`\nScene + ${n} poses + oracle depths: ${setupS.toFixed(1)} s. Oracle: poses with contact ${Array.from(oracle).filter((d) => d > MISS_THRESHOLD).length} of ${n}, mean depth ${fmtMm(oracle.reduce((s, d) => s + d, 0) / n)} mm.`);
  console.log('Depth error is against the oracle\'s definition (clipped lowest side line, case-A base disc, terrain edge pokes).');
  console.log('Peers measure a minimum translation distance per triangle (Jolt, Rapier) or per triangle prism (MuJoCo, at most 50 contacts per pair), which differs from that definition near rims and curbs: their error column is mostly that difference, not noise.');
  for (const m of methods) console.log(m);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
