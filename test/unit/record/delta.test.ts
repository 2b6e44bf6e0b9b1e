/**
 * Delta frames (format version 2) and the resting Foxglove channels: frames where some bodies
 * rest read back bit for bit in any order; frames that cannot be deltas are written in full;
 * damaged deltas are RecordingErrors; format version 1 files still open; the last message of
 * `/terrawheel/tf` + `/terrawheel/tf_resting` (and of the two contact topics) before any time
 * shows every body and every contact, as Foxglove loads them after a seek.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { McapIndexedReader } from '@mcap/core';
import { Rng } from '../../../sim/math/random';
import { CONTACT_ELEMENT_NONE, CONTACT_INFO_STRIDE, ContactInfoField } from '../../../sim/dynamics/frame-layout';
import { loadCodecs } from '../../../sim/record/codecs';
import { applyDeltaFrame, encodeDeltaFrame, FrameChanges, FRAME_LAYOUT_DELTA } from '../../../sim/record/frame-delta';
import { decodeFrame, encodeFrame, FRAME_LAYOUT_VERSION, frameLayoutOf, RECORDING_FORMAT_VERSION, FrameScratch, makeFrame, RecordingError, TOPIC, type FrameData, type FrameEncoding } from '../../../sim/record/format';
import { bytesSource, MemorySink } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { RecordingWriter } from '../../../sim/record/writer';
import { FOXGLOVE_POSITION_DECIMALS, type RecordedBody } from '../../../sim/record/foxglove';
import { DT, frameMismatch, makeFixture } from './fixture';
import { checkJsonSchema } from './json-schema-check';
import { evolvingFrames } from './synthetic';

const BODIES: RecordedBody[] = Array.from({ length: 8 }, (_, i) => ({ name: `b${i}`, shape: { type: 'sphere', radius: 0.1 } }));
const KEYFRAME_INTERVAL = 60;

async function record(frames: FrameData[], encoding: FrameEncoding, foxgloveHz = 0): Promise<Uint8Array> {
  const codecs = await loadCodecs();
  const sink = new MemorySink();
  const w = await RecordingWriter.create(sink, { scenario: {}, buildId: 'delta', dt: DT, bodies: BODIES }, { codecs, keyframeInterval: KEYFRAME_INTERVAL, foxgloveHz, chunkBytes: 8192, frameEncoding: encoding });
  for (const f of frames) w.writeFrame(f);
  await w.close();
  return sink.bytes();
}

function mcapReadable(bytes: Uint8Array) {
  return { size: async () => BigInt(bytes.length), read: async (o: bigint, n: bigint) => bytes.subarray(Number(o), Number(o + n)) };
}

async function messages(bytes: Uint8Array): Promise<{ topic: string; step: number; data: Uint8Array; schema: string }[]> {
  const codecs = await loadCodecs();
  const m = await McapIndexedReader.Initialize({ readable: mcapReadable(bytes), decompressHandlers: { zstd: (d, n) => codecs.decompress.zstd(d, Number(n)) } });
  const out = [];
  const dec = new TextDecoder();
  for await (const msg of m.readMessages()) {
    const ch = m.channelsById.get(msg.channelId)!;
    out.push({ topic: ch.topic, step: Math.round(Number(msg.logTime) / Math.round(DT * 1e9)), data: msg.data, schema: dec.decode(m.schemasById.get(ch.schemaId)!.data) });
  }
  return out;
}

describe('delta frames', () => {
  it('frames with resting bodies read back bit for bit, in order and in random order (f64/f32, shuffled or not); most messages are deltas', async () => {
    const frames = evolvingFrames(new Rng(31), 400, DT, BODIES.length, 3);
    for (const encoding of [{ f32: false, shuffle: true }, { f32: true, shuffle: true }, { f32: false, shuffle: false }] as FrameEncoding[]) {
      const bytes = await record(frames, encoding);
      const codecs = await loadCodecs();
      const r = await RecordingReader.open(bytesSource(bytes), { codecs });
      expect(r.info.metadata.formatVersion).toBe(RECORDING_FORMAT_VERSION);
      for (const f of frames) expect(frameMismatch((await r.frameAt(f.step))!, f, encoding.f32), `step ${f.step} ${JSON.stringify(encoding)}`).toBeNull();
      const rng = new Rng(7);
      const r2 = await RecordingReader.open(bytesSource(bytes), { codecs, cacheChunks: 2 });
      for (let k = 0; k < 60; k++) {
        const f = frames[rng.int(0, frames.length - 1)];
        expect(frameMismatch((await r2.frameAt(f.step))!, f, encoding.f32), `random step ${f.step}`).toBeNull();
      }
      const layouts = (await messages(bytes)).filter((m) => m.topic === TOPIC.frame).map((m) => frameLayoutOf(m.data, 'test'));
      const full = layouts.filter((l) => l === FRAME_LAYOUT_VERSION).length;
      expect(full).toBe(Math.ceil(frames.length / KEYFRAME_INTERVAL)); // one full frame per interval
      expect(layouts.filter((l) => l === FRAME_LAYOUT_DELTA).length).toBe(frames.length - full);
    }
    // Deltas are what makes resting bodies cheap: the same run with full frames only is larger.
    const withDeltas = (await record(frames, { f32: true, shuffle: true })).length;
    const fullOnly = (await record(frames, { f32: true, shuffle: true, delta: false })).length;
    expect(withDeltas).toBeLessThan(0.8 * fullOnly);
  });

  it('a contact block that changes back (A, B, A) while nothing else moves reads back exactly', async () => {
    const frames = evolvingFrames(new Rng(35), 200, DT, BODIES.length, 0);
    const bytes = await record(frames, { f32: false, shuffle: true });
    const r = await RecordingReader.open(bytesSource(bytes), { codecs: await loadCodecs() });
    for (const f of frames) expect(frameMismatch((await r.frameAt(f.step))!, f), `step ${f.step}`).toBeNull();
  });

  it('a frame whose contacts are not in bodyA order is written in full; the frames around it read back exactly', async () => {
    const frames = evolvingFrames(new Rng(32), 120, DT, BODIES.length, 2);
    const odd = frames[50];
    // Move the first contact to the end: bodyA order broken (if it has another body after it).
    const C = odd.contactCount;
    const c = Array.from(odd.contacts.subarray(0, 10 * C));
    const w = CONTACT_INFO_STRIDE;
    const i = Array.from(odd.contactInfo.subarray(0, w * C));
    odd.contacts.set([...c.slice(10), ...c.slice(0, 10)]);
    odd.contactInfo.set([...i.slice(w), ...i.slice(0, w)]);
    expect(i[1]).not.toBe(i[w * (C - 1) + 1]);
    const bytes = await record(frames, { f32: false, shuffle: true });
    const layout = new Map((await messages(bytes)).filter((m) => m.topic === TOPIC.frame).map((m) => [m.step, frameLayoutOf(m.data, 'test')]));
    expect([layout.get(49), layout.get(50), layout.get(51), layout.get(52)]).toEqual([FRAME_LAYOUT_DELTA, FRAME_LAYOUT_VERSION, FRAME_LAYOUT_VERSION, FRAME_LAYOUT_DELTA]);
    const r = await RecordingReader.open(bytesSource(bytes), { codecs: await loadCodecs() });
    for (const f of frames.slice(40, 70)) expect(frameMismatch((await r.frameAt(f.step))!, f), `step ${f.step}`).toBeNull();
  });

  it('a damaged delta is a RecordingError naming what does not fit', () => {
    const frames = evolvingFrames(new Rng(33), 3, DT, BODIES.length, 3);
    const ch = new FrameChanges();
    const scratch = new FrameScratch();
    const enc = { f32: false, shuffle: true };
    ch.compare(frames[0]);
    const base = decodeFrame(encodeFrame(frames[0], enc, scratch), makeFrame(), scratch, 'test');
    ch.commit(frames[0]);
    ch.compare(frames[1]);
    expect(ch.deltaPossible).toBe(true);
    const good = encodeDeltaFrame(frames[1], ch, 0, enc, scratch);
    expect(frameMismatch(applyDeltaFrame(good, base, makeFrame(), scratch, 'test'), frames[1])).toBeNull();
    const patched = (at: number, value: number): Uint8Array => {
      const b = good.slice();
      new DataView(b.buffer).setUint32(at, value, true);
      return b;
    };
    expect(() => applyDeltaFrame(patched(20, frames[1].contactCount + 1), base, makeFrame(), scratch, 'here')).toThrow(RecordingError);
    expect(() => applyDeltaFrame(patched(20, frames[1].contactCount + 1), base, makeFrame(), scratch, 'here')).toThrow(/here: delta frame rebuilds/);
    expect(() => applyDeltaFrame(patched(24, 5), base, makeFrame(), scratch, 'here')).toThrow(/base step 5, not an earlier one/);
    expect(() => applyDeltaFrame(patched(36, 0), base, makeFrame(), scratch, 'here')).toThrow(/should have \d+ bytes/);
    const wrongBase = { ...base, step: 0, bodyCount: 7 };
    expect(() => applyDeltaFrame(good, wrongBase, makeFrame(), scratch, 'here')).toThrow(/has 8 bodies, its base frame 7/);
  });

  it('a format version 1 recording (full frames, written by the previous build) still opens and reads back', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('./data/format-v1.mcap', import.meta.url)));
    const r = await RecordingReader.open(bytesSource(bytes), { codecs: await loadCodecs() });
    expect(r.info.metadata.formatVersion).toBe(1);
    expect(r.info.notice).toBeNull();
    // The same seeded frames the file was written from (fixture.ts, seed 41, 24 steps).
    const fx = await makeFixture({ seed: 41, steps: 24, encoding: { f32: false, shuffle: true }, chunkBytes: 8192, foxgloveHz: 0 });
    // the file predates contactInfo's element: every contact reads CONTACT_ELEMENT_NONE (−1)
    for (const f of fx.frames) {
      for (let k = 0; k < f.contactCount; k++) f.contactInfo[k * CONTACT_INFO_STRIDE + ContactInfoField.Element] = CONTACT_ELEMENT_NONE;
      expect(frameMismatch((await r.frameAt(f.step))!, f), `step ${f.step}`).toBeNull();
    }
    expect((await r.keyframeAtOrBefore(23))!.bytes).toEqual(fx.keyframes[0].bytes);
    // format 4 added per-joint inputs on their own channel: an older file has none, and its drive inputs read as before
    expect(r.info.metadata.channels['/terrawheel/joint_input']).toBeUndefined();
    expect(await r.jointInputs()).toEqual([]);
    expect(await r.inputs()).toEqual(fx.inputs);
  });
});

describe('Foxglove channels with resting bodies', () => {
  it('the last tf + tf_resting and contacts + contacts_resting messages before any emission show every body and contact; resting messages only on change', async () => {
    const frames = evolvingFrames(new Rng(34), 480, DT, BODIES.length, 2);
    const bytes = await record(frames, { f32: true, shuffle: true }, 30);
    const all = await messages(bytes);
    for (const m of all) {
      if (!m.schema.startsWith('{')) continue;
      expect(checkJsonSchema(JSON.parse(m.schema), JSON.parse(new TextDecoder().decode(m.data))), `${m.topic} at ${m.step}`).toEqual([]);
    }
    const json = (m: { data: Uint8Array }) => JSON.parse(new TextDecoder().decode(m.data));
    const on = (topic: string) => all.filter((m) => m.topic === topic);
    const tf = on(TOPIC.transforms);
    const tfResting = on(TOPIC.transformsResting);
    const contacts = on(TOPIC.contacts);
    const contactsResting = on(TOPIC.contactsResting);
    expect(tf.length).toBe(Math.ceil(480 / 8));
    expect(tfResting.length).toBeGreaterThan(0);
    expect(tfResting.length).toBeLessThan(tf.length);
    expect(contactsResting.length).toBeGreaterThan(0);
    const lastBefore = <T extends { step: number }>(list: T[], step: number): T | undefined => list.filter((m) => m.step <= step).pop();
    const round = (x: number) => {
      const s = 10 ** FOXGLOVE_POSITION_DECIMALS;
      const r = Math.round(x * s) / s;
      return r === 0 ? 0 : r;
    };
    let partial = 0;
    for (const m of tf) {
      const f = frames[m.step];
      const seen = new Map<string, { t: number; x: number }>();
      for (const src of [lastBefore(tfResting, m.step), m]) {
        if (!src) continue;
        for (const tr of json(src).transforms) {
          const t = tr.timestamp.sec * 1e9 + tr.timestamp.nsec;
          const prev = seen.get(tr.child_frame_id);
          if (!prev || prev.t <= t) seen.set(tr.child_frame_id, { t, x: tr.translation.x });
        }
      }
      if (json(m).transforms.length < BODIES.length) partial++;
      expect(seen.size, `step ${m.step}`).toBe(BODIES.length);
      BODIES.forEach((b, i) => expect(seen.get(b.name)!.x, `${b.name} at step ${m.step}`).toBe(round(f.poses[7 * i])));
      // contacts: the moving ones at this message plus the last resting set are all of them
      const arrows = [contacts.find((c) => c.step === m.step)!, lastBefore(contactsResting, m.step)]
        .filter((x) => x !== undefined)
        .flatMap((x) => json(x!).entities[0].arrows.map((a: { pose: { position: { x: number } } }) => a.pose.position.x));
      const want = Array.from({ length: f.contactCount }, (_, k) => round(f.contacts[10 * k]));
      expect(arrows.sort((a, b) => a - b), `contacts at step ${m.step}`).toEqual(want.sort((a, b) => a - b));
    }
    expect(partial).toBeGreaterThan(tf.length / 2);
  });
});
