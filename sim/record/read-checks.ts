/**
 * Checked reads for the recording reader: each helper returns a value it has validated or throws
 * a RecordingError that says what is wrong and at which byte (a cut file, a damaged length, a log
 * time that is not a whole step, a metadata record that fails its CRC).
 */
import { crc32 } from '../terrain/crc32';
import { RECORDING_FORMAT_VERSION, RecordingError, TOPIC } from './format';
import type { RecordingSource } from './io';
import type { RecordingMetadata } from './writer';

/** `e` as a RecordingError: passed through when it is one, else wrapped with `context`. */
export function asRecordingError(e: unknown, context: string): RecordingError {
  if (e instanceof RecordingError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new RecordingError(`${context}: ${msg}`);
}

/** Bytes [offset, offset + length); a shorter read means the file ends inside them. */
export async function readExactly(source: RecordingSource, offset: number, length: number, what: string): Promise<Uint8Array> {
  const b = await source.read(offset, length);
  if (b.length !== length) throw new RecordingError(`${what}: the file ends at byte ${offset + b.length}, inside it (bytes ${offset}–${offset + length})`, offset);
  return b;
}

/** Little-endian u64 at `at` in `b` (which starts at file byte `fileOffset`), at most 2^53. */
export function readU64(b: Uint8Array, at: number, what: string, fileOffset: number): number {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const lo = dv.getUint32(at, true);
  const hi = dv.getUint32(at + 4, true);
  if (hi > 0x1fffff) throw new RecordingError(`${what} at byte ${fileOffset + at} is larger than 2^53 (damaged)`, fileOffset + at);
  return hi * 4294967296 + lo;
}

/** The step of a log time; the writer logs whole steps only, so a remainder means damage. */
export function stepOf(t: bigint, stepNs: bigint, where: string): number {
  if (t % stepNs !== 0n) throw new RecordingError(`${where}: log time ${t} ns is not a whole step of ${stepNs} ns (damaged)`);
  return Number(t / stepNs);
}

/** The recording's metadata record (our own CRC, since MCAP metadata has none), checked field by field. */
export function parseRecordingMetadata(m: Map<string, string>): RecordingMetadata {
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
  const ji = meta.channels[TOPIC.jointInput];
  if (ji !== undefined && !Number.isInteger(ji)) throw new RecordingError(`recording metadata: bad channel id for ${TOPIC.jointInput}`);
  if (!Array.isArray(meta.bodies) || !Array.isArray(meta.wheels)) throw new RecordingError('recording metadata: bodies/wheels missing');
  return meta;
}
