/**
 * The ROS messages the server publishes, built from a session's state after a step batch (JSON
 * objects in the ROS 1 layout of msg-defs.ts; the server serialises each once and sends the same
 * text to every subscriber).
 *
 * Frames: one tree, rooted at `world` (the simulation's frame: z up, x forward, REP-103), with
 * every body as a child named by its body name (`rover/chassis`, `rover/wheel_fl`, …), as in a
 * recording's `/terrawheel/tf`. `/odom` is the robot base's ground truth in `world` (pose) and
 * in the base's own frame (twist, as ROS's Odometry says), with zero covariance.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, ContactField, ContactInfoField, CONTACT_KIND_BODY_PAIR, CONTACT_KIND_CONVEX_TERRAIN, POSE_STRIDE, VELOCITY_STRIDE } from '../../dynamics/frame-layout';
import type { PortInfo, PortState } from './session-port';

/** The fixed frame of every message. */
export const WORLD_FRAME = 'world';

/** ROS 1 time as JSON. */
export interface RosTime {
  secs: number;
  nsecs: number;
}

/** Simulated seconds as ROS time (nanoseconds rounded; a carry into secs when they round to 1e9). */
export function rosTime(t: number): RosTime {
  let secs = Math.floor(t);
  let nsecs = Math.round((t - secs) * 1e9);
  if (nsecs >= 1e9) {
    secs += 1;
    nsecs -= 1e9;
  }
  return { secs, nsecs };
}

function header(seq: number, stamp: RosTime, frameId: string) {
  return { seq, stamp, frame_id: frameId };
}

const ZERO_COVARIANCE: readonly number[] = new Array<number>(36).fill(0);

/** The body /odom describes: the robot's base, else the first body that is not static, else 0. */
export function odomBody(info: PortInfo): number {
  if (info.baseBody >= 0) return info.baseBody;
  const moving = info.bodies.findIndex((b) => b.role !== 'static');
  return moving >= 0 ? moving : 0;
}

/** nav_msgs/Odometry of `body`. */
export function odometry(info: PortInfo, s: PortState, seq: number, body: number) {
  const p = s.frame.poses, v = s.frame.velocities;
  const o = body * POSE_STRIDE, ov = body * VELOCITY_STRIDE;
  const qx = p[o + 3], qy = p[o + 4], qz = p[o + 5], qw = p[o + 6];
  return {
    header: header(seq, rosTime(s.time), WORLD_FRAME),
    child_frame_id: info.bodies[body]?.name ?? `body${body}`,
    pose: {
      pose: { position: { x: p[o], y: p[o + 1], z: p[o + 2] }, orientation: { x: qx, y: qy, z: qz, w: qw } },
      covariance: ZERO_COVARIANCE,
    },
    twist: {
      twist: {
        linear: toBodyFrame(qx, qy, qz, qw, v[ov], v[ov + 1], v[ov + 2]),
        angular: toBodyFrame(qx, qy, qz, qw, v[ov + 3], v[ov + 4], v[ov + 5]),
      },
      covariance: ZERO_COVARIANCE,
    },
  };
}

/** Rotates a world-frame vector into the frame of the unit quaternion q (v_body = qᶜ v q). */
function toBodyFrame(qx: number, qy: number, qz: number, qw: number, x: number, y: number, z: number) {
  // t = 2 (q_vec × v) with the conjugate's vector part −q_vec; v' = v + w t + q_vec' × t
  const cx = -qx, cy = -qy, cz = -qz;
  const tx = 2 * (cy * z - cz * y), ty = 2 * (cz * x - cx * z), tz = 2 * (cx * y - cy * x);
  return {
    x: x + qw * tx + (cy * tz - cz * ty),
    y: y + qw * ty + (cz * tx - cx * tz),
    z: z + qw * tz + (cx * ty - cy * tx),
  };
}

/** tf2_msgs/TFMessage: world → every body. */
export function tfMessage(info: PortInfo, s: PortState, seq: number) {
  const p = s.frame.poses;
  const stamp = rosTime(s.time);
  const n = Math.min(s.frame.bodyCount, info.bodies.length);
  const transforms = [];
  for (let b = 0; b < n; b++) {
    const o = b * POSE_STRIDE;
    transforms.push({
      header: header(seq, stamp, WORLD_FRAME),
      child_frame_id: info.bodies[b].name,
      transform: { translation: { x: p[o], y: p[o + 1], z: p[o + 2] }, rotation: { x: p[o + 3], y: p[o + 4], z: p[o + 5], w: p[o + 6] } },
    });
  }
  return { transforms };
}

/**
 * sensor_msgs/JointState of the joints with one coordinate (revolute, prismatic). `effort` is
 * empty: the session's state does not carry motor efforts (ROS allows an empty array there).
 */
