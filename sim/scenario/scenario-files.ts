/**
 * The files a scenario needs, gathered from wherever they live: the scenario JSON, its terrain
 * (sidecar JSON and the data file the sidecar names), its URDF robot and the URDF's collision
 * meshes, each resolved relative to the file that names it. The file system is injected
 * (ScenarioFileSystem): Node's is sim/node/open-scenario.ts; the core never touches one.
 *
 * A file that is missing is reported as `file not found: <path> (<which field named it>)`.
 */
import { parseUrdf } from '../robot/urdf/parse-urdf';
import { expandXacro, isXacro } from '../robot/urdf/xacro';
import { urdfReferencedFiles } from '../robot/urdf/load-urdf';
import { parseTerrainSidecar } from '../terrain/sidecar';
import { parseScenarioFile } from './scenario-v2';
import type { ConvexParts } from '../robot/mesh/convex-decomposition';
import { gatherControllerFiles } from './scenario-controllers';

/** Inputs to load a world (what the worker's `load` takes; the CLI and openScenario gather them from disk). */
export interface ScenarioFiles {
  /** Parsed scenario JSON (validated when the world is built; see sim/scenario/scenario.ts). */
  scenario: unknown;
  /** Parsed terrain sidecar JSON (null for inline terrain). */
  terrainSidecar: unknown;
  /** Bytes of the terrain image/raster named by the sidecar. */
  terrainData: Uint8Array;
  /** URDF text of the robot, if the scenario names one. */
  robotUrdf?: string;
  /** Mesh files the URDF names, by the path the URDF gives (resolved by the caller). */
  robotMeshes?: Record<string, Uint8Array>;
  /**
   * A xacro robot's other files (its includes; meshes too when the host cannot key them by the
   * expanded URDF's paths), by the path the host has them under (a package folder's relative
   * paths). The service expands a xacro `robotUrdf` against them before the world is built
   * (scenario-xacro.ts), and the files it keeps carry the expanded URDF instead.
   */
  robotFiles?: Record<string, Uint8Array>;
  /** Notes of that expansion (includes skipped, approximations): the robot's warnings carry them. */
  robotXacroNotes?: string[];
  /** SRDF text next to the URDF (same name, .srdf), if any: its disable_collisions pairs are honoured. */
  robotSrdf?: string;
  /**
   * The robot's controller configuration: ros_control YAML text by path (its package's
   * config/ files, or the one file `robot.controllerConfig` names), gathered by
   * scenario-controllers.ts; its position controllers hold their joints (ros-controllers.ts).
   */
  robotControllers?: Record<string, string>;
  /** Notes of that gathering (files skipped for their number or size): said with the robot's warnings. */
  robotControllerNotes?: string[];
  /**
   * Convex parts of the robot's concave collision meshes (by collisionMeshKey), added by
   * prepareScenarioMeshes (scenario-meshes.ts) before the world is built; derived from the meshes.
   */
  robotConvexParts?: Record<string, ConvexParts>;
  /** One line per collision mesh: mesh, single-hull and parts' volumes (prepareScenarioMeshes). */
  robotMeshReport?: string[];
}

/** Where gathered files come from. */
export interface ScenarioFileSystem {
  /** The bytes of the file at `path`, or null when there is no such file (other failures throw). */
  readFile(path: string): Uint8Array | null;
  /**
   * The regular files under folder `dir` (its path as `resolve` gives it), as '/'-separated paths
   * relative to it, at most `maxDepth` folders down; null when there is no such folder. Optional:
   * without it a robot package's controller files are not looked for (scenario-controllers.ts).
   */
  listFiles?(dir: string, maxDepth: number): string[] | null;
  /** `relative` resolved against the directory of the file `base`. */
  resolve(base: string, relative: string): string;
}

/** A scenario's file is missing or unreadable: `path` is where it was looked for, `field` what named it. */
export class ScenarioFileError extends Error {
  readonly path: string;
  readonly field: string;
  constructor(message: string, path: string, field: string) {
    super(message);
    this.name = 'ScenarioFileError';
    this.path = path;
    this.field = field;
  }
}

function read(fs: ScenarioFileSystem, path: string, field: string): Uint8Array {
  const bytes = fs.readFile(path);
  if (bytes === null) throw new ScenarioFileError(`file not found: ${path} (${field})`, path, field);
  return bytes;
}

function json(bytes: Uint8Array, path: string, field: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new ScenarioFileError(`${path} (${field}) is not valid JSON: ${(e as Error).message}`, path, field);
  }
}

