/**
 * Raw step capture for the threaded recorder: what the stepping thread does per step.
 *
 * A `CaptureBatch` is one ArrayBuffer of records, each a run of float64 slots (an Int32 view of
 * the same buffer holds contactInfo), plus the few strings of the batch (keyframe hashes, event
 * texts). `StepCapture` appends records into preallocated buffers with `TypedArray.set` copies:
 * no per-step allocation, no change detection, no JSON. `applyBatch` replays a batch's records
 * as the RecordingWriter calls they stand for, in order, so the same captured run gives the same
 * file bytes whether the batch is applied in this thread or in an encoder thread.
 *
 * Record layout (slot = f64; o = the record's first slot):
 *   frame    o: 1, step, time, B, C, F[7B] poses, F[6B] velocities, F[10C] contacts, then
 *            i32[5C] contactInfo (padded to whole slots)
 *   input    o: 2, step, throttle, steer
 *   keyframe o: 3, step, hash (string index), byteLength, bytes (padded to whole slots)
 *   event    o: 4, step, kind (string index), message (string index), body (−1: none)
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/spec';
import type { FrameData } from './format';
import type { RecordingWriter } from './writer';

export const REC_FRAME = 1;
export const REC_INPUT = 2;
export const REC_KEYFRAME = 3;
export const REC_EVENT = 4;

/** One batch of captured steps: `used` bytes of `buf` hold records; `strings` their texts. */
export interface CaptureBatch {
  buf: ArrayBuffer;
  used: number;
  /** Steps (frame records) in the batch. */
  frames: number;
  strings: string[];
}

/** [B] Default size of one capture buffer (about 20 steps of the vehicle scene with 420 contacts). */
export const CAPTURE_BUFFER_BYTES = 1 << 20;

export function newBatch(bytes: number): CaptureBatch {
  return { buf: new ArrayBuffer(bytes), used: 0, frames: 0, strings: [] };
}

/** Slots a frame of B bodies and C contacts takes. */
export function frameSlots(B: number, C: number): number {
  return 5 + (POSE_STRIDE + VELOCITY_STRIDE) * B + CONTACT_STRIDE * C + Math.ceil((CONTACT_INFO_STRIDE * C) / 2);
}

/**
 * Writes records into a batch. `reserve(slots)` must be called (and true) before each record;
 * when it is false the caller hands the batch on and starts the next one (`attach`).
 */
export class StepCapture {
  private batch: CaptureBatch | null = null;
  private f = new Float64Array(0);
  private i32 = new Int32Array(0);
  private u8 = new Uint8Array(0);
  /** Next free slot. */
  private o = 0;

  attach(b: CaptureBatch): void {
    this.batch = b;
    b.used = 0;
    b.frames = 0;
    b.strings.length = 0;
    this.f = new Float64Array(b.buf);
    this.i32 = new Int32Array(b.buf);
    this.u8 = new Uint8Array(b.buf);
    this.o = 0;
  }

  /** The batch being filled, detached (null when none or empty). */
  detach(): CaptureBatch | null {
    const b = this.batch;
    this.batch = null;
    if (b === null) return null;
    b.used = this.o * 8;
    return b;
  }

  get attached(): boolean {
    return this.batch !== null;
  }

  get empty(): boolean {
    return this.o === 0;
  }

  /** True when `slots` more slots fit. */
  fits(slots: number): boolean {
    return this.batch !== null && this.o + slots <= this.f.length;
  }

  frame(step: number, time: number, B: number, C: number, poses: Float64Array, velocities: Float64Array, contacts: Float64Array, contactInfo: Int32Array): void {
    const f = this.f;
    let o = this.o;
    f[o] = REC_FRAME;
    f[o + 1] = step;
    f[o + 2] = time;
    f[o + 3] = B;
    f[o + 4] = C;
    o += 5;
    f.set(poses.subarray(0, POSE_STRIDE * B), o);
    o += POSE_STRIDE * B;
    f.set(velocities.subarray(0, VELOCITY_STRIDE * B), o);
    o += VELOCITY_STRIDE * B;
    f.set(contacts.subarray(0, CONTACT_STRIDE * C), o);
    o += CONTACT_STRIDE * C;
    this.i32.set(contactInfo.subarray(0, CONTACT_INFO_STRIDE * C), 2 * o);
    o += Math.ceil((CONTACT_INFO_STRIDE * C) / 2);
    this.o = o;
    this.batch!.frames++;
  }

