/**
 * Delta frames (recording format version 2): a frame that stores only what changed since the
 * frame before it, so the bodies that sleep (and the contacts they keep) cost nothing per step.
 *
 * The unit of change is the body: a body's pose and velocity (13 numbers), and its contact block,
 * the contacts whose bodyA is that body. The world reports contacts ordered by bodyA (the
 * collision pass walks the bodies in index order and a sleeping body's contacts are carried over
 * bit for bit), so a frame's contacts are the concatenation of the blocks of bodies 0, 1, …, B−1.
 * A frame whose contacts are not in that order (or name a bodyA outside 0..B−1) has no blocks and
 * is always written in full (format.ts layout 1).
 *
 * Delta layout (`/terrawheel/frame`, layout version 2; little-endian, F = f32 or f64 by flag bit 0):
 *
 *   offset  type      field
 *   0       u16       layout version (2)
 *   2       u16       flags: bit 0 f32, bit 1 shuffled (as layout 1)
 *   4       u32       step
 *   8       f64       time [s]
 *   16      u32       bodyCount B            (of the whole frame)
 *   20      u32       contactCount C         (of the whole frame)
 *   24      u32       baseStep               (the frame this one changes: the one written before it)
 *   28      u32       nb                     bodies whose pose or velocity changed
 *   32      u32       nk                     bodies whose contact block changed
 *   36      u32       nc                     contacts in those blocks
 *   40      F[13·nb]  px py pz qx qy qz qw vx vy vz wx wy wz of each changed body
 *           F[10·nc]  the changed blocks' contacts (spec.ts CONTACT_STRIDE fields)
 *           i32[nb]   changed body indices, ascending
 *           i32[nk]   bodies of the changed blocks, ascending
 *           i32[nk]   contacts in each changed block (0: the body lost all its contacts)
 *           i32[5·nc] the changed blocks' contactInfo
 *
 * XOR-coded (flag bit 2, always set by this writer): every float and every contactInfo number is
 * stored as the bitwise XOR with the same number of the base frame: a changed body's with the
 * body's in the base, the k-th contact of a changed block with the k-th contact of that body's
 * block in the base (0 when the base block is shorter). Values that change a little from step to
 * step keep their sign, exponent and high mantissa bits, which XOR to zero bytes that zstd
 * removes (lossless: the reader XORs with the base again). The index lists are stored plain.
 *
 * Shuffled (flag bit 1), each float array is field-major (px of every changed body, then py, …)
 * and the float and i32 blocks are stored as byte planes, as in layout 1.
 *
 * Reconstruction: take the base frame, overwrite the changed bodies, and rebuild the contact list
 * block by block in body order (a changed block from this message, any other from the base).
 * "Changed" compares the raw numbers bit for bit (−0 differs from 0), so a reconstructed frame
 * equals what a full frame of the same encoding would have given. The writer writes a full frame
 * at every keyframe (and at least every keyframe interval), so reading any frame costs one full
 * frame and at most one keyframe interval of deltas; sequential reads apply one delta each.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import type { FrameChangeHint } from './capture';
import { FRAME_FLAG_F32, FRAME_FLAG_SHUFFLED, RecordingError, shuffleInto, unshuffleFrom, type FrameData, type FrameEncoding, type FrameScratch } from './format';

/** Frame layout number of a delta frame (layout 1 is the full frame). */
export const FRAME_LAYOUT_DELTA = 2;
export const DELTA_HEADER_BYTES = 40;
/** Delta flag: numbers are XOR-coded against the base frame's. */
export const FRAME_FLAG_XOR = 4;
const KNOWN_FLAGS = FRAME_FLAG_F32 | FRAME_FLAG_SHUFFLED | FRAME_FLAG_XOR;
/** Numbers per changed body: pose then velocity. */
const BODY_NUMBERS = POSE_STRIDE + VELOCITY_STRIDE;

/**
 * Block starts of a frame's contacts: block b is contacts start[b] .. start[b + 1] − 1 (those with
 * bodyA = b). Returns false when the contacts are not in bodyA order or a bodyA is outside
 * 0..bodyCount−1 (then `start` means nothing).
 */
export function contactBlocks(start: Int32Array, info: ArrayLike<number>, contactCount: number, bodyCount: number): boolean {
  let k = 0;
  for (let b = 0; b < bodyCount; b++) {
    start[b] = k;
    while (k < contactCount && info[k * CONTACT_INFO_STRIDE + 1] === b) k++;
  }
  start[bodyCount] = k;
  return k === contactCount;
}

