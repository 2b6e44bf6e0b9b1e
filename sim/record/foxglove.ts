/**
 * Foxglove messages built from a frame, as JSON objects that follow the `@foxglove/schemas` JSON
 * schemas (foxglove.FrameTransforms, foxglove.SceneUpdate) plus our per-wheel series
 * (`terrawheel.Wheels`, a small JSON schema defined here), so a recording opens in Foxglove or
 * Lichtblick with no plugin: 3D panel (transforms, scene, contact arrows) and Plot panel
 * (`/terrawheel/wheels.wheels[0].normal_force`).
 *
 * These channels are for looking at: numbers are rounded (FOXGLOVE_*_DECIMALS) and written at a
 * lower rate than the sim steps. The exact record is `/terrawheel/frame` and the keyframes.
 *
 * The wheel statistics (`wheelStatsInto`) are shared with the CSV export so both say the same.
 */
import type { ConvexShapeSpec, ShapeSpec, InlineTerrainSpec } from '../dynamics/spec';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE, VELOCITY_STRIDE, CONTACT_KIND_BODY_PAIR, CONTACT_KIND_CONVEX_TERRAIN } from '../dynamics/frame-layout';
import type { FrameData } from './format';

/** A body as the recording describes it (for Foxglove's scene and for names in CSV/events). */
export interface RecordedBody {
  name: string;
  shape: ShapeSpec;
}

/** [m/s] below this speed the slip ratio's denominator is held (a wheel at rest has no defined slip). */
export const SLIP_SPEED_FLOOR = 0.05;
/** Decimals of positions [m] in Foxglove messages: 1e-4 m = 0.1 mm, below what a view shows. */
export const FOXGLOVE_POSITION_DECIMALS = 4;
/** Decimals of unit quaternions and normals in Foxglove messages. */
export const FOXGLOVE_UNIT_DECIMALS = 5;
/** [m] contact arrow: fixed length so shallow contacts stay visible, plus DEPTH_GAIN × depth. */
export const CONTACT_ARROW_LENGTH = 0.12;
export const CONTACT_ARROW_DEPTH_GAIN = 4;
/** [m] contact arrow shaft and head sizes. */
export const CONTACT_ARROW_SHAFT_DIAMETER = 0.01;
export const CONTACT_ARROW_HEAD_LENGTH = 0.03;
export const CONTACT_ARROW_HEAD_DIAMETER = 0.025;
/**
 * Length below which a vector built from unit vectors counts as zero: |a × n| for a wheel axis a
 * parallel to the contact normal n (no rolling direction), or the unnormalised half-way
 * quaternion of an arrow whose normal is −x (no unique shortest rotation).
 */
export const PARALLEL_EPSILON = 1e-9;
/** Largest terrain grid (vertices per side) sent to Foxglove; larger maps are subsampled. */
export const FOXGLOVE_TERRAIN_MAX_VERTICES = 128;

function round(x: number, decimals: number): number {
  const s = 10 ** decimals;
  const r = Math.round(x * s) / s;
  return r === 0 ? 0 : r; // no -0 in JSON output
}
const rp = (x: number): number => round(x, FOXGLOVE_POSITION_DECIMALS);
const ru = (x: number): number => round(x, FOXGLOVE_UNIT_DECIMALS);

export interface FoxgloveTime {
  sec: number;
  nsec: number;
}

export function timeFromNs(ns: bigint): FoxgloveTime {
  return { sec: Number(ns / 1_000_000_000n), nsec: Number(ns % 1_000_000_000n) };
}

interface Color {
  r: number;
  g: number;
  b: number;
  a: number;
}
const IDENTITY_POSE = { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } };
const BODY_COLOR: Color = { r: 0.55, g: 0.6, b: 0.7, a: 0.85 };
const WHEEL_COLOR: Color = { r: 0.15, g: 0.15, b: 0.15, a: 0.9 };
const TERRAIN_COLOR: Color = { r: 0.55, g: 0.5, b: 0.4, a: 1 };
/** Contact arrow colour by contactInfo kind: wheel cases 0–4, convex–terrain 8, body pair 9. */
function kindColor(kind: number): Color {
  switch (kind) {
    case 0:
      return { r: 0.2, g: 0.8, b: 0.2, a: 1 }; // flat patch
    case 1:
      return { r: 0.2, g: 0.5, b: 1, a: 1 }; // case A
    case 2:
      return { r: 1, g: 0.8, b: 0.1, a: 1 }; // case B
    case 3:
      return { r: 1, g: 0.3, b: 0.2, a: 1 }; // case C
    case 4:
      return { r: 0.8, g: 0.3, b: 1, a: 1 }; // edge/vertex pass
    case CONTACT_KIND_CONVEX_TERRAIN:
      return { r: 0, g: 0.9, b: 0.9, a: 1 };
    case CONTACT_KIND_BODY_PAIR:
      return { r: 1, g: 0.5, b: 0, a: 1 };
    default:
      return { r: 1, g: 1, b: 1, a: 1 };
  }
}

