/**
 * Peer engines answering the same cylinder-vs-terrain query as ours, for the cross-check test
 * and `npm run bench -- cylinder`. Each loader builds the peer's terrain once and returns a
 * `query(pose)` that reports the number of contacts and the largest penetration depth.
 *
 * Terrain triangulation (ours: each cell split on the V1–V2 diagonal, planar cells whole):
 *   Jolt    MeshShape built from our exact triangles (float32 vertices): identical surface,
 *           one static body; NarrowPhaseQuery.CollideShape of a CylinderShape (convex radius
 *           0) with an all-hits collector: one result per triangle hit (GJK/EPA per triangle).
 *           The tuned rows (JOLT_TUNED): EPA penetration tolerance 4e-3 instead of 1e-4, with
 *           all hits or with the closest-hit collector (the deepest hit only, as Rapier).
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

/**
 * Jolt configuration knobs for the peer-variant study (test/bench/peer-variants.ts). The
 * defaults are the bench's Jolt row: MeshShape, CollideWithAll, back faces on, no faces
 * collected, all hits.
 */
export interface JoltOptions {
  /**
   * 'mesh': MeshShape of our exact triangles (float32). 'heightfield': HeightFieldShape of our
   * heights, rotated so that its cell diagonal is our V1–V2 (see joltTerrainHeightfield).
   */
  terrain?: 'mesh' | 'heightfield';
  /** HeightFieldShapeSettings.mBlockSize (2–8; 2 is the most exact). */
  blockSize?: number;
  /** HeightFieldShapeSettings.mBitsPerSample (1–8; 8 is the most exact). */
  bitsPerSample?: number;
  /** MeshShapeSettings.mMaxTrianglesPerLeaf (Jolt's default 8). */
  maxTrianglesPerLeaf?: number;
  /** CollideShapeSettings.mActiveEdgeMode: 'all' (CollideWithAll) or 'active' (CollideOnlyWithActive, Jolt's default). */
  activeEdges?: 'all' | 'active';
  /** CollideShapeSettings.mBackFaceMode: true = CollideWithBackFaces, false = IgnoreBackFaces (Jolt's default). */
  backFaces?: boolean;
  /** CollideShapeSettings.mCollectFacesMode: true = CollectFaces, false = NoFaces (Jolt's default). */
  collectFaces?: boolean;
  /** 'all': every triangle hit (CollideShapeAllHitCollisionCollector); 'closest': the deepest hit only (CollideShapeClosestHitCollisionCollector). */
  collector?: 'all' | 'closest';
  /**
   * CollideSettingsBase.mPenetrationTolerance (dimensionless, Jolt's default 1e-4): EPA stops
   * when the squared penetration changes by less than this × depth², so the depth is good to
   * about half of it, relatively.
   */
  penetrationTolerance?: number;
  /** [m] CollideSettingsBase.mCollisionTolerance (Jolt's default 1e-4). */
  collisionTolerance?: number;
  /**
   * [m] The CylinderShape's convex radius (the bench: 0; Jolt's default 0.05). A radius > 0
   * rounds the wheel's rims by that radius (a different, smaller shape) and lets Jolt skip EPA
   * while only the rounding penetrates.
   */
  convexRadius?: number;
  /** NarrowPhaseQuery.CollideShapeWithInternalEdgeRemoval instead of CollideShape (Jolt wants CollideWithAll and CollectFaces with it). */
  internalEdgeRemoval?: boolean;
}

type JoltModule = Awaited<ReturnType<typeof initJolt>>;

/**
 * Our terrain as a Jolt HeightFieldShape plus the body rotation that places it.
 * Jolt's height field lies in its local x–z plane with local y up: sample (sx, sy) at
 * offset + scale·(sx, H[sy·N + sx], sy), each cell split on its (sx, sy)–(sx+1, sy+1) diagonal
 * (checked by ray casts in test/bench/peer-variants.ts). The body is turned +90° about x
 * (local (x, y, z) → world (x, −z, y)), so local y is world z and sample row sy runs toward −y:
 * sample (sx, sy) is our vertex (sx, rows−1−sy), and the diagonal (sx, sy)–(sx+1, sy+1) is our
 * (i, j)–(i+1, j−1), the V2–V1 diagonal of cell (i, j−1): the same triangles, no mirroring
 * of the wheel needed. Heights are quantised (16 bits over the whole range, then
 * `bitsPerSample` bits within each block's range); the caller measures that error.
 */
