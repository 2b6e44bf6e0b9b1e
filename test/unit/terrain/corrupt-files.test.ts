/**
 * "Bad files are rejected with a message; nothing crashes": seeded corruption of valid PNG and
 * GeoTIFF files (bit flips, byte overwrites, truncation, random garbage). Every outcome must be
 * either a valid Heightfield with finite heights or a TerrainError — never a RangeError from a
 * DataView, a TypeError, a hang, or a NaN height.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { TerrainError } from '../../../sim/terrain/heightfield';
import { loadTerrain } from '../../../sim/terrain/load-terrain';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';
import { writeTiff, type TiffSpec } from './tiff-writer';

function outcome(sidecar: unknown, data: Uint8Array): 'ok' | 'rejected' {
  try {
    const res = loadTerrain(sidecar, data);
    const h = res.heightfield.heights;
    for (let k = 0; k < h.length; k++) if (!Number.isFinite(h[k])) throw new Error(`non-finite height ${h[k]} at ${k}`);
    return 'ok';
  } catch (err) {
    if (err instanceof TerrainError) return 'rejected';
    throw new Error(`not a TerrainError: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
  }
}

function mutate(rng: Rng, src: Uint8Array): Uint8Array {
  const kind = rng.int(0, 3);
  if (kind === 0) return src.slice(0, rng.int(0, src.length - 1)); // truncate
  const out = src.slice();
  const n = rng.int(1, 4);
  for (let k = 0; k < n; k++) {
    const at = rng.int(0, out.length - 1);
    if (kind === 1) out[at] ^= 1 << rng.int(0, 7); // bit flip
    else if (kind === 2) out[at] = rng.int(0, 255); // byte overwrite
    else out[at] = [0, 0xff, 0x7f, 0x80][rng.int(0, 3)]; // boundary values
  }
  return out;
}

const rng0 = new Rng(1);
const w = 23;
const h = 17;
const samples = Array.from({ length: w * h }, (_, k) => (k * 977) % 65536);
const png = encodeGrayPng(w, h, 16, samples);
const pngSidecar = { image: 'a.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] };
const values = Array.from({ length: w * h }, () => rng0.int(-500, 500));
const geo: Partial<TiffSpec> = { pixelScale: [1, 1, 0], tiepoint: [0, 0, 0, 0, 0, 0], geoKeys: [[1024, 1]] };
const tiffs = [
  writeTiff({ width: w, height: h, kind: 'int16', values, ...geo }),
  writeTiff({ width: w, height: h, kind: 'int16', values, compression: 'deflate', predictor: 2, tile: [16, 16], ...geo }),
  writeTiff({ width: w, height: h, kind: 'float32', values, compression: 'lzw', predictor: 3, rowsPerStrip: 4, littleEndian: false, ...geo }),
  writeTiff({ width: w, height: h, kind: 'int32', values, compression: 'packbits', rowsPerStrip: 5, ...geo }),
];

describe('corrupt files never crash the loader', () => {
  it('PNG: 600 seeded corruptions', () => {
    const rng = new Rng(2024);
    const tally = { ok: 0, rejected: 0 };
    for (let k = 0; k < 600; k++) tally[outcome(pngSidecar, mutate(rng, png))]++;
    // CRCs catch almost every change; the rest (e.g. a flip inside the CRC of IEND) are rejections too.
    expect(tally.rejected).toBeGreaterThan(550);
  });

  it('GeoTIFF: 4 layouts × 300 seeded corruptions, with and without fill-min', () => {
    const rng = new Rng(4048);
    const tally = { ok: 0, rejected: 0 };
    for (const tif of tiffs) {
      for (let k = 0; k < 300; k++) {
        const bad = mutate(rng, tif);
        tally[outcome(null, bad)]++;
        outcome({ image: 'a.tif', format: 'geotiff', noData: 'fill-min' }, bad);
      }
    }
    expect(tally.rejected).toBeGreaterThan(100);
  });

  it('random garbage with each sidecar format', () => {
    const rng = new Rng(7);
    for (let k = 0; k < 200; k++) {
      const junk = new Uint8Array(rng.int(0, 300)).map(() => rng.int(0, 255));
      // Give half of them a valid magic so the parsers, not only the sniffers, see garbage.
      if (k % 2 === 0 && junk.length >= 8) junk.set(k % 4 === 0 ? [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] : [0x49, 0x49, 42, 0]);
      outcome(pngSidecar, junk);
      outcome(null, junk);
      outcome({ image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [4, 4] }, junk);
    }
  });
});
