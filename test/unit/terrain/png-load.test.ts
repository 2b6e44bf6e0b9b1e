import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { TerrainError } from '../../../sim/terrain/heightfield';
import { decodeGrayPng } from '../../../sim/terrain/png-decode';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';
import { decodeTerrain, loadTerrain } from '../../../sim/terrain/load-terrain';

function randomSamples(rng: Rng, n: number, max: number): Uint16Array {
  const s = new Uint16Array(n);
  for (let k = 0; k < n; k++) s[k] = rng.int(0, max);
  return s;
}

/** Smooth-ish field so every filter type gets chosen somewhere. */
function smoothSamples(w: number, h: number, max: number): Uint16Array {
  const s = new Uint16Array(w * h);
  for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) s[r * w + c] = Math.round((max * (1 + Math.sin(c * 0.3) * Math.cos(r * 0.2))) / 2);
  return s;
}

describe('PNG decode', () => {
  it('round-trips 16-bit samples exactly with every filter type (non-square, non-power-of-two)', () => {
    const rng = new Rng(7);
    const w = 37;
    const h = 23;
    const samples = randomSamples(rng, w * h, 0xffff);
    for (const filter of [0, 1, 2, 3, 4] as const) {
      const img = decodeGrayPng(encodeGrayPng(w, h, 16, samples, { filter }));
      expect(img.width).toBe(w);
      expect(img.height).toBe(h);
      expect(img.bitDepth).toBe(16);
      expect(Array.from(img.samples)).toEqual(Array.from(samples));
    }
    const adaptive = decodeGrayPng(encodeGrayPng(w, h, 16, smoothSamples(w, h, 0xffff)));
    expect(Array.from(adaptive.samples)).toEqual(Array.from(smoothSamples(w, h, 0xffff)));
  });

  it('round-trips 8-bit samples exactly with every filter type', () => {
    const rng = new Rng(8);
    const w = 5;
    const h = 131;
    const samples = randomSamples(rng, w * h, 0xff);
    for (const filter of [0, 1, 2, 3, 4] as const) {
      const img = decodeGrayPng(encodeGrayPng(w, h, 8, samples, { filter }));
      expect(img.bitDepth).toBe(8);
      expect(Array.from(img.samples)).toEqual(Array.from(samples));
    }
  });
});

