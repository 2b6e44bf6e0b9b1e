/**
 * A robot from files the user picked or dropped (sim/robot/urdf/picked-files.ts): includes and
 * $(find pkg)/package:// resolved against those files only (a ROS package folder, or a flat
 * pick), the main file found by the include graph, a missing include named.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPickedRobot, mainRobotFile, PickedFiles, type PickedFile } from '../../../sim/robot/urdf/picked-files';
import { parseUrdf } from '../../../sim/robot/urdf/parse-urdf';

const ROOT = join(__dirname, '../../..');
const enc = new TextEncoder();
const file = (path: string, text: string): PickedFile => ({ path, bytes: enc.encode(text) });

/** Every file under `dir`, by its path from `base` (what a folder drop or pick gives). */
function folder(dir: string, base: string): PickedFile[] {
  const out: PickedFile[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...folder(p, base));
    else out.push({ path: relative(base, p).split('\\').join('/'), bytes: new Uint8Array(readFileSync(p)) });
  }
  return out;
}

const NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';

describe('PickedFiles', () => {
  it('finds a file by the longest unique tail of its path; an equal tie is no answer', () => {
    const set = new PickedFiles([file('pkg/urdf/a.xacro', '1'), file('pkg/urdf/sub/a.xacro', '2'), file('b.xacro', '3')]);
    expect(set.text('/x/y/pkg/urdf/a.xacro')).toBe('1');
    expect(set.text('twrel:/pkg/urdf/sub/a.xacro')).toBe('2');
    expect(set.text('somewhere/else/b.xacro')).toBe('3');
    expect(set.text('other/a.xacro')).toBeUndefined();
    expect(set.text('c.xacro')).toBeUndefined();
  });
});

describe('mainRobotFile', () => {
  it('is the robot file no other includes; several roots are an error naming them', () => {
    const main = file('r.urdf.xacro', `<robot name="r" ${NS}><xacro:include filename="$(find p)/urdf/w.xacro"/><!-- <xacro:include filename="x.xacro"/> --></robot>`);
    const w = file('w.xacro', `<robot ${NS}><xacro:macro name="w"/></robot>`);
    const x = file('x.xacro', `<robot name="x"><link name="a"/></robot>`);
    expect(mainRobotFile([w, main]).path).toBe('r.urdf.xacro');
    // the commented-out include does not count: x.xacro is a second root
    expect(() => mainRobotFile([w, main, x])).toThrow(/open one robot at a time: r\.urdf\.xacro, x\.xacro are robots that no other file includes/);
  });
});

describe('expandPickedRobot', () => {
  it('the Clearpath Husky from its dropped package folder: $(find husky_description) resolves inside it; other packages\' includes are skipped by name', async () => {
    const files = folder(join(ROOT, 'assets/robots/husky/husky_description'), join(ROOT, 'assets/robots/husky'));
    const robots = files.filter((f) => /\.(urdf|xacro)$/.test(f.path));
    const main = mainRobotFile(robots);
    expect(main.path).toBe('husky_description/urdf/husky.urdf.xacro');
    const r = await expandPickedRobot(main, new PickedFiles(files));
    const model = parseUrdf(r.urdf);
    expect(model.joints.filter((j) => j.type === 'continuous').map((j) => j.name).sort()).toEqual(['front_left_wheel', 'front_right_wheel', 'rear_left_wheel', 'rear_right_wheel']);
    expect(r.warnings.join('\n')).toMatch(/lockmount\.urdf\.xacro" cannot be read/);
  });

  it('a flat pick (base names only) resolves includes by name; $(arg) takes the given value', async () => {
    const main = file('bot.urdf.xacro', `<robot name="bot" ${NS}><xacro:arg name="len" default="1"/><xacro:include filename="package://bot_description/urdf/parts.xacro"/><xacro:part len="$(arg len)"/></robot>`);
    const parts = file('parts.xacro', `<robot ${NS}><xacro:macro name="part" params="len"><link name="base_\${len*2}"/></xacro:macro></robot>`);
    const r = await expandPickedRobot(main, new PickedFiles([main, parts]), { len: 3 });
    expect(parseUrdf(r.urdf).links.map((l) => l.name)).toEqual(['base_6']);
  });

  it('an include that is needed and not given is named in the error', async () => {
    const main = file('bot.urdf.xacro', `<robot name="bot" ${NS}><xacro:include filename="$(find bot_description)/urdf/parts.xacro"/><xacro:part/></robot>`);
    await expect(expandPickedRobot(main, new PickedFiles([main]))).rejects.toThrow(/xacro expansion failed: .*Included files not among the files opened: parts\.xacro: open or drop them with bot\.urdf\.xacro/);
  });

  it('a plain URDF is returned as it is', async () => {
    const main = file('plain.urdf', '<robot name="p"><link name="a"/></robot>');
    expect((await expandPickedRobot(main, new PickedFiles([main]))).urdf).toBe('<robot name="p"><link name="a"/></robot>');
  });
});
