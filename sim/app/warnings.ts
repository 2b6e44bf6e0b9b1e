/**
 * Warnings no other simulator gives, computed from the world info and frames (the renderer shows
 * them over the 3D view, `npm run sim` prints them). Pure; unit-tested.
 *
 * - Terrain too coarse for a wheel: the analytic wheel–terrain algorithm (Strashnov & Torgashev
 *   2020) assumes a wheel spans several cells, so the terrain under it is sampled finely enough;
 *   with a radius under WHEEL_MIN_CELLS cells a wheel meets single elements as facets and its
 *   contacts jump between cases.
 * - Terrain too fine for a wheel: one query visits every cell under the wheel's footprint, so its
 *   time grows with the cell count, and its candidate buffer (CYLINDER_TERRAIN_MAX_CANDIDATES) and
 *   cell budget (CYLINDER_TERRAIN_MAX_CELLS) are fixed: past WHEEL_MAX_FOOTPRINT_CELLS contacts
 *   can be dropped (CandidateOverflow), past the cell budget the footprint is truncated.
 * - A body moving more than its own size in one step: collision is sampled once per step; the
 *   continuous pass (dynamics/ccd.ts) covers the terrain and static bodies, but two fast dynamic
 *   bodies can still pass each other.
 * - Left the terrain: the robot's base outside the grid has no ground under it.
 */
import { POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import type { BodyShape, TerrainInfo, WorldInfo } from './protocol';
import { CYLINDER_TERRAIN_MAX_CANDIDATES, CYLINDER_TERRAIN_MAX_CELLS } from '../constants';

/** [cells] Smallest wheel radius, in terrain cells, for which the wheel algorithm's sampling holds. */
export const WHEEL_MIN_CELLS = 2;

/**
 * [cells] Largest wheel footprint (wheelFootprintCells) the wheel query handles without a warning.
 * Every cell the wheel dips into gives at least one candidate contact (up to two elements and
 * three owned edges each), so a footprint of more cells than the candidate buffer holds
 * (CYLINDER_TERRAIN_MAX_CANDIDATES) can fill it on rough ground, and the query then drops
 * contacts; its time also grows with the cells visited. Past CYLINDER_TERRAIN_MAX_CELLS the
 * query visits only a centred window of the footprint and loses the contacts outside it.
 */
export const WHEEL_MAX_FOOTPRINT_CELLS = CYLINDER_TERRAIN_MAX_CANDIDATES;

/**
 * [cells] Cells under a wheel's footprint at its worst yaw: the query's box extends
 * (h/2)|v_k| + r√(1 − v_k²) ≤ √(r² + (h/2)²) each side of the centre along x and y, and an
 * interval of length L covers L/d + 1 cells on average.
 */
export function wheelFootprintCells(radius: number, height: number, dx: number, dy: number): number {
  const e = Math.hypot(radius, height / 2);
  return ((2 * e) / dx + 1) * ((2 * e) / dy + 1);
}

/** [m] Bounding radius of a body shape about its origin. */
export function boundingRadius(s: BodyShape): number {
  switch (s.type) {
    case 'box':
      return Math.hypot(s.halfExtents[0], s.halfExtents[1], s.halfExtents[2]);
    case 'sphere':
      return s.radius;
    case 'cylinder':
      return Math.hypot(s.radius, s.height / 2);
    case 'capsule':
      return s.radius + s.height / 2;
    case 'hull':
      return s.points.reduce((m, p) => Math.max(m, Math.hypot(p[0], p[1], p[2])), 0);
    case 'compound':
      return s.children.reduce((m, c) => Math.max(m, Math.hypot(c.position[0], c.position[1], c.position[2]) + boundingRadius(c.shape)), 0);
  }
}

/** Warnings fixed for a world (terrain resolution against the wheels: too coarse, too fine; the URDF robot's drive warnings). */
export function worldWarnings(w: WorldInfo): string[] {
  const { dx, dy } = w.terrain;
  const cell = Math.max(dx, dy);
  // one line per radius (per radius and width for "too fine"): a rover's four equal wheels give one warning
  const coarse = new Map<number, string[]>();
  const fine = new Map<string, { r: number; h: number; names: string[] }>();
  for (const b of w.bodies) {
    if (b.role !== 'wheel' || !b.wheel) continue;
    const { radius: r, height: h } = b.wheel;
    if (r / cell < WHEEL_MIN_CELLS) coarse.set(r, [...(coarse.get(r) ?? []), b.name]);
    else if (wheelFootprintCells(r, h, dx, dy) > WHEEL_MAX_FOOTPRINT_CELLS) {
      const key = `${r} ${h}`;
      const e = fine.get(key) ?? { r, h, names: [] };
      e.names.push(b.name);
      fine.set(key, e);
    }
  }
  const who = (names: string[]) => (names.length === 1 ? names[0] : `${names.length} wheels`);
  const out = [...coarse].map(([r, names]) =>
    `terrain too coarse for ${who(names)}: radius ${r.toFixed(3)} m is ${(r / cell).toFixed(1)} cells of ${cell.toFixed(3)} m (under ${WHEEL_MIN_CELLS}): contacts may jump between facets`);
  for (const { r, h, names } of fine.values()) {
    const n = wheelFootprintCells(r, h, dx, dy);
    const grid = dx === dy ? `${dx.toFixed(4)} m` : `${dx.toFixed(4)} × ${dy.toFixed(4)} m`;
    const cost = n > CYLINDER_TERRAIN_MAX_CELLS
      ? `the query visits only ${CYLINDER_TERRAIN_MAX_CELLS} of them and loses the contacts outside`
      : `contacts may be dropped (candidate buffer ${CYLINDER_TERRAIN_MAX_CANDIDATES}) and each query's time grows with the cells`;
    out.push(`terrain too fine for ${who(names)}: radius ${r.toFixed(3)} m covers up to ${Math.round(n)} cells of ${grid} (over ${WHEEL_MAX_FOOTPRINT_CELLS}): ${cost}`);
  }
  // the robot's own (a URDF's effort limits capping the wheel motors too low)
  for (const w2 of w.robotWarnings ?? []) out.push(w2);
  return out;
}

/** True if (x, y) lies over the terrain grid. */
export function onTerrain(t: TerrainInfo, x: number, y: number): boolean {
  return x >= t.x0 && y >= t.y0 && x <= t.x0 + (t.cols - 1) * t.dx && y <= t.y0 + (t.rows - 1) * t.dy;
}

/** Warnings of one frame: bodies moving more than their size per step, the base off the map. */
export function frameWarnings(w: WorldInfo, poses: Float32Array, velocities: Float32Array | undefined, sizes: readonly number[]): string[] {
  const out: string[] = [];
  if (velocities) {
    for (let b = 0; b < w.bodies.length; b++) {
      const q = VELOCITY_STRIDE * b;
      if (q + 2 >= velocities.length || w.bodies[b].role === 'static') continue;
      const step = Math.hypot(velocities[q], velocities[q + 1], velocities[q + 2]) * w.dt;
      const size = 2 * (sizes[b] ?? Infinity);
      // a body without a collision shape (size 0: a URDF link with mass but no <collision>) hits nothing
      if (size > 0 && step > size) out.push(`${w.bodies[b].name} moves ${step.toFixed(3)} m per step, more than its size (${size.toFixed(3)} m): it may pass through thin obstacles`);
    }
  }
  const base = w.baseBody;
  const o = POSE_STRIDE * base;
  if (base >= 0 && o + 1 < poses.length && !onTerrain(w.terrain, poses[o], poses[o + 1])) {
    out.push(`left the terrain at x ${poses[o].toFixed(2)}, y ${poses[o + 1].toFixed(2)} m`);
  }
  return out;
}

/** [m] The robot is warned of the map edge when its base is this close to it (or closer, see EDGE_WARN_S). */
export const EDGE_WARN_M = 2;
/** [s] ... or when, at its current speed, it would reach the edge within this time. */
export const EDGE_WARN_S = 3;

/**
 * The warning as the robot nears the map edge (where the world stops with a left-terrain fault),
 * or null: its base within EDGE_WARN_M of an edge, or within EDGE_WARN_S of it at `speed` [m/s].
 * Names the nearest edge and the distance. Off the map: null (frameWarnings says so).
 */
export function edgeWarning(t: TerrainInfo, x: number, y: number, speed: number): string | null {
  if (!onTerrain(t, x, y)) return null;
  const x1 = t.x0 + (t.cols - 1) * t.dx, y1 = t.y0 + (t.rows - 1) * t.dy;
  const edges: [string, number][] = [['x min', x - t.x0], ['x max', x1 - x], ['y min', y - t.y0], ['y max', y1 - y]];
  let name = '', d = Infinity;
  for (const [n, v] of edges) if (v < d) { d = v; name = n; }
  const reach = Math.max(EDGE_WARN_M, Math.abs(speed) * EDGE_WARN_S);
  if (!(d < reach)) return null;
  return `map edge (${name}) ${d.toFixed(1)} m away: the simulation stops with a fault if the robot leaves the map`;
}
