/**
 * The renderer's inspection logic without a DOM: contact detail (slip from body velocities),
 * terrain elements, manifold grouping, selection following, entity state and tree, warnings,
 * status text, remembered settings, the plots' time window and series, the manifold view's
 * footprint geometry.
 */
import { describe, expect, it } from 'vitest';
import { contactDetail, terrainElement } from '../../../renderer/inspect/contact-detail';
import { groupManifolds } from '../../../renderer/inspect/manifolds';
import { contactHighlighted, followSelection, FOLLOW_RADIUS, selectContact } from '../../../renderer/inspect/selection';
import { bodyState, entityTree, jointState, rollPitchYaw } from '../../../renderer/inspect/entities';
import { boundingRadius, frameWarnings, worldWarnings } from '../../../sim/app/warnings';
import { contactSummary, statusText } from '../../../renderer/app/status-text';
import { DEFAULT_UI_SETTINGS, forceLegend, loadUiSettings, parseUiSettings, saveUiSettings, UI_SETTINGS_KEY } from '../../../renderer/app/ui-settings';
import { TimeWindow, WINDOW_MAX_S, WINDOW_MIN_S } from '../../../renderer/panels/time-window';
import { availableSeries } from '../../../renderer/panels/plot-series';
import { convexHull2, cylinderSection, manifoldPicture, wheelOfSelection } from '../../../renderer/inspect/manifold-geometry';
import type { BodyInfo, JointInfo, TerrainInfo, WorldInfo } from '../../../sim/app/protocol';
import { heightsOfArray, type TerrainHeights } from '../../../renderer/inspect/terrain-heights';

/** A 3×3-vertex terrain: cell (0,0) flat at 0 (a rectangle), cell (1,0) twisted (two triangles). */
const HEIGHTS = [0, 0, 0, 0, 0, 0.3, 0, 0, 0];
function terrain(): TerrainInfo {
  const heights = Float32Array.from(HEIGHTS);
  return { cols: 3, rows: 3, dx: 1, dy: 1, x0: 0, y0: 0, minHeight: 0, maxHeight: 0.3, overview: { stride: 1, cols: 3, rows: 3, heights } };
}
/** The exact heights of terrain() (the app fetches them from the worker). */
const exact = (t: TerrainInfo = terrain()): TerrainHeights => heightsOfArray(t, HEIGHTS);

const bodies: BodyInfo[] = [
  { name: 'chassis', role: 'chassis', shape: { type: 'box', halfExtents: [0.3, 0.2, 0.1] } },
  { name: 'wheel_l', role: 'wheel', shape: { type: 'cylinder', radius: 0.15, height: 0.1 }, wheel: { radius: 0.15, height: 0.1, position: [0, 0, 0], orientation: [0, 0, 0, 1] } },
  { name: 'rock', role: 'obstacle', shape: { type: 'sphere', radius: 0.2 } },
];
const joints: JointInfo[] = [{ name: 'axle_l', type: 'revolute', bodyA: 0, bodyB: 1, motor: true }];
const world = (t = terrain()): WorldInfo => ({ scenarioName: 't', dt: 0.01, terrain: t, bodies, joints, baseBody: 0 });

/** contact records: [px py pz nx ny nz depth jn jt1 jt2], info [kind a b i j] or [kind a b i j element] (−1 when left out) */
function frame(cs: number[][], info: number[][], poses?: number[], vel?: number[]) {
  return {
    step: 7,
    time: 0.07,
    poses: Float32Array.from(poses ?? [0, 0, 0.5, 0, 0, 0, 1, 0, 0.3, 0.15, 0, 0, 0, 1, 2, 2, 0.2, 0, 0, 0, 1]),
    velocities: vel ? Float32Array.from(vel) : undefined,
    contacts: Float32Array.from(cs.flat()),
    contactInfo: Int32Array.from(info.flatMap((r) => (r.length === 5 ? [...r, -1] : r))),
  };
}

