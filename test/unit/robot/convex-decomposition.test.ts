/**
 * Concave collision meshes split into convex parts (sim/robot/mesh/convex-decomposition.ts,
 * convex-parts.ts): an analytic U-shaped bracket written here, whose volume, hull volume and
 * resting surface are known in closed form.
 *
 *      z
 *   0.4 ┌──┐        ┌──┐        U profile in the x–z plane (metres), extruded 0.3 m along y:
 *       │  │        │  │        area 0.5·0.4 − 0.3·0.3 = 0.11 m², volume 0.033 m³;
 *   0.1 │  └────────┘  │        its convex hull is the 0.5 × 0.4 block: 0.06 m³ (1.82×).
 *     0 └──────────────┘ x      A box dropped into the U rests on its floor (z = 0.1), not on
 *       0  0.1      0.4 0.5     the hull's lid (z = 0.4).
 *
 * V-HACD runs once per file here (about a second at 100 000 voxels; generous timeouts for a
 * loaded machine); the cache and determinism checks reuse or repeat that one input.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, flat } from '../../scenarios/dynamics/helpers';
import { decomposeMesh, DECOMPOSE_FIT_RATIO, DEFAULT_DECOMPOSITION, type ConvexParts } from '../../../sim/robot/mesh/convex-decomposition';
import { collisionMeshKey, convexPartsForUrdf, formatVolumeReport, memoryConvexPartsCache, type ConvexPartsCache } from '../../../sim/robot/mesh/convex-parts';
import { meshVolume, type TriangleMesh } from '../../../sim/robot/mesh/triangle-mesh';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { parseUrdf } from '../../../sim/robot/urdf/parse-urdf';
import { parseStl } from '../../../sim/robot/mesh/stl';
import type { BodySpec, ShapeSpec } from '../../../sim/dynamics/spec';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimServiceImpl } from '../../../sim/app/service';
import { loadScenarioUrdfRobotWithVisuals } from '../../../sim/scenario/scenario-robot';
import { prepareScenarioMeshes } from '../../../sim/scenario/scenario-meshes';
import type { ScenarioFiles } from '../../../sim/scenario/scenario-files';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';
import { diskConvexPartsCache } from '../../../sim/node/convex-parts-cache';
import { existsSync } from 'node:fs';
import { createHandlers } from '../../../electron/handlers';
import { IPC_MESH_PARTS, MAX_MESH_PARTS_BYTES } from '../../../electron/ipc-contract';
import { IpcValidationError } from '../../../electron/validate';
import { SettingsStore } from '../../../electron/settings-store';
import { nodeFiles, nodeSettingsIo } from '../../../electron/node-files';
import { TokenRegistry } from '../../../electron/token-registry';
import { createDefaultService } from '../../../sim/app/default-service';
import { convexPartsCacheKey, type MeshPartsRequest } from '../../../sim/robot/mesh/convex-parts';

/** [s] V-HACD on the U takes ~1 s idle; a shared 2-core machine may be many times slower. */
const VHACD_TIMEOUT_MS = 120_000;

/** U profile (x, z), counter-clockwise seen from −y, and a triangulation of it by hand. */
const U: [number, number][] = [[0, 0], [0.5, 0], [0.5, 0.4], [0.4, 0.4], [0.4, 0.1], [0.1, 0.1], [0.1, 0.4], [0, 0.4]];
const U_CAP = [[0, 1, 4], [1, 2, 4], [2, 3, 4], [0, 4, 5], [0, 5, 7], [5, 6, 7]];
const DEPTH = 0.3;
const U_VOLUME = (0.5 * 0.4 - 0.3 * 0.3) * DEPTH;
const U_HULL_VOLUME = 0.5 * 0.4 * DEPTH;

