/**
 * GeoTIFF digital elevation model decoder: our own parser for what DEMs use, not the `geotiff`
 * npm package. Why: that package's raster API is Promise-based (readRasters), pulls in a
 * decoder-worker pool and Blob/fetch sources, and would make decodeTerrain asynchronous for no
 * gain; a DEM needs a small subset of TIFF that fits in one synchronous, allocation-predictable
 * file that runs unchanged in the Web Worker and in Node.
 *
 * Supported (TIFF 6.0 + GeoTIFF 1.0/1.1, OGC 19-008r4):
 *   classic TIFF, either byte order ("II*\0", "MM\0*"); BigTIFF is rejected with a message
 *   first IFD only (later IFDs are usually overviews)
 *   strips or tiles; PlanarConfiguration irrelevant (1 band only)
 *   compression 1 none, 5 LZW (tiff-lzw.ts), 8/32946 Deflate (zlib, fflate), 32773 PackBits
 *   predictor 1 none, 2 horizontal differencing (integers), 3 floating point (Adobe Photoshop
 *   TIFF Technical Note 3: bytes of a row split into planes MSB first, then byte-differenced)
 *   samples uint8/int8/uint16/int16/uint32/int32/float32/float64, 1 sample per pixel
 *   georeferencing: ModelPixelScaleTag (33550) + ModelTiepointTag (33922), or
 *   ModelTransformationTag (34264) without rotation; GeoKeyDirectoryTag (34735) for
 *   GTModelType (projected vs geographic), GTRasterType (PixelIsArea vs PixelIsPoint), EPSG
 *   codes, ProjLinearUnits / GeogAngularUnits / VerticalUnits (metre, foot, US survey foot;
 *   degree, radian)
 *   GDAL_NODATA (42113)
 *
 * Metres. Projected CRS: horizontal spacing converted from the CRS's linear unit to metres.
 * Geographic CRS (degrees): converted at the latitude of the map's centre with the WGS84
 * ellipsoid's meridional radius M(φ) and prime-vertical radius N(φ):
 *   metres per degree of latitude  = (π/180)·M(φ),  M = a(1−e²) / (1 − e² sin²φ)^{3/2}
 *   metres per degree of longitude = (π/180)·N(φ)·cos φ,  N = a / sqrt(1 − e² sin²φ)
 * (any geographic datum is treated as WGS84; the difference is far below a DEM pixel). A note in
 * the result says so and how much the east–west scale varies between the map's south and north
 * edges — the regular grid cannot represent that, so large geographic tiles are distorted.
 * Heights: VerticalUnits converted to metres; absent = metres.
 *
 * Orientation: same convention as every loader — image row 0 is NORTH when the pixel scale's y
 * is positive (the GeoTIFF norm, Y = Y_tie − row·Sy) and becomes heightfield row rows−1. A
 * south-up raster (Sy < 0) is read without flipping. A raster mirrored east–west (Sx < 0) or
 * rotated (transformation with shear terms) is rejected.
 *
 * Vertex position: PixelIsArea (default) puts a pixel's height at its centre, PixelIsPoint at its
 * raster coordinate; geo.southWest is the CRS position of the south-west VERTEX either way.
 *
 * No-data rule (GDAL_NODATA, and NaN in float rasters): option noData = 'reject' (default) throws,
 * naming how many pixels and the first one; 'fill-min' replaces each with the lowest valid height
 * of the raster (a flat floor under holes: conservative for driving, never a spike) and adds a
 * note with the count. A raster with no valid pixel is always rejected.
 */
import { unzlibSync } from 'fflate';
import {
  INTERNATIONAL_FOOT,
  TERRAIN_MAX_VERTICES_PER_AXIS,
  TERRAIN_MIN_VERTICES_PER_AXIS,
  TIFF_MAX_IFD_ENTRIES,
  US_SURVEY_FOOT,
  WGS84_INVERSE_FLATTENING,
  WGS84_SEMI_MAJOR_AXIS,
} from '../constants';
import { TerrainError } from './heightfield';
import { DEFLATE_MAX_EXPANSION } from './png-decode';
import { LZW_MAX_EXPANSION, lzwDecode } from './tiff-lzw';
import { PACKBITS_MAX_EXPANSION, packBitsDecode } from './tiff-packbits';

