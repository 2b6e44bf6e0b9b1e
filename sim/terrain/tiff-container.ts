/**
 * TIFF container: header, the first IFD (Image File Directory) and typed access to its tags
 * (TIFF 6.0 §2). Knows nothing about georeferencing or pixels (geotiff-georef.ts,
 * geotiff-raster.ts); its job is that every value it hands out was checked against the file:
 *
 *   - every entry's values lie inside the file (checked when the IFD is read);
 *   - sizes, offsets and counts come from `uint`/`uints`, which accept only the unsigned integer
 *     types BYTE, SHORT and LONG (TIFF 6.0 says SHORT or LONG for all of them), so a RATIONAL 3/2
 *     RowsPerStrip or a DOUBLE NaN width is a TerrainError, not a fraction that reaches a typed
 *     array constructor;
 *   - the number of values read is capped by the caller before anything is allocated.
 *
 *   header (8 bytes)                     IFD at offset from the header
 *   ┌────┬────┬──────────────┐           ┌───────┬──────────────────────────────┬──────────┐
 *   │ II │ 42 │ IFD offset   │           │ count │ count × 12-byte entries      │ next IFD │
 *   │ MM │    │ u32          │           │ u16   │ tag u16 type u16 n u32 value │ u32      │
 *   └────┴────┴──────────────┘           └───────┴──────────────────────────────┴──────────┘
 * A value of ≤ 4 bytes is stored in the entry itself, a longer one at the offset the entry holds.
 */
import { TerrainError } from './heightfield';

/** [-] Most entries accepted in one TIFF IFD: real DEMs have ~20; more means a corrupt or hostile file. */
export const TIFF_MAX_IFD_ENTRIES = 4096;

/** [characters] Longest ASCII value read (GDAL_NODATA is a number written as text). */
export const TIFF_MAX_ASCII = 256;

// TIFF tags (TIFF 6.0 §8; GeoTIFF 1.1 §7; GDAL).
export const TAG = {
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

/** Byte size of each TIFF field type (TIFF 6.0 §2, "Types"). */
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };
const TYPE_NAME: Record<number, string> = {
  1: 'BYTE', 2: 'ASCII', 3: 'SHORT', 4: 'LONG', 5: 'RATIONAL', 6: 'SBYTE', 7: 'UNDEFINED',
  8: 'SSHORT', 9: 'SLONG', 10: 'SRATIONAL', 11: 'FLOAT', 12: 'DOUBLE',
};

