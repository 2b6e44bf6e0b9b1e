/**
 * Exact replay from a recording: seek a world to any step (nearest keyframe at or before it,
 * then re-simulate with the recorded inputs) and verify a recording (re-simulate it and compare
 * state hashes at every keyframe, and body poses with every recorded frame).
 *
 * The world is reached through `ReplayableWorld`, five calls the dynamics world offers (six with
 * per-joint inputs), so this file needs no world of its own (the tests drive a toy one).
 *
 * Step convention (as the writer's): a frame or keyframe at step s is the state after s steps;
 * an input at step s is applied before the world steps from s to s + 1.
 */
import { POSE_STRIDE } from '../dynamics/frame-layout';
import { makeFrame, RecordingError } from './format';
import type { RecordingReader } from './reader';
import type { InputRecord, JointInputRecord } from './writer';
import type { Incomplete } from './chunk-index';
import type { RecordingInfo } from './open-recording';

/**
 * What `seekWorld` and `verifyRecording` need of a world: restore a state, apply inputs, step,
 * hash.
 */
export interface ReplayableWorld {
  /** Bytes from saveState() of a world built from the same scenario. */
  restoreState(bytes: Uint8Array): void;
  setDriveInput(throttle: number, steer: number): void;
  /**
   * A joint's motor target velocity (a recorded per-joint command, format 4). Needed only by
   * recordings that have such inputs; replaying one without it is refused.
   */
  setJointInput?(joint: string, velocity: number): void;
  /** One fixed step. */
  step(): void;
  stateHash(): string;
  /** Body poses, POSE_STRIDE per body (verify compares them with the recorded frames). */
  poses?(): Float64Array;
}

/** Where a seek landed: the keyframe restored and the steps re-simulated after it. */
export interface SeekResult {
  /** Keyframe the world was restored from. */
  keyframeStep: number;
  /** Steps re-simulated after it. */
  simulated: number;
  /** The drive input in effect at the target step (the world has it set). */
  input: { throttle: number; steer: number };
}

/** Applies the joint inputs of `step` (in step order, then as written) from `joints[k]`; returns the next k. */
function applyJointInputsAt(world: ReplayableWorld, joints: readonly JointInputRecord[], k: number, step: number): number {
  while (k < joints.length && joints[k].step <= step) {
    if (joints[k].step === step) world.setJointInput!(joints[k].joint, joints[k].velocity);
    k++;
  }
  return k;
}

/** The recording's joint inputs from..to; refused when there are some and the world cannot take them. */
async function jointInputsFor(reader: RecordingReader, world: ReplayableWorld, from: number, to: number): Promise<JointInputRecord[]> {
  const joints = await reader.jointInputs(from, to);
  if (joints.length > 0 && typeof world.setJointInput !== 'function') throw new RecordingError(`the recording has ${joints.length} per-joint velocity input(s) and this world cannot apply them (setJointInput)`);
  return joints;
}

/** Applies the inputs of `step` (they are in step order) starting at `inputs[k]`; returns the next k. */
function applyInputsAt(world: ReplayableWorld, inputs: readonly InputRecord[], k: number, step: number, current: { throttle: number; steer: number }): number {
  while (k < inputs.length && inputs[k].step <= step) {
    if (inputs[k].step === step) {
      current.throttle = inputs[k].throttle;
      current.steer = inputs[k].steer;
      world.setDriveInput(current.throttle, current.steer);
    }
    k++;
  }
  return k;
}

/**
 * Puts `world` in the state it had after `step` steps of the recorded run, with the drive input
 * then in effect. Throws RecordingError when no keyframe precedes `step` or `step` lies past the
 * recording's end (there are no inputs to re-simulate with beyond it).
 */
