/**
 * The recording encoder in a Node worker_threads Worker (CLI, benchmarks, tests): an
 * `EncoderThreadFactory` for RecordSession / SimServiceDeps.recordThread.
 *
 * One encoder Worker serves every recording of the process, one after another or side by side:
 * each recording gets a MessageChannel of its own (its port travels to the Worker, which runs a
 * `serveEncoder` on it) and a shared signal word, so the stepping thread can block for a free
 * capture buffer (`receiveSync`: Atomics.wait on the word, then receiveMessageOnPort). Keeping the
 * Worker saves starting it (tsx compiles its modules: about 0.3 s) and lets its compiled code stay
 * warm from one recording to the next. It is unref'd (an idle encoder does not keep the process
 * alive); if it dies, the recordings it served fail and the next recording starts a new one. The
 * entry is TypeScript: the Worker registers tsx's loader first (in the sweep bundle, the bundled
 * entry beside it runs as is).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { EncoderPort, EncoderReply, EncoderThreadFactory } from '../record/encoder';

const entry = fileURLToPath(new URL('./record-encoder-worker.ts', import.meta.url));
/**
 * Inside the sweep worker bundle (sweep-bundle.ts) or the CLI's bundle (bundle-cache.mjs) this
 * module's URL is the bundle's (the bundler leaves it so: @bundle-keeps-import-meta-url), and the
 * encoder's entry is bundled beside it as plain JavaScript: no loader to register.
 */
const bundledEntry = fileURLToPath(new URL('./record-encoder-worker.mjs', import.meta.url));

/** The process's encoder Worker, while it lives. */
let shared: Worker | null = null;

function encoderWorker(): Worker {
  if (shared !== null) return shared;
  const worker = existsSync(bundledEntry) ? new Worker(bundledEntry) : new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
  worker.unref();
  const forget = (): void => {
    if (shared === worker) shared = null;
  };
  worker.on('error', forget);
  worker.on('exit', forget);
  shared = worker;
  return worker;
}

export const nodeEncoderThread: EncoderThreadFactory = (): EncoderPort => {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const word = new Int32Array(signal);
  const worker = encoderWorker();
  worker.postMessage({ port: port2, signal }, [port2]);
  let done = false;
  let onError: ((e: Error) => void) | null = null;
  let onExit: ((code: number) => void) | null = null;
  return {
    postMessage(m, transfer) {
      port1.postMessage(m, transfer);
    },
    listen(onMessage, onFailure) {
      port1.on('message', (m: EncoderReply) => onMessage(m));
      onError = (e) => onFailure(e);
      onExit = (code) => {
        if (!done) onFailure(new Error(`the encoder thread exited (code ${code})`));
      };
      worker.on('error', onError);
      worker.on('exit', onExit);
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
      // this recording is over (its port closes; the Worker stays for the next one)
      done = true;
      port1.close();
      if (onError) worker.off('error', onError);
      if (onExit) worker.off('exit', onExit);
    },
  };
};
