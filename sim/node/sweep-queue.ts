/**
 * The Redis queue driver of `terrawheel sweep` (issue #31): `sweep --queue redis://host:port`
 * puts the runs on a BullMQ queue, `terrawheel worker --queue redis://host:port` (any number, on
 * any machine) takes them. The run itself is the same pure function as on the pool
 * (sweep-task.ts's runTask on a worker thread), so the rows, and results.csv, are the same bytes.
 *
 *   sweep (coordinator)                    Redis                          worker (× N machines)
 *   ───────────────────                    ─────                          ─────────────────────
 *   load + check everything
 *   SADD terrawheel:sweeps <queue>  ──▶  registry set  ◀── SMEMBERS when woken: one BullMQ
 *   XADD terrawheel:sweeps:events   ──▶  change stream ◀── XREAD BLOCK     Worker per listed queue
 *   addBulk(jobId = run id)         ──▶  wait list                        (wakes at once)
 *                                        active + lock  ◀── take (BullMQ's blocking fetch), run on
 *   on each completed/failed event      completed     ◀── a thread, return the row (lock renewed)
 *   (QueueEvents, XREAD BLOCK): write      failed = dead letter (attempts or stalls exhausted)
 *     rows/<id>.json once, remove the job
 *   all rows there: results.csv, summary.json, obliterate the queue, SREM + XADD
 *
 * Design choices (docs/sweeps.md says more):
 * - Rows come back **through the queue** (a completed job's return value, ~0.5 kB) and only the
 *   coordinator writes `<out>/rows/`: workers need no shared volume for results, and one process
 *   writing each row file once (atomically, keyed by id, later copies ignored) is what makes
 *   "no run counted twice" checkable. Recordings (MB each) go to `<out>/runs/` on a shared volume
 *   mounted at the same path on every machine, written to a temporary name and renamed.
 * - Inputs: a job carries the run's scenario JSON and the absolute path of the base scenario;
 *   the terrain and URDF files it names are read from that path on the worker (the same image or
 *   the same shared volume on every machine).
 * - Nothing polls while there is work: a worker blocks on the registry's change stream (woken by
 *   the XADD that registers a sweep, within a round trip) and then on BullMQ's own blocking fetch;
 *   the coordinator blocks on the queue's event stream (BullMQ's QueueEvents) and collects when a
 *   run completes or fails. The long timeouts of both blocks are only a backstop (a Redis restarted
 *   without its data, an event trimmed away).
 * - Job id = run id, queue name = a hash of (sweep, base scenario, output directory): enqueueing
 *   again adds nothing that is already there, and two sweeps never share a queue.
 * - Worker death: a job's lock lives `lockDuration` and is renewed every half of it by the
 *   worker's main thread (the simulation runs on a worker thread, so a minutes-long run never
 *   starves the renewal); a killed worker's job is found stalled by another worker's check
 *   (every `stalledInterval`) and handed out again, at most `MAX_STALLED` times. A run that throws
 *   is retried `QUEUE_ATTEMPTS` times. Either way exhausted: the job stays in BullMQ's failed set,
 *   the dead letter, and the run's row says `dead-letter: <reason>`. A run that *faults* in
 *   simulation is a normal row.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { connect, isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { ResultRow } from '../batch/run';
import { MAX_SWEEP_RUNS, type SweepRun } from '../scenario/sweep-schema';
import { sweepWorkerBundle } from './sweep-bundle';
import { faultRow, loadSweep, readRow, resultsCsv, summarize, sweepPool, sweepTask, writeAtomic, type LoadedSweep, type SweepOptions, type SweepProgress, type SweepSummary } from './sweep';
import type { SweepTask } from './sweep-task';

/** The Redis set of the queues of the sweeps in progress (workers serve each listed queue). */
export const SWEEP_REGISTRY_KEY = 'terrawheel:sweeps';
/**
 * A Redis stream with an entry (`added`/`removed` → queue name) for each change of the registry:
 * idle workers block on it (XREAD BLOCK) and read the registry when it moves.
 */
