/**
 * URDF text → `UrdfModel` (urdf-model.ts), with fast-xml-parser (workers have no DOMParser).
 *
 * Two passes: the XML is checked for well-formedness first (XMLValidator gives the line and
 * column), then the object tree is read element by element. Every attribute is read through one
 * of the small readers below, which reject NaN, ±∞, hex, empty strings and wrong counts with a
 * message naming the element, the link or joint and what to write instead. The tree structure
 * (one root, no link with two parents, no cycle, no joint naming a missing link) is checked last.
 *
 * The parser never throws anything but `UrdfError`: third-party exceptions are wrapped, and the
 * fuzz test (test/fuzz/urdf-fuzz.test.ts) holds it to that.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { INERTIA_DEGENERATE_RELATIVE, MIN_DIRECTION_NORM } from '../../constants';
import type { Vec3Spec } from '../../dynamics/spec';
import { isXacro } from './xacro-detect';
import { UrdfError, URDF_MAX_ANGLE, URDF_MAX_BYTES, URDF_MAX_GEOMETRIES_PER_LINK, URDF_MAX_LINKS, URDF_MAX_MASS, URDF_MAX_MESH_SCALE, URDF_MAX_OFFSET, URDF_MAX_SIZE } from './urdf-error';
import { URDF_MAX_INERTIA, URDF_MIN_INERTIA, URDF_MIN_MASS, URDF_MIN_SIZE } from './urdf-error';
import type {
  UrdfCollision,
  UrdfGeometry,
  UrdfInertial,
  UrdfCommandInterface,
  UrdfJoint,
  UrdfJointInterface,
  UrdfJointType,
  UrdfLimit,
  UrdfLink,
  UrdfMaterial,
  UrdfModel,
  UrdfPose,
  UrdfVisual,
} from './urdf-model';

/** Element name of TerraWheel's ball-joint marker inside a `<joint type="fixed">`. */
export const URDF_BALL_ELEMENT = 'terrawheel:ball';

/** Triangle inequality Ixx + Iyy ≥ Izz (any permutation) may fail by this fraction before a warning. */
const INERTIA_TRIANGLE_SLACK = 1e-6;

/** One XML element as fast-xml-parser gives it: attributes under `$`, children by tag name (arrays). */
type XmlEl = { $?: Record<string, string> } & Record<string, unknown>;

const JOINT_TYPES = ['revolute', 'continuous', 'prismatic', 'fixed'] as const;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '$',
  isArray: (_name: string, _jpath: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
});

// --- element access ----------------------------------------------------------------------------

function asEl(x: unknown): XmlEl {
  // An element with neither attributes nor children comes back as a string ("" or its text).
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as XmlEl) : {};
}

function children(el: XmlEl, tag: string): XmlEl[] {
  if (!Object.prototype.hasOwnProperty.call(el, tag)) return [];
  const v = el[tag];
  return Array.isArray(v) ? v.map(asEl) : [asEl(v)];
}

/** The one child `tag` (undefined if absent; an error if repeated). */
function child(el: XmlEl, tag: string, where: string): XmlEl | undefined {
  const c = children(el, tag);
  if (c.length > 1) throw new UrdfError(`${where}: <${tag}> appears ${c.length} times, at most once is allowed`, where);
  return c[0];
}

function attr(el: XmlEl, name: string): string | undefined {
  const a = el.$;
  if (!a || !Object.prototype.hasOwnProperty.call(a, name)) return undefined;
  const v = a[name];
  return typeof v === 'string' ? v : String(v);
}

function requiredAttr(el: XmlEl, tag: string, name: string, where: string): string {
  const v = attr(el, name);
  if (v === undefined) throw new UrdfError(`${where}: <${tag}> needs the attribute ${name}="..."`, where);
  return v;
}

// --- numbers -----------------------------------------------------------------------------------

/**
 * Decimal numbers only: no hex, no "Infinity", no empty string (Number('') is 0). Each digit can
 * match one way only (the fraction needs its '.'): `\d+\.?\d*` backtracked quadratically on a long
 * run of digits ending in a letter, in the main process too (issue #28).
 */
