import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_CSP } from '../../../electron/ipc-contract';

// Builds main.cjs and preload.cjs with the real build script, then runs them in Node against a
// fake `electron` module (fixtures/fake-electron.cjs). This pins the wiring that the plain-function
// tests cannot see: webPreferences, scheme registration order, IPC sender checks, navigation
// guards, CSP headers, menu → renderer messages, and what the preload exposes.
const ROOT = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(__dirname, 'fixtures');

interface FetchObs {
  status: number;
  csp: string | null;
  type: string | null;
  body: string;
}
interface CallObs {
  ok: boolean;
  value?: unknown;
  error?: string;
}
/** What fixtures/main-harness.cjs prints. */
interface MainObs {
  schemesRegisteredBeforeReady: boolean;
  privilegedSchemes: unknown[];
  windowCount: number;
  webPreferences: Record<string, unknown>;
  loadedUrl: string;
  ipcChannels: string[];
  menuTop: string[];
  permissionGranted: unknown;
  permissionCheck: unknown;
  navigation: Record<string, unknown>;
  protocol: Record<'index' | 'worker' | 'assetFallback' | 'traversal' | 'missing' | 'symlink', FetchObs>;
  ipc: Record<'trusted' | 'foreign' | 'badKind' | 'extraArg' | 'assets', CallObs>;
  sent: unknown[];
}
/** What fixtures/preload-harness.cjs prints. */
interface PreloadObs {
  exposedNames: string[];
  methods: string[];
  invokes: unknown[];
  received: unknown[];
  listenersAfterOff: number;
}

let dir: string;
let outDir: string;
let appDir: string;

