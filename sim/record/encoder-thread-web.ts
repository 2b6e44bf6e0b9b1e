/**
 * The recording encoder in a Web Worker spawned from the simulation worker (browser, Electron
 * renderer): an `EncoderThreadFactory` for the web worker's service. The browser thread cannot
 * block, so when every capture buffer is with the encoder the session takes a new one and reports
 * `backlogged` (the service then awaits `drain()`). Vite bundles the entry as a module worker.
 */
import type { EncoderPort, EncoderReply, EncoderThreadFactory } from './encoder';

/** The parts of the browser's Worker used here (sim/ is typed without the DOM library). */
interface WebWorker {
  postMessage(m: unknown, transfer: ArrayBuffer[]): void;
  onmessage: ((e: { data: EncoderReply }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  onmessageerror: (() => void) | null;
  terminate(): void;
}
// The global Worker (the literal `new Worker(new URL(…))` is what Vite bundles as a worker).
declare const Worker: new (url: URL, options: { type: 'module' }) => WebWorker;

export const webEncoderThread: EncoderThreadFactory = (): EncoderPort => {
  const worker = new Worker(new URL('./encoder-worker.web.ts', import.meta.url), { type: 'module' });
  return {
    postMessage: (m, transfer) => worker.postMessage(m, transfer ?? []),
    listen(onMessage, onFailure) {
      worker.onmessage = (e) => onMessage(e.data);
      worker.onerror = (e) => onFailure(new Error(e.message || 'the encoder worker could not start'));
      worker.onmessageerror = () => onFailure(new Error('a message from the encoder worker could not be read'));
    },
    terminate: () => worker.terminate(),
  };
};
