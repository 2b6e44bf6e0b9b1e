/**
 * The long completeness run: `npx tsx test/oracle/cylinder-completeness-run.ts [poses per kind]`
 * (default 10,000, or TW_ORACLE_POSES). Prints misses and depth-error quantiles per terrain kind.
 */
import { collideCylinderTerrain } from '../../sim/index';
import { formatStats, runCompleteness, TERRAIN_KINDS } from './cylinder-completeness-poses';

const count = Number(process.argv[2] ?? process.env.TW_ORACLE_POSES ?? 10000);
for (const kind of TERRAIN_KINDS) {
  const t0 = performance.now();
  const st = runCompleteness(kind, count, (cyl, hf) => collideCylinderTerrain(cyl, hf).contacts);
  console.log(formatStats(kind, st));
  console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
