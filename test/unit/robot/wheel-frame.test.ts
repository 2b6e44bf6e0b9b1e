/**
 * Wheels as ROS files write them (issue #27): a wheel link's cylinder turned by its collision
 * origin in any way and offset inside its link is an analytic wheel (the body's shape is the
 * cylinder at that pose); several coaxial parts or a mesh are fitted about the joint axis; what
 * is not a wheel says why.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandXacro } from '../../../sim/robot/urdf/xacro';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import { BodyFlag } from '../../../sim/dynamics/bodies';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { describeMeshFit, frameWheel } from '../../../sim/robot/urdf/wheel-frame';
import { quatFromEuler } from '../../../sim/math/quat';
import type { Vec3 } from '../../../sim/math/vec3';

const INERTIAL = '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>';

/** A chassis box with two wheels on continuous joints, each wheel's collision given. */
function urdf(wheelCollision: string, jointAxis = '0 1 0', jointRpy = '0 0 0'): string {
  const wheel = (side: string, y: number) => `
  <link name="${side}_wheel">${INERTIAL}<collision>${wheelCollision}</collision></link>
  <joint name="${side}_wheel_joint" type="continuous"><parent link="base"/><child link="${side}_wheel"/>
    <origin xyz="0 ${y} 0" rpy="${jointRpy}"/><axis xyz="${jointAxis}"/></joint>`;
  return `<robot name="r"><link name="base">${INERTIAL}<collision><geometry><box size="0.4 0.3 0.1"/></geometry></collision></link>
  ${wheel('left', 0.2)}${wheel('right', -0.2)}</robot>`;
}

function analyticBodies(text: string): { wheels: ReturnType<typeof loadUrdfRobot>['wheels']; analytic: string[]; warnings: string[] } {
  const out = loadUrdfRobot(text, { controller: 'none' });
  const w = createDynamicsWorld({ name: 't', gravity: [0, 0, -9.81], dt: 1 / 240, substeps: 4, sleep: false, ccd: false, materials: {}, terrainMaterials: {}, bodies: [], joints: [], robot: out.robot, script: [] }, null);
  const analytic: string[] = [];
  for (let b = 0; b < w.bodies.count; b++) if (w.bodies.flags[b] & BodyFlag.AnalyticCylinder) analytic.push(w.bodies.names[b]);
  return { wheels: out.wheels, analytic, warnings: out.warnings };
}

