/**
 * Dynamic AABB tree: a binary bounding-volume hierarchy that is updated incrementally as boxes
 * are inserted, moved and removed, the broad-phase structure of Box2D, Box3D and Jolt.
 *
 * References (ideas only; the code is ours):
 * - Goldsmith & Salmon (1987), "Automatic creation of object hierarchies for ray tracing":
 *   incremental insertion guided by surface area.
 * - Bittner, Hapala & Havran (2013), "Fast insertion-based optimization of bounding volume
 *   hierarchies", Sec. 3: branch-and-bound search for the sibling that minimises the SAH cost
 *   ("direct cost" of the new parent + "induced cost" of enlarging every ancestor).
 * - Kopta et al. (2012), "Fast, effective BVH updates for animated scenes": local tree rotations
 *   that swap a child with a grandchild when that shrinks the surface area (used by Box2D v3's
 *   b2RotateNodes).
 *
 * Storage is struct-of-arrays over node indices, so nothing is allocated per insert or query:
 *
 *     node i:  box[6i .. 6i+5] = minX minY minZ maxX maxY maxZ
 *              parent[i]        parent node, or NULL_NODE at the root; next free node when free
 *              child1[i], child2[i]   NULL_NODE for a leaf
 *              height[i]        0 for a leaf, 1 + max(child heights) inside, FREE_HEIGHT when free
 *              user[i]          caller's integer tag (leaves only)
 *
 *            A            after inserting leaf L next to sibling S:       A
 *           / \                                                          / \
 *          S   .                                                        P   .
 *                                                                      / \
 *                                                                     S   L
 *
 * A leaf keeps its node index for its whole life (moving re-inserts the same node), so the
 * index doubles as the proxy handle the broad phase gives out. Node indices are handed out
 * from a LIFO free list, so the same sequence of calls yields the same indices and the same
 * tree shape: the tree is deterministic.
 *
 * The consistency check (validateTree) and the SAH quality metric (treeAreaRatio) live in
 * dynamic-tree-check.ts and read the tree through the public accessors below.
 */

import { TREE_INITIAL_NODE_CAPACITY, TREE_MAX_NODES } from '../../constants';
import { halfArea } from './aabb';
import type { Aabb } from './aabb';
import type { NodeList } from './node-list';
import type { Vec3 } from '../../math/vec3';

/** The node index that means "no node". */
export const NULL_NODE = -1;

/** The list the queries write into, re-exported so existing `from './dynamic-tree'` imports keep working. */
export { NodeList } from './node-list';

/** Receives the leaves a ray cast reaches (see DynamicTree.rayCast). */
export interface TreeRayVisitor {
  /** Returns the new maxT: unchanged to continue, smaller to clip, 0 to stop. */
  hit(leaf: number, maxT: number): number;
}
const FREE_HEIGHT = -1;

/**
 * A dynamic AABB tree (surface-area heuristic insertion, rotations): leaves hold proxies, queries
 * by box and ray.
 */
export class DynamicTree {
  /** Root node index, NULL_NODE when empty. */
  root = NULL_NODE;

  private capacity: number;
  private box: Float64Array;
  /**
   * Slot 0: the half area written by nodeArea / unionArea (a double returned from a call V8 does not
   * inline is boxed: an allocation; through this array there is none).
   */
  private readonly area = new Float64Array(1);
  private parent: Int32Array;
  private child1: Int32Array;
  private child2: Int32Array;
  private height: Int32Array;
  private user: Int32Array;
  private freeList = NULL_NODE;
  private allocated = 0;
  private leaves = 0;
  /** DFS stack for queries; its depth never exceeds the tree height + 1, grown on demand. */
  private stack: Int32Array;

  constructor(initialCapacity = TREE_INITIAL_NODE_CAPACITY) {
    this.capacity = 0;
    this.box = new Float64Array(0);
    this.parent = new Int32Array(0);
    this.child1 = new Int32Array(0);
    this.child2 = new Int32Array(0);
    this.height = new Int32Array(0);
    this.user = new Int32Array(0);
    this.stack = new Int32Array(64);
    this.grow(Math.max(2, initialCapacity));
  }

  /** Number of leaves (proxies) in the tree. */
  get leafCount(): number {
    return this.leaves;
  }

