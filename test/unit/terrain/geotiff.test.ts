import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { TerrainError } from '../../../sim/terrain/heightfield';
import { decodeGeoTiff, metresPerDegreeLatitude, metresPerDegreeLongitude } from '../../../sim/terrain/geotiff-decode';
import { lzwDecode } from '../../../sim/terrain/tiff-lzw';
import { packBitsDecode } from '../../../sim/terrain/tiff-packbits';
import { loadTerrain, decodeTerrain, detectTerrainFormat } from '../../../sim/terrain/load-terrain';
import { lzwEncode, packBitsEncode, writeTiff, type SampleKind, type TiffSpec } from './tiff-writer';

// GeoKey ids and values (GeoTIFF 1.1 §7).
const GTModelType = 1024;
const GTRasterType = 1025;
const GeographicType = 2048;
const ProjectedCSType = 3072;
const ProjLinearUnits = 3076;
const VerticalUnits = 4099;
const projectedUtm: [number, number][] = [[GTModelType, 1], [GTRasterType, 1], [ProjectedCSType, 32633]];

/** Heights in the raster's own order (row 0 = north) for a w × h map, integer-valued so every sample type holds them. */
function dem(w: number, h: number, rng: Rng, lo = -100, hi = 3000): number[] {
  const v: number[] = [];
  for (let k = 0; k < w * h; k++) v.push(rng.int(lo, hi));
  return v;
}

function expectTerrainError(fn: () => unknown, pattern: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(TerrainError);
  expect((caught as Error).message).toMatch(pattern);
}

/** Heightfield-order check: grid row j must be raster row (h − 1 − j). */
function expectNorthUp(heights: Float64Array, values: ArrayLike<number>, w: number, h: number, scale = 1): void {
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const got = heights[(h - 1 - r) * w + c];
      const want = values[r * w + c] * scale;
      if (got !== want) throw new Error(`raster (${c}, ${r}): got ${got}, want ${want}`);
    }
  }
}

describe('TIFF codecs', () => {
  it('LZW round-trips random and repetitive data across table resets (> 4096 codes)', () => {
    const rng = new Rng(11);
    for (const n of [0, 1, 2, 300, 5000, 70000]) {
      const src = new Uint8Array(n);
      for (let k = 0; k < n; k++) src[k] = k % 7 === 0 ? rng.int(0, 255) : rng.int(0, 3);
      const out = new Uint8Array(n);
      expect(lzwDecode(lzwEncode(src), out)).toBe(n);
      expect(Buffer.from(out).equals(Buffer.from(src))).toBe(true);
    }
  });

  it('LZW rejects a code beyond the table', () => {
    // 9-bit codes: CLEAR, then 300 (undefined right after a clear).
    const bits = '100000000' + '100101100';
    const bytes = new Uint8Array(3);
    for (let k = 0; k < bits.length; k++) if (bits[k] === '1') bytes[k >> 3] |= 0x80 >> (k & 7);
    expect(() => lzwDecode(bytes, new Uint8Array(10))).toThrow(/LZW data is corrupt/);
  });

  it('PackBits decodes the TIFF 6.0 §9 example and round-trips', () => {
    const packed = Uint8Array.from([0xfe, 0xaa, 0x02, 0x80, 0x00, 0x2a, 0xfd, 0xaa, 0x03, 0x80, 0x00, 0x2a, 0x22, 0xf7, 0xaa]);
    const expected = [0xaa, 0xaa, 0xaa, 0x80, 0x00, 0x2a, 0xaa, 0xaa, 0xaa, 0xaa, 0x80, 0x00, 0x2a, 0x22, ...new Array(10).fill(0xaa)];
    const out = new Uint8Array(expected.length);
    expect(packBitsDecode(packed, out)).toBe(expected.length);
    expect(Array.from(out)).toEqual(expected);
    const rng = new Rng(5);
    const src = new Uint8Array(1000).map((_, k) => (k % 50 < 20 ? 7 : rng.int(0, 255)));
    const back = new Uint8Array(1000);
    expect(packBitsDecode(packBitsEncode(src), back)).toBe(1000);
    expect(Array.from(back)).toEqual(Array.from(src));
  });
});

