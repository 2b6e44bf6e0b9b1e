/**
 * The narrow phase drops most elements with a quick test before their exact frame is built
 * (collide.ts, cullCells). It must be conservative: every face contact the exact path finds
 * must still be among the query's candidates. Reference: every element of every cell in the
 * cylinder's AABB, each given its exact frame and its case (A, B or C), no culling at all.
 *
 * Case B and C contacts are compared (their points lie inside the cylinder, so no per-cell bound
 * may drop them); case A rim points may lie just outside the cylinder and are the per-cell
 * bound's to judge, which this test is not about.
 *
 * The face prefilter, which lets whole cells skip the quick test, is checked the direct way:
 * every candidate, of every kind, with it on and off.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer, WheelContactKind } from '../../../sim/collision/contact';
import { baseEllipseContacts } from '../../../sim/collision/cylinder-terrain/case-a-base-ellipse';
import { sideTrapezoidContacts } from '../../../sim/collision/cylinder-terrain/case-b-side-trapezoid';
import { singlePointContact } from '../../../sim/collision/cylinder-terrain/case-c-single-point';
import { collideCylinderTerrainInto, cylinderTerrainOptions } from '../../../sim/collision/cylinder-terrain/collide';
import { CylinderQuery, ElementFrame, ElementTest, setElementFrame } from '../../../sim/collision/cylinder-terrain/frame';
import { CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
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

/** Gentler ground (slopes like the benchmark's 513² scene), where the face prefilter acts most. */
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

/** Case B/C face contacts of every element in the cylinder's AABB, by the exact path alone. */
function referenceFaceContacts(p: Pose, terrain: Heightfield): ContactBuffer {
  const out = new ContactBuffer(4096);
  const q = new CylinderQuery();
  const [vx, vy, vz] = p.axis;
  q.set(p.center[0], p.center[1], p.center[2], vx, vy, vz, p.radius, p.halfHeight, terrain);
  const reach = (v: number): number => p.halfHeight * Math.abs(v) + p.radius * Math.sqrt(Math.max(0, 1 - v * v));
  const i0 = Math.max(0, Math.floor((p.center[0] - reach(vx) - terrain.x0) / terrain.dx));
  const i1 = Math.min(terrain.cellsX - 1, Math.ceil((p.center[0] + reach(vx) - terrain.x0) / terrain.dx) - 1);
  const j0 = Math.max(0, Math.floor((p.center[1] - reach(vy) - terrain.y0) / terrain.dy));
  const j1 = Math.min(terrain.cellsY - 1, Math.ceil((p.center[1] + reach(vy) - terrain.y0) / terrain.dy) - 1);
  const f = new ElementFrame();
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const kinds = terrain.cellIsRectangle(i, j) ? [ElementKind.Rectangle] : [ElementKind.LowerTriangle, ElementKind.UpperTriangle];
      for (const kind of kinds) {
        if (setElementFrame(f, q, terrain, i, j, kind) !== ElementTest.Frame) continue;
        if (f.sAU > 0) sideTrapezoidContacts(out, terrain, f);
        else if (f.sBL > 0) {
          baseEllipseContacts(out, terrain, f);
          singlePointContact(out, terrain, f, true);
        } else singlePointContact(out, terrain, f, false);
      }
    }
  }
  return out;
}

const FACE_FEATURES = new Set<number>([ElementKind.Rectangle, ElementKind.LowerTriangle, ElementKind.UpperTriangle]);

/** "i,j,feature,kind,x,y,z,depth" keys of the case B/C face contacts in `b` (exact coordinates). */
function faceKeys(b: ContactBuffer): string[] {
  const keys: string[] = [];
  for (let k = 0; k < b.count; k++) {
    if (!FACE_FEATURES.has(b.feature[k])) continue;
    if (b.kind[k] !== WheelContactKind.SideB && b.kind[k] !== WheelContactKind.PointC) continue;
    keys.push([b.cellI[k], b.cellJ[k], b.feature[k], b.kind[k], b.point[3 * k], b.point[3 * k + 1], b.point[3 * k + 2], b.depth[k]].join(','));
  }
  return keys.sort();
}

describe('quick element test (narrow phase)', () => {
  it('keeps every case B/C face contact of the exact path, bit for bit, over 600 seeded poses', () => {
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(256);
    let compared = 0;
    let faceContacts = 0;
    for (const p of poses(2718, 600)) {
      out.clear();
      collideCylinderTerrainInto(out, p.center, p.axis, p, hf, ws);
      if (ws.flatPatch) continue; // the exact flat-patch path has no per-element stage
      const expected = faceKeys(referenceFaceContacts(p, hf));
      expect(faceKeys(ws.candidates)).toEqual(expected);
      compared++;
      faceContacts += expected.length;
    }
    // The poses exercise the test: most are compared, and they have face contacts to lose.
    expect(compared).toBeGreaterThan(550);
    expect(faceContacts).toBeGreaterThan(600);
  });

  it('face prefilter: the same candidates with it on and off, bit for bit, shallow and deep poses', () => {
    // The prefilter skips the quick test of cells its slope bound proves have no face contact
    // (case A/B/C). Deep poses put base discs under element planes (case A), which its slope
    // cap must keep out. Every field of every candidate is compared, in order.
    const ws = new CylinderTerrainWorkspace();
    const out = new ContactBuffer(256);
    const dump = (): string[] => {
      const b = ws.candidates;
      const rows: string[] = [];
      for (let k = 0; k < b.count; k++) {
        rows.push([b.cellI[k], b.cellJ[k], b.feature[k], b.kind[k], b.depth[k], ...b.point.subarray(3 * k, 3 * k + 3), ...b.normal.subarray(3 * k, 3 * k + 3)].join(','));
      }
      return rows;
    };
    let prefiltered = 0;
    let baseContacts = 0;
    try {
      const cases: [Pose, Heightfield][] = [
        ...poses(1618, 300).map((p): [Pose, Heightfield] => [p, hf]),
        ...poses(1619, 300, 0.08, gentle).map((p): [Pose, Heightfield] => [p, gentle]),
        ...poses(1620, 300, 0.3, gentle).map((p): [Pose, Heightfield] => [p, gentle]),
      ];
      for (const [p, terrain] of cases) {
        cylinderTerrainOptions.facePrefilter = false;
        out.clear();
        collideCylinderTerrainInto(out, p.center, p.axis, p, terrain, ws);
        const off = dump();
        cylinderTerrainOptions.facePrefilter = true;
        out.clear();
        collideCylinderTerrainInto(out, p.center, p.axis, p, terrain, ws);
        expect(dump()).toEqual(off);
        prefiltered += ws.cellsPrefiltered;
        for (let k = 0; k < ws.candidates.count; k++) if (ws.candidates.kind[k] === WheelContactKind.BaseA) baseContacts++;
      }
    } finally {
      cylinderTerrainOptions.facePrefilter = true;
    }
    // It does skip cells, and the deep poses do produce case A contacts.
    expect(prefiltered).toBeGreaterThan(2000);
    expect(baseContacts).toBeGreaterThan(200);
  });
});
