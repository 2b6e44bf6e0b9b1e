/**
 * The standard vehicle scene of issue #13, one seeded description shared by every engine's runner
 * (ours, Rapier, Jolt, MuJoCo) so that all of them simulate the same bodies on the same ground.
 *
 * Terrain: 513 × 513 diamond-square fractal, dx = dy = 0.05 m (25.6 m square centred on the
 * origin), heights spanning about 1 m over the map (hills), plus FEATURE_COUNT 0.1 m features:
 * CURB_COUNT map-wide curbs (randomCurbs: a step over one cell, up or down) and PLATEAU_COUNT
 * raised rectangles, two of them across the vehicle's path.
 *
 * Vehicle (start pose level, heading +x, at START_XY):
 *
 *        y ^            chassis: box 1.0 × 0.6 × 0.3 m, 40 kg
 *          |   o     o     o        wheels: cylinders r = 0.15 m, width 0.1 m, 2 kg,
 *          |  +-----------------+   centres at x = ±0.35 (and 0 for six wheels), y = ±0.36,
 *          |  |    chassis      | ->   z = −0.15 in the chassis frame; each on a revolute joint
 *          |  +-----------------+      about the chassis y axis with a velocity motor
 *          |   o     o     o           (5 rad/s, 20 N·m)
 *          +--------------------> x
 *
 * Wheel frame: the cylinder's axis is its local z (as every cylinder in sim/), so a wheel body's
 * orientation turns local z onto the chassis +y: WHEEL_ORIENTATION = −90° about x.
 * Motor sign: the joint axis is world +y at the start pose with bodyA = chassis and
 * bodyB = wheel; a positive target velocity spins the wheel by the right-hand rule about +y
 * relative to the chassis, so its lowest point moves toward −x and the vehicle drives toward +x.
 *
 * Rocks: ROCK_COUNT, alternating boxes (half-extents 0.03–0.07 m per axis) and convex hulls
 * (ROCK_HULL_POINTS random points at radius 0.05–0.09 m, kept as their hull's vertices,
 * re-centred so the centroid is the body origin), density 2000 kg/m³, random orientation, half
 * of them in the vehicle's path (|y| ≤ 0.5 m ahead of it) and half around it, none overlapping
 * another's bounding sphere, each dropped with its lowest point ROCK_DROP_CLEARANCE (3 cm)
 * above the highest terrain under its bounding disc.
 */
import { buildConvexHull } from '../../../sim/shapes/convex-hull-builder';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { massProperties } from '../../../sim/shapes/shape';
import { Rng } from '../../../sim/math/random';
import { fractalTerrain, randomCurbs } from '../../../sim/terrain/generate';
import { Heightfield, type MinMax } from '../../../sim/terrain/heightfield';
import type { BodySpec, JointSpec, QuatSpec, Vec3Spec, WorldSpec } from '../../../sim/dynamics/spec';

export const VEHICLE_SCENE_SEED = 20260113;
export const TERRAIN_COLS = 513;
/** [m] */
export const TERRAIN_DX = 0.05;
/** [m] First displacement of the diamond-square: gives heights spanning about 1 m over the map. */
export const TERRAIN_AMPLITUDE = 0.3;
export const TERRAIN_ROUGHNESS = 0.5;
/** [m] Height of every curb and plateau. */
export const FEATURE_HEIGHT = 0.1;
export const CURB_COUNT = 8;
export const PLATEAU_COUNT = 4;
/** [m] Keep curbs this far inside the map edge. */
const CURB_MARGIN = 1;

/** [m/s²] */
export const GRAVITY: Vec3Spec = [0, 0, -9.81];
export const FRICTION = 1;
export const RESTITUTION = 0;

/** [m] Chassis half-extents (1.0 × 0.6 × 0.3 m). */
export const CHASSIS_HALF_EXTENTS: Vec3Spec = [0.5, 0.3, 0.15];
/** [kg] */
export const CHASSIS_MASS = 40;
/** [m] */
export const WHEEL_RADIUS = 0.15;
/** [m] Cylinder length along the axle. */
export const WHEEL_WIDTH = 0.1;
/** [kg] */
export const WHEEL_MASS = 2;
/** [m] Wheel centres in the chassis frame. */
export const WHEEL_X = 0.35;
export const WHEEL_Y = 0.36;
export const WHEEL_Z = -0.15;
/** [rad/s] positive drives toward +x (see the header). */
export const MOTOR_TARGET_VELOCITY = 5;
/** [N·m] */
export const MOTOR_MAX_TORQUE = 20;
/** Wheel body orientation at the start: −90° about x, local z (the axle) onto world +y. */
export const WHEEL_ORIENTATION: QuatSpec = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];
/** [m] Start of the chassis centre in x, y (heading +x, level). */
export const START_XY: [number, number] = [-4, 0];
/** [m] Lowest wheel point above the highest terrain under any wheel at the start. */
const START_CLEARANCE = 0.02;