export const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function parseNumbers(text: string, count: number, tag: string, name: string, where: string): number[] {
  const parts = text.trim().split(/\s+/).filter((s) => s.length > 0);
  if (parts.length !== count) {
    throw new UrdfError(`${where}: <${tag} ${name}="${clip(text)}"> must hold ${count} number${count > 1 ? 's' : ''} separated by spaces, found ${parts.length}`, where);
  }
  const out: number[] = [];
  for (const p of parts) {
    const v = NUMBER_RE.test(p) ? Number(p) : NaN;
    if (!Number.isFinite(v)) throw new UrdfError(`${where}: <${tag} ${name}="${clip(text)}">: "${clip(p)}" is not a finite decimal number`, where);
    out.push(v);
  }
  return out;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

function num(el: XmlEl, tag: string, name: string, where: string, fallback?: number): number {
  const t = attr(el, name);
  if (t === undefined) {
    if (fallback === undefined) throw new UrdfError(`${where}: <${tag}> needs the attribute ${name}="..." (a number)`, where);
    return fallback;
  }
  return parseNumbers(t, 1, tag, name, where)[0];
}

function vec3(el: XmlEl, tag: string, name: string, where: string, fallback?: Vec3Spec): Vec3Spec {
  const t = attr(el, name);
  if (t === undefined) {
    if (fallback === undefined) throw new UrdfError(`${where}: <${tag}> needs the attribute ${name}="x y z"`, where);
    return [fallback[0], fallback[1], fallback[2]];
  }
  const v = parseNumbers(t, 3, tag, name, where);
  return [v[0], v[1], v[2]];
}

function positiveSize(v: number, tag: string, name: string, where: string): number {
  if (!(v > 0) || v > URDF_MAX_SIZE) {
    throw new UrdfError(`${where}: <${tag} ${name}> is ${v} m; it must be in (0, ${URDF_MAX_SIZE}] m`, where);
  }
  if (v < URDF_MIN_SIZE) {
    throw new UrdfError(`${where}: <${tag} ${name}> is ${v} m; it must be in [${URDF_MIN_SIZE}, ${URDF_MAX_SIZE}] m (sizes are in metres)`, where);
  }
  return v;
}

// --- elements ----------------------------------------------------------------------------------

function readOrigin(parent: XmlEl, where: string): UrdfPose {
  const o = child(parent, 'origin', where);
  if (!o) return { xyz: [0, 0, 0], rpy: [0, 0, 0] };
  const xyz = vec3(o, 'origin', 'xyz', where, [0, 0, 0]);
  const rpy = vec3(o, 'origin', 'rpy', where, [0, 0, 0]);
  for (const c of xyz) {
    if (Math.abs(c) > URDF_MAX_OFFSET) throw new UrdfError(`${where}: <origin xyz> component ${c} m is beyond ±${URDF_MAX_OFFSET} m`, where);
  }
  for (const a of rpy) {
    if (Math.abs(a) > URDF_MAX_ANGLE) throw new UrdfError(`${where}: <origin rpy> component ${a} is not an angle in radians (|angle| > ${URDF_MAX_ANGLE})`, where);
  }
  return { xyz, rpy };
}

/**
 * The primitive of a `<geometry>` whose size is exactly 0 in some dimension (`<box size="0 0 0"/>`,
 * a cylinder or sphere of radius or length 0): ROS files write these as "no shape here" (the p2os
 * Pioneer 3-AT's sonar, axle and hub links; Gazebo builds a box of no volume, which touches
 * nothing). Returns the element's text for a warning, or null for any other geometry (negative and
 * absurd sizes stay errors of readGeometry).
 */
function zeroSizedPrimitive(parent: XmlEl, where: string): string | null {
  const g = child(parent, 'geometry', where);
  if (!g) return null;
  const box = children(g, 'box');
  const cyl = children(g, 'cylinder');
  const sph = children(g, 'sphere');
  if (box.length + cyl.length + sph.length + children(g, 'mesh').length !== 1) return null;
  if (box.length === 1 && attr(box[0], 'size') !== undefined) {
    const s = vec3(box[0], 'box', 'size', where);
    if (s.some((v) => v === 0) && s.every((v) => v >= 0)) return `<box size="${attr(box[0], 'size')}"/>`;
  }
  if (cyl.length === 1 && attr(cyl[0], 'radius') !== undefined && attr(cyl[0], 'length') !== undefined) {
    const r = num(cyl[0], 'cylinder', 'radius', where);
    const l = num(cyl[0], 'cylinder', 'length', where);
    if ((r === 0 || l === 0) && r >= 0 && l >= 0) return `<cylinder radius="${r}" length="${l}"/>`;
  }
  if (sph.length === 1 && attr(sph[0], 'radius') !== undefined && num(sph[0], 'sphere', 'radius', where) === 0) return '<sphere radius="0"/>';
  return null;
}

function readGeometry(parent: XmlEl, where: string): UrdfGeometry {
  const g = child(parent, 'geometry', where);
  if (!g) throw new UrdfError(`${where}: needs a <geometry> with a <box>, <cylinder>, <sphere> or <mesh>`, where);
  const found: UrdfGeometry[] = [];
  for (const b of children(g, 'box')) {
    const s = vec3(b, 'box', 'size', where);
    found.push({ type: 'box', size: [positiveSize(s[0], 'box', 'size', where), positiveSize(s[1], 'box', 'size', where), positiveSize(s[2], 'box', 'size', where)] });
  }
  for (const c of children(g, 'cylinder')) {
    found.push({
      type: 'cylinder',
      radius: positiveSize(num(c, 'cylinder', 'radius', where), 'cylinder', 'radius', where),
      length: positiveSize(num(c, 'cylinder', 'length', where), 'cylinder', 'length', where),
    });
  }
  for (const s of children(g, 'sphere')) {
    found.push({ type: 'sphere', radius: positiveSize(num(s, 'sphere', 'radius', where), 'sphere', 'radius', where) });
  }
  for (const m of children(g, 'mesh')) {
    const filename = requiredAttr(m, 'mesh', 'filename', where).trim();
    if (filename.length === 0) throw new UrdfError(`${where}: <mesh filename=""> is empty; name the mesh file`, where);
    const scale = vec3(m, 'mesh', 'scale', where, [1, 1, 1]);
    for (const s of scale) {
      if (s === 0 || Math.abs(s) > URDF_MAX_MESH_SCALE) throw new UrdfError(`${where}: <mesh scale> component ${s} must be non-zero and within ±${URDF_MAX_MESH_SCALE}`, where);
    }
    found.push({ type: 'mesh', filename, scale });
  }
  if (found.length !== 1) {
    throw new UrdfError(`${where}: <geometry> must hold exactly one of <box>, <cylinder>, <sphere>, <mesh>; found ${found.length}`, where);
  }
  return found[0];
}

function readMaterial(m: XmlEl, where: string, name: string): UrdfMaterial {
  const mat: UrdfMaterial = { name };
  const c = child(m, 'color', where);
  if (c) {
    const v = parseNumbers(requiredAttr(c, 'color', 'rgba', where), 4, 'color', 'rgba', where);
    for (const x of v) if (x < 0 || x > 1) throw new UrdfError(`${where}: <color rgba> components must be in [0, 1], got ${x}`, where);
    mat.color = [v[0], v[1], v[2], v[3]];
  }
  const t = child(m, 'texture', where);
  if (t) {
    const f = attr(t, 'filename');
    if (f !== undefined && f.trim() !== '') mat.texture = f.trim();
  }
  return mat;
}

function readInertial(el: XmlEl, where: string, warnings: string[]): UrdfInertial {
  const origin = readOrigin(el, `${where} <inertial>`);
  const m = child(el, 'mass', where);
  if (!m) throw new UrdfError(`${where}: <inertial> needs <mass value="..."> in kg`, where);
  const mass = num(m, 'mass', 'value', where);
  if (!(mass > 0)) throw new UrdfError(`${where}: <mass value="${mass}"> must be > 0 kg (give the link its real mass; a massless link may only hang on a fixed joint, without <inertial>)`, where);
  if (mass > URDF_MAX_MASS) throw new UrdfError(`${where}: <mass value="${mass}"> exceeds ${URDF_MAX_MASS} kg`, where);
  if (mass < URDF_MIN_MASS) {
    throw new UrdfError(`${where}: <mass value="${mass}"> is below ${URDF_MIN_MASS} kg; give the link its real mass in kg (or leave out <inertial> on a fixed joint)`, where);
  }
  const i = child(el, 'inertia', where);
  if (!i) throw new UrdfError(`${where}: <inertial> needs <inertia ixx ixy ixz iyy iyz izz> in kg·m²`, where);
  const inertia = {
    ixx: num(i, 'inertia', 'ixx', where),
    ixy: num(i, 'inertia', 'ixy', where),
    ixz: num(i, 'inertia', 'ixz', where),
    iyy: num(i, 'inertia', 'iyy', where),
    iyz: num(i, 'inertia', 'iyz', where),
    izz: num(i, 'inertia', 'izz', where),
  };
  for (const k of ['ixx', 'iyy', 'izz'] as const) {
    const v = inertia[k];
    if (v > URDF_MAX_INERTIA) throw new UrdfError(`${where}: <inertia ${k}="${v}"> exceeds ${URDF_MAX_INERTIA} kg·m²`, where);
    if (v > 0 && v < URDF_MIN_INERTIA) {
      throw new UrdfError(`${where}: <inertia ${k}="${v}"> is below ${URDF_MIN_INERTIA} kg·m²; give the link its real inertia in kg·m²`, where);
    }
  }
  checkInertia(inertia, where, warnings);
  return { origin, mass, inertia };
}

/**
 * Positive definiteness by Sylvester's criterion (leading principal minors > 0), scaled by the
 * largest diagonal entry so a tiny robot part is judged like a big one. The triangle inequality
 * (no principal moment larger than the sum of the other two) is physics too, but real files break
 * it by rounding, so it only warns.
 */
function checkInertia(t: { ixx: number; ixy: number; ixz: number; iyy: number; iyz: number; izz: number }, where: string, warnings: string[]): void {
  const s = Math.max(Math.abs(t.ixx), Math.abs(t.iyy), Math.abs(t.izz), Math.abs(t.ixy), Math.abs(t.ixz), Math.abs(t.iyz));
  const fix = 'the tensor must be positive definite: ixx, iyy, izz > 0 and the products of inertia small enough (check signs and units, kg·m²)';
  if (!(s > 0)) throw new UrdfError(`${where}: <inertia> is all zeros; ${fix}`, where);
  const a = t.ixx / s, b = t.iyy / s, c = t.izz / s, d = t.ixy / s, e = t.ixz / s, f = t.iyz / s;
  const m1 = a;
  const m2 = a * b - d * d;
  const m3 = a * (b * c - f * f) - d * (d * c - f * e) + e * (d * f - b * e);
  if (!(m1 > INERTIA_DEGENERATE_RELATIVE && m2 > INERTIA_DEGENERATE_RELATIVE && m3 > INERTIA_DEGENERATE_RELATIVE)) {
    throw new UrdfError(`${where}: <inertia ixx="${t.ixx}" iyy="${t.iyy}" izz="${t.izz}" ixy="${t.ixy}" ixz="${t.ixz}" iyz="${t.iyz}"> is not positive definite; ${fix}`, where);
  }
  const slack = INERTIA_TRIANGLE_SLACK * (t.ixx + t.iyy + t.izz);
  if (t.ixx + t.iyy < t.izz - slack || t.iyy + t.izz < t.ixx - slack || t.izz + t.ixx < t.iyy - slack) {
    warnings.push(`${where}: <inertia> breaks the triangle inequality (one diagonal moment exceeds the sum of the other two); no rigid body has this tensor`);
  }
}

function readLink(el: XmlEl, materials: Record<string, UrdfMaterial>, warnings: string[]): UrdfLink {
  const name = attr(el, 'name');
  if (name === undefined || name.trim() === '') throw new UrdfError('a <link> has no name="..."; every link needs a unique name', '');
  const where = `link "${name}"`;
  const inertials = children(el, 'inertial');
  if (inertials.length > 1) throw new UrdfError(`${where}: has ${inertials.length} <inertial> elements; a link has at most one`, name);
  const col = children(el, 'collision');
  const vis = children(el, 'visual');
  if (col.length > URDF_MAX_GEOMETRIES_PER_LINK || vis.length > URDF_MAX_GEOMETRIES_PER_LINK) {
    throw new UrdfError(`${where}: more than ${URDF_MAX_GEOMETRIES_PER_LINK} <collision> or <visual> elements`, name);
  }
  // zero-sized placeholders are no shape (zeroSizedPrimitive), said in the warnings
  const placeholder = (el: XmlEl, w: string): boolean => {
    const zero = zeroSizedPrimitive(el, w);
    if (zero !== null) warnings.push(`${w}: ${zero} has no volume; read as no shape (as Gazebo, whose box of size 0 touches nothing)`);
    return zero !== null;
  };
  const collisions: UrdfCollision[] = col.flatMap((c, k) => {
    const w = `${where} <collision> #${k + 1}`;
    if (placeholder(c, w)) return [];
    const out: UrdfCollision = { origin: readOrigin(c, w), geometry: readGeometry(c, w) };
    const n = attr(c, 'name');
    if (n !== undefined) out.name = n;
    return out;
  });
  const visuals: UrdfVisual[] = vis.flatMap((v, k) => {
    const w = `${where} <visual> #${k + 1}`;
    if (placeholder(v, w)) return [];
    const out: UrdfVisual = { origin: readOrigin(v, w), geometry: readGeometry(v, w) };
    const n = attr(v, 'name');
    if (n !== undefined) out.name = n;
    const m = child(v, 'material', w);
    if (m) {
      const mName = attr(m, 'name') ?? '';
      const inline = readMaterial(m, w, mName);
      if (inline.color || inline.texture) out.material = inline;
      else if (Object.prototype.hasOwnProperty.call(materials, mName)) out.material = materials[mName];
      else warnings.push(`${w}: material "${mName}" is not defined at the top level; the renderer uses its default colour`);
    }
    return out;
  });
  const link: UrdfLink = { name, collisions, visuals };
  if (inertials.length === 1) {
    // mass="0" (a sensor frame, a footprint) is ROS's way of writing "massless": read it as a link
    // without <inertial>, which may hang on a fixed joint and is merged into its parent's body
    const m = child(inertials[0], 'mass', where);
    if (m && attr(m, 'value') !== undefined && num(m, 'mass', 'value', where) === 0) {
      warnings.push(`${where}: <mass value="0"> is read as a massless link (no <inertial>); it must hang on a fixed joint`);
    } else link.inertial = readInertial(inertials[0], where, warnings);
  }
  return link;
}

function readJoint(el: XmlEl, warnings: string[]): UrdfJoint {
  const name = attr(el, 'name');
  if (name === undefined || name.trim() === '') throw new UrdfError('a <joint> has no name="..."; every joint needs a unique name', '');
  const where = `joint "${name}"`;
  const rawType = attr(el, 'type');
  if (rawType === undefined) throw new UrdfError(`${where}: needs type="revolute|continuous|prismatic|fixed"`, name);
  let type: UrdfJointType;
  if ((JOINT_TYPES as readonly string[]).includes(rawType)) type = rawType as UrdfJointType;
  else if (rawType === 'floating' || rawType === 'planar') {
    throw new UrdfError(
      `${where}: type "${rawType}" is not supported (the robot's root body is already free; for a ball hitch use type="fixed" with <${URDF_BALL_ELEMENT}/>, see docs/file-formats.md)`,
      name,
    );
  } else throw new UrdfError(`${where}: unknown type "${clip(rawType)}"; use revolute, continuous, prismatic or fixed`, name);
  if (children(el, URDF_BALL_ELEMENT).length > 0) {
    if (type !== 'fixed') throw new UrdfError(`${where}: <${URDF_BALL_ELEMENT}/> marks a ball joint and needs type="fixed" (what other URDF tools will see)`, name);
    type = 'ball';
  }
  const p = child(el, 'parent', where);
  const c = child(el, 'child', where);
  if (!p) throw new UrdfError(`${where}: needs <parent link="..."/>`, name);
  if (!c) throw new UrdfError(`${where}: needs <child link="..."/>`, name);
  const parent = requiredAttr(p, 'parent', 'link', where);
  const childLink = requiredAttr(c, 'child', 'link', where);
  const joint: UrdfJoint = { name, type, parent, child: childLink, origin: readOrigin(el, where), axis: [1, 0, 0] };

  const axisEl = child(el, 'axis', where);
  if (axisEl) joint.axis = vec3(axisEl, 'axis', 'xyz', where, [1, 0, 0]);
  const moving = type === 'revolute' || type === 'continuous' || type === 'prismatic';
  if (moving) {
    const [x, y, z] = joint.axis;
    const len = Math.hypot(x, y, z);
    if (!(len > MIN_DIRECTION_NORM)) throw new UrdfError(`${where}: <axis xyz="${x} ${y} ${z}"> has zero length; give the joint's axis as a unit vector`, name);
    joint.axis = [x / len, y / len, z / len];
  }

  const lim = child(el, 'limit', where);
  if (type === 'revolute' || type === 'prismatic') {
    if (!lim) throw new UrdfError(`${where}: a ${type} joint needs <limit lower="..." upper="..." effort="..." velocity="..."/>`, name);
  }
  if (lim && moving) {
    const limit: UrdfLimit = {
      lower: num(lim, 'limit', 'lower', where, 0),
      upper: num(lim, 'limit', 'upper', where, 0),
      effort: num(lim, 'limit', 'effort', where, type === 'continuous' ? 0 : undefined),
      velocity: num(lim, 'limit', 'velocity', where, type === 'continuous' ? 0 : undefined),
    };
    if (limit.effort < 0 || limit.velocity < 0) throw new UrdfError(`${where}: <limit effort> and <limit velocity> must be >= 0`, name);
    if (type !== 'continuous') {
      if (limit.lower > limit.upper) throw new UrdfError(`${where}: <limit lower="${limit.lower}"> is above upper="${limit.upper}"; swap them`, name);
      if (limit.lower === limit.upper) warnings.push(`${where}: <limit lower> equals upper (${limit.lower}): the joint cannot move`);
    }
    joint.limit = limit;
  }
  const dyn = child(el, 'dynamics', where);
  if (dyn) {
    const damping = num(dyn, 'dynamics', 'damping', where, 0);
    const friction = num(dyn, 'dynamics', 'friction', where, 0);
    if (damping < 0 || friction < 0) throw new UrdfError(`${where}: <dynamics damping="${damping}" friction="${friction}"> must be >= 0`, name);
    joint.dynamics = { damping, friction };
  }
  const mimic = child(el, 'mimic', where);
  if (mimic) {
    const leader = requiredAttr(mimic, 'mimic', 'joint', where).trim();
    if (leader === '') throw new UrdfError(`${where}: <mimic joint=""> is empty; name the joint this one follows`, name);
    const coupling = { joint: leader, multiplier: num(mimic, 'mimic', 'multiplier', where, 1), offset: num(mimic, 'mimic', 'offset', where, 0) };
    // a fixed joint has nothing to couple (the Leo's rockers carry <mimic> when xacro makes them fixed)
    if (moving) joint.mimic = coupling;
    else warnings.push(`${where}: <mimic> on a ${type} joint is ignored (it does not move)`);
  }
  return joint;
}

/** Runs a reader and makes `where` of its UrdfError the element's plain name (link or joint). */
function named<T>(el: XmlEl, read: () => T): T {
  try {
    return read();
  } catch (e) {
    const name = attr(el, 'name');
    if (e instanceof UrdfError && name) throw new UrdfError(e.message, name);
    throw e;
  }
}

// --- transmissions and ros2_control --------------------------------------------------------------

/** The texts of the child elements `tag` (an element with only text comes back as a string). */
function childTexts(el: XmlEl, tag: string): string[] {
  if (!Object.prototype.hasOwnProperty.call(el, tag)) return [];
  const v = el[tag];
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => (typeof x === 'string' ? x : typeof x === 'object' && x !== null && typeof (x as Record<string, unknown>)['#text'] === 'string' ? (x as Record<string, string>)['#text'] : '')).map((t) => t.trim());
}

