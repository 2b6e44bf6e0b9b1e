/**
 * Fuzzing every terrain loader (issue #18): PNG, GeoTIFF, RAW and the sidecar, seeded with
 * fast-check, a fixed number of inputs per loader (fuzz-budget.ts). The property, for every input:
 *
 *   it loads into a Heightfield whose heights, spacing and origin are finite, or it throws a
 *   TerrainError (the documented error) with a message under MAX_MESSAGE_LENGTH characters;
 *   never a RangeError/TypeError, never a hang, within PER_INPUT_BUDGET_MS, and the property's
 *   peak-RSS growth stays under PEAK_RSS_BUDGET_BYTES.
 *
 * Inputs are mutations of valid files, aimed where the parsers decide things: PNG chunks with
 * their CRCs recomputed after the edit (else the CRC check rejects nearly everything and the
 * decoder behind it is never reached), TIFF IFD entries rewritten with boundary types, counts and
 * values, RAW files of near-miss sizes full of special floats, sidecars with hostile values
 * (NaN, 1e308, 1e-320, deep nesting, objects whose toString is not a function). Files in
 * test/fixtures/bad-inputs/ (issue examples and inputs fuzzing found) are replayed first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerrainError } from '../../sim/terrain/heightfield';
import { loadTerrain } from '../../sim/terrain/load-terrain';
import { encodeGrayPng } from '../../sim/terrain/png-encode';
import { writeTiff, type TiffSpec } from '../unit/terrain/tiff-writer';
import { FUZZ_SEED, FUZZ_TIMEOUT_MS, MAX_MESSAGE_LENGTH, PEAK_RSS_BUDGET_BYTES, PER_INPUT_BUDGET_MS, peakRss, runs, timed } from './fuzz-budget';

const BAD_INPUTS = join(__dirname, '../fixtures/bad-inputs');

/** Inputs per loader in CI. */
const CI_RUNS = { png: 2500, geotiff: 3000, raw: 2000, sidecar: 3000 };

type Outcome = 'ok' | 'rejected';

/** The property: loads to finite data, or a short TerrainError, within the time budget. */
function check(sidecar: unknown, data: Uint8Array): Outcome {
  let outcome: Outcome = 'ok';
  const ms = timed(() => {
    try {
      const res = loadTerrain(sidecar, data);
      const hf = res.heightfield;
      for (const v of [hf.dx, hf.dy, hf.x0, hf.y0, hf.minHeight, hf.maxHeight]) {
        if (!Number.isFinite(v)) throw new Error(`loaded with a non-finite field ${v}`);
      }
      const h = hf.heights;
      for (let k = 0; k < h.length; k++) if (!Number.isFinite(h[k])) throw new Error(`non-finite height ${h[k]} at ${k}`);
    } catch (err) {
      if (!(err instanceof TerrainError)) {
        throw new Error(`not a TerrainError: ${err instanceof Error ? `${err.name}: ${err.message.slice(0, 300)}` : typeof err}`);
      }
      if (err.message.length > MAX_MESSAGE_LENGTH) throw new Error(`message of ${err.message.length} characters: ${err.message.slice(0, 200)}...`);
      outcome = 'rejected';
    }
  });
  if (ms > PER_INPUT_BUDGET_MS) throw new Error(`took ${ms.toFixed(0)} ms of CPU (budget ${PER_INPUT_BUDGET_MS} ms)`);
  return outcome;
}

/** Runs a fast-check property and asserts the memory budget and that both outcomes occurred. */
function fuzz<T>(name: string, arb: fc.Arbitrary<T>, seedOffset: number, numRuns: number, body: (input: T) => Outcome, expectBoth = true): void {
  const tally = { ok: 0, rejected: 0 };
  const before = peakRss();
  fc.assert(
    fc.property(arb, (input) => {
      tally[body(input)]++;
    }),
    { seed: FUZZ_SEED + seedOffset, numRuns, endOnFailure: true },
  );
  expect(peakRss() - before, `${name}: peak RSS growth`).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
  if (expectBoth) {
    // A fuzzer whose inputs all fail at the first check (or all pass) tests nothing deeper.
    expect(tally.ok, `${name}: some inputs load`).toBeGreaterThan(0);
    expect(tally.rejected, `${name}: some inputs are rejected`).toBeGreaterThan(0);
  }
}