export const ROCK_COUNT = 100;
/** [kg/m³] */
export const ROCK_DENSITY = 2000;
/** [m] */
export const ROCK_BOX_HALF_MIN = 0.03;
export const ROCK_BOX_HALF_MAX = 0.07;
export const ROCK_HULL_RADIUS_MIN = 0.05;
export const ROCK_HULL_RADIUS_MAX = 0.09;
export const ROCK_HULL_POINTS = 14;
/** [m] Lowest rock point above the highest terrain under its bounding disc when dropped. */
export const ROCK_DROP_CLEARANCE = 0.03;
/** [m] Rocks ahead of the start are strewn over this x range relative to START_XY[0]. */
const ROCK_PATH_X: [number, number] = [0.9, 8.5];
/** [m] |y| of the path strip and of the band around it. */
const ROCK_PATH_HALF_WIDTH = 0.5;
const ROCK_AROUND_HALF_WIDTH = 2.5;
const ROCK_AROUND_X: [number, number] = [-1.5, 9.5];
/** [m] Gap kept between rocks' bounding spheres (and to the vehicle's start footprint). */
const ROCK_GAP = 0.01;

export type WheelCount = 4 | 6;

export type RockShape = { type: 'box'; halfExtents: Vec3Spec } | { type: 'hull'; points: Vec3Spec[] };

export interface Rock {
  name: string;
  /** Box, or hull vertices in the body frame (centroid at the origin). */
  shape: RockShape;
  /** [m] Body origin (= centre of mass) at the drop. */
  position: Vec3Spec;
  orientation: QuatSpec;
  /** [kg] density × volume, for checking each engine's mass. */
  mass: number;
  /** [m] Bounding radius about the origin. */
  boundingRadius: number;
  /**
   * [m] Smallest distance from the centre to the surface (box: smallest half-extent; hull: the
   * nearest face plane): a rock resting on the ground has its centre at least this high.
   */
  halfSize: number;
}

export interface VehicleScene {
  seed: number;
  terrain: Heightfield;
  gravity: Vec3Spec;
  friction: number;
  restitution: number;
  chassis: { halfExtents: Vec3Spec; mass: number; position: Vec3Spec; orientation: QuatSpec };
  wheel: { radius: number; width: number; mass: number };
  motor: { targetVelocity: number; maxTorque: number };
  rockDensity: number;
  rocks: Rock[];
  /**
   * [m] Further vehicles, the same as the first, by chassis start position (level): the scaling
   * bench's four vehicles. Their bodies and joints are named like the first's with `_v1`, `_v2`, …
   * appended (vehicleStarts); the harness measures the first one only.
   */
  extraVehicles?: Vec3Spec[];
}

/** One vehicle of a scene: the suffix of its bodies' and joints' names, and its chassis start. */
export interface VehicleStart {
  suffix: string;
  chassis: Vec3Spec;
}

/** Every vehicle of a scene, the first (unsuffixed) one first. */
export function vehicleStarts(scene: VehicleScene): VehicleStart[] {
  return [{ suffix: '', chassis: scene.chassis.position }, ...(scene.extraVehicles ?? []).map((p, k) => ({ suffix: `_v${k + 1}`, chassis: p }))];
}

export interface WheelStart {
  /** Body name, e.g. "wheel_fl"; joint name "axle_fl". */
  name: string;
  joint: string;
  /** [m] Centre in the chassis frame. */
  mount: Vec3Spec;
  /** [m] World centre at the start. */
  position: Vec3Spec;
  /** World orientation at the start (local z = axle = world +y). */
  orientation: QuatSpec;
}

/** Wheel names and chassis-frame mounts, front to back, left (+y) before right. */
export function wheelLayout(wheels: WheelCount): { name: string; joint: string; mount: Vec3Spec }[] {
  if (wheels !== 4 && wheels !== 6) throw new Error(`wheels must be 4 or 6, got ${String(wheels)}`);
  const rows: [string, number][] = wheels === 4 ? [['f', WHEEL_X], ['r', -WHEEL_X]] : [['f', WHEEL_X], ['m', 0], ['r', -WHEEL_X]];
  const out: { name: string; joint: string; mount: Vec3Spec }[] = [];
  for (const [tag, x] of rows) {
    for (const [side, y] of [['l', WHEEL_Y], ['r', -WHEEL_Y]] as [string, number][]) {
      out.push({ name: `wheel_${tag}${side}`, joint: `axle_${tag}${side}`, mount: [x, y, WHEEL_Z] });
    }
  }
  return out;
}

