/**
 * The desktop app's live link (sim/live/app-link.ts) as Electron main runs it: the Foxglove server
 * over an AppLiveLink whose backend is the real SimServiceImpl reached the way the app reaches it,
 * Comlink over a MessagePort (a MessageChannel here; the worker's port in the app), and the real
 * FoxgloveClient on a real socket. The world is the app's own: the app's clock, started through the
 * service as the renderer starts it, shows in what the client gets; /cmd_vel, pause, step and
 * reset reach that world. Every wait is on state (a message, a response), never on time.
 */
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { FrameTransforms } from '@foxglove/schemas/jsonschema';
import type { SimService } from '../../../sim/app/protocol';
import type { SimServiceImpl } from '../../../sim/app/service';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { AppLiveLink } from '../../../sim/live/app-link';
import { startFoxgloveServer, type FoxgloveLiveServer } from '../../../sim/live/foxglove-server';
import { checkJsonSchema } from '../record/json-schema-check';
import { FoxClient } from './fox-client';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
let service: SimServiceImpl;
let remote: Comlink.Remote<SimService>;
let channel: MessageChannel;
let link: AppLiveLink;
let server: FoxgloveLiveServer;

beforeAll(async () => {
  service = createDefaultService();
  channel = new MessageChannel();
  Comlink.expose(service, channel.port1 as unknown as Comlink.Endpoint);
  remote = Comlink.wrap<SimService>(channel.port2 as unknown as Comlink.Endpoint);
  const files = await readScenarioFilesAsync(SCENARIO);
  await remote.load(Comlink.transfer(files, [files.terrainData.buffer as ArrayBuffer]), undefined, { maxMemoryBytes: Infinity });
  link = await AppLiveLink.connect(remote, { log: () => undefined });
  server = await startFoxgloveServer(link, { port: 0, log: () => undefined });
});
afterAll(async () => {
  await server?.close();
  await link?.close();
  remote?.[Comlink.releaseProxy]();
  channel?.port1.close();
  channel?.port2.close();
  service?.dispose();
});

const odomX = (j: any): number => j.pose.pose.position.x;
const stepOf = (j: any): number => j.clock.sec * 1e9 + j.clock.nsec;

describe('the app\'s live link (Foxglove server over the worker\'s world)', () => {
  it('a subscriber gets the scene and the state of the app\'s world, and sees the app\'s own clock run', async () => {
    const c = await FoxClient.connect(server.url);
    try {
      const got = Promise.all(['/terrawheel/scene', '/terrawheel/tf', '/odom', '/clock'].map((t) => c.next(t, () => true, true)));
      c.subscribe('/terrawheel/scene', '/terrawheel/tf', '/odom', '/clock');
      const [scene, tf, odom, clock] = await got;
      const names = link.info().bodies.map((b) => b.name);
      expect(names.length).toBeGreaterThan(1);
      expect(checkJsonSchema(FrameTransforms as never, tf.json)).toEqual([]);
      expect((tf.json as any).transforms.map((t: any) => t.child_frame_id)).toEqual(names);
      expect((scene.json as any).entities.length).toBe(names.length + 1); // + terrain
      expect((odom.json as any).child_frame_id).toBe(names[link.info().baseBody]);
      // the pose is the worker's world's, not a copy's
      const w = service.getWorld()!;
      const b = 7 * link.info().baseBody;
      const p = (odom.json as any).pose.pose.position;
      const poses = w.engine.frame().poses;
      expect([p.x, p.y, p.z]).toEqual([poses[b], poses[b + 1], poses[b + 2]]);
      expect(p.z).not.toBe(0);
      // the user presses play in the app (the renderer calls setRunning on the worker): the client sees time pass
      const t0 = stepOf(clock.json);
      const later = c.next('/clock', (j) => stepOf(j) > t0);
      await remote.setRunning(true);
      await later;
      expect(link.isRunning).toBe(true);
      await c.call('/terrawheel/pause');
      expect(link.isRunning).toBe(false);
    } finally {
      await remote.setRunning(false);
      c.close();
    }
  });

  it('/cmd_vel moves the app\'s robot, step N advances it, reset puts it back; bad joint commands and recordings without a directory are refused', async () => {
    const c = await FoxClient.connect(server.url);
    try {
      await c.call('/terrawheel/pause');
      const first = c.next('/odom', () => true, false);
      c.subscribe('/odom', '/clock', '/terrawheel/input');
      const start = await first;
      const x0 = odomX(start.json);
      const drive = c.publisher('/cmd_vel', 'geometry_msgs/Twist');
      // the command reaches the worker's world (the drive in effect there), then steps move the robot
      const input = c.next('/terrawheel/input', (j) => j.throttle > 0);
      drive({ linear: { x: 1, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
      await input;
      await link.idle();
      expect(service.getWorld()!.engine.drive.throttle).toBeGreaterThan(0);
      const stepped = c.next('/odom', (j) => odomX(j) > x0 + 0.1);
      const r = await c.call('/terrawheel/step', { steps: 600 });
      expect(r.success).toBe(true);
      expect(r.step).toBe(service.getWorld()!.stepCount);
      await stepped;
      // reset: the worker's world is back at its first step and pose
      const back = c.next('/clock', (j) => stepOf(j) === 0);
      const rr = await c.call('/terrawheel/reset');
      expect(rr.success).toBe(true);
      await back;
      expect(service.getWorld()!.stepCount).toBe(0);
      expect(link.stepCount).toBe(0);
      // a link without a recording directory says so; a joint command is checked at once
      await expect(c.call('/terrawheel/start_recording', { file: 'x.mcap' })).rejects.toThrow(/no recording directory/);
      expect(() => link.setJointVelocity('any', 1)).toThrow(/no joint named "any"/);
    } finally {
      c.close();
    }
  });

  it('time_scale set by a client reaches the app\'s clock', async () => {
    const c = await FoxClient.connect(server.url);
    try {
      const [p] = await c.setParams([{ name: 'time_scale', value: 2.5, type: 'float64' }]);
      expect(p.value).toBe(2.5);
      await link.idle();
      expect((await remote.liveSnapshot()).timeScale).toBe(2.5);
    } finally {
      c.close();
    }
  });

  it('a reset while the app records is refused with a message (a recording is one run)', async () => {
    await expect(remote.resetWorld()).resolves.toBe(0);
    const chunks: Uint8Array[] = [];
    await remote.startRecording({}, Comlink.proxy((b: Uint8Array) => void chunks.push(b)));
    try {
      await expect(link.reset()).rejects.toThrow(/recording is being written/);
    } finally {
      await remote.stopRecording();
    }
  });
});
