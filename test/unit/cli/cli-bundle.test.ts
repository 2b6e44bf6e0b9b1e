/**
 * The CLI's cached bundle (sim/node/bundle-cache.mjs, loaded by bin/terrawheel.mjs): the stamp
 * covers every repository file the bundle is built from, a changed source rebuilds it (the
 * command always runs the checked-out source), and the command still works, through tsx, when
 * the cache cannot be written. Spawns get generous timeouts for a loaded machine (no timing
 * assertions).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleSourceFiles, CLI_BUNDLE, findOrBuildBundle, KEPT_BUNDLES } from '../../../sim/node/bundle-cache.mjs';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/terrawheel.mjs');
/** [ms] One spawn of Node (+ tsx in the fallback) on a loaded 2-core machine, with a wide margin. */
const SPAWN_MS = 180_000;

interface Result {
  code: number;
  out: string;
  err: string;
}

function terrawheel(env: Record<string, string>, ...args: string[]): Promise<Result> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: SPAWN_MS, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1', ...env } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ code, out: stdout, err: stderr });
    });
  });
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe('the CLI bundle', () => {
  it('is built only from files the stamp covers (everything it imports from the repository is under sim/)', async () => {
    const esbuild = await import('esbuild');
    // the CLI bundle's entries, with a metafile: which repository files go in
    const entryPoints = Object.fromEntries(Object.entries(CLI_BUNDLE.entries).map(([k, v]) => [k, join(ROOT, v)]));
    const r = await esbuild.build({ entryPoints, outdir: join(tmpdir(), 'tw-cli-meta'), bundle: true, format: 'esm', platform: 'node', packages: 'external', metafile: true, write: false, logLevel: 'silent' });
    const inputs = Object.keys(r.metafile.inputs).map((p) => relative(ROOT, resolve(ROOT, p)));
    expect(inputs.length).toBeGreaterThan(100);
    const covered = new Set(bundleSourceFiles().map((f) => relative(ROOT, join(ROOT, 'sim', f))));
    expect(inputs.filter((f) => !covered.has(f))).toEqual([]);
    expect(covered.has('package.json')).toBe(true);
  }, 120_000);

  it('a changed source makes a new bundle that runs it; a touched but unchanged one reuses the bundle', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tw-bundle-'));
    temps.push(root);
    mkdirSync(join(root, 'sim', 'node'), { recursive: true });
    const value = join(root, 'sim', 'node', 'value.ts');
    writeFileSync(join(root, 'sim', 'node', 'entry.ts'), "import { value } from './value';\nexport const main = (): number => value;\n");
    writeFileSync(value, 'export const value: number = 1;\n');
    const spec = { name: 'cli', format: 1, entries: { cli: 'sim/node/entry.ts' }, main: 'cli', root, cacheDir: join(root, '.cache') };
    const run = async (url: string): Promise<number> => ((await import(url)) as { main: () => number }).main();
    const first = await findOrBuildBundle(spec);
    expect(await run(first)).toBe(1);
    expect(await findOrBuildBundle(spec)).toBe(first);
    // touched, same bytes: the stamp differs, the hash does not
    const later = new Date(Date.now() + 5_000);
    utimesSync(value, later, later);
    expect(await findOrBuildBundle(spec)).toBe(first);
    // changed bytes of the same size (only the modification time tells the stamp): a new bundle
    writeFileSync(value, 'export const value: number = 2;\n');
    const evenLater = new Date(Date.now() + 10_000);
    utimesSync(value, evenLater, evenLater);
    const second = await findOrBuildBundle(spec);
    expect(second).not.toBe(first);
    expect(await run(second)).toBe(2);
    // a new file under sim/ changes the key too
    writeFileSync(join(root, 'sim', 'node', 'other.ts'), 'export {};\n');
    expect(await findOrBuildBundle(spec)).not.toBe(second);
    expect(readdirSync(join(root, '.cache', 'cli')).filter((d) => d.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it(`keeps the ${KEPT_BUNDLES} newest bundles of a name after a build (older ones and dead builds' temporaries go)`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'tw-bundle-prune-'));
    temps.push(root);
    mkdirSync(join(root, 'sim', 'node'), { recursive: true });
    const value = join(root, 'sim', 'node', 'value.ts');
    writeFileSync(join(root, 'sim', 'node', 'entry.ts'), "import { value } from './value';\nexport const main = (): number => value;\n");
    const spec = { name: 'cli', format: 1, entries: { cli: 'sim/node/entry.ts' }, main: 'cli', root, cacheDir: join(root, '.cache') };
    const cache = join(root, '.cache', 'cli');
    const keys = (): string[] => readdirSync(cache).filter((d) => /^[0-9a-f]{16}$/.test(d));
    const built: string[] = [];
    for (let v = 0; v < KEPT_BUNDLES + 2; v++) {
      writeFileSync(value, `export const value: number = ${v};\n`);
      const t = new Date(Date.now() + 1000 * v);
      utimesSync(value, t, t);
      const url = await findOrBuildBundle(spec);
      built.push(url.split('/').at(-2) as string);
      // older bundles' times in order of building
      const dir = join(cache, built[v]);
      utimesSync(dir, new Date(Date.now() - 60_000 * (KEPT_BUNDLES + 2 - v)), new Date(Date.now() - 60_000 * (KEPT_BUNDLES + 2 - v)));
    }
    mkdirSync(join(cache, 'abc.123.456.tmp'));
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(cache, 'abc.123.456.tmp'), old, old);
    writeFileSync(value, 'export const value: number = 99;\n');
    const last = await findOrBuildBundle(spec);
    built.push(last.split('/').at(-2) as string);
    expect(keys().sort()).toEqual(built.slice(-KEPT_BUNDLES).sort());
    expect(readdirSync(cache).filter((d) => d.endsWith('.tmp'))).toEqual([]);
    expect(((await import(last)) as { main: () => number }).main()).toBe(99);
  }, 120_000);

  it('bin/terrawheel.mjs runs from the bundle it builds in the cache', async () => {
    const cache = join(ROOT, '.cache', `test-cli-bundle-${process.pid}`);
    temps.push(cache);
    const r = await terrawheel({ TERRAWHEEL_CACHE_DIR: cache }, 'run', 'assets/scenarios/default.json', '--duration', '0.05', '--json');
    expect(r.err).not.toContain('tsx');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { steps: number }).steps).toBeGreaterThan(0);
    const keys = readdirSync(join(cache, 'cli')).filter((d) => /^[0-9a-f]{16}$/.test(d));
    expect(keys).toHaveLength(1);
    // the entry and its chunks (dynamic imports are chunks of their own): the whole simulator
    const files = readdirSync(join(cache, 'cli', keys[0]));
    expect(files).toContain('cli.mjs');
    expect(files.reduce((n, f) => n + statSync(join(cache, 'cli', keys[0], f)).size, 0)).toBeGreaterThan(1_000_000);
    expect(existsSync(join(cache, 'cli', 'stamp.json'))).toBe(true);
  }, SPAWN_MS);

  it('falls back to tsx, with stdout untouched, when the cache cannot be written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-nocache-'));
    temps.push(dir);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    // a cache "directory" under a regular file: no one (not even root) can create it
    const r = await terrawheel({ TERRAWHEEL_CACHE_DIR: join(file, 'cache') }, 'run', 'assets/scenarios/default.json', '--duration', '0.05', '--json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { steps: number }).steps).toBeGreaterThan(0);
    expect(r.err).toContain('running the sources through tsx');
    // TERRAWHEEL_TSX=1 skips the bundle without a word
    const forced = await terrawheel({ TERRAWHEEL_TSX: '1', TERRAWHEEL_CACHE_DIR: join(file, 'cache') }, '--help');
    expect(forced.code).toBe(0);
    expect(forced.out).toContain('terrawheel');
    expect(forced.err).toBe('');
  }, 2 * SPAWN_MS);
});
