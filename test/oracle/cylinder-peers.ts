/**
 * Peer engines answering the same cylinder-vs-terrain query as ours, for the cross-check test
 * and `npm run bench -- cylinder`. Each loader builds the peer's terrain once and returns a
 * `query(pose)` that reports the number of contacts and the largest penetration depth.
 *
 * Terrain triangulation (ours: each cell split on the V1–V2 diagonal, planar cells whole):
 *   Jolt    MeshShape built from our exact triangles (float32 vertices): identical surface,
 *           one static body; NarrowPhaseQuery.CollideShape of a CylinderShape (convex radius
 *           0) with an all-hits collector: one result per triangle hit (GJK/EPA per triangle).
 *   Rapier  TriMesh collider from our exact triangles (float32): identical surface.
 *           Collider.contactShape(cylinder): parry's composite-vs-convex contact returns ONE
 *           contact, the deepest over the triangles (GJK/EPA per triangle).
 *   MuJoCo  hfield geom. MuJoCo splits cell (c, r) on the (c, r)–(c+1, r+1) diagonal, so the
 *           hfield is our map mirrored in x (column c = our column cols−1−c) and the wheel is
 *           mirrored too (a cylinder is mirror-symmetric): identical surface, float32 heights
 *           normalised to [0, 1]. MuJoCo collides the cylinder with each triangle's PRISM (the
 *           triangle extruded down to the hfield base) by MPR / native CCD penetration, so
 *           its depth is the minimum translation out of a prism, which can exit through a
 *           prism wall: smaller than ours when the wheel is deep relative to the cell size.
 *           One contact per penetrating prism, at most mjMAXCONPAIR = 50.
 *
 * Peer depths are GJK/EPA/MPR minimum translation distances per triangle or prism: not the
 * oracle's clipped-lowest-line definition, so their "depth error" column measures how far a
 * per-triangle convex method is from the analytic definition, not only numerical noise.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import initJolt from 'jolt-physics/wasm-compat';
import loadMujocoModule from 'mujoco-js';
import type { Heightfield } from '../../sim/terrain/heightfield';
import type { CylinderPose } from './cylinder-oracle';
import { joltTerrainMesh, terrainTriangles } from './peer-mesh';

export interface PeerResult {
  contacts: number;
  /** [m] Largest penetration over the contacts, 0 when none. */
  maxDepth: number;
}

export interface Peer {
  name: string;
  /** How the peer represents the terrain and measures depth (one line for the table). */
  method: string;
  /** [ms] Time to build the peer's terrain. */
  buildMs: number;
  /** Writes into and returns a reused result object. */
  query(pose: CylinderPose): PeerResult;
  dispose(): void;
}

/** Quaternion [x, y, z, w] rotating unit vector `from` onto unit vector `to`. */
function quatFromTo(from: readonly number[], to: readonly number[]): [number, number, number, number] {
  const d = from[0] * to[0] + from[1] * to[1] + from[2] * to[2];
  if (d < -1 + 1e-12) {
    // Opposite: half turn about any axis ⟂ from.
    const ax = Math.abs(from[0]) < 0.9 ? [0, from[2], -from[1]] : [-from[2], 0, from[0]];
    const l = Math.hypot(ax[0], ax[1], ax[2]);
    return [ax[0] / l, ax[1] / l, ax[2] / l, 0];
  }
  const cx = from[1] * to[2] - from[2] * to[1];
  const cy = from[2] * to[0] - from[0] * to[2];
  const cz = from[0] * to[1] - from[1] * to[0];
  const w = 1 + d;
  const l = Math.hypot(cx, cy, cz, w);
  return [cx / l, cy / l, cz / l, w / l];
}

const Y_AXIS = [0, 1, 0];
const Z_AXIS = [0, 0, 1];

