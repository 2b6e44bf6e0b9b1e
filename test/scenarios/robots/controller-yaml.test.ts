/**
 * Joints held as the robot's controllers hold them (issue #27): a rover whose arm sticks out
 * ahead on effort-interface joints (test/fixtures/controller-yaml/, as the Curiosity model ships
 * its arm) and whose package's config/ puts the arm under position controllers (a ROS 1 file and
 * a ROS 2 file). Through the CLI's path (readScenarioFilesAsync + worldFromScenarioFiles) and the
 * service's (a host's copy of the package in ScenarioFiles.robotFiles):
 *   - the arm stays out (shoulder within 0.03 rad of its start over 2 s; ROS 2: of initial_value);
 *   - `robot.controllerConfig: false` lets it fall (more than 0.3 rad);
 *   - the scenario's `hold` wins over the file; the wheels' velocity controllers change nothing;
 *   - bad YAML is a warning naming the file and line, and the robot loads.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefaultService } from '../../../sim/app/default-service';
import { assetHashes } from '../../../sim/app/record-session';
import type { SimWorld } from '../../../sim/app/sim-world';
import { worldWarnings } from '../../../sim/app/warnings';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { createWorld } from '../../../sim/scenario/create-world';
import { worldFromScenarioFiles } from '../../../sim/scenario/open-scenario';
import type { ScenarioFiles } from '../../../sim/scenario/scenario-files';
import { loadScenarioUrdfRobotWithVisuals } from '../../../sim/scenario/scenario-robot';
import { packageControllerFiles } from '../../../sim/scenario/scenario-controllers';
import { CONTROLLER_YAML_MAX_BYTES, CONTROLLER_YAML_MAX_FILES } from '../../../sim/robot/urdf/ros-controllers';
import { parseScenarioFile } from '../../../sim/scenario/scenario-v2';
import { flatGround } from './ros-harness';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const PACKAGES = join(HERE, '../../fixtures/controller-yaml');
/** [s] Time the arm is watched. */
const WATCH_S = 2;
/** [rad] Largest shoulder swing of a held arm. */
const HELD_TOLERANCE = 0.03;
/** [rad] Least shoulder swing of a free arm (it falls to the ground, ~0.5 rad). */
const FALLEN = 0.3;
const ARM_JOINTS = ['elbow_joint', 'shoulder_joint'];

const dir = mkdtempSync(join(tmpdir(), 'tw-controller-yaml-'));
let scenarios = 0;
/** A scenario file (flat inline ground) naming `urdf` with the extra robot fields. */
function scenario(urdf: string, robot: Record<string, unknown> = {}, script: unknown[] = []): string {
  const n = 41;
  const path = join(dir, `s${scenarios++}.json`);
  writeFileSync(path, JSON.stringify({
    format: 'terrawheel-scenario', version: 2, name: 'arm rover',
    terrain: { cols: n, rows: n, dx: 0.25, dy: 0.25, x0: -5, y0: -5, heights: new Array(n * n).fill(0) },
    robot: { urdf, position: [0, 0], ...robot }, script,
  }));
  return path;
}
const urdfOf = (pkg: string, root = PACKAGES) => join(root, pkg, 'urdf/arm_rover.urdf');

function shoulder(engine: DynamicsWorld): number {
  return engine.joints.position[engine.joints.defs.findIndex((d) => d.name === 'shoulder_joint')];
}

/** Steps WATCH_S seconds; the shoulder's largest distance from `target` over that time. */
function swing(engine: DynamicsWorld, step: () => void, dt: number, target: number, settle = 0): number {
  let worst = 0;
  for (let k = 0; k < Math.round(WATCH_S / dt); k++) {
    step();
    if (k * dt >= settle) worst = Math.max(worst, Math.abs(shoulder(engine) - target));
  }
  expect(engine.fault).toBeNull();
  return worst;
}

async function cliWorld(path: string) {
  const files = await readScenarioFilesAsync(path);
  const world = worldFromScenarioFiles(files);
  return { files, world, engine: world.engine };
}

/** The robot's user-visible warnings (what the CLI prints) for the files. */
function robotWarnings(files: ScenarioFiles): string[] {
  return loadScenarioUrdfRobotWithVisuals(parseScenarioFile(files.scenario), files, flatGround()).warnings;
}

