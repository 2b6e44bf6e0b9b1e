/**
 * The threaded recorder (sim/record/capture.ts, encoder.ts, sim/node/record-thread.ts) on the
 * default scenario (skid-steer rover on the hills, user drive commands):
 *  - the raw capture of a step, decoded, is the world's report (`frame()`) bit for bit;
 *  - the same run recorded with the encoder in this thread and in a worker thread (small capture
 *    buffers and a pool of 2, so the stepping thread has to wait for buffers) gives byte-identical
 *    files, and the threaded file verifies as deterministic;
 *  - chunks reach the sink while the run goes, before stop;
 *  - a sink error and an encoder error (bad header) surface as errors naming the encoder thread.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFiles } from '../../../sim/node/cli';
import { nodeEncoderThread } from '../../../sim/node/record-thread';
import type { ScenarioFiles } from '../../../sim/app/protocol';
import { frameFromRaw, newBatch, ReportScratch, StepCapture, type CaptureBatch } from '../../../sim/record/capture';
import { loadCodecs, type RecordingCodecs } from '../../../sim/record/codecs';
import type { FrameData } from '../../../sim/record/format';
import { bytesSource, MemorySink, type RecordingSink } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { verifyRecording } from '../../../sim/record/replay';
import { recordingHeaderFor, RecordSession, replayable, type RecordEncoderChoice } from '../../../sim/app/record-session';
import type { SimWorld } from '../../../sim/app/sim-world';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
const STEPS = 300;
const COMMANDS: [number, number, number][] = [
  [60, 0.6, 0.2],
  [150, -0.5, -0.4],
  [240, 1, 0],
];

let files: ScenarioFiles;
let codecs: RecordingCodecs;

async function loadWorld(): Promise<SimWorld> {
  const s = createDefaultService();
  await s.load(files);
  return s.getWorld() as SimWorld;
}

/** Records STEPS steps of the default scenario with the given encoder; the file's bytes. */
async function recordRun(choice: RecordEncoderChoice, sink: RecordingSink & { bytes(): Uint8Array } = new MemorySink(), onStep?: (step: number) => Promise<void>): Promise<{ bytes: Uint8Array; session: RecordSession }> {
  const w = await loadWorld();
  const header = { ...(await recordingHeaderFor(w, files, { scenarioPath: SCENARIO })), createdAt: '2026-11-24T00:00:00.000Z' };
  const session = await RecordSession.startWith(w, header, sink, codecs, { keyframeInterval: 50, chunkBytes: 16 * 1024 }, choice);
  let c = 0;
  for (let step = 0; step < STEPS; step++) {
    while (c < COMMANDS.length && COMMANDS[c][0] === step) {
      w.engine.setDrive(COMMANDS[c][1], COMMANDS[c][2], 'user');
      session.input(COMMANDS[c][1], COMMANDS[c][2]);
      c++;
    }
    w.engine.step(1);
    session.afterStep();
    if (session.backlogged) await session.drain();
    await onStep?.(step);
  }
  await session.stop();
  return { bytes: sink.bytes(), session };
}

