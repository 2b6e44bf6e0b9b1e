/**
 * A growable list of node indices that the dynamic tree's queries append to (see
 * DynamicTree.queryAabb / queryNode / queryBox). The caller keeps one list and clears it between
 * queries: once it has grown to the largest result, nothing is allocated per query.
 */
export class NodeList {
  items: Int32Array;
  count = 0;

  constructor(capacity = 64) {
    this.items = new Int32Array(capacity);
  }

  push(v: number): void {
    if (this.count === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.count++] = v;
  }

  clear(): void {
    this.count = 0;
  }
}
