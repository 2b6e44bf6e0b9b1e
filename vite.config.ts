/**
 * Web build of the renderer (also what Electron loads through app://).
 *
 *   root       renderer/            (index.html, main.ts)
 *   output     dist/web/            index.html, static/ (Vite's hashed JS/CSS, the worker chunk),
 *                                   assets/ (a copy of the repo's assets/**), assets-manifest.json
 *   base       './'                 relative URLs: works under app://, file-less static servers, any subpath
 *
 * The asset manifest classifies files with electron/asset-kind.ts and the CSP meta tag is written
 * from electron/ipc-contract.ts RENDERER_CSP: one source of truth for both hosts.
 *
 * Vite's own output directory is renamed to 'static' so it never mixes with our 'assets/' prefix,
 * which names bundled terrains/robots/scenarios (paths in assets-manifest.json are relative to it).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { classifyAsset } from './electron/asset-kind';
import { RENDERER_CSP } from './electron/ipc-contract';
import { foxgloveWasm } from './scripts/vite-foxglove-wasm';

const here = dirname(fileURLToPath(import.meta.url));
const assetsDir = resolve(here, 'assets');
const outDir = resolve(here, 'dist/web');
const MANIFEST = 'assets-manifest.json';

type AssetKind = ReturnType<typeof classifyAsset>;

function listAssetFiles(dir: string): { path: string; kind: AssetKind; size: number }[] {
  const out: { path: string; kind: AssetKind; size: number }[] = [];
  if (!existsSync(dir)) return out;
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      if (name.startsWith('.')) continue;
      const full = join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (st.isFile()) {
        const path = relative(dir, full).split(sep).join('/');
        out.push({ path, kind: classifyAsset(path), size: st.size });
      }
    }
  };
  walk(dir);
  return out;
}

const MIME: Record<string, string> = { '.json': 'application/json', '.png': 'image/png', '.urdf': 'application/xml', '.xml': 'application/xml' };

/**
 * Writes the one CSP string (electron/ipc-contract.ts RENDERER_CSP, which Electron's main also
 * sends as a header) into index.html's meta tag, so the web build and the desktop app cannot drift.
 */
function cspMeta(): Plugin {
  return {
    name: 'terrawheel-csp-meta',
    transformIndexHtml(html) {
      const tag = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/;
      if (!tag.test(html)) throw new Error('renderer/index.html: Content-Security-Policy meta tag not found');
      return html.replace(tag, `$1${RENDERER_CSP}$2`);
    },
  };
}

/** Copies assets/** into the build with a manifest, and serves both from the dev server. */
function bundledAssets(): Plugin {
  return {
    name: 'terrawheel-bundled-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = decodeURIComponent((req.url ?? '').split('?')[0]);
        if (url === `/${MANIFEST}`) {
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify(listAssetFiles(assetsDir)));
          return;
        }
        if (url.startsWith('/assets/')) {
          const file = resolve(assetsDir, url.slice('/assets/'.length));
          if (file.startsWith(assetsDir + sep) && existsSync(file) && statSync(file).isFile()) {
            res.setHeader('Content-Type', MIME[extname(file).toLowerCase()] ?? 'application/octet-stream');
            res.end(readFileSync(file));
            return;
          }
        }
        next();
      });
    },
    closeBundle() {
      const target = join(outDir, 'assets');
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target, { recursive: true });
      if (existsSync(assetsDir)) cpSync(assetsDir, target, { recursive: true });
      writeFileSync(join(outDir, MANIFEST), JSON.stringify(listAssetFiles(assetsDir), null, 1));
    },
  };
}

export default defineConfig({
  root: resolve(here, 'renderer'),
  base: './',
  publicDir: false,
  // foxgloveWasm: the zstd/lz4 WASM codecs of recordings (sim/record), in the page and the worker.
  plugins: [cspMeta(), bundledAssets(), foxgloveWasm()],
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'static',
    target: 'es2022',
    sourcemap: true,
    // three + pixi are big; one chunk each is fine for a desktop app loaded from disk.
    chunkSizeWarningLimit: 2000,
  },
  worker: {
    format: 'es',
    plugins: () => [foxgloveWasm()],
  },
  server: {
    host: '127.0.0.1',
    fs: { allow: [here] },
  },
});
