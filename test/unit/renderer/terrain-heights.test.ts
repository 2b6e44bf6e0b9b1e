/**
 * Exact heights for the inspectors (renderer/inspect/terrain-heights.ts), fed by the worker's
 * terrainPatch through a fake fetcher, and the wheel cell range the GUI draws
 * (sim/collision/cylinder-terrain/cell-range.ts) against the extremes of a densely sampled
 * cylinder.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { terrainPatch } from '../../../sim/terrain/patch';
import type { TerrainPatch } from '../../../sim/app/protocol';
import { cylinderCellRange, type CellRange } from '../../../sim/collision/cylinder-terrain/cell-range';
import { EXACT_TILE_CACHE, EXACT_TILE_REQUESTS_IN_FLIGHT, ExactHeights, TILE_CELLS } from '../../../renderer/inspect/terrain-heights';
import { terrainElement } from '../../../renderer/inspect/contact-detail';

function field(cols: number, rows: number, seed: number): Heightfield {
  const rng = new Rng(seed);
  const h = new Float64Array(cols * rows);
  for (let k = 0; k < h.length; k++) h[k] = rng.range(-1, 1);
  return Heightfield.fromArray({ cols, rows, dx: 0.05, dy: 0.05, x0: 2, y0: -1, heights: h });
}

/** A fetcher answering from `hf` when `flush()` is called, recording the requests. */
function fakeWorker(hf: Heightfield) {
  const waiting: { args: [number, number, number, number, number]; resolve: (p: TerrainPatch) => void; reject: (e: Error) => void }[] = [];
  const calls: [number, number, number, number, number][] = [];
  return {
    calls,
    waiting,
    fetch: (i0: number, j0: number, cols: number, rows: number, stride: number) =>
      new Promise<TerrainPatch>((resolve, reject) => {
        calls.push([i0, j0, cols, rows, stride]);
        waiting.push({ args: [i0, j0, cols, rows, stride], resolve, reject });
      }),
    async flush() {
      while (waiting.length > 0) {
        const w = waiting.shift()!;
        try {
          w.resolve(terrainPatch(hf, ...w.args));
        } catch (e) {
          w.reject(e as Error);
        }
        await Promise.resolve();
        await Promise.resolve();
      }
    },
  };
}

describe('ExactHeights', () => {
  it('answers NaN, asks for the tile once, then answers the float32 height; redraw callback per tile', async () => {
    const hf = field(100, 70, 1);
    const w = fakeWorker(hf);
    let loaded = 0;
    const x = new ExactHeights(hf, w.fetch, () => loaded++);
    expect(x.height(40, 33)).toBeNaN();
    expect(x.height(41, 34)).toBeNaN();
    expect(w.calls).toEqual([[32, 32, 33, 33, 1]]);
    await w.flush();
    expect(loaded).toBe(1);
    expect(x.height(40, 33)).toBe(Math.fround(hf.height(40, 33)));
    expect(x.height(63, 63)).toBe(Math.fround(hf.height(63, 63)));
    // the last tile of a side is clipped to the grid: columns 96..99
    expect(x.height(99, 69)).toBeNaN();
    expect(w.calls[1]).toEqual([96, 64, 4, 6, 1]);
    await w.flush();
    expect(x.height(99, 69)).toBe(Math.fround(hf.height(99, 69)));
    expect(x.height(-1, 0)).toBeNaN();
    expect(x.height(100, 0)).toBeNaN();
    expect(w.calls).toHaveLength(2);
    expect(x.bytesReceived).toBe(4 * (33 * 33 + 4 * 6));
  });

  it('keeps at most EXACT_TILE_REQUESTS_IN_FLIGHT requests out and EXACT_TILE_CACHE tiles held', async () => {
    const hf = field(TILE_CELLS * 12 + 1, TILE_CELLS * 12 + 1, 2);
    const w = fakeWorker(hf);
    const x = new ExactHeights(hf, w.fetch);
    for (let t = 0; t < 100; t++) x.height((t % 12) * TILE_CELLS + 1, Math.floor(t / 12) * TILE_CELLS + 1);
    expect(w.waiting.length).toBe(EXACT_TILE_REQUESTS_IN_FLIGHT);
    await w.flush();
    expect(w.calls.length).toBe(100);
    expect(x.tileCount).toBe(EXACT_TILE_CACHE);
    expect(x.bytes).toBe(EXACT_TILE_CACHE * 33 * 33 * 4);
  });

  it('a refused tile is not asked again; terrainElement is null until the heights are here', async () => {
    const hf = field(40, 40, 3);
    const w = fakeWorker(hf);
    const x = new ExactHeights(hf, w.fetch);
    expect(terrainElement(x, 3, 3, 2.17, -0.83)).toBeNull();
    w.waiting[0].reject(new Error('no world loaded yet'));
    w.waiting.length = 0;
    await Promise.resolve();
    await Promise.resolve();
    expect(x.lastError).toMatch(/no world/);
    expect(x.height(3, 3)).toBeNaN();
    expect(w.calls).toHaveLength(1);
  });

  it('takes level-0 chunks the 3D view already fetched (offer), without a request', () => {
    const hf = field(80, 80, 4);
    const w = fakeWorker(hf);
    const x = new ExactHeights(hf, w.fetch);
    x.offer(terrainPatch(hf, 32, 0, 33, 33, 1));
    x.offer(terrainPatch(hf, 30, 0, 33, 33, 1)); // not a tile: ignored
    expect(x.height(50, 10)).toBe(Math.fround(hf.height(50, 10)));
    expect(w.calls).toHaveLength(0);
    expect(x.tileCount).toBe(1);
  });
});

