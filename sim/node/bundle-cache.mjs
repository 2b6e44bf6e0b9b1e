// Cached esbuild bundles of the simulator's Node entry points (issues #27, #29, #31): the sweep
// worker (sweep-bundle.ts) and the `terrawheel` CLI itself (bin/terrawheel.mjs).
//
// Plain JavaScript (types in bundle-cache.d.mts) because bin/terrawheel.mjs must check for a
// fresh bundle before any TypeScript loader runs: loading tsx and compiling the CLI's module
// graph through it is most of a fresh process's start-up.
//
// A bundle lives in `<cache>/<name>/<key>/`, the key a SHA-256 over the bundle's format, esbuild's
// version and the path and bytes of every source file (below): a changed source makes a new
// bundle, so the command always runs the checked-out source. Hashing reads every source and
// importing esbuild costs tens of ms, so a stamp file (`<cache>/<name>/stamp.json`: the path,
// size and modification time of every source, with the key they hashed to) is checked first: if
// nothing was added, removed or touched since, the key is reused after a few ms of stat calls,
// without reading a source or loading esbuild. Bundles are written to a temporary directory and
// renamed into place (two processes building at once never see half a bundle).
//
// The source files are every file under sim/ (everything the bundled entries import from the
// repository: checked against esbuild's metafile in test/unit/cli/cli-bundle.test.ts), plus
// package.json and node_modules/.package-lock.json, which change when an installed package does
// (packages bundled into a bundle are then rebuilt).
//
// Bundling moves every module into one file, which changes what `import.meta.url` means. So each
// source's `import.meta.url` is replaced by its own file's URL (assets and worker scripts found
// next to the source are found as before), except in a source that carries the marker KEEP_URL
// (record-thread.ts: it looks for the encoder entry bundled next to it). This file builds both
// strings from pieces so that, bundled itself (into the CLI), it is rewritten like any source.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository's root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The cache of bundles: `<repo>/.cache`, or $TERRAWHEEL_CACHE_DIR. A bundle that leaves npm
 * packages external resolves them from its own folder up, so the cache should sit inside the
 * repository (outside it, such a bundle fails to load and the CLI falls back to tsx).
 */
export function bundleCacheRoot() {
  const env = process.env.TERRAWHEEL_CACHE_DIR;
  return env !== undefined && env !== '' ? env : join(REPO_ROOT, '.cache');
}

/** The files a bundle's key covers, as paths relative to `<root>/sim`, sorted. */
export function bundleSourceFiles(root = REPO_ROOT) {
  const sim = join(root, 'sim');
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(sim, p));
    }
  };
  walk(sim);
  out.sort();
  for (const f of ['package.json', join('node_modules', '.package-lock.json')]) if (existsSync(join(root, f))) out.push(join('..', f));
  return out;
}