/** The U extruded along y from 0 to DEPTH: closed, outward-wound triangles. */
function uMesh(): TriangleMesh {
  const n = U.length;
  const pos: number[] = [];
  for (const [x, z] of U) pos.push(x, 0, z);
  for (const [x, z] of U) pos.push(x, DEPTH, z);
  const idx: number[] = [];
  // y = 0 cap: (x, z) counter-clockwise has normal x̂ × ẑ = −ŷ, outward. y = DEPTH cap reversed.
  for (const [a, b, c] of U_CAP) idx.push(a, b, c, n + a, n + c, n + b);
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    idx.push(i, n + i, n + j, i, n + j, j);
  }
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}

function binaryStl(m: TriangleMesh): Uint8Array {
  const nt = m.indices.length / 3;
  const buf = new Uint8Array(84 + 50 * nt);
  const dv = new DataView(buf.buffer);
  dv.setUint32(80, nt, true);
  for (let t = 0; t < nt; t++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) dv.setFloat32(84 + 50 * t + 12 + 12 * c + 4 * k, m.positions[3 * m.indices[3 * t + c] + k], true);
  return buf;
}

const URDF = `<robot name="bracket"><link name="base"><inertial><mass value="5"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  <collision><geometry><mesh filename="u.stl"/></geometry></collision></link></robot>`;

/** A counting cache over the memory one: how often it was read and written, and whether it hit. */
function countingCache(): ConvexPartsCache & { gets: number; hits: number; sets: number } {
  const inner = memoryConvexPartsCache();
  const c = {
    gets: 0, hits: 0, sets: 0,
    async get(k: string) {
      c.gets++;
      const v = await inner.get(k);
      if (v) c.hits++;
      return v;
    },
    async set(k: string, v: ConvexParts) {
      c.sets++;
      await inner.set(k, v);
    },
  };
  return c;
}

/** The public robots of the ten-robot check (test/fixtures/robots/<name>/, each with its SOURCE.md). */
const FIXTURE_ROBOTS = fileURLToPath(new URL('../../fixtures/robots/', import.meta.url));

