/**
 * Per-step plot data in the worker: the series the renderer chose (plot-series.ts) sampled after
 * EVERY simulation step into a ring, not once per frame the renderer happens to draw, so a
 * one-step force spike is kept however slowly the renderer runs. The renderer pulls what is new
 * with each frame (SimService.latestFrame(plotSince)).
 *
 * The ring holds one contiguous run of steps: a jump of the world (a seek, a step back, a new
 * world) drops the samples after the step it lands on (or all of them, jumping ahead), so the
 * steps handed out are always increasing, and a seek never appends out of order.
 *
 * Samples are taken from a float32 copy of the world's report, the very values a recording
 * stores for the step, so the plotted value of a step equals the value the recording gives for it.
 * Nothing allocates per step.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, JOINT_FRAME_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../dynamics/frame-layout';
import type { SeriesDef, SeriesFrame } from './plot-series';
import type { SimWorld } from './sim-world';

/** Steps the ring keeps (164 s at 200 Hz); older samples are dropped. */
export const PLOT_RING_STEPS = 1 << 15;
/** Most series sampled at once. */
export const PLOT_MAX_SAMPLED_SERIES = 24;
/** Most samples handed out per pull (a renderer far behind gets the newest ones). */
export const PLOT_MAX_SAMPLES_PER_PULL = PLOT_RING_STEPS;

/** Samples of steps after the renderer's last one: `values` row-major, one row per step, one column per key. */
export interface PlotSamples {
  /** The series' keys, in column order (the renderer's choice, as the worker applied it). */
  keys: string[];
  /** Step numbers, increasing. */
  steps: Float64Array;
  /** [s] Simulated time of each step. */
  times: Float64Array;
  values: Float32Array;
}

export class PlotSampler {
  private defs: SeriesDef[] = [];
  private keys: string[] = [];
  private readonly steps = new Float64Array(PLOT_RING_STEPS);
  private readonly times = new Float64Array(PLOT_RING_STEPS);
  private values = new Float32Array(0);
  private head = 0;
  count = 0;
  private readonly frame: SeriesFrame & { poses: Float32Array; velocities: Float32Array; joints: Float32Array } = {
    time: 0, speed: 0, poses: new Float32Array(0), velocities: new Float32Array(0), contacts: new Float32Array(0), contactInfo: new Int32Array(0), joints: new Float32Array(0),
  };
  private contactsBuf = new Float32Array(0);
  private infoBuf = new Int32Array(0);

  /** Samples these series from now on (the first PLOT_MAX_SAMPLED_SERIES); clears the ring when they change. */
  setSeries(defs: readonly SeriesDef[]): void {
    const next = defs.slice(0, PLOT_MAX_SAMPLED_SERIES);
    if (next.length === this.keys.length && next.every((d, k) => d.key === this.keys[k])) return;
    this.defs = next;
    this.keys = next.map((d) => d.key);
    this.values = new Float32Array(PLOT_RING_STEPS * next.length);
    this.clear();
  }

  get seriesKeys(): readonly string[] {
    return this.keys;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /** The newest step held, or −1. */
  get lastStep(): number {
    return this.count === 0 ? -1 : this.steps[(this.head + this.count - 1) % PLOT_RING_STEPS];
  }

  /**
   * Samples the world's current step. A step at or before the newest held (the world went back)
   * drops the samples from it on; a step past the newest + 1 (a jump ahead) clears the ring.
   */
  sample(w: SimWorld): void {
    if (this.defs.length === 0) return;
    const step = w.stepCount;
    const last = this.lastStep;
    if (last >= 0 && step <= last) this.truncateFrom(step);
    else if (last >= 0 && step !== last + 1) this.clear();
    const f = this.fill(w);
    const slot = (this.head + this.count) % PLOT_RING_STEPS;
    this.steps[slot] = step;
    this.times[slot] = w.time;
    const n = this.defs.length, row = slot * n, dt = w.dt;
    for (let k = 0; k < n; k++) this.values[row + k] = this.defs[k].sample(f, dt);
    if (this.count < PLOT_RING_STEPS) this.count++;
    else this.head = (this.head + 1) % PLOT_RING_STEPS;
  }

  /** Drops the samples of steps ≥ step. */
  private truncateFrom(step: number): void {
    while (this.count > 0 && this.steps[(this.head + this.count - 1) % PLOT_RING_STEPS] >= step) this.count--;
  }

  /** Samples of steps > `after` (at most PLOT_MAX_SAMPLES_PER_PULL, the newest); fresh arrays the caller may transfer. */
  since(after: number): PlotSamples {
    let first = this.count;
    // the ring is increasing: binary search the first step > after
    let lo = 0, hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.steps[(this.head + mid) % PLOT_RING_STEPS] > after) hi = mid;
      else lo = mid + 1;
    }
    first = Math.max(lo, this.count - PLOT_MAX_SAMPLES_PER_PULL);
    const m = this.count - first, n = this.defs.length;
    const out: PlotSamples = { keys: this.keys.slice(), steps: new Float64Array(m), times: new Float64Array(m), values: new Float32Array(m * n) };
    for (let k = 0; k < m; k++) {
      const slot = (this.head + first + k) % PLOT_RING_STEPS;
      out.steps[k] = this.steps[slot];
      out.times[k] = this.times[slot];
      out.values.set(this.values.subarray(slot * n, slot * n + n), k * n);
    }
    return out;
  }

  /** The float32 frame of the world's step (the recording's values), in buffers reused step to step. */
  private fill(w: SimWorld): SeriesFrame {
    const e = w.engine, r = e.frame(), f = this.frame;
    const nb = e.bodies.count, nc = r.contactCount, nj = e.joints.count;
    if (f.poses.length !== nb * POSE_STRIDE) {
      f.poses = new Float32Array(nb * POSE_STRIDE);
      f.velocities = new Float32Array(nb * VELOCITY_STRIDE);
    }
    f.poses.set(r.poses);
    f.velocities.set(r.velocities);
    if (this.contactsBuf.length < nc * CONTACT_STRIDE) {
      this.contactsBuf = new Float32Array(2 * nc * CONTACT_STRIDE);
      this.infoBuf = new Int32Array(2 * nc * CONTACT_INFO_STRIDE);
    }
    this.contactsBuf.set(r.contacts);
    this.infoBuf.set(r.contactInfo);
    // views sized to this step's contacts (a view object per step only when the count changes)
    if (f.contacts.length !== nc * CONTACT_STRIDE || f.contacts.buffer !== this.contactsBuf.buffer) {
      f.contacts = this.contactsBuf.subarray(0, nc * CONTACT_STRIDE);
      f.contactInfo = this.infoBuf.subarray(0, nc * CONTACT_INFO_STRIDE);
    }
    if (f.joints.length !== nj * JOINT_FRAME_STRIDE) f.joints = new Float32Array(nj * JOINT_FRAME_STRIDE);
    const js = e.joints;
    for (let j = 0; j < nj; j++) {
      f.joints[3 * j] = js.position[j];
      f.joints[3 * j + 1] = js.velocity[j];
      f.joints[3 * j + 2] = (js.impulses[12 * j + 6] * e.substeps) / e.dt; // as SimWorld.frame
    }
    f.time = w.time;
    f.speed = w.speed();
    return f;
  }
}
