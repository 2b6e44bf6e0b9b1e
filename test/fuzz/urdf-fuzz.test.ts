/**
 * Fuzzing the URDF loader with seeded mutations of the bundled robots: byte flips, swapped
 * attribute values, deleted and duplicated elements, bad numbers, truncation, stray markup.
 * Every input must either load (and then hold only finite numbers, with a controller that
 * constructs) or throw UrdfError: never another error type, never a hang.
 *
 * 800 inputs in CI (a few seconds on the 2-core CI machine) (URDF_FUZZ_N=... for more). Bounded by counts and sizes, not a clock: the
 * property's peak-RSS growth stays under PEAK_RSS_BUDGET_BYTES (issue #28: no wall-time
 * assertions; a hang shows as the test's timeout).
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../../sim/math/random';
import { loadUrdfRobot } from '../../sim/robot/urdf/load-urdf';
import { UrdfError } from '../../sim/robot/urdf/urdf-error';
import { createDriveController } from '../../sim/robot/controllers/drive-controller';
import { parseStl } from '../../sim/robot/mesh/stl';
import { parseObj } from '../../sim/robot/mesh/obj';
import { meshCollisionHull } from '../../sim/robot/mesh/mesh-hull';
import { PEAK_RSS_BUDGET_BYTES, peakRss } from './fuzz-budget';
import { mutateXml as mutate, pick } from './xml-mutate';

const N = Number(process.env.URDF_FUZZ_N ?? 800);
const SEED = Number(process.env.URDF_FUZZ_SEED ?? 0x5eed0014);
const DIR = join(__dirname, '../../assets/robots');
const SEEDS = readdirSync(DIR)
  .filter((f) => f.endsWith('.urdf'))
  .sort()
  .map((f) => readFileSync(join(DIR, f), 'utf8'));

function allFinite(x: unknown, path: string): string | undefined {
  if (typeof x === 'number') return Number.isFinite(x) ? undefined : path;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const bad = allFinite(x[i], `${path}[${i}]`);
      if (bad) return bad;
    }
  } else if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      const bad = allFinite(v, `${path}.${k}`);
      if (bad) return bad;
    }
  }
  return undefined;
}

describe('URDF fuzz', () => {
  it(`${N} seeded mutations of the bundled robots load or throw UrdfError`, () => {
    const rng = new Rng(SEED);
    let loaded = 0, rejected = 0;
    const before = peakRss();
    for (let n = 0; n < N; n++) {
      let text = pick(rng, SEEDS);
      const rounds = rng.int(1, 3);
      for (let k = 0; k < rounds; k++) text = mutate(text, rng);
      const input = rng.next() < 0.2 ? new TextEncoder().encode(text) : text;
      try {
        const out = loadUrdfRobot(input, { position: [0, 0, 1], yaw: 0.1, lumpFixedLinks: rng.next() < 0.3 });
        const bad = allFinite(out.robot, 'robot') ?? allFinite(out.visuals, 'visuals');
        if (bad) throw new Error(`input ${n}: non-finite ${bad}\n${text}`);
        if (out.robot.controller) createDriveController(out.robot.controller, out.robot);
        loaded++;
      } catch (e) {
        if (!(e instanceof UrdfError)) {
          throw new Error(`input ${n} threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n--- input ---\n${text.slice(0, 4000)}`);
        }
        expect(e.message.length).toBeGreaterThan(10);
        rejected++;
      }
    }
    expect(loaded + rejected).toBe(N);
    // Both outcomes must occur, or the mutations are too mild / too destructive to test anything.
    expect(loaded).toBeGreaterThan(N / 20);
    expect(rejected).toBeGreaterThan(N / 5);
    expect(peakRss() - before).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
  });
});

/** A unit cube as binary STL, ASCII STL and OBJ: the mesh fuzzer's seeds. */
function meshSeeds(): { name: string; bytes: Uint8Array }[] {
  const v = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
  const f = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]];
  const bin = new Uint8Array(84 + 50 * f.length);
  const dv = new DataView(bin.buffer);
  dv.setUint32(80, f.length, true);
  f.forEach((t, i) => t.forEach((vi, c) => v[vi].forEach((x, k) => dv.setFloat32(84 + 50 * i + 12 + 12 * c + 4 * k, x, true))));
  const ascii = `solid c\n${f.map((t) => `facet normal 0 0 0\nouter loop\n${t.map((vi) => `vertex ${v[vi].join(' ')}\n`).join('')}endloop\nendfacet\n`).join('')}endsolid c\n`;
  const obj = `${v.map((p) => `v ${p.join(' ')}`).join('\n')}\n${f.map((t) => `f ${t.map((i) => i + 1).join(' ')}`).join('\n')}\n`;
  return [
    { name: 'c.stl', bytes: bin },
    { name: 'a.stl', bytes: new TextEncoder().encode(ascii) },
    { name: 'c.obj', bytes: new TextEncoder().encode(obj) },
  ];
}

describe('mesh fuzz', () => {
  it('600 seeded byte mutations of STL/OBJ cubes parse (and hull) or throw UrdfError', () => {
    const rng = new Rng(SEED ^ 0x3e5);
    const seeds = meshSeeds();
    let ok = 0;
    for (let n = 0; n < 600; n++) {
      const s = pick(rng, seeds);
      let b = s.bytes.slice();
      const op = rng.int(0, 2);
      if (op === 0) for (let k = rng.int(1, 8); k > 0; k--) b[rng.int(0, b.length - 1)] ^= 1 << rng.int(0, 7);
      else if (op === 1) b = b.slice(0, rng.int(0, b.length));
      else b[rng.int(0, b.length - 1)] = pick(rng, [0x2d, 0x2e, 0x65, 0x0a, 0x20, 0x2f, 0x66, 0x76, 0xff]);
      try {
        const m = s.name.endsWith('.obj') ? parseObj(b, s.name) : parseStl(b, s.name);
        const h = meshCollisionHull(m, [1, 1, 1], s.name);
        if (allFinite(h.points, 'points')) throw new Error(`mesh input ${n}: non-finite hull point`);
        ok++;
      } catch (e) {
        if (!(e instanceof UrdfError)) throw new Error(`mesh input ${n} (${s.name}) threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      }
    }
    expect(ok).toBeGreaterThan(30);
  });
});
