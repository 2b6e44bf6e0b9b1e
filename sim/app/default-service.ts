/**
 * The production wiring of the simulation service: the terrain loaders and the URDF robot
 * loader. Shared by the web worker, the Node worker and the CLI.
 */
import { loadScenarioUrdfRobot, loadScenarioUrdfRobotWithVisuals } from '../scenario/scenario-robot';
import { resolveMeshPath } from '../robot/urdf/resolve-mesh-path';
import { SimServiceImpl, type SimServiceDeps } from './service';
import { decodeTerrain } from '../terrain/load-terrain';
import { parseTerrainSidecar } from '../terrain/sidecar';
import { prepareScenarioMeshes } from '../scenario/scenario-meshes';
import { memoryConvexPartsCache } from '../robot/mesh/convex-parts';

// The scenario's URDF robot from gathered files (sim/scenario/scenario-robot.ts); re-exported for callers of the service.
export { loadScenarioUrdfRobot, loadScenarioUrdfRobotWithVisuals };

export { resolveMeshPath };

/**
 * Convex parts of concave collision meshes, kept for the life of this thread (the app's worker):
 * reopening a robot does not decompose its meshes again. Node's CLI passes a disk cache instead.
 */
const threadConvexPartsCache = memoryConvexPartsCache();

/**
 * `extra`: more dependencies (the CLI's recording encoder thread, its disk cache of convex parts).
 * By default the robot's concave collision meshes are split in the service's thread
 * (prepareScenarioMeshes) through this thread's memory cache; V-HACD runs in this thread unless
 * the caller set a decomposer (SimService.setMeshDecomposer: the desktop app's main process).
 */
export function createDefaultService(extra: Partial<SimServiceDeps> = {}): SimServiceImpl {
  return new SimServiceImpl({
    decodeTerrain,
    loadUrdfRobot: loadScenarioUrdfRobotWithVisuals,
    prepareFiles: (files, ctx) => prepareScenarioMeshes(files, threadConvexPartsCache, ctx.decompose),
    ...extra,
  });
}

/** File name of the terrain data a sidecar names (validates the sidecar). */
export function terrainDataFileName(sidecar: unknown): string {
  return parseTerrainSidecar(sidecar).image;
}
