/**
 * Vite plugin that lets the Foxglove WASM codecs (@foxglove/wasm-zstd, @foxglove/wasm-lz4; used
 * by sim/record for recordings) build for the browser and the sim worker.
 *
 * Their Emscripten glue finds its .wasm file with `require("./wasm-zstd.wasm")` (written for
 * webpack's file loader). Vite cannot import a .wasm file that way and the build fails ("ESM
 * integration proposal for Wasm is not supported"). This plugin rewrites that one call to
 * `new URL("./wasm-zstd.wasm", import.meta.url).href`, which Vite turns into the URL of an
 * emitted asset (or a data: URL where it inlines assets). The glue then fetches and
 * instantiates the WASM itself.
 *
 * Use it in both pipelines (the worker has its own):
 *   plugins: [..., foxgloveWasm()],
 *   worker: { format: 'es', plugins: () => [foxgloveWasm()] },
 * and allow WebAssembly in the CSP: script-src 'self' 'wasm-unsafe-eval'.
 *
 * test/unit/record/web-bundle.test.ts builds sim/record with this plugin and runs the bundle
 * with no `process` and no `Buffer`, as in a Web Worker.
 */
import type { Plugin } from 'vite';

const GLUE = /@foxglove[\\/]wasm-(zstd|lz4)[\\/]dist[\\/]wasm-(zstd|lz4)\.js$/;

export function foxgloveWasm(): Plugin {
  return {
    name: 'terrawheel-foxglove-wasm',
    enforce: 'pre',
    transform(code, id) {
      // Only the glue file itself: not Vite's virtual proxies of it (ids with a ?query).
      const m = id.includes('?') ? null : GLUE.exec(id);
      if (!m) return null;
      const call = `require("./wasm-${m[2]}.wasm")`;
      if (!code.includes(call)) this.error(`${id}: expected ${call} in the Emscripten glue (package version changed?)`);
      return { code: code.replace(call, `new URL("./wasm-${m[2]}.wasm", import.meta.url).href`), map: null };
    },
  };
}