/**
 * An Int32Array over a Float64Array's bytes, kept while the Float64Array is a view of the same
 * memory (the world hands out a new subarray of one buffer every step): comparing the 32-bit
 * words compares the floats bit for bit (−0 differs from 0, a NaN equals its own bits).
 */
class BitView {
  private buffer: ArrayBufferLike | null = null;
  private offset = -1;
  private view: Int32Array<ArrayBufferLike> = new Int32Array(0);
  of(a: Float64Array): Int32Array<ArrayBufferLike> {
    if (a.buffer !== this.buffer || a.byteOffset !== this.offset || this.view.length < 2 * a.length) {
      this.buffer = a.buffer;
      this.offset = a.byteOffset;
      this.view = new Int32Array(a.buffer, a.byteOffset, 2 * a.length);
    }
    return this.view;
  }
}

/**
 * Per-body change detection between consecutive frames of one writer. `compare(f)` fills the
 * change lists for `f` against the frame last `commit`ted; `commit(f)` makes `f` the base of the
 * next one. Reusable buffers: nothing is allocated per frame once they have grown.
 */
export class FrameChanges {
  /** Body indices whose pose or velocity changed (first `changedBodies` entries). */
  bodies = new Int32Array(16);
  changedBodies = 0;
  /** Bodies whose contact block changed (first `changedBlocks` entries), and the block starts. */
  blocks = new Int32Array(16);
  changedBlocks = 0;
  /** Contacts in the changed blocks. */
  changedContacts = 0;
  /** This frame's block starts (valid when `blocked`). */
  blockStart = new Int32Array(17);
  /** This frame's contacts are in bodyA order. */
  blocked = false;
  /** A delta against the committed frame can describe this frame. */
  deltaPossible = false;
  private hasPrev = false;
  /** The committed frame's step. */
  private prevStep = -1;
  private prevBodyCount = 0;
  private prevContactCount = 0;
  private prevBlocked = false;
  /** The block layout (every block's size) is the committed frame's. */
  private sameLayout = false;
  /** The committed frame (the base of the next delta) and its block starts. */
  prevPoses = new Float64Array(0);
  prevVel = new Float64Array(0);
  prevContacts = new Float64Array(0);
  prevInfo = new Int32Array(0);
  prevStart = new Int32Array(17);
  private readonly poseBits = new BitView();
  private readonly velBits = new BitView();
  private readonly contactBits = new BitView();
  private readonly prevPoseBits = new BitView();
  private readonly prevVelBits = new BitView();
  private readonly prevContactBits = new BitView();

  /** Forget the committed frame (the next one is compared with nothing: everything changed). */
  reset(): void {
    this.hasPrev = false;
  }

