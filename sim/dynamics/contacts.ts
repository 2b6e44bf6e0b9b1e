/**
 * Contact constraints of one step and their soft-step solver stages (Box2D v3's order:
 * prepare → [integrate velocities → warm start → solve with bias → integrate positions →
 * relax without bias] × substeps → restitution → store impulses).
 *
 * Convention (project-wide): contact point on B's surface, unit normal n from B into A, so A is
 * pushed along +n. The terrain is body B = −1 and uses the store's static "terrain slot".
 *
 * Per contact point: one normal row (non-penetration, soft with bias, speculative when
 * separated), two friction rows along tangents t1, t2 derived from n alone (every point of one
 * normal group shares them, so the points of a wheel's patch never fight over directions) with
 * the Coulomb circle |λt| ≤ μ·λn, and two rolling-resistance rows on the relative angular
 * velocity about t1, t2 with |λr| ≤ c_rr·ℓ·λn (ℓ = lever arm from A's centre of mass).
 *
 * Separation is tracked through the substeps from the start-of-step anchors (Box2D v3's
 * "relative anchors"): s = s0 + n·[(x_A − x_A0) + (R_A·r̂_A − r_A) − (x_B − x_B0) − (R_B·r̂_B − r_B)],
 * r̂ the anchor in the body's axes; so the collision pass runs once per step, not per substep.
 */
import type { BodyStore } from './bodies';
import { rotateByBody } from './bodies';
import { CONTACT_MAX_PUSHOUT_SPEED, RESTITUTION_THRESHOLD } from './constants';
import type { Softness } from './soft';
import type { Vec3 } from '../math/vec3';

const tmp: Vec3 = [0, 0, 0];

export class ContactStore {
  capacity = 0;
  count = 0;
  // identity and report
  bodyA = new Int32Array(0);
  /** −1 = terrain. */
  bodyB = new Int32Array(0);
  /** Solver index of B (the terrain slot for the terrain). */
  slotB = new Int32Array(0);
  kind = new Uint8Array(0);
  cellI = new Int32Array(0);
  cellJ = new Int32Array(0);
  feature = new Uint32Array(0);
  /** Pair key (see pairKey), for warm-start matching. */
  key = new Float64Array(0);
  point = new Float64Array(0);
  normal = new Float64Array(0);
  depth = new Float64Array(0);
  // solver
  rA = new Float64Array(0);
  rB = new Float64Array(0);
  rAl = new Float64Array(0);
  rBl = new Float64Array(0);
  t1 = new Float64Array(0);
  t2 = new Float64Array(0);
  separation0 = new Float64Array(0);
  normalMass = new Float64Array(0);
  t1Mass = new Float64Array(0);
  t2Mass = new Float64Array(0);
  r1Mass = new Float64Array(0);
  r2Mass = new Float64Array(0);
  friction = new Float64Array(0);
  restitution = new Float64Array(0);
  rolling = new Float64Array(0);
  relativeVelocity0 = new Float64Array(0);
  invMassA = new Float64Array(0);
  invMassB = new Float64Array(0);
  normalImpulse = new Float64Array(0);
  t1Impulse = new Float64Array(0);
  t2Impulse = new Float64Array(0);
  r1Impulse = new Float64Array(0);
  r2Impulse = new Float64Array(0);
  maxNormalImpulse = new Float64Array(0);

  constructor(capacity: number) {
    this.resize(capacity);
  }

