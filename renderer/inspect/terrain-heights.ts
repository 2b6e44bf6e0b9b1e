/**
 * Exact terrain heights for the inspectors (element outlines, the manifold view, contact detail,
 * the wheel's cell range), fetched from the worker in small tiles around what is looked at: the
 * renderer never holds the whole grid (sim/app/protocol.ts TerrainInfo carries only an overview).
 *
 * `height(i, j)` answers at once: the vertex's float32 height when its tile is here, else NaN
 * after asking for the tile (async, at most EXACT_TILE_REQUESTS_IN_FLIGHT at once). When a tile
 * arrives, `onLoaded` runs so the caller redraws. Tiles are TILE_CELLS × TILE_CELLS cells
 * (aligned to the 3D view's 32-cell level-0 chunks, which hand theirs over through `offer`); the
 * least recently used are dropped beyond EXACT_TILE_CACHE tiles. No DOM, no three: unit-tested.
 */
import type { TerrainPatch } from '../../sim/app/protocol';
import { LOD_CHUNK_CELLS } from '../config';

/** Exact heights of a grid, vertex by vertex, NaN where not (yet) known. */
export interface TerrainHeights {
  cols: number;
  rows: number;
  dx: number;
  dy: number;
  x0: number;
  y0: number;
  /** [m] Height of vertex (i, j); NaN outside the grid or while its data is on its way. */
  height(i: number, j: number): number;
}

/** A TerrainHeights over a full row-major array (tests, small grids). */
export function heightsOfArray(g: Omit<TerrainHeights, 'height'>, heights: ArrayLike<number>): TerrainHeights {
  if (heights.length !== g.cols * g.rows) throw new RangeError(`heightsOfArray: ${heights.length} heights for ${g.cols} × ${g.rows} vertices`);
  return {
    cols: g.cols, rows: g.rows, dx: g.dx, dy: g.dy, x0: g.x0, y0: g.y0,
    height: (i, j) => (i >= 0 && j >= 0 && i < g.cols && j < g.rows ? heights[j * g.cols + i] : Number.NaN),
  };
}

/** Cells along a tile's side (33 × 33 vertices, 4.3 KB of float32): the 3D view's level-0 chunk. */
export const TILE_CELLS = LOD_CHUNK_CELLS;
/** Tiles kept (64 × 4.3 KB ≈ 280 KB). */
export const EXACT_TILE_CACHE = 64;
/** Tile requests waiting for the worker at most. */
export const EXACT_TILE_REQUESTS_IN_FLIGHT = 4;

export type PatchFetcher = (i0: number, j0: number, cols: number, rows: number, stride: number) => Promise<TerrainPatch>;

export class ExactHeights implements TerrainHeights {
  readonly cols: number;
  readonly rows: number;
  readonly dx: number;
  readonly dy: number;
  readonly x0: number;
  readonly y0: number;
  /** Tiles by key ti + tj·tilesX; Map order is the LRU order (oldest first). */
  private readonly tiles = new Map<number, Float32Array>();
  private readonly pending = new Set<number>();
  /** Tiles the worker refused (not asked again for this world). */
  private readonly failed = new Set<number>();
  private readonly queue: number[] = [];
  private readonly tilesX: number;
  private disposed = false;
  /** Bumped whenever a tile arrives (panels key their redraw on it). */
  version = 0;
  /** Requests sent and float32 bytes received (for the measurements in docs/benchmarks.md). */
  requests = 0;
  bytesReceived = 0;
  lastError: string | null = null;

  constructor(grid: { cols: number; rows: number; dx: number; dy: number; x0: number; y0: number }, private readonly fetch: PatchFetcher, private readonly onLoaded: () => void = () => undefined) {
    this.cols = grid.cols;
    this.rows = grid.rows;
    this.dx = grid.dx;
    this.dy = grid.dy;
    this.x0 = grid.x0;
    this.y0 = grid.y0;
    this.tilesX = Math.ceil((grid.cols - 1) / TILE_CELLS) + 1;
  }

  /** Tile holding vertex (i, j): the one whose cells start at or before it (the last row/column belongs to the tile before). */
  private tileOf(i: number, j: number): number {
    const ti = Math.min(Math.floor(i / TILE_CELLS), Math.max(0, Math.ceil((this.cols - 1) / TILE_CELLS) - 1));
    const tj = Math.min(Math.floor(j / TILE_CELLS), Math.max(0, Math.ceil((this.rows - 1) / TILE_CELLS) - 1));
    return ti + tj * this.tilesX;
  }

