/**
 * Body broad phase: fattened AABBs in a dynamic tree, and the list of proxy pairs whose fat
 * boxes overlap, in a deterministic order.
 *
 * Why fattened boxes (Box2D's b2BroadPhase, Jolt's "expanded" bounds): a body that moves a
 * little each step stays inside its fat box, so its tree leaf is left alone and its pairs are
 * not recomputed. Only when the tight box leaves the fat box is the leaf re-inserted (with a new
 * fat box) and the proxy marked dirty.
 *
 * Pair update, per call to updatePairs():
 *   1. keep every old pair whose two proxies are both clean: neither fat box changed, so their
 *      overlap did not change either;
 *   2. for every dirty live proxy m, query the tree with m's fat box; for a hit o emit (m, o)
 *      unless o is also dirty and o < m (then the query of o emits it: each pair once);
 *   3. sort the new pairs and merge them with the kept ones (both sorted, and disjoint because
 *      a new pair has a dirty end and a kept pair has none).
 * The result is exactly the set of proxy pairs whose fat boxes overlap (closed intervals), the
 * brute-force O(n²) answer, sorted by (smaller proxy id, larger proxy id). Proxy ids come from
 * the tree's LIFO free list, so the same sequence of calls gives the same ids and the same
 * pair order on every run and every JS engine.
 *
 * Pairs are packed into one float64 key (collision/pair-key.ts: a * 2^26 + b, a < b < 2^26), exact
 * below 2^52, so one numeric typed-array sort orders them.
 *
 * Use from a world step:
 *   on body add     id = bp.createProxy(worldAabbOfShape, bodyIndex)
 *   every step      bp.moveProxy(id, worldAabbOfShape, velocity · dt)   (for each moved body)
 *                   bp.updatePairs()
 *                   for i < bp.pairCount: narrow phase on
 *                     bp.getUserData(bp.pairProxyA(i)), bp.getUserData(bp.pairProxyB(i))
 *   on body remove  bp.destroyProxy(id)
 * Because both the previous and the current list are sorted, a world can find the pairs that
 * began or ended this step (to create or drop persistent manifolds) with one linear merge.
 * Queries: queryAabb (fat boxes overlapping a box), rayCast (fat boxes along a segment).
 */

import { BROADPHASE_AABB_MARGIN, BROADPHASE_DISPLACEMENT_MULTIPLIER } from '../../constants';
import type { Vec3 } from '../../math/vec3';
import type { Aabb } from './aabb';
import { aabb, aabbIsValid } from './aabb';
import { pairKey, pairKeyA, pairKeyB } from '../pair-key';
import { DynamicTree, NodeList, NULL_NODE } from './dynamic-tree';
import type { TreeRayVisitor } from './dynamic-tree';
import { sortPrefix } from '../../math/sort-prefix';

/**
 * The body broad phase: fattened AABBs in a dynamic tree, and the overlapping proxy pairs in a
 * deterministic order.
 */
export class BroadPhase {
  readonly tree: DynamicTree;
  /** [m] Fattening margin on every side. */
  readonly margin: number;

  /** Sorted pair keys (a * 2^26 + b, a < b); first `pairCount` entries are valid. */
  private pairs: Float64Array;
  private pairTotal = 0;
  private scratchPairs: Float64Array;
  private newPairs: Float64Array;

  /** Per node index: 1 when the proxy was created, moved or destroyed since the last update. */
  private dirty: Uint8Array;
  /** Live proxies to re-query at the next update (each listed once). */
  private readonly moved = new NodeList();
  private readonly hits = new NodeList();
  /** The fattened box of the proxy being created or moved (fatten's output). */
  private readonly fat: Aabb = aabb();

  constructor(margin = BROADPHASE_AABB_MARGIN) {
    if (!(margin >= 0) || !Number.isFinite(margin)) throw new RangeError(`BroadPhase: margin must be finite and >= 0, got ${margin}`);
    this.margin = margin;
    this.tree = new DynamicTree();
    this.pairs = new Float64Array(64);
    this.scratchPairs = new Float64Array(64);
    this.newPairs = new Float64Array(64);
    this.dirty = new Uint8Array(64);
  }

  /** Number of live proxies. */
  get proxyCount(): number {
    return this.tree.leafCount;
  }

  /** Number of overlapping pairs found by the last updatePairs(). */
  get pairCount(): number {
    return this.pairTotal;
  }

  /** Smaller proxy id of pair i (0 <= i < pairCount). */
  pairProxyA(i: number): number {
    return pairKeyA(this.pairs[i]);
  }

  /** Larger proxy id of pair i. */
  pairProxyB(i: number): number {
    return pairKeyB(this.pairs[i]);
  }

  getUserData(proxy: number): number {
    return this.tree.getUserData(proxy);
  }

  /** The fat box stored in the tree for `proxy`. */
  getFatAabb(out: Aabb, proxy: number): Aabb {
    return this.tree.getAabb(out, proxy);
  }

  /**
   * Moves ignored because the box was not finite or inverted (min > max): the proxy kept its old
   * fat box. The caller (the world) reports it; a NaN body must not corrupt the tree.
   */
  rejectedMoves = 0;

  /** Add a proxy for a body with tight box `a`; returns its proxy id. Throws RangeError for a non-finite or inverted box. */
  createProxy(a: Readonly<Aabb>, userData: number): number {
    if (!aabbIsValid(a)) throw new RangeError(`BroadPhase.createProxy: invalid box ${JSON.stringify(a)}`);
    this.fatten(a);
    const id = this.tree.createLeaf(this.fat, userData);
    this.markDirty(id);
    return id;
  }

