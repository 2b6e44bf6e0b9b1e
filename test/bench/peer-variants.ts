/**
 * Peer-configuration study for the wheel bench (issue #12's "fastest peer that misses no
 * contact"): is there a Jolt configuration faster than the bench's Jolt row that still misses no
 * contact? Not part of `npm run bench`; run it alone:
 *
 *   npx tsx test/bench/peer-variants.ts [--passes N] [--poses N] [--only substring,substring]
 *
 * Every variant answers the bench's query (test/bench/cylinder.bench.ts): the same scene, the
 * same 10,000 seeded poses for accuracy (contacts per query, |max depth − oracle| percentiles,
 * missed = oracle depth > 0.1 mm and no contact, by the bench's own `accuracy`), the same first
 * 1,000 poses for timing, the same pass timer (pass-timer.mjs: one untimed pass, then a pass of
 * ≥ 1 s, by the querying thread's CPU time). On a shared 2-core machine absolute rates drift, so
 * each variant is timed in pairs with the bench's Jolt row ("jolt mesh (bench row)") in this
 * process, the pair order alternating, and the table reports the median of the variant's passes
 * and the median of the per-pair ratios variant / bench row.
 *
 * Each peer gets its own wasm instance, as in the bench (jolt-physics 1.1.0's heap is a fixed
 * 128 MiB: a second 513 × 513 MeshShape in one instance, or one with fewer than 8 triangles per
 * leaf, runs out of memory); the first row times the bench's Jolt row against a second copy of
 * itself: its ratio shows the pairing's noise.
 *
 * Result (2026-11-25, 5 pass pairs, load ≈ 2.5 on 2 cores): the active-edge, back-face and
 * collect-faces modes, the HeightFieldShape (most exact: block 2, 8 bits, heights off by up to
 * 0.43 mm) and the closest-hit collector are each within 0–3 % of the bench row; the GJK
 * collision tolerance and a rounded cylinder (convex radius) are slower or miss poses. Only EPA's
 * penetration tolerance (relative) buys speed: 4e-3 gives 1.20× (1.25× with the closest-hit
 * collector) with no pose missed and every depth within 0.1 mm of the bench row's, which the
 * bench now reports as its tuned Jolt rows (JOLT_TUNED in test/oracle/cylinder-peers.ts).
 * Looser tolerances are faster (1: 1.82×) and miss nothing either, but move depths by up to
 * 13 mm. MuJoCo's ccd_tolerance 1e-5 (default 1e-6) gives 1.05× the bench Jolt row with the same
 * depths; 2e-5 and looser report spurious depths of 18–26 cm.
 */
import initJolt from 'jolt-physics/wasm-compat';
import { cpus, loadavg } from 'node:os';
import type { Heightfield } from '../../sim/terrain/heightfield';
import { oracleMaxDepth, type CylinderPose } from '../oracle/cylinder-oracle';
import { Rng } from '../../sim/math/random';
import { joltStaticBody, joltTerrainHeightfield, loadJolt, loadMujoco, loadRapier, type JoltOptions, type Peer } from '../oracle/cylinder-peers';
import { buildCylinderScene, cylinderPoses, WHEEL_RADIUS, WHEEL_WIDTH } from '../oracle/cylinder-poses';
import { accuracy, fmtMm, fmtQps, quantile } from './cylinder.bench';
import { passRates } from './pass-timer.mjs';

const ACCURACY_POSES = 10_000;
const TIMING_POSES = 1_000;
const PASSES = 5;
/** Vertical rays that check which diagonal Jolt's HeightFieldShape uses in our frame. */
const DIAGONAL_RAYS = 2_000;
/** [m] A ray hit within this of the plane of the (quantised) V1–V2 triangle counts as on it (float32 slack). */
const DIAGONAL_SLACK = 2e-5;

type JoltModule = Awaited<ReturnType<typeof initJolt>>;

interface Variant {
  name: string;
  load: (hf: Heightfield) => Promise<Peer>;
  /** Which bench row's depths this variant is compared with (default: the bench's Jolt row). */
  family?: 'jolt' | 'rapier' | 'mujoco';
  /** HeightFieldShape settings, to report the height quantisation error. */
  heightfield?: { blockSize: number; bitsPerSample: number };
}