  /**
   * Fills the change lists for `f` against the committed frame. With a `hint` for that frame
   * (capture.ts: what the world certified unchanged), only the bodies it lists are compared, and a
   * contact block whose contacts are, in order, the committed block's counts as unchanged without
   * a comparison; the lists come out the same as without it.
   */
  compare(f: FrameData, hint?: FrameChangeHint): void {
    const B = f.bodyCount;
    const C = f.contactCount;
    if (this.bodies.length < B) {
      this.bodies = new Int32Array(2 * B);
      this.blocks = new Int32Array(2 * B);
    }
    if (this.blockStart.length < B + 1) this.blockStart = new Int32Array(2 * B + 1);
    const start = this.blockStart;
    this.blocked = contactBlocks(start, f.contactInfo, C, B);
    this.deltaPossible = this.hasPrev && this.prevBodyCount === B && this.blocked && this.prevBlocked;
    this.sameLayout = false;
    if (!this.deltaPossible) {
      for (let b = 0; b < B; b++) this.bodies[b] = b;
      this.changedBodies = B;
      let nk = 0;
      if (this.blocked) for (let b = 0; b < B; b++) this.blocks[nk++] = b;
      this.changedBlocks = nk;
      this.changedContacts = C;
      return;
    }
    const hinted = hint !== undefined && hint.baseStep === this.prevStep && hint.sources.length === C;
    // bit-for-bit comparison on 32-bit words (two per float64)
    const p = this.poseBits.of(f.poses), v = this.velBits.of(f.velocities);
    const pp = this.prevPoseBits.of(this.prevPoses), pv = this.prevVelBits.of(this.prevVel);
    let nb = 0;
    for (let q = 0, n = hinted ? hint.nb : B; q < n; q++) {
      const b = hinted ? hint.bodies[q] : q;
      let eq = true;
      for (let j = 2 * b * POSE_STRIDE, e = j + 2 * POSE_STRIDE; j < e && eq; j++) eq = p[j] === pp[j];
      for (let j = 2 * b * VELOCITY_STRIDE, e = j + 2 * VELOCITY_STRIDE; j < e && eq; j++) eq = v[j] === pv[j];
      if (!eq) this.bodies[nb++] = b;
    }
    this.changedBodies = nb;
    const c = this.contactBits.of(f.contacts), pc = this.prevContactBits.of(this.prevContacts);
    const info = f.contactInfo, pi = this.prevInfo, ps = this.prevStart;
    let nk = 0;
    let nc = 0;
    let layout = C === this.prevContactCount;
    for (let b = 0; b < B; b++) {
      const s = start[b], n = start[b + 1] - s, t = ps[b];
      let eq = n === ps[b + 1] - t;
      if (s !== t) layout = false;
      if (eq && hinted) {
        // every contact of the block the committed block's, in order: unchanged
        let same = true;
        for (let k = 0; k < n && same; k++) same = hint.sources[s + k] === t + k;
        if (same) continue;
      }
      if (eq) {
        for (let j = 0, m = 2 * n * CONTACT_STRIDE, x = 2 * s * CONTACT_STRIDE, y = 2 * t * CONTACT_STRIDE; j < m && eq; j++) eq = c[x + j] === pc[y + j];
        for (let j = 0, m = n * CONTACT_INFO_STRIDE, x = s * CONTACT_INFO_STRIDE, y = t * CONTACT_INFO_STRIDE; j < m && eq; j++) eq = info[x + j] === pi[y + j];
      }
      if (!eq) {
        this.blocks[nk++] = b;
        nc += n;
      }
    }
    this.changedBlocks = nk;
    this.changedContacts = nc;
    this.sameLayout = layout;
  }

  /** Makes `f` (just compared) the base for the next compare. */
  commit(f: FrameData): void {
    const B = f.bodyCount;
    const C = f.contactCount;
    if (this.prevPoses.length < B * POSE_STRIDE) {
      this.prevPoses = new Float64Array(2 * B * POSE_STRIDE);
      this.prevVel = new Float64Array(2 * B * VELOCITY_STRIDE);
    }
    if (this.prevContacts.length < C * CONTACT_STRIDE) {
      this.prevContacts = new Float64Array(2 * C * CONTACT_STRIDE);
      this.prevInfo = new Int32Array(2 * C * CONTACT_INFO_STRIDE);
    }
    if (this.prevStart.length < B + 1) this.prevStart = new Int32Array(2 * B + 1);
    const pp = this.prevPoses, pv = this.prevVel, pc = this.prevContacts, pi = this.prevInfo;
    // Unchanged bodies and blocks already hold these bits: copy only what changed.
    for (let k = 0; k < this.changedBodies; k++) {
      const b = this.bodies[k];
      for (let j = b * POSE_STRIDE, e = j + POSE_STRIDE; j < e; j++) pp[j] = f.poses[j];
      for (let j = b * VELOCITY_STRIDE, e = j + VELOCITY_STRIDE; j < e; j++) pv[j] = f.velocities[j];
    }
    if (this.deltaPossible && this.sameLayout) {
      const start = this.blockStart;
      for (let k = 0; k < this.changedBlocks; k++) {
        const b = this.blocks[k];
        for (let j = start[b] * CONTACT_STRIDE, e = start[b + 1] * CONTACT_STRIDE; j < e; j++) pc[j] = f.contacts[j];
        for (let j = start[b] * CONTACT_INFO_STRIDE, e = start[b + 1] * CONTACT_INFO_STRIDE; j < e; j++) pi[j] = f.contactInfo[j];
      }
    } else {
      pc.set(f.contacts.subarray(0, C * CONTACT_STRIDE));
      pi.set(f.contactInfo.subarray(0, C * CONTACT_INFO_STRIDE));
    }
    for (let b = 0; b <= B; b++) this.prevStart[b] = this.blockStart[b];
    this.prevStep = f.step;
    this.prevBodyCount = B;
    this.prevContactCount = C;
    this.prevBlocked = this.blocked;
    this.hasPrev = true;
  }
}

