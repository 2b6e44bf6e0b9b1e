/**
 * openScenario (sim/node/open-scenario.ts): one call from a scenario file to a world. Pins that
 * it builds the same world as the app's service (equal state hashes after stepping, every
 * bundled scenario), that missing files are named with the field that named them, and that the
 * cheap reads (bodyIndex, readPose, readVelocity) give the frame's numbers and allocate nothing.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDefaultService } from '../../../sim/app/default-service';
import type { SimWorld } from '../../../sim/app/sim-world';
import type { PlainWorld } from '../../../sim/dynamics/plain-world';
import { openScenario, openScenarioAsync, readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { ScenarioFileError } from '../../../sim/scenario/scenario-files';

const ASSETS = join(__dirname, '../../../assets');
const SCENARIOS = readdirSync(join(ASSETS, 'scenarios')).filter((n) => n.endsWith('.json')).sort();
/** Steps compared per scenario: enough for contacts, drive and script to act (and cheap on a busy machine). */
const STEPS = 120;

describe('openScenario: the same world as the app builds', () => {
  it('finds the bundled scenarios', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(9);
  });
  for (const name of SCENARIOS) {
    it(`${name}: equal state hash after ${STEPS} steps to the service's world`, async () => {
      const path = join(ASSETS, 'scenarios', name);
      // a xacro robot (the bundled Husky, Leo, TurtleBot3) needs the async gathering
      const opened = await openScenarioAsync(path);
      const service = createDefaultService();
      try {
        await service.load(await readScenarioFilesAsync(path));
        const sim = service.getWorld() as SimWorld;
        expect(opened.engine.bodies.count).toBe(sim.engine.bodies.count);
        expect(opened.stateHash()).toBe(sim.engine.stateHash());
        opened.step(STEPS);
        sim.step(STEPS);
        expect(opened.engine.stepCount).toBe(STEPS);
        expect(opened.stateHash()).toBe(sim.engine.stateHash());
      } finally {
        service.dispose();
      }
    }, 120_000);
  }
});

describe('openScenario: missing files are named with what named them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-open-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'terrains'));
  mkdirSync(join(dir, 'robots'));
  copyFileSync(join(ASSETS, 'terrains/ramp.json'), join(dir, 'terrains/ramp.json'));
  copyFileSync(join(ASSETS, 'terrains/ramp.png'), join(dir, 'terrains/ramp.png'));
  writeFileSync(join(dir, 'terrains/nodata.json'), JSON.stringify({ image: 'gone.png', format: 'png', metersPerPixel: 0.05, heightRange: [0, 1] }));
  const scenario = (file: string, extra: object): string => {
    const p = join(dir, file);
    writeFileSync(p, JSON.stringify({ format: 'terrawheel-scenario', version: 2, name: file, ...extra }));
    return p;
  };
  const robot = (urdf: string) => ({ robot: { urdf, position: [-13, 0], yaw: 0 } });
  writeFileSync(join(dir, 'robots/meshy.urdf'), `<robot name="meshy">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><mesh filename="meshes/body.stl"/></geometry></collision></link>
</robot>`);

  const fails = (path: string, pattern: RegExp): ScenarioFileError => {
    let err: unknown = null;
    try {
      openScenario(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioFileError);
    expect((err as Error).message).toMatch(pattern);
    return err as ScenarioFileError;
  };

  it('the scenario itself', () => {
    const e = fails(join(dir, 'nope.json'), /^file not found: .*nope\.json \(the scenario\)$/);
    expect(e.path).toBe(join(dir, 'nope.json'));
  });
  it('the terrain sidecar, naming the scenario field "terrain"', () => {
    const e = fails(scenario('a.json', { terrain: 'terrains/missing.json' }), /^file not found: .*terrains\/missing\.json \("terrain" of .*a\.json\)$/);
    expect(e.path).toBe(join(dir, 'terrains/missing.json'));
  });
  it('the terrain data, naming the sidecar field "image"', () => {
    fails(scenario('b.json', { terrain: 'terrains/nodata.json' }), /^file not found: .*terrains\/gone\.png \("image" of the terrain sidecar .*nodata\.json\)$/);
  });
  it('the URDF, naming "robot.urdf"', () => {
    fails(scenario('c.json', { terrain: 'terrains/ramp.json', ...robot('robots/none.urdf') }), /^file not found: .*robots\/none\.urdf \("robot\.urdf" of .*c\.json\)$/);
  });
  it('a collision mesh, naming its link and URDF', () => {
    fails(scenario('d.json', { terrain: 'terrains/ramp.json', ...robot('robots/meshy.urdf') }), /^file not found: .*robots\/meshes\/body\.stl \(collision mesh of link "base" in .*meshy\.urdf\)$/);
  });
  it('a scenario that is not JSON', () => {
    writeFileSync(join(dir, 'bad.json'), '{ "format": ');
    fails(join(dir, 'bad.json'), /bad\.json \(the scenario\) is not valid JSON/);
  });
});