// ---- shared value generators ------------------------------------------------------------------

const SPECIAL_NUMBERS = [
  0, -0, 1, -1, 0.5, 1.5, 2, 3, 7, 16, 255, 256, 65535, 65536, 16384, 16385, 16386, 1e-4, 2e5, 1e5, 1e8,
  NaN, Infinity, -Infinity, 1e308, -1e308, 1e-320, 5e-324, 2 ** 31, 2 ** 32, 2 ** 32 - 1, 2 ** 53, Number.MAX_SAFE_INTEGER,
];
const specialNumber = fc.constantFrom(...SPECIAL_NUMBERS);
const SPECIAL_U32 = [0, 1, 2, 3, 4, 5, 8, 12, 16, 255, 256, 1000, 4096, 16384, 16385, 65535, 65536, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
const u32 = fc.oneof(fc.constantFrom(...SPECIAL_U32), fc.nat({ max: 0xffffffff }));

/** A value nested `depth` arrays deep. */
function deep(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let k = 0; k < depth; k++) v = [v];
  return v;
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  specialNumber,
  fc.tuple(specialNumber, specialNumber),
  fc.tuple(specialNumber, specialNumber, specialNumber),
  fc.integer({ min: 1, max: 30_000 }).map((d) => deep(d, 1)),
  fc.constant({ toString: 1 }),
  fc.constant({ valueOf: () => 3, toString: () => { throw new Error('toString'); } }),
  fc.constant(Object.create(null)),
  fc.string({ maxLength: 40 }),
  fc.constant('x'.repeat(100_000)),
  fc.anything({ maxDepth: 3 }),
);

// ---- PNG ------------------------------------------------------------------------------------------

function crc32(d: Uint8Array, start: number, end: number): number {
  let c = ~0;
  for (let k = start; k < end; k++) {
    c ^= d[k];
    for (let b = 0; b < 8; b++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** Recompute the CRC of every chunk whose declared length fits the file. */
function fixPngCrcs(d: Uint8Array): void {
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  let o = 8;
  while (o + 12 <= d.length) {
    const len = v.getUint32(o);
    if (o + 12 + len > d.length) return;
    v.setUint32(o + 8 + len, crc32(d, o + 4, o + 8 + len));
    o += 12 + len;
  }
}

const PNG_W = 19;
const PNG_H = 13;
const pngSeeds = [
  encodeGrayPng(PNG_W, PNG_H, 16, Array.from({ length: PNG_W * PNG_H }, (_, k) => (k * 977) % 65536)),
  encodeGrayPng(PNG_W, PNG_H, 8, Array.from({ length: PNG_W * PNG_H }, (_, k) => (k * 31) % 256)),
  encodeGrayPng(3, 2, 16, [0, 1, 2, 65535, 4, 5]),
];

const pngMutation = fc.record({
  seed: fc.nat({ max: pngSeeds.length - 1 }),
  // IHDR fields at 16..28: width, height (u32), depth, colour, compression, filter, interlace.
  ihdr: fc.option(fc.record({ field: fc.nat({ max: 6 }), value: u32 }), { nil: undefined }),
  edits: fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 4 }),
  truncate: fc.option(fc.nat(), { nil: undefined }),
  fixCrc: fc.boolean(),
});

type Generated<A> = A extends fc.Arbitrary<infer R> ? R : never;

function buildPng(m: Generated<typeof pngMutation>): Uint8Array {
  let d = pngSeeds[m.seed].slice();
  const v = new DataView(d.buffer);
  if (m.ihdr) {
    if (m.ihdr.field <= 1) v.setUint32(16 + 4 * m.ihdr.field, m.ihdr.value);
    else d[24 + m.ihdr.field - 2] = m.ihdr.value & 0xff;
  }
  for (const [at, b] of m.edits) d[8 + (at % (d.length - 8))] = b; // keep the signature: reach the parser
  if (m.fixCrc) fixPngCrcs(d);
  if (m.truncate !== undefined) d = d.slice(0, m.truncate % (d.length + 1));
  return d;
}

const pngSidecar = { image: 'f.png', format: 'png', metersPerPixel: 0.5, heightRange: [-10, 90] };

// ---- GeoTIFF --------------------------------------------------------------------------------------

const geo: Partial<TiffSpec> = { pixelScale: [2, 2, 0], tiepoint: [0, 0, 0, 500000, 4000000, 0], geoKeys: [[1024, 1], [3072, 32633]] };
const values = Array.from({ length: 21 * 11 }, (_, k) => ((k * 7919) % 2000) - 500);
const tiffSeeds = [
  writeTiff({ width: 21, height: 11, kind: 'int16', values, ...geo }),
  writeTiff({ width: 21, height: 11, kind: 'int16', values, compression: 'deflate', predictor: 2, tile: [16, 16], ...geo }),
  writeTiff({ width: 21, height: 11, kind: 'float32', values, compression: 'lzw', predictor: 3, rowsPerStrip: 4, littleEndian: false, ...geo }),
  writeTiff({ width: 21, height: 11, kind: 'int32', values, compression: 'packbits', rowsPerStrip: 5, ...geo }),
  writeTiff({ width: 21, height: 11, kind: 'float64', values, compression: 'deflate', rowsPerStrip: 3, noData: '-500', ...geo }),
  writeTiff({ width: 21, height: 11, kind: 'uint8', values: values.map((x) => x & 0xff), geoKeys: [[1024, 2]], pixelScale: [0.001, 0.001, 0], tiepoint: [0, 0, 0, 7, 46, 0] }),
];

const tiffMutation = fc.record({
  seed: fc.nat({ max: tiffSeeds.length - 1 }),
  entries: fc.array(
    fc.record({ index: fc.nat({ max: 40 }), field: fc.constantFrom('type', 'count', 'value'), value: u32 }),
    { maxLength: 3 },
  ),
  edits: fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 4 }),
  truncate: fc.option(fc.nat(), { nil: undefined }),
  noData: fc.constantFrom<'reject' | 'fill-min'>('reject', 'fill-min'),
  withSidecar: fc.boolean(),
});

