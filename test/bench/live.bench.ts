/**
 * Live link benchmark (issue #32): the Foxglove WebSocket server over a LiveSession of the default
 * scenario, in this process; the clients are separate Node processes (test/bench/live-client.mjs)
 * with the real FoxgloveClient, on loopback.
 *
 *  1. Lockstep step round trip: a client calls /terrawheel/step {steps: 1} and waits for the
 *     answer, one call at a time (the server steps, sends the state, answers): median and p99 of
 *     N calls after 20 warm-up calls.
 *  2. Streaming cost: the session free-runs as fast as the CPU allows (time scale Infinity:
 *     batches of 8 steps back to back, sockets served in between) for WINDOW_S seconds, with three clients either idle (connected, no subscription) or
 *     subscribed to every channel at the default 30 Hz; rounds interleaved, the sim rate (steps
 *     per wall second) is the median of ROUNDS rounds each. The slowdown is 1 − with/without.
 *
 * The machine is shared (2 cores, other work running): the numbers move from run to run; the
 * interleaving keeps the comparison fair, not the absolute rates stable.
 *
 * Run: `npm run bench -- live` (or `-- --quick live`).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LiveSession } from '../../sim/live/session';
import { startFoxgloveServer } from '../../sim/live/foxglove-server';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const SCENARIO = resolve(HERE, '../../assets/scenarios/default.json');
const CLIENT = join(HERE, 'live-client.mjs');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

/** A streaming client process: send it a line, await the line it answers with. */
class StreamClient {
  private lines: string[] = [];
  private waiters: ((l: string) => void)[] = [];
  constructor(readonly proc: ChildProcessWithoutNullStreams) {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += String(d);
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const w = this.waiters.shift();
        if (w) w(line);
        else this.lines.push(line);
      }
    });
  }
  next(): Promise<string> {
    const l = this.lines.shift();
    return l !== undefined ? Promise.resolve(l) : new Promise((r) => this.waiters.push(r));
  }
  async send(cmd: string): Promise<string> {
    this.proc.stdin.write(cmd + '\n');
    return this.next();
  }
}

