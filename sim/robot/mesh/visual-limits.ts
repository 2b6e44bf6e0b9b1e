/**
 * What a visual mesh may cost before the renderer hands it to three.js's loaders (issue #28).
 *
 * The renderer parses visuals on its main thread (three's ColladaLoader needs DOMParser, which
 * workers do not have), so a file is measured first, in one linear pass that allocates nothing
 * per element, and refused when drawing it would freeze the window:
 *
 *   OBJ      faces ≤ OBJ_MAX_FACE_CORNERS corners each; fan triangles ≤ VISUAL_MESH_MAX_TRIANGLES;
 *            v/vn/vt lines ≤ VISUAL_MESH_MAX_VERTICES (three's OBJLoader costs ~10 µs per triangle:
 *            one 0.8 MiB face took 4.6 s, a 60 MB one more than 30 s)
 *   Collada  no <!DOCTYPE> and no <!ENTITY>: DOMParser expands internal entities (a 115 KiB file
 *            with a 100 KB entity referenced 6,000 times took 16.8 s); Collada never needs a DTD.
 *            The primitives' count="" attributes sum to ≤ VISUAL_MESH_MAX_TRIANGLES, and the index
 *            values in <p> and <vcount> elements to ≤ COLLADA_MAX_INDEX_VALUES (so a lying count
 *            does not help)
 *   STL      the renderer reads STL with the sim's own reader (stl.ts: linear, capped at
 *            MESH_MAX_TRIANGLES), not three's STLLoader, whose ASCII regexes backtrack; the
 *            triangle count is checked here against VISUAL_MESH_MAX_TRIANGLES first
 *
 * A refused visual is left out with a warning naming its link: it changes the look, not the physics.
 */
import { MESH_MAX_BYTES, UrdfError } from '../urdf/urdf-error';

/** Most corners of one OBJ face (a 4096-gon is a smooth circle; fan-triangulating more is garbage). */
export const OBJ_MAX_FACE_CORNERS = 4096;
/** Most triangles of one visual mesh file (robot visuals are tens of thousands; ~2.5 s in three's loaders). */
export const VISUAL_MESH_MAX_TRIANGLES = 250_000;
/** Most vertex records (v, vn, vt lines) of one visual OBJ file. */
export const VISUAL_MESH_MAX_VERTICES = 3 * VISUAL_MESH_MAX_TRIANGLES;
/** Most index values in a Collada file's <p> and <vcount> elements: 3 corners × up to 4 inputs per triangle. */
export const COLLADA_MAX_INDEX_VALUES = 12 * VISUAL_MESH_MAX_TRIANGLES;

const STL_HEADER_BYTES = 84;
const STL_RECORD_BYTES = 50;

