/**
 * Persistent contact manifold of one body pair: the contact points of the last step with the
 * impulses the solver accumulated on them, matched to this step's fresh contacts so the solver
 * can warm start (Box2D v3 b2UpdateContact's id matching; Bullet's btPersistentManifold
 * proximity matching as the fallback).
 *
 * Matching, per new contact, first hit wins, each old point used at most once:
 *   1. same feature id (feature-id.ts: the same reference face, incident face and clip
 *      features) and a normal within MANIFOLD_GROUP_COS of the old one;
 *   2. otherwise the nearest unused old point closer than PERSISTENT_MATCH_DISTANCE with such a
 *      normal (ids change when the reference face flips between bodies while the point stays).
 * Matched points inherit normal and tangent impulses; new points start from zero. Old points
 * not matched are dropped (their impulse would push where nothing touches any more).
 *
 * Fixed capacity MANIFOLD_MAX_POINTS; `update` takes the first MANIFOLD_MAX_POINTS contacts of
 * the range it is given (callers reduce first) and reports how many it dropped.
 */
import {
  MANIFOLD_MAX_POINTS,
  MANIFOLD_GROUP_COS,
  PERSISTENT_MATCH_DISTANCE,
} from '../../constants';
import type { ContactBuffer } from '../contact';

/**
 * The contact points of one body pair kept from step to step with their impulses, matched to each
 * step's new contacts for warm starting.
 */
export class PersistentManifold {
  count = 0;
  /** World contact points (on B), xyz interleaved. */
  readonly point = new Float64Array(MANIFOLD_MAX_POINTS * 3);
  /** Unit normals (from B into A), xyz interleaved. */
  readonly normal = new Float64Array(MANIFOLD_MAX_POINTS * 3);
  /** [m] Depth along the normal (negative: speculative gap). */
  readonly depth = new Float64Array(MANIFOLD_MAX_POINTS);
  readonly feature = new Uint32Array(MANIFOLD_MAX_POINTS);
  readonly kind = new Uint8Array(MANIFOLD_MAX_POINTS);
  /** [N·s] Accumulated normal impulse (the solver writes it back after each step). */
  readonly normalImpulse = new Float64Array(MANIFOLD_MAX_POINTS);
  /** [N·s] Accumulated friction impulses along the solver's two tangents. */
  readonly tangentImpulse = new Float64Array(MANIFOLD_MAX_POINTS * 2);
  /** 1 where the point was matched to last step's (its impulses are warm-start values). */
  readonly persisted = new Uint8Array(MANIFOLD_MAX_POINTS);

  /**
   * update's scratch (each manifold its own, so two worlds or pairs never share it): the old
   * points already matched, and what each new point inherits before the points are replaced.
   */
  private readonly usedOld = new Uint8Array(MANIFOLD_MAX_POINTS);
  private readonly inheritN = new Float64Array(MANIFOLD_MAX_POINTS);
  private readonly inheritT = new Float64Array(MANIFOLD_MAX_POINTS * 2);
  private readonly inheritFlag = new Uint8Array(MANIFOLD_MAX_POINTS);

  clear(): void {
    this.count = 0;
  }

  /**
   * Replaces the points with contacts [start, end) of `buf`, carrying impulses over from
   * matched old points. Returns the number of new contacts dropped for capacity (0 normally).
   */
  update(buf: ContactBuffer, start: number, end: number): number {
    const total = end - start;
    const n = total < MANIFOLD_MAX_POINTS ? total : MANIFOLD_MAX_POINTS;
    const oldCount = this.count;
    const usedOld = this.usedOld, inheritN = this.inheritN, inheritT = this.inheritT, inheritFlag = this.inheritFlag;
    usedOld.fill(0);
    const maxD2 = PERSISTENT_MATCH_DISTANCE * PERSISTENT_MATCH_DISTANCE;
    for (let k = 0; k < n; k++) {
      const s = start + k;
      const f = buf.feature[s];
      const px = buf.point[3 * s], py = buf.point[3 * s + 1], pz = buf.point[3 * s + 2];
      const nx = buf.normal[3 * s], ny = buf.normal[3 * s + 1], nz = buf.normal[3 * s + 2];
      let match = -1;
      let bestD2 = maxD2;
      for (let i = 0; i < oldCount; i++) {
        if (usedOld[i]) continue;
        const cn = this.normal[3 * i] * nx + this.normal[3 * i + 1] * ny + this.normal[3 * i + 2] * nz;
        if (cn < MANIFOLD_GROUP_COS) continue;
        if (this.feature[i] === f && f !== 0) {
          match = i;
          break;
        }
        const dx = this.point[3 * i] - px, dy = this.point[3 * i + 1] - py, dz = this.point[3 * i + 2] - pz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < bestD2) {
          bestD2 = d2;
          match = i;
        }
      }
      if (match >= 0) {
        usedOld[match] = 1;
        inheritFlag[k] = 1;
        inheritN[k] = this.normalImpulse[match];
        inheritT[2 * k] = this.tangentImpulse[2 * match];
        inheritT[2 * k + 1] = this.tangentImpulse[2 * match + 1];
      } else {
        inheritFlag[k] = 0;
        inheritN[k] = 0;
        inheritT[2 * k] = 0;
        inheritT[2 * k + 1] = 0;
      }
    }
    for (let k = 0; k < n; k++) {
      const s = start + k;
      for (let a = 0; a < 3; a++) {
        this.point[3 * k + a] = buf.point[3 * s + a];
        this.normal[3 * k + a] = buf.normal[3 * s + a];
      }
      this.depth[k] = buf.depth[s];
      this.feature[k] = buf.feature[s];
      this.kind[k] = buf.kind[s];
      this.normalImpulse[k] = inheritN[k];
      this.tangentImpulse[2 * k] = inheritT[2 * k];
      this.tangentImpulse[2 * k + 1] = inheritT[2 * k + 1];
      this.persisted[k] = inheritFlag[k];
    }
    this.count = n;
    return total - n;
  }
}