export interface GeoReference {
  /** 'projected': linear CRS units converted to metres; 'geographic': degrees converted at the map's latitude. */
  kind: 'projected' | 'geographic';
  /** EPSG code of the CRS if the file states one (ProjectedCSTypeGeoKey / GeographicTypeGeoKey). */
  epsg?: number;
  /** CRS coordinates of the south-west vertex, in the CRS's own units (e.g. metres, or degrees lon/lat). */
  southWest: [number, number];
  /** Pixel spacing in the CRS's own units. */
  pixelSize: [number, number];
  /** Geographic only: [deg] latitude at which degrees were converted to metres. */
  conversionLatitude?: number;
  /** 'area' (PixelIsArea, heights at pixel centres) or 'point' (PixelIsPoint). */
  rasterType: 'area' | 'point';
}

export interface GeoTiffOptions {
  /** What to do with no-data pixels; see the header. Default 'reject'. */
  noData?: 'reject' | 'fill-min';
  /** [m] Use this spacing when the file has no georeferencing (else such a file is rejected). */
  metersPerPixel?: [number, number];
  onProgress?: (fraction: number) => void;
}

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

// TIFF tags (TIFF 6.0 §8; GeoTIFF 1.1 §7; GDAL).
const TAG = {
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  Predictor: 317,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  SampleFormat: 339,
  ModelPixelScale: 33550,
  ModelTiepoint: 33922,
  ModelTransformation: 34264,
  GeoKeyDirectory: 34735,
  GeoDoubleParams: 34736,
  GeoAsciiParams: 34737,
  GdalNoData: 42113,
} as const;

// GeoKeys (GeoTIFF 1.1 §7.4).
const KEY = {
  GTModelType: 1024,
  GTRasterType: 1025,
  GeographicType: 2048,
  GeogAngularUnits: 2054,
  ProjectedCSType: 3072,
  ProjLinearUnits: 3076,
  VerticalUnits: 4099,
} as const;

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

/** Byte size of each TIFF field type (TIFF 6.0 §2, "Types"). */
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };

type SampleKind = 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

function fail(message: string): never {
  throw new TerrainError(`terrain GeoTIFF: ${message}`);
}

/** True if the bytes start with a classic or Big TIFF header ("II*\0", "MM\0*", "II+\0", "MM\0+"). */
export function isTiff(data: Uint8Array): boolean {
  if (data.length < 4) return false;
  const le = data[0] === 0x49 && data[1] === 0x49 && data[3] === 0 && (data[2] === 42 || data[2] === 43);
  const be = data[0] === 0x4d && data[1] === 0x4d && data[2] === 0 && (data[3] === 42 || data[3] === 43);
  return le || be;
}

interface Entry {
  type: number;
  count: number;
  /** Byte offset of the value(s) in the file (inline values point into the entry). */
  offset: number;
}

