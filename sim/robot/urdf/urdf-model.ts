/**
 * The typed form of a URDF file (what `parseUrdf` returns): every number checked, every default
 * filled in, names resolved. Frames and units are URDF's own: metres, radians, kilograms; an
 * origin is a translation then fixed-axis roll–pitch–yaw, R = Rz(yaw)·Ry(pitch)·Rx(roll).
 *
 * Supported subset (anything else is an error or a warning, never silently half-read):
 *   <robot name>            one root element
 *   <link name>             <inertial> <origin> <mass value> <inertia ixx ixy ixz iyy iyz izz>
 *                           <collision>* and <visual>*: <origin>, <geometry> with one of
 *                           <box size> <cylinder radius length> <sphere radius> <mesh filename scale>
 *                           <visual><material name> with <color rgba> / <texture filename>
 *   <joint name type>       revolute, continuous, prismatic, fixed (+ <terrawheel:ball/> = ball);
 *                           <parent link> <child link> <origin> <axis xyz> <limit lower upper effort velocity>
 *                           <dynamics damping friction> <mimic joint multiplier offset>
 *   <transmission>          ROS 1: each <joint>'s <hardwareInterface> (Position/Velocity/Effort)
 *   <ros2_control>          ROS 2: each <joint>'s <command_interface name>, and a position
 *                           <state_interface>'s <param name="initial_value">
 *   <material name>         top-level materials referenced by name from visuals
 *   <gazebo>, <safety_controller>, <calibration>: ignored (no physics meaning here)
 */
import type { Vec3Spec } from '../../dynamics/spec';

/** Translation [m] and fixed-axis roll, pitch, yaw [rad]. */
export interface UrdfPose {
  xyz: Vec3Spec;
  rpy: Vec3Spec;
}

/** A URDF `<geometry>`: box, cylinder (axis along local z), sphere or mesh. */
export type UrdfGeometry =
  | { type: 'box'; size: Vec3Spec }
  | { type: 'cylinder'; radius: number; length: number }
  | { type: 'sphere'; radius: number }
  /** `filename` exactly as written (package://, relative or file://); see resolveMeshPath. */
  | { type: 'mesh'; filename: string; scale: Vec3Spec };

/** A URDF `<material>`: its colour and texture name. */
export interface UrdfMaterial {
  name: string;
  /** RGBA, each 0..1. */
  color?: [number, number, number, number];
  /** Texture file name as written. */
  texture?: string;
}

export interface UrdfVisual {
  name?: string;
  origin: UrdfPose;
  geometry: UrdfGeometry;
  /** Resolved material (a named reference is replaced by the top-level definition). */
  material?: UrdfMaterial;
}

export interface UrdfCollision {
  name?: string;
  origin: UrdfPose;
  geometry: UrdfGeometry;
}

/** Inertia tensor entries [kg·m²] about the centre of mass, in the inertial's (rotated) frame. */
export interface UrdfInertia {
  ixx: number;
  ixy: number;
  ixz: number;
  iyy: number;
  iyz: number;
  izz: number;
}

/** A URDF `<inertial>`: mass, centre of mass and inertia tensor. */
export interface UrdfInertial {
  /** Centre of mass (xyz) and the frame of `inertia` (rpy), relative to the link frame. */
  origin: UrdfPose;
  /** [kg] > 0 */
  mass: number;
  inertia: UrdfInertia;
}

/** A URDF `<link>`: its inertial, collisions and visuals. */
export interface UrdfLink {
  name: string;
  inertial?: UrdfInertial;
  collisions: UrdfCollision[];
  visuals: UrdfVisual[];
}

/** URDF joint types we accept; 'ball' is TerraWheel's extension (see docs/file-formats.md, "Ball joints"). */
export type UrdfJointType = 'revolute' | 'continuous' | 'prismatic' | 'fixed' | 'ball';

export interface UrdfLimit {
  /** [rad] or [m] */
  lower: number;
  upper: number;
  /** [N·m] or [N] largest effort (0 = not given for continuous joints). */
  effort: number;
  /** [rad/s] or [m/s] */
  velocity: number;
}

/** A URDF `<joint>`: kind, parent and child links, origin, axis, limits and dynamics. */
export interface UrdfJoint {
  name: string;
  type: UrdfJointType;
  parent: string;
  child: string;
  /** Child link frame relative to the parent link frame at joint coordinate 0. */
  origin: UrdfPose;
  /** Unit axis in the joint (= child link) frame. Default [1, 0, 0]. */
  axis: Vec3Spec;
  limit?: UrdfLimit;
  /** Viscous damping [N·m·s/rad | N·s/m] and Coulomb friction [N·m | N]. */
  dynamics?: { damping: number; friction: number };
  /** `<mimic>`: this joint's coordinate = multiplier · `joint`'s + offset. */
  mimic?: { joint: string; multiplier: number; offset: number };
}

/**
 * How the robot's controllers command a joint, from `<transmission>` (ROS 1) or `<ros2_control>`
 * (ROS 2): 'position' (a servo holds it at a target), 'velocity' (a velocity motor), 'effort'
 * (torque commanded directly: left free here).
 */
export type UrdfCommandInterface = 'position' | 'velocity' | 'effort';

/** A joint's command interface and, from ros2_control, the initial position it starts at. */
export interface UrdfJointInterface {
  interface: UrdfCommandInterface;
  /** [rad] or [m] ros2_control's `<state_interface name="position"><param name="initial_value">`. */
  initialPosition?: number;
  /** Where it was declared: 'transmission' or 'ros2_control'. */
  from: 'transmission' | 'ros2_control';
}

/** A parsed URDF file (`parseUrdf`): the robot's links and joints, before they become bodies. */
export interface UrdfModel {
  name: string;
  links: UrdfLink[];
  joints: UrdfJoint[];
  materials: Record<string, UrdfMaterial>;
  /** The one link that is nobody's child. */
  root: string;
  /** Command interfaces by joint name (<transmission>, <ros2_control>); absent: not declared. */
  interfaces: Record<string, UrdfJointInterface>;
  /** Things read but not used (mimic, unknown material references, ...), one sentence each. */
  warnings: string[];
}
