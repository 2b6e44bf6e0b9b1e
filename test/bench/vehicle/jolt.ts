/**
 * Jolt (jolt-physics 1.1.0, wasm-compat, single thread) running the standard vehicle scene, in
 * two variants: exact cylinder wheels (convex radius 0) and rounded wheels (a convex radius on
 * the wheel cylinder, which lets Jolt use GJK on the shrunk core instead of EPA; its
 * best-performing setting per the sweep noted at JOLT_ROUNDED_WHEEL_RADIUS).
 *
 * Terrain: MeshShape of our exact triangles (float32), one static body, checked by ray casts
 * once per process (peer-terrain.ts says why not HeightFieldShape); above 513² vertices, whose mesh
 * does not fit the wasm heap, Jolt's HeightFieldShape of our grid (JOLT_MESH_MAX_VERTICES). Every
 * vehicle of scene.extraVehicles is built like the first. Chassis: BoxShape (Jolt's
 * default 5 cm convex radius), mass overridden to 40 kg (inertia from the shape). Wheels:
 * CylinderShape (Jolt's cylinder axis is its local y = the axle: identity rotation at the start),
 * mass 2 kg. Axles: HingeConstraint in world space about +y, motor in velocity mode, target
 * 5 rad/s, torque limits ±20 N·m (positive = body 2 turning about +y relative to body 1 =
 * forward). Rocks: BoxShape / ConvexHullShape with density 2000 and a ROCK_CONVEX_RADIUS
 * rounding (Jolt's 5 cm default does not fit 3 cm half-extents). Friction 1 and restitution 0
 * on every body (geometric-mean friction: 1 for every pair). Sleeping: on (Jolt's default).
 * Solver: Jolt's defaults (10 velocity, 2 position iterations, 2 cm speculative distance and
 * penetration slop), one collision step per step, no CCD (discrete motion quality).
 */
import initJolt from 'jolt-physics/wasm-compat';
import type { VehicleRunner } from './harness';
import { BODY_POSE_STRIDE, WHEEL_POSE_STRIDE } from './harness';
import { checkTerrain, terrainCheckLog } from './peer-terrain';
import { JOLT_HEIGHTFIELD_ROTATION, joltTerrainHeightField, joltTerrainMesh } from '../../oracle/peer-mesh';
import { vehicleStarts, wheelStarts, type VehicleScene, type WheelCount } from './scene';

type JoltModule = Awaited<ReturnType<typeof initJolt>>;
type JBody = InstanceType<JoltModule['Body']>;
type JShape = InstanceType<JoltModule['Shape']>;

/** [m] Rounding of the rock shapes (boxes and hulls): 5 mm, under a sixth of the smallest half-extent. */
const ROCK_CONVEX_RADIUS = 0.005;
/**
 * [m] Wheel convex radius of the rounded variant: the largest Jolt accepts for this wheel
 * (min(half width, radius) = 5 cm: the tyre's edge is a full half-torus).
 */
export const JOLT_ROUNDED_WHEEL_RADIUS = 0.05;
/** Relative rock mass mismatch accepted. */
const MASS_TOLERANCE = 1e-2;
const LAYER_STATIC = 0;
const LAYER_MOVING = 1;

let module: Promise<JoltModule> | null = null;
/** The terrain the current module's meshes were built for (see setup: one terrain per module). */
let moduleTerrain: object | null = null;
/** Jolt's terrain shape per Heightfield (a MeshShape, or a HeightFieldShape above 513²), built once (524,288 triangles take seconds). */
const terrainShapes = new WeakMap<object, JShape>();
/**
 * Largest terrain given to Jolt as a MeshShape of our triangles (513²). A larger one (the scaling
 * bench's 1,025²: its mesh runs both wasm builds' heaps out of memory) becomes a Jolt
 * HeightFieldShape: Jolt's own triangulation and 8-bit block compression (peer-mesh.ts).
 */
const JOLT_MESH_MAX_VERTICES = 513 * 513;

function usesHeightField(scene: VehicleScene): boolean {
  return scene.terrain.cols * scene.terrain.rows > JOLT_MESH_MAX_VERTICES;
}
const checkedTerrain = new WeakSet<object>();

export interface JoltRunnerOptions {
  /** [m] 0 = exact cylinder wheels. */
  wheelConvexRadius: number;
  /**
   * 'strict' (default): a terrain ray check beyond tolerance throws. 'report': it is logged in
   * terrainCheckLog instead (the independent builds: on two of them a few of Jolt's float32 ray
   * casts miss or land 0.021 mm off; the mesh is the same triangles either way).
   */
  terrainCheck?: 'strict' | 'report';
}

