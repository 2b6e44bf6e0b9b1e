/**
 * Robots modelled driving along their base's y axis (wheels spinning about x, as the Curiosity
 * model of theconstructcore's curiosity_mars_rover_description: "front" wheels at −y, "L" wheels
 * at +x). The controller's drive frame (ControllerSpec.forwardYaw) is inferred from the wheel
 * axles and names; before it was, such a rover turned in place (150° over 5 s) when told to drive
 * straight. Checked through a scenario file as the ten-robot check runs it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { parseScenarioFile } from '../../../sim/scenario/scenario-v2';
import { runCheck } from './ten-robots';

interface Wheel { name: string; x: number; y: number; steer: boolean }

/**
 * A six-wheel rover whose forward is `forward` (±y) in its base frame, its wheel joints' axes
 * along ±x (left wheels +x, right wheels turned by π about z as the Curiosity model does), the
 * four corners steered about z when `steer`. `names`: wheel joints named front/middle/back and
 * L/R, or only by number.
 */
function yForwardRover(forward: 1 | -1, steer: boolean, names: 'full' | 'sides' | 'none'): string {
  const wheels: Wheel[] = [];
  const rows: [string, number, boolean][] = [['front', 0.6 * forward, steer], ['middle', 0, false], ['back', -0.6 * forward, steer]];
  let n = 0;
  for (const [row, y, st] of rows) {
    for (const side of ['L', 'R'] as const) {
      // left is forward turned a quarter counter-clockwise: forward +y → left −x
      const x = (side === 'L' ? -1 : 1) * 0.45 * forward;
      const name = names === 'full' ? `${row}_wheel_${side}` : names === 'sides' ? `wheel_${++n}_${side}` : `wheel_${++n}`;
      wheels.push({ name, x, y, steer: st });
    }
  }
  const link = (name: string, mass: number, geom: string, rpy = '0 0 0'): string => `
  <link name="${name}">
    <inertial><mass value="${mass}"/><inertia ixx="${mass * 0.02}" iyy="${mass * 0.02}" izz="${mass * 0.02}" ixy="0" ixz="0" iyz="0"/></inertial>
    ${geom ? `<collision><origin xyz="0 0 0" rpy="${rpy}"/><geometry>${geom}</geometry></collision>` : ''}
  </link>`;
  let xml = `<?xml version="1.0"?>\n<robot name="yrover">${link('base_link', 40, '<box size="0.7 1.4 0.2"/>')}`;
  for (const w of wheels) {
    const leftSide = Math.sign(w.x) === -forward; // see above
    let parent = 'base_link', at = `${w.x} ${w.y} -0.1`;
    if (w.steer) {
      xml += link(`${w.name}_corner`, 0.5, '');
      xml += `
  <joint name="${w.name}_steer_joint" type="revolute">
    <parent link="base_link"/><child link="${w.name}_corner"/><origin xyz="${at}" rpy="0 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-0.6" upper="0.6" effort="50" velocity="2"/>
  </joint>`;
      parent = `${w.name}_corner`;
      at = '0 0 0';
    }
    xml += link(w.name, 2, '<cylinder radius="0.15" length="0.1"/>', '0 1.5708 0');
    xml += `
  <joint name="${w.name}_joint" type="continuous">
    <parent link="${parent}"/><child link="${w.name}"/><origin xyz="${at}" rpy="0 0 ${leftSide ? 0 : Math.PI}"/>
    <axis xyz="1 0 0"/>
  </joint>`;
  }
  return `${xml}\n</robot>\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'tw-drive-frame-'));

/** The rover starts 3 m behind the centre of a 16 m map: driving 5 m the wrong way leaves it (a fault). */
function scenario(urdf: string, name: string, forward: 1 | -1, controller?: unknown): string {
  const urdfPath = join(dir, `${name}.urdf`);
  writeFileSync(urdfPath, urdf);
  const n = 161;
  const s = {
    format: 'terrawheel-scenario', version: 2, name,
    terrain: { cols: n, rows: n, dx: 0.1, dy: 0.1, x0: -8, y0: -8, heights: new Array(n * n).fill(0) },
    robot: { urdf: urdfPath, position: [0, -3 * forward], yaw: 0, ...(controller !== undefined ? { controller } : {}) },
    dt: 1 / 240, substeps: 4,
    script: [],
  };
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(s));
  return path;
}

describe('the drive frame of a robot modelled driving along y', () => {
  it('is inferred from the wheel axles and the front/back or L/R names (forwardYaw ±π/2); REP-103 robots keep none', () => {
    const yaw = (urdf: string): number | undefined => {
      const r = loadUrdfRobot(urdf, { controller: 'infer' });
      return r.robot.controller?.forwardYaw;
    };
    expect(yaw(yForwardRover(-1, true, 'full'))).toBeCloseTo(-Math.PI / 2, 12);
    expect(yaw(yForwardRover(1, true, 'full'))).toBeCloseTo(Math.PI / 2, 12);
    expect(yaw(yForwardRover(-1, false, 'sides'))).toBeCloseTo(-Math.PI / 2, 12);
    expect(yaw(yForwardRover(1, false, 'sides'))).toBeCloseTo(Math.PI / 2, 12);
    expect(yaw(yForwardRover(1, false, 'none'))).toBeCloseTo(Math.PI / 2, 12); // nothing to tell: +y
    // the same robot turned to face +x (axles along y): no frame
    const rep103 = yForwardRover(1, false, 'full').replace(/<axis xyz="1 0 0"\/>/g, '<axis xyz="0 1 0"/>').replace(/rpy="0 1.5708 0"/g, 'rpy="1.5708 0 0"');
    expect(yaw(rep103)).toBeUndefined();
  });

  for (const [forward, steer] of [[-1, true], [1, false]] as const) {
    it(`a ${steer ? 'six-wheel, four-corner-steered' : 'six-wheel skid-steer'} rover driving along ${forward > 0 ? '+' : '−'}y drives straight forward (≤ 3° over 5 s, > 2 m) and turns (> 20° in 2 s)`, async () => {
      const r = await runCheck(scenario(yForwardRover(forward, steer, 'full'), `y${forward}-${steer}`, forward));
      expect(r.fault).toBeNull(); // it drove forward: 5 m backward leaves the map
      expect(r.headingChange).toBeLessThanOrEqual(3);
      expect(r.driven).toBeGreaterThan(2);
      expect(r.turned).toBeGreaterThan(20);
    }, 120_000);
  }

  it('a scenario can give the frame (robot.controller.forwardYaw), alone or with a kind; a bad one names the field', () => {
    const parse = (controller: unknown) => parseScenarioFile(({
      format: 'terrawheel-scenario', version: 2, name: 'f', terrain: { cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0, 0] },
      robot: { urdf: 'r.urdf', controller },
    }));
    expect((parse({ forwardYaw: 1.5 }).robot as { controller: unknown }).controller).toEqual({ forwardYaw: 1.5 });
    expect((parse({ type: 'skid-steer', forwardYaw: -1.5 }).robot as { controller: unknown }).controller).toEqual({ type: 'skid-steer', forwardYaw: -1.5 });
    expect(() => parse({ forwardYaw: 9 })).toThrow(/forwardYaw/);
    expect(() => parse({ type: 'none', forwardYaw: 1 })).toThrow(/forwardYaw/);
    // given the wrong way round, the rover drives backwards: the given frame is used
    const given = loadUrdfRobot(yForwardRover(-1, true, 'full'), { controller: { forwardYaw: Math.PI / 2 } });
    expect(given.robot.controller?.forwardYaw).toBe(Math.PI / 2);
  });
});
