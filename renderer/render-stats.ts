/**
 * Measures of the render loop and of the memory the 3D view holds, for the renderer benchmark
 * (test/bench/renderer.bench.ts) through the test hook. Nothing in the app reads them.
 *
 * - FrameTiming: the last FRAME_TIMING_CAPACITY animation frames' start times and the main-thread
 *   time spent inside the frame callback (performance.now() at entry and exit): two numbers per
 *   frame into preallocated rings, no allocation per frame.
 * - terrainGpuMemory: the bytes of the terrain's three.js geometry (vertex attributes, index,
 *   instance buffers) and data textures, found generically: every object named 'terrain' and all
 *   its descendants. A single mesh or a group of LOD chunks, any attribute layout: what is counted
 *   is what three.js uploads, so the measure does not depend on how terrain-view.ts builds it.
 * - typedArrayBytes: the bytes of every typed array / ArrayBuffer reachable from a value (what
 *   crossed from the worker in a structured-clone message, e.g. WorldInfo.terrain).
 */
import type * as THREE from 'three';

/** [-] Frames kept by FrameTiming (about 10 s at 60 fps, a minute on software GL). */
export const FRAME_TIMING_CAPACITY = 1024;

/** Name of the object(s) under which the terrain's geometry lives (terrain-view.ts names its mesh so). */
export const TERRAIN_OBJECT_NAME = 'terrain';

export interface FrameTimingSnapshot {
  /** Frames recorded since start (may exceed the arrays' length: the rings keep the newest). */
  count: number;
  /** [ms] performance.now() time stamps at the start of each kept frame, oldest first. */
  startMs: number[];
  /** [ms] Time spent inside the frame callback for each kept frame, oldest first. */
  callbackMs: number[];
}

export class FrameTiming {
  private readonly start: Float64Array;
  private readonly busy: Float64Array;
  private n = 0;

  constructor(readonly capacity = FRAME_TIMING_CAPACITY) {
    if (!(Number.isInteger(capacity) && capacity > 0)) throw new Error(`FrameTiming: capacity must be a positive integer, got ${capacity}`);
    this.start = new Float64Array(capacity);
    this.busy = new Float64Array(capacity);
  }

  /** One frame: its start time and the time its callback took [ms]. */
  record(startMs: number, callbackMs: number): void {
    const k = this.n % this.capacity;
    this.start[k] = startMs;
    this.busy[k] = callbackMs;
    this.n++;
  }

  get count(): number {
    return this.n;
  }

  snapshot(): FrameTimingSnapshot {
    const kept = Math.min(this.n, this.capacity);
    const first = this.n - kept;
    const startMs: number[] = [];
    const callbackMs: number[] = [];
    for (let f = first; f < this.n; f++) {
      startMs.push(this.start[f % this.capacity]);
      callbackMs.push(this.busy[f % this.capacity]);
    }
    return { count: this.n, startMs, callbackMs };
  }
}

export interface TerrainGpuMemory {
  /** Bytes of vertex attributes, indices, instance attributes and data textures, each buffer counted once. */
  bytes: number;
  /** Distinct geometries. */
  geometries: number;
  /** Vertices over those geometries (position attribute counts). */
  vertices: number;
  /** Of which in objects drawn now (visible up the tree). */
  visibleVertices: number;
}

function isVisible(o: THREE.Object3D): boolean {
  for (let p: THREE.Object3D | null = o; p; p = p.parent) if (!p.visible) return false;
  return true;
}

function attributeArray(a: THREE.BufferAttribute | THREE.InterleavedBufferAttribute): ArrayLike<number> & { byteLength: number } {
  // An interleaved attribute shares its buffer with its siblings: count the buffer, once.
  return 'isInterleavedBufferAttribute' in a && a.isInterleavedBufferAttribute ? a.data.array : (a as THREE.BufferAttribute).array;
}

/** Every object named TERRAIN_OBJECT_NAME under `root` (inclusive), and what their subtrees hold. */
export function terrainGpuMemory(root: THREE.Object3D): TerrainGpuMemory {
  const seenBuffers = new Set<unknown>();
  const seenGeometries = new Set<THREE.BufferGeometry>();
  const seenTextures = new Set<THREE.Texture>();
  const out: TerrainGpuMemory = { bytes: 0, geometries: 0, vertices: 0, visibleVertices: 0 };
  const addBuffer = (arr: { byteLength: number } | null | undefined): void => {
    if (!arr || seenBuffers.has(arr)) return;
    seenBuffers.add(arr);
    out.bytes += arr.byteLength;
  };
  const visit = (o: THREE.Object3D): void => {
    const withGeometry = o as THREE.Object3D & { geometry?: THREE.BufferGeometry; material?: THREE.Material | THREE.Material[] };
    const g = withGeometry.geometry;
    if (g && g.isBufferGeometry) {
      const pos = g.getAttribute('position');
      if (pos && isVisible(o)) out.visibleVertices += pos.count;
      if (!seenGeometries.has(g)) {
        seenGeometries.add(g);
        out.geometries++;
        if (pos) out.vertices += pos.count;
        for (const name of Object.keys(g.attributes)) addBuffer(attributeArray(g.attributes[name]));
        if (g.index) addBuffer(g.index.array);
      }
    }
    const inst = o as THREE.Object3D & { isInstancedMesh?: boolean; instanceMatrix?: THREE.BufferAttribute; instanceColor?: THREE.BufferAttribute | null };
    if (inst.isInstancedMesh) {
      addBuffer(inst.instanceMatrix?.array);
      addBuffer(inst.instanceColor?.array);
    }
    const mats = withGeometry.material === undefined ? [] : Array.isArray(withGeometry.material) ? withGeometry.material : [withGeometry.material];
    for (const m of mats) {
      // Height or normal maps (a vertex-texture LOD scheme): count the texel data three.js uploads.
      for (const v of Object.values(m as unknown as Record<string, unknown>)) {
        const t = v as THREE.Texture | null;
        if (!t || typeof t !== 'object' || !(t as { isTexture?: boolean }).isTexture || seenTextures.has(t)) continue;
        seenTextures.add(t);
        const data = (t.image as { data?: { byteLength: number } } | undefined)?.data;
        addBuffer(data);
      }
    }
  };
  root.traverse((o) => {
    if (o.name !== TERRAIN_OBJECT_NAME) return;
    o.traverse(visit);
  });
  return out;
}

/**
 * Bytes of every typed array, DataView and ArrayBuffer reachable from `value` (a view counts its
 * own bytes, each object once). Walks plain objects and arrays to `maxDepth`.
 */
export function typedArrayBytes(value: unknown, maxDepth = 8): number {
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number): number => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return 0;
    seen.add(v);
    if (ArrayBuffer.isView(v)) return v.byteLength;
    if (v instanceof ArrayBuffer) return v.byteLength;
    if (depth >= maxDepth) return 0;
    let sum = 0;
    if (Array.isArray(v)) for (const x of v) sum += walk(x, depth + 1);
    else for (const x of Object.values(v)) sum += walk(x, depth + 1);
    return sum;
  };
  return walk(value, 0);
}
