/**
 * ros_control / ros2_control controller YAML → the joints its position controllers hold
 * (sim/robot/urdf/ros-controllers.ts): both layouts, every holding type, the types that hold
 * nothing, and bad files as warnings naming the file and line.
 */
import { describe, expect, it } from 'vitest';
import { describeControllerHolds, holdsPosition, readControllerConfig } from '../../../sim/robot/urdf/ros-controllers';

const joints = (files: Record<string, string>) => readControllerConfig(files).holds.map((h) => h.joint);

describe('controller YAML: which joints are held', () => {
  it('ROS 1: controllers under a namespace key, one joint each; velocity controllers and state publishers hold nothing', () => {
    const yaml = [
      'rover:',
      '  joint_state_controller:',
      '    type: joint_state_controller/JointStateController',
      '    publish_rate: 50',
      '  wheel_velocity_controller:',
      '    type: effort_controllers/JointVelocityController',
      '    joint: wheel_joint',
      '  arm_position_controller:',
      '    type: effort_controllers/JointPositionController',
      '    joint: arm_joint',
      '    pid: {p: 500.0, i: 10.0, d: 10.0}',
      '  mast_position_controller:',
      '    type: position_controllers/JointPositionController',
      '    joint: mast_joint',
    ].join('\n');
    const r = readControllerConfig({ 'rover/config/control.yaml': yaml });
    expect(r.warnings).toEqual([]);
    expect(r.holds).toEqual([
      { joint: 'arm_joint', controller: 'arm_position_controller', type: 'effort_controllers/JointPositionController', file: 'rover/config/control.yaml' },
      { joint: 'mast_joint', controller: 'mast_position_controller', type: 'position_controllers/JointPositionController', file: 'rover/config/control.yaml' },
    ]);
  });

  it('ROS 2: types under controller_manager.ros__parameters, joints under <name>.ros__parameters (namespaced names too)', () => {
    const yaml = [
      '/**/controller_manager:',
      '  ros__parameters:',
      '    update_rate: 100',
      '    diff_drive_controller:',
      '      type: diff_drive_controller/DiffDriveController',
      '    arm_controller:',
      '      type: joint_trajectory_controller/JointTrajectoryController',
      '    gripper_controller:',
      '      type: position_controllers/JointGroupPositionController',
      '    head_controller:',
      '      type: forward_command_controller/ForwardCommandController',
      '    wheels_controller:',
      '      type: forward_command_controller/ForwardCommandController',
      'diff_drive_controller:',
      '  ros__parameters:',
      '    left_wheel_names: [left_wheel_joint]',
      '/rover/arm_controller:',
      '  ros__parameters:',
      '    joints: [shoulder, elbow]',
      '    command_interfaces: [velocity]',
      'gripper_controller:',
      '  ros__parameters:',
      '    joints:',
      '      - finger',
      'head_controller:',
      '  ros__parameters:',
      '    joints: [pan]',
      '    interface_name: position',
      'wheels_controller:',
      '  ros__parameters:',
      '    joints: [left_wheel_joint]',
      '    interface_name: velocity',
    ].join('\n');
    expect(joints({ 'c.yaml': yaml })).toEqual(['shoulder', 'elbow', 'finger', 'pan']);
  });

  it('the holding types, by name', () => {
    for (const t of ['effort_controllers/JointPositionController', 'position_controllers/JointPositionController', 'velocity_controllers/JointPositionController',
      'effort_controllers/JointGroupPositionController', 'position_controllers/JointGroupPositionController',
      'position_controllers/JointTrajectoryController', 'effort_controllers/JointTrajectoryController', 'joint_trajectory_controller/JointTrajectoryController']) {
      expect(holdsPosition(t, {}), t).toBe(true);
    }
    for (const t of ['effort_controllers/JointVelocityController', 'velocity_controllers/JointGroupVelocityController', 'diff_drive_controller/DiffDriveController',
      'joint_state_broadcaster/JointStateBroadcaster', 'effort_controllers/JointEffortController', 'my_pkg/MyJointPositionControllerX', 'forward_command_controller/ForwardCommandController']) {
      expect(holdsPosition(t, {}), t).toBe(false);
    }
    expect(holdsPosition('forward_command_controller/ForwardCommandController', { interface_name: 'position' })).toBe(true);
  });

  it('a joint named twice is held once (first file by path, first controller)', () => {
    const a = 'ns:\n  one:\n    type: effort_controllers/JointPositionController\n    joint: j\n';
    const b = 'ns:\n  two:\n    type: effort_controllers/JointGroupPositionController\n    joints: [j, k]\n';
    const r = readControllerConfig({ 'b.yaml': b, 'a.yaml': a });
    expect(r.holds.map((h) => `${h.file}:${h.controller}:${h.joint}`)).toEqual(['a.yaml:one:j', 'b.yaml:two:k']);
  });

  it('bad YAML is a warning naming the file and the line; the other files still count', () => {
    const bad = 'ns:\n  arm:\n    type: effort_controllers/JointPositionController\n    joint: [arm_joint\n  other: 1\n';
    const good = 'ns:\n  mast:\n    type: effort_controllers/JointPositionController\n    joint: mast_joint\n';
    const r = readControllerConfig({ 'pkg/config/bad.yaml': bad, 'pkg/config/good.yaml': good });
    expect(r.holds.map((h) => h.joint)).toEqual(['mast_joint']);
    expect(r.warnings).toEqual([expect.stringMatching(/^controller file pkg\/config\/bad\.yaml line 5 is not valid YAML \(.+\); its controllers are ignored$/)]);
  });

  it('an alias bomb is refused as a warning, not expanded', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let k = 1; k < 12; k++) lines.push(`${String.fromCharCode(97 + k)}: &${String.fromCharCode(97 + k)} [${Array(10).fill(`*${String.fromCharCode(96 + k)}`).join(', ')}]`);
    const r = readControllerConfig({ 'bomb.yaml': lines.join('\n') });
    expect(r.holds).toEqual([]);
    expect(r.warnings).toEqual([expect.stringMatching(/^controller file bomb\.yaml cannot be read/)]);
  });

  it('several documents in one file, unknown types, non-mappings: read, ignored, silent', () => {
    const yaml = '---\nns:\n  x:\n    type: some_pkg/SomethingElse\n    joint: a\n---\n- 1\n- 2\n---\nns:\n  y:\n    type: effort_controllers/JointPositionController\n    joint: b\n';
    const r = readControllerConfig({ 'm.yaml': yaml, 'empty.yaml': '', 'scalar.yaml': 'just text' });
    expect(r.warnings).toEqual([]);
    expect(r.holds.map((h) => h.joint)).toEqual(['b']);
  });

  it('a holding controller without joints is a warning', () => {
    const r = readControllerConfig({ 'c.yaml': 'ns:\n  arm:\n    type: effort_controllers/JointPositionController\n' });
    expect(r.holds).toEqual([]);
    expect(r.warnings).toEqual(['controller "arm" (effort_controllers/JointPositionController) in c.yaml names no joint; ignored']);
  });

  it('the info line lists the held joints by file', () => {
    expect(describeControllerHolds([])).toBeNull();
    const line = describeControllerHolds([
      { joint: 'a', controller: 'c', type: 't', file: 'p/config/x.yaml' },
      { joint: 'b', controller: 'c', type: 't', file: 'p/config/x.yaml' },
      { joint: 'c', controller: 'd', type: 't', file: 'p/config/y.yaml' },
    ]);
    expect(line).toBe('info: joints held at their start position by the robot\'s position controllers: "a", "b" (p/config/x.yaml); "c" (p/config/y.yaml); the scenario\'s "robot.controllerConfig": false leaves them free');
  });
});

describe('controller YAML: parameter blocks', () => {
  it('a ROS 2 parameter block that repeats its type is not a controller of its own; one the manager does not declare counts by its type', () => {
    const yaml = [
      'controller_manager:',
      '  ros__parameters:',
      '    steer_controller:',
      '      type: joint_trajectory_controller/JointTrajectoryController',
      '    drive_controller:',
      '      type: velocity_controllers/JointGroupVelocityController',
      'steer_controller:',
      '  ros__parameters:',
      '    type: joint_trajectory_controller/JointTrajectoryController',
      '    joints: [steer_left, steer_right]',
      'drive_controller:',
      '  ros__parameters:',
      '    type: velocity_controllers/JointGroupVelocityController',
      '    joints: [wheel_left, wheel_right]',
      'mast_controller:',
      '  ros__parameters:',
      '    type: position_controllers/JointGroupPositionController',
      '    joints: [mast]',
    ].join('\n');
    const r = readControllerConfig({ 'c.yaml': yaml });
    expect(r.warnings).toEqual([]);
    expect(r.holds.map((h) => `${h.controller}:${h.joint}`)).toEqual(['steer_controller:steer_left', 'steer_controller:steer_right', 'mast_controller:mast']);
  });
});
