/**
 * The TerraWheel recording format (MCAP profile "terrawheel", format version 2): topics, schema
 * names and the binary layouts of our own messages. docs/recordings.md is
 * the prose form of this file; keep both in step.
 *
 * Every message's MCAP log time is `step · stepNs` (stepNs = round(dt · 1e9)), so a step number
 * maps to a log time exactly and the MCAP chunk index doubles as the step index.
 *
 * All multi-byte numbers are little-endian. A frame message (`/terrawheel/frame`, one per step)
 * is a full frame (layout 3, below) or a delta frame (layout 4, frame-delta.ts: only the bodies
 * and contact blocks that changed since the frame before). Layouts 1 and 2 are the same with
 * 5 contactInfo numbers per contact (no element): files written before the element still read,
 * their frames' element is CONTACT_ELEMENT_NONE. Format version 1 files hold full frames only
 * and still read. Full frame layout:
 *
 *   offset  type   field
 *   0       u16    layout version (3; 1 in older files)
 *   2       u16    flags: bit 0 = floats are f32 (else f64); bit 1 = byte planes shuffled
 *   4       u32    step
 *   8       f64    time [s]
 *   16      u32    bodyCount B
 *   20      u32    contactCount C
 *   24      F[7B]  poses        px py pz qx qy qz qw        (F = f32 or f64, spec.ts POSE_STRIDE)
 *           F[6B]  velocities   vx vy vz wx wy wz           (VELOCITY_STRIDE)
 *           F[10C] contacts     px py pz nx ny nz depth normalImpulse tangentImpulse1 tangentImpulse2
 *           i32[6C] contactInfo kind bodyA bodyB cellI cellJ element (bodyB = −1: terrain;
 *                   layout 1: i32[5C], no element)
 *
 * With the shuffle flag each array is first put field-major (poses: px of every body, then py of
 * every body, …; contacts and contactInfo likewise per field), then the float block is stored as
 * byte planes (byte 0 of every float, then byte 1, …) and the i32 block likewise with 4 planes.
 * Unshuffled, the numbers sit in the spec.ts order one after another. Shuffling puts the slowly
 * changing sign/exponent bytes of like values, and of consecutive frames, next to each other
 * where zstd finds them (docs/recordings.md: measured sizes).
 */
