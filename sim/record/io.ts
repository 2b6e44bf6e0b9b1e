/**
 * Where recordings go and come from, as two small interfaces so the core never touches a file
 * system: a Node file (sim/node/record-file.ts), a stream of chunks posted to Electron's main
 * process, an in-memory buffer for a web download, or a File/Blob the user opened.
 */

/**
 * Receives the file's bytes in order. `write` may be called with a view into a buffer the writer
 * reuses afterwards: copy (or write) the bytes before the returned promise resolves. The writer
 * awaits every write before the next, so a sink sees one call at a time.
 */
export interface RecordingSink {
  write(bytes: Uint8Array): Promise<void>;
  /** Called once after the last write (the footer); optional. */
  close?(): Promise<void>;
  /**
   * Optional: every record of the steps up to `step` is in the bytes written before this call
   * (called after each chunk the writer closes by simulated time).
   */
  wroteThrough?(step: number): void;
}

/** Random access to a recording's bytes. */
export interface RecordingSource {
  /** Total size in bytes. */
  size(): Promise<number>;
  /** Bytes [offset, offset + length); may return fewer only at the end of the file. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** Collects everything in memory; `bytes()` gives the file so far (a download, a test). */
export class MemorySink implements RecordingSink {
  private parts: Uint8Array[] = [];
  private length = 0;
  closed = false;

  async write(bytes: Uint8Array): Promise<void> {
    this.parts.push(bytes.slice());
    this.length += bytes.length;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  get byteLength(): number {
    return this.length;
  }

  /** The file so far as a Blob (a web download), without first joining the parts into one array. */
  blob(type = 'application/octet-stream'): Blob {
    return new Blob(this.parts as Uint8Array<ArrayBuffer>[], { type });
  }

  /** The bytes written so far, as one array. */
  bytes(): Uint8Array {
    if (this.parts.length !== 1) {
      const all = new Uint8Array(this.length);
      let o = 0;
      for (const p of this.parts) {
        all.set(p, o);
        o += p.length;
      }
      this.parts = [all];
    }
    return this.parts[0] ?? new Uint8Array(0);
  }
}

/** A recording held in memory (a test, a web download reopened, a fetched file). */
export function bytesSource(bytes: Uint8Array): RecordingSource {
  return {
    size: async () => bytes.length,
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
  };
}

/** A Blob/File (browser or Node ≥ 20): reads slices on demand, never the whole file at once. */
export function blobSource(blob: Blob): RecordingSource {
  return {
    size: async () => blob.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, Math.min(blob.size, offset + length)).arrayBuffer()),
  };
}
