/**
 * The Collada collision-mesh reader (sim/robot/mesh/collada.ts) against meshes written here: two
 * geometries, node transforms (matrix, translate/rotate/scale in order, nesting, instance_node),
 * <unit meter>, the primitive kinds, and broken files. The oracle is the same shape written as an
 * STL: read through the URDF loader, both must give the same collision hull.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { meshCollisionHull } from '../../../sim/robot/mesh/mesh-hull';
import { parseCollada } from '../../../sim/robot/mesh/collada';
import { meshVolume } from '../../../sim/robot/mesh/triangle-mesh';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { UrdfError } from '../../../sim/robot/urdf/urdf-error';

const enc = new TextEncoder();
/** Unit cube [0,1]³, outward CCW triangles. */
const CUBE_V = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
const CUBE_F = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]];

/** A box geometry [lo, hi] (in file units), triangles with a normal input at offset 1 (stride 2). */
function boxGeometry(id: string, lo: number[], hi: number[]): string {
  const v = CUBE_V.map((c) => c.map((t, k) => lo[k] + t * (hi[k] - lo[k])));
  const p = CUBE_F.flat().map((i) => `${i} 0`).join(' ');
  return `<geometry id="${id}"><mesh>` +
    `<source id="${id}-p"><float_array id="${id}-pa" count="24">${v.flat().join(' ')}</float_array><technique_common><accessor source="#${id}-pa" count="8" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>` +
    `<source id="${id}-n"><float_array id="${id}-na" count="3">0 0 1</float_array><technique_common><accessor source="#${id}-na" count="1" stride="3"/></technique_common></source>` +
    `<vertices id="${id}-v"><input semantic="POSITION" source="#${id}-p"/></vertices>` +
    `<triangles count="12"><input semantic="VERTEX" source="#${id}-v" offset="0"/><input semantic="NORMAL" source="#${id}-n" offset="1"/><p>${p}</p></triangles>` +
    `</mesh></geometry>`;
}

function dae(body: string, asset = '<asset><unit name="millimeter" meter="0.001"/><up_axis>Y_UP</up_axis></asset>'): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">${asset}${body}</COLLADA>`;
}

/**
 * Two geometries in millimetres: a 100×100×20 mm plate (geometry "plate", placed twice: once at
 * the origin via <matrix>, once through an <instance_node> turned 90° about x and lifted), a
 * 20 mm cube ("peg") nested under a node that translates, rotates 90° about z and scales by 2.
 */
const TWO_GEOMETRIES = dae(
  `<library_geometries>${boxGeometry('plate', [0, 0, 0], [100, 100, 20])}${boxGeometry('peg', [0, 0, 0], [10, 10, 10])}</library_geometries>` +
    `<library_nodes><node id="wall"><translate>0 0 20</translate><rotate>1 0 0 90</rotate><instance_geometry url="#plate"/></node></library_nodes>` +
    `<library_visual_scenes><visual_scene id="s">` +
    `<node id="base"><matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</matrix><instance_geometry url="#plate"/>` +
    `<node id="pegs"><translate>50 50 20</translate><rotate>0 0 1 90</rotate><scale>2 2 2</scale><instance_geometry url="#peg"/></node></node>` +
    `<node id="w"><instance_node url="#wall"/></node>` +
    `</visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>`,
);

/** The same solids in metres as a triangle soup (what TWO_GEOMETRIES must come out as). */
function expectedTriangles(): number[][] {
  const box = (lo: number[], hi: number[]) => CUBE_F.map((f) => f.flatMap((i) => CUBE_V[i].map((t, k) => lo[k] + t * (hi[k] - lo[k]))));
  // plate; peg: (x, y) → (−y, x) after scale 2 (0..20), then +(50, 50, 20) mm; wall: (x, y, z) → (x, −z, y) + (0, 0, 20)
  return [...box([0, 0, 0], [0.1, 0.1, 0.02]), ...box([0.03, 0.05, 0.02], [0.05, 0.07, 0.04]), ...box([0, -0.02, 0.02], [0.1, 0, 0.12])];
}

function binaryStl(tris: number[][]): Uint8Array {
  const buf = new Uint8Array(84 + 50 * tris.length);
  const dv = new DataView(buf.buffer);
  dv.setUint32(80, tris.length, true);
  tris.forEach((t, i) => t.forEach((x, k) => dv.setFloat32(84 + 50 * i + 12 + 4 * k, x, true)));
  return buf;
}

function urdf(file: string): string {
  return `<robot name="r"><link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>` +
    `<collision><origin xyz="0.1 0 0" rpy="0 0 0.3"/><geometry><mesh filename="${file}"/></geometry></collision></link></robot>`;
}

function bbox(p: Float64Array): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) {
    b[k] = Math.min(b[k], p[i + k]);
    b[3 + k] = Math.max(b[3 + k], p[i + k]);
  }
  return b;
}

