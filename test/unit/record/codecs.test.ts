/**
 * The WASM codecs outside Node: with no global `Buffer` (a Web Worker), compress and decompress
 * still work through the stand-in that codecs.ts installs for the duration of each call, and
 * leave no `Buffer` behind.
 */
import { describe, expect, it } from 'vitest';
import { loadCodecs } from '../../../sim/record/codecs';

describe('recording codecs', () => {
  it('zstd round trip with and without a global Buffer; the stand-in is removed after each call', async () => {
    const codecs = await loadCodecs();
    const data = new Uint8Array(50_000).map((_, i) => (i * 31) % 251);
    const g = globalThis as { Buffer?: unknown };
    const saved = g.Buffer;
    let packed: Uint8Array;
    let unpacked: Uint8Array;
    try {
      delete g.Buffer;
      packed = codecs.compress(data);
      unpacked = codecs.decompress.zstd(packed, data.length);
      expect(g.Buffer).toBeUndefined();
    } finally {
      g.Buffer = saved;
    }
    expect(packed.length).toBeLessThan(data.length / 10);
    expect(unpacked).toEqual(data);
    expect(codecs.decompress.zstd(codecs.compress(data), data.length)).toEqual(data);
    expect(await loadCodecs()).toBe(codecs);
  });
});
