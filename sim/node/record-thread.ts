/**
 * The recording encoder in a Node worker_threads Worker (CLI, benchmarks, tests): an
 * `EncoderThreadFactory` for RecordSession / SimServiceDeps.recordThread.
 *
 * Replies come on a MessagePort of our own, so the stepping thread can block for a free capture
 * buffer (`receiveSync`: Atomics.wait on a shared signal word, then receiveMessageOnPort) instead
 * of letting buffers pile up. The entry is TypeScript: the worker registers tsx's loader first.
 */
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { EncoderPort, EncoderReply, EncoderThreadFactory } from '../record/encoder';

const entry = fileURLToPath(new URL('./record-encoder-worker.ts', import.meta.url));

export const nodeEncoderThread: EncoderThreadFactory = (): EncoderPort => {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const word = new Int32Array(signal);
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, {
    eval: true,
    workerData: { port: port2, signal },
    transferList: [port2],
  });
  let done = false;
  return {
    postMessage(m, transfer) {
      port1.postMessage(m, transfer);
    },
    listen(onMessage, onFailure) {
      port1.on('message', (m: EncoderReply) => onMessage(m));
      worker.on('error', (e) => onFailure(e));
      worker.on('exit', (code) => {
        if (!done) onFailure(new Error(`the encoder thread exited (code ${code})`));
      });
    },
    receiveSync(ms) {
      const out: EncoderReply[] = [];
      const seen = Atomics.load(word, 0);
      for (let r = receiveMessageOnPort(port1); r !== undefined; r = receiveMessageOnPort(port1)) out.push(r.message as EncoderReply);
      if (out.length > 0) return out;
      Atomics.wait(word, 0, seen, ms);
      for (let r = receiveMessageOnPort(port1); r !== undefined; r = receiveMessageOnPort(port1)) out.push(r.message as EncoderReply);
      return out;
    },
    terminate() {
      done = true;
      port1.close();
      void worker.terminate();
    },
  };
};
