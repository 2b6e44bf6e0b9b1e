/**
 * File ▸ Open Robot… of a xacro robot in the main process (electron/robot-xacro.ts), through the
 * handlers: main finds the ROS package (package.xml), expands the robot to learn which includes
 * and meshes it needs, reads exactly those (sibling packages of the workspace too, nothing outside
 * a package, no links), and the renderer's own expansion (renderer/robot-swap.ts) builds the robot
 * from what main sent. A missing include is named.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers, type HostDialogs } from '../../../electron/handlers';
import type { FileKind, OpenedRobotFile } from '../../../electron/ipc-contract';
import { nodeFiles, nodeSettingsIo } from '../../../electron/node-files';
import { RELATED_MAX_PARSE_BYTES } from '../../../electron/related-files';
import { SettingsStore } from '../../../electron/settings-store';
import { TokenRegistry } from '../../../electron/token-registry';
import { gatherOpenedRobot } from '../../../renderer/robot-swap';
import type { Host } from '../../../renderer/host/host';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';

const FIXTURES = path.resolve(__dirname, '../../fixtures/robots');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-xacro-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function open(chosen: string, reads: string[] = []): Promise<OpenedRobotFile> {
  const dialogs: HostDialogs = { showOpen: async (_k: FileKind) => chosen, showSave: async () => null };
  const handlers = createHandlers({
    files: { ...nodeFiles, readFile: (p: string) => (reads.push(p), nodeFiles.readFile(p)) },
    dialogs,
    settings: new SettingsStore(nodeSettingsIo, path.join(dir, 'userData', 'settings.json'), () => undefined),
    tokens: new TokenRegistry(() => 'tok'),
    assetsRoot: path.join(dir, 'assets'),
  });
  return handlers.openFile('robot') as Promise<OpenedRobotFile>;
}

/** The renderer's side: the opened file expanded against what main sent (readRelated is never asked). */
const noRelated = { readRelated: async (_t: string, n: string) => { throw new Error(`readRelated(${n}) asked`); } } as unknown as Host;

async function failure(p: Promise<unknown>): Promise<string> {
  return p.then(() => 'resolved', (e: Error) => e.message);
}

describe('Open Robot… of a xacro robot as shipped (main process)', () => {
  it('the Husky: named in its package, with the includes and collision meshes it needs; the renderer builds it from them', async () => {
    const reads: string[] = [];
    const f = await open(path.join(FIXTURES, 'husky', 'husky_description', 'urdf', 'husky.urdf.xacro'), reads);
    expect(f.name).toBe('husky_description/urdf/husky.urdf.xacro');
    const keys = Object.keys(f.related ?? {});
    expect(keys).toContain('husky_description/urdf/wheel.urdf.xacro');
    expect(keys).toContain('husky_description/urdf/decorations.urdf.xacro');
    // its default configuration names only visual .dae meshes, which the fixture leaves out
    expect(keys.every((k) => /\.(xacro|urdf)$/.test(k))).toBe(true);
    // nothing outside the package is read (SOURCE.md, LICENSE sit beside it)
    for (const r of reads) expect(path.relative(path.join(FIXTURES, 'husky', 'husky_description'), r).startsWith('..')).toBe(false);
    const robot = await gatherOpenedRobot(noRelated, f);
    expect(robot.name).toBe('husky_description/urdf/husky.urdf.xacro');
    const loaded = loadUrdfRobot(robot.urdf, { urdfPath: robot.name, meshes: (p) => robot.meshes[p] });
    expect(loaded.wheels.map((w) => w.joint).sort()).toEqual(['front_left_wheel', 'front_right_wheel', 'rear_left_wheel', 'rear_right_wheel']);
  });

  it('the MiR: its include/ folder and collision meshes (STL in meshes/collision/)', async () => {
    const f = await open(path.join(FIXTURES, 'mir', 'mir_description', 'urdf', 'mir.urdf.xacro'));
    expect(f.name).toBe('mir_description/urdf/mir.urdf.xacro');
    expect(Object.keys(f.related ?? {})).toEqual(expect.arrayContaining([
      'mir_description/urdf/include/mir_v1.urdf.xacro', 'mir_description/meshes/collision/mir_100_base.stl',
    ]));
    const robot = await gatherOpenedRobot(noRelated, f);
    expect(() => loadUrdfRobot(robot.urdf, { urdfPath: robot.name, meshes: (p) => robot.meshes[p] })).not.toThrow();
  });

  it('a missing include is named in the error', async () => {
    cpSync(path.join(FIXTURES, 'husky', 'husky_description'), path.join(dir, 'husky_description'), { recursive: true });
    rmSync(path.join(dir, 'husky_description', 'urdf', 'wheel.urdf.xacro'));
    const msg = await failure(open(path.join(dir, 'husky_description', 'urdf', 'husky.urdf.xacro')));
    expect(msg).toMatch(/Included files not among the files opened: .*wheel\.urdf\.xacro/);
    expect(msg).toMatch(/package "husky_description"/);
  });
});