  destroyProxy(proxy: number): void {
    this.tree.destroyLeaf(proxy);
    // Dirty drops the proxy's old pairs; it is skipped by the re-query because it is no leaf.
    this.markDirty(proxy);
  }

  /**
   * Tell the broad phase the body's tight box is now `a`. Returns true when the box left its fat
   * box and the proxy was re-inserted (its pairs will be recomputed), false when nothing changed
   * (or the box was invalid: see rejectedMoves).
   *
   * `displacement` [m], optional: how far the body moved this step. A re-inserted fat box is then
   * also stretched by BROADPHASE_DISPLACEMENT_MULTIPLIER × displacement on the side the body is
   * heading (Box2D v2's predictive AABB), so a body in steady motion stays inside it for several
   * steps instead of re-inserting every time it crosses the margin.
   */
  moveProxy(proxy: number, a: Readonly<Aabb>, displacement?: Readonly<Vec3>): boolean {
    if (this.tree.leafContains(proxy, a)) return false;
    // NaN fails every comparison above, so only here do invalid boxes cost a check.
    if (!aabbIsValid(a)) {
      this.rejectedMoves++;
      return false;
    }
    this.fatten(a);
    if (displacement !== undefined) {
      for (let k = 0; k < 3; k++) {
        const d = BROADPHASE_DISPLACEMENT_MULTIPLIER * displacement[k];
        // A non-finite displacement is ignored rather than poisoning the tree with NaN.
        if (d < 0) this.fat.min[k] += d;
        else if (d > 0) this.fat.max[k] += d;
      }
    }
    this.tree.moveLeaf(proxy, this.fat);
    this.markDirty(proxy);
    return true;
  }

  /** Append to `out` every proxy whose fat box overlaps `a` (closed). */
  queryAabb(a: Readonly<Aabb>, out: NodeList): void {
    this.tree.queryAabb(a, out);
  }

  /** Ray cast over the fat boxes (see DynamicTree.rayCast); the visitor gets proxy ids. */
  rayCast(origin: Readonly<Vec3>, dir: Readonly<Vec3>, maxT: number, visitor: TreeRayVisitor): void {
    this.tree.rayCast(origin, dir, maxT, visitor);
  }

  /** Recompute the pair list (see the file header). */
  updatePairs(): void {
    const tree = this.tree;
    const dirty = this.dirty;

    // 1. Keep pairs with two clean ends (compacting in place keeps them sorted).
    const pairs = this.pairs;
    let kept = 0;
    for (let i = 0; i < this.pairTotal; i++) {
      const k = pairs[i];
      const a = pairKeyA(k);
      const b = pairKeyB(k);
      if (dirty[a] === 0 && dirty[b] === 0) pairs[kept++] = k;
    }

    // 2. Re-query dirty live proxies.
    let fresh = 0;
    const moved = this.moved;
    const hits = this.hits;
    for (let i = 0; i < moved.count; i++) {
      const m = moved.items[i];
      // A proxy destroyed after being moved (or a node index reused as an internal node) is skipped.
      if (!this.isLiveLeaf(m)) continue;
      hits.clear();
      tree.queryNode(m, hits);
      for (let j = 0; j < hits.count; j++) {
        const o = hits.items[j];
        if (o === m) continue;
        if (dirty[o] !== 0 && o < m) continue;
        const key = pairKey(m, o);
        if (fresh === this.newPairs.length) this.newPairs = growF64(this.newPairs, fresh * 2);
        this.newPairs[fresh++] = key;
      }
    }
    // Sorted in place: a subarray view (the typed array's sort takes no range) is an allocation
    // per step (the same ascending order).
    const sortedNew = this.newPairs;
    sortPrefix(sortedNew, fresh);

    // 3. Merge kept (pairs[0..kept)) and new into scratch, then swap buffers.
    const total = kept + fresh;
    if (this.scratchPairs.length < total) this.scratchPairs = new Float64Array(Math.max(total, this.scratchPairs.length * 2));
    const out = this.scratchPairs;
    let i = 0;
    let j = 0;
    let w = 0;
    while (i < kept && j < fresh) {
      const x = pairs[i];
      const y = sortedNew[j];
      if (x < y) {
        out[w++] = x;
        i++;
      } else {
        out[w++] = y;
        j++;
      }
    }
    while (i < kept) out[w++] = pairs[i++];
    while (j < fresh) out[w++] = sortedNew[j++];
    this.scratchPairs = pairs;
    this.pairs = out;
    this.pairTotal = total;

    // 4. Clear dirty marks.
    for (let k = 0; k < moved.count; k++) dirty[moved.items[k]] = 0;
    moved.clear();
  }

  // --- internals ------------------------------------------------------------------------------

  private fatten(a: Readonly<Aabb>): void {
    const m = this.margin;
    const fat = this.fat;
    fat.min[0] = a.min[0] - m;
    fat.min[1] = a.min[1] - m;
    fat.min[2] = a.min[2] - m;
    fat.max[0] = a.max[0] + m;
    fat.max[1] = a.max[1] + m;
    fat.max[2] = a.max[2] + m;
  }

  private markDirty(node: number): void {
    if (node >= this.dirty.length) {
      const grown = new Uint8Array(Math.max(node + 1, this.dirty.length * 2));
      grown.set(this.dirty);
      this.dirty = grown;
    }
    if (this.dirty[node] === 0) {
      this.dirty[node] = 1;
      this.moved.push(node);
    }
  }

  private isLiveLeaf(node: number): boolean {
    const t = this.tree;
    return t.getNodeHeight(node) === 0 && (t.getParent(node) !== NULL_NODE || t.root === node);
  }
}

function growF64(a: Float64Array, n: number): Float64Array {
  const g = new Float64Array(n);
  g.set(a);
  return g;
}
