/**
 * Position servos under load. A 20 kg rover stands on four suspension arms (revolute about y,
 * the wheel 15 cm ahead of or behind each pivot, so its weight turns the arm): as the Curiosity
 * model ships (arms on effort interfaces, held in Gazebo by a controllers file TerraWheel does not
 * read) the arms fold and the body drops; a ros2_control position interface on each arm, or a
 * scenario's `hold`, keeps the body up within 2 cm and turns the arms to their target (the
 * interface's initial_value, the hold's angle) within 0.02 rad.
 */
import { describe, expect, it } from 'vitest';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import type { UrdfToRobotOptions } from '../../../sim/robot/urdf/urdf-to-robot';
import { flatGround, robotWorld, run } from './ros-harness';

const inertial = (m: number, i: number) => `<inertial><mass value="${m}"/><inertia ixx="${i}" iyy="${i}" izz="${i}" ixy="0" ixz="0" iyz="0"/></inertial>`;
const ARMS = ['F_L', 'F_R', 'B_L', 'B_R'];
/** [rad] ros2_control's initial_value of every arm: the position servos' target. */
const INITIAL = -0.1;

function rover(iface: 'effort' | 'position'): string {
  const parts = [`<robot name="legged"><link name="chassis">${inertial(20, 0.5)}<collision><geometry><box size="0.8 0.5 0.15"/></geometry></collision></link>`];
  for (const a of ARMS) {
    const x = a[0] === 'F' ? 0.3 : -0.3, y = a[2] === 'L' ? 0.3 : -0.3, dx = a[0] === 'F' ? 0.15 : -0.15;
    parts.push(`<link name="arm_${a}">${inertial(1, 0.01)}</link>`,
      `<joint name="suspension_arm_${a}_joint" type="revolute"><parent link="chassis"/><child link="arm_${a}"/><origin xyz="${x} ${y} 0"/><axis xyz="0 1 0"/><limit lower="-0.6" upper="0.6" effort="200" velocity="2"/></joint>`,
      `<link name="wheel_${a}">${inertial(1, 0.01)}<collision><origin rpy="1.5708 0 0"/><geometry><cylinder radius="0.1" length="0.08"/></geometry></collision></link>`,
      `<joint name="wheel_${a}_joint" type="continuous"><parent link="arm_${a}"/><child link="wheel_${a}"/><origin xyz="${dx} 0 -0.25"/><axis xyz="0 1 0"/></joint>`);
  }
  parts.push('<ros2_control name="s" type="system">');
  for (const a of ARMS) parts.push(`<joint name="suspension_arm_${a}_joint"><command_interface name="${iface}"/><state_interface name="position"><param name="initial_value">${INITIAL}</param></state_interface></joint>`);
  parts.push('</ros2_control></robot>');
  return parts.join('\n');
}

function settle(iface: 'effort' | 'position', options: UrdfToRobotOptions = {}) {
  // no drive: the wheels roll freely (a braked wheel would hold the arms by friction)
  const r = loadUrdfRobot(rover(iface), { controller: 'none', ...options });
  const w = robotWorld(r.robot, flatGround());
  const base = w.bodies.indexOf('chassis');
  const z0 = w.bodies.pos[3 * base + 2];
  run(w, 240 * 2);
  const arms = ARMS.map((a) => w.joints.position[w.joints.defs.findIndex((d) => d.name === `suspension_arm_${a}_joint`)]);
  return { drop: z0 - w.bodies.pos[3 * base + 2], arms, fault: w.fault };
}

describe('position servos hold a loaded suspension', () => {
  it('effort interfaces (as the Curiosity model ships): the arms fold and the body drops more than 5 cm', () => {
    const s = settle('effort');
    expect(s.fault).toBeNull();
    expect(s.drop).toBeGreaterThan(0.05);
  });

  it('ros2_control position interfaces: the body stays within 2 cm, the arms within 0.02 rad of their initial_value', () => {
    const s = settle('position');
    expect(s.fault).toBeNull();
    expect(s.drop).toBeLessThan(0.02);
    for (const q of s.arms) expect(Math.abs(q - INITIAL)).toBeLessThan(0.02);
  });

  it('a scenario hold on effort-interface arms does the same, at the held angle', () => {
    const hold = Object.fromEntries(ARMS.map((a) => [`suspension_arm_${a}_joint`, 0.1]));
    const s = settle('effort', { hold });
    expect(s.fault).toBeNull();
    for (const q of s.arms) expect(q).toBeCloseTo(0.1, 1);
    expect(Math.max(...s.arms.map((q) => Math.abs(q - 0.1)))).toBeLessThan(0.02);
  });
});
