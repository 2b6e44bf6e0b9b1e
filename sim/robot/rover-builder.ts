/**
 * The default rover as a dynamic robot: a box chassis and four cylinder wheels on revolute
 * joints with velocity motors, driven skid-steer. Built from the v1 robot fields
 * (sim/robot/skid-steer.ts) so a scenario's "robot" block means the same rover in the kinematic
 * and in the dynamic world.
 *
 * Chassis frame (REP-103): x forward, y left, z up, origin at the chassis centre. Wheel k sits at
 * (±wheelbase/2, ±track/2, −wheelDrop), in skid-steer.ts's order:
 *
 *            +x (forward)
 *             ^
 *     W0 ┌─────────┐ W1          W0 fl front-left    W1 fr front-right
 *        │ chassis │             W2 rl rear-left     W3 rr rear-right
 *     W2 └─────────┘ W3
 *   +y <──
 *
 * Wheel orientation: yaw ∘ Rx(−90°). A cylinder's axis is its local z (dynamics/spec.ts);
 * Rx(−90°) turns local z onto +y: Rx(θ)·ẑ = (0, −sin θ, cos θ) = (0, 1, 0) at θ = −90°. So
 * every wheel's local +z is the chassis +y (left), the same direction as its joint axis below,
 * and the same rotation sim/world.ts uses (AXLE_FROM_LOCAL_Z). Rx(+90°) would give −y: as good
 * a cylinder, but its spin about local +z would then be the opposite of the joint coordinate.
 *
 * Joint axis: the chassis +y. The joint coordinate is the rotation of bodyB (the wheel) relative
 * to bodyA (the chassis) about the axis. By the right-hand rule a rotation ω about +y moves the
 * wheel's top (+z) toward +x and its bottom (−z) toward −x: ω ŷ × (−r ẑ) = −ω r x̂. A wheel that
 * does not slip has its bottom at rest on the ground, so the wheel centre (and the rover) moves
 * +x at ω·r: a positive motor targetVelocity drives forward, on both sides.
 *
 * Masses: chassis ROVER_CHASSIS_MASS, wheels ROVER_WHEEL_MASS (the benchmark rover);
 * inertia comes from the shapes at uniform density (the world computes it).
 */
import type { BodySpec, ControllerSpec, JointSpec, QuatSpec, RobotSpec, Vec3Spec } from '../dynamics/spec';
import type { RobotSpec as SkidSteerSpec } from './skid-steer';

/** [kg] Default chassis mass. */
export const ROVER_CHASSIS_MASS = 40;
/** [kg] Default mass of each wheel. */
export const ROVER_WHEEL_MASS = 2;
/** [N·m] Default motor torque limit per wheel. */
export const ROVER_MAX_TORQUE = 20;
/** [m] Gap between each wheel and the terrain at the start (the rover drops onto its wheels). */
export const ROVER_START_CLEARANCE = 0.005;
/**
 * [m] Spacing of the terrain samples along each wheel's footprint (the heightfield is only seen
 * through heightAt). A smooth terrain's error is far below a millimetre at this spacing; a
 * vertical step between two samples can be missed by up to spacing × the rim's slope there.
 */
export const ROVER_FOOTPRINT_SAMPLE_SPACING = 0.0025;
/** Bounds on the samples along the heading, and samples across the wheel's width. */
const FOOTPRINT_SAMPLES_ALONG_MIN = 9;
const FOOTPRINT_SAMPLES_ALONG_MAX = 1001;
const FOOTPRINT_SAMPLES_ACROSS = 3;

/** What the v2 scenario's skid-steer block adds to the v1 fields (all optional). */
export interface SkidSteerRoverOptions {
  /** [kg] */
  chassisMass?: number;
  /** [kg] each */
  wheelMass?: number;
  /** [N·m] per wheel motor */
  maxTorque?: number;
  /** Material names (default "default"). */
  chassisMaterial?: string;
  wheelMaterial?: string;
}

/**
 * Everything `buildSkidSteerRover` needs: the rover's dimensions and its v2 options (masses,
 * torque, materials).
 */
