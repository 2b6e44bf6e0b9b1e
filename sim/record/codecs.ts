/**
 * Chunk compression for recordings: zstd (write and read) and lz4 (read) through the Foxglove
 * WASM codecs, loaded once per process (their modules load asynchronously; `loadCodecs` awaits
 * that once and every later call gets the same object).
 *
 * The codecs are injectable: the writer and reader take a `RecordingCodecs`, so a host that
 * loads the WASM differently (a bundler, a test) passes its own.
 *
 * Both packages return a Node `Buffer` from every call (`Buffer.allocUnsafe` + `Buffer.from(…)
 * .copy`). A Web Worker has no `Buffer`: there each call runs with a minimal stand-in installed
 * on globalThis for the duration of that synchronous call only, then removed, so no other
 * library ever sees a fake `Buffer`.
 */

export interface RecordingCodecs {
  /** Compression used by the writer ('' = none). */
  compression: 'zstd' | '';
  compress(data: Uint8Array): Uint8Array;
  /** Decompressors by MCAP compression name; '' (none) is handled by the reader. */
  decompress: Record<string, (data: Uint8Array, uncompressedSize: number) => Uint8Array>;
}

/** zstd level: 3 is zstd's default (a fast level; higher levels cost write throughput). */
export const ZSTD_LEVEL = 3;

interface ZstdModule {
  isLoaded: Promise<unknown>;
  compress(buffer: Uint8Array, level?: number): Uint8Array;
  decompress(buffer: Uint8Array, size: number): Uint8Array;
}
interface Lz4Module {
  (buffer: Uint8Array, size: number): Uint8Array;
  isLoaded: Promise<unknown>;
}

/** The two calls the WASM glue makes on Buffer, over plain Uint8Arrays. */
const bufferStandIn = {
  allocUnsafe(n: number): Uint8Array {
    return new Uint8Array(n);
  },
  from(buf: ArrayBufferLike) {
    return {
      copy(target: Uint8Array, targetStart: number, sourceStart: number, sourceEnd: number): number {
        target.set(new Uint8Array(buf, sourceStart, sourceEnd - sourceStart), targetStart);
        return sourceEnd - sourceStart;
      },
    };
  },
};

function withBuffer<T>(f: () => T): T {
  const g = globalThis as { Buffer?: unknown };
  if (g.Buffer !== undefined) return f();
  g.Buffer = bufferStandIn;
  try {
    return f();
  } finally {
    delete g.Buffer;
  }
}

/** A plain Uint8Array view of what the codec returned (a Buffer is one already). */
function plain(u: Uint8Array): Uint8Array {
  return u.constructor === Uint8Array ? u : new Uint8Array(u.buffer, u.byteOffset, u.byteLength);
}

function interop<T>(m: unknown): T {
  const d = (m as { default?: unknown }).default;
  return (d ?? m) as T;
}

let loading: Promise<RecordingCodecs> | null = null;

/** Loads the zstd and lz4 WASM codecs once; every call returns the same promise. */
export function loadCodecs(): Promise<RecordingCodecs> {
  if (loading === null) {
    loading = (async () => {
      const zstd = interop<ZstdModule>(await import('@foxglove/wasm-zstd'));
      const lz4 = interop<Lz4Module>(await import('@foxglove/wasm-lz4'));
      await Promise.all([zstd.isLoaded, lz4.isLoaded]);
      return {
        compression: 'zstd',
        compress: (data) => withBuffer(() => plain(zstd.compress(data, ZSTD_LEVEL))),
        decompress: {
          zstd: (data, size) => withBuffer(() => plain(zstd.decompress(data, size))),
          lz4: (data, size) => withBuffer(() => plain(lz4(data, size))),
        },
      } satisfies RecordingCodecs;
    })();
    loading.catch(() => {
      loading = null; // let a later call retry (e.g. the WASM file was not reachable)
    });
  }
  return loading;
}

/** No compression (tests of the format itself, or a host without the WASM codecs). */
export const NO_COMPRESSION: RecordingCodecs = {
  compression: '',
  compress: (d) => d,
  decompress: {},
};
