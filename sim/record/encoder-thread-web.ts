/**
 * The recording encoder in a Web Worker spawned from the simulation worker (browser, Electron
 * renderer): an `EncoderThreadFactory` for the web worker's service. One encoder Worker serves
 * every recording of the session (kept warm, its codecs loaded once); each recording talks to it
 * over a MessageChannel of its own. If the Worker fails, the recordings it served fail and the
 * next recording starts a new one. The browser thread cannot block, so when every capture buffer
 * is with the encoder the session takes a new one and reports `backlogged` (the service then
 * awaits `drain()`). Vite bundles the entry as a module worker.
 */
import type { EncoderPort, EncoderReply, EncoderThreadFactory } from './encoder';

/** The parts of the browser's Worker and MessagePort used here (sim/ is typed without the DOM library). */
interface WebErrorEvent {
  message?: string;
}
interface WebWorker {
  postMessage(m: unknown, transfer: unknown[]): void;
  addEventListener(type: 'error', listener: (e: WebErrorEvent) => void): void;
  removeEventListener(type: 'error', listener: (e: WebErrorEvent) => void): void;
}
interface WebMessagePort {
  postMessage(m: unknown, transfer: unknown[]): void;
  onmessage: ((e: { data: EncoderReply }) => void) | null;
  onmessageerror: (() => void) | null;
  close(): void;
}
// The globals (the literal `new Worker(new URL(…))` is what Vite bundles as a worker).
declare const Worker: new (url: URL, options: { type: 'module' }) => WebWorker;
declare const MessageChannel: new () => { port1: WebMessagePort; port2: WebMessagePort };

/** The encoder Worker, while it works. */
let shared: WebWorker | null = null;

function encoderWorker(): WebWorker {
  if (shared !== null) return shared;
  const worker = new Worker(new URL('./encoder-worker.web.ts', import.meta.url), { type: 'module' });
  worker.addEventListener('error', () => {
    if (shared === worker) shared = null;
  });
  shared = worker;
  return worker;
}

export const webEncoderThread: EncoderThreadFactory = (): EncoderPort => {
  const worker = encoderWorker();
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ port: port2 }, [port2]);
  let onError: ((e: WebErrorEvent) => void) | null = null;
  return {
    postMessage: (m, transfer) => port1.postMessage(m, transfer ?? []),
    listen(onMessage, onFailure) {
      port1.onmessage = (e) => onMessage(e.data);
      port1.onmessageerror = () => onFailure(new Error('a message from the encoder worker could not be read'));
      onError = (e) => onFailure(new Error(e.message || 'the encoder worker could not start'));
      worker.addEventListener('error', onError);
    },
    terminate: () => {
      // this recording is over (its port closes; the Worker stays for the next one)
      port1.onmessage = null;
      port1.close();
      if (onError) worker.removeEventListener('error', onError);
    },
  };
};