const jolt = (name: string, opts: JoltOptions): Variant => ({
  name,
  load: (hf) => loadJolt(hf, opts),
  heightfield: opts.terrain === 'heightfield' ? { blockSize: opts.blockSize ?? 2, bitsPerSample: opts.bitsPerSample ?? 8 } : undefined,
});

const BASELINE = jolt('jolt mesh (bench row)', {});

const VARIANTS: Variant[] = [
  // 1. HeightFieldShape of our heights, placed so its diagonal is our V1–V2 (checked by rays
  //    below). Block 2 / 8 bits per sample is the most exact Jolt allows; bigger blocks for speed.
  jolt('jolt heightfield b2/8bit', { terrain: 'heightfield', blockSize: 2, bitsPerSample: 8 }),
  jolt('jolt heightfield b4/8bit', { terrain: 'heightfield', blockSize: 4, bitsPerSample: 8 }),
  jolt('jolt heightfield b8/8bit', { terrain: 'heightfield', blockSize: 8, bitsPerSample: 8 }),
  jolt('jolt heightfield b2/8bit, active edges only, no back faces', { terrain: 'heightfield', activeEdges: 'active', backFaces: false }),
  jolt('jolt heightfield b2/8bit, closest hit', { terrain: 'heightfield', collector: 'closest' }),
  jolt('jolt heightfield b2/8bit, penetration tolerance 4e-3', { terrain: 'heightfield', penetrationTolerance: 4e-3 }),
  // 2. MeshShape with Jolt's default active-edge / back-face modes.
  jolt('jolt mesh, active edges only', { activeEdges: 'active' }),
  jolt('jolt mesh, no back faces', { backFaces: false }),
  jolt('jolt mesh, active edges only, no back faces (Jolt defaults)', { activeEdges: 'active', backFaces: false }),
  // 3. Other settings: faces, collectors, tree leaves, edge removal.
  jolt('jolt mesh, collect faces', { collectFaces: true }),
  jolt('jolt mesh, closest (deepest) hit collector', { collector: 'closest' }),
  jolt('jolt mesh, 4 triangles per leaf', { maxTrianglesPerLeaf: 4 }),
  jolt('jolt mesh, 6 triangles per leaf', { maxTrianglesPerLeaf: 6 }),
  jolt('jolt mesh, CollideShapeWithInternalEdgeRemoval (collect faces)', { internalEdgeRemoval: true, collectFaces: true }),
  // A rounded wheel: EPA only where the shrunk core penetrates (changes the shape at the rims).
  jolt('jolt mesh, cylinder convex radius 1 mm', { convexRadius: 1e-3 }),
  jolt('jolt mesh, cylinder convex radius 5 mm', { convexRadius: 5e-3 }),
  jolt('jolt mesh, cylinder convex radius 50 mm (Jolt default)', { convexRadius: 0.05 }),
  // GJK collision tolerance [m] (Jolt's default 1e-4 m).
  jolt('jolt mesh, collision tolerance 1e-3', { collisionTolerance: 1e-3 }),
  jolt('jolt mesh, penetration+collision tolerance 1e-3', { penetrationTolerance: 1e-3, collisionTolerance: 1e-3 }),
  jolt('jolt mesh, penetration+collision tolerance 1e-2', { penetrationTolerance: 1e-2, collisionTolerance: 1e-2 }),
  // EPA penetration tolerance (relative, Jolt's default 1e-4): the depth is good to about half of it.
  jolt('jolt mesh, penetration tolerance 1e-3', { penetrationTolerance: 1e-3 }),
  jolt('jolt mesh, penetration tolerance 2e-3', { penetrationTolerance: 2e-3 }),
  jolt('jolt mesh, penetration tolerance 3e-3', { penetrationTolerance: 3e-3 }),
  jolt('jolt mesh, penetration tolerance 4e-3 (bench: JOLT_TUNED)', { penetrationTolerance: 4e-3 }),
  jolt('jolt mesh, penetration tolerance 4e-3, closest hit (bench: JOLT_TUNED, deepest hit)', { penetrationTolerance: 4e-3, collector: 'closest' }),
  jolt('jolt mesh, penetration tolerance 5e-3', { penetrationTolerance: 5e-3 }),
  jolt('jolt mesh, penetration tolerance 1e-2', { penetrationTolerance: 1e-2 }),
  jolt('jolt mesh, penetration tolerance 3e-2', { penetrationTolerance: 3e-2 }),
  jolt('jolt mesh, penetration tolerance 1e-1', { penetrationTolerance: 1e-1 }),
  jolt('jolt mesh, penetration tolerance 3e-1', { penetrationTolerance: 3e-1 }),
  jolt('jolt mesh, penetration tolerance 1 (EPA stops at once)', { penetrationTolerance: 1 }),
  // The other peers of the bench, for the same ratio column, and MuJoCo's CCD settings.
  { name: 'rapier (bench row)', family: 'rapier', load: (hf) => loadRapier(hf) },
  { name: 'mujoco (bench row)', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH) },
  { name: 'mujoco ccd_tolerance 1e-5', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH, { ccdTolerance: 1e-5 }) },
  { name: 'mujoco ccd_tolerance 2e-5', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH, { ccdTolerance: 2e-5 }) },
  { name: 'mujoco ccd_tolerance 5e-5', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH, { ccdTolerance: 5e-5 }) },
  { name: 'mujoco ccd_tolerance 1e-4', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH, { ccdTolerance: 1e-4 }) },
  { name: 'mujoco ccd_tolerance 1e-3', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH, { ccdTolerance: 1e-3 }) },
  { name: 'mujoco ccd_iterations 20', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH, { ccdIterations: 20 }) },
  { name: 'mujoco ccd_iterations 10', family: 'mujoco', load: (hf) => loadMujoco(hf, WHEEL_RADIUS, WHEEL_WIDTH, { ccdIterations: 10 }) },
];

