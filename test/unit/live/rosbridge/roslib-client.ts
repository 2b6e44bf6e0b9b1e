/**
 * The real `roslib` (npm, 2.1.0) for the tests, through the few classes they use. It is imported
 * by a non-literal specifier so the typecheck does not load roslib's own declarations: they pull
 * in a second @xmldom/xmldom (0.9) whose global DOM types clash with the project's (0.8) in
 * sim/robot/urdf/xacro.ts.
 */

export interface RosTopic<T> {
  subscribe(cb: (m: T) => void): void;
  unsubscribe(cb?: (m: T) => void): void;
  publish(m: T): void;
}

export interface RosTypeDef {
  type: string;
  fieldnames: string[];
  fieldtypes: string[];
  fieldarraylen: number[];
  examples: string[];
}

export interface RosClient {
  connect(url: string): Promise<void>;
  close(): void;
  once(event: string, cb: (e: unknown) => void): void;
  authenticate(mac: string, client: string, dest: string, rand: string, t: number, level: string, end: number): void;
  getTopics(cb: (r: { topics: string[]; types: string[] }) => void, fail: (e: string) => void): void;
  getTopicsAndRawTypes(cb: (r: { topics: string[]; types: string[]; typedefs_full_text: string[] }) => void, fail: (e: string) => void): void;
  getServices(cb: (r: string[]) => void, fail: (e: string) => void): void;
  getTopicType(topic: string, cb: (t: string) => void, fail: (e: string) => void): void;
  getServiceType(service: string, cb: (t: string) => void, fail: (e: string) => void): void;
  getNodes(cb: (n: string[]) => void, fail: (e: string) => void): void;
  getMessageDetails(type: string, cb: (d: RosTypeDef[]) => void, fail: (e: string) => void): void;
  decodeTypeDefs(defs: RosTypeDef[]): unknown;
}

export interface RosService<Req, Res> {
  callService(req: Req, ok: (r: Res) => void, fail: (e: string) => void): void;
}

export interface Roslib {
  Ros: new (options: { url?: string }) => RosClient;
  Topic: new <T>(options: { ros: RosClient; name: string; messageType: string; queue_length?: number; throttle_rate?: number; compression?: string }) => RosTopic<T>;
  Service: new <Req, Res>(options: { ros: RosClient; name: string; serviceType: string }) => RosService<Req, Res>;
}

const ROSLIB = 'roslib';

/** The roslib module. */
export async function loadRoslib(): Promise<Roslib> {
  return (await import(ROSLIB)) as Roslib;
}

/** Connects a roslib client to `url` and waits for the connection. */
export async function rosConnect(roslib: Roslib, url: string): Promise<RosClient> {
  const ros = new roslib.Ros({});
  const open = new Promise<void>((done, fail) => {
    ros.once('connection', () => done());
    ros.once('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
  });
  await ros.connect(url);
  await open;
  return ros;
}

/** Calls a service with roslib; rejects with the server's message. */
export function rosCall<T = Record<string, unknown>>(roslib: Roslib, ros: RosClient, name: string, serviceType: string, args: object): Promise<T> {
  const s = new roslib.Service<object, T>({ ros, name, serviceType });
  return new Promise<T>((done, fail) => s.callService(args, done, (e) => fail(new Error(String(e)))));
}
