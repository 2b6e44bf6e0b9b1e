/**
 * A rosbridge v2 server (JSON over WebSocket) over a live session: ROS names and message types
 * for controllers in any language (roslib in JavaScript, roslibpy in Python, or 30 lines of
 * WebSocket and JSON). A thin adapter: the session (sim/live/session.ts) knows no protocol; this
 * file routes operations to it and turns its state after each step batch into ROS messages.
 *
 *   client ──ws──► parseClientMessage (protocol.ts) ──► op ──► session (twist, joints, step, …)
 *                        │ error                                  rosapi (rosapi.ts)
 *                        ▼                                        │
 *                  status message                       service_response
 *   session batch ──► messages.ts (once per topic) ──► SendQueue per client (send-queue.ts)
 *
 * Encodings (a subscription's `compression`): `none` (JSON text), `cbor` (the same message as a
 * CBOR binary frame), `cbor-raw` (a CBOR frame whose msg is `{ secs, nsecs, bytes }` with the ROS 1
 * serialisation, what Foxglove's and Lichtblick's Rosbridge connection ask for). Each message is
 * built and encoded once per batch, whatever the number of subscribers.
 *
 * Safety: loopback only unless a host is given, and then a token is required (`auth` op with
 * the token as `mac`, before anything else); every message checked (size, JSON, op, names,
 * fields against the message definition) and answered with a `status` error when wrong; a slow
 * or stuck client never stalls the simulation (its queue drops, counts and reports; a client
 * that leaves replies unread is disconnected).
 */
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { isPublished, isSubscribed, PUBLISHED_TOPICS, publishedNames, serviceType, SIM_SERVICES, SUBSCRIBED_TOPICS, subscribedNames, topicType } from './catalog';
import { clock, contactMarkers, jointStates, LogLevel, logMessage, odomBody, odometry, rosTime, tfMessage } from './messages';
import { conform, messageSpec } from './msg-parse';
import { MAX_CLIENT_MESSAGE_BYTES, parseClientMessage, type ClientOp, type StatusLevel } from './protocol';
import { callRosapi, isRosapiService, RosapiError } from './rosapi';
import { SendQueue, type Outgoing, type SendQueueStats } from './send-queue';
import { encodeCbor } from './cbor';
import { serializeRos1 } from './ros1-serialize';
import type { PortState, RosbridgeSessionPort } from './session-port';

/** rosbridge's own default port. */
export const DEFAULT_ROSBRIDGE_PORT = 9090;
/** [bytes] Frames over this are refused by the WebSocket layer itself (the connection closes, 1009); up to it, the protocol's own limit answers with a status error. */
const WS_MAX_PAYLOAD_BYTES = 16 * MAX_CLIENT_MESSAGE_BYTES;
/** [ms] Retry period of a flush that left messages waiting (the socket was over its high-water mark). */
const FLUSH_RETRY_MS = 10;
/** [ms] Shortest interval between two drop reports to one client. */
const DROP_REPORT_MS = 1000;
/** Most steps one /terrawheel/step call may ask for (a bigger request would hold the event loop for long). */
export const MAX_STEP_PER_CALL = 100_000;

export interface RosbridgeServerOptions {
  /** TCP port (0: any free port; the server's `port` says which). Default 9090. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1 (loopback). */
  host?: string;
  /**
   * Token clients must present: in the URL (`ws://host:9090/?token=…`) or an `Authorization:
   * Bearer …` header, as the Foxglove server takes it, or as the `mac` of an `auth` op before
   * anything else. Required when `host` is not loopback. null or undefined: none.
   */
  token?: string | null;
  /** Where the server's notices go (client connected, dropped messages); default: nowhere. */
  log?: (line: string) => void;
}

/** One connected client's counters. */
export interface RosbridgeClientStats extends SendQueueStats {
  id: number;
  address: string;
  subscriptions: string[];
}

export interface RosbridgeServer {
  readonly port: number;
  readonly host: string;
  /** ws://host:port */
  readonly url: string;
  clientCount(): number;
  stats(): RosbridgeClientStats[];
  /** Disconnects every client, stops listening, leaves the session alone. */
  close(): Promise<void>;
}

const LEVEL_RANK: Readonly<Record<StatusLevel, number>> = { info: 0, warning: 1, error: 2, none: 3 };

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Compares two strings in time independent of where they differ (the token check). */
function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i % Math.max(1, a.length)) || 0) ^ b.charCodeAt(i);
  return diff === 0;
}

/** How a subscription's messages are encoded (rosbridge's `compression`). */
type Encoding = 'none' | 'cbor' | 'cbor-raw';
const ENCODINGS: readonly string[] = ['none', 'cbor', 'cbor-raw'];