describe('threaded recorder', () => {
  beforeAll(async () => {
    files = readScenarioFiles(SCENARIO);
    codecs = await loadCodecs();
  });

  it('a captured step decodes to the world report bit for bit', async () => {
    const w = await loadWorld();
    const e = w.engine;
    const cap = new StepCapture();
    const batch: CaptureBatch = newBatch(1 << 20);
    const scratch = new ReportScratch();
    e.setDrive(0.8, 0.5, 'user');
    let contacts = 0;
    let mismatches = 0;
    for (let s = 0; s < 121; s++) {
      if (s < 120) e.step(1);
      // last: the same state with a mass centre off every body's origin (the scenario's are at it)
      else for (let k = 0; k < 3 * e.bodies.count; k++) e.bodies.comLocal[k] = 0.01 * ((k % 7) - 3);
      cap.attach(batch);
      cap.frame(e.stepCount, e);
      const b = cap.detach()!;
      const f: FrameData = { step: 0, time: 0, bodyCount: 0, contactCount: 0, poses: new Float64Array(0), velocities: new Float64Array(0), contacts: new Float64Array(0), contactInfo: new Int32Array(0) };
      const next = frameFromRaw(f, new Float64Array(b.buf, 0, b.used / 8), new Int32Array(b.buf), new Uint8Array(b.buf), 0, scratch);
      expect(next * 8).toBe(b.used);
      const r = e.frame();
      expect([f.step, f.time, f.bodyCount, f.contactCount]).toEqual([e.stepCount, e.time, e.bodies.count, r.contactCount]);
      contacts += r.contactCount;
      const same = (a: ArrayLike<number>, x: ArrayLike<number>) => {
        expect(a.length).toBe(x.length);
        for (let i = 0; i < a.length; i++) if (!Object.is(a[i], x[i])) mismatches++;
      };
      same(f.poses, r.poses);
      same(f.velocities, r.velocities);
      same(f.contacts, r.contacts);
      same(f.contactInfo, r.contactInfo);
    }
    expect(contacts).toBeGreaterThan(120 * 4);
    expect(e.bodies.angVel.some((x) => Math.abs(x) > 0.1)).toBe(true);
    expect(mismatches).toBe(0);
  });

  it('the encoder in this thread and in a worker thread write byte-identical files; the threaded file verifies', async () => {
    const sync = await recordRun({});
    const threaded = await recordRun({ thread: nodeEncoderThread, pool: { bufferBytes: 64 * 1024, poolSize: 2 } });
    expect(threaded.bytes.length).toBe(sync.bytes.length);
    expect(Buffer.compare(Buffer.from(threaded.bytes), Buffer.from(sync.bytes))).toBe(0);
    const st = threaded.session.status();
    expect(st.bytes).toBe(threaded.bytes.length);
    expect([st.steps, st.keyframes, st.inputs]).toEqual([STEPS, STEPS / 50 + 1, 3]);
    const reader = await RecordingReader.open(bytesSource(threaded.bytes), { codecs });
    expect(reader.info.lastStep).toBe(STEPS);
    const result = await verifyRecording(reader, replayable((await loadWorld()).engine));
    expect(result.verdict).toBe('deterministic');
  });

  it('chunks reach the sink while the run goes', async () => {
    const sink = new MemorySink();
    let seenMidRun = 0;
    await recordRun({ thread: nodeEncoderThread, pool: { bufferBytes: 64 * 1024, poolSize: 4 } }, sink, async (step) => {
      if (step === 200) {
        // wait (on the sink's state, not a time budget) until the encoder thread has written the
        // batches handed over so far; a pool that only wrote at the end would hang here until the
        // test timeout (a backstop) and fail
        while (sink.byteLength < 64 * 1024) await new Promise((r) => setTimeout(r, 20));
        seenMidRun = sink.byteLength;
      }
    });
    expect(seenMidRun).toBeGreaterThan(64 * 1024);
    expect(sink.closed).toBe(true);
  });

  it('a sink error and an encoder error surface as errors, not silent losses', async () => {
    let writes = 0;
    const failing = Object.assign(new MemorySink(), {});
    const origWrite = failing.write.bind(failing);
    failing.write = async (b: Uint8Array) => {
      if (++writes > 3) throw new Error('disk full');
      return origWrite(b);
    };
    await expect(recordRun({ thread: nodeEncoderThread }, failing)).rejects.toThrow(/recording encoder thread failed: disk full/);

    const w = await loadWorld();
    const header = { ...(await recordingHeaderFor(w, files)), dt: 0 };
    await expect(RecordSession.startWith(w, header, new MemorySink(), codecs, {}, { thread: nodeEncoderThread })).rejects.toThrow(/recording encoder thread failed: header\.dt must be a positive number/);
  });
});