/** A workspace src/ with a robot package including a sibling package, and a folder that is no package. */
function workspace(): string {
  const src = path.join(dir, 'ws', 'src');
  mkdirSync(path.join(src, 'bot_description', 'urdf'), { recursive: true });
  mkdirSync(path.join(src, 'bot_parts', 'urdf'), { recursive: true });
  mkdirSync(path.join(src, 'bot_parts', 'meshes'), { recursive: true });
  mkdirSync(path.join(src, 'loose', 'urdf'), { recursive: true });
  writeFileSync(path.join(src, 'bot_description', 'package.xml'), '<package format="3"><name>bot_description</name></package>');
  writeFileSync(path.join(src, 'bot_parts', 'package.xml'), '<package format="3"><name>bot_parts</name></package>');
  writeFileSync(path.join(src, 'bot_description', 'urdf', 'bot.urdf.xacro'), `<?xml version="1.0"?>
<robot name="bot" xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:include filename="$(find bot_parts)/urdf/block.xacro"/>
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <xacro:block size="0.2"/>
  </link>
</robot>`);
  writeFileSync(path.join(src, 'bot_parts', 'urdf', 'block.xacro'), `<robot xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:macro name="block" params="size">
    <collision><geometry><mesh filename="package://bot_parts/meshes/block.stl" scale="\${size} \${size} \${size}"/></geometry></collision>
  </xacro:macro>
</robot>`);
  writeFileSync(path.join(src, 'bot_parts', 'meshes', 'block.stl'), 'solid block\nendsolid block\n');
  writeFileSync(path.join(src, 'loose', 'urdf', 'block.xacro'), '<robot/>');
  return src;
}

describe('Open Robot… of a xacro robot: $(find) of sibling packages, and what is never read', () => {
  it('$(find other_pkg) and package://other_pkg resolve in the sibling package of the workspace', async () => {
    const src = workspace();
    const f = await open(path.join(src, 'bot_description', 'urdf', 'bot.urdf.xacro'));
    expect(f.name).toBe('bot_description/urdf/bot.urdf.xacro');
    expect(Object.keys(f.related ?? {}).sort()).toEqual(['bot_parts/meshes/block.stl', 'bot_parts/urdf/block.xacro']);
  });

  it('a folder without package.xml beside it is not a package: its file is not read, and the include is named', async () => {
    const src = workspace();
    const main = path.join(src, 'bot_description', 'urdf', 'bot.urdf.xacro');
    writeFileSync(main, `<robot name="bot" xmlns:xacro="http://ros.org/wiki/xacro"><xacro:include filename="$(find loose)/urdf/block.xacro"/><xacro:block size="1"/></robot>`);
    const reads: string[] = [];
    const msg = await failure(open(main, reads));
    expect(msg).toMatch(/block\.xacro/);
    expect(reads.some((r) => r.includes(`${path.sep}loose${path.sep}`))).toBe(false);
  });

  it('an include reached through a symbolic link fails the open, saying so', async () => {
    const src = workspace();
    rmSync(path.join(src, 'bot_parts', 'urdf', 'block.xacro'));
    symlinkSync(path.join(src, 'loose', 'urdf', 'block.xacro'), path.join(src, 'bot_parts', 'urdf', 'block.xacro'));
    expect(await failure(open(path.join(src, 'bot_description', 'urdf', 'bot.urdf.xacro')))).toMatch(/symbolic link/);
  });

  it('an include over RELATED_MAX_PARSE_BYTES is refused before it is read', async () => {
    const src = workspace();
    const big = path.join(src, 'bot_parts', 'urdf', 'block.xacro');
    truncateSync(big, RELATED_MAX_PARSE_BYTES + 1);
    const reads: string[] = [];
    expect(await failure(open(path.join(src, 'bot_description', 'urdf', 'bot.urdf.xacro'), reads))).toMatch(/an included file may be at most/);
    expect(reads).not.toContain(big);
  });
});