export type SkidSteerBuildSpec = SkidSteerSpec & SkidSteerRoverOptions;

/** Wheel order and corners, as in skid-steer.ts: sx = +1 front, sy = +1 left. */
export const ROVER_WHEELS: readonly { key: 'fl' | 'fr' | 'rl' | 'rr'; sx: 1 | -1; sy: 1 | -1 }[] = [
  { key: 'fl', sx: 1, sy: 1 },
  { key: 'fr', sx: 1, sy: -1 },
  { key: 'rl', sx: -1, sy: 1 },
  { key: 'rr', sx: -1, sy: -1 },
];

/** The body and joint names of a built rover. */
export interface RoverNames {
  chassis: string;
  /** In ROVER_WHEELS order. */
  wheels: string[];
  joints: string[];
}

/** Body and joint names of the rover called `name` ("rover/chassis", "rover/wheel_fl", "rover/axle_fl", ...). */
export function roverNames(name: string): RoverNames {
  return {
    chassis: `${name}/chassis`,
    wheels: ROVER_WHEELS.map((w) => `${name}/wheel_${w.key}`),
    joints: ROVER_WHEELS.map((w) => `${name}/axle_${w.key}`),
  };
}

function positive(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new Error(`buildSkidSteerRover: "${field}" must be a finite number > 0, got ${typeof v === 'number' ? v : typeof v}`);
  return v;
}

function finite(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`buildSkidSteerRover: "${field}" must be a finite number, got ${typeof v === 'number' ? v : typeof v}`);
  return v;
}

/**
 * Lowest wheel-centre height that keeps a wheel of radius r and width w, centred over (cx, cy)
 * with heading (fx, fy), at least `clearance` above the terrain: over samples at forward offset s
 * and lateral offset l of the footprint, the rim's lowest point at s is sqrt(r² − s²) below the
 * centre.
 */
function wheelCentreHeight(
  heightAt: (x: number, y: number) => number,
  cx: number,
  cy: number,
  fx: number,
  fy: number,
  r: number,
  width: number,
  clearance: number,
): number {
  let z = -Infinity;
  // an odd count, so the centre (s = 0) and both rim ends (s = ±r) are sampled
  const half = Math.min(
    (FOOTPRINT_SAMPLES_ALONG_MAX - 1) / 2,
    Math.max((FOOTPRINT_SAMPLES_ALONG_MIN - 1) / 2, Math.ceil(r / ROVER_FOOTPRINT_SAMPLE_SPACING)),
  );
  for (let a = 0; a <= 2 * half; a++) {
    const s = ((a - half) / half) * r;
    const drop = Math.sqrt(Math.max(0, r * r - s * s));
    for (let b = 0; b < FOOTPRINT_SAMPLES_ACROSS; b++) {
      const l = (b / (FOOTPRINT_SAMPLES_ACROSS - 1) - 0.5) * width;
      const x = cx + s * fx - l * fy;
      const y = cy + s * fy + l * fx;
      const h = heightAt(x, y);
      if (!Number.isFinite(h)) throw new Error(`buildSkidSteerRover: heightAt(${x}, ${y}) returned ${h}; the start must be over the terrain`);
      z = Math.max(z, h + drop + clearance);
    }
  }
  return z;
}

/**
 * Builds the rover at `start` (chassis origin position [m] and yaw [rad] about +z, chassis level).
 * With `heightAt`, `start.position[2]` is ignored: the chassis height is chosen so the wheel
 * nearest the ground clears it by ROVER_START_CLEARANCE (the others by at least that).
 * Throws an Error naming the field when the spec is not a buildable rover.
 */
