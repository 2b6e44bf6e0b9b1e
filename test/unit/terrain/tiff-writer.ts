/**
 * Test-only GeoTIFF writer: builds small DEMs with known georeferencing in every layout the
 * decoder claims to support (strips/tiles, both byte orders, none/Deflate/LZW/PackBits,
 * predictors 2 and 3, every sample type). Written independently of the decoder from TIFF 6.0
 * and the GeoTIFF spec, so a shared misreading would have to be made twice.
 */
import { zlibSync } from 'fflate';

export type SampleKind = 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

export interface TiffSpec {
  width: number;
  height: number;
  /** Row-major samples, row 0 = top (north). */
  values: ArrayLike<number>;
  kind: SampleKind;
  littleEndian?: boolean;
  compression?: 'none' | 'deflate' | 'lzw' | 'packbits';
  predictor?: 1 | 2 | 3;
  /** Strips of this many rows (default: whole image in one strip). */
  rowsPerStrip?: number;
  /** Tiles instead of strips. */
  tile?: [number, number];
  pixelScale?: [number, number, number];
  tiepoint?: [number, number, number, number, number, number];
  transformation?: number[];
  /** GeoKey entries [id, value] (all stored inline as SHORT). */
  geoKeys?: [number, number][];
  noData?: string;
  /** Extra raw entries (tag, type, values) to write, for corrupt-file tests. */
  extra?: { tag: number; type: number; values: number[] }[];
  samplesPerPixel?: number;
}

const KIND_INFO: Record<SampleKind, { bits: number; format: number }> = {
  uint8: { bits: 8, format: 1 },
  int8: { bits: 8, format: 2 },
  uint16: { bits: 16, format: 1 },
  int16: { bits: 16, format: 2 },
  uint32: { bits: 32, format: 1 },
  int32: { bits: 32, format: 2 },
  float32: { bits: 32, format: 3 },
  float64: { bits: 64, format: 3 },
};

function writeSample(v: DataView, o: number, kind: SampleKind, x: number, le: boolean): void {
  switch (kind) {
    case 'uint8': v.setUint8(o, x); break;
    case 'int8': v.setInt8(o, x); break;
    case 'uint16': v.setUint16(o, x, le); break;
    case 'int16': v.setInt16(o, x, le); break;
    case 'uint32': v.setUint32(o, x, le); break;
    case 'int32': v.setInt32(o, x, le); break;
    case 'float32': v.setFloat32(o, x, le); break;
    case 'float64': v.setFloat64(o, x, le); break;
  }
}

/** TIFF LZW, MSB-first, early change (mirrors libtiff's encoder). */
export function lzwEncode(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let nacc = 0;
  let width = 9;
  const put = (code: number): void => {
    acc = (acc << width) | code;
    nacc += width;
    while (nacc >= 8) {
      out.push((acc >>> (nacc - 8)) & 0xff);
      nacc -= 8;
    }
    acc &= (1 << nacc) - 1;
  };
  let dict = new Map<number, number>();
  let next = 258;
  put(256);
  if (src.length === 0) {
    put(257);
  } else {
    let w = src[0];
    const added = (): void => {
      next++;
      if (next >= 4094) {
        put(256);
        dict = new Map();
        next = 258;
        width = 9;
      } else if (next >= 1 << width) width++;
    };
    for (let k = 1; k < src.length; k++) {
      const c = src[k];
      const key = w * 256 + c;
      const hit = dict.get(key);
      if (hit !== undefined) {
        w = hit;
        continue;
      }
      put(w);
      dict.set(key, next);
      added();
      w = c;
    }
    put(w);
    next++;
    if (next >= 1 << width && width < 12) width++;
    put(257);
  }
  if (nacc > 0) out.push((acc << (8 - nacc)) & 0xff);
  return Uint8Array.from(out);
}

/** PackBits: runs of ≥ 3 equal bytes as repeats, the rest as literals (≤ 128 each). */
export function packBitsEncode(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < src.length) {
    let run = 1;
    while (i + run < src.length && src[i + run] === src[i] && run < 128) run++;
    if (run >= 3) {
      out.push((1 - run) & 0xff, src[i]);
      i += run;
      continue;
    }
    const start = i;
    while (i < src.length && i - start < 128) {
      if (i + 2 < src.length && src[i] === src[i + 1] && src[i] === src[i + 2]) break;
      i++;
    }
    out.push(i - start - 1, ...src.subarray(start, i));
  }
  return Uint8Array.from(out);
}

/** Forward predictor on one chunk row (in place), the inverse of the decoder's. */
function applyPredictor(buf: Uint8Array, rowStart: number, n: number, bps: number, predictor: number, le: boolean): void {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (predictor === 2) {
    for (let k = n - 1; k >= 1; k--) {
      const o = rowStart + k * bps;
      if (bps === 1) v.setUint8(o, (v.getUint8(o) - v.getUint8(o - 1)) & 0xff);
      else if (bps === 2) v.setUint16(o, (v.getUint16(o, le) - v.getUint16(o - 2, le)) & 0xffff, le);
      else v.setUint32(o, (v.getUint32(o, le) - v.getUint32(o - 4, le)) >>> 0, le);
    }
  } else if (predictor === 3) {
    const len = n * bps;
    const planes = new Uint8Array(len);
    for (let s = 0; s < n; s++) {
      for (let b = 0; b < bps; b++) planes[b * n + s] = buf[rowStart + s * bps + (le ? bps - 1 - b : b)];
    }
    for (let k = len - 1; k >= 1; k--) planes[k] = (planes[k] - planes[k - 1]) & 0xff;
    buf.set(planes, rowStart);
  }
}

