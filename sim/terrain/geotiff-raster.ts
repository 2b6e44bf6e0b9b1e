/**
 * GeoTIFF raster decoding: sample layout, strips or tiles, decompression, predictors, no-data, into
 * a row-flipped Float64Array of metres. The container (tiff-container.ts) has checked the tags'
 * types and bounds; this file checks that what they promise is consistent and affordable BEFORE
 * it allocates:
 *
 *   - image size within TERRAIN_MIN/MAX_VERTICES_PER_AXIS;
 *   - tiles bounded by the image: a tile side may exceed the image side only up to the next
 *     multiple of TIFF_TILE_ALIGN or TIFF_TILE_SLACK pixels, whichever is larger (GDAL writes
 *     256² tiles for small images; nobody writes a 16385² tile for a 2 × 2 image, which would
 *     allocate 2 GiB);
 *   - one offset and one byte count per chunk, each chunk inside the file and able to hold its
 *     pixels at the codec's maximum expansion;
 *   - decompression into a buffer of exactly the chunk's size, stopping there (LZW and PackBits
 *     write into a fixed view; Deflate goes through inflate-bounded.ts), so a stream that inflates
 *     to 1 GiB costs no more than the pixels the header declared.
 *
 * Supported: compression 1 none, 5 LZW (tiff-lzw.ts), 8/32946 Deflate, 32773 PackBits; predictor 1
 * none, 2 horizontal differencing (integers), 3 floating point (Adobe Photoshop TIFF Technical
 * Note 3: bytes of a row split into planes MSB first, then byte-differenced); samples
 * uint8/int8/uint16/int16/uint32/int32/float32/float64, 1 sample per pixel.
 *
 * No-data rule (GDAL_NODATA, and NaN in float rasters): noData = 'reject' (default) throws, naming
 * how many pixels and the first one; 'fill-min' replaces each with the lowest valid height of the
 * raster (a flat floor under holes: conservative for driving, never a spike) and adds a note with
 * the count. A raster with no valid pixel is always rejected.
 */
import { TERRAIN_MAX_VERTICES_PER_AXIS, TERRAIN_MIN_VERTICES_PER_AXIS } from '../constants';
import { TerrainError } from './heightfield';
import { DEFLATE_MAX_EXPANSION, inflateZlibBounded, isInflateError } from './inflate-bounded';
import { TAG, type TiffContainer, tiffFail } from './tiff-container';
import { LZW_MAX_EXPANSION, lzwDecode } from './tiff-lzw';
import { PACKBITS_MAX_EXPANSION, packBitsDecode } from './tiff-packbits';

/** [px] TIFF 6.0 §15: tile sides are multiples of 16. */
export const TIFF_TILE_ALIGN = 16;

/** [px] A tile side up to this is accepted whatever the image size (GDAL's default is 256). */
export const TIFF_TILE_SLACK = 1024;

export type SampleKind = 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

const COMPRESSION_NAMES: Record<number, string> = {
  2: 'CCITT Huffman',
  3: 'CCITT G3',
  4: 'CCITT G4',
  6: 'old JPEG',
  7: 'JPEG',
  34712: 'JPEG 2000',
  34887: 'LERC',
  34925: 'LZMA',
  50000: 'ZSTD',
  50001: 'WebP',
};

/** What the tags say about the pixels, validated. */
export interface RasterLayout {
  width: number;
  height: number;
  kind: SampleKind;
  /** [bytes] per sample. */
  bps: number;
  compression: number;
  predictor: number;
  tiled: boolean;
  chunkW: number;
  chunkH: number;
  across: number;
  down: number;
  offsets: number[];
  counts: number[];
}

/** Image width and height from the tags, range-checked (cheap: for cost estimates before a load). */
export function readImageSize(tiff: TiffContainer): { width: number; height: number; bitsPerSample: number } {
  const width = tiff.uint(TAG.ImageWidth, 'ImageWidth');
  const height = tiff.uint(TAG.ImageLength, 'ImageLength');
  for (const [name, v] of [['width', width], ['height', height]] as const) {
    if (v < TERRAIN_MIN_VERTICES_PER_AXIS || v > TERRAIN_MAX_VERTICES_PER_AXIS) {
      tiffFail(`image ${name} is ${v} pixels; a DEM needs ${TERRAIN_MIN_VERTICES_PER_AXIS} to ${TERRAIN_MAX_VERTICES_PER_AXIS} pixels per axis`);
    }
  }
  const bitsPerSample = tiff.uint(TAG.BitsPerSample, 'BitsPerSample', 1);
  return { width, height, bitsPerSample };
}

/** Largest tile side accepted for an image side of `n` pixels. */
export function maxTileSide(n: number): number {
  return Math.max(Math.ceil(n / TIFF_TILE_ALIGN) * TIFF_TILE_ALIGN, TIFF_TILE_SLACK);
}

