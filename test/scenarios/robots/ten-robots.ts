/**
 * Issue #27's ten-robot check, run as the independent checker runs it: an unmodified public
 * description (test/fixtures/robots/<name>/, each with its SOURCE.md and licence), a scenario file
 * whose `robot.urdf` names it (flat ground or the bundled hills), the scenario's files read from
 * disk as the CLI reads them (readScenarioFilesAsync: xacro expanded, collision meshes read) and
 * the world built as worldFromScenarioFiles builds it. Used by ten-robots.test.ts (the criteria)
 * and the `robots` benchmark (× real time through the CLI).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlainWorld } from '../../../sim/dynamics/plain-world';
import { CONTACT_KIND_CONVEX_TERRAIN } from '../../../sim/dynamics/frame-layout';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { buildScenarioWorld } from '../../../sim/scenario/build-world';
import { parseScenarioFile } from '../../../sim/scenario/scenario-v2';
import { loadScenarioUrdfRobot } from '../../../sim/scenario/scenario-robot';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';
import { FIXTURES, wrap } from './ros-harness';
import { osrWithStandIns } from './osr-stand-ins';

const HERE = fileURLToPath(new URL('.', import.meta.url));

const ROOT = join(HERE, '../../..');

export interface CheckRobot {
  name: string;
  /** The robot file: a path under test/fixtures/robots, or a function returning an absolute path. */
  urdf: string | (() => string);
  /** Extra scenario `robot` fields (none for the ten: the file as shipped). */
  robot?: Record<string, unknown>;
}

export const TEN_ROBOTS: CheckRobot[] = [
  { name: 'Clearpath Husky', urdf: 'husky/husky_description/urdf/husky.urdf.xacro' },
  { name: 'TurtleBot3 Burger', urdf: 'turtlebot3/turtlebot3_description/urdf/turtlebot3_burger.urdf' },
  { name: 'Leo rover', urdf: 'leo/leo_description/urdf/leo.urdf.xacro' },
  { name: 'JPL Open Source Rover', urdf: () => join(osrWithStandIns(), 'osr_gazebo/urdf/osr.urdf.xacro') },
  { name: 'Clearpath Jackal', urdf: 'jackal/jackal_description/urdf/jackal.urdf.xacro' },
  { name: 'Clearpath Dingo-D', urdf: 'dingo/dingo_description/urdf/dingo.urdf.xacro' },
  { name: 'Clearpath Ridgeback', urdf: 'ridgeback/ridgeback_description/urdf/ridgeback.urdf.xacro' },
  { name: 'Clearpath Warthog', urdf: 'warthog/warthog_description/urdf/warthog.urdf.xacro' },
  { name: 'MiR100', urdf: 'mir/mir_description/urdf/mir.urdf.xacro' },
  { name: 'Pioneer 3-AT', urdf: 'pioneer3at/p2os_urdf/defs/pioneer3at.xacro' },
  { name: 'Husarion ROSbot', urdf: 'rosbot/rosbot_description/urdf/rosbot.urdf.xacro' },
];

export type CheckTerrain = 'flat' | 'hills';

let scratch: string | null = null;
function scratchDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'tw-ten-robots-'));
  return scratch;
}

/** Flat ground for the check: 16 m × 16 m at 0.1 m, inline. */
function flatTerrain() {
  const n = 161;
  return { cols: n, rows: n, dx: 0.1, dy: 0.1, x0: -8, y0: -8, heights: new Array(n * n).fill(0) };
}

/** Writes the check's scenario file for `robot` on `terrain` (a temporary file); returns its path. */
export function writeCheckScenario(robot: CheckRobot, terrain: CheckTerrain): string {
  const urdf = typeof robot.urdf === 'string' ? join(FIXTURES, robot.urdf) : robot.urdf();
  const scenario = {
    format: 'terrawheel-scenario', version: 2, name: `${robot.name} on ${terrain === 'flat' ? 'flat ground' : 'the hills'}`,
    terrain: terrain === 'flat' ? flatTerrain() : join(ROOT, 'assets/terrains/hills.json'),
    robot: { urdf, position: terrain === 'flat' ? [-4, 0] : [-5, 3], yaw: 0, ...robot.robot },
    dt: 1 / 240, substeps: 4,
    script: [{ t: 0, throttle: 0, steer: 0 }, { t: 1, throttle: 0.5, steer: 0 }, { t: 6, throttle: 0, steer: 1 }],
  };
  const path = join(scratchDir(), `${robot.name.replace(/\W+/g, '-')}-${terrain}.json`);
  writeFileSync(path, JSON.stringify(scenario));
  return path;
}