/** 'position' | 'velocity' | 'effort' from a hardware interface or command interface name. */
function interfaceKind(text: string): UrdfCommandInterface | undefined {
  if (/position/i.test(text)) return 'position';
  if (/velocity/i.test(text)) return 'velocity';
  if (/effort/i.test(text)) return 'effort';
  return undefined;
}

/** Of several interfaces the one that holds the joint best: position, then velocity, then effort. */
const INTERFACE_RANK: Record<UrdfCommandInterface, number> = { position: 0, velocity: 1, effort: 2 };

/**
 * Command interfaces by joint, from ROS 1 `<transmission><joint name><hardwareInterface>` (or
 * the actuator's when the joint gives none) and ROS 2 `<ros2_control><joint name>
 * <command_interface name>`. A joint with several keeps the one that holds it best (a servo
 * rather than a velocity motor); a joint the robot does not have is a warning.
 */
function readInterfaces(robot: XmlEl, jointNames: Set<string>, warnings: string[]): Record<string, UrdfJointInterface> {
  const out: Record<string, UrdfJointInterface> = Object.create(null) as Record<string, UrdfJointInterface>;
  const put = (joint: string, kinds: (UrdfCommandInterface | undefined)[], from: UrdfJointInterface['from'], initialPosition?: number): void => {
    const known = kinds.filter((k): k is UrdfCommandInterface => k !== undefined).sort((a, b) => INTERFACE_RANK[a] - INTERFACE_RANK[b]);
    if (known.length === 0) return;
    if (!jointNames.has(joint)) {
      warnings.push(`<${from}> names joint "${clip(joint)}", which the robot does not have; ignored`);
      return;
    }
    const prev = out[joint];
    if (prev && INTERFACE_RANK[prev.interface] <= INTERFACE_RANK[known[0]]) return;
    out[joint] = { interface: known[0], from, ...(initialPosition !== undefined ? { initialPosition } : {}) };
  };
  for (const t of children(robot, 'transmission')) {
    const actuatorKinds = children(t, 'actuator').flatMap((a) => childTexts(a, 'hardwareInterface').map(interfaceKind));
    for (const j of children(t, 'joint')) {
      const name = attr(j, 'name');
      if (name === undefined) continue;
      const kinds = childTexts(j, 'hardwareInterface').map(interfaceKind);
      put(name, kinds.some((k) => k !== undefined) ? kinds : actuatorKinds, 'transmission');
    }
  }
  for (const rc of children(robot, 'ros2_control')) {
    for (const j of children(rc, 'joint')) {
      const name = attr(j, 'name');
      if (name === undefined) continue;
      const where = `<ros2_control> joint "${name}"`;
      const kinds = children(j, 'command_interface').map((c) => interfaceKind(attr(c, 'name') ?? ''));
      let initial: number | undefined;
      for (const si of children(j, 'state_interface')) {
        if (attr(si, 'name') !== 'position') continue;
        const params = children(si, 'param');
        const texts = childTexts(si, 'param');
        params.forEach((p, k) => {
          if (attr(p, 'name') !== 'initial_value') return;
          const t = texts[k];
          const v = NUMBER_RE.test(t) ? Number(t) : NaN;
          if (!Number.isFinite(v)) throw new UrdfError(`${where}: <param name="initial_value">${clip(t)}</param> is not a finite decimal number`, name);
          initial = v;
        });
      }
      put(name, kinds, 'ros2_control', initial);
    }
  }
  return out;
}

