/**
 * Cross-engine oracle: our convex queries against Rapier (parry3d, f32 build, in wasm) over
 * 10,000 seeded random pairs of boxes, hulls (8–32-point clouds), cylinders, capsules, spheres.
 *
 * What is compared, per pair. Rapier's boolean test (intersectsShape) and point projection are
 * exact up to float32 rounding; its contactShape distance and depth are NOT exact for curved
 * shapes (measured: separated capsule–capsule pairs off by up to 6e-3 m; see the regression
 * check below, brute force agrees with ours). So distances and depths are compared one-sidedly
 * against Rapier's number and certified two-sidedly with Rapier's exact primitives:
 *   intersecting  must equal intersectsShape, except within TOUCH_BAND of touching.
 *   separated     ours ≤ Rapier + DISTANCE_TOL (Rapier's value comes from surface points, so it
 *                 is an upper bound of the truth: ours may be better, never worse); our witness
 *                 points lie on the surfaces (Rapier projectPoint, SURFACE_TOL), so ours is an
 *                 upper bound too; and the gap of the support functions along our normal,
 *                 −p(n) with p(n) = h_A(n) + h_B(−n), reaches our distance within DISTANCE_TOL,
 *                 which makes it a lower bound: ours is then exact within DISTANCE_TOL.
 *   overlapping   ours ≤ Rapier's depth + DEPTH_TOL (+ DEPTH_REL_TOL · depth); moving B by
 *                 (depth + SHIFT) along our normal separates the shapes and by (depth − SHIFT)
 *                 does not (both decided by intersectsShape): our translation is valid and tight.
 *   normal        where |distance| > NORMAL_MIN_DEPTH: angle to Rapier's ≤ NORMAL_ANGLE_TOL, or
 *                 a certified tie/improvement (the checks above passed with ours better than or
 *                 equal to Rapier's number; a box resting face-to-face has many equally deep
 *                 directions and EPA may pick any).
 *   agreement     where Rapier is exact (pairs with a sphere, box–box), |ours − Rapier| ≤
 *                 DISTANCE_TOL / DEPTH_TOL two-sidedly; elsewhere the worst difference is printed.
 *
 * Why these tolerances (unit-scale shapes, 0.1–1 m):
 *   - All inputs are rounded to float32 before both engines see them (Math.fround), so both
 *     describe the same geometry; what remains is Rapier's float32 arithmetic (ε ≈ 1.2e-7, errors
 *     of ~10 ε · size in GJK ≈ 1e-6 m) and its termination tolerances. DISTANCE_TOL = 1e-4 m
 *     leaves two orders of magnitude of headroom over the worst error seen, while any real bug
 *     (wrong support point, wrong face) shows up at ≥ 1e-3 m.
 *   - Penetration depth: both sides run EPA (Rapier on everything but sphere/capsule/cuboid
 *     special cases); parry's EPA stops at a relative gap of ~1e-4 in f32, so DEPTH_TOL is 2e-4 m
 *     plus 1e-3 of the depth.
 *   - Cylinders: Rapier's cylinder is an exact support-map cylinder (border radius 0), as is
 *     ours; no extra slack. (Jolt's cylinder has a convex radius that rounds its edges, which is
 *     why this oracle uses Rapier and not Jolt.) Rapier's cylinder/capsule axis is local y,
 *     ours local z: the Rapier orientation is ours times a +90° turn about x (y → z).
 *   - Hulls: Rapier builds its own hull from the same (float32) points. Near-coplanar points can
 *     make the two hulls differ by float32 rounding only, far below DISTANCE_TOL.
 *
 * Must run in well under 60 s on 2 cores; the sampling is seeded (Rng 0xC0FFEE) and the summary
 * of the worst errors per pair type is printed so regressions are visible in the log.
 */

