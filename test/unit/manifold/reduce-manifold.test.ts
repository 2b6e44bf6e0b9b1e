/**
 * The engine's one manifold reducer (sim/collision/reduce-manifold.ts), analytic cases: which
 * points a group keeps (deepest, ties → farthest from the centroid; line contacts → their ends,
 * plus the deepest on a curved line; the fourth point by added area), where groups split (the
 * named MANIFOLD_GROUP_ANGLE) and every overflow reported in the status.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { ManifoldGroups, ReduceManifoldStatus, reduceManifoldInPlace, reduceManifoldInto } from '../../../sim/collision/reduce-manifold';
import { MANIFOLD_GROUP_ANGLE, MANIFOLD_LINE_CONTACT_DISTANCE, MANIFOLD_MAX_NORMAL_GROUPS, MANIFOLD_TOUCH_DISTANCE } from '../../../sim/constants';

type P3 = readonly [number, number, number];

function buffer(points: readonly P3[], depths?: readonly number[], normal: P3 = [0, 0, 1]): ContactBuffer {
  const b = new ContactBuffer(64);
  points.forEach((p, k) => b.push(p[0], p[1], p[2], normal[0], normal[1], normal[2], depths ? depths[k] : 0.01, 1, k, 0));
  return b;
}

function reduce(src: ContactBuffer, out = new ContactBuffer(64), groups = new ManifoldGroups(64)): { out: ContactBuffer; status: number; pts: string[] } {
  const status = reduceManifoldInto(out, src, groups);
  const pts: string[] = [];
  for (let k = 0; k < out.count; k++) pts.push(key([out.point[3 * k], out.point[3 * k + 1], out.point[3 * k + 2]]));
  return { out, status, pts };
}

const key = (p: readonly number[]): string => p.map((x) => x.toFixed(6)).join(',');
const keys = (ps: readonly P3[]): string[] => ps.map(key).sort();

describe('reduceManifoldInto: point selection', () => {
  it('a 5 × 5 grid of equal depths keeps its 4 corners', () => {
    const grid: P3[] = [];
    for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) grid.push([i * 0.1, j * 0.1, 0]);
    const { pts, status } = reduce(buffer(grid));
    expect(status).toBe(ReduceManifoldStatus.Ok);
    expect(pts.sort()).toEqual(keys([[0, 0, 0], [0.4, 0, 0], [0, 0.4, 0], [0.4, 0.4, 0]]));
  });

  it('a square whose first points are mid-edge clip points (equal depths) still keeps its 4 corners', () => {
    // Equal depths: P1 is the point farthest from the centroid (a corner), not the first one.
    // Depths differ by round-off only (< MANIFOLD_TIE_TOLERANCE, 1 nm), as a box face on a face.
    const square: P3[] = [[0.5, 0, 0], [1, 0.5, 0], [0.5, 1, 0], [0, 0.5, 0], [0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]];
    const depths = [0.01 + 3e-10, 0.01 + 2e-10, 0.01 + 1e-10, 0.01 + 2e-10, 0.01, 0.01, 0.01, 0.01];
    const { pts } = reduce(buffer(square, depths));
    expect(pts.sort()).toEqual(keys([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]));
  });

  it('keeps a clearly deepest interior point (and emits the kept points in candidate order)', () => {
    const grid: P3[] = [];
    const depths: number[] = [];
    for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) {
      grid.push([i * 0.1, j * 0.1, 0]);
      depths.push(i === 2 && j === 2 ? 0.05 : 0.01);
    }
    const { out, pts } = reduce(buffer(grid, depths));
    expect(pts.length).toBe(4);
    expect(Math.max(...out.depth.subarray(0, out.count))).toBe(0.05);
    expect(pts).toContain(key([0.2, 0.2, 0]));
    const cells = Array.from(out.cellI.subarray(0, out.count));
    expect(cells).toEqual([...cells].sort((x, y) => x - y));
  });

  it('a line contact of equal depths keeps its two ends, not an interior tie', () => {
    const line: P3[] = [0.3, 0.1, 0.5, 0.0, 0.2, 0.4].map((x) => [x, 2 * x, 0] as const);
    const { pts } = reduce(buffer(line));
    expect(pts.sort()).toEqual(keys([[0, 0, 0], [0.5, 1, 0]]));
  });

  it('a nearly straight line (width below MANIFOLD_LINE_CONTACT_DISTANCE) is a line contact', () => {
    const w = 0.5 * MANIFOLD_LINE_CONTACT_DISTANCE;
    const line: P3[] = [[0, 0, 0], [0.1, w, 0], [0.2, 0, 0], [0.3, -w, 0], [0.4, 0, 0]];
    const { pts } = reduce(buffer(line));
    expect(pts.sort()).toEqual(keys([[0, 0, 0], [0.4, 0, 0]]));
  });

  it('a curved line contact keeps its ends and its deepest point', () => {
    const line: P3[] = [0.1, 0, 0.2, 0.4, 0.3].map((x) => [x, 0, 0] as const);
    const { pts, out } = reduce(buffer(line, [0.02, 0.01, 0.03, 0.01, 0.02]));
    expect(pts.sort()).toEqual(keys([[0, 0, 0], [0.2, 0, 0], [0.4, 0, 0]]));
    expect(Math.max(...out.depth.subarray(0, out.count))).toBe(0.03);
  });

  it('at a line end reported twice (an element border), the deeper copy is kept', () => {
    const line: P3[] = [[0, 0, 0], [0.2, 0, 0], [0.4, 0, 0], [0.4, 0, 0]];
    const { out } = reduce(buffer(line, [0.01, 0.03, 0.01, 0.015]));
    expect(Array.from(out.depth.subarray(0, out.count)).sort()).toEqual([0.01, 0.015, 0.03]);
    // The same at the far end of the line from the deepest point (the other extreme).
    const far: P3[] = [[0, 0, 0], [0.2, 0, 0], [0.45, 0, 0], [0.45, 0, 0]];
    const other = reduce(buffer(far, [0.01, 0.03, 0.01, 0.015])).out;
    expect(Array.from(other.depth.subarray(0, other.count)).sort()).toEqual([0.01, 0.015, 0.03]);
  });

  it('the fourth point adds the most AREA, not the most distance', () => {
    // Triangle A (deepest) B C, CCW. q1 lies 0.42 m outside the short edge BC and adds
    // 0.5·√2·0.42 = 0.30 m²; q2 lies only 0.3 m outside the long edge AB but adds 0.5·4·0.3 =
    // 0.6 m². Keeping the farthest point would take q1; the area heuristic keeps q2.
    const A: P3 = [0, 0, 0], B: P3 = [4, 0, 0], C: P3 = [3, 1, 0], q1: P3 = [3.8, 0.8, 0], q2: P3 = [2, -0.3, 0];
    const { pts } = reduce(buffer([A, q1, B, q2, C], [0.02, 0.01, 0.01, 0.01, 0.01]));
    expect(pts.sort()).toEqual(keys([A, B, C, q2]));
  });

  it('a point inside the triangle of the other three is not kept (groups of 4 are reduced too)', () => {
    const { pts } = reduce(buffer([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.2, 0]]));
    expect(pts.sort()).toEqual(keys([[0, 0, 0], [1, 0, 0], [0, 1, 0]]));
  });
});

describe('reduceManifoldInto: touching points before speculative ones', () => {
  it('a rock on a crest: both touching points are kept beside the speculative far corners', () => {
    // two touching points 20 mm apart (A the deepest, B) and four speculative corners farther
    // out: by extent alone P2..P4 are corners and B is dropped, so the support flips between A
    // and B as the rock rocks
    const pts: P3[] = [[0, 0, 0], [0.02, 0, 0], [-0.04, 0.03, 0], [0.05, 0.03, 0], [0, -0.05, 0], [0.05, -0.04, 0]];
    const depths = [0.0001, 0.00005, -0.002, -0.002, -0.002, -0.002];
    const { pts: kept } = reduce(buffer(pts, depths));
    expect(kept).toContain(key(pts[0]));
    expect(kept).toContain(key(pts[1]));
    expect(kept.length).toBe(4);
  });

  it('a touching line with speculative points off it keeps both touching ends and fills the rest with the extremes', () => {
    // touching: a rock edge's two ends on an element (0, 0) and (0.05, 0); speculative: a far
    // corner on either side and interior points
    const pts: P3[] = [[0, 0, 0], [0.025, 0, 0], [0.05, 0, 0], [0.1, 0.06, 0], [-0.05, -0.06, 0], [0.02, 0.01, 0]];
    const depths = [0.0001, 0.0001, 0.0001, -0.002, -0.002, -0.001];
    const { pts: kept } = reduce(buffer(pts, depths));
    expect(kept.sort()).toEqual(keys([pts[0], pts[2], pts[3], pts[4]]));
  });

  it('a touching line contact whose group only adds speculative points along the line keeps both touching ends', () => {
    const pts: P3[] = [[-0.05, 0, 0], [0, 0, 0], [0.03, 0, 0], [0.08, 0, 0]];
    const depths = [-0.002, 0.0001, 0.0001, -0.002];
    const { pts: kept } = reduce(buffer(pts, depths));
    expect(kept).toContain(key(pts[1]));
    expect(kept).toContain(key(pts[2]));
    expect(kept.length).toBe(4);
  });

  it('a face tilting over flat ground: touching points in a strip along one side, the far corners speculative: with fourthAmongAll (polytope–terrain) the fourth point is a far corner (the manifold spans the face, not the strip); without, it is touching', () => {
    // a 0.6 × 0.4 m face 0.16° off level: its +y corners touch, the grid vertices under it at
    // y = 0 and 0.1 are within the touching distance, its −y corners 1.1 mm up. Kept from the
    // touching points alone, the manifold is the strip 0 ≤ y ≤ 0.18, which a centre of mass
    // at y = −0.02 lies outside of, and the body rolls over into the ground
    const pts: P3[] = [[-0.27, 0.18, 0], [0.33, 0.18, 0], [-0.27, -0.22, 0], [0.33, -0.22, 0]];
    const depths = [0, -0.00005, -0.0011, -0.00115];
    for (const y of [0, 0.1]) for (const x of [-0.2, -0.1, 0, 0.1, 0.2, 0.3]) {
      pts.push([x, y, 0]);
      depths.push(y === 0 ? -0.0003 : -0.00015);
    }
    const farCorner = (kept: string[]): boolean => kept.includes(key(pts[2])) || kept.includes(key(pts[3]));
    const { pts: kept } = reduce(buffer(pts, depths), undefined, new ManifoldGroups(64, MANIFOLD_MAX_NORMAL_GROUPS, true));
    expect(kept.length).toBe(4);
    expect(kept).toContain(key(pts[0]));
    expect(kept).toContain(key(pts[1]));
    expect(farCorner(kept)).toBe(true);
    const { pts: touching } = reduce(buffer(pts, depths));
    expect(touching.length).toBe(4);
    expect(farCorner(touching)).toBe(false);
  });

  it('a point just shallower than −MANIFOLD_TOUCH_DISTANCE is speculative, one just deeper is touching', () => {
    const pts: P3[] = [[0, 0, 0], [0.005, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0.1, 0.1, 0]];
    for (const [d, expected] of [[-MANIFOLD_TOUCH_DISTANCE * 1.01, false], [-MANIFOLD_TOUCH_DISTANCE * 0.99, true]] as const) {
      const { pts: kept } = reduce(buffer(pts, [0.0001, d, -0.002, -0.002, -0.002]));
      expect(kept.includes(key(pts[1]))).toBe(expected);
    }
  });

  it('all touching or all speculative: the selection is the plain one (the 4 corners of a grid)', () => {
    const grid: P3[] = [];
    for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) grid.push([i * 0.1, j * 0.1, 0]);
    for (const d of [0.001, -0.002]) {
      const { pts } = reduce(buffer(grid, grid.map(() => d)));
      expect(pts.sort()).toEqual(keys([[0, 0, 0], [0.3, 0, 0], [0, 0.3, 0], [0.3, 0.3, 0]]));
    }
  });
});

describe('reduceManifoldInto: groups', () => {
  const tilted = (angle: number): P3 => [Math.sin(angle), 0, Math.cos(angle)];

  it('normals split into two groups just beyond MANIFOLD_GROUP_ANGLE and share one just within it', () => {
    for (const [factor, expected] of [[0.999, 1], [1.001, 2]] as const) {
      const src = new ContactBuffer(8);
      src.push(0, 0, 0, 0, 0, 1, 0.01, 1, 0, 0);
      const n = tilted(factor * MANIFOLD_GROUP_ANGLE);
      src.push(1, 0, 0, n[0], n[1], n[2], 0.01, 1, 1, 0);
      const groups = new ManifoldGroups(8);
      const { out } = reduce(src, undefined, groups);
      expect(groups.count, `normals ${factor} × the grouping angle apart`).toBe(expected);
      expect(out.count).toBe(2);
    }
  });

  it('two faces 30° apart are reduced separately (each line keeps its two ends)', () => {
    const src = new ContactBuffer(64);
    const n30 = tilted(Math.PI / 6);
    for (let k = 0; k < 6; k++) src.push(k * 0.1, 0, 0, 0, 0, 1, 0.01, 1, k, 0);
    for (let k = 0; k < 6; k++) src.push(k * 0.1, 1, 0, n30[0], n30[1], n30[2], 0.01, 1, k, 1);
    const { out, status } = reduce(src);
    expect(status).toBe(ReduceManifoldStatus.Ok);
    expect(out.count).toBe(4);
    expect([0, 1, 2, 3].map((k) => out.normal[3 * k + 2] === 1)).toEqual([true, true, false, false]);
  });

  it('equal normals never split across groups (each contact joins its nearest representative)', () => {
    // Representatives: A = 0°, then B = 15° (> 10° from A). The first 8° contact arrives before B
    // exists; a one-pass greedy grouping left it in A while later 8° contacts joined the nearer B.
    const src = new ContactBuffer(64);
    const deg = (d: number): P3 => tilted((d * Math.PI) / 180);
    const push = (d: number, x: number): void => { const n = deg(d); src.push(x, 0, 0, n[0], n[1], n[2], 0.01, 1, 0, 0); };
    push(0, 0);
    push(8, 0.35);
    push(15, 0.7);
    for (const x of [0.1, 0.2, 0.3, 0.5, 0.6]) push(8, x);
    const { out } = reduce(src);
    // Group B = six 8° points and the 15° one on a line: its ends x = 0.1 (8°) and 0.7 (15°).
    let at8 = 0;
    for (let k = 0; k < out.count; k++) if (Math.abs(out.normal[3 * k] - deg(8)[0]) < 1e-12) at8++;
    expect(at8).toBe(1);
    expect(out.count).toBe(3);
  });
});

describe('reduceManifoldInto: status', () => {
  it('reports a full output buffer (and counts it in out.overflow)', () => {
    const { status, out } = reduce(buffer([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), new ContactBuffer(2));
    expect(status).toBe(ReduceManifoldStatus.OutputOverflow);
    expect(out.count).toBe(2);
    expect(out.overflow).toBe(1);
  });

  it('reports more candidates than the scratch holds, and reduces the first ones', () => {
    const src = buffer([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [5, 5, 0]]);
    const { status, pts } = reduce(src, undefined, new ManifoldGroups(4));
    expect(status).toBe(ReduceManifoldStatus.CandidateOverflow);
    expect(pts.sort()).toEqual(keys([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]));
  });

  it('reports more normal groups than the scratch holds; the extra normal joins its nearest group', () => {
    const src = new ContactBuffer(8);
    src.push(0, 0, 0, 0, 0, 1, 0.01, 1, 0, 0);
    src.push(1, 0, 0, 1, 0, 0, 0.01, 1, 0, 0);
    src.push(2, 0, 0, 0.6, 0, 0.8, 0.01, 1, 0, 0);
    const groups = new ManifoldGroups(8, 2);
    const { status, out } = reduce(src, undefined, groups);
    expect(status).toBe(ReduceManifoldStatus.GroupOverflow);
    expect(groups.count).toBe(2);
    expect(out.count).toBe(3);
  });
});

describe('reduceManifoldInPlace', () => {
  it('keeps the same points as reduceManifoldInto, in candidate order, after the untouched contacts before start', () => {
    const grid: P3[] = [];
    const depths: number[] = [];
    for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) {
      grid.push([i * 0.1, j * 0.1, 0]);
      depths.push(i === 2 && j === 2 ? 0.05 : 0.01);
    }
    const into = reduce(buffer(grid, depths)).out;
    const buf = new ContactBuffer(64);
    buf.push(9, 9, 9, 1, 0, 0, 0.5, 1, 99, 0); // before start: must stay
    grid.forEach((p, k) => buf.push(p[0], p[1], p[2], 0, 0, 1, depths[k], 1, k, 0));
    const status = reduceManifoldInPlace(buf, 1, new ManifoldGroups(64));
    expect(status).toBe(ReduceManifoldStatus.Ok);
    expect(buf.count).toBe(1 + into.count);
    expect(buf.cellI[0]).toBe(99);
    expect(Array.from(buf.cellI.subarray(1, buf.count))).toEqual(Array.from(into.cellI.subarray(0, into.count)));
    expect(Array.from(buf.depth.subarray(1, buf.count))).toEqual(Array.from(into.depth.subarray(0, into.count)));
  });

  it('with several groups, moves the kept points of all groups down in candidate order', () => {
    const n30: P3 = [Math.sin(Math.PI / 6), 0, Math.cos(Math.PI / 6)];
    const src = new ContactBuffer(64), buf = new ContactBuffer(64);
    for (let k = 0; k < 12; k++) {
      const n = k % 2 === 0 ? [0, 0, 1] : n30;
      const y = k % 2 === 0 ? 0 : 1;
      src.push(k * 0.1, y, 0, n[0], n[1], n[2], 0.01, 1, k, 0);
      buf.push(k * 0.1, y, 0, n[0], n[1], n[2], 0.01, 1, k, 0);
    }
    reduce(src); // reduceManifoldInto: group by group
    reduceManifoldInPlace(buf, 0, new ManifoldGroups(64));
    // Each line keeps its ends: k = 0 and 10 (up), 1 and 11 (30°).
    expect(Array.from(buf.cellI.subarray(0, buf.count))).toEqual([0, 1, 10, 11]);
    expect(buf.normal[3 * 1 + 2]).toBeCloseTo(n30[2], 12);
  });
});
