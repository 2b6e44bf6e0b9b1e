/**
 * Web Worker entry of the recording encoder (encoder.ts `serveEncoder`), a worker nested in the
 * simulation worker (encoder-thread-web.ts starts it once). Each recording sends a MessagePort of
 * its own, and a `serveEncoder` runs on it. Loads the WASM codecs itself, once.
 */
import { loadCodecs } from './codecs';
import { serveEncoder, type EncoderRequest } from './encoder';

interface WorkerPort {
  postMessage(m: unknown, transfer: ArrayBuffer[]): void;
  onmessage: ((e: { data: EncoderRequest }) => void) | null;
}
const scope = globalThis as unknown as { onmessage: ((e: { data: { port?: WorkerPort } }) => void) | null };

scope.onmessage = (e) => {
  const port = e.data.port;
  if (port === undefined) throw new Error('encoder-worker.web.ts: a recording needs a port');
  serveEncoder(
    {
      postMessage: (m, transfer) => port.postMessage(m, transfer ?? []),
      listen(onMessage) {
        port.onmessage = (r) => onMessage(r.data);
      },
    },
    loadCodecs,
  );
};
