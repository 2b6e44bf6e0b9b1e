/**
 * Builds a DynamicsWorld from a WorldSpec (and an optional terrain): engine shapes, mass
 * properties, the body store, joints in both bodies' mass frames, materials, the drive
 * controller. Load-time code: it allocates freely and throws an Error naming the field.
 */
import { BodyFlag, BodyKind, BodyStore } from './bodies';
import { MIDDLE_LINK_INERTIA_RATIO } from './constants';
import { MIN_DIRECTION_NORM } from '../constants';
import { ContinuousPass } from './ccd';
import type { DriveControllerFactory } from './drive';
import type { JointDef } from './joints';
import { JointKind, JointStore } from './joints';
import { MaterialTable } from './materials';
import type { BodySpec, JointSpec, QuatSpec, ShapeSpec, WorldSpec } from './spec';
import { DynamicsWorld } from './world';
import { CompoundShape } from '../shapes/compound';
import type { ConvexShape, Shape } from '../shapes/shape';
import { ShapeKind, aabb, massProperties } from '../shapes/shape';
import { shapeFromDesc } from '../shapes/shape-desc';
import type { Heightfield } from '../terrain/heightfield';
import type { Quat } from '../math/quat';
import { quatConjugate, quatMultiply, quatNormalize, quatRotate, quatRotateInverse } from '../math/quat';
import type { Vec3 } from '../math/vec3';
import { mat3Invert, mat3SymmetricEigen } from '../math/mat3';
import type { CylinderShape } from '../shapes/cylinder';

const KIND_OF = { static: BodyKind.Static, kinematic: BodyKind.Kinematic, dynamic: BodyKind.Dynamic } as const;
const JOINT_KIND_OF = { revolute: JointKind.Revolute, fixed: JointKind.Fixed, prismatic: JointKind.Prismatic, ball: JointKind.Ball } as const;

function finite3(v: readonly number[] | undefined, field: string, dflt: Vec3): Vec3 {
  if (v === undefined) return [dflt[0], dflt[1], dflt[2]];
  if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new Error(`${field} must be [x, y, z] of finite numbers`);
  }
  return [v[0], v[1], v[2]];
}

function unitQuat(q: QuatSpec | undefined, field: string): Quat {
  if (q === undefined) return [0, 0, 0, 1];
  if (!Array.isArray(q) || q.length !== 4 || !q.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new Error(`${field} must be [x, y, z, w] of finite numbers`);
  }
  const len = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(len > MIN_DIRECTION_NORM)) throw new Error(`${field} is a zero quaternion`);
  return quatNormalize([0, 0, 0, 1], q as unknown as Quat);
}

function convexShape(s: ShapeSpec, field: string): ConvexShape {
  if (s.type === 'compound') throw new Error(`${field}: a compound cannot be nested`);
  try {
    return shapeFromDesc(s as Parameters<typeof shapeFromDesc>[0]);
  } catch (e) {
    throw new Error(`${field}: ${(e as Error).message}`);
  }
}

/** The engine shape; null for a compound with no children (a body that collides with nothing). */
function buildShape(s: ShapeSpec, field: string): Shape | null {
  if (s === null || typeof s !== 'object') throw new Error(`${field} must be a shape object`);
  if (s.type !== 'compound') return convexShape(s, field);
  if (!Array.isArray(s.children)) throw new Error(`${field}.children must be a list of shapes`);
  if (s.children.length === 0) return null;
  return new CompoundShape(
    s.children.map((c, k) => ({
      shape: convexShape(c.shape, `${field}.children[${k}].shape`),
      position: finite3(c.position, `${field}.children[${k}].position`, [0, 0, 0]),
      orientation: unitQuat(c.orientation, `${field}.children[${k}].orientation`),
    })),
  );
}

/**
 * A shape placed at an offset inside the mass frame. A compound whose only child is a cylinder
 * (a URDF wheel whose <collision> is turned or moved inside its link, as ROS files write them)
 * becomes that cylinder at the child's pose: the body is then an analytic wheel (the paper's
 * cylinder–terrain contacts) instead of a compound through the general routine. Other lone
 * children stay compounds (a box or hull keeps its contacts bit-identical to before).
 */
