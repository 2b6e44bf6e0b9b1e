import { describe, expect, it } from 'vitest';
import { World } from '../../../sim/world';
import { parseScenario, resolveRelative, ScenarioError } from '../../../sim/scenario';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { SimServiceImpl } from '../../../sim/service';

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
  dt: 0.01,
};

describe('scenario parsing', () => {
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

describe('World', () => {
  it('drives forward along +x at yaw 0 and turns left for positive steer', () => {
    const w = new World(parseScenario(baseScenario), plane(101, 101, 0.1));
    w.setDrive({ throttle: 1, steer: 0 });
    w.step(100);
    expect(w.state.x).toBeGreaterThan(5.5);
    expect(Math.abs(w.state.y - 5)).toBeLessThan(1e-12);
    w.setDrive({ throttle: 0.5, steer: 1 });
    w.step(100);
    expect(w.state.yaw).toBeGreaterThan(0.5);
    expect(w.state.y).toBeGreaterThan(5);
  });

  it('rests on the terrain: chassis height follows a ramp and pitches nose-up going uphill', () => {
    const slope = 0.2;
    const w = new World(parseScenario(baseScenario), plane(101, 101, 0.1, slope));
    const r = w.robot;
    expect(w.state.z).toBeCloseTo(slope * 5 + r.wheelRadius + r.wheelDrop, 9);
    expect(w.state.pitch).toBeCloseTo(-Math.atan(slope), 9); // negative pitch about +y = nose up
  });

  it('is deterministic: same inputs give the same state hash, different inputs a different one', () => {
    const run = (steer: number) => {
      const w = new World(parseScenario(baseScenario), plane(101, 101, 0.1, 0.05));
      w.setDrive({ throttle: 0.8, steer });
      w.step(500);
      return w.stateHash();
    };
    expect(run(0.3)).toBe(run(0.3));
    expect(run(0.3)).not.toBe(run(0.31));
  });

  it('plays the scenario script at the scripted times', () => {
    const w = new World(
      parseScenario({ ...baseScenario, script: [{ t: 0, throttle: 1, steer: 0 }, { t: 0.5, throttle: 0, steer: 0 }] }),
      plane(101, 101, 0.1),
    );
    w.step(50);
    expect(w.getDrive().throttle).toBe(1);
    w.step(1);
    expect(w.getDrive().throttle).toBe(0);
  });

  it('a user command takes over from the script for the rest of the run', () => {
    const w = new World(
      parseScenario({ ...baseScenario, script: [{ t: 0, throttle: 1, steer: 0 }, { t: 0.5, throttle: 0, steer: 1 }] }),
      plane(101, 101, 0.1),
    );
    w.step(10);
    expect(w.scriptActive).toBe(true);
    w.setDrive({ throttle: -0.5, steer: 0 });
    expect(w.scriptActive).toBe(false);
    w.step(100);
    expect(w.getDrive()).toEqual({ throttle: -0.5, steer: 0 });
  });

  it('ignores NaN drive commands and stops at the map border', () => {
    const w = new World(parseScenario(baseScenario), plane(101, 101, 0.1));
    w.setDrive({ throttle: NaN, steer: Infinity });
    expect(w.getDrive()).toEqual({ throttle: 0, steer: 0 });
    w.setDrive({ throttle: 1, steer: 0 });
    w.step(2000);
    expect(w.state.x).toBeLessThanOrEqual(10);
    expect(Number.isFinite(w.state.z)).toBe(true);
  });

  it('rejects a start outside the terrain with the terrain extent in the message', () => {
    expect(() => new World(parseScenario({ ...baseScenario, start: { position: [50, 5], yaw: 0 } }), plane(11, 11, 0.1))).toThrow(
      /outside the terrain/,
    );
  });

  it('frames carry 7 floats per body and wheels oriented with their axis along the axle', () => {
    const w = new World(parseScenario(baseScenario), plane(101, 101, 0.1));
    const f = w.frame();
    expect(f.poses.length).toBe(7 * 5);
    // wheel 0 quaternion rotates local z onto world +y (yaw 0, flat)
    const q = Array.from(f.poses.slice(7, 14)).slice(3);
    const [x, y, z, ww] = q;
    // third column of the rotation matrix = image of local z
    const zx = 2 * (x * z + ww * y), zy = 2 * (y * z - ww * x), zz = 1 - 2 * (x * x + y * y);
    expect(zx).toBeCloseTo(0, 6);
    expect(zy).toBeCloseTo(1, 6);
    expect(zz).toBeCloseTo(0, 6);
  });
});

describe('SimServiceImpl', () => {
  const decodeTerrain = (sidecar: unknown) => {
    if ((sidecar as { bad?: boolean })?.bad) throw new Error('terrain sidecar: bad');
    return plane(101, 101, 0.1);
  };

  it('keeps the running world when a new load fails', async () => {
    const svc = new SimServiceImpl({ decodeTerrain, wheelContacts: null });
    await svc.load({ scenario: baseScenario, terrainSidecar: {}, terrainData: new Uint8Array(1) });
    await svc.step(10);
    await expect(svc.load({ scenario: baseScenario, terrainSidecar: { bad: true }, terrainData: new Uint8Array(1) })).rejects.toThrow(/bad/);
    await expect(svc.load({ scenario: { ...baseScenario, dt: -1 }, terrainSidecar: {}, terrainData: new Uint8Array(1) })).rejects.toThrow(/dt/);
    expect((await svc.latestFrame()).step).toBe(10);
    svc.dispose();
  });

  it('runs on its own clock when running', async () => {
    let now = 0;
    const svc = new SimServiceImpl({ decodeTerrain, wheelContacts: null, now: () => now });
    await svc.load({ scenario: baseScenario, terrainSidecar: {}, terrainData: new Uint8Array(1) });
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
});
