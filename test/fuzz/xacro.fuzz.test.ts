/**
 * Fuzzing the xacro importer (issue #28): seeded mutations of real xacro descriptions (the Leo
 * rover's, test/fixtures/robots/, with its included macros file) and of a small synthetic file
 * that uses every construct the importer supports (properties, math, macros with blocks,
 * conditionals, includes, args). Mutations hit the main file or the included one. Every input
 * must end in a loaded robot with finite numbers, or a UrdfError with a message: never another
 * error type, never an unbounded expansion.
 *
 * Bounded by counts and sizes, not a clock: a fixed number of inputs, and the process's peak-RSS
 * growth under PEAK_RSS_BUDGET_BYTES (a hang shows as the test's timeout).
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../../sim/math/random';
import { loadUrdfRobot } from '../../sim/robot/urdf/load-urdf';
import { UrdfError } from '../../sim/robot/urdf/urdf-error';
import { expandXacro } from '../../sim/robot/urdf/xacro';
import { FUZZ_SEED, FUZZ_TIMEOUT_MS, PEAK_RSS_BUDGET_BYTES, peakRss, runs } from './fuzz-budget';
import { mutateXml, pick } from './xml-mutate';

const N = runs(150);
const LEO = join(__dirname, '../fixtures/robots/leo/leo_description/urdf');

const NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';
const SYNTHETIC_MAIN = `<?xml version="1.0"?>
<robot name="fuzzbot" ${NS}>
  <xacro:arg name="wheels" default="4"/>
  <xacro:property name="r" value="0.1"/>
  <xacro:property name="w" value="\${r * 0.5}"/>
  <xacro:include filename="$(find fuzzbot)/urdf/parts.xacro"/>
  <link name="base"><inertial><mass value="5"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.6 0.4 0.1"/></geometry></collision></link>
  <xacro:wheel name="fl" x="0.2" y="0.25"/>
  <xacro:wheel name="fr" x="0.2" y="-0.25"/>
  <xacro:if value="\${$(arg wheels) == 4}">
    <xacro:wheel name="rl" x="-0.2" y="0.25"/>
    <xacro:wheel name="rr" x="-0.2" y="-0.25"/>
  </xacro:if>
  <xacro:unless value="\${$(arg wheels) == 4}">
    <xacro:wheel name="rc" x="-0.2" y="0"><origin xyz="0 0 0"/></xacro:wheel>
  </xacro:unless>
</robot>
`;
const SYNTHETIC_PARTS = `<?xml version="1.0"?>
<robot ${NS}>
  <xacro:macro name="wheel" params="name x y">
    <link name="\${name}_wheel"><inertial><mass value="\${2 * r}"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><origin rpy="\${pi/2} 0 0"/><geometry><cylinder radius="\${r}" length="\${w}"/></geometry></collision></link>
    <joint name="\${name}_joint" type="continuous"><parent link="base"/><child link="\${name}_wheel"/>
      <origin xyz="\${x} \${y} 0"/><axis xyz="0 1 0"/></joint>
  </xacro:macro>
</robot>
`;

interface Seed {
  main: string;
  path: string;
  files: Record<string, string>;
}

function seeds(): Seed[] {
  const leoMain = `${LEO}/leo.urdf.xacro`;
  const leoFiles: Record<string, string> = {};
  for (const f of ['leo.urdf.xacro', 'macros.xacro']) leoFiles[`${LEO}/${f}`] = readFileSync(`${LEO}/${f}`, 'utf8');
  const synthMain = '/ws/src/fuzzbot/urdf/main.xacro';
  return [
    { main: leoFiles[leoMain], path: leoMain, files: leoFiles },
    { main: SYNTHETIC_MAIN, path: synthMain, files: { [synthMain]: SYNTHETIC_MAIN, '/ws/src/fuzzbot/urdf/parts.xacro': SYNTHETIC_PARTS } },
  ];
}

function allFinite(x: unknown): boolean {
  if (typeof x === 'number') return Number.isFinite(x);
  if (Array.isArray(x)) return x.every(allFinite);
  if (x && typeof x === 'object') return Object.values(x).every(allFinite);
  return true;
}

describe('xacro fuzz', () => {
  it(`${N} seeded mutations of real and synthetic xacro expand and load, or throw UrdfError`, async () => {
    const rng = new Rng(FUZZ_SEED + 0x7ac0);
    const bases = seeds();
    let loaded = 0, rejected = 0;
    const before = peakRss();
    for (let n = 0; n < N; n++) {
      const seed = pick(rng, bases);
      const files = { ...seed.files };
      // mutate the main file, or one of the files it includes
      const target = rng.next() < 0.7 ? seed.path : pick(rng, Object.keys(files));
      let text = files[target];
      for (let k = rng.int(1, 3); k > 0; k--) text = mutateXml(text, rng);
      files[target] = text;
      const args = rng.next() < 0.3 ? { wheels: pick(rng, ['2', '4', 'x', '']) } : undefined;
      try {
        const x = await expandXacro(files[seed.path], { path: seed.path, readFile: (p) => files[p], args });
        const out = loadUrdfRobot(x.urdf, { position: [0, 0, 1], yaw: 0, urdfPath: seed.path, meshes: () => undefined });
        if (!allFinite(out.robot)) throw new Error(`input ${n}: non-finite numbers in the robot`);
        loaded++;
      } catch (e) {
        if (!(e instanceof UrdfError)) {
          throw new Error(`input ${n} threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n--- ${target} ---\n${text.slice(0, 3000)}`);
        }
        expect(e.message.length).toBeGreaterThan(10);
        rejected++;
      }
    }
    expect(loaded + rejected).toBe(N);
    // Both outcomes occur, or the mutations are too mild or too destructive to test anything.
    expect(loaded).toBeGreaterThan(N / 20);
    expect(rejected).toBeGreaterThan(N / 10);
    expect(peakRss() - before).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
  }, FUZZ_TIMEOUT_MS);
});
