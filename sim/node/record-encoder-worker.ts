/**
 * Node worker_threads entry of the recording encoder (sim/record/encoder.ts `serveEncoder`):
 * started by `nodeEncoderThread()` (record-thread.ts) with a MessagePort and a shared signal word
 * in `workerData`. Every reply bumps the signal, so a main thread blocked for a free capture
 * buffer wakes as soon as one is on its way.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { loadCodecs } from '../record/codecs';
import { serveEncoder, type EncoderRequest } from '../record/encoder';

const { port, signal } = workerData as { port: MessagePort; signal: SharedArrayBuffer };
if (port === undefined || !(signal instanceof SharedArrayBuffer)) throw new Error('record-encoder-worker.ts must be started by nodeEncoderThread()');
const word = new Int32Array(signal);

serveEncoder(
  {
    postMessage(m, transfer) {
      port.postMessage(m, transfer);
      Atomics.add(word, 0, 1);
      Atomics.notify(word, 0);
    },
    listen(onMessage) {
      port.on('message', (m: EncoderRequest) => onMessage(m));
    },
  },
  loadCodecs,
);
