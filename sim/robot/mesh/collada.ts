/**
 * Collada (.dae) reader for collision meshes: every geometry the file's visual scene instances,
 * placed by its node transforms, in metres, as one triangle mesh.
 *
 * Pipeline (each step throws a UrdfError naming the file and the element):
 *
 *   bytes ──► no DTD/entities ──► well-formed XML ──► <asset> unit ──► geometries by id
 *         ──► visual scene: nodes (matrix/translate/rotate/scale in document order, nested,
 *             <instance_node>) × <instance_geometry> ──► positions × node matrix × unit
 *
 * Conventions (the same as the renderer's visual, three's ColladaLoader with its up-axis turn
 * undone, so the collision lines up with what is drawn; and as Gazebo's common::ColladaLoader and
 * rviz read collision and visual meshes):
 *   - `<unit meter="…">` scales every vertex (default 1);
 *   - `<up_axis>` is ignored: the file's coordinates are the link's coordinates;
 *   - node transforms apply, outermost first; a mirroring node flips its triangles' winding so
 *     that the mesh stays consistently wound (its volume is checked later).
 *
 * Read: <triangles>, <polylist>, <polygons> (holes in <ph> are dropped: a hull covers them),
 * <trifans>, <tristrips>; the VERTEX input's POSITION source with its accessor stride. Lines carry
 * no volume and are skipped; normals, texture coordinates, materials, animations and cameras are
 * not read. Refused: skinned meshes (<instance_controller>), <lookat>/<skew> transforms.
 *
 * Why not collada-dae-parser (installed for this): it reads exactly one geometry, only
 * <polylist>, with a hard-coded input order, and ignores <unit>, node transforms and
 * <instance_node>; it is CommonJS over another XML parser. Robot meshes exported from CAD
 * (SolidWorks, Blender, SketchUp) use <triangles>, several geometries and nested nodes.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MESH_MAX_BYTES, MESH_MAX_TRIANGLES, MESH_MAX_VERTICES, UrdfError, URDF_MAX_SIZE } from '../urdf/urdf-error';
import type { TriangleMesh } from './triangle-mesh';

/** [m] Smallest `<unit meter>` accepted (a micrometre per unit). */
export const COLLADA_MIN_UNIT_METER = 1e-6;
/** [m] Largest `<unit meter>` accepted (a kilometre per unit). */
export const COLLADA_MAX_UNIT_METER = 1e3;
/** [m] Largest |coordinate| of a collision mesh after unit and node transforms (as URDF sizes). */
export const COLLADA_MAX_COORDINATE = URDF_MAX_SIZE;
/** Deepest node nesting (and <instance_node> chain) read; deeper is taken as a cycle. */
const COLLADA_MAX_NODE_DEPTH = 64;

/** A Collada file read as one mesh, with what the file said about itself. */
export interface ColladaMesh extends TriangleMesh {
  /** The file's `<unit meter>` (already applied to positions). */
  unitMeter: number;
  /** The file's `<up_axis>` (not applied: see the header). */
  upAxis: string;
  /** Geometry instances placed (one geometry instanced twice counts twice). */
  instances: number;
}

/** One XML element: name, attributes, child elements in document order, text. */
interface XNode {
  name: string;
  attrs: Record<string, string>;
  kids: XNode[];
  text: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
});

/** fast-xml-parser's ordered output → XNode children. */
function toNodes(list: unknown): XNode[] {
  const out: XNode[] = [];
  if (!Array.isArray(list)) return out;
  for (const item of list as Record<string, unknown>[]) {
    const attrs = (item[':@'] ?? {}) as Record<string, string>;
    for (const key of Object.keys(item)) {
      if (key === ':@' || key === '#text') continue;
      const kidsRaw = item[key];
      const kids = toNodes(kidsRaw);
      let text = '';
      if (Array.isArray(kidsRaw)) for (const k of kidsRaw as Record<string, unknown>[]) if (typeof k['#text'] === 'string' || typeof k['#text'] === 'number') text += String(k['#text']);
      out.push({ name: key, attrs, kids, text });
    }
  }
  return out;
}

function kidsNamed(n: XNode, name: string): XNode[] {
  return n.kids.filter((k) => k.name === name);
}

function kid(n: XNode, name: string): XNode | undefined {
  return n.kids.find((k) => k.name === name);
}

/** Whitespace-separated numbers of an element's text (finite, or an error naming the element). */
function numbers(text: string, what: string, file: string): number[] {
  const t = text.trim();
  if (t === '') return [];
  const parts = t.split(/\s+/);
  const out = new Array<number>(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const v = Number(parts[i]);
    if (!Number.isFinite(v)) throw err(file, `${what}: "${parts[i].slice(0, 30)}" is not a finite number`);
    out[i] = v;
  }
  return out;
}

