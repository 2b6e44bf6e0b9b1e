import { describe, expect, it } from 'vitest';
import { aabb, aabbOverlaps } from '../../../sim/collision/broadphase/aabb';
import type { Aabb } from '../../../sim/collision/broadphase/aabb';
import { DynamicTree, NodeList, NULL_NODE } from '../../../sim/collision/broadphase/dynamic-tree';
import { treeAreaRatio, validateTree } from '../../../sim/collision/broadphase/dynamic-tree-check';
import type { Vec3 } from '../../../sim/math/vec3';
import { Rng } from '../../../sim/math/random';

function randomBox(rng: Rng, world: number, maxSize: number): Aabb {
  const x = rng.range(-world, world);
  const y = rng.range(-world, world);
  const z = rng.range(-world, world);
  return aabb(x, y, z, x + rng.range(0, maxSize), y + rng.range(0, maxSize), z + rng.range(0, maxSize));
}

/** Brute-force query: every live leaf whose box overlaps q, sorted. */
function bruteQuery(boxes: Map<number, Aabb>, q: Aabb): number[] {
  const out: number[] = [];
  for (const [id, b] of boxes) if (aabbOverlaps(b, q)) out.push(id);
  return out.sort((a, b) => a - b);
}

function treeQuery(tree: DynamicTree, q: Aabb): number[] {
  const list = new NodeList(4);
  tree.queryAabb(q, list);
  return Array.from(list.items.subarray(0, list.count)).sort((a, b) => a - b);
}

/** Serialise the tree shape (for determinism checks). */
function shape(tree: DynamicTree): string {
  const parts: string[] = [];
  const walk = (n: number): void => {
    if (n === NULL_NODE) return;
    if (tree.isLeaf(n)) {
      parts.push(`L${n}`);
      return;
    }
    parts.push(`(${n}`);
    walk(tree.getChild1(n));
    walk(tree.getChild2(n));
    parts.push(')');
  };
  walk(tree.root);
  return parts.join(' ');
}

