/**
 * Wavefront OBJ reader for robot meshes: `v x y z [w]` vertices and `f a b c ...` faces (indices
 * 1-based or negative = relative to the end, each as `v`, `v/vt`, `v//vn` or `v/vt/vn`);
 * polygons are fan-triangulated. Everything else (vt, vn, groups, materials, smoothing) is
 * skipped: the collision hull needs positions only, and the renderer reads OBJ with three's loader.
 */
import { MESH_MAX_BYTES, MESH_MAX_TRIANGLES, MESH_MAX_VERTICES, UrdfError } from '../urdf/urdf-error';
import type { TriangleMesh } from './triangle-mesh';

/**
 * Parses a Wavefront OBJ mesh (vertices and faces; polygons fanned into triangles). Throws a
 * `UrdfError` naming the file when it is malformed or too large.
 */
export function parseObj(bytes: Uint8Array, name: string): TriangleMesh {
  if (bytes.byteLength > MESH_MAX_BYTES) throw new UrdfError(`mesh "${name}": ${bytes.byteLength} bytes; at most ${MESH_MAX_BYTES} are accepted`, name);
  const text = new TextDecoder('utf-8').decode(bytes);
  const pos: number[] = [];
  const idx: number[] = [];
  let line = 0;
  const corner: number[] = [];
  for (const raw of text.split('\n')) {
    line++;
    const s = raw.trim();
    if (s.length < 2) continue;
    if (s.startsWith('v ') || s.startsWith('v\t')) {
      const parts = s.split(/\s+/);
      if (parts.length < 4 || parts.length > 5) throw new UrdfError(`mesh "${name}" line ${line}: "v" needs x y z`, name);
      for (let k = 1; k < 4; k++) {
        const v = Number(parts[k]);
        if (!Number.isFinite(v)) throw new UrdfError(`mesh "${name}" line ${line}: "${parts[k].slice(0, 30)}" is not a finite number`, name);
        pos.push(v);
      }
      if (pos.length / 3 > MESH_MAX_VERTICES) throw new UrdfError(`mesh "${name}": more than ${MESH_MAX_VERTICES} vertices (simplify the mesh)`, name);
    } else if (s.startsWith('f ') || s.startsWith('f\t')) {
      const parts = s.split(/\s+/);
      corner.length = 0;
      const nv = pos.length / 3;
      for (let k = 1; k < parts.length; k++) {
        const first = parts[k].split('/')[0];
        const i = /^-?\d+$/.test(first) ? Number(first) : NaN;
        // OBJ indices are 1-based; negative ones count back from the last vertex read so far.
        const v = i > 0 ? i - 1 : i < 0 ? nv + i : -1;
        if (!(v >= 0 && v < nv)) throw new UrdfError(`mesh "${name}" line ${line}: face index "${parts[k].slice(0, 30)}" does not name one of the ${nv} vertices read so far`, name);
        corner.push(v);
      }
      if (corner.length < 3) throw new UrdfError(`mesh "${name}" line ${line}: a face needs at least 3 vertices`, name);
      for (let k = 1; k + 1 < corner.length; k++) idx.push(corner[0], corner[k], corner[k + 1]);
      if (idx.length / 3 > MESH_MAX_TRIANGLES) throw new UrdfError(`mesh "${name}": more than ${MESH_MAX_TRIANGLES} triangles (simplify the mesh)`, name);
    }
  }
  if (idx.length === 0) throw new UrdfError(`mesh "${name}": the OBJ has no faces ("f" lines)`, name);
  return { positions: Float64Array.from(pos), indices: Uint32Array.from(idx) };
}

/** Picks the reader by file extension (.stl, .obj; case-insensitive). */
export function meshFormat(fileName: string): 'stl' | 'obj' | 'dae' | 'unknown' {
  const m = /\.([a-z0-9]+)$/i.exec(fileName);
  const ext = m ? m[1].toLowerCase() : '';
  return ext === 'stl' ? 'stl' : ext === 'obj' ? 'obj' : ext === 'dae' ? 'dae' : 'unknown';
}
