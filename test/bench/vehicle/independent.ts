/**
 * Independent builds of the standard vehicle scene (issue #29), written from the words of issue
 * #13 only, not from scene.ts's generator: "513² terrain at 0.05 m with about 1 m of relief and
 * a dozen 0.1 m curbs and plateaus; the 40 kg chassis and four or six 0.15 m wheels on 5 rad/s,
 * 20 N·m motors; 100 rocks, boxes and random hulls, 2000 kg/m³, dropped 3 cm above the ground;
 * 10 s". Three variants differ in terrain generator, rock shapes and seed:
 *
 *   noise-icosa   value noise (3 octaves, smoothstep lattice) + curbs/plateaus; randomly scaled icosahedra
 *   ds-boxes      diamond-square (own implementation) + curbs/plateaus; boxes and random hulls
 *   sines-hulls   ridged sum of sines + curbs/plateaus; random hulls of 8–20 points
 *
 * Every terrain is rescaled to exactly 1 m of relief before the features (a dozen: 8 curbs —
 * a 0.1 m step across a strip at a random angle — and 4 plateaus, the first two across the path).
 * Each variant is a VehicleScene, so the peers' runners (Jolt) build it the same way they build
 * scene.ts's. Ours is built only through the public API a user calls: `createWorld(scenario)`
 * from sim/index.ts with a v2 scenario object, stepped with `world.step()`, read with
 * `bodyIndex` + `readPose` (publicApiRunner below).
 */
import { buildConvexHull, ConvexHullShape, createWorld, Heightfield, massProperties, Rng, type PlainWorld } from '../../../sim';
import type { QuatSpec, Vec3Spec } from '../../../sim/dynamics/spec';
import { BODY_POSE_STRIDE, WHEEL_POSE_STRIDE, type VehicleRunner } from './harness';
import {
  CHASSIS_HALF_EXTENTS, CHASSIS_MASS, FRICTION, GRAVITY, MOTOR_MAX_TORQUE, MOTOR_TARGET_VELOCITY, RESTITUTION,
  quatRotate, vehicleSceneWorldSpec, wheelLayout, wheelStarts, WHEEL_MASS, WHEEL_RADIUS, WHEEL_WIDTH,
  type Rock, type RockShape, type VehicleScene, type WheelCount,
} from './scene';

export type TerrainKind = 'value-noise' | 'diamond-square' | 'ridged-sines';
export type RockKind = 'icosahedra' | 'boxes-and-hulls' | 'hulls';

export interface IndependentVariant {
  name: string;
  terrain: TerrainKind;
  rocks: RockKind;
  seed: number;
}

export const INDEPENDENT_VARIANTS: readonly IndependentVariant[] = [
  { name: 'noise-icosa', terrain: 'value-noise', rocks: 'icosahedra', seed: 1301 },
  { name: 'ds-boxes', terrain: 'diamond-square', rocks: 'boxes-and-hulls', seed: 2903 },
  { name: 'sines-hulls', terrain: 'ridged-sines', rocks: 'hulls', seed: 4703 },
];

/** Grid vertices per side by default (issue #13's 513²); the generators take theirs as N. */
const VERTICES = 513;
const DX = 0.05;
/** [m] */
const RELIEF = 1;
const FEATURE = 0.1;
const CURBS = 8;
const PLATEAUS = 4;
const ROCKS = 100;
const DENSITY = 2000;
const DROP = 0.03;
const START: [number, number] = [-4, 0];

function valueNoise(rng: Rng, N: number): Float64Array {
  const h = new Float64Array(N * N);
  const octaves: [number, number][] = [[4, 1], [1.5, 0.4], [0.5, 0.12]]; // [m] lattice spacing, weight
  for (const [spacing, weight] of octaves) {
    const m = Math.ceil((N * DX) / spacing) + 2;
    const lattice = new Float64Array(m * m).map(() => rng.next());
    for (let j = 0; j < N; j++) {
      const v = (j * DX) / spacing, j0 = Math.floor(v), ty = v - j0, sy = ty * ty * (3 - 2 * ty);
      for (let i = 0; i < N; i++) {
        const u = (i * DX) / spacing, i0 = Math.floor(u), tx = u - i0, sx = tx * tx * (3 - 2 * tx);
        const a = lattice[j0 * m + i0], b = lattice[j0 * m + i0 + 1], c = lattice[(j0 + 1) * m + i0], d = lattice[(j0 + 1) * m + i0 + 1];
        h[j * N + i] += weight * ((a * (1 - sx) + b * sx) * (1 - sy) + (c * (1 - sx) + d * sx) * sy);
      }
    }
  }
  return h;
}