export async function seekWorld(reader: RecordingReader, world: ReplayableWorld, step: number): Promise<SeekResult> {
  if (!Number.isInteger(step) || step < 0) throw new Error(`step must be a non-negative integer, got ${step}`);
  if (step > reader.info.lastStep) throw new RecordingError(`step ${step} is past the recording's last step ${reader.info.lastStep}`);
  const kf = await reader.keyframeAtOrBefore(step);
  if (kf === null) throw new RecordingError(`no keyframe at or before step ${step} (the first is at ${reader.info.keyframeSteps[0] ?? 'none'})`);
  world.restoreState(kf.bytes);
  const current = { throttle: kf.throttle, steer: kf.steer };
  world.setDriveInput(current.throttle, current.steer);
  const inputs = await reader.inputs(kf.step, step);
  const joints = await jointInputsFor(reader, world, kf.step, step);
  let k = 0;
  let kj = 0;
  for (let s = kf.step; s < step; s++) {
    k = applyInputsAt(world, inputs, k, s, current);
    kj = applyJointInputsAt(world, joints, kj, s);
    world.step();
  }
  applyInputsAt(world, inputs, k, step, current);
  applyJointInputsAt(world, joints, kj, step);
  return { keyframeStep: kf.step, simulated: step - kf.step, input: { ...current } };
}

/** Options of `verifyRecording`: the build id of the world and a progress callback. */
export interface VerifyOptions {
  /** The build id of the world doing the re-simulation (compared with the recording's). */
  buildId?: string;
  /** Called every `progressEvery` steps with (step, lastStep). */
  onProgress?: (step: number, lastStep: number) => void;
  progressEvery?: number;
}

/**
 * The verdict of `verifyRecording`: deterministic, diverged (with the first difference) or
 * recorded by a different build.
 */
export interface VerifyResult {
  /**
   * 'deterministic': every keyframe hash (and every recorded pose) matched.
   * 'diverged': the first mismatch is in `firstDifference`.
   * 'different-build': recorded by another build; `firstDifference` says where it differs, if it does.
   */
  verdict: 'deterministic' | 'diverged' | 'different-build';
  /** Keyframes compared (the first, restored, included). */
  keyframesChecked: number;
  framesChecked: number;
  firstDifference: { step: number; what: 'state hash' | 'pose'; body: number | null; bodyName: string | null; expected: string; actual: string } | null;
  /**
   * Set when the file is incomplete (cut by a killed process or a truncated copy, damaged, or
   * without its summary): only its prefix was checked. The message says so too.
   */
  cut: CutReport | null;
  message: string;
}

/** What is missing from an incomplete recording (RecordingInfo.incomplete, with times). */
export interface CutReport {
  kind: Incomplete['kind'];
  /** Last step present, and its time [s]. */
  lastStep: number;
  lastTime: number;
  /** Bytes after the last complete chunk (lost, or skipped as unreadable). */
  bytesAfterLastChunk: number;
  /** One sentence: "the file is cut: it ends at step 1541 (7.71 s); 60,211 bytes after its last complete chunk are lost". */
  message: string;
}

/** The cut report of an opened recording, or null for a complete file. */
export function cutReport(info: RecordingInfo): CutReport | null {
  const inc = info.incomplete;
  if (inc === null) return null;
  const lastTime = Math.max(0, inc.lastStep) * info.dt;
  const at = `it ends at step ${inc.lastStep} (${lastTime.toFixed(2)} s)`;
  const after = `${inc.bytesAfterLastChunk} bytes after its last complete chunk`;
  const message =
    inc.kind === 'cut'
      ? `the file is cut: ${at}; ${after} are lost (a killed recorder or a truncated copy)`
      : inc.kind === 'damaged'
        ? `the file is damaged: ${at}; ${after} are unreadable and skipped`
        : `the file has no summary (it was not closed): ${at}; ${after}`;
  return { kind: inc.kind, lastStep: inc.lastStep, lastTime, bytesAfterLastChunk: inc.bytesAfterLastChunk, message };
}

/**
 * Re-simulates the recording from its first keyframe to its last step and compares: the state
 * hash at every keyframe, and (when the world offers `poses()`) every body's pose with every
 * recorded frame. Poses compare exactly, after rounding to f32 when the frames are f32, so the
 * first step and body that differ are found even between keyframes.
 */