function offsetShape(shape: Shape | null, com: Vec3): { shape: Shape | null; pos: Vec3; rot: Quat } {
  if (shape !== null && shape.kind === ShapeKind.Compound) {
    const children = (shape as CompoundShape).children;
    if (children.length === 1 && children[0].shape.kind === ShapeKind.Cylinder) {
      const c = children[0];
      return { shape: c.shape, pos: [c.position[0] - com[0], c.position[1] - com[1], c.position[2] - com[2]], rot: [c.orientation[0], c.orientation[1], c.orientation[2], c.orientation[3]] };
    }
  }
  return { shape, pos: [-com[0], -com[1], -com[2]], rot: [0, 0, 0, 1] };
}

/**
 * Builds the world; throws an Error naming the offending field. Steps: check the step settings;
 * list the bodies and joints (the world's, then the robot's); add each body (shape, mass
 * properties, pose, velocity); add each joint (frames in both bodies, limits, motor, spring);
 * raise the inertia of light middle links; the robot's drive controller; the continuous pass.
 *
 * `driveController` builds the robot's drive from `spec.robot.controller` (the robot layer's
 * `robotDriveController`, sim/robot/controllers/world-drive.ts); the dynamics core only knows the
 * interface (./drive.ts). Required when the spec's robot has a controller.
 */
export function createDynamicsWorld(spec: WorldSpec, terrain: Heightfield | null, driveController?: DriveControllerFactory): DynamicsWorld {
  if (!(spec.dt >= 1e-5 && spec.dt <= 0.1)) throw new Error(`dt must be between 1e-5 and 0.1 s, got ${spec.dt}`);
  if (!(Number.isInteger(spec.substeps) && spec.substeps >= 1 && spec.substeps <= 64)) throw new Error(`substeps must be an integer 1..64, got ${spec.substeps}`);
  finite3(spec.gravity, 'gravity', [0, 0, 0]);
  const materials = new MaterialTable(spec.materials, spec.terrainMaterials);
  const bodySpecs: { spec: BodySpec; field: string }[] = [];
  spec.bodies.forEach((b, k) => bodySpecs.push({ spec: b, field: `bodies[${k}]` }));
  spec.robot?.bodies.forEach((b, k) => bodySpecs.push({ spec: b, field: `robot.bodies[${k}]` }));
  const jointSpecs: { spec: JointSpec; field: string }[] = [];
  spec.joints.forEach((j, k) => jointSpecs.push({ spec: j, field: `joints[${k}]` }));
  spec.robot?.joints.forEach((j, k) => jointSpecs.push({ spec: j, field: `robot.joints[${k}]` }));

  const n = bodySpecs.length;
  const bodies = new BodyStore(n + 1); // + the terrain slot (static, never moves)
  const scratch = { mp: massProperties(), box: aabb() };
  for (const { spec: b, field } of bodySpecs) addBody(bodies, materials, b, field, scratch);
  // terrain slot
  bodies.rot[4 * n + 3] = 1;

  const joints = new JointStore();
  const jointNames = new Set<string>();
  for (const { spec: j, field } of jointSpecs) addJoint(joints, jointNames, bodies, n, j, field);
  for (const { spec: j, field } of jointSpecs) if (j.mimic !== undefined) addCoupling(joints, j, field);

  raiseMiddleLinkInertia(bodies, joints);
  if (spec.robot) setRobotCollisionFilter(bodies, spec.robot, spec.bodies.length);

  const controllerSpec = spec.robot?.controller;
  const wantsController = controllerSpec !== undefined || (spec.robot?.servos?.length ?? 0) > 0;
  if (wantsController && spec.robot && !driveController) {
    throw new Error(`robot.${controllerSpec ? 'controller' : 'servos'}: no drive-controller factory was given (pass robotDriveController from sim/robot/controllers/world-drive.ts to createDynamicsWorld)`);
  }
  const controller = wantsController && spec.robot && driveController
    ? driveController(controllerSpec, spec.robot, (name, field) => {
        const k = joints.defs.findIndex((d) => d.name === name);
        if (k < 0) throw new Error(`robot.${field}: no joint named "${name}"`);
        if (!joints.defs[k].motor) throw new Error(`robot.${field}: joint "${name}" has no motor`);
        return k;
      })
    : null;
  // a lone cylinder child was unwrapped (offsetShape): its continuous core is the cylinder's
  const ccd = new ContinuousPass(bodies, bodySpecs.map((b) => {
    const s = b.spec.shape;
    return s.type === 'compound' && s.children.length === 1 && s.children[0].shape.type === 'cylinder' ? s.children[0].shape : s;
  }));
  return new DynamicsWorld(spec, terrain, bodies, joints, materials, controller, ccd);
}

