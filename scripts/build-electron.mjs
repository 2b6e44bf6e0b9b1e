#!/usr/bin/env node
/**
 * Bundles the Electron main process and preload with esbuild:
 *   electron/main.ts    -> dist/electron/main.cjs    (Node platform, CommonJS, `electron` external)
 *   electron/preload.ts -> dist/electron/preload.cjs (sandboxed preload: CommonJS whose only
 *                                                      require is `electron`, everything else inlined)
 * CommonJS because package.json has "type": "module" and Electron's sandboxed preload loader
 * only runs CommonJS. Fails (exit 1) if the preload bundle would require anything but electron.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** `--outdir <dir>` (used by the wiring tests) builds elsewhere than dist/electron. */
const outdirArg = process.argv.indexOf('--outdir');
const outdir = outdirArg > 0 && process.argv[outdirArg + 1] ? path.resolve(process.argv[outdirArg + 1]) : path.join(root, 'dist', 'electron');
/**
 * Syntax targets, deliberately older than what Electron 45 embeds (newer Node and Chromium): they
 * only decide which syntax esbuild lowers, and ES2022 output runs on both.
 */
const NODE_TARGET = 'node20';
const CHROME_TARGET = 'chrome120';

const common = {
  bundle: true,
  format: 'cjs',
  external: ['electron'],
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

await Promise.all([
  build({ ...common, entryPoints: [path.join(root, 'electron/main.ts')], outfile: path.join(outdir, 'main.cjs'), platform: 'node', target: NODE_TARGET }),
  build({ ...common, entryPoints: [path.join(root, 'electron/preload.ts')], outfile: path.join(outdir, 'preload.cjs'), platform: 'browser', target: CHROME_TARGET }),
]);

const preload = readFileSync(path.join(outdir, 'preload.cjs'), 'utf8');
const requires = [...preload.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
const foreign = requires.filter((r) => r !== 'electron');
if (foreign.length > 0) {
  console.error(`build-electron: the sandboxed preload may only require 'electron', but requires: ${foreign.join(', ')}`);
  process.exit(1);
}
console.log(`build-electron: wrote ${path.relative(root, outdir) || outdir}/main.cjs and preload.cjs`);
