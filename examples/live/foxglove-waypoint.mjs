#!/usr/bin/env node
/**
 * Drive a robot to a waypoint from its odometry, in lockstep, over the Foxglove WebSocket
 * protocol with @foxglove/ws-protocol's FoxgloveClient (docs/live.md).
 *
 *   terrawheel serve assets/scenarios/default.json --lockstep        # in one terminal
 *   node examples/live/foxglove-waypoint.mjs [url] [dx dy]           # in another
 *
 * url defaults to ws://127.0.0.1:8765; the waypoint is (dx, dy) metres from where the robot
 * starts (default 3, 2). Each control cycle: read /odom, publish a /cmd_vel twist (turn toward
 * the waypoint, slow down while facing away), then call /terrawheel/step for STEPS_PER_CYCLE
 * steps; the server answers after the steps ran, and the state of the new step has arrived by
 * then. Ends (exit 0) within TOLERANCE of the waypoint, or exit 1 after MAX_CYCLES.
 */
import WebSocket from 'ws';
import wsProtocol from '@foxglove/ws-protocol'; // CommonJS: its exports are on the default export

const { FoxgloveClient } = wsProtocol;

const url = process.argv[2] ?? 'ws://127.0.0.1:8765';
const dx = Number(process.argv[3] ?? 3);
const dy = Number(process.argv[4] ?? 2);
/** Steps the world advances per control cycle (10 × 5 ms = a 20 Hz controller on the default scenario). */
const STEPS_PER_CYCLE = 10;
/** [m] Close enough. */
const TOLERANCE = 0.3;
const MAX_CYCLES = 2000;
/** [m/s], [rad/s] and the heading gain [1/s]. */
const CRUISE = 0.8;
const MAX_TURN = 1.5;
const HEADING_GAIN = 2;

const client = new FoxgloveClient({ ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) });
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Resolves with the channels and services once both are advertised. */
const advertised = new Promise((resolve) => {
  const channels = new Map();
  const services = new Map();
  const check = () => channels.size > 0 && services.size > 0 && resolve({ channels, services });
  client.on('advertise', (list) => {
    for (const c of list) channels.set(c.topic, c);
    check();
  });
  client.on('advertiseServices', (list) => {
    for (const s of list) services.set(s.name, s);
    check();
  });
});
client.on('error', (e) => {
  console.error(`connection error: ${e.message ?? e}`);
  process.exit(2);
});
client.on('status', (s) => console.error(`server: ${s.message}`));

let odom = null;
const odomSubscription = { id: -1 };
client.on('message', ({ subscriptionId, data }) => {
  if (subscriptionId === odomSubscription.id) odom = JSON.parse(decoder.decode(data));
});

/** Calls a JSON service; resolves with its response object, rejects with the server's message. */
let nextCall = 1;
const pending = new Map();
client.on('serviceCallResponse', (r) => pending.get(r.callId)?.resolve(JSON.parse(decoder.decode(r.data))));
client.on('serviceCallFailure', (r) => pending.get(r.callId)?.reject(new Error(r.message)));
function call(services, name, request = {}) {
  const service = services.get(name);
  if (!service) throw new Error(`the server has no service ${name}`);
  const callId = nextCall++;
  return new Promise((resolve, reject) => {
    pending.set(callId, { resolve, reject });
    client.sendServiceCallRequest({ serviceId: service.id, callId, encoding: 'json', data: new DataView(encoder.encode(JSON.stringify(request)).buffer) });
  }).finally(() => pending.delete(callId));
}

const yawOf = (q) => Math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z));
const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));

const { channels, services } = await advertised;
const odomChannel = channels.get('/odom');
if (!odomChannel) throw new Error('the server has no /odom channel');
odomSubscription.id = client.subscribe(odomChannel.id);
const cmdVel = client.advertise({ topic: '/cmd_vel', encoding: 'json', schemaName: 'geometry_msgs/Twist' });
const drive = (v, w) => client.sendMessage(cmdVel, encoder.encode(JSON.stringify({ linear: { x: v, y: 0, z: 0 }, angular: { x: 0, y: 0, z: w } })));

// the state of step 0 after a reset (a step/reset call always sends the state)
await call(services, '/terrawheel/reset');
await call(services, '/terrawheel/step', { steps: 0 });
const start = odom.pose.pose.position;
const goal = { x: start.x + dx, y: start.y + dy };
console.log(`start (${start.x.toFixed(2)}, ${start.y.toFixed(2)}) -> waypoint (${goal.x.toFixed(2)}, ${goal.y.toFixed(2)})`);

let reached = false;
let step = 0;
for (let cycle = 0; cycle < MAX_CYCLES; cycle++) {
  const p = odom.pose.pose.position;
  const distance = Math.hypot(goal.x - p.x, goal.y - p.y);
  if (distance < TOLERANCE) {
    reached = true;
    break;
  }
  const error = wrap(Math.atan2(goal.y - p.y, goal.x - p.x) - yawOf(odom.pose.pose.orientation));
  const turn = Math.max(-MAX_TURN, Math.min(MAX_TURN, HEADING_GAIN * error));
  const speed = CRUISE * Math.max(0, Math.cos(error)) * Math.min(1, distance);
  drive(speed, turn);
  step = (await call(services, '/terrawheel/step', { steps: STEPS_PER_CYCLE })).step;
}
drive(0, 0);
await call(services, '/terrawheel/step', { steps: 1 });
const p = odom.pose.pose.position;
console.log(`${reached ? 'reached' : 'did not reach'} the waypoint at step ${step}: (${p.x.toFixed(2)}, ${p.y.toFixed(2)}), ${Math.hypot(goal.x - p.x, goal.y - p.y).toFixed(2)} m from it`);
client.close();
process.exit(reached ? 0 : 1);
