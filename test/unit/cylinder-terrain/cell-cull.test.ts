/**
 * The cell cull (cell-cull.ts) drops cells and elements before their exact frame is built. It
 * must be conservative: every face contact the exact path finds at a point inside the cylinder
 * must still be among the query's candidates. Reference: every element of every cell in the
 * cylinder's AABB, each given its exact frame and its case (A, B or C), no culling at all. (The
 * element-wall contacts are checked by the completeness oracle, test/oracle/cylinder-completeness.)
 *
 * Case A rim points whose foot lies outside the cylinder (a base resting on a plane: B_L and D±
 * are outside by s·sinθ) are not compared: they are not points where the element meets the
 * cylinder, which is all the cull promises to keep.
 *
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer, WheelContactKind } from '../../../sim/collision/contact';
import { BaseEllipseScratch, baseEllipseContacts } from '../../../sim/collision/cylinder-terrain/case-a-base-ellipse';
import { sideTrapezoidContacts } from '../../../sim/collision/cylinder-terrain/case-b-side-trapezoid';
import { LineClip } from '../../../sim/collision/cylinder-terrain/case-b-side-trapezoid';
import { singlePointContact } from '../../../sim/collision/cylinder-terrain/case-c-single-point';
import { footprintRows, reachableCells, scanRowsMinMax, SCREEN_APART, screenElement, setupCull, slabRows } from '../../../sim/collision/cylinder-terrain/cell-cull';
import { cylinderCellRangeOf } from '../../../sim/collision/cylinder-terrain/cell-range';
import { collideCylinderTerrainInto } from '../../../sim/collision/cylinder-terrain/collide';
import { CylinderQuery, ElementFrame, ElementTest, setElementFrame } from '../../../sim/collision/cylinder-terrain/frame';
import { CylinderTerrainStatus, CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import { Rng } from '../../../sim/math/random';
import { fractalTerrain, randomCurbs } from '../../../sim/terrain/generate';
import { ElementKind, type Heightfield } from '../../../sim/terrain/heightfield';
import { norm, type V3 } from './helpers';

const COLS = 97;
const DX = 0.05;
const grid = { cols: COLS, dx: DX };
const hf = fractalTerrain({
  ...grid,
  seed: 31,
  amplitude: 0.4,
  roughness: 0.55,
  curbs: randomCurbs(grid, { seed: 32, count: 8, height: 0.1, margin: 0.6 }),
});

/** Gentler ground (slopes like the benchmark's 513² scene). */
const gentle = fractalTerrain({
  ...grid,
  seed: 33,
  amplitude: 0.08,
  roughness: 0.5,
  curbs: randomCurbs(grid, { seed: 34, count: 6, height: 0.1, margin: 0.6 }),
});

interface Pose {
  center: V3;
  axis: V3;
  radius: number;
  halfHeight: number;
}

/** Wheels (axle near horizontal), standing and tilted cylinders, 0–8 cm (or 0–`deepest`) into the terrain. */
function poses(seed: number, count: number, deepest = 0.08, terrain: Heightfield = hf): Pose[] {
  const rng = new Rng(seed);
  const out: Pose[] = [];
  const half = ((COLS - 1) * DX) / 2 - 0.7;
  for (let k = 0; k < count; k++) {
    const yaw = rng.range(0, 2 * Math.PI);
    const style = rng.next();
    const tilt = style < 0.6 ? rng.range(-0.2, 0.2) : style < 0.8 ? Math.PI / 2 - rng.range(0, 0.2) : rng.range(0.3, 1.3);
    const axis = norm([Math.cos(yaw) * Math.cos(tilt), Math.sin(yaw) * Math.cos(tilt), Math.sin(tilt)]);
    const radius = rng.range(0.1, 0.4);
    const halfHeight = rng.range(0.04, 0.2);
    const x = rng.range(-half, half), y = rng.range(-half, half);
    const low = halfHeight * Math.abs(axis[2]) + radius * Math.sqrt(Math.max(0, 1 - axis[2] * axis[2]));
    out.push({ center: [x, y, terrain.heightAt(x, y) + low - rng.range(0, deepest)], axis, radius, halfHeight });
  }
  return out;
}

