/**
 * A real redis-server for one test file (no mock): started on a free loopback port in a
 * directory of its own, stopped by the file's afterAll. And `terrawheel worker` processes
 * whose stderr lines the tests wait on (state, never durations).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeRedis, parseQueueUrl } from '../../../sim/node/sweep-queue';

export const REDIS_SERVER = '/usr/bin/redis-server';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A port nothing listens on right now (the OS's pick). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => ok(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `f` until it is true (or throws after `what` never came true within the backstop). */
export async function waitFor(what: string, f: () => boolean | Promise<boolean>, backstopMs = 240_000): Promise<void> {
  const end = Date.now() + backstopMs;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await sleep(100);
  }
}

/** The files of a TLS redis-server: a CA, and a certificate it signed for 127.0.0.1 with its key. */
export interface TlsFiles {
  ca: string;
  cert: string;
  key: string;
}

/** A throw-away CA and a server certificate for 127.0.0.1 (openssl), in `dir`. */
export function makeTlsFiles(dir: string): TlsFiles {
  const f = (name: string) => join(dir, name);
  const quiet = { stdio: 'ignore' as const };
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=terrawheel test CA'], quiet);
  execFileSync('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1'], quiet);
  writeFileSync(f('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  execFileSync('openssl', ['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.pem'), '-days', '2', '-extfile', f('san.ext')], quiet);
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

/** Whether a TLS redis-server (trusting `ca`) answers PING on `port`. */
function tlsPing(port: number, ca: string): Promise<boolean> {
  return new Promise((done) => {
    const s = tlsConnect({ host: '127.0.0.1', port, ca: readFileSync(ca) });
    const end = (ok: boolean) => {
      s.destroy();
      done(ok);
    };
    s.on('secureConnect', () => s.write('PING\r\n'));
    s.on('data', (d) => end(d.toString().startsWith('+PONG')));
    s.on('error', () => end(false));
  });
}

export class RedisServer {
  proc: ChildProcess | null = null;
  readonly dir = mkdtempSync(join(tmpdir(), 'tw-redis-'));
  /** `tls`: serve TLS only (rediss://), with these files; clients are not asked for certificates. */
  constructor(readonly port: number, readonly aof: boolean, readonly tls?: TlsFiles) {}

  get url(): string {
    return `${this.tls ? 'rediss' : 'redis'}://127.0.0.1:${this.port}`;
  }

  /** Starts it (again, with the same directory: an AOF server comes back with its data) and waits for PING. */
  async start(): Promise<void> {
    const tls = this.tls;
    const ports = tls ? ['--port', '0', '--tls-port', String(this.port), '--tls-cert-file', tls.cert, '--tls-key-file', tls.key, '--tls-ca-cert-file', tls.ca, '--tls-auth-clients', 'no'] : ['--port', String(this.port)];
    const args = [...ports, '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', this.aof ? 'yes' : 'no', '--appendfsync', 'always', '--logfile', ''];
    this.proc = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    const target = parseQueueUrl(this.url);
    await waitFor(`redis-server on port ${this.port}`, async () => {
      if (tls) return tlsPing(this.port, tls.ca);
      try {
        await probeRedis(target, 1000);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** Stops it (SIGTERM: an AOF server writes its file first) and waits for the exit. */
  async stop(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (p === null || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGCONT');
    p.kill('SIGTERM');
    await exited;
  }

  signal(sig: NodeJS.Signals): void {
    this.proc?.kill(sig);
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function startRedis(aof = false): Promise<RedisServer> {
  const r = new RedisServer(await freePort(), aof);
  await r.start();
  return r;
}

/** A `terrawheel worker` process; `lines` is its stderr so far, line by line. */
export class WorkerProcess {
  readonly proc: ChildProcess;
  readonly lines: string[] = [];
  private rest = '';
  readonly exited: Promise<number | null>;

  constructor(url: string, extra: string[] = [], env: NodeJS.ProcessEnv = process.env) {
    this.proc = spawn(process.execPath, [join(ROOT, 'bin/terrawheel.mjs'), 'worker', '--queue', url, '--concurrency', '1', ...extra], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    this.proc.stderr!.on('data', (d: Buffer) => {
      const parts = (this.rest + d.toString()).split('\n');
      this.rest = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    this.exited = new Promise((r) => this.proc.once('exit', (code) => r(code)));
  }

  has(re: RegExp): boolean {
    return this.lines.some((l) => re.test(l));
  }

  async kill(sig: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill(sig);
    await this.exited;
  }
}
