/**
 * Damaged recordings: cut at random bytes, single bit flips, wrong versions and profiles.
 * The contract: a RecordingError that says what and where, or data that equals what was written
 * (a cut file's valid prefix, with a notice) — never another exception, never wrong data.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { McapWriter } from '@mcap/core';
import { Rng } from '../../../sim/math/random';
import { bytesSource, MemorySink } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { RecordingError } from '../../../sim/record/format';
import { frameMismatch, makeFixture, type Fixture } from './fixture';

const CUTS = 200;
const FLIPS = 200;

/** Opens and reads everything; returns 'error' (a RecordingError) or what was readable. */
async function readAll(fx: Fixture, bytes: Uint8Array): Promise<{ kind: 'error'; error: RecordingError } | { kind: 'ok'; reader: RecordingReader; frames: number; problems: string[] }> {
  try {
    const r = await RecordingReader.open(bytesSource(bytes), { codecs: fx.codecs, cacheChunks: 4 });
    const problems: string[] = [];
    let frames = 0;
    const byStep = new Map(fx.frames.map((f) => [f.step, f]));
    for (let s = r.info.firstStep; s <= r.info.lastStep; s++) {
      const got = await r.frameAt(s);
      if (got === null) {
        if (byStep.has(s)) problems.push(`step ${s}: frame missing inside the readable range`);
        continue;
      }
      frames++;
      const want = byStep.get(s);
      const bad = want ? frameMismatch(got, want) : 'a frame that was never written';
      if (bad) problems.push(`step ${s}: ${bad}`);
    }
    // Inputs, keyframes and events up to the last readable step must all be there (the writer
    // writes them before the step's frame), and nothing else.
    const last = r.info.lastStep;
    const inputs = await r.inputs();
    const wantInputs = fx.inputs.filter((w) => w.step <= last);
    if (JSON.stringify(inputs) !== JSON.stringify(wantInputs)) problems.push(`inputs differ: ${inputs.length} read, ${wantInputs.length} written up to step ${last}`);
    const wantKf = fx.keyframes.filter((w) => w.step <= last).map((w) => w.step);
    if (JSON.stringify(r.info.keyframeSteps) !== JSON.stringify(wantKf)) problems.push(`keyframe steps ${r.info.keyframeSteps} ≠ ${wantKf}`);
    for (const s of r.info.keyframeSteps) {
      const k = await r.keyframeAtOrBefore(s);
      const want = fx.keyframes.find((w) => w.step === k?.step);
      if (!k || !want) problems.push(`keyframe at or before ${s}: ${k ? `step ${k.step} was never written` : 'none'}`);
      else if (k.hash !== want.hash || k.throttle !== want.throttle || k.steer !== want.steer || k.bytes.length !== want.bytes.length || k.bytes.some((b, i) => b !== want.bytes[i])) problems.push(`keyframe ${k.step} differs`);
    }
    const events = await r.events();
    const wantEvents = fx.events.filter((w) => w.step <= last);
    if (JSON.stringify(events) !== JSON.stringify(wantEvents)) problems.push(`events differ: ${events.length} read, ${wantEvents.length} written up to step ${last}`);
    if (r.info.buildId !== fx.header.buildId) problems.push(`build id ${r.info.buildId}`);
    if (JSON.stringify(r.info.scenario) !== JSON.stringify(fx.header.scenario)) problems.push('scenario differs');
    return { kind: 'ok', reader: r, frames, problems };
  } catch (e) {
    if (e instanceof RecordingError) return { kind: 'error', error: e };
    throw e; // any other exception type fails the test
  }
}