/** Read and check the raster layout. Size checks happen BEFORE any allocation. */
export function readRasterLayout(tiff: TiffContainer): RasterLayout {
  const { width, height, bitsPerSample: bits } = readImageSize(tiff);
  const spp = tiff.uint(TAG.SamplesPerPixel, 'SamplesPerPixel', 1);
  if (spp !== 1) tiffFail(`${spp} samples per pixel; a DEM must be a single band (extract it with gdal_translate -b 1)`);
  const format = tiff.uint(TAG.SampleFormat, 'SampleFormat', 1);
  const kinds: Record<string, SampleKind> = {
    '8/1': 'uint8', '8/2': 'int8', '16/1': 'uint16', '16/2': 'int16',
    '32/1': 'uint32', '32/2': 'int32', '32/3': 'float32', '64/3': 'float64',
  };
  const kind = kinds[`${bits}/${format}`];
  if (kind === undefined) {
    const fname = format === 1 ? 'unsigned integer' : format === 2 ? 'signed integer' : format === 3 ? 'floating point' : `sample format ${format}`;
    tiffFail(`${bits}-bit ${fname} samples are not supported (int8/16/32, uint8/16/32, float32, float64)`);
  }
  const bps = bits / 8;
  const isFloat = format === 3;
  const compression = tiff.uint(TAG.Compression, 'Compression', 1);
  if (compression !== 1 && compression !== 5 && compression !== 8 && compression !== 32946 && compression !== 32773) {
    tiffFail(`compression ${compression}${COMPRESSION_NAMES[compression] ? ` (${COMPRESSION_NAMES[compression]})` : ''} is not supported (none, LZW, Deflate, PackBits)`);
  }
  const predictor = tiff.uint(TAG.Predictor, 'Predictor', 1);
  if (predictor !== 1 && predictor !== 2 && predictor !== 3) tiffFail(`predictor ${predictor} is not supported (1, 2, 3)`);
  if (predictor === 2 && isFloat) tiffFail('predictor 2 (horizontal differencing) on floating-point samples is invalid; use predictor 3');
  if (predictor === 3 && !isFloat) tiffFail('predictor 3 (floating point) on integer samples is invalid');

  const tiled = tiff.has(TAG.TileWidth) || tiff.has(TAG.TileLength);
  let chunkW: number;
  let chunkH: number;
  if (tiled) {
    chunkW = tiff.uint(TAG.TileWidth, 'TileWidth');
    chunkH = tiff.uint(TAG.TileLength, 'TileLength');
    if (chunkW < 1 || chunkH < 1 || chunkW > maxTileSide(width) || chunkH > maxTileSide(height)) {
      tiffFail(
        `tile size ${chunkW} × ${chunkH} is invalid for a ${width} × ${height} image ` +
          `(each side from 1 to the image side rounded up to ${TIFF_TILE_ALIGN}, or up to ${TIFF_TILE_SLACK})`,
      );
    }
  } else {
    chunkW = width;
    const rps = tiff.uint(TAG.RowsPerStrip, 'RowsPerStrip', 0xffffffff); // default 2^32 − 1: one strip
    if (rps < 1) tiffFail(`RowsPerStrip is ${rps}; it must be at least 1`);
    chunkH = Math.min(rps, height);
  }
  const across = Math.ceil(width / chunkW);
  const down = Math.ceil(height / chunkH);
  const n = across * down;
  const what = tiled ? 'tile' : 'strip';
  const offsetsTag = tiled ? TAG.TileOffsets : TAG.StripOffsets;
  const countsTag = tiled ? TAG.TileByteCounts : TAG.StripByteCounts;
  const offsetsName = tiled ? 'TileOffsets' : 'StripOffsets';
  const countsName = tiled ? 'TileByteCounts' : 'StripByteCounts';
  if (!tiff.has(offsetsTag)) tiffFail(`missing required tag ${offsetsName} (${offsetsTag})`);
  if (!tiff.has(countsTag)) tiffFail(`missing required tag ${countsName} (${countsTag})`);
  // Compare the counts before reading: a file may not make us build an array of 25 M offsets.
  if (tiff.count(offsetsTag) !== n || tiff.count(countsTag) !== n) {
    tiffFail(`${width} × ${height} in ${chunkW} × ${chunkH} ${what}s needs ${n} ${what}s, but the file lists ${tiff.count(offsetsTag)} offsets and ${tiff.count(countsTag)} byte counts`);
  }
  const offsets = tiff.uints(offsetsTag, offsetsName, n, n);
  const counts = tiff.uints(countsTag, countsName, n, n);
  // Every chunk must lie inside the file and be able to hold its pixels at the codec's maximum
  // expansion, so a tiny file that claims a huge raster is rejected before anything is allocated.
  const maxExpansion = compression === 1 ? 1 : compression === 5 ? LZW_MAX_EXPANSION : compression === 32773 ? PACKBITS_MAX_EXPANSION : DEFLATE_MAX_EXPANSION;
  const size = tiff.data.length;
  for (let k = 0; k < n; k++) {
    if (offsets[k] + counts[k] > size) {
      tiffFail(`file truncated: ${what} ${k} at offset ${offsets[k]} with ${counts[k]} bytes runs past the end of the ${size}-byte file`);
    }
    const cj = Math.floor(k / across);
    const rowsHere = tiled ? chunkH : Math.min(chunkH, height - cj * chunkH);
    const need = chunkW * rowsHere * bps;
    if (counts[k] * maxExpansion < need) {
      tiffFail(`${what} ${k} has ${counts[k]} bytes, which cannot hold the ${need} bytes of its ${chunkW} × ${rowsHere} pixels (truncated or corrupt file)`);
    }
  }
  return { width, height, kind, bps, compression, predictor, tiled, chunkW, chunkH, across, down, offsets, counts };
}

