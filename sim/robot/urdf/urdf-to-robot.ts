/**
 * `UrdfModel` → `RobotSpec` (sim/dynamics/spec.ts): bodies at their world poses for joint
 * coordinates 0, joints with world anchors and axes, plus the visuals for the renderer.
 *
 * Frames. A URDF joint's <origin> is the child link's frame in the parent link's frame at joint
 * coordinate 0; its <axis> is in that (child) frame. So walking down from the root,
 *
 *     T_world(child) = T_world(parent) · T(origin xyz, rpy)          R(rpy) = Rz(y)·Ry(p)·Rx(r)
 *     anchor_world   = translation of T_world(child)
 *     axis_world     = R_world(child) · axis
 *
 * and the root link sits at `position` turned by `yaw` about world z. Each body's frame IS its
 * link's frame (poses the renderer and recordings show are link poses), so
 *
 *     centerOfMass   = inertial xyz                               (link frame)
 *     inertia        = R(inertial rpy) · I · R(inertial rpy)ᵀ     (about the COM, link axes)
 *     shape          = the link's collisions, each at its <origin> (one at the identity: the
 *                      plain shape; otherwise a compound). A URDF cylinder's axis is its local z,
 *                      as ours: no conversion.
 *
 * Massless links. A link without <inertial> cannot be a rigid body. When it hangs on a fixed
 * joint it is merged into its parent's body (its collisions and visuals move along, expressed in
 * the parent's frame); a massless root (ROS's base_footprint) is merged into the one massive link
 * fixed to it, which becomes the base. Anywhere else a missing <inertial> is an error.
 */
import type { BodySpec, ControllerSpec, ConvexShapeSpec, JointSpec, QuatSpec, RobotSpec, Vec3Spec } from '../../dynamics/spec';
import type { Quat } from '../../math/quat';
import { quatFromEuler, quatMultiply, quatRotate, quatConjugate } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import { mat3, mat3AddPointInertia, mat3FromQuat, mat3RotateTensor } from '../../math/mat3';
import { UrdfError, URDF_MAX_OFFSET } from './urdf-error';
import type { UrdfGeometry, UrdfJoint, UrdfLink, UrdfModel, UrdfPose } from './urdf-model';
import { resolveMeshPath } from './resolve-mesh-path';
import { meshFormat } from '../mesh/obj';
import { MESH_HULL_POOR_FIT_RATIO, meshCollisionHull } from '../mesh/mesh-hull';
import type { MeshHullResult } from '../mesh/mesh-hull';
import { readCollisionMesh } from '../mesh/read-mesh';
import { collisionMeshKey, formatVolumeReport } from '../mesh/convex-parts';
import type { ConvexParts } from '../mesh/convex-decomposition';
import { inferController } from '../controllers/infer-controller';
import { createDriveController } from '../controllers/drive-controller';
import { describeMeshFit, frameWheel, fullTurnRevoluteWarnings } from './wheel-frame';
import type { WheelPart } from './wheel-frame';
import { controllerHoldsForRobot, type ControllerHold } from './ros-controllers';

/** Poses closer than this to the identity count as the identity ([m] and quaternion components). */
const IDENTITY_POSE_TOLERANCE = 1e-12;
/** A given controller's wheelRadius, track, wheelbase may differ this much (relative) from the geometry before a warning. */
const CONTROLLER_GEOMETRY_TOLERANCE = 0.05;
/** World-axis components below this are rounding of exact zeros (a unit vector's ulp is ~1e-16). */
const AXIS_SNAP = 1e-14;

/**
 * Options of `urdfToRobot`/`loadUrdfRobot`: where to place the robot, its meshes, its controller,
 * link lumping.
 */
export interface UrdfToRobotOptions {
  /** [m] World position of the root link. Default [0, 0, 0]. */
  position?: Vec3Spec;
  /** [rad] Heading of the root link about world z. Default 0. */
  yaw?: number;
  /** Path of the URDF file (mesh paths resolve against its folder). Default "" (current folder). */
  urdfPath?: string;
  /** Bytes of a collision mesh by its resolved path (see resolveMeshPath); undefined = missing. */
  meshes?: (resolvedPath: string) => Uint8Array | undefined;
  /**
   * Convex parts of concave collision meshes by collisionMeshKey(resolved path, scale), from the
   * asynchronous step convexPartsForUrdf (sim/robot/mesh/convex-parts.ts): such a mesh collides as
   * one hull per part instead of its single hull.
   */
  convexParts?: Record<string, ConvexParts>;
  /**
   * How the robot is driven: a spec (from the scenario), 'infer' (default: from joint names, for
   * the bundled robots and robots named like them) or 'none'.
   */
  controller?: ControllerSpec | 'infer' | 'none' | ControllerChoice;
  /**
   * [rad] or [m] Joints to hold at a position by name (a scenario's `robot.controller.hold`):
   * each gets a position servo (its motor, the URDF's effort and velocity limits), replacing
   * the target of a URDF position interface. A joint the drive controller commands, an unknown
   * joint, or a fixed joint is an error.
   */
  hold?: Record<string, number>;
  /**
   * Joints the robot's controller files hold (readControllerConfig, ros-controllers.ts): each gets
   * a position servo at its ros2_control initial_value, else 0, unless the drive controller
   * commands it or `hold` names it. A joint the robot does not have, or a fixed (merged) one, is
   * a note in `controllerHolds.notes`, not an error.
   */
  controllerHolds?: readonly ControllerHold[];
  /**
   * Merge every link on a fixed joint (not a ball joint) into its parent's body, mass properties
   * combined (parallel-axis theorem), as Gazebo does when it converts a URDF (SDFormat lumps
   * fixed joints unless told to preserve them). A fixed joint is then exactly rigid: a chain of
   * fixed joints through light links (the JPL OSR hangs its 10 kg body on five, through 0.1–1 kg
   * links) would otherwise sag as soft solver rows (78 mm at spawn). Fewer bodies, too. The
   * merged links' names map to their host in `linkBodies`. Default true; false keeps one body per
   * massive link, each fixed joint a solver joint.
   */
  lumpFixedLinks?: boolean;
  /**
   * [N·m] Torque cap of every driven joint's motor (a scenario's `robot.motorTorque`): replaces
   * the URDF <limit effort> and the controller's maxTorque. Default: the joint's effort limit when
   * it has one, capped by the controller's maxTorque (a warning when that is below what the
   * drive can need).
   */
  motorTorque?: number;
  /** The robot's links collide with each other (Gazebo's self_collide). Default false. */
  selfCollide?: boolean;
  /**
   * With selfCollide: link pairs that never collide (SRDF `disable_collisions`, a scenario's
   * `robot.disableCollisions`). Links merged into one body need no pair; an unknown link is an error.
   */
  disableCollisions?: readonly (readonly [string, string])[];
}

