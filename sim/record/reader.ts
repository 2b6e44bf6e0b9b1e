/**
 * RecordingReader: opens a recording for replay, seeking and export.
 *
 * Two ways in, one way to read:
 *  - indexed: a complete file. @mcap/core's McapIndexedReader checks the footer and the summary's
 *    CRC and gives the chunk index; every chunk record's head is then compared with its index
 *    entry when the chunk is read.
 *  - linear scan: a file without a valid footer (the process was killed, the disk filled, the
 *    copy was cut) or with a damaged summary. The data section is walked record by record up to
 *    the first incomplete or unreadable one; complete chunks before it are kept and the info
 *    carries a notice saying where the recording ends and why.
 * Either way the result is a table of chunks by step range. A chunk is read, decompressed and
 * CRC-checked when first needed and kept in a small LRU cache (`cacheChunks`), so sequential
 * playback decompresses each chunk once and a seek costs one chunk.
 *
 * Nothing is passed on unchecked: chunk contents carry a CRC-32, the metadata record carries our
 * own CRC (MCAP metadata has none), the scenario attachment its MCAP CRC, and every frame and
 * keyframe read must carry the step it was looked up by. Anything else is a RecordingError that
 * says what is wrong and at which byte.
 *
 * The parts, one concern per file:
 *   open-recording.ts  header checks, indexed or scanned open, the chunk table and RecordingInfo
 *   chunk-index.ts     the chunk index from the summary (openIndexed) or a linear scan (scanLinear)
 *   chunk-store.ts     reading, checking and caching chunks; finding a message by channel and step
 *   frame-chain.ts     full and delta frames: rebuilding the frame at a step
 *   keyframe-index.ts  keyframe steps and the keyframe a seek starts from
 *   read-checks.ts     checked reads and the RecordingErrors for cut or damaged files
 */
import type { RecordingCodecs } from './codecs';
import type { ChunkEntry } from './chunk-index';
import { ChunkStore } from './chunk-store';
import { copyFrame, FrameChain } from './frame-chain';
import { makeFrame, RecordingError, TOPIC, type FrameData, type KeyframeData } from './format';
import type { RecordingSource } from './io';
import { collectKeyframeSteps, keyframeAtOrBefore } from './keyframe-index';
import { openRecording, type RecordingInfo } from './open-recording';
import { asRecordingError } from './read-checks';
import type { EventRecord, InputRecord, JointInputRecord } from './writer';

export type { RecordingInfo } from './open-recording';

/** Options of `RecordingReader.open`: the codecs and the chunk cache size. */
export interface RecordingReaderOptions {
  codecs: RecordingCodecs;
  /** Decompressed chunks kept in memory (≥ 2). Default 8 (about 8 MiB). */
  cacheChunks?: number;
}

/** Decompressed chunks a `RecordingReader` keeps by default (about 8 MiB). */
export const DEFAULT_CACHE_CHUNKS = 8;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a recording: its description, frames, keyframes, inputs and events by step, through a
 * cache of decompressed chunks.
 */
export class RecordingReader {
  readonly info: RecordingInfo;
  private readonly chunks: ChunkEntry[];
  /** Channel ids; jointInput is undefined in files before format 4. */
  private readonly ids: { frame: number; keyframe: number; input: number; jointInput: number | undefined; event: number };
  private readonly store: ChunkStore;
  private readonly frames: FrameChain;

  /** Internal: use `RecordingReader.open`. */
  constructor(source: RecordingSource, codecs: RecordingCodecs, info: RecordingInfo, chunks: ChunkEntry[], cacheChunks: number) {
    this.info = info;
    this.chunks = chunks;
    const ch = info.metadata.channels;
    this.ids = { frame: ch[TOPIC.frame], keyframe: ch[TOPIC.keyframe], input: ch[TOPIC.input], jointInput: ch[TOPIC.jointInput], event: ch[TOPIC.event] };
    this.store = new ChunkStore(source, codecs, chunks, info, BigInt(info.metadata.stepNs), cacheChunks);
    this.frames = new FrameChain(this.store, this.ids.frame);
  }

  /** Opens a recording. Throws RecordingError for anything that is not a readable recording. */
  static async open(source: RecordingSource, options: RecordingReaderOptions): Promise<RecordingReader> {
    try {
      const { info, chunks } = await openRecording(source);
      const reader = new RecordingReader(source, options.codecs, info, chunks, Math.max(2, options.cacheChunks ?? DEFAULT_CACHE_CHUNKS));
      info.keyframeSteps = await collectKeyframeSteps(source, reader.store, info, reader.ids.keyframe, BigInt(info.metadata.stepNs));
      return reader;
    } catch (e) {
      throw asRecordingError(e, 'cannot open the recording');
    }
  }