  /** Grows the arrays (between steps only), keeping the first `count` contacts. */
  resize(capacity: number): void {
    const grow = <T extends Float64Array | Int32Array | Uint8Array | Uint32Array>(a: T, stride: number): T => {
      const b = new (a.constructor as new (n: number) => T)(capacity * stride);
      b.set(a.subarray(0, Math.min(a.length, this.count * stride)) as never);
      return b;
    };
    this.bodyA = grow(this.bodyA, 1);
    this.bodyB = grow(this.bodyB, 1);
    this.slotB = grow(this.slotB, 1);
    this.kind = grow(this.kind, 1);
    this.cellI = grow(this.cellI, 1);
    this.cellJ = grow(this.cellJ, 1);
    this.feature = grow(this.feature, 1);
    this.key = grow(this.key, 1);
    this.point = grow(this.point, 3);
    this.normal = grow(this.normal, 3);
    this.depth = grow(this.depth, 1);
    this.rA = grow(this.rA, 3);
    this.rB = grow(this.rB, 3);
    this.rAl = grow(this.rAl, 3);
    this.rBl = grow(this.rBl, 3);
    this.t1 = grow(this.t1, 3);
    this.t2 = grow(this.t2, 3);
    this.separation0 = grow(this.separation0, 1);
    this.normalMass = grow(this.normalMass, 1);
    this.t1Mass = grow(this.t1Mass, 1);
    this.t2Mass = grow(this.t2Mass, 1);
    this.r1Mass = grow(this.r1Mass, 1);
    this.r2Mass = grow(this.r2Mass, 1);
    this.friction = grow(this.friction, 1);
    this.restitution = grow(this.restitution, 1);
    this.rolling = grow(this.rolling, 1);
    this.relativeVelocity0 = grow(this.relativeVelocity0, 1);
    this.invMassA = grow(this.invMassA, 1);
    this.invMassB = grow(this.invMassB, 1);
    this.normalImpulse = grow(this.normalImpulse, 1);
    this.t1Impulse = grow(this.t1Impulse, 1);
    this.t2Impulse = grow(this.t2Impulse, 1);
    this.r1Impulse = grow(this.r1Impulse, 1);
    this.r2Impulse = grow(this.r2Impulse, 1);
    this.maxNormalImpulse = grow(this.maxNormalImpulse, 1);
    this.capacity = capacity;
  }
}

/** Orders contacts by body pair: A's index, then B's (terrain first). Exact in float64 below 2^53. */
export function pairKey(a: number, b: number): number {
  return a * 2097152 + (b + 1);
}

/** Angular effective-mass term d·(I⁻¹_world of body b)·d. */
function angularMass(bodies: BodyStore, b: number, dx: number, dy: number, dz: number): number {
  const I = bodies.invInertiaWorld, o = 9 * b;
  const ix = I[o] * dx + I[o + 3] * dy + I[o + 6] * dz;
  const iy = I[o + 1] * dx + I[o + 4] * dy + I[o + 7] * dz;
  const iz = I[o + 2] * dx + I[o + 5] * dy + I[o + 8] * dz;
  return dx * ix + dy * iy + dz * iz;
}

/** K of a point row along d at lever arms rA, rB: mA + mB + (rA×d)·IA(rA×d) + (rB×d)·IB(rB×d). */
function pointRowK(
  bodies: BodyStore, a: number, b: number, mA: number, mB: number, c: ContactStore, i: number,
  dx: number, dy: number, dz: number,
): number {
  const ra = 3 * i;
  const ax = c.rA[ra], ay = c.rA[ra + 1], az = c.rA[ra + 2];
  const bx = c.rB[ra], by = c.rB[ra + 1], bz = c.rB[ra + 2];
  const k = mA + mB
    + (mA > 0 ? angularMass(bodies, a, ay * dz - az * dy, az * dx - ax * dz, ax * dy - ay * dx) : 0)
    + (mB > 0 ? angularMass(bodies, b, by * dz - bz * dy, bz * dx - bx * dz, bx * dy - by * dx) : 0);
  return k;
}

/**
 * Fills the solver fields of contacts [0, count): anchors, tangents, effective masses, the
 * approach speed (restitution). The identity fields, point, normal, depth, material numbers and
 * warm-start impulses were written by the collision pass. `invMassOf` is 0 for bodies the solver
 * must not move this step (static, kinematic, asleep).
 */