export function buildSkidSteerRover(
  spec: SkidSteerBuildSpec,
  start: { position: Vec3Spec; yaw: number },
  heightAt?: (x: number, y: number) => number,
): RobotSpec {
  const r = positive(spec.wheelRadius, 'wheelRadius');
  const width = positive(spec.wheelWidth, 'wheelWidth');
  const wheelbase = positive(spec.wheelbase, 'wheelbase');
  const track = positive(spec.track, 'track');
  const drop = finite(spec.wheelDrop, 'wheelDrop');
  const he: Vec3Spec = [
    positive(spec.chassisHalfExtents?.[0], 'chassisHalfExtents[0]'),
    positive(spec.chassisHalfExtents?.[1], 'chassisHalfExtents[1]'),
    positive(spec.chassisHalfExtents?.[2], 'chassisHalfExtents[2]'),
  ];
  // The wheels carry the chassis only if its bottom is above the wheels' lowest points.
  if (drop + r <= he[2]) {
    throw new Error(
      `buildSkidSteerRover: "wheelDrop" ${drop} m + "wheelRadius" ${r} m must exceed the chassis half height ${he[2]} m, or the chassis rests on the ground`,
    );
  }
  const chassisMass = positive(spec.chassisMass ?? ROVER_CHASSIS_MASS, 'chassisMass');
  const wheelMass = positive(spec.wheelMass ?? ROVER_WHEEL_MASS, 'wheelMass');
  const maxTorque = positive(spec.maxTorque ?? ROVER_MAX_TORQUE, 'maxTorque');
  const yaw = finite(start.yaw, 'start.yaw');
  const px = finite(start.position[0], 'start.position[0]');
  const py = finite(start.position[1], 'start.position[1]');
  let pz = finite(start.position[2], 'start.position[2]');

  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  const wheelXY = ROVER_WHEELS.map((w): [number, number] => {
    const ox = (w.sx * wheelbase) / 2;
    const oy = (w.sy * track) / 2;
    return [px + c * ox - s * oy, py + s * ox + c * oy];
  });
  if (heightAt) {
    let centre = -Infinity;
    for (const [x, y] of wheelXY) centre = Math.max(centre, wheelCentreHeight(heightAt, x, y, c, s, r, width, ROVER_START_CLEARANCE));
    pz = centre + drop;
  }

  const names = roverNames(spec.name);
  const half = yaw / 2;
  const qYaw: QuatSpec = [0, 0, Math.sin(half), Math.cos(half)];
  // yaw ∘ Rx(−90°): q = qYaw ⊗ [−sin 45°, 0, 0, cos 45°], expanded for qYaw = (0, 0, sz, cz).
  const k = Math.SQRT1_2;
  const qWheel: QuatSpec = [-k * qYaw[3], -k * qYaw[2], k * qYaw[2], k * qYaw[3]];
  const axis: Vec3Spec = [-s, c, 0];

  const chassis: BodySpec = {
    name: names.chassis,
    shape: { type: 'box', halfExtents: he },
    type: 'dynamic',
    mass: chassisMass,
    position: [px, py, pz],
    orientation: qYaw,
    material: spec.chassisMaterial ?? 'default',
  };
  const bodies: BodySpec[] = [chassis];
  const joints: JointSpec[] = [];
  ROVER_WHEELS.forEach((_, i) => {
    const centre: Vec3Spec = [wheelXY[i][0], wheelXY[i][1], pz - drop];
    bodies.push({
      name: names.wheels[i],
      shape: { type: 'cylinder', radius: r, height: width },
      type: 'dynamic',
      mass: wheelMass,
      position: centre,
      orientation: [...qWheel],
      material: spec.wheelMaterial ?? 'default',
    });
    joints.push({
      type: 'revolute',
      name: names.joints[i],
      bodyA: names.chassis,
      bodyB: names.wheels[i],
      anchor: [...centre],
      axis: [...axis],
      motor: { targetVelocity: 0, maxTorque },
    });
  });
  const controller: ControllerSpec = {
    type: 'skid-steer',
    left: [names.joints[0], names.joints[2]],
    right: [names.joints[1], names.joints[3]],
    wheelRadius: r,
    track,
    maxSpeed: positive(spec.maxSpeed, 'maxSpeed'),
    maxYawRate: positive(spec.maxYawRate, 'maxYawRate'),
    maxAcceleration: positive(spec.maxAccel, 'maxAccel'),
    maxYawAcceleration: positive(spec.maxYawAccel, 'maxYawAccel'),
    maxTorque,
  };
  return { name: spec.name, bodies, joints, controller, base: names.chassis };
}
