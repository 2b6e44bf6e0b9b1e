/**
 * Reduces the contacts [start, buf.count) of one normal group to at most MANIFOLD_MAX_POINTS,
 * in place, following stage 4 of Strashnov & Torgashev (seed 002) and the area heuristic of
 * Box3D's b3CullPoints / Jolt's PruneContactPoints:
 *
 *   1. the deepest point (it carries the largest correction; ties within MANIFOLD_DEPTH_TIE go
 *      to the point farthest from the centroid),
 *   2. the point farthest from it (spans the manifold along its longest direction),
 *   3. the point farthest from the line through the first two (gives the manifold width);
 *      if even that point is collinear (|P1P2 × P1P3| < ε|P1P2|²) keep only the first two,
 *   4. the point that adds the most area: the one farthest OUTSIDE the triangle 1-2-3, measured
 *      by the most negative signed area against the triangle's edges (a point inside the
 *      triangle adds nothing).
 *
 * The kept contacts are moved to slots start..start+k−1 keeping their original order, so feature
 * ids and kinds travel with them. Returns the new number of contacts in the group.
 */
import {
  MANIFOLD_COLLINEAR_RELATIVE,
  MANIFOLD_DEPTH_TIE,
  MANIFOLD_MAX_POINTS,
} from '../../constants';
import type { ContactBuffer } from '../contact';

const chosen = new Int32Array(MANIFOLD_MAX_POINTS);

export function reduceContacts(buf: ContactBuffer, start: number): number {
  const n = buf.count - start;
  if (n <= MANIFOLD_MAX_POINTS) return n;
  const p = buf.point;
  const end = buf.count;

  // 1. deepest; among points within MANIFOLD_DEPTH_TIE of it (a flat face resting on a flat
  // face: all equally deep), the one farthest from the centroid, so the manifold starts from an
  // extreme point (a corner), not from a clip point in the middle of an edge.
  let maxDepth = -Infinity;
  let gx = 0, gy = 0, gz = 0;
  for (let k = start; k < end; k++) {
    if (buf.depth[k] > maxDepth) maxDepth = buf.depth[k];
    gx += p[3 * k];
    gy += p[3 * k + 1];
    gz += p[3 * k + 2];
  }
  gx /= n;
  gy /= n;
  gz /= n;
  let i1 = start;
  let far = -1;
  for (let k = start; k < end; k++) {
    if (buf.depth[k] < maxDepth - MANIFOLD_DEPTH_TIE) continue;
    const dx = p[3 * k] - gx, dy = p[3 * k + 1] - gy, dz = p[3 * k + 2] - gz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > far) {
      far = d2;
      i1 = k;
    }
  }
  const x1 = p[3 * i1], y1 = p[3 * i1 + 1], z1 = p[3 * i1 + 2];

  // 2. farthest from 1
  let i2 = -1;
  let best = -1;
  for (let k = start; k < end; k++) {
    if (k === i1) continue;
    const dx = p[3 * k] - x1, dy = p[3 * k + 1] - y1, dz = p[3 * k + 2] - z1;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > best) {
      best = d2;
      i2 = k;
    }
  }
  const ex = p[3 * i2] - x1, ey = p[3 * i2 + 1] - y1, ez = p[3 * i2 + 2] - z1;
  const e2 = ex * ex + ey * ey + ez * ez;

  // 3. farthest from the line 1–2: maximise |e × (P − P1)|² (twice the triangle area, squared)
  let i3 = -1;
  best = -1;
  let tnx = 0, tny = 0, tnz = 0; // triangle normal (unnormalised) of the best candidate
  for (let k = start; k < end; k++) {
    if (k === i1 || k === i2) continue;
    const fx = p[3 * k] - x1, fy = p[3 * k + 1] - y1, fz = p[3 * k + 2] - z1;
    const cx = ey * fz - ez * fy, cy = ez * fx - ex * fz, cz = ex * fy - ey * fx;
    const a2 = cx * cx + cy * cy + cz * cz;
    if (a2 > best) {
      best = a2;
      i3 = k;
      tnx = cx;
      tny = cy;
      tnz = cz;
    }
  }
  let kept: number;
  if (!(best > MANIFOLD_COLLINEAR_RELATIVE * MANIFOLD_COLLINEAR_RELATIVE * e2 * e2)) {
    // Line contact (edge resting on a face, capsule side): the two extremes carry it.
    chosen[0] = i1;
    chosen[1] = i2;
    kept = 2;
  } else {
    // 4. the point farthest outside triangle (1, 2, 3), seen along the triangle normal.
    let i4 = -1;
    let most = 0;
    for (let k = start; k < end; k++) {
      if (k === i1 || k === i2 || k === i3) continue;
      const px = p[3 * k], py = p[3 * k + 1], pz = p[3 * k + 2];
      let worst = Infinity;
      for (let e = 0; e < 3; e++) {
        const ia = e === 0 ? i1 : e === 1 ? i2 : i3;
        const ib = e === 0 ? i2 : e === 1 ? i3 : i1;
        const ax = p[3 * ia], ay = p[3 * ia + 1], az = p[3 * ia + 2];
        const bx = p[3 * ib] - ax, by = p[3 * ib + 1] - ay, bz = p[3 * ib + 2] - az;
        const qx = px - ax, qy = py - ay, qz = pz - az;
        // signed doubled area of (a, b, P) along the triangle normal: < 0 when P is outside edge ab
        const s = (by * qz - bz * qy) * tnx + (bz * qx - bx * qz) * tny + (bx * qy - by * qx) * tnz;
        if (s < worst) worst = s;
      }
      if (-worst > most) {
        most = -worst;
        i4 = k;
      }
    }
    chosen[0] = i1;
    chosen[1] = i2;
    chosen[2] = i3;
    kept = 3;
    if (i4 >= 0) chosen[kept++] = i4;
  }

  // Sort the chosen slots ascending; moving them down in that order never overwrites a
  // chosen slot that has not moved yet (target start+k ≤ chosen[k] < chosen[k+1]).
  for (let a = 1; a < kept; a++) {
    const v = chosen[a];
    let b = a - 1;
    while (b >= 0 && chosen[b] > v) {
      chosen[b + 1] = chosen[b];
      b--;
    }
    chosen[b + 1] = v;
  }
  for (let k = 0; k < kept; k++) buf.move(start + k, chosen[k]);
  buf.count = start + kept;
  return kept;
}
