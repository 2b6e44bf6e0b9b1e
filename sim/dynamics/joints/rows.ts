/**
 * The rows every joint kind is built from (Box2D v3's joint rows, carried to 3D): velocity and
 * effective-mass helpers, the point block (anchors coincide), the angular lock (axis-only or
 * full), a linear row along a direction, and the rows on the joint coordinate (spring, friction,
 * motor, limits). The prismatic, fixed and ball files call these in their order; the
 * per-context JointScratch carries the vectors and the named scalars between them. Revolute
 * joints (the most numerous: wheels, steering, arms) have their rows written out in revolute.ts
 * with the same arithmetic, split into a per-pose prepare and a per-pass solve.
 */
import type { BodyStore } from '../bodies';
import { Softness, springSoftness } from '../soft';
import type { Vec3 } from '../../math/vec3';
import type { JointDef, JointStore } from './store';
import { I_ANG, I_LIN, I_LOWER, I_MOTOR, I_PERP, I_SPRING, I_UPPER, JOINT_IMPULSE_STRIDE } from './store';

/**
 * Scratch of the joint rows, one per solver context (a world's): the vectors of the joint being
 * solved, its 3×3 blocks, and the named fields through which the helpers below hand back scalar
 * results and take scalar arguments — V8 boxes a double that crosses a call it does not inline
 * (a double stored into an object field is written in place), and the joint rows run every
 * substep. Nothing here outlives one joint's rows.
 */
export class JointScratch {
  readonly rA: Vec3 = [0, 0, 0];
  readonly rB: Vec3 = [0, 0, 0];
  readonly ax: Vec3 = [0, 0, 0];
  readonly p1: Vec3 = [0, 0, 0];
  readonly p2: Vec3 = [0, 0, 0];
  readonly tmp: Vec3 = [0, 0, 0];
  readonly K = new Float64Array(9);
  readonly Kinv = new Float64Array(9);
  readonly spring = new Softness();
  /** Impulse or direction vector handed to a helper. */
  readonly vec: Vec3 = [0, 0, 0];
  /** Warm start: the accumulated linear (point rows) and angular impulses to re-apply. */
  readonly linImpulse: Vec3 = [0, 0, 0];
  readonly angImpulse: Vec3 = [0, 0, 0];
  /** Coupling row (mimic.ts): the bodies of its entries, their Jacobians (linear 3, angular 3), how many. */
  readonly cBody = new Int32Array(4);
  readonly cJ = new Float64Array(24);
  cCount = 0;
  // results (written by the helper named, read right after the call); initialised with a
  // fraction so that V8 gives the fields a double representation from the start
  /** linK, angK, dotK: the effective inverse mass of the row [1/kg or 1/(kg·m²)]. */
  rowK = 0.5;
  /** linVel, angVel, coordRate: the relative rate along the row [m/s or rad/s]. */
  rate = 0.5;
  /** revoluteAngle: B's angle relative to A about the axis [rad], in (−π, π]. */
  angle = 0.5;
  // arguments (set by the joint kind's solver before the call)
  /** solveCoordinateRows: K of the coordinate row (> 0). */
  coordK = 0.5;
  /** solveCoordinateRows: the prismatic slide along the axis [m] (0 for revolute). */
  slide = 0.5;
  /** solvePerpRow: the row's position error [m]. */
  perpError = 0.5;
  /** coordApply: the impulse on the joint coordinate [N·s or N·m·s]. */
  coordImpulse = 0.5;
}

/** Joint solver context of one substep. */
export interface JointSolveContext {
  bodies: BodyStore;
  /** Per body slot: inverse mass the solver may use this step (0 = do not move). */
  invMass: Float64Array;
  soft: Softness;
  h: number;
  invH: number;
  /** The context's own scratch (JointScratch). */
  scratch: JointScratch;
}

