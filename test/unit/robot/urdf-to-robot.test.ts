/**
 * URDF → RobotSpec round trip: a test robot with asymmetric origins and turned joint frames.
 * Expected poses are computed by hand in the comments and cross-checked by an independent
 * rotation-matrix oracle (explicit Rz·Ry·Rx matrices, no quaternions).
 */
import { describe, it, expect } from 'vitest';
import { parseUrdf } from '../../../sim/robot/urdf/parse-urdf';
import { urdfToRobot } from '../../../sim/robot/urdf/urdf-to-robot';
import { loadUrdfRobot, urdfReferencedFiles } from '../../../sim/robot/urdf/load-urdf';
import type { BodySpec, JointSpec, QuatSpec } from '../../../sim/dynamics/spec';

const H = Math.PI / 2;

const inertial = (m: number, xyz = '0 0 0', rpy = '0 0 0', d = [1, 2, 3], off = [0, 0, 0]): string =>
  `<inertial><origin xyz="${xyz}" rpy="${rpy}"/><mass value="${m}"/><inertia ixx="${d[0]}" iyy="${d[1]}" izz="${d[2]}" ixy="${off[0]}" ixz="${off[1]}" iyz="${off[2]}"/></inertial>`;

/** base → j1 (revolute) → l1 → j2 (prismatic) → l2 → j3 (continuous) → l3. */
const CHAIN = `<?xml version="1.0"?>
<robot name="chain">
  <material name="red"><color rgba="1 0 0 1"/></material>
  <link name="base">${inertial(5)}<collision><geometry><box size="0.4 0.2 0.1"/></geometry></collision></link>
  <link name="l1">${inertial(2, '0.01 -0.02 0.03', `0 0 ${H}`)}
    <collision><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
    <visual><origin xyz="0 0 0.1" rpy="0 0 0"/><geometry><mesh filename="package://chain/meshes/l1.dae" scale="2 2 2"/></geometry><material name="red"/></visual>
  </link>
  <link name="l2">${inertial(1, '0 0 0', `${Math.PI / 4} 0 0`)}
    <collision><origin xyz="0 0 0.05" rpy="0 0 0"/><geometry><cylinder radius="0.05" length="0.2"/></geometry></collision>
  </link>
  <link name="l3">${inertial(1)}
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
    <collision><origin xyz="0.2 0 0" rpy="${H} 0 0"/><geometry><cylinder radius="0.1" length="0.05"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/>
    <origin xyz="0.1 0.2 0.3" rpy="0 0 ${H}"/><axis xyz="1 0 0"/>
    <limit lower="-0.5" upper="0.7" effort="9" velocity="2"/><dynamics damping="0.3" friction="0.1"/>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="l1"/><child link="l2"/>
    <origin xyz="0.5 0 0" rpy="${H} 0 0"/><axis xyz="0 0 2"/>
    <limit lower="0" upper="0.2" effort="100" velocity="1"/>
  </joint>
  <joint name="j3" type="continuous">
    <parent link="l2"/><child link="l3"/>
    <origin xyz="0 0 0.25" rpy="0 ${H} 0"/><axis xyz="0 1 0"/>
    <mimic joint="j1"/>
  </joint>
</robot>`;

// --- independent oracle: 3×3 row-major matrices ----------------------------------------------------
type M = number[][];
const mul = (a: M, b: M): M => a.map((r) => [0, 1, 2].map((c) => r[0] * b[0][c] + r[1] * b[1][c] + r[2] * b[2][c]));
const mv = (a: M, v: number[]): number[] => a.map((r) => r[0] * v[0] + r[1] * v[1] + r[2] * v[2]);
const Rx = (t: number): M => [[1, 0, 0], [0, Math.cos(t), -Math.sin(t)], [0, Math.sin(t), Math.cos(t)]];
const Ry = (t: number): M => [[Math.cos(t), 0, Math.sin(t)], [0, 1, 0], [-Math.sin(t), 0, Math.cos(t)]];
const Rz = (t: number): M => [[Math.cos(t), -Math.sin(t), 0], [Math.sin(t), Math.cos(t), 0], [0, 0, 1]];
const rpy = (r: number, p: number, y: number): M => mul(Rz(y), mul(Ry(p), Rx(r)));
/** Rotation matrix of a quaternion [x, y, z, w], written out (the textbook formula). */
function qm(q: QuatSpec): M {
  const [x, y, z, w] = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}
