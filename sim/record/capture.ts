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
 * A frame record is the world's own flat arrays, copied whole (`TypedArray.set`, no per-body
 * loop): for 107 bodies and 420 contacts about 60 KB, a few µs, cheaper than building the report
 * (`DynamicsWorld.frame()`, ~25 µs) or than picking the awake bodies one by one. The encoder turns
 * it into the report layout with the world's own formulas (`frameFromRaw`, bit-identical to
 * `frame()`).
 *
 * Record layout (slot = f64; o = the record's first slot):
 *   frame    o: 1, step, time, B, C, substeps, pos[3B] rot[4B] linVel[3B] angVel[3B] comLocal[3B],
 *            point[3C] normal[3C] depth[C] normalImpulse[C] t1Impulse[C] t2Impulse[C] (per substep),
 *            then i32 bodyA[C] bodyB[C] cellI[C] cellJ[C], then u8 kind[C] (padded to whole slots)
 *   input    o: 2, step, throttle, steer
 *   keyframe o: 3, step, 0, byteLength, saveState bytes (padded to whole slots); the encoder
 *            computes the state hash (`hashFloat64`, what `stateHash()` gives) from them
 *   event    o: 4, step, kind (string index), message (string index), body (−1: none)
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/spec';
import { writeBodyReport, writeContactReport } from '../dynamics/report';
import { hashFloat64, type DynamicsWorld } from '../dynamics/world';
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

/** [B] Default size of one capture buffer (about 38 steps of the vehicle scene with 420 contacts). */
export const CAPTURE_BUFFER_BYTES = 2 << 20;

export function newBatch(bytes: number): CaptureBatch {
  return { buf: new ArrayBuffer(bytes), used: 0, frames: 0, strings: [] };
}

/** Slots a frame of B bodies and C contacts takes. */
export function frameSlots(B: number, C: number): number {
  return FRAME_HEAD + RAW_BODY * B + RAW_CONTACT * C + Math.ceil((4 * 4 + 1) * C / 8);
}
const FRAME_HEAD = 6;
/** f64 per body (pos rot linVel angVel comLocal) and per contact (point normal depth 3 impulses). */
const RAW_BODY = 16;
const RAW_CONTACT = 10;

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

  /** The world's state after its step `step` (see the record layout above). */
  frame(step: number, world: DynamicsWorld): void {
    const f = this.f, b = world.bodies, c = world.contacts;
    const B = b.count, C = c.count;
    let o = this.o;
    f[o] = REC_FRAME;
    f[o + 1] = step;
    f[o + 2] = world.time;
    f[o + 3] = B;
    f[o + 4] = C;
    f[o + 5] = world.substeps;
    o += FRAME_HEAD;
    f.set(b.pos.subarray(0, 3 * B), o);
    f.set(b.rot.subarray(0, 4 * B), (o += 3 * B));
    f.set(b.linVel.subarray(0, 3 * B), (o += 4 * B));
    f.set(b.angVel.subarray(0, 3 * B), (o += 3 * B));
    f.set(b.comLocal.subarray(0, 3 * B), (o += 3 * B));
    f.set(c.point.subarray(0, 3 * C), (o += 3 * B));
    f.set(c.normal.subarray(0, 3 * C), (o += 3 * C));
    f.set(c.depth.subarray(0, C), (o += 3 * C));
    f.set(c.normalImpulse.subarray(0, C), (o += C));
    f.set(c.t1Impulse.subarray(0, C), (o += C));
    f.set(c.t2Impulse.subarray(0, C), (o += C));
    o += C;
    const i32 = this.i32;
    let q = 2 * o;
    i32.set(c.bodyA.subarray(0, C), q);
    i32.set(c.bodyB.subarray(0, C), (q += C));
    i32.set(c.cellI.subarray(0, C), (q += C));
    i32.set(c.cellJ.subarray(0, C), (q += C));
    this.u8.set(c.kind.subarray(0, C), 4 * (q + C));
    this.o = o + Math.ceil((17 * C) / 8);
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

  /** A keyframe: the world's `saveState()` bytes (its hash is the encoder's work). */
  keyframe(step: number, bytes: Uint8Array): void {
    const f = this.f, o = this.o;
    f[o] = REC_KEYFRAME;
    f[o + 1] = step;
    f[o + 2] = 0;
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
  const scratch = reportScratch;
  while (o < n) {
    const type = f[o];
    const step = f[o + 1];
    if (type === REC_FRAME) {
      o = frameFromRaw(frame, f, i32, u8, o, scratch);
      writer.writeFrame(frame);
    } else if (type === REC_INPUT) {
      writer.writeInput({ step, throttle: f[o + 2], steer: f[o + 3] });
      o += INPUT_SLOTS;
    } else if (type === REC_KEYFRAME) {
      const len = f[o + 3];
      const at = 8 * (o + 4);
      // the state is float64s at an 8-byte offset: hash it as DynamicsWorld.stateHash does
      writer.writeKeyframe({ step, hash: hashFloat64(new Float64Array(b.buf, at, len / 8)), bytes: u8.subarray(at, at + len) });
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

/** The report arrays a decoded frame is built in (one set per thread, grown as needed). */
export class ReportScratch {
  poses = new Float64Array(0);
  velocities = new Float64Array(0);
  contacts = new Float64Array(0);
  contactInfo = new Int32Array(0);
}
const reportScratch = new ReportScratch();

/**
 * Builds the report (spec.ts layout, what `DynamicsWorld.frame()` returns, bit for bit: the same
 * writers, dynamics/report.ts) of the frame record at slot `o` into `out` (arrays of `scratch`).
 * Returns the slot after the record.
 */
export function frameFromRaw(out: FrameData, f: Float64Array, i32: Int32Array, u8: Uint8Array, o: number, scratch: ReportScratch): number {
  const step = f[o + 1], time = f[o + 2], B = f[o + 3], C = f[o + 4], substeps = f[o + 5];
  if (scratch.poses.length < POSE_STRIDE * B) {
    scratch.poses = new Float64Array(POSE_STRIDE * B);
    scratch.velocities = new Float64Array(VELOCITY_STRIDE * B);
  }
  if (scratch.contacts.length < CONTACT_STRIDE * C) {
    scratch.contacts = new Float64Array(2 * CONTACT_STRIDE * C);
    scratch.contactInfo = new Int32Array(2 * CONTACT_INFO_STRIDE * C);
  }
  const poses = scratch.poses, vel = scratch.velocities, con = scratch.contacts, info = scratch.contactInfo;
  const pos = o + FRAME_HEAD, rot = pos + 3 * B, lin = rot + 4 * B, ang = lin + 3 * B, com = ang + 3 * B;
  writeBodyReport(poses, vel, B, {
    pos: f.subarray(pos, rot), rot: f.subarray(rot, lin), linVel: f.subarray(lin, ang), angVel: f.subarray(ang, com), comLocal: f.subarray(com, com + 3 * B),
  });
  const point = com + 3 * B, normal = point + 3 * C, depth = normal + 3 * C, ni = depth + C, t1 = ni + C, t2 = t1 + C;
  const ints = 2 * (t2 + C), bodyA = ints, bodyB = ints + C, cellI = ints + 2 * C, cellJ = ints + 3 * C, kind = 4 * (ints + 4 * C);
  writeContactReport(con, info, C, {
    point: f.subarray(point, normal), normal: f.subarray(normal, depth), depth: f.subarray(depth, ni),
    normalImpulse: f.subarray(ni, t1), t1Impulse: f.subarray(t1, t2), t2Impulse: f.subarray(t2, t2 + C),
    kind: u8.subarray(kind, kind + C), bodyA: i32.subarray(bodyA, bodyB), bodyB: i32.subarray(bodyB, cellI),
    cellI: i32.subarray(cellI, cellJ), cellJ: i32.subarray(cellJ, cellJ + C),
  }, substeps);
  out.step = step;
  out.time = time;
  out.bodyCount = B;
  out.contactCount = C;
  out.poses = poses.subarray(0, POSE_STRIDE * B);
  out.velocities = vel.subarray(0, VELOCITY_STRIDE * B);
  out.contacts = con.subarray(0, CONTACT_STRIDE * C);
  out.contactInfo = info.subarray(0, CONTACT_INFO_STRIDE * C);
  return o + frameSlots(B, C);
}
