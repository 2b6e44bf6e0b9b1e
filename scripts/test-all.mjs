#!/usr/bin/env node
/**
 * `npm test`: every stage runs (typecheck, unit/oracle/fuzz/scenario tests, Playwright end-to-end
 * tests, packaging check) even when an earlier one fails, so one failure never hides the others.
 * Ends with one line per stage, the failed tests by name with the first lines of their errors
 * (so a log's tail says what failed), and a closing "N passed, N failed" line; exits 1 if any
 * failed. `npm test -- --bail` stops at the first failure instead.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STAGES = ['typecheck', 'test:unit', 'test:e2e', 'dist:check'];
const bail = process.argv.includes('--bail');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const reports = mkdtempSync(join(tmpdir(), 'terrawheel-test-'));
const vitestJson = join(reports, 'vitest.json');
const playwrightJson = join(reports, 'playwright.json');

/** Extra arguments and environment per stage: a JSON report beside the usual console output. */
function stageRun(stage) {
  if (stage === 'test:unit') {
    return { args: ['--', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`], env: {} };
  }
  if (stage === 'test:e2e') {
    return { args: ['--', '--reporter=list,json'], env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson } };
  }
  return { args: [], env: {} };
}

const results = [];
for (const stage of STAGES) {
  const start = process.hrtime.bigint();
  const { args, env } = stageRun(stage);
  const r = spawnSync(npm, ['run', stage, ...args], { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const ok = r.status === 0;
  results.push({ stage, ok, seconds, code: r.status ?? r.signal });
  if (!ok && bail) break;
}

/** The first `n` non-empty lines of an error message, without terminal colours, each cut to 300 characters. */
function head(message, n = 4) {
  return String(message ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !/^\s*at .*node_modules/.test(l))
    .slice(0, n)
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Failed vitest tests and suites (a file that failed to load, a hook that threw) from its JSON report. */
function vitestFailures() {
  const report = readJson(vitestJson);
  if (!report) return undefined;
  const out = [];
  for (const file of report.testResults ?? []) {
    const rel = String(file.name ?? '').replace(`${process.cwd()}/`, '');
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) out.push({ where: `${rel} > ${t.fullName ?? t.title}`, lines: head((t.failureMessages ?? []).join('\n')) });
    if (failed.length === 0 && file.status === 'failed') out.push({ where: rel, lines: head(file.message) });
  }
  return out;
}

/** Failed Playwright tests (after their retries) from its JSON report. */
function playwrightFailures() {
  const report = readJson(playwrightJson);
  if (!report) return undefined;
  const out = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const last = (test.results ?? []).at(-1);
        const tag = test.status === 'flaky' ? ' (flaky: passed on a retry)' : '';
        out.push({ where: `test/e2e/${spec.file}:${spec.line} > ${[...path, spec.title].join(' > ')}${tag}`, lines: head(last?.error?.message) });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const e of report.errors ?? []) out.push({ where: 'playwright (outside a test)', lines: head(e.message) });
  return out;
}

console.log('\nnpm test: stages');
for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.stage.padEnd(11)} ${r.seconds.toFixed(0).padStart(5)} s${r.ok ? '' : ` (exit ${r.code})`}`);
const MAX_LISTED = 15;
for (const [stage, failures] of [['test:unit', vitestFailures()], ['test:e2e', playwrightFailures()]]) {
  const r = results.find((x) => x.stage === stage);
  if (!r) continue;
  if (failures === undefined) {
    if (!r.ok) console.log(`${stage}: no JSON report to name the failures; see the stage's output above`);
    continue;
  }
  if (failures.length === 0) continue;
  console.log(`${stage}: ${failures.length} failed${failures.length > MAX_LISTED ? ` (the first ${MAX_LISTED})` : ''}`);
  for (const f of failures.slice(0, MAX_LISTED)) {
    console.log(`  ✗ ${f.where}`);
    for (const l of f.lines) console.log(`      ${l}`);
  }
}
const failed = results.filter((r) => !r.ok).length;
console.log(`stages: ${results.length - failed} passed, ${failed} failed`);
rmSync(reports, { recursive: true, force: true });
process.exit(failed === 0 && results.length === STAGES.length ? 0 : 1);
