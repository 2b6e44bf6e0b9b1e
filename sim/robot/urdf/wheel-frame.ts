/**
 * Wheels as ROS files write them → one cylinder about the joint axis (the analytic wheel).
 *
 * The paper's cylinder–terrain algorithm needs the wheel as one cylinder; the engine takes it at
 * any pose inside its body (a compound whose only child is a cylinder is unwrapped into the
 * body's shape offset, sim/dynamics/build.ts), so a lone cylinder needs nothing here, whatever
 * its `rpy` (`1.5708 0 0`, `-1.5708 0 0`, about y, ...) or offset. What needs work is a wheel link
 * made of several collisions (the Leo: two coaxial cylinders and an outline mesh) or of a mesh:
 *
 *     joint axis a (unit, body frame), through the joint anchor o (the link origin):
 *     for every part k:  R_k = largest distance of the part from the axis line
 *                        [lo_k, hi_k] = its extent along a
 *     R = max R_k; the tread is every part with R_k ≥ WHEEL_TREAD_FRACTION·R;
 *     width = extent of the tread along a, centred at its middle; the cylinder sits on the axis.
 *
 * A mesh part is judged by how much of its fitted cylinder its convex hull fills
 * (hull volume / π R_k² w_k): below WHEEL_MESH_MIN_FILL it is not round (a tracked module, a
 * mecanum roller cage) and the link keeps its shapes, with the reason. A part off the axis
 * (a cylinder whose axis is not along the joint's, a box) also keeps the link as it is, with the
 * reason. A sphere alone stays a sphere: it is exact, rolls in every direction (a caster ball is
 * not a disc) and collides through the general routine, whose contacts are labelled `terrain`.
 */
import type { ConvexShapeSpec, QuatSpec, Vec3Spec } from '../../dynamics/spec';
import type { Quat } from '../../math/quat';
import { quatRotate } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import { shapeFromDesc } from '../../shapes/shape-desc';
import type { UrdfModel } from './urdf-model';

/** A cylinder part is coaxial with the joint when its axis is within acos(this) of it (0.5°). */
export const WHEEL_AXIS_PARALLEL_COS = Math.cos((0.5 * Math.PI) / 180);
/** A cylinder's or sphere's centre may sit this far off the axis, relative to its radius, and still be a wheel part. */
export const WHEEL_CENTRE_OFFSET_RELATIVE = 0.01;
/** Parts whose radius is at least this fraction of the largest make up the tread (its width). */
export const WHEEL_TREAD_FRACTION = 0.9;
/** A mesh whose convex hull fills less than this of its fitted cylinder is not taken as a wheel. */
export const WHEEL_MESH_MIN_FILL = 0.8;
/**
 * A mesh fit whose outline strays further than this fraction of the radius inside the fitted
 * cylinder (at any of WHEEL_FIT_DIRECTIONS about the axis) is said to be a poor fit: the wheel
 * rolls as the cylinder, a lumpy or polygonal tread does not show in its contacts.
 */
export const WHEEL_FIT_POOR_DEVIATION = 0.02;
/** Directions about the joint axis the mesh's outline is measured in (every 5.6°). */
const WHEEL_FIT_DIRECTIONS = 64;

/** One collision shape of a wheel body, posed in the body frame. */
export interface WheelPart {
  shape: ConvexShapeSpec;
  position: Vec3;
  orientation: Quat;
}

/** What the framing found for one wheel body. */
export interface WheelFit {
  /** [m] */
  radius: number;
  width: number;
  /** The cylinder, in the body frame: on the joint axis, its z along the axis. */
  position: Vec3Spec;
  orientation: QuatSpec;
  /** How it was found: one coaxial cylinder as written, or an envelope of several parts / a mesh fit. */
  from: 'cylinder' | 'fit';
  /** [0..1] For a fit with mesh parts: the smallest fill of a mesh's fitted cylinder (1 otherwise). */
  fill: number;
  /**
   * [m] For a fit with mesh parts: how far the meshes' outline (their hull's support in each of
   * WHEEL_FIT_DIRECTIONS ⟂ the axis) lies inside the fitted radius, largest and root-mean-square
   * (the worst mesh); 0 otherwise.
   */
  deviation: { max: number; rms: number };
}

/**
 * The words a fitted wheel's info line adds about its mesh fit: its fill, how far its outline
 * strays inside the radius, and whether that is a poor fit (WHEEL_FIT_POOR_DEVIATION); '' for a
 * fit without meshes.
 */
