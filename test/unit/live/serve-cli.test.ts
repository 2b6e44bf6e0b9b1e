/**
 * `terrawheel serve` as a user runs it (bin/terrawheel.mjs in a child process, lockstep, a free
 * port read from its output), driven by the Foxglove waypoint example in a second process
 * (examples/live/foxglove-waypoint.mjs): the robot reaches its waypoint, and Ctrl+C (SIGINT) ends
 * the server with exit code 0. Waits on output and exit, never on time.
 */
import { execFile, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../sim/node/cli-args';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/terrawheel.mjs');
/** [ms] Spawning Node + tsx and the run on a loaded 2-core machine, with a wide margin. */
const SPAWN_MS = 240_000;

describe('terrawheel serve', () => {
  it('parses its options (defaults: port 8765, loopback, rosbridge 9090, free-running)', () => {
    expect(parseCommand(['serve', 'a.json'])).toEqual({ kind: 'serve', opts: { scenarioPath: 'a.json', port: 8765, host: '127.0.0.1', rosbridgePort: 9090, lockstep: false, timeScale: 1, token: process.env.TERRAWHEEL_TOKEN || null, recordDir: null } });
    const c = parseCommand(['serve', 'a.json', '--port', '0', '--lockstep', '--rosbridge-port=0', '--token', 'abcdefgh', '--time-scale', '2']);
    expect(c).toMatchObject({ kind: 'serve', opts: { port: 0, lockstep: true, rosbridgePort: 0, token: 'abcdefgh', timeScale: 2 } });
    expect(() => parseCommand(['serve', 'a.json', '--port', '70000'])).toThrow(/--port needs a number from 0 to 65535/);
  });

  it('serves a scenario in lockstep; the Foxglove waypoint example drives the robot there; SIGINT stops it', async () => {
    const server = spawn(process.execPath, [BIN, 'serve', 'assets/scenarios/default.json', '--port', '0', '--lockstep', '--rosbridge-port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    server.stderr.on('data', (d) => (err += String(d)));
    const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)));
    try {
      const url = await new Promise<string>((done, fail) => {
        server.stdout.on('data', (d) => {
          out += String(d);
          const m = /foxglove\s+(ws:\/\/\S+)/.exec(out);
          if (m) done(m[1]);
        });
        void exited.then((code) => fail(new Error(`serve exited (${code}) before listening: ${err}`)));
      });
      expect(out).toMatch(/lockstep/);
      const example = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(process.execPath, [join(ROOT, 'examples/live/foxglove-waypoint.mjs'), url, '3', '2'], { cwd: ROOT, encoding: 'utf8', timeout: SPAWN_MS }, (e, stdout, stderr) => {
          done({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : -1, stdout, stderr });
        });
      });
      expect(example.stdout, example.stderr).toMatch(/^reached the waypoint/m);
      expect(example.code).toBe(0);
      server.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  }, SPAWN_MS);
});