function buildTiff(m: Generated<typeof tiffMutation>): Uint8Array {
  let d = tiffSeeds[m.seed].slice();
  const v = new DataView(d.buffer);
  const le = d[0] === 0x49;
  const n = v.getUint16(8, le);
  for (const e of m.entries) {
    const o = 10 + (e.index % n) * 12;
    if (e.field === 'type') v.setUint16(o + 2, e.value % 14, le);
    else if (e.field === 'count') v.setUint32(o + 4, e.value, le);
    else v.setUint32(o + 8, e.value, le);
  }
  for (const [at, b] of m.edits) d[4 + (at % (d.length - 4))] = b;
  if (m.truncate !== undefined) d = d.slice(0, m.truncate % (d.length + 1));
  return d;
}

// ---- RAW --------------------------------------------------------------------------------------------

const SPECIAL_FLOATS = [0, -0, 1, -1, 1e5, -1e5, 1e5 + 1, 3.4e38, -3.4e38, NaN, Infinity, -Infinity, 1e-45, 100.5];
const rawInput = fc.record({
  cols: fc.oneof(fc.integer({ min: 1, max: 24 }), fc.constantFrom(0, 16385, 16386, 1.5, -2, NaN)),
  rows: fc.oneof(fc.integer({ min: 1, max: 24 }), fc.constantFrom(0, 16385, 1e308)),
  lengthDelta: fc.constantFrom(0, 0, 0, 0, -1, 1, -4, 4, -1000),
  little: fc.boolean(),
  floats: fc.array(fc.oneof(fc.float({ noDefaultInfinity: false }), fc.constantFrom(...SPECIAL_FLOATS)), { minLength: 1, maxLength: 64 }),
  heightRange: fc.option(fc.tuple(specialNumber, specialNumber), { nil: undefined }),
  spacing: fc.oneof(fc.constant(1), specialNumber),
});

function buildRaw(r: Generated<typeof rawInput>): { sidecar: unknown; data: Uint8Array } {
  const cells = Number.isInteger(r.cols) && Number.isInteger(r.rows) && r.cols > 0 && r.rows > 0 && r.cols * r.rows < 1e5 ? r.cols * r.rows : 16;
  const length = Math.max(0, cells * 4 + r.lengthDelta);
  const data = new Uint8Array(length);
  const v = new DataView(data.buffer);
  for (let k = 0; k + 4 <= length; k += 4) v.setFloat32(k, r.floats[(k / 4) % r.floats.length], r.little);
  const sidecar: Record<string, unknown> = { image: 'f.raw', format: 'raw-f32', metersPerPixel: r.spacing, size: [r.cols, r.rows], endianness: r.little ? 'little' : 'big' };
  if (r.heightRange) sidecar.heightRange = r.heightRange;
  return { sidecar, data };
}