export function prepareContacts(c: ContactStore, bodies: BodyStore, awakeMass: Float64Array): void {
  for (let i = 0; i < c.count; i++) {
    const a = c.bodyA[i], b = c.slotB[i];
    const p = 3 * i;
    const nx = c.normal[p], ny = c.normal[p + 1], nz = c.normal[p + 2];
    // anchor: midway through the overlap (on B's surface minus half the depth along n)
    const half = 0.5 * c.depth[i];
    const mx = c.point[p] - half * nx, my = c.point[p + 1] - half * ny, mz = c.point[p + 2] - half * nz;
    const ax = mx - bodies.pos[3 * a], ay = my - bodies.pos[3 * a + 1], az = mz - bodies.pos[3 * a + 2];
    const bx = mx - bodies.pos[3 * b], by = my - bodies.pos[3 * b + 1], bz = mz - bodies.pos[3 * b + 2];
    c.rA[p] = ax; c.rA[p + 1] = ay; c.rA[p + 2] = az;
    c.rB[p] = bx; c.rB[p + 1] = by; c.rB[p + 2] = bz;
    // anchors in body axes, for separation tracking through the substeps
    rotateInverse(tmp, bodies.rot, a, ax, ay, az);
    c.rAl[p] = tmp[0]; c.rAl[p + 1] = tmp[1]; c.rAl[p + 2] = tmp[2];
    rotateInverse(tmp, bodies.rot, b, bx, by, bz);
    c.rBl[p] = tmp[0]; c.rBl[p + 1] = tmp[1]; c.rBl[p + 2] = tmp[2];
    c.separation0[i] = -c.depth[i];
    // tangents from n alone (shared by every point of a normal group)
    let ex: number, ey: number, ez: number;
    if (Math.abs(nx) < 0.57735) { ex = 0; ey = nz; ez = -ny; } // n × x
    else { ex = -nz; ey = 0; ez = nx; } // n × y
    const el = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
    ex *= el; ey *= el; ez *= el;
    c.t1[p] = ex; c.t1[p + 1] = ey; c.t1[p + 2] = ez;
    const fx = ny * ez - nz * ey, fy = nz * ex - nx * ez, fz = nx * ey - ny * ex;
    c.t2[p] = fx; c.t2[p + 1] = fy; c.t2[p + 2] = fz;
    const mA = awakeMass[a], mB = awakeMass[b];
    c.invMassA[i] = mA;
    c.invMassB[i] = mB;
    const kn = pointRowK(bodies, a, b, mA, mB, c, i, nx, ny, nz);
    const k1 = pointRowK(bodies, a, b, mA, mB, c, i, ex, ey, ez);
    const k2 = pointRowK(bodies, a, b, mA, mB, c, i, fx, fy, fz);
    c.normalMass[i] = kn > 0 ? 1 / kn : 0;
    c.t1Mass[i] = k1 > 0 ? 1 / k1 : 0;
    c.t2Mass[i] = k2 > 0 ? 1 / k2 : 0;
    const kr1 = (mA > 0 ? angularMass(bodies, a, ex, ey, ez) : 0) + (mB > 0 ? angularMass(bodies, b, ex, ey, ez) : 0);
    const kr2 = (mA > 0 ? angularMass(bodies, a, fx, fy, fz) : 0) + (mB > 0 ? angularMass(bodies, b, fx, fy, fz) : 0);
    c.r1Mass[i] = kr1 > 0 ? 1 / kr1 : 0;
    c.r2Mass[i] = kr2 > 0 ? 1 / kr2 : 0;
    c.relativeVelocity0[i] = normalVelocity(c, bodies, i, a, b);
    c.maxNormalImpulse[i] = 0;
  }
}

