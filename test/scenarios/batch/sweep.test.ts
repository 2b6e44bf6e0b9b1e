/**
 * `terrawheel sweep` (issue #31): the sweep file's checks before anything runs, the expansion into
 * runs, and the driver: byte-identical results.csv in one thread and on the pool, --resume
 * recomputing only missing rows, a run that cannot start being a row with its fault.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, verifyRecordingFile } from '../../../sim/node/cli';
import { formatMetric, loadSweep, runSweep } from '../../../sim/node/sweep';
import { rerunSweepRun } from '../../../sim/node/sweep-rerun';
import { checkRunCount, countRuns, expandSweep, HARD_MAX_SWEEP_RUNS, MAX_SWEEP_RUNS, parseSweep, pathProblem, runScenario, withPath } from '../../../sim/scenario/sweep-schema';

const FIXTURES = resolve(__dirname, 'fixtures');
const TINY = join(FIXTURES, 'tiny.json');
const tmp = mkdtempSync(join(tmpdir(), 'tw-sweep-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A valid tiny sweep (2 × 2 grid, 1 s runs) with `patch` merged on top. */
function sweepJson(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'terrawheel-sweep',
    version: 1,
    name: 'tiny',
    base: TINY,
    axes: [
      { path: 'robot.maxTorque', values: [10, 27] },
      { path: 'materials.ground.friction', range: [0.4, 0.8], steps: 2 },
    ],
    sample: 'grid',
    stop: { duration: 1, onFault: 'stop' },
    metrics: ['distance', 'success', 'maxWheelDepth', 'p95WheelDepth', 'meanSlip', 'maxTilt'],
    record: false,
    ...patch,
  };
}

let fileNo = 0;
function writeSweep(json: unknown): string {
  const path = join(tmp, `sweep-${fileNo++}.json`);
  writeFileSync(path, JSON.stringify(json));
  return path;
}

