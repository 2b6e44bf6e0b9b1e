import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../sim/scenario/scenario';
import { parseScenarioFile, scenarioWorldSpec } from '../../../sim/scenario/scenario-v2';
import { parseScenarioV1 } from '../../../sim/scenario/scenario-v1';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';
import type { Heightfield } from '../../../sim/terrain/heightfield';
import { quatRotate } from '../../../sim/math/quat';
import type { Quat } from '../../../sim/math/quat';
import type { Vec3 } from '../../../sim/math/vec3';
import type { BodySpec } from '../../../sim/dynamics/spec';
import { bundledScenarioNames, readBundled, SCENARIO_DIR, TERRAIN_DIR } from './helpers';
import { SimWorld } from '../../../sim/app/sim-world';
import { loadScenarioUrdfRobot } from '../../../sim/app/default-service';
import { readScenarioFilesAsync } from '../../../sim/node/cli';

const terrains = new Map<string, Heightfield>();
function terrain(sidecarRef: string): Heightfield {
  const name = sidecarRef.replace('../terrains/', '').replace('.json', '');
  let hf = terrains.get(name);
  if (!hf) {
    const sidecar: unknown = JSON.parse(readFileSync(join(TERRAIN_DIR, `${name}.json`), 'utf8'));
    hf = decodeTerrain(sidecar, new Uint8Array(readFileSync(join(TERRAIN_DIR, `${name}.png`))));
    terrains.set(name, hf);
  }
  return hf;
}

/** The v1 files these scenarios were before the move to v2 (git history), kept as fixtures. */
const V1_ORIGINALS: Record<string, unknown> = {
  'default.json': {
    format: 'terrawheel-scenario', version: 1, name: 'Rolling hills', terrain: '../terrains/hills.json',
    start: { position: [0, 0], yaw: 0 }, dt: 0.005,
    script: [{ t: 0, throttle: 0.8, steer: 0 }, { t: 2, throttle: 0.8, steer: 0.4 }, { t: 4, throttle: 1, steer: 0 }],
  },
  'curbs.json': {
    format: 'terrawheel-scenario', version: 1, name: 'Curb field', terrain: '../terrains/curbs.json',
    start: { position: [-13, 0], yaw: 0 }, dt: 0.005, script: [{ t: 0, throttle: 0.6, steer: 0 }],
  },
  'ramp.json': {
    format: 'terrawheel-scenario', version: 1, name: 'Ramps of 10, 20 and 30 degrees', terrain: '../terrains/ramp.json',
    start: { position: [-12, 0], yaw: 0 }, dt: 0.005, script: [{ t: 0, throttle: 0.7, steer: 0 }],
  },
};

/** The default scene's script since issue #17: left loop, right loop, then circles to the left. */
const DEFAULT_SCRIPT_SINCE_17 = [
  { t: 0, throttle: 0.8, steer: 0 }, { t: 2, throttle: 0.8, steer: 0.25 }, { t: 28, throttle: 0.8, steer: -0.25 }, { t: 54, throttle: 0.8, steer: 0.25 },
];

function axisOf(b: BodySpec): Vec3 {
  return quatRotate([0, 0, 0], (b.orientation ?? [0, 0, 0, 1]) as Quat, [0, 0, 1]);
}

