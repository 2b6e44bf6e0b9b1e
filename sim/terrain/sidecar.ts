/**
 * Terrain sidecar JSON: the facts a PNG or RAW heightmap cannot carry itself (metres per pixel,
 * what black and white mean, where the map sits). GeoTIFFs carry their own georeferencing; their
 * sidecar is optional and may only override or check.
 *
 * Schema (every field validated; unknown keys are errors so a typo like "metresPerPixel" is caught):
 *
 *   {
 *     "image": "hills.png",            // required: data file name, relative to the sidecar
 *     "format": "png" | "raw-f32" | "geotiff",   // required
 *     "metersPerPixel": 0.1 | [dx, dy],          // [m] grid spacing (1e-4 to 2e5); required for png and raw-f32,
 *                                                //     optional override for geotiff
 *     "heightRange": [min, max],       // [m] within ±1e5; png: required, black (0) → min, white (255/65535) → max;
 *                                      //     raw-f32/geotiff: optional, every height must lie inside
 *     "origin": [x0, y0],              // [m] within ±1e8, optional: world (x, y) of the SOUTH-WEST vertex (image
 *                                      //     bottom-left pixel). Default [0, 0]; for geotiff the
 *                                      //     default is also [0, 0] (the georeferenced position is
 *                                      //     reported separately, not used as world coordinates)
 *     "size": [cols, rows],            // raw-f32 only, required: pixels per row, number of rows
 *     "endianness": "little" | "big",  // raw-f32 only, optional, default "little"
 *     "noData": "reject" | "fill-min", // geotiff only, optional, default "reject" (see geotiff-decode.ts)
 *     "name": "...", "description": "...", "source": "..."   // optional free text
 *   }
 *
 * Orientation, for every format: image row 0 is the NORTH edge (top of the picture); +x is east
 * (image columns left → right), +y is north.
 */
import { TERRAIN_MAX_VERTICES_PER_AXIS, TERRAIN_MIN_VERTICES_PER_AXIS } from '../constants';
import { describeValue } from '../util/describe-value';
import { TerrainError } from './heightfield';
import {
  HEIGHT_RANGE_TEXT,
  ORIGIN_RANGE_TEXT,
  SPACING_RANGE_TEXT,
  isPlausibleHeight,
  isPlausibleOrigin,
  isPlausibleSpacing,
} from './plausibility';

/** The heightmap formats a sidecar can name. */
export type TerrainFormat = 'png' | 'raw-f32' | 'geotiff';

/** A validated, normalised sidecar. */
export interface TerrainSidecar {
  image: string;
  format: TerrainFormat;
  /** [m] [dx, dy], undefined only for geotiff (taken from the file). */
  metersPerPixel?: [number, number];
  /** [m] [min, max]. */
  heightRange?: [number, number];
  /** [m] World position of the south-west vertex. */
  origin: [number, number];
  /** RAW only: [cols, rows]. */
  size?: [number, number];
  endianness: 'little' | 'big';
  noData: 'reject' | 'fill-min';
  name?: string;
  description?: string;
  source?: string;
}

const FORMATS: readonly TerrainFormat[] = ['png', 'raw-f32', 'geotiff'];
const KNOWN_KEYS = [
  'image',
  'format',
  'metersPerPixel',
  'heightRange',
  'origin',
  'size',
  'endianness',
  'noData',
  'name',
  'description',
  'source',
] as const;

