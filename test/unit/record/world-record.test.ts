/**
 * Recording the real dynamics world through the simulation service (sim/app/record-session.ts) and
 * replaying into it: the default scenario (skid-steer rover on the hills, its script in charge
 * at first, then user commands), recorded step by step.
 *  - round trip: every recorded frame equals what the world reported (f32-rounded), and the file
 *    parses with @mcap/core's indexed reader with the expected channels and message counts;
 *  - seek to seeded random steps: the state hash equals the uninterrupted run's at that step;
 *  - branch from a seek point, then verify parent and branch: both "deterministic", the branch
 *    names its parent and step; a different build id is reported as such; a recording whose
 *    keyframe disagrees with the world is "diverged" at that step;
 *  - a cut file opens with a notice and its prefix seeks exactly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { McapIndexedReader } from '@mcap/core';
import { resolve } from 'node:path';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFiles } from '../../../sim/node/cli';
import type { ScenarioFiles } from '../../../sim/app/protocol';
import { loadCodecs, type RecordingCodecs } from '../../../sim/record/codecs';
import { TOPIC } from '../../../sim/record/format';
import { bytesSource, MemorySink } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { Rng } from '../../../sim/math/random';
import type { SimServiceImpl } from '../../../sim/app/service';
import type { SimWorld } from '../../../sim/app/sim-world';
import { BUILD_ID } from '../../../sim/app/record-session';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
const STEPS = 360;
const KEYFRAME_INTERVAL = 50;
/** Drive commands (step → throttle, steer): the first one takes over from the script. */
const COMMANDS: [number, number, number][] = [
  [120, 0.5, 0.3],
  [121, 0.5, 0.3], // a repeat: must not reach the world or the file
  [200, -0.4, -0.6],
  [290, 1, 0],
];

interface Run {
  bytes: Uint8Array;
  /** State hash after each step (before that step's inputs). */
  hashes: string[];
  /** State hash at each step after its inputs (what a seek to the step gives). */
  seekHashes: string[];
  frames: { poses: Float64Array; velocities: Float64Array; contacts: Float64Array; contactInfo: Int32Array; contactCount: number }[];
}

let files: ScenarioFiles;
let codecs: RecordingCodecs;

async function service(): Promise<SimServiceImpl> {
  const s = createDefaultService();
  await s.load(files);
  return s;
}

async function record(buildId?: string): Promise<Run> {
  const s = await service();
  const w = s.getWorld() as SimWorld;
  const sink = new MemorySink();
  await s.startRecordingTo(sink, { keyframeInterval: KEYFRAME_INTERVAL, chunkBytes: 64 * 1024, scenarioPath: SCENARIO, buildId });
  const hashes: string[] = [w.engine.stateHash()];
  const seekHashes: string[] = [];
  const frames: Run['frames'] = [];
  const snap = () => {
    const f = w.engine.frame();
    frames.push({ poses: f.poses.slice(), velocities: f.velocities.slice(), contacts: f.contacts.slice(0, f.contactCount * 10), contactInfo: f.contactInfo.slice(0, f.contactCount * 5), contactCount: f.contactCount });
  };
  snap();
  let c = 0;
  for (let step = 0; step < STEPS; step++) {
    while (c < COMMANDS.length && COMMANDS[c][0] === step) {
      s.setDrive({ throttle: COMMANDS[c][1], steer: COMMANDS[c][2] });
      c++;
    }
    seekHashes.push(w.engine.stateHash());
    await s.step(1);
    hashes.push(w.engine.stateHash());
    snap();
  }
  seekHashes.push(w.engine.stateHash());
  const status = await s.stopRecording();
  expect(status.steps).toBe(STEPS);
  expect(status.inputs).toBe(3);
  expect(status.bytes).toBe(sink.byteLength);
  s.dispose();
  return { bytes: sink.bytes(), hashes, seekHashes, frames };
}

