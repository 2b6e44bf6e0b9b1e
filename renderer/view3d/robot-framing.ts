/**
 * What the chase camera frames: the robot's bodies (the base and every body joined to it, a
 * trailer included) and their bounding box each frame, its centre and bounding radius (body
 * positions grown by each body's bounding radius). Allocates nothing per frame.
 */
import { POSE_STRIDE } from '../../sim/dynamics/frame-layout';
import type { WorldInfo } from '../../sim/app/protocol';
import { boundingRadius } from '../../sim/app/warnings';

/** The bodies joined to `base` through joints (itself first), in breadth-first order; empty without a base. */
export function robotBodies(w: Pick<WorldInfo, 'baseBody' | 'bodies' | 'joints'>): number[] {
  if (w.baseBody < 0 || w.baseBody >= w.bodies.length) return [];
  const seen = new Set<number>([w.baseBody]);
  const out = [w.baseBody];
  for (let k = 0; k < out.length; k++) {
    for (const j of w.joints) {
      const other = j.bodyA === out[k] ? j.bodyB : j.bodyB === out[k] ? j.bodyA : -1;
      if (other >= 0 && other < w.bodies.length && !seen.has(other) && w.bodies[other].role !== 'static') {
        seen.add(other);
        out.push(other);
      }
    }
  }
  return out;
}

export class RobotFraming {
  private bodies = new Int32Array(0);
  private radii = new Float64Array(0);
  /** Centre of the robot's bounding box (sim frame) and its bounding radius [m], after `update`. */
  cx = 0;
  cy = 0;
  cz = 0;
  radius = 0;

  setWorld(w: Pick<WorldInfo, 'baseBody' | 'bodies' | 'joints'>): void {
    const b = robotBodies(w);
    this.bodies = Int32Array.from(b);
    this.radii = Float64Array.from(b.map((k) => boundingRadius(w.bodies[k].shape)));
  }

  /** Recomputes the box from `poses`; false when there is no robot of more than one body to frame. */
  update(poses: Float32Array): boolean {
    const n = this.bodies.length;
    if (n < 2) return false;
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let k = 0; k < n; k++) {
      const o = POSE_STRIDE * this.bodies[k], r = this.radii[k];
      if (o + 2 >= poses.length) return false;
      const x = poses[o], y = poses[o + 1], z = poses[o + 2];
      if (!Number.isFinite(x + y + z)) return false;
      if (x - r < x0) x0 = x - r;
      if (y - r < y0) y0 = y - r;
      if (z - r < z0) z0 = z - r;
      if (x + r > x1) x1 = x + r;
      if (y + r > y1) y1 = y + r;
      if (z + r > z1) z1 = z + r;
    }
    this.cx = (x0 + x1) / 2;
    this.cy = (y0 + y1) / 2;
    this.cz = (z0 + z1) / 2;
    this.radius = Math.hypot(x1 - x0, y1 - y0, z1 - z0) / 2;
    return true;
  }
}
