/**
 * The recorder's encoder: turns captured batches (capture.ts) into the MCAP file through a
 * RecordingWriter. Two modes with one interface (`RecordEncoder`):
 *
 * - `SyncEncoder`: the writer in this thread; every batch is applied when handed over.
 * - `ThreadedEncoder`: the writer in an encoder thread (a Node worker_threads Worker, or a Web
 *   Worker) reached through an `EncoderPort`. Batches travel as transferred ArrayBuffers and
 *   come back empty (a pool of `poolSize` buffers). The file's bytes come back as `out` messages
 *   and are written to the sink here, in order. When every buffer is in flight the stepping
 *   thread waits for one (`waitSync`, Node) or, where it cannot block (browser), takes a new
 *   buffer and reports `backlogged` until the encoder catches up; both are counted in `stalls`.
 *
 * Both modes apply the same records in the same order to the same writer code, so one run gives
 * byte-identical files in both (test/unit/record/threaded.test.ts).
 *
 * Messages (main → encoder): start { header, options, compression } · batch { buf, used, frames,
 * strings } · close. (encoder → main): started · free { buf } · out { bytes } · closed · error { message }.
 */
import type { RecordingCodecs } from './codecs';
import { applyBatch, CAPTURE_BUFFER_BYTES, FrameDecoder, newBatch, type CaptureBatch } from './capture';
import type { RecordingSink } from './io';
import { RecordingWriter, type RecordingHeader, type RecordingWriterOptions } from './writer';

/** Writer options that can cross a thread (no codecs: the encoder thread loads its own). */
export type EncoderWriterOptions = Omit<RecordingWriterOptions, 'codecs'>;

/** Uncompressed bytes the writer may hold before its producer waits (sync mode: `backlogged`). */
export const ENCODER_BACKLOG_BYTES = 32 << 20;

/** Counts of the stepping thread waiting for the encoder. */
export interface EncoderStalls {
  /** Times the stepping thread blocked for a free buffer, and for how long in total [ms]. */
  waits: number;
  waitMs: number;
  /** Buffers allocated beyond the pool where the thread could not block. */
  grown: number;
}

/**
 * Where captured steps go to be encoded and written: `SyncEncoder` (in the stepping thread) or
 * `ThreadedEncoder` (an encoder thread).
 */
export interface RecordEncoder {
  /** Takes a filled batch (null: none yet) and returns an empty one to fill next. */
  exchange(filled: CaptureBatch | null): CaptureBatch;
  /** True when the caller should await `drain()` before stepping on. */
  readonly backlogged: boolean;
  drain(): Promise<void>;
  /** Encodes everything handed over, writes the summary and footer, closes the sink. */
  finish(): Promise<void>;
  /** Bytes handed to the sink so far (its writes resolved). */
  readonly bytesWritten: number;
  /** Every record of the steps up to this one is in bytes the sink accepted (−1: none yet). */
  readonly savedStep: number;
  /** Resolves once `savedStep ≥ step` (or throws the encoder's error). */
  waitSaved(step: number): Promise<void>;
  readonly stalls: EncoderStalls;
  /** The first encoder or sink error (then every call throws it). */
  readonly error: Error | null;
}

/** Capture buffers of a threaded encoder (all of them with the encoder: the stepping thread waits). */
export const CAPTURE_POOL_SIZE = 8;

/** Size of the capture buffers and how many there are (threaded mode). */
export interface EncoderPoolOptions {
  bufferBytes?: number;
  poolSize?: number;
}

/** The encoder that encodes and writes each batch in the stepping thread (no encoder thread). */
export class SyncEncoder implements RecordEncoder {
  readonly stalls: EncoderStalls = { waits: 0, waitMs: 0, grown: 0 };
  private readonly spare: CaptureBatch;
  private readonly decoder = new FrameDecoder();
  private readonly out: { bytes: number; savedStep: number };
  private constructor(readonly writer: RecordingWriter, out: { bytes: number; savedStep: number }, bufferBytes: number) {
    this.out = out;
    this.spare = newBatch(bufferBytes);
  }

