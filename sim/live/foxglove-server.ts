/**
 * The Foxglove WebSocket protocol over a LiveSession: watch a running simulation in Foxglove or
 * Lichtblick (Open connection ▸ Foxglove WebSocket ▸ ws://localhost:8765) and drive it from
 * there or from any `@foxglove/ws-protocol` client. A thin adapter: `FoxgloveServer` (the
 * protocol, from @foxglove/ws-protocol) on a `ws` WebSocketServer, fed by the session's
 * subscription; every command goes to the session's API.
 *
 * Channels (JSON; the recording's encoders and schemas from sim/record/foxglove.ts, so a live view
 * looks like a recording opened in Foxglove):
 *   /terrawheel/tf        foxglove.FrameTransforms   every body, parent "world"
 *   /terrawheel/scene     foxglove.SceneUpdate       terrain and body shapes (sent to a client when it subscribes)
 *   /terrawheel/contacts  foxglove.SceneUpdate       contact arrows
 *   /terrawheel/wheels    terrawheel.Wheels          per-wheel contacts, depth, normal force, slip
 *   /terrawheel/input     terrawheel.Input           the drive command, when it changes
 *   /terrawheel/event     terrawheel.Event           faults, resets, pauses, recordings, drops
 *   /odom                 nav_msgs/Odometry (JSON)   the robot base's pose (world) and twist (base frame)
 *   /clock                rosgraph_msgs/Clock (JSON) simulated time; also the protocol's `time` op
 * Message timestamps are simulated time.
 *
 * Rate: each client picks its own, `rate_hz` messages per simulated second: the `rate_hz` query
 * parameter of the URL (ws://localhost:8765/?rate_hz=10) or the `rate_hz` parameter (Foxglove's
 * Parameters panel; a client's get/set of `rate_hz` reads and sets its own rate). A `step` or
 * `reset` service call and a pause always send the state, whatever the rate, so a lockstep
 * controller sees the state after every step it asks for.
 *
 * Client publishing (Teleop panel): `/cmd_vel` (geometry_msgs/Twist as JSON: linear.x [m/s],
 * angular.z [rad/s]; the other components are ignored) and `/terrawheel/joint_velocity`
 * ({ "name", "velocity" }). Services (JSON request and response): /terrawheel/pause, resume,
 * step ({ "steps": n }), reset, start_recording ({ "file": "name.mcap" }, written in the
 * server's recording directory), stop_recording. Parameters: time_scale (read/write), rate_hz
 * (per client), running (read/write, free-running only), lockstep and step (read only).
 *
 * Safety: loopback by default; a non-loopback host needs a token (`?token=` in the URL or an
 * `Authorization: Bearer` header), checked before the WebSocket handshake completes. Incoming
 * messages over MAX_INCOMING_BYTES close the connection (ws's maxPayload); commands are validated
 * and a bad one answered with a status message naming what is wrong. Each client has its own send
 * queue (the socket's buffer): while it holds more than `sendBufferLimit` bytes the client's data
 * messages are dropped (counted, reported to it as a status and on /terrawheel/event, and in
 * `stats()`), and a client whose buffer passes `closeBufferLimit` is disconnected, so a slow or
 * stuck client never stalls the simulation or the other clients.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { resolve, basename, join } from 'node:path';
import * as wsProtocol from '@foxglove/ws-protocol';
import type { IWebSocket, Parameter, ServiceCallRequest, StatusLevel as StatusLevelType } from '@foxglove/ws-protocol';
import { FrameTransforms as FrameTransformsSchema, SceneUpdate as SceneUpdateSchema } from '@foxglove/schemas/jsonschema';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { contactSceneJson, EVENT_JSON_SCHEMA, frameTransformsJson, INPUT_JSON_SCHEMA, makeWheelStats, quotedNames, staticScene, wheelsMessage, WHEELS_JSON_SCHEMA, type FoxgloveTime } from '../record/foxglove';
import { TOPIC } from '../record/format';
import type { LiveSession, LiveState } from './session';

/**
 * The protocol package is CommonJS for Node, and Node's ESM loader cannot see its named exports
 * (getters): there they are properties of the default export; bundlers see the ESM build.
 */
const protocol = (wsProtocol as unknown as { default?: typeof wsProtocol }).default ?? wsProtocol;
const { FoxgloveServer, StatusLevel } = protocol;
type StatusLevel = StatusLevelType;

