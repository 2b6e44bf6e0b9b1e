/**
 * Where a robot's controller configuration (ros_control YAML, read by
 * sim/robot/urdf/ros-controllers.ts) comes from, by the scenario's `robot.controllerConfig`:
 *
 *   true (default)  the robot's ROS package: walk up from the URDF/xacro file's folder (at most
 *                   ROS_PACKAGE_MAX_DEPTH folders) to one holding a `package.xml`, then every
 *                   `.yaml`/`.yml` under its `config/` (ROS's convention for controller files),
 *                   CONTROLLER_YAML_MAX_DEPTH folders down, in path order, at most CONTROLLER_YAML_MAX_FILES
 *                   of at most CONTROLLER_YAML_MAX_BYTES each (a note names what was skipped).
 *                   A robot outside a package has none.
 *   "<path>"        that one file, relative to the scenario file (missing: an error naming it).
 *   false           none: joints are held only as the URDF and the scenario say.
 *
 * Two sources, one rule: files on disk (gatherControllerFiles, through the injected
 * ScenarioFileSystem; the CLI and openScenario), and a package's files a host hands the service
 * as ScenarioFiles.robotFiles (controllerFilesFromRobotFiles; the package found by its
 * package.xml among them). Either way the texts travel as ScenarioFiles.robotControllers, keyed
 * by their path from the package's folder ("rover_description/config/control.yaml"), so a
 * recording hashes them and a replay needs nothing else.
 */
import { CONTROLLER_YAML_MAX_BYTES, CONTROLLER_YAML_MAX_DEPTH, CONTROLLER_YAML_MAX_FILES } from '../robot/urdf/ros-controllers';
import { PickedFiles } from '../robot/urdf/picked-files';
import type { ScenarioFiles, ScenarioFileSystem } from './scenario-files';
import { parseScenarioFile } from './scenario-v2';

/** Most folders walked up from the robot file to its package.xml (ROS packages keep robots in urdf/ or a sub-folder). */
export const ROS_PACKAGE_MAX_DEPTH = 6;

const decoder = new TextDecoder();
const isYaml = (p: string): boolean => /\.ya?ml$/i.test(p);
const segmentsOf = (p: string): string[] => p.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');

/** Controller texts by path and the notes of what was skipped. */
export interface GatheredControllers {
  files: Record<string, string>;
  notes: string[];
}

/** Keeps the first CONTROLLER_YAML_MAX_FILES of `paths` (sorted) within the size cap; notes the rest. */
function takeFiles(paths: string[], where: string, bytesOf: (p: string) => Uint8Array | null): GatheredControllers {
  const out: GatheredControllers = { files: {}, notes: [] };
  const sorted = [...paths].sort();
  if (sorted.length > CONTROLLER_YAML_MAX_FILES) {
    out.notes.push(`${where} holds ${sorted.length} YAML files; only the first ${CONTROLLER_YAML_MAX_FILES} (by path) are read for controllers; name the one that matters in the scenario's "robot.controllerConfig"`);
  }
  for (const p of sorted.slice(0, CONTROLLER_YAML_MAX_FILES)) {
    const bytes = bytesOf(p);
    if (bytes === null) continue;
    if (bytes.length > CONTROLLER_YAML_MAX_BYTES) {
      out.notes.push(`controller file ${p} is ${bytes.length} bytes, over ${CONTROLLER_YAML_MAX_BYTES}; not read`);
      continue;
    }
    out.files[p] = decoder.decode(bytes);
  }
  return out;
}

/**
 * The controller files of the robot at `urdfPath` (see the header), read through `fs`; null when
 * `option` is false. `read` reads a named file or throws naming the field (gatherScenarioFiles's).
 */
