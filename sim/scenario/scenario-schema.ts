/**
 * The valibot schema of a scenario file, format version 2, and the helpers that give every
 * rejection a message of the form `<json path>: <what is wrong>, got <short description>`.
 *
 * Every leaf is a `v.custom` check with its own message (range, unit, shape), every object is a
 * strict object (an unknown field names the allowed ones), every union is a `v.variant` on its
 * "type" (or "shape") field. Messages describe bad values through describeValue: type, size
 * and a short excerpt, never the serialised value. Cross-field rules (unique names, references,
 * mass or density, sorted script) are checked after the schema, in sim/scenario/scenario-v2.ts.
 *
 * Ranges are plausibility bounds, not physics limits: they catch unit mistakes (millimetres
 * for metres, grams for kilograms) and garbage, and leave every real scene inside.
 */
import * as v from 'valibot';
import { MIN_DIRECTION_NORM } from '../constants';
import { describeValue, excerpt } from './scenario-guard';
import { MAX_DT, MAX_SCRIPT_COMMANDS, MIN_DT } from './scenario-v1';

// --- limits (units in the names' comments) ---------------------------------------------------

/** [m] Largest |coordinate| of a position, anchor, start or terrain region point. */
export const MAX_COORDINATE = 1e6;
/** [m] Sizes (radius, height, half extent) are > 0 and below this. */
export const MAX_SIZE = 1e4;
/** [kg] Masses are > 0 and below this. */
export const MAX_MASS = 1e7;
/** [kg/m³] Densities are > 0 and below this (osmium is 22,590). */
export const MAX_DENSITY = 1e5;
/** [kg·m²] Largest |inertia tensor component|. */
export const MAX_INERTIA = 1e9;
/** [m/s] and [rad/s] largest |component| of a start velocity or motor target. */
export const MAX_SPEED = 1e4;
/** [m/s²] largest |gravity component|. */
export const MAX_GRAVITY = 1e3;
/** Solver substeps per step. */
export const MIN_SUBSTEPS = 1;
export const MAX_SUBSTEPS = 64;
/** Coulomb friction coefficient range. */
export const MAX_FRICTION = 10;
/** Rolling resistance coefficient range (dimensionless). */
export const MAX_ROLLING_RESISTANCE = 1;
/** [N·m] or [N] largest motor effort; [N/m] or [N·m/rad] largest spring stiffness or damping. */
export const MAX_EFFORT = 1e7;
export const MAX_STIFFNESS = 1e9;
/** |‖q‖ − 1| up to this is normalised silently; more is an error (a typo, not rounding). */
export const QUATERNION_NORM_TOLERANCE = 1e-3;
/** A vector or quaternion shorter than this is "zero" (no direction): the engine's one constant. */
export { MIN_DIRECTION_NORM };
/** Longest name (body, joint, robot, scenario) in characters. */
export const MAX_NAME_CHARS = 100;
/** Longest path (terrain sidecar, URDF) in characters. */
export const MAX_PATH_CHARS = 1024;
/** Longest description in characters. */
export const MAX_DESCRIPTION_CHARS = 4000;
/** Most bodies, joints, materials, regions, hull points, compound children, polygon points. */
export const MAX_BODIES = 100_000;
export const MAX_JOINTS = 100_000;
export const MAX_MATERIALS = 256;
export const MAX_REGIONS = 4096;
export const MAX_HULL_POINTS = 1024;
export const MAX_COMPOUND_CHILDREN = 256;
export const MAX_POLYGON_POINTS = 4096;
/** Most joints named by one side of a drive controller. */
export const MAX_DRIVEN_JOINTS = 64;
/** Inline terrain: vertices per side, and [m] largest |height|. */
export const MAX_TERRAIN_VERTICES_PER_SIDE = 100_000;
export const MAX_TERRAIN_HEIGHT = 1e4;
/** Material names: an identifier (letters, digits, _ and -), not a name Object.prototype has. */
const MATERIAL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

// --- leaf checks ------------------------------------------------------------------------------

type Msg = (issue: v.BaseIssue<unknown>) => string;

function got(what: string): Msg {
  return (issue) => `${what}, got ${describeValue(issue.input)}`;
}

function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

interface Range {
  lo: number;
  hi: number;
  /** Open (exclusive) lower / upper bound. */
  loOpen?: boolean;
  hiOpen?: boolean;
  unit?: string;
  integer?: boolean;
}

function inRange(x: unknown, r: Range): x is number {
  if (!isFiniteNumber(x)) return false;
  if (r.integer && !Number.isInteger(x)) return false;
  if (r.loOpen ? x <= r.lo : x < r.lo) return false;
  if (r.hiOpen ? x >= r.hi : x > r.hi) return false;
  return true;
}

