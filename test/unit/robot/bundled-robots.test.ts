/**
 * The bundled robots (assets/robots/*.urdf) and their scenarios (assets/scenarios/robot-*.json):
 * counts, masses, inertias consistent with the collision primitives, wheels as plain cylinders
 * whose z is the axle, all ground contacts on one plane, the inferred controllers, and the
 * scenario files pointing at files that exist with the same controller.
 */
import { controllerJoints } from '../../../sim/robot/urdf/urdf-to-robot';
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { urdfReferencedFiles } from '../../../sim/robot/urdf/load-urdf';
import { parseObj } from '../../../sim/robot/mesh/obj';
import { meshVolume } from '../../../sim/robot/mesh/triangle-mesh';
import type { BodySpec, ControllerSpec, ConvexShapeSpec, QuatSpec, Vec3Spec } from '../../../sim/dynamics/spec';
import { queryConvex } from '../../../sim/collision/query-convex';
import type { ConvexBodyDesc } from '../../../sim/collision/query-convex';
import { quatMultiply, quatRotate } from '../../../sim/math/quat';

const ROOT = join(__dirname, '../../..');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');

interface Expect {
  bodies: number;
  joints: number;
  mass: number;
  controller: ControllerSpec['type'];
  driven: number;
  balls: string[];
}
const ROBOTS: Record<string, Expect> = {
  'skid-steer4': { bodies: 5, joints: 4, mass: 20 + 4 * 1.5, controller: 'skid-steer', driven: 4, balls: [] },
  'diff-drive-caster': { bodies: 4, joints: 3, mass: 8 + 2 * 0.5 + 0.1, controller: 'differential', driven: 2, balls: ['caster_joint'] },
  'ackermann-car': { bodies: 7, joints: 6, mass: 30 + 2 * 0.3 + 4 * 1, controller: 'ackermann', driven: 4, balls: [] },
  'rover6-trailer': { bodies: 10, joints: 9, mass: 51 + 6 * 3 + 30 + 2 * 2, controller: 'skid-steer', driven: 6, balls: ['hitch'] },
};

/** Solid-primitive inertia about the centre, [ixx, iyy, izz]. */
function primitiveInertia(s: ConvexShapeSpec, m: number): number[] | undefined {
  if (s.type === 'box') {
    const [a, b, c] = s.halfExtents.map((h) => 2 * h);
    return [(m * (b * b + c * c)) / 12, (m * (a * a + c * c)) / 12, (m * (a * a + b * b)) / 12];
  }
  if (s.type === 'cylinder') {
    const t = (m * (3 * s.radius * s.radius + s.height * s.height)) / 12;
    return [t, t, (m * s.radius * s.radius) / 2];
  }
  if (s.type === 'sphere') return [0.4 * m * s.radius * s.radius, 0.4 * m * s.radius * s.radius, 0.4 * m * s.radius * s.radius];
  return undefined;
}
function rotZ(q: QuatSpec): number[] {
  const [x, y, z, w] = q;
  return [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)];
}
function symmetricEigenPositive(t: number[]): boolean {
  // Sylvester on [ixx ixy ixz; ixy iyy iyz; ixz iyz izz]
  const [a, b, c, d, e, f] = t;
  return a > 0 && a * b - d * d > 0 && a * (b * c - f * f) - d * (d * c - f * e) + e * (d * f - b * e) > 0;
}

