/**
 * Joints: revolute (hinge: wheel axles, steering), fixed, prismatic (suspension), ball (trailer
 * hitch), solved as soft constraints in the same stages as contacts (Box2D v3's joint solver,
 * carried to 3D).
 *
 * Frames. Every joint stores its anchor and axis in both bodies' mass frames, taken from the
 * world anchor/axis at the start pose, and the relative orientation q0 = q_A⁻¹·q_B at that pose
 * (the zero of the joint's angle and of a fixed joint's error). "World" as body A is the static
 * terrain slot.
 *
 * Rows, solved in this order so that the hard rows have the last word:
 *   1. spring / damping / joint friction / motor on the joint coordinate (revolute: angle about
 *      the axis; prismatic: slide along it),
 *   2. limits (one-sided, speculative when not yet reached),
 *   3. the locked rows: point (3×3 block: revolute, fixed, prismatic's two perpendicular rows
 *      use their own), angular (revolute 2×2 block perpendicular to the axis; fixed and
 *      prismatic 3×3).
 * Sign convention: the joint coordinate's rate is axis·(ω_B − ω_A) (revolute) or
 * axis·(v_B − v_A at the anchor) (prismatic); a motor's positive target turns/moves B
 * positively about/along the axis relative to A.
 */
import type { BodyStore } from './bodies';
import { rotateByBody } from './bodies';
import { Softness, springSoftness } from './soft';
import type { Vec3 } from '../math/vec3';

export const JointKind = { Revolute: 0, Fixed: 1, Prismatic: 2, Ball: 3 } as const;
export type JointKind = (typeof JointKind)[keyof typeof JointKind];
export const JOINT_KIND_NAMES = ['revolute', 'fixed', 'prismatic', 'ball'] as const;

/** Number of float64 slots of one joint's warm-start state (see JointStore.impulses). */
export const JOINT_IMPULSE_STRIDE = 12;
const I_LIN = 0, I_ANG = 3, I_MOTOR = 6, I_LOWER = 7, I_UPPER = 8, I_SPRING = 9, I_PERP = 10;

export interface JointDef {
  kind: JointKind;
  name: string;
  bodyA: number;
  bodyB: number;
  /** Anchor and axis in each body's mass frame; perp ⟂ axis, also in both. */
  anchorA: Vec3;
  anchorB: Vec3;
  axisA: Vec3;
  axisB: Vec3;
  perpA: Vec3;
  /** q_A⁻¹·q_B at the start pose. */
  q0: [number, number, number, number];
  limits: [number, number] | null;
  motor: boolean;
  maxMotorEffort: number;
  stiffness: number;
  damping: number;
  restPosition: number;
  friction: number;
}

export class JointStore {
  readonly defs: JointDef[] = [];
  /** Motor target velocities (state: the drive writes them). */
  motorTarget = new Float64Array(0);
  /** Accumulated impulses, JOINT_IMPULSE_STRIDE per joint (warm start; state). */
  impulses = new Float64Array(0);
  /** Joint coordinate and its rate after the last step (report). */
  position = new Float64Array(0);
  velocity = new Float64Array(0);
  /** Sorted pair keys of jointed bodies (their contacts are not generated). */
  connectedKeys = new Float64Array(0);

  get count(): number {
    return this.defs.length;
  }

  add(def: JointDef, motorTarget: number): number {
    this.defs.push(def);
    const n = this.defs.length;
    const grow = (a: Float64Array, stride: number) => {
      const b = new Float64Array(n * stride);
      b.set(a);
      return b;
    };
    this.motorTarget = grow(this.motorTarget, 1);
    this.impulses = grow(this.impulses, JOINT_IMPULSE_STRIDE);
    this.position = grow(this.position, 1);
    this.velocity = grow(this.velocity, 1);
    this.motorTarget[n - 1] = motorTarget;
    const lo = Math.min(def.bodyA, def.bodyB), hi = Math.max(def.bodyA, def.bodyB);
    const keys = Array.from(this.connectedKeys);
    keys.push(lo * 2097152 + hi);
    keys.sort((x, y) => x - y);
    this.connectedKeys = Float64Array.from(keys);
    return n - 1;
  }

  /** True if bodies a and b are joined (either order). */
  connected(a: number, b: number): boolean {
    const lo = Math.min(a, b), hi = Math.max(a, b);
    const key = lo * 2097152 + hi;
    const k = this.connectedKeys;
    let l = 0, r = k.length - 1;
    while (l <= r) {
      const m = (l + r) >> 1;
      if (k[m] === key) return true;
      if (k[m] < key) l = m + 1;
      else r = m - 1;
    }
    return false;
  }
}

