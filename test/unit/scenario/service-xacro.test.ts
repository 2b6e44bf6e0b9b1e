/**
 * The service expands a xacro robot itself (sim/scenario/scenario-xacro.ts): any host (the desktop
 * app, the web app, a live link) may pass `robotUrdf` as xacro text with the files it includes in
 * `robotFiles`, keyed as the host has them. Driven through SimServiceImpl's load, as the worker
 * is; the oracle is the same robot expanded beforehand by Node's gatherer (gatherScenarioFilesAsync).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultService } from '../../../sim/app/default-service';
import type { ScenarioFiles } from '../../../sim/scenario/scenario-files';
import { expandXacro } from '../../../sim/robot/urdf/xacro';

const ROBOTS = path.resolve(__dirname, '../../fixtures/robots');

/** Every file under `dir`, keyed by its path relative to `from` ('/'-separated). */
function filesUnder(dir: string, from: string): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out[path.relative(from, p).split(path.sep).join('/')] = new Uint8Array(readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

/** A flat 20 m inline terrain and the robot `urdf` at the origin. */
function scenario(urdf: string, robot: Record<string, unknown> = {}): unknown {
  const n = 21;
  return {
    format: 'terrawheel-scenario', version: 2, name: 'xacro in the service',
    terrain: { cols: n, rows: n, dx: 1, dy: 1, x0: -10, y0: -10, heights: new Array(n * n).fill(0) },
    robot: { urdf, position: [0, 0], yaw: 0, ...robot },
  };
}

function xacroFiles(robot: string, main: string, robotExtra: Record<string, unknown> = {}): ScenarioFiles {
  const all = filesUnder(path.join(ROBOTS, robot), path.join(ROBOTS, robot));
  const text = new TextDecoder().decode(all[main]);
  delete all[main];
  return { scenario: scenario(main, robotExtra), terrainSidecar: null, terrainData: new Uint8Array(0), robotUrdf: text, robotFiles: all };
}

/** The same robot expanded in Node before the load (the oracle), its collision meshes keyed by resolved path. */
async function expandedFiles(robot: string, main: string, args?: Record<string, string | number | boolean>): Promise<ScenarioFiles> {
  const root = path.join(ROBOTS, robot);
  const r = await expandXacro(readFileSync(path.join(root, main), 'utf8'), {
    path: main,
    args,
    readFile: (p) => {
      try {
        return readFileSync(path.join(root, p), 'utf8');
      } catch {
        return undefined;
      }
    },
  });
  return { scenario: scenario(main, args ? { xacroArgs: args } : {}), terrainSidecar: null, terrainData: new Uint8Array(0), robotUrdf: r.urdf, robotMeshes: filesUnder(root, root) };
}

async function run(files: ScenarioFiles, steps: number) {
  const service = createDefaultService();
  try {
    const info = await service.load(files);
    service.setDrive({ throttle: 0.5, steer: 0.2 });
    await service.step(steps);
    const frame = await service.latestFrame();
    return { info, poses: Array.from(frame.poses) };
  } finally {
    service.dispose();
  }
}

describe('SimService.load with a xacro robot and its files (the worker expands it)', () => {
  it('the Husky as shipped: the same world, step for step, as the robot expanded beforehand', async () => {
    const main = 'husky_description/urdf/husky.urdf.xacro';
    const got = await run(xacroFiles('husky', main), 60);
    const want = await run(await expandedFiles('husky', main), 60);
    expect(got.info.bodies.map((b) => b.name)).toEqual(want.info.bodies.map((b) => b.name));
    expect(got.info.bodies.filter((b) => /wheel/.test(b.name)).length).toBe(4);
    expect(got.poses.length).toBeGreaterThan(0);
    expect(got.poses).toEqual(want.poses);
  });

  it('the MiR: its collision meshes found among robotFiles by their package paths; xacroArgs from the scenario', async () => {
    const main = 'mir_description/urdf/mir.urdf.xacro';
    const got = await run(xacroFiles('mir', main), 10);
    const want = await run(await expandedFiles('mir', main), 10);
    expect(got.info.bodies.map((b) => b.name)).toEqual(want.info.bodies.map((b) => b.name));
    expect(got.poses).toEqual(want.poses);
  });

  it('a missing include is named; the running world stays', async () => {
    const main = 'husky_description/urdf/husky.urdf.xacro';
    const files = xacroFiles('husky', main);
    delete files.robotFiles!['husky_description/urdf/wheel.urdf.xacro'];
    const service = createDefaultService();
    try {
      await expect(service.load(files)).rejects.toThrow(/Included files not among the files opened: .*wheel\.urdf\.xacro.*ScenarioFiles\.robotFiles/);
    } finally {
      service.dispose();
    }
  });

  it('robotFiles that are not bytes are refused by name', async () => {
    const files = xacroFiles('husky', 'husky_description/urdf/husky.urdf.xacro');
    (files.robotFiles as Record<string, unknown>)['x.xacro'] = 'text';
    const service = createDefaultService();
    try {
      await expect(service.load(files)).rejects.toThrow(/robotFiles\["x\.xacro"\] must be the file's bytes/);
    } finally {
      service.dispose();
    }
  });
});
