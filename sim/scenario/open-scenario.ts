/**
 * A scenario's files → a world, in one call. `worldFromScenarioFiles` builds the world of files
 * already gathered (the same path the app's service takes: the same terrain decoder, URDF loader
 * and world builder, so the same files give the same world, bit for bit); `openScenarioWith`
 * gathers them first through an injected file system. Node scripts use `openScenario`
 * (sim/node/open-scenario.ts), which passes the disk.
 */
import { PlainWorld } from '../dynamics/plain-world';
import { Heightfield } from '../terrain/heightfield';
import { decodeTerrain, type TerrainLoadOptions } from '../terrain/load-terrain';
import { buildScenarioWorld } from './build-world';
import { gatherScenarioFiles, type ScenarioFiles, type ScenarioFileSystem } from './scenario-files';
import { loadScenarioUrdfRobot } from './scenario-robot';
import { parseScenarioFile } from './scenario-v2';

/** Options of `openScenario`/`openScenarioWith`/`worldFromScenarioFiles`. */
export interface OpenScenarioOptions {
  /** Progress and cancellation of the terrain decode (big maps take seconds). */
  terrain?: TerrainLoadOptions;
}

/** The world of gathered scenario files (throws ScenarioError / TerrainError / UrdfError naming what is wrong). */
export function worldFromScenarioFiles(files: ScenarioFiles, options: OpenScenarioOptions = {}): PlainWorld {
  const parsed = parseScenarioFile(files.scenario);
  let terrain: Heightfield;
  if ('inline' in parsed.terrain) {
    const t = parsed.terrain.inline;
    terrain = Heightfield.fromArray({ cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0 ?? 0, y0: t.y0 ?? 0, heights: Float64Array.from(t.heights) });
  } else {
    terrain = decodeTerrain(files.terrainSidecar, files.terrainData, options.terrain);
  }
  const robot = parsed.robot !== undefined && 'urdf' in parsed.robot ? loadScenarioUrdfRobot(parsed, files, terrain) : undefined;
  return new PlainWorld(buildScenarioWorld(parsed, terrain, robot).engine);
}

/** Reads the scenario at `path` and everything it names through `fs`, and builds its world. */
export function openScenarioWith(path: string, fs: ScenarioFileSystem, options: OpenScenarioOptions = {}): PlainWorld {
  return worldFromScenarioFiles(gatherScenarioFiles(path, fs), options);
}
