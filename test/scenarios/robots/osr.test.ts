/**
 * The JPL Open Source Rover's description as shipped (test/fixtures/robots/osr: xacro with
 * <transmission>s and a <ros2_control> block; four steered corners named "front_wheel_joint_L",
 * six wheels, passive bogies), its STL meshes replaced by stand-ins of their size (SOURCE.md):
 * it loads, its four corners steer an inferred all-wheel-steer drive (a skid-steer drive would
 * hold them with position servos from the <transmission>s),
 * and on flat ground it settles without dropping, drives straight (≤ 3° over 5 s), turns in place,
 * with ≥ 90 % classified wheel contacts none deeper than 2 mm.
 */
import { describe, expect, it } from 'vitest';
import { ContactTally, flatGround, hills, loadFixture, robotWorld, run, wrap, yaw } from './ros-harness';

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
const STAND_INS: Record<string, Uint8Array> = {
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

const FILE = 'osr/osr_gazebo/urdf/osr.urdf.xacro';
const load = (options = {}) => loadFixture(FILE, { meshes: (p) => STAND_INS[p.split('/').pop() as string], ...options });

describe('JPL Open Source Rover (as shipped, meshes stood in)', () => {
  it('loads: six analytic wheels; the four corners (position interfaces) steer an inferred all-wheel-steer drive', async () => {
    const r = await load();
    expect(r.wheels.map((w) => w.body).sort()).toEqual(['front_wheel_link_left', 'front_wheel_link_right', 'middle_wheel_link_left', 'middle_wheel_link_right', 'rear_wheel_link_left', 'rear_wheel_link_right']);
    const c = r.robot.controller;
    expect(c?.type).toBe('all-wheel-steer');
    if (c?.type !== 'all-wheel-steer') return;
    expect(c.wheels.filter((w) => w.steer).map((w) => w.steer).sort()).toEqual(['front_wheel_joint_L', 'front_wheel_joint_R', 'rear_wheel_joint_L', 'rear_wheel_joint_R']);
    // a skid-steer drive leaves the corners to their <transmission>s' position servos
    const skid = await load({ controller: { type: 'skid-steer' } });
    expect(skid.robot.servos?.map((x) => [x.joint, x.target, x.maxVelocity]).sort()).toEqual([['front_wheel_joint_L', 0, 10], ['front_wheel_joint_R', 0, 10], ['rear_wheel_joint_L', 0, 3], ['rear_wheel_joint_R', 0, 3]]);
  }, 60_000);

  it('on flat ground (fixed links lumped): settles without a drop, drives straight within 3° over 5 s, turns in place; ≥ 90 % classified wheel contacts, ≤ 2 mm deep', async () => {
    const r = await load({ lumpFixedLinks: true });
    const w = robotWorld(r.robot, flatGround());
    const base = w.bodies.indexOf(r.robot.base);
    const z0 = w.bodies.pos[3 * base + 2];
    const tally = new ContactTally(w, r.wheels.map((x) => x.body));
    run(w, 240);
    expect(w.fault).toBeNull();
    expect(z0 - w.bodies.pos[3 * base + 2]).toBeLessThan(0.02);
    tally.deepest = 0;
    const y0 = yaw(w, base);
    const x0 = w.bodies.pos[3 * base];
    w.setDrive(0.5, 0);
    run(w, 240 * 5, tally);
    expect(w.fault).toBeNull();
    expect(Math.abs(wrap(yaw(w, base) - y0)) * 180 / Math.PI).toBeLessThanOrEqual(3);
    expect(w.bodies.pos[3 * base] - x0).toBeGreaterThan(1);
    const y1 = yaw(w, base);
    w.setDrive(0, 1);
    run(w, 240 * 2, tally);
    expect(w.fault).toBeNull();
    expect(Math.abs(wrap(yaw(w, base) - y1)) * 180 / Math.PI).toBeGreaterThan(30);
    expect(tally.share).toBeGreaterThanOrEqual(0.9);
    expect(tally.deepest).toBeLessThanOrEqual(2e-3);
  }, 300_000);

  it('on the bundled hills (fixed links lumped): drives 5 s and turns without a fault; ≥ 90 % classified wheel contacts, ≤ 2 mm deep', async () => {
    const r = await load({ lumpFixedLinks: true, position: [-5, 3, 0] });
    const w = robotWorld(r.robot, hills());
    const base = w.bodies.indexOf(r.robot.base);
    const tally = new ContactTally(w, r.wheels.map((x) => x.body));
    run(w, 240);
    tally.deepest = 0;
    const p0 = [w.bodies.pos[3 * base], w.bodies.pos[3 * base + 1]];
    w.setDrive(0.5, 0);
    run(w, 240 * 5, tally);
    expect(w.fault).toBeNull();
    expect(Math.hypot(w.bodies.pos[3 * base] - p0[0], w.bodies.pos[3 * base + 1] - p0[1])).toBeGreaterThan(1);
    const y1 = yaw(w, base);
    w.setDrive(0, 1);
    run(w, 240 * 2, tally);
    expect(w.fault).toBeNull();
    expect(Math.abs(wrap(yaw(w, base) - y1)) * 180 / Math.PI).toBeGreaterThan(30);
    expect(tally.share).toBeGreaterThanOrEqual(0.9);
    expect(tally.deepest).toBeLessThanOrEqual(2e-3);
  }, 300_000);

  // Known failure, pinned: without lumpFixedLinks the body hangs on a chain of five fixed joints
  // through 0.1–1 kg links (box_rotate, arm_rotate, turn_bukles, body_axis, rocker 1) to the
  // 7 kg rockers; the soft fixed rows of that light chain sag and the 10 kg body drops 78 mm at
  // spawn (the wheels 5–12 mm). Set "lumpFixedLinks": true in the scenario until the solver (or
  // an automatic lump of such chains) holds it; this test turns red when it does.
  it.fails('without lumpFixedLinks the body settles within 2 cm (today: drops 78 mm)', async () => {
    const r = await load();
    const w = robotWorld(r.robot, flatGround());
    const base = w.bodies.indexOf(r.robot.base);
    const z0 = w.bodies.pos[3 * base + 2];
    run(w, 240);
    expect(z0 - w.bodies.pos[3 * base + 2]).toBeLessThan(0.02);
  }, 120_000);
});
