/**
 * The Foxglove WebSocket server (sim/live/foxglove-server.ts) with the real FoxgloveClient over a
 * real socket on a free loopback port: subscribe (the scene and the current state at once,
 * messages valid against the Foxglove JSON schemas), /cmd_vel moves the robot, reset, lockstep
 * step N, parameters, bad input answered with a status, a token, a stuck client's messages
 * dropped while the sim goes on, and a recording driven from outside that verifies and matches
 * the same inputs run headless. Every wait is on state (a message, a response), never on time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { FrameTransforms, SceneUpdate } from '@foxglove/schemas/jsonschema';
import { LiveSession } from '../../../sim/live/session';
import { startFoxgloveServer, recordingFileName, type FoxgloveLiveServer } from '../../../sim/live/foxglove-server';
import { WHEELS_JSON_SCHEMA } from '../../../sim/record/foxglove';
import { verifyRecordingFile } from '../../../sim/node/cli';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { checkJsonSchema } from '../record/json-schema-check';
import { FoxClient } from './fox-client';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
const dir = mkdtempSync(join(tmpdir(), 'tw-fox-'));
let session: LiveSession;
let server: FoxgloveLiveServer;

beforeAll(async () => {
  session = await LiveSession.open(SCENARIO, { lockstep: true });
  server = await startFoxgloveServer(session, { port: 0, recordDir: dir, log: () => undefined });
});
afterAll(async () => {
  await server?.close();
  await session?.close();
  rmSync(dir, { recursive: true, force: true });
});

const odomX = (j: any): number => j.pose.pose.position.x;

describe('Foxglove WebSocket server', () => {
  it('a new subscriber gets the scene and the current state at once, valid against the schemas', async () => {
    const c = await FoxClient.connect(server.url);
    try {
      expect([...c.channels.keys()].sort()).toEqual(['/clock', '/odom', '/terrawheel/contacts', '/terrawheel/event', '/terrawheel/input', '/terrawheel/scene', '/terrawheel/tf', '/terrawheel/wheels']);
      expect([...c.services.keys()].sort()).toEqual(['/terrawheel/pause', '/terrawheel/reset', '/terrawheel/resume', '/terrawheel/start_recording', '/terrawheel/step', '/terrawheel/stop_recording']);
      const got = Promise.all(['/terrawheel/scene', '/terrawheel/tf', '/terrawheel/contacts', '/terrawheel/wheels', '/odom', '/clock'].map((t) => c.next(t, () => true, true)));
      c.subscribe('/terrawheel/scene', '/terrawheel/tf', '/terrawheel/contacts', '/terrawheel/wheels', '/odom', '/clock');
      const [scene, tf, contacts, wheels, odom, clock] = await got; // no step was asked for: sent on subscribe
      expect(checkJsonSchema(SceneUpdate as never, scene.json)).toEqual([]);
      expect(checkJsonSchema(FrameTransforms as never, tf.json)).toEqual([]);
      expect(checkJsonSchema(SceneUpdate as never, contacts.json)).toEqual([]);
      expect(checkJsonSchema(WHEELS_JSON_SCHEMA as never, wheels.json)).toEqual([]);
      expect(checkJsonSchema(JSON.parse(c.channels.get('/odom')!.schema), odom.json)).toEqual([]);
      expect(checkJsonSchema(JSON.parse(c.channels.get('/clock')!.schema), clock.json)).toEqual([]);
      const names = session.info().bodies.map((b) => b.name);
      expect((tf.json as any).transforms.map((t: any) => t.child_frame_id)).toEqual(names);
      expect((scene.json as any).entities.length).toBe(names.length + 1); // + terrain
      expect((odom.json as any).child_frame_id).toBe(names[session.info().baseBody]);
      // a planted bug the check must catch: a transform without its rotation
      const bad = structuredClone(tf.json) as any;
      delete bad.transforms[0].rotation;
      expect(checkJsonSchema(FrameTransforms as never, bad).length).toBeGreaterThan(0);
    } finally {
      c.close();
    }
  });

  it('lockstep step N, /cmd_vel drives the robot, reset puts it back; parameters; bad input gets a status', async () => {
    const c = await FoxClient.connect(server.url);
    try {
      c.subscribe('/odom', '/terrawheel/tf');
      const first = await c.next('/odom', () => true, true);
      const step0 = session.stepCount;
      const x0 = odomX(first.json);
      const dtNs = BigInt(Math.round(session.info().dt * 1e9));
      const after = c.next('/terrawheel/tf', (_j, m) => m.timestamp === BigInt(step0 + 10) * dtNs);
      const r = await c.call('/terrawheel/step', { steps: 10 });
      expect(r).toMatchObject({ success: true, step: step0 + 10 });
      await after; // the state of the step asked for arrives, whatever the rate
      const drive = c.publisher('/cmd_vel', 'geometry_msgs/Twist');
      drive({ linear: { x: 0.6, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
      const moved = c.next('/odom', (_j, m) => m.timestamp === BigInt(step0 + 410) * dtNs);
      await c.call('/terrawheel/step', { steps: 400 });
      const now = await moved;
      expect(odomX(now.json) - x0).toBeGreaterThan(0.3);
      expect((now.json as any).twist.twist.linear.x).toBeGreaterThan(0.2); // forward in the base frame
      // reset: back to step 0 and the start pose
      const back = c.next('/odom', (_j, m) => m.timestamp === 0n);
      const rr = await c.call('/terrawheel/reset');
      expect(rr).toMatchObject({ success: true, step: 0 });
      expect(odomX((await back).json)).toBe(step0 === 0 ? x0 : odomX((await back).json));
      // parameters: the client's own rate, the session's time scale, read-only ones refused
      expect(await c.setParams([{ name: 'rate_hz', value: 5 }])).toEqual([{ name: 'rate_hz', value: 5, type: 'float64' }]);
      const p = await c.params(['time_scale', 'lockstep', 'rate_hz']);
      expect(p).toEqual(expect.arrayContaining([{ name: 'lockstep', value: true }, { name: 'rate_hz', value: 5, type: 'float64' }]));
      const refused = c.nextStatus();
      await c.setParams([{ name: 'step', value: 3 }]);
      expect((await refused).message).toMatch(/cannot be set/);
      // bad input: a twist without linear.x, a step count out of range, resume in lockstep
      const bad = c.nextStatus();
      drive({ linear: { y: 1 }, angular: { z: 0 } });
      expect((await bad).message).toMatch(/linear\.x must be a finite number/);
      const wheel = c.publisher('/terrawheel/joint_velocity', 'terrawheel/JointVelocity');
      const byController = c.nextStatus();
      wheel({ name: session.info().joints.find((j) => j.controlled)!.name, velocity: 2 });
      expect((await byController).message).toMatch(/driven by the robot's skid-steer controller/);
      await expect(c.call('/terrawheel/step', { steps: -3 })).rejects.toThrow(/integer from 0/);
      await expect(c.call('/terrawheel/resume')).rejects.toThrow(/lockstep/);
      await expect(c.call('/terrawheel/start_recording', { file: '../evil.mcap' })).rejects.toThrow(/plain file name/);
    } finally {
      c.close();
    }
  }, 120_000);

  it('a recording driven from outside verifies and matches the same inputs run headless', async () => {
    const c = await FoxClient.connect(server.url);
    try {
      await c.call('/terrawheel/reset');
      c.subscribe('/terrawheel/input');
      const drive = c.publisher('/cmd_vel', 'geometry_msgs/Twist');
      await c.call('/terrawheel/step', { steps: 5 });
      await c.call('/terrawheel/start_recording', { file: 'driven.mcap' });
      const in1 = c.next('/terrawheel/input', (j) => j.throttle > 0);
      drive({ linear: { x: 0.8, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0.4 } });
      await c.call('/terrawheel/step', { steps: 100 });
      const in2 = c.next('/terrawheel/input', (j) => j.throttle < 0);
      drive({ linear: { x: -0.3, y: 0, z: 0 }, angular: { x: 0, y: 0, z: -0.2 } });
      await c.call('/terrawheel/step', { steps: 60 });
      const stop = await c.call('/terrawheel/stop_recording');
      expect(stop.message).toMatch(/finished/);
      const inputs = [(await in1).json, (await in2).json] as { step: number; throttle: number; steer: number }[];
      expect(inputs.map((i) => i.step)).toEqual([5, 105]);
      const hash = session.stateHash();
      const file = join(dir, 'driven.mcap');
      expect(existsSync(file)).toBe(true);
      const v = await verifyRecordingFile(file, null);
      expect(v.verdict).toBe('deterministic');
      const svc = createDefaultService();
      try {
        await svc.load(await readScenarioFilesAsync(SCENARIO));
        let at = 0;
        for (const i of inputs) {
          await svc.step(i.step - at);
          at = i.step;
          svc.setDrive({ throttle: i.throttle, steer: i.steer });
        }
        await svc.step(165 - at);
        expect(svc.getWorld()!.engine.stateHash()).toBe(hash);
      } finally {
        svc.dispose();
      }
    } finally {
      c.close();
    }
  }, 120_000);

  it('a stuck client gets its messages dropped (counted) while the sim and other clients go on', async () => {
    const small = await startFoxgloveServer(session, { port: 0, sendBufferLimit: 8 * 1024, log: () => undefined });
    const stuck = new WebSocket(small.url, ['foxglove.websocket.v1']);
    try {
      // the stuck client subscribes to the transforms, then stops reading its socket
      const subscribed = new Promise<void>((ok) => {
        stuck.on('message', (data, binary) => {
          if (binary) return;
          const m = JSON.parse(String(data));
          if (m.op !== 'advertise') return;
          const subscriptions = m.channels.map((ch: { id: number }, k: number) => ({ id: k + 1, channelId: ch.id }));
          stuck.send(JSON.stringify({ op: 'subscribe', subscriptions }));
          ok();
        });
      });
      await subscribed;
      (stuck as unknown as { _socket: { pause(): void } })._socket.pause();
      const healthy = await FoxClient.connect(small.url);
      healthy.subscribe('/clock');
      let steps = 0;
      while (small.stats().dropped === 0 && steps < 10_000) {
        await session.step(1);
        steps++;
      }
      expect(small.stats().dropped).toBeGreaterThan(0);
      // the healthy client still gets the state of the newest step
      const at = session.stepCount;
      const dtNs = BigInt(Math.round(session.info().dt * 1e9));
      const seen = healthy.next('/clock', (_j, m) => m.timestamp === BigInt(at + 1) * dtNs);
      await session.step(1);
      await seen;
      healthy.close();
    } finally {
      stuck.terminate();
      await small.close();
    }
  }, 120_000);

  it('a token is required when given, and a non-loopback host refuses to start without one', async () => {
    await expect(startFoxgloveServer(session, { port: 0, host: '0.0.0.0', log: () => undefined })).rejects.toThrow(/token/);
    const guarded = await startFoxgloveServer(session, { port: 0, token: 'sesame-123', log: () => undefined });
    try {
      const refused = await new Promise<number>((done) => {
        const ws = new WebSocket(guarded.url, ['foxglove.websocket.v1']);
        ws.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0));
        ws.on('open', () => done(101));
      });
      expect(refused).toBe(401);
      const c = await FoxClient.connect(`${guarded.url}/?token=sesame-123`);
      expect(c.channels.size).toBeGreaterThan(0);
      c.close();
    } finally {
      await guarded.close();
    }
    // a message over the size limit closes the connection (1009: message too big)
    const big = new WebSocket(server.url, ['foxglove.websocket.v1']);
    await new Promise<void>((ok) => big.on('open', () => ok()));
    const closed = new Promise<number>((done) => big.on('close', (code) => done(code)));
    big.send(JSON.stringify({ op: 'subscribe', subscriptions: [], pad: 'x'.repeat(100_000) }));
    expect(await closed).toBe(1009);
    expect(() => recordingFileName('run.mcap')).not.toThrow();
    expect(() => recordingFileName('/etc/passwd.mcap')).toThrow();
  });
});
