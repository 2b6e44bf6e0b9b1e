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
 * The bundle is cached in `<repo>/.cache/sweep-worker/<key>/` by bundle-cache.mjs (shared with the
 * CLI's own bundle), the key a SHA-256 over the bundle
 * options, esbuild's version and the path and bytes of every file under sim/ (and package.json and
 * the installed packages' lock file): a changed source
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
import { join } from 'node:path';
import { bundleCacheRoot, bundleKey, bundleSourceStamp, findOrBuildBundle, type BundleSpec } from './bundle-cache.mjs';

/** Bumped when the bundle's shape (entries, options) changes: part of the cache key. */
const BUNDLE_FORMAT = 4;

/** The sweep worker bundle's recipe. */
const SPEC: BundleSpec = {
  name: 'sweep-worker',
  format: BUNDLE_FORMAT,
  entries: { 'sweep-task': 'sim/node/sweep-task.ts', 'record-encoder-worker': 'sim/node/record-encoder-worker.ts' },
  main: 'sweep-task',
  // npm packages are bundled too (some are imported by extensionless subpaths that Node's own
  // ESM resolver refuses), except the recording codecs, which load .wasm files esbuild has no
  // loader for: they resolve from <repo>/node_modules at run time (the cache is inside the repo);
  // and `yaml` (the ros_control controller files' reader), whose Node build is CommonJS calling
  // require('process'), which an ESM bundle cannot do
  external: ['@foxglove/wasm-zstd', '@foxglove/wasm-lz4', 'yaml'],
};

/** The cache of bundles, one subdirectory per key. */
export const SWEEP_BUNDLE_CACHE = join(bundleCacheRoot(), 'sweep-worker');

/** The cache key of the current sources (hex, 16 characters). */
export function sweepBundleKey(esbuildVersion: string): string {
  return bundleKey(BUNDLE_FORMAT, esbuildVersion);
}

/** The stamp file of the last key computed (see the top of this file). */
export const SWEEP_BUNDLE_STAMP = join(SWEEP_BUNDLE_CACHE, 'stamp.json');

/**
 * What the key depends on, cheaply: the format, esbuild's version and each file's path, size and
 * modification time under sim/ (stat only, no file read). Equal stamps mean equal keys unless a
 * file was rewritten to the same size within the same millisecond.
 */
export function sweepSourceStamp(esbuildVersion: string): string {
  return bundleSourceStamp(BUNDLE_FORMAT, esbuildVersion);
}

/** The bundle of this process, once built or found (one build per process). */
let cached: Promise<string | null> | null = null;

/**
 * The file URL of the bundled sweep task (its default export is sweep-task.ts's runTimedTask), built
 * if the cache has none for the current sources and loaded once in this thread (a bundle whose
 * code fails as it loads, as a CommonJS package calling require() inside the ESM bundle did,
 * failed every run of a pool and then left the pool waiting); null if it cannot be built or
 * loaded (the reason goes to `onFallback`).
 */
export function sweepWorkerBundle(onFallback?: (why: string) => void): Promise<string | null> {
  cached ??= findOrBuildSweepBundle().then(
    async (url) => {
      try {
        await import(url);
        return url;
      } catch (e) {
        onFallback?.(`the sweep worker bundle does not load (${(e as Error).message}); using the TypeScript loader in each worker (slower)`);
        return null;
      }
    },
    (e: unknown) => {
      onFallback?.(`the sweep worker bundle could not be built (${(e as Error).message}); using the TypeScript loader in each worker (slower)`);
      return null;
    },
  );
  return cached;
}

/** sweepWorkerBundle without the per-process memo and the fallback: throws if esbuild is missing or the build fails. */
export function findOrBuildSweepBundle(): Promise<string> {
  return findOrBuildBundle(SPEC);
}
