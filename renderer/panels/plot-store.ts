/**
 * The renderer's copy of the per-step plot samples (sim/app/plot-sampler.ts hands them over with
 * each frame) and the decimation that draws them: min/max per pixel bucket, so a one-step spike
 * is drawn however many steps share a pixel. Pure (no DOM); unit-tested.
 *
 * One contiguous run of steps, always increasing: samples that do not continue the run (a seek,
 * a step back, a new world) restart it, and `keepUpTo(step)` drops samples after the frame on
 * screen when the world went back. Nothing is ever appended out of order.
 */

/** Steps kept (as the worker's ring): older samples are dropped. */
export const PLOT_STORE_STEPS = 1 << 15;

export interface PlotSamplesIn {
  keys: string[];
  steps: Float64Array;
  times: Float64Array;
  values: Float32Array;
}

export class PlotStore {
  keys: string[] = [];
  private steps = new Float64Array(PLOT_STORE_STEPS);
  private times = new Float64Array(PLOT_STORE_STEPS);
  private cols: Float32Array[] = [];
  private head = 0;
  count = 0;

  constructor(readonly capacity = PLOT_STORE_STEPS) {
    this.steps = new Float64Array(capacity);
    this.times = new Float64Array(capacity);
  }

  /** New series (or a new world): empty columns for `keys`. */
  reset(keys: readonly string[]): void {
    this.keys = keys.slice();
    this.cols = keys.map(() => new Float32Array(this.capacity));
    this.clear();
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /** Newest step held, or −1. */
  get lastStep(): number {
    return this.count === 0 ? -1 : this.steps[(this.head + this.count - 1) % this.capacity];
  }

  /** Drops the samples of steps after `step` (the world went back to it). */
  keepUpTo(step: number): void {
    while (this.count > 0 && this.steps[(this.head + this.count - 1) % this.capacity] > step) this.count--;
  }

  /**
   * Appends samples of the same keys (others are ignored: a choice changed on the way). A first
   * step that does not continue the run restarts it; a step not after the newest is skipped.
   */
  append(p: PlotSamplesIn): void {
    const n = p.keys.length;
    if (n !== this.keys.length || p.keys.some((k, c) => k !== this.keys[c])) return;
    for (let r = 0; r < p.steps.length; r++) {
      const step = p.steps[r], last = this.lastStep;
      if (last >= 0 && step <= last) continue;
      if (last >= 0 && step !== last + 1) this.clear();
      const slot = (this.head + this.count) % this.capacity;
      this.steps[slot] = step;
      this.times[slot] = p.times[r];
      for (let c = 0; c < n; c++) this.cols[c][slot] = p.values[r * n + c];
      if (this.count < this.capacity) this.count++;
      else this.head = (this.head + 1) % this.capacity;
    }
  }

  stepAt(k: number): number {
    return this.steps[(this.head + k) % this.capacity];
  }

  timeAt(k: number): number {
    return this.times[(this.head + k) % this.capacity];
  }

  valueAt(col: number, k: number): number {
    return this.cols[col][(this.head + k) % this.capacity];
  }

  /** Index of the first sample with time ≥ t (count when none). */
  lowerBound(t: number): number {
    let lo = 0, hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.timeAt(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The samples of column `col` as plain arrays (test hook: compared with the recording). */
  column(col: number): { steps: number[]; values: number[] } {
    const steps: number[] = [], values: number[] = [];
    for (let k = 0; k < this.count; k++) {
      steps.push(this.stepAt(k));
      values.push(this.valueAt(col, k));
    }
    return { steps, values };
  }
}

/** Decimated data of some columns over a time window: shared x, one y array per column (null: no value). */
export interface Decimated {
  x: number[];
  y: (number | null)[][];
}

/**
 * The samples of `cols` with time in [t0, t1], at most two points per pixel bucket (`buckets`
 * buckets across the window): per column the bucket's minimum and maximum, in the order they
 * occur, at the bucket's first and last sample times. A line through them reaches every extreme,
 * so a one-step spike survives any zoom. Fewer samples than 2 per bucket: returned as they are.
 * Non-finite values (no contact: NaN) are left out of min/max; a bucket with none gives null.
 */
export function decimateMinMax(s: PlotStore, cols: readonly number[], t0: number, t1: number, buckets: number): Decimated {
  const i0 = s.lowerBound(t0), i1 = s.lowerBound(t1 + 1e-12); // [i0, i1)
  const out: Decimated = { x: [], y: cols.map(() => []) };
  const n = i1 - i0;
  if (n <= 0) return out;
  const v = (c: number, k: number): number | null => {
    const x = s.valueAt(c, k);
    return Number.isFinite(x) ? x : null;
  };
  if (n <= 2 * buckets) {
    for (let k = i0; k < i1; k++) {
      out.x.push(s.timeAt(k));
      cols.forEach((c, j) => out.y[j].push(v(c, k)));
    }
    return out;
  }
  const span = t1 - t0 || 1;
  let k = i0;
  while (k < i1) {
    const b = Math.min(buckets - 1, Math.floor(((s.timeAt(k) - t0) / span) * buckets));
    let e = k + 1; // the bucket's samples: [k, e)
    while (e < i1 && Math.min(buckets - 1, Math.floor(((s.timeAt(e) - t0) / span) * buckets)) === b) e++;
    out.x.push(s.timeAt(k));
    if (e - 1 > k) out.x.push(s.timeAt(e - 1));
    cols.forEach((c, j) => {
      let lo = Infinity, hi = -Infinity, ilo = -1, ihi = -1;
      for (let q = k; q < e; q++) {
        const x = s.valueAt(c, q);
        if (!Number.isFinite(x)) continue;
        if (x < lo) { lo = x; ilo = q; }
        if (x > hi) { hi = x; ihi = q; }
      }
      const y = out.y[j];
      if (ilo < 0) {
        y.push(null);
        if (e - 1 > k) y.push(null);
      } else if (e - 1 === k) y.push(lo);
      else if (ilo <= ihi) y.push(lo, hi);
      else y.push(hi, lo);
    });
    k = e;
  }
  return out;
}
