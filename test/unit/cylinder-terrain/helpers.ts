/**
 * Test helpers for the cylinder–terrain tests: analytic planes and the closed-form cylinder–plane
 * contact points computed independently of sim/collision/cylinder-terrain (no imports from it).
 */
import { Heightfield } from '../../../sim/terrain/heightfield';
import type { CylinderTerrainContact } from '../../../sim/collision/cylinder-terrain/plain-api';

export type V3 = [number, number, number];

export const dot = (a: Readonly<V3>, b: Readonly<V3>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const add = (a: Readonly<V3>, b: Readonly<V3>, s = 1): V3 => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
export const cross = (a: Readonly<V3>, b: Readonly<V3>): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Readonly<V3>): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};
export const dist = (a: Readonly<V3>, b: Readonly<V3>): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Heightfield sampling z = gx·x + gy·y + c on a cols × rows grid. */
export function planeField(opts: { cols: number; rows: number; dx: number; dy: number; x0: number; y0: number; gx: number; gy: number; c: number }): Heightfield {
  const heights: number[] = [];
  for (let j = 0; j < opts.rows; j++) {
    for (let i = 0; i < opts.cols; i++) {
      heights.push(opts.gx * (opts.x0 + i * opts.dx) + opts.gy * (opts.y0 + j * opts.dy) + opts.c);
    }
  }
  return Heightfield.fromArray({ ...opts, heights });
}

/** Upward unit normal and plane constant k (s(P) = k − P·n) of z = gx·x + gy·y + c. */
export function planeOf(gx: number, gy: number, c: number): { n: V3; k: number } {
  const n = norm([-gx, -gy, 1]);
  return { n, k: n[2] * c };
}

export interface Expected {
  point: V3;
  depth: number;
}

/**
 * Closed-form cylinder–plane contact (the geometry of the paper's Fig. 6, written out here
 * without the library): which case applies and its contact points (feet on the plane).
 */
export function cylinderPlane(center: V3, axis: V3, r: number, h: number, n: V3, k: number, refX: V3 = [1, 0, 0]): { kind: 'side' | 'base' | 'point' | 'none'; points: Expected[] } {
  const v = norm(axis);
  const hh = h / 2;
  const d = dot(v, n);
  const a: V3 = d < 0 ? [-v[0], -v[1], -v[2]] : v;
  const cos = Math.abs(d);
  const down = add(a.map((x) => x * cos) as V3, n, -1);
  const sin = Math.hypot(down[0], down[1], down[2]); // accurate for tiny angles, unlike √(1 − cos²)
  let w: V3;
  if (sin > 1e-9) w = norm(down);
  else w = norm(add(refX, a, -dot(refX, a)));
  const u = cross(a, w);
  const s = (p: V3): number => k - dot(p, n);
  const foot = (p: V3): Expected => ({ point: add(p, n, s(p)), depth: s(p) });
  const cl = add(center, a, -hh);
  const al = add(cl, w, r);
  const au = add(al, a, 2 * hh);
  const bl = add(cl, w, -r);
  if (!(s(al) > 0)) return { kind: 'none', points: [] };
  if (s(au) > 0 && sin > 1e-9) {
    // The upper end's foot rises s(A_U)·cosθ past the upper base plane when the wheel is
    // cambered: the contact ends where the foot leaves the cylinder (the element must touch the
    // wheel itself), at t* = (h − s(A_L)·cosθ)/(h·sin²θ) along A_L → A_U.
    const tStar = Math.min(1, (2 * hh - s(al) * cos) / (2 * hh * sin * sin));
    return { kind: 'side', points: [foot(al), foot(add(al, a, 2 * hh * tStar))] };
  }
  if (s(bl) > 0) return { kind: 'base', points: [foot(al), foot(bl), foot(add(cl, u, r)), foot(add(cl, u, -r))] };
  return { kind: 'point', points: [foot(al)] };
}

/** Every expected point has a contact within tol (point and depth); returns a message or ''. */
export function matchAll(contacts: readonly CylinderTerrainContact[], expected: readonly Expected[], tol: number): string {
  for (const e of expected) {
    const hit = contacts.find((c) => dist(c.point, e.point) < tol && Math.abs(c.depth - e.depth) < tol);
    if (!hit) return `no contact at ${JSON.stringify(e)} among ${JSON.stringify(contacts.map((c) => [c.point, c.depth, c.kind]))}`;
  }
  return '';
}