/** Wheels at the start pose (the chassis starts level, so world = chassis position + mount). */
export function wheelStarts(scene: VehicleScene, wheels: WheelCount, vehicle: VehicleStart = { suffix: '', chassis: scene.chassis.position }): WheelStart[] {
  const c = vehicle.chassis;
  return wheelLayout(wheels).map((w) => ({
    ...w,
    name: w.name + vehicle.suffix,
    joint: w.joint + vehicle.suffix,
    position: [c[0] + w.mount[0], c[1] + w.mount[1], c[2] + w.mount[2]],
    orientation: [...WHEEL_ORIENTATION],
  }));
}

/** Quaternion product a ⊗ b, [x, y, z, w]. */
export function quatMul(a: QuatSpec, b: QuatSpec): QuatSpec {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** Rotates v by unit quaternion q ([x, y, z, w]). */
export function quatRotate(q: QuatSpec, v: Vec3Spec): Vec3Spec {
  const [x, y, z, w] = q;
  // t = 2 q_v × v; v' = v + w t + q_v × t
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Uniformly random unit quaternion (Shoemake 1992). */
function randomQuat(rng: Rng): QuatSpec {
  const u1 = rng.next(), u2 = rng.next() * 2 * Math.PI, u3 = rng.next() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

const rangeScratch: MinMax = { min: 0, max: 0 };

/** [m] Highest terrain vertex under the disc of `radius` around (x, y) (whole cells). */
function terrainMaxUnder(hf: Heightfield, x: number, y: number, radius: number): number {
  const i0 = Math.floor((x - radius - hf.x0) / hf.dx);
  const i1 = Math.floor((x + radius - hf.x0) / hf.dx);
  const j0 = Math.floor((y - radius - hf.y0) / hf.dy);
  const j1 = Math.floor((y + radius - hf.y0) / hf.dy);
  return hf.cellRangeMinMax(rangeScratch, i0, j0, i1, j1).max;
}

/** The terrain: fractal hills, CURB_COUNT curbs, PLATEAU_COUNT plateaus (two across the path). */
function buildTerrain(seed: number): Heightfield {
  const grid = { cols: TERRAIN_COLS, dx: TERRAIN_DX };
  const curbs = randomCurbs(grid, { seed: seed + 1, count: CURB_COUNT, height: FEATURE_HEIGHT, margin: CURB_MARGIN });
  const base = fractalTerrain({ ...grid, seed, amplitude: TERRAIN_AMPLITUDE, roughness: TERRAIN_ROUGHNESS, curbs });
  const heights = Float64Array.from(base.heights);
  const rng = new Rng(seed + 2);
  for (let p = 0; p < PLATEAU_COUNT; p++) {
    // The first two lie across the path (full width of the vehicle), the others anywhere.
    const onPath = p < 2;
    const cx = onPath ? START_XY[0] + 2.5 + 3 * p + rng.range(0, 0.5) : rng.range(-10, 10);
    const cy = onPath ? START_XY[1] + rng.range(-0.2, 0.2) : rng.range(-10, 10);
    const hx = onPath ? rng.range(0.6, 1.2) : rng.range(0.5, 2);
    const hy = onPath ? rng.range(1, 1.5) : rng.range(0.5, 2);
    for (let j = 0; j < base.rows; j++) {
      const y = base.vertexY(j);
      if (Math.abs(y - cy) > hy) continue;
      for (let i = 0; i < base.cols; i++) {
        if (Math.abs(base.vertexX(i) - cx) <= hx) heights[j * base.cols + i] += FEATURE_HEIGHT;
      }
    }
  }
  return Heightfield.fromArray({ cols: base.cols, rows: base.rows, dx: base.dx, dy: base.dy, x0: base.x0, y0: base.y0, heights });
}

function makeRockShape(rng: Rng, box: boolean): { shape: RockShape; mass: number; boundingRadius: number; halfSize: number } {
  if (box) {
    const h: Vec3Spec = [0, 0, 0].map(() => rng.range(ROCK_BOX_HALF_MIN, ROCK_BOX_HALF_MAX)) as Vec3Spec;
    return {
      shape: { type: 'box', halfExtents: h },
      mass: ROCK_DENSITY * 8 * h[0] * h[1] * h[2],
      boundingRadius: Math.hypot(h[0], h[1], h[2]),
      halfSize: Math.min(h[0], h[1], h[2]),
    };
  }
  const radius = rng.range(ROCK_HULL_RADIUS_MIN, ROCK_HULL_RADIUS_MAX);
  const pts: number[] = [];
  for (let k = 0; k < ROCK_HULL_POINTS; k++) {
    // Direction uniform on the sphere, length radius·[0.75, 1] (lumpy, not a ball).
    const z = rng.range(-1, 1), phi = rng.range(0, 2 * Math.PI), s = Math.sqrt(1 - z * z);
    const r = radius * rng.range(0.75, 1);
    pts.push(r * s * Math.cos(phi), r * s * Math.sin(phi), r * z);
  }
  const built = buildConvexHull(pts);
  if (built.data === null) throw new Error(`vehicle scene: rock hull failed (${built.message})`);
  const hull = new ConvexHullShape(built.data);
  const mp = hull.massProperties(massProperties(), ROCK_DENSITY);
  const c = mp.centerOfMass;
  const v = built.data.vertices;
  const points: Vec3Spec[] = [];
  let bound = 0;
  for (let k = 0; k < v.length; k += 3) {
    const p: Vec3Spec = [v[k] - c[0], v[k + 1] - c[1], v[k + 2] - c[2]];
    points.push(p);
    bound = Math.max(bound, Math.hypot(p[0], p[1], p[2]));
  }
  // Inradius about the centroid: the nearest face plane (n·x = d, unit outward n).
  const pl = built.data.planes;
  let inner = Infinity;
  for (let f = 0; f < pl.length; f += 4) inner = Math.min(inner, pl[f + 3] - (pl[f] * c[0] + pl[f + 1] * c[1] + pl[f + 2] * c[2]));
  return { shape: { type: 'hull', points }, mass: mp.mass, boundingRadius: bound, halfSize: inner };
}

/** [m] Depth of the rock's lowest point below its origin in the given orientation. */
function lowestBelowOrigin(shape: RockShape, q: QuatSpec): number {
  const corners: Vec3Spec[] = shape.type === 'hull' ? shape.points : [];
  if (shape.type === 'box') {
    const h = shape.halfExtents;
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) corners.push([sx * h[0], sy * h[1], sz * h[2]]);
  }
  let low = 0;
  for (const p of corners) low = Math.min(low, quatRotate(q, p)[2]);
  return -low;
}

/** Builds the scene: same seed, same terrain heights and rocks, bit for bit. */
export function buildVehicleScene(seed = VEHICLE_SCENE_SEED): VehicleScene {
  const terrain = buildTerrain(seed);
  // Chassis height: every wheel's lowest point START_CLEARANCE above the terrain under it (over
  // the six-wheel layout, so the 4- and 6-wheel starts are the same height).
  let z = -Infinity;
  for (const w of wheelLayout(6)) {
    const ground = terrainMaxUnder(terrain, START_XY[0] + w.mount[0], START_XY[1] + w.mount[1], WHEEL_RADIUS);
    z = Math.max(z, ground + WHEEL_RADIUS + START_CLEARANCE - w.mount[2]);
  }
  const chassis = { halfExtents: [...CHASSIS_HALF_EXTENTS] as Vec3Spec, mass: CHASSIS_MASS, position: [START_XY[0], START_XY[1], z] as Vec3Spec, orientation: [0, 0, 0, 1] as QuatSpec };

  const rng = new Rng(seed + 3);
  const rocks: Rock[] = [];
  // Keep-out discs: the vehicle's start footprint (a disc over the chassis and wheels).
  const taken: [number, number, number][] = [[START_XY[0], START_XY[1], Math.hypot(0.5 + 0.05, WHEEL_Y + WHEEL_WIDTH / 2)]];
  for (let k = 0; k < ROCK_COUNT; k++) {
    const geom = makeRockShape(rng, k % 2 === 0);
    const orientation = randomQuat(rng);
    const inPath = k < ROCK_COUNT / 2;
    let x = 0, y = 0;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 1000) throw new Error('vehicle scene: could not place rocks without overlap');
      if (inPath) {
        x = START_XY[0] + rng.range(ROCK_PATH_X[0], ROCK_PATH_X[1]);
        y = START_XY[1] + rng.range(-ROCK_PATH_HALF_WIDTH, ROCK_PATH_HALF_WIDTH);
      } else {
        x = START_XY[0] + rng.range(ROCK_AROUND_X[0], ROCK_AROUND_X[1]);
        const side = rng.next() < 0.5 ? -1 : 1;
        y = START_XY[1] + side * rng.range(ROCK_PATH_HALF_WIDTH, ROCK_AROUND_HALF_WIDTH);
      }
      const ok = taken.every(([tx, ty, tr]) => Math.hypot(x - tx, y - ty) > tr + geom.boundingRadius + ROCK_GAP);
      if (ok) break;
    }
    taken.push([x, y, geom.boundingRadius]);
    const ground = terrainMaxUnder(terrain, x, y, geom.boundingRadius);
    const zc = ground + ROCK_DROP_CLEARANCE + lowestBelowOrigin(geom.shape, orientation);
    rocks.push({ name: `rock_${String(k).padStart(3, '0')}`, shape: geom.shape, position: [x, y, zc], orientation, mass: geom.mass, boundingRadius: geom.boundingRadius, halfSize: geom.halfSize });
  }
  return {
    seed,
    terrain,
    gravity: [...GRAVITY],
    friction: FRICTION,
    restitution: RESTITUTION,
    chassis,
    wheel: { radius: WHEEL_RADIUS, width: WHEEL_WIDTH, mass: WHEEL_MASS },
    motor: { targetVelocity: MOTOR_TARGET_VELOCITY, maxTorque: MOTOR_MAX_TORQUE },
    rockDensity: ROCK_DENSITY,
    rocks,
  };
}

