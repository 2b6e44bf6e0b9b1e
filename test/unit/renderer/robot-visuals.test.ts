/**
 * URDF visuals as three.js objects (no WebGL): primitive sizes and axes, STL (binary and ASCII)
 * and OBJ meshes with the URDF scale and colour, what is left out, and the robot view hiding
 * the collision shape of a body that has visuals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import type { VisualSpec } from '../../../sim/app/protocol';
import { buildRobotVisuals, meshLookup, VISUAL_DEFAULT_COLOR, visualObject } from '../../../renderer/view3d/robot-visuals';
import { createRobotView } from '../../../renderer/view3d/robot-view';
import { meshObject } from '../../../renderer/view3d/robot-visuals';

const none = () => undefined;
const base = { body: 'base', link: 'base', position: [0, 0, 0], orientation: [0, 0, 0, 1] } as const;
const vis = (geometry: VisualSpec['geometry'], extra: Partial<VisualSpec> = {}): VisualSpec =>
  ({ ...base, position: [0, 0, 0], orientation: [0, 0, 0, 1], geometry, ...extra }) as VisualSpec;

function size(o: THREE.Object3D): [number, number, number] {
  o.updateMatrixWorld(true);
  const s = new THREE.Box3().setFromObject(o).getSize(new THREE.Vector3());
  return [s.x, s.y, s.z];
}

/** Binary STL of one triangle. */
function binaryStl(tri: number[][]): Uint8Array {
  const buf = new ArrayBuffer(84 + 50);
  const dv = new DataView(buf);
  dv.setUint32(80, 1, true);
  let o = 84 + 12; // skip the normal
  for (const p of tri) for (const c of p) {
    dv.setFloat32(o, c, true);
    o += 4;
  }
  return new Uint8Array(buf);
}

describe('URDF visual primitives', () => {
  it('box: full size along x, y, z', () => {
    expect(size(visualObject(vis({ type: 'box', size: [0.8, 0.4, 0.2] }), none))).toEqual([expect.closeTo(0.8, 6), expect.closeTo(0.4, 6), expect.closeTo(0.2, 6)]);
  });

  it('cylinder: its length runs along local z as in URDF, radius in x and y', () => {
    const [x, y, z] = size(visualObject(vis({ type: 'cylinder', radius: 0.1, length: 0.5 }), none));
    expect(z).toBeCloseTo(0.5, 6);
    expect(x).toBeCloseTo(0.2, 6);
    expect(y).toBeCloseTo(0.2, 2);
  });

  it('sphere: diameter on every axis; the visual origin places it in the body frame', () => {
    const o = visualObject(vis({ type: 'sphere', radius: 0.25 }, { position: [1, 2, 3] }), none);
    o.updateMatrixWorld(true);
    const c = new THREE.Box3().setFromObject(o).getCenter(new THREE.Vector3());
    expect([c.x, c.y, c.z]).toEqual([expect.closeTo(1, 6), expect.closeTo(2, 6), expect.closeTo(3, 6)]);
    expect(size(o)[2]).toBeCloseTo(0.5, 6);
  });

  it('a rotated origin turns the geometry (a cylinder rolled 90° about x lies along y)', () => {
    const s = Math.SQRT1_2;
    const [, y, z] = size(visualObject(vis({ type: 'cylinder', radius: 0.1, length: 0.5 }, { orientation: [s, 0, 0, s] }), none));
    expect(y).toBeCloseTo(0.5, 6);
    expect(z).toBeCloseTo(0.2, 2);
  });

  it('takes the URDF colour with its alpha, else the default grey', () => {
    const red = visualObject(vis({ type: 'box', size: [1, 1, 1] }, { color: [1, 0, 0, 0.5] }), none) as THREE.Mesh;
    const m = red.material as THREE.MeshLambertMaterial;
    expect(m.color.getHex()).toBe(0xff0000);
    expect(m.transparent).toBe(true);
    expect(m.opacity).toBe(0.5);
    const grey = visualObject(vis({ type: 'box', size: [1, 1, 1] }), none) as THREE.Mesh;
    expect((grey.material as THREE.MeshLambertMaterial).color.getHex()).toBe(VISUAL_DEFAULT_COLOR);
  });
});

