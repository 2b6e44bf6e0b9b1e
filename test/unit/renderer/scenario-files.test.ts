import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isXacro } from '../../../sim/robot/urdf/xacro';
import { describe, expect, it } from 'vitest';
import { gatherBundled, gatherOpenedScenario, gatherOpenedTerrain, parseJsonFile } from '../../../renderer/scenario-files';
import type { Host, OpenedFile } from '../../../renderer/host/host';

const enc = new TextEncoder();

/** A Host over in-memory files: `assets` by asset path, `beside` by plain name (one opened directory). */
function fakeHost(assets: Record<string, string | Uint8Array>, beside: Record<string, string | Uint8Array> = {}): Host & { reads: string[] } {
  const reads: string[] = [];
  const bytes = (v: string | Uint8Array): Uint8Array => (typeof v === 'string' ? enc.encode(v) : v);
  return {
    kind: 'web',
    reads,
    openFile: async () => null,
    readRelated: async (_token, name) => {
      reads.push(`related:${name}`);
      if (!(name in beside)) throw new Error(`${name} not beside`);
      return bytes(beside[name]);
    },
    saveFile: async () => null,
    listAssets: async () => [],
    readAsset: async (path) => {
      reads.push(`asset:${path}`);
      if (!(path in assets)) throw new Error(`asset ${path}: HTTP 404`);
      return bytes(assets[path]);
    },
    getSettings: async () => ({ recentFiles: [], showContacts: true }),
    setSettings: async () => ({ recentFiles: [], showContacts: true }),
    onMenuCommand: () => () => undefined,
  };
}

const IMAGE = Uint8Array.from([137, 80, 78, 71]);

