#!/usr/bin/env node
/**
 * `npm test`: every stage runs (typecheck, unit/oracle/fuzz/scenario tests, Playwright end-to-end
 * tests, packaging check) even when an earlier one fails, so one failure never hides the others.
 * Ends with one line per stage and a closing "N passed, N failed" line; exits 1 if any failed.
 * `npm test -- --bail` stops at the first failure instead.
 */
import { spawnSync } from 'node:child_process';

const STAGES = ['typecheck', 'test:unit', 'test:e2e', 'dist:check'];
const bail = process.argv.includes('--bail');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = [];
for (const stage of STAGES) {
  const start = process.hrtime.bigint();
  const r = spawnSync(npm, ['run', stage], { stdio: 'inherit' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const ok = r.status === 0;
  results.push({ stage, ok, seconds, code: r.status ?? r.signal });
  if (!ok && bail) break;
}
console.log('\nnpm test: stages');
for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.stage.padEnd(11)} ${r.seconds.toFixed(0).padStart(5)} s${r.ok ? '' : ` (exit ${r.code})`}`);
const failed = results.filter((r) => !r.ok).length;
console.log(`stages: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && results.length === STAGES.length ? 0 : 1);
