/**
 * Consistency check and quality metric of the dynamic AABB tree (dynamic-tree.ts), for tests and
 * benchmarks. Both read the tree only through its public accessors, walk every node (O(n)) and
 * allocate freely: never call them on the hot path.
 */

import { aabb, aabbContains, halfArea } from './aabb';
import type { Aabb } from './aabb';
import { NULL_NODE } from './dynamic-tree';
import type { DynamicTree } from './dynamic-tree';

/** Half surface area of a box (the SAH cost measure, see halfArea). */
function boxHalfArea(b: Readonly<Aabb>): number {
  return halfArea(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
}

/**
 * Sum of the half surface areas of the internal nodes divided by the root's: the SAH quality
 * of the tree (lower is better); used by tests and benchmarks to see that rotations help.
 * 0 for an empty tree or a root of zero area.
 */
export function treeAreaRatio(tree: DynamicTree): number {
  if (tree.root === NULL_NODE) return 0;
  const box = aabb();
  const rootArea = boxHalfArea(tree.getAabb(box, tree.root));
  if (!(rootArea > 0)) return 0;
  let total = 0;
  for (let i = 0; i < tree.nodeCapacity; i++) {
    if (tree.getNodeHeight(i) > 0) total += boxHalfArea(tree.getAabb(box, i));
  }
  return total / rootArea;
}

/**
 * Check every structural invariant of the tree; returns null when it is sound, else a message
 * that names the broken node:
 * - the root has no parent; every node reachable from it is in use;
 * - a leaf has no children and height 0; an internal node has two children that point back to
 *   it, height 1 + max(child heights), and a box that is exactly the union of its children's;
 * - the reachable leaves and nodes match leafCount and nodeCount;
 * - the free list holds only free nodes, has no cycle, and free + in use = nodeCapacity.
 */
export function validateTree(tree: DynamicTree): string | null {
  const root = tree.root;
  if (root !== NULL_NODE && tree.getParent(root) !== NULL_NODE) return `root ${root} has a parent`;
  const box = aabb();
  const box1 = aabb();
  const box2 = aabb();
  let leaves = 0;
  let nodes = 0;
  const stack: number[] = root === NULL_NODE ? [] : [root];
  while (stack.length > 0) {
    const n = stack.pop() as number;
    nodes++;
    if (tree.isFree(n)) return `node ${n} is reachable but free`;
    const a = tree.getChild1(n);
    const c = tree.getChild2(n);
    const height = tree.getNodeHeight(n);
    if (a === NULL_NODE) {
      if (c !== NULL_NODE) return `leaf ${n} has a child2`;
      if (height !== 0) return `leaf ${n} has height ${height}`;
      leaves++;
      continue;
    }
    if (c === NULL_NODE) return `internal node ${n} lacks child2`;
    if (tree.getParent(a) !== n || tree.getParent(c) !== n) return `children of ${n} do not point back to it`;
    const h = 1 + Math.max(tree.getNodeHeight(a), tree.getNodeHeight(c));
    if (height !== h) return `node ${n} has height ${height}, expected ${h}`;
    tree.getAabb(box, n);
    tree.getAabb(box1, a);
    tree.getAabb(box2, c);
    if (!aabbContains(box, box1)) return `node ${n} does not contain child ${a}`;
    if (!aabbContains(box, box2)) return `node ${n} does not contain child ${c}`;
    // Tight: an internal box is exactly the union of its children (refit keeps it so).
    for (let k = 0; k < 3; k++) {
      if (box.min[k] !== Math.min(box1.min[k], box2.min[k])) return `node ${n} box is not tight (min ${k})`;
      if (box.max[k] !== Math.max(box1.max[k], box2.max[k])) return `node ${n} box is not tight (max ${k})`;
    }
    stack.push(a, c);
  }
  if (leaves !== tree.leafCount) return `reachable leaves ${leaves} != leaf count ${tree.leafCount}`;
  if (nodes !== tree.nodeCount) return `reachable nodes ${nodes} != allocated ${tree.nodeCount}`;
  let free = 0;
  for (let f = tree.freeListHead; f !== NULL_NODE; f = tree.getNextFree(f)) {
    if (!tree.isFree(f)) return `free-list node ${f} is in use`;
    free++;
    if (free > tree.nodeCapacity) return 'free list has a cycle';
  }
  if (free + tree.nodeCount !== tree.nodeCapacity) {
    return `free ${free} + allocated ${tree.nodeCount} != capacity ${tree.nodeCapacity}`;
  }
  return null;
}