/** The `token` query parameter of a request URL, or null. */
function urlToken(url: string | undefined): string | null {
  if (url === undefined) return null;
  const q = url.indexOf('?');
  if (q < 0) return null;
  return new URLSearchParams(url.slice(q + 1)).get('token');
}

interface Subscription {
  throttleMs: number;
  queueLength: number;
  encoding: Encoding;
}

class Client {
  readonly queue: SendQueue;
  /** topic → subscription id ('' when the client gave none) → options */
  readonly subs = new Map<string, Map<string, Subscription>>();
  readonly lastSent = new Map<string, number>();
  readonly advertised = new Set<string>();
  level: StatusLevel = 'error';
  authed: boolean;
  closed = false;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  reportedDrops = 0;
  lastDropReport = 0;

  constructor(readonly id: number, readonly ws: WebSocket, readonly address: string, needsAuth: boolean) {
    this.queue = new SendQueue(ws);
    this.authed = !needsAuth;
  }

  /** Sends what the socket takes now; retries later if messages wait. */
  flush(): void {
    if (this.closed) return;
    if (this.queue.flush() || this.flushTimer !== null) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, FLUSH_RETRY_MS);
  }

  reply(obj: object): void {
    if (this.closed) return;
    if (!this.queue.pushReply(JSON.stringify(obj))) {
      this.close(1008, 'too many unread replies');
      return;
    }
    this.flush();
  }

  status(level: Exclude<StatusLevel, 'none'>, msg: string, id?: string): void {
    if (LEVEL_RANK[level] < LEVEL_RANK[this.level]) return;
    this.reply(id === undefined ? { op: 'status', level, msg } : { op: 'status', id, level, msg });
  }

  /** The strictest throttle and the longest queue over the client's subscriptions to `topic`. */
  delivery(topic: string): Subscription | null {
    const m = this.subs.get(topic);
    if (!m || m.size === 0) return null;
    let throttleMs = Infinity, queueLength = 0, encoding: Encoding = 'none';
    for (const s of m.values()) {
      throttleMs = Math.min(throttleMs, s.throttleMs);
      queueLength = Math.max(queueLength, s.queueLength);
      encoding = s.encoding; // the latest subscription's
    }
    return { throttleMs, queueLength, encoding };
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    try {
      this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
  }
}

type Builder = (s: PortState, seq: number) => object;

/**
 * Starts a rosbridge v2 server over `session` (see the header). Resolves once listening;
 * rejects when the port is taken or a non-loopback host is given without a token.
 */
