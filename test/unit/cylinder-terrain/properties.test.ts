/**
 * Seeded property tests of the cylinder–terrain algorithm on a fractal terrain with curbs: every
 * contact well-formed, ≤ 4 points per normal group, invariance under moving the heightfield
 * array by whole cells, symmetry of the cylinder's two ends, and no missed penetration.
 */
import { describe, expect, it } from 'vitest';
import { collideCylinderTerrain, type CylinderTerrainContact } from '../../../sim/collision/cylinder-terrain/plain-api';
import { Rng } from '../../../sim/math/random';
import { fractalTerrain, randomCurbs } from '../../../sim/terrain/generate';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { add, dist, norm, type V3 } from './helpers';

const COLS = 97;
const DX = 0.05;
const grid = { cols: COLS, dx: DX };
const hf = fractalTerrain({
  ...grid,
  seed: 7,
  amplitude: 0.3,
  roughness: 0.5,
  curbs: randomCurbs(grid, { seed: 8, count: 6, height: 0.1, margin: 0.6 }),
});

interface Pose {
  center: V3;
  axis: V3;
  radius: number;
  height: number;
}

/** Wheel poses: random yaw, roll up to 10°, lowest point 0–5 cm under the terrain below it; some upright or tilted. */
function poses(seed: number, count: number): Pose[] {
  const rng = new Rng(seed);
  const out: Pose[] = [];
  const half = ((COLS - 1) * DX) / 2 - 0.6;
  for (let k = 0; k < count; k++) {
    const yaw = rng.range(0, 2 * Math.PI);
    const style = rng.next();
    // Mostly wheels (axle near horizontal); every 5th stands near upright; some tilted 30–60°.
    const tilt = style < 0.7 ? rng.range(-0.17, 0.17) : style < 0.85 ? Math.PI / 2 - rng.range(0, 0.1) : rng.range(0.5, 1.05);
    const axis = norm([Math.cos(yaw) * Math.cos(tilt), Math.sin(yaw) * Math.cos(tilt), Math.sin(tilt)]);
    const radius = rng.range(0.15, 0.4);
    const height = rng.range(0.1, 0.35);
    const x = rng.range(-half, half), y = rng.range(-half, half);
    // Lowest point of the cylinder relative to its centre: −(h/2)|v_z| − r·√(1 − v_z²).
    const low = (height / 2) * Math.abs(axis[2]) + radius * Math.sqrt(Math.max(0, 1 - axis[2] * axis[2]));
    const z = hf.heightAt(x, y) + low - rng.range(0, 0.05);
    out.push({ center: [x, y, z], axis, radius, height });
  }
  return out;
}

const POSES = poses(1234, 400);

function sameSet(a: readonly CylinderTerrainContact[], b: readonly CylinderTerrainContact[], tol: number, di = 0, dj = 0): string {
  if (a.length !== b.length) return `count ${a.length} vs ${b.length}`;
  for (const c of a) {
    const m = b.find((d) => dist(c.point, d.point) < tol && dist(c.normal, d.normal) < tol && Math.abs(c.depth - d.depth) < tol && c.kind === d.kind && c.cell[0] === d.cell[0] + di && c.cell[1] === d.cell[1] + dj);
    if (!m) return `unmatched ${JSON.stringify(c)} in ${JSON.stringify(b)}`;
  }
  return '';
}

