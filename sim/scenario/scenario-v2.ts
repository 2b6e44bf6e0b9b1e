/**
 * Scenario files, format version 2: a whole dynamics world (terrain, gravity, step, materials
 * and the terrain's material map, bodies, joints, the robot, the drive script). Version-1 files
 * still load: they become the same result with the v1 robot as the built-in skid-steer rover.
 *
 *   parseScenarioFile(raw)            file JSON (v1 or v2) → ParsedScenario (world data, no robot bodies yet)
 *   scenarioWorldSpec(parsed, opts)   → WorldSpec with the robot built (needs the terrain's heightAt
 *                                       to place the rover; a URDF robot is passed in by the caller)
 *
 * Validation order: size guard (depth and node count, iterative) → format/version → schema
 * (sim/scenario/scenario-schema.ts) → cross-field rules below. Every rejection is a ScenarioError whose
 * message starts with "scenario: " and names the JSON path.
 *
 * {
 *   "format": "terrawheel-scenario", "version": 2, "name": "Barrels",
 *   "terrain": "../terrains/curbs.json",          // or { cols, rows, dx, dy, x0, y0, heights }
 *   "gravity": [0, 0, -9.81], "dt": 0.004166, "substeps": 4, "sleep": true, "ccd": true,
 *   "materials": { "steel": { "friction": 0.6, "restitution": 0.1 } },
 *   "terrainMaterials": { "material": "asphalt", "regions": [{ "material": "sand", "shape": "circle", "center": [0, 0], "radius": 5 }] },
 *   "bodies": [{ "name": "b", "shape": { "type": "cylinder", "radius": 0.3, "height": 0.9 }, "mass": 50, "position": [0, 0, 0.45] }],
 *   "joints": [],
 *   "robot": { "type": "skid-steer", "position": [-13, 0], "yaw": 0 },   // or { "urdf": "../robots/x.urdf", ... }
 *   "script": [{ "t": 0, "throttle": 0.6, "steer": 0 }]
 * }
 */
import type {
  BodySpec,
  ControllerSpec,
  InlineTerrainSpec,
  JointSpec,
  MaterialSpec,
  RobotSpec as WorldRobotSpec,
  ScriptCommandSpec,
  TerrainMaterialMapSpec,
  Vec3Spec,
  WorldSpec,
} from '../dynamics/spec';
import { buildSkidSteerRover, roverNames, ROVER_CHASSIS_MASS, ROVER_MAX_TORQUE, ROVER_WHEEL_MASS } from '../robot/rover-builder';
import { DEFAULT_ROBOT, type RobotSpec as SkidSteerSpec } from '../robot/skid-steer';
import { checkScenarioSize, describeValue, excerpt, ScenarioError } from './scenario-guard';
import {
  inlineTerrainSchema,
  runSchema,
  scenarioV2Schema,
  skidSteerRobotSchema,
  terrainFileSchema,
  urdfRobotSchema,
  controllerChoiceSchema,
  controllerSchema,
  holdSchema,
  type BodyRaw,
  type JointRaw,
  type ScenarioV2Raw,
  MAX_CAMERA_DISTANCE,
  MAX_CAMERA_ELEVATION,
  MIN_CAMERA_DISTANCE,
  MIN_CAMERA_ELEVATION,
} from './scenario-schema';
import { parseScenarioV1, type Scenario as ScenarioV1 } from './scenario-v1';

/** [m/s²] */
export const DEFAULT_GRAVITY: Vec3Spec = [0, 0, -9.81];
/** [s] */
export const DEFAULT_DT = 1 / 240;
/** Solver substeps per step when a scenario gives none. */
export const DEFAULT_SUBSTEPS = 4;
/** The material anything without one uses; always present in a parsed scenario. */
export const DEFAULT_MATERIAL_NAME = 'default';
/** The `default` material's values when a scenario does not define it. */
export const DEFAULT_MATERIAL: Required<MaterialSpec> = { friction: 0.8, restitution: 0, rollingResistance: 0 };

/** The built-in rover: v1's robot fields, its start pose, and what v2 adds (masses, torque, materials). */
export interface SkidSteerRobotEntry extends SkidSteerSpec {
  builtin: 'skid-steer';
  /** [m] chassis (x, y) at the start; z comes from the terrain. */
  position: [number, number];
  /** [rad] about +z */
  yaw: number;
  chassisMass: number;
  wheelMass: number;
  maxTorque: number;
  chassisMaterial: string;
  wheelMaterial: string;
}