describe('gathering scenario files', () => {
  it('follows scenario.terrain and sidecar.image relative to each file (bundled assets)', async () => {
    const host = fakeHost({
      'scenarios/default.json': JSON.stringify({ terrain: '../terrains/hills.json' }),
      'terrains/hills.json': JSON.stringify({ image: 'img/hills.png' }),
      'terrains/img/hills.png': IMAGE,
    });
    const files = await gatherBundled(host, 'scenarios/default.json');
    expect(host.reads).toEqual(['asset:scenarios/default.json', 'asset:terrains/hills.json', 'asset:terrains/img/hills.png']);
    expect(files.terrainSidecar).toEqual({ image: 'img/hills.png' });
    expect(Array.from(files.terrainData)).toEqual(Array.from(IMAGE));
  });

  it('reads an opened terrain image beside its sidecar, under the current scenario', async () => {
    const host = fakeHost({}, { 'ramp.png': IMAGE });
    const opened: OpenedFile = { kind: 'terrain', name: 'ramp.json', bytes: enc.encode('{"image":"ramp.png"}'), token: 't' };
    const scenario = { name: 'current' };
    const files = await gatherOpenedTerrain(host, opened, scenario);
    expect(files.scenario).toBe(scenario);
    expect(host.reads).toEqual(['related:ramp.png']);
  });

  it('reads an opened scenario\'s terrain beside it for a plain name, else from the bundled assets', async () => {
    const beside = fakeHost({}, { 't.json': '{"image":"t.png"}', 't.png': IMAGE });
    const a: OpenedFile = { kind: 'scenario', name: 's.json', bytes: enc.encode('{"terrain":"t.json"}'), token: 't' };
    await gatherOpenedScenario(beside, a);
    expect(beside.reads).toEqual(['related:t.json', 'related:t.png']);

    const bundled = fakeHost({ 'terrains/ramp.json': '{"image":"ramp.png"}', 'terrains/ramp.png': IMAGE });
    const b: OpenedFile = { kind: 'scenario', name: 'mine.json', bytes: enc.encode('{"terrain":"../terrains/ramp.json"}'), token: 't' };
    await gatherOpenedScenario(bundled, b);
    expect(bundled.reads).toEqual(['asset:terrains/ramp.json', 'asset:terrains/ramp.png']);

    const missing: OpenedFile = { kind: 'scenario', name: 'x.json', bytes: enc.encode('{"terrain":"../elsewhere/t.json"}'), token: 't' };
    await expect(gatherOpenedScenario(bundled, missing)).rejects.toThrow(/neither beside the scenario nor a bundled asset/);
  });

  it('reads an opened scenario\'s URDF robot and its meshes beside it, or the bundled robot for a path', async () => {
    const urdf = '<robot name="r"><link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>' +
      '<collision><geometry><mesh filename="body.stl"/></geometry></collision><visual><geometry><mesh filename="shell.obj"/></geometry></visual>' +
      '<visual><geometry><mesh filename="sub/skip.obj"/></geometry></visual></link></robot>';
    const beside = fakeHost({}, { 't.json': '{"image":"t.png"}', 't.png': IMAGE, 'r.urdf': urdf, 'body.stl': 'solid', 'shell.obj': 'o' });
    const a: OpenedFile = { kind: 'scenario', name: 's.json', bytes: enc.encode('{"terrain":"t.json","robot":{"urdf":"r.urdf"}}'), token: 't' };
    const fa = await gatherOpenedScenario(beside, a);
    expect(beside.reads).toEqual(['related:t.json', 'related:t.png', 'related:r.urdf', 'related:body.stl', 'related:shell.obj']);
    expect(fa.robotUrdf).toBe(urdf);
    expect(Object.keys(fa.robotMeshes ?? {})).toEqual(['body.stl', 'shell.obj']);

    const bundled = fakeHost({ 'terrains/ramp.json': '{"image":"ramp.png"}', 'terrains/ramp.png': IMAGE, 'robots/r.urdf': urdf, 'robots/body.stl': 'solid' });
    const b: OpenedFile = { kind: 'scenario', name: 'mine.json', bytes: enc.encode('{"terrain":"../terrains/ramp.json","robot":{"urdf":"../robots/r.urdf"}}'), token: 't' };
    const fb = await gatherOpenedScenario(bundled, b);
    expect(Object.keys(fb.robotMeshes ?? {})).toEqual(['../robots/body.stl']); // the visual meshes are not bundled: left out

    const noRobot: OpenedFile = { kind: 'scenario', name: 'x.json', bytes: enc.encode('{"terrain":"../terrains/ramp.json","robot":{"urdf":"../robots/gone.urdf"}}'), token: 't' };
    await expect(gatherOpenedScenario(bundled, noRobot)).rejects.toThrow(/robot "..\/robots\/gone.urdf" is neither beside the scenario nor a bundled asset/);
    const noMesh = fakeHost({}, { 't.json': '{"image":"t.png"}', 't.png': IMAGE, 'r.urdf': urdf });
    await expect(gatherOpenedScenario(noMesh, a)).rejects.toThrow(/body.stl not beside/);
  });

  // Issue #28: a URDF named .json was "not valid JSON (Unexpected token '<' ...)".
  it('a bundled xacro robot (the Husky) is expanded in the page, includes read from the assets; visualMeshes: false reads no visual mesh', async () => {
    const root = join(__dirname, '../../../assets');
    const host = fakeHost(new Proxy({}, {
      has: (_t, p) => typeof p === 'string' && existsSync(join(root, p)),
      get: (_t, p) => new Uint8Array(readFileSync(join(root, String(p)))),
    }) as Record<string, Uint8Array>);
    const files = await gatherBundled(host, 'scenarios/robot-husky.json');
    expect(files.robotUrdf).toMatch(/<joint name="front_left_wheel" type="continuous">/);
    expect(isXacro(files.robotUrdf!)).toBe(false);
    expect(host.reads).toContain('asset:robots/husky/husky_description/urdf/wheel.urdf.xacro');
    expect(host.reads.filter((r) => /\.(dae|stl)$/.test(r))).toEqual([]);
    expect(files.robotMeshes).toEqual({});
  });

  it('an opened scenario\'s xacro robot beside it is expanded with its include beside it and robot.xacroArgs', async () => {
    const NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';
    const host = fakeHost({}, {
      't.json': '{"image":"t.png"}', 't.png': IMAGE,
      'bot.urdf.xacro': `<robot name="bot" ${NS}><xacro:arg name="n" default="1"/><xacro:include filename="$(find bot)/urdf/parts.xacro"/><xacro:part n="$(arg n)"/></robot>`,
      'parts.xacro': `<robot ${NS}><xacro:macro name="part" params="n"><link name="l\${n}"/></xacro:macro></robot>`,
    });
    const opened: OpenedFile = { kind: 'scenario', name: 's.json', bytes: enc.encode(JSON.stringify({ terrain: 't.json', robot: { urdf: 'bot.urdf.xacro', xacroArgs: { n: 7 } } })), token: 't' };
    const files = await gatherOpenedScenario(host, opened);
    expect(files.robotUrdf).toMatch(/<link name="l7"\/>/);
    expect(host.reads).toContain('related:parts.xacro');
  });

  it('says what a file that is not JSON is: empty, a URDF, other XML', () => {
    expect(() => parseJsonFile('r.json', enc.encode('<?xml version="1.0"?>\n<robot name="r"><link name="b"/></robot>'))).toThrow(
      /^r\.json: a URDF robot \(XML\), not JSON; open it with Open Robot/,
    );
    expect(() => parseJsonFile('p.json', enc.encode('  <html></html>'))).toThrow(/^p\.json: XML, not JSON/);
    expect(() => parseJsonFile('e.json', new Uint8Array(0))).toThrow(/^e\.json: the file is empty \(0 bytes\)/);
  });

  it('names the file and the field when JSON is broken or a reference is missing', async () => {
    expect(() => parseJsonFile('bad.json', enc.encode('{oops'))).toThrow(/^bad\.json: not valid JSON/);
    const host = fakeHost({ 'scenarios/a.json': '{"name":"no terrain"}' });
    await expect(gatherBundled(host, 'scenarios/a.json')).rejects.toThrow('scenarios/a.json: "terrain" must name a file');
    const opened: OpenedFile = { kind: 'terrain', name: 'x.json', bytes: enc.encode('{"image":7}'), token: 't' };
    await expect(gatherOpenedTerrain(host, opened, {})).rejects.toThrow('x.json: "image" must name a file');
  });
});