describe('PNG terrain load', () => {
  it('maps black → min, white → max and exact 16-bit levels to heights', () => {
    const w = 3;
    const h = 2;
    const samples = [0, 65535, 32768, 1, 2, 65534];
    const png = encodeGrayPng(w, h, 16, samples);
    const hf = decodeTerrain({ image: 't.png', format: 'png', metersPerPixel: 0.5, heightRange: [-2, 3] }, png);
    const step = 5 / 65535;
    // image row 1 (bottom) is heightfield row 0
    expect(hf.height(0, 0)).toBe(-2 + 1 * step);
    expect(hf.height(1, 0)).toBe(-2 + 2 * step);
    expect(hf.height(2, 0)).toBe(-2 + 65534 * step);
    expect(hf.height(0, 1)).toBe(-2);
    expect(hf.height(1, 1)).toBe(3);
    expect(hf.height(2, 1)).toBeCloseTo(-2 + 32768 * step, 12);
    expect(hf.dx).toBe(0.5);
    expect(hf.dy).toBe(0.5);
  });

  it('puts image row 0 (top of the picture) at the north edge (+y), origin at the south-west vertex', () => {
    // A single bright pixel in the top-left corner of the picture must be the north-west vertex.
    const w = 4;
    const h = 6;
    const samples = new Uint16Array(w * h);
    samples[0] = 65535;
    const hf = decodeTerrain(
      { image: 't.png', format: 'png', metersPerPixel: [1, 2], heightRange: [0, 10], origin: [100, -50] },
      encodeGrayPng(w, h, 16, samples),
    );
    expect(hf.height(0, h - 1)).toBe(10);
    expect(hf.height(0, 0)).toBe(0);
    expect(hf.x0).toBe(100);
    expect(hf.y0).toBe(-50);
    expect(hf.heightAt(100, -50 + 2 * (h - 1))).toBe(10); // north-west corner in world coordinates
    expect(hf.heightAt(100 + 3, -50)).toBe(0);
  });

  it('loads 8-bit PNGs with 255 levels', () => {
    const png = encodeGrayPng(2, 2, 8, [0, 255, 51, 102]);
    const hf = decodeTerrain({ image: 't.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] }, png);
    expect(hf.height(0, 1)).toBe(0);
    expect(hf.height(1, 1)).toBe(1);
    expect(hf.height(0, 0)).toBeCloseTo(0.2, 15);
    expect(hf.height(1, 0)).toBeCloseTo(0.4, 15);
  });

  it('reports non-decreasing progress in steps of at most 5 % ending at exactly 1', () => {
    const w = 300;
    const h = 257;
    const rng = new Rng(3);
    // Random data so the compressed stream spans several inflate slices.
    const png = encodeGrayPng(w, h, 16, randomSamples(rng, w * h, 0xffff), { level: 1 });
    const seen: number[] = [];
    const res = loadTerrain({ image: 't.png', format: 'png', metersPerPixel: 0.1, heightRange: [0, 1] }, png, (f) => seen.push(f));
    expect(res.heightfield.cols).toBe(w);
    expect(seen[seen.length - 1]).toBe(1);
    for (let k = 1; k < seen.length; k++) expect(seen[k]).toBeGreaterThan(seen[k - 1]);
    // Decode + convert (0 → 0.6) must be covered in ≤ 5 % jumps; the Heightfield build is one step.
    let prev = 0;
    for (const f of seen) {
      if (f <= 0.6) expect(f - prev).toBeLessThanOrEqual(0.05 + 1e-12);
      prev = f;
    }
  });
});

describe('PNG rejections', () => {
  const sidecar = { image: 't.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] };
  const good = encodeGrayPng(8, 8, 16, smoothSamples(8, 8, 60000));

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

  /** Rewrite an IHDR field and fix the CRC so only the field is wrong. */
  function withIhdr(png: Uint8Array, offset: number, bytes: number[]): Uint8Array {
    const out = png.slice();
    out.set(bytes, 16 + offset);
    const view = new DataView(out.buffer);
    // CRC of IHDR: type (4) + data (13) from byte 12
    let c = 0xffffffff;
    for (let k = 12; k < 12 + 17; k++) {
      c ^= out[k];
      for (let b = 0; b < 8; b++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    view.setUint32(29, (c ^ 0xffffffff) >>> 0);
    return out;
  }

  it('rejects a truncated file at every cut point class', () => {
    expectTerrainError(() => decodeTerrain(sidecar, good.subarray(0, good.length - 5)), /truncated/);
    expectTerrainError(() => decodeTerrain(sidecar, good.subarray(0, 40)), /truncated/);
    expectTerrainError(() => decodeTerrain(sidecar, good.subarray(0, 6)), /PNG|neither/);
    // Cut right after the IDAT chunk: no IEND.
    expectTerrainError(() => decodeTerrain(sidecar, good.subarray(0, good.length - 12)), /no IEND/);
  });

  it('rejects a CRC mismatch (flipped bit in the image data)', () => {
    const bad = good.slice();
    bad[50] ^= 0x10;
    expectTerrainError(() => decodeTerrain(sidecar, bad), /CRC mismatch in chunk "IDAT"/);
  });

  it('rejects wrong bit depth and colour types with the value found', () => {
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 8, [4])), /bit depth 4/);
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 9, [2])), /colour type 2 \(RGB\)/);
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 9, [3])), /colour type 3 \(palette\)/);
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 12, [1])), /interlace/);
  });

  it('rejects absurd declared sizes before allocating', () => {
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 0, [0x7f, 0xff, 0xff, 0xff])), /width is 2147483647 pixels/);
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 4, [0, 0, 0, 1])), /height is 1 pixels/);
    // Allowed size, but a few hundred compressed bytes cannot inflate to 16385² × 2 bytes: rejected before the 537 MB buffer.
    const huge = withIhdr(withIhdr(good, 0, [0, 0, 0x40, 0x01]), 4, [0, 0, 0x40, 0x01]);
    expectTerrainError(() => decodeTerrain(sidecar, huge), /16385 × 16385 × 16-bit needs 536952835 bytes, more than \d+ compressed bytes can hold/);
  });

  it('rejects image data that inflates to the wrong size', () => {
    // Header claims 9 rows but the stream holds 8.
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 4, [0, 0, 0, 9])), /decompresses to \d+ bytes, but 8 × 9/);
    // Header claims 7 rows: too much data.
    expectTerrainError(() => decodeTerrain(sidecar, withIhdr(good, 4, [0, 0, 0, 7])), /more than/);
  });

  it('rejects a PNG passed with a RAW sidecar and vice versa', () => {
    expectTerrainError(
      () => decodeTerrain({ image: 't.raw', format: 'raw-f32', metersPerPixel: 1, size: [8, 8] }, good),
      /"format": "raw-f32" but "t.raw" is a PNG/,
    );
    expectTerrainError(() => decodeTerrain(sidecar, new Uint8Array(64)), /"format": "png" but "t.png" is neither/);
    expectTerrainError(() => decodeTerrain(sidecar, new Uint8Array(0)), /empty/);
  });
});