export const SWEEP_EVENTS_KEY = 'terrawheel:sweeps:events';
/** Entries the change stream keeps (approximately: XADD MAXLEN ~). */
const SWEEP_EVENTS_MAXLEN = 1000;
/** BullMQ's key prefix for our queues (a Redis shared with other BullMQ users stays apart). */
export const QUEUE_PREFIX = 'terrawheel';
/** Times a run that throws is tried before it is a dead letter. */
export const QUEUE_ATTEMPTS = 3;
/** [ms] Wait before a thrown run is tried again. */
export const RETRY_DELAY_MS = 1000;
/** Times a run whose worker died (lock expired) is handed out again before it is a dead letter. */
export const MAX_STALLED = 2;
/**
 * [s] Default lock of a run in progress. A dead worker's run is handed out again after at most
 * this plus the stalled-check interval (half of it): 45 s. Shorter finds dead workers sooner but
 * makes a live worker whose event loop or network stalls for longer than the lock lose its run
 * (it is then computed twice; the second row is ignored, so this costs time, not correctness).
 * 30 s rides through a Redis restart or a 10 s pause without a re-delivery.
 */
export const DEFAULT_LOCK_SECONDS = 30;
/**
 * [ms] Shortest time between two collection rounds of the coordinator (it collects when a run
 * completes or fails): at most 20 rounds a second however many workers finish runs, each round
 * taking up to BATCH rows. A sweep's last row waits at most this long.
 */
export const COLLECT_MIN_GAP_MS = 50;
/** [ms] The coordinator collects at least this often (a backstop for an event it missed). */
export const COLLECT_BACKSTOP_MS = 5000;
/** [ms] A worker reads the registry at least this often (a backstop for a change it missed). */
export const REGISTRY_BACKSTOP_MS = 30_000;
/** [ms] Time between two counts of the workers (CLIENT LIST is O(connections)). */
const WORKER_COUNT_EVERY_MS = 10_000;
/** Jobs per addBulk call and per page of completed jobs collected. */
const BATCH = 500;
/**
 * Runs enqueued ahead of the rows collected. A sweep of any size keeps at most this many jobs in
 * Redis (about 2 kB each: some 40 MB), topped up after each collection round: at 100 runs a second
 * (1,000 workers on 10-s runs) that is over three minutes of work waiting, and a sweep of a
 * million runs no longer needs 2 GB of Redis before its first run.
 */
export const ENQUEUE_WINDOW = 20_000;
/** [ms] How long the up-front reachability check waits for Redis. */
export const PROBE_TIMEOUT_MS = 5000;
/** How a dead letter's row's fault begins. */
export const DEAD_LETTER_FAULT = 'dead-letter:';
/** Version of the job data layout (a worker refuses a job of another version). */
export const JOB_FORMAT = 1;

export interface JobData {
  format: typeof JOB_FORMAT;
  task: SweepTask;
}

// --- the URL and the connection ---------------------------------------------------------------

/** Where to connect, parsed from a `redis://` or `rediss://` URL. */
export interface RedisTarget {
  /** The URL as given (for messages). */
  url: string;
  /** rediss://: TLS, the server's certificate checked against Node's CAs (add one with NODE_EXTRA_CA_CERTS). */
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
}

/** Checks a `redis[s]://[user:password@]host[:port][/db]` URL. Throws naming what is wrong. */
export function parseQueueUrl(text: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new Error(`--queue: not a URL: ${JSON.stringify(text)} (expected redis://host:port, e.g. redis://127.0.0.1:6379)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`--queue: ${text}: the scheme must be redis:// (or rediss:// for TLS), got ${u.protocol}//`);
  if (u.hostname === '') throw new Error(`--queue: ${text}: no host (expected redis://host:port)`);
  const port = u.port === '' ? 6379 : Number(u.port);
  const dbText = u.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || db > 15 || !/^\d*$/.test(dbText)) throw new Error(`--queue: ${text}: the database after the port must be a number from 0 to 15, got "${dbText}"`);
  if (u.search !== '' || u.hash !== '') throw new Error(`--queue: ${text}: unexpected ${u.search || u.hash} (expected redis://host:port[/db])`);
  const target: RedisTarget = { url: text, tls: u.protocol === 'rediss:', host: u.hostname.replace(/^\[|\]$/g, ''), port, db };
  if (u.password !== '') target.password = decodeURIComponent(u.password);
  if (u.username !== '' && u.password !== '') target.username = decodeURIComponent(u.username);
  return target;
}

