/**
 * A small seeded recording for the tests: random frames (0–12 contacts, 5 bodies, two of them
 * wheels; or, with `evolving`, frames where bodies rest, written as delta frames), inputs at
 * random steps, keyframes every 60 steps, two events; small chunks (16 KiB)
 * so that cuts and bit flips land in many different records.
 */
import { Rng } from '../../../sim/math/random';
import { loadCodecs, type RecordingCodecs } from '../../../sim/record/codecs';
import type { FrameData, FrameEncoding, KeyframeData } from '../../../sim/record/format';
import { MemorySink } from '../../../sim/record/io';
import { RecordingWriter, type EventRecord, type InputRecord, type RecordingHeader } from '../../../sim/record/writer';
import type { RecordedBody } from '../../../sim/record/foxglove';
import { CONTACT_INFO_STRIDE } from '../../../sim/dynamics/frame-layout';
import { evolvingFrames, randomFrame } from './synthetic';

export const DT = 1 / 240;

export interface Fixture {
  bytes: Uint8Array;
  frames: FrameData[];
  inputs: InputRecord[];
  keyframes: KeyframeData[];
  events: EventRecord[];
  header: RecordingHeader;
  codecs: RecordingCodecs;
  writer: RecordingWriter;
}

export const FIXTURE_BODIES: RecordedBody[] = [
  { name: 'chassis', shape: { type: 'box', halfExtents: [0.5, 0.3, 0.1] } },
  { name: 'wheel_l', shape: { type: 'cylinder', radius: 0.3, height: 0.2 } },
  { name: 'wheel_r', shape: { type: 'cylinder', radius: 0.3, height: 0.2 } },
  { name: 'rock', shape: { type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] } },
  { name: 'mast', shape: { type: 'compound', children: [{ shape: { type: 'capsule', radius: 0.05, height: 0.5 }, position: [0, 0, 0.3], orientation: [0, 0, 0, 1] }, { shape: { type: 'sphere', radius: 0.1 } }] } },
];

export async function makeFixture(
  opts: { seed?: number; steps?: number; encoding?: FrameEncoding; firstStep?: number; foxgloveHz?: number; chunkBytes?: number; evolving?: boolean } = {},
): Promise<Fixture> {
  const codecs = await loadCodecs();
  const rng = new Rng(opts.seed ?? 1);
  const steps = opts.steps ?? 600;
  const first = opts.firstStep ?? 0;
  const header: RecordingHeader = {
    scenario: { name: 'fixture', terrain: 'flat.json', script: [{ t: 0, throttle: 0.5, steer: 0 }] },
    scenarioName: 'fixture',
    assets: [
      { name: 'flat.json', hash: 'sha256:00ff' },
      { name: 'rover.urdf', hash: 'sha256:abcd' },
    ],
    buildId: 'test-build-1',
    parent: { recording: 'parent.mcap', step: 120, stateHash: 'deadbeef' },
    dt: DT,
    bodies: FIXTURE_BODIES,
    wheels: [1, 2],
    terrain: { cols: 5, rows: 4, dx: 0.5, dy: 0.5, heights: Array.from({ length: 20 }, (_, i) => 0.01 * i) },
    createdAt: '2026-11-24T00:00:00.000Z',
  };
  const sink = new MemorySink();
  const writer = await RecordingWriter.create(sink, header, {
    codecs,
    keyframeInterval: 60,
    foxgloveHz: opts.foxgloveHz ?? 30,
    chunkBytes: opts.chunkBytes ?? 16 * 1024,
    frameEncoding: opts.encoding ?? { f32: false, shuffle: true },
  });
  const frames: FrameData[] = [];
  const inputs: InputRecord[] = [];
  const keyframes: KeyframeData[] = [];
  const events: EventRecord[] = [];
  let throttle = 0;
  let steer = 0;
  // evolving: frames where bodies rest (contacts in bodyA order): the writer writes delta frames.
  const evolving = opts.evolving ? evolvingFrames(new Rng((opts.seed ?? 1) + 1000), steps, DT, FIXTURE_BODIES.length, 2, first) : null;
  for (let s = first; s < first + steps; s++) {
    if (s === first || rng.next() < 0.05) {
      throttle = rng.range(-1, 1);
      steer = rng.range(-1, 1);
      const input = { step: s, throttle, steer };
      writer.writeInput(input);
      inputs.push(input);
    }
    if (writer.keyframeDue(s)) {
      const bytes = new Uint8Array(rng.int(0, 300)).map(() => rng.int(0, 255));
      const k = { step: s, hash: `h${s.toString(16)}`, bytes };
      writer.writeKeyframe(k);
      keyframes.push({ ...k, throttle, steer });
    }
    if (s === first + 100 || s === first + 377) {
      const e: EventRecord = { step: s, kind: 'fault', message: `solver status 3 at step ${s}`, body: 2 };
      writer.writeEvent(e);
      events.push(e);
    }
    const f = evolving ? evolving[s - first] : randomFrame(rng, s, DT, FIXTURE_BODIES.length, rng.int(0, 12));
    writer.writeFrame(f);
    frames.push(f);
  }
  await writer.close();
  return { bytes: sink.bytes(), frames, inputs, keyframes, events, header, codecs, writer };
}

/** Exact equality of the used parts of two frames (f32: the expected values rounded to f32). */
export function frameMismatch(got: FrameData, want: FrameData, f32 = false): string | null {
  const r = f32 ? Math.fround : (x: number) => x;
  if (got.step !== want.step) return `step ${got.step} ≠ ${want.step}`;
  if (got.time !== want.time) return `time ${got.time} ≠ ${want.time}`;
  if (got.bodyCount !== want.bodyCount || got.contactCount !== want.contactCount) return `counts ${got.bodyCount}/${got.contactCount} ≠ ${want.bodyCount}/${want.contactCount}`;
  const cmp = (name: string, a: ArrayLike<number>, b: ArrayLike<number>, n: number, round: boolean): string | null => {
    for (let i = 0; i < n; i++) if (!Object.is(a[i], round ? r(b[i]) : b[i])) return `${name}[${i}] ${a[i]} ≠ ${b[i]}`;
    return null;
  };
  return (
    cmp('poses', got.poses, want.poses, want.bodyCount * 7, true) ??
    cmp('velocities', got.velocities, want.velocities, want.bodyCount * 6, true) ??
    cmp('contacts', got.contacts, want.contacts, want.contactCount * 10, true) ??
    cmp('contactInfo', got.contactInfo, want.contactInfo, want.contactCount * CONTACT_INFO_STRIDE, false)
  );
}
