/**
 * A sweep file (issue #31): a base scenario, the axes to vary by JSON path into it, how to sample
 * them, replicates, stop conditions and the metrics of each run. Validated with valibot like a
 * scenario (sim/scenario/scenario-schema.ts: strict objects, every rejection names its JSON path);
 * then `expandSweep` turns it into runs, a pure and deterministic function with stable ids.
 *
 *   {
 *     "format": "terrawheel-sweep", "version": 1,
 *     "base": "../scenarios/ramp.json",                      relative to the sweep file
 *     "axes": [
 *       { "path": "robot.position", "values": [[-12, -8], [-12, 0]] },
 *       { "path": "materials.ground.friction", "range": [0.3, 0.9], "steps": 3 }
 *     ],
 *     "sample": "grid",                  or { "kind": "random" | "latin-hypercube", "count", "seed" }
 *     "replicates": 2,
 *     "jitter": [{ "path": "robot.yaw", "amplitude": 0.05 }],
 *     "stop": { "duration": 10, "goal": { "center": [0, 0], "radius": 1 }, "onFault": "stop" },
 *     "metrics": ["distance", "success", "maxTilt"],
 *     "record": false
 *   }
 *
 * What a replicate's seed varies: the scenario format has no random input (no rock field, no
 * sensor noise), so a world built twice from the same JSON is the same world. Each replicate gets
 * the seed `replicate + 1`; the seed drives `jitter` (a uniform offset in [−amplitude, amplitude]
 * added to each listed numeric field, drawn from Rng(seed) in the listed order), and without
 * `jitter` replicates are identical re-runs (the summary then checks their state hashes agree).
 */
import * as v from 'valibot';
import { Rng } from '../math/random';
import { excerpt, ScenarioError } from './scenario-guard';
import { list, num, obj, runSchema, text, vec2 } from './scenario-schema';

/** Most runs a sweep may expand to unless the caller raises it (`--max-runs`). */
export const MAX_SWEEP_RUNS = 100_000;
/** Most axes, listed values per axis, range steps, replicates. */
export const MAX_AXES = 32;
export const MAX_AXIS_VALUES = 10_000;
export const MAX_REPLICATES = 10_000;
/** [s] Longest run. */
export const MAX_RUN_DURATION = 86_400;

