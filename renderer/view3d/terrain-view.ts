/**
 * The terrain in the 3D view: a quadtree of chunks with level of detail (terrain-lod.ts). Every
 * frame the chunks for the camera are chosen (a cheap walk of a few hundred nodes, redone only
 * when the camera moved or a chunk arrived); a chunk at least as coarse as the overview is cut
 * from it at once, a finer one is asked of the worker (SimService.terrainPatch, its heights
 * transferred), at most TERRAIN_PATCH_REQUESTS_IN_FLIGHT at a time, the followed body's ground
 * first, then nearest the camera; arrived patches become meshes for LOD_BUILD_MS_PER_FRAME of
 * each frame (at least one). Until a chunk's patch is here a stand-in interpolated from the
 * overview is drawn in its place (terrain-lod.ts placeholderChunk), so the render loop never
 * waits and the finished parts of the view never wait for the rest. Overview cuts and stand-ins
 * are built at most LOD_STANDIN_BUILDS_PER_FRAME a frame (within the frame's build time): after a
 * camera jump the previous chunks stay drawn until every chunk of the new selection has a mesh.
 * Chunk meshes live in an LRU cache of TERRAIN_CHUNK_CACHE (GPU buffers freed on eviction).
 * Level 0 is drawn at stride 1 with the collision surface's V1–V2 diagonal (sim/terrain/mesh.ts).
 * Built in the simulation frame; the scene's root transform makes it y-up.
 */
import * as THREE from 'three';
import type { TerrainInfo, TerrainPatch } from '../../sim/app/protocol';
import {
  LOD_BUILD_MS_PER_FRAME, LOD_FOCUS_RADIUS, LOD_RESELECT_FRACTION, LOD_SPLIT_FACTOR, LOD_STANDIN_BUILDS_PER_FRAME, TERRAIN_CHUNK_CACHE,
  TERRAIN_PATCH_REQUESTS_IN_FLIGHT,
} from '../config';
import {
  chunkDistance, chunkMesh, chunkRequest, lodChunk, patchFromOverview, placeholderChunk, rootLevel, selectChunks,
  type LodChunk, type LodGrid, type SampledHeights,
} from './terrain-lod';
import { TerrainShading } from './terrain-shading';
import type { TerrainMaterialMapSpec } from '../../sim/dynamics/spec';

export type PatchFetcher = (i0: number, j0: number, cols: number, rows: number, stride: number) => Promise<TerrainPatch>;

interface CachedChunk {
  chunk: LodChunk;
  mesh: THREE.Mesh;
  /** GPU/CPU bytes of its buffers. */
  bytes: number;
  /** A stand-in interpolated from the overview, waiting for its patch. */
  placeholder: boolean;
}

/** What the terrain holds and draws now (test hook, status, measurements in docs/design.md). */
export interface TerrainStats {
  drawnChunks: number;
  /** Chunks of the current selection (drawnChunks reaches it once `waiting` is 0 and the last selection is whole). */
  wantedChunks: number;
  drawnVertices: number;
  cachedChunks: number;
  /** Bytes of the cached chunk meshes (positions, normals, colours, indices). */
  meshBytes: number;
  /** Float32 bytes of the overview. */
  overviewBytes: number;
  requests: number;
  inFlight: number;
  /** Float32 bytes received in patches. */
  bytesReceived: number;
  /** Finest and coarsest stride drawn. */
  minStride: number;
  maxStride: number;
  lastError: string | null;
  /** Chunk meshes built so far (arrived patches, overview cuts, stand-ins). */
  meshesBuilt: number;
  /** Chunks of the current selection still without a mesh (0: the drawn chunks are the selection). */
  waiting: number;
}

export class TerrainView {
  readonly group = new THREE.Group();
  private readonly grid: LodGrid;
  private readonly info: TerrainInfo;
  /** Shared by every chunk (the settings switch its colours). */
  readonly material = new THREE.MeshLambertMaterial({ vertexColors: true });
  /** Map order = LRU order (oldest first). */
  private readonly cache = new Map<string, CachedChunk>();
  private readonly pending = new Set<string>();
  private readonly failed = new Set<string>();
  private readonly drawn = new Set<string>();
  private readonly lastEye = [Number.NaN, Number.NaN, Number.NaN];
  private readonly lastFocus = [Number.NaN, Number.NaN];
  private dirty = true;
  private disposed = false;
  private wanted: LodChunk[] = [];
  private readonly wantedKeys = new Set<string>();
  /** Wanted chunks without a mesh yet (their builds wait for the next frames). */
  private waiting = 0;
  /** The drawn chunks are one whole selection (false for a new world until its first is built). */
  private drawnWhole = false;
  /** Chunk meshes built (patches, overview cuts and stand-ins). */
  private meshesBuilt = 0;
  /** Patches that arrived, waiting for their mesh (built for LOD_BUILD_MS_PER_FRAME per update, at least one). */
  private readonly arrived: { c: LodChunk; p: TerrainPatch }[] = [];
  private inFlight = 0;
  private requests = 0;
  private bytesReceived = 0;
  private lastError: string | null = null;
  /** A level-0 patch arrived (the exact-heights cache keeps it too). */
  onExactPatch: ((p: TerrainPatch) => void) | null = null;

