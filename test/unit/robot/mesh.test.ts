/**
 * Robot meshes: STL (binary, ASCII) and OBJ readers against meshes written here by hand, the
 * enclosed-volume oracle, the collision hull and its fit warning, and mesh path resolution.
 */
import { describe, it, expect } from 'vitest';
import { parseStl } from '../../../sim/robot/mesh/stl';
import { parseObj } from '../../../sim/robot/mesh/obj';
import { meshVolume, triangleCount } from '../../../sim/robot/mesh/triangle-mesh';
import type { TriangleMesh } from '../../../sim/robot/mesh/triangle-mesh';
import { meshCollisionHull, MESH_HULL_MAX_INPUT_POINTS } from '../../../sim/robot/mesh/mesh-hull';
import { resolveMeshPath } from '../../../sim/robot/urdf/resolve-mesh-path';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { MESH_MAX_TRIANGLES, UrdfError } from '../../../sim/robot/urdf/urdf-error';
import { OBJ_MAX_FACE_CORNERS } from '../../../sim/robot/mesh/visual-limits';

/** Closed prism over a star-shaped CCW polygon (fan from vertex 0), z from 0 to h: triangles. */
function prism(poly: [number, number][], h: number): number[][] {
  const tris: number[][] = [];
  const n = poly.length;
  for (let k = 1; k + 1 < n; k++) {
    const [a, b, c] = [poly[0], poly[k], poly[k + 1]];
    tris.push([a[0], a[1], h, b[0], b[1], h, c[0], c[1], h]); // top, CCW from +z
    tris.push([a[0], a[1], 0, c[0], c[1], 0, b[0], b[1], 0]); // bottom, reversed
  }
  for (let k = 0; k < n; k++) {
    const a = poly[k], b = poly[(k + 1) % n];
    tris.push([a[0], a[1], 0, b[0], b[1], 0, b[0], b[1], h]);
    tris.push([a[0], a[1], 0, b[0], b[1], h, a[0], a[1], h]);
  }
  return tris;
}
const SQUARE: [number, number][] = [[-1, -1], [1, -1], [1, 1], [-1, 1]];
/** A thin L: area 2.75, its convex hull's area 5.875 (ratio 2.14). */
const ELL: [number, number][] = [[0, 0], [3, 0], [3, 0.5], [0.5, 0.5], [0.5, 3], [0, 3]];

function binaryStl(tris: number[][], header = 'binary'): Uint8Array {
  const buf = new Uint8Array(84 + 50 * tris.length);
  buf.set(new TextEncoder().encode(header).subarray(0, 80));
  const dv = new DataView(buf.buffer);
  dv.setUint32(80, tris.length, true);
  tris.forEach((t, i) => t.forEach((v, k) => dv.setFloat32(84 + 50 * i + 12 + 4 * k, v, true)));
  return buf;
}
function asciiStl(tris: number[][]): Uint8Array {
  const f = (t: number[]): string =>
    `  facet normal 0 0 0\n    outer loop\n${[0, 3, 6].map((o) => `      vertex ${t[o]} ${t[o + 1]} ${t[o + 2]}\n`).join('')}    endloop\n  endfacet\n`;
  return new TextEncoder().encode(`solid test\n${tris.map(f).join('')}endsolid test\n`);
}
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('STL', () => {
  const cube = prism(SQUARE, 2);
  it('reads binary STL (volume of the 2 m cube by the divergence theorem)', () => {
    const m = parseStl(binaryStl(cube), 'cube.stl');
    expect(triangleCount(m)).toBe(12);
    const v = meshVolume(m);
    expect(v.closed).toBe(true);
    expect(v.volume).toBeCloseTo(8, 12);
  });
  it('reads a binary STL whose header starts with "solid" as binary (size decides)', () => {
    expect(triangleCount(parseStl(binaryStl(cube, 'solid exported by CAD'), 'c.stl'))).toBe(12);
  });
  it('reads ASCII STL', () => {
    const m = parseStl(asciiStl(cube), 'cube.stl');
    expect(triangleCount(m)).toBe(12);
    expect(meshVolume(m).volume).toBeCloseTo(8, 12);
  });
  it('rejects truncated, garbled and empty files with the file name', () => {
    const b = binaryStl(cube);
    expect(() => parseStl(b.subarray(0, b.length - 7), 'cut.stl')).toThrow(/mesh "cut.stl": not an STL: a binary STL announcing 12 triangles must be 684 bytes, this one is 677 \(truncated\?\)/);
    expect(() => parseStl(enc('solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\n'), 'a.stl')).toThrow(/a facet needs exactly 3 vertices, found 2/);
    expect(() => parseStl(enc('solid x\nouter loop\nvertex 0 0 nan\n'), 'a.stl')).toThrow(/"nan" is not a finite number/);
    expect(() => parseStl(enc('solid x\nendsolid x\n'), 'e.stl')).toThrow(/the ASCII STL has no facets/);
    expect(() => parseStl(new Uint8Array(10), 'z.stl')).toThrow(UrdfError);
    const nan = binaryStl([[0, 0, 0, 1, 0, 0, 0, 1, NaN]]);
    expect(() => parseStl(nan, 'n.stl')).toThrow(/triangle 0 has a NaN/);
  });
});

