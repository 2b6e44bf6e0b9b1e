/**
 * sim/record in a browser bundle: built by Vite with scripts/vite-foxglove-wasm.ts, then run in
 * a fresh JS context with no `process`, no `Buffer` and no `require`, shaped like a Web Worker
 * (importScripts, self, location, fetch). The codecs load (the WASM comes inline as a data: URL
 * in this library build), a recording is written with zstd chunks and read back.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { build } from 'vite';
import { foxgloveWasm } from '../../../scripts/vite-foxglove-wasm';

const ENTRY = `
import { loadCodecs } from '${resolve('sim/record/codecs.ts')}';
import { RecordingWriter } from '${resolve('sim/record/writer.ts')}';
import { MemorySink, bytesSource } from '${resolve('sim/record/io.ts')}';
import { RecordingReader } from '${resolve('sim/record/reader.ts')}';
globalThis.smoke = async () => {
  const codecs = await loadCodecs();
  const sink = new MemorySink();
  const w = await RecordingWriter.create(sink, { scenario: {}, buildId: 'web', dt: 1 / 240, bodies: [{ name: 'a', shape: { type: 'sphere', radius: 1 } }] }, { codecs, chunkBytes: 65536 });
  for (let s = 0; s < 3000; s++) w.writeFrame({ step: s, time: s / 240, bodyCount: 1, contactCount: 0, poses: new Float64Array(7).fill(s), velocities: new Float64Array(6), contacts: new Float64Array(0), contactInfo: new Int32Array(0) });
  await w.close();
  const r = await RecordingReader.open(bytesSource(sink.bytes()), { codecs });
  const f = await r.frameAt(2345);
  return { chunks: r.info.chunkCount, last: r.info.lastStep, x: f && f.poses[0], bufferLeft: typeof Buffer };
};
`;

describe('sim/record in a Web Worker bundle', () => {
  it('builds with the plugin and records/reads with zstd without process or Buffer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'terrawheel-web-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(entry, ENTRY);
      const warnings: string[] = [];
      // as `vite build` runs: Vite warns about Node modules pulled into a browser bundle only in
      // production (vitest sets NODE_ENV=test)
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      await build({
        configFile: false,
        logLevel: 'silent',
        plugins: [foxgloveWasm()],
        build: {
          outDir: join(dir, 'out'),
          emptyOutDir: true,
          target: 'es2022',
          minify: false,
          lib: { entry, formats: ['iife'], name: 'Smoke', fileName: 'smoke' },
          rollupOptions: { onwarn: (w) => void warnings.push(w.message) },
        },
      }).finally(() => {
        process.env.NODE_ENV = nodeEnv;
      });
      // The glue's Node branch (require("fs"), require("path")) is cut by the plugin: no Node
      // module is externalized into the browser bundle, and Vite has nothing to warn about.
      expect(warnings.filter((w) => /externalized for browser compatibility/.test(w))).toEqual([]);
      const file = readdirSync(join(dir, 'out')).find((f) => f.endsWith('.js'))!;
      const code = readFileSync(join(dir, 'out', file), 'utf8');
      expect(code).not.toMatch(/__vite-browser-external|require\("(fs|path)"\)/);
      /** Synchronous and asynchronous XHR over data: URLs (what the Emscripten glue uses in a worker). */
      class DataXhr {
        url = '';
        response: ArrayBuffer | null = null;
        status = 0;
        onload: (() => void) | null = null;
        open(_method: string, url: string): void {
          this.url = url;
        }
        send(): void {
          const b64 = this.url.slice(this.url.indexOf(',') + 1);
          this.response = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
          this.status = 200;
          if (this.onload) setTimeout(() => this.onload?.(), 0);
        }
      }
      const sandbox: Record<string, unknown> = {
        WebAssembly: (globalThis as Record<string, unknown>).WebAssembly, TextEncoder, TextDecoder, URL, atob, setTimeout, clearTimeout, queueMicrotask, console, performance, fetch, Response,
        XMLHttpRequest: DataXhr,
        importScripts: () => undefined,
        location: { href: 'http://127.0.0.1/static/worker.js' },
        document: { baseURI: 'http://127.0.0.1/static/' }, // the IIFE build's import.meta.url stand-in reads it
      };
      sandbox.self = sandbox;
      sandbox.globalThis = sandbox;
      createContext(sandbox);
      runInContext(code, sandbox);
      expect(runInContext('typeof process + typeof Buffer + typeof require', sandbox)).toBe('undefinedundefinedundefined');
      const result = await (runInContext('smoke()', sandbox) as Promise<{ chunks: number; last: number; x: number; bufferLeft: string }>);
      expect(result).toEqual({ chunks: expect.any(Number), last: 2999, x: 2345, bufferLeft: 'undefined' });
      expect(result.chunks).toBeGreaterThan(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
