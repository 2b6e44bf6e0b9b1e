/**
 * STL reader (binary and ASCII) for robot meshes.
 *
 * Binary: 80-byte header, uint32 triangle count n, then n records of 50 bytes (normal, three
 * vertices as float32 little-endian, uint16 attribute). ASCII: `solid name`, then per triangle
 * `facet normal nx ny nz / outer loop / vertex x y z ×3 / endloop / endfacet`, `endsolid`.
 *
 * Which one: a file whose size is exactly 84 + 50·n is binary, even when its header starts with
 * "solid" (many exporters write that); otherwise it must start with "solid" to be ASCII. Stored
 * normals are ignored (the winding decides, as in most loaders).
 */
import { MESH_MAX_BYTES, MESH_MAX_TRIANGLES, UrdfError } from '../urdf/urdf-error';
import type { TriangleMesh } from './triangle-mesh';

const STL_HEADER_BYTES = 84;
const STL_RECORD_BYTES = 50;

/** `name` is the file name used in messages. */
export function parseStl(bytes: Uint8Array, name: string): TriangleMesh {
  if (bytes.byteLength > MESH_MAX_BYTES) throw new UrdfError(`mesh "${name}": ${bytes.byteLength} bytes; at most ${MESH_MAX_BYTES} are accepted`, name);
  if (bytes.byteLength >= STL_HEADER_BYTES) {
    const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    if (STL_HEADER_BYTES + STL_RECORD_BYTES * n === bytes.byteLength) return parseBinary(bytes, n, name);
  }
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.byteLength, 512)));
  if (/^\s*solid\b/.test(head)) return parseAscii(bytes, name);
  if (bytes.byteLength >= STL_HEADER_BYTES) {
    const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    throw new UrdfError(
      `mesh "${name}": not an STL: a binary STL announcing ${n} triangles must be ${STL_HEADER_BYTES + STL_RECORD_BYTES * n} bytes, this one is ${bytes.byteLength} (truncated?), and it does not start with "solid" (ASCII)`,
      name,
    );
  }
  throw new UrdfError(`mesh "${name}": not an STL (${bytes.byteLength} bytes, shorter than a binary header and not ASCII "solid ...")`, name);
}

function parseBinary(bytes: Uint8Array, n: number, name: string): TriangleMesh {
  if (n === 0) throw new UrdfError(`mesh "${name}": the STL has no triangles`, name);
  if (n > MESH_MAX_TRIANGLES) throw new UrdfError(`mesh "${name}": ${n} triangles; at most ${MESH_MAX_TRIANGLES} are accepted (simplify the mesh)`, name);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const positions = new Float64Array(n * 9);
  for (let t = 0; t < n; t++) {
    const base = STL_HEADER_BYTES + t * STL_RECORD_BYTES + 12;
    for (let k = 0; k < 9; k++) {
      const v = dv.getFloat32(base + 4 * k, true);
      if (!Number.isFinite(v)) throw new UrdfError(`mesh "${name}": triangle ${t} has a NaN or infinite coordinate`, name);
      positions[9 * t + k] = v;
    }
  }
  return { positions, indices: sequence(n * 3) };
}

function parseAscii(bytes: Uint8Array, name: string): TriangleMesh {
  const text = new TextDecoder('latin1').decode(bytes);
  const coords: number[] = [];
  let inLoop = false;
  let loopCount = 0;
  let line = 0;
  let triangles = 0;
  for (const raw of text.split('\n')) {
    line++;
    const parts = raw.trim().split(/\s+/);
    const key = parts[0].toLowerCase();
    if (key === 'outer') {
      if (inLoop) throw new UrdfError(`mesh "${name}" line ${line}: "outer loop" inside a loop`, name);
      inLoop = true;
      loopCount = 0;
    } else if (key === 'vertex') {
      if (!inLoop) throw new UrdfError(`mesh "${name}" line ${line}: "vertex" outside "outer loop"`, name);
      if (parts.length !== 4) throw new UrdfError(`mesh "${name}" line ${line}: "vertex" needs 3 numbers`, name);
      for (let k = 1; k < 4; k++) {
        const v = Number(parts[k]);
        if (parts[k] === '' || !Number.isFinite(v)) throw new UrdfError(`mesh "${name}" line ${line}: "${parts[k].slice(0, 30)}" is not a finite number`, name);
        coords.push(v);
      }
      loopCount++;
    } else if (key === 'endloop') {
      if (!inLoop || loopCount !== 3) throw new UrdfError(`mesh "${name}" line ${line}: a facet needs exactly 3 vertices, found ${loopCount}`, name);
      inLoop = false;
      if (++triangles > MESH_MAX_TRIANGLES) throw new UrdfError(`mesh "${name}": more than ${MESH_MAX_TRIANGLES} triangles (simplify the mesh)`, name);
    }
    // solid, facet, endfacet, endsolid and blank lines carry nothing we use.
  }
  if (inLoop) throw new UrdfError(`mesh "${name}": the file ends inside a facet (truncated?)`, name);
  if (triangles === 0) throw new UrdfError(`mesh "${name}": the ASCII STL has no facets`, name);
  return { positions: Float64Array.from(coords), indices: sequence(triangles * 3) };
}

function sequence(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}