  static async create(sink: RecordingSink, header: RecordingHeader, options: RecordingWriterOptions, pool: EncoderPoolOptions = {}): Promise<SyncEncoder> {
    const out = { bytes: 0, savedStep: -1 };
    const counting: RecordingSink = {
      write: async (bytes) => {
        await sink.write(bytes);
        out.bytes += bytes.length;
      },
      close: async () => sink.close?.(),
      wroteThrough: (step) => {
        out.savedStep = step;
        sink.wroteThrough?.(step);
      },
    };
    const writer = await RecordingWriter.create(counting, header, options);
    return new SyncEncoder(writer, out, pool.bufferBytes ?? CAPTURE_BUFFER_BYTES);
  }

  exchange(filled: CaptureBatch | null): CaptureBatch {
    if (filled !== null) {
      applyBatch(this.writer, filled, this.decoder);
      return filled;
    }
    return this.spare;
  }

  get backlogged(): boolean {
    return this.writer.pendingBytes > ENCODER_BACKLOG_BYTES;
  }

  drain(): Promise<void> {
    return this.writer.drain();
  }

  finish(): Promise<void> {
    return this.writer.close();
  }

  get bytesWritten(): number {
    return this.out.bytes;
  }

  get savedStep(): number {
    return this.out.savedStep;
  }

  async waitSaved(step: number): Promise<void> {
    // the writer's queue holds the chunk end (if it was captured): draining writes it
    if (this.out.savedStep < step) await this.writer.drain();
  }

  get error(): Error | null {
    return null;
  }
}

/** The main thread's end of an encoder thread. */
export interface EncoderPort {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  /** Registers the handler of every message from the encoder thread (and of its failure). */
  listen(onMessage: (message: EncoderReply) => void, onFailure: (error: Error) => void): void;
  /**
   * Where the thread may block (Node): waits up to `ms` for a reply, then returns the replies
   * that arrived (they are not passed to the `listen` handler). Absent in the browser.
   */
  receiveSync?(ms: number): EncoderReply[];
  terminate(): void;
}

/** Starts an encoder thread (Node: sim/node/record-thread.ts; browser: encoder-thread-web.ts). */
export type EncoderThreadFactory = () => EncoderPort;

/** A message from the stepping thread to the encoder thread. */
export type EncoderRequest =
  | { type: 'start'; header: RecordingHeader; options: EncoderWriterOptions; compression: RecordingCodecs['compression'] }
  | { type: 'batch'; buf: ArrayBuffer; used: number; frames: number; strings: string[] }
  | { type: 'close' };

/** A message from the encoder thread back to the stepping thread. */
export type EncoderReply =
  | { type: 'started' }
  | { type: 'free'; buf: ArrayBuffer }
  | { type: 'out'; bytes: Uint8Array }
  /** Every record of the steps up to `step` is in the `out` bytes sent before this message. */
  | { type: 'through'; step: number }
  | { type: 'closed' }
  | { type: 'error'; message: string };

/** The encoder thread failed before it wrote anything: the caller may fall back to SyncEncoder. */
export class EncoderThreadStartError extends Error {}

/** [ms] Longest single wait for a free buffer before the encoder thread counts as hung. */
export const ENCODER_WAIT_LIMIT_MS = 60_000;

/**
 * The encoder that hands each captured batch to an encoder thread and takes empty ones back, so
 * the stepping thread only copies.
 */
