/**
 * Web Worker entry of the recording encoder (encoder.ts `serveEncoder`), a worker nested in the
 * simulation worker (encoder-thread-web.ts starts it). Loads the WASM codecs itself.
 */
import { loadCodecs } from './codecs';
import { serveEncoder, type EncoderRequest } from './encoder';

const scope = globalThis as unknown as {
  postMessage(m: unknown, transfer: ArrayBuffer[]): void;
  onmessage: ((e: { data: EncoderRequest }) => void) | null;
};

serveEncoder(
  {
    postMessage: (m, transfer) => scope.postMessage(m, transfer ?? []),
    listen(onMessage) {
      scope.onmessage = (e) => onMessage(e.data);
    },
  },
  loadCodecs,
);
