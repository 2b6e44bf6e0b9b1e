/**
 * The ROS 1 `.msg` grammar, as far as msg-defs.ts uses it, and what the server derives from the
 * definitions: the full text with dependencies (`gendeps --cat`, the `typedefs_full_text` of
 * rosapi/topics_and_raw_types), rosapi TypeDefs (message_details), and `conform`, which checks a
 * JSON value against a type and fills what is missing with defaults, as rosbridge does for the
 * messages a client publishes.
 *
 *   line     := type[array]? name ( '=' constant )?      (comments from '#')
 *   array    := '[]' (variable) | '[N]' (exactly N)
 *   type     := primitive | 'Header' | Pkg/Name | Name    (Name: same package as the definition)
 */
import { MESSAGE_DEFINITIONS, SERVICE_DEFINITIONS } from './msg-defs';

/** A field: its resolved type (a primitive or a full message name) and its array kind. */
export interface MsgField {
  name: string;
  type: string;
  /** −1 not an array, 0 a variable-length array, N an array of exactly N. */
  array: number;
}

export interface MsgConstant {
  name: string;
  type: string;
  value: string;
}

export interface MsgSpec {
  type: string;
  fields: MsgField[];
  constants: MsgConstant[];
}

/** Longest string a client may send in one field [characters]. */
export const MAX_STRING_CHARS = 4096;
/** Most elements of one variable-length array a client may send. */
export const MAX_ARRAY_ELEMENTS = 4096;

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  byte: [-128, 127], // ROS 1 'byte' is int8 (deprecated alias)
  char: [0, 255], // ROS 1 'char' is uint8 (deprecated alias)
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  // 64-bit integers travel as JSON numbers: only the exactly representable range is accepted
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};
const PRIMITIVES = new Set([...Object.keys(INTEGER_RANGES), 'bool', 'float32', 'float64', 'string', 'time', 'duration']);

/** A primitive ROS type (not a message). */
export function isPrimitive(type: string): boolean {
  return PRIMITIVES.has(type);
}

const LINE = /^([A-Za-z][A-Za-z0-9_/]*)(?:\[(\d*)\])?\s+([A-Za-z][A-Za-z0-9_]*)\s*(?:=\s*(.*))?$/;

/** Parses one definition (a message, or one half of a service); throws naming the line. */
export function parseMsg(type: string, text: string): MsgSpec {
  const pkg = type.split('/')[0];
  const fields: MsgField[] = [];
  const constants: MsgConstant[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/#.*$/, '').trim();
    if (line === '') continue;
    const m = LINE.exec(line);
    if (m === null) throw new Error(`${type}: line ${i + 1} is not "type name" or "type NAME=value": ${JSON.stringify(lines[i])}`);
    const [, rawType, arrayLen, name, constant] = m;
    const resolved = resolveType(pkg, rawType);
    if (constant !== undefined) {
      if (arrayLen !== undefined || !isPrimitive(resolved)) throw new Error(`${type}: constant ${name} must be of a primitive type`);
      constants.push({ name, type: resolved, value: constant.trim() });
    } else {
      fields.push({ name, type: resolved, array: arrayLen === undefined ? -1 : arrayLen === '' ? 0 : Number(arrayLen) });
    }
  }
  return { type, fields, constants };
}

function resolveType(pkg: string, t: string): string {
  if (isPrimitive(t)) return t;
  if (t === 'Header') return 'std_msgs/Header';
  return t.includes('/') ? t : `${pkg}/${t}`;
}

const specCache = new Map<string, MsgSpec>();

/** The parsed definition of a message type of msg-defs.ts (or `Srv/Request`, `Srv/Response` of a service); undefined if unknown. */
export function messageSpec(type: string): MsgSpec | undefined {
  const cached = specCache.get(type);
  if (cached) return cached;
  let text = MESSAGE_DEFINITIONS[type];
  if (text === undefined) {
    const half = /^(.*)(Request|Response)$/.exec(type);
    const srv = half ? SERVICE_DEFINITIONS[half[1]] : undefined;
    if (half === null || srv === undefined) return undefined;
    const [req, res] = splitService(srv);
    text = half[2] === 'Request' ? req : res;
  }
  const spec = parseMsg(type, text);
  specCache.set(type, spec);
  return spec;
}

