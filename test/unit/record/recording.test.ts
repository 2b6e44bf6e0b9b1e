/**
 * Round trip of a recording: every frame, input, keyframe and event read back equals what was
 * written; the file is a valid indexed MCAP for @mcap/core with the expected channels and
 * message counts; every Foxglove/JSON message validates against the schema stored in the file.
 */
import { describe, expect, it } from 'vitest';
import { McapIndexedReader } from '@mcap/core';
import { Rng } from '../../../sim/math/random';
import { bytesSource } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { TOPIC } from '../../../sim/record/format';
import { RecordingWriter } from '../../../sim/record/writer';
import { MemorySink, blobSource } from '../../../sim/record/io';
import { NO_COMPRESSION } from '../../../sim/record/codecs';
import { randomFrame } from './synthetic';
import { DT, FIXTURE_BODIES, frameMismatch, makeFixture } from './fixture';
import { checkJsonSchema } from './json-schema-check';

function mcapReadable(bytes: Uint8Array) {
  return {
    size: async () => BigInt(bytes.length),
    read: async (offset: bigint, length: bigint) => bytes.subarray(Number(offset), Number(offset + length)),
  };
}

describe('recording round trip', () => {
  it('reads back every frame exactly (f64), and inputs, keyframes, events and the header', async () => {
    const fx = await makeFixture({ seed: 11 });
    const r = await RecordingReader.open(bytesSource(fx.bytes), { codecs: fx.codecs });
    expect(r.info.mode).toBe('indexed');
    expect(r.info.notice).toBeNull();
    expect(r.info.firstStep).toBe(0);
    expect(r.info.lastStep).toBe(599);
    expect(r.info.buildId).toBe('test-build-1');
    expect(r.info.assets).toEqual(fx.header.assets);
    expect(r.info.parent).toEqual(fx.header.parent);
    expect(r.info.scenario).toEqual(fx.header.scenario);
    expect(r.info.dt).toBe(DT);
    expect(r.info.metadata.bodies).toEqual(FIXTURE_BODIES);
    expect(r.info.keyframeSteps).toEqual(fx.keyframes.map((k) => k.step));
    expect(r.info.chunkCount).toBeGreaterThan(10);
    for (const f of fx.frames) {
      const got = await r.frameAt(f.step);
      expect(got, `step ${f.step}`).not.toBeNull();
      expect(frameMismatch(got!, f), `step ${f.step}`).toBeNull();
    }
    expect(await r.frameAt(600)).toBeNull();
    expect(await r.inputs()).toEqual(fx.inputs);
    expect(await r.inputs(100, 200)).toEqual(fx.inputs.filter((i) => i.step >= 100 && i.step <= 200));
    expect(await r.events()).toEqual(fx.events);
    const rng = new Rng(5);
    for (let k = 0; k < 40; k++) {
      const s = rng.int(0, 700);
      const want = [...fx.keyframes].reverse().find((kf) => kf.step <= s)!;
      expect(await r.keyframeAtOrBefore(s)).toEqual(want);
    }
    // framesIn yields the same frames in order.
    const seen: number[] = [];
    for await (const f of r.framesIn(590, 1000)) seen.push(f.step);
    expect(seen).toEqual([590, 591, 592, 593, 594, 595, 596, 597, 598, 599]);
  });

  it('reads back f32 frames as the f32 rounding of what was written, also without shuffle', async () => {
    for (const shuffle of [true, false]) {
      const fx = await makeFixture({ seed: 12, steps: 200, encoding: { f32: true, shuffle } });
      const r = await RecordingReader.open(bytesSource(fx.bytes), { codecs: fx.codecs });
      for (const f of fx.frames) expect(frameMismatch((await r.frameAt(f.step))!, f, true), `step ${f.step}`).toBeNull();
    }
  });

  it('a branch that starts at a later step keeps its step numbers and writes a keyframe first', async () => {
    const fx = await makeFixture({ seed: 13, steps: 100, firstStep: 5000 });
    const r = await RecordingReader.open(bytesSource(fx.bytes), { codecs: fx.codecs });
    expect(r.info.firstStep).toBe(5000);
    expect(r.info.keyframeSteps[0]).toBe(5000);
    expect(frameMismatch((await r.frameAt(5050))!, fx.frames[50])).toBeNull();
  });

  it('is an indexed MCAP file with the expected channels, schemas and message counts', async () => {
    const fx = await makeFixture({ seed: 14 });
    const m = await McapIndexedReader.Initialize({ readable: mcapReadable(fx.bytes), decompressHandlers: { zstd: (d, n) => fx.codecs.decompress.zstd(d, Number(n)) } });
    expect(m.header.profile).toBe('terrawheel');
    const topics = new Map([...m.channelsById.values()].map((c) => [c.topic, c]));
    expect([...topics.keys()].sort()).toEqual(Object.values(TOPIC).sort());
    const schemaOf = (topic: string) => m.schemasById.get(topics.get(topic)!.schemaId)!;
    expect(schemaOf(TOPIC.transforms).name).toBe('foxglove.FrameTransforms');
    expect(schemaOf(TOPIC.scene).name).toBe('foxglove.SceneUpdate');
    expect(schemaOf(TOPIC.contacts).name).toBe('foxglove.SceneUpdate');
    expect(schemaOf(TOPIC.transforms).encoding).toBe('jsonschema');
    const foxEvery = fx.writer.metadata.foxgloveEvery;
    expect(foxEvery).toBe(8);
    const foxCount = Math.ceil(600 / foxEvery);
    const expected: Record<string, number> = {
      [TOPIC.frame]: 600,
      [TOPIC.keyframe]: 10,
      [TOPIC.input]: fx.inputs.length,
      [TOPIC.event]: 2,
      [TOPIC.scene]: 1,
      [TOPIC.transforms]: foxCount,
      [TOPIC.contacts]: foxCount,
      [TOPIC.wheels]: foxCount,
    };
    // Random frames: every body moves at every step and the contacts are not in bodyA order, so
    // nothing is ever resting (test/unit/record/delta.test.ts covers the resting channels).
    expect(schemaOf(TOPIC.transformsResting).name).toBe('foxglove.FrameTransforms');
    expect(schemaOf(TOPIC.contactsResting).name).toBe('foxglove.SceneUpdate');
    const counted: Record<string, number> = {};
    for await (const msg of m.readMessages()) {
      const topic = m.channelsById.get(msg.channelId)!.topic;
      counted[topic] = (counted[topic] ?? 0) + 1;
    }
    expect(counted).toEqual(expected);
    for (const [topic, n] of Object.entries(expected)) expect(m.statistics!.channelMessageCounts.get(topics.get(topic)!.id)).toBe(BigInt(n));
    expect(m.statistics!.channelMessageCounts.get(topics.get(TOPIC.transformsResting)!.id) ?? 0n).toBe(0n);
    expect(m.chunkIndexes.every((c) => c.compression === 'zstd')).toBe(true);
    expect(m.metadataIndexes.map((x) => x.name)).toEqual(['terrawheel.recording']);
    expect(m.attachmentIndexes.map((x) => x.name)).toEqual(['scenario.json']);
  });

  it('every JSON message validates against its channel schema (Foxglove, input, event, wheels)', async () => {
    const fx = await makeFixture({ seed: 15, steps: 240 });
    const m = await McapIndexedReader.Initialize({ readable: mcapReadable(fx.bytes), decompressHandlers: { zstd: (d, n) => fx.codecs.decompress.zstd(d, Number(n)) } });
    const dec = new TextDecoder();
    let checked = 0;
    let arrows = 0;
    for await (const msg of m.readMessages()) {
      const ch = m.channelsById.get(msg.channelId)!;
      if (ch.messageEncoding !== 'json') continue;
      const schema = JSON.parse(dec.decode(m.schemasById.get(ch.schemaId)!.data));
      const value = JSON.parse(dec.decode(msg.data));
      expect(checkJsonSchema(schema, value), `${ch.topic} at ${msg.logTime}`).toEqual([]);
      if (ch.topic === TOPIC.contacts) arrows += value.entities[0].arrows.length;
      checked++;
    }
    expect(checked).toBeGreaterThan(90);
    expect(arrows).toBeGreaterThan(0);
  });

  it('the schema checker rejects a message with a missing or mistyped field', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer', minimum: 0 }, b: { type: 'array', items: { type: 'string' } } }, required: ['a', 'b'] };
    expect(checkJsonSchema(schema, { a: 1, b: ['x'] })).toEqual([]);
    expect(checkJsonSchema(schema, { a: 1 })).not.toEqual([]);
    expect(checkJsonSchema(schema, { a: 1.5, b: [] })).not.toEqual([]);
    expect(checkJsonSchema(schema, { a: -1, b: [] })).not.toEqual([]);
    expect(checkJsonSchema(schema, { a: 1, b: [3] })).not.toEqual([]);
  });

  it('uncompressed chunks (a host without the WASM codecs) and a Blob source read back the same', async () => {
    const sink = new MemorySink();
    const w = await RecordingWriter.create(sink, { scenario: { a: 1 }, buildId: 'b', dt: DT, bodies: FIXTURE_BODIES }, { codecs: NO_COMPRESSION, chunkBytes: 4096, frameEncoding: { f32: false, shuffle: true } });
    const rng = new Rng(8);
    const frames = Array.from({ length: 120 }, (_, s) => randomFrame(rng, s, DT, 5, rng.int(0, 6)));
    for (const f of frames) w.writeFrame(f);
    await w.close();
    await w.close(); // a second close is a no-op
    const r = await RecordingReader.open(blobSource(sink.blob()), { codecs: NO_COMPRESSION });
    const m = await McapIndexedReader.Initialize({ readable: mcapReadable(sink.bytes()) });
    expect(m.chunkIndexes.every((c) => c.compression === '')).toBe(true);
    for (const f of frames) expect(frameMismatch((await r.frameAt(f.step))!, f)).toBeNull();
    // A zstd file needs the zstd codec: without it, a clear error naming the compression.
    const fx = await makeFixture({ seed: 17, steps: 30 });
    const z = await RecordingReader.open(bytesSource(fx.bytes), { codecs: NO_COMPRESSION });
    await expect(z.frameAt(3)).rejects.toThrow(/compression "zstd" is not supported/);
  });

  it('rejects bad writer input with an error naming the field', async () => {
    const fx = await makeFixture({ seed: 16, steps: 10 });
    const base = { scenario: {}, buildId: 'b', dt: DT, bodies: FIXTURE_BODIES };
    await expect(RecordingWriter.create(new MemorySink(), { ...base, dt: 0 }, { codecs: fx.codecs })).rejects.toThrow(/header\.dt/);
    await expect(RecordingWriter.create(new MemorySink(), { ...base, wheels: [9] }, { codecs: fx.codecs })).rejects.toThrow(/header\.wheels\[0\]/);
    const w = await RecordingWriter.create(new MemorySink(), base, { codecs: fx.codecs });
    w.writeFrame(fx.frames[5]);
    expect(() => w.writeFrame(fx.frames[3])).toThrow(/frame\.step 3/);
    expect(() => w.writeInput({ step: 2, throttle: 0, steer: 0 })).toThrow(/input\.step 2/);
    expect(() => w.writeInput({ step: 6, throttle: NaN, steer: 0 })).toThrow(/throttle/);
    expect(() => w.writeFrame({ ...fx.frames[6], contactCount: 99 })).toThrow(/frame\.contacts/);
    await w.close();
  });
});