const TYPE_SIZE: Record<number, number> = { 2: 1, 3: 2, 4: 4, 12: 8 };

export function writeTiff(spec: TiffSpec): Uint8Array {
  const le = spec.littleEndian ?? true;
  const { width, height, kind } = spec;
  const { bits, format } = KIND_INFO[kind];
  const bps = bits / 8;
  const tiled = spec.tile !== undefined;
  const chunkW = tiled ? spec.tile![0] : width;
  const chunkH = tiled ? spec.tile![1] : Math.min(spec.rowsPerStrip ?? height, height);
  const across = Math.ceil(width / chunkW);
  const down = Math.ceil(height / chunkH);
  const predictor = spec.predictor ?? 1;
  const compression = spec.compression ?? 'none';
  const chunks: Uint8Array[] = [];
  for (let cj = 0; cj < down; cj++) {
    for (let ci = 0; ci < across; ci++) {
      const rowsHere = tiled ? chunkH : Math.min(chunkH, height - cj * chunkH);
      const buf = new Uint8Array(chunkW * rowsHere * bps);
      const v = new DataView(buf.buffer);
      for (let y = 0; y < rowsHere; y++) {
        for (let x = 0; x < chunkW; x++) {
          const r = cj * chunkH + y;
          const c = ci * chunkW + x;
          // tiles past the image edge are padded with zeros
          const val = r < height && c < width ? spec.values[r * width + c] : 0;
          writeSample(v, (y * chunkW + x) * bps, kind, val, le);
        }
        applyPredictor(buf, y * chunkW * bps, chunkW, bps, predictor, le);
      }
      chunks.push(
        compression === 'deflate' ? zlibSync(buf) : compression === 'lzw' ? lzwEncode(buf) : compression === 'packbits' ? packBitsEncode(buf) : buf,
      );
    }
  }
  const entries: { tag: number; type: number; values: number[] | string }[] = [
    { tag: 256, type: 4, values: [width] },
    { tag: 257, type: 4, values: [height] },
    { tag: 258, type: 3, values: [bits] },
    { tag: 259, type: 3, values: [{ none: 1, lzw: 5, deflate: 8, packbits: 32773 }[compression]] },
    { tag: 262, type: 3, values: [1] },
    { tag: 277, type: 3, values: [spec.samplesPerPixel ?? 1] },
    { tag: 339, type: 3, values: [format] },
  ];
  if (predictor !== 1) entries.push({ tag: 317, type: 3, values: [predictor] });
  const offsetsTag = tiled ? 324 : 273;
  const countsTag = tiled ? 325 : 279;
  if (tiled) {
    entries.push({ tag: 322, type: 4, values: [chunkW] }, { tag: 323, type: 4, values: [chunkH] });
  } else {
    entries.push({ tag: 278, type: 4, values: [chunkH] });
  }
  entries.push({ tag: offsetsTag, type: 4, values: chunks.map(() => 0) }, { tag: countsTag, type: 4, values: chunks.map((c) => c.length) });
  if (spec.pixelScale) entries.push({ tag: 33550, type: 12, values: spec.pixelScale });
  if (spec.tiepoint) entries.push({ tag: 33922, type: 12, values: spec.tiepoint });
  if (spec.transformation) entries.push({ tag: 34264, type: 12, values: spec.transformation });
  if (spec.geoKeys) {
    const dir = [1, 1, 0, spec.geoKeys.length];
    for (const [id, value] of spec.geoKeys) dir.push(id, 0, 1, value);
    entries.push({ tag: 34735, type: 3, values: dir });
  }
  if (spec.noData !== undefined) entries.push({ tag: 42113, type: 2, values: `${spec.noData}\0` });
  for (const e of spec.extra ?? []) entries.push(e);
  entries.sort((a, b) => a.tag - b.tag);

  // Layout: header | IFD | out-of-line values | chunk data.
  const ifdSize = 2 + entries.length * 12 + 4;
  let cursor = 8 + ifdSize;
  const valueOffset: number[] = [];
  for (const e of entries) {
    const bytes = TYPE_SIZE[e.type] * e.values.length;
    if (bytes > 4) {
      cursor += cursor & 1; // word alignment
      valueOffset.push(cursor);
      cursor += bytes;
    } else valueOffset.push(-1);
  }
  const chunkOffsets: number[] = [];
  for (const c of chunks) {
    chunkOffsets.push(cursor);
    cursor += c.length;
  }
  const offsetsEntry = entries.find((e) => e.tag === offsetsTag)!;
  offsetsEntry.values = chunkOffsets;

  const out = new Uint8Array(cursor);
  const v = new DataView(out.buffer);
  out[0] = out[1] = le ? 0x49 : 0x4d;
  v.setUint16(2, 42, le);
  v.setUint32(4, 8, le);
  v.setUint16(8, entries.length, le);
  entries.forEach((e, k) => {
    const o = 10 + k * 12;
    v.setUint16(o, e.tag, le);
    v.setUint16(o + 2, e.type, le);
    v.setUint32(o + 4, e.values.length, le);
    const at = valueOffset[k] >= 0 ? valueOffset[k] : o + 8;
    if (valueOffset[k] >= 0) v.setUint32(o + 8, at, le);
    const size = TYPE_SIZE[e.type];
    for (let n = 0; n < e.values.length; n++) {
      const x = e.values[n];
      const p = at + n * size;
      if (typeof x === 'string') out[p] = x.charCodeAt(0);
      else if (e.type === 3) v.setUint16(p, x, le);
      else if (e.type === 4) v.setUint32(p, x, le);
      else if (e.type === 12) v.setFloat64(p, x, le);
    }
  });
  chunks.forEach((c, k) => out.set(c, chunkOffsets[k]));
  return out;
}
