/**
 * All-wheel steering on a six-wheel rover with four steered corners (the JPL Open Source Rover's
 * layout and naming: steering joints "front_wheel_joint_L" about the vertical with a wheel below,
 * fixed middle wheels, ROS 1 <transmission>s: position interfaces on the corners, velocity on the
 * wheels), generated here as a URDF: the controller is inferred from it; on flat ground it drives
 * straight (heading change ≤ 3° over 5 s), turns in place about its middle, and crabs sideways
 * keeping its heading. Without the steering servos (no transmissions, no controller joint
 * holding them) the corners go limp: the controller test shows that a skid-steer drive of the
 * same rover veers.
 */
import { describe, expect, it } from 'vitest';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import type { UrdfToRobotOptions } from '../../../sim/robot/urdf/urdf-to-robot';
import { flatGround, robotWorld, run, wrap, yaw } from './ros-harness';

const inertial = (m: number, i: number) => `<inertial><mass value="${m}"/><inertia ixx="${i}" iyy="${i}" izz="${i}" ixy="0" ixz="0" iyz="0"/></inertial>`;
const wheel = (name: string) => `<link name="${name}">${inertial(1, 0.01)}<collision><origin rpy="1.5708 0 0"/><geometry><cylinder radius="0.075" length="0.06"/></geometry></collision></link>`;
const transmission = (joint: string, iface: string) => `<transmission name="${joint}_tran"><type>transmission_interface/SimpleTransmission</type>
  <joint name="${joint}"><hardwareInterface>hardware_interface/${iface}JointInterface</hardwareInterface></joint>
  <actuator name="${joint}_motor"><mechanicalReduction>1</mechanicalReduction></actuator></transmission>`;

/** Six wheels at x = ±0.25 (corners, steered) and 0 (middle), y = ±0.25; the corners' steering pivots above their wheels. */
export function sixWheelRover(transmissions = true): string {
  const parts: string[] = [`<robot name="osr-like"><link name="base_link">${inertial(10, 0.3)}<collision><geometry><box size="0.5 0.3 0.1"/></geometry></collision></link>`];
  for (const [fr, x] of [['front', 0.25], ['middle', 0], ['rear', -0.25]] as const) {
    for (const [side, s, long] of [['L', 1, 'left'], ['R', -1, 'right']] as const) {
      const w = `${fr}_wheel_${long}`;
      if (fr === 'middle') {
        parts.push(wheel(w), `<joint name="${fr}_wheel_joint_${long}" type="continuous"><parent link="base_link"/><child link="${w}"/><origin xyz="${x} ${s * 0.25} -0.1"/><axis xyz="0 1 0"/><limit effort="20" velocity="20"/></joint>`);
        continue;
      }
      const corner = `${fr}_corner_${side}`;
      parts.push(`<link name="${corner}">${inertial(0.5, 0.002)}</link>`,
        `<joint name="${fr}_wheel_joint_${side}" type="revolute"><parent link="base_link"/><child link="${corner}"/><origin xyz="${x} ${s * 0.25} -0.02"/><axis xyz="0 0 1"/><limit lower="-0.8" upper="0.8" effort="100" velocity="4"/></joint>`,
        wheel(w),
        `<joint name="${fr}_wheel_joint_${long}" type="continuous"><parent link="${corner}"/><child link="${w}"/><origin xyz="0 0 -0.08"/><axis xyz="0 1 0"/><limit effort="20" velocity="20"/></joint>`);
      if (transmissions) parts.push(transmission(`${fr}_wheel_joint_${side}`, 'Position'));
    }
  }
  if (transmissions) for (const fr of ['front', 'middle', 'rear']) for (const long of ['left', 'right']) parts.push(transmission(`${fr}_wheel_joint_${long}`, 'Velocity'));
  parts.push('</robot>');
  return parts.join('\n');
}

function drive(options: UrdfToRobotOptions = {}, transmissions = true) {
  const r = loadUrdfRobot(sixWheelRover(transmissions), options);
  const w = robotWorld(r.robot, flatGround());
  const base = w.bodies.indexOf(r.robot.base);
  run(w, 240);
  const pos = () => [w.bodies.pos[3 * base], w.bodies.pos[3 * base + 1]];
  return { r, w, base, pos, yaw: () => yaw(w, base) };
}

