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
  /** [ms] Main-thread script CPU time per frame: Performance.getMetrics ScriptDuration delta (thread clock) / frames. */
  scriptMsPerFrame?: number;
  /** [ms] Main-thread busy CPU time per frame (TaskDuration delta / frames: script, style, layout, paint, GC). */
  taskMsPerFrame?: number;
  /** [ms] Main-thread script time per frame from a trace of a second window, CPU and wall clock: median / p95, mean; frames traced. */
  tracedScriptMs?: [number, number];
  tracedScriptMeanMs?: number;
  tracedScriptWallMs?: [number, number];
  tracedFrames?: number;
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
  /**
   * [B] Terrain the renderer holds (the test hook's `terrain`, view3d/terrain-view.ts stats): the
   * cached chunk meshes (drawn or kept in the LRU cache) and how many are drawn, the overview's
   * heights, the exact-height tiles of the inspectors; and the patch heights received so far.
   */
  terrainMeshBytes?: number;
  terrainChunks?: [drawn: number, cached: number];
  terrainOverviewBytes?: number;
  terrainExactBytes?: number;
  terrainPatchBytesReceived?: number;
  /** A line printed with the case (where the rover is, the app's warnings). */
  note?: string;
  /** Simulated seconds per wall-clock second reported by the worker at the end. */
  realtimeFactor?: number;
}

const MiB = 1024 * 1024;
const f1 = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1));
const f2 = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));
const mib = (x: number | undefined): string => (x === undefined ? '–' : (x / MiB).toFixed(1));

export const TABLE_HEADER = [
  '| case | load [s] | frames / window [s] | script CPU ms/frame, CDP mean | script CPU ms/frame, traced median / p95 (mean) | script wall ms/frame, traced median / p95 | main-thread busy CPU ms/frame | frame callback ms median / p95 | frame interval ms median / p95 | JS heap / ArrayBuffers [MiB] | terrain GPU [MiB] (vertices, stride) | from worker: terrain / load / per frame | renderer terrain [MiB]: chunk meshes (drawn / cached chunks) / overview / exact tiles; patches received |',
  '|---|---:|---:|---:|---|---|---:|---|---|---|---|---|---|',
];

export function tableRow(r: CaseResult): string {
  if (r.failure !== null) return `| ${r.label} | ${r.loadS === undefined ? '–' : f1(r.loadS)} | **${r.failure}** | | | | | | | | | | |`;
  const pair = (p: [number, number] | undefined, f: (x: number) => string): string => (p ? `${f(p[0])} / ${f(p[1])}` : '–');
  return [
    '',
    ` ${r.label} `,
    ` ${f1(r.loadS)} `,
    ` ${r.frames ?? '–'} / ${f1(r.windowS)} `,
    ` **${f2(r.scriptMsPerFrame)}** `,
    ` ${pair(r.tracedScriptMs, f2)} (${f2(r.tracedScriptMeanMs)}) `,
    ` ${pair(r.tracedScriptWallMs, f2)} `,
    ` ${f2(r.taskMsPerFrame)} `,
    ` ${pair(r.callbackMs, f2)} `,
    ` ${pair(r.intervalMs, f1)} `,
    ` ${mib(r.jsHeapBytes)} / ${mib(r.arrayBufferBytes)} `,
    ` ${mib(r.terrainGpuBytes)} (${r.terrainVertices ?? '–'}, ${r.terrainStride ?? '–'}) `,
    ` ${mib(r.terrainBytesFromWorker)} MiB / ${mib(r.workerBytesAtLoad)} MiB / ${r.workerBytesPerFrame === undefined ? '–' : (r.workerBytesPerFrame / 1024).toFixed(1)} KiB `,
    ` ${mib(r.terrainMeshBytes)} (${r.terrainChunks ? `${r.terrainChunks[0]} / ${r.terrainChunks[1]}` : '–'}) / ${mib(r.terrainOverviewBytes)} / ${mib(r.terrainExactBytes)}; ${mib(r.terrainPatchBytesReceived)} `,
    '',
  ].join('|');
}

/** One Chrome trace event (the fields used here; times in µs). */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread-clock (CPU time) start and duration, when the tracer recorded them. */
  tts?: number;
  tdur?: number;
}

/**
 * Top-level JavaScript on a renderer's main thread, as DevTools' "Scripting" counts it: running
 * a function (event listeners, message handlers, promise reactions), a script or module, an
 * animation-frame callback or a timer, and compiling. Nested events overlap their parents; the
 * union of their intervals is what is counted.
 */
