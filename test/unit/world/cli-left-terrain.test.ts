/**
 * Issue #17 through the CLI (`runCli`, no child process): a run whose robot drives off the
 * terrain ends at that step with the fault "body X left the terrain at x, y m (step N)" in the
 * text summary and in --json (`fault`, `faultDetail`), exit code 0 (a fault is reported, not a
 * failure: the CLI's documented codes are 1 for unreadable files and diverged recordings).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../sim/node/cli';

/** Flat terrain x 0..4 m, y −1.5..1.5 m; the rover starts at x = 2 and drives +x at full throttle. */
const SCENARIO = {
  format: 'terrawheel-scenario', version: 2, name: 'edge',
  terrain: { cols: 41, rows: 31, dx: 0.1, dy: 0.1, x0: 0, y0: -1.5, heights: new Array(41 * 31).fill(0) },
  dt: 0.005,
  robot: { type: 'skid-steer', position: [2, 0], yaw: 0 },
  script: [{ t: 0, throttle: 1, steer: 0 }],
};
const MESSAGE = /^body "(rover\/wheel_f[lr])" left the terrain at x (4\.0\d\d), y (-?0\.\d{3}) m \(step (\d+)\): the terrain spans x 0\.\.4 m, y -1\.5\.\.1\.5 m; the world is paused at step \4$/;

function io() {
  const o = { out: '', err: '' };
  return { o, io: { out: (t: string) => void (o.out += t + '\n'), err: (t: string) => void (o.err += t) } };
}

describe('CLI: a robot leaving the terrain (issue #17)', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-edge-'));
    file = join(dir, 'edge.json');
    writeFileSync(file, JSON.stringify(SCENARIO));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--json: the run ends at the fault step, fault and faultDetail agree, exit 0', async () => {
    const { o, io: cio } = io();
    expect(await runCli([file, '--duration', '10', '--json'], cio)).toBe(0);
    const r = JSON.parse(o.out);
    const m = MESSAGE.exec(r.fault);
    expect(m, r.fault).not.toBeNull();
    const [, body, x, y, step] = m!;
    expect(r.faultDetail).toMatchObject({ kind: 'left-terrain', body, step: Number(step) });
    expect(r.faultDetail.x.toFixed(3)).toBe(x);
    expect(r.faultDetail.y.toFixed(3)).toBe(y);
    expect(r.steps).toBe(Number(step));
    expect(r.simSeconds).toBeCloseTo(Number(step) * 0.005, 9);
    expect(r.steps).toBeLessThan(2000); // 10 s asked; 2 m in about 1 s at 2 m/s
    expect(r.warnings.filter((w: string) => w.includes('left the terrain'))).toEqual([]);
  });

  it('text: a FAULT line with the message, exit 0', async () => {
    const { o, io: cio } = io();
    expect(await runCli([file, '--duration', '10'], cio)).toBe(0);
    const line = o.out.split('\n').find((l) => l.startsWith('FAULT'));
    expect(line).toBeDefined();
    expect(line!.replace(/^FAULT\s+/, '')).toMatch(MESSAGE);
    expect(o.err).toBe('');
  });
});