function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-12): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i]), `component ${i}: ${a[i]} vs ${b[i]}`).toBeLessThan(tol);
}
function expectRot(q: QuatSpec | undefined, r: M): void {
  const m = qm(q as QuatSpec);
  for (let i = 0; i < 3; i++) expectClose(m[i], r[i]);
}

describe('urdfToRobot: poses, axes, inertials of a chain with turned frames', () => {
  const model = parseUrdf(CHAIN);
  const out = urdfToRobot(model, { position: [1, 2, 3], yaw: H, urdfPath: '/ws/src/chain/urdf/chain.urdf', controller: 'none' });
  const body = (n: string): BodySpec => out.robot.bodies.find((b) => b.name === n) as BodySpec;
  const joint = (n: string): JointSpec => out.robot.joints.find((j) => j.name === n) as JointSpec;

  it('places every link at the hand-computed world pose', () => {
    // base at (1,2,3), yaw 90°.
    expectClose(body('base').position as number[], [1, 2, 3]);
    expectRot(body('base').orientation, Rz(H));
    // l1 = (1,2,3) + Rz(90°)(0.1,0.2,0.3) = (0.8, 2.1, 3.3); R = Rz(180°).
    expectClose(body('l1').position as number[], [0.8, 2.1, 3.3]);
    expectRot(body('l1').orientation, Rz(Math.PI));
    // l2 = l1 + Rz(180°)(0.5,0,0) = (0.3, 2.1, 3.3); R = Rz(180°)·Rx(90°).
    expectClose(body('l2').position as number[], [0.3, 2.1, 3.3]);
    expectRot(body('l2').orientation, mul(Rz(Math.PI), Rx(H)));
    // l3 = l2 + Rz(180°)Rx(90°)(0,0,0.25) = l2 + (0, 0.25, 0); R = Rz(180°)·Rx(90°)·Ry(90°).
    expectClose(body('l3').position as number[], [0.3, 2.35, 3.3]);
    expectRot(body('l3').orientation, mul(Rz(Math.PI), mul(Rx(H), Ry(H))));
  });

  it('matches the matrix oracle (composition of the joint origins)', () => {
    let R = Rz(H);
    let p = [1, 2, 3];
    const steps: [string, number[], number[]][] = [
      ['l1', [0.1, 0.2, 0.3], [0, 0, H]],
      ['l2', [0.5, 0, 0], [H, 0, 0]],
      ['l3', [0, 0, 0.25], [0, H, 0]],
    ];
    for (const [name, xyz, r] of steps) {
      const d = mv(R, xyz);
      p = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
      R = mul(R, rpy(r[0], r[1], r[2]));
      expectClose(body(name).position as number[], p);
      expectRot(body(name).orientation, R);
    }
  });

  it('puts joint anchors at the child frame origin and axes in world coordinates', () => {
    const j1 = joint('j1');
    expect(j1.type).toBe('revolute');
    expect([j1.bodyA, j1.bodyB]).toEqual(['base', 'l1']);
    expectClose(j1.anchor as number[], [0.8, 2.1, 3.3]);
    expectClose(j1.axis as number[], [-1, 0, 0]); // Rz(180°)·x
    expect(j1.limits).toEqual([-0.5, 0.7]);
    expect(j1.damping).toBe(0.3);
    expect(j1.friction).toBe(0.1);
    const j2 = joint('j2');
    expect(j2.type).toBe('prismatic');
    expectClose(j2.axis as number[], [0, 1, 0]); // Rz(180°)Rx(90°)·z, from the non-unit "0 0 2"
    expect(j2.limits).toEqual([0, 0.2]);
    const j3 = joint('j3');
    expect(j3.type).toBe('revolute'); // continuous → revolute without limits
    expect(j3.limits).toBeUndefined();
    expectClose(j3.axis as number[], [0, 0, 1]); // R_l3·y
    expectClose(j3.anchor as number[], [0.3, 2.35, 3.3]);
    expect(j1.motor).toBeUndefined(); // controller 'none': nothing driven
  });

  it('rotates the inertia tensor by the inertial rpy into the link frame', () => {
    // Rz(90°)·diag(1,2,3)·Rz(90°)ᵀ = diag(2,1,3)
    expectClose(body('l1').inertia as number[], [2, 1, 3, 0, 0, 0]);
    expectClose(body('l1').centerOfMass as number[], [0.01, -0.02, 0.03]);
    expect(body('l1').mass).toBe(2);
    // Rx(45°)·diag(1,2,3)·Rx(45°)ᵀ: iyy = izz = 2.5, iyz = (2 − 3)/2
    expectClose(body('l2').inertia as number[], [1, 2.5, 2.5, 0, 0, -0.5]);
  });

  it('keeps one centred collision plain, offsets or several become a compound', () => {
    expect(body('base').shape).toEqual({ type: 'box', halfExtents: [0.2, 0.1, 0.05] });
    expect(body('l1').shape).toEqual({ type: 'box', halfExtents: [0.05, 0.1, 0.15] });
    const s2 = body('l2').shape;
    expect(s2.type).toBe('compound');
    if (s2.type !== 'compound') return;
    expect(s2.children).toHaveLength(1);
    expect(s2.children[0].shape).toEqual({ type: 'cylinder', radius: 0.05, height: 0.2 });
    expectClose(s2.children[0].position as number[], [0, 0, 0.05]);
    const s3 = body('l3').shape;
    if (s3.type !== 'compound') throw new Error('l3 should be a compound');
    expect(s3.children.map((c) => c.shape.type)).toEqual(['sphere', 'cylinder']);
    expectRot(s3.children[1].orientation, Rx(H));
  });

  it('returns the visuals in the body frame with resolved mesh paths and colours', () => {
    expect(out.visuals).toHaveLength(1);
    const v = out.visuals[0];
    expect(v.body).toBe('l1');
    expect(v.geometry).toEqual({ type: 'mesh', file: '/ws/src/chain/meshes/l1.dae', uri: 'package://chain/meshes/l1.dae', scale: [2, 2, 2] });
    expectClose(v.position, [0, 0, 0.1]);
    expect(v.color).toEqual([1, 0, 0, 1]);
    expect(v.material).toBe('red');
    expect(urdfReferencedFiles(model, '/ws/src/chain/urdf/chain.urdf')).toEqual([
      { path: '/ws/src/chain/meshes/l1.dae', uri: 'package://chain/meshes/l1.dae', link: 'l1', role: 'visual' },
    ]);
  });

  it('turns <mimic> into the follower joint\'s coupling (multiplier 1, offset 0 by default)', () => {
    expect(out.robot.joints.find((j) => j.name === 'j3')?.mimic).toEqual({ joint: 'j1', multiplier: 1, offset: 0 });
    expect(out.warnings.some((w) => /mimic/.test(w))).toBe(false);
  });
});

