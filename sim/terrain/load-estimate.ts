/**
 * What a terrain load will cost, from the header alone (PNG IHDR, TIFF first IFD, RAW sidecar
 * "size"), before any pixel is decoded: the app shows it and offers Cancel for loads above
 * TERRAIN_LARGE_LOAD_BYTES (issue #18: a 522 KB flat 16385² PNG is a legal file that takes 26 s
 * and 5.9 GB; the user should know that before, and be able to stop it).
 *
 * Memory model per vertex, at the peak (while Heightfield.fromArray copies the decoded heights):
 *   decoded samples (PNG: inflated rows + packed samples, 2 × bytes per sample; others: 0)
 *   + decoded heights in metres (float64, 8 B) + the Heightfield's own copy (8 B)
 *   + min/max pyramid (≈ 5.3 B) + element kinds and edge classes (1 B)
 * The time is vertices / TERRAIN_LOAD_VERTICES_PER_SECOND: rough, for a message, not a promise.
 */
import { TERRAIN_MAX_VERTICES_PER_AXIS, TERRAIN_MIN_VERTICES_PER_AXIS } from '../constants';
import { isPng } from './png-decode';
import { readImageSize } from './geotiff-raster';
import { parseTerrainSidecar, type TerrainFormat } from './sidecar';
import { TiffContainer, isTiff } from './tiff-container';

/** [bytes] Loads estimated above this (256 MiB, ≈ a 3100² map) show their cost and a Cancel button first. */
export const TERRAIN_LARGE_LOAD_BYTES = 256 * 1024 * 1024;

/**
 * [vertices/s] Rough load throughput for the time estimate: a 16385² 16-bit PNG loaded in 26 s
 * on the project's 2-core CI machine (issue #18), ≈ 1e7 vertices per second.
 */
export const TERRAIN_LOAD_VERTICES_PER_SECOND = 1e7;

/** [bytes] Per vertex, independent of the file format (see the header). */
const BYTES_PER_VERTEX = 8 + 8 + 5.3 + 1;

/** What loading a terrain will cost, read from its header alone: size, memory and time. */
export interface TerrainLoadEstimate {
  format: TerrainFormat;
  cols: number;
  rows: number;
  /** [bytes] Peak memory the load will allocate (rough). */
  bytes: number;
  /** [s] Rough wall time. */
  seconds: number;
  /** True when bytes > TERRAIN_LARGE_LOAD_BYTES: say the cost and offer Cancel. */
  large: boolean;
}

/**
 * Estimate a load from the header. Returns null when the header cannot be read (the load itself
 * will then say what is wrong); never throws.
 */
export function estimateTerrainLoad(sidecar: unknown, data: Uint8Array): TerrainLoadEstimate | null {
  try {
    if (!(data instanceof Uint8Array)) return null;
    let format: TerrainFormat;
    let cols: number;
    let rows: number;
    let sampleBytes: number;
    if (isPng(data)) {
      if (data.length < 29) return null;
      const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
      format = 'png';
      cols = v.getUint32(16);
      rows = v.getUint32(20);
      sampleBytes = 2 * (data[24] === 16 ? 2 : 1); // inflated rows + packed samples
    } else if (isTiff(data)) {
      const size = readImageSize(TiffContainer.parse(data));
      format = 'geotiff';
      cols = size.width;
      rows = size.height;
      sampleBytes = 0; // decoded chunk by chunk into one reused buffer
    } else {
      const meta = parseTerrainSidecar(sidecar);
      if (meta.format !== 'raw-f32' || meta.size === undefined) return null;
      format = 'raw-f32';
      [cols, rows] = meta.size;
      sampleBytes = 0;
    }
    if (!(cols >= TERRAIN_MIN_VERTICES_PER_AXIS && cols <= TERRAIN_MAX_VERTICES_PER_AXIS && rows >= TERRAIN_MIN_VERTICES_PER_AXIS && rows <= TERRAIN_MAX_VERTICES_PER_AXIS)) {
      return null; // the load rejects it at once
    }
    const vertices = cols * rows;
    const bytes = vertices * (BYTES_PER_VERTEX + sampleBytes);
    return { format, cols, rows, bytes, seconds: vertices / TERRAIN_LOAD_VERTICES_PER_SECOND, large: bytes > TERRAIN_LARGE_LOAD_BYTES };
  } catch {
    return null;
  }
}

/** "16385 × 16385 vertices: about 7.2 GB of memory and 27 s", for a progress line. */
export function describeTerrainLoadEstimate(e: TerrainLoadEstimate): string {
  const gb = e.bytes / 1e9;
  const mem = gb >= 1 ? `${gb.toFixed(1)} GB` : `${Math.max(1, Math.round(e.bytes / 1e6))} MB`;
  const time = e.seconds >= 1 ? `${Math.round(e.seconds)} s` : 'under a second';
  return `${e.cols} × ${e.rows} vertices: about ${mem} of memory and ${time}`;
}
