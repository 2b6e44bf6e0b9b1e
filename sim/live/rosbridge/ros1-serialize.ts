/**
 * ROS 1 wire serialisation of a message (the bytes a ROS 1 publisher sends and a bag stores),
 * driven by the definitions of msg-defs.ts: what rosbridge's `cbor-raw` compression carries and
 * what Foxglove's and Lichtblick's Rosbridge connection decode (they subscribe with cbor-raw and
 * read the bytes with a ROS 1 message reader built from rosapi's full definitions).
 *
 * Layout (little endian, no padding): integers and floats at their size; bool one byte; time and
 * duration two 32-bit integers (secs, nsecs); string a uint32 byte length then UTF-8; a variable
 * array a uint32 count then its elements; a fixed array its elements only; a nested message its
 * fields in order.
 *
 * The value must be complete (conform(type, v, true) holds): the server's own messages are.
 */
import { isPrimitive, messageSpec } from './msg-parse';

const FIXED_SIZE: Readonly<Record<string, number>> = {
  bool: 1, byte: 1, char: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8, time: 8, duration: 8,
};

const utf8 = new TextEncoder();

/** The ROS 1 serialisation of `value` as a `type` message. */
export function serializeRos1(type: string, value: unknown): Uint8Array {
  const strings: Uint8Array[] = [];
  const size = sizeOf(type, -1, value, strings);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const end = write(type, -1, value, view, out, 0, strings, { next: 0 });
  if (end !== size) throw new Error(`serializeRos1(${type}): wrote ${end} of ${size} bytes`);
  return out;
}

/** Byte size; encodes each string once, in write order, into `strings`. */
function sizeOf(type: string, array: number, v: unknown, strings: Uint8Array[]): number {
  if (array >= 0) {
    const list = v as unknown[];
    let n = array === 0 ? 4 : 0;
    for (const e of list) n += sizeOf(type, -1, e, strings);
    return n;
  }
  if (type === 'string') {
    const b = utf8.encode(v as string);
    strings.push(b);
    return 4 + b.length;
  }
  const fixed = FIXED_SIZE[type];
  if (fixed !== undefined) return fixed;
  const spec = messageSpec(type);
  if (!spec) throw new Error(`serializeRos1: unknown type ${type}`);
  const obj = v as Record<string, unknown>;
  let n = 0;
  for (const f of spec.fields) n += sizeOf(f.type, f.array, obj[f.name], strings);
  return n;
}

function write(type: string, array: number, v: unknown, view: DataView, bytes: Uint8Array, o: number, strings: Uint8Array[], cursor: { next: number }): number {
  if (array >= 0) {
    const list = v as unknown[];
    if (array === 0) {
      view.setUint32(o, list.length, true);
      o += 4;
    }
    for (const e of list) o = write(type, -1, e, view, bytes, o, strings, cursor);
    return o;
  }
  if (isPrimitive(type)) return writePrimitive(type, v, view, bytes, o, strings, cursor);
  const spec = messageSpec(type)!;
  const obj = v as Record<string, unknown>;
  for (const f of spec.fields) o = write(f.type, f.array, obj[f.name], view, bytes, o, strings, cursor);
  return o;
}

function writePrimitive(type: string, v: unknown, view: DataView, bytes: Uint8Array, o: number, strings: Uint8Array[], cursor: { next: number }): number {
  switch (type) {
    case 'string': {
      const b = strings[cursor.next++];
      view.setUint32(o, b.length, true);
      bytes.set(b, o + 4);
      return o + 4 + b.length;
    }
    case 'bool': view.setUint8(o, v ? 1 : 0); return o + 1;
    case 'byte': case 'int8': view.setInt8(o, v as number); return o + 1;
    case 'char': case 'uint8': view.setUint8(o, v as number); return o + 1;
    case 'int16': view.setInt16(o, v as number, true); return o + 2;
    case 'uint16': view.setUint16(o, v as number, true); return o + 2;
    case 'int32': view.setInt32(o, v as number, true); return o + 4;
    case 'uint32': view.setUint32(o, v as number, true); return o + 4;
    case 'int64': view.setBigInt64(o, BigInt(v as number), true); return o + 8;
    case 'uint64': view.setBigUint64(o, BigInt(v as number), true); return o + 8;
    case 'float32': view.setFloat32(o, v as number, true); return o + 4;
    case 'float64': view.setFloat64(o, v as number, true); return o + 8;
    case 'time': case 'duration': {
      const t = v as { secs: number; nsecs: number };
      if (type === 'time') view.setUint32(o, t.secs, true);
      else view.setInt32(o, t.secs, true);
      if (type === 'time') view.setUint32(o + 4, t.nsecs, true);
      else view.setInt32(o + 4, t.nsecs, true);
      return o + 8;
    }
  }
  throw new Error(`serializeRos1: unknown primitive ${type}`);
}
