/**
 * A Foxglove WebSocket client process for live.bench.ts (its own process, so its CPU is not the
 * simulation's thread):
 *   node live-client.mjs rtt <url> <n> [odom]   calls /terrawheel/step {steps: 1} n times, one
 *                                         at a time (after 20 warm-up calls), with `odom`
 *                                         subscribed to /odom (the state of each step arrives
 *                                         before the answer); prints { "rttMs": [...] }
 *   node live-client.mjs stream <url>     connects; on stdin "sub" subscribes to every channel and
 *                                         prints "streaming" at its first message; on "unsub"
 *                                         unsubscribes and prints "idle"; on "count" prints
 *                                         { "messages": n, "bytes": b }.
 */
import WebSocket from 'ws';
import wsProtocol from '@foxglove/ws-protocol';
import { createInterface } from 'node:readline';

const { FoxgloveClient } = wsProtocol;
const [mode, url, nArg, withOdom] = process.argv.slice(2);
const client = new FoxgloveClient({ ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) });
const channels = [];
const services = new Map();
const ready = new Promise((resolve) => {
  const check = () => channels.length > 0 && services.size > 0 && resolve();
  client.on('advertise', (list) => {
    channels.push(...list);
    check();
  });
  client.on('advertiseServices', (list) => {
    for (const s of list) services.set(s.name, s);
    check();
  });
});
client.on('error', (e) => {
  console.error(String(e?.message ?? e));
  process.exit(2);
});
await ready;

if (mode === 'rtt') {
  const step = services.get('/terrawheel/step');
  const body = new DataView(new TextEncoder().encode(JSON.stringify({ steps: 1 })).buffer);
  let resolveCall = null;
  client.on('serviceCallResponse', () => resolveCall?.());
  client.on('serviceCallFailure', (f) => {
    console.error(f.message);
    process.exit(1);
  });
  const call = (callId) =>
    new Promise((resolve) => {
      resolveCall = resolve;
      client.sendServiceCallRequest({ serviceId: step.id, callId, encoding: 'json', data: body });
    });
  const n = Number(nArg);
  let odomMessages = 0;
  if (withOdom === 'odom') {
    client.subscribe(channels.find((c) => c.topic === '/odom').id);
    client.on('message', () => odomMessages++);
  }
  const rttMs = [];
  for (let k = 0; k < n + 20; k++) {
    const t0 = performance.now();
    await call(k + 1);
    if (k >= 20) rttMs.push(performance.now() - t0);
  }
  console.log(JSON.stringify({ rttMs, odomMessages }));
  client.close();
  process.exit(0);
} else {
  let subs = [];
  let messages = 0;
  let bytes = 0;
  let waitingFirst = false;
  client.on('message', ({ data }) => {
    messages++;
    bytes += data.byteLength;
    if (waitingFirst) {
      waitingFirst = false;
      console.log('streaming');
    }
  });
  console.log('connected');
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'sub') {
      waitingFirst = true;
      subs = channels.map((c) => client.subscribe(c.id));
    } else if (line === 'unsub') {
      for (const s of subs) client.unsubscribe(s);
      subs = [];
      console.log('idle');
    } else if (line === 'count') {
      console.log(JSON.stringify({ messages, bytes }));
    } else if (line === 'quit') {
      break;
    }
  }
  client.close();
  process.exit(0);
}