  /**
   * `maxVertices`: the budget (gl-info.ts terrainVertexBudget); `chunkCells`: cells along a chunk's
   * side (config.ts LOD_CHUNK_CELLS, LOD_CHUNK_CELLS_SOFTWARE).
   */
  /** Hillshade, metre grid, material colours, slope colours and contours (terrain-shading.ts). */
  readonly shading: TerrainShading;

  constructor(
    info: TerrainInfo, private readonly fetch: PatchFetcher, private readonly maxVertices: number, private readonly chunkCells: number,
    materials?: TerrainMaterialMapSpec,
  ) {
    this.info = info;
    this.grid = { cols: info.cols, rows: info.rows, dx: info.dx, dy: info.dy, x0: info.x0, y0: info.y0, minHeight: info.minHeight, maxHeight: info.maxHeight };
    this.group.name = 'terrain';
    const extent = { x0: info.x0, y0: info.y0, width: (info.cols - 1) * info.dx, height: (info.rows - 1) * info.dy };
    this.shading = new TerrainShading(materials, extent, info.maxHeight - info.minHeight);
    this.shading.install(this.material);
  }

  /**
   * Chooses and draws the chunks for a camera at (ex, ey, ez) with the followed body at (fx, fy)
   * (simulation frame; NaN: no focus). Cheap when neither moved by LOD_RESELECT_FRACTION of a
   * level-0 chunk and nothing arrived.
   */
  update(ex: number, ey: number, ez: number, fx = Number.NaN, fy = Number.NaN): void {
    if (this.disposed) return;
    const t0 = performance.now();
    for (let built = 0; this.arrived.length > 0 && (built === 0 || performance.now() - t0 < LOD_BUILD_MS_PER_FRAME); built++) {
      const { c, p } = this.arrived.shift()!;
      this.pending.delete(c.key);
      try {
        this.store(c, p);
        if (c.level === 0 && this.onExactPatch) this.onExactPatch(corePatch(c, p));
      } catch (e) {
        this.failed.add(c.key);
        this.lastError = e instanceof Error ? e.message : String(e);
      }
      this.dirty = true;
    }
    const step = LOD_RESELECT_FRACTION * this.chunkCells * Math.max(this.grid.dx, this.grid.dy);
    const moved = Math.hypot(ex - this.lastEye[0], ey - this.lastEye[1], ez - this.lastEye[2]);
    const focusSame = Number.isNaN(fx + fy) ? Number.isNaN(this.lastFocus[0]) : Math.hypot(fx - this.lastFocus[0], fy - this.lastFocus[1]) < step;
    const reselect = this.dirty || moved >= step || !focusSame;
    if (!reselect && this.waiting === 0) return;
    if (reselect) {
      this.dirty = false;
      this.lastEye[0] = ex; this.lastEye[1] = ey; this.lastEye[2] = ez;
      this.lastFocus[0] = fx; this.lastFocus[1] = fy;
      this.wanted = selectChunks(this.grid, this.lastEye, {
        chunkCells: this.chunkCells, splitFactor: LOD_SPLIT_FACTOR, maxVertices: this.maxVertices, focus: this.lastFocus, focusRadius: LOD_FOCUS_RADIUS,
      }).chunks;
      // built, drawn (a new world's first frames) and requested in this order
      const ranked = this.wanted.map((c) => ({ c, r: this.rank(c, ex, ey, ez, fx, fy) }));
      ranked.sort((a, b) => a.r - b.r);
      for (let k = 0; k < ranked.length; k++) this.wanted[k] = ranked[k].c;
      this.wantedKeys.clear();
      for (const c of this.wanted) this.wantedKeys.add(c.key);
    }
    // Every wanted chunk needs a mesh: its own, else one cut from the overview (exact samples when
    // its stride allows, else a bilinear stand-in, replaced in place when its patch arrives). At
    // most LOD_STANDIN_BUILDS_PER_FRAME of those are built per frame, within the frame's build time
    // (at least one), so a camera jump spreads its work over frames.
    let built = 0;
    this.waiting = 0;
    for (const c of this.wanted) {
      if (this.cache.has(c.key)) continue;
      if (built >= LOD_STANDIN_BUILDS_PER_FRAME || (built > 0 && performance.now() - t0 >= LOD_BUILD_MS_PER_FRAME)) {
        this.waiting++;
        continue;
      }
      if (!this.ready(c)) {
        const ph = placeholderChunk(this.grid, this.info.overview, c, this.chunkCells);
        this.store(c, ph.patch, ph.chunk);
      }
      built++;
    }
    // The drawn chunks tile the map once: the previous selection stays drawn until the new one is
    // complete. A new world shows its whole map as one coarse chunk from the overview until its
    // first selection is complete (chunks shown as they were built stood on their skirts as
    // blocks: the first frames showed an olive cube).
    if (this.waiting > 0 && this.drawnWhole) return;
    if (this.waiting > 0) {
      this.showWholeMap();
      return;
    }
    this.drawnWhole = this.waiting === 0;
    const missing: LodChunk[] = [];
    for (const key of this.drawn) {
      if (!this.wantedKeys.has(key)) {
        const cc = this.cache.get(key);
        if (cc) this.group.remove(cc.mesh);
        this.drawn.delete(key);
      }
    }
    for (const c of this.wanted) {
      const cc = this.cache.get(c.key);
      if (!cc) continue; // not built yet (a new world's first frames)
      if (cc.placeholder) missing.push(c);
      this.cache.delete(c.key); // most recently used goes last
      this.cache.set(c.key, cc);
      if (!this.drawn.has(c.key)) {
        this.group.add(cc.mesh);
        this.drawn.add(c.key);
      }
    }
    this.evict();
    // `missing` keeps the selection's order: the followed body's ground first, then by camera distance.
    for (const c of missing) {
      // patches waiting for their mesh count too: requests never outrun the builds
      if (this.inFlight + this.arrived.length >= TERRAIN_PATCH_REQUESTS_IN_FLIGHT) break;
      this.request(c);
    }
  }

