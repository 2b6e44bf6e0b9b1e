/**
 * A ROS package's controller configuration (ros_control / ros2_control YAML, `config/*.yaml`) →
 * the joints its position controllers hold. Real robots declare how their non-wheel joints are
 * commanded here rather than in the URDF: the Curiosity model's transmissions say
 * `EffortJointInterface` for every joint, and its controllers file puts the suspension, steering,
 * mast and arm under `effort_controllers/JointPositionController` (a PID on position: Gazebo holds
 * them), the wheels under `JointVelocityController`.
 *
 * Steps, each pure (the files are texts by the path the caller found them under):
 *   1. parse: every YAML document of every file (`yaml`'s parseAllDocuments); a file that does not
 *      parse is a warning naming it and the line, never an error (the robot loads without it).
 *   2. find the controllers, in either layout:
 *        ROS 1   <namespace>:                       ROS 2   controller_manager:
 *                  arm_controller:                            ros__parameters:
 *                    type: effort_controllers/...                arm_controller:
 *                    joint: arm_joint   (or joints: [...])         type: joint_trajectory_controller/...
 *                                                           arm_controller:
 *                                                             ros__parameters:
 *                                                               joints: [...]
 *      a controller is any mapping with a string `type` (searched to CONTROLLER_SEARCH_DEPTH
 *      levels); its joints are its own `joint`/`joints`, else those of the `ros__parameters` block
 *      of a key with its name (a namespaced key "/rover/arm_controller" by its last segment).
 *   3. holding types (holdsPosition): JointPositionController (effort_ and position_controllers,
 *      one `joint`), JointGroupPositionController, forward_command_controller with
 *      `interface_name: position`, JointTrajectoryController (any command interface: it holds the
 *      pose it starts in). Others (velocity controllers of wheels, diff_drive_controller, state
 *      broadcasters, anything unknown) hold nothing and say nothing.
 *
 * What a held joint becomes (a position servo at its ros2_control initial_value, else 0, the pose
 * the URDF was built in, with the URDF's effort and velocity limits; not for joints the drive
 * controller commands; a scenario's `robot.controller.hold` wins) is urdf-to-robot.ts's attachServos.
 */
import { parseAllDocuments } from 'yaml';
import type { RobotSpec } from '../../dynamics/spec';

/** Most controller YAML files read for one robot (a package's config/ folder, sorted by path). */
export const CONTROLLER_YAML_MAX_FILES = 32;
/** [bytes] Largest controller YAML file read (controller files are a few KiB; a bigger one is data). */
export const CONTROLLER_YAML_MAX_BYTES = 256 * 1024;
/** Folders below a package's config/ searched for controller files (config/<robot>/<variant>/x.yaml). */
export const CONTROLLER_YAML_MAX_DEPTH = 3;
/** Mapping levels searched for controllers (ROS 2 under a namespace: namespace, controller_manager, ros__parameters, name). */
const CONTROLLER_SEARCH_DEPTH = 6;
/** Most alias expansions a YAML document may make (a billion-laughs file is refused, not expanded). */
const YAML_MAX_ALIAS_COUNT = 100;

/** A joint a controller file holds in position. */
export interface ControllerHold {
  joint: string;
  /** The controller's name (its key in the file). */
  controller: string;
  /** Its `type`, as written. */
  type: string;
  /** The file's path, as the caller keyed it. */
  file: string;
}

/** What readControllerConfig found: the held joints (each once, first file and controller first) and warnings. */
export interface ControllerConfig {
  holds: ControllerHold[];
  /** Files that did not parse (naming the file and line), files too big, holding controllers without joints. */
  warnings: string[];
}

type Mapping = Record<string, unknown>;

function isMapping(x: unknown): x is Mapping {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Map);
}

/** Whether a controller of `type` (with its parameters) holds its joints at a position. */
export function holdsPosition(type: string, params: Mapping): boolean {
  const t = type.trim();
  if (/(^|\/)JointPositionController$/.test(t) || /(^|\/)JointGroupPositionController$/.test(t)) return true;
  if (/(^|\/)JointTrajectoryController$/.test(t)) return true;
  if (/^forward_command_controller\/ForwardCommandController$/.test(t)) return params.interface_name === 'position';
  return false;
}

/** The joints a controller's parameters name: `joint` (ROS 1 single-joint controllers) and `joints`. */
function namedJoints(params: Mapping | undefined): string[] {
  if (!params) return [];
  const out: string[] = [];
  if (typeof params.joint === 'string') out.push(params.joint);
  if (Array.isArray(params.joints)) for (const j of params.joints) if (typeof j === 'string') out.push(j);
  return out;
}

/** The key's last '/'-separated segment ("/rover/arm_controller" → "arm_controller"). */
function lastSegment(key: string): string {
  const parts = key.split('/').filter((s) => s !== '');
  return parts.length > 0 ? parts[parts.length - 1] : key;
}

interface FoundController {
  name: string;
  type: string;
  params: Mapping;
}

/**
 * Walks a document: every `<name>: { ros__parameters: {...} }` is a parameter block by name (not
 * searched further), except the controller manager's, which declares the controllers; every other
 * mapping with a string `type` is a controller (not searched further).
 */
