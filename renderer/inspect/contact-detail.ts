/**
 * Everything the inspector shows about one contact of a frame, as numbers (formatting is the
 * panel's job). Pure: no DOM, no three; unit-tested against hand-computed cases.
 *
 * Slip velocity: the velocity of body A's material point at the contact minus body B's (the
 * terrain is at rest), with the normal component removed. Frame velocities are the body
 * origin's linear velocity and the angular velocity (sim/app/protocol.ts), so the material point's
 * velocity is v + ω × (p − origin). The contact point lies on B's surface, not A's, but the two
 * are at most `depth` apart: a depth of 5 mm at ω = 10 rad/s changes the slip by 5 cm/s at most.
 */
import { contactKindName } from '../../sim/dynamics/plain-world';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, ContactInfoField } from '../../sim/dynamics/frame-layout';
import { ElementKind } from '../../sim/terrain/heightfield';
import { TERRAIN_PLANARITY_TOLERANCE } from '../../sim/constants';
import { pointVelocity } from '../../sim/app/plot-series';
import type { TerrainHeights } from './terrain-heights';

/** The slice of a Frame the inspector reads (a Frame fits; tests build it by hand). */
export interface ContactFrame {
  step: number;
  time: number;
  poses: Float32Array;
  velocities?: Float32Array;
  contacts: Float32Array;
  contactInfo: Int32Array;
}

/** What the slip needs of a frame: poses, velocities and contacts. */
export type MotionFrame = Pick<ContactFrame, 'poses' | 'velocities' | 'contacts' | 'contactInfo'>;

/** Which element of a terrain cell a point lies on (sim/terrain/heightfield.ts diagram). */
export type TerrainElement = 'rectangle' | 'lower triangle' | 'upper triangle';

export interface ContactDetail {
  /** Index of the contact in its frame. */
  index: number;
  step: number;
  kind: number;
  kindName: string;
  bodyA: number;
  /** −1: the terrain. */
  bodyB: number;
  /** Terrain cell, −1 for body–body contacts. */
  cellI: number;
  cellJ: number;
  /**
   * The sim's element (contactInfo Element, classified on the float64 heights); for frames
   * without it (recordings older than the field) re-classified here on the float32 heights
   * (terrainElement). null for body–body contacts, a cell outside the grid, or (old frames only)
   * while the cell's heights are on their way.
   */
  element: TerrainElement | null;
  point: [number, number, number];
  normal: [number, number, number];
  /** [m] */
  depth: number;
  /** [N·s] over the step. */
  normalImpulse: number;
  t1Impulse: number;
  t2Impulse: number;
  /** [N] impulse / dt. */
  normalForce: number;
  frictionForce: number;
  /** [m/s] tangential relative velocity of A's material point against B (null without velocities). */
  slip: [number, number, number] | null;
  slipSpeed: number | null;
  /** [m/s] normal relative velocity (positive: separating), null without velocities. */
  normalSpeed: number | null;
}

export function contactCount(f: ContactFrame): number {
  return Math.min(Math.floor(f.contacts.length / CONTACT_STRIDE), Math.floor(f.contactInfo.length / CONTACT_INFO_STRIDE));
}

/**
 * The element of cell (i, j) under (x, y), by the paper's rule: a planar cell (the four corners
 * coplanar with a right angle at V0) is one rectangle, otherwise two triangles on the V1–V2
 * diagonal, lower when fx + fy ≤ 1. Heights are the float32 copy the worker sends, so a cell
 * planar only within float64 rounding may read as two triangles here (the tolerance is 1 nm).
 * Null outside the grid or while the cell's heights are on their way (terrain-heights.ts).
 */
export function terrainElement(t: TerrainHeights, i: number, j: number, x: number, y: number): TerrainElement | null {
  if (i < 0 || j < 0 || i >= t.cols - 1 || j >= t.rows - 1) return null;
  const h0 = t.height(i, j), h1 = t.height(i + 1, j), h2 = t.height(i, j + 1), h3 = t.height(i + 1, j + 1);
  if (Number.isNaN(h0 + h1 + h2 + h3)) return null;
  const tol = TERRAIN_PLANARITY_TOLERANCE;
  const rect = (Math.abs(h1 - h0) <= tol && Math.abs(h3 - h2) <= tol) || (Math.abs(h2 - h0) <= tol && Math.abs(h3 - h1) <= tol);
  if (rect) return 'rectangle';
  const fx = (x - (t.x0 + i * t.dx)) / t.dx, fy = (y - (t.y0 + j * t.dy)) / t.dy;
  return fx + fy <= 1 ? 'lower triangle' : 'upper triangle';
}