/**
 * Adds body `b` to the store: kind, material, shape placed in the mass frame, mass and inertia
 * (dynamic bodies), bounds, and the pose and velocity of its centre of mass. `scratch` is reused
 * from body to body.
 */
function addBody(
  bodies: BodyStore, materials: MaterialTable, b: BodySpec, field: string,
  scratch: { mp: ReturnType<typeof massProperties>; box: ReturnType<typeof aabb> },
): void {
  const { mp, box } = scratch;
  if (typeof b.name !== 'string' || b.name.length === 0) throw new Error(`${field}.name must be a non-empty string`);
  if (bodies.names.includes(b.name)) throw new Error(`${field}.name: a body named "${b.name}" already exists`);
  const kind = KIND_OF[b.type ?? 'dynamic'];
  if (kind === undefined) throw new Error(`${field}.type must be "dynamic", "static" or "kinematic"`);
  const shape = buildShape(b.shape, `${field}.shape`);
  const i = bodies.count++;
  bodies.names.push(b.name);
  bodies.kind[i] = kind;
  bodies.material[i] = materials.index(b.material, `${field}.material`);
  if (b.ccd) bodies.flags[i] |= BodyFlag.Ccd;
  if (shape !== null) shape.massProperties(mp, 1);
  else if (kind === BodyKind.Dynamic && (b.mass === undefined || b.inertia === undefined)) {
    throw new Error(`${field}: a dynamic body without a collision shape needs "mass" and "inertia"`);
  } else {
    mp.mass = 0;
    mp.volume = 0;
    mp.centerOfMass[0] = mp.centerOfMass[1] = mp.centerOfMass[2] = 0;
  }
  let com: Vec3 = [mp.centerOfMass[0], mp.centerOfMass[1], mp.centerOfMass[2]];
  if (b.centerOfMass !== undefined) com = finite3(b.centerOfMass, `${field}.centerOfMass`, com);
  if (kind === BodyKind.Dynamic) setMassAndInertia(bodies, i, b, field, mp, com);
  bodies.comLocal.set(com, 3 * i);
  const placed = offsetShape(shape, com);
  bodies.shapes.push(placed.shape);
  bodies.shapeOffsetPos.set(placed.pos, 3 * i);
  bodies.shapeOffsetRot.set(placed.rot, 4 * i);
  if (placed.shape !== null && placed.shape.kind === ShapeKind.Cylinder) bodies.flags[i] |= BodyFlag.AnalyticCylinder;
  if (placed.shape !== null) placed.shape.localAabb(box);
  else box.min.fill(0), box.max.fill(0);
  const ext = Math.min(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
  bodies.minExtent[i] = ext;
  // the shape's box is about its own origin, which sits at placed.pos from the centre of mass
  // (−com for a shape in the body frame)
  bodies.boundRadius[i] = 0.5 * Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]) + Math.hypot(placed.pos[0], placed.pos[1], placed.pos[2]);
  setInitialMotion(bodies, i, kind, b, field, com);
}

/**
 * Mass (given, or density × the shape's volume) and inertia about the centre of mass (given, or
 * the shape's at unit density scaled to the mass and shifted to a moved centre of mass) of
 * dynamic body i; the inertia must be positive definite.
 */