function diamondSquare(rng: Rng, N: number): Float64Array {
  const h = new Float64Array(N * N);
  const at = (i: number, j: number): number => h[j * N + i];
  let amp = 1;
  for (const [i, j] of [[0, 0], [N - 1, 0], [0, N - 1], [N - 1, N - 1]]) h[j * N + i] = rng.range(-amp, amp);
  for (let step = N - 1; step > 1; step >>= 1) {
    const half = step >> 1;
    for (let j = half; j < N; j += step) {
      for (let i = half; i < N; i += step) {
        const avg = (at(i - half, j - half) + at(i + half, j - half) + at(i - half, j + half) + at(i + half, j + half)) / 4;
        h[j * N + i] = avg + rng.range(-amp, amp);
      }
    }
    for (let j = 0; j < N; j += half) {
      for (let i = (j / half) % 2 === 0 ? half : 0; i < N; i += step) {
        let s = 0, n = 0;
        if (i >= half) { s += at(i - half, j); n++; }
        if (i + half < N) { s += at(i + half, j); n++; }
        if (j >= half) { s += at(i, j - half); n++; }
        if (j + half < N) { s += at(i, j + half); n++; }
        h[j * N + i] = s / n + rng.range(-amp, amp);
      }
    }
    amp *= 0.55;
  }
  return h;
}

function ridgedSines(rng: Rng, N: number): Float64Array {
  const h = new Float64Array(N * N);
  for (let w = 0; w < 7; w++) {
    const dir = rng.range(0, Math.PI), k = (2 * Math.PI) / rng.range(1.5, 12), ph = rng.range(0, 2 * Math.PI), a = 1 / (1 + w * 0.6);
    const kx = k * Math.cos(dir), ky = k * Math.sin(dir);
    for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) h[j * N + i] += a * (1 - Math.abs(Math.sin(kx * i * DX + ky * j * DX + ph)));
  }
  return h;
}

/** Rescale to RELIEF, then 8 curbs and 4 plateaus (two across the path). */
function terrainOf(kind: TerrainKind, seed: number, N: number): Heightfield {
  const rng = new Rng(seed);
  const h = kind === 'value-noise' ? valueNoise(rng, N) : kind === 'diamond-square' ? diamondSquare(rng, N) : ridgedSines(rng, N);
  let lo = Infinity, hi = -Infinity;
  for (const v of h) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  for (let k = 0; k < h.length; k++) h[k] = ((h[k] - lo) / (hi - lo) - 0.5) * RELIEF; // centred on 0: Jolt's float32 rays check it to 0.02 mm
  const x0 = (-(N - 1) * DX) / 2;
  const x = (i: number): number => x0 + i * DX;
  for (let c = 0; c < CURBS; c++) {
    // a step across a strip: points beyond a line (random angle) within `len` of its centre
    const cx = rng.range(-10, 10), cy = rng.range(-10, 10), ang = rng.range(0, 2 * Math.PI), len = rng.range(1, 4);
    const nx = Math.cos(ang), ny = Math.sin(ang);
    for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
      const px = x(i) - cx, py = x(j) - cy;
      const along = -ny * px + nx * py, across = nx * px + ny * py;
      if (Math.abs(along) <= len && across >= 0 && across <= len) h[j * N + i] += FEATURE;
    }
  }
  for (let p = 0; p < PLATEAUS; p++) {
    const onPath = p < 2;
    const cx = onPath ? START[0] + 2.5 + 3 * p + rng.range(0, 0.5) : rng.range(-10, 10);
    const cy = onPath ? START[1] + rng.range(-0.2, 0.2) : rng.range(-10, 10);
    const hx = rng.range(0.6, 1.5), hy = rng.range(1, 1.8);
    for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) if (Math.abs(x(i) - cx) <= hx && Math.abs(x(j) - cy) <= hy) h[j * N + i] += FEATURE;
  }
  return Heightfield.fromArray({ cols: N, rows: N, dx: DX, dy: DX, x0, y0: x0, heights: h });
}