describe('OBJ', () => {
  const CUBE = `# cube
v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1
vn 0 0 1
f 1 4 3 2\nf 5/1 6/1 7/1 8/1\nf 1//1 2//1 6//1 5//1\nf 2/1/1 3/1/1 7/1/1 6/1/1\nf -5 -1 -2 -6\nf 4 1 5 8
`;
  it('reads quads, v/vt/vn forms and negative indices', () => {
    const m = parseObj(enc(CUBE), 'cube.obj');
    expect(triangleCount(m)).toBe(12);
    const v = meshVolume(m);
    expect(v.closed).toBe(true);
    expect(v.volume).toBeCloseTo(8, 12);
  });
  it('rejects bad indices and numbers with the line', () => {
    expect(() => parseObj(enc('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n'), 'b.obj')).toThrow(/mesh "b.obj" line 4: face index "4" does not name one of the 3 vertices/);
    expect(() => parseObj(enc('v 0 0 x\n'), 'b.obj')).toThrow(/line 1: "x" is not a finite number/);
    expect(() => parseObj(enc('v 0 0 0\n'), 'b.obj')).toThrow(/has no faces/);
  });

  // Issue #28: a 10M-corner face was triangulated (14.6 s, 1.08 GB) before the 2M-triangle check.
  it('refuses a face of more than OBJ_MAX_FACE_CORNERS corners while reading it, naming the line', () => {
    const corners = Array.from({ length: OBJ_MAX_FACE_CORNERS + 1 }, (_, i) => String(1 + (i % 3))).join(' ');
    expect(() => parseObj(enc(`v 0 0 0\nv 1 0 0\nv 0 1 0\nf ${corners}\n`), 'f.obj')).toThrow(
      new RegExp(`mesh "f.obj" line 4: a face with more than ${OBJ_MAX_FACE_CORNERS} corners`),
    );
  });

  it('counts triangles before adding a face: the face that would pass MESH_MAX_TRIANGLES is named by its line', () => {
    const face = 'f ' + Array.from({ length: OBJ_MAX_FACE_CORNERS }, (_, i) => String(1 + (i % 3))).join(' ') + '\n';
    const perFace = OBJ_MAX_FACE_CORNERS - 2;
    const faces = Math.floor(MESH_MAX_TRIANGLES / perFace) + 1;
    const text = 'v 0 0 0\nv 1 0 0\nv 0 1 0\n' + face.repeat(faces);
    expect(() => parseObj(enc(text), 'many.obj')).toThrow(
      new RegExp(`mesh "many.obj" line ${3 + faces}: this face brings the mesh past ${MESH_MAX_TRIANGLES} triangles`),
    );
  });
});

describe('mesh volume oracle', () => {
  it('a prism of the L polygon has its area × height; an open one is flagged', () => {
    const tris = prism(ELL, 1);
    const m: TriangleMesh = { positions: Float64Array.from(tris.flat()), indices: Uint32Array.from({ length: tris.length * 3 }, (_, i) => i) };
    const v = meshVolume(m);
    expect(v.closed).toBe(true);
    expect(v.volume).toBeCloseTo(2.75, 12);
    // One top triangle missing (removing a top and its bottom twin would cancel: see meshVolume).
    const open = parseStl(binaryStl(tris.slice(1)), 'open.stl');
    expect(meshVolume(open).closed).toBe(false);
  });
});

