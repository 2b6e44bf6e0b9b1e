/**
 * The manifold view's picture of one wheel's contact patch, in the contact plane: the plane
 * through the patch's centroid with the patch's normal n, axes u = rolling direction (n × wheel
 * axis, normalised) and v = n × u (across the tread). In it: the contact points with their
 * depths, the outlines of the terrain elements they lie on (corners projected along n; the
 * V1–V2 diagonal when the cell is two triangles) and the wheel's footprint, the section of the
 * solid cylinder by the plane (the cylinder approximated by a FOOTPRINT_SIDES-gon prism: the
 * section of a convex polyhedron by a plane is the convex hull of its edges' crossings).
 * Pure; unit-tested (a wheel pressed d into flat ground has a footprint 2√(2rd − d²) long and
 * as wide as the wheel).
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE } from '../../sim/dynamics/frame-layout';
import type { WorldInfo } from '../../sim/app/protocol';
import { wheelCylinderInWorld } from '../../sim/app/wheel-cylinder';
import { CONTACT_ELEMENT_NONE } from '../../sim/dynamics/frame-layout';
import { elementPlane, ellipsePoints, paperConstruction, type PaperCase } from '../../sim/collision/cylinder-terrain/paper-construction';
import { elementName, terrainElement } from './contact-detail';
import type { TerrainHeights } from './terrain-heights';
import { groupManifolds, type ManifoldGroup } from './manifolds';
import type { Selection } from './selection';

/** Sides of the prism standing in for the wheel's cylinder in the footprint. */
export const FOOTPRINT_SIDES = 96;

export interface PatchPoint {
  index: number;
  u: number;
  v: number;
  depth: number;
  kind: number;
  /** The contact's unit normal in the picture's basis (u, v, n). */
  nu: number;
  nv: number;
  nn: number;
}

/** Points around the case A ellipse; the ellipse is smooth at this count at the sidebar's width. */
export const ELLIPSE_POINTS = 64;

/**
 * The paper's construction (sim/collision/cylinder-terrain/paper-construction.ts) for the wheel
 * against the plane of the element under the group's deepest contact, in the picture's (u, v).
 */
export interface ConstructionPicture {
  case: PaperCase;
  /** Cell and element whose plane it is built on. */
  cell: [number, number];
  element: string;
  /** Closed polygon (u, v pairs) of case A's base ellipse (the lower base projected along the element's normal). */
  ellipse: number[];
  /** Closed polygon (u, v pairs) of case B's side trapezoid. */
  trapezoid: number[];
  /** The projected lowest line A_L'A_U' (u, v of both ends). */
  lowestLine: [number, number, number, number];
  /** [m] s(A_L), s(A_U), s(B_L). */
  sAL: number;
  sAU: number;
  sBL: number;
  /** [m] Case A's semi-axes, case B's half-widths. */
  semiW: number;
  semiU: number;
  halfWidthL: number;
  halfWidthU: number;
}

export interface ManifoldPicture {
  wheel: number;
  group: ManifoldGroup;
  origin: [number, number, number];
  normal: [number, number, number];
  uAxis: [number, number, number];
  vAxis: [number, number, number];
  points: PatchPoint[];
  /** Closed polygons (u, v pairs) of the elements under the patch; a triangle pair gives 2 polygons. */
  elements: number[][];
  /** Convex polygon (u, v pairs) of the footprint; empty when the wheel does not reach the plane. */
  footprint: number[];
  /** The paper's construction, or null when the element's exact heights are not here yet. */
  construction: ConstructionPicture | null;
}

type V3 = [number, number, number];
const dot = (a: readonly number[], b: readonly number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: readonly number[], b: readonly number[]): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return l > 0 ? [a[0] / l, a[1] / l, a[2] / l] : [1, 0, 0];
};
/** The wheel the view shows for a selection: the selected wheel, a selected contact's wheel, else the first wheel in contact. */
export function wheelOfSelection(w: WorldInfo, sel: Selection, info: Int32Array): number {
  const isWheel = (b: number): boolean => w.bodies[b]?.role === 'wheel' && w.bodies[b].wheel !== undefined;
  if (sel.type === 'body' && isWheel(sel.body)) return sel.body;
  if (sel.type === 'contact') {
    if (isWheel(sel.bodyA)) return sel.bodyA;
    if (sel.bodyB >= 0 && isWheel(sel.bodyB)) return sel.bodyB;
  }
  for (let k = 0; k + CONTACT_INFO_STRIDE <= info.length; k += CONTACT_INFO_STRIDE) if (isWheel(info[k + 1])) return info[k + 1];
  return -1;
}

