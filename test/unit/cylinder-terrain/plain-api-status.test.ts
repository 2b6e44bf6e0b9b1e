/**
 * Issue #18: the plain forms must not hide what the engine forms report. collideCylinderTerrain
 * throws when the engine form says "cell range truncated" (a 25 m wheel used to return 18
 * contacts of a partial footprint), and validation messages print NaN as NaN (queryConvex used
 * JSON.stringify, which prints null).
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { collideCylinderTerrain } from '../../../sim/collision/cylinder-terrain/plain-api';
import { CylinderTerrainStatus, CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import { queryConvex } from '../../../sim/collision/query-convex';
import { Heightfield } from '../../../sim/terrain/heightfield';

const grid = Heightfield.fromArray({ cols: 301, rows: 301, dx: 0.1, dy: 0.1, x0: -15, y0: -15, heights: Array.from({ length: 301 * 301 }, (_, k) => 1e-3 * (k % 7)) });

describe('plain APIs keep the engine forms\' status', () => {
  it('a 25 m wheel: the engine form reports CellRangeTruncated, the plain form throws naming it', () => {
    const status = collideCylinderTerrainInto(new ContactBuffer(256), [0, 0, 24.9], [0, 1, 0], { radius: 25, halfHeight: 5 }, grid, new CylinderTerrainWorkspace());
    expect(status & CylinderTerrainStatus.CellRangeTruncated).toBeTruthy();
    expect(() => collideCylinderTerrain({ center: [0, 0, 24.9], axis: [0, 1, 0], radius: 25, height: 10 }, grid)).toThrow(
      /collideCylinderTerrain: radius 25 m, height 10 m: .* more than the 16384 cells one query visits \(cell range truncated\)/,
    );
  });

  it('a normal wheel still returns just { contacts }', () => {
    const res = collideCylinderTerrain({ center: [0, 0, 0.29], axis: [0, 1, 0], radius: 0.3, height: 0.2 }, grid);
    expect(Object.keys(res)).toEqual(['contacts']);
    expect(res.contacts.length).toBeGreaterThan(0);
  });

  it('collideCylinderTerrain prints NaN, deep and hostile values without throwing a TypeError', () => {
    const base = { center: [0, 0, 0.29], axis: [0, 1, 0], radius: 0.3, height: 0.2 };
    expect(() => collideCylinderTerrain({ ...base, radius: NaN }, grid)).toThrow(/radius must be a finite number > 0 \(m\), got NaN/);
    expect(() => collideCylinderTerrain({ ...base, center: [0, Infinity, 0] }, grid)).toThrow(/center\[1\] must be a finite number, got Infinity/);
    expect(() => collideCylinderTerrain({ ...base, center: { toString: 1 } as unknown as number[] }, grid)).toThrow(/center must be an array \[x, y, z\], got \{"toString":1\}/);
  });

  it('queryConvex prints NaN as NaN (was: null)', () => {
    const a = { shape: { type: 'sphere', radius: 1 }, position: [0, NaN, 0], orientation: [0, 0, 0, 1] } as never;
    const b = { shape: { type: 'sphere', radius: 1 }, position: [0, 0, 0], orientation: [0, 0, 0, 1] } as never;
    expect(() => queryConvex(a, b)).toThrow(/a\.position must be \[x, y, z\] of finite numbers, got \[0,NaN,0\]/);
    const c = { shape: { type: 'sphere', radius: 1 }, position: [0, 0, 0], orientation: [0, 0, Infinity, 1] } as never;
    expect(() => queryConvex(b, c)).toThrow(/b\.orientation must be \[x, y, z, w\] of finite numbers, got \[0,0,Infinity,1\]/);
    // Finite but overflowing: normalising would give a zero quaternion.
    const d = { shape: { type: 'sphere', radius: 1 }, position: [0, 0, 0], orientation: [1e308, 1e308, 1e308, 1e308] } as never;
    expect(() => queryConvex(b, d)).toThrow(/b\.orientation \[1e\+308,1e\+308,1e\+308,1e\+308\] is too large to normalise/);
  });
});
