/**
 * Opening a recording: the MCAP magic, version and header are checked, then the chunk index is
 * taken from the summary (chunk-index.ts `openIndexed`) or, when the footer or summary is missing
 * or damaged, from a linear scan of the data section (`scanLinear`). The result is the table of
 * chunks in step order and the RecordingInfo the reader reports.
 */
import { RECORDING_METADATA_NAME, RECORDING_PROFILE, RecordingError, SCENARIO_ATTACHMENT_NAME } from './format';
import type { RecordingSource } from './io';
import { Cursor, MCAP_MAGIC, OP, RECORD_HEAD_BYTES } from './mcap-parse';
import { openIndexed, scanLinear, type ChunkEntry, type Incomplete, type Scanned } from './chunk-index';
import { parseRecordingMetadata, readExactly, readU64, stepOf } from './read-checks';
import type { RecordingMetadata } from './writer';

/**
 * What a recording says about itself: its metadata, scenario, assets, steps, keyframes, and a
 * notice when the file was cut short.
 */
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
  /** The same, as data: how the file ends, its last complete step, the bytes after its last complete chunk. */
  incomplete: Incomplete | null;
  fileBytes: number;
  chunkCount: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Checks the file and builds its chunk table and info. Throws RecordingError for anything that is not a readable recording. */
export async function openRecording(source: RecordingSource): Promise<{ info: RecordingInfo; chunks: ChunkEntry[] }> {
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
    incomplete: scanned.incomplete,
    fileBytes: size,
    chunkCount: chunks.length,
  };
  return { info, chunks };
}