export interface CheckResult {
  fault: string | null;
  /** [m] drop of the base over the 1-s settle. */
  settleDrop: number;
  /** [deg] heading change over 5 s at throttle 0.5. */
  headingChange: number;
  /** [m] distance driven in those 5 s. */
  driven: number;
  /** [deg] heading change over 2 s at steer 1. */
  turned: number;
  /** Wheel–terrain contacts (depth ≥ 0) by kind: the paper's classified ones and general ones. */
  classified: number;
  general: number;
  /** [m] deepest contact after the settle. */
  deepest: number;
  wheels: string[];
  warnings: string[];
}

/**
 * Runs the check: reads the scenario's files as the CLI does, builds the world, settles 1 s,
 * drives straight 5 s (throttle 0.5), turns 2 s (steer 1), counting contacts after each step.
 */
export async function runCheck(scenarioPath: string): Promise<CheckResult> {
  const files = await readScenarioFilesAsync(scenarioPath);
  const parsed = parseScenarioFile(files.scenario);
  const t = 'inline' in parsed.terrain ? parsed.terrain.inline : null;
  const terrain = t
    ? (await import('../../../sim/terrain/heightfield')).Heightfield.fromArray({ cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0 ?? 0, y0: t.y0 ?? 0, heights: Float64Array.from(t.heights) })
    : decodeTerrain(files.terrainSidecar, files.terrainData);
  const spec = loadScenarioUrdfRobot(parsed, files, terrain);
  const world = new PlainWorld(buildScenarioWorld(parsed, terrain, spec).engine);
  // the wheels: bodies the loader made analytic wheels, and any body on a continuous joint named
  // "…wheel…" it did not (those count against the classified share)
  const meshes = files.robotMeshes ?? {};
  const entry = parsed.robot as { urdf: string };
  const loaded = loadUrdfRobot(files.robotUrdf as string, { urdfPath: entry.urdf, meshes: (p) => meshes[p] ?? meshes[p.split('/').pop() ?? p], controller: 'infer' });
  const wheelNames = new Set(loaded.wheels.map((w) => w.body));
  for (const j of spec.joints) if (j.type === 'revolute' && !j.limits && /wheel/i.test(`${j.name} ${j.bodyB}`) && !/caster_rotation|swivel/i.test(j.name)) wheelNames.add(j.bodyB);
  const w = world.engine;
  const wheelIdx = new Set([...wheelNames].map((n) => w.bodies.indexOf(n)));
  const base = w.bodies.indexOf(spec.base);
  const yawOf = (): number => {
    const q = w.bodies.rot.subarray(4 * base, 4 * base + 4);
    return Math.atan2(2 * (q[3] * q[2] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
  };
  let classified = 0, general = 0, deepest = 0;
  const tally = (): void => {
    const c = w.contacts;
    for (let i = 0; i < c.count; i++) {
      if (c.depth[i] > deepest) deepest = c.depth[i];
      if (c.bodyB[i] !== -1 || c.depth[i] < 0 || !wheelIdx.has(c.bodyA[i])) continue;
      if (c.kind[i] === CONTACT_KIND_CONVEX_TERRAIN) general++;
      else classified++;
    }
  };
  const steps = (n: number): void => {
    for (let k = 0; k < n && !w.fault; k++) {
      w.step(1);
      tally();
    }
  };
  const z0 = w.bodies.pos[3 * base + 2];
  steps(240);
  const settleDrop = z0 - w.bodies.pos[3 * base + 2];
  deepest = 0;
  const y0 = yawOf();
  const p0 = [w.bodies.pos[3 * base], w.bodies.pos[3 * base + 1]];
  w.setDrive(0.5, 0);
  steps(240 * 5);
  const headingChange = Math.abs(wrap(yawOf() - y0)) * 180 / Math.PI;
  const driven = Math.hypot(w.bodies.pos[3 * base] - p0[0], w.bodies.pos[3 * base + 1] - p0[1]);
  const y1 = yawOf();
  w.setDrive(0, 1);
  steps(240 * 2);
  const turned = Math.abs(wrap(yawOf() - y1)) * 180 / Math.PI;
  const fault = w.fault ? `${(w.fault as { message?: string }).message ?? JSON.stringify(w.fault)}` : null;
  return { fault, settleDrop, headingChange, driven, turned, classified, general, deepest, wheels: [...wheelNames], warnings: loaded.warnings };
}