// --- scratch (module-level, never escapes a call) -------------------------------------------
const rA: Vec3 = [0, 0, 0];
const rB: Vec3 = [0, 0, 0];
const ax: Vec3 = [0, 0, 0];
const bx: Vec3 = [0, 0, 0];
const p1: Vec3 = [0, 0, 0];
const p2: Vec3 = [0, 0, 0];
const tmp: Vec3 = [0, 0, 0];
const K = new Float64Array(9);
const Kinv = new Float64Array(9);
const spring = new Softness();

/** Joint solver context of one substep. */
export interface JointSolveContext {
  bodies: BodyStore;
  /** Per body slot: inverse mass the solver may use this step (0 = do not move). */
  invMass: Float64Array;
  soft: Softness;
  h: number;
  invH: number;
}

/** Relative velocity of B's anchor w.r.t. A's along d, with A's arm `ra` (may include the prismatic offset). */
function linVel(bodies: BodyStore, a: number, b: number, ra: Vec3, rb: Vec3, dx: number, dy: number, dz: number): number {
  const v = bodies.linVel, w = bodies.angVel;
  const wax = w[3 * a], way = w[3 * a + 1], waz = w[3 * a + 2];
  const wbx = w[3 * b], wby = w[3 * b + 1], wbz = w[3 * b + 2];
  const vx = v[3 * b] + wby * rb[2] - wbz * rb[1] - (v[3 * a] + way * ra[2] - waz * ra[1]);
  const vy = v[3 * b + 1] + wbz * rb[0] - wbx * rb[2] - (v[3 * a + 1] + waz * ra[0] - wax * ra[2]);
  const vz = v[3 * b + 2] + wbx * rb[1] - wby * rb[0] - (v[3 * a + 2] + wax * ra[1] - way * ra[0]);
  return vx * dx + vy * dy + vz * dz;
}

function angMass(bodies: BodyStore, b: number, dx: number, dy: number, dz: number): number {
  const I = bodies.invInertiaWorld, o = 9 * b;
  return dx * (I[o] * dx + I[o + 3] * dy + I[o + 6] * dz)
    + dy * (I[o + 1] * dx + I[o + 4] * dy + I[o + 7] * dz)
    + dz * (I[o + 2] * dx + I[o + 5] * dy + I[o + 8] * dz);
}

function linK(ctx: JointSolveContext, a: number, b: number, ra: Vec3, rb: Vec3, dx: number, dy: number, dz: number): number {
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  let k = mA + mB;
  if (mA > 0) k += angMass(ctx.bodies, a, ra[1] * dz - ra[2] * dy, ra[2] * dx - ra[0] * dz, ra[0] * dy - ra[1] * dx);
  if (mB > 0) k += angMass(ctx.bodies, b, rb[1] * dz - rb[2] * dy, rb[2] * dx - rb[0] * dz, rb[0] * dy - rb[1] * dx);
  return k;
}

function angK(ctx: JointSolveContext, a: number, b: number, dx: number, dy: number, dz: number): number {
  return (ctx.invMass[a] > 0 ? angMass(ctx.bodies, a, dx, dy, dz) : 0) + (ctx.invMass[b] > 0 ? angMass(ctx.bodies, b, dx, dy, dz) : 0);
}

/** Applies linear impulse P: +P to B at rb, −P to A at ra. */
function applyLin(ctx: JointSolveContext, a: number, b: number, ra: Vec3, rb: Vec3, px: number, py: number, pz: number): void {
  const v = ctx.bodies.linVel;
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  if (mA > 0) {
    v[3 * a] -= mA * px; v[3 * a + 1] -= mA * py; v[3 * a + 2] -= mA * pz;
    applyAngTo(ctx.bodies, a, -(ra[1] * pz - ra[2] * py), -(ra[2] * px - ra[0] * pz), -(ra[0] * py - ra[1] * px));
  }
  if (mB > 0) {
    v[3 * b] += mB * px; v[3 * b + 1] += mB * py; v[3 * b + 2] += mB * pz;
    applyAngTo(ctx.bodies, b, rb[1] * pz - rb[2] * py, rb[2] * px - rb[0] * pz, rb[0] * py - rb[1] * px);
  }
}