describe('urdfToRobot: massless links', () => {
  const URDF = `<robot name="m">
    <link name="base_footprint"/>
    <link name="base_link">${inertial(4)}<collision><geometry><box size="1 1 1"/></geometry></collision></link>
    <link name="lidar"><visual><geometry><cylinder radius="0.05" length="0.1"/></geometry></visual>
      <collision><geometry><sphere radius="0.05"/></geometry></collision></link>
    <link name="wheel">${inertial(1)}<collision><geometry><cylinder radius="0.2" length="0.1"/></geometry></collision></link>
    <joint name="fp" type="fixed"><parent link="base_footprint"/><child link="base_link"/><origin xyz="0 0 0.3"/></joint>
    <joint name="lj" type="fixed"><parent link="base_link"/><child link="lidar"/><origin xyz="0.2 0 0.5" rpy="0 0 ${H}"/></joint>
    <joint name="wheel_joint" type="continuous"><parent link="base_footprint"/><child link="wheel"/><origin xyz="0 0.6 0.2" rpy="${-H} 0 0"/><axis xyz="0 0 1"/></joint>
  </robot>`;

  it('merges a massless root into its fixed massive child and massless leaves into their parent', () => {
    const out = loadUrdfRobot(URDF, { position: [0, 0, 0], controller: 'none' });
    expect(out.robot.base).toBe('base_link');
    expect(out.robot.bodies.map((b) => b.name)).toEqual(['base_link', 'wheel']);
    expect(out.linkBodies).toEqual({ base_footprint: 'base_link', base_link: 'base_link', lidar: 'base_link', wheel: 'wheel' });
    const base = out.robot.bodies[0];
    expectClose(base.position as number[], [0, 0, 0.3]);
    if (base.shape.type !== 'compound') throw new Error('merged lidar collision makes a compound');
    expectClose(base.shape.children[1].position as number[], [0.2, 0, 0.5]);
    // The wheel hangs on the footprint in the file; it attaches to the merged body.
    expect(out.robot.joints.map((j) => [j.name, j.bodyA, j.bodyB])).toEqual([['wheel_joint', 'base_link', 'wheel']]);
    expect(out.visuals[0].body).toBe('base_link');
    expectRot(out.visuals[0].orientation, Rz(H));
    expect(out.warnings.join('\n')).toMatch(/base_footprint.*merged into "base_link"/);
  });

  it('rejects a massless link on a moving joint', () => {
    const bad = URDF.replace(`<link name="wheel">${inertial(1)}`, '<link name="wheel">');
    expect(() => loadUrdfRobot(bad)).toThrow(/link "wheel" has no <inertial> but moves on continuous joint "wheel_joint"/);
  });
});