/** Face contacts of every element in the cylinder's AABB, by the exact path alone. */
function referenceFaceContacts(p: Pose, terrain: Heightfield): ContactBuffer {
  const out = new ContactBuffer(4096);
  const q = new CylinderQuery();
  const [vx, vy, vz] = p.axis;
  q.set(p.center, p.axis, { radius: p.radius, halfHeight: p.halfHeight }, terrain);
  const reach = (v: number): number => p.halfHeight * Math.abs(v) + p.radius * Math.sqrt(Math.max(0, 1 - v * v));
  const i0 = Math.max(0, Math.floor((p.center[0] - reach(vx) - terrain.x0) / terrain.dx));
  const i1 = Math.min(terrain.cellsX - 1, Math.ceil((p.center[0] + reach(vx) - terrain.x0) / terrain.dx) - 1);
  const j0 = Math.max(0, Math.floor((p.center[1] - reach(vy) - terrain.y0) / terrain.dy));
  const j1 = Math.min(terrain.cellsY - 1, Math.ceil((p.center[1] + reach(vy) - terrain.y0) / terrain.dy) - 1);
  const f = new ElementFrame();
  const clip = new LineClip();
  const baseScratch = new BaseEllipseScratch();
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const kinds = terrain.cellIsRectangle(i, j) ? [ElementKind.Rectangle] : [ElementKind.LowerTriangle, ElementKind.UpperTriangle];
      for (const kind of kinds) {
        if (setElementFrame(f, q, terrain, i, j, kind) !== ElementTest.Frame) continue;
        if (f.sAU > 0) sideTrapezoidContacts(out, terrain, f, clip);
        else if (f.sBL > 0) baseEllipseContacts(out, terrain, f, baseScratch);
        else singlePointContact(out, terrain, f, clip);
      }
    }
  }
  return out;
}

const FACE_FEATURES = new Set<number>([ElementKind.Rectangle, ElementKind.LowerTriangle, ElementKind.UpperTriangle]);

/** Is world point (x, y, z) in the pose's cylinder (within 1 nm)? */
function inCylinder(p: Pose, x: number, y: number, z: number): boolean {
  const dx = x - p.center[0], dy = y - p.center[1], dz = z - p.center[2];
  const t = dx * p.axis[0] + dy * p.axis[1] + dz * p.axis[2];
  const rx = dx - t * p.axis[0], ry = dy - t * p.axis[1], rz = dz - t * p.axis[2];
  return Math.abs(t) <= p.halfHeight + 1e-9 && Math.hypot(rx, ry, rz) <= p.radius + 1e-9;
}

/** "i,j,feature,kind,x,y,z,depth" keys of the face contacts in `b` at points inside the cylinder (exact coordinates). */
function faceKeys(b: ContactBuffer, p: Pose): string[] {
  const keys: string[] = [];
  for (let k = 0; k < b.count; k++) {
    if (!FACE_FEATURES.has(b.feature[k])) continue;
    if (!inCylinder(p, b.point[3 * k], b.point[3 * k + 1], b.point[3 * k + 2])) continue;
    keys.push([b.cellI[k], b.cellJ[k], b.feature[k], b.kind[k], b.point[3 * k], b.point[3 * k + 1], b.point[3 * k + 2], b.depth[k]].join(','));
  }
  return keys.sort();
}

describe('cell cull (narrow phase)', () => {
  for (const [name, terrain, seed, deepest] of [['rough ground with curbs', hf, 2718, 0.08], ['gentle ground, deep poses', gentle, 1620, 0.3]] as const) {
    it(`keeps every face contact of the exact path inside the cylinder, bit for bit, over 600 seeded poses (${name})`, () => {
      const ws = new CylinderTerrainWorkspace();
      const out = new ContactBuffer(256);
      let compared = 0;
      let faceContacts = 0;
      let overflows = 0;
      for (const p of poses(seed, 600, deepest, terrain)) {
        out.clear();
        const status = collideCylinderTerrainInto(out, p.center, p.axis, p, terrain, ws);
        if (ws.flatPatch) continue; // the exact flat-patch path has no per-element stage
        // A base 30 cm deep on a 5 cm grid: case A's vertices fill the candidate buffer (the
        // status says so); nothing to compare.
        if (status & CylinderTerrainStatus.CandidateOverflow) { overflows++; continue; }
        const expected = faceKeys(referenceFaceContacts(p, terrain), p);
        const got = new Set(faceKeys(ws.candidates, p));
        expect(expected.filter((key) => !got.has(key))).toEqual([]);
        compared++;
        faceContacts += expected.length;
      }
      // The poses exercise the test: most are compared, and they have face contacts to lose.
      expect(compared).toBeGreaterThan(500);
      expect(overflows).toBeLessThan(50);
      expect(faceContacts).toBeGreaterThan(600);
    });
  }
});

