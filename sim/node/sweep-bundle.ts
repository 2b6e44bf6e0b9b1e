/**
 * The sweep worker's code as one prebuilt JavaScript bundle (issue #31, throughput).
 *
 * A piscina worker thread starts without the parent's TypeScript loader. Registering tsx in each
 * worker and importing sweep-task.ts made every thread compile the simulator's ~300 modules on
 * its own (seconds of CPU per thread), and under tsx each read of an imported binding is a getter
 * call on the exporting module (test/bench/cylinder.bench.ts measured about half the wheel-query
 * time going there). So the driver bundles sweep-task.ts (and the recording encoder's worker
 * entry) once with esbuild, as one ES module per entry in which every internal import is a plain
 * variable, and every thread (and `--workers 1`'s own thread) imports that bundle.
 *
 * The bundle is cached in `<repo>/.cache/sweep-worker/<key>/`, the key a SHA-256 over the bundle
 * options, esbuild's version and the path and bytes of every file under sim/: a changed source
 * makes a new bundle, an unchanged tree reuses it (hashing ~400 files costs milliseconds). The
 * directory sits inside the repository so the bundle's few bare imports (the wasm codecs) resolve
 * through `<repo>/node_modules` like the sources' do. Hashing reads every source and importing
 * esbuild costs tens of milliseconds at each sweep's start, so a stamp file
 * (`<cache>/stamp.json`: esbuild's version and the path, size and modification time of every file
 * under sim/, with the key they hashed to) is checked first: if no file was added, removed or
 * touched since, the key is reused without reading a source or loading esbuild (a few ms of
 * stat calls). The bundle is written to a
 * temporary directory and renamed into place, so two sweeps starting at once do not see a half
 * bundle. If esbuild is missing or the cache cannot be written, `sweepWorkerBundle` returns null
 * and the driver falls back to the tsx worker (sweep-worker.mjs): slower, same results (the test
 * in test/scenarios/batch/sweep.test.ts compares the rows of both forms).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SIM = join(ROOT, 'sim');

/** Bumped when the bundle's shape (entries, options) changes: part of the cache key. */
const BUNDLE_FORMAT = 2;

/** The cache of bundles, one subdirectory per key. */
export const SWEEP_BUNDLE_CACHE = join(ROOT, '.cache', 'sweep-worker');

/** Every file under `dir`, as paths relative to it, sorted (deterministic key). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** The cache key of the current sources (hex, 16 characters). */
export function sweepBundleKey(esbuildVersion: string): string {
  const h = createHash('sha256');
  h.update(`format ${BUNDLE_FORMAT}\nesbuild ${esbuildVersion}\n`);
  for (const f of filesUnder(SIM)) {
    h.update(f);
    h.update('\0');
    h.update(readFileSync(join(SIM, f)));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/** The stamp file of the last key computed (see the top of this file). */
export const SWEEP_BUNDLE_STAMP = join(SWEEP_BUNDLE_CACHE, 'stamp.json');

/**
 * What the key depends on, cheaply: the format, esbuild's version and each file's path, size and
 * modification time under sim/ (stat only, no file read). Equal stamps mean equal keys unless a
 * file was rewritten to the same size within the same millisecond.
 */
export function sweepSourceStamp(esbuildVersion: string): string {
  const lines = [`format ${BUNDLE_FORMAT}`, `esbuild ${esbuildVersion}`];
  for (const f of filesUnder(SIM)) {
    const st = statSync(join(SIM, f));
    lines.push(`${f} ${st.size} ${st.mtimeMs}`);
  }
  return lines.join('\n');
}

/** The key recorded for `stamp`, or null (no stamp file, another stamp, a torn file). */
function stampedKey(stamp: string): string | null {
  try {
    const s = JSON.parse(readFileSync(SWEEP_BUNDLE_STAMP, 'utf8')) as { stamp?: unknown; key?: unknown };
    return s.stamp === stamp && typeof s.key === 'string' && /^[0-9a-f]{16}$/.test(s.key) ? s.key : null;
  } catch {
    return null;
  }
}

/** esbuild's version from its package.json (importing esbuild itself costs tens of ms); throws if it is not installed. */
function esbuildVersion(): string {
  const req = createRequire(import.meta.url);
  return (JSON.parse(readFileSync(req.resolve('esbuild/package.json'), 'utf8')) as { version: string }).version;
}

/** The bundle of this process, once built or found (one build per process). */
let cached: Promise<string | null> | null = null;

/**
 * The file URL of the bundled sweep task (its default export is sweep-task.ts's runTimedTask), built
 * if the cache has none for the current sources; null if it cannot be had (the reason goes to
 * `onFallback`).
 */
export function sweepWorkerBundle(onFallback?: (why: string) => void): Promise<string | null> {
  cached ??= findOrBuildSweepBundle().catch((e: unknown) => {
    onFallback?.(`the sweep worker bundle could not be built (${(e as Error).message}); using the TypeScript loader in each worker (slower)`);
    return null;
  });
  return cached;
}

/** sweepWorkerBundle without the per-process memo and the fallback: throws if esbuild is missing or the build fails. */
export async function findOrBuildSweepBundle(): Promise<string> {
  // the stamp is taken before the sources are hashed: a file changed in between makes the next
  // stamp differ from the recorded one (a rehash), never a stale key
  const stamp = sweepSourceStamp(esbuildVersion());
  const stamped = stampedKey(stamp);
  if (stamped !== null) {
    const task = join(SWEEP_BUNDLE_CACHE, stamped, 'sweep-task.mjs');
    if (existsSync(task)) return pathToFileURL(task).href;
  }
  const esbuild = await import('esbuild');
  const key = sweepBundleKey(esbuild.version);
  const dir = join(SWEEP_BUNDLE_CACHE, key);
  const task = join(dir, 'sweep-task.mjs');
  if (!existsSync(task)) await build(esbuild, dir);
  writeStamp(stamp, key);
  return pathToFileURL(task).href;
}

/** Records `key` for `stamp` (atomically: two sweeps may start at once); a failure only costs the next sweep a rehash. */
function writeStamp(stamp: string, key: string): void {
  const tmp = `${SWEEP_BUNDLE_STAMP}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ key, stamp }));
    renameSync(tmp, SWEEP_BUNDLE_STAMP);
  } catch {
    rmSync(tmp, { force: true });
  }
}

async function build(esbuild: typeof import('esbuild'), dir: string): Promise<void> {
  const task = join(dir, 'sweep-task.mjs');
  mkdirSync(SWEEP_BUNDLE_CACHE, { recursive: true });
  const tmp = `${dir}.${process.pid}.${Date.now()}.tmp`;
  await esbuild.build({
    entryPoints: { 'sweep-task': join(SIM, 'node', 'sweep-task.ts'), 'record-encoder-worker': join(SIM, 'node', 'record-encoder-worker.ts') },
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // npm packages are bundled too (some are imported by extensionless subpaths that Node's own
    // ESM resolver refuses), except the recording codecs, which load .wasm files esbuild has no
    // loader for: they resolve from <repo>/node_modules at run time (the cache is inside the repo)
    external: ['@foxglove/wasm-zstd', '@foxglove/wasm-lz4'],
    logLevel: 'error',
    legalComments: 'none',
  });
  try {
    renameSync(tmp, dir);
  } catch (e) {
    // another process renamed its identical bundle into place first
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(task)) throw e;
  }
}
