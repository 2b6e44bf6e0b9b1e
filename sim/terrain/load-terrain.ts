/**
 * The one entry point the worker and the CLI call to turn a sidecar + file bytes into a Heightfield.
 * Pure TS (no DOM, no Node APIs): the caller reads the bytes (Electron main, browser file picker,
 * fs in the CLI) and hands them over.
 *
 *   decodeTerrain(sidecar, bytes, onProgress? | options?) → Heightfield          (throws TerrainError)
 *   loadTerrain(sidecar, bytes, onProgress? | options?)   → { heightfield, format, notes, geo? }
 *   estimateTerrainLoad(sidecar, bytes)                   → { cols, rows, bytes, seconds, large }
 *
 * options: { onProgress?, signal? }. An aborted AbortSignal ends the load with
 * TerrainLoadCancelled (name 'AbortError'); an error thrown by onProgress propagates unchanged.
 * Every other failure is a TerrainError: internal errors (a RangeError from a typed array, an
 * allocation failure) are wrapped with the format and file name, never passed through raw.
 *
 * Plausibility (plausibility.ts): spacing, origin and every height are range-checked, so a file
 * cannot produce an infinite or NaN world; the message names the field or the vertex.
 *
 * Formats: 8/16-bit grayscale PNG, headerless float32 RAW, GeoTIFF (see png-decode.ts,
 * raw-decode.ts, geotiff-decode.ts). The data's magic bytes must agree with the sidecar's
 * "format" (PNG signature; TIFF "II*\0" / "MM\0*"); a RAW file has no magic. A GeoTIFF may be
 * loaded with no sidecar at all (pass null).
 *
 * ORIENTATION (all formats). Image row 0 is the NORTH edge, the top of the picture; +y is north and
 * +x east, so heightfield row j is image row (rows − 1 − j) and column i is image column i:
 *
 *     image (as drawn)                     heightfield
 *     row 0        N ───────── (top)        j = rows−1   ^ +y (north)
 *     row 1                                 j = rows−2   │
 *      ...                                   ...         │
 *     row rows−1   S ───────── (bottom)     j = 0        └──> +x (east), vertex (0,0) = origin
 *
 * The world position of vertex (0, 0) — the bottom-left (south-west) pixel — is the sidecar's
 * "origin" (default [0, 0]).
 *
 * Progress: onProgress(f), f in [0, 1], non-decreasing, at least every TERRAIN_PROGRESS_STEP of
 * the decode, and exactly once with 1 at the end. Building the Heightfield (validation copy,
 * element classification, min/max pyramid) is one opaque step at the end.
 */
import { describeValue } from '../util/describe-value';
import { Heightfield, TerrainError } from './heightfield';
import { decodeGrayPng, isPng } from './png-decode';
import { decodeRawFloat32 } from './raw-decode';
import { parseTerrainSidecar, type TerrainFormat, type TerrainSidecar } from './sidecar';
import { ProgressReporter, TerrainLoadCancelled, type TerrainProgress } from './progress';
import { decodeGeoTiff, isTiff, type GeoReference } from './geotiff-decode';
import { HEIGHT_RANGE_TEXT, SPACING_RANGE_TEXT, isPlausibleHeight, isPlausibleSpacing } from './plausibility';

export { describeTerrainLoadEstimate, estimateTerrainLoad, TERRAIN_LARGE_LOAD_BYTES, type TerrainLoadEstimate } from './load-estimate';
export { TerrainLoadCancelled } from './progress';

/** Options of a terrain load. */
export interface TerrainLoadOptions {
  /** Overall fraction done, [0, 1], non-decreasing. May throw to cancel (the error propagates unchanged). */
  onProgress?: TerrainProgress;
  /** Abort to cancel: the load throws TerrainLoadCancelled at its next progress point. */
  signal?: AbortSignal;
}

/**
 * A loaded terrain: the heightfield, its format, notes for the user and, for GeoTIFFs, the
 * georeference.
 */
export interface TerrainLoadResult {
  heightfield: Heightfield;
  format: TerrainFormat;
  /** Human-readable facts about the load the user should see (unit conversions, filled holes). */
  notes: string[];
  /** GeoTIFF only: where the map is on Earth and how its metres were derived. */
  geo?: GeoReference;
}