describe('Collada collision meshes', () => {
  it('two geometries, node transforms and unit="0.001" give the metres the STL of the same solids gives', () => {
    const m = parseCollada(enc.encode(TWO_GEOMETRIES), 'part.dae');
    expect(m.unitMeter).toBe(0.001);
    expect(m.upAxis).toBe('Y_UP');
    expect(m.instances).toBe(3);
    expect(m.indices.length).toBe(3 * 36);
    // Per instance (8 vertices each, in scene order): the box each solid must fill, in metres.
    const want = [[0, 0, 0, 0.1, 0.1, 0.02], [0.03, 0.05, 0.02, 0.05, 0.07, 0.04], [0, -0.02, 0.02, 0.1, 0, 0.12]];
    want.forEach((b, k) => {
      const got = bbox(m.positions.subarray(24 * k, 24 * (k + 1)));
      got.forEach((x, i) => expect(x).toBeCloseTo(b[i], 12));
    });
    // Outward winding kept through the rotations: three closed, touching boxes.
    const vol = meshVolume(m);
    expect(vol.closed).toBe(true);
    expect(vol.volume).toBeCloseTo(0.1 * 0.1 * 0.02 + 0.02 ** 3 + 0.1 * 0.02 * 0.1, 15);
  });

  it('the URDF loader builds the same collision hull from the .dae as from the STL', () => {
    const stl = binaryStl(expectedTriangles());
    const a = loadUrdfRobot(urdf('part.dae'), { controller: 'none', meshes: () => enc.encode(TWO_GEOMETRIES) });
    const b = loadUrdfRobot(urdf('part.stl'), { controller: 'none', meshes: () => stl });
    const sa = a.robot.bodies[0].shape, sb = b.robot.bodies[0].shape;
    expect(sa.type).toBe('compound');
    if (sa.type !== 'compound' || sb.type !== 'compound') throw new Error('expected compounds (the collision has an origin)');
    const ha = sa.children[0].shape, hb = sb.children[0].shape;
    if (ha.type !== 'hull' || hb.type !== 'hull') throw new Error('expected hulls');
    expect(ha.points.length).toBe(hb.points.length);
    const key = (p: number[]) => p.map((x) => x.toFixed(5)).join(',');
    expect(ha.points.map(key).sort()).toEqual(hb.points.map(key).sort());
    expect(sa.children[0].position).toEqual(sb.children[0].position);
  });

  it('reads polylist, polygons, trifans and tristrips, and unit 1 by default', () => {
    const v = '0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1';
    const head = `<library_geometries><geometry id="g"><mesh><source id="p"><float_array id="pa" count="24">${v}</float_array></source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>`;
    const tail = '</mesh></geometry></library_geometries>';
    const vin = '<input semantic="VERTEX" source="#v" offset="0"/>';
    // The cube's six faces as quads (outward CCW).
    const quads = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]];
    const cases = {
      polylist: `<polylist count="6">${vin}<vcount>4 4 4 4 4 4</vcount><p>${quads.flat().join(' ')}</p></polylist>`,
      polygons: `<polygons count="6">${vin}${quads.map((q) => `<p>${q.join(' ')}</p>`).join('')}</polygons>`,
      trifans: `<trifans count="6">${vin}${quads.map((q) => `<p>${q.join(' ')}</p>`).join('')}</trifans>`,
      // a quad as a strip: a b d c
      tristrips: `<tristrips count="6">${vin}${quads.map((q) => `<p>${[q[0], q[1], q[3], q[2]].join(' ')}</p>`).join('')}</tristrips>`,
    };
    for (const [kind, prim] of Object.entries(cases)) {
      const m = parseCollada(enc.encode(dae(head + prim + tail, '')), `${kind}.dae`);
      expect(m.unitMeter, kind).toBe(1);
      expect(m.indices.length, kind).toBe(36);
      const vol = meshVolume(m);
      expect(vol.closed, kind).toBe(true);
      expect(vol.volume, kind).toBeCloseTo(1, 12);
      // Signed volume positive: the winding came through outward.
      let signed = 0;
      for (let t = 0; t < m.indices.length; t += 3) {
        const [a, b, c] = [m.indices[t], m.indices[t + 1], m.indices[t + 2]].map((i) => [m.positions[3 * i], m.positions[3 * i + 1], m.positions[3 * i + 2]]);
        signed += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
      }
      expect(signed / 6, kind).toBeCloseTo(1, 12);
    }
  });

  it('a mirroring node keeps the winding outward, and up_axis Z_UP is not applied', () => {
    const body = `<library_geometries>${boxGeometry('c', [0, 0, 0], [1, 2, 3])}</library_geometries>` +
      '<library_visual_scenes><visual_scene id="s"><node><scale>-1 1 1</scale><instance_geometry url="#c"/></node></visual_scene></library_visual_scenes>';
    const m = parseCollada(enc.encode(dae(body, '<asset><up_axis>Z_UP</up_axis></asset>')), 'm.dae');
    expect(m.upAxis).toBe('Z_UP');
    expect(bbox(m.positions)).toEqual([-1, 0, 0, 0, 2, 3]);
    let signed = 0;
    for (let t = 0; t < m.indices.length; t += 3) {
      const [a, b, c] = [m.indices[t], m.indices[t + 1], m.indices[t + 2]].map((i) => [m.positions[3 * i], m.positions[3 * i + 1], m.positions[3 * i + 2]]);
      signed += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    expect(signed / 6).toBeCloseTo(6, 12);
  });

  it('a real collision mesh (AWS warehouse desk, FBX COLLADA exporter, centimetres, Z_UP, MIT-0) reads closed, in metres', () => {
    const file = 'aws_robomaker_warehouse_DeskC_01_collision.DAE';
    const m = parseCollada(new Uint8Array(readFileSync(join(__dirname, '../../fixtures/meshes/aws-warehouse', file))), file);
    expect(m.unitMeter).toBe(0.01);
    expect(m.upAxis).toBe('Z_UP');
    expect(m.indices.length / 3).toBe(236);
    // 0.88 × 1.56 m footprint, 1.44 m tall, standing on z = 0 (as Gazebo draws it, up axis not applied).
    const b = bbox(m.positions);
    [-0.441, -0.7777, 0, 0.441, 0.7777, 1.4401].forEach((v, i) => expect(b[i]).toBeCloseTo(v, 3));
    const v = meshVolume(m);
    expect(v.closed).toBe(true);
    expect(v.volume).toBeCloseTo(0.407, 3);
    // Concave: its single hull is 3.99× its volume, so the loader splits it into convex parts.
    const hull = meshCollisionHull(m, [1, 1, 1], file);
    expect(hull.fitRatio).toBeCloseTo(3.99, 2);
  });

  describe('broken files throw a UrdfError naming the file and what is wrong', () => {
    const geom = `<library_geometries>${boxGeometry('g', [0, 0, 0], [1, 1, 1])}</library_geometries>`;
    const scene = (inner: string) => `<library_visual_scenes><visual_scene id="s"><node>${inner}</node></visual_scene></library_visual_scenes>`;
    const cases: [string, string, RegExp][] = [
      ['not XML', 'solid cube\nfacet normal 0 0 1', /mesh "bad.dae": not well-formed XML/],
      ['another root', '<?xml version="1.0"?><X3D/>', /root element is <X3D>, not <COLLADA>/],
      ['an entity bomb', '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaa">]><COLLADA>&a;</COLLADA>', /declares a DTD or entities/],
      ['a unit of zero', dae(geom, '<asset><unit meter="0"/></asset>'), /<unit meter="0">: must be a number of metres per unit/],
      ['a unit that is not a number', dae(geom, '<asset><unit meter="mm"/></asset>'), /<unit meter="mm">/],
      ['an absurd size', dae(`${geom}${scene('<scale>1e7 1 1</scale><instance_geometry url="#g"/>')}`), /lies 1\.00e\+4 m from the origin \(more than 1000 m\)/],
      ['a missing geometry', dae(`${geom}${scene('<instance_geometry url="#nope"/>')}`), /<instance_geometry url="#nope">: no <geometry id="nope">/],
      ['an index past the vertices', dae(geom.replace('<p>0 0 2 0', '<p>0 0 99 0')), /corner 1 names vertex 99, the mesh has 8/],
      ['a NaN coordinate', dae(geom.replace('count="24">0 0 0', 'count="24">0 nan 0')), /"nan" is not a finite number/],
      ['a skinned mesh', dae(`${geom}${scene('<instance_controller url="#skin"/>')}`), /<instance_controller> \(a skinned or morphed mesh\) is not read/],
      ['an instance_node cycle', dae(`${geom}<library_nodes><node id="a"><instance_node url="#a"/></node></library_nodes>${scene('<instance_node url="#a"/>')}`), /nest deeper than 64/],
      ['a bad matrix', dae(`${geom}${scene('<matrix>1 0 0</matrix><instance_geometry url="#g"/>')}`), /<matrix> needs 16 numbers, has 3/],
      ['no geometry at all', dae('<library_visual_scenes><visual_scene id="s"><node/></visual_scene></library_visual_scenes>'), /places no geometry/],
      ['lines only', dae(`<library_geometries><geometry id="g"><mesh><source id="p"><float_array count="6">0 0 0 1 0 0</float_array></source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices><lines count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1</p></lines></mesh></geometry></library_geometries>`), /no triangles or polygons/],
      ['an external reference', dae(`${geom}${scene('<instance_geometry url="other.dae#g"/>')}`), /url="other.dae#g" is not a local reference/],
    ];
    for (const [what, text, re] of cases) {
      it(what, () => {
        let e: unknown;
        try {
          parseCollada(enc.encode(text), 'bad.dae');
        } catch (x) {
          e = x;
        }
        expect(e).toBeInstanceOf(UrdfError);
        expect((e as Error).message).toMatch(/^mesh "bad.dae": /);
        expect((e as Error).message).toMatch(re);
      });
    }
  });
});
