/**
 * Issue #27's checks on real, unmodified ROS descriptions (test/fixtures/robots/): each loads
 * (xacro expanded), its wheels are analytic wheels with the file's radius and width, and on flat
 * ground and the bundled hills ≥ 90 % of its wheel–terrain contacts are the paper's classified
 * ones, no contact is deeper than 2 mm after settling, driving straight for 5 s turns it by at
 * most 3°, and it turns. Simulated time: 1 s settle + 5 s straight + 2 s turn per case.
 */
import { describe, expect, it } from 'vitest';
import { ShapeKind } from '../../../sim/shapes/shape';
import { ContactTally, flatGround, hills, loadFixture, robotWorld, run, wrap, yaw } from './ros-harness';

interface RobotCase {
  file: string;
  /** Wheels as the file gives them: [body, radius, width]. */
  wheels: [string, number, number][];
  options?: { motorTorque?: number };
}

const TB3_WHEELS: [string, number, number][] = [['wheel_left_link', 0.033, 0.018], ['wheel_right_link', 0.033, 0.018]];
const CASES: RobotCase[] = [
  // TurtleBot3: xacro-bearing .urdf (xacro:arg, ${namespace}), a commented-out include
  { file: 'turtlebot3/turtlebot3_description/urdf/turtlebot3_burger.urdf', wheels: TB3_WHEELS },
  { file: 'turtlebot3/turtlebot3_description/urdf/turtlebot3_waffle.urdf', wheels: TB3_WHEELS },
  // Leo: xacro with $(find), macros, conditionals; each wheel is two coaxial cylinders turned by
  // rpy="${pi/2} 0 0" and offset 4.5 cm along the axle, plus an outline mesh: the tread is the
  // 0.0625 m cylinder, the width the 0.07 m one
  {
    file: 'leo/leo_description/urdf/leo.urdf.xacro',
    wheels: ['FL', 'RL', 'FR', 'RR'].map((n): [string, number, number] => [`wheel_${n}_link`, 0.0625, 0.07]),
  },
];

describe('real ROS robots', () => {
  for (const c of CASES) {
    const name = c.file.split('/').pop() as string;
    it(`${name}: loads, its wheels are analytic wheels of the file's radius and width`, async () => {
      const r = await loadFixture(c.file, c.options);
      expect(r.wheels.map((w) => w.body).sort()).toEqual(c.wheels.map((w) => w[0]).sort());
      for (const [body, radius, width] of c.wheels) {
        const w = r.wheels.find((x) => x.body === body)!;
        expect(w.radius).toBeCloseTo(radius, 9);
        expect(w.width).toBeCloseTo(width, 9);
      }
      const world = robotWorld(r.robot, flatGround());
      for (const [body] of c.wheels) expect(world.bodies.shapes[world.bodies.indexOf(body)]!.kind, body).toBe(ShapeKind.Cylinder);
    });

    for (const terrain of ['flat', 'hills'] as const) {
      it(`${name} on ${terrain === 'flat' ? 'flat ground' : 'the bundled hills'}: ≥ 90 % classified wheel contacts, ≤ 2 mm deep, straight within 3° over 5 s, turns`, async () => {
        const hf = terrain === 'flat' ? flatGround() : hills();
        const r = await loadFixture(c.file, { position: terrain === 'flat' ? [0, 0, 0] : [-5, 3, 0], ...c.options });
        const w = robotWorld(r.robot, hf);
        const base = w.bodies.indexOf(r.robot.base);
        const tally = new ContactTally(w, r.wheels.map((x) => x.body));
        run(w, 240);
        tally.deepest = 0;
        const y0 = yaw(w, base);
        w.setDrive(0.5, 0);
        run(w, 240 * 5, tally);
        expect(w.fault).toBeNull();
        expect(Math.abs(wrap(yaw(w, base) - y0)) * 180 / Math.PI).toBeLessThanOrEqual(3);
        const y1 = yaw(w, base);
        w.setDrive(0, 1);
        run(w, 240 * 2, tally);
        expect(w.fault).toBeNull();
        expect(Math.abs(wrap(yaw(w, base) - y1)) * 180 / Math.PI).toBeGreaterThan(30);
        expect(tally.classified).toBeGreaterThan(1000);
        expect(tally.share).toBeGreaterThanOrEqual(0.9);
        expect(tally.deepest).toBeLessThanOrEqual(2e-3);
      }, 300_000);
    }
  }
});