/**
 * A controller picked by kind, its parameters inferred from the robot (a scenario's
 * `"controller": { "type": "all-wheel-steer", "mode": "crab" }`).
 */
export interface ControllerChoice {
  /** Default: the kind the rules pick. */
  type?: ControllerSpec['type'];
  /** [rad] The robot's forward direction in its base frame (ControllerSpec.forwardYaw), instead of the inferred one. */
  forwardYaw?: number;
  /** All-wheel steering: "turn" (default) or "crab". */
  mode?: 'turn' | 'crab';
  /** [m/s] Top speed instead of the inferred one. */
  maxSpeed?: number;
}

/** [N·m] or [N] Effort of a servo whose joint gives no <limit effort>. */
export const SERVO_DEFAULT_EFFORT = 1000;

/** What the renderer draws for one URDF <visual>: in the frame of `body`. */
export interface VisualSpec {
  body: string;
  /** The URDF link it came from (differs from `body` for merged massless links). */
  link: string;
  geometry:
    | { type: 'box'; size: Vec3Spec }
    | { type: 'cylinder'; radius: number; length: number }
    | { type: 'sphere'; radius: number }
    /** `file` resolved (resolveMeshPath), `uri` as written; scale per axis. */
    | { type: 'mesh'; file: string; uri: string; scale: Vec3Spec };
  /**
   * Pose in the body frame. Cylinders run along local z as in URDF (three's CylinderGeometry runs
   * along y: turn it +90° about x inside this pose). Mesh vertices are in the file's units × scale.
   */
  position: Vec3Spec;
  orientation: QuatSpec;
  /** RGBA 0..1 (undefined: the renderer's default). */
  color?: [number, number, number, number];
  /** Texture file (resolved) and the material's name. */
  texture?: string;
  material?: string;
}

/**
 * A URDF robot ready for the world: its bodies and joints, its visuals for the renderer, the link-
 * to-body map and warnings.
 */
export interface UrdfRobot {
  robot: RobotSpec;
  visuals: VisualSpec[];
  /** Link name → body name (a merged massless link maps to its host). */
  linkBodies: Record<string, string>;
  /** Model warnings (from parseUrdf) and import warnings (merges, poor hull fits, ...). */
  warnings: string[];
  /**
   * The warnings (also in `warnings`) a user driving the robot must see: the wheel motors capped
   * by the URDF's effort limits below what the drive needs. The app and the CLI show them.
   */
  driveWarnings: string[];
  /**
   * The bodies on continuous joints that collide as analytic wheels (one cylinder about the joint
   * axis): radius and width [m], and whether the cylinder is the file's own or fitted (several
   * parts, a mesh). A continuous-joint body not listed here has a warning saying why.
   */
  wheels: UrdfWheel[];
  /**
   * The controller files' holds (options.controllerHolds) that became servos, and notes on those
   * that did not (a joint the robot lacks, a fixed one); empty without controllerHolds.
   */
  controllerHolds: { held: ControllerHold[]; notes: string[] };
}

export interface UrdfWheel {
  body: string;
  joint: string;
  radius: number;
  width: number;
  from: 'cylinder' | 'fit';
}

interface Pose {
  p: Vec3;
  q: Quat;
}

function poseFromUrdf(o: UrdfPose): Pose {
  return { p: [o.xyz[0], o.xyz[1], o.xyz[2]], q: quatFromEuler([0, 0, 0, 1], o.rpy[0], o.rpy[1], o.rpy[2]) };
}

/** a · b */
function compose(a: Pose, b: Pose): Pose {
  const p = quatRotate([0, 0, 0], a.q, b.p);
  return { p: [a.p[0] + p[0], a.p[1] + p[1], a.p[2] + p[2]], q: quatMultiply([0, 0, 0, 1], a.q, b.q) };
}

/** a⁻¹ · b */
function relative(a: Pose, b: Pose): Pose {
  const inv = quatConjugate([0, 0, 0, 1], a.q);
  const d = quatRotate([0, 0, 0], inv, [b.p[0] - a.p[0], b.p[1] - a.p[1], b.p[2] - a.p[2]]);
  return { p: d, q: quatMultiply([0, 0, 0, 1], inv, b.q) };
}

function isIdentity(t: Pose): boolean {
  const e = IDENTITY_POSE_TOLERANCE;
  return Math.abs(t.p[0]) <= e && Math.abs(t.p[1]) <= e && Math.abs(t.p[2]) <= e && Math.abs(t.q[0]) <= e && Math.abs(t.q[1]) <= e && Math.abs(t.q[2]) <= e;
}

/** Canonical sign (w ≥ 0) so equal rotations print equal. */
function quatSpec(q: Quat): QuatSpec {
  const s = q[3] < 0 ? -1 : 1;
  return [s * q[0] + 0, s * q[1] + 0, s * q[2] + 0, s * q[3]];
}

function finiteVec(v: unknown, n: number, field: string): number[] {
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === 'number' && Number.isFinite(x) && Math.abs(x) <= URDF_MAX_OFFSET)) {
    throw new UrdfError(`urdfToRobot: options.${field} must be ${n} finite numbers within ±${URDF_MAX_OFFSET} m`, field);
  }
  return v as number[];
}

/**
 * The links of a parsed URDF as the conversion walks them: by name, each link's parent joint and
 * child joints, its world pose and the body it belongs to.
 */
