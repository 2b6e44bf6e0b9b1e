/**
 * The data a dynamics world is built from, and the layout of what it reports per step.
 *
 * These are plain JSON-friendly types: scenario files (format v2) parse into them, URDF import
 * produces them, scripts pass them to `createWorld`. Conventions: SI units, z up, quaternions
 * [x, y, z, w], every cylinder's and capsule's axis along its local z, joint anchors and axes in
 * world coordinates at the start pose.
 */

export type Vec3Spec = [number, number, number];
/** A quaternion `[x, y, z, w]` in a world description (normalised when the world is built). */
export type QuatSpec = [number, number, number, number];

/** A convex shape, as in `queryConvex` (sim/shapes/shape-desc.ts). */
export type ConvexShapeSpec =
  | { type: 'sphere'; radius: number }
  | { type: 'box'; halfExtents: Vec3Spec }
  | { type: 'capsule'; radius: number; height: number }
  | { type: 'cylinder'; radius: number; height: number }
  | { type: 'hull'; points: Vec3Spec[] };

/** Several convex children rigidly joined; each child at a pose in the body's frame. */
export interface CompoundShapeSpec {
  type: 'compound';
  children: { shape: ConvexShapeSpec; position?: Vec3Spec; orientation?: QuatSpec }[];
}

/** The shape of a body: a convex shape or a compound of them. */
export type ShapeSpec = ConvexShapeSpec | CompoundShapeSpec;

/**
 * How a body moves: `dynamic` (forces and contacts), `static` (never), `kinematic` (at its set
 * velocity, unaffected by contacts).
 */
export type BodyType = 'dynamic' | 'static' | 'kinematic';

/**
 * One rigid body of a world description: name, shape, mass or density, pose, velocities, material.
 */
export interface BodySpec {
  name: string;
  shape: ShapeSpec;
  /** Default 'dynamic'. A dynamic body needs `mass` or `density`. */
  type?: BodyType;
  /** [kg] Total mass (inertia from the shape at uniform density, unless `inertia` is given). */
  mass?: number;
  /** [kg/m³] Uniform density (mass and inertia from the shape). */
  density?: number;
  /**
   * [kg·m²] Inertia about the centre of mass in the body frame, [ixx, iyy, izz, ixy, ixz, iyz]
   * (URDF's order). Requires `mass`. Default: from the shape.
   */
  inertia?: [number, number, number, number, number, number];
  /** [m] Centre of mass in the body frame. Default: the shape's centroid. */
  centerOfMass?: Vec3Spec;
  /** [m] World position of the body frame's origin. Default [0, 0, 0]. */
  position?: Vec3Spec;
  /** World orientation. Default identity. */
  orientation?: QuatSpec;
  /** [m/s] of the body origin. Default 0. */
  linearVelocity?: Vec3Spec;
  /** [rad/s] world frame. Default 0. */
  angularVelocity?: Vec3Spec;
  /** Name of a material in the scenario's `materials`; default "default". */
  material?: string;
  /** Force continuous collision for this body (default: automatic by speed). */
  ccd?: boolean;
}

/** The joint kinds the dynamics world supports. */
export type JointType = 'revolute' | 'fixed' | 'prismatic' | 'ball';

/**
 * One joint of a world description: two bodies (or a body and the world), anchor and axis in world
 * coordinates at the start, limits, motor, spring.
 */