/** Default port (Foxglove's own default for a WebSocket connection). */
export const FOXGLOVE_DEFAULT_PORT = 8765;
/** [Hz] Default rate of a client's messages, per simulated second (as a recording's Foxglove channels). */
export const DEFAULT_RATE_HZ = 30;
/** [Hz] Accepted range of a client's rate. */
export const MIN_RATE_HZ = 0.1;
export const MAX_RATE_HZ = 1000;
/** [bytes] Largest message a client may send (ws closes the connection with 1009 above it). */
export const MAX_INCOMING_BYTES = 64 * 1024;
/** [bytes] Default socket buffer above which a client's data messages are dropped. */
export const DEFAULT_SEND_BUFFER_LIMIT = 4 << 20;
/** [bytes] Default socket buffer above which a client is disconnected (stuck). */
export const DEFAULT_CLOSE_BUFFER_LIMIT = 64 << 20;
/** Most steps one `step` service call may ask for. */
export const MAX_STEP_SERVICE = 100_000;
/** Topics a client may publish. */
export const CMD_VEL_TOPIC = '/cmd_vel';
export const JOINT_VELOCITY_TOPIC = '/terrawheel/joint_velocity';
export const ODOM_TOPIC = '/odom';
export const CLOCK_TOPIC = '/clock';
/** Service names (prefix + name). */
export const SERVICE_PREFIX = '/terrawheel/';

/** Options of startFoxgloveServer. */
export interface FoxgloveServerOptions {
  /** Default FOXGLOVE_DEFAULT_PORT; 0 picks a free port (tests). */
  port?: number;
  /** Default 127.0.0.1 (loopback only); any other host needs `token`. */
  host?: string;
  /** Required from clients when given (and always for a non-loopback host). */
  token?: string | null;
  /** [Hz] Rate of a client that does not pick one. */
  rateHz?: number;
  /** Directory the start_recording service writes into (default: the working directory). */
  recordDir?: string;
  /** [bytes] See DEFAULT_SEND_BUFFER_LIMIT. */
  sendBufferLimit?: number;
  /** [bytes] See DEFAULT_CLOSE_BUFFER_LIMIT. */
  closeBufferLimit?: number;
  /** Server name shown by Foxglove. */
  name?: string;
  /** Where notices go (default console.error); the CLI passes its stderr. */
  log?: (line: string) => void;
}

/** One client's counters (stats()). */
export interface FoxgloveClientStats {
  name: string;
  rateHz: number;
  sent: number;
  dropped: number;
  bufferedAmount: number;
}

/** The server's counters. */
export interface FoxgloveServerStats {
  clients: FoxgloveClientStats[];
  /** Data messages dropped for slow clients, all clients, since the start. */
  dropped: number;
  /** Clients disconnected because their buffer passed closeBufferLimit. */
  disconnectedSlow: number;
}

/** A running server: its address, counters, and close(). */
export interface FoxgloveLiveServer {
  readonly host: string;
  readonly port: number;
  /** ws://host:port */
  readonly url: string;
  stats(): FoxgloveServerStats;
  close(): Promise<void>;
}

/** True for 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Token comparison in constant time (hashes make the lengths equal). */
function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an upgrade request: `?token=` or `Authorization: Bearer …`. */
function requestToken(req: IncomingMessage): string | null {
  const q = new URL(req.url ?? '/', 'ws://x').searchParams.get('token');
  if (q !== null) return q;
  const auth = req.headers.authorization;
  return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : null;
}

/** A rate from a URL query or a parameter; throws naming the range. */
function checkRate(v: unknown, what: string): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < MIN_RATE_HZ || n > MAX_RATE_HZ) throw new Error(`${what} must be a number of Hz from ${MIN_RATE_HZ} to ${MAX_RATE_HZ}, got ${String(v)}`);
  return n;
}

const utf8 = new TextEncoder();
const utf8d = new TextDecoder('utf-8', { fatal: true });

/**
 * One client's connection as FoxgloveServer sees it (an IWebSocket over a `ws` socket), with the
 * drop policy in `send`: data messages (message data, time) are sent only while the client is
 * `due` and its socket buffer is under the limit; everything else (server info, advertisements,
 * statuses, service responses: small and rare) always goes out.
 */
class ClientConnection implements IWebSocket {
  binaryType = 'arraybuffer';
  onerror: ((event: unknown) => void) | null | undefined = null;
  onopen: ((event: unknown) => void) | null | undefined = null;
  onclose: ((event: unknown) => void) | null | undefined = null;
  onmessage: ((event: unknown) => void) | null | undefined = null;
  /** Data messages pass while true (set around each publish). */
  due = true;
  rateHz: number;
  /** [s] Simulated time of the last state sent to this client. */
  lastSent = -Infinity;
  sent = 0;
  dropped = 0;
  /** Client channel ids of its accepted advertisements → topic. */
  readonly publishing = new Map<number, string>();
  /** Server channel ids it subscribes to (parsed from its subscribe/unsubscribe ops). */
  readonly subscriptions = new Map<number, number>();
  private reportedDrops = 0;
  private corked = false;