export function randomQuat(rng: Rng): QuatSpec {
  const u1 = rng.next(), u2 = rng.next() * 2 * Math.PI, u3 = rng.next() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

const PHI = (1 + Math.sqrt(5)) / 2;
const ICOSAHEDRON: Vec3Spec[] = [];
for (const a of [-1, 1]) for (const b of [-PHI, PHI]) ICOSAHEDRON.push([0, a, b], [a, b, 0], [b, 0, a]);

export type RockGeom = Omit<Rock, 'name' | 'position' | 'orientation'>;

/** A hull rock from points: re-centred on its centroid; mass, bound and inradius. */
function hullRock(pts: number[]): RockGeom {
  const built = buildConvexHull(pts);
  if (built.data === null) throw new Error(`independent scene: rock hull failed (${built.message})`);
  const mp = new ConvexHullShape(built.data).massProperties(massProperties(), DENSITY);
  const c = mp.centerOfMass, v = built.data.vertices, pl = built.data.planes;
  const points: Vec3Spec[] = [];
  let bound = 0, inner = Infinity;
  for (let k = 0; k < v.length; k += 3) {
    const p: Vec3Spec = [v[k] - c[0], v[k + 1] - c[1], v[k + 2] - c[2]];
    points.push(p);
    bound = Math.max(bound, Math.hypot(p[0], p[1], p[2]));
  }
  for (let f = 0; f < pl.length; f += 4) inner = Math.min(inner, pl[f + 3] - (pl[f] * c[0] + pl[f + 1] * c[1] + pl[f + 2] * c[2]));
  return { shape: { type: 'hull', points }, mass: mp.mass, boundingRadius: bound, halfSize: inner };
}

export function rockOf(kind: RockKind, k: number, rng: Rng): RockGeom {
  if (kind === 'icosahedra') {
    const s = [rng.range(0.035, 0.07), rng.range(0.035, 0.07), rng.range(0.035, 0.07)];
    return hullRock(ICOSAHEDRON.flatMap((p) => [(p[0] * s[0]) / PHI, (p[1] * s[1]) / PHI, (p[2] * s[2]) / PHI]));
  }
  if (kind === 'boxes-and-hulls' && k % 2 === 0) {
    const h: Vec3Spec = [rng.range(0.03, 0.07), rng.range(0.03, 0.07), rng.range(0.03, 0.07)];
    return { shape: { type: 'box', halfExtents: h }, mass: DENSITY * 8 * h[0] * h[1] * h[2], boundingRadius: Math.hypot(...h), halfSize: Math.min(...h) };
  }
  const count = kind === 'hulls' ? rng.int(8, 20) : 14;
  const r = rng.range(0.05, 0.09);
  const pts: number[] = [];
  for (let p = 0; p < count; p++) {
    const z = rng.range(-1, 1), phi = rng.range(0, 2 * Math.PI), s = Math.sqrt(1 - z * z), l = r * rng.range(0.6, 1);
    pts.push(l * s * Math.cos(phi), l * s * Math.sin(phi), l * z);
  }
  return hullRock(pts);
}

export function maxUnder(hf: Heightfield, x: number, y: number, r: number): number {
  let m = -Infinity;
  for (let yy = y - r; yy <= y + r + 1e-9; yy += DX / 2) for (let xx = x - r; xx <= x + r + 1e-9; xx += DX / 2) m = Math.max(m, hf.heightAt(xx, yy));
  return m + 1e-3; // heightAt interpolates: a millimetre covers the vertices between samples
}

/** [m] A level chassis's start height at (x, y): every wheel of the 6-wheel layout 2 cm above the ground. */
export function chassisStartHeight(terrain: Heightfield, x: number, y: number): number {
  let z = -Infinity;
  for (const w of wheelLayout(6)) z = Math.max(z, maxUnder(terrain, x + w.mount[0], y + w.mount[1], WHEEL_RADIUS) + WHEEL_RADIUS + 0.02 - w.mount[2]);
  return z;
}

/**
 * One independent build as a VehicleScene (the peers' runners take it as they take scene.ts's).
 * `vertices`: grid vertices per side, 2^k + 1 (513 by default: issue #13's 25.6 m at 0.05 m; the
 * scaling bench's large case takes 1,025); the curbs, plateaus and rocks stay where they are.
 */
export function buildIndependentScene(v: IndependentVariant, vertices = VERTICES): VehicleScene {
  if (!(Number.isInteger(Math.log2(vertices - 1)) && vertices >= 65)) throw new Error(`independent scene: vertices per side must be 2^k + 1 ≥ 65, got ${vertices}`);
  const terrain = terrainOf(v.terrain, v.seed, vertices);
  const z = chassisStartHeight(terrain, START[0], START[1]);
  const rng = new Rng(v.seed + 17);
  const rocks: Rock[] = [];
  const taken: [number, number, number][] = [[START[0], START[1], 0.75]];
  for (let k = 0; k < ROCKS; k++) {
    const g = rockOf(v.rocks, k, rng);
    const q = randomQuat(rng);
    let x = 0, y = 0;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 2000) throw new Error(`independent scene ${v.name}: could not place rock ${k}`);
      x = START[0] + (k < ROCKS / 2 ? rng.range(0.9, 8.5) : rng.range(-1.5, 9.5));
      y = START[1] + (k < ROCKS / 2 ? rng.range(-0.5, 0.5) : (rng.next() < 0.5 ? -1 : 1) * rng.range(0.5, 2.5));
      if (taken.every(([tx, ty, tr]) => Math.hypot(x - tx, y - ty) > tr + g.boundingRadius + 0.01)) break;
    }
    taken.push([x, y, g.boundingRadius]);
    const low = lowest(g.shape, q);
    rocks.push({ ...g, name: `rock_${String(k).padStart(3, '0')}`, position: [x, y, maxUnder(terrain, x, y, g.boundingRadius) + DROP + low], orientation: q });
  }
  return {
    seed: v.seed,
    terrain,
    gravity: [...GRAVITY],
    friction: FRICTION,
    restitution: RESTITUTION,
    chassis: { halfExtents: [...CHASSIS_HALF_EXTENTS], mass: CHASSIS_MASS, position: [START[0], START[1], z], orientation: [0, 0, 0, 1] },
    wheel: { radius: WHEEL_RADIUS, width: WHEEL_WIDTH, mass: WHEEL_MASS },
    motor: { targetVelocity: MOTOR_TARGET_VELOCITY, maxTorque: MOTOR_MAX_TORQUE },
    rockDensity: DENSITY,
    rocks,
  };
}