function emptyEntity(id: string, frameId: string, t: FoxgloveTime, frameLocked: boolean) {
  return {
    timestamp: t,
    frame_id: frameId,
    id,
    lifetime: { sec: 0, nsec: 0 },
    frame_locked: frameLocked,
    metadata: [] as { key: string; value: string }[],
    arrows: [] as unknown[],
    cubes: [] as unknown[],
    spheres: [] as unknown[],
    cylinders: [] as unknown[],
    lines: [] as unknown[],
    triangles: [] as unknown[],
    texts: [] as unknown[],
    models: [] as unknown[],
  };
}

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/**
 * x rounded to `decimals` places (≤ 9) as JSON text, the same number `round(x, decimals)` gives
 * (the decimal n/10^d parses to the double nearest it, as the division rounds to). Built from two
 * integers: a float's shortest decimal form costs several times more, and these messages carry
 * hundreds of numbers 30 times a second. Non-finite: null, as JSON.stringify writes it.
 */
function fixed(x: number, decimals: number): string {
  const s = POWERS_OF_TEN[decimals];
  const n = Math.round(x * s);
  if (!Number.isFinite(n)) return 'null';
  if (n === 0) return '0';
  const a = n < 0 ? -n : n;
  if (a > Number.MAX_SAFE_INTEGER) return String(round(x, decimals));
  const ip = Math.floor(a / s);
  let frac = String(a - ip * s);
  while (frac.length < decimals) frac = '0' + frac;
  return `${n < 0 ? '-' : ''}${ip}.${frac}`;
}
const fp = (x: number): string => fixed(x, FOXGLOVE_POSITION_DECIMALS);
const fu = (x: number): string => fixed(x, FOXGLOVE_UNIT_DECIMALS);

function timeJson(t: FoxgloveTime): string {
  return `{"sec":${t.sec},"nsec":${t.nsec}}`;
}

/**
 * foxglove.FrameTransforms as JSON text: parent "world", child = body name, for every body, or
 * (with `mask`) for the bodies b with mask[b] === want. `names` are the bodies' names as JSON
 * strings (quoted once per recording). Written as text, not objects: at 30 Hz with a hundred
 * bodies the object graph and its garbage cost more than the rest of the message.
 */
export function frameTransformsJson(frame: FrameData, names: readonly string[], t: FoxgloveTime, mask: Uint8Array | null = null, want = 1): string {
  const ts = timeJson(t);
  const p = frame.poses;
  let out = '{"transforms":[';
  let first = true;
  for (let b = 0; b < frame.bodyCount; b++) {
    if (mask !== null && mask[b] !== want) continue;
    const o = b * POSE_STRIDE;
    out += `${first ? '' : ','}{"timestamp":${ts},"parent_frame_id":"world","child_frame_id":${names[b] ?? `"body${b}"`},"translation":{"x":${fp(p[o])},"y":${fp(p[o + 1])},"z":${fp(p[o + 2])}},"rotation":{"x":${fu(p[o + 3])},"y":${fu(p[o + 4])},"z":${fu(p[o + 5])},"w":${fu(p[o + 6])}}}`;
    first = false;
  }
  return out + ']}';
}

/** Body names as JSON strings, for frameTransformsJson. */
export function quotedNames(bodies: readonly RecordedBody[]): string[] {
  return bodies.map((b) => JSON.stringify(b.name));
}

type Pose = { position: { x: number; y: number; z: number }; orientation: { x: number; y: number; z: number; w: number } };