import RAPIER from '@dimforge/rapier3d-compat';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../sim/collision/contact';
import { queryConvex } from '../../sim/collision/query-convex';
import type { Quat } from '../../sim/math/quat';
import { quatMultiply, quatRotate } from '../../sim/math/quat';
import { Rng } from '../../sim/math/random';
import type { Vec3 } from '../../sim/math/vec3';
import { angle, KINDS, projectedOverlap, randomPair } from './convex-pairs';
import type { Placed, ShapeDesc } from './convex-pairs';

const PAIRS = 10_000;
/** [m] Around touching, the two engines may disagree on "intersecting". */
const TOUCH_BAND = 1e-4;
/** [m] Separation distance tolerance. */
const DISTANCE_TOL = 1e-4;
/** [m] Penetration depth tolerance (absolute part). */
const DEPTH_TOL = 2e-4;
/** [-] Penetration depth tolerance (relative part). */
const DEPTH_REL_TOL = 1e-3;
/** [m] Normals are compared only when |distance| exceeds this (below, the direction is ill-defined). */
const NORMAL_MIN_DEPTH = 1e-3;
/** [rad] Normal angle tolerance (0.5°). */
const NORMAL_ANGLE_TOL = (0.5 * Math.PI) / 180;
/**
 * [m] A witness point counts as on the surface within this. Rapier projects in float32 onto its
 * own float32 hull (parry's hull builder may drop points within ~1e-5 of a face: 2.1e-5 seen).
 */
const SURFACE_TOL = 1e-4;
/**
 * EPA may stop without converging (status 'epa-fallback': a conservative upper bound, documented
 * in epa.ts). Measured: 51 of these 10,000 pairs at commit 8e2e23e (all with a cylinder), 0 at
 * f11f113. Each fallback is still checked to be a valid separating translation that is not
 * shallower than Rapier's; the cap keeps a regression in convergence visible.
 */
const MAX_EPA_FALLBACKS = 5;
/**
 * [m] Shift beyond/short of the claimed depth for the separating-translation test. Rapier's
 * boolean test on curved support maps still reports "intersecting" 1e-4 m apart (measured, with
 * our projections on n disjoint by 1e-4 − 2e-7) and in rare cases at 1e-3 m; 2 mm is reliable.
 * Finer claims are judged with the support functions (p(n) above).
 */
const SHIFT = 2e-3;

interface QueryAnswer {
  intersecting: boolean;
  /** [m] > 0 apart, −depth when overlapping. */
  distance: number;
  /** Unit, from a to b. */
  normal: Vec3;
  /** How our side answered (status / method), for failure messages. */
  how?: string;
  /** Our manifold (ours only). */
  contacts?: Contact[];
  /** Our EPA did not converge and returned its conservative upper bound (status Fallback). */
  fallback?: boolean;
  /** World witness points (ours only). */
  pointA: Vec3;
  pointB: Vec3;
}

// --- Rapier side ------------------------------------------------------------------------------

/** +90° about x: takes Rapier's local y axis to our local z axis. */
const Y_TO_Z: Quat = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];

function rapierShape(s: ShapeDesc): RAPIER.Shape {
  switch (s.type) {
    case 'sphere':
      return new RAPIER.Ball(s.radius);
    case 'box':
      return new RAPIER.Cuboid(s.halfExtents[0], s.halfExtents[1], s.halfExtents[2]);
    case 'capsule':
      return new RAPIER.Capsule(s.height / 2, s.radius);
    case 'cylinder':
      return new RAPIER.Cylinder(s.height / 2, s.radius);
    case 'hull': {
      const shape = new RAPIER.ConvexPolyhedron(new Float32Array(s.points.flat()), null);
      return shape;
    }
  }
}

function rapierRotation(p: Placed): RAPIER.Rotation {
  const q: Quat = [...p.orientation];
  if (p.shape.type === 'capsule' || p.shape.type === 'cylinder') quatMultiply(q, p.orientation, Y_TO_Z);
  return { x: q[0], y: q[1], z: q[2], w: q[3] };
}