function setMassAndInertia(bodies: BodyStore, i: number, b: BodySpec, field: string, mp: ReturnType<typeof massProperties>, com: Vec3): void {
  let mass: number;
  let inertia = new Float64Array(9);
  if (b.mass !== undefined) {
    if (!(b.mass > 0 && Number.isFinite(b.mass))) throw new Error(`${field}.mass must be a positive number of kg, got ${b.mass}`);
    mass = b.mass;
  } else if (b.density !== undefined) {
    if (!(b.density > 0 && Number.isFinite(b.density))) throw new Error(`${field}.density must be positive (kg/m³), got ${b.density}`);
    mass = b.density * mp.volume;
  } else {
    throw new Error(`${field}: a dynamic body needs "mass" or "density"`);
  }
  if (b.inertia !== undefined) {
    const t = b.inertia;
    if (!Array.isArray(t) || t.length !== 6 || !t.every(Number.isFinite)) throw new Error(`${field}.inertia must be [ixx, iyy, izz, ixy, ixz, iyz]`);
    inertia.set([t[0], t[3], t[4], t[3], t[1], t[5], t[4], t[5], t[2]]);
  } else {
    // shape inertia at unit density, scaled to the mass; shifted if the COM was moved
    const scale = mass / mp.mass;
    for (let k = 0; k < 9; k++) inertia[k] = mp.inertia[k] * scale;
    const d = [com[0] - mp.centerOfMass[0], com[1] - mp.centerOfMass[1], com[2] - mp.centerOfMass[2]];
    const d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) inertia[3 * c + r] += mass * ((r === c ? d2 : 0) - d[r] * d[c]);
  }
  const inv = new Float64Array(9);
  if (!mat3Invert(inv, inertia) || !(inertia[0] > 0 && inertia[4] > 0 && inertia[8] > 0)) {
    throw new Error(`${field}.inertia is not positive definite`);
  }
  bodies.mass[i] = mass;
  bodies.invMass[i] = 1 / mass;
  bodies.invInertiaLocal.set(inv, 9 * i);
}

/** Pose and velocity of body i's centre of mass from the spec's origin pose and origin velocity. */
function setInitialMotion(bodies: BodyStore, i: number, kind: BodyKind, b: BodySpec, field: string, com: Vec3): void {
  const origin = finite3(b.position, `${field}.position`, [0, 0, 0]);
  const q = unitQuat(b.orientation, `${field}.orientation`);
  const rc: Vec3 = [0, 0, 0];
  quatRotate(rc, q, com);
  bodies.pos.set([origin[0] + rc[0], origin[1] + rc[1], origin[2] + rc[2]], 3 * i);
  bodies.rot.set(q, 4 * i);
  const v = finite3(b.linearVelocity, `${field}.linearVelocity`, [0, 0, 0]);
  const w = finite3(b.angularVelocity, `${field}.angularVelocity`, [0, 0, 0]);
  if (kind !== BodyKind.Static) {
    // the spec gives the origin's velocity; the centre of mass moves with v + ω × (R·c)
    bodies.linVel.set([v[0] + w[1] * rc[2] - w[2] * rc[1], v[1] + w[2] * rc[0] - w[0] * rc[2], v[2] + w[0] * rc[1] - w[1] * rc[0]], 3 * i);
    bodies.angVel.set(w, 3 * i);
  }
  bodies.awake[i] = kind === BodyKind.Static ? 0 : 1;
}

/**
 * Adds joint j between bodyA (the terrain slot `terrainSlot` when absent) and bodyB: the world
 * anchor and axis in both bodies' frames, limits, motor, spring, damping and friction.
 */
function addJoint(joints: JointStore, jointNames: Set<string>, bodies: BodyStore, terrainSlot: number, j: JointSpec, field: string): void {
  if (typeof j.name !== 'string' || j.name.length === 0) throw new Error(`${field}.name must be a non-empty string`);
  if (jointNames.has(j.name)) throw new Error(`${field}.name: a joint named "${j.name}" already exists`);
  jointNames.add(j.name);
  const kind = JOINT_KIND_OF[j.type];
  if (kind === undefined) throw new Error(`${field}.type must be one of revolute, fixed, prismatic, ball; got "${String(j.type)}"`);
  const a = j.bodyA === undefined ? terrainSlot : bodies.indexOf(j.bodyA);
  const b = bodies.indexOf(j.bodyB);
  if (a < 0) throw new Error(`${field}.bodyA: no body named "${j.bodyA}"`);
  if (b < 0) throw new Error(`${field}.bodyB: no body named "${j.bodyB}"`);
  if (a === b) throw new Error(`${field}: bodyA and bodyB are the same body`);
  const frames = jointFrames(bodies, a, b, j, field);
  let limits: [number, number] | null = null;
  if (j.limits !== undefined) {
    if (!Array.isArray(j.limits) || j.limits.length !== 2 || !(j.limits[0] <= j.limits[1])) throw new Error(`${field}.limits must be [lower, upper] with lower ≤ upper`);
    limits = [j.limits[0], j.limits[1]];
  }
  const motor = j.motor !== undefined;
  if (motor && !(j.motor!.maxTorque >= 0 && Number.isFinite(j.motor!.targetVelocity))) throw new Error(`${field}.motor needs a finite targetVelocity and maxTorque ≥ 0`);
  const def: JointDef = {
    kind,
    name: j.name,
    bodyA: a,
    bodyB: b,
    ...frames,
    limits,
    motor,
    maxMotorEffort: motor ? j.motor!.maxTorque : 0,
    stiffness: j.spring?.stiffness ?? 0,
    damping: (j.spring?.damping ?? 0) + (j.damping ?? 0),
    restPosition: j.spring?.restPosition ?? 0,
    friction: j.friction ?? 0,
  };
  if (def.stiffness < 0 || def.damping < 0 || def.friction < 0) throw new Error(`${field}: spring stiffness, damping and friction must be ≥ 0`);
  joints.add(def, motor ? j.motor!.targetVelocity : 0);
}

