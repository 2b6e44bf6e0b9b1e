/**
 * SimClient over a real Comlink link (a MessageChannel in Node, the same protocol the worker
 * speaks) to the real SimServiceImpl: requests resolve with the worker's results or reject with its
 * message; commands resolve true once applied, and a command that fails (the argument cannot cross
 * the channel, the service throws, the client was disposed) resolves false after reporting the
 * failure, so a fire-and-forget caller can never drop it. FramePump keeps one request in flight.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { DriveCommand, SimService } from '../../../sim/app/protocol';
import { SimServiceImpl } from '../../../sim/app/service';
import { FramePump, SimClient, type ReceivedFrame } from '../../../renderer/sim-client';

/** A one-ball world on inline terrain: no terrain file to decode. */
const BALL_WORLD = {
  scenario: {
    format: 'terrawheel-scenario', version: 2, name: 'ball',
    terrain: { cols: 3, rows: 3, dx: 1, dy: 1, x0: -1, y0: -1, heights: [0, 0, 0, 0, 0, 0, 0, 0, 0] },
    bodies: [{ name: 'ball', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0, 0, 0.5] }],
  },
  terrainSidecar: null,
  terrainData: new Uint8Array(0),
};

interface Link {
  client: SimClient;
  service: SimService;
  failures: { call: string; message: string }[];
  released: number;
}

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/** `service` exposed on one end of a MessageChannel, the client on the other. */
function link(service: SimService): Link {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(service, port1 as unknown as Comlink.Endpoint);
  const failures: Link['failures'] = [];
  const l: Link = { client: null as unknown as SimClient, service, failures, released: 0 };
  l.client = new SimClient(Comlink.wrap<SimService>(port2 as unknown as Comlink.Endpoint), (call, message) => failures.push({ call, message }), () => {
    l.released++;
    port2.close();
  });
  open.push(port1, port2, { close: () => (service as SimServiceImpl).dispose?.() });
  return l;
}

const realService = (): SimServiceImpl =>
  new SimServiceImpl({
    decodeTerrain: () => {
      throw new Error('no terrain file in these tests');
    },
  });

describe('SimClient over Comlink', () => {
  it('requests resolve with the worker\'s results; commands resolve true and reach the service', async () => {
    const { client, failures } = link(realService());
    const info = await client.load(structuredClone(BALL_WORLD), () => undefined);
    expect(info.bodies.map((b) => b.name)).toEqual(['ball']);
    expect(await client.setTimeScale(2)).toBe(true);
    expect(await client.setDrive({ throttle: 0.5, steer: 0 })).toBe(true);
    expect(await client.step(3)).toBe(3);
    const f = await client.latestFrame();
    expect(f.step).toBe(3);
    expect(f.poses.length).toBe(7);
    expect(failures).toEqual([]);
  });

  it('a request that fails rejects to its caller with the service\'s message (and is not reported twice)', async () => {
    const { client, failures } = link(realService());
    await expect(client.latestFrame()).rejects.toThrow(/world/i);
    await client.load(structuredClone(BALL_WORLD), () => undefined);
    await expect(client.step(-1)).rejects.toThrow(/integer/);
    expect(failures).toEqual([]);
  });

  it('a command whose argument cannot cross the channel resolves false and reports why', async () => {
    const { client, failures } = link(realService());
    await client.load(structuredClone(BALL_WORLD), () => undefined);
    const bad = { throttle: 1, steer: 0, onDone: () => undefined } as unknown as DriveCommand; // functions do not clone
    expect(await client.setDrive(bad)).toBe(false);
    expect(failures).toHaveLength(1);
    expect(failures[0].call).toBe('setDrive');
    expect(failures[0].message).toMatch(/clone/i);
    // the link still works afterwards
    expect(await client.setRunning(false)).toBe(true);
    expect(failures).toHaveLength(1);
  });

  it('a command the service throws on is reported with the service\'s message, never an unhandled rejection', async () => {
    // The real service with one command failing, as a worker whose world refuses to run would.
    const service = realService();
    const stop = service.setRunning.bind(service);
    service.setRunning = (running: boolean) => {
      if (running) throw new Error('the world is in a faulted state');
      stop(false); // dispose() stops the clock through here
    };
    const { client, failures } = link(service);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      void client.setRunning(true); // fire and forget, as the UI does
      await expect.poll(() => failures.length).toBe(1);
      expect(failures[0]).toEqual({ call: 'setRunning', message: 'the world is in a faulted state' });
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('after dispose the endpoint is released once and every command reports instead of hanging', async () => {
    const l = link(realService());
    l.client.dispose();
    l.client.dispose();
    expect(l.released).toBe(1);
    expect(await l.client.setRunning(true)).toBe(false);
    expect(await l.client.closeRecording()).toBe(false);
    expect(l.failures.map((f) => f.call)).toEqual(['setRunning', 'closeRecording']);
    expect(l.failures[0].message).toMatch(/stopped/);
  });
});

describe('FramePump', () => {
  it('keeps one latestFrame request in flight, records its error, and drops a frame of a replaced world', async () => {
    const { client } = link(realService());
    const got: ReceivedFrame[] = [];
    const pump = new FramePump(client, (rf) => got.push(rf));
    pump.poll(); // no world yet: the request fails
    await expect.poll(() => pump.lastError).toMatch(/world/i);
    await client.load(structuredClone(BALL_WORLD), () => undefined);
    await client.step(2);
    pump.poll();
    pump.poll(); // still in flight: no second request
    await expect.poll(() => got.length).toBe(1);
    expect(got[0].frame.step).toBe(2);
    expect(pump.lastError).toBeNull();
    await client.step(1);
    pump.poll();
    pump.reset(); // a new world while the request was out: its answer is dropped
    await client.step(1); // the dropped request has settled once this round trip is back
    expect(got.length).toBe(1);
    expect(pump.current).toBeNull();
  });
});
