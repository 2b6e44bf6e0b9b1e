/**
 * Fuzzing the recording reader (sim/record/reader.ts, issue #28) with seeded mutations of a real
 * recording (test/unit/record/data/format-v1.mcap) aimed where the reader decides things: the
 * MCAP records' opcodes and u64 lengths, the first fields of each record's content (a chunk's
 * times, uncompressed size, CRC, compression name and records length), plus bit flips, cuts,
 * duplicated and deleted spans.
 *
 * The property, for every input: RecordingReader.open and reading frames (first, last, a few
 * between), keyframes, inputs and events either succeed or throw RecordingError with a message
 * under MAX_MESSAGE_LENGTH characters — never another exception type; the property's peak-RSS
 * growth stays under PEAK_RSS_BUDGET_BYTES. Bounded by counts and sizes (inputs under 100 KB),
 * never by a clock. damaged.test.ts checks that what a damaged file yields equals what was written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../sim/math/random';
import { loadCodecs, type RecordingCodecs } from '../../sim/record/codecs';
import { RecordingError } from '../../sim/record/format';
import { bytesSource } from '../../sim/record/io';
import { RecordingReader } from '../../sim/record/reader';
import { FUZZ_SEED, FUZZ_TIMEOUT_MS, MAX_MESSAGE_LENGTH, PEAK_RSS_BUDGET_BYTES, peakRss, runs } from './fuzz-budget';

const CI_RUNS = 150;
const SEED_FILE = new Uint8Array(readFileSync(join(__dirname, '../unit/record/data/format-v1.mcap')));
/** MCAP: 8 magic bytes, then records of opcode (1 byte), content length (u64 LE), content. */
const MAGIC_BYTES = 8;
/** Values written over u64 and u32 fields: boundaries, sizes a bomb would claim, and small lies. */
const U64_VALUES = [0n, 1n, 7n, 0xffn, 0xffffn, 0xffffffffn, 0x100000000n, 1n << 30n, 1n << 40n, (1n << 53n) + 1n, (1n << 64n) - 1n];

function pick<T>(rng: Rng, a: readonly T[]): T {
  return a[rng.int(0, a.length - 1)];
}

/** Start offsets of the top-level records (stops at the first length that leaves the file). */
function recordStarts(b: Uint8Array): number[] {
  const out: number[] = [];
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = MAGIC_BYTES;
  while (at + 9 <= b.length && out.length < 10_000) {
    out.push(at);
    const len = dv.getBigUint64(at + 1, true);
    if (len > BigInt(b.length)) break;
    at += 9 + Number(len);
  }
  return out;
}

function mutate(src: Uint8Array, rng: Rng): Uint8Array {
  const b = src.slice();
  const dv = new DataView(b.buffer);
  const starts = recordStarts(b);
  const op = rng.int(0, 7);
  if ((op === 0 || op === 1 || op === 2) && starts.length > 0) {
    const r = pick(rng, starts);
    if (op === 0 && r + 9 <= b.length) dv.setBigUint64(r + 1, pick(rng, U64_VALUES), true); // record length
    else if (op === 1) b[r] = rng.int(0, 20); // opcode
    else {
      // a u64 or u32 among the record content's first 40 bytes (chunk: times, sizes, CRC, names)
      const at = r + 9 + 4 * rng.int(0, 9);
      if (at + 8 <= b.length && rng.next() < 0.6) dv.setBigUint64(at, pick(rng, U64_VALUES), true);
      else if (at + 4 <= b.length) dv.setUint32(at, Number(pick(rng, U64_VALUES) & 0xffffffffn), true);
    }
    return b;
  }
  if (op === 3) {
    for (let k = rng.int(1, 8); k > 0; k--) b[rng.int(0, b.length - 1)] ^= 1 << rng.int(0, 7);
    return b;
  }
  if (op === 4) return b.slice(0, rng.int(0, b.length));
  const i = rng.int(0, b.length);
  const j = Math.min(b.length, i + rng.int(1, 2000));
  if (op === 5) return new Uint8Array([...b.subarray(0, j), ...b.subarray(i, j), ...b.subarray(j)]); // duplicated span
  if (op === 6) return new Uint8Array([...b.subarray(0, i), ...b.subarray(j)]); // deleted span
  b.fill(pick(rng, [0, 0xff]), i, j);
  return b;
}

/** Opens and reads a sample of everything; 'ok' or 'refused' (a short RecordingError). */
async function readSample(bytes: Uint8Array, codecs: RecordingCodecs, what: string): Promise<'ok' | 'refused'> {
  try {
    const r = await RecordingReader.open(bytesSource(bytes), { codecs, cacheChunks: 2 });
    const { firstStep, lastStep } = r.info;
    const steps = [firstStep, lastStep, Math.floor((firstStep + lastStep) / 2), firstStep + 1, lastStep - 1];
    for (const s of steps) {
      await r.frameAt(s);
      await r.keyframeAtOrBefore(s);
    }
    await r.inputs();
    await r.events();
    return 'ok';
  } catch (e) {
    if (!(e instanceof RecordingError)) throw new Error(`${what}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    expect(e.message.length, what).toBeLessThan(MAX_MESSAGE_LENGTH);
    return 'refused';
  }
}

describe('recording reader fuzz (issue #28)', () => {
  let codecs: RecordingCodecs;
  beforeAll(async () => {
    codecs = await loadCodecs();
  });

  it(
    `${runs(CI_RUNS)} seeded structural mutations of a recording: read or RecordingError, bounded memory`,
    async () => {
      const rng = new Rng(FUZZ_SEED + 28_201);
      expect(recordStarts(SEED_FILE).length).toBeGreaterThan(5); // the walk finds the records it aims at
      const before = peakRss();
      const seen = { ok: 0, refused: 0 };
      for (let n = 0; n < runs(CI_RUNS); n++) {
        let b: Uint8Array = SEED_FILE;
        for (let k = rng.int(1, 2); k > 0; k--) b = mutate(b, rng);
        seen[await readSample(b, codecs, `input ${n} (seed ${FUZZ_SEED})`)]++;
      }
      expect(peakRss() - before).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
      expect(seen.ok).toBeGreaterThan(runs(CI_RUNS) / 20);
      expect(seen.refused).toBeGreaterThan(runs(CI_RUNS) / 20);
    },
    FUZZ_TIMEOUT_MS,
  );
});
