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
import { CONTACT_MAX_PUSHOUT_SPEED, RESTITUTION_THRESHOLD } from './constants';
import type { ContactSoftness } from './soft';

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
  /** Body-pair key (collision/pair-key.ts bodyPairKey), for warm-start matching. */
  key = new Float64Array(0);
  /**
   * Index of the previous step's contact this one was carried over from (a sleeping pair's,
   * copied field by field), or −1 when the collision pass computed it this step.
   */
  source = new Int32Array(0);
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
  /**
   * Per body slot (this step): 1 when the body touches another moving body. Its contacts with the
   * terrain or a static body then keep CONTACT_HERTZ however deep (see solveContacts). Grown by
   * prepareContacts to the body count.
   */
  squeezed = new Uint8Array(0);
  /** Indices of the contacts the solver works on this step (at least one body with solver mass), in store order. */
  active = new Int32Array(0);
  activeCount = 0;
  /**
   * The store this one alternates with (the world's this-step and last-step contacts, see
   * ContactStore.twins), or null. Twins keep each CARRIED_FIELDS field in one typed array of
   * twice the capacity, this store's contacts in half `half` (0 or 1), so a sleeping pair's
   * contacts move from last step's store to this step's by copyWithin (copyCarried).
   */
  private twin: ContactStore | null = null;
  private half = 0;
  /** Per CARRIED_FIELDS entry: the array both twins' views lie in (empty when not a twin). */
  private shared: CarriedArray[] = [];

  constructor(capacity: number) {
    this.resize(capacity);
  }

  /** Two stores of `capacity` contacts that share their carried fields' arrays (see `twin`). */
  static twins(capacity: number): [ContactStore, ContactStore] {
    const a = new ContactStore(capacity), b = new ContactStore(capacity);
    a.twin = b;
    b.twin = a;
    b.half = 1;
    a.shareCarried(capacity);
    return [a, b];
  }

  /**
   * Copies contacts [j0, j1) of `from` to this store from index i0 on (their carried fields: the
   * contact is carried unchanged), and sets their `source` to their index in `from`. The caller
   * has made room (count and capacity).
   */
  copyCarried(from: ContactStore, j0: number, j1: number, i0: number): void {
    const src = this.source;
    for (let j = j0; j < j1; j++) src[i0 + j - j0] = j;
    if (from === this.twin) {
      const cap = this.capacity, to = this.half * cap + i0, at = from.half * cap;
      for (let f = 0; f < CARRIED_FIELDS.length; f++) {
        const k = CARRIED_FIELDS[f].stride;
        this.shared[f].copyWithin(k * to, k * (at + j0), k * (at + j1));
      }
      return;
    }
    const dst = this as unknown as Record<string, CarriedArray>, org = from as unknown as Record<string, CarriedArray>;
    for (const { name, stride: k } of CARRIED_FIELDS) dst[name].set(org[name].subarray(k * j0, k * j1), k * i0);
  }

  /** Reallocates both twins' carried fields at `capacity` (this store and its twin), keeping their contacts. */
  private shareCarried(capacity: number): void {
    const twin = this.twin!;
    const lo = this.half === 0 ? this : twin, hi = this.half === 0 ? twin : this;
    for (let f = 0; f < CARRIED_FIELDS.length; f++) {
      const { name, stride: k } = CARRIED_FIELDS[f];
      const a = lo as unknown as Record<string, CarriedArray>, b = hi as unknown as Record<string, CarriedArray>;
      const old = a[name];
      const all = new (old.constructor as new (n: number) => CarriedArray)(2 * capacity * k);
      all.set(a[name].subarray(0, Math.min(a[name].length, lo.count * k)) as never, 0);
      all.set(b[name].subarray(0, Math.min(b[name].length, hi.count * k)) as never, capacity * k);
      a[name] = all.subarray(0, capacity * k);
      b[name] = all.subarray(capacity * k, 2 * capacity * k);
      lo.shared[f] = all;
      hi.shared[f] = all;
    }
    for (const c of [lo, hi]) {
      if (c.capacity === capacity) continue;
      c.resizeOwn(capacity);
    }
  }

  /** Grows the arrays (between steps only, or in the collision pass before its copies), keeping the first `count` contacts; a twin grows with it. */
  resize(capacity: number): void {
    if (this.twin !== null) {
      this.shareCarried(capacity);
      return;
    }
    this.resizeOwn(capacity);
  }

  /** resize() of every array this store owns alone (all of them when it has no twin). */
  private resizeOwn(capacity: number): void {
    const grow = <T extends Float64Array | Int32Array | Uint8Array | Uint32Array>(a: T, stride: number): T => {
      const b = new (a.constructor as new (n: number) => T)(capacity * stride);
      b.set(a.subarray(0, Math.min(a.length, this.count * stride)) as never);
      return b;
    };
    if (this.twin === null) {
      // (a twin's carried fields live in the arrays it shares with its twin: shareCarried)
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
      this.friction = grow(this.friction, 1);
      this.restitution = grow(this.restitution, 1);
      this.rolling = grow(this.rolling, 1);
      this.normalImpulse = grow(this.normalImpulse, 1);
      this.t1Impulse = grow(this.t1Impulse, 1);
      this.t2Impulse = grow(this.t2Impulse, 1);
      this.r1Impulse = grow(this.r1Impulse, 1);
      this.r2Impulse = grow(this.r2Impulse, 1);
    }
    this.source = grow(this.source, 1);
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
    this.relativeVelocity0 = grow(this.relativeVelocity0, 1);
    this.invMassA = grow(this.invMassA, 1);
    this.invMassB = grow(this.invMassB, 1);
    this.maxNormalImpulse = grow(this.maxNormalImpulse, 1);
    this.active = new Int32Array(capacity);
    this.activeCount = 0;
    this.capacity = capacity;
  }
}

