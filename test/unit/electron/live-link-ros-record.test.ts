/**
 * Main's live link (electron/live-link.ts) does what `terrawheel serve` does: a rosbridge server
 * next to the Foxglove one, per-joint commands, and recordings a client starts and stops. Main's
 * handlers are called directly; the world is the real SimServiceImpl behind Comlink on a
 * MessagePort (as the app's worker), the clients are the real roslib and FoxgloveClient on
 * loopback. The world has a turntable joint of its own (test/unit/live/turntable-scenario.ts).
 * Every wait is on state (a message, a response), never on time.
 */
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort as NodePort } from 'node:worker_threads';
import { createDefaultService } from '../../../sim/app/default-service';
import type { SimServiceImpl } from '../../../sim/app/service';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { verifyRecordingFile } from '../../../sim/node/cli';
import { LiveLinkHost, portEndpoint, rosbridgePortFromEnv, type MainMessagePort } from '../../../electron/live-link';
import { IPC_LIVE_LINK, LIVE_LINK_ROSBRIDGE_PORT, type LiveLinkStatus } from '../../../electron/ipc-contract';
import { FoxClient } from '../live/fox-client';
import { loadRoslib, rosCall, rosConnect, type RosClient } from '../live/rosbridge/roslib-client';
import { TURNTABLE_JOINT, writeTurntableScenario } from '../live/turntable-scenario';

const roslib = await loadRoslib();
const tmp = mkdtempSync(join(tmpdir(), 'tw-app-link-'));
const recordDir = join(tmp, 'Documents', 'TerraWheel');
let scenario: string;
let service: SimServiceImpl;
let host: LiveLinkHost;
let h: ReturnType<LiveLinkHost['handlers']>;
let on: LiveLinkStatus;
let port1: NodePort;

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