/** Bytes of a delta frame with these counts. */
export function encodedDeltaBytes(nb: number, nk: number, nc: number, f32: boolean): number {
  return DELTA_HEADER_BYTES + (nb * BODY_NUMBERS + nc * CONTACT_STRIDE) * (f32 ? 4 : 8) + (nb + 2 * nk + nc * CONTACT_INFO_STRIDE) * 4;
}

/**
 * Stages the floats of a delta in message order: the changed bodies' poses and velocities, then
 * the changed blocks' contacts, field-major when `shuffle` (else item after item). Block q has
 * counts[q] contacts; its k-th contact is read from contact from[b] + k of `contacts` when that is
 * still inside block b of that array (from[b] .. from[b + 1] − 1), else it is 0. With the new
 * frame's own block starts this copies the new values; with the base's, the values to XOR with.
 */
function gatherFloats(
  out: Float64Array | Float32Array, poses: ArrayLike<number>, vel: ArrayLike<number>, contacts: ArrayLike<number>,
  bodies: Int32Array, nb: number, blocks: Int32Array, counts: Int32Array, countAt: number, nk: number, from: Int32Array, shuffle: boolean,
): void {
  let k = 0;
  if (shuffle) {
    for (let j = 0; j < POSE_STRIDE; j++) for (let q = 0; q < nb; q++) out[k++] = poses[bodies[q] * POSE_STRIDE + j];
    for (let j = 0; j < VELOCITY_STRIDE; j++) for (let q = 0; q < nb; q++) out[k++] = vel[bodies[q] * VELOCITY_STRIDE + j];
    for (let j = 0; j < CONTACT_STRIDE; j++) {
      for (let q = 0; q < nk; q++) {
        const b = blocks[q], s = from[b], m = from[b + 1] - s, n = counts[countAt + q];
        for (let x = 0; x < n; x++) out[k++] = x < m ? contacts[(s + x) * CONTACT_STRIDE + j] : 0;
      }
    }
    return;
  }
  for (let q = 0; q < nb; q++) {
    for (let j = 0; j < POSE_STRIDE; j++) out[k++] = poses[bodies[q] * POSE_STRIDE + j];
    for (let j = 0; j < VELOCITY_STRIDE; j++) out[k++] = vel[bodies[q] * VELOCITY_STRIDE + j];
  }
  for (let q = 0; q < nk; q++) {
    const b = blocks[q], s = from[b], m = from[b + 1] - s, n = counts[countAt + q];
    for (let x = 0; x < n; x++) for (let j = 0; j < CONTACT_STRIDE; j++) out[k++] = x < m ? contacts[(s + x) * CONTACT_STRIDE + j] : 0;
  }
}

/** As gatherFloats, for the contactInfo numbers, written from out[at] on. */
function gatherInfo(out: Int32Array, at: number, info: ArrayLike<number>, blocks: Int32Array, counts: Int32Array, countAt: number, nk: number, from: Int32Array, shuffle: boolean): void {
  let k = at;
  if (shuffle) {
    for (let j = 0; j < CONTACT_INFO_STRIDE; j++) {
      for (let q = 0; q < nk; q++) {
        const b = blocks[q], s = from[b], m = from[b + 1] - s, n = counts[countAt + q];
        for (let x = 0; x < n; x++) out[k++] = x < m ? info[(s + x) * CONTACT_INFO_STRIDE + j] : 0;
      }
    }
    return;
  }
  for (let q = 0; q < nk; q++) {
    const b = blocks[q], s = from[b], m = from[b + 1] - s, n = counts[countAt + q];
    for (let x = 0; x < n; x++) for (let j = 0; j < CONTACT_INFO_STRIDE; j++) out[k++] = x < m ? info[(s + x) * CONTACT_INFO_STRIDE + j] : 0;
  }
}

/** a[i] ^= b[i] over the first n 32-bit words of two typed arrays' buffers. */
function xorWords(a: ArrayBufferView, b: ArrayBufferView, n: number): void {
  const x = new Int32Array(a.buffer, a.byteOffset, n);
  const y = new Int32Array(b.buffer, b.byteOffset, n);
  for (let i = 0; i < n; i++) x[i] ^= y[i];
}