/** The metrics a run can compute (sim/batch/run.ts says how; docs/sweeps.md lists them with units). */
export const METRIC_NAMES = [
  'distance', 'timeToGoal', 'success', 'maxWheelDepth', 'p95WheelDepth', 'meanSlip', 'p95Slip', 'maxSlip', 'energy', 'maxTilt', 'minClearance',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** A value in a message: its JSON, cut at 60 characters. */
const describe = (x: unknown): string => {
  const j = JSON.stringify(x) ?? String(x);
  return j.length > 60 ? `${j.slice(0, 59)}…` : j;
};
const got = (what: string) => (issue: v.BaseIssue<unknown>) => `${what}, got ${describe(issue.input)}`;

const AXIS_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(?:\[\d+\]|\.[A-Za-z_][A-Za-z0-9_-]*|\.\d+)*$/;
const axisPath = () =>
  v.custom<string>((x) => typeof x === 'string' && x.length <= 300 && AXIS_PATH.test(x), got('must be a JSON path such as robot.maxTorque or robot.position[1]'));

const valuesAxis = obj({ path: axisPath(), values: list(v.unknown(), MAX_AXIS_VALUES, 1, 'values') });
const rangeAxis = obj({
  path: axisPath(),
  range: v.pipe(
    v.custom<[number, number]>((x) => Array.isArray(x) && x.length === 2 && x.every((n) => typeof n === 'number' && Number.isFinite(n)) && x[0] <= x[1], got('must be [lo, hi], two finite numbers with lo ≤ hi')),
  ),
  steps: v.optional(num({ lo: 1, hi: MAX_AXIS_VALUES, integer: true })),
});
const axisSchema = v.union([valuesAxis, rangeAxis], (issue) => {
  const x = issue.input as Record<string, unknown> | null;
  if (typeof x === 'object' && x !== null && 'values' in x && 'range' in x) return 'an axis has "values" or "range", not both';
  const unknown = typeof x === 'object' && x !== null ? Object.keys(x).find((k) => !['path', 'values', 'range', 'steps'].includes(k)) : undefined;
  if (unknown !== undefined) return `unknown field ${excerpt(unknown, 40)}; allowed: path, values (or range, steps)`;
  return `must be { path, values: [...] } or { path, range: [lo, hi], steps }, got ${describe(issue.input)}`;
});

const sampleSchema = v.union(
  [
    v.custom<'grid'>((x) => x === 'grid', got('must be "grid"')),
    obj({
      kind: v.custom<'random' | 'latin-hypercube'>((x) => x === 'random' || x === 'latin-hypercube', got('must be "random" or "latin-hypercube"')),
      count: num({ lo: 1, hi: 1e12, integer: true }),
      seed: num({ lo: 0, hi: 2 ** 32 - 1, integer: true }),
    }),
  ],
  (issue) => `must be "grid" or { kind: "random" | "latin-hypercube", count, seed }, got ${describe(issue.input)}`,
);

export const sweepSchema = obj({
  format: v.custom<'terrawheel-sweep'>((x) => x === 'terrawheel-sweep', got('must be "terrawheel-sweep"')),
  version: v.custom<1>((x) => x === 1, got('must be 1')),
  name: v.optional(text(200, 'a name')),
  description: v.optional(text(4000, 'a description')),
  base: text(1024, 'the path of the base scenario, relative to the sweep file,'),
  axes: list(axisSchema, MAX_AXES, 0, 'axes'),
  sample: v.optional(sampleSchema),
  replicates: v.optional(num({ lo: 1, hi: MAX_REPLICATES, integer: true })),
  jitter: v.optional(list(obj({ path: axisPath(), amplitude: num({ lo: 0, hi: 1e6 }) }), MAX_AXES, 0, 'jitters { path, amplitude }')),
  stop: obj({
    duration: num({ lo: 0, hi: MAX_RUN_DURATION, loOpen: true, unit: 's' }),
    goal: v.optional(obj({ center: vec2(), radius: num({ lo: 0, hi: 1e6, loOpen: true, unit: 'm' }) })),
    onFault: v.optional(v.custom<'stop'>((x) => x === 'stop', got('must be "stop" (a fault ends the run; the world cannot go on)'))),
  }),
  metrics: list(v.custom<MetricName>((x) => (METRIC_NAMES as readonly unknown[]).includes(x), got(`must be one of ${METRIC_NAMES.join(', ')}`)), METRIC_NAMES.length * 2, 1, 'metric names'),
  record: v.optional(v.custom<boolean>((x) => typeof x === 'boolean', got('must be true or false'))),
});

export type SweepAxis = { path: string; values: unknown[] } | { path: string; range: [number, number]; steps?: number };

export interface Sweep {
  name: string;
  base: string;
  axes: SweepAxis[];
  sample: 'grid' | { kind: 'random' | 'latin-hypercube'; count: number; seed: number };
  replicates: number;
  jitter: { path: string; amplitude: number }[];
  stop: { duration: number; goal: { center: [number, number]; radius: number } | null };
  metrics: MetricName[];
  record: boolean;
}

/** Validates a sweep file's JSON. Throws ScenarioError listing `path: problem` lines. */
export function parseSweep(raw: unknown): Sweep {
  const r = runSchema(sweepSchema, raw, '');
  if (!r.ok) throw new ScenarioError(`sweep: ${r.problems.join('; ')}`);
  const s = r.value;
  const sample = s.sample ?? 'grid';
  const problems: string[] = [];
  s.axes.forEach((a, i) => {
    if (sample === 'grid' && 'range' in a && a.steps === undefined) problems.push(`axes[${i}]: a range axis in a grid needs "steps"`);
    if (s.axes.findIndex((b) => b.path === a.path) !== i) problems.push(`axes[${i}]: the path ${a.path} is already an axis`);
  });
  const metrics = [...new Set(s.metrics)];
  if (problems.length > 0) throw new ScenarioError(`sweep: ${problems.join('; ')}`);
  return {
    name: s.name ?? '',
    base: s.base,
    axes: s.axes as SweepAxis[],
    sample,
    replicates: s.replicates ?? 1,
    jitter: s.jitter ?? [],
    stop: { duration: s.stop.duration, goal: s.stop.goal ? { center: [s.stop.goal.center[0], s.stop.goal.center[1]], radius: s.stop.goal.radius } : null },
    metrics,
    record: s.record ?? false,
  };
}

// --- JSON paths -------------------------------------------------------------------------------

/** "robot.position[1]" → ["robot", "position", 1]. */
export function splitPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\.(\d+)/g)) out.push(m[1] !== undefined ? m[1] : Number(m[2] ?? m[3]));
  return out;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * Why `path` names nothing in `doc`, or null if it names a field: every step but the last must
 * exist; the last may be a missing object field (an optional scenario field, such as
 * robot.maxTorque; the scenario's own schema then says whether the field exists at all).
 */
export function pathProblem(doc: unknown, path: string): string | null {
  const keys = splitPath(path);
  let at: unknown = doc;
  let where = '';
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    const last = k === keys.length - 1;
    if (typeof key === 'number') {
      if (!Array.isArray(at)) return `${where || '(top level)'} is not an array`;
      if (key >= at.length) return `${where} has ${at.length} items, no [${key}]`;
      at = at[key];
      where += `[${key}]`;
    } else {
      if (!isRecord(at)) return `${where || '(top level)'} is not an object`;
      if (!Object.prototype.hasOwnProperty.call(at, key)) {
        if (last) return null;
        return `${where || 'the scenario'} has no field "${key}"`;
      }
      at = at[key];
      where += where === '' ? key : `.${key}`;
    }
  }
  return null;
}

