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
 * The glue also has a Node branch (`if (ENVIRONMENT_IS_NODE) { … require("fs") … require("path") … }`).
 * Bundled for the browser, those two requires were what made every build print eight "Module
 * "path"/"fs" has been externalized for browser compatibility" warnings (fs and path, in both
 * glues, in both workers that record: the sim worker and the encoder worker; the page itself
 * imports no codec) and ship a `__vite-browser-external` proxy chunk. A browser bundle never
 * takes that branch, so the plugin fixes ENVIRONMENT_IS_NODE to false and replaces the two
 * requires by a call that throws if the branch ever ran: no Node module is left to externalize.
 *
 * Use it in both pipelines (the worker has its own):
 *   plugins: [..., foxgloveWasm()],
 *   worker: { format: 'es', plugins: () => [foxgloveWasm()] },
 * and allow WebAssembly in the CSP: script-src 'self' 'wasm-unsafe-eval'.
 *
 * test/unit/record/web-bundle.test.ts builds sim/record with this plugin (as `vite build` does, in
 * production mode, where Vite warns) and runs the bundle with no `process` and no `Buffer`, as in
 * a Web Worker; it fails on any "externalized for browser compatibility" warning.
 */
import type { Plugin } from 'vite';

const GLUE = /@foxglove[\\/]wasm-(zstd|lz4)[\\/]dist[\\/]wasm-(zstd|lz4)\.js$/;

/** How the glue decides it runs in Node (Emscripten's environment check). */
const NODE_CHECK = 'var ENVIRONMENT_IS_NODE=typeof process=="object"&&typeof process.versions=="object"&&typeof process.versions.node=="string";';
/** The Node modules the glue's Node branch requires. */
const NODE_REQUIRE = /\brequire\("(fs|path)"\)/g;
/** Stands in for those requires: throws, naming the module, if the Node branch ever runs in a bundle. */
const NODE_ONLY = '__terrawheelNodeOnly';

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
      if (!code.includes(NODE_CHECK)) this.error(`${id}: expected Emscripten's ENVIRONMENT_IS_NODE check in the glue (package version changed?)`);
      let out = code
        .replace(call, `new URL("./wasm-${m[2]}.wasm", import.meta.url).href`)
        .replace(NODE_CHECK, 'var ENVIRONMENT_IS_NODE=false;')
        .replace(NODE_REQUIRE, (_all, mod: string) => `${NODE_ONLY}(${JSON.stringify(mod)})`);
      const left = /\brequire\(\s*["'][^"']+["']\s*\)/.exec(out);
      if (left) this.error(`${id}: ${left[0]} is left in the browser build of the glue (package version changed?)`);
      out = `function ${NODE_ONLY}(m){throw new Error("@foxglove/wasm-${m[1]}: the glue's Node branch ran in a browser bundle (require(\\"" + m + "\\"))")}\n${out}`;
      return { code: out, map: null };
    },
  };
}