describe('Open Robot… of a xacro robot: its package\'s controller files (issue #27)', () => {
  /** The controller-yaml fixture package with its URDF turned into a xacro (a property for the arm's effort). */
  function xacroPackage(): string {
    const pkg = path.join(dir, 'src', 'arm_rover_ros1');
    cpSync(path.resolve(__dirname, '../../fixtures/controller-yaml/arm_rover_ros1'), pkg, { recursive: true });
    const urdf = readFileSync(path.join(pkg, 'urdf', 'arm_rover.urdf'), 'utf8')
      .replace('<robot name="arm_rover_ros1">', '<robot name="arm_rover_ros1" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="arm_effort" value="200"/>')
      .replace('effort="200"', 'effort="${arm_effort}"');
    writeFileSync(path.join(pkg, 'urdf', 'arm_rover.urdf.xacro'), urdf);
    return pkg;
  }

  it('main sends config/*.yaml with the package.xml; the renderer takes them as the robot\'s controller files', async () => {
    const pkg = xacroPackage();
    writeFileSync(path.join(pkg, 'config', 'notes.txt'), 'not yaml');
    const f = await open(path.join(pkg, 'urdf', 'arm_rover.urdf.xacro'));
    expect(Object.keys(f.related ?? {}).sort()).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml', 'arm_rover_ros1/package.xml']);
    const robot = await gatherOpenedRobot(noRelated, f);
    expect(Object.keys(robot.controllers ?? {})).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml']);
  });

  it('a plain URDF in its package: main sends the controller files beside the meshes; the renderer takes them', async () => {
    const pkg = path.join(dir, 'src', 'arm_rover_ros1');
    cpSync(path.resolve(__dirname, '../../fixtures/controller-yaml/arm_rover_ros1'), pkg, { recursive: true });
    const f = await open(path.join(pkg, 'urdf', 'arm_rover.urdf'));
    expect(f.name).toBe('arm_rover.urdf');
    expect(Object.keys(f.related ?? {}).sort()).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml', 'arm_rover_ros1/package.xml']);
    const robot = await gatherOpenedRobot(noRelated, f);
    expect(Object.keys(robot.controllers ?? {})).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml']);
    // outside a package: nothing more than the meshes
    cpSync(path.join(pkg, 'urdf', 'arm_rover.urdf'), path.join(dir, 'alone.urdf'));
    expect((await open(path.join(dir, 'alone.urdf'))).related).toEqual({});
  });

  it('a controller file reached through a symbolic link is not read', async () => {
    const pkg = xacroPackage();
    const outside = path.join(dir, 'outside.yaml');
    writeFileSync(outside, 'x: 1\n');
    symlinkSync(outside, path.join(pkg, 'config', 'linked.yaml'));
    const reads: string[] = [];
    const f = await open(path.join(pkg, 'urdf', 'arm_rover.urdf.xacro'), reads);
    expect(Object.keys(f.related ?? {})).not.toContain('arm_rover_ros1/config/linked.yaml');
    expect(reads).not.toContain(outside);
    expect(reads.map((r) => path.basename(r))).not.toContain('linked.yaml');
  });
});