interface LinkTree {
  links: Map<string, UrdfLink>;
  parentJoint: Map<string, UrdfJoint>;
  childJoints: Map<string, UrdfJoint[]>;
  /** World pose of every link (the root at options.position and yaw). */
  world: Map<string, Pose>;
  /** Link names depth first, in file order. */
  order: string[];
  /** Body (a massive link's name) each link belongs to. */
  bodyOf: Map<string, string>;
}

/**
 * Converts a parsed URDF model into a robot spec, the visuals to draw and the link → body map.
 * Steps: the link tree and world poses; which body each link belongs to (massless links and,
 * optionally, massive links on fixed joints merge into their parent's body); the bodies' mass
 * properties; their collision shapes; the joints; the controller and motors; the visuals.
 */
export function urdfToRobot(model: UrdfModel, options: UrdfToRobotOptions = {}): UrdfRobot {
  const position = options.position === undefined ? [0, 0, 0] : finiteVec(options.position, 3, 'position');
  const yaw = options.yaw ?? 0;
  if (typeof yaw !== 'number' || !Number.isFinite(yaw)) throw new UrdfError('urdfToRobot: options.yaw must be a finite number of radians', 'yaw');
  const urdfPath = options.urdfPath ?? '';
  const warnings = [...model.warnings, ...fullTurnRevoluteWarnings(model)];

  const tree = linkTree(model, position, yaw);
  const base = assignBodies(tree, model, options, warnings);
  const { bodies, bodyIndex } = massBodies(tree, warnings);
  const wheelAxes = wheelJointAxes(tree, model);
  const wheels = attachCollisionShapes(tree, bodies, urdfPath, options, wheelAxes, warnings);
  const joints = convertJoints(tree, model, bodyIndex, warnings);
  const robot: RobotSpec = { name: model.name, bodies, joints, base };
  collisionFilter(robot, tree, options);
  const driveWarnings = attachController(robot, model, options, warnings);
  const controllerHolds = attachServos(robot, model, options.hold, options.controllerHolds ?? [], warnings);
  const visuals = convertVisuals(tree, urdfPath, warnings);

  const linkBodies: Record<string, string> = {};
  for (const [l, b] of tree.bodyOf) linkBodies[l] = b;
  return { robot, visuals, linkBodies, warnings, driveWarnings, wheels, controllerHolds };
}

/** selfCollide and the disabled pairs, link names turned into body names (pairs inside one body dropped). */
function collisionFilter(robot: RobotSpec, tree: LinkTree, options: UrdfToRobotOptions): void {
  if (options.selfCollide === undefined && options.disableCollisions === undefined) return;
  if (options.selfCollide !== undefined && typeof options.selfCollide !== 'boolean') throw new UrdfError('urdfToRobot: options.selfCollide must be true or false', 'selfCollide');
  robot.selfCollide = options.selfCollide === true;
  const pairs: [string, string][] = [];
  const seen = new Set<string>();
  for (const pair of options.disableCollisions ?? []) {
    const [a, b] = [tree.bodyOf.get(pair[0]), tree.bodyOf.get(pair[1])];
    if (a === undefined || b === undefined) {
      const missing = a === undefined ? pair[0] : pair[1];
      throw new UrdfError(`disableCollisions: "${missing}" is not a link of robot "${robot.name}"; check the name`, missing);
    }
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    if (a === b || seen.has(key)) continue;
    seen.add(key);
    pairs.push([a, b]);
  }
  if (pairs.length > 0) robot.disableCollisions = pairs;
}

/** Indexes the links and joints and computes every link's world pose (depth first, file order). */
function linkTree(model: UrdfModel, position: readonly number[], yaw: number): LinkTree {
  const links = new Map<string, UrdfLink>();
  for (const l of model.links) links.set(l.name, l);
  const parentJoint = new Map<string, UrdfJoint>();
  const childJoints = new Map<string, UrdfJoint[]>();
  for (const j of model.joints) {
    parentJoint.set(j.child, j);
    const list = childJoints.get(j.parent);
    if (list) list.push(j);
    else childJoints.set(j.parent, [j]);
  }
  const world = new Map<string, Pose>();
  const order: string[] = [];
  world.set(model.root, { p: [position[0], position[1], position[2]], q: quatFromEuler([0, 0, 0, 1], 0, 0, yaw) });
  const stack = [model.root];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    order.push(name);
    const kids = childJoints.get(name) ?? [];
    for (let k = kids.length - 1; k >= 0; k--) {
      const j = kids[k];
      world.set(j.child, compose(world.get(name) as Pose, poseFromUrdf(j.origin)));
      stack.push(j.child);
    }
  }
  return { links, parentJoint, childJoints, world, order, bodyOf: new Map() };
}

/**
 * Fills tree.bodyOf: a massive link is its own body (or, with lumpFixedLinks, the default, part of
 * its fixed parent's); a massless link on a fixed joint merges into its parent's body; a massless root
 * merges, with its massless fixed descendants, into the one massive link fixed to them. Throws
 * for a massless link that moves. Returns the base body.
 */
