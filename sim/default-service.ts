/**
 * The production wiring of the simulation service: the terrain loaders and the URDF robot
 * loader. Shared by the web worker, the Node worker and the CLI.
 */
import { loadUrdfRobot } from './robot/urdf/load-urdf';
import { parseSrdfDisabledPairs } from './robot/urdf/srdf';
import { resolveMeshPath } from './robot/urdf/resolve-mesh-path';
import type { ScenarioFiles } from './protocol';
import type { ParsedScenario } from './scenario-v2';
import { ScenarioError } from './scenario-guard';
import { SimServiceImpl, type SimServiceDeps } from './service';
import { decodeTerrain } from './terrain/load-terrain';
import { parseTerrainSidecar } from './terrain/sidecar';
import type { Heightfield } from './terrain/heightfield';
import type { RobotSpec } from './dynamics/spec';
import { placeOnTerrain } from './robot/place-robot';
import type { VisualSpec } from './robot/urdf/urdf-to-robot';

/**
 * The URDF robot a scenario names, from the files the caller gathered (`robotUrdf`, and
 * `robotMeshes` by the path the URDF gives), placed at the scenario's start just above the terrain.
 */
export function loadScenarioUrdfRobot(parsed: ParsedScenario, files: ScenarioFiles, terrain: Heightfield): RobotSpec {
  return loadScenarioUrdfRobotWithVisuals(parsed, files, terrain).robot;
}

/** loadScenarioUrdfRobot, with the URDF's visuals (body frames: placement moves bodies, not visuals). */
export function loadScenarioUrdfRobotWithVisuals(parsed: ParsedScenario, files: ScenarioFiles, terrain: Heightfield): { robot: RobotSpec; visuals: VisualSpec[] } {
  const entry = parsed.robot;
  if (entry === undefined || !('urdf' in entry)) throw new ScenarioError('scenario: no URDF robot');
  if (typeof files.robotUrdf !== 'string') throw new ScenarioError(`scenario: the robot ${entry.urdf} was not supplied (ScenarioFiles.robotUrdf)`);
  const meshes = files.robotMeshes ?? {};
  const loaded = loadUrdfRobot(files.robotUrdf, {
    position: [entry.position[0], entry.position[1], 0],
    yaw: entry.yaw,
    urdfPath: entry.urdf,
    meshes: (path) => meshes[path] ?? meshes[path.split('/').pop() ?? path],
    controller: entry.controller ?? 'infer',
    ...(entry.lumpFixedLinks !== undefined ? { lumpFixedLinks: entry.lumpFixedLinks } : {}),
    ...(entry.motorTorque !== undefined ? { motorTorque: entry.motorTorque } : {}),
    ...(entry.selfCollide !== undefined ? { selfCollide: entry.selfCollide } : {}),
    ...(entry.disableCollisions !== undefined || files.robotSrdf !== undefined
      ? { disableCollisions: [...(entry.disableCollisions ?? []), ...(files.robotSrdf !== undefined ? parseSrdfDisabledPairs(files.robotSrdf, 'the robot\'s SRDF') : [])] }
      : {}),
  });
  return { robot: placeOnTerrain(loaded.robot, terrain), visuals: loaded.visuals };
}

export { resolveMeshPath };

/** `extra`: more dependencies (the CLI's recording encoder thread). */
export function createDefaultService(extra: Partial<SimServiceDeps> = {}): SimServiceImpl {
  return new SimServiceImpl({ decodeTerrain, loadUrdfRobot: loadScenarioUrdfRobotWithVisuals, ...extra });
}

/** File name of the terrain data a sidecar names (validates the sidecar). */
export function terrainDataFileName(sidecar: unknown): string {
  return parseTerrainSidecar(sidecar).image;
}