function ints(text: string, what: string, file: string): number[] {
  const v = numbers(text, what, file);
  for (const x of v) if (!Number.isInteger(x) || x < 0) throw err(file, `${what}: ${x} is not an index (a whole number ≥ 0)`);
  return v;
}

function err(file: string, what: string): UrdfError {
  return new UrdfError(`mesh "${file}": ${what}`, file);
}

/** "#id" → "id" (only local references are read). */
function localRef(url: string | undefined, what: string, file: string): string {
  if (url === undefined || !url.startsWith('#') || url.length < 2) throw err(file, `${what} url="${url ?? ''}" is not a local reference "#id" (references to other files are not read)`);
  return url.slice(1);
}

// --- 4×4 matrices, row-major (Collada's <matrix> order), column vectors -----------------------

type Mat4 = Float64Array;

function identity(): Mat4 {
  const m = new Float64Array(16);
  m[0] = m[5] = m[10] = m[15] = 1;
  return m;
}

function mul(a: Mat4, b: Mat4): Mat4 {
  const o = new Float64Array(16);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[4 * r + k] * b[4 * k + c];
    o[4 * r + c] = s;
  }
  return o;
}

/** Rotation by `deg` degrees about the axis (x, y, z) (Rodrigues), as Collada's <rotate>. */
function rotation(x: number, y: number, z: number, deg: number, file: string): Mat4 {
  const len = Math.hypot(x, y, z);
  if (!(len > 0)) throw err(file, '<rotate> has a zero axis');
  x /= len; y /= len; z /= len;
  const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), t = 1 - c;
  const m = identity();
  m[0] = t * x * x + c; m[1] = t * x * y - s * z; m[2] = t * x * z + s * y;
  m[4] = t * x * y + s * z; m[5] = t * y * y + c; m[6] = t * y * z - s * x;
  m[8] = t * x * z - s * y; m[9] = t * y * z + s * x; m[10] = t * z * z + c;
  return m;
}

/** A node's own transform: its transform elements composed in document order (COLLADA 1.4 §5). */
function nodeTransform(node: XNode, file: string): Mat4 {
  let m = identity();
  const where = `<node${node.attrs.id ? ` id="${node.attrs.id}"` : ''}>`;
  for (const k of node.kids) {
    let t: Mat4 | null = null;
    if (k.name === 'matrix') {
      const v = numbers(k.text, `${where} <matrix>`, file);
      if (v.length !== 16) throw err(file, `${where} <matrix> needs 16 numbers, has ${v.length}`);
      t = Float64Array.from(v);
    } else if (k.name === 'translate') {
      const v = numbers(k.text, `${where} <translate>`, file);
      if (v.length !== 3) throw err(file, `${where} <translate> needs 3 numbers, has ${v.length}`);
      t = identity();
      t[3] = v[0]; t[7] = v[1]; t[11] = v[2];
    } else if (k.name === 'rotate') {
      const v = numbers(k.text, `${where} <rotate>`, file);
      if (v.length !== 4) throw err(file, `${where} <rotate> needs an axis and an angle in degrees (4 numbers), has ${v.length}`);
      t = rotation(v[0], v[1], v[2], v[3], file);
    } else if (k.name === 'scale') {
      const v = numbers(k.text, `${where} <scale>`, file);
      if (v.length !== 3) throw err(file, `${where} <scale> needs 3 numbers, has ${v.length}`);
      t = identity();
      t[0] = v[0]; t[5] = v[1]; t[10] = v[2];
    } else if (k.name === 'lookat' || k.name === 'skew') {
      throw err(file, `${where} <${k.name}> transforms are not read; bake the transform into the mesh`);
    }
    if (t) m = mul(m, t);
  }
  return m;
}

// --- geometry -------------------------------------------------------------------------------------

/** One geometry's positions (unit not yet applied) and triangles. */
interface Geometry {
  positions: Float64Array;
  indices: number[];
}

/** Corners of each polygon, fan-triangulated, pushed as position indices. */
function fan(corners: number[], out: number[]): void {
  for (let c = 1; c + 1 < corners.length; c++) out.push(corners[0], corners[c], corners[c + 1]);
}