describe('convex decomposition of a concave collision mesh (V-HACD)', () => {
  const stl = binaryStl(uMesh());
  const model = parseUrdf(URDF);
  const cache = countingCache();
  let first: Awaited<ReturnType<typeof convexPartsForUrdf>>;

  beforeAll(async () => {
    first = await convexPartsForUrdf(model, 'r/bracket.urdf', () => stl, cache);
  }, VHACD_TIMEOUT_MS);

  it('the analytic U is what the test says (closed, 0.033 m³)', () => {
    const v = meshVolume(uMesh());
    expect(v.closed).toBe(true);
    expect(v.volume).toBeCloseTo(U_VOLUME, 12);
  });

  it('the parts hold the mesh volume within 3 %; the single hull is 1.82× off', () => {
    expect(first.report).toHaveLength(1);
    const r = first.report[0];
    expect(r.meshVolume).toBeCloseTo(U_VOLUME, 6);
    expect(r.hullVolume / U_VOLUME).toBeCloseTo(U_HULL_VOLUME / U_VOLUME, 4);
    expect(r.parts).toBeDefined();
    const parts = r.parts as NonNullable<typeof r.parts>;
    expect(parts.count).toBeGreaterThanOrEqual(3);
    expect(parts.count).toBeLessThanOrEqual(DEFAULT_DECOMPOSITION.maxHulls);
    expect(Math.abs(parts.volume / U_VOLUME - 1)).toBeLessThan(0.03);
    const p = first.parts[collisionMeshKey('r/u.stl', [1, 1, 1])];
    for (const h of p.hulls) expect(h.length).toBeLessThanOrEqual(DEFAULT_DECOMPOSITION.maxVerticesPerHull);
    expect(formatVolumeReport(r)).toMatch(/^collision mesh "r\/u\.stl" \(link "base"\): mesh 33\.0 L, single hull 60\.0 L \(1\.82×\); \d+ convex parts 3\d\.\d L \(1\.0\d×\)$/);
  });

  it('is deterministic: the same mesh and options give the same hulls, bit for bit', async () => {
    // The STL's float32 corners, as the loader read them for `first`.
    const a = await decomposeMesh(parseStl(stl, 'u.stl'));
    const b = await decomposeMesh(parseStl(stl, 'u.stl'));
    expect(a.hulls).toEqual(b.hulls);
    expect(a).toEqual(first.parts[collisionMeshKey('r/u.stl', [1, 1, 1])]);
  }, 2 * VHACD_TIMEOUT_MS);

  it('a second load hits the cache (keyed by the file content hash): no second decomposition', async () => {
    expect(cache.sets).toBe(1);
    const again = await convexPartsForUrdf(model, 'other/place.urdf', (p) => (p === 'other/u.stl' ? stl.slice() : undefined), cache);
    expect(cache.hits).toBe(1);
    expect(cache.sets).toBe(1);
    expect(again.report[0].parts?.fromCache).toBe(true);
    expect(formatVolumeReport(again.report[0])).toMatch(/, cached$/);
    expect(again.parts[collisionMeshKey('other/u.stl', [1, 1, 1])]).toEqual(first.parts[collisionMeshKey('r/u.stl', [1, 1, 1])]);
    // Another scale is another key: decomposed anew (not served the unscaled parts).
    const scaled = parseUrdf(URDF.replace('filename="u.stl"', 'filename="u.stl" scale="2 1 1"'));
    const big = await convexPartsForUrdf(scaled, 'r/bracket.urdf', () => stl, cache);
    expect(cache.sets).toBe(2);
    expect(big.report[0].meshVolume).toBeCloseTo(2 * U_VOLUME, 6);
  }, VHACD_TIMEOUT_MS);

  it('the loader builds one hull per part; without parts it keeps the single hull and says so', () => {
    const withParts = loadUrdfRobot(URDF, { urdfPath: 'r/bracket.urdf', controller: 'none', meshes: () => stl, convexParts: first.parts });
    const shape = withParts.robot.bodies[0].shape;
    expect(shape.type).toBe('compound');
    expect(shape.type === 'compound' ? shape.children.length : 0).toBe(first.report[0].parts?.count);
    expect(withParts.warnings.join('\n')).toMatch(/info: collision mesh "r\/u\.stl" \(link "base"\): mesh 33\.0 L, single hull 60\.0 L \(1\.82×\); \d+ convex parts/);
    const single = loadUrdfRobot(URDF, { urdfPath: 'r/bracket.urdf', controller: 'none', meshes: () => stl });
    expect(single.robot.bodies[0].shape.type).toBe('hull');
    expect(single.warnings.join('\n')).toMatch(/has 1\.82× the mesh's volume \(> 1\.5\); it was not split into convex parts/);
  });

  it('an open mesh (the U without an end cap: an opening of 13% of its surface) is split as its surface; a wheel link is not given to V-HACD; both say why', async () => {
    const u = uMesh();
    const keep: number[] = [];
    for (let t = 0; t < U_CAP.length; t++) keep.push(...u.indices.subarray(6 * t, 6 * t + 3));
    keep.push(...u.indices.subarray(6 * U_CAP.length));
    const open = binaryStl({ positions: u.positions, indices: Uint32Array.from(keep) });
    const oc = countingCache();
    const r = await convexPartsForUrdf(model, 'r/bracket.urdf', () => open, oc);
    // its walls: less than its hull, kept open where the end cap is missing (open-mesh-parts.test.ts)
    expect(r.report[0].parts?.volume).toBeLessThan(U_HULL_VOLUME);
    expect(formatVolumeReport(r.report[0])).toMatch(/mesh not closed, single hull 60\.0 L; \d+ convex parts .*; open on purpose: 1 opening \(largest 13% of its surface\) kept open/);
    expect(oc.sets).toBe(1);
    // The same closed U on a continuous joint's child: a wheel candidate, never given to V-HACD.
    const wheel = parseUrdf(URDF.replace('</robot>', `<link name="w"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><geometry><mesh filename="u.stl"/></geometry></collision></link><joint name="j" type="continuous"><parent link="base"/><child link="w"/><axis xyz="0 1 0"/></joint></robot>`).replace('<collision><geometry><mesh filename="u.stl"/></geometry></collision></link>', '</link>'));
    const c = countingCache();
    const wr = await convexPartsForUrdf(wheel, 'r/bracket.urdf', () => stl, c);
    expect(wr.report.map((x) => x.link)).toEqual(['w']);
    expect(wr.report[0].note).toMatch(/a wheel link/);
    expect(c.gets + c.sets).toBe(0);
  }, VHACD_TIMEOUT_MS);

  it('a closed mesh whose parts hold too little of it (the p2os Pioneer 3-AT\'s axle.stl: five thin tetrahedra, 38 cm³; V-HACD kept 0.67 cm³) keeps its single hull, and says so', async () => {
    const axle = new Uint8Array(readFileSync(join(FIXTURE_ROBOTS, 'pioneer3at/p2os_urdf/meshes/p3at_meshes/axle.stl')));
    const m = parseUrdf(URDF.replace('u.stl', 'axle.stl'));
    const r = await convexPartsForUrdf(m, 'r/bracket.urdf', () => axle, null);
    expect(r.report[0].meshVolume * 1e6).toBeCloseTo(38.0, 0);
    expect(r.report[0].hullVolume / r.report[0].meshVolume).toBeGreaterThan(DECOMPOSE_FIT_RATIO);
    expect(r.report[0].parts).toBeUndefined();
    expect(Object.keys(r.parts)).toEqual([]);
    expect(formatVolumeReport(r.report[0])).toMatch(/single hull 57\.\d cm³ \(1\.50×\); its \d+ convex parts were rejected \(they hold 0\.\d\d× the mesh's volume/);
  }, VHACD_TIMEOUT_MS);

  it('a box dropped into the U rests on its floor (z = 0.1), not on the single hull\'s lid (z = 0.4)', () => {
    const rest = (shape: ShapeSpec): number => {
      const bracket: BodySpec = { name: 'bracket', type: 'static', shape, position: [0, 0, 0] };
      // A 0.1 m cube centred over the U's floor (x 0.1–0.4, y 0–0.3), dropped from above the lid.
      const box: BodySpec = { name: 'box', shape: { type: 'box', halfExtents: [0.05, 0.05, 0.05] }, mass: 1, position: [0.25, 0.15, 0.6] };
      const w = makeWorld(flat(41, 0.05), [bracket, box]);
      w.step(480); // 2 s
      const i = 1;
      return w.bodies.pos[3 * i + 2];
    };
    const withParts = loadUrdfRobot(URDF, { urdfPath: 'r/bracket.urdf', controller: 'none', meshes: () => stl, convexParts: first.parts }).robot.bodies[0].shape;
    const single = loadUrdfRobot(URDF, { urdfPath: 'r/bracket.urdf', controller: 'none', meshes: () => stl }).robot.bodies[0].shape;
    // V-HACD shrink-wraps its voxel parts onto the mesh: the floor is within a few millimetres.
    expect(Math.abs(rest(withParts) - (0.1 + 0.05))).toBeLessThan(0.005);
    expect(Math.abs(rest(single) - (0.4 + 0.05))).toBeLessThan(0.005);
  });

  it('the service splits a scenario robot\'s meshes before building the world (prepareFiles), through the cache', async () => {
    const service = new SimServiceImpl({ decodeTerrain, loadUrdfRobot: loadScenarioUrdfRobotWithVisuals, prepareFiles: (f) => prepareScenarioMeshes(f, cache) });
    const n = 21;
    const files: ScenarioFiles = {
      scenario: { format: 'terrawheel-scenario', version: 2, name: 'bracket', terrain: { cols: n, rows: n, dx: 0.25, dy: 0.25, x0: -2.5, y0: -2.5, heights: new Array(n * n).fill(0) }, robot: { urdf: 'bracket.urdf', position: [0, 0], yaw: 0 } },
      terrainSidecar: null, terrainData: new Uint8Array(0), robotUrdf: URDF, robotMeshes: { 'u.stl': stl },
    };
    const hitsBefore = cache.hits;
    await service.load(files);
    expect(cache.hits).toBe(hitsBefore + 1);
    const base = service.getWorld()?.engine.spec.robot?.bodies.find((b) => b.name.endsWith('base'));
    expect(base?.shape.type).toBe('compound');
    expect(base?.shape.type === 'compound' ? base.shape.children.length : 0).toBe(first.report[0].parts?.count);
    const prepared = await prepareScenarioMeshes(files, cache);
    expect(prepared.robotMeshReport).toEqual([expect.stringMatching(/^collision mesh "u\.stl" \(link "base"\): mesh 33\.0 L, single hull 60\.0 L \(1\.82×\); \d+ convex parts .*, cached$/)]);
    expect(files.robotConvexParts).toBeUndefined(); // the caller's files are not changed
    service.dispose();
  });

  it('Node\'s disk cache stores parts by key, survives a new instance, and ignores a damaged entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-parts-'));
    const parts = first.parts[collisionMeshKey('r/u.stl', [1, 1, 1])];
    await diskConvexPartsCache(dir).set('k1', parts);
    expect(await diskConvexPartsCache(dir).get('k1')).toEqual(parts);
    expect(await diskConvexPartsCache(dir).get('k2')).toBeUndefined();
    writeFileSync(join(dir, 'k3.json'), '{"hulls": [[[0, 0]]], "volume": 1}');
    expect(await diskConvexPartsCache(dir).get('k3')).toBeUndefined();
  });
});

