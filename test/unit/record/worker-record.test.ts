/**
 * Recording through the worker boundary, as the app does it: the service runs in a Node worker
 * (worker_threads, Comlink), chunks come back through a proxied callback in order, and the
 * joined bytes open for replay in the same worker; a seek lands on the requested step and the
 * recorded frame equals the sim's frame there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { SimService } from '../../../sim/app/protocol';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';

const entry = fileURLToPath(new URL('../../../sim/node/worker-node.ts', import.meta.url));

describe('recording in the simulation worker over Comlink', () => {
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
  const remote = Comlink.wrap<SimService>(nodeEndpoint(worker));
  afterAll(async () => {
    remote[Comlink.releaseProxy]();
    await worker.terminate();
  });

  it('streams chunks to a proxied callback, reopens them, seeks exactly', async () => {
    const cols = 48, rows = 48;
    const heights = new Uint16Array(cols * rows).map((_, i) => (i * 37) % 5000);
    await remote.load({
      scenario: { format: 'terrawheel-scenario', version: 1, name: 'w', terrain: 't.json', start: { position: [2.4, 2.4], yaw: 0 }, dt: 0.01 },
      terrainSidecar: { image: 't.png', format: 'png', metersPerPixel: 0.1, heightRange: [0, 0.3] },
      terrainData: encodeGrayPng(cols, rows, 16, heights),
    });
    const parts: Uint8Array[] = [];
    const started = await remote.startRecording({ keyframeInterval: 25, chunkBytes: 4096 }, Comlink.proxy((b: Uint8Array) => void parts.push(b)));
    expect(started.active).toBe(true);
    await remote.setDrive({ throttle: 0.8, steer: 0.2 });
    await remote.step(60);
    await remote.setDrive({ throttle: -0.5, steer: 0 });
    await remote.step(60);
    const status = await remote.stopRecording();
    expect(status.steps).toBe(120);
    expect(status.inputs).toBe(3); // the drive in effect at the start (no script), then the two commands
    const total = parts.reduce((n, p) => n + p.length, 0);
    expect(total).toBe(status.bytes);
    expect(parts.length).toBeGreaterThan(3);
    const bytes = new Uint8Array(total);
    let o = 0;
    for (const p of parts) {
      bytes.set(p, o);
      o += p.length;
    }
    const summary = await remote.openRecording(bytes, 'w.mcap');
    expect([summary.firstStep, summary.lastStep]).toEqual([0, 120]);
    const f = await remote.seek(83);
    expect(f.step).toBe(83);
    const rf = await remote.recordedFrame(83);
    expect(Array.from(rf!.poses)).toEqual(Array.from(f.poses));
    const v = await remote.verify();
    expect(v.verdict).toBe('deterministic');
  });
});
