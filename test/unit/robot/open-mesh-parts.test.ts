/**
 * Open (holed) collision meshes (sim/robot/mesh/close-holes.ts, convex-parts.ts): small gaps are
 * capped and the closed mesh is measured and split as any other; a large opening (a cup without a
 * lid) is kept open and the mesh split as its surface, so the cavity stays empty where the single
 * hull would fill it; holes that cannot be followed keep the hull. Every case says what was done.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { closeSmallHoles, HOLE_CAP_MAX_AREA_FRACTION } from '../../../sim/robot/mesh/close-holes';
import { convexPartsForUrdf, formatVolumeReport, memoryConvexPartsCache } from '../../../sim/robot/mesh/convex-parts';
import { meshVolume, type TriangleMesh } from '../../../sim/robot/mesh/triangle-mesh';
import { parseUrdf } from '../../../sim/robot/urdf/parse-urdf';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import type { BodySpec, ShapeSpec } from '../../../sim/dynamics/spec';
import { flat, makeWorld } from '../../scenarios/dynamics/helpers';

/** [ms] V-HACD on a small mesh takes about a second idle; a loaded 2-core machine is many times slower. */
const VHACD_TIMEOUT_MS = 120_000;

/**
 * An axis-aligned box [0, sx]×[0, sy]×[0, sz], each face split into k×k quads (two triangles
 * each), wound outward, with shared vertices; `skip(face, i, j, half)` leaves triangles out.
 * Faces: 0 −x, 1 +x, 2 −y, 3 +y, 4 −z (floor), 5 +z (lid).
 */
function gridBox(sx: number, sy: number, sz: number, k: number, skip: (face: number, i: number, j: number, half: number) => boolean = () => false): TriangleMesh {
  const pos: number[] = [];
  const ids = new Map<string, number>();
  const vid = (x: number, y: number, z: number): number => {
    const key = `${x},${y},${z}`;
    let v = ids.get(key);
    if (v === undefined) {
      v = pos.length / 3;
      ids.set(key, v);
      pos.push(x, y, z);
    }
    return v;
  };
  const idx: number[] = [];
  // each face: origin o, edge vectors u, v with u × v outward
  const faces: [number[], number[], number[]][] = [
    [[0, 0, 0], [0, 0, sz], [0, sy, 0]], [[sx, 0, 0], [0, sy, 0], [0, 0, sz]],
    [[0, 0, 0], [sx, 0, 0], [0, 0, sz]], [[0, sy, 0], [0, 0, sz], [sx, 0, 0]],
    [[0, 0, 0], [0, sy, 0], [sx, 0, 0]], [[0, 0, sz], [sx, 0, 0], [0, sy, 0]],
  ];
  faces.forEach(([o, u, v], f) => {
    const at = (i: number, j: number) => vid(o[0] + (u[0] * i + v[0] * j) / k, o[1] + (u[1] * i + v[1] * j) / k, o[2] + (u[2] * i + v[2] * j) / k);
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
        if (!skip(f, i, j, 0)) idx.push(a, b, c);
        if (!skip(f, i, j, 1)) idx.push(a, c, d);
      }
    }
  });
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

const URDF = `<robot name="cup"><link name="base"><inertial><mass value="5"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  <collision><geometry><mesh filename="cup.stl"/></geometry></collision></link></robot>`;

describe('closeSmallHoles', () => {
  it('caps a gap of one triangle and of two (a quad): the mesh is closed again, with the box\'s volume', () => {
    for (const skip of [(f: number, i: number, j: number, h: number) => f === 1 && i === 2 && j === 1 && h === 0, (f: number, i: number, j: number) => f === 3 && i === 0 && j === 3]) {
      const holed = gridBox(0.4, 0.3, 0.2, 4, skip);
      expect(meshVolume(holed).closed).toBe(false);
      const { mesh, holes } = closeSmallHoles(holed);
      expect(holes).toMatchObject({ loops: 1, capped: 1, open: 0 });
      expect(holes.largestCapped).toBeLessThan(HOLE_CAP_MAX_AREA_FRACTION);
      const v = meshVolume(mesh);
      expect(v.closed).toBe(true);
      expect(v.volume).toBeCloseTo(0.4 * 0.3 * 0.2, 12);
    }
  });

  it('turns over triangles a CAD export flipped (the Curiosity model\'s meshes have such), then caps the gap', () => {
    const m = gridBox(0.4, 0.3, 0.2, 4, (f, i, j, h) => f === 5 && i === 1 && j === 1 && h === 0);
    const idx = Uint32Array.from(m.indices);
    for (const t of [0, 17, 40, 101, 150]) [idx[3 * t + 1], idx[3 * t + 2]] = [idx[3 * t + 2], idx[3 * t + 1]];
    const { mesh, holes } = closeSmallHoles({ positions: m.positions, indices: idx });
    expect(holes).toMatchObject({ flipped: 5, loops: 1, capped: 1, open: 0 });
    expect(meshVolume(mesh).closed).toBe(true);
    expect(meshVolume(mesh).volume).toBeCloseTo(0.4 * 0.3 * 0.2, 12);
  });

  it('keeps a cup\'s opening (the lid face, 1/6 of the surface) open', () => {
    const { holes } = closeSmallHoles(gridBox(1, 1, 1, 4, (f) => f === 5));
    expect(holes).toMatchObject({ loops: 1, capped: 0, open: 1 });
    expect(holes.largestOpen).toBeCloseTo(1 / 5, 6);
  });

  it('says why when the holes cannot be followed (a triangle twice)', () => {
    const m = gridBox(1, 1, 1, 2, (f, i, j, h) => f === 0 && i === 0 && j === 0 && h === 0);
    const twice: TriangleMesh = { positions: m.positions, indices: Uint32Array.from([...m.indices, ...m.indices.subarray(0, 3)]) };
    expect(closeSmallHoles(twice).holes.problem).toMatch(/shared by more than two triangles/);
  });
});