describe('bundled scenarios (assets/scenarios)', () => {
  const names = bundledScenarioNames();

  it('are the three moved scenes, barrels, sandhill and one per bundled robot', () => {
    expect(names).toEqual([
      'barrels.json', 'curbs.json', 'default.json', 'ramp.json',
      'robot-ackermann-car.json', 'robot-diff-drive-caster.json', 'robot-husky.json', 'robot-leo.json', 'robot-rover6-trailer.json', 'robot-skid-steer4.json',
      'robot-turtlebot3.json',
      'sandhill.json',
    ]);
  });

  it.each(names.filter((n) => !n.startsWith('robot-')))('%s is a v2 file that parses, builds its robot on its terrain and runs in the dynamics world', (name) => {
    const raw = readBundled(name);
    expect(raw.version).toBe(2);
    const p = parseScenarioFile(raw);
    expect(p.version).toBe(2);
    expect('file' in p.terrain).toBe(true);
    const hf = terrain((p.terrain as { file: string }).file);
    expect(p.robot && 'builtin' in p.robot).toBe(true);
    expect(hf.contains(p.start.position[0], p.start.position[1])).toBe(true);
    const w = scenarioWorldSpec(p, { heightAt: (x, y) => hf.heightAt(x, y) });
    expect(w.robot?.bodies).toHaveLength(5);
    for (const b of w.bodies) if (b.position) expect(hf.contains(b.position[0], b.position[1])).toBe(true);
    expect(() => parseScenario(raw)).not.toThrow();
    const world = SimWorld.create(p, hf);
    world.step(60);
    expect(world.fault).toBeNull();
  });

  it.each(names.filter((n) => n.startsWith('robot-')))('%s loads its URDF robot, placed on its terrain, and runs in the dynamics world', async (name) => {
    const raw = readBundled(name);
    const p = parseScenarioFile(raw);
    const hf = terrain((p.terrain as { file: string }).file);
    expect(p.robot && 'urdf' in p.robot).toBe(true);
    const files = await readScenarioFilesAsync(join(SCENARIO_DIR, name));
    const robot = loadScenarioUrdfRobot(p, files, hf);
    const world = SimWorld.create(p, hf, robot);
    world.step(60);
    expect(world.fault).toBeNull();
    expect(world.engine.bodies.count).toBeGreaterThanOrEqual(3); // a base and two wheels (the TurtleBot3)
  });

  it.each(Object.keys(V1_ORIGINALS))('%s does what its v1 original did (same robot, start, dt, script)', (name) => {
    const original = parseScenarioV1(V1_ORIGINALS[name]);
    // #17: the default scene's script is a figure eight now (the v1 one drove off the map in 21 s)
    if (name === 'default.json') {
      original.script = DEFAULT_SCRIPT_SINCE_17;
      // and its rover's wheels are 0.2 m (2 cells of the 0.1 m map: no "terrain too coarse"
      // warning on the first world a user sees), with motors as much stronger (27 N·m: the same
      // wheel force, so the same figure eight)
      original.robot.wheelRadius = 0.2;
    }
    expect(parseScenario(readBundled(name))).toEqual(original);
  });
});

describe('barrels.json: the paper\'s first scene', () => {
  const p = parseScenarioFile(readBundled('barrels.json'));
  const hf = terrain('../terrains/curbs.json');
  const barrel = (name: string) => p.world.bodies.find((b) => b.name === name) as BodySpec;
  const R = 0.3;
  const H = 0.9;
  /** [m] How close "touching" is (16-bit terrain levels are 4.6 µm on this map). */
  const TOUCH = 1e-4;

  it('has three steel cylinders r 0.3 m, h 0.9 m, 50 kg on asphalt (friction 0.9)', () => {
    expect(p.world.bodies.map((b) => b.name)).toEqual(['barrel-base', 'barrel-side', 'barrel-curb']);
    for (const b of p.world.bodies) {
      expect(b.shape).toEqual({ type: 'cylinder', radius: R, height: H });
      expect(b.mass).toBe(50);
      expect(b.type).toBe('dynamic');
      expect(b.material).toBe('steel');
    }
    expect(p.world.terrainMaterials).toEqual({ material: 'asphalt', regions: [] });
    expect(p.world.materials.asphalt.friction).toBe(0.9);
  });

  it('barrel-base stands on its base: vertical axis, the whole base disc on the ground', () => {
    const b = barrel('barrel-base');
    const a = axisOf(b);
    expect(Math.abs(a[2])).toBeCloseTo(1, 12);
    const [x, y, z] = b.position as Vec3;
    for (let k = 0; k < 16; k++) {
      const th = (k / 16) * 2 * Math.PI;
      for (const rr of [0, R / 2, R]) expect(z - H / 2 - hf.heightAt(x + rr * Math.cos(th), y + rr * Math.sin(th))).toBeLessThan(TOUCH);
    }
    for (let k = 0; k < 16; k++) {
      const th = (k / 16) * 2 * Math.PI;
      expect(Math.abs(z - H / 2 - hf.heightAt(x + R * Math.cos(th), y + R * Math.sin(th)))).toBeLessThan(TOUCH);
    }
  });

  it('barrel-side lies on its side on flat ground: horizontal axis, lowest line on the ground', () => {
    const b = barrel('barrel-side');
    const a = axisOf(b);
    expect(a[2]).toBeCloseTo(0, 12);
    const [x, y, z] = b.position as Vec3;
    for (const t of [-H / 2, 0, H / 2]) expect(Math.abs(z - R - hf.heightAt(x + t * a[0], y + t * a[1]))).toBeLessThan(TOUCH);
  });

  it('barrel-curb lies on the lower ground against the 15 cm curb, touching its top edge and nowhere inside the terrain', () => {
    const b = barrel('barrel-curb');
    const a = axisOf(b);
    expect(Math.abs(a[1])).toBeCloseTo(1, 12); // axis along y, parallel to the curb line
    const [x, y, z] = b.position as Vec3;
    // the curb rises from 0.15 m to 0.30 m between x = -2.0 and -1.95 (scripts/gen-terrains.ts)
    expect(hf.heightAt(-2.0, y)).toBeCloseTo(0.15, 4);
    expect(hf.heightAt(-1.95, y)).toBeCloseTo(0.3, 4);
    expect(Math.abs(z - R - hf.heightAt(x, y))).toBeLessThan(TOUCH);
    // Brute force over a dense profile of the terrain across the curb: the circle of the barrel's
    // cross-section touches the terrain (min distance = R) at the ground below and at the curb edge.
    let minGround = Infinity;
    let minCurb = Infinity;
    for (let k = 0; k <= 4000; k++) {
      const px = x - 0.4 + (k / 4000) * 0.8;
      for (const py of [y - H / 2, y, y + H / 2]) {
        const d = Math.hypot(px - x, hf.heightAt(px, py) - z);
        if (px < -2.0) minGround = Math.min(minGround, d);
        else minCurb = Math.min(minCurb, d);
      }
    }
    expect(minGround).toBeGreaterThan(R - TOUCH);
    expect(minGround).toBeLessThan(R + TOUCH);
    expect(minCurb).toBeGreaterThan(R - TOUCH);
    expect(minCurb).toBeLessThan(R + TOUCH);
    // and the contact on the curb is its top edge (x = -1.95), not its face
    expect(Math.hypot(-1.95 - x, hf.heightAt(-1.95, y) - z)).toBeCloseTo(R, 4);
  });

  it('the rover drives past the barrels on y = -1.5 (every barrel over 3 m across its line) and stops before the map ends', () => {
    expect(p.start.position[1]).toBe(-1.5);
    for (const b of p.world.bodies) {
      const [, y] = b.position as Vec3;
      expect(Math.abs(y - p.start.position[1])).toBeGreaterThan(3);
    }
    expect(p.script.length).toBeGreaterThan(0);
    expect(p.script[0].throttle).toBeGreaterThan(0);
    expect(p.script[p.script.length - 1].throttle).toBe(0);
  });

  it('opens with a fixed camera on the barrels and the rover (issue #30): its target between them, looking down from the south-west', () => {
    const c = p.camera!;
    expect(c.mode).toBe('orbit');
    const [tx, ty] = c.target!;
    const xs = [...p.world.bodies.map((b) => (b.position as Vec3)[0]), p.start.position[0]];
    const ys = [...p.world.bodies.map((b) => (b.position as Vec3)[1]), p.start.position[1]];
    expect(tx).toBeGreaterThanOrEqual(Math.min(...xs) - 1);
    expect(tx).toBeLessThanOrEqual(Math.max(...xs) + 1);
    expect(ty).toBeGreaterThanOrEqual(Math.min(...ys) - 1);
    expect(ty).toBeLessThanOrEqual(Math.max(...ys) + 1);
    expect(c.elevation!).toBeGreaterThan(10);
    expect(c.heading!).toBeGreaterThan(0); // looking toward +x, +y
    expect(c.heading!).toBeLessThan(90);
  });
});