function isSpaceCode(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

/** Throws UrdfError when the visual mesh `file` would be too costly to draw; returns otherwise. */
export function checkVisualMesh(file: string, bytes: Uint8Array): void {
  if (bytes.byteLength > MESH_MAX_BYTES) throw new UrdfError(`mesh "${file}": ${bytes.byteLength} bytes; at most ${MESH_MAX_BYTES} are accepted`, file);
  const dot = file.lastIndexOf('.');
  const ext = dot >= 0 ? file.slice(dot + 1).toLowerCase() : '';
  if (ext === 'obj') checkObj(file, new TextDecoder().decode(bytes));
  else if (ext === 'dae') checkCollada(file, new TextDecoder().decode(bytes));
  else if (ext === 'stl') checkStl(file, bytes);
}

function tooMany(file: string, what: string, limit: number): UrdfError {
  return new UrdfError(`mesh "${file}": more than ${limit} ${what}; visuals that large are not drawn (simplify the mesh)`, file);
}

/**
 * OBJ as three's OBJLoader reads it: "\r\n" and backslash-newline continuations joined first, a
 * line is a face when its first non-blank character is 'f' (whatever follows), its corners the
 * blank-separated tokens after that 'f'; 'l' and 'p' elements count like face corners.
 */
function checkObj(file: string, raw: string): void {
  const text = raw.indexOf('\\') >= 0 ? raw.replace(/\\\r?\n/g, '') : raw;
  const n = text.length;
  let triangles = 0;
  let vertices = 0;
  let line = 0;
  let i = 0;
  while (i < n) {
    line++;
    let end = text.indexOf('\n', i);
    if (end < 0) end = n;
    let s = i;
    while (s < end && isSpaceCode(text.charCodeAt(s))) s++;
    const first = text[s];
    if (first === 'v') {
      if (++vertices > VISUAL_MESH_MAX_VERTICES) throw tooMany(file, 'vertex lines', VISUAL_MESH_MAX_VERTICES);
    } else if (first === 'f' || first === 'l' || first === 'p') {
      let tokens = 0;
      let inToken = false;
      for (let k = s + 1; k < end; k++) {
        const blank = isSpaceCode(text.charCodeAt(k));
        if (!blank && !inToken) {
          tokens++;
          if (tokens > OBJ_MAX_FACE_CORNERS) {
            throw new UrdfError(`mesh "${file}" line ${line}: a face with more than ${OBJ_MAX_FACE_CORNERS} corners; visuals like that are not drawn (split the face)`, file);
          }
        }
        inToken = !blank;
      }
      triangles += first === 'f' ? Math.max(0, tokens - 2) : tokens;
      if (triangles > VISUAL_MESH_MAX_TRIANGLES) throw tooMany(file, 'triangles', VISUAL_MESH_MAX_TRIANGLES);
    }
    i = end + 1;
  }
}

/** The Collada primitives whose count="" is a number of polygons, lines or strips. */
const COLLADA_PRIMITIVES = ['triangles', 'polylist', 'polygons', 'tristrips', 'trifans', 'lines', 'linestrips'];

function checkCollada(file: string, text: string): void {
  // Markup declarations: <!DOCTYPE ...> and <!ENTITY ...> (any case); comments and CDATA are fine.
  for (let at = text.indexOf('<!'); at >= 0; at = text.indexOf('<!', at + 2)) {
    const word = text.slice(at + 2, at + 9).toUpperCase();
    if (word === 'DOCTYPE' || word.startsWith('ENTITY')) {
      throw new UrdfError(`mesh "${file}": the Collada file declares a DTD or entities (<!${word}>); entities can expand to gigabytes and are not read`, file);
    }
  }
  // Every tag from '<' to the next '>': tags are disjoint, so this is one pass.
  let polygons = 0;
  let indexValues = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    let gt = text.indexOf('>', lt + 1);
    if (gt < 0) gt = n;
    let nameEnd = lt + 1;
    while (nameEnd < gt && !isSpaceCode(text.charCodeAt(nameEnd)) && text[nameEnd] !== '/') nameEnd++;
    const name = text.slice(lt + 1, nameEnd);
    if (COLLADA_PRIMITIVES.includes(name)) {
      const m = /\bcount\s*=\s*["']\s*(\d{1,12})\s*["']/.exec(text.slice(nameEnd, gt));
      if (m) polygons += Number(m[1]);
      if (polygons > VISUAL_MESH_MAX_TRIANGLES) throw tooMany(file, 'polygons', VISUAL_MESH_MAX_TRIANGLES);
    } else if ((name === 'p' || name === 'vcount' || name === 'v') && text[gt - 1] !== '/') {
      // Index values up to the next '<' (the closing tag).
      let close = text.indexOf('<', gt + 1);
      if (close < 0) close = n;
      let inToken = false;
      for (let k = gt + 1; k < close; k++) {
        const blank = isSpaceCode(text.charCodeAt(k));
        if (!blank && !inToken && ++indexValues > COLLADA_MAX_INDEX_VALUES) throw tooMany(file, 'index values', COLLADA_MAX_INDEX_VALUES);
        inToken = !blank;
      }
      gt = close - 1;
    }
    i = gt + 1;
  }
}

function checkStl(file: string, bytes: Uint8Array): void {
  if (bytes.byteLength >= STL_HEADER_BYTES) {
    const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    if (STL_HEADER_BYTES + STL_RECORD_BYTES * n === bytes.byteLength) {
      if (n > VISUAL_MESH_MAX_TRIANGLES) throw tooMany(file, 'triangles', VISUAL_MESH_MAX_TRIANGLES);
      return;
    }
  }
  // ASCII: one "endloop" per facet.
  const text = new TextDecoder('latin1').decode(bytes);
  let facets = 0;
  for (let at = text.indexOf('endloop'); at >= 0; at = text.indexOf('endloop', at + 7)) {
    if (++facets > VISUAL_MESH_MAX_TRIANGLES) throw tooMany(file, 'triangles', VISUAL_MESH_MAX_TRIANGLES);
  }
}
