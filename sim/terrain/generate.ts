/**
 * Procedural terrains for tests, benchmarks and the default assets. Every generator is a pure
 * function of its options (seeded with sim/math/random.ts, never Math.random), returns a
 * Heightfield built through Heightfield.fromArray, and is bit-identical on every JS engine.
 *
 *   fractalTerrain   diamond-square midpoint displacement (Fournier, Fussell & Carpenter 1982;
 *                    Miller 1986 "square-diamond"), optional axis-aligned curbs (height steps)
 *   hillsTerrain     sum of seeded Gaussian bumps on a flat floor
 *   rampTerrain      one planar incline (optionally with a flat run-in), every cell a rectangle
 *   flatTerrain      constant height (every cell a planar rectangle)
 *
 * Vertex (i, j) is at (x0 + i·dx, y0 + j·dy) as in heightfield.ts; by default the map is centred
 * on the origin so a robot placed at (0, 0) is in the middle.
 */
import { Rng } from '../math/random';
import { Heightfield } from './heightfield';

/** Grid placement shared by every generator. */
export interface GridOptions {
  /** Vertices along x (≥ 2). */
  cols: number;
  /** Vertices along y (≥ 2). Default: cols. */
  rows?: number;
  /** [m] Spacing along x. */
  dx: number;
  /** [m] Spacing along y. Default: dx. */
  dy?: number;
  /** [m] x of vertex (0, 0). Default: centre the map on x = 0. */
  x0?: number;
  /** [m] y of vertex (0, 0). Default: centre the map on y = 0. */
  y0?: number;
}

/** One straight height step across the whole map, parallel to a grid axis. */
export interface Curb {
  /** 'x': the step line is x = at (runs along y); 'y': the step line is y = at. */
  axis: 'x' | 'y';
  /** [m] World coordinate of the step line. */
  at: number;
  /** [m] Height added to every vertex on the + side of the line (may be negative). */
  height: number;
}

export interface FractalOptions extends GridOptions {
  seed: number;
  /** [m] Standard deviation of the first (coarsest) displacement; heights span roughly ±2× this. */
  amplitude: number;
  /**
   * [-] Displacement ratio per octave (0 < roughness < 1): each halving of the step scales the
   * random displacement by this factor. 0.5 ≈ fractal dimension 2.5 (natural ground);
   * smaller is smoother. Default 0.5.
   */
  roughness?: number;
  /** Height steps added after the fractal (curbs, kerbs, ledges). */
  curbs?: readonly Curb[];
}

export interface RandomCurbOptions {
  seed: number;
  count: number;
  /** [m] Step height of each curb; the sign is random so curbs go up and down. */
  height: number;
  /** [m] Keep step lines at least this far inside the map edges. Default 0. */
  margin?: number;
}

export interface HillsOptions extends GridOptions {
  seed: number;
  /** Number of Gaussian hills. */
  count: number;
  /** [m] Peak height range of a hill (negative values dig hollows). */
  minHeight: number;
  maxHeight: number;
  /** [m] Gaussian sigma range. */
  minRadius: number;
  maxRadius: number;
  /** [m] Floor height. Default 0. */
  base?: number;
}

export interface RampOptions extends GridOptions {
  /** [rad] Incline angle, rising along +x. */
  angle: number;
  /** [m] The ramp starts at this x (flat at `base` before it). Default: the map's first column. */
  startX?: number;
  /** [m] Height of the flat part. Default 0. */
  base?: number;
}

interface ResolvedGrid {
  cols: number;
  rows: number;
  dx: number;
  dy: number;
  x0: number;
  y0: number;
}

function resolveGrid(g: GridOptions): ResolvedGrid {
  const rows = g.rows ?? g.cols;
  const dy = g.dy ?? g.dx;
  return {
    cols: g.cols,
    rows,
    dx: g.dx,
    dy,
    x0: g.x0 ?? (-(g.cols - 1) * g.dx) / 2,
    y0: g.y0 ?? (-(rows - 1) * dy) / 2,
  };
}

function build(grid: ResolvedGrid, heights: Float64Array): Heightfield {
  return Heightfield.fromArray({ ...grid, heights });
}

/** Flat terrain at height `height` (default 0). */
export function flatTerrain(opts: GridOptions & { height?: number }): Heightfield {
  const g = resolveGrid(opts);
  const heights = new Float64Array(g.cols * g.rows).fill(opts.height ?? 0);
  return build(g, heights);
}

/** Planar incline rising along +x at `angle`, flat before `startX`. */
export function rampTerrain(opts: RampOptions): Heightfield {
  const g = resolveGrid(opts);
  const base = opts.base ?? 0;
  const startX = opts.startX ?? g.x0;
  const slope = Math.tan(opts.angle);
  const heights = new Float64Array(g.cols * g.rows);
  for (let j = 0; j < g.rows; j++) {
    for (let i = 0; i < g.cols; i++) {
      const x = g.x0 + i * g.dx;
      heights[j * g.cols + i] = x > startX ? base + (x - startX) * slope : base;
    }
  }
  return build(g, heights);
}