  constructor(
    readonly ws: WebSocket,
    readonly name: string,
    rateHz: number,
    private readonly limits: { send: number; close: number },
    private readonly onDrop: (c: ClientConnection) => void,
    private readonly onStuck: (c: ClientConnection) => void,
  ) {
    this.rateHz = rateHz;
  }

  get protocol(): string {
    return this.ws.protocol;
  }

  send(data: string | ArrayBuffer | ArrayBufferView): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (typeof data !== 'string') {
      const first = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, 1)[0] : new Uint8Array(data, 0, 1)[0];
      const isData = first === 1 || first === 2; // MESSAGE_DATA, TIME (ws-protocol BinaryOpcode)
      if (isData) {
        if (!this.due) return;
        if (this.ws.bufferedAmount > this.limits.send) {
          this.dropped++;
          this.onDrop(this);
          return;
        }
        this.sent++;
      }
    }
    if (this.ws.bufferedAmount > this.limits.close) {
      this.onStuck(this);
      return;
    }
    this.ws.send(data);
  }

  close(): void {
    this.ws.close();
  }

  /** Holds this client's writes until uncork() (the underlying net.Socket's cork). */
  cork(): void {
    (this.ws as unknown as { _socket?: { cork(): void } })._socket?.cork();
    this.corked = true;
  }

  uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    (this.ws as unknown as { _socket?: { uncork(): void } })._socket?.uncork();
  }

  /** True the first time drops reach 1, 10, 100, … (when they are reported). */
  dropsToReport(): boolean {
    if (this.dropped < Math.max(1, this.reportedDrops * 10)) return false;
    this.reportedDrops = this.dropped;
    return true;
  }
}

/** A channel of ours: its id and how to encode its message from a state. */
interface LiveChannel {
  id: number;
  topic: string;
  /** Subscribers (all clients). */
  subscribers: number;
}

const CLOCK_SCHEMA = {
  title: 'rosgraph_msgs/Clock',
  description: 'Simulated time',
  type: 'object',
  properties: { clock: { type: 'object', properties: { sec: { type: 'integer', minimum: 0 }, nsec: { type: 'integer', minimum: 0, maximum: 999999999 } }, required: ['sec', 'nsec'] } },
  required: ['clock'],
} as const;

const VEC3_SCHEMA = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' } }, required: ['x', 'y', 'z'] } as const;
const QUAT_SCHEMA = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' }, w: { type: 'number' } }, required: ['x', 'y', 'z', 'w'] } as const;
const ODOM_SCHEMA = {
  title: 'nav_msgs/Odometry',
  description: "The robot base's pose in the world frame and its twist in the base frame (ROS field names)",
  type: 'object',
  properties: {
    header: { type: 'object', properties: { stamp: CLOCK_SCHEMA.properties.clock, frame_id: { type: 'string' } }, required: ['stamp', 'frame_id'] },
    child_frame_id: { type: 'string' },
    pose: { type: 'object', properties: { pose: { type: 'object', properties: { position: VEC3_SCHEMA, orientation: QUAT_SCHEMA }, required: ['position', 'orientation'] } }, required: ['pose'] },
    twist: { type: 'object', properties: { twist: { type: 'object', properties: { linear: VEC3_SCHEMA, angular: VEC3_SCHEMA }, required: ['linear', 'angular'] } }, required: ['twist'] },
  },
  required: ['header', 'child_frame_id', 'pose', 'twist'],
} as const;

const TWIST_SCHEMA = {
  title: 'geometry_msgs/Twist',
  type: 'object',
  properties: { linear: VEC3_SCHEMA, angular: VEC3_SCHEMA },
  required: ['linear', 'angular'],
} as const;

const TRIGGER_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { success: { type: 'boolean' }, message: { type: 'string' }, step: { type: 'integer' } },
  required: ['success', 'message', 'step'],
} as const;

/** The services: name → request schema (JSON). */
const SERVICES: Record<string, object> = {
  pause: { type: 'object', properties: {} },
  resume: { type: 'object', properties: {} },
  step: { type: 'object', properties: { steps: { type: 'integer', minimum: 0, maximum: MAX_STEP_SERVICE } } },
  reset: { type: 'object', properties: {} },
  start_recording: { type: 'object', properties: { file: { type: 'string', description: 'file name (.mcap) in the server\'s recording directory' } }, required: ['file'] },
  stop_recording: { type: 'object', properties: {} },
};