class TiffReader {
  readonly view: DataView;
  constructor(
    readonly data: Uint8Array,
    readonly le: boolean,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  u16(o: number): number {
    return this.view.getUint16(o, this.le);
  }

  u32(o: number): number {
    return this.view.getUint32(o, this.le);
  }

  /** Numeric values of an entry as numbers (integers, rationals, floats). */
  numbers(tag: number, e: Entry): number[] {
    const size = TYPE_SIZE[e.type];
    if (size === undefined || e.type === 2 || e.type === 7) fail(`tag ${tag} has non-numeric type ${e.type}`);
    const out: number[] = new Array(e.count);
    const v = this.view;
    const le = this.le;
    for (let k = 0; k < e.count; k++) {
      const o = e.offset + k * size;
      switch (e.type) {
        case 1: out[k] = v.getUint8(o); break;
        case 6: out[k] = v.getInt8(o); break;
        case 3: out[k] = v.getUint16(o, le); break;
        case 8: out[k] = v.getInt16(o, le); break;
        case 4: out[k] = v.getUint32(o, le); break;
        case 9: out[k] = v.getInt32(o, le); break;
        case 5: out[k] = v.getUint32(o, le) / v.getUint32(o + 4, le); break;
        case 10: out[k] = v.getInt32(o, le) / v.getInt32(o + 4, le); break;
        case 11: out[k] = v.getFloat32(o, le); break;
        default: out[k] = v.getFloat64(o, le); break;
      }
    }
    return out;
  }

  ascii(e: Entry): string {
    let s = '';
    for (let k = 0; k < e.count; k++) {
      const c = this.data[e.offset + k];
      if (c === 0) break;
      s += String.fromCharCode(c);
    }
    return s;
  }
}

/** Parse the first IFD: tag → entry, with every value range checked against the file size. */
function readIfd(r: TiffReader): Map<number, Entry> {
  const n = r.data.length;
  const ifd = r.u32(4);
  if (ifd < 8 || ifd + 2 > n) fail(`file truncated or corrupt: first IFD offset ${ifd} is outside the ${n}-byte file`);
  const count = r.u16(ifd);
  if (count === 0 || count > TIFF_MAX_IFD_ENTRIES) fail(`IFD declares ${count} entries (expected 1..${TIFF_MAX_IFD_ENTRIES}): corrupt file`);
  if (ifd + 2 + count * 12 > n) fail(`file truncated: IFD at ${ifd} with ${count} entries runs past the end of the ${n}-byte file`);
  const map = new Map<number, Entry>();
  for (let k = 0; k < count; k++) {
    const o = ifd + 2 + k * 12;
    const tag = r.u16(o);
    const type = r.u16(o + 2);
    const cnt = r.u32(o + 4);
    const size = TYPE_SIZE[type];
    if (size === undefined) continue; // unknown type: TIFF readers must skip such entries
    const bytes = size * cnt;
    const offset = bytes <= 4 ? o + 8 : r.u32(o + 8);
    if (offset + bytes > n) fail(`file truncated: tag ${tag} has ${cnt} values at offset ${offset}, past the end of the ${n}-byte file`);
    map.set(tag, { type, count: cnt, offset });
  }
  return map;
}

function unitToMetres(code: number, what: string): number {
  switch (code) {
    case 9001: return 1;
    case 9002: return INTERNATIONAL_FOOT;
    case 9003: return US_SURVEY_FOOT;
    case 9036: return 1000; // kilometre
    default: return fail(`${what} unit EPSG:${code} is not supported (metre 9001, foot 9002, US survey foot 9003, kilometre 9036)`);
  }
}

/**
 * Decode a single-band GeoTIFF DEM. Throws TerrainError naming the unsupported or corrupt part.
 */
export function decodeGeoTiff(data: Uint8Array, options: GeoTiffOptions = {}): GeoTiffDem {
  if (!(data instanceof Uint8Array)) fail('expected the file bytes as a Uint8Array');
  if (data.length < 8) fail(`file truncated: ${data.length} bytes, a TIFF header needs 8`);
  if (!isTiff(data)) fail('not a TIFF file (the first bytes are not "II*\\0" or "MM\\0*")');
  const le = data[0] === 0x49;
  const r = new TiffReader(data, le);
  if (r.u16(2) === 43) fail('BigTIFF is not supported; write a classic TIFF (e.g. gdal_translate -co BIGTIFF=NO)');
  const ifd = readIfd(r);
  const notes: string[] = [];

  const num = (tag: number, name: string): number[] => {
    const e = ifd.get(tag);
    if (e === undefined) fail(`missing required tag ${name} (${tag})`);
    return r.numbers(tag, e);
  };
  const opt = (tag: number, dflt: number): number => {
    const e = ifd.get(tag);
    return e === undefined ? dflt : r.numbers(tag, e)[0];
  };

  // --- Raster layout. Size check BEFORE any allocation. ---
  const width = num(TAG.ImageWidth, 'ImageWidth')[0];
  const height = num(TAG.ImageLength, 'ImageLength')[0];
  for (const [name, v] of [['width', width], ['height', height]] as const) {
    if (v < TERRAIN_MIN_VERTICES_PER_AXIS || v > TERRAIN_MAX_VERTICES_PER_AXIS) {
      fail(`image ${name} is ${v} pixels; a DEM needs ${TERRAIN_MIN_VERTICES_PER_AXIS} to ${TERRAIN_MAX_VERTICES_PER_AXIS} pixels per axis`);
    }
  }
  const spp = opt(TAG.SamplesPerPixel, 1);
  if (spp !== 1) fail(`${spp} samples per pixel; a DEM must be a single band (extract it with gdal_translate -b 1)`);
  const bits = opt(TAG.BitsPerSample, 1);
  const format = opt(TAG.SampleFormat, 1);
  const kinds: Record<string, SampleKind> = {
    '8/1': 'uint8', '8/2': 'int8', '16/1': 'uint16', '16/2': 'int16',
    '32/1': 'uint32', '32/2': 'int32', '32/3': 'float32', '64/3': 'float64',
  };
  const kind = kinds[`${bits}/${format}`];
  if (kind === undefined) {
    const fname = format === 1 ? 'unsigned integer' : format === 2 ? 'signed integer' : format === 3 ? 'floating point' : `sample format ${format}`;
    fail(`${bits}-bit ${fname} samples are not supported (int8/16/32, uint8/16/32, float32, float64)`);
  }
  const bps = bits / 8;
  const isFloat = format === 3;
  const compression = opt(TAG.Compression, 1);
  if (compression !== 1 && compression !== 5 && compression !== 8 && compression !== 32946 && compression !== 32773) {
    fail(`compression ${compression}${COMPRESSION_NAMES[compression] ? ` (${COMPRESSION_NAMES[compression]})` : ''} is not supported (none, LZW, Deflate, PackBits)`);
  }
  const predictor = opt(TAG.Predictor, 1);
  if (predictor !== 1 && predictor !== 2 && predictor !== 3) fail(`predictor ${predictor} is not supported (1, 2, 3)`);
  if (predictor === 2 && isFloat) fail('predictor 2 (horizontal differencing) on floating-point samples is invalid; use predictor 3');
  if (predictor === 3 && !isFloat) fail('predictor 3 (floating point) on integer samples is invalid');

  const tiled = ifd.has(TAG.TileWidth);
  let chunkW: number;
  let chunkH: number;
  let offsets: number[];
  let counts: number[];
  if (tiled) {
    chunkW = num(TAG.TileWidth, 'TileWidth')[0];
    chunkH = num(TAG.TileLength, 'TileLength')[0];
    if (chunkW < 1 || chunkH < 1 || chunkW > TERRAIN_MAX_VERTICES_PER_AXIS || chunkH > TERRAIN_MAX_VERTICES_PER_AXIS) {
      fail(`tile size ${chunkW} × ${chunkH} is invalid`);
    }
    offsets = num(TAG.TileOffsets, 'TileOffsets');
    counts = num(TAG.TileByteCounts, 'TileByteCounts');
  } else {
    chunkW = width;
    chunkH = Math.min(opt(TAG.RowsPerStrip, height), height);
    if (chunkH < 1) fail(`RowsPerStrip is ${chunkH}`);
    offsets = num(TAG.StripOffsets, 'StripOffsets');
    counts = num(TAG.StripByteCounts, 'StripByteCounts');
  }
  const across = Math.ceil(width / chunkW);
  const down = Math.ceil(height / chunkH);
  const what = tiled ? 'tile' : 'strip';
  if (offsets.length !== across * down || counts.length !== across * down) {
    fail(`${width} × ${height} in ${chunkW} × ${chunkH} ${what}s needs ${across * down} ${what}s, but the file lists ${offsets.length} offsets and ${counts.length} byte counts`);
  }
  // Every chunk must lie inside the file and be able to hold its pixels at the codec's maximum
  // expansion, so a tiny file that claims a huge raster is rejected before anything is allocated.
  const maxExpansion = compression === 1 ? 1 : compression === 5 ? LZW_MAX_EXPANSION : compression === 32773 ? PACKBITS_MAX_EXPANSION : DEFLATE_MAX_EXPANSION;
  for (let k = 0; k < offsets.length; k++) {
    if (offsets[k] + counts[k] > data.length) {
      fail(`file truncated: ${what} ${k} at offset ${offsets[k]} with ${counts[k]} bytes runs past the end of the ${data.length}-byte file`);
    }
    const cj = Math.floor(k / across);
    const rowsHere = tiled ? chunkH : Math.min(chunkH, height - cj * chunkH);
    const need = chunkW * rowsHere * bps;
    if (counts[k] * maxExpansion < need) {
      fail(`${what} ${k} has ${counts[k]} bytes, which cannot hold the ${need} bytes of its ${chunkW} × ${rowsHere} pixels (truncated or corrupt file)`);
    }
  }

  // --- Georeferencing. ---
  const keys = new Map<number, number>();
  const geoDir = ifd.get(TAG.GeoKeyDirectory);
  if (geoDir !== undefined) {
    const d = r.numbers(TAG.GeoKeyDirectory, geoDir);
    const nKeys = d[3] ?? 0;
    if (d.length < 4 + 4 * nKeys) fail(`GeoKeyDirectory declares ${nKeys} keys but holds ${d.length} values`);
    for (let k = 0; k < nKeys; k++) {
      const [id, location, , value] = d.slice(4 + 4 * k, 8 + 4 * k);
      if (location === 0) keys.set(id, value); // short values stored inline; we need no double/ascii keys
    }
  }
  const scaleTag = ifd.get(TAG.ModelPixelScale);
  const tieTag = ifd.get(TAG.ModelTiepoint);
  const xformTag = ifd.get(TAG.ModelTransformation);
  // Raster (col, row) → CRS (X, Y): X = ox + col·sx, Y = oy − row·sy.
  let sx = 0;
  let sy = 0;
  let ox = 0;
  let oy = 0;
  let georeferenced = true;
  if (xformTag !== undefined) {
    const m = r.numbers(TAG.ModelTransformation, xformTag);
    if (m.length < 16) fail(`ModelTransformationTag has ${m.length} values, expected 16`);
    if (m[1] !== 0 || m[4] !== 0) fail('rotated or sheared rasters (ModelTransformationTag with off-diagonal terms) are not supported; warp to a north-up grid first');
    sx = m[0];
    sy = -m[5];
    ox = m[3];
    oy = m[7];
  } else if (scaleTag !== undefined && tieTag !== undefined) {
    const s = r.numbers(TAG.ModelPixelScale, scaleTag);
    const t = r.numbers(TAG.ModelTiepoint, tieTag);
    if (s.length < 2 || t.length < 6) fail('ModelPixelScaleTag needs 3 values and ModelTiepointTag 6');
    sx = s[0];
    sy = s[1];
    // Tiepoint (I, J, K, X, Y, Z): raster (I, J) ↦ (X, Y).
    ox = t[3] - t[0] * sx;
    oy = t[4] + t[1] * sy;
  } else {
    georeferenced = false;
  }
  if (georeferenced && !(Number.isFinite(sx) && Number.isFinite(sy) && sx !== 0 && sy !== 0 && Number.isFinite(ox) && Number.isFinite(oy))) {
    fail(`invalid georeferencing: pixel scale [${sx}, ${sy}], origin [${ox}, ${oy}]`);
  }
  if (georeferenced && sx < 0) fail('raster is mirrored east–west (negative x pixel scale); not supported');

  const modelType = keys.get(KEY.GTModelType) ?? 0;
  if (modelType === 3) fail('geocentric (ECEF) rasters are not supported; a DEM needs a projected or geographic CRS');
  const rasterType: 'area' | 'point' = keys.get(KEY.GTRasterType) === 2 ? 'point' : 'area';
  const northUp = sy > 0 || !georeferenced;
  const absSy = Math.abs(sy);

  let dx: number;
  let dy: number;
  let geo: GeoReference | undefined;
  if (!georeferenced) {
    if (options.metersPerPixel === undefined) {
      fail('no georeferencing (no ModelPixelScale/ModelTiepoint or ModelTransformation tag); give "metersPerPixel" in a sidecar');
    }
    [dx, dy] = options.metersPerPixel;
    notes.push(`no georeferencing in the file; spacing [${dx}, ${dy}] m from the sidecar, row 0 taken as north`);
  } else {
    // CRS coordinates of the centre of image pixel (col, row) → of vertex (i, j).
    const half = rasterType === 'area' ? 0.5 : 0;
    const westX = ox + half * sx;
    const southRow = northUp ? height - 1 : 0;
    const southY = oy - (southRow + half) * sy;
    if (modelType === 2) {
      let toDegrees = 1;
      const angular = keys.get(KEY.GeogAngularUnits);
      if (angular === 9101) toDegrees = 180 / Math.PI;
      else if (angular !== undefined && angular !== 9102) fail(`geographic angular unit EPSG:${angular} is not supported (degree 9102, radian 9101)`);
      const degX = sx * toDegrees;
      const degY = absSy * toDegrees;
      const latS = southY * toDegrees;
      const latN = latS + (height - 1) * degY;
      if (latS < -90 || latN > 90) fail(`latitudes ${latS}..${latN}° are outside −90..90°: georeferencing is not in degrees`);
      const lat = (latS + latN) / 2;
      const mLat = metresPerDegreeLatitude(lat);
      const mLon = metresPerDegreeLongitude(lat);
      dx = degX * mLon;
      dy = degY * mLat;
      const spread = Math.abs(metresPerDegreeLongitude(latS) - metresPerDegreeLongitude(latN)) / mLon;
      const epsg = keys.get(KEY.GeographicType);
      geo = { kind: 'geographic', southWest: [westX * toDegrees, latS], pixelSize: [degX, degY], conversionLatitude: lat, rasterType };
      if (epsg !== undefined && epsg !== 32767) geo.epsg = epsg;
      notes.push(
        `geographic CRS${geo.epsg ? ` (EPSG:${geo.epsg})` : ''}: pixel ${degX.toPrecision(6)}° × ${degY.toPrecision(6)}° converted to ` +
          `${dx.toPrecision(6)} m × ${dy.toPrecision(6)} m at latitude ${lat.toFixed(4)}° (WGS84); the east–west scale varies by ` +
          `${(spread * 100).toPrecision(2)} % between the south and north edges, which the regular grid ignores`,
      );
    } else {
      const unitCode = keys.get(KEY.ProjLinearUnits);
      const unit = unitCode === undefined ? 1 : unitToMetres(unitCode, 'projected linear');
      dx = sx * unit;
      dy = absSy * unit;
      const epsg = keys.get(KEY.ProjectedCSType);
      geo = { kind: 'projected', southWest: [westX, southY], pixelSize: [sx, absSy], rasterType };
      if (epsg !== undefined && epsg !== 32767) geo.epsg = epsg;
      if (modelType !== 1) notes.push('no GTModelTypeGeoKey: assuming a projected CRS in metres');
      if (unit !== 1) notes.push(`projected CRS units EPSG:${unitCode} converted to metres (× ${unit})`);
    }
    if (!northUp) notes.push('raster is stored south-up (positive y pixel scale in the transform); read without flipping');
  }
  let zScale = 1;
  const vUnit = keys.get(KEY.VerticalUnits);
  if (vUnit !== undefined && vUnit !== 32767) {
    zScale = unitToMetres(vUnit, 'vertical');
    if (zScale !== 1) notes.push(`heights converted from EPSG:${vUnit} units to metres (× ${zScale})`);
  }

  let noData = NaN;
  const ndTag = ifd.get(TAG.GdalNoData);
  if (ndTag !== undefined) {
    const text = r.ascii(ndTag).trim();
    noData = text.toLowerCase() === 'nan' ? NaN : Number(text);
    if (text.toLowerCase() !== 'nan' && !Number.isFinite(noData)) fail(`GDAL_NODATA value "${text}" is not a number`);
  }
  const noData32 = Math.fround(noData);
  const onProgress = options.onProgress;

  // --- Pixels: decode each chunk, undo the predictor, scatter into the (flipped) grid. ---
  const heights = new Float64Array(width * height);
  const chunkBytes = chunkW * chunkH * bps;
  const buf = new Uint8Array(chunkBytes);
  // Samples are read through a typed view of `buf` in the PLATFORM's byte order: rows from a
  // file of the other order are byte-swapped first (10× faster than a DataView call per sample).
  const samples = sampleView(buf, kind);
  const swap = bps > 1 && le !== PLATFORM_LITTLE_ENDIAN;
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
    let got: number;
    if (compression === 1) {
      got = Math.min(src.length, need);
      buf.set(src.subarray(0, got));
    } else if (compression === 5) {
      got = lzwDecode(src, buf.subarray(0, need));
    } else if (compression === 32773) {
      got = packBitsDecode(src, buf.subarray(0, need));
    } else {
      let inflated: Uint8Array;
      try {
        inflated = unzlibSync(src);
      } catch (err) {
        fail(`${what} ${t}: Deflate data is corrupt (${err instanceof Error ? err.message : String(err)})`);
      }
      got = Math.min(inflated.length, need);
      buf.set(inflated.subarray(0, got));
    }
    if (got < need) fail(`${what} ${t} decompresses to ${got} bytes, expected ${need} (truncated or corrupt)`);

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
      const dst = gridRow * width + ci * chunkW;
      const first = y * chunkW;
      for (let x = 0; x < cols; x++) {
        const v = samples[first + x];
        if (v !== v || v === noData || (kind === 'float32' && v === noData32)) {
          heights[dst + x] = NaN;
          if (noDataCount === 0) firstNoData = imgRow * width + ci * chunkW + x;
          noDataCount++;
          continue;
        }
        const h = v * zScale;
        if (!Number.isFinite(h)) fail(`height at column ${ci * chunkW + x}, row ${imgRow} is ${h}`);
        heights[dst + x] = h;
        if (h < validMin) validMin = h;
      }
      // Per row, so a file stored as one big strip still reports as it goes.
      if (onProgress !== undefined) onProgress((t + (y + 1) / rowsHere) / total);
    }
  }

  if (noDataCount > 0) {
    const fc = firstNoData % width;
    const fr = (firstNoData - fc) / width;
    const label = ndTag !== undefined ? `no-data (GDAL_NODATA = ${r.ascii(ndTag).trim()})` : 'NaN';
    if (noDataCount === width * height) fail(`every pixel is ${label}: nothing to load`);
    if ((options.noData ?? 'reject') === 'reject') {
      fail(
        `${noDataCount} of ${width * height} pixels are ${label}, the first at column ${fc}, row ${fr} (from the top); ` +
          'fill the holes in a GIS, or set "noData": "fill-min" in the sidecar to fill them with the lowest valid height',
      );
    }
    for (let k = 0; k < heights.length; k++) if (heights[k] !== heights[k]) heights[k] = validMin;
    notes.push(`${noDataCount} ${label} pixels filled with the lowest valid height, ${validMin} m ("noData": "fill-min")`);
  }

  const result: GeoTiffDem = { cols: width, rows: height, dx, dy, heights, notes };
  if (geo) result.geo = geo;
  return result;
}

/** WGS84 first eccentricity squared, e² = f(2 − f). */
const E2 = (2 - 1 / WGS84_INVERSE_FLATTENING) / WGS84_INVERSE_FLATTENING;

/** [m] Length of one degree of latitude at geodetic latitude `lat` degrees: (π/180)·M(φ). */
export function metresPerDegreeLatitude(lat: number): number {
  const s = Math.sin((lat * Math.PI) / 180);
  const w = 1 - E2 * s * s;
  return ((Math.PI / 180) * WGS84_SEMI_MAJOR_AXIS * (1 - E2)) / (w * Math.sqrt(w));
}

/** [m] Length of one degree of longitude at geodetic latitude `lat` degrees: (π/180)·N(φ)·cos φ. */
export function metresPerDegreeLongitude(lat: number): number {
  const phi = (lat * Math.PI) / 180;
  const s = Math.sin(phi);
  return ((Math.PI / 180) * WGS84_SEMI_MAJOR_AXIS * Math.cos(phi)) / Math.sqrt(1 - E2 * s * s);
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
