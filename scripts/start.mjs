#!/usr/bin/env node
/**
 * `npm start`: build what is needed, then launch the Electron app; if the Electron binary is
 * missing and cannot be fetched, explain why in one paragraph and serve the web build instead.
 *
 * Why this is not just `electron .`: since Electron 42 the npm package has no postinstall
 * download; the ~100 MB binary is fetched on the first `require('electron')`, which throws when
 * there is no network. We therefore look for the binary ourselves (node_modules/electron/path.txt
 * → node_modules/electron/dist/<exe>, or ELECTRON_OVERRIDE_DIST_PATH), try one explicit download
 * (node_modules/electron/install.js, bounded by DOWNLOAD_TIMEOUT_MS; skipped when
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1), and fall back to `node scripts/serve-web.mjs`, which serves
 * dist/web on 127.0.0.1 and prints the URL.
 *
 * Builds are reused: the renderer (dist/web, Vite: minutes on a busy machine) and the Electron
 * main/preload (dist/electron) are rebuilt only when their sources changed since the last build
 * `npm start` made (scripts/build-stamp.mjs: a SHA-256 of the input files, kept in the output
 * folder); otherwise it says "build is up to date" and starts at once.
 *
 * Flags: --no-build (use existing dist/ as it is), --rebuild (build even if up to date), --web
 * (skip Electron, serve the web app; only the renderer is built).
 * Other arguments go to Electron (or to serve-web.mjs in the fallback, e.g. --port 8080).
 * Env for tests: TERRAWHEEL_SERVE_WEB=<script> replaces scripts/serve-web.mjs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILDS, buildState, inputsHash, writeStamp } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const noBuild = argv.includes('--no-build');
const rebuild = argv.includes('--rebuild');
const webOnly = argv.includes('--web');
const passArgs = argv.filter((a) => a !== '--no-build' && a !== '--rebuild' && a !== '--web');
/** One download attempt; a blackholed network otherwise hangs for minutes. */
const DOWNLOAD_TIMEOUT_MS = 90_000;

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const electronPkgDir = path.join(root, 'node_modules', 'electron');

function npmRun(script) {
  const res = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error(`npm start: \`npm run ${script}\` failed (exit ${res.status ?? res.signal}).`);
    process.exit(res.status ?? 1);
  }
}

/** Builds what is out of date (or everything with --rebuild), stamping each build that succeeds. */
function build() {
  if (!pkg.scripts?.['build:web']) {
    if (!existsSync(path.join(root, 'dist', 'web', 'index.html'))) {
      console.error('npm start: there is no `build:web` script and no dist/web/index.html, so there is no renderer to show.');
      process.exit(1);
    }
  }
  const wanted = [pkg.scripts?.['build:web'] ? BUILDS.web : null, webOnly ? null : BUILDS.electron].filter((b) => b !== null);
  const stale = [];
  for (const b of wanted) {
    const hash = inputsHash(root, b.inputs);
    const state = rebuild ? { upToDate: false, reason: '--rebuild' } : buildState(root, b, hash);
    if (!state.upToDate) stale.push({ build: b, hash, reason: state.reason });
  }
  if (stale.length === 0) {
    const many = wanted.length > 1;
    console.log(`npm start: build is up to date (${wanted.map((b) => b.outDir).join(' and ')} ${many ? 'match their' : 'matches its'} sources; --rebuild builds anyway).`);
    return;
  }
  for (const { build: b, hash, reason } of stale) {
    console.log(`npm start: building the ${b.label}: ${reason}.`);
    npmRun(b.script);
    writeStamp(root, b, hash);
  }
  const fresh = wanted.filter((b) => !stale.some((s) => s.build === b));
  if (fresh.length > 0) console.log(`npm start: ${fresh.map((b) => b.outDir).join(' and ')} ${fresh.length > 1 ? 'were' : 'was'} up to date.`);
}