function applyAngTo(bodies: BodyStore, b: number, lx: number, ly: number, lz: number): void {
  const w = bodies.angVel, I = bodies.invInertiaWorld, o = 9 * b;
  w[3 * b] += I[o] * lx + I[o + 3] * ly + I[o + 6] * lz;
  w[3 * b + 1] += I[o + 1] * lx + I[o + 4] * ly + I[o + 7] * lz;
  w[3 * b + 2] += I[o + 2] * lx + I[o + 5] * ly + I[o + 8] * lz;
}

/** Angular impulse L: +L to B, −L to A. */
function applyAng(ctx: JointSolveContext, a: number, b: number, lx: number, ly: number, lz: number): void {
  if (ctx.invMass[a] > 0) applyAngTo(ctx.bodies, a, -lx, -ly, -lz);
  if (ctx.invMass[b] > 0) applyAngTo(ctx.bodies, b, lx, ly, lz);
}

function angVel(bodies: BodyStore, a: number, b: number, dx: number, dy: number, dz: number): number {
  const w = bodies.angVel;
  return (w[3 * b] - w[3 * a]) * dx + (w[3 * b + 1] - w[3 * a + 1]) * dy + (w[3 * b + 2] - w[3 * a + 2]) * dz;
}

/** Symmetric 3×3 inverse (column-major); returns false when singular. */
function invert3(out: Float64Array, m: Float64Array): boolean {
  const a = m[0], b = m[3], c = m[6], d = m[1], e = m[4], f = m[7], g = m[2], h = m[5], i = m[8];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 1e-300)) return false;
  const inv = 1 / det;
  out[0] = A * inv; out[1] = B * inv; out[2] = C * inv;
  out[3] = -(b * i - c * h) * inv; out[4] = (a * i - c * g) * inv; out[5] = -(a * h - b * g) * inv;
  out[6] = (b * f - c * e) * inv; out[7] = -(a * f - c * d) * inv; out[8] = (a * e - b * d) * inv;
  return true;
}

/** Adds −m·[r]×·I·[r]× (the point-row block of one body) to K. */
function addPointBlock(bodies: BodyStore, b: number, r: Vec3): void {
  // K += [r]×ᵀ I [r]×, column by column: for each unit e_k, (I (e_k × r)) × r ... computed as
  // col_k = −r × (I (r × e_k))
  for (let k = 0; k < 3; k++) {
    const ex = k === 0 ? 1 : 0, ey = k === 1 ? 1 : 0, ez = k === 2 ? 1 : 0;
    const cx = r[1] * ez - r[2] * ey, cy = r[2] * ex - r[0] * ez, cz = r[0] * ey - r[1] * ex; // r × e_k
    const I = bodies.invInertiaWorld, o = 9 * b;
    const ix = I[o] * cx + I[o + 3] * cy + I[o + 6] * cz;
    const iy = I[o + 1] * cx + I[o + 4] * cy + I[o + 7] * cz;
    const iz = I[o + 2] * cx + I[o + 5] * cy + I[o + 8] * cz;
    // −r × (I (r × e_k)) = (I(r×e_k)) × r
    K[3 * k] += iy * r[2] - iz * r[1];
    K[3 * k + 1] += iz * r[0] - ix * r[2];
    K[3 * k + 2] += ix * r[1] - iy * r[0];
  }
}