function pose(position: readonly number[] | undefined, orientation: readonly number[] | undefined): Pose {
  const p = position ?? [0, 0, 0];
  const q = orientation ?? [0, 0, 0, 1];
  return { position: { x: p[0], y: p[1], z: p[2] }, orientation: { x: q[0], y: q[1], z: q[2], w: q[3] } };
}

/** Adds the primitives of one convex shape (in the body frame at `at`) to an entity. */
function addConvex(e: ReturnType<typeof emptyEntity>, s: ConvexShapeSpec, at: Pose, color: Color): void {
  switch (s.type) {
    case 'sphere':
      e.spheres.push({ pose: at, size: { x: 2 * s.radius, y: 2 * s.radius, z: 2 * s.radius }, color });
      return;
    case 'box':
      e.cubes.push({ pose: at, size: { x: 2 * s.halfExtents[0], y: 2 * s.halfExtents[1], z: 2 * s.halfExtents[2] }, color });
      return;
    case 'cylinder':
      // Foxglove's cylinder is along its local z, like ours.
      e.cylinders.push({ pose: at, size: { x: 2 * s.radius, y: 2 * s.radius, z: s.height }, bottom_scale: 1, top_scale: 1, color });
      return;
    case 'capsule': {
      e.cylinders.push({ pose: at, size: { x: 2 * s.radius, y: 2 * s.radius, z: s.height }, bottom_scale: 1, top_scale: 1, color });
      // End spheres at ±height/2 along the local z (rotated by the child orientation).
      const q = at.orientation;
      for (const sgn of [-1, 1]) {
        const h = (sgn * s.height) / 2;
        // z axis of q: (2(xz + wy), 2(yz − wx), 1 − 2(x² + y²))
        const zx = 2 * (q.x * q.z + q.w * q.y);
        const zy = 2 * (q.y * q.z - q.w * q.x);
        const zz = 1 - 2 * (q.x * q.x + q.y * q.y);
        const c = { x: at.position.x + h * zx, y: at.position.y + h * zy, z: at.position.z + h * zz };
        e.spheres.push({ pose: { position: c, orientation: q }, size: { x: 2 * s.radius, y: 2 * s.radius, z: 2 * s.radius }, color });
      }
      return;
    }
    case 'hull': {
      // Drawn as its axis-aligned bounding box in the body frame (Foxglove has no hull primitive).
      const lo = [Infinity, Infinity, Infinity];
      const hi = [-Infinity, -Infinity, -Infinity];
      for (const p of s.points) for (let k = 0; k < 3; k++) (lo[k] = Math.min(lo[k], p[k])), (hi[k] = Math.max(hi[k], p[k]));
      if (!Number.isFinite(lo[0])) return;
      const c = { x: (lo[0] + hi[0]) / 2, y: (lo[1] + hi[1]) / 2, z: (lo[2] + hi[2]) / 2 };
      e.cubes.push({ pose: { position: { x: at.position.x + c.x, y: at.position.y + c.y, z: at.position.z + c.z }, orientation: at.orientation }, size: { x: hi[0] - lo[0], y: hi[1] - lo[1], z: hi[2] - lo[2] }, color });
      return;
    }
  }
}

/**
 * The static scene (`/terrawheel/scene`, sent once): the terrain as a triangle list (subsampled
 * to at most FOXGLOVE_TERRAIN_MAX_VERTICES per side) and one entity per body, locked to the
 * body's frame (moved by `/terrawheel/tf`).
 */
export function staticScene(bodies: readonly RecordedBody[], wheels: readonly number[], terrain: InlineTerrainSpec | undefined, t: FoxgloveTime) {
  const entities = [];
  if (terrain) entities.push(terrainEntity(terrain, t));
  bodies.forEach((b, i) => {
    const e = emptyEntity(`body/${b.name}`, b.name, t, true);
    const color = wheels.includes(i) ? WHEEL_COLOR : BODY_COLOR;
    if (b.shape.type === 'compound') {
      for (const c of b.shape.children) addConvex(e, c.shape, pose(c.position, c.orientation), color);
    } else addConvex(e, b.shape, IDENTITY_POSE, color);
    entities.push(e);
  });
  return { deletions: [], entities };
}