describe('urdfToRobot: lumpFixedLinks', () => {
  const URDF = `<robot name="lump">
    <link name="base">${inertial(2, '0 0 0', '0 0 0', [0.2 * 0.08 / 12 * 10, 0.2 * 0.08 / 12 * 10, 0.2 * 0.08 / 12 * 10])}<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
    <link name="payload">${inertial(1, '0 0 0', '0 0 0', [0.1, 0.2, 0.3])}<collision><geometry><sphere radius="0.1"/></geometry></collision></link>
    <link name="arm">${inertial(1)}</link>
    <joint name="fix" type="fixed"><parent link="base"/><child link="payload"/><origin xyz="1 0 0" rpy="0 0 ${H}"/></joint>
    <joint name="hinge" type="revolute"><parent link="payload"/><child link="arm"/><origin xyz="0 0 1"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  </robot>`;

  it('lumps fixed links by default (as Gazebo\'s URDF conversion does); lumpFixedLinks: false keeps them as bodies', () => {
    expect(loadUrdfRobot(URDF, { controller: 'none' }).robot.bodies.map((b) => b.name)).toEqual(['base', 'arm']);
    const out = loadUrdfRobot(URDF, { controller: 'none', lumpFixedLinks: false });
    expect(out.robot.bodies.map((b) => b.name)).toEqual(['base', 'payload', 'arm']);
    expect(out.robot.joints.map((j) => j.type)).toEqual(['fixed', 'revolute']);
  });

  it('lumps them with mass, COM and inertia combined (hand-computed parallel axis)', () => {
    const out = loadUrdfRobot(URDF, { controller: 'none', lumpFixedLinks: true });
    expect(out.robot.bodies.map((b) => b.name)).toEqual(['base', 'arm']);
    expect(out.linkBodies.payload).toBe('base');
    const b = out.robot.bodies[0];
    expect(b.mass).toBe(3);
    expectClose(b.centerOfMass as number[], [1 / 3, 0, 0]);
    // base 2 kg, I = 4/300 each, at d = (−1/3, 0, 0); payload 1 kg, diag(0.1, 0.2, 0.3) turned 90° about z
    // → diag(0.2, 0.1, 0.3), at d = (2/3, 0, 0). Parallel axis adds m·dx² to iyy and izz.
    const i0 = 4 / 300;
    expectClose(b.inertia as number[], [i0 + 0.2, i0 + 0.1 + 2 / 9 + 4 / 9, i0 + 0.3 + 2 / 9 + 4 / 9, 0, 0, 0]);
    if (b.shape.type !== 'compound') throw new Error('two collisions');
    expectClose(b.shape.children[1].position as number[], [1, 0, 0]);
    // The hinge now joins the lumped body and the arm, anchored where the file says.
    expect(out.robot.joints.map((j) => [j.name, j.bodyA, j.bodyB])).toEqual([['hinge', 'base', 'arm']]);
    expectClose(out.robot.joints[0].anchor as number[], [1, 0, 1]);
    expectClose(out.robot.joints[0].axis as number[], [0, 1, 0]); // Rz(90°)·x
    expect(out.warnings.join('\n')).toMatch(/links "payload" on fixed joints are lumped into body "base"/);
  });
});

