/**
 * The rosbridge v2 protocol's client operations, parsed and checked before anything acts on
 * them: one function from the text of a WebSocket message to either a typed operation or an
 * error the server returns as a `status` message (never an exception, never a half-applied op).
 *
 * Fields (rosbridge v2 protocol specification, ROSBRIDGE_PROTOCOL.md of rosbridge_suite):
 *   advertise      topic, type                    unadvertise  topic
 *   publish        topic, msg                     subscribe    topic, type?, throttle_rate?,
 *   unsubscribe    topic                                       queue_length?, fragment_size?, compression?
 *   call_service   service, args? (object, or a list of the request's fields in order), type?
 *   service_response  service, values?, result    set_level    level
 *   auth           mac (the token), client, dest, rand, t, level, end (only mac is checked)
 * every op may carry an `id` (a string; numbers are accepted and turned into one), echoed in the
 * status and service_response messages about it.
 */

/** [bytes] Largest client message the server reads (longer ones get a status error). */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;
/** [characters] Longest topic or service name, type name or id. */
export const MAX_NAME_CHARS = 256;
/** [ms] Largest throttle_rate accepted (one minute). */
export const MAX_THROTTLE_MS = 60_000;
/** Largest queue_length accepted (messages held for a subscriber that reads slowly). */
export const MAX_QUEUE_LENGTH = 1000;

export type StatusLevel = 'info' | 'warning' | 'error' | 'none';
export const STATUS_LEVELS: readonly StatusLevel[] = ['info', 'warning', 'error', 'none'];

export type ClientOp =
  | { op: 'advertise'; id?: string; topic: string; type: string }
  | { op: 'unadvertise'; id?: string; topic: string }
  | { op: 'publish'; id?: string; topic: string; msg: unknown }
  | { op: 'subscribe'; id?: string; topic: string; type?: string; throttleRate: number; queueLength: number; compression: string }
  | { op: 'unsubscribe'; id?: string; topic: string }
  | { op: 'call_service'; id?: string; service: string; args: unknown; type?: string }
  | { op: 'service_response'; id?: string; service: string; result: boolean }
  | { op: 'set_level'; id?: string; level: StatusLevel }
  | { op: 'auth'; id?: string; mac: string };

export type ParseResult = { ok: true; op: ClientOp } | { ok: false; id?: string; error: string };

/** Ops of the protocol this server does not take (client-side services, actions, fragments). */
const UNSUPPORTED_OPS = new Set(['advertise_service', 'unadvertise_service', 'fragment', 'png', 'send_action_goal', 'cancel_action_goal', 'advertise_action', 'unadvertise_action', 'action_feedback', 'action_result', 'status']);