function terrainShapeOf(J: JoltModule, scene: VehicleScene): JShape {
  const cached = terrainShapes.get(scene.terrain);
  if (cached) return cached;
  const shape = usesHeightField(scene) ? joltTerrainHeightField(J, scene.terrain) : joltTerrainMesh(J, scene.terrain);
  shape.AddRef(); // kept for the process: every run's terrain body shares it
  terrainShapes.set(scene.terrain, shape);
  return shape;
}

export function joltRunner(opts: JoltRunnerOptions): VehicleRunner {
  const rounded = opts.wheelConvexRadius > 0;
  let J: JoltModule | null = null;
  let jolt: InstanceType<JoltModule['JoltInterface']> | null = null;
  let chassis: JBody | null = null;
  let wheelBodies: JBody[] = [];
  let rockBodies: JBody[] = [];
  let dt = 1 / 240;
  return {
    name: rounded ? `Jolt 1.1.0 (rounded wheels, convex radius ${opts.wheelConvexRadius * 1000} mm)` : 'Jolt 1.1.0 (exact cylinder wheels)',
    description: `MeshShape of our triangles, CylinderShape wheels with convex radius ${opts.wheelConvexRadius * 1000} mm, HingeConstraint velocity motors (±20 N·m), rocks Box/ConvexHull (${ROCK_CONVEX_RADIUS * 1000} mm convex radius, density 2000), default solver (10 velocity / 2 position iterations, 2 cm slop), sleeping on, discrete`,
    async setup(scene: VehicleScene, wheels: WheelCount, stepDt: number) {
      // A fresh module (fresh wasm heap) per terrain: the fixed heap holds one 513² mesh beside
      // a world, not two, and freeing the old mesh did not make room (measured: OOM).
      if (module === null || moduleTerrain !== scene.terrain) {
        module = initJolt();
        moduleTerrain = scene.terrain;
      }
      const M = await module;
      J = M;
      dt = stepDt;
      // The mesh first: building it beside a live JoltInterface runs the fixed wasm heap out of memory.
      const terrainShape = terrainShapeOf(M, scene);
      const js = new M.JoltSettings();
      const objectFilter = new M.ObjectLayerPairFilterTable(2);
      objectFilter.EnableCollision(LAYER_STATIC, LAYER_MOVING);
      objectFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
      const bpInterface = new M.BroadPhaseLayerInterfaceTable(2, 2);
      bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, new M.BroadPhaseLayer(0));
      bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, new M.BroadPhaseLayer(1));
      js.mObjectLayerPairFilter = objectFilter;
      js.mBroadPhaseLayerInterface = bpInterface;
      js.mObjectVsBroadPhaseLayerFilter = new M.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
      const ji = new M.JoltInterface(js);
      M.destroy(js);
      jolt = ji;
      const system = ji.GetPhysicsSystem();
      const g = scene.gravity;
      system.SetGravity(new M.Vec3(g[0], g[1], g[2]));
      const bi = system.GetBodyInterface();

      const add = (shape: JShape, p: readonly number[], q: readonly number[], dynamic: boolean, mass?: number): JBody => {
        const bcs = new M.BodyCreationSettings(shape, new M.RVec3(p[0], p[1], p[2]), new M.Quat(q[0], q[1], q[2], q[3]), dynamic ? M.EMotionType_Dynamic : M.EMotionType_Static, dynamic ? LAYER_MOVING : LAYER_STATIC);
        bcs.mFriction = scene.friction;
        bcs.mRestitution = scene.restitution;
        if (mass !== undefined) {
          bcs.mOverrideMassProperties = M.EOverrideMassProperties_CalculateInertia;
          bcs.mMassPropertiesOverride.mMass = mass;
        }
        const body = bi.CreateBody(bcs);
        M.destroy(bcs);
        bi.AddBody(body.GetID(), dynamic ? M.EActivation_Activate : M.EActivation_DontActivate);
        return body;
      };

      const ground = add(terrainShape, [0, 0, 0], usesHeightField(scene) ? JOLT_HEIGHTFIELD_ROTATION : [0, 0, 0, 1], false);
      system.OptimizeBroadPhase();
      if (!checkedTerrain.has(scene.terrain)) {
        const top = scene.terrain.maxHeight + 1;
        const ray = new M.RRayCast();
        const hit = new M.RayCastResult();
        const ts = ground.GetTransformedShape();
        const check = (): void => void checkTerrain('Jolt', scene.terrain, (x, y) => {
          ray.mOrigin.Set(x, y, top);
          ray.mDirection.Set(0, 0, -(top - scene.terrain.minHeight + 1));
          hit.mFraction = 1.0000001;
          ts.CastRay(ray, hit); // void in this binding: a hit lowers mFraction below 1
          if (!(hit.mFraction <= 1)) return NaN;
          return top + hit.mFraction * ray.mDirection.GetZ();
        });
        try {
          check();
        } catch (e) {
          if (opts.terrainCheck !== 'report') throw e;
          terrainCheckLog.push(`${e instanceof Error ? e.message : String(e)} (reported, not fatal, on an independent build)`);
        }
        M.destroy(ray); M.destroy(hit);
        checkedTerrain.add(scene.terrain);
      }

      const c = scene.chassis;
      const he = c.halfExtents;
      wheelBodies = [];
      for (const v of vehicleStarts(scene)) {
        const box = new M.BoxShape(new M.Vec3(he[0], he[1], he[2]));
        const vehicleChassis = add(box, v.chassis, c.orientation, true, c.mass);
        if (v.suffix === '') chassis = vehicleChassis;
        for (const w of wheelStarts(scene, wheels, v)) {
          const cyl = new M.CylinderShape(scene.wheel.width / 2, scene.wheel.radius, opts.wheelConvexRadius);
          const body = add(cyl, w.position, [0, 0, 0, 1], true, scene.wheel.mass);
          const hs = new M.HingeConstraintSettings();
          hs.mSpace = M.EConstraintSpace_WorldSpace;
          hs.mPoint1 = new M.RVec3(w.position[0], w.position[1], w.position[2]);
          hs.mPoint2 = new M.RVec3(w.position[0], w.position[1], w.position[2]);
          hs.mHingeAxis1 = new M.Vec3(0, 1, 0);
          hs.mHingeAxis2 = new M.Vec3(0, 1, 0);
          hs.mNormalAxis1 = new M.Vec3(1, 0, 0);
          hs.mNormalAxis2 = new M.Vec3(1, 0, 0);
          hs.mMotorSettings.mMinTorqueLimit = -scene.motor.maxTorque;
          hs.mMotorSettings.mMaxTorqueLimit = scene.motor.maxTorque;
          const constraint = hs.Create(vehicleChassis, body);
          M.destroy(hs);
          system.AddConstraint(constraint);
          const hinge = M.castObject(constraint, M.HingeConstraint);
          hinge.SetMotorState(M.EMotorState_Velocity);
          hinge.SetTargetAngularVelocity(scene.motor.targetVelocity);
          if (v.suffix === '') wheelBodies.push(body);
        }
      }
      rockBodies = [];
      for (const r of scene.rocks) {
        let shape: JShape;
        if (r.shape.type === 'box') {
          const h = r.shape.halfExtents;
          const s = new M.BoxShapeSettings(new M.Vec3(h[0], h[1], h[2]), ROCK_CONVEX_RADIUS);
          s.mDensity = scene.rockDensity;
          shape = s.Create().Get();
        } else {
          const s = new M.ConvexHullShapeSettings();
          for (const p of r.shape.points) s.mPoints.push_back(new M.Vec3(p[0], p[1], p[2]));
          s.mMaxConvexRadius = ROCK_CONVEX_RADIUS;
          s.mDensity = scene.rockDensity;
          const res = s.Create();
          if (res.HasError()) throw new Error(`Jolt ConvexHullShape ${r.name}: ${res.GetError().c_str()}`);
          shape = res.Get();
        }
        const body = add(shape, r.position, r.orientation, true);
        const m = 1 / body.GetMotionProperties().GetInverseMass();
        if (Math.abs(m - r.mass) > MASS_TOLERANCE * r.mass) throw new Error(`Jolt: ${r.name} mass ${m} kg, scene ${r.mass} kg`);
        rockBodies.push(body);
      }
    },
    step() {
      jolt!.Step(dt, 1);
    },
    chassisPose(out) {
      writePose(out, 0, chassis!);
    },
    wheelPoses(out) {
      for (let k = 0; k < wheelBodies.length; k++) {
        const b = wheelBodies[k];
        const p = b.GetPosition();
        const q = b.GetRotation();
        const x = q.GetX(), y = q.GetY(), z = q.GetZ(), w = q.GetW();
        const o = k * WHEEL_POSE_STRIDE;
        out[o] = p.GetX(); out[o + 1] = p.GetY(); out[o + 2] = p.GetZ();
        // Local y (the axle) in world: the second column of R(q).
        out[o + 3] = 2 * (x * y - w * z);
        out[o + 4] = 1 - 2 * (x * x + z * z);
        out[o + 5] = 2 * (y * z + w * x);
      }
    },
    rockPoses(out) {
      for (let k = 0; k < rockBodies.length; k++) writePose(out, k * BODY_POSE_STRIDE, rockBodies[k]);
    },
    dispose() {
      if (J && jolt) J.destroy(jolt);
      jolt = null;
      chassis = null;
      wheelBodies = [];
      rockBodies = [];
    },
  };
}

function writePose(out: Float64Array, o: number, b: JBody): void {
  const p = b.GetPosition();
  const q = b.GetRotation();
  out[o] = p.GetX(); out[o + 1] = p.GetY(); out[o + 2] = p.GetZ();
  out[o + 3] = q.GetX(); out[o + 4] = q.GetY(); out[o + 5] = q.GetZ(); out[o + 6] = q.GetW();
}
