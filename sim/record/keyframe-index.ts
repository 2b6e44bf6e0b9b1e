/**
 * Keyframe and seek support: the steps that have a full-state keyframe (collected when the file
 * is opened) and the latest keyframe at or before a step, where a seek starts re-simulating.
 */
import type { ChunkStore } from './chunk-store';
import { decodeKeyframe, RecordingError, type KeyframeData } from './format';
import type { RecordingSource } from './io';
import { OP, parseMessageIndex, RECORD_HEAD_BYTES } from './mcap-parse';
import type { RecordingInfo } from './open-recording';
import { asRecordingError, readExactly, readU64, stepOf } from './read-checks';

/**
 * Keyframe steps from the message indexes that follow each chunk (not CRC'd: every keyframe
 * read checks the step it carries), ascending. In a scanned file the first and last chunks are
 * read now: their heads give the step range the info reports, so they must be checked.
 */
export async function collectKeyframeSteps(source: RecordingSource, store: ChunkStore, info: RecordingInfo, kfId: number, stepNs: bigint): Promise<number[]> {
  const size = info.fileBytes;
  const chunks = store.chunks;
  const kfSteps = new Set<number>();
  if (info.mode === 'scan') {
    const ends = chunks.length > 1 ? [0, chunks.length - 1] : [0];
    for (const k of ends) {
      const d = await store.load(k);
      for (const s of d.byChannel.get(kfId)?.steps ?? []) kfSteps.add(s);
    }
  }
  for (const c of chunks) {
    const at = c.messageIndexAt?.get(kfId);
    if (at === undefined) continue;
    const headB = await source.read(at, RECORD_HEAD_BYTES);
    if (headB.length < RECORD_HEAD_BYTES || headB[0] !== OP.messageIndex) continue;
    const len = readU64(headB, 1, 'message index length', at);
    if (at + RECORD_HEAD_BYTES + len > size) continue;
    const content = await readExactly(source, at + RECORD_HEAD_BYTES, len, `message index at byte ${at}`);
    const mi = parseMessageIndex(content, at);
    if (mi.channelId !== kfId) throw new RecordingError(`message index at byte ${at}: channel ${mi.channelId}, expected the keyframe channel ${kfId} (damaged)`, at);
    for (const t of mi.times) kfSteps.add(stepOf(t, stepNs, `message index at byte ${at}`));
  }
  return [...kfSteps].sort((a, b) => a - b);
}

/** The latest keyframe at or before `step` in `steps` (ascending), read and checked; null when there is none. */
export async function keyframeAtOrBefore(store: ChunkStore, steps: readonly number[], kfId: number, step: number): Promise<KeyframeData | null> {
  const i = upperBound(steps, step) - 1;
  if (i < 0) return null;
  const k = steps[i];
  try {
    const m = await store.findMessage(k, kfId);
    if (m === null) throw new RecordingError(`the keyframe index lists step ${k} but no chunk holds a keyframe there (the file's message index is damaged)`);
    const kf = decodeKeyframe(m.chunk.data.subarray(m.offset, m.offset + m.length), m.where);
    if (kf.step !== k) throw new RecordingError(`${m.where}: the keyframe indexed at step ${k} says step ${kf.step} (damaged)`);
    return kf;
  } catch (e) {
    throw asRecordingError(e, `cannot read the keyframe at step ${k}`);
  }
}

function upperBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