/**
 * Progress slices: decoding pixels, converting to metres (flip + scale + range check), then
 * Heightfield.fromArray (validation copy, element classification, min/max pyramid), which reports
 * nothing while it runs. Measured on a 4097² 16-bit PNG in Node: decode ≈ 45 %, convert ≈ 10 %,
 * build ≈ 45 % of the wall time; the slices follow that, so the bar moves at a steady rate.
 */
const DECODE_SHARE = 0.5;
const CONVERT_SHARE = 0.1;

/** What the bytes look like, by magic number. RAW has none and reads as 'unknown'. */
export function detectTerrainFormat(data: Uint8Array): 'png' | 'geotiff' | 'unknown' {
  if (isPng(data)) return 'png';
  if (isTiff(data)) return 'geotiff';
  return 'unknown';
}

/** Decode a terrain into a Heightfield. See loadTerrain for details. */
export function decodeTerrain(sidecar: unknown, data: Uint8Array, options?: TerrainProgress | TerrainLoadOptions): Heightfield {
  return loadTerrain(sidecar, data, options).heightfield;
}

/**
 * Decode a terrain. `sidecar` is the parsed sidecar JSON (or its text); it may be null/undefined
 * only for a GeoTIFF. Throws TerrainError with a message that says what is wrong,
 * TerrainLoadCancelled when `signal` aborts, or whatever onProgress threw.
 */
export function loadTerrain(sidecar: unknown, data: Uint8Array, options?: TerrainProgress | TerrainLoadOptions): TerrainLoadResult {
  const opts: TerrainLoadOptions = typeof options === 'function' ? { onProgress: options } : (options ?? {});
  const progress = new ProgressReporter(opts.onProgress, opts.signal);
  let where = 'terrain';
  try {
    return load(sidecar, data, progress, (w) => {
      where = w;
    });
  } catch (err) {
    if (err instanceof TerrainError || err instanceof TerrainLoadCancelled) throw err;
    if (progress.callbackError !== undefined && err === progress.callbackError) throw err;
    const what = err instanceof Error ? `${err.name}: ${describeValue(err.message, 160)}` : describeValue(err);
    throw new TerrainError(`${where}: corrupt or unsupported file (internal error: ${what})`, { cause: err });
  }
}

