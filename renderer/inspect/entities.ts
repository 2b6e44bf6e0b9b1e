/**
 * The entity panel's data: each body's pose, velocity and roll/pitch/yaw, and each joint's
 * coordinate, rate and motor effort, read from a frame. Pure; unit-tested.
 *
 * Roll/pitch/yaw are the z-y-x (yaw, then pitch, then roll) Tait–Bryan angles of REP-103:
 * R = Rz(yaw)·Ry(pitch)·Rx(roll); pitch is clamped to ±90° where the formula's asin argument
 * leaves [−1, 1] through rounding.
 */
import { JOINT_FRAME_STRIDE, POSE_STRIDE, VELOCITY_STRIDE } from '../../sim/dynamics/frame-layout';
import type { BodyInfo, JointInfo } from '../../sim/app/protocol';

/** Floats per joint in Frame.joints (the frame layout's JOINT_FRAME_STRIDE). */
export const JOINT_STRIDE = JOINT_FRAME_STRIDE;

/** [roll, pitch, yaw] in rad of the unit quaternion [x, y, z, w]; writes out. */
export function rollPitchYaw(out: [number, number, number], qx: number, qy: number, qz: number, qw: number): [number, number, number] {
  out[0] = Math.atan2(2 * (qw * qx + qy * qz), 1 - 2 * (qx * qx + qy * qy));
  const s = 2 * (qw * qy - qz * qx);
  out[1] = Math.asin(s >= 1 ? 1 : s <= -1 ? -1 : s);
  out[2] = Math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz));
  return out;
}

export interface BodyState {
  index: number;
  name: string;
  role: BodyInfo['role'];
  position: [number, number, number];
  /** [rad] roll, pitch, yaw */
  rpy: [number, number, number];
  /** [m/s] origin velocity, null when the frame has none. */
  velocity: [number, number, number] | null;
  /** [rad/s] */
  angularVelocity: [number, number, number] | null;
  /** [m/s] |velocity| */
  speed: number | null;
}

export interface JointState {
  index: number;
  name: string;
  type: JointInfo['type'];
  /** Body names; "world" for bodyA −1. */
  parent: string;
  child: string;
  /** [rad | m] */
  coordinate: number;
  /** [rad/s | m/s] */
  rate: number;
  /** [N·m | N] motor effort (0 without a motor). */
  effort: number;
  motor: boolean;
}

export function bodyState(bodies: readonly BodyInfo[], poses: Float32Array, velocities: Float32Array | undefined, b: number): BodyState | null {
  const o = POSE_STRIDE * b;
  if (b < 0 || b >= bodies.length || o + POSE_STRIDE > poses.length) return null;
  const q = VELOCITY_STRIDE * b;
  const hasV = velocities !== undefined && q + VELOCITY_STRIDE <= velocities.length;
  const velocity: [number, number, number] | null = hasV ? [velocities[q], velocities[q + 1], velocities[q + 2]] : null;
  return {
    index: b,
    name: bodies[b].name,
    role: bodies[b].role,
    position: [poses[o], poses[o + 1], poses[o + 2]],
    rpy: rollPitchYaw([0, 0, 0], poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]),
    velocity,
    angularVelocity: hasV ? [velocities[q + 3], velocities[q + 4], velocities[q + 5]] : null,
    speed: velocity ? Math.hypot(velocity[0], velocity[1], velocity[2]) : null,
  };
}

export function jointState(bodies: readonly BodyInfo[], joints: readonly JointInfo[], values: Float32Array, j: number): JointState | null {
  if (j < 0 || j >= joints.length) return null;
  const d = joints[j], o = JOINT_STRIDE * j;
  const has = o + JOINT_STRIDE <= values.length;
  const name = (b: number): string => (b < 0 ? 'world' : (bodies[b]?.name ?? `#${b}`));
  return {
    index: j,
    name: d.name,
    type: d.type,
    parent: name(d.bodyA),
    child: name(d.bodyB),
    coordinate: has ? values[o] : NaN,
    rate: has ? values[o + 1] : NaN,
    effort: has ? values[o + 2] : NaN,
    motor: d.motor,
  };
}

export interface EntityNode {
  kind: 'body' | 'joint';
  index: number;
  label: string;
  children: EntityNode[];
}

/**
 * The tree: the robot's base at the root with its joints, each joint holding its child body (and
 * that body's joints in turn); bodies no joint reaches (obstacles, static bodies) at top level.
 */
export function entityTree(bodies: readonly BodyInfo[], joints: readonly JointInfo[], baseBody: number): EntityNode[] {
  const placed = new Set<number>();
  const bodyNode = (b: number): EntityNode => {
    placed.add(b);
    const node: EntityNode = { kind: 'body', index: b, label: `${bodies[b].name} (${bodies[b].role})`, children: [] };
    joints.forEach((jd, j) => {
      if (jd.bodyA !== b || placed.has(jd.bodyB) || jd.bodyB < 0 || jd.bodyB >= bodies.length) return;
      node.children.push({ kind: 'joint', index: j, label: `${jd.name} (${jd.type})`, children: [bodyNode(jd.bodyB)] });
    });
    return node;
  };
  const roots: EntityNode[] = [];
  if (baseBody >= 0 && baseBody < bodies.length) roots.push(bodyNode(baseBody));
  for (let b = 0; b < bodies.length; b++) if (!placed.has(b)) roots.push(bodyNode(b));
  // joints that hang off the world or close loops: listed at top level so none is lost
  joints.forEach((jd, j) => {
    const listed = (ns: EntityNode[]): boolean => ns.some((n) => (n.kind === 'joint' && n.index === j) || listed(n.children));
    if (!listed(roots)) roots.push({ kind: 'joint', index: j, label: `${jd.name} (${jd.type})`, children: [] });
  });
  return roots;
}
