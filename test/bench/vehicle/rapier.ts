/**
 * Rapier (@dimforge/rapier3d-compat, wasm, single thread) running the standard vehicle scene.
 *
 * Terrain: HeightField collider with our heights and our V1–V2 diagonal (peer-terrain.ts),
 * checked by ray casts once per process. Chassis: cuboid, 40 kg. Wheels: Cylinder colliders
 * (exact, Rapier's cylinder axis is its local y, so a wheel body starts with identity rotation and
 * its axle along world y), 2 kg. Axles: revolute impulse joints about the chassis y axis with a
 * velocity motor (configureMotorVelocity(5, MOTOR_DAMPING), setMotorMaxForce(20 N·m)), contacts
 * between the jointed bodies disabled. Rocks: cuboid / convexHull colliders with density 2000.
 * Friction 1 and restitution 0 on every collider (Average combine rules: 1 and 0 for every pair).
 * Sleeping: Rapier's default (bodies may sleep). Solver: Rapier's defaults (4 iterations, 1
 * substep), no CCD.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import type { VehicleRunner } from './harness';
import { BODY_POSE_STRIDE, WHEEL_POSE_STRIDE } from './harness';
import { checkTerrain, rapierHeightfield } from './peer-terrain';
import { wheelStarts, type VehicleScene, type WheelCount } from './scene';

/**
 * Damping factor of the velocity motor (Rapier's "factor"; its motor is a soft velocity
 * constraint that droops under load by about load/factor). Measured on a free wheel (2 kg,
 * r 0.15 m) at dt = 1/240 s against a steady load torque: factor 1e3 runs 4.56 rad/s under
 * 10 N·m and 4.16 under 19; 1e5 runs 4.996 and 4.992, i.e. a hard 5 rad/s until the 20 N·m limit
 * binds, like the other engines' motors.
 */
const MOTOR_DAMPING = 1e5;
/** Relative rock mass mismatch accepted (parry rebuilds the hull from the points: 0.2 % off on one rock). */
const MASS_TOLERANCE = 1e-2;

let ready: Promise<void> | null = null;
const checkedTerrain = new WeakSet<object>();