export function lowest(shape: RockShape, q: QuatSpec): number {
  const pts: Vec3Spec[] = shape.type === 'hull' ? shape.points : [];
  if (shape.type === 'box') for (const a of [-1, 1]) for (const b of [-1, 1]) for (const c of [-1, 1]) pts.push([a * shape.halfExtents[0], b * shape.halfExtents[1], c * shape.halfExtents[2]]);
  return -Math.min(0, ...pts.map((p) => quatRotate(q, p)[2]));
}

/** The scene as the v2 scenario object a user passes to createWorld (terrain inline). */
export function sceneScenario(scene: VehicleScene, wheels: WheelCount, dt: number): Record<string, unknown> {
  const spec = vehicleSceneWorldSpec(scene, wheels, { dt });
  const t = scene.terrain;
  return {
    format: 'terrawheel-scenario',
    version: 2,
    name: spec.name,
    terrain: { cols: t.cols, rows: t.rows, dx: t.dx, dy: t.dy, x0: t.x0, y0: t.y0, heights: Float64Array.from(t.heights) },
    gravity: spec.gravity,
    dt: spec.dt,
    substeps: spec.substeps,
    sleep: spec.sleep,
    ccd: spec.ccd,
    materials: spec.materials,
    terrainMaterials: spec.terrainMaterials,
    bodies: spec.bodies,
    joints: spec.joints,
  };
}

