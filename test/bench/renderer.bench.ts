/**
 * Renderer benchmark (issue #17): the web app in headless Chromium with a 1025² and a 4097²
 * terrain, the built-in rover and the vehicle bench's 100 rocks (test/bench/renderer/scenario.ts),
 * driving. Per case: the main thread's script time per drawn frame (target: under 8 ms), the
 * frame interval, and the memory the renderer holds for the terrain.
 *
 * How it runs: builds the web app when dist/web is older than its sources (`npm run build:web`,
 * as the e2e setup does), copies it to a temporary folder with each case's scenario, raw-f32
 * terrain and an extended assets-manifest.json (so the case appears in the app's own bundled
 * scenario menu and loads through the normal web-host path), serves it with
 * scripts/serve-web.mjs, and drives Debian's Chromium (/usr/bin/chromium, SwiftShader WebGL)
 * through Playwright's library API. One fresh browser context per case: open the app, pick the
 * case from the scenario menu (clicking "Load" if the large-terrain estimate asks), wait for the
 * world, let it drive `warmup` frames, then measure over `window` frames (or `windowMaxS`), twice:
 * a plain window, then a traced one.
 *
 * What is measured (all of it on the page's main thread; the simulation worker's own time is not
 * included, which is the point: the renderer must leave the frame budget to drawing):
 * - script CPU ms/frame, CDP mean: Performance.getMetrics ScriptDuration on the thread clock
 *   (main-thread CPU time, which preemption on a busy shared machine does not inflate) over the
 *   plain window / frames drawn in it: all JS on the main thread (our render loop, three.js,
 *   Comlink message handling, the panels; this bench's polls of the test hook, one per 2 s).
 * - script CPU and wall ms/frame, traced median / p95: the traced window's script events per drawn
 *   frame (test/bench/renderer/measure.ts scriptMsPerFrameFromTrace).
 * - main-thread busy CPU ms/frame: TaskDuration likewise (adds style, layout, paint, GC).
 * - frame callback ms median / p95: the app's own performance.now() around its
 *   requestAnimationFrame callback (renderer/render-stats.ts FrameTiming through the test hook).
 * - frame interval median / p95: between consecutive callback starts. SwiftShader rasterises on
 *   the CPU (in Chromium's GPU process), so the interval here mostly measures software
 *   rasterisation on a shared 2-core machine, not our code: read the script columns for that.
 * - JS heap used (after a forced GC) and ArrayBuffer backing stores (Runtime.getHeapUsage:
 *   typed arrays live outside the JS heap, so the terrain's heights and mesh arrays show there).
 * - terrain GPU bytes: three.js geometry attributes, indices and data textures under the scene's
 *   'terrain' object(s) (renderer/render-stats.ts terrainGpuMemory), with vertex count and stride.
 *   On SwiftShader the app draws at most 257² terrain vertices (renderer/config.ts), so big maps
 *   are decimated here; a hardware GPU gets up to 1025² at stride 1.
 * - from worker: typed-array bytes of the WorldInfo.terrain the worker returned (the overview since
 *   the chunked LOD terrain); all bytes the page received in messages from the worker during the
 *   load (counted by an init script around Worker 'message' events); and bytes per drawn frame
 *   while driving (pose and contact frames plus the terrainPatch transfers).
 * - renderer terrain: what the LOD terrain holds at the end (test hook `terrain`): chunk mesh
 *   bytes of every cached chunk (drawn, and kept in the LRU cache), the overview's heights and the
 *   inspectors' exact-height tiles; and the patch heights received from the worker so far (chunks
 *   and exact tiles).
 *
 * RENDERER_BENCH_PROFILE=<dir>: one more window under CDP's sampling profiler; the profile is
 * written to <dir>/<case>.cpuprofile and the functions with the most self time are printed.
 *
 * A case that does not load within `loadTimeoutS` (180 s), or whose page crashes, gives a row saying so
 * and the bench goes on (RENDERER_BENCH_LOAD_TIMEOUT_S overrides the limit, e.g. 1 to see such a
 * row). `--quick`: the 1025² case only, shorter warm-up and window.
 *
 * Run: `npm run bench -- renderer [--quick]`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { buildRendererBenchFiles, type RendererBenchFiles } from './renderer/scenario';
import { framesInWindow, profileSummary, quantile, scriptMsPerFrameFromTrace, TABLE_HEADER, tableRow, type CaseResult, type FrameTimingSnapshot, type TraceEvent } from './renderer/measure';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = '/usr/bin/chromium';
/** The e2e suite's browser flags (playwright.config.ts): software WebGL through ANGLE + SwiftShader. */
const CHROMIUM_ARGS = [
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** [px] The e2e viewport. */
const VIEWPORT = { width: 960, height: 640 };

interface Settings {
  sizes: number[];
  /** Frames drawn after the world is in place before measuring. */
  warmup: number;
  /** Frames measured. */
  window: number;
  /** [s] Longest measured window (slow frames end it early; the row gives the frames measured). */
  windowMaxS: number;
  /** [s] Longest load. */
  loadTimeoutS: number;
}

const FULL: Settings = { sizes: [1025, 4097], warmup: 60, window: 300, windowMaxS: 120, loadTimeoutS: 180 };
const QUICK: Settings = { sizes: [1025], warmup: 20, window: 60, windowMaxS: 30, loadTimeoutS: 90 };

/** Trace categories of the second window: the timeline's script events and V8's execution spans. */
const TRACE_CATEGORIES = ['devtools.timeline', 'v8.execute', 'v8'];

/** [ms] Poll period of the test hook while loading (the load time's resolution). */
const POLL_MS = 250;
/**
 * [ms] Poll period while measuring: each poll reads the test hook, whose getter builds the whole
 * snapshot on the main thread; every 2 s keeps that out of the numbers (well under 1 %).
 */
const WINDOW_POLL_MS = 2000;

/** [µs] Sampling interval of the optional CPU profile (RENDERER_BENCH_PROFILE). */
const PROFILE_SAMPLING_US = 100;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Newest modification time under `p` (files and folders, recursively). */
function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const name of readdirSync(p)) t = Math.max(t, newestMtime(join(p, name)));
  return t;
}

