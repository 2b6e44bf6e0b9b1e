/**
 * MuJoCo (mujoco-js 0.0.7 = MuJoCo 3.3.8, wasm, single thread) running the standard vehicle
 * scene, built from an MJCF string.
 *
 * Terrain: hfield with our heights (float32, normalised to [0, 1] over the map's range) turned
 * 90° about z so its diagonal is our V1–V2 (peer-terrain.ts), checked by ray casts
 * (mj_rayHfield) once per process. MuJoCo collides convex geoms with an hfield through its
 * general path: each triangle's prism, MPR/native CCD per prism, ≤ 50 contacts per pair.
 * Chassis: free body, box geom 40 kg. Wheels: child bodies turned −90° about x so the cylinder
 * geom's axis (local z) is the chassis y; a hinge about local z (= +y, positive drives +x), a
 * `velocity` actuator (gain kv = MOTOR_KV, force range ±20 N·m, ctrl = 5 rad/s). Rocks: free
 * bodies, box geoms and mesh geoms given by the hull's vertices (MuJoCo takes their convex
 * hull), density 2000. Contacts: friction 1 (condim 3: sliding only), MuJoCo's default soft
 * contact (solref 0.02 s, critically damped: no bounce, which is its restitution 0), margin 0.
 * Integrator implicitfast (the velocity actuators' damping is treated implicitly).
 *
 * Deviations, because MuJoCo cannot do otherwise:
 *  - the axle motor is a velocity servo (torque = kv·(ω_target − ω), clamped to ±20 N·m), not a
 *    velocity constraint: with kv = MOTOR_KV it saturates for errors above 20/kv rad/s;
 *  - no sleeping (MuJoCo 3.3.8 has none);
 *  - soft contacts: resting bodies sink by design (depth ∝ the contact's solref/solimp), which
 *    the sinkage columns show.
 */
import loadMujocoModule from 'mujoco-js';
import type { VehicleRunner } from './harness';
import { BODY_POSE_STRIDE, WHEEL_POSE_STRIDE } from './harness';
import { checkTerrain, mujocoHeightfield } from './peer-terrain';
import { wheelStarts, type VehicleScene, type WheelCount } from './scene';

type MujocoModule = Awaited<ReturnType<typeof loadMujocoModule>>;
type MjModel = InstanceType<MujocoModule['MjModel']>;
type MjData = InstanceType<MujocoModule['MjData']>;

/** [N·m·s/rad] Velocity servo gain of the axle actuators (saturates at 20 N·m for a 0.02 rad/s error). */
export const MOTOR_KV = 1000;
/** Relative rock mass mismatch accepted. */
const MASS_TOLERANCE = 1e-2;
const MODEL_DIR = '/vehicle';

let module: Promise<MujocoModule> | null = null;
const checkedTerrain = new WeakSet<object>();

interface MemFs {
  mkdir(p: string): void;
  writeFile(p: string, s: string): void;
  analyzePath(p: string): { exists: boolean };
}

const f = (x: number): string => (Number.isInteger(x) ? String(x) : x.toPrecision(17));
const v3 = (v: readonly number[]): string => `${f(v[0])} ${f(v[1])} ${f(v[2])}`;
/** Our [x, y, z, w] as MuJoCo's "w x y z". */
const wxyz = (q: readonly number[]): string => `${f(q[3])} ${f(q[0])} ${f(q[1])} ${f(q[2])}`;

/** The MJCF model of the scene (heights are written into hfield_data after loading). */
export function vehicleMjcf(scene: VehicleScene, wheels: WheelCount, dt: number): string {
  const hf = mujocoHeightfield(scene.terrain);
  const meshes: string[] = [];
  const rocks: string[] = [];
  for (const r of scene.rocks) {
    let geom: string;
    if (r.shape.type === 'box') {
      geom = `<geom type="box" size="${v3(r.shape.halfExtents)}" density="${scene.rockDensity}"/>`;
    } else {
      meshes.push(`<mesh name="${r.name}" vertex="${r.shape.points.map(v3).join('  ')}"/>`);
      geom = `<geom type="mesh" mesh="${r.name}" density="${scene.rockDensity}"/>`;
    }
    rocks.push(`<body name="${r.name}" pos="${v3(r.position)}" quat="${wxyz(r.orientation)}"><freejoint/>${geom}</body>`);
  }
  const c = scene.chassis;
  const wheelBodies: string[] = [];
  const actuators: string[] = [];
  for (const w of wheelStarts(scene, wheels)) {
    // Chassis-frame mount; the wheel frame's orientation relative to the (level) chassis.
    wheelBodies.push(
      `<body name="${w.name}" pos="${v3(w.mount)}" quat="${wxyz(w.orientation)}"><joint name="${w.joint}" type="hinge" axis="0 0 1"/>` +
        `<geom type="cylinder" size="${f(scene.wheel.radius)} ${f(scene.wheel.width / 2)}" mass="${f(scene.wheel.mass)}"/></body>`,
    );
    actuators.push(`<velocity name="motor_${w.name}" joint="${w.joint}" kv="${MOTOR_KV}" forcelimited="true" forcerange="${-scene.motor.maxTorque} ${scene.motor.maxTorque}"/>`);
  }
  return `<mujoco model="vehicle-scene">
  <option timestep="${f(dt)}" gravity="${v3(scene.gravity)}" integrator="implicitfast"/>
  <default><geom friction="${f(scene.friction)}" condim="3" margin="0"/></default>
  <asset>
    <hfield name="terrain" nrow="${hf.nrow}" ncol="${hf.ncol}" size="${hf.size.map(f).join(' ')}"/>
    ${meshes.join('\n    ')}
  </asset>
  <worldbody>
    <geom name="ground" type="hfield" hfield="terrain" pos="${v3(hf.pos)}" quat="${hf.quat.map(f).join(' ')}"/>
    <body name="chassis" pos="${v3(c.position)}" quat="${wxyz(c.orientation)}"><freejoint/>
      <geom type="box" size="${v3(c.halfExtents)}" mass="${f(c.mass)}"/>
      ${wheelBodies.join('\n      ')}
    </body>
    ${rocks.join('\n    ')}
  </worldbody>
  <actuator>
    ${actuators.join('\n    ')}
  </actuator>
</mujoco>`;
}