function terrainEntity(tr: InlineTerrainSpec, t: FoxgloveTime) {
  const e = emptyEntity('terrain', 'world', t, false);
  const stepI = Math.max(1, Math.ceil((tr.cols - 1) / (FOXGLOVE_TERRAIN_MAX_VERTICES - 1)));
  const stepJ = Math.max(1, Math.ceil((tr.rows - 1) / (FOXGLOVE_TERRAIN_MAX_VERTICES - 1)));
  const is: number[] = [];
  const js: number[] = [];
  for (let i = 0; i < tr.cols; i += stepI) is.push(i);
  if (is[is.length - 1] !== tr.cols - 1) is.push(tr.cols - 1);
  for (let j = 0; j < tr.rows; j += stepJ) js.push(j);
  if (js[js.length - 1] !== tr.rows - 1) js.push(tr.rows - 1);
  const x0 = tr.x0 ?? 0;
  const y0 = tr.y0 ?? 0;
  const points = [];
  for (const j of js) for (const i of is) points.push({ x: rp(x0 + i * tr.dx), y: rp(y0 + j * tr.dy), z: rp(tr.heights[j * tr.cols + i]) });
  const indices: number[] = [];
  const n = is.length;
  for (let b = 0; b + 1 < js.length; b++) {
    for (let a = 0; a + 1 < n; a++) {
      const v00 = b * n + a;
      const v10 = v00 + 1;
      const v01 = v00 + n;
      const v11 = v01 + 1;
      indices.push(v00, v10, v11, v00, v11, v01);
    }
  }
  e.triangles.push({ pose: IDENTITY_POSE, points, color: TERRAIN_COLOR, colors: [], indices });
  return e;
}

/** A subset of a frame's contacts: the blocks (contacts with bodyA = b) of the bodies b with mask[b] === want. */
export interface ContactSelection {
  /** Block starts (frame-delta.ts contactBlocks). */
  start: Int32Array;
  mask: Uint8Array;
  want: number;
}

/** The fixed part of an arrow after its shaft length, by contactInfo kind (sizes and colour). */
const arrowTails = new Map<number, string>();
function arrowTail(kind: number): string {
  let tail = arrowTails.get(kind);
  if (tail === undefined) {
    const c = kindColor(kind);
    tail = `,"shaft_diameter":${CONTACT_ARROW_SHAFT_DIAMETER},"head_length":${CONTACT_ARROW_HEAD_LENGTH},"head_diameter":${CONTACT_ARROW_HEAD_DIAMETER},"color":{"r":${c.r},"g":${c.g},"b":${c.b},"a":${c.a}}}`;
    arrowTails.set(kind, tail);
  }
  return tail;
}

/**
 * Contact arrows as foxglove.SceneUpdate JSON text: one entity `id` in the world frame, replaced
 * by every message on its topic (`/terrawheel/contacts`: entity "contacts";
 * `/terrawheel/contacts_resting`: "contacts_resting"), holding all contacts or (with `select`)
 * the selected blocks. Each arrow starts at the contact point and points along the normal
 * (Foxglove's arrow points along its pose's +x: the orientation is the shortest rotation from +x
 * to n).
 */
export function contactSceneJson(frame: FrameData, t: FoxgloveTime, select: ContactSelection | null = null, id = 'contacts'): string {
  let arrows = '';
  const bodies = select === null ? 1 : frame.bodyCount;
  for (let b = 0; b < bodies; b++) {
    if (select !== null && select.mask[b] !== select.want) continue;
    const from = select === null ? 0 : select.start[b];
    const to = select === null ? frame.contactCount : select.start[b + 1];
    arrows = addArrows(arrows, frame, from, to);
  }
  return `{"deletions":[],"entities":[{"timestamp":${timeJson(t)},"frame_id":"world","id":${JSON.stringify(id)},"lifetime":{"sec":0,"nsec":0},"frame_locked":false,"metadata":[],"arrows":[${arrows}],"cubes":[],"spheres":[],"cylinders":[],"lines":[],"triangles":[],"texts":[],"models":[]}]}`;
}

