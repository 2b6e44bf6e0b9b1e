/**
 * URDF command interfaces (<transmission> of ROS 1, <ros2_control> of ROS 2) and <mimic>, as
 * parse-urdf reads them and urdfToRobot turns them into servos and motors: formats as real files
 * write them (the JPL OSR's bare "PositionJointInterface" in the joint, the older
 * "hardware_interface/..." in the actuator only, ros2_control's command_interface and
 * initial_value).
 */
import { describe, expect, it } from 'vitest';
import { parseUrdf } from '../../../sim/robot/urdf/parse-urdf';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { SERVO_DEFAULT_EFFORT } from '../../../sim/robot/urdf/urdf-to-robot';
import { UrdfError } from '../../../sim/robot/urdf/urdf-error';

const I = '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>';
const robot = (extra: string, jointExtra = '') => `<robot name="r">
  <link name="base">${I}<collision><geometry><box size="0.4 0.3 0.1"/></geometry></collision></link>
  <link name="arm">${I}</link><link name="slide">${I}</link><link name="free">${I}</link>
  <joint name="arm_joint" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="30" velocity="2"/></joint>
  <joint name="slide_joint" type="prismatic"><parent link="base"/><child link="slide"/><axis xyz="0 0 1"/><limit lower="-0.1" upper="0.1" effort="0" velocity="0"/>${jointExtra}</joint>
  <joint name="free_joint" type="continuous"><parent link="base"/><child link="free"/><axis xyz="0 1 0"/></joint>
  ${extra}
</robot>`;

describe('command interfaces', () => {
  it('ROS 1 <transmission>: the joint\'s hardwareInterface, bare or namespaced; the actuator\'s when the joint has none', () => {
    const m = parseUrdf(robot(`
      <transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
        <joint name="arm_joint"><hardwareInterface>PositionJointInterface</hardwareInterface></joint>
        <actuator name="m1"><hardwareInterface>PositionJointInterface</hardwareInterface><mechanicalReduction>1</mechanicalReduction></actuator></transmission>
      <transmission name="t2"><type>transmission_interface/SimpleTransmission</type>
        <joint name="free_joint"/>
        <actuator name="m2"><hardwareInterface>hardware_interface/VelocityJointInterface</hardwareInterface></actuator></transmission>
      <transmission name="t3"><joint name="slide_joint"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint></transmission>`));
    expect(m.interfaces.arm_joint).toEqual({ interface: 'position', from: 'transmission' });
    expect(m.interfaces.free_joint).toEqual({ interface: 'velocity', from: 'transmission' });
    expect(m.interfaces.slide_joint).toEqual({ interface: 'effort', from: 'transmission' });
  });

  it('ROS 2 <ros2_control>: position wins over velocity; initial_value is the start target', () => {
    const m = parseUrdf(robot(`
      <ros2_control name="GazeboSystem" type="system"><hardware><plugin>gz_ros2_control/GazeboSimSystem</plugin></hardware>
        <joint name="arm_joint"><command_interface name="velocity"/><command_interface name="position"><param name="min">-1</param></command_interface>
          <state_interface name="position"><param name="initial_value">0.25</param></state_interface><state_interface name="velocity"/></joint>
        <joint name="free_joint"><command_interface name="velocity"/><state_interface name="position"/></joint>
        <joint name="ghost"><command_interface name="position"/></joint>
      </ros2_control>`));
    expect(m.interfaces.arm_joint).toEqual({ interface: 'position', from: 'ros2_control', initialPosition: 0.25 });
    expect(m.interfaces.free_joint).toEqual({ interface: 'velocity', from: 'ros2_control' });
    expect(m.warnings.some((w) => /<ros2_control> names joint "ghost", which the robot does not have/.test(w))).toBe(true);
    expect(() => parseUrdf(robot(`<ros2_control name="s"><joint name="arm_joint"><command_interface name="position"/>
      <state_interface name="position"><param name="initial_value">zero</param></state_interface></joint></ros2_control>`))).toThrow(/initial_value.*"?zero"? is not a finite decimal number|zero<\/param> is not a finite/);
  });

  it('a position interface becomes a servo (effort and velocity from <limit>), a velocity interface a motor at rest, effort stays free', () => {
    const r = loadUrdfRobot(robot(`
      <ros2_control name="s"><joint name="arm_joint"><command_interface name="position"/><state_interface name="position"><param name="initial_value">0.25</param></state_interface></joint>
        <joint name="slide_joint"><command_interface name="position"/></joint>
        <joint name="free_joint"><command_interface name="effort"/></joint></ros2_control>`), { controller: 'none' });
    expect(r.robot.servos).toEqual([{ joint: 'arm_joint', target: 0.25, maxVelocity: 2 }, { joint: 'slide_joint', target: 0 }]);
    const j = (n: string) => r.robot.joints.find((x) => x.name === n)!;
    expect(j('arm_joint').motor).toEqual({ targetVelocity: 0, maxTorque: 30 });
    expect(j('slide_joint').motor).toEqual({ targetVelocity: 0, maxTorque: SERVO_DEFAULT_EFFORT });
    expect(j('free_joint').motor).toBeUndefined();
    const v = loadUrdfRobot(robot('<transmission name="t"><joint name="free_joint"><hardwareInterface>VelocityJointInterface</hardwareInterface></joint></transmission>'), { controller: 'none' });
    expect(v.robot.servos).toBeUndefined();
    expect(v.robot.joints.find((x) => x.name === 'free_joint')!.motor).toEqual({ targetVelocity: 0, maxTorque: SERVO_DEFAULT_EFFORT });
  });

  it('<mimic joint multiplier offset> is read; a missing or self-named leader is an error naming the joint', () => {
    const m = parseUrdf(robot('', '<mimic joint="arm_joint" multiplier="-0.5" offset="0.01"/>'));
    expect(m.joints.find((j) => j.name === 'slide_joint')!.mimic).toEqual({ joint: 'arm_joint', multiplier: -0.5, offset: 0.01 });
    expect(() => parseUrdf(robot('', '<mimic joint="nope"/>'))).toThrow(UrdfError);
    expect(() => parseUrdf(robot('', '<mimic joint="nope"/>'))).toThrow(/joint "slide_joint": <mimic joint="nope"> names no joint of the robot/);
    expect(() => parseUrdf(robot('', '<mimic joint="slide_joint"/>'))).toThrow(/names the joint itself/);
    expect(() => parseUrdf(robot('', '<mimic multiplier="2"/>'))).toThrow(/<mimic> needs the attribute joint=/);
    // a fixed joint with <mimic> (the Leo's rockers when its xacro fixes them): a warning, not an error
    const fixed = parseUrdf(robot('<link name="f">' + I + '</link><joint name="fj" type="fixed"><parent link="base"/><child link="f"/><mimic joint="arm_joint"/></joint>'));
    expect(fixed.joints.find((j) => j.name === 'fj')!.mimic).toBeUndefined();
    expect(fixed.warnings.some((w) => /joint "fj": <mimic> on a fixed joint is ignored/.test(w))).toBe(true);
  });
});
