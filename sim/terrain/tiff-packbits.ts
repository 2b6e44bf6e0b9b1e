/**
 * PackBits decompression (TIFF 6.0 specification, Section 9). Header byte n (signed):
 * 0..127 → copy the next n + 1 bytes literally; −127..−1 → repeat the next byte 1 − n times;
 * −128 → no-op. Output past out.length is dropped; returns the bytes written.
 */
/** [-] Upper bound of PackBits' output/input ratio: 2 bytes (header + value) repeat to at most 128. */
export const PACKBITS_MAX_EXPANSION = 64;

export function packBitsDecode(src: Uint8Array, out: Uint8Array): number {
  let i = 0;
  let o = 0;
  const cap = out.length;
  while (i < src.length && o < cap) {
    const n = (src[i++] << 24) >> 24;
    if (n >= 0) {
      const end = Math.min(i + n + 1, src.length);
      for (; i < end && o < cap; i++) out[o++] = src[i];
      i = end;
    } else if (n !== -128) {
      if (i >= src.length) break;
      const v = src[i++];
      for (let k = 0; k < 1 - n && o < cap; k++) out[o++] = v;
    }
  }
  return o;
}
