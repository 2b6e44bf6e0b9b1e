/**
 * Fuzzing the rosbridge server the way a broken or hostile client would talk to it: seeded
 * random text, random JSON, and rosbridge ops with random fields (known and unknown topics and
 * services, messages of any JSON shape, prototype keys, huge numbers), sent over one WebSocket to
 * a lockstep session of the curbs scenario.
 *
 * Properties: the server never crashes and keeps answering (a rosapi call sent after each batch
 * is answered, so every message before it was handled); the world never holds a non-finite
 * number and still steps; the drive command stays in −1..1. `/terrawheel/step` and
 * `/terrawheel/reset` are left out of the random services (a valid random n could ask for a long
 * run); their argument checks have their own tests.
 */
import fc from 'fast-check';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveSession } from '../../sim/live/session';
import { startRosbridgeServer, type RosbridgeServer } from '../../sim/live/rosbridge/server';
import { FUZZ_SEED, FUZZ_TIMEOUT_MS, runs } from './fuzz-budget';

const SCENARIO = resolve(__dirname, '../../assets/scenarios/curbs.json');
/** Messages in CI. */
const CI_MESSAGES = 1500;
const BATCH = 50;

const OPS = ['advertise', 'unadvertise', 'publish', 'subscribe', 'unsubscribe', 'call_service', 'service_response', 'set_level', 'auth', 'status', 'fragment', 'advertise_service', 'nope'];
const TOPICS = ['/cmd_vel', '/terrawheel/joint_commands', '/odom', '/tf', '/clock', '/joint_states', '/terrawheel/contacts', '/rosout', 'cmd_vel', '/x y', '__proto__'];
const SERVICES = ['/rosapi/topics', '/rosapi/topics_and_raw_types', '/rosapi/topic_type', '/rosapi/message_details', '/rosapi/service_request_details', '/rosapi/node_details', '/rosapi/get_time', '/terrawheel/pause', '/terrawheel/resume', '/terrawheel/fly', 'constructor'];
const TYPES = ['geometry_msgs/Twist', 'sensor_msgs/JointState', 'nav_msgs/Odometry', 'std_srvs/Trigger', 'rosapi/TypeDef', 'x/y', '__proto__', 'not a type'];

/** A twist- or joint-command-shaped message with hostile leaves, or any JSON. */
const leaf = fc.oneof({ weight: 30, arbitrary: fc.double({ min: -5, max: 5, noNaN: true }) }, fc.double(), fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.constant(1e308), fc.constant(-0));
const msgArb = fc.oneof(
  fc.jsonValue(),
  fc.record({ linear: fc.record({ x: leaf, y: leaf, z: leaf }, { requiredKeys: [] }), angular: fc.record({ x: leaf, y: leaf, z: leaf }, { requiredKeys: [] }) }, { requiredKeys: [] }),
  fc.record({ name: fc.array(fc.oneof(fc.string(), fc.constantFrom('rover/axle_fl', 'nope'))), velocity: fc.array(leaf), header: fc.jsonValue() }, { requiredKeys: [] }),
  fc.constant(JSON.parse('{"__proto__": {"linear": {"x": 1}}}') as unknown),
);
const opArb = fc.record(
  {
    op: fc.oneof(fc.constantFrom(...OPS), fc.string()),
    id: fc.oneof(fc.string(), fc.integer(), fc.jsonValue()),
    topic: fc.oneof(fc.constantFrom(...TOPICS), fc.string()),
    type: fc.oneof(fc.constantFrom(...TYPES), fc.jsonValue()),
    msg: msgArb,
    service: fc.oneof(fc.constantFrom(...SERVICES), fc.string()),
    args: fc.oneof(fc.jsonValue(), fc.record({ type: fc.constantFrom(...TYPES), topic: fc.constantFrom(...TOPICS), node: fc.string() }, { requiredKeys: [] })),
    throttle_rate: fc.oneof(fc.integer(), fc.double(), fc.string()),
    queue_length: fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.jsonValue()),
    compression: fc.oneof(fc.constantFrom('none', 'cbor', 'cbor-raw', 'png'), fc.jsonValue()),
    level: fc.oneof(fc.constantFrom('info', 'warning', 'error', 'none'), fc.string()),
    result: fc.jsonValue(),
    mac: fc.jsonValue(),
  },
  { requiredKeys: ['op'] },
);
/** Ops with the right shape and hostile contents (most messages reach the handlers' checks). */
const shapedArb = fc.oneof(
  fc.record({ op: fc.constant('publish'), topic: fc.constantFrom('/cmd_vel', '/terrawheel/joint_commands'), msg: msgArb }),
  fc.record({ op: fc.constant('subscribe'), topic: fc.constantFrom(...TOPICS), queue_length: fc.integer({ min: 0, max: 10 }), throttle_rate: fc.integer({ min: 0, max: 100 }), compression: fc.constantFrom('none', 'cbor', 'cbor-raw', 'png') }, { requiredKeys: ['op', 'topic'] }),
  fc.record({ op: fc.constant('unsubscribe'), topic: fc.constantFrom(...TOPICS), id: fc.string() }, { requiredKeys: ['op', 'topic'] }),
  fc.record({ op: fc.constant('call_service'), service: fc.constantFrom(...SERVICES), args: fc.oneof(fc.record({ type: fc.constantFrom(...TYPES), topic: fc.constantFrom(...TOPICS), node: fc.string(), service: fc.constantFrom(...SERVICES) }, { requiredKeys: [] }), fc.array(fc.jsonValue())) }),
);
const textArb = fc.oneof({ weight: 6, arbitrary: shapedArb.map((o) => JSON.stringify(o)) }, { weight: 4, arbitrary: opArb.map((o) => JSON.stringify(o)) }, { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: fc.string() });