/** A deep copy of `doc` with `path` set to `value` (`doc` untouched; the path must pass pathProblem). */
export function withPath(doc: unknown, path: string, value: unknown): unknown {
  const keys = splitPath(path);
  const root = structuredClone(doc);
  let at = root as Record<string | number, unknown>;
  for (let k = 0; k < keys.length - 1; k++) at = at[keys[k]] as Record<string | number, unknown>;
  at[keys[keys.length - 1]] = structuredClone(value);
  return root;
}

/** The value at `path` (undefined if missing). */
export function atPath(doc: unknown, path: string): unknown {
  let at: unknown = doc;
  for (const key of splitPath(path)) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

// --- expansion --------------------------------------------------------------------------------

/** One run of a sweep: its id, the axis values (by path), its replicate and seed. */
export interface SweepRun {
  id: string;
  index: number;
  params: Record<string, unknown>;
  replicate: number;
  seed: number;
}

/** The values a grid takes on an axis. */
export function axisValues(a: SweepAxis): unknown[] {
  if ('values' in a) return a.values;
  const n = a.steps ?? 1;
  const [lo, hi] = a.range;
  if (n === 1) return [lo];
  const out: number[] = [];
  for (let k = 0; k < n; k++) out.push(k === n - 1 ? hi : lo + ((hi - lo) * k) / (n - 1));
  return out;
}

/** How many runs the sweep expands to (computed without expanding it). */
export function countRuns(s: Sweep): number {
  const points = s.sample === 'grid' ? s.axes.reduce((p, a) => p * axisValues(a).length, 1) : s.sample.count;
  return points * s.replicates;
}

/**
 * Most runs of any sweep, whatever --max-runs says: the driver holds every run and every row in
 * memory and writes them all into one results.csv (a million runs: about 0.4 GB for the runs, as
 * much for the rows, a results.csv of some 200 MB). Larger studies are several sweeps.
 */
export const HARD_MAX_SWEEP_RUNS = 1_000_000;

/** Refuses a sweep over `maxRuns` runs (or over HARD_MAX_SWEEP_RUNS), naming the count. */
export function checkRunCount(s: Sweep, maxRuns = MAX_SWEEP_RUNS): number {
  const n = countRuns(s);
  if (n > HARD_MAX_SWEEP_RUNS) {
    throw new ScenarioError(`sweep: expands to ${n.toLocaleString('en-US')} runs, more than any sweep can hold (${HARD_MAX_SWEEP_RUNS.toLocaleString('en-US')}: every run and row is kept in memory and in one results.csv); split it into several sweeps`);
  }
  if (n > maxRuns) {
    throw new ScenarioError(`sweep: expands to ${n.toLocaleString('en-US')} runs, more than the limit of ${maxRuns.toLocaleString('en-US')} (raise it with --max-runs if you mean it)`);
  }
  return n;
}

/** A sampled point on an axis: `u` in [0, 1) picks a listed value, or a number in the range. */
function sampleAxis(a: SweepAxis, u: number): unknown {
  if ('values' in a) return a.values[Math.min(a.values.length - 1, Math.floor(u * a.values.length))];
  return a.range[0] + (a.range[1] - a.range[0]) * u;
}

/**
 * The runs of a sweep, in id order: points (grid in row-major order, the last axis fastest; or
 * the seeded sample), each repeated `replicates` times (replicate fastest). Ids are `r` and the
 * run's index, zero-padded to at least 4 digits. Pure and deterministic.
 */
export function expandSweep(s: Sweep, maxRuns = MAX_SWEEP_RUNS): SweepRun[] {
  const total = checkRunCount(s, maxRuns);
  const points: unknown[][] = [];
  if (s.sample === 'grid') {
    const vals = s.axes.map(axisValues);
    const n = vals.reduce((p, v) => p * v.length, 1);
    for (let k = 0; k < n; k++) {
      const point: unknown[] = new Array(vals.length);
      let rest = k;
      for (let a = vals.length - 1; a >= 0; a--) {
        point[a] = vals[a][rest % vals[a].length];
        rest = Math.floor(rest / vals[a].length);
      }
      points.push(point);
    }
  } else {
    const rng = new Rng(s.sample.seed);
    const count = s.sample.count;
    if (s.sample.kind === 'random') {
      for (let k = 0; k < count; k++) points.push(s.axes.map((a) => sampleAxis(a, rng.next())));
    } else {
      // Latin hypercube: each axis's [0, 1) cut into `count` strata, one sample in each, the
      // strata of the axes paired by independent seeded shuffles (Fisher–Yates).
      const columns = s.axes.map((a) => {
        const strata = Array.from({ length: count }, (_, k) => k);
        for (let k = count - 1; k > 0; k--) {
          const j = Math.floor(rng.next() * (k + 1));
          [strata[k], strata[j]] = [strata[j], strata[k]];
        }
        return strata.map((st) => sampleAxis(a, (st + rng.next()) / count));
      });
      for (let k = 0; k < count; k++) points.push(columns.map((c) => c[k]));
    }
  }
  const width = Math.max(4, String(total - 1).length);
  const runs: SweepRun[] = [];
  for (const point of points) {
    for (let r = 0; r < s.replicates; r++) {
      const index = runs.length;
      const params: Record<string, unknown> = {};
      s.axes.forEach((a, i) => (params[a.path] = point[i]));
      runs.push({ id: `r${String(index).padStart(width, '0')}`, index, params, replicate: r, seed: r + 1 });
    }
  }
  return runs;
}

/** The base scenario with a run's axis values and its replicate's jitter applied. */
export function runScenario(base: unknown, s: Sweep, run: SweepRun): unknown {
  let doc = base;
  for (const [path, value] of Object.entries(run.params)) doc = withPath(doc, path, value);
  if (s.jitter.length > 0) {
    const rng = new Rng(run.seed);
    for (const j of s.jitter) {
      const x = atPath(doc, j.path);
      const u = rng.next();
      if (typeof x === 'number') doc = withPath(doc, j.path, x + (2 * u - 1) * j.amplitude);
    }
  }
  return doc;
}

/**
 * Checks the axes and jitters against the base scenario before anything runs: each path must name
 * a field (pathProblem), and `validate` (the scenario parser, and the file loads) must accept the
 * base with each listed value, each range end, applied alone. Throws ScenarioError naming the axis.
 */
export function checkSweepAgainstBase(s: Sweep, base: unknown, validate: (scenario: unknown) => void): void {
  const problems: string[] = [];
  const tryValue = (label: string, path: string, value: unknown) => {
    try {
      validate(withPath(base, path, value));
    } catch (e) {
      problems.push(`${label} (${path}) = ${describe(value)}: ${(e as Error).message}`);
    }
  };
  s.axes.forEach((a, i) => {
    const p = pathProblem(base, a.path);
    if (p !== null) return void problems.push(`axes[${i}]: the path ${a.path} names nothing in the base scenario: ${p}`);
    const probe = 'values' in a ? a.values : [a.range[0], a.range[1]];
    for (const value of probe) tryValue(`axes[${i}]`, a.path, value);
  });
  s.jitter.forEach((j, i) => {
    const p = pathProblem(base, j.path);
    if (p !== null) return void problems.push(`jitter[${i}]: the path ${j.path} names nothing in the base scenario: ${p}`);
    const x = atPath(base, j.path) ?? (s.axes.find((a) => a.path === j.path) ? 0 : undefined);
    if (typeof x !== 'number') problems.push(`jitter[${i}]: ${j.path} must hold a number in the base scenario, got ${describe(x)}`);
  });
  if (problems.length > 0) throw new ScenarioError(`sweep: ${problems.slice(0, 8).join('; ')}${problems.length > 8 ? `; … and ${problems.length - 8} more` : ''}`);
}
