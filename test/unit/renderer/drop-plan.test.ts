/**
 * The drop dispatcher (renderer/app/drop-plan.ts): which dropped file sets open what, through the
 * same OpenedFile the menu gives, and which give a message naming what is wrong or missing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenedRobotFile } from '../../../electron/ipc-contract';
import { classifyDropped, DROP_PNG_DEFAULT_HEIGHT_RANGE, DROP_PNG_DEFAULT_SPACING, droppedFilesHost, planDrop, type DroppedFile, type DropPlan } from '../../../renderer/app/drop-plan';
import { gatherOpenedScenario, gatherOpenedTerrain } from '../../../renderer/scenario-files';
import { gatherOpenedRobot, withRobot } from '../../../renderer/robot-swap';
import type { Host } from '../../../renderer/host/host';

const enc = new TextEncoder();
const json = (name: string, v: unknown): DroppedFile => ({ name, bytes: enc.encode(JSON.stringify(v)) });
const bin = (name: string, head: number[], n = 32): DroppedFile => {
  const b = new Uint8Array(Math.max(n, head.length));
  b.set(head);
  return { name, bytes: b };
};
const png = (name: string): DroppedFile => bin(name, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const tiff = (name: string): DroppedFile => bin(name, [0x49, 0x49, 0x2a, 0x00]);
const mcap = (name: string): DroppedFile => bin(name, [0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]);
const text = (name: string, t: string): DroppedFile => ({ name, bytes: enc.encode(t) });

const scenarioV1 = (terrain: string): unknown => ({ format: 'terrawheel-scenario', version: 1, name: 's', terrain, start: { position: [0, 0], yaw: 0 }, dt: 0.005 });
const scenarioV2 = (terrain: string, urdf?: string): unknown => ({ format: 'terrawheel-scenario', version: 2, name: 's2', terrain, ...(urdf ? { robot: { urdf, position: [0, 0], yaw: 0 } } : {}) });
const sidecar = (image: string): unknown => ({ image, format: 'png', metersPerPixel: 0.1, heightRange: [0, 1] });

const URDF = `<?xml version="1.0"?>
<robot name="bot">
  <link name="base">
    <collision><geometry><mesh filename="package://bot/meshes/shell.stl"/></geometry></collision>
    <visual><geometry><mesh filename="meshes/look.dae"/></geometry></visual>
  </link>
</robot>`;

const ok = (p: DropPlan): Exclude<DropPlan, { action: 'error' }> => {
  if (p.action === 'error') throw new Error(`expected a load, got: ${p.message}`);
  return p;
};
const err = (p: DropPlan): string => {
  if (p.action !== 'error') throw new Error(`expected an error, got ${p.action}`);
  return p.message;
};

describe('classifyDropped: content first, extension second', () => {
  it('recognises every kind by its bytes, whatever the name', () => {
    expect(classifyDropped(mcap('run.bin')).kind).toBe('recording');
    expect(classifyDropped(png('map.dat')).format).toBe('png');
    expect(classifyDropped(tiff('dem.img')).format).toBe('geotiff');
    expect(classifyDropped(bin('dem.tif', [0x4d, 0x4d, 0x00, 0x2a])).format).toBe('geotiff');
    expect(classifyDropped(json('x.txt', scenarioV1('t.json'))).kind).toBe('scenario');
    expect(classifyDropped(json('x.json', sidecar('a.png'))).kind).toBe('sidecar');
    expect(classifyDropped(text('robot.xml', URDF)).kind).toBe('urdf');
    expect(classifyDropped(bin('heights.raw', [1, 2, 3])).format).toBe('raw-f32');
    expect(classifyDropped(bin('shell.stl', [0x73, 0x6f])).kind).toBe('mesh');
  });
  it('says why a file is not one we open', () => {
    expect(classifyDropped(text('notes.txt', 'hello')).why).toContain('.txt');
    expect(classifyDropped(text('bad.json', '{"a": ')).why).toContain('not valid JSON');
    expect(classifyDropped(json('cfg.json', { foo: 1 })).why).toContain('neither a scenario');
    expect(classifyDropped(json('arr.json', [1, 2])).why).toContain('not an object');
    expect(classifyDropped(text('page.xml', '<html></html>')).why).toContain('not a URDF');
    expect(classifyDropped(text('fake.mcap', 'not mcap')).why).toContain('MCAP magic');
  });

  // Issue #28: an empty .png said ".png is not a file TerraWheel opens"; a URDF named .json said "not valid JSON".
  it('an empty file says it is empty; a file named .png or .tif without the signature says so', () => {
    expect(classifyDropped({ name: 'map.png', bytes: new Uint8Array(0) }).why).toBe('the file is empty (0 bytes)');
    expect(classifyDropped({ name: 'a.json', bytes: new Uint8Array(0) }).why).toBe('the file is empty (0 bytes)');
    expect(classifyDropped(text('map.png', 'hello')).why).toBe('named .png but not a PNG image (it does not start with the PNG signature)');
    expect(classifyDropped(text('dem.tiff', 'hello')).why).toBe('named .tiff but not a TIFF image (it does not start with "II*" or "MM*")');
    expect(planDrop([{ name: 'map.png', bytes: new Uint8Array(0) }], 't', true)).toEqual({ action: 'error', message: expect.stringContaining('map.png: the file is empty') });
  });

  it('content decides over the extension: a URDF named .json is a URDF; XML that is no URDF says so', () => {
    expect(classifyDropped(text('robot.json', URDF)).kind).toBe('urdf');
    expect(classifyDropped(text('page.json', '<html></html>')).why).toBe('named .json but XML without a <robot> element (not JSON, not a URDF)');
  });
});

describe('planDrop: file sets → action', () => {
  it('a recording alone replays; with other files it is refused', () => {
    const p = ok(planDrop([mcap('run.mcap')], 'drop-1', true));
    expect(p.action).toBe('recording');
    expect(p.file).toMatchObject({ kind: 'recording', name: 'run.mcap', token: 'drop-1' });
    expect(err(planDrop([mcap('run.mcap'), png('a.png')], 'd', true))).toContain('on its own');
  });
  it('a v1 scenario naming a bundled terrain loads alone, before any world is running', () => {
    const p = ok(planDrop([json('ramp.json', scenarioV1('../terrains/ramp.json'))], 'd', false));
    expect(p.action).toBe('scenario');
    expect(p.file.kind).toBe('scenario');
    expect(p.file.name).toBe('ramp.json');
  });
  it('a v2 scenario with its sidecar, image, URDF and meshes loads; one without them names each missing file', () => {
    const files = [json('s.json', scenarioV2('t.json', 'bot.urdf')), json('t.json', sidecar('t.png')), png('t.png'), text('bot.urdf', URDF), bin('shell.stl', [0])];
    const p = ok(planDrop(files, 'd', false));
    expect(p.action).toBe('scenario');
    expect(p.notes).toEqual([]);
    const m = err(planDrop([json('s.json', scenarioV2('t.json', 'bot.urdf')), json('t.json', sidecar('t.png'))], 'd', false));
    expect(m).toContain('s.json needs t.png, bot.urdf');
    expect(err(planDrop([json('s.json', scenarioV1('t.json'))], 'd', false))).toContain('needs t.json');
  });
  it('two scenarios are refused; an unknown file beside a scenario is ignored with a note', () => {
    expect(err(planDrop([json('a.json', scenarioV1('../t.json')), json('b.json', scenarioV1('../t.json'))], 'd', true))).toContain('one scenario at a time');
    const p = ok(planDrop([json('a.json', scenarioV1('../terrains/x.json')), text('readme.txt', 'hi')], 'd', true));
    expect(p.notes.join()).toContain('Ignored readme.txt');
  });
  it('a terrain sidecar with its image loads into the running world; without the image it names it', () => {
    const p = ok(planDrop([png('hills.png'), json('hills.json', sidecar('hills.png'))], 'd', true));
    expect(p.action).toBe('terrain');
    expect(p.file.name).toBe('hills.json');
    expect(err(planDrop([json('hills.json', sidecar('hills.png'))], 'd', true))).toBe('hills.json needs hills.png (the terrain image its "image" names): drop it together with hills.json.');
    expect(err(planDrop([png('hills.png'), json('hills.json', sidecar('hills.png'))], 'd', false))).toContain('Load a scenario first');
  });
  it('a PNG alone loads with a made-up sidecar and says so; a GeoTIFF alone uses its own georeferencing; a RAW alone is refused', () => {
    // IHDR: 201 × 101 pixels → (200 × 0.1) m by (100 × 0.1) m, centred on the origin
    const dem = png('dem.png');
    new DataView(dem.bytes.buffer).setUint32(16, 201);
    new DataView(dem.bytes.buffer).setUint32(20, 101);
    const p = ok(planDrop([dem], 'd', true));
    expect(p.action).toBe('terrain');
    const made = JSON.parse(new TextDecoder().decode(p.file.bytes));
    expect(made).toMatchObject({ image: 'dem.png', format: 'png', metersPerPixel: DROP_PNG_DEFAULT_SPACING, heightRange: [...DROP_PNG_DEFAULT_HEIGHT_RANGE] });
    expect(made.origin[0]).toBeCloseTo(-10, 12);
    expect(made.origin[1]).toBeCloseTo(-5, 12);
    expect(p.notes[0]).toContain('no sidecar dropped');
    const g = ok(planDrop([tiff('dem.tif')], 'd', true));
    expect(JSON.parse(new TextDecoder().decode(g.file.bytes))).toEqual({ image: 'dem.tif', format: 'geotiff' });
    expect(err(planDrop([bin('dem.raw', [0])], 'd', true))).toContain('RAW terrain: it needs its sidecar JSON');
    expect(err(planDrop([png('a.png'), png('b.png')], 'd', true))).toContain('one terrain image at a time');
  });
  it('a URDF with its meshes opens the robot with the meshes keyed by the URDF path; a missing collision mesh is named', () => {
    const p = ok(planDrop([text('bot.urdf', URDF), bin('shell.stl', [1]), bin('look.dae', [2])], 'd', true));
    expect(p.action).toBe('robot');
    if (p.action !== 'robot') return;
    expect(Object.keys(p.file.related ?? {}).sort()).toEqual(['meshes/look.dae', 'meshes/shell.stl']);
    expect(p.notes).toEqual([]);
    expect(err(planDrop([text('bot.urdf', URDF), bin('look.dae', [2])], 'd', true))).toBe('bot.urdf needs shell.stl (its collision meshes): drop it together with bot.urdf.');
    const noVisual = ok(planDrop([text('bot.urdf', URDF), bin('shell.stl', [1])], 'd', true));
    expect(noVisual.notes[0]).toContain('look.dae were not dropped');
    expect(err(planDrop([text('bot.urdf', URDF), bin('shell.stl', [1])], 'd', false))).toContain('Load a scenario first');
    expect(err(planDrop([text('bad.urdf', '<robot name="x"><joint name="j" type="warp"/></robot>')], 'd', true))).toContain('Could not load bad.urdf');
  });
  it('meshes alone, unknown files alone and an empty drop each give a message and load nothing', () => {
    expect(err(planDrop([bin('shell.stl', [1])], 'd', true))).toContain('together with the URDF');
    const m = err(planDrop([text('notes.txt', 'x'), text('b.docx', 'y')], 'd', true));
    expect(m).toContain('notes.txt');
    expect(m).toContain('b.docx');
    expect(m).toContain('TerraWheel opens');
    expect(err(planDrop([], 'd', true))).toContain('Nothing to open');
  });
});

describe('dropped files go through the menu\'s gather paths', () => {
  const assets: Record<string, unknown> = { 'terrains/ramp.json': sidecar('ramp.png') };
  const base: Host = {
    kind: 'web',
    openFile: async () => null,
    readRelated: async () => {
      throw new Error('base readRelated');
    },
    saveFile: async () => null,
    listAssets: async () => [],
    readAsset: async (p) => {
      if (p === 'terrains/ramp.png') return new Uint8Array([9]);
      if (p in assets) return enc.encode(JSON.stringify(assets[p]));
      throw new Error(`no asset ${p}`);
    },
    getSettings: async () => ({ recentFiles: [], showContacts: true }),
    setSettings: async () => ({ recentFiles: [], showContacts: true }),
    onMenuCommand: () => () => undefined,
  };
  it('a scenario dropped with its terrain reads both from the drop, a bundled reference from the assets', async () => {
    const files = [json('s.json', scenarioV1('t.json')), json('t.json', sidecar('t.png')), png('t.png')];
    const p = ok(planDrop(files, 'drop-7', false));
    const host = droppedFilesHost(base, 'drop-7', files, p.file.name);
    const got = await gatherOpenedScenario(host, p.file);
    expect(got.terrainData).toBe(files[2].bytes);
    const bundled = [json('s.json', scenarioV1('../terrains/ramp.json'))];
    const q = ok(planDrop(bundled, 'drop-8', false));
    expect((await gatherOpenedScenario(droppedFilesHost(base, 'drop-8', bundled, 's.json'), q.file)).terrainData).toEqual(new Uint8Array([9]));
  });
  it('a PNG dropped alone gathers with its made-up sidecar; another token still goes to the host', async () => {
    const files = [png('dem.png')];
    const p = ok(planDrop(files, 'drop-9', true));
    const host = droppedFilesHost(base, 'drop-9', files, 'dem.png');
    const got = await gatherOpenedTerrain(host, p.file, { any: 'scenario' });
    expect(got.terrainSidecar).toMatchObject({ image: 'dem.png', format: 'png' });
    expect(got.terrainData).toBe(files[0].bytes);
    await expect(host.readRelated('drop-9', 'other.png')).rejects.toThrow('"other.png" was not dropped: drop it together with dem.png');
    await expect(host.readRelated('web-1', 'x')).rejects.toThrow('base readRelated');
  });
  it('a dropped robot gathers its meshes from the plan, not by asking', async () => {
    const files = [text('bot.urdf', URDF), bin('shell.stl', [1]), bin('look.dae', [2])];
    const p = ok(planDrop(files, 'drop-10', true));
    if (p.action !== 'robot') throw new Error('robot expected');
    const r = await gatherOpenedRobot(droppedFilesHost(base, 'drop-10', files, 'bot.urdf'), p.file);
    expect(r.meshes['meshes/shell.stl']).toBe(files[1].bytes);
    expect(r.meshes['meshes/look.dae']).toBe(files[2].bytes);
  });
});

describe('a dropped xacro robot (issue #27: xacro in the web app)', () => {
  const ROOT = join(__dirname, '../../../assets/robots/husky');
  /** The Husky's package folder as a folder drop gives it: paths under the dropped folder. */
  function dropFolder(dir: string): DroppedFile[] {
    const out: DroppedFile[] = [];
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) out.push(...dropFolder(p));
      else out.push({ name: relative(ROOT, p).split('\\').join('/'), bytes: new Uint8Array(readFileSync(p)) });
    }
    return out;
  }
  const host = {} as Host;

  it('a ROS package folder: the robot is the file no other includes; it expands against the dropped files', async () => {
    const files = dropFolder(join(ROOT, 'husky_description'));
    const plan = ok(planDrop(files, 'd1', true));
    expect(plan.action).toBe('robot');
    expect(plan.file.name).toBe('husky_description/urdf/husky.urdf.xacro');
    const robot = await gatherOpenedRobot(droppedFilesHost(host, 'd1', files, plan.file.name), plan.file as OpenedRobotFile);
    expect(robot.urdf).toMatch(/<joint name="rear_right_wheel" type="continuous">/);
    expect(robot.notes.join(' ')).toMatch(/lockmount\.urdf\.xacro" cannot be read; skipped/);
  });

  it('a xacro dropped without an include it needs: the error names the missing file', async () => {
    const NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';
    const files = [text('bot.urdf.xacro', `<robot name="bot" ${NS}><xacro:include filename="$(find bot)/urdf/parts.xacro"/><xacro:part/></robot>`)];
    const plan = ok(planDrop(files, 'd2', true));
    const e = await gatherOpenedRobot(droppedFilesHost(host, 'd2', files, plan.file.name), plan.file as OpenedRobotFile).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/Included files not among the files opened: parts\.xacro: open or drop them with bot\.urdf\.xacro/);
  });

  it('two robots dropped together are still refused', () => {
    const a = text('a.urdf', '<robot name="a"><link name="x"/></robot>');
    const b = text('b.urdf', '<robot name="b"><link name="y"/></robot>');
    expect(err(planDrop([a, b], 'd3', true))).toMatch(/Drop one robot at a time \(a\.urdf, b\.urdf\)/);
  });
});


