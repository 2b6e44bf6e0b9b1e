/**
 * Shared settings of the fuzz suite (issue #18): fixed seeds, fixed iteration counts, and the time
 * and memory budget each input must stay within.
 *
 * CI runs FUZZ_CI_RUNS inputs per property (a few thousand per loader, the whole suite well under a
 * minute on the 2-core machine). `npm run fuzz` sets TERRAWHEEL_FUZZ_SCALE (e.g. 20) to multiply
 * every count and may set TERRAWHEEL_FUZZ_SEED to explore other seeds; a failure prints fast-check's
 * seed and path, and the shrunk input belongs in test/fuzz/regressions/ (replayed on every run).
 */

function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Multiplier on every count (1 in CI). */
export const FUZZ_SCALE = envNumber('TERRAWHEEL_FUZZ_SCALE', 1);

/** Base seed; each property adds its own offset so properties do not share streams. */
export const FUZZ_SEED = envNumber('TERRAWHEEL_FUZZ_SEED', 18);

/** Inputs per property in CI, times FUZZ_SCALE. */
export function runs(ci: number): number {
  return Math.round(ci * FUZZ_SCALE);
}

/**
 * [ms] Most wall time one input may take. A hang or a bomb costs seconds; a healthy decode of
 * these small files takes well under a millisecond, so 1.5 s only fails on a real problem even
 * on a loaded machine.
 */
export const PER_INPUT_BUDGET_MS = 1500;

/** [bytes] Most the process's peak RSS may grow over one property (a bomb would add gigabytes). */
export const PEAK_RSS_BUDGET_BYTES = 768 * 1024 * 1024;

/** [characters] Longest error message accepted: messages quote values, they never dump them. */
export const MAX_MESSAGE_LENGTH = 1000;

/** Peak RSS in bytes (monotonic over the process). */
export function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Run fn, return its wall time in ms. */
export function timed(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}