export async function loadJolt(hf: Heightfield): Promise<Peer> {
  const J = await initJolt();
  const t0 = performance.now();
  const mesh = joltTerrainMesh(J, hf);
  // A static body in a one-layer physics system, queried through its NarrowPhaseQuery
  // (TransformedShape.CollideShape crashes in jolt-physics 1.1.0's wasm build).
  const js = new J.JoltSettings();
  const objectFilter = new J.ObjectLayerPairFilterTable(1);
  objectFilter.EnableCollision(0, 0);
  const bpInterface = new J.BroadPhaseLayerInterfaceTable(1, 1);
  bpInterface.MapObjectToBroadPhaseLayer(0, new J.BroadPhaseLayer(0));
  js.mObjectLayerPairFilter = objectFilter;
  js.mBroadPhaseLayerInterface = bpInterface;
  js.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 1, objectFilter, 1);
  const jolt = new J.JoltInterface(js);
  J.destroy(js);
  const system = jolt.GetPhysicsSystem();
  const bcs = new J.BodyCreationSettings(mesh, new J.RVec3(0, 0, 0), new J.Quat(0, 0, 0, 1), J.EMotionType_Static, 0);
  system.GetBodyInterface().CreateAndAddBody(bcs, J.EActivation_DontActivate);
  J.destroy(bcs);
  system.OptimizeBroadPhase();
  const npq = system.GetNarrowPhaseQuery();
  const bpFilter = new J.BroadPhaseLayerFilter();
  const olFilter = new J.ObjectLayerFilter();
  const bodyFilter = new J.BodyFilter();
  const buildMs = performance.now() - t0;

  let cylShape: InstanceType<typeof J.CylinderShape> | null = null;
  let cylKey = '';
  const scale = new J.Vec3(1, 1, 1);
  const cs = new J.CollideShapeSettings();
  cs.mActiveEdgeMode = J.EActiveEdgeMode_CollideWithAll;
  cs.mBackFaceMode = J.EBackFaceMode_CollideWithBackFaces;
  cs.mMaxSeparationDistance = 0;
  const base = new J.RVec3(0, 0, 0);
  const shapeFilter = new J.ShapeFilter();
  const collector = new J.CollideShapeAllHitCollisionCollector();
  const q = new J.Quat(0, 0, 0, 1);
  const p = new J.RVec3(0, 0, 0);
  const mat = new J.RMat44();
  const out: PeerResult = { contacts: 0, maxDepth: 0 };
  return {
    name: 'Jolt',
    method: 'MeshShape of our exact triangles (float32) in a static body, NarrowPhaseQuery.CollideShape, all hits, GJK/EPA per triangle, convex radius 0',
    buildMs,
    query(pose) {
      const key = `${pose.radius}/${pose.height}`;
      if (cylShape === null || key !== cylKey) {
        cylShape = new J.CylinderShape(pose.height / 2, pose.radius, 0);
        cylShape.AddRef();
        cylKey = key;
      }
      const r = quatFromTo(Y_AXIS, pose.axis);
      q.Set(r[0], r[1], r[2], r[3]);
      p.Set(pose.center[0], pose.center[1], pose.center[2]);
      const m = mat.sRotationTranslation(q, p);
      collector.Reset();
      npq.CollideShape(cylShape, scale, m, cs, base, collector, bpFilter, olFilter, bodyFilter, shapeFilter);
      const hits = collector.mHits;
      const n = hits.size();
      let d = 0;
      for (let k = 0; k < n; k++) d = Math.max(d, hits.at(k).mPenetrationDepth);
      out.contacts = n;
      out.maxDepth = d;
      return out;
    },
    dispose() {
      J.destroy(collector);
      J.destroy(cs);
      J.destroy(jolt);
    },
  };
}

export async function loadRapier(hf: Heightfield): Promise<Peer> {
  await RAPIER.init();
  const t0 = performance.now();
  const { vertices, indices } = terrainTriangles(hf);
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const collider = world.createCollider(RAPIER.ColliderDesc.trimesh(vertices, indices));
  const buildMs = performance.now() - t0;
  let cyl: RAPIER.Cylinder | null = null;
  const pos = { x: 0, y: 0, z: 0 };
  const rot = { x: 0, y: 0, z: 0, w: 1 };
  const out: PeerResult = { contacts: 0, maxDepth: 0 };
  return {
    name: 'Rapier',
    method: 'TriMesh collider of our exact triangles (float32), Collider.contactShape: the deepest contact only, GJK/EPA per triangle',
    buildMs,
    query(pose) {
      if (cyl === null || cyl.radius !== pose.radius || cyl.halfHeight !== pose.height / 2) cyl = new RAPIER.Cylinder(pose.height / 2, pose.radius);
      const r = quatFromTo(Y_AXIS, pose.axis);
      rot.x = r[0]; rot.y = r[1]; rot.z = r[2]; rot.w = r[3];
      pos.x = pose.center[0]; pos.y = pose.center[1]; pos.z = pose.center[2];
      const c = collider.contactShape(cyl, pos, rot, 0);
      if (c === null || c.distance >= 0) {
        out.contacts = 0;
        out.maxDepth = 0;
      } else {
        out.contacts = 1;
        out.maxDepth = -c.distance;
      }
      return out;
    },
    dispose() {
      world.free();
    },
  };
}