// --- tree ----------------------------------------------------------------------------------------

function checkTree(links: UrdfLink[], joints: UrdfJoint[]): string {
  const byName = new Map<string, UrdfLink>();
  for (const l of links) {
    if (byName.has(l.name)) throw new UrdfError(`link "${l.name}" is defined twice; link names must be unique`, l.name);
    byName.set(l.name, l);
  }
  const jointNames = new Set<string>();
  const parentJoint = new Map<string, UrdfJoint>();
  for (const j of joints) {
    if (jointNames.has(j.name)) throw new UrdfError(`joint "${j.name}" is defined twice; joint names must be unique`, j.name);
    jointNames.add(j.name);
    if (!byName.has(j.parent)) throw new UrdfError(`joint "${j.name}": parent link "${clip(j.parent)}" does not exist; define it or fix the name`, j.name);
    if (!byName.has(j.child)) throw new UrdfError(`joint "${j.name}": child link "${clip(j.child)}" does not exist; define it or fix the name`, j.name);
    if (j.parent === j.child) throw new UrdfError(`joint "${j.name}" connects link "${j.child}" to itself (a cycle); parent and child must differ`, j.name);
    const prev = parentJoint.get(j.child);
    if (prev) throw new UrdfError(`link "${j.child}" is the child of two joints ("${prev.name}" and "${j.name}"); a URDF is a tree, each link has one parent`, j.child);
    parentJoint.set(j.child, j);
  }
  const roots = links.filter((l) => !parentJoint.has(l.name));
  if (roots.length === 0) throw new UrdfError('every link is some joint\'s child: the joints form a cycle; one link (the base) must have no parent', '');
  if (roots.length > 1) {
    const names = roots.slice(0, 5).map((l) => `"${l.name}"`).join(', ');
    throw new UrdfError(
      `${roots.length} links have no parent joint (${names}${roots.length > 5 ? ', ...' : ''}); a URDF has one root: connect "${roots[1].name}" to the tree with a joint`,
      roots[1].name,
    );
  }
  // With one parent per link and one root, a link unreachable from the root sits on a cycle.
  const kids = new Map<string, string[]>();
  for (const j of joints) {
    const k = kids.get(j.parent);
    if (k) k.push(j.child);
    else kids.set(j.parent, [j.child]);
  }
  const seen = new Set<string>([roots[0].name]);
  const stack = [roots[0].name];
  while (stack.length > 0) {
    for (const c of kids.get(stack.pop() as string) ?? []) {
      if (!seen.has(c)) {
        seen.add(c);
        stack.push(c);
      }
    }
  }
  for (const l of links) {
    if (!seen.has(l.name)) {
      const j = parentJoint.get(l.name) as UrdfJoint;
      throw new UrdfError(`joint "${j.name}" closes a cycle through link "${l.name}"; a URDF is a tree (remove one joint of the loop)`, j.name);
    }
  }
  return roots[0].name;
}

