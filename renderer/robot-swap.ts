/**
 * Open Robot…: a URDF the user opened, swapped into the running scenario without a restart. The
 * running scenario's JSON gets `"robot": { "urdf": <file name>, "position", "yaw" }` (the old
 * robot's start pose; the controller inferred from the URDF) and goes through the same load path as
 * any scenario, so a URDF that does not load leaves the running world as it is and the banner says
 * why (UrdfError messages name the link or joint).
 *
 * Mesh files are keyed by the path urdfReferencedFiles gives against the URDF's file name
 * ("meshes/base.stl"), which is how the worker's loader and the renderer's visuals look them up.
 * Electron's main process has read them already (OpenedRobotFile.related); in a browser each is
 * asked for through Host.readRelated by its base name (the user picks the URDF and its meshes
 * together, or is asked for a missing one: "X is needed next to the file you opened").
 *
 * A xacro robot (a .xacro, or a .urdf holding xacro) is expanded here, in the page
 * (sim/robot/urdf/picked-files.ts): its includes, `$(find pkg)` and `package://` paths are
 * looked up among the files opened or dropped with it (`related`: a dropped ROS package folder, a
 * multiple pick), else read beside it through readRelated; an include that is needed and absent
 * is named in the error, one that is skipped (another package's accessory) in the notes.
 */
import type { ScenarioFiles } from '../sim/app/protocol';
import type { OpenedRobotFile } from '../electron/ipc-contract';
import type { Host } from './host/host';
import { parseUrdf } from '../sim/robot/urdf/parse-urdf';
import { urdfReferencedFiles } from '../sim/robot/urdf/load-urdf';
import { expandPickedRobot, PickedFiles, type PickedFile } from '../sim/robot/urdf/picked-files';
import { isXacro } from '../sim/robot/urdf/xacro';
import { packageControllerFiles } from '../sim/scenario/scenario-controllers';

export interface OpenedRobot {
  /** The URDF's file name (the scenario's robot.urdf; mesh paths resolve against it). */
  name: string;
  urdf: string;
  /** Collision and visual mesh files by resolved path; a file that could not be read is absent. */
  meshes: Record<string, Uint8Array>;
  /** What the user should know (xacro includes skipped); empty for a plain URDF. */
  notes: string[];
  /**
   * The controller files (ros_control YAML) of the robot's ROS package when it came with its
   * package (a dropped or picked folder): their position controllers hold joints
   * (sim/scenario/scenario-controllers.ts). Absent otherwise.
   */
  controllers?: Record<string, string>;
  /** Controller files skipped for their number or size. */
  controllerNotes?: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The scenario JSON with its robot replaced by the URDF `urdf` at the old robot's start
 * (position [x, y] and yaw, or the origin facing +x when it had none). Version 2 scenarios only.
 */
export function replaceRobot(scenario: unknown, urdf: string): Record<string, unknown> {
  if (!isObject(scenario)) throw new Error('the running scenario is not a JSON object');
  if (scenario.version !== 2) {
    throw new Error(`a robot can be opened into a version 2 scenario only (the running one is version ${String(scenario.version)}): load a bundled scenario first`);
  }
  const old = scenario.robot;
  let position: [number, number] = [0, 0];
  let yaw = 0;
  if (isObject(old)) {
    const p = old.position;
    if (Array.isArray(p) && p.length === 2 && finite(p[0]) && finite(p[1])) position = [p[0], p[1]];
    if (finite(old.yaw)) yaw = old.yaw;
  }
  return { ...scenario, robot: { urdf, position, yaw } };
}

/** The world's files with the robot swapped in (the terrain as gathered for the running world). */
export function withRobot(files: ScenarioFiles, robot: OpenedRobot): ScenarioFiles {
  // the old robot's controller files go with it
  const { robotControllers: _files, robotControllerNotes: _notes, ...rest } = files;
  const out: ScenarioFiles = { ...rest, scenario: replaceRobot(files.scenario, robot.name), robotUrdf: robot.urdf, robotMeshes: { ...robot.meshes } };
  if (robot.controllers !== undefined) out.robotControllers = { ...robot.controllers };
  if (robot.controllerNotes !== undefined && robot.controllerNotes.length > 0) out.robotControllerNotes = [...robot.controllerNotes];
  return out;
}

/** `robot` with the controller files of its package when `related` holds the package (packageControllerFiles). */
function withControllers(robot: OpenedRobot, related: Record<string, Uint8Array> | undefined): OpenedRobot {
  const found = related ? packageControllerFiles(related, robot.name) : null;
  if (found === null) return robot;
  return { ...robot, controllers: found.files, ...(found.notes.length > 0 ? { controllerNotes: found.notes } : {}) };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The URDF text and the mesh files it names. Throws the URDF's own error (UrdfError: link or joint,
 * what to fix) when it does not parse; a mesh that cannot be read is left out (the worker names a
 * missing collision mesh and its link; a missing visual is not drawn). Textures are not read.
 */
export async function gatherOpenedRobot(host: Host, opened: OpenedRobotFile): Promise<OpenedRobot> {
  const text = new TextDecoder().decode(opened.bytes);
  if (isXacro(text)) return gatherOpenedXacro(host, opened);
  const urdf = text;
  const refs = urdfReferencedFiles(parseUrdf(urdf), opened.name);
  const meshes: Record<string, Uint8Array> = {};
  for (const ref of refs) {
    if (ref.role === 'texture' || Object.prototype.hasOwnProperty.call(meshes, ref.path)) continue;
    if (opened.related) {
      const bytes = opened.related[ref.path];
      if (bytes) meshes[ref.path] = bytes;
      continue;
    }
    try {
      meshes[ref.path] = await host.readRelated(opened.token, baseName(ref.path));
    } catch {
      // left out: see above
    }
  }
  return withControllers({ name: opened.name, urdf, meshes, notes: [] }, opened.related);
}

/**
 * gatherOpenedRobot for a xacro file: expanded against the files opened with it (related, by path
 * tail) or, for a file opened alone, the files beside it that readRelated serves (by base name).
 */
async function gatherOpenedXacro(host: Host, opened: OpenedRobotFile): Promise<OpenedRobot> {
  const main: PickedFile = { path: opened.name, bytes: opened.bytes };
  const picked: PickedFile[] = [main];
  for (const [path, bytes] of Object.entries(opened.related ?? {})) if (path !== opened.name) picked.push({ path, bytes });
  const set = new PickedFiles(picked);
  const read = async (path: string): Promise<Uint8Array | undefined> => {
    const f = set.find(path);
    if (f || opened.related) return f?.bytes;
    try {
      return await host.readRelated(opened.token, baseName(path));
    } catch {
      return undefined;
    }
  };
  const r = await expandPickedRobot(main, set, undefined, read);
  const meshes: Record<string, Uint8Array> = {};
  for (const ref of urdfReferencedFiles(parseUrdf(r.urdf), opened.name)) {
    if (ref.role === 'texture' || Object.prototype.hasOwnProperty.call(meshes, ref.path)) continue;
    const bytes = await read(ref.path);
    if (bytes) meshes[ref.path] = bytes;
  }
  return withControllers({ name: opened.name, urdf: r.urdf, meshes, notes: r.warnings }, opened.related);
}