function assignBodies(tree: LinkTree, model: UrdfModel, options: UrdfToRobotOptions, warnings: string[]): string {
  const { links, parentJoint, childJoints, order, bodyOf } = tree;
  const rootLink = links.get(model.root) as UrdfLink;
  let base = model.root;
  if (!rootLink.inertial) {
    // The root's massless group: the root and its massless fixed descendants; its host is the one
    // massive link fixed to that group.
    const group: string[] = [];
    const hosts: string[] = [];
    const s = [model.root];
    while (s.length > 0) {
      const n = s.pop() as string;
      group.push(n);
      for (const j of childJoints.get(n) ?? []) {
        if (j.type !== 'fixed') continue;
        if ((links.get(j.child) as UrdfLink).inertial) hosts.push(j.child);
        else s.push(j.child);
      }
    }
    if (hosts.length === 0 || (hosts.length > 1 && options.lumpFixedLinks === false)) {
      throw new UrdfError(
        `link "${model.root}" (the root) has no <inertial>: give it a mass and inertia, or fix exactly one massive link to it (as base_footprint → base_link); found ${hosts.length}`,
        model.root,
      );
    }
    base = hosts[0];
    for (const n of group) bodyOf.set(n, base);
    warnings.push(`link "${model.root}" has no <inertial>; merged into "${base}", which is the robot's base body`);
  }
  for (const name of order) {
    if (bodyOf.has(name)) continue;
    const link = links.get(name) as UrdfLink;
    const j = parentJoint.get(name);
    if (link.inertial && options.lumpFixedLinks !== false && j?.type === 'fixed') {
      bodyOf.set(name, bodyOf.get(j.parent) as string);
      continue;
    }
    if (link.inertial) {
      bodyOf.set(name, name);
      continue;
    }
    if (!j) throw new UrdfError(`link "${name}": internal: a non-root link without a parent joint`, name);
    if (j.type !== 'fixed') {
      throw new UrdfError(
        `link "${name}" has no <inertial> but moves on ${j.type} joint "${j.name}"; give it <inertial> with its mass and inertia (only links on fixed joints may be massless)`,
        name,
      );
    }
    const host = bodyOf.get(j.parent) as string;
    bodyOf.set(name, host);
    if (link.collisions.length > 0 || link.visuals.length > 0) warnings.push(`link "${name}" has no <inertial>; its geometry is merged into "${host}"`);
  }
  return base;
}

/** One body per massive link that is its own body, with the mass properties of every massive link lumped into it. */
function massBodies(tree: LinkTree, warnings: string[]): { bodies: BodySpec[]; bodyIndex: Map<string, BodySpec> } {
  const { links, world, order, bodyOf } = tree;
  const bodies: BodySpec[] = [];
  const bodyIndex = new Map<string, BodySpec>();
  for (const name of order) {
    if (bodyOf.get(name) !== name) continue;
    const link = links.get(name) as UrdfLink;
    const T = world.get(name) as Pose;
    const body: BodySpec = { name, shape: { type: 'compound', children: [] }, position: vec(T.p), orientation: quatSpec(T.q) };
    const members = order.filter((n) => bodyOf.get(n) === name && (links.get(n) as UrdfLink).inertial);
    if (members.length === 1) {
      const inertial = link.inertial as NonNullable<UrdfLink['inertial']>;
      body.mass = inertial.mass;
      body.centerOfMass = vec(inertial.origin.xyz);
      body.inertia = rotateInertia(inertial);
    } else {
      const m = combineInertials(members.map((n) => ({ link: links.get(n) as UrdfLink, inBody: relative(T, world.get(n) as Pose) })));
      body.mass = m.mass;
      body.centerOfMass = m.centerOfMass;
      body.inertia = m.inertia;
      warnings.push(`links ${members.slice(1).map((n) => `"${n}"`).join(', ')} on fixed joints are lumped into body "${name}"`);
    }
    bodies.push(body);
    bodyIndex.set(name, body);
  }
  return { bodies, bodyIndex };
}

/**
 * The wheel candidates: every body that is the child link of a continuous joint (its own body, not
 * merged), with the joint's anchor and axis in the body frame (the link frame: the anchor is its
 * origin, the axis as written).
 */
function wheelJointAxes(tree: LinkTree, model: UrdfModel): Map<string, { joint: string; anchor: Vec3; axis: Vec3 }> {
  const out = new Map<string, { joint: string; anchor: Vec3; axis: Vec3 }>();
  for (const j of model.joints) {
    if (j.type !== 'continuous' || tree.bodyOf.get(j.child) !== j.child || tree.bodyOf.get(j.parent) === j.child) continue;
    const n = Math.hypot(j.axis[0], j.axis[1], j.axis[2]);
    out.set(j.child, { joint: j.name, anchor: [0, 0, 0], axis: [j.axis[0] / n, j.axis[1] / n, j.axis[2] / n] });
  }
  return out;
}

/**
 * Every link's <collision> shapes, posed in their body's frame, become the body's shape: the
 * shape itself when it is the only one at the identity pose, else a compound. A wheel body (see
 * wheelJointAxes) is framed by frameWheel: one cylinder about its joint axis, or a warning that
 * says why it stays as written. Returns the analytic wheels.
 */
function attachCollisionShapes(
  tree: LinkTree, bodies: BodySpec[], urdfPath: string, options: UrdfToRobotOptions,
  wheelAxes: Map<string, { joint: string; anchor: Vec3; axis: Vec3 }>, warnings: string[],
): UrdfWheel[] {
  const { links, world, order, bodyOf } = tree;
  const hullCache = new Map<string, MeshHullResult>();
  const parts = new Map<string, { shape: ConvexShapeSpec; pose: Pose; link: string }[]>();
  for (const name of order) {
    const link = links.get(name) as UrdfLink;
    const bodyName = bodyOf.get(name) as string;
    const inBody = relative(world.get(bodyName) as Pose, world.get(name) as Pose);
    link.collisions.forEach((c, k) => {
      const where = `link "${name}" <collision> #${k + 1}`;
      const shapes = collisionShapes(c.geometry, where, name, urdfPath, options, hullCache, warnings);
      const list = parts.get(bodyName) ?? [];
      for (const shape of shapes) list.push({ shape, pose: compose(inBody, poseFromUrdf(c.origin)), link: name });
      parts.set(bodyName, list);
    });
  }
  const wheels: UrdfWheel[] = [];
  for (const body of bodies) {
    let list = parts.get(body.name) ?? [];
    const wheel = wheelAxes.get(body.name);
    if (wheel) {
      const framed = frameWheel(list.map((c): WheelPart => ({ shape: c.shape, position: c.pose.p, orientation: c.pose.q })), wheel.anchor, wheel.axis);
      if ('fit' in framed) {
        const f = framed.fit;
        wheels.push({ body: body.name, joint: wheel.joint, radius: f.radius, width: f.width, from: f.from });
        if (f.from === 'fit') {
          const what = list.length === 1 ? 'its collision mesh' : `its ${list.length} collision shapes`;
          warnings.push(
            `link "${body.name}": ${what} collide as one cylinder about joint "${wheel.joint}"'s axis (radius ${+f.radius.toFixed(4)} m, width ${+f.width.toFixed(4)} m${describeMeshFit(f)}): the analytic wheel`,
          );
          list = [{ shape: { type: 'cylinder', radius: f.radius, height: f.width }, pose: { p: [...f.position], q: [...f.orientation] }, link: body.name }];
        }
      } else if (list.length > 0) {
        warnings.push(`link "${body.name}" turns on continuous joint "${wheel.joint}" but is not an analytic wheel: ${framed.reason}; it collides through the general routine`);
      }
    }
    if (list.length === 1 && isIdentity(list[0].pose)) body.shape = list[0].shape;
    else {
      body.shape = {
        type: 'compound',
        children: list.map((c) => {
          const child: { shape: ConvexShapeSpec; position?: Vec3Spec; orientation?: QuatSpec } = { shape: c.shape };
          child.position = vec(c.pose.p);
          child.orientation = quatSpec(c.pose.q);
          return child;
        }),
      };
    }
  }
  return wheels;
}