describe('cylinderCellRange (the wheel query\'s broad phase)', () => {
  const g = { x0: -5, y0: 3, dx: 0.1, dy: 0.2, cellsX: 100, cellsY: 40 };
  const r: CellRange = { i0: 0, j0: 0, i1: 0, j1: 0 };

  it('covers exactly the cells under the extremes of a densely sampled cylinder (seeded poses)', () => {
    const rng = new Rng(21);
    for (let trial = 0; trial < 200; trial++) {
      const cx = rng.range(-6, 6), cy = rng.range(2, 12);
      const u = rng.range(-1, 1), phi = rng.range(0, 2 * Math.PI);
      const a = [Math.sqrt(1 - u * u) * Math.cos(phi), Math.sqrt(1 - u * u) * Math.sin(phi), u];
      const radius = rng.range(0.05, 0.6), hh = rng.range(0.02, 0.3);
      // the cylinder's extreme x and y from its two rims (the AABB of a solid cylinder is its rims')
      const e1 = Math.abs(a[0]) < 0.9 ? [0, a[2], -a[1]] : [-a[2], 0, a[0]];
      const l1 = Math.hypot(e1[0], e1[1], e1[2]);
      const b1 = e1.map((v) => v / l1);
      const b2 = [a[1] * b1[2] - a[2] * b1[1], a[2] * b1[0] - a[0] * b1[2], a[0] * b1[1] - a[1] * b1[0]];
      let xl = Infinity, xh = -Infinity, yl = Infinity, yh = -Infinity;
      for (const s of [-1, 1]) for (let k = 0; k < 2000; k++) {
        const t = (2 * Math.PI * k) / 2000;
        const x = cx + s * hh * a[0] + radius * (Math.cos(t) * b1[0] + Math.sin(t) * b2[0]);
        const y = cy + s * hh * a[1] + radius * (Math.cos(t) * b1[1] + Math.sin(t) * b2[1]);
        xl = Math.min(xl, x); xh = Math.max(xh, x); yl = Math.min(yl, y); yh = Math.max(yh, y);
      }
      const hit = cylinderCellRange(r, g, cx, cy, a[0], a[1], radius, hh);
      const want = {
        i0: Math.max(0, Math.floor((xl - g.x0) / g.dx)), i1: Math.min(g.cellsX - 1, Math.floor((xh - g.x0) / g.dx)),
        j0: Math.max(0, Math.floor((yl - g.y0) / g.dy)), j1: Math.min(g.cellsY - 1, Math.floor((yh - g.y0) / g.dy)),
      };
      // sampling can fall short of the true extreme by radius·(1 − cos(π/2000)) ≈ 0.7 µm: compare away from cell lines
      const nearLine = [xl, xh].some((x) => Math.abs(((x - g.x0) / g.dx) - Math.round((x - g.x0) / g.dx)) < 1e-4)
        || [yl, yh].some((y) => Math.abs(((y - g.y0) / g.dy) - Math.round((y - g.y0) / g.dy)) < 1e-4);
      if (nearLine) continue;
      expect(hit).toBe(want.i0 <= want.i1 && want.j0 <= want.j1);
      if (hit) expect({ ...r }).toEqual(want);
    }
  });

  it('a wheel of radius 0.15 m, half-width 0.05 m: axle along x, along y, upright; off the map it is empty', () => {
    expect(cylinderCellRange(r, g, 0.03, 4.1, 1, 0, 0.15, 0.05)).toBe(true); // x −0.02..0.08, y 3.95..4.25
    expect({ ...r }).toEqual({ i0: 49, i1: 50, j0: 4, j1: 6 });
    expect(cylinderCellRange(r, g, 0.03, 4.1, 0, 1, 0.15, 0.05)).toBe(true); // x −0.12..0.18, y 4.05..4.15
    expect({ ...r }).toEqual({ i0: 48, i1: 51, j0: 5, j1: 5 });
    expect(cylinderCellRange(r, g, 0.03, 4.1, 0, 0, 0.15, 0.05)).toBe(true); // axis z: a disc of radius 0.15
    expect({ ...r }).toEqual({ i0: 48, i1: 51, j0: 4, j1: 6 });
    expect(cylinderCellRange(r, g, -20, 4, 0, 1, 0.15, 0.05)).toBe(false);
  });
});
