/**
 * Open Robot… in the main process: the URDF and the files it references inside its folder (sub-
 * folders and package:// too), read through the validated file API; links, dotfiles, paths that
 * leave the folder and files the URDF does not name are never read.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers, type HostDialogs } from '../../../electron/handlers';
import type { FileKind, OpenedRobotFile } from '../../../electron/ipc-contract';
import { nodeFiles, nodeSettingsIo } from '../../../electron/node-files';
import { robotRelatedPaths } from '../../../electron/robot-files';
import { SettingsStore } from '../../../electron/settings-store';
import { TokenRegistry } from '../../../electron/token-registry';

const link = (name: string, geometry: string, visual = '') =>
  `<link name="${name}"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>` +
  `<collision><geometry>${geometry}</geometry></collision>${visual}</link>`;

const URDF = `<robot name="r">
  ${link('base', '<mesh filename="meshes/base.stl"/>', '<visual><geometry><mesh filename="package://r_description/meshes/shell.dae"/></geometry></visual>')}
  ${link('arm', '<box size="0.1 0.1 0.1"/>', '<visual><geometry><mesh filename="../outside.stl"/></geometry></visual><visual><geometry><mesh filename="meshes/.hidden.stl"/></geometry></visual><visual><geometry><mesh filename="missing.obj"/></geometry></visual>')}
  <joint name="j" type="fixed"><parent link="base"/><child link="arm"/></joint>
</robot>`;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-robot-'));
  mkdirSync(path.join(dir, 'robot', 'meshes'), { recursive: true });
  writeFileSync(path.join(dir, 'robot', 'r.urdf'), URDF);
  writeFileSync(path.join(dir, 'robot', 'meshes', 'base.stl'), 'solid base');
  writeFileSync(path.join(dir, 'robot', 'meshes', 'shell.dae'), '<COLLADA/>');
  writeFileSync(path.join(dir, 'robot', 'meshes', '.hidden.stl'), 'hidden');
  writeFileSync(path.join(dir, 'robot', 'meshes', 'other.stl'), 'not named');
  writeFileSync(path.join(dir, 'outside.stl'), 'outside the folder');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function open(chosen: string) {
  const dialogs: HostDialogs = { showOpen: async (_k: FileKind) => chosen, showSave: async () => null };
  const handlers = createHandlers({
    files: nodeFiles,
    dialogs,
    settings: new SettingsStore(nodeSettingsIo, path.join(dir, 'userData', 'settings.json'), () => undefined),
    tokens: new TokenRegistry(() => 'tok'),
    assetsRoot: path.join(dir, 'assets'),
  });
  return handlers.openFile('robot') as Promise<OpenedRobotFile>;
}

describe('robotRelatedPaths', () => {
  it('lists the files inside the URDF folder, resolving package:// beside the URDF, dropping ../ and dotfiles', () => {
    expect(robotRelatedPaths('r.urdf', new TextEncoder().encode(URDF))).toEqual(['meshes/base.stl', 'meshes/shell.dae', 'missing.obj']);
  });

  it('a URDF that does not parse names nothing', () => {
    expect(robotRelatedPaths('r.urdf', new TextEncoder().encode('<robot name="r"><link'))).toEqual([]);
  });
});

describe('openFile("robot")', () => {
  it('returns the URDF with the meshes it names (sub-folders too); missing files are absent, others never read', async () => {
    const f = await open(path.join(dir, 'robot', 'r.urdf'));
    expect(f.kind).toBe('robot');
    expect(new TextDecoder().decode(f.bytes)).toBe(URDF);
    expect(Object.keys(f.related ?? {}).sort()).toEqual(['meshes/base.stl', 'meshes/shell.dae']);
    expect(new TextDecoder().decode(f.related?.['meshes/base.stl'])).toBe('solid base');
  });

  it('refuses a mesh reached through a symbolic link (file or folder)', async () => {
    rmSync(path.join(dir, 'robot', 'meshes', 'base.stl'));
    symlinkSync(path.join(dir, 'outside.stl'), path.join(dir, 'robot', 'meshes', 'base.stl'));
    await expect(open(path.join(dir, 'robot', 'r.urdf'))).rejects.toThrow(/symbolic link/);
    rmSync(path.join(dir, 'robot', 'meshes'), { recursive: true });
    mkdirSync(path.join(dir, 'elsewhere'));
    writeFileSync(path.join(dir, 'elsewhere', 'base.stl'), 'x');
    symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'robot', 'meshes'));
    await expect(open(path.join(dir, 'robot', 'r.urdf'))).rejects.toThrow(/symbolic link/);
  });

  it('other kinds carry no related files', async () => {
    writeFileSync(path.join(dir, 'robot', 's.json'), '{"terrain":"t.json"}');
    const dialogs: HostDialogs = { showOpen: async () => path.join(dir, 'robot', 's.json'), showSave: async () => null };
    const h = createHandlers({ files: nodeFiles, dialogs, settings: new SettingsStore(nodeSettingsIo, path.join(dir, 'u', 's.json'), () => undefined), tokens: new TokenRegistry(() => 't'), assetsRoot: dir });
    expect('related' in ((await h.openFile('scenario')) ?? {})).toBe(false);
  });
});
