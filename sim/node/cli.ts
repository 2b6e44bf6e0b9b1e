/**
 * Headless runner: `npm run sim -- <scenario.json> [--duration s] [--throttle t] [--steer s] [--json]`
 *
 * Loads the scenario and its terrain from disk, steps the world in this process (no worker, no
 * DOM), and prints a summary: what was simulated, how fast, where the robot ended, what the
 * wheels touched, and the state hash (same build + same inputs ⇒ same hash).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { WHEEL_CONTACT_KIND_NAMES } from '../collision/contact';
import { parseScenario } from '../scenario';
import { terrainDataFileName } from '../default-service';
import { createDefaultService } from '../default-service';
import type { World } from '../world';

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
  steps: number;
  simSeconds: number;
  wallSeconds: number;
  stepsPerSecond: number;
  realtimeFactor: number;
  final: { x: number; y: number; z: number; yawDeg: number; speed: number };
  distance: number;
  contactsPerStep: number;
  maxDepth: number;
  contactKinds: Record<string, number>;
  stateHash: string;
}

export async function runScenarioFile(opts: CliOptions): Promise<RunSummary> {
  const scenarioPath = resolve(opts.scenarioPath);
  const scenarioJson = parseJson(readOrExplain(scenarioPath, 'scenario'), 'scenario', scenarioPath);
  const scenario = parseScenario(scenarioJson);
  const sidecarPath = resolve(dirname(scenarioPath), scenario.terrain);
  const sidecar = parseJson(readOrExplain(sidecarPath, 'terrain sidecar'), 'terrain sidecar', sidecarPath);
  const dataPath = resolve(dirname(sidecarPath), terrainDataFileName(sidecar));
  const data = new Uint8Array(readOrExplain(dataPath, 'terrain data'));

  const service = createDefaultService();
  await service.load({ scenario: scenarioJson, terrainSidecar: sidecar, terrainData: data });
  const world = service.getWorld() as World;
  if (opts.throttle !== null || opts.steer !== null) world.setDrive({ throttle: opts.throttle ?? 0, steer: opts.steer ?? 0 });

  const steps = Math.round(opts.duration / world.dt);
  const kinds: Record<string, number> = {};
  let contacts = 0;
  let maxDepth = 0;
  let distance = 0;
  let px = world.state.x, py = world.state.y, pz = world.state.z;
  const t0 = performance.now();
  for (let k = 0; k < steps; k++) {
    world.step(1);
    const c = world.contacts;
    contacts += c.count;
    for (let q = 0; q < c.count; q++) {
      const name = WHEEL_CONTACT_KIND_NAMES[c.kind[q]] ?? String(c.kind[q]);
      kinds[name] = (kinds[name] ?? 0) + 1;
      if (c.depth[q] > maxDepth) maxDepth = c.depth[q];
    }
    const s = world.state;
    distance += Math.hypot(s.x - px, s.y - py, s.z - pz);
    px = s.x; py = s.y; pz = s.z;
  }
  const wall = (performance.now() - t0) / 1000;
  const s = world.state;
  service.dispose();
  return {
    scenario: scenario.name,
    terrain: { cols: world.terrain.cols, rows: world.terrain.rows, dx: world.terrain.dx, dy: world.terrain.dy },
    steps,
    simSeconds: steps * world.dt,
    wallSeconds: wall,
    stepsPerSecond: wall > 0 ? steps / wall : Infinity,
    realtimeFactor: wall > 0 ? (steps * world.dt) / wall : Infinity,
    final: { x: s.x, y: s.y, z: s.z, yawDeg: (s.yaw * 180) / Math.PI, speed: s.v },
    distance,
    contactsPerStep: steps > 0 ? contacts / steps : 0,
    maxDepth,
    contactKinds: kinds,
    stateHash: world.stateHash(),
  };
}

export function formatSummary(r: RunSummary): string {
  const f = (v: number, d = 3) => v.toFixed(d);
  const kinds = Object.entries(r.contactKinds).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  return [
    `scenario      ${r.scenario}`,
    `terrain       ${r.terrain.cols} x ${r.terrain.rows} vertices, ${r.terrain.dx} x ${r.terrain.dy} m cells`,
    `simulated     ${f(r.simSeconds, 2)} s in ${r.steps} steps (wall ${f(r.wallSeconds, 3)} s, ${Math.round(r.stepsPerSecond)} steps/s, ${f(r.realtimeFactor, 1)}x real time)`,
    `final pose    x ${f(r.final.x)} m, y ${f(r.final.y)} m, z ${f(r.final.z)} m, yaw ${f(r.final.yawDeg, 1)} deg, speed ${f(r.final.speed, 2)} m/s`,
    `travelled     ${f(r.distance)} m`,
    `contacts      ${f(r.contactsPerStep, 2)} per step, max depth ${f(r.maxDepth * 1000, 2)} mm (${kinds})`,
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
