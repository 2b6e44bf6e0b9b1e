/**
 * Test-only builders of hostile terrain files (issue #18): Deflate bombs and TIFF tag patches.
 *
 * deflateBomb(n): a zlib stream of ≈ n KiB that inflates to n MiB of zeros, built in
 * milliseconds: fflate compresses 1 MiB of zeros once and sync-flushes (the segment ends with an
 * empty stored block, so it is byte-aligned and refers only to zeros), and the segment is repeated
 * n times between a zlib header and a final empty block. 1024 segments = 1 GiB from ≈ 1 MB.
 */
import { Deflate } from 'fflate';

let segment: Uint8Array | null = null;

function zeroSegment(): Uint8Array {
  if (segment) return segment;
  const parts: Uint8Array[] = [];
  const d = new Deflate({ level: 9 }, (c) => parts.push(c));
  d.push(new Uint8Array(1 << 20));
  d.flush(true);
  const seg = new Uint8Array(parts.reduce((a, c) => a + c.length, 0));
  let o = 0;
  for (const c of parts) {
    seg.set(c, o);
    o += c.length;
  }
  segment = seg;
  return seg;
}

/** zlib stream inflating to `mebibytes` MiB of zeros. */
export function deflateBomb(mebibytes: number): Uint8Array {
  const seg = zeroSegment();
  const out = new Uint8Array(2 + seg.length * mebibytes + 2 + 4);
  out[0] = 0x78;
  out[1] = 0xda;
  for (let k = 0; k < mebibytes; k++) out.set(seg, 2 + k * seg.length);
  const end = 2 + seg.length * mebibytes;
  out[end] = 0x03; // final, fixed-Huffman, empty block (end-of-block code only)
  out[end + 1] = 0x00;
  return out; // adler32 left zero: never reached by a bounded decoder
}

/** Offset of the IFD entry of `tag` in a little-endian classic TIFF whose IFD is at 8 (writeTiff's layout). */
function entryOffset(tiff: Uint8Array, tag: number): number {
  const v = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const n = v.getUint16(8, true);
  for (let k = 0; k < n; k++) {
    const o = 10 + k * 12;
    if (v.getUint16(o, true) === tag) return o;
  }
  throw new Error(`tag ${tag} not in the IFD`);
}

/** Overwrite the single inline LONG/SHORT value of `tag` (and optionally its type). */
export function patchTag(tiff: Uint8Array, tag: number, value: number, type?: number): Uint8Array {
  const out = tiff.slice();
  const v = new DataView(out.buffer);
  const o = entryOffset(out, tag);
  if (type !== undefined) v.setUint16(o + 2, type, true);
  const t = v.getUint16(o + 2, true);
  if (t === 3) v.setUint16(o + 8, value, true);
  else v.setUint32(o + 8, value, true);
  return out;
}

/** Replace the single strip or tile of a one-chunk file with `chunk`, appended at the end. */
export function replaceOnlyChunk(tiff: Uint8Array, chunk: Uint8Array, tiled: boolean): Uint8Array {
  const out = new Uint8Array(tiff.length + chunk.length);
  out.set(tiff);
  out.set(chunk, tiff.length);
  const v = new DataView(out.buffer);
  v.setUint32(entryOffset(out, tiled ? 324 : 273) + 8, tiff.length, true);
  v.setUint32(entryOffset(out, tiled ? 325 : 279) + 8, chunk.length, true);
  return out;
}
