/**
 * Issue #28, "a killed CLI recording is lost": `npm run sim -- default.json --record f.mcap`,
 * killed with SIGKILL at a seeded moment of its run, leaves a file whose prefix opens (reported
 * as cut), holds every step but the last RECORDING_MAX_LOSS_SECONDS of simulated time the last
 * progress line reported, and re-simulates deterministically. The kill waits on the child's own
 * progress lines and on the file's size, never on a wall-clock duration.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../sim/node/cli';
import { openRecordingFile } from '../../../sim/node/record-file';
import { RECORDING_MAX_LOSS_SECONDS } from '../../../sim/app/record-session';
import { Rng } from '../../../sim/math/random';

const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'sim/node/cli.ts');
const SCENARIO = join(ROOT, 'assets/scenarios/default.json');
const dir = mkdtempSync(join(tmpdir(), 'tw-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Simulated seconds of the last progress line in `err` ("[###   ]  12%  12.3/100.0 s, 1.2 MiB"), or −1. */
function lastProgress(err: string): number {
  const all = [...err.matchAll(/ (\d+(?:\.\d+)?)\/\d+(?:\.\d+)? s, /g)];
  return all.length === 0 ? -1 : Number(all[all.length - 1][1]);
}

describe('a CLI recording killed with SIGKILL (issue #28)', () => {
  it('keeps all but the last 2 s of simulated time; the prefix opens as cut and verifies', async () => {
    const file = join(dir, 'killed.mcap');
    // a seeded moment between 6 and 40 simulated seconds of a 100 s run
    const killAt = new Rng(2028).int(6, 40);
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, SCENARIO, '--duration', '100', '--throttle', '0.6', '--steer', '0.2', '--record', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let killedAt = -1;
    const exited = new Promise<{ code: number | null; signal: string | null }>((res) => child.on('exit', (code, signal) => res({ code, signal })));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (t: string) => {
      err += t;
      if (killedAt >= 0) return;
      const reached = lastProgress(err);
      let size = 0;
      try {
        size = statSync(file).size;
      } catch {
        return;
      }
      // past a few chunks on disk, and past the chosen moment
      if (reached >= killAt && size > 64 * 1024) {
        killedAt = reached;
        child.kill('SIGKILL');
      }
    });
    const end = await exited;
    expect(end.signal, `the run ended before it was killed:\n${err}`).toBe('SIGKILL');
    // the last line the process printed before it died
    const reached = lastProgress(err);
    expect(reached).toBeGreaterThanOrEqual(killedAt);

    const { reader, close } = await openRecordingFile(file);
    const info = reader.info;
    await close();
    expect(info.notice).toMatch(/the file was cut after byte/);
    const present = info.lastStep * info.dt;
    expect(present, `the file ends at ${present} s; the run had reached ${reached} s`).toBeGreaterThanOrEqual(reached - RECORDING_MAX_LOSS_SECONDS);

    const out: string[] = [];
    const code = await runCli(['verify', file, '--json'], { out: (t) => void out.push(t), err: () => undefined });
    const v = JSON.parse(out.join(''));
    expect(v.verdict, v.message).toBe('deterministic');
    expect(v.framesChecked).toBe(info.lastStep - info.firstStep + 1);
    expect(v.cut).toMatchObject({ lastStep: info.lastStep });
    expect(code).toBe(3);
  }, 300_000);
});