/** The TerrainElement of a contactInfo Element code (ElementKind); null for CONTACT_ELEMENT_NONE or an unknown code. */
export function elementName(code: number): TerrainElement | null {
  switch (code) {
    case ElementKind.Rectangle: return 'rectangle';
    case ElementKind.LowerTriangle: return 'lower triangle';
    case ElementKind.UpperTriangle: return 'upper triangle';
    default: return null;
  }
}


const va = [0, 0, 0], vb = [0, 0, 0];

/**
 * [m/s] Slip speed of contact k: the tangential part of A's material point velocity against B's
 * at the contact point (as contactDetail's slipSpeed), NaN without velocities or for an index
 * out of range. Allocates nothing (the plots sample it every frame).
 */
export function contactSlipSpeed(f: MotionFrame, k: number): number {
  const n = Math.min(Math.floor(f.contacts.length / CONTACT_STRIDE), Math.floor(f.contactInfo.length / CONTACT_INFO_STRIDE));
  if (!Number.isInteger(k) || k < 0 || k >= n) return Number.NaN;
  const o = CONTACT_STRIDE * k, q = CONTACT_INFO_STRIDE * k;
  const c = f.contacts;
  if (!pointVelocity(va, f, f.contactInfo[q + 1], c[o], c[o + 1], c[o + 2]) || !pointVelocity(vb, f, f.contactInfo[q + 2], c[o], c[o + 1], c[o + 2])) return Number.NaN;
  const rx = va[0] - vb[0], ry = va[1] - vb[1], rz = va[2] - vb[2];
  const vn = rx * c[o + 3] + ry * c[o + 4] + rz * c[o + 5];
  return Math.hypot(rx - vn * c[o + 3], ry - vn * c[o + 4], rz - vn * c[o + 5]);
}

/** Detail of contact k of frame f; null when k is out of range. */
export function contactDetail(f: ContactFrame, k: number, dt: number, terrain: TerrainHeights | null): ContactDetail | null {
  if (!Number.isInteger(k) || k < 0 || k >= contactCount(f)) return null;
  const o = CONTACT_STRIDE * k, q = CONTACT_INFO_STRIDE * k;
  const c = f.contacts, info = f.contactInfo;
  const point: [number, number, number] = [c[o], c[o + 1], c[o + 2]];
  const normal: [number, number, number] = [c[o + 3], c[o + 4], c[o + 5]];
  const kind = info[q], bodyA = info[q + 1], bodyB = info[q + 2], cellI = info[q + 3], cellJ = info[q + 4];
  const code = info[q + ContactInfoField.Element];
  const inv = dt > 0 ? 1 / dt : 0;
  let slip: [number, number, number] | null = null, slipSpeed: number | null = null, normalSpeed: number | null = null;
  if (pointVelocity(va, f, bodyA, point[0], point[1], point[2]) && pointVelocity(vb, f, bodyB, point[0], point[1], point[2])) {
    const rx = va[0] - vb[0], ry = va[1] - vb[1], rz = va[2] - vb[2];
    const vn = rx * normal[0] + ry * normal[1] + rz * normal[2];
    slip = [rx - vn * normal[0], ry - vn * normal[1], rz - vn * normal[2]];
    slipSpeed = Math.hypot(slip[0], slip[1], slip[2]);
    normalSpeed = vn;
  }
  return {
    index: k,
    step: f.step,
    kind,
    kindName: contactKindName(kind),
    bodyA,
    bodyB,
    cellI,
    cellJ,
    element: code >= 0 ? elementName(code) : bodyB < 0 && terrain && cellI >= 0 ? terrainElement(terrain, cellI, cellJ, point[0], point[1]) : null,
    point,
    normal,
    depth: c[o + 6],
    normalImpulse: c[o + 7],
    t1Impulse: c[o + 8],
    t2Impulse: c[o + 9],
    normalForce: c[o + 7] * inv,
    frictionForce: Math.hypot(c[o + 8], c[o + 9]) * inv,
    slip,
    slipSpeed,
    normalSpeed,
  };
}