describe('contactDetail', () => {
  it('reads every field, turns impulses into forces and finds the slip of a wheel rolling with slip', () => {
    // wheel at (0, 0.3, 0.15) moving at vx = 1 m/s, spinning about its axle (y) at ωy = 5 rad/s:
    // the bottom point (r = (0, 0, −0.15)) moves at vx + ωy·rz = 1 − 0.75 = 0.25 m/s forward.
    const vel = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0];
    const f = frame([[0, 0.3, 0, 0, 0, 1, 0.002, 0.5, 0.03, -0.04]], [[2, 1, -1, 0, 0]], undefined, vel);
    const d = contactDetail(f, 0, 0.01, exact())!;
    expect(d.kindName).toBe('side');
    expect([d.bodyA, d.bodyB, d.cellI, d.cellJ]).toEqual([1, -1, 0, 0]);
    expect(d.element).toBe('rectangle');
    expect(d.point[1]).toBeCloseTo(0.3, 6);
    expect(d.depth).toBeCloseTo(0.002, 7);
    expect(d.normalForce).toBeCloseTo(50, 4);
    expect(d.frictionForce).toBeCloseTo(5, 4);
    expect(d.slip![0]).toBeCloseTo(0.25, 5);
    expect(d.slip![1]).toBeCloseTo(0, 6);
    expect(d.slip![2]).toBeCloseTo(0, 6);
    expect(d.slipSpeed).toBeCloseTo(0.25, 5);
    expect(d.normalSpeed).toBeCloseTo(0, 6);
  });
  it('has no slip without velocities and null for an index out of range', () => {
    const f = frame([[0, 0.3, 0, 0, 0, 1, 0, 0, 0, 0]], [[2, 1, -1, 0, 0]]);
    expect(contactDetail(f, 0, 0.01, null)!.slip).toBeNull();
    expect(contactDetail(f, 1, 0.01, null)).toBeNull();
    expect(contactDetail(f, -1, 0.01, null)).toBeNull();
  });
  it('body–body: relative velocity of A against B', () => {
    const vel = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0];
    const f = frame([[2, 2, 0.4, 0, 0, 1, 0, 0, 0, 0]], [[9, 0, 2, -1, -1]], undefined, vel);
    const d = contactDetail(f, 0, 0.01, exact())!;
    expect(d.kindName).toBe('body');
    expect(d.element).toBeNull();
    expect(d.slip![0]).toBeCloseTo(-2, 6); // A at rest, B moving +x
  });
});

describe('terrainElement', () => {
  it('classifies like the heightfield: planar rectangle, else lower/upper triangle on V1–V2', () => {
    const t = exact();
    expect(terrainElement(t, 0, 0, 0.9, 0.9)).toBe('rectangle');
    expect(terrainElement(t, 1, 0, 1.2, 0.2)).toBe('lower triangle');
    expect(terrainElement(t, 1, 0, 1.8, 0.8)).toBe('upper triangle');
    expect(terrainElement(t, 2, 0, 2.5, 0.5)).toBeNull();
  });
});

describe('groupManifolds', () => {
  it('one group per body pair and normal within 10°; sums and maxima per group', () => {
    const c9 = [Math.sin(0.15), 0, Math.cos(0.15)]; // 8.6° off z: same patch
    const c12 = [Math.sin(0.21), 0, Math.cos(0.21)]; // 12° off z: another patch
    const g = groupManifolds(
      Float32Array.from([[0, 0, 0, 0, 0, 1, 0.001, 1, 0, 0], [0.1, 0, 0, ...c9, 0.003, 2, 0, 0], [0.2, 0, 0, ...c12, 0.002, 4, 0, 0], [0, 0, 0, 0, 0, 1, 0.001, 8, 0, 0]].flat()),
      Int32Array.from([[0, 1, -1, 3, 4, 0], [2, 1, -1, 4, 4, 1], [2, 1, -1, 4, 4, 2], [9, 0, 2, -1, -1, -1]].flat()),
    );
    expect(g.map((m) => m.contacts)).toEqual([[0, 1], [2], [3]]);
    expect(g[0].maxDepth).toBeCloseTo(0.003, 7);
    expect(g[0].normalImpulse).toBeCloseTo(3, 6);
    expect(g[0].kinds).toEqual([0, 2]);
    expect(g[0].cells).toEqual(['3,4', '4,4']);
    expect(g[2].cells).toEqual([]);
  });
});

