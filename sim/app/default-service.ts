/**
 * The production wiring of the simulation service: the terrain loaders and the URDF robot
 * loader. Shared by the web worker, the Node worker and the CLI.
 */
import { loadScenarioUrdfRobot, loadScenarioUrdfRobotWithVisuals } from '../scenario/scenario-robot';
import { resolveMeshPath } from '../robot/urdf/resolve-mesh-path';
import { SimServiceImpl, type SimServiceDeps } from './service';
import { decodeTerrain } from '../terrain/load-terrain';
import { parseTerrainSidecar } from '../terrain/sidecar';

// The scenario's URDF robot from gathered files (sim/scenario/scenario-robot.ts); re-exported for callers of the service.
export { loadScenarioUrdfRobot, loadScenarioUrdfRobotWithVisuals };

export { resolveMeshPath };

/** `extra`: more dependencies (the CLI's recording encoder thread). */
export function createDefaultService(extra: Partial<SimServiceDeps> = {}): SimServiceImpl {
  return new SimServiceImpl({ decodeTerrain, loadUrdfRobot: loadScenarioUrdfRobotWithVisuals, ...extra });
}

/** File name of the terrain data a sidecar names (validates the sidecar). */
export function terrainDataFileName(sidecar: unknown): string {
  return parseTerrainSidecar(sidecar).image;
}
