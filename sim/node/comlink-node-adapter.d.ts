// comlink ships node-adapter.d.ts next to node-adapter.mjs; TypeScript's bundler resolution looks
// for node-adapter.d.mts, so declare the module here. The adapter accepts a worker_threads
// MessagePort or Worker (anything with postMessage/on/off).
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  export default function nodeEndpoint(nep: object): Endpoint;
}
