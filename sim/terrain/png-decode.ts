/**
 * Grayscale PNG decoder for heightmaps (PNG spec, ISO/IEC 15948:2004 / W3C PNG 2nd ed.).
 *
 * Accepts exactly what a heightmap should be: colour type 0 (grayscale), bit depth 8 or 16,
 * compression method 0, filter method 0, no interlace. Everything else is rejected with a message
 * that names the field and the value found, because a silently "converted" RGB or palette image
 * gives wrong heights that look plausible.
 *
 * File layout (§5): 8-byte signature, then chunks
 *   ┌────────────┬────────────┬──────────────────┬──────────────┐
 *   │ length u32 │ type 4 × A │ data (length)    │ CRC-32 u32   │   all integers big-endian;
 *   └────────────┴────────────┴──────────────────┴──────────────┘   CRC covers type + data.
 * IHDR first (13 bytes: width, height, bit depth, colour type, compression, filter, interlace),
 * one or more IDAT whose concatenation is ONE zlib stream, IEND last. Every chunk's CRC is checked
 * and a missing IEND counts as truncation.
 *
 * The zlib stream is inflated incrementally (inflate-bounded.ts: fflate's streaming Unzlib, pure JS,
 * so this runs in the Web Worker too) into a buffer of the exact expected size, allocated only after
 * IHDR's size passed the TERRAIN_MAX_VERTICES_PER_AXIS check; inflation stops when it is full. Rows are unfiltered (§9.2: None, Sub,
 * Up, Average, Paeth) as soon as they are complete, so progress is reported while inflating.
 *
 * Sample order: `samples[r * width + c]` is image row r (row 0 = TOP of the picture), column c,
 * exactly as stored. Orientation (north-up → +y) is decided by the caller, not here.
 */
import { TERRAIN_MAX_VERTICES_PER_AXIS, TERRAIN_MIN_VERTICES_PER_AXIS } from '../constants';
import { crc32 } from './crc32';
import { TerrainError } from './heightfield';
import { DEFLATE_MAX_EXPANSION, TERRAIN_INFLATE_SLICE_BYTES, type BoundedInflateResult, inflateZlibBounded, isInflateError } from './inflate-bounded';
import { TERRAIN_PROGRESS_STEP } from './progress';

/** A decoded grayscale image, rows top to bottom. */
export interface GrayImage {
  width: number;
  height: number;
  bitDepth: 8 | 16;
  /** Row-major samples, row 0 = top of the image. Uint8Array for 8-bit, Uint16Array for 16-bit. */
  samples: Uint8Array | Uint16Array;
}

export { DEFLATE_MAX_EXPANSION };

/** PNG file signature (§5.2). */
export const PNG_SIGNATURE: readonly number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const COLOUR_TYPE_NAMES: Record<number, string> = {
  0: 'grayscale',
  2: 'RGB',
  3: 'palette',
  4: 'grayscale + alpha',
  6: 'RGBA',
};

/** True if the bytes start with the PNG signature. */
export function isPng(data: Uint8Array): boolean {
  if (data.length < PNG_SIGNATURE.length) return false;
  for (let k = 0; k < PNG_SIGNATURE.length; k++) if (data[k] !== PNG_SIGNATURE[k]) return false;
  return true;
}

function u32(d: Uint8Array, o: number): number {
  return ((d[o] << 24) | (d[o + 1] << 16) | (d[o + 2] << 8) | d[o + 3]) >>> 0;
}

function chunkType(d: Uint8Array, o: number): string {
  return String.fromCharCode(d[o], d[o + 1], d[o + 2], d[o + 3]);
}

function fail(message: string): never {
  throw new TerrainError(`terrain PNG: ${message}`);
}

/**
 * Decode a grayscale 8- or 16-bit PNG. `onProgress(f)` gets f in [0, 1] (fraction of the
 * compressed data inflated and unfiltered). Throws TerrainError naming what is wrong.
 */
