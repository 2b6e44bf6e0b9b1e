#!/usr/bin/env node
/**
 * `npm run dist:check`: proves the app packs, without downloading Electron or anything else.
 *
 *   1. builds the renderer (npm run build:web) and main/preload (npm run build:electron),
 *      unless --skip-build;
 *   2. checks electron-builder.yml pins the same Electron version as package.json;
 *   3. makes a stub Electron distribution in a temp dir (an `electron` shell script plus the
 *      few files electron-builder copies or deletes) and runs
 *      `electron-builder --linux dir -c.electronDist=<stub>` with output in the temp dir, with
 *      HTTP(S) proxies pointed at a closed local port, and checks its log shows no download;
 *   4. reads the packed resources/app.asar header and checks it holds main, preload, the web
 *      build's index.html, a worker bundle and the bundled terrains and scenarios, and no
 *      node_modules;
 *   5. reads the Electron fuse wire back from the packed executable and checks every fuse set in
 *      electron-builder.yml's electronFuses was flipped (the stub carries a fuse wire with
 *      Electron's defaults, so electron-builder's @electron/fuses step runs for real).
 * Prints one PASS/FAIL line per check; exits 1 if any failed. --keep keeps the temp dir.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const results = [];

function check(name, ok, detail = '') {
  results.push({ name, ok, detail });
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? ` — ${detail}` : ''}`);
  return ok;
}

function finish() {
  const failed = results.filter((r) => !r.ok);
  if (failed.length) console.log(`\nFAILED: ${failed.map((f) => f.name).join(', ')}`);
  // The usual closing line of a test runner, so CI logs read the same as vitest's and Playwright's.
  console.log(`\ndist:check: ${results.length - failed.length} passed, ${failed.length} failed`);
  process.exit(failed.length ? 1 : 0);
}

function run(cmd, cmdArgs, env = {}) {
  const res = spawnSync(cmd, cmdArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: res.status, out: `${res.stdout ?? ''}${res.stderr ?? ''}`, error: res.error };
}

/**
 * Reads the JSON header of an asar archive (format: a Chromium pickle holding the header size,
 * then a pickle holding the header JSON string) and returns every file path inside it.
 */
export function listAsar(file) {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    const headerPickleSize = head.readUInt32LE(4);
    const jsonLength = head.readUInt32LE(12);
    if (jsonLength > headerPickleSize || jsonLength > 64 * 1024 * 1024) throw new Error(`implausible asar header length ${jsonLength}`);
    const json = Buffer.alloc(jsonLength);
    readSync(fd, json, 0, jsonLength, 16);
    const header = JSON.parse(json.toString('utf8'));
    const paths = [];
    const walk = (node, prefix) => {
      for (const [name, child] of Object.entries(node.files ?? {})) {
        const p = prefix ? `${prefix}/${name}` : name;
        if (child.files) walk(child, p);
        else paths.push({ path: p, unpacked: child.unpacked === true });
      }
    };
    walk(header, '');
    return paths;
  } finally {
    closeSync(fd);
  }
}

// ---- 1. build -------------------------------------------------------------------------------
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
if (!args.has('--skip-build')) {
  for (const script of ['build:web', 'build:electron']) {
    if (!pkg.scripts?.[script]) {
      check(`npm run ${script}`, false, 'script is not defined in package.json');
      finish();
    }
    const res = run('npm', ['run', '--silent', script]);
    if (!check(`npm run ${script}`, res.status === 0, res.status === 0 ? '' : `exit ${res.status}`)) {
      console.error(res.out.slice(-4000));
      finish();
    }
  }
}

// ---- 2. version pin -------------------------------------------------------------------------
const builderYml = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
const pinned = /^electronVersion:\s*["']?([^"'\s#]+)/m.exec(builderYml)?.[1];
const depVersion = pkg.devDependencies?.electron ?? pkg.dependencies?.electron;
check('electron version pinned', pinned !== undefined && pinned === depVersion && /^\d+\.\d+\.\d+$/.test(depVersion ?? ''), `electron-builder.yml ${pinned}, package.json ${depVersion}`);

// ---- 3. pack against a stub electronDist ----------------------------------------------------
const work = mkdtempSync(path.join(tmpdir(), 'terrawheel-dist-check-'));
const stub = path.join(work, 'electron-stub');
const out = path.join(work, 'release');
mkdirSync(path.join(stub, 'locales'), { recursive: true });
mkdirSync(path.join(stub, 'resources'), { recursive: true });
// electron-builder renames `electron` to the product's executable and copies everything else as-is.
// No resources/default_app.asar: electron-builder hashes every .asar in resources/ for integrity,
// so a fake one would have to be a valid archive, and the real one is deleted after copying anyway.
// The fuse wire of a real Electron binary: sentinel, version 1, length, one byte per fuse, here
// Electron 45's defaults (RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar
// integrity off, only-asar off, browser V8 snapshot off, file:// privileges on).
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
export const FUSE_NAMES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
];
const DEFAULT_WIRE = '10110001';
writeFileSync(
  path.join(stub, 'electron'),
  Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stub electron used by dist:check; not runnable" >&2\nexit 1\n# '),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, DEFAULT_WIRE.length]),
    Buffer.from(DEFAULT_WIRE),
    Buffer.from('\n'),
  ]),
);
chmodSync(path.join(stub, 'electron'), 0o755);
writeFileSync(path.join(stub, 'version'), `${depVersion}`);
writeFileSync(path.join(stub, 'LICENSE'), 'stub');
writeFileSync(path.join(stub, 'LICENSES.chromium.html'), 'stub');
writeFileSync(path.join(stub, 'locales', 'en-US.pak'), 'stub');