export class ThreadedEncoder implements RecordEncoder {
  readonly stalls: EncoderStalls = { waits: 0, waitMs: 0, grown: 0 };
  private readonly free: CaptureBatch[] = [];
  private readonly bufferBytes: number;
  private readonly poolSize: number;
  private allocated = 0;
  private inFlight = 0;
  private failure: Error | null = null;
  private writing: Promise<void> = Promise.resolve();
  private written = 0;
  private saved = -1;
  private savedWaiters: (() => void)[] = [];
  private started: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private closedWait: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private freeWaiters: (() => void)[] = [];
  private finished = false;
  /** `out` messages received (bytes on their way to the sink). */
  private outs = 0;

  private constructor(private readonly port: EncoderPort, private readonly sink: RecordingSink, pool: EncoderPoolOptions) {
    this.bufferBytes = pool.bufferBytes ?? CAPTURE_BUFFER_BYTES;
    this.poolSize = Math.max(2, pool.poolSize ?? CAPTURE_POOL_SIZE);
    port.listen((m) => this.onReply(m), (e) => this.fail(e));
  }

  /**
   * Starts the encoder thread and the file (header, metadata, scenario). The thread loads the
   * WASM codecs itself; `codecs.compression` says which (zstd or none).
   */
  static async create(thread: EncoderThreadFactory, sink: RecordingSink, header: RecordingHeader, options: RecordingWriterOptions, pool: EncoderPoolOptions = {}): Promise<ThreadedEncoder> {
    const { codecs, ...rest } = options;
    const port = thread();
    const enc = new ThreadedEncoder(port, sink, pool);
    const ready = new Promise<void>((resolve, reject) => (enc.started = { resolve, reject }));
    port.postMessage({ type: 'start', header, options: rest, compression: codecs.compression } satisfies EncoderRequest);
    try {
      await ready;
    } catch (e) {
      port.terminate();
      if (enc.outs === 0) throw new EncoderThreadStartError((e as Error).message);
      throw e;
    }
    return enc;
  }

  private fail(e: Error): void {
    if (this.failure === null) this.failure = new Error(`recording encoder thread failed: ${e.message}`);
    this.started?.reject(this.failure);
    this.closedWait?.reject(this.failure);
    this.started = null;
    this.closedWait = null;
    for (const w of this.freeWaiters.splice(0)) w();
    for (const w of this.savedWaiters.splice(0)) w();
  }

  private onReply(m: EncoderReply): void {
    switch (m.type) {
      case 'started':
        this.started?.resolve();
        this.started = null;
        break;
      case 'free':
        this.inFlight--;
        this.free.push(newBatchFrom(m.buf));
        for (const w of this.freeWaiters.splice(0)) w();
        break;
      case 'out': {
        const bytes = m.bytes;
        this.outs++;
        this.writing = this.writing.then(async () => {
          if (this.failure !== null) return;
          try {
            await this.sink.write(bytes);
            this.written += bytes.length;
          } catch (e) {
            this.fail(e instanceof Error ? e : new Error(String(e)));
          }
        });
        break;
      }
      case 'through': {
        const step = m.step;
        // saved once the bytes before it are written
        this.writing = this.writing.then(() => {
          if (this.failure !== null) return;
          this.saved = step;
          for (const w of this.savedWaiters.splice(0)) w();
        });
        break;
      }
      case 'closed':
        this.closedWait?.resolve();
        this.closedWait = null;
        break;
      case 'error':
        this.fail(new Error(m.message));
        break;
    }
  }

  private check(): void {
    if (this.failure !== null) throw this.failure;
  }

