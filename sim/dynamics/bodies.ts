/**
 * The body store: every rigid body of a world in flat float64 arrays (structure of arrays), so
 * that a step touches a few typed arrays, a saved state is a copy of them, and nothing allocates.
 *
 * Frames. A body has two frames:
 *   - its *body frame* (what scenarios, URDF links and `state()` talk about): origin `o`;
 *   - its *mass frame*: same orientation, origin at the centre of mass `x = o + R·c`, with
 *     `c` = `comLocal`. The solver works in the mass frame only (`pos` is x, velocities are the
 *     centre of mass's), the API converts.
 * Shapes are placed in the mass frame by `shapeOffset` (position, then orientation), fixed at
 * build time.
 *
 * Body types: static (never moves, infinite mass), kinematic (moves by its velocity, infinite
 * mass), dynamic. Static and kinematic bodies have invMass = 0 and a zero inverse inertia, so
 * every solver formula treats them alike without branches.
 */
import type { Quat } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import type { Shape } from '../shapes/shape';

export const BodyKind = { Static: 0, Kinematic: 1, Dynamic: 2 } as const;
export type BodyKind = (typeof BodyKind)[keyof typeof BodyKind];
export const BODY_KIND_NAMES = ['static', 'kinematic', 'dynamic'] as const;

/** Per-body flags (bits). */
export const BodyFlag = {
  /** Force continuous collision. */
  Ccd: 1,
  /** The shape is a single cylinder: contacts with the terrain through the analytic wheel algorithm. */
  AnalyticCylinder: 2,
} as const;