export async function loadMujoco(hf: Heightfield, radius: number, height: number): Promise<Peer> {
  const mj = await loadMujocoModule();
  const t0 = performance.now();
  const fs = (mj as unknown as { FS: { mkdir(p: string): void; writeFile(p: string, s: string): void; analyzePath(p: string): { exists: boolean } } }).FS;
  if (!fs.analyzePath('/peer').exists) fs.mkdir('/peer');
  const rx = (hf.cellsX * hf.dx) / 2;
  const ry = (hf.cellsY * hf.dy) / 2;
  const cx = hf.x0 + rx;
  const cy = hf.y0 + ry;
  const lo = hf.minHeight;
  const range = Math.max(hf.maxHeight - lo, 1e-6);
  const xml = `<mujoco>
  <option><flag gravity="disable" contact="enable"/></option>
  <asset><hfield name="terrain" nrow="${hf.rows}" ncol="${hf.cols}" size="${rx} ${ry} ${range} 1"/></asset>
  <worldbody>
    <geom name="ground" type="hfield" hfield="terrain" pos="${cx} ${cy} ${lo}" margin="0"/>
    <body name="wheel" pos="0 0 100"><freejoint/><geom name="wheel" type="cylinder" size="${radius} ${height / 2}" margin="0"/></body>
  </worldbody>
</mujoco>`;
  fs.writeFile('/peer/cyl.xml', xml);
  const model = mj.MjModel.loadFromXML('/peer/cyl.xml');
  const data = new mj.MjData(model);
  const hdata = model.hfield_data as Float32Array;
  for (let r = 0; r < hf.rows; r++) {
    for (let c = 0; c < hf.cols; c++) hdata[r * hf.cols + c] = (hf.height(hf.cols - 1 - c, r) - lo) / range;
  }
  // A free joint, not a mocap body: MuJoCo never collides two geoms welded to the world.
  const qpos = data.qpos as Float64Array;
  const buildMs = performance.now() - t0;
  const out: PeerResult = { contacts: 0, maxDepth: 0 };
  return {
    name: 'MuJoCo',
    method: 'hfield mirrored in x so its (c,r)–(c+1,r+1) diagonal is our V1–V2 (float32 heights), cylinder geom, mj_kinematics + mj_collision, MPR/CCD per triangle prism',
    buildMs,
    query(pose) {
      // Mirror x about the map centre; the axis mirrors with it.
      qpos[0] = 2 * cx - pose.center[0]; qpos[1] = pose.center[1]; qpos[2] = pose.center[2];
      const r = quatFromTo(Z_AXIS, [-pose.axis[0], pose.axis[1], pose.axis[2]]);
      qpos[3] = r[3]; qpos[4] = r[0]; qpos[5] = r[1]; qpos[6] = r[2]; // MuJoCo: [w, x, y, z]
      mj.mj_kinematics(model, data);
      mj.mj_collision(model, data);
      const n = data.ncon;
      let d = 0;
      // Embind hands out copies: free the vector and each contact, or the wasm heap fills up.
      const cv = data.contact;
      for (let k = 0; k < n; k++) {
        const c = cv.get(k);
        if (c) {
          if (-c.dist > d) d = -c.dist;
          c.delete();
        }
      }
      cv.delete();
      out.contacts = n;
      out.maxDepth = d;
      return out;
    },
    dispose() {
      data.delete();
      model.delete();
    },
  };
}