beforeAll(async () => {
  scenario = writeTurntableScenario(tmp);
  service = createDefaultService();
  await service.load(await readScenarioFilesAsync(scenario));
  const ch = new MessageChannel();
  port1 = ch.port1;
  Comlink.expose(service, ch.port1 as unknown as Comlink.Endpoint);
  host = new LiveLinkHost({ port: 0, rosbridgePort: 'any', recordDir, syncRecordings: false, log: () => undefined });
  host.attachPort(portEndpoint(asMainPort(ch.port2)));
  h = host.handlers();
  on = await h[IPC_LIVE_LINK.start]([]);
});
afterAll(async () => {
  await host?.stop();
  port1?.close();
  service?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

interface StepResponse {
  success: boolean;
  step: number;
  state_hash: string;
}

const jointIndex = (): number => service.getWorld()!.info().joints.findIndex((j) => j.name === TURNTABLE_JOINT);

describe('main\'s live link: rosbridge and recordings from the app', () => {
  it('serves rosbridge next to Foxglove: roslib steps the app\'s world, drives a joint, gets its state hash', async () => {
    expect(on.active).toBe(true);
    expect(on.rosbridge).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(on.rosbridge).not.toBe(on.url);
    const ros: RosClient = await rosConnect(roslib, on.rosbridge!);
    try {
      expect((await h[IPC_LIVE_LINK.status]([])).rosbridgeClients).toBe(1);
      await rosCall(roslib, ros, '/terrawheel/pause', 'std_srvs/Trigger', {});
      const cmd = new roslib.Topic<object>({ ros, name: '/terrawheel/joint_commands', messageType: 'sensor_msgs/JointState' });
      cmd.publish({ name: [TURNTABLE_JOINT], velocity: [1.5], position: [], effort: [] });
      const r = await rosCall<StepResponse>(roslib, ros, '/terrawheel/step', 'terrawheel_msgs/Step', { n: 300 });
      expect(r.success).toBe(true);
      const w = service.getWorld()!;
      expect(r.step).toBe(w.stepCount);
      expect(r.state_hash).toBe(w.engine.stateHash());
      expect(w.engine.joints.velocity[jointIndex()]).toBeCloseTo(1.5, 1);
      // a joint the drive controller owns is refused, naming it; nothing reaches the world
      const wheel = w.info().joints.find((j) => j.motor && j.name !== TURNTABLE_JOINT)!;
      expect(() => host['link']!.setJointVelocity(wheel.name, 1)).toThrow(/controller every step/);
    } finally {
      ros.close();
    }
  }, 120_000);

  it('start_recording from Foxglove writes a file in the record directory that verifies (drive and joint inputs); the app\'s own Rec is refused meanwhile', async () => {
    const c = await FoxClient.connect(on.url!);
    try {
      await c.call('/terrawheel/pause');
      await c.call('/terrawheel/reset');
      const drive = c.publisher('/cmd_vel', 'geometry_msgs/Twist');
      await c.call('/terrawheel/step', { steps: 5 });
      const started = await c.call('/terrawheel/start_recording', { file: 'from-foxglove.mcap' });
      const file = join(recordDir, 'from-foxglove.mcap');
      expect(started.message).toContain(file);
      expect((await h[IPC_LIVE_LINK.status]([])).recording).toBe(file);
      // the app's own recording (File ▸ Record) cannot start over it
      await expect(service.startRecording({}, () => undefined)).rejects.toThrow(/live link client is recording/);
      drive({ linear: { x: 0.5, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0.3 } });
      await c.call('/terrawheel/step', { steps: 150 });
      // a per-joint command is an input of the recording too (format 4)
      c.publisher('/terrawheel/joint_velocity', 'terrawheel.JointVelocity')({ name: TURNTABLE_JOINT, velocity: -2 });
      drive({ linear: { x: -0.2, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
      await c.call('/terrawheel/step', { steps: 60 });
      const stop = await c.call('/terrawheel/stop_recording');
      expect(stop.message).toMatch(/finished: 210 steps/);
      expect((await h[IPC_LIVE_LINK.status]([])).recording).toBeNull();
      expect(existsSync(file)).toBe(true);
      const v = await verifyRecordingFile(file, scenario);
      expect(v.message).toMatch(/deterministic/);
      expect(v.verdict).toBe('deterministic');
      expect(v.assetMismatches).toEqual([]);
      // a second stop has nothing to stop, and leaves the app alone
      expect((await c.call('/terrawheel/stop_recording')).message).toBe('not recording');
    } finally {
      c.close();
    }
  }, 120_000);

  it('stop finishes a recording a client left running; rosbridge port 0 is off; TERRAWHEEL_ROSBRIDGE_PORT is checked', async () => {
    const c = await FoxClient.connect(on.url!);
    try {
      await c.call('/terrawheel/start_recording', { file: 'left-running.mcap' });
      await c.call('/terrawheel/step', { steps: 30 });
    } finally {
      c.close();
    }
    const off = await h[IPC_LIVE_LINK.stop]([]);
    expect(off.active).toBe(false);
    const v = await verifyRecordingFile(join(recordDir, 'left-running.mcap'), scenario);
    expect(v.verdict).toBe('deterministic');
    // the world goes on, and records again
    await expect(service.startRecording({}, () => undefined)).resolves.toBeTruthy();
    await service.stopRecording();

    expect(rosbridgePortFromEnv({})).toBe(LIVE_LINK_ROSBRIDGE_PORT);
    expect(rosbridgePortFromEnv({ TERRAWHEEL_ROSBRIDGE_PORT: '0' })).toBe(0);
    expect(() => rosbridgePortFromEnv({ TERRAWHEEL_ROSBRIDGE_PORT: '90x' })).toThrow(/TERRAWHEEL_ROSBRIDGE_PORT/);
    const h2 = new LiveLinkHost({ port: 0, rosbridgePort: 0, log: () => undefined });
    const ch = new MessageChannel();
    Comlink.expose(service, ch.port1 as unknown as Comlink.Endpoint);
    h2.attachPort(portEndpoint(asMainPort(ch.port2)));
    const s = await h2.start();
    try {
      expect(s.rosbridge).toBeNull();
      // without a record directory, start_recording says why
      const c2 = await FoxClient.connect(s.url!);
      try {
        await expect(c2.call('/terrawheel/start_recording', { file: 'x.mcap' })).rejects.toThrow(/no recording directory/);
      } finally {
        c2.close();
      }
    } finally {
      await h2.stop();
      ch.port1.close();
    }
  }, 120_000);
});
