/**
 * Progress reporting for terrain loads. A load has stages (decode, build the Heightfield); each
 * stage reports its own fraction in [0, 1] and the reporter maps it into the stage's slice of the
 * whole. Calls reach the user's callback only when the overall fraction moved by at least a fifth
 * of TERRAIN_PROGRESS_STEP (1 %), so a stage may report per row without flooding a worker's
 * postMessage queue, and always at the end (1).
 */
import { TERRAIN_PROGRESS_STEP } from '../constants';

/** Receives the overall fraction done, in [0, 1], non-decreasing. */
export type TerrainProgress = (fraction: number) => void;

/** Smallest overall change forwarded to the callback. */
const MIN_FORWARDED_STEP = TERRAIN_PROGRESS_STEP / 5;

export class ProgressReporter {
  private last = -1;
  private lo = 0;
  private hi = 1;

  constructor(private readonly callback: TerrainProgress | undefined) {}

  /** Start a stage that covers [lo, hi] of the whole load. */
  stage(lo: number, hi: number): void {
    this.lo = lo;
    this.hi = hi;
    this.local(0);
  }

  /** Report progress within the current stage (fraction in [0, 1]). */
  local(fraction: number): void {
    if (this.callback === undefined) return;
    const f = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    this.overall(this.lo + (this.hi - this.lo) * f);
  }

  /** Report the overall fraction directly. Never goes backwards; 1 is always forwarded once. */
  overall(fraction: number): void {
    if (this.callback === undefined) return;
    if (fraction <= this.last) return;
    if (fraction >= 1 || fraction - this.last >= MIN_FORWARDED_STEP) {
      this.last = fraction >= 1 ? 1 : fraction;
      this.callback(this.last);
    }
  }

  /** True when someone listens (lets decoders skip progress bookkeeping). */
  get active(): boolean {
    return this.callback !== undefined;
  }
}