function rangeText(r: Range): string {
  const kind = r.integer ? 'an integer' : 'a number';
  return `${kind} in ${r.loOpen ? '(' : '['}${r.lo}, ${r.hi}${r.hiOpen ? ')' : ']'}${r.unit ? ` ${r.unit}` : ''}`;
}

/** A finite number in a range. */
export function num(r: Range) {
  return v.custom<number>((x) => inRange(x, r), got(`must be ${rangeText(r)}`));
}

const COORD: Range = { lo: -MAX_COORDINATE, hi: MAX_COORDINATE, loOpen: true, hiOpen: true, unit: 'm' };
const SIZE: Range = { lo: 0, hi: MAX_SIZE, loOpen: true, hiOpen: true, unit: 'm' };
const MASS: Range = { lo: 0, hi: MAX_MASS, loOpen: true, hiOpen: true, unit: 'kg' };

/** Describes the first bad item of an array that should be `n` numbers in `r`. */
function tupleMessage(names: string, n: number, r: Range): Msg {
  return (issue) => {
    const x = issue.input;
    const head = `must be [${names}], each ${rangeText(r)}`;
    if (!Array.isArray(x)) return `${head}, got ${describeValue(x)}`;
    if (x.length !== n) return `${head}, got ${describeValue(x)}`;
    for (let k = 0; k < n; k++) if (!inRange(x[k], r)) return `${head}; item ${k} is ${describeValue(x[k])}`;
    return `${head}, got ${describeValue(x)}`;
  };
}

function tupleOk(x: unknown, n: number, r: Range): boolean {
  if (!Array.isArray(x) || x.length !== n) return false;
  for (let k = 0; k < n; k++) if (!inRange(x[k], r)) return false;
  return true;
}

// Tuples are copied, so the parsed world shares no arrays with the caller's object.

export function vec3(r: Range = COORD) {
  return v.pipe(
    v.custom<[number, number, number]>((x) => tupleOk(x, 3, r), tupleMessage('x, y, z', 3, r)),
    v.transform((a): [number, number, number] => [a[0], a[1], a[2]]),
  );
}

export function vec2(r: Range = COORD) {
  return v.pipe(
    v.custom<[number, number]>((x) => tupleOk(x, 2, r), tupleMessage('x, y', 2, r)),
    v.transform((a): [number, number] => [a[0], a[1]]),
  );
}

function norm(a: readonly number[]): number {
  let s = 0;
  for (const c of a) s += c * c;
  return Math.sqrt(s);
}

/**
 * A unit quaternion [x, y, z, w]: a zero quaternion is rejected, one within
 * QUATERNION_NORM_TOLERANCE of unit length is normalised, anything further is rejected.
 */
export function quaternion() {
  const r: Range = { lo: -2, hi: 2 };
  const shape = tupleMessage('x, y, z, w', 4, r);
  return v.pipe(
    v.custom<[number, number, number, number]>(
      (x) => tupleOk(x, 4, r) && Math.abs(norm(x as number[]) - 1) <= QUATERNION_NORM_TOLERANCE,
      (issue) => {
        const x = issue.input;
        if (!tupleOk(x, 4, r)) return shape(issue);
        const n = norm(x as number[]);
        if (n < MIN_DIRECTION_NORM) return 'must be a unit quaternion [x, y, z, w]; got the zero quaternion';
        return `must be a unit quaternion [x, y, z, w] (norm 1 ± ${QUATERNION_NORM_TOLERANCE}); its norm is ${n}`;
      },
    ),
    v.transform((q): [number, number, number, number] => {
      const n = norm(q);
      return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
    }),
  );
}

/** A non-zero direction, normalised. */
export function direction() {
  const r: Range = { lo: -MAX_COORDINATE, hi: MAX_COORDINATE, loOpen: true, hiOpen: true };
  const shape = tupleMessage('x, y, z', 3, r);
  return v.pipe(
    v.custom<[number, number, number]>(
      (x) => tupleOk(x, 3, r) && norm(x as number[]) >= MIN_DIRECTION_NORM,
      (issue) => (tupleOk(issue.input, 3, r) ? 'must be a non-zero direction [x, y, z]; got the zero vector' : shape(issue)),
    ),
    v.transform((a): [number, number, number] => {
      const n = norm(a);
      return [a[0] / n, a[1] / n, a[2] / n];
    }),
  );
}