/** Point constraint (anchors coincide): 3×3 block. */
function solvePoint(ctx: JointSolveContext, j: number, a: number, b: number, useBias: boolean, imp: Float64Array): void {
  const bodies = ctx.bodies, pos = bodies.pos;
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  K.fill(0);
  K[0] = K[4] = K[8] = mA + mB;
  if (mA > 0) addPointBlock(bodies, a, rA);
  if (mB > 0) addPointBlock(bodies, b, rB);
  if (!invert3(Kinv, K)) return;
  const v = bodies.linVel, w = bodies.angVel;
  const cdx = v[3 * b] + w[3 * b + 1] * rB[2] - w[3 * b + 2] * rB[1] - (v[3 * a] + w[3 * a + 1] * rA[2] - w[3 * a + 2] * rA[1]);
  const cdy = v[3 * b + 1] + w[3 * b + 2] * rB[0] - w[3 * b] * rB[2] - (v[3 * a + 1] + w[3 * a + 2] * rA[0] - w[3 * a] * rA[2]);
  const cdz = v[3 * b + 2] + w[3 * b] * rB[1] - w[3 * b + 1] * rB[0] - (v[3 * a + 2] + w[3 * a] * rA[1] - w[3 * a + 1] * rA[0]);
  let bx0 = 0, by0 = 0, bz0 = 0, massScale = 1, impulseScale = 0;
  if (useBias) {
    const s = ctx.soft;
    bx0 = s.biasRate * (pos[3 * b] + rB[0] - pos[3 * a] - rA[0]);
    by0 = s.biasRate * (pos[3 * b + 1] + rB[1] - pos[3 * a + 1] - rA[1]);
    bz0 = s.biasRate * (pos[3 * b + 2] + rB[2] - pos[3 * a + 2] - rA[2]);
    massScale = s.massScale;
    impulseScale = s.impulseScale;
  }
  const o = JOINT_IMPULSE_STRIDE * j + I_LIN;
  const ux = cdx + bx0, uy = cdy + by0, uz = cdz + bz0;
  const px = -massScale * (Kinv[0] * ux + Kinv[3] * uy + Kinv[6] * uz) - impulseScale * imp[o];
  const py = -massScale * (Kinv[1] * ux + Kinv[4] * uy + Kinv[7] * uz) - impulseScale * imp[o + 1];
  const pz = -massScale * (Kinv[2] * ux + Kinv[5] * uy + Kinv[8] * uz) - impulseScale * imp[o + 2];
  imp[o] += px; imp[o + 1] += py; imp[o + 2] += pz;
  applyLin(ctx, a, b, rA, rB, px, py, pz);
}

/**
 * Angular lock. Revolute (axisOnly): the two rows perpendicular to the axis, error a × b_B
 * (the small rotation taking A's axis onto B's). Fixed/prismatic: all three rows, error from
 * the quaternion q_B·(q_A·q0)⁻¹.
 */
function solveAngular(ctx: JointSolveContext, j: number, def: JointDef, a: number, b: number, useBias: boolean, imp: Float64Array, axisOnly: boolean): void {
  const bodies = ctx.bodies;
  const o = JOINT_IMPULSE_STRIDE * j + I_ANG;
  let ex = 0, ey = 0, ez = 0;
  if (axisOnly) {
    // error φ⊥ = a × b (a: A's axis, b: B's axis, both world)
    ex = ax[1] * bx[2] - ax[2] * bx[1];
    ey = ax[2] * bx[0] - ax[0] * bx[2];
    ez = ax[0] * bx[1] - ax[1] * bx[0];
  } else {
    const r = bodies.rot, qa = 4 * a, qb = 4 * b, q0 = def.q0;
    // t = q_A · q0
    const ta = r[qa + 3], tx0 = r[qa], ty0 = r[qa + 1], tz0 = r[qa + 2];
    const tx = ta * q0[0] + tx0 * q0[3] + ty0 * q0[2] - tz0 * q0[1];
    const ty = ta * q0[1] - tx0 * q0[2] + ty0 * q0[3] + tz0 * q0[0];
    const tz = ta * q0[2] + tx0 * q0[1] - ty0 * q0[0] + tz0 * q0[3];
    const tw = ta * q0[3] - tx0 * q0[0] - ty0 * q0[1] - tz0 * q0[2];
    // e = q_B · t⁻¹
    const bw = r[qb + 3], bxq = r[qb], byq = r[qb + 1], bzq = r[qb + 2];
    const cx = -tx, cy = -ty, cz = -tz, cw = tw;
    const exq = bw * cx + bxq * cw + byq * cz - bzq * cy;
    const eyq = bw * cy - bxq * cz + byq * cw + bzq * cx;
    const ezq = bw * cz + bxq * cy - byq * cx + bzq * cw;
    const ewq = bw * cw - bxq * cx - byq * cy - bzq * cz;
    const sgn = ewq < 0 ? -2 : 2;
    ex = sgn * exq; ey = sgn * eyq; ez = sgn * ezq;
  }
  let massScale = 1, impulseScale = 0, biasRate = 0;
  if (useBias) {
    massScale = ctx.soft.massScale;
    impulseScale = ctx.soft.impulseScale;
    biasRate = ctx.soft.biasRate;
  }
  // K = I_A + I_B (world), restricted to the rows
  const I = bodies.invInertiaWorld;
  K.fill(0);
  if (ctx.invMass[a] > 0) for (let k = 0; k < 9; k++) K[k] += I[9 * a + k];
  if (ctx.invMass[b] > 0) for (let k = 0; k < 9; k++) K[k] += I[9 * b + k];
  const w = bodies.angVel;
  const rx = w[3 * b] - w[3 * a], ry = w[3 * b + 1] - w[3 * a + 1], rz = w[3 * b + 2] - w[3 * a + 2];
  if (axisOnly) {
    // 2×2 in the basis p1, p2 ⟂ axis
    const k11 = dotK(p1, p1), k12 = dotK(p1, p2), k22 = dotK(p2, p2);
    const det = k11 * k22 - k12 * k12;
    if (!(det > 1e-300)) return;
    const u1 = rx * p1[0] + ry * p1[1] + rz * p1[2] + biasRate * (ex * p1[0] + ey * p1[1] + ez * p1[2]);
    const u2 = rx * p2[0] + ry * p2[1] + rz * p2[2] + biasRate * (ex * p2[0] + ey * p2[1] + ez * p2[2]);
    const inv = 1 / det;
    const l1 = -massScale * inv * (k22 * u1 - k12 * u2) - impulseScale * imp[o];
    const l2 = -massScale * inv * (k11 * u2 - k12 * u1) - impulseScale * imp[o + 1];
    imp[o] += l1;
    imp[o + 1] += l2;
    applyAng(ctx, a, b, l1 * p1[0] + l2 * p2[0], l1 * p1[1] + l2 * p2[1], l1 * p1[2] + l2 * p2[2]);
    return;
  }
  if (!invert3(Kinv, K)) return;
  const ux = rx + biasRate * ex, uy = ry + biasRate * ey, uz = rz + biasRate * ez;
  const lx = -massScale * (Kinv[0] * ux + Kinv[3] * uy + Kinv[6] * uz) - impulseScale * imp[o];
  const ly = -massScale * (Kinv[1] * ux + Kinv[4] * uy + Kinv[7] * uz) - impulseScale * imp[o + 1];
  const lz = -massScale * (Kinv[2] * ux + Kinv[5] * uy + Kinv[8] * uz) - impulseScale * imp[o + 2];
  imp[o] += lx; imp[o + 1] += ly; imp[o + 2] += lz;
  applyAng(ctx, a, b, lx, ly, lz);
}

