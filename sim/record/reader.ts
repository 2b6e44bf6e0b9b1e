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
 */
import { McapIndexedReader } from '@mcap/core';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/spec';
import { crc32 } from '../terrain/crc32';
import type { RecordingCodecs } from './codecs';
import { applyDeltaFrame, deltaBaseStep, FRAME_LAYOUT_DELTA } from './frame-delta';
import {
  decodeFrame,
  decodeKeyframe,
  frameLayoutOf,
  FrameScratch,
  makeFrame,
  RECORDING_FORMAT_VERSION,
  RECORDING_METADATA_NAME,
  RECORDING_PROFILE,
  RecordingError,
  SCENARIO_ATTACHMENT_NAME,
  TOPIC,
  type FrameData,
  type KeyframeData,
} from './format';
import type { RecordingSource } from './io';
import {
  CHUNK_HEAD_MAX_BYTES,
  Cursor,
  MCAP_MAGIC,
  OP,
  parseAttachment,
  parseChunkContent,
  parseChunkHead,
  parseMessageIndex,
  parseMetadata,
  RECORD_HEAD_BYTES,
  type ChunkHead,
} from './mcap-parse';
import type { EventRecord, InputRecord, RecordingMetadata } from './writer';

export interface RecordingInfo {
  metadata: RecordingMetadata;
  /** The scenario JSON text as recorded. */
  scenarioText: string;
  /** Parsed scenario (null when the text is not JSON). */
  scenario: unknown;
  buildId: string;
  assets: { name: string; hash: string }[];
  parent: RecordingMetadata['parent'];
  dt: number;
  /** First and last step with any message (−1, −1 for an empty recording). */
  firstStep: number;
  lastStep: number;
  /** Steps that have a full-state keyframe, ascending. */
  keyframeSteps: number[];
  /** How the file was read. */
  mode: 'indexed' | 'scan';
  /** Set when the file was cut or damaged and only a prefix is readable. */
  notice: string | null;
  fileBytes: number;
  chunkCount: number;
}

export interface RecordingReaderOptions {
  codecs: RecordingCodecs;
  /** Decompressed chunks kept in memory (≥ 2). Default 8 (about 8 MiB). */
  cacheChunks?: number;
}

interface ChunkEntry {
  /** File offset of the chunk record. */
  offset: number;
  /** Record length including opcode and length field. */
  recordLength: number;
  startStep: number;
  endStep: number;
  compression: string;
  compressedSize: number;
  uncompressedSize: number;
  /** Indexed mode: the index's view of the chunk head, to compare with the record. */
  expected: { startTime: bigint; endTime: bigint } | null;
  /** Channel ids that have messages in this chunk (indexed mode), null = unknown. */
  channels: Set<number> | null;
  /** File range of the message index records that follow the chunk. */
  messageIndexStart: number;
  messageIndexLength: number;
  /** Linear mode: channel id → message index record offset, when the scan saw them. */
  messageIndexAt: Map<number, number> | null;
}

interface DecodedChunk {
  data: Uint8Array;
  /** channel id → steps (ascending as written) and payload offsets/lengths. */
  byChannel: Map<number, { steps: number[]; offsets: number[]; lengths: number[] }>;
}