import { CONTACT_ELEMENT_NONE, CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';

/** MCAP header profile of our files. */
export const RECORDING_PROFILE = 'terrawheel';
/**
 * Format version written in the `terrawheel.recording` metadata; readers refuse newer ones.
 * 4: the `/terrawheel/joint_input` channel (per-joint velocity commands as inputs); 3: contactInfo
 * carries the terrain element; 2: delta frames; 1: full frames only.
 */
export const RECORDING_FORMAT_VERSION = 4;

/**
 * [bytes] Largest uncompressed size a chunk may declare. Checked before a chunk is inflated: a
 * 35 KB zstd chunk of run-length blocks can claim 1 GiB, which would cost tens of seconds and
 * gigabytes before its CRC says it is bad (issue #28). Our writer's chunks are 1 MiB (at most
 * MAX_CHUNK_BYTES, half of this, plus one message).
 */
export const MAX_CHUNK_UNCOMPRESSED_BYTES = 64 << 20;
/** Name of the metadata record that describes the recording. */
export const RECORDING_METADATA_NAME = 'terrawheel.recording';
/** Attachment that holds the scenario JSON. */
export const SCENARIO_ATTACHMENT_NAME = 'scenario.json';

/**
 * The MCAP topics of a recording, by purpose (see docs/recordings.md for each one's schema and
 * rate).
 */
export const TOPIC = {
  frame: '/terrawheel/frame',
  keyframe: '/terrawheel/keyframe',
  input: '/terrawheel/input',
  /** Per-joint motor velocity commands (format 4 on; older files have no such channel). */
  jointInput: '/terrawheel/joint_input',
  event: '/terrawheel/event',
  wheels: '/terrawheel/wheels',
  transforms: '/terrawheel/tf',
  scene: '/terrawheel/scene',
  contacts: '/terrawheel/contacts',
  /** Bodies that did not move since the last `/terrawheel/tf` message (written when that set changes). */
  transformsResting: '/terrawheel/tf_resting',
  /** Contacts of bodies whose contact block did not change (written when that set changes). */
  contactsResting: '/terrawheel/contacts_resting',
} as const;
export type Topic = (typeof TOPIC)[keyof typeof TOPIC];

export const FRAME_SCHEMA_NAME = 'terrawheel.Frame';
export const FRAME_ENCODING = 'terrawheel.frame.v2';
export const KEYFRAME_SCHEMA_NAME = 'terrawheel.Keyframe';
export const KEYFRAME_ENCODING = 'terrawheel.keyframe.v1';

/** Layout of the full frames this build writes (6 contactInfo numbers per contact). */
export const FRAME_LAYOUT_VERSION = 3;
/** Full frames of older files: 5 contactInfo numbers per contact (no element). Read, not written. */
export const FRAME_LAYOUT_FULL_V1 = 1;
/** contactInfo numbers per contact stored in the frames of layouts 1 and 2 (before the element). */
export const CONTACT_INFO_STRIDE_V1 = 5;
export const FRAME_HEADER_BYTES = 24;
export const FRAME_FLAG_F32 = 1;
export const FRAME_FLAG_SHUFFLED = 2;
const FRAME_KNOWN_FLAGS = FRAME_FLAG_F32 | FRAME_FLAG_SHUFFLED;

export const KEYFRAME_LAYOUT_VERSION = 1;

/** Thrown for any file that is not a readable recording; says what and where. */
export class RecordingError extends Error {
  /** Byte offset in the file the problem was found at, when there is one. */
  readonly offset: number | null;
  constructor(message: string, offset: number | null = null) {
    super(message);
    this.name = 'RecordingError';
    this.offset = offset;
  }
}

/** One step's report: the spec.ts layout (arrays may be longer than the counts say). */
export interface FrameData {
  step: number;
  /** [s] */
  time: number;
  bodyCount: number;
  contactCount: number;
  poses: Float64Array;
  velocities: Float64Array;
  contacts: Float64Array;
  contactInfo: Int32Array;
}

/** How a frame's numbers are stored: precision, byte-plane shuffle, delta coding. */
export interface FrameEncoding {
  /** Store floats as f32 (half the bytes; display precision) instead of f64 (exact). */
  f32: boolean;
  /** Byte-plane shuffle (helps zstd; see the header comment). */
  shuffle: boolean;
  /**
   * Delta frames between full ones (frame-delta.ts): a frame stores only the bodies and contact
   * blocks that changed. Default true.
   */
  delta?: boolean;
}

/** Layout version of a frame message (1 full, 2 delta); throws on a message too short to say. */
export function frameLayoutOf(data: Uint8Array, where: string): number {
  if (data.length < 2) throw new RecordingError(`${where}: frame message has ${data.length} bytes`);
  return data[0] | (data[1] << 8);
}

export function frameFloatCount(bodyCount: number, contactCount: number): number {
  return bodyCount * (POSE_STRIDE + VELOCITY_STRIDE) + contactCount * CONTACT_STRIDE;
}

/** Bytes of a full frame; `infoWidth` contactInfo numbers per contact (CONTACT_INFO_STRIDE_V1 in layout 1). */
export function encodedFrameBytes(bodyCount: number, contactCount: number, f32: boolean, infoWidth: number = CONTACT_INFO_STRIDE): number {
  return FRAME_HEADER_BYTES + frameFloatCount(bodyCount, contactCount) * (f32 ? 4 : 8) + contactCount * infoWidth * 4;
}

/**
 * Sets the element of contacts 0..c−1 of a frame decoded from a layout without it (stored
 * contactInfo width `w` < CONTACT_INFO_STRIDE) to CONTACT_ELEMENT_NONE.
 */
export function fillMissingInfo(info: Int32Array, c: number, w: number): void {
  for (let i = 0; i < c; i++) for (let j = w; j < CONTACT_INFO_STRIDE; j++) info[i * CONTACT_INFO_STRIDE + j] = CONTACT_ELEMENT_NONE;
}

export function checkFrameCounts(f: FrameData): void {
  const b = f.bodyCount;
  const c = f.contactCount;
  if (!Number.isInteger(f.step) || f.step < 0 || f.step > 0xffffffff) throw new Error(`frame.step must be an integer 0..2^32−1, got ${f.step}`);
  if (!Number.isFinite(f.time)) throw new Error(`frame.time must be finite, got ${f.time}`);
  if (!Number.isInteger(b) || b < 0) throw new Error(`frame.bodyCount must be a non-negative integer, got ${b}`);
  if (!Number.isInteger(c) || c < 0) throw new Error(`frame.contactCount must be a non-negative integer, got ${c}`);
  if (f.poses.length < b * POSE_STRIDE) throw new Error(`frame.poses holds ${f.poses.length} numbers, needs ${b * POSE_STRIDE} for ${b} bodies`);
  if (f.velocities.length < b * VELOCITY_STRIDE) throw new Error(`frame.velocities holds ${f.velocities.length} numbers, needs ${b * VELOCITY_STRIDE}`);
  if (f.contacts.length < c * CONTACT_STRIDE) throw new Error(`frame.contacts holds ${f.contacts.length} numbers, needs ${c * CONTACT_STRIDE} for ${c} contacts`);
  if (f.contactInfo.length < c * CONTACT_INFO_STRIDE) throw new Error(`frame.contactInfo holds ${f.contactInfo.length} numbers, needs ${c * CONTACT_INFO_STRIDE}`);
}

/**
 * Encodes a frame into a new Uint8Array (the MCAP writer keeps it until its chunk is written).
 * `scratch` is a reusable staging buffer for the shuffle; pass the same one every call.
 */
export function encodeFrame(f: FrameData, enc: FrameEncoding, scratch: FrameScratch): Uint8Array {
  checkFrameCounts(f);
  const b = f.bodyCount;
  const c = f.contactCount;
  const nf = frameFloatCount(b, c);
  const ni = c * CONTACT_INFO_STRIDE;
  const fsz = enc.f32 ? 4 : 8;
  const out = new Uint8Array(FRAME_HEADER_BYTES + nf * fsz + ni * 4);
  const dv = new DataView(out.buffer);
  dv.setUint16(0, FRAME_LAYOUT_VERSION, true);
  dv.setUint16(2, (enc.f32 ? FRAME_FLAG_F32 : 0) | (enc.shuffle ? FRAME_FLAG_SHUFFLED : 0), true);
  dv.setUint32(4, f.step, true);
  dv.setFloat64(8, f.time, true);
  dv.setUint32(16, b, true);
  dv.setUint32(20, c, true);
  // Stage floats and ints in native little-endian typed arrays (every platform we run on is LE;
  // `assertLittleEndian` guards it), then copy or shuffle the bytes into place.
  const fl = scratch.floats(nf, enc.f32);
  const ints = scratch.ints(ni);
  if (enc.shuffle) {
    // Field-major: all bodies' px, then all py, …; all contacts' px, then all py, ….
    let k = fieldMajorIn(fl, 0, f.poses, b, POSE_STRIDE);
    k = fieldMajorIn(fl, k, f.velocities, b, VELOCITY_STRIDE);
    fieldMajorIn(fl, k, f.contacts, c, CONTACT_STRIDE);
    fieldMajorIn(ints, 0, f.contactInfo, c, CONTACT_INFO_STRIDE);
  } else {
    let k = 0;
    const np = b * POSE_STRIDE;
    const nv = b * VELOCITY_STRIDE;
    const nc = c * CONTACT_STRIDE;
    for (let i = 0; i < np; i++) fl[k++] = f.poses[i];
    for (let i = 0; i < nv; i++) fl[k++] = f.velocities[i];
    for (let i = 0; i < nc; i++) fl[k++] = f.contacts[i];
    for (let i = 0; i < ni; i++) ints[i] = f.contactInfo[i];
  }
  const fBytes = new Uint8Array(fl.buffer, 0, nf * fsz);
  const iBytes = new Uint8Array(ints.buffer, 0, ni * 4);
  let o = FRAME_HEADER_BYTES;
  if (enc.shuffle) {
    shuffleInto(out, o, fBytes, fsz);
    o += fBytes.length;
    shuffleInto(out, o, iBytes, 4);
  } else {
    out.set(fBytes, o);
    o += fBytes.length;
    out.set(iBytes, o);
  }
  return out;
}

/** Reusable staging arrays for encodeFrame/decodeFrame. */
export class FrameScratch {
  private f64 = new Float64Array(256);
  private f32 = new Float32Array(256);
  private i32 = new Int32Array(64);
  private u8 = new Uint8Array(2048);
  private starts = new Int32Array(64);
  private second: FrameScratch | null = null;
  /** A second set of staging arrays (delta frames stage the base's values beside the new ones). */
  get other(): FrameScratch {
    if (this.second === null) this.second = new FrameScratch();
    return this.second;
  }
  blockStarts(n: number): Int32Array {
    if (this.starts.length < n) this.starts = new Int32Array(Math.max(n, 2 * this.starts.length));
    return this.starts;
  }
  floats(n: number, f32: boolean): Float64Array | Float32Array {
    if (f32) {
      if (this.f32.length < n) this.f32 = new Float32Array(Math.max(n, 2 * this.f32.length));
      return this.f32;
    }
    if (this.f64.length < n) this.f64 = new Float64Array(Math.max(n, 2 * this.f64.length));
    return this.f64;
  }
  ints(n: number): Int32Array {
    if (this.i32.length < n) this.i32 = new Int32Array(Math.max(n, 2 * this.i32.length));
    return this.i32;
  }
  bytes(n: number): Uint8Array {
    if (this.u8.length < n) this.u8 = new Uint8Array(Math.max(n, 2 * this.u8.length));
    return this.u8;
  }
}

/** dst[k + j·n + i] = src[i·stride + j] for n items of `stride` fields; returns k + n·stride. */
function fieldMajorIn(dst: Float64Array | Float32Array | Int32Array, k: number, src: ArrayLike<number>, n: number, stride: number): number {
  for (let j = 0; j < stride; j++) for (let i = 0; i < n; i++) dst[k++] = src[i * stride + j];
  return k;
}

/** Inverse of fieldMajorIn; the first `width` (default: all) of the `stride` fields. */
function fieldMajorOut(dst: Float64Array | Int32Array, src: Float64Array | Float32Array | Int32Array, k: number, n: number, stride: number, width = stride): number {
  for (let j = 0; j < width; j++) for (let i = 0; i < n; i++) dst[i * stride + j] = src[k++];
  return k;
}

/** out[o + p·n + i] = src[i·w + p] for every element i and byte plane p (n = src.length / w). */
export function shuffleInto(out: Uint8Array, o: number, src: Uint8Array, w: number): void {
  const n = src.length / w;
  for (let p = 0; p < w; p++) {
    const base = o + p * n;
    for (let i = 0; i < n; i++) out[base + i] = src[i * w + p];
  }
}

/** Inverse of shuffleInto: dst[i·w + p] = src[o + p·n + i]. */
export function unshuffleFrom(dst: Uint8Array, src: Uint8Array, o: number, w: number): void {
  const n = dst.length / w;
  for (let p = 0; p < w; p++) {
    const base = o + p * n;
    for (let i = 0; i < n; i++) dst[i * w + p] = src[base + i];
  }
}

export function assertLittleEndian(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('TerraWheel recordings need a little-endian platform');
}

/** Makes an empty frame with room for `bodies` bodies and `contacts` contacts. */
export function makeFrame(bodies = 0, contacts = 0): FrameData {
  return {
    step: 0,
    time: 0,
    bodyCount: 0,
    contactCount: 0,
    poses: new Float64Array(bodies * POSE_STRIDE),
    velocities: new Float64Array(bodies * VELOCITY_STRIDE),
    contacts: new Float64Array(contacts * CONTACT_STRIDE),
    contactInfo: new Int32Array(contacts * CONTACT_INFO_STRIDE),
  };
}

/**
 * Decodes a frame message into `out` (arrays grow when too small; reuse `out` to allocate nothing
 * in steady state). Throws RecordingError (with `where` in the message) on a malformed payload.
 */
export function decodeFrame(data: Uint8Array, out: FrameData, scratch: FrameScratch, where: string): FrameData {
  if (data.length < FRAME_HEADER_BYTES) throw new RecordingError(`${where}: frame message has ${data.length} bytes, shorter than its ${FRAME_HEADER_BYTES}-byte header`);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = dv.getUint16(0, true);
  if (version !== FRAME_LAYOUT_VERSION && version !== FRAME_LAYOUT_FULL_V1) throw new RecordingError(`${where}: frame layout version ${version}, this build reads ${FRAME_LAYOUT_FULL_V1} and ${FRAME_LAYOUT_VERSION}`);
  const w = version === FRAME_LAYOUT_FULL_V1 ? CONTACT_INFO_STRIDE_V1 : CONTACT_INFO_STRIDE;
  const flags = dv.getUint16(2, true);
  if ((flags & ~FRAME_KNOWN_FLAGS) !== 0) throw new RecordingError(`${where}: unknown frame flags 0x${flags.toString(16)}`);
  const f32 = (flags & FRAME_FLAG_F32) !== 0;
  const shuffled = (flags & FRAME_FLAG_SHUFFLED) !== 0;
  const b = dv.getUint32(16, true);
  const c = dv.getUint32(20, true);
  const expected = encodedFrameBytes(b, c, f32, w);
  if (expected !== data.length) throw new RecordingError(`${where}: frame of ${b} bodies and ${c} contacts should have ${expected} bytes, has ${data.length}`);
  out.step = dv.getUint32(4, true);
  out.time = dv.getFloat64(8, true);
  out.bodyCount = b;
  out.contactCount = c;
  if (out.poses.length < b * POSE_STRIDE) out.poses = new Float64Array(b * POSE_STRIDE);
  if (out.velocities.length < b * VELOCITY_STRIDE) out.velocities = new Float64Array(b * VELOCITY_STRIDE);
  if (out.contacts.length < c * CONTACT_STRIDE) out.contacts = new Float64Array(c * CONTACT_STRIDE);
  if (out.contactInfo.length < c * CONTACT_INFO_STRIDE) out.contactInfo = new Int32Array(c * CONTACT_INFO_STRIDE);
  const nf = frameFloatCount(b, c);
  const ni = c * w;
  const fsz = f32 ? 4 : 8;
  const fl = scratch.floats(nf, f32);
  const fBytes = new Uint8Array(fl.buffer, 0, nf * fsz);
  const ints = scratch.ints(ni);
  const iBytes = new Uint8Array(ints.buffer, 0, ni * 4);
  const o = data.byteOffset + FRAME_HEADER_BYTES;
  const src = new Uint8Array(data.buffer);
  if (shuffled) {
    unshuffleFrom(fBytes, src, o, fsz);
    unshuffleFrom(iBytes, src, o + fBytes.length, 4);
  } else {
    fBytes.set(src.subarray(o, o + fBytes.length));
    iBytes.set(src.subarray(o + fBytes.length, o + fBytes.length + iBytes.length));
  }
  if (shuffled) {
    let k = fieldMajorOut(out.poses, fl, 0, b, POSE_STRIDE);
    k = fieldMajorOut(out.velocities, fl, k, b, VELOCITY_STRIDE);
    fieldMajorOut(out.contacts, fl, k, c, CONTACT_STRIDE);
    fieldMajorOut(out.contactInfo, ints, 0, c, CONTACT_INFO_STRIDE, w);
    if (w < CONTACT_INFO_STRIDE) fillMissingInfo(out.contactInfo, c, w);
    return out;
  }
  let k = 0;
  const np = b * POSE_STRIDE;
  const nv = b * VELOCITY_STRIDE;
  const nc = c * CONTACT_STRIDE;
  for (let i = 0; i < np; i++) out.poses[i] = fl[k++];
  for (let i = 0; i < nv; i++) out.velocities[i] = fl[k++];
  for (let i = 0; i < nc; i++) out.contacts[i] = fl[k++];
  if (w === CONTACT_INFO_STRIDE) for (let i = 0; i < ni; i++) out.contactInfo[i] = ints[i];
  else {
    for (let i = 0; i < c; i++) for (let j = 0; j < w; j++) out.contactInfo[i * CONTACT_INFO_STRIDE + j] = ints[i * w + j];
    fillMissingInfo(out.contactInfo, c, w);
  }
  return out;
}

/** A full-state keyframe: the world's opaque saved state, its hash and the input in effect. */
export interface KeyframeData {
  step: number;
  /** World.stateHash() at this step (hex or any text). */
  hash: string;
  /** World.saveState() bytes (opaque to the recorder). */
  bytes: Uint8Array;
  /** The drive input in effect at this step (so a replay from here needs no earlier input). */
  throttle: number;
  steer: number;
}

/*
 * Keyframe layout (`/terrawheel/keyframe`):
 *   0  u16 layout version (1)   2  u16 reserved (0)   4  u32 step
 *   8  f64 throttle             16 f64 steer
 *   24 u32 hash length H        28 u8[H] hash (UTF-8)
 *   28+H u32 state length S     32+H u8[S] state bytes
 */
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export function encodeKeyframe(k: KeyframeData): Uint8Array {
  if (!Number.isInteger(k.step) || k.step < 0 || k.step > 0xffffffff) throw new Error(`keyframe.step must be an integer 0..2^32−1, got ${k.step}`);
  if (typeof k.hash !== 'string') throw new Error('keyframe.hash must be a string');
  if (!(k.bytes instanceof Uint8Array)) throw new Error('keyframe.bytes must be a Uint8Array');
  if (!Number.isFinite(k.throttle) || !Number.isFinite(k.steer)) throw new Error(`keyframe.throttle/steer must be finite, got ${k.throttle}, ${k.steer}`);
  const h = utf8.encode(k.hash);
  const out = new Uint8Array(32 + h.length + k.bytes.length);
  const dv = new DataView(out.buffer);
  dv.setUint16(0, KEYFRAME_LAYOUT_VERSION, true);
  dv.setUint32(4, k.step, true);
  dv.setFloat64(8, k.throttle, true);
  dv.setFloat64(16, k.steer, true);
  dv.setUint32(24, h.length, true);
  out.set(h, 28);
  dv.setUint32(28 + h.length, k.bytes.length, true);
  out.set(k.bytes, 32 + h.length);
  return out;
}

export function decodeKeyframe(data: Uint8Array, where: string): KeyframeData {
  const bad = (what: string): RecordingError => new RecordingError(`${where}: keyframe message ${what}`);
  if (data.length < 32) throw bad(`has ${data.length} bytes, shorter than its 32-byte header`);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = dv.getUint16(0, true);
  if (version !== KEYFRAME_LAYOUT_VERSION) throw bad(`layout version ${version}, this build reads ${KEYFRAME_LAYOUT_VERSION}`);
  const step = dv.getUint32(4, true);
  const throttle = dv.getFloat64(8, true);
  const steer = dv.getFloat64(16, true);
  const hl = dv.getUint32(24, true);
  if (28 + hl + 4 > data.length) throw bad(`hash length ${hl} runs past its end`);
  let hash: string;
  try {
    hash = utf8Decoder.decode(data.subarray(28, 28 + hl));
  } catch {
    throw bad('hash is not UTF-8');
  }
  const sl = dv.getUint32(28 + hl, true);
  if (32 + hl + sl !== data.length) throw bad(`state length ${sl} does not match its ${data.length} bytes`);
  return { step, hash, throttle, steer, bytes: data.slice(32 + hl, 32 + hl + sl) };
}