function rotateInverse(out: Vec3, rot: Float64Array, b: number, x: number, y: number, z: number): void {
  const q = 4 * b;
  const qx = -rot[q], qy = -rot[q + 1], qz = -rot[q + 2], qw = rot[q + 3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[0] = x + qw * tx + (qy * tz - qz * ty);
  out[1] = y + qw * ty + (qz * tx - qx * tz);
  out[2] = z + qw * tz + (qx * ty - qy * tx);
}

/** Relative velocity of A's anchor with respect to B's, along direction d. */
function rowVelocity(
  c: ContactStore, bodies: BodyStore, i: number, a: number, b: number, dx: number, dy: number, dz: number,
): number {
  const p = 3 * i, v = bodies.linVel, w = bodies.angVel;
  const ax = c.rA[p], ay = c.rA[p + 1], az = c.rA[p + 2];
  const bx = c.rB[p], by = c.rB[p + 1], bz = c.rB[p + 2];
  const wax = w[3 * a], way = w[3 * a + 1], waz = w[3 * a + 2];
  const wbx = w[3 * b], wby = w[3 * b + 1], wbz = w[3 * b + 2];
  const vx = v[3 * a] + way * az - waz * ay - (v[3 * b] + wby * bz - wbz * by);
  const vy = v[3 * a + 1] + waz * ax - wax * az - (v[3 * b + 1] + wbz * bx - wbx * bz);
  const vz = v[3 * a + 2] + wax * ay - way * ax - (v[3 * b + 2] + wbx * by - wby * bx);
  return vx * dx + vy * dy + vz * dz;
}

function normalVelocity(c: ContactStore, bodies: BodyStore, i: number, a: number, b: number): number {
  const p = 3 * i;
  return rowVelocity(c, bodies, i, a, b, c.normal[p], c.normal[p + 1], c.normal[p + 2]);
}

/** Applies impulse λ·d at the anchors: +to A, −to B (bodies with zero solver mass are left alone). */
function applyPointImpulse(
  c: ContactStore, bodies: BodyStore, i: number, a: number, b: number, mA: number, mB: number,
  px: number, py: number, pz: number,
): void {
  const p = 3 * i, v = bodies.linVel, w = bodies.angVel, I = bodies.invInertiaWorld;
  if (mA > 0) {
    const ax = c.rA[p], ay = c.rA[p + 1], az = c.rA[p + 2];
    const tx = ay * pz - az * py, ty = az * px - ax * pz, tz = ax * py - ay * px;
    const o = 9 * a;
    v[3 * a] += mA * px; v[3 * a + 1] += mA * py; v[3 * a + 2] += mA * pz;
    w[3 * a] += I[o] * tx + I[o + 3] * ty + I[o + 6] * tz;
    w[3 * a + 1] += I[o + 1] * tx + I[o + 4] * ty + I[o + 7] * tz;
    w[3 * a + 2] += I[o + 2] * tx + I[o + 5] * ty + I[o + 8] * tz;
  }
  if (mB > 0) {
    const bx = c.rB[p], by = c.rB[p + 1], bz = c.rB[p + 2];
    const tx = by * pz - bz * py, ty = bz * px - bx * pz, tz = bx * py - by * px;
    const o = 9 * b;
    v[3 * b] -= mB * px; v[3 * b + 1] -= mB * py; v[3 * b + 2] -= mB * pz;
    w[3 * b] -= I[o] * tx + I[o + 3] * ty + I[o + 6] * tz;
    w[3 * b + 1] -= I[o + 1] * tx + I[o + 4] * ty + I[o + 7] * tz;
    w[3 * b + 2] -= I[o + 2] * tx + I[o + 5] * ty + I[o + 8] * tz;
  }
}

/** Applies angular impulse L·d: +to A, −to B. */
function applyAngularImpulse(
  bodies: BodyStore, a: number, b: number, mA: number, mB: number, lx: number, ly: number, lz: number,
): void {
  const w = bodies.angVel, I = bodies.invInertiaWorld;
  if (mA > 0) {
    const o = 9 * a;
    w[3 * a] += I[o] * lx + I[o + 3] * ly + I[o + 6] * lz;
    w[3 * a + 1] += I[o + 1] * lx + I[o + 4] * ly + I[o + 7] * lz;
    w[3 * a + 2] += I[o + 2] * lx + I[o + 5] * ly + I[o + 8] * lz;
  }
  if (mB > 0) {
    const o = 9 * b;
    w[3 * b] -= I[o] * lx + I[o + 3] * ly + I[o + 6] * lz;
    w[3 * b + 1] -= I[o + 1] * lx + I[o + 4] * ly + I[o + 7] * lz;
    w[3 * b + 2] -= I[o + 2] * lx + I[o + 5] * ly + I[o + 8] * lz;
  }
}

/** Re-applies last step's impulses (they were matched to this step's contacts by the collision pass). */
export function warmStartContacts(c: ContactStore, bodies: BodyStore): void {
  for (let i = 0; i < c.count; i++) {
    const a = c.bodyA[i], b = c.slotB[i], mA = c.invMassA[i], mB = c.invMassB[i];
    if (mA === 0 && mB === 0) continue;
    const p = 3 * i;
    const ln = c.normalImpulse[i], l1 = c.t1Impulse[i], l2 = c.t2Impulse[i];
    const px = ln * c.normal[p] + l1 * c.t1[p] + l2 * c.t2[p];
    const py = ln * c.normal[p + 1] + l1 * c.t1[p + 1] + l2 * c.t2[p + 1];
    const pz = ln * c.normal[p + 2] + l1 * c.t1[p + 2] + l2 * c.t2[p + 2];
    applyPointImpulse(c, bodies, i, a, b, mA, mB, px, py, pz);
    const r1 = c.r1Impulse[i], r2 = c.r2Impulse[i];
    if (r1 !== 0 || r2 !== 0) {
      applyAngularImpulse(bodies, a, b, mA, mB,
        r1 * c.t1[p] + r2 * c.t2[p], r1 * c.t1[p + 1] + r2 * c.t2[p + 1], r1 * c.t1[p + 2] + r2 * c.t2[p + 2]);
    }
  }
}

/**
 * One pass over the contacts. useBias: the solve stage (soft, pushes overlap out); false: the
 * relax stage (removes the bias velocity so it does not turn into bounce).
 */
export function solveContacts(c: ContactStore, bodies: BodyStore, soft: Softness, invH: number, useBias: boolean): void {
  const pos = bodies.pos, pos0 = bodies.pos0, rot = bodies.rot;
  for (let i = 0; i < c.count; i++) {
    const a = c.bodyA[i], b = c.slotB[i], mA = c.invMassA[i], mB = c.invMassB[i];
    if (mA === 0 && mB === 0) continue;
    const p = 3 * i;
    const nx = c.normal[p], ny = c.normal[p + 1], nz = c.normal[p + 2];

    // --- normal row ---------------------------------------------------------------------
    // current separation from the start-of-step anchors
    rotateByBody(tmp, rot, a, c.rAl[p], c.rAl[p + 1], c.rAl[p + 2]);
    let dx = pos[3 * a] - pos0[3 * a] + tmp[0] - c.rA[p];
    let dy = pos[3 * a + 1] - pos0[3 * a + 1] + tmp[1] - c.rA[p + 1];
    let dz = pos[3 * a + 2] - pos0[3 * a + 2] + tmp[2] - c.rA[p + 2];
    // B moves too when it is dynamic or kinematic (the terrain slot never moves: its terms are 0)
    rotateByBody(tmp, rot, b, c.rBl[p], c.rBl[p + 1], c.rBl[p + 2]);
    dx -= pos[3 * b] - pos0[3 * b] + tmp[0] - c.rB[p];
    dy -= pos[3 * b + 1] - pos0[3 * b + 1] + tmp[1] - c.rB[p + 1];
    dz -= pos[3 * b + 2] - pos0[3 * b + 2] + tmp[2] - c.rB[p + 2];
    const s = c.separation0[i] + nx * dx + ny * dy + nz * dz;
    let bias = 0, massScale = 1, impulseScale = 0;
    if (s > 0) {
      bias = s * invH; // speculative: only the approach that would close the gap this substep
    } else if (useBias) {
      bias = Math.max(soft.biasRate * s, -CONTACT_MAX_PUSHOUT_SPEED);
      massScale = soft.massScale;
      impulseScale = soft.impulseScale;
    }
    const vn = rowVelocity(c, bodies, i, a, b, nx, ny, nz);
    const old = c.normalImpulse[i];
    let ln = -c.normalMass[i] * massScale * (vn + bias) - impulseScale * old;
    const total = Math.max(old + ln, 0);
    ln = total - old;
    c.normalImpulse[i] = total;
    if (total > c.maxNormalImpulse[i]) c.maxNormalImpulse[i] = total;
    if (ln !== 0) applyPointImpulse(c, bodies, i, a, b, mA, mB, ln * nx, ln * ny, ln * nz);

    // --- friction: two rows, Coulomb circle ---------------------------------------------
    const limit = c.friction[i] * total;
    const t1x = c.t1[p], t1y = c.t1[p + 1], t1z = c.t1[p + 2];
    const t2x = c.t2[p], t2y = c.t2[p + 1], t2z = c.t2[p + 2];
    const v1 = rowVelocity(c, bodies, i, a, b, t1x, t1y, t1z);
    const v2 = rowVelocity(c, bodies, i, a, b, t2x, t2y, t2z);
    const o1 = c.t1Impulse[i], o2 = c.t2Impulse[i];
    let n1 = o1 - c.t1Mass[i] * v1;
    let n2 = o2 - c.t2Mass[i] * v2;
    const mag2 = n1 * n1 + n2 * n2;
    if (mag2 > limit * limit) {
      const f = limit / Math.sqrt(mag2);
      n1 *= f;
      n2 *= f;
    }
    c.t1Impulse[i] = n1;
    c.t2Impulse[i] = n2;
    const d1 = n1 - o1, d2 = n2 - o2;
    if (d1 !== 0 || d2 !== 0) {
      applyPointImpulse(c, bodies, i, a, b, mA, mB,
        d1 * t1x + d2 * t2x, d1 * t1y + d2 * t2y, d1 * t1z + d2 * t2z);
    }

    // --- rolling resistance: angular rows about t1, t2 ----------------------------------
    const crr = c.rolling[i];
    if (crr > 0) {
      const w = bodies.angVel;
      const wx = w[3 * a] - w[3 * b], wy = w[3 * a + 1] - w[3 * b + 1], wz = w[3 * a + 2] - w[3 * b + 2];
      const ax = c.rA[p], ay = c.rA[p + 1], az = c.rA[p + 2];
      const lever = Math.sqrt(ax * ax + ay * ay + az * az);
      const rl = crr * lever * total;
      const q1 = c.r1Impulse[i], q2 = c.r2Impulse[i];
      let m1 = q1 - c.r1Mass[i] * (wx * t1x + wy * t1y + wz * t1z);
      let m2 = q2 - c.r2Mass[i] * (wx * t2x + wy * t2y + wz * t2z);
      const mm = m1 * m1 + m2 * m2;
      if (mm > rl * rl) {
        const f = rl / Math.sqrt(mm);
        m1 *= f;
        m2 *= f;
      }
      c.r1Impulse[i] = m1;
      c.r2Impulse[i] = m2;
      const e1 = m1 - q1, e2 = m2 - q2;
      if (e1 !== 0 || e2 !== 0) {
        applyAngularImpulse(bodies, a, b, mA, mB, e1 * t1x + e2 * t2x, e1 * t1y + e2 * t2y, e1 * t1z + e2 * t2z);
      }
    }
  }
}

/** Restitution after the substeps (Box2D v3): only contacts that approached faster than the threshold and pushed. */
export function applyRestitution(c: ContactStore, bodies: BodyStore): void {
  for (let i = 0; i < c.count; i++) {
    const e = c.restitution[i];
    if (e === 0 || c.relativeVelocity0[i] > -RESTITUTION_THRESHOLD || c.maxNormalImpulse[i] === 0) continue;
    const a = c.bodyA[i], b = c.slotB[i], mA = c.invMassA[i], mB = c.invMassB[i];
    const p = 3 * i;
    const nx = c.normal[p], ny = c.normal[p + 1], nz = c.normal[p + 2];
    const vn = rowVelocity(c, bodies, i, a, b, nx, ny, nz);
    const old = c.normalImpulse[i];
    let ln = -c.normalMass[i] * (vn + e * c.relativeVelocity0[i]);
    const total = Math.max(old + ln, 0);
    ln = total - old;
    c.normalImpulse[i] = total;
    if (total > c.maxNormalImpulse[i]) c.maxNormalImpulse[i] = total;
    if (ln !== 0) applyPointImpulse(c, bodies, i, a, b, mA, mB, ln * nx, ln * ny, ln * nz);
  }
}