/**
 * Encodes `f` as a delta against the frame at `baseStep` (the one `ch` was committed with).
 * `ch.compare(f)` must have run and `ch.deltaPossible` be true.
 */
export function encodeDeltaFrame(f: FrameData, ch: FrameChanges, baseStep: number, enc: FrameEncoding, scratch: FrameScratch): Uint8Array {
  if (!ch.deltaPossible) throw new Error('encodeDeltaFrame: this frame cannot be a delta (compare it first; it needs contacts in bodyA order)');
  const nb = ch.changedBodies, nk = ch.changedBlocks, nc = ch.changedContacts;
  const fsz = enc.f32 ? 4 : 8;
  const nf = nb * BODY_NUMBERS + nc * CONTACT_STRIDE;
  const ni = nb + 2 * nk + nc * CONTACT_INFO_STRIDE;
  const out = new Uint8Array(encodedDeltaBytes(nb, nk, nc, enc.f32));
  const dv = new DataView(out.buffer);
  dv.setUint16(0, FRAME_LAYOUT_DELTA, true);
  dv.setUint16(2, (enc.f32 ? FRAME_FLAG_F32 : 0) | (enc.shuffle ? FRAME_FLAG_SHUFFLED : 0) | FRAME_FLAG_XOR, true);
  dv.setUint32(4, f.step, true);
  dv.setFloat64(8, f.time, true);
  dv.setUint32(16, f.bodyCount, true);
  dv.setUint32(20, f.contactCount, true);
  dv.setUint32(24, baseStep, true);
  dv.setUint32(28, nb, true);
  dv.setUint32(32, nk, true);
  dv.setUint32(36, nc, true);
  const fl = scratch.floats(nf, enc.f32);
  const ints = scratch.ints(ni);
  const baseFl = scratch.other.floats(nf, enc.f32);
  const baseInts = scratch.other.ints(ni);
  const bodies = ch.bodies, blocks = ch.blocks, start = ch.blockStart;
  let i = 0;
  for (let q = 0; q < nb; q++) ints[i++] = bodies[q];
  for (let q = 0; q < nk; q++) ints[i++] = blocks[q];
  for (let q = 0; q < nk; q++) ints[i++] = start[blocks[q] + 1] - start[blocks[q]];
  const countAt = nb + nk, infoAt = nb + 2 * nk;
  gatherFloats(fl, f.poses, f.velocities, f.contacts, bodies, nb, blocks, ints, countAt, nk, start, enc.shuffle);
  gatherFloats(baseFl, ch.prevPoses, ch.prevVel, ch.prevContacts, bodies, nb, blocks, ints, countAt, nk, ch.prevStart, enc.shuffle);
  xorWords(fl, baseFl, (nf * fsz) / 4);
  gatherInfo(ints, infoAt, f.contactInfo, blocks, ints, countAt, nk, start, enc.shuffle);
  gatherInfo(baseInts, infoAt, ch.prevInfo, blocks, ints, countAt, nk, ch.prevStart, enc.shuffle);
  const xi = new Int32Array(ints.buffer, infoAt * 4, ni - infoAt);
  for (let k = 0; k < ni - infoAt; k++) xi[k] ^= baseInts[infoAt + k];
  const fBytes = new Uint8Array(fl.buffer, 0, nf * fsz);
  const iBytes = new Uint8Array(ints.buffer, 0, ni * 4);
  const o = DELTA_HEADER_BYTES;
  if (enc.shuffle) {
    shuffleInto(out, o, fBytes, fsz);
    shuffleInto(out, o + fBytes.length, iBytes, 4);
  } else {
    out.set(fBytes, o);
    out.set(iBytes, o + fBytes.length);
  }
  return out;
}

/** The step and base step of a delta frame message (header only; throws on a short message). */
export function deltaBaseStep(data: Uint8Array, where: string): number {
  if (data.length < DELTA_HEADER_BYTES) throw new RecordingError(`${where}: delta frame has ${data.length} bytes, shorter than its ${DELTA_HEADER_BYTES}-byte header`);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return dv.getUint32(24, true);
}

/**
 * Applies a delta frame message to `base` (the reconstructed frame at its base step) into `out`
 * (a different object; its arrays grow as needed). Throws RecordingError on anything that does
 * not fit: wrong base, counts that do not add up, indices out of order or range.
 */
