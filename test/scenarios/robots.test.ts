/**
 * The bundled URDF robots in the dynamics world (issue #14's tests): each settles on flat ground
 * with no wheel deeper than 0.5 mm, drives 10 m straight within 2° of its heading, the Ackermann
 * car turns on the circle its geometry predicts, and the six-wheeled rover pulls its trailer
 * onto a sand hill while the trailer stays on grass.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDynamicsWorld } from '../../sim/dynamics/build';
import { robotDriveController } from '../../sim/robot/controllers/world-drive';
import type { RobotSpec, WorldSpec } from '../../sim/dynamics/spec';
import type { DynamicsWorld } from '../../sim/dynamics/world';
import { loadUrdfRobot } from '../../sim/robot/urdf/load-urdf';
import { placeOnTerrain } from '../../sim/robot/place-robot';
import { parseScenarioFile } from '../../sim/scenario/scenario-v2';
import { Heightfield } from '../../sim/terrain/heightfield';
import { collideCylinderTerrain } from '../../sim/collision/cylinder-terrain/plain-api';
import { ShapeKind } from '../../sim/shapes/shape';
import type { CylinderShape } from '../../sim/shapes/cylinder';

const ROOT = join(__dirname, '../..');
const ROBOTS = ['rover6-trailer', 'skid-steer4', 'ackermann-car', 'diff-drive-caster'];

function flat(size = 40, d = 0.1, heightAt: (x: number, y: number) => number = () => 0): Heightfield {
  const n = Math.round(size / d) + 1;
  const h = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) h[j * n + i] = heightAt(-size / 2 + i * d, -size / 2 + j * d);
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -size / 2, y0: -size / 2, heights: h });
}

/** The robot of a bundled scenario (its controller), placed at (x, y, yaw) on `hf`. */
function robot(name: string, hf: Heightfield, x = 0, y = 0, yaw = 0): RobotSpec {
  const scenario = parseScenarioFile(JSON.parse(readFileSync(join(ROOT, 'assets/scenarios', `robot-${name}.json`), 'utf8')));
  const entry = scenario.robot as { controller?: RobotSpec['controller'] };
  const text = readFileSync(join(ROOT, 'assets/robots', `${name}.urdf`), 'utf8');
  const loaded = loadUrdfRobot(text, {
    position: [x, y, 0], yaw, urdfPath: `assets/robots/${name}.urdf`,
    meshes: (p) => new Uint8Array(readFileSync(join(ROOT, p))),
    controller: entry.controller ?? 'infer',
  });
  return placeOnTerrain(loaded.robot, hf);
}

function world(r: RobotSpec, hf: Heightfield, extra: Partial<WorldSpec> = {}): DynamicsWorld {
  return createDynamicsWorld({
    name: 'robot', gravity: [0, 0, -9.81], dt: 1 / 240, substeps: 4, sleep: true, ccd: false,
    materials: { default: { friction: 0.9 } }, terrainMaterials: {}, bodies: [], joints: [], robot: r, script: [], ...extra,
  }, hf, robotDriveController);
}

/** Deepest exact wheel penetration over every cylinder body. */
function deepestWheel(w: DynamicsWorld, hf: Heightfield): number {
  let d = 0;
  for (let b = 0; b < w.bodies.count; b++) {
    const s = w.bodies.shapes[b];
    if (s === null || s.kind !== ShapeKind.Cylinder) continue;
    const c = s as CylinderShape;
    const pos: [number, number, number] = [0, 0, 0];
    const q: [number, number, number, number] = [0, 0, 0, 1];
    w.bodies.shapePose(pos, q, b);
    const axis: [number, number, number] = [2 * (q[0] * q[2] + q[1] * q[3]), 2 * (q[1] * q[2] - q[0] * q[3]), 1 - 2 * (q[0] * q[0] + q[1] * q[1])];
    for (const k of collideCylinderTerrain({ center: pos, axis, radius: c.radius, height: c.height }, hf).contacts) d = Math.max(d, k.depth);
  }
  return d;
}