describe('rosbridge server under random client messages', () => {
  let session: LiveSession;
  let server: RosbridgeServer;
  beforeAll(async () => {
    session = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
    server = await startRosbridgeServer(session, { port: 0 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await session?.close();
  });

  it('keeps answering, and the world stays finite and steppable', async () => {
    const messages = fc.sample(textArb, { numRuns: runs(CI_MESSAGES), seed: FUZZ_SEED });
    const ws = new WebSocket(server.url);
    const answered = new Map<string, () => void>();
    let statuses = 0;
    const internal: string[] = [];
    ws.on('message', (d, isBinary) => {
      if (isBinary) return; // cbor / cbor-raw subscriptions the fuzz made
      const m = JSON.parse(String(d)) as { op: string; id?: string; msg?: string };
      if (m.op === 'status') statuses++;
      // an exception escaping an op handler is reported as an internal error: a bug
      if (m.op === 'status' && /internal error/.test(String(m.msg))) internal.push(String(m.msg));
      if (m.op === 'service_response' && typeof m.id === 'string') answered.get(m.id)?.();
    });
    await new Promise((done, fail) => {
      ws.once('open', done);
      ws.once('error', fail);
    });
    ws.send(JSON.stringify({ op: 'set_level', level: 'info' }));
    for (let i = 0; i < messages.length; i += BATCH) {
      for (const text of messages.slice(i, i + BATCH)) ws.send(text);
      // the fuzz may have set the level to none or closed nothing: a call's response always comes
      const id = `probe${i}`;
      await new Promise<void>((done) => {
        answered.set(id, done);
        ws.send(JSON.stringify({ op: 'call_service', id, service: '/rosapi/get_time' }));
      });
    }
    ws.close();
    expect(statuses).toBeGreaterThan(0);
    expect(internal).toEqual([]);
    const d = session.world.engine.drive;
    expect(Math.abs(d.throttle)).toBeLessThanOrEqual(1);
    expect(Math.abs(d.steer)).toBeLessThanOrEqual(1);
    await session.step(20);
    const s = session.current();
    expect(s.fault).toBeNull();
    for (const x of s.frame.poses) expect(Number.isFinite(x)).toBe(true);
  }, FUZZ_TIMEOUT_MS);
});
