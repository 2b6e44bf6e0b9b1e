/**
 * The plots' time window: its length (zoom) and how far it lags the newest sample (pan). Live
 * (offset 0) follows the simulation; panning back freezes the view on history until the user
 * double-clicks (back to live). Pure; unit-tested.
 */

/** [s] Shortest and longest window the mouse wheel zooms to. */
export const WINDOW_MIN_S = 1;
export const WINDOW_MAX_S = 120;

export class TimeWindow {
  /** [s] */
  length: number;
  /** [s] ≥ 0: the window ends this long before the newest sample. */
  offset = 0;

  constructor(length: number) {
    this.length = length;
  }

  get live(): boolean {
    return this.offset === 0;
  }

  /** Zooms by `factor` (> 1 widens) about the window's right edge. */
  zoom(factor: number): void {
    if (!(factor > 0)) return;
    this.length = Math.min(WINDOW_MAX_S, Math.max(WINDOW_MIN_S, this.length * factor));
  }

  /** Pans by `seconds` (positive: back in time), never past the first sample or into the future. */
  pan(seconds: number, newest: number, oldest: number): void {
    const maxOffset = Math.max(0, newest - oldest - this.length);
    this.offset = Math.min(maxOffset, Math.max(0, this.offset + seconds));
  }

  reset(): void {
    this.offset = 0;
  }

  /** [t0, t1] of the window for the newest sample time; writes out. */
  range(out: [number, number], newest: number): [number, number] {
    out[1] = newest - this.offset;
    out[0] = out[1] - this.length;
    return out;
  }
}