  input(step: number, throttle: number, steer: number): void {
    const f = this.f, o = this.o;
    f[o] = REC_INPUT;
    f[o + 1] = step;
    f[o + 2] = throttle;
    f[o + 3] = steer;
    this.o = o + 4;
  }

  keyframe(step: number, hash: string, bytes: Uint8Array): void {
    const f = this.f, o = this.o, b = this.batch!;
    f[o] = REC_KEYFRAME;
    f[o + 1] = step;
    f[o + 2] = b.strings.push(hash) - 1;
    f[o + 3] = bytes.length;
    this.u8.set(bytes, 8 * (o + 4));
    this.o = o + 4 + Math.ceil(bytes.length / 8);
  }

  event(step: number, kind: string, message: string, body: number | undefined): void {
    const f = this.f, o = this.o, b = this.batch!;
    f[o] = REC_EVENT;
    f[o + 1] = step;
    f[o + 2] = b.strings.push(kind) - 1;
    f[o + 3] = b.strings.push(message) - 1;
    f[o + 4] = body ?? -1;
    this.o = o + 5;
  }
}

/** Slots of a keyframe record of `n` bytes. */
export function keyframeSlots(n: number): number {
  return 4 + Math.ceil(n / 8);
}
export const INPUT_SLOTS = 4;
export const EVENT_SLOTS = 5;

/**
 * Applies a batch's records to `writer` in order (writeFrame, writeInput, writeKeyframe,
 * writeEvent): the encoder side of the capture. Throws what the writer throws.
 */
export function applyBatch(writer: RecordingWriter, b: CaptureBatch): void {
  const f = new Float64Array(b.buf, 0, b.used >> 3);
  const i32 = new Int32Array(b.buf, 0, b.used >> 2);
  const u8 = new Uint8Array(b.buf, 0, b.used);
  const n = f.length;
  let o = 0;
  const frame: FrameData = { step: 0, time: 0, bodyCount: 0, contactCount: 0, poses: f, velocities: f, contacts: f, contactInfo: i32 };
  while (o < n) {
    const type = f[o];
    const step = f[o + 1];
    if (type === REC_FRAME) {
      const B = f[o + 3], C = f[o + 4];
      let p = o + 5;
      frame.step = step;
      frame.time = f[o + 2];
      frame.bodyCount = B;
      frame.contactCount = C;
      frame.poses = f.subarray(p, (p += POSE_STRIDE * B));
      frame.velocities = f.subarray(p, (p += VELOCITY_STRIDE * B));
      frame.contacts = f.subarray(p, (p += CONTACT_STRIDE * C));
      frame.contactInfo = i32.subarray(2 * p, 2 * p + CONTACT_INFO_STRIDE * C);
      writer.writeFrame(frame);
      o = p + Math.ceil((CONTACT_INFO_STRIDE * C) / 2);
    } else if (type === REC_INPUT) {
      writer.writeInput({ step, throttle: f[o + 2], steer: f[o + 3] });
      o += INPUT_SLOTS;
    } else if (type === REC_KEYFRAME) {
      const len = f[o + 3];
      writer.writeKeyframe({ step, hash: b.strings[f[o + 2]], bytes: u8.subarray(8 * (o + 4), 8 * (o + 4) + len) });
      o += keyframeSlots(len);
    } else if (type === REC_EVENT) {
      const body = f[o + 4];
      writer.writeEvent({ step, kind: b.strings[f[o + 2]], message: b.strings[f[o + 3]], ...(body >= 0 ? { body } : {}) });
      o += EVENT_SLOTS;
    } else {
      throw new Error(`capture batch: unknown record type ${type} at slot ${o}`);
    }
  }
}