describe('controller YAML in the robot\'s package holds its joints (CLI path)', () => {
  it('ROS 1 (effort_controllers/JointPositionController): the arm stays out; the info line names the joints and the file', async () => {
    const { files, world, engine } = await cliWorld(scenario(urdfOf('arm_rover_ros1')));
    expect(Object.keys(files.robotControllers ?? {})).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml']);
    expect(engine.spec.robot?.servos?.map((s) => s.joint).sort()).toEqual(ARM_JOINTS);
    expect(swing(engine, () => world.step(), engine.dt, 0)).toBeLessThan(HELD_TOLERANCE);
    // they shape the dynamics: a recording names them among its inputs
    expect((await assetHashes(files)).map((a) => a.name)).toContain('controllers:arm_rover_ros1/config/arm_rover_control.yaml');
    expect(robotWarnings(files)).toEqual([
      'info: joints held at their start position by the robot\'s position controllers: "shoulder_joint", "elbow_joint" (arm_rover_ros1/config/arm_rover_control.yaml); the scenario\'s "robot.controllerConfig": false leaves them free',
    ]);
  });

  it('ROS 2 (JointTrajectoryController, joints under ros__parameters): held at the ros2_control initial_value', async () => {
    const { files, world, engine } = await cliWorld(scenario(urdfOf('arm_rover_ros2')));
    expect(engine.spec.robot?.servos).toEqual(expect.arrayContaining([{ joint: 'shoulder_joint', target: 0.2, maxVelocity: 1 }, { joint: 'elbow_joint', target: 0, maxVelocity: 1 }]));
    // the servo turns the shoulder to 0.2 rad at most at 1 rad/s: watched after 0.5 s
    expect(swing(engine, () => world.step(), engine.dt, 0.2, 0.5)).toBeLessThan(HELD_TOLERANCE);
    expect(robotWarnings(files).filter((w) => w.startsWith('info:'))).toEqual([expect.stringContaining('(arm_rover_ros2/config/controllers.yaml)')]);
  });

  it('robot.controllerConfig: false: the files are not read and the arm falls', async () => {
    const { files, world, engine } = await cliWorld(scenario(urdfOf('arm_rover_ros1'), { controllerConfig: false }));
    expect(files.robotControllers).toBeUndefined();
    expect(engine.spec.robot?.servos).toBeUndefined();
    expect(swing(engine, () => world.step(), engine.dt, 0)).toBeGreaterThan(FALLEN);
    expect(robotWarnings(files)).toEqual([]);
  });

  it('robot.controllerConfig: a path reads that one file (relative to the scenario), and a missing one is an error naming it', async () => {
    const ros2File = relative(dir, join(PACKAGES, 'arm_rover_ros2/config/controllers.yaml'));
    const { files, engine } = await cliWorld(scenario(urdfOf('arm_rover_ros1'), { controllerConfig: ros2File }));
    expect(Object.keys(files.robotControllers ?? {})).toEqual([ros2File]);
    // the ROS 1 robot has no initial_value: the ROS 2 file holds its arm at 0
    expect(engine.spec.robot?.servos?.map((s) => `${s.joint}@${s.target}`).sort()).toEqual(['elbow_joint@0', 'shoulder_joint@0']);
    await expect(readScenarioFilesAsync(scenario(urdfOf('arm_rover_ros1'), { controllerConfig: 'nowhere.yaml' }))).rejects.toThrow(/file not found: .*nowhere\.yaml \("robot\.controllerConfig" of /);
  });

  it('the scenario\'s hold wins over the controller file', async () => {
    const { world, engine } = await cliWorld(scenario(urdfOf('arm_rover_ros1'), { controller: { hold: { shoulder_joint: -0.3 } } }));
    expect(engine.spec.robot?.servos).toEqual(expect.arrayContaining([{ joint: 'shoulder_joint', target: -0.3, maxVelocity: 1 }, { joint: 'elbow_joint', target: 0, maxVelocity: 1 }]));
    expect(swing(engine, () => world.step(), engine.dt, -0.3, 0.5)).toBeLessThan(HELD_TOLERANCE);
  });

  it('the wheels\' velocity controllers change nothing: the drive commands the wheels and the rover drives', async () => {
    const script = [{ t: 0, throttle: 0, steer: 0 }, { t: 0.5, throttle: 1, steer: 0 }];
    const on = await cliWorld(scenario(urdfOf('arm_rover_ros1'), {}, script));
    const off = await cliWorld(scenario(urdfOf('arm_rover_ros1'), { controllerConfig: false }, script));
    const wheels = (e: DynamicsWorld) => e.spec.robot?.joints.filter((j) => j.name.endsWith('wheel_joint')).map((j) => j.motor);
    expect(wheels(on.engine)).toEqual(wheels(off.engine));
    expect(on.engine.spec.robot?.controller).toEqual(off.engine.spec.robot?.controller);
    expect(on.engine.spec.robot?.servos?.some((s) => s.joint.endsWith('wheel_joint'))).toBe(false);
    const base = on.engine.bodies.indexOf('base_link');
    const x0 = on.engine.bodies.pos[3 * base];
    on.world.step(Math.round(2 / on.engine.dt));
    expect(on.engine.fault).toBeNull();
    expect(on.engine.bodies.pos[3 * base] - x0).toBeGreaterThan(0.5);
  });

  it('a joint the drive commands is not held even under a position controller; joints the robot lacks are a note', async () => {
    const yaml = join(dir, 'drive-joints.yaml');
    writeFileSync(yaml, 'rover:\n  steer:\n    type: effort_controllers/JointGroupPositionController\n    joints: [front_left_wheel_joint, shoulder_joint, gripper_joint]\n');
    const { files, engine } = await cliWorld(scenario(urdfOf('arm_rover_ros1'), { controllerConfig: relative(dir, yaml) }));
    expect(engine.spec.robot?.servos?.map((s) => s.joint)).toEqual(['shoulder_joint']);
    expect(engine.spec.robot?.joints.find((j) => j.name === 'front_left_wheel_joint')?.motor?.targetVelocity).toBe(0);
    expect(robotWarnings(files)).toEqual([
      'controller file drive-joints.yaml holds "gripper_joint", which robot "arm_rover_ros1" does not have; ignored',
      expect.stringMatching(/^info: joints held .*: "shoulder_joint" \(drive-joints\.yaml\)/),
    ]);
  });

  it('robot.controllerConfig is validated: true, false or a path', () => {
    const parse = (controllerConfig: unknown) => () => parseScenarioFile({ format: 'terrawheel-scenario', version: 2, terrain: 't.json', robot: { urdf: 'x.urdf', controllerConfig } });
    expect(parse(3)).toThrow(/robot\.controllerConfig: must be true, false or the path of a controller YAML file/);
    expect(parse('')).toThrow(/robot\.controllerConfig/);
    expect(parse('a\u0000b')).toThrow(/robot\.controllerConfig/);
    for (const ok of [true, false, 'config/arm.yaml']) expect((parseScenarioFile({ format: 'terrawheel-scenario', version: 2, terrain: 't.json', robot: { urdf: 'x.urdf', controllerConfig: ok } }).robot as { controllerConfig?: unknown }).controllerConfig).toBe(ok);
  });

  it('createWorld (scripts) takes the controller files as options.robotControllers', () => {
    const urdf = readFileSync(urdfOf('arm_rover_ros1'), 'utf8');
    const yaml = readFileSync(join(PACKAGES, 'arm_rover_ros1/config/arm_rover_control.yaml'), 'utf8');
    const n = 41;
    const scenarioObject = (robot: Record<string, unknown> = {}) => ({
      format: 'terrawheel-scenario', version: 2, terrain: { cols: n, rows: n, dx: 0.25, dy: 0.25, x0: -5, y0: -5, heights: new Array(n * n).fill(0) },
      robot: { urdf: 'arm_rover.urdf', position: [0, 0], ...robot },
    });
    const servos = (robot?: Record<string, unknown>) => createWorld(scenarioObject(robot), { robotUrdf: urdf, robotControllers: { 'config/c.yaml': yaml } }).engine.spec.robot?.servos?.map((s) => s.joint).sort();
    expect(servos()).toEqual(ARM_JOINTS);
    expect(servos({ controllerConfig: false })).toBeUndefined();
  });

  it('bad YAML: a warning naming the file and line; the robot loads, its arm free', async () => {
    const root = mkdtempSync(join(dir, 'bad-'));
    cpSync(join(PACKAGES, 'arm_rover_ros1'), join(root, 'arm_rover_ros1'), { recursive: true });
    const yaml = join(root, 'arm_rover_ros1/config/arm_rover_control.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('joint: shoulder_joint', 'joint: [shoulder_joint'));
    const { files, engine } = await cliWorld(scenario(urdfOf('arm_rover_ros1', root)));
    expect(engine.spec.robot?.servos).toBeUndefined();
    expect(robotWarnings(files)).toEqual([expect.stringMatching(/^controller file arm_rover_ros1\/config\/arm_rover_control\.yaml line \d+ is not valid YAML \(.+\); its controllers are ignored$/)]);
  });
});

/** Every file of a fixture package, keyed as a folder drop names them ("arm_rover_ros1/config/…"). */
function packageFiles(pkg: string): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs)) {
      const p = join(abs, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(PACKAGES, p).split('\\').join('/')] = new Uint8Array(readFileSync(p));
    }
  };
  walk(join(PACKAGES, pkg));
  return out;
}

