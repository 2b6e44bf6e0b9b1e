/**
 * Node worker_threads entry: the same service as the web worker, over Comlink's node adapter.
 * Used by headless tools and by the test that proves the worker protocol runs in Node.
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { createDefaultService } from '../app/default-service';

if (!parentPort) throw new Error('worker-node.ts must run inside a worker_threads Worker');
Comlink.expose(createDefaultService(), nodeEndpoint(parentPort));