// --- entry ---------------------------------------------------------------------------------------

/**
 * Parses URDF text (or its UTF-8 bytes). Throws `UrdfError` only; `warnings` of the result list
 * what was read but has no effect here.
 */
export function parseUrdf(input: string | Uint8Array): UrdfModel {
  try {
    return parseUrdfUnchecked(input);
  } catch (e) {
    if (e instanceof UrdfError) throw e;
    // fast-xml-parser's own guards (entity expansion, reserved names) and anything unforeseen.
    throw new UrdfError(`the file is not a URDF this loader can read: ${e instanceof Error ? e.message : String(e)}`, '');
  }
}

/** The entities XML predefines; anything else would need a declaration, which URDF never has. */
const PREDEFINED_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

/**
 * Refuses a reference to an undeclared entity (`&foo;`): the XML parser keeps it as literal text,
 * so it became the robot's name (issue #28). Character references (`&#65;`) are fine.
 */
function checkEntityReferences(text: string): void {
  const re = /&([A-Za-z_:][\w.:-]{0,63});/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (PREDEFINED_ENTITIES.has(m[1])) continue;
    let line = 1;
    for (let k = text.indexOf('\n'); k >= 0 && k < m.index; k = text.indexOf('\n', k + 1)) line++;
    throw new UrdfError(`line ${line}: the entity &${clip(m[1])}; is not declared (URDF declares none); write the text itself, or &amp; for "&"`, '');
  }
}

