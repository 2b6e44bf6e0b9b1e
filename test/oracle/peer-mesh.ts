/**
 * Our terrain surface as a triangle list, and as a Jolt MeshShape: what the peer engines get so
 * that they collide with exactly our triangulation (the V1–V2 diagonal). Shared by the wheel
 * oracle's peers (cylinder-peers.ts) and the vehicle bench (bench/vehicle/).
 */
import type initJolt from 'jolt-physics/wasm-compat';
import type { Heightfield } from '../../sim/terrain/heightfield';

type JoltModule = Awaited<ReturnType<typeof initJolt>>;
type JShape = InstanceType<JoltModule['Shape']>;

/** Triangles of our surface (float32 vertices): planar cells as two coplanar triangles. */
export function terrainTriangles(hf: Heightfield): { vertices: Float32Array; indices: Uint32Array } {
  const vertices = new Float32Array(hf.cols * hf.rows * 3);
  for (let j = 0; j < hf.rows; j++) {
    for (let i = 0; i < hf.cols; i++) {
      const k = (j * hf.cols + i) * 3;
      vertices[k] = hf.vertexX(i);
      vertices[k + 1] = hf.vertexY(j);
      vertices[k + 2] = hf.height(i, j);
    }
  }
  const indices = new Uint32Array(hf.cellsX * hf.cellsY * 6);
  let n = 0;
  for (let j = 0; j < hf.cellsY; j++) {
    for (let i = 0; i < hf.cellsX; i++) {
      const v0 = j * hf.cols + i, v1 = v0 + 1, v2 = v0 + hf.cols, v3 = v2 + 1;
      // V0 V1 V2 and V1 V3 V2, counter-clockwise seen from above (normals up).
      indices[n++] = v0; indices[n++] = v1; indices[n++] = v2;
      indices[n++] = v1; indices[n++] = v3; indices[n++] = v2;
    }
  }
  return { vertices, indices };
}

/**
 * A Jolt MeshShape of our triangles (the caller owns it: AddRef to keep it).
 * `maxTrianglesPerLeaf`: MeshShapeSettings.mMaxTrianglesPerLeaf (Jolt's default when omitted).
 */
export function joltTerrainMesh(J: JoltModule, hf: Heightfield, maxTrianglesPerLeaf?: number): JShape {
  const { vertices, indices } = terrainTriangles(hf);
  const vl = new J.VertexList();
  vl.reserve(vertices.length / 3);
  const f3 = new J.Float3(0, 0, 0);
  for (let k = 0; k < vertices.length; k += 3) {
    f3.x = vertices[k]; f3.y = vertices[k + 1]; f3.z = vertices[k + 2];
    vl.push_back(f3);
  }
  const tl = new J.IndexedTriangleList();
  tl.reserve(indices.length / 3);
  const tri = new J.IndexedTriangle();
  for (let k = 0; k < indices.length; k += 3) {
    tri.set_mIdx(0, indices[k]); tri.set_mIdx(1, indices[k + 1]); tri.set_mIdx(2, indices[k + 2]);
    tl.push_back(tri);
  }
  const settings = new J.MeshShapeSettings(vl, tl, new J.PhysicsMaterialList());
  if (maxTrianglesPerLeaf !== undefined) settings.mMaxTrianglesPerLeaf = maxTrianglesPerLeaf;
  const res = settings.Create();
  if (res.HasError()) throw new Error(`Jolt MeshShape: ${res.GetError().c_str()}`);
  const shape = res.Get();
  J.destroy(vl); J.destroy(tl); J.destroy(tri); J.destroy(f3);
  return shape;
}

/**
 * A Jolt HeightFieldShape of our grid, for terrains whose MeshShape does not fit the wasm build's
 * fixed heap (a 1,025² mesh runs it out of memory; the scaling bench's large terrain). Not our
 * triangles: Jolt splits every cell along the other diagonal (V0–V3) and stores each block's
 * samples in `bitsPerSample` bits between the block's lowest and highest height (its own
 * compression; the vertical error is reported by the runner's terrain check). Jolt's height axis
 * is its local y: the shape is meant for a body rotated by JOLT_HEIGHTFIELD_ROTATION (local x →
 * world y, local y → world z, local z → world x), at the origin.
 */
export function joltTerrainHeightField(J: JoltModule, hf: Heightfield, bitsPerSample = 8): JShape {
  if (hf.cols !== hf.rows || hf.dx !== hf.dy) throw new Error(`Jolt HeightFieldShape needs a square grid, got ${hf.cols}×${hf.rows} at ${hf.dx}×${hf.dy} m`);
  const n = hf.cols;
  const settings = new J.HeightFieldShapeSettings();
  settings.mSampleCount = n;
  settings.mBitsPerSample = bitsPerSample;
  settings.mOffset.Set(hf.y0, 0, hf.x0);
  settings.mScale.Set(hf.dy, 1, hf.dx);
  const samples = settings.mHeightSamples;
  samples.reserve(n * n);
  // Jolt's sample (x index a, z index b) is at mHeightSamples[b·n + a]: world x = x0 + b·dx, y = y0 + a·dy.
  for (let b = 0; b < n; b++) for (let a = 0; a < n; a++) samples.push_back(hf.height(b, a));
  const res = settings.Create();
  if (res.HasError()) throw new Error(`Jolt HeightFieldShape: ${res.GetError().c_str()}`);
  const shape = res.Get();
  J.destroy(settings);
  return shape;
}

/** [x, y, z, w] Rotation of a joltTerrainHeightField body (120° about (1, 1, 1)). */
export const JOLT_HEIGHTFIELD_ROTATION = [0.5, 0.5, 0.5, 0.5] as const;