export function mujocoRunner(): VehicleRunner {
  let mj: MujocoModule | null = null;
  let model: MjModel | null = null;
  let data: MjData | null = null;
  let chassisId = 0;
  let wheelIds: number[] = [];
  let rockIds: number[] = [];
  return {
    name: `MuJoCo 3.3.8 (cylinder wheels, hfield)`,
    description: `hfield (our heights, float32, turned 90° so its diagonal is ours), cylinder geoms, hinge + velocity actuator (kv ${MOTOR_KV}, ±20 N·m), box/mesh rocks at density 2000, friction 1, default soft contacts, implicitfast, no sleeping (MuJoCo has none)`,
    async setup(scene: VehicleScene, wheels: WheelCount, dt: number) {
      if (scene.extraVehicles?.length) throw new Error('the MuJoCo runner builds one vehicle; scene.extraVehicles is for ours and Jolt\'s (the scaling bench)');
      module ??= loadMujocoModule();
      const M = await module;
      mj = M;
      const fs = (M as unknown as { FS: MemFs }).FS;
      if (!fs.analyzePath(MODEL_DIR).exists) fs.mkdir(MODEL_DIR);
      const path = `${MODEL_DIR}/scene.xml`;
      fs.writeFile(path, vehicleMjcf(scene, wheels, dt));
      const m = M.MjModel.loadFromXML(path);
      model = m;
      const hf = mujocoHeightfield(scene.terrain);
      (m.hfield_data as Float32Array).set(hf.data);
      const d = new M.MjData(m);
      data = d;
      const BODY = M.mjtObj.mjOBJ_BODY.value;
      const id = (name: string): number => {
        const k = M.mj_name2id(m, BODY, name);
        if (k < 0) throw new Error(`MuJoCo: no body ${name}`);
        return k;
      };
      chassisId = id('chassis');
      wheelIds = wheelStarts(scene, wheels).map((w) => id(w.name));
      rockIds = scene.rocks.map((r) => id(r.name));
      const mass = m.body_mass as Float64Array;
      for (let k = 0; k < scene.rocks.length; k++) {
        const r = scene.rocks[k];
        if (Math.abs(mass[rockIds[k]] - r.mass) > MASS_TOLERANCE * r.mass) throw new Error(`MuJoCo: ${r.name} mass ${mass[rockIds[k]]} kg, scene ${r.mass} kg`);
      }
      const ctrl = d.ctrl as Float64Array;
      for (let k = 0; k < wheelIds.length; k++) ctrl[k] = scene.motor.targetVelocity;
      M.mj_forward(m, d);
      if (!checkedTerrain.has(scene.terrain)) {
        const top = scene.terrain.maxHeight + 1;
        const pnt = [0, 0, top];
        const down = [0, 0, -1];
        checkTerrain('MuJoCo', scene.terrain, (x, y) => {
          pnt[0] = x; pnt[1] = y;
          const dist = M.mj_rayHfield(m, d, 0, pnt, down);
          return dist < 0 ? NaN : top - dist;
        });
        checkedTerrain.add(scene.terrain);
      }
    },
    step() {
      mj!.mj_step(model!, data!);
    },
    chassisPose(out) {
      writePose(out, 0, data!, chassisId);
    },
    wheelPoses(out) {
      const xpos = data!.xpos as Float64Array;
      const xmat = data!.xmat as Float64Array;
      for (let k = 0; k < wheelIds.length; k++) {
        const b = wheelIds[k];
        const o = k * WHEEL_POSE_STRIDE;
        out[o] = xpos[3 * b]; out[o + 1] = xpos[3 * b + 1]; out[o + 2] = xpos[3 * b + 2];
        // Local z (the axle) in world: the third column of the row-major xmat.
        out[o + 3] = xmat[9 * b + 2]; out[o + 4] = xmat[9 * b + 5]; out[o + 5] = xmat[9 * b + 8];
      }
    },
    rockPoses(out) {
      for (let k = 0; k < rockIds.length; k++) writePose(out, k * BODY_POSE_STRIDE, data!, rockIds[k]);
    },
    dispose() {
      data?.delete();
      model?.delete();
      data = null;
      model = null;
    },
  };
}

function writePose(out: Float64Array, o: number, data: MjData, b: number): void {
  const xpos = data.xpos as Float64Array;
  const xquat = data.xquat as Float64Array;
  out[o] = xpos[3 * b]; out[o + 1] = xpos[3 * b + 1]; out[o + 2] = xpos[3 * b + 2];
  // MuJoCo [w, x, y, z] → ours [x, y, z, w].
  out[o + 3] = xquat[4 * b + 1]; out[o + 4] = xquat[4 * b + 2]; out[o + 5] = xquat[4 * b + 3]; out[o + 6] = xquat[4 * b];
}