/** A file name for start_recording: a plain name ending in .mcap, no directories. */
export function recordingFileName(file: unknown): string {
  if (typeof file !== 'string' || file.length === 0 || file.length > 255) throw new Error('start_recording: "file" must be a file name of 1 to 255 characters');
  if (basename(file) !== file || file.includes('/') || file.includes('\\') || file.startsWith('.')) throw new Error(`start_recording: "file" must be a plain file name (no directories, not hidden), got ${JSON.stringify(file)}`);
  if (!/^[A-Za-z0-9._-]+\.mcap$/.test(file)) throw new Error(`start_recording: "file" must use letters, digits, '.', '_', '-' and end in .mcap, got ${JSON.stringify(file)}`);
  return file;
}

/**
 * Starts the Foxglove WebSocket server over `session` (see the header). Rejects when the port
 * cannot be bound, or for a non-loopback host without a token.
 */
export async function startFoxgloveServer(session: LiveSession, options: FoxgloveServerOptions = {}): Promise<FoxgloveLiveServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? null;
  if (!isLoopbackHost(host) && (token === null || token.length === 0)) throw new Error(`serve: --host ${host} is not a loopback address: give a --token that clients must present`);
  if (token !== null && token.length < 8) throw new Error('serve: the token must be at least 8 characters');
  const defaultRate = checkRate(options.rateHz ?? DEFAULT_RATE_HZ, 'rate_hz');
  const recordDir = resolve(options.recordDir ?? '.');
  const limits = { send: options.sendBufferLimit ?? DEFAULT_SEND_BUFFER_LIMIT, close: options.closeBufferLimit ?? DEFAULT_CLOSE_BUFFER_LIMIT };
  const log = options.log ?? ((l: string) => console.error(l));
  const info = session.info();
  const stepNs = BigInt(Math.round(info.dt * 1e9));

  const server = new FoxgloveServer({
    name: options.name ?? `TerraWheel: ${info.scenarioName}`,
    capabilities: ['clientPublish', 'services', 'parameters', 'parametersSubscribe', 'time'],
    supportedEncodings: ['json'],
    metadata: { scenario: info.scenarioName, lockstep: String(info.lockstep), dt: String(info.dt) },
  });
  const clients = new Set<ClientConnection>();
  const byWs = new Map<unknown, ClientConnection>();
  let droppedTotal = 0;
  let disconnectedSlow = 0;

  // --- channels ---
  const channels = new Map<string, LiveChannel>();
  const addChannel = (topic: string, schemaName: string, schema: object): LiveChannel => {
    const id = server.addChannel({ topic, encoding: 'json', schemaName, schema: JSON.stringify(schema), schemaEncoding: 'jsonschema' });
    const ch = { id, topic, subscribers: 0 };
    channels.set(topic, ch);
    return ch;
  };
  const chTf = addChannel(TOPIC.transforms, 'foxglove.FrameTransforms', FrameTransformsSchema);
  const chScene = addChannel(TOPIC.scene, 'foxglove.SceneUpdate', SceneUpdateSchema);
  const chContacts = addChannel(TOPIC.contacts, 'foxglove.SceneUpdate', SceneUpdateSchema);
  const chWheels = addChannel(TOPIC.wheels, 'terrawheel.Wheels', WHEELS_JSON_SCHEMA);
  const chInput = addChannel(TOPIC.input, 'terrawheel.Input', INPUT_JSON_SCHEMA);
  const chEvent = addChannel(TOPIC.event, 'terrawheel.Event', EVENT_JSON_SCHEMA);
  const chOdom = addChannel(ODOM_TOPIC, 'nav_msgs/Odometry', ODOM_SCHEMA);
  const chClock = addChannel(CLOCK_TOPIC, 'rosgraph_msgs/Clock', CLOCK_SCHEMA);
  const byId = new Map([...channels.values()].map((c) => [c.id, c]));
  server.on('subscribe', (id) => void ((byId.get(id) ?? { subscribers: 0 }).subscribers = 1));
  server.on('unsubscribe', (id) => void ((byId.get(id) ?? { subscribers: 0 }).subscribers = 0));

  const scene = session.sceneSource();
  const names = quotedNames(scene.bodies);
  const wheelBodies = info.wheels.map((w) => w.body);
  const wheelRadii = info.wheels.map((w) => w.radius);
  const wheelScratch = makeWheelStats();
  let sceneBytes: Uint8Array<ArrayBuffer> | null = null;
  const sceneMessage = (): Uint8Array<ArrayBuffer> => (sceneBytes ??= utf8.encode(JSON.stringify(staticScene(scene.bodies, wheelBodies, scene.terrain, { sec: 0, nsec: 0 }))));
  const base = info.baseBody;
  const baseName = base >= 0 ? info.bodies[base].name : '';

  const timeOf = (step: number): FoxgloveTime => {
    const ns = BigInt(step) * stepNs;
    return { sec: Number(ns / 1_000_000_000n), nsec: Number(ns % 1_000_000_000n) };
  };

  /** Encodes and sends the state's messages of every subscribed channel (to the clients marked due). */
  const sendState = (s: LiveState, only: ReadonlySet<number> | null): void => {
    const f = s.frame;
    const ts = BigInt(f.step) * stepNs;
    const t = timeOf(f.step);
    const want = (c: LiveChannel): boolean => c.subscribers > 0 && (only === null || only.has(c.id));
    if (want(chTf)) server.sendMessage(chTf.id, ts, utf8.encode(frameTransformsJson(f, names, t)));
    if (want(chContacts)) server.sendMessage(chContacts.id, ts, utf8.encode(contactSceneJson(f, t)));
    if (want(chWheels) && wheelBodies.length > 0) server.sendMessage(chWheels.id, ts, utf8.encode(JSON.stringify(wheelsMessage(f, scene.bodies, wheelBodies, wheelRadii, info.dt, t, wheelScratch))));
    if (want(chOdom) && base >= 0) server.sendMessage(chOdom.id, ts, utf8.encode(JSON.stringify(odometry(f, base, baseName, t))));
    if (want(chClock)) server.sendMessage(chClock.id, ts, utf8.encode(`{"clock":{"sec":${t.sec},"nsec":${t.nsec}}}`));
    if (only === null) server.broadcastTime(ts);
  };

  /** Sends to every client (events, inputs): all due, then back to the rate gate. */
  const broadcast = (ch: LiveChannel, step: number, payload: unknown): void => {
    if (ch.subscribers === 0) return;
    for (const c of clients) c.due = true;
    server.sendMessage(ch.id, BigInt(step) * stepNs, utf8.encode(JSON.stringify(payload)));
  };
  const event = (kind: string, message: string): void => broadcast(chEvent, session.stepCount, { step: session.stepCount, kind, message });

  let lastFault: string | null = null;
  const offInput = session.onInput((i) => {
    if (clients.size > 0) broadcast(chInput, i.step, { step: i.step, throttle: i.throttle, steer: i.steer });
  });
  const onState = (s: LiveState): void => {
    if (clients.size === 0) return;
    if (s.fault !== lastFault) {
      lastFault = s.fault;
      if (s.fault !== null) event('fault', s.fault);
    }
    let any = false;
    const always = s.cause !== 'clock';
    for (const c of clients) {
      // a reset takes the time back: a client's last-sent time is then in the future
      const due = always || s.time < c.lastSent || s.time - c.lastSent >= 1 / c.rateHz - info.dt / 2;
      c.due = due;
      if (due) {
        c.lastSent = s.time;
        any = true;
      }
    }
    if (any) {
      // one socket write per client for the whole batch of messages, not one per message
      for (const c of clients) if (c.due) c.cork();
      try {
        sendState(s, null);
      } finally {
        for (const c of clients) c.uncork();
      }
    }
    for (const c of clients) c.due = true;
  };
  const unsubscribe = session.subscribe(onState);

  /** A new subscription of `c` (channel ids): the scene and the current state, to it alone, at once. */
  const sendInitial = (c: ClientConnection, ids: number[]): void => {
    if (!clients.has(c)) return;
    for (const o of clients) o.due = o === c;
    try {
      const only = new Set(ids);
      if (only.has(chScene.id) && chScene.subscribers > 0) server.sendMessage(chScene.id, BigInt(session.stepCount) * stepNs, sceneMessage());
      sendState(session.current(), only);
    } finally {
      for (const o of clients) o.due = true;
    }
  };

  const status = (c: ClientConnection, level: StatusLevel, message: string): void => server.sendStatus({ level, message }, c);

  // --- client publishing ---
  server.on('advertise', (ch) => {
    const c = ch.client.connection as unknown as ClientConnection;
    if (ch.topic !== CMD_VEL_TOPIC && ch.topic !== JOINT_VELOCITY_TOPIC) {
      status(c, StatusLevel.WARNING, `publishing ${ch.topic} is not accepted (accepted: ${CMD_VEL_TOPIC}, ${JOINT_VELOCITY_TOPIC}); its messages are ignored`);
      return;
    }
    if (ch.encoding !== 'json') {
      status(c, StatusLevel.ERROR, `${ch.topic}: encoding "${ch.encoding}" is not supported (use json)`);
      return;
    }
    c.publishing.set(ch.id, ch.topic);
  });
  server.on('unadvertise', ({ client, channelId }) => void (client.connection as unknown as ClientConnection).publishing.delete(channelId));
  server.on('message', ({ client, channel, data }) => {
    const c = client.connection as unknown as ClientConnection;
    const topic = c.publishing.get(channel.id);
    if (topic === undefined) return;
    try {
      const msg = parseJsonBytes(data, topic);
      if (topic === CMD_VEL_TOPIC) {
        const { linear, angular } = twistOf(msg);
        session.setTwist(linear, angular);
      } else {
        const m = msg as { name?: unknown; velocity?: unknown };
        if (typeof m.name !== 'string') throw new Error(`${topic}: "name" must be a joint name (string)`);
        if (typeof m.velocity !== 'number') throw new Error(`${topic}: "velocity" must be a number [rad/s]`);
        session.setJointVelocity(m.name, m.velocity);
      }
    } catch (e) {
      status(c, StatusLevel.ERROR, (e as Error).message);
    }
  });

  // --- services ---
  const serviceIds = new Map<number, string>();
  for (const [name, request] of Object.entries(SERVICES)) {
    const id = server.addService({
      name: SERVICE_PREFIX + name,
      type: `terrawheel/${name}`,
      request: { encoding: 'json', schemaName: `terrawheel/${name}_Request`, schemaEncoding: 'jsonschema', schema: JSON.stringify(request) },
      response: { encoding: 'json', schemaName: 'terrawheel/Trigger_Response', schemaEncoding: 'jsonschema', schema: JSON.stringify(TRIGGER_RESPONSE_SCHEMA) },
    });
    serviceIds.set(id, name);
  }
  const callService = async (name: string, req: Record<string, unknown>): Promise<string> => {
    switch (name) {
      case 'pause':
        session.pause();
        await session.idle();
        event('pause', 'paused');
        return 'paused';
      case 'resume':
        session.resume();
        event('resume', 'resumed');
        return 'running';
      case 'step': {
        const n = req.steps ?? 1;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_STEP_SERVICE) throw new Error(`step: "steps" must be an integer from 0 to ${MAX_STEP_SERVICE}, got ${JSON.stringify(n)}`);
        const at = await session.step(n);
        return `stepped to ${at}`;
      }
      case 'reset': {
        const stopped = await session.reset();
        event('reset', stopped ? `reset (recording ${stopped.path} finished)` : 'reset');
        return stopped ? `reset; the recording ${stopped.path} was finished first` : 'reset';
      }
      case 'start_recording': {
        const path = join(recordDir, recordingFileName(req.file));
        const st = await session.startRecording(path);
        event('recording', `recording to ${st.path}`);
        return `recording to ${st.path}`;
      }
      case 'stop_recording': {
        const st = await session.stopRecording();
        if (st.path !== null) event('recording', `recording ${st.path} finished: ${st.steps} steps`);
        return st.path === null ? 'not recording' : `recording ${st.path} finished: ${st.steps} steps, ${st.bytes} bytes`;
      }
    }
    throw new Error(`unknown service ${name}`);
  };
  server.on('serviceCallRequest', (request: ServiceCallRequest, conn) => {
    const c = conn as unknown as ClientConnection;
    const name = serviceIds.get(request.serviceId);
    const fail = (message: string): void => server.sendServiceCallFailure({ op: 'serviceCallFailure', serviceId: request.serviceId, callId: request.callId, message }, c);
    if (name === undefined) return fail(`unknown service id ${request.serviceId}`);
    if (request.encoding !== 'json') return fail(`${SERVICE_PREFIX}${name}: encoding "${request.encoding}" is not supported (use json)`);
    let req: Record<string, unknown>;
    try {
      const parsed = request.data.byteLength === 0 ? {} : parseJsonBytes(request.data, SERVICE_PREFIX + name);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${SERVICE_PREFIX}${name}: the request must be a JSON object`);
      req = parsed as Record<string, unknown>;
    } catch (e) {
      return fail((e as Error).message);
    }
    callService(name, req).then(
      (message) => server.sendServiceCallResponse({ serviceId: request.serviceId, callId: request.callId, encoding: 'json', data: new DataView(utf8.encode(JSON.stringify({ success: true, message, step: session.stepCount })).buffer) }, c),
      (e: unknown) => fail((e as Error).message),
    );
  });

  // --- parameters ---
  const globalParams = (): Parameter[] => [
    { name: 'time_scale', value: session.timeScale, type: 'float64' },
    { name: 'running', value: session.isRunning },
    { name: 'lockstep', value: session.lockstep },
    { name: 'step', value: session.stepCount },
  ];
  const paramsFor = (c: ClientConnection, names: string[]): Parameter[] => {
    const all = [...globalParams(), { name: 'rate_hz', value: c.rateHz, type: 'float64' } as Parameter];
    return names.length === 0 ? all : all.filter((p) => names.includes(p.name));
  };
  server.on('getParameters', ({ parameterNames, id }, conn) => {
    const c = conn as unknown as ClientConnection;
    server.publishParameterValues(paramsFor(c, Array.isArray(parameterNames) ? parameterNames : []), id, c);
  });
  server.on('setParameters', ({ parameters, id }, conn) => {
    const c = conn as unknown as ClientConnection;
    const changed: string[] = [];
    for (const p of Array.isArray(parameters) ? parameters : []) {
      try {
        switch (p?.name) {
          case 'time_scale':
            if (typeof p.value !== 'number') throw new Error(`time_scale must be a number, got ${JSON.stringify(p.value)}`);
            session.setTimeScale(p.value);
            break;
          case 'rate_hz':
            c.rateHz = checkRate(p.value, 'rate_hz');
            break;
          case 'running':
            if (typeof p.value !== 'boolean') throw new Error(`running must be true or false, got ${JSON.stringify(p.value)}`);
            if (p.value) session.resume();
            else session.pause();
            break;
          default:
            throw new Error(`parameter ${JSON.stringify(p?.name)} cannot be set (settable: time_scale, rate_hz, running)`);
        }
        changed.push(p.name);
      } catch (e) {
        status(c, StatusLevel.ERROR, (e as Error).message);
      }
    }
    server.publishParameterValues(paramsFor(c, changed), id, c);
    if (changed.some((n) => n !== 'rate_hz')) server.updateParameterValues(globalParams());
  });

  server.on('error', (e) => log(`foxglove server: ${e.message}`));

  // --- sockets ---
  const wss = new WebSocketServer({
    host,
    port: options.port ?? FOXGLOVE_DEFAULT_PORT,
    maxPayload: MAX_INCOMING_BYTES,
    handleProtocols: (protocols) => server.handleProtocols(protocols),
    verifyClient: (i: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
      if (token !== null && !tokenMatches(requestToken(i.req), token)) return done(false, 401, 'a valid token is required (?token=…)');
      try {
        const r = new URL(i.req.url ?? '/', 'ws://x').searchParams.get('rate_hz');
        if (r !== null) checkRate(r, 'rate_hz');
      } catch (e) {
        return done(false, 400, (e as Error).message);
      }
      done(true);
    },
  });
  await new Promise<void>((ok, fail) => {
    wss.once('listening', ok);
    wss.once('error', fail);
  });
  wss.on('error', (e) => log(`foxglove server: ${e.message}`));

  const onDrop = (c: ClientConnection): void => {
    droppedTotal++;
    if (c.dropsToReport()) {
      const m = `${c.name}: ${c.dropped} message(s) dropped so far (the client reads slower than the server sends; lower rate_hz)`;
      log(`foxglove server: ${m}`);
      server.sendStatus({ level: StatusLevel.WARNING, message: m }, c);
    }
  };
  const onStuck = (c: ClientConnection): void => {
    if (!clients.has(c)) return;
    clients.delete(c);
    disconnectedSlow++;
    log(`foxglove server: ${c.name} disconnected: more than ${limits.close} bytes waiting to be sent (stuck client)`);
    c.ws.terminate();
  };

  let nextClient = 1;
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const r = new URL(req.url ?? '/', 'ws://x').searchParams.get('rate_hz');
    const name = `client ${nextClient++} (${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'})`;
    const c = new ClientConnection(ws, name, r === null ? defaultRate : Number(r), limits, onDrop, onStuck);
    clients.add(c);
    byWs.set(ws, c);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const bytes: Uint8Array = rawBytes(data);
      if (!isBinary) {
        let text: string;
        try {
          text = utf8d.decode(bytes);
        } catch {
          status(c, StatusLevel.ERROR, 'a text message must be UTF-8 JSON');
          return;
        }
        let op: unknown;
        try {
          op = JSON.parse(text);
        } catch {
          status(c, StatusLevel.ERROR, 'a text message must be JSON');
          return;
        }
        if (op === null || typeof op !== 'object' || typeof (op as { op?: unknown }).op !== 'string') {
          status(c, StatusLevel.ERROR, 'a text message must be a JSON object with an "op"');
          return;
        }
        c.onmessage?.({ data: text });
        trackSubscriptions(c, op as { op: string; subscriptions?: unknown; subscriptionIds?: unknown }, (ids) => setImmediate(() => sendInitial(c, ids)));
      } else {
        c.onmessage?.({ data: new Uint8Array(bytes).buffer });
      }
    });
    ws.on('close', (code: number, reason: Buffer) => {
      clients.delete(c);
      byWs.delete(ws);
      c.onclose?.({ code, reason: reason.toString(), wasClean: true });
    });
    ws.on('error', (e: Error) => log(`foxglove server: ${name}: ${e.message}`));
    server.handleConnection(c, name);
  });

  const address = wss.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? FOXGLOVE_DEFAULT_PORT);
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    host,
    port,
    url: `ws://${urlHost}:${port}`,
    stats: () => ({
      clients: [...clients].map((c) => ({ name: c.name, rateHz: c.rateHz, sent: c.sent, dropped: c.dropped, bufferedAmount: c.ws.bufferedAmount })),
      dropped: droppedTotal,
      disconnectedSlow,
    }),
    close: async () => {
      unsubscribe();
      offInput();
      for (const c of clients) c.ws.terminate();
      clients.clear();
      await new Promise<void>((ok) => wss.close(() => ok()));
    },
  };
}

