/**
 * rosbridge benchmark (issue #32): what a controller on loopback gets from the rosbridge server
 * over a lockstep LiveSession of the curbs scenario (skid-steer rover, 5 ms step).
 *
 * Reports:
 *  - one lockstep step's round trip (`/terrawheel/step` with n = 1 → service_response, /odom
 *    subscribed so each step also publishes): median and p99, measured twice, differently: with
 *    the real `roslib` client and with a bare JSON client (`ws` + JSON.stringify/parse, what a
 *    Python client with `websocket-client` does); beside it, the same step called in-process
 *    (`LiveSession.step(1)`), so the protocol's share is the difference;
 *  - the highest sustained closed-loop control rate of the bare JSON client: cycles per second of
 *    read /odom → publish /cmd_vel → step 1 → wait for the response, run back to back;
 *  - the command ingestion rate: /cmd_vel messages per second the server parses, checks and
 *    applies, sent as one burst and closed by a service call (responses keep the order).
 *
 * No Python here (PyPI is not reachable from these machines), so the bare JSON client stands in
 * for roslibpy; roslibpy adds its own Twisted/autobahn overhead. The machine is shared and loaded
 * (2 cores, other agents' work): the load average is printed, and the numbers are upper bounds
 * on latency only for that load.
 *
 * Run: `npm run bench -- rosbridge` (or `-- --quick rosbridge`).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { LiveSession } from '../../sim/live/session';
import { startRosbridgeServer } from '../../sim/live/rosbridge/server';
import { loadRoslib, type RosClient } from '../unit/live/rosbridge/roslib-client';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const SCENARIO = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../assets/scenarios/curbs.json');

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
const ms = (x: number) => `${x.toFixed(3)} ms`;

/** A bare JSON client: one socket, replies matched by id. */
class JsonClient {
  private nextId = 1;
  private readonly waiting = new Map<string, (m: Record<string, unknown>) => void>();
  odom: Record<string, unknown> | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as Record<string, unknown>;
      if (m.op === 'publish' && m.topic === '/odom') this.odom = m.msg as Record<string, unknown>;
      else if (m.op === 'service_response' && typeof m.id === 'string') {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        w?.(m);
      }
    });
  }
  static async open(url: string): Promise<JsonClient> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise((done, fail) => {
      ws.once('open', done);
      ws.once('error', fail);
    });
    return new JsonClient(ws);
  }
  send(m: object): void {
    this.ws.send(JSON.stringify(m));
  }
  call(service: string, args: object): Promise<Record<string, unknown>> {
    const id = `c${this.nextId++}`;
    return new Promise((done) => {
      this.waiting.set(id, done);
      this.send({ op: 'call_service', id, service, args });
    });
  }
}

export default async function run(ctx: BenchContext): Promise<void> {
  const n = ctx.quick ? 100 : 2000;
  const controlSeconds = ctx.quick ? 0.5 : 3;
  const burst = ctx.quick ? 2000 : 20000;
  console.log(`\nload average at start: ${loadavg().map((x) => x.toFixed(2)).join(', ')} (2 cores shared with other agents' work)`);

  const session = await LiveSession.open(SCENARIO, { lockstep: true, recordThread: false });
  const server = await startRosbridgeServer(session, { port: 0 });
  try {
    // in-process: the simulation's own cost of one step and its batch publication
    const inproc: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await session.step(1);
      inproc.push(performance.now() - t0);
    }

    // roslib
    const { Ros, Topic, Service } = await loadRoslib();
    const ros: RosClient = new Ros({});
    const open = new Promise((done) => ros.once('connection', done));
    await ros.connect(server.url);
    await open;
    new Topic({ ros, name: '/odom', messageType: 'nav_msgs/Odometry' }).subscribe(() => undefined);
    const stepSrv = new Service<{ n: number }, unknown>({ ros, name: '/terrawheel/step', serviceType: 'terrawheel_msgs/Step' });
    const roslibStep = () => new Promise((done, fail) => stepSrv.callService({ n: 1 }, done, fail));
    for (let i = 0; i < 20; i++) await roslibStep(); // warm-up
    const viaRoslib: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await roslibStep();
      viaRoslib.push(performance.now() - t0);
    }
    ros.close();

    // bare JSON client
    const json = await JsonClient.open(server.url);
    json.send({ op: 'subscribe', topic: '/odom' });
    for (let i = 0; i < 20; i++) await json.call('/terrawheel/step', { n: 1 });
    const viaJson: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await json.call('/terrawheel/step', { n: 1 });
      viaJson.push(performance.now() - t0);
    }

    // closed-loop control: odom → twist → step 1 → response, back to back
    let cycles = 0;
    const tEnd = performance.now() + controlSeconds * 1000;
    const c0 = performance.now();
    while (performance.now() < tEnd) {
      const pose = (json.odom as { pose: { pose: { position: { y: number } } } } | null)?.pose.pose.position;
      const w = pose ? -0.5 * pose.y : 0; // hold y = 0
      json.send({ op: 'publish', topic: '/cmd_vel', msg: { linear: { x: 0.3 }, angular: { z: w } } });
      await json.call('/terrawheel/step', { n: 1 });
      cycles++;
    }
    const controlHz = cycles / ((performance.now() - c0) / 1000);

    // ingestion: a burst of twists, closed by a call (answered after every twist before it)
    const b0 = performance.now();
    for (let i = 0; i < burst; i++) json.send({ op: 'publish', topic: '/cmd_vel', msg: { linear: { x: 0.3 }, angular: { z: (i % 10) * 0.01 } } });
    await json.call('/rosapi/get_time', {});
    const ingest = burst / ((performance.now() - b0) / 1000);
    json.ws.close();

    console.log(`\n${n} steps each; curbs scenario (rover, ${session.info().bodies.length} bodies), lockstep, /odom subscribed\n`);
    console.log('| one lockstep step (n = 1) | median | p99 |');
    console.log('|---|---|---|');
    console.log(`| in-process LiveSession.step(1) | ${ms(pct(inproc, 0.5))} | ${ms(pct(inproc, 0.99))} |`);
    console.log(`| roslib round trip (call_service → service_response) | ${ms(pct(viaRoslib, 0.5))} | ${ms(pct(viaRoslib, 0.99))} |`);
    console.log(`| bare JSON client round trip | ${ms(pct(viaJson, 0.5))} | ${ms(pct(viaJson, 0.99))} |`);
    console.log('\n| control | rate |');
    console.log('|---|---|');
    console.log(`| closed loop, bare JSON client (odom → twist → step 1 → response), ${controlSeconds} s | ${controlHz.toFixed(0)} cycles/s (${(controlHz * session.info().dt).toFixed(2)} × real time at dt ${session.info().dt} s) |`);
    console.log(`| /cmd_vel ingestion, burst of ${burst} | ${ingest.toFixed(0)} messages/s |`);
    console.log(`\nload average at end: ${loadavg().map((x) => x.toFixed(2)).join(', ')}`);
  } finally {
    await server.close();
    await session.close();
  }
}
