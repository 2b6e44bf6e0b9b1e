/**
 * The `terrawheel` command as a user runs it: a child process through bin/terrawheel.mjs (the
 * package.json "bin"), and once through `npx terrawheel` in the repository. Exit codes, the help
 * (every option, every bundled scenario), pure JSON on stdout with --json, "did you mean", and
 * "file not found" instead of ENOENT. Runs are kept short (--duration 0.05 s); every spawn
 * starts Node and tsx, so the tests get generous timeouts for a loaded machine (no timing
 * assertions).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/terrawheel.mjs');
const SCENARIO = 'assets/scenarios/default.json';
/** [ms] One spawn of Node + tsx on a loaded 2-core machine, with a wide margin. */
const SPAWN_MS = 180_000;

/** The options the CLI documents, written out here (not read from its table) so a dropped one fails. */
const OPTIONS = ['--duration', '--throttle', '--steer', '--record', '--max-memory', '--json', '--scenario', '--out'];

interface Result {
  code: number;
  out: string;
  err: string;
}

function spawnCli(cmd: string, args: string[]): Promise<Result> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: SPAWN_MS, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ code, out: stdout, err: stderr });
    });
  });
}

const terrawheel = (...args: string[]) => spawnCli(process.execPath, [BIN, ...args]);

describe('package.json bin', () => {
  it('names bin/terrawheel.mjs, a Node script, and `npm run sim` goes through it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ terrawheel: 'bin/terrawheel.mjs' });
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(pkg.scripts.sim).toBe('node bin/terrawheel.mjs');
  });
});

describe('terrawheel (spawned)', () => {
  it('--help: exit 0, every option with its default, the bundled scenarios, nothing on stderr', async () => {
    const r = await terrawheel('--help');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe('');
    for (const o of OPTIONS) expect(r.out, o).toMatch(new RegExp(`^  ${o}\\b`, 'm'));
    expect(r.out.match(/\[default: /g)?.length).toBeGreaterThanOrEqual(OPTIONS.length);
    for (const f of readdirSync(join(ROOT, 'assets/scenarios')).filter((n) => n.endsWith('.json'))) expect(r.out).toContain(`assets/scenarios/${f}`);
    expect(r.out).toMatch(/^Examples:/m);
  }, SPAWN_MS);

  it('help <command>: exit 0 with that command\'s options only', async () => {
    const a = await terrawheel('help', 'export-csv');
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/^  --out <file\.csv>/m);
    expect(a.out).not.toMatch(/--duration/);
  }, SPAWN_MS);

  it('no arguments: the help on stderr, nothing on stdout, exit 2', async () => {
    const r = await terrawheel();
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/Usage:\n {2}terrawheel <command> \[options\]/);
  }, SPAWN_MS);

  it('a mistyped option or command: exit 2 with a suggestion', async () => {
    const a = await terrawheel('run', SCENARIO, '--durration', '1');
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/unknown option --durration for run; did you mean --duration\?/);
    const b = await terrawheel('verfy', 'x.mcap', '--json');
    expect(b.code).toBe(2);
    expect(JSON.parse(b.out)).toEqual({ error: expect.stringMatching(/did you mean verify\?/), exitCode: 2 });
  }, 2 * SPAWN_MS);

  it('a missing file: "file not found: <path>", exit 1, no ENOENT', async () => {
    const a = await terrawheel('run', 'assets/scenarios/no-such-scenario-here.json');
    expect(a.code).toBe(1);
    expect(a.err).toBe('terrawheel: file not found: assets/scenarios/no-such-scenario-here.json (the scenario)\n');
    const b = await terrawheel('verify', 'no-such.mcap', '--json');
    expect(b.code).toBe(1);
    expect(JSON.parse(b.out)).toEqual({ error: 'file not found: no-such.mcap (the recording)', exitCode: 1 });
    expect(b.out + b.err).not.toMatch(/ENOENT/);
  }, 2 * SPAWN_MS);

  it('npx terrawheel … --json: stdout is one JSON document (the run summary)', async () => {
    const r = await spawnCli(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--no-install', 'terrawheel', 'run', SCENARIO, '--duration', '0.05', '--json']);
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(r.out);
    expect(summary).toMatchObject({ scenario: 'Rolling hills', steps: 10, stateHash: expect.stringMatching(/^[0-9a-f]{16}$/) });
  }, SPAWN_MS);
});