/** A robot described by a URDF file (loaded by the caller, relative to the scenario file). */
export interface UrdfRobotEntry {
  urdf: string;
  position: [number, number];
  yaw: number;
  /** A full controller, a kind to infer ({ type, mode?, maxSpeed? }), or 'none'. */
  controller?: ControllerSpec | UrdfControllerChoice | 'none';
  /** [rad] or [m] Joints held at a position by servos (`robot.controller.hold`). */
  hold?: Record<string, number>;
  /** Values of the xacro file's arguments (the gatherer expands it with them). */
  xacroArgs?: Record<string, string | number | boolean>;
  selfCollide?: boolean;
  /** Link pairs (with selfCollide). */
  disableCollisions?: [string, string][];
  lumpFixedLinks?: boolean;
  /** [N·m] */
  motorTorque?: number;
  /** false: visual meshes are not read or drawn (collision shapes are). */
  visualMeshes?: boolean;
  /** Controller YAML: true (default: the package's config/), a file's path (relative to the scenario), or false (none). */
  controllerConfig?: boolean | string;
}

/** A URDF robot's controller picked by kind, parameters inferred (urdf-to-robot.ts ControllerChoice). */
export interface UrdfControllerChoice {
  type?: ControllerSpec['type'];
  /** [rad] The robot's forward direction in its base frame; default inferred. */
  forwardYaw?: number;
  mode?: 'turn' | 'crab';
  maxSpeed?: number;
}

/** The `robot` block of a scenario: the built-in skid-steer rover or a URDF robot. */
export type ScenarioRobotEntry = SkidSteerRobotEntry | UrdfRobotEntry;

/** A scenario's terrain: a sidecar file path (relative to the scenario) or inline heights. */
export type ScenarioTerrain = { file: string } | { inline: InlineTerrainSpec };

/**
 * Where the 3D view's camera starts (the file's `camera`, checked): a fixed view when `target`
 * is given (the camera looks at it from `distance`, `elevation`, `heading`, or from `position`),
 * else around the robot in `mode`. Angles in degrees as in the file; `heading` is the direction
 * the camera looks along, from +x toward +y (in chase mode: relative to the robot's heading).
 */
export interface ScenarioCamera {
  mode: 'chase' | 'orbit' | 'top';
  target?: [number, number, number];
  /** [m] */
  distance?: number;
  /** [°] above the horizon */
  elevation?: number;
  /** [°] */
  heading?: number;
}

/**
 * A validated scenario file (v1 files converted): its name, terrain, robot, script and world
 * description.
 */
export interface ParsedScenario {
  /** The file's format version (1 files are converted). */
  version: 1 | 2;
  name: string;
  terrain: ScenarioTerrain;
  /**
   * Everything but the robot's bodies (`world.robot` is undefined here; scenarioWorldSpec builds
   * it). Defaults filled: gravity, dt, substeps, sleep, ccd, every material's three
   * coefficients, "default" in `materials`, the terrain map's material and regions, body types.
   */
  world: WorldSpec;
  robot: ScenarioRobotEntry | undefined;
  /** The robot's start (the origin and yaw 0 without a robot). */
  start: { position: [number, number]; yaw: number };
  /** The same array as world.script. */
  script: ScriptCommandSpec[];
  /** The 3D view's starting camera, when the file names one. */
  camera?: ScenarioCamera;
}