function dotK(u: Vec3, v: Vec3): number {
  const x = K[0] * v[0] + K[3] * v[1] + K[6] * v[2];
  const y = K[1] * v[0] + K[4] * v[1] + K[7] * v[2];
  const z = K[2] * v[0] + K[5] * v[1] + K[8] * v[2];
  return u[0] * x + u[1] * y + u[2] * z;
}

/** Revolute angle of B relative to A about the axis, in (−π, π]: from q_rel = q0⁻¹·q_A⁻¹·q_B. */
function revoluteAngle(bodies: BodyStore, def: JointDef, a: number, b: number): number {
  const r = bodies.rot, qa = 4 * a, qb = 4 * b;
  // m = q_A⁻¹ · q_B
  const ax0 = -r[qa], ay0 = -r[qa + 1], az0 = -r[qa + 2], aw0 = r[qa + 3];
  const bx0 = r[qb], by0 = r[qb + 1], bz0 = r[qb + 2], bw0 = r[qb + 3];
  const mx = aw0 * bx0 + ax0 * bw0 + ay0 * bz0 - az0 * by0;
  const my = aw0 * by0 - ax0 * bz0 + ay0 * bw0 + az0 * bx0;
  const mz = aw0 * bz0 + ax0 * by0 - ay0 * bx0 + az0 * bw0;
  const mw = aw0 * bw0 - ax0 * bx0 - ay0 * by0 - az0 * bz0;
  // e = m · q0⁻¹ (rotation in A's frame)
  const q0 = def.q0;
  const cx = -q0[0], cy = -q0[1], cz = -q0[2], cw = q0[3];
  const ex = mw * cx + mx * cw + my * cz - mz * cy;
  const ey = mw * cy - mx * cz + my * cw + mz * cx;
  const ez = mw * cz + mx * cy - my * cx + mz * cw;
  const ew = mw * cw - mx * cx - my * cy - mz * cz;
  const s = ex * def.axisA[0] + ey * def.axisA[1] + ez * def.axisA[2];
  let angle = 2 * Math.atan2(s, ew);
  if (angle > Math.PI) angle -= 2 * Math.PI;
  else if (angle <= -Math.PI) angle += 2 * Math.PI;
  return angle;
}

/**
 * One pass over all joints. useBias: solve stage (soft, corrects drift); false: relax stage
 * (rigid rows without bias). Motors, springs and friction act in both (they are physical).
 */