/** Throw the GeoTIFF loader's documented error. */
export function tiffFail(message: string): never {
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

/** A parsed classic TIFF: byte order and the first IFD's entries, all bounds-checked. */
export class TiffContainer {
  readonly view: DataView;
  private readonly entries = new Map<number, Entry>();

  private constructor(
    readonly data: Uint8Array,
    readonly le: boolean,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  /** Parse the header and the first IFD. Throws TerrainError on anything malformed. */
  static parse(data: Uint8Array): TiffContainer {
    if (!(data instanceof Uint8Array)) tiffFail('expected the file bytes as a Uint8Array');
    if (data.length < 8) tiffFail(`file truncated: ${data.length} bytes, a TIFF header needs 8`);
    if (!isTiff(data)) tiffFail('not a TIFF file (the first bytes are not "II*\\0" or "MM\\0*")');
    const t = new TiffContainer(data, data[0] === 0x49);
    if (t.u16(2) === 43) tiffFail('BigTIFF is not supported; write a classic TIFF (e.g. gdal_translate -co BIGTIFF=NO)');
    t.readIfd();
    return t;
  }

  u16(o: number): number {
    return this.view.getUint16(o, this.le);
  }

  u32(o: number): number {
    return this.view.getUint32(o, this.le);
  }

  has(tag: number): boolean {
    return this.entries.has(tag);
  }

  /** Number of values a tag holds (0 when absent), without reading them. */
  count(tag: number): number {
    return this.entries.get(tag)?.count ?? 0;
  }

  /**
   * Unsigned integer values of a size/offset/count tag. `name` is for messages; the count must be
   * in [minCount, maxCount] (checked before reading). Missing tag: `fallback` if given, else an error.
   */
  uints(tag: number, name: string, minCount: number, maxCount: number, fallback?: number[]): number[] {
    const e = this.entries.get(tag);
    if (e === undefined) {
      if (fallback !== undefined) return fallback;
      tiffFail(`missing required tag ${name} (${tag})`);
    }
    if (e.type !== 1 && e.type !== 3 && e.type !== 4) {
      tiffFail(`tag ${name} (${tag}) is stored as ${TYPE_NAME[e.type] ?? `type ${e.type}`}; sizes, offsets and counts must be unsigned integers (SHORT or LONG)`);
    }
    if (e.count < minCount || e.count > maxCount) {
      tiffFail(`tag ${name} (${tag}) has ${e.count} values, expected ${minCount === maxCount ? minCount : `${minCount} to ${maxCount}`}`);
    }
    return this.read(e, e.count);
  }

  /** One unsigned integer (the first value of a single-valued tag), or `fallback` when absent. */
  uint(tag: number, name: string, fallback?: number): number {
    return this.uints(tag, name, 1, 1, fallback === undefined ? undefined : [fallback])[0];
  }

  /**
   * Numeric values of any numeric type (integers, rationals, floats), for georeferencing. At most
   * `maxCount` values are read; fewer than `minCount` is an error. Values may be NaN or ±∞; the
   * caller checks they are finite.
   */
  numbers(tag: number, name: string, minCount: number, maxCount: number): number[] | undefined {
    const e = this.entries.get(tag);
    if (e === undefined) return undefined;
    if (e.type === 2 || e.type === 7) tiffFail(`tag ${name} (${tag}) has non-numeric type ${TYPE_NAME[e.type]}`);
    if (e.count < minCount) tiffFail(`tag ${name} (${tag}) has ${e.count} values, expected at least ${minCount}`);
    return this.read(e, Math.min(e.count, maxCount));
  }

  /** ASCII value of a tag (up to the first NUL, at most TIFF_MAX_ASCII characters), or undefined. */
  ascii(tag: number): string | undefined {
    const e = this.entries.get(tag);
    if (e === undefined) return undefined;
    let s = '';
    const n = Math.min(e.count, TIFF_MAX_ASCII);
    for (let k = 0; k < n; k++) {
      const c = this.data[e.offset + k];
      if (c === 0) break;
      s += String.fromCharCode(c);
    }
    return s;
  }

  private read(e: Entry, n: number): number[] {
    const size = TYPE_SIZE[e.type];
    const out: number[] = new Array(n);
    const v = this.view;
    const le = this.le;
    for (let k = 0; k < n; k++) {
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

  /** Parse the first IFD: tag → entry, with every value range checked against the file size. */
  private readIfd(): void {
    const n = this.data.length;
    const ifd = this.u32(4);
    if (ifd < 8 || ifd + 2 > n) tiffFail(`file truncated or corrupt: first IFD offset ${ifd} is outside the ${n}-byte file`);
    const count = this.u16(ifd);
    if (count === 0 || count > TIFF_MAX_IFD_ENTRIES) tiffFail(`IFD declares ${count} entries (expected 1..${TIFF_MAX_IFD_ENTRIES}): corrupt file`);
    if (ifd + 2 + count * 12 > n) tiffFail(`file truncated: IFD at ${ifd} with ${count} entries runs past the end of the ${n}-byte file`);
    for (let k = 0; k < count; k++) {
      const o = ifd + 2 + k * 12;
      const tag = this.u16(o);
      const type = this.u16(o + 2);
      const cnt = this.u32(o + 4);
      const size = TYPE_SIZE[type];
      if (size === undefined) continue; // unknown type: TIFF readers must skip such entries
      const bytes = size * cnt;
      const offset = bytes <= 4 ? o + 8 : this.u32(o + 8);
      if (offset + bytes > n) tiffFail(`file truncated: tag ${tag} has ${cnt} values at offset ${offset}, past the end of the ${n}-byte file`);
      this.entries.set(tag, { type, count: cnt, offset });
    }
  }
}
