/**
 * The bundled scenes as a user first meets them (issue #30 items 5 and 10): none warns about its
 * own terrain, every wheel of a URDF robot is a wheel (steered, trailer), one robot's links never
 * touch each other, and the differential-drive robot keeps driving (it used to stall after 10 s,
 * wedged in the seam between the 10° and 20° ramps it had turned into).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenarioFile } from '../../sim/scenario/scenario-v2';
import { decodeTerrain } from '../../sim/terrain/load-terrain';
import { SimWorld } from '../../sim/app/sim-world';
import { loadScenarioUrdfRobot } from '../../sim/app/default-service';
import { readScenarioFilesAsync } from '../../sim/node/cli';
import { worldWarnings } from '../../sim/app/warnings';
import { CONTACT_INFO_STRIDE, ContactInfoField } from '../../sim/dynamics/frame-layout';
import { bundledScenarioNames, SCENARIO_DIR, TERRAIN_DIR } from '../unit/scenario/helpers';

async function open(name: string): Promise<SimWorld> {
  const p = parseScenarioFile(JSON.parse(readFileSync(join(SCENARIO_DIR, name), 'utf8')));
  const t = (p.terrain as { file: string }).file.replace('../terrains/', '').replace('.json', '');
  const hf = decodeTerrain(JSON.parse(readFileSync(join(TERRAIN_DIR, `${t}.json`), 'utf8')), new Uint8Array(readFileSync(join(TERRAIN_DIR, `${t}.png`))));
  const robot = p.robot && 'urdf' in p.robot ? loadScenarioUrdfRobot(p, await readScenarioFilesAsync(join(SCENARIO_DIR, name)), hf) : undefined;
  return SimWorld.create(p, hf, robot);
}

/** Bundled scenarios whose robot's wheels are compound shapes (see the first test). */
const COMPOUND_WHEELS = ['robot-husky.json', 'robot-leo.json'];

const roles = (w: SimWorld): Record<string, string> => Object.fromEntries(w.info().bodies.map((b) => [b.name, b.role]));

describe('bundled scenes', () => {
  it.each(bundledScenarioNames())('%s passes its own world warnings (no terrain too coarse or too fine for its wheels)', async (name) => {
    const w = await open(name);
    // The real robots (Husky, Leo) carry each wheel's cylinder inside a compound shape (a collision
    // origin off the joint): neither the wheel role nor the warnings look into compounds yet.
    if (!COMPOUND_WHEELS.includes(name)) expect(w.info().bodies.some((b) => b.role === 'wheel')).toBe(true);
    expect(worldWarnings(w.info())).toEqual([]);
  });

  it('the Ackermann car\'s steered front wheels are wheels, its knuckles are not', async () => {
    const r = roles(await open('robot-ackermann-car.json'));
    expect(r.front_left_wheel).toBe('wheel');
    expect(r.front_right_wheel).toBe('wheel');
    expect(r.rear_left_wheel).toBe('wheel');
    expect(r.front_left_knuckle).toBe('obstacle');
  });

  it('the trailer\'s unpowered wheels are wheels, the trailer is not', async () => {
    const r = roles(await open('robot-rover6-trailer.json'));
    expect(r.trailer_left_wheel).toBe('wheel');
    expect(r.trailer_right_wheel).toBe('wheel');
    expect(r.trailer).toBe('obstacle');
  });

  it('self-collision off: the Ackermann car never touches its own front wheels while it steers (was "base_link on front_left_wheel")', async () => {
    const w = await open('robot-ackermann-car.json');
    const robotBodies = new Set(w.spec.robot?.bodies.map((b) => w.engine.bodies.indexOf(b.name)));
    let selfContacts = 0;
    let wheelContacts = 0;
    const steps = Math.round(6 / w.dt); // the S-bend (steer ±0.6) and the straight after it
    for (let s = 0; s < steps; s++) {
      w.step(1);
      const info = w.engine.frame().contactInfo;
      for (let c = 0; c < info.length / CONTACT_INFO_STRIDE; c++) {
        const a = info[c * CONTACT_INFO_STRIDE + ContactInfoField.BodyA], b = info[c * CONTACT_INFO_STRIDE + ContactInfoField.BodyB];
        if (b < 0) wheelContacts++;
        else if (robotBodies.has(a) && robotBodies.has(b)) selfContacts++;
      }
    }
    expect(wheelContacts).toBeGreaterThan(steps); // the counter saw contacts at all
    expect(selfContacts).toBe(0);
  });

  it('the differential-drive robot drives its 20 s without stalling: up the 10° ramp onto the plateau', async () => {
    const w = await open('robot-diff-drive-caster.json');
    const base = w.engine.bodies.indexOf(w.spec.robot?.base ?? '');
    const x0 = w.engine.bodies.pos[3 * base];
    let slowest = Infinity;
    for (let s = 1; s <= 20; s++) {
      w.step(Math.round(1 / w.dt));
      if (s >= 2) slowest = Math.min(slowest, w.speed());
    }
    expect(w.fault).toBeNull();
    // commanded 0.5 × 2 m/s; the ramp's foot is x = -5 m, its top (1.06 m up) x = 1 m
    expect(slowest).toBeGreaterThan(0.9);
    expect(w.engine.bodies.pos[3 * base] - x0).toBeGreaterThan(18);
    expect(w.engine.bodies.pos[3 * base + 2]).toBeGreaterThan(1.1);
  });
});