type CarriedArray = Float64Array | Int32Array | Uint8Array | Uint32Array;

/**
 * The fields a sleeping pair's contact keeps from one step to the next (identity, geometry,
 * materials, warm-start impulses; `source` is set, the solver's fields are recomputed), with
 * their stride. Twins share these (ContactStore.twins).
 */
const CARRIED_FIELDS: readonly { name: string; stride: number }[] = [
  { name: 'bodyA', stride: 1 }, { name: 'bodyB', stride: 1 }, { name: 'slotB', stride: 1 }, { name: 'kind', stride: 1 },
  { name: 'cellI', stride: 1 }, { name: 'cellJ', stride: 1 }, { name: 'feature', stride: 1 }, { name: 'key', stride: 1 },
  { name: 'point', stride: 3 }, { name: 'normal', stride: 3 }, { name: 'depth', stride: 1 }, { name: 'friction', stride: 1 },
  { name: 'restitution', stride: 1 }, { name: 'rolling', stride: 1 }, { name: 'normalImpulse', stride: 1 },
  { name: 't1Impulse', stride: 1 }, { name: 't2Impulse', stride: 1 }, { name: 'r1Impulse', stride: 1 }, { name: 'r2Impulse', stride: 1 },
];

/*
 * The stages below are written out by hand (no helper taking or returning float64 numbers):
 * V8 boxes a double passed to or returned from a call it does not inline, and these loops run
 * 4 substeps × 2 passes × every active contact, so a helper call cost ~0.5 MB of garbage per
 * step in the vehicle scene. The arithmetic is the same, operation for operation, as the
 * formulas named in the comments (contact anchor rotation, row velocity, impulse application),
 * so results are bit-identical to the helper form.
 */