/** Joints between different bodies (continuous → revolute), with world anchor and axis, limits, damping and friction. */
function convertJoints(tree: LinkTree, model: UrdfModel, bodyIndex: Map<string, BodySpec>, warnings: string[]): JointSpec[] {
  const { world, bodyOf } = tree;
  const joints: JointSpec[] = [];
  for (const j of model.joints) {
    const a = bodyOf.get(j.parent) as string;
    const b = bodyOf.get(j.child) as string;
    if (a === b) continue; // merged (a massless link, or the root's group)
    const T = world.get(j.child) as Pose;
    const axisW = quatRotate([0, 0, 0], T.q, j.axis as Vec3);
    const type = j.type === 'continuous' ? 'revolute' : j.type;
    const spec: JointSpec = { type, name: j.name, bodyA: a, bodyB: b, anchor: vec(T.p) };
    // Rounding of the composed rotations leaves ~1e-16 in axis components that are 0: snap them.
    for (let k = 0; k < 3; k++) if (Math.abs(axisW[k]) < AXIS_SNAP) axisW[k] = 0;
    if (type === 'revolute' || type === 'prismatic') spec.axis = vec(axisW);
    if ((j.type === 'revolute' || j.type === 'prismatic') && j.limit) spec.limits = [j.limit.lower, j.limit.upper];
    if (j.dynamics && j.dynamics.damping > 0) spec.damping = j.dynamics.damping;
    if (j.dynamics && j.dynamics.friction > 0) spec.friction = j.dynamics.friction;
    joints.push(spec);
  }
  // <mimic>: a coupling row, when both joints are still joints (not merged as fixed)
  for (const j of model.joints) {
    if (!j.mimic) continue;
    const follower = joints.find((x) => x.name === j.name);
    const leader = joints.find((x) => x.name === j.mimic!.joint);
    if (!follower) continue;
    if (!leader || (leader.type !== 'revolute' && leader.type !== 'prismatic')) {
      warnings.push(`joint "${j.name}": <mimic joint="${j.mimic.joint}"> is ignored: that joint is fixed (or merged); "${j.name}" moves on its own`);
      continue;
    }
    follower.mimic = { joint: j.mimic.joint, multiplier: j.mimic.multiplier, offset: j.mimic.offset };
  }
  return joints;
}

/**
 * The drive controller: inferred from the geometry ('infer', a warning when none fits), the
 * given one (a warning for each length that disagrees with the geometry), or none. A controller
 * gets its motors and is validated (an error names the bad field).
 */
/** Returns the drive warnings (UrdfRobot.driveWarnings), also pushed to `warnings`. */
function attachController(robot: RobotSpec, model: UrdfModel, options: UrdfToRobotOptions, warnings: string[]): string[] {
  const driveWarnings: string[] = [];
  const mode = options.controller ?? 'infer';
  let controller: ControllerSpec | undefined;
  const choice = typeof mode === 'object' && isChoice(mode) ? mode : null;
  if (mode === 'infer' || choice) {
    const efforts: Record<string, number> = {};
    for (const j of model.joints) if (j.limit && j.limit.effort > 0) efforts[j.name] = j.limit.effort;
    const inferred = inferController(robot, efforts, choice?.type, choice?.forwardYaw);
    if (inferred.controller && choice) {
      if (choice.mode !== undefined) {
        if (inferred.controller.type !== 'all-wheel-steer') throw new UrdfError(`controller.mode is for "all-wheel-steer" controllers, this one is "${inferred.controller.type}"`, 'controller');
        inferred.controller.mode = choice.mode;
      }
      if (choice.maxSpeed !== undefined) inferred.controller.maxSpeed = choice.maxSpeed;
    }
    if (choice && !inferred.controller) throw new UrdfError(`controller: no ${choice.type === undefined ? '' : `"${choice.type}" `}controller fits robot "${robot.name}": ${inferred.reason}; give its joints in the scenario's "robot.controller"`, 'controller');
    let reason = inferred.reason;
    if (inferred.controller) {
      try {
        createDriveController(inferred.controller, robot);
        controller = inferred.controller;
      } catch (e) {
        reason = e instanceof Error ? e.message : String(e);
      }
    }
    if (!controller) warnings.push(`no controller inferred (${reason}); give one in the scenario's "robot.controller"`);
  } else if (mode !== 'none') {
    controller = mode as ControllerSpec;
    warnGeometryMismatch(robot, controller, warnings);
  }
  if (controller) {
    const capped = attachMotors(robot, controller, model, options.motorTorque);
    if (capped) {
      warnings.push(capped);
      driveWarnings.push(capped);
    }
    try {
      createDriveController(controller, robot); // validates every field, names the bad one
    } catch (e) {
      throw new UrdfError(e instanceof Error ? e.message : String(e), 'controller');
    }
    robot.controller = controller;
  }
  return driveWarnings;
}

/** A ControllerChoice (a kind to infer) rather than a full spec: nothing but type, mode, maxSpeed, forwardYaw. */
function isChoice(c: object): c is ControllerChoice {
  return Object.keys(c).every((k) => k === 'type' || k === 'mode' || k === 'maxSpeed' || k === 'forwardYaw');
}