/** rate = relative velocity of B's anchor w.r.t. A's along d, with A's arm `ra` (may include the prismatic offset). */
export function linVel(js: JointScratch, bodies: BodyStore, a: number, b: number, ra: Vec3, rb: Vec3, d: Vec3): void {
  const v = bodies.linVel, w = bodies.angVel;
  const wax = w[3 * a], way = w[3 * a + 1], waz = w[3 * a + 2];
  const wbx = w[3 * b], wby = w[3 * b + 1], wbz = w[3 * b + 2];
  const vx = v[3 * b] + wby * rb[2] - wbz * rb[1] - (v[3 * a] + way * ra[2] - waz * ra[1]);
  const vy = v[3 * b + 1] + wbz * rb[0] - wbx * rb[2] - (v[3 * a + 1] + waz * ra[0] - wax * ra[2]);
  const vz = v[3 * b + 2] + wbx * rb[1] - wby * rb[0] - (v[3 * a + 2] + wax * ra[1] - way * ra[0]);
  js.rate = vx * d[0] + vy * d[1] + vz * d[2];
}

/** rowK = K of a linear row along d: mA + mB + (ra×d)·I_A(ra×d) + (rb×d)·I_B(rb×d). */
export function linK(ctx: JointSolveContext, a: number, b: number, ra: Vec3, rb: Vec3, d: Vec3): void {
  const js = ctx.scratch;
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  const I = ctx.bodies.invInertiaWorld;
  const dx = d[0], dy = d[1], dz = d[2];
  let k = mA + mB;
  if (mA > 0) {
    const x = ra[1] * dz - ra[2] * dy, y = ra[2] * dx - ra[0] * dz, z = ra[0] * dy - ra[1] * dx, o = 9 * a;
    k += x * (I[o] * x + I[o + 3] * y + I[o + 6] * z) + y * (I[o + 1] * x + I[o + 4] * y + I[o + 7] * z) + z * (I[o + 2] * x + I[o + 5] * y + I[o + 8] * z);
  }
  if (mB > 0) {
    const x = rb[1] * dz - rb[2] * dy, y = rb[2] * dx - rb[0] * dz, z = rb[0] * dy - rb[1] * dx, o = 9 * b;
    k += x * (I[o] * x + I[o + 3] * y + I[o + 6] * z) + y * (I[o + 1] * x + I[o + 4] * y + I[o + 7] * z) + z * (I[o + 2] * x + I[o + 5] * y + I[o + 8] * z);
  }
  js.rowK = k;
}

/** rowK = K of an angular row along d: d·I_A·d + d·I_B·d (bodies the solver may move). */
export function angK(ctx: JointSolveContext, a: number, b: number, d: Vec3): void {
  const js = ctx.scratch;
  const I = ctx.bodies.invInertiaWorld;
  const x = d[0], y = d[1], z = d[2];
  let ka = 0, kb = 0;
  if (ctx.invMass[a] > 0) {
    const o = 9 * a;
    ka = x * (I[o] * x + I[o + 3] * y + I[o + 6] * z) + y * (I[o + 1] * x + I[o + 4] * y + I[o + 7] * z) + z * (I[o + 2] * x + I[o + 5] * y + I[o + 8] * z);
  }
  if (ctx.invMass[b] > 0) {
    const o = 9 * b;
    kb = x * (I[o] * x + I[o + 3] * y + I[o + 6] * z) + y * (I[o + 1] * x + I[o + 4] * y + I[o + 7] * z) + z * (I[o + 2] * x + I[o + 5] * y + I[o + 8] * z);
  }
  js.rowK = ka + kb;
}