export function decodeGrayPng(data: Uint8Array, onProgress?: (fraction: number) => void): GrayImage {
  if (!(data instanceof Uint8Array)) fail('expected the file bytes as a Uint8Array');
  if (!isPng(data)) fail('not a PNG file (the first 8 bytes are not the PNG signature)');

  // --- Pass 1: walk the chunks, check CRCs, read IHDR, collect IDAT views (no copies). ---
  let width = 0;
  let height = 0;
  let bitDepth: 8 | 16 = 8;
  let sawHeader = false;
  let sawEnd = false;
  const idat: Uint8Array[] = [];
  let idatBytes = 0;
  let o = PNG_SIGNATURE.length;
  while (o < data.length) {
    if (o + 8 > data.length) fail(`file truncated: ${data.length - o} stray bytes at offset ${o}, where a chunk header needs 8`);
    const length = u32(data, o);
    const type = chunkType(data, o + 4);
    if (length > 0x7fffffff) fail(`chunk "${type}" at offset ${o} declares an invalid length ${length} (max 2^31 − 1)`);
    const dataStart = o + 8;
    const dataEnd = dataStart + length;
    if (dataEnd + 4 > data.length) {
      fail(`file truncated: chunk "${type}" at offset ${o} declares ${length} data bytes + 4 CRC bytes, but only ${data.length - dataStart} bytes remain`);
    }
    const stored = u32(data, dataEnd);
    const actual = crc32(data, o + 4, dataEnd);
    if (stored !== actual) {
      fail(`CRC mismatch in chunk "${type}" at offset ${o} (stored 0x${stored.toString(16)}, computed 0x${actual.toString(16)}): the file is corrupt`);
    }
    if (!sawHeader && type !== 'IHDR') fail(`first chunk is "${type}", expected "IHDR"`);
    if (type === 'IHDR') {
      if (sawHeader) fail('more than one IHDR chunk');
      if (length !== 13) fail(`IHDR has ${length} bytes, expected 13`);
      sawHeader = true;
      width = u32(data, dataStart);
      height = u32(data, dataStart + 4);
      const depth = data[dataStart + 8];
      const colourType = data[dataStart + 9];
      const compression = data[dataStart + 10];
      const filter = data[dataStart + 11];
      const interlace = data[dataStart + 12];
      // Size check BEFORE anything is allocated for the pixels.
      for (const [name, v] of [['width', width], ['height', height]] as const) {
        if (v < TERRAIN_MIN_VERTICES_PER_AXIS || v > TERRAIN_MAX_VERTICES_PER_AXIS) {
          fail(`image ${name} is ${v} pixels; a heightmap needs ${TERRAIN_MIN_VERTICES_PER_AXIS} to ${TERRAIN_MAX_VERTICES_PER_AXIS} pixels per axis`);
        }
      }
      if (colourType !== 0) {
        const name = COLOUR_TYPE_NAMES[colourType] ?? 'unknown';
        fail(`colour type ${colourType} (${name}) is not supported; a heightmap must be grayscale (colour type 0), 8 or 16 bits`);
      }
      if (depth !== 8 && depth !== 16) {
        fail(`bit depth ${depth} is not supported; a grayscale heightmap must be 8 or 16 bits per pixel`);
      }
      bitDepth = depth;
      if (compression !== 0) fail(`unknown compression method ${compression} (PNG defines only 0)`);
      if (filter !== 0) fail(`unknown filter method ${filter} (PNG defines only 0)`);
      if (interlace !== 0) fail(`interlace method ${interlace} (Adam7) is not supported; re-save the heightmap without interlacing`);
    } else if (type === 'IDAT') {
      if (length > 0) {
        idat.push(data.subarray(dataStart, dataEnd));
        idatBytes += length;
      }
    } else if (type === 'IEND') {
      sawEnd = true;
      break;
    } else if ((data[o + 4] & 0x20) === 0 && type !== 'PLTE') {
      // Bit 5 of the first type byte clear = critical chunk (§5.4): we may not ignore it.
      fail(`unknown critical chunk "${type}" at offset ${o}`);
    }
    o = dataEnd + 4;
  }
  if (!sawHeader) fail('no IHDR chunk');
  if (!sawEnd) fail('file truncated: no IEND chunk');
  if (idatBytes === 0) fail('no image data (no IDAT chunk)');

  // --- Pass 2: inflate into the exact-size buffer, unfiltering complete rows as they arrive. ---
  const bpp = bitDepth === 16 ? 2 : 1; // bytes per complete pixel, the filter's "bpp" (§9.2)
  const stride = width * bpp;
  const rowBytes = stride + 1; // filter-type byte + samples
  const expected = rowBytes * height;
  if (expected > idatBytes * DEFLATE_MAX_EXPANSION) {
    fail(`${width} × ${height} × ${bitDepth}-bit needs ${expected} bytes, more than ${idatBytes} compressed bytes can hold (truncated or corrupt file)`);
  }
  const raw = new Uint8Array(expected);
  let rowsDone = 0;
  let filled = 0;
  const unfilterAvailable = (): void => {
    const complete = Math.floor(filled / rowBytes);
    for (; rowsDone < complete; rowsDone++) unfilterRow(raw, rowsDone, rowBytes, bpp);
  };
  // Slices small enough for ≥ 2 progress reports per TERRAIN_PROGRESS_STEP on any file size.
  const slice = Math.max(1, Math.min(TERRAIN_INFLATE_SLICE_BYTES, Math.ceil((idatBytes * TERRAIN_PROGRESS_STEP) / 2)));
  let result: BoundedInflateResult;
  try {
    result = inflateZlibBounded(
      idat,
      raw,
      (consumed, written) => {
        filled = written;
        unfilterAvailable();
        if (onProgress !== undefined) onProgress(consumed / idatBytes);
      },
      slice,
    );
  } catch (err) {
    if (err instanceof TerrainError || !isInflateError(err)) throw err; // a bad filter type, or a cancellation from onProgress
    fail(`compressed image data is corrupt (inflate: ${err instanceof Error ? err.message : typeof err})`);
  }
  filled = result.written;
  if (result.overflow) fail(`image data decompresses to more than the ${expected} bytes that ${width} × ${height} × ${bitDepth}-bit needs`);
  if (filled < expected) {
    fail(`image data decompresses to ${filled} bytes, but ${width} × ${height} × ${bitDepth}-bit needs ${expected} (truncated or corrupt IDAT)`);
  }
  unfilterAvailable();

  // --- Pass 3: pack samples (big-endian for 16-bit, §7.1). ---
  if (bitDepth === 8) {
    const samples = new Uint8Array(width * height);
    for (let r = 0; r < height; r++) samples.set(raw.subarray(r * rowBytes + 1, (r + 1) * rowBytes), r * width);
    return { width, height, bitDepth, samples };
  }
  const samples = new Uint16Array(width * height);
  for (let r = 0; r < height; r++) {
    let src = r * rowBytes + 1;
    const dst = r * width;
    for (let c = 0; c < width; c++, src += 2) samples[dst + c] = (raw[src] << 8) | raw[src + 1];
  }
  return { width, height, bitDepth, samples };
}

