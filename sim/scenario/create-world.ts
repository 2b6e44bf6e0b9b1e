/**
 * createWorld(scenario): the scripting entry (docs/library.md, "Dynamics API"). The scenario is the object
 * a scenario file holds (format v2, or v1); its terrain is inline
 * ({ cols, rows, dx, dy, x0, y0, heights }) or, for a file path, given as `options.terrain`.
 * To read a scenario file with its terrain, URDF and meshes from disk in Node, use openScenario
 * (sim/node/open-scenario.ts).
 */
import { PlainWorld } from '../dynamics/plain-world';
import { Heightfield } from '../terrain/heightfield';
import { buildScenarioWorld } from './build-world';
import { ScenarioError } from './scenario-guard';
import { loadScenarioUrdfRobot } from './scenario-robot';
import { parseScenarioFile } from './scenario-v2';

/**
 * What `createWorld` cannot read from the scenario object itself: a terrain or URDF robot the
 * scenario names as files.
 */
export interface CreateWorldOptions {
  /** The terrain, when the scenario names a file instead of inline heights. */
  terrain?: Heightfield;
  /** URDF text and meshes (by the path the URDF gives) when the scenario's robot is a URDF. */
  robotUrdf?: string;
  robotMeshes?: Record<string, Uint8Array>;
  /**
   * The robot's controller files (ros_control YAML text by path): their position controllers hold
   * joints unless the scenario's `robot.controllerConfig` is false (docs/robots.md, "Controller files").
   */
  robotControllers?: Record<string, string>;
}

/**
 * Builds a world from a scenario object (a parsed v1 or v2 scenario file) for scripts. Throws a
 * `ScenarioError` naming the field when the scenario is invalid.
 */
export function createWorld(scenario: unknown, options: CreateWorldOptions = {}): PlainWorld {
  const parsed = parseScenarioFile(scenario);
  let terrain: Heightfield;
  if ('inline' in parsed.terrain) {
    const t = parsed.terrain.inline;
    terrain = Heightfield.fromArray({ cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0 ?? 0, y0: t.y0 ?? 0, heights: Float64Array.from(t.heights) });
  } else if (options.terrain instanceof Heightfield) {
    terrain = options.terrain;
  } else {
    throw new ScenarioError(`createWorld: the scenario's terrain is the file ${JSON.stringify(parsed.terrain.file.slice(0, 200))}: load it (loadTerrain) and pass it as options.terrain, or give inline heights`);
  }
  const robot = parsed.robot !== undefined && 'urdf' in parsed.robot
    ? loadScenarioUrdfRobot(parsed, { robotUrdf: options.robotUrdf, robotMeshes: options.robotMeshes, robotControllers: options.robotControllers }, terrain)
    : undefined;
  return new PlainWorld(buildScenarioWorld(parsed, terrain, robot).engine);
}