/** The bytes of a ws message (Buffer, ArrayBuffer or fragments). */
function rawBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Follows a client's subscribe/unsubscribe ops (the protocol library keeps its own map private). */
function trackSubscriptions(c: ClientConnection, op: { op: string; subscriptions?: unknown; subscriptionIds?: unknown }, onNew: (channelIds: number[]) => void): void {
  if (op.op === 'subscribe' && Array.isArray(op.subscriptions)) {
    const fresh: number[] = [];
    for (const s of op.subscriptions as { id?: unknown; channelId?: unknown }[]) {
      if (typeof s?.id !== 'number' || typeof s.channelId !== 'number') continue;
      if ([...c.subscriptions.values()].includes(s.channelId)) continue;
      c.subscriptions.set(s.id, s.channelId);
      fresh.push(s.channelId);
    }
    if (fresh.length > 0) onNew(fresh);
  } else if (op.op === 'unsubscribe' && Array.isArray(op.subscriptionIds)) {
    for (const id of op.subscriptionIds) if (typeof id === 'number') c.subscriptions.delete(id);
  }
}

/** JSON from a message's bytes; throws naming the topic. */
function parseJsonBytes(data: ArrayBufferView, topic: string): unknown {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  try {
    return JSON.parse(utf8d.decode(bytes));
  } catch {
    throw new Error(`${topic}: the message is not UTF-8 JSON`);
  }
}

