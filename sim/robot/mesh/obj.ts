/**
 * Wavefront OBJ reader for robot meshes: `v x y z [w]` vertices and `f a b c ...` faces (indices
 * 1-based or negative = relative to the end, each as `v`, `v/vt`, `v//vn` or `v/vt/vn`);
 * polygons are fan-triangulated. Everything else (vt, vn, groups, materials, smoothing) is
 * skipped: the collision hull needs positions only, and the renderer reads OBJ with three's loader.
 *
 * Counts come before work (issue #28: a 10M-corner face was triangulated, 14.6 s and 1.08 GB,
 * before the triangle cap was checked): a face's corners are read one token at a time, refused
 * past OBJ_MAX_FACE_CORNERS, and the face's triangles are added to the count before any is stored.
 */
import { MESH_MAX_BYTES, MESH_MAX_TRIANGLES, MESH_MAX_VERTICES, UrdfError } from '../urdf/urdf-error';
import type { TriangleMesh } from './triangle-mesh';
import { OBJ_MAX_FACE_CORNERS } from './visual-limits';

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

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
      corner.length = 0;
      const nv = pos.length / 3;
      // Tokens after "f", one at a time (no split: a 10M-corner line must not become 10M strings).
      let k = 2;
      while (k < s.length) {
        while (k < s.length && isBlank(s.charCodeAt(k))) k++;
        if (k >= s.length) break;
        let e = k;
        while (e < s.length && !isBlank(s.charCodeAt(e))) e++;
        if (corner.length >= OBJ_MAX_FACE_CORNERS) {
          throw new UrdfError(`mesh "${name}" line ${line}: a face with more than ${OBJ_MAX_FACE_CORNERS} corners (split the face)`, name);
        }
        const token = s.slice(k, e);
        const slash = token.indexOf('/');
        const first = slash >= 0 ? token.slice(0, slash) : token;
        const i = /^-?\d{1,10}$/.test(first) ? Number(first) : NaN;
        // OBJ indices are 1-based; negative ones count back from the last vertex read so far.
        const v = i > 0 ? i - 1 : i < 0 ? nv + i : -1;
        if (!(v >= 0 && v < nv)) throw new UrdfError(`mesh "${name}" line ${line}: face index "${token.slice(0, 30)}" does not name one of the ${nv} vertices read so far`, name);
        corner.push(v);
        k = e;
      }
      if (corner.length < 3) throw new UrdfError(`mesh "${name}" line ${line}: a face needs at least 3 vertices`, name);
      if (idx.length / 3 + corner.length - 2 > MESH_MAX_TRIANGLES) {
        throw new UrdfError(`mesh "${name}" line ${line}: this face brings the mesh past ${MESH_MAX_TRIANGLES} triangles (simplify the mesh)`, name);
      }
      for (let c = 1; c + 1 < corner.length; c++) idx.push(corner[0], corner[c], corner[c + 1]);
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
