/**
 * A xacro robot expanded where the world is built (the simulation worker, the CLI's thread): a
 * host may hand the service the robot's xacro text as `robotUrdf`, with the files its expansion
 * reads (`robotFiles`: includes, and meshes) by the paths the host has them under (a package
 * folder's relative paths, "husky_description/urdf/wheel.urdf.xacro"), and the service expands it
 * before anything else looks at the robot. One expansion implementation: picked-files.ts's
 * expandPickedRobot (expandXacro over files looked up by their longest unique path tail), as the
 * web app's file picker and Electron main use it.
 *
 *   files ──► robotUrdf is xacro? ──► expand (robot.xacroArgs; includes from robotFiles, then
 *         robotMeshes) ──► meshes the expanded URDF names, keyed by their resolved path (found by
 *         tail among robotFiles when the host did not key them so) ──► files with plain URDF
 *
 * The files that come back carry the expanded URDF and no `robotFiles` (what a recording hashes and
 * a replay needs, as gatherScenarioFilesAsync's files in Node); the expansion's notes (includes
 * skipped, approximations) are `robotXacroNotes`, which the loader adds to the robot's warnings.
 * Files without a xacro robot come back as they are.
 */
import { urdfReferencedFiles } from '../robot/urdf/load-urdf';
import { parseUrdf } from '../robot/urdf/parse-urdf';
import { expandPickedRobot, PickedFiles, type PickedFile } from '../robot/urdf/picked-files';
import { isXacro } from '../robot/urdf/xacro-detect';
import type { ScenarioFiles } from './scenario-files';
import { parseScenarioFile } from './scenario-v2';

/** Most entries of ScenarioFiles.robotFiles (includes and meshes of one robot). */
export const MAX_ROBOT_FILES = 4096;

/**
 * `files` with its xacro robot expanded (a new object; `files` untouched). Throws the expansion's
 * UrdfError (naming the file and a missing include) or an Error naming a malformed `robotFiles`.
 */
export async function expandScenarioXacro(files: ScenarioFiles): Promise<ScenarioFiles> {
  // Malformed files are buildWorld's to refuse, with its own message.
  if (files === null || typeof files !== 'object' || typeof files.robotUrdf !== 'string' || !isXacro(files.robotUrdf)) return files;
  const entry = parseScenarioFile(files.scenario).robot;
  if (entry === undefined || !('urdf' in entry)) return files;
  const picked: PickedFile[] = [];
  const add = (field: string, map: unknown): void => {
    if (map === undefined) return;
    if (map === null || typeof map !== 'object' || Array.isArray(map)) throw new Error(`load: ${field} must be an object of file bytes by path`);
    for (const [path, bytes] of Object.entries(map as Record<string, unknown>)) {
      if (!(bytes instanceof Uint8Array)) throw new Error(`load: ${field}["${path}"] must be the file's bytes (a Uint8Array)`);
      picked.push({ path, bytes });
    }
  };
  add('robotFiles', files.robotFiles);
  add('robotMeshes', files.robotMeshes);
  if (picked.length > MAX_ROBOT_FILES) throw new Error(`load: ${picked.length} robot files; at most ${MAX_ROBOT_FILES}`);
  const set = new PickedFiles(picked);
  const main: PickedFile = { path: entry.urdf, bytes: new TextEncoder().encode(files.robotUrdf) };
  const r = await expandPickedRobot(main, set, entry.xacroArgs, undefined, { missingHint: 'pass them in ScenarioFiles.robotFiles (by their path in the robot\'s package)' });
  const meshes: Record<string, Uint8Array> = { ...(files.robotMeshes ?? {}) };
  for (const ref of urdfReferencedFiles(parseUrdf(r.urdf), entry.urdf)) {
    if (Object.prototype.hasOwnProperty.call(meshes, ref.path)) continue;
    const f = set.find(ref.path);
    if (f) meshes[ref.path] = f.bytes;
  }
  const out: ScenarioFiles = { ...files, robotUrdf: r.urdf, robotMeshes: meshes };
  delete out.robotFiles;
  if (r.warnings.length > 0) out.robotXacroNotes = [...(files.robotXacroNotes ?? []), ...r.warnings];
  return out;
}