export function joltTerrainHeightfield(J: JoltModule, hf: Heightfield, blockSize: number, bitsPerSample: number): { shape: InstanceType<JoltModule['Shape']>; rotation: [number, number, number, number] } {
  if (hf.cols !== hf.rows || hf.dx !== hf.dy) throw new Error('joltTerrainHeightfield: Jolt height fields are square with one spacing (cols = rows, dx = dy)');
  const n = hf.cols;
  const s = new J.HeightFieldShapeSettings();
  s.mSampleCount = n;
  s.mBlockSize = blockSize;
  s.mBitsPerSample = bitsPerSample;
  s.mOffset = new J.Vec3(hf.x0, 0, -(hf.y0 + (hf.rows - 1) * hf.dy));
  s.mScale = new J.Vec3(hf.dx, 1, hf.dy);
  s.mHeightSamples.resize(n * n);
  const samples = new Float32Array(J.HEAPF32.buffer, J.getPointer(s.mHeightSamples.data()), n * n);
  for (let sy = 0; sy < n; sy++) for (let sx = 0; sx < n; sx++) samples[sy * n + sx] = hf.height(sx, hf.rows - 1 - sy);
  const res = s.Create();
  if (res.HasError()) throw new Error(`Jolt HeightFieldShape: ${res.GetError().c_str()}`);
  const shape = res.Get();
  J.destroy(s);
  return { shape, rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] };
}

/**
 * `shape` as the one static body (rotated by quaternion `rotation`, [x, y, z, w]) of a one-layer
 * physics system, and the pass-everything filters its NarrowPhaseQuery needs. Queries go through
 * the NarrowPhaseQuery because TransformedShape.CollideShape crashes in jolt-physics 1.1.0's
 * wasm build. Destroy `jolt` to free it.
 */
export function joltStaticBody(J: JoltModule, shape: InstanceType<JoltModule['Shape']>, rotation: readonly number[]): {
  jolt: InstanceType<JoltModule['JoltInterface']>;
  npq: InstanceType<JoltModule['NarrowPhaseQuery']>;
  bpFilter: InstanceType<JoltModule['BroadPhaseLayerFilter']>;
  olFilter: InstanceType<JoltModule['ObjectLayerFilter']>;
  bodyFilter: InstanceType<JoltModule['BodyFilter']>;
} {
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
  const bcs = new J.BodyCreationSettings(shape, new J.RVec3(0, 0, 0), new J.Quat(rotation[0], rotation[1], rotation[2], rotation[3]), J.EMotionType_Static, 0);
  system.GetBodyInterface().CreateAndAddBody(bcs, J.EActivation_DontActivate);
  J.destroy(bcs);
  system.OptimizeBroadPhase();
  return { jolt, npq: system.GetNarrowPhaseQuery(), bpFilter: new J.BroadPhaseLayerFilter(), olFilter: new J.ObjectLayerFilter(), bodyFilter: new J.BodyFilter() };
}

/**
 * The bench's tuned Jolt rows (test/bench/peer-variants.ts, 2026-11-25): the largest EPA
 * penetration tolerance tried whose depths stay within the bench's 0.1 mm contact threshold of
 * the default-tolerance Jolt row on all 10,000 poses (largest difference 0.0996 mm; 5e-3 gave
 * 0.11 mm), no pose missed, about 1.2× the default's queries per CPU-second. Looser tolerances
 * are faster still and miss nothing either (1 = EPA stops at its first polytope: 1.85×) but move
 * depths by up to 13 mm, so they no longer answer the same question.
 */
export const JOLT_TUNED: JoltOptions = { penetrationTolerance: 4e-3 };

