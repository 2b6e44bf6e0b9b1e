/**
 * GeoTIFF digital elevation model decoder: our own parser for what DEMs use, not the `geotiff`
 * npm package. Why: that package's raster API is Promise-based (readRasters), pulls in a
 * decoder-worker pool and Blob/fetch sources, and would make decodeTerrain asynchronous for no
 * gain; a DEM needs a small subset of TIFF that fits in synchronous, allocation-predictable code
 * that runs unchanged in the Web Worker and in Node.
 *
 * Three parts, one file each:
 *   tiff-container.ts   header, first IFD, typed and bounds-checked tag access (integer types
 *                       required for sizes, offsets and counts)
 *   geotiff-georef.ts   model tags + GeoKeys → spacing in metres, orientation, CRS position
 *   geotiff-raster.ts   layout (strips/tiles bounded by the image), bounded decompression,
 *                       predictors, no-data → heights in metres
 * This file runs them in order and wraps any error that is not already a TerrainError (a
 * RangeError from a DataView, an out-of-memory) into one that says what and where.
 *
 * Supported (TIFF 6.0 + GeoTIFF 1.0/1.1, OGC 19-008r4): classic TIFF, either byte order
 * ("II*\0", "MM\0*"); BigTIFF is rejected with a message; first IFD only (later IFDs are usually
 * overviews); see the part files for the rest.
 */
import { describeValue } from '../util/describe-value';
import { TerrainError } from './heightfield';
import { readGeoReference, type GeoReference } from './geotiff-georef';
import { decodeRaster, readRasterLayout } from './geotiff-raster';
import { TiffContainer } from './tiff-container';

export { isTiff } from './tiff-container';
export { metresPerDegreeLatitude, metresPerDegreeLongitude } from './geotiff-georef';
export type { GeoReference } from './geotiff-georef';

/** Options of `decodeGeoTiff`: no-data handling and a spacing for files without georeferencing. */
export interface GeoTiffOptions {
  /** What to do with no-data pixels; see geotiff-raster.ts. Default 'reject'. */
  noData?: 'reject' | 'fill-min';
  /** [m] Use this spacing when the file has no georeferencing (else such a file is rejected). */
  metersPerPixel?: [number, number];
  /** Fraction decoded, [0, 1]. May throw to cancel: its error propagates unchanged. */
  onProgress?: (fraction: number) => void;
}

/** A decoded GeoTIFF elevation model: grid size, spacing, origin, heights and georeference. */
export interface GeoTiffDem {
  cols: number;
  rows: number;
  /** [m] Spacing along x (east) and y (north). */
  dx: number;
  dy: number;
  /** [m] Row-major heights, `heights[j*cols + i]`, row j = image row (rows − 1 − j) for a north-up raster. */
  heights: Float64Array;
  /** Undefined when the file has no georeferencing and options.metersPerPixel was used. */
  geo?: GeoReference;
  notes: string[];
}

/**
 * Decode a single-band GeoTIFF DEM. Throws TerrainError naming the unsupported or corrupt part;
 * an error thrown by options.onProgress propagates unchanged.
 */
export function decodeGeoTiff(data: Uint8Array, options: GeoTiffOptions = {}): GeoTiffDem {
  let stage = 'reading the header';
  let progressError: { error: unknown } | undefined;
  const userProgress = options.onProgress;
  const onProgress =
    userProgress === undefined
      ? undefined
      : (f: number): void => {
          try {
            userProgress(f);
          } catch (error) {
            progressError = { error };
            throw error;
          }
        };
  try {
    const tiff = TiffContainer.parse(data);
    stage = 'reading the raster layout';
    const layout = readRasterLayout(tiff);
    stage = 'reading the georeferencing';
    const grid = readGeoReference(tiff, layout.width, layout.height, options.metersPerPixel);
    stage = 'decoding the pixels';
    const raster = decodeRaster(tiff, layout, { northUp: grid.northUp, zScale: grid.zScale, noData: options.noData ?? 'reject', onProgress });
    const result: GeoTiffDem = {
      cols: layout.width,
      rows: layout.height,
      dx: grid.dx,
      dy: grid.dy,
      heights: raster.heights,
      notes: [...grid.notes, ...raster.notes],
    };
    if (grid.geo) result.geo = grid.geo;
    return result;
  } catch (err) {
    if (err instanceof TerrainError || (progressError !== undefined && err === progressError.error)) throw err;
    const what = err instanceof Error ? `${err.name}: ${describeValue(err.message, 160)}` : describeValue(err);
    throw new TerrainError(`terrain GeoTIFF: corrupt or unsupported file (internal error while ${stage}: ${what})`, { cause: err });
  }
}