/** linear.x and angular.z of a geometry_msgs/Twist as JSON; throws naming the bad field. */
export function twistOf(msg: unknown): { linear: number; angular: number } {
  const m = msg as { linear?: { x?: unknown }; angular?: { z?: unknown } } | null;
  if (m === null || typeof m !== 'object') throw new Error(`${CMD_VEL_TOPIC}: expected a geometry_msgs/Twist object { linear: {x,y,z}, angular: {x,y,z} }`);
  const x = m.linear?.x;
  const z = m.angular?.z;
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error(`${CMD_VEL_TOPIC}: linear.x must be a finite number [m/s], got ${JSON.stringify(x)}`);
  if (typeof z !== 'number' || !Number.isFinite(z)) throw new Error(`${CMD_VEL_TOPIC}: angular.z must be a finite number [rad/s], got ${JSON.stringify(z)}`);
  return { linear: x, angular: z };
}

/** nav_msgs/Odometry of body `b`: pose in the world frame, twist in the body frame (REP-105). */
function odometry(f: LiveState['frame'], b: number, name: string, t: FoxgloveTime) {
  const p = f.poses;
  const o = 7 * b;
  const qx = p[o + 3], qy = p[o + 4], qz = p[o + 5], qw = p[o + 6];
  const v = f.velocities;
  const k = 6 * b;
  const toBody = (x: number, y: number, z: number) => {
    // R(q)ᵀ·v: rotate by the conjugate quaternion
    const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
    return { x: x - qw * tx + (qy * tz - qz * ty), y: y - qw * ty + (qz * tx - qx * tz), z: z - qw * tz + (qx * ty - qy * tx) };
  };
  return {
    header: { stamp: t, frame_id: 'world' },
    child_frame_id: name,
    pose: { pose: { position: { x: p[o], y: p[o + 1], z: p[o + 2] }, orientation: { x: qx, y: qy, z: qz, w: qw } } },
    twist: { twist: { linear: toBody(v[k], v[k + 1], v[k + 2]), angular: toBody(v[k + 3], v[k + 4], v[k + 5]) } },
  };
}