describe('DynamicTree', () => {
  it('is empty at first and a single leaf is the root with height 0', () => {
    const tree = new DynamicTree();
    expect(tree.getHeight()).toBe(-1);
    expect(treeQuery(tree, aabb(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9))).toEqual([]);
    const id = tree.createLeaf(aabb(0, 0, 0, 1, 1, 1), 7);
    expect(tree.root).toBe(id);
    expect(tree.getHeight()).toBe(0);
    expect(tree.getUserData(id)).toBe(7);
    expect(validateTree(tree)).toBeNull();
    tree.destroyLeaf(id);
    expect(tree.root).toBe(NULL_NODE);
    expect(validateTree(tree)).toBeNull();
  });

  it('validateTree reports a broken tree, naming what is wrong', () => {
    const tree = new DynamicTree();
    for (let i = 0; i < 5; i++) tree.createLeaf(aabb(i, 0, 0, i + 1, 1, 1), i);
    expect(validateTree(tree)).toBeNull();
    const root = tree.root;
    tree.root = tree.getChild1(root);
    expect(validateTree(tree)).toBe(`root ${tree.root} has a parent`);
    tree.root = NULL_NODE;
    expect(validateTree(tree)).toBe('reachable leaves 0 != leaf count 5');
    tree.root = root;
    expect(validateTree(tree)).toBeNull();
  });

  it('exposes its free list read-only: free slots from freeListHead, taken first by the next insert', () => {
    const tree = new DynamicTree(8);
    const ids = [0, 1, 2].map((i) => tree.createLeaf(aabb(i, 0, 0, i + 1, 1, 1), i));
    tree.destroyLeaf(ids[1]);
    const free: number[] = [];
    for (let f = tree.freeListHead; f !== NULL_NODE; f = tree.getNextFree(f)) free.push(f);
    expect(free.length).toBe(tree.nodeCapacity - tree.nodeCount);
    expect(free.every((f) => tree.isFree(f))).toBe(true);
    expect(new Set(free).size).toBe(free.length);
    const head = tree.freeListHead;
    expect(tree.createLeaf(aabb(9, 0, 0, 10, 1, 1), 9)).toBe(head);
    expect(tree.isFree(head)).toBe(false);
  });

  it('counts boxes that only touch on a face as overlapping (closed intervals)', () => {
    const tree = new DynamicTree();
    const a = tree.createLeaf(aabb(0, 0, 0, 1, 1, 1), 0);
    tree.createLeaf(aabb(5, 5, 5, 6, 6, 6), 1);
    expect(treeQuery(tree, aabb(1, 0.5, 0.5, 2, 0.6, 0.6))).toEqual([a]);
    expect(treeQuery(tree, aabb(1 + 1e-12, 0.5, 0.5, 2, 0.6, 0.6))).toEqual([]);
  });

  it('answers queries like brute force through seeded inserts, moves and removes, keeping every invariant', () => {
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      const tree = new DynamicTree(2); // tiny initial capacity: exercises growth
      const boxes = new Map<number, Aabb>();
      for (let round = 0; round < 30; round++) {
        for (let k = 0; k < 20; k++) {
          const op = rng.next();
          const ids = [...boxes.keys()];
          if (op < 0.45 || ids.length === 0) {
            const b = randomBox(rng, 20, rng.next() < 0.1 ? 15 : 3);
            const id = tree.createLeaf(b, round);
            expect(boxes.has(id)).toBe(false);
            boxes.set(id, b);
          } else if (op < 0.8) {
            const id = ids[rng.int(0, ids.length - 1)];
            const b = randomBox(rng, 20, 3);
            tree.moveLeaf(id, b);
            boxes.set(id, b);
          } else {
            const id = ids[rng.int(0, ids.length - 1)];
            tree.destroyLeaf(id);
            boxes.delete(id);
          }
        }
        expect(validateTree(tree)).toBeNull();
        expect(tree.leafCount).toBe(boxes.size);
        expect(tree.nodeCount).toBe(boxes.size === 0 ? 0 : 2 * boxes.size - 1);
        for (let q = 0; q < 10; q++) {
          const query = randomBox(rng, 22, 12);
          expect(treeQuery(tree, query)).toEqual(bruteQuery(boxes, query));
        }
      }
    }
  });

  it('stays shallow: height within 2.5 log2(n) + 2 for random and for sorted insertion orders', () => {
    const n = 2000;
    const bound = 2.5 * Math.log2(n) + 2;
    const rng = new Rng(42);
    const random = new DynamicTree();
    for (let i = 0; i < n; i++) random.createLeaf(randomBox(rng, 100, 2), i);
    expect(validateTree(random)).toBeNull();
    expect(random.getHeight()).toBeLessThanOrEqual(bound);

    // Sorted along a line: the worst case for plain insertion without rotations (a chain).
    const line = new DynamicTree();
    for (let i = 0; i < n; i++) line.createLeaf(aabb(i, 0, 0, i + 0.5, 0.5, 0.5), i);
    expect(validateTree(line)).toBeNull();
    expect(line.getHeight()).toBeLessThanOrEqual(bound);
  });

  it('regression: identical boxes and points do not grow a chain (SAH ties broken toward the lower subtree)', () => {
    // Every SAH cost ties on such input; with strict comparisons each insertion went next to the
    // root and 1000 boxes made a tree of height 999 (queries and re-insertions O(n)).
    for (const size of [1, 0]) {
      const tree = new DynamicTree();
      const n = 1000;
      for (let i = 0; i < n; i++) tree.createLeaf(aabb(2, 3, 4, 2 + size, 3 + size, 4 + size), i);
      expect(validateTree(tree)).toBeNull();
      expect(tree.getHeight()).toBeLessThanOrEqual(2 * Math.log2(n));
      const hits = new NodeList();
      tree.queryAabb(aabb(2, 3, 4, 2, 3, 4), hits);
      expect(hits.count).toBe(n);
    }
  });

  it('keeps the SAH cost within 1.4x of a top-down median-split build of the same boxes', () => {
    // Reference: recursive median split along the longest axis (the classic offline build).
    // Incremental insertion with rotations measured 69.9 vs 55.2 (1.27x) here; a tree without
    // good sibling choice or rotations lands far above (a chain is > 100x).
    const cells: [number, number, number][] = [];
    for (let c = 0; c < 4096; c++) cells.push([c & 15, (c >> 4) & 15, c >> 8]);
    const size = 0.9;
    const halfAreaOf = (ps: [number, number, number][]): number => {
      const lo = [Infinity, Infinity, Infinity];
      const hi = [-Infinity, -Infinity, -Infinity];
      for (const p of ps) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k] + size); }
      const d = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
      return d[0] * d[1] + d[1] * d[2] + d[2] * d[0];
    };
    const medianSplit = (ps: [number, number, number][]): number => {
      if (ps.length === 1) return 0;
      const ext = [0, 1, 2].map((k) => Math.max(...ps.map((p) => p[k])) - Math.min(...ps.map((p) => p[k])));
      const ax = ext.indexOf(Math.max(...ext));
      const sorted = [...ps].sort((a, b) => a[ax] - b[ax] || a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
      const m = sorted.length >> 1;
      return halfAreaOf(ps) + medianSplit(sorted.slice(0, m)) + medianSplit(sorted.slice(m));
    };
    const reference = medianSplit(cells) / halfAreaOf(cells);

    const tree = new DynamicTree();
    const rng = new Rng(5);
    const order = cells.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const c of order) {
      const [x, y, z] = cells[c];
      tree.createLeaf(aabb(x, y, z, x + size, y + size, z + size), c);
    }
    expect(validateTree(tree)).toBeNull();
    // The root counts itself, so any tree with an internal node scores at least 1.
    expect(treeAreaRatio(tree)).toBeGreaterThanOrEqual(1);
    expect(treeAreaRatio(tree)).toBeLessThan(1.4 * reference);
  });

  it('is deterministic: the same calls build the same tree and the same ids', () => {
    const build = (): DynamicTree => {
      const rng = new Rng(99);
      const tree = new DynamicTree();
      const ids: number[] = [];
      for (let i = 0; i < 300; i++) ids.push(tree.createLeaf(randomBox(rng, 30, 4), i));
      for (let i = 0; i < 200; i++) tree.moveLeaf(ids[rng.int(0, ids.length - 1)], randomBox(rng, 30, 4));
      for (let i = 0; i < 50; i++) {
        const k = rng.int(0, ids.length - 1);
        tree.destroyLeaf(ids[k]);
        ids.splice(k, 1);
      }
      for (let i = 0; i < 50; i++) ids.push(tree.createLeaf(randomBox(rng, 30, 4), i));
      return tree;
    };
    expect(shape(build())).toBe(shape(build()));
  });
  it('ray casts like a brute-force slab test: same leaves reached, and clipping finds the nearest box', () => {
    /** Entry parameter of the segment o + t d, t in [0, maxT], into box b; Infinity when missed. */
    const entry = (b: Aabb, o: Vec3, d: Vec3, maxT: number): number => {
      let lo = 0;
      let hi = maxT;
      for (let k = 0; k < 3; k++) {
        if (d[k] === 0) {
          if (o[k] < b.min[k] || o[k] > b.max[k]) return Infinity;
          continue;
        }
        const t0 = (b.min[k] - o[k]) / d[k];
        const t1 = (b.max[k] - o[k]) / d[k];
        lo = Math.max(lo, Math.min(t0, t1));
        hi = Math.min(hi, Math.max(t0, t1));
      }
      return lo <= hi ? lo : Infinity;
    };
    const rng = new Rng(8);
    const tree = new DynamicTree();
    const boxes = new Map<number, Aabb>();
    for (let i = 0; i < 400; i++) {
      const b = randomBox(rng, 20, 3);
      boxes.set(tree.createLeaf(b, i), b);
    }
    for (let r = 0; r < 200; r++) {
      const o: Vec3 = [rng.range(-25, 25), rng.range(-25, 25), rng.range(-25, 25)];
      // Every fifth ray is axis-aligned (zero direction components: the d = 0 slab branch).
      const d: Vec3 = r % 5 === 0 ? [0, rng.next() < 0.5 ? 1 : -1, 0] : [rng.gaussian(), rng.gaussian(), rng.gaussian()];
      const maxT = rng.range(5, 60);
      const reached: number[] = [];
      tree.rayCast(o, d, maxT, { hit: (leaf, t) => (reached.push(leaf), t) });
      const expected = [...boxes].filter(([, b]) => entry(b, o, d, maxT) < Infinity).map(([id]) => id);
      expect(reached.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));

      // Clip to the exact entry of each reached box (as a shape ray cast would): clipping must
      // never prune the nearest box, so the final clip is the brute-force nearest entry.
      let best = maxT;
      let clippedVisits = 0;
      tree.rayCast(o, d, maxT, {
        hit: (leaf, t) => {
          clippedVisits++;
          const e = entry(boxes.get(leaf) as Aabb, o, d, t);
          if (e < best) best = e;
          return best > 0 ? best : 0;
        },
      });
      expect(clippedVisits).toBeLessThanOrEqual(reached.length);
      const nearest = Math.min(maxT, ...[...boxes.values()].map((b) => entry(b, o, d, maxT)));
      expect(best).toBe(nearest);
    }
    // Stop on 0: exactly one leaf is visited.
    let visits = 0;
    tree.rayCast([-30, 0, 0], [1, 0, 0], 100, { hit: () => (visits++, 0) });
    expect(visits).toBeLessThanOrEqual(1);
  });
});