const builderCli = path.join(root, 'node_modules', 'electron-builder', 'cli.js');
// A closed port for proxy-aware clients (node http/https agents, global-agent). fetch()-based
// clients ignore these variables, so the log is also checked for download or connection lines.
const NO_NETWORK = 'http://127.0.0.1:9';
const pack = run(
  process.execPath,
  [builderCli, '--linux', 'dir', '--publish', 'never', `-c.electronDist=${stub}`, `-c.directories.output=${out}`],
  {
    ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
    ELECTRON_BUILDER_CACHE: path.join(work, 'cache'),
    ELECTRON_CACHE: path.join(work, 'cache'),
    HTTP_PROXY: NO_NETWORK,
    HTTPS_PROXY: NO_NETWORK,
    http_proxy: NO_NETWORK,
    https_proxy: NO_NETWORK,
    ELECTRON_GET_USE_PROXY: '1',
    GLOBAL_AGENT_HTTP_PROXY: NO_NETWORK,
    NO_PROXY: '',
    no_proxy: '',
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
  },
);
const packOk = check('electron-builder --linux dir (stub electronDist, no network)', pack.status === 0, pack.status === 0 ? '' : `exit ${pack.status}`);
if (!packOk || args.has('--verbose')) console.log(pack.out.slice(-6000));
const triedNetwork = /127\.0\.0\.1:9|ECONNREFUSED|download/i.test(pack.out);
check('no network access attempted', !triedNetwork, triedNetwork ? 'electron-builder output mentions a download or a refused connection' : '');

// ---- 4. verify the packed app ---------------------------------------------------------------
const unpacked = path.join(out, 'linux-unpacked');
const asarFile = path.join(unpacked, 'resources', 'app.asar');
if (packOk && check('resources/app.asar exists', existsSync(asarFile), path.relative(work, asarFile))) {
  const exe = path.join(unpacked, 'terrawheel');
  check('executable renamed to terrawheel', existsSync(exe) && (statSync(exe).mode & 0o111) !== 0);
  let entries = [];
  try {
    entries = listAsar(asarFile);
    check('app.asar header readable', true, `${entries.length} files`);
  } catch (err) {
    check('app.asar header readable', false, String(err));
  }
  const names = entries.map((e) => e.path);
  const has = (p) => names.includes(p);
  const some = (re) => names.filter((n) => re.test(n));
  check('contains package.json with main = dist/electron/main.cjs', has('package.json') && pkg.main === 'dist/electron/main.cjs');
  check('contains dist/electron/main.cjs', has('dist/electron/main.cjs'));
  check('contains dist/electron/preload.cjs', has('dist/electron/preload.cjs'));
  check('contains dist/web/index.html', has('dist/web/index.html'));
  const workers = some(/^dist\/web\/.*worker.*\.js$/i);
  check('contains a worker bundle (dist/web/**/*worker*.js)', workers.length > 0, workers.join(', '));
  const terrains = some(/^assets\/terrains\//);
  check('contains assets/terrains/', terrains.length > 0, `${terrains.length} files`);
  const scenarios = some(/^assets\/scenarios\//);
  check('contains assets/scenarios/', scenarios.length > 0, `${scenarios.length} files`);
  const dupes = some(/^dist\/web\/assets\//);
  check('bundled assets packed once (no dist/web/assets copy)', dupes.length === 0, dupes.slice(0, 3).join(', '));
  const nodeModules = some(/(^|\/)node_modules\//);
  check('no node_modules packed (everything is bundled)', nodeModules.length === 0, nodeModules.slice(0, 5).join(', '));
  const maps = some(/^dist\/electron\/.*\.map$/);
  check('no main-process source maps packed', maps.length === 0, maps.join(', '));

  // ---- 5. fuses ------------------------------------------------------------------------------
  const wanted = {};
  const block = /^electronFuses:\s*\n((?:[ \t]+.*\n?)+)/m.exec(builderYml)?.[1] ?? '';
  for (const m of block.matchAll(/^[ \t]+(\w+):\s*(true|false)\b/gm)) wanted[m[1]] = m[2] === 'true';
  const required = {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
  };
  const missing = Object.entries(required).filter(([k, v]) => wanted[k] !== v).map(([k, v]) => `${k}: ${v}`);
  check('electron-builder.yml sets the required fuses', missing.length === 0, missing.length ? `missing or wrong: ${missing.join(', ')}` : Object.keys(wanted).join(', '));
  const exeBytes = readFileSync(exe);
  const at = exeBytes.indexOf(FUSE_SENTINEL);
  if (check('packed executable has a fuse wire', at >= 0)) {
    const wire = exeBytes.subarray(at + FUSE_SENTINEL.length + 2, at + FUSE_SENTINEL.length + 2 + exeBytes[at + FUSE_SENTINEL.length + 1]);
    const wrong = Object.entries(wanted)
      .filter(([k, v]) => wire[FUSE_NAMES.indexOf(k)] !== (v ? 0x31 : 0x30))
      .map(([k]) => k);
    check('fuses flipped in the packed executable as configured', wrong.length === 0 && Object.keys(wanted).length > 0, wrong.length ? `not flipped: ${wrong.join(', ')}` : `wire ${wire.toString('latin1')}`);
  }
}

if (args.has('--keep')) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
finish();
