/**
 * A robot's scenario options (issue #27): self-collision off by default (Gazebo's default), on
 * per robot, SRDF-style disabled pairs honoured (from the scenario or an .srdf next to the
 * URDF); lumpFixedLinks, motorTorque and xacroArgs from the scenario file; a xacro robot read
 * and expanded by the CLI's file gathering.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { CONTACT_KIND_BODY_PAIR } from '../../../sim/dynamics/frame-layout';
import type { RobotSpec } from '../../../sim/dynamics/spec';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import type { UrdfToRobotOptions } from '../../../sim/robot/urdf/urdf-to-robot';
import { parseSrdfDisabledPairs } from '../../../sim/robot/urdf/srdf';
import { loadScenarioUrdfRobot, loadScenarioUrdfRobotWithVisuals } from '../../../sim/scenario/scenario-robot';
import { parseScenarioFile } from '../../../sim/scenario/scenario-v2';
import { readScenarioFiles, readScenarioFilesAsync } from '../../../sim/node/cli';
import { FIXTURES, flatGround } from './ros-harness';
import { createDefaultService } from '../../../sim/app/default-service';
import type { SimWorld } from '../../../sim/app/sim-world';
import { worldWarnings } from '../../../sim/app/warnings';

const INERTIAL = '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>';
const BOX = '<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>';
/** A base and two arms on hinges 5 cm apart: the arms' boxes overlap, and are not jointed to each other. */
const ARMS = `<robot name="arms"><link name="base">${INERTIAL}</link>
  <link name="arm1">${INERTIAL}${BOX}</link><link name="arm2">${INERTIAL}${BOX}</link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm1"/><origin xyz="0 0 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="base"/><child link="arm2"/><origin xyz="0.05 0 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>`;

function pairContacts(options: UrdfToRobotOptions): number {
  const r: RobotSpec = loadUrdfRobot(ARMS, { controller: 'none', ...options }).robot;
  const w = createDynamicsWorld({ name: 'arms', gravity: [0, 0, 0], dt: 1 / 240, substeps: 4, sleep: false, ccd: false, materials: {}, terrainMaterials: {}, bodies: [], joints: [], robot: r, script: [] }, null);
  w.step(1);
  let n = 0;
  for (let i = 0; i < w.contacts.count; i++) if (w.contacts.kind[i] === CONTACT_KIND_BODY_PAIR) n++;
  return n;
}