/**
 * Servos (RobotSpec.servos) and still motors from the URDF's command interfaces, the robot's
 * controller files and the options' `hold`: a joint the drive does not command gets a position
 * servo when its interface is "position" or a controller file holds it (target: ros2_control's
 * initial_value, else 0, the pose it was built in) or it is held (the hold's target), and a
 * velocity motor at rest when its interface is "velocity"; both with the URDF's <limit effort>
 * (SERVO_DEFAULT_EFFORT without one) and a servo with its <limit velocity>. Other "effort"
 * interfaces stay free (their controller would command torque). Returns the controller files'
 * holds that became servos and notes on those that could not.
 */
function attachServos(
  robot: RobotSpec, model: UrdfModel, hold: Record<string, number> | undefined,
  controllerHolds: readonly ControllerHold[], warnings: string[],
): UrdfRobot['controllerHolds'] {
  const driven = new Set(controllerJoints(robot.controller));
  const byName = new Map(model.joints.map((j) => [j.name, j]));
  const servos: NonNullable<RobotSpec['servos']> = [];
  const motorFor = (name: string): JointSpec | undefined => robot.joints.find((x) => x.name === name);
  const limits = (name: string): { effort: number; velocity: number | undefined } => {
    const l = byName.get(name)?.limit;
    return { effort: l && l.effort > 0 ? l.effort : SERVO_DEFAULT_EFFORT, velocity: l && l.velocity > 0 ? l.velocity : undefined };
  };
  if (hold !== undefined) {
    if (typeof hold !== 'object' || hold === null || Array.isArray(hold)) throw new UrdfError('controller.hold must be an object of positions by joint name', 'hold');
    for (const [name, target] of Object.entries(hold)) {
      const field = `controller.hold.${name}`;
      if (!byName.has(name)) {
        const movable = robot.joints.filter((j) => j.type === 'revolute' || j.type === 'prismatic').map((j) => j.name);
        throw new UrdfError(`${field}: robot "${robot.name}" has no joint "${name}"; its movable joints are ${movable.slice(0, 12).map((n) => `"${n}"`).join(', ')}${movable.length > 12 ? ', …' : ''}`, name);
      }
      const joint = motorFor(name);
      if (!joint || (joint.type !== 'revolute' && joint.type !== 'prismatic')) throw new UrdfError(`${field}: joint "${name}" is ${joint ? joint.type : 'fixed (merged)'}; only revolute, continuous and prismatic joints can be held`, name);
      if (driven.has(name)) throw new UrdfError(`${field}: joint "${name}" is commanded by the drive controller (${robot.controller!.type}); hold another joint or pick a controller without it`, name);
      if (typeof target !== 'number' || !Number.isFinite(target)) throw new UrdfError(`${field} must be a finite number (rad or m), got ${JSON.stringify(target)}`, name);
      if (joint.limits && (target < joint.limits[0] || target > joint.limits[1])) throw new UrdfError(`${field} is ${target}, outside the joint's limits [${joint.limits[0]}, ${joint.limits[1]}]`, name);
    }
  }
  const configured = controllerHoldsForRobot(robot, new Set(byName.keys()), controllerHolds);
  const held: ControllerHold[] = [];
  for (const joint of robot.joints) {
    if (joint.type !== 'revolute' && joint.type !== 'prismatic') continue;
    if (driven.has(joint.name)) continue;
    const iface = model.interfaces[joint.name];
    const byHold = hold !== undefined && Object.prototype.hasOwnProperty.call(hold, joint.name);
    const byFile = byHold ? undefined : configured.holds.get(joint.name);
    if (!byHold && !byFile && (!iface || iface.interface === 'effort')) continue;
    const { effort, velocity } = limits(joint.name);
    if (joint.mimic) {
      const what = byHold ? 'hold' : byFile ? `controller "${byFile.controller}" (${byFile.file})` : `${iface!.interface} interface`;
      warnings.push(`joint "${joint.name}" follows "${joint.mimic.joint}" (<mimic>); its ${what} is ignored`);
      continue;
    }
    joint.motor = { targetVelocity: 0, maxTorque: effort };
    if (byHold || byFile || iface!.interface === 'position') {
      const target = byHold ? hold![joint.name] : iface?.initialPosition ?? 0;
      servos.push(velocity === undefined ? { joint: joint.name, target } : { joint: joint.name, target, maxVelocity: velocity });
      if (byFile) held.push(byFile);
    }
  }
  if (servos.length > 0) robot.servos = servos;
  return { held, notes: configured.notes };
}

/** Every joint a drive controller commands. */
export function controllerJoints(c: ControllerSpec | undefined): string[] {
  if (!c) return [];
  switch (c.type) {
    case 'ackermann': return [...c.driveLeft, ...c.driveRight, c.steerLeft, c.steerRight];
    case 'all-wheel-steer': return c.wheels.flatMap((w) => (w.steer === undefined ? [w.drive] : [w.drive, w.steer]));
    default: return [...c.left, ...c.right];
  }
}

/** A given controller whose lengths disagree with the robot's geometry steers wrong: say so. */
function warnGeometryMismatch(robot: RobotSpec, controller: ControllerSpec, warnings: string[]): void {
  const guess = inferController(robot).controller;
  if (controller.type === 'all-wheel-steer' || guess?.type === 'all-wheel-steer') return;
  if (guess && (guess.type === 'ackermann') === (controller.type === 'ackermann')) {
    const pairs: [string, number, number][] = [
      ['wheelRadius', controller.wheelRadius, guess.wheelRadius],
      ['track', controller.track, guess.track],
    ];
    if (controller.type === 'ackermann' && guess.type === 'ackermann') pairs.push(['wheelbase', controller.wheelbase, guess.wheelbase]);
    for (const [field, given, measured] of pairs) {
      if (Math.abs(given - measured) > CONTROLLER_GEOMETRY_TOLERANCE * measured) {
        warnings.push(`controller.${field} is ${given} m but the robot's geometry gives ${+measured.toFixed(4)} m`);
      }
    }
  }
}

