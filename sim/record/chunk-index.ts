/**
 * The chunk index of a recording: where each chunk lies in the file and which steps it holds.
 *
 *  - openIndexed: a complete file. @mcap/core's McapIndexedReader checks the footer and the
 *    summary's CRC and gives the chunk index; each entry keeps the index's view of its chunk's
 *    head, which chunk-store.ts compares with the record when the chunk is read.
 *  - scanLinear: a file without a valid footer (the process was killed, the disk filled, the copy
 *    was cut) or with a damaged summary. The data section is walked record by record up to the
 *    first incomplete or unreadable one; complete chunks before it are kept and a notice says
 *    where the recording ends and why.
 */
import { McapIndexedReader } from '@mcap/core';
import { crc32 } from '../terrain/crc32';
import { RECORDING_METADATA_NAME, RecordingError, SCENARIO_ATTACHMENT_NAME } from './format';
import type { RecordingSource } from './io';
import { CHUNK_HEAD_MAX_BYTES, OP, parseAttachment, parseChunkHead, parseMetadata, RECORD_HEAD_BYTES, type ChunkHead } from './mcap-parse';
import { parseRecordingMetadata, readExactly, stepOf } from './read-checks';

export interface ChunkEntry {
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

/**
 * How a file without a readable summary ends: 'cut' (it stops inside a record: a killed or
 * truncated recording), 'damaged' (unreadable bytes), 'no-summary' (the data section is complete,
 * only the summary or footer is missing or bad).
 */
export interface Incomplete {
  kind: 'cut' | 'damaged' | 'no-summary';
  /** Last step of the complete chunks (−1: none). */
  lastStep: number;
  /** Bytes after the last complete chunk and its message indexes (lost or skipped). */
  bytesAfterLastChunk: number;
}

/** What opening found before the metadata is parsed: its records, the chunks, and a notice for a cut or damaged file. */
export interface Scanned {
  metadata: Map<string, string> | null;
  scenario: Uint8Array | null;
  chunks: ChunkEntry[];
  notice: string | null;
  /** Set for a file read by scanning (cut, damaged, or without its summary). */
  incomplete: Incomplete | null;
}

/** A complete file: footer and summary through @mcap/core, then metadata and scenario by index. */
export async function openIndexed(source: RecordingSource, size: number): Promise<Scanned> {
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
  return { metadata, scenario, chunks, notice: null, incomplete: null };
}

/**
 * Walks the data section record by record from `dataStart`. Stops at DataEnd (the data section
 * is complete: only the summary or footer was bad), at an incomplete record (the file was cut),
 * or at a record that cannot be one (damaged bytes). Chunk contents are not read here.
 */
export async function scanLinear(source: RecordingSource, size: number, dataStart: number, whyNotIndexed: string): Promise<Scanned> {
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
  const lastChunk = chunks.length > 0 ? chunks[chunks.length - 1] : null;
  const goodEnd = lastChunk === null ? dataStart : Math.max(lastChunk.offset + lastChunk.recordLength, lastChunk.messageIndexStart + lastChunk.messageIndexLength);
  const incomplete: Incomplete = { kind: stop === 'end' ? 'no-summary' : stop === 'cut' ? 'cut' : 'damaged', lastStep, bytesAfterLastChunk: Math.max(0, size - goodEnd) };
  return { metadata, scenario, chunks, notice, incomplete };
}