function collect(node: unknown, depth: number, controllers: FoundController[], parameters: Map<string, Mapping>): void {
  if (!isMapping(node) || depth > CONTROLLER_SEARCH_DEPTH) return;
  for (const [key, value] of Object.entries(node)) {
    if (!isMapping(value)) continue;
    const name = lastSegment(key);
    const ros2 = value.ros__parameters;
    if (name !== 'controller_manager' && isMapping(ros2)) {
      parameters.set(name, { ...(parameters.get(name) ?? {}), ...ros2 });
      continue;
    }
    if (name !== 'ros__parameters' && typeof value.type === 'string') {
      controllers.push({ name, type: value.type, params: value });
      continue;
    }
    collect(value, depth + 1, controllers, parameters);
  }
}

/** The warning for a YAML error: the file, the line, and the parser's message without its excerpt. */
function yamlProblem(file: string, e: { message: string; linePos?: readonly { line: number; col: number }[] }): string {
  const first = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const at = e.linePos?.[0];
  return `controller file ${file}${at ? ` line ${at.line}` : ''} is not valid YAML (${first}); its controllers are ignored`;
}

/**
 * The joints held by the position controllers of `files` (YAML text by path; read in path order).
 * Never throws on the files' content: bad YAML, an oversized file and a holding controller that
 * names no joint are warnings.
 */
export function readControllerConfig(files: Readonly<Record<string, string>>): ControllerConfig {
  const holds: ControllerHold[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const paths = Object.keys(files).sort();
  for (const file of paths) {
    const text = files[file];
    if (typeof text !== 'string') continue;
    if (text.length > CONTROLLER_YAML_MAX_BYTES) {
      warnings.push(`controller file ${file} is ${text.length} characters, over ${CONTROLLER_YAML_MAX_BYTES}; not read`);
      continue;
    }
    const controllers: FoundController[] = [];
    const parameters = new Map<string, Mapping>();
    let bad = false;
    for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
      if (doc.errors.length > 0) {
        warnings.push(yamlProblem(file, doc.errors[0]));
        bad = true;
        break;
      }
      let value: unknown;
      try {
        value = doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT });
      } catch (e) {
        warnings.push(`controller file ${file} cannot be read (${(e as Error).message}); its controllers are ignored`);
        bad = true;
        break;
      }
      collect(value, 0, controllers, parameters);
    }
    if (bad) continue;
    // a parameter block that gives its own type, for a controller the manager does not declare
    for (const [name, params] of parameters) {
      if (typeof params.type === 'string' && !controllers.some((c) => c.name === name)) controllers.push({ name, type: params.type, params: {} });
    }
    for (const c of controllers) {
      const params = { ...(parameters.get(c.name) ?? {}), ...c.params };
      if (!holdsPosition(c.type, params)) continue;
      const joints = namedJoints(c.params);
      const list = joints.length > 0 ? joints : namedJoints(parameters.get(c.name));
      if (list.length === 0) {
        warnings.push(`controller "${c.name}" (${c.type}) in ${file} names no joint; ignored`);
        continue;
      }
      for (const joint of list) {
        if (seen.has(joint)) continue;
        seen.add(joint);
        holds.push({ joint, controller: c.name, type: c.type, file });
      }
    }
  }
  return { holds, warnings };
}

/**
 * The one line that tells a user which joints their controller files hold ("info: " like the
 * mesh volume reports), grouped by file; null when none is.
 */
export function describeControllerHolds(held: readonly ControllerHold[]): string | null {
  if (held.length === 0) return null;
  const byFile = new Map<string, string[]>();
  for (const h of held) byFile.set(h.file, [...(byFile.get(h.file) ?? []), h.joint]);
  const parts = [...byFile].map(([file, joints]) => `${joints.map((j) => `"${j}"`).join(', ')} (${file})`);
  return `info: joints held at their start position by the robot's position controllers: ${parts.join('; ')}; the scenario's "robot.controllerConfig": false leaves them free`;
}

/**
 * The holds that apply to `robot` by joint (the first for each joint), and one note per file for
 * the joints it names that the robot's URDF does not have (`urdfJoints`: every joint name of the
 * file) or that are fixed or merged into a body: ROS packages share controller files between
 * variants of a robot, so these are notes, not errors.
 */
export function controllerHoldsForRobot(
  robot: RobotSpec, urdfJoints: ReadonlySet<string>, controllerHolds: readonly ControllerHold[],
): { holds: Map<string, ControllerHold>; notes: string[] } {
  const holds = new Map<string, ControllerHold>();
  const missing = new Map<string, string[]>();
  const fixed = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, file: string, joint: string): void => {
    m.set(file, [...(m.get(file) ?? []), `"${joint}"`]);
  };
  for (const h of controllerHolds) {
    if (!urdfJoints.has(h.joint)) add(missing, h.file, h.joint);
    else {
      const joint = robot.joints.find((x) => x.name === h.joint);
      if (!joint || (joint.type !== 'revolute' && joint.type !== 'prismatic')) add(fixed, h.file, h.joint);
      else if (!holds.has(h.joint)) holds.set(h.joint, h);
    }
  }
  const notes: string[] = [];
  for (const [file, joints] of missing) notes.push(`controller file ${file} holds ${joints.join(', ')}, which robot "${robot.name}" does not have; ignored`);
  for (const [file, joints] of fixed) notes.push(`controller file ${file} holds ${joints.join(', ')}, fixed (or merged) in robot "${robot.name}"; ignored`);
  return { holds, notes };
}
