/**
 * The three real robots bundled with their licences (assets/robots/{husky,leo,turtlebot3}/, files
 * as shipped) and their scenarios (assets/scenarios/robot-<name>.json), read as the CLI reads
 * them (xacro expanded) and built with createWorld: no warning at load, the robot settles, drives
 * forward, turns; its wheel–terrain contacts are the paper's classified ones (not the general
 * `terrain` routine) and none is deeper than 2 mm.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { worldWarnings } from '../../../sim/app/warnings';
import { SimWorld } from '../../../sim/app/sim-world';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { readScenarioFilesAsync } from '../../../sim/node/open-scenario';
import { createWorld } from '../../../sim/scenario/create-world';
import { loadScenarioUrdfRobotWithVisuals } from '../../../sim/scenario/scenario-robot';
import { parseScenarioFile, type UrdfRobotEntry } from '../../../sim/scenario/scenario-v2';
import { JointKind } from '../../../sim/dynamics/joints/store';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';
import { ContactTally, wrap, yaw } from './ros-harness';

const ROOT = join(__dirname, '../../..');

/** [m] Deepest wheel or body contact allowed (issue #27's check). */
const MAX_DEPTH = 0.002;

interface Case {
  name: string;
  /** [m] Least forward travel over 4 s at throttle 0.6 (the scenario's maxSpeed: Husky 1, Leo 0.4, TurtleBot3 0.22 m/s). */
  minTravel: number;
  /** [rad] Least yaw over 3 s turning in place at steer 0.6 (the Husky skid-steers slowly uphill: 0.29 rad measured). */
  minTurn: number;
}

const CASES: Case[] = [
  { name: 'husky', minTravel: 1.5, minTurn: 0.2 },
  { name: 'leo', minTravel: 0.6, minTurn: 1 },
  { name: 'turtlebot3', minTravel: 0.3, minTurn: 1 },
];

describe.each(CASES)('bundled robot $name', ({ name, minTravel, minTurn }) => {
  it('ships its licence file and a README naming the source repository and commit', () => {
    const dir = join(ROOT, 'assets/robots', name);
    expect(existsSync(join(dir, 'LICENSE'))).toBe(true);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/https:\/\/github\.com\/\S+ .*commit [0-9a-f]{40}/);
  });

  it('loads through createWorld without warnings, settles, drives forward and turns; contacts classified, none deeper than 2 mm', async () => {
    const path = join(ROOT, `assets/scenarios/robot-${name}.json`);
    const files = await readScenarioFilesAsync(path);
    const terrain = () => decodeTerrain(files.terrainSidecar, files.terrainData);
    const parsed = parseScenarioFile(files.scenario);
    const entry = parsed.robot as UrdfRobotEntry;

    // no warning the app shows (terrain resolution against the wheels); no torque-cap warning
    const urdf = loadUrdfRobot(files.robotUrdf!, { urdfPath: entry.urdf, meshes: (p) => files.robotMeshes?.[p], controller: 'infer', ...(entry.motorTorque !== undefined ? { motorTorque: entry.motorTorque } : {}) });
    expect(urdf.warnings.filter((m) => /motors are capped/.test(m))).toEqual([]);
    const loaded = loadScenarioUrdfRobotWithVisuals(parsed, files, terrain());
    expect(loaded.visuals.filter((v) => v.geometry.type === 'mesh')).toEqual([]);
    const info = SimWorld.create(parsed, terrain(), loaded.robot, loaded.visuals, loaded.warnings).info();
    expect(worldWarnings(info)).toEqual([]);

    const world = createWorld(files.scenario, { terrain: terrain(), robotUrdf: files.robotUrdf, robotMeshes: files.robotMeshes });
    const w = world.engine;
    // the wheels: bodies turned by a motorised revolute joint (a single-cylinder compound is a
    // cylinder to the engine, sim/dynamics/build.ts, and a wheel to WorldInfo)
    const wheels = w.joints.defs.filter((d) => d.kind === JointKind.Revolute && d.motor).map((d) => w.bodies.names[d.bodyB]);
    expect(wheels.length).toBeGreaterThanOrEqual(2);
    const base = world.bodyIndex(info.bodies[info.baseBody].name);
    const tally = new ContactTally(w, wheels);
    const steps = (s: number) => Math.round(s / parsed.world.dt);
    const pose = new Float64Array(7);
    const pos = () => {
      world.readPose(base, pose);
      return [pose[0], pose[1]];
    };

    // settle at rest
    world.setDrive({ throttle: 0, steer: 0 });
    for (let k = 0; k < steps(1); k++) world.step();
    expect(world.fault).toBeNull();
    const [x0, y0] = pos();
    const yaw0 = yaw(w, base);
    // forward
    world.setDrive({ throttle: 0.6, steer: 0 });
    for (let k = 0; k < steps(4); k++) {
      world.step();
      tally.add(w);
    }
    const [x1, y1] = pos();
    const travel = (x1 - x0) * Math.cos(yaw0) + (y1 - y0) * Math.sin(yaw0);
    expect(travel).toBeGreaterThan(minTravel);
    // turn in place (left)
    const yaw1 = yaw(w, base);
    world.setDrive({ throttle: 0, steer: 0.6 });
    for (let k = 0; k < steps(3); k++) {
      world.step();
      tally.add(w);
    }
    expect(wrap(yaw(w, base) - yaw1)).toBeGreaterThan(minTurn);
    expect(world.fault).toBeNull();
    console.log(`${name}: travel ${travel.toFixed(2)} m, turn ${(wrap(yaw(w, base) - yaw1) * 180 / Math.PI).toFixed(1)}°, classified ${(tally.share * 100).toFixed(1)}% of ${tally.classified + tally.general}, deepest ${(tally.deepest * 1000).toFixed(2)} mm`);
    expect(tally.classified).toBeGreaterThan(0);
    expect(tally.general).toBe(0);
    expect(tally.deepest).toBeLessThan(MAX_DEPTH);
  }, 300_000);
});
