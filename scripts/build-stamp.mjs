/**
 * Whether a build output is up to date with its sources, for `npm start` (scripts/start.mjs): each
 * build lists its input files and folders; after a successful build a stamp with the SHA-256 of
 * every input file (path and content) is written into the output folder; the build is up to date
 * while the stamp matches the inputs and the outputs exist.
 *
 * Content, not mtimes: a `git checkout` or a fresh clone touches every mtime without changing a
 * byte, and an edit undone still hashes the same. Hashing the ~3 MB of sources takes tens of ms;
 * the Vite build it saves takes minutes on a busy machine.
 *
 * The hash is computed before the build and written after it succeeds, so a file edited while
 * the build ran makes the next start build again. A build run directly (`npm run build:web`,
 * `vite build`) writes no stamp (and Vite empties dist/web): the next `npm start` builds once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Name of the stamp file inside a build's output folder. */
export const STAMP_FILE = '.build-stamp.json';

/** Inputs every build shares: the dependency versions and the TypeScript settings. */
const COMMON_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.json', 'tsconfig.renderer.json', 'tsconfig.electron.json'];

/**
 * The builds `npm start` needs. `inputs` are paths relative to the repository root (a folder
 * means every file under it, dot-files excepted; '!folder' leaves that folder out); `outputs`
 * must exist for the build to count.
 * test/unit/electron/build-stamp.test.ts checks that every local module the build configs import
 * lies inside these inputs.
 */
export const BUILDS = {
  web: {
    label: 'renderer (dist/web)',
    script: 'build:web',
    outDir: 'dist/web',
    // sim/node and sim/live are Node-only, and of electron/ the renderer imports only the IPC
    // contract (and vite.config.ts the asset kinds): nothing in the renderer or its workers may import the rest (the boundary test)
    inputs: [...COMMON_INPUTS, 'vite.config.ts', 'scripts/vite-foxglove-wasm.ts', 'renderer', 'sim', '!sim/node', '!sim/live', 'electron/ipc-contract.ts', 'electron/asset-kind.ts', 'assets'],
    outputs: ['index.html', 'assets-manifest.json'],
  },
  electron: {
    label: 'Electron main and preload (dist/electron)',
    script: 'build:electron',
    outDir: 'dist/electron',
    inputs: [...COMMON_INPUTS, 'scripts/build-electron.mjs', 'electron', 'sim'],
    outputs: ['main.cjs', 'preload.cjs'],
  },
};

/** Every file under the inputs, as sorted '/'-separated paths relative to root. Missing inputs are skipped. */
export function inputFiles(root, inputs) {
  const out = [];
  const walk = (rel) => {
    const full = path.join(root, rel);
    let st;
    try {
      st = statSync(full);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(full)) if (!name.startsWith('.') && name !== 'node_modules') walk(rel === '' ? name : `${rel}/${name}`);
    } else if (st.isFile()) out.push(rel);
  };
  const excluded = inputs.filter((i) => i.startsWith('!')).map((i) => i.slice(1).split(path.sep).join('/'));
  for (const i of inputs) if (!i.startsWith('!')) walk(i.split(path.sep).join('/'));
  const kept = out.filter((f) => !excluded.some((x) => f === x || f.startsWith(`${x}/`)));
  return [...new Set(kept)].sort();
}

/** SHA-256 over every input file's path and content (hex). */
export function inputsHash(root, inputs) {
  const h = createHash('sha256');
  for (const rel of inputFiles(root, inputs)) {
    const data = readFileSync(path.join(root, rel));
    h.update(`${rel}\0${data.length}\0`);
    h.update(data);
  }
  return h.digest('hex');
}

function readStamp(root, build) {
  try {
    return JSON.parse(readFileSync(path.join(root, build.outDir, STAMP_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Whether `build`'s outputs exist and were built from inputs hashing to `hash`; else the reason
 * it is not ('no stamp', 'sources changed', 'dist/web/index.html is missing').
 */
export function buildState(root, build, hash) {
  for (const o of build.outputs) {
    const rel = `${build.outDir}/${o}`;
    if (!existsSync(path.join(root, rel))) return { upToDate: false, reason: `${rel} is missing` };
  }
  const stamp = readStamp(root, build);
  if (stamp === null) return { upToDate: false, reason: 'no build stamp (built outside npm start)' };
  if (stamp.hash !== hash) return { upToDate: false, reason: 'sources changed since the last build' };
  return { upToDate: true, reason: '' };
}

/** Records that `build`'s outputs were built from inputs hashing to `hash`. */
export function writeStamp(root, build, hash) {
  writeFileSync(path.join(root, build.outDir, STAMP_FILE), `${JSON.stringify({ hash, builtAt: new Date().toISOString() }, null, 1)}\n`);
}
