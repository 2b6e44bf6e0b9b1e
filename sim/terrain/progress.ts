/**
 * Progress reporting and cancellation for terrain loads. A load has stages (decode, build the
 * Heightfield); each stage reports its own fraction in [0, 1] and the reporter maps it into the
 * stage's slice of the whole. Calls reach the user's callback only when the overall fraction moved
 * by at least a fifth of TERRAIN_PROGRESS_STEP (1 %), so a stage may report per row without
 * flooding a worker's postMessage queue, and always at the end (1).
 *
 * Cancellation, two ways, both checked at every report (per row or per inflate slice):
 *   - an AbortSignal: once aborted, the load throws TerrainLoadCancelled;
 *   - the onProgress callback throws: its error propagates unchanged (never wrapped into a
 *     TerrainError), so a caller can throw its own cancellation and recognise it.
 * Heightfield.fromArray (validation copy, element classification, pyramid) runs as one step after
 * the last check; it cannot be interrupted.
 */

/** [-] Loaders call onProgress at least this often, as a fraction of the whole load (5 %). */
export const TERRAIN_PROGRESS_STEP = 0.05;

/** Receives the overall fraction done, in [0, 1], non-decreasing. May throw to cancel the load. */
export type TerrainProgress = (fraction: number) => void;

/** Smallest overall change forwarded to the callback. */
const MIN_FORWARDED_STEP = TERRAIN_PROGRESS_STEP / 5;

/** Thrown by a terrain load whose AbortSignal was aborted. `name` is 'AbortError', as fetch does. */
export class TerrainLoadCancelled extends Error {
  constructor(message = 'terrain load cancelled') {
    super(message);
    this.name = 'AbortError';
  }
}

export class ProgressReporter {
  private last = -1;
  private lo = 0;
  private hi = 1;
  /** The error the user's callback threw, if any (so wrappers can let it through unchanged). */
  callbackError: unknown = undefined;

  constructor(
    private readonly callback: TerrainProgress | undefined,
    private readonly signal?: AbortSignal,
  ) {}

  /** Start a stage that covers [lo, hi] of the whole load. */
  stage(lo: number, hi: number): void {
    this.lo = lo;
    this.hi = hi;
    this.local(0);
  }

  /** Report progress within the current stage (fraction in [0, 1]). */
  local(fraction: number): void {
    if (!this.active) return;
    const f = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    this.overall(this.lo + (this.hi - this.lo) * f);
  }

  /** Report the overall fraction directly. Never goes backwards; 1 is always forwarded once. */
  overall(fraction: number): void {
    this.checkCancelled();
    if (this.callback === undefined) return;
    if (fraction <= this.last) return;
    if (fraction >= 1 || fraction - this.last >= MIN_FORWARDED_STEP) {
      this.last = fraction >= 1 ? 1 : fraction;
      try {
        this.callback(this.last);
      } catch (err) {
        this.callbackError = err;
        throw err;
      }
    }
  }

  /** Throws TerrainLoadCancelled if the signal was aborted. */
  checkCancelled(): void {
    if (this.signal?.aborted === true) throw new TerrainLoadCancelled();
  }

  /** True when someone listens or may cancel (lets decoders skip progress bookkeeping). */
  get active(): boolean {
    return this.callback !== undefined || this.signal !== undefined;
  }
}