describe('GeoTIFF decode: layouts', () => {
  const w = 13;
  const h = 7;
  const base = { width: w, height: h, pixelScale: [2, 3, 0] as [number, number, number], tiepoint: [0, 0, 0, 500000, 4000000, 0] as [number, number, number, number, number, number], geoKeys: projectedUtm };

  const layouts: { name: string; spec: Partial<TiffSpec> }[] = [
    { name: 'uncompressed single strip', spec: {} },
    { name: 'uncompressed strips of 3 rows', spec: { rowsPerStrip: 3 } },
    { name: 'deflate strips of 2 rows', spec: { compression: 'deflate', rowsPerStrip: 2 } },
    { name: 'uncompressed 16 × 16 tiles (partial edge tiles)', spec: { tile: [16, 16] } },
    { name: 'deflate 8 × 4 tiles', spec: { compression: 'deflate', tile: [8, 4] } },
    { name: 'LZW strips', spec: { compression: 'lzw', rowsPerStrip: 4 } },
    { name: 'LZW tiles, big-endian', spec: { compression: 'lzw', tile: [16, 16], littleEndian: false } },
    { name: 'PackBits strips', spec: { compression: 'packbits', rowsPerStrip: 5 } },
    { name: 'deflate + predictor 2, big-endian', spec: { compression: 'deflate', predictor: 2, littleEndian: false } },
    { name: 'LZW + predictor 2, tiled', spec: { compression: 'lzw', predictor: 2, tile: [16, 16] } },
  ];
  for (const kind of ['int16', 'uint16', 'int32', 'float32', 'float64'] as SampleKind[]) {
    for (const layout of layouts) {
      const pred = layout.spec.predictor;
      const isFloat = kind.startsWith('float');
      if (pred === 2 && isFloat) continue;
      it(`${kind}, ${layout.name}`, () => {
        const lo = kind.startsWith('uint') ? 0 : -100;
        const values = dem(w, h, new Rng(w * 31 + layout.name.length), lo);
        const tif = writeTiff({ ...base, ...layout.spec, kind, values });
        const res = decodeGeoTiff(tif);
        expect([res.cols, res.rows, res.dx, res.dy]).toEqual([w, h, 2, 3]);
        expectNorthUp(res.heights, values, w, h);
      });
    }
  }

  for (const [kind, le] of [['float32', true], ['float32', false], ['float64', true], ['float64', false]] as const) {
    it(`${kind} with predictor 3 (floating point), ${le ? 'little' : 'big'}-endian, non-integer heights`, () => {
      const rng = new Rng(99);
      const values = Array.from({ length: w * h }, () => Math.fround(rng.range(-50, 900)));
      const tif = writeTiff({ ...base, kind, values, predictor: 3, compression: 'deflate', littleEndian: le, tile: [16, 16] });
      expectNorthUp(decodeGeoTiff(tif).heights, values, w, h);
    });
  }

  it('uint8 and int8 samples', () => {
    const values = dem(w, h, new Rng(1), 0, 120);
    for (const kind of ['uint8', 'int8'] as const) expectNorthUp(decodeGeoTiff(writeTiff({ ...base, kind, values })).heights, values, w, h);
  });
});