describe.each(Object.entries(ROBOTS))('bundled robot %s', (name, want) => {
  const urdfPath = `assets/robots/${name}.urdf`;
  const text = read(urdfPath);
  const out = loadUrdfRobot(text, { position: [2, -1, 0.6], yaw: 0.3, urdfPath });
  const r = out.robot;
  const bodies = new Map(r.bodies.map((b) => [b.name, b]));

  it('loads without warnings with the expected bodies, joints and mass', () => {
    expect(out.warnings).toEqual([]);
    expect(r.bodies).toHaveLength(want.bodies);
    expect(r.joints).toHaveLength(want.joints);
    expect(r.bodies.reduce((s, b) => s + (b.mass as number), 0)).toBeCloseTo(want.mass, 9);
    expect(r.base).toBe('base_link');
    expect(r.joints.filter((j) => j.type === 'ball').map((j) => j.name)).toEqual(want.balls);
    // Collision is primitives only; the rover's camera mast is the one visual mesh.
    const files = urdfReferencedFiles(out.model, urdfPath);
    expect(files).toEqual(name === 'rover6-trailer' ? [{ path: 'assets/robots/meshes/rover-mast.obj', uri: 'meshes/rover-mast.obj', link: 'base_link', role: 'visual' }] : []);
    for (const f of files) {
      const m = parseObj(readFileSync(join(ROOT, f.path)), f.path);
      expect(meshVolume(m).closed).toBe(true);
    }
  });

  it('has physically consistent inertias (positive definite; single primitives match the solid formula)', () => {
    for (const b of r.bodies) {
      const t = b.inertia as number[];
      expect(symmetricEigenPositive(t), b.name).toBe(true);
      expect(t[0] + t[1] >= t[2] && t[1] + t[2] >= t[0] && t[0] + t[2] >= t[1], `${b.name} triangle inequality`).toBe(true);
      if (b.shape.type !== 'compound') {
        const p = primitiveInertia(b.shape, b.mass as number) as number[];
        for (let k = 0; k < 3; k++) expect(t[k] / p[k], `${b.name} I[${k}]`).toBeCloseTo(1, 5);
        // The centre of mass lies inside the shape (the diff-drive chassis is rear-weighted on purpose).
        if (b.shape.type === 'box') (b.centerOfMass as number[]).forEach((c, k) => expect(Math.abs(c)).toBeLessThan((b.shape as { halfExtents: number[] }).halfExtents[k]));
        else expect(b.centerOfMass).toEqual([0, 0, 0]);
      }
    }
  });

  it('has wheels that are plain cylinders on continuous joints with the cylinder axis along the joint axis', () => {
    const wheels = r.joints.filter((j) => j.type === 'revolute' && !j.limits && /wheel/.test(j.name));
    expect(wheels.length).toBeGreaterThanOrEqual(2);
    for (const j of wheels) {
      const b = bodies.get(j.bodyB) as BodySpec;
      expect(b.shape.type, j.name).toBe('cylinder');
      const z = rotZ(b.orientation as QuatSpec);
      const a = j.axis as number[];
      expect(Math.abs(z[0] * a[0] + z[1] * a[1] + z[2] * a[2]), j.name).toBeCloseTo(1, 12);
      expect(a[2]).toBeCloseTo(0, 12); // axles horizontal at the start pose
    }
  });

  it('stands level: every wheel bottom and the caster ball touch one plane', () => {
    const bottoms: number[] = [];
    for (const b of r.bodies) {
      if (b.shape.type === 'cylinder' || (b.shape.type === 'sphere' && b.name !== r.base)) bottoms.push((b.position as number[])[2] - b.shape.radius);
    }
    expect(bottoms.length).toBeGreaterThanOrEqual(3);
    for (const z of bottoms) expect(z).toBeCloseTo(bottoms[0], 12);
  });

  it('starts with no two bodies overlapping (1 cm clearance between bodies, GJK distance)', () => {
    type Part = { body: string; desc: ConvexBodyDesc };
    const parts: Part[] = [];
    for (const b of r.bodies) {
      const bp = b.position as [number, number, number], bq = b.orientation as [number, number, number, number];
      const children = b.shape.type === 'compound' ? b.shape.children : [{ shape: b.shape, position: [0, 0, 0] as Vec3Spec, orientation: [0, 0, 0, 1] as QuatSpec }];
      for (const c of children) {
        const p = quatRotate([0, 0, 0], bq, (c.position ?? [0, 0, 0]) as [number, number, number]);
        const q = quatMultiply([0, 0, 0, 1], bq, (c.orientation ?? [0, 0, 0, 1]) as [number, number, number, number]);
        parts.push({ body: b.name, desc: { shape: c.shape as ConvexBodyDesc['shape'], position: [bp[0] + p[0], bp[1] + p[1], bp[2] + p[2]], orientation: q } });
      }
    }
    for (let i = 0; i < parts.length; i++) {
      for (let k = i + 1; k < parts.length; k++) {
        if (parts[i].body === parts[k].body) continue;
        const d = queryConvex(parts[i].desc, parts[k].desc).distance;
        expect(d, `${parts[i].body} – ${parts[k].body}`).toBeGreaterThan(0.0099);
      }
    }
  });

  it(`infers a ${want.controller} controller driving ${want.driven} joints with motors`, () => {
    const c = r.controller as ControllerSpec;
    expect(c.type).toBe(want.controller);
    const driven = controllerJoints(c);
    expect(driven).toHaveLength(want.driven);
    for (const n of driven) expect(r.joints.find((j) => j.name === n)?.motor?.maxTorque, n).toBeGreaterThan(0);
    expect(r.joints.filter((j) => j.motor).length).toBe(want.driven);
    expect(driven.some((n) => /trailer|caster/.test(n))).toBe(false);
  });

  it(`has a scenario assets/scenarios/robot-${name}.json in the v2 shape with the same controller`, () => {
    const rel = `assets/scenarios/robot-${name}.json`;
    const s = JSON.parse(read(rel));
    expect(s.format).toBe('terrawheel-scenario');
    expect(s.version).toBe(2);
    expect(typeof s.name).toBe('string');
    expect(existsSync(join(ROOT, dirname(rel), s.terrain))).toBe(true);
    expect(join(dirname(rel), s.robot.urdf)).toBe(join('assets/robots', `${name}.urdf`));
    expect(s.robot.position).toHaveLength(2);
    // Same controller (the robot here is turned by 0.3 rad, so lengths match to rounding).
    const c = r.controller as unknown as Record<string, unknown>;
    expect(Object.keys(s.robot.controller).sort()).toEqual(Object.keys(c).sort());
    for (const [k, v] of Object.entries(s.robot.controller)) {
      if (typeof v === 'number') expect(v, k).toBeCloseTo(c[k] as number, 12);
      else expect(v, k).toEqual(c[k]);
    }
    expect(s.dt).toBeGreaterThan(0);
    expect(Number.isInteger(s.substeps)).toBe(true);
    for (const cmd of s.script) expect(Object.keys(cmd).sort()).toEqual(['steer', 't', 'throttle']);
  });
});

