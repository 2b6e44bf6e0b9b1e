/**
 * Main's live link handlers (electron/live-link.ts), called directly as main's ipcMain.handle
 * does: the port the renderer sends is a MessagePort on which the real SimServiceImpl is exposed
 * (here one end of a MessageChannel, seen through the MessagePortMain shape `portEndpoint` wraps;
 * in the app the worker's port from Comlink's createEndpoint). start serves the world to the real
 * FoxgloveClient on loopback, status counts it, stop closes the server and the world goes on.
 */
import * as Comlink from 'comlink';
import { afterAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { MessageChannel, type MessagePort as NodePort } from 'node:worker_threads';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { LiveLinkHost, portEndpoint, type MainMessagePort } from '../../../electron/live-link';
import { IPC_LIVE_LINK } from '../../../electron/ipc-contract';
import { FoxClient } from '../live/fox-client';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
const service = createDefaultService();
afterAll(() => service.dispose());

/** A Node MessagePort in the shape of Electron's MessagePortMain ('message' events carry { data }). */
function asMainPort(p: NodePort): MainMessagePort {
  const wrapped = new Map<unknown, (d: unknown) => void>();
  return {
    postMessage: (m) => p.postMessage(m),
    on: (_e, l) => {
      const fn = (data: unknown): void => l({ data });
      wrapped.set(l, fn);
      return p.on('message', fn);
    },
    off: (_e, l) => p.off('message', wrapped.get(l)!),
    start: () => p.start(),
    close: () => p.close(),
  };
}

describe('main\'s live link handlers', () => {
  it('refuse arguments, refuse a start without a port, then start, count a client, stop', async () => {
    const host = new LiveLinkHost({ port: 0, rosbridgePort: 'any', log: () => undefined });
    const h = host.handlers();
    await expect(h[IPC_LIVE_LINK.status]([])).resolves.toEqual({ active: false, url: null, clients: 0, rosbridge: null, rosbridgeClients: 0, recording: null });
    await expect(h[IPC_LIVE_LINK.start](['ws://0.0.0.0:1'])).rejects.toThrow(/expected no arguments/);
    await expect(h[IPC_LIVE_LINK.start]([])).rejects.toThrow(/no simulation worker port/);

    await service.load(await readScenarioFilesAsync(SCENARIO));
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(service, port1 as unknown as Comlink.Endpoint);
    host.attachPort(portEndpoint(asMainPort(port2)));
    const on = await h[IPC_LIVE_LINK.start]([]);
    expect(on.active).toBe(true);
    expect(on.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);

    const c = await FoxClient.connect(on.url!);
    try {
      const odom = c.next('/odom');
      c.subscribe('/odom');
      const o = await odom;
      expect((o.json as any).pose.pose.position.x).toBeCloseTo(service.getWorld()!.engine.frame().poses[7 * service.getWorld()!.info().baseBody], 6);
      expect((await h[IPC_LIVE_LINK.status]([])).clients).toBe(1);
      // a second start while on leaves the link as it is
      expect((await h[IPC_LIVE_LINK.start]([])).url).toBe(on.url);
    } finally {
      c.close();
    }
    const off = await h[IPC_LIVE_LINK.stop]([]);
    expect(off).toEqual({ active: false, url: null, clients: 0, rosbridge: null, rosbridgeClients: 0, recording: null });
    // the world is untouched: the app still steps it
    await expect(service.step(3)).resolves.toBeGreaterThanOrEqual(3);
    port1.close();
  });
});
