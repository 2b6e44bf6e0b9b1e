/**
 * Scenario files, format version 1 (still read; sim/scenario/scenario-v2.ts converts them to v2):
 * which terrain, which robot, where it starts, the fixed step, and an optional
 * script of drive commands for headless runs. JSON, validated here with messages that name the
 * field, so a bad file is rejected with a reason and never half-loads.
 *
 * {
 *   "format": "terrawheel-scenario", "version": 1,
 *   "name": "Rolling hills",
 *   "terrain": "../terrains/hills.json",          // sidecar path, relative to this file
 *   "robot": { ...RobotSpec, see sim/robot/skid-steer.ts },
 *   "start": { "position": [x, y], "yaw": 0 },    // metres, radians (yaw about +z)
 *   "dt": 0.005,                                  // seconds per fixed step
 *   "script": [ { "t": 0, "throttle": 0.6, "steer": 0 }, ... ]  // optional, sorted by t
 * }
 */
import { parseRobotSpec, type RobotSpec } from '../robot/skid-steer';
import { describeValue, ScenarioError } from './scenario-guard';

export { ScenarioError };

/** A drive command of a v1 script, in effect from time `t`. */
export interface ScriptCommand {
  /** [s] Simulated time at which this command takes effect. */
  t: number;
  throttle: number;
  steer: number;
}

/** A version 1 scenario: terrain file, the built-in rover, start pose and drive script. */
export interface Scenario {
  name: string;
  terrain: string;
  robot: RobotSpec;
  start: { position: [number, number]; yaw: number };
  dt: number;
  script: ScriptCommand[];
}

/** Smallest and largest fixed step accepted [s]. */
export const MIN_DT = 1e-4;
export const MAX_DT = 0.05;
export const MAX_SCRIPT_COMMANDS = 100_000;
/** [s] v1's fixed step when a file gives none. */
export const V1_DEFAULT_DT = 0.005;

function fail(msg: string): never {
  throw new ScenarioError(`scenario: ${msg}`);
}

function num(v: unknown, name: string, lo = -Infinity, hi = Infinity): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`"${name}" must be a finite number, got ${describeValue(v)}`);
  if (v < lo || v > hi) fail(`"${name}" must be between ${lo} and ${hi}, got ${v}`);
  return v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates a version-1 scenario. Call checkScenarioSize(raw) first when `raw` is untrusted
 * (sim/scenario/scenario.ts and sim/scenario/scenario-v2.ts do).
 */
export function parseScenarioV1(raw: unknown): Scenario {
  if (!isObject(raw)) fail('expected a JSON object');
  if (raw.format !== 'terrawheel-scenario') fail(`"format" must be "terrawheel-scenario", got ${describeValue(raw.format)}`);
  if (raw.version !== 1) fail(`"version" ${describeValue(raw.version)} is not supported here (version 1 expected)`);
  const name = raw.name === undefined ? 'Untitled' : raw.name;
  if (typeof name !== 'string' || name.length > 200) fail('"name" must be a string of at most 200 characters');
  if (typeof raw.terrain !== 'string' || raw.terrain.length === 0 || raw.terrain.length > 1024) {
    fail('"terrain" must be the path of a terrain sidecar JSON, relative to the scenario file');
  }
  let robot: RobotSpec;
  try {
    robot = parseRobotSpec(raw.robot);
  } catch (e) {
    fail((e as Error).message);
  }
  const start = raw.start ?? { position: [0, 0], yaw: 0 };
  if (!isObject(start)) fail('"start" must be an object { position: [x, y], yaw }');
  const pos = start.position;
  if (!Array.isArray(pos) || pos.length !== 2) fail('"start.position" must be [x, y] in metres');
  const position: [number, number] = [num(pos[0], 'start.position[0]'), num(pos[1], 'start.position[1]')];
  const yaw = num(start.yaw ?? 0, 'start.yaw', -100, 100);
  const dt = num(raw.dt ?? V1_DEFAULT_DT, 'dt', MIN_DT, MAX_DT);
  const script: ScriptCommand[] = [];
  if (raw.script !== undefined) {
    if (!Array.isArray(raw.script)) fail('"script" must be an array of { t, throttle, steer }');
    if (raw.script.length > MAX_SCRIPT_COMMANDS) fail(`"script" has ${raw.script.length} commands; at most ${MAX_SCRIPT_COMMANDS}`);
    let last = -Infinity;
    raw.script.forEach((c: unknown, k: number) => {
      if (!isObject(c)) fail(`script[${k}] must be an object { t, throttle, steer }`);
      const t = num(c.t, `script[${k}].t`, 0);
      if (t < last) fail(`script[${k}].t = ${t} is earlier than the command before it; commands must be sorted by t`);
      last = t;
      script.push({ t, throttle: num(c.throttle ?? 0, `script[${k}].throttle`, -1, 1), steer: num(c.steer ?? 0, `script[${k}].steer`, -1, 1) });
    });
  }
  return { name, terrain: raw.terrain, robot, start: { position, yaw }, dt, script };
}