export function describeMeshFit(f: WheelFit): string {
  if (f.fill >= 1 && f.deviation.max === 0) return '';
  const mm = (x: number) => `${+(x * 1000).toPrecision(3)} mm`;
  const poor = f.deviation.max > WHEEL_FIT_POOR_DEVIATION * f.radius;
  return `, the mesh fills ${Math.round(100 * f.fill)}% of it and its outline lies up to ${mm(f.deviation.max)} (RMS ${mm(f.deviation.rms)}) inside its radius${
    poor ? `: a poor fit (more than ${100 * WHEEL_FIT_POOR_DEVIATION}% of the radius; the wheel rolls as this cylinder, not as its mesh)` : ''}`;
}

/** The body is a wheel (`fit`) or not, with the reason that is said to the user. */
export type WheelFraming = { fit: WheelFit } | { reason: string };

/**
 * Frames a wheel body's parts about its joint axis `axis` (unit, body frame) through `anchor`
 * (body frame). Returns the cylinder or the reason it is not one.
 */
export function frameWheel(parts: readonly WheelPart[], anchor: Vec3, axis: Vec3): WheelFraming {
  if (parts.length === 0) return { reason: 'it has no <collision>' };
  if (parts.length === 1 && parts[0].shape.type === 'sphere') {
    return { reason: 'its collision is a sphere, which stays a sphere (exact, rolls every way; contacts through the general routine, labelled "terrain")' };
  }
  let R = 0;
  const radial: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  let fill = 1;
  let deviation = { max: 0, rms: 0 };
  let cylinders = 0;
  let meshes = 0;
  const z: Vec3 = [0, 0, 0];
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    const s = p.shape;
    const d: Vec3 = [p.position[0] - anchor[0], p.position[1] - anchor[1], p.position[2] - anchor[2]];
    const along = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
    const off = Math.hypot(d[0] - along * axis[0], d[1] - along * axis[1], d[2] - along * axis[2]);
    if (s.type === 'cylinder' || s.type === 'sphere') {
      if (off > WHEEL_CENTRE_OFFSET_RELATIVE * s.radius) {
        return { reason: `its ${s.type} #${k + 1} sits ${round(off)} m off the joint axis` };
      }
      if (s.type === 'cylinder') {
        quatRotate(z, p.orientation, [0, 0, 1]);
        const c = Math.abs(z[0] * axis[0] + z[1] * axis[1] + z[2] * axis[2]);
        if (c < WHEEL_AXIS_PARALLEL_COS) {
          return { reason: `its cylinder #${k + 1} runs ${round((Math.acos(Math.min(1, c)) * 180) / Math.PI)}° away from the joint axis` };
        }
        cylinders++;
        radial.push(s.radius + off);
        lo.push(along - s.height / 2);
        hi.push(along + s.height / 2);
      } else {
        radial.push(s.radius + off);
        lo.push(along - s.radius);
        hi.push(along + s.radius);
      }
    } else if (s.type === 'hull') {
      meshes++;
      let r = 0, a0 = Infinity, a1 = -Infinity;
      const q: Vec3 = [0, 0, 0];
      for (const v of s.points) {
        quatRotate(q, p.orientation, v as unknown as Vec3);
        const x = q[0] + d[0], y = q[1] + d[1], w = q[2] + d[2];
        const t = x * axis[0] + y * axis[1] + w * axis[2];
        r = Math.max(r, Math.hypot(x - t * axis[0], y - t * axis[1], w - t * axis[2]));
        a0 = Math.min(a0, t);
        a1 = Math.max(a1, t);
      }
      const volume = shapeFromDesc({ type: 'hull', points: s.points }).volume();
      const cyl = Math.PI * r * r * (a1 - a0);
      const f = cyl > 0 ? volume / cyl : 0;
      if (f < WHEEL_MESH_MIN_FILL) {
        return { reason: `its mesh #${k + 1} fills ${Math.round(100 * f)}% of its fitted cylinder (radius ${round(r)} m, width ${round(a1 - a0)} m) about the joint axis, below ${Math.round(100 * WHEEL_MESH_MIN_FILL)}%: not round enough` };
      }
      fill = Math.min(fill, f);
      const dev = outlineDeviation(s.points, p.orientation, d, axis, r);
      if (dev.max > deviation.max) deviation = dev;
      radial.push(r);
      lo.push(a0);
      hi.push(a1);
    } else {
      return { reason: `its collision #${k + 1} is a ${s.type}` };
    }
    R = Math.max(R, radial[radial.length - 1]);
  }
  let a0 = Infinity, a1 = -Infinity;
  for (let k = 0; k < radial.length; k++) {
    if (radial[k] < WHEEL_TREAD_FRACTION * R) continue;
    a0 = Math.min(a0, lo[k]);
    a1 = Math.max(a1, hi[k]);
  }
  const mid = 0.5 * (a0 + a1);
  const position: Vec3Spec = [anchor[0] + mid * axis[0] + 0, anchor[1] + mid * axis[1] + 0, anchor[2] + mid * axis[2] + 0];
  // one coaxial cylinder: its own radius and length, as written (no rounding through the fit)
  const only = parts.length === 1 && cylinders === 1 ? (parts[0].shape as { radius: number; height: number }) : null;
  const single = only !== null;
  return {
    fit: {
      radius: only ? only.radius : R,
      width: only ? only.height : a1 - a0,
      position,
      orientation: single ? canonical(parts[0].orientation) : zTo(axis),
      from: single ? 'cylinder' : 'fit',
      fill,
      deviation,
    },
  };
}