/** Applies linear impulse P: +P to B at rb, −P to A at ra. */
export function applyLin(ctx: JointSolveContext, a: number, b: number, ra: Vec3, rb: Vec3, P: Vec3): void {
  const v = ctx.bodies.linVel, w = ctx.bodies.angVel, I = ctx.bodies.invInertiaWorld;
  const px = P[0], py = P[1], pz = P[2];
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  if (mA > 0) {
    v[3 * a] -= mA * px; v[3 * a + 1] -= mA * py; v[3 * a + 2] -= mA * pz;
    const lx = -(ra[1] * pz - ra[2] * py), ly = -(ra[2] * px - ra[0] * pz), lz = -(ra[0] * py - ra[1] * px), o = 9 * a;
    w[3 * a] += I[o] * lx + I[o + 3] * ly + I[o + 6] * lz;
    w[3 * a + 1] += I[o + 1] * lx + I[o + 4] * ly + I[o + 7] * lz;
    w[3 * a + 2] += I[o + 2] * lx + I[o + 5] * ly + I[o + 8] * lz;
  }
  if (mB > 0) {
    v[3 * b] += mB * px; v[3 * b + 1] += mB * py; v[3 * b + 2] += mB * pz;
    const lx = rb[1] * pz - rb[2] * py, ly = rb[2] * px - rb[0] * pz, lz = rb[0] * py - rb[1] * px, o = 9 * b;
    w[3 * b] += I[o] * lx + I[o + 3] * ly + I[o + 6] * lz;
    w[3 * b + 1] += I[o + 1] * lx + I[o + 4] * ly + I[o + 7] * lz;
    w[3 * b + 2] += I[o + 2] * lx + I[o + 5] * ly + I[o + 8] * lz;
  }
}

/** Angular impulse L: +L to B, −L to A. */
export function applyAng(ctx: JointSolveContext, a: number, b: number, L: Vec3): void {
  const w = ctx.bodies.angVel, I = ctx.bodies.invInertiaWorld;
  if (ctx.invMass[a] > 0) {
    const lx = -L[0], ly = -L[1], lz = -L[2], o = 9 * a;
    w[3 * a] += I[o] * lx + I[o + 3] * ly + I[o + 6] * lz;
    w[3 * a + 1] += I[o + 1] * lx + I[o + 4] * ly + I[o + 7] * lz;
    w[3 * a + 2] += I[o + 2] * lx + I[o + 5] * ly + I[o + 8] * lz;
  }
  if (ctx.invMass[b] > 0) {
    const lx = L[0], ly = L[1], lz = L[2], o = 9 * b;
    w[3 * b] += I[o] * lx + I[o + 3] * ly + I[o + 6] * lz;
    w[3 * b + 1] += I[o + 1] * lx + I[o + 4] * ly + I[o + 7] * lz;
    w[3 * b + 2] += I[o + 2] * lx + I[o + 5] * ly + I[o + 8] * lz;
  }
}

/** rate = (ω_B − ω_A)·d. */
export function angVel(js: JointScratch, bodies: BodyStore, a: number, b: number, d: Vec3): void {
  const w = bodies.angVel;
  js.rate = (w[3 * b] - w[3 * a]) * d[0] + (w[3 * b + 1] - w[3 * a + 1]) * d[1] + (w[3 * b + 2] - w[3 * a + 2]) * d[2];
}

/** out = R_b·v (rotateByBody with the vector read here: no float arguments). */
export function rotateVec(out: Vec3, rot: Float64Array, b: number, v: Vec3): void {
  const q = 4 * b;
  const qx = rot[q], qy = rot[q + 1], qz = rot[q + 2], qw = rot[q + 3];
  const x = v[0], y = v[1], z = v[2];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[0] = x + qw * tx + (qy * tz - qz * ty);
  out[1] = y + qw * ty + (qz * tx - qx * tz);
  out[2] = z + qw * tz + (qx * ty - qy * tx);
}

/** Symmetric 3×3 inverse (column-major); returns false when singular. */
export function invert3(out: Float64Array, m: Float64Array): boolean {
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
export function addPointBlock(js: JointScratch, bodies: BodyStore, b: number, r: Vec3): void {
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
    js.K[3 * k] += iy * r[2] - iz * r[1];
    js.K[3 * k + 1] += iz * r[0] - ix * r[2];
    js.K[3 * k + 2] += ix * r[1] - iy * r[0];
  }
}

