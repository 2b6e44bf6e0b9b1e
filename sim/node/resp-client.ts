/**
 * A minimal Redis connection over node:net speaking RESP2, shaped like Bun's built-in
 * `RedisClient` (`send(command, args)`, `connected`, `connect()`, `close()`, `duplicate()`,
 * `onconnect`/`onclose`) so that BullMQ drives it through its own Bun adapter
 * (bullmq/dist/esm/classes/bun-redis-client.js: Lua scripts, pipelines, MULTI/EXEC, reply
 * normalisation, reconnection with backoff all live there).
 *
 * Why it exists: BullMQ 6 no longer ships a Redis driver (ioredis, node-redis and Bun's client
 * are optional peers) and this project installs none. This file is the whole driver: one
 * socket, commands written as RESP arrays (strings and Buffers, binary-safe), replies parsed
 * incrementally and matched to requests in order (Redis answers in order on one connection).
 * No offline queue: a command sent while disconnected fails at once with "Connection closed",
 * which BullMQ's adapter turns into its ConnectionClosedError and retries after reconnecting.
 */
import { connect, type Socket } from 'node:net';

/** Where to connect (sim/node/sweep-queue.ts parses the URL). */
export interface RespTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
}

/** A Redis error reply (-ERR …, -NOSCRIPT …): the message is Redis's text. */
export class RedisReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisReplyError';
  }
}

type Reply = string | number | null | Reply[] | RedisReplyError;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

const CRLF = Buffer.from('\r\n');

/** One RESP value's end in `buf` from `at`, and the value; null when the buffer holds less. */
function parseReply(buf: Buffer, at: number): { value: Reply; end: number } | null {
  if (at >= buf.length) return null;
  const eol = buf.indexOf(CRLF, at);
  if (eol < 0) return null;
  const type = buf[at];
  const line = buf.toString('utf8', at + 1, eol);
  switch (type) {
    case 0x2b: // '+'
      return { value: line, end: eol + 2 };
    case 0x2d: // '-'
      return { value: new RedisReplyError(line), end: eol + 2 };
    case 0x3a: // ':'
      return { value: Number(line), end: eol + 2 };
    case 0x24: {
      // '$' bulk string
      const n = Number(line);
      if (n < 0) return { value: null, end: eol + 2 };
      const start = eol + 2;
      if (buf.length < start + n + 2) return null;
      return { value: buf.toString('utf8', start, start + n), end: start + n + 2 };
    }
    case 0x2a: {
      // '*' array (nested values may be errors: kept as values, as in EXEC replies)
      const n = Number(line);
      if (n < 0) return { value: null, end: eol + 2 };
      const items: Reply[] = [];
      let pos = eol + 2;
      for (let k = 0; k < n; k++) {
        const r = parseReply(buf, pos);
        if (r === null) return null;
        items.push(r.value);
        pos = r.end;
      }
      return { value: items, end: pos };
    }
    default:
      throw new Error(`Redis protocol error: unexpected reply type ${JSON.stringify(String.fromCharCode(type))}`);
  }
}

/** A command as RESP: `*n`, then each argument as a bulk string. */
function encodeCommand(command: string, args: readonly unknown[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length + 1}\r\n$${Buffer.byteLength(command)}\r\n${command}\r\n`)];
  for (const a of args) {
    const b = Buffer.isBuffer(a) ? a : Buffer.from(a === null || a === undefined ? '' : String(a));
    parts.push(Buffer.from(`$${b.length}\r\n`), b, CRLF);
  }
  return Buffer.concat(parts);
}

export class RespClient {
  connected = false;
  onconnect: (() => void) | null = null;
  onclose: ((error?: Error) => void) | null = null;
  onerror: ((error: Error) => void) | null = null;
  private socket: Socket | null = null;
  private pending: Pending[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private connecting: Promise<void> | null = null;

  /** `target`; `name`: the connection's CLIENT SETNAME (BullMQ counts a queue's workers by it). */
  constructor(readonly target: RespTarget, readonly name: string | null = null) {}

  /** Opens the socket (AUTH and SELECT first when the target asks); resolves when commands can go. */
  connect(): Promise<void> {
    if (this.connected) return Promise.resolve();
    if (this.connecting !== null) return this.connecting;
    this.connecting = new Promise<void>((ok, fail) => {
      const socket = connect({ host: this.target.host, port: this.target.port });
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 10_000);
      this.socket = socket;
      this.buf = Buffer.alloc(0);
      let opened = false;
      socket.on('data', (d) => this.onData(d));
      socket.on('error', (e) => {
        if (!opened) fail(e);
        this.onerror?.(e);
      });
      socket.on('close', () => {
        this.connecting = null;
        if (!opened) return fail(new Error('Connection closed'));
        this.dropped(new Error('Connection closed'));
      });
      socket.on('connect', () => {
        opened = true;
        const setup: Promise<unknown>[] = [];
        if (this.target.password !== undefined) setup.push(this.write('AUTH', this.target.username !== undefined ? [this.target.username, this.target.password] : [this.target.password]));
        if (this.target.db !== 0) setup.push(this.write('SELECT', [String(this.target.db)]));
        if (this.name !== null) setup.push(this.write('CLIENT', ['SETNAME', this.name]));
        Promise.all(setup).then(
          () => {
            this.connected = true;
            this.connecting = null;
            ok();
            this.onconnect?.();
          },
          (e: Error) => {
            fail(e);
            socket.destroy();
          },
        );
      });
    });
    return this.connecting;
  }

  /** Sends one command; the promise settles with its reply (an error reply rejects). */
  send(command: string, args: readonly unknown[] = []): Promise<any> {
    if (!this.connected || this.socket === null) return Promise.reject(new Error('Connection closed'));
    return this.write(command, args);
  }

  private write(command: string, args: readonly unknown[]): Promise<any> {
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.socket!.write(encodeCommand(command, args));
    });
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    let at = 0;
    for (;;) {
      let r: ReturnType<typeof parseReply>;
      try {
        r = parseReply(this.buf, at);
      } catch (e) {
        this.socket?.destroy(e as Error);
        return;
      }
      if (r === null) break;
      at = r.end;
      const p = this.pending.shift();
      if (p === undefined) continue; // a reply nobody waits for (cannot happen on RESP2)
      if (r.value instanceof RedisReplyError) p.reject(r.value);
      else p.resolve(r.value);
    }
    this.buf = at === this.buf.length ? Buffer.alloc(0) : this.buf.subarray(at);
  }

  private dropped(e: Error): void {
    const was = this.connected;
    this.connected = false;
    this.socket = null;
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) p.reject(e);
    if (was) this.onclose?.(e);
  }

  /** Closes the socket; commands in flight fail with "Connection closed". */
  close(): void {
    const s = this.socket;
    this.dropped(new Error('Connection closed'));
    s?.destroy();
  }

  /** The same as close() (BullMQ recognises a handed-in client by connect, disconnect and duplicate). */
  disconnect(): void {
    this.close();
  }

  /**
   * A new, unconnected client to the same server (BullMQ's blocking connection, reconnects).
   * Synchronous: BullMQ duplicates a handed-in client without awaiting (its Bun adapter awaits,
   * which takes a plain value as well).
   */
  duplicate(opts?: { name?: string }): RespClient {
    return new RespClient(this.target, opts?.name ?? this.name);
  }
}
