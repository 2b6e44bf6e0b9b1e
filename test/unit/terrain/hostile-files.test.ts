/**
 * Issue #18's hostile files, each pinned: decompression bombs, fractional size tags, deep JSON,
 * values whose String() throws, and finite numbers that would make the world infinite. Every one
 * must end in a TerrainError that names the field, quickly and without allocating what the bomb
 * asks for. The inflated byte count is measured exactly (fflate's Unzlib is wrapped to count its
 * output), so "stops at the expected size" is checked deterministically, not by a timer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Heightfield, TerrainError } from '../../../sim/terrain/heightfield';
import { estimateTerrainLoad, loadTerrain, TerrainLoadCancelled } from '../../../sim/terrain/load-terrain';
import { decodeGeoTiff } from '../../../sim/terrain/geotiff-decode';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';
import { parseTerrainSidecar } from '../../../sim/terrain/sidecar';
import { DEFLATE_MAX_EXPANSION, inflateSliceBytes } from '../../../sim/terrain/inflate-bounded';
import { deflateBomb, patchTag, replaceOnlyChunk } from './bomb-builders';
import { writeTiff } from './tiff-writer';

const counter = vi.hoisted(() => ({ inflated: 0 }));
vi.mock('fflate', async (importOriginal) => {
  const m = await importOriginal<typeof import('fflate')>();
  class CountingUnzlib extends m.Unzlib {
    constructor(cb: (chunk: Uint8Array, final: boolean) => void) {
      super((chunk: Uint8Array, final: boolean) => {
        counter.inflated += chunk.length;
        cb(chunk, final);
      });
    }
  }
  return { ...m, Unzlib: CountingUnzlib };
});

/** Most a bounded inflation of `need` bytes may produce: `need` plus one slice at the maximum ratio. */
function inflateBound(need: number): number {
  return need + inflateSliceBytes(need) * DEFLATE_MAX_EXPANSION;
}
/** [bytes] Budget for the growth of the process's peak RSS during one hostile load. */
const PEAK_RSS_BUDGET = 512 * 1024 * 1024;

function expectTerrainError(fn: () => unknown, pattern: RegExp): TerrainError {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof TerrainError)) throw new Error(`expected a TerrainError, got ${String(err)}`);
    expect(err.message).toMatch(pattern);
    return err;
  }
  throw new Error('expected a TerrainError, but it loaded');
}

/** Run fn, return the peak-RSS growth in bytes (resourceUsage().maxRSS is in KiB, monotonic). */
function peakGrowth(fn: () => void): number {
  const before = process.resourceUsage().maxRSS;
  fn();
  return (process.resourceUsage().maxRSS - before) * 1024;
}

const geo = { pixelScale: [1, 1, 0] as [number, number, number], tiepoint: [0, 0, 0, 0, 0, 0] as [number, number, number, number, number, number], geoKeys: [[1024, 1]] as [number, number][] };

