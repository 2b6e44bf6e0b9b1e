/**
 * Open Robot… of a xacro robot (a `.xacro`, or a `.urdf` holding xacro) in the main process: main
 * expands it itself to learn which files it needs, reads exactly those, and hands the renderer the
 * robot file with them, as a dropped ROS package folder would be (the renderer expands it again
 * with the same code, sim/robot/urdf/picked-files.ts, against these files only).
 *
 * Steps:
 *   1. packageRoot: walk up from the file's folder (at most XACRO_PACKAGE_MAX_DEPTH folders) to one
 *      holding a `package.xml` (a regular file, not a link): the robot's ROS package. Its parent is
 *      the workspace folder (a colcon `src/`, or a repository of several packages) every path is
 *      relative to; the robot's name becomes "husky_description/urdf/husky.urdf.xacro", as a folder
 *      drop names it. Without a package the file's own folder is the root (plain names below it).
 *   2. expansion: `$(find pkg)` and `package://pkg/` are the robot's own package (by its
 *      package.xml `<name>` or its folder), else the workspace folder's sub-folder `pkg` when it
 *      holds a package.xml (a sibling package); anything else is not read. Every include is read
 *      through the same checks as a mesh (related-files.ts names, no '..', lstat on every component:
 *      no symbolic or hard link), at most RELATED_MAX_PARSE_BYTES each; an include that is refused
 *      fails the open with its reason, one that is missing is skipped or, when the expansion needs
 *      it, named in the error (picked-files.ts).
 *   3. meshes: the expanded URDF's mesh and texture files inside the same packages, sized with
 *      lstat before any is read (MESH_MAX_BYTES each), as robot-files.ts does for a plain URDF;
 *      includes and meshes together within ROBOT_MAX_RELATED_BYTES.
 *   4. controller files: the package's config/ YAML files (ros_control: position controllers hold
 *      joints, sim/robot/urdf/ros-controllers.ts) within the caps CONTROLLER_YAML_MAX_*, with the
 *      package.xml that marks the package, through the same checks, within the same budget
 *      (readPackageControllerFiles; handlers.ts uses it for a plain URDF in a package too).
 *
 * No electron imports: the handlers inject their checked file access, so tests run it in Node.
 */
import type { PlatformPath } from 'node:path';
import { parseUrdf } from '../sim/robot/urdf/parse-urdf';
import { urdfReferencedFiles, type UrdfFileRef } from '../sim/robot/urdf/load-urdf';
import { expandPickedRobot, PickedFiles } from '../sim/robot/urdf/picked-files';
import { MESH_MAX_BYTES } from '../sim/robot/urdf/urdf-error';
import { CONTROLLER_YAML_MAX_BYTES, CONTROLLER_YAML_MAX_DEPTH, CONTROLLER_YAML_MAX_FILES } from '../sim/robot/urdf/ros-controllers';
import { isAllowedRelatedName, RELATED_MAX_NAMES, RELATED_MAX_PARSE_BYTES } from './related-files';
import { LIMITS } from './ipc-contract';
import { ROBOT_MAX_RELATED_BYTES } from './robot-files';

/** Most folders walked up from a xacro file to its package.xml (ROS packages put robots in urdf/ or a sub-folder). */
export const XACRO_PACKAGE_MAX_DEPTH = 6;
/** [bytes] Largest package.xml read for the package's `<name>`. */
const PACKAGE_XML_MAX_BYTES = 256 * 1024;

/** The checked file access of the handlers (handlers.ts checkContained and readUserFile). */
export interface XacroRobotAccess {
  /**
   * root/segments… checked (no symbolic link below root, a regular file, one name): its path and
   * size; null when there is no such file. Throws when the file is refused (a link).
   */
  check(root: string, segments: readonly string[], display: string): Promise<{ path: string; size: number } | null>;
  read(path: string, display: string): Promise<Uint8Array>;
  /** The error for a file refused for its size before it was read (handlers.ts FileTooLargeError). */
  tooLarge(message: string): Error;
  /**
   * The regular files under root/segments… (no symbolic link on the way, none followed below), as
   * '/'-separated paths relative to it with their sizes; empty when there is no such folder.
   * Optional: without it the package's controller files are not read (step 4).
   */
  list?(root: string, segments: readonly string[]): Promise<{ path: string; size: number }[]>;
}