/** Point constraint (anchors coincide): 3×3 block. */
export function solvePoint(ctx: JointSolveContext, j: number, a: number, b: number, useBias: boolean, imp: Float64Array): void {
  const js = ctx.scratch;
  const bodies = ctx.bodies, pos = bodies.pos;
  const mA = ctx.invMass[a], mB = ctx.invMass[b];
  js.K.fill(0);
  js.K[0] = js.K[4] = js.K[8] = mA + mB;
  if (mA > 0) addPointBlock(js, bodies, a, js.rA);
  if (mB > 0) addPointBlock(js, bodies, b, js.rB);
  if (!invert3(js.Kinv, js.K)) return;
  const v = bodies.linVel, w = bodies.angVel;
  const cdx = v[3 * b] + w[3 * b + 1] * js.rB[2] - w[3 * b + 2] * js.rB[1] - (v[3 * a] + w[3 * a + 1] * js.rA[2] - w[3 * a + 2] * js.rA[1]);
  const cdy = v[3 * b + 1] + w[3 * b + 2] * js.rB[0] - w[3 * b] * js.rB[2] - (v[3 * a + 1] + w[3 * a + 2] * js.rA[0] - w[3 * a] * js.rA[2]);
  const cdz = v[3 * b + 2] + w[3 * b] * js.rB[1] - w[3 * b + 1] * js.rB[0] - (v[3 * a + 2] + w[3 * a] * js.rA[1] - w[3 * a + 1] * js.rA[0]);
  let bx0 = 0, by0 = 0, bz0 = 0, massScale = 1, impulseScale = 0;
  if (useBias) {
    const s = ctx.soft;
    bx0 = s.biasRate * (pos[3 * b] + js.rB[0] - pos[3 * a] - js.rA[0]);
    by0 = s.biasRate * (pos[3 * b + 1] + js.rB[1] - pos[3 * a + 1] - js.rA[1]);
    bz0 = s.biasRate * (pos[3 * b + 2] + js.rB[2] - pos[3 * a + 2] - js.rA[2]);
    massScale = s.massScale;
    impulseScale = s.impulseScale;
  }
  const o = JOINT_IMPULSE_STRIDE * j + I_LIN;
  const ux = cdx + bx0, uy = cdy + by0, uz = cdz + bz0;
  const px = -massScale * (js.Kinv[0] * ux + js.Kinv[3] * uy + js.Kinv[6] * uz) - impulseScale * imp[o];
  const py = -massScale * (js.Kinv[1] * ux + js.Kinv[4] * uy + js.Kinv[7] * uz) - impulseScale * imp[o + 1];
  const pz = -massScale * (js.Kinv[2] * ux + js.Kinv[5] * uy + js.Kinv[8] * uz) - impulseScale * imp[o + 2];
  imp[o] += px; imp[o + 1] += py; imp[o + 2] += pz;
  js.vec[0] = px; js.vec[1] = py; js.vec[2] = pz;
  applyLin(ctx, a, b, js.rA, js.rB, js.vec);
}

/**
 * Angular lock, all three rows (fixed, prismatic): error from the quaternion q_B·(q_A·q0)⁻¹.
 * (Revolute's 2×2 lock perpendicular to its axis is written out in revolute.ts.)
 */
export function solveAngular(ctx: JointSolveContext, j: number, def: JointDef, a: number, b: number, useBias: boolean, imp: Float64Array): void {
  const js = ctx.scratch;
  const bodies = ctx.bodies;
  const o = JOINT_IMPULSE_STRIDE * j + I_ANG;
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
  const ex = sgn * exq, ey = sgn * eyq, ez = sgn * ezq;
  let massScale = 1, impulseScale = 0, biasRate = 0;
  if (useBias) {
    massScale = ctx.soft.massScale;
    impulseScale = ctx.soft.impulseScale;
    biasRate = ctx.soft.biasRate;
  }
  // K = I_A + I_B (world), restricted to the rows
  const I = bodies.invInertiaWorld;
  js.K.fill(0);
  if (ctx.invMass[a] > 0) for (let k = 0; k < 9; k++) js.K[k] += I[9 * a + k];
  if (ctx.invMass[b] > 0) for (let k = 0; k < 9; k++) js.K[k] += I[9 * b + k];
  const w = bodies.angVel;
  const rx = w[3 * b] - w[3 * a], ry = w[3 * b + 1] - w[3 * a + 1], rz = w[3 * b + 2] - w[3 * a + 2];
  if (!invert3(js.Kinv, js.K)) return;
  const ux = rx + biasRate * ex, uy = ry + biasRate * ey, uz = rz + biasRate * ez;
  const lx = -massScale * (js.Kinv[0] * ux + js.Kinv[3] * uy + js.Kinv[6] * uz) - impulseScale * imp[o];
  const ly = -massScale * (js.Kinv[1] * ux + js.Kinv[4] * uy + js.Kinv[7] * uz) - impulseScale * imp[o + 1];
  const lz = -massScale * (js.Kinv[2] * ux + js.Kinv[5] * uy + js.Kinv[8] * uz) - impulseScale * imp[o + 2];
  imp[o] += lx; imp[o + 1] += ly; imp[o + 2] += lz;
  js.vec[0] = lx; js.vec[1] = ly; js.vec[2] = lz;
  applyAng(ctx, a, b, js.vec);
}

