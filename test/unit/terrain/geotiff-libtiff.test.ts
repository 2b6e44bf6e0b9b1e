/**
 * Cross-check against a second implementation: the fixtures in ./fixtures were written by libtiff's
 * own encoders (`tiffcp` 4.5, from uncompressed files made by tiff-writer.ts with the formulas
 * below), so LZW early change, the predictors and byte orders are checked against the reference
 * library, not only against our own writer. tiffcp drops the GeoTIFF tags, so spacing comes from
 * options.metersPerPixel (the "no georeferencing" path).
 *
 *   libtiff-i16-lzw-pred2-strips.tif       tiffcp -c lzw:2 -r 4
 *   libtiff-i16-deflate-pred2-tiles.tif    tiffcp -c zip:2 -t -w 16 -l 16
 *   libtiff-i16-packbits-bigendian.tif     tiffcp -B -c packbits -r 5
 *   libtiff-f32-deflate-pred3-tiles.tif    tiffcp -c zip:3 -t -w 16 -l 16
 *   libtiff-f32-lzw.tif                    tiffcp -c lzw
 *   libtiff-u16-lzw-noise.tif              tiffcp -c lzw -r 60   (160 × 120 noise: LZW table resets)
 *
 * No big-endian predictor-3 fixture: libtiff 4.5's WRITER byte-swaps the samples before the
 * floating-point predictor on a little-endian host (`tiffcp -B -c lzw:3`), and libtiff's own
 * reader then returns byte-swapped values (checked: tiffcp back to uncompressed gives 4.6e-41 for
 * 0.25). Our decoder agrees with libtiff's reader and the TN3 layout (plane 0 = most significant
 * byte whatever the file order); geotiff.test.ts covers big-endian predictor 3 with our writer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeGeoTiff } from '../../../sim/terrain/geotiff-decode';

const dir = join(__dirname, 'fixtures');
const w = 37;
const h = 19;
const i16: number[] = [];
const f32: number[] = [];
for (let r = 0; r < h; r++) {
  for (let c = 0; c < w; c++) {
    i16.push(((r * 131 + c * 71) % 2000) - 300);
    f32.push(Math.fround(Math.sin(r * 0.3) * 100 + c * 0.25));
  }
}
const W = 160;
const H = 120;
const noise: number[] = [];
let s = 12345;
for (let k = 0; k < W * H; k++) {
  s = (Math.imul(s, 1103515245) + 12345) >>> 0;
  noise.push((s >>> 20) % 700);
}

function check(file: string, values: number[], cols: number, rows: number): void {
  const res = decodeGeoTiff(new Uint8Array(readFileSync(join(dir, file))), { metersPerPixel: [1, 1] });
  expect([res.cols, res.rows]).toEqual([cols, rows]);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const got = res.heights[(rows - 1 - r) * cols + c];
      if (got !== values[r * cols + c]) throw new Error(`${file}: raster (${c}, ${r}) is ${got}, want ${values[r * cols + c]}`);
    }
  }
}

describe('GeoTIFF decoder vs libtiff-written files', () => {
  for (const f of ['libtiff-i16-lzw-pred2-strips.tif', 'libtiff-i16-deflate-pred2-tiles.tif', 'libtiff-i16-packbits-bigendian.tif']) {
    it(f, () => check(f, i16, w, h));
  }
  for (const f of ['libtiff-f32-deflate-pred3-tiles.tif', 'libtiff-f32-lzw.tif']) {
    it(f, () => check(f, f32, w, h));
  }
  it('libtiff-u16-lzw-noise.tif (several LZW table resets per strip)', () => check('libtiff-u16-lzw-noise.tif', noise, W, H));
});
