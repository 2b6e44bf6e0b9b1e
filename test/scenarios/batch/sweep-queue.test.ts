/**
 * `terrawheel sweep --queue` and `terrawheel worker` (issue #31) against a real redis-server
 * started by this file (AOF on: one test restarts it and needs its data back). Tiny runs (a 21 ×
 * 21 terrain, 4 runs of 1.5 s); the workers are real processes that are killed for real. Every
 * test compares results.csv with the same sweep run in this process (the reference), byte for byte.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../sim/node/cli';
import { loadSweep, runSweep } from '../../../sim/node/sweep';
import { closeQueue, parseQueueUrl, probeRedis, redisConnection, QUEUE_ATTEMPTS, QUEUE_PREFIX, runSweepOnQueue, sweepQueueName, SWEEP_EVENTS_KEY, SWEEP_REGISTRY_KEY, type QueueSweepSummary } from '../../../sim/node/sweep-queue';
import { freePort, makeTlsFiles, RedisServer, startRedis, waitFor, WorkerProcess } from './redis-harness';

const ROOT = resolve(__dirname, '../../..');
const TINY = resolve(__dirname, 'fixtures/tiny.json');
const tmp = mkdtempSync(join(tmpdir(), 'tw-queue-'));

/** The tiny 2 × 2 sweep (runs of `duration` s) with `patch` on top, written to a file of its own. */
let fileNo = 0;
function writeSweep(patch: Record<string, unknown> = {}): string {
  const path = join(tmp, `sweep-${fileNo++}.json`);
  const json = {
    format: 'terrawheel-sweep',
    version: 1,
    name: 'tiny queue',
    base: TINY,
    axes: [
      { path: 'robot.maxTorque', values: [10, 27] },
      { path: 'materials.ground.friction', values: [0.4, 0.8] },
    ],
    stop: { duration: 1.5 },
    metrics: ['distance', 'success', 'maxWheelDepth', 'meanSlip', 'maxTilt'],
    ...patch,
  };
  writeFileSync(path, JSON.stringify(json));
  return path;
}

let redis: RedisServer;
let reference = '';
const sweepPath = writeSweep();
const workers: WorkerProcess[] = [];

function worker(extra: string[] = []): WorkerProcess {
  // a short lock so a killed worker's run comes back within seconds (not a timing assertion:
  // only how long the test waits)
  const w = new WorkerProcess(redis.url, ['--lock-duration', '3', ...extra]);
  workers.push(w);
  return w;
}

function rowFiles(out: string): string[] {
  return readdirSync(join(out, 'rows')).filter((f) => f.endsWith('.json')).sort();
}

/** A BullMQ view of a sweep's queue, for checking Redis's state from the test. */
async function withQueue<T>(name: string, f: (q: Queue) => Promise<T>): Promise<T> {
  const conn = redisConnection(parseQueueUrl(redis.url));
  const q = new Queue(name, { connection: conn, prefix: QUEUE_PREFIX });
  try {
    return await f(q);
  } finally {
    await closeQueue(q, conn);
  }
}

/** The registry's change stream (what blocked workers wake on): [change, queue] per entry. */
async function registryChanges(): Promise<[string, string][]> {
  const c = redisConnection(parseQueueUrl(redis.url));
  try {
    return (await c.xrange(SWEEP_EVENTS_KEY, '-', '+')).map(([, fields]) => [fields[0], fields[1]] as [string, string]);
  } finally {
    c.disconnect();
  }
}

async function registry(): Promise<string[]> {
  const c = redisConnection(parseQueueUrl(redis.url));
  try {
    return (await c.smembers(SWEEP_REGISTRY_KEY)) as string[];
  } finally {
    c.disconnect();
  }
}

