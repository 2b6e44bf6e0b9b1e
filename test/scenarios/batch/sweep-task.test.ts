/**
 * The sweep task's per-thread terrain cache (sim/node/sweep-task.ts, issue #31 throughput): a
 * terrain is decoded once per thread for the same bytes and sidecar, a changed sidecar decodes
 * again, and a run on a cached terrain gives the row of a run that decoded its own.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultService } from '../../../sim/app/default-service';
import { runOne, type RunInput } from '../../../sim/batch/run';
import { cachedDecodeTerrain, runTask, scenarioFilesFor, TERRAIN_CACHE_ENTRIES } from '../../../sim/node/sweep-task';

const ROOT = resolve(__dirname, '../../..');
const SCENARIO = join(ROOT, 'assets/scenarios/ramp.json');
const SIDECAR = JSON.parse(readFileSync(join(ROOT, 'assets/terrains/ramp.json'), 'utf8')) as Record<string, unknown>;
const PNG = new Uint8Array(readFileSync(join(ROOT, 'assets/terrains/ramp.png')));

const input = (id: string): RunInput => ({ id, params: {}, replicate: 0, seed: 1, stop: { duration: 0.5, goal: null }, metrics: ['distance', 'maxWheelDepth', 'meanSlip', 'maxTilt'] });

describe('per-thread terrain cache', () => {
  it('the same bytes and sidecar decode once; another sidecar over the same bytes decodes again', () => {
    const a = cachedDecodeTerrain(SIDECAR, PNG);
    expect(cachedDecodeTerrain({ ...SIDECAR }, PNG)).toBe(a);
    const taller = cachedDecodeTerrain({ ...SIDECAR, heightRange: [0, 7] }, PNG);
    expect(taller).not.toBe(a);
    expect(taller.maxHeight).toBeGreaterThan(a.maxHeight * 1.9);
    // other bytes (equal content, another file read) are another entry
    expect(cachedDecodeTerrain(SIDECAR, PNG.slice())).not.toBe(a);
  });

  it('keeps at most TERRAIN_CACHE_ENTRIES terrains, dropping the least recently used', () => {
    const first = cachedDecodeTerrain({ ...SIDECAR, heightRange: [0, 1] }, PNG);
    for (let k = 0; k < TERRAIN_CACHE_ENTRIES; k++) cachedDecodeTerrain({ ...SIDECAR, heightRange: [0, 2 + k] }, PNG);
    expect(cachedDecodeTerrain({ ...SIDECAR, heightRange: [0, 1] }, PNG)).not.toBe(first);
  });

  it('a run on the cached terrain has the row of a run that decoded its own (state hash and metrics)', async () => {
    const scenario = JSON.parse(readFileSync(SCENARIO, 'utf8')) as unknown;
    const task = { input: input('r0000'), scenario, scenarioPath: SCENARIO, recordPath: null };
    const first = await runTask(task);
    const cached = await runTask(task);
    const fresh = await runOne(createDefaultService(), scenarioFilesFor(scenario, SCENARIO), input('r0000'));
    expect(first.fault).toBeNull();
    expect(first.stateHash).toMatch(/^[0-9a-f]{16}$/);
    expect(cached).toEqual(fresh);
    expect(first).toEqual(fresh);
  }, 120_000);
});

describe('the files a sweep run reads', () => {
  it('include the robot package\'s controller files, as the CLI\'s run finds them', () => {
    const urdf = join(ROOT, 'test/fixtures/controller-yaml/arm_rover_ros1/urdf/arm_rover.urdf');
    const scenario = { format: 'terrawheel-scenario', version: 2, name: 'arm', terrain: { cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0, 0] }, robot: { urdf } };
    const files = scenarioFilesFor(scenario, join(ROOT, 'test/fixtures/controller-yaml/sweep-base.json'));
    expect(Object.keys(files.robotControllers ?? {})).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml']);
  });
});
