/**
 * WorldInfo.visuals: the worker hands the renderer the URDF robot's visuals with the world info,
 * named by bodies the renderer knows.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultService } from '../../../sim/app/default-service';
import { readScenarioFiles } from '../../../sim/node/cli';
import { SCENARIO_DIR } from '../scenario/helpers';

describe('WorldInfo.visuals', () => {
  it('lists the rover-with-trailer URDF visuals (primitives and the mast mesh) on bodies of the world', async () => {
    const service = createDefaultService();
    const info = await service.load(readScenarioFiles(join(SCENARIO_DIR, 'robot-rover6-trailer.json')));
    const visuals = info.visuals ?? [];
    expect(visuals.length).toBe(13);
    const names = new Set(info.bodies.map((b) => b.name));
    for (const v of visuals) expect(names.has(v.body)).toBe(true);
    const mast = visuals.find((v) => v.geometry.type === 'mesh');
    expect(mast?.geometry).toMatchObject({ type: 'mesh', file: '../robots/meshes/rover-mast.obj' });
    expect(visuals.some((v) => v.geometry.type === 'cylinder')).toBe(true);
    service.dispose();
  });

  it('is absent for the built-in rover (it has no visuals: its collision shapes are drawn)', async () => {
    const service = createDefaultService();
    const info = await service.load(readScenarioFiles(join(SCENARIO_DIR, 'default.json')));
    expect(info.visuals).toBeUndefined();
    service.dispose();
  });
});