describe('URDF visual meshes', () => {
  const tri = [[0, 0, 0], [2, 0, 0], [0, 1, 0.5]];

  it('binary STL with the URDF scale per axis', () => {
    const bytes = binaryStl(tri);
    const o = visualObject(vis({ type: 'mesh', file: 'm/a.stl', uri: 'a.stl', scale: [1, 2, 4] }), (f) => (f === 'm/a.stl' ? bytes : undefined));
    expect(size(o)).toEqual([expect.closeTo(2, 6), expect.closeTo(2, 6), expect.closeTo(2, 6)]);
  });

  it('ASCII STL', () => {
    const ascii = `solid t\nfacet normal 0 0 1\nouter loop\n${tri.map((p) => `vertex ${p.join(' ')}`).join('\n')}\nendloop\nendfacet\nendsolid t\n`;
    const o = visualObject(vis({ type: 'mesh', file: 'a.STL', uri: 'a.STL', scale: [1, 1, 1] }), () => new TextEncoder().encode(ascii));
    expect(size(o)).toEqual([expect.closeTo(2, 6), expect.closeTo(1, 6), expect.closeTo(0.5, 6)]);
  });

  it('OBJ: the bundled rover mast (0.35 m pole and its 0.06 m head), painted in the URDF colour', () => {
    const bytes = new Uint8Array(readFileSync(join(__dirname, '../../../assets/robots/meshes/rover-mast.obj')));
    const o = visualObject(vis({ type: 'mesh', file: '../robots/meshes/rover-mast.obj', uri: 'meshes/rover-mast.obj', scale: [1, 1, 1] }, { color: [0, 1, 0, 1] }), meshLookup({ 'elsewhere/rover-mast.obj': bytes }));
    expect(size(o)[2]).toBeCloseTo(0.41, 6);
    let painted = 0;
    o.traverse((c) => {
      if (c instanceof THREE.Mesh) {
        expect((c.material as THREE.MeshLambertMaterial).color.getHex()).toBe(0x00ff00);
        painted++;
      }
    });
    expect(painted).toBeGreaterThan(0);
  });

  it('a missing or unknown mesh is left out with a warning naming the link; the others are built', () => {
    const r = buildRobotVisuals(
      [
        vis({ type: 'mesh', file: 'gone.stl', uri: 'gone.stl', scale: [1, 1, 1] }, { link: 'mast' }),
        vis({ type: 'mesh', file: 'x.ply', uri: 'x.ply', scale: [1, 1, 1] }, { link: 'cam' }),
        vis({ type: 'box', size: [1, 1, 1] }),
        vis({ type: 'sphere', radius: 1 }, { body: 'wheel', link: 'wheel' }),
      ],
      (f) => (f === 'x.ply' ? new Uint8Array(4) : undefined),
    );
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toContain('link "mast"');
    expect(r.warnings[0]).toContain('gone.stl');
    expect(r.warnings[1]).toContain('link "cam"');
    expect(r.byBody.get('base')?.children).toHaveLength(1);
    expect(r.byBody.get('wheel')?.children).toHaveLength(1);
  });
});

describe('visual meshes that would freeze the renderer are refused before parsing (issue #28)', () => {
  const enc = (t: string) => new TextEncoder().encode(t);
  const tri = 'v 0 0 0\nv 1 0 0\nv 0 1 0\n';

  it('an OBJ face of more than 4096 corners (the 0.8 MiB face took 4.6 s), naming the line', () => {
    const face = Array.from({ length: 4097 }, (_, i) => String(1 + (i % 3))).join(' ');
    expect(() => meshObject('big.obj', enc(`${tri}f ${face}\n`), undefined)).toThrow(/"big.obj" line 4: a face with more than 4096 corners/);
    // Backslash continuations join lines as three's loader does: the face is still one face.
    const continued = Array.from({ length: 4097 }, (_, i) => String(1 + (i % 3))).join(' \\\n');
    expect(() => meshObject('cont.obj', enc(`${tri}f ${continued}\n`), undefined)).toThrow(/more than 4096 corners/);
  });

  it('an OBJ of more than 250,000 triangles', () => {
    expect(() => meshObject('many.obj', enc(tri + 'f 1 2 3\n'.repeat(250_001)), undefined)).toThrow(/"many.obj": more than 250000 triangles/);
  });

  it('a Collada file with internal entities (the entity bomb took 16.8 s in DOMParser)', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "${'x'.repeat(100)}">]><COLLADA>${'&a;'.repeat(100)}</COLLADA>`;
    expect(() => meshObject('bomb.dae', enc(bomb), undefined)).toThrow(/"bomb.dae": the Collada file declares a DTD or entities/);
  });

  it('a Collada file whose primitives or index lists pass the triangle budget', () => {
    const counted = `<COLLADA><triangles material="m" count="250001"><p>0 1 2</p></triangles></COLLADA>`;
    expect(() => meshObject('counted.dae', enc(counted), undefined)).toThrow(/more than 250000 polygons/);
    const lying = `<COLLADA><triangles count="1"><p>${'0 '.repeat(3_000_001)}</p></triangles></COLLADA>`;
    expect(() => meshObject('lying.dae', enc(lying), undefined)).toThrow(/more than 3000000 index values/);
  });

  it('an ASCII STL of repeated "solid" (quadratic in three\'s STLLoader) is read by the linear reader and refused', () => {
    expect(() => meshObject('s.stl', enc('solid '.repeat(2000)), undefined)).toThrow(/has no facets/);
  });

  it('through buildRobotVisuals: a warning naming the link, the robot still built', () => {
    const r = buildRobotVisuals([vis({ type: 'mesh', file: 'many.obj', uri: 'many.obj', scale: [1, 1, 1] }, { link: 'shell' }), vis({ type: 'box', size: [1, 1, 1] })], () =>
      enc(tri + 'f 1 2 3\n'.repeat(250_001)),
    );
    expect(r.warnings).toEqual([expect.stringMatching(/link "shell": visual not drawn: mesh "many.obj": more than 250000 triangles/)]);
    expect(r.byBody.get('base')?.children).toHaveLength(1);
  });
});

describe('robot view with visuals', () => {
  it('a body with visuals hides its collision shape (shown as an overlay on request); others keep theirs', () => {
    const visuals = buildRobotVisuals([vis({ type: 'box', size: [1, 1, 1] })], none);
    const view = createRobotView(
      [
        { name: 'base', role: 'chassis', shape: { type: 'box', halfExtents: [0.4, 0.3, 0.1] } },
        { name: 'rock', role: 'obstacle', shape: { type: 'sphere', radius: 0.3 } },
      ],
      visuals,
    );
    expect(view.visualBodies).toBe(1);
    const mat = (k: number) => view.meshes[k].material as THREE.Material;
    expect(mat(0).visible).toBe(false);
    expect(view.meshes[0].children).toContain(visuals.byBody.get('base'));
    expect(mat(1).visible).toBe(true);
    view.setShowCollision(true);
    expect(mat(0).visible).toBe(true);
    expect(mat(1).visible).toBe(true);
    view.setShowCollision(false);
    expect(mat(0).visible).toBe(false);
    view.dispose();
  });
});
