/**
 * Open Robot…: the running scenario with its robot replaced, and the URDF's mesh files gathered
 * through a Host (Electron's pre-read files, or readRelated by base name in a browser).
 */
import { describe, expect, it } from 'vitest';
import type { Host } from '../../../renderer/host/host';
import { gatherOpenedRobot, replaceRobot, withRobot } from '../../../renderer/robot-swap';
import type { OpenedRobotFile } from '../../../electron/ipc-contract';
import { UrdfError } from '../../../sim/robot/urdf/urdf-error';

const scenario = {
  format: 'terrawheel-scenario', version: 2, name: 'hills', terrain: '../terrains/hills.json',
  robot: { urdf: '../robots/ackermann-car.urdf', position: [3, -5], yaw: 0.5, controller: { type: 'ackermann' } },
  script: [{ t: 0, throttle: 0.5, steer: 0 }],
};

const URDF = `<robot name="r">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><mesh filename="package://r/meshes/base.stl"/></geometry></collision>
    <visual><geometry><mesh filename="meshes/shell.obj"/></geometry></visual>
    <visual><geometry><mesh filename="meshes/gone.obj"/></geometry><material name="t"><texture filename="skin.png"/></material></visual>
  </link>
</robot>`;

function fakeHost(files: Record<string, string>, asked: string[]): Host {
  return {
    kind: 'web',
    readRelated: async (_token: string, name: string) => {
      asked.push(name);
      if (!(name in files)) throw new Error(`"${name}" was not selected`);
      return new TextEncoder().encode(files[name]);
    },
  } as unknown as Host;
}

const opened = (text: string, related?: Record<string, Uint8Array>): OpenedRobotFile => ({ kind: 'robot', name: 'r.urdf', bytes: new TextEncoder().encode(text), token: 'web-1', ...(related ? { related } : {}) });

describe('replaceRobot', () => {
  it('puts the URDF at the old robot\'s start, drops its controller (inferred), keeps everything else', () => {
    const out = replaceRobot(scenario, 'mine.urdf');
    expect(out.robot).toEqual({ urdf: 'mine.urdf', position: [3, -5], yaw: 0.5 });
    expect({ ...out, robot: scenario.robot }).toEqual(scenario);
    expect(scenario.robot.urdf).toBe('../robots/ackermann-car.urdf'); // the running scenario is not mutated
  });

  it('a scenario whose robot has no usable pose starts the URDF at the origin', () => {
    expect(replaceRobot({ ...scenario, robot: { type: 'skid-steer', position: [1, Number.NaN] } }, 'a.urdf').robot).toEqual({ urdf: 'a.urdf', position: [0, 0], yaw: 0 });
    expect(replaceRobot({ version: 2 }, 'a.urdf').robot).toEqual({ urdf: 'a.urdf', position: [0, 0], yaw: 0 });
  });

  it('refuses a version 1 scenario and a non-object with a message', () => {
    expect(() => replaceRobot({ ...scenario, version: 1 }, 'a.urdf')).toThrow(/version 2 scenario only/);
    expect(() => replaceRobot(null, 'a.urdf')).toThrow(/not a JSON object/);
  });

  it('withRobot swaps scenario and robot files, keeps the terrain', () => {
    const terrainData = new Uint8Array([1, 2, 3]);
    const files = withRobot({ scenario, terrainSidecar: { image: 'x.png' }, terrainData, robotUrdf: 'old', robotMeshes: { 'old.stl': new Uint8Array(1) } }, { name: 'r.urdf', urdf: URDF, meshes: { 'meshes/base.stl': new Uint8Array(2) }, notes: [] });
    expect(files.terrainData).toBe(terrainData);
    expect(files.robotUrdf).toBe(URDF);
    expect(Object.keys(files.robotMeshes ?? {})).toEqual(['meshes/base.stl']);
    expect((files.scenario as { robot: unknown }).robot).toEqual({ urdf: 'r.urdf', position: [3, -5], yaw: 0.5 });
  });
});

describe('gatherOpenedRobot', () => {
  it('web: asks for each collision and visual mesh by base name (not textures), keyed by resolved path; a missing one is left out', async () => {
    const asked: string[] = [];
    const r = await gatherOpenedRobot(fakeHost({ 'base.stl': 'solid', 'shell.obj': 'o' }, asked), opened(URDF));
    expect(asked).toEqual(['base.stl', 'shell.obj', 'gone.obj']);
    expect(Object.keys(r.meshes)).toEqual(['meshes/base.stl', 'meshes/shell.obj']);
    expect(r.urdf).toBe(URDF);
    expect(r.name).toBe('r.urdf');
  });

  it('desktop: takes the files main read (OpenedRobotFile.related) and asks for nothing', async () => {
    const asked: string[] = [];
    const r = await gatherOpenedRobot(fakeHost({}, asked), opened(URDF, { 'meshes/base.stl': new Uint8Array([7]) }));
    expect(asked).toEqual([]);
    expect(Object.keys(r.meshes)).toEqual(['meshes/base.stl']);
  });

  it('a broken URDF rejects with the UrdfError naming the joint', async () => {
    const broken = URDF.replace('</robot>', '<joint name="hinge" type="sliding"><parent link="base"/><child link="base"/></joint></robot>');
    const err = await gatherOpenedRobot(fakeHost({}, []), opened(broken)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrdfError);
    expect((err as Error).message).toContain('hinge');
  });
});