function arg(name: string): string | undefined {
  const k = process.argv.indexOf(name);
  return k >= 0 ? process.argv[k + 1] : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** [m] |Jolt's decoded height − ours| over all samples: p50, p95, p99, max. */
function quantisationError(J: JoltModule, hf: Heightfield, blockSize: number, bitsPerSample: number): number[] {
  const { shape } = joltTerrainHeightfield(J, hf, blockSize, bitsPerSample);
  shape.AddRef(); // ours until the Release below (Jolt's shapes are reference counted)
  const hs = J.castObject(shape, J.HeightFieldShape);
  const errs: number[] = [];
  for (let sy = 0; sy < hf.rows; sy++) {
    for (let sx = 0; sx < hf.cols; sx++) errs.push(Math.abs(hs.GetPosition(sx, sy).GetY() - hf.height(sx, hf.rows - 1 - sy)));
  }
  shape.Release();
  errs.sort((a, b) => a - b);
  return [0.5, 0.95, 0.99, 1].map((f) => quantile(errs, f));
}

/**
 * Casts vertical rays at random points onto the HeightFieldShape placed as loadJolt places it,
 * and compares the hit heights with the two possible triangulations of Jolt's own decoded
 * sample heights: our V1–V2 diagonal and the other one (V0–V3). Returns the largest deviation
 * from each [m]; throws when the V1–V2 one is off by more than DIAGONAL_SLACK.
 */
function checkHeightfieldDiagonal(J: JoltModule, hf: Heightfield): { v1v2: number; v0v3: number } {
  const { shape, rotation } = joltTerrainHeightfield(J, hf, 2, 8);
  const hs = J.castObject(shape, J.HeightFieldShape);
  const { jolt, npq, bpFilter, olFilter, bodyFilter } = joltStaticBody(J, shape, rotation);
  const settings = new J.RayCastSettings();
  const collector = new J.CastRayClosestHitCollisionCollector();
  const shapeFilter = new J.ShapeFilter();
  const origin = new J.RVec3(0, 0, 0);
  const down = new J.Vec3(0, 0, -10);
  const h = (i: number, j: number): number => hs.GetPosition(i, hf.rows - 1 - j).GetY();
  const rng = new Rng(7);
  const top = hf.maxHeight + 5;
  let v1v2 = 0, v0v3 = 0;
  for (let k = 0; k < DIAGONAL_RAYS; k++) {
    const x = rng.range(hf.x0 + 1, hf.x0 + hf.cellsX * hf.dx - 1);
    const y = rng.range(hf.y0 + 1, hf.y0 + hf.cellsY * hf.dy - 1);
    origin.Set(x, y, top);
    const ray = new J.RRayCast(origin, down);
    collector.Reset();
    npq.CastRay(ray, settings, collector, bpFilter, olFilter, bodyFilter, shapeFilter);
    J.destroy(ray);
    if (!collector.HadHit()) throw new Error(`heightfield diagonal check: no hit at (${x}, ${y})`);
    const z = top - 10 * collector.mHit.mFraction;
    const fx = (x - hf.x0) / hf.dx, fy = (y - hf.y0) / hf.dy;
    const i = Math.floor(fx), j = Math.floor(fy), u = fx - i, v = fy - j;
    const h0 = h(i, j), h1 = h(i + 1, j), h2 = h(i, j + 1), h3 = h(i + 1, j + 1);
    const onV1V2 = u + v <= 1 ? h0 + u * (h1 - h0) + v * (h2 - h0) : h3 + (1 - u) * (h2 - h3) + (1 - v) * (h1 - h3);
    const onV0V3 = u >= v ? h0 + u * (h1 - h0) + v * (h3 - h1) : h0 + v * (h2 - h0) + u * (h3 - h2);
    v1v2 = Math.max(v1v2, Math.abs(z - onV1V2));
    v0v3 = Math.max(v0v3, Math.abs(z - onV0V3));
  }
  J.destroy(collector);
  J.destroy(jolt);
  if (v1v2 > DIAGONAL_SLACK) throw new Error(`heightfield diagonal check: ray hits are ${v1v2} m off our V1–V2 triangles`);
  return { v1v2, v0v3 };
}

interface Result {
  name: string;
  cpu: number;
  ratio: number;
  ratios: number[];
  cpq: number;
  err: number[];
  missed: number;
  extra: number;
  /** [m] |max depth − the max depth of the same peer's bench row| per pose: p99, max. */
  vsBench: number[];
  note: string;
}

async function main(): Promise<void> {
  const passes = Number(arg('--passes') ?? PASSES);
  const nAcc = Number(arg('--poses') ?? ACCURACY_POSES);
  const only = arg('--only')?.split(',');
  const t0 = performance.now();
  const hf = buildCylinderScene();
  const poses = cylinderPoses(hf, nAcc);
  const oracle = new Float64Array(nAcc);
  for (let k = 0; k < nAcc; k++) oracle[k] = oracleMaxDepth(poses[k], hf).depth;
  const timing: readonly CylinderPose[] = poses.slice(0, Math.min(nAcc, TIMING_POSES));
  console.log(`scene + ${nAcc} poses + oracle: ${((performance.now() - t0) / 1000).toFixed(1)} s; oracle contact poses ${oracle.filter((d) => d > 1e-4).length}`);

  const J = await initJolt(); // for the diagonal check and the quantisation error only
  const diag = checkHeightfieldDiagonal(J, hf);
  console.log(`HeightFieldShape placement: ${DIAGONAL_RAYS} vertical rays hit Jolt's decoded surface within ${fmtMm(diag.v1v2)} mm of our V1–V2 triangles (the other diagonal: up to ${fmtMm(diag.v0v3)} mm off)`);
  const baseline = await BASELINE.load(hf);
  const results: Result[] = [];
  // Each peer's bench-row max depth per pose, for the |variant − bench row| column.
  const benchRows: Record<string, Variant> = {
    jolt: BASELINE,
    rapier: { name: 'rapier', load: (h) => loadRapier(h) },
    mujoco: { name: 'mujoco', load: (h) => loadMujoco(h, WHEEL_RADIUS, WHEEL_WIDTH) },
  };
  const benchDepth: Record<string, Float64Array> = { jolt: accuracy(poses, oracle, (p) => baseline.query(p)).depth };
  const benchDepthOf = async (family: string): Promise<Float64Array> => {
    if (benchDepth[family] === undefined) {
      const peer = await benchRows[family].load(hf);
      benchDepth[family] = accuracy(poses, oracle, (p) => peer.query(p)).depth;
      peer.dispose();
    }
    return benchDepth[family];
  };
  const variants = [BASELINE, ...VARIANTS.filter((v) => only === undefined || only.some((o) => v.name.includes(o)))];
  for (const v of variants) {
    let peer: Peer;
    try {
      peer = await v.load(hf);
    } catch (e) {
      // e.g. Aborted(OOM): jolt-physics 1.1.0's wasm heap is a fixed 128 MiB
      console.log(`${v.name}: failed to load (${e instanceof Error ? e.message : String(e)})`);
      results.push({ name: v.name, cpu: NaN, ratio: NaN, ratios: [], cpq: NaN, err: [NaN], missed: NaN, extra: NaN, vsBench: [NaN, NaN], note: `failed to load: ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    try {
      const a = accuracy(poses, oracle, (p) => peer.query(p));
      // Poses where the variant reports contact and the oracle has none (> 0.1 mm deep in the variant).
      let extra = 0;
      for (let k = 0; k < nAcc; k++) if (oracle[k] === 0 && a.depth[k] > 1e-4) extra++;
      const ref = await benchDepthOf(v.family ?? 'jolt');
      const diff = Array.from(a.depth, (d, k) => Math.abs(d - ref[k])).sort((x, y) => x - y);
      const vsBench = [quantile(diff, 0.99), diff[diff.length - 1]];
      const cpu: number[] = [];
      const ratios: number[] = [];
      const timeOne = (q: Peer): number => passRates(timing, (p) => { q.query(p); }, 1, 1).cpu;
      for (let r = 0; r < passes; r++) {
        let vr: number, br: number;
        if (r % 2 === 0) {
          br = timeOne(baseline);
          vr = timeOne(peer);
        } else {
          vr = timeOne(peer);
          br = timeOne(baseline);
        }
        cpu.push(vr);
        ratios.push(vr / br);
      }
      const quant = v.heightfield ? quantisationError(J, hf, v.heightfield.blockSize, v.heightfield.bitsPerSample) : undefined;
      const note = quant ? `height quantisation p50/p95/p99/max ${quant.map(fmtMm).join(' / ')} mm` : '';
      const res: Result = { name: v.name, cpu: median(cpu), ratio: median(ratios), ratios, cpq: a.cpq, err: a.err, missed: a.missed, extra, vsBench, note };
      results.push(res);
      console.log(`${v.name}: ${fmtQps(res.cpu)} q/CPU-s, ×${res.ratio.toFixed(3)} (pairs ${ratios.map((x) => x.toFixed(3)).join(' ')}), missed ${res.missed}, extra ${extra}, ${res.cpq.toFixed(2)} contacts/q, vs bench row p99/max ${vsBench.map(fmtMm).join('/')} mm ${note}`);
    } finally {
      peer.dispose();
    }
  }
  baseline.dispose();

  console.log(`\n### Peer variants: ${nAcc.toLocaleString('en-US')} poses for accuracy, first ${timing.length} timed, ${passes} interleaved pass pairs per variant\n`);
  console.log('| variant | queries per CPU-second (median of passes) | × bench Jolt row (median of pair ratios) | contacts/query | depth error p50 / p95 / p99 / max [mm] | missed (> 0.1 mm) | contact where oracle has none (> 0.1 mm) | \\|depth − the same peer in its bench configuration\\| p99 / max [mm] | note |');
  console.log('|---|---:|---:|---:|---|---:|---:|---|---|');
  for (const r of results) {
    const e = r.err;
    console.log(`| ${r.name} | ${fmtQps(r.cpu)} | ${r.ratio.toFixed(2)} | ${r.cpq.toFixed(2)} | ${fmtMm(quantile(e, 0.5))} / ${fmtMm(quantile(e, 0.95))} / ${fmtMm(quantile(e, 0.99))} / ${fmtMm(e[e.length - 1])} | ${r.missed} | ${r.extra} | ${fmtMm(r.vsBench[0])} / ${fmtMm(r.vsBench[1])} | ${r.note} |`);
  }
  console.log(`\nLoad average: ${loadavg().map((x) => x.toFixed(1)).join(' / ')} on ${cpus().length} cores.`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