/** TLS options of a rediss:// target: the host name checked against the certificate (SNI unless it is an address). */
function tlsOptions(target: RedisTarget): { servername?: string } {
  return isIP(target.host) === 0 ? { servername: target.host } : {};
}

/**
 * Fails fast, naming the URL, when nothing answers PING there (the queue's own connections
 * retry for ever, which is right mid-sweep and wrong at the start). Plain TCP (TLS for rediss://): a password in the
 * URL makes Redis answer -NOAUTH, which still proves it is there.
 */
export async function probeRedis(target: RedisTarget, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  await new Promise<void>((ok, fail) => {
    const socket = target.tls ? tlsConnect({ host: target.host, port: target.port, ...tlsOptions(target) }) : connect({ host: target.host, port: target.port });
    const done = (e?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (e) fail(e);
      else ok();
    };
    const timer = setTimeout(() => done(new Error(`cannot reach Redis at ${target.url}: no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    let reply = '';
    socket.on(target.tls ? 'secureConnect' : 'connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d.toString('latin1');
      if (reply.includes('\r\n')) done(/^(\+PONG|-NOAUTH|-ERR)/.test(reply) ? undefined : new Error(`${target.url} does not answer like Redis (PING → ${JSON.stringify(reply.slice(0, 40))})`));
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      // a certificate Node does not trust: say how to trust it
      const cert = target.tls && /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS/.test(e.code ?? '') ? ` (${e.message}; a private CA's certificate goes in NODE_EXTRA_CA_CERTS=<ca.pem>)` : '';
      done(new Error(`cannot reach Redis at ${target.url}: ${e.code ?? e.message}${cert}`));
    });
  });
}

/**
 * A connection for one BullMQ Queue or Worker (ioredis, BullMQ's own client). Commands wait
 * through an outage (`maxRetriesPerRequest: null`, as BullMQ asks of a worker's connection) while
 * ioredis reconnects with a capped backoff: a sweep rides out a Redis restart. BullMQ does not
 * close a connection it was handed, so the caller closes it after the Queue or Worker.
 */
export function redisConnection(target: RedisTarget): Redis {
  const conn = new Redis({
    ...(target.tls ? { tls: tlsOptions(target) } : {}),
    host: target.host,
    port: target.port,
    db: target.db,
    username: target.username,
    password: target.password,
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(100 * times, 2000),
  });
  // a refused reconnect is an 'error' event; the commands waiting on it are what matters, and
  // the Queue/Worker report their own errors (quietErrors)
  conn.on('error', () => {});
  return conn;
}

/** The queue of a sweep writing to `out`: `sweep-` and 16 hex digits of a hash of both. */
export function sweepQueueName(loaded: LoadedSweep, out: string): string {
  const h = createHash('sha256').update(JSON.stringify({ sweep: loaded.sweep, base: loaded.base, basePath: loaded.basePath, out })).digest('hex');
  return `sweep-${h.slice(0, 16)}`;
}

/** Logs a client's errors once per distinct message (an 'error' event without a listener would crash). */
function quietErrors(emitter: { on(event: 'error', f: (e: Error) => void): unknown }, log: (line: string) => void, what: string): void {
  let last = '';
  emitter.on('error', (e: Error) => {
    const m = `${what}: ${e.message}`;
    if (m !== last) log(m);
    last = m;
  });
}

// --- the coordinator: `terrawheel sweep --queue` ------------------------------------------------

export interface DeadLetter {
  id: string;
  reason: string;
  attempts: number;
}

export interface QueueSweepSummary extends SweepSummary {
  /** The BullMQ queue (key prefix `terrawheel:`). */
  queue: string;
  /** Runs that failed QUEUE_ATTEMPTS times or lost MAX_STALLED workers (their jobs stay in Redis's failed set). */
  deadLetter: DeadLetter[];
  /** Runs handed out more than once (a worker died, a lock expired, or a thrown run retried). */
  redelivered: number;
  /** Finished jobs whose row was already written (ignored). */
  duplicatesIgnored: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sleeps `ms`, or less if one of `signals` aborts (its listeners removed either way). */
function pause(ms: number, signals: AbortSignal[]): Promise<void> {
  return new Promise<void>((done) => {
    const finish = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', finish);
      done();
    };
    const timer = setTimeout(finish, ms);
    for (const s of signals) s.addEventListener('abort', finish, { once: true });
  });
}

/** Whether `e` is a lost or refused connection (wait and try again) rather than a real error. */
export function isConnectionError(e: unknown): boolean {
  const err = e as Error | null;
  return err?.name === 'ConnectionClosedError' || /Connection (is )?closed|closed unexpectedly|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH/i.test(err?.message ?? '');
}

/** [ms] Wait between tries while Redis is unreachable mid-sweep. */
const RECONNECT_WAIT_MS = 1000;

/** `f()`, tried again while it fails for a lost connection (logged once per outage). */
async function untilConnected<T>(target: RedisTarget, what: string, f: () => Promise<T>, log: (line: string) => void): Promise<T> {
  let warned = false;
  for (;;) {
    try {
      const r = await f();
      if (warned) log(`Redis at ${target.url} is back`);
      return r;
    } catch (e) {
      if (!isConnectionError(e)) throw e;
      if (!warned) log(`${what}: Redis at ${target.url} unreachable (${(e as Error).message}); waiting for it`);
      warned = true;
      await sleep(RECONNECT_WAIT_MS);
    }
  }
}

/** Adds (or removes) a sweep's queue to (from) the registry and tells the blocked workers, in one transaction. */
async function announce(conn: Redis, change: 'added' | 'removed', name: string): Promise<void> {
  const tx = conn.multi();
  if (change === 'added') tx.sadd(SWEEP_REGISTRY_KEY, name);
  else tx.srem(SWEEP_REGISTRY_KEY, name);
  tx.xadd(SWEEP_EVENTS_KEY, 'MAXLEN', '~', SWEEP_EVENTS_MAXLEN, '*', change, name);
  const replies = await tx.exec();
  const failed = replies?.find(([e]) => e !== null);
  if (failed) throw failed[0] as Error;
}

/** Closes a Queue or Worker and the connection it was handed (BullMQ leaves a handed-in connection open). */
export async function closeQueue(q: Queue | Worker, conn: Redis): Promise<void> {
  await q.close();
  conn.disconnect();
}

/** `terrawheel sweep --queue`: enqueue, collect the rows as workers return them, write the results. */
export async function runSweepOnQueue(opts: SweepOptions, progress?: SweepProgress, log: (line: string) => void = () => {}, window = ENQUEUE_WINDOW): Promise<QueueSweepSummary & { out: string; resultsCsv: string }> {
  const target = parseQueueUrl(opts.queue ?? '');
  const loaded = loadSweep(opts.sweepPath, opts.maxRuns ?? MAX_SWEEP_RUNS);
  await probeRedis(target);
  const out = resolve(opts.out);
  const rowsDir = join(out, 'rows');
  mkdirSync(rowsDir, { recursive: true });
  if (loaded.sweep.record) mkdirSync(join(out, 'runs'), { recursive: true });
  const byId = new Map<string, SweepRun>(loaded.runs.map((r) => [r.id, r]));
  const rows = new Map<string, ResultRow>();
  const todo: SweepRun[] = [];
  for (const run of loaded.runs) {
    const have = opts.resume ? readRow(join(rowsDir, `${run.id}.json`), run.id) : null;
    // a dead letter's row is not a result: a resumed sweep tries the run again
    if (have !== null && !(have.fault ?? '').startsWith(DEAD_LETTER_FAULT)) rows.set(run.id, have);
    else todo.push(run);
  }
  const total = loaded.runs.length;
  const name = sweepQueueName(loaded, out);
  const conn = redisConnection(target);
  const queue = new Queue<JobData, ResultRow>(name, {
    connection: conn,
    prefix: QUEUE_PREFIX,
    defaultJobOptions: { attempts: QUEUE_ATTEMPTS, backoff: { type: 'fixed', delay: RETRY_DELAY_MS }, removeOnComplete: false, removeOnFail: false },
  });
  quietErrors(queue, log, `queue ${target.url}`);
  const t0 = performance.now();
  let computed = 0;
  let redelivered = 0;
  let duplicatesIgnored = 0;
  let workersSeen = 0;
  const deadLetter: DeadLetter[] = [];
  let nextWorkerCount = 0;
  const registry = redisConnection(target);
  // Finished and failed runs wake the collection loop (BullMQ's event stream of this queue, read
  // with a blocking XREAD on a connection of its own).
  const eventsConn = redisConnection(target);
  const events = new QueueEvents(name, { connection: eventsConn, prefix: QUEUE_PREFIX, blockingTimeout: COLLECT_BACKSTOP_MS });
  quietErrors(events, log, `queue events ${target.url}`);
  let signalled = false;
  let wake: (() => void) | null = null;
  const onEvent = () => {
    signalled = true;
    wake?.();
  };
  events.on('completed', onEvent);
  events.on('failed', onEvent);
  /** Resolves at the next completed/failed event since the last round began, or after `ms`. */
  const nextEvent = (ms: number) =>
    new Promise<void>((done) => {
      if (signalled) return done();
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        wake = null;
        done();
      }
      wake = finish;
    });
  const retry = <T>(what: string, f: () => Promise<T>) => untilConnected(target, what, f, log);
  try {
    await retry('listening to the queue', () => events.waitUntilReady());
    await retry('registering the sweep', () => announce(registry, 'added', name));
    // Dead letters of an earlier invocation among the runs to do are tried again.
    const todoIds = new Set(todo.map((r) => r.id));
    await retry('retrying dead letters', async () => {
      for (const job of await queue.getFailed(0, -1)) if (job.id !== undefined && todoIds.has(job.id)) await job.retry('failed');
    });
    // Enqueue in a window of `window` runs ahead of the rows collected. A job whose id is already
    // in the queue (waiting, running, finished) is left as it is.
    let next = 0;
    let windowFull = false;
    const topUp = async (): Promise<void> => {
      while (next < todo.length && next - computed < window) {
        const batch: SweepRun[] = [];
        while (next < todo.length && batch.length < BATCH && next - computed + batch.length < window) {
          const run = todo[next++];
          if (!rows.has(run.id)) batch.push(run);
        }
        if (batch.length > 0) await retry('enqueueing', () => queue.addBulk(batch.map((run) => ({ name: 'run', data: { format: JOB_FORMAT, task: sweepTask(loaded, out, run) }, opts: { jobId: run.id } }))));
      }
      if (next < todo.length && !windowFull) log(`enqueued ${next} of ${todo.length} runs (a window of ${window}); the rest as rows come back`);
      windowFull = next < todo.length;
    };
    await topUp();
    const accept = (id: string, row: ResultRow | null, job: Job<JobData, ResultRow>): void => {
      if (rows.has(id)) {
        duplicatesIgnored++;
        return;
      }
      if (row === null || row.id !== id) return void log(`job ${id} returned no row of its own (${JSON.stringify(row)?.slice(0, 80)}): ignored`);
      writeAtomic(join(rowsDir, `${id}.json`), JSON.stringify(row) + '\n');
      rows.set(id, row);
      computed++;
      if (job.attemptsStarted > 1 || job.stalledCounter > 0) redelivered++;
    };
    /** One round: the finished jobs' rows written and their jobs removed, the dead letters listed. */
    const collect = async (): Promise<number> => {
      const completed = await queue.getCompleted(0, BATCH - 1);
      for (const job of completed) {
        if (job.id === undefined || !byId.has(job.id)) continue;
        accept(job.id, (job.returnvalue as ResultRow | null) ?? null, job);
        await queue.remove(job.id);
      }
      for (const job of await queue.getFailed(0, -1)) {
        const run = job.id === undefined ? undefined : byId.get(job.id);
        if (run === undefined || rows.has(run.id)) continue;
        const attempts = Math.max(job.attemptsStarted, job.attemptsMade);
        const reason = (job.failedReason ?? 'unknown').split('\n')[0].slice(0, 300);
        deadLetter.push({ id: run.id, reason, attempts });
        accept(run.id, faultRow(run, `${DEAD_LETTER_FAULT} ${reason} (${attempts} attempts)`), job);
      }
      // CLIENT LIST is O(connections): at 1,000 workers it is the costliest call, so only now and then
      if (performance.now() >= nextWorkerCount) {
        nextWorkerCount = performance.now() + WORKER_COUNT_EVERY_MS;
        workersSeen = Math.max(workersSeen, await queue.getWorkersCount());
      }
      return completed.length;
    };
    const failedCount = () => [...rows.values()].filter((r) => r.fault !== null).length;
    progress?.update(rows.size, failedCount(), total, null);
    while (rows.size < total) {
      const began = performance.now();
      signalled = false;
      const n = await retry('collecting results', collect);
      await topUp();
      const elapsed = (performance.now() - t0) / 1000;
      progress?.update(rows.size, failedCount(), total, computed > 0 ? (elapsed / computed) * (total - rows.size) : null);
      if (n < BATCH && rows.size < total) {
        await nextEvent(COLLECT_BACKSTOP_MS);
        const gap = COLLECT_MIN_GAP_MS - (performance.now() - began);
        if (gap > 0) await sleep(gap);
      }
    }
    workersSeen = Math.max(workersSeen, await queue.getWorkersCount().catch(() => 0));
    const all = loaded.runs.map((r) => rows.get(r.id) as ResultRow);
    const csv = resultsCsv(loaded.sweep, all);
    writeAtomic(join(out, 'results.csv'), csv);
    deadLetter.sort((a, b) => (a.id < b.id ? -1 : 1));
    const summary: QueueSweepSummary = { ...summarize(loaded, all, computed, workersSeen, (performance.now() - t0) / 1000), queue: name, deadLetter, redelivered, duplicatesIgnored };
    writeAtomic(join(out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    // Done: the queue leaves Redis, except the dead letters (its failed set) for inspection.
    await retry('unregistering the sweep', () => announce(registry, 'removed', name));
    if (deadLetter.length === 0) await retry('removing the queue', () => queue.obliterate({ force: true }));
    return { ...summary, out, resultsCsv: join(out, 'results.csv') };
  } finally {
    registry.disconnect();
    await events.close();
    eventsConn.disconnect();
    await closeQueue(queue, conn);
  }
}

// --- the worker: `terrawheel worker --queue` ----------------------------------------------------

export interface WorkerOptions {
  queue: string;
  /** Runs at a time (worker threads). */
  concurrency: number;
  /** [s] Lock of a run in progress (DEFAULT_LOCK_SECONDS). */
  lockSeconds?: number;
  /** [s] Exit after this long with no sweep listed (null: serve until SIGTERM/SIGINT). */
  idleExitSeconds?: number | null;
}

/** What the worker reports (stderr lines in the CLI). */
export interface WorkerLog {
  (line: string): void;
}

/** The row of one job: validates its data, runs it on the pool, renames the recording into place. */
async function processJob(job: Job<JobData, ResultRow>, run: (task: SweepTask) => Promise<ResultRow>, log: WorkerLog): Promise<ResultRow> {
  const data = job.data;
  if (data?.format !== JOB_FORMAT || typeof data.task?.input?.id !== 'string' || data.task.input.id !== job.id) {
    throw new Error(`job ${job.id}: not a terrawheel sweep run of format ${JOB_FORMAT} (a worker of another version?)`);
  }
  const t0 = performance.now();
  log(`start ${job.id} (attempt ${job.attemptsMade + 1}${job.stalledCounter > 0 ? `, ${job.stalledCounter} stalled` : ''})`);
  const final = data.task.recordPath;
  // A recording goes to a name of its own, then is renamed: a worker that lost its lock and a
  // re-delivered copy never write one file together, and a reader never sees half a file.
  const part = final === null ? null : `${final}.${hostname()}-${process.pid}-${job.attemptsMade}-${job.stalledCounter}.part`;
  try {
    const row = await run({ ...data.task, recordPath: part });
    if (part !== null && final !== null) renameSync(part, final);
    log(`done ${job.id} in ${((performance.now() - t0) / 1000).toFixed(1)} s${row.fault !== null ? ` (fault: ${row.fault})` : ''}`);
    return row;
  } catch (e) {
    if (part !== null) rmSync(part, { force: true });
    log(`failed ${job.id}: ${(e as Error).message}`);
    throw e;
  }
}

/**
 * `terrawheel worker`: serves every sweep listed in the registry, `concurrency` runs at a time on
 * a worker-thread pool, until SIGTERM/SIGINT (or `idleExitSeconds` without a sweep). Stopping
 * waits for the runs in progress.
 */
export async function runQueueWorker(opts: WorkerOptions, log: WorkerLog, stop?: AbortSignal): Promise<{ processed: number }> {
  const target = parseQueueUrl(opts.queue);
  await probeRedis(target);
  const lockMs = Math.round((opts.lockSeconds ?? DEFAULT_LOCK_SECONDS) * 1000);
  const pool = sweepPool(opts.concurrency, await sweepWorkerBundle(log), log);
  // this connection blocks on the registry's change stream between reads of the registry
  const registry = redisConnection(target);
  const workers = new Map<string, { worker: Worker<JobData, ResultRow>; conn: Redis }>();
  const closeWorker = async (w: { worker: Worker<JobData, ResultRow>; conn: Redis }) => {
    await closeQueue(w.worker, w.conn);
  };
  let processed = 0;
  let idleSince = performance.now();
  const signals = new AbortController();
  const onSignal = () => signals.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const stopped = () => signals.signal.aborted || stop?.aborted === true;
  log(`worker ${hostname()}:${process.pid}: ${opts.concurrency} thread(s), lock ${lockMs / 1000} s, waiting for sweeps on ${target.url}`);
  const stopping = new Promise<null>((done) => {
    const f = () => done(null);
    signals.signal.addEventListener('abort', f, { once: true });
    stop?.addEventListener('abort', f, { once: true });
    if (stop?.aborted) f();
  });
  try {
    // The change stream's last entry before the first read of the registry: a sweep registered
    // after that read moves the stream past it, and the blocking read below returns at once.
    let seen = await untilConnected(target, 'reading the sweeps', async () => {
      const last = await registry.xrevrange(SWEEP_EVENTS_KEY, '+', '-', 'COUNT', 1);
      return last.length > 0 ? last[0][0] : '0-0';
    }, log);
    while (!stopped()) {
      const listed = new Set(await untilConnected(target, 'reading the sweeps', () => registry.smembers(SWEEP_REGISTRY_KEY), log));
      for (const name of listed) {
        if (workers.has(name)) continue;
        const conn = redisConnection(target);
        const w = new Worker<JobData, ResultRow>(name, (job) => processJob(job, (task) => pool.run(task).then((t) => t.row), log), {
          connection: conn,
          prefix: QUEUE_PREFIX,
          concurrency: opts.concurrency,
          lockDuration: lockMs,
          stalledInterval: Math.max(1000, Math.round(lockMs / 2)),
          maxStalledCount: MAX_STALLED,
          name: `${hostname()}:${process.pid}`,
        });
        quietErrors(w, log, `worker ${name}`);
        w.on('completed', () => processed++);
        workers.set(name, { worker: w, conn });
        log(`serving ${name}`);
      }
      for (const [name, w] of workers) {
        if (listed.has(name)) continue;
        workers.delete(name);
        await closeWorker(w);
        log(`sweep ${name} finished`);
      }
      let wait = REGISTRY_BACKSTOP_MS;
      if (workers.size > 0) idleSince = performance.now();
      else if (opts.idleExitSeconds != null) {
        const left = opts.idleExitSeconds * 1000 - (performance.now() - idleSince);
        if (left <= 0) break;
        wait = Math.min(wait, Math.ceil(left));
      }
      if (stopped()) break;
      // Block until the registry changes (an XADD by a sweep starting or ending), the backstop,
      // or a stop. A stop leaves the read pending; closing the connection ends it.
      const read = registry.xread('BLOCK', wait, 'STREAMS', SWEEP_EVENTS_KEY, seen);
      read.catch(() => {});
      try {
        const got = await Promise.race([read, stopping]);
        const entries = got?.[0]?.[1];
        if (entries !== undefined && entries.length > 0) seen = entries[entries.length - 1][0];
      } catch (e) {
        if (!isConnectionError(e)) throw e;
        // Redis away: the registry read above waits for it (and logs it)
        await pause(RECONNECT_WAIT_MS, [signals.signal, ...(stop ? [stop] : [])]);
      }
    }
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await Promise.all([...workers.values()].map(closeWorker));
    registry.disconnect();
    await pool.destroy();
  }
  log(`worker stopped after ${processed} run(s)`);
  return { processed };
}