function addArrows(out: string, frame: FrameData, from: number, to: number): string {
  const c = frame.contacts;
  for (let k = from; k < to; k++) {
    const o = k * CONTACT_STRIDE;
    const nx = c[o + 3];
    const ny = c[o + 4];
    const nz = c[o + 5];
    // q = normalize(1 + (x · n), x × n) with x = (1, 0, 0): axis (0, −nz, ny), w = 1 + nx.
    let qx = 0;
    let qy = -nz;
    let qz = ny;
    let qw = 1 + nx;
    let len = Math.hypot(qx, qy, qz, qw);
    if (!(len > PARALLEL_EPSILON)) {
      // n ≈ −x: any half turn about an axis ⟂ x.
      qx = 0;
      qy = 0;
      qz = 1;
      qw = 0;
      len = 1;
    }
    const depth = c[o + 6];
    const kind = frame.contactInfo[k * CONTACT_INFO_STRIDE];
    out += `${out.length > 0 ? ',' : ''}{"pose":{"position":{"x":${fp(c[o])},"y":${fp(c[o + 1])},"z":${fp(c[o + 2])}},"orientation":{"x":${fu(qx / len)},"y":${fu(qy / len)},"z":${fu(qz / len)},"w":${fu(qw / len)}}},"shaft_length":${fp(CONTACT_ARROW_LENGTH + CONTACT_ARROW_DEPTH_GAIN * depth)}${arrowTail(kind)}`;
  }
  return out;
}

/** Per-wheel numbers of one frame (also the CSV export's columns). */
export interface WheelStats {
  /** Contacts that touch the wheel. */
  count: number;
  /** [m] deepest of them (0 without contact). */
  maxDepth: number;
  /** [N] Σ normalImpulse / dt. */
  normalForce: number;
  /**
   * Longitudinal slip ratio (ω·r − v)/max(|ω·r|, |v|, SLIP_SPEED_FLOOR): 0 rolling, > 0 spinning,
   * < 0 skidding; v = wheel-centre speed along a × n (a = wheel axis, n = mean contact normal).
   * 0 without contact.
   */
  slip: number;
}

/** A new, zeroed per-wheel statistics record (allocates; reuse it with `wheelStatsInto`). */
export function makeWheelStats(): WheelStats {
  return { count: 0, maxDepth: 0, normalForce: 0, slip: 0 };
}

/**
 * Fills `out` for wheel body `body` (a cylinder of `radius` about its local z, centred on the
 * body origin). Contacts count where the wheel is bodyA (normal into the wheel) or bodyB (normal
 * flipped). Returns `out`.
 */
export function wheelStatsInto(out: WheelStats, frame: FrameData, body: number, radius: number, dt: number): WheelStats {
  out.count = 0;
  out.maxDepth = 0;
  out.normalForce = 0;
  out.slip = 0;
  if (body < 0 || body >= frame.bodyCount) return out;
  let nx = 0;
  let ny = 0;
  let nz = 0;
  let impulse = 0;
  for (let k = 0; k < frame.contactCount; k++) {
    const ik = k * CONTACT_INFO_STRIDE;
    const a = frame.contactInfo[ik + 1];
    const b = frame.contactInfo[ik + 2];
    if (a !== body && b !== body) continue;
    const o = k * CONTACT_STRIDE;
    const s = a === body ? 1 : -1;
    out.count++;
    out.maxDepth = Math.max(out.maxDepth, frame.contacts[o + 6]);
    impulse += frame.contacts[o + 7];
    nx += s * frame.contacts[o + 3];
    ny += s * frame.contacts[o + 4];
    nz += s * frame.contacts[o + 5];
  }
  if (out.count === 0) return out;
  out.normalForce = dt > 0 ? impulse / dt : 0;
  const p = body * POSE_STRIDE;
  const qx = frame.poses[p + 3];
  const qy = frame.poses[p + 4];
  const qz = frame.poses[p + 5];
  const qw = frame.poses[p + 6];
  // Wheel axis a = R(q)·ez.
  const ax = 2 * (qx * qz + qw * qy);
  const ay = 2 * (qy * qz - qw * qx);
  const az = 1 - 2 * (qx * qx + qy * qy);
  // Rolling direction f = a × n (rolling without slip: v = ω × (r n) = r ω_a (a × n)).
  let fx = ay * nz - az * ny;
  let fy = az * nx - ax * nz;
  let fz = ax * ny - ay * nx;
  const fl = Math.hypot(fx, fy, fz);
  if (!(fl > PARALLEL_EPSILON)) return out; // wheel lying on its base: no rolling direction
  fx /= fl;
  fy /= fl;
  fz /= fl;
  const v = body * VELOCITY_STRIDE;
  const vel = frame.velocities;
  const vFwd = vel[v] * fx + vel[v + 1] * fy + vel[v + 2] * fz;
  const omegaR = (vel[v + 3] * ax + vel[v + 4] * ay + vel[v + 5] * az) * radius;
  const den = Math.max(Math.abs(omegaR), Math.abs(vFwd), SLIP_SPEED_FLOOR);
  const slip = (omegaR - vFwd) / den;
  out.slip = Number.isFinite(slip) ? slip : 0;
  return out;
}