  /** Draws only the root chunk (the whole map at the coarsest stride, no inner borders so no skirts). */
  private showWholeMap(): void {
    const root = lodChunk(this.grid, this.chunkCells, rootLevel(this.grid, this.chunkCells), 0, 0);
    if (!root) return;
    if (!this.ready(root)) {
      const ph = placeholderChunk(this.grid, this.info.overview, root, this.chunkCells);
      this.store(root, ph.patch, ph.chunk);
    }
    const cc = this.cache.get(root.key);
    if (!cc || this.drawn.has(root.key)) return;
    for (const key of this.drawn) {
      const other = this.cache.get(key);
      if (other) this.group.remove(other.mesh);
    }
    this.drawn.clear();
    this.group.add(cc.mesh);
    this.drawn.add(root.key);
  }

  /**
   * Order of chunks to build and request: the followed body's ground first (it should be the
   * collision surface at once), then by distance from the camera.
   */
  private rank(c: LodChunk, ex: number, ey: number, ez: number, fx: number, fy: number): number {
    const zMid = (this.grid.minHeight + this.grid.maxHeight) / 2;
    return (c.level === 0 && chunkDistance(this.grid, c, fx, fy, zMid) < LOD_FOCUS_RADIUS ? 0 : 1e12) + chunkDistance(this.grid, c, ex, ey, ez);
  }

  /** True when the chunk's mesh is cached, building it from the overview when it is coarse enough. */
  private ready(c: LodChunk): boolean {
    if (this.cache.has(c.key)) return true;
    const p = patchFromOverview(this.grid, this.info.overview, c);
    if (!p) return false;
    this.store(c, p);
    return true;
  }