export const SCRIPT_TRACE_EVENTS: ReadonlySet<string> = new Set([
  'FunctionCall', 'EvaluateScript', 'RunMicrotasks', 'FireAnimationFrame', 'TimerFire', 'V8.Execute',
  'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'v8.callFunction', 'v8.run',
]);

/**
 * Main-thread script time per drawn frame [ms] from a trace. The thread is the one with the most
 * FireAnimationFrame events. A frame may run several animation-frame callbacks (ours and the pixi
 * panels' tickers), so frame k starts at the first FireAnimationFrame after the previous frame's
 * PrePaint (the paint step every drawn frame ends with) and runs to the next frame's start; the
 * last, open-ended frame is dropped. Its script time is the union of the SCRIPT_TRACE_EVENTS
 * intervals on that thread clipped to the frame (script after one frame's paint and before the
 * next frame's first callback, e.g. worker message handlers, counts in the earlier frame).
 * `clock`: 'wall' (ts, dur) or 'thread' (tts, tdur: the thread's CPU time, which a busy machine's
 * preemption does not inflate; events without them are skipped).
 */
export function scriptMsPerFrameFromTrace(events: readonly TraceEvent[], clock: 'wall' | 'thread' = 'wall'): number[] {
  const perThread = new Map<string, number>();
  for (const e of events) {
    if (e.name === 'FireAnimationFrame' && e.ph === 'X') {
      const key = `${e.pid}:${e.tid}`;
      perThread.set(key, (perThread.get(key) ?? 0) + 1);
    }
  }
  let main = '';
  let most = 0;
  for (const [k, n] of perThread) if (n > most) [main, most] = [k, n];
  if (most < 2) return [];
  const callbacks: number[] = [];
  const paints: number[] = [];
  const spans: [number, number][] = [];
  for (const e of events) {
    const ts = clock === 'wall' ? e.ts : e.tts;
    const dur = clock === 'wall' ? e.dur : e.tdur;
    if (e.ph !== 'X' || ts === undefined || dur === undefined || `${e.pid}:${e.tid}` !== main) continue;
    if (e.name === 'PrePaint') paints.push(ts);
    if (!SCRIPT_TRACE_EVENTS.has(e.name)) continue;
    if (e.name === 'FireAnimationFrame') callbacks.push(ts);
    spans.push([ts, ts + dur]);
  }
  callbacks.sort((a, b) => a - b);
  paints.sort((a, b) => a - b);
  spans.sort((a, b) => a[0] - b[0]);
  const frameStarts: number[] = [];
  let p = 0;
  for (const t of callbacks) {
    let painted = false;
    while (p < paints.length && paints[p] < t) {
      painted = true;
      p++;
    }
    if (painted || frameStarts.length === 0) frameStarts.push(t);
  }
  // Union of the spans (sorted by start, merged when they overlap).
  const merged: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const out: number[] = [];
  let m = 0;
  for (let k = 0; k + 1 < frameStarts.length; k++) {
    const f0 = frameStarts[k], f1 = frameStarts[k + 1];
    while (m < merged.length && merged[m][1] <= f0) m++;
    let sum = 0;
    for (let q = m; q < merged.length && merged[q][0] < f1; q++) sum += Math.min(f1, merged[q][1]) - Math.max(f0, merged[q][0]);
    out.push(sum / 1000);
  }
  return out;
}

/** A V8 CPU profile (CDP Profiler.stop), the fields used here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

/**
 * The `top` functions with the most self time in a CPU profile, as lines "ms/frame  name  file"
 * (self time = the profile's duration × the function's share of the samples; idle, program and
 * GC are listed like functions).
 */
export function profileSummary(p: CpuProfile, frames: number, top = 15): string[] {
  const total = p.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
  if (total === 0 || frames <= 0) return [];
  const ms = (p.endTime - p.startTime) / 1000;
  const byName = new Map<string, number>();
  for (const n of p.nodes) {
    if (!n.hitCount) continue;
    const file = n.callFrame.url.split('/').pop() ?? '';
    const key = `${n.callFrame.functionName || '(anonymous)'}  ${file}${file ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    byName.set(key, (byName.get(key) ?? 0) + n.hitCount);
  }
  return [...byName].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, h]) => `${((ms * h) / total / frames).toFixed(3)} ms/frame  ${k}`);
}