function load(sidecar: unknown, data: Uint8Array, progress: ProgressReporter, setWhere: (w: string) => void): TerrainLoadResult {
  if (!(data instanceof Uint8Array)) throw new TerrainError(`terrain: expected the file bytes as a Uint8Array, got ${describeValue(data)}`);
  const detected = detectTerrainFormat(data);
  let meta: TerrainSidecar;
  if (sidecar === null || sidecar === undefined) {
    if (detected !== 'geotiff') {
      throw new TerrainError(
        `terrain: no sidecar JSON given and the data is ${detected === 'png' ? 'a PNG' : 'not a GeoTIFF'}; ` +
          'PNG and RAW heightmaps need a sidecar with "metersPerPixel" and "heightRange"',
      );
    }
    meta = { image: '', format: 'geotiff', origin: [0, 0], endianness: 'little', noData: 'reject' };
  } else {
    meta = parseTerrainSidecar(sidecar);
  }
  setWhere(`terrain ${meta.format} ${describeValue(meta.image)}`);
  if (data.length === 0) throw new TerrainError(`terrain: the file "${meta.image}" is empty (0 bytes)`);
  const expectMagic = meta.format === 'raw-f32' ? 'unknown' : meta.format;
  if (detected !== expectMagic) {
    const what = detected === 'png' ? 'a PNG' : detected === 'geotiff' ? 'a TIFF' : 'neither PNG nor TIFF';
    throw new TerrainError(`terrain: sidecar says "format": "${meta.format}" but "${meta.image}" is ${what} (by its first bytes)`);
  }

  progress.checkCancelled();
  // PNG has a separate convert pass (samples → metres); RAW and GeoTIFF decode straight to metres.
  progress.stage(0, meta.format === 'png' ? DECODE_SHARE : DECODE_SHARE + CONVERT_SHARE);
  const decodeProgress = progress.active ? (f: number) => progress.local(f) : undefined;
  const notes: string[] = [];
  let cols: number;
  let rows: number;
  let dx: number;
  let dy: number;
  let heights: Float64Array;
  let geo: GeoReference | undefined;

  if (meta.format === 'png') {
    const png = pngHeights(data, meta.heightRange as [number, number], progress, decodeProgress);
    cols = png.cols;
    rows = png.rows;
    heights = png.heights;
    [dx, dy] = meta.metersPerPixel as [number, number];
    notes.push(png.note);
  } else if (meta.format === 'raw-f32') {
    [cols, rows] = meta.size as [number, number];
    [dx, dy] = meta.metersPerPixel as [number, number];
    heights = decodeRawFloat32(data, cols, rows, meta.endianness === 'little', decodeProgress);
    notes.push(`float32 RAW ${cols} × ${rows}, ${meta.endianness}-endian`);
  } else {
    const tif = decodeGeoTiff(data, { noData: meta.noData, metersPerPixel: meta.metersPerPixel, onProgress: decodeProgress });
    cols = tif.cols;
    rows = tif.rows;
    heights = tif.heights;
    geo = tif.geo;
    notes.push(...tif.notes);
    if (meta.metersPerPixel && tif.geo) {
      [dx, dy] = meta.metersPerPixel;
      notes.push(`metres per pixel [${dx}, ${dy}] from the sidecar override the file's [${tif.dx}, ${tif.dy}]`);
    } else {
      dx = tif.dx;
      dy = tif.dy;
    }
  }

  if (!isPlausibleSpacing(dx) || !isPlausibleSpacing(dy)) {
    throw new TerrainError(`terrain: grid spacing [${dx}, ${dy}] m of "${meta.image}" must be ${SPACING_RANGE_TEXT} ("metersPerPixel")`);
  }
  // One pass over every height: inside the sidecar's "heightRange" if it has one (not PNG: there the
  // range is the scale), and plausible in any case (a GeoTIFF's int32 no-data of −2^31 without a
  // GDAL_NODATA tag would otherwise become a 2,000 km cliff).
  // PNG heights are lo + sample·scale inside the sidecar's plausible "heightRange": no pass needed.
  const [lo, hi] = meta.heightRange && meta.format !== 'png' ? meta.heightRange : [-Infinity, Infinity];
  for (let k = 0; meta.format !== 'png' && k < heights.length; k++) {
    const h = heights[k];
    if (h < lo || h > hi || !isPlausibleHeight(h)) {
      const i = k % cols;
      const j = (k - i) / cols;
      const rule = h < lo || h > hi ? `outside the sidecar's "heightRange" [${lo}, ${hi}]` : `not ${HEIGHT_RANGE_TEXT}`;
      throw new TerrainError(`terrain: height ${h} m at vertex (${i}, ${j}) (column, row from the south edge) is ${rule} (file ${describeValue(meta.image)})`);
    }
    if ((k & 0xfffff) === 0xfffff) progress.checkCancelled();
  }
  progress.local(1);
  progress.stage(DECODE_SHARE + CONVERT_SHARE, 1);
  progress.checkCancelled();
  const heightfield = Heightfield.fromArray({ cols, rows, dx, dy, x0: meta.origin[0], y0: meta.origin[1], heights });
  progress.overall(1);
  const result: TerrainLoadResult = { heightfield, format: meta.format, notes };
  if (geo) result.geo = geo;
  return result;
}

/**
 * Decode a PNG and scale it to metres, north up. A separate function so the decoded image (raw
 * samples, ~2 bytes per vertex) is garbage before Heightfield.fromArray allocates its own copy.
 */
function pngHeights(
  data: Uint8Array,
  heightRange: [number, number],
  progress: ProgressReporter,
  decodeProgress: ((f: number) => void) | undefined,
): { cols: number; rows: number; heights: Float64Array; note: string } {
  const img = decodeGrayPng(data, decodeProgress);
  progress.stage(DECODE_SHARE, DECODE_SHARE + CONVERT_SHARE);
  const cols = img.width;
  const rows = img.height;
  const [lo, hi] = heightRange;
  const levels = img.bitDepth === 16 ? 0xffff : 0xff;
  const scale = (hi - lo) / levels;
  const heights = new Float64Array(cols * rows);
  const s = img.samples;
  for (let r = 0; r < rows; r++) {
    const src = r * cols;
    const dst = (rows - 1 - r) * cols;
    for (let c = 0; c < cols; c++) heights[dst + c] = lo + s[src + c] * scale;
    if (decodeProgress !== undefined) progress.local((r + 1) / rows);
  }
  const note = `${img.bitDepth}-bit PNG ${cols} × ${rows}, ${levels} levels over [${lo}, ${hi}] m (step ${scale.toPrecision(3)} m)`;
  return { cols, rows, heights, note };
}