/** angle = revolute angle of B relative to A about the axis, in (−π, π]: from q_rel = q0⁻¹·q_A⁻¹·q_B. */
export function revoluteAngle(js: JointScratch, bodies: BodyStore, def: JointDef, a: number, b: number): void {
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
  js.angle = angle;
}

/** Linear row along d with error c = scratch.perpError. */
export function solvePerpRow(ctx: JointSolveContext, j: number, a: number, b: number, useBias: boolean, imp: Float64Array, d: Vec3, slot: number): void {
  const js = ctx.scratch;
  const c = js.perpError;
  linK(ctx, a, b, js.rA, js.rB, d);
  const k = js.rowK;
  if (!(k > 0)) return;
  let bias = 0, massScale = 1, impulseScale = 0;
  if (useBias) {
    bias = ctx.soft.biasRate * c;
    massScale = ctx.soft.massScale;
    impulseScale = ctx.soft.impulseScale;
  }
  const o = JOINT_IMPULSE_STRIDE * j + I_PERP + slot;
  linVel(js, ctx.bodies, a, b, js.rA, js.rB, d);
  const cdot = js.rate;
  const l = (-massScale * (cdot + bias)) / k - impulseScale * imp[o];
  imp[o] += l;
  js.vec[0] = l * d[0]; js.vec[1] = l * d[1]; js.vec[2] = l * d[2];
  applyLin(ctx, a, b, js.rA, js.rB, js.vec);
}

/**
 * The rows on the joint coordinate q (revolute angle, prismatic slide) along `ax`: spring and
 * damping (implicit spring–damper), Coulomb joint friction, velocity motor (effort-limited),
 * limits. `angular` selects the revolute (angular) or prismatic (linear, arms rA, rB) Jacobian.
 */
