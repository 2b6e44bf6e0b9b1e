/**
 * A test-side wrapper of the real `FoxgloveClient` (@foxglove/ws-protocol) on a `ws` socket:
 * channels by topic, decoded JSON messages per topic, waits on state (a message that satisfies a
 * predicate, a service response), never on time.
 */
import WebSocket from 'ws';
import { FoxgloveClient, type Channel, type IWebSocket, type Service, type StatusMessage, type Parameter } from '@foxglove/ws-protocol';

export interface Received {
  topic: string;
  timestamp: bigint;
  json: unknown;
}

type Waiter = { test: (m: Received) => boolean; done: (m: Received) => void };

export class FoxClient {
  readonly client: FoxgloveClient;
  readonly ws: WebSocket;
  readonly channels = new Map<string, Channel>();
  readonly services = new Map<string, Service>();
  readonly statuses: StatusMessage[] = [];
  readonly messages: Received[] = [];
  private readonly subs = new Map<number, string>();
  private waiters: Waiter[] = [];
  private statusWaiters: ((s: StatusMessage) => void)[] = [];
  private calls = new Map<number, { ok: (v: { success: boolean; message: string; step: number }) => void; fail: (e: Error) => void }>();
  private nextCall = 1;
  private paramWaiters = new Map<string, (p: Parameter[]) => void>();
  private advertised: Promise<void>;

  private constructor(url: string, protocols: string[] = [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) {
    this.ws = new WebSocket(url, protocols);
    this.client = new FoxgloveClient({ ws: this.ws as unknown as IWebSocket });
    let seen: () => void;
    this.advertised = new Promise<void>((r) => (seen = r));
    let gotChannels = false;
    let gotServices = false;
    this.client.on('advertise', (chs) => {
      for (const c of chs) this.channels.set(c.topic, c);
      gotChannels = true;
      if (gotServices) seen();
    });
    this.client.on('advertiseServices', (ss) => {
      for (const s of ss) this.services.set(s.name, s);
      gotServices = true;
      if (gotChannels) seen();
    });
    this.client.on('message', ({ subscriptionId, timestamp, data }) => {
      const topic = this.subs.get(subscriptionId) ?? '?';
      const m = { topic, timestamp, json: JSON.parse(new TextDecoder().decode(data)) };
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(m)) return true;
        w.done(m);
        return false;
      });
    });
    this.client.on('status', (s) => {
      this.statuses.push(s);
      for (const w of this.statusWaiters.splice(0)) w(s);
    });
    this.client.on('serviceCallResponse', (r) => {
      const c = this.calls.get(r.callId);
      this.calls.delete(r.callId);
      c?.ok(JSON.parse(new TextDecoder().decode(r.data)));
    });
    this.client.on('serviceCallFailure', (r) => {
      const c = this.calls.get(r.callId);
      this.calls.delete(r.callId);
      c?.fail(new Error(r.message));
    });
    this.client.on('parameterValues', (p) => {
      const w = p.id !== undefined ? this.paramWaiters.get(p.id) : undefined;
      if (w) {
        this.paramWaiters.delete(p.id!);
        w(p.parameters);
      }
    });
  }

  /** Connects and waits for the channel and service advertisements. */
  static async connect(url: string): Promise<FoxClient> {
    const c = new FoxClient(url);
    await c.advertised;
    return c;
  }

  subscribe(...topics: string[]): void {
    for (const t of topics) {
      const ch = this.channels.get(t);
      if (!ch) throw new Error(`no channel ${t}`);
      this.subs.set(this.client.subscribe(ch.id), t);
    }
  }

  /** The next message (from now, or already received when `past`) on `topic` that passes `test`. */
  next(topic: string, test: (json: any, m: Received) => boolean = () => true, past = false): Promise<Received> {
    if (past) {
      const m = this.messages.find((x) => x.topic === topic && test(x.json, x));
      if (m) return Promise.resolve(m);
    }
    return new Promise((done) => this.waiters.push({ test: (m) => m.topic === topic && test(m.json, m), done }));
  }

  nextStatus(): Promise<StatusMessage> {
    return new Promise((r) => this.statusWaiters.push(r));
  }

  call(name: string, request: object = {}): Promise<{ success: boolean; message: string; step: number }> {
    const s = this.services.get(name);
    if (!s) throw new Error(`no service ${name}`);
    const callId = this.nextCall++;
    return new Promise((ok, fail) => {
      this.calls.set(callId, { ok, fail });
      this.client.sendServiceCallRequest({ serviceId: s.id, callId, encoding: 'json', data: new DataView(new TextEncoder().encode(JSON.stringify(request)).buffer) });
    });
  }

  params(names: string[]): Promise<Parameter[]> {
    const id = `p${this.nextCall++}`;
    return new Promise((r) => {
      this.paramWaiters.set(id, r);
      this.client.getParameters(names, id);
    });
  }

  setParams(params: Parameter[]): Promise<Parameter[]> {
    const id = `p${this.nextCall++}`;
    return new Promise((r) => {
      this.paramWaiters.set(id, r);
      this.client.setParameters(params, id);
    });
  }

  /** Advertises `topic` (JSON) and returns a publisher of objects. */
  publisher(topic: string, schemaName: string): (msg: object) => void {
    const id = this.client.advertise({ topic, encoding: 'json', schemaName });
    return (msg) => this.client.sendMessage(id, new TextEncoder().encode(JSON.stringify(msg)));
  }

  close(): void {
    this.client.close();
  }
}