export function applyDeltaFrame(data: Uint8Array, base: FrameData, out: FrameData, scratch: FrameScratch, where: string): FrameData {
  const bad = (what: string): RecordingError => new RecordingError(`${where}: delta frame ${what} (damaged)`);
  if (out === base) throw new Error('applyDeltaFrame: out must not be the base frame');
  if (data.length < DELTA_HEADER_BYTES) throw bad(`has ${data.length} bytes, shorter than its ${DELTA_HEADER_BYTES}-byte header`);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = dv.getUint16(0, true);
  if (version !== FRAME_LAYOUT_DELTA) throw new RecordingError(`${where}: frame layout version ${version} is not a delta frame`);
  const flags = dv.getUint16(2, true);
  if ((flags & ~KNOWN_FLAGS) !== 0) throw new RecordingError(`${where}: unknown frame flags 0x${flags.toString(16)}`);
  const f32 = (flags & FRAME_FLAG_F32) !== 0;
  const shuffled = (flags & FRAME_FLAG_SHUFFLED) !== 0;
  const xored = (flags & FRAME_FLAG_XOR) !== 0;
  const step = dv.getUint32(4, true);
  const time = dv.getFloat64(8, true);
  const B = dv.getUint32(16, true);
  const C = dv.getUint32(20, true);
  const baseStep = dv.getUint32(24, true);
  const nb = dv.getUint32(28, true);
  const nk = dv.getUint32(32, true);
  const nc = dv.getUint32(36, true);
  if (nb > B || nk > B || nc > C) throw bad(`counts ${nb} bodies, ${nk} blocks, ${nc} contacts exceed the frame's ${B} bodies and ${C} contacts`);
  if (encodedDeltaBytes(nb, nk, nc, f32) !== data.length) throw bad(`of ${nb} bodies, ${nk} blocks and ${nc} contacts should have ${encodedDeltaBytes(nb, nk, nc, f32)} bytes, has ${data.length}`);
  if (baseStep >= step) throw bad(`at step ${step} names base step ${baseStep}, not an earlier one`);
  if (base.step !== baseStep) throw bad(`at step ${step} was applied to the frame of step ${base.step}, not its base step ${baseStep}`);
  if (base.bodyCount !== B) throw bad(`has ${B} bodies, its base frame ${base.bodyCount}`);
  const bStart = scratch.blockStarts(B + 1);
  if (!contactBlocks(bStart, base.contactInfo, base.contactCount, B)) throw bad(`at step ${step}: its base frame's contacts are not in body order`);

  const fsz = f32 ? 4 : 8;
  const nf = nb * BODY_NUMBERS + nc * CONTACT_STRIDE;
  const ni = nb + 2 * nk + nc * CONTACT_INFO_STRIDE;
  const fl = scratch.floats(nf, f32);
  const ints = scratch.ints(ni);
  const fBytes = new Uint8Array(fl.buffer, 0, nf * fsz);
  const iBytes = new Uint8Array(ints.buffer, 0, ni * 4);
  const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (shuffled) {
    unshuffleFrom(fBytes, src, DELTA_HEADER_BYTES, fsz);
    unshuffleFrom(iBytes, src, DELTA_HEADER_BYTES + fBytes.length, 4);
  } else {
    fBytes.set(src.subarray(DELTA_HEADER_BYTES, DELTA_HEADER_BYTES + fBytes.length));
    iBytes.set(src.subarray(DELTA_HEADER_BYTES + fBytes.length, DELTA_HEADER_BYTES + fBytes.length + iBytes.length));
  }
  // Index lists: ascending, in range; block counts add up to nc.
  const bodyAt = 0, blockAt = nb, countAt = nb + nk, infoAt = nb + 2 * nk;
  for (let q = 0; q < nb; q++) {
    const b = ints[bodyAt + q];
    if (b < 0 || b >= B || (q > 0 && b <= ints[bodyAt + q - 1])) throw bad(`changed body list is not ascending in 0..${B - 1} at entry ${q}`);
  }
  let sum = 0;
  for (let q = 0; q < nk; q++) {
    const b = ints[blockAt + q];
    if (b < 0 || b >= B || (q > 0 && b <= ints[blockAt + q - 1])) throw bad(`changed block list is not ascending in 0..${B - 1} at entry ${q}`);
    const n = ints[countAt + q];
    if (n < 0) throw bad(`block of body ${b} has ${n} contacts`);
    sum += n;
  }
  if (sum !== nc) throw bad(`blocks hold ${sum} contacts, the header says ${nc}`);
  if (xored) {
    // undo the XOR with the base's numbers, staged the way the writer staged them
    const bodies = ints.subarray(bodyAt, bodyAt + nb);
    const blocks = ints.subarray(blockAt, blockAt + nk);
    const baseFl = scratch.other.floats(nf, f32);
    const baseInts = scratch.other.ints(ni);
    gatherFloats(baseFl, base.poses, base.velocities, base.contacts, bodies, nb, blocks, ints, countAt, nk, bStart, shuffled);
    xorWords(fl, baseFl, (nf * fsz) / 4);
    gatherInfo(baseInts, infoAt, base.contactInfo, blocks, ints, countAt, nk, bStart, shuffled);
    for (let k = infoAt; k < ni; k++) ints[k] ^= baseInts[k];
  }

  if (out.poses.length < B * POSE_STRIDE) out.poses = new Float64Array(B * POSE_STRIDE);
  if (out.velocities.length < B * VELOCITY_STRIDE) out.velocities = new Float64Array(B * VELOCITY_STRIDE);
  if (out.contacts.length < C * CONTACT_STRIDE) out.contacts = new Float64Array(C * CONTACT_STRIDE);
  if (out.contactInfo.length < C * CONTACT_INFO_STRIDE) out.contactInfo = new Int32Array(C * CONTACT_INFO_STRIDE);
  out.step = step;
  out.time = time;
  out.bodyCount = B;
  out.contactCount = C;
  const op = out.poses, ov = out.velocities, oc = out.contacts, oi = out.contactInfo;
  for (let j = 0, e = B * POSE_STRIDE; j < e; j++) op[j] = base.poses[j];
  for (let j = 0, e = B * VELOCITY_STRIDE; j < e; j++) ov[j] = base.velocities[j];
  // Changed bodies: field-major (shuffled) or 13 numbers per body.
  for (let q = 0; q < nb; q++) {
    const b = ints[bodyAt + q];
    for (let j = 0; j < POSE_STRIDE; j++) op[b * POSE_STRIDE + j] = shuffled ? fl[j * nb + q] : fl[q * BODY_NUMBERS + j];
    for (let j = 0; j < VELOCITY_STRIDE; j++) ov[b * VELOCITY_STRIDE + j] = shuffled ? fl[(POSE_STRIDE + j) * nb + q] : fl[q * BODY_NUMBERS + POSE_STRIDE + j];
  }
  // Contacts, block by block in body order.
  const cAt = nb * BODY_NUMBERS;
  let k = 0; // next contact of `out`
  let x = 0; // next contact of this message
  let q = 0; // next changed block
  for (let b = 0; b < B; b++) {
    if (q < nk && ints[blockAt + q] === b) {
      const n = ints[countAt + q++];
      if (k + n > C) throw bad(`rebuilds more than its ${C} contacts`);
      for (let e = x + n; x < e; x++, k++) {
        for (let j = 0; j < CONTACT_STRIDE; j++) oc[k * CONTACT_STRIDE + j] = shuffled ? fl[cAt + j * nc + x] : fl[cAt + x * CONTACT_STRIDE + j];
        for (let j = 0; j < CONTACT_INFO_STRIDE; j++) oi[k * CONTACT_INFO_STRIDE + j] = shuffled ? ints[infoAt + j * nc + x] : ints[infoAt + x * CONTACT_INFO_STRIDE + j];
        if (oi[k * CONTACT_INFO_STRIDE + 1] !== b) throw bad(`contact ${x} sits in the block of body ${b} but names bodyA ${oi[k * CONTACT_INFO_STRIDE + 1]}`);
      }
    } else {
      const s = bStart[b], n = bStart[b + 1] - s;
      if (k + n > C) throw bad(`rebuilds more than its ${C} contacts`);
      for (let j = 0, m = n * CONTACT_STRIDE, y = s * CONTACT_STRIDE, z = k * CONTACT_STRIDE; j < m; j++) oc[z + j] = base.contacts[y + j];
      for (let j = 0, m = n * CONTACT_INFO_STRIDE, y = s * CONTACT_INFO_STRIDE, z = k * CONTACT_INFO_STRIDE; j < m; j++) oi[z + j] = base.contactInfo[y + j];
      k += n;
    }
  }
  if (k !== C) throw bad(`rebuilds ${k} contacts, the header says ${C}`);
  return out;
}
