/**
 * Fuzzing the mesh readers (issue #28): the sim's STL and OBJ readers (collision meshes), the
 * visual-mesh limits (sim/robot/mesh/visual-limits.ts) and the renderer's visual builder
 * (renderer/view3d/robot-visuals.ts: STL through the sim's reader, OBJ through three's
 * OBJLoader; Collada is measured only, since three's ColladaLoader needs the browser's DOMParser).
 *
 * The property, for every input:
 *   - parseStl / parseObj / parseCollada return finite positions and in-range indices, or throw UrdfError;
 *   - checkVisualMesh returns or throws UrdfError;
 *   - buildRobotVisuals never throws: the mesh is drawn, or left out with one warning naming the link;
 *   - the property's peak-RSS growth stays under PEAK_RSS_BUDGET_BYTES.
 * Bounded by counts and sizes, not by a clock: every input is under 2 MiB, and the adversarial
 * generators (one huge face, an entity bomb, repeated "solid", lying counts) sit just past the
 * limits so a reader that counts after working would show up as memory, and one that does not
 * count at all as a load that should have been refused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Rng } from '../../sim/math/random';
import { parseObj } from '../../sim/robot/mesh/obj';
import { parseStl } from '../../sim/robot/mesh/stl';
import { parseCollada } from '../../sim/robot/mesh/collada';
import type { TriangleMesh } from '../../sim/robot/mesh/triangle-mesh';
import { checkVisualMesh, OBJ_MAX_FACE_CORNERS, VISUAL_MESH_MAX_TRIANGLES } from '../../sim/robot/mesh/visual-limits';
import { UrdfError } from '../../sim/robot/urdf/urdf-error';
import { buildRobotVisuals } from '../../renderer/view3d/robot-visuals';
import type { VisualSpec } from '../../sim/app/protocol';
import { FUZZ_SEED, FUZZ_TIMEOUT_MS, MAX_MESSAGE_LENGTH, PEAK_RSS_BUDGET_BYTES, peakRss, runs } from './fuzz-budget';

const enc = new TextEncoder();
/** Inputs per property in CI. */
const CI_RUNS = 400;
/** [bytes] Largest fuzz input. */
const MAX_INPUT_BYTES = 2 * 1024 * 1024;

function pick<T>(rng: Rng, a: readonly T[]): T {
  return a[rng.int(0, a.length - 1)];
}

/** A unit cube in every format the readers take. */
function seeds(): { name: string; bytes: Uint8Array }[] {
  const v = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
  const f = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]];
  const bin = new Uint8Array(84 + 50 * f.length);
  const dv = new DataView(bin.buffer);
  dv.setUint32(80, f.length, true);
  f.forEach((t, i) => t.forEach((vi, c) => v[vi].forEach((x, k) => dv.setFloat32(84 + 50 * i + 12 + 12 * c + 4 * k, x, true))));
  const ascii = `solid c\n${f.map((t) => `facet normal 0 0 0\nouter loop\n${t.map((vi) => `vertex ${v[vi].join(' ')}\n`).join('')}endloop\nendfacet\n`).join('')}endsolid c\n`;
  const obj = `# cube\n${v.map((p) => `v ${p.join(' ')}`).join('\n')}\nvn 0 0 1\n${f.map((t) => `f ${t.map((i) => `${i + 1}//1`).join(' ')}`).join('\n')}\n`;
  const positions = v.flat().join(' ');
  const dae =
    `<?xml version="1.0"?><COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1"><library_geometries><geometry id="g"><mesh>` +
    `<source id="p"><float_array id="pa" count="24">${positions}</float_array></source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>` +
    `<triangles count="12"><input semantic="VERTEX" source="#v" offset="0"/><p>${f.flat().join(' ')}</p></triangles></mesh></geometry></library_geometries></COLLADA>`;
  return [
    { name: 'c.stl', bytes: bin },
    { name: 'a.stl', bytes: enc.encode(ascii) },
    { name: 'c.obj', bytes: enc.encode(obj) },
    { name: 'c.dae', bytes: enc.encode(dae) },
  ];
}

