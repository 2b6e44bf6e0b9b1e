/**
 * Two workspaces used interleaved give the same answers as each used alone (issue #26 item 3:
 * scratch lives in workspaces the caller owns, so two worlds, two worker queries or a re-entrant
 * call never share a buffer). Each case runs two seeded query streams twice: once each stream
 * alone on its own fresh workspace, once alternating call by call between two workspaces. After
 * every interleaved call of stream A, stream B's call runs BEFORE A's answer is read, so
 * whatever A left in its workspace (the SAT axis, the EPA result, a clipped polygon, the wheel
 * query's statistics) must have survived B's call. A buffer shared through the module (the
 * pattern this replaces) is overwritten by B's call and fails the comparison: checked by
 * planting one back in sat-box-box.ts, convex-convex.ts and wheel-cast.ts.
 */
import { describe, expect, it } from 'vitest';
import { ContactBuffer } from '../../../sim/collision/contact';
import { CylinderTerrainWorkspace } from '../../../sim/collision/cylinder-terrain/workspace';
import { ConvexCastWorkspace, castConvexHeightfield } from '../../../sim/collision/heightfield-cast/convex-cast';
import { SphereCastWorkspace, castSphereHeightfield } from '../../../sim/collision/heightfield-cast/sphere-cast';
import { TerrainCastResult } from '../../../sim/collision/heightfield-cast/terrain-cast-result';
import { WheelCastWorkspace, castWheelHeightfield } from '../../../sim/collision/heightfield-cast/wheel-cast';
import { ClipWorkspace, clipIncidentByReference } from '../../../sim/collision/manifold/clip-faces';
import { ConvexConvexWorkspace, collideConvexConvex } from '../../../sim/collision/manifold/convex-convex';
import { FacePolygon } from '../../../sim/collision/manifold/face-polygon';
import { BoxBoxWorkspace, collideBoxBox } from '../../../sim/collision/sat-box-box';
import type { Quat } from '../../../sim/math/quat';
import { quatNormalize } from '../../../sim/math/quat';
import { Rng } from '../../../sim/math/random';
import type { Vec3 } from '../../../sim/math/vec3';
import { BoxShape } from '../../../sim/shapes/box';
import { CylinderShape } from '../../../sim/shapes/cylinder';
import type { ConvexShape, Pose } from '../../../sim/shapes/shape';
import { shapeFromDesc } from '../../../sim/shapes/shape-desc';
import { fractalTerrain } from '../../../sim/terrain/generate';

const STREAM = 60;

function quat(rng: Rng): Quat {
  return quatNormalize([0, 0, 0, 0], [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)]);
}

function contacts(buf: ContactBuffer): number[] {
  const o: number[] = [buf.count];
  for (let k = 0; k < buf.count; k++) {
    o.push(buf.point[3 * k], buf.point[3 * k + 1], buf.point[3 * k + 2], buf.normal[3 * k], buf.normal[3 * k + 1], buf.normal[3 * k + 2]);
    o.push(buf.depth[k], buf.feature[k], buf.kind[k], buf.cellI[k], buf.cellJ[k]);
  }
  return o;
}

function polygon(p: FacePolygon): number[] {
  return [p.count, ...Array.from(p.xyz.subarray(0, 3 * p.count)), ...Array.from(p.tagX.subarray(0, p.count)), ...Array.from(p.tagY.subarray(0, p.count))];
}

/**
 * Runs streams a and b (query(k, ws) answers query k of a stream on workspace ws and returns
 * the answer read afterwards) alone, then interleaved with B's call between A's call and the
 * read of A's answer, and checks that both ways agree.
 */
function checkInterleaved<W>(
  make: () => W,
  callA: (k: number, ws: W) => void, readA: (k: number, ws: W) => unknown,
  callB: (k: number, ws: W) => void, readB: (k: number, ws: W) => unknown,
): void {
  const aloneA: unknown[] = [], aloneB: unknown[] = [];
  const wa0 = make(), wb0 = make();
  for (let k = 0; k < STREAM; k++) {
    callA(k, wa0);
    aloneA.push(readA(k, wa0));
  }
  for (let k = 0; k < STREAM; k++) {
    callB(k, wb0);
    aloneB.push(readB(k, wb0));
  }
  const wa = make(), wb = make();
  const mixedA: unknown[] = [], mixedB: unknown[] = [];
  for (let k = 0; k < STREAM; k++) {
    callA(k, wa);
    callB(k, wb); // runs while A's answer still sits in A's workspace
    mixedA.push(readA(k, wa));
    mixedB.push(readB(k, wb));
  }
  expect(mixedA).toEqual(aloneA);
  expect(mixedB).toEqual(aloneB);
}