/** No-data value from GDAL_NODATA (NaN when absent or "nan"). */
export function readNoData(tiff: TiffContainer): { value: number; label: string | undefined } {
  const text = tiff.ascii(TAG.GdalNoData);
  if (text === undefined) return { value: NaN, label: undefined };
  const t = text.trim();
  const value = t.toLowerCase() === 'nan' ? NaN : Number(t);
  if (t.toLowerCase() !== 'nan' && !Number.isFinite(value)) tiffFail(`GDAL_NODATA value "${t.slice(0, 40)}" is not a number`);
  return { value, label: t };
}

export interface RasterOptions {
  northUp: boolean;
  /** [m per stored unit] */
  zScale: number;
  noData: 'reject' | 'fill-min';
  /** Fraction of the raster decoded, [0, 1]; may throw to cancel. */
  onProgress?: (fraction: number) => void;
}

/** Decode the pixels into metres, `heights[j*width + i]`, row j from the south edge when northUp. */
export function decodeRaster(tiff: TiffContainer, L: RasterLayout, opts: RasterOptions): { heights: Float64Array; notes: string[] } {
  const { width, height, kind, bps, compression, predictor, tiled, chunkW, chunkH, across, down, offsets, counts } = L;
  const { northUp, zScale, onProgress } = opts;
  const data = tiff.data;
  const what = tiled ? 'tile' : 'strip';
  const notes: string[] = [];
  const nd = readNoData(tiff);
  const noData = nd.value;
  const noData32 = Math.fround(noData);

  const heights = new Float64Array(width * height);
  const buf = new Uint8Array(chunkW * chunkH * bps);
  // Samples are read through a typed view of `buf` in the PLATFORM's byte order: rows from a
  // file of the other order are byte-swapped first (10× faster than a DataView call per sample).
  const samples = sampleView(buf, kind);
  const swap = bps > 1 && tiff.le !== PLATFORM_LITTLE_ENDIAN;
  const unsigned = bps === 1 ? buf : bps === 2 ? new Uint16Array(buf.buffer) : new Uint32Array(buf.buffer);
  const rowBytes = chunkW * bps;
  const planeRow = predictor === 3 ? new Uint8Array(rowBytes) : buf;
  let noDataCount = 0;
  let firstNoData = -1;
  let validMin = Infinity;
  const total = across * down;
  for (let t = 0; t < total; t++) {
    const ci = t % across;
    const cj = (t - ci) / across;
    const rowsHere = tiled ? chunkH : Math.min(chunkH, height - cj * chunkH);
    const need = chunkW * rowsHere * bps;
    const src = data.subarray(offsets[t], offsets[t] + counts[t]);
    const dst = buf.subarray(0, need);
    let got: number;
    if (compression === 1) {
      got = Math.min(src.length, need);
      buf.set(src.subarray(0, got));
    } else if (compression === 5) {
      got = lzwDecode(src, dst);
    } else if (compression === 32773) {
      got = packBitsDecode(src, dst);
    } else {
      try {
        // Stops once the chunk's `need` bytes are there: extra data in the stream is ignored, never inflated.
        got = inflateZlibBounded([src], dst).written;
      } catch (err) {
        if (!isInflateError(err)) throw err;
        tiffFail(`${what} ${t}: Deflate data is corrupt (${err instanceof Error ? err.message : typeof err})`);
      }
    }
    if (got < need) tiffFail(`${what} ${t} decompresses to ${got} bytes, expected ${need} (truncated or corrupt)`);

    for (let y = 0; y < rowsHere; y++) {
      const imgRow = cj * chunkH + y;
      if (imgRow >= height) break;
      const rowStart = y * rowBytes;
      if (predictor === 3) {
        undoFloatPredictor(buf, rowStart, planeRow, chunkW, bps, PLATFORM_LITTLE_ENDIAN);
      } else {
        if (swap) swapBytes(buf, rowStart, chunkW, bps);
        if (predictor === 2) undoIntPredictor(unsigned, y * chunkW, chunkW);
      }
      const gridRow = northUp ? height - 1 - imgRow : imgRow;
      const cols = Math.min(chunkW, width - ci * chunkW);
      const out = gridRow * width + ci * chunkW;
      const first = y * chunkW;
      for (let x = 0; x < cols; x++) {
        const v = samples[first + x];
        if (v !== v || v === noData || (kind === 'float32' && v === noData32)) {
          heights[out + x] = NaN;
          if (noDataCount === 0) firstNoData = imgRow * width + ci * chunkW + x;
          noDataCount++;
          continue;
        }
        const h = v * zScale;
        if (!Number.isFinite(h)) tiffFail(`height at column ${ci * chunkW + x}, row ${imgRow} is ${h}`);
        heights[out + x] = h;
        if (h < validMin) validMin = h;
      }
      // Per row, so a file stored as one big strip still reports as it goes.
      if (onProgress !== undefined) onProgress((t + (y + 1) / rowsHere) / total);
    }
  }

  if (noDataCount > 0) {
    const fc = firstNoData % width;
    const fr = (firstNoData - fc) / width;
    const label = nd.label !== undefined ? `no-data (GDAL_NODATA = ${nd.label})` : 'NaN';
    if (noDataCount === width * height) tiffFail(`every pixel is ${label}: nothing to load`);
    if (opts.noData === 'reject') {
      tiffFail(
        `${noDataCount} of ${width * height} pixels are ${label}, the first at column ${fc}, row ${fr} (from the top); ` +
          'fill the holes in a GIS, or set "noData": "fill-min" in the sidecar to fill them with the lowest valid height',
      );
    }
    for (let k = 0; k < heights.length; k++) if (heights[k] !== heights[k]) heights[k] = validMin;
    notes.push(`${noDataCount} ${label} pixels filled with the lowest valid height, ${validMin} m ("noData": "fill-min")`);
  }
  return { heights, notes };
}

