/**
 * Manual measurement of the cylinder–terrain query on the benchmark scene (not a test: vitest
 * only runs *.test.ts). The formal benchmark with peers is test/bench/cylinder.bench.ts; this is
 * the quick loop used while tuning:
 *
 *   npx tsx test/unit/cylinder-terrain/measure.ts [poses = 10000] [oracle poses = 300]
 *
 * Prints CPU-time queries/s of collideCylinderTerrainInto (process.cpuUsage: robust on a shared
 * machine), contacts/cells/elements/candidates per query, and the max-depth error against the
 * brute-force oracle (test/oracle/cylinder-oracle.ts) on the first poses.
 */
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import type { Vec3 } from '../../../sim/math/vec3';
import { oracleMaxDepth } from '../../oracle/cylinder-oracle';
import { buildCylinderScene, cylinderPoses } from '../../oracle/cylinder-poses';

const count = Number(process.argv[2] ?? 10000);
const oracleCount = Number(process.argv[3] ?? 300);
const hf = buildCylinderScene();
const poses = cylinderPoses(hf, count);
const ws = new CylinderTerrainWorkspace();
const out = new ContactBuffer(256);
const c: Vec3 = [0, 0, 0];
const v: Vec3 = [0, 0, 0];

function pass(): { points: number; cells: number; elements: number; candidates: number } {
  let points = 0, cells = 0, elements = 0, candidates = 0;
  for (const p of poses) {
    c[0] = p.center[0]; c[1] = p.center[1]; c[2] = p.center[2];
    v[0] = p.axis[0]; v[1] = p.axis[1]; v[2] = p.axis[2];
    out.clear();
    collideCylinderTerrainInto(out, c, v, { radius: p.radius, halfHeight: p.height / 2 }, hf, ws);
    points += out.count;
    cells += ws.cellsVisited;
    elements += ws.elementsTested;
    candidates += ws.candidateCount;
  }
  return { points, cells, elements, candidates };
}

pass(); // warm-up
const rates: number[] = [];
let stats = { points: 0, cells: 0, elements: 0, candidates: 0 };
for (let rep = 0; rep < 5; rep++) {
  const u0 = process.cpuUsage();
  stats = pass();
  const us = process.cpuUsage(u0).user;
  rates.push((poses.length * 1e6) / us);
}
rates.sort((a, b) => a - b);
const n = poses.length;
console.log(`queries per CPU-second (median of 5): ${rates[2].toFixed(0)}  = ${(1e6 / rates[2]).toFixed(2)} µs/query`);
console.log(`per query: contacts ${(stats.points / n).toFixed(2)}, cells visited ${(stats.cells / n).toFixed(1)}, elements ${(stats.elements / n).toFixed(1)}, candidates ${(stats.candidates / n).toFixed(1)}`);

const errors: number[] = [];
let missed = 0;
for (const p of poses.slice(0, oracleCount)) {
  out.clear();
  collideCylinderTerrainInto(out, p.center, p.axis, { radius: p.radius, halfHeight: p.height / 2 }, hf, ws);
  let depth = 0;
  for (let k = 0; k < out.count; k++) depth = Math.max(depth, out.depth[k]);
  const o = oracleMaxDepth(p, hf).depth;
  errors.push(Math.abs(depth - o));
  if (o > 1e-4 && out.count === 0) missed++;
}
errors.sort((a, b) => a - b);
const q = (f: number): string => (1e3 * errors[Math.min(errors.length - 1, Math.floor(f * errors.length))]).toFixed(4);
console.log(`max-depth error vs oracle over ${errors.length} poses [mm]: p50 ${q(0.5)} p95 ${q(0.95)} p99 ${q(0.99)} max ${q(1)}; missed ${missed}`);