/** The request and response halves of a service definition. */
export function splitService(text: string): [string, string] {
  const parts = text.split(/^---\s*$/m);
  if (parts.length !== 2) throw new Error('a service definition has exactly one "---" line');
  return [parts[0], parts[1]];
}

/** Message types `type` depends on (not itself), in order of first use, depth first. */
export function dependencies(type: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>([type]);
  const visit = (t: string) => {
    const spec = messageSpec(t);
    if (!spec) throw new Error(`no definition of message type ${t}`);
    for (const f of spec.fields) {
      if (isPrimitive(f.type) || seen.has(f.type)) continue;
      seen.add(f.type);
      out.push(f.type);
      visit(f.type);
    }
  };
  visit(type);
  return out;
}

const SEPARATOR = '='.repeat(80);

/**
 * The definition with every dependency after it, each under a separator line and `MSG: type`
 * (the layout of `gendeps --cat`, ROS 1 bags and rosapi's typedefs_full_text).
 */
export function fullDefinition(type: string): string {
  const own = MESSAGE_DEFINITIONS[type];
  if (own === undefined) throw new Error(`no definition of message type ${type}`);
  let out = own.trimEnd();
  for (const dep of dependencies(type)) out += `\n${SEPARATOR}\nMSG: ${dep}\n${MESSAGE_DEFINITIONS[dep].trimEnd()}`;
  return out + '\n';
}

/** rosapi's TypeDef of one message type. */
export interface RosapiTypeDef {
  type: string;
  fieldnames: string[];
  fieldtypes: string[];
  fieldarraylen: number[];
  examples: string[];
  constnames: string[];
  constvalues: string[];
}

/** TypeDefs of `type` and its dependencies (rosapi/message_details, service_*_details). */
export function typeDefs(type: string): RosapiTypeDef[] {
  const out: RosapiTypeDef[] = [];
  for (const t of [type, ...dependencies(type)]) {
    const s = messageSpec(t);
    if (!s) throw new Error(`no definition of message type ${t}`);
    out.push({
      type: t,
      fieldnames: s.fields.map((f) => f.name),
      fieldtypes: s.fields.map((f) => f.type),
      fieldarraylen: s.fields.map((f) => f.array),
      examples: s.fields.map((f) => (f.array >= 0 ? '[]' : isPrimitive(f.type) ? exampleOf(f.type) : '{}')),
      constnames: s.constants.map((c) => c.name),
      constvalues: s.constants.map((c) => c.value),
    });
  }
  return out;
}

function exampleOf(t: string): string {
  if (t === 'string') return '';
  if (t === 'bool') return 'False';
  if (t === 'time' || t === 'duration') return '{}';
  return '0';
}

/** A JSON value of a message (what rosbridge carries). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type ConformResult = { ok: true; value: JsonValue } | { ok: false; error: string };

/**
 * Checks `value` against `type` and returns a complete message: missing fields get their
 * defaults (0, false, '', empty arrays, zero time), as rosbridge fills a partial message; an
 * unknown field, a wrong JSON type, a non-finite float, an integer out of its type's range, a
 * string over MAX_STRING_CHARS or an array over MAX_ARRAY_ELEMENTS is an error naming the field.
 * `strict`: a missing field is an error too (used to check the messages the server publishes).
 */
export function conform(type: string, value: unknown, strict = false): ConformResult {
  try {
    return { ok: true, value: conformValue(type, -1, value, type, strict) };
  } catch (e) {
    if (e instanceof ConformError) return { ok: false, error: e.message };
    throw e;
  }
}