describe('selection', () => {
  const cs = [[0, 0, 0, 0, 0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]];
  const info = [[2, 1, -1, 0, 0], [2, 3, -1, 1, 0]];
  it('follows a contact to the nearest one of the same body pair in the next frame', () => {
    const f = frame(cs, info);
    const sel = selectContact(f.contacts, f.contactInfo, 0);
    // next frame: order changed, the contact moved 5 cm
    const g = frame([[1, 0, 0, 0, 0, 1, 0, 0, 0, 0], [0.05, 0, 0, 0, 0, 1, 0, 0, 0, 0]], [[2, 3, -1, 1, 0], [2, 1, -1, 0, 0]]);
    const next = followSelection(sel, g.contacts, g.contactInfo);
    expect(next.type === 'contact' && next.index).toBe(1);
    // gone when the pair's nearest contact is farther than FOLLOW_RADIUS
    const h = frame([[FOLLOW_RADIUS + 0.1, 0, 0, 0, 0, 1, 0, 0, 0, 0]], [[2, 1, -1, 0, 0]]);
    const gone = followSelection(next, h.contacts, h.contactInfo);
    expect(gone.type === 'contact' && gone.index).toBe(-1);
  });
  it('highlights the selected contact, every contact of a selected body, the contacts in a selected cell', () => {
    const f = frame(cs, info);
    expect([0, 1].map((k) => contactHighlighted({ type: 'body', body: 3 }, f.contactInfo, k))).toEqual([false, true]);
    expect([0, 1].map((k) => contactHighlighted(selectContact(f.contacts, f.contactInfo, 0), f.contactInfo, k))).toEqual([true, false]);
    expect([0, 1].map((k) => contactHighlighted({ type: 'cell', i: 1, j: 0 }, f.contactInfo, k))).toEqual([false, true]);
    expect(contactHighlighted({ type: 'none' }, f.contactInfo, 0)).toBe(false);
  });
});