export class BodyStore {
  readonly capacity: number;
  count = 0;
  readonly names: string[] = [];
  /** Collision shape in the mass frame; null for a body that collides with nothing (a URDF link without collision). */
  readonly shapes: (Shape | null)[] = [];
  readonly kind: Uint8Array;
  readonly flags: Uint8Array;
  /** 1 = awake, 0 = asleep. Static bodies count as asleep. */
  readonly awake: Uint8Array;
  readonly material: Int32Array;
  /** [m] Centre of mass, world. */
  readonly pos: Float64Array;
  /** Orientation [x, y, z, w]. */
  readonly rot: Float64Array;
  /** [m/s] Centre-of-mass velocity, world. */
  readonly linVel: Float64Array;
  /** [rad/s] World. */
  readonly angVel: Float64Array;
  readonly mass: Float64Array;
  readonly invMass: Float64Array;
  /** [1/(kg·m²)] Inverse inertia about the centre of mass, body axes, column-major 3×3. */
  readonly invInertiaLocal: Float64Array;
  /** The same in world axes, R·I⁻¹·Rᵀ, refreshed whenever `rot` changes. */
  readonly invInertiaWorld: Float64Array;
  /** [m] Centre of mass in the body frame. */
  readonly comLocal: Float64Array;
  /** Shape pose in the mass frame: position (3) and orientation (4). */
  readonly shapeOffsetPos: Float64Array;
  readonly shapeOffsetRot: Float64Array;
  /** [m] Smallest extent of the shape (for CCD decisions and warnings). */
  readonly minExtent: Float64Array;
  /** [m] Bounding radius of the shape about the centre of mass. */
  readonly boundRadius: Float64Array;
  /** [s] How long the body has been still. */
  readonly sleepTime: Float64Array;
  /**
   * Sleep anchor: centre of mass (3) and orientation (4) where the body's current still period
   * began; a body that stays within SLEEP_DRIFT of it counts as still even while it jitters.
   */
  readonly sleepPos: Float64Array;
  readonly sleepRot: Float64Array;
  /**
   * Collision filter. Bodies with the same non-zero group never collide with each other: the
   * links of one robot, as Gazebo's default (`self_collide` off). 0 = no group. Set at build.
   */
  readonly collisionGroup: Int32Array;
  /**
   * Sorted keys (lo · 2²¹ + hi, body indices) of pairs that never collide although their groups
   * allow it: SRDF-style `disable_collisions` of a robot that collides with itself. Set at build.
   */
  noCollideKeys = new Float64Array(0);
  /** Centre of mass and orientation at the start of the step (contact separation tracking, CCD). */
  readonly pos0: Float64Array;
  readonly rot0: Float64Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.kind = new Uint8Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.awake = new Uint8Array(capacity);
    this.material = new Int32Array(capacity);
    this.pos = new Float64Array(3 * capacity);
    this.rot = new Float64Array(4 * capacity);
    this.linVel = new Float64Array(3 * capacity);
    this.angVel = new Float64Array(3 * capacity);
    this.mass = new Float64Array(capacity);
    this.invMass = new Float64Array(capacity);
    this.invInertiaLocal = new Float64Array(9 * capacity);
    this.invInertiaWorld = new Float64Array(9 * capacity);
    this.comLocal = new Float64Array(3 * capacity);
    this.shapeOffsetPos = new Float64Array(3 * capacity);
    this.shapeOffsetRot = new Float64Array(4 * capacity);
    this.minExtent = new Float64Array(capacity);
    this.boundRadius = new Float64Array(capacity);
    this.sleepTime = new Float64Array(capacity);
    this.sleepPos = new Float64Array(3 * capacity);
    this.sleepRot = new Float64Array(4 * capacity);
    this.collisionGroup = new Int32Array(capacity);
    this.pos0 = new Float64Array(3 * capacity);
    this.rot0 = new Float64Array(4 * capacity);
  }

  /**
   * True when bodies lo < hi are kept from colliding by the filter (same group, or a disabled
   * pair). Binary search over a sorted typed array: nothing allocates.
   */
  collisionFiltered(lo: number, hi: number): boolean {
    const g = this.collisionGroup[lo];
    if (g !== 0 && g === this.collisionGroup[hi]) return true;
    const k = this.noCollideKeys;
    if (k.length === 0) return false;
    const key = lo * 2097152 + hi;
    let l = 0, r = k.length - 1;
    while (l <= r) {
      const m = (l + r) >> 1;
      if (k[m] === key) return true;
      if (k[m] < key) l = m + 1;
      else r = m - 1;
    }
    return false;
  }

  /** Index of the body with this name, or −1. */
  indexOf(name: string): number {
    return this.names.indexOf(name);
  }

  /** Recomputes the world inverse inertia of body b from its orientation: R·I⁻¹·Rᵀ. */
  updateInertia(b: number): void {
    const q = 4 * b;
    const x = this.rot[q], y = this.rot[q + 1], z = this.rot[q + 2], w = this.rot[q + 3];
    // rotation matrix, row-major names r_ij
    const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
    const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
    const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
    const L = this.invInertiaLocal, o = 9 * b;
    // column-major: m_ij = L[o + j*3 + i]
    const l00 = L[o], l10 = L[o + 1], l20 = L[o + 2];
    const l01 = L[o + 3], l11 = L[o + 4], l21 = L[o + 5];
    const l02 = L[o + 6], l12 = L[o + 7], l22 = L[o + 8];
    // T = R·L
    const t00 = r00 * l00 + r01 * l10 + r02 * l20, t01 = r00 * l01 + r01 * l11 + r02 * l21, t02 = r00 * l02 + r01 * l12 + r02 * l22;
    const t10 = r10 * l00 + r11 * l10 + r12 * l20, t11 = r10 * l01 + r11 * l11 + r12 * l21, t12 = r10 * l02 + r11 * l12 + r12 * l22;
    const t20 = r20 * l00 + r21 * l10 + r22 * l20, t21 = r20 * l01 + r21 * l11 + r22 * l21, t22 = r20 * l02 + r21 * l12 + r22 * l22;
    // W = T·Rᵀ (symmetric)
    const W = this.invInertiaWorld;
    const w00 = t00 * r00 + t01 * r01 + t02 * r02;
    const w01 = t00 * r10 + t01 * r11 + t02 * r12;
    const w02 = t00 * r20 + t01 * r21 + t02 * r22;
    const w11 = t10 * r10 + t11 * r11 + t12 * r12;
    const w12 = t10 * r20 + t11 * r21 + t12 * r22;
    const w22 = t20 * r20 + t21 * r21 + t22 * r22;
    W[o] = w00; W[o + 1] = w01; W[o + 2] = w02;
    W[o + 3] = w01; W[o + 4] = w11; W[o + 5] = w12;
    W[o + 6] = w02; W[o + 7] = w12; W[o + 8] = w22;
  }

  /** World position of the body frame's origin: o = x − R·c. */
  originOf(out: Vec3, b: number): Vec3 {
    rotateByBody(out, this.rot, b, this.comLocal[3 * b], this.comLocal[3 * b + 1], this.comLocal[3 * b + 2]);
    out[0] = this.pos[3 * b] - out[0];
    out[1] = this.pos[3 * b + 1] - out[1];
    out[2] = this.pos[3 * b + 2] - out[2];
    return out;
  }

  /** World pose of the body's shape: x + R·offsetPos, R·offsetRot. */
  shapePose(outPos: Vec3, outRot: Quat, b: number): void {
    const sp = 3 * b, sr = 4 * b;
    rotateByBody(outPos, this.rot, b, this.shapeOffsetPos[sp], this.shapeOffsetPos[sp + 1], this.shapeOffsetPos[sp + 2]);
    outPos[0] += this.pos[sp];
    outPos[1] += this.pos[sp + 1];
    outPos[2] += this.pos[sp + 2];
    const ax = this.rot[sr], ay = this.rot[sr + 1], az = this.rot[sr + 2], aw = this.rot[sr + 3];
    const bx = this.shapeOffsetRot[sr], by = this.shapeOffsetRot[sr + 1], bz = this.shapeOffsetRot[sr + 2], bw = this.shapeOffsetRot[sr + 3];
    outRot[0] = aw * bx + ax * bw + ay * bz - az * by;
    outRot[1] = aw * by - ax * bz + ay * bw + az * bx;
    outRot[2] = aw * bz + ax * by - ay * bx + az * bw;
    outRot[3] = aw * bw - ax * bx - ay * by - az * bz;
  }
}

/** out = R_b · (x, y, z), R_b the orientation of body b in `rot`. */
export function rotateByBody(out: Vec3, rot: Float64Array, b: number, x: number, y: number, z: number): Vec3 {
  const q = 4 * b;
  const qx = rot[q], qy = rot[q + 1], qz = rot[q + 2], qw = rot[q + 3];
  // v' = v + 2w(q×v) + 2q×(q×v)
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[0] = x + qw * tx + (qy * tz - qz * ty);
  out[1] = y + qw * ty + (qz * tx - qx * tz);
  out[2] = z + qw * tz + (qx * ty - qy * tx);
  return out;
}

/** out = R_bᵀ · (x, y, z). */
export function rotateInverseByBody(out: Vec3, rot: Float64Array, b: number, x: number, y: number, z: number): Vec3 {
  const q = 4 * b;
  const qx = -rot[q], qy = -rot[q + 1], qz = -rot[q + 2], qw = rot[q + 3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[0] = x + qw * tx + (qy * tz - qz * ty);
  out[1] = y + qw * ty + (qz * tx - qx * tz);
  out[2] = z + qw * tz + (qx * ty - qy * tx);
  return out;
}