describe('sweep file: refused before anything starts', () => {
  it('a typo in a field names its JSON path', () => {
    expect(() => parseSweep({ ...sweepJson(), stop: { duraton: 1 } })).toThrow(/stop: unknown field "duraton"; allowed: duration, goal, onFault/);
    expect(() => parseSweep({ ...sweepJson(), replicate: 2 })).toThrow(/unknown field "replicate"/);
    expect(() => parseSweep(sweepJson({ axes: [{ path: 'robot.maxTorque', valuse: [1] }] }))).toThrow(/axes\[0\]: unknown field "valuse"/);
    expect(() => parseSweep(sweepJson({ metrics: ['distnace'] }))).toThrow(/metrics\[0\]: must be one of distance/);
  });

  it('an axis path that names nothing names the axis', () => {
    expect(() => loadSweep(writeSweep(sweepJson({ axes: [{ path: 'robot.motor.torque', values: [1, 2] }] })))).toThrow(
      /axes\[0\]: the path robot\.motor\.torque names nothing in the base scenario: robot has no field "motor"/,
    );
    // a missing last field is only accepted if the scenario format has it
    expect(() => loadSweep(writeSweep(sweepJson({ axes: [{ path: 'robot.maxTorqe', values: [1, 2] }] })))).toThrow(/axes\[0\] \(robot\.maxTorqe\) = 1: .*unknown field "maxTorqe"/);
    // a value the scenario refuses
    expect(() => loadSweep(writeSweep(sweepJson({ axes: [{ path: 'materials.ground.friction', values: [0.5, -1] }] })))).toThrow(/axes\[0\] \(materials\.ground\.friction\) = -1/);
  });

  it('1e7 runs are refused with the count, whatever --max-runs says; --max-runs raises the cap up to a million', () => {
    const big = writeSweep(sweepJson({ sample: { kind: 'random', count: 1e7, seed: 1 } }));
    const hard = `expands to 10,000,000 runs, more than any sweep can hold (${HARD_MAX_SWEEP_RUNS.toLocaleString('en-US')}: every run and row is kept in memory and in one results.csv); split it into several sweeps`;
    expect(() => loadSweep(big)).toThrow(hard);
    expect(() => loadSweep(big, 1e8)).toThrow(hard);
    const over = parseSweep(sweepJson({ sample: { kind: 'random', count: 2e5, seed: 1 } }));
    expect(() => checkRunCount(over)).toThrow(`expands to 200,000 runs, more than the limit of ${MAX_SWEEP_RUNS.toLocaleString('en-US')} (raise it with --max-runs if you mean it)`);
    expect(checkRunCount(over, 2e5)).toBe(2e5);
    expect(countRuns(parseSweep(sweepJson({ replicates: 3 })))).toBe(12);
  });

  it('a missing base scenario or terrain file is named', () => {
    expect(() => loadSweep(writeSweep(sweepJson({ base: 'no-such.json' })))).toThrow(/cannot read base scenario \(sweep "base"\) .*no-such\.json: ENOENT/);
    expect(() => loadSweep(writeSweep(sweepJson({ base: TINY, axes: [{ path: 'terrain', values: ['missing-terrain.json'] }] })))).toThrow(/file not found: .*missing-terrain\.json \("terrain" of/);
    expect(() => loadSweep(join(tmp, 'absent-sweep.json'))).toThrow(/cannot read sweep file/);
  });

  it('a missing URDF, in an axis value or in the base, is named before anything runs', () => {
    const caster = resolve(__dirname, '../../../assets/scenarios/robot-diff-drive-caster.json');
    const ok = loadSweep(writeSweep(sweepJson({ base: caster, axes: [{ path: 'robot.urdf', values: ['../robots/diff-drive-caster.urdf'] }] })));
    expect(ok.runs).toHaveLength(1);
    expect(() => loadSweep(writeSweep(sweepJson({ base: caster, axes: [{ path: 'robot.urdf', values: ['../robots/diff-drive-caster.urdf', '../robots/no-such-robot.urdf'] }] })))).toThrow(
      /axes\[0\] \(robot\.urdf\) = "\.\.\/robots\/no-such-robot\.urdf": .*file not found: .*no-such-robot\.urdf/,
    );
    const base = JSON.parse(readFileSync(caster, 'utf8')) as { robot: Record<string, unknown> };
    const badBase = join(tmp, 'missing-urdf.json');
    const assets = resolve(__dirname, '../../../assets');
    writeFileSync(badBase, JSON.stringify({ ...base, terrain: join(assets, 'terrains', 'ramp.json'), robot: { ...base.robot, urdf: join(assets, 'robots', 'missing.urdf') } }));
    expect(() => loadSweep(writeSweep(sweepJson({ base: badBase, axes: [] })))).toThrow(/base scenario .*: .*file not found: .*missing\.urdf/);
  });

  it('a range axis in a grid needs steps', () => {
    expect(() => parseSweep(sweepJson({ axes: [{ path: 'robot.maxTorque', range: [1, 2] }] }))).toThrow(/axes\[0\]: a range axis in a grid needs "steps"/);
  });
});

describe('bundled sweeps', () => {
  it('assets/sweeps/slopes-friction.json passes every check: 3 slopes × 3 frictions × 2 seeds', () => {
    const l = loadSweep(resolve(__dirname, '../../../assets/sweeps/slopes-friction.json'));
    expect(l.runs).toHaveLength(18);
    expect(l.basePath).toMatch(/assets\/sweeps\/scenarios\/ramp-ground\.json$/);
  });

  it('assets/sweeps/payload-torque.json passes every check: 5 payloads × 5 torques, a goal on the plateau', () => {
    const l = loadSweep(resolve(__dirname, '../../../assets/sweeps/payload-torque.json'));
    expect(l.runs).toHaveLength(25);
    expect(l.sweep.stop.goal).toEqual({ center: [3, 8], radius: 1 });
    expect(l.runs[7].params).toEqual({ 'robot.chassisMass': 60, 'robot.maxTorque': 20 });
  });
});

describe('expansion', () => {
  it('is deterministic, with stable ids, the last axis fastest and replicates innermost', () => {
    const s = parseSweep(sweepJson({ replicates: 2 }));
    const runs = expandSweep(s);
    expect(runs.map((r) => r.id)).toEqual(['r0000', 'r0001', 'r0002', 'r0003', 'r0004', 'r0005', 'r0006', 'r0007']);
    expect(runs.map((r) => [r.params['robot.maxTorque'], r.params['materials.ground.friction'], r.replicate, r.seed])).toEqual([
      [10, 0.4, 0, 1], [10, 0.4, 1, 2], [10, 0.8, 0, 1], [10, 0.8, 1, 2],
      [27, 0.4, 0, 1], [27, 0.4, 1, 2], [27, 0.8, 0, 1], [27, 0.8, 1, 2],
    ]);
    expect(expandSweep(s)).toEqual(runs);
  });

  it('a Latin hypercube puts one sample in each stratum of each axis, the same for the same seed', () => {
    const s = parseSweep(sweepJson({ sample: { kind: 'latin-hypercube', count: 10, seed: 7 }, axes: [{ path: 'robot.maxTorque', range: [0, 10] }, { path: 'materials.ground.friction', range: [0, 1] }] }));
    const runs = expandSweep(s);
    const strata = (path: string, lo: number, hi: number) => runs.map((r) => Math.floor((((r.params[path] as number) - lo) / (hi - lo)) * 10)).sort((a, b) => a - b);
    expect(strata('robot.maxTorque', 0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(strata('materials.ground.friction', 0, 1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(expandSweep(s)).toEqual(runs);
    const other = expandSweep({ ...s, sample: { kind: 'latin-hypercube', count: 10, seed: 8 } });
    expect(other.map((r) => r.params)).not.toEqual(runs.map((r) => r.params));
  });

  it('applies axis values and jitter to a copy of the base', () => {
    const base = { robot: { position: [1, 2], yaw: 0 } };
    expect(pathProblem(base, 'robot.position[1]')).toBeNull();
    expect(pathProblem(base, 'robot.position[2]')).toBe('robot.position has 2 items, no [2]');
    expect(withPath(base, 'robot.position[1]', 5)).toEqual({ robot: { position: [1, 5], yaw: 0 } });
    expect(base.robot.position).toEqual([1, 2]);
    const s = parseSweep(sweepJson({ axes: [], replicates: 2, jitter: [{ path: 'robot.yaw', amplitude: 0.1 }] }));
    const [a, b] = expandSweep(s).map((r) => runScenario(base, s, r) as typeof base);
    expect(Math.abs(a.robot.yaw)).toBeLessThanOrEqual(0.1);
    expect(a.robot.yaw).not.toBe(b.robot.yaw);
  });

  it('formats numbers for the CSV the same way every time', () => {
    expect(formatMetric(0.1 + 0.2)).toBe('0.3');
    expect(formatMetric(1.23456789012e-7)).toBe('1.23456789e-7');
    expect(formatMetric(-0)).toBe('0');
    expect(formatMetric(null)).toBe('');
  });
});

describe('driver', () => {
  const sweepPath = writeSweep(sweepJson());
  const out1 = join(tmp, 'out-1');
  const out2 = join(tmp, 'out-2');

  it('one thread and a pool of two give byte-identical results.csv', async () => {
    const one = await runSweep({ sweepPath, out: out1, workers: 1 });
    const two = await runSweep({ sweepPath, out: out2, workers: 2 });
    expect(one.failed).toBe(0);
    expect(one.computed).toBe(4);
    expect(two.computed).toBe(4);
    const csv1 = readFileSync(join(out1, 'results.csv'), 'utf8');
    expect(readFileSync(join(out2, 'results.csv'), 'utf8')).toBe(csv1);
    const lines = csv1.trim().split('\n');
    expect(lines[0]).toBe('id,robot.maxTorque,materials.ground.friction,replicate,seed,distance,success,maxWheelDepth,p95WheelDepth,meanSlip,maxTilt,steps,fault,stateHash');
    expect(lines).toHaveLength(5);
    for (const l of lines.slice(1)) expect(l).toMatch(/^r000\d,.*,100,,[0-9a-f]{16}$/);
    // the axes change the runs: four different final states
    expect(new Set(lines.slice(1).map((l) => l.split(',').at(-1))).size).toBe(4);
    expect(readdirSync(join(out1, 'rows')).sort()).toEqual(['r0000.json', 'r0001.json', 'r0002.json', 'r0003.json']);
    // the timeline: the pool of two started before the sweep was loaded (while its base and axes
    // were checked), both threads ran runs; one thread runs in the driver's thread, no pool
    expect(two.timeline?.poolStarted).toBeLessThan(0);
    expect(two.timeline?.threads).toBe(2);
    expect(two.timeline?.firstRunStart?.[0]).toBeGreaterThan(two.timeline?.poolStarted ?? Infinity);
    expect(one.timeline?.poolStarted).toBeNull();
    expect(one.timeline?.threads).toBe(1);
    expect(one.timeline?.resultsWritten).toBe(one.wallSeconds);
  }, 300_000);

  it('the prebuilt bundle and the TypeScript sources compute the same rows (bit for bit)', async () => {
    const out3 = join(tmp, 'out-tsx');
    const ts = await runSweep({ sweepPath, out: out3, workers: 1, bundle: false });
    expect(ts.computed).toBe(4);
    for (const id of ['r0000', 'r0001', 'r0002', 'r0003']) {
      expect(readFileSync(join(out3, 'rows', `${id}.json`), 'utf8')).toBe(readFileSync(join(out1, 'rows', `${id}.json`), 'utf8'));
    }
    expect(readFileSync(join(out3, 'results.csv'), 'utf8')).toBe(readFileSync(join(out1, 'results.csv'), 'utf8'));
  }, 300_000);

  it('--resume after deleting one row recomputes only that row', async () => {
    const before = readFileSync(join(out1, 'results.csv'), 'utf8');
    unlinkSync(join(out1, 'rows', 'r0002.json'));
    const again = await runSweep({ sweepPath, out: out1, workers: 1, resume: true });
    expect(again.computed).toBe(1);
    expect(again.runs).toBe(4);
    expect(readFileSync(join(out1, 'results.csv'), 'utf8')).toBe(before);
  }, 300_000);

  it('rerun: one run by id, alone and recorded, ends in its row\'s state hash; verify re-checks the recording; a changed row is reported', async () => {
    const row = JSON.parse(readFileSync(join(out1, 'rows', 'r0002.json'), 'utf8')) as { stateHash: string };
    const rec = join(tmp, 'rerun', 'r0002.mcap');
    const r = await rerunSweepRun({ sweepPath, out: out1, id: 'r0002', record: rec });
    expect(r.row.stateHash).toBe(row.stateHash);
    expect(r.match).toBe(true);
    expect(r.row.params).toEqual({ 'robot.maxTorque': 27, 'materials.ground.friction': 0.4 });
    const v = await verifyRecordingFile(rec, null);
    expect(v.verdict).toBe('deterministic');
    expect(v.framesChecked).toBeGreaterThan(100);
    // through the CLI: exit 0 and the verdict; a row whose hash is not the run's: exit 1
    const o = { out: '', err: '' };
    const io = { out: (t: string) => (o.out += t), err: (t: string) => (o.err += t) };
    expect(await runCli(['rerun', sweepPath, '--out', out1, '--id', 'r0001'], io)).toBe(0);
    expect(o.out).toMatch(/state hash +[0-9a-f]{16} equals the row of the sweep/);
    const tampered = join(tmp, 'out-tampered');
    mkdirSync(join(tampered, 'rows'), { recursive: true });
    writeFileSync(join(tampered, 'rows', 'r0001.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(out1, 'rows', 'r0001.json'), 'utf8')), stateHash: '0000000000000000' }));
    o.out = '';
    expect(await runCli(['rerun', sweepPath, '--out', tampered, '--id', 'r0001'], io)).toBe(1);
    expect(o.out).toMatch(/DIFFERS from the row of the sweep \(0000000000000000\)/);
    await expect(rerunSweepRun({ sweepPath, out: out1, id: 'r0004', record: null })).rejects.toThrow('the sweep has no run "r0004"; its ids are r0000 to r0003');
  }, 300_000);

  it('a run whose world cannot be built is a row with its fault, not a crash of the sweep', async () => {
    const path = writeSweep(sweepJson({ axes: [{ path: 'robot.position', values: [[-2, 0], [100, 0]] }] }));
    const r = await runSweep({ sweepPath: path, out: join(tmp, 'out-fault'), workers: 1 });
    expect(r.runs).toBe(2);
    expect(r.failed).toBe(1);
    const lines = readFileSync(join(tmp, 'out-fault', 'results.csv'), 'utf8').trim().split('\n');
    expect(lines[1]).toMatch(/^r0000,"\[-2,0\]",/);
    expect(lines[2]).toMatch(/^r0001,"\[100,0\]",.*load: scenario: start position \(100, 0\) is outside the terrain/);
  }, 300_000);

  it('with "record": true each run is an MCAP recording that verify re-simulates to the same state', async () => {
    const path = writeSweep(sweepJson({ axes: [{ path: 'robot.maxTorque', values: [15] }], stop: { duration: 0.5 }, record: true }));
    const out = join(tmp, 'out-rec');
    const r = await runSweep({ sweepPath: path, out, workers: 1 });
    expect(r.failed).toBe(0);
    const v = await verifyRecordingFile(join(out, 'runs', 'r0000.mcap'), null);
    expect(v.verdict).toBe('deterministic');
    expect(v.assetMismatches).toEqual([]);
  }, 300_000);

  it('the CLI refuses a bad sweep before starting and a missing --out as usage', async () => {
    const io = () => {
      const o = { out: '', err: '' };
      return { o, io: { out: (t: string) => (o.out += t), err: (t: string) => (o.err += t) } };
    };
    const a = io();
    expect(await runCli(['sweep', sweepPath], a.io)).toBe(2);
    expect(a.o.err).toMatch(/--out <dir> is required/);
    const b = io();
    const outDir = join(tmp, 'never');
    expect(await runCli(['sweep', writeSweep(sweepJson({ axes: [{ path: 'robot.wheels', values: [1] }] })), '--out', outDir], b.io)).toBe(1);
    expect(b.o.err).toMatch(/axes\[0\] \(robot\.wheels\) = 1: .*unknown field "wheels"/);
    expect(() => readdirSync(outDir)).toThrow();
  });

  it('a sweep refused while the pool is starting (a bad axis value, a missing base) shuts the pool down: no thread left running, no output', async () => {
    for (const [patch, error] of [
      [{ axes: [{ path: 'robot.wheels', values: [1, 2] }] }, /axes\[0\] \(robot\.wheels\) = 1: .*unknown field "wheels"/],
      [{ base: 'no-such.json' }, /cannot read base scenario/],
    ] as const) {
      const threads: Worker[] = [];
      const outDir = join(tmp, `never-${threads.length}-${fileNo}`);
      await expect(runSweep({ sweepPath: writeSweep(sweepJson(patch)), out: outDir, workers: 2, onPoolStarted: (t) => threads.push(...t) })).rejects.toThrow(error);
      // the pool had started: the error came while its threads were loading
      expect(threads).toHaveLength(2);
      // and every thread has exited (a Worker's threadId is -1 once it has stopped)
      expect(threads.map((w) => w.threadId)).toEqual([-1, -1]);
      expect(() => readdirSync(outDir)).toThrow();
    }
    // a typo in the sweep file itself is refused before any thread starts
    let started = false;
    await expect(runSweep({ sweepPath: writeSweep({ ...sweepJson(), replicate: 2 }), out: join(tmp, 'never-typo'), workers: 2, onPoolStarted: () => (started = true) })).rejects.toThrow(/unknown field "replicate"/);
    expect(started).toBe(false);
  }, 300_000);
});