describe('GeoTIFF georeferencing', () => {
  const w = 5;
  const h = 4;
  const values = dem(w, h, new Rng(2));

  it('projected, PixelIsArea: metres from ModelPixelScale, SW vertex at the centre of the bottom-left pixel', () => {
    const tif = writeTiff({ width: w, height: h, kind: 'int16', values, pixelScale: [30, 25, 0], tiepoint: [0, 0, 0, 440720, 3751320, 0], geoKeys: projectedUtm });
    const res = loadTerrain(null, tif);
    expect(res.format).toBe('geotiff');
    expect(res.heightfield.dx).toBe(30);
    expect(res.heightfield.dy).toBe(25);
    expect(res.heightfield.x0).toBe(0); // world origin is local, georeference reported separately
    expect(res.geo).toEqual({ kind: 'projected', epsg: 32633, southWest: [440735, 3751320 - 3.5 * 25], pixelSize: [30, 25], rasterType: 'area' });
    expectNorthUp(res.heightfield.heights, values, w, h);
  });

  it('PixelIsPoint: the tiepoint IS the north-west vertex; tiepoint at a raster point other than (0, 0)', () => {
    const tif = writeTiff({
      width: w, height: h, kind: 'int16', values, pixelScale: [10, 10, 0], tiepoint: [2, 1, 0, 1000, 2000, 0],
      geoKeys: [[GTModelType, 1], [GTRasterType, 2]],
    });
    const res = decodeGeoTiff(tif);
    // raster (2, 1) ↦ (1000, 2000) so raster (0, 0) ↦ (980, 2010); SW vertex = raster (0, 3) ↦ (980, 1980)
    expect(res.geo?.southWest).toEqual([980, 1980]);
    expect(res.geo?.rasterType).toBe('point');
  });

  it('ModelTransformationTag without rotation is equivalent to scale + tiepoint', () => {
    const tif = writeTiff({
      width: w, height: h, kind: 'float32', values,
      transformation: [30, 0, 0, 440720, 0, -25, 0, 3751320, 0, 0, 0, 0, 0, 0, 0, 1], geoKeys: projectedUtm,
    });
    const res = decodeGeoTiff(tif);
    expect([res.dx, res.dy]).toEqual([30, 25]);
    expect(res.geo?.southWest).toEqual([440735, 3751320 - 3.5 * 25]);
    expectNorthUp(res.heights, values, w, h);
  });

  it('a south-up raster (negative y scale in the transform) is read without flipping', () => {
    const tif = writeTiff({
      width: w, height: h, kind: 'float32', values,
      transformation: [30, 0, 0, 0, 0, 25, 0, 1000, 0, 0, 0, 0, 0, 0, 0, 1], geoKeys: projectedUtm,
    });
    const res = decodeGeoTiff(tif);
    for (let k = 0; k < w * h; k++) expect(res.heights[k]).toBe(values[k]);
    expect(res.geo?.southWest).toEqual([15, 1012.5]);
    expect(res.notes.join(' ')).toMatch(/south-up/);
  });

  it('projected CRS in US survey feet, heights in feet: both converted to metres', () => {
    const tif = writeTiff({
      width: w, height: h, kind: 'float64', values, pixelScale: [10, 10, 0], tiepoint: [0, 0, 0, 0, 0, 0],
      geoKeys: [[GTModelType, 1], [ProjLinearUnits, 9003], [VerticalUnits, 9002]],
    });
    const res = decodeGeoTiff(tif);
    expect(res.dx).toBeCloseTo((10 * 1200) / 3937, 12);
    expectNorthUp(res.heights, values, w, h, 0.3048);
    expect(res.notes.join(' ')).toMatch(/converted/);
  });

  it('geographic (EPSG:4326): degrees → metres at the centre latitude, said in the notes', () => {
    const arc = 1 / 3600; // 1 arc-second, SRTM-like
    const tif = writeTiff({
      width: w, height: h, kind: 'int16', values, pixelScale: [arc, arc, 0], tiepoint: [0, 0, 0, 7, 46 + 4 * arc, 0],
      geoKeys: [[GTModelType, 2], [GTRasterType, 1], [GeographicType, 4326]],
    });
    const res = decodeGeoTiff(tif);
    const lat = res.geo!.conversionLatitude!;
    expect(lat).toBeCloseTo(46 + 2 * arc, 12);
    // Known values at 46°N (WGS84): 1° lat ≈ 111 152 m, 1° lon ≈ 77 463 m.
    expect(metresPerDegreeLatitude(46)).toBeCloseTo(111152, -1);
    expect(metresPerDegreeLongitude(46)).toBeCloseTo(77463, -1);
    expect(metresPerDegreeLatitude(0)).toBeCloseTo(110574, -1);
    expect(metresPerDegreeLongitude(0)).toBeCloseTo(111320, -1);
    expect(res.dy).toBeCloseTo(arc * metresPerDegreeLatitude(lat), 9);
    expect(res.dx).toBeCloseTo(arc * metresPerDegreeLongitude(lat), 9);
    expect(res.geo?.kind).toBe('geographic');
    expect(res.geo?.epsg).toBe(4326);
    expect(res.notes.join(' ')).toMatch(/geographic CRS \(EPSG:4326\).*latitude 46\.0/);
  });

  it('a sidecar may override the spacing and give a world origin', () => {
    const tif = writeTiff({ width: w, height: h, kind: 'int16', values, pixelScale: [30, 30, 0], tiepoint: [0, 0, 0, 0, 0, 0], geoKeys: projectedUtm });
    const res = loadTerrain({ image: 'dem.tif', format: 'geotiff', metersPerPixel: 1, origin: [-2, -1.5] }, tif);
    expect([res.heightfield.dx, res.heightfield.x0, res.heightfield.y0]).toEqual([1, -2, -1.5]);
    expect(res.notes.join(' ')).toMatch(/override/);
    expect(detectTerrainFormat(tif)).toBe('geotiff');
  });

  it('a file without georeferencing needs metersPerPixel from the sidecar', () => {
    const tif = writeTiff({ width: w, height: h, kind: 'int16', values });
    expectTerrainError(() => decodeTerrain(null, tif), /no georeferencing.*metersPerPixel/);
    const hf = decodeTerrain({ image: 'a.tif', format: 'geotiff', metersPerPixel: [0.5, 0.25] }, tif);
    expect([hf.dx, hf.dy]).toEqual([0.5, 0.25]);
  });
});