describe('two workspaces used interleaved answer as each alone', () => {
  it('box–box SAT and manifold (BoxBoxWorkspace): contacts, the SAT axis left in ws.sat, the clipped polygon', () => {
    const rng = new Rng(2601);
    type BoxPair = { cA: Vec3; qA: Quat; hA: Vec3; cB: Vec3; qB: Quat; hB: Vec3 };
    const pair = (): BoxPair => {
      const hA: Vec3 = [rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6)];
      const hB: Vec3 = [rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6)];
      return { cA: [0, 0, 0], qA: quat(rng), hA, cB: [rng.range(-0.6, 0.6), rng.range(-0.6, 0.6), rng.range(-0.6, 0.6)], qB: quat(rng), hB };
    };
    const a = Array.from({ length: STREAM }, pair), b = Array.from({ length: STREAM }, pair);
    const bufA = new ContactBuffer(16), bufB = new ContactBuffer(16);
    let touching = 0;
    const call = (pairs: BoxPair[], buf: ContactBuffer) => (k: number, ws: BoxBoxWorkspace): void => {
      const p = pairs[k];
      buf.clear();
      if (collideBoxBox(buf, p.cA, p.qA, p.hA, p.cB, p.qB, p.hB, 0.01, ws) > 0) touching++;
    };
    const read = (buf: ContactBuffer) => (_k: number, ws: BoxBoxWorkspace): unknown =>
      [contacts(buf), ws.sat.separation, [...ws.sat.normal], ws.sat.kind, ws.sat.axisA, ws.sat.axisB, Array.from(ws.mA), Array.from(ws.mB)];
    checkInterleaved(() => new BoxBoxWorkspace(), call(a, bufA), read(bufA), call(b, bufB), read(bufB));
    expect(touching).toBeGreaterThan(STREAM); // the streams exercised the manifold, not only the SAT

    // The clip returns a polygon its workspace owns: it must survive a clip on another workspace.
    // (3 and 4 sides: Sutherland–Hodgman's last plane writes the one or the other polygon of the pair)
    const face = (r: number, z: number, turn: number, n: number): FacePolygon => {
      const p = new FacePolygon();
      for (let k = 0; k < n; k++) {
        const t = turn + (2 * k * Math.PI) / n;
        p.push(r * Math.cos(t), r * Math.sin(t), z, k, 0xff, k);
      }
      return p;
    };
    const up: Vec3 = [0, 0, 1];
    const refs = Array.from({ length: STREAM }, (_, k) => face(rng.range(0.2, 1), 0, rng.range(0, 1), 3 + (k % 2)));
    const incs = Array.from({ length: STREAM }, () => face(rng.range(0.2, 1), rng.range(-0.05, 0), rng.range(0, 1), 4));
    let held: FacePolygon | null = null;
    checkInterleaved(
      () => new ClipWorkspace(),
      (k, ws) => { held = clipIncidentByReference(refs[k], up, incs[k], ws); },
      () => polygon(held!),
      (k, ws) => { clipIncidentByReference(refs[STREAM - 1 - k], up, incs[k], ws); },
      (_k, ws) => [polygon(ws.polyA), polygon(ws.polyB)],
    );
  });

  it('convex–convex manifolds (ConvexConvexWorkspace): contacts and the EPA result left in ws.epa', () => {
    const rng = new Rng(2602);
    const hull = (): ConvexShape => {
      const pts: [number, number, number][] = [];
      for (let k = 0; k < 14; k++) pts.push([rng.range(-0.4, 0.4), rng.range(-0.4, 0.4), rng.range(-0.4, 0.4)]);
      return shapeFromDesc({ type: 'hull', points: pts }) as ConvexShape;
    };
    type Pair = { sA: ConvexShape; pA: Pose; sB: ConvexShape; pB: Pose };
    const pair = (): Pair => ({
      sA: rng.next() < 0.5 ? hull() : new CylinderShape(rng.range(0.1, 0.4), rng.range(0.1, 0.4)),
      pA: { position: [0, 0, 0], orientation: quat(rng) },
      sB: rng.next() < 0.5 ? hull() : new BoxShape([rng.range(0.1, 0.4), rng.range(0.1, 0.4), rng.range(0.1, 0.4)]),
      pB: { position: [rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)], orientation: quat(rng) },
    });
    const a = Array.from({ length: STREAM }, pair), b = Array.from({ length: STREAM }, pair);
    const bufA = new ContactBuffer(16), bufB = new ContactBuffer(16);
    let multi = 0;
    const call = (pairs: Pair[], buf: ContactBuffer) => (k: number, ws: ConvexConvexWorkspace): void => {
      const p = pairs[k];
      buf.clear();
      collideConvexConvex(buf, p.sA, p.pA, p.sB, p.pB, 0.01, ws);
      if (buf.count > 1) multi++;
    };
    const read = (buf: ContactBuffer) => (_k: number, ws: ConvexConvexWorkspace): unknown =>
      [contacts(buf), ws.epa.status, ws.epa.distance, [...ws.epa.normal], [...ws.epa.pointA], [...ws.epa.pointB], polygon(ws.polyA), polygon(ws.polyB)];
    checkInterleaved(() => new ConvexConvexWorkspace(), call(a, bufA), read(bufA), call(b, bufB), read(bufB));
    expect(multi).toBeGreaterThan(STREAM / 4); // face clipping ran, not only single EPA points
  });

  it('heightfield casts (Sphere/Convex/WheelCastWorkspace): hits, wheel contacts at toi and the wheel query statistics', () => {
    const rng = new Rng(2603);
    const hf = fractalTerrain({ cols: 41, rows: 41, dx: 0.1, dy: 0.1, x0: -2, y0: -2, amplitude: 0.3, seed: 26 });
    type Cast = { start: Vec3; motion: Vec3; q: Quat };
    const cast = (): Cast => ({
      start: [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), hf.maxHeight + rng.range(0.2, 0.6)],
      motion: [rng.range(-1, 1), rng.range(-1, 1), -rng.range(0.5, 1.5)],
      q: quat(rng),
    });
    const a = Array.from({ length: STREAM }, cast), b = Array.from({ length: STREAM }, cast);
    const box = new BoxShape([0.2, 0.1, 0.1]);
    const wheel = new CylinderShape(0.3, 0.1);
    const axle: Vec3 = [0, 1, 0];
    type Ws = { sphere: SphereCastWorkspace; convex: ConvexCastWorkspace; wheel: WheelCastWorkspace };
    const make = (): Ws => ({ sphere: new SphereCastWorkspace(), convex: new ConvexCastWorkspace(), wheel: new WheelCastWorkspace(new CylinderTerrainWorkspace()) });
    const hit = (o: TerrainCastResult): unknown => [o.status, o.toi, [...o.point], [...o.normal], o.cellI, o.cellJ, o.element, o.walk.cellsVisited];
    let hits = 0;
    const stream = (casts: Cast[]) => {
      const sphereOut = new TerrainCastResult(), boxOut = new TerrainCastResult(), wheelOut = new TerrainCastResult();
      const wheelContacts = new ContactBuffer(64);
      return {
        call: (k: number, ws: Ws): void => {
          const c = casts[k];
          castSphereHeightfield(sphereOut, hf, c.start, c.motion, { radius: 0.1 }, ws.sphere);
          castConvexHeightfield(boxOut, hf, box, { position: c.start, orientation: c.q }, c.motion, ws.convex);
          wheelContacts.clear();
          castWheelHeightfield(wheelOut, wheelContacts, hf, c.start, axle, wheel, c.motion, ws.wheel);
          if (wheelOut.touched) hits++;
        },
        read: (_k: number, ws: Ws): unknown => {
          const s = ws.wheel.contacts;
          return [hit(sphereOut), hit(boxOut), hit(wheelOut), contacts(wheelContacts), s.cellsVisited, s.elementsTested, s.candidateCount, s.flatPatch];
        },
      };
    };
    const sa = stream(a), sb = stream(b);
    checkInterleaved(make, sa.call, sa.read, sb.call, sb.read);
    expect(hits).toBeGreaterThan(STREAM); // most casts hit the terrain
  });
});