describe('recording the dynamics world through the service', () => {
  let run: Run;
  beforeAll(async () => {
    files = readScenarioFiles(SCENARIO);
    codecs = await loadCodecs();
    run = await record();
  });

  it('round trip: every frame equals the world report (f32), inputs and keyframes as recorded', async () => {
    const reader = await RecordingReader.open(bytesSource(run.bytes), { codecs });
    const info = reader.info;
    expect(info.notice).toBeNull();
    expect(info.firstStep).toBe(0);
    expect(info.lastStep).toBe(STEPS);
    expect(info.keyframeSteps).toEqual(Array.from({ length: Math.floor(STEPS / KEYFRAME_INTERVAL) + 1 }, (_, k) => k * KEYFRAME_INTERVAL));
    expect(info.buildId).toBe(BUILD_ID);
    expect(info.assets.map((a) => a.name)).toEqual([`scenario:${SCENARIO}`, 'terrain-sidecar', 'terrain-data']);
    expect(info.scenario).toEqual(files.scenario);
    expect(await reader.inputs()).toEqual([
      { step: 120, throttle: 0.5, steer: 0.3 },
      { step: 200, throttle: -0.4, steer: -0.6 },
      { step: 290, throttle: 1, steer: 0 },
    ]);
    const r = Math.fround;
    let mismatches = 0;
    for (let s = 0; s <= STEPS; s++) {
      const f = await reader.frameAt(s);
      const want = run.frames[s];
      expect(f).not.toBeNull();
      expect(f!.contactCount).toBe(want.contactCount);
      for (let i = 0; i < want.poses.length; i++) if (!Object.is(f!.poses[i], r(want.poses[i]))) mismatches++;
      for (let i = 0; i < want.velocities.length; i++) if (!Object.is(f!.velocities[i], r(want.velocities[i]))) mismatches++;
      for (let i = 0; i < want.contacts.length; i++) if (!Object.is(f!.contacts[i], r(want.contacts[i]))) mismatches++;
      for (let i = 0; i < want.contactInfo.length; i++) if (f!.contactInfo[i] !== want.contactInfo[i]) mismatches++;
    }
    expect(mismatches).toBe(0);
    for (const s of info.keyframeSteps) expect((await reader.keyframeAtOrBefore(s))!.hash).toBe(run.hashes[s]);
  });

  it('parses with @mcap/core McapIndexedReader: channels and message counts', async () => {
    const mcap = await McapIndexedReader.Initialize({
      readable: { size: async () => BigInt(run.bytes.length), read: async (o, n) => run.bytes.subarray(Number(o), Number(o + n)) },
      decompressHandlers: { zstd: (d, size) => codecs.decompress.zstd(d, Number(size)) },
    });
    const counts = new Map<string, number>();
    for (const [id, ch] of mcap.channelsById) counts.set(ch.topic, Number(mcap.statistics!.channelMessageCounts.get(id) ?? 0n));
    expect(counts.get(TOPIC.frame)).toBe(STEPS + 1);
    expect(counts.get(TOPIC.keyframe)).toBe(Math.floor(STEPS / KEYFRAME_INTERVAL) + 1);
    expect(counts.get(TOPIC.input)).toBe(3);
    expect(counts.get(TOPIC.event)).toBe(0);
    expect(counts.get(TOPIC.scene)).toBe(1);
    const every = Math.round(1 / (0.005 * 30));
    const foxglove = Math.floor(STEPS / every) + 1;
    expect(counts.get(TOPIC.transforms)).toBe(foxglove);
    expect(counts.get(TOPIC.contacts)).toBe(foxglove);
    expect(counts.get(TOPIC.wheels)).toBe(foxglove);
  });

  it('seek to seeded random steps gives the uninterrupted run\'s state hash and frame', async () => {
    const s = await service();
    const summary = await s.openRecording(run.bytes, 'run.mcap');
    expect(summary.firstStep).toBe(0);
    expect(summary.lastStep).toBe(STEPS);
    expect(summary.sameBuild).toBe(true);
    const w = s.getWorld() as SimWorld;
    const rng = new Rng(16);
    const targets = [STEPS, 0, 121, 200, 201, 289, 290, ...Array.from({ length: 8 }, () => rng.int(0, STEPS))];
    for (const t of targets) {
      const f = await s.seek(t);
      expect(f.step).toBe(t);
      expect(w.engine.stateHash(), `step ${t}`).toBe(run.seekHashes[t]);
      expect(Array.from(f.poses)).toEqual(Array.from(run.frames[t].poses, Math.fround));
    }
    // playback from a seek point follows the recorded inputs exactly
    await s.seek(110);
    await s.step(150);
    expect(w.engine.stateHash()).toBe(run.hashes[260]);
    // user drive is ignored while the recording is followed
    s.setDrive({ throttle: -1, steer: 1 });
    await s.step(40);
    expect(w.engine.stateHash()).toBe(run.hashes[300]);
    s.dispose();
  });

  it('branch from a seek point, then verify both: deterministic; the branch names its parent', async () => {
    const s = await service();
    await s.openRecording(run.bytes, 'parent.mcap');
    await s.seek(230);
    const w = s.getWorld() as SimWorld;
    const hashAt230 = w.engine.stateHash();
    const sink = new MemorySink();
    await s.branchTo(sink, { keyframeInterval: 40 });
    s.setDrive({ throttle: -1, steer: 0.5 });
    await s.step(60);
    s.setDrive({ throttle: 0.2, steer: -0.5 });
    await s.step(60);
    const st = await s.stopRecording();
    expect(st.firstStep).toBe(230);
    expect(st.lastStep).toBe(350);
    expect(run.hashes[350]).not.toBe(w.engine.stateHash()); // it did take another path

    const v = await s.verify();
    expect(v.verdict, v.message).toBe('deterministic');
    expect(v.keyframesChecked).toBe(Math.floor(STEPS / KEYFRAME_INTERVAL) + 1);
    expect(v.framesChecked).toBe(STEPS + 1);

    const s2 = await service();
    const b = await s2.openRecording(sink.bytes(), 'branch.mcap');
    expect(b.parent).toEqual({ recording: 'parent.mcap', step: 230, stateHash: hashAt230 });
    expect(b.firstStep).toBe(230);
    const vb = await s2.verify();
    expect(vb.verdict, vb.message).toBe('deterministic');
    expect(vb.keyframesChecked).toBe(4);
    s.dispose();
    s2.dispose();
  });

  it('a recording by another build is reported as such, not as deterministic', async () => {
    const other = await record('terrawheel-0.0.9+dynamics.0');
    const s = await service();
    const sum = await s.openRecording(other.bytes);
    expect(sum.sameBuild).toBe(false);
    const v = await s.verify();
    expect(v.verdict).toBe('different-build');
    expect(v.message).toContain('terrawheel-0.0.9+dynamics.0');
    s.dispose();
  });

  it('a keyframe that disagrees with the re-simulation is found: diverged at that step', async () => {
    // Record with a world whose state is nudged mid-run (as a nondeterministic build would be).
    const s = await service();
    const w = s.getWorld() as SimWorld;
    const sink = new MemorySink();
    await s.startRecordingTo(sink, { keyframeInterval: KEYFRAME_INTERVAL });
    await s.step(120);
    w.engine.bodies.linVel[0] += 1e-9; // between frames: the poses of step 121 differ
    await s.step(40);
    await s.stopRecording();
    const s2 = await service();
    await s2.openRecording(sink.bytes());
    const v = await s2.verify();
    expect(v.verdict).toBe('diverged');
    // poses differ from step 121 on, visible in f32 frames a few steps later, in the hash at 150 at the latest
    expect(v.firstDifference!.step).toBeGreaterThan(120);
    expect(v.firstDifference!.step).toBeLessThanOrEqual(150);
    if (v.firstDifference!.what === 'pose') expect(v.firstDifference!.bodyName).toBe(w.info().bodies[0].name);
    s.dispose();
    s2.dispose();
  });

  it('a cut file opens with a notice and its prefix seeks exactly', async () => {
    const cut = run.bytes.subarray(0, Math.floor(run.bytes.length * 0.6));
    const s = await service();
    const sum = await s.openRecording(cut);
    expect(sum.notice).not.toBeNull();
    expect(sum.lastStep).toBeGreaterThan(KEYFRAME_INTERVAL);
    expect(sum.lastStep).toBeLessThan(STEPS);
    const w = s.getWorld() as SimWorld;
    const t = sum.lastStep - 7;
    await s.seek(t);
    expect(w.engine.stateHash()).toBe(run.seekHashes[t]);
    const v = await s.verify();
    expect(v.verdict, v.message).toBe('deterministic');
    s.dispose();
  });

  it('refuses a recording of another world', async () => {
    const s = createDefaultService();
    await s.load(readScenarioFiles(resolve(__dirname, '../../../assets/scenarios/barrels.json')));
    await expect(s.openRecording(run.bytes)).rejects.toThrow(/load its scenario first/);
    s.dispose();
  });

  it('refuses a recording of the same robot on another terrain, naming what differs (issue #28)', async () => {
    // curbs.json: the same rover and dt as default.json (the body names match), another terrain
    const s = createDefaultService();
    await s.load(readScenarioFiles(resolve(__dirname, '../../../assets/scenarios/curbs.json')));
    const err = await s.openRecording(run.bytes).then(() => null, (e: Error) => e);
    expect(err, 'the curbs world accepted a recording of the default scenario').not.toBeNull();
    expect(err!.message).toMatch(/the loaded world's files differ from the recording's: scenario, terrain-sidecar, terrain-data/);
    expect(err!.message).toMatch(/recorded sha256:[0-9a-f]{12}…, loaded sha256:[0-9a-f]{12}…/);
    // the same world (its scenario loaded again) still opens
    await s.load(files);
    const summary = await s.openRecording(run.bytes);
    expect(summary.firstStep).toBe(0);
    s.dispose();
  });
});
