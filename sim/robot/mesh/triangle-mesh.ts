/**
 * A triangle mesh as the robot loaders read it: vertex positions and triangle corner indices.
 * STL gives an unwelded soup (three fresh vertices per triangle); OBJ gives shared vertices.
 * Not a hot path: built once per model load.
 */
export interface TriangleMesh {
  /** xyz interleaved, V·3 numbers [m] (before the URDF's mesh scale). */
  positions: Float64Array;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array;
}

/** Closed-mesh test: the two volume sums may differ by this fraction of the bounding-box volume. */
const MESH_CLOSED_RELATIVE = 1e-6;
/** A "closed" mesh must enclose at least this fraction of its bounding box (not a flat double-sided sheet). */
const MESH_MIN_VOLUME_RELATIVE = 1e-9;

export function triangleCount(m: TriangleMesh): number {
  return (m.indices.length / 3) | 0;
}

/**
 * Enclosed volume by the divergence theorem: Σ det(a, b, c)/6 over triangles, taken about two
 * reference points (the origin and the bounding-box centre). For a closed, consistently wound
 * mesh both sums agree; an open mesh (a missing face, a plane) gives sums that differ, and then
 * the "volume" means nothing: `closed` is false. (Not caught: holes whose area vectors cancel,
 * e.g. a tube open at both ends; the fit check is then approximate.)
 */
export function meshVolume(m: TriangleMesh): { volume: number; closed: boolean } {
  const p = m.positions, ix = m.indices;
  let lo0 = Infinity, lo1 = Infinity, lo2 = Infinity, hi0 = -Infinity, hi1 = -Infinity, hi2 = -Infinity;
  for (let i = 0; i < p.length; i += 3) {
    lo0 = Math.min(lo0, p[i]); hi0 = Math.max(hi0, p[i]);
    lo1 = Math.min(lo1, p[i + 1]); hi1 = Math.max(hi1, p[i + 1]);
    lo2 = Math.min(lo2, p[i + 2]); hi2 = Math.max(hi2, p[i + 2]);
  }
  if (!(hi0 >= lo0)) return { volume: 0, closed: false };
  // The second reference point is off-centre on purpose: a hole's area vector is caught unless it
  // is perpendicular to the offset, which an irregular offset makes unlikely for real meshes.
  const c0 = (lo0 + hi0) / 2 + (hi0 - lo0) * 0.37, c1 = (lo1 + hi1) / 2 - (hi1 - lo1) * 0.29, c2 = (lo2 + hi2) / 2 + (hi2 - lo2) * 0.23;
  let v0 = 0, v1 = 0;
  for (let t = 0; t + 2 < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    v0 += det(p[a], p[a + 1], p[a + 2], p[b], p[b + 1], p[b + 2], p[c], p[c + 1], p[c + 2]);
    v1 += det(p[a] - c0, p[a + 1] - c1, p[a + 2] - c2, p[b] - c0, p[b + 1] - c1, p[b + 2] - c2, p[c] - c0, p[c + 1] - c1, p[c + 2] - c2);
  }
  v0 /= 6;
  v1 /= 6;
  const box = Math.max(hi0 - lo0, 1e-300) * Math.max(hi1 - lo1, 1e-300) * Math.max(hi2 - lo2, 1e-300);
  // Rounding of float32 STL coordinates stays far below MESH_CLOSED_RELATIVE.
  const closed = Math.abs(v0 - v1) <= MESH_CLOSED_RELATIVE * box && Math.abs(v0) > MESH_MIN_VOLUME_RELATIVE * box;
  return { volume: Math.abs(v0), closed };
}

function det(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): number {
  return ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
}