/** Every link's <visual>, posed in its body's frame; one the renderer cannot fetch is dropped with a warning. */
function convertVisuals(tree: LinkTree, urdfPath: string, warnings: string[]): VisualSpec[] {
  const { links, world, order, bodyOf } = tree;
  const visuals: VisualSpec[] = [];
  for (const name of order) {
    const link = links.get(name) as UrdfLink;
    const bodyName = bodyOf.get(name) as string;
    const inBody = relative(world.get(bodyName) as Pose, world.get(name) as Pose);
    link.visuals.forEach((v, k) => {
      const T = compose(inBody, poseFromUrdf(v.origin));
      const g = v.geometry;
      let geometry: VisualSpec['geometry'];
      let texture: string | undefined;
      try {
        // A visual the renderer cannot fetch (a web URL) is dropped with a warning, not an error:
        // it changes the look, not the physics.
        geometry =
          g.type === 'mesh'
            ? { type: 'mesh', file: resolveMeshPath(urdfPath, g.filename), uri: g.filename, scale: vec(g.scale) }
            : g.type === 'box'
              ? { type: 'box', size: vec(g.size) }
              : g.type === 'cylinder'
                ? { type: 'cylinder', radius: g.radius, length: g.length }
                : { type: 'sphere', radius: g.radius };
        if (v.material?.texture) texture = resolveMeshPath(urdfPath, v.material.texture);
      } catch (e) {
        if (!(e instanceof UrdfError)) throw e;
        warnings.push(`link "${name}" <visual> #${k + 1} is not drawn: ${e.message}`);
        return;
      }
      const vis: VisualSpec = { body: bodyName, link: name, geometry, position: vec(T.p), orientation: quatSpec(T.q) };
      if (v.material) {
        if (v.material.name) vis.material = v.material.name;
        if (v.material.color) vis.color = [...v.material.color];
        if (texture) vis.texture = texture;
      }
      visuals.push(vis);
    });
  }
  return visuals;
}

function vec(v: ArrayLike<number>): Vec3Spec {
  // `+ 0` turns −0 into 0 so specs compare and print cleanly.
  return [v[0] + 0, v[1] + 0, v[2] + 0];
}

const scratchR = mat3();
const scratchI = mat3();

/** [ixx, iyy, izz, ixy, ixz, iyz] of R(rpy)·I·R(rpy)ᵀ: the inertial's tensor on the link axes. */
function rotateInertia(inertial: NonNullable<UrdfLink['inertial']>): [number, number, number, number, number, number] {
  const t = inertial.inertia;
  const r = inertial.origin.rpy;
  const I = scratchI;
  I[0] = t.ixx; I[4] = t.iyy; I[8] = t.izz;
  I[1] = I[3] = t.ixy;
  I[2] = I[6] = t.ixz;
  I[5] = I[7] = t.iyz;
  if (r[0] !== 0 || r[1] !== 0 || r[2] !== 0) {
    mat3FromQuat(scratchR, quatFromEuler([0, 0, 0, 1], r[0], r[1], r[2]));
    mat3RotateTensor(I, scratchR, I);
  }
  // Column-major: (row r, col c) at c*3 + r; symmetric, so either triangle.
  return [I[0], I[4], I[8], I[3], I[6], I[7]];
}

/**
 * Mass properties of several links' inertials rigidly joined, in the host body's frame: masses
 * add, the COM is the mass-weighted mean, each tensor is turned into the body axes
 * (R·I·Rᵀ with R = body←link · link←inertial) and moved to the common COM (parallel axis).
 */
function combineInertials(parts: { link: UrdfLink; inBody: Pose }[]): { mass: number; centerOfMass: Vec3Spec; inertia: [number, number, number, number, number, number] } {
  let mass = 0;
  const com: Vec3 = [0, 0, 0];
  const items: { m: number; c: Vec3; I: Float64Array }[] = [];
  for (const { link, inBody } of parts) {
    const inertial = link.inertial as NonNullable<UrdfLink['inertial']>;
    const frame = compose(inBody, poseFromUrdf(inertial.origin));
    const t = inertial.inertia;
    const I = mat3();
    I[0] = t.ixx; I[4] = t.iyy; I[8] = t.izz;
    I[1] = I[3] = t.ixy;
    I[2] = I[6] = t.ixz;
    I[5] = I[7] = t.iyz;
    mat3FromQuat(scratchR, frame.q);
    mat3RotateTensor(I, scratchR, I);
    items.push({ m: inertial.mass, c: frame.p, I });
    mass += inertial.mass;
    for (let k = 0; k < 3; k++) com[k] += inertial.mass * frame.p[k];
  }
  for (let k = 0; k < 3; k++) com[k] /= mass;
  const total = mat3();
  for (const it of items) {
    for (let k = 0; k < 9; k++) total[k] += it.I[k];
    mat3AddPointInertia(total, it.m, [it.c[0] - com[0], it.c[1] - com[1], it.c[2] - com[2]]);
  }
  return { mass, centerOfMass: vec(com), inertia: [total[0], total[4], total[8], total[3], total[6], total[7]] };
}