/**
 * Undo the filter of row r in place (§9.2). Bytes left of the row and the row above row 0 count
 * as 0. Throws on a filter type outside 0..4.
 */
function unfilterRow(raw: Uint8Array, r: number, rowBytes: number, bpp: number): void {
  const start = r * rowBytes;
  const type = raw[start];
  const cur = start + 1;
  const prev = cur - rowBytes; // only read when r > 0
  const n = rowBytes - 1;
  switch (type) {
    case 0:
      return;
    case 1: // Sub
      for (let k = bpp; k < n; k++) raw[cur + k] = (raw[cur + k] + raw[cur + k - bpp]) & 0xff;
      return;
    case 2: // Up
      if (r === 0) return;
      for (let k = 0; k < n; k++) raw[cur + k] = (raw[cur + k] + raw[prev + k]) & 0xff;
      return;
    case 3: // Average
      if (r === 0) {
        for (let k = bpp; k < n; k++) raw[cur + k] = (raw[cur + k] + (raw[cur + k - bpp] >> 1)) & 0xff;
        return;
      }
      for (let k = 0; k < bpp; k++) raw[cur + k] = (raw[cur + k] + (raw[prev + k] >> 1)) & 0xff;
      for (let k = bpp; k < n; k++) raw[cur + k] = (raw[cur + k] + ((raw[cur + k - bpp] + raw[prev + k]) >> 1)) & 0xff;
      return;
    case 4: // Paeth
      if (r === 0) {
        // Above and upper-left are 0, so the predictor is always the left byte (Sub).
        for (let k = bpp; k < n; k++) raw[cur + k] = (raw[cur + k] + raw[cur + k - bpp]) & 0xff;
        return;
      }
      for (let k = 0; k < bpp; k++) raw[cur + k] = (raw[cur + k] + raw[prev + k]) & 0xff;
      for (let k = bpp; k < n; k++) {
        const a = raw[cur + k - bpp];
        const b = raw[prev + k];
        const c = raw[prev + k - bpp];
        const p = a + b - c;
        const pa = p > a ? p - a : a - p;
        const pb = p > b ? p - b : b - p;
        const pc = p > c ? p - c : c - p;
        const pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        raw[cur + k] = (raw[cur + k] + pred) & 0xff;
      }
      return;
    default:
      throw new TerrainError(`terrain PNG: row ${r} has filter type ${type}; PNG defines only 0–4 (corrupt image data)`);
  }
}
