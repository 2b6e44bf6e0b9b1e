/**
 * Pure pieces of the renderer benchmark: quantiles, the measured window's per-frame statistics
 * from the app's frame-timing ring (renderer/render-stats.ts), and the markdown table.
 */

/** Quantile q ∈ [0, 1] by the nearest-rank method (no interpolation); NaN for no data. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[k];
}

export interface FrameTimingSnapshot {
  count: number;
  startMs: number[];
  callbackMs: number[];
}

export interface WindowFrames {
  /** Frames that started inside the window. */
  frames: number;
  /** [ms] In-app frame callback durations of those frames. */
  callbackMs: number[];
  /** [ms] Intervals between consecutive frame starts inside the window. */
  intervalMs: number[];
}

/** The frames of `snap` whose start lies in [t0, t1] (page performance.now() times, ms). */
export function framesInWindow(snap: FrameTimingSnapshot, t0: number, t1: number): WindowFrames {
  const callbackMs: number[] = [];
  const intervalMs: number[] = [];
  let prev = NaN;
  for (let k = 0; k < snap.startMs.length; k++) {
    const t = snap.startMs[k];
    if (t < t0 || t > t1) continue;
    callbackMs.push(snap.callbackMs[k]);
    if (!Number.isNaN(prev)) intervalMs.push(t - prev);
    prev = t;
  }
  return { frames: callbackMs.length, callbackMs, intervalMs };
}

export interface CaseResult {
  /** e.g. "1025² + rover + 100 rocks". */
  label: string;
  /** Why there are no numbers (timeout, crash), or null. */
  failure: string | null;
  /** [s] From choosing the scenario to its first frame drawn. */
  loadS?: number;
  /** Frames drawn in the measured window, and the window's wall time [s]. */
  frames?: number;
  windowS?: number;
  /** [ms] Main-thread script time per frame: Performance.getMetrics ScriptDuration delta / frames. */
  scriptMsPerFrame?: number;
  /** [ms] Main-thread busy time per frame (TaskDuration delta / frames: script, style, layout, GL command encoding). */
  taskMsPerFrame?: number;
  /** [ms] In-app frame callback time, median and p95. */
  callbackMs?: [number, number];
  /** [ms] Frame interval, median and p95. */
  intervalMs?: [number, number];
  /** [B] JS heap used after a forced GC, and ArrayBuffer backing stores (Runtime.getHeapUsage). */
  jsHeapBytes?: number;
  arrayBufferBytes?: number;
  /** [B] Terrain geometry and textures held by three.js; vertices; mesh stride. */
  terrainGpuBytes?: number;
  terrainVertices?: number;
  terrainStride?: number;
  /** [B] Typed arrays in WorldInfo.terrain; everything the worker posted during the load; per frame while driving. */
  terrainBytesFromWorker?: number;
  workerBytesAtLoad?: number;
  workerBytesPerFrame?: number;
  /** Simulated seconds per wall-clock second reported by the worker at the end. */
  realtimeFactor?: number;
}

const MiB = 1024 * 1024;
const f1 = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1));
const f2 = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));
const mib = (x: number | undefined): string => (x === undefined ? '–' : (x / MiB).toFixed(1));

export const TABLE_HEADER = [
  '| case | load [s] | frames / window [s] | script ms/frame (CDP) | main-thread busy ms/frame | frame callback ms median / p95 | frame interval ms median / p95 | JS heap / ArrayBuffers [MiB] | terrain GPU [MiB] (vertices, stride) | from worker: terrain / load / per frame |',
  '|---|---:|---:|---:|---:|---|---|---|---|---|',
];

export function tableRow(r: CaseResult): string {
  if (r.failure !== null) return `| ${r.label} | ${r.loadS === undefined ? '–' : f1(r.loadS)} | **${r.failure}** | | | | | | | |`;
  const pair = (p: [number, number] | undefined, f: (x: number) => string): string => (p ? `${f(p[0])} / ${f(p[1])}` : '–');
  return [
    '',
    ` ${r.label} `,
    ` ${f1(r.loadS)} `,
    ` ${r.frames ?? '–'} / ${f1(r.windowS)} `,
    ` **${f2(r.scriptMsPerFrame)}** `,
    ` ${f2(r.taskMsPerFrame)} `,
    ` ${pair(r.callbackMs, f2)} `,
    ` ${pair(r.intervalMs, f1)} `,
    ` ${mib(r.jsHeapBytes)} / ${mib(r.arrayBufferBytes)} `,
    ` ${mib(r.terrainGpuBytes)} (${r.terrainVertices ?? '–'}, ${r.terrainStride ?? '–'}) `,
    ` ${mib(r.terrainBytesFromWorker)} MiB / ${mib(r.workerBytesAtLoad)} MiB / ${r.workerBytesPerFrame === undefined ? '–' : (r.workerBytesPerFrame / 1024).toFixed(1)} KiB `,
    '',
  ].join('|');
}