describe('all-wheel steering (six wheels, four steered corners)', () => {
  it('is inferred from the joints: corners steer the wheels below them, the middle wheels are fixed', () => {
    const { robot } = loadUrdfRobot(sixWheelRover());
    const c = robot.controller;
    expect(c?.type).toBe('all-wheel-steer');
    if (c?.type !== 'all-wheel-steer') return;
    expect(c.wheels).toHaveLength(6);
    expect(c.wheels.find((x) => x.drive === 'front_wheel_joint_left')?.steer).toBe('front_wheel_joint_L');
    expect(c.wheels.find((x) => x.drive === 'middle_wheel_joint_right')?.steer).toBeUndefined();
    expect(c.maxSteer).toBeCloseTo(0.8, 12);
  });

  it('drives straight: heading change ≤ 3° over 5 s', () => {
    const d = drive();
    const y0 = d.yaw(), p0 = d.pos();
    d.w.setDrive(0.5, 0);
    run(d.w, 240 * 5);
    expect(d.w.fault).toBeNull();
    expect(Math.abs(wrap(d.yaw() - y0)) * 180 / Math.PI).toBeLessThanOrEqual(3);
    expect(d.pos()[0] - p0[0]).toBeGreaterThan(2);
  });

  it('turns in place: yaws > 90° in 3 s while its centre moves < 10 cm', () => {
    const d = drive();
    const y0 = d.yaw(), p0 = d.pos();
    d.w.setDrive(0, 1);
    let turned = 0, last = y0;
    for (let k = 0; k < 240 * 3; k++) {
      d.w.step(1);
      turned += wrap(d.yaw() - last);
      last = d.yaw();
    }
    expect(d.w.fault).toBeNull();
    expect(turned * 180 / Math.PI).toBeGreaterThan(90);
    expect(Math.hypot(d.pos()[0] - p0[0], d.pos()[1] - p0[1])).toBeLessThan(0.1);
  });

  it('turns about a point beside it when driving and steering', () => {
    const d = drive();
    const y0 = d.yaw();
    d.w.setDrive(0.5, 0.5);
    run(d.w, 240 * 3);
    expect(d.w.fault).toBeNull();
    expect(wrap(d.yaw() - y0)).toBeGreaterThan(0.5); // left turn
  });

  it('crabs: moves sideways to the left, heading kept within 5°', () => {
    const d = drive({ controller: { type: 'all-wheel-steer', mode: 'crab' } });
    const y0 = d.yaw(), p0 = d.pos();
    d.w.setDrive(0.5, 1);
    run(d.w, 240 * 4);
    expect(d.w.fault).toBeNull();
    expect(Math.abs(wrap(d.yaw() - y0)) * 180 / Math.PI).toBeLessThan(5);
    expect(d.pos()[1] - p0[1]).toBeGreaterThan(0.3);
  });

  it('holds a joint where the scenario says: the front-left corner at 0.3 rad under a skid-steer drive', () => {
    const d = drive({ controller: { type: 'skid-steer' }, hold: { front_wheel_joint_L: 0.3 } });
    run(d.w, 240);
    const j = d.w.joints.defs.findIndex((x) => x.name === 'front_wheel_joint_L');
    expect(d.w.joints.position[j]).toBeCloseTo(0.3, 2);
    // the other corners keep their transmissions' position 0
    const k = d.w.joints.defs.findIndex((x) => x.name === 'rear_wheel_joint_R');
    expect(Math.abs(d.w.joints.position[k])).toBeLessThan(0.01);
  });

  it('without position interfaces the corners of a skid-steer drive go limp and it veers (what the servos fix)', () => {
    const held = drive({ controller: { type: 'skid-steer' } });
    const limp = drive({ controller: { type: 'skid-steer' } }, false);
    const dev: number[] = [];
    for (const d of [held, limp]) {
      const y0 = d.yaw();
      d.w.setDrive(0.5, 0);
      run(d.w, 240 * 5);
      dev.push(Math.abs(wrap(d.yaw() - y0)) * 180 / Math.PI);
      const corners = d.w.joints.defs.map((x, i) => (/_wheel_joint_[LR]$/.test(x.name) ? Math.abs(d.w.joints.position[i]) : 0));
      dev.push(Math.max(...corners));
    }
    expect(dev[0]).toBeLessThanOrEqual(3);
    expect(dev[1]).toBeLessThan(0.02);
    expect(dev[3]).toBeGreaterThan(0.05);
  });

  it('refuses a hold on an unknown joint, a driven joint, or beyond the limits, naming it', () => {
    expect(() => loadUrdfRobot(sixWheelRover(), { hold: { mast: 0.1 } })).toThrow(/controller\.hold\.mast: robot "osr-like" has no joint "mast"; its movable joints are/);
    expect(() => loadUrdfRobot(sixWheelRover(), { hold: { front_wheel_joint_L: 0.1 } })).toThrow(/commanded by the drive controller \(all-wheel-steer\)/);
    expect(() => loadUrdfRobot(sixWheelRover(), { controller: { type: 'skid-steer' }, hold: { front_wheel_joint_L: 2 } })).toThrow(/outside the joint's limits \[-0\.8, 0\.8\]/);
  });
});
