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
 * loop): for 107 bodies and 420 contacts about 60 KB, cheaper than building the report
 * (`DynamicsWorld.frame()`, ~25 µs). When the world certifies what its last step changed
 * (`DynamicsWorld.lastStepChanges`) and the previous step is the last frame captured, the record
 * is a *changes* record instead: the bodies the step may have moved, and per contact either the
 * previous step's contact it is a bit-for-bit copy of or its new numbers. In a scene of sleeping
 * rocks that is a tenth of the bytes (the standard vehicle scene: 13 of 107 bodies, 41 of 432
 * contacts per step). The encoder's `FrameDecoder` turns a record into the report layout with the
 * world's own formulas (`frameFromRaw`, bit-identical to `frame()`): the whole report from a full
 * record; from a changes record the listed bodies' and the new contacts' entries, the rest taken
 * from the report before. The file is the same whichever record a step got, and the writer is
 * told what cannot have changed (`FrameChangeHint`), so it compares only the rest.
 *
 * Record layout (slot = f64; o = the record's first slot):
 *   frame    o: 1, step, time, B, C, substeps, pos[3B] rot[4B] linVel[3B] angVel[3B] comLocal[3B],
 *            point[3C] normal[3C] depth[C] normalImpulse[C] t1Impulse[C] t2Impulse[C] (per substep),
 *            then i32 bodyA[C] bodyB[C] cellI[C] cellJ[C] element[C], then u8 kind[C] (padded to whole
 *            slots); element is the terrain element under the contact (report.ts contactElements,
 *            computed here on the stepping thread, which holds the heightfield)
 *   changes  o: 5, step, time, B, C, substeps, nb, nf, then the arrays of a frame record (from
 *            pos on, same layout) of the nb listed bodies and the nf new contacts only, then
 *            i32 bodyIndex[nb] (ascending) source[C] (per contact: the previous frame's contact it
 *            equals, or −1 for the next new one), padded to whole slots
 *   input    o: 2, step, throttle, steer
 *   keyframe o: 3, step, 0, byteLength, saveState bytes (padded to whole slots); the encoder
 *            computes the state hash (`hashFloat64`, what `stateHash()` gives) from them
 *   event    o: 4, step, kind (string index), message (string index), body (−1: none)
 *   joint    o: 6, step, joint name (string index), velocity
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import { ReportArrays, contactElement, contactElements, writeBodyReport, writeContactReport } from '../dynamics/report';
import { hashFloat64, type DynamicsWorld } from '../dynamics/world';
import type { FrameData } from './format';
import type { RecordingWriter } from './writer';

export const REC_FRAME = 1;
export const REC_INPUT = 2;
export const REC_KEYFRAME = 3;
export const REC_EVENT = 4;
export const REC_CHANGES = 5;
export const REC_JOINT_INPUT = 6;

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

/** A new, empty capture batch of `bytes` bytes (allocates). */
export function newBatch(bytes: number): CaptureBatch {
  return { buf: new ArrayBuffer(bytes), used: 0, frames: 0, strings: [] };
}

/** Slots a frame of B bodies and C contacts takes. */
export function frameSlots(B: number, C: number): number {
  return FRAME_HEAD + RAW_BODY * B + RAW_CONTACT * C + Math.ceil((4 * RAW_CONTACT_INTS + 1) * C / 8);
}
const FRAME_HEAD = 6;
/** f64 per body (pos rot linVel angVel comLocal) and per contact (point normal depth 3 impulses). */
const RAW_BODY = 16;
const RAW_CONTACT = 10;
/** i32 per contact (bodyA bodyB cellI cellJ element), then one u8 (kind). */
const RAW_CONTACT_INTS = 5;
const CHANGES_HEAD = 8;

/** Slots a changes record of nb bodies, C contacts and nf new ones takes. */
export function changesSlots(nb: number, C: number, nf: number): number {
  return frameSlots(nb, nf) + (CHANGES_HEAD - FRAME_HEAD) + Math.ceil((nb + C) / 2);
}

/**
 * Where each array of a frame record at slot `o` with B bodies and C contacts starts: f64 slots
 * for the float arrays, i32 and u8 indices (of views over the whole buffer) for the others.
 */
interface FrameLayout {
  pos: number; rot: number; lin: number; ang: number; com: number;
  point: number; normal: number; depth: number; ni: number; t1: number; t2: number;
  bodyA: number; bodyB: number; cellI: number; cellJ: number; element: number; kind: number;
  /** The slot after the record. */
  end: number;
}
function frameLayout(out: FrameLayout, o: number, B: number, C: number, head = FRAME_HEAD): FrameLayout {
  out.pos = o + head;
  out.rot = out.pos + 3 * B;
  out.lin = out.rot + 4 * B;
  out.ang = out.lin + 3 * B;
  out.com = out.ang + 3 * B;
  out.point = out.com + 3 * B;
  out.normal = out.point + 3 * C;
  out.depth = out.normal + 3 * C;
  out.ni = out.depth + C;
  out.t1 = out.ni + C;
  out.t2 = out.t1 + C;
  out.bodyA = 2 * (out.t2 + C);
  out.bodyB = out.bodyA + C;
  out.cellI = out.bodyB + C;
  out.cellJ = out.cellI + C;
  out.element = out.cellJ + C;
  out.kind = 4 * (out.element + C);
  out.end = o + head - FRAME_HEAD + frameSlots(B, C);
  return out;
}
function newLayout(): FrameLayout {
  return frameLayout({} as FrameLayout, 0, 0, 0);
}

/**
 * Writes records into a batch. `reserve(slots)` must be called (and true) before each record;
 * when it is false the caller hands the batch on and starts the next one (`attach`).
 */
export class StepCapture {
  /** false: full frame records only (a consumer that decodes records out of order; tests). */
  private readonly changes: boolean;
  private batch: CaptureBatch | null = null;
  private f = new Float64Array(0);
  private i32 = new Int32Array(0);
  private u8 = new Uint8Array(0);
  /** Next free slot. */
  private o = 0;
  private readonly layout = newLayout();
  /** The step of the last frame record written (the base of a changes record), and its body count. */
  private lastStep = -2;
  private lastBodies = -1;
  /** planFrame's decision for `plannedStep`: a changes record (of these counts) or a full one. */
  private plannedStep = -1;
  private plannedChanges = false;
  private nb = 0;
  private nf = 0;
  private changedBodies = new Int32Array(16);
  private sources = new Int32Array(64);

  constructor(options: { changes?: boolean } = {}) {
    this.changes = options.changes ?? true;
  }

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

  /**
   * Decides how the frame of the world's step `step` will be recorded (a changes record when the
   * world certifies the step's changes against the last frame captured and that is smaller) and
   * returns the slots it needs: call before `frame`, with the same world and step.
   */
  planFrame(step: number, world: DynamicsWorld): number {
    const B = world.bodies.count, C = world.contacts.count;
    if (this.changedBodies.length < B) this.changedBodies = new Int32Array(2 * B);
    if (this.sources.length < C) this.sources = new Int32Array(2 * C);
    const full = frameSlots(B, C);
    this.plannedStep = step;
    this.plannedChanges = false;
    if (!this.changes || step !== this.lastStep + 1 || B !== this.lastBodies) return full;
    const nb = world.lastStepChanges(this.lastStep, this.changedBodies, this.sources);
    if (nb < 0) return full;
    let nf = 0;
    for (let i = 0; i < C; i++) if (this.sources[i] < 0) nf++;
    const slots = changesSlots(nb, C, nf);
    if (slots >= full) return full;
    this.nb = nb;
    this.nf = nf;
    this.plannedChanges = true;
    return slots;
  }

  /**
   * The world's state after its step `step` (see the record layouts above), as `planFrame`
   * decided (which must have run for this step; its slots must fit).
   */
  frame(step: number, world: DynamicsWorld): void {
    if (this.plannedStep !== step) this.planFrame(step, world);
    const B = world.bodies.count;
    if (this.plannedChanges) this.changesFrame(step, world);
    else this.fullFrame(step, world);
    this.plannedStep = -1;
    this.lastStep = step;
    this.lastBodies = B;
    this.batch!.frames++;
  }

  private fullFrame(step: number, world: DynamicsWorld): void {
    const f = this.f, b = world.bodies, c = world.contacts;
    const B = b.count, C = c.count;
    const o = this.o;
    f[o] = REC_FRAME;
    f[o + 1] = step;
    f[o + 2] = world.time;
    f[o + 3] = B;
    f[o + 4] = C;
    f[o + 5] = world.substeps;
    const L = frameLayout(this.layout, o, B, C);
    f.set(b.pos.subarray(0, 3 * B), L.pos);
    f.set(b.rot.subarray(0, 4 * B), L.rot);
    f.set(b.linVel.subarray(0, 3 * B), L.lin);
    f.set(b.angVel.subarray(0, 3 * B), L.ang);
    f.set(b.comLocal.subarray(0, 3 * B), L.com);
    f.set(c.point.subarray(0, 3 * C), L.point);
    f.set(c.normal.subarray(0, 3 * C), L.normal);
    f.set(c.depth.subarray(0, C), L.depth);
    f.set(c.normalImpulse.subarray(0, C), L.ni);
    f.set(c.t1Impulse.subarray(0, C), L.t1);
    f.set(c.t2Impulse.subarray(0, C), L.t2);
    const i32 = this.i32;
    i32.set(c.bodyA.subarray(0, C), L.bodyA);
    i32.set(c.bodyB.subarray(0, C), L.bodyB);
    i32.set(c.cellI.subarray(0, C), L.cellI);
    i32.set(c.cellJ.subarray(0, C), L.cellJ);
    contactElements(i32, L.element, C, c.point, c.bodyB, c.cellI, c.cellJ, world.terrain);
    this.u8.set(c.kind.subarray(0, C), L.kind);
    this.o = L.end;
  }

  /** A changes record: the planned bodies and new contacts, and every contact's source. */
  private changesFrame(step: number, world: DynamicsWorld): void {
    const f = this.f, i32 = this.i32, u8 = this.u8, bodies = world.bodies, c = world.contacts;
    const C = c.count, nb = this.nb, nf = this.nf;
    const o = this.o;
    f[o] = REC_CHANGES;
    f[o + 1] = step;
    f[o + 2] = world.time;
    f[o + 3] = bodies.count;
    f[o + 4] = C;
    f[o + 5] = world.substeps;
    f[o + 6] = nb;
    f[o + 7] = nf;
    const L = frameLayout(this.layout, o, nb, nf, CHANGES_HEAD);
    const list = this.changedBodies, src = this.sources;
    const pos = bodies.pos, rot = bodies.rot, lin = bodies.linVel, ang = bodies.angVel, com = bodies.comLocal;
    for (let q = 0; q < nb; q++) {
      const b = list[q];
      for (let j = 0; j < 3; j++) {
        f[L.pos + 3 * q + j] = pos[3 * b + j];
        f[L.lin + 3 * q + j] = lin[3 * b + j];
        f[L.ang + 3 * q + j] = ang[3 * b + j];
        f[L.com + 3 * q + j] = com[3 * b + j];
      }
      for (let j = 0; j < 4; j++) f[L.rot + 4 * q + j] = rot[4 * b + j];
    }
    const point = c.point, normal = c.normal;
    for (let i = 0, m = 0; i < C; i++) {
      if (src[i] >= 0) continue;
      for (let j = 0; j < 3; j++) {
        f[L.point + 3 * m + j] = point[3 * i + j];
        f[L.normal + 3 * m + j] = normal[3 * i + j];
      }
      f[L.depth + m] = c.depth[i];
      f[L.ni + m] = c.normalImpulse[i];
      f[L.t1 + m] = c.t1Impulse[i];
      f[L.t2 + m] = c.t2Impulse[i];
      i32[L.bodyA + m] = c.bodyA[i];
      i32[L.bodyB + m] = c.bodyB[i];
      i32[L.cellI + m] = c.cellI[i];
      i32[L.cellJ + m] = c.cellJ[i];
      i32[L.element + m] = contactElement(i, point, c.bodyB, c.cellI, c.cellJ, world.terrain);
      u8[L.kind + m] = c.kind[i];
      m++;
    }
    i32.set(list.subarray(0, nb), 2 * L.end);
    i32.set(src.subarray(0, C), 2 * L.end + nb);
    this.o = o + changesSlots(nb, C, nf);
  }

  input(step: number, throttle: number, steer: number): void {
    const f = this.f, o = this.o;
    f[o] = REC_INPUT;
    f[o + 1] = step;
    f[o + 2] = throttle;
    f[o + 3] = steer;
    this.o = o + 4;
  }

  /** A per-joint velocity command (its name is one of the batch's strings). */
  jointInput(step: number, joint: string, velocity: number): void {
    const f = this.f, o = this.o, b = this.batch!;
    f[o] = REC_JOINT_INPUT;
    f[o + 1] = step;
    f[o + 2] = b.strings.push(joint) - 1;
    f[o + 3] = velocity;
    this.o = o + JOINT_INPUT_SLOTS;
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
export const JOINT_INPUT_SLOTS = 4;
export const EVENT_SLOTS = 5;

/**
 * Applies a batch's records to `writer` in order (writeFrame, writeInput, writeKeyframe,
 * writeEvent): the encoder side of the capture. `decoder` carries the last frame from one batch
 * to the next (one per writer). Throws what the writer throws, and on a record that does not fit.
 */
export function applyBatch(writer: RecordingWriter, b: CaptureBatch, decoder: FrameDecoder): void {
  const f = new Float64Array(b.buf, 0, b.used >> 3);
  const i32 = new Int32Array(b.buf, 0, b.used >> 2);
  const u8 = new Uint8Array(b.buf, 0, b.used);
  const n = f.length;
  let o = 0;
  const frame = decoder.frame;
  while (o < n) {
    const type = f[o];
    const step = f[o + 1];
    if (type === REC_FRAME || type === REC_CHANGES) {
      o = decoder.decode(f, i32, u8, o);
      writer.writeFrame(frame, decoder.hint ?? undefined);
    } else if (type === REC_INPUT) {
      writer.writeInput({ step, throttle: f[o + 2], steer: f[o + 3] });
      o += INPUT_SLOTS;
    } else if (type === REC_JOINT_INPUT) {
      writer.writeJointInput({ step, joint: b.strings[f[o + 2]], velocity: f[o + 3] });
      o += JOINT_INPUT_SLOTS;
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

/** The report arrays a decoded frame is built in (dynamics/report.ts, grown as needed). */
export { ReportArrays as ReportScratch };

/**
 * What a changes record says cannot differ from the frame before it (step `baseStep`): every
 * body not in `bodies[0..nb)`, and each contact i with sources[i] ≥ 0, which equals that frame's
 * contact sources[i]. RecordingWriter.writeFrame compares only the rest.
 */
export interface FrameChangeHint {
  baseStep: number;
  bodies: Int32Array;
  nb: number;
  sources: Int32Array;
}

/**
 * The encoder side of frame records: turns a full or a changes record into the step's report
 * (`frame`, reused for every record; `hint` is set after a changes record, else null). Keeps the
 * report of the last frame: a changes record (which must be for the step after it) updates the
 * listed bodies' entries in place and rebuilds the contact list from that report's entries and
 * the new contacts'.
 */
export class FrameDecoder {
  readonly frame: FrameData = { step: -1, time: 0, bodyCount: 0, contactCount: 0, poses: new Float64Array(0), velocities: new Float64Array(0), contacts: new Float64Array(0), contactInfo: new Int32Array(0) };
  hint: FrameChangeHint | null = null;
  private readonly hintRecord: FrameChangeHint = { baseStep: -1, bodies: new Int32Array(0), nb: 0, sources: new Int32Array(0) };
  /** The report (its contact arrays swap with `spare` at every changes record). */
  private readonly report = new ReportArrays();
  private readonly spare = new ReportArrays();
  /** The listed bodies' and new contacts' entries of a changes record. */
  private readonly part = new ReportArrays();
  private readonly partFrame: FrameData = { step: 0, time: 0, bodyCount: 0, contactCount: 0, poses: new Float64Array(0), velocities: new Float64Array(0), contacts: new Float64Array(0), contactInfo: new Int32Array(0) };
  private readonly layout = newLayout();

  /** Decodes the frame or changes record at slot `o` into `frame`; returns the slot after it. */
  decode(f: Float64Array, i32: Int32Array, u8: Uint8Array, o: number): number {
    if (f[o] === REC_FRAME) {
      this.hint = null;
      return frameFromRaw(this.frame, f, i32, u8, o, this.report);
    }
    return this.applyChanges(f, i32, u8, o);
  }

  private applyChanges(f: Float64Array, i32: Int32Array, u8: Uint8Array, o: number): number {
    const step = f[o + 1], time = f[o + 2], B = f[o + 3], C = f[o + 4], substeps = f[o + 5], nb = f[o + 6], nf = f[o + 7];
    const out = this.frame, prevC = out.contactCount;
    if (out.step !== step - 1 || out.bodyCount !== B) throw new Error(`capture batch: the changes record of step ${step} (${B} bodies) does not follow the last frame (step ${out.step}, ${out.bodyCount} bodies)`);
    // the listed bodies' and the new contacts' entries, by the same formulas as a whole frame
    const L = frameLayout(this.layout, o, nb, nf, CHANGES_HEAD);
    const part = this.partFrame;
    reportFromRaw(part, f, i32, u8, L, nb, nf, substeps, this.part);
    const list = i32.subarray(2 * L.end, 2 * L.end + nb), sources = i32.subarray(2 * L.end + nb, 2 * L.end + nb + C);
    const poses = out.poses, vel = out.velocities;
    for (let q = 0; q < nb; q++) {
      const b = list[q];
      if (!(b >= 0 && b < B) || (q > 0 && b <= list[q - 1])) throw new Error(`capture batch: the changes record of step ${step} lists body ${b} of ${B} out of order`);
      for (let j = 0; j < POSE_STRIDE; j++) poses[b * POSE_STRIDE + j] = part.poses[q * POSE_STRIDE + j];
      for (let j = 0; j < VELOCITY_STRIDE; j++) vel[b * VELOCITY_STRIDE + j] = part.velocities[q * VELOCITY_STRIDE + j];
    }
    // contacts: each from its source in the last report, or the next new one
    const next = this.spare;
    next.reserveContacts(C);
    const con = next.contacts, info = next.contactInfo, pc = out.contacts, pi = out.contactInfo, fc = part.contacts, fi = part.contactInfo;
    // runs of consecutive sources (a sleeping pile's contacts) are one block copy each
    let m = 0;
    for (let i = 0; i < C;) {
      const s = sources[i];
      if (s >= 0) {
        let n = 1;
        while (i + n < C && sources[i + n] === s + n) n++;
        if (s + n > prevC) throw new Error(`capture batch: contacts ${i}..${i + n - 1} of step ${step} name contacts ${s}..${s + n - 1} of the ${prevC} before`);
        con.set(pc.subarray(s * CONTACT_STRIDE, (s + n) * CONTACT_STRIDE), i * CONTACT_STRIDE);
        info.set(pi.subarray(s * CONTACT_INFO_STRIDE, (s + n) * CONTACT_INFO_STRIDE), i * CONTACT_INFO_STRIDE);
        i += n;
      } else {
        if (m >= nf) throw new Error(`capture batch: the changes record of step ${step} has ${nf} new contacts, its sources name more`);
        for (let j = 0; j < CONTACT_STRIDE; j++) con[i * CONTACT_STRIDE + j] = fc[m * CONTACT_STRIDE + j];
        for (let j = 0; j < CONTACT_INFO_STRIDE; j++) info[i * CONTACT_INFO_STRIDE + j] = fi[m * CONTACT_INFO_STRIDE + j];
        m++;
        i++;
      }
    }
    if (m !== nf) throw new Error(`capture batch: the changes record of step ${step} has ${nf} new contacts, its sources name ${m}`);
    // the rebuilt list becomes the report's, the old one the spare
    const r = this.report;
    next.contacts = r.contacts;
    next.contactInfo = r.contactInfo;
    r.contacts = con;
    r.contactInfo = info;
    out.step = step;
    out.time = time;
    out.contactCount = C;
    out.contacts = con.subarray(0, CONTACT_STRIDE * C);
    out.contactInfo = info.subarray(0, CONTACT_INFO_STRIDE * C);
    const h = this.hintRecord;
    h.baseStep = step - 1;
    h.bodies = list;
    h.nb = nb;
    h.sources = sources;
    this.hint = h;
    return o + changesSlots(nb, C, nf);
  }
}

/**
 * Builds the report (spec.ts layout, what `DynamicsWorld.frame()` returns, bit for bit: the same
 * writers, dynamics/report.ts) of the frame record at slot `o` into `out` (arrays of `scratch`).
 * Returns the slot after the record.
 */
export function frameFromRaw(out: FrameData, f: Float64Array, i32: Int32Array, u8: Uint8Array, o: number, scratch: ReportArrays): number {
  const B = f[o + 3], C = f[o + 4];
  const L = frameLayout(rawLayout, o, B, C);
  reportFromRaw(out, f, i32, u8, L, B, C, f[o + 5], scratch);
  out.step = f[o + 1];
  out.time = f[o + 2];
  return L.end;
}

/** The report arrays (in `scratch`, grown as needed) and counts of B bodies and C contacts laid out as `L` says. */
function reportFromRaw(out: FrameData, f: Float64Array, i32: Int32Array, u8: Uint8Array, L: FrameLayout, B: number, C: number, substeps: number, scratch: ReportArrays): void {
  scratch.reserve(B, C);
  const poses = scratch.poses, vel = scratch.velocities, con = scratch.contacts, info = scratch.contactInfo;
  writeBodyReport(poses, vel, B, {
    pos: f.subarray(L.pos, L.rot), rot: f.subarray(L.rot, L.lin), linVel: f.subarray(L.lin, L.ang), angVel: f.subarray(L.ang, L.com), comLocal: f.subarray(L.com, L.com + 3 * B),
  });
  writeContactReport(con, info, C, {
    point: f.subarray(L.point, L.normal), normal: f.subarray(L.normal, L.depth), depth: f.subarray(L.depth, L.ni),
    normalImpulse: f.subarray(L.ni, L.t1), t1Impulse: f.subarray(L.t1, L.t2), t2Impulse: f.subarray(L.t2, L.t2 + C),
    kind: u8.subarray(L.kind, L.kind + C), bodyA: i32.subarray(L.bodyA, L.bodyB), bodyB: i32.subarray(L.bodyB, L.cellI),
    cellI: i32.subarray(L.cellI, L.cellJ), cellJ: i32.subarray(L.cellJ, L.element),
  }, i32.subarray(L.element, L.element + C), substeps);
  out.bodyCount = B;
  out.contactCount = C;
  out.poses = poses.subarray(0, POSE_STRIDE * B);
  out.velocities = vel.subarray(0, VELOCITY_STRIDE * B);
  out.contacts = con.subarray(0, CONTACT_STRIDE * C);
  out.contactInfo = info.subarray(0, CONTACT_INFO_STRIDE * C);
}
const rawLayout = newLayout();