describe('GeoTIFF decompression bombs', () => {
  it('a 2 × 2 image claiming one 16385² Deflate tile is rejected by the tile rule before allocating', () => {
    // Was: accepted after 11.5 s at 3.2 GB peak.
    const small = writeTiff({ width: 2, height: 2, kind: 'int16', values: [1, 2, 3, 4], compression: 'deflate', tile: [16, 16], ...geo });
    let bomb = replaceOnlyChunk(small, deflateBomb(1024), true);
    bomb = patchTag(patchTag(bomb, 322, 16385), 323, 16385);
    expect(bomb.length).toBeLessThan(1.1e6);
    counter.inflated = 0;
    const grew = peakGrowth(() => expectTerrainError(() => decodeGeoTiff(bomb), /tile size 16385 × 16385 is invalid for a 2 × 2 image/));
    expect(counter.inflated).toBe(0);
    expect(grew).toBeLessThan(PEAK_RSS_BUDGET);
  });

  it('a 64 × 64 strip that inflates to 1 GiB: inflation stops at the strip size, and the file loads', () => {
    // Was: accepted after 4.3 s at 2.2 GB peak. The extra data is ignored (never inflated).
    const values = Array.from({ length: 64 * 64 }, () => 0);
    const small = writeTiff({ width: 64, height: 64, kind: 'int16', values, compression: 'deflate', ...geo });
    const bomb = replaceOnlyChunk(small, deflateBomb(1024), false);
    expect(bomb.length).toBeLessThan(1.1e6);
    counter.inflated = 0;
    let dem: ReturnType<typeof decodeGeoTiff> | undefined;
    const grew = peakGrowth(() => {
      dem = decodeGeoTiff(bomb);
    });
    expect(dem?.cols).toBe(64);
    expect(counter.inflated).toBeGreaterThanOrEqual(64 * 64 * 2);
    expect(counter.inflated).toBeLessThanOrEqual(inflateBound(64 * 64 * 2));
    expect(inflateBound(64 * 64 * 2)).toBeLessThan(1.1e6); // ≈ 1 MB, not 1 GiB
    expect(grew).toBeLessThan(PEAK_RSS_BUDGET);
  });

  it('a 3 MB strip of 3 GiB: same bound', () => {
    // Was: 3.6 GB before failing.
    const small = writeTiff({ width: 64, height: 64, kind: 'float64', values: new Array(4096).fill(0), compression: 'deflate', ...geo });
    const bomb = replaceOnlyChunk(small, deflateBomb(3072), false);
    counter.inflated = 0;
    const grew = peakGrowth(() => decodeGeoTiff(bomb));
    expect(counter.inflated).toBeLessThanOrEqual(inflateBound(64 * 64 * 8));
    expect(grew).toBeLessThan(PEAK_RSS_BUDGET);
  });

  it('PNG: an IDAT that inflates past the image is an error, after at most one slice too many', () => {
    const png = encodeGrayPng(64, 64, 16, new Array(64 * 64).fill(0));
    // Rebuild the PNG with a bomb IDAT: signature + IHDR from the original, then IDAT, IEND.
    const ihdrEnd = 8 + 8 + 13 + 4;
    const bomb = deflateBomb(256);
    const idat = chunk('IDAT', bomb);
    const iend = chunk('IEND', new Uint8Array(0));
    const file = new Uint8Array(ihdrEnd + idat.length + iend.length);
    file.set(png.subarray(0, ihdrEnd));
    file.set(idat, ihdrEnd);
    file.set(iend, ihdrEnd + idat.length);
    counter.inflated = 0;
    const side = { image: 'b.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] };
    expectTerrainError(() => loadTerrain(side, file), /decompresses to more than the 8256 bytes/);
    expect(counter.inflated).toBeLessThanOrEqual(inflateBound(8256));
  });
});

/** PNG chunk with CRC (test-side implementation). */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let k = 0; k < 4; k++) out[4 + k] = type.charCodeAt(k);
  out.set(data, 8);
  let c = ~0;
  for (let k = 4; k < 8 + data.length; k++) {
    c ^= out[k];
    for (let b = 0; b < 8; b++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  v.setUint32(8 + data.length, ~c >>> 0);
  return out;
}

describe('GeoTIFF size, offset and count tags must be integers', () => {
  it('fixture rational-rowsperstrip.tif (RowsPerStrip = RATIONAL 3/2) is a TerrainError, not a RangeError', () => {
    const data = new Uint8Array(readFileSync(join(__dirname, '../../fixtures/bad-inputs/rational-rowsperstrip.tif')));
    expect(data.length).toBe(248);
    expectTerrainError(() => loadTerrain(null, data), /RowsPerStrip \(278\) is stored as RATIONAL/);
  });

  it('FLOAT, DOUBLE and SRATIONAL width, tile and count tags are rejected by type', () => {
    const base = writeTiff({ width: 4, height: 4, kind: 'int16', values: new Array(16).fill(1), ...geo });
    expectTerrainError(() => decodeGeoTiff(patchTag(base, 256, 0x7fc00000, 11)), /ImageWidth \(256\) is stored as FLOAT/);
    expectTerrainError(() => decodeGeoTiff(patchTag(base, 279, 32, 9)), /StripByteCounts \(279\) is stored as SLONG/);
    const tiled = writeTiff({ width: 4, height: 4, kind: 'int16', values: new Array(16).fill(1), tile: [16, 16], ...geo });
    expectTerrainError(() => decodeGeoTiff(patchTag(tiled, 322, 16, 11)), /TileWidth \(322\) is stored as FLOAT/);
  });

  it('a NaN or 1e308 pixel scale is rejected naming the tag', () => {
    const nan = writeTiff({ width: 4, height: 4, kind: 'int16', values: new Array(16).fill(1), ...geo, pixelScale: [NaN, 1, 0] });
    expectTerrainError(() => decodeGeoTiff(nan), /invalid georeferencing in ModelPixelScale\/ModelTiepoint/);
    const huge = writeTiff({ width: 4, height: 4, kind: 'int16', values: new Array(16).fill(1), ...geo, pixelScale: [1e308, 1e308, 0] });
    expectTerrainError(() => decodeGeoTiff(huge), /pixel spacing from ModelPixelScale\/ModelTiepoint is \[1e\+308, 1e\+308\] m; it must be from 0.0001 to 200000 m/);
    const tiny = writeTiff({ width: 4, height: 4, kind: 'int16', values: new Array(16).fill(1), ...geo, pixelScale: [1e-320, 1e-320, 0] });
    expectTerrainError(() => decodeGeoTiff(tiny), /pixel spacing/);
  });

  it('an int32 no-data of -2^31 without GDAL_NODATA is an implausible height, not a 2,000 km cliff', () => {
    const values = new Array(16).fill(5);
    values[5] = -2147483648;
    const tif = writeTiff({ width: 4, height: 4, kind: 'int32', values, ...geo });
    expectTerrainError(() => loadTerrain(null, tif), /height -2147483648 m at vertex \(1, 2\) .* is not within ±100000 m/);
  });
});

describe('sidecars from strangers', () => {
  const ok = { image: 'a.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] };

  function deepArrayText(depth: number): string {
    return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  }

  it('an "origin" 20,000 arrays deep is a TerrainError with a short message (was: stack overflow)', () => {
    const text = `{"image": "a.png", "format": "png", "metersPerPixel": 1, "heightRange": [0, 1], "origin": ${deepArrayText(20_000)}}`;
    const err = expectTerrainError(() => parseTerrainSidecar(text), /"origin" must be \[x0, y0\] .* got \[\[\[\[\.\.\.\]\]\]\]/);
    expect(err.message.length).toBeLessThan(200);
    // The parsed object too (the app parses JSON before handing it over).
    expectTerrainError(() => parseTerrainSidecar(JSON.parse(text)), /"origin" must be/);
  });

  it('"source": {"toString": 1} is a TerrainError (was: TypeError: Cannot convert object to primitive value)', () => {
    expectTerrainError(() => parseTerrainSidecar({ ...ok, source: { toString: 1 } }), /"source" must be a string, got \{"toString":1\}/);
    expectTerrainError(() => parseTerrainSidecar({ ...ok, image: { toString: 1 } }), /"image" must be a non-empty file name/);
  });

  it('getters that throw are a TerrainError', () => {
    const side = Object.defineProperty({ ...ok }, 'format', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expectTerrainError(() => parseTerrainSidecar(side), /terrain sidecar: could not be read \(Error: "boom"\)/);
  });

  it.each([
    ['heightRange [-1e308, -1e308] (was: chassis at z = −∞, NaN pose after one step)', { heightRange: [-1e308, -1e308] }, /"heightRange" must be .* within ±100000 m, got \[-1e\+308,-1e\+308\]/],
    ['heightRange [0, 1e6]', { heightRange: [0, 1e6] }, /"heightRange"/],
    ['metersPerPixel 1e308 (infinite extent)', { metersPerPixel: 1e308 }, /"metersPerPixel" .* from 0.0001 to 200000 m\), got 1e\+308/],
    ['metersPerPixel 1e-320', { metersPerPixel: 1e-320 }, /"metersPerPixel" .* got 1e-320/],
    ['metersPerPixel [1, 1e308]', { metersPerPixel: [1, 1e308] }, /"metersPerPixel"/],
    ['origin [1e308, 0]', { origin: [1e308, 0] }, /"origin" must be \[x0, y0\] in metres, each within ±100000000 m, got \[1e\+308,0\]/],
  ])('%s is rejected naming the field', (_name, patch, pattern) => {
    expectTerrainError(() => parseTerrainSidecar({ ...ok, ...patch }), pattern);
  });

  it('Heightfield.fromArray (plain API) quotes hostile values without a TypeError', () => {
    const base = { cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0, 0] };
    expectTerrainError(() => Heightfield.fromArray({ ...base, cols: { toString: 1 } as unknown as number }), /cols must be an integer .* got \{"toString":1\}/);
    expectTerrainError(() => Heightfield.fromArray({ ...base, dx: NaN }), /dx must be a finite spacing > 0 m, got NaN/);
    expectTerrainError(() => Heightfield.fromArray({ ...base, heights: [0, 0, { toString: 1 }, 0] as unknown as number[] }), /height at column 0, row 1 \(index 2\) is \{"toString":1\}/);
  });

  it('a 1 MB unknown key is quoted short', () => {
    const err = expectTerrainError(() => parseTerrainSidecar({ ...ok, ['k'.repeat(1 << 20)]: 1 }), /unknown field "kkk/);
    expect(err.message.length).toBeLessThan(400);
  });
});

describe('cost estimate and cancellation', () => {
  it('estimates a 16385² 16-bit PNG from its header alone (issue: 522 KB, 26 s, 5.9 GB)', () => {
    const head = encodeGrayPng(2, 2, 16, [0, 0, 0, 0]).slice(0, 33);
    new DataView(head.buffer).setUint32(16, 16385);
    new DataView(head.buffer).setUint32(20, 16385);
    const e = estimateTerrainLoad({ image: 'big.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] }, head);
    expect(e).not.toBeNull();
    expect(e!.cols).toBe(16385);
    expect(e!.large).toBe(true);
    expect(e!.bytes).toBeGreaterThan(5e9);
    expect(e!.seconds).toBeGreaterThan(10);
    const small = estimateTerrainLoad(null, writeTiff({ width: 8, height: 8, kind: 'int16', values: new Array(64).fill(0), ...geo }));
    expect(small?.large).toBe(false);
    expect(small?.format).toBe('geotiff');
    expect(estimateTerrainLoad(null, new Uint8Array([1, 2, 3]))).toBeNull();
  });

  const n = 513;
  const png = encodeGrayPng(n, n, 16, Array.from({ length: n * n }, (_, k) => (k * 7919) % 65536));
  const side = { image: 'c.png', format: 'png', metersPerPixel: 1, heightRange: [0, 10] };

  it('an AbortSignal aborted during the load ends it with TerrainLoadCancelled', () => {
    const ac = new AbortController();
    const seen: number[] = [];
    const run = () =>
      loadTerrain(side, png, {
        signal: ac.signal,
        onProgress: (f) => {
          seen.push(f);
          if (f > 0.1) ac.abort();
        },
      });
    expect(run).toThrow(TerrainLoadCancelled);
    expect(seen.at(-1)).toBeLessThan(0.5);
    // An already-aborted signal stops before decoding.
    expect(() => loadTerrain(side, png, { signal: AbortSignal.abort() })).toThrow(TerrainLoadCancelled);
  });

  it("an error thrown by onProgress propagates unchanged (the caller's own cancellation)", () => {
    class Stop extends Error {}
    const stop = new Stop('user pressed cancel');
    for (const [data, s] of [
      [png, side],
      [writeTiff({ width: 64, height: 64, kind: 'int16', values: new Array(4096).fill(0), compression: 'deflate', rowsPerStrip: 8, ...geo }), null],
      [new Uint8Array(64 * 64 * 4), { image: 'r.raw', format: 'raw-f32', metersPerPixel: 1, size: [64, 64] }],
    ] as const) {
      let calls = 0;
      try {
        loadTerrain(s, data as Uint8Array, () => {
          if (++calls === 2) throw stop;
        });
        throw new Error('loaded');
      } catch (err) {
        expect(err).toBe(stop);
      }
    }
  });

  it('loads normally with a signal that is never aborted', () => {
    const res = loadTerrain(side, png, { signal: new AbortController().signal });
    expect(res.heightfield.cols).toBe(n);
  });
});