const TOKENS = ['f', 'v', 'vn', 'l', 'p', '\\\n', '\r\n', ' ', '\t', '/', '//', '-1', '0', '1e308', 'nan', '-', '<!DOCTYPE x [<!ENTITY a "aa">]>', '&a;', '<p>', '</p>', 'count="99999999"', 'solid', 'endloop', 'facet', '\u0000', '\uFFFF'];

/** One structural or byte-level mutation. */
function mutate(bytes: Uint8Array, rng: Rng): Uint8Array {
  const op = rng.int(0, 6);
  if (op === 0) {
    const b = bytes.slice();
    for (let k = rng.int(1, 8); k > 0; k--) b[rng.int(0, b.length - 1)] ^= 1 << rng.int(0, 7);
    return b;
  }
  if (op === 1) return bytes.slice(0, rng.int(0, bytes.length));
  if (op === 2 && bytes.length >= 84) {
    // a binary STL's triangle count rewritten
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(80, pick(rng, [0, 1, 11, 13, 0xffffffff, VISUAL_MESH_MAX_TRIANGLES + 1, rng.int(0, 1 << 30)]), true);
    return b;
  }
  const text = new TextDecoder().decode(bytes);
  const at = rng.int(0, text.length);
  if (op === 3) return enc.encode(text.slice(0, at) + pick(rng, TOKENS) + text.slice(at));
  if (op === 4) {
    // a line or span repeated (grows faces, vertex lists, index lists)
    const end = Math.min(text.length, at + rng.int(1, 40));
    const times = rng.int(2, 200);
    const grown = text.slice(0, end) + text.slice(at, end).repeat(times) + text.slice(end);
    return enc.encode(grown.length > MAX_INPUT_BYTES ? grown.slice(0, MAX_INPUT_BYTES) : grown);
  }
  if (op === 5) {
    // a number replaced
    const m = /-?\d+(\.\d+)?/g;
    const spans: [number, number][] = [];
    for (let r = m.exec(text); r && spans.length < 500; r = m.exec(text)) spans.push([r.index, r.index + r[0].length]);
    if (spans.length === 0) return bytes;
    const [a, b] = pick(rng, spans);
    return enc.encode(text.slice(0, a) + pick(rng, ['0', '-1', '-9', '99999999', '1e-320', 'NaN', '4294967296', '']) + text.slice(b));
  }
  return enc.encode(text.slice(0, at) + text.slice(Math.min(text.length, at + rng.int(1, 30))));
}

/** Inputs just past each limit, built to cost memory or time in a reader that does not count first. */
function adversarial(rng: Rng): { name: string; bytes: Uint8Array } {
  const tri = 'v 0 0 0\nv 1 0 0\nv 0 1 0\n';
  switch (rng.int(0, 4)) {
    case 0: {
      const corners = OBJ_MAX_FACE_CORNERS + rng.int(1, 50_000);
      return { name: 'face.obj', bytes: enc.encode(`${tri}f ${Array.from({ length: corners }, (_, i) => String(1 + (i % 3))).join(' ')}\n`) };
    }
    case 1: {
      const refs = rng.int(10, 3000);
      return { name: 'bomb.dae', bytes: enc.encode(`<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "${'x'.repeat(300)}">]><COLLADA>${'&a;'.repeat(refs)}</COLLADA>`) };
    }
    case 2:
      return { name: 'solid.stl', bytes: enc.encode('solid '.repeat(rng.int(1, 50_000))) };
    case 3:
      return { name: 'lying.dae', bytes: enc.encode(`<COLLADA><triangles count="1"><p>${'0 '.repeat(rng.int(1, 800_000))}</p></triangles></COLLADA>`) };
    default: {
      // 4 triangles a face: just past the visual budget (refused before three's loader sees it).
      const faces = VISUAL_MESH_MAX_TRIANGLES / 4 + rng.int(1, 5000);
      return { name: 'many.obj', bytes: enc.encode(tri + 'f 1 2 3 1 2 3\n'.repeat(faces)) };
    }
  }
}