/** Electron main's handler (V-HACD for the desktop app's worker, whose CSP forbids it) and the worker's side of it. */
describe('convex parts decomposed by the host (Electron main) for the worker', () => {
  const stl = binaryStl(uMesh());
  const n = 21;
  const files: ScenarioFiles = {
    scenario: { format: 'terrawheel-scenario', version: 2, name: 'bracket', terrain: { cols: n, rows: n, dx: 0.25, dy: 0.25, x0: -2.5, y0: -2.5, heights: new Array(n * n).fill(0) }, robot: { urdf: 'bracket.urdf', position: [0, 0], yaw: 0 } },
    terrainSidecar: null, terrainData: new Uint8Array(0), robotUrdf: URDF, robotMeshes: { 'u.stl': stl },
  };
  const dir = mkdtempSync(join(tmpdir(), 'tw-main-parts-'));
  const handlers = createHandlers({
    files: nodeFiles,
    dialogs: { showOpen: async () => null, showSave: async () => null },
    settings: new SettingsStore(nodeSettingsIo, join(dir, 'settings.json'), () => undefined),
    tokens: new TokenRegistry(() => 'tok'),
    assetsRoot: join(dir, 'assets'),
    convexPartsCache: diskConvexPartsCache(join(dir, 'cache')),
  });
  const request = (): MeshPartsRequest => ({ file: 'u.stl', bytes: stl, scale: [1, 1, 1], options: { ...DEFAULT_DECOMPOSITION } });
  let inNode: ConvexParts;

  beforeAll(async () => {
    inNode = (await prepareScenarioMeshes(files, null)).robotConvexParts?.[collisionMeshKey('u.stl', [1, 1, 1])] as ConvexParts;
  }, VHACD_TIMEOUT_MS);

  it('main\'s handler gives the parts prepareScenarioMeshes gives in Node, bit for bit, through the CLI\'s disk cache and key', async () => {
    expect(inNode.hulls.length).toBeGreaterThan(1);
    const got = await handlers.dispatch(IPC_MESH_PARTS, [request()]);
    expect(got).toEqual(inNode);
    const key = await convexPartsCacheKey(stl, [1, 1, 1], DEFAULT_DECOMPOSITION);
    expect(existsSync(join(dir, 'cache', `${key}.json`))).toBe(true);
    expect(await handlers.meshConvexParts(request())).toEqual(inNode); // read back from disk: JSON keeps every double
  }, VHACD_TIMEOUT_MS);

  it('refuses bad payloads with the field and the problem', async () => {
    const bad = async (req: unknown, field: string, problem: RegExp) => {
      const e = await handlers.dispatch(IPC_MESH_PARTS, [req]).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(IpcValidationError);
      expect((e as IpcValidationError).field).toBe(field);
      expect((e as Error).message).toMatch(problem);
    };
    await bad(null, 'meshConvexParts.req', /expected \{ file, bytes, scale, options \}, got null/);
    await bad({ ...request(), file: 'u.exe' }, 'meshConvexParts.req.file', /\.stl, \.obj or \.dae/);
    await bad({ ...request(), bytes: [1, 2, 3] }, 'meshConvexParts.req.bytes', /expected Uint8Array, got array/);
    await bad({ ...request(), bytes: new Uint8Array(MAX_MESH_PARTS_BYTES + 1) }, 'meshConvexParts.req.bytes', /expected 1 to 67108864/);
    await bad({ ...request(), scale: [1, -1, 1] }, 'meshConvexParts.req.scale', /three finite positive numbers/);
    await bad({ ...request(), options: { ...DEFAULT_DECOMPOSITION, maxHulls: 1e9 } }, 'meshConvexParts.req.options.maxHulls', /integer in \[1, 64\], got 1000000000/);
    await bad({ ...request(), options: { ...DEFAULT_DECOMPOSITION, voxelResolution: 1000.5 } }, 'meshConvexParts.req.options.voxelResolution', /integer/);
    await expect(handlers.dispatch(IPC_MESH_PARTS, [request(), 1])).rejects.toThrow(/expected 1 argument/);
    // well-formed but not a mesh: the sim's reader says why
    await expect(handlers.meshConvexParts({ ...request(), bytes: new Uint8Array(10) })).rejects.toThrow(/u\.stl/);
  });

  it('the worker\'s service asks the decomposer it was given (setMeshDecomposer) and builds the same compound', async () => {
    const service = createDefaultService();
    const asked: MeshPartsRequest[] = [];
    service.setMeshDecomposer(async (req) => {
      asked.push(req);
      return handlers.meshConvexParts(req);
    });
    await service.load(files);
    expect(asked.map((r) => [r.file, r.scale, r.options, r.bytes.byteLength])).toEqual([['u.stl', [1, 1, 1], DEFAULT_DECOMPOSITION, stl.byteLength]]);
    const base = service.getWorld()?.engine.spec.robot?.bodies.find((b) => b.name.endsWith('base'));
    expect(base?.shape.type === 'compound' ? base.shape.children.length : 0).toBe(inNode.hulls.length);
    // A decomposer that fails (main unreachable): the single hull, and the report says why
    const failing = createDefaultService();
    failing.setMeshDecomposer(async () => {
      throw new Error('main is gone');
    });
    await failing.load({ ...files, robotMeshes: { 'u.stl': binaryStl({ ...uMesh(), positions: uMesh().positions.map((v) => v * 1.01) }) } });
    const single = failing.getWorld()?.engine.spec.robot?.bodies.find((b) => b.name.endsWith('base'));
    expect(single?.shape.type).not.toBe('compound');
    expect(() => service.setMeshDecomposer('x' as never)).toThrow(/expected a function or null, got string/);
    // A recording made with the parts replays here; where the mesh was not split, it is refused
    const chunks: Uint8Array[] = [];
    await service.startRecording({}, (c) => void chunks.push(c.slice()));
    await service.step(5);
    await service.stopRecording();
    const bytes = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
    chunks.reduce((o, c) => (bytes.set(c, o), o + c.length), 0);
    await expect(service.openRecording(bytes)).resolves.toBeTruthy();
    const unsplit = new SimServiceImpl({ decodeTerrain, loadUrdfRobot: loadScenarioUrdfRobotWithVisuals });
    await unsplit.load(files);
    await expect(unsplit.openRecording(bytes)).rejects.toThrow(new RegExp(`body ".*base" collides as a compound of ${inNode.hulls.length} parts in the recording and as a hull in the loaded world`));
    unsplit.dispose();
    service.dispose();
    failing.dispose();
  }, VHACD_TIMEOUT_MS);
});

