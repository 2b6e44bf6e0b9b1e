/**
 * The app's world (SimWorld over the dynamics world) and the simulation service: scenario
 * files in, frames out, the drive and the script, bad files refused with the running world kept.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, resolveRelative, ScenarioError } from '../../../sim/scenario/scenario';
import { parseScenarioFile } from '../../../sim/scenario/scenario-v2';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { SimServiceImpl } from '../../../sim/app/service';
import { SimWorld } from '../../../sim/app/sim-world';
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE, POSE_STRIDE } from '../../../sim/dynamics/frame-layout';

function plane(cols: number, rows: number, dx: number, slopeX = 0): Heightfield {
  const h = new Float64Array(cols * rows);
  for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) h[j * cols + i] = slopeX * i * dx;
  return Heightfield.fromArray({ cols, rows, dx, dy: dx, heights: h });
}

const baseScenario = {
  format: 'terrawheel-scenario',
  version: 1,
  name: 'test',
  terrain: 't.json',
  start: { position: [5, 5], yaw: 0 },
  dt: 0.005,
};

const world = (raw: unknown = baseScenario, hf = plane(101, 101, 0.1)) => SimWorld.create(parseScenarioFile(raw), hf);

describe('scenario parsing (v1 compatibility)', () => {
  it('accepts a minimal scenario and fills defaults', () => {
    const s = parseScenario(baseScenario);
    expect(s.robot.wheelRadius).toBeGreaterThan(0);
    expect(s.script).toEqual([]);
  });

  it.each([
    [{ ...baseScenario, format: 'x' }, /"format"/],
    [{ ...baseScenario, version: 3 }, /"version" 3 is not supported/],
    [{ ...baseScenario, version: 2 }, /unknown field "start"/],
    [{ ...baseScenario, dt: 0 }, /"dt" must be between/],
    [{ ...baseScenario, dt: NaN }, /"dt" must be a finite number/],
    [{ ...baseScenario, start: { position: [1], yaw: 0 } }, /start.position/],
    [{ ...baseScenario, robot: { wheelRadius: -1 } }, /robot.wheelRadius/],
    [{ ...baseScenario, script: [{ t: 1, throttle: 0 }, { t: 0.5, throttle: 0 }] }, /sorted by t/],
    [{ ...baseScenario, script: [{ t: 0, throttle: 3 }] }, /throttle/],
    [null, /expected a JSON object/],
  ])('rejects bad input %#', (raw, msg) => {
    expect(() => parseScenario(raw)).toThrow(ScenarioError);
    expect(() => parseScenario(raw)).toThrow(msg);
  });

  it('resolves relative paths against the scenario file', () => {
    expect(resolveRelative('scenarios/default.json', '../terrains/hills.json')).toBe('terrains/hills.json');
    expect(resolveRelative('a/b/c.json', './d.json')).toBe('a/b/d.json');
    expect(resolveRelative('c.json', '../x.json')).toBe('../x.json');
  });
});

describe('SimWorld', () => {
  it('the v1 rover is a dynamic skid-steer: it drives forward along +x at yaw 0 and turns left for positive steer', () => {
    const w = world();
    w.step(100);
    const x0 = w.engine.bodies.pos[0];
    w.setDrive({ throttle: 1, steer: 0 });
    w.step(400);
    expect(w.engine.bodies.pos[0] - x0).toBeGreaterThan(0.5);
    expect(Math.abs(w.engine.bodies.pos[1] - 5)).toBeLessThan(0.01);
    expect(w.speed()).toBeGreaterThan(0.5);
    w.setDrive({ throttle: 0.5, steer: 1 });
    w.step(400);
    expect(w.engine.bodies.pos[1]).toBeGreaterThan(5.02);
  });

  it('rests on a ramp: all four wheels touch, the chassis pitches nose-up going uphill', () => {
    const w = world(baseScenario, plane(101, 101, 0.1, 0.2));
    w.step(200);
    const f = w.frame();
    const wheelsTouching = new Set<number>();
    for (let k = 0; k < f.contactInfo.length / CONTACT_INFO_STRIDE; k++) {
      if (f.contacts[CONTACT_STRIDE * k + 6] > -1e-4) wheelsTouching.add(f.contactInfo[CONTACT_INFO_STRIDE * k + 1]);
    }
    expect(wheelsTouching.size).toBe(4);
    // nose-up about +y = negative pitch: local x's z component > 0
    const q = f.poses.subarray(0, 7);
    const fz = 2 * (q[3] * q[5] - q[4] * q[6]);
    expect(fz).toBeCloseTo(Math.sin(Math.atan(0.2)), 2);
  });

  it('is deterministic: same inputs give the same state hash, different inputs a different one', () => {
    const run = (steer: number) => {
      const w = world(baseScenario, plane(101, 101, 0.1, 0.05));
      w.setDrive({ throttle: 0.8, steer });
      w.step(300);
      return w.engine.stateHash();
    };
    expect(run(0.3)).toBe(run(0.3));
    expect(run(0.3)).not.toBe(run(0.31));
  });

  it('plays the scenario script at the scripted times', () => {
    const w = world({ ...baseScenario, script: [{ t: 0, throttle: 1, steer: 0 }, { t: 0.5, throttle: 0, steer: 0 }] });
    w.step(100);
    expect(w.getDrive().throttle).toBe(1);
    w.step(1);
    expect(w.getDrive().throttle).toBe(0);
  });

  it('a user command takes over from the script for the rest of the run', () => {
    const w = world({ ...baseScenario, script: [{ t: 0, throttle: 1, steer: 0 }, { t: 0.5, throttle: 0, steer: 1 }] });
    w.step(10);
    expect(w.scriptActive).toBe(true);
    w.setDrive({ throttle: -0.5, steer: 0 });
    expect(w.scriptActive).toBe(false);
    w.step(200);
    expect(w.getDrive()).toEqual({ throttle: -0.5, steer: 0 });
  });

  it('ignores NaN drive commands', () => {
    const w = world();
    w.setDrive({ throttle: NaN, steer: Infinity });
    expect(w.getDrive()).toEqual({ throttle: 0, steer: 0 });
  });

  it('rejects a start outside the terrain with the terrain extent in the message', () => {
    expect(() => world({ ...baseScenario, start: { position: [50, 5], yaw: 0 } }, plane(11, 11, 0.1))).toThrow(/outside the terrain/);
  });

  it('frames carry every body (7 floats each), contacts with impulses, and wheels with their axis along the axle', () => {
    const w = world();
    w.step(50);
    const f = w.frame();
    const info = w.info();
    expect(info.bodies.map((b) => b.role)).toEqual(['chassis', 'wheel', 'wheel', 'wheel', 'wheel']);
    expect(f.poses.length).toBe(POSE_STRIDE * 5);
    expect(f.contacts.length / CONTACT_STRIDE).toBe(f.contactInfo.length / CONTACT_INFO_STRIDE);
    expect(f.contactInfo.length).toBeGreaterThan(0);
    // the wheels carry the rover: normal impulses sum to ≈ m g dt
    let impulse = 0;
    for (let k = 0; k < f.contacts.length / CONTACT_STRIDE; k++) impulse += f.contacts[CONTACT_STRIDE * k + 7];
    const mass = w.engine.bodies.mass.subarray(0, 5).reduce((a, b) => a + b, 0);
    expect(impulse / (mass * 9.81 * w.dt)).toBeCloseTo(1, 1);
    // wheel 1: its quaternion rotates local z onto world ±y (yaw 0, flat)
    const [x, y, z, ww] = Array.from(f.poses.slice(10, 14));
    const zy = 2 * (y * z - ww * x);
    expect(Math.abs(zy)).toBeCloseTo(1, 3);
    expect(f.joints.length).toBe(3 * 4);
    expect(f.fault).toBeNull();
  });
});

describe('SimServiceImpl', () => {
  const decodeTerrain = (sidecar: unknown) => {
    if ((sidecar as { bad?: boolean })?.bad) throw new Error('terrain sidecar: bad');
    return plane(101, 101, 0.1);
  };

  it('keeps the running world when a new load fails', async () => {
    const svc = new SimServiceImpl({ decodeTerrain });
    await svc.load({ scenario: baseScenario, terrainSidecar: {}, terrainData: new Uint8Array(1) });
    await svc.step(10);
    await expect(svc.load({ scenario: baseScenario, terrainSidecar: { bad: true }, terrainData: new Uint8Array(1) })).rejects.toThrow(/bad/);
    await expect(svc.load({ scenario: { ...baseScenario, dt: -1 }, terrainSidecar: {}, terrainData: new Uint8Array(1) })).rejects.toThrow(/dt/);
    expect((await svc.latestFrame()).step).toBe(10);
    svc.dispose();
  });

  it('runs on its own clock when running', async () => {
    let now = 0;
    const svc = new SimServiceImpl({ decodeTerrain, now: () => now });
    await svc.load({ scenario: { ...baseScenario, dt: 0.01 }, terrainSidecar: {}, terrainData: new Uint8Array(1) });
    svc.setDrive({ throttle: 1, steer: 0 });
    svc.setRunning(true);
    now = 100;
    await new Promise((r) => setTimeout(r, 40));
    svc.setRunning(false);
    const f = await svc.latestFrame();
    expect(f.step).toBe(10); // 100 ms of wall time at dt = 10 ms
    await expect(svc.step(-1)).rejects.toThrow(/integer/);
    svc.dispose();
  });

  it('loads a scenario with inline terrain heights (no terrain file)', async () => {
    const svc = new SimServiceImpl({ decodeTerrain });
    const info = await svc.load({
      scenario: {
        format: 'terrawheel-scenario', version: 2, name: 'inline',
        terrain: { cols: 3, rows: 3, dx: 1, dy: 1, x0: -1, y0: -1, heights: [0, 0, 0, 0, 0, 0, 0, 0, 0] },
        bodies: [{ name: 'ball', shape: { type: 'sphere', radius: 0.1 }, mass: 1, position: [0, 0, 0.5] }],
      },
      terrainSidecar: null,
      terrainData: new Uint8Array(0),
    });
    expect(info.bodies.map((b) => b.name)).toEqual(['ball']);
    await svc.step(240);
    const f = await svc.latestFrame();
    expect(f.poses[2]).toBeCloseTo(0.1, 2);
    svc.dispose();
  });
});