describe('wheel framing', () => {
  const turned: [string, string, string][] = [
    ['rpy="1.5708 0 0" (ROS\'s usual)', '<origin xyz="0 0 0" rpy="1.5708 0 0"/>', '0 1 0'],
    ['rpy="-1.5708 0 0"', '<origin xyz="0 0 0" rpy="-1.5708 0 0"/>', '0 1 0'],
    ['about y, joint along x', '<origin xyz="0 0 0" rpy="0 1.5708 0"/>', '1 0 0'],
    ['offset 4.5 cm along the axle and turned', '<origin xyz="0 0.045 0" rpy="1.5708 0 0"/>', '0 1 0'],
    ['unturned, joint along z (TurtleBot3)', '', '0 0 1'],
  ];
  for (const [what, origin, axis] of turned) {
    it(`a cylinder ${what} is an analytic wheel of its radius and width`, () => {
      const r = analyticBodies(urdf(`${origin}<geometry><cylinder radius="0.1" length="0.05"/></geometry>`, axis));
      expect(r.analytic).toEqual(['left_wheel', 'right_wheel']);
      expect(r.wheels.map((w) => [w.body, w.radius, w.width, w.from])).toEqual([['left_wheel', 0.1, 0.05, 'cylinder'], ['right_wheel', 0.1, 0.05, 'cylinder']]);
      expect(r.warnings).toEqual([]);
    });
  }

  it('two coaxial cylinders become one: the largest radius, the width of the parts within 90 % of it', () => {
    const two = '<origin xyz="0 0.04 0" rpy="1.5708 0 0"/><geometry><cylinder radius="0.057" length="0.07"/></geometry></collision><collision><origin xyz="0 0.04 0" rpy="1.5708 0 0"/><geometry><cylinder radius="0.0625" length="0.04"/></geometry>';
    const r = analyticBodies(urdf(two));
    expect(r.analytic).toEqual(['left_wheel', 'right_wheel']);
    expect(r.wheels[0].radius).toBe(0.0625);
    expect(r.wheels[0].width).toBeCloseTo(0.07, 12);
    expect(r.wheels[0].from).toBe('fit');
    expect(r.warnings[0]).toMatch(/link "left_wheel": its 2 collision shapes collide as one cylinder about joint "left_wheel_joint"'s axis \(radius 0.0625 m, width 0.07 m\): the analytic wheel/);
  });

  it('a cylinder across the joint axis is not a wheel, and says so', () => {
    const r = analyticBodies(urdf('<geometry><cylinder radius="0.1" length="0.05"/></geometry>', '0 1 0'));
    expect(r.wheels).toEqual([]);
    expect(r.warnings[0]).toMatch(/link "left_wheel" turns on continuous joint "left_wheel_joint" but is not an analytic wheel: its cylinder #1 runs 90° away from the joint axis/);
  });

  it('a sphere stays a sphere, with the reason', () => {
    const r = analyticBodies(urdf('<geometry><sphere radius="0.1"/></geometry>'));
    expect(r.wheels).toEqual([]);
    expect(r.analytic).toEqual([]);
    expect(r.warnings[0]).toMatch(/its collision is a sphere, which stays a sphere/);
  });

  it('a box is not a wheel, with the reason', () => {
    const r = analyticBodies(urdf('<geometry><box size="0.1 0.1 0.1"/></geometry>'));
    expect(r.warnings[0]).toMatch(/its collision #1 is a box/);
  });

  it('a mesh close to a cylinder is fitted about the joint axis; a square one is refused with its fill', () => {
    const ring = (n: number, r: number): Vec3[] => {
      const pts: Vec3[] = [];
      for (let k = 0; k < n; k++) {
        const a = (2 * Math.PI * k) / n;
        pts.push([r * Math.cos(a), -0.02, r * Math.sin(a)], [r * Math.cos(a), 0.03, r * Math.sin(a)]);
      }
      return pts;
    };
    const q = quatFromEuler([0, 0, 0, 1], 0, 0, 0);
    const round = frameWheel([{ shape: { type: 'hull', points: ring(48, 0.1) }, position: [0, 0, 0], orientation: q }], [0, 0, 0], [0, 1, 0]);
    expect('fit' in round && round.fit.from).toBe('fit');
    if ('fit' in round) {
      expect(round.fit.radius).toBeCloseTo(0.1, 12);
      expect(round.fit.width).toBeCloseTo(0.05, 12);
      expect(round.fit.position[1]).toBeCloseTo(0.005, 12);
      expect(round.fit.fill).toBeGreaterThan(0.99);
    }
    const square = frameWheel([{ shape: { type: 'hull', points: ring(4, 0.1) }, position: [0, 0, 0], orientation: q }], [0, 0, 0], [0, 1, 0]);
    expect('reason' in square && square.reason).toMatch(/its mesh #1 fills 64% of its fitted cylinder \(radius 0.1 m, width 0.05 m\) about the joint axis, below 80%/);
  });
});

describe('mesh wheels: how far the outline strays from the fitted cylinder, and poor fits said with numbers', () => {
  const q = quatFromEuler([0, 0, 0, 1], 0, 0, 0);
  /** A prism about y: n outline points at radius r·(1 + lump·cos(lobes·a)), y from −0.02 to 0.03. */
  const ring = (n: number, r: number, lump = 0, lobes = 5): Vec3[] => {
    const pts: Vec3[] = [];
    for (let k = 0; k < n; k++) {
      const a = (2 * Math.PI * k) / n;
      const rr = r * (1 + lump * Math.cos(lobes * a));
      pts.push([rr * Math.cos(a), -0.02, rr * Math.sin(a)], [rr * Math.cos(a), 0.03, rr * Math.sin(a)]);
    }
    return pts;
  };
  const fit = (points: Vec3[]) => {
    const f = frameWheel([{ shape: { type: 'hull', points }, position: [0, 0, 0], orientation: q }], [0, 0, 0], [0, 1, 0]);
    if (!('fit' in f)) throw new Error(f.reason);
    return f.fit;
  };

  it('a 48-sided cylinder: its outline within r(1 − cos(π/48)) of the radius, a good fit', () => {
    const f = fit(ring(48, 0.1));
    expect(f.deviation.max).toBeGreaterThan(0);
    expect(f.deviation.max).toBeLessThanOrEqual(0.1 * (1 - Math.cos(Math.PI / 48)) + 1e-12);
    expect(describeMeshFit(f)).toMatch(/^, the mesh fills (99|100)% of it and its outline lies up to 0\.\d+ mm \(RMS 0\.\d+ mm\) inside its radius$/);
  });

  it('an octagon: 7.61 mm (1 − cos(π/8) of 0.1 m) inside, a poor fit, said', () => {
    const f = fit(ring(8, 0.1));
    expect(f.deviation.max).toBeCloseTo(0.1 * (1 - Math.cos(Math.PI / 8)), 12);
    expect(describeMeshFit(f)).toMatch(/fills 90% of it and its outline lies up to 7\.61 mm \(RMS [\d.]+ mm\) inside its radius: a poor fit \(more than 2% of the radius/);
  });

  // its hull bridges the troughs between lobes: 14 mm inside the 0.11 m radius, not the troughs' 20 mm
  it('a lumpy wheel (five lobes, ±10%) through the URDF loader: its link\'s warning names the poor fit with numbers', () => {
    const pts = ring(60, 0.1, 0.1);
    // an OBJ prism: the outline's two rings, side quads and fan caps
    const n = pts.length / 2;
    const lines = pts.map((p) => `v ${p[0]} ${p[1]} ${p[2]}`);
    const ccw = (k: number) => 2 * k + 1; // 1-based: ring k's y = −0.02 vertex
    for (let k = 0; k < n; k++) {
      const j = (k + 1) % n;
      lines.push(`f ${ccw(k)} ${ccw(j)} ${ccw(j) + 1}`, `f ${ccw(k)} ${ccw(j) + 1} ${ccw(k) + 1}`);
    }
    for (let k = 1; k + 1 < n; k++) lines.push(`f ${ccw(0)} ${ccw(k + 1)} ${ccw(k)}`, `f ${ccw(0) + 1} ${ccw(k) + 1} ${ccw(k + 1) + 1}`);
    const obj = new TextEncoder().encode(lines.join('\n'));
    const out = loadUrdfRobot(urdf('<geometry><mesh filename="lumpy.obj"/></geometry>'), { controller: 'none', meshes: () => obj });
    expect(out.wheels.map((w) => w.body).sort()).toEqual(['left_wheel', 'right_wheel']);
    const line = out.warnings.find((w) => w.startsWith('link "left_wheel"') && /the analytic wheel/.test(w)) ?? '';
    expect(line).toMatch(/radius 0\.11 m.*outline lies up to 14\.\d mm \(RMS [\d.]+ mm\) inside its radius: a poor fit/);
  });

  it('the Leo as shipped (fixture): its wheels\' Wheel_outline.stl fitted with the two cylinders, a good fit, said with numbers', async () => {
    const root = resolve(__dirname, '../../fixtures/robots/leo');
    const main = 'leo_description/urdf/leo.urdf.xacro';
    const read = (p: string) => {
      try {
        return readFileSync(join(root, p));
      } catch {
        return undefined;
      }
    };
    const x = await expandXacro(readFileSync(join(root, main), 'utf8'), { path: main, readFile: (p) => read(p)?.toString('utf8') });
    const out = loadUrdfRobot(x.urdf, { urdfPath: main, controller: 'none', meshes: (p) => { const b = read(p); return b ? new Uint8Array(b) : undefined; } });
    const lines = out.warnings.filter((w) => /^link "wheel_\w+_link": its 3 collision shapes collide as one cylinder/.test(w));
    expect(lines.length).toBe(4);
    for (const l of lines) {
      expect(l).toMatch(/radius 0\.0625 m, width 0\.07 m, the mesh fills 9\d% of it and its outline lies up to 0\.\d+ mm \(RMS 0\.\d+ mm\) inside its radius\): the analytic wheel/);
      expect(l).not.toMatch(/poor fit/);
    }
  });

  it('a wheel written on a revolute joint with a full turn of limits is not a wheel, and its warning names the link, joint and fix', () => {
    const revolute = (lower: number, upper: number) => urdf('<geometry><cylinder radius="0.1" length="0.05"/></geometry>', '0 0 1')
      .replace(/type="continuous">/g, `type="revolute"><limit lower="${lower}" upper="${upper}" effort="10" velocity="10"/>`);
    const wide = analyticBodies(revolute(-1e16, 1e16));
    expect(wide.wheels).toEqual([]);
    expect(wide.warnings.filter((w) => /revolute joint/.test(w))).toEqual([
      'link "left_wheel" turns on revolute joint "left_wheel_joint" (limits -1e+16 to 1e+16 rad, a full turn or more) but is not an analytic wheel: only continuous joints make wheels (a revolute joint keeps its limits); it collides through the general routine: make the joint continuous if it is a wheel',
      'link "right_wheel" turns on revolute joint "right_wheel_joint" (limits -1e+16 to 1e+16 rad, a full turn or more) but is not an analytic wheel: only continuous joints make wheels (a revolute joint keeps its limits); it collides through the general routine: make the joint continuous if it is a wheel',
    ]);
    // a steering joint (±30°) is no wheel and says nothing
    expect(analyticBodies(revolute(-0.52, 0.52)).warnings.filter((w) => /revolute joint/.test(w))).toEqual([]);
  });
});
