/**
 * Chunk access: a chunk is read, checked against its index entry, decompressed and CRC-checked
 * when first needed, then kept in a small LRU cache, so sequential playback decompresses each
 * chunk once and a seek costs one chunk. Messages are found by channel and step.
 */
import { crc32 } from '../terrain/crc32';
import type { RecordingCodecs } from './codecs';
import type { ChunkEntry } from './chunk-index';
import { MAX_CHUNK_UNCOMPRESSED_BYTES, RecordingError } from './format';
import type { RecordingSource } from './io';
import { OP, parseChunkContent, parseChunkHead, type ChunkHead } from './mcap-parse';
import type { RecordingInfo } from './open-recording';
import { readExactly, stepOf } from './read-checks';

export interface DecodedChunk {
  data: Uint8Array;
  /** channel id → steps (ascending as written) and payload offsets/lengths. */
  byChannel: Map<number, { steps: number[]; offsets: number[]; lengths: number[] }>;
}

/** One message found in a chunk: its payload is `chunk.data[offset, offset + length)`. */
export interface FoundMessage {
  chunk: DecodedChunk;
  offset: number;
  length: number;
  /** "chunk at byte …, step …", for error messages. */
  where: string;
}

/** The chunks of one recording, in step order, with a cache of decoded ones. */
export class ChunkStore {
  private readonly cache = new Map<number, DecodedChunk>();

  constructor(
    private readonly source: RecordingSource,
    private readonly codecs: RecordingCodecs,
    /** Same array as the reader's: entries in step order. */
    readonly chunks: readonly ChunkEntry[],
    /** The reader's info (mode and step range; read at each lookup). */
    private readonly info: Pick<RecordingInfo, 'mode' | 'firstStep' | 'lastStep'>,
    private readonly stepNs: bigint,
    private readonly cacheChunks: number,
  ) {}

  /** The decoded chunk `index` (in step order), from the cache or read now. */
  async load(index: number): Promise<DecodedChunk> {
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

  /**
   * Indices of chunks whose step range contains `step` (usually one; two at a boundary). In a
   * scanned file a step in a gap between chunks gives its neighbours as −index − 1: to be loaded
   * for validation only.
   */
  chunksAt(step: number): number[] {
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

  /** The message of `channelId` logged at `step`, or null when no chunk holds one. */
  async findMessage(step: number, channelId: number): Promise<FoundMessage | null> {
    for (const k of this.chunksAt(step)) {
      if (k < 0) {
        await this.load(-k - 1); // validation only (throws if its head was damaged)
        continue;
      }
      const chunk = await this.load(k);
      const list = chunk.byChannel.get(channelId);
      if (!list) continue;
      const i = lowerBound(list.steps, step);
      if (i < list.steps.length && list.steps[i] === step) {
        return { chunk, offset: list.offsets[i], length: list.lengths[i], where: `chunk at byte ${this.chunks[k].offset}, step ${step}` };
      }
    }
    return null;
  }
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

/** Reads chunk `e` and checks its head against the index entry, its size, its CRC and its step range. */
export async function decodeChunk(source: RecordingSource, codecs: RecordingCodecs, e: ChunkEntry, stepNs: bigint): Promise<DecodedChunk> {
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
  if (head.uncompressedSize > MAX_CHUNK_UNCOMPRESSED_BYTES) {
    throw new RecordingError(`${where}: its head says it inflates to ${head.uncompressedSize} bytes, over the ${MAX_CHUNK_UNCOMPRESSED_BYTES}-byte limit of a chunk (damaged, or not written by a TerraWheel recorder); not inflated`, e.offset);
  }
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
