/**
 * Shared settings of the fuzz suite (issue #18): fixed seeds, fixed iteration counts, and the time
 * and memory budget each input must stay within.
 *
 * CI runs the counts written in each test (a few thousand per loader, the whole suite well under
 * a minute on the 2-core machine). `npm run fuzz` (package.json: "fuzz": "vitest run test/fuzz")
 * runs NPM_FUZZ_SCALE times as many: npm names the running script in npm_lifecycle_event.
 * TERRAWHEEL_FUZZ_SCALE overrides the multiplier and TERRAWHEEL_FUZZ_SEED the seed (to explore
 * other inputs); a failure prints fast-check's seed and path, and the input belongs in
 * test/fixtures/bad-inputs/ (replayed on every run).
 */

function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Multiplier of `npm run fuzz`. */
export const NPM_FUZZ_SCALE = 20;

/** Multiplier on every count (1 in CI). */
export const FUZZ_SCALE = envNumber('TERRAWHEEL_FUZZ_SCALE', process.env.npm_lifecycle_event === 'fuzz' ? NPM_FUZZ_SCALE : 1);

/** [ms] Test timeout of one fuzz property, scaled with the counts. */
export const FUZZ_TIMEOUT_MS = 120_000 * FUZZ_SCALE;

/** Base seed; each property adds its own offset so properties do not share streams. */
export const FUZZ_SEED = envNumber('TERRAWHEEL_FUZZ_SEED', 18);

/** Inputs per property in CI, times FUZZ_SCALE. */
export function runs(ci: number): number {
  return Math.round(ci * FUZZ_SCALE);
}

/**
 * [ms] Most CPU time (this process's user + system time, not wall time) one input may take. A
 * hang or a bomb costs seconds; a healthy decode of these small files takes well under a
 * millisecond. CPU time does not grow when other processes load the machine, so the budget holds
 * on a busy machine where a wall-clock budget would not (issue #26: no wall-clock budgets).
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

/** [ms] This process's CPU time so far (user + system, all its threads). */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Run fn, return the CPU time it took in ms (see PER_INPUT_BUDGET_MS). */
export function timed(fn: () => void): number {
  const t = cpuMs();
  fn();
  return cpuMs() - t;
}