export function rapierRunner(): VehicleRunner {
  let world: RAPIER.World | null = null;
  let chassis: RAPIER.RigidBody | null = null;
  let wheelBodies: RAPIER.RigidBody[] = [];
  let rockBodies: RAPIER.RigidBody[] = [];
  return {
    name: 'Rapier 0.21 (cylinder wheels)',
    description: `HeightField (our heights, float32, our diagonal), Cylinder wheels, revolute impulse joints with velocity motors (factor ${MOTOR_DAMPING.toExponential(0)}: hard below the 20 N·m limit), cuboid/convexHull rocks at density 2000, default solver (4 iterations), sleeping on, no CCD`,
    async setup(scene: VehicleScene, wheels: WheelCount, dt: number) {
      if (scene.extraVehicles?.length) throw new Error('the Rapier runner builds one vehicle; scene.extraVehicles is for ours and Jolt\'s (the scaling bench)');
      ready ??= RAPIER.init();
      await ready;
      const g = scene.gravity;
      const w = new RAPIER.World({ x: g[0], y: g[1], z: g[2] });
      w.timestep = dt;
      world = w;
      const hfDesc = rapierHeightfield(scene.terrain);
      const ground = w.createCollider(
        RAPIER.ColliderDesc.heightfield(hfDesc.nrows, hfDesc.ncols, hfDesc.heights, hfDesc.scale)
          .setTranslation(hfDesc.translation.x, hfDesc.translation.y, hfDesc.translation.z)
          .setRotation(hfDesc.rotation)
          .setFriction(scene.friction)
          .setRestitution(scene.restitution),
      );
      if (!checkedTerrain.has(scene.terrain)) {
        const top = scene.terrain.maxHeight + 1;
        const ray = new RAPIER.Ray({ x: 0, y: 0, z: top }, { x: 0, y: 0, z: -1 });
        checkTerrain('Rapier', scene.terrain, (x, y) => {
          ray.origin = { x, y, z: top };
          const toi = ground.castRay(ray, 100, true);
          return toi < 0 ? NaN : top - toi;
        });
        checkedTerrain.add(scene.terrain);
      }
      const c = scene.chassis;
      const cq = c.orientation;
      chassis = w.createRigidBody(
        RAPIER.RigidBodyDesc.dynamic().setTranslation(c.position[0], c.position[1], c.position[2]).setRotation({ x: cq[0], y: cq[1], z: cq[2], w: cq[3] }),
      );
      w.createCollider(
        RAPIER.ColliderDesc.cuboid(c.halfExtents[0], c.halfExtents[1], c.halfExtents[2]).setMass(c.mass).setFriction(scene.friction).setRestitution(scene.restitution),
        chassis,
      );
      wheelBodies = [];
      for (const ws of wheelStarts(scene, wheels)) {
        // Rapier's cylinder axis is local y = the axle: identity rotation at the start.
        const body = w.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(ws.position[0], ws.position[1], ws.position[2]));
        w.createCollider(
          RAPIER.ColliderDesc.cylinder(scene.wheel.width / 2, scene.wheel.radius).setMass(scene.wheel.mass).setFriction(scene.friction).setRestitution(scene.restitution),
          body,
        );
        const params = RAPIER.JointData.revolute({ x: ws.mount[0], y: ws.mount[1], z: ws.mount[2] }, { x: 0, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });
        const joint = w.createImpulseJoint(params, chassis, body, true) as RAPIER.RevoluteImpulseJoint;
        joint.setContactsEnabled(false);
        joint.configureMotorVelocity(scene.motor.targetVelocity, MOTOR_DAMPING);
        joint.setMotorMaxForce(scene.motor.maxTorque);
        wheelBodies.push(body);
      }
      rockBodies = [];
      for (const r of scene.rocks) {
        const q = r.orientation;
        const body = w.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(r.position[0], r.position[1], r.position[2]).setRotation({ x: q[0], y: q[1], z: q[2], w: q[3] }));
        let desc: RAPIER.ColliderDesc | null;
        if (r.shape.type === 'box') desc = RAPIER.ColliderDesc.cuboid(r.shape.halfExtents[0], r.shape.halfExtents[1], r.shape.halfExtents[2]);
        else desc = RAPIER.ColliderDesc.convexHull(Float32Array.from(r.shape.points.flat()));
        if (desc === null) throw new Error(`Rapier: convex hull of ${r.name} failed`);
        w.createCollider(desc.setDensity(scene.rockDensity).setFriction(scene.friction).setRestitution(scene.restitution), body);
        if (Math.abs(body.mass() - r.mass) > MASS_TOLERANCE * r.mass) throw new Error(`Rapier: ${r.name} mass ${body.mass()} kg, scene ${r.mass} kg`);
        rockBodies.push(body);
      }
    },
    step() {
      world!.step();
    },
    chassisPose(out) {
      writePose(out, 0, chassis!);
    },
    wheelPoses(out) {
      for (let k = 0; k < wheelBodies.length; k++) {
        const b = wheelBodies[k];
        const p = b.translation();
        const q = b.rotation();
        const o = k * WHEEL_POSE_STRIDE;
        out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z;
        // Local y (the axle) in world: the second column of R(q).
        out[o + 3] = 2 * (q.x * q.y - q.w * q.z);
        out[o + 4] = 1 - 2 * (q.x * q.x + q.z * q.z);
        out[o + 5] = 2 * (q.y * q.z + q.w * q.x);
      }
    },
    rockPoses(out) {
      for (let k = 0; k < rockBodies.length; k++) writePose(out, k * BODY_POSE_STRIDE, rockBodies[k]);
    },
    dispose() {
      world?.free();
      world = null;
      chassis = null;
      wheelBodies = [];
      rockBodies = [];
    },
  };
}

function writePose(out: Float64Array, o: number, b: RAPIER.RigidBody): void {
  const p = b.translation();
  const q = b.rotation();
  out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z;
  out[o + 3] = q.x; out[o + 4] = q.y; out[o + 5] = q.z; out[o + 6] = q.w;
}