function heading(w: DynamicsWorld, b: number): number {
  const q = w.bodies.rot.subarray(4 * b, 4 * b + 4);
  return Math.atan2(2 * (q[3] * q[2] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
}

describe('bundled robots on flat ground', () => {
  for (const name of ROBOTS) {
    it(`${name}: settles within 1 s with no wheel deeper than 0.5 mm, then drives 10 m straight within 2°`, () => {
      const hf = flat(40, 0.1);
      const r = robot(name, hf, -12, 0, 0);
      const w = world(r, hf);
      w.step(240);
      const base = w.bodies.indexOf(r.base);
      const speed = Math.hypot(w.bodies.linVel[3 * base], w.bodies.linVel[3 * base + 1], w.bodies.linVel[3 * base + 2]);
      expect(speed).toBeLessThan(0.02);
      expect(deepestWheel(w, hf)).toBeLessThan(0.5e-3);
      const x0 = w.bodies.pos[3 * base], y0 = w.bodies.pos[3 * base + 1];
      w.setDrive(1, 0);
      let steps = 0;
      while (Math.hypot(w.bodies.pos[3 * base] - x0, w.bodies.pos[3 * base + 1] - y0) < 10 && steps < 240 * 40) {
        w.step(24);
        steps += 24;
      }
      expect(w.fault).toBeNull();
      expect(Math.hypot(w.bodies.pos[3 * base] - x0, w.bodies.pos[3 * base + 1] - y0)).toBeGreaterThanOrEqual(10);
      const dir = Math.atan2(w.bodies.pos[3 * base + 1] - y0, w.bodies.pos[3 * base] - x0);
      expect(Math.abs(dir * 180 / Math.PI)).toBeLessThan(2);
      expect(Math.abs(heading(w, base) * 180 / Math.PI)).toBeLessThan(2);
    });
  }
});

describe('the Ackermann car', () => {
  it('turns on the circle its geometry predicts (radius within 5 %)', () => {
    const hf = flat(40, 0.1);
    const r = robot('ackermann-car', hf, 0, -6, 0);
    const ctl = r.controller as Extract<RobotSpec['controller'], { type: 'ackermann' }>;
    const w = world(r, hf);
    w.step(120);
    const steer = 0.5;
    w.setDrive(0.4, steer);
    w.step(240 * 4); // settle into the turn
    // the rear axle's centre moves on the circle; sample the base path over a lap
    const base = w.bodies.indexOf(r.base);
    const pts: [number, number][] = [];
    for (let k = 0; k < 120; k++) {
      w.step(12);
      pts.push([w.bodies.pos[3 * base], w.bodies.pos[3 * base + 1]]);
    }
    // least-squares circle through the points (Kåsa fit)
    let sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sxz = 0, syz = 0, sz = 0;
    for (const [x, y] of pts) {
      const z = x * x + y * y;
      sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y; sxz += x * z; syz += y * z; sz += z;
    }
    const n = pts.length;
    const A = [[sxx, sxy, sx], [sxy, syy, sy], [sx, sy, n]], B = [sxz, syz, sz];
    const det = (m: number[][]) => m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    const D = det(A);
    const sol = [0, 1, 2].map((c) => det(A.map((row, i) => row.map((v, j) => (j === c ? B[i] : v)))) / D);
    const cx = sol[0] / 2, cy = sol[1] / 2;
    const R = Math.sqrt(sol[2] + cx * cx + cy * cy);
    // predicted by the bicycle model: δ = steer·δmax, δmax the angle at which the inner wheel
    // reaches maxSteer; the rear axle's centre turns on R = L / tan δ, and the base origin, a
    // ahead of the rear axle, on √(R² + a²)
    const L = ctl.wheelbase, T = ctl.track;
    const kappaMax = Math.tan(ctl.maxSteer) / (L + (Math.tan(ctl.maxSteer) * T) / 2);
    const Rrear = L / Math.tan(steer * Math.atan(L * kappaMax));
    const rearAxle = w.joints.defs.find((d) => d.name === 'rear_left_wheel_joint')!;
    const a = -rearAxle.anchorA[0];
    const predicted = Math.hypot(Rrear, a);
    expect(Math.abs(R / predicted - 1)).toBeLessThan(0.05);
  });
});

describe('the paper\'s second scene: the six-wheeled rover with its cargo trailer', () => {
  it('climbs onto a sand hill while the trailer stays on grass, and the trailer follows through a turn', () => {
    // a 0.6 m sand hill (cosine bump, radius 3 m) centred at x = 3 on flat grass
    const hill = (x: number, y: number) => {
      const r = Math.hypot(x - 3, y);
      return r < 3 ? 0.3 * (1 + Math.cos((Math.PI * r) / 3)) : 0;
    };
    const hf = flat(30, 0.05, hill);
    const r = robot('rover6-trailer', hf, -3.5, 0, 0);
    const w = world(r, hf, {
      materials: { default: { friction: 0.8 }, grass: { friction: 0.7 }, sand: { friction: 0.5, rollingResistance: 0.05 } },
      terrainMaterials: { material: 'grass', regions: [{ material: 'sand', shape: 'circle', center: [3, 0], radius: 3 }] },
    });
    w.step(240);
    const base = w.bodies.indexOf(r.base);
    const trailer = w.bodies.names.findIndex((n) => n.includes('trailer') && !n.includes('wheel'));
    expect(trailer).toBeGreaterThanOrEqual(0);
    w.setDrive(0.8, 0);
    let onSand = false, trailerOnGrass = true;
    for (let k = 0; k < 240 * 8 && !onSand; k++) {
      w.step();
      const bx = w.bodies.pos[3 * base], by = w.bodies.pos[3 * base + 1];
      const tx = w.bodies.pos[3 * trailer], ty = w.bodies.pos[3 * trailer + 1];
      if (Math.hypot(bx - 3, by) < 1.5 && w.bodies.pos[3 * base + 2] > 0.4) {
        onSand = true;
        trailerOnGrass = Math.hypot(tx - 3, ty) > 3;
      }
    }
    expect(w.fault).toBeNull();
    expect(onSand).toBe(true);
    expect(trailerOnGrass).toBe(true);
    // the contacts under the rover name the sand's friction (√(0.8·0.5)), the trailer's the grass's
    // a turn, then straight on: the trailer follows and lines up behind the rover again
    w.setDrive(0.6, 0.6);
    w.step(240 * 3);
    const turned = heading(w, base);
    w.setDrive(0.6, 0);
    w.step(240 * 8);
    expect(w.fault).toBeNull();
    expect(Math.abs(turned)).toBeGreaterThan(0.5);
    let dh = heading(w, trailer) - heading(w, base);
    dh = Math.atan2(Math.sin(dh), Math.cos(dh));
    expect(Math.abs(dh)).toBeLessThan((10 * Math.PI) / 180);
  });
});

describe('assets/scenarios/barrels.json in the world (the paper\'s first scene)', () => {
  it('each barrel rests with its expected contact case (base, side, the curb\'s edge) and does not jitter', async () => {
    const { readScenarioFiles } = await import('../../sim/node/cli');
    const { createDefaultService } = await import('../../sim/app/default-service');
    const { WheelContactKind } = await import('../../sim/collision/contact');
    const svc = createDefaultService();
    await svc.load(readScenarioFiles(join(ROOT, 'assets/scenarios/barrels.json')));
    const w = svc.getWorld()!.engine;
    w.step(480);
    const names = ['barrel-base', 'barrel-side', 'barrel-curb'];
    const idx = names.map((n) => w.bodies.indexOf(n));
    const p0 = idx.map((b) => Array.from(w.bodies.pos.subarray(3 * b, 3 * b + 3)));
    w.step(480);
    idx.forEach((b, k) => {
      const d = Math.hypot(...p0[k].map((v, i) => w.bodies.pos[3 * b + i] - v));
      expect(d).toBeLessThan(1e-3);
    });
    const kinds = (b: number) => {
      const s = new Set<number>();
      for (let i = 0; i < w.contacts.count; i++) if (w.contacts.bodyA[i] === b && w.contacts.depth[i] > -1e-3) s.add(w.contacts.kind[i]);
      return s;
    };
    const base = kinds(idx[0]), side = kinds(idx[1]), curb = kinds(idx[2]);
    expect(base.has(WheelContactKind.FlatPatch) || base.has(WheelContactKind.BaseA)).toBe(true);
    expect(side.has(WheelContactKind.FlatPatch) || side.has(WheelContactKind.SideB)).toBe(true);
    expect(curb.has(WheelContactKind.EdgeVertex)).toBe(true);
    svc.dispose();
  });
});
