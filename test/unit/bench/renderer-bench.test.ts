/**
 * Smoke test of the renderer benchmark (test/bench/renderer.bench.ts), which itself runs only
 * under `npm run bench -- renderer` (it needs Chromium): the module imports and exports run();
 * the worlds it generates pass the app's own scenario validator and terrain decoder, with the
 * raw-f32 rows north first (a flipped map would drop the rocks onto the wrong heights); and the
 * window statistics pick the right frames.
 */
import { describe, expect, it } from 'vitest';
import { parseScenarioFile } from '../../../sim/scenario/scenario-v2';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';
import { fractalTerrain } from '../../../sim/terrain/generate';
import { framesInWindow, quantile, scriptMsPerFrameFromTrace, TABLE_HEADER, tableRow, type TraceEvent } from '../../bench/renderer/measure';
import { buildRendererBenchFiles, RENDERER_BENCH_AMPLITUDE, RENDERER_BENCH_DX, RENDERER_BENCH_SEED } from '../../bench/renderer/scenario';

const json = (b: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(b));

describe('renderer bench', () => {
  it('imports and exports run(ctx)', async () => {
    const mod: { default?: unknown } = await import('../../bench/renderer.bench');
    expect(typeof mod.default).toBe('function');
  });

  it('generates a scenario the app accepts: the rover, 100 rocks, a raw-f32 terrain with north first', () => {
    const c = buildRendererBenchFiles(257);
    const byPath = new Map(c.files.map((f) => [f.path, f.bytes]));
    const scenario = parseScenarioFile(json(byPath.get('scenarios/renderer-bench-257.json')!));
    expect(scenario.name).toBe(c.scenarioName);
    expect(scenario.robot).toMatchObject({ builtin: 'skid-steer', position: [-4, 0], yaw: 0 });
    expect(scenario.world.bodies).toHaveLength(100);
    expect(scenario.terrain).toEqual({ file: '../terrains/renderer-bench-257.json' });
    const sidecar = json(byPath.get('terrains/renderer-bench-257.json')!) as { image: string };
    const hf = decodeTerrain(sidecar, byPath.get(`terrains/${sidecar.image}`)!);
    const ref = fractalTerrain({ cols: 257, dx: RENDERER_BENCH_DX, seed: RENDERER_BENCH_SEED, amplitude: RENDERER_BENCH_AMPLITUDE, roughness: 0.5 });
    expect([hf.cols, hf.rows, hf.x0, hf.y0]).toEqual([ref.cols, ref.rows, ref.x0, ref.y0]);
    for (const k of [0, 256, 257 * 3 + 5, 257 * 256 - 1, 257 * 257 - 1]) expect(hf.heights[k]).toBe(Math.fround(ref.heights[k]));
    // Every rock starts above the highest vertex under its centre's cell.
    for (const b of scenario.world.bodies) {
      const [x, y, z] = b.position!;
      const i = Math.floor((x - hf.x0) / hf.dx), j = Math.floor((y - hf.y0) / hf.dy);
      expect(z).toBeGreaterThan(Math.max(hf.height(i, j), hf.height(i + 1, j), hf.height(i, j + 1), hf.height(i + 1, j + 1)));
    }
  });

  it('takes the frames of the window and their quantiles; a failed case says why', () => {
    const snap = { count: 6, startMs: [0, 10, 30, 60, 100, 150], callbackMs: [9, 1, 2, 3, 4, 9] };
    const w = framesInWindow(snap, 10, 100);
    expect(w.frames).toBe(4);
    expect(w.callbackMs).toEqual([1, 2, 3, 4]);
    expect(w.intervalMs).toEqual([20, 30, 40]);
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 0.95)).toBe(19);
    expect(quantile([], 0.5)).toBeNaN();
    expect(tableRow({ label: '4097²', failure: 'load: not done within 180 s' })).toContain('**load: not done within 180 s**');
  });

  it('every row has the header\'s columns; the renderer terrain column reads meshes, chunks, overview, exact tiles and patches', () => {
    const cells = (line: string): number => line.split('|').length;
    const MiB = 2 ** 20;
    const full = tableRow({
      label: '4097²', failure: null, loadS: 8, frames: 300, windowS: 30, scriptMsPerFrame: 2,
      terrainMeshBytes: 3 * MiB, terrainChunks: [150, 200], terrainOverviewBytes: 0.5 * MiB, terrainExactBytes: 0.25 * MiB, terrainPatchBytesReceived: 2 * MiB,
    });
    expect(cells(full)).toBe(cells(TABLE_HEADER[0]));
    expect(cells(TABLE_HEADER[1])).toBe(cells(TABLE_HEADER[0]));
    expect(cells(tableRow({ label: '4097²', failure: 'page crashed' }))).toBe(cells(TABLE_HEADER[0]));
    expect(full).toContain('| 3.0 (150 / 200) / 0.5 / 0.3; 2.0 |');
  });
});

describe('scriptMsPerFrameFromTrace', () => {
  // Thread clock: half the wall clock's times (a thread running at half speed, as if preempted).
  const X = (name: string, ts: number, dur: number, tid = 1): TraceEvent => ({ name, ph: 'X', pid: 7, tid, ts, dur, tts: ts / 2, tdur: dur / 2 });
  it('splits frames at the first animation-frame callback after a paint and unions nested script spans', () => {
    // Times in µs. Frame A: our rAF callback 0–3000 (a FunctionCall nested in it) and a second
    // callback (the panels' ticker) 3500–4000, then paint; a message handler 6000–7000 before
    // frame B; frame B: callback 10000–12000, paint; frame C starts at 20000 (open-ended, dropped).
    const events: TraceEvent[] = [
      X('FireAnimationFrame', 0, 3000), X('FunctionCall', 100, 2000), X('FireAnimationFrame', 3500, 500), X('PrePaint', 4500, 300),
      X('FunctionCall', 6000, 1000), X('RunMicrotasks', 6500, 1000),
      X('FireAnimationFrame', 10000, 2000), X('Layout', 12000, 5000), X('PrePaint', 17000, 100),
      X('FireAnimationFrame', 20000, 1000), X('PrePaint', 21500, 100),
      // Another thread (a worker) with more script but only one callback: ignored.
      X('FireAnimationFrame', 0, 1, 2), X('FunctionCall', 0, 90000, 2),
    ];
    // Frame A [0, 10000): 3 + 0.5 ms of callbacks (the nested call not twice) + the handler and
    // its microtasks, 6000–7500 as a union (1.5 ms); frame B [10000, 20000): 2 ms.
    expect(scriptMsPerFrameFromTrace(events)).toEqual([5, 2]);
    expect(scriptMsPerFrameFromTrace(events, 'thread')).toEqual([2.5, 1]);
    expect(scriptMsPerFrameFromTrace([X('FunctionCall', 0, 10)])).toEqual([]);
  });
});
