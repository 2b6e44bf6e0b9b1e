/**
 * `terrawheel serve --lockstep --rosbridge-port <port>` as a user runs it (bin/terrawheel.mjs in a
 * child process), driven by the roslib waypoint example in a second process: the rosbridge URL is
 * printed, the robot reaches the waypoint, SIGINT ends the server with exit code 0. Waits on
 * output and exit, never on time.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../../..');
const BIN = join(ROOT, 'bin/terrawheel.mjs');
/** [ms] Spawning Node + tsx and the run on a loaded 2-core machine, with a wide margin. */
const SPAWN_MS = 240_000;

/** A loopback port free now (serve's --rosbridge-port 0 means off, so the test picks one). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      s.close(() => done(port));
    });
  });
}

describe('terrawheel serve with rosbridge', () => {
  it('prints the rosbridge URL; the roslib waypoint example drives the robot there in lockstep', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [BIN, 'serve', 'assets/scenarios/curbs.json', '--port', '0', '--lockstep', '--rosbridge-port', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    server.stderr.on('data', (d) => (err += String(d)));
    const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)));
    try {
      const url = await new Promise<string>((done, fail) => {
        server.stdout.on('data', (d) => {
          out += String(d);
          const m = /rosbridge\s+(ws:\/\/\S+)/.exec(out);
          if (m) done(m[1]);
        });
        void exited.then((code) => fail(new Error(`serve exited (${code}) before listening: ${err}`)));
      });
      expect(url).toBe(`ws://127.0.0.1:${port}`);
      const example = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(process.execPath, [join(ROOT, 'examples/live/roslib-waypoint.mjs'), '--url', url, '--goal', '-11,1.5'], { cwd: ROOT, encoding: 'utf8', timeout: SPAWN_MS }, (e, stdout, stderr) => {
          done({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : -1, stdout, stderr });
        });
      });
      expect(example.stdout, example.stderr).toMatch(/^reached \(-11, 1\.5\)/m);
      expect(example.code).toBe(0);
      server.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  }, SPAWN_MS);
});