describe('cylinder–terrain properties (seeded)', () => {
  it('every contact: finite, unit normal pointing up-ish out of the terrain, depth > 0, point on the surface of its cell', () => {
    let total = 0;
    const bad: string[] = []; // one expect per property at the end: vitest's expect is slow in hot loops
    for (const p of POSES) {
      const { contacts } = collideCylinderTerrain(p, hf);
      for (const c of contacts) {
        total++;
        const fx = (c.point[0] - hf.x0) / hf.dx - c.cell[0];
        const fy = (c.point[1] - hf.y0) / hf.dy - c.cell[1];
        const problems = [
          [...c.point, ...c.normal, c.depth].every((x) => Number.isFinite(x)) ? '' : 'not finite',
          Math.abs(Math.hypot(...c.normal) - 1) < 1e-12 ? '' : 'normal not unit',
          c.depth > 0 ? '' : 'depth not > 0',
          ['flat', 'base', 'side', 'point', 'edge'].includes(c.kind) ? '' : 'bad kind',
          Math.abs(c.point[2] - hf.heightAt(c.point[0], c.point[1])) < 1e-9 ? '' : 'point not on the surface',
          fx >= -1e-9 && fx <= 1 + 1e-9 && fy >= -1e-9 && fy <= 1 + 1e-9 ? '' : 'point outside its cell',
        ].filter((m) => m !== '');
        if (problems.length > 0) bad.push(`${problems.join(', ')}: ${JSON.stringify(c)}`);
      }
    }
    expect(bad).toEqual([]);
    expect(total).toBeGreaterThan(POSES.length); // the poses do touch the ground
  });

  it('at most 4 points share (nearly) one normal', () => {
    const cosTight = Math.cos((0.5 * Math.PI) / 180);
    for (const p of POSES) {
      const { contacts } = collideCylinderTerrain(p, hf);
      let most = 0;
      for (const c of contacts) {
        const same = contacts.filter((d) => c.normal[0] * d.normal[0] + c.normal[1] * d.normal[1] + c.normal[2] * d.normal[2] >= cosTight);
        most = Math.max(most, same.length);
      }
      expect(most).toBeLessThanOrEqual(4);
    }
  });

  it('no duplicate contacts when a terrain vertex pokes into the wheel (one per vertex, not one per edge)', () => {
    let dups = 0;
    for (const p of POSES) {
      const seen = new Set<string>();
      for (const c of collideCylinderTerrain(p, hf).contacts) {
        const key = [...c.point, ...c.normal, c.depth].map((x) => x.toFixed(9)).join(' ');
        if (seen.has(key)) dups++;
        seen.add(key);
      }
    }
    expect(dups).toBe(0);
  });

  it('no contact normal pulls a wheel toward its point: n·(C − P) > 0 (gentle-edge face normals on curbs did)', () => {
    // Wheels (axle within 10° of horizontal), contacts less than half way into the cylinder: a
    // point buried near the axis or the mid-plane has no meaningful "away" direction.
    const bad: string[] = [];
    let checked = 0;
    for (const p of POSES.filter((q) => Math.abs(q.axis[2]) < 0.18)) {
      for (const c of collideCylinderTerrain(p, hf).contacts) {
        if (c.depth > Math.min(p.radius, p.height / 2) / 2) continue;
        checked++;
        const t = c.normal[0] * (p.center[0] - c.point[0]) + c.normal[1] * (p.center[1] - c.point[1]) + c.normal[2] * (p.center[2] - c.point[2]);
        if (!(t > 0)) bad.push(`${t.toFixed(4)} ${JSON.stringify(c)}`);
      }
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  });

  it('moving the heightfield array by whole cells (same world geometry) gives the same contacts, cells shifted', () => {
    const a = 5, b = 3;
    const cols = hf.cols - a, rows = hf.rows - b;
    const heights = new Float64Array(cols * rows);
    for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) heights[j * cols + i] = hf.height(i + a, j + b);
    const moved = Heightfield.fromArray({ cols, rows, dx: hf.dx, dy: hf.dy, x0: hf.x0 + a * hf.dx, y0: hf.y0 + b * hf.dy, heights });
    let compared = 0;
    for (const p of POSES) {
      // Only wheels whose footprint stays inside the smaller map.
      if (p.center[0] - 0.6 < moved.x0 || p.center[1] - 0.6 < moved.y0) continue;
      const r1 = collideCylinderTerrain(p, hf).contacts;
      const r2 = collideCylinderTerrain(p, moved).contacts;
      expect(sameSet(r1, r2, 1e-9, a, b)).toBe('');
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('shifting wheel and terrain origin together by whole cells gives translated contacts, same cells', () => {
    const a = 11, b = -7;
    const shifted = Heightfield.fromArray({ cols: hf.cols, rows: hf.rows, dx: hf.dx, dy: hf.dy, x0: hf.x0 + a * hf.dx, y0: hf.y0 + b * hf.dy, heights: hf.heights });
    for (const p of POSES.slice(0, 150)) {
      const q = { ...p, center: add(p.center, [a * hf.dx, b * hf.dy, 0]) };
      const r1 = collideCylinderTerrain(p, hf).contacts.map((c) => ({ ...c, point: add(c.point, [a * hf.dx, b * hf.dy, 0]) }));
      const r2 = collideCylinderTerrain(q, shifted).contacts;
      expect(sameSet(r1, r2, 1e-9)).toBe('');
    }
  });

  it("the cylinder's two ends are symmetric: flipping the axis gives the same contacts", () => {
    for (const p of POSES) {
      const r1 = collideCylinderTerrain(p, hf).contacts;
      const r2 = collideCylinderTerrain({ ...p, axis: p.axis.map((x) => -x) as V3 }, hf).contacts;
      expect(sameSet(r1, r2, 1e-9)).toBe('');
    }
  });

  it('no missed penetration: a cylinder with a surface point 1 mm under the terrain always gets a contact', () => {
    const rng = new Rng(99);
    let deep = 0;
    for (const p of POSES) {
      const v = p.axis;
      const e1 = norm(Math.abs(v[0]) < 0.9 ? [0, v[2], -v[1]] : [-v[2], 0, v[0]]);
      const e2: V3 = [v[1] * e1[2] - v[2] * e1[1], v[2] * e1[0] - v[0] * e1[2], v[0] * e1[1] - v[1] * e1[0]];
      let worst = -Infinity;
      for (let s = 0; s < 300; s++) {
        // Random point on the side or a base.
        const ang = rng.range(0, 2 * Math.PI);
        const onSide = rng.next() < 0.6;
        const rad = onSide ? p.radius : p.radius * Math.sqrt(rng.next());
        const z = onSide ? rng.range(-p.height / 2, p.height / 2) : (rng.next() < 0.5 ? -1 : 1) * (p.height / 2);
        const q = add(add(add(p.center, v, z), e1, rad * Math.cos(ang)), e2, rad * Math.sin(ang));
        if (!hf.contains(q[0], q[1])) continue;
        worst = Math.max(worst, hf.heightAt(q[0], q[1]) - q[2]);
      }
      if (worst > 0.001) {
        deep++;
        expect(collideCylinderTerrain(p, hf).contacts.length).toBeGreaterThan(0);
      }
    }
    expect(deep).toBeGreaterThan(100);
  });
});
