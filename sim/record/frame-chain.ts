/**
 * Frame decoding: frames are stored full or as deltas against an earlier frame (frame-delta.ts).
 * FrameChain rebuilds the frame at a step from the nearest full frame, or from the frame it
 * holds from the last read, so sequential playback applies one delta per step.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import type { ChunkStore } from './chunk-store';
import { applyDeltaFrame, deltaBaseStep, FRAME_LAYOUT_DELTA } from './frame-delta';
import { decodeFrame, frameLayoutOf, FrameScratch, makeFrame, RecordingError, type FrameData } from './format';

export class FrameChain {
  private readonly scratch = new FrameScratch();
  /**
   * The last frame reconstructed (delta frames build on it: sequential reads apply one delta
   * each) and a second buffer to apply the next delta into; swapped after each apply.
   */
  private current: FrameData | null = null;
  private spare: FrameData = makeFrame();

  constructor(
    private readonly store: ChunkStore,
    private readonly frameChannel: number,
  ) {}

  /** Forgets the held frame (after a damaged chain: the next read rebuilds from a full frame). */
  reset(): void {
    this.current = null;
  }

  /**
   * The frame at `step` in the reader's own buffer (valid until the next read). A delta frame
   * needs its base: walk back through the base steps to the frame held from the last read or to
   * a full frame (the writer puts one at least every keyframe interval), then apply the deltas
   * forward.
   */
  async reconstruct(step: number): Promise<FrameData | null> {
    if (this.current !== null && this.current.step === step) return this.current;
    const chain: Uint8Array[] = [];
    const wheres: string[] = [];
    let s = step;
    for (;;) {
      if (this.current !== null && this.current.step === s && chain.length > 0) break;
      const m = await this.store.findMessage(s, this.frameChannel);
      if (m === null) {
        if (chain.length === 0) return null;
        throw new RecordingError(`${wheres[wheres.length - 1]}: the delta frame's base step ${s} has no frame (damaged)`);
      }
      const data = m.chunk.data.subarray(m.offset, m.offset + m.length);
      if (frameLayoutOf(data, m.where) !== FRAME_LAYOUT_DELTA) {
        const f = decodeFrame(data, this.spare, this.scratch, m.where);
        if (f.step !== s) throw new RecordingError(`${m.where}: the frame indexed at step ${s} says step ${f.step} (damaged)`);
        this.spare = this.current ?? makeFrame();
        this.current = f;
        break;
      }
      chain.push(data);
      wheres.push(m.where);
      const base = deltaBaseStep(data, m.where);
      if (base >= s) throw new RecordingError(`${m.where}: delta frame at step ${s} names base step ${base}, not an earlier one (damaged)`);
      s = base;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const next = applyDeltaFrame(chain[k], this.current!, this.spare, this.scratch, wheres[k]);
      this.spare = this.current!;
      this.current = next;
    }
    if (this.current!.step !== step) throw new RecordingError(`the frame indexed at step ${step} says step ${this.current!.step} (damaged)`);
    return this.current;
  }
}

/** Copies the used part of `src` into `out` (its arrays grow as needed); returns `out`. */
export function copyFrame(out: FrameData, src: FrameData): FrameData {
  const np = src.bodyCount * POSE_STRIDE, nv = src.bodyCount * VELOCITY_STRIDE;
  const nc = src.contactCount * CONTACT_STRIDE, ni = src.contactCount * CONTACT_INFO_STRIDE;
  if (out.poses.length < np) out.poses = new Float64Array(np);
  if (out.velocities.length < nv) out.velocities = new Float64Array(nv);
  if (out.contacts.length < nc) out.contacts = new Float64Array(nc);
  if (out.contactInfo.length < ni) out.contactInfo = new Int32Array(ni);
  out.step = src.step;
  out.time = src.time;
  out.bodyCount = src.bodyCount;
  out.contactCount = src.contactCount;
  out.poses.set(src.poses.subarray(0, np));
  out.velocities.set(src.velocities.subarray(0, nv));
  out.contacts.set(src.contacts.subarray(0, nc));
  out.contactInfo.set(src.contactInfo.subarray(0, ni));
  return out;
}
