/**
 * A test scenario with a joint no drive controller owns: the bundled differential-drive robot with
 * one more joint, a turntable on the chassis declared with a ros2_control velocity interface (so it
 * has a motor of its own), on the ramp terrain, without a script. Written into `dir`; returns the
 * scenario's path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ASSETS = resolve(__dirname, '../../../assets');

/** The turntable's joint name. */
export const TURNTABLE_JOINT = 'turntable_joint';

export function writeTurntableScenario(dir: string): string {
  const urdf = readFileSync(join(ASSETS, 'robots/diff-drive-caster.urdf'), 'utf8').replace(
    '</robot>',
    `  <link name="turntable">
    <inertial><mass value="0.5"/><inertia ixx="0.002" iyy="0.002" izz="0.004" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="${TURNTABLE_JOINT}" type="continuous">
    <parent link="base_link"/><child link="turntable"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit effort="5" velocity="4"/>
  </joint>
  <ros2_control name="table" type="system">
    <joint name="${TURNTABLE_JOINT}"><command_interface name="velocity"/><state_interface name="position"/></joint>
  </ros2_control>
</robot>`,
  );
  writeFileSync(join(dir, 'robot.urdf'), urdf);
  const scenario = JSON.parse(readFileSync(join(ASSETS, 'scenarios/robot-diff-drive-caster.json'), 'utf8')) as Record<string, unknown>;
  scenario.terrain = join(ASSETS, 'terrains/ramp.json');
  (scenario.robot as Record<string, unknown>).urdf = 'robot.urdf';
  delete scenario.script;
  const path = join(dir, 'scenario.json');
  writeFileSync(path, JSON.stringify(scenario));
  return path;
}
