/**
 * Sweep and prune (Baraff 1992, "Dynamic simulation of non-penetrating rigid bodies", §5.2;
 * Cohen et al. 1995, I-COLLIDE): keep the proxies sorted by the lower x bound of their fat
 * boxes; two boxes can overlap only if their x intervals do, so one sweep over the sorted list,
 * testing y and z for each x-overlapping pair, finds every pair.
 *
 * A baseline for the benchmark and a second oracle for BroadPhase: it uses the same fattening
 * (margin and predictive displacement) and the same pair order (by proxy id), so for the same
 * calls both find the same body pairs (proxy ids differ: BroadPhase's are tree node indices). Why the tree is the default: SAP's sweep costs
 * O(n + pairs overlapping in x), and in a 3D scene with many bodies at similar x (a robot fleet
 * on a field) the x-overlaps vastly outnumber the real ones; its re-sort is cheap only when the
 * order changes little (insertion sort on nearly sorted data, coherent motion).
 *
 * Proxy ids come from a LIFO free list (deterministic); the sorted order after an insertion sort
 * is unique for distinct keys and ties are broken by proxy id, so pair output is deterministic.
 */

import { BROADPHASE_AABB_MARGIN, BROADPHASE_DISPLACEMENT_MULTIPLIER, TREE_MAX_NODES } from '../../constants';
import type { Vec3 } from '../../math/vec3';
import type { Aabb } from './aabb';
import { aabbIsValid } from './aabb';
import { pairKey, pairKeyA, pairKeyB } from '../pair-key';

/**
 * Sweep and prune over fattened AABBs: the baseline and second oracle for `BroadPhase` (same
 * fattening, same pair order).
 */
export class SweepAndPrune {
  readonly margin: number;
  /** Moves ignored because the box was not finite or inverted (the proxy kept its fat box). */
  rejectedMoves = 0;

  /** Fat box per proxy id: minX minY minZ maxX maxY maxZ. */
  private box = new Float64Array(6 * 64);
  private user = new Int32Array(64);
  private capacity = 64;
  private freeIds: number[] = [];
  private nextId = 0;
  private liveCount = 0;
  /** Live proxy ids sorted by (fat minX, id). */
  private order = new Int32Array(64);
  private pairs = new Float64Array(64);
  private pairTotal = 0;

  constructor(margin = BROADPHASE_AABB_MARGIN) {
    if (!(margin >= 0) || !Number.isFinite(margin)) throw new RangeError(`SweepAndPrune: margin must be finite and >= 0, got ${margin}`);
    this.margin = margin;
  }

  get proxyCount(): number {
    return this.liveCount;
  }

  get pairCount(): number {
    return this.pairTotal;
  }

  pairProxyA(i: number): number {
    return pairKeyA(this.pairs[i]);
  }

  pairProxyB(i: number): number {
    return pairKeyB(this.pairs[i]);
  }

  getUserData(proxy: number): number {
    return this.user[proxy];
  }

  getFatAabb(out: Aabb, proxy: number): Aabb {
    const o = proxy * 6;
    for (let k = 0; k < 3; k++) {
      out.min[k] = this.box[o + k];
      out.max[k] = this.box[o + 3 + k];
    }
    return out;
  }

  createProxy(a: Readonly<Aabb>, userData: number): number {
    if (!aabbIsValid(a)) throw new RangeError(`SweepAndPrune.createProxy: invalid box ${JSON.stringify(a)}`);
    const id = this.freeIds.length > 0 ? (this.freeIds.pop() as number) : this.nextId++;
    if (id >= TREE_MAX_NODES) throw new RangeError('SweepAndPrune: too many proxies');
    if (id >= this.capacity) this.grow(Math.max(id + 1, this.capacity * 2));
    this.writeFat(id, a, undefined);
    this.user[id] = userData;
    // Append; the next update's insertion sort moves it into place.
    this.order[this.liveCount++] = id;
    return id;
  }

  destroyProxy(proxy: number): void {
    let w = 0;
    for (let i = 0; i < this.liveCount; i++) {
      const id = this.order[i];
      if (id !== proxy) this.order[w++] = id;
    }
    this.liveCount = w;
    this.freeIds.push(proxy);
  }

  /** Same contract as BroadPhase.moveProxy (fat box kept while it contains `a`). */
  moveProxy(proxy: number, a: Readonly<Aabb>, displacement?: Readonly<Vec3>): boolean {
    const b = this.box;
    const o = proxy * 6;
    if (b[o] <= a.min[0] && b[o + 1] <= a.min[1] && b[o + 2] <= a.min[2] && a.max[0] <= b[o + 3] && a.max[1] <= b[o + 4] && a.max[2] <= b[o + 5]) {
      return false;
    }
    if (!aabbIsValid(a)) {
      this.rejectedMoves++;
      return false;
    }
    this.writeFat(proxy, a, displacement);
    return true;
  }

  /** Re-sort by fat minX (insertion sort: linear on nearly sorted input) and sweep. */
  updatePairs(): void {
    const b = this.box;
    const order = this.order;
    const n = this.liveCount;
    for (let i = 1; i < n; i++) {
      const id = order[i];
      const x = b[id * 6];
      let j = i - 1;
      while (j >= 0) {
        const other = order[j];
        const ox = b[other * 6];
        if (ox < x || (ox === x && other < id)) break;
        order[j + 1] = other;
        j--;
      }
      order[j + 1] = id;
    }
    let count = 0;
    for (let i = 0; i < n; i++) {
      const p = order[i];
      const o = p * 6;
      const maxX = b[o + 3];
      for (let j = i + 1; j < n; j++) {
        const q = order[j];
        const r = q * 6;
        if (b[r] > maxX) break;
        if (b[r + 1] > b[o + 4] || b[o + 1] > b[r + 4] || b[r + 2] > b[o + 5] || b[o + 2] > b[r + 5]) continue;
        if (count === this.pairs.length) {
          const grown = new Float64Array(count * 2);
          grown.set(this.pairs);
          this.pairs = grown;
        }
        this.pairs[count++] = pairKey(p, q);
      }
    }
    this.pairs.subarray(0, count).sort();
    this.pairTotal = count;
  }

  private writeFat(id: number, a: Readonly<Aabb>, displacement: Readonly<Vec3> | undefined): void {
    const b = this.box;
    const o = id * 6;
    const m = this.margin;
    for (let k = 0; k < 3; k++) {
      let lo = a.min[k] - m;
      let hi = a.max[k] + m;
      if (displacement !== undefined) {
        const d = BROADPHASE_DISPLACEMENT_MULTIPLIER * displacement[k];
        if (d < 0) lo += d;
        else if (d > 0) hi += d;
      }
      b[o + k] = lo;
      b[o + 3 + k] = hi;
    }
  }

  private grow(n: number): void {
    const box = new Float64Array(n * 6);
    box.set(this.box);
    this.box = box;
    const user = new Int32Array(n);
    user.set(this.user);
    this.user = user;
    const order = new Int32Array(n);
    order.set(this.order);
    this.order = order;
    this.capacity = n;
  }
}
