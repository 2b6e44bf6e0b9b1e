/**
 * GeoTIFF DEM decoder (stub: full parser lands next).
 */
import { TerrainError } from './heightfield';

export interface GeoReference {
  /** 'projected': the CRS is in linear units (converted to metres); 'geographic': degrees converted at the map's latitude. */
  kind: 'projected' | 'geographic';
  /** EPSG code of the CRS if the file states one. */
  epsg?: number;
  /** CRS coordinates (metres, or degrees for geographic) of the south-west vertex. */
  southWest: [number, number];
  /** Spacing in the CRS's own units (metres or degrees). */
  pixelSize: [number, number];
}

export interface GeoTiffOptions {
  noData?: 'reject' | 'fill-min';
  onProgress?: (fraction: number) => void;
}

export interface GeoTiffDem {
  cols: number;
  rows: number;
  /** [m] */
  dx: number;
  dy: number;
  /** Row j = image row (rows − 1 − j), north up. */
  heights: Float64Array;
  geo: GeoReference;
  notes: string[];
}

/** True if the bytes start with a classic TIFF header ("II*\0" or "MM\0*"). */
export function isTiff(data: Uint8Array): boolean {
  if (data.length < 4) return false;
  return (data[0] === 0x49 && data[1] === 0x49 && data[2] === 42 && data[3] === 0) || (data[0] === 0x4d && data[1] === 0x4d && data[2] === 0 && data[3] === 42);
}

export function decodeGeoTiff(_data: Uint8Array, _options: GeoTiffOptions = {}): GeoTiffDem {
  throw new TerrainError('terrain GeoTIFF: not implemented yet');
}
