/**
 * @doyensec/electronegativity (Electron security linter) over the main-process sources (electron/)
 * and over the bundled main process that ships (scripts/build-electron.mjs output): zero findings
 * that electron/electronegativity-accepted.json does not explain, and no explanation without its
 * finding. Runs offline: the scanner's two network fetches (translations, Electron releases) are
 * answered by a stub `got` that fails at once, and the release check is excluded (see the JSON).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const require = createRequire(import.meta.url);

interface Accepted {
  excludedChecks: { check: string; reason: string }[];
  accepted: { target: 'sources' | 'built'; id: string; file: string; reason: string }[];
}
interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  manualReview: boolean;
}
type Run = (options: Record<string, unknown>, forCli?: boolean) => Promise<{ issues: Issue[]; errors: { file: string; message: string; tolerable: boolean }[] }>;

const accepted = JSON.parse(readFileSync(path.join(ROOT, 'electron/electronegativity-accepted.json'), 'utf8')) as Accepted;

/** Load electronegativity with `got` replaced by a function that rejects at once (no network). */
function loadScanner(): Run {
  const Module = require('node:module') as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const original = Module._load;
  const offlineGot = Object.assign(() => Promise.reject(new Error('offline (test)')), { get: () => Promise.reject(new Error('offline (test)')) });
  Module._load = function (request: string, parent: unknown, isMain: boolean) {
    if (request === 'got') return offlineGot;
    return original.call(this, request, parent, isMain);
  };
  try {
    return require('@doyensec/electronegativity') as Run;
  } finally {
    Module._load = original;
  }
}

let work: string;
let run: Run;
const found: Record<'sources' | 'built', Issue[]> = { sources: [], built: [] };

async function scan(input: string): Promise<Issue[]> {
  const log = console.log;
  console.log = () => undefined; // the scanner prints "Could not retrieve updated translations"
  try {
    const res = await run({
      input,
      isRelative: true,
      electronVersionOverride: '45.4.1',
      excludeFromScan: accepted.excludedChecks.map((c) => c.check.toLowerCase()),
    });
    const fatal = res.errors.filter((e) => !e.tolerable);
    expect(fatal, JSON.stringify(fatal)).toEqual([]);
    return res.issues;
  } finally {
    console.log = log;
  }
}

beforeAll(async () => {
  run = loadScanner();
  work = mkdtempSync(path.join(tmpdir(), 'tw-electronegativity-'));
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-electron.mjs'), '--outdir', path.join(work, 'build')], { encoding: 'utf8', timeout: 100_000 }); // a hang guard under vitest's 120 s hookTimeout, not a budget
  expect(build.status, build.stderr).toBe(0);
  // Only what ships: the two bundles, without their source maps.
  const shipped = path.join(work, 'shipped');
  mkdirSync(shipped, { recursive: true });
  for (const f of ['main.cjs', 'preload.cjs']) copyFileSync(path.join(work, 'build', f), path.join(shipped, f));
  found.sources = await scan(path.join(ROOT, 'electron'));
  found.built = await scan(shipped);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** "main.ts" for a file finding, "N/A" for a global one. */
function fileKey(i: Issue): string {
  return i.file === 'N/A' ? 'N/A' : path.basename(i.file);
}

function explained(target: 'sources' | 'built', issue: Issue): boolean {
  return accepted.accepted.some((a) => a.target === target && a.id === issue.id && a.file === fileKey(issue));
}

describe('electronegativity', () => {
  it('every accepted finding and excluded check has a reason', () => {
    for (const a of [...accepted.accepted, ...accepted.excludedChecks]) expect(a.reason.length).toBeGreaterThan(40);
  });

  it.each(['sources', 'built'] as const)('%s: no finding without an explanation', (target) => {
    const unexplained = found[target].filter((i) => !explained(target, i)).map((i) => `${i.id} ${i.file}:${i.location.line}`);
    expect(unexplained).toEqual([]);
  });

  it.each(['sources', 'built'] as const)('%s: no explanation without its finding (remove stale entries)', (target) => {
    const stale = accepted.accepted
      .filter((a) => a.target === target)
      .filter((a) => !found[target].some((i) => i.id === a.id && fileKey(i) === a.file))
      .map((a) => `${a.id} ${a.file}`);
    expect(stale).toEqual([]);
  });

  it('the scanner does see this code: the checks that pass on the sources are the security-relevant ones', () => {
    // A scan that silently read nothing would pass the tests above; the sources must at least
    // produce the manual-review finding for the preload.
    expect(found.sources.some((i) => i.id === 'PRELOAD_JS_CHECK')).toBe(true);
  });
});