function fail(message: string): never {
  throw new TerrainError(`terrain sidecar: ${message}`);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isPair(v: unknown): v is [number, number] {
  return Array.isArray(v) && v.length === 2 && isFiniteNumber(v[0]) && isFiniteNumber(v[1]);
}

/**
 * Validate a parsed sidecar (the result of JSON.parse; a JSON string is also accepted).
 * Throws TerrainError with `terrain sidecar: "field" must be ..., got ...`.
 */
export function parseTerrainSidecar(input: unknown): TerrainSidecar {
  try {
    return parseSidecar(input);
  } catch (err) {
    if (err instanceof TerrainError) throw err;
    // A getter or Proxy trap of a caller-built object threw, or the engine ran out of memory.
    const what = err instanceof Error ? `${err.name}: ${describeValue(err.message, 120)}` : describeValue(err);
    throw new TerrainError(`terrain sidecar: could not be read (${what})`, { cause: err });
  }
}

function parseSidecar(input: unknown): TerrainSidecar {
  let raw: unknown = input;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch (err) {
      fail(`not valid JSON (${err instanceof Error ? err.message : describeValue(err)})`);
    }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    fail(`expected a JSON object like {"image": "hills.png", "format": "png", ...}, got ${describeValue(raw)}`);
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key)) {
      fail(`unknown field ${describeValue(key)}; allowed fields are ${KNOWN_KEYS.map((k) => `"${k}"`).join(', ')}`);
    }
  }

  const image = obj.image;
  if (typeof image !== 'string' || image.trim() === '') fail(`"image" must be a non-empty file name, got ${describeValue(image)}`);
  const format = obj.format;
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
    fail(`"format" must be one of ${FORMATS.map((f) => `"${f}"`).join(', ')}, got ${describeValue(format)}`);
  }
  const fmt = format as TerrainFormat;

  let metersPerPixel: [number, number] | undefined;
  const mpp = obj.metersPerPixel;
  if (mpp === undefined) {
    if (fmt !== 'geotiff') fail(`"metersPerPixel" is required for format "${fmt}" (a positive number or [dx, dy] in metres)`);
  } else if (isPlausibleSpacing(mpp)) {
    metersPerPixel = [mpp, mpp];
  } else if (isPair(mpp) && isPlausibleSpacing(mpp[0]) && isPlausibleSpacing(mpp[1])) {
    metersPerPixel = [mpp[0], mpp[1]];
  } else {
    fail(`"metersPerPixel" must be a positive number or [dx, dy] (each ${SPACING_RANGE_TEXT}), got ${describeValue(mpp)}`);
  }

  let heightRange: [number, number] | undefined;
  const hr = obj.heightRange;
  if (hr === undefined) {
    if (fmt === 'png') fail('"heightRange" is required for format "png": [min, max] in metres (black → min, white → max)');
  } else if (isPair(hr) && hr[0] <= hr[1] && isPlausibleHeight(hr[0]) && isPlausibleHeight(hr[1])) {
    heightRange = [hr[0], hr[1]];
  } else {
    fail(`"heightRange" must be [min, max] in metres with min <= max, both ${HEIGHT_RANGE_TEXT}, got ${describeValue(hr)}`);
  }

  let origin: [number, number] = [0, 0];
  if (obj.origin !== undefined) {
    if (!isPair(obj.origin) || !isPlausibleOrigin(obj.origin[0]) || !isPlausibleOrigin(obj.origin[1])) {
      fail(`"origin" must be [x0, y0] in metres, each ${ORIGIN_RANGE_TEXT}, got ${describeValue(obj.origin)}`);
    }
    origin = [obj.origin[0], obj.origin[1]];
  }

  let size: [number, number] | undefined;
  if (obj.size !== undefined) {
    if (fmt !== 'raw-f32') fail(`"size" is only for format "raw-f32" (the ${fmt} file states its own size)`);
    const s = obj.size;
    const ok =
      isPair(s) &&
      Number.isInteger(s[0]) &&
      Number.isInteger(s[1]) &&
      s[0] >= TERRAIN_MIN_VERTICES_PER_AXIS &&
      s[1] >= TERRAIN_MIN_VERTICES_PER_AXIS &&
      s[0] <= TERRAIN_MAX_VERTICES_PER_AXIS &&
      s[1] <= TERRAIN_MAX_VERTICES_PER_AXIS;
    if (!ok) {
      fail(`"size" must be [cols, rows], integers from ${TERRAIN_MIN_VERTICES_PER_AXIS} to ${TERRAIN_MAX_VERTICES_PER_AXIS}, got ${describeValue(s)}`);
    }
    size = [s[0], s[1]];
  } else if (fmt === 'raw-f32') {
    fail('"size" is required for format "raw-f32": [cols, rows] (a RAW file has no header)');
  }

  let endianness: 'little' | 'big' = 'little';
  if (obj.endianness !== undefined) {
    if (fmt !== 'raw-f32') fail(`"endianness" is only for format "raw-f32", got it with "${fmt}"`);
    if (obj.endianness !== 'little' && obj.endianness !== 'big') fail(`"endianness" must be "little" or "big", got ${describeValue(obj.endianness)}`);
    endianness = obj.endianness;
  }

  let noData: 'reject' | 'fill-min' = 'reject';
  if (obj.noData !== undefined) {
    if (fmt !== 'geotiff') fail(`"noData" is only for format "geotiff"; a ${fmt} heightmap has no no-data value`);
    if (obj.noData !== 'reject' && obj.noData !== 'fill-min') fail(`"noData" must be "reject" or "fill-min", got ${describeValue(obj.noData)}`);
    noData = obj.noData;
  }

  const result: TerrainSidecar = { image, format: fmt, origin, endianness, noData };
  if (metersPerPixel) result.metersPerPixel = metersPerPixel;
  if (heightRange) result.heightRange = heightRange;
  if (size) result.size = size;
  for (const key of ['name', 'description', 'source'] as const) {
    const v = obj[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') fail(`"${key}" must be a string, got ${describeValue(v)}`);
    result[key] = v;
  }
  return result;
}
