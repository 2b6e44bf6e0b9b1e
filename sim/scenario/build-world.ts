/**
 * A parsed scenario and its terrain built into a DynamicsWorld: the start is checked against the
 * terrain, the scenario becomes a WorldSpec (scenarioWorldSpec), and the world is built with the
 * robot layer's drive controllers. Shared by createWorld (scripts) and the app's SimWorld.
 */
import { createDynamicsWorld } from '../dynamics/build';
import type { RobotSpec, WorldSpec } from '../dynamics/spec';
import type { DynamicsWorld } from '../dynamics/world';
import { robotDriveController } from '../robot/controllers/world-drive';
import type { Heightfield } from '../terrain/heightfield';
import { ScenarioError } from './scenario-guard';
import { scenarioWorldSpec, type ParsedScenario } from './scenario-v2';

/**
 * Builds the world of a parsed scenario on a terrain (a URDF robot, if the scenario names one,
 * loaded and placed by the caller). Throws ScenarioError naming what is wrong; a start outside
 * the terrain is refused.
 */
export function buildScenarioWorld(parsed: ParsedScenario, terrain: Heightfield, urdfRobot?: RobotSpec): { spec: WorldSpec; engine: DynamicsWorld } {
  const [x, y] = parsed.start.position;
  if (!terrain.contains(x, y)) {
    throw new ScenarioError(
      `scenario: start position (${x}, ${y}) is outside the terrain, which spans x ${terrain.x0}..${terrain.x0 + terrain.cellsX * terrain.dx} m, y ${terrain.y0}..${terrain.y0 + terrain.cellsY * terrain.dy} m`,
    );
  }
  const heightAt = (px: number, py: number) => terrain.heightAt(px, py);
  const spec = scenarioWorldSpec(parsed, { heightAt, urdfRobot });
  try {
    return { spec, engine: createDynamicsWorld(spec, terrain, robotDriveController) };
  } catch (e) {
    throw new ScenarioError(`scenario: ${(e as Error).message}`);
  }
}