function asRecordingError(e: unknown, context: string): RecordingError {
  if (e instanceof RecordingError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new RecordingError(`${context}: ${msg}`);
}

export const DEFAULT_CACHE_CHUNKS = 8;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class RecordingReader {
  readonly info: RecordingInfo;
  private readonly source: RecordingSource;
  private readonly codecs: RecordingCodecs;
  private readonly chunks: ChunkEntry[];
  private readonly cache = new Map<number, DecodedChunk>();
  private readonly cacheChunks: number;
  private readonly ids: { frame: number; keyframe: number; input: number; event: number };
  private readonly scratch = new FrameScratch();
  private readonly stepNs: bigint;
  /**
   * The last frame reconstructed (delta frames build on it: sequential reads apply one delta
   * each) and a second buffer to apply the next delta into; swapped after each apply.
   */
  private current: FrameData | null = null;
  private spare: FrameData = makeFrame();

  /** Internal: use `RecordingReader.open`. */
  constructor(source: RecordingSource, codecs: RecordingCodecs, info: RecordingInfo, chunks: ChunkEntry[], cacheChunks: number) {
    this.source = source;
    this.codecs = codecs;
    this.info = info;
    this.chunks = chunks;
    this.cacheChunks = cacheChunks;
    const ch = info.metadata.channels;
    this.ids = { frame: ch[TOPIC.frame], keyframe: ch[TOPIC.keyframe], input: ch[TOPIC.input], event: ch[TOPIC.event] };
    this.stepNs = BigInt(info.metadata.stepNs);
  }

  /** Opens a recording. Throws RecordingError for anything that is not a readable recording. */
  static async open(source: RecordingSource, options: RecordingReaderOptions): Promise<RecordingReader> {
    try {
      const { info, chunks } = await openRecording(source);
      const reader = new RecordingReader(source, options.codecs, info, chunks, Math.max(2, options.cacheChunks ?? DEFAULT_CACHE_CHUNKS));
      await reader.collectKeyframeSteps();
      return reader;
    } catch (e) {
      throw asRecordingError(e, 'cannot open the recording');
    }
  }

  /**
   * Keyframe steps from the message indexes that follow each chunk (not CRC'd: every keyframe
   * read checks the step it carries). In a scanned file the first and last chunks are read now:
   * their heads give the step range the info reports, so they must be checked.
   */
  private async collectKeyframeSteps(): Promise<void> {
    const size = this.info.fileBytes;
    const kfId = this.ids.keyframe;
    const chunks = this.chunks;
    const source = this.source;
    const kfSteps = new Set<number>();
    if (this.info.mode === 'scan') {
      const ends = chunks.length > 1 ? [0, chunks.length - 1] : [0];
      for (const k of ends) {
        const d = await this.loadChunk(k);
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
      for (const t of mi.times) kfSteps.add(stepOf(t, this.stepNs, `message index at byte ${at}`));
    }
    this.info.keyframeSteps = [...kfSteps].sort((a, b) => a - b);
  }

  // --- chunks ------------------------------------------------------------------------------------

  private async loadChunk(index: number): Promise<DecodedChunk> {
    const entry = this.chunks[index];
    const hit = this.cache.get(entry.offset);
    if (hit) {
      this.cache.delete(entry.offset);
      this.cache.set(entry.offset, hit); // most recently used last
      return hit;
    }
    const decoded = await decodeChunk(this.source, this.codecs, entry, this.stepNs);
    this.cache.set(entry.offset, decoded);
    while (this.cache.size > this.cacheChunks) {
      const oldest = this.cache.keys().next().value as number;
      this.cache.delete(oldest);
    }
    return decoded;
  }

  /** Indices of chunks whose step range contains `step` (usually one; two at a boundary). */
  private chunksAt(step: number): number[] {
    const c = this.chunks;
    let lo = 0;
    let hi = c.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (c[mid].endStep < step) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let k = lo; k < c.length && c[k].startStep <= step; k++) out.push(k);
    if (out.length === 0 && this.info.mode === 'scan' && step >= this.info.firstStep && step <= this.info.lastStep) {
      // A gap in the middle of a scanned file: chunk heads are not indexed (nor CRC'd), so read
      // the neighbours, whose heads are checked against their contents on load.
      if (lo > 0) out.push(-(lo - 1) - 1);
      if (lo < c.length) out.push(-lo - 1);
    }
    return out;
  }

  private async findMessage(step: number, channelId: number): Promise<{ chunk: DecodedChunk; offset: number; length: number; where: string } | null> {
    for (const k of this.chunksAt(step)) {
      if (k < 0) {
        await this.loadChunk(-k - 1); // validation only (throws if its head was damaged)
        continue;
      }
      const chunk = await this.loadChunk(k);
      const list = chunk.byChannel.get(channelId);
      if (!list) continue;
      const i = lowerBound(list.steps, step);
      if (i < list.steps.length && list.steps[i] === step) {
        return { chunk, offset: list.offsets[i], length: list.lengths[i], where: `chunk at byte ${this.chunks[k].offset}, step ${step}` };
      }
    }
    return null;
  }

  // --- public reads ------------------------------------------------------------------------------

  /**
   * The frame recorded at `step`, or null when that step has no frame. Decodes into `out` when
   * given (its arrays grow as needed), else into a new frame.
   */
  async frameAt(step: number, out?: FrameData): Promise<FrameData | null> {
    try {
      const f = await this.reconstruct(step);
      if (f === null) return null;
      return copyFrame(out ?? makeFrame(), f);
    } catch (e) {
      if (e instanceof RecordingError) this.current = null; // a damaged chain: rebuild from scratch next time
      throw asRecordingError(e, `cannot read the frame at step ${step}`);
    }
  }

  /**
   * The frame at `step` in the reader's own buffer (valid until the next read). A delta frame
   * needs its base: walk back through the base steps to the frame held from the last read or to
   * a full frame (the writer puts one at least every keyframe interval), then apply the deltas
   * forward.
   */
  private async reconstruct(step: number): Promise<FrameData | null> {
    if (this.current !== null && this.current.step === step) return this.current;
    const chain: Uint8Array[] = [];
    const wheres: string[] = [];
    let s = step;
    for (;;) {
      if (this.current !== null && this.current.step === s && chain.length > 0) break;
      const m = await this.findMessage(s, this.ids.frame);
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
  async keyframeAtOrBefore(step: number): Promise<KeyframeData | null> {
    const steps = this.info.keyframeSteps;
    const i = upperBound(steps, step) - 1;
    if (i < 0) return null;
    const k = steps[i];
    try {
      const m = await this.findMessage(k, this.ids.keyframe);
      if (m === null) throw new RecordingError(`the keyframe index lists step ${k} but no chunk holds a keyframe there (the file's message index is damaged)`);
      const kf = decodeKeyframe(m.chunk.data.subarray(m.offset, m.offset + m.length), m.where);
      if (kf.step !== k) throw new RecordingError(`${m.where}: the keyframe indexed at step ${k} says step ${kf.step} (damaged)`);
      return kf;
    } catch (e) {
      throw asRecordingError(e, `cannot read the keyframe at step ${k}`);
    }
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
        const chunk = await this.loadChunk(k);
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

/** Copies the used part of `src` into `out` (its arrays grow as needed); returns `out`. */
function copyFrame(out: FrameData, src: FrameData): FrameData {
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

function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

async function readExactly(source: RecordingSource, offset: number, length: number, what: string): Promise<Uint8Array> {
  const b = await source.read(offset, length);
  if (b.length !== length) throw new RecordingError(`${what}: the file ends at byte ${offset + b.length}, inside it (bytes ${offset}–${offset + length})`, offset);
  return b;
}

function stepOf(t: bigint, stepNs: bigint, where: string): number {
  if (t % stepNs !== 0n) throw new RecordingError(`${where}: log time ${t} ns is not a whole step of ${stepNs} ns (damaged)`);
  return Number(t / stepNs);
}

async function decodeChunk(source: RecordingSource, codecs: RecordingCodecs, e: ChunkEntry, stepNs: bigint): Promise<DecodedChunk> {
  const where = `chunk at byte ${e.offset}`;
  const raw = await readExactly(source, e.offset, e.recordLength, where);
  if (raw[0] !== OP.chunk) throw new RecordingError(`${where}: expected a chunk record, found opcode 0x${raw[0].toString(16)} (damaged)`, e.offset);
  const head: ChunkHead = parseChunkHead(raw, e.offset);
  if (e.expected !== null) {
    if (head.startTime !== e.expected.startTime || head.endTime !== e.expected.endTime || head.compression !== e.compression || head.recordsLength !== e.compressedSize || head.uncompressedSize !== e.uncompressedSize) {
      throw new RecordingError(`${where}: the chunk's head does not match the file's chunk index (damaged)`, e.offset);
    }
  }
  if (head.recordsOffset - e.offset + head.recordsLength > e.recordLength) throw new RecordingError(`${where}: records run past the end of the chunk (damaged)`, e.offset);
  const compressed = raw.subarray(head.recordsOffset - e.offset, head.recordsOffset - e.offset + head.recordsLength);
  let data: Uint8Array;
  if (head.compression === '') data = compressed;
  else {
    const d = codecs.decompress[head.compression];
    if (!d) throw new RecordingError(`${where}: compression "${head.compression}" is not supported (zstd, lz4 or none)`, e.offset);
    try {
      data = d(compressed, head.uncompressedSize);
    } catch (err) {
      throw new RecordingError(`${where}: ${head.compression} decompression failed (damaged): ${err instanceof Error ? err.message : String(err)}`, e.offset);
    }
  }
  if (data.length !== head.uncompressedSize) throw new RecordingError(`${where}: decompressed to ${data.length} bytes, the head says ${head.uncompressedSize} (damaged)`, e.offset);
  // Our writer always computes chunk CRCs; a 0 here means the field itself was damaged.
  if (head.uncompressedCrc === 0 || crc32(data) !== head.uncompressedCrc) throw new RecordingError(`${where}: CRC mismatch (the chunk is damaged)`, e.offset);
  const content = parseChunkContent(data, where);
  const byChannel: DecodedChunk['byChannel'] = new Map();
  let minT: bigint | null = null;
  let maxT: bigint | null = null;
  for (const m of content.messages) {
    if (minT === null || m.logTime < minT) minT = m.logTime;
    if (maxT === null || m.logTime > maxT) maxT = m.logTime;
    let l = byChannel.get(m.channelId);
    if (!l) byChannel.set(m.channelId, (l = { steps: [], offsets: [], lengths: [] }));
    l.steps.push(stepOf(m.logTime, stepNs, where));
    l.offsets.push(m.offset);
    l.lengths.push(m.length);
  }
  if (minT !== null && (minT !== head.startTime || maxT !== head.endTime)) throw new RecordingError(`${where}: its head's time range does not match its messages (damaged)`, e.offset);
  if (minT !== null && (stepOf(minT, stepNs, where) !== e.startStep || stepOf(maxT as bigint, stepNs, where) !== e.endStep)) throw new RecordingError(`${where}: its step range does not match the index (damaged)`, e.offset);
  return { data, byChannel };
}

// --- open --------------------------------------------------------------------------------------

interface Scanned {
  metadata: Map<string, string> | null;
  scenario: Uint8Array | null;
  chunks: ChunkEntry[];
  notice: string | null;
}

async function openRecording(source: RecordingSource): Promise<{ info: RecordingInfo; chunks: ChunkEntry[] }> {
  const size = await source.size();
  if (size < MCAP_MAGIC.length + RECORD_HEAD_BYTES) throw new RecordingError(`not a recording: the file has ${size} bytes, too few for an MCAP header`, 0);
  const start = await source.read(0, Math.min(size, 4096));
  for (let k = 0; k < 5; k++) if (start[k] !== MCAP_MAGIC[k]) throw new RecordingError('not a recording: the file does not start with the MCAP magic bytes', 0);
  if (start[5] !== MCAP_MAGIC[5] || start[6] !== MCAP_MAGIC[6] || start[7] !== MCAP_MAGIC[7]) {
    throw new RecordingError(`unsupported MCAP version "${String.fromCharCode(start[5])}" (this build reads MCAP version 0)`, 5);
  }
  // Header: opcode, length, profile, library.
  const headAt = MCAP_MAGIC.length;
  const headBytes = await readExactly(source, headAt, RECORD_HEAD_BYTES, 'MCAP header');
  if (headBytes[0] !== OP.header) throw new RecordingError(`not a recording: expected the MCAP header record at byte ${headAt}, found opcode 0x${headBytes[0].toString(16)}`, headAt);
  const headLen = readU64(headBytes, 1, 'MCAP header length', headAt);
  if (headLen > 1 << 20) throw new RecordingError(`MCAP header at byte ${headAt} claims ${headLen} bytes (damaged)`, headAt);
  const header = new Cursor(await readExactly(source, headAt + RECORD_HEAD_BYTES, headLen, 'MCAP header'), headAt + RECORD_HEAD_BYTES, 'MCAP header');
  const profile = header.string('profile');
  if (profile !== RECORDING_PROFILE) throw new RecordingError(`not a TerraWheel recording: MCAP profile "${profile}" (expected "${RECORDING_PROFILE}")`, headAt);
  const dataStart = headAt + RECORD_HEAD_BYTES + headLen;

  let scanned: Scanned;
  let mode: 'indexed' | 'scan' = 'indexed';
  let indexedReason = '';
  try {
    scanned = await openIndexed(source, size);
  } catch (e) {
    if (e instanceof RecordingError && e.message.startsWith('recording metadata')) throw e;
    indexedReason = e instanceof Error ? e.message : String(e);
    mode = 'scan';
    scanned = await scanLinear(source, size, dataStart, indexedReason);
  }
  if (scanned.metadata === null) {
    throw new RecordingError(mode === 'scan' ? `no "${RECORDING_METADATA_NAME}" metadata record: ${scanned.notice ?? 'the file ends before it'}` : `no "${RECORDING_METADATA_NAME}" metadata record in the file`);
  }
  const metadata = parseRecordingMetadata(scanned.metadata);
  const stepNs = BigInt(metadata.stepNs);
  const chunks = scanned.chunks;
  for (const c of chunks) {
    if (c.expected !== null) {
      c.startStep = stepOf(c.expected.startTime, stepNs, `chunk index entry for byte ${c.offset}`);
      c.endStep = stepOf(c.expected.endTime, stepNs, `chunk index entry for byte ${c.offset}`);
    }
  }
  chunks.sort((a, b) => a.startStep - b.startStep || a.offset - b.offset);
  for (let k = 1; k < chunks.length; k++) {
    // Our writer writes in step order, so chunks in file order have ascending step ranges. In a
    // scanned file the heads are not CRC'd: out of order means a damaged head.
    if (chunks[k].startStep < chunks[k - 1].endStep || chunks[k].offset < chunks[k - 1].offset) {
      throw new RecordingError(
        mode === 'indexed'
          ? `chunks at bytes ${chunks[k - 1].offset} and ${chunks[k].offset} overlap in steps (not written by a TerraWheel recorder)`
          : `chunk heads at bytes ${chunks[k - 1].offset} and ${chunks[k].offset} give steps out of order (a chunk head is damaged)`,
        chunks[k].offset,
      );
    }
  }
  if (mode === 'scan' && chunks.length === 0) throw new RecordingError(`the recording has no complete chunk: ${scanned.notice ?? 'the file ends before its first chunk'}`);

  let scenarioText = '';
  let scenario: unknown = null;
  if (scanned.scenario !== null) {
    try {
      scenarioText = utf8.decode(scanned.scenario);
    } catch {
      throw new RecordingError(`attachment "${SCENARIO_ATTACHMENT_NAME}" is not UTF-8`);
    }
    try {
      scenario = JSON.parse(scenarioText);
    } catch {
      scenario = null;
    }
  }

  const info: RecordingInfo = {
    metadata,
    scenarioText,
    scenario,
    buildId: metadata.buildId,
    assets: metadata.assets,
    parent: metadata.parent,
    dt: metadata.dt,
    firstStep: chunks.length > 0 ? chunks[0].startStep : -1,
    lastStep: chunks.reduce((m, c) => Math.max(m, c.endStep), -1),
    keyframeSteps: [],
    mode,
    notice: scanned.notice,
    fileBytes: size,
    chunkCount: chunks.length,
  };
  return { info, chunks };
}

function readU64(b: Uint8Array, at: number, what: string, fileOffset: number): number {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const lo = dv.getUint32(at, true);
  const hi = dv.getUint32(at + 4, true);
  if (hi > 0x1fffff) throw new RecordingError(`${what} at byte ${fileOffset + at} is larger than 2^53 (damaged)`, fileOffset + at);
  return hi * 4294967296 + lo;
}

function parseRecordingMetadata(m: Map<string, string>): RecordingMetadata {
  const v = Number(m.get('formatVersion'));
  if (!Number.isInteger(v) || v < 1) throw new RecordingError(`recording metadata: format version "${m.get('formatVersion')}" is not a version number (damaged)`);
  if (v > RECORDING_FORMAT_VERSION) throw new RecordingError(`recording metadata: the file is format version ${v}, newer than this build reads (${RECORDING_FORMAT_VERSION}); open it with a newer TerraWheel`);
  const json = m.get('json') ?? '';
  const crc = m.get('crc32') ?? '';
  if (crc32(new TextEncoder().encode(json)).toString(16).padStart(8, '0') !== crc) throw new RecordingError('recording metadata: CRC mismatch (the metadata record is damaged)');
  let meta: RecordingMetadata;
  try {
    meta = JSON.parse(json) as RecordingMetadata;
  } catch {
    throw new RecordingError('recording metadata: not JSON (damaged)');
  }
  if (meta.formatVersion !== v) throw new RecordingError(`recording metadata: format version ${meta.formatVersion} inside, ${v} outside (damaged)`);
  if (!(meta.dt > 0) || !Number.isInteger(meta.stepNs) || meta.stepNs < 1) throw new RecordingError(`recording metadata: bad dt ${meta.dt} / stepNs ${meta.stepNs}`);
  for (const t of [TOPIC.frame, TOPIC.keyframe, TOPIC.input, TOPIC.event]) {
    if (!Number.isInteger(meta.channels?.[t])) throw new RecordingError(`recording metadata: no channel id for ${t}`);
  }
  if (!Array.isArray(meta.bodies) || !Array.isArray(meta.wheels)) throw new RecordingError('recording metadata: bodies/wheels missing');
  return meta;
}

/** A complete file: footer and summary through @mcap/core, then metadata and scenario by index. */
async function openIndexed(source: RecordingSource, size: number): Promise<Scanned> {
  const reader = await McapIndexedReader.Initialize({
    readable: {
      size: async () => BigInt(size),
      read: async (offset, length) => readExactly(source, Number(offset), Number(length), 'MCAP summary'),
    },
  });
  if (reader.chunkIndexes.length === 0 && (reader.statistics?.messageCount ?? 0n) > 0n) throw new Error('the summary has no chunk index');
  let metadata: Map<string, string> | null = null;
  for (const mi of reader.metadataIndexes) {
    if (mi.name !== RECORDING_METADATA_NAME) continue;
    const at = Number(mi.offset);
    const len = Number(mi.length);
    const rec = await readExactly(source, at, len, `metadata record at byte ${at}`);
    if (rec[0] !== OP.metadata) throw new RecordingError(`recording metadata: no metadata record at byte ${at} where the index points (damaged)`, at);
    metadata = parseMetadata(rec.subarray(RECORD_HEAD_BYTES), at).metadata;
  }
  let scenario: Uint8Array | null = null;
  for (const ai of reader.attachmentIndexes) {
    if (ai.name !== SCENARIO_ATTACHMENT_NAME) continue;
    const at = Number(ai.offset);
    const rec = await readExactly(source, at, Number(ai.length), `attachment at byte ${at}`);
    if (rec[0] !== OP.attachment) throw new RecordingError(`recording metadata: no attachment record at byte ${at} where the index points (damaged)`, at);
    scenario = parseAttachment(rec.subarray(RECORD_HEAD_BYTES), at, crc32).data;
  }
  const chunks: ChunkEntry[] = reader.chunkIndexes.map((ci) => {
    const idx = new Map<number, number>();
    for (const [ch, off] of ci.messageIndexOffsets) idx.set(ch, Number(off));
    return {
      offset: Number(ci.chunkStartOffset),
      recordLength: Number(ci.chunkLength),
      startStep: 0,
      endStep: 0,
      compression: ci.compression,
      compressedSize: Number(ci.compressedSize),
      uncompressedSize: Number(ci.uncompressedSize),
      expected: { startTime: ci.messageStartTime, endTime: ci.messageEndTime },
      channels: new Set(idx.keys()),
      messageIndexStart: Number(ci.chunkStartOffset + ci.chunkLength),
      messageIndexLength: Number(ci.messageIndexLength),
      messageIndexAt: idx,
    };
  });
  return { metadata, scenario, chunks, notice: null };
}

/**
 * Walks the data section record by record from `dataStart`. Stops at DataEnd (the data section
 * is complete: only the summary or footer was bad), at an incomplete record (the file was cut),
 * or at a record that cannot be one (damaged bytes). Chunk contents are not read here.
 */
async function scanLinear(source: RecordingSource, size: number, dataStart: number, whyNotIndexed: string): Promise<Scanned> {
  const chunks: ChunkEntry[] = [];
  let metadata: Map<string, string> | null = null;
  let scenario: Uint8Array | null = null;
  let at = dataStart;
  let stop: 'end' | 'cut' | 'bad' = 'cut';
  let badWhat = '';
  let last: ChunkEntry | null = null;
  // Read through a window so a scan of many small records does not cost a read each; small,
  // because after each chunk (skipped, ~1 MiB) the window starts over at its message indexes.
  const WINDOW = 1 << 16;
  let winAt = 0;
  let win: Uint8Array = new Uint8Array(0);
  const peek = async (off: number, len: number): Promise<Uint8Array> => {
    if (off >= winAt && off + len <= winAt + win.length) return win.subarray(off - winAt, off - winAt + len);
    if (len > WINDOW) return source.read(off, len);
    winAt = off;
    win = await source.read(off, Math.min(WINDOW, size - off));
    return win.subarray(0, Math.min(len, win.length));
  };
  for (;;) {
    if (at + RECORD_HEAD_BYTES > size) break;
    const head = await peek(at, RECORD_HEAD_BYTES);
    const op = head[0];
    const hv = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const lenHi = hv.getUint32(5, true);
    const len = lenHi * 4294967296 + hv.getUint32(1, true);
    if (op === 0 || op > OP.dataEnd || lenHi > 0x1fffff) {
      stop = 'bad';
      badWhat = `opcode 0x${op.toString(16)}`;
      break;
    }
    if (at + RECORD_HEAD_BYTES + len > size) break; // cut inside this record
    if (op === OP.dataEnd || op === OP.footer) {
      stop = 'end';
      break;
    }
    if (op === OP.metadata) {
      const content = await peek(at + RECORD_HEAD_BYTES, len);
      const m = parseMetadata(content, at);
      if (m.name === RECORDING_METADATA_NAME) metadata = m.metadata;
    } else if (op === OP.attachment) {
      const content = await peek(at + RECORD_HEAD_BYTES, len);
      const a = parseAttachment(content, at, crc32);
      if (a.name === SCENARIO_ATTACHMENT_NAME) scenario = a.data.slice();
    } else if (op === OP.chunk) {
      const headBytes = await peek(at, Math.min(CHUNK_HEAD_MAX_BYTES, RECORD_HEAD_BYTES + len));
      let h: ChunkHead;
      try {
        h = parseChunkHead(headBytes, at);
      } catch {
        stop = 'bad';
        badWhat = 'an unreadable chunk head';
        break;
      }
      last = {
        offset: at,
        recordLength: RECORD_HEAD_BYTES + len,
        startStep: -1,
        endStep: -1,
        compression: h.compression,
        compressedSize: h.recordsLength,
        uncompressedSize: h.uncompressedSize,
        expected: null,
        channels: null,
        messageIndexStart: at + RECORD_HEAD_BYTES + len,
        messageIndexLength: 0,
        messageIndexAt: new Map(),
      };
      // Steps need stepNs from the metadata, which comes first in our files; keep times for now.
      (last as ChunkEntry & { times: [bigint, bigint] }).times = [h.startTime, h.endTime];
      chunks.push(last);
    } else if (op === OP.messageIndex && last !== null && len >= 2) {
      const b = await peek(at + RECORD_HEAD_BYTES, 2);
      last.messageIndexAt?.set(b[0] | (b[1] << 8), at);
      last.messageIndexLength = at + RECORD_HEAD_BYTES + len - last.messageIndexStart;
    }
    at += RECORD_HEAD_BYTES + len;
  }
  let stepNs = 0n;
  if (metadata !== null) {
    try {
      stepNs = BigInt(parseRecordingMetadata(metadata).stepNs);
    } catch {
      stepNs = 0n; // reported by the caller's own parse
    }
  }
  if (stepNs > 0n) {
    for (const c of chunks) {
      const [t0, t1] = (c as ChunkEntry & { times: [bigint, bigint] }).times;
      c.startStep = stepOf(t0, stepNs, `chunk at byte ${c.offset}`);
      c.endStep = stepOf(t1, stepNs, `chunk at byte ${c.offset}`);
      if (c.endStep < c.startStep) throw new RecordingError(`chunk at byte ${c.offset}: its head's step range ${c.startStep}–${c.endStep} is reversed (damaged)`, c.offset);
    }
  }
  const lastStep = chunks.reduce((m, c) => Math.max(m, c.endStep), -1);
  let notice: string;
  if (stop === 'end') notice = `the file's summary is missing or damaged (${whyNotIndexed}); its ${chunks.length} chunks were found by scanning and the recording ends at step ${lastStep}`;
  else if (stop === 'cut') notice = `recording ends at step ${lastStep}: the file was cut after byte ${size}; the last chunk was lost`;
  else notice = `recording ends at step ${lastStep}: unreadable data (${badWhat}) at byte ${at}; the rest of the file (${size - at} bytes) is skipped`;
  return { metadata, scenario, chunks, notice };
}
