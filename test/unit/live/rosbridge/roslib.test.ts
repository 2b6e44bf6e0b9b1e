/**
 * The rosbridge server with the real `roslib` client (and raw WebSocket clients where roslib
 * cannot send the message under test), over a LiveSession of the curbs scenario on loopback.
 * Every wait is on state (a message, a response, a counter), never on time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { loadRoslib, type RosClient as Ros, type RosTypeDef } from './roslib-client';
import { parse } from '@foxglove/rosmsg';
import { LiveSession } from '../../../../sim/live/session';
import { startRosbridgeServer, type RosbridgeServer } from '../../../../sim/live/rosbridge/server';
import { conform } from '../../../../sim/live/rosbridge/msg-parse';
import { openScenario } from '../../../../sim/node/open-scenario';

const { Ros, Service, Topic } = await loadRoslib();
const ROOT = resolve(__dirname, '../../../..');
const SCENARIO = resolve(ROOT, 'assets/scenarios/curbs.json');

async function connect(url: string): Promise<Ros> {
  const ros = new Ros({});
  const open = new Promise<void>((done, fail) => {
    ros.once('connection', () => done());
    ros.once('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
  });
  await ros.connect(url);
  await open;
  return ros;
}

function call<T = Record<string, unknown>>(ros: Ros, name: string, serviceType: string, args: object): Promise<T> {
  const s = new Service<object, T>({ ros, name, serviceType });
  return new Promise<T>((done, fail) => s.callService(args, done, (e) => fail(new Error(String(e)))));
}

/** The next message on `topic` that satisfies `pred`. */
function next<T>(ros: Ros, name: string, messageType: string, pred: (m: T) => boolean = () => true): Promise<T> {
  const t = new Topic<T>({ ros, name, messageType });
  return new Promise<T>((done) => {
    const cb = (m: T) => {
      if (!pred(m)) return;
      t.unsubscribe(cb);
      done(m);
    };
    t.subscribe(cb);
  });
}