beforeAll(async () => {
  redis = await startRedis(true);
  const local = await runSweep({ sweepPath, out: join(tmp, 'local'), workers: 1 });
  expect(local.failed).toBe(0);
  reference = readFileSync(join(tmp, 'local', 'results.csv'), 'utf8');
}, 300_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await redis?.dispose();
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('bad input: clear errors before anything starts', () => {
  it('a bad URL names what is wrong', () => {
    expect(() => parseQueueUrl('localhost:6379')).toThrow(/the scheme must be redis:\/\//);
    expect(() => parseQueueUrl('not a url')).toThrow(/not a URL: "not a url" \(expected redis:\/\/host:port/);
    expect(() => parseQueueUrl('http://127.0.0.1:6379')).toThrow(/the scheme must be redis:\/\/ \(or rediss:\/\/ for TLS\), got http:\/\//);
    expect(parseQueueUrl('rediss://redis.example:6380')).toMatchObject({ tls: true, host: 'redis.example', port: 6380 });
    expect(parseQueueUrl('redis://redis.example')).toMatchObject({ tls: false, port: 6379 });
    expect(() => parseQueueUrl('redis://127.0.0.1:6379/99')).toThrow(/the database after the port must be a number from 0 to 15, got "99"/);
    expect(parseQueueUrl('redis://:secret@10.0.0.5:6380/2')).toMatchObject({ host: '10.0.0.5', port: 6380, db: 2, password: 'secret' });
  });

  it('Redis unreachable: the URL and the reason, and no output directory', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    await expect(probeRedis(parseQueueUrl(url))).rejects.toThrow(`cannot reach Redis at ${url}: ECONNREFUSED`);
    const out = join(tmp, 'never-unreachable');
    await expect(runSweepOnQueue({ sweepPath, out, queue: url })).rejects.toThrow(`cannot reach Redis at ${url}`);
    expect(existsSync(out)).toBe(false);
  });

  it('a bad sweep file is refused before Redis is asked (a typo, a path naming nothing, 1e7 runs, a missing URDF)', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`; // nothing there: the sweep's own error must come first
    const out = join(tmp, 'never-bad');
    await expect(runSweepOnQueue({ sweepPath: writeSweep({ stop: { duraton: 1 } }), out, queue: url })).rejects.toThrow(/stop: unknown field "duraton"/);
    await expect(runSweepOnQueue({ sweepPath: writeSweep({ axes: [{ path: 'robot.motor', values: [1] }] }), out, queue: url })).rejects.toThrow(/axes\[0\] \(robot\.motor\) = 1: .*unknown field "motor"/);
    await expect(runSweepOnQueue({ sweepPath: writeSweep({ sample: { kind: 'random', count: 1e7, seed: 1 } }), out, queue: url })).rejects.toThrow(/expands to 10,000,000 runs/);
    await expect(runSweepOnQueue({ sweepPath: writeSweep({ axes: [{ path: 'robot.urdf', values: ['missing.urdf'] }] }), out, queue: url })).rejects.toThrow(/missing\.urdf/);
    await expect(runSweepOnQueue({ sweepPath, out, queue: 'redis//oops' })).rejects.toThrow(/--queue: not a URL/);
    expect(existsSync(out)).toBe(false);
  });

  it('the CLI: worker needs --queue; --workers does not go with --queue', async () => {
    const io = () => {
      const o = { out: '', err: '' };
      return { o, io: { out: (t: string) => (o.out += t), err: (t: string) => (o.err += t) } };
    };
    const a = io();
    expect(await runCli(['worker'], a.io)).toBe(2);
    expect(a.o.err).toMatch(/worker: --queue <redis:\/\/host:port> is required/);
    const b = io();
    expect(await runCli(['sweep', sweepPath, '--out', join(tmp, 'x'), '--queue', redis.url, '--workers', '2'], b.io)).toBe(2);
    expect(b.o.err).toMatch(/--workers is for the local pool/);
    const c = io();
    expect(await runCli(['worker', '--queue', 'redis://127.0.0.1:1', '--concurency', '2'], c.io)).toBe(2);
    expect(c.o.err).toMatch(/did you mean --concurrency\?/);
  });
});

describe('across two queue workers', () => {
  it('a sweep through two workers writes the same results.csv as one process; re-running the command enqueues nothing twice', async () => {
    const out = join(tmp, 'two');
    const name = sweepQueueName(loadSweep(sweepPath), resolve(out));
    // The coordinator as a process, with no worker yet: it enqueues, then is killed.
    const first = spawn(process.execPath, [join(ROOT, 'bin/terrawheel.mjs'), 'sweep', sweepPath, '--out', out, '--queue', redis.url], { cwd: ROOT, stdio: 'ignore' });
    await waitFor('the first coordinator to enqueue 4 runs', () => withQueue(name, async (q) => (await q.getWaitingCount()) === 4));
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    // The same command again, now in this process, with two workers: nothing is enqueued twice.
    const again = runSweepOnQueue({ sweepPath, out, queue: redis.url });
    await waitFor('the second coordinator to register', async () => (await registry()).includes(name));
    expect(await withQueue(name, (q) => q.count())).toBe(4);
    worker();
    worker();
    const s = await again;
    expect(s.runs).toBe(4);
    expect(s.computed).toBe(4);
    expect(s.deadLetter).toEqual([]);
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(reference);
    expect(rowFiles(out)).toEqual(['r0000.json', 'r0001.json', 'r0002.json', 'r0003.json']);
    // done: the queue is gone from Redis and from the registry, and each registration and the
    // removal were announced on the change stream the idle workers block on
    expect(await registry()).not.toContain(name);
    expect((await registryChanges()).filter(([, q]) => q === name)).toEqual([['added', name], ['added', name], ['removed', name]]);
    expect(await withQueue(name, (q) => q.count())).toBe(0);
  }, 300_000);
});

describe('a sweep larger than its enqueue window', () => {
  it('keeps at most the window of runs in Redis and enqueues the rest as rows come back: the same table', async () => {
    const out = join(tmp, 'window');
    // no worker: nothing leaves the queue until one starts
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    const path = writeSweep({ name: 'window' });
    const name = sweepQueueName(loadSweep(path), resolve(out));
    const lines: string[] = [];
    const sweep = runSweepOnQueue({ sweepPath: path, out, queue: redis.url }, undefined, (l) => lines.push(l), 2);
    await waitFor('the window to fill', () => lines.some((l) => /^enqueued 2 of 4 runs \(a window of 2\)/.test(l)));
    expect(await withQueue(name, (q) => q.count())).toBe(2);
    worker();
    const s = await sweep;
    expect(s.computed).toBe(4);
    expect(s.deadLetter).toEqual([]);
    expect(rowFiles(out)).toHaveLength(4);
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(reference);
  }, 300_000);
});

describe('TLS (rediss://)', () => {
  it('a sweep through a TLS-only redis-server writes the same table; a certificate this process does not trust is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-tls-'));
    const files = makeTlsFiles(dir);
    const server = new RedisServer(await freePort(), false, files);
    await server.start();
    try {
      await expect(probeRedis(parseQueueUrl(server.url))).rejects.toThrow(/^cannot reach Redis at rediss:\/\/127\.0\.0\.1:\d+: .*NODE_EXTRA_CA_CERTS=<ca\.pem>/);
      // the CLI and a worker that trust the test CA
      const env = { ...process.env, NODE_EXTRA_CA_CERTS: files.ca };
      const w = new WorkerProcess(server.url, [], env);
      workers.push(w);
      const out = join(tmp, 'tls');
      const cli = spawn(process.execPath, [join(ROOT, 'bin/terrawheel.mjs'), 'sweep', sweepPath, '--out', out, '--queue', server.url], { cwd: ROOT, env, stdio: 'ignore' });
      expect(await new Promise((r) => cli.once('exit', r))).toBe(0);
      expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(reference);
      await w.kill('SIGTERM');
    } finally {
      await server.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('faults', () => {
  it('kill -9 a worker mid-run: every run finishes exactly once, the table equals the reference', async () => {
    const out = join(tmp, 'kill');
    // only the doomed worker runs at first: its first run (a cold thread compiling the simulator)
    // is still going when it is killed
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    const doomed = worker();
    const sweep = runSweepOnQueue({ sweepPath, out, queue: redis.url });
    await waitFor('the doomed worker to start a run', () => doomed.has(/^worker: start r\d+/));
    await doomed.kill('SIGKILL');
    const started = doomed.lines.find((l) => /^worker: start r\d+/.test(l))!;
    expect(doomed.has(/^worker: done /)).toBe(false); // it died inside its first run
    worker(); // whoever is alive takes the rest, the dead worker's run after its lock expires
    const s: QueueSweepSummary = await sweep;
    expect(s.computed).toBe(4);
    expect(s.redelivered).toBeGreaterThanOrEqual(1);
    expect(s.deadLetter).toEqual([]);
    expect(rowFiles(out)).toHaveLength(4);
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(reference);
    expect(started).toMatch(/attempt 1/);
  }, 300_000);

  it('Redis stopped for 10 s mid-sweep (SIGSTOP, SIGCONT): the same table', async () => {
    const out = join(tmp, 'pause');
    worker();
    const sweep = runSweepOnQueue({ sweepPath: writeSweep({ name: 'pause' }), out, queue: redis.url });
    await waitFor('a first row', () => existsSync(join(out, 'rows')) && rowFiles(out).length >= 1);
    redis.signal('SIGSTOP');
    await new Promise((r) => setTimeout(r, 10_000)); // the outage itself, not a budget
    redis.signal('SIGCONT');
    const s = await sweep;
    expect(s.computed).toBe(4);
    expect(s.deadLetter).toEqual([]);
    expect(rowFiles(out)).toHaveLength(4);
    // the sweep file differs only in its name: the table is the reference's
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(reference);
  }, 300_000);

  it('Redis restarted (AOF) mid-sweep: the same table', async () => {
    const out = join(tmp, 'restart');
    const sweep = runSweepOnQueue({ sweepPath: writeSweep({ name: 'restart' }), out, queue: redis.url });
    await waitFor('a first row', () => existsSync(join(out, 'rows')) && rowFiles(out).length >= 1);
    await redis.stop();
    await redis.start();
    const s = await sweep;
    expect(s.computed).toBe(4);
    expect(s.deadLetter).toEqual([]);
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(reference);
  }, 300_000);

  it('a run that fails every time is a dead letter after its attempts; a run that faults is a normal row', async () => {
    const out = join(tmp, 'dead');
    // r0001's recording cannot be renamed into place (a directory holds its name): the worker
    // throws for that run, every time.
    mkdirSync(join(out, 'runs', 'r0001.mcap'), { recursive: true });
    const path = writeSweep({ name: 'dead', axes: [{ path: 'robot.position', values: [[-2, 0], [-2, 1], [100, 0]] }], stop: { duration: 0.3 }, record: true });
    const s = await runSweepOnQueue({ sweepPath: path, out, queue: redis.url });
    expect(s.deadLetter).toHaveLength(1);
    expect(s.deadLetter[0]).toMatchObject({ id: 'r0001', attempts: QUEUE_ATTEMPTS });
    expect(s.deadLetter[0].reason).toMatch(/EISDIR|directory/);
    const lines = readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n');
    expect(lines[1]).toMatch(/^r0000,.*,[0-9a-f]{16}$/);
    expect(lines[2]).toMatch(/^r0001,.*dead-letter: .*\(3 attempts\)/);
    expect(lines[3]).toMatch(/^r0002,.*load: scenario: start position \(100, 0\) is outside the terrain/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as QueueSweepSummary;
    expect(summary.deadLetter.map((d) => d.id)).toEqual(['r0001']);
    // the dead letter stays in Redis's failed set; the sweep left the registry
    expect(await withQueue(s.queue, (q) => q.getJobState('r0001'))).toBe('failed');
    expect(await registry()).not.toContain(s.queue);
  }, 300_000);
});