describe('collision hull of a mesh', () => {
  it('a cube mesh gives its 8 corners and fit ratio 1; scale applies per axis', () => {
    const h = meshCollisionHull(parseStl(binaryStl(prism(SQUARE, 2)), 'c.stl'), [1, 2, 0.5], 'test');
    expect(h.points).toHaveLength(8);
    expect(h.hullVolume).toBeCloseTo(8, 9);
    expect(h.fitRatio).toBeCloseTo(1, 9);
    for (const p of h.points) expect([Math.abs(p[0]), Math.abs(p[1]), p[2]]).toEqual([1, 2, expect.any(Number)]);
  });
  it('a concave L is a poor fit (5.875 / 2.75)', () => {
    const h = meshCollisionHull(parseStl(binaryStl(prism(ELL, 1)), 'l.stl'), [1, 1, 1], 'test');
    expect(h.fitRatio).toBeCloseTo(5.875 / 2.75, 9);
  });
  it('thins a big mesh on a grid: the hull stays inside the sphere and within 3 % of its volume', () => {
    // UV sphere, r = 1, 200 × 120 = 24,000 vertices (> MESH_HULL_MAX_INPUT_POINTS).
    const nu = 200, nv = 120;
    const pos: number[] = [];
    for (let j = 0; j < nv; j++) {
      const th = (Math.PI * (j + 0.5)) / nv;
      for (let i = 0; i < nu; i++) {
        const ph = (2 * Math.PI * i) / nu;
        pos.push(Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th));
      }
    }
    expect(pos.length / 3).toBeGreaterThan(MESH_HULL_MAX_INPUT_POINTS);
    const h = meshCollisionHull({ positions: Float64Array.from(pos), indices: new Uint32Array([0, 1, 2]) }, [1, 1, 1], 'test');
    expect(h.thinnedCell).toBeGreaterThan(0);
    const ball = (4 / 3) * Math.PI;
    expect(h.hullVolume).toBeLessThan(ball);
    expect(h.hullVolume).toBeGreaterThan(0.97 * ball);
    for (const p of h.points) expect(Math.hypot(...p)).toBeCloseTo(1, 9);
  });
  it('a degenerate mesh (all on a line) is an error naming where', () => {
    expect(() => meshCollisionHull({ positions: Float64Array.from([0, 0, 0, 1, 0, 0, 2, 0, 0]), indices: new Uint32Array([0, 1, 2]) }, [1, 1, 1], 'link "x"')).toThrow(/link "x": the collision mesh has no convex hull \(collinear/);
  });
  it('through urdfToRobot: a hull shape, a poor-fit warning naming the link, a cache per file', () => {
    const INERTIAL = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>';
    const urdf = `<robot name="m"><link name="bracket">${INERTIAL}
      <collision><geometry><mesh filename="../meshes/ell.stl"/></geometry></collision>
      <collision><origin xyz="0 0 2"/><geometry><mesh filename="../meshes/ell.stl"/></geometry></collision>
      <collision><origin xyz="0 0 4"/><geometry><mesh filename="package://bot/meshes/cube.obj" scale="0.5 0.5 0.5"/></geometry></collision></link></robot>`;
    const files: Record<string, Uint8Array> = {
      '/w/bot/meshes/ell.stl': binaryStl(prism(ELL, 1)),
      '/w/bot/meshes/cube.obj': enc('v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0 0 2\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n'),
    };
    const asked: string[] = [];
    const out = loadUrdfRobot(urdf, { urdfPath: '/w/bot/urdf/m.urdf', meshes: (p) => (asked.push(p), files[p]) });
    expect(asked).toEqual(['/w/bot/meshes/ell.stl', '/w/bot/meshes/cube.obj']);
    const s = out.robot.bodies[0].shape;
    if (s.type !== 'compound') throw new Error('three collisions make a compound');
    expect(s.children.map((c) => c.shape.type)).toEqual(['hull', 'hull', 'hull']);
    expect(out.warnings.filter((w) => /link "bracket": the convex hull of collision mesh "\/w\/bot\/meshes\/ell.stl" has 2.14× the mesh's volume/.test(w))).toHaveLength(1);
    expect(out.warnings.some((w) => /cube.obj/.test(w))).toBe(false); // a tetrahedron is its own hull
  });
});

describe('resolveMeshPath', () => {
  const cases: [string, string, string][] = [
    ['/ws/src/bot/urdf/bot.urdf', 'package://bot/meshes/a.stl', '/ws/src/bot/meshes/a.stl'],
    ['/ws/src/bot/urdf/bot.urdf', 'package://other/meshes/a.stl', '/ws/src/bot/urdf/meshes/a.stl'],
    ['/robots/bot.urdf', 'meshes/a.stl', '/robots/meshes/a.stl'],
    ['/robots/sub/bot.urdf', '../meshes/./a.stl', '/robots/meshes/a.stl'],
    ['bot.urdf', 'a.stl', 'a.stl'],
    ['../robots/bot.urdf', '../../x/a.obj', '../../x/a.obj'],
    ['C:\\robots\\bot.urdf', 'meshes\\a.stl', 'C:/robots/meshes/a.stl'],
    ['/robots/bot.urdf', 'file:///opt/meshes/a%20b.stl', '/opt/meshes/a b.stl'],
    ['/robots/bot.urdf', '/abs/a.stl', '/abs/a.stl'],
  ];
  for (const [urdf, uri, want] of cases) it(`${uri} next to ${urdf}`, () => expect(resolveMeshPath(urdf, uri)).toBe(want));
  it('rejects web URLs, malformed package URIs and climbing above the root', () => {
    expect(() => resolveMeshPath('/r/b.urdf', 'https://x.org/a.stl')).toThrow(/only package:\/\/, file:\/\/ and relative paths/);
    expect(() => resolveMeshPath('/r/b.urdf', 'package://only')).toThrow(/package:\/\/<package>\/<path>/);
    expect(() => resolveMeshPath('/r/b.urdf', '../../a.stl')).toThrow(/climbs above the file system root/);
  });
});
