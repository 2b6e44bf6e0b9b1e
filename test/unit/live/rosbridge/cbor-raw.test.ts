/**
 * rosbridge's binary encodings, which Foxglove's and Lichtblick's Rosbridge connection use
 * (they subscribe with `cbor-raw`: CBOR frames carrying ROS 1 bytes). The CBOR is decoded by
 * cbor2 (the decoder roslib uses); the ROS 1 bytes by a reader written here, independently of
 * the server's serialiser, from the definitions as Foxglove's parser (@foxglove/rosmsg) reads
 * rosapi's full text. End to end: the real roslib client subscribed with cbor-raw and with JSON
 * to the same topic gets the same message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { decode } from 'cbor2';
import { parse } from '@foxglove/rosmsg';
import { LiveSession } from '../../../../sim/live/session';
import { startRosbridgeServer, type RosbridgeServer } from '../../../../sim/live/rosbridge/server';
import { encodeCbor } from '../../../../sim/live/rosbridge/cbor';
import { serializeRos1 } from '../../../../sim/live/rosbridge/ros1-serialize';
import { fullDefinition } from '../../../../sim/live/rosbridge/msg-parse';
import { contactMarkers, jointStates, odometry, tfMessage, clock, logMessage } from '../../../../sim/live/rosbridge/messages';
import { loadRoslib, type RosClient } from './roslib-client';

const SCENARIO = resolve(__dirname, '../../../../assets/scenarios/curbs.json');

type Def = ReturnType<typeof parse>[number];

/** Reads ROS 1 bytes of `type` by Foxglove's parse of its full definition text. */
function readRos1(type: string, bytes: Uint8Array): unknown {
  const defs = parse(fullDefinition(type));
  const byName = new Map<string, Def>(defs.slice(1).map((d) => [d.name as string, d]));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  const text = new TextDecoder();
  const prim = (t: string): unknown => {
    switch (t) {
      case 'bool': return view.getUint8(o++) !== 0;
      case 'int8': return view.getInt8(o++);
      case 'uint8': return view.getUint8(o++);
      case 'int16': { const v = view.getInt16(o, true); o += 2; return v; }
      case 'uint16': { const v = view.getUint16(o, true); o += 2; return v; }
      case 'int32': { const v = view.getInt32(o, true); o += 4; return v; }
      case 'uint32': { const v = view.getUint32(o, true); o += 4; return v; }
      case 'int64': { const v = Number(view.getBigInt64(o, true)); o += 8; return v; }
      case 'uint64': { const v = Number(view.getBigUint64(o, true)); o += 8; return v; }
      case 'float32': { const v = view.getFloat32(o, true); o += 4; return v; }
      case 'float64': { const v = view.getFloat64(o, true); o += 8; return v; }
      case 'time': { const secs = view.getUint32(o, true), nsecs = view.getUint32(o + 4, true); o += 8; return { secs, nsecs }; }
      case 'duration': { const secs = view.getInt32(o, true), nsecs = view.getInt32(o + 4, true); o += 8; return { secs, nsecs }; }
      case 'string': { const n = view.getUint32(o, true); const s = text.decode(bytes.subarray(o + 4, o + 4 + n)); o += 4 + n; return s; }
    }
    throw new Error(`no primitive ${t}`);
  };
  const one = (t: string, complex: boolean): unknown => (complex ? msg(byName.get(t)!) : prim(t));
  const msg = (d: Def): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of d.definitions) {
      if (f.isConstant === true) continue;
      if (f.isArray === true) {
        let n = f.arrayLength;
        if (n === undefined) {
          n = view.getUint32(o, true);
          o += 4;
        }
        out[f.name] = Array.from({ length: n }, () => one(f.type, f.isComplex === true));
      } else out[f.name] = one(f.type, f.isComplex === true);
    }
    return out;
  };
  const value = msg(defs[0]);
  expect(o, `${type}: bytes left unread`).toBe(bytes.length);
  return value;
}

/** float32 fields (colours) read back rounded: compare them as float32. */
function roundColors(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v), (k, x: unknown) => (['r', 'g', 'b', 'a'].includes(k) && typeof x === 'number' ? Math.fround(x) : x));
}