/**
 * Fills the solver fields of the contacts that have a body the solver may move this step
 * (`awakeMass` > 0 for A or B) and lists them in `c.active`: anchors, tangents, effective
 * masses, the approach speed (restitution). The identity fields, point, normal, depth,
 * material numbers and warm-start impulses were written by the collision pass. Contacts of
 * bodies that are asleep (or both infinite-mass) are carried untouched: their impulses stay
 * for the report and for warm starting when the island wakes. `awakeMass` is 0 for static,
 * kinematic and sleeping bodies.
 */
export function prepareContacts(c: ContactStore, bodies: BodyStore, awakeMass: Float64Array): void {
  const pos = bodies.pos, rot = bodies.rot, I = bodies.invInertiaWorld, v = bodies.linVel, w = bodies.angVel;
  const act = c.active;
  let na = 0;
  for (let i = 0; i < c.count; i++) {
    const a = c.bodyA[i], b = c.slotB[i];
    const mA = awakeMass[a], mB = awakeMass[b];
    c.invMassA[i] = mA;
    c.invMassB[i] = mB;
    c.maxNormalImpulse[i] = 0;
    if (mA === 0 && mB === 0) continue;
    act[na++] = i;
    const p = 3 * i;
    const nx = c.normal[p], ny = c.normal[p + 1], nz = c.normal[p + 2];
    // anchor: midway through the overlap (on B's surface minus half the depth along n)
    const half = 0.5 * c.depth[i];
    const mx = c.point[p] - half * nx, my = c.point[p + 1] - half * ny, mz = c.point[p + 2] - half * nz;
    const ax = mx - pos[3 * a], ay = my - pos[3 * a + 1], az = mz - pos[3 * a + 2];
    const bx = mx - pos[3 * b], by = my - pos[3 * b + 1], bz = mz - pos[3 * b + 2];
    c.rA[p] = ax; c.rA[p + 1] = ay; c.rA[p + 2] = az;
    c.rB[p] = bx; c.rB[p + 1] = by; c.rB[p + 2] = bz;
    // anchors in body axes (R_Aᵀ·rA, R_Bᵀ·rB), for separation tracking through the substeps
    {
      const q = 4 * a;
      const qx = -rot[q], qy = -rot[q + 1], qz = -rot[q + 2], qw = rot[q + 3];
      const tx = 2 * (qy * az - qz * ay), ty = 2 * (qz * ax - qx * az), tz = 2 * (qx * ay - qy * ax);
      c.rAl[p] = ax + qw * tx + (qy * tz - qz * ty);
      c.rAl[p + 1] = ay + qw * ty + (qz * tx - qx * tz);
      c.rAl[p + 2] = az + qw * tz + (qx * ty - qy * tx);
    }
    {
      const q = 4 * b;
      const qx = -rot[q], qy = -rot[q + 1], qz = -rot[q + 2], qw = rot[q + 3];
      const tx = 2 * (qy * bz - qz * by), ty = 2 * (qz * bx - qx * bz), tz = 2 * (qx * by - qy * bx);
      c.rBl[p] = bx + qw * tx + (qy * tz - qz * ty);
      c.rBl[p + 1] = by + qw * ty + (qz * tx - qx * tz);
      c.rBl[p + 2] = bz + qw * tz + (qx * ty - qy * tx);
    }
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
    // inverse inertias (world, symmetric 3×3, column-major) of A and B
    const oa = 9 * a, ob = 9 * b;
    const a0 = I[oa], a1 = I[oa + 1], a2 = I[oa + 2], a3 = I[oa + 3], a4 = I[oa + 4], a5 = I[oa + 5], a6 = I[oa + 6], a7 = I[oa + 7], a8 = I[oa + 8];
    const b0 = I[ob], b1 = I[ob + 1], b2 = I[ob + 2], b3 = I[ob + 3], b4 = I[ob + 4], b5 = I[ob + 5], b6 = I[ob + 6], b7 = I[ob + 7], b8 = I[ob + 8];
    // K of a point row along d: mA + mB + (rA×d)·I_A(rA×d) + (rB×d)·I_B(rB×d); rolling rows: d·I_A·d + d·I_B·d
    let kn = mA + mB, k1 = mA + mB, k2 = mA + mB, kr1 = 0, kr2 = 0;
    if (mA > 0) {
      let x = ay * nz - az * ny, y = az * nx - ax * nz, z = ax * ny - ay * nx;
      kn += x * (a0 * x + a3 * y + a6 * z) + y * (a1 * x + a4 * y + a7 * z) + z * (a2 * x + a5 * y + a8 * z);
      x = ay * ez - az * ey; y = az * ex - ax * ez; z = ax * ey - ay * ex;
      k1 += x * (a0 * x + a3 * y + a6 * z) + y * (a1 * x + a4 * y + a7 * z) + z * (a2 * x + a5 * y + a8 * z);
      x = ay * fz - az * fy; y = az * fx - ax * fz; z = ax * fy - ay * fx;
      k2 += x * (a0 * x + a3 * y + a6 * z) + y * (a1 * x + a4 * y + a7 * z) + z * (a2 * x + a5 * y + a8 * z);
      kr1 = ex * (a0 * ex + a3 * ey + a6 * ez) + ey * (a1 * ex + a4 * ey + a7 * ez) + ez * (a2 * ex + a5 * ey + a8 * ez);
      kr2 = fx * (a0 * fx + a3 * fy + a6 * fz) + fy * (a1 * fx + a4 * fy + a7 * fz) + fz * (a2 * fx + a5 * fy + a8 * fz);
    }
    if (mB > 0) {
      let x = by * nz - bz * ny, y = bz * nx - bx * nz, z = bx * ny - by * nx;
      kn += x * (b0 * x + b3 * y + b6 * z) + y * (b1 * x + b4 * y + b7 * z) + z * (b2 * x + b5 * y + b8 * z);
      x = by * ez - bz * ey; y = bz * ex - bx * ez; z = bx * ey - by * ex;
      k1 += x * (b0 * x + b3 * y + b6 * z) + y * (b1 * x + b4 * y + b7 * z) + z * (b2 * x + b5 * y + b8 * z);
      x = by * fz - bz * fy; y = bz * fx - bx * fz; z = bx * fy - by * fx;
      k2 += x * (b0 * x + b3 * y + b6 * z) + y * (b1 * x + b4 * y + b7 * z) + z * (b2 * x + b5 * y + b8 * z);
      kr1 += ex * (b0 * ex + b3 * ey + b6 * ez) + ey * (b1 * ex + b4 * ey + b7 * ez) + ez * (b2 * ex + b5 * ey + b8 * ez);
      kr2 += fx * (b0 * fx + b3 * fy + b6 * fz) + fy * (b1 * fx + b4 * fy + b7 * fz) + fz * (b2 * fx + b5 * fy + b8 * fz);
    }
    c.normalMass[i] = kn > 0 ? 1 / kn : 0;
    c.t1Mass[i] = k1 > 0 ? 1 / k1 : 0;
    c.t2Mass[i] = k2 > 0 ? 1 / k2 : 0;
    c.r1Mass[i] = kr1 > 0 ? 1 / kr1 : 0;
    c.r2Mass[i] = kr2 > 0 ? 1 / kr2 : 0;
    // approach speed along n: (v_A + ω_A×rA − v_B − ω_B×rB)·n
    const wax = w[3 * a], way = w[3 * a + 1], waz = w[3 * a + 2];
    const wbx = w[3 * b], wby = w[3 * b + 1], wbz = w[3 * b + 2];
    const vx = v[3 * a] + way * az - waz * ay - (v[3 * b] + wby * bz - wbz * by);
    const vy = v[3 * a + 1] + waz * ax - wax * az - (v[3 * b + 1] + wbz * bx - wbx * bz);
    const vz = v[3 * a + 2] + wax * ay - way * ax - (v[3 * b + 2] + wbx * by - wby * bx);
    c.relativeVelocity0[i] = vx * nx + vy * ny + vz * nz;
  }
  c.activeCount = na;
  // bodies pressed between a moving body and the ground: their ground contacts do not stiffen
  if (c.squeezed.length < bodies.count + 1) c.squeezed = new Uint8Array(2 * (bodies.count + 1));
  const squeezed = c.squeezed;
  squeezed.fill(0);
  for (let k = 0; k < na; k++) {
    const i = act[k];
    if (c.invMassA[i] > 0 && c.invMassB[i] > 0) {
      squeezed[c.bodyA[i]] = 1;
      squeezed[c.slotB[i]] = 1;
    }
  }
}

