/**
 * TIFF LZW decompression (TIFF 6.0 specification, Section 13 "LZW Compression").
 *
 * Codes are read MSB-first, starting at 9 bits. 256 = ClearCode (reset the table and the width),
 * 257 = EndOfInformation, 258.. = table entries. TIFF's "early change": the width grows one code
 * EARLY, as soon as the next free entry is 511 / 1023 / 2047 (not 512 / 1024 / 2048), up to 12
 * bits (4096 entries). Pre-6.0 "old-style" LSB-first LZW is not supported.
 *
 * The table stores each entry as (prefix code, last byte, first byte, length) and an entry is
 * written back to front, so decoding allocates nothing per code.
 */
import { TerrainError } from './heightfield';

/**
 * [-] Upper bound of LZW's output/input ratio: a code of ≥ 9 bits expands to at most 4096 bytes
 * (one full-length table entry), so ≤ 4096·8/9 ≈ 3641 bytes per input byte.
 */
export const LZW_MAX_EXPANSION = 3641;

const CLEAR = 256;
const EOI = 257;
const FIRST_FREE = 258;
const MAX_BITS = 12;
const TABLE_SIZE = 1 << MAX_BITS;

const prefix = new Int32Array(TABLE_SIZE);
const suffix = new Uint8Array(TABLE_SIZE);
const first = new Uint8Array(TABLE_SIZE);
const length = new Int32Array(TABLE_SIZE);
for (let k = 0; k < 256; k++) {
  prefix[k] = -1;
  suffix[k] = k;
  first[k] = k;
  length[k] = 1;
}

/**
 * Decompress `src` into `out` (exactly `out.length` bytes expected). Returns the number of bytes
 * written; output past out.length is dropped (TIFF writers may pad). Throws TerrainError on an
 * invalid code.
 */
export function lzwDecode(src: Uint8Array, out: Uint8Array): number {
  let width = 9;
  let next = FIRST_FREE;
  let prev = -1;
  let o = 0;
  let bitPos = 0;
  const totalBits = src.length * 8;
  const cap = out.length;
  while (bitPos + width <= totalBits) {
    // Read `width` bits MSB-first (width ≤ 12 spans at most 3 bytes).
    const byte = bitPos >>> 3;
    const window = (src[byte] << 16) | ((byte + 1 < src.length ? src[byte + 1] : 0) << 8) | (byte + 2 < src.length ? src[byte + 2] : 0);
    const code = (window >>> (24 - (bitPos & 7) - width)) & ((1 << width) - 1);
    bitPos += width;
    if (code === EOI) break;
    if (code === CLEAR) {
      width = 9;
      next = FIRST_FREE;
      prev = -1;
      continue;
    }
    let entry: number;
    if (prev === -1) {
      if (code > 255) throw new TerrainError(`terrain GeoTIFF: LZW data is corrupt (code ${code} right after a clear code)`);
      entry = code;
    } else if (code < next) {
      entry = code;
      if (next < TABLE_SIZE) {
        prefix[next] = prev;
        suffix[next] = first[code];
        first[next] = first[prev];
        length[next] = length[prev] + 1;
        next++;
      }
    } else if (code === next && next < TABLE_SIZE) {
      // KwKwK: the code being defined is used at once; its last byte is its own first byte.
      prefix[next] = prev;
      suffix[next] = first[prev];
      first[next] = first[prev];
      length[next] = length[prev] + 1;
      entry = next;
      next++;
    } else {
      throw new TerrainError(`terrain GeoTIFF: LZW data is corrupt (code ${code} but only ${next} table entries)`);
    }
    // Write the entry's string back to front.
    const len = length[entry];
    let e = entry;
    for (let k = len - 1; k >= 0; k--) {
      if (o + k < cap) out[o + k] = suffix[e];
      e = prefix[e];
    }
    o += len;
    prev = code;
    if (next >= (1 << width) - 1 && width < MAX_BITS) width++;
  }
  return o < cap ? o : cap;
}