export interface JointSpec {
  type: JointType;
  name: string;
  /** Body names. bodyA may be omitted to attach bodyB to the world. */
  bodyA?: string;
  bodyB: string;
  /** [m] World anchor at the start pose. Default: bodyB's origin. */
  anchor?: Vec3Spec;
  /** Unit axis in world coordinates at the start pose (revolute, prismatic). Default [0, 0, 1]. */
  axis?: Vec3Spec;
  /** [rad] (revolute) or [m] (prismatic) lower and upper limit of the joint coordinate. */
  limits?: [number, number];
  /** Velocity motor: [rad/s] or [m/s] target; [N·m] or [N] largest effort. */
  motor?: { targetVelocity: number; maxTorque: number };
  /** Spring toward coordinate 0 (prismatic suspension, or revolute): [N/m]|[N·m/rad], [N·s/m]|[N·m·s/rad]. */
  spring?: { stiffness: number; damping: number; restPosition?: number };
  /** Viscous damping of the joint coordinate (URDF `dynamics damping`). */
  damping?: number;
  /** Coulomb friction of the joint coordinate [N·m] or [N] (URDF `dynamics friction`). */
  friction?: number;
  /**
   * Coupling to another joint (URDF `<mimic>`): this joint's coordinate is held at
   * multiplier · the other's + offset by a solver row. Both joints revolute or prismatic.
   */
  mimic?: MimicSpec;
}

/** A joint coupled to another (URDF `<mimic joint multiplier offset>`). */
export interface MimicSpec {
  /** Name of the leading joint. */
  joint: string;
  /** Default 1. */
  multiplier?: number;
  /** [rad] or [m]; default 0. */
  offset?: number;
}

/**
 * Surface properties of a body or a terrain region; how two materials combine is given per field.
 */
export interface MaterialSpec {
  /** Coulomb friction coefficient (pairs combine by geometric mean). Default 0.8. */
  friction?: number;
  /** Restitution 0..1 (pairs take the larger). Default 0. */
  restitution?: number;
  /** Rolling resistance coefficient (dimensionless, torque = c·N·lever arm). Default 0. */
  rollingResistance?: number;
}

/** Inline terrain (scripts): heights[j*cols + i] at (x0 + i*dx, y0 + j*dy). */
export interface InlineTerrainSpec {
  cols: number;
  rows: number;
  dx: number;
  dy: number;
  x0?: number;
  y0?: number;
  heights: ArrayLike<number>;
}

/**
 * Terrain material regions: the first region that contains a point's (x, y) names its
 * material; elsewhere the terrain's `material` (default "default").
 */
export interface TerrainMaterialMapSpec {
  material?: string;
  regions?: TerrainRegionSpec[];
}

/**
 * A region of the terrain with its own material: a rectangle, a circle or a polygon in world x, y.
 */
export type TerrainRegionSpec =
  | { material: string; shape: 'rect'; min: [number, number]; max: [number, number] }
  | { material: string; shape: 'circle'; center: [number, number]; radius: number }
  | { material: string; shape: 'polygon'; points: [number, number][] };

/** A drive command of a scenario's script, in effect from time `t` until the next one. */
export interface ScriptCommandSpec {
  /** [s] */
  t: number;
  throttle: number;
  steer: number;
}

/**
 * How the robot's drive command reaches its joints. Every kind may give `forwardYaw` (rad), the
 * robot's forward direction in its base link's frame, about the base's z (0, the default: +x as
 * REP-103 has it; ±π/2 for robots modelled driving along ±y, whose wheels spin about x). Wheel
 * positions, left and right and the joints' axis signs are taken in that drive frame.
 */
export type ControllerSpec = ControllerKindSpec & { forwardYaw?: number };

/** The kinds of ControllerSpec. */
export type ControllerKindSpec =
  | {
      type: 'skid-steer' | 'differential';
      /** Joint names of the left and right wheels (velocity motors). */
      left: string[];
      right: string[];
      /** [m] wheel radius, [m] track (distance between left and right wheel centres). */
      wheelRadius: number;
      track: number;
      /** [m/s] speed at throttle 1; [rad/s] yaw rate at steer 1. */
      maxSpeed: number;
      maxYawRate?: number;
      /** [m/s²] and [rad/s²] acceleration limits of the commanded motion. */
      maxAcceleration?: number;
      maxYawAcceleration?: number;
      /** [N·m] motor torque limit per wheel. */
      maxTorque: number;
    }
  | {
      type: 'ackermann';
      /** Driven wheel joints (velocity motors) and their side. */
      driveLeft: string[];
      driveRight: string[];
      /** Steering joints (revolute, position-controlled through their motor). */
      steerLeft: string;
      steerRight: string;
      wheelRadius: number;
      /** [m] front–rear axle distance, [m] distance between the steering pivots. */
      wheelbase: number;
      track: number;
      maxSpeed: number;
      /** [rad] largest steering angle of the inner wheel. */
      maxSteer: number;
      maxAcceleration?: number;
      maxTorque: number;
    }
  | AllWheelSteerSpec;

