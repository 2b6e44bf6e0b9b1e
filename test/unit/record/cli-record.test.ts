/**
 * The CLI's recording commands, run through `runCli` (no child process): record a run of the
 * default scenario, verify it (deterministic, exit 0), verify it against the wrong scenario
 * (exit 1, JSON error), verify a cut copy (its prefix, exit 0), export its CSV, and usage
 * mistakes (exit 2, JSON error with --json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXIT_CUT, parseCommand, progressLine, runCli } from '../../../sim/node/cli';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
const OTHER = resolve(__dirname, '../../../assets/scenarios/barrels.json');

function io() {
  const o = { out: '', err: '' };
  return { o, io: { out: (t: string) => void (o.out += t + '\n'), err: (t: string) => void (o.err += t) } };
}

describe('CLI: record, verify, export-csv', () => {
  let dir: string;
  let file: string;
  // One recorded run shared by every test below (1.5 s: a shorter one leaves the 70 % cut without
  // a whole chunk). Its timeout is vitest.config.ts's hookTimeout: a backstop for a loaded machine.
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-cli-'));
    file = join(dir, 'run.mcap');
    const { o, io: cio } = io();
    const code = await runCli([SCENARIO, '--duration', '1.5', '--throttle', '0.7', '--steer', '0.3', '--record', file, '--json'], cio);
    expect(code, o.out).toBe(0);
    const summary = JSON.parse(o.out);
    expect(summary.recording.path).toBe(file);
    expect(summary.recording.steps).toBe(300);
    expect(summary.recording.bytes).toBe(readFileSync(file).length);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('verify: deterministic, exit 0, JSON result', async () => {
    const { o, io: cio } = io();
    expect(await runCli(['verify', file, '--json'], cio)).toBe(0);
    const v = JSON.parse(o.out);
    expect(v.verdict).toBe('deterministic');
    expect(v.scenarioPath).toBe(SCENARIO);
    expect(v.framesChecked).toBe(301);
    expect(v.assetMismatches).toEqual([]);
  });

  it('verify with another scenario\'s files: exit 1, the differing assets named', async () => {
    const { o, io: cio } = io();
    expect(await runCli(['verify', file, '--scenario', OTHER, '--json'], cio)).toBe(1);
    const v = JSON.parse(o.out);
    expect(v.verdict).toBe('diverged');
    expect(v.assetMismatches).toContain('terrain-data');
    expect(v.message).toMatch(/differ from the recording's/);
  });

  it('verify of a file that is no recording: exit 1 with a JSON error', async () => {
    const junk = join(dir, 'junk.mcap');
    writeFileSync(junk, 'not an mcap file at all');
    const { o, io: cio } = io();
    expect(await runCli(['verify', junk, '--json'], cio)).toBe(1);
    expect(JSON.parse(o.out)).toMatchObject({ exitCode: 1, error: expect.any(String) });
  });

  it('verify and export-csv of a cut copy (issue #28): the prefix is checked, the file reported as cut, exit 3; a missing file: exit 1', async () => {
    const bytes = readFileSync(file);
    const cut = join(dir, 'cut.mcap');
    const keep = Math.floor(bytes.length * 0.7);
    writeFileSync(cut, bytes.subarray(0, keep));
    const a = io();
    expect(await runCli(['verify', cut], a.io)).toBe(EXIT_CUT);
    expect(a.o.out).toMatch(/deterministic/);
    expect(a.o.out).toMatch(/INCOMPLETE +the file is cut: it ends at step \d+ \(\d+\.\d\d s\); \d+ bytes after its last complete chunk are lost/);
    const j = io();
    expect(await runCli(['verify', cut, '--json'], j.io)).toBe(EXIT_CUT);
    const v = JSON.parse(j.o.out);
    expect(v.verdict).toBe('deterministic');
    expect(v.cut.kind).toBe('cut');
    expect(v.cut.lastStep).toBeGreaterThan(0);
    expect(v.cut.lastStep).toBeLessThan(300);
    expect(v.framesChecked).toBe(v.cut.lastStep + 1);
    expect(v.cut.bytesAfterLastChunk).toBeGreaterThan(0);
    expect(v.cut.bytesAfterLastChunk).toBeLessThan(keep);
    expect(v.message).toMatch(/the file is cut/);
    const c = io();
    expect(await runCli(['export-csv', cut, '--json'], c.io)).toBe(EXIT_CUT);
    const e = JSON.parse(c.o.out);
    expect(e.cut).toEqual(v.cut);
    expect(e.rows).toBe((v.cut.lastStep + 1) * 4);
    const t = io();
    expect(await runCli(['export-csv', cut], t.io)).toBe(EXIT_CUT);
    expect(t.o.out).toMatch(/INCOMPLETE +the file is cut/);
    // the complete file is not reported as cut
    const w = io();
    expect(await runCli(['verify', file, '--json'], w.io)).toBe(0);
    expect(JSON.parse(w.o.out).cut).toBeNull();
    const b = io();
    expect(await runCli(['verify', join(dir, 'nope.mcap')], b.io)).toBe(1);
    expect(b.o.err).toMatch(/^terrawheel: file not found: .*nope\.mcap \(the recording\)/);
  });

  it('export-csv: one row per wheel per step, default name next to the file', async () => {
    const { o, io: cio } = io();
    expect(await runCli(['export-csv', file, '--json'], cio)).toBe(0);
    const r = JSON.parse(o.out);
    expect(r.out).toBe(join(dir, 'run.csv'));
    expect(r.rows).toBe(301 * 4);
    const lines = readFileSync(r.out, 'utf8').trim().split('\n');
    expect(lines.length).toBe(1 + 301 * 4);
    expect(existsSync(r.out)).toBe(true);
  });

  it('usage mistakes: exit 2, with --json as JSON', async () => {
    for (const argv of [['verify'], ['export-csv', 'a.mcap', '--out'], [SCENARIO, '--record'], [SCENARIO, '--bogus'], []]) {
      const { o, io: cio } = io();
      expect(await runCli([...argv, '--json'], cio), argv.join(' ')).toBe(2);
      expect(JSON.parse(o.out).exitCode).toBe(2);
    }
    const { o, io: cio } = io();
    expect(await runCli(['verify'], cio)).toBe(2);
    expect(o.err).toMatch(/verify: no <recording\.mcap> given\nRun `terrawheel help verify`/);
    expect(parseCommand(['export-csv', 'x.mcap', '--out', 'y.csv'])).toEqual({ kind: 'export-csv', file: 'x.mcap', out: 'y.csv', json: false });
    expect(progressLine(0.5, 'x')).toBe(`[${'#'.repeat(12)}${' '.repeat(12)}]  50%  x`);
  });
});