export function gatherControllerFiles(
  fs: ScenarioFileSystem, scenarioPath: string, urdfPath: string, option: boolean | string | undefined,
  read: (path: string, field: string) => Uint8Array,
): GatheredControllers | null {
  if (option === false) return null;
  if (typeof option === 'string') {
    const bytes = read(fs.resolve(scenarioPath, option), `"robot.controllerConfig" of ${scenarioPath}`);
    return takeFiles([option], option, () => bytes);
  }
  if (!fs.listFiles) return null;
  for (let k = 0; k <= ROS_PACKAGE_MAX_DEPTH; k++) {
    const up = '../'.repeat(k);
    const xml = fs.resolve(urdfPath, `${up}package.xml`);
    if (fs.readFile(xml) === null) continue;
    const packageDir = fs.resolve(urdfPath, up.length > 0 ? up : '.');
    const pkg = segmentsOf(packageDir).pop() ?? '';
    const config = fs.resolve(xml, 'config');
    const found = (fs.listFiles(config, CONTROLLER_YAML_MAX_DEPTH) ?? []).filter(isYaml);
    const byKey = new Map(found.map((p) => [`${pkg}/config/${p}`, fs.resolve(xml, `config/${p}`)]));
    return takeFiles([...byKey.keys()], `${pkg}/config`, (key) => fs.readFile(byKey.get(key) as string));
  }
  return null;
}

/**
 * The controller files of the robot at `urdfPath` among a host's copy of its package (`files`, by
 * '/'-separated path: a dropped or picked ROS package folder, ScenarioFiles.robotFiles): the
 * package is the folder holding a package.xml whose name is a folder of the robot's path (the
 * deepest), else the only package.xml given; its config/ YAML files as gatherControllerFiles takes
 * them. Null when there is no package among the files.
 */
export function packageControllerFiles(files: Readonly<Record<string, Uint8Array>>, urdfPath: string): GatheredControllers | null {
  const urdfDirs = segmentsOf(urdfPath).slice(0, -1);
  const packages = Object.keys(files).map(segmentsOf).filter((s) => s[s.length - 1] === 'package.xml').map((s) => s.slice(0, -1));
  let best: string[] | null = null;
  let bestAt = -1;
  for (const dir of packages) {
    const at = dir.length === 0 ? 0 : urdfDirs.lastIndexOf(dir[dir.length - 1]) + 1;
    if (at > bestAt) {
      best = dir;
      bestAt = at;
    }
  }
  if (best === null || (bestAt <= 0 && packages.length > 1)) return null;
  const prefix = [...best, 'config'];
  const keys = Object.keys(files).filter((p) => {
    const s = segmentsOf(p);
    return isYaml(p) && s.length > prefix.length && s.length - prefix.length <= CONTROLLER_YAML_MAX_DEPTH + 1 && prefix.every((x, k) => s[k] === x);
  });
  return takeFiles(keys, prefix.join('/'), (p) => (files[p] instanceof Uint8Array ? files[p] : null));
}

/**
 * `files` with the controller files of its robot taken from `robotFiles` (packageControllerFiles,
 * or the one file `robot.controllerConfig` names, found by its path's tail), before the xacro
 * expansion drops them (scenario-xacro.ts). Files that already carry `robotControllers`, have no
 * `robotFiles`, or whose scenario says `controllerConfig: false` come back as they are.
 */
export function controllerFilesFromRobotFiles(files: ScenarioFiles): ScenarioFiles {
  if (files === null || typeof files !== 'object' || files.robotControllers !== undefined) return files;
  const robotFiles = files.robotFiles;
  if (robotFiles === null || typeof robotFiles !== 'object' || Array.isArray(robotFiles)) return files;
  const entry = parseScenarioFile(files.scenario).robot;
  if (entry === undefined || !('urdf' in entry) || entry.controllerConfig === false) return files;
  const bytes: Record<string, Uint8Array> = {};
  for (const [path, b] of Object.entries(robotFiles as Record<string, unknown>)) if (b instanceof Uint8Array) bytes[path] = b;
  let gathered: GatheredControllers | null;
  if (typeof entry.controllerConfig === 'string') {
    const f = new PickedFiles(Object.entries(bytes).map(([path, b]) => ({ path, bytes: b }))).find(entry.controllerConfig);
    if (!f) throw new Error(`load: the controller file "${entry.controllerConfig}" (robot.controllerConfig) is not among ScenarioFiles.robotFiles`);
    gathered = takeFiles([f.path], f.path, () => f.bytes);
  } else gathered = packageControllerFiles(bytes, entry.urdf);
  if (gathered === null) return files;
  const out: ScenarioFiles = { ...files, robotControllers: gathered.files };
  if (gathered.notes.length > 0) out.robotControllerNotes = [...(files.robotControllerNotes ?? []), ...gathered.notes];
  return out;
}