function checkMesh(m: TriangleMesh, what: string): void {
  for (let k = 0; k < m.positions.length; k++) if (!Number.isFinite(m.positions[k])) throw new Error(`${what}: non-finite position ${k}`);
  const nv = m.positions.length / 3;
  for (let k = 0; k < m.indices.length; k++) if (!(m.indices[k] < nv)) throw new Error(`${what}: index ${k} out of range`);
}

/** The property for one file: every reader loads or throws a short UrdfError; the visual builder never throws. */
function exercise(name: string, bytes: Uint8Array, what: string): 'loaded' | 'refused' {
  const documented = (fn: () => void): boolean => {
    try {
      fn();
      return true;
    } catch (e) {
      if (!(e instanceof UrdfError)) throw new Error(`${what}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      expect(e.message.length).toBeLessThan(MAX_MESSAGE_LENGTH);
      return false;
    }
  };
  let loaded = true;
  if (name.endsWith('.stl')) loaded = documented(() => checkMesh(parseStl(bytes, name), what)) && loaded;
  if (name.endsWith('.obj')) loaded = documented(() => checkMesh(parseObj(bytes, name), what)) && loaded;
  if (name.endsWith('.dae')) loaded = documented(() => checkMesh(parseCollada(bytes, name), what)) && loaded;
  loaded = documented(() => checkVisualMesh(name, bytes)) && loaded;
  if (!name.endsWith('.dae')) {
    const spec = { body: 'b', link: 'l', position: [0, 0, 0], orientation: [0, 0, 0, 1], geometry: { type: 'mesh', file: name, uri: name, scale: [1, 1, 1] } } as VisualSpec;
    const r = buildRobotVisuals([spec], () => bytes);
    expect(r.warnings.length + (r.byBody.get('b')?.children.length ?? 0), what).toBe(1);
    if (r.warnings.length > 0) expect(r.warnings[0]).toMatch(/^link "l": visual not drawn: /);
  }
  return loaded ? 'loaded' : 'refused';
}

describe('mesh readers fuzz (issue #28)', () => {
  // three's OBJLoader reports every line it skips on console.warn: thousands of lines of noise here.
  beforeAll(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
  afterAll(() => vi.restoreAllMocks());

  it(
    `${runs(CI_RUNS)} seeded mutations of STL, OBJ and Collada cubes: load or UrdfError, visuals drawn or warned, bounded memory`,
    () => {
      const rng = new Rng(FUZZ_SEED + 28_001);
      const base = seeds();
      const before = peakRss();
      const seen = { loaded: 0, refused: 0 };
      for (let n = 0; n < runs(CI_RUNS); n++) {
        const s = pick(rng, base);
        let b = s.bytes;
        for (let k = rng.int(1, 3); k > 0; k--) b = mutate(b, rng);
        seen[exercise(s.name, b, `input ${n} (${s.name}, seed ${FUZZ_SEED})`)]++;
      }
      expect(peakRss() - before).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
      // Both outcomes occur, or the mutations test nothing.
      expect(seen.loaded).toBeGreaterThan(runs(CI_RUNS) / 20);
      expect(seen.refused).toBeGreaterThan(runs(CI_RUNS) / 20);
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    `${runs(15)} adversarial inputs just past the limits are refused with UrdfError, within the memory budget`,
    () => {
      const rng = new Rng(FUZZ_SEED + 28_002);
      const before = peakRss();
      for (let n = 0; n < runs(15); n++) {
        const a = adversarial(rng);
        exercise(a.name, a.bytes, `adversarial ${n} (${a.name})`);
        // Past a limit means refused by the visual check, whatever the collision reader says.
        if (a.name !== 'solid.stl' && a.name !== 'lying.dae') expect(() => checkVisualMesh(a.name, a.bytes)).toThrow(UrdfError);
      }
      expect(peakRss() - before).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
    },
    FUZZ_TIMEOUT_MS,
  );
});
