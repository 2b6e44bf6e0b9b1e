/**
 * The analytic cylinder–terrain algorithm against the brute-force oracle (cylinder-oracle.ts)
 * on the benchmark scene: a 513 × 513 fractal terrain with 0.1 m curbs and seeded wheel poses
 * settled to 0–5 cm depth (cylinder-poses.ts).
 *
 * This test runs 2,000 of the poses (the first 2,000 of the benchmark's 10,000, same seed) to stay
 * well under 20 s on a slow CI core; `npm run bench -- cylinder` reports the same statistics
 * over all 10,000.
 *
 * This oracle measures face depths on each element's lowest side line (and case-A disc) only, so
 * since issue #12 it is a LOWER bound of what the algorithm reports: an element's deepest point
 * can be off that line (a cambered rim across a seam, the top of a steep face), which the
 * completeness oracle (cylinder-completeness.test.ts) measures. Claims: the deepest contact is
 * never shallower than this oracle by more than 0.1 mm, zero missed contacts deeper than 0.1 mm,
 * and no ghost contact deeper than 0.1 mm where the oracle sees none.
 */
import { describe, expect, it } from 'vitest';
import { collideCylinderTerrain } from '../../sim/index';
import { oracleMaxDepth } from './cylinder-oracle';
import { buildCylinderScene, cylinderPoses } from './cylinder-poses';

const POSES = 2000;
/** [m] 0.1 mm */
const P95_LIMIT = 1e-4;
/** [m] 1 mm */
const P99_LIMIT = 1e-3;
/** [m] Missed / ghost threshold, 0.1 mm. */
const CONTACT_THRESHOLD = 1e-4;

describe('cylinder–terrain vs brute-force oracle (2,000 benchmark poses)', () => {
  const hf = buildCylinderScene();
  const poses = cylinderPoses(hf, POSES);
  const err: number[] = [];
  const worst: string[] = [];
  let missed = 0;
  const shallower: string[] = [];
  let ghosts = 0;
  let contactPoses = 0;
  for (let k = 0; k < poses.length; k++) {
    const o = oracleMaxDepth(poses[k], hf);
    const r = collideCylinderTerrain(poses[k], hf);
    let d = 0;
    for (const c of r.contacts) d = Math.max(d, c.depth);
    const e = Math.abs(d - o.depth);
    err.push(e);
    if (d < o.depth - P95_LIMIT) shallower.push(`pose ${k}: oracle ${(o.depth * 1e3).toFixed(3)} mm, ours ${(d * 1e3).toFixed(3)} mm`);
    if (o.depth > CONTACT_THRESHOLD) contactPoses++;
    if (o.depth > CONTACT_THRESHOLD && r.contacts.length === 0) missed++;
    if (o.depth === 0 && d > CONTACT_THRESHOLD) ghosts++;
    if (e > P99_LIMIT) worst.push(`pose ${k}: oracle ${(o.depth * 1e3).toFixed(3)} mm (${o.source}, cell ${o.cell.join(',')}), ours ${(d * 1e3).toFixed(3)} mm`);
  }
  const sorted = [...err].sort((a, b) => a - b);
  const q = (f: number): number => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];

  it('the scene really exercises contacts (almost every pose touches, depths up to 5 cm)', () => {
    expect(contactPoses).toBeGreaterThan(POSES * 0.95);
  });

  it('the deepest contact is never shallower than the lowest-line oracle by more than 0.1 mm', () => {
    expect(shallower).toEqual([]);
  });

  it('no missed contact deeper than 0.1 mm', () => {
    expect(missed).toBe(0);
  });

  it('no ghost contact deeper than 0.1 mm where the oracle sees none', () => {
    expect(ghosts).toBe(0);
  });
});

// Regression, curb-dense crop of the same generator (129 × 129, 24 curbs in 6.4 m: a curb every
// ~0.27 m). It failed first because side/point contacts from steep curb faces reported up to
// 15 cm where the wheel was 1–5 cm deep (algorithm, since fixed: pose 278 oracle 12.7 mm, ours
// 163.0 mm side cell 41,100; pose 288 38.7 vs 125.4 mm; pose 100 47.1 vs 81.8 mm), then because the
// oracle sampled the lowest line at 96 points and missed feasible stretches shorter than ~2 mm
// (poses 165, 364, 79: oracle 45.73 / 23.26 / 49.24 mm, true 55.61 / 28.91 / 51.51 mm; fixed in
// the oracle, see its header and cylinder-oracle-analytic.test.ts).
describe('cylinder–terrain vs oracle on a curb-dense scene', () => {
  it('regression: never shallower than the lowest-line oracle by more than 0.1 mm on 400 poses', () => {
    const hf = buildCylinderScene(129);
    const poses = cylinderPoses(hf, 400, 99);
    const bad: string[] = [];
    for (let k = 0; k < poses.length; k++) {
      const d = collideCylinderTerrain(poses[k], hf).contacts.reduce((m, c) => Math.max(m, c.depth), 0);
      const o = oracleMaxDepth(poses[k], hf).depth;
      if (d < o - P95_LIMIT) bad.push(`pose ${k}: oracle ${o}, ours ${d}`);
    }
    expect(bad).toEqual([]);
  });
});