export function solveCoordinateRows(
  joints: JointStore, ctx: JointSolveContext, j: number, def: JointDef, a: number, b: number,
  useBias: boolean, angular: boolean,
): void {
  const js = ctx.scratch;
  // K of the coordinate row and the prismatic slide come in the scratch
  const k = js.coordK, slide = js.slide;
  const imp = joints.impulses, o = JOINT_IMPULSE_STRIDE * j, bodies = ctx.bodies;
  const needQ = def.stiffness > 0 || def.limits !== null;
  let q = 0;
  if (needQ) {
    if (angular) {
      revoluteAngle(js, bodies, def, a, b);
      q = js.angle;
    } else {
      q = slide;
    }
  }
  const m = 1 / k;
  // spring–damper toward restPosition (physical: acts in both stages)
  if (def.stiffness > 0 || def.damping > 0) {
    springSoftness(js.spring, def.stiffness, def.damping, m, ctx.h);
    const c = def.stiffness > 0 ? q - def.restPosition : 0;
    coordRate(ctx, a, b, angular);
    const l = -m * js.spring.massScale * (js.rate + js.spring.biasRate * c) - js.spring.impulseScale * imp[o + I_SPRING];
    imp[o + I_SPRING] += l;
    js.coordImpulse = l;
    coordApply(ctx, a, b, angular);
  }
  // joint friction: a motor toward zero rate with effort friction·h per substep, accumulated over
  // the solve and relax stages (clamped as a total, so the two stages together apply at most
  // friction·h); not warm-started: the accumulator is zeroed at each substep's warm start
  if (def.friction > 0) {
    coordRate(ctx, a, b, angular);
    const lim = def.friction * ctx.h;
    const old = joints.frictionImpulse[j];
    const total = Math.max(-lim, Math.min(lim, old - m * js.rate));
    joints.frictionImpulse[j] = total;
    js.coordImpulse = total - old;
    coordApply(ctx, a, b, angular);
  }
  if (def.motor) {
    const old = imp[o + I_MOTOR];
    const maxL = def.maxMotorEffort * ctx.h;
    coordRate(ctx, a, b, angular);
    const l = -m * (js.rate - joints.motorTarget[j]);
    const total = Math.max(-maxL, Math.min(maxL, old + l));
    imp[o + I_MOTOR] = total;
    js.coordImpulse = total - old;
    coordApply(ctx, a, b, angular);
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
      coordRate(ctx, a, b, angular);
      const l = -m * massScale * (js.rate + bias) - impulseScale * old;
      const total = Math.max(0, old + l);
      imp[o + I_LOWER] = total;
      js.coordImpulse = total - old;
      coordApply(ctx, a, b, angular);
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
      coordRate(ctx, a, b, angular);
      const l = -m * massScale * (-js.rate + bias) - impulseScale * old;
      const total = Math.max(0, old + l);
      imp[o + I_UPPER] = total;
      js.coordImpulse = -(total - old);
      coordApply(ctx, a, b, angular);
    }
  }
}

/** rate = rate of the joint coordinate along `ax` (the scratch's, set by solveJoints). */
export function coordRate(ctx: JointSolveContext, a: number, b: number, angular: boolean): void {
  const js = ctx.scratch;
  if (angular) angVel(js, ctx.bodies, a, b, js.ax);
  else linVel(js, ctx.bodies, a, b, js.rA, js.rB, js.ax);
}

/** Applies impulse l = scratch.coordImpulse on the joint coordinate along `ax`. */
export function coordApply(ctx: JointSolveContext, a: number, b: number, angular: boolean): void {
  const js = ctx.scratch;
  const l = js.coordImpulse;
  js.vec[0] = l * js.ax[0]; js.vec[1] = l * js.ax[1]; js.vec[2] = l * js.ax[2];
  if (angular) applyAng(ctx, a, b, js.vec);
  else applyLin(ctx, a, b, js.rA, js.rB, js.vec);
}

/** p1 = R_A·perpA and p2 = ax × p1 (ax already rotated into the scratch): the basis ⟂ the axis. */
export function perpBasis(js: JointScratch, rot: Float64Array, a: number, def: JointDef): void {
  rotateVec(js.p1, rot, a, def.perpA);
  js.p2[0] = js.ax[1] * js.p1[2] - js.ax[2] * js.p1[1];
  js.p2[1] = js.ax[2] * js.p1[0] - js.ax[0] * js.p1[2];
  js.p2[2] = js.ax[0] * js.p1[1] - js.ax[1] * js.p1[0];
}

/** Warm start: re-applies scratch.linImpulse at the arms rA, rB and scratch.angImpulse (zero ones skipped). */
export function applyWarmStart(ctx: JointSolveContext, a: number, b: number): void {
  const js = ctx.scratch, lin = js.linImpulse, ang = js.angImpulse;
  if (lin[0] !== 0 || lin[1] !== 0 || lin[2] !== 0) {
    js.vec[0] = lin[0]; js.vec[1] = lin[1]; js.vec[2] = lin[2];
    applyLin(ctx, a, b, js.rA, js.rB, js.vec);
  }
  if (ang[0] !== 0 || ang[1] !== 0 || ang[2] !== 0) {
    js.vec[0] = ang[0]; js.vec[1] = ang[1]; js.vec[2] = ang[2];
    applyAng(ctx, a, b, js.vec);
  }
}