/** Samples per side of an element's (u, v) square for the brute-force check below (2 mm on a 5 cm cell). */
const APART_SAMPLES = 25;

/** Does any sample of element `kind` of cell (i, j) (its plane over the cell, (u, v) on a grid) lie in the pose's cylinder? */
function elementMeetsCylinder(p: Pose, terrain: Heightfield, i: number, j: number, kind: ElementKind): boolean {
  const H = terrain.heights, c = terrain.cols, kv = j * c + i;
  const h0 = H[kv], h1 = H[kv + 1], h2 = H[kv + c], h3 = H[kv + c + 1];
  for (let a = 0; a <= APART_SAMPLES; a++) {
    for (let b = 0; b <= APART_SAMPLES; b++) {
      const u = a / APART_SAMPLES, v = b / APART_SAMPLES;
      if (kind === ElementKind.LowerTriangle && u + v > 1) continue;
      if (kind === ElementKind.UpperTriangle && u + v < 1) continue;
      const z = kind === ElementKind.UpperTriangle ? h3 - (1 - u) * (h3 - h2) - (1 - v) * (h3 - h1) : h0 + u * (h1 - h0) + v * (h2 - h0);
      if (inCylinder(p, terrain.x0 + (i + u) * terrain.dx, terrain.y0 + (j + v) * terrain.dy, z)) return true;
    }
  }
  return false;
}

describe('element screen: SCREEN_APART (elementApart)', () => {
  it('is only given to elements that do not meet the cylinder (brute-force sampling, 120 seeded poses on both terrains)', () => {
    const ws = new CylinderTerrainWorkspace();
    const f = new ElementFrame();
    let apart = 0, belowPlane = 0, meeting = 0;
    for (const [terrain, seed] of [[hf, 4242], [gentle, 4343]] as const) {
      for (const p of poses(seed, 60, 0.08, terrain)) {
        ws.query.set(p.center, p.axis, p, terrain);
        const reach = (v: number): number => p.halfHeight * Math.abs(v) + p.radius * Math.sqrt(Math.max(0, 1 - v * v));
        const i0 = Math.max(0, Math.floor((p.center[0] - reach(p.axis[0]) - terrain.x0) / terrain.dx));
        const i1 = Math.min(terrain.cellsX - 1, Math.floor((p.center[0] + reach(p.axis[0]) - terrain.x0) / terrain.dx));
        const j0 = Math.max(0, Math.floor((p.center[1] - reach(p.axis[1]) - terrain.y0) / terrain.dy));
        const j1 = Math.min(terrain.cellsY - 1, Math.floor((p.center[1] + reach(p.axis[1]) - terrain.y0) / terrain.dy));
        for (let j = j0; j <= j1; j++) {
          for (let i = i0; i <= i1; i++) {
            const kinds = terrain.cellIsRectangle(i, j) ? [ElementKind.Rectangle] : [ElementKind.LowerTriangle, ElementKind.UpperTriangle];
            for (const kind of kinds) {
              ws.walls.count = 0;
              if (screenElement(ws, ws.query, terrain, i, j, kind) !== SCREEN_APART) continue;
              apart++;
              // Below its plane: the verdict came from the depth bound, not from s(A_L) < 0.
              if (setElementFrame(f, ws.query, terrain, i, j, kind) === ElementTest.Frame) belowPlane++;
              if (elementMeetsCylinder(p, terrain, i, j, kind)) meeting++;
            }
          }
        }
      }
    }
    expect(meeting).toBe(0);
    // The verdict is exercised, by the depth bound too.
    expect(apart).toBeGreaterThan(2000);
    expect(belowPlane).toBeGreaterThan(2000);
  });
});

