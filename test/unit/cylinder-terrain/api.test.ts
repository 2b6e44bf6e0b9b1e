/**
 * The two API forms: the plain scripting call (validation, normalisation, result shape, exported
 * from sim/index.ts) and the allocation-free engine call (status bits, reuse, nothing grows).
 */
import { describe, expect, it } from 'vitest';
import * as sim from '../../../sim/index';
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { CylinderTerrainContext, collideCylinderTerrain } from '../../../sim/collision/cylinder-terrain/plain-api';
import { CylinderTerrainStatus, CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import { Rng } from '../../../sim/math/random';
import { fractalTerrain } from '../../../sim/terrain/generate';
import { Heightfield } from '../../../sim/terrain/heightfield';

const flat = Heightfield.fromArray({ cols: 21, rows: 21, dx: 0.1, dy: 0.1, x0: -1, y0: -1, heights: new Array(441).fill(0) });
const wheel = { center: [0.01, 0.02, 0.29] as [number, number, number], axis: [0, 1, 0] as [number, number, number], radius: 0.3, height: 0.2 };

describe('plain API collideCylinderTerrain', () => {
  it('is exported from sim/index.ts with the documented shape', () => {
    const hf = sim.Heightfield.fromArray({ cols: 21, rows: 21, dx: 0.1, dy: 0.1, x0: -1, y0: -1, heights: new Array(441).fill(0) });
    const res = sim.collideCylinderTerrain(wheel, hf);
    expect(Object.keys(res)).toEqual(['contacts']);
    expect(res.contacts.length).toBe(2);
    for (const c of res.contacts) {
      expect(Object.keys(c).sort()).toEqual(['cell', 'depth', 'kind', 'normal', 'point']);
      expect(c.point).toHaveLength(3);
      expect(c.normal).toEqual([0, 0, 1]);
      expect(c.depth).toBeCloseTo(0.01, 12);
      expect(c.kind).toBe('flat');
      expect(c.cell).toHaveLength(2);
      expect(hf.contains(c.point[0], c.point[1])).toBe(true);
    }
  });

  it('normalises a non-unit axis (same contacts as the unit axis)', () => {
    const a = collideCylinderTerrain(wheel, flat).contacts;
    const b = collideCylinderTerrain({ ...wheel, axis: [0, 7.5, 0] }, flat).contacts;
    expect(b).toEqual(a);
  });

  it('returns no contacts for a wheel in the air or off the map', () => {
    expect(collideCylinderTerrain({ ...wheel, center: [0, 0, 0.31] }, flat).contacts).toEqual([]);
    expect(collideCylinderTerrain({ ...wheel, center: [5, 5, 0.2] }, flat).contacts).toEqual([]);
  });

  it.each([
    ['NaN in the centre', { ...wheel, center: [0, Number.NaN, 0] }, /center\[1\] must be a finite number/],
    ['a 2-vector centre', { ...wheel, center: [0, 0] }, /center must have 3 components/],
    ['a zero axis', { ...wheel, axis: [0, 0, 0] }, /axis must be a non-zero vector/],
    ['an infinite axis', { ...wheel, axis: [Infinity, 0, 0] }, /axis\[0\] must be a finite number/],
    ['a negative radius', { ...wheel, radius: -0.3 }, /radius must be a finite number > 0/],
    ['a zero height', { ...wheel, height: 0 }, /height must be a finite number > 0/],
    ['a string radius', { ...wheel, radius: '0.3' }, /radius must be a finite number > 0/],
  ])('throws a clear Error for %s', (_name, desc, message) => {
    expect(() => collideCylinderTerrain(desc as never, flat)).toThrow(message);
  });

  it('throws when the terrain is not a Heightfield', () => {
    expect(() => collideCylinderTerrain(wheel, { cols: 2 } as never)).toThrow(/must be a Heightfield/);
  });

  it('a CylinderTerrainContext carries the buffers: two contexts interleaved answer as fresh buffers per call', () => {
    const hill = fractalTerrain({ cols: 41, dx: 0.05, seed: 7, amplitude: 0.1 });
    const a = new CylinderTerrainContext(), b = new CylinderTerrainContext();
    for (let k = 0; k < 20; k++) {
      const x = -0.6 + 0.06 * k, y = 0.3 - 0.03 * k;
      const c1 = { ...wheel, center: [x, y, hill.heightAt(x, y) + 0.28] };
      const c2 = { ...wheel, center: [y, x, hill.heightAt(y, x) + 0.27], axis: [1, 0, 0] };
      const r1 = collideCylinderTerrain(c1, hill, a);
      const cells1 = a.workspace.cellsVisited;
      const r2 = collideCylinderTerrain(c2, hill, b);
      expect(a.workspace.cellsVisited).toBe(cells1);
      expect(r1).toEqual(collideCylinderTerrain(c1, hill));
      expect(r2).toEqual(collideCylinderTerrain(c2, hill));
    }
    expect(() => collideCylinderTerrain(wheel, flat, {} as never)).toThrow(/must be a CylinderTerrainContext/);
  });
});

describe('engine API collideCylinderTerrainInto', () => {
  it('reports invalid input as a status instead of throwing, and leaves the output empty', () => {
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(16);
    expect(collideCylinderTerrainInto(out, [0, 0, 0.29], [0, 2, 0], { radius: 0.3, halfHeight: 0.1 }, flat, ws)).toBe(CylinderTerrainStatus.InvalidInput);
    expect(collideCylinderTerrainInto(out, [0, Number.NaN, 0.29], [0, 1, 0], { radius: 0.3, halfHeight: 0.1 }, flat, ws)).toBe(CylinderTerrainStatus.InvalidInput);
    expect(collideCylinderTerrainInto(out, [0, 0, 0.29], [0, 1, 0], { radius: 0, halfHeight: 0.1 }, flat, ws)).toBe(CylinderTerrainStatus.InvalidInput);
    expect(out.count).toBe(0);
  });

  it('reports a full output buffer as OutputOverflow and keeps what fits', () => {
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(1);
    const status = collideCylinderTerrainInto(out, [0.01, 0.02, 0.29], [0, 1, 0], { radius: 0.3, halfHeight: 0.1 }, flat, ws);
    expect(status & CylinderTerrainStatus.OutputOverflow).toBeTruthy();
    expect(out.count).toBe(1);
    expect(out.overflow).toBe(1);
  });

  it('appends to the output buffer (several wheels share one buffer)', () => {
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(16);
    collideCylinderTerrainInto(out, [0.01, 0.02, 0.29], [0, 1, 0], { radius: 0.3, halfHeight: 0.1 }, flat, ws);
    collideCylinderTerrainInto(out, [0.51, 0.02, 0.29], [0, 1, 0], { radius: 0.3, halfHeight: 0.1 }, flat, ws);
    expect(out.count).toBe(4);
  });

  it('records the terrain feature of each contact: element kind for faces, 3 + 4·edge for edges', () => {
    // Curb: rows ≤ 20 at z = 0, rows ≥ 21 at 0.1 (flat cells are rectangles: feature 0). A wheel
    // pressing on the curb's top edge = the bottom edge (CellEdge 0) of row-21 cells: feature 3.
    const heights: number[] = [];
    for (let j = 0; j < 41; j++) for (let i = 0; i < 41; i++) heights.push(j > 20 ? 0.1 : 0);
    const curb = Heightfield.fromArray({ cols: 41, rows: 41, dx: 0.05, dy: 0.05, x0: -1, y0: -1, heights });
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(16);
    collideCylinderTerrainInto(out, [0.013, -0.161, 0.309], [1, 0, 0], { radius: 0.3, halfHeight: 0.1 }, curb, ws);
    const kinds: string[] = [];
    for (let k = 0; k < out.count; k++) kinds.push(`${out.kind[k]}:${out.feature[k]}:${out.cellJ[k]}`);
    expect(kinds.filter((x) => x.startsWith('4:'))).toContain('4:3:21');
    for (const x of kinds.filter((y) => y.startsWith('2:'))) expect(x.split(':')[1]).toBe('0');
  });

  it('reports a footprint larger than CYLINDER_TERRAIN_MAX_CELLS as CellRangeTruncated, and still finds the centre contacts', () => {
    const fine = Heightfield.fromArray({ cols: 201, rows: 201, dx: 0.01, dy: 0.01, x0: -1, y0: -1, heights: new Array(201 * 201).fill(0).map((_, k) => 1e-3 * (k % 7)) });
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(64);
    const status = collideCylinderTerrainInto(out, [0.003, 0.002, 1.49], [0, 1, 0], { radius: 1.5, halfHeight: 1 }, fine, ws);
    expect(status & CylinderTerrainStatus.CellRangeTruncated).toBeTruthy();
    expect(out.count).toBeGreaterThan(0);
    for (let k = 0; k < out.count; k++) expect(Number.isFinite(out.depth[k]) && out.depth[k] > 0).toBe(true);
  });

  it('emits each terrain vertex at most once, also for a long thin cell range (vertex window of w × 1 cells)', () => {
    // A 6 m pipe lying along x over a 1 mm × 1 cm grid with a small ridge every 2 cm: ~6000 × 2
    // cells (under the 16,384-cell cap), a vertex window far wider than it is tall; the ridge
    // edges under it poke in and end at shared vertices.
    const cols = 8001, rows = 41;
    const heights = new Float64Array(cols * rows);
    for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) heights[j * cols + i] = i % 20 === 0 ? 0.004 : 0;
    const grid = Heightfield.fromArray({ cols, rows, dx: 0.001, dy: 0.01, x0: -4, y0: -0.2, heights });
    const ws = new CylinderTerrainWorkspace(4096);
    const out = new ContactBuffer(256);
    const status = collideCylinderTerrainInto(out, [0, 0.001, 0.005 + 0.003], [1, 0, 0], { radius: 0.005, halfHeight: 3 }, grid, ws);
    expect(status & (CylinderTerrainStatus.CellRangeTruncated | CylinderTerrainStatus.CandidateOverflow)).toBe(0);
    const c = ws.candidates;
    expect(c.count).toBeGreaterThan(300);
    const seen = new Set<string>();
    for (let k = 0; k < c.count; k++) {
      if (c.kind[k] !== 4) continue; // edge-pass contacts
      const key = `${c.point[3 * k]},${c.point[3 * k + 1]},${c.point[3 * k + 2]}`;
      expect(seen.has(key), `duplicate edge contact at ${key}`).toBe(false);
      seen.add(key);
    }
  });

  it('allocates nothing per call: buffers keep their identity and size over thousands of queries', () => {
    // Rough ground (±0.35 m over 3.2 m): up to ~70 points in ~20 normal groups per query.
    const hf = fractalTerrain({ cols: 65, dx: 0.05, seed: 3, amplitude: 0.2 });
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(256);
    const arrays = [ws.candidates.point, ws.candidates.depth, ws.groups.members, ws.groups.normal, out.point, out.depth];
    const sizes = arrays.map((a) => a.length);
    const rng = new Rng(5);
    const c: [number, number, number] = [0, 0, 0];
    const v: [number, number, number] = [0, 1, 0];
    let contacts = 0;
    for (let k = 0; k < 3000; k++) {
      c[0] = rng.range(-1, 1);
      c[1] = rng.range(-1, 1);
      c[2] = hf.heightAt(c[0], c[1]) + 0.3 - rng.range(0, 0.05);
      const yaw = rng.range(0, 6.3);
      v[0] = Math.cos(yaw); v[1] = Math.sin(yaw); v[2] = 0;
      out.clear();
      const status = collideCylinderTerrainInto(out, c, v, { radius: 0.3, halfHeight: 0.1 }, hf, ws);
      expect(status & ~CylinderTerrainStatus.GroupOverflow).toBe(0);
      contacts += out.count;
    }
    expect(contacts).toBeGreaterThan(3000);
    expect([ws.candidates.point, ws.candidates.depth, ws.groups.members, ws.groups.normal, out.point, out.depth]).toEqual(arrays);
    expect(arrays.map((a) => a.length)).toEqual(sizes);
    expect(ws.candidates.capacity).toBe(sizes[1]);
  });
});