  /** Number of nodes in use (leaves + internal nodes = 2 * leaves - 1 when not empty). */
  get nodeCount(): number {
    return this.allocated;
  }

  /** Height of the root (0 for a single leaf, -1 when empty). */
  getHeight(): number {
    return this.root === NULL_NODE ? -1 : this.height[this.root];
  }

  isLeaf(node: number): boolean {
    return this.child1[node] === NULL_NODE;
  }

  getUserData(leaf: number): number {
    return this.user[leaf];
  }

  getParent(node: number): number {
    return this.parent[node];
  }

  getChild1(node: number): number {
    return this.child1[node];
  }

  getChild2(node: number): number {
    return this.child2[node];
  }

  getNodeHeight(node: number): number {
    return this.height[node];
  }

  /** Number of node slots, in use or free (nodeCount + the length of the free list). */
  get nodeCapacity(): number {
    return this.capacity;
  }

  /** True when node slot `node` is on the free list (not part of the tree). */
  isFree(node: number): boolean {
    return this.height[node] === FREE_HEIGHT;
  }

  /**
   * First node of the free list (the next index createLeaf or an insertion will use), NULL_NODE
   * when every slot is in use. With getNextFree, a read-only view of the free list for
   * consistency checks (dynamic-tree-check.ts); the tree alone changes it.
   */
  get freeListHead(): number {
    return this.freeList;
  }

  /**
   * The free node after `node` on the free list, NULL_NODE at its end. Only meaningful when
   * isFree(node): a free node keeps its link in the parent slot, so for a node in use this
   * returns its parent.
   */
  getNextFree(node: number): number {
    return this.parent[node];
  }

  /** Copy node `node`'s box into `out`. */
  getAabb(out: Aabb, node: number): Aabb {
    const b = this.box;
    const o = node * 6;
    out.min[0] = b[o];
    out.min[1] = b[o + 1];
    out.min[2] = b[o + 2];
    out.max[0] = b[o + 3];
    out.max[1] = b[o + 4];
    out.max[2] = b[o + 5];
    return out;
  }

  /** Insert a leaf with the given box; returns its node index (stable until destroyLeaf). */
  createLeaf(a: Readonly<Aabb>, userData: number): number {
    const leaf = this.allocNode();
    this.writeBox(leaf, a);
    this.user[leaf] = userData;
    this.height[leaf] = 0;
    this.leaves++;
    this.insertLeaf(leaf);
    return leaf;
  }

  destroyLeaf(leaf: number): void {
    this.removeLeaf(leaf);
    this.leaves--;
    this.freeNode(leaf);
  }

  /** Give a leaf a new box: detach it, then re-insert it where the SAH now wants it. */
  moveLeaf(leaf: number, a: Readonly<Aabb>): void {
    this.removeLeaf(leaf);
    this.writeBox(leaf, a);
    this.insertLeaf(leaf);
  }

  /** True when the leaf's stored box contains `a` (closed). */
  leafContains(leaf: number, a: Readonly<Aabb>): boolean {
    const b = this.box;
    const o = leaf * 6;
    return (
      b[o] <= a.min[0] &&
      b[o + 1] <= a.min[1] &&
      b[o + 2] <= a.min[2] &&
      a.max[0] <= b[o + 3] &&
      a.max[1] <= b[o + 4] &&
      a.max[2] <= b[o + 5]
    );
  }

  /** True when the stored boxes of nodes i and j overlap (closed intervals). */
  nodesOverlap(i: number, j: number): boolean {
    const b = this.box;
    const p = i * 6;
    const q = j * 6;
    return (
      b[p] <= b[q + 3] &&
      b[q] <= b[p + 3] &&
      b[p + 1] <= b[q + 4] &&
      b[q + 1] <= b[p + 4] &&
      b[p + 2] <= b[q + 5] &&
      b[q + 2] <= b[p + 5]
    );
  }

  /** Append to `out` every leaf whose box overlaps `a` (closed). Order: depth first, child1 first. */
  queryAabb(a: Readonly<Aabb>, out: NodeList): void {
    this.queryBox(a.min[0], a.min[1], a.min[2], a.max[0], a.max[1], a.max[2], out);
  }