function readGeometry(g: XNode, file: string, budget: { triangles: number }): Geometry {
  const gid = g.attrs.id ?? g.attrs.name ?? '?';
  const where = `<geometry id="${gid}">`;
  const mesh = kid(g, 'mesh');
  if (!mesh) throw err(file, `${where} has no <mesh> (${g.kids.map((k) => `<${k.name}>`).join(', ') || 'nothing'}; only polygon meshes are read)`);
  // Sources by id; only the one <vertices> names as POSITION is read (normals, UVs are not).
  const sourceEls = new Map<string, XNode>();
  for (const s of kidsNamed(mesh, 'source')) if (s.attrs.id) sourceEls.set(s.attrs.id, s);
  const verts = kid(mesh, 'vertices');
  const posInput = verts ? kidsNamed(verts, 'input').find((i) => i.attrs.semantic === 'POSITION') : undefined;
  if (!verts || !posInput) throw err(file, `${where}: <vertices> with an <input semantic="POSITION"> is missing`);
  const srcId = localRef(posInput.attrs.source, `${where} <vertices> <input>`, file);
  const srcEl = sourceEls.get(srcId);
  const fa = srcEl ? kid(srcEl, 'float_array') : undefined;
  if (!srcEl || !fa) throw err(file, `${where}: the POSITION source "${posInput.attrs.source}" is not a <source> with a <float_array> in this mesh`);
  const values = numbers(fa.text, `${where} <source id="${srcId}"> <float_array>`, file);
  const acc = kid(kid(srcEl, 'technique_common') ?? srcEl, 'accessor');
  const stride = acc?.attrs.stride !== undefined ? Number(acc.attrs.stride) : 3;
  const offset = acc?.attrs.offset !== undefined ? Number(acc.attrs.offset) : 0;
  if (!(Number.isInteger(stride) && stride >= 3 && Number.isInteger(offset) && offset >= 0)) {
    throw err(file, `${where} <source id="${srcId}">: accessor stride="${acc?.attrs.stride ?? ''}" offset="${acc?.attrs.offset ?? ''}" (positions need x, y, z: a stride ≥ 3)`);
  }
  const fit = Math.floor((values.length - offset) / stride);
  const declared = acc?.attrs.count !== undefined ? Number(acc.attrs.count) : fit;
  const src = { values, stride, offset, count: Math.max(0, Math.min(Number.isInteger(declared) ? declared : fit, fit)) };
  if (src.count > MESH_MAX_VERTICES) throw err(file, `${where}: ${src.count} vertices; at most ${MESH_MAX_VERTICES} are accepted (simplify the mesh)`);
  const positions = new Float64Array(src.count * 3);
  for (let i = 0; i < src.count; i++) for (let k = 0; k < 3; k++) positions[3 * i + k] = src.values[src.offset + i * src.stride + k];

  const indices: number[] = [];
  const nv = src.count;
  for (const prim of mesh.kids) {
    const kind = prim.name;
    if (!['triangles', 'polylist', 'polygons', 'trifans', 'tristrips'].includes(kind)) continue;
    const pw = `${where} <${kind}>`;
    const inputs = kidsNamed(prim, 'input');
    let stride = 0;
    let vOffset = -1;
    for (const i of inputs) {
      const o = Number(i.attrs.offset ?? 0);
      if (!(Number.isInteger(o) && o >= 0)) throw err(file, `${pw} <input semantic="${i.attrs.semantic}"> offset="${i.attrs.offset}" is not an index`);
      stride = Math.max(stride, o + 1);
      if (i.attrs.semantic === 'VERTEX') vOffset = o;
    }
    if (vOffset < 0) throw err(file, `${pw} has no <input semantic="VERTEX">`);
    const corner = (p: number[], c: number, what: string): number => {
      const v = p[c * stride + vOffset];
      if (v === undefined || v >= nv) throw err(file, `${what}: corner ${c} names vertex ${v}, the mesh has ${nv}`);
      return v;
    };

    if (kind === 'triangles' || kind === 'polylist') {
      const pEl = kid(prim, 'p');
      if (!pEl) continue; // count="0" primitives have no <p>
      const p = ints(pEl.text, `${pw} <p>`, file);
      const counts = kind === 'triangles' ? null : ints(kid(prim, 'vcount')?.text ?? '', `${pw} <vcount>`, file);
      const polys = counts ? counts.length : Math.floor(p.length / (3 * stride));
      if (counts === null && p.length !== polys * 3 * stride) throw err(file, `${pw} <p> has ${p.length} values, not a multiple of 3 corners × ${stride} inputs`);
      let c = 0;
      const poly: number[] = [];
      for (let k = 0; k < polys; k++) {
        const n = counts ? counts[k] : 3;
        if (n < 3) { c += n; continue; }
        budget.triangles += n - 2;
        if (budget.triangles > MESH_MAX_TRIANGLES) throw err(file, `more than ${MESH_MAX_TRIANGLES} triangles (simplify the mesh)`);
        poly.length = 0;
        for (let j = 0; j < n; j++) poly.push(corner(p, c + j, `${pw} polygon ${k}`));
        c += n;
        fan(poly, indices);
      }
      if (counts && c * stride !== p.length) throw err(file, `${pw}: <vcount> sums to ${c} corners, <p> has ${p.length / stride}`);
    } else {
      // polygons, trifans, tristrips: one <p> per polygon, fan or strip (<ph> holes: the outer <p> only).
      for (const holder of prim.kids) {
        const pEl = holder.name === 'p' ? holder : holder.name === 'ph' ? kid(holder, 'p') : undefined;
        if (!pEl) continue;
        const p = ints(pEl.text, `${pw} <p>`, file);
        const n = Math.floor(p.length / stride);
        if (n < 3) continue;
        budget.triangles += n - 2;
        if (budget.triangles > MESH_MAX_TRIANGLES) throw err(file, `more than ${MESH_MAX_TRIANGLES} triangles (simplify the mesh)`);
        const poly: number[] = [];
        for (let j = 0; j < n; j++) poly.push(corner(p, j, pw));
        if (kind === 'tristrips') {
          // Every other triangle of a strip is wound the other way: swap to keep one winding.
          for (let j = 0; j + 2 < n; j++) {
            if (j % 2 === 0) indices.push(poly[j], poly[j + 1], poly[j + 2]);
            else indices.push(poly[j + 1], poly[j], poly[j + 2]);
          }
        } else fan(poly, indices);
      }
    }
  }
  return { positions, indices };
}

