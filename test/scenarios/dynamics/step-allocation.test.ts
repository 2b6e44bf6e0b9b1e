/**
 * Guard for the rule "hot paths allocate nothing per step": a small world (boxes and hulls
 * resting, stacked and tumbling on a bumpy heightfield, a wheel rolling on it, a hull on a
 * cylinder's cap) is stepped under V8's sampling heap profiler (objects collected by minor and
 * major GCs included), and the bytes allocated under the stepping function are averaged per step.
 *
 * What it catches: a double boxed into a HeapNumber (passed to or returned from a call V8 does not
 * inline, or a ternary mixing a tagged field with a computed double), a `[x, y, z]` literal,
 * destructuring, spread, `.map`, a closure or an options object created per call. Before the
 * hot-alloc pass this scene allocated about 2.9 KB per step (1.9 KB of it boxed clip planes in
 * clipIncidentByReference), after it about 0.3 KB (measured 2026-11-24, Node 20).
 *
 * Sampling is statistical (one sample per `SAMPLING_INTERVAL` bytes on average), and a function
 * V8 has not optimized yet boxes every double it computes: the world is warmed up first, the
 * measured run is long, and the bound leaves a wide margin.
 */
import { Session } from 'node:inspector/promises';
import { describe, expect, it } from 'vitest';
import type { BodySpec } from '../../../sim/dynamics/spec';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { AXLE_Y, makeWorld } from './helpers';

/** [B/step] Average allocation allowed after warm-up. */
const MAX_BYTES_PER_STEP = 1024;
const WARMUP_STEPS = 4000;
const MEASURED_STEPS = 2000;
/** [B] Mean bytes between two samples of the heap profiler. */
const SAMPLING_INTERVAL = 128;

type V3 = [number, number, number];

/** 61 × 61 vertices at 5 cm, gentle bumps (±2 cm): elements are not coplanar, edges get classified. */
function bumpyTerrain(): Heightfield {
  const n = 61, d = 0.05, x0 = -1.5, y0 = -1.5;
  const h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) h[j * n + i] = 0.02 * Math.sin(3 * (x0 + i * d)) * Math.cos(2.5 * (y0 + j * d));
  }
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0, y0, heights: h });
}

/** An irregular convex hull of about `r` radius (fixed points, no randomness). */
function rockPoints(r: number): V3[] {
  const pts: V3[] = [];
  for (let k = 0; k < 10; k++) {
    const a = 2.399963 * k, z = 1 - (2 * (k + 0.5)) / 10, s = Math.sqrt(1 - z * z);
    const f = r * (0.8 + 0.04 * ((k * 7) % 5));
    pts.push([f * s * Math.cos(a), f * s * Math.sin(a) * 0.8, f * z * 0.7]);
  }
  return pts;
}

function scene(): DynamicsWorld {
  const bodies: BodySpec[] = [
    // a box resting, another stacked on it
    { name: 'box1', shape: { type: 'box', halfExtents: [0.1, 0.08, 0.05] }, mass: 2, position: [-0.6, -0.5, 0.08] },
    { name: 'box2', shape: { type: 'box', halfExtents: [0.06, 0.05, 0.04] }, mass: 1, position: [-0.6, -0.5, 0.2], orientation: [0, 0, 0.2588, 0.9659] },
    // a hull resting, a hull and a box thrown in tumbling
    { name: 'rock1', shape: { type: 'hull', points: rockPoints(0.08) }, mass: 1.5, position: [0.5, -0.5, 0.1] },
    { name: 'rock2', shape: { type: 'hull', points: rockPoints(0.06) }, mass: 1, position: [0.2, 0.6, 0.35], linearVelocity: [-0.4, 0, 0], angularVelocity: [4, 2, 1] },
    { name: 'box3', shape: { type: 'box', halfExtents: [0.05, 0.05, 0.05] }, mass: 1, position: [-0.3, 0.4, 0.4], linearVelocity: [0.3, -0.2, 0], angularVelocity: [1, 5, -2] },
    // a wheel (axle along y) rolling along +x
    { name: 'wheel', shape: { type: 'cylinder', radius: 0.15, height: 0.1 }, mass: 2, position: [-0.8, 0.1, 0.17], orientation: AXLE_Y, linearVelocity: [0.5, 0, 0], angularVelocity: [0, 3.3, 0] },
    // a cylinder standing on its cap with a hull on top (cylinder vs hull: GJK, EPA, face clipping)
    { name: 'drum', shape: { type: 'cylinder', radius: 0.12, height: 0.1 }, mass: 3, position: [0.6, 0.4, 0.07] },
    { name: 'rock3', shape: { type: 'hull', points: rockPoints(0.05) }, mass: 0.5, position: [0.6, 0.4, 0.17] },
  ];
  return makeWorld(bumpyTerrain(), bodies);
}

interface HeapNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: HeapNode[];
}

/** Steps the world; the profile counts what is allocated under this function's frame. */
function stepUnderProfiler(world: DynamicsWorld, steps: number): void {
  world.step(steps);
}

async function bytesPerStep(world: DynamicsWorld, steps: number): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    // The two include… flags are newer than @types/node 20's protocol types; V8 in Node 20 has them.
    const params = { samplingInterval: SAMPLING_INTERVAL, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
    await session.post('HeapProfiler.startSampling', params);
    stepUnderProfiler(world, steps);
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
    let bytes = 0;
    const sites = new Map<string, number>();
    const walk = (node: HeapNode, inside: boolean, caller: string): void => {
      const here = inside || node.callFrame.functionName === 'stepUnderProfiler';
      const site = `${caller} > ${node.callFrame.functionName}`;
      if (here) {
        bytes += node.selfSize;
        if (node.selfSize > 0) sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
      }
      for (const c of node.children) walk(c, here, node.callFrame.functionName);
    };
    walk(profile.head, false, '');
    if (process.env.STEP_ALLOC_VERBOSE) {
      for (const [k, v] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${(v / steps).toFixed(0)} B/step ${k}`);
    }
    return bytes / steps;
  } finally {
    session.disconnect();
  }
}

describe('dynamics step allocation', () => {
  it(`allocates < ${MAX_BYTES_PER_STEP} B per step on average after warm-up (boxes, hulls, cylinders on a heightfield)`, async () => {
    const world = scene();
    stepUnderProfiler(world, WARMUP_STEPS);
    // the scene still has contacts of every kind (a world that fell apart would pass trivially)
    expect(world.contacts.count).toBeGreaterThan(8);
    const b = await bytesPerStep(world, MEASURED_STEPS);
    if (process.env.STEP_ALLOC_VERBOSE) console.log(`step allocation: ${b.toFixed(0)} B/step, ${world.contacts.count} contacts`);
    expect(b).toBeLessThan(MAX_BYTES_PER_STEP);
  });
});