/**
 * The coupling row of joint j's `mimic` (URDF <mimic>): j follows the named joint. Both must be
 * revolute or prismatic, and different.
 */
function addCoupling(joints: JointStore, j: JointSpec, field: string): void {
  const m = j.mimic!;
  if (m === null || typeof m !== 'object' || typeof m.joint !== 'string') throw new Error(`${field}.mimic must be { joint, multiplier?, offset? }`);
  const follower = joints.defs.findIndex((d) => d.name === j.name);
  const leader = joints.defs.findIndex((d) => d.name === m.joint);
  if (leader < 0) throw new Error(`${field}.mimic.joint: no joint named "${m.joint}"`);
  if (leader === follower) throw new Error(`${field}.mimic.joint: joint "${j.name}" cannot follow itself`);
  const moving = (k: JointKind) => k === JointKind.Revolute || k === JointKind.Prismatic;
  if (!moving(joints.defs[follower].kind) || !moving(joints.defs[leader].kind)) {
    throw new Error(`${field}.mimic: joint "${j.name}" and the joint it follows, "${m.joint}", must both be revolute or prismatic`);
  }
  const multiplier = m.multiplier ?? 1, offset = m.offset ?? 0;
  if (!Number.isFinite(multiplier) || !Number.isFinite(offset)) throw new Error(`${field}.mimic: multiplier and offset must be finite numbers`);
  joints.addCoupling({ follower, leader, multiplier, offset });
}

/**
 * The joint's frames: the world anchor (default: bodyB's origin) and unit axis (default z) in
 * body a's and b's frames, a unit vector perpendicular to the axis in a, and the initial
 * relative rotation q0 = qa⁻¹·qb.
 */
function jointFrames(
  bodies: BodyStore, a: number, b: number, j: JointSpec, field: string,
): Pick<JointDef, 'anchorA' | 'anchorB' | 'axisA' | 'axisB' | 'perpA' | 'q0'> {
  const anchorW = j.anchor !== undefined ? finite3(j.anchor, `${field}.anchor`, [0, 0, 0]) : ((): Vec3 => {
    const o: Vec3 = [0, 0, 0];
    return bodies.originOf(o, b);
  })();
  const axisW = finite3(j.axis, `${field}.axis`, [0, 0, 1]);
  const al = Math.hypot(axisW[0], axisW[1], axisW[2]);
  if (!(al > MIN_DIRECTION_NORM)) throw new Error(`${field}.axis must not be zero`);
  axisW[0] /= al; axisW[1] /= al; axisW[2] /= al;
  const qa = bodies.rot.slice(4 * a, 4 * a + 4) as unknown as Quat;
  const qb = bodies.rot.slice(4 * b, 4 * b + 4) as unknown as Quat;
  const local = (q: Quat, x: Float64Array, k: number, wv: Vec3): Vec3 => {
    const d: Vec3 = [wv[0] - x[3 * k], wv[1] - x[3 * k + 1], wv[2] - x[3 * k + 2]];
    return quatRotateInverse([0, 0, 0], q, d);
  };
  const anchorA = local(qa, bodies.pos, a, anchorW);
  const anchorB = local(qb, bodies.pos, b, anchorW);
  const axisA = quatRotateInverse([0, 0, 0], qa, axisW);
  const axisB = quatRotateInverse([0, 0, 0], qb, axisW);
  // a unit vector ⟂ axisA
  const e: Vec3 = Math.abs(axisA[0]) < 0.57735 ? [1, 0, 0] : [0, 1, 0];
  const pa: Vec3 = [axisA[1] * e[2] - axisA[2] * e[1], axisA[2] * e[0] - axisA[0] * e[2], axisA[0] * e[1] - axisA[1] * e[0]];
  const pl = Math.hypot(pa[0], pa[1], pa[2]);
  pa[0] /= pl; pa[1] /= pl; pa[2] /= pl;
  const q0 = quatMultiply([0, 0, 0, 1], quatConjugate([0, 0, 0, 1], qa), qb) as [number, number, number, number];
  return { anchorA, anchorB, axisA, axisB, perpA: pa, q0 };
}