function parseUrdfUnchecked(input: string | Uint8Array): UrdfModel {
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > URDF_MAX_BYTES) throw new UrdfError(`the URDF is ${size} bytes; at most ${URDF_MAX_BYTES} are accepted`, '');
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: false }).decode(input);
  if (text.trim().length === 0) throw new UrdfError('the file is empty; a URDF starts with <robot name="...">', '');
  if (/<!ENTITY/i.test(text)) throw new UrdfError('the file declares XML entities (<!ENTITY>); URDF does not use them, remove the DOCTYPE', '');
  checkEntityReferences(text);
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) {
    const e = valid.err;
    throw new UrdfError(`malformed XML at line ${e.line}, column ${e.col}: ${e.msg}`, '');
  }
  if (isXacro(text)) throw new UrdfError('this is a xacro file (<xacro:...> elements or ${...} substitutions outside comments): a scenario naming it in "robot.urdf" expands it (arguments in "robot.xacroArgs"); in a script call expandXacro first', '');
  const doc = asEl(parser.parse(text));
  const robots = children(doc, 'robot');
  const others = Object.keys(doc).filter((k) => k !== 'robot' && k !== '#text');
  if (robots.length !== 1 || others.length > 0) {
    throw new UrdfError(`the root element must be one <robot name="...">${others.length > 0 ? `, found <${clip(others[0])}>` : ''}`, '');
  }
  const robot = robots[0];
  const name = attr(robot, 'name');
  if (name === undefined || name.trim() === '') throw new UrdfError('<robot> needs a name="..."', '');

  const warnings: string[] = [];
  const linkEls = children(robot, 'link');
  const jointEls = children(robot, 'joint');
  if (linkEls.length === 0) throw new UrdfError('the robot has no <link>; it needs at least its base link', '');
  if (linkEls.length > URDF_MAX_LINKS || jointEls.length > URDF_MAX_LINKS) {
    throw new UrdfError(`the robot has ${linkEls.length} links and ${jointEls.length} joints; at most ${URDF_MAX_LINKS} of each are accepted`, '');
  }
  const materials: Record<string, UrdfMaterial> = Object.create(null) as Record<string, UrdfMaterial>;
  for (const m of children(robot, 'material')) {
    const mName = attr(m, 'name');
    if (mName === undefined || mName === '') throw new UrdfError('a top-level <material> has no name="..."', '');
    materials[mName] = readMaterial(m, `material "${mName}"`, mName);
  }
  const links = linkEls.map((l) => named(l, () => readLink(l, materials, warnings)));
  const joints = jointEls.map((j) => named(j, () => readJoint(j, warnings)));
  const root = checkTree(links, joints);
  const jointNames = new Set(joints.map((j) => j.name));
  for (const j of joints) {
    if (j.mimic && !jointNames.has(j.mimic.joint)) throw new UrdfError(`joint "${j.name}": <mimic joint="${clip(j.mimic.joint)}"> names no joint of the robot`, j.name);
    if (j.mimic?.joint === j.name) throw new UrdfError(`joint "${j.name}": <mimic> names the joint itself`, j.name);
  }
  const interfaces = readInterfaces(robot, jointNames, warnings);
  return { name, links, joints, materials, root, warnings, interfaces };
}
