import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../sim/scenario/scenario';
import { parseScenarioFile, scenarioWorldSpec, type SkidSteerRobotEntry } from '../../../sim/scenario/scenario-v2';
import { DEFAULT_ROBOT, parseRobotSpec } from '../../../sim/robot/skid-steer';
import { scenarioError } from './helpers';

const v1Robot = { name: 'buggy', chassisHalfExtents: [0.4, 0.25, 0.1], wheelRadius: 0.2, wheelWidth: 0.12, wheelbase: 0.6, track: 0.66, wheelDrop: 0.05, maxSpeed: 3 };

const v1File = {
  format: 'terrawheel-scenario',
  version: 1,
  name: 'Old file',
  terrain: '../terrains/hills.json',
  robot: v1Robot,
  start: { position: [2, -3], yaw: 0.7 },
  dt: 0.01,
  script: [{ t: 0, throttle: 0.5, steer: 0 }, { t: 1.5, throttle: 0.5, steer: -0.2 }],
};

/** The same scene written as v2. */
const v2File = {
  format: 'terrawheel-scenario',
  version: 2,
  name: 'Old file',
  terrain: '../terrains/hills.json',
  dt: 0.01,
  robot: { type: 'skid-steer', ...v1Robot, position: [2, -3], yaw: 0.7 },
  script: [{ t: 0, throttle: 0.5, steer: 0 }, { t: 1.5, throttle: 0.5, steer: -0.2 }],
};

describe('version-1 scenario files still load', () => {
  it('convert to the v2 result: terrain file, skid-steer robot with the v1 fields, start, dt, script, default world', () => {
    const p = parseScenarioFile(v1File);
    expect(p.version).toBe(1);
    expect(p.name).toBe('Old file');
    expect(p.terrain).toEqual({ file: '../terrains/hills.json' });
    const robot = p.robot as SkidSteerRobotEntry;
    expect(robot.builtin).toBe('skid-steer');
    const { builtin, position, yaw, chassisMass, wheelMass, maxTorque, chassisMaterial, wheelMaterial, ...fields } = robot;
    expect(fields).toEqual(parseRobotSpec(v1Robot));
    expect([builtin, position, yaw]).toEqual(['skid-steer', [2, -3], 0.7]);
    expect([chassisMass, wheelMass, maxTorque, chassisMaterial, wheelMaterial]).toEqual([40, 2, 20, 'default', 'default']);
    expect(p.start).toEqual({ position: [2, -3], yaw: 0.7 });
    expect(p.world.dt).toBe(0.01);
    expect(p.script).toEqual(v1File.script);
    expect(p.world.script).toBe(p.script);
    expect(p.world.materials).toEqual({ default: { friction: 0.8, restitution: 0, rollingResistance: 0 } });
    expect(p.world.bodies).toEqual([]);
    expect(p.world.substeps).toBe(4);
  });

  it('give the same robot as the same scene written as v2 (entry, built robot, kinematic Scenario)', () => {
    const a = parseScenarioFile(v1File);
    const b = parseScenarioFile(v2File);
    expect(a.robot).toEqual(b.robot);
    expect(a.start).toEqual(b.start);
    const heightAt = (x: number, y: number) => 0.1 * x - 0.05 * y;
    expect(scenarioWorldSpec(a, { heightAt }).robot).toEqual(scenarioWorldSpec(b, { heightAt }).robot);
    expect(parseScenario(v1File)).toEqual(parseScenario(v2File));
  });

  it('a v1 file without robot, dt and script gets the default rover, dt 0.005 s and no script', () => {
    const p = parseScenarioFile({ format: 'terrawheel-scenario', version: 1, terrain: 't.json' });
    const { builtin, position, yaw, chassisMass, wheelMass, maxTorque, chassisMaterial, wheelMaterial, ...fields } = p.robot as SkidSteerRobotEntry;
    void [builtin, chassisMass, wheelMass, maxTorque, chassisMaterial, wheelMaterial];
    expect(fields).toEqual(DEFAULT_ROBOT);
    expect([position, yaw]).toEqual([[0, 0], 0]);
    expect(p.world.dt).toBe(0.005);
    expect(p.script).toEqual([]);
    expect(p.name).toBe('Untitled');
  });

  it.each([
    [{ ...v1File, dt: 1 }, '"dt" must be between'],
    [{ ...v1File, robot: { wheelRadius: 'big' } }, '"robot.wheelRadius" must be a number in (0, 10], got "big"'],
    [{ ...v1File, script: [{ t: 2 }, { t: 1 }] }, 'sorted by t'],
    [{ ...v1File, start: { position: [1, 2, 3], yaw: 0 } }, 'start.position'],
  ])('v1 errors stay ScenarioErrors with their v1 messages %#', (raw, msg) => {
    expect(scenarioError(() => parseScenarioFile(raw))).toContain(msg);
    expect(scenarioError(() => parseScenario(raw))).toContain(msg);
  });

  it('the kinematic loader refuses what only the dynamics world can run, with a reason', () => {
    const inline = { ...v2File, terrain: { cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0, 0] } };
    expect(scenarioError(() => parseScenario(inline))).toContain('inline "terrain" needs the dynamics world');
    expect(parseScenarioFile(inline).terrain).toHaveProperty('inline');
    const urdf = { ...v2File, robot: { urdf: '../robots/six.urdf', position: [0, 0] } };
    expect(scenarioError(() => parseScenario(urdf))).toContain('URDF robot "../robots/six.urdf" needs the dynamics world');
    expect(scenarioError(() => scenarioWorldSpec(parseScenarioFile(urdf)))).toContain('must be loaded by the caller');
    const noRobot = { ...v2File, robot: undefined };
    expect(parseScenario(noRobot).robot).toEqual(DEFAULT_ROBOT);
  });
});