function wait(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export default async function run(ctx: BenchContext): Promise<void> {
  const N = ctx.quick ? 200 : 2000;
  const ROUNDS = ctx.quick ? 2 : 5;
  const WINDOW_S = ctx.quick ? 2 : 5;

  // 1. lockstep round trip, without and with the state (/odom) of every step
  {
    const session = await LiveSession.open(SCENARIO, { lockstep: true });
    const server = await startFoxgloveServer(session, { port: 0, log: () => undefined });
    try {
      console.log('\n| lockstep step round trip (1 step, loopback) | median | p99 | calls |');
      console.log('|---|---|---|---|');
      for (const odom of [false, true]) {
        const out = await new Promise<string>((ok, fail) => {
          const p = spawn(process.execPath, [CLIENT, 'rtt', server.url, String(N), ...(odom ? ['odom'] : [])]);
          let s = '';
          let e = '';
          p.stdout.on('data', (d) => (s += String(d)));
          p.stderr.on('data', (d) => (e += String(d)));
          p.on('exit', (code) => (code === 0 ? ok(s) : fail(new Error(`rtt client exited ${code}: ${e}`))));
        });
        const { rttMs: rtt, odomMessages } = JSON.parse(out) as { rttMs: number[]; odomMessages: number };
        const what = odom ? `subscribed to /odom (${odomMessages} messages received)` : 'no subscription';
        console.log(`| /terrawheel/step {steps: 1}, ${what} | ${median(rtt).toFixed(2)} ms | ${pct(rtt, 0.99).toFixed(2)} ms | ${rtt.length} |`);
      }
    } finally {
      await server.close();
      await session.close();
    }
  }

  // 2. streaming to three clients
  const session = await LiveSession.open(SCENARIO, { timeScale: Infinity, running: false });
  const server = await startFoxgloveServer(session, { port: 0, log: () => undefined });
  const clients: StreamClient[] = [];
  try {
    for (let k = 0; k < 3; k++) {
      const c = new StreamClient(spawn(process.execPath, [CLIENT, 'stream', server.url]));
      if ((await c.next()) !== 'connected') throw new Error('stream client did not connect');
      clients.push(c);
    }
    const cpuMsPerSimS: { idle: number[]; streaming: number[] } = { idle: [], streaming: [] };
    /** Sim steps per wall second over one window; records this process's CPU per simulated second. */
    const window = async (into: number[] | null = null): Promise<number> => {
      const s0 = session.stepCount;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      session.resume();
      await wait(WINDOW_S * 1000);
      session.pause();
      await session.idle();
      const c = process.cpuUsage(c0);
      const steps = session.stepCount - s0;
      into?.push((c.user + c.system) / 1000 / (steps * session.info().dt));
      return steps / ((performance.now() - t0) / 1000);
    };
    await window(); // warm-up
    // at real time (time scale 1): the realtime factor with the clients idle and streaming
    session.setTimeScale(1);
    const rtIdle: number[] = [];
    const rtStreaming: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      await session.reset();
      rtIdle.push((await window()) * session.info().dt);
      for (const c of clients) if ((await c.send('sub')) !== 'streaming') throw new Error('no stream');
      rtStreaming.push((await window()) * session.info().dt);
      for (const c of clients) await c.send('unsub');
    }
    console.log('\n| time scale 1 (real time) | realtime factor (median) | rounds |');
    console.log('|---|---|---|');
    console.log(`| 3 clients connected, none subscribed | ${median(rtIdle).toFixed(3)} | ${rtIdle.map((x) => x.toFixed(3)).join(', ')} |`);
    console.log(`| 3 clients subscribed to every channel at 30 Hz | ${median(rtStreaming).toFixed(3)} | ${rtStreaming.map((x) => x.toFixed(3)).join(', ')} |`);
    session.setTimeScale(Infinity);
    const idle: number[] = [];
    const streaming: number[] = [];
    let messages = 0;
    let bytes = 0;
    let streamedSteps = 0;
    for (let r = 0; r < ROUNDS; r++) {
      await session.reset();
      idle.push(await window(cpuMsPerSimS.idle));
      await session.reset();
      // a new subscriber gets the current state at once: its first message needs no stepping
      for (const c of clients) if ((await c.send('sub')) !== 'streaming') throw new Error('no stream');
      const before = await Promise.all(clients.map(async (c) => JSON.parse(await c.send('count')) as { messages: number; bytes: number }));
      const s0 = session.stepCount;
      streaming.push(await window(cpuMsPerSimS.streaming));
      streamedSteps += session.stepCount - s0;
      const after = await Promise.all(clients.map(async (c) => JSON.parse(await c.send('count')) as { messages: number; bytes: number }));
      for (let k = 0; k < 3; k++) {
        messages += after[k].messages - before[k].messages;
        bytes += after[k].bytes - before[k].bytes;
      }
      for (const c of clients) await c.send('unsub');
    }
    const a = median(idle);
    const b = median(streaming);
    const simSeconds = streamedSteps * session.info().dt;
    console.log('\n| free-running sim rate (as fast as the CPU allows) | steps/s (median) | rounds |');
    console.log('|---|---|---|');
    console.log(`| 3 clients connected, none subscribed | ${a.toFixed(0)} | ${idle.map((x) => x.toFixed(0)).join(', ')} |`);
    console.log(`| 3 clients subscribed to every channel at 30 Hz | ${b.toFixed(0)} | ${streaming.map((x) => x.toFixed(0)).join(', ')} |`);
    const ca = median(cpuMsPerSimS.idle);
    const cb = median(cpuMsPerSimS.streaming);
    console.log('\n| server process CPU per simulated second | ms (median) | rounds |');
    console.log('|---|---|---|');
    console.log(`| 3 clients connected, none subscribed | ${ca.toFixed(1)} | ${cpuMsPerSimS.idle.map((x) => x.toFixed(1)).join(', ')} |`);
    console.log(`| 3 clients subscribed to every channel at 30 Hz | ${cb.toFixed(1)} | ${cpuMsPerSimS.streaming.map((x) => x.toFixed(1)).join(', ')} |`);
    console.log(`\nstreaming costs the server ${((cb / ca - 1) * 100).toFixed(1)} % more CPU per simulated second (budget 5 %); wall-clock sim rate ${((1 - b / a) * 100).toFixed(1)} % lower (the three client processes share the same 2 cores); the clients got ${(messages / 3 / simSeconds).toFixed(0)} messages per simulated second each (${(bytes / 3 / simSeconds / 1024).toFixed(0)} KiB/s of sim time), ${server.stats().dropped} dropped`);
    console.log('(machine shared with other work: 2 cores; rates vary between runs)');
  } finally {
    for (const c of clients) c.proc.stdin.write('quit\n');
    await server.close();
    await session.close();
  }
}
