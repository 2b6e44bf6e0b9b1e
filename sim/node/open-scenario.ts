/**
 * openScenario(path): a scenario file on disk → a world, for Node scripts. Reads the scenario,
 * its terrain (sidecar and data), its URDF and the URDF's collision meshes, each relative to the
 * file that names it, and builds the world exactly as the app and the CLI do:
 *
 *   import { openScenario } from './sim/node/open-scenario';   // Node only (reads the disk)
 *   const world = openScenario('assets/scenarios/default.json');
 *   const chassis = world.bodyIndex('rover/chassis');
 *   const pose = new Float64Array(7);
 *   for (let k = 0; k < 2400; k++) {
 *     world.step();
 *     world.readPose(chassis, pose);        // px py pz qx qy qz qw, allocates nothing
 *   }
 *
 * A missing file is reported as `file not found: <absolute path> (<the field that named it>)`.
 */
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PlainWorld } from '../dynamics/plain-world';
import { openScenarioWith, worldFromScenarioFiles, type OpenScenarioOptions } from '../scenario/open-scenario';
import { gatherScenarioFiles, gatherScenarioFilesAsync, ScenarioFileError, type ScenarioFiles, type ScenarioFileSystem } from '../scenario/scenario-files';

export type { OpenScenarioOptions };

/** Most paths listFiles gives for one folder (a package's config/ holds a few). */
const LIST_MAX_FILES = 4096;

/** The disk, for gatherScenarioFiles: absolute paths, "file not found" for ENOENT/ENOTDIR. */
export const nodeScenarioFileSystem: ScenarioFileSystem = {
  readFile(path) {
    try {
      return new Uint8Array(readFileSync(path));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      if (code === 'EISDIR') throw new ScenarioFileError(`${path} is a directory, not a file`, path, '');
      throw new ScenarioFileError(`cannot read ${path}: ${code ?? (e as Error).message}`, path, '');
    }
  },
  resolve(base, relative) {
    return resolve(dirname(base), relative);
  },
  listFiles(dir, maxDepth) {
    const out: string[] = [];
    const walk = (abs: string, rel: string, depth: number): boolean => {
      let entries: Dirent[];
      try {
        entries = readdirSync(abs, { withFileTypes: true });
      } catch {
        return false;
      }
      for (const e of entries) {
        // regular files and folders only: a symbolic link is not followed
        if (e.isFile()) out.push(rel + e.name);
        else if (e.isDirectory() && depth < maxDepth && out.length < LIST_MAX_FILES) walk(join(abs, e.name), `${rel}${e.name}/`, depth + 1);
        if (out.length >= LIST_MAX_FILES) break;
      }
      return true;
    };
    return walk(dir, '', 0) ? out.sort() : null;
  },
};

/** The files of the scenario at `path` (resolved against the working directory), read from disk. */
export function readScenarioFiles(path: string): ScenarioFiles {
  return gatherScenarioFiles(resolve(path), nodeScenarioFileSystem);
}

/** readScenarioFiles, expanding a xacro robot (robot.xacroArgs; includes read from disk). */
export function readScenarioFilesAsync(path: string): Promise<ScenarioFiles> {
  return gatherScenarioFilesAsync(resolve(path), nodeScenarioFileSystem);
}

/**
 * openScenario for any scenario, a xacro robot's included: its files read with
 * readScenarioFilesAsync (the xacro expanded with `robot.xacroArgs`), then the same world.
 */
export async function openScenarioAsync(path: string, options: OpenScenarioOptions = {}): Promise<PlainWorld> {
  return worldFromScenarioFiles(await readScenarioFilesAsync(path), options);
}

/** The world of the scenario file at `path` (see the header); throws naming the missing file or bad field. */
export function openScenario(path: string, options: OpenScenarioOptions = {}): PlainWorld {
  return openScenarioWith(resolve(path), nodeScenarioFileSystem, options);
}
