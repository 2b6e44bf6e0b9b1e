/**
 * The witness part shared by the GJK, EPA and cast results: a unit normal and a point on each
 * shape. Degenerate exits reset it to a defined value (zero points, +z normal) so no caller
 * ever reads stale or NaN witnesses.
 */
import type { Vec3 } from '../math/vec3';

export interface Witness {
  normal: Vec3;
  pointA: Vec3;
  pointB: Vec3;
}

/** Zero witness points and the +z normal. */
export function clearWitness(out: Witness): void {
  for (let k = 0; k < 3; k++) {
    out.normal[k] = 0;
    out.pointA[k] = 0;
    out.pointB[k] = 0;
  }
  out.normal[2] = 1;
}
