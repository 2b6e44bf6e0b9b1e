/**
 * Wheel statistics (the CSV columns and the /terrawheel/wheels series) against hand-computed
 * values, the CSV export's rows, and timeline markers (lift-off, touch-down, collision, fault).
 */
import { describe, expect, it } from 'vitest';
import { loadCodecs } from '../../../sim/record/codecs';
import { CONTACT_KIND_BODY_PAIR } from '../../../sim/dynamics/frame-layout';
import { makeFrame, type FrameData } from '../../../sim/record/format';
import { makeWheelStats, wheelStatsInto } from '../../../sim/record/foxglove';
import { bytesSource, MemorySink } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { RecordingWriter } from '../../../sim/record/writer';
import { exportWheelCsv, WHEEL_CSV_HEADER } from '../../../sim/record/export-csv';
import { scanTimelineEvents } from '../../../sim/record/events';
import { FIXTURE_BODIES } from './fixture';

const S = Math.SQRT1_2;
const DT = 0.01;

/**
 * Body 1 (wheel_l) turned a quarter about x (axis −y), moving at v = (−1, 0, 0) with ω = −4·y:
 * ω about its axis = 4 rad/s, ω·r = 1.2 m/s along a × n = (−1, 0, 0), so slip = (1.2 − 1)/1.2.
 * Two contacts under it (depth 0.01, 0.02; impulses 0.5, 0.25 N·s), one against the terrain as
 * bodyA and one as bodyB of a body pair (normal flipped).
 */
function wheelFrame(step: number, wheelContacts: boolean, pair: boolean): FrameData {
  const f = makeFrame(5, 4);
  f.step = step;
  f.time = step * DT;
  f.bodyCount = 5;
  for (let b = 0; b < 5; b++) f.poses[b * 7 + 6] = 1;
  f.poses.set([0, 0, 0.3, S, 0, 0, S], 7);
  f.velocities.set([-1, 0, 0, 0, -4, 0], 6);
  let c = 0;
  const add = (p: number[], n: number[], depth: number, imp: number, info: number[]): void => {
    f.contacts.set([...p, ...n, depth, imp, 0, 0], c * 10);
    f.contactInfo.set(info, c * 5);
    c++;
  };
  if (wheelContacts) {
    add([0, 0, 0], [0, 0, 1], 0.01, 0.5, [0, 1, -1, 3, 4]);
    add([0.1, 0, 0], [0, 0, -1], 0.02, 0.25, [CONTACT_KIND_BODY_PAIR, 3, 1, 0, 0]);
  }
  if (pair) add([1, 1, 0], [1, 0, 0], 0.001, 0.1, [CONTACT_KIND_BODY_PAIR, 0, 4, 0, 0]);
  f.contactCount = c;
  return f;
}

describe('wheel statistics', () => {
  it('count, max depth, normal force = Σ impulse / dt, and the slip ratio', () => {
    const s = wheelStatsInto(makeWheelStats(), wheelFrame(0, true, false), 1, 0.3, DT);
    expect(s.count).toBe(2);
    expect(s.maxDepth).toBe(0.02);
    expect(s.normalForce).toBeCloseTo(75, 12);
    expect(s.slip).toBeCloseTo((1.2 - 1) / 1.2, 12);
    const none = wheelStatsInto(makeWheelStats(), wheelFrame(0, false, false), 1, 0.3, DT);
    expect(none).toEqual({ count: 0, maxDepth: 0, normalForce: 0, slip: 0 });
  });
});

async function record(frames: FrameData[], events: { step: number; kind: string; message: string }[] = []): Promise<RecordingReader> {
  const codecs = await loadCodecs();
  const sink = new MemorySink();
  const w = await RecordingWriter.create(sink, { scenario: {}, buildId: 'b', dt: DT, bodies: FIXTURE_BODIES, wheels: [1, 2] }, { codecs, frameEncoding: { f32: false, shuffle: false } });
  for (const f of frames) {
    for (const e of events) if (e.step === f.step) w.writeEvent(e);
    w.writeFrame(f);
  }
  await w.close();
  return RecordingReader.open(bytesSource(sink.bytes()), { codecs });
}

describe('CSV export', () => {
  it('one row per wheel per step, by index or name', async () => {
    const r = await record([wheelFrame(0, true, false), wheelFrame(1, false, false)]);
    const csv = await exportWheelCsv(r);
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe(WHEEL_CSV_HEADER);
    expect(lines).toHaveLength(5);
    const [step, time, body, count, depth, force, slip] = lines[1].split(',');
    expect([step, time, body, count, depth]).toEqual(['0', '0', 'wheel_l', '2', '0.02']);
    expect(Number(force)).toBeCloseTo(75, 9);
    expect(Number(slip)).toBeCloseTo(1 / 6, 9);
    expect(lines[2]).toBe('0,0,wheel_r,0,0,0,0');
    expect(lines[3]).toBe('1,0.01,wheel_l,0,0,0,0');
    expect(await exportWheelCsv(r, { wheels: ['wheel_r'] })).toBe(`${WHEEL_CSV_HEADER}\n0,0,wheel_r,0,0,0,0\n1,0.01,wheel_r,0,0,0,0\n`);
    await expect(exportWheelCsv(r, { wheels: ['nope'] })).rejects.toThrow(/no body named "nope"/);
  });
});

describe('timeline events', () => {
  it('lift-off, touch-down, collision begin and recorded faults, at their steps', async () => {
    const frames = [
      wheelFrame(0, true, false),
      wheelFrame(1, true, false),
      wheelFrame(2, false, false), // wheel_l lifts off; body pair 3–1 ends
      wheelFrame(3, false, true), // chassis–mast collision begins
      wheelFrame(4, false, true),
      wheelFrame(5, true, true), // wheel_l touches down; rock–wheel_l begins again
    ];
    const r = await record(frames, [{ step: 4, kind: 'fault', message: 'EPA did not converge' }]);
    const ev = await scanTimelineEvents(r);
    expect(ev.map((e) => [e.step, e.kind, e.body, e.other])).toEqual([
      [2, 'lift-off', 1, null],
      [3, 'collision', 0, 4],
      [4, 'fault', null, null],
      [5, 'touch-down', 1, null],
      [5, 'collision', 1, 3],
    ]);
    expect(ev[0].message).toBe('wheel_l lifted off');
    expect(ev[1].message).toBe('chassis hit mast');
  });
});