describe('sandhill.json: the second scene\'s terrain material map (placeholder)', () => {
  const p = parseScenarioFile(readBundled('sandhill.json'));
  const hf = terrain('../terrains/hills.json');

  it('is grass with a sand disc on a hill top, and the rover drives from grass onto it', () => {
    expect(p.world.materials.sand).toEqual({ friction: 0.5, restitution: 0, rollingResistance: 0.05 });
    expect(p.world.materials.grass.friction).toBe(0.7);
    expect(p.world.terrainMaterials.material).toBe('grass');
    const region = p.world.terrainMaterials.regions?.[0];
    expect(region?.shape).toBe('circle');
    if (region?.shape !== 'circle') return;
    expect(region.material).toBe('sand');
    const [cx, cy] = region.center;
    // on a hill: the disc's centre is higher than its rim all round
    for (let k = 0; k < 8; k++) {
      const th = (k / 8) * 2 * Math.PI;
      expect(hf.heightAt(cx, cy)).toBeGreaterThan(hf.heightAt(cx + region.radius * Math.cos(th), cy + region.radius * Math.sin(th)));
    }
    const [sx, sy] = p.start.position;
    const inside = (x: number, y: number) => Math.hypot(x - cx, y - cy) < region.radius;
    expect(inside(sx, sy)).toBe(false);
    const d = Math.hypot(cx - sx, cy - sy);
    expect(inside(sx + d * Math.cos(p.start.yaw), sy + d * Math.sin(p.start.yaw))).toBe(true);
    expect(p.script[0].throttle).toBeGreaterThan(0);
  });
});

describe('docs/file-formats.md', () => {
  it('the example in "## Scenario files" parses', () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'file-formats.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Scenario files'));
    const json = section.slice(section.indexOf('```json') + 7, section.indexOf('```', section.indexOf('```json') + 7));
    const p = parseScenarioFile(JSON.parse(json));
    expect(p.version).toBe(2);
    expect(p.world.bodies).toHaveLength(1);
  });
});