/** FNV-1a over the bytes of the heights (Float64, little-endian as stored): the determinism check. */
export function heightsHash(hf: Heightfield): string {
  const bytes = new Uint8Array(hf.heights.buffer, hf.heights.byteOffset, hf.heights.byteLength);
  let h = 0x811c9dc5;
  for (let k = 0; k < bytes.length; k++) {
    h ^= bytes[k];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export interface VehicleWorldOptions {
  /** [s] Default 1/240. */
  dt?: number;
  /** Solver substeps per step (ours): default 4. */
  substeps?: number;
  /** Default true. */
  sleep?: boolean;
}

/**
 * The scene in our spec types (sim/dynamics/spec.ts). The terrain is not part of a WorldSpec:
 * pass `scene.terrain` beside it (createWorld({ spec, terrain })). Everything names the material
 * "default" (friction 1, restitution 0); the vehicle's bodies and joints are plain bodies and
 * joints (no robot/controller: the motors hold their target from the start).
 */
export function vehicleSceneWorldSpec(scene: VehicleScene, wheels: WheelCount, opts: VehicleWorldOptions = {}): WorldSpec {
  const bodies: BodySpec[] = [];
  const joints: JointSpec[] = [];
  const c = scene.chassis;
  for (const v of vehicleStarts(scene)) {
    const chassis = 'chassis' + v.suffix;
    bodies.push({ name: chassis, shape: { type: 'box', halfExtents: [...c.halfExtents] }, mass: c.mass, position: [...v.chassis], orientation: [...c.orientation] });
    for (const w of wheelStarts(scene, wheels, v)) {
      bodies.push({
        name: w.name,
        shape: { type: 'cylinder', radius: scene.wheel.radius, height: scene.wheel.width },
        mass: scene.wheel.mass,
        position: w.position,
        orientation: w.orientation,
      });
      joints.push({
        type: 'revolute',
        name: w.joint,
        bodyA: chassis,
        bodyB: w.name,
        anchor: [...w.position],
        axis: [0, 1, 0],
        motor: { targetVelocity: scene.motor.targetVelocity, maxTorque: scene.motor.maxTorque },
      });
    }
  }
  for (const r of scene.rocks) {
    const shape = r.shape.type === 'box' ? { type: 'box' as const, halfExtents: [...r.shape.halfExtents] as Vec3Spec } : { type: 'hull' as const, points: r.shape.points.map((p) => [...p] as Vec3Spec) };
    bodies.push({ name: r.name, shape, density: scene.rockDensity, position: [...r.position], orientation: [...r.orientation] });
  }
  return {
    name: `vehicle-scene-${wheels}-wheels`,
    gravity: [...scene.gravity],
    dt: opts.dt ?? 1 / 240,
    substeps: opts.substeps ?? 4,
    sleep: opts.sleep ?? true,
    ccd: false,
    materials: { default: { friction: scene.friction, restitution: scene.restitution, rollingResistance: 0 } },
    terrainMaterials: { material: 'default' },
    bodies,
    joints,
    script: [],
  };
}