/** Seeded Gaussian hills (and hollows, for negative heights) on a flat floor. */
export function hillsTerrain(opts: HillsOptions): Heightfield {
  const g = resolveGrid(opts);
  const rng = new Rng(opts.seed);
  const heights = new Float64Array(g.cols * g.rows).fill(opts.base ?? 0);
  const w = (g.cols - 1) * g.dx;
  const h = (g.rows - 1) * g.dy;
  for (let n = 0; n < opts.count; n++) {
    const cx = g.x0 + rng.next() * w;
    const cy = g.y0 + rng.next() * h;
    const peak = rng.range(opts.minHeight, opts.maxHeight);
    const sigma = rng.range(opts.minRadius, opts.maxRadius);
    const inv2s2 = 1 / (2 * sigma * sigma);
    for (let j = 0; j < g.rows; j++) {
      const ddy = g.y0 + j * g.dy - cy;
      for (let i = 0; i < g.cols; i++) {
        const ddx = g.x0 + i * g.dx - cx;
        heights[j * g.cols + i] += peak * Math.exp(-(ddx * ddx + ddy * ddy) * inv2s2);
      }
    }
  }
  return build(g, heights);
}

/**
 * Seeded curbs for fractalTerrain: `count` step lines, alternating x and y, at random positions
 * inside the map (by grid placement `grid`), each with a random sign. The step line sits at a
 * half-cell offset, so on the grid a curb becomes one steep row of cells (the sharpest step a
 * heightfield can hold: rise `height` over one dx).
 */
export function randomCurbs(grid: GridOptions, opts: RandomCurbOptions): Curb[] {
  const g = resolveGrid(grid);
  const rng = new Rng(opts.seed);
  const margin = opts.margin ?? 0;
  const curbs: Curb[] = [];
  for (let n = 0; n < opts.count; n++) {
    const axis: 'x' | 'y' = n % 2 === 0 ? 'x' : 'y';
    const cells = axis === 'x' ? g.cols - 1 : g.rows - 1;
    const d = axis === 'x' ? g.dx : g.dy;
    const o = axis === 'x' ? g.x0 : g.y0;
    const lo = Math.ceil(margin / d);
    const hi = Math.max(lo, cells - 1 - Math.ceil(margin / d));
    const cell = rng.int(lo, hi);
    const sign = rng.next() < 0.5 ? -1 : 1;
    curbs.push({ axis, at: o + (cell + 0.5) * d, height: sign * opts.height });
  }
  return curbs;
}

/**
 * Diamond-square fractal. Works on the smallest (2^n + 1)² square covering the grid and crops,
 * so any size is accepted; the same seed and size always give the same map.
 *
 *   square step: centre of each square = mean of its 4 corners + noise
 *   diamond step: centre of each diamond = mean of its (up to) 4 neighbours + noise
 *   noise scale ×roughness after each level
 */
export function fractalTerrain(opts: FractalOptions): Heightfield {
  const g = resolveGrid(opts);
  const rng = new Rng(opts.seed);
  const roughness = opts.roughness ?? 0.5;
  let n = 1;
  while (n + 1 < Math.max(g.cols, g.rows)) n *= 2;
  const size = n + 1;
  const a = new Float64Array(size * size);
  let scale = opts.amplitude;
  a[0] = rng.gaussian() * scale;
  a[n] = rng.gaussian() * scale;
  a[n * size] = rng.gaussian() * scale;
  a[n * size + n] = rng.gaussian() * scale;
  for (let step = n; step > 1; step >>= 1) {
    const half = step >> 1;
    // Square step.
    for (let y = half; y < size; y += step) {
      for (let x = half; x < size; x += step) {
        const m =
          (a[(y - half) * size + x - half] + a[(y - half) * size + x + half] +
            a[(y + half) * size + x - half] + a[(y + half) * size + x + half]) * 0.25;
        a[y * size + x] = m + rng.gaussian() * scale;
      }
    }
    // Diamond step: points with (x + y) / half odd.
    for (let y = 0; y < size; y += half) {
      for (let x = (y / half) % 2 === 0 ? half : 0; x < size; x += step) {
        let sum = 0;
        let cnt = 0;
        if (y >= half) { sum += a[(y - half) * size + x]; cnt++; }
        if (y + half < size) { sum += a[(y + half) * size + x]; cnt++; }
        if (x >= half) { sum += a[y * size + x - half]; cnt++; }
        if (x + half < size) { sum += a[y * size + x + half]; cnt++; }
        a[y * size + x] = sum / cnt + rng.gaussian() * scale;
      }
    }
    scale *= roughness;
  }
  const heights = new Float64Array(g.cols * g.rows);
  for (let j = 0; j < g.rows; j++) {
    for (let i = 0; i < g.cols; i++) heights[j * g.cols + i] = a[j * size + i];
  }
  if (opts.curbs) {
    for (const c of opts.curbs) {
      for (let j = 0; j < g.rows; j++) {
        for (let i = 0; i < g.cols; i++) {
          const coord = c.axis === 'x' ? g.x0 + i * g.dx : g.y0 + j * g.dy;
          if (coord > c.at) heights[j * g.cols + i] += c.height;
        }
      }
    }
  }
  return build(g, heights);
}
