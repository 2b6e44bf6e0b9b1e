/**
 * The renderer benchmark's worlds (issue #17): a seeded fractal terrain of N × N vertices at
 * RENDERER_BENCH_DX, centred on the origin, written as a raw-f32 terrain (sidecar + data, the
 * format with the cheapest decode, so the load measures the app rather than a PNG inflate); the
 * built-in skid-steer rover at the vehicle bench's start (−4, 0) heading +x with a constant
 * throttle and steer (it circles on the map); and the vehicle bench's 100 rocks
 * (test/bench/vehicle/scene.ts: same shapes, orientations and x, y), each re-dropped
 * ROCK_DROP_CLEARANCE above the highest vertex of this terrain under its bounding disc, as
 * scenario bodies with the rocks' density.
 *
 * Files (what the app's bundled-scenario path reads, see renderer/scenario-files.ts):
 *   scenarios/<name>.json   format 2, "terrain": "../terrains/<name>.json"
 *   terrains/<name>.json    { image: "<name>.f32", format: "raw-f32", size: [N, N], ... }
 *   terrains/<name>.f32     float32 little-endian, row 0 = north (the raw-f32 convention)
 */
import type { QuatSpec, Vec3Spec } from '../../../sim/dynamics/spec';
import { fractalTerrain } from '../../../sim/terrain/generate';
import type { Heightfield, MinMax } from '../../../sim/terrain/heightfield';
import { buildVehicleScene, ROCK_DROP_CLEARANCE, START_XY, VEHICLE_SCENE_SEED } from '../vehicle/scene';

/** [m] Grid spacing of every case (the vehicle bench's): 1025² spans 51.2 m, 4097² 204.8 m. */
export const RENDERER_BENCH_DX = 0.05;
/** [m] Coarsest fractal displacement (heights span about ±2× this over the map). */
export const RENDERER_BENCH_AMPLITUDE = 0.3;
export const RENDERER_BENCH_SEED = 20261117;
/** [-] Constant throttle of the drive script (the rover drives into the rocks ahead of it). */
export const RENDERER_BENCH_THROTTLE = 0.6;
/**
 * [-] Constant steer of the drive script: the rover circles (about 7 m radius, 1.2 m/s) through the
 * rocks and stays on the 51 m map for the whole bench. Driving straight it left the 1025² map
 * after about 35 s (`npm run sim` on the generated scenario), before the measured windows ended.
 */
export const RENDERER_BENCH_STEER = 0.2;
/** [kg/m³] The vehicle bench's rock density. */
const ROCK_DENSITY = 2000;

export interface RendererBenchFiles {
  /** Base name of the three files, e.g. "renderer-bench-1025". */
  name: string;
  /** The scenario's display name (what the test hook's scenarioName reports once it is loaded). */
  scenarioName: string;
  /** Paths relative to the web build's assets/ folder, with their contents. */
  files: { path: string; bytes: Uint8Array }[];
  cols: number;
  rocks: number;
}

const scratch: MinMax = { min: 0, max: 0 };

/** [m] Highest vertex under the disc of `radius` around (x, y), whole cells (as scene.ts drops rocks). */
function maxUnder(hf: Heightfield, x: number, y: number, radius: number): number {
  const i0 = Math.floor((x - radius - hf.x0) / hf.dx);
  const i1 = Math.floor((x + radius - hf.x0) / hf.dx);
  const j0 = Math.floor((y - radius - hf.y0) / hf.dy);
  const j1 = Math.floor((y + radius - hf.y0) / hf.dy);
  return hf.cellRangeMinMax(scratch, i0, j0, i1, j1).max;
}

/** Float32 little-endian, north row first: row r of the file is grid row rows − 1 − r. */
export function rawF32NorthFirst(hf: Heightfield): Uint8Array {
  const out = new Uint8Array(hf.cols * hf.rows * 4);
  const v = new DataView(out.buffer);
  let o = 0;
  for (let r = 0; r < hf.rows; r++) {
    const j = hf.rows - 1 - r;
    for (let i = 0; i < hf.cols; i++, o += 4) v.setFloat32(o, hf.heights[j * hf.cols + i], true);
  }
  return out;
}

/** The scenario, sidecar and raw heights of one case (deterministic for a given `cols`). */
export function buildRendererBenchFiles(cols: number): RendererBenchFiles {
  if (!(Number.isInteger(cols) && cols >= 257)) throw new Error(`renderer bench: cols must be an integer ≥ 257 (the rocks lie within 10 m of the origin), got ${cols}`);
  const name = `renderer-bench-${cols}`;
  const scenarioName = `renderer bench ${cols}²`;
  const hf = fractalTerrain({ cols, dx: RENDERER_BENCH_DX, seed: RENDERER_BENCH_SEED, amplitude: RENDERER_BENCH_AMPLITUDE, roughness: 0.5 });
  // Heights as the app will see them (float32), so the rocks are dropped onto what collides.
  const vehicle = buildVehicleScene(VEHICLE_SCENE_SEED);
  const bodies = vehicle.rocks.map((r) => {
    const [x, y, z] = r.position;
    const lowest = z - maxUnder(vehicle.terrain, x, y, r.boundingRadius) - ROCK_DROP_CLEARANCE;
    const zHere = Math.fround(maxUnder(hf, x, y, r.boundingRadius)) + ROCK_DROP_CLEARANCE + lowest + 1e-3;
    const shape = r.shape.type === 'box' ? { type: 'box', halfExtents: [...r.shape.halfExtents] } : { type: 'hull', points: r.shape.points.map((p) => [...p]) };
    return { name: r.name, shape, density: ROCK_DENSITY, position: [x, y, zHere] as Vec3Spec, orientation: [...r.orientation] as QuatSpec };
  });
  const span = (cols - 1) * RENDERER_BENCH_DX;
  const sidecar = {
    image: `${name}.f32`,
    format: 'raw-f32',
    metersPerPixel: RENDERER_BENCH_DX,
    size: [cols, cols],
    origin: [-span / 2, -span / 2],
    name: `renderer bench fractal ${cols}²`,
  };
  const scenario = {
    format: 'terrawheel-scenario',
    version: 2,
    name: scenarioName,
    description: 'Renderer benchmark (test/bench/renderer.bench.ts): rover, 100 rocks, generated fractal terrain.',
    terrain: `../terrains/${name}.json`,
    dt: 1 / 240,
    bodies,
    robot: { type: 'skid-steer', position: [...START_XY], yaw: 0 },
    script: [{ t: 0, throttle: RENDERER_BENCH_THROTTLE, steer: RENDERER_BENCH_STEER }],
  };
  const json = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
  return {
    name,
    scenarioName,
    cols,
    rocks: bodies.length,
    files: [
      { path: `scenarios/${name}.json`, bytes: json(scenario) },
      { path: `terrains/${name}.json`, bytes: json(sidecar) },
      { path: `terrains/${name}.f32`, bytes: rawF32NorthFirst(hf) },
    ],
  };
}
