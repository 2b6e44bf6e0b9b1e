/**
 * Seeded fuzzing of the scenario parsers: mutations of the bundled scenario files (values
 * replaced by hostile ones, keys deleted or added, arrays grown, numbers scaled, characters of
 * the JSON text changed). Every input must parse or throw ScenarioError; anything else (a
 * TypeError from a message builder, a RangeError from recursion) fails. What parses must satisfy
 * the result's invariants.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { parseScenario } from '../../../sim/scenario/scenario';
import { ScenarioError } from '../../../sim/scenario/scenario-guard';
import { parseScenarioFile, type ParsedScenario } from '../../../sim/scenario/scenario-v2';
import { bundledScenarioNames, readBundled } from './helpers';

const MUTANTS = Number(process.env.SCENARIO_FUZZ_MUTANTS ?? 2000);

/** A v1 file and a v2 file that uses every section, added to the bundled ones. */
const EXTRA_SEEDS: unknown[] = [
  {
    format: 'terrawheel-scenario', version: 1, name: 'v1', terrain: 't.json',
    robot: { wheelRadius: 0.2, chassisHalfExtents: [0.3, 0.2, 0.1] }, start: { position: [1, 2], yaw: 0.5 }, dt: 0.01,
    script: [{ t: 0, throttle: 1, steer: 0 }],
  },
  {
    format: 'terrawheel-scenario', version: 2, name: 'all', terrain: { cols: 2, rows: 2, dx: 1, dy: 1, x0: 0, y0: 0, heights: [0, 0, 0, 0] },
    gravity: [0, 0, -9.81], dt: 0.004, substeps: 4, sleep: true, ccd: false,
    materials: { rubber: { friction: 1, restitution: 0.2, rollingResistance: 0.01 } },
    terrainMaterials: { material: 'rubber', regions: [{ material: 'default', shape: 'polygon', points: [[0, 0], [1, 0], [0, 1]] }] },
    bodies: [
      { name: 'a', shape: { type: 'box', halfExtents: [0.1, 0.1, 0.1] }, mass: 1, orientation: [0, 0, 0, 1], material: 'rubber' },
      { name: 'b', shape: { type: 'compound', children: [{ shape: { type: 'sphere', radius: 0.1 }, position: [0, 0, 0.1] }] }, density: 500 },
      { name: 'g', shape: { type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] }, type: 'static' },
    ],
    joints: [{ type: 'revolute', name: 'j', bodyA: 'a', bodyB: 'b', axis: [0, 1, 0], limits: [-1, 1], motor: { targetVelocity: 1, maxTorque: 2 } }],
    robot: { urdf: 'r.urdf', position: [0, 0], yaw: 0, controller: { type: 'skid-steer', left: ['l'], right: ['r'], wheelRadius: 0.1, track: 0.5, maxSpeed: 1, maxTorque: 5 } },
    script: [{ t: 0, throttle: 0.5, steer: 0.1 }],
  },
];

function deepArray(depth: number): unknown {
  let v: unknown = 1;
  for (let k = 0; k < depth; k++) v = [v];
  return v;
}

/** Hostile or odd values a mutation can put anywhere. */
function randomValue(rng: Rng): unknown {
  const pool: (() => unknown)[] = [
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1e308,
    () => -1e-300,
    () => NaN,
    () => Infinity,
    () => rng.range(-10, 10),
    () => Math.floor(rng.range(0, 100)),
    () => '',
    () => 'default',
    () => 'x'.repeat(rng.int(1, 5000)),
    () => '\u0000\n"\\',
    () => [],
    () => [0, 0, 0],
    () => [0, 0, 0, 0],
    () => [1, 'a', null],
    () => ({}),
    () => ({ toString: 1 }),
    () => ({ valueOf: 1, toString: 1, constructor: 1 }),
    () => JSON.parse('{"__proto__": {"friction": 1}}'),
    () => Object.create(null),
    () => deepArray(rng.int(50, 100)),
    () => deepArray(5_000),
    () => new Array(rng.int(0, 3000)).fill(0),
    () => ({ type: 'cylinder', radius: 0.3, height: 0.9 }),
    () => ({ type: 'sphere', radius: rng.range(-1, 1) }),
    () => [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)],
    () => ({ name: 'b', shape: { type: 'box', halfExtents: [1, 1, 1] }, mass: 1 }),
    () => ({ type: 'revolute', name: 'j2', bodyB: 'nope' }),
    () => ({ t: rng.range(-1, 5), throttle: rng.range(-2, 2), steer: 0 }),
  ];
  return pool[rng.int(0, pool.length - 1)]();
}

