/**
 * Real ROS robot descriptions (test/fixtures/robots/, unmodified files with their licences) in
 * the dynamics world: expanded (xacro), loaded, placed, driven; what the checks of issue #27
 * measure — the share of wheel–terrain contacts that are the paper's classified ones, the
 * deepest contact, the heading change driving straight, the yaw of a turn.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDynamicsWorld } from '../../../sim/dynamics/build';
import type { RobotSpec, WorldSpec } from '../../../sim/dynamics/spec';
import { CONTACT_KIND_CONVEX_TERRAIN } from '../../../sim/dynamics/frame-layout';
import type { DynamicsWorld } from '../../../sim/dynamics/world';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { robotDriveController } from '../../../sim/robot/controllers/world-drive';
import type { UrdfRobot, UrdfToRobotOptions } from '../../../sim/robot/urdf/urdf-to-robot';
import { expandXacro, isXacro } from '../../../sim/robot/urdf/xacro';
import { placeOnTerrain } from '../../../sim/robot/place-robot';
import { Heightfield } from '../../../sim/terrain/heightfield';
import { decodeTerrain } from '../../../sim/terrain/load-terrain';

const HERE = fileURLToPath(new URL('.', import.meta.url));

export const FIXTURES = join(HERE, '../../fixtures/robots');
const ROOT = join(HERE, '../../..');

function readText(p: string): string | undefined {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

/** A fixture's URDF (xacro expanded) loaded with the scenario's options. */
export async function loadFixture(rel: string, options: UrdfToRobotOptions = {}, args?: Record<string, string>): Promise<UrdfRobot> {
  const path = join(FIXTURES, rel);
  let text = readFileSync(path, 'utf8');
  if (isXacro(text)) text = (await expandXacro(text, { path, readFile: readText, args })).urdf;
  return loadUrdfRobot(text, {
    urdfPath: path,
    meshes: (p) => {
      try {
        return new Uint8Array(readFileSync(p));
      } catch {
        return undefined;
      }
    },
    ...options,
  });
}

export function flatGround(size = 20, d = 0.1): Heightfield {
  const n = Math.round(size / d) + 1;
  return Heightfield.fromArray({ cols: n, rows: n, dx: d, dy: d, x0: -size / 2, y0: -size / 2, heights: new Float64Array(n * n) });
}

let hillsCache: Heightfield | null = null;
export function hills(): Heightfield {
  if (hillsCache) return hillsCache;
  const sidecar = JSON.parse(readFileSync(join(ROOT, 'assets/terrains/hills.json'), 'utf8'));
  hillsCache = decodeTerrain(sidecar, new Uint8Array(readFileSync(join(ROOT, 'assets/terrains/hills.png'))));
  return hillsCache;
}

export function robotWorld(robot: RobotSpec, hf: Heightfield, extra: Partial<WorldSpec> = {}): DynamicsWorld {
  return createDynamicsWorld({
    name: 'ros-robot', gravity: [0, 0, -9.81], dt: 1 / 240, substeps: 4, sleep: false, ccd: false,
    materials: { default: { friction: 0.9 } }, terrainMaterials: {}, bodies: [], joints: [], robot: placeOnTerrain(robot, hf), script: [], ...extra,
  }, hf, robotDriveController);
}

/** Running counts over steps: wheel–terrain contacts by kind, the deepest contact. */
export class ContactTally {
  classified = 0;
  general = 0;
  deepest = 0;
  private readonly wheelBodies: Set<number>;
  constructor(w: DynamicsWorld, wheels: readonly string[]) {
    this.wheelBodies = new Set(wheels.map((n) => w.bodies.indexOf(n)));
  }
  add(w: DynamicsWorld): void {
    const c = w.contacts;
    for (let i = 0; i < c.count; i++) {
      if (c.depth[i] > this.deepest) this.deepest = c.depth[i];
      if (c.bodyB[i] !== -1 || !this.wheelBodies.has(c.bodyA[i]) || c.depth[i] < 0) continue;
      if (c.kind[i] === CONTACT_KIND_CONVEX_TERRAIN) this.general++;
      else this.classified++;
    }
  }
  get share(): number {
    const n = this.classified + this.general;
    return n === 0 ? NaN : this.classified / n;
  }
}

export function yaw(w: DynamicsWorld, body: number): number {
  const q = w.bodies.rot.subarray(4 * body, 4 * body + 4);
  return Math.atan2(2 * (q[3] * q[2] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
}

export function wrap(a: number): number {
  return Math.atan2(Math.sin(a), Math.cos(a));
}

/** Steps n, tallying contacts after each step. */
export function run(w: DynamicsWorld, n: number, tally?: ContactTally): void {
  for (let k = 0; k < n; k++) {
    w.step(1);
    tally?.add(w);
  }
}