describe('a dropped ROS package\'s controller files (issue #27: joints held as the robot\'s controllers hold them)', () => {
  const PACKAGES = join(__dirname, '../../fixtures/controller-yaml');
  function dropFolder(dir: string): DroppedFile[] {
    const out: DroppedFile[] = [];
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) out.push(...dropFolder(p));
      else out.push({ name: relative(PACKAGES, p).split('\\').join('/'), bytes: new Uint8Array(readFileSync(p)) });
    }
    return out;
  }

  it('a plain URDF in its package folder: package.xml and config/*.yaml go with it (no "Ignored" note); withRobot carries them and drops the old robot\'s', async () => {
    const files = dropFolder(join(PACKAGES, 'arm_rover_ros1'));
    const plan = ok(planDrop(files, 'd4', true));
    if (plan.action !== 'robot') throw new Error('robot expected');
    expect(plan.file.name).toBe('arm_rover_ros1/urdf/arm_rover.urdf');
    expect(plan.notes).toEqual([]);
    const robot = await gatherOpenedRobot(droppedFilesHost({} as Host, 'd4', files, plan.file.name), plan.file);
    expect(Object.keys(robot.controllers ?? {})).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml']);
    const before = { scenario: scenarioV2('t.json', 'old.urdf'), terrainSidecar: null, terrainData: new Uint8Array(0), robotControllers: { 'old/config/c.yaml': 'x' }, robotControllerNotes: ['old'] };
    const after = withRobot(before, robot);
    expect(Object.keys(after.robotControllers ?? {})).toEqual(['arm_rover_ros1/config/arm_rover_control.yaml']);
    expect(after.robotControllerNotes).toBeUndefined();
    expect(withRobot(before, { ...robot, controllers: undefined }).robotControllers).toBeUndefined();
  });
});