/**
 * All-wheel steering (4 or 6 steered wheels: the JPL Open Source Rover, Mars rovers). The
 * command is a body twist about a reference point (the mean position of the unsteered wheels,
 * or of all wheels when every wheel steers): throttle → forward speed v, steer → yaw rate ω, so
 * that steer alone turns in place and both together turn about a point beside the rover
 * (Ackermann-like, every wheel aimed at that point); in "crab" mode steer instead turns every
 * steered wheel by the same angle and the rover moves sideways without turning.
 */
export interface AllWheelSteerSpec {
  type: 'all-wheel-steer';
  /**
   * Every driven wheel: its joint, the joint that steers it (none: a fixed wheel), and its
   * position [x, y] in the base frame (default: the wheel joint's anchor at the start pose).
   */
  wheels: { drive: string; steer?: string; position?: [number, number] }[];
  wheelRadius: number;
  /** [m/s] speed at throttle 1; [rad/s] yaw rate at steer 1 ("turn" mode). */
  maxSpeed: number;
  maxYawRate?: number;
  maxAcceleration?: number;
  maxYawAcceleration?: number;
  /** [rad] Largest steering angle of any wheel (targets are clamped to it); crab angle at steer 1. */
  maxSteer: number;
  /** "turn" (default): steer is a yaw rate; "crab": steer is a common steering angle. */
  mode?: 'turn' | 'crab';
  maxTorque: number;
}

/**
 * A joint held at a position by its motor (a position servo: a proportional loop on the motor's
 * target velocity, clamped to maxVelocity, effort-limited by the motor's maxTorque). From URDF
 * position interfaces (<transmission>, <ros2_control>) and a scenario's `robot.controller.hold`.
 */
export interface ServoSpec {
  joint: string;
  /** [rad] or [m] position to hold. */
  target: number;
  /** [rad/s] or [m/s] fastest approach; default STEERING_MAX_RATE. */
  maxVelocity?: number;
}

/** A robot: bodies and joints (and how to drive them). URDF import produces one. */
export interface RobotSpec {
  name: string;
  bodies: BodySpec[];
  joints: JointSpec[];
  controller?: ControllerSpec;
  /** Joints held at a position by their motors (each needs a `motor`); see ServoSpec. */
  servos?: ServoSpec[];
  /** Name of the body whose pose the app follows (the chassis). */
  base: string;
  /**
   * Whether the robot's bodies collide with each other (Gazebo's `self_collide`). Default false:
   * a robot's links pass through each other (jointed pairs never collide either way).
   */
  selfCollide?: boolean;
  /** With selfCollide: body pairs that still never collide (SRDF `disable_collisions`). */
  disableCollisions?: [string, string][];
}

/** Everything a world is built from (scenario file v2 after parsing, or a script's object). */
export interface WorldSpec {
  name: string;
  /** [m/s²] Default [0, 0, −9.81]. */
  gravity: Vec3Spec;
  /** [s] fixed step, and solver substeps per step. */
  dt: number;
  substeps: number;
  sleep: boolean;
  ccd: boolean;
  materials: Record<string, MaterialSpec>;
  terrainMaterials: TerrainMaterialMapSpec;
  bodies: BodySpec[];
  joints: JointSpec[];
  robot?: RobotSpec;
  script: ScriptCommandSpec[];
}

// The per-step report layout (strides, contact-kind codes) lives in ./frame-layout.ts.
