/**
 * Web Worker entry: exposes the simulation service through Comlink. The renderer creates it with
 * `new Worker(new URL('../sim/worker.ts', import.meta.url), { type: 'module' })`.
 */
import * as Comlink from 'comlink';
import { createDefaultService } from './default-service';

Comlink.expose(createDefaultService());