describe('GeoTIFF no-data', () => {
  const w = 6;
  const h = 5;
  const geo = { pixelScale: [1, 1, 0] as [number, number, number], tiepoint: [0, 0, 0, 0, 0, 0] as [number, number, number, number, number, number], geoKeys: projectedUtm };

  it('rejects GDAL_NODATA pixels by default, naming the count and the first one', () => {
    const values = dem(w, h, new Rng(3), 0, 100);
    values[2 * w + 4] = -9999;
    values[4 * w + 1] = -9999;
    const tif = writeTiff({ width: w, height: h, kind: 'int16', values, noData: '-9999', ...geo });
    expectTerrainError(() => decodeGeoTiff(tif), /2 of 30 pixels are no-data \(GDAL_NODATA = -9999\), the first at column 4, row 2/);
  });

  it('"fill-min" fills no-data with the lowest valid height and says so', () => {
    const values = dem(w, h, new Rng(4), 10, 100);
    values[7] = -9999;
    const tif = writeTiff({ width: w, height: h, kind: 'int16', values, noData: '-9999', ...geo });
    const res = loadTerrain({ image: 'a.tif', format: 'geotiff', noData: 'fill-min' }, tif);
    const validMin = Math.min(...values.filter((v) => v !== -9999));
    const filled = values.map((v) => (v === -9999 ? validMin : v));
    expectNorthUp(res.heightfield.heights, filled, w, h);
    expect(res.notes.join(' ')).toMatch(/1 no-data .* filled with the lowest valid height/);
  });

  it('NaN in a float raster is no-data even without the tag; float32 no-data written with few digits still matches', () => {
    const values = dem(w, h, new Rng(5), 0, 10);
    values[0] = NaN;
    expectTerrainError(() => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'float32', values, ...geo })), /1 of 30 pixels are NaN/);
    const v2 = dem(w, h, new Rng(5), 0, 10);
    v2[3] = -3.4028234663852886e38;
    expectTerrainError(
      () => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'float32', values: v2, noData: '-3.40282346638529e+38', ...geo })),
      /1 of 30 pixels are no-data/,
    );
  });

  it('rejects a raster that is all no-data even with fill-min', () => {
    const values = new Array(w * h).fill(-32768);
    const tif = writeTiff({ width: w, height: h, kind: 'int16', values, noData: '-32768', ...geo });
    expectTerrainError(() => decodeGeoTiff(tif, { noData: 'fill-min' }), /every pixel is no-data/);
  });
});