class ConformError extends Error {}

function conformValue(type: string, array: number, v: unknown, path: string, strict: boolean): JsonValue {
  if (array >= 0) {
    if (v === undefined && !strict) return array === 0 ? [] : Array.from({ length: array }, (_, i) => conformValue(type, -1, undefined, `${path}[${i}]`, strict));
    if (!Array.isArray(v)) throw new ConformError(`${path}: expected an array of ${type}, got ${describe(v)}`);
    if (array > 0 && v.length !== array) throw new ConformError(`${path}: expected exactly ${array} elements, got ${v.length}`);
    if (v.length > MAX_ARRAY_ELEMENTS) throw new ConformError(`${path}: ${v.length} elements is over the limit of ${MAX_ARRAY_ELEMENTS}`);
    return v.map((e, i) => conformValue(type, -1, e, `${path}[${i}]`, strict));
  }
  if (isPrimitive(type)) return conformPrimitive(type, v, path, strict);
  const spec = messageSpec(type);
  if (!spec) throw new ConformError(`${path}: unknown message type ${type}`);
  if (v === undefined && !strict) v = {};
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ConformError(`${path}: expected an object (${type}), got ${describe(v)}`);
  const obj = v as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!spec.fields.some((f) => f.name === key)) throw new ConformError(`${path}: ${type} has no field "${key.slice(0, 64)}" (its fields: ${spec.fields.map((f) => f.name).join(', ')})`);
  }
  const out: { [key: string]: JsonValue } = {};
  for (const f of spec.fields) {
    if (strict && !(f.name in obj)) throw new ConformError(`${path}.${f.name}: missing`);
    out[f.name] = conformValue(f.type, f.array, obj[f.name], `${path}.${f.name}`, strict);
  }
  return out;
}

function conformPrimitive(type: string, v: unknown, path: string, strict: boolean): JsonValue {
  if (v === undefined && !strict) return type === 'string' ? '' : type === 'bool' ? false : type === 'time' || type === 'duration' ? { secs: 0, nsecs: 0 } : 0;
  if (type === 'string') {
    if (typeof v !== 'string') throw new ConformError(`${path}: expected a string, got ${describe(v)}`);
    if (v.length > MAX_STRING_CHARS) throw new ConformError(`${path}: ${v.length} characters is over the limit of ${MAX_STRING_CHARS}`);
    return v;
  }
  if (type === 'bool') {
    if (typeof v !== 'boolean') throw new ConformError(`${path}: expected true or false, got ${describe(v)}`);
    return v;
  }
  if (type === 'time' || type === 'duration') {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ConformError(`${path}: expected { secs, nsecs }, got ${describe(v)}`);
    const t = v as Record<string, unknown>;
    for (const key of Object.keys(t)) if (key !== 'secs' && key !== 'nsecs') throw new ConformError(`${path}: a ${type} has only secs and nsecs, not "${key.slice(0, 64)}"`);
    const secsType = type === 'time' ? 'uint32' : 'int32';
    return { secs: conformPrimitive(secsType, t.secs, `${path}.secs`, strict), nsecs: conformPrimitive(secsType, t.nsecs, `${path}.nsecs`, strict) };
  }
  if (typeof v !== 'number') throw new ConformError(`${path}: expected a number (${type}), got ${describe(v)}`);
  if (!Number.isFinite(v)) throw new ConformError(`${path}: expected a finite number, got ${v}`);
  const range = INTEGER_RANGES[type];
  if (range !== undefined) {
    if (!Number.isInteger(v) || v < range[0] || v > range[1]) throw new ConformError(`${path}: expected an integer in [${range[0]}, ${range[1]}] (${type}), got ${v}`);
  } else if (type === 'float32' && Math.abs(v) > 3.4028234663852886e38) {
    throw new ConformError(`${path}: ${v} is out of float32's range`);
  }
  return v;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 32 ? v.slice(0, 32) + '…' : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
