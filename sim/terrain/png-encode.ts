/**
 * Grayscale PNG encoder (8 or 16 bit), the inverse of png-decode.ts. Used by
 * scripts/gen-terrains.ts to write the bundled terrains and by the tests to build inputs; pure TS
 * (fflate's zlibSync), so a worker could also export a heightmap.
 *
 * Filters: per row, the encoder tries all five filter types and keeps the one with the smallest
 * sum of |signed residual bytes| — the "minimum sum of absolute differences" heuristic the PNG
 * spec recommends for continuous-tone images (PNG spec §12.8). On smooth heightmaps that is
 * mostly Paeth or Up and halves the file against no filtering.
 *
 * `samples[r * width + c]` is image row r (row 0 = top), like GrayImage.
 */
import { zlibSync } from 'fflate';
import { crc32 } from './crc32';
import { PNG_SIGNATURE } from './png-decode';
import { TerrainError } from './heightfield';

/** Options of the grayscale PNG encoder: compression level and row filter. */
export interface EncodePngOptions {
  /** zlib level 0–9 (default 9). */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  /** Force one filter type for every row (0–4) instead of the per-row heuristic. */
  filter?: 0 | 1 | 2 | 3 | 4;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Residual of filter `type` at byte k of a row (`cur`, `prev` unfiltered rows, prev all 0 for row 0). */
function residual(type: number, cur: Uint8Array, prev: Uint8Array, k: number, bpp: number): number {
  const x = cur[k];
  const a = k >= bpp ? cur[k - bpp] : 0;
  const b = prev[k];
  const c = k >= bpp ? prev[k - bpp] : 0;
  switch (type) {
    case 1:
      return (x - a) & 0xff;
    case 2:
      return (x - b) & 0xff;
    case 3:
      return (x - ((a + b) >> 1)) & 0xff;
    case 4:
      return (x - paeth(a, b, c)) & 0xff;
    default:
      return x;
  }
}

function writeChunk(out: Uint8Array, o: number, type: string, body: Uint8Array): number {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(o, body.length);
  for (let k = 0; k < 4; k++) out[o + 4 + k] = type.charCodeAt(k);
  out.set(body, o + 8);
  view.setUint32(o + 8 + body.length, crc32(out, o + 4, o + 8 + body.length));
  return o + 12 + body.length;
}

/** Encode a grayscale image. Sample values must fit the bit depth (checked). */
export function encodeGrayPng(
  width: number,
  height: number,
  bitDepth: 8 | 16,
  samples: ArrayLike<number>,
  options: EncodePngOptions = {},
): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new TerrainError(`encodeGrayPng: size must be positive integers, got ${width} × ${height}`);
  }
  if (samples.length !== width * height) {
    throw new TerrainError(`encodeGrayPng: ${samples.length} samples for ${width} × ${height} = ${width * height} pixels`);
  }
  const maxValue = bitDepth === 16 ? 0xffff : 0xff;
  const bpp = bitDepth === 16 ? 2 : 1;
  const stride = width * bpp;
  const filtered = new Uint8Array((stride + 1) * height);
  let prev = new Uint8Array(stride);
  let cur = new Uint8Array(stride);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const v = samples[r * width + c];
      if (!Number.isInteger(v) || v < 0 || v > maxValue) {
        throw new TerrainError(`encodeGrayPng: sample at row ${r}, column ${c} is ${v}; must be an integer 0..${maxValue}`);
      }
      if (bpp === 2) {
        cur[2 * c] = v >> 8;
        cur[2 * c + 1] = v & 0xff;
      } else cur[c] = v;
    }
    let best = options.filter ?? 0;
    if (options.filter === undefined) {
      let bestCost = Infinity;
      for (let type = 0; type <= 4; type++) {
        let cost = 0;
        for (let k = 0; k < stride && cost < bestCost; k++) {
          const d = residual(type, cur, prev, k, bpp);
          cost += d < 128 ? d : 256 - d;
        }
        if (cost < bestCost) {
          bestCost = cost;
          best = type as 0 | 1 | 2 | 3 | 4;
        }
      }
    }
    const o = r * (stride + 1);
    filtered[o] = best;
    for (let k = 0; k < stride; k++) filtered[o + 1 + k] = residual(best, cur, prev, k, bpp);
    const t = prev;
    prev = cur;
    cur = t;
  }
  const idat = zlibSync(filtered, { level: options.level ?? 9 });
  const ihdr = new Uint8Array(13);
  const hv = new DataView(ihdr.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  ihdr[8] = bitDepth;
  ihdr[9] = 0; // grayscale
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const out = new Uint8Array(8 + (12 + 13) + (12 + idat.length) + 12);
  out.set(PNG_SIGNATURE, 0);
  let o = 8;
  o = writeChunk(out, o, 'IHDR', ihdr);
  o = writeChunk(out, o, 'IDAT', idat);
  writeChunk(out, o, 'IEND', new Uint8Array(0));
  return out;
}

/** A heightmap PNG and the sidecar fields that make it load back as the same terrain. */
export interface HeightfieldPng {
  png: Uint8Array;
  /** [m] Black → heightRange[0], white → heightRange[1]. */
  heightRange: [number, number];
  /** [m] [dx, dy]. */
  metersPerPixel: [number, number];
  /** [m] World position of the south-west vertex. */
  origin: [number, number];
}

/**
 * Quantise a heightfield to an 8- or 16-bit grayscale PNG, north up (heightfield row j → image row
 * rows − 1 − j), black = the lowest height, white = the highest. Round-to-nearest, so each height
 * comes back within half a level: (max − min) / (2 · 65535) for 16 bit.
 */
export function encodeHeightfieldPng(
  hf: { cols: number; rows: number; dx: number; dy: number; x0: number; y0: number; heights: ArrayLike<number> },
  bitDepth: 8 | 16 = 16,
  options: EncodePngOptions = {},
): HeightfieldPng {
  const { cols, rows, heights } = hf;
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < cols * rows; k++) {
    const h = heights[k];
    if (!Number.isFinite(h)) throw new TerrainError(`encodeHeightfieldPng: height at index ${k} is ${h}`);
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  const levels = bitDepth === 16 ? 0xffff : 0xff;
  const inv = hi > lo ? levels / (hi - lo) : 0;
  const samples = bitDepth === 16 ? new Uint16Array(cols * rows) : new Uint8Array(cols * rows);
  for (let j = 0; j < rows; j++) {
    const src = j * cols;
    const dst = (rows - 1 - j) * cols;
    for (let i = 0; i < cols; i++) samples[dst + i] = Math.round((heights[src + i] - lo) * inv);
  }
  return {
    png: encodeGrayPng(cols, rows, bitDepth, samples, options),
    heightRange: [lo, hi],
    metersPerPixel: [hf.dx, hf.dy],
    origin: [hf.x0, hf.y0],
  };
}