  exchange(filled: CaptureBatch | null): CaptureBatch {
    this.check();
    if (filled !== null) {
      if (filled.used > 0) {
        this.inFlight++;
        this.port.postMessage({ type: 'batch', buf: filled.buf, used: filled.used, frames: filled.frames, strings: filled.strings } satisfies EncoderRequest, [filled.buf]);
      } else this.free.push(filled);
    }
    let b = this.free.pop();
    if (b !== undefined) return b;
    if (this.allocated < this.poolSize) {
      this.allocated++;
      return newBatch(this.bufferBytes);
    }
    const sync = this.port.receiveSync;
    if (sync !== undefined) {
      // Every buffer is with the encoder: block until one comes back.
      const t0 = performance.now();
      this.stalls.waits++;
      while (this.free.length === 0) {
        this.check();
        for (const m of sync.call(this.port, 100)) this.onReply(m);
        if (performance.now() - t0 > ENCODER_WAIT_LIMIT_MS) this.fail(new Error(`no capture buffer came back in ${ENCODER_WAIT_LIMIT_MS} ms`));
      }
      this.stalls.waitMs += performance.now() - t0;
      return this.free.pop()!;
    }
    this.allocated++;
    this.stalls.grown++;
    b = newBatch(this.bufferBytes);
    return b;
  }

  get backlogged(): boolean {
    return this.allocated > this.poolSize && this.inFlight >= this.poolSize;
  }

  async drain(): Promise<void> {
    while (this.failure === null && this.inFlight >= this.poolSize) await new Promise<void>((r) => this.freeWaiters.push(r));
    this.check();
  }

  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      this.check();
      const done = new Promise<void>((resolve, reject) => (this.closedWait = { resolve, reject }));
      this.port.postMessage({ type: 'close' } satisfies EncoderRequest);
      await done;
      await this.writing;
      this.check();
      await this.sink.close?.();
    } finally {
      this.port.terminate();
    }
  }

  get bytesWritten(): number {
    return this.written;
  }

  get savedStep(): number {
    return this.saved;
  }

  async waitSaved(step: number): Promise<void> {
    while (this.failure === null && this.saved < step) await new Promise<void>((r) => this.savedWaiters.push(r));
    this.check();
  }

  get error(): Error | null {
    return this.failure;
  }
}

function newBatchFrom(buf: ArrayBuffer): CaptureBatch {
  return { buf, used: 0, frames: 0, strings: [] };
}

/** The encoder thread's end of the channel. */
export interface EncoderHostPort {
  postMessage(message: EncoderReply, transfer?: ArrayBuffer[]): void;
  listen(onMessage: (message: EncoderRequest) => void): void;
}

/**
 * Runs an encoder in this thread for requests arriving on `port` (the body of the encoder
 * thread). Requests are handled one at a time, in order. `loadCodecs` gives the zstd codecs.
 */
export function serveEncoder(port: EncoderHostPort, loadCodecs: () => Promise<RecordingCodecs>): void {
  let writer: RecordingWriter | null = null;
  const decoder = new FrameDecoder();
  let failed = false;
  let chain: Promise<void> = Promise.resolve();
  const sink: RecordingSink = {
    async write(bytes) {
      const copy = bytes.slice();
      port.postMessage({ type: 'out', bytes: copy }, [copy.buffer]);
    },
    wroteThrough(step) {
      port.postMessage({ type: 'through', step });
    },
  };
  const handle = async (m: EncoderRequest): Promise<void> => {
    if (failed) return;
    try {
      if (m.type === 'start') {
        const codecs: RecordingCodecs = m.compression === '' ? { compression: '', compress: (d) => d, decompress: {} } : await loadCodecs();
        writer = await RecordingWriter.create(sink, m.header, { ...m.options, codecs });
        port.postMessage({ type: 'started' });
      } else if (m.type === 'batch') {
        if (writer === null) throw new Error('batch before start');
        applyBatch(writer, { buf: m.buf, used: m.used, frames: m.frames, strings: m.strings }, decoder);
        if (writer.pendingBytes > ENCODER_BACKLOG_BYTES) await writer.drain();
        port.postMessage({ type: 'free', buf: m.buf }, [m.buf]);
      } else if (m.type === 'close') {
        if (writer === null) throw new Error('close before start');
        await writer.close();
        port.postMessage({ type: 'closed' });
      }
    } catch (e) {
      failed = true;
      port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  };
  port.listen((m) => {
    chain = chain.then(() => handle(m));
  });
}
