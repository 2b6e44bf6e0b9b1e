import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Runs scripts/start.mjs as `npm start` would (with --no-build), against a fake Electron and a
// fake serve-web script, so both the launch path and the fallback are exercised without a binary.
const START = path.resolve(__dirname, '../../../scripts/start.mjs');
const ROOT = path.resolve(__dirname, '../../..');
const ELECTRON_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.electron;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-start-'));
  writeFileSync(path.join(dir, 'serve.mjs'), 'console.log("TerraWheel web app: http://127.0.0.1:4321/ ARGS=" + JSON.stringify(process.argv.slice(2)));\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runStart(args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, [START, '--no-build', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ELECTRON_SKIP_BINARY_DOWNLOAD: '1', TERRAWHEEL_SERVE_WEB: path.join(dir, 'serve.mjs'), ...env },
    timeout: 100_000, // a hang guard under vitest's 120 s testTimeout, not a budget
  });
  return { status: res.status, out: `${res.stdout}${res.stderr}` };
}

function fakeElectron(): string {
  const dist = path.join(dir, 'electron-dist');
  const exe = process.platform === 'win32' ? 'electron.exe' : 'electron';
  mkdirSync(dist);
  writeFileSync(path.join(dist, exe), '#!/bin/sh\necho "FAKE-ELECTRON $* RUN_AS_NODE=${ELECTRON_RUN_AS_NODE:-unset}"\nexit 7\n');
  chmodSync(path.join(dist, exe), 0o755);
  return dist;
}

describe.skipIf(process.platform === 'win32')('scripts/start.mjs', () => {
  it('launches the Electron binary on the app root with the extra arguments and its exit code', () => {
    const r = runStart(['--dev'], { ELECTRON_OVERRIDE_DIST_PATH: fakeElectron(), ELECTRON_RUN_AS_NODE: '1' });
    expect(r.out).toContain(`FAKE-ELECTRON ${ROOT} --dev RUN_AS_NODE=unset`);
    expect(r.status).toBe(7);
    expect(r.out).not.toContain('TerraWheel web app');
  });

  it('without a binary: one explanatory paragraph, then the web app is served with the arguments', () => {
    const r = runStart(['--port', '0'], { ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'nowhere') });
    expect(r.status).toBe(0);
    const paragraphs = r.out.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
    const explain = paragraphs.filter((p) => p.includes('could not start the desktop app'));
    expect(explain).toHaveLength(1);
    expect(explain[0]).not.toContain('\n'); // one paragraph, one line
    expect(explain[0]).toContain(`Electron ${ELECTRON_VERSION} binary is missing`);
    expect(explain[0]).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD=1 is set/);
    expect(explain[0]).toMatch(/npx install-electron/);
    expect(explain[0]).toMatch(/127\.0\.0\.1/);
    expect(r.out).toContain('TerraWheel web app: http://127.0.0.1:4321/ ARGS=["--port","0"]');
    expect(r.out.indexOf('could not start')).toBeLessThan(r.out.indexOf('TerraWheel web app'));
  });

  it('--web serves the web app even when Electron is present, without the paragraph', () => {
    const r = runStart(['--web'], { ELECTRON_OVERRIDE_DIST_PATH: fakeElectron() });
    expect(r.status).toBe(0);
    expect(r.out).toContain('TerraWheel web app: http://127.0.0.1:4321/ ARGS=[]');
    expect(r.out).not.toContain('FAKE-ELECTRON');
    expect(r.out).not.toContain('could not start');
  });

  it('a binary that is not executable counts as missing', () => {
    const dist = fakeElectron();
    chmodSync(path.join(dist, 'electron'), 0o644);
    const r = runStart([], { ELECTRON_OVERRIDE_DIST_PATH: dist });
    expect(r.out).toContain('could not start the desktop app');
    expect(r.out).not.toContain('FAKE-ELECTRON');
  });

  it('fails clearly when neither Electron nor the serve script exists', () => {
    const r = runStart([], { ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'nowhere'), TERRAWHEEL_SERVE_WEB: path.join(dir, 'missing.mjs') });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/cannot serve the web app either: .*missing\.mjs does not exist/);
  });
});
