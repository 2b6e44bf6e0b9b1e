/**
 * The per-step report (frame-layout.ts) built from flat arrays: the world's own stores
 * (`DynamicsWorld.frame()`) and a recorder's copy of them (sim/record/capture.ts) go through the
 * same formulas, so a recorded frame equals the live one bit for bit.
 */
import type { Heightfield } from '../terrain/heightfield';
import { CONTACT_ELEMENT_NONE, CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from './frame-layout';

/** Flat body arrays, the BodyStore layout (pos is the mass centre x; comLocal is c in the body frame). */
export interface BodyArrays {
  pos: Float64Array;
  rot: Float64Array;
  linVel: Float64Array;
  angVel: Float64Array;
  comLocal: Float64Array;
}

/** Flat contact arrays, the ContactStore layout (impulses per substep). */
export interface ContactArrays {
  point: Float64Array;
  normal: Float64Array;
  depth: Float64Array;
  normalImpulse: Float64Array;
  t1Impulse: Float64Array;
  t2Impulse: Float64Array;
  kind: ArrayLike<number>;
  bodyA: ArrayLike<number>;
  bodyB: ArrayLike<number>;
  cellI: ArrayLike<number>;
  cellJ: ArrayLike<number>;
}

/**
 * Arrays a report is written into (the world's `frame()`, a recorder's decoded frames), grown as
 * needed: the body arrays to the body count, the contact arrays to twice the contact count.
 */
export class ReportArrays {
  poses = new Float64Array(0);
  velocities = new Float64Array(0);
  contacts = new Float64Array(0);
  contactInfo = new Int32Array(0);
  /** Per contact: its terrain element (contactElements), for the report's Element field. */
  elements = new Int32Array(0);

  /** Room for `bodies` bodies and `contacts` contacts. */
  reserve(bodies: number, contacts: number): void {
    if (this.poses.length < POSE_STRIDE * bodies) {
      this.poses = new Float64Array(POSE_STRIDE * bodies);
      this.velocities = new Float64Array(VELOCITY_STRIDE * bodies);
    }
    this.reserveContacts(contacts);
  }

  reserveContacts(contacts: number): void {
    if (this.contacts.length < CONTACT_STRIDE * contacts) {
      this.contacts = new Float64Array(2 * CONTACT_STRIDE * contacts);
      this.contactInfo = new Int32Array(2 * CONTACT_INFO_STRIDE * contacts);
      this.elements = new Int32Array(2 * contacts);
    }
  }
}

/** Poses (body origin o = x − R·c, rotation) and origin velocities (v + ω × (o − x), ω) of bodies 0..n−1. */
export function writeBodyReport(poses: Float64Array, vel: Float64Array, n: number, s: BodyArrays): void {
  const pos = s.pos, rot = s.rot, v = s.linVel, w = s.angVel, c = s.comLocal;
  for (let b = 0; b < n; b++) {
    // R·c (rotateByBody's arithmetic, inline: no scratch vector and no boxed arguments)
    const x = c[3 * b], y = c[3 * b + 1], z = c[3 * b + 2];
    const qx = rot[4 * b], qy = rot[4 * b + 1], qz = rot[4 * b + 2], qw = rot[4 * b + 3];
    const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
    const ox = pos[3 * b] - (x + qw * tx + (qy * tz - qz * ty));
    const oy = pos[3 * b + 1] - (y + qw * ty + (qz * tx - qx * tz));
    const oz = pos[3 * b + 2] - (z + qw * tz + (qx * ty - qy * tx));
    const p = b * POSE_STRIDE;
    poses[p] = ox; poses[p + 1] = oy; poses[p + 2] = oz;
    for (let k = 0; k < 4; k++) poses[p + 3 + k] = rot[4 * b + k];
    const rx = ox - pos[3 * b], ry = oy - pos[3 * b + 1], rz = oz - pos[3 * b + 2];
    const q = b * VELOCITY_STRIDE;
    vel[q] = v[3 * b] + w[3 * b + 1] * rz - w[3 * b + 2] * ry;
    vel[q + 1] = v[3 * b + 1] + w[3 * b + 2] * rx - w[3 * b] * rz;
    vel[q + 2] = v[3 * b + 2] + w[3 * b] * ry - w[3 * b + 1] * rx;
    vel[q + 3] = w[3 * b]; vel[q + 4] = w[3 * b + 1]; vel[q + 5] = w[3 * b + 2];
  }
}

/**
 * One body's pose in the report layout (POSE_STRIDE numbers: origin, quaternion) written into
 * out[0..6], by writeBodyReport's formulas (bit-identical to the body's slice of a frame).
 * Allocates nothing.
 */
export function bodyPoseInto(out: Float64Array, b: number, s: BodyArrays): Float64Array {
  const pos = s.pos, rot = s.rot, c = s.comLocal;
  // R·c (rotateByBody's arithmetic, inline: no scratch vector and no boxed arguments)
  const x = c[3 * b], y = c[3 * b + 1], z = c[3 * b + 2];
  const qx = rot[4 * b], qy = rot[4 * b + 1], qz = rot[4 * b + 2], qw = rot[4 * b + 3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  const ox = pos[3 * b] - (x + qw * tx + (qy * tz - qz * ty));
  const oy = pos[3 * b + 1] - (y + qw * ty + (qz * tx - qx * tz));
  const oz = pos[3 * b + 2] - (z + qw * tz + (qx * ty - qy * tx));
  out[0] = ox;
  out[1] = oy;
  out[2] = oz;
  for (let k = 0; k < 4; k++) out[3 + k] = rot[4 * b + k];
  return out;
}

/**
 * One body's velocity in the report layout (VELOCITY_STRIDE numbers: origin velocity, angular
 * velocity, world frame) written into out[0..5], by writeBodyReport's formulas. Allocates nothing.
 */
export function bodyVelocityInto(out: Float64Array, b: number, s: BodyArrays): Float64Array {
  const pos = s.pos, rot = s.rot, v = s.linVel, w = s.angVel, c = s.comLocal;
  // R·c (rotateByBody's arithmetic, inline: no scratch vector and no boxed arguments)
  const x = c[3 * b], y = c[3 * b + 1], z = c[3 * b + 2];
  const qx = rot[4 * b], qy = rot[4 * b + 1], qz = rot[4 * b + 2], qw = rot[4 * b + 3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  const ox = pos[3 * b] - (x + qw * tx + (qy * tz - qz * ty));
  const oy = pos[3 * b + 1] - (y + qw * ty + (qz * tx - qx * tz));
  const oz = pos[3 * b + 2] - (z + qw * tz + (qx * ty - qy * tx));
  const rx = ox - pos[3 * b], ry = oy - pos[3 * b + 1], rz = oz - pos[3 * b + 2];
  out[0] = v[3 * b] + w[3 * b + 1] * rz - w[3 * b + 2] * ry;
  out[1] = v[3 * b + 1] + w[3 * b + 2] * rx - w[3 * b] * rz;
  out[2] = v[3 * b + 2] + w[3 * b] * ry - w[3 * b + 1] * rx;
  out[3] = w[3 * b]; out[4] = w[3 * b + 1]; out[5] = w[3 * b + 2];
  return out;
}

/**
 * The terrain element (ElementKind, Heightfield.elementAt) under each of contacts 0..n−1, into
 * out[0..n): classified from the contact's cell and its point (on the terrain surface) with the
 * float64 heights and cell bits the collision used; written from out[at] on. CONTACT_ELEMENT_NONE for body–body contacts,
 * a cell outside the grid, or no terrain. Not part of the contact store (nor of the saved state):
 * the stepping side computes it when it writes or captures a frame. Allocates nothing.
 */
export function contactElements(out: Int32Array, at: number, n: number, point: ArrayLike<number>, bodyB: ArrayLike<number>, cellI: ArrayLike<number>, cellJ: ArrayLike<number>, hf: Heightfield | null): void {
  for (let i = 0; i < n; i++) out[at + i] = contactElement(i, point, bodyB, cellI, cellJ, hf);
}

/** contactElements for one contact. */
export function contactElement(i: number, point: ArrayLike<number>, bodyB: ArrayLike<number>, cellI: ArrayLike<number>, cellJ: ArrayLike<number>, hf: Heightfield | null): number {
  if (hf === null || bodyB[i] >= 0) return CONTACT_ELEMENT_NONE;
  return hf.elementAt(cellI[i], cellJ[i], point[3 * i], point[3 * i + 1]);
}

/**
 * Contacts 0..n−1: point, normal, depth and the step's impulses (the solver's are per substep,
 * re-applied every substep: the step's is substeps × that), then kind, bodies, cell and element
 * (`element[i]`, contactElements).
 */
export function writeContactReport(con: Float64Array, info: Int32Array, n: number, c: ContactArrays, element: ArrayLike<number>, substeps: number): void {
  for (let i = 0; i < n; i++) {
    const p = i * CONTACT_STRIDE;
    con[p] = c.point[3 * i]; con[p + 1] = c.point[3 * i + 1]; con[p + 2] = c.point[3 * i + 2];
    con[p + 3] = c.normal[3 * i]; con[p + 4] = c.normal[3 * i + 1]; con[p + 5] = c.normal[3 * i + 2];
    con[p + 6] = c.depth[i];
    con[p + 7] = c.normalImpulse[i] * substeps; con[p + 8] = c.t1Impulse[i] * substeps; con[p + 9] = c.t2Impulse[i] * substeps;
    const q = i * CONTACT_INFO_STRIDE;
    info[q] = c.kind[i]; info[q + 1] = c.bodyA[i]; info[q + 2] = c.bodyB[i]; info[q + 3] = c.cellI[i]; info[q + 4] = c.cellJ[i];
    info[q + 5] = element[i];
  }
}
