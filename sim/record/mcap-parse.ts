/**
 * The few MCAP records the reader parses itself (spec: https://mcap.dev/spec), with bounds checks
 * that throw RecordingError naming the byte offset. @mcap/core's indexed reader handles the
 * footer and summary of a complete file; these cover what it does not: a file without its footer
 * (a linear scan of the data section) and chunk contents read through our own cache.
 *
 * Record framing: opcode u8 · content length u64 · content. Strings: u32 length + UTF-8.
 */
import { RecordingError } from './format';

export const MCAP_MAGIC = new Uint8Array([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]); // "\x89MCAP0\r\n"
export const RECORD_HEAD_BYTES = 9;

export const OP = {
  header: 0x01,
  footer: 0x02,
  schema: 0x03,
  channel: 0x04,
  message: 0x05,
  chunk: 0x06,
  messageIndex: 0x07,
  chunkIndex: 0x08,
  attachment: 0x09,
  attachmentIndex: 0x0a,
  statistics: 0x0b,
  metadata: 0x0c,
  metadataIndex: 0x0d,
  summaryOffset: 0x0e,
  dataEnd: 0x0f,
} as const;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads little-endian fields from `bytes`; `base` is the file offset of bytes[0] (for messages). */
export class Cursor {
  private readonly dv: DataView;
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly base: number,
    readonly what: string,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  private need(n: number, field: string): void {
    if (this.pos + n > this.bytes.length) throw new RecordingError(`${this.what}: ${field} runs past the end of the record (byte ${this.base + this.pos})`, this.base + this.pos);
  }
  u8(field: string): number {
    this.need(1, field);
    return this.dv.getUint8(this.pos++);
  }
  u16(field: string): number {
    this.need(2, field);
    const v = this.dv.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }
  u32(field: string): number {
    this.need(4, field);
    const v = this.dv.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  /** u64 as a number; larger than 2^53 is a damaged field here. */
  u64(field: string): number {
    this.need(8, field);
    const lo = this.dv.getUint32(this.pos, true);
    const hi = this.dv.getUint32(this.pos + 4, true);
    this.pos += 8;
    if (hi > 0x1fffff) throw new RecordingError(`${this.what}: ${field} at byte ${this.base + this.pos - 8} is larger than 2^53 (damaged)`, this.base + this.pos - 8);
    return hi * 4294967296 + lo;
  }
  u64big(field: string): bigint {
    this.need(8, field);
    const v = this.dv.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
  bytesOf(n: number, field: string): Uint8Array {
    this.need(n, field);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  string(field: string): string {
    const n = this.u32(`${field} length`);
    const b = this.bytesOf(n, field);
    try {
      return decoder.decode(b);
    } catch {
      throw new RecordingError(`${this.what}: ${field} at byte ${this.base + this.pos - n} is not UTF-8 (damaged)`, this.base + this.pos - n);
    }
  }
  stringMap(field: string): Map<string, string> {
    const n = this.u32(`${field} length`);
    const end = this.pos + n;
    if (end > this.bytes.length) throw new RecordingError(`${this.what}: ${field} runs past the end of the record`, this.base + this.pos);
    const m = new Map<string, string>();
    while (this.pos < end) {
      const k = this.string(`${field} key`);
      m.set(k, this.string(`${field} value`));
    }
    if (this.pos !== end) throw new RecordingError(`${this.what}: ${field} has a bad length (damaged)`, this.base + this.pos);
    return m;
  }
}

/** The fixed part of a Chunk record (its compressed records follow at `recordsOffset`). */
export interface ChunkHead {
  startTime: bigint;
  endTime: bigint;
  uncompressedSize: number;
  uncompressedCrc: number;
  compression: string;
  recordsLength: number;
  /** File offset of the compressed records. */
  recordsOffset: number;
}

/** Upper bound of a chunk head with a compression name of ≤ 32 bytes. */
export const CHUNK_HEAD_MAX_BYTES = RECORD_HEAD_BYTES + 8 + 8 + 8 + 4 + 4 + 32 + 8;

/** Parses a chunk record's head from `bytes` (which start at the record's opcode, file offset `at`). */
export function parseChunkHead(bytes: Uint8Array, at: number): ChunkHead {
  const c = new Cursor(bytes, at, `chunk at byte ${at}`);
  c.pos = RECORD_HEAD_BYTES;
  const startTime = c.u64big('message start time');
  const endTime = c.u64big('message end time');
  const uncompressedSize = c.u64('uncompressed size');
  const uncompressedCrc = c.u32('uncompressed CRC');
  const compression = c.string('compression');
  const recordsLength = c.u64('records length');
  return { startTime, endTime, uncompressedSize, uncompressedCrc, compression, recordsLength, recordsOffset: at + c.pos };
}

export interface ParsedMessage {
  channelId: number;
  logTime: bigint;
  /** Offset of the payload in the decompressed chunk, and its length. */
  offset: number;
  length: number;
}

export interface ParsedChunkContent {
  messages: ParsedMessage[];
  channels: Map<number, string>;
}

/** Parses the records inside a decompressed chunk (schemas, channels, messages). */
export function parseChunkContent(data: Uint8Array, where: string): ParsedChunkContent {
  const c = new Cursor(data, 0, where);
  const messages: ParsedMessage[] = [];
  const channels = new Map<number, string>();
  while (c.remaining > 0) {
    const recStart = c.pos;
    const op = c.u8('record opcode');
    const len = c.u64('record length');
    if (len > c.remaining) throw new RecordingError(`${where}: record at offset ${recStart} of the chunk claims ${len} bytes, ${c.remaining} remain`);
    const end = c.pos + len;
    if (op === OP.message) {
      const channelId = c.u16('message channel id');
      c.u32('message sequence');
      const logTime = c.u64big('message log time');
      c.u64big('message publish time');
      messages.push({ channelId, logTime, offset: c.pos, length: end - c.pos });
    } else if (op === OP.channel) {
      const id = c.u16('channel id');
      c.u16('channel schema id');
      channels.set(id, c.string('channel topic'));
    } else if (op !== OP.schema) {
      throw new RecordingError(`${where}: unexpected record opcode 0x${op.toString(16)} inside a chunk`);
    }
    c.pos = end;
  }
  return { messages, channels };
}

/** Log times of one channel's MessageIndex record (content after opcode+length). */
export function parseMessageIndex(content: Uint8Array, at: number): { channelId: number; times: bigint[] } {
  const c = new Cursor(content, at, `message index at byte ${at}`);
  const channelId = c.u16('channel id');
  const n = c.u32('records length');
  if (n % 16 !== 0 || n > c.remaining) throw new RecordingError(`message index at byte ${at}: bad records length ${n} (damaged)`, at);
  const times: bigint[] = [];
  for (let k = 0; k < n / 16; k++) {
    times.push(c.u64big('log time'));
    c.u64big('offset');
  }
  return { channelId, times };
}

export function parseMetadata(content: Uint8Array, at: number): { name: string; metadata: Map<string, string> } {
  const c = new Cursor(content, at, `metadata record at byte ${at}`);
  const name = c.string('name');
  return { name, metadata: c.stringMap('metadata') };
}

/** Attachment (CRC checked when its CRC is not 0). */
export function parseAttachment(content: Uint8Array, at: number, crc32: (b: Uint8Array, s?: number, e?: number) => number): { name: string; mediaType: string; data: Uint8Array } {
  const c = new Cursor(content, at, `attachment at byte ${at}`);
  c.u64big('log time');
  c.u64big('create time');
  const name = c.string('name');
  const mediaType = c.string('media type');
  const n = c.u64('data length');
  const data = c.bytesOf(n, 'data');
  const crcEnd = c.pos;
  const crc = c.u32('CRC');
  if (crc !== 0 && crc32(content, 0, crcEnd) !== crc) throw new RecordingError(`attachment "${name}" at byte ${at}: CRC mismatch (the file is damaged)`, at);
  return { name, mediaType, data };
}
