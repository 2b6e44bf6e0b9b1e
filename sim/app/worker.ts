/**
 * Web Worker entry: exposes the simulation service through Comlink. The renderer creates it with
 * `new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`.
 */
import * as Comlink from 'comlink';
import { createDefaultService } from './default-service';
import { webEncoderThread } from '../record/encoder-thread-web';

// Recordings are encoded in a worker nested in this one (falls back to this thread where the
// nested worker cannot start).
Comlink.expose(createDefaultService({ recordThread: typeof (globalThis as { Worker?: unknown }).Worker === 'function' ? webEncoderThread : undefined }));
