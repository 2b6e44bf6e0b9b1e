import { afterAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { SimService } from '../../../sim/app/protocol';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';

// The worker entry is TypeScript: run it through tsx's loader inside the worker thread.
const entry = fileURLToPath(new URL('../../../sim/node/worker-node.ts', import.meta.url));

describe('simulation worker over Comlink in Node (worker_threads)', () => {
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
  const remote = Comlink.wrap<SimService>(nodeEndpoint(worker));
  afterAll(async () => {
    remote[Comlink.releaseProxy]();
    await worker.terminate();
  });

  it('loads a scenario, steps it, and returns frames as typed arrays', async () => {
    const cols = 64, rows = 64;
    const png = encodeGrayPng(cols, rows, 16, new Uint16Array(cols * rows));
    const info = await remote.load({
      scenario: { format: 'terrawheel-scenario', version: 1, name: 'w', terrain: 't.json', start: { position: [3, 3], yaw: 0 }, dt: 0.01 },
      terrainSidecar: { image: 't.png', format: 'png', metersPerPixel: 0.1, heightRange: [0, 1] },
      terrainData: png,
    });
    expect(info.terrain.cols).toBe(cols);
    expect(info.bodies.length).toBe(5);
    await remote.setDrive({ throttle: 1, steer: 0 });
    const step = await remote.step(100);
    expect(step).toBe(100);
    const f = await remote.latestFrame();
    expect(f.poses).toBeInstanceOf(Float32Array);
    expect(f.poses[0]).toBeGreaterThan(3.5);
  });

  it('rejects a bad scenario with a clear message across the worker boundary', async () => {
    await expect(
      remote.load({ scenario: { format: 'nope' }, terrainSidecar: {}, terrainData: new Uint8Array(0) }),
    ).rejects.toThrow(/"format" must be "terrawheel-scenario"/);
  });
});
