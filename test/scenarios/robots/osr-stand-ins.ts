/**
 * Stand-ins for the JPL OSR's STL meshes (test/fixtures/robots/osr/SOURCE.md: 2–3 MB each, three
 * absent from the snapshot), by file name: the real meshes' bounding boxes (measured), guesses for
 * the three absent ones; and a copy of the fixture with them written where its URDF names them
 * (`package://osr_gazebo/meshes/…`), for the scenario path, which reads meshes from disk.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES } from './ros-harness';

/** Binary STL of triangles given as [a, b, c] corner triples. */
function stl(tris: number[][][]): Uint8Array {
  const buf = new ArrayBuffer(84 + 50 * tris.length);
  const dv = new DataView(buf);
  dv.setUint32(80, tris.length, true);
  tris.forEach((t, i) => {
    const o = 84 + 50 * i;
    t.forEach((p, k) => p.forEach((x, c) => dv.setFloat32(o + 12 + 12 * k + 4 * c, x, true)));
  });
  return new Uint8Array(buf);
}

function box(lo: number[], hi: number[]): Uint8Array {
  const P = (i: number) => [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]];
  const faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  return stl(faces.flatMap((f) => [[P(f[0]), P(f[1]), P(f[2])], [P(f[0]), P(f[2]), P(f[3])]]));
}

function cylinder(r: number, z0: number, z1: number, n = 48): Uint8Array {
  const tris: number[][][] = [];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n, b = (2 * Math.PI * (k + 1)) / n;
    const p = (t: number, z: number) => [r * Math.cos(t), r * Math.sin(t), z];
    tris.push([[0, 0, z1], p(a, z1), p(b, z1)], [[0, 0, z0], p(b, z0), p(a, z0)], [p(a, z0), p(b, z0), p(b, z1)], [p(a, z0), p(b, z1), p(a, z1)]);
  }
  return stl(tris);
}

/** Stand-ins by file name: the real meshes' bounding boxes (measured), guesses for the three absent ones. */
export const OSR_STAND_INS: Record<string, Uint8Array> = {
  'wheel.stl': cylinder(0.0818, -0.058, 0.0429),
  'arm.stl': box([-0.0065, -0.0068, -0.0072], [0.08, 0.0069, 0.0066]),
  'body_axis.stl': box([-0.0608, -0.0114, -0.0118], [0.0592, 0.0534, 0.0345]),
  'box_link.stl': box([-0.0042, -0.164, -0.0062], [0.0082, 0.164, 0.0062]),
  'wheel_link_left_2.stl': box([-0.024, -0.0248, -0.1968], [0.1329, 0.0268, 0.004]),
  'wheel_middle_left.stl': box([-0.0582, -0.0316, -0.0381], [0.061, 0.0362, 0.0297]),
  'turn_L.stl': box([-0.0366, -0.0444, -0.0505], [0.0595, 0.0243, 0.0732]),
  'turn_R.stl': box([-0.0444, -0.0364, -0.0503], [0.0237, 0.0593, 0.0727]),
  // absent from the snapshot: the body and the rocker/bogie plates, as small boxes at their frames
  'body.stl': box([-0.2, -0.12, -0.05], [0.2, 0.12, 0.05]),
  'rockerbogie_middle_1.stl': box([-0.02, -0.01, -0.02], [0.02, 0.01, 0.02]),
  'rockerbogie_front_1.stl': box([-0.02, -0.01, -0.02], [0.02, 0.01, 0.02]),
};

/** A temporary copy of test/fixtures/robots/osr with the stand-ins in osr_gazebo/meshes/; returns its folder. */
export function osrWithStandIns(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-osr-'));
  cpSync(join(FIXTURES, 'osr'), dir, { recursive: true });
  mkdirSync(join(dir, 'osr_gazebo/meshes'), { recursive: true });
  for (const [name, data] of Object.entries(OSR_STAND_INS)) writeFileSync(join(dir, 'osr_gazebo/meshes', name), data);
  return dir;
}