/** Re-applies last step's impulses (they were matched to this step's contacts by the collision pass). */
export function warmStartContacts(c: ContactStore, bodies: BodyStore): void {
  const v = bodies.linVel, w = bodies.angVel, I = bodies.invInertiaWorld;
  const act = c.active, na = c.activeCount;
  for (let k = 0; k < na; k++) {
    const i = act[k];
    const a = c.bodyA[i], b = c.slotB[i], mA = c.invMassA[i], mB = c.invMassB[i];
    const p = 3 * i;
    const ln = c.normalImpulse[i], l1 = c.t1Impulse[i], l2 = c.t2Impulse[i];
    const t1x = c.t1[p], t1y = c.t1[p + 1], t1z = c.t1[p + 2];
    const t2x = c.t2[p], t2y = c.t2[p + 1], t2z = c.t2[p + 2];
    const px = ln * c.normal[p] + l1 * t1x + l2 * t2x;
    const py = ln * c.normal[p + 1] + l1 * t1y + l2 * t2y;
    const pz = ln * c.normal[p + 2] + l1 * t1z + l2 * t2z;
    const r1 = c.r1Impulse[i], r2 = c.r2Impulse[i];
    const rolling = r1 !== 0 || r2 !== 0;
    const lx = r1 * t1x + r2 * t2x, ly = r1 * t1y + r2 * t2y, lz = r1 * t1z + r2 * t2z;
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
    if (rolling) {
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
  }
}

/**
 * One pass over the active contacts. useBias: the solve stage (soft, pushes overlap out);
 * false: the relax stage (removes the bias velocity so it does not turn into bounce).
 * Per contact the two bodies' velocities live in locals; the rows are: normal (soft, with the
 * separation tracked from the start-of-step anchors), friction (two rows, Coulomb circle),
 * rolling resistance (two angular rows).
 */
export function solveContacts(c: ContactStore, bodies: BodyStore, soft: ContactSoftness, step: { readonly invH: number }, useBias: boolean): void {
  const invH = step.invH; // [1/s] of the substep (an object field: no float argument to box)
  const pos = bodies.pos, pos0 = bodies.pos0, rot = bodies.rot, v = bodies.linVel, w = bodies.angVel, I = bodies.invInertiaWorld;
  const biasRate = soft.biasRate, softMassScale = soft.massScale, softImpulseScale = soft.impulseScale;
  const stiffenDepth = soft.stiffenDepth, squeezed = c.squeezed;
  const act = c.active, na = c.activeCount;
  const terrainSlot = bodies.count; // never moves: its separation terms and velocities are 0
  for (let k = 0; k < na; k++) {
    const i = act[k];
    const a = c.bodyA[i], b = c.slotB[i], mA = c.invMassA[i], mB = c.invMassB[i];
    const p = 3 * i;
    const nx = c.normal[p], ny = c.normal[p + 1], nz = c.normal[p + 2];
    const ax = c.rA[p], ay = c.rA[p + 1], az = c.rA[p + 2];
    const bx = c.rB[p], by = c.rB[p + 1], bz = c.rB[p + 2];

    // --- normal row ---------------------------------------------------------------------
    // current separation from the start-of-step anchors: n·[(x_A − x_A0) + (R_A·r̂_A − r_A) − (same for B)]
    let dx: number, dy: number, dz: number;
    {
      const q = 4 * a;
      const qx = rot[q], qy = rot[q + 1], qz = rot[q + 2], qw = rot[q + 3];
      const x = c.rAl[p], y = c.rAl[p + 1], z = c.rAl[p + 2];
      const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
      dx = pos[3 * a] - pos0[3 * a] + (x + qw * tx + (qy * tz - qz * ty)) - ax;
      dy = pos[3 * a + 1] - pos0[3 * a + 1] + (y + qw * ty + (qz * tx - qx * tz)) - ay;
      dz = pos[3 * a + 2] - pos0[3 * a + 2] + (z + qw * tz + (qx * ty - qy * tx)) - az;
    }
    if (b !== terrainSlot) {
      // B moves too when it is dynamic or kinematic (the terrain slot never moves: its terms are 0)
      const q = 4 * b;
      const qx = rot[q], qy = rot[q + 1], qz = rot[q + 2], qw = rot[q + 3];
      const x = c.rBl[p], y = c.rBl[p + 1], z = c.rBl[p + 2];
      const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
      dx -= pos[3 * b] - pos0[3 * b] + (x + qw * tx + (qy * tz - qz * ty)) - bx;
      dy -= pos[3 * b + 1] - pos0[3 * b + 1] + (y + qw * ty + (qz * tx - qx * tz)) - by;
      dz -= pos[3 * b + 2] - pos0[3 * b + 2] + (z + qw * tz + (qx * ty - qy * tx)) - bz;
    }
    const s = c.separation0[i] + nx * dx + ny * dy + nz * dz;
    let bias = 0, massScale = 1, impulseScale = 0;
    if (s > 0) {
      bias = s * invH; // speculative: only the approach that would close the gap this substep
    } else if (useBias) {
      // a deep contact with the ground, on a body no other moving body presses on: stiffer in
      // proportion to the square of its depth (CONTACT_STIFFEN_DEPTH, ContactSoftness.deep)
      const ground = s < -stiffenDepth && (mA === 0 ? squeezed[b] === 0 : mB === 0 && squeezed[a] === 0);
      if (!ground) {
        bias = Math.max(biasRate * s, -CONTACT_MAX_PUSHOUT_SPEED);
        massScale = softMassScale;
        impulseScale = softImpulseScale;
      } else {
        const d = soft.deep(-s);
        bias = Math.max(d.biasRate * s, -CONTACT_MAX_PUSHOUT_SPEED);
        massScale = d.massScale;
        impulseScale = d.impulseScale;
      }
    }
    let vax = v[3 * a], vay = v[3 * a + 1], vaz = v[3 * a + 2];
    let wax = w[3 * a], way = w[3 * a + 1], waz = w[3 * a + 2];
    let vbx = v[3 * b], vby = v[3 * b + 1], vbz = v[3 * b + 2];
    let wbx = w[3 * b], wby = w[3 * b + 1], wbz = w[3 * b + 2];
    const oa = 9 * a, ob = 9 * b;
    const a0 = I[oa], a1 = I[oa + 1], a2 = I[oa + 2], a3 = I[oa + 3], a4 = I[oa + 4], a5 = I[oa + 5], a6 = I[oa + 6], a7 = I[oa + 7], a8 = I[oa + 8];
    // (B's inverse inertia is read where mB > 0 only: most contacts are on the terrain)
    // relative velocity of A's anchor with respect to B's
    let rvx = vax + way * az - waz * ay - (vbx + wby * bz - wbz * by);
    let rvy = vay + waz * ax - wax * az - (vby + wbz * bx - wbx * bz);
    let rvz = vaz + wax * ay - way * ax - (vbz + wbx * by - wby * bx);
    const vn = rvx * nx + rvy * ny + rvz * nz;
    const old = c.normalImpulse[i];
    let ln = -c.normalMass[i] * massScale * (vn + bias) - impulseScale * old;
    const total = Math.max(old + ln, 0);
    ln = total - old;
    c.normalImpulse[i] = total;
    if (total > c.maxNormalImpulse[i]) c.maxNormalImpulse[i] = total;
    if (ln !== 0) {
      const px = ln * nx, py = ln * ny, pz = ln * nz;
      if (mA > 0) {
        const tx = ay * pz - az * py, ty = az * px - ax * pz, tz = ax * py - ay * px;
        vax += mA * px; vay += mA * py; vaz += mA * pz;
        wax += a0 * tx + a3 * ty + a6 * tz;
        way += a1 * tx + a4 * ty + a7 * tz;
        waz += a2 * tx + a5 * ty + a8 * tz;
      }
      if (mB > 0) {
        const tx = by * pz - bz * py, ty = bz * px - bx * pz, tz = bx * py - by * px;
        vbx -= mB * px; vby -= mB * py; vbz -= mB * pz;
        wbx -= I[ob] * tx + I[ob + 3] * ty + I[ob + 6] * tz;
        wby -= I[ob + 1] * tx + I[ob + 4] * ty + I[ob + 7] * tz;
        wbz -= I[ob + 2] * tx + I[ob + 5] * ty + I[ob + 8] * tz;
      }
    }

    // --- friction: two rows, Coulomb circle ---------------------------------------------
    const limit = c.friction[i] * total;
    const t1x = c.t1[p], t1y = c.t1[p + 1], t1z = c.t1[p + 2];
    const t2x = c.t2[p], t2y = c.t2[p + 1], t2z = c.t2[p + 2];
    rvx = vax + way * az - waz * ay - (vbx + wby * bz - wbz * by);
    rvy = vay + waz * ax - wax * az - (vby + wbz * bx - wbx * bz);
    rvz = vaz + wax * ay - way * ax - (vbz + wbx * by - wby * bx);
    const v1 = rvx * t1x + rvy * t1y + rvz * t1z;
    const v2 = rvx * t2x + rvy * t2y + rvz * t2z;
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
      const px = d1 * t1x + d2 * t2x, py = d1 * t1y + d2 * t2y, pz = d1 * t1z + d2 * t2z;
      if (mA > 0) {
        const tx = ay * pz - az * py, ty = az * px - ax * pz, tz = ax * py - ay * px;
        vax += mA * px; vay += mA * py; vaz += mA * pz;
        wax += a0 * tx + a3 * ty + a6 * tz;
        way += a1 * tx + a4 * ty + a7 * tz;
        waz += a2 * tx + a5 * ty + a8 * tz;
      }
      if (mB > 0) {
        const tx = by * pz - bz * py, ty = bz * px - bx * pz, tz = bx * py - by * px;
        vbx -= mB * px; vby -= mB * py; vbz -= mB * pz;
        wbx -= I[ob] * tx + I[ob + 3] * ty + I[ob + 6] * tz;
        wby -= I[ob + 1] * tx + I[ob + 4] * ty + I[ob + 7] * tz;
        wbz -= I[ob + 2] * tx + I[ob + 5] * ty + I[ob + 8] * tz;
      }
    }

    // --- rolling resistance: angular rows about t1, t2 ----------------------------------
    const crr = c.rolling[i];
    if (crr > 0) {
      const wx = wax - wbx, wy = way - wby, wz = waz - wbz;
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
        const lx = e1 * t1x + e2 * t2x, ly = e1 * t1y + e2 * t2y, lz = e1 * t1z + e2 * t2z;
        if (mA > 0) {
          wax += a0 * lx + a3 * ly + a6 * lz;
          way += a1 * lx + a4 * ly + a7 * lz;
          waz += a2 * lx + a5 * ly + a8 * lz;
        }
        if (mB > 0) {
          wbx -= I[ob] * lx + I[ob + 3] * ly + I[ob + 6] * lz;
          wby -= I[ob + 1] * lx + I[ob + 4] * ly + I[ob + 7] * lz;
          wbz -= I[ob + 2] * lx + I[ob + 5] * ly + I[ob + 8] * lz;
        }
      }
    }
    if (mA > 0) {
      v[3 * a] = vax; v[3 * a + 1] = vay; v[3 * a + 2] = vaz;
      w[3 * a] = wax; w[3 * a + 1] = way; w[3 * a + 2] = waz;
    }
    if (mB > 0) {
      v[3 * b] = vbx; v[3 * b + 1] = vby; v[3 * b + 2] = vbz;
      w[3 * b] = wbx; w[3 * b + 1] = wby; w[3 * b + 2] = wbz;
    }
  }
}