describe('damaged recordings', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await makeFixture({ seed: 21, steps: 360 });
  });

  it(`cut at ${CUTS} random bytes: a clear error, or the valid prefix with a notice`, async () => {
    const rng = new Rng(2024);
    let prefixes = 0;
    let errors = 0;
    for (let k = 0; k < CUTS; k++) {
      const cut = rng.int(1, fx.bytes.length - 1);
      const res = await readAll(fx, fx.bytes.subarray(0, cut));
      if (res.kind === 'error') {
        errors++;
        expect(res.error.message.length, `cut at ${cut}`).toBeGreaterThan(10);
        continue;
      }
      prefixes++;
      expect(res.problems, `cut at ${cut}`).toEqual([]);
      expect(res.reader.info.notice, `cut at ${cut}`).toMatch(/recording ends at step \d+|summary is missing or damaged/);
      expect(res.reader.info.mode).toBe('scan');
      // The readable prefix is all frames from 0 up to the reported last step.
      expect(res.frames, `cut at ${cut}`).toBe(res.reader.info.lastStep + 1);
    }
    // Most cuts land in the data section after the first chunks: a prefix replays.
    expect(prefixes).toBeGreaterThan(CUTS * 0.6);
    expect(prefixes + errors).toBe(CUTS);
  });

  it('delta frames (resting bodies): 60 cuts and 60 bit flips give a clear error or exactly what was written', async () => {
    const dx = await makeFixture({ seed: 22, steps: 360, evolving: true });
    const rng = new Rng(2025);
    let prefixes = 0;
    let caught = 0;
    for (let k = 0; k < 60; k++) {
      const cut = rng.int(1, dx.bytes.length - 1);
      const res = await readAll(dx, dx.bytes.subarray(0, cut));
      if (res.kind === 'error') continue;
      prefixes++;
      expect(res.problems, `cut at ${cut}`).toEqual([]);
      expect(res.frames, `cut at ${cut}`).toBe(res.reader.info.lastStep + 1);
    }
    for (let k = 0; k < 60; k++) {
      const bytes = dx.bytes.slice();
      const at = rng.int(0, bytes.length - 1);
      bytes[at] ^= 1 << rng.int(0, 7);
      const res = await readAll(dx, bytes);
      if (res.kind === 'error') caught++;
      else expect(res.problems, `bit flip at byte ${at}`).toEqual([]);
    }
    expect(prefixes).toBeGreaterThan(30);
    expect(caught).toBeGreaterThan(20);
  });

  it('a cut file says where it ends: "recording ends at step N: the file was cut after byte B"', async () => {
    const cut = Math.floor(fx.bytes.length * 0.5);
    const res = await readAll(fx, fx.bytes.subarray(0, cut));
    expect(res.kind).toBe('ok');
    if (res.kind !== 'ok') return;
    const n = res.reader.info.lastStep;
    expect(res.reader.info.notice).toBe(`recording ends at step ${n}: the file was cut after byte ${cut}; the last chunk was lost`);
    expect(n).toBeGreaterThan(90);
    expect(n).toBeLessThan(270);
  });

  it(`${FLIPS} single bit flips: a clear error, or data equal to what was written`, async () => {
    const rng = new Rng(77);
    let errors = 0;
    let intact = 0;
    for (let k = 0; k < FLIPS; k++) {
      const bytes = fx.bytes.slice();
      const at = rng.int(0, bytes.length - 1);
      bytes[at] ^= 1 << rng.int(0, 7);
      const res = await readAll(fx, bytes);
      if (res.kind === 'error') {
        errors++;
        continue;
      }
      expect(res.problems, `bit flip at byte ${at}`).toEqual([]);
      intact++;
    }
    // Chunks are most of the file and CRC'd: most flips are caught.
    expect(errors).toBeGreaterThan(FLIPS * 0.5);
    expect(errors + intact).toBe(FLIPS);
  });

  it('a damaged chunk in the middle is reported with its byte offset when read', async () => {
    const r0 = await RecordingReader.open(bytesSource(fx.bytes), { codecs: fx.codecs });
    const bytes = fx.bytes.slice();
    // Flip a byte well inside the compressed records of the chunk that holds step 300.
    const chunks = (r0 as unknown as { chunks: { offset: number; recordLength: number; startStep: number; endStep: number }[] }).chunks;
    const c = chunks.find((x) => x.startStep <= 300 && x.endStep >= 300)!;
    bytes[c.offset + Math.floor(c.recordLength / 2)] ^= 0x10;
    const r = await RecordingReader.open(bytesSource(bytes), { codecs: fx.codecs });
    expect(await r.frameAt(10)).not.toBeNull();
    await expect(r.frameAt(300)).rejects.toThrow(new RegExp(`chunk at byte ${c.offset}`));
    await expect(r.frameAt(300)).rejects.toBeInstanceOf(RecordingError);
  });

  it('wrong MCAP version, wrong profile, newer format version and non-MCAP files give clear errors', async () => {
    const v1 = fx.bytes.slice();
    v1[5] = '1'.charCodeAt(0);
    await expect(RecordingReader.open(bytesSource(v1), { codecs: fx.codecs })).rejects.toThrow(/unsupported MCAP version "1"/);

    const other = async (profile: string, meta: Map<string, string> | null): Promise<Uint8Array> => {
      const sink = new MemorySink();
      const w = new McapWriter({ writable: { write: async (b: Uint8Array) => sink.write(b), position: () => BigInt(sink.byteLength) } });
      await w.start({ profile, library: 'test' });
      if (meta) await w.addMetadata({ name: 'terrawheel.recording', metadata: meta });
      await w.end();
      return sink.bytes();
    };
    await expect(RecordingReader.open(bytesSource(await other('ros2', null)), { codecs: fx.codecs })).rejects.toThrow(/not a TerraWheel recording: MCAP profile "ros2"/);
    await expect(RecordingReader.open(bytesSource(await other('terrawheel', new Map([['formatVersion', '5'], ['json', '{}'], ['crc32', '0']]))), { codecs: fx.codecs })).rejects.toThrow(
      /format version 5, newer than this build reads \(4\)/,
    );
    await expect(RecordingReader.open(bytesSource(await other('terrawheel', null)), { codecs: fx.codecs })).rejects.toThrow(/no "terrawheel.recording" metadata/);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(64).fill(0)]);
    await expect(RecordingReader.open(bytesSource(png), { codecs: fx.codecs })).rejects.toThrow(/does not start with the MCAP magic/);
    await expect(RecordingReader.open(bytesSource(new Uint8Array(3)), { codecs: fx.codecs })).rejects.toThrow(/too few/);
  });
});
