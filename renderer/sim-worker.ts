/**
 * Starts the simulation worker (sim/app/worker.ts) and wraps it in a SimClient. Kept apart from
 * sim-client.ts, which needs no DOM and is unit-tested in Node over a MessageChannel.
 */
import * as Comlink from 'comlink';
import type { SimService } from '../sim/app/protocol';
import { SimClient, type SimFailureListener } from './sim-client';

/**
 * Starts the worker and its client. `onFailure` hears failed commands and failures outside any
 * call (the module failed to load, an uncaught error in the worker's own clock; call "worker"),
 * which no Comlink promise would report.
 */
export function createSimClient(onFailure: SimFailureListener): SimClient {
  const worker = new Worker(new URL('../sim/app/worker.ts', import.meta.url), { type: 'module', name: 'terrawheel-sim' });
  worker.addEventListener('error', (e) => {
    e.preventDefault(); // reported in the banner instead of as an uncaught console error
    onFailure('worker', e.message || 'the simulation worker failed to start');
  });
  worker.addEventListener('messageerror', () => onFailure('worker', 'a message from the simulation worker could not be decoded'));
  return new SimClient(Comlink.wrap<SimService>(worker), onFailure, () => worker.terminate());
}
