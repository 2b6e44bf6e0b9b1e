/**
 * Node worker_threads entry of the recording encoder (sim/record/encoder.ts `serveEncoder`),
 * started once per process by record-thread.ts. Each recording sends a MessagePort of its own
 * and a shared signal word; a `serveEncoder` runs on that port. Every reply bumps the signal, so
 * a main thread blocked for a free capture buffer wakes as soon as one is on its way.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { loadCodecs } from '../record/codecs';
import { serveEncoder, type EncoderRequest } from '../record/encoder';

if (parentPort === null) throw new Error('record-encoder-worker.ts must be started by nodeEncoderThread()');

parentPort.on('message', (m: { port?: MessagePort; signal?: SharedArrayBuffer }) => {
  const { port, signal } = m;
  if (port === undefined || !(signal instanceof SharedArrayBuffer)) throw new Error('record-encoder-worker.ts: a recording needs a port and a signal word');
  const word = new Int32Array(signal);
  serveEncoder(
    {
      postMessage(r, transfer) {
        port.postMessage(r, transfer);
        Atomics.add(word, 0, 1);
        Atomics.notify(word, 0);
      },
      listen(onMessage) {
        port.on('message', (r: EncoderRequest) => onMessage(r));
        // the recording closed its end: nothing more will come
        port.on('close', () => port.close());
      },
    },
    loadCodecs,
  );
});