/** Every container (object or array) in `root`, with the keys that reach it. */
function containers(root: unknown): { node: Record<string, unknown> | unknown[]; key: string | number }[] {
  const out: { node: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      if (v.length > 50) continue; // do not descend into big arrays we planted
      v.forEach((c, k) => {
        out.push({ node: v, key: k });
        stack.push(c);
      });
    } else {
      for (const k of Object.keys(v)) {
        out.push({ node: v as Record<string, unknown>, key: k });
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return out;
}

function mutate(seed: unknown, rng: Rng): unknown {
  const root = structuredClone(seed) as Record<string, unknown>;
  const edits = rng.int(1, 3);
  for (let e = 0; e < edits; e++) {
    const slots = containers(root);
    if (slots.length === 0) break;
    const { node, key } = slots[rng.int(0, slots.length - 1)];
    const op = rng.int(0, 6);
    const rec = node as Record<string | number, unknown>;
    if (op === 0 || op === 1) rec[key] = randomValue(rng);
    else if (op === 2) {
      if (Array.isArray(node)) node.splice(key as number, 1);
      else delete rec[key];
    } else if (op === 3 && !Array.isArray(node)) rec[['radus', 'extra', '__proto__', 'constructor', 'toString', 'type'][rng.int(0, 5)]] = randomValue(rng);
    else if (op === 4 && typeof rec[key] === 'number') rec[key] = (rec[key] as number) * [1e3, -1, 1e-3, 0, 1e9][rng.int(0, 4)];
    else if (op === 5 && Array.isArray(node)) node.push(structuredClone(node[key as number]));
    else if (op === 6 && typeof rec[key] === 'number') rec[key] = String(rec[key]);
    else rec[key] = randomValue(rng);
  }
  return root;
}

/** Changes a few characters of the JSON text; returns undefined when the result is not JSON. */
function mutateText(seed: unknown, rng: Rng): unknown {
  const text = JSON.stringify(seed).split('');
  const alphabet = '{}[]",:0123456789.-eE truefalsenul';
  for (let k = rng.int(1, 3); k > 0; k--) text[rng.int(0, text.length - 1)] = alphabet[rng.int(0, alphabet.length - 1)];
  try {
    return JSON.parse(text.join(''));
  } catch {
    return undefined;
  }
}

/** What must hold for anything that parses. */
function checkInvariants(p: ParsedScenario): void {
  const w = p.world;
  expect(w.materials.default).toBeDefined();
  expect(w.dt).toBeGreaterThanOrEqual(1e-4);
  expect(w.dt).toBeLessThanOrEqual(0.05);
  expect(Number.isInteger(w.substeps)).toBe(true);
  const names = new Set<string>();
  for (const b of w.bodies) {
    expect(names.has(b.name)).toBe(false);
    names.add(b.name);
    if (b.orientation) expect(Math.abs(Math.hypot(...b.orientation) - 1)).toBeLessThan(1e-12);
    if (b.type === 'dynamic') expect(b.mass !== undefined || b.density !== undefined).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(w.materials, b.material ?? 'default')).toBe(true);
  }
  for (const j of w.joints) {
    if (j.axis) expect(Math.abs(Math.hypot(...j.axis) - 1)).toBeLessThan(1e-12);
  }
  for (let k = 1; k < p.script.length; k++) expect(p.script[k].t).toBeGreaterThanOrEqual(p.script[k - 1].t);
}

describe('scenario parser fuzz (seeded)', () => {
  it(`${MUTANTS} mutations of the bundled scenarios: parse or ScenarioError, never another error`, () => {
    const seeds = [...bundledScenarioNames().map(readBundled), ...EXTRA_SEEDS];
    const rng = new Rng(0x5ce7a210);
    let parsed = 0;
    let rejected = 0;
    const others: string[] = [];
    for (let n = 0; n < MUTANTS; n++) {
      const seed = seeds[n % seeds.length];
      const input = n % 5 === 4 ? mutateText(seed, rng) : mutate(seed, rng);
      if (input === undefined) continue;
      for (const f of [parseScenarioFile, parseScenario] as ((raw: unknown) => unknown)[]) {
        try {
          const out = f(input);
          if (f === parseScenarioFile) {
            checkInvariants(out as ParsedScenario);
            parsed++;
          }
        } catch (e) {
          if (e instanceof ScenarioError) {
            if (f === parseScenarioFile) rejected++;
            expect(e.message.length).toBeLessThan(2000);
          } else others.push(`mutant ${n}: ${(e as Error).name}: ${(e as Error).message}`);
        }
      }
    }
    expect(others).toEqual([]);
    // both outcomes are exercised
    expect(parsed).toBeGreaterThan(MUTANTS / 20);
    expect(rejected).toBeGreaterThan(MUTANTS / 4);
  });
});
