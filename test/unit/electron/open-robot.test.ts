/**
 * Open Robot… in the main process: the URDF and the files it references inside its folder (sub-
 * folders and package:// too), read through the validated file API; links, dotfiles, paths that
 * leave the folder and files the URDF does not name are never read.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers, type HostDialogs } from '../../../electron/handlers';
import type { FileKind, OpenedRobotFile } from '../../../electron/ipc-contract';
import { nodeFiles, nodeSettingsIo } from '../../../electron/node-files';
import { ROBOT_MAX_RELATED_BYTES, robotRelatedPaths } from '../../../electron/robot-files';
import { MESH_MAX_BYTES } from '../../../sim/robot/urdf/urdf-error';
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

function open(chosen: string, reads: string[] = []) {
  const dialogs: HostDialogs = { showOpen: async (_k: FileKind) => chosen, showSave: async () => null };
  const handlers = createHandlers({
    files: { ...nodeFiles, readFile: (p: string) => (reads.push(path.basename(p)), nodeFiles.readFile(p)) },
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

/** A URDF whose links name the given collision meshes, one link each. */
/** The rejection message of an open, or 'resolved' (never the result itself: vitest would print megabytes). */
async function failure(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'resolved',
    (e: Error) => e.message,
  );
}

function meshRobot(files: string[]): string {
  const links = files.map((f, i) => link(`l${i}`, `<mesh filename="meshes/${f}"/>`)).join('');
  const joints = files.slice(1).map((_, i) => `<joint name="j${i}" type="fixed"><parent link="l0"/><child link="l${i + 1}"/></joint>`).join('');
  return `<robot name="r">${links}${joints}</robot>`;
}

describe('openFile("robot") applies the mesh limits before reading (issue #28: two sparse 1 GiB meshes took main to 2.1 GiB)', () => {
  it('refuses a mesh larger than MESH_MAX_BYTES without reading it, naming the file and the limit', async () => {
    writeFileSync(path.join(dir, 'robot', 'big.urdf'), meshRobot(['base.stl', 'huge.stl']));
    writeFileSync(path.join(dir, 'robot', 'meshes', 'huge.stl'), '');
    truncateSync(path.join(dir, 'robot', 'meshes', 'huge.stl'), MESH_MAX_BYTES + 1); // sparse: no disk used
    const reads: string[] = [];
    expect(await failure(open(path.join(dir, 'robot', 'big.urdf'), reads))).toMatch(
      new RegExp(`'meshes/huge.stl' is ${MESH_MAX_BYTES + 1} bytes; a robot mesh may be at most ${MESH_MAX_BYTES}`),
    );
    expect(reads).not.toContain('huge.stl');
    expect(reads).not.toContain('base.stl'); // sizes are checked before any mesh is read
  });

  it('refuses meshes that together pass ROBOT_MAX_RELATED_BYTES before reading any of them', async () => {
    const count = Math.floor(ROBOT_MAX_RELATED_BYTES / MESH_MAX_BYTES) + 1;
    const names = Array.from({ length: count }, (_, i) => `m${i}.stl`);
    for (const n of names) {
      writeFileSync(path.join(dir, 'robot', 'meshes', n), '');
      truncateSync(path.join(dir, 'robot', 'meshes', n), MESH_MAX_BYTES);
    }
    writeFileSync(path.join(dir, 'robot', 'many.urdf'), meshRobot(names));
    const reads: string[] = [];
    expect(await failure(open(path.join(dir, 'robot', 'many.urdf'), reads))).toMatch(/total at least \d+ bytes; at most \d+ bytes of meshes are read for one robot/);
    expect(reads.filter((r) => r.endsWith('.stl'))).toEqual([]);
  });
});

describe('openFile("robot") refuses hard links (issue #28: they were followed, symbolic links were not)', () => {
  it('a mesh with a second name (link count > 1) fails the open and says why', async () => {
    rmSync(path.join(dir, 'robot', 'meshes', 'base.stl'));
    linkSync(path.join(dir, 'outside.stl'), path.join(dir, 'robot', 'meshes', 'base.stl'));
    const reads: string[] = [];
    expect(await failure(open(path.join(dir, 'robot', 'r.urdf'), reads))).toMatch(/'meshes\/base.stl' has 2 names \(a hard link\)/);
    expect(reads).not.toContain('base.stl');
  });
});