/** True on every platform JS runs on today, but checked, not assumed. */
const PLATFORM_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type SampleArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** Typed view of the whole chunk buffer for the sample kind (buf starts at offset 0, so it is aligned). */
function sampleView(buf: Uint8Array, kind: SampleKind): SampleArray {
  const b = buf.buffer;
  switch (kind) {
    case 'uint8': return buf;
    case 'int8': return new Int8Array(b);
    case 'uint16': return new Uint16Array(b);
    case 'int16': return new Int16Array(b);
    case 'uint32': return new Uint32Array(b);
    case 'int32': return new Int32Array(b);
    case 'float32': return new Float32Array(b);
    default: return new Float64Array(b);
  }
}

/** Reverse the byte order of n samples of bps bytes starting at byte `start`. */
function swapBytes(buf: Uint8Array, start: number, n: number, bps: number): void {
  for (let k = 0, o = start; k < n; k++, o += bps) {
    for (let a = o, z = o + bps - 1; a < z; a++, z--) {
      const t = buf[a];
      buf[a] = buf[z];
      buf[z] = t;
    }
  }
}

/**
 * Predictor 2 (TIFF 6.0 §14): each sample stored as the difference to its left neighbour, modulo
 * 2^bits. Runs on the platform-order samples of one row (first = index of its first sample);
 * unsigned typed arrays make the modulo implicit, and signedness does not matter modulo 2^bits.
 */
function undoIntPredictor(a: Uint8Array | Uint16Array | Uint32Array, first: number, n: number): void {
  for (let k = first + 1; k < first + n; k++) a[k] = a[k] + a[k - 1];
}

/**
 * Predictor 3 (Adobe Photoshop TIFF Technical Note 3, "floating point predictor"): the row's bytes
 * were split into bps planes (all most-significant bytes first, big-endian order whatever the
 * file's byte order), then byte-differenced along the whole row. Undo both, writing the samples
 * back in byte order `le` (the platform's, so the typed sample view reads them directly).
 */
function undoFloatPredictor(buf: Uint8Array, rowStart: number, tmp: Uint8Array, n: number, bps: number, le: boolean): void {
  const len = n * bps;
  for (let k = 1; k < len; k++) buf[rowStart + k] = (buf[rowStart + k] + buf[rowStart + k - 1]) & 0xff;
  tmp.set(buf.subarray(rowStart, rowStart + len));
  // Planes are big-endian; the file's byte order decides where each byte goes back.
  for (let s = 0; s < n; s++) {
    for (let b = 0; b < bps; b++) {
      const plane = tmp[b * n + s]; // b = 0 is the most significant byte
      buf[rowStart + s * bps + (le ? bps - 1 - b : b)] = plane;
    }
  }
}