describe('controller YAML through the service (a host\'s copy of the package in ScenarioFiles.robotFiles)', () => {
  async function load(robot: Record<string, unknown> = {}) {
    const urdf = 'arm_rover_ros1/urdf/arm_rover.urdf';
    const n = 41;
    const files: ScenarioFiles = {
      scenario: { format: 'terrawheel-scenario', version: 2, terrain: { cols: n, rows: n, dx: 0.25, dy: 0.25, x0: -5, y0: -5, heights: new Array(n * n).fill(0) }, robot: { urdf, position: [0, 0], ...robot } },
      terrainSidecar: null,
      terrainData: new Uint8Array(0),
      robotUrdf: readFileSync(join(PACKAGES, urdf), 'utf8'),
      robotFiles: { ...packageFiles('arm_rover_ros1'), ...packageFiles('arm_rover_ros2') },
    };
    const service = createDefaultService();
    await service.load(files);
    return { service, world: service.getWorld() as SimWorld };
  }

  it('finds the robot\'s package by its package.xml, holds the arm and says so in the world warnings', async () => {
    const { service, world } = await load();
    try {
      const engine = world.engine;
      expect(engine.spec.robot?.servos?.map((s) => s.joint).sort()).toEqual(ARM_JOINTS);
      expect(worldWarnings(world.info())).toContainEqual(expect.stringMatching(/^info: joints held .*"shoulder_joint", "elbow_joint" \(arm_rover_ros1\/config\/arm_rover_control\.yaml\)/));
      expect(swing(engine, () => world.step(1), world.dt, 0)).toBeLessThan(HELD_TOLERANCE);
    } finally {
      service.dispose();
    }
  });

  it('controllerConfig: false reads none; a path picks that file among robotFiles', async () => {
    let s = await load({ controllerConfig: false });
    try {
      expect(s.world.engine.spec.robot?.servos).toBeUndefined();
    } finally {
      s.service.dispose();
    }
    s = await load({ controllerConfig: 'arm_rover_ros2/config/controllers.yaml' });
    try {
      expect(s.world.engine.spec.robot?.servos?.map((x) => x.joint).sort()).toEqual(ARM_JOINTS);
      expect(worldWarnings(s.world.info())).toContainEqual(expect.stringContaining('(arm_rover_ros2/config/controllers.yaml)'));
    } finally {
      s.service.dispose();
    }
  });
});