export async function verifyRecording(reader: RecordingReader, world: ReplayableWorld, options: VerifyOptions = {}): Promise<VerifyResult> {
  const info = reader.info;
  const names = info.metadata.bodies.map((b) => b.name);
  const sameBuild = options.buildId === undefined || options.buildId === info.buildId;
  const first = info.keyframeSteps[0];
  if (first === undefined) throw new RecordingError('the recording has no keyframe to start verifying from');
  const f32 = info.metadata.frameEncoding.f32;
  const round = f32 ? Math.fround : (x: number) => x;
  const keyframes = new Set(info.keyframeSteps);
  const frame = makeFrame();
  let keyframesChecked = 0;
  let framesChecked = 0;
  let diff: VerifyResult['firstDifference'] = null;

  // Restore the first keyframe without the inputs of its step: its hash is the state before
  // them (the loop applies them after comparing).
  const kf0 = await reader.keyframeAtOrBefore(first);
  if (kf0 === null || kf0.step !== first) throw new RecordingError(`cannot read the first keyframe (step ${first})`);
  world.restoreState(kf0.bytes);
  world.setDriveInput(kf0.throttle, kf0.steer);
  const inputs = await reader.inputs(first, info.lastStep);
  const joints = await jointInputsFor(reader, world, first, info.lastStep);
  const current = { throttle: kf0.throttle, steer: kf0.steer };
  let k = 0;
  let kj = 0;
  const every = options.progressEvery ?? 240;
  for (let s = first; s <= info.lastStep && diff === null; s++) {
    if (s > first) {
      world.step();
    }
    if (keyframes.has(s)) {
      const kf = await reader.keyframeAtOrBefore(s);
      const actual = world.stateHash();
      if (kf !== null && kf.step === s) {
        keyframesChecked++;
        if (kf.hash !== actual) diff = { step: s, what: 'state hash', body: null, bodyName: null, expected: kf.hash, actual };
      }
    }
    if (world.poses && diff === null) {
      const f = await reader.frameAt(s, frame);
      if (f !== null) {
        framesChecked++;
        const p = world.poses();
        for (let b = 0; b < f.bodyCount && diff === null; b++) {
          for (let j = 0; j < POSE_STRIDE; j++) {
            const i = b * POSE_STRIDE + j;
            if (!Object.is(round(p[i]), f.poses[i])) {
              diff = { step: s, what: 'pose', body: b, bodyName: names[b] ?? null, expected: String(f.poses[i]), actual: String(round(p[i])) };
              break;
            }
          }
        }
      }
    }
    k = applyInputsAt(world, inputs, k, s, current);
    kj = applyJointInputsAt(world, joints, kj, s);
    if (options.onProgress && (s - first) % every === 0) options.onProgress(s, info.lastStep);
  }
  const where = diff === null ? '' : `step ${diff.step}${diff.bodyName !== null ? `, body ${diff.bodyName}` : ''} (${diff.what}: recorded ${diff.expected}, re-simulated ${diff.actual})`;
  const build = sameBuild ? '' : `recorded by build ${info.buildId}, re-simulated by ${options.buildId}`;
  let verdict: VerifyResult['verdict'];
  let message: string;
  if (!sameBuild) {
    verdict = 'different-build';
    message = diff === null ? `${build}: no difference found, but determinism holds only within one build` : `${build}: first difference at ${where}`;
  } else if (diff === null) {
    verdict = 'deterministic';
    message = `deterministic: ${keyframesChecked} keyframe hashes and ${framesChecked} frames match`;
  } else {
    verdict = 'diverged';
    message = `not deterministic: first difference at ${where}`;
  }
  const cut = cutReport(info);
  if (cut !== null) message += ` (only the prefix: ${cut.message})`;
  return { verdict, keyframesChecked, framesChecked, firstDifference: diff, cut, message };
}