export function solveJoints(joints: JointStore, ctx: JointSolveContext, useBias: boolean): void {
  const bodies = ctx.bodies, imp = joints.impulses;
  for (let j = 0; j < joints.defs.length; j++) {
    const def = joints.defs[j];
    const a = def.bodyA, b = def.bodyB;
    if (ctx.invMass[a] === 0 && ctx.invMass[b] === 0) continue;
    rotateByBody(rA, bodies.rot, a, def.anchorA[0], def.anchorA[1], def.anchorA[2]);
    rotateByBody(rB, bodies.rot, b, def.anchorB[0], def.anchorB[1], def.anchorB[2]);
    if (def.kind === JointKind.Ball) {
      solvePoint(ctx, j, a, b, useBias, imp);
      continue;
    }
    rotateByBody(ax, bodies.rot, a, def.axisA[0], def.axisA[1], def.axisA[2]);
    if (def.kind === JointKind.Fixed) {
      solveAngular(ctx, j, def, a, b, useBias, imp, false);
      solvePoint(ctx, j, a, b, useBias, imp);
      continue;
    }
    rotateByBody(p1, bodies.rot, a, def.perpA[0], def.perpA[1], def.perpA[2]);
    p2[0] = ax[1] * p1[2] - ax[2] * p1[1];
    p2[1] = ax[2] * p1[0] - ax[0] * p1[2];
    p2[2] = ax[0] * p1[1] - ax[1] * p1[0];
    if (def.kind === JointKind.Revolute) {
      rotateByBody(bx, bodies.rot, b, def.axisB[0], def.axisB[1], def.axisB[2]);
      const kAxis = angK(ctx, a, b, ax[0], ax[1], ax[2]);
      if (kAxis > 0) solveCoordinateRows(joints, ctx, j, def, a, b, useBias, kAxis, true);
      solveAngular(ctx, j, def, a, b, useBias, imp, true);
      solvePoint(ctx, j, a, b, useBias, imp);
    } else {
      // prismatic: A's arm extended to B's anchor (d), so the rows see A's rotation of the axis
      const pos = bodies.pos;
      const dx = pos[3 * b] + rB[0] - pos[3 * a] - rA[0];
      const dy = pos[3 * b + 1] + rB[1] - pos[3 * a + 1] - rA[1];
      const dz = pos[3 * b + 2] + rB[2] - pos[3 * a + 2] - rA[2];
      rA[0] += dx; rA[1] += dy; rA[2] += dz; // rA now reaches B's anchor
      const kAxis = linK(ctx, a, b, rA, rB, ax[0], ax[1], ax[2]);
      if (kAxis > 0) solveCoordinateRows(joints, ctx, j, def, a, b, useBias, kAxis, false, ax[0] * dx + ax[1] * dy + ax[2] * dz);
      solveAngular(ctx, j, def, a, b, useBias, imp, false);
      // two perpendicular linear rows, errors p·d
      solvePerpRow(ctx, j, a, b, useBias, imp, p1, p1[0] * dx + p1[1] * dy + p1[2] * dz, 0);
      solvePerpRow(ctx, j, a, b, useBias, imp, p2, p2[0] * dx + p2[1] * dy + p2[2] * dz, 1);
    }
  }
}

function solvePerpRow(ctx: JointSolveContext, j: number, a: number, b: number, useBias: boolean, imp: Float64Array, d: Vec3, c: number, slot: number): void {
  const k = linK(ctx, a, b, rA, rB, d[0], d[1], d[2]);
  if (!(k > 0)) return;
  let bias = 0, massScale = 1, impulseScale = 0;
  if (useBias) {
    bias = ctx.soft.biasRate * c;
    massScale = ctx.soft.massScale;
    impulseScale = ctx.soft.impulseScale;
  }
  const o = JOINT_IMPULSE_STRIDE * j + I_PERP + slot;
  const cdot = linVel(ctx.bodies, a, b, rA, rB, d[0], d[1], d[2]);
  const l = (-massScale * (cdot + bias)) / k - impulseScale * imp[o];
  imp[o] += l;
  applyLin(ctx, a, b, rA, rB, l * d[0], l * d[1], l * d[2]);
}

/**
 * The rows on the joint coordinate q (revolute angle, prismatic slide) along `ax`: spring and
 * damping (implicit spring–damper), Coulomb joint friction, velocity motor (effort-limited),
 * limits. `angular` selects the revolute (angular) or prismatic (linear, arms rA, rB) Jacobian.
 */