describe('the caps on controller files', () => {
  it('at most CONTROLLER_YAML_MAX_FILES files (by path) of at most CONTROLLER_YAML_MAX_BYTES each; each skip is a note the world warnings carry', async () => {
    const files: Record<string, Uint8Array> = { 'pkg/package.xml': new Uint8Array(1), 'pkg/urdf/r.urdf': new Uint8Array(1) };
    for (let k = 0; k < CONTROLLER_YAML_MAX_FILES + 3; k++) files[`pkg/config/c${String(k).padStart(2, '0')}.yaml`] = new TextEncoder().encode('a: 1\n');
    files['pkg/config/c00.yaml'] = new Uint8Array(CONTROLLER_YAML_MAX_BYTES + 1);
    files['pkg/config/deep/a/b/c/too-deep.yaml'] = new Uint8Array(1);
    files['other/config/x.yaml'] = new Uint8Array(1);
    const r = packageControllerFiles(files, 'pkg/urdf/r.urdf');
    expect(Object.keys(r?.files ?? {})).toHaveLength(CONTROLLER_YAML_MAX_FILES - 1);
    expect(r?.files['pkg/config/c01.yaml']).toBe('a: 1\n');
    expect(r?.notes).toEqual([
      `pkg/config holds ${CONTROLLER_YAML_MAX_FILES + 3} YAML files; only the first ${CONTROLLER_YAML_MAX_FILES} (by path) are read for controllers; name the one that matters in the scenario's "robot.controllerConfig"`,
      `controller file pkg/config/c00.yaml is ${CONTROLLER_YAML_MAX_BYTES + 1} bytes, over ${CONTROLLER_YAML_MAX_BYTES}; not read`,
    ]);
    // no package.xml among the files: nothing is looked for
    expect(packageControllerFiles({ 'pkg/config/a.yaml': new Uint8Array(1) }, 'pkg/urdf/r.urdf')).toBeNull();
  });
});