/** Convex hull of 2D points (u, v pairs), counter-clockwise (monotone chain). */
export function convexHull2(pts: number[]): number[] {
  const n = pts.length / 2;
  if (n < 3) return pts.slice();
  const idx = Array.from({ length: n }, (_, k) => k).sort((a, b) => pts[2 * a] - pts[2 * b] || pts[2 * a + 1] - pts[2 * b + 1]);
  const turn = (o: number, a: number, b: number): number => (pts[2 * a] - pts[2 * o]) * (pts[2 * b + 1] - pts[2 * o + 1]) - (pts[2 * a + 1] - pts[2 * o + 1]) * (pts[2 * b] - pts[2 * o]);
  const lower: number[] = [], upper: number[] = [];
  for (const k of idx) {
    while (lower.length >= 2 && turn(lower[lower.length - 2], lower[lower.length - 1], k) <= 0) lower.pop();
    lower.push(k);
  }
  for (let i = idx.length - 1; i >= 0; i--) {
    const k = idx[i];
    while (upper.length >= 2 && turn(upper[upper.length - 2], upper[upper.length - 1], k) <= 0) upper.pop();
    upper.push(k);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  return hull.flatMap((k) => [pts[2 * k], pts[2 * k + 1]]);
}

/**
 * Section of the cylinder (centre c, unit axis a, radius r, half-height hh) by the plane through
 * o with unit normal n, in the plane's (u, v) coordinates.
 */
export function cylinderSection(c: readonly number[], a: readonly number[], r: number, hh: number, o: readonly number[], n: readonly number[], u: readonly number[], v: readonly number[]): number[] {
  const e1 = norm(cross(a, Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const e2 = cross(a, e1);
  const N = FOOTPRINT_SIDES;
  const ring = (side: number, k: number): V3 => {
    const t = (2 * Math.PI * k) / N, cs = Math.cos(t) * r, sn = Math.sin(t) * r;
    return [c[0] + side * hh * a[0] + cs * e1[0] + sn * e2[0], c[1] + side * hh * a[1] + cs * e1[1] + sn * e2[1], c[2] + side * hh * a[2] + cs * e1[2] + sn * e2[2]];
  };
  const out: number[] = [];
  const edge = (p: V3, q: V3): void => {
    const dp = (p[0] - o[0]) * n[0] + (p[1] - o[1]) * n[1] + (p[2] - o[2]) * n[2];
    const dq = (q[0] - o[0]) * n[0] + (q[1] - o[1]) * n[1] + (q[2] - o[2]) * n[2];
    if ((dp > 0 && dq > 0) || (dp < 0 && dq < 0) || dp === dq) return;
    const t = dp / (dp - dq);
    const x: V3 = [p[0] + t * (q[0] - p[0]) - o[0], p[1] + t * (q[1] - p[1]) - o[1], p[2] + t * (q[2] - p[2]) - o[2]];
    out.push(dot(x, u), dot(x, v));
  };
  for (let k = 0; k < N; k++) {
    const p0 = ring(-1, k), p1 = ring(-1, k + 1), q0 = ring(1, k), q1 = ring(1, k + 1);
    edge(p0, p1);
    edge(q0, q1);
    edge(p0, q0);
  }
  return convexHull2(out);
}

/**
 * The picture for wheel `wheel` in a frame, or null when it has no contact. `prefer`: a contact
 * index whose manifold to show. Element outlines need the exact heights of their cells
 * (`terrain`); a cell whose heights are not here yet is left out (they are asked for).
 */
export function manifoldPicture(w: WorldInfo, terrain: TerrainHeights, poses: Float32Array, contacts: Float32Array, info: Int32Array, wheel: number, prefer = -1): ManifoldPicture | null {
  const cyl = w.bodies[wheel]?.wheel;
  if (!cyl) return null;
  const groups = groupManifolds(contacts, info).filter((g) => g.bodyA === wheel || g.bodyB === wheel);
  if (groups.length === 0) return null;
  const group = groups.find((g) => g.contacts.includes(prefer)) ?? groups.reduce((a, g) => (g.contacts.length > a.contacts.length ? g : a));
  const o: V3 = [0, 0, 0];
  for (const k of group.contacts) for (let d = 0; d < 3; d++) o[d] += contacts[CONTACT_STRIDE * k + d] / group.contacts.length;
  const n = norm([...group.normal]);
  // the wheel's cylinder where the simulation has it: a URDF wheel's sits at its collision origin
  const placed = wheelCylinderInWorld([0, 0, 0, 0, 0, 0], cyl, poses, POSE_STRIDE * wheel);
  const centre: V3 = [placed[0], placed[1], placed[2]];
  const axis: V3 = [placed[3], placed[4], placed[5]];
  let u = cross(n, axis);
  u = Math.hypot(u[0], u[1], u[2]) < 1e-6 ? norm(cross(n, Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])) : norm(u);
  const v = cross(n, u);
  const proj = (x: number, y: number, z: number): [number, number] => {
    const d: V3 = [x - o[0], y - o[1], z - o[2]];
    return [dot(d, u), dot(d, v)];
  };
  const points: PatchPoint[] = group.contacts.map((k) => {
    const c = CONTACT_STRIDE * k;
    const [pu, pv] = proj(contacts[c], contacts[c + 1], contacts[c + 2]);
    const nx = contacts[c + 3], ny = contacts[c + 4], nz = contacts[c + 5];
    return { index: k, u: pu, v: pv, depth: contacts[c + 6], kind: info[CONTACT_INFO_STRIDE * k], nu: nx * u[0] + ny * u[1] + nz * u[2], nv: nx * v[0] + ny * v[1] + nz * v[2], nn: nx * n[0] + ny * n[1] + nz * n[2] };
  });
  const elements: number[][] = [];
  const t = terrain;
  for (const cell of group.cells) {
    const [i, j] = cell.split(',').map(Number);
    if (i < 0 || j < 0 || i >= t.cols - 1 || j >= t.rows - 1) continue;
    const h0 = t.height(i, j), h1 = t.height(i + 1, j), h2 = t.height(i, j + 1), h3 = t.height(i + 1, j + 1);
    if (Number.isNaN(h0 + h1 + h2 + h3)) continue;
    const x0 = t.x0 + i * t.dx, y0 = t.y0 + j * t.dy;
    const V0 = proj(x0, y0, h0), V1 = proj(x0 + t.dx, y0, h1);
    const V2 = proj(x0, y0 + t.dy, h2), V3 = proj(x0 + t.dx, y0 + t.dy, h3);
    if (terrainElement(t, i, j, x0, y0) === 'rectangle') elements.push([...V0, ...V1, ...V3, ...V2]);
    else elements.push([...V0, ...V1, ...V2], [...V1, ...V3, ...V2]);
  }
  const footprint = cylinderSection(centre, axis, cyl.radius, cyl.height / 2, o, n, u, v);
  const deepest = group.contacts.reduce((a, k) => (contacts[CONTACT_STRIDE * k + 6] > contacts[CONTACT_STRIDE * a + 6] ? k : a), group.contacts[0]);
  const construction = constructionOf(t, contacts, info, deepest, centre, axis, cyl.radius, cyl.height, proj);
  return { wheel, group, origin: o, normal: n, uAxis: u, vAxis: v, points, elements, footprint, construction };
}

/**
 * The construction on the element of contact k (its cell and element from the frame's info; the
 * element classified from the exact heights when the frame does not say), or null when that
 * cell's heights are not here yet or the contact is not on the terrain.
 */
function constructionOf(
  t: TerrainHeights, contacts: Float32Array, info: Int32Array, k: number,
  centre: number[], axis: V3, radius: number, height: number, proj: (x: number, y: number, z: number) => [number, number],
): ConstructionPicture | null {
  const q = CONTACT_INFO_STRIDE * k;
  const i = info[q + 3], j = info[q + 4];
  if (i < 0 || j < 0 || i >= t.cols - 1 || j >= t.rows - 1) return null;
  const h = [t.height(i, j), t.height(i + 1, j), t.height(i, j + 1), t.height(i + 1, j + 1)];
  if (Number.isNaN(h[0] + h[1] + h[2] + h[3])) return null;
  const x0 = t.x0 + i * t.dx, y0 = t.y0 + j * t.dy;
  //   V2 ── V3     rectangle V0V1V3V2; lower triangle V0V1V2; upper V1V3V2 (diagonal V1–V2)
  //   │  ╲   │
  //   V0 ── V1
  const V = [[x0, y0, h[0]], [x0 + t.dx, y0, h[1]], [x0, y0 + t.dy, h[2]], [x0 + t.dx, y0 + t.dy, h[3]]];
  const code = info[q + 5];
  const element = (code !== CONTACT_ELEMENT_NONE ? elementName(code) : null) ?? terrainElement(t, i, j, contacts[CONTACT_STRIDE * k], contacts[CONTACT_STRIDE * k + 1]);
  if (element === null) return null;
  const plane = element === 'upper triangle' ? elementPlane(V[1], V[3], V[2]) : elementPlane(V[0], V[1], V[2]);
  const pc = paperConstruction({ center: centre, axis, radius, height }, plane);
  const flat = (pts: readonly (readonly number[])[]): number[] => pts.flatMap((p) => proj(p[0], p[1], p[2]));
  const [lu0, lv0] = proj(pc.ALfoot[0], pc.ALfoot[1], pc.ALfoot[2]);
  const [lu1, lv1] = proj(pc.AUfoot[0], pc.AUfoot[1], pc.AUfoot[2]);
  return {
    case: pc.case,
    cell: [i, j],
    element,
    ellipse: flat(ellipsePoints(pc, ELLIPSE_POINTS)),
    trapezoid: flat(pc.trapezoid.corners),
    lowestLine: [lu0, lv0, lu1, lv1],
    sAL: pc.sAL, sAU: pc.sAU, sBL: pc.sBL,
    semiW: pc.ellipse.semiW, semiU: pc.ellipse.semiU,
    halfWidthL: pc.trapezoid.halfWidthL, halfWidthU: pc.trapezoid.halfWidthU,
  };
}
