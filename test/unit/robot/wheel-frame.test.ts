/**
 * Wheels as ROS files write them (issue #27): a wheel link's cylinder turned by its collision
 * origin in any way and offset inside its link is an analytic wheel (the body's shape is the
 * cylinder at that pose); several coaxial parts or a mesh are fitted about the joint axis; what
 * is not a wheel says why.
 */
import { describe, expect, it } from 'vitest';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { BodyFlag } from '../../../sim/dynamics/bodies';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { frameWheel } from '../../../sim/robot/urdf/wheel-frame';
import { quatFromEuler } from '../../../sim/math/quat';
import type { Vec3 } from '../../../sim/math/vec3';

const INERTIAL = '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>';

/** A chassis box with two wheels on continuous joints, each wheel's collision given. */
function urdf(wheelCollision: string, jointAxis = '0 1 0', jointRpy = '0 0 0'): string {
  const wheel = (side: string, y: number) => `
  <link name="${side}_wheel">${INERTIAL}<collision>${wheelCollision}</collision></link>
  <joint name="${side}_wheel_joint" type="continuous"><parent link="base"/><child link="${side}_wheel"/>
    <origin xyz="0 ${y} 0" rpy="${jointRpy}"/><axis xyz="${jointAxis}"/></joint>`;
  return `<robot name="r"><link name="base">${INERTIAL}<collision><geometry><box size="0.4 0.3 0.1"/></geometry></collision></link>
  ${wheel('left', 0.2)}${wheel('right', -0.2)}</robot>`;
}

function analyticBodies(text: string): { wheels: ReturnType<typeof loadUrdfRobot>['wheels']; analytic: string[]; warnings: string[] } {
  const out = loadUrdfRobot(text, { controller: 'none' });
  const w = createDynamicsWorld({ name: 't', gravity: [0, 0, -9.81], dt: 1 / 240, substeps: 4, sleep: false, ccd: false, materials: {}, terrainMaterials: {}, bodies: [], joints: [], robot: out.robot, script: [] }, null);
  const analytic: string[] = [];
  for (let b = 0; b < w.bodies.count; b++) if (w.bodies.flags[b] & BodyFlag.AnalyticCylinder) analytic.push(w.bodies.names[b]);
  return { wheels: out.wheels, analytic, warnings: out.warnings };
}

describe('wheel framing', () => {
  const turned: [string, string, string][] = [
    ['rpy="1.5708 0 0" (ROS\'s usual)', '<origin xyz="0 0 0" rpy="1.5708 0 0"/>', '0 1 0'],
    ['rpy="-1.5708 0 0"', '<origin xyz="0 0 0" rpy="-1.5708 0 0"/>', '0 1 0'],
    ['about y, joint along x', '<origin xyz="0 0 0" rpy="0 1.5708 0"/>', '1 0 0'],
    ['offset 4.5 cm along the axle and turned', '<origin xyz="0 0.045 0" rpy="1.5708 0 0"/>', '0 1 0'],
    ['unturned, joint along z (TurtleBot3)', '', '0 0 1'],
  ];
  for (const [what, origin, axis] of turned) {
    it(`a cylinder ${what} is an analytic wheel of its radius and width`, () => {
      const r = analyticBodies(urdf(`${origin}<geometry><cylinder radius="0.1" length="0.05"/></geometry>`, axis));
      expect(r.analytic).toEqual(['left_wheel', 'right_wheel']);
      expect(r.wheels.map((w) => [w.body, w.radius, w.width, w.from])).toEqual([['left_wheel', 0.1, 0.05, 'cylinder'], ['right_wheel', 0.1, 0.05, 'cylinder']]);
      expect(r.warnings).toEqual([]);
    });
  }

  it('two coaxial cylinders become one: the largest radius, the width of the parts within 90 % of it', () => {
    const two = '<origin xyz="0 0.04 0" rpy="1.5708 0 0"/><geometry><cylinder radius="0.057" length="0.07"/></geometry></collision><collision><origin xyz="0 0.04 0" rpy="1.5708 0 0"/><geometry><cylinder radius="0.0625" length="0.04"/></geometry>';
    const r = analyticBodies(urdf(two));
    expect(r.analytic).toEqual(['left_wheel', 'right_wheel']);
    expect(r.wheels[0].radius).toBe(0.0625);
    expect(r.wheels[0].width).toBeCloseTo(0.07, 12);
    expect(r.wheels[0].from).toBe('fit');
    expect(r.warnings[0]).toMatch(/link "left_wheel": its 2 collision shapes collide as one cylinder about joint "left_wheel_joint"'s axis \(radius 0.0625 m, width 0.07 m\): the analytic wheel/);
  });

  it('a cylinder across the joint axis is not a wheel, and says so', () => {
    const r = analyticBodies(urdf('<geometry><cylinder radius="0.1" length="0.05"/></geometry>', '0 1 0'));
    expect(r.wheels).toEqual([]);
    expect(r.warnings[0]).toMatch(/link "left_wheel" turns on continuous joint "left_wheel_joint" but is not an analytic wheel: its cylinder #1 runs 90° away from the joint axis/);
  });

  it('a sphere stays a sphere, with the reason', () => {
    const r = analyticBodies(urdf('<geometry><sphere radius="0.1"/></geometry>'));
    expect(r.wheels).toEqual([]);
    expect(r.analytic).toEqual([]);
    expect(r.warnings[0]).toMatch(/its collision is a sphere, which stays a sphere/);
  });

  it('a box is not a wheel, with the reason', () => {
    const r = analyticBodies(urdf('<geometry><box size="0.1 0.1 0.1"/></geometry>'));
    expect(r.warnings[0]).toMatch(/its collision #1 is a box/);
  });

  it('a mesh close to a cylinder is fitted about the joint axis; a square one is refused with its fill', () => {
    const ring = (n: number, r: number): Vec3[] => {
      const pts: Vec3[] = [];
      for (let k = 0; k < n; k++) {
        const a = (2 * Math.PI * k) / n;
        pts.push([r * Math.cos(a), -0.02, r * Math.sin(a)], [r * Math.cos(a), 0.03, r * Math.sin(a)]);
      }
      return pts;
    };
    const q = quatFromEuler([0, 0, 0, 1], 0, 0, 0);
    const round = frameWheel([{ shape: { type: 'hull', points: ring(48, 0.1) }, position: [0, 0, 0], orientation: q }], [0, 0, 0], [0, 1, 0]);
    expect('fit' in round && round.fit.from).toBe('fit');
    if ('fit' in round) {
      expect(round.fit.radius).toBeCloseTo(0.1, 12);
      expect(round.fit.width).toBeCloseTo(0.05, 12);
      expect(round.fit.position[1]).toBeCloseTo(0.005, 12);
      expect(round.fit.fill).toBeGreaterThan(0.99);
    }
    const square = frameWheel([{ shape: { type: 'hull', points: ring(4, 0.1) }, position: [0, 0, 0], orientation: q }], [0, 0, 0], [0, 1, 0]);
    expect('reason' in square && square.reason).toMatch(/its mesh #1 fills 64% of its fitted cylinder \(radius 0.1 m, width 0.05 m\) about the joint axis, below 80%/);
  });
});