  /**
   * The frame recorded at `step`, or null when that step has no frame. Decodes into `out` when
   * given (its arrays grow as needed), else into a new frame.
   */
  async frameAt(step: number, out?: FrameData): Promise<FrameData | null> {
    try {
      const f = await this.frames.reconstruct(step);
      if (f === null) return null;
      return copyFrame(out ?? makeFrame(), f);
    } catch (e) {
      if (e instanceof RecordingError) this.frames.reset(); // a damaged chain: rebuild from scratch next time
      throw asRecordingError(e, `cannot read the frame at step ${step}`);
    }
  }

  /** Frames of steps from..to (inclusive), in order; each a new object. */
  async *framesIn(from: number, to: number): AsyncGenerator<FrameData> {
    const lo = Math.max(from, this.info.firstStep);
    const hi = Math.min(to, this.info.lastStep);
    for (let s = lo; s <= hi; s++) {
      const f = await this.frameAt(s);
      if (f !== null) yield f;
    }
  }

  /** The latest keyframe at or before `step` (null when there is none). */
  keyframeAtOrBefore(step: number): Promise<KeyframeData | null> {
    return keyframeAtOrBefore(this.store, this.info.keyframeSteps, this.ids.keyframe, step);
  }

  private async jsonMessages<T>(channelId: number, from: number, to: number, check: (v: unknown, where: string) => T): Promise<T[]> {
    const out: T[] = [];
    try {
      for (let k = 0; k < this.chunks.length; k++) {
        const e = this.chunks[k];
        // In a scanned file a damaged head could hide a chunk from this range test: each chunk
        // also covers the gaps to its neighbours, so a chunk whose head moved is still read
        // (and its head checked against its contents).
        const lo = this.info.mode === 'scan' && k > 0 ? Math.min(e.startStep, this.chunks[k - 1].endStep) : e.startStep;
        const hi = this.info.mode === 'scan' && k + 1 < this.chunks.length ? Math.max(e.endStep, this.chunks[k + 1].startStep) : e.endStep;
        if (hi < from || lo > to) continue;
        if (e.channels !== null && !e.channels.has(channelId)) continue;
        const chunk = await this.store.load(k);
        const list = chunk.byChannel.get(channelId);
        if (!list) continue;
        for (let i = 0; i < list.steps.length; i++) {
          const s = list.steps[i];
          if (s < from || s > to) continue;
          const where = `chunk at byte ${e.offset}, step ${s}`;
          let v: unknown;
          try {
            v = JSON.parse(utf8.decode(chunk.data.subarray(list.offsets[i], list.offsets[i] + list.lengths[i])));
          } catch {
            throw new RecordingError(`${where}: message is not JSON`);
          }
          const item = check(v, where);
          // A message on a chunk boundary can be seen from both chunks only if it was written
          // twice; it is not (one chunk holds it), so no de-duplication is needed.
          out.push(item);
        }
      }
    } catch (e) {
      throw asRecordingError(e, 'cannot read the recording');
    }
    return out;
  }

  /** Every drive input with its step, in order (from..to inclusive when given). */
  inputs(from = 0, to = Number.MAX_SAFE_INTEGER): Promise<InputRecord[]> {
    return this.jsonMessages(this.ids.input, from, to, (v, where) => {
      const o = v as InputRecord;
      if (typeof o !== 'object' || o === null || !Number.isInteger(o.step) || typeof o.throttle !== 'number' || typeof o.steer !== 'number') throw new RecordingError(`${where}: input message lacks step/throttle/steer`);
      return { step: o.step, throttle: o.throttle, steer: o.steer };
    });
  }

  /**
   * Every per-joint velocity command with its step, in the order written (from..to inclusive when
   * given). None in files before format 4, which could not carry them.
   */
  async jointInputs(from = 0, to = Number.MAX_SAFE_INTEGER): Promise<JointInputRecord[]> {
    const id = this.ids.jointInput;
    if (id === undefined) return [];
    return this.jsonMessages(id, from, to, (v, where) => {
      const o = v as JointInputRecord;
      if (typeof o !== 'object' || o === null || !Number.isInteger(o.step) || typeof o.joint !== 'string' || o.joint.length === 0 || typeof o.velocity !== 'number' || !Number.isFinite(o.velocity)) throw new RecordingError(`${where}: joint input message lacks step/joint/velocity`);
      return { step: o.step, joint: o.joint, velocity: o.velocity };
    });
  }

  /** Recorded events (faults, notes), in order. */
  events(from = 0, to = Number.MAX_SAFE_INTEGER): Promise<EventRecord[]> {
    return this.jsonMessages(this.ids.event, from, to, (v, where) => {
      const o = v as EventRecord;
      if (typeof o !== 'object' || o === null || !Number.isInteger(o.step) || typeof o.kind !== 'string' || typeof o.message !== 'string') throw new RecordingError(`${where}: event message lacks step/kind/message`);
      const e: EventRecord = { step: o.step, kind: o.kind, message: o.message };
      if (Number.isInteger(o.body)) e.body = o.body;
      return e;
    });
  }
}