/** Builds dist/web when it is missing or older than what it is built from. */
function ensureWebBuild(): void {
  const index = join(repo, 'dist/web/index.html');
  const sources = ['renderer', 'sim', 'assets', 'electron', 'vite.config.ts', 'package.json', 'tsconfig.renderer.json'];
  const newest = Math.max(...sources.map((s) => newestMtime(join(repo, s))));
  if (existsSync(index) && statSync(index).mtimeMs >= newest) {
    console.log('\nweb build: dist/web is up to date');
    return;
  }
  console.log('\nweb build: npm run build:web …');
  const t0 = performance.now();
  const r = spawnSync('npm', ['run', 'build:web'], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build:web failed (${r.status}):\n${(r.stdout + r.stderr).slice(-2000)}`);
  console.log(`web build: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** A copy of dist/web with the cases' files under assets/ and listed in assets-manifest.json. */
function stageSite(cases: RendererBenchFiles[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'terrawheel-renderer-bench-'));
  cpSync(join(repo, 'dist/web'), dir, { recursive: true });
  const manifestPath = join(dir, 'assets-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { path: string; kind: string; size: number }[];
  for (const c of cases) {
    for (const f of c.files) {
      writeFileSync(join(dir, 'assets', f.path), f.bytes);
      const kind = f.path.startsWith('scenarios/') ? 'scenario' : f.path.endsWith('.json') ? 'terrain' : 'terrain-image';
      manifest.push({ path: f.path, kind, size: f.bytes.length });
    }
  }
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return dir;
}

/** scripts/serve-web.mjs on a free port; resolves with its base URL once it listens. */
function startServer(dir: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [join(repo, 'scripts/serve-web.mjs'), '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve-web did not start: ${out}`)), 15_000);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /TerraWheel web app: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ url: m[1], proc });
      }
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve-web exited (${code}): ${out}`));
    });
  });
}

/**
 * Counts the bytes of every message the page receives from a Worker (typed arrays and
 * ArrayBuffers in the structured-cloned data, each event once), in window.__benchWorkerBytes.
 * A string, not a function: the bench runs under tsx, whose transform may add helpers to
 * functions that do not exist in the page.
 */
const WORKER_BYTES_INIT = `(() => {
  const stats = { bytes: 0, messages: 0 };
  Object.defineProperty(window, '__benchWorkerBytes', { value: stats });
  const seenEvents = new WeakSet();
  const count = (v, depth, seen) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return 0;
    seen.add(v);
    if (ArrayBuffer.isView(v)) return v.byteLength;
    if (v instanceof ArrayBuffer) return v.byteLength;
    if (depth >= 8) return 0;
    let s = 0;
    for (const x of Array.isArray(v) ? v : Object.values(v)) s += count(x, depth + 1, seen);
    return s;
  };
  const wrapped = new WeakMap();
  const add = Worker.prototype.addEventListener;
  const remove = Worker.prototype.removeEventListener;
  Worker.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message' || typeof listener !== 'function') return add.call(this, type, listener, options);
    let w = wrapped.get(listener);
    if (!w) {
      w = function (e) {
        if (!seenEvents.has(e)) {
          seenEvents.add(e);
          stats.messages++;
          stats.bytes += count(e.data, 0, new Set());
        }
        return listener.call(this, e);
      };
      wrapped.set(listener, w);
    }
    return add.call(this, type, w, options);
  };
  Worker.prototype.removeEventListener = function (type, listener, options) {
    return remove.call(this, type, (typeof listener === 'function' && wrapped.get(listener)) || listener, options);
  };
})();`;

interface LoadState {
  scenarioName: string | null;
  loads: number;
  framesRendered: number;
  error: string | null;
  hasFrame: boolean;
  askLoad: boolean;
  progress: string;
}

const LOAD_STATE = `(() => {
  const h = window.__terrawheel;
  const go = document.getElementById('load-cost-go');
  const p = document.getElementById('progress-label');
  const box = document.getElementById('progress');
  if (!h) return null;
  return {
    scenarioName: h.scenarioName, loads: h.loads, framesRendered: h.framesRendered, error: h.error,
    hasFrame: h.lastFrame !== null,
    askLoad: !!(go && go.isConnected && !go.hidden && box && !box.hidden),
    progress: (box && !box.hidden && p ? p.textContent : '') || '',
  };
})()`;

interface WindowMark {
  frames: number;
  now: number;
  workerBytes: number;
}

const WINDOW_MARK = `(() => ({ frames: window.__terrawheel.framesRendered, now: performance.now(), workerBytes: window.__benchWorkerBytes ? window.__benchWorkerBytes.bytes : 0 }))()`;

/** [s] The default-scene case's window: 10 s of the default world driving its script. */
const DEFAULT_SCENE_WINDOW_S = 10;

interface EndState {
  frameTiming: FrameTimingSnapshot;
  terrainGpu: { bytes: number; geometries: number; vertices: number; visibleVertices: number } | undefined;
  terrainBytesFromWorker: number | undefined;
  terrainStride: number;
  terrain: { drawnChunks: number; cachedChunks: number; meshBytes: number; overviewBytes: number; bytesReceived: number; exactBytes: number; exactBytesReceived: number } | null | undefined;
  realtimeFactor: number | null;
  step: number | null;
  chassis: number[] | null;
  warnings: string[];
}

const END_STATE = `(() => {
  const h = window.__terrawheel;
  return {
    frameTiming: h.frameTiming, terrainGpu: h.terrainGpu, terrainBytesFromWorker: h.terrainBytesFromWorker,
    terrainStride: h.terrainStride, terrain: h.terrain,
    realtimeFactor: h.lastFrame ? h.lastFrame.realtimeFactor : null, step: h.lastFrame ? h.lastFrame.step : null,
    chassis: h.lastFrame ? h.lastFrame.chassis : null, warnings: h.warnings,
  };
})()`;

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const out: Record<string, number> = {};
  for (const m of list) out[m.name] = m.value;
  return out;
}

class CaseFailure extends Error {}

/**
 * `c` null: the default scene as the app opens it (the bundled default world driving its script),
 * measured over DEFAULT_SCENE_WINDOW_S of wall time, with nothing of the bench's own on the page
 * (no worker-message counting wrapper): all main-thread script as DevTools counts it, per frame drawn.
 */
async function runCase(browser: Browser, url: string, c: RendererBenchFiles | null, s: Settings): Promise<CaseResult> {
  const warmupMaxS = s.windowMaxS;
  if (c === null) s = { ...s, window: Number.MAX_SAFE_INTEGER, windowMaxS: DEFAULT_SCENE_WINDOW_S };
  const label = c ? `${c.cols}² + rover + ${c.rocks} rocks` : 'default scene (hills, rover)';
  const result: CaseResult = { label, failure: null };
  const context = await browser.newContext({ viewport: VIEWPORT });
  let crashed = false;
  try {
    const page: Page = await context.newPage();
    page.on('crash', () => (crashed = true));
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    if (c) await page.addInitScript({ content: WORKER_BYTES_INIT });
    const cdp = await context.newCDPSession(page);
    // Thread clock: CPU time of the main thread, which preemption on a busy machine does not inflate.
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });

    const state = async (): Promise<LoadState | null> => {
      if (crashed) throw new CaseFailure('page crashed (renderer process out of memory?)');
      return (await page.evaluate(LOAD_STATE)) as LoadState | null;
    };
    const waitFor = async (what: string, timeoutS: number, done: (st: LoadState) => boolean, onPoll?: (st: LoadState) => Promise<void>): Promise<LoadState> => {
      const deadline = performance.now() + timeoutS * 1000;
      let last: LoadState | null = null;
      for (;;) {
        last = await state();
        if (last && done(last)) return last;
        if (last && onPoll) await onPoll(last);
        if (performance.now() > deadline) {
          const where = last?.progress ? ` (progress: "${last.progress}")` : '';
          throw new CaseFailure(`${what}: not done within ${timeoutS} s${where}`);
        }
        await sleep(POLL_MS);
      }
    };

    await page.goto(url, { timeout: 60_000 });
    const start = await waitFor('default world', 60, (st) => st.hasFrame && st.loads >= 1);
    // Pick the case from the app's own bundled-scenario menu.
    const workerBytes0 = c ? ((await page.evaluate('window.__benchWorkerBytes.bytes')) as number) : 0;
    const t0 = performance.now();
    if (c) await page.selectOption('#scenario-menu', `scenarios/${c.name}.json`);
    let clicked = false;
    if (c) try {
      await waitFor(`load of ${c.name}`, s.loadTimeoutS, (st) => st.scenarioName === c.scenarioName && st.loads > start.loads && st.hasFrame, async (st) => {
        if (st.error && st.loads === start.loads && !st.progress) throw new CaseFailure(`load failed: ${st.error}`);
        if (st.askLoad && !clicked) {
          clicked = true;
          await page.click('#load-cost-go');
        }
      });
    } catch (e) {
      result.loadS = (performance.now() - t0) / 1000;
      throw e;
    }
    result.loadS = (performance.now() - t0) / 1000;
    if (c) result.workerBytesAtLoad = ((await page.evaluate('window.__benchWorkerBytes.bytes')) as number) - workerBytes0;

    // Let it drive (the rocks settle, the camera catches up, three.js compiles its shaders).
    const f0 = ((await state())?.framesRendered ?? 0);
    await waitFor('warm-up', warmupMaxS, (st) => st.framesRendered >= f0 + s.warmup);

    const m0 = await metrics(cdp);
    const w0 = (await page.evaluate(WINDOW_MARK)) as WindowMark;
    const wallStart = performance.now();
    let w1 = w0;
    while (w1.frames < w0.frames + s.window && performance.now() - wallStart < s.windowMaxS * 1000) {
      await sleep(WINDOW_POLL_MS);
      if (crashed) throw new CaseFailure('page crashed while driving');
      w1 = (await page.evaluate(WINDOW_MARK)) as WindowMark;
    }
    const m1 = await metrics(cdp);
    const frames = w1.frames - w0.frames;
    if (frames <= 0) throw new CaseFailure(`no frame drawn in ${s.windowMaxS} s`);
    result.frames = frames;
    result.windowS = (w1.now - w0.now) / 1000;
    result.scriptMsPerFrame = ((m1.ScriptDuration - m0.ScriptDuration) * 1000) / frames;
    result.taskMsPerFrame = ((m1.TaskDuration - m0.TaskDuration) * 1000) / frames;
    result.workerBytesPerFrame = (w1.workerBytes - w0.workerBytes) / frames;

    const end = (await page.evaluate(END_STATE)) as EndState;
    const win = framesInWindow(end.frameTiming, w0.now, w1.now);
    result.callbackMs = [quantile(win.callbackMs, 0.5), quantile(win.callbackMs, 0.95)];
    result.intervalMs = [quantile(win.intervalMs, 0.5), quantile(win.intervalMs, 0.95)];
    result.terrainGpuBytes = end.terrainGpu?.bytes;
    result.terrainVertices = end.terrainGpu?.vertices;
    result.terrainStride = end.terrainStride;
    result.terrainBytesFromWorker = end.terrainBytesFromWorker;
    if (end.terrain) {
      result.terrainMeshBytes = end.terrain.meshBytes;
      result.terrainChunks = [end.terrain.drawnChunks, end.terrain.cachedChunks];
      result.terrainOverviewBytes = end.terrain.overviewBytes;
      result.terrainExactBytes = end.terrain.exactBytes;
      result.terrainPatchBytesReceived = end.terrain.bytesReceived + end.terrain.exactBytesReceived;
    }
    result.realtimeFactor = end.realtimeFactor ?? undefined;
    // Where the rover is after the first window (the 1025² map is 51 m wide: it may have left it).
    if (end.chassis) result.note = `rover at (${end.chassis[0].toFixed(1)}, ${end.chassis[1].toFixed(1)}) m after the first window${end.warnings.length ? `; warnings: ${end.warnings.join(' / ')}` : ''}`;

    // Optional: a sampled CPU profile of the main thread over one more window (where the script
    // time goes), summarised as the functions with the most self time.
    const profileDir = process.env.RENDERER_BENCH_PROFILE;
    if (profileDir) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: PROFILE_SAMPLING_US });
      await cdp.send('Profiler.start');
      const p0 = (await page.evaluate(WINDOW_MARK)) as WindowMark;
      const profStart = performance.now();
      let p1 = p0;
      while (p1.frames < p0.frames + s.window && performance.now() - profStart < s.windowMaxS * 1000) {
        await sleep(WINDOW_POLL_MS);
        p1 = (await page.evaluate(WINDOW_MARK)) as WindowMark;
      }
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(profileDir, `${c?.name ?? 'default'}.cpuprofile`), JSON.stringify(profile));
      console.log(`  ${label}: profile of ${p1.frames - p0.frames} frames, self time per frame:`);
      for (const line of profileSummary(profile, p1.frames - p0.frames)) console.log(`    ${line}`);
    }

    // A second window under tracing: main-thread script time of each frame (median / p95).
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const tw0 = (await page.evaluate(WINDOW_MARK)) as WindowMark;
    const traceStart = performance.now();
    let tw1 = tw0;
    while (tw1.frames < tw0.frames + s.window && performance.now() - traceStart < s.windowMaxS * 1000) {
      await sleep(WINDOW_POLL_MS);
      if (crashed) throw new CaseFailure('page crashed while tracing');
      tw1 = (await page.evaluate(WINDOW_MARK)) as WindowMark;
    }
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    if (process.env.RENDERER_BENCH_TRACE_DUMP) writeFileSync(process.env.RENDERER_BENCH_TRACE_DUMP, JSON.stringify(trace));
    const perFrame = scriptMsPerFrameFromTrace(trace.traceEvents, 'thread');
    const perFrameWall = scriptMsPerFrameFromTrace(trace.traceEvents, 'wall');
    result.tracedFrames = perFrame.length;
    result.tracedScriptMs = [quantile(perFrame, 0.5), quantile(perFrame, 0.95)];
    result.tracedScriptMeanMs = perFrame.reduce((a, b) => a + b, 0) / Math.max(1, perFrame.length);
    result.tracedScriptWallMs = [quantile(perFrameWall, 0.5), quantile(perFrameWall, 0.95)];

    // Memory held, after a full collection (outside the measured windows).
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    result.jsHeapBytes = heap.usedSize;
    result.arrayBufferBytes = heap.backingStorageSize;
    if (pageErrors.length > 0) console.log(`  ${label}: page errors: ${pageErrors.slice(0, 3).join(' | ')}`);
    return result;
  } catch (e) {
    if (e instanceof CaseFailure) result.failure = e.message;
    else if (crashed) result.failure = 'page crashed (renderer process out of memory?)';
    else result.failure = `error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
    return result;
  } finally {
    await context.close().catch(() => undefined);
  }
}