/** Restitution after the substeps (Box2D v3): only contacts that approached faster than the threshold and pushed. */
export function applyRestitution(c: ContactStore, bodies: BodyStore): void {
  const v = bodies.linVel, w = bodies.angVel, I = bodies.invInertiaWorld;
  const act = c.active, na = c.activeCount;
  for (let k = 0; k < na; k++) {
    const i = act[k];
    const e = c.restitution[i];
    if (e === 0 || c.relativeVelocity0[i] > -RESTITUTION_THRESHOLD || c.maxNormalImpulse[i] === 0) continue;
    const a = c.bodyA[i], b = c.slotB[i], mA = c.invMassA[i], mB = c.invMassB[i];
    const p = 3 * i;
    const nx = c.normal[p], ny = c.normal[p + 1], nz = c.normal[p + 2];
    const ax = c.rA[p], ay = c.rA[p + 1], az = c.rA[p + 2];
    const bx = c.rB[p], by = c.rB[p + 1], bz = c.rB[p + 2];
    const wax = w[3 * a], way = w[3 * a + 1], waz = w[3 * a + 2];
    const wbx = w[3 * b], wby = w[3 * b + 1], wbz = w[3 * b + 2];
    const vx = v[3 * a] + way * az - waz * ay - (v[3 * b] + wby * bz - wbz * by);
    const vy = v[3 * a + 1] + waz * ax - wax * az - (v[3 * b + 1] + wbz * bx - wbx * bz);
    const vz = v[3 * a + 2] + wax * ay - way * ax - (v[3 * b + 2] + wbx * by - wby * bx);
    const vn = vx * nx + vy * ny + vz * nz;
    const old = c.normalImpulse[i];
    let ln = -c.normalMass[i] * (vn + e * c.relativeVelocity0[i]);
    const total = Math.max(old + ln, 0);
    ln = total - old;
    c.normalImpulse[i] = total;
    if (total > c.maxNormalImpulse[i]) c.maxNormalImpulse[i] = total;
    if (ln === 0) continue;
    const px = ln * nx, py = ln * ny, pz = ln * nz;
    if (mA > 0) {
      const tx = ay * pz - az * py, ty = az * px - ax * pz, tz = ax * py - ay * px;
      const o = 9 * a;
      v[3 * a] += mA * px; v[3 * a + 1] += mA * py; v[3 * a + 2] += mA * pz;
      w[3 * a] += I[o] * tx + I[o + 3] * ty + I[o + 6] * tz;
      w[3 * a + 1] += I[o + 1] * tx + I[o + 4] * ty + I[o + 7] * tz;
      w[3 * a + 2] += I[o + 2] * tx + I[o + 5] * ty + I[o + 8] * tz;
    }
    if (mB > 0) {
      const tx = by * pz - bz * py, ty = bz * px - bx * pz, tz = bx * py - by * px;
      const o = 9 * b;
      v[3 * b] -= mB * px; v[3 * b + 1] -= mB * py; v[3 * b + 2] -= mB * pz;
      w[3 * b] -= I[o] * tx + I[o + 3] * ty + I[o + 6] * tz;
      w[3 * b + 1] -= I[o + 1] * tx + I[o + 4] * ty + I[o + 7] * tz;
      w[3 * b + 2] -= I[o + 2] * tx + I[o + 5] * ty + I[o + 8] * tz;
    }
  }
}