function solveCoordinateRows(
  joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef, a: number, b: number,
  useBias: boolean, k: number, angular: boolean, slide = 0,
): void {
  const imp = joints.impulses, o = JOINT_IMPULSE_STRIDE * j, bodies = ctx.bodies;
  const needQ = def.stiffness > 0 || def.limits !== null;
  const q = needQ ? (angular ? revoluteAngle(bodies, def, a, b) : slide) : 0;
  const m = 1 / k;
  // spring–damper toward restPosition (physical: acts in both stages)
  if (def.stiffness > 0 || def.damping > 0) {
    springSoftness(spring, def.stiffness, def.damping, m, ctx.h);
    const c = def.stiffness > 0 ? q - def.restPosition : 0;
    const l = -m * spring.massScale * (coordRate(ctx, a, b, angular) + spring.biasRate * c) - spring.impulseScale * imp[o + I_SPRING];
    imp[o + I_SPRING] += l;
    coordApply(ctx, a, b, angular, l);
  }
  // joint friction: a motor toward zero rate with effort friction·h
  if (def.friction > 0) {
    const l = -m * coordRate(ctx, a, b, angular);
    const lim = def.friction * ctx.h;
    // friction is not warm-started: it is re-solved from zero every substep
    coordApply(ctx, a, b, angular, Math.max(-lim, Math.min(lim, l)));
  }
  if (def.motor) {
    const old = imp[o + I_MOTOR];
    const maxL = def.maxMotorEffort * ctx.h;
    const l = -m * (coordRate(ctx, a, b, angular) - joints.motorTarget[j]);
    const total = Math.max(-maxL, Math.min(maxL, old + l));
    imp[o + I_MOTOR] = total;
    coordApply(ctx, a, b, angular, total - old);
  }
  if (def.limits !== null) {
    const lo = def.limits[0], hi = def.limits[1];
    // lower: q − lo ≥ 0
    {
      const c = q - lo;
      let bias = 0, massScale = 1, impulseScale = 0;
      if (c > 0) bias = c * ctx.invH;
      else if (useBias) {
        bias = ctx.soft.biasRate * c;
        massScale = ctx.soft.massScale;
        impulseScale = ctx.soft.impulseScale;
      }
      const old = imp[o + I_LOWER];
      const l = -m * massScale * (coordRate(ctx, a, b, angular) + bias) - impulseScale * old;
      const total = Math.max(0, old + l);
      imp[o + I_LOWER] = total;
      coordApply(ctx, a, b, angular, total - old);
    }
    // upper: hi − q ≥ 0 (impulse acts negatively on q)
    {
      const c = hi - q;
      let bias = 0, massScale = 1, impulseScale = 0;
      if (c > 0) bias = c * ctx.invH;
      else if (useBias) {
        bias = ctx.soft.biasRate * c;
        massScale = ctx.soft.massScale;
        impulseScale = ctx.soft.impulseScale;
      }
      const old = imp[o + I_UPPER];
      const l = -m * massScale * (-coordRate(ctx, a, b, angular) + bias) - impulseScale * old;
      const total = Math.max(0, old + l);
      imp[o + I_UPPER] = total;
      coordApply(ctx, a, b, angular, -(total - old));
    }
  }
}

/** Rate of the joint coordinate along `ax` (module scratch, set by solveJoints). */
function coordRate(ctx: JointSolveContext, a: number, b: number, angular: boolean): number {
  return angular ? angVel(ctx.bodies, a, b, ax[0], ax[1], ax[2]) : linVel(ctx.bodies, a, b, rA, rB, ax[0], ax[1], ax[2]);
}

/** Applies impulse l on the joint coordinate along `ax`. */
function coordApply(ctx: JointSolveContext, a: number, b: number, angular: boolean, l: number): void {
  if (angular) applyAng(ctx, a, b, l * ax[0], l * ax[1], l * ax[2]);
  else applyLin(ctx, a, b, rA, rB, l * ax[0], l * ax[1], l * ax[2]);
}