// --- the scene ----------------------------------------------------------------------------------

/** Parses a Collada file into one triangle mesh in metres (see the header). Throws UrdfError naming the file. */
export function parseCollada(bytes: Uint8Array, file: string): ColladaMesh {
  if (bytes.byteLength > MESH_MAX_BYTES) throw err(file, `${bytes.byteLength} bytes; at most ${MESH_MAX_BYTES} are accepted`);
  const text = new TextDecoder('utf-8').decode(bytes);
  // Markup declarations: a DTD's entities can expand to gigabytes; Collada never needs one.
  for (let at = text.indexOf('<!'); at >= 0; at = text.indexOf('<!', at + 2)) {
    const word = text.slice(at + 2, at + 9).toUpperCase();
    if (word === 'DOCTYPE' || word.startsWith('ENTITY')) throw err(file, `the Collada file declares a DTD or entities (<!${word}>), which are not read`);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw err(file, `not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  let top: XNode[];
  try {
    top = toNodes(parser.parse(text));
  } catch (e) {
    throw err(file, `not readable as XML: ${(e as Error).message}`);
  }
  const root = top.find((n) => n.name === 'COLLADA');
  if (!root) throw err(file, `the root element is <${top[0]?.name ?? 'nothing'}>, not <COLLADA> (is this a Collada .dae file?)`);

  const asset = kid(root, 'asset');
  const unitEl = asset ? kid(asset, 'unit') : undefined;
  const unitMeter = unitEl?.attrs.meter !== undefined ? Number(unitEl.attrs.meter) : 1;
  if (!(unitMeter >= COLLADA_MIN_UNIT_METER && unitMeter <= COLLADA_MAX_UNIT_METER)) {
    throw err(file, `<unit meter="${unitEl?.attrs.meter}">: must be a number of metres per unit in [${COLLADA_MIN_UNIT_METER}, ${COLLADA_MAX_UNIT_METER}]`);
  }
  const upAxis = (asset ? kid(asset, 'up_axis')?.text.trim() : undefined) || 'Y_UP';

  const geometryEls = new Map<string, XNode>();
  for (const lib of kidsNamed(root, 'library_geometries')) for (const g of kidsNamed(lib, 'geometry')) if (g.attrs.id) geometryEls.set(g.attrs.id, g);
  const libraryNodes = new Map<string, XNode>();
  const indexNodes = (n: XNode): void => {
    for (const k of kidsNamed(n, 'node')) {
      if (k.attrs.id) libraryNodes.set(k.attrs.id, k);
      indexNodes(k);
    }
  };
  for (const lib of kidsNamed(root, 'library_nodes')) indexNodes(lib);
  const scenes = kidsNamed(root, 'library_visual_scenes').flatMap((l) => kidsNamed(l, 'visual_scene'));

  // What to place: (geometry id, matrix) per <instance_geometry> reached from the scene's nodes.
  const placed: { id: string; m: Mat4 }[] = [];
  const walk = (node: XNode, parent: Mat4, depth: number): void => {
    if (depth > COLLADA_MAX_NODE_DEPTH) throw err(file, `nodes nest deeper than ${COLLADA_MAX_NODE_DEPTH} (an <instance_node> cycle?)`);
    const m = mul(parent, nodeTransform(node, file));
    for (const k of node.kids) {
      if (k.name === 'instance_geometry') placed.push({ id: localRef(k.attrs.url, '<instance_geometry>', file), m });
      else if (k.name === 'instance_controller') throw err(file, '<instance_controller> (a skinned or morphed mesh) is not read; export the mesh without an armature');
      else if (k.name === 'instance_node') {
        const id = localRef(k.attrs.url, '<instance_node>', file);
        const target = libraryNodes.get(id);
        if (!target) throw err(file, `<instance_node url="#${id}">: no <node id="${id}"> in <library_nodes>`);
        walk(target, m, depth + 1);
      } else if (k.name === 'node') walk(k, m, depth + 1);
    }
  };
  if (scenes.length > 0) {
    const sceneRef = kid(kid(root, 'scene') ?? root, 'instance_visual_scene')?.attrs.url;
    const scene = sceneRef !== undefined ? scenes.find((s) => `#${s.attrs.id}` === sceneRef) : scenes[0];
    if (!scene) throw err(file, `<instance_visual_scene url="${sceneRef}">: no such <visual_scene>`);
    for (const n of kidsNamed(scene, 'node')) walk(n, identity(), 0);
  } else {
    // No scene: every geometry as written (some exporters write only the library).
    for (const id of geometryEls.keys()) placed.push({ id, m: identity() });
  }
  if (placed.length === 0) throw err(file, 'the Collada scene places no geometry (no <instance_geometry> under its nodes)');

  const budget = { triangles: 0 };
  const read = new Map<string, Geometry>();
  let vertexTotal = 0;
  for (const p of placed) {
    if (!read.has(p.id)) {
      const g = geometryEls.get(p.id);
      if (!g) throw err(file, `<instance_geometry url="#${p.id}">: no <geometry id="${p.id}"> in <library_geometries>`);
      read.set(p.id, readGeometry(g, file, budget));
    }
    vertexTotal += (read.get(p.id) as Geometry).positions.length / 3;
    if (vertexTotal > MESH_MAX_VERTICES) throw err(file, `more than ${MESH_MAX_VERTICES} vertices once instanced (simplify the mesh)`);
  }
  let triTotal = 0;
  for (const p of placed) triTotal += (read.get(p.id) as Geometry).indices.length / 3;
  if (triTotal > MESH_MAX_TRIANGLES) throw err(file, `more than ${MESH_MAX_TRIANGLES} triangles once instanced (simplify the mesh)`);
  if (triTotal === 0) throw err(file, 'the Collada geometries have no triangles or polygons (lines and points have no volume)');

  const positions = new Float64Array(vertexTotal * 3);
  const indices = new Uint32Array(triTotal * 3);
  let vBase = 0, iAt = 0;
  for (const { id, m } of placed) {
    const g = read.get(id) as Geometry;
    const n = g.positions.length / 3;
    for (let i = 0; i < n; i++) {
      const x = g.positions[3 * i], y = g.positions[3 * i + 1], z = g.positions[3 * i + 2];
      for (let r = 0; r < 3; r++) {
        const v = (m[4 * r] * x + m[4 * r + 1] * y + m[4 * r + 2] * z + m[4 * r + 3]) * unitMeter;
        if (!(Math.abs(v) <= COLLADA_MAX_COORDINATE)) throw err(file, `a vertex of geometry "${id}" lies ${Number.isFinite(v) ? `${v.toExponential(2)} m` : 'at infinity'} from the origin (more than ${COLLADA_MAX_COORDINATE} m): check <unit meter> and the node transforms`);
        positions[3 * (vBase + i) + r] = v;
      }
    }
    // A mirroring node turns the winding inside out: swap two corners to keep it outward.
    const det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) + m[2] * (m[4] * m[9] - m[5] * m[8]);
    for (let t = 0; t < g.indices.length; t += 3) {
      indices[iAt++] = vBase + g.indices[t];
      indices[iAt++] = vBase + (det < 0 ? g.indices[t + 2] : g.indices[t + 1]);
      indices[iAt++] = vBase + (det < 0 ? g.indices[t + 1] : g.indices[t + 2]);
    }
    vBase += n;
  }
  return { positions, indices, unitMeter, upAxis, instances: placed.length };
}
