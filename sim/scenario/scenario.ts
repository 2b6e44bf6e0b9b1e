/**
 * The scenario entry points the kinematic world and its callers use (sim/app/service.ts,
 * sim/node/cli.ts, the renderer), kept stable while the dynamics world replaces it:
 *
 *   parseScenario(raw)   a v1 or v2 file → the v1 `Scenario` (terrain file, skid-steer robot,
 *                        start, dt, script). A v2 file that needs the dynamics world (inline
 *                        terrain, URDF robot) is refused with a message saying so; its bodies,
 *                        joints and materials are validated and then not used here.
 *   resolveRelative      file references relative to the scenario file.
 *
 * The full v2 result is parseScenarioFile in sim/scenario/scenario-v2.ts.
 */
import { DEFAULT_ROBOT } from '../robot/skid-steer';
import { checkScenarioSize, excerpt, ScenarioError } from './scenario-guard';
import { parseScenarioFile } from './scenario-v2';
import { parseScenarioV1, type Scenario } from './scenario-v1';

export { ScenarioError };
export type { Scenario, ScriptCommand } from './scenario-v1';

/** Validates a scenario file (version 1 or 2) for the kinematic world. Throws ScenarioError. */
export function parseScenario(raw: unknown): Scenario {
  checkScenarioSize(raw);
  if (typeof raw === 'object' && raw !== null && (raw as { version?: unknown }).version === 1) return parseScenarioV1(raw);
  const p = parseScenarioFile(raw);
  if (!('file' in p.terrain)) throw new ScenarioError('scenario: an inline "terrain" needs the dynamics world (createWorld); this loader reads a terrain file');
  const robot = p.robot;
  if (robot !== undefined && !('builtin' in robot)) {
    throw new ScenarioError(`scenario: the URDF robot ${excerpt(robot.urdf, 80)} needs the dynamics world; this loader drives the built-in skid-steer rover`);
  }
  const spec = robot
    ? {
        name: robot.name,
        chassisHalfExtents: [...robot.chassisHalfExtents] as [number, number, number],
        wheelRadius: robot.wheelRadius,
        wheelWidth: robot.wheelWidth,
        wheelbase: robot.wheelbase,
        track: robot.track,
        wheelDrop: robot.wheelDrop,
        maxSpeed: robot.maxSpeed,
        maxYawRate: robot.maxYawRate,
        maxAccel: robot.maxAccel,
        maxYawAccel: robot.maxYawAccel,
      }
    : { ...DEFAULT_ROBOT, chassisHalfExtents: [...DEFAULT_ROBOT.chassisHalfExtents] as [number, number, number] };
  return {
    name: p.name,
    terrain: p.terrain.file,
    robot: spec,
    start: { position: [p.start.position[0], p.start.position[1]], yaw: p.start.yaw },
    dt: p.world.dt,
    script: p.script.map((c) => ({ t: c.t, throttle: c.throttle, steer: c.steer })),
  };
}

/** Resolves `rel` against the directory of `base` (both POSIX-style, forward slashes). */
export function resolveRelative(base: string, rel: string): string {
  if (rel.startsWith('/')) return rel;
  const parts = base.split('/');
  parts.pop();
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0 || parts[parts.length - 1] === '..') parts.push('..');
      else parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}
