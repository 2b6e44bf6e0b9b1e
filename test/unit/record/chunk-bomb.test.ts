/**
 * Issue #28, "a zstd chunk that inflates to 1 GiB": a chunk whose head declares more than
 * MAX_CHUNK_UNCOMPRESSED_BYTES is refused before it is inflated (the codec is never called), for
 * zstd and lz4, in a complete (indexed) file and in a cut (scanned) one.
 *
 * The bomb is built here: a zstd frame of run-length blocks (4 bytes each for 128 KiB of output)
 * written as a chunk's records, and the chunk's declared uncompressed size (head and index) set to
 * what the frame inflates to.
 */
import { describe, expect, it } from 'vitest';
import { loadCodecs, type RecordingCodecs } from '../../../sim/record/codecs';
import { bytesSource, MemorySink } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { MAX_CHUNK_UNCOMPRESSED_BYTES, RecordingError } from '../../../sim/record/format';
import { RecordingWriter } from '../../../sim/record/writer';
import { Rng } from '../../../sim/math/random';
import { DT, FIXTURE_BODIES } from './fixture';
import { randomFrame } from './synthetic';

/** RLE block output [bytes]: zstd's Block_Maximum_Size. */
const RLE_BLOCK = 128 * 1024;

/** A zstd frame that inflates to `size` zero bytes (a multiple of 128 KiB), 4 bytes per block. */
function zstdZeros(size: number): Uint8Array {
  const blocks = size / RLE_BLOCK;
  // magic, frame header descriptor (no content size, no checksum), window descriptor 2^17
  const out = new Uint8Array(6 + 4 * blocks);
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]);
  for (let k = 0; k < blocks; k++) {
    const h = (k === blocks - 1 ? 1 : 0) | (1 << 1) | (RLE_BLOCK << 3); // last flag, RLE, size
    out.set([h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, 0], 6 + 4 * k);
  }
  return out;
}

/** Replaces every little-endian u64 equal to `from` with `to` (the chunk head and its index entry). */
function patchU64(bytes: Uint8Array, from: number, to: number): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let i = 0; i + 8 <= bytes.length; i++) {
    if (dv.getUint32(i, true) === from && dv.getUint32(i + 4, true) === 0) {
      dv.setUint32(i, to, true);
      n++;
    }
  }
  return n;
}

async function bombFile(compression: 'zstd' | 'lz4', declared: number): Promise<{ bytes: Uint8Array; realSize: number }> {
  const codecs = await loadCodecs();
  const bomb = zstdZeros(declared);
  let realSize = -1;
  // One chunk whose records are the bomb (the writer's real chunk is a few KB).
  const writing: RecordingCodecs = { compression: compression as 'zstd', compress: (d) => ((realSize = d.length), bomb), decompress: codecs.decompress };
  const sink = new MemorySink();
  const w = await RecordingWriter.create(sink, { scenario: { name: 'bomb' }, buildId: 'b', dt: DT, bodies: FIXTURE_BODIES, wheels: [1, 2] }, { codecs: writing, foxgloveHz: 0 });
  const rng = new Rng(5);
  w.writeKeyframe({ step: 0, hash: 'h0', bytes: new Uint8Array(8) });
  for (let s = 0; s < 20; s++) w.writeFrame(randomFrame(rng, s, DT, 5, 2));
  await w.close();
  const bytes = sink.bytes().slice();
  expect(patchU64(bytes, realSize, declared), 'the chunk head and its index entry').toBe(2);
  return { bytes, realSize };
}

describe('chunks that claim to inflate past the limit (issue #28)', () => {
  for (const compression of ['zstd', 'lz4'] as const) {
    for (const cut of [false, true]) {
      it(`${compression}, ${cut ? 'cut file (scanned)' : 'complete file (indexed)'}: refused before inflating`, async () => {
        const declared = MAX_CHUNK_UNCOMPRESSED_BYTES + RLE_BLOCK;
        const { bytes } = await bombFile(compression, declared);
        expect(bytes.length).toBeLessThan(64 * 1024);
        const codecs = await loadCodecs();
        let inflated = 0;
        const counting: RecordingCodecs = {
          ...codecs,
          decompress: Object.fromEntries(Object.entries(codecs.decompress).map(([k, d]) => [k, (data: Uint8Array, size: number) => (inflated++, d(data, size))])),
        };
        // a cut copy: everything after the chunk's message indexes (the summary) is gone
        const file = cut ? bytes.subarray(0, bytes.length - 200) : bytes;
        let error: unknown = null;
        try {
          const r = await RecordingReader.open(bytesSource(file), { codecs: counting });
          expect(r.info.mode).toBe(cut ? 'scan' : 'indexed');
          await r.frameAt(3);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(RecordingError);
        expect((error as Error).message).toMatch(new RegExp(`inflates to ${declared} bytes, over the ${MAX_CHUNK_UNCOMPRESSED_BYTES}-byte limit`));
        expect(inflated).toBe(0);
      });
    }
  }

  it('the crafted frame really is a bomb: zstd inflates it to what it declares', async () => {
    const codecs = await loadCodecs();
    const frame = zstdZeros(4 * RLE_BLOCK);
    expect(frame.length).toBe(6 + 16);
    const out = codecs.decompress.zstd(frame, 4 * RLE_BLOCK);
    expect(out.length).toBe(4 * RLE_BLOCK);
    expect(out.every((b) => b === 0)).toBe(true);
  });
});