/**
 * How far a mesh part's outline lies inside radius `r` about the axis: in each of
 * WHEEL_FIT_DIRECTIONS u ⟂ axis, the hull's support max(v·u) (v: its points in the body frame,
 * relative to the anchor) against r. A polygonal tread of n sides strays r(1 − cos(π/n)).
 */
function outlineDeviation(points: readonly Vec3Spec[], orientation: Quat, offset: Vec3, axis: Vec3, r: number): { max: number; rms: number } {
  // e1, e2: an orthonormal pair ⟂ axis
  const [ax, ay, az] = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const dot = ax * axis[0] + ay * axis[1] + az * axis[2];
  let e1x = ax - dot * axis[0], e1y = ay - dot * axis[1], e1z = az - dot * axis[2];
  const l = Math.hypot(e1x, e1y, e1z);
  e1x /= l;
  e1y /= l;
  e1z /= l;
  const e2x = axis[1] * e1z - axis[2] * e1y, e2y = axis[2] * e1x - axis[0] * e1z, e2z = axis[0] * e1y - axis[1] * e1x;
  const q: Vec3 = [0, 0, 0];
  const body = points.map((v) => (quatRotate(q, orientation, v as unknown as Vec3), [q[0] + offset[0], q[1] + offset[1], q[2] + offset[2]]));
  let max = 0, sum = 0;
  for (let k = 0; k < WHEEL_FIT_DIRECTIONS; k++) {
    const a = (2 * Math.PI * k) / WHEEL_FIT_DIRECTIONS;
    const c = Math.cos(a), sn = Math.sin(a);
    const ux = c * e1x + sn * e2x, uy = c * e1y + sn * e2y, uz = c * e1z + sn * e2z;
    let h = -Infinity;
    for (const v of body) h = Math.max(h, v[0] * ux + v[1] * uy + v[2] * uz);
    const dev = Math.max(0, r - h);
    max = Math.max(max, dev);
    sum += dev * dev;
  }
  return { max, rms: Math.sqrt(sum / WHEEL_FIT_DIRECTIONS) };
}

/**
 * Revolute joints that turn a whole revolution or more (limits at least 2π apart: a wheel
 * written as `revolute` with wide limits) are not wheels here: only continuous joints are (a
 * revolute joint keeps its limits, which stop a wheel). Their links with a collision would collide
 * through the general routine without a word; each gets a warning naming the link, the joint and
 * the fix.
 */
export function fullTurnRevoluteWarnings(model: UrdfModel): string[] {
  const out: string[] = [];
  for (const j of model.joints) {
    if (j.type !== 'revolute' || !j.limit || !(j.limit.upper - j.limit.lower >= 2 * Math.PI)) continue;
    const link = model.links.find((l) => l.name === j.child);
    if (!link || link.collisions.length === 0) continue;
    out.push(`link "${j.child}" turns on revolute joint "${j.name}" (limits ${limitText(j.limit.lower)} to ${limitText(j.limit.upper)} rad, a full turn or more) but is not an analytic wheel: only continuous joints make wheels (a revolute joint keeps its limits); it collides through the general routine: make the joint continuous if it is a wheel`);
  }
  return out;
}

/** The rotation taking local z to the unit vector a (shortest arc; a half turn about x for −z). */
function zTo(a: Vec3): QuatSpec {
  // q = (z × a, 1 + z·a) normalised; z × a = (−a_y, a_x, 0)
  const w = 1 + a[2];
  if (w < 1e-9) return [1, 0, 0, 0];
  const n = Math.hypot(a[1], a[0], w);
  return [-a[1] / n + 0, a[0] / n + 0, 0, w / n];
}

function canonical(q: Quat): QuatSpec {
  const s = q[3] < 0 ? -1 : 1;
  return [s * q[0] + 0, s * q[1] + 0, s * q[2] + 0, s * q[3]];
}

/** A joint limit as written: large ones (the 1e16 of "no limit") in exponent form. */
function limitText(x: number): string {
  return Math.abs(x) >= 1e6 ? x.toExponential() : String(round(x));
}

function round(x: number): number {
  return +x.toPrecision(4);
}
