/**
 * Fixed-capacity ring of (time, value) samples for the scrolling plots. Pure logic: no pixi.
 * Pushing past capacity drops the oldest sample; nothing allocates after construction.
 */
export class TimeSeries {
  readonly capacity: number;
  private readonly t: Float64Array;
  private readonly v: Float64Array;
  private head = 0;
  count = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.t = new Float64Array(capacity);
    this.v = new Float64Array(capacity);
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /** Appends a sample; a time earlier than the newest (a new world, a seek) clears the series first. */
  push(time: number, value: number): void {
    if (!Number.isFinite(time) || !Number.isFinite(value)) return;
    if (this.count > 0 && time < this.timeAt(this.count - 1)) this.clear();
    const slot = (this.head + this.count) % this.capacity;
    this.t[slot] = time;
    this.v[slot] = value;
    if (this.count < this.capacity) this.count++;
    else this.head = (this.head + 1) % this.capacity;
  }

  /** k-th oldest sample's time (0 ≤ k < count). */
  timeAt(k: number): number {
    return this.t[(this.head + k) % this.capacity];
  }

  valueAt(k: number): number {
    return this.v[(this.head + k) % this.capacity];
  }

  /** Min and max value among samples with time ≥ since; [0, 0] when none. Writes into out. */
  range(out: [number, number], since: number): [number, number] {
    let lo = Infinity, hi = -Infinity;
    for (let k = 0; k < this.count; k++) {
      if (this.timeAt(k) < since) continue;
      const x = this.valueAt(k);
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (lo > hi) { lo = 0; hi = 0; }
    out[0] = lo;
    out[1] = hi;
    return out;
  }
}