/** How the user's script reads between steps. */
export interface UserReads {
  /** Bodies read (the chassis and the first rocks). */
  bodies: number;
  /** Every this many steps. */
  every: number;
  /** 'readPose' (documented, allocation-free) or 'state' (the whole object graph). */
  via: 'readPose' | 'state';
}

export const DEFAULT_USER_READS: UserReads = { bodies: 5, every: 12, via: 'readPose' };

/**
 * Ours through the public API only: createWorld(scenario) from sim/index.ts, world.step(), and
 * between steps the user's reads (afterStep, untimed) plus the harness's pose reads by readPose.
 * `timeStages` turns on the world's stage timer (world.engine.timeStages) for the split.
 */
export function publicApiRunner(opts: { name?: string; reads?: UserReads; timeStages?: boolean } = {}): VehicleRunner & { world(): PlainWorld | null } {
  const reads = opts.reads ?? DEFAULT_USER_READS;
  let world: PlainWorld | null = null;
  let chassis = 0;
  let wheelIdx: number[] = [];
  let rockIdx: number[] = [];
  let readIdx: number[] = [];
  let steps = 0;
  const pose = new Float64Array(7);
  const sink = { sum: 0 };
  return {
    name: opts.name ?? `ours, public API (${reads.via} ×${reads.bodies} / ${reads.every} steps)`,
    description: `createWorld(scenario) from sim/index.ts (soft step, 4 substeps, sleeping on), world.step() timed alone; between steps the script reads ${reads.bodies} bodies every ${reads.every} steps through ${reads.via === 'state' ? 'state()' : 'bodyIndex + readPose'}`,
    setup(scene: VehicleScene, wheels: WheelCount, dt: number) {
      const w = createWorld(sceneScenario(scene, wheels, dt));
      world = w;
      w.engine.timeStages = opts.timeStages ?? false;
      chassis = w.bodyIndex('chassis');
      wheelIdx = wheelStarts(scene, wheels).map((s) => w.bodyIndex(s.name));
      rockIdx = scene.rocks.map((r) => w.bodyIndex(r.name));
      readIdx = [chassis, ...rockIdx.slice(0, reads.bodies - 1)];
      steps = 0;
    },
    step() {
      world!.step();
    },
    afterStep() {
      const w = world!;
      if (++steps % reads.every !== 0) return;
      if (reads.via === 'state') {
        const b = w.state().bodies;
        for (const k of readIdx) sink.sum += b[k].position[2];
      } else {
        for (const k of readIdx) sink.sum += w.readPose(k, pose)[2];
      }
    },
    chassisPose(out) {
      out.set(world!.readPose(chassis, pose).subarray(0, BODY_POSE_STRIDE));
    },
    wheelPoses(out) {
      for (let k = 0; k < wheelIdx.length; k++) {
        const p = world!.readPose(wheelIdx[k], pose);
        const x = p[3], y = p[4], z = p[5], w = p[6], o = k * WHEEL_POSE_STRIDE;
        out[o] = p[0]; out[o + 1] = p[1]; out[o + 2] = p[2];
        out[o + 3] = 2 * (x * z + w * y);
        out[o + 4] = 2 * (y * z - w * x);
        out[o + 5] = 1 - 2 * (x * x + y * y);
      }
    },
    rockPoses(out) {
      for (let k = 0; k < rockIdx.length; k++) out.set(world!.readPose(rockIdx[k], pose).subarray(0, BODY_POSE_STRIDE), k * BODY_POSE_STRIDE);
    },
    dispose() {
      world = null;
    },
    stepSplit(): Record<string, number> {
      const t = world?.engine.timings;
      return t ? { broad: t.broad, narrow: t.narrow, solve: t.solve, integrate: t.integrate, finish: t.finish } : {};
    },
    world: () => world,
  };
}