describe('bundled robot geometry the controllers rely on', () => {
  it('skid-steer4 matches the default rover (track 0.56 m, r = 0.15 m)', () => {
    const c = loadUrdfRobot(read('assets/robots/skid-steer4.urdf')).robot.controller;
    expect(c).toMatchObject({ type: 'skid-steer', track: 0.56, wheelRadius: 0.15 });
  });
  it('ackermann-car: wheelbase 0.7 m, track 0.56 m, steering limits ±0.6 rad about +z', () => {
    const out = loadUrdfRobot(read('assets/robots/ackermann-car.urdf'));
    expect(out.robot.controller).toMatchObject({ type: 'ackermann', wheelbase: 0.7, track: 0.56, maxSteer: 0.6, wheelRadius: 0.12, steerLeft: 'front_left_steer_joint' });
    const s = out.robot.joints.find((j) => j.name === 'front_right_steer_joint');
    expect(s?.axis).toEqual([0, 0, 1]);
    expect(s?.limits).toEqual([-0.6, 0.6]);
  });
  it('rover6-trailer: the hitch ball sits 0.8 m behind and 5 cm below the chassis centre', () => {
    const out = loadUrdfRobot(read('assets/robots/rover6-trailer.urdf'), { position: [1, 2, 0.5] });
    const h = out.robot.joints.find((j) => j.name === 'hitch');
    expect(h).toMatchObject({ type: 'ball', bodyA: 'base_link', bodyB: 'trailer' });
    const a = h?.anchor as number[];
    expect(a[0]).toBeCloseTo(0.2, 12);
    expect(a[1]).toBeCloseTo(2, 12);
    expect(a[2]).toBeCloseTo(0.45, 12);
  });
});