/**
 * The robot's collision filter: without selfCollide its bodies share one group (they never
 * collide with each other, Gazebo's default); with it, the pairs of disableCollisions are kept
 * apart. `first`: index of the robot's first body (the world's bodies come before it).
 */
function setRobotCollisionFilter(bodies: BodyStore, robot: NonNullable<WorldSpec['robot']>, first: number): void {
  if (robot.selfCollide !== undefined && typeof robot.selfCollide !== 'boolean') throw new Error('robot.selfCollide must be true or false');
  if (!robot.selfCollide) {
    for (let b = first; b < first + robot.bodies.length; b++) bodies.collisionGroup[b] = 1;
    return;
  }
  const keys: number[] = [];
  (robot.disableCollisions ?? []).forEach((pair, k) => {
    const field = `robot.disableCollisions[${k}]`;
    if (!Array.isArray(pair) || pair.length !== 2) throw new Error(`${field} must be a pair of body names [a, b]`);
    const a = bodies.indexOf(pair[0]), b = bodies.indexOf(pair[1]);
    if (a < first || b < first) throw new Error(`${field}: no robot body named "${a < first ? pair[0] : pair[1]}"`);
    if (a !== b) keys.push(Math.min(a, b) * 2097152 + Math.max(a, b));
  });
  keys.sort((x, y) => x - y);
  bodies.noCollideKeys = Float64Array.from(keys);
}

/** The cylinder of an analytic wheel body, for callers that need its size. */
export function cylinderOf(shape: Shape | null): CylinderShape | null {
  return shape !== null && shape.kind === ShapeKind.Cylinder ? (shape as CylinderShape) : null;
}

/** Largest principal inertia [kg·m²] of body b (from its inverse: 1 / smallest eigenvalue). */
function principalInertias(bodies: BodyStore, b: number): Vec3 {
  const values: Vec3 = [0, 0, 0];
  const vectors = new Float64Array(9);
  mat3SymmetricEigen(values, vectors, bodies.invInertiaLocal.subarray(9 * b, 9 * b + 9));
  return [1 / values[0], 1 / values[1], 1 / values[2]];
}

/** See MIDDLE_LINK_INERTIA_RATIO: adds an isotropic armature to light bodies joined to ≥ 2 others. */
function raiseMiddleLinkInertia(bodies: BodyStore, joints: JointStore): void {
  const n = bodies.count;
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  for (const d of joints.defs) {
    if (d.bodyA < n && d.bodyB < n) {
      neighbours[d.bodyA].push(d.bodyB);
      neighbours[d.bodyB].push(d.bodyA);
    }
  }
  const largest = (b: number) => (bodies.kind[b] === BodyKind.Dynamic ? Math.max(...principalInertias(bodies, b)) : Infinity);
  const raised: [number, Float64Array][] = [];
  for (let b = 0; b < n; b++) {
    if (bodies.kind[b] !== BodyKind.Dynamic || neighbours[b].length < 2) continue;
    const target = MIDDLE_LINK_INERTIA_RATIO * Math.min(...neighbours[b].map(largest));
    const smallest = Math.min(...principalInertias(bodies, b));
    if (!(target > smallest) || !Number.isFinite(target)) continue;
    const inertia = new Float64Array(9);
    mat3Invert(inertia, bodies.invInertiaLocal.subarray(9 * b, 9 * b + 9));
    const add = target - smallest;
    inertia[0] += add;
    inertia[4] += add;
    inertia[8] += add;
    const inv = new Float64Array(9);
    mat3Invert(inv, inertia);
    raised.push([b, inv]);
  }
  // applied after all are computed, so the result does not depend on the body order
  for (const [b, inv] of raised) bodies.invInertiaLocal.set(inv, 9 * b);
}
