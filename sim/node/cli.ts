/**
 * Headless runner: `npm run sim -- <scenario.json> [--duration s] [--throttle t] [--steer s] [--json]`
 *
 * Loads the scenario and its terrain from disk, steps the world in this process (no worker, no
 * DOM), and prints a summary: what was simulated, how fast, where the robot ended, what the
 * wheels touched, and the state hash (same build + same inputs ⇒ same hash).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { contactKindName } from '../dynamics/plain-world';
import type { ScenarioFiles } from '../protocol';
import { parseUrdf } from '../robot/urdf/parse-urdf';
import { urdfReferencedFiles } from '../robot/urdf/load-urdf';
import { parseScenarioFile } from '../scenario-v2';
import { createDefaultService, terrainDataFileName } from '../default-service';
import type { SimWorld } from '../sim-world';
import { boundingRadius, frameWarnings, worldWarnings } from '../warnings';

/** Steps between two checks of the per-frame warnings (fast bodies, off the map). */
const WARNING_CHECK_STEPS = 24;

interface CliOptions {
  scenarioPath: string;
  duration: number;
  throttle: number | null;
  steer: number | null;
  json: boolean;
}

const USAGE = 'usage: npm run sim -- <scenario.json> [--duration <seconds>] [--throttle <-1..1>] [--steer <-1..1>] [--json]';

export function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = { scenarioPath: '', duration: 5, throttle: null, steer: null, json: false };
  const num = (flag: string, v: string | undefined, lo: number, hi: number): number => {
    const x = Number(v);
    if (v === undefined || !Number.isFinite(x) || x < lo || x > hi) throw new Error(`${flag} needs a number from ${lo} to ${hi}, got ${v ?? 'nothing'}\n${USAGE}`);
    return x;
  };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--duration') opts.duration = num(a, argv[++k], 0, 86400);
    else if (a === '--throttle') opts.throttle = num(a, argv[++k], -1, 1);
    else if (a === '--steer') opts.steer = num(a, argv[++k], -1, 1);
    else if (a === '--json') opts.json = true;
    else if (a === '--help' || a === '-h') throw new Error(USAGE);
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else if (opts.scenarioPath === '') opts.scenarioPath = a;
    else throw new Error(`unexpected argument ${a}\n${USAGE}`);
  }
  if (opts.scenarioPath === '') throw new Error(`no scenario file given\n${USAGE}`);
  return opts;
}