// ---- sidecar ------------------------------------------------------------------------------------------

const SIDECAR_KEYS = ['image', 'format', 'metersPerPixel', 'heightRange', 'origin', 'size', 'endianness', 'noData', 'name', 'description', 'source'];
const validSidecar = { image: 'f.png', format: 'png', metersPerPixel: 0.5, heightRange: [0, 10], origin: [3, 4], name: 'n' };
const sidecarInput = fc.oneof(
  // a valid sidecar with one to three fields replaced by hostile values (or removed)
  fc.array(fc.tuple(fc.constantFrom(...SIDECAR_KEYS, '__proto__', 'constructor', 'metresPerPixel'), fc.option(hostileValue, { nil: undefined })), { minLength: 1, maxLength: 3 }).map(
    (edits) => {
      const s: Record<string, unknown> = { ...validSidecar };
      for (const [k, v] of edits) {
        if (v === undefined) delete s[k];
        else Object.defineProperty(s, k, { value: v, enumerable: true, configurable: true, writable: true });
      }
      return s as unknown;
    },
  ),
  // the same as JSON text, sometimes cut or with a deep value spliced in
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 25_000 })).map(([cut, depth]) => {
    // Built as text: JSON.stringify itself overflows the stack on deep values.
    const text = `{"image":"f.png","format":"png","metersPerPixel":0.5,"heightRange":[0,10],"origin":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
    return cut % 3 === 0 ? text.slice(0, cut % text.length) : text;
  }),
  fc.json({ maxDepth: 4 }),
  fc.anything({ maxDepth: 4, withNullPrototype: true, withBigInt: true }),
);
const pngForSidecars = encodeGrayPng(4, 3, 8, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110]);

// ---- the properties -------------------------------------------------------------------------------------

describe('fuzz: regression inputs (test/fixtures/bad-inputs)', () => {
  it('every stored input loads or gives a TerrainError', () => {
    const files = readdirSync(BAD_INPUTS).sort();
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(join(BAD_INPUTS, f)));
      if (f.endsWith('.sidecar.json')) check(new TextDecoder().decode(bytes), pngForSidecars);
      else if (f.endsWith('.png')) check(pngSidecar, bytes);
      else check(null, bytes);
    }
  });
});

describe('fuzz: terrain loaders (seeded, fixed counts)', () => {
  it(`PNG: ${runs(CI_RUNS.png)} mutated files (IHDR fields, bytes, truncation, CRCs recomputed)`, () => {
    fuzz('PNG', pngMutation, 1, runs(CI_RUNS.png), (m) => check(pngSidecar, buildPng(m)));
  }, FUZZ_TIMEOUT_MS);

  it(`GeoTIFF: ${runs(CI_RUNS.geotiff)} mutated files (IFD entry types, counts, values; bytes; truncation)`, () => {
    fuzz('GeoTIFF', tiffMutation, 2, runs(CI_RUNS.geotiff), (m) =>
      check(m.withSidecar ? { image: 'f.tif', format: 'geotiff', noData: m.noData, metersPerPixel: 1 } : null, buildTiff(m)),
    );
  }, FUZZ_TIMEOUT_MS);

  it(`RAW: ${runs(CI_RUNS.raw)} files of near-miss sizes with special floats`, () => {
    fuzz('RAW', rawInput, 3, runs(CI_RUNS.raw), (r) => {
      const { sidecar, data } = buildRaw(r);
      return check(sidecar, data);
    });
  }, FUZZ_TIMEOUT_MS);

  it(`sidecar: ${runs(CI_RUNS.sidecar)} hostile sidecars (values, deep nesting, JSON text, anything)`, () => {
    fuzz('sidecar', sidecarInput, 4, runs(CI_RUNS.sidecar), (s) => check(s, pngForSidecars));
  }, FUZZ_TIMEOUT_MS);
});
