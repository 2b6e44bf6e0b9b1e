/**
 * Axis-aligned bounding boxes for the broad phase.
 *
 * An AABB is `{ min, max }` with `min[k] <= max[k]` on every axis k. Inside the dynamic tree the
 * boxes live in one flat Float64Array, six numbers per node, in this order:
 *
 *     offset:  0     1     2     3     4     5
 *             minX  minY  minZ  maxX  maxY  maxZ
 *
 * The helpers below work on that flat layout (`buf`, `o` = node index * 6) so the tree never
 * allocates a box per node.
 */

import type { Vec3 } from '../../math/vec3';

export interface Aabb {
  min: Vec3;
  max: Vec3;
}

export function aabb(minX = 0, minY = 0, minZ = 0, maxX = 0, maxY = 0, maxZ = 0): Aabb {
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ] };
}

/** Overlap test, closed intervals: boxes that touch on a face count as overlapping. */
export function aabbOverlaps(a: Readonly<Aabb>, b: Readonly<Aabb>): boolean {
  return (
    a.min[0] <= b.max[0] &&
    b.min[0] <= a.max[0] &&
    a.min[1] <= b.max[1] &&
    b.min[1] <= a.max[1] &&
    a.min[2] <= b.max[2] &&
    b.min[2] <= a.max[2]
  );
}

/** True when `outer` contains `inner` (closed). */
export function aabbContains(outer: Readonly<Aabb>, inner: Readonly<Aabb>): boolean {
  return (
    outer.min[0] <= inner.min[0] &&
    outer.min[1] <= inner.min[1] &&
    outer.min[2] <= inner.min[2] &&
    inner.max[0] <= outer.max[0] &&
    inner.max[1] <= outer.max[1] &&
    inner.max[2] <= outer.max[2]
  );
}

/** True when the box is finite and not inverted. */
export function aabbIsValid(a: Readonly<Aabb>): boolean {
  for (let k = 0; k < 3; k++) {
    const lo = a.min[k];
    const hi = a.max[k];
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > hi) return false;
  }
  return true;
}

/**
 * Half the surface area, the cost measure of the surface area heuristic (SAH): the chance
 * that a random ray or box hits a convex volume is proportional to its surface area
 * (Goldsmith & Salmon 1987; MacDonald & Booth 1990). The factor 2 cancels in every comparison.
 */
export function halfArea(dx: number, dy: number, dz: number): number {
  return dx * dy + dy * dz + dz * dx;
}