describe('entities', () => {
  it('roll, pitch, yaw of z-y-x rotations', () => {
    const out: [number, number, number] = [0, 0, 0];
    const s = Math.sin(0.25), c = Math.cos(0.25);
    expect(rollPitchYaw(out, 0, 0, s, c)[2]).toBeCloseTo(0.5, 6); // 0.5 rad about z
    rollPitchYaw(out, 0, s, 0, c);
    expect(out[1]).toBeCloseTo(0.5, 6);
    expect(out[0]).toBeCloseTo(0, 6);
    rollPitchYaw(out, s, 0, 0, c);
    expect(out[0]).toBeCloseTo(0.5, 6);
    // yaw then pitch: q = qz(0.4)·qy(0.3)
    const qz = [0, 0, Math.sin(0.2), Math.cos(0.2)], qy = [0, Math.sin(0.15), 0, Math.cos(0.15)];
    const q = [qz[3] * qy[0] + qz[0] * qy[3] + qz[1] * qy[2] - qz[2] * qy[1], qz[3] * qy[1] - qz[0] * qy[2] + qz[1] * qy[3] + qz[2] * qy[0], qz[3] * qy[2] + qz[0] * qy[1] - qz[1] * qy[0] + qz[2] * qy[3], qz[3] * qy[3] - qz[0] * qy[0] - qz[1] * qy[1] - qz[2] * qy[2]];
    rollPitchYaw(out, q[0], q[1], q[2], q[3]);
    expect(out[0]).toBeCloseTo(0, 6);
    expect(out[1]).toBeCloseTo(0.3, 6);
    expect(out[2]).toBeCloseTo(0.4, 6);
  });
  it('body and joint state from a frame; the tree hangs wheels under the base through their joints', () => {
    const f = frame([], [], undefined, [1, 2, 2, 0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const b = bodyState(bodies, f.poses, f.velocities, 0)!;
    expect(b.position).toEqual([0, 0, 0.5]);
    expect(b.speed).toBeCloseTo(3, 6);
    expect(b.angularVelocity![2]).toBeCloseTo(0.5, 6);
    expect(bodyState(bodies, f.poses, undefined, 0)!.velocity).toBeNull();
    expect(bodyState(bodies, f.poses, undefined, 7)).toBeNull();
    const j = jointState(bodies, joints, Float32Array.from([1.5, 3, -2]), 0)!;
    expect([j.coordinate, j.rate, j.effort, j.parent, j.child]).toEqual([1.5, 3, -2, 'chassis', 'wheel_l']);
    const tree = entityTree(bodies, joints, 0);
    expect(tree.map((n) => `${n.kind}:${n.index}`)).toEqual(['body:0', 'body:2']);
    expect(tree[0].children[0].kind).toBe('joint');
    expect(tree[0].children[0].children[0].index).toBe(1);
  });
});

describe('warnings', () => {
  it('terrain too coarse when a wheel radius is under two cells, one line per radius', () => {
    const coarse = { ...terrain(), dx: 0.1, dy: 0.1 };
    expect(worldWarnings(world(coarse))).toEqual([expect.stringContaining('terrain too coarse for wheel_l: radius 0.150 m is 1.5 cells')]);
    expect(worldWarnings(world({ ...terrain(), dx: 0.05, dy: 0.05 }))).toEqual([]);
  });
  it('a body moving more than its size per step, and the base leaving the map', () => {
    const w = world();
    const sizes = bodies.map((b) => boundingRadius(b.shape));
    expect(sizes[2]).toBe(0.2);
    const fast = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 41, 0, 0, 0, 0, 0]; // 0.41 m per 0.01 s step > 0.4 m
    const f = frame([], [], undefined, fast);
    expect(frameWarnings(w, f.poses, f.velocities, sizes)).toEqual([expect.stringContaining('rock moves 0.410 m per step')]);
    const off = frame([], [], [2.5, -0.1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(frameWarnings(w, off.poses, undefined, sizes)).toEqual(['left the terrain at x 2.50, y -0.10 m']);
  });
});

describe('status text', () => {
  it('counts contacts per case and shows the frame time', () => {
    expect(contactSummary(Int32Array.from([2, 0, -1, 0, 0, 1, 2, 0, -1, 0, 0, 2, 9, 0, 1, -1, -1, -1]))).toBe('3 (side 2, body 1)');
    expect(contactSummary(new Int32Array(0))).toBe('0');
    const t = statusText({ frame: { time: 1.234, step: 12, realtimeFactor: 1, speed: 0.5, contactInfo: new Int32Array(0) }, fps: 30, paused: true, timeScale: 1, host: 'web', softwareGL: false, terrainStride: 1, workerError: null, selection: 'body rock' });
    expect(t).toContain('t 1.23 s');
    expect(t).toContain('PAUSED');
    expect(t).toContain('selected body rock');
  });
});

describe('ui settings', () => {
  it('the force arrows\' numeric scale: kept when a finite N/m in range, persisted with auto, shown in the legend', () => {
    expect(DEFAULT_UI_SETTINGS.forceScaleAuto).toBe(true);
    expect(parseUiSettings({ forceScale: 350, forceScaleAuto: false })).toMatchObject({ forceScale: 350, forceScaleAuto: false });
    for (const bad of [0, -5, Number.NaN, 1e9, '300', null]) expect(parseUiSettings({ forceScale: bad }).forceScale).toBe(DEFAULT_UI_SETTINGS.forceScale);
    const mem = new Map<string, string>();
    const store = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) };
    saveUiSettings(store, { ...DEFAULT_UI_SETTINGS, normalScale: 'force', forceScale: 125, forceScaleAuto: false });
    expect(loadUiSettings(store)).toMatchObject({ normalScale: 'force', forceScale: 125, forceScaleAuto: false });
    // the legend: only while normals scale by force with contacts shown, in the display's force unit
    const s = { ...DEFAULT_UI_SETTINGS, normalScale: 'force' as const, forceScaleAuto: false };
    expect(forceLegend(s, 125)).toBe('force arrows: 1 m = 125 N');
    expect(forceLegend({ ...s, forceScaleAuto: true }, 2000)).toBe('force arrows: 1 m = 2000 N (auto)');
    expect(forceLegend({ ...s, units: { ...s.units, force: 'kN' } }, 2000)).toBe('force arrows: 1 m = 2.00 kN');
    expect(forceLegend({ ...s, normalScale: 'depth' }, 125)).toBe('');
    expect(forceLegend({ ...s, showContacts: false }, 125)).toBe('');
  });
  it('keeps valid fields, drops the rest, and round-trips through a store', () => {
    const s = parseUiSettings({ xray: true, normalScale: 'weird', camera: 'top', plots: ['speed', 3], closedPanels: ['view'] });
    expect(s.xray).toBe(true);
    expect(s.normalScale).toBe('depth');
    expect(s.camera).toBe('top');
    expect(s.plots).toEqual(DEFAULT_UI_SETTINGS.plots);
    expect(s.closedPanels).toEqual(['view']);
    const mem = new Map<string, string>();
    const store = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) };
    saveUiSettings(store, { ...s, showAabbs: true });
    expect(loadUiSettings(store).showAabbs).toBe(true);
    mem.set(UI_SETTINGS_KEY, '{not json');
    expect(loadUiSettings(store)).toEqual(DEFAULT_UI_SETTINGS);
    expect(loadUiSettings(null)).toEqual(DEFAULT_UI_SETTINGS);
  });
});