describe('self-collision', () => {
  it('is off between the links of one robot by default, on per robot, with disabled pairs honoured', () => {
    expect(pairContacts({})).toBe(0);
    expect(pairContacts({ selfCollide: true })).toBeGreaterThan(0);
    expect(pairContacts({ selfCollide: true, disableCollisions: [['arm2', 'arm1']] })).toBe(0);
  });

  it('an unknown link in a disabled pair is an error naming it', () => {
    expect(() => loadUrdfRobot(ARMS, { controller: 'none', selfCollide: true, disableCollisions: [['arm1', 'arm9']] })).toThrow(/disableCollisions: "arm9" is not a link of robot "arms"/);
  });

  it('reads the disable_collisions pairs of an SRDF', () => {
    const srdf = `<?xml version="1.0"?><robot name="arms"><group name="g"/><disable_collisions link1="arm1" link2="arm2" reason="Never"/><disable_collisions link1="base" link2="arm1" reason="Adjacent"/></robot>`;
    expect(parseSrdfDisabledPairs(srdf)).toEqual([['arm1', 'arm2'], ['base', 'arm1']]);
    expect(() => parseSrdfDisabledPairs('<robot><disable_collisions link1="a"/></robot>', 'x.srdf')).toThrow(/x.srdf: <disable_collisions> #1 needs link1="..." and link2="..."/);
  });
});

describe('scenario options of a URDF robot', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-robot-options-'));
  // flat, with cells fine enough for the Leo's 6.3 cm wheels (2 cm: the coarse-terrain warning
  // counts cells per wheel radius, and the Leo's wheels are wheels)
  const terrain = { cols: 401, rows: 401, dx: 0.02, dy: 0.02, x0: -4, y0: -4, heights: new Array<number>(401 * 401).fill(0) };
  const leo = join(FIXTURES, 'leo/leo_description/urdf/leo.urdf.xacro');

  it('a xacro robot is expanded by the CLI\'s gathering, with robot.xacroArgs; the options reach the robot', async () => {
    const path = join(dir, 'leo.json');
    writeFileSync(path, JSON.stringify({
      format: 'terrawheel-scenario', version: 2, terrain,
      robot: { urdf: leo, position: [0, 0], xacroArgs: { mecanum_wheels: true }, motorTorque: 5, lumpFixedLinks: true, selfCollide: true, disableCollisions: [['wheel_FL_link', 'wheel_FR_link'], ['rocker_L_link', 'base_link']] },
    }));
    expect(() => readScenarioFiles(path)).toThrow(/is a xacro file: gather the scenario with gatherScenarioFilesAsync \(readScenarioFilesAsync in Node\)/);
    const files = await readScenarioFilesAsync(path);
    expect(files.robotUrdf).toMatch(/WheelMecanum/);
    expect(Object.keys(files.robotMeshes ?? {}).some((p) => p.endsWith('Mecanum_wheel_outline.stl'))).toBe(true);
    const parsed = parseScenarioFile(files.scenario);
    const robot = loadScenarioUrdfRobot(parsed, files, flatGround());
    const motors = robot.joints.filter((j) => j.motor);
    expect(motors.length).toBe(4);
    for (const j of motors) expect(j.motor!.maxTorque).toBe(5);
    expect(robot.selfCollide).toBe(true);
    // with mecanum wheels the rockers are fixed: lumped into base_link, their pair is inside one body and dropped
    expect(robot.disableCollisions).toEqual([['wheel_FL_link', 'wheel_FR_link']]);
    expect(robot.bodies.map((b) => b.name)).not.toContain('rocker_L_link');
  });

  it('an .srdf next to the URDF is read, its pairs honoured', async () => {
    const urdf = join(dir, 'arms.urdf');
    writeFileSync(urdf, ARMS);
    writeFileSync(join(dir, 'arms.srdf'), '<robot name="arms"><disable_collisions link1="arm1" link2="arm2" reason="Never"/></robot>');
    const path = join(dir, 'arms.json');
    writeFileSync(path, JSON.stringify({ format: 'terrawheel-scenario', version: 2, terrain, robot: { urdf: 'arms.urdf', position: [0, 0], selfCollide: true } }));
    const files = await readScenarioFilesAsync(path);
    const robot = loadScenarioUrdfRobot(parseScenarioFile(files.scenario), files, flatGround());
    expect(robot.disableCollisions).toEqual([['arm1', 'arm2']]);
  });

  it('robot.controller holds joints and picks the kind from the scenario file; an unknown joint is an error listing the movable ones', async () => {
    const urdf = join(dir, 'arms-hold.urdf');
    writeFileSync(urdf, ARMS);
    const write = (controller: object) => {
      const path = join(dir, 'arms-hold.json');
      writeFileSync(path, JSON.stringify({ format: 'terrawheel-scenario', version: 2, terrain, robot: { urdf: 'arms-hold.urdf', position: [0, 0], controller } }));
      return path;
    };
    let files = await readScenarioFilesAsync(write({ type: 'none', hold: { j1: 0.2 } }));
    const robot = loadScenarioUrdfRobot(parseScenarioFile(files.scenario), files, flatGround());
    expect(robot.controller).toBeUndefined();
    expect(robot.servos).toEqual([{ joint: 'j1', target: 0.2, maxVelocity: 1 }]);
    expect(robot.joints.find((j) => j.name === 'j1')!.motor).toEqual({ targetVelocity: 0, maxTorque: 1 });
    files = await readScenarioFilesAsync(write({ hold: { j7: 0.2 } }));
    expect(() => loadScenarioUrdfRobot(parseScenarioFile(files.scenario), files, flatGround())).toThrow(/controller\.hold\.j7: robot "arms" has no joint "j7"; its movable joints are "j1", "j2"/);
    files = await readScenarioFilesAsync(write({ type: 'ackermann' }));
    expect(() => loadScenarioUrdfRobot(parseScenarioFile(files.scenario), files, flatGround())).toThrow(/controller: no "ackermann" controller fits robot "arms"/);
  });

  it('a URDF effort limit capping the wheel motors below the drive\'s need is a world warning (shown by the app and the CLI); robot.motorTorque clears it', async () => {
    const path = join(dir, 'leo-torque.json');
    const warningsWith = async (motorTorque?: number): Promise<string[]> => {
      writeFileSync(path, JSON.stringify({ format: 'terrawheel-scenario', version: 2, terrain, robot: { urdf: leo, position: [0, 0], ...(motorTorque === undefined ? {} : { motorTorque }) } }));
      const service = createDefaultService();
      try {
        await service.load(await readScenarioFilesAsync(path));
        return worldWarnings((service.getWorld() as SimWorld).info());
      } finally {
        service.dispose();
      }
    };
    // the Leo's wheel joints say <limit effort="2">: 2 N·m cannot slip a wheel sideways in a skid-steer turn
    expect(await warningsWith()).toEqual([expect.stringMatching(/the wheel motors are capped by the URDF's <limit effort> \("wheel_FL_joint" 2 N·m.*set the scenario's "robot\.motorTorque"/)]);
    expect(await warningsWith(5)).toEqual([]);
  });

  it('refuses a bad option with the field named', () => {
    const bad = (robot: object) => () => parseScenarioFile({ format: 'terrawheel-scenario', version: 2, terrain, robot: { urdf: 'x.urdf', ...robot } });
    expect(bad({ motorTorque: -1 })).toThrow(/robot\.motorTorque/);
    expect(bad({ selfCollide: 'yes' })).toThrow(/robot\.selfCollide/);
    expect(bad({ disableCollisions: [['a']] })).toThrow(/robot\.disableCollisions/);
    expect(bad({ xacroArgs: { a: [1] } })).toThrow(/robot\.xacroArgs/);
    expect(bad({ visualMeshes: 0 })).toThrow(/robot\.visualMeshes/);
    // a misspelt option is an error naming it, not silently ignored
    expect(bad({ lumpFixedLink: true })).toThrow(/robot.*lumpFixedLink/);
  });

  it('robot.visualMeshes: false drops the mesh visuals (the renderer draws the collision shapes), keeps primitive ones', async () => {
    const urdf = join(dir, 'painted.urdf');
    writeFileSync(urdf, ARMS.replace('<link name="arm1">', '<link name="arm1"><visual><geometry><mesh filename="meshes/arm.stl"/></geometry></visual><visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual>'));
    const path = join(dir, 'painted.json');
    const load = async (visualMeshes?: boolean) => {
      writeFileSync(path, JSON.stringify({ format: 'terrawheel-scenario', version: 2, terrain, robot: { urdf: 'painted.urdf', position: [0, 0], controller: { type: 'none' }, ...(visualMeshes === undefined ? {} : { visualMeshes }) } }));
      const files = await readScenarioFilesAsync(path);
      return loadScenarioUrdfRobotWithVisuals(parseScenarioFile(files.scenario), files, flatGround()).visuals.map((v) => v.geometry.type);
    };
    expect((await load()).sort()).toEqual(['box', 'mesh']);
    expect(await load(false)).toEqual(['box']);
  });
});