/** Platform-specific path of the executable inside an Electron dist folder (what install.js writes to path.txt). */
function platformExecutable() {
  if (process.platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (process.platform === 'win32') return 'electron.exe';
  return 'electron';
}

/** The Electron executable if it is present and runnable, else { missing: <where we looked> }. Never downloads. */
function findElectron() {
  let rel = platformExecutable();
  const pathTxt = path.join(electronPkgDir, 'path.txt');
  if (existsSync(pathTxt)) rel = readFileSync(pathTxt, 'utf8').trim() || rel;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override ? path.join(override, rel) : path.join(electronPkgDir, 'dist', rel);
  try {
    if (!statSync(candidate).isFile()) return { missing: candidate };
    if (process.platform !== 'win32') accessSync(candidate, constants.X_OK);
    return { path: candidate };
  } catch {
    return { missing: candidate };
  }
}

/** One bounded attempt at the download Electron would do lazily. Returns a short reason on failure. */
function tryDownload() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1') return 'ELECTRON_SKIP_BINARY_DOWNLOAD=1 is set, so no download was tried';
  const installer = path.join(electronPkgDir, 'install.js');
  if (!existsSync(installer)) return 'node_modules/electron is not installed (run `npm install`)';
  console.log(`npm start: the Electron ${pkg.devDependencies?.electron ?? ''} binary is not installed; trying to download it once (set ELECTRON_SKIP_BINARY_DOWNLOAD=1 to skip)...`);
  const res = spawnSync(process.execPath, [installer], { cwd: electronPkgDir, encoding: 'utf8', timeout: DOWNLOAD_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  if (res.status === 0) return null;
  if (res.error && res.error.code === 'ETIMEDOUT') return `the download did not finish within ${DOWNLOAD_TIMEOUT_MS / 1000} s`;
  const lines = `${res.stderr ?? ''}\n${res.stdout ?? ''}`.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('at '));
  const firstError = lines.find((l) => /error/i.test(l)) ?? lines[0] ?? `installer exit ${res.status}`;
  return `the download failed: ${firstError.slice(0, 200)}`;
}

/** Runs a child with inherited stdio, forwards Ctrl-C/SIGTERM, exits with its status. */
function runForeground(cmd, cmdArgs, env) {
  const child = spawn(cmd, cmdArgs, { cwd: root, stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('error', (err) => {
    console.error(`npm start: cannot run ${cmd}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function serveWeb(reasonParagraph) {
  if (reasonParagraph) console.log(`\n${reasonParagraph}\n`);
  const script = process.env.TERRAWHEEL_SERVE_WEB ?? path.join(root, 'scripts', 'serve-web.mjs');
  if (!existsSync(script)) {
    console.error(`npm start: cannot serve the web app either: ${path.relative(root, script)} does not exist.`);
    process.exit(1);
  }
  runForeground(process.execPath, [script, ...passArgs], process.env);
}

if (!noBuild) build();

if (webOnly) {
  serveWeb(null);
} else {
  let found = findElectron();
  let reason = null;
  if (!found.path) {
    reason = tryDownload();
    if (reason === null) found = findElectron();
    if (!found.path && reason === null) reason = 'the installer reported success but the executable is still missing';
  }
  if (found.path) {
    // ELECTRON_RUN_AS_NODE would make the binary act as plain node and ignore the app.
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    runForeground(found.path, [root, ...passArgs], env);
  } else {
    const version = pkg.devDependencies?.electron ?? pkg.dependencies?.electron ?? '';
    serveWeb(
      `TerraWheel could not start the desktop app because the Electron ${version} binary is missing ` +
        `(looked for ${path.relative(root, found.missing) || found.missing}; ${reason}). ` +
        'npm installs the electron package without its binary, which is fetched on first use, and that download ' +
        'could not be done here. To get the desktop app, on a machine with internet access run ' +
        '`npx install-electron` (or delete node_modules/electron and run `npm install` again), or set ' +
        'ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron of the same version. Meanwhile the same app is being ' +
        'served as a web app on 127.0.0.1 (URL below; open it in a browser): files open through browser file ' +
        'pickers and recordings are saved as downloads.',
    );
  }
}