  height(i: number, j: number): number {
    if (!(i >= 0 && j >= 0 && i < this.cols && j < this.rows) || !Number.isInteger(i) || !Number.isInteger(j)) return Number.NaN;
    const key = this.tileOf(i, j);
    const t = this.tiles.get(key);
    if (!t) {
      this.request(key);
      return Number.NaN;
    }
    this.tiles.delete(key); // most recently used goes last
    this.tiles.set(key, t);
    const ti = key % this.tilesX, tj = Math.floor(key / this.tilesX);
    const w = Math.min(TILE_CELLS, this.cols - 1 - ti * TILE_CELLS) + 1;
    return t[(j - tj * TILE_CELLS) * w + (i - ti * TILE_CELLS)];
  }

  /** True when every vertex of [i0, i1] × [j0, j1] is here (asks for the missing tiles). */
  ensure(i0: number, j0: number, i1: number, j1: number): boolean {
    i0 = Math.max(0, i0); j0 = Math.max(0, j0);
    i1 = Math.min(this.cols - 1, i1); j1 = Math.min(this.rows - 1, j1);
    let all = true;
    for (let j = j0; j <= j1; j += TILE_CELLS) for (let i = i0; i <= i1; i += TILE_CELLS) if (Number.isNaN(this.height(i, j))) all = false;
    if (Number.isNaN(this.height(i1, j1)) || Number.isNaN(this.height(i1, j0)) || Number.isNaN(this.height(i0, j1))) all = false;
    return all;
  }

  /** A stride-1 patch from elsewhere (the 3D view's level-0 chunks): kept if it is exactly a tile. */
  offer(p: TerrainPatch): void {
    if (p.stride !== 1 || p.i0 % TILE_CELLS !== 0 || p.j0 % TILE_CELLS !== 0) return;
    const key = this.tileOf(p.i0, p.j0);
    const [, , cols, rows] = this.span(key);
    if (p.cols !== cols || p.rows !== rows || this.tiles.has(key)) return;
    this.store(key, p.heights.slice());
  }

  private span(key: number): [number, number, number, number] {
    const ti = key % this.tilesX, tj = Math.floor(key / this.tilesX);
    const i0 = ti * TILE_CELLS, j0 = tj * TILE_CELLS;
    return [i0, j0, Math.min(TILE_CELLS, this.cols - 1 - i0) + 1, Math.min(TILE_CELLS, this.rows - 1 - j0) + 1];
  }

  private store(key: number, heights: Float32Array): void {
    this.tiles.set(key, heights);
    while (this.tiles.size > EXACT_TILE_CACHE) this.tiles.delete(this.tiles.keys().next().value as number);
    this.version++;
  }

  private request(key: number): void {
    if (this.pending.has(key) || this.failed.has(key) || this.disposed) return;
    this.pending.add(key);
    this.queue.push(key);
    this.pump();
  }

  private inFlight = 0;

  private pump(): void {
    while (this.inFlight < EXACT_TILE_REQUESTS_IN_FLIGHT && this.queue.length > 0) {
      // newest first: what is looked at now matters more than what was looked at a moment ago
      const key = this.queue.pop()!;
      const [i0, j0, cols, rows] = this.span(key);
      this.inFlight++;
      this.requests++;
      this.fetch(i0, j0, cols, rows, 1).then(
        (p) => {
          this.inFlight--;
          this.pending.delete(key);
          if (this.disposed) return;
          this.bytesReceived += p.heights.byteLength;
          if (p.i0 === i0 && p.j0 === j0 && p.sampleCols === cols && p.sampleRows === rows) {
            this.store(key, p.heights);
            this.onLoaded();
          }
          this.pump();
        },
        (e: unknown) => {
          this.inFlight--;
          this.pending.delete(key);
          this.failed.add(key);
          this.lastError = e instanceof Error ? e.message : String(e);
          this.pump();
        },
      );
    }
  }

  /** Tiles held now. */
  get tileCount(): number {
    return this.tiles.size;
  }

  /** Float32 bytes held. */
  get bytes(): number {
    let b = 0;
    for (const t of this.tiles.values()) b += t.byteLength;
    return b;
  }

  /** Drops everything; late replies are ignored. */
  dispose(): void {
    this.disposed = true;
    this.tiles.clear();
    this.queue.length = 0;
  }
}
