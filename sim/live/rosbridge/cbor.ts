/**
 * A small CBOR encoder (RFC 8949) for rosbridge's `cbor` and `cbor-raw` compressions: maps with
 * string keys, arrays, text and byte strings, integers, float64, booleans, null. Definite
 * lengths only; integers beyond 2^53 do not occur (JSON numbers).
 *
 *   major type 0 unsigned int, 1 negative int, 2 byte string, 3 text string, 4 array, 5 map,
 *   7 simple values and floats (20 false, 21 true, 22 null, 27 float64)
 */

const utf8 = new TextEncoder();

class Writer {
  buf = new Uint8Array(256);
  view = new DataView(this.buf.buffer);
  n = 0;

  reserve(k: number): void {
    if (this.n + k <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.n + k) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** A major type with its argument, in the shortest form. */
  head(major: number, arg: number): void {
    this.reserve(9);
    const m = major << 5;
    if (arg < 24) this.buf[this.n++] = m | arg;
    else if (arg < 0x100) {
      this.buf[this.n++] = m | 24;
      this.buf[this.n++] = arg;
    } else if (arg < 0x10000) {
      this.buf[this.n++] = m | 25;
      this.view.setUint16(this.n, arg);
      this.n += 2;
    } else if (arg < 0x100000000) {
      this.buf[this.n++] = m | 26;
      this.view.setUint32(this.n, arg);
      this.n += 4;
    } else {
      this.buf[this.n++] = m | 27;
      this.view.setBigUint64(this.n, BigInt(arg));
      this.n += 8;
    }
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }
}

/** CBOR encoding of a JSON-like value (with Uint8Array as a byte string). */
export function encodeCbor(value: unknown): Uint8Array {
  const w = new Writer();
  put(w, value);
  return w.buf.slice(0, w.n);
}

function put(w: Writer, v: unknown): void {
  if (v === null || v === undefined) {
    w.head(7, 22);
  } else if (typeof v === 'boolean') {
    w.head(7, v ? 21 : 20);
  } else if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) {
      if (v >= 0) w.head(0, v);
      else w.head(1, -1 - v);
    } else {
      w.reserve(9);
      w.buf[w.n++] = 0xfb; // major 7, float64
      w.view.setFloat64(w.n, v);
      w.n += 8;
    }
  } else if (typeof v === 'string') {
    const b = utf8.encode(v);
    w.head(3, b.length);
    w.bytes(b);
  } else if (v instanceof Uint8Array) {
    w.head(2, v.length);
    w.bytes(v);
  } else if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const e of v) put(w, e);
  } else if (typeof v === 'object') {
    const keys = Object.keys(v as object);
    w.head(5, keys.length);
    for (const k of keys) {
      put(w, k);
      put(w, (v as Record<string, unknown>)[k]);
    }
  } else {
    throw new Error(`encodeCbor: cannot encode a ${typeof v}`);
  }
}