/** A ROS graph resource name: absolute or relative, segments of [A-Za-z_][A-Za-z0-9_]*, '~' allowed first. */
const ROS_NAME = /^~?\/?[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*$/;
/** A ROS type name: pkg/Name, or pkg/msg/Name and pkg/srv/Name (ROS 2 spelling). */
const ROS_TYPE = /^[A-Za-z][A-Za-z0-9_]*\/((msg|srv)\/)?[A-Za-z][A-Za-z0-9_]*$/;

class OpError extends Error {}

/** Parses and checks one client message (its UTF-8 text and byte length). */
export function parseClientMessage(text: string, bytes: number): ParseResult {
  if (bytes > MAX_CLIENT_MESSAGE_BYTES) return { ok: false, error: `message of ${bytes} bytes is over the limit of ${MAX_CLIENT_MESSAGE_BYTES} bytes` };
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return { ok: false, error: 'a rosbridge message is a JSON object with an "op" field' };
  const o = m as Record<string, unknown>;
  let id: string | undefined;
  try {
    id = optionalId(o.id);
    return { ok: true, op: parseOp(o, id) };
  } catch (e) {
    if (e instanceof OpError) return { ok: false, id, error: e.message };
    throw e;
  }
}

function parseOp(o: Record<string, unknown>, id: string | undefined): ClientOp {
  const op = o.op;
  if (typeof op !== 'string') throw new OpError('missing "op" (a string: advertise, publish, subscribe, call_service, …)');
  const base = id === undefined ? {} : { id };
  switch (op) {
    case 'advertise':
      return { op, ...base, topic: name(o, 'topic'), type: typeName(o, 'type', true) as string };
    case 'unadvertise':
      return { op, ...base, topic: name(o, 'topic') };
    case 'publish':
      if (!('msg' in o)) throw new OpError('publish: missing "msg"');
      return { op, ...base, topic: name(o, 'topic'), msg: o.msg };
    case 'subscribe': {
      const type = typeName(o, 'type', false);
      const compression = o.compression === undefined ? 'none' : o.compression;
      if (typeof compression !== 'string') throw new OpError('subscribe: "compression" must be a string');
      return {
        op,
        ...base,
        topic: name(o, 'topic'),
        ...(type === undefined ? {} : { type }),
        throttleRate: integer(o, 'throttle_rate', 0, MAX_THROTTLE_MS),
        queueLength: integer(o, 'queue_length', 0, MAX_QUEUE_LENGTH),
        compression,
      };
    }
    case 'unsubscribe':
      return { op, ...base, topic: name(o, 'topic') };
    case 'call_service': {
      const type = typeName(o, 'type', false);
      const args = o.args === undefined ? {} : o.args;
      if (args === null || typeof args !== 'object') throw new OpError('call_service: "args" must be an object or a list');
      return { op, ...base, service: name(o, 'service'), args, ...(type === undefined ? {} : { type }) };
    }
    case 'service_response':
      if (typeof o.result !== 'boolean') throw new OpError('service_response: "result" must be true or false');
      return { op, ...base, service: name(o, 'service'), result: o.result };
    case 'set_level': {
      const level = o.level;
      if (typeof level !== 'string' || !(STATUS_LEVELS as readonly string[]).includes(level)) throw new OpError(`set_level: "level" must be one of ${STATUS_LEVELS.join(', ')}`);
      return { op, ...base, level: level as StatusLevel };
    }
    case 'auth':
      if (typeof o.mac !== 'string' || o.mac.length > MAX_NAME_CHARS) throw new OpError('auth: "mac" must be the server\'s token (a string)');
      return { op, ...base, mac: o.mac };
    default:
      if (UNSUPPORTED_OPS.has(op)) throw new OpError(`op "${op}" is not supported by this server (it serves topics and services of the simulation; see docs/live.md)`);
      throw new OpError(`unknown op "${op.slice(0, 64)}"`);
  }
}

function optionalId(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') throw new OpError('"id" must be a string');
  if (v.length > MAX_NAME_CHARS) throw new OpError(`"id" is longer than ${MAX_NAME_CHARS} characters`);
  return v;
}

function name(o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new OpError(`${String(o.op)}: "${key}" must be a string (a ROS name such as /cmd_vel)`);
  if (v.length > MAX_NAME_CHARS) throw new OpError(`${String(o.op)}: "${key}" is longer than ${MAX_NAME_CHARS} characters`);
  if (!ROS_NAME.test(v)) throw new OpError(`${String(o.op)}: "${key}" ${JSON.stringify(v.slice(0, 64))} is not a ROS name`);
  return v.startsWith('/') ? v : `/${v.replace(/^~\/?/, '')}`;
}

function typeName(o: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const v = o[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.length > MAX_NAME_CHARS || !ROS_TYPE.test(v)) throw new OpError(`${String(o.op)}: "${key}" must be a ROS type name such as geometry_msgs/Twist`);
  return normalizeType(v);
}

/** `pkg/msg/Name` and `pkg/srv/Name` (ROS 2 spelling) as `pkg/Name`. */
export function normalizeType(t: string): string {
  return t.replace(/^([^/]+)\/(msg|srv)\//, '$1/');
}

function integer(o: Record<string, unknown>, key: string, min: number, max: number): number {
  const v = o[key];
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new OpError(`${String(o.op)}: "${key}" must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return v;
}