  /** Append to `out` every leaf whose box overlaps the stored box of node `node` (itself included). */
  queryNode(node: number, out: NodeList): void {
    const b = this.box;
    const o = node * 6;
    this.queryBox(b[o], b[o + 1], b[o + 2], b[o + 3], b[o + 4], b[o + 5], out);
  }

  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, out: NodeList): void {
    if (this.root === NULL_NODE) return;
    const b = this.box;
    const c1 = this.child1;
    const c2 = this.child2;
    let stack = this.stack;
    let top = 0;
    stack[top++] = this.root;
    while (top > 0) {
      const n = stack[--top];
      const o = n * 6;
      if (b[o] > maxX || b[o + 3] < minX || b[o + 1] > maxY || b[o + 4] < minY || b[o + 2] > maxZ || b[o + 5] < minZ) {
        continue;
      }
      const first = c1[n];
      if (first === NULL_NODE) {
        out.push(n);
        continue;
      }
      if (top + 2 > stack.length) {
        const grown = new Int32Array(stack.length * 2);
        grown.set(stack);
        this.stack = stack = grown;
      }
      // Push child2 first so child1 is visited first: a fixed, documented visiting order.
      stack[top++] = c2[n];
      stack[top++] = first;
    }
  }

  /**
   * Ray cast through the tree: visits (in depth-first order, not sorted by distance) every leaf whose
   * box the segment origin + t·dir, t in [0, maxT], touches (closed slabs), calling
   * `visitor.hit(leaf, maxT)`. The visitor returns the new maxT: the same value to go on, a
   * smaller one to clip the ray (e.g. the exact hit of the body's shape, as Box2D's
   * b2DynamicTree_RayCast), 0 to stop. Boxes entirely beyond the clipped maxT are skipped.
   *
   * Slab test (Kay & Kajiya 1986; Williams et al. 2005): per axis the ray is inside the slab for
   * t between (min − o)/d and (max − o)/d; the box is hit when the largest entry is ≤ the smallest
   * exit. An axis with d = 0 is either always inside (o within the slab) or never.
   */
  rayCast(origin: Readonly<Vec3>, dir: Readonly<Vec3>, maxT: number, visitor: TreeRayVisitor): void {
    if (this.root === NULL_NODE || !(maxT >= 0)) return;
    const ox = origin[0], oy = origin[1], oz = origin[2];
    const dx = dir[0], dy = dir[1], dz = dir[2];
    if (!Number.isFinite(ox + oy + oz + dx + dy + dz)) return;
    const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
    const b = this.box;
    const c1 = this.child1;
    const c2 = this.child2;
    let stack = this.stack;
    let top = 0;
    let tMax = maxT;
    stack[top++] = this.root;
    while (top > 0) {
      const n = stack[--top];
      const o = n * 6;
      let enter = 0;
      let exit = tMax;
      if (dx === 0) {
        if (ox < b[o] || ox > b[o + 3]) continue;
      } else {
        const t0 = (b[o] - ox) * ix, t1 = (b[o + 3] - ox) * ix;
        enter = Math.max(enter, Math.min(t0, t1));
        exit = Math.min(exit, Math.max(t0, t1));
      }
      if (dy === 0) {
        if (oy < b[o + 1] || oy > b[o + 4]) continue;
      } else {
        const t0 = (b[o + 1] - oy) * iy, t1 = (b[o + 4] - oy) * iy;
        enter = Math.max(enter, Math.min(t0, t1));
        exit = Math.min(exit, Math.max(t0, t1));
      }
      if (dz === 0) {
        if (oz < b[o + 2] || oz > b[o + 5]) continue;
      } else {
        const t0 = (b[o + 2] - oz) * iz, t1 = (b[o + 5] - oz) * iz;
        enter = Math.max(enter, Math.min(t0, t1));
        exit = Math.min(exit, Math.max(t0, t1));
      }
      if (enter > exit) continue;
      const first = c1[n];
      if (first === NULL_NODE) {
        const next = visitor.hit(n, tMax);
        if (!(next > 0)) return;
        if (next < tMax) tMax = next;
        continue;
      }
      if (top + 2 > stack.length) {
        const grown = new Int32Array(stack.length * 2);
        grown.set(stack);
        this.stack = stack = grown;
      }
      stack[top++] = c2[n];
      stack[top++] = first;
    }
  }

  // --- internals ------------------------------------------------------------------------------

  private grow(newCapacity: number): void {
    if (newCapacity > TREE_MAX_NODES) throw new RangeError(`DynamicTree: more than TREE_MAX_NODES (${TREE_MAX_NODES}) nodes`);
    const old = this.capacity;
    const box = new Float64Array(newCapacity * 6);
    box.set(this.box);
    const parent = new Int32Array(newCapacity);
    parent.set(this.parent);
    const child1 = new Int32Array(newCapacity);
    child1.set(this.child1);
    const child2 = new Int32Array(newCapacity);
    child2.set(this.child2);
    const height = new Int32Array(newCapacity);
    height.set(this.height);
    const user = new Int32Array(newCapacity);
    user.set(this.user);
    this.box = box;
    this.parent = parent;
    this.child1 = child1;
    this.child2 = child2;
    this.height = height;
    this.user = user;
    this.capacity = newCapacity;
    // Thread the new nodes onto the free list so the lowest new index comes out first.
    for (let i = newCapacity - 1; i >= old; i--) {
      this.height[i] = FREE_HEIGHT;
      this.child1[i] = NULL_NODE;
      this.child2[i] = NULL_NODE;
      this.parent[i] = i === newCapacity - 1 ? this.freeList : i + 1;
    }
    this.freeList = old;
  }

  private allocNode(): number {
    if (this.freeList === NULL_NODE) this.grow(Math.min(TREE_MAX_NODES, this.capacity * 2));
    const n = this.freeList;
    this.freeList = this.parent[n];
    this.parent[n] = NULL_NODE;
    this.child1[n] = NULL_NODE;
    this.child2[n] = NULL_NODE;
    this.height[n] = 0;
    this.user[n] = -1;
    this.allocated++;
    return n;
  }

  private freeNode(n: number): void {
    this.parent[n] = this.freeList;
    this.child1[n] = NULL_NODE;
    this.child2[n] = NULL_NODE;
    this.height[n] = FREE_HEIGHT;
    this.freeList = n;
    this.allocated--;
  }

  private writeBox(n: number, a: Readonly<Aabb>): void {
    const b = this.box;
    const o = n * 6;
    b[o] = a.min[0];
    b[o + 1] = a.min[1];
    b[o + 2] = a.min[2];
    b[o + 3] = a.max[0];
    b[o + 4] = a.max[1];
    b[o + 5] = a.max[2];
  }

  /** Half area of node n's box, written to this.area[0]. */
  private nodeArea(n: number): void {
    const b = this.box;
    const o = n * 6;
    this.area[0] = halfArea(b[o + 3] - b[o], b[o + 4] - b[o + 1], b[o + 5] - b[o + 2]);
  }

  /** Half area of the union of the boxes of nodes i and j, written to this.area[0]. */
  private unionArea(i: number, j: number): void {
    const b = this.box;
    const p = i * 6;
    const q = j * 6;
    const dx = Math.max(b[p + 3], b[q + 3]) - Math.min(b[p], b[q]);
    const dy = Math.max(b[p + 4], b[q + 4]) - Math.min(b[p + 1], b[q + 1]);
    const dz = Math.max(b[p + 5], b[q + 5]) - Math.min(b[p + 2], b[q + 2]);
    this.area[0] = halfArea(dx, dy, dz);
  }

  /** Recompute node n's box and height from its two children; true when either changed. */
  private refit(n: number): boolean {
    const b = this.box;
    const a = this.child1[n];
    const c = this.child2[n];
    const o = n * 6;
    const p = a * 6;
    const q = c * 6;
    const minX = Math.min(b[p], b[q]);
    const minY = Math.min(b[p + 1], b[q + 1]);
    const minZ = Math.min(b[p + 2], b[q + 2]);
    const maxX = Math.max(b[p + 3], b[q + 3]);
    const maxY = Math.max(b[p + 4], b[q + 4]);
    const maxZ = Math.max(b[p + 5], b[q + 5]);
    const ha = this.height[a];
    const hc = this.height[c];
    const h = 1 + (ha > hc ? ha : hc);
    const changed =
      b[o] !== minX || b[o + 1] !== minY || b[o + 2] !== minZ || b[o + 3] !== maxX || b[o + 4] !== maxY || b[o + 5] !== maxZ || this.height[n] !== h;
    b[o] = minX;
    b[o + 1] = minY;
    b[o + 2] = minZ;
    b[o + 3] = maxX;
    b[o + 4] = maxY;
    b[o + 5] = maxZ;
    this.height[n] = h;
    return changed;
  }

  /**
   * Branch-and-bound sibling search (Bittner et al. 2013, Sec. 3, greedy variant as in Box2D
   * v3). Choosing node X as the sibling of the new leaf L costs
   *   direct(X)   = area(X ∪ L)                      the new parent's box
   *   induced(X)  = Σ over ancestors Y of X: area(Y ∪ L) − area(Y)   enlarged ancestors
   * and any node below X costs at least area(L) + induced(X) + area(X ∪ L) − area(X), which
   * prunes a subtree as soon as that bound reaches the best cost found.
   */
  private findBestSibling(leaf: number): number {
    const b = this.box;
    const o = leaf * 6;
    const lMinX = b[o];
    const lMinY = b[o + 1];
    const lMinZ = b[o + 2];
    const lMaxX = b[o + 3];
    const lMaxY = b[o + 4];
    const lMaxZ = b[o + 5];
    const leafArea = halfArea(lMaxX - lMinX, lMaxY - lMinY, lMaxZ - lMinZ);

    let index = this.root;
    let best = index;
    const A = this.area;
    this.unionArea(index, leaf);
    let bestCost = A[0];
    let induced = 0;
    const c1 = this.child1;
    const c2 = this.child2;
    while (c1[index] !== NULL_NODE) {
      this.unionArea(index, leaf);
      const unionIndex = A[0];
      this.nodeArea(index);
      induced += unionIndex - A[0];
      const a = c1[index];
      const c = c2[index];

      this.unionArea(a, leaf);
      const directA = A[0];
      const costA = directA + induced;
      this.unionArea(c, leaf);
      const directC = A[0];
      const costC = directC + induced;
      let lowerA = Infinity;
      if (c1[a] !== NULL_NODE) {
        this.nodeArea(a);
        lowerA = leafArea + induced + directA - A[0];
      }
      let lowerC = Infinity;
      if (c1[c] !== NULL_NODE) {
        this.nodeArea(c);
        lowerC = leafArea + induced + directC - A[0];
      }
      // Ties matter for degenerate input: identical boxes (or points) cost the same everywhere,
      // and a strict `<` keeps picking the root, growing a chain of height n. So equal costs go
      // to the LOWER candidate (the new parent then adds least height), the descent continues on
      // an equal bound, and equal bounds descend into the lower subtree: the tree fills level by
      // level. Non-degenerate input almost never ties exactly, so the SAH choice is unchanged.
      const h = this.height;
      if (costA < bestCost || (costA === bestCost && h[a] < h[best])) {
        best = a;
        bestCost = costA;
      }
      if (costC < bestCost || (costC === bestCost && h[c] < h[best])) {
        best = c;
        bestCost = costC;
      }
      const goA = lowerA <= bestCost;
      const goC = lowerC <= bestCost;
      let next = NULL_NODE;
      if (goA && goC) next = lowerA < lowerC ? a : lowerC < lowerA ? c : this.height[a] <= this.height[c] ? a : c;
      else if (goA) next = a;
      else if (goC) next = c;
      if (next === NULL_NODE) break;
      index = next;
    }
    return best;
  }

  private insertLeaf(leaf: number): void {
    if (this.root === NULL_NODE) {
      this.root = leaf;
      this.parent[leaf] = NULL_NODE;
      return;
    }
    const sibling = this.findBestSibling(leaf);
    const oldParent = this.parent[sibling];
    const newParent = this.allocNode();
    this.parent[newParent] = oldParent;
    this.child1[newParent] = sibling;
    this.child2[newParent] = leaf;
    this.parent[sibling] = newParent;
    this.parent[leaf] = newParent;
    if (oldParent === NULL_NODE) {
      this.root = newParent;
    } else if (this.child1[oldParent] === sibling) {
      this.child1[oldParent] = newParent;
    } else {
      this.child2[oldParent] = newParent;
    }
    this.refitAndRotateUp(newParent);
  }

  private removeLeaf(leaf: number): void {
    if (leaf === this.root) {
      this.root = NULL_NODE;
      return;
    }
    const p = this.parent[leaf];
    const gp = this.parent[p];
    const sibling = this.child1[p] === leaf ? this.child2[p] : this.child1[p];
    if (gp === NULL_NODE) {
      this.root = sibling;
      this.parent[sibling] = NULL_NODE;
    } else {
      if (this.child1[gp] === p) this.child1[gp] = sibling;
      else this.child2[gp] = sibling;
      this.parent[sibling] = gp;
    }
    this.freeNode(p);
    this.parent[leaf] = NULL_NODE;
    if (gp !== NULL_NODE) this.refitAndRotateUp(gp);
  }

  /**
   * Walk from `start` to the root refitting boxes and heights and trying a rotation at each
   * node. Stops early after two consecutive nodes come out with box and height unchanged and no
   * rotation: a rotation at node A looks at A's children and grandchildren, so once two levels
   * are unchanged every ancestor sees exactly the children and grandchildren it saw before and
   * would decide as it did then. A re-insertion then costs O(depth of the change) instead of
   * twice the tree height (remove + insert).
   */
  private refitAndRotateUp(start: number): void {
    let quiet = 0;
    for (let n = start; n !== NULL_NODE; n = this.parent[n]) {
      const changed = this.refit(n);
      const rotated = this.rotate(n);
      quiet = changed || rotated ? 0 : quiet + 1;
      if (quiet === 2) break;
    }
  }

  /**
   * Tree rotation at node A (Kopta et al. 2012): try swapping one child of A with a grandchild
   * on the other side, keep the swap that shrinks the surface area of the node whose contents
   * change. A's own box is unchanged (same leaves below it).
   *
   *            A                    swap B <-> F                A
   *          /   \                                            /   \
   *         B     C                 ------------->           F     C
   *        / \   / \                                        / \   / \
   *       D   E F   G                                      ...   B   G
   */
  private rotate(a: number): boolean {
    if (this.height[a] < 2) return false;
    const b = this.child1[a];
    const c = this.child2[a];
    const bLeaf = this.height[b] === 0;
    const cLeaf = this.height[c] === 0;

    // Candidate swaps: 1 = B<->F, 2 = B<->G, 3 = C<->D, 4 = C<->E. Gain = area shrink.
    let bestSwap = 0;
    let bestGain = 0;
    if (!cLeaf) {
      const f = this.child1[c];
      const g = this.child2[c];
      const A = this.area;
      this.nodeArea(c);
      const areaC = A[0];
      this.unionArea(b, g);
      const gainBF = areaC - A[0];
      if (gainBF > bestGain) {
        bestGain = gainBF;
        bestSwap = 1;
      }
      this.unionArea(b, f);
      const gainBG = areaC - A[0];
      if (gainBG > bestGain) {
        bestGain = gainBG;
        bestSwap = 2;
      }
    }
    if (!bLeaf) {
      const d = this.child1[b];
      const e = this.child2[b];
      const A = this.area;
      this.nodeArea(b);
      const areaB = A[0];
      this.unionArea(c, e);
      const gainCD = areaB - A[0];
      if (gainCD > bestGain) {
        bestGain = gainCD;
        bestSwap = 3;
      }
      this.unionArea(c, d);
      const gainCE = areaB - A[0];
      if (gainCE > bestGain) {
        bestGain = gainCE;
        bestSwap = 4;
      }
    }
    if (bestSwap === 0) return false;
    // 1: B ↔ C.child1 (F), 2: B ↔ C.child2 (G), 3: C ↔ B.child1 (D), 4: C ↔ B.child2 (E).
    if (bestSwap <= 2) this.swapWithGrandchild(a, this.child1, c, bestSwap === 1 ? this.child1 : this.child2);
    else this.swapWithGrandchild(a, this.child2, b, bestSwap === 3 ? this.child1 : this.child2);
    const h1 = this.height[this.child1[a]];
    const h2 = this.height[this.child2[a]];
    this.height[a] = 1 + (h1 > h2 ? h1 : h2);
    return true;
  }

  /**
   * The rotation's swap: A's child in `aSlot` trades places with X's child in `xSlot` (X is A's
   * other child), then X's box is refitted (A's is unchanged).
   */
  private swapWithGrandchild(a: number, aSlot: Int32Array, x: number, xSlot: Int32Array): void {
    const moved = aSlot[a];
    const grandchild = xSlot[x];
    aSlot[a] = grandchild;
    this.parent[grandchild] = a;
    xSlot[x] = moved;
    this.parent[moved] = x;
    this.refit(x);
  }
}