function fail(lines: string[] | string): never {
  const list = typeof lines === 'string' ? [lines] : lines;
  throw new ScenarioError(`scenario: ${list.join('; ')}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function run<T>(r: { ok: true; value: T } | { ok: false; problems: string[] }): T {
  if (!r.ok) fail(r.problems);
  return r.value;
}

function fillMaterial(m: MaterialSpec | undefined): Required<MaterialSpec> {
  return {
    friction: m?.friction ?? DEFAULT_MATERIAL.friction,
    restitution: m?.restitution ?? DEFAULT_MATERIAL.restitution,
    rollingResistance: m?.rollingResistance ?? DEFAULT_MATERIAL.rollingResistance,
  };
}

function defaultWorld(name: string, dt: number, script: ScriptCommandSpec[]): WorldSpec {
  return {
    name,
    gravity: [...DEFAULT_GRAVITY],
    dt,
    substeps: DEFAULT_SUBSTEPS,
    sleep: true,
    ccd: true,
    materials: { [DEFAULT_MATERIAL_NAME]: fillMaterial(undefined) },
    terrainMaterials: { material: DEFAULT_MATERIAL_NAME, regions: [] },
    bodies: [],
    joints: [],
    script,
  };
}

/** The v2 skid-steer entry for a v1 robot at a v1 start (defaults for what v1 cannot say). */
function skidSteerEntry(robot: SkidSteerSpec, position: [number, number], yaw: number): SkidSteerRobotEntry {
  return {
    builtin: 'skid-steer',
    ...robot,
    chassisHalfExtents: [...robot.chassisHalfExtents],
    position: [position[0], position[1]],
    yaw,
    chassisMass: ROVER_CHASSIS_MASS,
    wheelMass: ROVER_WHEEL_MASS,
    maxTorque: ROVER_MAX_TORQUE,
    chassisMaterial: DEFAULT_MATERIAL_NAME,
    wheelMaterial: DEFAULT_MATERIAL_NAME,
  };
}

/** A version-1 scenario as a v2 result. */
export function scenarioFromV1(s: ScenarioV1): ParsedScenario {
  const script = s.script.map((c) => ({ t: c.t, throttle: c.throttle, steer: c.steer }));
  const start = { position: [s.start.position[0], s.start.position[1]] as [number, number], yaw: s.start.yaw };
  return {
    version: 1,
    name: s.name,
    terrain: { file: s.terrain },
    world: defaultWorld(s.name, s.dt, script),
    robot: skidSteerEntry(s.robot, start.position, start.yaw),
    start,
    script,
  };
}

/** Checks the leading "format" and "version" and returns the version. */
function readVersion(raw: unknown): 1 | 2 {
  if (!isObject(raw)) fail(`expected a JSON object, got ${describeValue(raw)}`);
  if (raw.format !== 'terrawheel-scenario') fail(`"format" must be "terrawheel-scenario", got ${describeValue(raw.format)}`);
  if (raw.version !== 1 && raw.version !== 2) fail(`"version" ${describeValue(raw.version)} is not supported (this build reads versions 1 and 2)`);
  return raw.version;
}

/**
 * Validates a scenario file's JSON (or a script's object of the same shape) and returns the
 * world data it describes. Throws ScenarioError, and nothing else, for any bad input.
 */
export function parseScenarioFile(raw: unknown): ParsedScenario {
  checkScenarioSize(raw);
  const version = readVersion(raw);
  if (version === 1) return scenarioFromV1(parseScenarioV1(raw));
  return parseV2(run(runSchema(scenarioV2Schema, raw, '')));
}

/**
 * Problems found while reading a v2 file: collected part by part and reported together (the
 * first five) once every part has been read, so one run shows most of what to fix.
 */
interface V2Problems {
  list: string[];
  /** Records a problem when material `m` is given but not defined. */
  needMaterial(m: string | undefined, path: string): void;
}

/**
 * A v2 file (already through its schema) as the world data it describes. Parts in file order:
 * terrain, materials, robot, bodies, joints, terrain material map, script; cross-references
 * (materials, body and joint names, sorted script times) are checked along the way.
 */
function parseV2(f: ScenarioV2Raw): ParsedScenario {
  const name = f.name ?? 'Untitled';
  const terrain: ScenarioTerrain =
    typeof f.terrain === 'string' || !isObject(f.terrain)
      ? { file: run(runSchema(terrainFileSchema, f.terrain, 'terrain')) }
      : { inline: run(runSchema(inlineTerrainSchema, f.terrain, 'terrain')) as InlineTerrainSpec };

  // Materials: every one filled, "default" always present.
  const materials: Record<string, MaterialSpec> = {};
  for (const [key, m] of Object.entries(f.materials ?? {})) materials[key] = fillMaterial(m);
  if (!Object.prototype.hasOwnProperty.call(materials, DEFAULT_MATERIAL_NAME)) materials[DEFAULT_MATERIAL_NAME] = fillMaterial(undefined);
  const problems: V2Problems = {
    list: [],
    needMaterial(m, path) {
      if (m !== undefined && !Object.prototype.hasOwnProperty.call(materials, m)) {
        this.list.push(`${path}: unknown material ${excerpt(m, 40)}; defined: ${Object.keys(materials).join(', ')}`);
      }
    },
  };

  const robot = f.robot === undefined ? undefined : parseRobotEntry(f.robot, problems);
  // The built-in rover's body names are known now: scenario bodies may not take them, joints may name them.
  const rover = robot && 'builtin' in robot ? roverNames(robot.name) : undefined;
  const { bodies, bodyIndex } = checkBodies(f.bodies ?? [], rover ? [rover.chassis, ...rover.wheels] : [], problems);
  const joints = checkJoints(f.joints ?? [], rover ? rover.joints : [], bodyIndex, problems);
  const terrainMaterials = checkTerrainMaterials(f.terrainMaterials ?? {}, problems);
  const script = checkScript(f.script ?? [], problems);
  const camera = f.camera === undefined ? undefined : checkCamera(f.camera, problems);

  const p = problems.list;
  if (p.length > 0) fail(p.length > 5 ? [...p.slice(0, 5), `… and ${p.length - 5} more`] : p);

  const world: WorldSpec = {
    name,
    gravity: f.gravity ?? [...DEFAULT_GRAVITY],
    dt: f.dt ?? DEFAULT_DT,
    substeps: f.substeps ?? DEFAULT_SUBSTEPS,
    sleep: f.sleep ?? true,
    ccd: f.ccd ?? true,
    materials,
    terrainMaterials,
    bodies,
    joints,
    script,
  };
  const start = robot ? { position: [robot.position[0], robot.position[1]] as [number, number], yaw: robot.yaw } : { position: [0, 0] as [number, number], yaw: 0 };
  const parsed: ParsedScenario = { version: 2, name, terrain, world, robot, start, script };
  if (camera) parsed.camera = camera;
  return parsed;
}

/**
 * The file's `camera` as a ScenarioCamera: `position` (with `target`) becomes distance,
 * elevation and heading; a position with no target, equal to it, or given with any of those
 * three, is a problem.
 */
function checkCamera(c: NonNullable<ScenarioV2Raw['camera']>, problems: V2Problems): ScenarioCamera | undefined {
  const out: ScenarioCamera = { mode: c.mode ?? (c.target ? 'orbit' : 'chase') };
  if (c.target) out.target = [c.target[0], c.target[1], c.target[2]];
  if (c.position) {
    if (!c.target) {
      problems.list.push('camera.position: needs camera.target (the point the camera looks at)');
      return undefined;
    }
    const given = (['distance', 'elevation', 'heading'] as const).filter((k) => c[k] !== undefined);
    if (given.length > 0) {
      problems.list.push(`camera.position: give either position or ${given.join(', ')}, not both`);
      return undefined;
    }
    const dx = c.target[0] - c.position[0], dy = c.target[1] - c.position[1], dz = c.target[2] - c.position[2];
    const d = Math.hypot(dx, dy, dz);
    if (!(d >= MIN_CAMERA_DISTANCE && d <= MAX_CAMERA_DISTANCE)) {
      problems.list.push(`camera.position: must be ${MIN_CAMERA_DISTANCE} to ${MAX_CAMERA_DISTANCE} m from camera.target, is ${d.toPrecision(3)} m`);
      return undefined;
    }
    const elevation = (Math.asin(-dz / d) * 180) / Math.PI;
    if (!(elevation >= MIN_CAMERA_ELEVATION && elevation <= MAX_CAMERA_ELEVATION)) {
      problems.list.push(`camera.position: must look down at camera.target from ${MIN_CAMERA_ELEVATION}° to ${MAX_CAMERA_ELEVATION}° above the horizon, looks from ${elevation.toFixed(1)}°`);
      return undefined;
    }
    out.distance = d;
    out.elevation = elevation;
    out.heading = (Math.atan2(dy, dx) * 180) / Math.PI;
    return out;
  }
  if (c.distance !== undefined) out.distance = c.distance;
  if (c.elevation !== undefined) out.elevation = c.elevation;
  if (c.heading !== undefined) out.heading = c.heading;
  return out;
}

/** A full controller spec, not a choice of kind ({ type?, mode?, maxSpeed?, forwardYaw? }) or 'none'. */
export function isFullControllerSpec(c: UrdfRobotEntry['controller']): c is ControllerSpec {
  return typeof c === 'object' && Object.keys(c).some((k) => k !== 'type' && k !== 'mode' && k !== 'maxSpeed' && k !== 'forwardYaw');
}

/**
 * A URDF robot's `controller`: a full spec (it has fields beyond type, mode, maxSpeed, forwardYaw and hold),
 * with an optional `hold`; or a choice of kind ("none": no drive), with an optional `hold`.
 */
function parseUrdfController(raw: unknown, entry: UrdfRobotEntry): void {
  const isObj = isObject(raw);
  const choiceKeys = ['type', 'mode', 'maxSpeed', 'forwardYaw', 'hold'];
  if (isObj && Object.keys(raw).every((k) => choiceKeys.includes(k))) {
    const c = run(runSchema(controllerChoiceSchema, raw, 'robot.controller'));
    if (c.hold !== undefined) entry.hold = c.hold;
    const frame = c.forwardYaw !== undefined ? { forwardYaw: c.forwardYaw } : {};
    if (c.type === 'none') {
      if (c.mode !== undefined || c.maxSpeed !== undefined || c.forwardYaw !== undefined) fail('robot.controller: "mode", "maxSpeed" and "forwardYaw" need a drive; "type": "none" has none');
      entry.controller = 'none';
    } else if (c.type !== undefined) {
      if (c.mode !== undefined && c.type !== 'all-wheel-steer') fail(`robot.controller.mode: only "all-wheel-steer" has modes, this controller is "${c.type}"`);
      entry.controller = { type: c.type, ...(c.mode !== undefined ? { mode: c.mode } : {}), ...(c.maxSpeed !== undefined ? { maxSpeed: c.maxSpeed } : {}), ...frame };
    } else if (c.forwardYaw !== undefined && c.mode === undefined && c.maxSpeed === undefined) {
      entry.controller = frame; // the kind inferred, in the given frame
    } else if (c.mode !== undefined || c.maxSpeed !== undefined) {
      fail('robot.controller: "mode" and "maxSpeed" need the controller\'s "type" (one of "skid-steer", "differential", "ackermann", "all-wheel-steer")');
    }
    return;
  }
  let full: unknown = raw;
  if (isObj && Object.prototype.hasOwnProperty.call(raw, 'hold')) {
    const { hold, ...rest } = raw as Record<string, unknown>;
    entry.hold = run(runSchema(holdSchema, hold, 'robot.controller.hold'));
    full = rest;
  }
  entry.controller = run(runSchema(controllerSchema, full, 'robot.controller')) as ControllerSpec;
}

/** The robot entry: a URDF file with its placement, or the built-in skid-steer rover with every size filled from DEFAULT_ROBOT. */
function parseRobotEntry(raw: Exclude<ScenarioV2Raw['robot'], undefined>, problems: V2Problems): ScenarioRobotEntry {
  if (isObject(raw) && Object.prototype.hasOwnProperty.call(raw, 'urdf')) {
    const u = run(runSchema(urdfRobotSchema, raw, 'robot'));
    const entry: UrdfRobotEntry = { urdf: u.urdf, position: u.position ?? [0, 0], yaw: u.yaw ?? 0 };
    if (u.controller !== undefined) parseUrdfController(u.controller, entry);
    if (u.xacroArgs !== undefined) entry.xacroArgs = u.xacroArgs;
    if (u.selfCollide !== undefined) entry.selfCollide = u.selfCollide;
    if (u.disableCollisions !== undefined) entry.disableCollisions = u.disableCollisions.map((p) => [p[0], p[1]]);
    if (u.lumpFixedLinks !== undefined) entry.lumpFixedLinks = u.lumpFixedLinks;
    if (u.motorTorque !== undefined) entry.motorTorque = u.motorTorque;
    if (u.visualMeshes !== undefined) entry.visualMeshes = u.visualMeshes;
    if (u.controllerConfig !== undefined) entry.controllerConfig = u.controllerConfig;
    return entry;
  }
  if (isObject(raw) && !Object.prototype.hasOwnProperty.call(raw, 'type')) {
    fail('robot: give "type": "skid-steer" (the built-in rover) or "urdf": the path of a URDF file');
  }
  const r = run(runSchema(skidSteerRobotSchema, raw, 'robot'));
  const d = DEFAULT_ROBOT;
  const robot: ScenarioRobotEntry = {
    builtin: 'skid-steer',
    name: r.name ?? d.name,
    chassisHalfExtents: r.chassisHalfExtents ?? [...d.chassisHalfExtents],
    wheelRadius: r.wheelRadius ?? d.wheelRadius,
    wheelWidth: r.wheelWidth ?? d.wheelWidth,
    wheelbase: r.wheelbase ?? d.wheelbase,
    track: r.track ?? d.track,
    wheelDrop: r.wheelDrop ?? d.wheelDrop,
    maxSpeed: r.maxSpeed ?? d.maxSpeed,
    maxYawRate: r.maxYawRate ?? d.maxYawRate,
    maxAccel: r.maxAccel ?? d.maxAccel,
    maxYawAccel: r.maxYawAccel ?? d.maxYawAccel,
    position: r.position ?? [0, 0],
    yaw: r.yaw ?? 0,
    chassisMass: r.chassisMass ?? ROVER_CHASSIS_MASS,
    wheelMass: r.wheelMass ?? ROVER_WHEEL_MASS,
    maxTorque: r.maxTorque ?? ROVER_MAX_TORQUE,
    chassisMaterial: r.chassisMaterial ?? DEFAULT_MATERIAL_NAME,
    wheelMaterial: r.wheelMaterial ?? DEFAULT_MATERIAL_NAME,
  };
  problems.needMaterial(r.chassisMaterial, 'robot.chassisMaterial');
  problems.needMaterial(r.wheelMaterial, 'robot.wheelMaterial');
  return robot;
}

/**
 * The scenario's bodies (type defaulted to dynamic): unique names (also against the robot's
 * bodies), mass or density as the type needs, known materials. bodyIndex maps each name to its
 * index (−1 for the robot's bodies).
 */
function checkBodies(raw: readonly BodyRaw[], robotBodies: readonly string[], problems: V2Problems): { bodies: BodySpec[]; bodyIndex: Map<string, number> } {
  const bodies: BodySpec[] = [];
  const bodyIndex = new Map<string, number>();
  for (const n of robotBodies) bodyIndex.set(n, -1);
  raw.forEach((b, i) => {
    const path = `bodies[${i}]`;
    const prev = bodyIndex.get(b.name);
    if (prev !== undefined) {
      problems.list.push(`${path}.name: ${excerpt(b.name, 40)} is already ${prev < 0 ? "the robot's body" : `the name of bodies[${prev}]`}; names must be unique`);
    } else bodyIndex.set(b.name, i);
    const type = b.type ?? 'dynamic';
    if (b.mass !== undefined && b.density !== undefined) problems.list.push(`${path}: give "mass" or "density", not both`);
    if (type === 'dynamic' && b.mass === undefined && b.density === undefined) problems.list.push(`${path}: a dynamic body needs "mass" [kg] or "density" [kg/m³]`);
    if (b.inertia !== undefined && b.mass === undefined) problems.list.push(`${path}.inertia: needs "mass"`);
    problems.needMaterial(b.material, `${path}.material`);
    bodies.push({ ...(b as BodySpec), type });
  });
  return { bodies, bodyIndex };
}

/** The scenario's joints: unique names (also against the robot's joints), bodies that exist and differ. */
function checkJoints(raw: readonly JointRaw[], robotJoints: readonly string[], bodyIndex: ReadonlyMap<string, number>, problems: V2Problems): JointSpec[] {
  const joints: JointSpec[] = [];
  const jointIndex = new Map<string, number>();
  for (const n of robotJoints) jointIndex.set(n, -1);
  raw.forEach((j, i) => {
    const path = `joints[${i}]`;
    const prev = jointIndex.get(j.name);
    if (prev !== undefined) {
      problems.list.push(`${path}.name: ${excerpt(j.name, 40)} is already ${prev < 0 ? "the robot's joint" : `the name of joints[${prev}]`}; names must be unique`);
    } else jointIndex.set(j.name, i);
    for (const side of ['bodyA', 'bodyB'] as const) {
      const b = j[side];
      if (b !== undefined && !bodyIndex.has(b)) {
        problems.list.push(`${path}.${side}: no body is named ${excerpt(b, 40)}`);
      }
    }
    if (j.bodyA !== undefined && j.bodyA === j.bodyB) problems.list.push(`${path}: bodyA and bodyB are the same body`);
    joints.push(j as JointSpec);
  });
  return joints;
}

/** The terrain material map: known materials, rectangles with min below max. */
function checkTerrainMaterials(tm: NonNullable<ScenarioV2Raw['terrainMaterials']>, problems: V2Problems): TerrainMaterialMapSpec {
  problems.needMaterial(tm.material, 'terrainMaterials.material');
  (tm.regions ?? []).forEach((r, i) => {
    problems.needMaterial(r.material, `terrainMaterials.regions[${i}].material`);
    if (r.shape === 'rect' && !(r.min[0] < r.max[0] && r.min[1] < r.max[1])) {
      problems.list.push(`terrainMaterials.regions[${i}]: "min" must be below "max" in x and y`);
    }
  });
  return { material: tm.material ?? DEFAULT_MATERIAL_NAME, regions: (tm.regions ?? []) as TerrainMaterialMapSpec['regions'] };
}

/** The drive script, sorted by time, throttle and steer defaulted to 0. */
function checkScript(raw: NonNullable<ScenarioV2Raw['script']>, problems: V2Problems): ScriptCommandSpec[] {
  const script: ScriptCommandSpec[] = [];
  raw.forEach((c, i) => {
    if (i > 0 && c.t < script[i - 1].t) problems.list.push(`script[${i}].t: ${c.t} is earlier than the command before it (${script[i - 1].t}); commands must be sorted by t`);
    script.push({ t: c.t, throttle: c.throttle ?? 0, steer: c.steer ?? 0 });
  });
  return script;
}

/**
 * What `scenarioWorldSpec` needs from outside the scenario: the terrain height for placing the
 * rover, a loaded URDF robot.
 */
export interface ScenarioWorldOptions {
  /** The terrain's height [m] at (x, y): places the built-in rover's wheels just above it. */
  heightAt?: (x: number, y: number) => number;
  /** The robot a URDF entry names, loaded and placed by the caller. */
  urdfRobot?: WorldRobotSpec;
}

/**
 * The world a parsed scenario describes, with its robot built: the built-in rover through
 * buildSkidSteerRover (at the start pose, wheels ROVER_START_CLEARANCE above `heightAt`), a URDF
 * robot as passed in `urdfRobot`. Throws ScenarioError when a URDF robot is not supplied or when
 * the robot's names collide with the scenario's bodies or joints.
 */
export function scenarioWorldSpec(parsed: ParsedScenario, opts: ScenarioWorldOptions = {}): WorldSpec {
  const world: WorldSpec = { ...parsed.world };
  const entry = parsed.robot;
  if (entry === undefined) return world;
  let robot: WorldRobotSpec;
  if ('builtin' in entry) {
    try {
      robot = buildSkidSteerRover(entry, { position: [entry.position[0], entry.position[1], 0], yaw: entry.yaw }, opts.heightAt);
    } catch (e) {
      fail(`robot: ${(e as Error).message}`);
    }
  } else {
    if (!opts.urdfRobot) fail(`robot: the URDF robot ${excerpt(entry.urdf, 80)} must be loaded by the caller and passed as urdfRobot`);
    // a full controller spec replaces the one the robot was loaded with (a kind or a hold was
    // applied when it was loaded)
    robot = isFullControllerSpec(entry.controller) ? { ...opts.urdfRobot, controller: entry.controller } : opts.urdfRobot;
  }
  const bodyNames = new Set(parsed.world.bodies.map((b) => b.name));
  const jointNames = new Set(parsed.world.joints.map((j) => j.name));
  for (const b of robot.bodies) if (bodyNames.has(b.name)) fail(`robot: body ${excerpt(b.name, 40)} has the name of a scenario body`);
  for (const j of robot.joints) if (jointNames.has(j.name)) fail(`robot: joint ${excerpt(j.name, 40)} has the name of a scenario joint`);
  world.robot = robot;
  return world;
}