describe('open collision meshes in convexPartsForUrdf', () => {
  const model = parseUrdf(URDF);
  const cupMesh = gridBox(0.5, 0.5, 0.4, 4, (f) => f === 5); // no lid
  const cup = binaryStl(cupMesh);
  let cupResult: Awaited<ReturnType<typeof convexPartsForUrdf>>;
  beforeAll(async () => {
    cupResult = await convexPartsForUrdf(model, 'r/cup.urdf', () => cup, memoryConvexPartsCache());
  }, VHACD_TIMEOUT_MS);

  it('a cup without a lid is split as its walls, not filled by its hull, and the report says so', () => {
    const r = cupResult.report[0];
    expect(r.holes).toMatchObject({ loops: 1, capped: 0, open: 1 });
    expect(r.parts).toBeDefined();
    // the walls hold much less than the hull (0.1 m³), and something
    expect(r.parts!.volume).toBeGreaterThan(0);
    expect(r.parts!.volume).toBeLessThan(0.5 * r.hullVolume);
    expect(formatVolumeReport(r)).toMatch(/mesh not closed, single hull 100 L; \d+ convex parts .*; open on purpose: 1 opening \(largest 24% of its surface\) kept open, as a cup's or a scoop's; split as its surface \(its walls\), not filled by its hull/);
  });

  it('a box dropped into the cup rests on its floor, not on the hull\'s lid', () => {
    const rest = (shape: ShapeSpec): number => {
      const body: BodySpec = { name: 'cup', type: 'static', shape, position: [0, 0, 0] };
      const box: BodySpec = { name: 'box', shape: { type: 'box', halfExtents: [0.05, 0.05, 0.05] }, mass: 1, position: [0.25, 0.25, 0.6] };
      const w = makeWorld(flat(41, 0.05), [body, box]);
      w.step(480); // 2 s
      return w.bodies.pos[3 * 1 + 2];
    };
    const load = (parts: boolean) => loadUrdfRobot(URDF, { urdfPath: 'r/cup.urdf', controller: 'none', meshes: () => cup, ...(parts ? { convexParts: cupResult.parts } : {}) });
    // on the hull's lid: 0.4 + 0.05; on the floor: 0 + 0.05 (V-HACD's floor is a voxel layer thick)
    expect(rest(load(false).robot.bodies[0].shape)).toBeGreaterThan(0.44);
    expect(rest(load(true).robot.bodies[0].shape)).toBeLessThan(0.1);
  });

  it('a mesh with a small gap (one lid triangle missing) is capped, then measured as a closed one', async () => {
    const lidGap = binaryStl(gridBox(0.5, 0.5, 0.4, 4, (f, i, j, h) => f === 5 && i === 1 && j === 2 && h === 1));
    const r = (await convexPartsForUrdf(model, 'r/cup.urdf', () => lidGap, null)).report[0];
    expect(r.meshVolume).toBeCloseTo(0.1, 6); // float32 STL coordinates
    expect(r.parts).toBeUndefined();
    expect(formatVolumeReport(r)).toMatch(/mesh 100 L, single hull 100 L \(1\.00×\); 1 small hole closed \(largest 0\.60% of its surface\)/);
  });

  it('holes that cannot be followed keep the single hull and say why', async () => {
    const m = gridBox(0.5, 0.5, 0.4, 2, (f, i, j, h) => f === 0 && i === 0 && j === 0 && h === 0);
    // the hole on face −x, a lid triangle twice (elsewhere: the two would cancel in the volume test)
    const bad = binaryStl({ positions: m.positions, indices: Uint32Array.from([...m.indices, ...m.indices.subarray(m.indices.length - 3)]) });
    const r = (await convexPartsForUrdf(model, 'r/cup.urdf', () => bad, null)).report[0];
    expect(r.parts).toBeUndefined();
    expect(r.note).toMatch(/not split: an open mesh whose holes cannot be followed \(some edges are shared by more than two triangles.*\); its single hull is used/);
  });
});