/**
 * Reads the scenario at `scenarioPath` and every file it needs, relative to it. Throws
 * ScenarioFileError for a missing or malformed file, ScenarioError (naming the field) for a
 * scenario that does not validate, TerrainError for a bad sidecar, UrdfError for a bad URDF.
 */
export function gatherScenarioFiles(scenarioPath: string, fs: ScenarioFileSystem): ScenarioFiles {
  return gatherWith(scenarioPath, fs, (text, urdfPath) => {
    if (isXacro(text)) throw new ScenarioFileError(`${urdfPath} is a xacro file: gather the scenario with gatherScenarioFilesAsync (readScenarioFilesAsync in Node), which expands it`, urdfPath, 'robot.urdf');
    return text;
  });
}

/**
 * gatherScenarioFiles, expanding a xacro robot (arguments from `robot.xacroArgs`; includes read
 * through `fs`, resolved as sim/robot/urdf/xacro.ts says). The expanded URDF is what the files
 * carry (and what a recording hashes): a replay needs no include.
 */
export async function gatherScenarioFilesAsync(scenarioPath: string, fs: ScenarioFileSystem): Promise<ScenarioFiles> {
  let pending: Promise<string> | null = null;
  const first = gatherWith(scenarioPath, fs, (text, urdfPath, args) => {
    if (!isXacro(text)) return text;
    pending = expandXacro(text, {
      path: urdfPath,
      args,
      readFile: (p) => {
        const bytes = fs.readFile(p);
        return bytes === null ? undefined : new TextDecoder().decode(bytes);
      },
    }).then((r) => r.urdf);
    return null;
  });
  if (pending === null) return first;
  const urdf: string = await pending;
  return gatherWith(scenarioPath, fs, () => urdf);
}

/**
 * The gathering; `urdfText` turns the robot file's text into URDF text (null: not yet, the files
 * are returned without the robot's).
 */
function gatherWith(
  scenarioPath: string, fs: ScenarioFileSystem,
  urdfText: (text: string, urdfPath: string, args: Record<string, string | number | boolean> | undefined) => string | null,
): ScenarioFiles {
  const scenario = json(read(fs, scenarioPath, 'the scenario'), scenarioPath, 'the scenario');
  const parsed = parseScenarioFile(scenario);
  const files: ScenarioFiles = { scenario, terrainSidecar: null, terrainData: new Uint8Array(0) };
  if ('file' in parsed.terrain) {
    const field = `"terrain" of ${scenarioPath}`;
    const sidecarPath = fs.resolve(scenarioPath, parsed.terrain.file);
    files.terrainSidecar = json(read(fs, sidecarPath, field), sidecarPath, field);
    const dataPath = fs.resolve(sidecarPath, parseTerrainSidecar(files.terrainSidecar).image);
    files.terrainData = read(fs, dataPath, `"image" of the terrain sidecar ${sidecarPath}`);
  }
  if (parsed.robot !== undefined && 'urdf' in parsed.robot) {
    const urdfPath = fs.resolve(scenarioPath, parsed.robot.urdf);
    const text = urdfText(new TextDecoder().decode(read(fs, urdfPath, `"robot.urdf" of ${scenarioPath}`)), urdfPath, parsed.robot.xacroArgs);
    if (text === null) return files;
    files.robotUrdf = text;
    files.robotMeshes = {};
    for (const ref of urdfReferencedFiles(parseUrdf(files.robotUrdf), parsed.robot.urdf)) {
      if (ref.role !== 'collision') continue;
      files.robotMeshes[ref.path] = read(fs, fs.resolve(scenarioPath, ref.path), `collision mesh of link "${ref.link}" in ${urdfPath}`);
    }
    const controllers = gatherControllerFiles(fs, scenarioPath, urdfPath, parsed.robot.controllerConfig, (p, field) => read(fs, p, field));
    // a package without controller files adds nothing (files stay as they were before)
    if (controllers !== null && (Object.keys(controllers.files).length > 0 || controllers.notes.length > 0)) {
      files.robotControllers = controllers.files;
      if (controllers.notes.length > 0) files.robotControllerNotes = controllers.notes;
    }
    // an SRDF of the same name next to the URDF (robot.urdf, robot.urdf.xacro → robot.srdf)
    const srdfPath = urdfPath.replace(/(\.urdf)?(\.xacro)?$/i, '.srdf');
    if (srdfPath !== urdfPath) {
      const srdf = fs.readFile(srdfPath);
      if (srdf !== null) files.robotSrdf = new TextDecoder().decode(srdf);
    }
  }
  return files;
}
