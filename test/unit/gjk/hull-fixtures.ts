/** Random convex hulls for GJK/EPA tests, built by the project's hull builder. */
import { Rng } from '../../../sim/math/random';
import { ConvexHullShape } from '../../../sim/shapes/convex-hull';
import { buildConvexHull, HullStatus } from '../../../sim/shapes/convex-hull-builder';

/** Hull of `n` points on an ellipsoid-ish blob of size `size` (all points end up as vertices). */
export function makeRandomHull(rng: Rng, n: number, size: number): ConvexHullShape {
  const pts: number[] = [];
  for (let i = 0; i < n; i++) {
    let x = rng.gaussian(), y = rng.gaussian(), z = rng.gaussian();
    const l = Math.hypot(x, y, z) || 1;
    x = (x / l) * size;
    y = (y / l) * size * 0.8;
    z = (z / l) * size * 0.6;
    pts.push(x, y, z);
  }
  const res = buildConvexHull(new Float64Array(pts));
  if (res.status !== HullStatus.Ok || res.data === null) throw new Error('fixture hull failed');
  return new ConvexHullShape(res.data);
}