export async function startRosbridgeServer(session: RosbridgeSessionPort, options: RosbridgeServerOptions = {}): Promise<RosbridgeServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_ROSBRIDGE_PORT;
  const token = options.token ?? undefined;
  const log = options.log ?? (() => undefined);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`rosbridge: port must be an integer from 0 to 65535, got ${String(port)}`);
  if (token !== undefined && (typeof token !== 'string' || token.length === 0)) throw new Error('rosbridge: token must be a non-empty string');
  if (!isLoopbackHost(host) && token === undefined) throw new Error(`rosbridge: host ${host} is not loopback, so clients must authenticate: give a token`);

  const info = session.info();
  const odom = odomBody(info);
  const seq = new Map<string, number>();
  const nextSeq = (topic: string) => {
    const n = (seq.get(topic) ?? 0) + 1;
    seq.set(topic, n);
    return n;
  };
  const builders: Readonly<Record<string, Builder>> = {
    [PUBLISHED_TOPICS.odom.name]: (s, n) => odometry(info, s, n, odom),
    [PUBLISHED_TOPICS.tf.name]: (s, n) => tfMessage(info, s, n),
    [PUBLISHED_TOPICS.jointStates.name]: (s, n) => jointStates(info, s, n),
    [PUBLISHED_TOPICS.clock.name]: (s) => clock(s),
    [PUBLISHED_TOPICS.contacts.name]: (s, n) => contactMarkers(s, n, info.dt),
  };
  /** One message of a topic in each encoding a subscriber asked for, each made at most once. */
  const encoder = (topic: string, msg: object, time: number) => {
    const made: Partial<Record<Encoding, Outgoing>> = {};
    return (e: Encoding): Outgoing => {
      let out = made[e];
      if (out !== undefined) return out;
      if (e === 'none') out = JSON.stringify({ op: 'publish', topic, msg });
      else if (e === 'cbor') out = encodeCbor({ op: 'publish', topic, msg });
      else {
        // rosbridge's cbor-raw: the ROS 1 bytes with the (simulated) time they were published
        const t = rosTime(time);
        out = encodeCbor({ op: 'publish', topic, msg: { secs: t.secs, nsecs: t.nsecs, bytes: serializeRos1(topicType(topic) as string, msg) } });
      }
      made[e] = out;
      return out;
    };
  };

  const clients = new Set<Client>();
  let nextClientId = 1;
  let lastFault: string | null = null;
  let lastTime = 0;

  const wss = new WebSocketServer({ host, port, maxPayload: WS_MAX_PAYLOAD_BYTES, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('error', (e) => log(`rosbridge: server error: ${e.message}`));
  const address = wss.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;

  // --- state → topics ---------------------------------------------------------------------
  const onState = (s: PortState) => {
    lastTime = s.time;
    const now = performance.now();
    for (const topic of Object.keys(builders)) {
      let encoded: ((e: Encoding) => Outgoing) | null = null;
      for (const c of clients) {
        const d = c.delivery(topic);
        if (d === null || !c.authed) continue;
        const last = c.lastSent.get(topic);
        if (d.throttleMs > 0 && last !== undefined && now - last < d.throttleMs) continue;
        encoded ??= encoder(topic, builders[topic](s, nextSeq(topic)), s.time);
        c.lastSent.set(topic, now);
        c.queue.pushTopic(topic, encoded(d.encoding), d.queueLength);
      }
    }
    if (s.fault !== lastFault) {
      if (s.fault !== null) broadcastLog(LogLevel.Error, `world paused: ${s.fault}`, s.time);
      lastFault = s.fault;
    }
    for (const c of clients) {
      c.flush();
      reportDrops(c, now);
    }
  };
  const broadcastLog = (level: number, msg: string, time: number) => {
    const topic = PUBLISHED_TOPICS.rosout.name;
    let encoded: ((e: Encoding) => Outgoing) | null = null;
    for (const c of clients) {
      const d = c.delivery(topic);
      if (d === null || !c.authed) continue;
      encoded ??= encoder(topic, logMessage(nextSeq(topic), time, level, msg), time);
      c.queue.pushTopic(topic, encoded(d.encoding), Math.max(d.queueLength, 100));
    }
  };
  const reportDrops = (c: Client, now: number) => {
    if (c.queue.droppedTotal === c.reportedDrops || now - c.lastDropReport < DROP_REPORT_MS) return;
    const st = c.queue.stats();
    const by = Object.entries(st.droppedByTopic).map(([t, n]) => `${t} ${n}`).join(', ');
    log(`rosbridge: client ${c.id} (${c.address}) behind: ${st.dropped} messages dropped (${by})`);
    c.lastDropReport = now;
    // one report at a time to the client: one that has not read the last gets no other yet
    if (c.queue.pendingReplies > 0) return;
    c.status('warning', `${st.dropped - c.reportedDrops} messages dropped since the last report (the client reads slower than the simulation publishes; totals: ${by}); raise queue_length or throttle_rate`);
    c.reportedDrops = st.dropped;
  };
  const unsubscribeSession = session.subscribe(onState);

  // --- client ops --------------------------------------------------------------------------
  wss.on('connection', (ws, req) => {
    const c = new Client(nextClientId++, ws, `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`, token !== undefined);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const given = bearer !== null ? bearer[1] : urlToken(req.url);
    if (token !== undefined && given !== null) {
      if (!sameSecret(given, token)) {
        c.close(1008, 'authentication failed');
        return;
      }
      c.authed = true;
    }
    clients.add(c);
    log(`rosbridge: client ${c.id} connected from ${c.address}`);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        onMessage(c, data, isBinary);
      } catch (e) {
        c.status('error', `internal error handling the message: ${(e as Error).message}`);
      }
    });
    ws.on('close', () => {
      c.close(1000, '');
      clients.delete(c);
      const st = c.queue.stats();
      log(`rosbridge: client ${c.id} disconnected (${st.sent} messages sent, ${st.dropped} dropped)`);
    });
    ws.on('error', () => c.close(1011, 'socket error'));
  });

  const onMessage = (c: Client, data: RawData, isBinary: boolean) => {
    if (c.closed) return;
    if (isBinary) {
      c.status('error', 'binary messages (CBOR, BSON) are not accepted: send rosbridge JSON as text');
      return;
    }
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const parsed = parseClientMessage(buf.length > MAX_CLIENT_MESSAGE_BYTES ? '' : buf.toString('utf8'), buf.length);
    if (!parsed.ok) {
      c.status('error', parsed.error, parsed.id);
      return;
    }
    const op = parsed.op;
    if (!c.authed && op.op !== 'auth') {
      c.status('error', 'authentication required: send {"op": "auth", "mac": "<token>"} first');
      c.close(1008, 'authentication required');
      return;
    }
    handleOp(c, op);
  };

  const handleOp = (c: Client, op: ClientOp) => {
    switch (op.op) {
      case 'auth':
        if (token === undefined) return c.status('info', 'this server needs no authentication', op.id);
        if (!sameSecret(op.mac, token)) {
          c.status('error', 'authentication failed', op.id);
          c.close(1008, 'authentication failed');
          return;
        }
        c.authed = true;
        return c.status('info', 'authenticated', op.id);
      case 'set_level':
        c.level = op.level;
        return c.status('info', `status level set to ${op.level}`, op.id);
      case 'advertise': {
        const type = topicType(op.topic);
        if (!isSubscribed(op.topic)) return c.status('error', `advertise: the simulation does not listen on ${op.topic}; it accepts ${subscribedNames()}`, op.id);
        if (type !== op.type) return c.status('error', `advertise: ${op.topic} carries ${type}, not ${op.type}`, op.id);
        c.advertised.add(op.topic);
        return c.status('info', `advertised ${op.topic}`, op.id);
      }
      case 'unadvertise':
        if (!c.advertised.delete(op.topic)) return c.status('warning', `unadvertise: ${op.topic} was not advertised by this client`, op.id);
        return c.status('info', `unadvertised ${op.topic}`, op.id);
      case 'publish':
        return publish(c, op.topic, op.msg, op.id);
      case 'subscribe':
        return subscribe(c, op);
      case 'unsubscribe': {
        const m = c.subs.get(op.topic);
        if (!m || m.size === 0) return c.status('warning', `unsubscribe: not subscribed to ${op.topic}`, op.id);
        if (op.id !== undefined && m.has(op.id)) m.delete(op.id);
        else if (op.id === undefined) m.clear();
        else return c.status('warning', `unsubscribe: no subscription ${op.id} to ${op.topic}`, op.id);
        if (m.size === 0) {
          c.subs.delete(op.topic);
          c.lastSent.delete(op.topic);
        }
        return c.status('info', `unsubscribed from ${op.topic}`, op.id);
      }
      case 'call_service':
        return void callService(c, op.service, op.args, op.type, op.id);
      case 'service_response':
        return c.status('error', `service_response: this server calls no services of its clients (${op.service})`, op.id);
    }
  };

  const subscribe = (c: Client, op: Extract<ClientOp, { op: 'subscribe' }>) => {
    const type = topicType(op.topic);
    if (!isPublished(op.topic)) {
      const hint = isSubscribed(op.topic) ? ` (${op.topic} is an input: publish to it)` : '';
      return c.status('error', `subscribe: no topic ${op.topic}${hint}; the simulation publishes ${publishedNames()}`, op.id);
    }
    if (op.type !== undefined && op.type !== type) return c.status('error', `subscribe: ${op.topic} carries ${type}, not ${op.type}`, op.id);
    let encoding: Encoding = 'none';
    if (ENCODINGS.includes(op.compression)) encoding = op.compression as Encoding;
    else c.status('warning', `subscribe: compression "${op.compression.slice(0, 32)}" is not supported (none, cbor, cbor-raw are); ${op.topic} is sent as JSON`, op.id);
    let m = c.subs.get(op.topic);
    if (!m) c.subs.set(op.topic, (m = new Map()));
    const first = m.size === 0;
    m.set(op.id ?? '', { throttleMs: op.throttleRate, queueLength: op.queueLength, encoding });
    c.status('info', `subscribed to ${op.topic}`, op.id);
    // the state as it stands, at once (the next batch may be far away in lockstep or paused)
    const build = builders[op.topic];
    if (first && build !== undefined) {
      c.lastSent.set(op.topic, performance.now());
      const now = session.current();
      c.queue.pushTopic(op.topic, encoder(op.topic, build(now, nextSeq(op.topic)), now.time)(encoding), op.queueLength);
      c.flush();
    }
  };

  const publish = (c: Client, topic: string, msg: unknown, id: string | undefined) => {
    const type = topicType(topic);
    if (!isSubscribed(topic) || type === undefined) {
      const hint = isPublished(topic) ? ` (${topic} is published by the simulation)` : '';
      return c.status('error', `publish: the simulation does not listen on ${topic}${hint}; it accepts ${subscribedNames()}`, id);
    }
    const m = conform(type, msg);
    if (!m.ok) return c.status('error', `publish ${topic}: ${m.error}`, id);
    const v = m.value as Record<string, Record<string, number> & Record<string, unknown>>;
    try {
      if (topic === SUBSCRIBED_TOPICS.cmdVel.name) {
        session.setTwist(v.linear.x, v.angular.z);
      } else if (topic === SUBSCRIBED_TOPICS.jointCommands.name) {
        applyJointCommands(v as unknown as { name: string[]; velocity: number[] });
      }
    } catch (e) {
      return c.status('error', `publish ${topic}: ${(e as Error).message}`, id);
    }
  };

  /** Checks every joint of the message before commanding any (no half-applied message). */
  const applyJointCommands = (m: { name: string[]; velocity: number[] }) => {
    if (m.name.length !== m.velocity.length) throw new Error(`name has ${m.name.length} joints and velocity ${m.velocity.length} values; give one velocity per name`);
    for (const n of m.name) {
      const j = info.joints.find((d) => d.name === n);
      if (j === undefined) throw new Error(`no joint named "${n.slice(0, 128)}" (joints with a motor: ${info.joints.filter((d) => d.motor).map((d) => d.name).join(', ') || 'none'})`);
      if (!j.motor) throw new Error(`joint "${n}" has no motor`);
      if (j.controlled) throw new Error(`joint "${n}" is driven by the robot's controller; drive it through /cmd_vel`);
    }
    for (let i = 0; i < m.name.length; i++) session.setJointVelocity(m.name[i], m.velocity[i]);
  };

  const callService = async (c: Client, service: string, rawArgs: unknown, givenType: string | undefined, id: string | undefined) => {
    const fail = (msg: string) => {
      c.status('error', `call_service ${service}: ${msg}`, id);
      c.reply({ op: 'service_response', ...(id === undefined ? {} : { id }), service, values: msg, result: false });
    };
    const type = serviceType(service);
    if (type === undefined) return fail(`no service ${service} (rosapi/services lists them)`);
    if (givenType !== undefined && givenType !== type) return fail(`${service} is a ${type}, not ${givenType}`);
    const reqSpec = messageSpec(`${type}Request`);
    // rosbridge also takes the request's fields as a list, in definition order
    const argsObj = Array.isArray(rawArgs) ? Object.fromEntries((reqSpec?.fields ?? []).map((f, i) => [f.name, rawArgs[i]]).filter(([, v]) => v !== undefined)) : rawArgs;
    if (Array.isArray(rawArgs) && rawArgs.length > (reqSpec?.fields.length ?? 0)) return fail(`args: ${rawArgs.length} values for ${reqSpec?.fields.length ?? 0} fields`);
    const args = conform(`${type}Request`, argsObj);
    if (!args.ok) return fail(`args: ${args.error}`);
    let values: Record<string, unknown>;
    try {
      if (isRosapiService(service)) values = callRosapi(service, args.value as Record<string, unknown>, { time: lastTime });
      else values = await callSimService(service, args.value as Record<string, unknown>);
    } catch (e) {
      return fail(e instanceof RosapiError ? e.message : (e as Error).message);
    }
    c.reply({ op: 'service_response', ...(id === undefined ? {} : { id }), service, values, result: true });
  };

  const callSimService = async (service: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    switch (service) {
      case SIM_SERVICES.reset.name:
        await session.reset();
        return { success: true, message: `reset: the world is at step ${session.current().step}` };
      case SIM_SERVICES.pause.name:
        if (session.lockstep) return { success: true, message: 'lockstep: the world advances only on /terrawheel/step' };
        session.pause();
        return { success: true, message: 'paused' };
      case SIM_SERVICES.resume.name:
        if (session.lockstep) return { success: false, message: 'lockstep: the world advances only on /terrawheel/step (it has no clock to resume)' };
        session.resume();
        return { success: true, message: 'running' };
      case SIM_SERVICES.step.name: {
        const n = args.n as number;
        if (n < 1 || n > MAX_STEP_PER_CALL) throw new Error(`n must be from 1 to ${MAX_STEP_PER_CALL}, got ${n}`);
        const step = await session.step(n);
        const s = session.current();
        return { success: s.fault === null, message: s.fault ?? `stepped ${n}`, step, time: s.time, state_hash: s.stateHash() };
      }
    }
    throw new Error(`no service ${service}`);
  };

  return {
    port: boundPort,
    host,
    url: `ws://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${boundPort}`,
    clientCount: () => clients.size,
    stats: () =>
      [...clients].map((c) => ({ id: c.id, address: c.address, subscriptions: [...c.subs.keys()], ...c.queue.stats() })),
    close: async () => {
      unsubscribeSession();
      for (const c of clients) c.close(1001, 'server closing');
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