function rapierQuery(a: Placed, b: Placed): QueryAnswer | null {
  const sa = rapierShape(a.shape);
  const sb = rapierShape(b.shape);
  const pa = { x: a.position[0], y: a.position[1], z: a.position[2] };
  const pb = { x: b.position[0], y: b.position[1], z: b.position[2] };
  const ra = rapierRotation(a);
  const rb = rapierRotation(b);
  const intersecting = sa.intersectsShape(pa, ra, sb, pb, rb);
  const c = sa.contactShape(pa, ra, sb, pb, rb, 100);
  if (c === null) return null;
  return {
    intersecting,
    distance: c.distance,
    normal: [c.normal1.x, c.normal1.y, c.normal1.z],
    pointA: [c.point1.x, c.point1.y, c.point1.z],
    pointB: [c.point2.x, c.point2.y, c.point2.z],
  };
}

/** B moved by t along unit n. */
function shifted(b: Placed, n: Readonly<Vec3>, t: number): Placed {
  return { ...b, position: [b.position[0] + n[0] * t, b.position[1] + n[1] * t, b.position[2] + n[2] * t] };
}

function sub3(x: Readonly<Vec3>, y: Readonly<Vec3>): Vec3 {
  return [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
}

/** Does A intersect B moved by `shift`? (Rapier's boolean test, exact up to float32.) */
function rapierIntersectsShifted(a: Placed, b: Placed, shift: Readonly<Vec3>): boolean {
  const pa = { x: a.position[0], y: a.position[1], z: a.position[2] };
  const pb = { x: b.position[0] + shift[0], y: b.position[1] + shift[1], z: b.position[2] + shift[2] };
  return rapierShape(a.shape).intersectsShape(pa, rapierRotation(a), rapierShape(b.shape), pb, rapierRotation(b));
}

/** Distance from a world point to the placed shape's surface (Rapier projectPoint, hollow). */
function rapierSurfaceDistance(p: Placed, x: Readonly<Vec3>): number {
  const pos = { x: p.position[0], y: p.position[1], z: p.position[2] };
  const proj = rapierShape(p.shape).projectPoint(pos, rapierRotation(p), { x: x[0], y: x[1], z: x[2] }, false);
  return Math.hypot(proj.point.x - x[0], proj.point.y - x[1], proj.point.z - x[2]);
}

/**
 * Pair types on which Rapier's contactShape measured exact to float32 (analytic sphere–sphere,
 * sphere–box, sphere–capsule, box–box SAT); elsewhere it runs GJK/EPA with loose f32 stops.
 */
function rapierIsExact(ta: ShapeDesc['type'], tb: ShapeDesc['type']): boolean {
  const other = ta === 'sphere' ? tb : tb === 'sphere' ? ta : null;
  if (other !== null) return other === 'sphere' || other === 'box' || other === 'capsule';
  return ta === 'box' && tb === 'box';
}

// --- our side ---------------------------------------------------------------------------------

function oursQuery(a: Placed, b: Placed): QueryAnswer {
  const r = queryConvex(a, b);
  return {
    intersecting: r.intersecting,
    distance: r.distance,
    normal: r.normal,
    pointA: r.pointA,
    pointB: r.pointB,
    contacts: r.contacts,
    how: r.status,
    fallback: r.status === 'epa-fallback',
  };
}


// --- the oracle -------------------------------------------------------------------------------

interface Stats {
  n: number;
  apart: number;
  overlap: number;
  maxDistErr: number;
  maxDepthErr: number;
  maxAngle: number;
  ties: number;
  nearTouch: number;
  oursBetter: number;
  rapierInvalid: number;
  rapierBooleanOff: number;
  fallbacks: number;
  contacts: number;
  maxContactAngle: number;
  maxContactExcess: number;
}

describe('convex queries vs Rapier (oracle)', () => {
  beforeAll(async () => {
    await RAPIER.init();
  });

  it(`agrees on ${PAIRS} seeded random pairs within the documented tolerances`, () => {
    const rng = new Rng(0xc0ffee);
    const stats = new Map<string, Stats>();
    const failures: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const ta = KINDS[rng.int(0, KINDS.length - 1)];
      const tb = KINDS[rng.int(0, KINDS.length - 1)];
      const [a, b] = randomPair(rng, ta, tb);
      const key = [ta, tb].sort().join('–');
      let s = stats.get(key);
      if (!s) stats.set(key, (s = { n: 0, apart: 0, overlap: 0, maxDistErr: 0, maxDepthErr: 0, maxAngle: 0, ties: 0, nearTouch: 0, oursBetter: 0, rapierInvalid: 0, rapierBooleanOff: 0, fallbacks: 0, contacts: 0, maxContactAngle: 0, maxContactExcess: 0 }));
      s.n++;
      const theirs = rapierQuery(a, b);
      const ours = oursQuery(a, b);
      const tag = `pair ${i} (${ta} vs ${tb}, ours: ${ours.how})`;
      if (theirs === null) {
        failures.push(`${tag}: Rapier gave no contact within 100 m`);
        continue;
      }
      const nearTouch = Math.min(Math.abs(ours.distance), Math.abs(theirs.distance)) < TOUCH_BAND;
      if (!nearTouch && ours.intersecting !== theirs.intersecting) {
        failures.push(`${tag}: intersecting ours=${ours.intersecting} rapier=${theirs.intersecting} (d ours ${ours.distance}, rapier ${theirs.distance})`);
        continue;
      }
      if (nearTouch) {
        s.nearTouch++;
        continue;
      }
      const exact = rapierIsExact(ta, tb);
      const n = ours.normal;
      let certified = false;
      if (!theirs.intersecting) {
        s.apart++;
        const d = ours.distance;
        const diff = d - theirs.distance;
        s.maxDistErr = Math.max(s.maxDistErr, Math.abs(diff));
        if (diff > DISTANCE_TOL) failures.push(`${tag}: distance ours ${d} worse than Rapier ${theirs.distance}`);
        if (exact && Math.abs(diff) > DISTANCE_TOL) failures.push(`${tag}: distance ours ${d} rapier (exact here) ${theirs.distance}`);
        const onA = rapierSurfaceDistance(a, ours.pointA);
        const onB = rapierSurfaceDistance(b, ours.pointB);
        if (onA > SURFACE_TOL || onB > SURFACE_TOL) failures.push(`${tag}: witness off the surface by ${onA}, ${onB}`);
        const gap = -projectedOverlap(a, b, n);
        if (gap < d - DISTANCE_TOL) failures.push(`${tag}: gap along our normal ${gap} < our distance ${d}`);
        certified = true;
        if (diff < -DISTANCE_TOL) s.oursBetter++;
      } else {
        s.overlap++;
        const depth = -ours.distance;
        const diff = depth - -theirs.distance;
        s.maxDepthErr = Math.max(s.maxDepthErr, Math.abs(diff));
        const tol = DEPTH_TOL + DEPTH_REL_TOL * depth;
        const p = projectedOverlap(a, b, n);
        if (p > depth + DEPTH_TOL) failures.push(`${tag}: projections on our normal overlap by ${p}, more than our depth ${depth}`);
        if (ours.fallback) {
          // Not converged: the answer must still be a valid, conservative translation.
          s.fallbacks++;
          if (diff < -tol) failures.push(`${tag}: fallback depth ${depth} below Rapier's ${-theirs.distance} (must be conservative)`);
        } else if (diff > tol) {
          // Worse than Rapier's number: a failure only if Rapier's normal really is better, judged
          // by the support functions (Rapier's boolean cannot resolve sub-millimetre differences).
          const pr = projectedOverlap(a, b, theirs.normal);
          if (pr >= depth - DEPTH_TOL) s.rapierInvalid++;
          else failures.push(`${tag}: depth ours ${depth} worse than ${pr} along Rapier's normal (Rapier says ${-theirs.distance})`);
        }
        // Independent geometry check with Rapier at millimetre resolution: B moved by depth + SHIFT
        // along our normal must be apart, by depth − SHIFT still overlapping. Rapier's boolean can
        // err within a few mm on small curved shapes, so a verdict against us needs its
        // contactShape distance to agree.
        const beyond = shifted(b, n, depth + SHIFT);
        if (rapierIntersectsShifted(a, b, sub3(beyond.position, b.position))) {
          const c = rapierQuery(a, beyond);
          if (c !== null && c.distance < 0) failures.push(`${tag}: moving B by depth + ${SHIFT} along our normal leaves Rapier depth ${-c.distance}`);
          else s.rapierBooleanOff++;
        }
        if (depth > 2 * SHIFT && !ours.fallback) {
          const short = shifted(b, n, depth - SHIFT);
          if (!rapierIntersectsShifted(a, b, sub3(short.position, b.position))) {
            const c = rapierQuery(a, short);
            if (c !== null && c.distance > 0) failures.push(`${tag}: moving B by depth − ${SHIFT} along our normal already separates (Rapier distance ${c.distance})`);
            else s.rapierBooleanOff++;
          }
        }
        // The manifold: every point on B's surface with depth >= 0. Face-clipped manifolds use the
        // reference face's normal, which may differ from the EPA normal, so normal and depth of
        // each contact are recorded (printed), not held to the query's.
        const contacts = ours.contacts ?? [];
        if (contacts.length === 0) failures.push(`${tag}: overlapping but no contacts`);
        for (const c of contacts) {
          const off = rapierSurfaceDistance(b, c.point);
          if (off > SURFACE_TOL) failures.push(`${tag}: contact point ${off} m off B's surface`);
          if (!(c.depth >= 0)) failures.push(`${tag}: contact depth ${c.depth} < 0`);
          s.maxContactAngle = Math.max(s.maxContactAngle, angle(c.normal, n));
          s.maxContactExcess = Math.max(s.maxContactExcess, c.depth - depth);
        }
        s.contacts += contacts.length;
        certified = true;
        if (diff < -tol) s.oursBetter++;
      }
      if (Math.abs(theirs.distance) > NORMAL_MIN_DEPTH) {
        const ang = angle(n, theirs.normal);
        if (ang <= NORMAL_ANGLE_TOL) s.maxAngle = Math.max(s.maxAngle, ang);
        else if (certified) s.ties++;
        else failures.push(`${tag}: normal off by ${((ang * 180) / Math.PI).toFixed(2)}°`);
      }
    }
    const rows = [...stats.entries()].sort(([x], [y]) => (x < y ? -1 : 1));
    const lines = rows.map(
      ([k, s]) =>
        `${k.padEnd(20)} n=${String(s.n).padStart(5)} apart=${String(s.apart).padStart(5)} overlap=${String(s.overlap).padStart(5)} ` +
        `maxDistErr=${s.maxDistErr.toExponential(2)} maxDepthErr=${s.maxDepthErr.toExponential(2)} ` +
        `maxAngle=${((s.maxAngle * 180) / Math.PI).toFixed(3)}° normalTies=${s.ties} oursBetter=${s.oursBetter} rapierInvalid=${s.rapierInvalid} rapierBooleanOff=${s.rapierBooleanOff} fallbacks=${s.fallbacks} contacts=${s.contacts} contactAngle≤${((s.maxContactAngle * 180) / Math.PI).toFixed(1)}° contactDepthExcess≤${s.maxContactExcess.toExponential(1)} nearTouch=${s.nearTouch}`,
    );
    const kinds = new Map<string, number>();
    for (const m of failures) {
      const k = m.replace(/^pair \d+ /, '').replace(/[-\d.e]+/g, '#').slice(0, 90);
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    const summary = [...kinds.entries()].map(([k, c]) => `${String(c).padStart(5)} × ${k}`).join('\n');
    console.log(`convex oracle vs Rapier, ${PAIRS} pairs\n${lines.join('\n')}\nfailures: ${failures.length}\n${summary}\n${failures.slice(0, 20).join('\n')}`);
    expect(failures.slice(0, 20)).toEqual([]);
    const fallbacks = rows.reduce((acc, [, st]) => acc + st.fallbacks, 0);
    expect(fallbacks).toBeLessThanOrEqual(MAX_EPA_FALLBACKS);
  });
  it('regression: Rapier contactShape is inexact for separated capsules; ours matches the exact capsule distance', () => {
    // Capsule–capsule distance = segment–segment distance − r1 − r2 (exact; for overlap the same
    // formula gives −depth while the segments do not cross). The segment distance is found by
    // ternary search over A's segment of u ↦ dist(A(u), segment B), a convex function: exact to
    // round-off. This pins why the main oracle compares distances one-sidedly: pair 57 of the
    // seeded set is 0.0639242 m (ours and exact) but 0.0641947 m from Rapier.
    const rng = new Rng(57);
    let worstOurs = 0;
    let worstRapier = 0;
    for (let i = 0; i < 300; i++) {
      const [a, b] = randomPair(rng, 'capsule', 'capsule');
      if (a.shape.type !== 'capsule' || b.shape.type !== 'capsule') throw new Error('unreachable');
      const ax: Vec3 = [0, 0, 0];
      const bx: Vec3 = [0, 0, 0];
      quatRotate(ax, a.orientation, [0, 0, 1]);
      quatRotate(bx, b.orientation, [0, 0, 1]);
      const ha = a.shape.height / 2;
      const hb = b.shape.height / 2;
      const distToB = (u: number): number => {
        const p: Vec3 = [a.position[0] + ax[0] * u, a.position[1] + ax[1] * u, a.position[2] + ax[2] * u];
        const t = Math.max(-hb, Math.min(hb, (p[0] - b.position[0]) * bx[0] + (p[1] - b.position[1]) * bx[1] + (p[2] - b.position[2]) * bx[2]));
        return Math.hypot(p[0] - b.position[0] - bx[0] * t, p[1] - b.position[1] - bx[1] * t, p[2] - b.position[2] - bx[2] * t);
      };
      let lo = -ha;
      let hi = ha;
      for (let k = 0; k < 200; k++) {
        const m1 = lo + (hi - lo) / 3;
        const m2 = hi - (hi - lo) / 3;
        if (distToB(m1) <= distToB(m2)) hi = m2;
        else lo = m1;
      }
      const seg = distToB((lo + hi) / 2);
      if (seg < 1e-3) continue; // segments (nearly) cross: the formula no longer gives the depth
      const exact = seg - a.shape.radius - b.shape.radius;
      worstOurs = Math.max(worstOurs, Math.abs(oursQuery(a, b).distance - exact));
      const theirs = rapierQuery(a, b);
      if (theirs !== null) worstRapier = Math.max(worstRapier, Math.abs(theirs.distance - exact));
    }
    console.log(`capsule–capsule vs exact: ours worst ${worstOurs.toExponential(2)} m, Rapier worst ${worstRapier.toExponential(2)} m`);
    expect(worstOurs).toBeLessThan(1e-6); // measured 1.5e-7 (GJK stop), Rapier 6.4e-3
  });
  it('regression: box (a) vs capsule (b) contact points lie on b (were up to 0.14 m off at 7ec313e)', () => {
    const rng = new Rng(143);
    const off: number[] = [];
    for (let i = 0; i < 500; i++) {
      const [a, b] = randomPair(rng, 'box', 'capsule');
      const r = queryConvex(a, b);
      for (const c of r.contacts) off.push(rapierSurfaceDistance(b, c.point));
    }
    expect(Math.max(...off)).toBeLessThan(SURFACE_TOL);
  });
});
