import { describe, expect, it } from 'vitest';
import { CYLINDER_TERRAIN_ACTIVE_EDGE_BEND, CYLINDER_TERRAIN_FLAT_EDGE_BEND } from '../../../sim/constants';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import { CellEdge, EdgeClass } from '../../../sim/terrain/edge-class';
import { ElementKind, Heightfield } from '../../../sim/terrain/heightfield';

/**
 * Oracle for the edge classes precomputed in Heightfield.cellBits: the bend from its definition
 * (edge-class.ts), evaluated with element PLANES (Heightfield.elementPlane) rather than the
 * four-height shortcut: the owner element's plane predicts the height at the neighbour
 * element's far vertex; bend = (predicted − actual) / horizontal distance of that vertex.
 */
function planeHeight(hf: Heightfield, i: number, j: number, kind: ElementKind, x: number, y: number): number {
  const n: Vec3 = [0, 0, 0];
  const k = hf.elementPlane(n, i, j, kind);
  return (k - n[0] * x - n[1] * y) / n[2];
}

function classOf(bend: number): EdgeClass {
  if (bend >= CYLINDER_TERRAIN_ACTIVE_EDGE_BEND) return EdgeClass.Active;
  if (bend > CYLINDER_TERRAIN_FLAT_EDGE_BEND) return EdgeClass.Convex;
  if (bend < -CYLINDER_TERRAIN_FLAT_EDGE_BEND) return EdgeClass.Concave;
  return EdgeClass.Flat;
}

/** Element of cell (i, j) holding the given edge, and the far vertex across it (or null on the border). */
function oracleBend(hf: Heightfield, i: number, j: number, edge: CellEdge): number | null {
  const low = hf.cellIsRectangle(i, j) ? ElementKind.Rectangle : ElementKind.LowerTriangle;
  const up = hf.cellIsRectangle(i, j) ? ElementKind.Rectangle : ElementKind.UpperTriangle;
  const far = (fi: number, fj: number, owner: ElementKind, dist: number): number => {
    const x = hf.vertexX(fi), y = hf.vertexY(fj);
    return (planeHeight(hf, i, j, owner, x, y) - hf.height(fi, fj)) / dist;
  };
  switch (edge) {
    case CellEdge.Bottom:
      return j === 0 ? null : far(i + 1, j - 1, low, hf.dy);
    case CellEdge.Left:
      return i === 0 ? null : far(i - 1, j + 1, low, hf.dx);
    case CellEdge.Top:
      return j + 1 >= hf.cellsY ? null : far(i, j + 2, up, hf.dy);
    case CellEdge.Right:
      return i + 1 >= hf.cellsX ? null : far(i + 2, j, up, hf.dx);
    default:
      if (hf.cellIsRectangle(i, j)) return 0;
      return far(i + 1, j + 1, ElementKind.LowerTriangle, (hf.dx * hf.dy) / Math.hypot(hf.dx, hf.dy));
  }
}

/** Random heights with flat plateaus, a tilted plane, 0.3 m steps and valleys: every class occurs. */
function mixedField(seed: number): Heightfield {
  const rng = new Rng(seed);
  const cols = 41, rows = 37, dx = 0.05, dy = 0.07;
  const heights = new Float64Array(cols * rows);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      let h: number;
      if (i < 10) h = 0.25; // plateau
      else if (i < 20) h = 0.1 * i * dx + 0.05 * j * dy; // tilted plane
      else if (i < 30) h = (j % 6 < 3 ? 0.3 : 0) + rng.range(-0.002, 0.002); // steps
      else h = 0.2 * Math.abs(i - 35) * dx + rng.range(-0.01, 0.01); // a valley
      heights[j * cols + i] = h;
    }
  }
  return Heightfield.fromArray({ cols, rows, dx, dy, x0: -1, y0: 2, heights });
}

describe('precomputed terrain edge classes', () => {
  it('agree with the bend computed from element planes, for every edge of every cell', () => {
    const counts = [0, 0, 0, 0];
    let ambiguous = 0;
    for (const seed of [1, 2, 3]) {
      const hf = mixedField(seed);
      for (let j = 0; j < hf.cellsY; j++) {
        for (let i = 0; i < hf.cellsX; i++) {
          for (const edge of [CellEdge.Bottom, CellEdge.Right, CellEdge.Top, CellEdge.Left, CellEdge.Diagonal]) {
            const bend = oracleBend(hf, i, j, edge);
            const got = hf.edgeClass(i, j, edge);
            if (bend === null) {
              expect(got).toBe(EdgeClass.Active);
              continue;
            }
            // The plane route rounds differently: skip bends within round-off of a threshold.
            const near = (t: number, tol: number): boolean => Math.abs(Math.abs(bend) - t) < tol;
            if (near(CYLINDER_TERRAIN_FLAT_EDGE_BEND, 1e-13) || near(CYLINDER_TERRAIN_ACTIVE_EDGE_BEND, 1e-9)) {
              ambiguous++;
              continue;
            }
            expect(got, `cell (${i}, ${j}) edge ${edge}, bend ${bend}`).toBe(classOf(bend));
            counts[got]++;
          }
        }
      }
    }
    // Every class is exercised, and only a few bends sit on a threshold.
    for (const c of counts) expect(c).toBeGreaterThan(100);
    expect(ambiguous).toBeLessThan(50);
  });

  it('sees a shared edge the same from both cells', () => {
    const hf = mixedField(7);
    for (let j = 0; j + 1 < hf.cellsY; j++) {
      for (let i = 0; i + 1 < hf.cellsX; i++) {
        expect(hf.edgeClass(i, j, CellEdge.Top)).toBe(hf.edgeClass(i, j + 1, CellEdge.Bottom));
        expect(hf.edgeClass(i, j, CellEdge.Right)).toBe(hf.edgeClass(i + 1, j, CellEdge.Left));
      }
    }
  });
});

describe('edge class encoding', () => {
  it('the classes that poke into a wheel (Convex, Active) are exactly those with bit 1 set (collide.ts, pokes, tests that bit)', () => {
    for (const c of [EdgeClass.Flat, EdgeClass.Concave, EdgeClass.Convex, EdgeClass.Active]) {
      expect((c & 2) !== 0).toBe(c === EdgeClass.Convex || c === EdgeClass.Active);
    }
  });
});