/** Re-applies the accumulated impulses of the last step. */
export function warmStartJoints(joints: JointStore, ctx: JointSolveContext): void {
  const bodies = ctx.bodies, imp = joints.impulses;
  for (let j = 0; j < joints.defs.length; j++) {
    const def = joints.defs[j];
    const a = def.bodyA, b = def.bodyB;
    if (ctx.invMass[a] === 0 && ctx.invMass[b] === 0) continue;
    const o = JOINT_IMPULSE_STRIDE * j;
    rotateByBody(rA, bodies.rot, a, def.anchorA[0], def.anchorA[1], def.anchorA[2]);
    rotateByBody(rB, bodies.rot, b, def.anchorB[0], def.anchorB[1], def.anchorB[2]);
    rotateByBody(ax, bodies.rot, a, def.axisA[0], def.axisA[1], def.axisA[2]);
    let linX = imp[o + I_LIN], linY = imp[o + I_LIN + 1], linZ = imp[o + I_LIN + 2];
    let angX = imp[o + I_ANG], angY = imp[o + I_ANG + 1], angZ = imp[o + I_ANG + 2];
    const axial = imp[o + I_MOTOR] + imp[o + I_LOWER] - imp[o + I_UPPER] + imp[o + I_SPRING];
    if (def.kind === JointKind.Revolute) {
      rotateByBody(p1, bodies.rot, a, def.perpA[0], def.perpA[1], def.perpA[2]);
      p2[0] = ax[1] * p1[2] - ax[2] * p1[1];
      p2[1] = ax[2] * p1[0] - ax[0] * p1[2];
      p2[2] = ax[0] * p1[1] - ax[1] * p1[0];
      // the 2 perpendicular angular impulses are stored as coefficients of p1, p2
      const l1 = angX, l2 = angY;
      angX = l1 * p1[0] + l2 * p2[0] + axial * ax[0];
      angY = l1 * p1[1] + l2 * p2[1] + axial * ax[1];
      angZ = l1 * p1[2] + l2 * p2[2] + axial * ax[2];
    } else if (def.kind === JointKind.Prismatic) {
      rotateByBody(p1, bodies.rot, a, def.perpA[0], def.perpA[1], def.perpA[2]);
      p2[0] = ax[1] * p1[2] - ax[2] * p1[1];
      p2[1] = ax[2] * p1[0] - ax[0] * p1[2];
      p2[2] = ax[0] * p1[1] - ax[1] * p1[0];
      const pos = bodies.pos;
      tmp[0] = pos[3 * b] + rB[0] - pos[3 * a];
      tmp[1] = pos[3 * b + 1] + rB[1] - pos[3 * a + 1];
      tmp[2] = pos[3 * b + 2] + rB[2] - pos[3 * a + 2];
      rA[0] = tmp[0]; rA[1] = tmp[1]; rA[2] = tmp[2];
      const q1 = imp[o + I_PERP], q2 = imp[o + I_PERP + 1];
      linX = axial * ax[0] + q1 * p1[0] + q2 * p2[0];
      linY = axial * ax[1] + q1 * p1[1] + q2 * p2[1];
      linZ = axial * ax[2] + q1 * p1[2] + q2 * p2[2];
    }
    if (linX !== 0 || linY !== 0 || linZ !== 0) applyLin(ctx, a, b, rA, rB, linX, linY, linZ);
    if (angX !== 0 || angY !== 0 || angZ !== 0) applyAng(ctx, a, b, angX, angY, angZ);
  }
}

/** Joint coordinates and rates for the report (after the step). */
export function measureJoints(joints: JointStore, bodies: BodyStore): void {
  for (let j = 0; j < joints.defs.length; j++) {
    const def = joints.defs[j];
    const a = def.bodyA, b = def.bodyB;
    rotateByBody(ax, bodies.rot, a, def.axisA[0], def.axisA[1], def.axisA[2]);
    if (def.kind === JointKind.Revolute) {
      joints.position[j] = revoluteAngle(bodies, def, a, b);
      joints.velocity[j] = angVel(bodies, a, b, ax[0], ax[1], ax[2]);
    } else if (def.kind === JointKind.Prismatic) {
      rotateByBody(rA, bodies.rot, a, def.anchorA[0], def.anchorA[1], def.anchorA[2]);
      rotateByBody(rB, bodies.rot, b, def.anchorB[0], def.anchorB[1], def.anchorB[2]);
      const pos = bodies.pos;
      const dx = pos[3 * b] + rB[0] - pos[3 * a] - rA[0];
      const dy = pos[3 * b + 1] + rB[1] - pos[3 * a + 1] - rA[1];
      const dz = pos[3 * b + 2] + rB[2] - pos[3 * a + 2] - rA[2];
      joints.position[j] = ax[0] * dx + ax[1] * dy + ax[2] * dz;
      rA[0] += dx; rA[1] += dy; rA[2] += dz;
      joints.velocity[j] = linVel(bodies, a, b, rA, rB, ax[0], ax[1], ax[2]);
    } else {
      joints.position[j] = 0;
      joints.velocity[j] = 0;
    }
  }
}