/** What openFile('robot') returns for a xacro robot. */
export interface OpenedXacroRobot {
  /** The robot file's path relative to the workspace folder ('/'-separated), or its base name without a package. */
  name: string;
  /** Includes and meshes, keyed by their path relative to the same folder. */
  related: Record<string, Uint8Array>;
}

const decoder = new TextDecoder();

/** A '/'-separated relative path main may read: plain names (related-files.ts rules), no '..', not too long. */
function allowedSegments(p: string): string[] | null {
  if (p.length === 0 || p.length > LIMITS.maxRelativePathLength || p.startsWith('/')) return null;
  const segs = p.split('/').filter((s) => s !== '' && s !== '.');
  return segs.length > 0 && segs.every(isAllowedRelatedName) ? segs : null;
}

/**
 * The robot file at `filePath` (its `bytes`, xacro) with the includes and meshes it needs, read
 * through `access` (see the header). Throws the expansion's UrdfError (naming a missing include),
 * or the refusal of a file (a link, too large).
 */
export async function openXacroRobot(filePath: string, bytes: Uint8Array, access: XacroRobotAccess, path: PlatformPath): Promise<OpenedXacroRobot> {
  const probe = async (root: string, segs: readonly string[]): Promise<{ path: string; size: number } | null> => {
    try {
      return await access.check(root, segs, segs.join('/'));
    } catch {
      return null;
    }
  };

  // 1. the package and the workspace folder
  const packageDir = await findPackageDir(filePath, access, path);
  const base = packageDir !== null ? path.dirname(packageDir) : path.dirname(filePath);
  const mainName = path.relative(base, filePath).split(path.sep).join('/');
  const pkgFolder = packageDir !== null ? path.basename(packageDir) : null;
  let pkgName = pkgFolder;
  if (packageDir !== null) {
    const xml = await probe(packageDir, ['package.xml']);
    if (xml && xml.size <= PACKAGE_XML_MAX_BYTES) {
      const m = /<name>\s*([^<\s]+)\s*<\/name>/.exec(decoder.decode(await access.read(xml.path, 'package.xml')));
      if (m) pkgName = m[1];
    }
  }
  const findPackage = pkgFolder === null ? undefined : (pkg: string): string => (pkg === pkgName || pkg === pkgFolder ? pkgFolder : pkg);
  const packages = new Map<string, boolean>();
  /** Whether the workspace folder's `first` is a package main may read from (the robot's, or a sibling with a package.xml). */
  const insidePackage = async (first: string): Promise<boolean> => {
    if (pkgFolder === null || first === pkgFolder) return true;
    let known = packages.get(first);
    if (known === undefined) {
      known = (await probe(base, [first, 'package.xml'])) !== null;
      packages.set(first, known);
    }
    return known;
  };

  const related: Record<string, Uint8Array> = {};
  let total = 0;
  let refused: Error | null = null;
  const budget = (size: number, what: string): void => {
    total += size;
    if (total > ROBOT_MAX_RELATED_BYTES) {
      throw access.tooLarge(`the files '${mainName}' needs total at least ${total} bytes (${what}); at most ${ROBOT_MAX_RELATED_BYTES} bytes are read for one robot (simplify the meshes)`);
    }
  };

  // 2. the expansion, reading includes through the checks
  const readInclude = async (p: string): Promise<Uint8Array | undefined> => {
    if (refused) return undefined;
    const segs = allowedSegments(p);
    if (segs === null || !(await insidePackage(segs[0]))) return undefined;
    const key = segs.join('/');
    if (related[key]) return related[key];
    try {
      const found = await access.check(base, segs, key);
      if (found === null) return undefined;
      if (found.size > RELATED_MAX_PARSE_BYTES) throw access.tooLarge(`'${key}' (included by the xacro robot) is ${found.size} bytes; an included file may be at most ${RELATED_MAX_PARSE_BYTES} bytes`);
      budget(found.size, `included file '${key}'`);
      related[key] = await access.read(found.path, key);
      return related[key];
    } catch (e) {
      refused = e instanceof Error ? e : new Error(String(e));
      return undefined;
    }
  };
  const where = pkgFolder === null ? `the folder of ${mainName}` : `package "${pkgName}" or a package beside it`;
  let urdf: string;
  try {
    urdf = (await expandPickedRobot({ path: mainName, bytes }, new PickedFiles([]), undefined, readInclude, {
      findPackage,
      missingHint: `they are not in ${where} (open the robot from its ROS package, with the packages it includes beside it)`,
    })).urdf;
  } catch (e) {
    throw refused ?? e;
  }
  if (refused) throw refused;

  // 3. the meshes the expanded URDF names, all sized before any is read
  let refs: UrdfFileRef[];
  try {
    refs = urdfReferencedFiles(parseUrdf(urdf), mainName);
  } catch {
    // the renderer's loader names what is wrong with the robot
    return { name: mainName, related };
  }
  const found: { key: string; path: string }[] = [];
  const keys = new Set<string>();
  for (const ref of refs) {
    const pkg = /^package:\/\/([^/]+)\/(.+)$/.exec(ref.uri.trim());
    const rel = pkg && findPackage ? normalize(`${findPackage(pkg[1])}/${pkg[2]}`) : ref.path;
    const segs = rel === null ? null : allowedSegments(rel);
    if (segs === null || !(await insidePackage(segs[0]))) continue;
    const key = segs.join('/');
    if (keys.has(key) || related[key]) continue;
    keys.add(key);
    if (keys.size > RELATED_MAX_NAMES) break;
    const f = await access.check(base, segs, key);
    if (f === null) continue;
    if (f.size > MESH_MAX_BYTES) throw access.tooLarge(`'${key}' is ${f.size} bytes; a robot mesh may be at most ${MESH_MAX_BYTES} bytes (simplify the mesh)`);
    budget(f.size, `mesh '${key}'`);
    found.push({ key, path: f.path });
  }
  for (const f of found) related[f.key] = await access.read(f.path, f.key);

  // 4. the package's controller files
  if (packageDir !== null) Object.assign(related, await readPackageControllerFiles(packageDir, access, path, budget));
  return { name: mainName, related };
}