export default async function run(ctx: BenchContext): Promise<void> {
  const s = { ...(ctx.quick ? QUICK : FULL) };
  // To see the timeout row without a slow machine: RENDERER_BENCH_LOAD_TIMEOUT_S=1.
  const loadTimeout = Number(process.env.RENDERER_BENCH_LOAD_TIMEOUT_S);
  if (loadTimeout > 0) s.loadTimeoutS = loadTimeout;
  if (!existsSync(CHROMIUM)) {
    console.log(`\n${CHROMIUM} not found: the renderer benchmark needs Debian's chromium package (this project never downloads a browser).`);
    return;
  }
  ensureWebBuild();
  const tGen = performance.now();
  const cases = process.env.RENDERER_BENCH_CASES === 'default' ? [] : s.sizes.map((n) => buildRendererBenchFiles(n));
  console.log(`scenarios generated in ${((performance.now() - tGen) / 1000).toFixed(1)} s: ${cases.map((c) => `${c.name} (${(c.files[2].bytes.length / 2 ** 20).toFixed(0)} MiB raw-f32)`).join(', ')}`);
  const site = stageSite(cases);
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  const rows: CaseResult[] = [];
  try {
    const started = await startServer(site);
    server = started.proc;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    console.log(`chromium ${browser.version()}, viewport ${VIEWPORT.width}×${VIEWPORT.height}, warm-up ${s.warmup} frames, window ${s.window} frames (at most ${s.windowMaxS} s)`);
    // the default scene first (RENDERER_BENCH_CASES=default: only it)
    const list: (RendererBenchFiles | null)[] = process.env.RENDERER_BENCH_CASES === 'default' ? [null] : [null, ...cases];
    for (const c of list) {
      const load0 = loadavg()[0];
      const r = await runCase(browser, started.url, c, s);
      rows.push(r);
      console.log(`  ${r.label}: ${r.failure ?? `${r.frames} frames in ${r.windowS?.toFixed(1)} s, sim ${r.realtimeFactor?.toFixed(2)}× real time; ${r.note ?? ''}`} (load average ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)})`);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    server?.kill('SIGTERM');
    rmSync(site, { recursive: true, force: true });
  }
  console.log('');
  for (const line of TABLE_HEADER) console.log(line);
  for (const r of rows) console.log(tableRow(r));
  console.log('\nscript = JS on the page\'s main thread (ours, three.js, Comlink; not the worker), target < 8 ms/frame; CPU = thread clock, wall = elapsed.');
  console.log('frame interval includes SwiftShader\'s CPU rasterisation (Chromium GPU process); load = choosing the scenario to its first frame.');
}
