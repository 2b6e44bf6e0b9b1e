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
import { CONTACT_INFO_STRIDE, ContactInfoField, POSE_STRIDE } from '../../sim/dynamics/frame-layout';
import { wheelCylinderInWorld } from '../../sim/app/wheel-cylinder';
import { WheelContactKind } from '../../sim/collision/contact';
import { bundledScenarioNames, SCENARIO_DIR, TERRAIN_DIR } from '../unit/scenario/helpers';

async function open(name: string): Promise<SimWorld> {
  const p = parseScenarioFile(JSON.parse(readFileSync(join(SCENARIO_DIR, name), 'utf8')));
  const t = (p.terrain as { file: string }).file.replace('../terrains/', '').replace('.json', '');
  const hf = decodeTerrain(JSON.parse(readFileSync(join(TERRAIN_DIR, `${t}.json`), 'utf8')), new Uint8Array(readFileSync(join(TERRAIN_DIR, `${t}.png`))));
  const robot = p.robot && 'urdf' in p.robot ? loadScenarioUrdfRobot(p, await readScenarioFilesAsync(join(SCENARIO_DIR, name)), hf) : undefined;
  return SimWorld.create(p, hf, robot);
}

/** The contact kinds the analytic wheel algorithm produces (paper §III cases, flat patch, edges). */
const WHEEL_CONTACT_KINDS: number[] = Object.values(WheelContactKind);

/** Kinds of body b's terrain contacts in a frame's contact info. */
function contactKindsOf(info: Int32Array, b: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < info.length / CONTACT_INFO_STRIDE; c++) {
    const q = c * CONTACT_INFO_STRIDE;
    if (info[q + ContactInfoField.BodyA] === b && info[q + ContactInfoField.BodyB] < 0) out.push(info[q + ContactInfoField.Kind]);
  }
  return out;
}

/** Body b's collision shape in the world as the engine poses it: mass-frame position + R·shape offset, axis R·(offset rotation's z). */
function shapePoseInWorld(w: SimWorld, b: number): { centre: number[]; axis: number[] } {
  const s = w.engine.bodies;
  const rot = (q: ArrayLike<number>, v: number[]): number[] => {
    const [x, y, z, ww] = [q[0], q[1], q[2], q[3]];
    const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
    return [v[0] + ww * t[0] + (y * t[2] - z * t[1]), v[1] + ww * t[1] + (z * t[0] - x * t[2]), v[2] + ww * t[2] + (x * t[1] - y * t[0])];
  };
  const q = s.rot.subarray(4 * b, 4 * b + 4);
  const o = rot(q, Array.from(s.shapeOffsetPos.subarray(3 * b, 3 * b + 3)));
  return { centre: [0, 1, 2].map((k) => s.pos[3 * b + k] + o[k]), axis: rot(q, rot(s.shapeOffsetRot.subarray(4 * b, 4 * b + 4), [0, 0, 1])) };
}

const roles = (w: SimWorld): Record<string, string> => Object.fromEntries(w.info().bodies.map((b) => [b.name, b.role]));

describe('bundled scenes', () => {
  it.each(bundledScenarioNames())('%s passes its own world warnings (no terrain too coarse or too fine for its wheels)', async (name) => {
    const w = await open(name);
    expect(w.info().bodies.some((b) => b.role === 'wheel')).toBe(true);
    expect(worldWarnings(w.info())).toEqual([]);
  });

  // The real robots carry each wheel's cylinder inside a compound shape (a collision origin that
  // turns it, and on the Leo moves it 4.5 cm along the axle); the simulation unwraps it and
  // collides it as an analytic wheel, so the GUI must call it a wheel and place its cylinder there.
  it.each([
    ['robot-husky.json', ['front_left_wheel_link', 'front_right_wheel_link', 'rear_left_wheel_link', 'rear_right_wheel_link']],
    ['robot-leo.json', ['wheel_FL_link', 'wheel_FR_link', 'wheel_RL_link', 'wheel_RR_link']],
    ['robot-turtlebot3.json', ['wheel_left_link', 'wheel_right_link']],
  ])('%s: every wheel is a wheel, with the cylinder the simulation collides where it has it', async (name, wheelNames) => {
    const w = await open(name);
    const info = w.info();
    const e = w.engine, bodies = e.bodies;
    // the wheels and nothing else (the chassis, its casters inside the base compound, are not)
    expect(info.bodies.filter((b) => b.role === 'wheel').map((b) => b.name).sort()).toEqual([...wheelNames].sort());
    for (let s = 0; s < 20; s++) w.step(1);
    const f = w.frame();
    for (const name of wheelNames) {
      const b = bodies.indexOf(name);
      const cyl = info.bodies[b].wheel!;
      expect(cyl.radius).toBeGreaterThan(0);
      // its cylinder in the world from the frame's body pose = the engine's own collision pose
      // (centre of mass + R·shape offset; axis: R·(shape rotation's z))
      const placed = wheelCylinderInWorld([0, 0, 0, 0, 0, 0], cyl, f.poses, POSE_STRIDE * b);
      const off = shapePoseInWorld(w, b);
      for (let k = 0; k < 3; k++) expect(placed[k]).toBeCloseTo(off.centre[k], 5);
      for (let k = 0; k < 3; k++) expect(placed[3 + k]).toBeCloseTo(off.axis[k], 5);
      // and it meets the terrain through the wheel algorithm (the paper's classified contacts)
      const kinds = contactKindsOf(f.contactInfo, b);
      expect(kinds.length, `${name} touches the ground`).toBeGreaterThan(0);
      for (const k of kinds) expect(WHEEL_CONTACT_KINDS).toContain(k);
    }
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