/** One <collision>'s convex shapes: a primitive, a mesh's single hull, or a concave mesh's parts. */
function collisionShapes(
  g: UrdfGeometry,
  where: string,
  link: string,
  urdfPath: string,
  options: UrdfToRobotOptions,
  cache: Map<string, MeshHullResult>,
  warnings: string[],
): ConvexShapeSpec[] {
  switch (g.type) {
    case 'box':
      return [{ type: 'box', halfExtents: [g.size[0] / 2, g.size[1] / 2, g.size[2] / 2] }];
    case 'cylinder':
      return [{ type: 'cylinder', radius: g.radius, height: g.length }];
    case 'sphere':
      return [{ type: 'sphere', radius: g.radius }];
    case 'mesh': {
      const file = resolveMeshPath(urdfPath, g.filename);
      const key = collisionMeshKey(file, g.scale);
      const split = options.convexParts?.[key];
      let hull = cache.get(key);
      if (!hull) {
        if (meshFormat(file) === 'unknown') {
          throw new UrdfError(`${where}: collision mesh "${g.filename}" is of an unknown format; collision meshes must be STL, OBJ or Collada (.dae)`, link);
        }
        const bytes = options.meshes ? options.meshes(file) : undefined;
        if (!bytes) throw new UrdfError(`${where}: collision mesh "${file}" (from "${g.filename}") is missing; put it next to the URDF (or in its package) and open it too`, link);
        try {
          hull = meshCollisionHull(readCollisionMesh(file, bytes), g.scale, `mesh "${file}"`);
        } catch (e) {
          // The reader names the file; say which link needs it too.
          if (e instanceof UrdfError) throw new UrdfError(`${where}: ${e.message}`, link);
          throw e;
        }
        cache.set(key, hull);
        if (split) {
          warnings.push(`info: ${formatVolumeReport({ file, link, meshVolume: hull.meshVolume, hullVolume: hull.hullVolume, parts: { count: split.hulls.length, volume: split.volume, fromCache: false } })}`);
        } else if (!Number.isFinite(hull.fitRatio)) {
          warnings.push(`link "${link}": collision mesh "${file}" is not closed; its convex hull is used, fit not checked`);
        } else if (hull.fitRatio > MESH_HULL_POOR_FIT_RATIO) {
          warnings.push(
            `link "${link}": the convex hull of collision mesh "${file}" has ${hull.fitRatio.toFixed(2)}× the mesh's volume (> ${MESH_HULL_POOR_FIT_RATIO}); it was not split into convex parts (convexPartsForUrdf does that, as the app and the CLI do); or split the mesh, one <collision> each, or use primitives`,
          );
        }
        if (hull.flattened) warnings.push(`link "${link}": collision mesh "${file}" is flat; it collides as a slab`);
      }
      if (split) return split.hulls.map((h) => ({ type: 'hull', points: h.map((p) => [p[0], p[1], p[2]] as Vec3Spec) }));
      return [{ type: 'hull', points: hull.points.map((p) => [p[0], p[1], p[2]] as Vec3Spec) }];
    }
  }
}

/** Friction coefficient assumed for the torque a skid-steered wheel can need (see attachMotors). */
const DRIVE_TRACTION_MU = 1;
/** [rad] Slope a wheeled robot that steers without slipping should climb on its motors (see attachMotors). */
const DRIVE_CLIMB_SLOPE = (15 * Math.PI) / 180;
/** [m/s²] Acceleration assumed when the controller gives none. */
const DRIVE_DEFAULT_ACCELERATION = 1;

/**
 * Gives the joints the controller drives a velocity motor (target 0 until the first command).
 * Torque limit: `motorTorque` when given; else the joint's URDF effort limit when it has one,
 * capped by the controller's maxTorque. A wheel whose URDF effort is the binding cap and below
 * what the drive can need warns. What it needs: for skid steer, the torque that slips the wheel on
 * the ground (μ·m·g·r / wheels, μ = DRIVE_TRACTION_MU: a skid-steer turn scrubs the wheels
 * sideways); for a differential drive or Ackermann car, which steer without slipping, the torque
 * to accelerate at the controller's rate up a DRIVE_CLIMB_SLOPE slope (m·(a + g·sin θ)·r / wheels);
 * plus, both, the joint's own friction and its damping at top speed.
 */
function attachMotors(robot: RobotSpec, c: ControllerSpec, model: UrdfModel, motorTorque: number | undefined): string | null {
  if (motorTorque !== undefined && !(motorTorque > 0 && Number.isFinite(motorTorque))) {
    throw new UrdfError(`motorTorque must be a positive number of N·m, got ${motorTorque}`, 'motorTorque');
  }
  const wheels = c.type === 'ackermann' ? [...c.driveLeft, ...c.driveRight] : c.type === 'all-wheel-steer' ? c.wheels.map((w) => w.drive) : [...c.left, ...c.right];
  const driven = controllerJoints(c);
  const efforts = new Map<string, number>();
  for (const j of model.joints) if (j.limit && j.limit.effort > 0) efforts.set(j.name, j.limit.effort);
  let mass = 0;
  for (const b of robot.bodies) mass += b.mass ?? 0;
  const perWheel = c.type === 'skid-steer'
    ? DRIVE_TRACTION_MU * mass * 9.81
    : mass * ((c.maxAcceleration ?? DRIVE_DEFAULT_ACCELERATION) + 9.81 * Math.sin(DRIVE_CLIMB_SLOPE));
  const traction = (perWheel * c.wheelRadius) / Math.max(1, wheels.length);
  const low: string[] = [];
  let need = 0;
  for (const name of driven) {
    const joint = robot.joints.find((j) => j.name === name);
    if (!joint) throw new UrdfError(`controller: joint "${name}" is not a joint of robot "${robot.name}" (or it was merged as fixed); check the name`, name);
    if (joint.type !== 'revolute') throw new UrdfError(`controller: joint "${name}" is ${joint.type}; driven and steering joints must be revolute or continuous`, name);
    const effort = efforts.get(name);
    const cap = motorTorque ?? (effort === undefined ? c.maxTorque : Math.min(effort, c.maxTorque));
    joint.motor = { targetVelocity: 0, maxTorque: cap };
    if (motorTorque === undefined && effort !== undefined && effort <= c.maxTorque && wheels.includes(name)) {
      const needed = traction + (joint.friction ?? 0) + (joint.damping ?? 0) * (c.maxSpeed / c.wheelRadius);
      if (cap < needed) {
        low.push(name);
        need = Math.max(need, needed);
      }
    }
  }
  if (low.length > 0) {
    return (
      `the wheel motors are capped by the URDF's <limit effort> (${low.map((n) => `"${n}" ${efforts.get(n)} N·m`).join(', ')}), below the ${+need.toFixed(2)} N·m the drive can need (${c.type === 'skid-steer' ? `slipping a wheel sideways in a skid-steer turn: μ·m·g·r / wheels with μ = ${DRIVE_TRACTION_MU}` : `accelerating up a ${Math.round((DRIVE_CLIMB_SLOPE * 180) / Math.PI)}° slope: m·(a + g·sin θ)·r / wheels`}, plus joint friction and damping at top speed); the robot may not ${c.type === 'skid-steer' ? 'turn' : 'climb'}: set the scenario's "robot.motorTorque"`
    );
  }
  return null;
}