function runHarness<T>(harness: string, entry: string, extraArgs: string[] = [], extraEnv: Record<string, string> = {}): T {
  const res = spawnSync(process.execPath, [path.join(FIXTURES, harness), entry, ...extraArgs], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', FAKE_APP_PATH: appDir, FAKE_USER_DATA: path.join(dir, 'userData'), ...extraEnv },
    timeout: 100_000, // a hang guard under vitest's 120 s testTimeout, not a budget
  });
  expect(res.stderr).toBe('');
  const parsed = JSON.parse(res.stdout) as { harnessError?: string };
  expect(parsed.harnessError).toBeUndefined();
  return parsed as T;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-wiring-'));
  outDir = path.join(dir, 'build');
  appDir = path.join(dir, 'app');
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-electron.mjs'), '--outdir', outDir], { encoding: 'utf8', timeout: 100_000 }); // a hang guard under vitest's 120 s hookTimeout, not a budget
  expect(build.status, build.stderr).toBe(0);
  mkdirSync(path.join(appDir, 'dist', 'web', 'static'), { recursive: true });
  mkdirSync(path.join(appDir, 'assets', 'scenarios'), { recursive: true });
  writeFileSync(path.join(appDir, 'dist', 'web', 'index.html'), '<!doctype html><title>TerraWheel</title>');
  writeFileSync(path.join(appDir, 'dist', 'web', 'static', 'sim-worker.js'), 'self.onmessage = () => {};');
  writeFileSync(path.join(appDir, 'assets', 'scenarios', 'default.json'), '{"name":"default"}');
  writeFileSync(path.join(appDir, 'package.json'), '{"name":"secret"}');
  symlinkSync(path.join(appDir, 'package.json'), path.join(appDir, 'dist', 'web', 'static', 'link.js'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bundled main process (fake electron)', () => {
  let o: MainObs;
  beforeAll(() => {
    o = runHarness<MainObs>('main-harness.cjs', path.join(outDir, 'main.cjs'));
  });

  it('registers app:// as a privileged standard, secure scheme before ready', () => {
    expect(o.schemesRegisteredBeforeReady).toBe(true);
    expect(o.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);
  });

  it('creates one window with isolation, sandbox, no node, and the bundled preload, loading app://', () => {
    expect(o.windowCount).toBe(1);
    expect(o.webPreferences).toMatchObject({
      preload: 'preload.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(o.loadedUrl).toBe('app://terrawheel/index.html');
  });

  it('handles every request channel of the contract and installs the menu', () => {
    expect(o.ipcChannels).toEqual([
      'host:get-settings',
      'host:list-assets',
      'host:open-file',
      'host:open-recent',
      'host:read-asset',
      'host:read-related',
      'host:save-file',
      'host:set-settings',
      'live-link:start',
      'live-link:status',
      'live-link:stop',
      'mesh:convex-parts',
      'recording:append',
      'recording:begin',
      'recording:end',
      'results:open',
      'results:read-recording',
    ]);
    expect(o.menuTop).toEqual(process.platform === 'darwin' ? ['TerraWheel', 'File', 'View', 'help'] : ['File', 'View', 'help']);
  });

  it('denies permissions, external navigation, redirects, webviews and new windows', () => {
    expect(o.permissionGranted).toBe(false);
    expect(o.permissionCheck).toBe(false);
    expect(o.navigation).toEqual({ external: true, file: true, internal: false, redirectExternal: true, webview: true, windowOpen: 'deny' });
  });

  it('serves the web build with the CSP header, falls back to assets/, refuses traversal', () => {
    expect(o.protocol.index).toMatchObject({ status: 200, csp: RENDERER_CSP, type: 'text/html; charset=utf-8' });
    expect(o.protocol.index.body).toContain('<title>TerraWheel</title>');
    expect(o.protocol.worker).toMatchObject({ status: 200, csp: RENDERER_CSP, type: 'text/javascript; charset=utf-8' });
    expect(o.protocol.assetFallback).toMatchObject({ status: 200, body: '{"name":"default"}' });
    expect(o.protocol.traversal.status).toBe(400);
    expect(o.protocol.traversal.body).not.toContain('secret');
    expect(o.protocol.missing.status).toBe(404);
  });

  it('does not follow a symbolic link inside the web root (issue #18)', () => {
    expect(o.protocol.symlink.status).toBe(404);
    expect(o.protocol.symlink.body).not.toContain('secret');
  });

  it('a development (unpackaged) run has DevTools', () => {
    expect(o.webPreferences.devTools).toBe(true);
  });

  it('a packaged app ignores --dev: no DevTools (issue #18)', () => {
    const packaged = runHarness<MainObs>('main-harness.cjs', path.join(outDir, 'main.cjs'), ['--dev'], { FAKE_IS_PACKAGED: '1' });
    expect(packaged.webPreferences.devTools).toBe(false);
  });

  it('answers IPC from its own page only and rejects bad payloads with the field name', () => {
    expect(o.ipc.trusted).toEqual({ ok: true, value: { recentFiles: [], showContacts: true } });
    expect(o.ipc.foreign.ok).toBe(false);
    expect(o.ipc.foreign.error).toMatch(/IPC refused: sender "https:\/\/evil.example\/"/);
    expect(o.ipc.badKind).toEqual({ ok: false, error: 'openFile.kind: unknown file kind "passwd" (expected one of terrain, robot, scenario, recording)' });
    expect(o.ipc.extraArg.error).toMatch(/host:list-assets: expected 0 argument\(s\), got 1/);
    expect(o.ipc.assets.value).toEqual([{ path: 'scenarios/default.json', kind: 'scenario', size: 18 }]);
  });

  it('menu items send MenuCommands to the window', () => {
    expect(o.sent).toEqual([{ channel: 'menu:command', payload: { type: 'open', kind: 'terrain' } }]);
  });
});

describe('bundled preload (fake electron)', () => {
  let o: PreloadObs;
  beforeAll(() => {
    o = runHarness<PreloadObs>('preload-harness.cjs', path.join(outDir, 'preload.cjs'));
  });

  it('exposes exactly window.terraWheel with the HostBridge methods plus openRecent and the recording stream', () => {
    expect(o.exposedNames).toEqual(['terraWheel']);
    expect(o.methods).toEqual(['getSettings', 'listAssets', 'liveLinkStart', 'liveLinkStatus', 'liveLinkStop', 'meshConvexParts', 'onMenuCommand', 'openFile', 'openRecent', 'openResults', 'readAsset', 'readRelated', 'readResultRecording', 'recordingAppend', 'recordingBegin', 'recordingEnd', 'saveFile', 'setSettings']);
  });

  it('maps each method to one invoke on its channel with positional arguments', () => {
    expect(o.invokes).toEqual([
      { channel: 'host:open-file', args: ['terrain'] },
      { channel: 'host:open-recent', args: [2] },
      { channel: 'host:read-related', args: ['tok', 'a.png'] },
      { channel: 'host:save-file', args: [{ kind: 'recording', suggestedName: 'r.twrec', bytes: [1] }] },
      { channel: 'host:list-assets', args: [] },
      { channel: 'host:read-asset', args: ['terrains/hills.json'] },
      { channel: 'host:get-settings', args: [] },
      { channel: 'host:set-settings', args: [{ showContacts: false }] },
    ]);
  });

  it('delivers only valid menu commands, without the IPC event, and unregisters', () => {
    expect(o.received).toEqual([
      { type: 'open', kind: 'robot' },
      { type: 'open-recent', index: 1 },
    ]);
    expect(o.listenersAfterOff).toBe(0);
  });
});
