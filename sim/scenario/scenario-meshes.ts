/**
 * The asynchronous step between gathering a scenario's files and building its world: the URDF
 * robot's concave collision meshes split into convex parts (sim/robot/mesh/convex-parts.ts), and
 * the volume report of every collision mesh. Runs where the world is built (the simulation worker
 * in the app, the CLI's thread in Node), never on the renderer's thread.
 *
 * The files come back with `robotConvexParts` (which loadScenarioUrdfRobot hands to the URDF
 * loader) and `robotMeshReport` (one line per collision mesh). Files that already carry parts,
 * or that have no URDF robot, come back as they are.
 */
import { convexPartsForUrdf, formatVolumeReport, type ConvexPartsCache, type MeshDecomposer } from '../robot/mesh/convex-parts';
import { parseUrdf } from '../robot/urdf/parse-urdf';
import type { ScenarioFiles } from './scenario-files';
import { parseScenarioFile } from './scenario-v2';

/**
 * `files` with the robot's convex parts and mesh volume report (a new object; `files` untouched).
 * `decompose`: where V-HACD runs (the desktop app's main process); default this thread.
 */
export async function prepareScenarioMeshes(files: ScenarioFiles, cache: ConvexPartsCache | null, decompose?: MeshDecomposer): Promise<ScenarioFiles> {
  // Malformed files are buildWorld's to refuse, with its own message.
  if (files === null || typeof files !== 'object' || files.robotConvexParts !== undefined || typeof files.robotUrdf !== 'string') return files;
  const meshes = files.robotMeshes ?? {};
  if (typeof meshes !== 'object' || Object.keys(meshes).length === 0) return files;
  const entry = parseScenarioFile(files.scenario).robot;
  if (entry === undefined || !('urdf' in entry)) return files;
  // The same lookup as loadScenarioUrdfRobot: by resolved path, else by base name.
  const lookup = (path: string) => meshes[path] ?? meshes[path.split('/').pop() ?? path];
  const { parts, report } = await convexPartsForUrdf(parseUrdf(files.robotUrdf), entry.urdf, lookup, cache, undefined, decompose);
  return { ...files, robotConvexParts: parts, robotMeshReport: report.map(formatVolumeReport) };
}
