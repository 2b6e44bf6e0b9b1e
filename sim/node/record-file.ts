/**
 * Recordings on disk for the CLI and Node scripts: a sink that appends to a file and fsyncs
 * every write (the MCAP writer writes once per chunk, plus its message index, and once for the
 * header, metadata and footer), and a random-access source over a file.
 *
 * fsync per write is what makes "a killed process or a power cut loses at most the last chunk"
 * true on disk, not only in the page cache. The writer closes a chunk at least every simulated
 * second (writer.ts `chunkSeconds`): about one fsync per simulated second, and the stepping waits
 * for them (RecordSession.behind), so a killed run loses at most RECORDING_MAX_LOSS_SECONDS.
 * `bytesWritten` and `savedStep` say how much is on disk (the CLI's progress line).
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { RecordingSink, RecordingSource } from '../record/io';
import { loadCodecs, type RecordingCodecs } from '../record/codecs';
import { RecordingReader } from '../record/reader';
import { wheelCsvChunks, type WheelCsvOptions } from '../record/export-csv';
import { cutReport, type CutReport } from '../record/replay';

export class FileSink implements RecordingSink {
  /** Bytes written and (with `sync`) fdatasync'd: what a killed process leaves on disk. */
  bytesWritten = 0;
  /** Every step up to this one is in those bytes (−1: none yet; from the writer's `wroteThrough`). */
  savedStep = -1;
  private constructor(
    private readonly file: FileHandle,
    readonly path: string,
    private readonly sync: boolean,
  ) {}

  /** Creates (or truncates) `path`. `sync: false` skips the fsyncs (tests, benchmarks). */
  static async create(path: string, options: { sync?: boolean } = {}): Promise<FileSink> {
    return new FileSink(await open(path, 'w'), path, options.sync ?? true);
  }

  async write(bytes: Uint8Array): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.file.write(bytes, done, bytes.length - done);
      done += bytesWritten;
    }
    if (this.sync) await this.file.datasync();
    this.bytesWritten += bytes.length;
  }

  wroteThrough(step: number): void {
    this.savedStep = step;
  }

  async close(): Promise<void> {
    if (this.sync) await this.file.sync();
    await this.file.close();
  }
}

/** Random access to a recording file; `close()` when done. */
export class FileSource implements RecordingSource {
  private constructor(
    private readonly file: FileHandle,
    private readonly bytes: number,
  ) {}

  static async open(path: string): Promise<FileSource> {
    const file = await open(path, 'r');
    try {
      const st = await file.stat();
      return new FileSource(file, st.size);
    } catch (e) {
      await file.close();
      throw e;
    }
  }

  async size(): Promise<number> {
    return this.bytes;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const n = Math.max(0, Math.min(length, this.bytes - offset));
    const out = new Uint8Array(n);
    let done = 0;
    while (done < n) {
      const { bytesRead } = await this.file.read(out, done, n - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === n ? out : out.subarray(0, done);
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

/** Opens a recording file for reading; `close()` releases the file. */
export async function openRecordingFile(path: string, options: { codecs?: RecordingCodecs; cacheChunks?: number } = {}): Promise<{ reader: RecordingReader; close: () => Promise<void> }> {
  const source = await FileSource.open(path);
  try {
    const reader = await RecordingReader.open(source, { codecs: options.codecs ?? (await loadCodecs()), cacheChunks: options.cacheChunks });
    return { reader, close: () => source.close() };
  } catch (e) {
    await source.close();
    throw e;
  }
}

/**
 * `export-csv`: writes the per-wheel CSV of `recordingPath` to `csvPath` piece by piece (a long
 * recording never sits in memory as one string). Returns the number of data rows, and for an
 * incomplete file (cut, damaged, no summary) what is missing (only its prefix is exported).
 */
export async function exportWheelCsvFile(recordingPath: string, csvPath: string, options: WheelCsvOptions = {}): Promise<{ rows: number; cut: CutReport | null }> {
  const { reader, close } = await openRecordingFile(recordingPath);
  const out = await open(csvPath, 'w');
  let rows = -1; // the header line is not a data row
  try {
    for await (const piece of wheelCsvChunks(reader, options)) {
      await out.write(piece);
      for (let i = 0; i < piece.length; i++) if (piece.charCodeAt(i) === 10) rows++;
    }
  } finally {
    await out.close();
    await close();
  }
  return { rows, cut: cutReport(reader.info) };
}