describe('TimeWindow', () => {
  it('zooms within limits and pans back no further than the first sample', () => {
    const w = new TimeWindow(10);
    w.zoom(100);
    expect(w.length).toBe(WINDOW_MAX_S);
    w.zoom(1e-6);
    expect(w.length).toBe(WINDOW_MIN_S);
    w.length = 10;
    w.pan(5, 30, 0);
    expect(w.range([0, 0], 30)).toEqual([15, 25]);
    w.pan(100, 30, 0);
    expect(w.offset).toBe(20);
    expect(w.live).toBe(false);
    w.pan(-100, 30, 0);
    expect(w.live).toBe(true);
  });
});

describe('plot series', () => {
  it('offers per-wheel depth, force, count and slip and per-body speed, pitch, roll', () => {
    const defs = availableSeries(world());
    const keys = defs.map((d) => d.key);
    expect(keys).toEqual(expect.arrayContaining(['speed', 'contacts', 'wheel:1:depth', 'wheel:1:force', 'wheel:1:count', 'wheel:1:slip', 'body:0:pitch', 'body:2:speed']));
    const f = { ...frame([[0, 0.3, 0, 0, 0, 1, 0.002, 0.5, 0, 0], [0, 0.35, 0, 0, 0, 1, 0.004, 0.25, 0, 0]], [[2, 1, -1, 0, 0], [2, 1, -1, 0, 0]]), speed: 0.7 };
    const at = (k: string): number => defs.find((d) => d.key === k)!.sample(f, 0.01);
    // samples are SI (the legend converts them): the deepest of 2 mm and 4 mm, in metres
    expect(at('wheel:1:depth')).toBeCloseTo(0.004, 7);
    expect(defs.find((d) => d.key === 'wheel:1:depth')!.quantity).toBe('length');
    expect(defs.find((d) => d.key === 'body:0:pitch')!.quantity).toBe('angle');
    expect(at('wheel:1:force')).toBeCloseTo(75, 3);
    expect(at('wheel:1:count')).toBe(2);
    expect(at('speed')).toBeCloseTo(0.7, 6);
    expect(at('body:0:pitch')).toBeCloseTo(0, 6);
  });

  it('a wheel\'s slip: its contacts\' slip speeds weighted by normal impulse; NaN without contacts or velocities', () => {
    // wheel 1 at (0, 0.3, 0.15) moving +x at 1 m/s and yawing at 5 rad/s: its material points at
    // y = 0.4 and 0.2 slide at 0.5 and 1.5 m/s over the ground
    const vel = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0];
    const cs = (j1: number, j2: number) => [[0, 0.4, 0, 0, 0, 1, 0.001, j1, 0, 0], [0, 0.2, 0, 0, 0, 1, 0.001, j2, 0, 0]];
    const info = [[0, 1, -1, 0, 0], [0, 1, -1, 0, 0]];
    const slip = availableSeries(world()).find((d) => d.key === 'wheel:1:slip')!;
    expect(slip.quantity).toBe('speed');
    const f = { ...frame(cs(0.3, 0.1), info, undefined, vel), speed: 1 };
    // the inspector's slip of each contact (contactDetail) is the oracle
    expect(contactDetail(f, 0, 0.01, null)!.slipSpeed).toBeCloseTo(0.5, 6);
    expect(contactDetail(f, 1, 0.01, null)!.slipSpeed).toBeCloseTo(1.5, 6);
    expect(slip.sample(f, 0.01)).toBeCloseTo((0.3 * 0.5 + 0.1 * 1.5) / 0.4, 6);
    // no impulse: the plain mean
    expect(slip.sample({ ...frame(cs(0, 0), info, undefined, vel), speed: 1 }, 0.01)).toBeCloseTo(1, 6);
    expect(slip.sample({ ...frame(cs(0.3, 0.1), info), speed: 1 }, 0.01)).toBeNaN();
    expect(slip.sample({ ...frame([], [], undefined, vel), speed: 1 }, 0.01)).toBeNaN();
  });
});