/** The folder of the ROS package holding `filePath`: the nearest of its folders (at most XACRO_PACKAGE_MAX_DEPTH up) with a package.xml that is a regular file; null without one. */
export async function findPackageDir(filePath: string, access: XacroRobotAccess, path: PlatformPath): Promise<string | null> {
  for (let dir = path.dirname(filePath), i = 0; i <= XACRO_PACKAGE_MAX_DEPTH; i++) {
    const found = await access.check(dir, ['package.xml'], 'package.xml').catch(() => null);
    if (found) return dir;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/**
 * The controller files (ros_control YAML under config/, ros-controllers.ts's caps) of the package
 * at `packageDir`, with its package.xml, by which the renderer finds the package among the files
 * (sim/scenario/scenario-controllers.ts): keyed "<package folder>/config/…" and
 * "<package folder>/package.xml"; empty when there is none (or `access` cannot list). Each read
 * through access.check (no links), each size counted by `budget` before any is read.
 */
export async function readPackageControllerFiles(
  packageDir: string, access: XacroRobotAccess, path: PlatformPath, budget: (size: number, what: string) => void,
): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  if (!access.list) return out;
  const base = path.dirname(packageDir);
  const pkgFolder = path.basename(packageDir);
  const listed = (await access.list(packageDir, ['config']))
    .filter((f) => /\.ya?ml$/i.test(f.path) && f.path.split('/').length <= CONTROLLER_YAML_MAX_DEPTH + 1 && f.size <= CONTROLLER_YAML_MAX_BYTES)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, CONTROLLER_YAML_MAX_FILES);
  const yaml: { key: string; path: string }[] = [];
  for (const f of listed) {
    const segs = allowedSegments(`${pkgFolder}/config/${f.path}`);
    const checked = segs === null ? null : await access.check(base, segs, segs.join('/'));
    if (segs === null || checked === null || checked.size > CONTROLLER_YAML_MAX_BYTES) continue;
    budget(checked.size, `controller file '${segs.join('/')}'`);
    yaml.push({ key: segs.join('/'), path: checked.path });
  }
  const xml = yaml.length > 0 ? await access.check(base, [pkgFolder, 'package.xml'], `${pkgFolder}/package.xml`) : null;
  if (xml === null || xml.size > PACKAGE_XML_MAX_BYTES) return out;
  out[`${pkgFolder}/package.xml`] = await access.read(xml.path, `${pkgFolder}/package.xml`);
  for (const f of yaml) out[f.key] = await access.read(f.path, f.key);
  return out;
}

/** Folds '.' and '..' of a relative path; null when it climbs out. */
function normalize(p: string): string | null {
  const out: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(s);
  }
  return out.join('/');
}