describe('urdfToRobot: visuals it cannot fetch', () => {
  it('drops a visual with a web URL (warning), keeps the robot', () => {
    const text = `<robot name="v"><link name="base">${inertial(1)}
      <visual><geometry><mesh filename="https://example.org/a.dae"/></geometry></visual>
      <visual><geometry><sphere radius="0.1"/></geometry></visual></link></robot>`;
    const out = loadUrdfRobot(text, { controller: 'none' });
    expect(out.visuals.map((v) => v.geometry.type)).toEqual(['sphere']);
    expect(out.warnings.join('\n')).toMatch(/link "base" <visual> #1 is not drawn: .*only package:\/\/, file:\/\/ and relative paths/);
    expect(urdfReferencedFiles(out.model, '/r/v.urdf')).toEqual([]);
  });
});

describe('urdfToRobot: motors from the controller', () => {
  const URDF = `<robot name="d">
    <link name="base">${inertial(4)}<collision><geometry><box size="1 0.5 0.2"/></geometry></collision></link>
    <link name="left_wheel">${inertial(1)}<collision><geometry><cylinder radius="0.2" length="0.1"/></geometry></collision></link>
    <link name="right_wheel">${inertial(1)}<collision><geometry><cylinder radius="0.2" length="0.1"/></geometry></collision></link>
    <joint name="left_wheel_joint" type="continuous"><parent link="base"/><child link="left_wheel"/><origin xyz="0 0.3 0" rpy="${-H} 0 0"/><axis xyz="0 0 1"/><limit effort="7" velocity="10"/></joint>
    <joint name="right_wheel_joint" type="continuous"><parent link="base"/><child link="right_wheel"/><origin xyz="0 -0.3 0" rpy="${H} 0 0"/><axis xyz="0 0 1"/></joint>
  </robot>`;

  it('infers a differential drive and gives driven joints motors capped by the effort limit', () => {
    const out = loadUrdfRobot(URDF);
    const c = out.robot.controller;
    expect(c?.type).toBe('differential');
    if (!c || c.type === 'ackermann' || c.type === 'all-wheel-steer') return;
    expect(c.left).toEqual(['left_wheel_joint']);
    expect(c.right).toEqual(['right_wheel_joint']);
    expect(c.track).toBeCloseTo(0.6, 12);
    expect(c.wheelRadius).toBe(0.2);
    const m = Object.fromEntries(out.robot.joints.map((j) => [j.name, j.motor]));
    expect(m.left_wheel_joint).toEqual({ targetVelocity: 0, maxTorque: 7 });
    expect(m.right_wheel_joint).toEqual({ targetVelocity: 0, maxTorque: 7 }); // no effort: the controller's (= smallest given)
    // The right wheel's link z (its axis) points to −y: world axis must say so.
    expectClose(out.robot.joints[1].axis as number[], [0, -1, 0]);
  });

  it('without effort limits, a heavy robot\'s inferred motors can slip its wheels (m·g·r / wheels), a light one\'s get 20 N·m', () => {
    const noEffort = (baseKg: number) => URDF.replace('<limit effort="7" velocity="10"/>', '').replace(inertial(4), inertial(baseKg));
    const torque = (t: string) => loadUrdfRobot(t).robot.joints.map((j) => j.motor?.maxTorque);
    expect(torque(noEffort(4))).toEqual([20, 20]); // 6 kg: 5.9 N·m to slip, below the floor
    // 200 kg + two 1 kg wheels of r = 0.2: 202·9.81·0.2/2 = 198.2 N·m, rounded up
    expect(torque(noEffort(200))).toEqual([199, 199]);
  });

  it('rejects a controller naming a joint the robot does not have', () => {
    expect(() =>
      loadUrdfRobot(URDF, {
        controller: { type: 'differential', left: ['left_wheel_joint'], right: ['nope'], wheelRadius: 0.2, track: 0.6, maxSpeed: 1, maxTorque: 5 },
      }),
    ).toThrow(/controller: joint "nope" is not a joint of robot "d"/);
  });

  it('validates a given controller and warns when its lengths disagree with the geometry', () => {
    const c = { type: 'differential' as const, left: ['left_wheel_joint'], right: ['right_wheel_joint'], wheelRadius: 0.2, track: 0.5, maxSpeed: 1, maxTorque: 5 };
    const out = loadUrdfRobot(URDF, { controller: c });
    expect(out.warnings).toEqual(["controller.track is 0.5 m but the robot's geometry gives 0.6 m"]);
    expect(() => loadUrdfRobot(URDF, { controller: { ...c, maxSpeed: -1 } })).toThrow(/controller.maxSpeed must be a positive finite number/);
  });
});
