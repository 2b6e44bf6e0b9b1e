import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { TerrainError } from '../../../sim/terrain/heightfield';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';
import { parseTerrainSidecar } from '../../../sim/terrain/sidecar';

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

/** float32 RAW, rows top (north) to bottom. */
function raw(values: number[], littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const v = new DataView(out.buffer);
  values.forEach((x, k) => v.setFloat32(k * 4, x, littleEndian));
  return out;
}

describe('float32 RAW', () => {
  const cols = 7;
  const rows = 3;
  const rng = new Rng(21);
  const values = Array.from({ length: cols * rows }, () => Math.fround(rng.range(-20, 40)));

  for (const endianness of ['little', 'big'] as const) {
    it(`${endianness}-endian, non-square: exact heights, row 0 = north`, () => {
      const hf = decodeTerrain(
        { image: 'a.raw', format: 'raw-f32', metersPerPixel: [0.5, 2], size: [cols, rows], endianness },
        raw(values, endianness === 'little'),
      );
      expect([hf.cols, hf.rows, hf.dx, hf.dy]).toEqual([cols, rows, 0.5, 2]);
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) expect(hf.height(c, rows - 1 - r)).toBe(values[r * cols + c]);
    });
  }

  it('default endianness is little', () => {
    const hf = decodeTerrain({ image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [cols, rows] }, raw(values, true));
    expect(hf.height(0, rows - 1)).toBe(values[0]);
  });

  it('rejects a truncated file and a file longer than "size"', () => {
    const data = raw(values, true);
    const side = { image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [cols, rows] };
    expectTerrainError(() => decodeTerrain(side, data.subarray(0, data.length - 1)), /has 83 bytes but "size" \[7, 3\] needs 7 × 3 × 4 = 84 bytes \(truncated file\)/);
    const longer = new Uint8Array(data.length + 4);
    longer.set(data);
    expectTerrainError(() => decodeTerrain(side, longer), /wrong "size"/);
  });

  it('rejects NaN and infinite heights with their location', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const v = values.slice();
      v[1 * cols + 4] = bad;
      expectTerrainError(
        () => decodeTerrain({ image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [cols, rows] }, raw(v, true)),
        new RegExp(`height at file row 1 \\(from the top\\), column 4 is ${String(bad)}`),
      );
    }
  });

  it('an optional heightRange is a check: a height outside it is an error (e.g. wrong endianness)', () => {
    const side = { image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [2, 2], heightRange: [0, 10] };
    expect(decodeTerrain(side, raw([0, 1, 2, 10], true)).maxHeight).toBe(10);
    expectTerrainError(() => decodeTerrain(side, raw([0, 1, 2, 10.5], true)), /height 10.5 m at vertex \(1, 0\) \(column, row from the south edge\) is outside the sidecar's "heightRange" \[0, 10\]/);
    // 1.0 read with the wrong byte order is 4.6e-41: finite, so only the range check can catch it
    const sideBig = { ...side, heightRange: [1, 10], endianness: 'big' };
    expect(decodeTerrain(sideBig, raw([5, 1, 2, 3], false)).minHeight).toBe(1);
    expectTerrainError(() => decodeTerrain(sideBig, raw([5, 1, 2, 3], true)), /outside/);
  });

  it('a 1 × n map is rejected (a heightfield needs one cell)', () => {
    expectTerrainError(() => decodeTerrain({ image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [1, 4] }, raw([1, 2, 3, 4], true)), /"size" must be \[cols, rows\]/);
  });
});