describe('slab cut of the footprint rows (slabRows)', () => {
  it('only removes cells wholly beyond one base plane (corner test, 200 seeded poses on both terrains)', () => {
    const ws = new CylinderTerrainWorkspace();
    const range = { min: NaN, max: NaN };
    let removed = 0, crossing = 0;
    for (const [terrain, seed] of [[hf, 5151], [gentle, 5252]] as const) {
      for (const p of poses(seed, 100, 0.08, terrain)) {
        const q = ws.query;
        q.set(p.center, p.axis, p, terrain);
        const cr = ws.cellRange;
        if (!cylinderCellRangeOf(cr, terrain, p.center, p.axis, { radius: p.radius, halfHeight: p.halfHeight })) continue;
        setupCull(ws.cull, q, terrain, ws.horizontalFrame);
        if (footprintRows(ws.cull, ws, terrain, cr.i0, cr.j0, cr.i1, cr.j1) === 0) continue;
        scanRowsMinMax(range, ws, terrain, cr.j0, cr.j1);
        const rows = cr.j1 - cr.j0 + 1;
        const lo = Array.from(ws.rowLo.subarray(0, rows)), hi = Array.from(ws.rowHi.subarray(0, rows));
        slabRows(ws, q, terrain, range, cr.j0, cr.j1);
        for (let r = 0; r < rows; r++) {
          for (let i = lo[r]; i <= hi[r]; i++) {
            if (i >= ws.rowLo[r] && i <= ws.rowHi[r]) continue;
            removed++;
            // ζ is affine over each element: the cell meets the slab iff its corners' ζ range does.
            const j = cr.j0 + r;
            let zMin = Infinity, zMax = -Infinity;
            for (const [di, dj] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
              const x = terrain.x0 + (i + di) * terrain.dx - p.center[0], y = terrain.y0 + (j + dj) * terrain.dy - p.center[1];
              const zeta = x * p.axis[0] + y * p.axis[1] + (terrain.heights[(j + dj) * terrain.cols + i + di] - p.center[2]) * p.axis[2];
              zMin = Math.min(zMin, zeta);
              zMax = Math.max(zMax, zeta);
            }
            if (zMin <= p.halfHeight && zMax >= -p.halfHeight) crossing++;
          }
        }
      }
    }
    expect(crossing).toBe(0);
    // The cut is exercised.
    expect(removed).toBeGreaterThan(500);
  });
});

describe('per-cell bound (reachableCells)', () => {
  it('drops no cell with a surface point inside the cylinder, keeps cell order and bits (sampling, 200 seeded poses on both terrains)', () => {
    const ws = new CylinderTerrainWorkspace();
    const c = ws.cull;
    const S = 8; // samples per cell side
    let dropped = 0, kept = 0, droppedInside = 0, badBits = 0, badOrder = 0;
    for (const [terrain, seed] of [[hf, 6161], [gentle, 6262]] as const) {
      for (const p of poses(seed, 100, 0.08, terrain)) {
        const q = ws.query;
        q.set(p.center, p.axis, p, terrain);
        const cr = ws.cellRange;
        if (!cylinderCellRangeOf(cr, terrain, p.center, p.axis, { radius: p.radius, halfHeight: p.halfHeight })) continue;
        setupCull(c, q, terrain, ws.horizontalFrame);
        // The bound alone, over the whole cell range (no footprint rows, no slab cut).
        for (let j = cr.j0; j <= cr.j1; j++) { ws.rowLo[j - cr.j0] = cr.i0; ws.rowHi[j - cr.j0] = cr.i1; }
        const n = reachableCells(c, ws, terrain, cr.j0, cr.j1);
        expect(c.kept).toBe(n);
        const keptSet = new Set<number>();
        for (let k = 0; k < n; k++) {
          const i = c.keptI[k], j = c.keptJ[k];
          keptSet.add(j * terrain.cellsX + i);
          if (c.keptBits[k] !== terrain.cellBits[j * terrain.cellsX + i]) badBits++;
          if (k > 0 && !(j > c.keptJ[k - 1] || (j === c.keptJ[k - 1] && i > c.keptI[k - 1]))) badOrder++;
        }
        kept += n;
        for (let j = cr.j0; j <= cr.j1; j++) {
          for (let i = cr.i0; i <= cr.i1; i++) {
            if (keptSet.has(j * terrain.cellsX + i)) continue;
            dropped++;
            let inside = false;
            for (let a = 0; a <= S && !inside; a++) {
              for (let b = 0; b <= S && !inside; b++) {
                const x = terrain.x0 + (i + a / S) * terrain.dx, y = terrain.y0 + (j + b / S) * terrain.dy;
                inside = inCylinder(p, x, y, terrain.heightAt(x, y));
              }
            }
            if (inside) droppedInside++;
          }
        }
      }
    }
    expect(droppedInside).toBe(0);
    expect(badBits).toBe(0);
    expect(badOrder).toBe(0);
    // The bound is exercised both ways.
    expect(dropped).toBeGreaterThan(2000);
    expect(kept).toBeGreaterThan(2000);
  });
});