function readOrExplain(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new Error(`cannot read ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function parseJson(bytes: Buffer, what: string, path: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new Error(`${what} ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

export interface RunSummary {
  scenario: string;
  terrain: { cols: number; rows: number; dx: number; dy: number };
  bodies: number;
  joints: number;
  steps: number;
  simSeconds: number;
  wallSeconds: number;
  stepsPerSecond: number;
  realtimeFactor: number;
  /** The robot's base (or body 0). */
  final: { body: string; x: number; y: number; z: number; yawDeg: number; speed: number };
  distance: number;
  contactsPerStep: number;
  maxDepth: number;
  contactKinds: Record<string, number>;
  fault: string | null;
  /** Terrain too coarse for a wheel, bodies moving more than their size per step, off the map. */
  warnings: string[];
  stateHash: string;
}

/** Reads the files a scenario needs (terrain sidecar and data, URDF and its meshes) relative to it. */
export function readScenarioFiles(scenarioPath: string): ScenarioFiles {
  const scenarioJson = parseJson(readOrExplain(scenarioPath, 'scenario'), 'scenario', scenarioPath);
  const parsed = parseScenarioFile(scenarioJson);
  const dir = dirname(scenarioPath);
  const files: ScenarioFiles = { scenario: scenarioJson, terrainSidecar: null, terrainData: new Uint8Array(0) };
  if ('file' in parsed.terrain) {
    const sidecarPath = resolve(dir, parsed.terrain.file);
    files.terrainSidecar = parseJson(readOrExplain(sidecarPath, 'terrain sidecar'), 'terrain sidecar', sidecarPath);
    const dataPath = resolve(dirname(sidecarPath), terrainDataFileName(files.terrainSidecar));
    files.terrainData = new Uint8Array(readOrExplain(dataPath, 'terrain data'));
  }
  if (parsed.robot !== undefined && 'urdf' in parsed.robot) {
    const urdfPath = resolve(dir, parsed.robot.urdf);
    files.robotUrdf = readOrExplain(urdfPath, 'robot URDF').toString('utf8');
    files.robotMeshes = {};
    for (const ref of urdfReferencedFiles(parseUrdf(files.robotUrdf), parsed.robot.urdf)) {
      if (ref.role !== 'collision') continue;
      files.robotMeshes[ref.path] = new Uint8Array(readOrExplain(resolve(dir, ref.path), `mesh of link "${ref.link}"`));
    }
  }
  return files;
}

export async function runScenarioFile(opts: CliOptions): Promise<RunSummary> {
  const scenarioPath = resolve(opts.scenarioPath);
  const service = createDefaultService();
  await service.load(readScenarioFiles(scenarioPath));
  const world = service.getWorld() as SimWorld;
  if (opts.throttle !== null || opts.steer !== null) world.setDrive({ throttle: opts.throttle ?? 0, steer: opts.steer ?? 0 });
  const engine = world.engine;
  const base = Math.max(0, engine.spec.robot ? engine.bodies.indexOf(engine.spec.robot.base) : 0);
  const steps = Math.round(opts.duration / world.dt);
  const kinds: Record<string, number> = {};
  let contacts = 0;
  let maxDepth = 0;
  let distance = 0;
  const o: [number, number, number] = [0, 0, 0];
  engine.bodies.originOf(o, base);
  let px = o[0], py = o[1], pz = o[2];
  const info = world.info();
  const warnings = new Set(worldWarnings(info));
  const sizes = info.bodies.map((b) => boundingRadius(b.shape));
  const t0 = performance.now();
  let done = 0;
  for (; done < steps && engine.fault === null; done++) {
    world.step(1);
    if (done % WARNING_CHECK_STEPS === 0) {
      const f = engine.frame();
      for (const w of frameWarnings(info, Float32Array.from(f.poses), Float32Array.from(f.velocities), sizes)) warnings.add(w.replace(/ moves [0-9.]+ m per step/, ' moves more than its size per step').replace(/left the terrain at .*/, 'left the terrain'));
    }
    const c = engine.contacts;
    contacts += c.count;
    for (let q = 0; q < c.count; q++) {
      const name = contactKindName(c.kind[q]);
      kinds[name] = (kinds[name] ?? 0) + 1;
      if (c.depth[q] > maxDepth) maxDepth = c.depth[q];
    }
    engine.bodies.originOf(o, base);
    distance += Math.hypot(o[0] - px, o[1] - py, o[2] - pz);
    px = o[0]; py = o[1]; pz = o[2];
  }
  const wall = (performance.now() - t0) / 1000;
  const q = engine.bodies.rot.subarray(4 * base, 4 * base + 4);
  const yaw = Math.atan2(2 * (q[3] * q[2] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
  const summary: RunSummary = {
    scenario: world.name,
    terrain: { cols: world.terrain.cols, rows: world.terrain.rows, dx: world.terrain.dx, dy: world.terrain.dy },
    bodies: engine.bodies.count,
    joints: engine.joints.count,
    steps: done,
    simSeconds: done * world.dt,
    wallSeconds: wall,
    stepsPerSecond: wall > 0 ? done / wall : Infinity,
    realtimeFactor: wall > 0 ? (done * world.dt) / wall : Infinity,
    final: { body: engine.bodies.names[base], x: o[0], y: o[1], z: o[2], yawDeg: (yaw * 180) / Math.PI, speed: world.speed() },
    distance,
    contactsPerStep: done > 0 ? contacts / done : 0,
    maxDepth,
    contactKinds: kinds,
    fault: world.fault,
    warnings: [...warnings],
    stateHash: engine.stateHash(),
  };
  service.dispose();
  return summary;
}

export function formatSummary(r: RunSummary): string {
  const f = (v: number, d = 3) => v.toFixed(d);
  const kinds = Object.entries(r.contactKinds).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  return [
    `scenario      ${r.scenario}`,
    `terrain       ${r.terrain.cols} x ${r.terrain.rows} vertices, ${r.terrain.dx} x ${r.terrain.dy} m cells`,
    `simulated     ${f(r.simSeconds, 2)} s in ${r.steps} steps (wall ${f(r.wallSeconds, 3)} s, ${Math.round(r.stepsPerSecond)} steps/s, ${f(r.realtimeFactor, 1)}x real time)`,
    `world         ${r.bodies} bodies, ${r.joints} joints`,
    `final pose    ${r.final.body}: x ${f(r.final.x)} m, y ${f(r.final.y)} m, z ${f(r.final.z)} m, yaw ${f(r.final.yawDeg, 1)} deg, speed ${f(r.final.speed, 2)} m/s`,
    `travelled     ${f(r.distance)} m`,
    `contacts      ${f(r.contactsPerStep, 2)} per step, max depth ${f(r.maxDepth * 1000, 2)} mm (${kinds})`,
    ...(r.fault ? [`FAULT         ${r.fault}`] : []),
    ...r.warnings.map((w) => `warning       ${w}`),
    `state hash    ${r.stateHash}`,
  ].join('\n');
}

async function main(): Promise<void> {
  let opts: CliOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  try {
    const summary = await runScenarioFile(opts);
    console.log(opts.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
  } catch (e) {
    console.error(`sim: ${(e as Error).message}`);
    process.exit(1);
  }
}

const invokedDirectly = typeof process !== 'undefined' && process.argv[1] !== undefined && /cli\.(ts|js|mjs)$/.test(process.argv[1]);
if (invokedDirectly) void main();