describe('sidecar validation', () => {
  const ok = { image: 'hills.png', format: 'png', metersPerPixel: 0.1, heightRange: [0, 5] };

  it('normalises a valid sidecar (scalar spacing → [dx, dy], defaults)', () => {
    expect(parseTerrainSidecar(ok)).toEqual({
      image: 'hills.png', format: 'png', metersPerPixel: [0.1, 0.1], heightRange: [0, 5], origin: [0, 0], endianness: 'little', noData: 'reject',
    });
    expect(parseTerrainSidecar(JSON.stringify({ ...ok, metersPerPixel: [0.1, 0.2], origin: [-3, 4], name: 'n' })).metersPerPixel).toEqual([0.1, 0.2]);
  });

  const cases: [string, unknown, RegExp][] = [
    ['not an object', 42, /expected a JSON object .* got 42/],
    ['an array', [ok], /expected a JSON object/],
    ['invalid JSON text', '{"image": ', /not valid JSON/],
    ['unknown key (typo)', { ...ok, metresPerPixel: 0.1 }, /unknown field "metresPerPixel"; allowed fields are "image"/],
    ['missing image', { ...ok, image: undefined }, /"image" must be a non-empty file name, got undefined/],
    ['empty image', { ...ok, image: ' ' }, /"image" must be a non-empty file name/],
    ['bad format', { ...ok, format: 'jpeg' }, /"format" must be one of "png", "raw-f32", "geotiff", got "jpeg"/],
    ['metersPerPixel string', { ...ok, metersPerPixel: 'abc' }, /terrain sidecar: "metersPerPixel" must be a positive number or \[dx, dy\] \(each from 0.0001 to 200000 m\), got "abc"/],
    ['metersPerPixel zero', { ...ok, metersPerPixel: 0 }, /"metersPerPixel" must be a positive number or \[dx, dy\] .*, got 0/],
    ['metersPerPixel negative pair', { ...ok, metersPerPixel: [0.1, -1] }, /got \[0.1,-1\]/],
    ['metersPerPixel triple', { ...ok, metersPerPixel: [1, 1, 1] }, /got \[1,1,1\]/],
    ['metersPerPixel missing for png', { ...ok, metersPerPixel: undefined }, /"metersPerPixel" is required for format "png"/],
    ['heightRange missing for png', { ...ok, heightRange: undefined }, /"heightRange" is required for format "png"/],
    ['heightRange reversed', { ...ok, heightRange: [5, 0] }, /"heightRange" must be \[min, max\] .* got \[5,0\]/],
    ['heightRange NaN', { ...ok, heightRange: [0, NaN] }, /"heightRange" must be/],
    ['origin not a pair', { ...ok, origin: 3 }, /"origin" must be \[x0, y0\]/],
    ['size on png', { ...ok, size: [4, 4] }, /"size" is only for format "raw-f32"/],
    ['size missing on raw', { image: 'a.raw', format: 'raw-f32', metersPerPixel: 1 }, /"size" is required for format "raw-f32"/],
    ['size not integer', { image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [4.5, 4] }, /"size" must be \[cols, rows\], integers from 2 to 16385, got \[4.5,4\]/],
    ['size absurd', { image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [100000, 100000] }, /got \[100000,100000\]/],
    ['endianness bad', { image: 'a.raw', format: 'raw-f32', metersPerPixel: 1, size: [2, 2], endianness: 'middle' }, /"endianness" must be "little" or "big", got "middle"/],
    ['endianness on png', { ...ok, endianness: 'big' }, /"endianness" is only for format "raw-f32"/],
    ['noData on png', { ...ok, noData: 'fill-min' }, /"noData" is only for format "geotiff"/],
    ['noData bad', { image: 'a.tif', format: 'geotiff', noData: 'zero' }, /"noData" must be "reject" or "fill-min", got "zero"/],
    ['name not a string', { ...ok, name: 3 }, /"name" must be a string, got 3/],
  ];
  for (const [name, input, pattern] of cases) {
    it(`rejects: ${name}`, () => expectTerrainError(() => parseTerrainSidecar(input), pattern));
  }

  it('PNG and RAW need a sidecar; a GeoTIFF does not', () => {
    expectTerrainError(() => decodeTerrain(null, new Uint8Array(16)), /no sidecar JSON given/);
  });
});