/** The cache key of the current sources (hex, 16 characters). */
export function bundleKey(format, esbuildVersion, root = REPO_ROOT) {
  const sim = join(root, 'sim');
  const h = createHash('sha256');
  h.update(`format ${format}\nesbuild ${esbuildVersion}\n`);
  for (const f of bundleSourceFiles(root)) {
    h.update(f);
    h.update('\0');
    h.update(readFileSync(join(sim, f)));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * What the key depends on, cheaply: the format, esbuild's version and each source's path, size
 * and modification time (stat only). Equal stamps mean equal keys unless a file was rewritten to
 * the same size within the same millisecond.
 */
export function bundleSourceStamp(format, esbuildVersion, root = REPO_ROOT) {
  const sim = join(root, 'sim');
  const lines = [`format ${format}`, `esbuild ${esbuildVersion}`];
  for (const f of bundleSourceFiles(root)) {
    const st = statSync(join(sim, f));
    lines.push(`${f} ${st.size} ${st.mtimeMs}`);
  }
  return lines.join('\n');
}

/** esbuild's version from its package.json (importing esbuild itself costs tens of ms); throws if it is not installed. */
export function esbuildVersion() {
  const req = createRequire(import.meta.url);
  return JSON.parse(readFileSync(req.resolve('esbuild/package.json'), 'utf8')).version;
}

/** The key recorded in `stampFile` for `stamp`, or null (no stamp file, another stamp, a torn file). */
function stampedKey(stampFile, stamp) {
  try {
    const s = JSON.parse(readFileSync(stampFile, 'utf8'));
    return s.stamp === stamp && typeof s.key === 'string' && /^[0-9a-f]{16}$/.test(s.key) ? s.key : null;
  } catch {
    return null;
  }
}

/** Records `key` for `stamp` (atomically); a failure only costs the next run a rehash. */
function writeStamp(stampFile, stamp, key) {
  const tmp = `${stampFile}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ key, stamp }));
    renameSync(tmp, stampFile);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** The text a bundled source's `import.meta.url` is searched for by, and the marker that keeps it. */
const META_URL = ['import', 'meta', 'url'].join('.');
const KEEP_URL = `@bundle-keeps-${['import', 'meta', 'url'].join('-')}`;

/** The esbuild plugin giving each source its own `import.meta.url` (see the top of this file). */
function sourceUrlPlugin() {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes(META_URL) || text.includes(KEEP_URL)) return undefined;
        const loader = /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js';
        return { contents: text.replaceAll(META_URL, JSON.stringify(pathToFileURL(args.path).href)), loader };
      });
    },
  };
}

/** The esbuild plugin leaving every npm package external except those named in `bundled`. */
function packagesExternalPlugin(bundled) {
  return {
    name: 'packages-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (bundled.some((p) => args.path === p || args.path.startsWith(`${p}/`))) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * The file URL of bundle `spec.name`'s main entry for the current sources, built if the cache has
 * none. Throws if esbuild is missing, the build fails or the cache cannot be written.
 *
 * spec: { name, format, entries: { outName: path relative to the root }, main: outName,
 *   external?: package names left external (the others are bundled),
 *   packagesExternal?: true to leave every package external but those in `bundled`,
 *   bundled?: package names bundled anyway, splitting?: dynamic imports as chunks of their own,
 *   root?: the repository (tests), cacheDir?: the cache root }
 */
export async function findOrBuildBundle(spec) {
  const root = spec.root ?? REPO_ROOT;
  const cache = join(spec.cacheDir ?? bundleCacheRoot(), spec.name);
  const stampFile = join(cache, 'stamp.json');
  const mainFile = `${spec.main}.mjs`;
  // the stamp is taken before the sources are hashed: a file changed in between makes the next
  // stamp differ from the recorded one (a rehash), never a stale key
  const stamp = bundleSourceStamp(spec.format, esbuildVersion(), root);
  const stamped = stampedKey(stampFile, stamp);
  if (stamped !== null) {
    const file = join(cache, stamped, mainFile);
    if (existsSync(file)) return pathToFileURL(file).href;
  }
  const esbuild = await import('esbuild');
  const key = bundleKey(spec.format, esbuild.version, root);
  const dir = join(cache, key);
  const file = join(dir, mainFile);
  if (!existsSync(file)) {
    await build(esbuild, spec, root, cache, dir, file);
    pruneBundles(cache, key);
  }
  writeStamp(stampFile, stamp, key);
  return pathToFileURL(file).href;
}

/** Bundles of one name kept in the cache after a build: the new one and the newest others. */
export const KEPT_BUNDLES = 3;

/**
 * Removes all but the KEPT_BUNDLES newest bundles of `cache` (by modification time; `keep`, the
 * one just built, always stays), and temporary directories of builds that died over an hour ago.
 * Older bundles may still be running (a long sweep started before a checkout), so a few stay.
 * Failures are ignored: a bundle in use on a system that refuses its removal stays.
 */
function pruneBundles(cache, keep) {
  try {
    const now = Date.now();
    const dirs = [];
    for (const e of readdirSync(cache, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = join(cache, e.name);
      const mtime = statSync(p).mtimeMs;
      if (/^[0-9a-f]{16}$/.test(e.name)) {
        if (e.name !== keep) dirs.push({ p, mtime });
      } else if (e.name.endsWith('.tmp') && now - mtime > 3_600_000) {
        rmSync(p, { recursive: true, force: true });
      }
    }
    dirs.sort((a, b) => b.mtime - a.mtime);
    for (const d of dirs.slice(KEPT_BUNDLES - 1)) rmSync(d.p, { recursive: true, force: true });
  } catch {
    // best effort
  }
}

async function build(esbuild, spec, root, cache, dir, file) {
  mkdirSync(cache, { recursive: true });
  const tmp = `${dir}.${process.pid}.${Date.now()}.tmp`;
  const entryPoints = {};
  for (const [out, src] of Object.entries(spec.entries)) entryPoints[out] = join(root, src);
  const plugins = [sourceUrlPlugin()];
  if (spec.packagesExternal) plugins.unshift(packagesExternalPlugin(spec.bundled ?? []));
  await esbuild.build({
    entryPoints,
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: spec.external ?? [],
    splitting: spec.splitting === true,
    chunkNames: 'chunk-[hash]',
    plugins,
    logLevel: 'silent',
    legalComments: 'none',
  });
  try {
    renameSync(tmp, dir);
  } catch (e) {
    // another process renamed its identical bundle into place first
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(file)) throw e;
  }
}

/** Bumped when the CLI bundle's shape (entries, options) changes: part of its cache key. */
const CLI_BUNDLE_FORMAT = 2;

/** The CLI bundle's spec (bin/terrawheel.mjs; its test reads the metafile of the same options). */
export const CLI_BUNDLE = {
  name: 'cli',
  format: CLI_BUNDLE_FORMAT,
  entries: { cli: 'sim/node/cli.ts', 'record-encoder-worker': 'sim/node/record-encoder-worker.ts' },
  main: 'cli',
  // npm packages load from node_modules as under tsx (piscina spawns its worker by its own path,
  // vhacd-js and the recording codecs load .wasm files, esbuild is native); only the schemas are
  // bundled: Node's resolver refuses their extensionless subpath import
  packagesExternal: true,
  bundled: ['@foxglove/schemas'],
  // dynamic imports stay dynamic (their own chunks): a package imported only by a command that
  // loads it when run (the queue's bullmq, the live server's ws) is not loaded at every start
  splitting: true,
};

/** The file URL of the CLI's bundle (its export `main` is cli.ts's), built if needed; throws if it cannot be had. */
export function cliBundle(opts = {}) {
  return findOrBuildBundle({ ...CLI_BUNDLE, ...opts });
}