/** A [lo, hi] interval with lo ≤ hi. */
function interval(r: Range) {
  return v.pipe(
    v.custom<[number, number]>(
      (x) => tupleOk(x, 2, r) && (x as number[])[0] <= (x as number[])[1],
      (issue) => (tupleOk(issue.input, 2, r) ? 'must be [lower, upper] with lower ≤ upper' : tupleMessage('lower, upper', 2, r)(issue)),
    ),
    v.transform((a): [number, number] => [a[0], a[1]]),
  );
}

function hasControlChars(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** A string of 1..max characters without control characters. */
export function text(max: number, what = 'a string') {
  return v.custom<string>(
    (x) => typeof x === 'string' && x.length > 0 && x.length <= max && !hasControlChars(x),
    got(`must be ${what} of 1 to ${max} characters without control characters`),
  );
}

export function isMaterialName(x: unknown): x is string {
  return typeof x === 'string' && MATERIAL_NAME.test(x) && !(x in Object.prototype);
}

const MATERIAL_NAME_TEXT = 'a material name (a letter or _, then letters, digits, _ or -; at most 64 characters)';

export function materialName() {
  return v.custom<string>(isMaterialName, got(`must be ${MATERIAL_NAME_TEXT}`));
}

const boolean = () => v.custom<boolean>((x) => typeof x === 'boolean', got('must be true or false'));

function literal<T extends string>(value: T, hint = '') {
  return v.custom<T>((x) => x === value, got(`must be "${value}"${hint}`));
}

function picklist<T extends string>(values: readonly T[]) {
  return v.custom<T>((x) => typeof x === 'string' && (values as readonly string[]).includes(x), got(`must be one of ${values.map((s) => `"${s}"`).join(', ')}`));
}

// --- containers -------------------------------------------------------------------------------

/** A strict object whose missing, unknown (naming the allowed ones) and mistyped fields each get their own message. */
export function strict<E extends v.ObjectEntries>(entries: E) {
  const allowed = Object.keys(entries).join(', ');
  return v.strictObject(entries, (issue) => {
    if (issue.expected === 'never') return `unknown field ${excerpt(typeof issue.input === 'string' ? issue.input : '?', 40)}; allowed: ${allowed}`;
    if (issue.input === undefined && typeof issue.expected === 'string' && issue.expected.startsWith('"')) return `missing field ${issue.expected}`;
    return `must be an object with fields ${allowed}, got ${describeValue(issue.input)}`;
  });
}

/**
 * `strict`, with arrays refused up front (valibot takes an array for an object with no required
 * fields). Variant options use `strict` directly: the variant needs their entries, and it
 * refuses arrays through its discriminator.
 */
export function obj<E extends v.ObjectEntries>(entries: E) {
  const allowed = Object.keys(entries).join(', ');
  return v.pipe(
    v.custom<v.InferInput<v.StrictObjectSchema<E, undefined>>>(
      (x) => typeof x === 'object' && x !== null && !Array.isArray(x),
      got(`must be an object with fields ${allowed}`),
    ),
    strict(entries),
  );
}

/** An array of at most `max` (and at least `min`) items, each checked by `item`. */
export function list<T extends v.GenericSchema>(item: T, max: number, min = 0, what = 'items') {
  return v.pipe(
    v.custom<unknown[]>(
      (x) => Array.isArray(x) && x.length >= min && x.length <= max,
      got(`must be an array of ${min > 0 ? `${min} to ${max}` : `at most ${max}`} ${what}`),
    ),
    v.array(item),
  );
}

/** A variant on `key` whose options are listed in the message. */
function variantOf<K extends string, O extends v.VariantOptions<K>>(key: K, names: readonly string[], options: O) {
  const list = names.map((s) => `"${s}"`).join(', ');
  return v.variant(key, options, (issue) =>
    issue.expected === 'Object'
      ? `must be an object whose "${key}" is one of ${list}, got ${describeValue(issue.input)}`
      : `must be one of ${list}, got ${describeValue(issue.input)}`,
  );
}

// --- shapes -----------------------------------------------------------------------------------

const size = () => num(SIZE);
const SHAPE_COORD: Range = { lo: -MAX_SIZE, hi: MAX_SIZE, loOpen: true, hiOpen: true, unit: 'm' };

const convexOptions = [
  strict({ type: literal('sphere'), radius: size() }),
  strict({ type: literal('box'), halfExtents: vec3(SIZE) }),
  strict({ type: literal('capsule'), radius: size(), height: size() }),
  strict({ type: literal('cylinder'), radius: size(), height: size() }),
  strict({ type: literal('hull'), points: list(vec3(SHAPE_COORD), MAX_HULL_POINTS, 4, 'points [x, y, z]') }),
] as const;
const CONVEX_NAMES = ['sphere', 'box', 'capsule', 'cylinder', 'hull'] as const;

export const convexShapeSchema = variantOf('type', CONVEX_NAMES, [...convexOptions]);

export const shapeSchema = variantOf('type', [...CONVEX_NAMES, 'compound'], [
  ...convexOptions,
  strict({
    type: literal('compound'),
    children: list(
      obj({ shape: convexShapeSchema, position: v.optional(vec3(SHAPE_COORD)), orientation: v.optional(quaternion()) }),
      MAX_COMPOUND_CHILDREN,
      1,
      'children { shape, position, orientation }',
    ),
  }),
]);

// --- bodies and joints ------------------------------------------------------------------------

const SPEED: Range = { lo: -MAX_SPEED, hi: MAX_SPEED, loOpen: true, hiOpen: true };

export const bodySchema = obj({
  name: text(MAX_NAME_CHARS, 'a name'),
  shape: shapeSchema,
  type: v.optional(picklist(['dynamic', 'static', 'kinematic'] as const)),
  mass: v.optional(num(MASS)),
  density: v.optional(num({ lo: 0, hi: MAX_DENSITY, loOpen: true, hiOpen: true, unit: 'kg/m³' })),
  inertia: v.optional(
    v.custom<[number, number, number, number, number, number]>(
      (x) => tupleOk(x, 6, { lo: -MAX_INERTIA, hi: MAX_INERTIA }) && (x as number[])[0] > 0 && (x as number[])[1] > 0 && (x as number[])[2] > 0,
      got(`must be [ixx, iyy, izz, ixy, ixz, iyz] in kg·m², diagonal > 0, each |·| ≤ ${MAX_INERTIA}`),
    ),
  ),
  centerOfMass: v.optional(vec3(SHAPE_COORD)),
  position: v.optional(vec3()),
  orientation: v.optional(quaternion()),
  linearVelocity: v.optional(vec3({ ...SPEED, unit: 'm/s' })),
  angularVelocity: v.optional(vec3({ ...SPEED, unit: 'rad/s' })),
  material: v.optional(materialName()),
  ccd: v.optional(boolean()),
});

const jointCommon = {
  name: text(MAX_NAME_CHARS, 'a name'),
  bodyA: v.optional(text(MAX_NAME_CHARS, 'a body name')),
  bodyB: text(MAX_NAME_CHARS, 'a body name'),
  anchor: v.optional(vec3()),
};
const EFFORT: Range = { lo: 0, hi: MAX_EFFORT };
const STIFF: Range = { lo: 0, hi: MAX_STIFFNESS };
const motorSchema = obj({ targetVelocity: num(SPEED), maxTorque: num(EFFORT) });
const springSchema = obj({ stiffness: num(STIFF), damping: num(STIFF), restPosition: v.optional(num({ lo: -MAX_SIZE, hi: MAX_SIZE })) });
const axisJoint = {
  ...jointCommon,
  axis: v.optional(direction()),
  limits: v.optional(interval({ lo: -MAX_SIZE, hi: MAX_SIZE })),
  motor: v.optional(motorSchema),
  spring: v.optional(springSchema),
  damping: v.optional(num(STIFF)),
  friction: v.optional(num(EFFORT)),
  /** URDF <mimic>: this joint's coordinate = multiplier · the named joint's + offset. */
  mimic: v.optional(obj({ joint: text(MAX_NAME_CHARS, 'a joint name'), multiplier: v.optional(num({ lo: -1e3, hi: 1e3 })), offset: v.optional(num({ lo: -MAX_SIZE, hi: MAX_SIZE })) })),
};

export const jointSchema = variantOf('type', ['revolute', 'prismatic', 'fixed', 'ball'], [
  strict({ type: literal('revolute'), ...axisJoint }),
  strict({ type: literal('prismatic'), ...axisJoint }),
  strict({ type: literal('fixed'), ...jointCommon }),
  strict({ type: literal('ball'), ...jointCommon, damping: v.optional(num(STIFF)), friction: v.optional(num(EFFORT)) }),
]);

// --- materials and terrain --------------------------------------------------------------------

export const materialSchema = obj({
  friction: v.optional(num({ lo: 0, hi: MAX_FRICTION })),
  restitution: v.optional(num({ lo: 0, hi: 1 })),
  rollingResistance: v.optional(num({ lo: 0, hi: MAX_ROLLING_RESISTANCE })),
});

/** `{ <name>: material }`: names are checked on the raw keys (valibot's record skips "__proto__"). */
export const materialsSchema = v.pipe(
  v.custom<Record<string, unknown>>(
    (x) => {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
      const keys = Object.keys(x);
      return keys.length <= MAX_MATERIALS && keys.every(isMaterialName);
    },
    (issue) => {
      const x = issue.input;
      if (typeof x !== 'object' || x === null || Array.isArray(x)) return `must be an object { <name>: { friction, restitution, rollingResistance } }, got ${describeValue(x)}`;
      const keys = Object.keys(x);
      if (keys.length > MAX_MATERIALS) return `has ${keys.length} materials; at most ${MAX_MATERIALS}`;
      const bad = keys.find((k) => !isMaterialName(k)) ?? '';
      return `${excerpt(bad, 40)} is not a valid name: must be ${MATERIAL_NAME_TEXT}`;
    },
  ),
  v.record(v.string(), materialSchema),
);

const regionSchema = variantOf('shape', ['rect', 'circle', 'polygon'], [
  strict({
    material: materialName(),
    shape: literal('rect'),
    min: vec2(),
    max: vec2(),
  }),
  strict({ material: materialName(), shape: literal('circle'), center: vec2(), radius: num({ lo: 0, hi: MAX_COORDINATE, loOpen: true, unit: 'm' }) }),
  strict({ material: materialName(), shape: literal('polygon'), points: list(vec2(), MAX_POLYGON_POINTS, 3, 'points [x, y]') }),
]);

export const terrainMaterialsSchema = obj({
  material: v.optional(materialName()),
  regions: v.optional(list(regionSchema, MAX_REGIONS, 0, 'regions')),
});

export const terrainFileSchema = text(MAX_PATH_CHARS, 'the path of a terrain sidecar JSON, relative to the scenario file,');

function heightsOk(x: unknown): boolean {
  if (!Array.isArray(x) && !(x instanceof Float64Array) && !(x instanceof Float32Array)) return false;
  const a = x as ArrayLike<unknown>;
  for (let k = 0; k < a.length; k++) {
    const h = a[k];
    if (typeof h !== 'number' || !Number.isFinite(h) || Math.abs(h) > MAX_TERRAIN_HEIGHT) return false;
  }
  return true;
}

const VERTS: Range = { lo: 2, hi: MAX_TERRAIN_VERTICES_PER_SIDE, integer: true };
export const inlineTerrainSchema = v.pipe(
  obj({
    cols: num(VERTS),
    rows: num(VERTS),
    dx: num(SIZE),
    dy: num(SIZE),
    x0: v.optional(num(COORD)),
    y0: v.optional(num(COORD)),
    heights: v.custom<ArrayLike<number>>(heightsOk, (issue) => {
      const x = issue.input;
      const head = `must be an array (or Float64Array/Float32Array) of finite heights in [−${MAX_TERRAIN_HEIGHT}, ${MAX_TERRAIN_HEIGHT}] m`;
      if (!Array.isArray(x) && !(x instanceof Float64Array) && !(x instanceof Float32Array)) return `${head}, got ${describeValue(x)}`;
      const a = x as ArrayLike<unknown>;
      for (let k = 0; k < a.length; k++) {
        const h = a[k];
        if (typeof h !== 'number' || !Number.isFinite(h) || Math.abs(h) > MAX_TERRAIN_HEIGHT) return `${head}; item ${k} is ${describeValue(h)}`;
      }
      return head;
    }),
  }),
  v.check((t) => t.heights.length === t.cols * t.rows, (issue) => {
    const t = issue.input as { cols: number; rows: number; heights: ArrayLike<number> };
    return `heights has ${t.heights.length} values; cols × rows = ${t.cols} × ${t.rows} = ${t.cols * t.rows}`;
  }),
);

// --- robot ------------------------------------------------------------------------------------

const YAW: Range = { lo: -100, hi: 100, unit: 'rad' };
const pos = (hi: number) => num({ lo: 0, hi, loOpen: true });

/** The built-in four-wheel skid-steer rover: v1's robot fields plus its start pose and masses. */
export const skidSteerRobotSchema = obj({
  type: literal('skid-steer', ' (or give "urdf": the path of a URDF file)'),
  name: v.optional(text(MAX_NAME_CHARS, 'a name')),
  chassisHalfExtents: v.optional(vec3({ lo: 0, hi: 50, loOpen: true, unit: 'm' })),
  wheelRadius: v.optional(pos(10)),
  wheelWidth: v.optional(pos(10)),
  wheelbase: v.optional(pos(100)),
  track: v.optional(pos(100)),
  wheelDrop: v.optional(num({ lo: -10, hi: 10, unit: 'm' })),
  maxSpeed: v.optional(pos(100)),
  maxYawRate: v.optional(pos(50)),
  maxAccel: v.optional(pos(1000)),
  maxYawAccel: v.optional(pos(1000)),
  position: v.optional(vec2()),
  yaw: v.optional(num(YAW)),
  chassisMass: v.optional(num(MASS)),
  wheelMass: v.optional(num(MASS)),
  maxTorque: v.optional(num({ lo: 0, hi: MAX_EFFORT, loOpen: true, unit: 'N·m' })),
  chassisMaterial: v.optional(materialName()),
  wheelMaterial: v.optional(materialName()),
});

const jointNames = () => list(text(MAX_NAME_CHARS, 'a joint name'), MAX_DRIVEN_JOINTS, 1, 'joint names');
export const controllerSchema = variantOf('type', ['skid-steer', 'differential', 'ackermann', 'all-wheel-steer'], [
  strict({
    type: picklist(['skid-steer', 'differential'] as const),
    left: jointNames(),
    right: jointNames(),
    wheelRadius: pos(10),
    track: pos(100),
    maxSpeed: pos(100),
    maxYawRate: v.optional(pos(50)),
    maxAcceleration: v.optional(pos(1000)),
    maxYawAcceleration: v.optional(pos(1000)),
    maxTorque: num({ lo: 0, hi: MAX_EFFORT, loOpen: true, unit: 'N·m' }),
    forwardYaw: v.optional(num({ lo: -2 * Math.PI, hi: 2 * Math.PI, unit: 'rad' })),
  }),
  strict({
    type: literal('ackermann'),
    driveLeft: jointNames(),
    driveRight: jointNames(),
    steerLeft: text(MAX_NAME_CHARS, 'a joint name'),
    steerRight: text(MAX_NAME_CHARS, 'a joint name'),
    wheelRadius: pos(10),
    wheelbase: pos(100),
    track: pos(100),
    maxSpeed: pos(100),
    maxSteer: num({ lo: 0, hi: Math.PI / 2, loOpen: true, hiOpen: true, unit: 'rad' }),
    maxAcceleration: v.optional(pos(1000)),
    maxTorque: num({ lo: 0, hi: MAX_EFFORT, loOpen: true, unit: 'N·m' }),
    forwardYaw: v.optional(num({ lo: -2 * Math.PI, hi: 2 * Math.PI, unit: 'rad' })),
  }),
  strict({
    type: literal('all-wheel-steer'),
    wheels: list(obj({
      drive: text(MAX_NAME_CHARS, 'a joint name'),
      steer: v.optional(text(MAX_NAME_CHARS, 'a joint name')),
      position: v.optional(vec2()),
    }), MAX_DRIVEN_JOINTS, 2, 'wheels { drive, steer?, position? }'),
    wheelRadius: pos(10),
    maxSpeed: pos(100),
    maxYawRate: v.optional(pos(50)),
    maxAcceleration: v.optional(pos(1000)),
    maxYawAcceleration: v.optional(pos(1000)),
    maxSteer: num({ lo: 0, hi: Math.PI / 2, loOpen: true, unit: 'rad' }),
    mode: v.optional(picklist(['turn', 'crab'] as const)),
    maxTorque: num({ lo: 0, hi: MAX_EFFORT, loOpen: true, unit: 'N·m' }),
    forwardYaw: v.optional(num({ lo: -2 * Math.PI, hi: 2 * Math.PI, unit: 'rad' })),
  }),
]);

/** Most joints a scenario's `robot.controller.hold` names. */
export const MAX_HELD_JOINTS = 1000;

/** `{ <joint name>: position }` [rad] or [m]: joints held by position servos. */
export const holdSchema = v.custom<Record<string, number>>(
  (x) => typeof x === 'object' && x !== null && !Array.isArray(x) && Object.keys(x).length <= MAX_HELD_JOINTS
    && Object.entries(x).every(([k, a]) => k.length > 0 && k.length <= MAX_NAME_CHARS && typeof a === 'number' && Number.isFinite(a) && Math.abs(a) <= MAX_SIZE),
  got(`must be an object of joint positions by joint name (finite numbers, rad or m, within ±${MAX_SIZE}; at most ${MAX_HELD_JOINTS} joints)`),
);

/** The drive kinds a scenario can pick by name (parameters inferred from the robot). */
export const CONTROLLER_KINDS = ['skid-steer', 'differential', 'ackermann', 'all-wheel-steer'] as const;

/**
 * `robot.controller` of a URDF robot picking a kind (or none) and holding joints, everything
 * else inferred: `{ "type": "all-wheel-steer", "mode": "crab", "hold": { "mast_joint": 0.2 } }`.
 */
export const controllerChoiceSchema = obj({
  type: v.optional(picklist([...CONTROLLER_KINDS, 'none'] as const)),
  mode: v.optional(picklist(['turn', 'crab'] as const)),
  maxSpeed: v.optional(pos(100)),
  /** [rad] The robot's forward direction in its base frame (ControllerSpec.forwardYaw); default inferred. */
  forwardYaw: v.optional(num({ lo: -2 * Math.PI, hi: 2 * Math.PI, unit: 'rad' })),
  hold: v.optional(holdSchema),
});

/** Most `robot.disableCollisions` pairs and `robot.xacroArgs` entries a scenario may give. */
export const MAX_ROBOT_PAIRS = 10_000;
export const MAX_XACRO_ARGS = 1000;

const xacroArgsSchema = v.custom<Record<string, string | number | boolean>>(
  (x) => typeof x === 'object' && x !== null && !Array.isArray(x) && Object.keys(x).length <= MAX_XACRO_ARGS
    && Object.entries(x).every(([k, a]) => k.length <= MAX_NAME_CHARS && (typeof a === 'string' ? a.length <= MAX_PATH_CHARS : typeof a === 'boolean' || (typeof a === 'number' && Number.isFinite(a)))),
  got(`must be an object of xacro argument values by name (strings, finite numbers or true/false; at most ${MAX_XACRO_ARGS})`),
);

export const urdfRobotSchema = obj({
  urdf: text(MAX_PATH_CHARS, 'the path of a URDF file (or xacro), relative to the scenario file,'),
  position: v.optional(vec2()),
  yaw: v.optional(num(YAW)),
  /**
   * A full controller (controllerSchema, with an optional `hold`), or a choice of kind with
   * `hold` (controllerChoiceSchema): dispatched in scenario-v2.ts by its fields.
   */
  controller: v.optional(v.unknown()),
  /** Values of the xacro file's <xacro:arg>s. */
  xacroArgs: v.optional(xacroArgsSchema),
  /** Links collide with each other (Gazebo's self_collide); default false. */
  selfCollide: v.optional(boolean()),
  /** With selfCollide: link pairs that never collide (SRDF disable_collisions). */
  disableCollisions: v.optional(list(list(text(MAX_NAME_CHARS, 'a link name'), 2, 2, 'two link names'), MAX_ROBOT_PAIRS, 0, 'link pairs [a, b]')),
  /** Merge links on fixed joints into their parent's body (see urdfToRobot). */
  lumpFixedLinks: v.optional(boolean()),
  /** [N·m] Torque cap of the driven joints' motors (replaces the URDF's effort limits). */
  motorTorque: v.optional(num({ lo: 0, hi: MAX_EFFORT, loOpen: true, unit: 'N·m' })),
  /**
   * false: the URDF's visual meshes are neither read nor drawn (links without other visuals show
   * their collision shapes), for robots bundled without them; default true.
   */
  visualMeshes: v.optional(boolean()),
  /**
   * The robot's controller configuration (ros_control YAML): true (default) reads its package's
   * YAML files under config/, a path (relative to the scenario file) reads that one file, false reads
   * none; joints under position controllers are held (sim/robot/urdf/ros-controllers.ts).
   */
  controllerConfig: v.optional(v.custom<boolean | string>(
    (x) => typeof x === 'boolean' || (typeof x === 'string' && x.length > 0 && x.length <= MAX_PATH_CHARS && !hasControlChars(x)),
    got(`must be true, false or the path of a controller YAML file relative to the scenario file (1 to ${MAX_PATH_CHARS} characters)`),
  )),
});

// --- the file ---------------------------------------------------------------------------------

export const scriptSchema = list(
  obj({ t: num({ lo: 0, hi: 1e6, unit: 's' }), throttle: v.optional(num({ lo: -1, hi: 1 })), steer: v.optional(num({ lo: -1, hi: 1 })) }),
  MAX_SCRIPT_COMMANDS,
  0,
  'commands { t, throttle, steer }',
);

// --- the 3D view's starting camera ---------------------------------------------------------------

/** Camera modes a scenario may start in (the app's presets but the wheel one). */
export const SCENARIO_CAMERA_MODES = ['chase', 'orbit', 'top'] as const;
/** [m] Camera distance limits (the app's own zoom limits). */
export const MIN_CAMERA_DISTANCE = 0.5;
export const MAX_CAMERA_DISTANCE = 500;
/** [°] Elevation limits: above the horizon, short of straight down (the view needs a heading). */
export const MIN_CAMERA_ELEVATION = 3;
export const MAX_CAMERA_ELEVATION = 85;

/**
 * `camera`: where the 3D view starts. Either a fixed view (`position` and `target`), or a mode
 * with optional distance, elevation and heading around the robot (or around `target`).
 * Cross-field rules (position needs target; position excludes distance/elevation/heading) are
 * checked in scenario-v2.ts.
 */
export const cameraSchema = obj({
  mode: v.optional(picklist(SCENARIO_CAMERA_MODES)),
  target: v.optional(vec3()),
  position: v.optional(vec3()),
  distance: v.optional(num({ lo: MIN_CAMERA_DISTANCE, hi: MAX_CAMERA_DISTANCE, unit: 'm' })),
  elevation: v.optional(num({ lo: MIN_CAMERA_ELEVATION, hi: MAX_CAMERA_ELEVATION, unit: '°' })),
  heading: v.optional(num({ lo: -360, hi: 360, unit: '°' })),
});

/** The top level of a v2 file; `terrain` and `robot` are dispatched by kind in scenario-v2.ts. */
export const scenarioV2Schema = obj({
  format: literal('terrawheel-scenario'),
  version: v.custom<2>((x) => x === 2, got('must be 2')),
  name: v.optional(text(200, 'a name')),
  description: v.optional(v.custom<string>((x) => typeof x === 'string' && x.length <= MAX_DESCRIPTION_CHARS, got(`must be a string of at most ${MAX_DESCRIPTION_CHARS} characters`))),
  terrain: v.custom<unknown>((x) => x !== undefined, got('must be a terrain sidecar path or an inline terrain { cols, rows, dx, dy, x0, y0, heights }')),
  gravity: v.optional(vec3({ lo: -MAX_GRAVITY, hi: MAX_GRAVITY, unit: 'm/s²' })),
  dt: v.optional(num({ lo: MIN_DT, hi: MAX_DT, unit: 's' })),
  substeps: v.optional(num({ lo: MIN_SUBSTEPS, hi: MAX_SUBSTEPS, integer: true })),
  sleep: v.optional(boolean()),
  ccd: v.optional(boolean()),
  materials: v.optional(materialsSchema),
  terrainMaterials: v.optional(terrainMaterialsSchema),
  bodies: v.optional(list(bodySchema, MAX_BODIES, 0, 'bodies')),
  joints: v.optional(list(jointSchema, MAX_JOINTS, 0, 'joints')),
  robot: v.optional(v.unknown()),
  script: v.optional(scriptSchema),
  camera: v.optional(cameraSchema),
});

export type ScenarioV2Raw = v.InferOutput<typeof scenarioV2Schema>;
export type BodyRaw = v.InferOutput<typeof bodySchema>;
export type JointRaw = v.InferOutput<typeof jointSchema>;
export type SkidSteerRobotRaw = v.InferOutput<typeof skidSteerRobotSchema>;
export type UrdfRobotRaw = v.InferOutput<typeof urdfRobotSchema>;

// --- running a schema -------------------------------------------------------------------------

/** "bodies[3].shape" from a valibot issue path, under `prefix`. */
export function formatPath(prefix: string, issue: v.BaseIssue<unknown>): string {
  let out = prefix;
  const path = issue.path ?? [];
  // A missing or unknown key is reported on the object that holds it.
  const end = path.length > 0 && (path[path.length - 1] as { origin?: string }).origin === 'key' ? path.length - 1 : path.length;
  for (let k = 0; k < end; k++) {
    const key = (path[k] as { key?: unknown }).key;
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string') out += /^[A-Za-z_$][\w$]*$/.test(key) ? `${out === '' ? '' : '.'}${key}` : `[${excerpt(key, 40)}]`;
  }
  return out === '' ? '(top level)' : out;
}

/** Most issues listed in one error message. */
export const MAX_REPORTED_ISSUES = 5;

/** Runs `schema` on `input`; on failure returns the message lines (path: problem), else the output. */
export function runSchema<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  prefix: string,
): { ok: true; value: v.InferOutput<S> } | { ok: false; problems: string[] } {
  const r = v.safeParse(schema, input, { abortPipeEarly: true });
  if (r.success) return { ok: true, value: r.output };
  const problems: string[] = [];
  for (const issue of r.issues) {
    if (problems.length === MAX_REPORTED_ISSUES) {
      problems.push(`… and ${r.issues.length - MAX_REPORTED_ISSUES} more`);
      break;
    }
    problems.push(`${formatPath(prefix, issue)}: ${issue.message}`);
  }
  return { ok: false, problems };
}
