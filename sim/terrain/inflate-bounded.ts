/**
 * Bounded zlib inflation for the PNG and GeoTIFF loaders: the output never grows past the size
 * the file's header promised, whatever the compressed data says.
 *
 * Why not fflate's unzlibSync: it inflates to the end of the stream and grows its buffer as it
 * goes, so a 1 MB Deflate stream (Deflate reaches ≈ 1032:1) becomes 1 GiB before anyone can
 * compare it with the 64 × 64 pixels the header declared. Here the compressed bytes go through
 * fflate's streaming Unzlib in slices of TERRAIN_INFLATE_SLICE_BYTES, each slice's output is
 * copied into the caller's exact-size buffer, and pushing stops as soon as the buffer is full.
 * One slice inflates to at most slice × DEFLATE_MAX_EXPANSION bytes, so that is the most memory a
 * hostile stream can cost beyond the promised size; the slice shrinks with the promised size
 * (capacity / INFLATE_SLICE_DIVISOR, at least INFLATE_MIN_SLICE_BYTES), so a 64 × 64 strip
 * overshoots by ≈ 1 MB, not 33 MB. The time is bounded by the promised size too.
 */
import { Unzlib } from 'fflate';

/** [bytes] Compressed bytes pushed to the streaming inflater per step (32 KiB): bounds the
 * transient output of one push to ≈ 32 KiB × 1032 ≈ 33 MB, and sets progress granularity. */
export const TERRAIN_INFLATE_SLICE_BYTES = 1 << 15;

/** [bytes] Smallest slice (1 KiB: ≤ ≈ 1 MB of output per push even at the maximum ratio). */
export const INFLATE_MIN_SLICE_BYTES = 1024;

/** [-] Slice = capacity / this (clamped): a bomb's one-slice overshoot stays ≈ 16× the promised size. */
export const INFLATE_SLICE_DIVISOR = 64;

/** Compressed bytes per push for an output of `capacity` bytes. */
export function inflateSliceBytes(capacity: number): number {
  return Math.min(TERRAIN_INFLATE_SLICE_BYTES, Math.max(INFLATE_MIN_SLICE_BYTES, Math.ceil(capacity / INFLATE_SLICE_DIVISOR)));
}

/**
 * [-] Largest output/input ratio of a zlib stream: Deflate's longest match (258 bytes) costs at
 * least 2 bits, so ≈ 1032:1 (zlib's "technical details" FAQ). A header that claims more pixels
 * than the compressed data could ever hold is rejected before the pixel buffer is allocated.
 */
export const DEFLATE_MAX_EXPANSION = 1032;

export interface BoundedInflateResult {
  /** Bytes written into `out` (≤ out.length). */
  written: number;
  /** True if the stream holds more data than `out` has room for (inflation stopped there). */
  overflow: boolean;
}

/**
 * Inflate the zlib stream formed by concatenating `parts` into `out`, stopping once `out` is full.
 * `afterSlice(consumed, written)` runs after each slice (compressed bytes consumed so far, bytes
 * written so far) and may throw to stop. `sliceBytes` can only lower the slice below
 * inflateSliceBytes(out.length) (the PNG decoder lowers it for progress granularity). Errors of a corrupt stream are thrown as fflate's Error;
 * the caller wraps them with what and where.
 */
export function inflateZlibBounded(
  parts: readonly Uint8Array[],
  out: Uint8Array,
  afterSlice?: (consumed: number, written: number) => void,
  sliceBytes: number = TERRAIN_INFLATE_SLICE_BYTES,
): BoundedInflateResult {
  const capacity = out.length;
  let written = 0;
  let overflow = false;
  const inflater = new Unzlib((chunk) => {
    if (overflow) return;
    const room = capacity - written;
    if (chunk.length > room) {
      out.set(chunk.subarray(0, room), written);
      written = capacity;
      overflow = true;
      return;
    }
    out.set(chunk, written);
    written += chunk.length;
  });
  const slice = Math.max(1, Math.min(Math.floor(sliceBytes), inflateSliceBytes(capacity)));
  let total = 0;
  for (const p of parts) total += p.length;
  let consumed = 0;
  for (let c = 0; c < parts.length && !overflow; c++) {
    const part = parts[c];
    for (let s = 0; s < part.length && !overflow; s += slice) {
      const e = Math.min(part.length, s + slice);
      consumed += e - s;
      inflater.push(part.subarray(s, e), consumed === total);
      if (afterSlice !== undefined) afterSlice(consumed, written);
    }
  }
  return { written, overflow };
}

/** True for the errors fflate throws on corrupt data (an Error with a numeric `code`). */
export function isInflateError(err: unknown): boolean {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number';
}
