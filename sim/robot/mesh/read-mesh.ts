/**
 * A collision mesh file → its triangles, by extension: STL (stl.ts), OBJ (obj.ts), Collada
 * (collada.ts: unit and node transforms applied). One entry point for the URDF loader and the
 * convex decomposition step, so both read a file the same way.
 */
import { UrdfError } from '../urdf/urdf-error';
import { parseCollada } from './collada';
import { meshFormat, parseObj } from './obj';
import { parseStl } from './stl';
import type { TriangleMesh } from './triangle-mesh';

/** Reads `bytes` as the mesh format `file`'s extension names. Throws UrdfError naming the file. */
export function readCollisionMesh(file: string, bytes: Uint8Array): TriangleMesh {
  const format = meshFormat(file);
  if (format === 'stl') return parseStl(bytes, file);
  if (format === 'obj') return parseObj(bytes, file);
  if (format === 'dae') return parseCollada(bytes, file);
  throw new UrdfError(`mesh "${file}": unknown mesh format; collision meshes must be STL, OBJ or Collada (.dae)`, file);
}

/** The mesh with the URDF's per-axis scale applied (a new mesh; indices shared). */
export function scaleMesh(mesh: TriangleMesh, scale: readonly number[]): TriangleMesh {
  const p = new Float64Array(mesh.positions.length);
  for (let i = 0; i < p.length; i++) p[i] = mesh.positions[i] * scale[i % 3];
  // A mirroring scale turns the winding inside out; V-HACD's flood fill and the volume need it outward.
  if (scale[0] * scale[1] * scale[2] >= 0) return { positions: p, indices: mesh.indices };
  const ix = Uint32Array.from(mesh.indices);
  for (let t = 0; t + 2 < ix.length; t += 3) {
    const b = ix[t + 1];
    ix[t + 1] = ix[t + 2];
    ix[t + 2] = b;
  }
  return { positions: p, indices: ix };
}