/** The Jolt peer, in a wasm instance of its own (defaults: the bench's first Jolt row; `opts`: its tuned rows and the variant study). */
export async function loadJolt(hf: Heightfield, opts: JoltOptions = {}): Promise<Peer> {
  const J = await initJolt();
  const terrain = opts.terrain ?? 'mesh';
  const t0 = performance.now();
  let shape: InstanceType<JoltModule['Shape']>;
  let rotation: [number, number, number, number] = [0, 0, 0, 1];
  if (terrain === 'mesh') {
    shape = joltTerrainMesh(J, hf, opts.maxTrianglesPerLeaf);
  } else {
    ({ shape, rotation } = joltTerrainHeightfield(J, hf, opts.blockSize ?? 2, opts.bitsPerSample ?? 8));
  }
  const { jolt, npq, bpFilter, olFilter, bodyFilter } = joltStaticBody(J, shape, rotation);
  const buildMs = performance.now() - t0;

  let cylShape: InstanceType<typeof J.CylinderShape> | null = null;
  let cylKey = '';
  const scale = new J.Vec3(1, 1, 1);
  const cs = new J.CollideShapeSettings();
  cs.mActiveEdgeMode = (opts.activeEdges ?? 'all') === 'all' ? J.EActiveEdgeMode_CollideWithAll : J.EActiveEdgeMode_CollideOnlyWithActive;
  cs.mBackFaceMode = (opts.backFaces ?? true) ? J.EBackFaceMode_CollideWithBackFaces : J.EBackFaceMode_IgnoreBackFaces;
  cs.mCollectFacesMode = (opts.collectFaces ?? false) ? J.ECollectFacesMode_CollectFaces : J.ECollectFacesMode_NoFaces;
  if (opts.penetrationTolerance !== undefined) cs.mPenetrationTolerance = opts.penetrationTolerance;
  if (opts.collisionTolerance !== undefined) cs.mCollisionTolerance = opts.collisionTolerance;
  cs.mMaxSeparationDistance = 0;
  const base = new J.RVec3(0, 0, 0);
  const shapeFilter = new J.ShapeFilter();
  const q = new J.Quat(0, 0, 0, 1);
  const p = new J.RVec3(0, 0, 0);
  const mat = new J.RMat44();
  const out: PeerResult = { contacts: 0, maxDepth: 0 };
  const edgeRemoval = opts.internalEdgeRemoval ?? false;
  const cylinder = (pose: CylinderPose): InstanceType<typeof J.CylinderShape> => {
    const key = `${pose.radius}/${pose.height}`;
    if (cylShape === null || key !== cylKey) {
      cylShape = new J.CylinderShape(pose.height / 2, pose.radius, opts.convexRadius ?? 0);
      cylShape.AddRef();
      cylKey = key;
    }
    return cylShape;
  };
  const transform = (pose: CylinderPose): InstanceType<typeof J.RMat44> => {
    const r = quatFromTo(Y_AXIS, pose.axis);
    q.Set(r[0], r[1], r[2], r[3]);
    p.Set(pose.center[0], pose.center[1], pose.center[2]);
    return mat.sRotationTranslation(q, p);
  };
  const changed = [
    opts.activeEdges === 'active' ? 'active edges only' : '',
    opts.backFaces === false ? 'back faces ignored' : '',
    opts.collectFaces === true ? 'faces collected' : '',
    edgeRemoval ? 'CollideShapeWithInternalEdgeRemoval' : '',
    opts.penetrationTolerance !== undefined ? `EPA penetration tolerance ${opts.penetrationTolerance} (relative; Jolt's default 1e-4)` : '',
    opts.collisionTolerance !== undefined ? `GJK collision tolerance ${opts.collisionTolerance} m (Jolt's default 1e-4 m)` : '',
  ].filter((t) => t !== '');
  const closest = (opts.collector ?? 'all') === 'closest';
  const hits = closest ? 'the closest (deepest) hit only' : 'all hits';
  const method = (terrain === 'mesh'
    ? `MeshShape of our exact triangles (float32) in a static body, NarrowPhaseQuery.CollideShape, ${hits}, GJK/EPA per triangle, convex radius ${opts.convexRadius ?? 0}`
    : `HeightFieldShape of our heights (block ${opts.blockSize ?? 2}, ${opts.bitsPerSample ?? 8} bits per sample; turned so its diagonal is our V1–V2), NarrowPhaseQuery.CollideShape, ${hits}, GJK/EPA per triangle, convex radius ${opts.convexRadius ?? 0}`)
    + (changed.length > 0 ? `; ${changed.join(', ')}` : '');
  const closestHit = closest ? new J.CollideShapeClosestHitCollisionCollector() : null;
  const allHits = closest ? null : new J.CollideShapeAllHitCollisionCollector();
  const collector = closestHit ?? allHits!;
  return {
    name: 'Jolt',
    method,
    buildMs,
    query(pose) {
      collector.Reset();
      if (edgeRemoval) npq.CollideShapeWithInternalEdgeRemoval(cylinder(pose), scale, transform(pose), cs, base, collector, bpFilter, olFilter, bodyFilter, shapeFilter);
      else npq.CollideShape(cylinder(pose), scale, transform(pose), cs, base, collector, bpFilter, olFilter, bodyFilter, shapeFilter);
      if (closestHit) {
        const hit = closestHit.HadHit();
        out.contacts = hit ? 1 : 0;
        out.maxDepth = hit ? Math.max(0, closestHit.mHit.mPenetrationDepth) : 0;
      } else {
        const hits = allHits!.mHits;
        const n = hits.size();
        let d = 0;
        for (let k = 0; k < n; k++) d = Math.max(d, hits.at(k).mPenetrationDepth);
        out.contacts = n;
        out.maxDepth = d;
      }
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

/** MuJoCo knobs for the peer-variant study (defaults: the bench's MuJoCo row, MuJoCo's own defaults). */
export interface MujocoOptions {
  /** [m] <option ccd_tolerance> (MuJoCo's default 1e-6). */
  ccdTolerance?: number;
  /** <option ccd_iterations> (MuJoCo's default). */
  ccdIterations?: number;
}

export async function loadMujoco(hf: Heightfield, radius: number, height: number, opts: MujocoOptions = {}): Promise<Peer> {
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
  <option${opts.ccdTolerance !== undefined ? ` ccd_tolerance="${opts.ccdTolerance}"` : ''}${opts.ccdIterations !== undefined ? ` ccd_iterations="${opts.ccdIterations}"` : ''}><flag gravity="disable" contact="enable"/></option>
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