describe('cheap reads: bodyIndex, readPose, readVelocity', () => {
  const world: PlainWorld = openScenario(join(ASSETS, 'scenarios/default.json'));
  world.step(200);

  it('give the same numbers as state() and the frame, for every body', () => {
    const st = world.state();
    const pose = new Float64Array(7), vel = new Float64Array(6);
    for (const b of st.bodies) {
      const k = world.bodyIndex(b.name);
      expect(Array.from(world.readPose(k, pose))).toEqual([...b.position, ...b.orientation]);
      expect(Array.from(world.readVelocity(k, vel))).toEqual([...b.linearVelocity, ...b.angularVelocity]);
    }
    expect(st.bodies.length).toBeGreaterThan(4);
  });

  it('refuse unknown names, bad indices and short arrays with a clear error', () => {
    expect(() => world.bodyIndex('rover/nothing')).toThrow(/no body named "rover\/nothing"; the bodies are ".*"/);
    expect(() => world.readPose(-1, new Float64Array(7))).toThrow(/readPose: index must be a body index 0\.\./);
    expect(() => world.readPose(1.5, new Float64Array(7))).toThrow(/index must be/);
    expect(() => world.readVelocity(0, new Float64Array(5))).toThrow(/readVelocity: out must be a Float64Array of at least 6/);
  });

  it('allocate nothing (heap sampling profiler over 200 000 reads)', async () => {
    const k = world.bodyIndex(world.state().bodies[0].name);
    const pose = new Float64Array(7), vel = new Float64Array(6);
    // (the loop itself computes no double: a sum kept here would be boxed by unoptimized code)
    function pollUnderProfiler(n: number): void {
      for (let i = 0; i < n; i++) {
        world.readPose(k, pose);
        world.readVelocity(k, vel);
      }
    }
    pollUnderProfiler(50_000); // warm up: let V8 optimize before measuring
    const session = new Session();
    session.connect();
    let bytes = 0;
    try {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', { samplingInterval: 64, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as { samplingInterval: number });
      pollUnderProfiler(200_000);
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
      const walk = (n: HeapNode, inside: boolean): void => {
        const here = inside || n.callFrame.functionName === 'pollUnderProfiler';
        if (here) bytes += n.selfSize;
        if (here && n.selfSize > 0 && process.env.READ_ALLOC_VERBOSE) console.log(n.callFrame.functionName, n.selfSize);
        for (const c of n.children) walk(c, here);
      };
      walk(profile.head, false);
    } finally {
      session.disconnect();
    }
    // A boxed double or a temporary array per read would be ≥ 16 B × 400 000 reads = 6.4 MB.
    expect(bytes / 400_000).toBeLessThan(1);
  });
});

interface HeapNode {
  callFrame: { functionName: string };
  selfSize: number;
  children: HeapNode[];
}