describe('GeoTIFF rejections', () => {
  const w = 9;
  const h = 6;
  const values = dem(w, h, new Rng(6));
  const geo = { pixelScale: [1, 1, 0] as [number, number, number], tiepoint: [0, 0, 0, 0, 0, 0] as [number, number, number, number, number, number], geoKeys: projectedUtm };
  const good = writeTiff({ width: w, height: h, kind: 'int16', values, compression: 'deflate', rowsPerStrip: 2, ...geo });

  it('truncated files: header, IFD, strip data', () => {
    expectTerrainError(() => decodeGeoTiff(good.subarray(0, 6)), /truncated/);
    expectTerrainError(() => decodeGeoTiff(good.subarray(0, 20)), /truncated/);
    expectTerrainError(() => decodeGeoTiff(good.subarray(0, good.length - 3)), /file truncated: strip 2 .* runs past the end/);
  });

  it('corrupt compressed data', () => {
    const bad = good.slice();
    for (let k = bad.length - 20; k < bad.length; k++) bad[k] ^= 0x5a;
    expectTerrainError(() => decodeGeoTiff(bad), /strip 2/);
  });

  it('unsupported sample types, compressions, multi-band, BigTIFF, rotation', () => {
    expectTerrainError(() => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, extra: [{ tag: 258, type: 3, values: [12] }] })), /12-bit/);
    expectTerrainError(() => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, extra: [{ tag: 259, type: 3, values: [7] }] })), /compression 7 \(JPEG\)/);
    expectTerrainError(() => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, samplesPerPixel: 3 })), /3 samples per pixel/);
    const big = good.slice();
    big[2] = 43;
    expectTerrainError(() => decodeGeoTiff(big), /BigTIFF/);
    expectTerrainError(
      () => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, transformation: [1, 0.5, 0, 0, 0.5, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] })),
      /rotated/,
    );
    expectTerrainError(() => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'float32', values, predictor: 2, ...geo })), /predictor 2/);
  });

  it('absurd declared sizes are rejected before allocating', () => {
    expectTerrainError(() => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, extra: [{ tag: 256, type: 4, values: [4000000000] }] })), /width is 4000000000 pixels/);
    expectTerrainError(() => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, extra: [{ tag: 257, type: 4, values: [1] }] })), /height is 1 pixels/);
    // In range, but the (single, uncompressed) strip cannot hold 16000 × 6 pixels: rejected before allocating.
    expectTerrainError(
      () => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, extra: [{ tag: 256, type: 4, values: [16000] }] })),
      /strip 0 has 108 bytes, which cannot hold the 192000 bytes of its 16000 × 6 pixels/,
    );
  });

  it('strip count that does not match the image size', () => {
    expectTerrainError(
      () => decodeGeoTiff(writeTiff({ width: w, height: h, kind: 'int16', values, rowsPerStrip: 2, extra: [{ tag: 278, type: 4, values: [1] }] })),
      /needs 6 strips, but the file lists 3 offsets/,
    );
  });

  it('sidecar format mismatch: a TIFF given as PNG', () => {
    expectTerrainError(() => decodeTerrain({ image: 'x.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] }, good), /is a TIFF/);
  });
});

describe('GeoTIFF progress', () => {
  it('a single-strip file still reports progress per row, in ≤ 5 % steps up to the Heightfield build', () => {
    const w = 64;
    const h = 200;
    const values = dem(w, h, new Rng(8));
    const tif = writeTiff({ width: w, height: h, kind: 'int16', values, pixelScale: [1, 1, 0], tiepoint: [0, 0, 0, 0, 0, 0], geoKeys: projectedUtm });
    const seen: number[] = [];
    loadTerrain(null, tif, (f) => seen.push(f));
    expect(seen[seen.length - 1]).toBe(1);
    let prev = 0;
    for (const f of seen) {
      expect(f).toBeGreaterThan(prev === 0 ? -1 : prev);
      if (f <= 0.6) expect(f - prev).toBeLessThanOrEqual(0.05 + 1e-12);
      prev = f;
    }
    expect(seen.length).toBeGreaterThan(12);
  });
});