/** A raw client: sends text, collects every message it receives. */
async function rawClient(url: string): Promise<{ ws: WebSocket; inbox: Record<string, unknown>[]; waitFor: (pred: (m: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(url);
  const inbox: Record<string, unknown>[] = [];
  const waiters: { pred: (m: Record<string, unknown>) => boolean; done: (m: Record<string, unknown>) => void }[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as Record<string, unknown>;
    inbox.push(m);
    for (const w of [...waiters]) if (w.pred(m)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.done(m);
    }
  });
  await new Promise((done, fail) => {
    ws.once('open', done);
    ws.once('error', fail);
  });
  const waitFor = (pred: (m: Record<string, unknown>) => boolean) => {
    const found = inbox.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise<Record<string, unknown>>((done) => waiters.push({ pred, done }));
  };
  return { ws, inbox, waitFor };
}

interface StepResponse {
  success: boolean;
  message: string;
  step: number;
  time: number;
  state_hash: string;
}

interface Odometry {
  header: { seq: number; stamp: { secs: number; nsecs: number }; frame_id: string };
  child_frame_id: string;
  pose: { pose: { position: { x: number; y: number; z: number } } };
}

describe('rosbridge server with roslib (lockstep)', () => {
  let session: LiveSession;
  let server: RosbridgeServer;
  let ros: Ros;
  const step = (n: number) => call<StepResponse>(ros, '/terrawheel/step', 'terrawheel_msgs/Step', { n });

  beforeAll(async () => {
    session = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
    server = await startRosbridgeServer(session, { port: 0 });
    ros = await connect(server.url);
  }, 120_000);

  afterAll(async () => {
    ros?.close();
    await server?.close();
    await session?.close();
  });

  it('publishing /cmd_vel moves the robot: /odom changes after a lockstep step', async () => {
    const first = await next<Odometry>(ros, '/odom', 'nav_msgs/Odometry');
    expect(first.header.frame_id).toBe('world');
    expect(first.child_frame_id).toBe('rover/chassis');
    const x0 = first.pose.pose.position.x;
    const cmd = new Topic({ ros, name: '/cmd_vel', messageType: 'geometry_msgs/Twist' });
    cmd.publish({ linear: { x: 0.5, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    const moved = next<Odometry>(ros, '/odom', 'nav_msgs/Odometry', (m) => m.header.stamp.secs >= 1);
    const r = await step(200); // 1 s
    expect(r).toMatchObject({ success: true, step: 200 });
    expect(r.state_hash).toMatch(/^[0-9a-f]{16}$/);
    const after = await moved;
    expect(after.pose.pose.position.x - x0).toBeGreaterThan(0.1);
  });

  it('/terrawheel/reset puts the world back at step 0', async () => {
    const back = next<Odometry>(ros, '/odom', 'nav_msgs/Odometry', (m) => m.header.stamp.secs === 0 && m.header.stamp.nsecs === 0);
    const r = await call<{ success: boolean; message: string }>(ros, '/terrawheel/reset', 'std_srvs/Trigger', {});
    expect(r.success).toBe(true);
    await back;
    expect(session.stepCount).toBe(0);
  });

  it('/tf, /joint_states, /clock and contacts arrive after a step, each a complete message of its type', async () => {
    const wanted: [string, string][] = [
      ['/tf', 'tf2_msgs/TFMessage'],
      ['/joint_states', 'sensor_msgs/JointState'],
      ['/clock', 'rosgraph_msgs/Clock'],
      ['/terrawheel/contacts', 'visualization_msgs/MarkerArray'],
    ];
    const target = session.stepCount + 3;
    const stamped = (m: Record<string, unknown>) => {
      const c = m.clock as { secs: number; nsecs: number } | undefined;
      const t = c ?? ((m.header ?? (m.transforms as { header: unknown }[] | undefined)?.[0]?.header ?? (m.markers as { header: unknown }[] | undefined)?.[0]?.header) as { stamp: { secs: number; nsecs: number } } | undefined)?.stamp;
      return t !== undefined && Math.abs(t.secs + t.nsecs * 1e-9 - target * 0.005) < 1e-6;
    };
    const got = wanted.map(([name, type]) => next<Record<string, unknown>>(ros, name, type, stamped));
    await step(3);
    const msgs = await Promise.all(got);
    for (let i = 0; i < wanted.length; i++) {
      const r = conform(wanted[i][1], msgs[i], true);
      expect(r.ok ? '' : r.error, wanted[i][0]).toBe('');
    }
    const tf = msgs[0] as { transforms: { child_frame_id: string }[] };
    expect(tf.transforms.map((t) => t.child_frame_id)).toEqual(session.info().bodies.map((b) => b.name));
    const js = msgs[1] as { name: string[]; velocity: number[] };
    expect(js.name.length).toBeGreaterThanOrEqual(4);
    const markers = (msgs[3] as { markers: { action: number; points: unknown[] }[] }).markers;
    expect(markers[0].action).toBe(3); // DELETEALL, then one arrow per contact
    expect(markers.length - 1).toBe(session.current().frame.contactCount);
    expect(markers.length).toBeGreaterThan(4); // four wheels on the ground
  });

  it('rosapi lists topics, types, full definitions, services and the node', async () => {
    const topics = await new Promise<{ topics: string[]; types: string[] }>((done, fail) => ros.getTopics(done, fail));
    expect(topics.topics).toEqual(expect.arrayContaining(['/odom', '/tf', '/joint_states', '/clock', '/terrawheel/contacts', '/cmd_vel']));
    expect(topics.types[topics.topics.indexOf('/odom')]).toBe('nav_msgs/Odometry');
    const raw = await new Promise<{ topics: string[]; types: string[]; typedefs_full_text: string[] }>((done, fail) => ros.getTopicsAndRawTypes(done, fail));
    expect(raw.types).toContain('rosgraph_msgs/Log'); // Foxglove's ROS 1 detection
    for (const text of raw.typedefs_full_text) expect(() => parse(text)).not.toThrow();
    const services = await new Promise<string[]>((done, fail) => ros.getServices(done, fail));
    expect(services).toEqual(expect.arrayContaining(['/terrawheel/reset', '/terrawheel/pause', '/terrawheel/step', '/rosapi/topics_and_raw_types']));
    expect(await new Promise((done, fail) => ros.getTopicType('/cmd_vel', done, fail))).toBe('geometry_msgs/Twist');
    expect(await new Promise((done, fail) => ros.getServiceType('/terrawheel/step', done, fail))).toBe('terrawheel_msgs/Step');
    expect(await new Promise((done, fail) => ros.getNodes(done, fail))).toEqual(['/terrawheel']);
    const defs = await new Promise<RosTypeDef[]>((done, fail) => ros.getMessageDetails('geometry_msgs/Twist', done, fail));
    expect(ros.decodeTypeDefs(defs)).toEqual({ linear: { x: 'float64', y: 'float64', z: 'float64' }, angular: { x: 'float64', y: 'float64', z: 'float64' } });
    const time = await call<{ time: { secs: number; nsecs: number } }>(ros, '/rosapi/get_time', 'rosapi/GetTime', {});
    expect(time.time.secs + time.time.nsecs * 1e-9).toBeCloseTo(session.time, 9);
  });

  it('bad messages get status errors, bad calls failed responses, and the world is untouched', async () => {
    const hash = session.stateHash();
    const raw = await rawClient(server.url);
    const statusOf = (id: string) => raw.waitFor((m) => m.op === 'status' && m.id === id);
    const errorWith = (re: RegExp) => raw.waitFor((m) => m.op === 'status' && m.level === 'error' && re.test(String(m.msg)));
    raw.ws.send('{this is not json');
    await errorWith(/not JSON/);
    raw.ws.send(JSON.stringify({ op: 'teleport', id: 'a' }));
    expect((await statusOf('a')).msg).toMatch(/unknown op/);
    raw.ws.send(JSON.stringify({ op: 'publish', id: 'b', topic: '/cmd_vel', msg: { linear: { x: 'fast' } } }));
    expect((await statusOf('b')).msg).toMatch(/linear\.x: expected a number/);
    raw.ws.send(JSON.stringify({ op: 'publish', id: 'c', topic: '/odom', msg: {} }));
    expect((await statusOf('c')).msg).toMatch(/published by the simulation/);
    raw.ws.send(JSON.stringify({ op: 'subscribe', id: 'd', topic: '/scan' }));
    expect((await statusOf('d')).msg).toMatch(/no topic \/scan/);
    raw.ws.send(JSON.stringify({ op: 'publish', id: 'e', topic: '/terrawheel/joint_commands', msg: { name: ['rover/axle_fl'], velocity: [1] } }));
    expect((await statusOf('e')).msg).toMatch(/controller/);
    raw.ws.send(JSON.stringify({ op: 'publish', id: 'f', topic: '/terrawheel/joint_commands', msg: { name: ['nope'], velocity: [1] } }));
    expect((await statusOf('f')).msg).toMatch(/no joint named "nope"/);
    raw.ws.send(JSON.stringify({ op: 'call_service', id: 'g', service: '/terrawheel/step', args: { n: 0 } }));
    expect(await raw.waitFor((m) => m.op === 'service_response' && m.id === 'g')).toMatchObject({ result: false, values: expect.stringMatching(/n must be from 1/) });
    raw.ws.send(JSON.stringify({ op: 'call_service', id: 'h', service: '/terrawheel/step', args: { n: -3 } }));
    expect(await raw.waitFor((m) => m.op === 'service_response' && m.id === 'h')).toMatchObject({ result: false, values: expect.stringMatching(/n: expected an integer/) });
    raw.ws.send(JSON.stringify({ op: 'publish', id: 'i', topic: '/cmd_vel', msg: { linear: { x: 1 }, pad: 'x'.repeat(70_000) } }));
    await errorWith(/over the limit of 65536 bytes/);
    raw.ws.send(Buffer.from([0xa1, 0x62, 0x6f, 0x70]), { binary: true });
    await errorWith(/binary messages/);
    // roslib's failure path for an unknown service
    await expect(call(ros, '/terrawheel/fly', 'std_srvs/Trigger', {})).rejects.toThrow(/no service \/terrawheel\/fly/);
    raw.ws.close();
    expect(session.stateHash()).toBe(hash);
    expect(server.clientCount()).toBeGreaterThanOrEqual(1);
  });

  it('stepping in lockstep from the client gives the state hash of the same inputs run headless', async () => {
    await call(ros, '/terrawheel/reset', 'std_srvs/Trigger', {});
    const c = session.info().controller;
    if (c === null || c.type === 'ackermann') throw new Error('curbs: expected a skid-steer rover');
    const cmd = new Topic({ ros, name: '/cmd_vel', messageType: 'geometry_msgs/Twist' });
    // speeds that are exact binary fractions of the limits, so throttle and steer are exactly 0.5 / −0.25 and 0.25 / 0.5
    cmd.publish({ linear: { x: 0.5 * c.maxSpeed, y: 0, z: 0 }, angular: { x: 0, y: 0, z: -0.25 * c.maxYawRate } });
    await step(150);
    cmd.publish({ linear: { x: 0.25 * c.maxSpeed, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0.5 * c.maxYawRate } });
    const r = await step(100);
    expect(r.step).toBe(250);

    const headless = openScenario(SCENARIO);
    headless.setDrive({ throttle: 0.5, steer: -0.25 });
    headless.step(150);
    headless.setDrive({ throttle: 0.25, steer: 0.5 });
    headless.step(100);
    expect(r.state_hash).toBe(headless.stateHash());
  });

  it('many clients at once each get every lockstep step', async () => {
    const others = await Promise.all(Array.from({ length: 5 }, () => connect(server.url)));
    try {
      const target = session.stepCount + 7;
      const ticks = others.map((o) => next<{ clock: { secs: number; nsecs: number } }>(o, '/clock', 'rosgraph_msgs/Clock', (m) => Math.round((m.clock.secs + m.clock.nsecs * 1e-9) / 0.005) === target));
      // wait until every client is subscribed (each gets the current clock at once), then step
      await Promise.all(others.map((o) => next(o, '/clock', 'rosgraph_msgs/Clock')));
      await step(7);
      await Promise.all(ticks);
      expect(server.clientCount()).toBeGreaterThanOrEqual(6);
    } finally {
      for (const o of others) o.close();
    }
  });

  it('a stuck client does not stall the simulation: its messages are dropped, counted and reported', async () => {
    const stuck = await rawClient(server.url);
    stuck.ws.send(JSON.stringify({ op: 'set_level', level: 'warning' }));
    stuck.ws.send(JSON.stringify({ op: 'subscribe', topic: '/terrawheel/contacts', queue_length: 2 }));
    stuck.ws.send(JSON.stringify({ op: 'subscribe', topic: '/tf', queue_length: 2 }));
    await stuck.waitFor((m) => m.op === 'publish' && m.topic === '/tf');
    const id = Math.max(...server.stats().map((s) => s.id));
    // stop reading: the kernel's buffers fill, then the server's socket buffer, then the queue drops
    (stuck.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const before = session.stepCount;
    let dropped = 0;
    for (let k = 0; k < 20_000 && dropped === 0; k++) {
      await step(1);
      dropped = server.stats().find((s) => s.id === id)?.dropped ?? 0;
    }
    expect(dropped).toBeGreaterThan(0);
    const st = server.stats().find((s) => s.id === id)!;
    expect(st.pending).toBeLessThanOrEqual(2 + 2 + 1); // two topics × queue_length 2, plus one drop report
    expect(session.stepCount).toBeGreaterThan(before);
    (stuck.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    // once it reads again it gets the drop report
    await step(1);
    const report = await stuck.waitFor((m) => m.op === 'status' && m.level === 'warning' && /dropped/.test(String(m.msg)));
    expect(report.msg).toMatch(/\/terrawheel\/contacts|\/tf/);
    stuck.ws.close();
  });

  it('the roslib waypoint example reaches its goal in lockstep', async () => {
    await call(ros, '/terrawheel/reset', 'std_srvs/Trigger', {});
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const p = spawn(process.execPath, [resolve(ROOT, 'examples/live/roslib-waypoint.mjs'), '--url', server.url, '--goal', '-11,1.5'], { cwd: ROOT });
      let stdout = '', stderr = '';
      p.stdout.on('data', (d) => (stdout += String(d)));
      p.stderr.on('data', (d) => (stderr += String(d)));
      p.on('close', (code) => done({ code, stdout, stderr }));
    });
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/^reached/);
    expect(out.code).toBe(0);
    const base = session.info().baseBody;
    const p = session.current().frame.poses;
    expect(Math.hypot(p[7 * base] + 11, p[7 * base + 1] - 1.5)).toBeLessThan(0.35);
  });
});

describe('rosbridge server: access', () => {
  let session: LiveSession;
  beforeAll(async () => {
    session = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
  }, 120_000);
  afterAll(async () => {
    await session?.close();
  });

  it('refuses a non-loopback host without a token', async () => {
    await expect(startRosbridgeServer(session, { port: 0, host: '0.0.0.0' })).rejects.toThrow(/not loopback.*token/);
  });

  it('with a token: a client must authenticate first, a wrong token is disconnected', async () => {
    const server = await startRosbridgeServer(session, { port: 0, token: 's3cret' });
    try {
      const noAuth = await rawClient(server.url);
      const closed = new Promise<number>((done) => noAuth.ws.once('close', (code) => done(code)));
      noAuth.ws.send(JSON.stringify({ op: 'subscribe', topic: '/odom' }));
      expect((await noAuth.waitFor((m) => m.op === 'status')).msg).toMatch(/authentication required/);
      expect(await closed).toBe(1008);

      const wrong = await rawClient(server.url);
      const wrongClosed = new Promise<number>((done) => wrong.ws.once('close', (code) => done(code)));
      wrong.ws.send(JSON.stringify({ op: 'auth', mac: 'guess' }));
      expect(await wrongClosed).toBe(1008);

      const ros = await connect(server.url);
      ros.authenticate('s3cret', '', '', '', 0, '', 0);
      const odom = await next<Odometry>(ros, '/odom', 'nav_msgs/Odometry');
      expect(odom.child_frame_id).toBe('rover/chassis');
      ros.close();

      // the token in the URL, as the Foxglove server takes it
      const byUrl = await connect(`${server.url}/?token=s3cret`);
      expect((await next<Odometry>(byUrl, '/odom', 'nav_msgs/Odometry')).child_frame_id).toBe('rover/chassis');
      byUrl.close();
      const badUrl = new WebSocket(`${server.url}/?token=nope`);
      expect(await new Promise<number>((done) => badUrl.once('close', (code) => done(code)))).toBe(1008);
      const bearer = new WebSocket(server.url, { headers: { authorization: 'Bearer s3cret' } });
      await new Promise((done) => bearer.once('open', done));
      bearer.send(JSON.stringify({ op: 'call_service', id: 'b', service: '/rosapi/nodes' }));
      expect(await new Promise((done) => bearer.once('message', (d) => done(JSON.parse(String(d)))))).toMatchObject({ op: 'service_response', id: 'b', result: true });
      bearer.close();
    } finally {
      await server.close();
    }
  });
});

describe('rosbridge server: free-running', () => {
  it('pause stops the clock, resume starts it; cmd_vel drives the running world', async () => {
    const session = await LiveSession.open(SCENARIO, { recordThread: false });
    const server = await startRosbridgeServer(session, { port: 0 });
    const ros = await connect(server.url);
    try {
      const first = await next<Odometry>(ros, '/odom', 'nav_msgs/Odometry');
      new Topic({ ros, name: '/cmd_vel', messageType: 'geometry_msgs/Twist' }).publish({ linear: { x: 0.6 } });
      await next<Odometry>(ros, '/odom', 'nav_msgs/Odometry', (m) => m.pose.pose.position.x > first.pose.pose.position.x + 0.05);
      const paused = await call<{ success: boolean }>(ros, '/terrawheel/pause', 'std_srvs/Trigger', {});
      expect(paused.success).toBe(true);
      expect(session.isRunning).toBe(false);
      const resumed = await call<{ success: boolean }>(ros, '/terrawheel/resume', 'std_srvs/Trigger', {});
      expect(resumed.success).toBe(true);
      expect(session.isRunning).toBe(true);
    } finally {
      ros.close();
      await server.close();
      await session.close();
    }
  });
});
