import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import { Rng } from '../../../sim/math/random';
import { TerrainError } from '../../../sim/terrain/heightfield';
import { decodeGrayPng } from '../../../sim/terrain/png-decode';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';
import { decodeTerrain, loadTerrain } from '../../../sim/terrain/load-terrain';
import { crc32 } from '../../../sim/terrain/crc32';

interface Chunk {
  type: string;
  body: Uint8Array;
}

/** Split a PNG into chunks (trusting it: test input only). */
function chunksOf(png: Uint8Array): Chunk[] {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: Chunk[] = [];
  for (let o = 8; o < png.length; ) {
    const len = v.getUint32(o);
    out.push({ type: String.fromCharCode(...png.subarray(o + 4, o + 8)), body: png.slice(o + 8, o + 8 + len) });
    o += 12 + len;
  }
  return out;
}

/** Re-assemble chunks into a PNG with correct CRCs. */
function pngOf(chunks: Chunk[]): Uint8Array {
  const total = 8 + chunks.reduce((n, c) => n + 12 + c.body.length, 0);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let o = 8;
  for (const c of chunks) {
    v.setUint32(o, c.body.length);
    for (let k = 0; k < 4; k++) out[o + 4 + k] = c.type.charCodeAt(k);
    out.set(c.body, o + 8);
    v.setUint32(o + 8 + c.body.length, crc32(out, o + 4, o + 8 + c.body.length));
    o += 12 + c.body.length;
  }
  return out;
}

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

describe('PNG chunk structure', () => {
  const w = 41;
  const h = 29;
  const samples = smoothSamples(w, h, 65535);
  const [ihdr, idat, iend] = chunksOf(encodeGrayPng(w, h, 16, samples));

  it('IDAT split into many chunks (as libpng writes 8 KiB ones), ancillary chunks skipped', () => {
    const parts: Chunk[] = [];
    for (let s = 0; s < idat.body.length; s += 37) parts.push({ type: 'IDAT', body: idat.body.slice(s, s + 37) });
    const text = { type: 'tEXt', body: new TextEncoder().encode('Software\0test') };
    const gama = { type: 'gAMA', body: new Uint8Array([0, 0, 0xb1, 0x8f]) };
    const img = decodeGrayPng(pngOf([ihdr, gama, text, ...parts, text, iend]));
    expect(Array.from(img.samples)).toEqual(Array.from(samples));
  });

  it('rejects an unknown critical chunk, a missing IHDR, a PNG without IDAT', () => {
    expect(() => decodeGrayPng(pngOf([ihdr, { type: 'ABCD', body: new Uint8Array(2) }, idat, iend]))).toThrow(/unknown critical chunk "ABCD"/);
    expect(() => decodeGrayPng(pngOf([idat, iend]))).toThrow(/first chunk is "IDAT", expected "IHDR"/);
    expect(() => decodeGrayPng(pngOf([ihdr, iend]))).toThrow(/no image data/);
  });

  it('rejects an invalid row filter type', () => {
    // Filtered image data of the right size, all zero except filter byte 5 on row 3.
    const raw = new Uint8Array((2 * w + 1) * h);
    raw[3 * (2 * w + 1)] = 5;
    const deflated = zlibSync(raw);
    expect(() => decodeGrayPng(pngOf([ihdr, { type: 'IDAT', body: deflated }, iend]))).toThrow(/row 3 has filter type 5/);
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