describe('manifold geometry', () => {
  it('the footprint of a wheel pressed d into flat ground is 2√(2rd − d²) long and as wide as the wheel', () => {
    const r = 0.15, hh = 0.05, d = 0.004;
    // wheel axis along y, centre at height r − d above the plane z = 0
    const fp = cylinderSection([0, 0, r - d], [0, 1, 0], r, hh, [0, 0, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]);
    let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
    for (let k = 0; k < fp.length; k += 2) {
      u0 = Math.min(u0, fp[k]); u1 = Math.max(u1, fp[k]);
      v0 = Math.min(v0, fp[k + 1]); v1 = Math.max(v1, fp[k + 1]);
    }
    expect(v1 - v0).toBeCloseTo(2 * hh, 9);
    const exact = 2 * Math.sqrt(2 * r * d - d * d);
    expect(Math.abs(u1 - u0 - exact) / exact).toBeLessThan(0.02); // the 96-gon prism
    expect(Math.abs(u0 + u1)).toBeLessThan(1e-3); // centred under the axle
    // a wheel above the plane has no footprint
    expect(cylinderSection([0, 0, r + 0.01], [0, 1, 0], r, hh, [0, 0, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0])).toEqual([]);
  });
  it('convex hull of a square with an inner point', () => {
    expect(convexHull2([0, 0, 1, 0, 0.5, 0.5, 1, 1, 0, 1])).toEqual([0, 0, 1, 0, 1, 1, 0, 1]);
  });
  it('a picture of the selected wheel: points in the rolling/across-tread plane, element outlines', () => {
    // wheel 1 at (0.5, 0.5, 0.146) rotated so its axis (local z) points along world y: q = rot(−90° about x)
    const s = Math.SQRT1_2;
    const poses = [0, 0, 0.5, 0, 0, 0, 1, 0.5, 0.5, 0.146, -s, 0, 0, s, 2, 2, 0.2, 0, 0, 0, 1];
    const f = frame([[0.5, 0.47, 0, 0, 0, 1, 0.004, 0.5, 0, 0], [0.5, 0.53, 0, 0, 0, 1, 0.004, 0.5, 0, 0]], [[0, 1, -1, 0, 0], [0, 1, -1, 0, 0]], poses);
    const w = world();
    expect(wheelOfSelection(w, { type: 'none' }, f.contactInfo)).toBe(1);
    const pic = manifoldPicture(w, exact(), f.poses, f.contacts, f.contactInfo, 1)!;
    expect(pic.points.map((p) => Math.abs(p.u) < 1e-6)).toEqual([true, true]); // both on the axle's line
    expect(Math.abs(pic.points[0].v - pic.points[1].v)).toBeCloseTo(0.06, 5);
    expect(pic.elements).toHaveLength(1); // cell (0,0) is one rectangle
    expect(pic.footprint.length).toBeGreaterThanOrEqual(8);
    // the paper's construction on that rectangle: case B, the side trapezoid around the lowest line
    const c = pic.construction!;
    expect(c.case).toBe('B');
    expect(c.element).toBe('rectangle');
    const r = w.bodies[1].shape.type === 'cylinder' ? w.bodies[1].shape.radius : NaN, d = r - 0.146;
    expect(c.halfWidthL).toBeCloseTo(Math.sqrt(d * (2 * r - d)), 5);
    expect(c.trapezoid).toHaveLength(8);
    // the lowest line runs across the tread (v), under the axle (u = 0)
    expect(Math.abs(c.lowestLine[0])).toBeLessThan(1e-5);
    expect(Math.abs(c.lowestLine[2])).toBeLessThan(1e-5);
    // every contact's normal is the plane's: no component in the picture's plane
    for (const p of pic.points) expect(p.nn).toBeCloseTo(1, 6);
  });
  it('a wheel whose cylinder sits off its body\'s origin and turned in it (a URDF collision origin: the Husky\'s, the Leo\'s) has the plain wheel\'s picture', () => {
    const s = Math.SQRT1_2;
    const cs = [[0.5, 0.47, 0, 0, 0, 1, 0.004, 0.5, 0, 0], [0.5, 0.53, 0, 0, 0, 1, 0.004, 0.5, 0, 0]];
    const info = [[0, 1, -1, 0, 0], [0, 1, -1, 0, 0]];
    // the plain wheel: its body is the cylinder, at (0.5, 0.5, 0.146) with its axis along world y
    const plain = frame(cs, info, [0, 0, 0.5, 0, 0, 0, 1, 0.5, 0.5, 0.146, -s, 0, 0, s, 2, 2, 0.2, 0, 0, 0, 1]);
    const want = manifoldPicture(world(), exact(), plain.poses, plain.contacts, plain.contactInfo, 1)!;
    // the same cylinder 5 cm along its axis from the body's origin, the body turned 180° about z:
    // the body frame's −y is the axle (a +90° turn about x takes the cylinder's z to −y)
    const cylinder = { type: 'cylinder', radius: 0.15, height: 0.1 } as const;
    const inBody = { position: [0, 0.05, 0] as [number, number, number], orientation: [s, 0, 0, s] as [number, number, number, number] };
    const compound: BodyInfo = { name: 'wheel_l', role: 'wheel', shape: { type: 'compound', children: [{ shape: cylinder, ...inBody }] }, wheel: { radius: 0.15, height: 0.1, ...inBody } };
    const w: WorldInfo = { ...world(), bodies: [bodies[0], compound, bodies[2]] };
    const turned = frame(cs, info, [0, 0, 0.5, 0, 0, 0, 1, 0.5, 0.55, 0.146, 0, 0, 1, 0, 2, 2, 0.2, 0, 0, 0, 1]);
    expect(wheelOfSelection(w, { type: 'body', body: 1 }, turned.contactInfo)).toBe(1);
    const got = manifoldPicture(w, exact(), turned.poses, turned.contacts, turned.contactInfo, 1)!;
    const close = (a: readonly number[], b: readonly number[]): void => {
      expect(a).toHaveLength(b.length);
      a.forEach((x, k) => expect(x).toBeCloseTo(b[k], 5));
    };
    // the same polygon (the hull may start at another of two corners tied in float32)
    const samePolygon = (a: readonly number[], b: readonly number[]): void => {
      expect(a.length).toBe(b.length);
      for (let k = 0; k < a.length; k += 2) expect(Math.min(...b.map((_, m) => (m % 2 ? Infinity : Math.hypot(a[k] - b[m], a[k + 1] - b[m + 1]))))).toBeLessThan(1e-5);
    };
    close(got.uAxis, want.uAxis);
    samePolygon(got.footprint, want.footprint);
    close(got.points.flatMap((p) => [p.u, p.v]), want.points.flatMap((p) => [p.u, p.v]));
    expect(got.construction!.case).toBe(want.construction!.case);
    samePolygon(got.construction!.trapezoid, want.construction!.trapezoid);
    samePolygon(got.construction!.lowestLine, want.construction!.lowestLine); // its ends tie on flat ground
    expect(got.construction!.halfWidthL).toBeCloseTo(want.construction!.halfWidthL, 6);
  });
});
