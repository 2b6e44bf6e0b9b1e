/**
 * Headerless float32 heightmap ("RAW", as exported by World Machine, Gaea, GDAL `-of ENVI`):
 * `cols × rows` IEEE-754 single-precision heights in metres, row-major, row 0 = NORTH edge, no
 * header, byte order from the sidecar. The byte count must match the declared size exactly: one
 * byte short is a truncated file, one byte over is a wrong size, and both are errors, because a
 * mis-sized RAW still "decodes" into a sheared terrain that looks almost right.
 */
import { TerrainError } from './heightfield';

/**
 * Decode into `out` (length cols·rows) with the row flip applied: `out[j*cols + i]` = file row
 * (rows − 1 − j), column i. Rejects NaN/±∞ with their location. `onProgress` gets [0, 1].
 */
export function decodeRawFloat32(
  data: Uint8Array,
  cols: number,
  rows: number,
  littleEndian: boolean,
  onProgress?: (fraction: number) => void,
): Float64Array {
  const need = cols * rows * 4;
  if (data.length !== need) {
    const what = data.length < need ? 'truncated file' : 'wrong "size" or wrong file';
    throw new TerrainError(
      `terrain RAW: file has ${data.length} bytes but "size" [${cols}, ${rows}] needs ${cols} × ${rows} × 4 = ${need} bytes (${what})`,
    );
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out = new Float64Array(cols * rows);
  const reportEvery = Math.max(1, Math.floor(rows / 50));
  for (let r = 0; r < rows; r++) {
    const dst = (rows - 1 - r) * cols;
    let src = r * cols * 4;
    for (let c = 0; c < cols; c++, src += 4) {
      const h = view.getFloat32(src, littleEndian);
      if (!Number.isFinite(h)) {
        throw new TerrainError(
          `terrain RAW: height at file row ${r} (from the top), column ${c} is ${h}; every height must be a finite number of metres` +
            ' (wrong "endianness"? no-data holes must be filled before loading)',
        );
      }
      out[dst + c] = h;
    }
    if (onProgress !== undefined && r % reportEvery === 0) onProgress((r + 1) / rows);
  }
  if (onProgress !== undefined) onProgress(1);
  return out;
}
