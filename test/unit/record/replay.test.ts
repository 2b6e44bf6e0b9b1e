/**
 * Seek and verify against a toy deterministic world (three bodies driven by throttle/steer):
 * seeking to random steps gives the uninterrupted run's state hash; verify says "deterministic"
 * for the same world, finds the first step and body of a perturbed one (between keyframes with
 * f64 frames, at the next keyframe or pose with f32 frames), and reports another build as such.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { loadCodecs } from '../../../sim/record/codecs';
import { makeFrame, type FrameEncoding } from '../../../sim/record/format';
import { bytesSource, MemorySink } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { seekWorld, verifyRecording, type ReplayableWorld } from '../../../sim/record/replay';
import { RecordingWriter } from '../../../sim/record/writer';

const N = 3;
const DT = 1 / 240;

class ToyWorld implements ReplayableWorld {
  state = new Float64Array(N * 6 + 3); // x y z vx vy vz per body, then throttle, steer, step
  constructor(private readonly perturbAt = -1) {}
  restoreState(bytes: Uint8Array): void {
    this.state = new Float64Array(bytes.slice().buffer);
  }
  saveState(): Uint8Array {
    return new Uint8Array(this.state.slice().buffer);
  }
  setDriveInput(throttle: number, steer: number): void {
    this.state[N * 6] = throttle;
    this.state[N * 6 + 1] = steer;
  }
  step(): void {
    const s = this.state;
    const th = s[N * 6];
    const st = s[N * 6 + 1];
    for (let b = 0; b < N; b++) {
      const o = b * 6;
      s[o + 3] += DT * (th * (b + 1) - 0.5 * s[o + 3]);
      s[o + 4] += DT * (st * Math.sin(s[o]) - 0.3 * s[o + 4]);
      s[o + 5] += DT * (-9.81 * s[o + 2] - 0.1 * s[o + 5]);
      s[o] += DT * s[o + 3];
      s[o + 1] += DT * s[o + 4];
      s[o + 2] += DT * s[o + 5];
    }
    if (this.perturbAt >= 0 && s[N * 6 + 2] === this.perturbAt) s[6] += 1e-13; // body 1's x
    s[N * 6 + 2]++;
  }
  stateHash(): string {
    // FNV-1a over the state's bytes.
    const u = new Uint8Array(this.state.buffer);
    let h = 0x811c9dc5;
    for (let i = 0; i < u.length; i++) h = Math.imul(h ^ u[i], 16777619) >>> 0;
    return h.toString(16).padStart(8, '0');
  }
  poses(): Float64Array {
    const p = new Float64Array(N * 7);
    for (let b = 0; b < N; b++) {
      p.set([this.state[b * 6], this.state[b * 6 + 1], this.state[b * 6 + 2], 0, 0, 0, 1], b * 7);
    }
    return p;
  }
}

const STEPS = 400;

async function recordToy(encoding: FrameEncoding): Promise<{ reader: RecordingReader; hashes: string[] }> {
  const codecs = await loadCodecs();
  const sink = new MemorySink();
  const bodies = Array.from({ length: N }, (_, b) => ({ name: `body${b}`, shape: { type: 'sphere' as const, radius: 0.1 } }));
  const w = await RecordingWriter.create(sink, { scenario: {}, buildId: 'toy-1', dt: DT, bodies }, { codecs, keyframeInterval: 50, frameEncoding: encoding, chunkBytes: 4096 });
  const world = new ToyWorld();
  world.state[2] = 1;
  const rng = new Rng(9);
  const hashes: string[] = [];
  const frame = makeFrame(N, 0);
  for (let s = 0; s <= STEPS; s++) {
    if (s === 0 || rng.next() < 0.04) {
      const input = { step: s, throttle: rng.range(-1, 1), steer: rng.range(-1, 1) };
      world.setDriveInput(input.throttle, input.steer);
      w.writeInput(input);
    }
    hashes.push(world.stateHash());
    frame.step = s;
    frame.time = s * DT;
    frame.bodyCount = N;
    frame.poses.set(world.poses());
    w.recordStep(frame, world); // keyframe when due, then the frame
    if (s < STEPS) world.step();
  }
  await w.close();
  return { reader: await RecordingReader.open(bytesSource(sink.bytes()), { codecs }), hashes };
}

describe('seek and verify', () => {
  it('seeking to random steps reproduces the uninterrupted run exactly', async () => {
    const { reader, hashes } = await recordToy({ f32: true, shuffle: true });
    const rng = new Rng(4);
    for (let k = 0; k < 30; k++) {
      const s = rng.int(0, STEPS);
      const world = new ToyWorld();
      const r = await seekWorld(reader, world, s);
      expect(world.stateHash(), `step ${s}`).toBe(hashes[s]);
      expect(r.keyframeStep).toBe(Math.floor(s / 50) * 50);
      expect(r.simulated).toBe(s - r.keyframeStep);
    }
    await expect(seekWorld(reader, new ToyWorld(), STEPS + 1)).rejects.toThrow(/past the recording's last step/);
  });

  it('verify: deterministic for the same world, the first step and body for a perturbed one, another build as such', async () => {
    const { reader } = await recordToy({ f32: false, shuffle: true });
    const same = await verifyRecording(reader, new ToyWorld(), { buildId: 'toy-1' });
    expect(same.verdict).toBe('deterministic');
    expect(same.keyframesChecked).toBe(9);
    expect(same.framesChecked).toBe(STEPS + 1);

    const bad = await verifyRecording(reader, new ToyWorld(123), { buildId: 'toy-1' });
    expect(bad.verdict).toBe('diverged');
    expect(bad.firstDifference).toMatchObject({ step: 124, what: 'pose', body: 1, bodyName: 'body1' });
    expect(bad.message).toMatch(/^not deterministic: first difference at step 124, body body1/);

    const other = await verifyRecording(reader, new ToyWorld(), { buildId: 'toy-2' });
    expect(other.verdict).toBe('different-build');
    expect(other.message).toMatch(/recorded by build toy-1, re-simulated by toy-2/);

    // Without poses, the state hash at the next keyframe finds it.
    const hashOnly = new ToyWorld(123) as ReplayableWorld;
    hashOnly.poses = undefined;
    const h = await verifyRecording(reader, hashOnly, { buildId: 'toy-1' });
    expect(h.verdict).toBe('diverged');
    expect(h.firstDifference).toMatchObject({ step: 150, what: 'state hash' });
  });
});