export function jointStates(info: PortInfo, s: PortState, seq: number) {
  const name: string[] = [], position: number[] = [], velocity: number[] = [];
  for (let j = 0; j < info.joints.length; j++) {
    const d = info.joints[j];
    if (d.type !== 'revolute' && d.type !== 'prismatic') continue;
    name.push(d.name);
    position.push(s.jointPosition[j]);
    velocity.push(s.jointVelocity[j]);
  }
  return { header: header(seq, rosTime(s.time), ''), name, position, velocity, effort: [] as number[] };
}

/** rosgraph_msgs/Clock: simulated time. */
export function clock(s: PortState) {
  return { clock: rosTime(s.time) };
}

/** Arrow length per newton of normal force [m/N], and its bounds [m]. */
const ARROW_M_PER_N = 1e-3;
const ARROW_MIN_M = 0.05;
const ARROW_MAX_M = 0.5;

/** RGBA per contact kind: wheel cases 0–4, a convex shape on the terrain, a body pair. */
function kindColor(kind: number) {
  switch (kind) {
    case 0: return { r: 0.2, g: 0.8, b: 0.2, a: 1 }; // flat patch
    case 1: return { r: 0.9, g: 0.6, b: 0.1, a: 1 }; // base A
    case 2: return { r: 0.2, g: 0.5, b: 1, a: 1 }; // side B
    case 3: return { r: 0.9, g: 0.2, b: 0.9, a: 1 }; // point C
    case 4: return { r: 1, g: 0.2, b: 0.2, a: 1 }; // edge / vertex
    case CONTACT_KIND_CONVEX_TERRAIN: return { r: 0.6, g: 0.6, b: 0.6, a: 1 };
    case CONTACT_KIND_BODY_PAIR: return { r: 1, g: 1, b: 0.2, a: 1 };
    default: return { r: 1, g: 1, b: 1, a: 1 };
  }
}

/**
 * visualization_msgs/MarkerArray of the step's contacts: a DELETEALL marker (so contacts of the
 * previous batch disappear), then one ARROW per contact from its point along its normal (out of
 * the terrain, or from B into A), its length growing with the normal force, coloured by the case
 * that produced it (wheel: flat, base, side, point, edge; another shape on the terrain; a body
 * pair). Namespace `contacts`, id = contact index.
 */
export function contactMarkers(s: PortState, seq: number, dt: number) {
  const stamp = rosTime(s.time);
  const c = s.frame.contacts, ci = s.frame.contactInfo;
  const markers: ReturnType<typeof marker>[] = [marker(seq, stamp, 0, 3, [], { r: 0, g: 0, b: 0, a: 0 })];
  for (let i = 0; i < s.frame.contactCount; i++) {
    const o = i * CONTACT_STRIDE;
    const px = c[o + ContactField.Point], py = c[o + ContactField.Point + 1], pz = c[o + ContactField.Point + 2];
    const nx = c[o + ContactField.Normal], ny = c[o + ContactField.Normal + 1], nz = c[o + ContactField.Normal + 2];
    const force = dt > 0 ? c[o + ContactField.NormalImpulse] / dt : 0;
    const len = Math.min(ARROW_MAX_M, Math.max(ARROW_MIN_M, force * ARROW_M_PER_N));
    const kind = ci[i * CONTACT_INFO_STRIDE + ContactInfoField.Kind];
    markers.push(marker(seq, stamp, i, 0, [{ x: px, y: py, z: pz }, { x: px + nx * len, y: py + ny * len, z: pz + nz * len }], kindColor(kind)));
  }
  return { markers };
}

function marker(seq: number, stamp: RosTime, id: number, action: number, points: { x: number; y: number; z: number }[], color: { r: number; g: number; b: number; a: number }) {
  return {
    header: header(seq, stamp, WORLD_FRAME),
    ns: 'contacts',
    id,
    type: 0, // ARROW: points[0] tail, points[1] head
    action, // 0 ADD, 3 DELETEALL
    pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
    scale: { x: 0.01, y: 0.02, z: 0.02 }, // shaft diameter, head diameter, head length [m]
    color,
    lifetime: { secs: 0, nsecs: 0 },
    frame_locked: false,
    points,
    colors: [] as { r: number; g: number; b: number; a: number }[],
    text: '',
    mesh_resource: '',
    mesh_use_embedded_materials: false,
  };
}

/** rosgraph_msgs/Log levels. */
export const LogLevel = { Info: 2, Warn: 4, Error: 8 } as const;

/** rosgraph_msgs/Log from the server's node. */
export function logMessage(seq: number, time: number, level: number, msg: string, topics: string[] = []) {
  return { header: header(seq, rosTime(time), ''), level, name: '/terrawheel', msg, file: '', function: '', line: 0, topics };
}