describe('CBOR and ROS 1 bytes', () => {
  it('cbor2 decodes what encodeCbor writes', () => {
    const values = [0, 23, 24, 255, 256, 65535, 65536, 2 ** 32, 2 ** 40, -1, -24, -25, -1000, 0.5, -1e300, Math.PI, 'x', '', 'ü€𝄞', 'y'.repeat(300), true, false, null, [1, [2, 'z']], { a: 1, b: { c: [true] } }, new Uint8Array([1, 2, 255])];
    for (const v of values) expect(decode(encodeCbor(v)), JSON.stringify(v instanceof Uint8Array ? [...v] : v)).toEqual(v);
  });

  it('every published message reads back from its ROS 1 bytes', async () => {
    const s = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
    try {
      await s.step(5);
      const info = s.info(), st = s.current();
      const msgs: [string, unknown][] = [
        ['nav_msgs/Odometry', odometry(info, st, 3, info.baseBody)],
        ['tf2_msgs/TFMessage', tfMessage(info, st, 4)],
        ['sensor_msgs/JointState', jointStates(info, st, 5)],
        ['rosgraph_msgs/Clock', clock(st)],
        ['visualization_msgs/MarkerArray', contactMarkers(st, 6, info.dt)],
        ['rosgraph_msgs/Log', logMessage(7, st.time, 8, 'world paused: ü', ['/odom'])],
      ];
      for (const [type, m] of msgs) expect(readRos1(type, serializeRos1(type, m)), type).toEqual(roundColors(m));
    } finally {
      await s.close();
    }
  });
});

describe('cbor-raw with roslib', () => {
  let session: LiveSession;
  let server: RosbridgeServer;
  let ros: RosClient;
  beforeAll(async () => {
    session = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
    server = await startRosbridgeServer(session, { port: 0 });
    const { Ros } = await loadRoslib();
    ros = new Ros({});
    const open = new Promise((done) => ros.once('connection', done));
    await ros.connect(server.url);
    await open;
  }, 120_000);
  afterAll(async () => {
    ros?.close();
    await server?.close();
    await session?.close();
  });

  it('a cbor-raw subscriber gets the ROS 1 bytes of the step\'s /odom; the same client\'s JSON subscription is unaffected', async () => {
    const { Topic, Service } = await loadRoslib();
    const target = 40;
    const atTarget = (secs: number, nsecs: number) => Math.round((secs + nsecs * 1e-9) / info.dt) === target;
    const info = session.info();
    const raw = new Promise<{ secs: number; nsecs: number; bytes: Uint8Array }>((done) => {
      const t = new Topic<{ secs: number; nsecs: number; bytes: Uint8Array }>({ ros, name: '/odom', messageType: 'nav_msgs/Odometry', compression: 'cbor-raw' });
      t.subscribe((m) => atTarget(m.secs, m.nsecs) && done(m));
    });
    const json = new Promise<{ header: { stamp: { secs: number; nsecs: number } } }>((done) => {
      const t = new Topic<{ header: { stamp: { secs: number; nsecs: number } } }>({ ros, name: '/tf', messageType: 'tf2_msgs/TFMessage' });
      // a JSON subscription on another topic: the same client may mix encodings
      t.subscribe((m) => done(m));
    });
    await json;
    const step = new Service<{ n: number }, unknown>({ ros, name: '/terrawheel/step', serviceType: 'terrawheel_msgs/Step' });
    await new Promise((done, fail) => step.callService({ n: target }, done, fail));
    const m = await raw;
    expect(m.bytes).toBeInstanceOf(Uint8Array);
    const decoded = readRos1('nav_msgs/Odometry', m.bytes) as { child_frame_id: string; header: { stamp: { secs: number; nsecs: number } } };
    expect(decoded.child_frame_id).toBe('rover/chassis');
    expect(decoded.header.stamp).toEqual({ secs: m.secs, nsecs: m.nsecs });
    const st = session.current();
    expect(decoded).toEqual(odometry(info, st, (decoded as unknown as { header: { seq: number } }).header.seq, info.baseBody));
  });
});