/** Radius of a wheel body's shape (a cylinder, or the first cylinder of a compound), else 0. */
export function wheelRadius(shape: ShapeSpec): number {
  if (shape.type === 'cylinder') return shape.radius;
  if (shape.type === 'compound') for (const c of shape.children) if (c.shape.type === 'cylinder') return c.shape.radius;
  if (shape.type === 'sphere') return shape.radius;
  return 0;
}

/** `/terrawheel/wheels` message: one entry per wheel, for Foxglove's Plot panel. */
export function wheelsMessage(frame: FrameData, bodies: readonly RecordedBody[], wheels: readonly number[], radii: readonly number[], dt: number, t: FoxgloveTime, scratch: WheelStats) {
  const list = [];
  for (let w = 0; w < wheels.length; w++) {
    const s = wheelStatsInto(scratch, frame, wheels[w], radii[w], dt);
    list.push({
      name: bodies[wheels[w]]?.name ?? `body${wheels[w]}`,
      body: wheels[w],
      contacts: s.count,
      depth: round(s.maxDepth, 7),
      normal_force: round(s.normalForce, 3),
      slip: round(s.slip, 5),
    });
  }
  return { timestamp: t, step: frame.step, wheels: list };
}

/** JSON schema of `/terrawheel/wheels` (terrawheel.Wheels). */
export const WHEELS_JSON_SCHEMA = {
  title: 'terrawheel.Wheels',
  description: 'Per-wheel contact numbers of one sim step (depth [m], normal force [N], longitudinal slip ratio)',
  type: 'object',
  properties: {
    timestamp: { type: 'object', properties: { sec: { type: 'integer', minimum: 0 }, nsec: { type: 'integer', minimum: 0, maximum: 999999999 } } },
    step: { type: 'integer', minimum: 0 },
    wheels: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          body: { type: 'integer', minimum: 0 },
          contacts: { type: 'integer', minimum: 0 },
          depth: { type: 'number', description: 'deepest contact [m]' },
          normal_force: { type: 'number', description: 'sum of normal impulses / dt [N]' },
          slip: { type: 'number', description: '(ω·r − v)/max(|ω·r|, |v|, 0.05 m/s)' },
        },
        required: ['name', 'body', 'contacts', 'depth', 'normal_force', 'slip'],
      },
    },
  },
  required: ['timestamp', 'step', 'wheels'],
} as const;

/** JSON schema of `/terrawheel/input` (terrawheel.Input). */
export const INPUT_JSON_SCHEMA = {
  title: 'terrawheel.Input',
  description: 'A drive command, applied from this step on',
  type: 'object',
  properties: {
    step: { type: 'integer', minimum: 0 },
    throttle: { type: 'number', minimum: -1, maximum: 1 },
    steer: { type: 'number', minimum: -1, maximum: 1 },
  },
  required: ['step', 'throttle', 'steer'],
} as const;

/** JSON schema of `/terrawheel/joint_input` (terrawheel.JointInput). */
export const JOINT_INPUT_JSON_SCHEMA = {
  title: 'terrawheel.JointInput',
  description: 'A joint motor\'s target velocity (rad/s, or m/s for a prismatic joint), applied from this step on',
  type: 'object',
  properties: {
    step: { type: 'integer', minimum: 0 },
    joint: { type: 'string', minLength: 1 },
    velocity: { type: 'number' },
  },
  required: ['step', 'joint', 'velocity'],
} as const;

/** JSON schema of `/terrawheel/event` (terrawheel.Event). */
export const EVENT_JSON_SCHEMA = {
  title: 'terrawheel.Event',
  description: 'Something that happened at a step (a fault, a note)',
  type: 'object',
  properties: {
    step: { type: 'integer', minimum: 0 },
    kind: { type: 'string' },
    message: { type: 'string' },
    body: { type: 'integer' },
  },
  required: ['step', 'kind', 'message'],
} as const;
