/**
 * The exact flat-patch path (Strashnov & Torgashev 2020, §III step 5; cylinder–plane after
 * their ref. [17]): when every height over the cylinder's cell range is the same, the terrain
 * there IS the plane z = H and the cylinder–plane contact is computed in closed form, with no
 * per-element work and no seams at all — the common case of a wheel on a flat floor.
 *
 * With the plane frame of frame.ts (n = +z):
 *   s(A_L) ≤ 0                  no contact;
 *   s(A_U) > 0 (and not upright) side line: the two ends A_L', A_U' of the lowest line (the
 *                               far one trimmed where its foot leaves the cylinder, as in case B);
 *   s(B_L) > 0                  base: the rim's extreme points A_L, B_L, D± — the exact support
 *                               polygon corners of the tilted base (depths s(C_L) ± r·sinθ, s(C_L));
 *   otherwise                   one rim point: A_L'.
 * Points are the feet on the plane (on the terrain surface), kind 'flat'. Feet outside the grid
 * are dropped (there is no terrain there).
 */
import { CYLINDER_TERRAIN_PARALLEL_SIN } from '../../constants';
import type { ContactBuffer } from '../contact';
import { WheelContactKind } from '../contact';
import type { Heightfield } from '../../terrain/heightfield';
import type { CylinderQuery, ElementFrame } from './frame';
import { setHorizontalFrame } from './frame';

function pushFoot(out: ContactBuffer, hf: Heightfield, x: number, y: number, z: number, depth: number): number {
  const fx = (x - hf.x0) / hf.dx, fy = (y - hf.y0) / hf.dy;
  if (!(fx >= 0 && fy >= 0 && fx <= hf.cellsX && fy <= hf.cellsY)) return 0;
  let i = Math.floor(fx), j = Math.floor(fy);
  if (i >= hf.cellsX) i = hf.cellsX - 1;
  if (j >= hf.cellsY) j = hf.cellsY - 1;
  return out.push(x, y, z, 0, 0, 1, depth, WheelContactKind.FlatPatch, i, j) >= 0 ? 0 : 1;
}

/** Contacts of the cylinder with the horizontal plane z = height. Returns the number that did not fit. */
export function flatPatchContacts(out: ContactBuffer, hf: Heightfield, q: CylinderQuery, f: ElementFrame, height: number): number {
  const sAL = setHorizontalFrame(f, q, height);
  if (!(sAL > 0)) return 0;
  const r = q.r;
  const alx = f.clx + r * f.wx, aly = f.cly + r * f.wy;
  let lost = 0;
  if (f.sAU > 0 && f.sin > CYLINDER_TERRAIN_PARALLEL_SIN) {
    // The far end stops where its foot leaves the cylinder (as in case B: the foot rises
    // s·cosθ along the axis and may pass the upper base plane when the wheel is cambered).
    const h2 = 2 * q.hh;
    let t = (h2 - sAL * f.cos) / (h2 * f.sin * f.sin);
    if (!(t < 1)) t = 1;
    const l = h2 * t;
    lost += pushFoot(out, hf, alx, aly, height, sAL);
    lost += pushFoot(out, hf, alx + l * f.ax, aly + l * f.ay, height, sAL + t * (f.sAU - sAL));
    return lost;
  }
  if (f.sBL > 0) {
    const sCL = f.sCL, rs = r * f.sin;
    lost += pushFoot(out, hf, alx, aly, height, sCL + rs);
    lost += pushFoot(out, hf, f.clx - r * f.wx, f.cly - r * f.wy, height, sCL - rs);
    lost += pushFoot(out, hf, f.clx + r * f.ux, f.cly + r * f.uy, height, sCL);
    lost += pushFoot(out, hf, f.clx - r * f.ux, f.cly - r * f.uy, height, sCL);
    return lost;
  }
  return pushFoot(out, hf, alx, aly, height, sAL);
}