  /**
   * Caches the mesh of chunk `c` from `p`; `drawnAs` (a placeholder: the chunk at a coarser
   * stride) marks it as a stand-in. A mesh already drawn under that key is swapped in place.
   */
  private store(c: LodChunk, p: SampledHeights, drawnAs?: LodChunk): void {
    const m = chunkMesh(this.grid, drawnAs ?? c, p);
    this.meshesBuilt++;
    const geom = new THREE.BufferGeometry();
    geom.setAttribute('position', new THREE.BufferAttribute(m.positions, 3));
    geom.setAttribute('normal', new THREE.BufferAttribute(m.normals, 3));
    geom.setAttribute('color', new THREE.BufferAttribute(m.colors, 3));
    geom.setIndex(new THREE.BufferAttribute(m.indices, 1));
    geom.computeBoundingSphere();
    const mesh = new THREE.Mesh(geom, this.material);
    mesh.name = `terrain-chunk ${c.key}`;
    mesh.userData.stride = c.stride;
    const bytes = m.positions.byteLength + m.normals.byteLength + m.colors.byteLength + m.indices.byteLength;
    const old = this.cache.get(c.key);
    if (old) {
      if (this.drawn.has(c.key)) {
        this.group.remove(old.mesh);
        this.group.add(mesh);
      }
      old.mesh.geometry.dispose();
    }
    this.cache.set(c.key, { chunk: drawnAs ?? c, mesh, bytes, placeholder: drawnAs !== undefined });
  }

  private evict(): void {
    for (const [key, cc] of this.cache) {
      if (this.cache.size <= TERRAIN_CHUNK_CACHE) break;
      if (this.drawn.has(key) || this.wantedKeys.has(key)) continue;
      cc.mesh.geometry.dispose();
      this.cache.delete(key);
    }
  }

  private request(c: LodChunk): void {
    if (this.pending.has(c.key) || this.failed.has(c.key)) return;
    this.pending.add(c.key);
    this.inFlight++;
    this.requests++;
    this.fetch(...chunkRequest(c)).then(
      (p) => {
        this.inFlight--;
        if (this.disposed) return;
        this.bytesReceived += p.heights.byteLength;
        this.arrived.push({ c, p }); // still pending until its mesh is built
        this.dirty = true;
      },
      (e: unknown) => {
        this.inFlight--;
        this.pending.delete(c.key);
        this.failed.add(c.key);
        this.lastError = e instanceof Error ? e.message : String(e);
        this.dirty = true;
      },
    );
  }

  /** Stride of the drawn chunk over (x, y) (1 = the exact collision surface), or 0 off the map. */
  strideAt(x: number, y: number): number {
    const g = this.grid;
    const i = (x - g.x0) / g.dx, j = (y - g.y0) / g.dy;
    for (const key of this.drawn) {
      const c = this.cache.get(key)?.chunk;
      if (c && i >= c.i0 && i <= c.i0 + c.cols - 1 && j >= c.j0 && j <= c.j0 + c.rows - 1) return c.stride;
    }
    return 0;
  }

  get stats(): TerrainStats {
    let meshBytes = 0, drawnVertices = 0, minStride = Infinity, maxStride = 0;
    for (const cc of this.cache.values()) meshBytes += cc.bytes;
    for (const key of this.drawn) {
      const cc = this.cache.get(key);
      if (!cc) continue;
      drawnVertices += cc.mesh.geometry.getAttribute('position').count;
      minStride = Math.min(minStride, cc.chunk.stride);
      maxStride = Math.max(maxStride, cc.chunk.stride);
    }
    return {
      drawnChunks: this.drawn.size,
      wantedChunks: this.wanted.length,
      drawnVertices,
      cachedChunks: this.cache.size,
      meshBytes,
      overviewBytes: this.info.overview.heights.byteLength,
      requests: this.requests,
      inFlight: this.inFlight,
      bytesReceived: this.bytesReceived,
      minStride: Number.isFinite(minStride) ? minStride : 0,
      maxStride,
      lastError: this.lastError,
      meshesBuilt: this.meshesBuilt,
      waiting: this.waiting,
    };
  }

  dispose(): void {
    this.disposed = true;
    for (const cc of this.cache.values()) cc.mesh.geometry.dispose();
    this.cache.clear();
    this.drawn.clear();
    this.arrived.length = 0;
    this.group.clear();
    this.material.dispose();
    this.shading.dispose();
  }
}

/** The chunk's own samples of a level-0 patch (which has a ring around them). */
function corePatch(c: LodChunk, p: TerrainPatch): TerrainPatch {
  const ci = c.i0 - p.i0, cj = c.j0 - p.j0;
  const heights = new Float32Array(c.cols * c.rows);
  for (let r = 0; r < c.rows; r++) heights.set(p.heights.subarray((r + cj) * p.sampleCols + ci, (r + cj) * p.sampleCols + ci + c.cols), r * c.cols);
  let lo = Infinity, hi = -Infinity;
  for (const h of heights) {
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  return { i0: c.i0, j0: c.j0, cols: c.cols, rows: c.rows, stride: 1, sampleCols: c.cols, sampleRows: c.rows, heights, minHeight: lo, maxHeight: hi };
}
