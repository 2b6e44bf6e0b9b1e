/**
 * describeValue: a short, readable rendering of any value for an error message, that never throws.
 *
 * Error messages quote the bad value ("got [1, NaN]"), and the value came from a stranger's file:
 * it may be 20,000 arrays deep (JSON.stringify recurses until the stack overflows), cyclic, carry
 * getters or proxies that throw, or an own "toString": 1 (String(v) then throws a TypeError). The
 * message builder must not be the thing that crashes, so this walks the value itself with three
 * bounds and reads every property inside a try:
 *
 *   depth    DESCRIBE_MAX_DEPTH levels, deeper containers print as [...] / {...}
 *   breadth  DESCRIBE_MAX_ITEMS elements or keys per container, then "… N more"
 *   length   the whole text cut at `maxLength` characters (default DESCRIBE_MAX_LENGTH) with "..."
 *
 * The layout is JSON's compact one ([0.1,-1], {"a":1}) so messages read as the file did, except that
 * numbers print as JavaScript writes them (NaN, Infinity, -Infinity, -0 as 0), not as JSON's null,
 * because "got null" for NaN sends the reader looking for the wrong bug. Strings are JSON-quoted
 * (so "" and " " are visible) and cut to the length budget before quoting. Functions, symbols,
 * bigints and typed arrays get a short tag. The output is for people, not for parsing back.
 */

/** [levels] Containers nested deeper than this print as [...] or {...}. */
export const DESCRIBE_MAX_DEPTH = 3;

/** [-] Elements or keys shown per array or object before "… N more". */
export const DESCRIBE_MAX_ITEMS = 8;

/** [characters] Default length of the whole description (longer is cut and ends with "..."). */
export const DESCRIBE_MAX_LENGTH = 80;

/**
 * Describe `value` for an error message in at most `maxLength` characters. Never throws, never
 * recurses deeper than DESCRIBE_MAX_DEPTH, and does no more than O(DESCRIBE_MAX_ITEMS^depth) work
 * whatever the value's size.
 */
export function describeValue(value: unknown, maxLength: number = DESCRIBE_MAX_LENGTH): string {
  const limit = Number.isInteger(maxLength) && maxLength >= 8 ? maxLength : DESCRIBE_MAX_LENGTH;
  let s: string;
  try {
    s = describe(value, 0, [], limit);
  } catch {
    // Only reachable through an engine oddity (e.g. out of memory while concatenating); stay safe.
    s = '<value that cannot be described>';
  }
  return s.length > limit ? `${s.slice(0, limit - 3)}...` : s;
}

function describe(v: unknown, depth: number, seen: object[], budget: number): string {
  switch (typeof v) {
    case 'undefined':
      return 'undefined';
    case 'number':
      return Object.is(v, -0) ? '0' : String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return `${v.toString()}n`;
    case 'string':
      return quote(v, budget);
    case 'symbol':
      return 'Symbol()';
    case 'function':
      return '<function>';
    default:
      break;
  }
  if (v === null) return 'null';
  const obj = v as object;
  if (seen.includes(obj)) return '<cycle>';
  if (ArrayBuffer.isView(obj)) return typedArrayTag(obj);
  let isArray = false;
  try {
    isArray = Array.isArray(obj);
  } catch {
    return '<object>'; // a revoked Proxy throws here
  }
  if (depth >= DESCRIBE_MAX_DEPTH) return isArray ? '[...]' : '{...}';
  seen.push(obj);
  try {
    return isArray ? describeArray(obj as unknown[], depth, seen, budget) : describeObject(obj, depth, seen, budget);
  } finally {
    seen.pop();
  }
}

function describeArray(a: unknown[], depth: number, seen: object[], budget: number): string {
  const n = safeLength(a);
  const shown = Math.min(n, DESCRIBE_MAX_ITEMS);
  const parts: string[] = [];
  let used = 2;
  for (let k = 0; k < shown && used < budget; k++) {
    const part = describeProperty(a, k, depth + 1, seen, budget - used);
    parts.push(part);
    used += part.length + 1;
  }
  if (n > parts.length) parts.push(`… ${n - parts.length} more`);
  return `[${parts.join(',')}]`;
}

function describeObject(o: object, depth: number, seen: object[], budget: number): string {
  let keys: string[];
  try {
    keys = Object.keys(o);
  } catch {
    return '<object>';
  }
  const shown = Math.min(keys.length, DESCRIBE_MAX_ITEMS);
  const parts: string[] = [];
  let used = 2;
  for (let k = 0; k < shown && used < budget; k++) {
    const key = keys[k];
    const part = `${quote(key, budget)}:${describeProperty(o, key, depth + 1, seen, budget - used)}`;
    parts.push(part);
    used += part.length + 1;
  }
  if (keys.length > parts.length) parts.push(`… ${keys.length - parts.length} more`);
  return `{${parts.join(',')}}`;
}

/** JSON-quoted string, cut to about `budget` characters first so a 100 MB string costs nothing. */
function quote(s: string, budget: number): string {
  const cut = s.length > budget ? `${s.slice(0, Math.max(0, budget))}…` : s;
  return JSON.stringify(cut);
}

/** Read one property (a getter or a Proxy trap may throw) and describe it. */
function describeProperty(o: object, key: string | number, depth: number, seen: object[], budget: number): string {
  let v: unknown;
  try {
    v = (o as Record<string | number, unknown>)[key];
  } catch {
    return '<getter threw>';
  }
  return describe(v, depth, seen, budget);
}

function safeLength(a: unknown[]): number {
  try {
    const n = a.length;
    return Number.isInteger(n) && n >= 0 ? n : 0;
  } catch {
    return 0;
  }
}

function typedArrayTag(v: ArrayBufferView): string {
  let name = 'ArrayBufferView';
  let length = v.byteLength;
  try {
    name = Object.prototype.toString.call(v).slice(8, -1);
    const n = (v as unknown as { length?: unknown }).length;
    if (typeof n === 'number') length = n;
  } catch {
    // keep the defaults
  }
  return `${name}(${length})`;
}
